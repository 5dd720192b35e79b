//! `vgc validate`'s defaulting against upstream defaulter-gen (code-generator at the oracle's upstream version), on
//! random objects generated on the Go side.
//!
//! The API is `cli/tests/validate/defaults-api/v1` (every defaulting rule vgc implements: pointers, zero values
//! through typedefs, `ref(...)` constants, default structs with their own defaults, list items, map values, inline
//! and embedded-pointer structs, type-level `+default`s). A copy in a temporary module gets defaulter-gen's
//! `SetObjectDefaults_Gadget`; a Go driver (`tests/upstream/defaults_oracle.go`) fills `VGC_DEFAULTS_ORACLE_CASES`
//! (default 20,000) `Gadget`s with sigs.k8s.io/randfill (seed `VGC_DEFAULTS_ORACLE_SEED`, default 1) — from the
//! Go types, independent of vgc's plan — plus the hand-written documents below. vgc's interpreter
//! (`Interpreter::apply_defaults`) defaults each; the driver decodes the input, runs `SetObjectDefaults_Gadget`,
//! and compares its encoding with the encoding of vgc's result decoded into the same Go type (no defaulting).
//! Not covered: hand-written `SetDefaults_*` functions (vgc does not read Go code), values that do not decode
//! into the Go type (the driver's objects always do).

use serde_json::{Value, json};
use std::process::{Command, Stdio};
use vgc::driver::BuildRequest;
use vgc_tests::differential::env_or;
use vgc_tests::harness::{code_generator_module, go, upstream_version};
use vgc_validate::Interpreter;

const DRIVER: &str = include_str!("../upstream/defaults_oracle.go");

/// Documents written by hand for the rules the random fill reaches rarely (nulls inside lists and maps, empty
/// lists, an absent spec).
fn hand_written() -> Vec<(String, Value)> {
    let gadget = |spec: Value| json!({"apiVersion": "gadgets.example.com/v1", "kind": "Gadget", "spec": spec});
    vec![
        (
            "no spec".into(),
            json!({"apiVersion": "gadgets.example.com/v1", "kind": "Gadget"}),
        ),
        ("null spec".into(), gadget(Value::Null)),
        ("empty spec".into(), gadget(json!({}))),
        (
            "nulls and zeros".into(),
            gadget(
                json!({"limit": null, "replicas": 0, "protocol": "", "tags": null, "ports": [{"port": 1}, {}],
                "named": {"a": {"port": 2}, "b": null}, "disruption": null}),
            ),
        ),
        (
            "empty collections".into(),
            gadget(json!({"tags": [], "ports": [], "named": {}})),
        ),
        (
            "type-level defaults".into(),
            gadget(
                json!({"paint": {"shade": "", "palette": ["green", "", null], "swatches": {"a": "green",
                "b": "", "c": null}, "pointed": ["green", null], "box": null, "pShade": null,
                "pShades": [null, "x"]}}),
            ),
        ),
        (
            "embedded pointer".into(),
            gadget(json!({"color": "red", "shared": "x"})),
        ),
        (
            "default struct with defaults inside".into(),
            gadget(json!({"disruption": {}, "paint": {}})),
        ),
    ]
}

