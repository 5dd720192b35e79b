//! The k8s-openapi target on real input: k8s.io/api v0.37.2 (through the Go module proxy) built with
//! `--target k8s-openapi --k8s-openapi-version 1.37`; the generated crate compiled with `-D warnings` against
//! k8s-openapi 0.29 (feature `v1_37`) and this checkout's vgc-runtime (`[patch.crates-io]`); then the k8s.io/api
//! differential through it: random objects of every root type generated on the Go side by randfill from the Go
//! types (the oracle's own population, never taken from vgc), validated by upstream-generated Go and by the
//! generated Rust over k8s-openapi structs.
//!
//! `VGC_K8S_OPENAPI_CASES` sets the number of randfill attempts (default 2,000; the issue's proof runs ≥ 50,000),
//! `VGC_K8S_OPENAPI_SEED` the seed (default 1). Needs `go` and the module proxy; nested builds use `target/e2e`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use vgc::driver::BuildRequest;
use vgc_codegen::k8s_openapi::{K8sOpenapiVersion, Mapping};
use vgc_codegen::{RuntimeDep, Target};
use vgc_tests::differential::env_or;
use vgc_tests::harness;

const VERSION: K8sOpenapiVersion = K8sOpenapiVersion::V1_37;

/// Kinds k8s-openapi 0.29 `v1_37` lacks among k8s.io/api v0.37.2's roots (`VGC0122` warnings): alpha and beta
/// group/versions the API server does not serve by default, and the option/review types without an OpenAPI
/// definition.
const LEFT_OUT_KINDS: usize = 83;

/// True when `v` holds an explicit empty list or map somewhere (what D9 and D11 concern on vgc's own structs).
fn has_explicit_empty(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.is_empty() || a.iter().any(has_explicit_empty),
        Value::Object(m) => m.is_empty() || m.values().any(has_explicit_empty),
        _ => false,
    }
}

/// The Rust runner over the generated crate: each root kind decoded into its k8s-openapi type and validated
/// through the crate's `Validate` extension trait.
fn openapi_runner(krate: &str, kinds: &BTreeMap<String, (String, bool)>) -> String {
    let mut dispatch = String::from(
        "fn dispatch(c: &Case) -> Result<Call, String> {\n    match c.kind.as_str() {\n",
    );
    for (kind, (path, type_meta)) in kinds {
        let run = if *type_meta { "run_kind" } else { "run" };
        let _ = writeln!(
            dispatch,
            "        {kind:?} => {run}::<::k8s_openapi::{path}>(c),"
        );
    }
    dispatch.push_str("        other => Err(format!(\"unknown kind {other}\")),\n    }\n}\n");
    let head = harness::RUST_RUNNER_HEAD
        .replace(
            "    #[serde(default)]\n    update: bool,\n}",
            "    #[serde(default)]\n    update: bool,\n    /// The kind's `apiVersion` for registry dispatch.\n    #[serde(default, rename = \"dispatchApiVersion\")]\n    dispatch_api_version: String,\n    /// The kind's `kind` for registry dispatch.\n    #[serde(default, rename = \"dispatchKind\")]\n    dispatch_kind: String,\n}",
        )
        .replace(
            "use vgc_runtime::{Error, Operation, Validate};",
            &format!("use vgc_runtime::{{Error, Operation}};\nuse {krate}::Validate;"),
        )
        .replace(
            "fn run<T: Validate + serde::de::DeserializeOwned + Default + 'static>(c: &Case) -> Result<Call, String> {\n    let (obj, old, op) = decode::<T>(c)?;",
            "fn run<T: Validate + serde::de::DeserializeOwned + serde::Serialize + Default + 'static>(c: &Case) -> Result<Call, String> {\n    let (obj, old, op) = decode_held::<T>(c, false)?;",
        );
    assert!(
        head.contains("decode_held::<T>(c, false)?"),
        "the runner head changed"
    );
    let head = head.replace(
        "    let out: Vec<serde_json::Value> = cases\n        .iter()\n        .map(|c| match dispatch(c) {",
        &format!("    let via_registry = std::env::var_os(\"VGC_VIA_REGISTRY\").is_some();\n    let via_dynamic = std::env::var_os(\"VGC_VIA_DYNAMIC\").is_some();\n    let out: Vec<serde_json::Value> = cases\n        .iter()\n        .map(|c| match if via_dynamic {{ dynamic_call::<{krate}::registry::DispatchError>(c, {krate}::registry::validate_dynamic_object) }} else if via_registry {{ registry_call::<{krate}::registry::DispatchError>(c, {krate}::registry::validate_object) }} else {{ dispatch(c) }} {{"),
    );
    assert!(head.contains("via_registry"), "the runner head changed");
    let head = head.replace(
        "    if let Some(r) = std::env::var(\"VGC_REPEAT\")",
        "    if std::env::var_os(\"VGC_COUNT_ALLOCS\").is_some() {\n        count_allocs(&cases);\n        return;\n    }\n    if let Some(r) = std::env::var(\"VGC_REPEAT\")",
    );
    assert!(
        head.contains("count_allocs(&cases)"),
        "the runner head changed"
    );
    let head = format!("{head}\n{DECODE_HELD}\n{COUNT_ALLOCS}");
    // The typedef-root helpers of the head are unused here.
    format!("#![allow(dead_code)]\n{head}\n{dispatch}")
}

