//! `+k8s:subfield`: a payload relocated to one member of a struct value.

use super::*;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// upstream `subfield.go`: the payload runs on one member (by JSON name) of a struct value at `path.<json>`,
    /// in the member's named cohort; on update it is skipped when the old struct is set and the member is equal.
    /// The member's own short-circuit checks are inherited as NonError (off when the declaration carrying the
    /// tag, or the struct type it selects from, is opaque), so the payload is skipped when the member is unset or
    /// invalid. Payloads that declare metadata (`listType`, `listMapKey`, `unique`) or struct-level functions
    /// (unions, modes, dependent fields) declare them for the member, as upstream keys them by the subfield's
    /// path.
    pub(super) fn lower_subfield(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        u: &TagUse,
        tag: &Tag,
        ty: Option<&Ty>,
        stability: Option<Stability>,
    ) -> Option<Vec<Check>> {
        let inner = tag.inner()?;
        let name = tag.str_positional().map(str::to_string)?;
        let profile = vgc_ir::profile::upstream(self.db);
        let chains = profile.nested_subfield();
        if unwrap_levels(inner).is_tag(TagId::Subfield) && !profile.subfield_chains() {
            self.report(
                file,
                u.at,
                &Subject::ty(&owner.name),
                LowerDiagnostic::NestedSubfield,
            );
            return None;
        }
        if profile.subfield_chains() && unwrap_levels(inner).is_tag(TagId::Subfield) {
            // The end of the chain: list metadata and struct-level functions are keyed by the declaration's
            // `subfield(<name>)=` siblings, which a chain does not reach; refused rather than dropped.
            let mut end = unwrap_levels(inner);
            while end.is_tag(TagId::Subfield) {
                let Some(next) = end.inner() else { break };
                end = peel(next).2;
            }
            let metadata = matches!(
                end.tag_id(),
                Some(TagId::ListType | TagId::Unique | TagId::ListMapKey)
            );
            if metadata || is_struct_level(end) {
                let name = end.tag_id().map_or("k8s:subfield", TagId::name);
                self.report(
                    file,
                    u.at,
                    &Subject::ty(&owner.name),
                    LowerDiagnostic::NestedSubfieldPayload(name),
                );
                return None;
            }
        }
        let base = match ty {
            Some(Ty::Pointer(i)) => i.as_ref().clone(),
            Some(t) => t.clone(),
            None => Ty::Any,
        };
        let Native::Struct(sk) = types::native(self.db, self.prog, &base) else {
            self.report(
                file,
                u.at,
                &Subject::ty(&owner.name),
                LowerDiagnostic::SubfieldOnNonStruct,
            );
            return None;
        };
        let (sd, sfile) = self.prog.type_decl(self.db, &sk)?;
        let Some(member) = sd.fields.iter().find(|m| {
            let json = m
                .json
                .as_ref()
                .map(|j| j.name.clone())
                .filter(|n| !n.is_empty());
            json.as_deref().or(m.go_name.as_deref()) == Some(name.as_str())
        }) else {
            self.report(
                file,
                u.at,
                &Subject::ty(&owner.name),
                LowerDiagnostic::SubfieldNoMember {
                    ty: sk.name.clone(),
                    name: name.clone(),
                },
            );
            return None;
        };
        let mty = types::resolve(self.db, self.prog, &sk.pkg, sfile, &member.ty);
        let mshape = self.shape(&mty);
        let inner_stab = level_of(inner).or(stability);
        let payload = peel(inner).2;
        // The declaration carrying this tag: its `subfield(<name>)=` payloads are the member's tags in this
        // context (upstream keys list metadata and unions by the subfield's path).
        let (decl_at, siblings) = self.decl_tags_of(owner, u);
        let member_tags = |name: &str| -> Vec<TagUse> {
            siblings
                .iter()
                .filter_map(|s| {
                    let (_, _, t) = peel(s.parsed.as_ref().ok()?);
                    (t.is_tag(TagId::Subfield) && t.str_positional() == Some(name))
                        .then(|| t.inner())
                        .flatten()
                        .map(|p| TagUse {
                            name: p.name.clone(),
                            parsed: Ok(p.clone()),
                            raw_value: None,
                            at: s.at,
                        })
                })
                .collect()
        };
        if is_struct_level(payload) {
            // upstream: the member tag's struct-level function (re-scoped from ParentContext to the subfield's
            // field) runs on the struct value, unwrapped, once for all `subfield` tags of the declaration.
            let first = siblings.iter().find(|s| {
                s.parsed.as_ref().is_ok_and(|t| {
                    let t = peel(t).2;
                    t.is_tag(TagId::Subfield)
                        && t.inner().is_some_and(|p| is_struct_level(peel(p).2))
                })
            });
            if first.is_none_or(|f| f.at != u.at) {
                return Some(vec![]);
            }
            let virtual_fields: Vec<FieldIr> = sd
                .fields
                .iter()
                .map(|m| {
                    let json = m
                        .json
                        .as_ref()
                        .map(|j| j.name.clone())
                        .filter(|n| !n.is_empty())
                        .or_else(|| m.go_name.clone())
                        .unwrap_or_default();
                    let mut v = m.clone();
                    v.tags = member_tags(&json)
                        .into_iter()
                        .filter(|t| t.parsed.as_ref().is_ok_and(|t| is_struct_level(peel(t).2)))
                        .collect();
                    v.at = decl_at;
                    v
                })
                .collect();
            let was = self.tag_file.replace(file);
            let mut checks = self.struct_level_checks(&sk, sfile, &virtual_fields);
            self.tag_file = was;
            // upstream: `alpha=+subfield(x)=+zeroOrOneOfMember` marks the union's errors (`.MarkAlpha()`); the
            // member tags above were peeled of that level.
            for c in &mut checks {
                if c.stability.is_none() {
                    c.stability = inner_stab;
                }
            }
            return Some(checks);
        }
        let mut inner_checks = if matches!(payload.tag_id(), Some(TagId::ListType | TagId::Unique))
        {
            // upstream `getListValidations` for the subfield's path: the first `listType`/`unique` tag generates
            // the uniqueness check from every `subfield(<name>)=` list tag.
            let tags = member_tags(&name);
            let first = tags.iter().find(|t| {
                t.parsed.as_ref().is_ok_and(|t| {
                    matches!(peel(t).2.tag_id(), Some(TagId::ListType | TagId::Unique))
                })
            });
            if first.is_none_or(|f| f.at != u.at) || !matches!(mshape, Shape::List { .. }) {
                // Validated (payload, scope) by lowering the tag itself; its metadata is consumed here.
                return self
                    .lower_tag(owner, file, u, payload, &mshape, Some(&mty), inner_stab)
                    .map(|_| Vec::new());
            }
            self.lower_tag(owner, file, u, payload, &mshape, Some(&mty), inner_stab)?;
            let what = Subject::field(&sk.name, &name);
            let matcher = self.matcher_for(file, decl_at, &what, &tags, &mty);
            self.unique_check(&tags, &matcher).into_iter().collect()
        } else {
            self.lower_tag(
                owner,
                file,
                u,
                unwrap_levels(inner),
                &mshape,
                Some(&mty),
                inner_stab,
            )?
        };
        if inner_checks.is_empty() {
            return Some(vec![]);
        }
        if matches!(mshape, Shape::List { .. })
            && inner_checks
                .iter()
                .any(|c| matches!(c.kind, CheckKind::EachVal(..) | CheckKind::Update(..)))
        {
            // Element matching for the member list comes from the `subfield(<name>)=` list tags (quietly: they are
            // reported once, by the tag that generates the uniqueness check).
            let tags = member_tags(&name);
            let n = self.diags.len();
            let matcher = self.matcher_for(file, decl_at, &Subject::ty(""), &tags, &mty);
            self.diags.truncate(n);
            for c in &mut inner_checks {
                match &mut c.kind {
                    CheckKind::EachVal(_, m, _) | CheckKind::Update(_, m) => *m = matcher.clone(),
                    _ => {}
                }
            }
        }
        // upstream `isFieldOpaque(context)` of the tag's own context: the declaration carrying the `subfield` tag
        // is `opaqueType`, or the struct type it selects from is (a field's type, or the type itself).
        let type_opaque = match &base {
            Ty::Named(k) => self
                .prog
                .type_decl(self.db, k)
                .is_some_and(|(d, _)| opacity(&d.tags).value),
            _ => false,
        };
        let member_opaque = type_opaque || opacity(&siblings).value;
        let (value_ty, pointer, elem) = split_member(self.rust_ty(&sk, &mty));
        let go = go_field_name(member).unwrap_or_default();
        let wrap = |inner: Check, inherited: bool| {
            let (short_circuit, non_error) = if inherited {
                (true, true)
            } else {
                (inner.short_circuit, inner.non_error)
            };
            // upstream marks the inner function (`Minimum(…).MarkAlpha()` inside `Subfield`); the wrapper returns
            // only its errors, so marking the wrapper with the inner level is the same.
            let stability = inner.stability.or(stability);
            // upstream 1.38 (kubernetes#141945): the cohort is named for the full path validated (`a.b` for a
            // chain), so chains through a common hop do not stop each other; before, the hop's name.
            let cohort = match (&inner.kind, &inner.cohort) {
                (CheckKind::Subfield(_), Some(c)) if chains => format!("{name}.{c}"),
                _ => name.clone(),
            };
            let sub = Subfield {
                member: MemberRef {
                    go: go.clone(),
                    json: name.clone(),
                    ty: value_ty.clone(),
                    pointer,
                    shape: mshape.clone(),
                    elem: elem.clone(),
                },
                inner,
                inherited,
            };
            Check {
                kind: CheckKind::Subfield(Box::new(sub)),
                short_circuit,
                non_error,
                stability,
                tag: Some(TagId::Subfield),
                cohort: Some(cohort),
            }
        };
        let mut checks = Vec::new();
        // upstream 1.37 only: 1.38 (kubernetes#141945) reverts the inheritance of the member's short-circuits
        // (#139564), which 1.35 and 1.36 did not have.
        if !member_opaque && profile.subfield_inherits_short_circuits() {
            let was = std::mem::replace(&mut self.counting, false);
            let inherited = self.checks(&sk, sfile, &member.tags, &mshape, Some(&mty), &sk.pkg);
            self.counting = was;
            checks.extend(
                inherited
                    .into_iter()
                    .filter(|c| c.short_circuit)
                    .map(|c| wrap(c, true)),
            );
        }
        checks.extend(inner_checks.into_iter().map(|c| wrap(c, false)));
        Some(checks)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::lower_go;
    use expect_test::expect;

    /// Lowered under the newest profile (1.38): the member's own `optional` is not inherited (kubernetes#141945);
    /// 1.37's inheritance is pinned by `tests/tests/upstream.rs` `nested_subfield_from_1_38`.
    #[test]
    fn subfield_checks_a_member_in_its_cohort() {
        let got = lower_go(
            r#"type Inner struct {
	// +k8s:optional
	Name string `json:"name"`
}

type T struct {
	// +k8s:optional
	// +k8s:subfield(name)=+k8s:maxLength=5
	In *Inner `json:"in"`
	// +k8s:optional
	// +k8s:subfield(nope)=+k8s:maxLength=5
	Missing *Inner `json:"missing"`
	// +k8s:optional
	// +k8s:subfield(name)=+k8s:maxLength=5
	NotStruct *string `json:"notStruct"`
}
"#,
        );
        expect![[r#"
            Inner.name: optional
            T.in: optional; field name: at most 5 characters
            T.missing: optional
            T.notStruct: optional
            VGC0109 T: Inner has no member with JSON name "nope"
            VGC0110 T: tag "k8s:subfield" can only be used on struct types
        "#]]
        .assert_eq(&got);
    }
}
