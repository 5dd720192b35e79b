//! `vgc graph`: the cross-field dependency graph of the plan (DOT, Mermaid, JSON, GraphML), filtered by group,
//! version, type and edge kind, with "did you mean" for filters that match nothing.

use super::common::{Globals, analyzed, profile_suffix};
use crate::args::{GraphArgs, GraphFormat};
use std::io::Write as _;
use std::process::ExitCode;

const MERMAID_MAX_EDGES: usize = 500;
const MERMAID_MAX_TEXT: usize = 50_000;

/// The candidate closest to `wanted` (Jaro-Winkler ≥ 0.8), for "did you mean".
fn did_you_mean<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::jaro_winkler(wanted, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Checks that each of `--group`, `--version` and `--type` matches something in `g`; the first that does not is
/// an error message with a suggestion.
fn check_graph_filter(
    g: &vgc_lowering::graph::Graph,
    f: &vgc_lowering::graph::Filter,
) -> Result<(), String> {
    use std::collections::BTreeSet;
    use vgc_lowering::graph::NodeKind;
    let pkgs: BTreeSet<&str> = g
        .nodes
        .iter()
        .map(|n| n.pkg.as_str())
        .filter(|p| !p.is_empty())
        .collect();
    let hint = |wanted: &str, cands: Vec<&str>| {
        did_you_mean(wanted, cands.into_iter())
            .map(|c| format!("; did you mean `{c}`?"))
            .unwrap_or_default()
    };
    if let Some(group) = &f.group
        && !pkgs.iter().any(|p| p.starts_with(group.as_str()))
    {
        // Every path prefix of every package is a group one could mean.
        let groups: BTreeSet<&str> = pkgs
            .iter()
            .flat_map(|p| {
                p.match_indices('/')
                    .map(|(i, _)| &p[..i])
                    .chain(std::iter::once(*p))
            })
            .collect();
        // An API group name (`resource.k8s.io`, as in apiVersion) names the package directory of its first label
        // in Kubernetes' layout (`k8s.io/api/resource`): suggest that prefix before a spelling neighbour.
        let api_group = group
            .split_once('.')
            .filter(|_| !group.contains('/'))
            .and_then(|(first, _)| {
                groups
                    .iter()
                    .find(|g| g.rsplit('/').next() == Some(first) && pkgs.iter().any(|p| p.starts_with(&format!("{g}/"))))
            })
            .map(|g| format!("; `--group` takes a Go package path prefix: for the API group {group:?}, did you mean `{g}`?"));
        return Err(format!(
            "--group {group:?} matches no package{}",
            api_group.unwrap_or_else(|| hint(group, groups.into_iter().collect()))
        ));
    }
    if let Some(v) = &f.version {
        let versions: BTreeSet<&str> = pkgs.iter().filter_map(|p| p.rsplit('/').next()).collect();
        if !versions.contains(v.as_str()) {
            return Err(format!(
                "--version {v:?} matches no package{}",
                hint(v, versions.into_iter().collect())
            ));
        }
    }
    if let Some(ty) = &f.ty {
        let types: BTreeSet<&str> = g
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Type)
            .map(|n| n.label.as_str())
            .collect();
        if !types.contains(ty.as_str()) {
            return Err(format!(
                "--type {ty:?} matches no type{}",
                hint(ty, types.into_iter().collect())
            ));
        }
    }
    Ok(())
}

/// `vgc graph`: the graph of the plan, filtered, on stdout; the node and edge counts on stderr.
pub(crate) fn run(a: GraphArgs, globals: &Globals) -> ExitCode {
    let GraphArgs {
        path,
        format,
        group,
        version,
        ty,
        mut edges,
        all,
        depth,
        roots,
    } = a;
    if edges.is_empty() && !all {
        edges = vgc_lowering::graph::EdgeKind::ALL
            .iter()
            .copied()
            .filter(|k| !k.is_structural())
            .collect();
    }
    let filter = vgc_lowering::graph::Filter {
        group,
        version,
        ty,
        edges,
        depth,
    };
    use vgc_lowering::graph;
    let mut stderr = std::io::stderr().lock();
    let outcome = match analyzed(path, roots, globals, &mut stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let whole = graph::build(&outcome.plan);
    if let Err(e) = check_graph_filter(&whole, &filter) {
        let _ = writeln!(stderr, "error: {e}");
        return ExitCode::from(2);
    }
    let g = graph::filter(&whole, &filter);
    let text = match format {
        GraphFormat::Dot => vgc::graph::to_dot(&g),
        GraphFormat::Mermaid => {
            let text = vgc::graph::to_mermaid(&g);
            if g.edges.len() > MERMAID_MAX_EDGES || text.len() > MERMAID_MAX_TEXT {
                let _ = writeln!(
                    stderr,
                    "warning: {} edges, {} characters: above Mermaid's default limits (maxEdges {MERMAID_MAX_EDGES}, maxTextSize {MERMAID_MAX_TEXT}), so a default Mermaid renderer refuses this diagram; narrow it with --group, --version, --type or --edge",
                    g.edges.len(),
                    text.len()
                );
            }
            text
        }
        GraphFormat::Json => {
            serde_json::to_string_pretty(&vgc::graph::to_json(&g)).unwrap_or_default() + "\n"
        }
        GraphFormat::Graphml => vgc::graph::to_graphml(&g),
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    let _ = writeln!(
        stderr,
        "vgc graph: {} nodes, {} edges{}",
        g.nodes.len(),
        g.edges.len(),
        profile_suffix(&outcome)
    );
    ExitCode::SUCCESS
}
