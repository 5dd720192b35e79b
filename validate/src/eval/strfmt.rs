//! Formats (upstream `strfmt.go`): `+k8s:format=<name>` (`vgc_codegen`'s `emit/checks/strfmt.rs`).

use super::*;

/// `checks::strfmt::call`: a `+k8s:format` check on the value as a string.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    f: vgc_runtime::formats::Format,
    new: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    v::format(path, cx.str_of(new, path), f)
}
