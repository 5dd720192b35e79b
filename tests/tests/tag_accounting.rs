//! Tag accounting: every validation tag use on a reachable type ends in exactly one bucket of the summary counts —
//! lowered into a check, consumed as metadata by a named consumer (list metadata, struct-level unions, modes and
//! dependent fields, `item`, opacity), or reported (an error, or the `VGC0201` warning for a use that has no
//! effect or is not lowered yet) — so `tags == lowered + consumed + reported + not_lowered`, and nothing is
//! dropped silently. Asserted on the bundled example, the conformance packages and upstream's own test packages
//! (`k8s.io/code-generator@v0.37.2`, `cmd/validation-gen/output_tests`, fetched through the Go module proxy; needs
//! `go`).

use std::path::{Path, PathBuf};
use std::process::Command;
use vgc::driver::{BuildOutcome, BuildRequest};
use vgc_codegen::RuntimeDep;

/// The pinned upstream module whose `output_tests` are checked.
const CODE_GENERATOR: &str = "k8s.io/code-generator@v0.37.2";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

fn check(path: &Path) -> BuildOutcome {
    vgc::build(&BuildRequest {
        path: path.to_string_lossy().into_owned(),
        out: None,
        crate_name: "accounting".into(),
        runtime: RuntimeDep::Path(root().join("runtime").to_string_lossy().into_owned()),
        extra_roots: Vec::new(),
        check_only: true,
        custom_stub: false,
        no_cache: true,
    })
}

/// The buckets add up, and no use was reported as having no effect or as not lowered.
fn assert_accounted(what: &str, out: &BuildOutcome) {
    let s = out.stats;
    assert!(s.tags > 0, "{what}: no tags counted: {s:?}");
    assert_eq!(
        s.tags,
        s.lowered + s.consumed + s.reported + s.not_lowered,
        "{what}: the buckets do not add up: {s:?}"
    );
    let vgc0201: Vec<&String> = out
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "VGC0201")
        .map(|d| &d.message)
        .collect();
    assert!(
        vgc0201.is_empty(),
        "{what}: uses without effect or not lowered: {vgc0201:#?}"
    );
    assert_eq!((s.reported, s.not_lowered), (0, 0), "{what}: {s:?}");
}

#[test]
fn example_tags_are_all_accounted_for() {
    let out = check(&root().join("examples/api"));
    assert_eq!(out.errors(), 0, "{:?}", out.diagnostics);
    assert_accounted("examples/api", &out);
    let s = out.stats;
    assert_eq!((s.tags, s.lowered, s.consumed), (124, 97, 27));
}

#[test]
fn conformance_tags_are_all_accounted_for() {
    let out = check(&root().join("tests/conformance"));
    assert_eq!(out.errors(), 0, "{:?}", out.diagnostics);
    assert_accounted("tests/conformance", &out);
}

#[test]
fn upstream_output_tests_tags_are_all_accounted_for() {
    let tmp = root().join("target/e2e/accounting");
    std::fs::create_dir_all(&tmp).expect("mkdir");
    let out = Command::new("go")
        .args(["mod", "download", "-json", CODE_GENERATOR])
        .current_dir(&tmp)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("the `go` command runs");
    assert!(
        out.status.success(),
        "go mod download {CODE_GENERATOR}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("go mod download -json");
    let dir = Path::new(v["Dir"].as_str().expect("Dir")).join("cmd/validation-gen/output_tests");
    let out = check(&dir);
    // The only errors: deviation D1 (`+k8s:validation:Required`, which upstream ignores, is an unknown tag).
    let others: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| {
            !(d.code.as_str() == "VGC0102" && d.message.contains("k8s:validation:Required"))
        })
        .map(|d| {
            format!(
                "{} {}: {}",
                d.code.as_str(),
                d.file.clone().unwrap_or_default(),
                d.message
            )
        })
        .collect();
    assert!(others.is_empty(), "{others:#?}");
    assert_accounted("output_tests", &out);
    assert!(out.stats.tags > 1500, "{:?}", out.stats);
}
