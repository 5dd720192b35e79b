//! The k8s-openapi target (`vgc build --target k8s-openapi`, docs/k8s-openapi.md) without network: an insta
//! snapshot of the code generated for a small k8s.io/api-shaped fixture (`tests/fixtures/k8s-openapi/api`), the
//! exact diagnostics for what k8s-openapi lacks (`tests/fixtures/k8s-openapi/missing`) and for a tree outside
//! k8s.io/api, and the `vgc.toml` keys. The generated crate of real k8s.io/api is compiled and run against
//! upstream by `k8s_openapi_e2e.rs`.

use std::path::{Path, PathBuf};
use vgc::driver::BuildRequest;
use vgc_codegen::k8s_openapi::K8sOpenapiVersion;
use vgc_codegen::{RuntimeDep, Target};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn request(path: &Path, target: Option<Target>) -> BuildRequest {
    BuildRequest {
        path: path.to_string_lossy().into_owned(),
        crate_name: "k8s-openapi-fixture".into(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        target,
        ..Default::default()
    }
}

const V1_37: Option<Target> = Some(Target::K8sOpenapi(K8sOpenapiVersion::V1_37));

/// `file:line:col: severity[CODE]: message` per diagnostic, paths relative to `root`.
fn short(out: &vgc::BuildOutcome, root: &Path) -> Vec<String> {
    out.diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources).replace(&format!("{}/", root.display()), ""))
        .collect()
}

/// The generated module of the fixture's `core/v1`: validators over `k8s_openapi::api::core::v1` types (members
/// read through k8s-openapi's `Option`s, list-map keys compared as Go compares them, ratcheting through
/// `crate::semantic`), the crate root's extension trait, and the Cargo manifest naming k8s-openapi's feature.
#[test]
fn generated_code_snapshot() {
    let dir = fixtures().join("k8s-openapi/api");
    let out = vgc::build(&request(&dir, V1_37));
    assert_eq!(short(&out, &dir), Vec::<String>::new());
    let file = |p: &str| {
        out.files
            .iter()
            .find(|f| f.path == p)
            .unwrap_or_else(|| panic!("{p} generated"))
            .contents
            .clone()
    };
    insta::assert_snapshot!("k8s_openapi__core_v1", file("src/core/v1.rs"));
    insta::assert_snapshot!("k8s_openapi__lib", file("src/lib.rs"));
    insta::assert_snapshot!("k8s_openapi__cargo_toml", file("Cargo.toml"));
    // The registry dispatches to k8s-openapi's type through the crate's own trait.
    let registry = file("src/registry.rs");
    assert!(
        registry.contains("validate_as::<::k8s_openapi::api::core::v1::Service>"),
        "{registry}"
    );
    assert!(registry.contains("T: ::serde::de::DeserializeOwned + crate::Validate"));
}

/// What k8s-openapi 1.37 lacks, each at the Go declaration that needs it: a field (`VGC0121`), a struct with rules
/// and the field holding it (`VGC0121`), a kind (`VGC0122`, a warning: left out). Nothing is generated.
#[test]
fn missing_types_and_fields_are_located_errors() {
    let dir = fixtures().join("k8s-openapi/missing");
    let out = vgc::build(&request(&dir, V1_37));
    assert_eq!(
        short(&out, &dir),
        [
            "core/v1/types.go:15:2: error[VGC0121]: k8s-openapi 1.37 (feature `v1_37`) has no field `bogus` in api::core::v1::ServiceSpec, which the validations of ServiceSpec.Bogus need",
            "core/v1/types.go:18:2: error[VGC0121]: k8s-openapi 1.37 (feature `v1_37`) has no field `extra` in api::core::v1::ServiceSpec, which the validations of ServiceSpec.Extra need",
            "core/v1/types.go:22:6: error[VGC0121]: k8s-openapi 1.37 (feature `v1_37`) has no type k8s.io/api/core/v1.Extra (OpenAPI definition `io.k8s.api.core.v1.Extra`), which has validation rules",
            "core/v1/types.go:29:6: warning[VGC0122]: k8s-openapi 1.37 (feature `v1_37`) has no type k8s.io/api/core/v1.Gadget (OpenAPI definition `io.k8s.api.core.v1.Gadget`): the kind is left out of the generated crate, with its validation rules",
        ]
    );
    assert_eq!(out.errors(), 3);
    assert!(out.files.is_empty());
    // The hints say what to do.
    let hints: Vec<&str> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.hint.as_deref())
        .collect();
    assert_eq!(
        hints[0],
        "choose the k8s-openapi version of the API's release (`--k8s-openapi-version`), or `[build.severity] VGC0121 = \"warning\"` in vgc.toml to leave these rules out"
    );
    assert_eq!(
        hints[3],
        "k8s-openapi has the group/versions the API server serves; build with the default target to validate this kind"
    );
}

