//! Validation rules in words, the one describer of checks: `at most 10 items`, `exactly one of intValue,
//! stringValue must be set`, `each item: must be a k8s-short-name`. The documentation site (`vgc docs`, through
//! `vgc_docs_gen::words`), the drift lint's messages (`crate::drift`, which compares the typed checks and shows
//! them with [`in_words`]) and lowering's own unit tests read checks through it; nothing here shows vgc's internal
//! notation. The stability level of a rule is returned apart ([`Rule::stability`]) so a page can mark it.
//!
//! All knowledge of the plan's check shapes is in one function, [`words`], so that a change to
//! [`crate::plan::CheckKind`] touches one match.

use crate::plan::{Check, CheckKind, Matcher, NeqValue, OptionState, RustTy, TypePlan, UnionKind};
use std::collections::BTreeMap;
use vgc_analysis::TypeKey;
use vgc_ir::catalog::Stability;
use vgc_runtime::validate::UpdateConstraint;

/// One rule of a field or type as the site shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Rule {
    /// The rule in words (plain text; the template escapes it).
    pub text: String,
    /// `alpha` or `beta` for a rule whose errors carry that level (upstream `+k8s:alpha`/`+k8s:beta`), else `None`.
    pub stability: Option<&'static str>,
    /// JSON names of the sibling fields a cross-field rule (union, dependent fields, modes, subfield) involves, for
    /// links to their rows.
    pub fields: Vec<String>,
}

/// The name of a stability level as the site shows it (`None` for stable).
#[must_use]
pub fn level(s: Option<Stability>) -> Option<&'static str> {
    match s {
        Some(Stability::Alpha) => Some("alpha"),
        Some(Stability::Beta) => Some("beta"),
        _ => None,
    }
}

/// What the words of a rule depend on besides the check.
pub struct Context<'a> {
    /// Maps a Go field name of the struct that holds the value to its JSON name (the plan names a mode
    /// discriminator by its Go name).
    pub json_name: &'a dyn Fn(&str) -> String,
    /// Maps a Go field name of the value's element struct (the items of a list, the values of a map) to its JSON
    /// name (the plan names list-map keys and `item` selector fields by their Go names).
    pub elem_json_name: &'a dyn Fn(&str) -> String,
    /// The value the rule applies to is a map (`eachVal` then says "each value", not "each item").
    pub map: bool,
}

/// `c` as a [`Rule`] (see [`Context`]).
#[must_use]
pub fn rule(c: &Check, cx: &Context<'_>) -> Rule {
    Rule {
        text: words(c, c.stability, cx),
        stability: level(c.stability),
        fields: involved_fields(c),
    }
}

