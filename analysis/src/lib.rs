//! vgc-analysis: cross-package analyses. Loads a module tree through [`system::System`] into a
//! [`program::Program`], resolves Go types ([`types`]), selects root types as upstream `targets.go` does, and
//! computes reachability.
//!
//! Invariant: no IO outside the `System` trait.

pub mod buildtags;
pub mod gomod;
pub mod lint;
pub mod program;
pub mod system;
pub mod types;

pub use program::{Program, TypeKey, Workspace, load, load_selected, loaded_program};
pub use system::{MemorySystem, System};
