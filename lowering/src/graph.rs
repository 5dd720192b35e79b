//! `vgc graph`: the cross-field dependency graph of the lowered plan. Nodes are types, fields (by JSON path within
//! their type), virtual fields (union groups, modes, list-map items) and options; edges say how they depend on each
//! other. The graph is a sorted node and edge list (deterministic output); petgraph is built on demand for the
//! depth filter.
//!
//! Edge kinds (the `kind` in every format):
//! `field` (type → its field), `type-ref` (field → the named type of its value), `typedef` (typedef → the type it
//! is declared from), `union-member` / `union-discriminator` (union group → member / discriminator field),
//! `mode-discriminator` / `if-mode` (mode → discriminator / member field, labelled with the mode value),
//! `dependent-required` / `dependent-forbidden` (trigger field → dependent field), `list-map-key` (list field →
//! key field of the element type), `item` (list field → item selector node), `subfield` (field → member field of
//! its type), `option` (option → field it guards), `hoisted` (type → the union group or mode deferred to it from
//! its fields, or → the field whose field-path constraint it checks: the rule's common ancestor), `constraint` (constrained field → the field its field-path constraint
//! names, labelled with the comparison; vgc extension).

use crate::plan::CratePlan;
use crate::plan::{Check, CheckKind, Matcher, RustTy, TypePlan};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What a node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NodeKind {
    /// A named Go type.
    Type,
    /// A struct field.
    Field,
    /// A union or zero-or-one-of group.
    Union,
    /// A mode (modality) of a struct.
    Mode,
    /// A list-map item selected by `item(…)`.
    Item,
    /// A validation option (feature gate).
    Option,
    /// A subresource a condition names (`ifSubresource`/`ifNotSubresource`, vgc extension).
    Subresource,
}

impl NodeKind {
    /// The kind's name in the renderers' output (`type`, `field`, `union`, `mode`, `item`, `option`,
    /// `subresource`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Type => "type",
            NodeKind::Field => "field",
            NodeKind::Union => "union",
            NodeKind::Mode => "mode",
            NodeKind::Item => "item",
            NodeKind::Option => "option",
            NodeKind::Subresource => "subresource",
        }
    }
}

/// A node: a stable id (`<pkg>.<Type>`, `<pkg>.<Type>.<json>`, `<pkg>.<Type>#union:<name>`, `option:<name>`, …),
/// its kind and a short label.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Node {
    /// Stable identifier.
    pub id: String,
    /// Kind.
    pub kind: NodeKind,
    /// Display label.
    pub label: String,
    /// Import path of the package it belongs to (empty for options).
    pub pkg: String,
}

/// An edge `from → to` of a kind, with an optional label (a mode value, an item selector).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    /// Source node id.
    pub from: String,
    /// Target node id.
    pub to: String,
    /// Edge kind.
    pub kind: EdgeKind,
    /// Label, possibly empty.
    pub label: String,
}

impl Node {
    /// The id of the type node whose cluster this node is drawn in: for a field, union group, mode or item, the
    /// type that declares it (`<pkg>.<Type>`); for a type, itself; `None` for options and subresources.
    #[must_use]
    pub fn owner(&self) -> Option<String> {
        if matches!(self.kind, NodeKind::Option | NodeKind::Subresource) {
            return None;
        }
        let rest = self.id.strip_prefix(&self.pkg)?.strip_prefix('.')?;
        let end = rest.find(['.', '#']).unwrap_or(rest.len());
        Some(format!("{}.{}", self.pkg, &rest[..end]))
    }
}

/// The graph: nodes and edges sorted by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Graph {
    /// Nodes, sorted by id.
    pub nodes: Vec<Node>,
    /// Edges, sorted.
    pub edges: Vec<Edge>,
}

