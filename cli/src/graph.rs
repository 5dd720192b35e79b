//! The renderers of `vgc graph`: the dependency graph [`vgc_lowering::graph::build`] makes of a plan, written as
//! Graphviz DOT, Mermaid, JSON or GraphML, with the drawing choices (clusters per type, a colour and line style per
//! edge kind, node and edge labels). The graph itself — nodes, edges, filters — is lowering's; how it is drawn is
//! the command line's.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use vgc_lowering::graph::{Edge, EdgeKind, Graph, Node, NodeKind};

/// The text drawn for node `n` in DOT and Mermaid: a field as `Type.field`, anything else by its label.
#[must_use]
pub fn node_label(n: &Node) -> String {
    match (n.kind, n.owner()) {
        (NodeKind::Field, Some(owner)) => {
            let ty = owner.rsplit_once('.').map_or(owner.as_str(), |(_, t)| t);
            format!("{ty}.{}", n.label)
        }
        _ => n.label.clone(),
    }
}

/// The text drawn on edge `e` in DOT and Mermaid: the kind, then the label when there is one.
#[must_use]
pub fn edge_label(e: &Edge) -> String {
    if e.label.is_empty() {
        e.kind.to_string()
    } else {
        format!("{} {}", e.kind, e.label)
    }
}

/// How an edge kind is drawn: (colour, DOT style). The structure (`field`, `type-ref`, `typedef`) is grey, the
/// cross-field rules each have a colour, solid for what constrains and dashed for what forbids or selects.
#[must_use]
pub fn edge_style(kind: EdgeKind) -> (&'static str, &'static str) {
    match kind {
        EdgeKind::Field => ("#999999", "dotted"),
        EdgeKind::TypeRef | EdgeKind::Typedef => ("#999999", "dashed"),
        EdgeKind::UnionMember => ("#1f77b4", "solid"),
        EdgeKind::UnionDiscriminator => ("#1f77b4", "bold"),
        EdgeKind::ModeDiscriminator => ("#2ca02c", "bold"),
        EdgeKind::IfMode => ("#2ca02c", "solid"),
        EdgeKind::DependentRequired => ("#d62728", "solid"),
        EdgeKind::DependentForbidden => ("#d62728", "dashed"),
        EdgeKind::ListMapKey => ("#9467bd", "solid"),
        EdgeKind::Item => ("#9467bd", "dashed"),
        EdgeKind::Subfield => ("#ff7f0e", "solid"),
        EdgeKind::Option => ("#8c564b", "dotted"),
        EdgeKind::Subresource => ("#e377c2", "dotted"),
        EdgeKind::Hoisted => ("#555555", "bold"),
        EdgeKind::Constraint => ("#17becf", "solid"),
    }
}

/// The title of the cluster of type `owner` (`<pkg>.<Type>`): the type name, prefixed with the last segment of its
/// package path (`v1beta1.Widget`) when the graph spans `several_packages` ([`spans_several_packages`], computed
/// once per graph), so that versions of one type differ.
fn cluster_title(owner: &str, several_packages: bool) -> String {
    let (pkg, ty) = owner.rsplit_once('.').unwrap_or(("", owner));
    match pkg.rsplit('/').next() {
        Some(last) if several_packages && !last.is_empty() => format!("{last}.{ty}"),
        _ => ty.to_string(),
    }
}

/// Whether the nodes of `g` come from more than one package (nodes without a package, options, aside).
fn spans_several_packages(g: &Graph) -> bool {
    let mut pkgs = g
        .nodes
        .iter()
        .map(|n| n.pkg.as_str())
        .filter(|p| !p.is_empty());
    pkgs.next().is_some_and(|first| pkgs.any(|p| p != first))
}

