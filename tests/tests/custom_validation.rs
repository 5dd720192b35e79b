//! `+k8s:customValidation`: the generated crate declares a `Custom` trait per module and `pub mod custom;`; the user
//! supplies `src/custom.rs`. A missing file or a missing function is a compile-time error that names it, and a
//! real implementation is called with the upstream path and values. Builds a small fixture crate with cargo
//! (sharing `target/e2e/target` with the real-input test).

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn cargo(dir: &Path, args: &[&str]) -> (bool, String) {
    let root = vgc_tests::example::workspace_root();
    let out = vgc_tests::harness::nested_cargo(
        &root.join("target/e2e"),
        args,
        &dir.join("Cargo.toml"),
        true,
    )
    .output()
    .expect("cargo runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout),
    )
}

#[test]
fn custom_validation_is_a_compile_time_contract() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let out_dir = root.join("target/e2e/custom-fixture");
    let _ = std::fs::remove_dir_all(&out_dir);
    let req = BuildRequest {
        path: root
            .join("tests/fixtures/custom")
            .to_string_lossy()
            .into_owned(),
        out: Some(out_dir.clone()),
        crate_name: "custom-fixture".into(),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        ..Default::default()
    };
    let built = vgc::build(&req);
    assert_eq!(vgc::exit_code(&built), 0, "{:?}", built.diagnostics);
    let module = std::fs::read_to_string(out_dir.join("src/p.rs")).expect("src/p.rs");
    assert!(module.contains("pub trait Custom"));
    assert!(module.contains("fn validate_custom_thing_name("));
    assert!(module.contains("(upstream `ValidateCustom_Thing_Name`)"));

    // 1. No src/custom.rs: the module declaration fails and says which file to create.
    let (ok, log) = cargo(&out_dir, &["build", "--quiet"]);
    assert!(!ok);
    assert!(log.contains("file not found for module `custom`"), "{log}");

    // 2. An implementation missing a function: the compiler names the missing function.
    std::fs::write(out_dir.join("src/custom.rs"), "pub struct Custom;\nimpl crate::p::Custom for Custom {\n    fn validate_custom_thing(_: &vgc_runtime::Operation, _: &vgc_runtime::Path<'_>, _: Option<&crate::p::Thing>, _: Option<&crate::p::Thing>) -> vgc_runtime::ErrorList { Vec::new() }\n}\n").expect("write custom.rs");
    let (ok, log) = cargo(&out_dir, &["build", "--quiet"]);
    assert!(!ok);
    assert!(
        log.contains("not all trait items implemented, missing: `validate_custom_thing_name`"),
        "{log}"
    );

    // 3. A real implementation is called at the upstream places: type level at the root, field level at `name`.
    std::fs::write(
        out_dir.join("src/custom.rs"),
        r#"use vgc_runtime::{BadValue, Error, ErrorList, Operation, Path};
pub struct Custom;
impl crate::p::Custom for Custom {
    fn validate_custom_thing(_: &Operation, path: &Path<'_>, value: Option<&crate::p::Thing>, _: Option<&crate::p::Thing>) -> ErrorList {
        if value.is_some_and(|t| t.name == "x") { vec![Error::forbidden(path, "x is reserved")] } else { Vec::new() }
    }
    fn validate_custom_thing_name(_: &Operation, path: &Path<'_>, value: Option<&String>, _: Option<&String>) -> ErrorList {
        match value {
            Some(v) if v.len() > 3 => vec![Error::invalid(path, BadValue::Str(v.clone()), "too long for a thing").with_origin("custom")],
            _ => Vec::new(),
        }
    }
}
"#,
    )
    .expect("write custom.rs");
    std::fs::create_dir_all(out_dir.join("tests")).expect("tests dir");
    std::fs::write(
        out_dir.join("tests/custom.rs"),
        r##"use vgc_runtime::{Operation, Validate};
#[test]
fn calls() {
    let t: custom_fixture::p::Thing = serde_json::from_str(r#"{"name":"toolong"}"#).unwrap();
    let errs: Vec<String> = t.validate(None, &Operation::create()).iter().map(|e| format!("{e} [{}]", e.origin)).collect();
    assert_eq!(errs, ["name: Invalid value: \"toolong\": too long for a thing [custom]"]);
    let t: custom_fixture::p::Thing = serde_json::from_str(r#"{"name":"x"}"#).unwrap();
    let errs: Vec<String> = t.validate(None, &Operation::create()).iter().map(|e| e.to_string()).collect();
    assert_eq!(errs, ["<nil>: Forbidden: x is reserved"]);
}
"##,
    )
    .expect("write test");
    let (ok, log) = cargo(&out_dir, &["test", "--quiet"]);
    assert!(ok, "{log}");
}

/// `--custom-stub` after the stub was deleted: the next build writes it again, also when the build is otherwise up
/// to date and when the previous build did not write the stub (found by a new-user trial: the manifest does not
/// track the user-owned `src/custom.rs`, so the build said "up to date" and left `pub mod custom;` dangling).
#[test]
fn a_deleted_custom_stub_is_written_again() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("api");
    vgc_tests::harness::copy_dir(&root.join("tests/fixtures/custom"), &src);
    let out_dir = tmp.path().join("out");
    let req = BuildRequest {
        path: src.to_string_lossy().into_owned(),
        out: Some(out_dir.clone()),
        crate_name: "custom-fixture".into(),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        custom_stub: true,
        ..Default::default()
    };
    let stub = out_dir.join("src/custom.rs");
    assert_eq!(vgc::exit_code(&vgc::build(&req)), 0);
    assert!(stub.is_file(), "the first build writes the stub");
    // A second build (after a Go edit) does not write the stub: it exists.
    let go = std::fs::read_dir(src.join("p"))
        .expect("p")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "go"))
        .expect("a Go file");
    let text = std::fs::read_to_string(&go).expect("read");
    std::fs::write(&go, format!("{text}\n// edited\n")).expect("write");
    assert_eq!(vgc::exit_code(&vgc::build(&req)), 0);
    std::fs::remove_file(&stub).expect("delete the stub");
    let again = vgc::build(&req);
    assert_eq!(vgc::exit_code(&again), 0, "{:?}", again.diagnostics);
    assert!(
        !again.up_to_date,
        "a missing stub makes the build not up to date"
    );
    assert!(stub.is_file(), "the stub is written again");
    let up = vgc::build(&req);
    assert!(
        up.up_to_date,
        "with the stub back, the next build is up to date"
    );
}
