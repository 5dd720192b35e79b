//! Variants of components without rules, for the places where upstream does not run a type's validation: a struct
//! field or list whose plan calls no function of its type (`FieldPlan::nested`/`iteration` empty — PodTemplateSpec's
//! ObjectMeta "has no validation" in upstream's generated code). The schema builder references
//! `<name>` + [`UNVALIDATED_SUFFIX`] there; [`finish`] builds each such variant that differs from its component (the
//! component, or one it references, holds a rule) — the component with every rule key removed and its references
//! pointed at variants too — and points the other references back at the component itself.

use crate::builder::refs;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The suffix of a component's variant without rules (`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.x-vgc-unvalidated`).
pub const UNVALIDATED_SUFFIX: &str = ".x-vgc-unvalidated";

/// Keys a variant drops: every rule key of [`crate::RULE_KEYS`] but `format` (a builtin's `int32` is a type, not a
/// rule; a `k8s-*` format is dropped separately).
fn is_rule_key(k: &str, v: &Value) -> bool {
    if k == "format" {
        return v.as_str().is_some_and(|f| f.starts_with("k8s-"));
    }
    crate::RULE_KEYS.contains(&k)
}

/// Whether `v` holds a rule key in place (not through references).
fn holds_rule(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, x)| is_rule_key(k, x) || holds_rule(x)),
        Value::Array(a) => a.iter().any(holds_rule),
        _ => false,
    }
}

/// Points every `$ref` below `v` through `f`.
fn rewrite(v: &mut Value, f: &dyn Fn(&str) -> String) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get_mut("$ref")
                && let Some(n) = r.strip_prefix(crate::builder::REF_PREFIX)
            {
                *r = format!("{}{}", crate::builder::REF_PREFIX, f(n));
            }
            m.values_mut().for_each(|x| rewrite(x, f));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rewrite(x, f)),
        _ => {}
    }
}

/// Removes every rule key below `v` (in place).
fn strip(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, x| !is_rule_key(k, x) && !k.starts_with("x-vgc-"));
            m.values_mut().for_each(strip);
        }
        Value::Array(a) => a.iter_mut().for_each(strip),
        _ => {}
    }
}

/// Builds the variants `schemas` reference (see the module docs).
pub(crate) fn finish(schemas: &mut BTreeMap<String, Value>) {
    // The components whose variant would differ: holding a rule in place, or referencing such a component.
    let mut ruled: BTreeSet<String> = schemas
        .iter()
        .filter(|(_, s)| holds_rule(s))
        .map(|(n, _)| n.clone())
        .collect();
    let edges: Vec<(String, BTreeSet<String>)> = schemas
        .iter()
        .map(|(n, s)| {
            let mut r = BTreeSet::new();
            refs(s, &mut r);
            (n.clone(), r)
        })
        .collect();
    loop {
        let before = ruled.len();
        for (n, r) in &edges {
            if !ruled.contains(n) && r.iter().any(|x| ruled.contains(x)) {
                ruled.insert(n.clone());
            }
        }
        if ruled.len() == before {
            break;
        }
    }
    // A variant's references are to variants; a variant that would not differ is its component.
    let target = |n: &str| -> String {
        match n.strip_suffix(UNVALIDATED_SUFFIX) {
            Some(base) if !ruled.contains(base) => base.to_string(),
            _ => n.to_string(),
        }
    };
    let mut wanted: Vec<String> = Vec::new();
    for s in schemas.values_mut() {
        rewrite(s, &target);
        let mut r = BTreeSet::new();
        refs(s, &mut r);
        wanted.extend(r.into_iter().filter(|n| n.ends_with(UNVALIDATED_SUFFIX)));
    }
    let mut done = BTreeSet::new();
    while let Some(v) = wanted.pop() {
        if !done.insert(v.clone()) {
            continue;
        }
        let Some(base) = v.strip_suffix(UNVALIDATED_SUFFIX) else {
            continue;
        };
        let Some(mut s) = schemas.get(base).cloned() else {
            continue;
        };
        strip(&mut s);
        rewrite(&mut s, &|n: &str| {
            if ruled.contains(n) {
                format!("{n}{UNVALIDATED_SUFFIX}")
            } else {
                n.to_string()
            }
        });
        let mut r = BTreeSet::new();
        refs(&s, &mut r);
        wanted.extend(r.into_iter().filter(|n| n.ends_with(UNVALIDATED_SUFFIX)));
        schemas.insert(v, s);
    }
}
