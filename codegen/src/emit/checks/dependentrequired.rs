//! Dependent fields (upstream `dependentrequired.go`): `dependentRequired` and `dependentForbidden` on the parent
//! struct (`vgc_runtime::validate`'s `dependentrequired.rs`).

use super::*;

/// The call of a dependent-field check: the set-ness of the trigger and the dependent in the new and old structs.
pub(super) fn call(
    ctx: &Ctx<'_>,
    d: &vgc_lowering::plan::DependentPlan,
    site: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    let v = validators();
    let forbidden = d.forbidden;
    let (tr, tj, ts) = (&d.trigger.go, &d.trigger.json, &d.trigger.shape);
    let (dr, dj, ds) = (&d.dependent.go, &d.dependent.json, &d.dependent.shape);
    let (tset, dset) = (
        member_set(ctx, site.owner, &quote!(o), tr, ts),
        member_set(ctx, site.owner, &quote!(o), dr, ds),
    );
    quote!(#v::dependent(#path, op, #forbidden,
        #tj, (#new.is_some_and(|o| #tset), #old.map(|o| #tset)),
        #dj, (#new.is_some_and(|o| #dset), #old.map(|o| #dset))))
}
