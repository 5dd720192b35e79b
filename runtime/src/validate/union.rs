//! Unions (upstream `union.go`): `union` and discriminated unions, and 1.35's errors without an origin.

use super::one;
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;

/// Shared body of upstream `unionValidate`: `None` when the update ratchets (old object present and no member's
/// set-ness changed), otherwise the names of the members that are set. `old_set` is all-false when there is no
/// old object (upstream's extractors return false for a nil object).
pub(super) fn union_specified<'a>(
    op: &Operation,
    has_old: bool,
    new_set: &[bool],
    old_set: &[bool],
    members: &[&'a str],
) -> Option<Vec<&'a str>> {
    let changed = op.is_update() && new_set.iter().zip(old_set).any(|(n, o)| n != o);
    if op.is_update() && has_old && !changed {
        return None;
    }
    Some(
        members
            .iter()
            .zip(new_set)
            .filter(|(_, s)| **s)
            .map(|(m, _)| *m)
            .collect(),
    )
}

pub(super) fn backticked(members: &[&str]) -> String {
    members
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// upstream `Union`: exactly one member must be set. None → `Invalid(path, "", "must specify one of: `a`, `b`")`;
/// several → `Invalid(path, "{a, b}", "must specify exactly one of: …")`; origin `union`. Member names are JSON
/// names.
#[must_use]
pub fn union(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    new_set: &[bool],
    old_set: &[bool],
    members: &[&str],
) -> ErrorList {
    // Exactly one member set is valid whatever the operation (the ratchet can only suppress errors).
    if new_set.iter().filter(|s| **s).count() == 1 {
        return Vec::new();
    }
    let Some(specified) = union_specified(op, has_old, new_set, old_set, members) else {
        return Vec::new();
    };
    match specified.len() {
        1 => Vec::new(),
        0 => one(Error::invalid(
            path,
            BadValue::Str(String::new()),
            format!("must specify one of: {}", backticked(members)),
        )
        .with_origin("union")),
        _ => one(Error::invalid(
            path,
            BadValue::Str(format!("{{{}}}", specified.join(", "))),
            format!("must specify exactly one of: {}", backticked(members)),
        )
        .with_origin("union")),
    }
}

/// upstream ≤ 1.35 `Union`/`DiscriminatedUnion` (apimachinery v0.35 `union.go`): the same errors without an origin.
#[must_use]
pub fn without_origin(errs: ErrorList) -> ErrorList {
    errs.into_iter().map(|e| e.with_origin("")).collect()
}

/// A member of a discriminated union: JSON name and discriminator value (`memberName`, default the Go name).
pub type DiscriminatedMember<'a> = (&'a str, &'a str);

/// upstream `DiscriminatedUnion`: for each member, set but not selected → `Invalid(path.<json>, "", "may only be
/// specified when `<disc>` is \"<memberName>\"")`; selected but unset → `"must be specified when `<disc>` is
/// \"<value>\""`; origin `union`. On update with an old object, nothing is reported when neither the discriminator
/// nor any member's set-ness changed.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
#[must_use]
pub fn discriminated_union(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    discriminator: &str,
    disc_new: &str,
    disc_old: &str,
    new_set: &[bool],
    old_set: &[bool],
    members: &[DiscriminatedMember<'_>],
) -> ErrorList {
    let mut changed = op.is_update() && disc_new != disc_old;
    let mut errs = Vec::new();
    for (i, (json, member_name)) in members.iter().enumerate() {
        let selected = disc_new == *member_name;
        let set = new_set.get(i).copied().unwrap_or(false);
        if op.is_update() && !changed {
            changed = set != old_set.get(i).copied().unwrap_or(false);
        }
        if set && !selected {
            errs.push(Error::invalid(
                &path.child(json),
                BadValue::Str(String::new()),
                format!("may only be specified when `{discriminator}` is {member_name:?}"),
            ));
        } else if !set && selected {
            errs.push(Error::invalid(
                &path.child(json),
                BadValue::Str(String::new()),
                format!("must be specified when `{discriminator}` is {disc_new:?}"),
            ));
        }
    }
    if op.is_update() && has_old && !changed {
        return Vec::new();
    }
    errs.into_iter().map(|e| e.with_origin("union")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1.35's union errors carry no origin.
    #[test]
    fn release_1_35_union_origin() {
        let root = Path::Root;
        let path = root.child("name");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter().map(|e| format!("{e} [{}]", e.origin)).collect()
        };
        let op = Operation::create();
        let u = union(
            &path,
            &op,
            false,
            &[false, false],
            &[false, false],
            &["a", "b"],
        );
        assert_eq!(u[0].origin, "union");
        assert_eq!(
            show(without_origin(u)),
            ["name: Invalid value: \"\": must specify one of: `a`, `b` []"]
        );
    }
}
