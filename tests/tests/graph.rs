//! `vgc graph` on the bundled example: snapshots of every format (deterministic output), the filters, and the DOT
//! output rendered by Graphviz without errors (`dot`, which `.ci/run` installs from Debian's packages).

use vgc::driver::BuildRequest;
use vgc_lowering::graph;

fn graph_of(rel: &str) -> graph::Graph {
    let root = vgc_tests::example::workspace_root();
    let out = vgc::build(&BuildRequest::check(
        root.join(rel).to_string_lossy().into_owned(),
        Vec::new(),
    ));
    assert_eq!(vgc::exit_code(&out), 0);
    graph::build(&out.plan)
}

fn example_graph() -> graph::Graph {
    graph_of("examples/api")
}

#[test]
fn formats_are_deterministic_snapshots() {
    let g = example_graph();
    assert_eq!(g, example_graph(), "same input, same graph");
    insta::assert_snapshot!("graph_dot", vgc::graph::to_dot(&g));
    insta::assert_snapshot!("graph_mermaid", vgc::graph::to_mermaid(&g));
    insta::assert_json_snapshot!("graph_json", vgc::graph::to_json(&g));
    insta::assert_snapshot!("graph_graphml", vgc::graph::to_graphml(&g));
}

#[test]
fn every_edge_kind_occurs_in_the_conformance_packages() {
    let g = graph_of("tests/conformance");
    let (_, mut edges) = graph::counts(&g);
    // vgc's extensions (`constraint`, `subresource` edges) are in their own packages, built with extensions enabled.
    let ext = graph_of("tests/extensions");
    edges.extend(graph::counts(&ext).1);
    let missing: Vec<&str> = graph::EdgeKind::ALL
        .iter()
        .map(|k| k.name())
        .filter(|k| !edges.contains_key(k))
        .collect();
    assert!(
        missing.is_empty(),
        "edge kinds the example does not show: {missing:?}"
    );
}

/// Field-path constraints (vgc extension): one `constraint` edge from the constrained field to the field its path
/// names (a child of a sibling lives in its own struct), labelled with the comparison.
#[test]
fn field_path_constraints_are_constraint_edges() {
    let g = graph_of("tests/extensions");
    let p = "vgc.test/extensions/constraints";
    let got: Vec<(String, String, String)> = g
        .edges
        .iter()
        .filter(|e| e.kind == graph::EdgeKind::Constraint)
        .map(|e| (e.from.clone(), e.to.clone(), e.label.clone()))
        .collect();
    let want: Vec<(String, String, String)> = [
        ("Config.current", "Config.minValue", "minimum"),
        ("Config.current", "Limits.maxValue", "maximum"),
        ("Config.level", "Common.floor", "exclusiveMinimum"),
        ("Config.level", "Config.ceiling", "exclusiveMaximum"),
        ("Config.replicas", "Config.ceiling", "maximum"),
        // Per element (`eachVal=+k8s:…(constraint: …)`): from the list or map field.
        (
            "Config.thresholds",
            "Config.maxThreshold",
            "eachVal=maximum",
        ),
        (
            "Config.levels",
            "Config.minValue",
            "eachVal=exclusiveMinimum",
        ),
        (
            "Config.steps",
            "Limits.maxValue",
            "eachVal=exclusiveMaximum",
        ),
        ("Config.quotas", "Common.floor", "eachVal=minimum"),
        ("Config.weights", "Config.level", "eachVal=minimum"),
        ("Config.caps", "Config.replicas", "eachVal=maximum"),
        // The `target:` form on `Config`: the constrained field is a child of a sibling.
        ("Limits.maxValue", "Common.floor", "minimum"),
    ]
    .iter()
    .map(|(f, t, l)| (format!("{p}.{f}"), format!("{p}.{t}"), (*l).to_string()))
    .collect();
    let mut want = want;
    want.sort();
    assert_eq!(got, want);
    // Each check runs on `Config`, the common ancestor: a `hoisted` edge to its constrained field, wherever that
    // field is declared.
    let hoisted: std::collections::BTreeSet<(String, String)> = g
        .edges
        .iter()
        .filter(|e| e.kind == graph::EdgeKind::Hoisted && e.from.starts_with(p))
        .map(|e| (e.from.clone(), e.to.clone()))
        .collect();
    let want: std::collections::BTreeSet<(String, String)> = [
        "Config.current",
        "Config.level",
        "Config.replicas",
        "Config.thresholds",
        "Config.levels",
        "Config.steps",
        "Config.quotas",
        "Config.weights",
        "Config.caps",
        "Limits.maxValue",
    ]
    .iter()
    .map(|t| (format!("{p}.Config"), format!("{p}.{t}")))
    .collect();
    assert_eq!(hoisted, want);
}

