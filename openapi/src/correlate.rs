//! What the API server's CRD machinery requires of the finished schemas, applied to them as a whole (a component is
//! shared by every schema that references it, so these are decided over all of them):
//!
//! - **Transition rules only where the old value can be found.** A rule reading `oldSelf` is refused ("oldSelf cannot
//!   be used on the uncorrelatable portion of the schema") under the items of a list that is not
//!   `x-kubernetes-list-type: map` — there is no old item to compare with. A component that holds such rules (itself
//!   or through the components it references) and that some schema reaches below the items of such a list gets a
//!   variant without them, named `<name>` + [`UNCORRELATED_SUFFIX`], which the references there point to; the
//!   component itself keeps them for its other uses. Transition rules written in place below such items are moved
//!   to [`crate::UNEXPRESSED_KEY`].
//! - **List-map keys are required or defaulted.** A property named by `x-kubernetes-list-map-keys` that is neither
//!   required nor defaulted gets its Go zero value as `default` (`""`, `0`, `false`): Go decodes an absent key as
//!   that zero, which is also what upstream's list matching compares.

use crate::builder::{ref_name, refs};
use crate::{TAG_KEY, UNEXPRESSED_KEY, Unexpressed};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The suffix of a component's variant without transition rules, for its uses below the items of a list that is not a
/// list-map (`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.x-vgc-uncorrelated`).
pub const UNCORRELATED_SUFFIX: &str = ".x-vgc-uncorrelated";

/// Applies both (see the module docs) to `schemas`; returns the rules it moved.
pub(crate) fn finish(schemas: &mut BTreeMap<String, Value>) -> Vec<Unexpressed> {
    let uncorrelated = uncorrelated(schemas);
    let transitions = with_transitions(schemas);
    let needs: BTreeSet<String> = uncorrelated.intersection(&transitions).cloned().collect();
    let mut moved = Vec::new();
    let mut variants = Vec::new();
    for name in &needs {
        let Some(Value::Object(m)) = schemas.get(name) else {
            continue;
        };
        let mut v = m.clone();
        // Listed in the variant (`x-vgc-unexpressed`); the component itself says them for its other uses, so they
        // are not counted as unsaid.
        strip(&mut v, name, "", true, VARIANT_WHY, &mut Vec::new());
        redirect(&mut v, true, &needs);
        variants.push((format!("{name}{UNCORRELATED_SUFFIX}"), Value::Object(v)));
    }
    for (name, s) in schemas.iter_mut() {
        if let Value::Object(m) = s {
            strip(m, name, "", false, IN_PLACE_WHY, &mut moved);
            redirect(m, false, &needs);
        }
    }
    schemas.extend(variants);
    let mut keys = Vec::new();
    for s in schemas.values_mut() {
        if let Value::Object(m) = s {
            map_keys(m, &mut keys);
        }
    }
    for (name, key) in keys {
        if let Some(Value::Object(m)) = schemas.get_mut(&name) {
            default_key(m, &key);
        }
    }
    moved
}

/// The schema nodes directly below `m`, with whether each is the items of a list that is not a list-map.
fn children(m: &Map<String, Value>) -> Vec<(String, &Map<String, Value>, bool)> {
    let mut out = Vec::new();
    if let Some(Value::Object(p)) = m.get("properties") {
        for (k, v) in p {
            if let Value::Object(v) = v {
                out.push((format!(".{k}"), v, false));
            }
        }
    }
    if let Some(Value::Object(v)) = m.get("items") {
        let map = m.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map");
        out.push(("[*]".into(), v, !map));
    }
    if let Some(Value::Object(v)) = m.get("additionalProperties") {
        out.push(("[*]".into(), v, false));
    }
    out
}

/// The components some schema reaches below the items of a list that is not a list-map, and everything they
/// reference.
fn uncorrelated(schemas: &BTreeMap<String, Value>) -> BTreeSet<String> {
    fn seeds(m: &Map<String, Value>, under: bool, out: &mut Vec<String>) {
        if under && let Some(r) = ref_name(m) {
            out.push(r.to_string());
        }
        for (_, c, items) in children(m) {
            seeds(c, under || items, out);
        }
    }
    let mut stack = Vec::new();
    for s in schemas.values() {
        if let Value::Object(m) = s {
            seeds(m, false, &mut stack);
        }
    }
    let mut out = BTreeSet::new();
    while let Some(n) = stack.pop() {
        if out.insert(n.clone())
            && let Some(s) = schemas.get(&n)
        {
            refs(s, &mut stack);
        }
    }
    out
}

