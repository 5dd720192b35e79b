//! Tag accounting: every validation tag use on a reachable type ends in exactly one bucket of the summary counts —
//! lowered into a check, consumed as metadata by a named consumer (list metadata, struct-level unions, modes and
//! dependent fields, `item`, opacity), or reported (an error, or the `VGC0201` warning for a use that has no
//! effect or is not lowered yet) — so `tags == lowered + consumed + reported + not_lowered`, and nothing is
//! dropped silently. Asserted on the bundled example, the conformance packages and upstream's own test packages
//! (`k8s.io/code-generator@v0.37.2`, `cmd/validation-gen/output_tests`, fetched through the Go module proxy; needs
//! `go`). There `vgc check` reports nothing but deviation D1's two kubebuilder-style `+k8s:validation:Required`
//! markers (VGC0128 warnings), and every package builds (`VGC_OUTPUT_TESTS_COMPILE=1` also compiles the generated
//! crate with `-D warnings`).

use std::path::{Path, PathBuf};
use vgc::driver::{BuildOutcome, BuildRequest};
use vgc_tests::harness;

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
        no_cache: true,
        ..BuildRequest::check(path.to_string_lossy(), Vec::new())
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
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = root().join("target/e2e/accounting");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("mkdir");
    harness::download_module("k8s.io/apimachinery@v0.37.2", &tmp);
    let module = PathBuf::from(harness::download_module(CODE_GENERATOR, &tmp).0);
    let dir = module.join("cmd/validation-gen/output_tests");
    let out = check(&dir);
    // The only diagnostics: deviation D1's marker-style tags (`+k8s:validation:Required`, which upstream ignores),
    // warnings.
    let d1 = |d: &vgc_ir::Diagnostic| {
        d.code.as_str() == "VGC0128"
            && d.severity == vgc_ir::Severity::Warning
            && d.message == "unknown tag \"k8s:validation:Required\""
    };
    let others: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| !d1(d))
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
    assert_eq!(
        (out.errors(), out.warnings()),
        (0, 2),
        "{:?}",
        out.diagnostics
    );
    assert_accounted("output_tests", &out);
    assert!(out.stats.tags > 1500, "{:?}", out.stats);

    // Every package builds, with no `vgc.toml`.
    let generated = tmp.join("generated");
    let out = vgc::build(&BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        out: Some(generated.clone()),
        crate_name: "output-tests-generated".into(),
        runtime: vgc_codegen::RuntimeDep::Path(
            root().join("runtime").to_string_lossy().into_owned(),
        ),
        custom_stub: true,
        no_cache: true,
        upstream: Some(vgc_ir::profile::Selected::new(
            vgc_ir::Upstream::V1_37,
            "upstream's output_tests of code-generator v0.37.2",
        )),
        ..Default::default()
    });
    assert_eq!(
        (out.errors(), out.warnings()),
        (0, 2),
        "{:?}",
        out.diagnostics
    );
    assert!(out.diagnostics.iter().all(d1), "{:?}", out.diagnostics);
    assert!(generated.join("src/lib.rs").is_file());
    // `VGC_OUTPUT_TESTS_COMPILE=1`: also compile the generated crate warning-free (about 1–3 minutes).
    if std::env::var_os("VGC_OUTPUT_TESTS_COMPILE").is_some() {
        let status = vgc_tests::harness::nested_cargo(
            &root().join("target/e2e"),
            &["build", "--quiet"],
            &generated.join("Cargo.toml"),
            true,
        )
        .status()
        .expect("nested cargo runs");
        assert!(
            status.success(),
            "the output_tests crate failed to build warning-free"
        );
    }
}

/// vgc's extension tags while no `vgc.toml` enables extensions (fixture `r16-extension-disabled`): each use is one
/// diagnostic, `VGC0116` — a bare `+k8s:union` is not also the catalog's missing argument (`VGC0104`, named in the
/// hint instead) — and is counted once, as reported, so the buckets still add up.
#[test]
fn disabled_extension_uses_are_one_diagnostic_and_one_count_each() {
    let out = check(&root().join("tests/fixtures/diagnostics/r16-extension-disabled"));
    let mut lines: Vec<(String, usize)> = out
        .diagnostics
        .iter()
        .map(|d| {
            let file = d.file.clone().unwrap_or_default();
            let text = &out.sources[&file];
            (file, text[..d.span.start].matches('\n').count() + 1)
        })
        .collect();
    let n = lines.len();
    lines.dedup();
    assert_eq!(
        lines.len(),
        n,
        "two diagnostics for one tag use: {:#?}",
        out.diagnostics
    );
    assert!(
        out.diagnostics.iter().all(|d| d.code.as_str() == "VGC0116"),
        "{:#?}",
        out.diagnostics
    );
    let union = out
        .diagnostics
        .iter()
        .find(|d| d.message.starts_with("Grouped.A: tag \"k8s:union\""))
        .expect("the bare union is reported");
    assert!(
        union.hint.as_deref().is_some_and(|h| h.contains(
            "still refused: tag \"k8s:union\": missing named argument \"union\" of type string (VGC0104)"
        )),
        "{union:?}"
    );
    let s = out.stats;
    assert_eq!(
        s.tags,
        s.lowered + s.consumed + s.reported + s.not_lowered,
        "{s:?}"
    );
    assert_eq!((n, s.reported, s.not_lowered), (6, 6, 0), "{s:?}");
}
