//! `--over-budget unexpressed` (issue 39, `docs/openapi.md` "The cost budget", "Over budget"): the rules vgc's own
//! CEL cost estimate ([`crate::cost`], equal to k8s.io/apiextensions-apiserver v0.37.2's on every rule of k8s.io/api)
//! puts over the API server's budget are taken out of `x-kubernetes-validations` and listed under
//! [`crate::UNEXPRESSED_KEY`] at their node, with why (the estimated cost, the budget and the CRD it was estimated
//! in), so that every component schema, as a CRD's `spec`, passes `ValidateCustomResourceDefinition`'s cost checks.
//!
//! Two steps, over the component schemas given (each estimated as a CRD's `spec`, [`crate::cost::components`]):
//!
//! 1. every rule over the per-rule budget ([`crate::cost::RULE_BUDGET`]) in some schema's CRD, and every rule whose
//!    `messageExpression` is over it, is taken out where vgc wrote it ([`crate::cost::RuleCost::origin`]) — a
//!    `messageExpression`'s rule whole: its static `message` would lose the detail's dynamic part (upstream's text
//!    names the old value);
//! 2. then, for each schema still over the per-CRD total ([`crate::cost::CRD_BUDGET`]), its costliest rule (rule or
//!    `messageExpression`) is taken out, again and again until the total fits.
//!
//! A rule is written in one component: taking it out there takes it out of every schema that includes that
//! component (conservative: some of those schemas' CRDs would have accepted it). Removing a rule never makes another
//! dearer, so the schemas under budget after a step stay so.

use crate::cost::{self, CRD_BUDGET, RULE_BUDGET, RuleCost};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// What `vgc openapi` does with a rule its estimate puts over the API server's CEL cost budget (`--over-budget`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OverBudget {
    /// Every rule is written; each over budget is a `VGC0130` warning (the default).
    #[default]
    Keep,
    /// Each rule over budget is taken out and listed under `x-vgc-unexpressed` (module docs).
    Unexpressed,
}

/// Parses an `--over-budget` word: `keep` or `unexpressed`.
///
/// # Errors
/// Any other word, with the accepted ones.
pub fn parse(s: &str) -> Result<OverBudget, String> {
    match s {
        "keep" => Ok(OverBudget::Keep),
        "unexpressed" => Ok(OverBudget::Unexpressed),
        _ => Err(format!(
            "--over-budget {s:?}: expected keep (write every rule) or unexpressed (take the rules over the API server's CEL cost budget out, listed under x-vgc-unexpressed)"
        )),
    }
}

/// Why a rule was taken out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// The rule (times its runs) is over the per-rule budget.
    Rule,
    /// Its `messageExpression` is over the per-rule budget.
    Message,
    /// The schema's rules together were over the per-CRD total and this was the costliest left.
    Total,
}

/// One rule taken out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenOut {
    /// The component schema vgc wrote it in (every schema including that component lost it).
    pub schema: String,
    /// Its JSON path below that component (`.strings[*]`; `""` for the component itself).
    pub path: String,
    /// The tag it says (`x-vgc-tag`), or its CEL text when it has none.
    pub tag: String,
    /// Its CEL text.
    pub rule: String,
    /// Why.
    pub why: Why,
    /// The schema whose CRD estimate put it over (the costliest one for [`Why::Rule`]).
    pub estimated_in: String,
    /// The estimate there: the rule's cost (times its runs), its `messageExpression`'s cost, or (for
    /// [`Why::Total`]) the larger of the two; `u64::MAX` when not estimated.
    pub cost: u64,
    /// The budget it was compared with: [`RULE_BUDGET`], or for [`Why::Total`] the schema's total then (compared
    /// with [`CRD_BUDGET`]).
    pub budget: u64,
    /// The rule's estimate there.
    pub estimate: RuleCost,
}

