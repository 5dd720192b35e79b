//! Lint fixtures: each directory under `fixtures/lint/` is a Go module whose comments say which declarations must
//! make a rule fire and which must not; its insta snapshot `expected.snap` holds the exit code (`exit: N`) and every
//! diagnostic of `vgc lint` in `--short` form with its hint and fix, paths relative to the fixture — so a rule that
//! fires where it must not, or stays silent where it must fire, changes the snapshot (`cargo insta review`). Also: `--fix` round trip, JSON and SARIF snapshots, and SARIF validated against the
//! official OASIS 2.1.0 schema (shipped in the `serde-sarif` crate), and upstream's own lint run on the same inputs
//! as the reference for the upstream rules (needs `go` and the module proxy).

use vgc_tests::harness;

use std::path::{Path, PathBuf};
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn request(dir: &Path) -> BuildRequest {
    BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        crate_name: "x".into(),
        runtime: RuntimeDep::Version("0.1".into()),
        check_only: true,
        // A fixture's `vgc.toml` may choose the profile (`upstream-1.38/`); the others lint as the oracle's release.
        upstream: vgc::config::upstream_for(dir, None, None)
            .expect("fixture vgc.toml")
            .or_else(|| Some(harness::oracle_profile())),
        ..Default::default()
    }
}

fn settings(dir: &Path) -> vgc::LintSettings {
    vgc::config::settings_for(dir, None, None)
        .expect("fixture settings")
        .lint
}

fn report(dir: &Path) -> String {
    let out = vgc::lint(&request(dir), &settings(dir));
    let prefix = format!("{}/", dir.display());
    let mut s = format!("exit: {}\n", vgc::exit_code(&out));
    s.push_str(&vgc::render::drift_table(&out.drift));
    for d in &out.diagnostics {
        let mut line = vgc::render::short(d, &out.sources);
        if let Some(h) = &d.hint {
            line.push_str(&format!("\n    hint: {h}"));
        }
        if let Some(f) = &d.fix {
            line.push_str(&format!("\n    fix: {:?}", f.replacement));
        }
        s.push_str(&line.replace(&prefix, ""));
        s.push('\n');
    }
    s
}

fn fixtures() -> Vec<PathBuf> {
    vgc_tests::fixtures::dirs(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint"))
}

#[test]
fn lint_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint");
    vgc_tests::fixtures::assert_snapshots(&root, report);
}

#[test]
fn every_lint_rule_has_a_fixture_that_fires() {
    let all: String = fixtures()
        .iter()
        .map(|d| vgc_tests::fixtures::expected(d))
        .collect();
    let missing: Vec<&str> = vgc_ir::ALL_CODES
        .iter()
        .filter(|c| c.is_lint())
        .map(|c| c.as_str())
        .filter(|c| !all.contains(&format!("[{c}]")))
        .collect();
    assert!(
        missing.is_empty(),
        "lint codes no fixture exercises: {missing:?}"
    );
}

#[test]
fn fix_rewrites_canonical_spellings_and_nothing_else() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint/own");
    for rel in ["go.mod", "v1/doc.go", "v1/types.go"] {
        let to = tmp.path().join(rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(src.join(rel), &to).expect("copy");
    }
    let before = vgc::lint(&request(tmp.path()), &vgc::LintSettings::default());
    // The spelling fixes only (VGC0311's twin insertions are checked in cli/tests/lint_cli.rs).
    let spelling: Vec<vgc_ir::Diagnostic> = before
        .diagnostics
        .iter()
        .filter(|d| d.code == vgc_ir::Code::LintSpelling)
        .cloned()
        .collect();
    let fixed = vgc::render::apply_fixes(&spelling, &before.sources);
    assert_eq!(fixed.len(), 1);
    let (path, text) = fixed.iter().next().expect("one file");
    let old = &before.sources[path];
    // Exactly the one non-canonical line changed.
    let changed: Vec<(&str, &str)> = old
        .lines()
        .zip(text.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        changed,
        [(
            "\t// +k8s:alpha(since:\"1.37\")=+k8s:optional",
            "\t// +k8s:alpha(since: \"1.37\")=+k8s:optional"
        )]
    );
    std::fs::write(path, text).expect("write");
    let after = vgc::lint(&request(tmp.path()), &vgc::LintSettings::default());
    assert!(
        after
            .diagnostics
            .iter()
            .all(|d| d.code != vgc_ir::Code::LintSpelling)
    );
    assert_eq!(after.diagnostics.len(), before.diagnostics.len() - 1);
}

/// The diagnostics page the SARIF snapshot links its rules to, as a team serving the `vgc docs` site would set it.
const DOCS_URL: &str = "https://docs.example.com/vgc/diagnostics.html";

fn docs_url() -> url::Url {
    url::Url::parse(DOCS_URL).expect("absolute URL")
}

fn outputs() -> (serde_json::Value, serde_json::Value) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint/own");
    let out = vgc::lint(&request(&dir), &vgc::LintSettings::default());
    let base = dir.to_string_lossy();
    (
        vgc::render::json(&out.diagnostics, &out.sources, &base, &out.drift),
        serde_json::to_value(vgc::render::sarif(
            &out.diagnostics,
            &out.sources,
            &base,
            Some(&docs_url()),
        ))
        .expect("SARIF serializes"),
    )
}

