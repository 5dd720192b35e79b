//! `vgc check --target k8s-openapi --k8s-openapi-version V`: what the chosen k8s-openapi version lacks is reported by
//! `check` as by `build` (VGC0121 errors, VGC0122 warnings), without writing anything; a target without a version
//! is a usage error.

use std::path::Path;
use std::process::Command;

fn check(dir: &str, extra: &[&str]) -> (Option<i32>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .join("tests/fixtures/k8s-openapi")
        .join(dir);
    let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .arg("check")
        .arg(&root)
        .arg("--short")
        .args(extra)
        .output()
        .expect("vgc runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn check_reports_what_the_k8s_openapi_version_lacks() {
    let openapi = ["--target", "k8s-openapi", "--k8s-openapi-version", "1.37"];
    let (code, err) = check("missing", &openapi);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.matches("error[VGC0121]").count(), 3, "{err}");
    assert_eq!(err.matches("warning[VGC0122]").count(), 1, "{err}");
    // `Gadget` embeds `TypeMeta`: a kind (a root that does not is named a root type).
    assert!(
        err.contains("(OpenAPI definition `io.k8s.api.core.v1.Gadget`): the kind is left out of the generated crate, with its validation rules"),
        "{err}"
    );
    // For vgc's own structs nothing is missing.
    let (code, err) = check("missing", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("VGC012"), "{err}");
    let (code, err) = check("missing", &["--target", "k8s-openapi"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("needs a k8s-openapi version"), "{err}");
}
