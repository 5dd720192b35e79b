//! The `lower` phase: the validation plan of every reachable type (`vgc_lowering`), as one crate plan.

use crate::database::Database;
use std::time::{Duration, Instant};
use vgc_lowering::CratePlan;

/// Lowers the loaded program: every reachable type's plan first in parallel (`vgc_lowering::prefetch_types`, the
/// database's top-level fan-out), then the crate plan assembled from them. Returns the plan (with lowering's
/// diagnostics, by span id) and the time it took.
pub(crate) fn lower(db: &Database) -> (CratePlan, Duration) {
    let clock = Instant::now();
    vgc_lowering::prefetch_types(db);
    let plan = vgc_lowering::crate_plan(db).clone();
    (plan, clock.elapsed())
}
