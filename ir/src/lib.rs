//! vgc-ir: the salsa foundation ([`db`]), the position-free per-file IR ([`model`]), the tag catalog
//! ([`catalog`]), catalog checking of tag uses ([`check`]) and diagnostics as data ([`diagnostic`]).
//!
//! Invariant: no IO and no knowledge of lowering or codegen.

pub mod catalog;
pub mod check;
pub mod checked;
pub mod db;
pub mod diagnostic;
pub mod extension_tags;
pub mod extensions;
pub mod model;
pub mod prefix;
pub mod profile;
pub mod source;

pub use db::{Db, Package, Settings, SourceFile};
pub use diagnostic::{ALL_CODES, Code, Diagnostic, Fix, Severity};
pub use prefix::TagPrefix;
pub use profile::Upstream;
