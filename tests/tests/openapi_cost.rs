//! vgc's own CEL cost estimate (`openapi/src/cost.rs`, the `VGC0130` warnings of `vgc openapi`) against the API
//! server's (issue 39): every component schema `vgc openapi` writes for k8s.io/api v0.37.2 (fetched through the Go
//! module proxy), as the `spec` of a CRD, estimated by vgc and by k8s.io/apiextensions-apiserver v0.37.2 in the Go
//! driver `tests/upstream/openapi_cost.go` (built beside `openapi_apiserver.go` in `target/e2e/openapi-cost`): per rule
//! the cost of one run (`cel.Compile`'s `MaxCost`) and the number of runs (the schema context's cardinality, or the
//! compiled rule's from the request limit), and per CRD `ValidateCustomResourceDefinition`'s cost errors.
//!
//! Asserted: vgc's estimate of every rule equals the API server's (cost and cardinality), and the verdicts agree
//! exactly — the same rules over the per-rule budget, the same `messageExpression`s, the same schemas over the
//! per-CRD total and the same rules named as having contributed to it — for the documents as written and with
//! `--bound-lists`/`--bound-strings` at their defaults (the population: every component schema but the list kinds,
//! which `vgc openapi` does not estimate), where the bounds must leave at most a third of the refusals, each one of
//! the unbounded documents' too, and exactly the rules `docs/openapi.md` names as left; with `--over-budget
//! unexpressed` as well, that exactly those rules are taken out and listed under `x-vgc-unexpressed`, and that
//! `ValidateCustomResourceDefinition` gives 0 errors of every class over every schema. The counts are printed
//! (`--nocapture`) and recorded in `docs/openapi.md` ("The cost budget"); `VGC_COST_PRINT=1` also prints every cost
//! error of the API server and every rule over budget (where vgc wrote it, its tag, one run's cost and the runs).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use vgc_tests::harness::{download_module, go_oracle};

const DRIVER: &str = include_str!("../upstream/openapi_apiserver.go");
const COST_DRIVER: &str = include_str!("../upstream/openapi_cost.go");

/// k8s.io/apiextensions-apiserver, the release the driver is built against.
const APIEXTENSIONS: &str = "k8s.io/apiextensions-apiserver v0.37.2";

/// Builds the driver (`openapi_apiserver.go` with `openapi_cost.go`) in `target/e2e/openapi-cost`, once per driver
/// text; its path.
fn driver() -> PathBuf {
    go_oracle(
        "openapi-cost",
        "vgc.test/openapicost",
        APIEXTENSIONS,
        &[("main.go", DRIVER), ("cost.go", COST_DRIVER)],
    )
}

/// Runs the driver; its stdout as JSON.
fn run(bin: &Path, args: &[&str]) -> Value {
    let out = std::process::Command::new(bin)
        .args(args)
        .output()
        .expect("the driver runs");
    assert!(
        out.status.success(),
        "driver {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("driver JSON")
}

/// The verdicts of one population, each a set of (schema, field below `openAPIV3Schema`).
#[derive(Debug, Default, PartialEq, Eq)]
struct Verdicts {
    rules: BTreeSet<(String, String)>,
    messages: BTreeSet<(String, String)>,
    schemas: BTreeSet<String>,
    contributors: BTreeSet<(String, String)>,
    /// vgc's contributors of equal cost beyond the four the API server names (any four of them may be named).
    tied: BTreeSet<(String, String)>,
}

/// The field of an API server error from `openAPIV3Schema` on (`spec.validation.` or `spec.versions[0].schema.`
/// cut off).
fn below_schema(field: &str) -> String {
    field
        .find("openAPIV3Schema")
        .map_or(field, |i| &field[i..])
        .to_string()
}

/// The API server's verdicts from its cost errors (`{"schema", "field", "detail"}`).
fn api_server_verdicts(errors: &[Value]) -> Verdicts {
    let mut v = Verdicts::default();
    for e in errors {
        let schema = e["schema"].as_str().unwrap_or("").to_string();
        let field = below_schema(e["field"].as_str().unwrap_or(""));
        let d = e["detail"].as_str().unwrap_or("");
        if d.starts_with("contributed to") {
            v.contributors.insert((schema, field));
        } else if d.contains("total for entire") {
            v.schemas.insert(schema);
        } else if d.starts_with("estimated messageExpression cost") {
            v.messages.insert((schema, field));
        } else if d.starts_with("estimated rule cost") {
            v.rules.insert((schema, field));
        } else {
            panic!("not a cost error: {e}");
        }
    }
    v
}

/// vgc's verdicts over `costs` (by schema name).
fn vgc_verdicts<'a>(
    costs: impl IntoIterator<Item = (&'a String, &'a vgc_openapi::cost::SchemaCost)>,
) -> Verdicts {
    let mut v = Verdicts::default();
    for (name, c) in costs {
        for r in &c.rules {
            if r.over_budget() {
                v.rules.insert((name.clone(), r.field.clone()));
            }
            if r.message_over_budget() {
                v.messages
                    .insert((name.clone(), r.field.replace(".rule", ".messageExpression")));
            }
        }
        if c.over_budget() {
            v.schemas.insert(name.clone());
            let least = c.contributors.last().map_or(0, |x| x.1);
            // More than four: the ones costing as much as the fourth are tied for the last places.
            let ties = c.contributors.len() > 4;
            for (f, cost) in &c.contributors {
                if ties && *cost == least {
                    v.tied.insert((name.clone(), f.clone()));
                } else {
                    v.contributors.insert((name.clone(), f.clone()));
                }
            }
        }
    }
    v
}

