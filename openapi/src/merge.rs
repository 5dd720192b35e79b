//! `--merge`: the rules of vgc's schemas added to an existing OpenAPI v3 document (k8s.io/kubernetes'
//! `api/openapi-spec/v3`), changing nothing it already says: only the keys of [`RULE_KEYS`] are added, each where
//! the document does not have it, on the schema of the same name and, below it, the property, `items` or
//! `additionalProperties` at the same place.
//!
//! When the document already has a rule keyword with another value (a `required` list that names other fields, an
//! `enum` of other values), its value is kept and vgc's rule is said in CEL instead (`has(self.x)`,
//! `self in [...]`) when it can be, else reported ([`MergeReport::kept`]).

use crate::cel::{self, Reason, Rule};
use crate::{STABILITY_KEY, UNEXPRESSED_KEY};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The keys `--merge` may add: the OpenAPI keywords vgc's rules map to, `x-kubernetes-validations`, and vgc's
/// extension keys. Nothing else of a document is touched.
pub const RULE_KEYS: &[&str] = &[
    "enum",
    "format",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "required",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-validations",
    UNEXPRESSED_KEY,
    STABILITY_KEY,
    crate::cost::bounds::BOUND_KEY,
];

/// What [`merge`] did to one document.
#[derive(Debug, Clone, Default)]
pub struct MergeReport {
    /// The document's schemas vgc has a schema of (by name).
    pub matched: BTreeSet<String>,
    /// Keys added (each rule keyword or rule list added to one schema node counts once).
    pub added: usize,
    /// A keyword the document already had with another value, kept (`schema path: key`), and how vgc's rule was
    /// said instead (or that it was not).
    pub kept: Vec<String>,
    /// Places vgc has rules for that the document has no schema node at (`schema path`): their rules are not added.
    pub missing: Vec<String>,
}

/// Adds the rules of `schemas` (vgc's, by name: [`crate::Output::schemas`]) to the OpenAPI v3 document `doc` (see
/// the module docs). A document without `components.schemas` is left as it is.
pub fn merge(doc: &mut Value, schemas: &BTreeMap<String, Value>) -> MergeReport {
    let mut report = MergeReport::default();
    let Some(comps) = doc
        .get_mut("components")
        .and_then(|c| c.get_mut("schemas"))
        .and_then(Value::as_object_mut)
    else {
        return report;
    };
    for (name, existing) in comps.iter_mut() {
        let (Some(ours), Some(e)) = (
            schemas.get(name).and_then(Value::as_object),
            existing.as_object_mut(),
        ) else {
            continue;
        };
        report.matched.insert(name.clone());
        merge_node(e, ours, name, "", &mut report);
    }
    report
}

