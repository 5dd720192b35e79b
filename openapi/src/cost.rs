//! The API server's CEL cost budget, estimated by vgc itself (issue 39, `docs/openapi.md` "The cost budget"): what
//! `ValidateCustomResourceDefinition` of k8s.io/apiextensions-apiserver v0.37.2 estimates for each
//! `x-kubernetes-validations` rule of a CRD's schema, and the budgets it compares the estimates with.
//!
//! For each schema node with rules (walked as `validation.go` walks `openAPIV3Schema`: `properties`, `items`,
//! `additionalProperties`), each rule's most expensive run ([`estimate`], cel-go's estimator with the Kubernetes
//! libraries' costs) is multiplied by the number of times the rule may run: the product of `maxItems`/
//! `maxProperties` of the lists and maps above it (`CELSchemaContext.MaxCardinality`) or, where one of them has no
//! bound, the 3 MiB request limit over the least bytes a value of the node takes serialized plus a comma
//! (`maxCardinality(MinSerializedSize)`). A rule over [`RULE_BUDGET`] is refused; a `messageExpression` over it
//! too (its cost is not multiplied); the sum of every rule's and message's cost over [`CRD_BUDGET`] refuses the
//! schema, and the four most expensive of them that cost at least 1 % of that budget are each named as having
//! contributed (`TotalCost.ObserveExpressionCost`).
//!
//! [`crd_schema`] estimates a CRD's `openAPIV3Schema`; [`components`] each component schema of vgc's documents as
//! the `spec` of a CRD, references inlined as a CRD must say them ([`inline_component`]).

pub mod bounds;
mod decl;
mod estimate;
mod parse;

use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The most a rule (times its cardinality) or a `messageExpression` may cost
/// (apiextensions `validation.StaticEstimatedCostLimit`).
pub const RULE_BUDGET: u64 = 10_000_000;

/// The most all the rules and messages of one CRD schema may cost together
/// (apiextensions `validation.StaticEstimatedCRDCostLimit`).
pub const CRD_BUDGET: u64 = 100_000_000;

/// The rule-object key naming, in an inlined component, where the rule is written: the schema and JSON path
/// (`io.k8s.api.core.v1.Toleration.key`). Set by [`inline_component`], read into [`RuleCost::origin`].
pub const ORIGIN_KEY: &str = "x-vgc-origin";

/// The estimate of one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCost {
    /// The rule's place as the API server names it, below the schema's root: `openAPIV3Schema.properties[spec]
    /// .properties[tolerations].items.properties[key].x-kubernetes-validations[0].rule`.
    pub field: String,
    /// The rule's JSON path in the schema (`.spec.tolerations[*].key`).
    pub path: String,
    /// The tag the rule says (`x-vgc-tag`), when the schema carries it.
    pub tag: Option<String>,
    /// Where vgc wrote the rule ([`ORIGIN_KEY`]), when known.
    pub origin: Option<String>,
    /// The rule's CEL text.
    pub rule: String,
    /// The most one run costs (cel-go's `MaxCost`); `Err` with what the estimate does not know (a function or an
    /// operand type of a rule vgc did not write), then the rule counts as over budget.
    pub per_call: Result<u64, String>,
    /// How many times the rule may run (`None`: sized by the request limit, see the module docs).
    pub bounded_cardinality: Option<u64>,
    /// The JSON paths of the lists without `maxItems` and maps without `maxProperties` above the rule (outermost
    /// first): what makes the cardinality unbounded.
    pub unbounded_above: Vec<String>,
    /// What the rule's own node lacks that the estimate sizes by the request limit: `"maxItems"` (a list),
    /// `"maxProperties"` (a map), `"maxLength"` (a string); `None` when bounded or of another type.
    pub unbounded_node: Option<&'static str>,
    /// The number of times used: the bounded cardinality, or the request limit over the node's least size.
    pub cardinality: u64,
    /// `per_call × cardinality`, saturating: what is compared with [`RULE_BUDGET`].
    pub cost: u64,
    /// The `messageExpression`'s most expensive run, when the rule has one.
    pub message_cost: Option<Result<u64, String>>,
}

impl RuleCost {
    /// Whether the API server refuses the rule for its cost.
    #[must_use]
    pub fn over_budget(&self) -> bool {
        self.per_call.is_err() || self.cost > RULE_BUDGET
    }

