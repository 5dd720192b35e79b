//! `--bound-lists N` and `--bound-strings N` for vgc's own component schemas (`vgc openapi`, `--merge`,
//! `--format jsonschema`; `docs/openapi.md` "The cost budget"): the bounds the API server's CEL cost estimate needs,
//! set where vgc's schema has none, each marked on its node with [`BOUND_KEY`] so that it is never silent.
//!
//! The estimate (module [`crate::cost`]) sizes a list without `maxItems` (a map without `maxProperties`) and a string
//! without `maxLength` by the 3 MiB request limit: a rule below an unbounded list runs "a million times", and a rule
//! reading an unbounded string costs as much as reading 3 MiB. So:
//!
//! - `--bound-lists N` sets `maxItems: N` on each list and `maxProperties: N` on each map without one that holds an
//!   `x-kubernetes-validations` rule at itself or below (through the components it references), or that a rule of
//!   its object iterates (`self.conditions.exists(…)`) — what [`crate::crd::bound_lists`] does in a CRD, here on
//!   the component that declares the list;
//! - `--bound-strings N` sets `maxLength: N` on each string without `maxLength` or `enum` that a rule reads: one
//!   with a rule of its own, or a property whose name a rule of its object names (`self.name`, `oldSelf.name`),
//!   also of the items of a list the rule names (`self.conditions.exists(e, e.type …)`).
//!
//! Both change what is accepted: a longer list or string is then refused (`Too many`, `Too long`) where the native
//! API accepts it.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The key marking, on a schema node, the keyword vgc added as a bound (`"maxItems"`, `"maxProperties"`,
/// `"maxLength"`): not a rule of the Go types, a bound for the API server's cost estimate.
pub const BOUND_KEY: &str = "x-vgc-bound";

/// The bounds asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// `--bound-lists N`: `maxItems`/`maxProperties` of the unbounded lists and maps that hold a CEL rule.
    pub lists: Option<u64>,
    /// `--bound-strings N`: `maxLength` (characters) of the unbounded strings a CEL rule reads.
    pub strings: Option<u64>,
}

/// One bound set.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bound {
    /// The component it was set in.
    pub schema: String,
    /// The JSON path of the node below it (`.tolerations`, `.devices[*].name`; `""` for the schema itself).
    pub path: String,
    /// The keyword set: `maxItems`, `maxProperties` or `maxLength`.
    pub keyword: &'static str,
    /// Its value.
    pub value: u64,
}

/// Sets `bounds` on `schemas` (vgc's component schemas by name, with `$ref`s: [`crate::Output::schemas`]) as the
/// module docs say; the bounds set, sorted by schema and path.
pub fn apply(schemas: &mut BTreeMap<String, Value>, bounds: Bounds) -> Vec<Bound> {
    if bounds == Bounds::default() {
        return Vec::new();
    }
    let holding = holding_cel(schemas);
    let mut read = BTreeSet::new();
    for s in schemas.values() {
        read_through_references(s, &mut read);
    }
    let mut out = Vec::new();
    for (name, s) in schemas.iter_mut() {
        if let Value::Object(m) = s {
            let cx = Walk {
                bounds,
                holding: &holding,
                read: &read,
                schema: name,
            };
            cx.bound_node(m, "", None, false, &mut out);
        }
    }
    out.sort();
    out
}

/// The components that hold a CEL rule at some node, or reference one that does (a fixpoint over the references).
fn holding_cel(schemas: &BTreeMap<String, Value>) -> BTreeSet<String> {
    let mut refs: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut held: BTreeSet<String> = BTreeSet::new();
    for (n, s) in schemas {
        if has_own_rule(s) {
            held.insert(n.clone());
        }
        let mut r = Vec::new();
        crate::builder::refs(s, &mut r);
        refs.insert(n, r);
    }
    loop {
        let more: Vec<String> = refs
            .iter()
            .filter(|(n, r)| !held.contains(**n) && r.iter().any(|t| held.contains(t)))
            .map(|(n, _)| (*n).to_string())
            .collect();
        if more.is_empty() {
            return held;
        }
        held.extend(more);
    }
}

