//! What a Kubernetes registry strategy does to an object before the API server validates it, read with
//! tree-sitter-go from `k8s.io/kubernetes` `pkg/registry/<group>/<resource>/strategy.go`: the
//! `X.Status = <Type>Status{…}` / `X.Status = nil` assignments of `PrepareForCreate` ([`status_resets`]), and the
//! `newX.F = oldX.F` assignments of `PrepareForUpdate` ([`update_keeps`]).
//!
//! The API server's create handler (k8s.io/apiserver `pkg/registry/rest` `BeforeCreate`) calls the strategy's
//! `PrepareForCreate` after decoding and defaulting and before `Validate`; nearly every strategy of a kind with a
//! status resets it there ("users cannot create pre-approved certificate requests"), so a declarative rule on
//! `status` never fires on a create. Read here, per method: the type the object is asserted to
//! (`deployment := obj.(*apps.Deployment)`), and the assignments to that variable's `Status` among the body's
//! top-level statements and the bodies of top-level `if utilfeature.DefaultFeatureGate.Enabled(features.G) { … }`
//! (the reset then depends on gate `G`). Other statements (hand-written field drops, conditions on anything else)
//! are not read.

use tree_sitter::{Node, Parser};

/// One status reset of a `PrepareForCreate` method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusReset {
    /// The strategy type, the method's receiver (`deploymentStrategy`, `*podGroupStrategy` → `podGroupStrategy`).
    pub receiver: String,
    /// The import path of the asserted type's package (`k8s.io/kubernetes/pkg/apis/apps`).
    pub type_package: String,
    /// The asserted type's name, the kind (`Deployment`).
    pub type_name: String,
    /// The 1-based line of the assignment.
    pub line: usize,
    /// The feature gate the reset depends on (`ServiceCIDRStatusFieldWiping`: inside
    /// `if utilfeature.DefaultFeatureGate.Enabled(features.ServiceCIDRStatusFieldWiping)`), `None` when it is
    /// unconditional.
    pub gate: Option<String>,
    /// The fields the new status literal sets (`Phase` of `api.PodStatus{Phase: api.PodPending}`), in source
    /// order; empty for a zero status (`{}` or `nil`).
    pub sets: Vec<String>,
}

/// Every status reset of the `PrepareForCreate` methods in `src`, the text of one Go file, in source order.
/// Methods whose receiver is a status strategy (its name ends in `StatusStrategy`, any case: the strategy of the
/// `/status` subresource, not the create's) are skipped. A file that does not parse yields what tree-sitter's error
/// recovery keeps; never fails.
#[must_use]
pub fn status_resets(src: &str) -> Vec<StatusReset> {
    let Some(tree) = parse(src) else {
        return Vec::new();
    };
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let root = tree.root_node();
    let imports = imports(root, src);
    let mut out = Vec::new();
    for (m, receiver) in methods(root, src, "PrepareForCreate") {
        if receiver.to_ascii_lowercase().ends_with("statusstrategy") {
            continue;
        }
        let Some(body) = m.child_by_field_name("body") else {
            continue;
        };
        // The variables bound to the asserted object: `name → (package alias, type)`.
        let mut bound: Vec<(String, String, String)> = Vec::new();
        let mut stack: Vec<(Node<'_>, Option<String>)> = statements(body)
            .into_iter()
            .rev()
            .map(|s| (s, None))
            .collect();
        while let Some((s, gate)) = stack.pop() {
            match s.kind() {
                "short_var_declaration" => {
                    if let Some(b) = assertion(s, src) {
                        bound.push(b);
                    }
                }
                "if_statement" if s.child_by_field_name("initializer").is_none() => {
                    let Some(g) = s
                        .child_by_field_name("condition")
                        .and_then(|c| gate_condition(c, src))
                    else {
                        continue;
                    };
                    if gate.is_some() {
                        continue;
                    }
                    if let Some(block) = s.child_by_field_name("consequence") {
                        stack.extend(
                            statements(block)
                                .into_iter()
                                .rev()
                                .map(|st| (st, Some(g.clone()))),
                        );
                    }
                }
                "assignment_statement" => {
                    let (Some(left), Some(right)) = (
                        s.child_by_field_name("left")
                            .and_then(|l| named_children(l).next()),
                        s.child_by_field_name("right")
                            .and_then(|r| named_children(r).next()),
                    ) else {
                        continue;
                    };
                    if left.kind() != "selector_expression"
                        || left.child_by_field_name("field").map(text) != Some("Status")
                        || s.named_child_count() > 3
                    {
                        continue;
                    }
                    let Some(var) = left.child_by_field_name("operand").map(text) else {
                        continue;
                    };
                    let Some((_, alias, ty)) = bound.iter().rev().find(|(v, _, _)| v == var) else {
                        continue;
                    };
                    let Some(sets) = new_status(right, src) else {
                        continue;
                    };
                    out.push(StatusReset {
                        receiver: receiver.clone(),
                        type_package: imports
                            .iter()
                            .find(|(a, _)| a == alias)
                            .map(|(_, p)| p.clone())
                            .unwrap_or_default(),
                        type_name: ty.clone(),
                        line: s.start_position().row + 1,
                        gate,
                        sets,
                    });
                }
                _ => {}
            }
        }
    }
    out
}

/// One `newX.F = oldX.F` of a `PrepareForUpdate` method: the update keeps the stored object's `F`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateKeep {
    /// The strategy type, the method's receiver (`rcStrategy`, `rcStatusStrategy`).
    pub receiver: String,
    /// Whether the receiver is a status strategy (its name ends in `StatusStrategy`, any case): the strategy of
    /// the `/status` subresource's updates; else the main resource's.
    pub status_strategy: bool,
    /// The import path of the asserted type's package (`k8s.io/kubernetes/pkg/apis/core`).
    pub type_package: String,
    /// The asserted type's name, the kind (`ReplicationController`).
    pub type_name: String,
    /// The Go field kept (`Status` on the main resource, `Spec` on `/status`).
    pub field: String,
    /// The 1-based line of the assignment.
    pub line: usize,
}

