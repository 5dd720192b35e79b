//! `examples/webhook`, the validating admission webhook over kube-rs' admission types, on real input: k8s.io/api
//! v0.37.2 (through the Go module proxy) compiled by `vgc_build::Config` with the k8s-openapi target — the call the
//! example's `build.rs` makes, run here in-process because this test has vgc compiled already (the example is
//! built without its `build-validators` feature, including that output) — then the example built out of the
//! workspace in `target/e2e/target` (sharing k8s-openapi with `k8s_openapi_e2e.rs`) and its binary fed
//! `AdmissionReview`s of ResourceClaims: CREATE and UPDATE (with the old object), allowed and denied, each answer
//! compared with the exact JSON expected. Then the denied answers' Status against upstream: the same error list
//! (from vgc's plan interpreter, which must agree with the webhook's causes) given to
//! `apierrors.NewInvalid` in Go (`tests/upstream/webhook_status.go`, against k8s.io/apimachinery v0.37.2): the
//! runtime's `status::invalid` JSON is Go's byte for byte, and the webhook's `status` is the same JSON value (kube-rs'
//! `Status` has no `kind`/`apiVersion` and orders its keys its own way).
//!
//! Needs `go` and the module proxy (and the network for crates.io).

use serde_json::{Value, json};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use vgc::driver::BuildRequest;
use vgc_codegen::Target;
use vgc_codegen::k8s_openapi::K8sOpenapiVersion;
use vgc_runtime::{BadValue, Operation};
use vgc_tests::harness;

const GO_DRIVER: &str = include_str!("../upstream/webhook_status.go");

/// A ResourceClaim that passes every declarative rule of resource.k8s.io/v1.
fn valid_claim() -> Value {
    json!({
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": "gpu-claim", "namespace": "default"},
        "spec": {"devices": {"requests": [
            {"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}
        ]}}
    })
}

/// A ResourceClaim breaking two rules: a toleration key that is no label key (`format=k8s-label-key`) and an opaque
/// configuration's driver that is no DNS subdomain (`format=k8s-long-name-caseless`).
fn invalid_claim() -> Value {
    let mut c = valid_claim();
    c["spec"]["devices"]["requests"][0]["exactly"]["tolerations"] =
        json!([{"key": "bad key!", "operator": "Exists"}]);
    c["spec"]["devices"]["config"] = json!([
        {"requests": ["gpu"], "opaque": {"driver": "Not_A_Driver", "parameters": {}}}
    ]);
    c
}

/// A ResourceSlice whose one error is an alpha rule's: a string attribute value over 64 bytes
/// (`+k8s:alpha(since: "1.37")=+k8s:eachVal=+k8s:maxBytes=64`), which the 1.37 API server does not enforce.
fn slice_with_long_attribute() -> Value {
    json!({
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": "slice"},
        "spec": {
            "driver": "gpu.example.com",
            "pool": {"name": "pool", "generation": 1, "resourceSliceCount": 1},
            "allNodes": true,
            "devices": [{"name": "dev", "attributes": {"model": {"strings": ["a".repeat(70)]}}}]
        }
    })
}

/// A DeviceClass with an opaque configuration for a driver.
fn device_class(driver: &str) -> Value {
    json!({
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": "gpu.example.com"},
        "spec": {"config": [{"opaque": {"driver": driver, "parameters": {}}}]}
    })
}

/// An `AdmissionReview` request for `object` (and `old`), as the API server sends it: `kind` and `resource` from
/// the object's `apiVersion` and `kind`.
fn review(uid: &str, operation: &str, object: &Value, old: Option<&Value>) -> Value {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let kind = object["kind"].as_str().unwrap_or("ResourceClaim");
    let lower = kind.to_lowercase();
    let resource = if lower.ends_with('s') {
        format!("{lower}es")
    } else {
        format!("{lower}s")
    };
    json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": uid,
            "kind": {"group": group, "version": version, "kind": kind},
            "resource": {"group": group, "version": version, "resource": resource},
            "name": object["metadata"]["name"],
            "namespace": object["metadata"]["namespace"],
            "operation": operation,
            "userInfo": {"username": "admin", "groups": ["system:masters"]},
            "object": object,
            "oldObject": old,
            "dryRun": false
        }
    })
}

