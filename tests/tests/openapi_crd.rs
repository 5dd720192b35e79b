//! `vgc openapi --crd` end to end (issue 39, KEP-3937's Kubebuilder story; `docs/openapi.md` "CRDs that embed native
//! types"): a small operator module written by the test — a kind whose spec embeds k8s.io/api v0.37.2's
//! `corev1.PodTemplateSpec` and has fields with `+k8s:` tags of its own — gets its CRD from controller-gen
//! (sigs.k8s.io/controller-tools v0.23.0 through the Go module proxy, built once per target directory under
//! `target/e2e/controller-gen`); the CRD, read as the command reads it ([`vgc::manifests`]), gets the plan's rules from
//! [`vgc_driver::openapi_crd::openapi_crd`]; and the result is loaded by k8s.io/apiextensions-apiserver v0.37.2 in the
//! Go driver (`tests/upstream/openapi_crd.go`, built beside `openapi_apiserver.go` in `target/e2e/openapi-crd`):
//! `ValidateCustomResourceDefinition` (structural schema, CEL compilation, the CEL cost estimate), then custom objects
//! validated as the API server validates a custom resource on create, and on update (with its ratcheting).
//!
//! Asserted: every key controller-gen wrote is kept (structurally, over the whole CRD) and only rule keys are added;
//! without `--bound-lists` the cost estimate refuses exactly the rules listed in [`OVER_BUDGET`] (an embedded
//! PodSpec's unbounded `tolerations`), and vgc's own cost estimate (`vgc_openapi::cost`, the `VGC0130` warnings) names
//! the same refusals in the same words; with `--bound-lists 1000` the CRD has 0 errors and vgc's estimate no
//! warning; the objects' errors are exactly
//! the (field path, type, detail) each case lists — the rules vgc added (the operator's own `+k8s:format`, k8s.io/api's
//! `evictionResponders` rules: its list-map key, its name format, `dependentForbidden(schedulingGroup)`), next to
//! controller-gen's own (`minimum`, the container ports' list-map keys); on updates, an unchanged invalid value
//! ratcheted, and `dependentForbidden` skipped while both fields' set-ness is unchanged (upstream's ratchet, which
//! vgc's rule says itself) but not when the update sets the forbidden field.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use vgc_tests::harness::{e2e_dir, go_oracle};
use vgc_tests::kubernetes_defaulters::go_try;

const DRIVER: &str = include_str!("../upstream/openapi_apiserver.go");
const CRD_DRIVER: &str = include_str!("../upstream/openapi_crd.go");

/// The controller-gen release (sigs.k8s.io/controller-tools) that writes the CRD.
const CONTROLLER_TOOLS: &str = "v0.23.0";

/// k8s.io/apiextensions-apiserver, the release the driver is built against.
const APIEXTENSIONS: &str = "k8s.io/apiextensions-apiserver v0.37.2";

const GO_MOD: &str = "module example.com/workers\n\ngo 1.25\n\nrequire (\n\tk8s.io/api v0.37.2\n\tk8s.io/apimachinery v0.37.2\n)\n";

const DOC_GO: &str = "// Package v1 is the workers.example.com/v1 API of a small operator.\n// +kubebuilder:object:generate=true\n// +groupName=workers.example.com\n// +k8s:validation-gen=TypesWithField=TypeMeta\npackage v1\n";

const TYPES_GO: &str = r#"package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WorkerPool runs a pool of workers from a pod template.
// +kubebuilder:object:root=true
type WorkerPool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WorkerPoolSpec `json:"spec,omitempty"`
}

// WorkerPoolSpec is the desired state of a pool.
type WorkerPoolSpec struct {
	// The queue the workers read.
	// +k8s:required
	// +k8s:format=k8s-short-name
	QueueName string `json:"queueName"`

	// How many workers run.
	// +k8s:optional
	// +k8s:minimum=1
	// +k8s:maximum=100
	Replicas *int32 `json:"replicas,omitempty"`

	// The workers' pod template.
	Template corev1.PodTemplateSpec `json:"template"`
}

// WorkerPoolList is a list of pools.
// +kubebuilder:object:root=true
type WorkerPoolList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []WorkerPool `json:"items"`
}
"#;

