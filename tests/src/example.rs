//! The example API as test input: the workspace root, a copy of a source tree, and a build request with the
//! example's crate name and runtime path.

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

/// The workspace root (the parent of the `tests` crate).
pub fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
}

/// Copies the directory tree `from` to `to` (created as needed).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

/// A build of the Go packages under `path` into `out`, with the example's crate name and runtime.
pub fn request(path: &Path, out: &Path) -> BuildRequest {
    BuildRequest {
        path: path.to_string_lossy().into_owned(),
        out: Some(out.to_path_buf()),
        crate_name: "vgc-example-generated".into(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        rustfmt: true,
        ..Default::default()
    }
}
