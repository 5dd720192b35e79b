//! Dependent fields (upstream `dependentrequired.go`): `dependentRequired` and `dependentForbidden` on the parent
//! struct (`vgc_codegen`'s `emit/checks/dependentrequired.rs`).

use super::*;

/// `checks::dependentrequired::call`: the set-ness of the trigger and the dependent in the new and old structs.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    d: &vgc_lowering::plan::DependentPlan,
    new: Option<&Val<'_>>,
    old: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    let op = cx.op;
    let fs = |o: &Val<'_>, r: &vgc_lowering::plan::MemberRef| field_set(o, &r.go, &r.shape);
    v::dependent(
        path,
        op,
        d.forbidden,
        &d.trigger.json,
        (
            new.is_some_and(|o| fs(o, &d.trigger)),
            old.map(|o| fs(o, &d.trigger)),
        ),
        &d.dependent.json,
        (
            new.is_some_and(|o| fs(o, &d.dependent)),
            old.map(|o| fs(o, &d.dependent)),
        ),
    )
}
