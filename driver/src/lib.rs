//! vgc's driver: the build pipeline shared by the `vgc` command line and `vgc-build`.
//!
//! A build goes through named phases (the private module `phases`): load → settings → check (beside lower) → lower → generate →
//! format → write. [`build`] runs them once (after the build manifest says something changed); a [`Session`] keeps
//! one salsa [`Database`] across builds for `vgc watch`; [`lint`] is the front half plus the lint rules. Around
//! them: the persistent caches in `.vgc/` ([`cache`], [`format`](mod@format)), the output directory's lock and transaction
//! ([`output`]), the OS file system ([`sys`]), `vgc.toml` ([`config`]), project formats ([`extensions`]), the
//! `PATH` argument ([`target`]) and the diagnostic text of `vgc check` ([`render`]). [`openapi`] runs the front
//! half with the OpenAPI backend instead (`vgc openapi`).
//!
//! IO happens here and nowhere below: the analysis crates read through the [`vgc_analysis::System`] this crate
//! implements ([`sys::OsSystem`]).

#![warn(missing_docs)]

mod analyze;
pub mod cache;
pub mod config;
mod database;
pub mod extensions;
pub mod format;
pub mod go;
mod lint;
mod one_shot;
pub mod openapi;
pub mod openapi_cost;
pub mod openapi_crd;
pub mod openapi_jsonschema;
pub mod output;
mod phases;
pub mod render;
mod request;
mod session;
pub mod sys;
pub mod target;

pub use config::LintSettings;
pub use database::Database;
pub use lint::lint;
pub use one_shot::{build, build_all, check_with_ir_cache};
pub use request::{
    BuildOutcome, BuildRequest, CoverageFixtures, GoTarget, exit_code, request_key,
    validate_options,
};
pub use session::Session;
