//! `vgc validate`'s port of the API server's hand-written defaulting (`vgc_validate::SERVER_DEFAULTS`) against the
//! Go defaulters of the release, and the list of what must be ported, found from the sources.
//!
//! Per release pair — k8s.io/kubernetes v1.37.2 with k8s.io/api v0.37.2, and v1.38.0-beta.0 with v0.38.0-beta.0
//! (`GOTOOLCHAIN=auto` fetches go1.27.0 for it) — a scratch Go module holds copies of the release's defaulters
//! (`vgc_tests::kubernetes_defaulters`: every `defaults.go` and `zz_generated.defaults.go`, and what they need).
//!
//! 1. **What to port.** `tests/upstream/server_defaults_fields.go` type-checks the copies (golang.org/x/tools
//!    go/packages, at the release's version) and lists every field each `SetDefaults_*` function, or a function it
//!    calls, sets; `vgc_tests::server_defaults::fields_read` lists the fields the declarative rules of the
//!    release's k8s.io/api plan read. Their intersection, with the function setting each, must equal the rows of
//!    `SERVER_DEFAULTS` for the release, field for field. Calls out of the copied packages that are handed an API
//!    object must be among the reviewed read-only ones, and no field may be set through a function value or a bare
//!    pointer (the finder could not attribute it).
//! 2. **Oracle.** The driver (`tests/upstream/server_defaults_oracle.go`) registers the kinds' k8s.io/api types and
//!    every copied group/version's `RegisterDefaults` in a `runtime.Scheme`, and fills `VGC_SERVER_DEFAULTS_CASES`
//!    objects (default 3,000, seed `VGC_SERVER_DEFAULTS_SEED`, default 1) with sigs.k8s.io/randfill from the Go types,
//!    round robin over every kind whose type reaches a ported row's type. vgc defaults each
//!    (`Interpreter::apply_defaults`, with the release's feature-gate defaults from `vgc::release`); the driver runs
//!    `scheme.Default` (the release's `SetObjectDefaults_<Kind>`) on the same input and compares, at every path where
//!    a ported field occurs, the value after Go's defaulting with vgc's: 0 differences, and every ported field must
//!    have been changed by Go's defaulting somewhere in the population. When a row depends on a feature gate, the
//!    population is compared again with those gates on, on both sides.
//! 3. **Manifests.** Every manifest under k8s.io/kubernetes v1.37.2's `test/` and `cluster/`, validated against the
//!    release's k8s.io/api with its feature-gate defaults and every level enforced (`--enforce alpha`), with and
//!    without the hand-written defaults: nothing is reported with them that is not without them, and for 1.38
//!    exactly the 52 `restartPolicy: Unsupported value: ""` errors of the alpha `eq="Always"` rule go away (46 under
//!    `test/`, 6 under `cluster/`).

use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use vgc_ir::Upstream;
use vgc_tests::differential::env_or;
use vgc_tests::harness::download_module;
use vgc_tests::kubernetes_defaulters::{self, MODULE};
use vgc_validate::{Interpreter, SERVER_DEFAULTS, ServerDefault};

const FIELDS: &str = include_str!("../upstream/server_defaults_fields.go");
const DRIVER: &str = include_str!("../upstream/server_defaults_oracle.go");
/// The release of the test manifests (`test/` of k8s.io/kubernetes), whatever release validates them.
const MANIFESTS: &str = "k8s.io/kubernetes@v1.37.2";

/// Calls out of the copied packages that are handed an API object, reviewed: none changes it.
const REVIEWED_CALLS: &[(&str, &str)] = &[
    (
        "k8s.io/component-helpers/resource.AggregateContainerRequests",
        "sums the containers' requests into a new list (SetDefaults_Pod's pod-level resources)",
    ),
    (
        "k8s.io/component-helpers/resource.AggregateContainerLimits",
        "sums the containers' limits into a new list",
    ),
    (
        "k8s.io/utils/ptr.AllPtrFieldsNil",
        "reads whether every pointer field of a struct is nil",
    ),
];

/// One release pair.
struct Release {
    kubernetes: &'static str,
    api: &'static str,
    profile: Upstream,
}

/// A field: (package, struct, Go field name).
type Field = (String, String, String);

/// The rows of `SERVER_DEFAULTS` for `profile`.
fn rows(profile: Upstream) -> Vec<&'static ServerDefault> {
    SERVER_DEFAULTS
        .iter()
        .filter(|r| r.releases.contains(&profile))
        .collect()
}