#[test]
fn json_and_sarif_snapshots() {
    let (json, mut sarif) = outputs();
    // The absolute source root differs per checkout.
    sarif["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] =
        serde_json::json!("file:///SRCROOT/");
    insta::assert_json_snapshot!("lint_json", json);
    insta::assert_json_snapshot!("lint_sarif", sarif);
}

#[test]
fn sarif_is_valid_against_the_official_schema() {
    let schema = vgc_tests::sarif_schema();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let (_, sarif) = outputs();
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // And a log that breaks the schema is caught (the validator is not vacuous).
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    assert!(!validator.is_valid(&broken));
    // The schema's `format: uri` is checked: a `helpUri` that is not an absolute URI is caught too.
    let mut relative = sarif.clone();
    relative["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] =
        serde_json::json!("docs/diagnostics.md#VGC0001");
    assert!(!validator.is_valid(&relative));
    // The serde model of the same schema reads it back.
    let typed: serde_sarif::sarif::Sarif =
        serde_json::from_value(sarif).expect("serde-sarif reads it");
    assert_eq!(typed.runs.len(), 1);
}

/// Every rule links to its documentation (`helpUri`): the diagnostics page with the code as fragment, the anchor
/// `docs/diagnostics.md` gives every row.
#[test]
fn every_sarif_rule_has_a_help_uri_into_the_diagnostics_page() {
    let (_, sarif) = outputs();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert_eq!(rules.len(), vgc_ir::ALL_CODES.len());
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"),
    )
    .expect("docs/diagnostics.md");
    for r in rules {
        let id = r["id"].as_str().expect("id");
        assert_eq!(r["helpUri"], format!("{}#{id}", DOCS_URL), "{r}");
        assert!(
            page.contains(&format!("| <a id=\"{id}\"></a>{id} |")),
            "docs/diagnostics.md has no anchor for {id}"
        );
    }
}

#[test]
fn upstream_rules_agree_with_upstream_validation_gen() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let mut compared = 0;
    // (source module, packages, lines to drop first: upstream stops at tag errors before linting)
    let conformance: Vec<&str> = vec![
        "./custom",
        "./dependent",
        "./enums",
        "./formats",
        "./limits",
        "./lists",
        "./maps",
        "./modes",
        "./options",
        "./required",
        "./stability",
        "./structure",
        "./structure/other",
        "./subfield",
        "./testtags",
        "./unions",
        "./updates",
    ];
    let inputs: [(&str, &[&str], &[&str]); 3] = [
        (
            "tests/fixtures/lint/upstream",
            &["./v1", "./v1beta1", "./v1alpha1"],
            &["\t// +k8s:beta(since: \"1.37\")\n"],
        ),
        ("examples/api", &["./widgets/v1", "./meta/v1"], &[]),
        ("tests/conformance", &conformance, &[]),
    ];
    for (src, pkgs, drop) in inputs {
        let work = root
            .join("target/e2e/lint-oracle")
            .join(src.replace('/', "_"));
        let _ = std::fs::remove_dir_all(&work);
        harness::copy_dir(&root.join(src), &work);
        // vgc-only packages (upstream cannot generate them) are not part of the comparison.
        let _ = std::fs::remove_dir_all(work.join("deviations"));
        let _ = std::fs::remove_dir_all(work.join("subresources"));
        // Not compared yet: the lint rules' reading of metadata behind `ifEnabled`/`subfield` wrappers and of
        // typedef chains (`wrapped/`, `chains/`, from upstream's output_tests) is not checked against upstream's lint.
        let _ = std::fs::remove_dir_all(work.join("wrapped"));
        let _ = std::fs::remove_dir_all(work.join("chains"));
        let _ = std::fs::remove_file(work.join("expected.snap"));
        for pkg in pkgs {
            let dir = work.join(pkg.trim_start_matches("./"));
            let doc = dir.join("doc.go");
            if let Ok(text) = std::fs::read_to_string(&doc) {
                // The example and the conformance packages opt out of the lint (as upstream's output_tests do);
                // the comparison lints them.
                let text = text.replace("// +k8s:validation-gen-nolint\n", "");
                let text = text.replacen(
                    "\npackage ",
                    "\n// +k8s:validation-gen-scheme-registry=nil\npackage ",
                    1,
                );
                std::fs::write(&doc, text).expect("doc.go");
            }
            if !drop.is_empty() {
                let types = dir.join("types.go");
                let mut text = std::fs::read_to_string(&types).expect("types.go");
                for d in drop {
                    text = text.replace(d, "");
                }
                std::fs::write(&types, text).expect("types.go");
            }
        }
        if src == "examples/api" {
            // upstream expects the read-only meta package to be generated too; activate it.
            std::fs::write(work.join("meta/v1/doc.go"), "// +k8s:validation-gen=*\n// +k8s:validation-gen-scheme-registry=nil\npackage v1\n")
                .expect("meta doc.go");
        }
        harness::go(&work, &["get", &harness::apimachinery_module()]);
        let gobin = root.join("target/e2e/gobin");
        harness::install_validation_gen(&work, &gobin);
        let pkgs: Vec<String> = pkgs.iter().map(|p| (*p).to_string()).collect();
        // `tests/conformance/limits` uses `time.Duration`, which upstream reads only from a named package.
        let theirs = harness::validation_gen_lint(&work, &gobin, &["time"], &pkgs);
        let ours = harness::upstream_rule_findings(
            &vgc::lint(&request(&work), &vgc::LintSettings::default()).diagnostics,
        );
        assert_eq!(ours, theirs, "{src}: vgc (left) vs upstream (right)");
        compared += theirs.len();
    }
    assert!(compared >= 40, "{compared} findings compared");
}