/// Every `newX.F = oldX.F` among the top-level statements of the `PrepareForUpdate` methods in `src`, in source
/// order, where `newX := obj.(*pkg.T)` and `oldX := old.(*pkg.T)` assert the method's second and third parameters
/// (`ctx, obj, old`) to the same type: the update of that strategy keeps the stored object's `F` (k8s.io/apiserver
/// `pkg/registry/rest` `BeforeUpdate` calls `PrepareForUpdate` before `ValidateUpdate`). Statements inside `if`
/// and other blocks are not read. Never fails.
#[must_use]
pub fn update_keeps(src: &str) -> Vec<UpdateKeep> {
    let Some(tree) = parse(src) else {
        return Vec::new();
    };
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let root = tree.root_node();
    let imports = imports(root, src);
    let mut out = Vec::new();
    for (m, receiver) in methods(root, src, "PrepareForUpdate") {
        // The parameters' names in order: `ctx`, `obj`, `old`.
        let params: Vec<&str> = m
            .child_by_field_name("parameters")
            .into_iter()
            .flat_map(named_children)
            .flat_map(|d| {
                let mut c = d.walk();
                d.children_by_field_name("name", &mut c)
                    .map(text)
                    .collect::<Vec<_>>()
            })
            .collect();
        let [_, new_param, old_param] = params.as_slice() else {
            continue;
        };
        let Some(body) = m.child_by_field_name("body") else {
            continue;
        };
        // var → (operand parameter, package alias, type)
        let mut bound: Vec<(String, String, String, String)> = Vec::new();
        for s in statements(body) {
            match s.kind() {
                "short_var_declaration" => {
                    let operand = named_children(s.child_by_field_name("right").unwrap_or(s))
                        .next()
                        .and_then(|r| r.child_by_field_name("operand"))
                        .map(text)
                        .unwrap_or_default()
                        .to_string();
                    if let Some((v, alias, ty)) = assertion(s, src) {
                        bound.push((v, operand, alias, ty));
                    }
                }
                "assignment_statement" => {
                    let (Some(left), Some(right)) = (
                        s.child_by_field_name("left")
                            .and_then(|l| named_children(l).next()),
                        s.child_by_field_name("right")
                            .and_then(|r| named_children(r).next()),
                    ) else {
                        continue;
                    };
                    if left.kind() != "selector_expression" || right.kind() != "selector_expression"
                    {
                        continue;
                    }
                    let field = left.child_by_field_name("field").map(text);
                    if field.is_none() || field != right.child_by_field_name("field").map(text) {
                        continue;
                    }
                    let var_of = |n: Node<'_>| {
                        let v = n.child_by_field_name("operand").map(text)?;
                        bound.iter().rev().find(|b| b.0 == v)
                    };
                    let (Some(n), Some(o)) = (var_of(left), var_of(right)) else {
                        continue;
                    };
                    if n.1 != *new_param
                        || o.1 != *old_param
                        || (n.2.as_str(), n.3.as_str()) != (o.2.as_str(), o.3.as_str())
                    {
                        continue;
                    }
                    out.push(UpdateKeep {
                        receiver: receiver.clone(),
                        status_strategy: receiver.to_ascii_lowercase().ends_with("statusstrategy"),
                        type_package: imports
                            .iter()
                            .find(|(a, _)| *a == n.2)
                            .map(|(_, p)| p.clone())
                            .unwrap_or_default(),
                        type_name: n.3.clone(),
                        field: field.unwrap_or_default().to_string(),
                        line: s.start_position().row + 1,
                    });
                }
                _ => {}
            }
        }
    }
    out
}

