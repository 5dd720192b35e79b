//! Compiles the declarative validation rules of k8s.io/api's `resource.k8s.io/v1` (ResourceClaim, DeviceClass,
//! ResourceSlice, ResourceClaimTemplate) into `$OUT_DIR/vgc.rs` with vgc-build, over k8s-openapi 0.29's structs
//! (feature `v1_37`).
//!
//! The Go sources come from the Go module cache: `VGC_WEBHOOK_K8S_API` names a k8s.io/api directory, else
//! `$(go env GOMODCACHE)/k8s.io/api@v0.37.2` is used (`go mod download k8s.io/api@v0.37.2 k8s.io/apimachinery@v0.37.2`
//! puts it there). Without the `build-validators` feature, `VGC_WEBHOOK_GENERATED` names an already generated file.

use std::path::PathBuf;

#[cfg(feature = "build-validators")]
const K8S_API: &str = "k8s.io/api@v0.37.2";

fn main() {
    println!("cargo:rerun-if-env-changed=VGC_WEBHOOK_K8S_API");
    println!("cargo:rerun-if-env-changed=VGC_WEBHOOK_GENERATED");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("vgc.rs");
    if let Some(generated) = std::env::var_os("VGC_WEBHOOK_GENERATED") {
        println!(
            "cargo:rerun-if-changed={}",
            PathBuf::from(&generated).display()
        );
        std::fs::copy(&generated, &out).expect("VGC_WEBHOOK_GENERATED");
        return;
    }
    build(&out);
}

#[cfg(feature = "build-validators")]
fn build(out: &std::path::Path) {
    let api = match std::env::var_os("VGC_WEBHOOK_K8S_API") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let cache = std::process::Command::new("go")
                .args(["env", "GOMODCACHE"])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .unwrap_or_else(|| {
                    panic!("set VGC_WEBHOOK_K8S_API to a k8s.io/api directory (no `go` to find the module cache)")
                });
            PathBuf::from(cache).join(K8S_API)
        }
    };
    assert!(
        api.is_dir(),
        "{} is missing: `go mod download {K8S_API} k8s.io/apimachinery@v0.37.2`, or set VGC_WEBHOOK_K8S_API",
        api.display()
    );
    let built = vgc_build::Config::new()
        // Every kind of the package, as kubernetes/kubernetes activates validation for it.
        .roots(["TypesWithField=TypeMeta"])
        .k8s_openapi("1.37")
        .out_dir(out.parent().expect("OUT_DIR"))
        .compile(api.join("resource/v1"));
    if let Err(e) = built {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

#[cfg(not(feature = "build-validators"))]
fn build(_: &std::path::Path) {
    panic!(
        "without the build-validators feature, VGC_WEBHOOK_GENERATED must name the generated file"
    );
}
