//! Struct-level rules deferred from members: unions and zero-or-one-of groups, modes, dependent fields.

use super::*;

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
        let mut groups: IndexMap<(u8, String), UnionPlan> = IndexMap::new();
        // In deferral order: a union kind (first member tag of that kind) or a dependent check.
        // A union kind carries the option gates of its first member tag: upstream wraps that tag's deferred
        // callback, which builds every group of the kind.
        #[allow(clippy::type_complexity)]
        let mut events: Vec<
            Result<(UnionKind, Option<Stability>, Vec<OptionGate>), Check>,
        > = Vec::new();
        // Modes: modality → (discriminator (Rust name, is bool), Go member name → (field, rules)).
        type ModeRules<'f> = std::collections::BTreeMap<
            String,
            (&'f FieldIr, Vec<(String, Vec<Check>, Option<Stability>)>),
        >;
        let mut modes: std::collections::BTreeMap<String, (Option<(String, bool)>, ModeRules<'_>)> =
            std::collections::BTreeMap::new();
        // Index in `events` where the modes' functions go (first ifMode tag), marked by a placeholder.
        let mut modes_at: Option<usize> = None;
        // The option gates of the first `ifMode` tag (its deferred callback builds every modality's functions).
        let mut modes_gates: Vec<OptionGate> = Vec::new();
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
                            events.push(Err(c));
                        }
                        continue;
                    }
                    TagId::ModeDiscriminator | TagId::IfMode => {
                        let arg = |n: &str| match t.arg(n).map(|a| &a.value) {
                            Some(Scalar::Str(v)) => Some(v.clone()),
                            _ => None,
                        };
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
                                    self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: tag \"k8s:modeDiscriminator\": can only be used on non-pointer string or bool types", owner.name), None);
                                    continue;
                                }
                            };
                            if modality == "default" && arg("modality").is_some() {
                                self.err(file, u.at, Code::InvalidPayload, format!("field {}.{go}: discriminator group name \"default\" is reserved", owner.name), None);
                                continue;
                            }
                            let entry = modes.entry(modality.clone()).or_default();
                            if entry
                                .0
                                .as_ref()
                                .is_some_and(|(r, _)| *r != field_ident(&go))
                            {
                                self.err(
                                    file,
                                    u.at,
                                    Code::InvalidPayload,
                                    format!(
                                        "field {}.{go}: duplicate discriminator: {modality:?}",
                                        owner.name
                                    ),
                                    None,
                                );
                                continue;
                            }
                            entry.0 = Some((field_ident(&go), is_bool));
                        } else {
                            let Some(payload) = t.inner() else { continue };
                            let Some(value) =
                                arg("mode").or_else(|| match t.positional().map(|a| &a.value) {
                                    Some(Scalar::Str(v)) => Some(v.clone()),
                                    Some(Scalar::Bool(b)) => Some(b.to_string()),
                                    Some(Scalar::Int { text, .. }) => Some(text.clone()),
                                    None => None,
                                })
                            else {
                                self.err(
                                    file,
                                    u.at,
                                    Code::MissingArg,
                                    format!(
                                        "field {}.{go}: tag \"k8s:ifMode\": missing required mode",
                                        owner.name
                                    ),
                                    None,
                                );
                                continue;
                            };
                            if matches!(shape, Shape::Struct { pointer: false }) {
                                self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: discriminated member fields of struct type must be pointers", owner.name), None);
                                continue;
                            }
                            let level = plevel;
                            let Ok(checks) = self.lower_tag(
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
                            if modes_at.is_none() {
                                modes_at = Some(events.len());
                                modes_gates = gates.clone();
                                events.push(Ok((UnionKind::Union, None, Vec::new()))); // placeholder, replaced below
                            }
                        }
                        continue;
                    }
                    _ => continue,
                };
                let arg = |n: &str| match t.arg(n).map(|a| &a.value) {
                    Some(Scalar::Str(v)) => Some(v.clone()),
                    _ => None,
                };
                let name = arg("union").unwrap_or_default();
                let (file_ty, shape) = {
                    let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                    let shape = self.shape(&ty);
                    (ty, shape)
                };
                let _ = file_ty;
                let group = groups
                    .entry((kind as u8, name.clone()))
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
                        self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: tag \"k8s:unionDiscriminator\": can only be used on string types", owner.name), None);
                        continue;
                    }
                    group.discriminator = Some((field_ident(&go), json.clone()));
                } else {
                    if matches!(
                        shape,
                        Shape::Struct { pointer: false } | Shape::Other { pointer: false }
                    ) {
                        self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: tag {:?}: can only be used on nilable and primitive types", owner.name, t.name), None);
                        continue;
                    }
                    if json.is_empty() {
                        self.err(
                            file,
                            u.at,
                            Code::TypeMismatch,
                            format!(
                                "field {}.{go}: is a union member but has no JSON name",
                                owner.name
                            ),
                            None,
                        );
                        continue;
                    }
                    group.members.push(UnionMemberPlan {
                        rust_name: field_ident(&go),
                        json: json.clone(),
                        member_name: arg("memberName").unwrap_or_else(|| go.clone()),
                        shape,
                    });
                    if !events.iter().enumerate().any(|(i, e)| {
                        modes_at != Some(i) && matches!(e, Ok((k, _, _)) if *k == kind)
                    }) {
                        events.push(Ok((kind, plevel, gates.clone())));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, event) in events.into_iter().enumerate() {
            if modes_at == Some(i) {
                let checks = self.mode_checks(owner, file, &modes);
                out.extend(
                    checks
                        .into_iter()
                        .map(|c| gate(self.undefined_option_is_error(), c, &modes_gates)),
                );
                continue;
            }
            let (kind, stability, gates) = match event {
                Ok(k) => k,
                Err(c) => {
                    out.push(c);
                    continue;
                }
            };
            let mut names: Vec<&(u8, String)> =
                groups.keys().filter(|(k, _)| *k == kind as u8).collect();
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
                Option<(String, bool)>,
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
                    let msg = if modality == "default" {
                        "missing discriminator".to_string()
                    } else {
                        format!("missing discriminator for group {modality:?}")
                    };
                    self.err(
                        file,
                        at,
                        Code::InvalidPayload,
                        format!("{}: {msg}", owner.name),
                        Some("mark the selecting field with `+k8s:modeDiscriminator`".into()),
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
                    let key = if disc.1 {
                        match value.as_str() {
                            "1" | "t" | "T" | "TRUE" | "true" | "True" => "true".to_string(),
                            "0" | "f" | "F" | "FALSE" | "false" | "False" => "false".to_string(),
                            _ => {
                                self.err(file, f.at, Code::InvalidPayload, format!("{}: invalid discriminator value {value:?}: cannot parse as bool", owner.name), None);
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
                    member: field_ident(go),
                    json,
                    ty: value_ty,
                    pointer,
                    shape,
                    elem,
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
        let Some(Scalar::Str(dep_json)) = t.positional().map(|a| &a.value) else {
            return None;
        };
        let Some(trigger_json) = json_of(f) else {
            self.err(
                file,
                u.at,
                Code::TypeMismatch,
                format!("field {}.{go}: trigger field has no JSON name", owner.name),
                None,
            );
            return None;
        };
        let Some(dep) = fields
            .iter()
            .find(|m| json_of(m).as_deref() == Some(dep_json.as_str()))
        else {
            self.err(
                file,
                u.at,
                Code::InvalidPayload,
                format!(
                    "field {}.{go}: no sibling field with JSON name {dep_json:?}",
                    owner.name
                ),
                None,
            );
            return None;
        };
        if dep.go_name == f.go_name {
            self.err(file, u.at, Code::InvalidPayload, format!("field {}.{go}: trigger and dependent field must be different (both are {dep_json:?})", owner.name), None);
            return None;
        }
        let shape_of =
            |l: &Self, m: &FieldIr| l.shape(&types::resolve(l.db, l.prog, &owner.pkg, file, &m.ty));
        let (ts, ds) = (shape_of(self, f), shape_of(self, dep));
        for (role, sh, name) in [
            ("trigger", &ts, &go),
            ("dependent", &ds, &dep.go_name.clone().unwrap_or_default()),
        ] {
            if matches!(
                sh,
                Shape::Struct { pointer: false } | Shape::Other { pointer: false }
            ) {
                self.err(
                    file,
                    u.at,
                    Code::TypeMismatch,
                    format!(
                        "field {}.{go}: {role} field {name:?} has an unsupported type kind",
                        owner.name
                    ),
                    None,
                );
                return None;
            }
        }
        if self.counting {
            self.stats.checks += 1;
        }
        let plan = DependentPlan {
            forbidden: t.is_tag(TagId::DependentForbidden),
            trigger: (field_ident(&go), trigger_json, ts),
            dependent: (
                field_ident(dep.go_name.as_deref().unwrap_or_default()),
                dep_json.clone(),
                ds,
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
