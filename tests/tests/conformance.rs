//! The conformance suite (`tests/conformance/`): small Go packages, one per tag family plus the structural cases,
//! each with a `cases.json` of validation cases (object, old object, options, subresources → the exact expected
//! error lines `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <alpha|beta|->`).
//!
//! 1. `vgc build` generates a crate for all packages (with `tests/conformance/custom.rs` as its hand-written
//!    `customValidation` functions); a runner binary validates every case; the result must equal `expect`.
//! 2. The same cases go through the Go validators upstream `validation-gen` (pinned, installed through the module
//!    proxy) generates for the same packages: the result must equal `expect` too, except for cases that name a
//!    deviation of `docs/deviations.md` (`"deviation": "D6"`), where upstream must do what `"upstream"` says
//!    (`"panic"` or its own error lines). `VGC_BLESS=1` rewrites `expect` from upstream's results for the cases
//!    without a deviation (review the diff).
//! 3. Random objects from vgc's plan (`tests/src/plan_random.rs`) through both: `VGC_CONFORMANCE_CASES` (default
//!    5,000) and `VGC_CONFORMANCE_SEED` (default 1). `scripts/differential.sh` runs the full 100,000.
//! 4. Random objects generated on the Go side from the Go types by `sigs.k8s.io/randfill` (`tests/src/randfill.rs`,
//!    independent of vgc's plan) through both: `VGC_CONFORMANCE_RANDFILL_CASES` (default 3,000), same seed.
//!
//! Needs `go` and the module proxy; works in `target/e2e/conformance`.

use vgc_tests::differential;
use vgc_tests::harness;
use vgc_tests::plan_random;
use vgc_tests::randfill;

use differential::{Outcome, canonical, compare, env_or};
use harness::{
    build_go_driver, compare_runs, copy_dir, go, install_validation_gen, oracle_profile,
    random_cases, run_both, run_validation_gen, rust_runner,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

const MODULE: &str = "vgc.test/conformance";
/// Packages upstream cannot generate or compile (pinned deviations); vgc-only.
const VGC_ONLY: &str = "deviations";

/// Every package's cases, with full kinds (`<import path>.<Type>`) and names (`<package>/<name>`), and the file
/// each came from.
fn load_cases(dir: &Path, pkgs: &[String]) -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    for pkg in pkgs {
        let file = dir.join(pkg).join("cases.json");
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let cases: Vec<Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for mut c in cases {
            let kind = c["kind"].as_str().expect("kind").to_string();
            let name = c["name"].as_str().expect("name").to_string();
            c["kind"] = json!(format!("{MODULE}/{pkg}.{kind}"));
            c["name"] = json!(format!("{pkg}/{name}"));
            out.push((file.clone(), c));
        }
    }
    out
}