fn sym_diff<T: Ord + Clone + std::fmt::Debug>(
    what: &str,
    a: &BTreeSet<T>,
    b: &BTreeSet<T>,
) -> Vec<String> {
    a.difference(b)
        .map(|x| format!("{what}: API server only: {x:?}"))
        .chain(b.difference(a).map(|x| format!("{what}: vgc only: {x:?}")))
        .collect()
}

/// Compares verdicts; the differences, described.
fn differences(api: &Verdicts, ours: &Verdicts) -> Vec<String> {
    let mut out = sym_diff("rule over budget", &api.rules, &ours.rules);
    out.extend(sym_diff(
        "messageExpression over budget",
        &api.messages,
        &ours.messages,
    ));
    out.extend(sym_diff(
        "schema over the total",
        &api.schemas,
        &ours.schemas,
    ));
    // Every contributor vgc names for sure is named by the API server; the others it names are of vgc's tied
    // ones, as many as the API server names four.
    out.extend(
        ours.contributors
            .difference(&api.contributors)
            .map(|x| format!("contributor: vgc only: {x:?}")),
    );
    out.extend(
        api.contributors
            .iter()
            .filter(|x| !ours.contributors.contains(*x) && !ours.tied.contains(*x))
            .map(|x| format!("contributor: API server only: {x:?}")),
    );
    for s in &api.schemas {
        let named = |set: &BTreeSet<(String, String)>| set.iter().filter(|x| &x.0 == s).count();
        let theirs = named(&api.contributors);
        let sure = named(&ours.contributors);
        let expect = (sure + named(&ours.tied)).min(4);
        if theirs != expect {
            out.push(format!(
                "contributors of {s}: the API server names {theirs}, vgc {expect}"
            ));
        }
    }
    out
}

/// What one population's comparison found.
struct Compared {
    /// The API server's verdicts.
    api: Verdicts,
    /// The API server's cost errors of every class, counted.
    errors: usize,
    /// The bounds `vgc openapi` set.
    bounds: Vec<vgc_driver::openapi::Bound>,
    /// The `VGC0130` warnings `vgc openapi` printed.
    warnings: usize,
    /// Each rule over the per-rule budget or with a `messageExpression` over it, by where vgc wrote it (the
    /// component and property, `RuleCost::origin`) and its tag, with the most one run costs and the most runs.
    over: BTreeMap<(String, String), (u64, u64)>,
    /// The rules `--over-budget unexpressed` took out.
    taken: Vec<vgc_driver::openapi::TakenOut>,
    /// With `--over-budget unexpressed`: every error of `ValidateCustomResourceDefinition` (the driver's `check`:
    /// structure, list metadata, CEL compilation, cost) over the same CRDs.
    check_errors: Vec<Value>,
    /// The `x-vgc-unexpressed` entries naming the cost budget, by component, path, tag and CEL text, each with the
    /// number of documents listing it.
    listed: BTreeMap<(String, String, String, String), usize>,
}

