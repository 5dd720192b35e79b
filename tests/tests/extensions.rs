//! vgc's extensions (`docs/extensions.md`) over the packages `tests/extensions/constraints` (field-path
//! constraints), `tests/extensions/subresources` (subresource conditions) and `tests/extensions/virtual` (virtual
//! fields); their `vgc.toml` enables extensions. Upstream validation-gen does not implement them, so there is
//! no upstream run: each case of `cases.json` (object, old object → the exact error lines `<field> | <ErrorBody> |
//! origin=<origin> | sc=<short-circuit> | <alpha|beta|->`, as in the conformance suite) pins vgc's behaviour.
//!
//! 1. `vgc build` generates a crate for the package; a runner built from it validates every case; the lines must
//!    equal `expect`.
//! 2. The interpreter (`vgc validate`) gives the same lines on the same cases.
//! 3. Random objects from the plan (`tests/src/plan_random.rs`, `VGC_EXTENSIONS_CASES`, default 2,000) through the
//!    generated Rust and the interpreter agree.
//!
//! Works in `target/e2e/extensions`; needs no Go.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;
use vgc_tests::differential::{self, env_or};
use vgc_tests::{harness, plan_random};

fn cargo_build(manifest: &Path, target: &Path) {
    let out = vgc_tests::harness::cargo_in(target, &["build", "--quiet"], Some(manifest), true)
        .output()
        .expect("nested cargo runs");
    assert!(
        out.status.success(),
        "the extensions crate failed to build warning-free:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The module `tests/<dir>` (Go module path `module`): 1–3 of the module documentation, with `stats` the expected
/// (tags, lowered, consumed, reported) counts.
fn suite(dir: &str, module: &str, stats: (usize, usize, usize, usize)) {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let src = root.join("tests").join(dir);
    let e2e = root.join("target/e2e");
    let work = e2e.join(dir);
    let lib = format!("vgc_{}_generated", dir.replace('-', "_"));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("mkdir");

    // 1. vgc: generate and build a runner.
    let generated = work.join("generated");
    let out = vgc::build(&BuildRequest {
        path: src.to_string_lossy().into_owned(),
        out: Some(generated.clone()),
        crate_name: lib.replace('_', "-"),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        ..Default::default()
    });
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "{shown:#?}");
    assert_eq!(vgc::exit_code(&out), 0);
    assert_eq!(
        (
            out.stats.tags,
            out.stats.lowered,
            out.stats.consumed,
            out.stats.reported
        ),
        stats,
        "{:?}",
        out.stats
    );
    let runner = work.join("runner");
    std::fs::create_dir_all(runner.join("src")).expect("mkdir runner");
    std::fs::write(
        runner.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{dir}-runner\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{} = {{ path = {:?} }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
            lib.replace('_', "-"),
            generated.to_string_lossy(),
            root.join("runtime").to_string_lossy()
        ),
    )
    .expect("runner Cargo.toml");
    let mut generator = plan_random::Generator::new(&out.plan);
    std::fs::write(
        runner.join("src/main.rs"),
        harness::rust_runner(&lib, &generator.roots, false),
    )
    .expect("runner main.rs");
    cargo_build(&runner.join("Cargo.toml"), &e2e.join("target"));
    let rust_bin = e2e.join(format!("target/debug/{dir}-runner"));

    let mut cases = Vec::new();
    for pkg in harness::package_dirs(&src, &|f| f.ends_with(".go")) {
        let file = src.join(&pkg).join("cases.json");
        let text = std::fs::read_to_string(&file).expect("cases.json");
        let list: Vec<Value> = serde_json::from_str(&text).expect("cases parse");
        for mut c in list {
            let kind = c["kind"].as_str().expect("kind").to_string();
            c["kind"] = json!(format!("{module}/{pkg}.{kind}"));
            cases.push(c);
        }
    }
    assert!(cases.len() >= 10, "{} cases", cases.len());
    let ours = differential::run(
        &mut Command::new(&rust_bin),
        &serde_json::to_string(&cases).expect("cases"),
    );
    let mut failures = Vec::new();
    for (c, r) in cases.iter().zip(&ours) {
        if r["got"] != c["expect"] {
            failures.push(format!(
                "{}: expected {:#}, the generated Rust gave {:#}",
                c["name"], c["expect"], r
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // 2. The interpreter on the same cases.
    let agreement = vgc_tests::interpreter::agree(&out.plan, &cases, &ours, false, |i| i);
    eprintln!("{dir}-fixed interpreter: {}", agreement.line());
    agreement.assert_clean(&work.join("fixed-interpreter-mismatches.txt"));

    // 3. Random objects through both.
    let n = env_or("VGC_EXTENSIONS_CASES", 2_000);
    let seed = env_or("VGC_EXTENSIONS_SEED", 1) as u64;
    let random = harness::random_cases(&mut generator, n, seed, dir, &BTreeSet::new());
    let ours = differential::run(
        &mut Command::new(&rust_bin),
        &serde_json::to_string(&random).expect("cases"),
    );
    let agreement = vgc_tests::interpreter::agree(&out.plan, &random, &ours, false, |i| i);
    eprintln!("{dir}-random interpreter: {}", agreement.line());
    agreement.assert_clean(&work.join("random-interpreter-mismatches.txt"));
    assert!(
        agreement.with_errors > n / 20,
        "random objects reach the constraints: {}",
        agreement.line()
    );
}

#[test]
fn field_path_constraints_match_expectations_in_rust_and_the_interpreter() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    // Every tag use of the packages is accounted for. `constraints`: of its 20 `+k8s:` lines (the field-path
    // constraints, exclusive forms, the `target:` form on the type and the 6 forms per element,
    // `eachVal=+k8s:…(constraint: …)`, among them), 19 are lowered tags and `listType=set` is list metadata
    // (consumed). `subresources`: of its 16, 14 are lowered (the subresource conditions among them) and its 2
    // `listType=atomic` are list metadata. `virtual`: of its 31, the 14 requiredness tags are lowered; its 6
    // `memberOf`, 3 `listMapItem` and 4 group declarations are read by the virtual-group analysis and its 4 list
    // metadata tags by the list matchers (consumed).
    suite("extensions", "vgc.test/extensions", (67, 47, 20, 0));
}

/// Field-path constraints between `resource.Quantity` values and between `metav1.Duration` values, in their own
/// module (`tests/extensions-quantities`, which requires k8s.io/apimachinery v0.37.2, fetched through the Go module
/// proxy first). Of its 15 `+k8s:` lines, the 8 requiredness tags and the 6 constraints (2 per element) are lowered
/// and `listType=atomic` is list metadata (consumed).
#[test]
fn quantity_and_duration_constraints_match_expectations_in_rust_and_the_interpreter() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    harness::download_module("k8s.io/apimachinery@v0.37.2", tmp.path());
    suite(
        "extensions-quantities",
        "vgc.test/extensions-quantities",
        (15, 14, 1, 0),
    );
}

/// Field-path constraints between values of kinds that do not compare are refused (VGC0119): a quantity against
/// an integer, a duration against a quantity, a `time.Duration` (an integer) against a `metav1.Duration`, and
/// per element, the items of a list of quantities against an integer.
#[test]
fn quantity_and_duration_kind_mismatches_are_refused() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    harness::download_module("k8s.io/apimachinery@v0.37.2", dir.path());
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/q\n\ngo 1.25\n\nrequire k8s.io/apimachinery v0.37.2\n",
    )
    .expect("go.mod");
    std::fs::write(
        dir.path().join("vgc.toml"),
        "[extensions]\nenabled = true\n",
    )
    .expect("vgc.toml");
    std::fs::create_dir_all(dir.path().join("p")).expect("mkdir");
    std::fs::write(
        dir.path().join("p/doc.go"),
        "// +k8s:validation-gen=*\npackage p\n",
    )
    .expect("doc.go");
    std::fs::write(
        dir.path().join("p/types.go"),
        r#"package p

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type T struct {
	// +k8s:optional
	Count *int32 `json:"count,omitempty"`
	// +k8s:optional
	Wait *metav1.Duration `json:"wait,omitempty"`
	// +k8s:optional
	Nanos *time.Duration `json:"nanos,omitempty"`

	// +k8s:optional
	// +k8s:maximum(constraint: count)
	Size *resource.Quantity `json:"size,omitempty"`

	// +k8s:optional
	// +k8s:minimum(constraint: size)
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// +k8s:optional
	// +k8s:minimum(constraint: wait)
	Deadline *time.Duration `json:"deadline,omitempty"`

	// +k8s:eachVal=+k8s:maximum(constraint: count)
	Sizes []resource.Quantity `json:"sizes"`
}
"#,
    )
    .expect("types.go");
    assert_eq!(
        check_messages(dir.path()),
        [
            "VGC0119 T.Size: tag \"k8s:maximum\": constraint path \"count\": the constrained field is a quantity (resource.Quantity) and the referenced field int32; field-path constraints compare values of one kind",
            "VGC0119 T.Timeout: tag \"k8s:minimum\": constraint path \"size\": the constrained field is a duration (metav1.Duration) and the referenced field a quantity (resource.Quantity); field-path constraints compare values of one kind",
            "VGC0119 T.Deadline: tag \"k8s:minimum\": constraint path \"wait\": the constrained field is time.Duration (an integer) and the referenced field a duration (metav1.Duration); field-path constraints compare values of one kind",
            "VGC0119 T.Sizes: tag \"k8s:maximum\": constraint path \"count\": the constrained field is a quantity (resource.Quantity) and the referenced field int32; field-path constraints compare values of one kind",
        ]
    );
}

/// The first Go block of section `heading` of `docs/extensions.md`, written as package `pkg` (with a `doc.go`
/// enabling generation) of a new module in a temporary directory, which is returned.
fn docs_example(heading: &str, pkg: &str) -> tempfile::TempDir {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let md = std::fs::read_to_string(root.join("docs/extensions.md")).expect("docs/extensions.md");
    let section = md.split(heading).nth(1).expect("the section");
    let go = section
        .split("```go\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a go block");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/ext\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::create_dir_all(dir.path().join(pkg)).expect("mkdir");
    std::fs::write(dir.path().join(pkg).join("types.go"), go).expect("types.go");
    std::fs::write(
        dir.path().join(pkg).join("doc.go"),
        format!("// +k8s:validation-gen=*\npackage {pkg}\n"),
    )
    .expect("doc.go");
    dir
}

/// `<code> <message>` of each diagnostic `vgc check` gives on `dir`.
fn check_messages(dir: &Path) -> Vec<String> {
    let out = vgc::build(&BuildRequest::check(
        dir.to_string_lossy().into_owned(),
        Vec::new(),
    ));
    out.diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

/// The subresource example of `docs/extensions.md` builds without a diagnostic when `vgc.toml` enables extensions,
/// and its condition is `VGC0116` when it does not.
#[test]
fn subresource_example_builds_only_with_extensions_enabled() {
    let dir = docs_example("## Subresource conditions", "subresources");
    assert_eq!(
        check_messages(dir.path()),
        [
            "VGC0116 WidgetSpec.Size: tag \"k8s:ifNotSubresource\": subresource conditions are a vgc extension, and extensions are not enabled"
        ]
    );
    std::fs::write(
        dir.path().join("vgc.toml"),
        "[extensions]\nenabled = true\n",
    )
    .expect("vgc.toml");
    assert_eq!(check_messages(dir.path()), Vec::<String>::new());
}

/// The virtual-field example of `docs/extensions.md` builds without a diagnostic when `vgc.toml` enables extensions,
/// and each of its three virtual-field tag uses (the declaration and the two items) is `VGC0116` when it does not.
#[test]
fn virtual_example_builds_only_with_extensions_enabled() {
    let dir = docs_example("## Virtual fields", "virtual");
    let off = check_messages(dir.path());
    assert_eq!(
        off,
        [
            "VGC0116 Config.Conditions: tag \"k8s:union\": virtual fields are a vgc extension, and extensions are not enabled",
            "VGC0116 Config.Conditions: tag \"k8s:listMapItem\": virtual fields are a vgc extension, and extensions are not enabled",
            "VGC0116 Config.Conditions: tag \"k8s:listMapItem\": virtual fields are a vgc extension, and extensions are not enabled",
        ]
    );
    std::fs::write(
        dir.path().join("vgc.toml"),
        "[extensions]\nenabled = true\n",
    )
    .expect("vgc.toml");
    assert_eq!(check_messages(dir.path()), Vec::<String>::new());
}

/// The example of `docs/extensions.md` builds without a diagnostic when `vgc.toml` enables extensions, and each of
/// its two constraints is `VGC0116` when it does not.
#[test]
fn docs_example_builds_only_with_extensions_enabled() {
    let dir = docs_example("## Field-path constraints", "constraints");
    let check = || check_messages(dir.path());
    assert_eq!(
        check(),
        [
            "VGC0116 Config.Current: tag \"k8s:minimum\": field-path constraints are a vgc extension, and extensions are not enabled",
            "VGC0116 Config.Current: tag \"k8s:maximum\": field-path constraints are a vgc extension, and extensions are not enabled",
        ]
    );
    std::fs::write(
        dir.path().join("vgc.toml"),
        "[extensions]\nenabled = true\n",
    )
    .expect("vgc.toml");
    assert_eq!(check(), Vec::<String>::new());
}