/// Go field name → JSON name of the element struct of a value of type `ty` (the items of a list, the values of a
/// map; through pointers and typedefs). Empty when the elements are not a generated struct.
#[must_use]
pub fn elem_json_names(
    all: &BTreeMap<&TypeKey, &TypePlan>,
    ty: Option<&RustTy>,
) -> BTreeMap<String, String> {
    let mut cur = ty;
    let mut in_elems = false;
    for _ in 0..16 {
        match cur {
            Some(RustTy::Option(i, _)) => cur = Some(i),
            Some(RustTy::Vec(e) | RustTy::Map(e)) if !in_elems => {
                in_elems = true;
                cur = Some(e);
            }
            Some(RustTy::Named(k)) => {
                let Some(t) = all.get(k) else { break };
                if let Some(a) = &t.alias_of {
                    cur = Some(a);
                } else if in_elems {
                    return t
                        .fields
                        .iter()
                        .flatten()
                        .filter(|f| !f.json_name.is_empty())
                        .map(|f| (f.go_field.clone(), f.json_name.clone()))
                        .collect();
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    BTreeMap::new()
}

/// `c` in words with its stability level in front (`beta: at most 10 items`), members named by their Go names
/// where the plan names them so (mode discriminators, list-map keys): the form of a check in a one-line message
/// (the drift lint's, lowering's unit tests).
#[must_use]
pub fn in_words(c: &Check) -> String {
    let same = |go: &str| go.to_string();
    let cx = Context {
        json_name: &same,
        elem_json_name: &same,
        map: false,
    };
    let body = words(c, c.stability, &cx);
    match level(c.stability) {
        Some(l) => format!("{l}: {body}"),
        None => body,
    }
}

/// The JSON names of the struct fields a struct-level rule involves.
fn involved_fields(c: &Check) -> Vec<String> {
    match &c.kind {
        CheckKind::Union(u) => u
            .members
            .iter()
            .map(|m| m.member.json.clone())
            .chain(u.discriminator.iter().map(|d| d.json.clone()))
            .collect(),
        CheckKind::Dependent(d) => vec![d.trigger.json.clone(), d.dependent.json.clone()],
        // The constrained field and the sibling the referenced path starts at.
        CheckKind::FieldConstraint(fc) => [&fc.target, &fc.bound]
            .iter()
            .filter_map(|p| p.json_segments().first().map(|s| (*s).to_string()))
            .collect(),
        CheckKind::Discriminated(m) => vec![m.member.json.clone()],
        CheckKind::Subfield(s) => vec![s.member.json.clone()],
        // The fields of this struct the members are (or lie below).
        CheckKind::VirtualUnion(v) => {
            let mut out: Vec<String> = Vec::new();
            for m in &v.members {
                if let Some(first) = m.steps.iter().find(|s| !s.json.is_empty())
                    && !out.contains(&first.json)
                {
                    out.push(first.json.clone());
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A quantity bound as upstream's errors print it (`Quantity.String()` of the parsed payload).
fn quantity_text(q: &str) -> String {
    vgc_runtime::types::Quantity(q.to_string()).go_string_1_38()
}

fn neq_text(v: &NeqValue) -> String {
    match v {
        NeqValue::Str(s) => format!("{s:?}"),
        NeqValue::Int(i) => i.to_string(),
        NeqValue::Bool(b) => b.to_string(),
    }
}

fn list(items: &[String]) -> String {
    items.join(", ")
}

/// The words of nested checks, each marked with its level when it differs from the enclosing rule's (`outer`).
fn nested(inner: &[Check], outer: Option<Stability>, cx: &Context<'_>) -> String {
    inner
        .iter()
        .map(|c| words(c, outer, cx))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `c` in words, without its level unless that differs from `outer` (the level of the rule it is part of, which
/// the page shows once).
///
/// Mirrors what each upstream validator checks (`k8s.io/apimachinery/pkg/api/validate`), not its error text.
#[must_use]
pub fn words(c: &Check, outer: Option<Stability>, cx: &Context<'_>) -> String {
    let body = match &c.kind {
        CheckKind::Required { detail: None } => "required".into(),
        CheckKind::Required { detail: Some(d) } => format!("required (the error says {d:?})"),
        CheckKind::Optional => "optional".into(),
        CheckKind::Forbidden { detail: None } => "must not be set".into(),
        CheckKind::Forbidden { detail: Some(d) } => {
            format!("must not be set (the error says {d:?})")
        }
        CheckKind::Minimum(n) => format!("at least {n}"),
        CheckKind::Maximum(n) => format!("at most {n}"),
        CheckKind::MinimumDuration(n) => format!(
            "at least {}",
            vgc_runtime::types::go_duration_string(i128::from(*n))
        ),
        CheckKind::MaximumDuration(n) => format!(
            "at most {}",
            vgc_runtime::types::go_duration_string(i128::from(*n))
        ),
        CheckKind::MinimumQuantity(q) => format!("at least {}", quantity_text(q)),
        CheckKind::MaximumQuantity(q) => format!("at most {}", quantity_text(q)),
        CheckKind::MinLength(n) => format!("at least {}", plural(*n, "character", "characters")),
        CheckKind::MaxLength(n) => format!("at most {}", plural(*n, "character", "characters")),
        CheckKind::MaxLengthBytes(n) | CheckKind::MaxBytes(n) | CheckKind::MaxBytesSlice(n) => {
            format!("at most {}", plural(*n, "byte", "bytes"))
        }
        CheckKind::MinItems(n) => format!("at least {}", plural(*n, "item", "items")),
        CheckKind::MaxItems(n) => format!("at most {}", plural(*n, "item", "items")),
        CheckKind::MinProperties(n) => format!("at least {}", plural(*n, "entry", "entries")),
        CheckKind::MaxProperties(n) => format!("at most {}", plural(*n, "entry", "entries")),
        CheckKind::Format(f) => format!("must be a {}", f.name()),
        CheckKind::Matches(p) => format!("must be a {} ({})", p.name, p.message),
        CheckKind::Enum(e) => {
            // Values quoted: they may be empty or hold commas (`""`, `"a, b"`), as `eq`'s payload is shown.
            let quoted: Vec<String> = e.values.iter().map(|v| format!("{v:?}")).collect();
            let mut s = format!("one of {}", list(&quoted));
            for x in &e.exclusions {
                let (v, opt) = (format!("{:?}", x.value), &x.option);
                let state = match x.when {
                    OptionState::Enabled => "enabled",
                    OptionState::Disabled => "disabled",
                };
                s.push_str(&format!(
                    "; {v} is not allowed while option {opt} is {state}"
                ));
            }
            s
        }
        CheckKind::Immutable => "cannot change once set".into(),
        CheckKind::Update(cs, _) => cs
            .iter()
            .map(|c| match c {
                UpdateConstraint::NoSet => "cannot be set on update",
                UpdateConstraint::NoUnset => "cannot be unset on update",
                UpdateConstraint::NoModify => "cannot be changed on update",
                UpdateConstraint::NoAddItem => "items cannot be added on update",
                UpdateConstraint::NoRemoveItem => "items cannot be removed on update",
            })
            .collect::<Vec<_>>()
            .join("; "),
        CheckKind::Unique(Matcher::Keys(keys)) => {
            let keys: Vec<String> = keys.iter().map(|k| (cx.elem_json_name)(k)).collect();
            format!("items must have unique {}", list(&keys))
        }
        CheckKind::Unique(_) => "items must be unique".into(),
        CheckKind::EachVal(inner, _, _) => format!(
            "each {}: {}",
            if cx.map { "value" } else { "item" },
            nested(inner, c.stability, cx)
        ),
        CheckKind::EachKey(inner) => format!("each key: {}", nested(inner, c.stability, cx)),
        CheckKind::Subfield(sf) => {
            format!(
                "field {}: {}",
                sf.member.json,
                words(&sf.inner, c.stability, cx)
            )
        }
        CheckKind::Union(u) => {
            let members: Vec<String> = u.members.iter().map(|m| m.member.json.clone()).collect();
            let mut s = match u.kind {
                UnionKind::Union => format!("exactly one of {} must be set", list(&members)),
                UnionKind::ZeroOrOneOf => format!("at most one of {} may be set", list(&members)),
            };
            if let Some(d) = u.discriminator.as_ref().map(|d| &d.json) {
                s.push_str(&format!(", the one {d} names"));
            }
            if !u.name.is_empty() {
                s = format!("union {}: {s}", u.name);
            }
            s
        }
        CheckKind::Dependent(d) => format!(
            "{} {} when {} is set",
            d.dependent.json,
            if d.forbidden {
                "must not be set"
            } else {
                "is required"
            },
            d.trigger.json
        ),
        CheckKind::FieldConstraint(fc) => {
            // Only a pointer on the way can leave a side unset; a value by value (an integer, a quantity) is its
            // zero value when absent, and is compared.
            let nilable = |p: &crate::plan::FieldPath| p.steps.iter().any(|s| s.pointer.is_some());
            match &fc.each {
                None => format!(
                    "{} must be {} the value of {} (field-path constraint, a vgc extension{})",
                    fc.target.dotted(),
                    fc.kind.words(),
                    fc.bound.dotted(),
                    if nilable(&fc.target) || nilable(&fc.bound) {
                        "; not checked while either is unset"
                    } else {
                        ""
                    }
                ),
                Some(each) => format!(
                    "each {} of {} must be {} the value of {} (field-path constraint, a vgc extension{})",
                    if each.map { "value" } else { "item" },
                    fc.target.dotted(),
                    fc.kind.words(),
                    fc.bound.dotted(),
                    if nilable(&fc.bound) {
                        format!("; not checked while {} is unset", fc.bound.dotted())
                    } else {
                        String::new()
                    }
                ),
            }
        }
        CheckKind::VirtualUnion(v) => {
            let members: Vec<String> = v.members.iter().map(|m| m.name.clone()).collect();
            let rule = match v.kind {
                UnionKind::Union => format!("exactly one of {} must be set", list(&members)),
                UnionKind::ZeroOrOneOf => format!("at most one of {} may be set", list(&members)),
            };
            format!(
                "group {}: {rule} (virtual fields, a vgc extension)",
                v.group
            )
        }
        CheckKind::Monotonic => "cannot decrease on update".into(),
        CheckKind::NoNils => "items must not be null".into(),
        CheckKind::FixedResult { result: true, .. } => "always passes (test tag)".into(),
        CheckKind::FixedResult {
            result: false, msg, ..
        } => {
            format!("always fails with \"forced failure: {msg}\" (test tag)")
        }
        CheckKind::Custom {
            owner,
            field,
            upstream,
            ..
        } => match vgc_runtime::k8s::port(&owner.pkg, &owner.name, field.as_deref()) {
            Some(p) => format!(
                "checked by hand-written code ({}.{upstream}, ported in vgc-runtime)",
                p.go_pkg
            ),
            None => format!("checked by hand-written code ({upstream})"),
        },
        CheckKind::Item(i) => format!(
            "the item whose {}: {}",
            i.selector
                .iter()
                .map(|(k, _, v)| format!("{} is {}", (cx.elem_json_name)(k), neq_text(v)))
                .collect::<Vec<_>>()
                .join(" and "),
            words(&i.inner, c.stability, cx)
        ),
        CheckKind::ListUnion(u) => {
            let members: Vec<String> = u.members.iter().map(|(n, _)| n.clone()).collect();
            match u.kind {
                UnionKind::Union => format!(
                    "exactly one of the items {} must be present",
                    list(&members)
                ),
                UnionKind::ZeroOrOneOf => {
                    format!("at most one of the items {} may be present", list(&members))
                }
            }
        }
        CheckKind::Discriminated(m) => {
            let disc = (cx.json_name)(&m.discriminator.field);
            let mut parts: Vec<String> = m
                .rules
                .iter()
                .map(|(v, cs)| {
                    format!(
                        "when {disc} is {v}: {}",
                        if cs.is_empty() {
                            "no rule".into()
                        } else {
                            nested(cs, c.stability, cx)
                        }
                    )
                })
                .collect();
            parts.push(format!("when {disc} is anything else: must not be set"));
            format!("field {}: {}", m.member.json, parts.join("; "))
        }
        CheckKind::Neq(v) => format!("must not be {}", neq_text(v)),
        CheckKind::Eq(v) => format!("must be {}", neq_text(v)),
        CheckKind::IfOption(p) => format!(
            "{}, only while option {} is {}",
            words(&p.inner, c.stability, cx),
            p.option,
            if p.enabled { "enabled" } else { "disabled" }
        ),
        CheckKind::IfSubresource(p) => format!(
            "{}, {} (a vgc extension)",
            words(&p.inner, c.stability, cx),
            match (p.negated, p.path.as_str()) {
                (false, "/") =>
                    "only on requests for the resource itself (no subresource)".to_string(),
                (true, "/") => "only on requests for a subresource".to_string(),
                (false, s) => format!("only on the {s} subresource"),
                (true, s) => format!("except on the {s} subresource"),
            }
        ),
    };
    match level(c.stability) {
        Some(l) if c.stability != outer => format!("{body} ({l})"),
        _ => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(kind: CheckKind, stability: Option<Stability>) -> Check {
        Check {
            kind,
            short_circuit: false,
            non_error: false,
            stability,
            tag: None,
            cohort: None,
        }
    }

    fn same(s: &str) -> String {
        s.to_string()
    }

    const LIST: Context<'static> = Context {
        json_name: &same,
        elem_json_name: &same,
        map: false,
    };

    #[test]
    fn subresource_conditions_name_the_subresource() {
        use crate::plan::IfSubresourcePlan;
        let cond = |path: &str, negated: bool| {
            check(
                CheckKind::IfSubresource(Box::new(IfSubresourcePlan {
                    path: path.into(),
                    negated,
                    inner: check(CheckKind::Immutable, None),
                })),
                None,
            )
        };
        assert_eq!(
            rule(&cond("/resize", true), &LIST).text,
            "cannot change once set, except on the /resize subresource (a vgc extension)"
        );
        assert_eq!(
            rule(&cond("/status", false), &LIST).text,
            "cannot change once set, only on the /status subresource (a vgc extension)"
        );
        assert_eq!(
            rule(&cond("/", false), &LIST).text,
            "cannot change once set, only on requests for the resource itself (no subresource) (a vgc extension)"
        );
    }

    #[test]
    fn nested_rules_name_their_level_once() {
        let inner = check(
            CheckKind::Format(vgc_runtime::formats::Format::K8sShortName),
            Some(Stability::Alpha),
        );
        let each = check(
            CheckKind::EachVal(
                vec![inner],
                Matcher::None,
                crate::plan::Shape::Other { pointer: false },
            ),
            Some(Stability::Alpha),
        );
        let r = rule(&each, &LIST);
        assert_eq!(r.text, "each item: must be a k8s-short-name");
        assert_eq!(r.stability, Some("alpha"));
        let beta_inner = check(CheckKind::MaxItems(3), Some(Stability::Beta));
        let each = check(
            CheckKind::EachVal(
                vec![beta_inner],
                Matcher::None,
                crate::plan::Shape::Other { pointer: false },
            ),
            None,
        );
        let map = Context {
            json_name: &same,
            elem_json_name: &same,
            map: true,
        };
        assert_eq!(rule(&each, &map).text, "each value: at most 3 items (beta)");
    }

    #[test]
    fn list_map_keys_are_json_names() {
        let c = check(
            CheckKind::Unique(Matcher::Keys(vec!["Type".into(), "Name".into()])),
            None,
        );
        let json = |go: &str| match go {
            "Type" => "type".to_string(),
            "Name" => "name".to_string(),
            other => other.to_string(),
        };
        let cx = Context {
            json_name: &same,
            elem_json_name: &json,
            map: false,
        };
        assert_eq!(rule(&c, &cx).text, "items must have unique type, name");
    }

    #[test]
    fn field_path_constraints_name_both_fields() {
        use crate::plan::{ConstraintPlan, FieldPath, PathStep};
        let key = vgc_analysis::TypeKey {
            pkg: "example.com/p".into(),
            name: "Config".into(),
        };
        let step = |go: &str, json: &str| PathStep {
            go: go.into(),
            json: json.into(),
            pointer: None,
        };
        let c = check(
            CheckKind::FieldConstraint(Box::new(ConstraintPlan {
                kind: vgc_runtime::extensions::ConstraintKind::ExclusiveMaximum,
                target: FieldPath {
                    steps: vec![step("Current", "current")],
                    operand: crate::plan::Operand::Integer(vgc_analysis::types::Builtin::Int32),
                    holder: key.clone(),
                },
                bound: FieldPath {
                    steps: vec![
                        step("Limits", "limits"),
                        step("Common", ""),
                        step("Max", "max"),
                    ],
                    operand: crate::plan::Operand::Integer(vgc_analysis::types::Builtin::Int64),
                    holder: key,
                },
                each: None,
            })),
            None,
        );
        // Values by value are always compared (their zero value when absent).
        let r = rule(&c, &LIST);
        assert_eq!(
            r.text,
            "current must be less than the value of limits.max (field-path constraint, a vgc extension)"
        );
        assert_eq!(r.fields, ["current", "limits"]);
        // A pointer on the way can leave a side unset.
        let CheckKind::FieldConstraint(mut fc) = c.kind.clone() else {
            unreachable!()
        };
        fc.bound.steps[0].pointer = Some(crate::plan::Boxing::Inline);
        let pointed = rule(&check(CheckKind::FieldConstraint(fc.clone()), None), &LIST);
        assert_eq!(
            pointed.text,
            "current must be less than the value of limits.max (field-path constraint, a vgc extension; not checked while either is unset)"
        );
        // Per element (`eachVal=+k8s:maximum(constraint: …)`).
        fc.each = Some(crate::plan::EachElements {
            map: false,
            pointer_elems: false,
            matcher: crate::plan::Matcher::None,
        });
        let r = rule(&check(CheckKind::FieldConstraint(fc), None), &LIST);
        assert_eq!(
            r.text,
            "each item of current must be less than the value of limits.max (field-path constraint, a vgc extension; not checked while limits.max is unset)"
        );
    }
}
