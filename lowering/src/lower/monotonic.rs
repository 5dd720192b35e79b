//! The monotonic family: `+k8s:monotonic`.

use super::diagnostics::{TagDiagnostic, ValueKinds};
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::MonotonicTag;

impl Lowerer<'_> {
    /// `monotonic` on an integer.
    pub(super) fn lower_monotonic(
        &mut self,
        t: &TagSite<'_>,
        which: MonotonicTag,
    ) -> Option<Vec<Check>> {
        let mk = |kind: CheckKind| t.check(kind);
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let int_kind = t.int_kind();
        Some(match which {
            MonotonicTag::Monotonic => {
                if int_kind.is_none() {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::Integer));
                }
                vec![mk(CheckKind::Monotonic)]
            }
        })
    }
}