    /// Whether the API server refuses the rule's `messageExpression` for its cost.
    #[must_use]
    pub fn message_over_budget(&self) -> bool {
        matches!(&self.message_cost, Some(Err(_)))
            || matches!(self.message_cost, Some(Ok(c)) if c > RULE_BUDGET)
    }
}

/// The estimate of one CRD schema.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaCost {
    /// Every rule, in the walk's order (a node's rules, then its properties in the schema's order, `items`,
    /// `additionalProperties`; the API server walks properties in Go's map order, which changes nothing but which
    /// of equal-cost contributors it names).
    pub rules: Vec<RuleCost>,
    /// The sum of every rule's and `messageExpression`'s cost, saturating: compared with [`CRD_BUDGET`].
    pub total: u64,
    /// The places (`RuleCost::field`, or its `…messageExpression`) and costs the API server names as having
    /// contributed to a total over budget: the four most expensive costing at least 1 % of [`CRD_BUDGET`],
    /// costliest first — and every other one costing as much as the fourth: the API server names four, and which of
    /// equal costs it names depends on the order it walks properties in (Go's map order, random).
    pub contributors: Vec<(String, u64)>,
}

impl SchemaCost {
    /// Whether the API server refuses the schema for its total.
    #[must_use]
    pub fn over_budget(&self) -> bool {
        self.total > CRD_BUDGET
    }
}

/// The factor the API server prints (`getCostErrorMessage`): "more than 100x", "2.5x", "1.040000x".
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn factor_words(cost: u64, budget: u64) -> String {
    let f = cost as f64 / budget as f64;
    if f > 100.0 {
        "more than 100x".into()
    } else if f < 1.5 {
        format!("{f:.6}x")
    } else {
        format!("{f:.1}x")
    }
}

/// Estimates `root`, a CRD's `openAPIV3Schema` (inlined: no `$ref`), as the API server does (module docs).
#[must_use]
pub fn crd_schema(root: &Value) -> SchemaCost {
    let mut out = SchemaCost::default();
    let mut contributions: Vec<(u64, String)> = Vec::new();
    if let Value::Object(m) = root {
        let mut cx = Walk {
            out: &mut out,
            contributions: &mut contributions,
            unbounded: Vec::new(),
        };
        cx.walk(m, "openAPIV3Schema", "", Some(1), true);
    }
    contributions.sort_by_key(|c| std::cmp::Reverse(c.0));
    let fourth = contributions.get(3).map_or(0, |c| c.0);
    out.contributors = contributions
        .into_iter()
        .enumerate()
        .take_while(|(i, c)| *i < 4 || c.0 == fourth)
        .map(|(_, (cost, f))| (f, cost))
        .collect();
    out
}

/// The count of elements a child of `m` multiplies the cardinality by (`extractMaxElements`): 1 for an object's
/// property, `maxItems`/`maxProperties` for a list's items or a map's values, `None` where unbounded.
fn max_elements(m: &Map<String, Value>) -> Option<u64> {
    let bound = |k: &str| {
        m.get(k)
            .and_then(Value::as_i64)
            .map(|v| u64::try_from(v).unwrap_or(0))
    };
    match m.get("type").and_then(Value::as_str) {
        Some("object") if m.contains_key("additionalProperties") => bound("maxProperties"),
        Some("array") => bound("maxItems"),
        _ => Some(1),
    }
}

/// The walk of one schema: what it found so far, and the unbounded lists and maps above the node.
struct Walk<'o> {
    out: &'o mut SchemaCost,
    contributions: &'o mut Vec<(u64, String)>,
    unbounded: Vec<String>,
}

