//! The runtime's ports of k8s.io/api's and apimachinery's `+k8s:customValidation` functions (`vgc_runtime::k8s`)
//! against the Go functions themselves, call by call.
//!
//! The Go driver (`tests/upstream/k8s_custom_calls.go`) is built in a scratch module beside unchanged copies of
//! `pkg/apis/core/v1/validation.go` and `pkg/apis/lifecycle/v1alpha1/validation.go` of `k8s.io/kubernetes` (fetched
//! by name through the Go module proxy at test time; only the lifecycle file's import of core/v1 is pointed at the
//! copy) and requires `k8s.io/apimachinery` for `ValidateCustom_Condition_LastTransitionTime`. It generates the
//! inputs itself from a seeded generator — domain-prefixed keys built from the reserved suffixes, separators,
//! Unicode white space and characters whose lower case is ASCII; int32 priorities around the reserved range; times
//! at and near Go's zero instant in several offsets — calls the Go functions and prints each call with its errors.
//! This test makes the same call through the runtime port and compares the error lists exactly (type, field path,
//! value, detail, origin, short-circuit and stability marks, in order).
//!
//! Size: `VGC_K8S_CUSTOM_CALLS` (default 20,000) calls, seed `VGC_K8S_CUSTOM_SEED` (default 1); the release pair
//! is k8s.io/kubernetes v1.37.2 with k8s.io/apimachinery v0.37.2 (the releases whose k8s.io/api names these four
//! functions; `VGC_K8S_CUSTOM_KUBERNETES`/`VGC_K8S_CUSTOM_APIMACHINERY` override them).

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path as FsPath;
use vgc_runtime::k8s;
use vgc_runtime::types::Time;
use vgc_runtime::{ErrorList, Operation, OperationType, Path};
use vgc_tests::differential::env_or;
use vgc_tests::harness::go;

const DRIVER: &str = include_str!("../upstream/k8s_custom_calls.go");
const MODULE: &str = "vgc.test/k8scustom";

/// Builds the driver in `work` and returns its calls.
fn upstream_calls(
    work: &FsPath,
    kubernetes: &str,
    apimachinery: &str,
    n: usize,
    seed: u64,
) -> Vec<Value> {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work.join("cmd/calls")).expect("mkdir");
    std::fs::write(work.join("go.mod"), format!("module {MODULE}\n\ngo 1.25\n")).expect("go.mod");
    std::fs::write(work.join("cmd/calls/main.go"), DRIVER).expect("driver");
    let (k8s_dir, _) =
        vgc_tests::harness::download_module(&format!("k8s.io/kubernetes@{kubernetes}"), work);
    vgc_tests::k8s_oracle::copy_kubernetes_ports(FsPath::new(&k8s_dir), work, MODULE);
    go(
        work,
        &["get", &format!("k8s.io/apimachinery@{apimachinery}")],
    );
    go(work, &["mod", "tidy"]);
    go(work, &["build", "-o", "calls", "./cmd/calls"]);
    vgc_tests::differential::driver_calls(&work.join("calls"), n, seed)
}

/// The call through the runtime port, as generated code makes it (values decoded as the generated structs decode
/// them).
fn ours(port: &k8s::Port, op: &Operation, path: &Path<'_>, c: &Value) -> ErrorList {
    let string = |v: &Value| v.as_str().map(str::to_string);
    let int32 = |v: &Value| v.as_i64().map(|x| i32::try_from(x).expect("an int32"));
    let time = |v: &Value| Some(serde_json::from_value::<Time>(v.clone()).expect("a time"));
    let (value, old) = (&c["value"], &c["old"]);
    match port.rust_fn {
        "eviction_responder_name" => {
            let (n, o) = (string(value), string(old));
            k8s::eviction_responder_name(op, path, n.as_ref(), o.as_ref())
        }
        "eviction_request_spec_requester" => {
            let (n, o) = (string(value), string(old));
            k8s::eviction_request_spec_requester(op, path, n.as_ref(), o.as_ref())
        }
        "eviction_responder_priority" => {
            let (n, o) = (int32(value), int32(old));
            k8s::eviction_responder_priority(op, path, n.as_ref(), o.as_ref())
        }
        "condition_last_transition_time" => {
            let n = time(value);
            let o = if old.is_null() && c["op"] == "create" {
                None
            } else {
                time(old)
            };
            k8s::condition_last_transition_time(op, path, n.as_ref(), o.as_ref())
        }
        other => panic!("a port the test does not call: {other}"),
    }
}

