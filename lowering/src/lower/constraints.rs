//! Field-path constraints (vgc extension, `docs/extensions.md`; KEP-5073 "Referencing Fields in Validation-Gen
//! For Cross-Field Validation Rules", "Field Path Strategy" and "Tag Placement and Hoisting"):
//! `+k8s:minimum(constraint: <path>)`, `+k8s:maximum(constraint: <path>)`, `+k8s:exclusiveMinimum(constraint:
//! <path>)` and `+k8s:exclusiveMaximum(constraint: <path>)` on a struct field. The path is in JSON names with
//! dots, relative to the field's parent struct (siblings and their children), through pointers, typedef chains and
//! inline-embedded structs; both ends must be integers. The common ancestor of the two fields is the parent
//! struct, so the check is hoisted there ([`CheckKind::FieldConstraint`], a struct-level check after upstream's).
//! `+k8s:eachVal=+k8s:maximum(constraint: <path>)` on a list or map field (KEP-5073 "Comprehensive Example")
//! compares each element (map value) with the referenced field, the path resolved from the same parent, hoisted
//! the same way ([`ConstraintPlan::each`]).

use super::*;
use crate::plan::Operand;
use crate::plan::{ConstraintPlan, EachElements, FieldPath, PathStep};
use std::collections::{BTreeMap, BTreeSet};
use vgc_ir::extension_tags::{self, ConstraintKind};

/// Why a field-path constraint is refused (each is an error at the tag).
#[derive(Debug, Clone, PartialEq, Eq)]
enum ConstraintDiagnostic {
    /// VGC0116: extensions are not enabled in `vgc.toml`.
    Disabled,
    /// VGC0117: a path segment names no field of the struct it is looked up in.
    UnknownPath {
        /// The segment that names nothing.
        segment: String,
        /// The struct it was looked up in.
        within: String,
        /// The closest JSON name in scope, if one is close.
        suggestion: Option<String>,
    },
    /// VGC0117: a path segment after a field that is not a struct.
    NotAStruct {
        /// The path up to the non-struct field.
        prefix: String,
    },
    /// VGC0118: the path continues through a list or map.
    IntoList {
        /// The path up to the list or map field.
        prefix: String,
    },
    /// VGC0119: the constrained field or the referenced field is not an integer.
    TypeMismatch {
        /// `constrained field` or `referenced field`.
        role: &'static str,
        /// Its Go type as resolved.
        ty: String,
    },
    /// VGC0119: the two sides are of kinds that do not compare (an integer and a quantity, …).
    OperandMismatch {
        /// The constrained field's kind in words.
        target: String,
        /// The referenced field's kind in words.
        bound: String,
    },
    /// VGC0119: the field carrying `eachVal=+k8s:…(constraint: …)` is not a list or map of integers.
    EachTypeMismatch {
        /// What it is instead (`int32`, `a list of string`).
        ty: String,
    },
    /// VGC0120: the constraint names the field it is written on, or the field has no JSON name.
    Form(String),
}

impl ConstraintDiagnostic {
    fn code(&self) -> Code {
        match self {
            Self::Disabled => Code::ExtensionDisabled,
            Self::UnknownPath { .. } | Self::NotAStruct { .. } => Code::ConstraintUnknownPath,
            Self::IntoList { .. } => Code::ConstraintPathIntoList,
            Self::TypeMismatch { .. }
            | Self::OperandMismatch { .. }
            | Self::EachTypeMismatch { .. } => Code::ConstraintTypeMismatch,
            Self::Form(_) => Code::ConstraintForm,
        }
    }

