//! The direct printer of regular generated items (`codegen/src/emit/text.rs`: struct definitions, `pub type`
//! aliases, plain `Validate` impls) prints exactly what prettyplease prints for the same items' tokens. It exists
//! only to make builds faster (issue 12), so every difference is a bug. Population: every type of every plan built
//! here — the conformance package (recursive types, inline-embedded pointers, conflicting embedded JSON names,
//! typedef roots, subresource routing), the vgc example API, the k8s-openapi fixture (target k8s-openapi, which the
//! printer leaves to prettyplease) and the custom-validation fixture. k8s.io/api's 1,254 types are compared by
//! `k8s_e2e.rs` (`real_k8s_api_end_to_end`), which builds it anyway.

use std::path::{Path, PathBuf};
use vgc::driver::BuildRequest;
use vgc_codegen::{RuntimeDep, Target};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Builds `dir` and compares both printers on its plan: returns (items with a direct form, items printed
/// directly).
fn compare(dir: &Path, target: Option<Target>) -> (usize, usize) {
    let out = vgc::build(&BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        target,
        ..Default::default()
    });
    let types: usize = out.plan.modules.iter().map(|m| m.types.len()).sum();
    assert!(types > 0, "{}: no types planned", dir.display());
    let cmp = vgc_codegen::compare_direct_printer(&out.plan, target.unwrap_or_default()).unwrap();
    if let Some(d) = cmp.differences.first() {
        panic!(
            "{}: {} type(s) printed differently, first {}:\n--- direct\n{}\n--- prettyplease\n{}",
            dir.display(),
            cmp.differences.len(),
            d.ty,
            d.direct,
            d.prettyplease
        );
    }
    eprintln!(
        "{}: {types} types, {} of {} items printed directly",
        dir.display(),
        cmp.direct,
        cmp.items
    );
    (cmp.items, cmp.direct)
}

#[test]
fn direct_printer_equals_prettyplease_on_the_conformance_package() {
    let (items, direct) = compare(&tests_dir().join("conformance"), None);
    // Most items are plain; the odd shapes the package exists for (recursive structs, routed roots, conflicting
    // embedded JSON names) stay with prettyplease.
    assert!(direct * 3 > items, "{direct} of {items} covered");
    assert!(
        direct < items,
        "every item covered: the fallback is not exercised"
    );
}

#[test]
fn direct_printer_equals_prettyplease_on_the_example_and_fixtures() {
    let root = tests_dir();
    let (items, direct) = compare(&root.join("../examples/api"), None);
    assert!(direct > 0 && direct <= items);
    // The k8s-openapi target defines no types and implements its own trait: nothing is printed directly.
    let (_, direct) = compare(
        &root.join("fixtures/k8s-openapi/api"),
        Some(Target::K8sOpenapi(
            vgc_codegen::k8s_openapi::K8sOpenapiVersion::V1_37,
        )),
    );
    assert_eq!(direct, 0);
    compare(&root.join("fixtures/custom"), None);
}