/// Nodes grouped for drawing: each type's cluster (the type node and what it declares) in id order, then the
/// nodes outside any type (options).
fn clusters(g: &Graph) -> (Vec<(String, Vec<&Node>)>, Vec<&Node>) {
    let mut by: BTreeMap<String, Vec<&Node>> = BTreeMap::new();
    let mut free = Vec::new();
    for n in &g.nodes {
        match n.owner() {
            Some(o) => by.entry(o).or_default().push(n),
            None => free.push(n),
        }
    }
    (by.into_iter().collect(), free)
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Graphviz DOT: one `cluster` per type (the type and its fields, union groups, modes and items; fields labelled
/// `Type.field`), options outside, one colour and line style per edge kind ([`edge_style`]).
#[must_use]
pub fn to_dot(g: &Graph) -> String {
    let mut out = String::from(
        "digraph vgc {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8];\n",
    );
    let node = |out: &mut String, n: &Node, indent: &str| {
        let shape = match n.kind {
            NodeKind::Type => "box",
            NodeKind::Field => "ellipse",
            NodeKind::Union => "diamond",
            NodeKind::Mode => "hexagon",
            NodeKind::Item => "note",
            NodeKind::Option => "octagon",
            NodeKind::Subresource => "cds",
        };
        let _ = writeln!(
            out,
            "{indent}\"{}\" [label=\"{}\", shape={shape}];",
            dot_escape(&n.id),
            dot_escape(&node_label(n))
        );
    };
    let (groups, free) = clusters(g);
    let several = spans_several_packages(g);
    for (i, (owner, nodes)) in groups.iter().enumerate() {
        let title = cluster_title(owner, several);
        let _ = writeln!(
            out,
            "  subgraph \"cluster_{i}\" {{\n    label=\"{}\";\n    style=rounded;\n    color=\"#bbbbbb\";",
            dot_escape(&title)
        );
        for n in nodes {
            node(&mut out, n, "    ");
        }
        out.push_str("  }\n");
    }
    for n in free {
        node(&mut out, n, "  ");
    }
    for e in &g.edges {
        let (color, style) = edge_style(e.kind);
        let _ = writeln!(
            out,
            "  \"{}\" -> \"{}\" [label=\"{}\", color=\"{color}\", fontcolor=\"{color}\", style={style}];",
            dot_escape(&e.from),
            dot_escape(&e.to),
            dot_escape(&edge_label(e))
        );
    }
    out.push_str("}\n");
    out
}

/// Mermaid `flowchart LR` (node ids are numbered; labels carry the names): one `subgraph` per type as in
/// [`to_dot`], edges coloured per kind with `linkStyle`.
#[must_use]
pub fn to_mermaid(g: &Graph) -> String {
    let ids: BTreeMap<&str, usize> = g
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let esc = |s: &str| s.replace('"', "#quot;");
    let mut out = String::from("flowchart LR\n");
    let node = |out: &mut String, n: &Node, indent: &str| {
        let i = ids[n.id.as_str()];
        let label = esc(&node_label(n));
        let _ = match n.kind {
            NodeKind::Type => writeln!(out, "{indent}n{i}[\"{label}\"]"),
            NodeKind::Field => writeln!(out, "{indent}n{i}(\"{label}\")"),
            NodeKind::Union => writeln!(out, "{indent}n{i}{{\"{label}\"}}"),
            NodeKind::Mode => writeln!(out, "{indent}n{i}{{{{\"{label}\"}}}}"),
            NodeKind::Item => writeln!(out, "{indent}n{i}[/\"{label}\"/]"),
            NodeKind::Option => writeln!(out, "{indent}n{i}((\"{label}\"))"),
            NodeKind::Subresource => writeln!(out, "{indent}n{i}>\"{label}\"]"),
        };
    };
    let (groups, free) = clusters(g);
    let several = spans_several_packages(g);
    for (c, (owner, nodes)) in groups.iter().enumerate() {
        let title = cluster_title(owner, several);
        let _ = writeln!(out, "  subgraph c{c}[\"{}\"]", esc(&title));
        for n in nodes {
            node(&mut out, n, "    ");
        }
        out.push_str("  end\n");
    }
    for n in free {
        node(&mut out, n, "  ");
    }
    for e in &g.edges {
        let label = edge_label(e);
        let _ = writeln!(
            out,
            "  n{} -->|\"{}\"| n{}",
            ids[e.from.as_str()],
            esc(&label),
            ids[e.to.as_str()]
        );
    }
    for (i, e) in g.edges.iter().enumerate() {
        let (color, style) = edge_style(e.kind);
        let dash = match style {
            "dashed" => ",stroke-dasharray:5 5",
            "dotted" => ",stroke-dasharray:2 2",
            _ => "",
        };
        let width = if style == "bold" { "2.5px" } else { "1.5px" };
        let _ = writeln!(
            out,
            "  linkStyle {i} stroke:{color},stroke-width:{width}{dash}"
        );
    }
    out
}

/// JSON (schema version 1): `{"version": 1, "nodes": [{"id","kind","label","package"}], "edges": [{"from","to",
/// "kind","label"}]}`.
#[must_use]
pub fn to_json(g: &Graph) -> serde_json::Value {
    serde_json::json!({
        "version": 1,
        "nodes": g.nodes.iter().map(|n| serde_json::json!({"id": n.id, "kind": n.kind.as_str(), "label": n.label, "package": n.pkg})).collect::<Vec<_>>(),
        "edges": g.edges.iter().map(|e| serde_json::json!({"from": e.from, "to": e.to, "kind": e.kind.name(), "label": e.label})).collect::<Vec<_>>(),
    })
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// GraphML with `kind`, `label` and `package` data keys.
#[must_use]
pub fn to_graphml(g: &Graph) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n  <key id=\"kind\" for=\"all\" attr.name=\"kind\" attr.type=\"string\"/>\n  <key id=\"label\" for=\"all\" attr.name=\"label\" attr.type=\"string\"/>\n  <key id=\"package\" for=\"node\" attr.name=\"package\" attr.type=\"string\"/>\n  <graph id=\"vgc\" edgedefault=\"directed\">\n",
    );
    for n in &g.nodes {
        let _ = writeln!(
            out,
            "    <node id=\"{}\"><data key=\"kind\">{}</data><data key=\"label\">{}</data><data key=\"package\">{}</data></node>",
            xml_escape(&n.id),
            n.kind.as_str(),
            xml_escape(&n.label),
            xml_escape(&n.pkg)
        );
    }
    for e in &g.edges {
        let _ = writeln!(
            out,
            "    <edge source=\"{}\" target=\"{}\"><data key=\"kind\">{}</data><data key=\"label\">{}</data></edge>",
            xml_escape(&e.from),
            xml_escape(&e.to),
            e.kind,
            xml_escape(&e.label)
        );
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}
