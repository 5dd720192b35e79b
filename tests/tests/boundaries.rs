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
    // The Go backend reads the plan as codegen does: no codegen, no driver.
    (
        "vgc-gogen",
        &["vgc-analysis", "vgc-ir", "vgc-lowering", "vgc-runtime"],
    ),
    // The OpenAPI backend reads the plan as codegen does: no codegen, no driver, no IO.
    (
        "vgc-openapi",
        &["vgc-analysis", "vgc-ir", "vgc-lowering", "vgc-runtime"],
    ),
    // The interpreter: no codegen, no driver.
    (
        "vgc-validate",
        &["vgc-analysis", "vgc-ir", "vgc-lowering", "vgc-runtime"],
    ),
    // The describer of checks is lowering's (`vgc_lowering::words`): no runtime.
    (
        "vgc-docs-gen",
        &[
            "vgc-analysis",
            "vgc-codegen",
            "vgc-ir",
            "vgc-lowering",
            "vgc-parser",
        ],
    ),
    // The driver library: no CLI, no docs site, no interpreter; the backends.
    (
        "vgc-driver",
        &[
            "vgc-analysis",
            "vgc-codegen",
            "vgc-gogen",
            "vgc-ir",
            "vgc-lowering",
            "vgc-openapi",
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

/// The top-level modules of `src` (a file `x.rs` or directory `x/` of `src` is module `x`; `lib.rs` and `main.rs`
/// are the crate root) and, for each, the top-level modules its code names through `crate::x` (or, in a file of
/// `src` itself, `super::x`). Comment lines (docs included) and everything from a file's first `#[cfg(test)]` on
/// are left out: they do not make the modules depend on each other.
fn module_imports(src: &std::path::Path) -> BTreeMap<String, BTreeSet<String>> {
    let path = regex::Regex::new(r"\bcrate::([a-z_][a-z0-9_]*)").expect("regex");
    let parent = regex::Regex::new(r"\bsuper::([a-z_][a-z0-9_]*)").expect("regex");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src dir") {
            let p = entry.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).expect("under src");
            let first = rel.components().next().expect("a component");
            let top = std::path::Path::new(first.as_os_str())
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            if matches!(top.as_str(), "lib" | "main") {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("read source");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let at_top = rel.components().count() == 1;
            let used = graph.entry(top.clone()).or_default();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                let mut names: Vec<&str> = path
                    .captures_iter(line)
                    .map(|c| c.get(1).expect("group").as_str())
                    .collect();
                if at_top {
                    names.extend(
                        parent
                            .captures_iter(line)
                            .map(|c| c.get(1).expect("group").as_str()),
                    );
                }
                used.extend(names.into_iter().filter(|n| *n != top).map(str::to_string));
            }
        }
    }
    graph
}

/// No crate's files import each other in a cycle (issue 34: a cycle is a name in the wrong module, and it makes the
/// modules one unit to read and to change). Each workspace crate's module graph, from [`module_imports`], has no
/// strongly connected component of more than one module.
#[test]
fn no_import_cycle_between_the_files_of_any_crate() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cycles = Vec::new();
    for krate in [
        "parser", "runtime", "ir", "analysis", "lowering", "codegen", "validate", "docs-gen",
        "openapi", "driver", "cli", "build", "lint",
    ] {
        let src = root.join(krate).join("src");
        if !src.is_dir() {
            continue;
        }
        let imports = module_imports(&src);
        let mut g = petgraph::graph::DiGraph::<&str, ()>::new();
        let nodes: BTreeMap<&str, _> = imports
            .keys()
            .map(|m| (m.as_str(), g.add_node(m.as_str())))
            .collect();
        for (from, tos) in &imports {
            for to in tos {
                if let Some(&t) = nodes.get(to.as_str()) {
                    g.add_edge(nodes[from.as_str()], t, ());
                }
            }
        }
        for scc in petgraph::algo::tarjan_scc(&g) {
            if scc.len() > 1 {
                let mut names: Vec<&str> = scc.iter().map(|n| g[*n]).collect();
                names.sort_unstable();
                cycles.push(format!("{krate}: {}", names.join(" ↔ ")));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules importing each other in a cycle (move the name that ties them):\n{}",
        cycles.join("\n")
    );
}