/// Step 1: the fields a hand-written default sets and a rule reads, each with the functions setting it
/// (`pkg/apis/core/v1 SetDefaults_PodSpec`), from the field finder's output `found` and the plan.
fn to_port(found: &Value, plan: &vgc_lowering::CratePlan) -> BTreeMap<Field, BTreeSet<String>> {
    let read: BTreeSet<Field> = vgc_tests::server_defaults::fields_read(plan)
        .into_iter()
        .map(|(k, f)| (k.pkg, k.name, f))
        .collect();
    let prefix = format!("{MODULE}/kubernetes/");
    let mut out: BTreeMap<Field, BTreeSet<String>> = BTreeMap::new();
    let mut calls = BTreeSet::new();
    let mut indirect = BTreeSet::new();
    for root in found.as_array().expect("the finder's list") {
        let function = root["function"].as_str().expect("function");
        let function = function.strip_prefix(&prefix).unwrap_or(function);
        let (pkg, name) = function.rsplit_once('.').expect("package.function");
        for s in root["sets"].as_array().expect("sets") {
            let field: Field = (
                s["pkg"].as_str().expect("pkg").to_string(),
                s["type"].as_str().expect("type").to_string(),
                s["field"].as_str().expect("field").to_string(),
            );
            if read.contains(&field) {
                out.entry(field)
                    .or_default()
                    .insert(format!("{pkg} {name}"));
            }
        }
        let strings = |k: &str| -> Vec<String> {
            root[k]
                .as_array()
                .expect(k)
                .iter()
                .map(|v| v.as_str().expect("a string").to_string())
                .collect()
        };
        calls.extend(strings("external"));
        indirect.extend(strings("indirect"));
    }
    for c in &calls {
        assert!(
            REVIEWED_CALLS.iter().any(|(r, _)| *r == c),
            "a defaulting function hands an API object to {c}, which this test has not reviewed: read it, and add \
             it to REVIEWED_CALLS if it changes nothing (else the field finder must follow it)"
        );
    }
    assert!(
        indirect.is_empty(),
        "fields set where the finder cannot tell which: {indirect:?}"
    );
    out
}

/// The kinds of `api` whose type reaches (through fields, pointers, lists and maps) a type of `types`, as
/// `<apiVersion>/<Kind>`, with their packages.
fn affected_kinds(
    api: &vgc::validate::Api,
    types: &BTreeSet<(String, String)>,
) -> (Vec<String>, BTreeSet<String>) {
    let by_key = api.plan.types_by_key();
    let mut kinds = Vec::new();
    let mut pkgs = BTreeSet::new();
    for ((api_version, kind), key) in &api.kinds {
        let mut seen = BTreeSet::new();
        let mut stack = vec![key];
        let mut hit = false;
        while let Some(k) = stack.pop() {
            if !seen.insert(k) {
                continue;
            }
            hit |= types.contains(&(k.pkg.clone(), k.name.clone()));
            if let Some(t) = by_key.get(k) {
                for f in t.fields.iter().flatten() {
                    stack.extend(vgc_lowering::plan::build_type_key(&f.ty));
                }
                stack.extend(
                    t.alias_of
                        .as_ref()
                        .and_then(vgc_lowering::plan::build_type_key),
                );
            }
        }
        if hit && key.pkg.starts_with("k8s.io/api/") {
            kinds.push(format!("{api_version}/{kind}"));
            pkgs.insert(key.pkg.clone());
        }
    }
    (kinds, pkgs)
}

/// Rewrites a generated object's JSON where Go's encoding never would, so that the conditions are met in every
/// spelling JSON has: in every struct of a type in `structs`, each member at random left alone, made `null`, made
/// its JSON zero value (`""`, `0`, `false`, `[]`, `{}`) or removed (`encoding/json` omits empty `omitempty` members,
/// so the objects as generated never hold `""` or `[]` there). Deterministic in `rng`.
struct Perturb<'p> {
    types: BTreeMap<&'p vgc_analysis::TypeKey, &'p vgc_lowering::plan::TypePlan>,
    structs: BTreeSet<(String, String)>,
    rng: u64,
}