/// The runner's decoding into k8s-openapi types. For a kind (a root embedding `TypeMeta`) the top-level
/// `apiVersion` and `kind` are dropped first: no rule reads them, k8s-openapi's types hold no such fields and refuse
/// values other than their own, and randfill fills them at random. An object k8s-openapi cannot hold is refused (an error, counted apart by the test, never
/// compared): its decoding fails, or it invents a value — k8s-openapi reads a required field that is absent or
/// `null` (a nil Go pointer) as its default, so the object it holds is not the one upstream validated.
const DECODE_HELD: &str = r#"
fn strip_type_meta(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove("apiVersion");
        m.remove("kind");
    }
    v
}

/// The first path where `held` (k8s-openapi's serialization of the decoded object) has a value that `input` lacks
/// or holds as `null`.
fn invented(input: &serde_json::Value, held: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    match (input, held) {
        (Value::Object(i), Value::Object(h)) => h.iter().find_map(|(k, hv)| match i.get(k) {
            None | Some(Value::Null) if !hv.is_null() => Some(format!("{path}.{k}")),
            Some(iv) => invented(iv, hv, &format!("{path}.{k}")),
            None => None,
        }),
        (Value::Array(i), Value::Array(h)) => i
            .iter()
            .zip(h)
            .find_map(|(iv, hv)| invented(iv, hv, &format!("{path}[]"))),
        _ => None,
    }
}

fn held<T: serde::de::DeserializeOwned + serde::Serialize + Default>(v: &serde_json::Value, kind: bool) -> Result<T, String> {
    let v = if kind { strip_type_meta(v) } else { v.clone() };
    let obj: T = from_json(&v)?;
    let mut back = serde_json::to_value(&obj).map_err(|e| e.to_string())?;
    if kind {
        back = strip_type_meta(&back);
    }
    match invented(&v, &back, "") {
        Some(p) => Err(format!("k8s-openapi invents a value at {p}")),
        None => Ok(obj),
    }
}

/// A case through the generated registry (`VGC_VIA_REGISTRY`): `validate_object` with the kind's real `apiVersion`
/// and `kind` (the case's `dispatchApiVersion` and `dispatchKind`), set on the object (and old object) too.
fn registry_call<E: std::fmt::Debug>(
    c: &Case,
    f: fn(&str, &str, &serde_json::Value, Option<&serde_json::Value>, &Operation) -> Result<vgc_runtime::ErrorList, E>,
) -> Result<Call, String> {
    let (av, kind) = (c.dispatch_api_version.clone(), c.dispatch_kind.clone());
    let with_type = |v: &serde_json::Value| {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.insert("apiVersion".into(), av.clone().into());
            m.insert("kind".into(), kind.clone().into());
        }
        v
    };
    let (obj, old) = (with_type(&c.object), c.old.as_ref().map(with_type));
    let mut op = if old.is_some() || c.update { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    let errs = f(&av, &kind, &obj, old.as_ref(), &op).map_err(|e| format!("{e:?}"))?;
    Ok(Box::new(move || errs.clone()))
}