/// Declares [`EdgeKind`] from one table of `Variant => "kebab-name"` rows, in documentation order.
macro_rules! edge_kinds {
    ($($variant:ident => $name:literal),* $(,)?) => {
        /// The kind of a graph edge (see the module docs); serialized, filtered (`--edge`) and drawn by its name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum EdgeKind {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl EdgeKind {
            /// Every edge kind, in documentation order.
            pub const ALL: &'static [EdgeKind] = &[$(EdgeKind::$variant),*];

            /// The kind's name (`union-member`).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(EdgeKind::$variant => $name,)*
                }
            }
        }
    };
}

edge_kinds! {
    Field => "field",
    TypeRef => "type-ref",
    Typedef => "typedef",
    UnionMember => "union-member",
    UnionDiscriminator => "union-discriminator",
    ModeDiscriminator => "mode-discriminator",
    IfMode => "if-mode",
    DependentRequired => "dependent-required",
    DependentForbidden => "dependent-forbidden",
    ListMapKey => "list-map-key",
    Item => "item",
    Subfield => "subfield",
    Option => "option",
    Hoisted => "hoisted",
    Constraint => "constraint",
    Subresource => "subresource",
}

impl EdgeKind {
    /// The type structure (`field`, `type-ref`, `typedef`), left out of `vgc graph`'s default (cross-field) view.
    #[must_use]
    pub const fn is_structural(self) -> bool {
        matches!(
            self,
            EdgeKind::Field | EdgeKind::TypeRef | EdgeKind::Typedef
        )
    }
}

impl From<EdgeKind> for &'static str {
    fn from(k: EdgeKind) -> Self {
        k.name()
    }
}

impl std::fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Edges sort by kind name (the graph's output order), not by declaration order.
impl Ord for EdgeKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for EdgeKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::str::FromStr for EdgeKind {
    type Err = String;

    /// The kind named `s`; the error lists the known names.
    fn from_str(s: &str) -> Result<Self, String> {
        EdgeKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = EdgeKind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown edge kind {s:?} (known: {})", known.join(", "))
            })
    }
}

#[derive(Default)]
struct Builder {
    nodes: BTreeMap<String, Node>,
    edges: BTreeSet<Edge>,
}

impl Builder {
    fn node(&mut self, id: String, kind: NodeKind, label: String, pkg: &str) -> String {
        self.nodes.entry(id.clone()).or_insert(Node {
            id: id.clone(),
            kind,
            label,
            pkg: pkg.to_string(),
        });
        id
    }
    /// `option:<name> → target`, labelled `ifEnabled`/`ifDisabled`.
    fn option_edge(&mut self, p: &crate::plan::IfOptionPlan, target: &str) {
        let oid = self.node(
            format!("option:{}", p.option),
            NodeKind::Option,
            p.option.clone(),
            "",
        );
        self.edge(
            &oid,
            target,
            EdgeKind::Option,
            if p.enabled { "ifEnabled" } else { "ifDisabled" },
        );
    }

    /// `subresource:<path> → target`, labelled `ifSubresource`/`ifNotSubresource`.
    fn subresource_edge(&mut self, p: &crate::plan::IfSubresourcePlan, target: &str) {
        let sid = self.node(
            format!("subresource:{}", p.path),
            NodeKind::Subresource,
            p.path.clone(),
            "",
        );
        self.edge(
            &sid,
            target,
            EdgeKind::Subresource,
            if p.negated {
                "ifNotSubresource"
            } else {
                "ifSubresource"
            },
        );
    }

    fn edge(&mut self, from: &str, to: &str, kind: EdgeKind, label: impl Into<String>) {
        self.edges.insert(Edge {
            from: from.to_string(),
            to: to.to_string(),
            kind,
            label: label.into(),
        });
    }
}

fn type_id(pkg: &str, name: &str) -> String {
    format!("{pkg}.{name}")
}

fn named(ty: &RustTy) -> Option<(&str, &str)> {
    match ty {
        RustTy::Named(k) => Some((&k.pkg, &k.name)),
        RustTy::Option(i, _) | RustTy::Vec(i) | RustTy::Map(i) => named(i),
        _ => None,
    }
}