/// The rules the API server's cost estimate refuses in the CRD without `--bound-lists` (measured 2026-11-28): the
/// field path of the error and its detail's start.
const OVER_BUDGET: &[(&str, &str)] = &[
    (
        "spec.validation.openAPIV3Schema.properties[spec].properties[template].properties[spec].properties[tolerations].items.properties[key].x-kubernetes-validations[0].rule",
        "estimated rule cost exceeds budget by factor of more than 100x",
    ),
    (
        "spec.validation.openAPIV3Schema.properties[spec].properties[template].properties[spec].properties[tolerations].items.properties[key].x-kubernetes-validations[0].rule",
        "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
    ),
    (
        "spec.validation.openAPIV3Schema",
        "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 42.7x",
    ),
];

/// The cost refusals vgc's own estimate of a CRD version's schema makes ([`vgc_openapi::cost`]), as the API server's
/// `ValidateCustomResourceDefinition` words them — (field below `openAPIV3Schema`, detail up to its advice) — sorted.
fn vgc_cost_errors(c: &vgc_openapi::cost::SchemaCost) -> Vec<(String, String)> {
    use vgc_openapi::cost::{CRD_BUDGET, RULE_BUDGET, factor_words};
    let mut out = Vec::new();
    for r in &c.rules {
        if r.over_budget() {
            out.push((
                r.field.clone(),
                format!(
                    "estimated rule cost exceeds budget by factor of {}",
                    factor_words(r.cost, RULE_BUDGET)
                ),
            ));
        }
    }
    if c.over_budget() {
        for (f, _) in c.contributors.iter().take(4) {
            out.push((
                f.clone(),
                "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema".into(),
            ));
        }
        out.push((
            "openAPIV3Schema".into(),
            format!(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of {}",
                factor_words(c.total, CRD_BUDGET)
            ),
        ));
    }
    out.sort();
    out
}

/// The API server's cost errors `over` (field, detail) in [`vgc_cost_errors`]'s form, sorted.
fn api_cost_errors(over: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = over
        .iter()
        .map(|(f, d)| {
            let f = f.find("openAPIV3Schema").map_or(f.as_str(), |i| &f[i..]);
            let d = d.split(" (try simplifying").next().unwrap_or(d);
            (f.to_string(), d.to_string())
        })
        .collect();
    out.sort();
    out
}

/// Builds controller-gen once per target directory and returns its path.
fn controller_gen() -> PathBuf {
    let work = e2e_dir().join("controller-gen");
    std::fs::create_dir_all(&work).expect("mkdir");
    let bin = work.join("controller-gen");
    let stamp = work.join("version.built");
    if bin.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|t| t == CONTROLLER_TOOLS) {
        return bin;
    }
    std::fs::write(
        work.join("go.mod"),
        "module vgc.test/controllergen\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::write(
        work.join("tools.go"),
        "//go:build tools\n\npackage tools\n\nimport _ \"sigs.k8s.io/controller-tools/cmd/controller-gen\"\n",
    )
    .expect("tools.go");
    let module = format!("sigs.k8s.io/controller-tools/cmd/controller-gen@{CONTROLLER_TOOLS}");
    go_try(&work, &["get", &module]).unwrap_or_else(|e| panic!("go get {module}: {e}"));
    go_try(
        &work,
        &[
            "build",
            "-o",
            "controller-gen",
            "sigs.k8s.io/controller-tools/cmd/controller-gen",
        ],
    )
    .unwrap_or_else(|e| panic!("go build controller-gen: {e}"));
    std::fs::write(&stamp, CONTROLLER_TOOLS).expect("stamp");
    bin
}

/// Builds the Go driver (`openapi_apiserver.go` with `openapi_crd.go`) once per driver text; its path.
fn driver() -> PathBuf {
    go_oracle(
        "openapi-crd",
        "vgc.test/openapioracle",
        APIEXTENSIONS,
        &[("main.go", DRIVER), ("crd.go", CRD_DRIVER)],
    )
}

/// The operator module in `dir` and controller-gen's CRD of it; the CRD's path.
fn operator(dir: &Path) -> PathBuf {
    let pkg = dir.join("api/v1");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(dir.join("go.mod"), GO_MOD).expect("go.mod");
    std::fs::write(pkg.join("doc.go"), DOC_GO).expect("doc.go");
    std::fs::write(pkg.join("types.go"), TYPES_GO).expect("types.go");
    go_try(dir, &["mod", "tidy"]).unwrap_or_else(|e| panic!("go mod tidy: {e}"));
    let out = dir.join("config/crd");
    let cg = std::process::Command::new(controller_gen())
        .args([
            "crd",
            "paths=./api/...",
            &format!("output:crd:dir={}", out.display()),
        ])
        .current_dir(dir)
        .output()
        .expect("controller-gen runs");
    assert!(
        cg.status.success(),
        "controller-gen: {}",
        String::from_utf8_lossy(&cg.stderr)
    );
    out.join("workers.example.com_workerpools.yaml")
}