/// Subresource conditions (vgc extension): a `subresource` node per path with an edge to each field whose rule it
/// conditions, labelled `ifSubresource`/`ifNotSubresource` (conditions inside `eachVal` and under `ifEnabled`
/// included).
/// Virtual groups (vgc extension): a group node hoisted to the members' closest common ancestor, with a
/// `union-member` edge to each member field, wherever it is declared, or list-map item, labelled with the member's
/// name in messages.
#[test]
fn virtual_groups_hang_from_the_common_ancestor() {
    let g = graph_of("tests/extensions");
    let p = "vgc.test/extensions/virtual";
    let mut got: Vec<(String, String, String)> = g
        .edges
        .iter()
        .filter(|e| e.from.contains("#group:"))
        .map(|e| (e.from.clone(), e.to.clone(), e.label.clone()))
        .collect();
    got.sort();
    let mut want: Vec<(String, String, String)> = [
        ("Job#group:owner", "JobSpec.owner", "spec.owner"),
        (
            "Job#group:owner",
            "JobStatus.assignedOwner",
            "status.assignedOwner",
        ),
        ("JobSpec#group:schedule", "JobSpec.cron", "cron"),
        (
            "JobSpec#group:schedule",
            "JobSpec.triggers[{\"name\": \"at\"}]",
            "triggers[{\"name\": \"at\"}]",
        ),
        ("JobSpec#group:source", "JobSpec.image", "image"),
        (
            "JobSpec#group:source",
            "BuildSpec.dockerfile",
            "build.dockerfile",
        ),
        ("JobSpec#group:source", "BuildSpec.git", "build.git"),
        (
            "JobStatus#group:terminalStatus",
            "JobStatus.conditions[{\"type\": \"Succeeded\"}]",
            "conditions[{\"type\": \"Succeeded\"}]",
        ),
        (
            "JobStatus#group:terminalStatus",
            "JobStatus.conditions[{\"type\": \"Failed\"}]",
            "conditions[{\"type\": \"Failed\"}]",
        ),
    ]
    .iter()
    .map(|(f, t, l)| (format!("{p}.{f}"), format!("{p}.{t}"), (*l).to_string()))
    .collect();
    want.sort();
    assert_eq!(got, want);
    let hoisted: Vec<&str> = g
        .edges
        .iter()
        .filter(|e| e.kind == graph::EdgeKind::Hoisted && e.to.contains("#group:"))
        .map(|e| e.to.as_str())
        .collect();
    assert_eq!(hoisted.len(), 4, "{hoisted:?}");
}

#[test]
fn subresource_conditions_are_subresource_edges() {
    let g = graph_of("tests/extensions");
    let p = "vgc.test/extensions/subresources";
    let got: Vec<(String, String, String)> = g
        .edges
        .iter()
        .filter(|e| e.kind == graph::EdgeKind::Subresource)
        .map(|e| (e.from.clone(), e.to.clone(), e.label.clone()))
        .collect();
    let mut want: Vec<(String, String, String)> = [
        ("/resize", "WidgetSpec.size", "ifNotSubresource"),
        ("/", "WidgetSpec.name", "ifSubresource"),
        ("/status", "WidgetSpec.tags", "ifNotSubresource"),
        ("/resize", "WidgetSpec.tags", "ifSubresource"),
        ("/resize", "WidgetSpec.limit", "ifNotSubresource"),
        ("/resize", "WidgetSpec.steps", "ifSubresource"),
        ("/status", "WidgetStatus.phase", "ifSubresource"),
        ("/status", "WidgetStatus.phase", "ifNotSubresource"),
    ]
    .iter()
    .map(|(s, f, l)| {
        (
            format!("subresource:{s}"),
            format!("{p}.{f}"),
            (*l).to_string(),
        )
    })
    .collect();
    want.sort();
    assert_eq!(got, want);
    let node = g
        .nodes
        .iter()
        .find(|n| n.id == "subresource:/resize")
        .expect("a subresource node");
    assert_eq!(
        (node.kind, node.label.as_str(), node.owner()),
        (graph::NodeKind::Subresource, "/resize", None)
    );
}

#[test]
fn filters_select_the_neighbourhood_and_edge_kinds() {
    let g = example_graph();
    let f = graph::Filter {
        ty: Some("Source".into()),
        depth: Some(1),
        ..graph::Filter::default()
    };
    let ids: Vec<String> = graph::filter(&g, &f)
        .nodes
        .into_iter()
        .map(|n| n.id)
        .collect();
    let p = "example.com/widgets/widgets/v1";
    assert_eq!(
        ids,
        [
            format!("{p}.Source"),
            format!("{p}.Source#union:Union"),
            format!("{p}.Source#union:ZeroOrOneOf"),
            format!("{p}.Source.container"),
            format!("{p}.Source.digest"),
            format!("{p}.Source.git"),
            format!("{p}.Source.tag"),
            format!("{p}.Source.type"),
            format!("{p}.WidgetSpec.source"),
        ]
    );
    let only = graph::filter(
        &g,
        &graph::Filter {
            edges: vec![
                graph::EdgeKind::DependentRequired,
                graph::EdgeKind::DependentForbidden,
            ],
            ..graph::Filter::default()
        },
    );
    let edges: Vec<(String, &str)> = only
        .edges
        .iter()
        .map(|e| (e.to.clone(), e.kind.name()))
        .collect();
    assert_eq!(
        edges,
        [
            (format!("{p}.Scaling.fixed"), "dependent-forbidden"),
            (format!("{p}.Scaling.max"), "dependent-required"),
        ]
    );
    let meta = graph::filter(
        &g,
        &graph::Filter {
            group: Some("example.com/widgets/meta".into()),
            ..graph::Filter::default()
        },
    );
    assert!(
        meta.nodes
            .iter()
            .all(|n| n.pkg.starts_with("example.com/widgets/meta"))
    );
    assert!(!meta.nodes.is_empty());
}

#[test]
fn graphviz_renders_the_dot_output() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GRAPHVIZ) {
        return;
    }
    let dot = vgc::graph::to_dot(&example_graph());
    let tmp = tempfile::tempdir().expect("tempdir");
    let input = tmp.path().join("g.dot");
    std::fs::write(&input, &dot).expect("write");
    let out = std::process::Command::new("dot")
        .args(["-Tsvg", "-o"])
        .arg(tmp.path().join("g.svg"))
        .arg(&input)
        .output()
        .expect("Graphviz `dot` is installed (`.ci/run` installs the graphviz package)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "dot warned: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(tmp.path().join("g.svg")).expect("svg");
    assert!(svg.contains("<svg") && svg.contains("Endpoint"));
}
