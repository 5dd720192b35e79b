//! Diagnostic fixtures: each directory under `fixtures/diagnostics/` is a Go module; `expected.txt` holds the
//! exit code on its first line (`exit: N`) and then every diagnostic in `--short` form (with its hint), paths
//! relative to the fixture. Set `VGC_BLESS=1` to rewrite the expectations after reviewing them.

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn run(dir: &Path) -> String {
    let req = BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        crate_name: "x".into(),
        runtime: RuntimeDep::Version("0.1".into()),
        upstream: Some(vgc_ir::profile::Selected::new(
            vgc_ir::Upstream::V1_37,
            "the fixtures' reference release",
        )),
        ..Default::default()
    };
    let out = vgc::build(&req);
    let prefix = format!("{}/", dir.display());
    let mut s = format!("exit: {}\n", vgc::exit_code(&out));
    for d in &out.diagnostics {
        let mut line = vgc::render::short(d, &out.sources);
        if let Some(h) = &d.hint {
            line.push_str(&format!("\n    hint: {h}"));
        }
        s.push_str(&line.replace(&prefix, ""));
        s.push('\n');
    }
    s
}

#[test]
fn diagnostic_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagnostics");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let got = run(dir);
        let exp_path = dir.join("expected.txt");
        if std::env::var_os("VGC_BLESS").is_some() {
            std::fs::write(&exp_path, &got).expect("write expected");
            continue;
        }
        let want = std::fs::read_to_string(&exp_path).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}:\n--- want\n{want}--- got\n{got}",
                dir.display()
            ));
        }
    }
    assert!(dirs.len() >= 6, "fixtures present");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
