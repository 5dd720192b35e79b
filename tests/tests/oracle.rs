//! Differential check against the reference (phase 1: the example cases; phase 2: random objects, see
//! `tests/src/random_cases.rs`): upstream `validation-gen` (pinned, installed through the Go module
//! proxy) generates Go validators for the bundled example; vgc's Go driver (`tests/oracle/main.go`) runs every
//! case of `tests/example-generated/tests/cases.json` through them. Each upstream error list must equal the case's
//! `expect`, which `tests/example-generated/tests/cases.rs` asserts for the vgc-generated Rust. Works in
//! `target/e2e/oracle`; needs `go` and the module proxy.

use harness::{copy_dir, go, install_validation_gen, run_validation_gen};
use std::process::Command;

use vgc_tests::harness;
use vgc_tests::random_cases;

#[test]
fn upstream_generated_go_agrees_with_every_example_case() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let work = root.join("target/e2e/oracle");
    let gobin = root.join("target/e2e/gobin");
    let _ = std::fs::remove_dir_all(&work);
    copy_dir(&root.join("examples/api"), &work);
    install_validation_gen(&work, &gobin);

    // Upstream settings for a standalone run: no scheme registration, no lint, and the referenced meta/v1
    // package activated so that it carries its own validators (upstream expects read-only packages to).
    let doc = root.join("examples/api/widgets/v1/doc.go");
    let doc = std::fs::read_to_string(doc).expect("doc.go").replace(
        "// +k8s:validation-gen=TypesWithField=TypeMeta\n",
        "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-nolint\n",
    );
    std::fs::write(work.join("widgets/v1/doc.go"), doc).expect("doc.go");
    std::fs::write(
        work.join("meta/v1/doc.go"),
        "// +k8s:validation-gen=*\n// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-nolint\npackage v1\n",
    )
    .expect("meta doc.go");
    go(&work, &["get", &harness::apimachinery_module()]);
    run_validation_gen(
        &work,
        &gobin,
        &[],
        &["./widgets/v1".into(), "./meta/v1".into()],
    );
    std::fs::create_dir_all(work.join("cmd/oracle")).expect("cmd dir");
    std::fs::copy(
        root.join("tests/oracle/main.go"),
        work.join("cmd/oracle/main.go"),
    )
    .expect("driver");
    go(&work, &["mod", "tidy"]);
    go(&work, &["build", "-o", "oracle", "./cmd/oracle"]);

    let cases_path = root.join("tests/example-generated/tests/cases.json");
    let input = std::fs::File::open(&cases_path).expect("cases.json");
    let out = Command::new(work.join("oracle"))
        .stdin(input)
        .output()
        .expect("oracle runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("oracle JSON");
    let cases: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&cases_path).expect("cases"))
            .expect("cases JSON");
    assert_eq!(results.len(), cases.len());
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for (r, c) in results.iter().zip(&cases) {
        if r.get("skip").is_some() {
            continue;
        }
        compared += 1;
        if r["got"] != c["expect"] {
            mismatches.push(format!(
                "{}:\n  vgc (expected) {}\n  upstream       {}",
                c["name"], c["expect"], r["got"]
            ));
        }
    }
    eprintln!(
        "oracle: {compared} cases compared with upstream-generated Go, {} mismatches",
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(compared >= 55, "most cases are compared");

    // Phase 2: structure-aware random objects through both.
    random_cases::random_objects_agree_with_upstream(&root, &work.join("oracle"));
}
