//! `vgc validate` on real manifests nobody here wrote: every `*.yaml`, `*.yml` and `*.json` file under `test/` of
//! `k8s.io/kubernetes@v1.37.2` (downloaded through the Go module proxy at test time, never copied into the
//! repository) against the declarative rules of `k8s.io/api@v0.37.2`. Asserts the exact per-kind table (documents,
//! valid, invalid, errors, unreadable, skipped), every reported error and every unreadable document (insta
//! snapshots), twice: with no `--option` (as `vgc validate DIR` runs: every option a rule reaches is upstream's
//! "undefined validation option" internal error) and with every option the rules name set to its Kubernetes 1.37.2
//! default, read from the same module's `pkg/features/kube_features.go` (what an API server of that release runs
//! with). Each reported error is hand-checked against its tag in `docs/validate.md` ("On k8s.io/kubernetes' test
//! manifests"). Needs `go` and the module proxy.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use vgc_lowering::plan::{Check, CheckKind};
use vgc_tests::harness;

const KUBERNETES: &str = "k8s.io/kubernetes@v1.37.2";
const API: &str = "k8s.io/api@v0.37.2";

/// Per (apiVersion, kind): documents, valid, invalid, errors, unreadable (wrong types, hand-written rules), skipped.
#[derive(Default)]
struct Row {
    documents: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
    unreadable: usize,
    skipped: usize,
}

/// The report of a JSON run as reviewable text: the per-kind table, then every error and every unreadable or
/// skipped document with its location.
fn render(report: &Value) -> String {
    let docs = report["documents"].as_array().expect("documents");
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    let mut errors = String::new();
    let mut unreadable = String::new();
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    for d in docs {
        let at = format!("{}:{}:{}", s(&d["file"]), d["line"], d["column"]);
        let status = s(&d["status"]);
        let kind = (s(&d["apiVersion"]), s(&d["kind"]));
        let name = match (s(&d["namespace"]), s(&d["name"])) {
            (ns, n) if ns.is_empty() => n,
            (ns, n) => format!("{ns}/{n}"),
        };
        if kind.1.is_empty() {
            let _ = writeln!(unreadable, "{at}: {}", s(&d["message"]));
            continue;
        }
        let row = rows.entry(kind.clone()).or_default();
        row.documents += 1;
        // Errors of rules the release's server does not enforce (`vgc::release::Enforce`), listed apart.
        for e in d["shadowed"].as_array().into_iter().flatten() {
            let _ = writeln!(
                errors,
                "{}:{}:{} {} {} {name}: shadowed ({}): {}",
                s(&d["file"]),
                e["line"],
                e["column"],
                kind.0,
                kind.1,
                s(&e["stability"]),
                s(&e["message"])
            );
        }
        match status.as_str() {
            "valid" => row.valid += 1,
            "invalid" => {
                row.invalid += 1;
                for e in d["errors"].as_array().expect("errors") {
                    row.errors += 1;
                    let mut marks = Vec::new();
                    if !s(&e["origin"]).is_empty() {
                        marks.push(format!("rule {}", s(&e["origin"])));
                    }
                    if !e["stability"].is_null() {
                        marks.push(s(&e["stability"]));
                    }
                    let _ = writeln!(
                        errors,
                        "{}:{}:{} {} {} {name}: {} [{}]",
                        s(&d["file"]),
                        e["line"],
                        e["column"],
                        kind.0,
                        kind.1,
                        s(&e["message"]),
                        marks.join(", ")
                    );
                }
            }
            "skipped" => row.skipped += 1,
            _ => {
                row.unreadable += 1;
                let _ = writeln!(
                    unreadable,
                    "{at}: {} {} {name}: {status}: {}",
                    kind.0,
                    kind.1,
                    s(&d["message"])
                );
            }
        }
    }
    let mut out = String::from(
        "apiVersion kind | documents | valid | invalid | errors | unreadable | skipped\n",
    );
    for ((av, k), r) in &rows {
        let _ = writeln!(
            out,
            "{av} {k} | {} | {} | {} | {} | {} | {}",
            r.documents, r.valid, r.invalid, r.errors, r.unreadable, r.skipped
        );
    }
    let _ = writeln!(out, "summary: {}", report["summary"]);
    let _ = write!(
        out,
        "\nerrors:\n{errors}\ndocuments without apiVersion/kind, malformed, or not decodable:\n{unreadable}"
    );
    out
}