/// Builds the graph of every type in the plan.
#[must_use]
pub fn build(plan: &CratePlan) -> Graph {
    let mut b = Builder::default();
    let types: BTreeMap<String, &TypePlan> = plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter())
        .map(|t| (type_id(&t.key.pkg, &t.key.name), &**t))
        .collect();
    for (tid, t) in &types {
        let pkg = t.key.pkg.as_str();
        b.node(tid.clone(), NodeKind::Type, t.key.name.clone(), pkg);
        if let Some((p, n)) = t.alias_of.as_ref().and_then(named) {
            let to = b.node(type_id(p, n), NodeKind::Type, n.to_string(), p);
            b.edge(tid, &to, EdgeKind::Typedef, "");
        }
        // Go field name → field node id, for struct-level rules.
        let mut by_go: BTreeMap<&str, String> = BTreeMap::new();
        for f in t.fields.iter().flatten().filter(|f| !f.skip) {
            let name = if f.json_name.is_empty() {
                f.go_name.clone()
            } else {
                f.json_name.clone()
            };
            let fid = b.node(format!("{tid}.{name}"), NodeKind::Field, name.clone(), pkg);
            by_go.insert(f.go_field.as_str(), fid.clone());
            b.edge(tid, &fid, EdgeKind::Field, "");
            if let Some((p, n)) = named(&f.ty) {
                let to = b.node(type_id(p, n), NodeKind::Type, n.to_string(), p);
                b.edge(&fid, &to, EdgeKind::TypeRef, "");
            }
        }
        for f in t.fields.iter().flatten().filter(|f| !f.skip) {
            let Some(fid) = by_go.get(f.go_field.as_str()).cloned() else {
                continue;
            };
            let elem = named(&f.ty).map(|(p, n)| type_id(p, n));
            if let Some(Matcher::Keys(keys)) =
                f.iteration.as_ref().map(|i| &i.matcher).or_else(|| {
                    f.checks.iter().find_map(|c| match &c.kind {
                        CheckKind::Unique(m)
                        | CheckKind::Update(_, m)
                        | CheckKind::EachVal(_, m, _) => Some(m),
                        _ => None,
                    })
                })
                && let Some(e) = &elem
                && let Some(et) = types.get(e)
            {
                for k in keys {
                    if let Some(kf) = et.fields.iter().flatten().find(|x| &x.go_field == k) {
                        let to = b.node(
                            format!("{e}.{}", kf.json_name),
                            NodeKind::Field,
                            kf.json_name.clone(),
                            &et.key.pkg,
                        );
                        b.edge(&fid, &to, EdgeKind::ListMapKey, "");
                    }
                }
            }
            for c in &f.checks {
                field_check(&mut b, &fid, pkg, elem.as_deref(), &types, c);
            }
        }
        for c in &t.checks {
            struct_check(&mut b, tid, pkg, &by_go, c);
        }
    }
    Graph {
        nodes: b.nodes.into_values().collect(),
        edges: b.edges.into_iter().collect(),
    }
}