impl TakenOut {
    /// The `reason` of its `x-vgc-unexpressed` entry.
    #[must_use]
    pub fn reason(&self) -> String {
        let n = |c: u64| {
            if c == u64::MAX {
                "not estimated".to_string()
            } else {
                c.to_string()
            }
        };
        match self.why {
            Why::Rule => format!(
                "over the API server's CEL cost budget: estimated cost {} (a run times the runs) with {} as a CRD's spec, per-rule budget {RULE_BUDGET}",
                n(self.cost),
                self.estimated_in
            ),
            Why::Message => format!(
                "over the API server's CEL cost budget: its messageExpression's estimated cost {} with {} as a CRD's spec, budget {RULE_BUDGET}",
                n(self.cost),
                self.estimated_in
            ),
            Why::Total => format!(
                "over the API server's CEL cost budget: the costliest rule ({}) of {} as a CRD's spec, whose rules cost {} together, per-CRD budget {CRD_BUDGET}",
                n(self.cost),
                self.estimated_in,
                self.budget
            ),
        }
    }
}

/// Takes the rules over budget out of `schemas` (vgc's component schemas by name, with `$ref`s), estimating the
/// schemas `names` names as CRDs' `spec` (module docs); the rules taken out, in the order taken (step 1 sorted by
/// component, path and rule). Each is also listed under [`crate::UNEXPRESSED_KEY`] at its node.
pub fn take_out(schemas: &mut BTreeMap<String, Value>, names: &BTreeSet<String>) -> Vec<TakenOut> {
    let mut out = Vec::new();
    let costs = cost::components(schemas, names);
    // Step 1, per place (origin, rule text): the costliest estimate.
    let mut over: BTreeMap<(String, String), TakenOut> = BTreeMap::new();
    for (schema, c) in &costs {
        for r in &c.rules {
            let message_cost = r
                .message_cost
                .as_ref()
                .map(|m| *m.as_ref().unwrap_or(&u64::MAX));
            let (why, cost) = if r.over_budget() {
                (Why::Rule, r.cost)
            } else if r.message_over_budget() {
                (Why::Message, message_cost.unwrap_or(u64::MAX))
            } else {
                continue;
            };
            let Some(origin) = &r.origin else { continue };
            let t = taken(schemas, schema, r, origin, why, cost, RULE_BUDGET);
            let e = over.entry((origin.clone(), r.rule.clone())).or_insert(t);
            if cost > e.cost {
                e.cost = cost;
                e.estimated_in.clone_from(schema);
                e.estimate = r.clone();
            }
        }
    }
    for t in over.into_values() {
        remove(schemas, &t);
        out.push(t);
    }
    // Step 2: the schemas over the total, re-estimated after each removal.
    let mut pending: BTreeSet<String> = names.clone();
    loop {
        let costs = cost::components(schemas, &pending);
        pending = costs
            .iter()
            .filter(|(_, c)| c.over_budget())
            .map(|(n, _)| n.clone())
            .collect();
        if pending.is_empty() {
            break;
        }
        let mut removed = BTreeSet::new();
        for (schema, c) in costs.iter().filter(|(_, c)| c.over_budget()) {
            let Some((cost, r)) = costliest(&c.rules) else {
                break;
            };
            let origin = r.origin.clone().unwrap_or_default();
            if !removed.insert((origin.clone(), r.rule.clone())) {
                continue;
            }
            let t = taken(schemas, schema, r, &origin, Why::Total, cost, c.total);
            remove(schemas, &t);
            out.push(t);
        }
        if removed.is_empty() {
            // Nothing of vgc's left to take: cannot happen for vgc's documents (every rule has an origin).
            break;
        }
    }
    out
}

