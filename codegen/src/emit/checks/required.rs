//! Requiredness (upstream `required.go`): `required`, `optional` and `forbidden` (`vgc_runtime::validate`'s
//! `required.rs`).

use super::*;

/// The call of a `required`, `optional` or `forbidden` check on the value's set-ness ([`set_expr`]).
pub(super) fn call(ctx: &Ctx<'_>, c: &Check, site: Site<'_>, ops: Operands<'_>) -> TokenStream {
    let Operands { new, path, .. } = ops;
    let v = validators();
    let set = set_expr(ctx, site.shape, new);
    match &c.kind {
        CheckKind::Required { detail: None } => quote!(#v::required(#path, #set)),
        CheckKind::Required { detail: Some(d) } => quote!(#v::required_with(#path, #set, #d)),
        CheckKind::Optional => quote!(::vgc_runtime::ErrorList::new()),
        CheckKind::Forbidden { detail: None } => quote!(#v::forbidden(#path, #set)),
        CheckKind::Forbidden { detail: Some(d) } => quote!(#v::forbidden_with(#path, #set, #d)),
        other => unreachable!("not a requiredness check: {other:?}"),
    }
}
