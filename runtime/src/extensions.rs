//! Validators of vgc's opt-in extensions (`docs/extensions.md`): rules KEP-5073 designs that upstream
//! validation-gen never built. Generated code calls these only when the API's `vgc.toml` enables extensions.
//!
//! Field-path constraints (KEP-5073, "Referencing Fields in Validation-Gen For Cross-Field Validation Rules",
//! "Field Path Strategy"): `+k8s:minimum(constraint: minValue)` on a field compares its value with the value of
//! another field of the same parent struct (or a child of one), hoisted to that parent. Both sides are integers,
//! `resource.Quantity` values or `metav1.Duration` values ([`Operand`]).

use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;
use crate::types::{Duration, Quantity};
use std::cmp::Ordering;

/// A value a field-path constraint compares: an integer (any Go integer type, `time.Duration` as its nanoseconds,
/// widened to `i128`), a `resource.Quantity` or a `metav1.Duration`. Equality ([`PartialEq`]) is what ratcheting
/// compares: numeric for quantities (upstream `Cmp == 0`) and durations.
pub trait Operand: PartialEq {
    /// How `self` orders against `other`; `None` when either does not parse (a quantity or duration string that is
    /// not one), in which case the constraint is not checked (the value's own validation reports it).
    fn compare(&self, other: &Self) -> Option<Ordering>;
    /// The value as error messages print it: the integer, or the quantity or duration as written (spaces trimmed).
    fn shown(&self) -> String;
    /// The value as the error's bad value: an integer, or the string as written.
    fn bad(&self) -> BadValue;
}

impl Operand for i128 {
    fn compare(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    fn shown(&self) -> String {
        self.to_string()
    }
    fn bad(&self) -> BadValue {
        crate::validate::bad_value(self)
    }
}

impl Operand for &Quantity {
    /// Numerically, by [`Quantity::parts`] (mantissa and power of ten, compared exactly).
    fn compare(&self, other: &Self) -> Option<Ordering> {
        let ((m1, e1), (m2, e2)) = (self.parts()?, other.parts()?);
        Some(compare_decimal(m1, e1, m2, e2))
    }
    /// As written; the zero value (a quantity by value the JSON leaves out) as `0`, as upstream prints it.
    fn shown(&self) -> String {
        match self.0.trim() {
            "" => "0".into(),
            t => t.to_string(),
        }
    }
    fn bad(&self) -> BadValue {
        BadValue::Str(self.shown())
    }
}

impl Operand for &Duration {
    /// By [`Duration::nanos`] (Go's `time.ParseDuration`).
    fn compare(&self, other: &Self) -> Option<Ordering> {
        Some(self.nanos()?.cmp(&other.nanos()?))
    }
    /// As written; the zero value as `0s`, as upstream prints it.
    fn shown(&self) -> String {
        match self.0.trim() {
            "" => "0s".into(),
            t => t.to_string(),
        }
    }
    fn bad(&self) -> BadValue {
        BadValue::Str(self.shown())
    }
}

/// `m1 × 10^e1` against `m2 × 10^e2`, exactly: the side with the larger exponent is scaled down to the other's; if
/// that overflows, its magnitude is the larger.
fn compare_decimal(m1: i128, e1: i32, m2: i128, e2: i32) -> Ordering {
    let scale = |m: i128, by: i32| -> Option<i128> {
        let p = 10i128.checked_pow(u32::try_from(by).ok()?)?;
        m.checked_mul(p)
    };
    match e1.cmp(&e2) {
        Ordering::Equal => m1.cmp(&m2),
        Ordering::Greater => match scale(m1, e1 - e2) {
            Some(a) => a.cmp(&m2),
            None => 0.cmp(&m1).reverse(),
        },
        Ordering::Less => match scale(m2, e2 - e1) {
            Some(b) => m1.cmp(&b),
            None => 0.cmp(&m2),
        },
    }
}

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

    /// True when a value ordered `ord` against the bound satisfies the constraint.
    #[must_use]
    pub const fn holds_ordering(self, ord: Ordering) -> bool {
        match self {
            ConstraintKind::Minimum => !matches!(ord, Ordering::Less),
            ConstraintKind::Maximum => !matches!(ord, Ordering::Greater),
            ConstraintKind::ExclusiveMinimum => matches!(ord, Ordering::Greater),
            ConstraintKind::ExclusiveMaximum => matches!(ord, Ordering::Less),
        }
    }
}

/// One side of a field-path constraint, as read from the parent struct: the JSON path segments below the parent,
/// the new value (`None` when a pointer on the way is nil) and, when the old parent exists, the old value. `V` is
/// the [`Operand`] type: `i128` for integers, `&Quantity`, `&Duration`.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a, V = i128> {
    /// JSON names from the parent struct to the field (inline-embedded structs contribute no segment).
    pub path: &'a [&'a str],
    /// The new value; `None` when a pointer on the way (or the field itself) is nil.
    pub value: Option<V>,
    /// `None` without an old parent; else the old value as [`Side::value`].
    pub old: Option<Option<V>>,
}

