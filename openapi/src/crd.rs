//! `vgc openapi --crd` (KEP-3937's Kubebuilder story, `docs/openapi.md` "CRDs"): the rules of a kind's schema added
//! in place to the `openAPIV3Schema` of a CustomResourceDefinition that controller-gen wrote for the same Go types.
//!
//! A CRD's schema has no `$ref` and no `x-vgc-*` keys: k8s.io/apiextensions-apiserver's `JSONSchemaProps` has no
//! field for an unknown `x-` key (the API server drops it, with a warning under strict field validation), and its
//! `ValidationRule` has none for `x-vgc-tag`. So vgc's schema of the kind is first made self-contained
//! ([`inline`]: every reference replaced by the schema it names, vgc's extension keys dropped), then its rule keys are
//! added as [`crate::merge`] adds them (`merge::merge_node`): only the keys of [`crate::RULE_KEYS`] but vgc's own,
//! each where the CRD's node does not have it; a keyword the CRD already has keeps its value (and vgc's rule is said
//! in CEL where it differs and can be); every other key the CRD has — descriptions, types, controller-gen's
//! markers' keywords, defaults — is kept as it is. The root's `metadata` gets none: the API server validates a custom
//! resource's ObjectMeta itself.

use crate::builder::{REF_PREFIX, ref_name};
use crate::merge::{MergeReport, merge_node};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What [`add_rules`] did to one CRD version's schema.
#[derive(Debug, Clone, Default)]
pub struct CrdReport {
    /// The merge: keys added, keywords kept as the CRD had them, places the CRD has no node for.
    pub merge: MergeReport,
    /// References cut at a recursion while inlining (a type that contains itself): below the cut vgc's rules are
    /// not added (the CRD's own schema of a recursive type is cut too: controller-gen refuses recursion).
    pub cut: usize,
}

/// vgc's schema named `name` (a key of [`crate::Output::schemas`]) made self-contained as a CRD's schema must be:
/// every `$ref` (and one-element `allOf: [{$ref}]`) replaced by the schema it names, its own keys laid over it (a
/// rule list of both is kept whole); a reference to a schema `schemas` lacks (the well-known types:
/// `resource.Quantity`, `IntOrString`, `RawExtension`: vgc gives them no rules) becomes `{}`; a reference back into a
/// schema being inlined is cut to `{}` (counted in the second value); every `x-vgc-*` key dropped, also inside
/// `x-kubernetes-validations` rule objects. `None` when `schemas` has no schema `name`.
#[must_use]
pub fn inline(schemas: &BTreeMap<String, Value>, name: &str) -> Option<(Value, usize)> {
    let root = schemas.get(name)?.as_object()?;
    let mut cut = 0;
    let mut stack = vec![name.to_string()];
    let v = resolve(schemas, root, &mut stack, &mut cut);
    Some((Value::Object(v), cut))
}