/// Writes `vgc openapi`'s documents of k8s.io/api v0.37.2 with `bounds`, estimates every component schema as a CRD's
/// `spec` by vgc and by the API server, and asserts that every rule's estimate (one run's cost, runs, message) and
/// every verdict is the same on both sides; the verdicts.
fn compare(
    bounds: vgc_driver::openapi::Bounds,
    over_budget: vgc_driver::openapi::OverBudget,
) -> Compared {
    let tmp = tempfile::tempdir().expect("tempdir");
    let docs = tmp.path().join("openapi");
    let (api, _) = download_module("k8s.io/api@v0.37.2", tmp.path());
    let req = vgc_driver::openapi::OpenApiRequest {
        build: vgc_driver::BuildRequest::check(api, Vec::new()),
        out: docs.clone(),
        merge: None,
        options: vgc_driver::openapi::Options {
            bounds,
            over_budget,
            ..vgc_driver::openapi::Options::default()
        },
        force: true,
        no_cache: true,
        cache_dir: None,
    };
    let o = vgc_driver::openapi::openapi(&req);
    assert_eq!(o.build.errors(), 0, "{:?}", o.build.diagnostics);
    let out = o.output.as_ref().expect("output");
    // The population: every component schema but the list kinds (`ConfigMapList`: no CRD embeds one) and what only
    // they brought into a document (`vgc openapi` estimates none of them), also in the documents the API server's
    // side reads.
    assert!(out.lists.len() > 100, "{}", out.lists.len());
    for d in &out.documents {
        let mut json = d.json.clone();
        if let Some(Value::Object(c)) = json.pointer_mut("/components/schemas") {
            c.retain(|n, _| {
                !out.list_additions
                    .iter()
                    .any(|(f, a)| f == &d.file && a == n)
            });
        }
        std::fs::write(docs.join(&d.file), json.to_string()).expect("document written");
    }
    let names = vgc_openapi::lists::schemas_without_lists(out);
    let start = std::time::Instant::now();
    let ours = vgc_openapi::cost::components(&out.schemas, &names);
    let took = start.elapsed();
    let report = run(&driver(), &["costs", docs.to_str().expect("utf-8 path")]);

    // Per rule: the same cost of one run and the same number of runs.
    let ours_by_field: BTreeMap<(&str, &str), &vgc_openapi::cost::RuleCost> = ours
        .iter()
        .flat_map(|(n, c)| {
            c.rules
                .iter()
                .map(move |r| ((n.as_str(), r.field.as_str()), r))
        })
        .collect();
    let theirs = report["rules"].as_array().expect("rules");
    let mut same = 0usize;
    let mut differ: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in theirs {
        let key = (
            t["schema"].as_str().unwrap_or(""),
            t["field"].as_str().unwrap_or(""),
        );
        let Some(r) = ours_by_field.get(&key) else {
            differ
                .entry("rule vgc does not see".into())
                .or_default()
                .push(format!("{key:?}"));
            continue;
        };
        let cost = t["maxCost"].as_u64();
        let card = t["cardinality"].as_u64();
        let msg = t.get("messageCost").and_then(Value::as_u64);
        let ours_msg = r.message_cost.clone().map(|m| m.ok());
        if r.per_call.as_ref().ok().copied() == cost
            && Some(r.cardinality) == card
            && ours_msg.flatten() == msg
        {
            same += 1;
        } else {
            let class = match &r.per_call {
                Err(e) => format!("not estimated: {e}"),
                Ok(c) if Some(*c) != cost => {
                    format!("cost of one run ({})", r.tag.as_deref().unwrap_or("?"))
                }
                Ok(_) if Some(r.cardinality) != card => "cardinality".into(),
                Ok(_) => "messageExpression".into(),
            };
            differ.entry(class).or_default().push(format!(
                "{key:?} {}: vgc {:?}×{} msg {ours_msg:?}, API server {cost:?}×{card:?} msg {msg:?}",
                r.rule, r.per_call, r.cardinality
            ));
        }
    }
    let total_ours: usize = ours.values().map(|c| c.rules.len()).sum();
    eprintln!(
        "bounds {bounds:?}: {} set; {} schemas, {} rules (vgc sees {total_ours}, estimated in {:.2}s): {same} estimated exactly as the API server estimates them",
        out.bounds.len(),
        ours.len(),
        theirs.len(),
        took.as_secs_f64()
    );
    for (class, cases) in &differ {
        eprintln!("differ, {class}: {} (first: {})", cases.len(), cases[0]);
    }

    // The verdicts.
    let errors = report["errors"].as_array().expect("errors");
    let api = api_server_verdicts(errors);
    if std::env::var_os("VGC_COST_PRINT").is_some() {
        for e in errors {
            eprintln!("cost error: {} {} {}", e["schema"], e["field"], e["detail"]);
        }
    }
    let mine = vgc_verdicts(&ours);
    eprintln!(
        "API server: {} cost errors: {} rules over the per-rule budget, {} messageExpressions, {} schemas over the per-CRD total, {} contributors named; vgc: {}, {}, {}, {} contributors sure and {} tied for the last of the four places; {} VGC0130 warnings",
        errors.len(),
        api.rules.len(),
        api.messages.len(),
        api.schemas.len(),
        api.contributors.len(),
        mine.rules.len(),
        mine.messages.len(),
        mine.schemas.len(),
        mine.contributors.len(),
        mine.tied.len(),
        o.cost.len()
    );
    let d = differences(&api, &mine);
    assert!(
        d.is_empty(),
        "{} verdicts differ: {:#?}",
        d.len(),
        &d[..d.len().min(30)]
    );
    assert_eq!(theirs.len(), total_ours);
    assert!(
        differ.is_empty(),
        "{:#?}",
        differ
            .iter()
            .map(|(k, v)| (k, v.len(), &v[0]))
            .collect::<Vec<_>>()
    );
    assert!(theirs.len() > 3_900, "{}", theirs.len());
    let mut over: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    for r in ours.values().flat_map(|c| &c.rules) {
        if r.over_budget() || r.message_over_budget() {
            let key = (
                r.origin.clone().unwrap_or_default(),
                r.tag.clone().unwrap_or_default(),
            );
            let e = over.entry(key).or_default();
            e.0 = e.0.max(r.per_call.clone().unwrap_or(u64::MAX));
            e.1 = e.1.max(r.cardinality);
        }
    }
    if std::env::var_os("VGC_COST_PRINT").is_some() {
        for ((origin, tag), (run, runs)) in &over {
            eprintln!("over budget: {origin} {tag}: {run} a run, up to {runs} runs");
        }
    }
    let check_errors = if over_budget == vgc_driver::openapi::OverBudget::Unexpressed {
        let report = run(&driver(), &["check", docs.to_str().expect("utf-8 path")]);
        report["errors"].as_array().cloned().unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut listed = BTreeMap::new();
    for d in &out.documents {
        if let Some(Value::Object(c)) = d.json.pointer("/components/schemas") {
            for (n, s) in c {
                budget_listings(s, n, &mut listed);
            }
        }
    }
    Compared {
        api,
        errors: errors.len(),
        bounds: out.bounds.clone(),
        warnings: o.cost.len(),
        over,
        taken: out.over_budget.clone(),
        check_errors,
        listed,
    }
}

/// The `x-vgc-unexpressed` entries of `v` (component `schema`) that name the CEL cost budget, counted into `out` by
/// (component, path, tag, CEL text).
fn budget_listings(
    v: &Value,
    schema: &str,
    out: &mut BTreeMap<(String, String, String, String), usize>,
) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(a)) = m.get(vgc_openapi::UNEXPRESSED_KEY) {
                for e in a {
                    if e["reason"]
                        .as_str()
                        .is_some_and(|r| r.starts_with("over the API server's CEL cost budget"))
                    {
                        let f = |k: &str| e[k].as_str().unwrap_or_default().to_string();
                        *out.entry((schema.to_string(), f("path"), f("rule"), f("cel")))
                            .or_default() += 1;
                    }
                }
            }
            for x in m.values() {
                budget_listings(x, schema, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| budget_listings(x, schema, out)),
        _ => {}
    }
}