/// The options (feature gates) the plan's rules name: `ifEnabled`/`ifDisabled` wrappers and `enumExclude` rules.
fn named_options(plan: &vgc_lowering::CratePlan) -> Vec<String> {
    fn visit(c: &Check, out: &mut Vec<String>) {
        c.walk(&mut |c| match &c.kind {
            CheckKind::IfOption(io) => out.push(io.option.clone()),
            CheckKind::Enum(e) => out.extend(e.exclusions.iter().map(|x| x.option.clone())),
            _ => {}
        });
    }
    let mut out = Vec::new();
    for m in &plan.modules {
        for t in &m.types {
            for c in &t.checks {
                visit(c, &mut out);
            }
            for f in t.fields.iter().flatten() {
                for c in &f.checks {
                    visit(c, &mut out);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The default of feature gate `name` in Kubernetes' `pkg/features/kube_features.go` (the `Default:` of the last
/// versioned spec of `name: {...}` in `defaultVersionedKubernetesFeatureGates`), if it is listed there.
fn gate_default(features: &str, name: &str) -> Option<bool> {
    let start = features.find(&format!("\n\t{name}: {{\n"))?;
    let rest = &features[start + 1..];
    let end = rest.find("\n\t},")?;
    let defaults: Vec<bool> = rest[..end]
        .match_indices("Default: ")
        .map(|(i, _)| rest[i + 9..].starts_with("true"))
        .collect();
    defaults.last().copied()
}

#[test]
fn kubernetes_test_manifests_against_k8s_api() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (kubernetes, _) = harness::download_module(KUBERNETES, tmp.path());
    let (api, _) = harness::download_module(API, tmp.path());
    harness::download_module("k8s.io/apimachinery@v0.37.2", tmp.path());
    let loaded = match vgc::validate::load_api(&vgc::validate::request(api), None) {
        Ok(l) => l,
        Err(out) => panic!("k8s.io/api does not load: {:?}", out.diagnostics),
    };
    let test_dir = Path::new(&kubernetes).join("test");
    let mut inputs =
        vgc::validate::read_inputs(&[test_dir.to_string_lossy().into_owned()]).expect("read");
    let files = inputs.len();
    for i in &mut inputs {
        i.name = i
            .name
            .strip_prefix(&format!("{kubernetes}/"))
            .unwrap_or(&i.name)
            .to_string();
    }
    // 346 YAML and 21 JSON files.
    assert_eq!(files, 367);
    let opts = vgc::validate::Options {
        output: vgc::validate::OutputFormat::Json,
        ..Default::default()
    };
    let (text, outcome) = vgc::validate::run(&loaded.api, &inputs, &[], &opts);
    let report: Value = serde_json::from_str(&text).expect("JSON report");
    insta::assert_snapshot!("kubernetes_test_manifests_no_options", render(&report));
    assert_eq!(outcome.exit_code(), 1);

    // With the API server's defaults of every option the rules name.
    let features =
        std::fs::read_to_string(Path::new(&kubernetes).join("pkg/features/kube_features.go"))
            .expect("kube_features.go");
    let mut options = BTreeMap::new();
    let mut unlisted = Vec::new();
    for name in named_options(&loaded.api.plan) {
        match gate_default(&features, &name) {
            Some(on) => {
                options.insert(name, on);
            }
            None => unlisted.push(name),
        }
    }
    assert_eq!(
        unlisted,
        Vec::<String>::new(),
        "options of k8s.io/api's rules that Kubernetes 1.37.2 does not list as feature gates"
    );
    let listed: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    insta::assert_snapshot!("kubernetes_feature_gate_defaults", listed.join("\n"));
    let opts = vgc::validate::Options {
        output: vgc::validate::OutputFormat::Json,
        options,
        ..Default::default()
    };
    let (text, _) = vgc::validate::run(&loaded.api, &inputs, &[], &opts);
    let report: Value = serde_json::from_str(&text).expect("JSON report");
    insta::assert_snapshot!("kubernetes_test_manifests_default_gates", render(&report));

    // What `vgc validate --api k8s.io/api@v0.37.2` does by itself: the release defaults read with tree-sitter
    // (`vgc::release`) — every gate of the release, the same defaults as the textual reading above for the options
    // the rules name — and the release's enforcement (standard and beta rules; alpha errors shadowed).
    let release =
        vgc::release::ReleaseDefaults::from_source("k8s.io/kubernetes@v1.37.2", (1, 37), &features)
            .expect("kube_features.go reads");
    for (name, on) in &opts.options {
        assert_eq!(release.gates.get(name), Some(on), "{name}");
    }
    assert_eq!(release.enforce(), vgc::release::Enforce::Beta);
    let released = vgc::validate::Options {
        output: vgc::validate::OutputFormat::Json,
        options: release.gates.clone(),
        enforce: release.enforce(),
        release: Some(release.release_name()),
        enforce_from_release: true,
        kubernetes: Some((release.source.clone(), Path::new(&kubernetes).to_path_buf())),
        ..Default::default()
    };
    let (text, outcome) = vgc::validate::run(&loaded.api, &inputs, &[], &released);
    let report: Value = serde_json::from_str(&text).expect("JSON report");
    // Each kind names the hand-written validation its API server also runs, which vgc does not check.
    let pod = report["kinds"]
        .as_array()
        .expect("kinds")
        .iter()
        .find(|k| k["apiVersion"] == "v1" && k["kind"] == "Pod")
        .expect("Pod");
    assert_eq!(
        pod["notChecked"],
        "k8s.io/kubernetes@v1.37.2 pkg/apis/core/validation"
    );
    let deployment = report["kinds"]
        .as_array()
        .expect("kinds")
        .iter()
        .find(|k| k["apiVersion"] == "apps/v1" && k["kind"] == "Deployment")
        .expect("Deployment");
    assert_eq!(
        deployment["notChecked"],
        "k8s.io/kubernetes@v1.37.2 pkg/apis/apps/validation"
    );
    insta::assert_snapshot!(
        "kubernetes_test_manifests_release_defaults",
        render(&report)
    );
    // The toleration key placeholder is an alpha rule's error: shadowed, not counted.
    assert_eq!(
        (outcome.invalid, outcome.errors, outcome.shadowed),
        (2, 2, 1)
    );

    // `--strict`: the keys no field takes (a SARIF log, valid against the official schema).
    let opts = vgc::validate::Options {
        output: vgc::validate::OutputFormat::Sarif,
        strict: true,
        ..opts
    };
    let (text, _) = vgc::validate::run(&loaded.api, &inputs, &[], &opts);
    let sarif: Value = serde_json::from_str(&text).expect("SARIF is JSON");
    let validator = jsonschema::validator_for(&vgc_tests::sarif_schema()).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut unknown = String::new();
    for r in sarif["runs"][0]["results"].as_array().expect("results") {
        if r["ruleId"] == "unknown-field" {
            let loc = &r["locations"][0]["physicalLocation"];
            let _ = writeln!(
                unknown,
                "{}:{}:{} {}",
                loc["artifactLocation"]["uri"].as_str().unwrap_or(""),
                loc["region"]["startLine"],
                loc["region"]["startColumn"],
                r["message"]["text"].as_str().unwrap_or("")
            );
        }
    }
    insta::assert_snapshot!("kubernetes_test_manifests_unknown_fields", unknown);

    // `metav1.Time` / `MicroTime` texts decode exactly where Go's `time.Parse` accepts them (the runtime
    // differential's `timeJSON` calls prove the parser; this pins that dispatch uses it): the API server refuses a
    // Pod whose `creationTimestamp` is not an RFC 3339 time, or an Event whose `eventTime` lacks microseconds.
    let op = vgc_runtime::Operation::create();
    let pod = |ts: &str| serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "creationTimestamp": ts}});
    for bad in [
        "",
        "yesterday",
        "2024-13-45T00:00:00Z",
        "2024-02-30T00:00:00Z",
        "2024-01-01t00:00:00Z",
        "2024-01-01T00:00:00z",
    ] {
        match loaded.api.validate_document(&pod(bad), None, &op) {
            Err(vgc::validate::DispatchError::Eval(vgc_validate::EvalError::Decode(d))) => {
                assert_eq!(d.pointer, "/metadata/creationTimestamp", "{bad:?}");
            }
            other => panic!("{bad:?} decoded: {other:?}"),
        }
    }
    for good in [
        "2024-02-29T00:00:00Z",
        "2024-01-01T1:02:03,5+24:00",
        "0000-01-01T00:00:00.123456789123-00:30",
    ] {
        assert!(
            loaded.api.validate_document(&pod(good), None, &op).is_ok(),
            "{good:?} is a time for Go"
        );
    }
    let event = |t: &str| serde_json::json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"}, "eventTime": t});
    assert!(
        loaded
            .api
            .validate_document(&event("2024-01-01T00:00:00.000001Z"), None, &op)
            .is_ok()
    );
    assert!(matches!(
        loaded
            .api
            .validate_document(&event("2024-01-01T00:00:00Z"), None, &op),
        Err(vgc::validate::DispatchError::Eval(
            vgc_validate::EvalError::Decode(_)
        ))
    ));
}