/// `node` with its references inlined (see [`inline`]); `stack` holds the schemas being inlined.
fn resolve(
    schemas: &BTreeMap<String, Value>,
    node: &Map<String, Value>,
    stack: &mut Vec<String>,
    cut: &mut usize,
) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(target) = ref_name(node) {
        if stack.iter().any(|s| s == target) {
            *cut += 1;
        } else if let Some(Value::Object(t)) = schemas.get(target) {
            stack.push(target.to_string());
            out = resolve(schemas, t, stack, cut);
            stack.pop();
        }
    }
    for (k, v) in node {
        if k.starts_with("x-vgc-") || k == "$ref" || (k == "allOf" && ref_name(node).is_some()) {
            continue;
        }
        let v = match (k.as_str(), v) {
            ("properties", Value::Object(props)) => Value::Object(
                props
                    .iter()
                    .map(|(p, pv)| {
                        let pv = match pv {
                            Value::Object(m) => Value::Object(resolve(schemas, m, stack, cut)),
                            other => other.clone(),
                        };
                        (p.clone(), pv)
                    })
                    .collect(),
            ),
            ("items" | "additionalProperties", Value::Object(m)) => {
                Value::Object(resolve(schemas, m, stack, cut))
            }
            ("x-kubernetes-validations", Value::Array(rules)) => {
                let mut all = match out.remove(k) {
                    Some(Value::Array(a)) => a,
                    _ => Vec::new(),
                };
                all.extend(rules.iter().map(clean_rule));
                Value::Array(all)
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    out
}

/// A rule object without vgc's extension keys (`x-vgc-tag`, `x-vgc-stability`, `x-vgc-plain-rule`).
fn clean_rule(rule: &Value) -> Value {
    match rule {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.starts_with("x-vgc-"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Adds the rules of vgc's schema `name` ([`inline`]d) to `schema`, a CRD version's `openAPIV3Schema`, as the module
/// docs say. `None` when `schemas` has no schema `name` or `schema` is not an object (nothing changed).
pub fn add_rules(
    schema: &mut Value,
    schemas: &BTreeMap<String, Value>,
    name: &str,
) -> Option<CrdReport> {
    let (ours, cut) = inline(schemas, name)?;
    let (Value::Object(mut ours), Value::Object(e)) = (ours, schema) else {
        return None;
    };
    // A custom resource's `metadata` is the API server's to validate (ObjectMeta's own validation runs on every
    // custom resource; a CRD's schema may say nothing of it but `name` and `generateName`): ObjectMeta's rules are not
    // added there.
    if let Some(Value::Object(props)) = ours.get_mut("properties") {
        props.remove("metadata");
    }
    drop_int_or_string_format(&mut ours);
    let mut merge = MergeReport::default();
    merge.matched.insert(name.to_string());
    merge_node(e, &ours, name, "", &mut merge);
    Some(CrdReport { merge, cut })
}

/// Removes `format: int-or-string` below `m`: vgc's schemas say kube-openapi's format of `IntOrString` fields, a CRD
/// says `x-kubernetes-int-or-string: true` (controller-gen writes it); the format is not a rule.
fn drop_int_or_string_format(m: &mut Map<String, Value>) {
    if m.get("format").and_then(Value::as_str) == Some("int-or-string") {
        m.remove("format");
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        props
            .values_mut()
            .filter_map(Value::as_object_mut)
            .for_each(drop_int_or_string_format);
    }
    for k in ["items", "additionalProperties"] {
        if let Some(Value::Object(o)) = m.get_mut(k) {
            drop_int_or_string_format(o);
        }
    }
}

/// A rule of vgc's that [`take_out_undefined`] took out of a CRD's schema: it reads fields the CRD's schema lacks (a
/// CRD trimmed, or made from an older module of the Go types), so the API server refuses it when compiling it
/// ("undefined field").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undefined {
    /// The JSON Pointer of the node the rule was added to, below the root (`/properties/spec`; `""` for the root).
    pub pointer: String,
    /// The rule's JSON path (`.spec`).
    pub path: String,
    /// The tag it says (`k8s:dependentForbidden`), else its CEL text.
    pub tag: String,
    /// The rule's CEL text.
    pub rule: String,
    /// The fields it reads that the schema lacks, sorted (at least one).
    pub fields: Vec<String>,
}

/// Takes out of `root` (a CRD version's `openAPIV3Schema`) every rule of vgc's (one with an `origin` in `cost`, the
/// estimate of `root` named by [`crate::cost::name_rules`]) that the estimate could not type because it selects a
/// field the schema lacks (cel-go's checker, as the API server runs it, refuses such a rule: "undefined field").
/// The fields named are the estimate's, and each `self.f` of the rule's text whose node has `properties` without
/// `f`. The CRD's own rules are left as they are. Returns what was taken out, in the estimate's order.
pub fn take_out_undefined(root: &mut Value, cost: &crate::cost::SchemaCost) -> Vec<Undefined> {
    let mut out = Vec::new();
    for r in cost.rules.iter().filter(|r| r.origin.is_some()) {
        let Err(e) = &r.per_call else { continue };
        let Some(first) = e
            .strip_prefix("no field `")
            .and_then(|f| f.split_once('`'))
            .map(|(f, _)| f.to_string())
        else {
            continue;
        };
        let pointer = field_pointer(&r.field);
        let mut fields = vec![first];
        if let Some(props) = pointer
            .as_deref()
            .and_then(|p| root.pointer(p))
            .and_then(|n| n.get("properties"))
            .and_then(Value::as_object)
        {
            for (i, _) in r.rule.match_indices("self.") {
                let f: String = r.rule[i + 5..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !f.is_empty() && !props.contains_key(&f) {
                    fields.push(f);
                }
            }
        }
        fields.sort();
        fields.dedup();
        crate::over_budget::remove_at_field(root, &r.field, &r.rule);
        out.push(Undefined {
            pointer: pointer.unwrap_or_default(),
            path: r.path.clone(),
            tag: r.tag.clone().unwrap_or_else(|| r.rule.clone()),
            rule: r.rule.clone(),
            fields,
        });
    }
    out
}

/// The JSON Pointer of the node holding the rule at `field` (`openAPIV3Schema.properties[spec].x-kubernetes-
/// validations[0].rule` → `/properties/spec`); `None` when `field` is not of that form.
fn field_pointer(field: &str) -> Option<String> {
    let (mut rest, _) = field
        .strip_prefix("openAPIV3Schema")?
        .rsplit_once(".x-kubernetes-validations[")?;
    let mut out = String::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix(".properties[") {
            let (k, r) = r.split_once(']')?;
            out.push_str("/properties/");
            out.push_str(&k.replace('~', "~0").replace('/', "~1"));
            rest = r;
        } else if let Some(r) = rest.strip_prefix(".items") {
            out.push_str("/items");
            rest = r;
        } else if let Some(r) = rest.strip_prefix(".additionalProperties") {
            out.push_str("/additionalProperties");
            rest = r;
        } else {
            return None;
        }
    }
    Some(out)
}

/// `--bound-lists N`: sets `maxItems: n` on every list (`type: array`) of `schema` that has no `maxItems` and holds
/// an `x-kubernetes-validations` rule at itself or below, and `maxProperties: n` on every such map
/// (`additionalProperties`) without `maxProperties`. The API server's CEL cost estimate multiplies a rule's cost by
/// the number of times it can run, which for an unbounded list it derives from the 3 MiB request limit; a bound makes
/// the estimate finite — and changes what is accepted: a longer list is refused (`Too many`). Returns the JSON
/// paths bounded (`.spec.template.spec.tolerations`), in document order.
pub fn bound_lists(schema: &mut Value, n: u64) -> Vec<String> {
    let mut out = Vec::new();
    if let Value::Object(m) = schema {
        bound(m, n, "", &mut out);
    }
    out
}

/// [`bound_lists`] below `m`, at `path`.
fn bound(m: &mut Map<String, Value>, n: u64, path: &str, out: &mut Vec<String>) {
    let is_array = m.get("type").and_then(Value::as_str) == Some("array");
    let is_map = m.get("additionalProperties").is_some_and(Value::is_object);
    if is_array && !m.contains_key("maxItems") && holds_cel(m) {
        m.insert("maxItems".into(), n.into());
        out.push(if path.is_empty() {
            ".".into()
        } else {
            path.to_string()
        });
    } else if is_map && !m.contains_key("maxProperties") && holds_cel(m) {
        m.insert("maxProperties".into(), n.into());
        out.push(if path.is_empty() {
            ".".into()
        } else {
            path.to_string()
        });
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (k, v) in props.iter_mut() {
            if let Value::Object(o) = v {
                bound(o, n, &format!("{path}.{k}"), out);
            }
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(Value::Object(o)) = m.get_mut(k) {
            bound(o, n, &format!("{path}[*]"), out);
        }
    }
}

/// Whether `m` or a schema below it has an `x-kubernetes-validations` rule.
fn holds_cel(m: &Map<String, Value>) -> bool {
    m.get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
        || m.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.values().filter_map(Value::as_object).any(holds_cel))
        || ["items", "additionalProperties"]
            .iter()
            .any(|k| m.get(*k).and_then(Value::as_object).is_some_and(holds_cel))
}

/// The `$ref` a component named `name` is referenced by (for tests and callers that build schemas by hand).
#[must_use]
pub fn reference(name: &str) -> Value {
    serde_json::json!({ "$ref": format!("{REF_PREFIX}{name}") })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas() -> BTreeMap<String, Value> {
        [
            (
                "a.Spec".to_string(),
                json!({
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "maxLength": 63, "x-kubernetes-validations": [
                            {"rule": "self != ''", "message": "m", "x-vgc-tag": "k8s:format", "x-vgc-stability": "alpha"}
                        ], "x-vgc-unexpressed": [{"rule": "k8s:customValidation"}]},
                        "tpl": {"allOf": [reference("a.Tpl")], "x-kubernetes-validations": [{"rule": "outer"}]},
                        "q": reference("io.k8s.apimachinery.pkg.api.resource.Quantity"),
                        "next": reference("a.Spec"),
                    }
                }),
            ),
            (
                "a.Tpl".to_string(),
                json!({"type": "object", "properties": {"ports": {"type": "array", "maxItems": 3, "items": {"type": "integer", "minimum": 1}}},
                       "x-kubernetes-validations": [{"rule": "inner"}]}),
            ),
        ]
        .into()
    }

    #[test]
    fn inline_resolves_references_and_drops_vgc_keys() {
        let (v, cut) = inline(&schemas(), "a.Spec").expect("schema");
        assert_eq!(cut, 1, "a.Spec.next refers back to a.Spec");
        assert_eq!(
            v,
            json!({
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "maxLength": 63, "x-kubernetes-validations": [{"rule": "self != ''", "message": "m"}]},
                    "tpl": {"type": "object", "properties": {"ports": {"type": "array", "maxItems": 3, "items": {"type": "integer", "minimum": 1}}},
                            "x-kubernetes-validations": [{"rule": "inner"}, {"rule": "outer"}]},
                    "q": {},
                    "next": {},
                }
            })
        );
        assert!(inline(&schemas(), "a.Missing").is_none());
    }

    #[test]
    fn add_rules_keeps_every_key_of_the_crd() {
        let mut crd = json!({
            "type": "object",
            "description": "kept",
            "required": ["name", "tpl"],
            "properties": {
                "name": {"type": "string", "description": "the name", "maxLength": 40},
                "tpl": {"type": "object", "properties": {"ports": {"type": "array", "items": {"type": "integer", "format": "int32"}}}},
            }
        });
        let r = add_rules(&mut crd, &schemas(), "a.Spec").expect("added");
        assert_eq!(
            crd,
            json!({
                "type": "object",
                "description": "kept",
                "required": ["name", "tpl"],
                "properties": {
                    "name": {"type": "string", "description": "the name", "maxLength": 40,
                             "x-kubernetes-validations": [{"rule": "self != ''", "message": "m"}]},
                    "tpl": {"type": "object", "x-kubernetes-validations": [{"rule": "inner"}, {"rule": "outer"}],
                            "properties": {"ports": {"type": "array", "maxItems": 3, "items": {"type": "integer", "format": "int32", "minimum": 1}}}},
                }
            })
        );
        assert_eq!(r.merge.kept.len(), 1, "{:?}", r.merge.kept);
        assert!(r.merge.kept[0].contains("maxLength"), "{:?}", r.merge.kept);
        assert_eq!(r.merge.added, 4);
    }

    #[test]
    fn take_out_undefined_takes_out_vgcs_rules_reading_fields_the_crd_lacks() {
        let forbidden = "!has(self.min) || (!has(self.fixed) && !has(self.extra))";
        let mut root = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"min": {"type": "integer"}},
            "x-kubernetes-validations": [
                {"rule": forbidden},
                {"rule": "!has(self.min) || self.min > 0"},
                {"rule": "self.other == 1"}]}}});
        let mut cost = crate::cost::crd_schema(&root);
        // vgc's rules are those `name_rules` gives an origin (the CRD's own, the last, has none).
        for r in cost
            .rules
            .iter_mut()
            .filter(|r| r.rule != "self.other == 1")
        {
            r.origin = Some("a.Spec".into());
            r.tag = (r.rule == forbidden).then(|| "k8s:dependentForbidden".to_string());
        }
        let taken = take_out_undefined(&mut root, &cost);
        assert_eq!(
            taken,
            vec![Undefined {
                pointer: "/properties/spec".into(),
                path: ".spec".into(),
                tag: "k8s:dependentForbidden".into(),
                rule: forbidden.into(),
                fields: vec!["extra".into(), "fixed".into()],
            }]
        );
        assert_eq!(
            root["properties"]["spec"]["x-kubernetes-validations"],
            json!([{"rule": "!has(self.min) || self.min > 0"}, {"rule": "self.other == 1"}]),
            "vgc's rule that compiles and the CRD's own are kept"
        );
    }

    #[test]
    fn bound_lists_bounds_only_unbounded_lists_and_maps_that_hold_cel() {
        let mut s = json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "string", "x-kubernetes-validations": [{"rule": "r"}]}},
            "b": {"type": "array", "maxItems": 3, "items": {"type": "string", "x-kubernetes-validations": [{"rule": "r"}]}},
            "c": {"type": "array", "items": {"type": "string", "maxLength": 3}},
            "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                "l": {"type": "array", "items": {"type": "integer"}, "x-kubernetes-validations": [{"rule": "r"}]}}}},
        }});
        let bounded = bound_lists(&mut s, 100);
        assert_eq!(bounded, vec![".a", ".m", ".m[*].l"]);
        assert_eq!(s["properties"]["a"]["maxItems"], 100);
        assert_eq!(s["properties"]["b"]["maxItems"], 3);
        assert!(s["properties"]["c"].get("maxItems").is_none());
        assert_eq!(s["properties"]["m"]["maxProperties"], 100);
        assert_eq!(
            s["properties"]["m"]["additionalProperties"]["properties"]["l"]["maxItems"],
            100
        );
    }
}
