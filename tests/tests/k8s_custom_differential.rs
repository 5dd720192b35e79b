//! The runtime's ports of k8s.io/api's and apimachinery's `+k8s:customValidation` functions (`vgc_runtime::k8s`)
//! against the Go functions themselves, call by call.
//!
//! The Go driver (`tests/upstream/k8s_custom_calls.go`, plus `k8s_custom_calls_138.go` for the functions 1.38
//! added) is built in a scratch module beside unchanged copies of `pkg/apis/core/v1/validation.go` and
//! `pkg/apis/lifecycle/v1alpha1/validation.go` of `k8s.io/kubernetes` (fetched by name through the Go module proxy
//! at test time; only the lifecycle file's import of core/v1 is pointed at the copy) and requires
//! `k8s.io/apimachinery` for `ValidateCustom_Condition_LastTransitionTime`, and the modules the copies import
//! (`github.com/distribution/reference`, `github.com/opencontainers/go-digest`) at the versions k8s.io/kubernetes'
//! `go.mod` requires. It generates the inputs itself from a seeded generator — domain-prefixed keys built from the
//! reserved suffixes, separators, Unicode white space and characters whose lower case is ASCII; int32 priorities
//! around the reserved range; times at and near Go's zero instant in several offsets; for 1.38 OCI image references
//! from the reference grammar's parts (domains, ports, IP literals, path separators, tags, digests of every
//! algorithm, length and case), at every length limit and mutated, and localhost profile paths — calls the Go
//! functions and prints each call with its errors. This test makes the same call through the runtime port and
//! compares the error lists exactly (type, field path, value, detail, origin, short-circuit and stability marks, in
//! order), and counts the distinct error details reached, asserting that each the ports can report occurred.
//!
//! Two release pairs: k8s.io/kubernetes v1.37.2 with k8s.io/apimachinery v0.37.2 (the four functions k8s.io/api
//! 1.35–1.37 names; `VGC_K8S_CUSTOM_KUBERNETES`/`VGC_K8S_CUSTOM_APIMACHINERY` override them), and v1.38.0-beta.0
//! with v0.38.0-beta.0 built with `GOTOOLCHAIN=go1.27.0` (all six; `VGC_K8S_CUSTOM_KUBERNETES_1_38`/
//! `VGC_K8S_CUSTOM_APIMACHINERY_1_38`). Module versions the Go module proxy refuses are replaced by the served ones
//! of `vgc_tests::harness::REFUSED_MODULES` (apimachinery v0.38.0-beta.0's `sigs.k8s.io/structured-merge-diff/v7`
//! v7.0.1, which none of the functions compared reaches), and the module is built without `go mod tidy` (which would
//! fetch the refused test dependencies of apimachinery's packages, `k8s.io/ktesting`). Size: `VGC_K8S_CUSTOM_CALLS`
//! (default 20,000) calls per pair, seed `VGC_K8S_CUSTOM_SEED` (default 1).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path as FsPath;
use std::process::Command;
use vgc_runtime::k8s;
use vgc_runtime::types::Time;
use vgc_runtime::{ErrorList, Operation, OperationType, Path};
use vgc_tests::differential::env_or;

const DRIVER: &str = include_str!("../upstream/k8s_custom_calls.go");
const DRIVER_138: &str = include_str!("../upstream/k8s_custom_calls_138.go");
const MODULE: &str = "vgc.test/k8scustom";

/// The modules k8s.io/kubernetes' copied `validation.go` files import besides apimachinery (1.38's core/v1: the
/// image-reference parser and its digest package), required at the versions k8s.io/kubernetes requires them (a
/// `go mod tidy` alone would take the newest).
const COPY_IMPORTS: &[&str] = &[
    "github.com/distribution/reference",
    "github.com/opencontainers/go-digest",
];

/// A release pair the driver is built against.
struct Release {
    /// k8s.io/kubernetes' version (the ported functions).
    kubernetes: String,
    /// k8s.io/apimachinery's version (`ValidateCustom_Condition_LastTransitionTime`, field errors).
    apimachinery: String,
    /// `GOTOOLCHAIN` for every `go` command (`auto`, or the toolchain the modules require).
    toolchain: &'static str,
    /// Whether the release has the 1.38 functions (`k8s_custom_calls_138.go` is built).
    has_1_38: bool,
}

