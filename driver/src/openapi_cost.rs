//! The `VGC0130` warnings of `vgc openapi` and `vgc openapi --crd` (issue 39, `docs/openapi.md` "The cost budget"):
//! the rules vgc wrote that the API server's CEL cost estimate refuses, from vgc's own estimate
//! ([`vgc_openapi::cost`], which agrees with k8s.io/apiextensions-apiserver v0.37.2's on every rule of k8s.io/api:
//! `tests/tests/openapi_cost.rs`).
//!
//! `vgc openapi` estimates each component schema of its documents as the `spec` of a CRD (as a CRD embedding the
//! type would have it); a rule shared by many schemas (a `PodSpec` rule in every schema holding a pod template) is
//! one warning, at the schema costing it most, with the count of the others. Each schema whose rules together are
//! over the per-CRD total is one warning. `--crd` estimates each version's schema as written: there a warning means
//! the API server refuses the CRD.

use std::collections::BTreeMap;
use vgc_ir::{Code, Diagnostic};
use vgc_openapi::cost::{CRD_BUDGET, RULE_BUDGET, RuleCost, SchemaCost, factor_words};
use vgc_openapi::over_budget::{TakenOut, Why};

/// A number with thousands separators (`52,428,800`); "unbounded (saturated)" at `u64::MAX`.
fn num(n: u64) -> String {
    if n == u64::MAX {
        return "unbounded (saturated)".into();
    }
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "the CEL rule of `k8s:format=k8s-label-key` at io.k8s.api.core.v1.Toleration.key" (the rule's text where it has
/// no tag; the schema and path where vgc's place of it is unknown).
fn rule_words(r: &RuleCost, schema: &str) -> String {
    let tag = r.tag.as_deref().unwrap_or(&r.rule);
    let at = r
        .origin
        .clone()
        .unwrap_or_else(|| format!("{schema} {}", r.path));
    // A component's variant for its uses below a list that is not a list-map carries its rules without `oldSelf`.
    let variant = at.contains(vgc_openapi::UNCORRELATED_SUFFIX);
    format!(
        "the CEL rule of `{tag}` at {}{}",
        at.replace(vgc_openapi::UNCORRELATED_SUFFIX, ""),
        if variant {
            " (its form without the old value, below a list that is not a list-map)"
        } else {
            ""
        }
    )
}

/// How the estimate came about: "836 a run × 1,048,576 runs".
fn how(r: &RuleCost) -> String {
    match &r.per_call {
        Err(e) => format!("not estimated ({e}): counted as over"),
        Ok(c) => format!(
            "{} a run × {} run{}{}",
            num(*c),
            num(r.cardinality),
            if r.cardinality == 1 { "" } else { "s" },
            if r.bounded_cardinality.is_none() {
                ", the 3 MiB request limit over the least size of a value here"
            } else {
                ""
            }
        ),
    }
}

/// The hint of a rule over budget: the unbounded lists and maps above it, its own node's missing bound, and what
/// bounds them.
fn hint(r: &RuleCost, crd: bool) -> String {
    let mut parts = Vec::new();
    if !r.unbounded_above.is_empty() {
        parts.push(format!(
            "the estimate sizes {} above it (no `maxItems`/`maxProperties`) by the request limit: {}",
            r.unbounded_above
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if crd {
                "`--bound-lists N` sets `maxItems`/`maxProperties` N on each (a longer list is then refused), or give the Go fields `+k8s:maxItems`"
            } else {
                "`--bound-lists [N]` sets `maxItems`/`maxProperties` on each list or map holding a rule (a longer one is then refused), or give the Go fields `+k8s:maxItems`"
            }
        ));
    }
    match r.unbounded_node {
        Some("maxLength") => parts.push(
            "the value it checks has no `maxLength` and is sized by the request limit: `+k8s:maxLength` on the field (or `--bound-strings [N]`) bounds a run's cost".into(),
        ),
        Some(k) => parts.push(format!(
            "it iterates over `{}`, which has no `{k}` and is sized by the request limit: `+k8s:maxItems` on the field (or `--bound-lists [N]`) bounds a run's cost",
            r.path,
        )),
        None => {}
    }
    if parts.is_empty() {
        format!(
            "every list, map and string it reads is bounded: the cost is the rule's own ({})",
            r.rule
        )
    } else {
        parts.join("; ")
    }
}

/// The warnings of `vgc openapi` over `costs` (by schema name, [`vgc_openapi::cost::components`]): one per rule (by
/// where vgc wrote it) over the per-rule budget in some schema, one per `messageExpression` over it, one per schema
/// over the per-CRD total; sorted by message.
#[must_use]
pub fn component_warnings(costs: &BTreeMap<String, SchemaCost>) -> Vec<Diagnostic> {
    // Per place vgc wrote the rule: (the schema costing it most, its estimate there, how many schemas refuse it).
    let mut rules: BTreeMap<(String, bool), (&str, &RuleCost, usize)> = BTreeMap::new();
    for (schema, c) in costs {
        for r in &c.rules {
            let place = r
                .origin
                .clone()
                .unwrap_or_else(|| format!("{schema}{}", r.path));
            for (message, over) in [(false, r.over_budget()), (true, r.message_over_budget())] {
                if !over {
                    continue;
                }
                let e = rules
                    .entry((format!("{place}#{}", r.rule), message))
                    .or_insert((schema, r, 0));
                e.2 += 1;
                if r.cost > e.1.cost {
                    e.0 = schema;
                    e.1 = r;
                }
            }
        }
    }
    let mut out: Vec<Diagnostic> = rules
        .into_iter()
        .map(|((_, message), (schema, r, n))| rule_warning(schema, r, n, false, message))
        .collect();
    for (schema, c) in costs {
        if c.over_budget() {
            out.push(schema_warning(schema, c, false));
        }
    }
    out.sort_by(|a, b| a.message.cmp(&b.message));
    out.dedup_by(|a, b| a.message == b.message);
    out
}

/// One rule's warning: over the per-rule budget, or (`message_over`) its `messageExpression` over it; `schemas`: how
/// many schemas' CRDs refuse it.
fn rule_warning(
    schema: &str,
    r: &RuleCost,
    schemas: usize,
    crd: bool,
    message_over: bool,
) -> Diagnostic {
    let where_ = if crd {
        format!("in {schema}")
    } else {
        format!(
            "with {schema} as a CRD's spec{}",
            if schemas > 1 {
                format!(" (and in {} other schemas' CRDs)", schemas - 1)
            } else {
                String::new()
            }
        )
    };
    let refused = if crd {
        ": the API server refuses this CRD"
    } else {
        ""
    };
    let msg = if message_over {
        let c = r
            .message_cost
            .clone()
            .and_then(Result::ok)
            .unwrap_or(u64::MAX);
        format!(
            "the messageExpression of {} costs up to {} a run {where_}: over the API server's budget of {} by a factor of {}{refused}",
            rule_words(r, schema),
            num(c),
            num(RULE_BUDGET),
            factor_words(c, RULE_BUDGET)
        )
    } else {
        format!(
            "{} costs up to {} ({}) {where_}: over the API server's per-rule budget of {} by a factor of {}{refused}",
            rule_words(r, schema),
            num(r.cost),
            how(r),
            num(RULE_BUDGET),
            factor_words(r.cost, RULE_BUDGET)
        )
    };
    let hint = if message_over {
        "a messageExpression's cost is not multiplied by the runs; one of unknown size (`string(oldSelf)` of a value without `maxLength`) is sized without bound".to_string()
    } else {
        hint(r, crd)
    };
    Diagnostic::warning(Code::CelCostOverBudget, msg).with_hint(hint)
}

/// One schema's warning: its rules together over the per-CRD total.
fn schema_warning(schema: &str, c: &SchemaCost, crd: bool) -> Diagnostic {
    // The costliest first, as the API server names them (a messageExpression named by its rule).
    let mut most: Vec<String> = Vec::new();
    for (f, cost) in &c.contributors {
        let rule_field = f.replace(".messageExpression", ".rule");
        let Some(r) = c.rules.iter().find(|r| r.field == rule_field) else {
            continue;
        };
        let words = format!(
            "`{}` at {} ({}{})",
            r.tag.as_deref().unwrap_or(&r.rule),
            r.origin.as_deref().map_or_else(
                || r.path.clone(),
                |o| o.replace(vgc_openapi::UNCORRELATED_SUFFIX, "")
            ),
            num(*cost),
            if f.ends_with(".messageExpression") {
                ", its messageExpression"
            } else {
                ""
            }
        );
        if !most.contains(&words) && most.len() < 4 {
            most.push(words);
        }
    }
    let msg = format!(
        "the CEL rules of {schema}{} cost up to {} together: over the API server's per-CRD total of {} by a factor of {}{}",
        if crd { "" } else { " as a CRD's spec" },
        num(c.total),
        num(CRD_BUDGET),
        factor_words(c.total, CRD_BUDGET),
        if crd {
            ": the API server refuses this CRD"
        } else {
            ""
        }
    );
    Diagnostic::warning(Code::CelCostOverBudget, msg).with_hint(format!(
        "the most expensive: {}; bounding the lists above them lowers the total",
        if most.is_empty() {
            "(none over 1 % of the total alone)".to_string()
        } else {
            most.join("; ")
        }
    ))
}

/// The warnings of `vgc openapi --crd` for one version's schema (`name`: `crd/version`), estimated as written
/// ([`vgc_openapi::cost::crd_schema`]): each rule and `messageExpression` over the per-rule budget, and the schema
/// when over the per-CRD total — each refused by the API server.
#[must_use]
pub fn crd_warnings(name: &str, c: &SchemaCost) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in &c.rules {
        if r.over_budget() {
            out.push(rule_warning(name, r, 1, true, false));
        }
        if r.message_over_budget() {
            out.push(rule_warning(name, r, 1, true, true));
        }
    }
    if c.over_budget() {
        out.push(schema_warning(name, c, true));
    }
    out
}

/// The warnings of `vgc openapi --over-budget unexpressed` for the rules it took out
/// ([`vgc_openapi::over_budget::take_out`]): one per rule, saying its estimate, the budget and "not written: over
/// budget", with where it is listed (`x-vgc-unexpressed`; with `--crd`, `crd`, only in the warning: a CRD has no
/// `x-vgc-*` key) and that the API server does not enforce it.
#[must_use]
pub fn taken_out_warnings(taken: &[TakenOut], crd: bool) -> Vec<Diagnostic> {
    taken
        .iter()
        .map(|t| {
            let at = if t.path.is_empty() {
                t.schema.clone()
            } else {
                format!("{}{}", t.schema, t.path)
            };
            let in_ = if crd {
                format!("in {}", t.estimated_in)
            } else {
                format!("with {} as a CRD's spec", t.estimated_in)
            };
            let what = match t.why {
                Why::Rule => format!(
                    "costs up to {} ({}) {in_}: over the API server's per-rule budget of {} by a factor of {}",
                    num(t.cost),
                    how(&t.estimate),
                    num(RULE_BUDGET),
                    factor_words(t.cost, RULE_BUDGET)
                ),
                Why::Message => format!(
                    "has a messageExpression costing up to {} a run {in_}: over the API server's budget of {} by a factor of {} (a static message would lose its detail's dynamic part)",
                    num(t.cost),
                    num(RULE_BUDGET),
                    factor_words(t.cost, RULE_BUDGET)
                ),
                Why::Total => format!(
                    "costs up to {} {in_}, the costliest of its rules, which cost {} together: over the API server's per-CRD total of {}",
                    num(t.cost),
                    num(t.budget),
                    num(CRD_BUDGET)
                ),
            };
            Diagnostic::warning(
                Code::CelCostOverBudget,
                format!(
                    "the CEL rule of `{}` at {} {what}; not written: over budget (--over-budget unexpressed)",
                    t.tag,
                    at.replace(vgc_openapi::UNCORRELATED_SUFFIX, ""),
                ),
            )
            .with_hint(if crd {
                "taken out of the CRD, which cannot list it (a CRD has no `x-vgc-*` key): the API server does not enforce it".to_string()
            } else {
                format!(
                    "listed under `x-vgc-unexpressed` of {at}: the API server does not enforce it, a validator reading `x-vgc-unexpressed` can; taken out of {}, so out of every schema that includes it",
                    t.schema
                )
            })
        })
        .collect()
}
