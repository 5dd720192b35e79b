//! Dependent fields (upstream `dependentrequired.go`): `dependentRequired` and `dependentForbidden`.

use super::one;
use crate::field::{Error, ErrorList, Path};
use crate::operation::Operation;

/// upstream `DependentRequired` (`forbidden == false`) and `DependentForbidden` (`forbidden == true`), run on the
/// parent struct: when the trigger is set and the dependent is unset → `Required(path.<dep>, "must be set when
/// <trigger> is set")`, origin `dependentRequired`; when both are set → `Forbidden(path.<dep>, "may not be set when
/// <trigger> is set")`, origin `dependentForbidden`. On update with an old object, skipped when both set-nesses
/// are unchanged.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
#[must_use]
pub fn dependent(
    path: &Path<'_>,
    op: &Operation,
    forbidden: bool,
    trigger: &str,
    (trigger_set, old_trigger_set): (bool, Option<bool>),
    dependent: &str,
    (dependent_set, old_dependent_set): (bool, Option<bool>),
) -> ErrorList {
    if op.is_update()
        && let (Some(ot), Some(od)) = (old_trigger_set, old_dependent_set)
        && ot == trigger_set
        && od == dependent_set
    {
        return Vec::new();
    }
    if !trigger_set {
        return Vec::new();
    }
    match (forbidden, dependent_set) {
        (false, false) => one(Error::required(
            &path.child(dependent),
            format!("must be set when {trigger} is set"),
        )
        .with_origin("dependentRequired")),
        (true, true) => one(Error::forbidden(
            &path.child(dependent),
            format!("may not be set when {trigger} is set"),
        )
        .with_origin("dependentForbidden")),
        _ => Vec::new(),
    }
}
