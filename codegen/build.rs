//! Embeds the `vgc-runtime` crate of this workspace for `RuntimeDep::Vendored` (`vgc_codegen::vendored_runtime`):
//! every file under `runtime/src` (sorted, `/`-separated) through `include_str!`, so an edit of the runtime
//! rebuilds this crate, and the runtime's manifest with the workspace inheritance resolved (`x.workspace = true`
//! replaced by the workspace's value, dependency features merged as cargo merges them), so the copy builds on
//! its own, outside this workspace. The result is `$OUT_DIR/vendored_runtime.rs`.

// A build script, not the pure crate's code: it reads the runtime's files to embed them.
#![allow(clippy::disallowed_methods)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent().expect("workspace root").to_path_buf();
    let runtime = root.join("runtime");
    println!("cargo:rerun-if-changed={}", runtime.join("src").display());
    println!(
        "cargo:rerun-if-changed={}",
        runtime.join("Cargo.toml").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );

    let mut files = Vec::new();
    list(&runtime, Path::new("src"), &mut files);
    files.sort();

    let manifest = resolved_manifest(
        &std::fs::read_to_string(runtime.join("Cargo.toml")).expect("runtime/Cargo.toml"),
        &std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml"),
    );

    let mut out = String::from(
        "/// The vendored runtime's files: (path in the crate, contents), sorted by path.\n",
    );
    out.push_str("pub(crate) static FILES: &[(&str, &str)] = &[\n");
    for rel in &files {
        let abs = runtime.join(rel);
        writeln!(
            out,
            "    ({rel:?}, include_str!({:?})),",
            abs.display().to_string()
        )
        .expect("write");
    }
    out.push_str("];\n");
    writeln!(
        out,
        "/// The vendored runtime's `Cargo.toml` body: the workspace inheritance resolved.\npub(crate) const MANIFEST: &str = {manifest:?};"
    )
    .expect("write");
    let dest =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("vendored_runtime.rs");
    std::fs::write(dest, out).expect("write vendored_runtime.rs");
}

/// Every file under `base/rel`, as `/`-separated paths relative to `base`.
fn list(base: &Path, rel: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(base.join(rel)).expect("list runtime sources") {
        let e = e.expect("runtime source entry");
        let name = e
            .file_name()
            .into_string()
            .expect("UTF-8 file name under runtime/src");
        let path = rel.join(&name);
        if e.file_type().expect("file type").is_dir() {
            list(base, &path, out);
        } else if name.ends_with(".rs") {
            out.push(path.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The runtime's manifest as a crate of its own: `[package]` keys inherited from `[workspace.package]` and
/// dependencies from `[workspace.dependencies]` (features added to the workspace's, `optional` kept), without
/// `readme` (not vendored) and `[lints]` (the workspace's lints are this project's, not the user's).
fn resolved_manifest(runtime: &str, workspace: &str) -> String {
    let mut m: toml::Table = runtime.parse().expect("runtime/Cargo.toml parses");
    let ws: toml::Table = workspace.parse().expect("Cargo.toml parses");
    let ws = ws["workspace"].as_table().expect("[workspace]");
    let ws_package = ws["package"].as_table().expect("[workspace.package]");
    let ws_deps = ws["dependencies"]
        .as_table()
        .expect("[workspace.dependencies]");

    let package = m
        .get_mut("package")
        .and_then(toml::Value::as_table_mut)
        .expect("[package]");
    for (k, v) in package.iter_mut() {
        if is_inherited(v) {
            *v = ws_package
                .get(k)
                .unwrap_or_else(|| panic!("workspace.package.{k}"))
                .clone();
        }
    }
    package.remove("readme");
    if let Some(deps) = m
        .get_mut("dependencies")
        .and_then(toml::Value::as_table_mut)
    {
        for (name, v) in deps.iter_mut() {
            if !is_inherited(v) {
                continue;
            }
            let mut dep = match ws_deps
                .get(name)
                .unwrap_or_else(|| panic!("workspace dependency {name}"))
            {
                toml::Value::String(version) => {
                    let mut t = toml::Table::new();
                    t.insert("version".into(), toml::Value::String(version.clone()));
                    t
                }
                toml::Value::Table(t) => t.clone(),
                other => panic!("workspace dependency {name}: {other}"),
            };
            let local = v.as_table().expect("inherited dependency is a table");
            if let Some(toml::Value::Array(extra)) = local.get("features") {
                let features = dep
                    .entry("features")
                    .or_insert_with(|| toml::Value::Array(Vec::new()))
                    .as_array_mut()
                    .expect("features array");
                for f in extra {
                    if !features.contains(f) {
                        features.push(f.clone());
                    }
                }
            }
            if let Some(o) = local.get("optional") {
                dep.insert("optional".into(), o.clone());
            }
            *v = toml::Value::Table(dep);
        }
    }
    m.remove("lints");
    toml::to_string(&m).expect("manifest serializes")
}

/// `{ workspace = true, … }`.
fn is_inherited(v: &toml::Value) -> bool {
    v.as_table()
        .and_then(|t| t.get("workspace"))
        .and_then(toml::Value::as_bool)
        == Some(true)
}
