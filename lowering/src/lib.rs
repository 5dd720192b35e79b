//! vgc-lowering: turns the analysed program into a backend-neutral [`plan`]: per type, the ordered checks of
//! each field (cohort-sorted, with short-circuit and NonError flags and stability marks), ratchet points,
//! nested calls and element iterations, in upstream emission order (spec §3.4).
//!
//! Invariant: no Rust syntax here; codegen makes no semantic decisions.

pub mod drift;
pub mod graph;
pub mod lower;
pub mod plan;
pub mod words;

pub use lower::{ModuleKey, crate_plan, go_field_name, lower, module_plan, prefetch_types};
pub use plan::CratePlan;
