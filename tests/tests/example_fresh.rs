//! Golden check: the committed `tests/example-generated` crate is exactly what `vgc build` generates for
//! `examples/api` now (regenerate with `cargo run -p vgc -- build examples/api --rustfmt --out tests/example-generated --crate-name
//! vgc-example-generated --runtime-path ../../runtime` and review the diff). With that crate's own tests this
//! proves the generated code compiles warning-free (CI runs clippy -D warnings on it) and behaves.

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

#[test]
fn generated_example_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    let req = BuildRequest {
        path: root.join("examples/api").to_string_lossy().into_owned(),
        crate_name: "vgc-example-generated".into(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        rustfmt: true,
        ..Default::default()
    };
    let out = vgc::build(&req);
    assert_eq!(out.errors(), 0, "{:?}", out.diagnostics);
    assert_eq!(out.warnings(), 0, "{:?}", out.diagnostics);
    assert_eq!(
        (
            out.stats.tags,
            out.stats.lowered,
            out.stats.consumed,
            out.stats.reported,
            out.stats.not_lowered
        ),
        (124, 97, 27, 0, 0)
    );
    let names: Vec<&str> = out.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        names,
        [
            "Cargo.toml",
            "src/lib.rs",
            "src/meta/mod.rs",
            "src/meta/v1.rs",
            "src/registry.rs",
            "src/widgets/mod.rs",
            "src/widgets/v1.rs"
        ]
    );
    for f in &out.files {
        let committed = std::fs::read_to_string(root.join("tests/example-generated").join(&f.path))
            .unwrap_or_default();
        assert!(
            committed == f.contents,
            "{} is stale: regenerate the example crate and review the diff",
            f.path
        );
    }
}
