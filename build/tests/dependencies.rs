//! vgc-build is compiled into every user's build script: its dependency tree holds the driver (`vgc-driver`) and
//! what the driver needs, never the command line's crates (argument parsing, file watching, report formats,
//! progress bars, the allocator, the docs site, `vgc validate`'s YAML reader and interpreter). Read from
//! `cargo metadata`'s resolved graph, following normal dependencies only (what `cargo tree -e normal` shows).

use std::collections::{BTreeSet, HashMap};

/// Packages that must not be in vgc-build's normal dependency tree.
const FORBIDDEN: &[&str] = &[
    "vgc",
    "clap",
    "clap_complete",
    "notify",
    "notify-debouncer-full",
    "serde-sarif",
    "quick-junit",
    "indicatif",
    "mimalloc",
    "vgc-docs-gen",
    "saphyr-parser",
    "vgc-validate",
];

/// The names of the packages vgc-build depends on, directly or not, through normal dependencies.
fn normal_dependencies() -> BTreeSet<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata JSON");
    let name_of: HashMap<&str, &str> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let nodes: HashMap<&str, &serde_json::Value> = meta["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let root = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["manifest_path"].as_str().map(std::path::Path::new) == Some(manifest.as_path()))
        .and_then(|p| p["id"].as_str())
        .expect("vgc-build in cargo metadata");
    let mut seen = BTreeSet::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        let Some(deps) = nodes.get(id).and_then(|n| n["deps"].as_array()) else {
            continue;
        };
        for d in deps {
            let normal = d["dep_kinds"]
                .as_array()
                .is_some_and(|ks| ks.iter().any(|k| k["kind"].is_null()));
            if let (true, Some(pkg)) = (normal, d["pkg"].as_str())
                && seen.insert(pkg)
            {
                todo.push(pkg);
            }
        }
    }
    seen.iter()
        .map(|id| name_of.get(id).copied().unwrap_or(id).to_string())
        .collect()
}

#[test]
fn build_scripts_pull_in_the_driver_but_not_the_command_line() {
    let deps = normal_dependencies();
    assert!(
        deps.contains("vgc-driver"),
        "vgc-build depends on vgc-driver: {deps:?}"
    );
    let found: Vec<&str> = FORBIDDEN
        .iter()
        .copied()
        .filter(|f| deps.contains(*f))
        .collect();
    assert!(
        found.is_empty(),
        "vgc-build's normal dependency tree holds command-line crates: {found:?}"
    );
}
