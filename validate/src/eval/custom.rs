//! `+k8s:customValidation`: the runtime's port of an upstream function (`vgc_runtime::k8s`), a function given by
//! `with_custom`, else an unchecked rule (`vgc_codegen`'s `emit/checks/custom.rs`).

use super::*;

/// `checks::custom::call`: the `customValidation` check on `owner` (on its field `field`, when set) named
/// `upstream`.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    owner: &TypeKey,
    field: Option<&str>,
    upstream: &str,
    new: Option<&Val<'_>>,
    old: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    match (
        vgc_runtime::k8s::port(&owner.pkg, &owner.name, field),
        cx.interp.custom.get(upstream),
    ) {
        (Some(port), _) => crate::ports::call(port, cx.op, path, new, old),
        (None, Some(f)) => f(cx.op, path, new, old),
        (None, None) => {
            cx.unchecked.borrow_mut().push(crate::Unchecked {
                function: upstream.to_string(),
                tag: "k8s:customValidation",
                path: path.to_string(),
            });
            ErrorList::new()
        }
    }
}