/// `--over-budget unexpressed` for `vgc openapi --crd`: the rules of vgc's (those `estimate` names with an origin,
/// [`crate::cost::name_rules`]) that the estimate of the CRD version's `openAPIV3Schema` `root` puts over budget are
/// taken out of it, as [`take_out`] does (each over the per-rule budget or with a `messageExpression` over it, then
/// the costliest until the total fits); the CRD's own rules (controller-gen's) are never taken out. `estimate`
/// estimates `root` and names vgc's rules; `name` (`crd/version`) is what [`TakenOut::schema`] and
/// [`TakenOut::estimated_in`] say. A CRD carries no `x-vgc-*` key: the rules are listed only in what is returned.
pub fn take_out_crd(
    root: &mut Value,
    estimate: impl Fn(&Value) -> cost::SchemaCost,
    name: &str,
) -> Vec<TakenOut> {
    let mut out = Vec::new();
    let record = |r: &RuleCost, why: Why, cost: u64, budget: u64| TakenOut {
        schema: name.to_string(),
        path: r.path.clone(),
        tag: r.tag.clone().unwrap_or_else(|| r.rule.clone()),
        rule: r.rule.clone(),
        why,
        estimated_in: name.to_string(),
        cost,
        budget,
        estimate: r.clone(),
    };
    let c = estimate(root);
    for r in c.rules.iter().filter(|r| r.origin.is_some()) {
        let t = if r.over_budget() {
            record(r, Why::Rule, r.cost, RULE_BUDGET)
        } else if r.message_over_budget() {
            let m = r
                .message_cost
                .as_ref()
                .map_or(u64::MAX, |m| *m.as_ref().unwrap_or(&u64::MAX));
            record(r, Why::Message, m, RULE_BUDGET)
        } else {
            continue;
        };
        remove_at_field(root, &r.field, &r.rule);
        out.push(t);
    }
    loop {
        let c = estimate(root);
        if !c.over_budget() {
            break;
        }
        let Some((cost, r)) = costliest(&c.rules) else {
            break;
        };
        remove_at_field(root, &r.field, &r.rule);
        out.push(record(r, Why::Total, cost, c.total));
    }
    out
}

/// The costliest of `rules` that vgc wrote (an `origin`), with its cost: its estimate or its `messageExpression`'s,
/// whichever is higher (one that could not be estimated counts as `u64::MAX`); `None` when vgc wrote none of them.
fn costliest(rules: &[RuleCost]) -> Option<(u64, &RuleCost)> {
    rules
        .iter()
        .filter(|r| r.origin.is_some())
        .map(|r| {
            let m = r
                .message_cost
                .as_ref()
                .map_or(0, |m| *m.as_ref().unwrap_or(&u64::MAX));
            (r.cost.max(m), r)
        })
        .max_by_key(|(c, _)| *c)
}

/// Takes the rule `text` out of the node of `field` (`openAPIV3Schema.properties[spec].items
/// .x-kubernetes-validations[0].rule`, [`RuleCost::field`]) below `root`.
pub(crate) fn remove_at_field(root: &mut Value, field: &str, text: &str) {
    let Some(node_field) = field
        .strip_prefix("openAPIV3Schema")
        .and_then(|f| f.rsplit_once(".x-kubernetes-validations["))
        .map(|(n, _)| n)
    else {
        return;
    };
    let mut node = root;
    let mut rest = node_field;
    while !rest.is_empty() {
        let next = if let Some(r) = rest.strip_prefix(".properties[") {
            let Some((k, r)) = r.split_once(']') else {
                return;
            };
            rest = r;
            node.get_mut("properties").and_then(|p| p.get_mut(k))
        } else if let Some(r) = rest.strip_prefix(".items") {
            rest = r;
            node.get_mut("items")
        } else if let Some(r) = rest.strip_prefix(".additionalProperties") {
            rest = r;
            node.get_mut("additionalProperties")
        } else {
            return;
        };
        let Some(n) = next else { return };
        node = n;
    }
    if let Some(Value::Object(m)) = Some(node)
        && let Some(Value::Array(rules)) = m.get_mut("x-kubernetes-validations")
    {
        rules.retain(|r| r.get("rule").and_then(Value::as_str) != Some(text));
        if rules.is_empty() {
            m.remove("x-kubernetes-validations");
        }
    }
}