/// Edges from one field-level check (recursing into wrappers).
fn field_check(
    b: &mut Builder,
    fid: &str,
    pkg: &str,
    elem: Option<&str>,
    types: &BTreeMap<String, &TypePlan>,
    c: &Check,
) {
    // JSON name of an element field given its Go name.
    let json_of = |go: &str| -> String {
        elem.and_then(|e| types.get(e))
            .and_then(|t| t.fields.iter().flatten().find(|f| f.go_field == go))
            .map_or_else(|| go.to_string(), |f| f.json_name.clone())
    };
    match &c.kind {
        CheckKind::IfOption(p) => {
            b.option_edge(p, fid);
            field_check(b, fid, pkg, elem, types, &p.inner);
        }
        CheckKind::IfSubresource(p) => {
            b.subresource_edge(p, fid);
            field_check(b, fid, pkg, elem, types, &p.inner);
        }
        CheckKind::EachVal(inner, _, _) | CheckKind::EachKey(inner) => {
            for i in inner {
                field_check(b, fid, pkg, elem, types, i);
            }
        }
        CheckKind::Subfield(s) => {
            if let Some(e) = elem {
                let epkg = types.get(e).map_or(pkg, |t| t.key.pkg.as_str());
                let to = b.node(
                    format!("{e}.{}", s.member.json),
                    NodeKind::Field,
                    s.member.json.clone(),
                    epkg,
                );
                b.edge(fid, &to, EdgeKind::Subfield, "");
            }
        }
        CheckKind::Item(i) => {
            let sel: Vec<String> = i
                .selector
                .iter()
                .map(|(k, _, v)| {
                    format!(
                        "{}={}",
                        json_of(k),
                        match v {
                            crate::plan::NeqValue::Str(s) => format!("{s:?}"),
                            crate::plan::NeqValue::Int(n) => n.to_string(),
                            crate::plan::NeqValue::Bool(x) => x.to_string(),
                        }
                    )
                })
                .collect();
            let label = sel.join(",");
            let iid = b.node(
                format!("{fid}[{label}]"),
                NodeKind::Item,
                format!("[{label}]"),
                pkg,
            );
            b.edge(fid, &iid, EdgeKind::Item, label);
            if let Some(e) = elem {
                b.edge(&iid, e, EdgeKind::TypeRef, "");
            }
        }
        CheckKind::ListUnion(u) => {
            let uid = format!("{fid}#union");
            let uid = b.node(uid, NodeKind::Union, format!("{:?}", u.kind), pkg);
            b.edge(fid, &uid, EdgeKind::Hoisted, "");
            for (name, _) in &u.members {
                let iid = b.node(
                    format!("{fid}{}", name.trim_start_matches(|c: char| c != '[')),
                    NodeKind::Item,
                    name.clone(),
                    pkg,
                );
                b.edge(&uid, &iid, EdgeKind::UnionMember, "");
            }
        }
        _ => {}
    }
}

