//! Immutability (upstream `immutable.go`; `vgc_runtime::validate`'s `immutable.rs`).

use super::*;

/// The call of an `+k8s:immutable` check (reached only when the caller's ratchet saw a change).
pub(super) fn call(ops: Operands<'_>) -> TokenStream {
    let path = ops.path;
    let v = validators();
    quote!(#v::immutable(#path, op))
}