/// `src` parsed by tree-sitter-go (`None` only when the grammar cannot be loaded).
fn parse(src: &str) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_go::LANGUAGE.into()).ok()?;
    parser.parse(src, None)
}

/// The file's method declarations named `name`, each with its receiver's type name (`*podGroupStrategy` →
/// `podGroupStrategy`).
fn methods<'t>(root: Node<'t>, src: &str, name: &str) -> Vec<(Node<'t>, String)> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    named_children(root)
        .filter(|n| n.kind() == "method_declaration")
        .filter(|m| m.child_by_field_name("name").map(text) == Some(name))
        .map(|m| {
            let receiver = m
                .child_by_field_name("receiver")
                .and_then(|r| named_children(r).next())
                .and_then(|p| p.child_by_field_name("type"))
                .map(|t| text(t).trim_start_matches('*').trim().to_string())
                .unwrap_or_default();
            (m, receiver)
        })
        .collect()
}

fn named_children<'t>(n: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let mut cursor = n.walk();
    let v: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
    v.into_iter()
}

/// The statements of a block (tree-sitter-go wraps them in a `statement_list`).
fn statements(block: Node<'_>) -> Vec<Node<'_>> {
    named_children(block)
        .flat_map(|c| {
            if c.kind() == "statement_list" {
                named_children(c).collect()
            } else {
                vec![c]
            }
        })
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// The file's imports: (name, path), the name being the alias or the path's last element.
fn imports(root: Node<'_>, src: &str) -> Vec<(String, String)> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "source_file" | "import_declaration" | "import_spec_list" => {
                stack.extend(named_children(n));
            }
            "import_spec" => {
                let Some(path) = n.child_by_field_name("path") else {
                    continue;
                };
                let path = text(path).trim_matches('"').to_string();
                let name = n.child_by_field_name("name").map_or_else(
                    || path.rsplit('/').next().unwrap_or("").to_string(),
                    |a| text(a).to_string(),
                );
                out.push((name, path));
            }
            _ => {}
        }
    }
    out
}

/// `x := obj.(*pkg.Type)` → `(x, pkg, Type)`.
fn assertion(s: Node<'_>, src: &str) -> Option<(String, String, String)> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let left = named_children(s.child_by_field_name("left")?).next()?;
    let right = named_children(s.child_by_field_name("right")?).next()?;
    if left.kind() != "identifier" || right.kind() != "type_assertion_expression" {
        return None;
    }
    let mut ty = right.child_by_field_name("type")?;
    if ty.kind() == "pointer_type" {
        ty = named_children(ty).next()?;
    }
    if ty.kind() != "qualified_type" {
        return None;
    }
    Some((
        text(left).to_string(),
        text(ty.child_by_field_name("package")?).to_string(),
        text(ty.child_by_field_name("name")?).to_string(),
    ))
}

/// `utilfeature.DefaultFeatureGate.Enabled(features.G)` → `G`.
fn gate_condition(c: Node<'_>, src: &str) -> Option<String> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    if c.kind() != "call_expression" {
        return None;
    }
    let f: String = text(c.child_by_field_name("function")?)
        .split_whitespace()
        .collect();
    if !f.ends_with("DefaultFeatureGate.Enabled") {
        return None;
    }
    let args = named_children(c.child_by_field_name("arguments")?).collect::<Vec<_>>();
    let [arg] = args.as_slice() else {
        return None;
    };
    if arg.kind() != "selector_expression" {
        return None;
    }
    Some(text(arg.child_by_field_name("field")?).to_string())
}