/// A user's CRD types (a tree outside k8s.io/api) have no k8s-openapi counterparts: one error per package, naming
/// its root types, at the first of them.
#[test]
fn a_tree_outside_k8s_api_is_refused() {
    let dir = fixtures().join("diagnostics/r40-duplicate-kind");
    let out = vgc::build(&request(&dir, V1_37));
    let errors: Vec<String> = short(&out, &dir)
        .into_iter()
        .filter(|l| l.contains("VGC0121"))
        .collect();
    assert_eq!(
        errors,
        [
            "apis/v1/types.go:20:6: error[VGC0121]: package example.com/r40-duplicate-kind/apis/v1 has no k8s-openapi counterpart (its root types Gadget, Widget): the k8s-openapi target validates the types of k8s.io/api and k8s.io/apimachinery only",
            "internal/v1/types.go:5:6: error[VGC0121]: package example.com/r40-duplicate-kind/internal/v1 has no k8s-openapi counterpart (its root type Widget): the k8s-openapi target validates the types of k8s.io/api and k8s.io/apimachinery only",
        ]
    );
    assert!(out.files.is_empty());
}

/// `vgc.toml` `[build] target`/`k8s-openapi-version` select the target without a flag, and
/// `[build.severity] VGC0121 = "warning"` leaves what k8s-openapi lacks out of the generated crate (each rule named
/// by its warning) instead of stopping.
#[test]
fn vgc_toml_selects_the_target_and_may_leave_rules_out() {
    let tmp = tempfile::tempdir().expect("tempdir");
    vgc_tests::harness::copy_dir(&fixtures().join("k8s-openapi/missing"), tmp.path());
    std::fs::write(
        tmp.path().join("vgc.toml"),
        "[build]\ntarget = \"k8s-openapi\"\nk8s-openapi-version = \"1.37\"\n[build.severity]\nVGC0121 = \"warning\"\n",
    )
    .expect("vgc.toml");
    let out = vgc::build(&request(tmp.path(), None));
    assert_eq!(out.errors(), 0, "{:?}", short(&out, tmp.path()));
    assert_eq!(
        out.diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.severity))
            .collect::<Vec<_>>(),
        [
            ("VGC0121", vgc_ir::Severity::Warning),
            ("VGC0121", vgc_ir::Severity::Warning),
            ("VGC0121", vgc_ir::Severity::Warning),
            ("VGC0122", vgc_ir::Severity::Warning),
        ]
    );
    let module = out
        .files
        .iter()
        .find(|f| f.path == "src/core/v1.rs")
        .expect("core/v1");
    // The service spec's function is generated without the rules of the missing field and type.
    assert!(module.contents.contains("pub fn validate_service_spec("));
    assert!(!module.contents.contains("bogus"));
    assert!(!module.contents.contains("validate_extra"));
    assert!(!module.contents.contains("Gadget"));
    let manifest = out
        .files
        .iter()
        .find(|f| f.path == "Cargo.toml")
        .expect("Cargo.toml");
    assert!(
        manifest
            .contents
            .contains("k8s-openapi = { version = \"0.29\", features = [\"v1_37\"] }")
    );
}

/// The `vgc.toml` keys and the flags' values are checked, every problem located.
#[test]
fn target_settings_are_checked() {
    let p = Path::new("vgc.toml");
    let err = |text: &str| {
        vgc::config::parse(text, p)
            .expect_err("refused")
            .to_string()
    };
    assert_eq!(
        err("[build]\ntarget = \"k8s-openapi\"\n"),
        "vgc.toml:2:10: build.target: \"k8s-openapi\" needs `k8s-openapi-version` (e.g. \"1.37\")"
    );
    assert_eq!(
        err("[build]\ntarget = \"k8s-openapi\"\nk8s-openapi-version = \"1.38\"\n"),
        "vgc.toml:3:23: build.k8s-openapi-version: unknown k8s-openapi version \"1.38\" (known: \"1.33\", \"1.34\", \"1.35\", \"1.36\", \"1.37\")"
    );
    assert_eq!(
        err("[build]\ntarget = \"openapi\"\n"),
        "vgc.toml:2:10: build.target: unknown target \"openapi\" (known: \"vgc\", \"k8s-openapi\", \"go\")"
    );
    assert_eq!(
        err("[build]\nk8s-openapi-version = \"1.37\"\n"),
        "vgc.toml:2:23: build.k8s-openapi-version: only with `target = \"k8s-openapi\"`"
    );
    let ok = vgc::config::parse(
        "[build]\ntarget = \"k8s-openapi\"\nk8s-openapi-version = \"v1_35\"\n",
        p,
    )
    .expect("valid");
    assert_eq!(
        ok.target,
        Some(Target::K8sOpenapi(K8sOpenapiVersion::V1_35))
    );
    assert_eq!(
        vgc::config::target(Some("k8s-openapi"), None),
        Err("the k8s-openapi target needs a k8s-openapi version (known: \"1.33\", \"1.34\", \"1.35\", \"1.36\", \"1.37\")".into())
    );
    assert_eq!(vgc::config::target(None, None), Ok(Target::Own));
}
