//! Validators of vgc's opt-in extensions (`docs/extensions.md`): rules KEP-5073 designs that upstream
//! validation-gen never built. Generated code calls these only when the API's `vgc.toml` enables extensions.
//!
//! Field-path constraints (KEP-5073, "Referencing Fields in Validation-Gen For Cross-Field Validation Rules",
//! "Field Path Strategy"): `+k8s:minimum(constraint: minValue)` on a field compares its integer value with the
//! integer value of another field of the same parent struct (or a child of one), hoisted to that parent.

use crate::field::{Error, ErrorList, Path};
use crate::operation::Operation;

/// Which comparison a field-path constraint makes: the constrained value against the referenced field's value.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum ConstraintKind {
    /// `+k8s:minimum(constraint: p)`: value ≥ p (`must be greater than or equal to <p> (<v>)`, origin `minimum`).
    Minimum,
    /// `+k8s:maximum(constraint: p)`: value ≤ p (`must be less than or equal to <p> (<v>)`, origin `maximum`).
    Maximum,
    /// `+k8s:exclusiveMinimum(constraint: p)`: value > p (`must be greater than <p> (<v>)`, origin
    /// `exclusiveMinimum`).
    ExclusiveMinimum,
    /// `+k8s:exclusiveMaximum(constraint: p)`: value < p (`must be less than <p> (<v>)`, origin `exclusiveMaximum`).
    ExclusiveMaximum,
}

impl ConstraintKind {
    /// The tag's name without prefix, which is also the error origin: `minimum`, `maximum`, `exclusiveMinimum`,
    /// `exclusiveMaximum`.
    #[must_use]
    pub const fn origin(self) -> &'static str {
        match self {
            ConstraintKind::Minimum => "minimum",
            ConstraintKind::Maximum => "maximum",
            ConstraintKind::ExclusiveMinimum => "exclusiveMinimum",
            ConstraintKind::ExclusiveMaximum => "exclusiveMaximum",
        }
    }

    /// The comparison in words, as upstream words its constant bounds: `greater than or equal to`, `less than or
    /// equal to`, `greater than`, `less than`.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            ConstraintKind::Minimum => "greater than or equal to",
            ConstraintKind::Maximum => "less than or equal to",
            ConstraintKind::ExclusiveMinimum => "greater than",
            ConstraintKind::ExclusiveMaximum => "less than",
        }
    }

    /// True when `value` satisfies the constraint against `bound`.
    #[must_use]
    pub const fn holds(self, value: i128, bound: i128) -> bool {
        match self {
            ConstraintKind::Minimum => value >= bound,
            ConstraintKind::Maximum => value <= bound,
            ConstraintKind::ExclusiveMinimum => value > bound,
            ConstraintKind::ExclusiveMaximum => value < bound,
        }
    }
}

/// One side of a field-path constraint, as read from the parent struct: the JSON path segments below the parent,
/// the new value (`None` when a pointer on the way is nil) and, when the old parent exists, the old value.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// JSON names from the parent struct to the field (inline-embedded structs contribute no segment).
    pub path: &'a [&'a str],
    /// The new value; `None` when a pointer on the way (or the field itself) is nil.
    pub value: Option<i128>,
    /// `None` without an old parent; else the old value as [`Side::value`].
    pub old: Option<Option<i128>>,
}

/// A field-path constraint hoisted to the parent struct at `parent`: `Invalid(parent.<target>, value, "must be
/// <words> <parent.bound> (<bound value>)")` with the origin [`ConstraintKind::origin`] when the target's value
/// does not satisfy the constraint against the referenced field's value.
///
/// No check when either side is unset (a nil pointer on the way). Ratcheting as upstream ratchets its bounds: on
/// update, no error when neither side changed (both old values exist and equal the new ones).
#[must_use]
pub fn field_constraint(
    parent: &Path<'_>,
    op: &Operation,
    kind: ConstraintKind,
    target: Side<'_>,
    bound: Side<'_>,
) -> ErrorList {
    let (Some(value), Some(limit)) = (target.value, bound.value) else {
        return Vec::new();
    };
    if op.is_update() && target.old == Some(target.value) && bound.old == Some(bound.value) {
        return Vec::new();
    }
    if kind.holds(value, limit) {
        return Vec::new();
    }
    let bound_path = with_path(parent, bound.path, &|p| p.to_string());
    with_path(parent, target.path, &|p| {
        vec![
            Error::invalid(
                p,
                crate::validate::bad_value(&value),
                format!("must be {} {bound_path} ({limit})", kind.words()),
            )
            .with_origin(kind.origin()),
        ]
    })
}

/// Where an element of a list or map constrained per element is: its index, or its map key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At<'a> {
    /// A list item (`thresholds[2]`).
    Index(usize),
    /// A map value (`limits[cpu]`).
    Key(&'a str),
}

/// One element of a list or map constrained per element ([`each_field_constraint`]).
#[derive(Debug, Clone, Copy)]
pub struct Element<'a> {
    /// Its index or key.
    pub at: At<'a>,
    /// Its value.
    pub value: i128,
    /// On update: it has an old counterpart equal to it, found as `eachVal` finds one (a map value: the old value
    /// of its key; a `listType=set` item: an equal old item; an atomic list's item: none unless the whole list is
    /// unchanged). False without an old parent.
    pub unchanged: bool,
}