/// Adds the rule keys of `ours` to `e` and recurses into properties, `items` and `additionalProperties`.
pub(crate) fn merge_node(
    e: &mut Map<String, Value>,
    ours: &Map<String, Value>,
    schema: &str,
    path: &str,
    report: &mut MergeReport,
) {
    let mut fallback: Vec<Value> = Vec::new();
    // The list type and its map keys go together: when the document types the list otherwise, neither is added.
    let list_conflict = matches!(
        (e.get("x-kubernetes-list-type"), ours.get("x-kubernetes-list-type")),
        (Some(a), Some(b)) if a != b
    );
    for key in RULE_KEYS {
        let Some(v) = ours.get(*key) else { continue };
        if list_conflict && *key == "x-kubernetes-list-map-keys" {
            continue;
        }
        match e.get(*key) {
            None => {
                e.insert((*key).to_string(), v.clone());
                report.added += 1;
            }
            Some(old) if old == v || subset(key, old, v) => {}
            Some(old) => {
                let said = conflict_rules(key, old, ours, &mut fallback);
                report.kept.push(format!(
                    "{schema}{path}: {key}: the document says {old}, vgc {v}; kept the document's{}",
                    if said { ", vgc's rule added as CEL" } else { ", vgc's rule not added" }
                ));
            }
        }
    }
    // A rule whose text the node already has is not added again (a spec merged twice gets nothing the second time).
    let mut have: BTreeSet<String> = e
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(rule_text)
        .collect();
    fallback.retain(|r| rule_text(r).is_none_or(|t| have.insert(t)));
    if !fallback.is_empty() {
        let list = e
            .entry("x-kubernetes-validations")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(a) = list {
            a.extend(fallback);
        }
        report.added += 1;
    }
    if let Some(Value::Object(props)) = ours.get("properties") {
        for (p, pv) in props {
            let Some(pv) = pv.as_object() else { continue };
            if !has_rules(pv) {
                continue;
            }
            let sub = format!("{path}.{p}");
            match e
                .get_mut("properties")
                .and_then(|x| x.get_mut(p))
                .and_then(Value::as_object_mut)
            {
                Some(ep) => merge_node(ep, pv, schema, &sub, report),
                None if has_rules_besides_format(pv) => {
                    report.missing.push(format!("{schema}{sub}"));
                }
                None => {}
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        let Some(Value::Object(o)) = ours.get(key) else {
            continue;
        };
        if !has_rules(o) {
            continue;
        }
        let sub = format!("{path}[*]");
        match e.get_mut(key).and_then(Value::as_object_mut) {
            Some(ei) => merge_node(ei, o, schema, &sub, report),
            None if has_rules_besides_format(o) => report.missing.push(format!("{schema}{sub}")),
            None => {}
        }
    }
}

/// Whether a schema node, or one below it, holds a rule key.
fn has_rules(m: &Map<String, Value>) -> bool {
    RULE_KEYS.iter().any(|k| m.contains_key(*k))
        || m.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.values().filter_map(Value::as_object).any(has_rules))
        || ["items", "additionalProperties"]
            .iter()
            .any(|k| m.get(*k).and_then(Value::as_object).is_some_and(has_rules))
}

/// Whether a schema node, or one below it, holds a rule key other than `format` (a type's data format, such as
/// `int64` or `date-time`, which no place missing from the document loses a rule by).
fn has_rules_besides_format(m: &Map<String, Value>) -> bool {
    RULE_KEYS
        .iter()
        .any(|k| *k != "format" && m.contains_key(*k))
        || m.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| {
                p.values()
                    .filter_map(Value::as_object)
                    .any(has_rules_besides_format)
            })
        || ["items", "additionalProperties"].iter().any(|k| {
            m.get(*k)
                .and_then(Value::as_object)
                .is_some_and(has_rules_besides_format)
        })
}

/// Whether vgc's `required` names are all in the document's list already, or each of vgc's CEL rules' text is in the
/// document's `x-kubernetes-validations` already (nothing to add).
fn subset(key: &str, old: &Value, ours: &Value) -> bool {
    let all_in = |same: &dyn Fn(&Value, &Value) -> bool| {
        ours.as_array()
            .into_iter()
            .flatten()
            .all(|n| old.as_array().is_some_and(|o| o.iter().any(|x| same(x, n))))
    };
    match key {
        "required" => all_in(&|a, b| a == b),
        "x-kubernetes-validations" => {
            all_in(&|a, b| rule_text(a).is_some() && rule_text(a) == rule_text(b))
        }
        _ => false,
    }
}

/// The CEL text of a rule object (its `rule`).
fn rule_text(r: &Value) -> Option<String> {
    r.get("rule").and_then(Value::as_str).map(str::to_string)
}