/// A case through the generated registry's `validate_dynamic_object` (`VGC_VIA_DYNAMIC`): the object (and old
/// object) with the kind's real `apiVersion` and `kind`, decoded as kube-rs' `DynamicObject`.
fn dynamic_call<E: std::fmt::Debug>(
    c: &Case,
    f: fn(&kube_core::DynamicObject, Option<&kube_core::DynamicObject>, &Operation) -> Result<vgc_runtime::ErrorList, E>,
) -> Result<Call, String> {
    let (av, kind) = (c.dispatch_api_version.clone(), c.dispatch_kind.clone());
    let dynamic = |v: &serde_json::Value| -> Result<kube_core::DynamicObject, String> {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.insert("apiVersion".into(), av.clone().into());
            m.insert("kind".into(), kind.clone().into());
        }
        serde_json::from_value(v).map_err(|e| format!("not a DynamicObject: {e}"))
    };
    let obj = dynamic(&c.object)?;
    let old = match &c.old {
        Some(o) => Some(dynamic(o)?),
        None => None,
    };
    let mut op = if old.is_some() || c.update { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    let errs = f(&obj, old.as_ref(), &op).map_err(|e| format!("{e:?}"))?;
    Ok(Box::new(move || errs.clone()))
}

/// [`run`] for a kind.
fn run_kind<T: Validate + serde::de::DeserializeOwned + serde::Serialize + Default + 'static>(c: &Case) -> Result<Call, String> {
    let (obj, old, op) = decode_held::<T>(c, true)?;
    Ok(Box::new(move || obj.validate(old.as_ref(), &op)))
}