#[test]
fn vgc_estimates_the_cost_of_every_k8s_api_rule_as_the_api_server_does() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let c = compare(
        vgc_driver::openapi::Bounds::default(),
        vgc_driver::openapi::OverBudget::Keep,
    );
    assert!(c.bounds.is_empty(), "no bound without the flags");
    assert!(
        c.errors > 0 && c.warnings > 0,
        "k8s.io/api's rules are over budget without bounds"
    );
}

/// `--bound-lists` and `--bound-strings` with their defaults (128 and 4096, `cli/src/args.rs`): the same estimate
/// of every rule on both sides (in `compare`), and far fewer refusals. What remains (docs/openapi.md "The cost
/// budget", "What they leave") is over budget with every list, map and string it reads bounded — by k8s.io/api's own
/// `maxItems` products or by a rule no cheaper CEL says with the same verdicts — so only a bound below what upstream
/// accepts (refusing real objects) would remove it; the test asserts exactly those rules.
#[test]
fn the_bounds_bring_most_k8s_api_rules_within_the_api_servers_budget() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let without = compare(
        vgc_driver::openapi::Bounds::default(),
        vgc_driver::openapi::OverBudget::Keep,
    );
    let with = compare(BOUNDS, vgc_driver::openapi::OverBudget::Keep);
    let lists = with
        .bounds
        .iter()
        .filter(|b| b.keyword != "maxLength")
        .count();
    eprintln!(
        "with the bounds ({lists} lists and maps, {} strings bounded): {} API server cost errors ({} rules, {} messageExpressions, {} schemas), {} VGC0130 warnings; without: {} ({}, {}, {}), {} warnings",
        with.bounds.len() - lists,
        with.errors,
        with.api.rules.len(),
        with.api.messages.len(),
        with.api.schemas.len(),
        with.warnings,
        without.errors,
        without.api.rules.len(),
        without.api.messages.len(),
        without.api.schemas.len(),
        without.warnings
    );
    assert!(lists > 50 && with.bounds.len() > lists, "{:?}", with.bounds);
    // Every refusal left was one without the bounds (a bound never makes a rule dearer)…
    assert!(with.api.rules.is_subset(&without.api.rules));
    assert!(with.api.schemas.is_subset(&without.api.schemas));
    // …and at least two in three went.
    assert!(
        with.api.rules.len() * 3 <= without.api.rules.len(),
        "{} of {}",
        with.api.rules.len(),
        without.api.rules.len()
    );
    assert!(with.api.schemas.len() * 3 <= without.api.schemas.len());
    // The two `messageExpression`s (`string(oldSelf)` of an integer) have no bound to take.
    assert_eq!(with.api.messages, without.api.messages);
    assert!(with.warnings * 3 <= without.warnings);
    // What the bounds leave, exactly (docs/openapi.md "What they leave"): each over budget with every list, map and
    // string it reads bounded — by k8s.io/api's own `maxItems` multiplied through nested lists, or by a rule no
    // cheaper CEL says (quadratic uniqueness, `NoAddItem`/`NoRemoveItem` over a list-map, an integer's text in a
    // message) — with the most one run costs and the most runs.
    let expected = left_over_budget();
    let left: Vec<((String, String), (u64, u64))> = with.over.clone().into_iter().collect();
    assert_eq!(left, expected);
}