impl Walk<'_> {
    fn walk(
        &mut self,
        m: &Map<String, Value>,
        field: &str,
        path: &str,
        cardinality: Option<u64>,
        is_root: bool,
    ) {
        if let Some(Value::Array(rules)) = m.get("x-kubernetes-validations")
            && !rules.is_empty()
        {
            self.rules_of(m, rules, field, path, cardinality, is_root);
        }
        let bound = max_elements(m);
        let child = cardinality.and_then(|c| bound.map(|n| c.saturating_mul(n)));
        if bound.is_none() {
            self.unbounded.push(if path.is_empty() {
                ".".into()
            } else {
                path.to_string()
            });
        }
        if let Some(Value::Object(props)) = m.get("properties") {
            for (k, v) in props {
                if let Value::Object(p) = v {
                    self.walk(
                        p,
                        &format!("{field}.properties[{k}]"),
                        &format!("{path}.{k}"),
                        child,
                        false,
                    );
                }
            }
        }
        if let Some(Value::Object(items)) = m.get("items") {
            self.walk(
                items,
                &format!("{field}.items"),
                &format!("{path}[*]"),
                child,
                false,
            );
        }
        if let Some(Value::Object(ap)) = m.get("additionalProperties") {
            self.walk(
                ap,
                &format!("{field}.additionalProperties"),
                &format!("{path}[*]"),
                child,
                false,
            );
        }
        if bound.is_none() {
            self.unbounded.pop();
        }
    }

    fn rules_of(
        &mut self,
        m: &Map<String, Value>,
        rules: &[Value],
        field: &str,
        path: &str,
        cardinality: Option<u64>,
        is_root: bool,
    ) {
        let decl = if is_root {
            let mut with_meta = m.clone();
            add_type_and_object_meta(&mut with_meta);
            decl::decl_of(&with_meta)
        } else {
            decl::decl_of(m)
        };
        for (i, r) in rules.iter().enumerate() {
            let Some(r) = r.as_object() else { continue };
            let text = r.get("rule").and_then(Value::as_str).unwrap_or_default();
            let optional = r.get("optionalOldSelf") == Some(&Value::Bool(true));
            let estimate_one = |text: &str| -> Result<u64, String> {
                let d = decl.as_ref().ok_or("the schema node has no CEL type")?;
                let e = parse::parse(text).map_err(|e| format!("not read: {e}"))?;
                estimate::Coster::new(d, optional).cost(&e).map(|c| c.max)
            };
            let per_call = estimate_one(text);
            let unbounded = decl.as_ref().map_or(1, |d| {
                u64::try_from(decl::MAX_REQUEST_SIZE_BYTES / (d.min_size + 1)).unwrap_or(0)
            });
            let used = cardinality.unwrap_or(unbounded);
            let cost = match &per_call {
                Ok(0) => 0,
                Ok(c) => c.saturating_mul(used),
                Err(_) => u64::MAX,
            };
            let rule_field = format!("{field}.x-kubernetes-validations[{i}].rule");
            self.out.total = self.out.total.saturating_add(cost);
            if cost >= CRD_BUDGET / 100 {
                self.contributions.push((cost, rule_field.clone()));
            }
            let message_cost = r
                .get("messageExpression")
                .and_then(Value::as_str)
                .map(estimate_one);
            if let Some(mc) = &message_cost {
                let c = *mc.as_ref().unwrap_or(&u64::MAX);
                self.out.total = self.out.total.saturating_add(c);
                if c >= CRD_BUDGET / 100 {
                    self.contributions.push((
                        c,
                        format!("{field}.x-kubernetes-validations[{i}].messageExpression"),
                    ));
                }
            }
            self.out.rules.push(RuleCost {
                field: rule_field,
                path: if path.is_empty() {
                    ".".into()
                } else {
                    path.to_string()
                },
                tag: r
                    .get(crate::TAG_KEY)
                    .and_then(Value::as_str)
                    .map(str::to_string),
                origin: r
                    .get(ORIGIN_KEY)
                    .and_then(Value::as_str)
                    .map(str::to_string),
                rule: text.to_string(),
                per_call,
                bounded_cardinality: cardinality,
                unbounded_above: self.unbounded.clone(),
                unbounded_node: unbounded_node(m),
                cardinality: used,
                cost,
                message_cost,
            });
        }
    }
}

/// [`RuleCost::unbounded_node`] of the node `m`.
fn unbounded_node(m: &Map<String, Value>) -> Option<&'static str> {
    let t = m.get("type").and_then(Value::as_str);
    if t == Some("array") && !m.contains_key("maxItems") {
        Some("maxItems")
    } else if t == Some("object")
        && m.contains_key("additionalProperties")
        && !m.contains_key("maxProperties")
    {
        Some("maxProperties")
    } else if (t == Some("string")
        || m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)))
        && !m.contains_key("maxLength")
        && !m.contains_key("enum")
    {
        Some("maxLength")
    } else {
        None
    }
}

/// upstream `WithTypeAndObjectMeta`: a resource root's type has `kind`, `apiVersion` and `metadata` (`name`,
/// `generateName`) whatever its schema says.
fn add_type_and_object_meta(m: &mut Map<String, Value>) {
    let props = m
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(p) = props {
        p.insert("kind".into(), json!({"type": "string"}));
        p.insert("apiVersion".into(), json!({"type": "string"}));
        p.insert(
            "metadata".into(),
            json!({"type": "object", "properties": {"name": {"type": "string"}, "generateName": {"type": "string"}}}),
        );
    }
}

