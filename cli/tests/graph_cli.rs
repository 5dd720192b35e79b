//! `vgc graph` defaults and filters, and `vgc completions`, through the built binary on the bundled example.

use std::process::{Command, Output};

fn vgc(args: &[&str]) -> Output {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/api");
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .arg(example)
        .output()
        .expect("vgc runs")
}

/// The edge kinds of a `--format json` graph.
fn edge_kinds(g: &serde_json::Value) -> std::collections::BTreeSet<&str> {
    g["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_default_view_is_cross_field_and_all_shows_the_structure() {
    let cross = vgc(&["graph", "--format", "json"]);
    assert_eq!(cross.status.code(), Some(0), "{}", stderr(&cross));
    let g: serde_json::Value = serde_json::from_slice(&cross.stdout).expect("json");
    let kinds = edge_kinds(&g);
    assert!(!kinds.is_empty());
    for structural in ["field", "type-ref", "typedef"] {
        assert!(!kinds.contains(structural), "{kinds:?}");
    }
    // The summary names the upstream profile in force (the example's go.mod requires no k8s.io module: newest).
    let profile = " (upstream 1.38: default: newest; no k8s.io module version in go.mod)";
    assert_eq!(
        stderr(&cross),
        format!("vgc graph: 38 nodes, 30 edges{profile}\n")
    );
    let all = vgc(&["graph", "--all"]);
    assert_eq!(
        stderr(&all),
        format!("vgc graph: 100 nodes, 120 edges{profile}\n")
    );
    assert_eq!(
        vgc(&["graph", "--all", "--edge", "field"]).status.code(),
        Some(2)
    );
    // `--edge` is typed (`graph::EdgeKind`): an unknown kind is a usage error listing the known ones.
    let unknown = vgc(&["graph", "--edge", "union-membr"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).starts_with(
            "error: invalid value 'union-membr' for '--edge <EDGES>': unknown edge kind \"union-membr\" (known: field, type-ref, typedef, union-member,"
        ),
        "{}",
        stderr(&unknown)
    );
}

/// `--type` in the default cross-field view starts from the type's fields (its type node has no cross-field edge):
/// it printed an empty graph before (found by a new-user trial).
#[test]
fn type_filter_in_the_cross_field_view_starts_from_the_fields() {
    let o = vgc(&["graph", "--type", "WidgetSpec", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let g: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let kinds = edge_kinds(&g);
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            "hoisted",
            "item",
            "list-map-key",
            "subfield",
            "union-member"
        ]
    );
    assert_eq!(g["nodes"].as_array().map(Vec::len), Some(11));
}

#[test]
fn a_filter_that_matches_nothing_is_an_error_with_a_suggestion() {
    let o = vgc(&["graph", "--type", "Widgt"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --type \"Widgt\" matches no type; did you mean `Widget`?\n"
    );
    assert!(o.stdout.is_empty());
    let o = vgc(&["graph", "--group", "example.com/widgts"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --group \"example.com/widgts\" matches no package; did you mean `example.com/widgets`?\n"
    );
    // An API group name, as apiVersion spells it, points at its package directory.
    let o = vgc(&["graph", "--group", "widgets.example.com"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --group \"widgets.example.com\" matches no package; `--group` takes a Go package path prefix: for the API group \"widgets.example.com\", did you mean `example.com/widgets`?\n"
    );
    let o = vgc(&["graph", "--version", "v7"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "error: --version \"v7\" matches no package\n");
}

#[test]
fn completions() {
    let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["completions", "bash"])
        .output()
        .expect("vgc runs");
    assert_eq!(o.status.code(), Some(0));
    let script = String::from_utf8_lossy(&o.stdout);
    assert!(
        script.contains("_vgc()") && script.contains("--write-baseline"),
        "{script}"
    );
}
