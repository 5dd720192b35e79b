//! vgc's driver: the build pipeline shared by the `vgc` command line and `vgc-build`.

pub mod cache;
pub mod config;
pub mod driver;
pub mod extensions;
pub mod format;
pub mod output;
pub mod render;
pub mod sys;
pub mod target;

pub use config::LintSettings;
pub use driver::{BuildOutcome, BuildRequest, Database, Session, build, exit_code, lint};
