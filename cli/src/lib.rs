//! vgc: the driver. Holds the concrete salsa database, the OS [`System`](vgc_analysis::System), the build
//! pipeline (load → check → lower → generate → write atomically) and the diagnostic renderer.

pub mod baseline;
pub mod cache;
pub mod driver;
pub mod extensions;
pub mod format;
pub mod gomodule;
pub mod manifests;
pub mod output;
pub mod render;
pub mod sys;
pub mod target;
pub mod validate;
pub mod watch;

pub mod config;

pub use driver::{BuildOutcome, BuildRequest, LintSettings, build, exit_code, lint};