/// Runs `go` in `dir` under `toolchain`, panicking with its stderr on failure; returns its standard output.
fn go(dir: &FsPath, toolchain: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new("go")
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", toolchain)
        .output()
        .expect("the `go` command runs");
    assert!(
        out.status.success(),
        "go {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The version `go.mod` text `gomod` requires of `module` (a `require` line, in a block or not).
fn required_version(gomod: &str, module: &str) -> Option<String> {
    gomod.lines().find_map(|l| {
        let mut words = l.trim().trim_start_matches("require").split_whitespace();
        (words.next() == Some(module))
            .then(|| words.next().map(str::to_string))
            .flatten()
    })
}

/// Builds the driver in `work` against `release` and returns its calls.
fn upstream_calls(work: &FsPath, release: &Release, n: usize, seed: u64) -> Vec<Value> {
    let tc = release.toolchain;
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work.join("cmd/calls")).expect("mkdir");
    std::fs::write(work.join("go.mod"), format!("module {MODULE}\n\ngo 1.25\n")).expect("go.mod");
    std::fs::write(work.join("cmd/calls/main.go"), DRIVER).expect("driver");
    if release.has_1_38 {
        std::fs::write(work.join("cmd/calls/k8s_custom_calls_138.go"), DRIVER_138).expect("driver");
    }
    let download = go(
        work,
        tc,
        &[
            "mod",
            "download",
            "-json",
            &format!("k8s.io/kubernetes@{}", release.kubernetes),
        ],
    );
    let download: Value = serde_json::from_slice(&download).expect("go mod download -json");
    let k8s_dir = download["Dir"].as_str().expect("Dir");
    vgc_tests::k8s_oracle::copy_kubernetes_ports(FsPath::new(k8s_dir), work, MODULE);
    let gomod =
        std::fs::read_to_string(FsPath::new(k8s_dir).join("go.mod")).expect("kubernetes go.mod");
    let mut get = vec![format!("k8s.io/apimachinery@{}", release.apimachinery)];
    get.extend(
        COPY_IMPORTS
            .iter()
            .filter_map(|m| required_version(&gomod, m).map(|v| format!("{m}@{v}"))),
    );
    let mut args = vec!["get"];
    args.extend(get.iter().map(String::as_str));
    go(work, tc, &args);
    for (module, refused, served) in vgc_tests::harness::REFUSED_MODULES {
        go(
            work,
            tc,
            &[
                "mod",
                "edit",
                &format!("-replace={module}@{refused}={module}@{served}"),
            ],
        );
    }
    go(work, tc, &["build", "-o", "calls", "./cmd/calls"]);
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
        "security_profile_oci_ref" => {
            let (n, o) = (string(value), string(old));
            k8s::security_profile_oci_ref(op, path, n.as_ref(), o.as_ref())
        }
        "security_profile_oci_base_localhost_profile" => {
            let (n, o) = (string(value), string(old));
            k8s::security_profile_oci_base_localhost_profile(op, path, n.as_ref(), o.as_ref())
        }
        other => panic!("a port the test does not call: {other}"),
    }
}