#[test]
fn defaults_agree_with_defaulter_gen() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let api = root.join("cli/tests/validate/defaults-api");
    let work = root.join("target/e2e/defaults-oracle");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(work.join("v1")).expect("mkdir");
    std::fs::create_dir_all(work.join("cmd/oracle")).expect("mkdir");

    // The Go side: the fixture's types in a module of their own, defaulter-gen's output, the driver.
    std::fs::copy(api.join("v1/types.go"), work.join("v1/types.go")).expect("copy types.go");
    std::fs::write(
        work.join("v1/doc.go"),
        "// +k8s:defaulter-gen=TypeMeta\n// +groupName=gadgets.example.com\npackage v1\n",
    )
    .expect("doc.go");
    // defaulter-gen registers `SetObjectDefaults_Gadget` in a runtime.Scheme, which takes runtime.Objects.
    std::fs::write(
        work.join("v1/object.go"),
        "package v1\n\nimport (\n\t\"k8s.io/apimachinery/pkg/runtime\"\n\t\"k8s.io/apimachinery/pkg/runtime/schema\"\n)\n\n\
         func (g *Gadget) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }\n\n\
         func (g *Gadget) DeepCopyObject() runtime.Object { c := *g; return &c }\n",
    )
    .expect("object.go");
    std::fs::write(work.join("cmd/oracle/main.go"), DRIVER).expect("main.go");
    std::fs::write(work.join("header.txt"), "").expect("header");
    std::fs::write(
        work.join("go.mod"),
        "module example.com/defaults-oracle\n\ngo 1.25\n",
    )
    .expect("go.mod");
    go(
        &work,
        &[
            "get",
            &format!("k8s.io/apimachinery@{}", upstream_version()),
        ],
    );
    go(&work, &["mod", "tidy"]);
    let generator = code_generator_module().replace('@', "/cmd/defaulter-gen@");
    go(
        &work,
        &[
            "run",
            &generator,
            "--go-header-file",
            "header.txt",
            "--output-file",
            "zz_generated.defaults.go",
            "./v1",
        ],
    );
    assert!(
        work.join("v1/zz_generated.defaults.go").exists(),
        "defaulter-gen wrote nothing"
    );
    go(&work, &["build", "-o", "oracle", "./cmd/oracle"]);

    // The cases: random objects from the Go types, then the hand-written ones.
    let n: usize = env_or("VGC_DEFAULTS_ORACLE_CASES", 20_000);
    let seed: u64 = env_or("VGC_DEFAULTS_ORACLE_SEED", 1);
    let out = Command::new(work.join("oracle"))
        .args(["gen", &n.to_string(), &seed.to_string()])
        .output()
        .expect("the driver runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut cases: Vec<(String, Value)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .enumerate()
        .map(|(i, l)| {
            (
                format!("random {i}"),
                serde_json::from_str(l).expect("driver JSON"),
            )
        })
        .collect();
    assert_eq!(cases.len(), n);
    cases.extend(hand_written());

    // vgc: the plan of the same API, the interpreter's defaults.
    let built = vgc::build(&BuildRequest {
        path: api.to_string_lossy().into_owned(),
        check_only: true,
        no_cache: true,
        ..Default::default()
    });
    assert!(
        built.errors() == 0,
        "the fixture API does not lower: {:?}",
        built.diagnostics
    );
    let interp = Interpreter::new(&built.plan);
    let key = interp
        .roots()
        .into_iter()
        .find(|t| t.key.name == "Gadget" && t.key.pkg.ends_with("/v1"))
        .map(|t| t.key.clone())
        .expect("the v1 Gadget root");
    let mut lines = String::new();
    let mut defaulted = 0usize;
    for (name, input) in &cases {
        let mut value = input.clone();
        if !interp.apply_defaults(&key, &mut value).is_empty() {
            defaulted += 1;
        }
        lines.push_str(&json!({"name": name, "input": input, "vgc": value}).to_string());
        lines.push('\n');
    }

    let mut child = Command::new(work.join("oracle"))
        .arg("check")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the driver runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        stdin.write_all(lines.as_bytes()).expect("write cases");
    });
    let out = child.wait_with_output().expect("the driver ends");
    writer.join().expect("writer");
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).expect("driver report");
    let mismatches = report["mismatches"].as_array().expect("mismatches");
    eprintln!(
        "defaults oracle: {} cases ({n} random, seed {seed}, {} hand-written), {defaulted} defaulted by vgc, {} mismatches",
        report["cases"],
        cases.len() - n,
        mismatches.len()
    );
    assert_eq!(report["cases"].as_u64(), Some(cases.len() as u64));
    assert!(
        mismatches.is_empty(),
        "{} of {} cases differ from defaulter-gen; first: {:#}",
        mismatches.len(),
        cases.len(),
        mismatches[0]
    );
    // The population must exercise defaulting: most random objects leave some defaulted field unset.
    assert!(
        defaulted * 2 > cases.len(),
        "only {defaulted} cases defaulted"
    );
}
