//! `dependentRequired` / `dependentForbidden` (upstream `validators/dependentrequired.go`;
//! `validate/dependentrequired.go`): a struct-level call naming the trigger and the dependent field with their
//! JSON names and presence extractors.

use crate::Gen;
use vgc_lowering::plan::{DependentPlan, GoTy};

pub(super) fn call(g: &mut Gen<'_>, d: &DependentPlan, value: &GoTy) -> Option<String> {
    let owner = super::each::non_pointer(value).clone();
    let q = vgc_runtime::field::go_quote;
    let args = vec![
        q(&d.trigger.json),
        super::union::member_extractor(g, &owner, &d.trigger.go)?,
        q(&d.dependent.json),
        super::union::member_extractor(g, &owner, &d.dependent.go)?,
    ];
    let func = if d.forbidden {
        "DependentForbidden"
    } else {
        "DependentRequired"
    };
    Some(super::validate_call(g, func, &args))
}