/// A field-path constraint per element, `+k8s:eachVal=+k8s:maximum(constraint: p)` on a list or map field (KEP-5073
/// "Comprehensive Example"), hoisted to the parent struct at `parent`: for each element, in order, `Invalid(
/// parent.<target>[i], value, "must be <words> <parent.bound> (<bound value>)")` (a map value at
/// `parent.<target>[key]`) with the origin [`ConstraintKind::origin`] when it does not satisfy the constraint
/// against the referenced field's value — the scalar form's error at the element.
///
/// No check while the referenced field is unset (a nil pointer on the way). Ratcheting: on update, an element is
/// not checked when it is [`Element::unchanged`] and the referenced value is too (the old one exists and equals the
/// new one).
#[must_use]
pub fn each_field_constraint<'e>(
    parent: &Path<'_>,
    op: &Operation,
    kind: ConstraintKind,
    target: &[&str],
    elements: impl IntoIterator<Item = Element<'e>>,
    bound: Side<'_>,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(limit) = bound.value else {
        return errs;
    };
    let bound_unchanged = op.is_update() && bound.old == Some(bound.value);
    for e in elements {
        if (bound_unchanged && e.unchanged) || kind.holds(e.value, limit) {
            continue;
        }
        let bound_path = with_path(parent, bound.path, &|p| p.to_string());
        errs.push(with_path(parent, target, &|p| {
            let at = match e.at {
                At::Index(i) => p.index(i),
                At::Key(k) => p.key(k),
            };
            Error::invalid(
                &at,
                crate::validate::bad_value(&e.value),
                format!("must be {} {bound_path} ({limit})", kind.words()),
            )
            .with_origin(kind.origin())
        }));
    }
    errs
}

/// Calls `f` with `parent.s1.s2…` for the segments `segs`.
fn with_path<R>(parent: &Path<'_>, segs: &[&str], f: &dyn Fn(&Path<'_>) -> R) -> R {
    match segs.split_first() {
        None => f(parent),
        Some((first, rest)) => with_path(&parent.child(first), rest, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side<'a>(path: &'a [&'a str], value: Option<i128>, old: Option<Option<i128>>) -> Side<'a> {
        Side { path, value, old }
    }

    #[test]
    fn messages_name_the_other_field_and_its_value() {
        let root = Path::Root;
        let spec = root.child("spec");
        let op = Operation::create();
        let errs = field_constraint(
            &spec,
            &op,
            ConstraintKind::Minimum,
            side(&["current"], Some(3), None),
            side(&["limits", "minValue"], Some(5), None),
        );
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.current: Invalid value: 3: must be greater than or equal to spec.limits.minValue (5)"
        );
        assert_eq!(errs[0].origin, "minimum");
        let errs = field_constraint(
            &root,
            &op,
            ConstraintKind::ExclusiveMaximum,
            side(&["current"], Some(5), None),
            side(&["maxValue"], Some(5), None),
        );
        assert_eq!(
            errs[0].to_string(),
            "current: Invalid value: 5: must be less than maxValue (5)"
        );
    }

    #[test]
    fn each_element_is_compared_at_its_own_path() {
        let root = Path::Root;
        let spec = root.child("spec");
        let el = |at, value, unchanged| Element {
            at,
            value,
            unchanged,
        };
        let bound = side(&["maxThreshold"], Some(5), Some(Some(5)));
        let run = |op: &Operation, bound: Side<'_>| {
            each_field_constraint(
                &spec,
                op,
                ConstraintKind::Maximum,
                &["thresholds"],
                [
                    el(At::Index(0), 1, false),
                    el(At::Index(1), 7, true),
                    el(At::Index(2), 9, false),
                ],
                bound,
            )
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
        };
        assert_eq!(
            run(&Operation::create(), bound),
            [
                "spec.thresholds[1]: Invalid value: 7: must be less than or equal to spec.maxThreshold (5)",
                "spec.thresholds[2]: Invalid value: 9: must be less than or equal to spec.maxThreshold (5)",
            ]
        );
        // On update an unchanged element is skipped while the bound is unchanged, and checked when it changed.
        assert_eq!(run(&Operation::update(), bound).len(), 1);
        let moved = side(&["maxThreshold"], Some(5), Some(Some(6)));
        assert_eq!(run(&Operation::update(), moved).len(), 2);
        assert!(run(&Operation::create(), side(&["maxThreshold"], None, None)).is_empty());
        let m = each_field_constraint(
            &root,
            &Operation::create(),
            ConstraintKind::ExclusiveMinimum,
            &["m"],
            [el(At::Key("a"), 0, false)],
            side(&["floor"], Some(0), None),
        );
        assert_eq!(
            m[0].to_string(),
            "m[a]: Invalid value: 0: must be greater than floor (0)"
        );
        assert_eq!(m[0].origin, "exclusiveMinimum");
    }

    #[test]
    fn nil_sides_and_unchanged_updates_are_not_checked() {
        let root = Path::Root;
        let create = Operation::create();
        let update = Operation::update();
        let bad = |op: &Operation, old: Option<Option<i128>>, old_bound: Option<Option<i128>>| {
            field_constraint(
                &root,
                op,
                ConstraintKind::Maximum,
                side(&["a"], Some(9), old),
                side(&["b"], Some(1), old_bound),
            )
            .len()
        };
        assert_eq!(bad(&create, None, None), 1);
        assert_eq!(bad(&update, Some(Some(9)), Some(Some(1))), 0);
        assert_eq!(bad(&update, Some(Some(9)), Some(Some(2))), 1);
        assert_eq!(bad(&update, None, None), 1);
        let nil = field_constraint(
            &root,
            &create,
            ConstraintKind::Maximum,
            side(&["a"], Some(9), None),
            side(&["b"], None, None),
        );
        assert!(nil.is_empty());
    }
}
