//! Lint fixtures: each directory under `fixtures/lint/` is a Go module whose comments say which declarations must
//! make a rule fire and which must not; `expected.txt` holds the exit code (`exit: N`) and every diagnostic of
//! `vgc lint` in `--short` form with its hint and fix, paths relative to the fixture — so a rule that fires where
//! it must not, or stays silent where it must fire, changes the file. `VGC_BLESS=1` rewrites the expectations
//! (review the diff). Also: `--fix` round trip, JSON and SARIF snapshots, and SARIF validated against the
//! official OASIS 2.1.0 schema (shipped in the `serde-sarif` crate).

use std::path::{Path, PathBuf};
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn request(dir: &Path) -> BuildRequest {
    BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        out: None,
        crate_name: "x".into(),
        runtime: RuntimeDep::Version("0.1".into()),
        extra_roots: Vec::new(),
        check_only: true,
        custom_stub: false,
    }
}

fn settings(dir: &Path) -> vgc::LintSettings {
    vgc::config::find(dir)
        .map(|p| vgc::config::load(&p).expect("fixture vgc.toml"))
        .unwrap_or_default()
        .lint
}

fn report(dir: &Path) -> String {
    let out = vgc::lint(&request(dir), &settings(dir));
    let prefix = format!("{}/", dir.display());
    let mut s = format!("exit: {}\n", vgc::exit_code(&out));
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn lint_fixtures() {
    let bless = std::env::var_os("VGC_BLESS").is_some();
    let mut failures = Vec::new();
    for dir in fixtures() {
        let got = report(&dir);
        let file = dir.join("expected.txt");
        if bless {
            std::fs::write(&file, &got).expect("write expected");
            continue;
        }
        let want = std::fs::read_to_string(&file).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}:\n--- want\n{want}--- got\n{got}",
                dir.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_lint_rule_has_a_fixture_that_fires() {
    let all: String = fixtures()
        .iter()
        .map(|d| std::fs::read_to_string(d.join("expected.txt")).unwrap_or_default())
        .collect();
    let missing: Vec<&str> = vgc_ir::ALL_CODES
        .iter()
        .filter(|c| c.is_lint() && **c != vgc_ir::Code::LintTypedefChain)
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
    let fixed = vgc::render::apply_fixes(&before.diagnostics, &before.sources);
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

fn outputs() -> (serde_json::Value, serde_json::Value) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint/own");
    let out = vgc::lint(&request(&dir), &vgc::LintSettings::default());
    let base = dir.to_string_lossy();
    (
        vgc::render::json(&out.diagnostics, &out.sources, &base),
        vgc::render::sarif(&out.diagnostics, &out.sources, &base),
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
    let schema_path =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["metadata", "--format-version", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
            .and_then(|m| {
                m["packages"].as_array()?.iter().find_map(|p| {
                    (p["name"] == "serde-sarif").then(|| {
                        Path::new(p["manifest_path"].as_str().unwrap_or_default())
                            .with_file_name("src/schema.json")
                    })
                })
            })
            .expect("serde-sarif (dev-dependency) ships the SARIF 2.1.0 schema");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&schema_path).expect("schema file"))
            .expect("schema JSON");
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
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
    // The serde model of the same schema reads it back.
    let typed: serde_sarif::sarif::Sarif =
        serde_json::from_value(sarif).expect("serde-sarif reads it");
    assert_eq!(typed.runs.len(), 1);
}