/// The webhook binary's answer to `input`.
fn answer(bin: &Path, input: &Value) -> String {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the webhook binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("write the review");
    let out = child.wait_with_output().expect("the webhook answers");
    assert!(
        out.status.success(),
        "vgc-webhook: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
#[allow(clippy::too_many_lines)]
fn webhook_answers_admission_reviews() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = vgc_tests::harness::e2e_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    let (api_dir, version) = harness::download_module("k8s.io/api@v0.37.2", tmp.path());
    harness::download_module(&format!("k8s.io/apimachinery@{version}"), tmp.path());
    let package = Path::new(&api_dir).join("resource/v1");

    // 1. The validators: what the example's build.rs does, outside a build script.
    let generated = e2e.join("webhook-generated");
    let built = vgc_build::Config::new()
        .roots(["TypesWithField=TypeMeta"])
        .k8s_openapi("1.37")
        .out_dir(&generated)
        .cargo_metadata(false)
        .compile(&package)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(built.warnings.is_empty(), "{:#?}", built.warnings);

    // 2. The example, out of the workspace, warning-free.
    let start = std::time::Instant::now();
    let status = harness::nested_cargo(
        &e2e,
        &[
            "build",
            "--quiet",
            "--bin",
            "vgc-webhook",
            "--no-default-features",
            "--features",
            "kube",
        ],
        &root.join("examples/webhook/Cargo.toml"),
        true,
    )
    .env("VGC_WEBHOOK_GENERATED", &built.file)
    .status()
    .expect("nested cargo runs");
    assert!(status.success(), "examples/webhook failed to build");
    eprintln!(
        "webhook: validators of k8s.io/api {version} resource/v1 generated; examples/webhook built in {:.0}s",
        start.elapsed().as_secs_f64()
    );
    let bin = e2e.join("target/debug/vgc-webhook");

    // 3. The answers.
    let valid = valid_claim();
    let invalid = invalid_claim();
    let mut changed = valid.clone();
    changed["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] =
        json!("other.example.com");
    let class = device_class("gpu.example.com");
    let mut more_selectors = class.clone();
    more_selectors["spec"]["selectors"] = json!([{"cel": {"expression": "true"}}]);
    let mut bad_class = device_class("Not_A_Driver");
    bad_class["spec"]["selectors"] = Value::from(vec![json!({"cel": {"expression": "true"}}); 33]);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "create, valid: allowed",
            review("uid-1", "CREATE", &valid, None),
            EXPECT_CREATE_ALLOWED,
        ),
        (
            "create, invalid: denied with both errors",
            review("uid-2", "CREATE", &invalid, None),
            EXPECT_CREATE_DENIED,
        ),
        (
            "update, invalid values unchanged: allowed (ratcheting)",
            review("uid-3", "UPDATE", &invalid, Some(&invalid)),
            EXPECT_UPDATE_RATCHETED,
        ),
        (
            "update, spec changed: denied (spec is immutable)",
            review("uid-4", "UPDATE", &changed, Some(&valid)),
            EXPECT_UPDATE_IMMUTABLE,
        ),
        (
            "update of a DeviceClass, valid: allowed",
            review("uid-5", "UPDATE", &more_selectors, Some(&class)),
            EXPECT_UPDATE_ALLOWED,
        ),
        (
            "update of a DeviceClass to invalid values: denied",
            review("uid-6", "UPDATE", &bad_class, Some(&class)),
            EXPECT_UPDATE_DENIED,
        ),
        (
            "create of a ResourceSlice breaking only an alpha rule: allowed, the error a warning (shadowed)",
            review("uid-9", "CREATE", &slice_with_long_attribute(), None),
            EXPECT_CREATE_SHADOWED,
        ),
    ];
    let mut got_statuses = Vec::new();
    for (what, input, expected) in &cases {
        let got = answer(&bin, input);
        assert_eq!(got.trim_end(), *expected, "{what}");
        got_statuses.push(serde_json::from_str::<Value>(&got).expect("JSON answer"));
    }
    // Not a kind of the webhook (allowed), and an object without apiVersion/kind (DispatchError::MissingTypes: 400).
    let config_map = review(
        "uid-7",
        "CREATE",
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}),
        None,
    );
    assert_eq!(answer(&bin, &config_map).trim_end(), EXPECT_OTHER_KIND);
    let mut untyped = valid.clone();
    let m = untyped.as_object_mut().expect("object");
    m.remove("apiVersion");
    m.remove("kind");
    let mut untyped = review("uid-8", "CREATE", &untyped, None);
    untyped["request"]["kind"] =
        json!({"group": "resource.k8s.io", "version": "v1", "kind": "ResourceClaim"});
    untyped["request"]["resource"] =
        json!({"group": "resource.k8s.io", "version": "v1", "resource": "resourceclaims"});
    assert_eq!(answer(&bin, &untyped).trim_end(), EXPECT_UNTYPED);

    // 4. The denied Status against upstream's NewInvalid for the same error list.
    let req = BuildRequest {
        path: package.to_string_lossy().into_owned(),
        extra_roots: vec!["TypesWithField=TypeMeta".into()],
        target: Some(Target::K8sOpenapi(K8sOpenapiVersion::V1_37)),
        no_cache: true,
        ..Default::default()
    };
    let out = vgc::build(&req);
    assert_eq!(out.errors(), 0, "{:?}", out.diagnostics);
    let kinds = vgc_lowering::plan::kinds(&out.plan.modules);
    let interp = vgc_validate::Interpreter::new(&out.plan);
    let mut go_input = Vec::new();
    let mut ours = Vec::new();
    for ((what, input, _), answer) in cases.iter().zip(&got_statuses) {
        if answer["response"]["allowed"] == json!(true) {
            continue;
        }
        let request = &input["request"];
        let old = request.get("oldObject").filter(|o| !o.is_null());
        let op = if old.is_some() {
            Operation::update()
        } else {
            Operation::create()
        };
        let kind = request["kind"]["kind"].as_str().expect("kind");
        let key = &kinds.iter().find(|k| k.kind == kind).expect("a kind").key;
        let errs = interp
            .validate(key, &request["object"], old, &op)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let name = request["name"].as_str().expect("name");
        let status = vgc_runtime::status::invalid("resource.k8s.io", kind, name, &errs);
        // The webhook's status is the runtime's, without kind/apiVersion.
        let mut expected = serde_json::to_value(&status).expect("status");
        let m = expected.as_object_mut().expect("object");
        m.remove("kind");
        m.remove("apiVersion");
        assert_eq!(answer["response"]["status"], expected, "{what}");
        go_input.push(json!({
            "group": "resource.k8s.io",
            "kind": kind,
            "name": name,
            "errors": errs.iter().map(|e| json!({
                "type": e.error_type.cause_type(),
                "field": e.field,
                "value": match &e.bad_value {
                    BadValue::None => json!({}),
                    BadValue::Str(s) => json!({"s": s}),
                    BadValue::Int(i) => json!({"i": i}),
                    BadValue::Bool(b) => json!({"b": b}),
                    BadValue::Json(Value::Null) => json!({"n": true}),
                    BadValue::Json(v) => panic!("{what}: a JSON bad value {v} (the Go driver takes scalars)"),
                },
                "detail": e.detail,
            })).collect::<Vec<_>>(),
        }));
        ours.push(status.to_json());
    }
    assert_eq!(ours.len(), 3, "the denied cases");
    let work = e2e.join("webhook-status-go");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("mkdir");
    std::fs::write(
        work.join("go.mod"),
        "module vgc.test/webhookstatus\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::write(work.join("main.go"), GO_DRIVER).expect("driver");
    harness::go(&work, &["get", &format!("k8s.io/apimachinery@{version}")]);
    harness::go(&work, &["mod", "tidy"]);
    harness::go(&work, &["build", "-o", "status", "."]);
    let mut child = Command::new(work.join("status"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the Go driver runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(Value::from(go_input).to_string().as_bytes())
        .expect("write");
    let go_out = child.wait_with_output().expect("the Go driver answers");
    assert!(go_out.status.success());
    let theirs: Vec<String> = String::from_utf8(go_out.stdout)
        .expect("UTF-8")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        ours, theirs,
        "status::invalid differs from apierrors.NewInvalid"
    );

    // 5. The registry is shared by both targets: the committed example crate of vgc's own structs
    // (`tests/example-generated`) with its `kube` feature dispatches a DynamicObject too.
    let own = e2e.join("kube-own-structs");
    std::fs::create_dir_all(own.join("src")).expect("mkdir");
    std::fs::write(
        own.join("Cargo.toml"),
        format!(
            "[package]\nname = \"kube-own-structs\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nvgc-example-generated = {{ path = {:?}, features = [\"kube\"] }}\nvgc-runtime = {{ path = {:?} }}\n# A kube-rs user's: a k8s-openapi version feature (kube-core's `admission` as examples/webhook has it, to share its build).\nk8s-openapi = {{ version = \"0.29\", features = [\"v1_37\"] }}\nkube-core = {{ version = \"5\", default-features = false, features = [\"admission\"] }}\nserde_json = \"1\"\n",
            root.join("tests/example-generated").to_string_lossy(),
            root.join("runtime").to_string_lossy(),
        ),
    )
    .expect("Cargo.toml");
    std::fs::write(own.join("src/main.rs"), OWN_STRUCTS_MAIN).expect("main.rs");
    let out = harness::nested_cargo(&e2e, &["run", "--quiet"], &own.join("Cargo.toml"), true)
        .output()
        .expect("nested cargo runs");
    assert!(
        out.status.success(),
        "kube feature on vgc's own structs: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "spec.displayName: Invalid value: \"Not_OK\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n\
         MissingTypes\n\
         OldKindMismatch { api_version: \"widgets.example.com/v1\", kind: \"Gadget\" }\n"
    );
    eprintln!(
        "webhook: {} answers as expected; {} denied Status equal to Go's apierrors.NewInvalid byte for byte",
        cases.len() + 2,
        ours.len()
    );
}

/// `validate_dynamic_object` of the example crate of vgc's own structs: a Widget's error, an object without `types`,
/// an old object of another kind.
const OWN_STRUCTS_MAIN: &str = r###"use vgc_example_generated::registry;
use vgc_runtime::Operation;

fn main() {
    let obj: kube_core::DynamicObject = serde_json::from_str(
        r##"{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"displayName":"Not_OK"}}"##,
    )
    .expect("a DynamicObject");
    for e in registry::validate_dynamic_object(&obj, None, &Operation::create()).expect("a Widget") {
        println!("{e}");
    }
    let mut untyped = obj.clone();
    untyped.types = None;
    let e = registry::validate_dynamic_object(&untyped, None, &Operation::create()).expect_err("no types");
    println!("{e:?}");
    let mut other = obj.clone();
    other.types.as_mut().expect("types").kind = "Gadget".into();
    let e = registry::validate_dynamic_object(&obj, Some(&other), &Operation::update()).expect_err("another kind");
    println!("{e:?}");
}
"###;

/// CREATE of a valid ResourceClaim: allowed, the uid echoed.
const EXPECT_CREATE_ALLOWED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":true,"status":{}}}"#;
/// CREATE of the invalid ResourceClaim: denied, both errors as causes.
const EXPECT_CREATE_DENIED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-2","allowed":false,"status":{"status":"Failure","code":422,"message":"ResourceClaim.resource.k8s.io \"gpu-claim\" is invalid: [spec.devices.requests[0].exactly.tolerations[0].key: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.devices.config[0].opaque.driver: Invalid value: \"Not_A_Driver\": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]","metadata":{},"reason":"Invalid","details":{"name":"gpu-claim","group":"resource.k8s.io","kind":"ResourceClaim","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')","field":"spec.devices.requests[0].exactly.tolerations[0].key"},{"reason":"FieldValueInvalid","message":"Invalid value: \"Not_A_Driver\": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')","field":"spec.devices.config[0].opaque.driver"}]}}}}"#;
/// UPDATE leaving the invalid values as they were: allowed (ratcheting).
const EXPECT_UPDATE_RATCHETED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-3","allowed":true,"status":{}}}"#;
/// UPDATE changing a ResourceClaim's spec: denied (`+k8s:immutable`, upstream's `Invalid(path, nil, …)`).
const EXPECT_UPDATE_IMMUTABLE: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-4","allowed":false,"status":{"status":"Failure","code":422,"message":"ResourceClaim.resource.k8s.io \"gpu-claim\" is invalid: spec: Invalid value: null: field is immutable","metadata":{},"reason":"Invalid","details":{"name":"gpu-claim","group":"resource.k8s.io","kind":"ResourceClaim","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: null: field is immutable","field":"spec"}]}}}}"#;
/// UPDATE of a DeviceClass (a mutable spec) to valid values: allowed.
const EXPECT_UPDATE_ALLOWED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-5","allowed":true,"status":{}}}"#;
/// UPDATE of a DeviceClass to invalid values: denied (`maxItems`, `format`).
const EXPECT_UPDATE_DENIED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-6","allowed":false,"status":{"status":"Failure","code":422,"message":"DeviceClass.resource.k8s.io \"gpu.example.com\" is invalid: [spec.selectors: Too many: 33: must have at most 32 items, spec.config[0].opaque.driver: Invalid value: \"Not_A_Driver\": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]","metadata":{},"reason":"Invalid","details":{"name":"gpu.example.com","group":"resource.k8s.io","kind":"DeviceClass","causes":[{"reason":"FieldValueTooMany","message":"Too many: 33: must have at most 32 items","field":"spec.selectors"},{"reason":"FieldValueInvalid","message":"Invalid value: \"Not_A_Driver\": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')","field":"spec.config[0].opaque.driver"}]}}}}"#;
/// An alpha rule's error only: allowed, the error in `warnings` (`vgc_webhook_example::ENFORCE`).
const EXPECT_CREATE_SHADOWED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-9","allowed":true,"status":{},"warnings":["shadowed: spec.devices[0].attributes[model].strings[0]: Too long: may not be more than 64 bytes"]}}"#;
/// A kind the webhook has no rules for: allowed.
const EXPECT_OTHER_KIND: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-7","allowed":true,"status":{}}}"#;
/// An object without `apiVersion`/`kind` (`DispatchError::MissingTypes`): denied, 400 BadRequest.
const EXPECT_UNTYPED: &str = r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-8","allowed":false,"status":{"status":"Failure","code":400,"message":"the object cannot be validated: the object has no apiVersion and kind (DynamicObject::types)","reason":"BadRequest"}}}"#;