fn cargo_build(manifest: &Path, target: &Path) {
    let out = harness::cargo_in(target, &["build", "--quiet"], Some(manifest), true)
        .output()
        .expect("nested cargo runs");
    assert!(
        out.status.success(),
        "the conformance crate failed to build warning-free:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Rewrites each cases file with upstream's results as `expect` (cases without a deviation).
fn bless(cases: &[(PathBuf, Value)], upstream: &[Value]) {
    let mut files: std::collections::BTreeMap<PathBuf, Vec<Value>> =
        std::collections::BTreeMap::new();
    for ((file, c), u) in cases.iter().zip(upstream) {
        let mut c = c.clone();
        let name = c["name"].as_str().unwrap_or_default();
        c["name"] = json!(name.rsplit_once('/').map_or(name, |(_, n)| n));
        let kind = c["kind"].as_str().unwrap_or_default();
        c["kind"] = json!(kind.rsplit_once('.').map_or(kind, |(_, k)| k));
        if c.get("deviation").is_none() && u.get("error").is_none() {
            c["expect"] = json!(canonical(&u["got"]));
        }
        files.entry(file.clone()).or_default().push(c);
    }
    for (file, cases) in files {
        let text = serde_json::to_string_pretty(&cases).expect("json") + "\n";
        std::fs::write(&file, text).expect("write cases");
    }
}

/// The interpreter's twins of `tests/conformance/custom/custom.go` (and `tests/conformance/custom.rs`).
fn conformance_custom(interp: vgc_validate::Interpreter<'_>) -> vgc_validate::Interpreter<'_> {
    use vgc_runtime::{BadValue, Error};
    use vgc_validate::Val;
    interp
        .with_custom(
            "ValidateCustom_Request_Requester",
            Box::new(|_, path, value, _| match value {
                Some(Val::Str(v)) if v == "nobody" => vec![
                    Error::invalid(path, BadValue::Str(v.clone()), "must name somebody")
                        .with_origin("custom"),
                ],
                _ => Vec::new(),
            }),
        )
        .with_custom(
            "ValidateCustom_Token",
            Box::new(|op, path, value, old| match (op.is_update(), value, old) {
                (true, Some(Val::Str(v)), Some(Val::Str(o)))
                    if v != o && o.len() > 7 && o.starts_with("locked-") =>
                {
                    vec![Error::forbidden(path, "a locked token may not change")]
                }
                _ => Vec::new(),
            }),
        )
}

#[test]
fn conformance_packages_match_expectations_and_upstream() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let src = root.join("tests/conformance");
    let e2e = root.join("target/e2e");
    let work = e2e.join("conformance");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("mkdir");

    // 1. vgc: generate, add the hand-written custom functions, build a runner.
    let generated = work.join("generated");
    let out = vgc::build(&BuildRequest {
        path: src.to_string_lossy().into_owned(),
        out: Some(generated.clone()),
        crate_name: "vgc-conformance-generated".into(),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        upstream: Some(oracle_profile()),
        ..Default::default()
    });
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "{shown:#?}");
    assert_eq!(vgc::exit_code(&out), 0);
    assert_eq!(out.stats.not_lowered, 0, "{:?}", out.stats);
    std::fs::copy(src.join("custom.rs"), generated.join("src/custom.rs")).expect("custom.rs");
    let runner = work.join("runner");
    std::fs::create_dir_all(runner.join("src")).expect("mkdir runner");
    std::fs::write(
        runner.join("Cargo.toml"),
        format!(
            "[package]\nname = \"conformance-runner\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nvgc-conformance-generated = {{ path = {:?} }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
            generated.to_string_lossy(),
            root.join("runtime").to_string_lossy()
        ),
    )
    .expect("runner Cargo.toml");
    let mut generator = plan_random::Generator::new(&out.plan);
    std::fs::write(
        runner.join("src/main.rs"),
        rust_runner("vgc_conformance_generated", &generator.roots, false),
    )
    .expect("runner main.rs");
    cargo_build(&runner.join("Cargo.toml"), &e2e.join("target"));
    let rust_bin = e2e.join("target/debug/conformance-runner");

    let pkgs = harness::package_dirs(&src, &|f| f.ends_with(".go"));
    // Every validation tag of the catalog is exercised by some package (`validateError`, which always fails
    // generation, is covered by the diagnostics fixtures instead).
    let mut go_text = String::new();
    for pkg in &pkgs {
        for e in std::fs::read_dir(src.join(pkg))
            .expect("read_dir")
            .flatten()
        {
            if e.path().extension().is_some_and(|x| x == "go") {
                go_text.push_str(&std::fs::read_to_string(e.path()).expect("go file"));
            }
        }
    }
    // vgc's extension tags are not upstream's: `tests/extensions` exercises them (tests/tests/extensions.rs). Tags
    // newer than the oracle's release (`k8s:eq`, 1.38) cannot be compared with its validation-gen here:
    // tests/tests/upstream.rs runs them (`eq_quantity_bounds_and_condition_reason_from_1_38`).
    let unused: Vec<&str> = vgc_ir::catalog::TAGS
        .iter()
        .filter(|t| !t.id.is_extension())
        .filter(|t| {
            vgc_ir::Upstream::tag_since(t.id)
                .is_none_or(|since| since <= vgc_tests::harness::oracle_upstream())
        })
        .map(|t| t.name())
        .filter(|n| *n != "k8s:validateError")
        .filter(|n| {
            ["=", "(", "\n"]
                .iter()
                .all(|end| !go_text.contains(&format!("+{n}{end}")))
        })
        .collect();
    assert!(
        unused.is_empty(),
        "catalog tags no conformance package uses: {unused:?}"
    );
    let cases = load_cases(&src, &pkgs);
    let plain: Vec<Value> = cases.iter().map(|(_, c)| c.clone()).collect();
    assert!(plain.len() >= 100, "{} cases", plain.len());

    // 2. upstream: the same packages through validation-gen's generated Go (not `deviations/`, which upstream
    //    cannot generate or compile).
    let oracle = work.join("oracle");
    copy_dir(&src, &oracle);
    let _ = std::fs::remove_dir_all(oracle.join(VGC_ONLY));
    let pkgs_upstream: Vec<String> = pkgs
        .iter()
        .filter(|p| !p.starts_with(VGC_ONLY))
        .cloned()
        .collect();
    for pkg in &pkgs_upstream {
        let doc = oracle.join(pkg).join("doc.go");
        let text = std::fs::read_to_string(&doc).expect("doc.go");
        let registry = if pkg == "subresources" {
            let name = pkg.rsplit('/').next().unwrap_or(pkg);
            std::fs::write(
                oracle.join(pkg).join("zz_scheme.go"),
                format!("package {name}\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n\nvar localSchemeBuilder runtime.SchemeBuilder\n"),
            )
            .expect("zz_scheme.go");
            ""
        } else {
            "// +k8s:validation-gen-scheme-registry=nil\n"
        };
        let text = text.replacen(
            "\npackage ",
            &format!("\n{registry}// +k8s:validation-gen-nolint\npackage "),
            1,
        );
        std::fs::write(&doc, text).expect("doc.go");
    }
    let gobin = e2e.join("gobin").join(harness::upstream_version());
    install_validation_gen(&oracle, &gobin);
    go(&oracle, &["get", &harness::apimachinery_module()]);
    let dirs: Vec<String> = pkgs_upstream.iter().map(|p| format!("./{p}")).collect();
    // `limits` uses `time.Duration`: upstream refuses a type of a package it neither generates nor reads
    // (`type time.Duration is in a non-included package`) unless told to read it.
    run_validation_gen(&oracle, &gobin, &["time"], &dirs);
    generator.retain_roots(|k| !k.pkg.starts_with(&format!("{MODULE}/{VGC_ONLY}")));
    let roots: BTreeSet<String> = generator
        .roots
        .iter()
        .map(|(k, _, _)| k.to_string())
        .collect();
    let (direct, _) = build_go_driver(&oracle, MODULE, &pkgs_upstream, &roots, &|kind| {
        let pkg = kind.rsplit_once('.').map_or("", |(p, _)| p);
        pkg.strip_prefix(&format!("{MODULE}/"))
            .map(|p| vec![p.to_string()])
            .unwrap_or_default()
    });
    let (upstream, ours, _, _) = run_both(&oracle.join("oracle"), &rust_bin, &plain);
    // The interpreter on the fixed cases (every package, `deviations/` included: vgc's semantics).
    let agreement =
        vgc_tests::interpreter::agree(&out.plan, &plain, &ours, false, conformance_custom);
    eprintln!("conformance-fixed interpreter: {}", agreement.line());
    agreement.assert_clean(&work.join("fixed-interpreter-mismatches.txt"));
    if std::env::var_os("VGC_BLESS").is_some() {
        bless(&cases, &upstream);
        return;
    }

    let mut failures = Vec::new();
    let mut deviations = 0;
    for ((c, u), o) in plain.iter().zip(&upstream).zip(&ours) {
        let expect = json!({"got": c["expect"]});
        // `expect` is upstream's result in canonical order; vgc's map order is sorted (D3).
        if !matches!(compare(&expect, o), Outcome::Same | Outcome::OrderOnly) {
            failures.push(format!(
                "{}: vgc\n  want {}\n  got  {}",
                c["name"],
                c["expect"],
                o.get("error").unwrap_or(&o["got"])
            ));
        }
        match c.get("deviation") {
            None => match compare(u, &expect) {
                Outcome::Same | Outcome::OrderOnly => {}
                // A case that makes upstream panic must say so (`"deviation": "D2"`).
                _ => failures.push(format!(
                    "{}: upstream\n  want {}\n  got  {}",
                    c["name"],
                    c["expect"],
                    u.get("error").unwrap_or(&u["got"])
                )),
            },
            Some(d) => {
                deviations += 1;
                let ok = match &c["upstream"] {
                    Value::String(s) if s == "panic" => {
                        u["error"].as_str().is_some_and(|e| e.starts_with("panic:"))
                    }
                    // The package is not given to upstream at all (VGC_ONLY); the driver does not know the kind.
                    Value::String(s) if s == "does not compile" || s == "does not generate" => {
                        u["error"]
                            .as_str()
                            .is_some_and(|e| e.starts_with("unknown kind"))
                    }
                    want => u.get("error").is_none() && canonical(&u["got"]) == canonical(want),
                };
                if !ok {
                    failures.push(format!(
                        "{} (deviation {d}): upstream\n  want {}\n  got  {}",
                        c["name"],
                        c["upstream"],
                        u.get("error").unwrap_or(&u["got"])
                    ));
                }
            }
        }
    }
    eprintln!(
        "conformance: {} packages, {} cases ({deviations} pinned deviations), {} failures",
        pkgs.len(),
        plain.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // 3. Random objects through both.
    let n: usize = env_or("VGC_CONFORMANCE_CASES", 5_000);
    let seed: u64 = env_or("VGC_CONFORMANCE_SEED", 1);
    let random = random_cases(&mut generator, n, seed, "conformance", &direct);
    let (upstream, ours, go_run, rust_run) = run_both(&oracle.join("oracle"), &rust_bin, &random);
    let agreement =
        vgc_tests::interpreter::agree(&out.plan, &random, &ours, false, conformance_custom);
    eprintln!(
        "conformance-random interpreter: seed {seed}: {}",
        agreement.line()
    );
    agreement.assert_clean(&work.join("interpreter-mismatches.txt"));
    let summary = compare_runs(&upstream, &ours, &random);
    eprintln!(
        "conformance-random: seed {seed}: {}; Go run {go_run:.1}s, Rust run {rust_run:.1}s",
        summary.line(roots.len())
    );
    summary.assert_clean(&work.join("mismatches.txt"));

    // 4. randfill: random objects generated on the Go side from the Go types (independent of vgc's plan).
    let n: usize = env_or("VGC_CONFORMANCE_RANDFILL_CASES", 3_000);
    let summary = randfill::phase(
        "conformance-randfill",
        &oracle.join("oracle"),
        &rust_bin,
        &[&oracle],
        randfill::Limits {
            max_depth: 8,
            nil_chance: 0.3,
            max_elements: 3,
        },
        n,
        seed,
        &work,
        randfill::Interpreted {
            plan: &out.plan,
            route_typedefs: false,
            custom: conformance_custom,
        },
    );
    randfill::assert_within_gaps(
        "conformance",
        &summary,
        &work.join("randfill-mismatches.txt"),
    );
}
