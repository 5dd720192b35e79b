//! insta snapshots: the generated Rust for the bundled example API (review every change with `cargo insta
//! review`), and the human (codespan-reporting) rendering of a diagnostics fixture.

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn request(path: &Path) -> BuildRequest {
    BuildRequest {
        path: path.to_string_lossy().into_owned(),
        crate_name: "vgc-example-generated".into(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        rustfmt: true,
        ..Default::default()
    }
}

#[test]
fn generated_example_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    let out = vgc::build(&request(&root.join("examples/api")));
    assert_eq!(out.errors(), 0);
    for f in &out.files {
        insta::assert_snapshot!(
            format!("example__{}", f.path.replace('/', "__")),
            f.contents
        );
    }
}

/// The generated Rust of the field-path constraints package (vgc extension, `tests/extensions/constraints`): the
/// hoisted struct-level `field_constraint` calls.
#[test]
fn generated_extensions_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    let out = vgc::build(&request(&root.join("tests/extensions")));
    assert_eq!(out.errors(), 0);
    let module = out
        .files
        .iter()
        .find(|f| f.path == "src/constraints.rs")
        .expect("the constraints module");
    insta::assert_snapshot!("extensions__src__constraints.rs", module.contents);
}

#[test]
fn human_diagnostics_rendering() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagnostics/bad-tags");
    let out = vgc::build(&request(&dir));
    let text = vgc::render::human(&out.diagnostics, &out.sources)
        .replace(&format!("{}/", dir.display()), "");
    insta::assert_snapshot!("bad_tags_human", text);
}