/// `vgc openapi --crd CRD DIR --out OUT [--bound-lists N]` as the command runs it; the outcome and the CRD written.
fn export(
    dir: &Path,
    crd: &Path,
    out: &Path,
    bound: Option<u64>,
) -> (vgc_driver::openapi_crd::CrdOutcome, Value) {
    let text = std::fs::read_to_string(crd).expect("read the CRD");
    let documents: Vec<Value> = vgc::manifests::load(&text)
        .into_iter()
        .map(|d| d.expect("controller-gen's CRD reads").value)
        .collect();
    let file = vgc_driver::openapi_crd::CrdFile {
        name: "workerpools.yaml".into(),
        documents,
        leading_marker: text.starts_with("---"),
    };
    let req = vgc_driver::openapi::OpenApiRequest {
        build: vgc_driver::BuildRequest::check(dir.to_string_lossy().into_owned(), Vec::new()),
        out: out.to_path_buf(),
        merge: None,
        options: vgc_driver::openapi::Options::default(),
        force: true,
        no_cache: true,
        cache_dir: None,
    };
    let o = vgc_driver::openapi_crd::openapi_crd(&req, vec![file], bound);
    assert_eq!(
        o.openapi.build.errors(),
        0,
        "{:?}",
        o.openapi.build.diagnostics
    );
    assert!(o.problems.is_empty(), "{:?}", o.problems);
    assert!(o.openapi.io_error.is_none(), "{:?}", o.openapi.io_error);
    let written = std::fs::read_to_string(out.join("workerpools.yaml")).expect("written");
    let mut docs = vgc::manifests::load(&written);
    assert_eq!(docs.len(), 1);
    (o, docs.remove(0).expect("the written CRD reads").value)
}

/// Every key and value of `before` is in `after`; the keys only `after` has are collected as `(pointer, key)`.
fn kept(before: &Value, after: &Value, at: &str, added: &mut Vec<(String, String)>) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            for (k, v) in b {
                let sub = format!("{at}/{k}");
                let w = a.get(k).unwrap_or_else(|| panic!("{sub}: lost"));
                kept(v, w, &sub, added);
            }
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                added.push((at.to_string(), k.clone()));
            }
        }
        (Value::Array(b), Value::Array(a)) => {
            // A rule list may have gained rules after the ones it had.
            assert!(a.len() >= b.len(), "{at}: items lost");
            if !at.ends_with("/x-kubernetes-validations") {
                assert_eq!(a.len(), b.len(), "{at}: items added");
            }
            for (i, (x, y)) in b.iter().zip(a).enumerate() {
                kept(x, y, &format!("{at}/{i}"), added);
            }
        }
        _ => assert_eq!(before, after, "{at}: changed"),
    }
}

