//! Monotonic values (upstream `monotonic.go`; `vgc_runtime::validate`'s `monotonic.rs`).

use super::*;

/// The call of a `+k8s:monotonic` check on the new and old values.
pub(super) fn call(ops: Operands<'_>) -> TokenStream {
    let Operands { new, old, path } = ops;
    let v = validators();
    quote!(#v::monotonic(#path, op, #new, #old))
}
