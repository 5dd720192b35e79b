//! Limits (upstream `limits.go`): bounds of integers, durations and quantities, lengths of strings, counts of bytes,
//! items and properties (`vgc_codegen`'s `emit/checks/limits.rs`).

use super::*;

/// `checks::limits::call`: a limits check on the value as an integer, a quantity or a string, or on its length.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    c: &Check,
    new: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    let len = || new.map_or(0, Val::len);
    match &c.kind {
        CheckKind::Minimum(n) => v::minimum(path, cx.int_of(new, path).as_ref(), *n),
        CheckKind::Maximum(n) => v::maximum(path, cx.int_of(new, path).as_ref(), *n),
        CheckKind::MinimumDuration(n) => {
            let d = cx.int_of(new, path).and_then(|i| i64::try_from(i).ok());
            v::minimum_duration(path, d.as_ref(), *n)
        }
        CheckKind::MaximumDuration(n) => {
            let d = cx.int_of(new, path).and_then(|i| i64::try_from(i).ok());
            v::maximum_duration(path, d.as_ref(), *n)
        }
        CheckKind::MinimumQuantity(q) | CheckKind::MaximumQuantity(q) => {
            let bound = vgc_runtime::types::Quantity(q.clone());
            let value = match new {
                Some(Val::Quantity(x)) => Some(x),
                _ => None,
            };
            if matches!(c.kind, CheckKind::MinimumQuantity(_)) {
                v::minimum_quantity(path, value, &bound)
            } else {
                v::maximum_quantity(path, value, &bound)
            }
        }
        CheckKind::MinLength(n) => v::min_length(path, cx.str_of(new, path), *n),
        CheckKind::MaxLength(n) => v::max_length(path, cx.str_of(new, path), *n),
        CheckKind::MaxLengthBytes(n) => v::max_length_bytes(path, cx.str_of(new, path), *n),
        CheckKind::MaxBytes(n) => v::max_bytes(path, cx.str_of(new, path), *n),
        CheckKind::MaxBytesSlice(n) => v::max_bytes_slice(path, len(), *n),
        CheckKind::MinItems(n) => v::min_items(path, len(), *n),
        CheckKind::MaxItems(n) => v::max_items(path, len(), *n),
        CheckKind::MinProperties(n) => v::min_properties(path, len(), *n),
        CheckKind::MaxProperties(n) => v::max_properties(path, len(), *n),
        other => unreachable!("not a limits check: {other:?}"),
    }
}