/// The fields a new status value sets: `nil` or `T{}` → none; `T{Phase: …}` → `["Phase"]`; anything else (a
/// copy of the old status, a function's result) → `None`.
fn new_status(v: Node<'_>, src: &str) -> Option<Vec<String>> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    match v.kind() {
        "nil" => Some(Vec::new()),
        "composite_literal" => {
            let body = v.child_by_field_name("body")?;
            let mut sets = Vec::new();
            for e in named_children(body) {
                if e.kind() == "keyed_element" {
                    let key = named_children(e).next()?;
                    sets.push(text(key).trim().to_string());
                } else if e.kind() != "comment" {
                    return None;
                }
            }
            Some(sets)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRATEGY: &str = r#"package deployment

import (
	"context"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/networking"
	"k8s.io/kubernetes/pkg/features"
)

// PrepareForCreate clears the status.
func (podStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	pod := obj.(*api.Pod)
	pod.Generation = 1

	pod.Status = api.PodStatus{
		Phase: api.PodPending,
	}
	dropDisabledFields(pod, nil)
}

func (podStatusStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	pod := obj.(*api.Pod)
	pod.Status = api.PodStatus{}
}

func (*serviceCIDRStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	cidr := obj.(*networking.ServiceCIDR)
	if utilfeature.DefaultFeatureGate.Enabled(features.ServiceCIDRStatusFieldWiping) {
		cidr.Status = networking.ServiceCIDRStatus{}
	}
	if other {
		cidr.Status = networking.ServiceCIDRStatus{}
	}
}

func (s strategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	n := obj.(*api.Node)
	n.Status = api.NodeStatus{}
}

func (s *requestStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	request := obj.(*api.Request)
	request.Status = nil
	request.Status = old.Status
}
"#;

    #[test]
    fn reads_the_status_resets_of_create_strategies() {
        let got = status_resets(STRATEGY);
        let short: Vec<_> = got
            .iter()
            .map(|r| {
                (
                    r.receiver.as_str(),
                    r.type_package.as_str(),
                    r.type_name.as_str(),
                    r.line,
                    r.gate.as_deref(),
                    r.sets.clone(),
                )
            })
            .collect();
        assert_eq!(
            short,
            vec![
                (
                    "podStrategy",
                    "k8s.io/kubernetes/pkg/apis/core",
                    "Pod",
                    17,
                    None,
                    vec!["Phase".to_string()]
                ),
                (
                    "serviceCIDRStrategy",
                    "k8s.io/kubernetes/pkg/apis/networking",
                    "ServiceCIDR",
                    31,
                    Some("ServiceCIDRStatusFieldWiping"),
                    vec![]
                ),
                (
                    "requestStrategy",
                    "k8s.io/kubernetes/pkg/apis/core",
                    "Request",
                    45,
                    None,
                    vec![]
                ),
            ]
        );
    }

    #[test]
    fn reads_what_an_update_keeps_from_the_stored_object() {
        let src = r#"package rc

import api "k8s.io/kubernetes/pkg/apis/core"

func (rcStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	newController := obj.(*api.ReplicationController)
	oldController := old.(*api.ReplicationController)
	// update is not allowed to set status
	newController.Status = oldController.Status
	if x {
		newController.Spec = oldController.Spec
	}
	newController.Labels = other.Labels
}

func (rcStatusStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	newRc := obj.(*api.ReplicationController)
	oldRc := old.(*api.ReplicationController)
	newRc.Spec = oldRc.Spec
	oldRc.Spec = newRc.Spec
}
"#;
        let got: Vec<_> = update_keeps(src)
            .into_iter()
            .map(|k| {
                (
                    k.receiver,
                    k.status_strategy,
                    k.type_package,
                    k.type_name,
                    k.field,
                    k.line,
                )
            })
            .collect();
        let core = "k8s.io/kubernetes/pkg/apis/core".to_string();
        let rc = "ReplicationController".to_string();
        assert_eq!(
            got,
            vec![
                (
                    "rcStrategy".into(),
                    false,
                    core.clone(),
                    rc.clone(),
                    "Status".into(),
                    9
                ),
                ("rcStatusStrategy".into(), true, core, rc, "Spec".into(), 19),
            ]
        );
    }

    #[test]
    fn broken_go_is_no_panic() {
        for s in [
            "",
            "func (",
            "func (s x) PrepareForCreate(ctx, obj) { a := obj.(*b",
            "\u{0}\u{1}",
        ] {
            let _ = status_resets(s);
            let _ = update_keeps(s);
        }
    }
}
