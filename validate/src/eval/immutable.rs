//! Immutability (upstream `immutable.go`; `vgc_codegen`'s `emit/checks/immutable.rs`).

use super::*;

/// `checks::immutable::call`: an `+k8s:immutable` check (reached only when the caller's ratchet saw a change).
pub(super) fn call(cx: &Cx<'_, '_>, path: &Path<'_>) -> ErrorList {
    v::immutable(path, cx.op)
}