impl<'p> Perturb<'p> {
    fn next(&mut self) -> u64 {
        // xorshift64
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn ty(&mut self, ty: &'p vgc_lowering::plan::RustTy, v: &mut Value, depth: usize) {
        use vgc_lowering::plan::RustTy;
        if depth > 40 {
            return;
        }
        match ty {
            RustTy::Option(i, _) => self.ty(i, v, depth + 1),
            RustTy::Vec(e) => {
                if let Value::Array(items) = v {
                    for x in items {
                        self.ty(e, x, depth + 1);
                    }
                }
            }
            RustTy::Map(e) => {
                if let Value::Object(m) = v {
                    for (_, x) in m.iter_mut() {
                        self.ty(e, x, depth + 1);
                    }
                }
            }
            RustTy::Named(k) => {
                let Some(t) = self.types.get(k).copied() else {
                    return;
                };
                match (&t.fields, &t.alias_of, v) {
                    (Some(_), _, Value::Object(m)) => self.fields(t, m, depth),
                    (None, Some(a), v) => self.ty(a, v, depth + 1),
                    _ => {}
                }
            }
            RustTy::Builtin(_) | RustTy::WellKnown(_) | RustTy::Json => {}
        }
    }

    fn fields(
        &mut self,
        t: &'p vgc_lowering::plan::TypePlan,
        m: &mut serde_json::Map<String, Value>,
        depth: usize,
    ) {
        use vgc_lowering::plan::Shape;
        let mine = self
            .structs
            .contains(&(t.key.pkg.clone(), t.key.name.clone()));
        for f in t.fields.iter().flatten() {
            if f.skip {
                continue;
            }
            if f.json_name.is_empty() {
                if let Some(k) = vgc_lowering::plan::build_type_key(&f.ty)
                    && let Some(inner) = self.types.get(k).copied()
                    && inner.fields.is_some()
                {
                    self.fields(inner, m, depth + 1);
                }
                continue;
            }
            if mine {
                match self.next() % 6 {
                    0 => {
                        m.insert(f.json_name.clone(), Value::Null);
                    }
                    1 => {
                        let zero = match &f.shape {
                            Shape::Scalar { ty, .. } => match ty {
                                vgc_analysis::types::Builtin::String => json!(""),
                                vgc_analysis::types::Builtin::Bool => json!(false),
                                _ => json!(0),
                            },
                            Shape::List { .. } => json!([]),
                            Shape::Map | Shape::Struct { .. } => json!({}),
                            Shape::Other { .. } => Value::Null,
                        };
                        m.insert(f.json_name.clone(), zero);
                    }
                    2 => {
                        m.shift_remove(&f.json_name);
                    }
                    _ => {}
                }
            }
            if let Some(x) = m.get_mut(&f.json_name) {
                self.ty(&f.ty, x, depth + 1);
            }
        }
    }
}

/// Step 2 for one gate setting: defaults `cases` with vgc and compares with the driver; returns the driver's
/// summary.
fn compare(
    oracle: &Path,
    work: &Path,
    api: &vgc::validate::Api,
    cases: &[Value],
    gates: &BTreeMap<String, bool>,
    go_gates: &str,
) -> (Value, usize) {
    let interp = Interpreter::new(&api.plan).with_feature_gates(gates.clone());
    let mut lines = String::new();
    let mut defaulted = 0;
    for (i, input) in cases.iter().enumerate() {
        let key = api.kind_of(input).expect("a kind of the API");
        let mut value = input.clone();
        let d = interp.apply_defaults(key, &mut value);
        defaulted += usize::from(
            d.iter()
                .any(|d| matches!(d.source, vgc_validate::DefaultSource::Server(_))),
        );
        lines.push_str(
            &json!({"name": format!("random {i}"), "input": input, "vgc": value}).to_string(),
        );
        lines.push('\n');
    }
    let mut child = Command::new(oracle)
        .args([
            "check",
            work.join("fields.json").to_str().expect("path"),
            go_gates,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the driver runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(lines.as_bytes()));
    let out = child.wait_with_output().expect("the driver ends");
    writer.join().expect("writer").expect("write cases");
    assert!(out.status.success(), "the driver failed");
    (
        serde_json::from_slice(&out.stdout).expect("the driver's summary"),
        defaulted,
    )
}

/// Every error of a `vgc validate` JSON report, as `file: message`, sorted.
fn errors_of(report: &str) -> Vec<String> {
    let report: Value = serde_json::from_str(report).expect("JSON report");
    let mut out: Vec<String> = report["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .flat_map(|d| {
            let file = d["file"].as_str().unwrap_or_default().to_string();
            d["errors"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |e| format!("{file}: {}", e["message"].as_str().unwrap_or_default()))
        })
        .collect();
    out.sort();
    out
}

/// Step 3: the test manifests with and without the hand-written defaults; returns the errors that went away.
fn manifests(api: &vgc::validate::Api, release: &vgc::release::ReleaseDefaults) -> Vec<String> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (kubernetes, _) = download_module(MANIFESTS, tmp.path());
    let inputs = vgc::validate::read_inputs(&[
        format!("{kubernetes}/test"),
        format!("{kubernetes}/cluster"),
    ])
    .expect("read");
    let run = |no_server_defaults: bool| {
        let opts = vgc::validate::Options {
            output: vgc::validate::OutputFormat::Json,
            options: release.gates.clone(),
            enforce: vgc::release::Enforce::Alpha,
            release: Some(release.release_name()),
            no_server_defaults,
            ..Default::default()
        };
        errors_of(&vgc::validate::run(api, &inputs, &[], &opts).0)
    };
    let (with, without) = (run(false), run(true));
    let mut gone = without.clone();
    for e in &with {
        let at = gone
            .iter()
            .position(|g| g == e)
            .unwrap_or_else(|| panic!("a new error with the hand-written defaults: {e}"));
        gone.remove(at);
    }
    eprintln!(
        "server-defaults: {MANIFESTS} test/ and cluster/ ({} files): {} errors without the hand-written defaults, {} with",
        inputs.len(),
        without.len(),
        with.len()
    );
    gone
}