/// Edges from one struct-level check of type `tid`.
fn struct_check(b: &mut Builder, tid: &str, pkg: &str, by_go: &BTreeMap<&str, String>, c: &Check) {
    match &c.kind {
        CheckKind::Union(u) => {
            let name = if u.name.is_empty() {
                format!("{:?}", u.kind)
            } else {
                format!("{:?}:{}", u.kind, u.name)
            };
            let uid = b.node(format!("{tid}#union:{name}"), NodeKind::Union, name, pkg);
            b.edge(tid, &uid, EdgeKind::Hoisted, "");
            for m in &u.members {
                if let Some(f) = by_go.get(m.member.go.as_str()) {
                    b.edge(&uid, f, EdgeKind::UnionMember, m.member_name.clone());
                }
            }
            if let Some(d) = &u.discriminator
                && let Some(f) = by_go.get(d.go.as_str())
            {
                b.edge(&uid, f, EdgeKind::UnionDiscriminator, "");
            }
        }
        CheckKind::Discriminated(m) => {
            // Named by the discriminator's JSON name (its field node is `<type>.<json>`), as the API spells it.
            let disc = by_go
                .get(m.discriminator.field.as_str())
                .and_then(|id| id.strip_prefix(&format!("{tid}.")))
                .unwrap_or(&m.discriminator.field)
                .to_string();
            let mid = b.node(
                format!("{tid}#mode:{disc}"),
                NodeKind::Mode,
                format!("mode({disc})"),
                pkg,
            );
            b.edge(tid, &mid, EdgeKind::Hoisted, "");
            if let Some(f) = by_go.get(m.discriminator.field.as_str()) {
                b.edge(&mid, f, EdgeKind::ModeDiscriminator, "");
            }
            if let Some(f) = by_go.get(m.member.go.as_str()) {
                for (v, _) in &m.rules {
                    b.edge(&mid, f, EdgeKind::IfMode, v.clone());
                }
            }
        }
        CheckKind::Dependent(d) => {
            if let (Some(t), Some(dep)) = (
                by_go.get(d.trigger.go.as_str()),
                by_go.get(d.dependent.go.as_str()),
            ) {
                let kind = if d.forbidden {
                    EdgeKind::DependentForbidden
                } else {
                    EdgeKind::DependentRequired
                };
                b.edge(t, dep, kind, "");
            }
        }
        CheckKind::Subfield(s) => {
            if let Some(f) = by_go.get(s.member.go.as_str()) {
                b.edge(tid, f, EdgeKind::Subfield, "");
            }
        }
        CheckKind::FieldConstraint(c) => {
            // Either field may be a child of a field of this struct (the referenced field always may; the
            // constrained one with the `target:` form): its node lives in the struct declaring it.
            let mut node = |p: &crate::plan::FieldPath| {
                let last = p.steps.last()?;
                if p.steps.len() == 1
                    && let Some(id) = by_go.get(last.go.as_str())
                {
                    return Some(id.clone());
                }
                let holder = &p.holder;
                Some(b.node(
                    format!("{}.{}", type_id(&holder.pkg, &holder.name), last.json),
                    NodeKind::Field,
                    last.json.clone(),
                    &holder.pkg,
                ))
            };
            let (Some(target), Some(to)) = (node(&c.target), node(&c.bound)) else {
                return;
            };
            // Per element (`eachVal=+k8s:maximum(constraint: …)`): from the list or map field, labelled so.
            let label = match c.each {
                Some(_) => format!("eachVal={}", c.kind.origin()),
                None => c.kind.origin().to_string(),
            };
            b.edge(&target, &to, EdgeKind::Constraint, &label);
            // The check runs on this struct, the common ancestor of both fields (KEP-5073 "Tag Placement and
            // Hoisting").
            b.edge(tid, &target, EdgeKind::Hoisted, &label);
        }
        CheckKind::VirtualUnion(v) => {
            // A virtual group (vgc extension): its node hangs from this struct, the members' closest common
            // ancestor, with a `union-member` edge to each member field (or list-map item) where it is declared.
            let name = format!("{:?}:{}", v.kind, v.group);
            let uid = b.node(
                format!("{tid}#group:{}", v.group),
                NodeKind::Union,
                name,
                pkg,
            );
            b.edge(tid, &uid, EdgeKind::Hoisted, "");
            for m in &v.members {
                let Some(last) = m.steps.last() else { continue };
                let fid = match by_go.get(last.go.as_str()) {
                    Some(id) if m.steps.len() == 1 => id.clone(),
                    _ => b.node(
                        format!("{}.{}", type_id(&m.holder.pkg, &m.holder.name), last.json),
                        NodeKind::Field,
                        last.json.clone(),
                        &m.holder.pkg,
                    ),
                };
                let to = match &m.set {
                    crate::plan::MemberSet::Field(_) => fid,
                    crate::plan::MemberSet::Item { .. } => {
                        let sel = m.name.trim_start_matches(|c: char| c != '[').to_string();
                        let iid = b.node(
                            format!("{fid}{sel}"),
                            NodeKind::Item,
                            sel.clone(),
                            &m.holder.pkg,
                        );
                        b.edge(&fid, &iid, EdgeKind::Item, sel.trim_matches(['[', ']']));
                        iid
                    }
                };
                b.edge(&uid, &to, EdgeKind::UnionMember, m.name.clone());
            }
        }
        CheckKind::IfOption(p) => {
            b.option_edge(p, tid);
            struct_check(b, tid, pkg, by_go, &p.inner);
        }
        CheckKind::IfSubresource(p) => {
            b.subresource_edge(p, tid);
            struct_check(b, tid, pkg, by_go, &p.inner);
        }
        _ => {}
    }
}

/// Which part of the graph to keep.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Keep nodes of packages whose path starts with this group path (e.g. `k8s.io/api/resource`).
    pub group: Option<String>,
    /// Keep nodes of packages whose last path element is this version.
    pub version: Option<String>,
    /// Start from the types with this name (and, when `field` edges are not kept, from what they declare: fields,
    /// union groups, modes, items) and keep what is reachable within `depth` edges (both directions).
    pub ty: Option<String>,
    /// Keep only edges of these kinds (empty: all).
    pub edges: Vec<EdgeKind>,
    /// Depth for `ty` (default 2).
    pub depth: Option<usize>,
}