    /// `<Type>.<Field>: tag "k8s:minimum": <detail>` (`<Type>: …` for the form on a type, `field` empty); `path`
    /// is the path the diagnostic is about, named `which` (`constraint path` or `target path`).
    fn message(&self, owner: &str, field: &str, tag: &str, which: &str, path: &str) -> String {
        let detail = match self {
            Self::Disabled => {
                "field-path constraints are a vgc extension, and extensions are not enabled"
                    .to_string()
            }
            Self::UnknownPath {
                segment, within, ..
            } if segment.is_empty() => format!(
                "{which} {path:?}: an empty segment (a leading, trailing or doubled `.`); paths name fields downward from {within}"
            ),
            Self::UnknownPath {
                segment, within, ..
            } => {
                format!("{which} {path:?}: no field with JSON name {segment:?} in {within}")
            }
            Self::NotAStruct { prefix } => {
                format!("{which} {path:?}: {prefix:?} is not a struct")
            }
            Self::IntoList { prefix } => {
                format!("{which} {path:?}: {prefix:?} is a list or map; a path cannot go into one")
            }
            Self::TypeMismatch { role, ty } => format!(
                "{which} {path:?}: the {role} is {ty}; field-path constraints compare integers, quantities (resource.Quantity) or durations (metav1.Duration)"
            ),
            Self::OperandMismatch { target, bound } => format!(
                "{which} {path:?}: the constrained field is {target} and the referenced field {bound}; field-path constraints compare values of one kind"
            ),
            Self::EachTypeMismatch { ty } => format!(
                "{which} {path:?}: the constrained field is {ty}, not a list or map of integers, quantities or durations; `eachVal` field-path constraints compare each item"
            ),
            Self::Form(d) => format!("{which} {path:?}: {d}"),
        };
        if field.is_empty() {
            format!("{owner}: tag {tag:?}: {detail}")
        } else {
            format!("{owner}.{field}: tag {tag:?}: {detail}")
        }
    }

    fn hint(&self, tag: &str) -> Option<String> {
        match self {
            Self::Disabled => Some(format!(
                "upstream validation-gen does not implement field-path constraints (KEP-5073 designs them; no release builds them), so `+{tag}(constraint: …)` does not validate there as it does here; to use vgc's extension add `[extensions]` with `enabled = true` to vgc.toml (docs/extensions.md)"
            )),
            // KEP-5073: "No special `self` or `parent` keywords allowed".
            Self::UnknownPath { segment, .. } if ["", "self", "parent"].contains(&segment.as_str()) => Some(
                "field paths have no `self` or `parent` (KEP-5073 \"Field Path Strategy\"): they start at the struct holding the tagged field and go only downward, so they cannot leave the object".into(),
            ),
            Self::UnknownPath {
                suggestion: Some(s),
                ..
            } => Some(format!("did you mean {s:?}?")),
            Self::UnknownPath { .. } | Self::NotAStruct { .. } => Some(
                "paths are JSON names joined with `.`, relative to the struct holding the tagged field (siblings and their children), or to the tagged struct for the `target:` form".into(),
            ),
            Self::IntoList { .. } => Some(
                "field paths select no list item; compare with a field outside the list".into(),
            ),
            Self::TypeMismatch { .. } | Self::OperandMismatch { .. } => Some(
                "both fields must be integers (any width), or both `resource.Quantity`, or both `metav1.Duration` (through pointers and typedefs)".into(),
            ),
            Self::EachTypeMismatch { .. } => Some(
                "`eachVal` takes a list or map field whose items (values) are integers (any width), `resource.Quantity` or `metav1.Duration` values (through pointers and typedefs), of the referenced field's kind".into(),
            ),
            Self::Form(_) => None,
        }
    }
}

/// The `constraint:` path, named so in diagnostics.
const CONSTRAINT: &str = "constraint path";
/// The `target:` path of the form on a type, named so in diagnostics.
const TARGET: &str = "target path";

/// The end of a resolved path: an integer, or what it is instead (for the mismatch message).
/// VGC0119 unless a constrained value of kind `target` compares with a referenced one of kind `bound`.
fn same_kind(target: Operand, bound: Operand) -> Result<(), ConstraintDiagnostic> {
    if target.comparable(bound) {
        Ok(())
    } else {
        Err(ConstraintDiagnostic::OperandMismatch {
            target: target.words(),
            bound: bound.words(),
        })
    }
}

enum Leaf {
    Value(Operand),
    Other(String),
}