/// The record of rule `r` (estimated in `schema`'s CRD) written at `origin`.
fn taken(
    schemas: &BTreeMap<String, Value>,
    schema: &str,
    r: &RuleCost,
    origin: &str,
    why: Why,
    cost: u64,
    budget: u64,
) -> TakenOut {
    let (component, path) = split_origin(schemas, origin);
    TakenOut {
        schema: component,
        path,
        tag: r.tag.clone().unwrap_or_else(|| r.rule.clone()),
        rule: r.rule.clone(),
        why,
        estimated_in: schema.to_string(),
        cost,
        budget,
        estimate: r.clone(),
    }
}

/// `origin` (`io.k8s.api.core.v1.Toleration.key`) split into the longest component name of `schemas` it starts with
/// and the JSON path below it.
fn split_origin(schemas: &BTreeMap<String, Value>, origin: &str) -> (String, String) {
    let mut best = ("", origin);
    for n in schemas.keys() {
        if let Some(rest) = origin.strip_prefix(n.as_str())
            && (rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
            && n.len() > best.0.len()
        {
            best = (n, rest);
        }
    }
    (best.0.to_string(), best.1.to_string())
}

/// Takes `t`'s rule out of its node and lists it there under [`crate::UNEXPRESSED_KEY`].
fn remove(schemas: &mut BTreeMap<String, Value>, t: &TakenOut) {
    let Some(Value::Object(root)) = schemas.get_mut(&t.schema) else {
        return;
    };
    let Some(node) = node_at(root, &t.path) else {
        return;
    };
    if let Some(Value::Array(rules)) = node.get_mut("x-kubernetes-validations") {
        rules.retain(|r| r.get("rule").and_then(Value::as_str) != Some(t.rule.as_str()));
        if rules.is_empty() {
            node.remove("x-kubernetes-validations");
        }
    }
    let e = node
        .entry(crate::UNEXPRESSED_KEY)
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(a) = e {
        a.push(json!({
            "path": t.path,
            "reason": t.reason(),
            "rule": t.tag,
            "cel": t.rule,
        }));
    }
}

/// The node at JSON path `path` (`.a[*].b`) below `root`: `.k` a property, `[*]` the items or the map's values.
fn node_at<'a>(root: &'a mut Map<String, Value>, path: &str) -> Option<&'a mut Map<String, Value>> {
    let mut node = root;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[*]") {
            let key = if node.contains_key("items") {
                "items"
            } else {
                "additionalProperties"
            };
            node = node.get_mut(key)?.as_object_mut()?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let (k, r) = r.split_at(end);
            node = node
                .get_mut("properties")?
                .as_object_mut()?
                .get_mut(k)?
                .as_object_mut()?;
            rest = r;
        } else {
            return None;
        }
    }
    Some(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule below an unbounded list (87.7x the per-rule budget) is taken out and listed; then a schema whose two
    /// bounded rules cost 160,000,000 together loses the costlier one.
    #[test]
    fn rules_over_budget_are_taken_out_and_listed() {
        let label = "!format.dns1123Label().validate(self).hasValue()";
        let mut schemas: BTreeMap<String, Value> = [
            ("a.Spec".to_string(), json!({"type": "object", "properties": {
                "names": {"type": "array", "items": {"$ref": "#/components/schemas/a.Name"}},
                "big": {"type": "array", "maxItems": 100_000, "items": {"type": "string", "maxLength": 63,
                    "x-kubernetes-validations": [{"rule": label, "x-vgc-tag": "k8s:format=k8s-short-name"}]}},
                "big2": {"type": "array", "maxItems": 11_000, "items": {"type": "string", "maxLength": 63,
                    "x-kubernetes-validations": [{"rule": label, "x-vgc-tag": "k8s:format=k8s-short-name"}]}}}})),
            ("a.Name".to_string(), json!({"type": "string", "maxLength": 63,
                "x-kubernetes-validations": [{"rule": label, "x-vgc-tag": "k8s:format=k8s-short-name"},
                    {"rule": "self != ''"}]})),
        ]
        .into_iter()
        .collect();
        let names: BTreeSet<String> = ["a.Spec".to_string()].into();
        let t = take_out(&mut schemas, &names);
        let got: Vec<(&str, &str, Why, u64)> = t
            .iter()
            .map(|t| (t.schema.as_str(), t.path.as_str(), t.why, t.cost))
            .collect();
        // 836 a run: × 1,048,576 runs (3 MiB over 3 bytes) for a.Name; × 100,000 = 83,600,000 for .big (over the
        // per-rule budget too); then .big2's 9,196,000 plus the rest is under the total.
        assert_eq!(
            got,
            [
                ("a.Name", "", Why::Rule, 876_609_536),
                ("a.Spec", ".big[*]", Why::Rule, 83_600_000),
            ]
        );
        assert_eq!(
            schemas["a.Name"]["x-kubernetes-validations"],
            json!([{"rule": "self != ''"}])
        );
        assert_eq!(
            schemas["a.Name"][crate::UNEXPRESSED_KEY][0]["rule"],
            "k8s:format=k8s-short-name"
        );
        assert!(
            schemas["a.Spec"]["properties"]["big"]["items"]
                .get("x-kubernetes-validations")
                .is_none()
        );
        let c = cost::components(&schemas, &names);
        assert!(!c["a.Spec"].over_budget());
        assert!(c["a.Spec"].rules.iter().all(|r| !r.over_budget()));
        assert_eq!(
            parse("nope").unwrap_err().split(':').next(),
            Some("--over-budget \"nope\"")
        );
    }

    /// In a CRD: vgc's rule over budget is taken out, the CRD's own (no origin) kept.
    #[test]
    fn a_crds_own_rules_are_kept() {
        let label = "!format.dns1123Label().validate(self).hasValue()";
        let mut root = cost::crd_root(json!({"type": "object", "properties": {
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 63,
                "x-kubernetes-validations": [{"rule": label}, {"rule": "self.size() > 0 && self.size() < 64"}]}}}}));
        let estimate = |v: &Value| {
            let mut c = cost::crd_schema(v);
            for r in &mut c.rules {
                if r.rule == label {
                    r.origin = Some("a.Spec.tags[*]".into());
                }
            }
            c
        };
        let t = take_out_crd(&mut root, estimate, "w/v1");
        let got: Vec<(&str, Why, u64)> =
            t.iter().map(|t| (t.path.as_str(), t.why, t.cost)).collect();
        assert_eq!(got, [(".spec.tags[*]", Why::Rule, 876_609_536)]);
        assert_eq!(
            root["properties"]["spec"]["properties"]["tags"]["items"]["x-kubernetes-validations"],
            json!([{"rule": "self.size() > 0 && self.size() < 64"}])
        );
    }

    #[test]
    fn a_schema_over_the_total_loses_its_costliest_rules() {
        let label = "!format.dns1123Label().validate(self).hasValue()";
        // 836 × 11,000 = 9,196,000 each: under the per-rule budget, 12 of them over the total.
        let mut props = Map::new();
        for i in 0..12 {
            props.insert(
                format!("l{i:02}"),
                json!({"type": "array", "maxItems": 11_000 + i, "items": {"type": "string", "maxLength": 63,
                    "x-kubernetes-validations": [{"rule": label}]}}),
            );
        }
        let mut schemas: BTreeMap<String, Value> = [(
            "a.Spec".to_string(),
            json!({"type": "object", "properties": props}),
        )]
        .into();
        let names: BTreeSet<String> = ["a.Spec".to_string()].into();
        let t = take_out(&mut schemas, &names);
        let got: Vec<(&str, Why)> = t.iter().map(|t| (t.path.as_str(), t.why)).collect();
        // 110,407,176 together: without l11 (9,205,196) still 101,201,980; without l10 too, 91,997,620.
        assert_eq!(got, [(".l11[*]", Why::Total), (".l10[*]", Why::Total)]);
        assert!(!cost::components(&schemas, &names)["a.Spec"].over_budget());
    }
}