/// Applies a filter: package and version first, then edge kinds, then the neighbourhood of the named types
/// (breadth-first over a petgraph built from what is left). Nodes without a package (options), and every node when
/// edge kinds are selected, stay only when a kept edge touches them.
#[must_use]
pub fn filter(g: &Graph, f: &Filter) -> Graph {
    let pkg_ok = |n: &Node| {
        n.pkg.is_empty()
            || (f
                .group
                .as_ref()
                .is_none_or(|p| n.pkg.starts_with(p.as_str()))
                && f.version
                    .as_ref()
                    .is_none_or(|v| n.pkg.rsplit('/').next() == Some(v.as_str())))
    };
    let mut nodes: BTreeMap<&str, &Node> = g
        .nodes
        .iter()
        .filter(|n| pkg_ok(n))
        .map(|n| (n.id.as_str(), n))
        .collect();
    let mut edges: Vec<&Edge> = g
        .edges
        .iter()
        .filter(|e| f.edges.is_empty() || f.edges.contains(&e.kind))
        .filter(|e| nodes.contains_key(e.from.as_str()) && nodes.contains_key(e.to.as_str()))
        .collect();
    if let Some(name) = &f.ty {
        let mut pg: DiGraph<&str, ()> = DiGraph::new();
        let idx: BTreeMap<&str, NodeIndex> =
            nodes.keys().map(|id| (*id, pg.add_node(id))).collect();
        for e in &edges {
            pg.add_edge(idx[e.from.as_str()], idx[e.to.as_str()], ());
        }
        let depth = f.depth.unwrap_or(2);
        let mut keep: BTreeSet<NodeIndex> = BTreeSet::new();
        // The named types, and, when `field` edges are not kept (the cross-field view), what they declare (fields,
        // union groups, modes, items): there a type node has no edge of its own, its fields do. With the structure
        // kept, the fields are one `field` edge away as before.
        let structure_kept = f.edges.is_empty() || f.edges.contains(&EdgeKind::Field);
        let types: BTreeSet<&str> = nodes
            .values()
            .filter(|n| n.kind == NodeKind::Type && n.label == *name)
            .map(|n| n.id.as_str())
            .collect();
        let mut queue: VecDeque<(NodeIndex, usize)> = nodes
            .values()
            .filter(|n| {
                types.contains(n.id.as_str())
                    || (!structure_kept && n.owner().is_some_and(|o| types.contains(o.as_str())))
            })
            .map(|n| (idx[n.id.as_str()], 0))
            .collect();
        while let Some((n, d)) = queue.pop_front() {
            if !keep.insert(n) || d >= depth {
                continue;
            }
            for m in pg.neighbors_undirected(n) {
                queue.push_back((m, d + 1));
            }
        }
        let kept: BTreeSet<&str> = keep.iter().map(|i| pg[*i]).collect();
        nodes.retain(|id, _| kept.contains(id));
        edges.retain(|e| kept.contains(e.from.as_str()) && kept.contains(e.to.as_str()));
    }
    // Options (and other package-less nodes) only with an edge.
    let touched: BTreeSet<&str> = edges
        .iter()
        .flat_map(|e| [e.from.as_str(), e.to.as_str()])
        .collect();
    nodes.retain(|id, n| (!n.pkg.is_empty() && f.edges.is_empty()) || touched.contains(id));
    Graph {
        nodes: nodes.into_values().cloned().collect(),
        edges: edges.into_iter().cloned().collect(),
    }
}

/// Node counts per kind and edge counts per kind.
#[must_use]
pub fn counts(g: &Graph) -> (BTreeMap<&'static str, usize>, BTreeMap<&'static str, usize>) {
    let mut n = BTreeMap::new();
    for x in &g.nodes {
        *n.entry(x.kind.as_str()).or_default() += 1;
    }
    let mut e = BTreeMap::new();
    for x in &g.edges {
        *e.entry(x.kind.name()).or_default() += 1;
    }
    (n, e)
}