fn agree(release: &Release) {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let start = std::time::Instant::now();
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let work = root
        .join("target/e2e/server-defaults")
        .join(release.kubernetes);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (kubernetes, _) = download_module(
        &format!("k8s.io/kubernetes@{}", release.kubernetes),
        tmp.path(),
    );
    let (api_dir, _) = download_module(&format!("k8s.io/api@{}", release.api), tmp.path());
    let loaded = vgc::validate::load_api(&vgc::validate::request(api_dir), None)
        .unwrap_or_else(|out| panic!("k8s.io/api does not load: {:?}", out.diagnostics));
    let api = loaded.api;
    assert_eq!(api.plan.upstream, release.profile);
    let rows = rows(release.profile);
    let row_types: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.ty.0.to_string(), r.ty.1.to_string()))
        .collect();
    let (kinds, type_pkgs) = affected_kinds(&api, &row_types);
    let kubernetes = Path::new(&kubernetes);
    let register =
        kubernetes_defaulters::register_file(&type_pkgs, &kubernetes_defaulters::seeds(kubernetes));
    let files = |texts: &[(&str, &str)]| -> Vec<(String, String)> {
        texts
            .iter()
            .map(|(f, t)| ((*f).to_string(), (*t).to_string()))
            .collect()
    };
    kubernetes_defaulters::build(
        kubernetes,
        release.kubernetes,
        &work,
        &[
            ("fields", files(&[("main.go", FIELDS)])),
            (
                "oracle",
                files(&[("main.go", DRIVER), ("zz_register.go", &register)]),
            ),
        ],
    );
    let (fields_bin, oracle) = (work.join("fields"), work.join("oracle"));
    let built = start.elapsed();

    // 1. What to port, from the sources, against the table.
    // go/packages runs `go list` itself: the same toolchain and flags as the build.
    let out = Command::new(&fields_bin)
        .arg("./kubernetes/...")
        .current_dir(&work)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("the field finder runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Value = serde_json::from_slice(&out.stdout).expect("the finder's JSON");
    let wanted = to_port(&found, &api.plan);
    let mut ported: BTreeMap<Field, BTreeSet<String>> = BTreeMap::new();
    for r in &rows {
        for (ty, field) in r.fields {
            ported
                .entry((r.ty.0.to_string(), (*ty).to_string(), (*field).to_string()))
                .or_default()
                .insert(format!("{} {}", r.package, r.function));
        }
    }
    eprintln!(
        "server-defaults: {}: {} fields a hand-written default sets and a declarative rule reads:",
        release.kubernetes,
        wanted.len()
    );
    for ((pkg, ty, field), by) in &wanted {
        eprintln!(
            "  {pkg} {ty}.{field} <- {}",
            by.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    assert_eq!(
        ported, wanted,
        "SERVER_DEFAULTS (left) must port exactly the fields a hand-written default of {} sets and a rule reads (right)",
        release.kubernetes
    );

    // 2. The oracle.
    let fields: Vec<Value> = ported
        .keys()
        .map(|(pkg, ty, field)| json!({"pkg": pkg, "type": ty, "field": field}))
        .collect();
    std::fs::write(work.join("fields.json"), Value::Array(fields).to_string())
        .expect("fields.json");
    let n: usize = env_or("VGC_SERVER_DEFAULTS_CASES", 3_000);
    let seed: u64 = env_or("VGC_SERVER_DEFAULTS_SEED", 1);
    let mut args = vec!["gen".to_string(), n.to_string(), seed.to_string()];
    args.extend(kinds.iter().cloned());
    let out = Command::new(&oracle)
        .args(&args)
        .output()
        .expect("the driver runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("driver JSON"))
        .collect();
    assert_eq!(cases.len(), n);
    // Every other object rewritten where Go's encoding never would: the members of the ported rows' structs (the
    // fields set and the fields their conditions read) and of ObjectMeta (the template labels a selector is
    // defaulted from).
    let mut perturb = Perturb {
        types: api.plan.types_by_key(),
        structs: rows
            .iter()
            .flat_map(|r| {
                r.fields
                    .iter()
                    .map(|(ty, _)| (r.ty.0.to_string(), (*ty).to_string()))
                    .chain([(r.ty.0.to_string(), r.ty.1.to_string())])
            })
            .chain([(
                "k8s.io/apimachinery/pkg/apis/meta/v1".to_string(),
                "ObjectMeta".to_string(),
            )])
            .collect(),
        rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
    };
    let cases: Vec<Value> = cases
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            if i % 2 == 1 {
                let key = api.kind_of(&c).expect("a kind of the API");
                let t = perturb.types.get(key).copied().expect("the kind's type");
                if let Value::Object(m) = &mut c {
                    perturb.fields(t, m, 0);
                }
            }
            c
        })
        .collect();
    let defaults = vgc::release::load(release.kubernetes).expect("the release's feature gates");
    let gated: BTreeSet<&str> = rows.iter().filter_map(|r| r.gate).collect();
    let mut settings = vec![(defaults.gates.clone(), "-".to_string())];
    if !gated.is_empty() {
        let mut on = defaults.gates.clone();
        for g in &gated {
            on.insert((*g).to_string(), true);
        }
        let go_gates: Vec<String> = gated.iter().map(|g| format!("{g}=true")).collect();
        settings.push((on, go_gates.join(",")));
    }
    let oracle_start = std::time::Instant::now();
    for (gates, go_gates) in &settings {
        let (summary, defaulted) = compare(&oracle, &work, &api, &cases, gates, go_gates);
        eprintln!(
            "server-defaults: {} gates {go_gates}: {} objects of {} kinds (seed {seed}), {defaulted} defaulted by a \
             ported function, {} differences; per field, occurrences and how many Go's defaulting changed:",
            release.kubernetes,
            summary["cases"],
            kinds.len(),
            summary["differences"],
        );
        for (field, stat) in summary["fields"].as_object().expect("fields") {
            eprintln!("  {field}: {} / {}", stat["seen"], stat["defaulted"]);
        }
        assert_eq!(summary["cases"].as_u64(), Some(n as u64));
        assert_eq!(
            summary["differences"].as_u64(),
            Some(0),
            "vgc's defaults differ from Go's; first: {:#}",
            summary["first"]
        );
        for r in &rows {
            if r.gate
                .is_some_and(|g| !gates.get(g).copied().unwrap_or(false))
            {
                continue;
            }
            for (ty, field) in r.fields {
                let key = format!("{}.{ty}.{field}", r.ty.0);
                assert!(
                    summary["fields"][&key]["defaulted"].as_u64() > Some(0),
                    "{key}: never defaulted by Go in the population ({})",
                    summary["fields"][&key]
                );
            }
        }
    }
    let oracle_time = oracle_start.elapsed();

    // 3. The test manifests.
    let gone = manifests(&api, &defaults);
    eprintln!(
        "server-defaults: {}: {} errors gone: {gone:#?}; build {:.1}s, oracle {:.1}s, total {:.1}s",
        release.kubernetes,
        gone.len(),
        built.as_secs_f64(),
        oracle_time.as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
    if release.profile == Upstream::V1_38 {
        assert_eq!(gone.len(), 52, "{gone:#?}");
        assert!(
            gone.iter().all(|e| e.ends_with(
                "spec.template.spec.restartPolicy: Unsupported value: \"\": supported values: \"Always\""
            )),
            "{gone:#?}"
        );
    }
}

#[test]
fn hand_written_defaults_agree_with_kubernetes_1_37() {
    agree(&Release {
        kubernetes: "v1.37.2",
        api: "v0.37.2",
        profile: Upstream::V1_37,
    });
}

#[test]
fn hand_written_defaults_agree_with_kubernetes_1_38() {
    agree(&Release {
        kubernetes: "v1.38.0-beta.0",
        api: "v0.38.0-beta.0",
        profile: Upstream::V1_38,
    });
}