/// Runs the driver's `crd` mode on the CRD `crd` and the cases; its report.
fn check(bin: &Path, crd: &Value, cases: &Value, tmp: &Path) -> Value {
    let crd_path = tmp.join("crd.json");
    let cases_path = tmp.join("cases.json");
    // JSON is YAML: the driver reads it with sigs.k8s.io/yaml as it reads a CRD file.
    std::fs::write(&crd_path, serde_json::to_vec(crd).expect("json")).expect("write");
    std::fs::write(&cases_path, serde_json::to_vec(cases).expect("json")).expect("write");
    let out = std::process::Command::new(bin)
        .args([
            "crd",
            crd_path.to_str().expect("utf-8"),
            cases_path.to_str().expect("utf-8"),
        ])
        .output()
        .expect("the driver runs");
    assert!(
        out.status.success(),
        "driver: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("driver JSON")
}

/// A WorkerPool with `spec`.
fn pool(spec: Value) -> Value {
    json!({"apiVersion": "workers.example.com/v1", "kind": "WorkerPool", "metadata": {"name": "p"}, "spec": spec})
}

/// An error an object must get: (field path, type, detail).
type Expected = (&'static str, &'static str, &'static str);

/// The test's objects, each with the exact errors the CRD gives it: `(name, object, [(field, type, detail)])`.
fn cases() -> Vec<(&'static str, Value, Vec<Expected>)> {
    let container = json!({"name": "w", "image": "busybox"});
    vec![
        (
            "valid",
            pool(
                json!({"queueName": "q1", "replicas": 3, "template": {"spec": {
                "containers": [{"name": "w", "image": "busybox", "ports": [{"containerPort": 80, "protocol": "TCP"}]}],
                "tolerations": [{"key": "example.com/gpu", "operator": "Exists"}],
                "evictionResponders": [{"name": "example.com/drain", "priority": 10}]}}}),
            ),
            vec![],
        ),
        (
            "the operator's own +k8s:format",
            pool(
                json!({"queueName": "Not_A_Label", "template": {"spec": {"containers": [container]}}}),
            ),
            vec![(
                "spec.queueName",
                "FieldValueInvalid",
                "must be a lowercase RFC 1123 label",
            )],
        ),
        (
            "controller-gen's +k8s:minimum",
            pool(
                json!({"queueName": "q", "replicas": 0, "template": {"spec": {"containers": [container]}}}),
            ),
            vec![(
                "spec.replicas",
                "FieldValueInvalid",
                "spec.replicas in body should be greater than or equal to 1",
            )],
        ),
        (
            "a toleration key that is not a label key",
            pool(
                json!({"queueName": "q", "template": {"spec": {"containers": [container],
                "tolerations": [{"key": "not a key", "operator": "Exists"}]}}}),
            ),
            vec![(
                "spec.template.spec.tolerations[0].key",
                "FieldValueInvalid",
                "must be a valid label key",
            )],
        ),
        (
            "eviction responders: a name without a prefix, a duplicate key, schedulingGroup beside them",
            pool(
                json!({"queueName": "q", "template": {"spec": {"containers": [container],
                "schedulingGroup": {"podGroupName": "g"},
                "evictionResponders": [{"name": "nodomain", "priority": 1}, {"name": "example.com/a", "priority": 1},
                                       {"name": "example.com/a", "priority": 2}]}}}),
            ),
            vec![
                (
                    "spec.template.spec.evictionResponders[2]",
                    "FieldValueDuplicate",
                    "",
                ),
                (
                    "spec.template.spec.schedulingGroup",
                    "FieldValueForbidden",
                    "may not be set when evictionResponders is set",
                ),
                (
                    "spec.template.spec.evictionResponders[0].name",
                    "FieldValueInvalid",
                    "must be a valid label key with a prefix",
                ),
            ],
        ),
        (
            "a duplicate container port (controller-gen's list-map keys)",
            pool(
                json!({"queueName": "q", "template": {"spec": {"containers": [{"name": "w", "image": "busybox",
                "ports": [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 80, "protocol": "TCP"}]}]}}}),
            ),
            vec![(
                "spec.template.spec.containers[0].ports[1]",
                "FieldValueDuplicate",
                "",
            )],
        ),
    ]
}

/// The test's updates, each `(name, old, new, exact errors)`: ratcheting as the API server does it for a custom
/// resource (an unchanged value's errors are dropped), and the ratchet vgc's struct-level rules say themselves
/// (`dependentForbidden` is skipped while both fields' set-ness is unchanged, as upstream skips it).
fn updates() -> Vec<(&'static str, Value, Value, Vec<Expected>)> {
    let spec = |queue: &str, replicas: i64, image: &str, group: bool| {
        let mut pod = json!({"containers": [{"name": "w", "image": image}],
                             "evictionResponders": [{"name": "example.com/a", "priority": 1}]});
        if group {
            pod["schedulingGroup"] = json!({"podGroupName": "g"});
        }
        pool(json!({"queueName": queue, "replicas": replicas, "template": {"spec": pod}}))
    };
    vec![
        (
            "an update leaving an invalid queueName as it was",
            spec("Not_A_Label", 2, "busybox", false),
            spec("Not_A_Label", 3, "busybox", false),
            vec![],
        ),
        (
            "an update to another invalid queueName",
            spec("Not_A_Label", 2, "busybox", false),
            spec("Also_Bad", 2, "busybox", false),
            vec![(
                "spec.queueName",
                "FieldValueInvalid",
                "must be a lowercase RFC 1123 label",
            )],
        ),
        (
            "an update of the pod spec keeping schedulingGroup beside evictionResponders",
            spec("q", 2, "busybox", true),
            spec("q", 2, "busybox:2", true),
            vec![],
        ),
        (
            "an update adding schedulingGroup beside evictionResponders",
            spec("q", 2, "busybox", false),
            spec("q", 2, "busybox", true),
            vec![(
                "spec.template.spec.schedulingGroup",
                "FieldValueForbidden",
                "may not be set when evictionResponders is set",
            )],
        ),
    ]
}

/// The (field, type, detail) triples of a case's errors in the driver's report.
fn triples(case: &Value) -> Vec<(String, String, String)> {
    case["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap_or("").to_string(),
                e["type"].as_str().unwrap_or("").to_string(),
                e["detail"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_crd_embedding_a_pod_template_gets_the_rules_and_the_api_server_enforces_them() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("workers");
    let crd_path = operator(&dir);
    let original_text = std::fs::read_to_string(&crd_path).expect("read");
    let original = vgc::manifests::load(&original_text)
        .remove(0)
        .expect("reads")
        .value;
    let bin = driver();
    let cases_json = Value::Array(
        cases()
            .iter()
            .map(|(n, o, _)| json!({"name": n, "object": o}))
            .chain(
                updates()
                    .iter()
                    .map(|(n, old, o, _)| json!({"name": n, "object": o, "old": old})),
            )
            .collect(),
    );
    let want: Vec<(&str, Vec<Expected>)> = cases()
        .into_iter()
        .map(|(n, _, w)| (n, w))
        .chain(updates().into_iter().map(|(n, _, _, w)| (n, w)))
        .collect();

    // Without a bound: every key kept, only rule keys added, and the cost estimate's refusals as measured.
    let (o, crd) = export(&dir, &crd_path, &tmp.path().join("out"), None);
    let mut added = Vec::new();
    kept(&original, &crd, "", &mut added);
    let keys: std::collections::BTreeSet<&str> = added.iter().map(|(_, k)| k.as_str()).collect();
    let allowed: std::collections::BTreeSet<&str> = vgc_openapi::RULE_KEYS
        .iter()
        .copied()
        .filter(|k| !k.starts_with("x-vgc-"))
        .collect();
    assert!(keys.is_subset(&allowed), "{keys:?}");
    assert_eq!(o.versions.len(), 1);
    let v = &o.versions[0];
    assert_eq!(v.schema, "com.example.workers.api.v1.WorkerPool");
    assert_eq!(v.unbounded, vec![".spec.template.spec.tolerations"]);
    assert!(
        v.report.merge.missing.is_empty(),
        "{:?}",
        v.report.merge.missing
    );
    eprintln!(
        "controller-gen's CRD ({} bytes): {} keys added ({keys:?}), {} kept as controller-gen wrote them",
        original_text.len(),
        v.report.merge.added,
        v.report.merge.kept.len()
    );
    let report = check(&bin, &crd, &cases_json, tmp.path());
    let over: Vec<(String, String)> = report["crd"]
        .as_array()
        .expect("crd errors")
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap_or("").to_string(),
                e["detail"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    eprintln!("without --bound-lists: {over:#?}");
    // vgc's own estimate (the `VGC0130` warnings) names the same refusals, in the API server's words.
    assert_eq!(
        vgc_cost_errors(&v.cost),
        api_cost_errors(&over),
        "vgc's cost estimate and the API server's"
    );
    assert_eq!(over.len(), OVER_BUDGET.len(), "{over:#?}");
    for ((f, d), (ef, ed)) in over.iter().zip(OVER_BUDGET) {
        assert_eq!(f, ef);
        assert!(d.starts_with(ed), "{d}");
    }

    // With `--bound-lists 1000`: the one unbounded list holding a rule is bounded, and the CRD passes.
    let (o, crd) = export(&dir, &crd_path, &tmp.path().join("bounded"), Some(1000));
    assert_eq!(
        o.versions[0].bounded,
        vec![".spec.template.spec.tolerations"]
    );
    let report = check(&bin, &crd, &cases_json, tmp.path());
    assert_eq!(report["crd"], json!([]), "ValidateCustomResourceDefinition");
    assert_eq!(
        vgc_cost_errors(&o.versions[0].cost),
        Vec::<(String, String)>::new(),
        "vgc's cost estimate with --bound-lists 1000"
    );
    assert!(o.openapi.cost.is_empty(), "{:?}", o.openapi.cost);
    let got = report["cases"].as_array().expect("cases");
    assert_eq!(got.len(), want.len());
    for ((name, want), got) in want.iter().zip(got) {
        let want: Vec<(String, String, String)> = want
            .iter()
            .map(|(f, t, d)| (f.to_string(), t.to_string(), d.to_string()))
            .collect();
        assert_eq!(triples(got), want, "{name}");
    }

    // Controller-gen's CRD alone (no vgc rules) catches what its own markers say — `minimum`, the list-map keys of
    // ports and of evictionResponders (the duplicate, 1 of that case's 3 errors) — and none of the rules vgc added.
    let report = check(&bin, &original, &cases_json, tmp.path());
    let plain: Vec<usize> = report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["errors"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(
        plain,
        vec![0, 0, 1, 0, 1, 1, 0, 0, 0, 0],
        "controller-gen's CRD alone"
    );
}
