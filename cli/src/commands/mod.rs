//! One module per subcommand, each with a `run` taking its parsed arguments ([`crate::args`]) and the global
//! options ([`common::Globals`]) and returning the exit code; [`common`] holds what several share.

pub(crate) mod build;
pub(crate) mod check;
pub(crate) mod common;
pub(crate) mod completions;
pub(crate) mod docs;
pub(crate) mod explain;
pub(crate) mod graph;
pub(crate) mod lint;
pub(crate) mod lsp;
pub(crate) mod openapi;
pub(crate) mod openapi_crd;
pub(crate) mod openapi_jsonschema;
pub(crate) mod serve;
pub(crate) mod validate;
pub(crate) mod validation_gen;
pub(crate) mod watch;
