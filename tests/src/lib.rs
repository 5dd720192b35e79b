//! Shared test support of vgc's suites (`tests/tests/*.rs`): the differential harness, the random-object
//! generators, the upstream oracles and the docs-site checks. Each module says what it serves.

pub mod differential;
pub mod example;
pub mod fixtures;
pub mod harness;
pub mod interpreter;
pub mod k8s_oracle;
pub mod plan_random;
pub mod randfill;
pub mod random_cases;
pub mod site_check;