/// What a CRD says for the well-known types kube-openapi names, which a CRD cannot reference.
fn well_known(name: &str) -> Option<Value> {
    match name {
        "io.k8s.apimachinery.pkg.api.resource.Quantity"
        | "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => {
            Some(json!({"x-kubernetes-int-or-string": true}))
        }
        "io.k8s.apimachinery.pkg.runtime.RawExtension"
        | "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1" => {
            Some(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}))
        }
        _ => None,
    }
}

/// Component schema `name` of `schemas` made a CRD's `spec`: every `$ref` (and one-element `allOf: [{$ref}]`)
/// replaced by the schema it names with the referring node's keys laid over it (both rule lists kept); a
/// well-known type as a CRD says it (`Quantity`, `IntOrString`: `x-kubernetes-int-or-string`; `RawExtension`,
/// `FieldsV1`: an object keeping unknown fields); a reference back into a schema being inlined cut to an object
/// keeping unknown fields with the scalar properties of that schema (no rules). vgc's extension keys are dropped but
/// a rule's `x-vgc-tag`, and each rule gets [`ORIGIN_KEY`]. `None` when `schemas` has no object `name` or `name` is
/// a well-known type.
#[must_use]
pub fn inline_component(schemas: &BTreeMap<String, Value>, name: &str) -> Option<Value> {
    if well_known(name).is_some() {
        return None;
    }
    let root = schemas.get(name)?.as_object()?;
    let mut stack = vec![name.to_string()];
    Some(Value::Object(resolve(schemas, root, &mut stack, name, "")))
}

fn resolve(
    schemas: &BTreeMap<String, Value>,
    node: &Map<String, Value>,
    stack: &mut Vec<String>,
    origin: &str,
    path: &str,
) -> Map<String, Value> {
    let mut own = clean(node, origin, path);
    let target = crate::builder::ref_name(node).map(str::to_string);
    if target.is_some() && node.contains_key("$ref") {
        // The referring node's own keys over the resolved target, nothing below them resolved again (the
        // oracle's inliner does the same).
        own.remove("$ref");
    } else if target.is_some() {
        own.remove("allOf");
    }
    let direct_ref = node.contains_key("$ref");
    let mut out = match target {
        Some(t) => {
            let base = if let Some(w) = well_known(&t) {
                w.as_object().cloned().unwrap_or_default()
            } else if stack.contains(&t) {
                shallow(schemas, &t)
            } else if let Some(Value::Object(c)) = schemas.get(&t) {
                stack.push(t.clone());
                let r = resolve(schemas, c, stack, &t, "");
                stack.pop();
                r
            } else {
                Map::new()
            };
            let laid = lay_over(base, own);
            if direct_ref {
                return laid;
            }
            laid
        }
        None => own,
    };
    if let Some(Value::Object(props)) = out.get("properties").cloned() {
        let resolved: Map<String, Value> = props
            .iter()
            .filter_map(|(k, v)| {
                let m = v.as_object()?;
                let p = format!("{path}.{k}");
                Some((
                    k.clone(),
                    Value::Object(resolve(schemas, m, stack, origin, &p)),
                ))
            })
            .collect();
        out.insert("properties".into(), Value::Object(resolved));
    }
    for k in ["items", "additionalProperties"] {
        if let Some(Value::Object(m)) = out.get(k).cloned() {
            let r = resolve(schemas, &m, stack, origin, &format!("{path}[*]"));
            out.insert(k.into(), Value::Object(r));
        }
    }
    out
}

/// `node` without vgc's keys; its rules with `x-vgc-tag` and [`ORIGIN_KEY`] only.
fn clean(node: &Map<String, Value>, origin: &str, path: &str) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in node {
        if k.starts_with("x-vgc-") {
            continue;
        }
        if k == "x-kubernetes-validations"
            && let Value::Array(rules) = v
        {
            let rules = rules
                .iter()
                .map(|r| match r {
                    Value::Object(m) => {
                        let mut m: Map<String, Value> = m
                            .iter()
                            .filter(|(k, _)| !k.starts_with("x-vgc-") || *k == crate::TAG_KEY)
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect();
                        m.entry(ORIGIN_KEY)
                            .or_insert_with(|| json!(format!("{origin}{path}")));
                        Value::Object(m)
                    }
                    other => other.clone(),
                })
                .collect();
            out.insert(k.clone(), Value::Array(rules));
            continue;
        }
        out.insert(k.clone(), v.clone());
    }
    out
}