/// vgc's value of keyword `key` (in its schema node `node`) said in CEL where the document's `old` differs: the
/// `required` names the document does not list as `has(self.x)`, an `enum` as `self in [...]`, uniqueness of a
/// list the document types otherwise as a duplicate test. Returns whether it was said.
fn conflict_rules(key: &str, old: &Value, node: &Map<String, Value>, out: &mut Vec<Value>) -> bool {
    let Some(ours) = node.get(key) else {
        return false;
    };
    match key {
        "x-kubernetes-list-type" => {
            let keys: Option<Vec<String>> = match ours.as_str() {
                Some("set") => Some(Vec::new()),
                Some("map") => node
                    .get("x-kubernetes-list-map-keys")
                    .and_then(Value::as_array)
                    .and_then(|a| {
                        a.iter()
                            .map(|k| {
                                k.as_str().and_then(|k| {
                                    cel::member("y", k)
                                        .zip(cel::member("x", k))
                                        .map(|(y, x)| format!("{y} == {x}"))
                                })
                            })
                            .collect()
                    }),
                _ => None,
            };
            match keys {
                Some(k) => {
                    let same = if k.is_empty() {
                        "y == x".to_string()
                    } else {
                        k.join(" && ")
                    };
                    out.push(
                        Rule::new(
                            format!("self.all(x, self.exists_one(y, {same}))"),
                            "Duplicate value",
                        )
                        .to_json(),
                    );
                    true
                }
                None => false,
            }
        }
        "required" => {
            let old: Vec<&str> = old
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut ok = true;
            for n in ours
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if old.contains(&n) {
                    continue;
                }
                match cel::member("self", n) {
                    Some(m) => out.push(
                        Rule::new(format!("has({m})"), "")
                            .reason(Reason::Required)
                            .at(Some(cel::field_path(n)))
                            .to_json(),
                    ),
                    None => ok = false,
                }
            }
            ok
        }
        "enum" => {
            let lits: Option<Vec<String>> = ours
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| match v {
                    Value::String(s) => Some(cel::str_lit(s)),
                    Value::Number(n) => Some(n.to_string()),
                    Value::Bool(b) => Some(b.to_string()),
                    _ => None,
                })
                .collect();
            // upstream's `NotSupported` detail: `supported values: "a", "b"` (`%q` strings, `%v` others).
            let words: Vec<String> = ours
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| match v {
                    Value::String(s) => vgc_runtime::field::go_quote(s),
                    v => v.to_string(),
                })
                .collect();
            match lits {
                Some(l) => {
                    out.push(
                        Rule::new(
                            format!("self in [{}]", l.join(", ")),
                            format!("supported values: {}", words.join(", ")),
                        )
                        .to_json(),
                    );
                    true
                }
                None => false,
            }
        }
        "x-kubernetes-validations" => {
            if let Some(a) = ours.as_array() {
                out.extend(a.iter().cloned());
            }
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_adds_rule_keys_only_and_keeps_what_the_document_says() {
        let mut doc = json!({"components": {"schemas": {"a.T": {
            "type": "object",
            "required": ["x"],
            "properties": {"x": {"type": "string"}, "n": {"type": "integer", "format": "int32"}}
        }}}});
        let ours: BTreeMap<String, Value> = [(
            "a.T".to_string(),
            json!({
                "type": "object",
                "description": "not a rule key",
                "required": ["x", "y"],
                "properties": {"x": {"type": "string", "maxLength": 3}, "n": {"minimum": 1, "format": "int64"}, "z": {"minimum": 0}}
            }),
        )]
        .into();
        let r = merge(&mut doc, &ours);
        let t = &doc["components"]["schemas"]["a.T"];
        assert_eq!(t["required"], json!(["x"]), "kept");
        assert_eq!(t["x-kubernetes-validations"][0]["rule"], "has(self.y)");
        assert_eq!(t["properties"]["x"]["maxLength"], 3);
        assert_eq!(t["properties"]["n"]["minimum"], 1);
        assert_eq!(t["properties"]["n"]["format"], "int32", "kept");
        assert!(t.get("description").is_none(), "only rule keys");
        assert_eq!(r.missing, vec!["a.T.z".to_string()]);
        assert_eq!(r.kept.len(), 2);
    }

    #[test]
    fn merging_twice_adds_nothing_the_second_time() {
        let mut doc = json!({"components": {"schemas": {"a.T": {
            "type": "object",
            "required": ["x"],
            "x-kubernetes-validations": [{"rule": "theirs"}],
            "properties": {"x": {"type": "string"}, "l": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}}}
        }}}});
        let ours: BTreeMap<String, Value> = [(
            "a.T".to_string(),
            json!({
                "type": "object",
                "required": ["x", "y"],
                "x-kubernetes-validations": [{"rule": "ours", "message": "m"}],
                "properties": {"x": {"maxLength": 3, "x-kubernetes-validations": [{"rule": "self != ''"}]},
                               "l": {"x-kubernetes-list-type": "set"}}
            }),
        )]
        .into();
        let first = merge(&mut doc, &ours);
        let once = doc.clone();
        assert_eq!(
            once["components"]["schemas"]["a.T"]["x-kubernetes-validations"],
            json!([{"rule": "theirs"}, {"rule": "has(self.y)", "message": "must be specified", "reason": "FieldValueRequired", "fieldPath": ".y"},
                   {"rule": "ours", "message": "m"}])
        );
        assert_eq!(
            once["components"]["schemas"]["a.T"]["properties"]["l"]["x-kubernetes-validations"],
            json!([{"rule": "self.all(x, self.exists_one(y, y == x))", "message": "Duplicate value", "reason": "FieldValueInvalid"}])
        );
        assert_eq!(first.added, 4, "{first:?}");
        let second = merge(&mut doc, &ours);
        assert_eq!(second.added, 0, "{second:?}");
        assert_eq!(doc, once, "merge is idempotent");
    }
}
