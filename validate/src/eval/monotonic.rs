//! Monotonic values (upstream `monotonic.go`; `vgc_codegen`'s `emit/checks/monotonic.rs`).

use super::*;

/// `checks::monotonic::call`: a `+k8s:monotonic` check on the new and old values as integers.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    new: Option<&Val<'_>>,
    old: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    let n = cx.int_of(new, path);
    let o = cx.int_of(old, path);
    v::monotonic(path, cx.op, n.as_ref(), o.as_ref())
}
