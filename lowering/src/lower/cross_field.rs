//! Struct-level rules deferred from members: unions and zero-or-one-of groups, modes, dependent fields.

use super::*;
use vgc_ir::checked::Checked as _;

/// A struct-level function group in upstream's deferral order: the order in which the first tag of each kind
/// registered its deferred callback (ParentContext), which builds every function of that kind.
enum Deferred {
    /// Every group of a union kind, wrapped in the option gates and level of the kind's first member tag.
    Union {
        kind: UnionKind,
        stability: Option<Stability>,
        gates: Vec<OptionGate>,
    },
    /// One `dependentRequired`/`dependentForbidden` check.
    Dependent(Check),
    /// Every modality's `Discriminated` calls, wrapped in the option gates of the first `ifMode` tag.
    Modes { gates: Vec<OptionGate> },
}

/// Defers the callback of union `kind` unless a member tag of that kind already did: the first one decides the
/// position, the option gates and the stability level.
fn defer_union(
    events: &mut Vec<Deferred>,
    kind: UnionKind,
    stability: Option<Stability>,
    gates: &[OptionGate],
) {
    if !events
        .iter()
        .any(|e| matches!(e, Deferred::Union { kind: k, .. } if *k == kind))
    {
        events.push(Deferred::Union {
            kind,
            stability,
            gates: gates.to_vec(),
        });
    }
}