fn decode_held<T: serde::de::DeserializeOwned + serde::Serialize + Default>(c: &Case, kind: bool) -> Result<(T, Option<T>, Operation), String> {
    let obj: T = held(&c.object, kind)?;
    let old: Option<T> = match &c.old {
        Some(o) => Some(held(o, kind)?),
        None => None,
    };
    let mut op = if old.is_some() || c.update { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    Ok((obj, old, op))
}
"#;

/// The runner's allocation count (`VGC_COUNT_ALLOCS`): a counting global allocator (only the main thread counts);
/// every case decoded first, then each validation call counted alone. Prints, over the calls that return no errors
/// (valid objects), `{"valid", "allocating", "allocations", "max", "byKind"}` (`byKind`: the kinds whose valid objects
/// allocated, with their count of allocating calls and allocations).
const COUNT_ALLOCS: &str = r#"
struct Counting;
static ALLOCS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
thread_local! {
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        if COUNTING.try_with(std::cell::Cell::get).unwrap_or(false) {
            ALLOCS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        unsafe { std::alloc::System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(p, l) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

fn count_allocs(cases: &[Case]) {
    let calls: Vec<(String, Call)> = cases.iter().filter_map(|c| Some((c.kind.clone(), dispatch(c).ok()?))).collect();
    let (mut valid, mut allocating, mut total, mut max) = (0usize, 0usize, 0usize, 0usize);
    let mut by_kind: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (kind, call) in &calls {
        COUNTING.with(|c| c.set(true));
        let before = ALLOCS.load(std::sync::atomic::Ordering::Relaxed);
        let errs = call();
        let n = ALLOCS.load(std::sync::atomic::Ordering::Relaxed) - before;
        COUNTING.with(|c| c.set(false));
        if errs.is_empty() {
            valid += 1;
            total += n;
            max = max.max(n);
            if n > 0 {
                allocating += 1;
                let e = by_kind.entry(kind.clone()).or_default();
                e.0 += 1;
                e.1 += n;
            }
        }
    }
    println!("{}", serde_json::json!({"valid": valid, "allocating": allocating, "allocations": total, "max": max, "byKind": by_kind}));
}
"#;

#[test]
fn k8s_openapi_target_agrees_with_upstream() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = vgc_tests::harness::e2e_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    let (api_dir, version) = harness::download_module("k8s.io/api@v0.37.2", tmp.path());
    harness::download_module(&format!("k8s.io/apimachinery@{version}"), tmp.path());

    // 1. Generation: 0 errors; the only diagnostics are the kinds k8s-openapi lacks, each named.
    let generated = e2e.join("k8s-openapi-generated");
    let req = BuildRequest {
        path: api_dir.clone(),
        out: Some(generated.clone()),
        crate_name: "k8s-openapi-generated".into(),
        runtime: RuntimeDep::published(),
        extra_roots: vec!["TypesWithField=TypeMeta".into()],
        upstream: Some(harness::oracle_profile()),
        target: Some(Target::K8sOpenapi(VERSION)),
        no_cache: true,
        ..Default::default()
    };
    let out = vgc::build(&req);
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.code != vgc_ir::Code::K8sOpenapiKindLeftOut)
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "{shown:#?}");
    assert!(out.io_error.is_none(), "{:?}", out.io_error);
    let left_out = out.diagnostics.len();
    assert_eq!(left_out, LEFT_OUT_KINDS);
    eprintln!(
        "k8s-openapi target: k8s.io/api {version}: {:?}; {left_out} kinds left out (VGC0122), {} files",
        out.stats,
        out.files.len()
    );

    // 2. The generated crate compiles warning-free against k8s-openapi and this checkout's runtime.
    let (mapping, _) = Mapping::of(&out.plan, VERSION);
    // Root type → (k8s-openapi path, embeds TypeMeta).
    let kinds: BTreeMap<String, (String, bool)> = out
        .plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter())
        .filter(|t| t.root && t.fields.is_some())
        .filter_map(|t| {
            let type_meta = t
                .fields
                .iter()
                .flatten()
                .any(|f| f.go_field == "TypeMeta" && f.json_name.is_empty());
            Some((
                t.key.to_string(),
                (mapping.types.get(&t.key)?.clone(), type_meta),
            ))
        })
        .collect();
    let harness_dir = e2e.join("k8s-openapi-harness");
    // The binary has a name of its own: `k8s_e2e.rs`'s runner (`run_cases`) shares `target/e2e/target`.
    let _ = std::fs::remove_dir_all(harness_dir.join("src/bin"));
    std::fs::create_dir_all(harness_dir.join("src/bin")).expect("mkdir harness");
    let runtime = root.join("runtime");
    std::fs::write(
        harness_dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"k8s-openapi-harness\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nk8s-openapi-generated = {{ path = {:?}, features = [\"kube\"] }}\nk8s-openapi = {{ version = \"0.29\", features = [\"{}\"] }}\n# `registry::validate_dynamic_object`; the features of examples/webhook's (k8s_openapi_webhook.rs), which shares this build of k8s-openapi.\nkube-core = {{ version = \"5\", default-features = false, features = [\"admission\"] }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\n[patch.crates-io]\nvgc-runtime = {{ path = {:?} }}\n",
            generated.to_string_lossy(),
            VERSION.feature(),
            runtime.to_string_lossy(),
            runtime.to_string_lossy()
        ),
    )
    .expect("harness Cargo.toml");
    std::fs::write(harness_dir.join("src/lib.rs"), "//! k8s-openapi harness\n").expect("lib.rs");
    std::fs::write(
        harness_dir.join("src/bin/run_openapi_cases.rs"),
        openapi_runner("k8s_openapi_generated", &kinds),
    )
    .expect("run_openapi_cases.rs");
    let start = std::time::Instant::now();
    let status = harness::nested_cargo(
        &e2e,
        &["build", "--quiet", "--bin", "run_openapi_cases"],
        &harness_dir.join("Cargo.toml"),
        true,
    )
    .status()
    .expect("nested cargo runs");
    assert!(
        status.success(),
        "the k8s-openapi crate of k8s.io/api failed to build warning-free"
    );
    eprintln!(
        "k8s-openapi target: generated crate and runner built with -D warnings in {:.0}s",
        start.elapsed().as_secs_f64()
    );

    // 3. The differential: randfill objects generated by the Go oracle from the Go types.
    let oracle = vgc_tests::k8s_oracle::build_go_oracle(
        Path::new(&api_dir),
        &version,
        &out.plan,
        &e2e.join("k8s-openapi-oracle"),
    );
    let n: usize = env_or("VGC_K8S_OPENAPI_CASES", 2_000);
    let seed: u64 = env_or("VGC_K8S_OPENAPI_SEED", 1);
    let mut hints = vgc_tests::randfill::Hints::default();
    hints.harvest(Path::new(&api_dir));
    hints.harvest(&oracle.work.join("gen"));
    let hints_file = oracle.work.join("randfill-hints.json");
    hints.write(
        &hints_file,
        vgc_tests::randfill::Limits {
            max_depth: 9,
            nil_chance: 0.4,
            max_elements: 2,
        },
    );
    let generated_cases =
        vgc_tests::randfill::generate(&oracle.work.join("oracle"), n, seed, &hints_file);
    let all = generated_cases.cases.len();
    let described = generated_cases.describe();
    // Kinds left out of the crate are not run (their count is reported).
    let cases: Vec<Value> = generated_cases
        .cases
        .into_iter()
        .filter(|c| c["kind"].as_str().is_some_and(|k| kinds.contains_key(k)))
        .collect();
    let (upstream, ours, go_run, rust_run) = harness::run_both(
        &oracle.work.join("oracle"),
        &e2e.join("target/debug/run_openapi_cases"),
        &cases,
    );
    let ours = harness::release_view(&ours);
    // Objects k8s-openapi cannot hold (a required field absent or `null`, a value of another shape): the Rust side
    // refuses them while decoding; counted by reason, never compared.
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let (mut kept_c, mut kept_u, mut kept_o) = (Vec::new(), Vec::new(), Vec::new());
    for ((c, u), o) in cases.iter().zip(&upstream).zip(&ours) {
        if let Some(e) = o.get("error").and_then(Value::as_str)
            && u.get("error").is_none()
        {
            // Reasons without the varying values: `invalid value: string …`, `k8s-openapi invents a value at .spec.x`.
            let e = e.split(" at line").next().unwrap_or(e);
            let mut reason = String::new();
            let mut quoted = false;
            for ch in e.chars() {
                if ch == '"' {
                    quoted = !quoted;
                    if quoted {
                        reason.push('…');
                    }
                } else if !quoted {
                    reason.push(ch);
                }
            }
            *refused.entry(reason).or_default() += 1;
            continue;
        }
        kept_c.push(c.clone());
        kept_u.push(u.clone());
        kept_o.push(o.clone());
    }
    let summary = harness::compare_runs(&kept_u, &kept_o, &kept_c);
    let explicit_empty = kept_c
        .iter()
        .filter(|c| {
            has_explicit_empty(&c["object"]) || c.get("old").is_some_and(has_explicit_empty)
        })
        .count();
    let updates = kept_c.iter().filter(|c| c.get("old").is_some()).count();
    let kinds_run: BTreeSet<&str> = kept_c.iter().filter_map(|c| c["kind"].as_str()).collect();
    let mut top: Vec<(&String, &usize)> = refused.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1));
    eprintln!(
        "k8s-openapi differential: k8s.io/api {version}, randfill (Go side) seed {seed}: {n} attempts, {} generated ({}), \
         {all} cases, {} of kinds left out, {} refused by k8s-openapi's decoding; compared {} ({updates} updates, \
         {explicit_empty} with an explicit empty list or map) over {} kinds: {}; Go run {go_run:.1}s, Rust run {rust_run:.1}s",
        all,
        described,
        all - cases.len(),
        cases.len() - kept_c.len(),
        kept_c.len(),
        kinds_run.len(),
        summary.line(kinds_run.len())
    );
    eprintln!(
        "k8s-openapi refusals ({} reasons), top 15: {:#?}",
        top.len(),
        &top[..top.len().min(15)]
    );
    // Allocations while validating the valid ones (measured, reported: on this target, unlike vgc's own structs, a
    // Go value field k8s-openapi leaves out is read as a zero value built on the spot).
    let counted = Command::new(e2e.join("target/debug/run_openapi_cases"))
        .env("VGC_COUNT_ALLOCS", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(Value::from(kept_c.clone()).to_string().as_bytes())?;
            child.wait_with_output()
        })
        .expect("the runner counts allocations");
    assert!(counted.status.success(), "allocation count failed");
    let allocs = String::from_utf8_lossy(&counted.stdout).trim().to_string();
    eprintln!(
        "k8s-openapi allocations on valid objects (validation calls only, objects decoded before): {allocs}"
    );
    // Validating a valid object allocates nothing (the generated-code target of the issue); the customValidation
    // port of `metav1.Condition.lastTransitionTime` reads k8s-openapi's time through `GoTime`, without its text.
    let allocs: Value = serde_json::from_str(&allocs).expect("the runner prints JSON");
    assert_eq!(allocs["allocating"], 0, "{allocs}");
    assert!(allocs["valid"].as_u64().unwrap_or(0) > 0, "{allocs}");
    // 4. GVK dispatch: the compared cases of kinds again, through `registry::validate_object` with their real
    // apiVersion/kind, give the same lines as the direct trait calls.
    let gvk: BTreeMap<String, String> = vgc_lowering::plan::kinds(&out.plan.modules)
        .into_iter()
        .map(|k| (k.key.to_string(), k.api_version()))
        .collect();
    let mut via: Vec<Value> = Vec::new();
    let mut direct: Vec<Value> = Vec::new();
    for (c, o) in kept_c.iter().zip(&kept_o) {
        let Some(kind) = c["kind"].as_str() else {
            continue;
        };
        let (Some(av), Some((_, true))) = (gvk.get(kind), kinds.get(kind)) else {
            continue;
        };
        let mut c = c.clone();
        c["dispatchApiVersion"] = Value::from(av.clone());
        c["dispatchKind"] = Value::from(kind.rsplit('.').next().unwrap_or(kind));
        via.push(c);
        direct.push(o.clone());
    }
    let through = vgc_tests::randfill::run_cases(
        Command::new(e2e.join("target/debug/run_openapi_cases")).env("VGC_VIA_REGISTRY", "1"),
        &via,
    );
    let through = harness::release_view(&through);
    let differ = through
        .iter()
        .zip(&direct)
        .filter(|(t, d)| t["got"] != d["got"] || t.get("error").is_some())
        .count();
    eprintln!(
        "k8s-openapi registry: {} cases of kinds through registry::validate_object, {differ} differ from the trait calls",
        via.len()
    );
    assert_eq!(differ, 0, "registry dispatch differs from the trait calls");
    // The same through `registry::validate_dynamic_object` (feature `kube`), each case as kube-rs' DynamicObject.
    let dynamic = vgc_tests::randfill::run_cases(
        Command::new(e2e.join("target/debug/run_openapi_cases")).env("VGC_VIA_DYNAMIC", "1"),
        &via,
    );
    let dynamic = harness::release_view(&dynamic);
    let differ_dynamic: Vec<&Value> = dynamic
        .iter()
        .zip(&direct)
        .filter(|(t, d)| t["got"] != d["got"] || t.get("error").is_some())
        .map(|(t, _)| t)
        .collect();
    eprintln!(
        "k8s-openapi DynamicObject: {} cases of kinds through registry::validate_dynamic_object, {} differ from the trait calls",
        via.len(),
        differ_dynamic.len()
    );
    assert!(
        differ_dynamic.is_empty(),
        "validate_dynamic_object differs from the trait calls: {:#?}",
        &differ_dynamic[..differ_dynamic.len().min(3)]
    );
    let report = oracle.work.join("k8s-openapi-mismatches.txt");
    std::fs::write(&report, summary.mismatches.join("\n")).expect("mismatch report");
    eprintln!(
        "{} other mismatches (all in {})",
        summary.mismatches.len(),
        report.display()
    );
    // On this target nil and empty lists are apart: the D9/D11 differences vgc's own structs are excused for must
    // not occur.
    assert_eq!(summary.nil_vs_empty, 0, "D11-shaped differences");
    assert_eq!(summary.empty_old_union, 0, "D9-shaped differences");
    assert_eq!(summary.undecodable, 0);
    assert!(
        summary.mismatches.is_empty(),
        "{} mismatches (all in {}), first ones:\n{}",
        summary.mismatches.len(),
        report.display(),
        summary
            .mismatches
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