/// The keys of `over` laid over `base`; both rule lists kept, `base`'s first.
fn lay_over(mut base: Map<String, Value>, over: Map<String, Value>) -> Map<String, Value> {
    for (k, v) in over {
        if k == "x-kubernetes-validations"
            && let (Some(Value::Array(prev)), Value::Array(new)) = (base.get_mut(&k), &v)
        {
            prev.extend(new.iter().cloned());
            continue;
        }
        base.insert(k, v);
    }
    base
}

/// A cut at a recursion: an object keeping unknown fields with the scalar properties of `name`.
fn shallow(schemas: &BTreeMap<String, Value>, name: &str) -> Map<String, Value> {
    let mut props = Map::new();
    if let Some(Value::Object(p)) = schemas.get(name).and_then(|c| c.get("properties")) {
        for (k, v) in p {
            if let Some(t @ ("string" | "integer" | "boolean" | "number")) =
                v.get("type").and_then(Value::as_str)
            {
                props.insert(k.clone(), json!({"type": t}));
            }
        }
    }
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
    m.insert("properties".into(), Value::Object(props));
    m
}

/// Fills [`RuleCost::tag`] and [`RuleCost::origin`] of the rules of `c` — the estimate of a CRD version's schema
/// that got vgc's schema `name` (`vgc openapi --crd`: its rule objects carry no `x-vgc-*` key) — from that schema
/// inlined, by JSON path and rule text. A rule of the CRD's own (controller-gen's) keeps neither.
pub fn name_rules(c: &mut SchemaCost, schemas: &BTreeMap<String, Value>, name: &str) {
    let Some(ours) = inline_component(schemas, name) else {
        return;
    };
    let ours = crd_schema(&ours);
    let by_place: BTreeMap<(&str, &str), &RuleCost> = ours
        .rules
        .iter()
        .map(|r| ((r.path.as_str(), r.rule.as_str()), r))
        .collect();
    for r in &mut c.rules {
        if let Some(o) = by_place.get(&(r.path.as_str(), r.rule.as_str())) {
            r.tag.clone_from(&o.tag);
            r.origin.clone_from(&o.origin);
        }
    }
}

/// The `openAPIV3Schema` of a CRD whose `spec` is `spec`, as `vgc openapi`'s estimate and its oracle build it.
#[must_use]
pub fn crd_root(spec: Value) -> Value {
    json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": spec,
        }
    })
}

/// Each component schema `names` names (of `schemas`, but the well-known types) as the `spec` of a CRD
/// ([`inline_component`], [`crd_root`]), estimated ([`crd_schema`]); by schema name.
#[must_use]
pub fn components<'a>(
    schemas: &BTreeMap<String, Value>,
    names: impl IntoIterator<Item = &'a String>,
) -> BTreeMap<String, SchemaCost> {
    names
        .into_iter()
        .filter_map(|n| inline_component(schemas, n).map(|s| (n.clone(), crd_schema(&crd_root(s)))))
        .collect()
}