/// A field-path constraint hoisted to the parent struct at `parent`: `Invalid(parent.<target>, value, "must be
/// <words> <parent.bound> (<bound value>)")` with the origin [`ConstraintKind::origin`] when the target's value
/// does not satisfy the constraint against the referenced field's value.
///
/// No check when either side is unset (a nil pointer on the way). Ratcheting as upstream ratchets its bounds: on
/// update, no error when neither side changed (both old values exist and equal the new ones).
///
/// Quantities and durations compare numerically and print as written; a value that does not parse as one is not
/// compared (no error from the constraint).
#[must_use]
pub fn field_constraint<V: Operand>(
    parent: &Path<'_>,
    op: &Operation,
    kind: ConstraintKind,
    target: Side<'_, V>,
    bound: Side<'_, V>,
) -> ErrorList {
    let (Some(value), Some(limit)) = (&target.value, &bound.value) else {
        return Vec::new();
    };
    if op.is_update()
        && target.old.as_ref() == Some(&target.value)
        && bound.old.as_ref() == Some(&bound.value)
    {
        return Vec::new();
    }
    match value.compare(limit) {
        Some(ord) if !kind.holds_ordering(ord) => {}
        _ => return Vec::new(),
    }
    let bound_path = with_path(parent, bound.path, &|p| p.to_string());
    with_path(parent, target.path, &|p| {
        vec![
            Error::invalid(
                p,
                value.bad(),
                format!("must be {} {bound_path} ({})", kind.words(), limit.shown()),
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

/// One element of a list or map constrained per element ([`each_field_constraint`]); `V` is its [`Operand`] type.
#[derive(Debug, Clone, Copy)]
pub struct Element<'a, V = i128> {
    /// Its index or key.
    pub at: At<'a>,
    /// Its value.
    pub value: V,
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
///
/// Items that are quantities or durations compare as [`field_constraint`]'s sides do (an item that does not parse is
/// not compared).
#[must_use]
pub fn each_field_constraint<'e, V: Operand>(
    parent: &Path<'_>,
    op: &Operation,
    kind: ConstraintKind,
    target: &[&str],
    elements: impl IntoIterator<Item = Element<'e, V>>,
    bound: Side<'_, V>,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(limit) = &bound.value else {
        return errs;
    };
    let bound_unchanged = op.is_update() && bound.old.as_ref() == Some(&bound.value);
    for e in elements {
        if bound_unchanged && e.unchanged {
            continue;
        }
        match e.value.compare(limit) {
            Some(ord) if !kind.holds_ordering(ord) => {}
            _ => continue,
        }
        let bound_path = with_path(parent, bound.path, &|p| p.to_string());
        errs.push(with_path(parent, target, &|p| {
            let at = match e.at {
                At::Index(i) => p.index(i),
                At::Key(k) => p.key(k),
            };
            Error::invalid(
                &at,
                e.value.bad(),
                format!("must be {} {bound_path} ({})", kind.words(), limit.shown()),
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
    fn quantities_and_durations_compare_numerically_and_print_as_written() {
        let root = Path::Root;
        let op = Operation::create();
        let q = |s: &str| Quantity(s.into());
        let (small, big, same, bad) = (q("1500m"), q("2"), q(" 1.5 "), q("lots"));
        let run = |kind, a: &Quantity, b: &Quantity| {
            field_constraint(
                &root,
                &op,
                kind,
                Side {
                    path: &["request"],
                    value: Some(a),
                    old: None,
                },
                Side {
                    path: &["limit"],
                    value: Some(b),
                    old: None,
                },
            )
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
        };
        assert_eq!(
            run(ConstraintKind::Minimum, &small, &big),
            ["request: Invalid value: \"1500m\": must be greater than or equal to limit (2)"]
        );
        assert!(run(ConstraintKind::Maximum, &small, &big).is_empty());
        // 1500m == 1.5: inclusive bounds hold, exclusive ones do not.
        assert!(run(ConstraintKind::Minimum, &small, &same).is_empty());
        assert_eq!(
            run(ConstraintKind::ExclusiveMaximum, &small, &same).len(),
            1
        );
        assert!(
            run(ConstraintKind::Maximum, &big, &bad).is_empty(),
            "an unparsable bound is not compared"
        );
        assert_eq!(compare_decimal(1, 40, i128::MAX, 0), Ordering::Greater);
        assert_eq!(compare_decimal(-1, 40, 5, 0), Ordering::Less);
        assert_eq!(compare_decimal(5, 0, -1, 40), Ordering::Greater);
        assert_eq!(compare_decimal(1024, 0, 1, 3), Ordering::Greater);
        let d = |s: &str| Duration(s.into());
        let (a, b) = (d("90s"), d("1h"));
        let errs = field_constraint(
            &root,
            &op,
            ConstraintKind::Minimum,
            Side {
                path: &["timeout"],
                value: Some(&a),
                old: None,
            },
            Side {
                path: &["minTimeout"],
                value: Some(&b),
                old: None,
            },
        );
        assert_eq!(
            errs[0].to_string(),
            "timeout: Invalid value: \"90s\": must be greater than or equal to minTimeout (1h)"
        );
        // Ratcheting compares numerically: `1m30s` is the unchanged `90s`.
        let a2 = d("1m30s");
        let unchanged = field_constraint(
            &root,
            &Operation::update(),
            ConstraintKind::Minimum,
            Side {
                path: &["timeout"],
                value: Some(&a),
                old: Some(Some(&a2)),
            },
            Side {
                path: &["minTimeout"],
                value: Some(&b),
                old: Some(Some(&b)),
            },
        );
        assert!(unchanged.is_empty());
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
