//! vgc's command line as a library: the `vgc validate` product (`validate`, `manifests`, `gomodule`), `vgc watch`'s
//! loop (`watch`), the language server of `vgc lsp` (`lsp`), tag entries as `vgc explain` prints them (`explain`), the report renderers (`render`), the dependency graph's renderers (`graph`) and lint baselines
//! (`baseline`). The build pipeline is
//! [`vgc_driver`]'s.
//!
//! # Compatibility surface
//!
//! The driver used to live in this crate. Its items keep their old paths here, re-exported from [`vgc_driver`], so
//! code written against `vgc` (the test suites, `vgc-fuzz`, benchmarks) builds unchanged:
//!
//! | old path | now |
//! |---|---|
//! | `vgc::build`, `vgc::lint`, `vgc::exit_code`, `vgc::BuildRequest`, `vgc::BuildOutcome`, `vgc::LintSettings` | the same names at [`vgc_driver`]'s root |
//! | `vgc::driver::…` | [`driver`]: the driver's request, outcome, session and database items |
//! | `vgc::cache`, `vgc::config`, `vgc::extensions`, `vgc::format`, `vgc::output`, `vgc::sys`, `vgc::target` | the driver's modules of the same names |
//! | `vgc::render::{human, human_styled, short, text}` | [`vgc_driver::render`], re-exported by [`render`] |
//!
//! New code should use [`vgc_driver`] directly.

pub mod baseline;
pub mod explain;
pub mod gomodule;
pub mod graph;
pub mod lsp;
pub mod manifests;
pub mod release;
pub mod render;
pub mod validate;
pub mod watch;

pub use vgc_driver::{BuildOutcome, BuildRequest, LintSettings, build, exit_code, lint};
pub use vgc_driver::{cache, config, extensions, format, output, sys, target};

/// The driver's items under their old module path `vgc::driver` (see the [compatibility surface](crate)).
pub mod driver {
    pub use vgc_driver::{
        BuildOutcome, BuildRequest, Database, GoTarget, LintSettings, Session, build,
        check_with_ir_cache, exit_code, lint, request_key, validate_options,
    };
}