/// The properties (component, property name) of components that a rule names from a node referencing the component:
/// itself (`metadata` with `self.name` of `ObjectMeta`), or through its items or values (`self.exists(e, e.type …)`
/// on a list of a component's objects), or through a property the rules name (a struct's
/// `self.conditions.exists(e, e.type …)`).
fn read_through_references(v: &Value, out: &mut BTreeSet<(String, String)>) {
    let Value::Object(m) = v else {
        if let Value::Array(a) = v {
            a.iter().for_each(|x| read_through_references(x, out));
        }
        return;
    };
    if let Some(Value::Array(rules)) = m.get("x-kubernetes-validations")
        && !rules.is_empty()
    {
        let mut targets: Vec<&str> = crate::builder::ref_name(m).into_iter().collect();
        for k in ["items", "additionalProperties"] {
            if let Some(Value::Object(inner)) = m.get(k) {
                targets.extend(crate::builder::ref_name(inner));
            }
        }
        // A property the rules name, and its items or values (a struct's `self.conditions.exists(e, e.type …)`).
        if let Some(Value::Object(props)) = m.get("properties") {
            for (k, p) in props {
                let Value::Object(p) = p else { continue };
                if !named_by(rules, k) {
                    continue;
                }
                targets.extend(crate::builder::ref_name(p));
                for k in ["items", "additionalProperties"] {
                    if let Some(Value::Object(inner)) = p.get(k) {
                        targets.extend(crate::builder::ref_name(inner));
                    }
                }
            }
        }
        for t in targets {
            // The names are checked against the component's properties when it is walked.
            for name in rule_names(rules) {
                out.insert((t.to_string(), name));
            }
        }
    }
    m.iter()
        .filter(|(k, _)| !k.starts_with("x-"))
        .for_each(|(_, x)| read_through_references(x, out));
}