/// `--bound-lists` and `--bound-strings` at their defaults (`cli/src/args.rs`).
const BOUNDS: vgc_driver::openapi::Bounds = vgc_driver::openapi::Bounds {
    lists: Some(128),
    strings: Some(4096),
};

/// What the bounds leave over budget (docs/openapi.md "What they leave"): each over budget with every list, map and
/// string it reads bounded — by k8s.io/api's own `maxItems` multiplied through nested lists, or by a rule no cheaper
/// CEL says (quadratic uniqueness, `NoAddItem`/`NoRemoveItem` over a list-map, an integer's text in a message) — by
/// where vgc wrote it and its tag, with the most one run costs and the most runs; sorted.
fn left_over_budget() -> Vec<((String, String), (u64, u64))> {
    let mut expected: Vec<((String, String), (u64, u64))> = Vec::new();
    let mut add = |origin: String, tag: &str, run: u64, runs: u64| {
        expected.push(((origin, tag.to_string()), (run, runs)));
    };
    for t in ["EvictionRequestStatus", "EvictionStatus"] {
        add(
            format!("io.k8s.api.lifecycle.v1alpha1.{t}.observedGeneration"),
            "k8s:monotonic",
            3,
            1,
        );
    }
    for v in ["v1", "v1beta1", "v1beta2"] {
        let r = |t: &str| format!("io.k8s.api.resource.{v}.{t}");
        add(
            r("DeviceAttribute.x-vgc-uncorrelated.strings[*]"),
            "k8s:maxBytes",
            32,
            2_097_152,
        );
        add(
            r("DeviceDerivedAttribute.x-vgc-uncorrelated.name"),
            "k8s:format",
            32_784,
            8_192,
        );
        add(
            r("DeviceToleration.x-vgc-uncorrelated.key"),
            "k8s:format",
            4_069,
            32_768,
        );
        add(
            r("ResourceClaimStatus.devices"),
            "k8s:listType",
            81_429_250,
            1,
        );
    }
    for v in ["v1alpha3", "v1beta1"] {
        add(
            format!("io.k8s.api.scheduling.{v}.CompositePodGroupTemplate"),
            "k8s:update",
            20_133_565,
            8,
        );
    }
    expected.sort();
    expected
}

