//! `+k8s:customValidation`: the runtime's port of an upstream function (`vgc_runtime::k8s`), else the module's
//! `Custom` trait (declared by `emit/custom.rs`).

use super::*;

/// The call of a `customValidation` check on `owner` (on its field `field`, of type `ty`, when set).
pub(super) fn call(
    ctx: &Ctx<'_>,
    owner: &TypeKey,
    field: Option<&str>,
    ty: &RustTy,
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    // k8s.io/api's and apimachinery's own functions are ported in the runtime (`vgc_runtime::k8s`).
    if let Some(port) = vgc_runtime::k8s::port(&owner.pkg, &owner.name, field) {
        let f = ident(port.rust_fn);
        // The ports read a `metav1.Time` through `vgc_runtime::k8s::GoTime`; k8s-openapi's is wrapped.
        if ctx.openapi.is_some() && matches!(ty, RustTy::WellKnown(WellKnown::Time)) {
            return quote!({
                let n = #new.map(crate::semantic::OpenapiTime);
                let o = #old.map(crate::semantic::OpenapiTime);
                ::vgc_runtime::k8s::#f(op, #path, n.as_ref(), o.as_ref())
            });
        }
        return quote!(::vgc_runtime::k8s::#f(op, #path, #new, #old));
    }
    let m = ident(&crate::ident::custom_method(owner, field));
    let module = ctx.module_of(&owner.pkg);
    quote!(<crate::custom::Custom as #module ::Custom>::#m(op, #path, #new, #old))
}