/// Every `.name` a rule of `rules` selects (the identifier after a `.`, as CEL escapes it).
fn rule_names(rules: &[Value]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for r in rules {
        for k in ["rule", "messageExpression"] {
            let Some(text) = r.get(k).and_then(Value::as_str) else {
                continue;
            };
            for (i, _) in text.match_indices('.') {
                let name: String = text[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// Whether `v` has a non-empty `x-kubernetes-validations` at some node (not following references).
fn has_own_rule(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.get("x-kubernetes-validations")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
                || m.iter()
                    .filter(|(k, _)| !k.starts_with("x-"))
                    .any(|(_, x)| has_own_rule(x))
        }
        Value::Array(a) => a.iter().any(has_own_rule),
        _ => false,
    }
}

/// Whether the node `m` holds a CEL rule at itself or below, references followed.
fn holds_cel(m: &Map<String, Value>, holding: &BTreeSet<String>) -> bool {
    if crate::builder::ref_name(m).is_some_and(|r| holding.contains(r)) {
        return true;
    }
    m.get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
        || m.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| {
                p.values()
                    .filter_map(Value::as_object)
                    .any(|x| holds_cel(x, holding))
            })
        || ["items", "additionalProperties"].iter().any(|k| {
            m.get(*k)
                .and_then(Value::as_object)
                .is_some_and(|x| holds_cel(x, holding))
        })
}

/// Whether a rule of `rules` names the property `name` of its node (`self.name`, `oldSelf.name`,
/// `oldSelf.value().name`: a `.` then the name as CEL escapes it, not followed by an identifier character).
fn named_by(rules: &[Value], name: &str) -> bool {
    let Some(escaped) = crate::cel::escape(name) else {
        return false;
    };
    let needle = format!(".{escaped}");
    rules.iter().any(|r| {
        ["rule", "messageExpression"].iter().any(|k| {
            r.get(*k).and_then(Value::as_str).is_some_and(|text| {
                text.match_indices(&needle).any(|(i, _)| {
                    !text[i + needle.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                })
            })
        })
    })
}

/// Whether a rule of `rules` runs a comprehension over the property `name` of its node (`self.name.exists(…)`,
/// `.all`, `.exists_one`, `.filter`, `.map`): the estimate multiplies the step by the property's size.
fn iterated_by(rules: &[Value], name: &str) -> bool {
    let Some(escaped) = crate::cel::escape(name) else {
        return false;
    };
    let needle = format!(".{escaped}.");
    rules.iter().any(|r| {
        ["rule", "messageExpression"].iter().any(|k| {
            r.get(*k).and_then(Value::as_str).is_some_and(|text| {
                text.match_indices(&needle).any(|(i, _)| {
                    let rest = &text[i + needle.len()..];
                    ["exists(", "all(", "exists_one(", "filter(", "map("]
                        .iter()
                        .any(|m| rest.starts_with(m))
                })
            })
        })
    })
}

/// What the walk of one component knows.
struct Walk<'a> {
    bounds: Bounds,
    holding: &'a BTreeSet<String>,
    /// [`read_through_references`]: properties of components a rule names from outside.
    read: &'a BTreeSet<(String, String)>,
    /// The component walked.
    schema: &'a str,
}

impl Walk<'_> {
    /// The bounds of the node `m` at `path` of the component and below it; `read` says whether a rule names it (a
    /// rule of the object holding it, or of a node referencing the component), `iterated` whether a rule of the
    /// object holding it runs a comprehension over it ([`iterated_by`]).
    fn bound_node(
        &self,
        m: &mut Map<String, Value>,
        path: &str,
        read: Option<bool>,
        iterated: bool,
        out: &mut Vec<Bound>,
    ) {
        let ty = m.get("type").and_then(Value::as_str).map(str::to_string);
        let is_map = m.get("additionalProperties").is_some_and(Value::is_object);
        let own_rules = m
            .get("x-kubernetes-validations")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        let mut set = |m: &mut Map<String, Value>, keyword: &'static str, value: u64| {
            m.insert(keyword.into(), value.into());
            m.insert(BOUND_KEY.into(), keyword.into());
            out.push(Bound {
                schema: self.schema.to_string(),
                path: path.to_string(),
                keyword,
                value,
            });
        };
        match (ty.as_deref(), self.bounds) {
            (Some("array"), Bounds { lists: Some(n), .. })
                if !m.contains_key("maxItems") && (iterated || holds_cel(m, self.holding)) =>
            {
                set(m, "maxItems", n);
            }
            (Some("object"), Bounds { lists: Some(n), .. })
                if is_map
                    && !m.contains_key("maxProperties")
                    && (iterated || holds_cel(m, self.holding)) =>
            {
                set(m, "maxProperties", n);
            }
            (
                Some("string"),
                Bounds {
                    strings: Some(n), ..
                },
            ) if !m.contains_key("maxLength")
                && !m.contains_key("enum")
                && !matches!(
                    m.get("format").and_then(Value::as_str),
                    Some("date" | "date-time" | "duration")
                )
                && (own_rules || read == Some(true)) =>
            {
                set(m, "maxLength", n);
            }
            _ => {}
        }
        let rules: Vec<Value> = m
            .get("x-kubernetes-validations")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(Value::Object(props)) = m.get_mut("properties") {
            for (k, v) in props.iter_mut() {
                if let Value::Object(o) = v {
                    let from_outside = path.is_empty()
                        && crate::cel::escape(k)
                            .is_some_and(|e| self.read.contains(&(self.schema.to_string(), e)));
                    let read = named_by(&rules, k) || from_outside;
                    let iterated = iterated_by(&rules, k);
                    self.bound_node(o, &format!("{path}.{k}"), Some(read), iterated, out);
                }
            }
        }
        for k in ["items", "additionalProperties"] {
            if let Some(Value::Object(o)) = m.get_mut(k) {
                self.bound_node(o, &format!("{path}[*]"), None, false, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas() -> BTreeMap<String, Value> {
        [
            (
                "a.Spec".to_string(),
                json!({"type": "object", "properties": {
                    "items": {"type": "array", "items": {"$ref": "#/components/schemas/a.Item"}},
                    "plain": {"type": "array", "items": {"$ref": "#/components/schemas/a.Plain"}},
                    "bounded": {"type": "array", "maxItems": 4, "items": {"$ref": "#/components/schemas/a.Item"}},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"},
                        "x-kubernetes-validations": [{"rule": "self.all(k, size(k) < 5)"}]},
                    "conds": {"type": "array", "items": {"$ref": "#/components/schemas/a.Cond"}},
                }, "x-kubernetes-validations": [{"rule": "!has(self.conds) || self.conds.exists(e, e.t == 'x')"}]}),
            ),
            (
                "a.Item".to_string(),
                json!({"type": "object", "properties": {
                    "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'"}]},
                    "kind": {"type": "string", "enum": ["A"], "x-kubernetes-validations": [{"rule": "self != 'x'"}]},
                    "old": {"type": "string"},
                    "oldest": {"type": "string"},
                    "at": {"type": "string", "format": "date-time", "x-kubernetes-validations": [{"rule": "true"}]},
                }, "x-kubernetes-validations": [{"rule": "self.old == oldSelf.old"}]}),
            ),
            (
                "a.Plain".to_string(),
                json!({"type": "object", "properties": {"s": {"type": "string"}}}),
            ),
            (
                "a.Cond".to_string(),
                json!({"type": "object", "properties": {"t": {"type": "string"}, "u": {"type": "string"}}}),
            ),
        ]
        .into()
    }

    #[test]
    fn lists_holding_cel_through_references_and_strings_rules_read_are_bounded() {
        let mut s = schemas();
        let b = apply(
            &mut s,
            Bounds {
                lists: Some(100),
                strings: Some(1000),
            },
        );
        let got: Vec<(&str, &str, &str, u64)> = b
            .iter()
            .map(|b| (b.schema.as_str(), b.path.as_str(), b.keyword, b.value))
            .collect();
        assert_eq!(
            got,
            [
                // `t`: the struct's rule reads it through `self.conds` (not `u`); `conds`, whose items hold no
                // rule: the struct's rule iterates it.
                ("a.Cond", ".t", "maxLength", 1000),
                ("a.Item", ".name", "maxLength", 1000),
                ("a.Item", ".old", "maxLength", 1000),
                ("a.Spec", ".conds", "maxItems", 100),
                ("a.Spec", ".items", "maxItems", 100),
                ("a.Spec", ".labels", "maxProperties", 100),
            ]
        );
        assert_eq!(
            s["a.Spec"]["properties"]["items"],
            json!({"type": "array", "maxItems": 100, "x-vgc-bound": "maxItems",
                   "items": {"$ref": "#/components/schemas/a.Item"}})
        );
        assert!(s["a.Spec"]["properties"]["plain"].get("maxItems").is_none());
        assert_eq!(s["a.Spec"]["properties"]["bounded"]["maxItems"], 4);
        assert!(
            s["a.Item"]["properties"]["oldest"]
                .get("maxLength")
                .is_none()
        );
        assert!(s["a.Item"]["properties"]["kind"].get("maxLength").is_none());
        assert!(s["a.Item"]["properties"]["at"].get("maxLength").is_none());
        // Nothing asked, nothing changed.
        let mut same = schemas();
        assert!(apply(&mut same, Bounds::default()).is_empty());
        assert_eq!(same, schemas());
        // Lists only.
        let mut l = schemas();
        let b = apply(
            &mut l,
            Bounds {
                lists: Some(7),
                strings: None,
            },
        );
        assert_eq!(b.len(), 3);
        assert!(l["a.Item"]["properties"]["name"].get("maxLength").is_none());
    }
}