#[test]
fn runtime_ports_agree_with_the_go_functions() {
    let kubernetes: String = env_or("VGC_K8S_CUSTOM_KUBERNETES", "v1.37.2".to_string());
    let apimachinery: String = env_or("VGC_K8S_CUSTOM_APIMACHINERY", "v0.37.2".to_string());
    let n: usize = env_or("VGC_K8S_CUSTOM_CALLS", 20_000);
    let seed: u64 = env_or("VGC_K8S_CUSTOM_SEED", 1);
    let work = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/k8s-custom-calls");
    let calls = upstream_calls(&work, &kubernetes, &apimachinery, n, seed);
    assert_eq!(calls.len(), n);

    vgc_tests::differential::with_path_shapes(|paths| {
        // (calls, calls with errors) per function
        let mut by_fn: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut mismatches = Vec::new();
        for c in &calls {
            let name = c["fn"].as_str().expect("fn");
            let port = k8s::PORTS
                .iter()
                .find(|p| p.go_fn == name)
                .unwrap_or_else(|| panic!("no port for {name}"));
            let op = Operation {
                op_type: if c["op"] == "update" {
                    OperationType::Update
                } else {
                    OperationType::Create
                },
                ..Operation::default()
            };
            let (want, shape) = vgc_tests::differential::call_lines(c);
            let got: Vec<String> = ours(port, &op, paths[shape], c)
                .iter()
                .map(vgc_tests::interpreter::error_line)
                .collect();
            let e = by_fn.entry(name.to_string()).or_default();
            e.0 += 1;
            e.1 += usize::from(!want.is_empty());
            if got != want {
                mismatches.push(format!("{c}\n  vgc: {got:?}"));
            }
        }
        eprintln!(
            "k8s custom ports vs k8s.io/kubernetes@{kubernetes} + k8s.io/apimachinery@{apimachinery}: {n} calls \
         (seed {seed}), {} mismatches; per function (calls, with errors): {by_fn:?}",
            mismatches.len()
        );
        // Every port is exercised, with and without errors.
        assert_eq!(by_fn.len(), k8s::PORTS.len(), "{by_fn:?}");
        assert!(
            by_fn
                .values()
                .all(|&(calls, errs)| errs > 0 && errs < calls),
            "{by_fn:?}"
        );
        assert!(
            mismatches.is_empty(),
            "{} of {n} calls differ; first ones:\n{}",
            mismatches.len(),
            mismatches[..mismatches.len().min(10)].join("\n")
        );
    })
}

/// The ports are wired by default: `vgc validate`'s interpreter on k8s.io/api v0.37.2 (fetched by name) reaches
/// them on a Pod's `evictionResponders` and an EvictionRequest's `requester` and reports exactly the Go functions'
/// errors beside the declarative ones, with no hand-written function supplied.
#[test]
fn k8s_api_objects_reach_the_ports_by_default() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (api_dir, _) = vgc_tests::harness::download_module("k8s.io/api@v0.37.2", tmp.path());
    vgc_tests::harness::download_module("k8s.io/apimachinery@v0.37.2", tmp.path());
    let loaded = match vgc::validate::load_api(&vgc::validate::request(api_dir), None) {
        Ok(l) => l,
        Err(out) => panic!("k8s.io/api does not load: {:?}", out.diagnostics),
    };
    let lines = |doc: Value| -> Vec<String> {
        loaded
            .api
            .validate_document(&doc, None, &Operation::default())
            .expect("validates")
            .iter()
            .map(vgc_tests::interpreter::error_line)
            .collect()
    };
    let pod = serde_json::json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "i"}], "evictionResponders": [
            {"name": "acme.io/ok", "priority": 1000},
            {"name": "Node.Kubernetes.IO./drain", "priority": 999},
        ]},
    });
    assert_eq!(
        lines(pod),
        [
            "spec.evictionResponders[1].name | Invalid value: \"Node.Kubernetes.IO./drain\": domain names *.k8s.io, \
             *.kubernetes.io are reserved | origin= | sc=false | -",
            "spec.evictionResponders[1].name | Invalid value: \"Node.Kubernetes.IO./drain\": prefix part a lowercase \
             RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and \
             end with an alphanumeric character (e.g. 'example.com', regex used for validation is \
             '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') | origin=format=k8s-prefixed-label-key \
             | sc=false | -",
            "spec.evictionResponders[1].priority | Invalid value: 999: priorities 0-999 are reserved for responders \
             with *.k8s.io suffix | origin= | sc=false | -",
        ]
    );
    let eviction_request = serde_json::json!({
        "apiVersion": "lifecycle.k8s.io/v1alpha1", "kind": "EvictionRequest",
        "metadata": {"name": "e", "namespace": "default"},
        "spec": {"target": {"pod": {"name": "p", "uid": "11111111-1111-1111-1111-111111111111"}},
                 "requester": "k8s.io/x", "intent": "Eviction"},
    });
    assert_eq!(
        lines(eviction_request),
        [
            "spec.requester | Invalid value: \"k8s.io/x\": domain names *.k8s.io, *.kubernetes.io are reserved \
          | origin= | sc=false | -"
        ]
    );
}
