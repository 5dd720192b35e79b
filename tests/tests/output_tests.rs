//! Upstream's own validation-gen test suite as a conformance suite: `cmd/validation-gen/output_tests` of
//! `k8s.io/code-generator` at the pinned release (`harness::upstream_version()`), downloaded through the Go module proxy
//! at test time (nothing of it is copied into this repository).
//!
//! 1. **Capture.** The packages and upstream's `testscheme` are copied into a temporary module; `testscheme` gets
//!    `tests/upstream/capture.go` (its `validate` records every validation call of every test: object and old object
//!    as JSON, options, subresources and upstream's actual errors). `go test` runs every package; the tests must pass.
//!    A call whose value does not survive a JSON round trip with the same errors is counted as skipped, with its
//!    reason, not compared.
//! 2. **vgc.** `vgc build` runs on the whole tree; the packages vgc rejects must be exactly those listed as
//!    `rejected` in `tests/output_tests_gaps.toml`, the packages whose generated Rust does not compile (`cargo check`,
//!    `-D warnings`) exactly those listed as `build`. The tree without them is built, with `tests/upstream/custom.rs`
//!    as the hand-written `customValidation` functions, and a runner validates every captured call.
//! 3. **Replay.** vgc's lines must equal upstream's (order-insensitive only where Go's map order is undefined:
//!    `differential::compare`). A mismatching call must be listed in the gaps file with its class (`detail-text` when
//!    only detail texts differ, otherwise `dropped-tag` or `wrong-result`); a listed call that now matches fails the
//!    test too, so the list only shrinks.
//! 4. **randfill.** `VGC_OUTPUT_TESTS_CASES` (default 3,000) random objects per seed `VGC_OUTPUT_TESTS_SEED`
//!    (default 1), generated on the Go side from the Go types by `sigs.k8s.io/randfill` (`tests/upstream/randfill.go`),
//!    through upstream's generated Go and vgc's Rust. A mismatch fails unless its kind's package has a listed gap or
//!    its class is listed for `output_tests` in `tests/randfill_gaps.toml`.
//!
//! Needs `go` and the module proxy; works in `target/e2e/output-tests`. See `docs/testing.md`.

use vgc_tests::differential;
use vgc_tests::harness;
use vgc_tests::plan_random;
use vgc_tests::randfill;