/// `--over-budget unexpressed` with the bounds: the rules the bounds leave over budget (16 places, 18 CEL rules:
/// `CompositePodGroupTemplate`'s `k8s:update` is two) are taken out — no schema needs more for the per-CRD total —
/// each listed under `x-vgc-unexpressed` at its place in every document holding its component, and every component
/// schema (the list kinds left out) passes the API server's `ValidateCustomResourceDefinition` with 0 errors of every
/// class (structure, list metadata, CEL compilation, cost).
#[test]
fn over_budget_unexpressed_leaves_documents_the_api_server_accepts() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    use vgc_driver::openapi::Why;
    let c = compare(BOUNDS, vgc_driver::openapi::OverBudget::Unexpressed);
    eprintln!(
        "--over-budget unexpressed with the bounds: {} rules taken out ({} per rule, {} messageExpressions, {} for a total); ValidateCustomResourceDefinition: {} errors ({} cost); {} VGC0130 warnings",
        c.taken.len(),
        c.taken.iter().filter(|t| t.why == Why::Rule).count(),
        c.taken.iter().filter(|t| t.why == Why::Message).count(),
        c.taken.iter().filter(|t| t.why == Why::Total).count(),
        c.check_errors.len(),
        c.errors,
        c.warnings
    );
    assert!(
        c.check_errors.is_empty(),
        "{} errors, first: {:#?}",
        c.check_errors.len(),
        &c.check_errors[..c.check_errors.len().min(20)]
    );
    assert_eq!(c.errors, 0);
    assert!(c.over.is_empty(), "{:?}", c.over);
    // Taken out: exactly the places the bounds leave, each for its own cost (none for a total).
    let places: BTreeSet<(String, String)> = c
        .taken
        .iter()
        .map(|t| (format!("{}{}", t.schema, t.path), t.tag.clone()))
        .collect();
    let expected: BTreeSet<(String, String)> =
        left_over_budget().into_iter().map(|(k, _)| k).collect();
    assert_eq!(places, expected);
    assert_eq!(c.taken.len(), 18);
    let whys: Vec<Why> = c.taken.iter().map(|t| t.why).collect();
    assert_eq!(whys.iter().filter(|w| **w == Why::Message).count(), 2);
    assert_eq!(whys.iter().filter(|w| **w == Why::Rule).count(), 16);
    // Each listed, nothing else listed for the budget, and one VGC0130 warning each.
    let listed: BTreeSet<(String, String, String, String)> = c.listed.keys().cloned().collect();
    let taken: BTreeSet<(String, String, String, String)> = c
        .taken
        .iter()
        .map(|t| {
            (
                t.schema.clone(),
                t.path.clone(),
                t.tag.clone(),
                t.rule.clone(),
            )
        })
        .collect();
    assert_eq!(listed, taken);
    assert_eq!(c.warnings, 18);
}
