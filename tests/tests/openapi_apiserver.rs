//! vgc's OpenAPI documents against the API server's own schema machinery (issue 39): every schema `vgc openapi`
//! writes for k8s.io/api v0.37.2 (fetched through the Go module proxy) is loaded by k8s.io/apiextensions-apiserver
//! v0.37.2 — the code every CustomResourceDefinition create and every custom-resource request runs through — in the
//! Go driver `tests/upstream/openapi_apiserver.go`, built in a scratch module under `target/e2e/openapi-oracle`.
//!
//! **Schemas.** `check`: each component schema, references inlined, wrapped as the `spec` of a CRD and validated with
//! `validation.ValidateCustomResourceDefinition` — the structural-schema rules, `x-kubernetes-list-type`/map-key
//! rules, CEL compilation (every `x-kubernetes-validations` rule and `messageExpression` in the Kubernetes CEL
//! environment), transition rules only where the old value correlates, and the CEL cost estimate against the
//! per-rule and per-CRD budgets. Asserted: no error at all except the cost estimate's; the cost estimate's errors are
//! counted by class and by the tag of the rule (the schemas of native types declare no `maxItems`/`maxLength`, so the
//! estimator assumes lists and strings as large as a request: `docs/openapi.md` lists what that leaves over budget).

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vgc_tests::harness::{download_module, e2e_dir};
use vgc_tests::kubernetes_defaulters::go_try;

const DRIVER: &str = include_str!("../upstream/openapi_apiserver.go");

/// k8s.io/apiextensions-apiserver, the release the driver is built against.
const APIEXTENSIONS: &str = "k8s.io/apiextensions-apiserver v0.37.2";

/// Builds the driver in `target/e2e/openapi-oracle` (once per driver text) and returns its path.
fn driver() -> PathBuf {
    let work = e2e_dir().join("openapi-oracle");
    std::fs::create_dir_all(&work).expect("mkdir");
    let bin = work.join("oracle");
    let stamp = work.join("driver.go.built");
    if bin.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|t| t == DRIVER) {
        return bin;
    }
    std::fs::write(
        work.join("go.mod"),
        format!("module vgc.test/openapioracle\n\ngo 1.25\n\nrequire {APIEXTENSIONS}\n"),
    )
    .expect("go.mod");
    std::fs::write(work.join("main.go"), DRIVER).expect("main.go");
    go_try(&work, &["mod", "tidy"]).unwrap_or_else(|e| panic!("go mod tidy: {e}"));
    go_try(&work, &["build", "-o", "oracle", "."]).unwrap_or_else(|e| panic!("go build: {e}"));
    std::fs::write(&stamp, DRIVER).expect("stamp");
    bin
}

/// `vgc openapi` over k8s.io/api v0.37.2 into `out` (the library call the command makes, nothing fixed).
fn export(out: &Path, tmp: &Path) -> vgc_driver::openapi::OpenApiOutcome {
    let (api, _) = download_module("k8s.io/api@v0.37.2", tmp);
    let req = vgc_driver::openapi::OpenApiRequest {
        build: vgc_driver::BuildRequest::check(api, Vec::new()),
        out: out.to_path_buf(),
        merge: None,
        options: vgc_driver::openapi::Options::default(),
        force: true,
        no_cache: true,
        cache_dir: None,
    };
    let o = vgc_driver::openapi::openapi(&req);
    assert_eq!(o.build.errors(), 0, "{:?}", o.build.diagnostics);
    assert!(o.io_error.is_none(), "{:?}", o.io_error);
    o
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

#[test]
fn every_schema_loads_into_the_api_servers_crd_validation() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let docs = tmp.path().join("openapi");
    let o = export(&docs, tmp.path());
    let bin = driver();
    let report = run(&bin, &["check", docs.to_str().expect("utf-8 path")]);
    let errors = report["errors"].as_array().cloned().unwrap_or_default();
    let (cost, other): (Vec<&Value>, Vec<&Value>) = errors
        .iter()
        .partition(|e| e["detail"].as_str().is_some_and(|d| d.contains("cost")));
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_tag: BTreeMap<String, usize> = BTreeMap::new();
    for e in &cost {
        let d = e["detail"].as_str().unwrap_or("");
        let class = if d.contains("contributed to") {
            "rule counted in a schema's total over budget"
        } else if d.contains("total for entire") {
            "schema's total over budget"
        } else if d.contains("messageExpression") {
            "messageExpression over budget"
        } else {
            "rule over the per-rule budget"
        };
        *by_class.entry(class.into()).or_default() += 1;
        if class == "rule over the per-rule budget" || class == "messageExpression over budget" {
            *by_tag
                .entry(e["tag"].as_str().unwrap_or("?").to_string())
                .or_default() += 1;
        }
    }
    let out = o.output.as_ref().expect("output");
    eprintln!(
        "{} schemas ({} CEL rules after inlining, {} references cut at a recursion) from {} documents ({} rules expressed, {} not expressed): {} errors, {} of them the cost estimate's: {by_class:?}; rules over budget by tag: {by_tag:?}",
        report["schemas"],
        report["rules"],
        report["cut"],
        out.documents.len(),
        out.expressed,
        out.unexpressed.len(),
        errors.len(),
        cost.len()
    );
    assert!(
        other.is_empty(),
        "{} errors other than the cost estimate's (structure, list metadata, CEL compilation, correlation), first: {:#?}",
        other.len(),
        &other[..other.len().min(20)]
    );
    assert!(
        report["schemas"].as_u64().unwrap_or(0) > 900,
        "{}",
        report["schemas"]
    );
    assert!(
        report["rules"].as_u64().unwrap_or(0) > 3_000,
        "{}",
        report["rules"]
    );
}
