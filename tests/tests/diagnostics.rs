//! Diagnostic fixtures: each directory under `fixtures/diagnostics/` is a Go module; its insta snapshot
//! `expected.snap` holds the exit code on its first line (`exit: N`) and then every diagnostic in `--short` form
//! (with its hint), paths relative to the fixture. Review a change with `cargo insta review`
//! (`vgc_tests::fixtures`).

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
    assert!(
        vgc_tests::fixtures::dirs(&root).len() >= 6,
        "fixtures present"
    );
    vgc_tests::fixtures::assert_snapshots(&root, run);
}
