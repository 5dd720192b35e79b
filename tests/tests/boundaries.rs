//! The crate boundaries ARCHITECTURE.md states, machine-checked: each workspace crate's normal (non-dev)
//! dependencies on other workspace crates are exactly the listed ones (`cargo metadata --no-deps`, offline), so a
//! new `use` across a boundary fails here before it fails a review. The pure crates' ban on file system and
//! environment access is `disallowed-methods` in their `clippy.toml`; `vgc-build`'s freedom from the CLI's crates
//! is `build/tests/dependencies.rs`.

use std::collections::{BTreeMap, BTreeSet};

/// crate → the workspace crates it may depend on (normal dependencies).
const BOUNDARIES: &[(&str, &[&str])] = &[
    // Never fails and knows no tag meanings: depends on nothing of vgc.
    ("vgc-parser", &[]),
    // Used by generated code: depends on no compiler crate.
    ("vgc-runtime", &[]),
    // The catalog names the runtime's formats and update constraints.
    ("vgc-ir", &["vgc-parser", "vgc-runtime"]),
    ("vgc-analysis", &["vgc-ir", "vgc-parser"]),
    (
        "vgc-lowering",
        &["vgc-analysis", "vgc-ir", "vgc-parser", "vgc-runtime"],
    ),
    (
        "vgc-codegen",
        &["vgc-analysis", "vgc-ir", "vgc-lowering", "vgc-runtime"],
    ),
    // The interpreter: no codegen, no driver.
    (
        "vgc-validate",
        &["vgc-analysis", "vgc-ir", "vgc-lowering", "vgc-runtime"],
    ),
    (
        "vgc-docs-gen",
        &[
            "vgc-analysis",
            "vgc-codegen",
            "vgc-ir",
            "vgc-lowering",
            "vgc-parser",
            "vgc-runtime",
        ],
    ),
    // The driver library: no CLI, no docs site, no interpreter.
    (
        "vgc-driver",
        &[
            "vgc-analysis",
            "vgc-codegen",
            "vgc-ir",
            "vgc-lowering",
            "vgc-runtime",
        ],
    ),
    // build.rs API: the driver, not the CLI.
    ("vgc-build", &["vgc-codegen", "vgc-driver", "vgc-ir"]),
];

#[test]
fn workspace_crates_depend_only_across_stated_boundaries() {
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let actual: BTreeMap<String, BTreeSet<String>> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| {
                    d["kind"].is_null() && d["name"].as_str().is_some_and(|n| n.starts_with("vgc"))
                })
                .filter_map(|d| d["name"].as_str().map(str::to_string))
                .collect();
            (p["name"].as_str().expect("name").to_string(), deps)
        })
        .collect();
    for (krate, allowed) in BOUNDARIES {
        let got = actual
            .get(*krate)
            .unwrap_or_else(|| panic!("{krate} is not a workspace member"));
        let want: BTreeSet<String> = allowed.iter().map(|s| (*s).to_string()).collect();
        assert_eq!(
            got, &want,
            "{krate}'s workspace dependencies differ from the boundary ARCHITECTURE.md states (update both, or move the code)"
        );
    }
}
