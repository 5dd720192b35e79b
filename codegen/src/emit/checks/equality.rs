//! Equality (upstream `equality.go`): `eq` and `neq` (`vgc_runtime::validate`'s `equality.rs`).

use super::*;

/// The call of an `+k8s:eq` or `+k8s:neq` check: strings as `Option<&str>`, integers and booleans as they are.
pub(super) fn call(c: &Check, n: &vgc_lowering::plan::NeqValue, ops: Operands<'_>) -> TokenStream {
    let Operands { new, path, .. } = ops;
    let v = validators();
    let s = as_str(new);
    let (f_str, f) = if matches!(c.kind, CheckKind::Eq(_)) {
        (quote!(eq_str), quote!(eq))
    } else {
        (quote!(neq_str), quote!(neq))
    };
    match n {
        vgc_lowering::plan::NeqValue::Str(x) => quote!(#v::#f_str(#path, #s, #x)),
        vgc_lowering::plan::NeqValue::Int(i) => {
            let lit = proc_macro2::Literal::i64_unsuffixed(*i);
            quote!(#v::#f(#path, #new, #lit))
        }
        vgc_lowering::plan::NeqValue::Bool(b) => quote!(#v::#f(#path, #new, #b)),
    }
}