impl Lowerer<'_> {
    /// The struct-level checks of the field-path constraints of struct `owner`: those written on its `fields` (in
    /// field order and, per field, tag order), then those written on the type with `target:` (`type_tags`, the
    /// tags of the declaration being lowered: `owner`'s own, or those of a typedef `type E owner`, which upstream
    /// gives `E` instead of `owner`'s). `file` holds the tags. Each refused use is reported at its tag.
    pub(super) fn field_constraints(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        fields: &[FieldIr],
        type_tags: &[TagUse],
    ) -> Vec<Check> {
        let mut out = Vec::new();
        // The accepted uses, for the cycle check: (tag position, field, tag name, path, plan).
        let mut accepted: Vec<(u32, String, String, String, ConstraintPlan)> = Vec::new();
        let on_fields = fields
            .iter()
            .flat_map(|f| f.tags.iter().map(move |u| (Some(f), u)));
        let on_type = type_tags.iter().map(|u| (None, u));
        for (f, u) in on_fields.chain(on_type) {
            let Ok(tag) = &u.parsed else { continue };
            // The constraint (for the form per element, `eachVal`'s payload) and the tag as the hints write it.
            let (c, tag, written) = match (
                extension_tags::constraint_tag(tag),
                extension_tags::each_val_constraint(tag),
            ) {
                (Some(c), _) => (c, tag, tag.name.clone()),
                (None, Some((inner, c))) => (c, inner, format!("{}=+{}", tag.name, inner.name)),
                (None, None) => continue,
            };
            let each = written != tag.name;
            let scope = if f.is_some() {
                vgc_ir::catalog::Scope::Field
            } else {
                vgc_ir::catalog::Scope::Type
            };
            let lowered = 'one: {
                // A malformed use is reported by the catalog checks (`vgc_ir::check`).
                if !vgc_ir::check::check_tag_use(u, scope).is_empty() {
                    break 'one false;
                }
                let Some(path) = c.path.clone() else {
                    break 'one false;
                };
                let target = c.target.clone().flatten().unwrap_or_default();
                let go = f.map(FieldIr::member_name).unwrap_or_default();
                let plan = match (f, each) {
                    (Some(f), false) => self
                        .field_constraint(owner, file, f, c.kind, &path)
                        .map_err(|d| (CONSTRAINT, d)),
                    (Some(f), true) => self
                        .each_constraint(owner, file, f, c.kind, &path)
                        .map_err(|d| (CONSTRAINT, d)),
                    (None, false) => self.type_constraint(owner, c.kind, &target, &path),
                    // Refused by the catalog checks (`eachVal` on a type has no parent struct).
                    (None, true) => break 'one false,
                };
                match plan {
                    Ok(plan) => {
                        // A cycle through a constraint per element can be met by an empty list: not looked for.
                        if !each {
                            accepted.push((u.at, go, tag.name.clone(), path, plan.clone()));
                        }
                        out.push(Check {
                            kind: CheckKind::FieldConstraint(Box::new(plan)),
                            short_circuit: false,
                            non_error: false,
                            stability: None,
                            tag: None,
                            cohort: None,
                        });
                        true
                    }
                    Err((which, d)) => {
                        let shown = if which == TARGET { &target } else { &path };
                        let msg = d.message(&owner.name, &go, &tag.name, which, shown);
                        let hint = d.hint(&written);
                        self.err(file, u.at, d.code(), msg, hint);
                        false
                    }
                }
            };
            self.count_constraint_use(lowered);
        }
        self.constraint_cycles(owner, file, &accepted);
        out
    }

    /// Counts one field-path constraint use (`Stats`: no use is dropped silently): lowered, with its check, when
    /// accepted; reported when refused or malformed.
    fn count_constraint_use(&mut self, lowered: bool) {
        if !self.counting {
            return;
        }
        self.stats.tags += 1;
        if lowered {
            self.stats.lowered += 1;
            self.stats.checks += 1;
        } else {
            self.stats.reported += 1;
        }
    }

    /// VGC0120 for each well-formed `target:` form of a field-path constraint written on type `k`, which is not a
    /// struct: there are no fields to name (the catalog checks cannot tell, they do not know the type).
    pub(super) fn non_struct_constraints(
        &mut self,
        k: &TypeKey,
        file: SourceFile,
        tags: &[TagUse],
    ) {
        for u in tags {
            let Ok(tag) = &u.parsed else { continue };
            if extension_tags::each_val_constraint(tag).is_some() {
                // On a type: refused by the catalog checks (there is no parent struct to hoist to).
                self.count_constraint_use(false);
                continue;
            }
            let Some(c) = extension_tags::constraint_tag(tag) else {
                continue;
            };
            // Reported: by the catalog checks when malformed, else below.
            self.count_constraint_use(false);
            if c.target.is_none()
                || !vgc_ir::check::check_tag_use(u, vgc_ir::catalog::Scope::Type).is_empty()
            {
                continue;
            }
            let d = if extension_tags::enabled(self.db) {
                ConstraintDiagnostic::Form(format!(
                    "{} is not a struct, so the `target:` form has no field to name",
                    k.name
                ))
            } else {
                ConstraintDiagnostic::Disabled
            };
            let target = c.target.flatten().unwrap_or_default();
            let msg = d.message(&k.name, "", &tag.name, TARGET, &target);
            let hint = d.hint(&tag.name);
            self.err(file, u.at, d.code(), msg, hint);
        }
    }

    /// VGC0123: the accepted constraints of one struct read as "greater than (or equal to)" relations between its
    /// fields (`a minimum(constraint: b)`: a ≥ b; `a maximum(constraint: b)`: b ≥ a; the exclusive forms strictly);
    /// a cycle of them with a strict relation can never hold while all its fields are set (`a > b ≥ a`), so it is
    /// an error at the first strict tag of the cycle. A cycle of non-strict relations states that the fields are
    /// equal, and is accepted. Cycles through constraints written in different structs are not looked for.
    fn constraint_cycles(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        accepted: &[(u32, String, String, String, ConstraintPlan)],
    ) {
        use petgraph::graph::{DiGraph, NodeIndex};
        let name = |p: &FieldPath| {
            p.steps
                .iter()
                .map(|s| s.json.as_str())
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(".")
        };
        let mut g: DiGraph<String, usize> = DiGraph::new();
        let mut nodes: BTreeMap<String, NodeIndex> = BTreeMap::new();
        let mut node = |g: &mut DiGraph<String, usize>, n: String| {
            *nodes.entry(n.clone()).or_insert_with(|| g.add_node(n))
        };
        // Each relation as (greater, smaller, strict).
        let relations: Vec<(String, String, bool)> = accepted
            .iter()
            .map(|(.., c)| {
                let (t, b) = (name(&c.target), name(&c.bound));
                let strict = matches!(
                    c.kind,
                    ConstraintKind::ExclusiveMinimum | ConstraintKind::ExclusiveMaximum
                );
                match c.kind {
                    ConstraintKind::Minimum | ConstraintKind::ExclusiveMinimum => (t, b, strict),
                    ConstraintKind::Maximum | ConstraintKind::ExclusiveMaximum => (b, t, strict),
                }
            })
            .collect();
        for (i, (hi, lo, _)) in relations.iter().enumerate() {
            let (a, b) = (node(&mut g, hi.clone()), node(&mut g, lo.clone()));
            g.add_edge(a, b, i);
        }
        for scc in petgraph::algo::tarjan_scc(&g) {
            if scc.len() < 2 {
                continue;
            }
            let inside: BTreeSet<NodeIndex> = scc.iter().copied().collect();
            let mut members: Vec<usize> = g
                .edge_indices()
                .filter_map(|e| {
                    let (a, b) = g.edge_endpoints(e)?;
                    (inside.contains(&a) && inside.contains(&b)).then(|| g[e])
                })
                .collect();
            members.sort_unstable();
            let Some(&first_strict) = members.iter().find(|&&i| relations[i].2) else {
                continue;
            };
            let words = members
                .iter()
                .map(|&i| {
                    let (hi, lo, strict) = &relations[i];
                    format!("{hi} {} {lo}", if *strict { ">" } else { ">=" })
                })
                .collect::<Vec<_>>()
                .join(", ");
            let (at, go, tag, path, _) = &accepted[first_strict];
            let on = if go.is_empty() {
                owner.name.clone()
            } else {
                format!("{}.{go}", owner.name)
            };
            self.err(
                file,
                *at,
                Code::ConstraintCycle,
                format!(
                    "{on}: tag {tag:?}: constraint path {path:?}: the field-path constraints {words} form a cycle with a strict bound, which no object setting all of them satisfies"
                ),
                Some("drop one constraint of the cycle, or make every bound in it inclusive (then they state that the fields are equal)".into()),
            );
        }
    }

    /// What every constrained field needs: extensions enabled (else VGC0116), and a JSON name to report errors at
    /// (else VGC0120).
    fn constrainable(&self, f: &FieldIr) -> Result<(), ConstraintDiagnostic> {
        if !extension_tags::enabled(self.db) {
            return Err(ConstraintDiagnostic::Disabled);
        }
        let json = f.json.clone().unwrap_or_default();
        if json.skip || (f.go_name.is_none() && json.name.is_empty()) {
            return Err(ConstraintDiagnostic::Form(
                "the constrained field has no JSON name (`json:\"-\"` or inline), so no error path"
                    .into(),
            ));
        }
        Ok(())
    }

    fn field_constraint(
        &self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
        kind: ConstraintKind,
        path: &str,
    ) -> Result<ConstraintPlan, ConstraintDiagnostic> {
        self.constrainable(f)?;
        let (step, ty) = self.path_step(owner, file, f);
        let target = match self.leaf(&ty) {
            Leaf::Value(operand) => FieldPath {
                steps: vec![step],
                operand,
                holder: owner.clone(),
            },
            Leaf::Other(ty) => {
                return Err(ConstraintDiagnostic::TypeMismatch {
                    role: "constrained field",
                    ty,
                });
            }
        };
        let bound = self.resolve_path(owner, path, "referenced field")?;
        same_kind(target.operand, bound.operand)?;
        if bound.steps == target.steps {
            return Err(ConstraintDiagnostic::Form(
                "it names the constrained field itself".into(),
            ));
        }
        Ok(ConstraintPlan {
            kind,
            target,
            bound,
            each: None,
        })
    }

    /// `+k8s:eachVal=+k8s:<kind>(constraint: <path>)` on field `f` of struct `owner` (KEP-5073 "Comprehensive
    /// Example"): `f` is a list or map (by value) whose items (values) are integers, each compared with the
    /// referenced field, which is resolved from `owner` as for the form on a field. How an item finds its old
    /// counterpart (for ratcheting) is `eachVal`'s: the list's `listType` (`set`: an equal old item; atomic: none,
    /// the whole list), a map's key.
    fn each_constraint(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
        kind: ConstraintKind,
        path: &str,
    ) -> Result<ConstraintPlan, ConstraintDiagnostic> {
        self.constrainable(f)?;
        let (step, ty) = self.path_step(owner, file, f);
        let (map, elem) = match types::native(self.db, self.prog, &ty) {
            _ if step.pointer.is_some() => {
                return Err(ConstraintDiagnostic::Form(
                    "the constrained list or map is behind a pointer; `eachVal` field-path constraints take a list or map field by value".into(),
                ));
            }
            Native::Other(Ty::Slice(e)) => (false, *e),
            Native::Other(Ty::Map(_, v)) => (true, *v),
            _ => {
                let ty = match self.leaf(&ty) {
                    Leaf::Value(o) => o.words(),
                    Leaf::Other(t) => t,
                };
                return Err(ConstraintDiagnostic::EachTypeMismatch { ty });
            }
        };
        let operand = match self.leaf(&elem) {
            Leaf::Value(o) => o,
            Leaf::Other(t) => {
                let what = if map { "map" } else { "list" };
                return Err(ConstraintDiagnostic::EachTypeMismatch {
                    ty: format!("a {what} of {t}"),
                });
            }
        };
        let pointer_elems = matches!(elem, Ty::Pointer(_));
        let bound = self.resolve_path(owner, path, "referenced field")?;
        same_kind(operand, bound.operand)?;
        // The list metadata as `eachVal` reads it; its problems are reported with the field's own checks.
        let matcher = if map {
            Matcher::None
        } else {
            let n = self.diags.len();
            let what = Subject::field(&owner.name, f.go_name.as_deref().unwrap_or_default());
            let m = self.matcher_for(file, f.at, &what, &f.tags, &ty);
            self.diags.truncate(n);
            match m {
                Matcher::Set => Matcher::Set,
                Matcher::None | Matcher::Keys(_) => Matcher::None,
            }
        };
        Ok(ConstraintPlan {
            kind,
            target: FieldPath {
                steps: vec![step],
                operand,
                holder: owner.clone(),
            },
            bound,
            each: Some(EachElements {
                map,
                pointer_elems,
                matcher,
            }),
        })
    }

    /// Field `f` of struct `k` as a path step, with its resolved Go type.
    pub(super) fn path_step(&self, k: &TypeKey, file: SourceFile, f: &FieldIr) -> (PathStep, Ty) {
        let ty = types::resolve(self.db, self.prog, &k.pkg, file, &f.ty);
        let json = f.json.clone().unwrap_or_default();
        let pointer = match self.rust_ty(k, &ty) {
            RustTy::Option(_, b) => Some(b),
            _ => None,
        };
        let step = PathStep {
            go: f.member_name(),
            json: if f.go_name.is_none() && json.name.is_empty() {
                String::new()
            } else if json.name.is_empty() {
                f.member_name()
            } else {
                json.name
            },
            pointer,
        };
        (step, ty)
    }

    /// What a field of Go type `ty` holds, behind one pointer and through typedef chains.
    fn leaf(&self, ty: &Ty) -> Leaf {
        let inner = match ty {
            Ty::Pointer(i) => i.as_ref(),
            t => t,
        };
        match types::native(self.db, self.prog, inner) {
            Native::Other(Ty::Builtin(b)) if b.is_integer() => Leaf::Value(Operand::Integer(b)),
            Native::Other(Ty::WellKnown(vgc_analysis::types::WellKnown::Quantity)) => {
                Leaf::Value(Operand::Quantity)
            }
            Native::Other(Ty::WellKnown(vgc_analysis::types::WellKnown::Duration)) => {
                Leaf::Value(Operand::Duration)
            }
            Native::Other(Ty::Builtin(b)) => Leaf::Other(format!("{b:?}").to_lowercase()),
            Native::Struct(k) => Leaf::Other(format!("struct {}", k.name)),
            Native::Other(Ty::Slice(_)) => Leaf::Other("a list".into()),
            Native::Other(Ty::Map(..)) => Leaf::Other("a map".into()),
            Native::Other(Ty::WellKnown(w)) => Leaf::Other(format!("{w:?}")),
            Native::Other(_) => Leaf::Other("not an integer type".into()),
        }
    }

    /// Resolves a `constraint:` path (JSON names joined with `.`) from struct `owner`.
    /// The form on a struct type (KEP-5073 "Tag Placement and Hoisting": the tag on the common ancestor):
    /// `+k8s:minimum(target: <path>, constraint: <path>)` on struct `owner`, both paths relative to it. The
    /// constrained field may lie below a child struct (`spec.current`); the check runs on `owner` and reports at
    /// the target's path. Errors name the path they are about ([`TARGET`] or [`CONSTRAINT`]).
    fn type_constraint(
        &self,
        owner: &TypeKey,
        kind: ConstraintKind,
        target: &str,
        path: &str,
    ) -> Result<ConstraintPlan, (&'static str, ConstraintDiagnostic)> {
        if !extension_tags::enabled(self.db) {
            return Err((TARGET, ConstraintDiagnostic::Disabled));
        }
        let target = self
            .resolve_path(owner, target, "constrained field")
            .map_err(|d| (TARGET, d))?;
        if target.json_segments().is_empty() {
            return Err((
                TARGET,
                ConstraintDiagnostic::Form(
                    "the constrained field has no JSON name, so no error path".into(),
                ),
            ));
        }
        let bound = self
            .resolve_path(owner, path, "referenced field")
            .map_err(|d| (CONSTRAINT, d))?;
        same_kind(target.operand, bound.operand).map_err(|d| (CONSTRAINT, d))?;
        if bound.steps == target.steps {
            return Err((
                CONSTRAINT,
                ConstraintDiagnostic::Form("it names the constrained field itself".into()),
            ));
        }
        Ok(ConstraintPlan {
            kind,
            target,
            bound,
            each: None,
        })
    }

    /// `path` (JSON names joined with `.`) resolved from struct `owner` to an integer field; `role` names that
    /// field in a type mismatch (`constrained field`, `referenced field`).
    fn resolve_path(
        &self,
        owner: &TypeKey,
        path: &str,
        role: &'static str,
    ) -> Result<FieldPath, ConstraintDiagnostic> {
        let segs: Vec<&str> = path.split('.').collect();
        let mut at = owner.clone();
        let mut steps = Vec::new();
        for (i, seg) in segs.iter().enumerate() {
            let Some((found, ty, holder)) = self.find_json_field(&at, seg) else {
                let names = self.json_names_through(&at);
                return Err(ConstraintDiagnostic::UnknownPath {
                    segment: (*seg).to_string(),
                    within: at.name.clone(),
                    suggestion: did_you_mean(seg, &names),
                });
            };
            steps.extend(found);
            let last = i + 1 == segs.len();
            let inner = match &ty {
                Ty::Pointer(p) => p.as_ref(),
                t => t,
            };
            let prefix = || segs[..=i].join(".");
            if last {
                return match self.leaf(&ty) {
                    Leaf::Value(operand) => Ok(FieldPath {
                        steps,
                        operand,
                        holder,
                    }),
                    Leaf::Other(ty) => Err(ConstraintDiagnostic::TypeMismatch { role, ty }),
                };
            }
            match types::native(self.db, self.prog, inner) {
                Native::Struct(k) => at = k,
                Native::Other(Ty::Slice(_) | Ty::Map(..)) => {
                    return Err(ConstraintDiagnostic::IntoList { prefix: prefix() });
                }
                Native::Other(_) => {
                    return Err(ConstraintDiagnostic::NotAStruct { prefix: prefix() });
                }
            }
        }
        Err(ConstraintDiagnostic::Form("the path is empty".into()))
    }

    /// The field of struct `k` whose JSON name is `name`, as the steps to it (inline-embedded structs first, the
    /// shallowest match as encoding/json picks it), its resolved Go type and the struct declaring it.
    fn find_json_field(&self, k: &TypeKey, name: &str) -> Option<(Vec<PathStep>, Ty, TypeKey)> {
        let mut queue = std::collections::VecDeque::from([(k.clone(), Vec::new())]);
        let mut seen = std::collections::BTreeSet::from([k.clone()]);
        while let Some((t, prefix)) = queue.pop_front() {
            let Some((decl, file)) = self.prog.type_decl(self.db, &t) else {
                continue;
            };
            for f in &decl.fields {
                let json = f.json.clone().unwrap_or_default();
                if json.skip {
                    continue;
                }
                let go = f.member_name();
                if !go.starts_with(|c: char| c.is_uppercase()) {
                    continue;
                }
                let (step, ty) = self.path_step(&t, file, f);
                if step.json.is_empty() {
                    let inner = match &ty {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        other => other.clone(),
                    };
                    if let Native::Struct(e) = types::native(self.db, self.prog, &inner)
                        && seen.insert(e.clone())
                    {
                        let mut p = prefix.clone();
                        p.push(step);
                        queue.push_back((e, p));
                    }
                    continue;
                }
                if step.json == name {
                    let mut p = prefix.clone();
                    p.push(step);
                    return Some((p, ty, t));
                }
            }
        }
        None
    }
}

/// The JSON name in `names` closest to `seg` when it is close (a typo): Levenshtein distance at most 2, or at
/// most a third of the name.
pub(super) fn did_you_mean(seg: &str, names: &[String]) -> Option<String> {
    names
        .iter()
        .map(|n| (strsim::levenshtein(seg, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 3))
        .min()
        .map(|(_, n)| n.clone())
}