/// The error details the ports report, by (Go function, name): how an error line's body ends (`Invalid value:
/// "…": <detail>` or `Required value: <detail>`), and whether the run must reach it. Details with a value inside
/// (the remote name, the identifier) are recognised by their ends.
const DETAILS: &[(&str, &str, &[&str], bool)] = &[
    (
        "ValidateCustom_EvictionResponder_Name",
        "reserved domain",
        &["are reserved"],
        true,
    ),
    (
        "ValidateCustom_EvictionRequestSpec_Requester",
        "reserved domain",
        &["are reserved"],
        true,
    ),
    (
        "ValidateCustom_EvictionResponder_Priority",
        "reserved priority",
        &["with *.k8s.io suffix"],
        true,
    ),
    (
        "ValidateCustom_Condition_LastTransitionTime",
        "required",
        &["Required value"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "invalid reference format",
        &[": invalid reference format"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "remote name not lower case",
        &[
            ": invalid reference format: repository name (",
            ") must be lowercase",
        ],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "name contains upper case",
        &[": repository name must be lowercase"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "64-hex identifier",
        &["), cannot specify 64-byte hexadecimal strings"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "path over 255",
        &[": repository name must not be more than 255 characters"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "digest format",
        &[": invalid checksum digest format"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "digest length",
        &[": invalid checksum digest length"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "digest algorithm unsupported",
        &[": unsupported digest algorithm"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "not canonical",
        &[": repository name must be canonical"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "tagged",
        &[": must not contain a tag"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "not pinned",
        &[": must be pinned by digest (<registry>/<repository>@<algorithm>:<digest>)"],
        true,
    ),
    // go-digest v1.0.0 parses no other algorithm, so this check of the Go function cannot fail.
    (
        "ValidateCustom_SecurityProfileOCI_Ref",
        "algorithm not sha2",
        &[": digest algorithm must be sha256, sha384, or sha512"],
        false,
    ),
    (
        "ValidateCustom_SecurityProfileOCIBase_LocalhostProfile",
        "empty",
        &["Required value: must not be empty"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCIBase_LocalhostProfile",
        "absolute",
        &[": must be a relative path"],
        true,
    ),
    (
        "ValidateCustom_SecurityProfileOCIBase_LocalhostProfile",
        "'..' element",
        &[": must not contain '..'"],
        true,
    ),
];

/// The name of the [`DETAILS`] entry an upstream error line of `function` matches, or `"other"`.
fn detail_kind(function: &str, line: &str) -> &'static str {
    // `<field> | <body> | origin=… | sc=… | <level>`: the body is what is left after the last three fields.
    let body = line.rsplitn(4, " | ").nth(3).unwrap_or(line);
    DETAILS
        .iter()
        .find(|(f, _, marks, _)| {
            *f == function
                && match marks {
                    [end] => body.ends_with(end),
                    [inner, end] => body.contains(inner) && body.ends_with(end),
                    _ => false,
                }
        })
        .map_or("other", |(_, name, _, _)| name)
}

/// Inputs the run must reach besides error details, by name: accepted references per digest algorithm, values
/// left to `+k8s:maxLength` (more characters than the limit), values parsed although they have more bytes than the
/// limit in characters.
fn input_kinds(c: &Value, errors: usize) -> Vec<&'static str> {
    let mut kinds = Vec::new();
    let Some(value) = c["value"].as_str() else {
        return kinds;
    };
    let chars = value.chars().count();
    match c["fn"].as_str() {
        Some("ValidateCustom_SecurityProfileOCI_Ref") => {
            if errors == 0 {
                for alg in ["sha256", "sha384", "sha512"] {
                    if value.contains(&format!("@{alg}:")) {
                        kinds.push(match alg {
                            "sha256" => "ref accepted, sha256",
                            "sha384" => "ref accepted, sha384",
                            _ => "ref accepted, sha512",
                        });
                    }
                }
            }
            if chars > 1024 {
                kinds.push("ref over 1024 characters");
            } else if value.len() > 1024 {
                kinds.push("ref over 1024 bytes, at most 1024 characters");
            }
        }
        Some("ValidateCustom_SecurityProfileOCIBase_LocalhostProfile") => {
            if chars > 4096 {
                kinds.push("profile over 4096 characters");
            } else if value.len() > 4096 {
                kinds.push("profile over 4096 bytes, at most 4096 characters");
            }
            if errors == 0 {
                kinds.push("profile accepted");
            }
        }
        _ => {}
    }
    kinds
}

/// Compares every call with the port's and asserts the run: no mismatch, exactly the functions `expected` called,
/// each with and without errors, and every detail of [`DETAILS`] marked as required (of those functions) reached.
fn compare(label: &str, calls: &[Value], expected: &BTreeSet<&str>, input_kinds_required: &[&str]) {
    vgc_tests::differential::with_path_shapes(|paths| {
        // (calls, calls with errors) per function
        let mut by_fn: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut by_detail: BTreeMap<(String, &str), usize> = BTreeMap::new();
        let mut by_input: BTreeMap<&str, usize> = BTreeMap::new();
        let mut mismatches = Vec::new();
        for c in calls {
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
            for l in &want {
                *by_detail
                    .entry((name.to_string(), detail_kind(name, l)))
                    .or_default() += 1;
            }
            for k in input_kinds(c, want.len()) {
                *by_input.entry(k).or_default() += 1;
            }
            if got != want {
                mismatches.push(format!("{c}\n  vgc: {got:?}"));
            }
        }
        eprintln!(
            "{label}: {} calls, {} mismatches; per function (calls, with errors): {by_fn:?}",
            calls.len(),
            mismatches.len()
        );
        for ((f, kind), count) in &by_detail {
            eprintln!("  {f}: {kind}: {count}");
        }
        for (kind, count) in &by_input {
            eprintln!("  input: {kind}: {count}");
        }
        assert!(
            mismatches.is_empty(),
            "{} of {} calls differ; first ones:\n{}",
            mismatches.len(),
            calls.len(),
            mismatches[..mismatches.len().min(10)].join("\n")
        );
        // Exactly the expected functions, each with and without errors.
        let called: BTreeSet<&str> = by_fn.keys().map(String::as_str).collect();
        assert_eq!(&called, expected, "{by_fn:?}");
        assert!(
            by_fn
                .values()
                .all(|&(calls, errs)| errs > 0 && errs < calls),
            "{by_fn:?}"
        );
        // Every error line is a known detail, and every detail that can occur did.
        let other: Vec<_> = by_detail
            .iter()
            .filter(|((_, kind), _)| *kind == "other")
            .collect();
        assert!(
            other.is_empty(),
            "error lines of no known detail: {other:?}"
        );
        let missing: Vec<_> = DETAILS
            .iter()
            .filter(|(f, name, _, required)| {
                *required
                    && expected.contains(f)
                    && !by_detail.contains_key(&((*f).to_string(), *name))
            })
            .map(|(f, name, _, _)| format!("{f}: {name}"))
            .collect();
        assert!(missing.is_empty(), "details never reached: {missing:?}");
        let missing: Vec<_> = input_kinds_required
            .iter()
            .filter(|k| !by_input.contains_key(*k))
            .collect();
        assert!(missing.is_empty(), "inputs never generated: {missing:?}");
    });
}

/// The four functions k8s.io/api 1.35–1.37 names, against k8s.io/kubernetes v1.37.2 and apimachinery v0.37.2.
#[test]
fn runtime_ports_agree_with_the_go_functions() {
    let release = Release {
        kubernetes: env_or("VGC_K8S_CUSTOM_KUBERNETES", "v1.37.2".to_string()),
        apimachinery: env_or("VGC_K8S_CUSTOM_APIMACHINERY", "v0.37.2".to_string()),
        toolchain: "auto",
        has_1_38: false,
    };
    let n: usize = env_or("VGC_K8S_CUSTOM_CALLS", 20_000);
    let seed: u64 = env_or("VGC_K8S_CUSTOM_SEED", 1);
    let work = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/k8s-custom-calls");
    let calls = upstream_calls(&work, &release, n, seed);
    assert_eq!(calls.len(), n);
    let expected: BTreeSet<&str> = k8s::PORTS
        .iter()
        .map(|p| p.go_fn)
        .filter(|f| !f.starts_with("ValidateCustom_SecurityProfileOCI"))
        .collect();
    compare(
        &format!(
            "k8s custom ports vs k8s.io/kubernetes@{} + k8s.io/apimachinery@{} (seed {seed})",
            release.kubernetes, release.apimachinery
        ),
        &calls,
        &expected,
        &[],
    );
}

/// All six functions of k8s.io/api 1.38 — the four and `ValidateCustom_SecurityProfileOCI_Ref`,
/// `ValidateCustom_SecurityProfileOCIBase_LocalhostProfile` — against k8s.io/kubernetes v1.38.0-beta.0 and
/// apimachinery v0.38.0-beta.0 (Go 1.27).
#[test]
fn ports_agree_with_the_go_functions_of_1_38() {
    let release = Release {
        kubernetes: env_or(
            "VGC_K8S_CUSTOM_KUBERNETES_1_38",
            "v1.38.0-beta.0".to_string(),
        ),
        apimachinery: env_or(
            "VGC_K8S_CUSTOM_APIMACHINERY_1_38",
            "v0.38.0-beta.0".to_string(),
        ),
        toolchain: "go1.27.0",
        has_1_38: true,
    };
    let n: usize = env_or("VGC_K8S_CUSTOM_CALLS", 20_000);
    let seed: u64 = env_or("VGC_K8S_CUSTOM_SEED", 1);
    let work = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/k8s-custom-calls-1.38");
    let calls = upstream_calls(&work, &release, n, seed);
    assert_eq!(calls.len(), n);
    let expected: BTreeSet<&str> = k8s::PORTS.iter().map(|p| p.go_fn).collect();
    compare(
        &format!(
            "k8s custom ports vs k8s.io/kubernetes@{} + k8s.io/apimachinery@{} (seed {seed})",
            release.kubernetes, release.apimachinery
        ),
        &calls,
        &expected,
        &[
            "ref accepted, sha256",
            "ref accepted, sha384",
            "ref accepted, sha512",
            "ref over 1024 characters",
            "ref over 1024 bytes, at most 1024 characters",
            "profile over 4096 characters",
            "profile over 4096 bytes, at most 4096 characters",
            "profile accepted",
        ],
    );
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