/// The components holding a transition rule, in place or through the components they reference.
fn with_transitions(schemas: &BTreeMap<String, Value>) -> BTreeSet<String> {
    fn own(v: &Value) -> bool {
        match v {
            Value::Object(m) => {
                m.get("x-kubernetes-validations")
                    .and_then(Value::as_array)
                    .is_some_and(|a| {
                        a.iter()
                            .any(|r| r["rule"].as_str().is_some_and(|t| t.contains("oldSelf")))
                    })
                    || m.values().any(own)
            }
            Value::Array(a) => a.iter().any(own),
            _ => false,
        }
    }
    let mut set: BTreeSet<String> = schemas
        .iter()
        .filter(|(_, s)| own(s))
        .map(|(n, _)| n.clone())
        .collect();
    let edges: BTreeMap<&String, BTreeSet<String>> = schemas
        .iter()
        .map(|(n, s)| {
            let mut r = BTreeSet::new();
            refs(s, &mut r);
            (n, r)
        })
        .collect();
    loop {
        let before = set.len();
        for (n, r) in &edges {
            if !set.contains(*n) && r.iter().any(|x| set.contains(x)) {
                set.insert((*n).clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Points the references of `m` that sit below the items of a list that is not a list-map (`under`) at the
/// variants of the components in `needs`.
fn redirect(m: &mut Map<String, Value>, under: bool, needs: &BTreeSet<String>) {
    if under {
        let target = if m.contains_key("$ref") {
            m.get_mut("$ref")
        } else {
            m.get_mut("allOf")
                .and_then(Value::as_array_mut)
                .filter(|a| a.len() == 1)
                .and_then(|a| a[0].get_mut("$ref"))
        };
        if let Some(Value::String(r)) = target
            && let Some(n) = r.strip_prefix(crate::builder::REF_PREFIX)
            && needs.contains(n)
        {
            *r = format!("{r}{UNCORRELATED_SUFFIX}");
        }
    }
    let map = m.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map");
    if let Some(Value::Object(p)) = m.get_mut("properties") {
        for v in p.values_mut() {
            if let Value::Object(v) = v {
                redirect(v, under, needs);
            }
        }
    }
    if let Some(Value::Object(v)) = m.get_mut("items") {
        redirect(v, under || !map, needs);
    }
    if let Some(Value::Object(v)) = m.get_mut("additionalProperties") {
        redirect(v, under, needs);
    }
}

/// Why a transition rule written in place below uncorrelatable items is not said.
const IN_PLACE_WHY: &str = "a transition rule (oldSelf) below the items of a list that is not x-kubernetes-list-type: map, where the API server cannot find the old value (CRD validation refuses it)";

/// Why a variant lacks a transition rule of its component.
const VARIANT_WHY: &str = "left out of this variant, which the uses of the type below the items of a list that is not x-kubernetes-list-type: map reference (the API server cannot find the old value there; CRD validation refuses oldSelf); the type's own schema keeps the rule for its other uses";

/// Moves the transition rules of `m` and the nodes below it (not through references) that sit where the old value
/// cannot be found (`under`, or below the items of a list that is not a list-map).
fn strip(
    m: &mut Map<String, Value>,
    schema: &str,
    path: &str,
    under: bool,
    why: &str,
    moved: &mut Vec<Unexpressed>,
) {
    if under && let Some(Value::Array(rules)) = m.get_mut("x-kubernetes-validations") {
        // A rule that reads `oldSelf` only to ratchet keeps its plain form here.
        for r in rules.iter_mut() {
            if let Value::Object(o) = r
                && let Some(Value::String(plain)) = o.remove(crate::cel::PLAIN_RULE_KEY)
            {
                o.insert("rule".into(), Value::String(plain));
                o.remove("optionalOldSelf");
            }
        }
        let (old, keep): (Vec<Value>, Vec<Value>) = std::mem::take(rules)
            .into_iter()
            .partition(|r| r["rule"].as_str().is_some_and(|t| t.contains("oldSelf")));
        *rules = keep;
        let empty = rules.is_empty();
        if empty {
            m.remove("x-kubernetes-validations");
        }
        for r in old {
            let rule = r
                .get(TAG_KEY)
                .and_then(Value::as_str)
                .unwrap_or("x-kubernetes-validations")
                .to_string();
            let e = m
                .entry(UNEXPRESSED_KEY)
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(a) = e {
                let entry = json!({"path": path, "reason": why, "rule": rule});
                if !a.contains(&entry) {
                    a.push(entry);
                }
            }
            moved.push(Unexpressed {
                schema: schema.to_string(),
                path: path.to_string(),
                rule,
                reason: why.to_string(),
            });
        }
    }
    let map = m.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map");
    if let Some(Value::Object(p)) = m.get_mut("properties") {
        for (k, v) in p.iter_mut() {
            if let Value::Object(v) = v {
                strip(v, schema, &format!("{path}.{k}"), under, why, moved);
            }
        }
    }
    if let Some(Value::Object(v)) = m.get_mut("items") {
        strip(v, schema, &format!("{path}[*]"), under || !map, why, moved);
    }
    if let Some(Value::Object(v)) = m.get_mut("additionalProperties") {
        strip(v, schema, &format!("{path}[*]"), under, why, moved);
    }
}

/// Every (component, key) a list-map of `m` (or below it) names whose items are a component; keys of items written
/// in place are defaulted here.
fn map_keys(m: &mut Map<String, Value>, out: &mut Vec<(String, String)>) {
    let keys: Vec<String> = m
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(items)) = m.get_mut("items") {
        match ref_name(items).map(str::to_string) {
            Some(r) => out.extend(keys.iter().map(|k| (r.clone(), k.clone()))),
            None => keys.iter().for_each(|k| default_key(items, k)),
        }
    }
    if let Some(Value::Object(p)) = m.get_mut("properties") {
        for v in p.values_mut() {
            if let Value::Object(v) = v {
                map_keys(v, out);
            }
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(Value::Object(v)) = m.get_mut(k) {
            map_keys(v, out);
        }
    }
}

/// Gives the property `key` of the object schema `m` its Go zero value as `default`, unless it is required or has a
/// default.
fn default_key(m: &mut Map<String, Value>, key: &str) {
    let required = m
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|x| x == key));
    if required {
        return;
    }
    let Some(Value::Object(p)) = m.get_mut("properties").and_then(|p| p.get_mut(key)) else {
        return;
    };
    if p.contains_key("default") {
        return;
    }
    let zero = match p.get("type").and_then(Value::as_str) {
        Some("string") => json!(""),
        Some("integer") => json!(0),
        Some("boolean") => json!(false),
        _ => return,
    };
    p.insert("default".into(), zero);
}
