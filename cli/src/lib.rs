//! vgc: the driver. Holds the concrete salsa database, the OS [`System`](vgc_analysis::System), the build
//! pipeline (load → check → lower → generate → write atomically) and the diagnostic renderer.

pub mod baseline;
pub mod driver;
pub mod format;
pub mod ircache;
pub mod manifest;
pub mod output;
pub mod render;
pub mod sys;
pub mod target;
pub mod unitcache;
pub mod watch;

pub mod config;

pub use driver::{BuildOutcome, BuildRequest, LintSettings, build, exit_code, lint};