/// The names of the component schemas of `documents` (vgc's documents: what [`components`] estimates for
/// `vgc openapi`), sorted.
#[must_use]
pub fn document_schemas(documents: &[crate::Document]) -> std::collections::BTreeSet<String> {
    documents
        .iter()
        .filter_map(|d| {
            d.json
                .pointer("/components/schemas")
                .and_then(Value::as_object)
        })
        .flat_map(|m| m.keys().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_below_an_unbounded_list_is_sized_by_the_request_limit() {
        let spec = json!({"type": "object", "properties": {"names": {"type": "array", "items": {
            "type": "string", "maxLength": 63,
            "x-kubernetes-validations": [{"rule": "!format.dns1123Label().validate(self).hasValue()", "x-vgc-tag": "k8s:format=k8s-short-name"}]}}}});
        let c = crd_schema(&crd_root(spec.clone()));
        let r = &c.rules[0];
        assert_eq!(
            r.field,
            "openAPIV3Schema.properties[spec].properties[names].items.x-kubernetes-validations[0].rule"
        );
        assert_eq!(r.path, ".spec.names[*]");
        assert_eq!(r.per_call, Ok(836));
        assert_eq!(r.bounded_cardinality, None);
        assert_eq!(r.unbounded_above, [".spec.names"]);
        // 3 MiB over (a string's least size 2 + 1).
        assert_eq!(r.cardinality, 1_048_576);
        assert!(r.over_budget());
        assert_eq!(factor_words(r.cost, RULE_BUDGET), "87.7x");
        let mut bounded = spec;
        bounded["properties"]["names"]["maxItems"] = json!(100);
        let c = crd_schema(&crd_root(bounded));
        assert_eq!((c.rules[0].cardinality, c.rules[0].cost), (100, 83_600));
        assert!(!c.over_budget());
    }

    /// Each rule's cost of one run as k8s.io/apiextensions-apiserver v0.37.2's `cel.Compile` gives it for this CRD
    /// (measured with `tests/upstream/openapi_cost.go`'s `crdcosts` mode, 2026-11-28): macros, `filter`, `split`
    /// and its index (sized as the rule's node), `matches`, `contains`, `oldSelf.value()` (sized as the root), the
    /// `format` library over map keys, and a `messageExpression` of unknown size.
    #[test]
    fn one_run_costs_equal_the_api_servers() {
        let spec = json!({"type": "object", "properties": {
            "n": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf",
                "messageExpression": "'may not be decreased from ' + string(oldSelf)"}]},
            "o": {"type": "object", "properties": {"x": {"type": "string", "maxLength": 10}},
                "x-kubernetes-validations": [{"rule": "!has(oldSelf.x) || self.x == oldSelf.x"},
                    {"rule": "(oldSelf.hasValue() && self.x == oldSelf.value().x) || self.x != ''", "optionalOldSelf": true}]},
            "l": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 2},
                "x-kubernetes-validations": [{"rule": "self.exists_one(y, y == 'a')"},
                    {"rule": "size(self.filter(y, y.startsWith('a'))) <= 1"},
                    {"rule": "self.all(y, self.exists(z, z == y))"}]},
            "s": {"type": "string", "maxLength": 20, "x-kubernetes-validations": [{"rule":
                "size(self.split('/')) == 2 && self.split('/')[1].matches(r'^[a-z]+$') && !self.contains('//')"}]},
            "m": {"type": "object", "additionalProperties": {"type": "string"}, "x-kubernetes-validations": [{"rule":
                "self.all(k, k in oldSelf || !format.dns1123Label().validate(k).hasValue())"}]},
        }});
        let c = crd_schema(&crd_root(spec));
        let got: Vec<(&str, Result<u64, String>)> = c
            .rules
            .iter()
            .map(|r| (r.path.as_str(), r.per_call.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (".spec.n", Ok(3)),
                (".spec.o", Ok(10)),
                (".spec.o", Ok(9)),
                (".spec.l", Ok(15)),
                (".spec.l", Ok(59)),
                (".spec.l", Ok(80)),
                (".spec.s", Ok(65)),
                (".spec.m", Ok(3_932_152)),
            ]
        );
        assert_eq!(c.rules[0].message_cost, Some(Ok(1_844_674_407_370_955_266)));
        assert!(c.rules[0].message_over_budget());
        assert!(c.over_budget());
        let fields: Vec<&str> = c.contributors.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            fields,
            [
                "openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].messageExpression",
                "openAPIV3Schema.properties[spec].properties[m].x-kubernetes-validations[0].rule",
            ]
        );
    }

    #[test]
    fn components_are_inlined_with_origins_and_well_known_types() {
        let schemas: BTreeMap<String, Value> = [
            ("a.Spec".to_string(), json!({"type": "object", "properties": {
                "item": {"$ref": "#/components/schemas/a.Item"},
                "q": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"}}})),
            ("a.Item".to_string(), json!({"type": "object", "properties": {"name": {"type": "string",
                "x-kubernetes-validations": [{"rule": "self != ''", "x-vgc-tag": "k8s:required"}]},
                "next": {"$ref": "#/components/schemas/a.Item"}}})),
        ]
        .into_iter()
        .collect();
        let s = inline_component(&schemas, "a.Spec").expect("schema");
        assert_eq!(
            s["properties"]["q"],
            json!({"x-kubernetes-int-or-string": true})
        );
        assert_eq!(
            s["properties"]["item"]["properties"]["next"],
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"name": {"type": "string"}}})
        );
        let c = components(&schemas, schemas.keys());
        let r = &c["a.Spec"].rules[0];
        assert_eq!(r.origin.as_deref(), Some("a.Item.name"));
        assert_eq!(r.tag.as_deref(), Some("k8s:required"));
        assert_eq!(r.per_call, Ok(1));
    }
}