impl Lowerer<'_> {
    /// upstream `union.go` / `zeroorone.go` for struct-field members: every member tag defers one callback that
    /// builds the functions of *all* groups of its kind in the struct (sorted by union name) and then clears them,
    /// so the first member tag (fields in order, tags by name) decides the position and the stability level.
    ///
    /// `dependentRequired`/`dependentForbidden` each defer their own function, appended at their place in the
    /// same field order.
    pub(super) fn struct_level_checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        fields: &[FieldIr],
    ) -> Vec<Check> {
        let mut groups: IndexMap<(UnionKind, String), UnionPlan> = IndexMap::new();
        let mut events: Vec<Deferred> = Vec::new();
        // Modes: modality → (discriminator (Rust name, is bool), Go member name → (field, rules)).
        type ModeRules<'f> = std::collections::BTreeMap<
            String,
            (&'f FieldIr, Vec<(String, Vec<Check>, Option<Stability>)>),
        >;
        let mut modes: std::collections::BTreeMap<String, (Option<Discriminator>, ModeRules<'_>)> =
            std::collections::BTreeMap::new();
        for f in fields {
            let Some(go) = f.go_name.clone() else {
                continue;
            };
            let json = f.json.as_ref().map(|j| j.name.clone()).unwrap_or_default();
            let mut tags: Vec<(TagId, &TagUse)> = f
                .tags
                .iter()
                .filter_map(|u| Some((u.tag_id()?, u)))
                .collect();
            tags.sort_by_key(|(id, _)| *id);
            for (_, u) in tags {
                let Ok(tag) = &u.parsed else { continue };
                let (gates, plevel, t) = peel(tag);
                let Some(id) = t.tag_id() else { continue };
                let kind = match id {
                    TagId::UnionMember | TagId::UnionDiscriminator => UnionKind::Union,
                    TagId::ZeroOrOneOfMember => UnionKind::ZeroOrOneOf,
                    TagId::DependentRequired | TagId::DependentForbidden => {
                        if let Some(c) = self.dependent_check(owner, file, fields, f, u, tag) {
                            events.push(Deferred::Dependent(c));
                        }
                        continue;
                    }
                    TagId::ModeDiscriminator | TagId::IfMode => {
                        let arg = |n: &str| t.str_arg(n).map(str::to_string);
                        let modality = arg("modality").unwrap_or_else(|| "default".to_string());
                        let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                        let shape = self.shape(&ty);
                        if id == TagId::ModeDiscriminator {
                            let is_bool = match shape {
                                Shape::Scalar {
                                    ty: Builtin::String,
                                    pointer: false,
                                } => false,
                                Shape::Scalar {
                                    ty: Builtin::Bool,
                                    pointer: false,
                                } => true,
                                _ => {
                                    self.report(
                                        file,
                                        u.at,
                                        &Subject::field(&owner.name, &go),
                                        LowerDiagnostic::ModeDiscriminatorKind,
                                    );
                                    continue;
                                }
                            };
                            if modality == "default" && arg("modality").is_some() {
                                self.report(
                                    file,
                                    u.at,
                                    &Subject::field(&owner.name, &go),
                                    LowerDiagnostic::ReservedModality,
                                );
                                continue;
                            }
                            let entry = modes.entry(modality.clone()).or_default();
                            if entry.0.as_ref().is_some_and(|d| d.field != go.clone()) {
                                self.report(
                                    file,
                                    u.at,
                                    &Subject::field(&owner.name, &go),
                                    LowerDiagnostic::DuplicateDiscriminator(modality.clone()),
                                );
                                continue;
                            }
                            entry.0 = Some(Discriminator {
                                field: go.clone(),
                                kind: if is_bool {
                                    DiscriminatorKind::Bool
                                } else {
                                    DiscriminatorKind::String
                                },
                            });
                        } else {
                            let Some(payload) = t.inner() else { continue };
                            let Some(value) = arg("mode").or_else(|| t.literal_positional()) else {
                                self.report(
                                    file,
                                    u.at,
                                    &Subject::field(&owner.name, &go),
                                    LowerDiagnostic::IfModeWithoutMode,
                                );
                                continue;
                            };
                            if matches!(shape, Shape::Struct { pointer: false }) {
                                self.report(
                                    file,
                                    u.at,
                                    &Subject::field(&owner.name, &go),
                                    LowerDiagnostic::DiscriminatedStructNotPointer,
                                );
                                continue;
                            }
                            let level = plevel;
                            let Some(checks) = self.lower_tag(
                                owner,
                                file,
                                u,
                                unwrap_levels(payload),
                                &shape,
                                Some(&ty),
                                level,
                            ) else {
                                continue;
                            };
                            let entry = modes.entry(modality).or_default();
                            entry
                                .1
                                .entry(go.clone())
                                .or_insert_with(|| (f, Vec::new()))
                                .1
                                .push((value, checks, level));
                            if !events.iter().any(|e| matches!(e, Deferred::Modes { .. })) {
                                events.push(Deferred::Modes {
                                    gates: gates.clone(),
                                });
                            }
                        }
                        continue;
                    }
                    _ => continue,
                };
                let arg = |n: &str| t.str_arg(n).map(str::to_string);
                let name = arg("union").unwrap_or_default();
                let (file_ty, shape) = {
                    let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                    let shape = self.shape(&ty);
                    (ty, shape)
                };
                let _ = file_ty;
                let group = groups
                    .entry((kind, name.clone()))
                    .or_insert_with(|| UnionPlan {
                        kind,
                        name: name.clone(),
                        members: Vec::new(),
                        discriminator: None,
                        union_origin: vgc_ir::profile::upstream(self.db).union_origin(),
                    });
                if id == TagId::UnionDiscriminator {
                    if !matches!(
                        shape,
                        Shape::Scalar {
                            ty: Builtin::String,
                            pointer: false
                        }
                    ) {
                        self.report(
                            file,
                            u.at,
                            &Subject::field(&owner.name, &go),
                            LowerDiagnostic::UnionDiscriminatorKind,
                        );
                        continue;
                    }
                    group.discriminator =
                        Some(self.member_ref(owner, file, f, go.clone(), json.clone()));
                    // Before 1.37 a discriminator makes its union's check even without a member (one that reports
                    // nothing); from 1.37 only members do.
                    if vgc_ir::profile::upstream(self.db).member_less_unions() {
                        defer_union(&mut events, kind, plevel, &gates);
                    }
                } else {
                    if shape.is_value_struct() {
                        self.report(
                            file,
                            u.at,
                            &Subject::field(&owner.name, &go),
                            LowerDiagnostic::UnionMemberKind(id),
                        );
                        continue;
                    }
                    if json.is_empty() {
                        self.report(
                            file,
                            u.at,
                            &Subject::field(&owner.name, &go),
                            LowerDiagnostic::UnionMemberWithoutJson,
                        );
                        continue;
                    }
                    group.members.push(UnionMemberPlan {
                        member: self.member_ref(owner, file, f, go.clone(), json.clone()),
                        member_name: arg("memberName").unwrap_or_else(|| go.clone()),
                    });
                    defer_union(&mut events, kind, plevel, &gates);
                }
            }
        }
        let mut out = Vec::new();
        for event in events {
            let (kind, stability, gates) = match event {
                Deferred::Union {
                    kind,
                    stability,
                    gates,
                } => (kind, stability, gates),
                Deferred::Dependent(c) => {
                    out.push(c);
                    continue;
                }
                Deferred::Modes { gates } => {
                    let checks = self.mode_checks(owner, file, &modes);
                    out.extend(
                        checks
                            .into_iter()
                            .map(|c| gate(self.undefined_option_is_error(), c, &gates)),
                    );
                    continue;
                }
            };
            let mut names: Vec<&(UnionKind, String)> =
                groups.keys().filter(|(k, _)| *k == kind).collect();
            names.sort_by(|a, b| a.1.cmp(&b.1));
            for key in names {
                let g = groups[key].clone();
                if g.members.is_empty() && g.discriminator.is_none() {
                    continue;
                }
                let tag = if kind == UnionKind::Union {
                    TagId::UnionMember
                } else {
                    TagId::ZeroOrOneOfMember
                };
                out.push(gate(
                    self.undefined_option_is_error(),
                    Check {
                        kind: CheckKind::Union(Box::new(g)),
                        short_circuit: false,
                        non_error: false,
                        stability,
                        tag: Some(tag),
                        cohort: None,
                    },
                    &gates,
                ));
            }
        }
        if self.counting {
            self.stats.checks += out.len();
        }
        out
    }

    /// upstream `mode.go`: per modality (sorted, `default` for none) and per member field (sorted by Go name), one
    /// `Discriminated` call whose rules are the merged payload functions of each mode value (sorted), marked with
    /// their rule's level; other values get an implicit Forbidden check.
    #[allow(clippy::type_complexity)]
    pub(super) fn mode_checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        modes: &std::collections::BTreeMap<
            String,
            (
                Option<Discriminator>,
                std::collections::BTreeMap<
                    String,
                    (&FieldIr, Vec<(String, Vec<Check>, Option<Stability>)>),
                >,
            ),
        >,
    ) -> Vec<Check> {
        let mut out = Vec::new();
        for (modality, (disc, members)) in modes {
            let Some(disc) = disc else {
                if !members.is_empty() {
                    let at = members.values().next().map_or(0, |(f, _)| f.at);
                    self.report(
                        file,
                        at,
                        &Subject::ty(&owner.name),
                        LowerDiagnostic::MissingDiscriminator(
                            (modality != "default").then(|| modality.clone()),
                        ),
                    );
                }
                continue;
            };
            for (go, (f, rules)) in members {
                let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                let shape = self.shape(&ty);
                let json = f
                    .json
                    .as_ref()
                    .map(|j| j.name.clone())
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| go.clone());
                let mut by_value: std::collections::BTreeMap<String, Vec<Check>> =
                    std::collections::BTreeMap::new();
                for (value, checks, _) in rules {
                    let key = if disc.kind == DiscriminatorKind::Bool {
                        match value.as_str() {
                            "1" | "t" | "T" | "TRUE" | "true" | "True" => "true".to_string(),
                            "0" | "f" | "F" | "FALSE" | "false" | "False" => "false".to_string(),
                            _ => {
                                self.report(
                                    file,
                                    f.at,
                                    &Subject::ty(&owner.name),
                                    LowerDiagnostic::BoolDiscriminatorValue(value.clone()),
                                );
                                continue;
                            }
                        }
                    } else {
                        value.clone()
                    };
                    by_value
                        .entry(key)
                        .or_default()
                        .extend(checks.iter().cloned());
                }
                let levels: Vec<Option<Stability>> = rules.iter().map(|r| r.2).collect();
                let uniform = levels
                    .first()
                    .copied()
                    .flatten()
                    .filter(|l| levels.iter().all(|x| *x == Some(*l)));
                let (value_ty, pointer, elem) = split_member(self.rust_ty(owner, &ty));
                let plan = ModePlan {
                    member: MemberRef {
                        go: go.to_string(),
                        json,
                        ty: value_ty,
                        pointer,
                        shape,
                        elem,
                    },
                    discriminator: disc.clone(),
                    rules: by_value.into_iter().collect(),
                    default_stability: uniform,
                };
                if self.counting {
                    self.stats.checks += 1;
                }
                out.push(Check {
                    kind: CheckKind::Discriminated(Box::new(plan)),
                    short_circuit: false,
                    non_error: false,
                    stability: None,
                    tag: Some(TagId::IfMode),
                    cohort: None,
                });
            }
        }
        out
    }

    /// upstream `dependentrequired.go`: one struct-level check per tag; the trigger is the tagged field, the
    /// dependent the sibling named by JSON; both must be pointers, slices, maps or builtins.
    pub(super) fn dependent_check(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        fields: &[FieldIr],
        f: &FieldIr,
        u: &TagUse,
        tag: &Tag,
    ) -> Option<Check> {
        let (gates, level, t) = peel(tag);
        let go = f.go_name.clone().unwrap_or_default();
        let json_of = |m: &FieldIr| {
            m.json
                .as_ref()
                .map(|j| j.name.clone())
                .filter(|n| !n.is_empty())
        };
        let dep_json = t.str_positional().map(str::to_string)?;
        let Some(trigger_json) = json_of(f) else {
            self.report(
                file,
                u.at,
                &Subject::field(&owner.name, &go),
                LowerDiagnostic::TriggerWithoutJson,
            );
            return None;
        };
        let Some(dep) = fields
            .iter()
            .find(|m| json_of(m).as_deref() == Some(dep_json.as_str()))
        else {
            self.report(
                file,
                u.at,
                &Subject::field(&owner.name, &go),
                LowerDiagnostic::NoSiblingField(dep_json.clone()),
            );
            return None;
        };
        if dep.go_name == f.go_name {
            self.report(
                file,
                u.at,
                &Subject::field(&owner.name, &go),
                LowerDiagnostic::SameTriggerAndDependent(dep_json.clone()),
            );
            return None;
        }
        let shape_of =
            |l: &Self, m: &FieldIr| l.shape(&types::resolve(l.db, l.prog, &owner.pkg, file, &m.ty));
        let (ts, ds) = (shape_of(self, f), shape_of(self, dep));
        for (role, sh, name) in [
            ("trigger", &ts, &go),
            ("dependent", &ds, &dep.go_name.clone().unwrap_or_default()),
        ] {
            if sh.is_value_struct() {
                self.report(
                    file,
                    u.at,
                    &Subject::field(&owner.name, &go),
                    LowerDiagnostic::DependentFieldKind {
                        role,
                        name: name.clone(),
                    },
                );
                return None;
            }
        }
        if self.counting {
            self.stats.checks += 1;
        }
        let plan = DependentPlan {
            forbidden: t.is_tag(TagId::DependentForbidden),
            trigger: self.member_ref(owner, file, f, go.clone(), trigger_json),
            dependent: self.member_ref(
                owner,
                file,
                dep,
                go_field_name(dep).unwrap_or_default(),
                dep_json.clone(),
            ),
        };
        Some(gate(
            self.undefined_option_is_error(),
            Check {
                kind: CheckKind::Dependent(Box::new(plan)),
                short_circuit: false,
                non_error: false,
                stability: level,
                tag: t.tag_id(),
                cohort: None,
            },
            &gates,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::lower_go;
    use expect_test::expect;

    #[test]
    fn unions_modes_and_dependent_fields_are_hoisted_to_the_struct() {
        let got = lower_go(
            r#"type T struct {
	// +k8s:optional
	// +k8s:unionMember
	A *string `json:"a"`
	// +k8s:optional
	// +k8s:unionMember
	B *string `json:"b"`
	// +k8s:optional
	// +k8s:zeroOrOneOfMember
	C *string `json:"c"`
	// +k8s:optional
	// +k8s:zeroOrOneOfMember
	D *string `json:"d"`
	// +k8s:optional
	// +k8s:dependentRequired(e)
	Trigger *string `json:"trigger"`
	// +k8s:optional
	E *string `json:"e"`
	// +k8s:modeDiscriminator
	Kind string `json:"kind"`
	// +k8s:optional
	// +k8s:ifMode("Big")=+k8s:required
	Big *string `json:"big"`
}
"#,
        );
        expect![[r#"
            T: exactly one of a, b must be set; at most one of c, d may be set; e is required when trigger is set; field big: when Kind is Big: required; when Kind is anything else: must not be set
            T.a: optional
            T.b: optional
            T.c: optional
            T.d: optional
            T.trigger: optional
            T.e: optional
            T.big: optional
        "#]].assert_eq(&got);
    }

    #[test]
    fn cross_field_refusals() {
        let got = lower_go(
            r#"type T struct {
	// +k8s:optional
	// +k8s:dependentRequired(nope)
	A *string `json:"a"`
	// +k8s:optional
	// +k8s:dependentForbidden(b)
	B *string `json:"b"`
	// +k8s:optional
	// +k8s:dependentRequired=a
	C *string `json:"c"`
	// +k8s:modeDiscriminator
	Kind *string `json:"kind"`
	// +k8s:optional
	// +k8s:ifMode("X")=+k8s:required
	M *string `json:"m"`
}
"#,
        );
        expect![[r#"
            T.a: optional
            T.b: optional
            T.c: optional
            T.m: optional
            VGC0104 tag "k8s:dependentRequired": missing required positional argument of type string
            VGC0108 tag "k8s:dependentRequired": tag value has wrong type: got string, want no value
            VGC0109 field T.A: no sibling field with JSON name "nope"
            VGC0109 field T.B: trigger and dependent field must be different (both are "b")
            VGC0110 field T.Kind: tag "k8s:modeDiscriminator": can only be used on non-pointer string or bool types
            VGC0109 T: missing discriminator
        "#]].assert_eq(&got);
    }
}