use differential::{Outcome, compare, empty_old_list_union_only, env_or, mismatch_class};
use harness::{
    GO_DRIVER_IMPORTS, GO_DRIVER_MAIN, copy_dir, download_module, go, go_driver_release_shims_for,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;
use vgc_ir::Upstream;

/// Import path of the suite's root.
const OUTPUT_TESTS: &str = "k8s.io/code-generator/cmd/validation-gen/output_tests";
/// Where the suite lives inside the module.
const SUITE_DIR: &str = "cmd/validation-gen/output_tests";
const TESTSCHEME_DIR: &str = "cmd/validation-gen/testscheme";

/// One entry of `tests/output_tests_gaps.toml`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Gap {
    /// Package directory relative to `output_tests`.
    package: String,
    /// `rejected`, `build`, `dropped-tag`, `wrong-result` or `detail-text`.
    class: String,
    /// Mismatching calls `<Test>#<Type>#<seq>`: the seq-th call of the test on a value of the type (call classes
    /// only).
    #[serde(default)]
    calls: Vec<String>,
    /// What is wrong (free text, for the reader).
    note: String,
    /// The listed calls may also match: upstream's doc tests fill some values at random, and the gap shows only for
    /// some of them (e.g. map keys out of Go's sorted order in a detail). A flaky entry is never reported stale.
    #[serde(default)]
    flaky: bool,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GapsFile {
    /// The upstream release the gaps were measured against.
    upstream: String,
    #[serde(default)]
    gap: Vec<Gap>,
}

const PACKAGE_CLASSES: &[&str] = &["rejected", "build"];
const CALL_CLASSES: &[&str] = &["dropped-tag", "wrong-result", "detail-text"];

/// The gaps file of a run against profile `u`'s generator: `tests/output_tests_gaps.toml` for the release the
/// oracle proves, `tests/output_tests_gaps_<major>_<minor>.toml` (`…_1_38.toml`) for a pre-release.
fn gaps_file(root: &Path, u: Upstream) -> PathBuf {
    if harness::released(u) {
        root.join("tests/output_tests_gaps.toml")
    } else {
        root.join(format!(
            "tests/output_tests_gaps_{}.toml",
            u.as_str().replace('.', "_")
        ))
    }
}

fn load_gaps(file: &Path, version: &str) -> GapsFile {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let gaps: GapsFile =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert_eq!(
        gaps.upstream,
        version,
        "{}: the gaps file was measured against another upstream release",
        file.display()
    );
    for g in &gaps.gap {
        assert!(
            PACKAGE_CLASSES.contains(&g.class.as_str()) || CALL_CLASSES.contains(&g.class.as_str()),
            "{}: unknown class {}",
            g.package,
            g.class
        );
        assert_eq!(
            PACKAGE_CLASSES.contains(&g.class.as_str()),
            g.calls.is_empty(),
            "{}: package classes list no calls, call classes list at least one",
            g.package
        );
    }
    gaps
}

/// Copies upstream's suite and `testscheme` (instrumented) with the module's `go.mod`/`go.sum` into `to`.
fn go_tree(cg: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    for f in ["go.mod", "go.sum"] {
        std::fs::create_dir_all(to).expect("mkdir");
        std::fs::write(to.join(f), std::fs::read(cg.join(f)).expect("go.mod")).expect("write");
    }
    for r in harness::substitute_refused_modules(to) {
        eprintln!("output-tests: {r} (the Go module proxy refuses the required version)");
    }
    copy_dir(&cg.join(SUITE_DIR), &to.join(SUITE_DIR));
    copy_dir(&cg.join(TESTSCHEME_DIR), &to.join(TESTSCHEME_DIR));
    let file = to.join(TESTSCHEME_DIR).join("testscheme.go");
    let mut text = std::fs::read_to_string(&file).expect("testscheme.go");
    for (from, into) in [
        (
            "\nfunc (v *ValidationTester) validate() field.ErrorList {",
            "\nfunc (v *ValidationTester) validateUpstream() field.ErrorList {",
        ),
        ("\nfunc New() *Scheme {", "\nfunc newUpstream() *Scheme {"),
    ] {
        assert!(
            text.contains(from),
            "upstream's testscheme changed: `{}` not found; update tests/upstream/capture.go",
            from.trim()
        );
        text = text.replacen(from, into, 1);
    }
    std::fs::write(&file, text).expect("testscheme.go");
    std::fs::write(
        to.join(TESTSCHEME_DIR).join("zz_vgc_capture.go"),
        include_str!("../upstream/capture.go"),
    )
    .expect("capture.go");
}

/// A validation call of upstream's tests, as captured.
struct Call {
    /// `<package>/<Test>#<Type>#<seq>`: the n-th call of the test on a value of the type.
    id: String,
    package: String,
    call: String,
    raw: Value,
}

fn captured(dir: &Path, suite: &Path) -> Vec<Call> {
    let prefix = format!("{}/", suite.display());
    let mut calls = Vec::new();
    for e in std::fs::read_dir(dir).expect("capture dir").flatten() {
        let text = std::fs::read_to_string(e.path()).expect("capture file");
        for line in text.lines() {
            let raw: Value = serde_json::from_str(line).expect("capture line");
            let pkg = raw["pkg"].as_str().unwrap_or_default();
            let package = pkg.strip_prefix(&prefix).unwrap_or(pkg).to_string();
            let kind = raw["kind"].as_str().unwrap_or_default();
            let call = format!(
                "{}#{}#{}",
                raw["test"].as_str().unwrap_or_default(),
                kind.rsplit('.').next().unwrap_or_default(),
                raw["seq"]
            );
            calls.push(Call {
                id: format!("{package}/{call}"),
                package,
                call,
                raw,
            });
        }
    }
    calls.sort_by(|a, b| a.id.cmp(&b.id));
    calls
}

fn vgc_build(input: &Path, out: Option<&Path>, root: &Path, u: Upstream) -> vgc::BuildOutcome {
    vgc::build(&BuildRequest {
        path: input.to_string_lossy().into_owned(),
        out: out.map(Path::to_path_buf),
        crate_name: "vgc-output-tests-generated".into(),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        check_only: out.is_none(),
        upstream: Some(harness::oracle_profile_for(u)),
        ..Default::default()
    })
}

/// The package (relative to the suite) of a diagnostic's file, if it lies in the suite.
fn package_of_file(file: &str, suite: &Path) -> Option<String> {
    let rel = Path::new(file).strip_prefix(suite).ok()?;
    Some(rel.parent()?.to_string_lossy().replace('\\', "/"))
}

fn cargo(args: &[&str], manifest: &Path, target: &Path) -> std::process::Output {
    harness::cargo_in(target, args, Some(manifest), true)
        .output()
        .expect("nested cargo runs")
}

/// Packages (relative to the suite) whose generated module has a compile error or warning: `cargo check` of the
/// generated crate, errors mapped to modules through the plan.
fn packages_failing_to_compile(
    crate_dir: &Path,
    plan: &vgc_lowering::CratePlan,
    target: &Path,
) -> BTreeSet<String> {
    let out = cargo(
        &["check", "--quiet", "--message-format=short"],
        &crate_dir.join("Cargo.toml"),
        target,
    );
    if out.status.success() {
        return BTreeSet::new();
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut by_file = BTreeMap::new();
    for m in &plan.modules {
        if let Some(pkg) = m.pkg.strip_prefix(&format!("{OUTPUT_TESTS}/")) {
            by_file.insert(
                format!(
                    "src/{}.rs",
                    vgc_codegen::ident::module_path(&plan.go_module, &m.pkg).join("/")
                ),
                pkg.to_string(),
            );
        }
    }
    let mut failing = BTreeSet::new();
    for line in stderr.lines().filter(|l| l.contains(": error")) {
        let file = line.split(':').next().unwrap_or_default();
        match by_file.get(file) {
            Some(pkg) => {
                failing.insert(pkg.clone());
            }
            None if line.contains("could not compile") => {}
            None => panic!("a compile error outside the suite's modules:\n{stderr}"),
        }
    }
    assert!(
        !failing.is_empty(),
        "the generated crate failed to compile, but no error maps to a package:\n{stderr}"
    );
    failing
}

/// The Go driver over the suite: every registered type of every `testscheme.Scheme` (found by reflection at
/// start-up), validated through its scheme like upstream's tests do.
fn output_tests_driver(go_dir: &Path, generated: &[String], u: Upstream) {
    let mut imports = String::new();
    for p in generated {
        let _ = writeln!(imports, "\t_ \"{OUTPUT_TESTS}/{p}\"");
    }
    let head = format!(
        "// Generated by vgc's upstream-suite test.\npackage main\n\nimport (\n{GO_DRIVER_IMPORTS}\t\"reflect\"\n\n\t\"k8s.io/code-generator/cmd/validation-gen/testscheme\"\n{imports})\n{OUTPUT_TESTS_SETUP}{GO_DRIVER_MAIN}{}",
        go_driver_release_shims_for(u)
    );
    harness::write_go_driver(go_dir, &head);
    go(go_dir, &["build", "-o", "oracle", "./cmd/oracle"]);
}

const OUTPUT_TESTS_SETUP: &str = r#"
var kinds = map[string]entry{}

// setup registers every type of every testscheme.Scheme the imported packages created.
func setup() {
	for _, s := range testscheme.AllSchemes {
		for _, t := range s.RegisteredTypes() {
			addKind(s, t)
		}
	}
}

func addKind(s *testscheme.Scheme, t reflect.Type) {
	elem := t
	for elem.Kind() == reflect.Ptr {
		elem = elem.Elem()
	}
	if elem.Name() == "" {
		return
	}
	value := func(p reflect.Value) any {
		if t.Kind() == reflect.Ptr {
			return p.Interface()
		}
		return p.Elem().Interface()
	}
	run := func(c testCase, opts map[string]bool) (func() field.ErrorList, error) {
		obj := reflect.New(elem)
		if err := json.Unmarshal(c.Object, obj.Interface()); err != nil {
			return nil, err
		}
		o := value(obj)
		if len(c.Old) > 0 {
			old := reflect.New(elem)
			if err := json.Unmarshal(c.Old, old.Interface()); err != nil {
				return nil, err
			}
			ov := value(old)
			return func() field.ErrorList {
				return s.ValidateUpdate(context.Background(), opts, o, ov, c.Subresources...)
			}, nil
		}
		return func() field.ErrorList { return s.Validate(context.Background(), opts, o, c.Subresources...) }, nil
	}
	kinds[elem.PkgPath()+"."+elem.Name()] = entry{run: run, mk: func() any { return reflect.New(elem).Interface() }, routed: true}
}
"#;

/// The interpreter's twin of `tests/upstream/custom.rs` (upstream's `ValidateCustom_*` functions of
/// `output_tests/tags/customvalidation`): each reports `field.Invalid(fldPath, nil, "<its name>")`.
fn output_tests_custom(mut interp: vgc_validate::Interpreter<'_>) -> vgc_validate::Interpreter<'_> {
    for name in interp.custom_functions() {
        let detail = name.clone();
        interp = interp.with_custom(
            name,
            Box::new(move |_, path, _, _| {
                vec![vgc_runtime::Error::invalid(
                    path,
                    vgc_runtime::BadValue::Json(serde_json::Value::Null),
                    detail.clone(),
                )]
            }),
        );
    }
    interp
}

/// The suite of the newest release (`harness::oracle_upstream`, code-generator v0.37.2).
#[test]
fn upstream_output_tests_replay_and_randfill() {
    run_suite(harness::oracle_upstream());
}

/// The suite of the newest pre-release (`harness::prerelease_upstream`, code-generator v0.38.0-beta.0; its Go
/// modules need Go 1.27, which `GOTOOLCHAIN=auto` fetches through the module proxy).
#[test]
fn upstream_output_tests_of_the_prerelease() {
    let u = harness::prerelease_upstream().expect("a profile pins a pre-release generator");
    run_suite(u);
}

#[allow(clippy::too_many_lines)] // one pipeline, phase by phase
fn run_suite(u: Upstream) {
    let version = u.code_generator().expect("a pinned generator");
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = root.join("target/e2e");
    let work = e2e.join(format!("output-tests-{}", u.as_str()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("mkdir");
    let gaps_path = gaps_file(&root, u);
    let gaps = load_gaps(&gaps_path, version);
    // `VGC_BLESS=1`: rewrite the gaps file from what this run observes (notes kept where the package and class still
    // apply) instead of asserting against it; review the diff like a snapshot.
    let bless = std::env::var("VGC_BLESS").is_ok_and(|v| v == "1");
    let code_generator = format!("k8s.io/code-generator@{version}");
    let (cg, resolved) = download_module(&code_generator, &work);
    let cg = PathBuf::from(cg);
    assert_eq!(resolved, version);

    // 1. Capture upstream's calls.
    let go_dir = work.join("go");
    go_tree(&cg, &go_dir);
    let suite = go_dir.join(SUITE_DIR);
    let capture = work.join("capture");
    std::fs::create_dir_all(&capture).expect("mkdir capture");
    let start = std::time::Instant::now();
    let test = Command::new("go")
        .args([
            "test",
            "-vet=off",
            "-count=1",
            "-ldflags=-s -w",
            &format!("./{SUITE_DIR}/..."),
        ])
        .current_dir(&go_dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .env("VGC_CAPTURE_DIR", &capture)
        .output()
        .expect("go test runs");
    assert!(
        test.status.success(),
        "upstream's own tests fail:\n{}{}",
        String::from_utf8_lossy(&test.stdout),
        String::from_utf8_lossy(&test.stderr)
    );
    let go_test_time = start.elapsed().as_secs_f64();
    let calls = captured(&capture, &suite);
    let generates = harness::package_dirs(&suite, &|f| f == "zz_generated.validations.go");
    let call_packages: BTreeSet<&str> = calls.iter().map(|c| c.package.as_str()).collect();
    let start = std::time::Instant::now();
    output_tests_driver(&go_dir, &generates, u);
    let go_build_time = start.elapsed().as_secs_f64();

    // 2. vgc on the whole tree: rejected packages, then packages whose Rust does not compile.
    let listed = |class: &str| -> BTreeSet<String> {
        gaps.gap
            .iter()
            .filter(|g| g.class == class)
            .map(|g| g.package.clone())
            .collect()
    };
    let vgc_in = work.join("vgc-input");
    let vgc_suite = vgc_in.join(SUITE_DIR);
    let start = std::time::Instant::now();
    let check = vgc_build(&suite, None, &root, u);
    let rejected: BTreeSet<String> = check
        .diagnostics
        .iter()
        .filter(|d| d.severity == vgc_ir::Severity::Error)
        .filter_map(|d| d.file.as_deref().and_then(|f| package_of_file(f, &suite)))
        .collect();
    assert!(
        bless || rejected == listed("rejected"),
        "{rejected:?} vs {:?}: packages vgc rejects (left) vs the `rejected` gaps (right); vgc says:\n{}",
        listed("rejected"),
        check
            .diagnostics
            .iter()
            .map(|d| vgc::render::short(d, &check.sources))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let tree_without = |excluded: &BTreeSet<String>| {
        let _ = std::fs::remove_dir_all(&vgc_in);
        for f in ["go.mod", "go.sum"] {
            std::fs::create_dir_all(&vgc_in).expect("mkdir");
            std::fs::copy(go_dir.join(f), vgc_in.join(f)).expect("copy");
        }
        copy_dir(&suite, &vgc_suite);
        copy_dir(&go_dir.join(TESTSCHEME_DIR), &vgc_in.join(TESTSCHEME_DIR));
        for p in excluded {
            for e in std::fs::read_dir(vgc_suite.join(p))
                .expect("package")
                .flatten()
            {
                if e.path().is_file() {
                    std::fs::remove_file(e.path()).expect("rm");
                }
            }
        }
    };
    let generated = work.join("generated");
    let build = |excluded: &BTreeSet<String>| -> vgc::BuildOutcome {
        tree_without(excluded);
        let _ = std::fs::remove_dir_all(&generated);
        let out = vgc_build(&vgc_suite, Some(&generated), &root, u);
        let errors: Vec<String> = out
            .diagnostics
            .iter()
            .filter(|d| d.severity == vgc_ir::Severity::Error)
            .map(|d| vgc::render::short(d, &out.sources))
            .collect();
        assert!(
            errors.is_empty(),
            "vgc errors without the rejected packages:\n{}",
            errors.join("\n")
        );
        assert!(out.io_error.is_none(), "{:?}", out.io_error);
        // The hand-written functions: `customValidation`'s, and the project deep-equality functions' twins when
        // the suite has their packages (1.38).
        let mut custom = String::new();
        if !excluded.contains("tags/customvalidation") {
            custom +=
                &std::fs::read_to_string(root.join("tests/upstream/custom.rs")).expect("custom.rs");
        }
        let deep_equal = out.plan.modules.iter().any(|m| m.deep_equal.is_some());
        if deep_equal {
            if custom.is_empty() {
                custom += "/// Implements the generated `DeepEqual` traits.\npub struct Custom;\n";
            }
            custom += &std::fs::read_to_string(root.join("tests/upstream/custom_deep_equal.rs"))
                .expect("custom_deep_equal.rs");
        }
        if !custom.is_empty() {
            std::fs::write(generated.join("src/custom.rs"), custom).expect("custom.rs");
        }
        out
    };
    let target = e2e.join("target");
    let mut out = build(&rejected);
    let vgc_time = start.elapsed().as_secs_f64();
    let not_compiling = packages_failing_to_compile(&generated, &out.plan, &target);
    assert!(
        bless || not_compiling == listed("build"),
        "{not_compiling:?} vs {:?}: packages whose generated Rust does not compile warning-free (left) vs the `build` \
         gaps (right)",
        listed("build")
    );
    let excluded: BTreeSet<String> = rejected.union(&not_compiling).cloned().collect();
    if !not_compiling.is_empty() {
        out = build(&excluded);
    }
    let warnings: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();

    // The runner.
    let runner = work.join("runner");
    std::fs::create_dir_all(runner.join("src")).expect("mkdir runner");
    std::fs::write(
        runner.join("Cargo.toml"),
        format!(
            "[package]\nname = \"output-tests-runner\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nvgc-output-tests-generated = {{ path = {:?} }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
            generated.to_string_lossy(),
            root.join("runtime").to_string_lossy()
        ),
    )
    .expect("runner Cargo.toml");
    let generator = plan_random::Generator::new(&out.plan);
    std::fs::write(
        runner.join("src/main.rs"),
        harness::rust_runner("vgc_output_tests_generated", &generator.roots, true),
    )
    .expect("runner main.rs");
    let start = std::time::Instant::now();
    let built = cargo(&["build", "--quiet"], &runner.join("Cargo.toml"), &target);
    assert!(
        built.status.success(),
        "the generated crate (without the listed packages) or its runner failed to build warning-free:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let cargo_time = start.elapsed().as_secs_f64();
    let rust_bin = target.join("debug/output-tests-runner");
    let vgc_roots: BTreeSet<String> = generator
        .roots
        .iter()
        .map(|(k, _, _)| k.to_string())
        .collect();

    // 3. Replay.
    let mut skipped = Vec::new();
    let mut cases = Vec::new();
    let mut replayed = Vec::new();
    let mut not_built = 0;
    for c in &calls {
        if excluded.contains(&c.package) {
            not_built += 1;
            continue;
        }
        if let Some(reason) = c.raw["skip"].as_str() {
            skipped.push(format!("{}: {reason}", c.id));
            continue;
        }
        let mut case = json!({
            "name": c.id, "kind": c.raw["kind"], "object": c.raw["object"], "update": c.raw["update"],
        });
        for k in ["old", "options", "subresources"] {
            if let Some(v) = c.raw.get(k) {
                case[k] = v.clone();
            }
        }
        cases.push(case);
        replayed.push(c);
    }
    let ours = randfill::run_cases(&mut Command::new(&rust_bin), &cases);
    let agreement =
        vgc_tests::interpreter::agree(&out.plan, &cases, &ours, true, output_tests_custom);
    eprintln!("output-tests-replay interpreter: {}", agreement.line());
    agreement.assert_clean(&work.join("replay-interpreter-mismatches.txt"));
    // gap (package, call) -> class
    let mut listed_calls: BTreeMap<(String, String), String> = BTreeMap::new();
    for g in &gaps.gap {
        for call in &g.calls {
            listed_calls.insert((g.package.clone(), call.clone()), g.class.clone());
        }
    }
    let mut matching = 0;
    let mut order_only = 0;
    // Deviation D11 (docs/deviations.md): an empty list or map echoed in a detail prints `null` in vgc.
    let mut nil_vs_empty = 0;
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut now_passing = Vec::new();
    // (package, class) -> calls, for `VGC_BLESS=1`.
    let mut observed: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (c, o) in replayed.iter().zip(&ours) {
        let up = json!({"got": c.raw["got"]});
        // A kind vgc has no root for gets no validation from vgc: no errors.
        let o = if o["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("unknown kind"))
            && !vgc_roots.contains(c.raw["kind"].as_str().unwrap_or_default())
        {
            json!({"got": []})
        } else {
            o.clone()
        };
        let outcome = compare(&up, &o);
        let listed = listed_calls.get(&(c.package.clone(), c.call.clone()));
        match (outcome, listed) {
            (Outcome::Same | Outcome::OrderOnly | Outcome::NilVsEmpty, None) => {
                matching += 1;
                order_only += usize::from(outcome == Outcome::OrderOnly);
                nil_vs_empty += usize::from(outcome == Outcome::NilVsEmpty);
            }
            (Outcome::Same | Outcome::OrderOnly | Outcome::NilVsEmpty, Some(class)) => {
                let gap = gaps
                    .gap
                    .iter()
                    .find(|g| g.package == c.package && g.calls.contains(&c.call));
                if gap.is_some_and(|g| g.flaky) {
                    matching += 1;
                } else {
                    let note = gap.map_or("", |g| g.note.as_str());
                    now_passing.push(format!("{} now matches (listed as {class}: {note})", c.id));
                }
            }
            (_, listed) => {
                let class = mismatch_class(&up, &o);
                let shown = listed.map_or(class, String::as_str);
                *by_class.entry(shown.to_string()).or_default() += 1;
                let consistent = match listed {
                    None => false,
                    Some(l) => (l == "detail-text") == (class == "detail-text"),
                };
                let blessed_class = match listed {
                    Some(l) if consistent => l.clone(),
                    _ if class == "detail-text" => class.to_string(),
                    _ => "wrong-result".to_string(),
                };
                observed
                    .entry((c.package.clone(), blessed_class))
                    .or_default()
                    .push(c.call.clone());
                if !consistent {
                    failures.push(format!(
                        "{} ({}; {class}{}):\n  object   {}\n  old      {}\n  upstream {}\n  vgc      {}",
                        c.id,
                        c.raw["kind"],
                        listed.map_or(", not listed".to_string(), |l| format!(", listed as {l}")),
                        c.raw["object"],
                        c.raw.get("old").unwrap_or(&Value::Null),
                        c.raw["got"],
                        o.get("error").unwrap_or(&o["got"])
                    ));
                }
            }
        }
    }
    let mut stale: Vec<String> = listed_calls
        .keys()
        .filter(|(p, call)| !calls.iter().any(|c| &c.package == p && &c.call == call))
        .map(|(p, call)| format!("{p}/{call}: no such call"))
        .collect();
    stale.extend(now_passing);
    let mismatching: usize = by_class.values().sum();
    eprintln!(
        "output-tests: {code_generator}: {} packages upstream generates, {} built by vgc ({} rejected, {} not \
         compiling); {} calls captured in {} packages: {} in packages vgc does not build, {} skipped (JSON round \
         trip), {} replayed: {matching} matching ({order_only} up to map order, {nil_vs_empty} up to deviation D11), {mismatching} mismatching {by_class:?}; \
         {} vgc diagnostics; go test {go_test_time:.0}s, go build {go_build_time:.0}s, vgc {vgc_time:.1}s, cargo \
         {cargo_time:.0}s",
        generates.len(),
        generates.iter().filter(|p| !excluded.contains(*p)).count(),
        rejected.len(),
        not_compiling.len(),
        calls.len(),
        call_packages.len(),
        not_built,
        skipped.len(),
        replayed.len(),
        warnings.len()
    );
    for s in &skipped {
        eprintln!("  skipped {s}");
    }
    std::fs::write(work.join("mismatches.txt"), failures.join("\n")).expect("report");
    if bless {
        bless_gaps(&gaps_path, &gaps, &rejected, &not_compiling, &observed);
    }
    assert!(
        bless || (failures.is_empty() && stale.is_empty()),
        "{} unlisted or misclassified mismatches (all in {}), {} listed gaps that no longer apply:\n{}\n{}",
        failures.len(),
        work.join("mismatches.txt").display(),
        stale.len(),
        stale.join("\n"),
        failures
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );

    // 4. randfill.
    let n: usize = env_or("VGC_OUTPUT_TESTS_CASES", 3_000);
    let seed: u64 = env_or("VGC_OUTPUT_TESTS_SEED", 1);
    let mut hints = randfill::Hints::default();
    hints.harvest(&suite);
    let hints_file = work.join("hints.json");
    hints.write(
        &hints_file,
        randfill::Limits {
            max_depth: 8,
            nil_chance: 0.3,
            max_elements: 3,
        },
    );
    let oracle = go_dir.join("oracle");
    let generated_cases = randfill::generate(&oracle, n, seed, &hints_file);
    let pkg_of = |kind: &str| -> String {
        kind.rsplit_once('.')
            .map_or("", |(p, _)| p)
            .strip_prefix(&format!("{OUTPUT_TESTS}/"))
            .unwrap_or_default()
            .to_string()
    };
    let (in_built, in_excluded): (Vec<Value>, Vec<Value>) = generated_cases
        .cases
        .iter()
        .cloned()
        .partition(|c| !excluded.contains(&pkg_of(c["kind"].as_str().unwrap_or_default())));
    let start = std::time::Instant::now();
    let upstream = randfill::run_cases(&mut Command::new(&oracle), &in_built);
    let ours = randfill::run_cases(&mut Command::new(&rust_bin), &in_built);
    let run_time = start.elapsed().as_secs_f64();
    let agreement =
        vgc_tests::interpreter::agree(&out.plan, &in_built, &ours, true, output_tests_custom);
    eprintln!(
        "output-tests-randfill interpreter: seed {seed}: {}",
        agreement.line()
    );
    agreement.assert_clean(&work.join("randfill-interpreter-mismatches.txt"));
    let gap_packages: BTreeSet<&str> = gaps.gap.iter().map(|g| g.package.as_str()).collect();
    // The pre-release's classes are listed under their own suite name.
    let allowed = randfill::allowed_classes(if harness::released(u) {
        "output_tests"
    } else {
        "output_tests-prerelease"
    });
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut random_by_class: BTreeMap<&str, usize> = BTreeMap::new();
    let mut random_failures = Vec::new();
    let mut random_same = 0;
    let mut nil_panics = 0;
    let mut random_d11 = 0;
    // Deviation D9: an explicit empty old list does not ratchet a list-level union.
    let mut random_d9 = 0;
    let mut every_mismatch = Vec::new();
    for ((c, u), o) in in_built.iter().zip(&upstream).zip(&ours) {
        let kind = c["kind"].as_str().unwrap_or_default();
        let o = if o["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("unknown kind"))
            && !vgc_roots.contains(kind)
        {
            json!({"got": []})
        } else {
            o.clone()
        };
        match compare(u, &o) {
            Outcome::Same | Outcome::OrderOnly => random_same += 1,
            Outcome::UpstreamNilPanic => nil_panics += 1,
            Outcome::NilVsEmpty => random_d11 += 1,
            Outcome::Mismatch if empty_old_list_union_only(c, u, &o) => random_d9 += 1,
            _ => {
                let class = mismatch_class(u, &o);
                *random_by_class.entry(class).or_default() += 1;
                every_mismatch.push(format!(
                    "{} ({kind}; {class}):\n  case     {c}\n  upstream {}\n  vgc      {}",
                    c["name"],
                    u.get("error").unwrap_or(&u["got"]),
                    o.get("error").unwrap_or(&o["got"])
                ));
                let pkg = pkg_of(kind);
                seen.insert((pkg.clone(), class.to_string()));
                seen.insert((String::new(), class.to_string()));
                if !gap_packages.contains(pkg.as_str())
                    && !allowed.contains_key(&(pkg, class.to_string()))
                    && !allowed.contains_key(&(String::new(), class.to_string()))
                {
                    random_failures.push(format!(
                        "{} ({kind}; {class}):\n  case     {c}\n  upstream {}\n  vgc      {}",
                        c["name"],
                        u.get("error").unwrap_or(&u["got"]),
                        o.get("error").unwrap_or(&o["got"])
                    ));
                }
            }
        }
    }
    let mismatches: usize = random_by_class.values().sum();
    eprintln!(
        "output-tests-randfill: seed {seed}: {n} attempts, {}; {} cases on kinds of packages vgc does not build, {} \
         compared: {random_same} equal, {nil_panics} upstream nil-pointer panics (D2), {random_d11} differing only \
         as deviation D11 (nil vs empty list or map in a detail), {random_d9} list-union errors for an explicit \
         empty old list (D9), {mismatches} mismatches \
         {random_by_class:?} ({:.1} per 10,000), {} outside listed gap packages; run {run_time:.1}s",
        generated_cases.describe(),
        in_excluded.len(),
        in_built.len(),
        mismatches as f64 * 10_000.0 / in_built.len().max(1) as f64,
        random_failures.len()
    );
    std::fs::write(
        work.join("randfill-mismatches.txt"),
        random_failures.join("\n"),
    )
    .expect("report");
    // Every mismatch, listed gaps included: what is left to fix.
    std::fs::write(
        work.join("randfill-all-mismatches.txt"),
        every_mismatch.join("\n"),
    )
    .expect("report");
    let stale: Vec<&(String, String)> = allowed.keys().filter(|k| !seen.contains(*k)).collect();
    assert!(
        stale.is_empty(),
        "classes tests/randfill_gaps.toml lists for output_tests that no longer occur: {stale:?}"
    );
    assert!(
        random_failures.is_empty(),
        "{} randfill mismatches on kinds of packages without a listed gap (all in {}):\n{}",
        random_failures.len(),
        work.join("randfill-mismatches.txt").display(),
        random_failures
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `VGC_BLESS=1`: rewrites the gaps file (`file`) from what the run observed — the rejected and
/// non-compiling packages and the mismatching calls per (package, class) — keeping the header and the notes of
/// entries whose package and class still apply.
fn bless_gaps(
    file: &Path,
    old: &GapsFile,
    rejected: &BTreeSet<String>,
    not_compiling: &BTreeSet<String>,
    observed: &BTreeMap<(String, String), Vec<String>>,
) {
    let text = std::fs::read_to_string(file).expect("the gaps file");
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let note = |package: &str, class: &str, default: &str| -> String {
        old.gap
            .iter()
            .find(|g| g.package == package && g.class == class)
            .map_or(default.to_string(), |g| g.note.clone())
    };
    let mut out = format!("{header}upstream = {:?}\n", old.upstream);
    for (class, packages, default) in [
        ("rejected", rejected, "vgc refuses the package"),
        (
            "build",
            not_compiling,
            "the generated Rust does not compile warning-free",
        ),
    ] {
        for p in packages {
            let _ = write!(
                out,
                "\n[[gap]]\npackage = {p:?}\nclass = {class:?}\nnote = {:?}\n",
                note(p, class, default)
            );
        }
    }
    for ((p, class), calls) in observed {
        let mut calls = calls.clone();
        calls.sort();
        calls.dedup();
        let list: String = calls.iter().map(|c| format!("    {c:?},\n")).collect();
        let flaky = old
            .gap
            .iter()
            .any(|g| &g.package == p && &g.class == class && g.flaky);
        let _ = write!(
            out,
            "\n[[gap]]\npackage = {p:?}\nclass = {class:?}\n{}calls = [\n{list}]\nnote = {:?}\n",
            if flaky { "flaky = true\n" } else { "" },
            note(p, class, "found by VGC_BLESS=1; describe the cause")
        );
    }
    std::fs::write(file, out).expect("write the gaps file");
}
