//! `+k8s:item`: checks and unions on list-map items selected by key.

use super::*;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// upstream `item.go`: each `item(k: v, …)=+tag` wraps every function of its payload in `ValSliceItem`/
    /// `PtrSliceItem` (flags kept, cohort = the selector text); union members through `item` form list-level
    /// groups run on the list. Requires list-map metadata naming exactly the selector's keys.
    #[allow(clippy::type_complexity)] // a local grouping map, used once
    ///
    /// `tags` are a field's (`go` its Go name, `field_json` its JSON name) or a list typedef's own (`go` and
    /// `field_json` the type name, as upstream names list-item union members after the last path element). Tags
    /// wrapped in `ifEnabled`/`ifDisabled` are gated: the item functions each, the list-level unions by the gates
    /// of their first member tag.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn item_checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        tags: &[TagUse],
        go: &str,
        field_json: &str,
        ty: &Ty,
        matcher: &Matcher,
    ) -> Vec<Check> {
        let mut out = Vec::new();
        let mut groups: IndexMap<
            (UnionKind, String),
            (
                UnionKind,
                Vec<(String, crate::plan::Selector)>,
                Option<Stability>,
                Vec<OptionGate>,
            ),
        > = IndexMap::new();
        let mut union_at: Option<usize> = None;
        for u in tags.iter().filter(|u| {
            u.parsed
                .as_ref()
                .is_ok_and(|t| peel(t).2.is_tag(TagId::Item))
        }) {
            let Ok(tag) = &u.parsed else { continue };
            let (gates, stability, t) = peel(tag);
            let Some(payload) = t.inner() else { continue };
            let Matcher::Keys(keys) = matcher else {
                self.report(
                    file,
                    u.at,
                    &Subject::field(&owner.name, go),
                    LowerDiagnostic::ItemsWithoutListMetadata,
                );
                continue;
            };
            let Some(ItemSelector {
                selector,
                cohort,
                ptr_elems,
                elem: elem_ty,
                elem_key: ek,
                keyed,
            }) = self.item_selector(owner, file, u.at, go, t, keys, ty)
            else {
                continue;
            };
            let inner = unwrap_levels(payload);
            let inner_stab = level_of(payload).or(stability);
            if matches!(
                inner.tag_id(),
                Some(TagId::UnionMember | TagId::ZeroOrOneOfMember)
            ) {
                let kind = if inner.is_tag(TagId::UnionMember) {
                    UnionKind::Union
                } else {
                    UnionKind::ZeroOrOneOf
                };
                let union_name = inner.str_arg("union").unwrap_or_default().to_string();
                let g = groups.entry((kind, union_name)).or_insert((
                    kind,
                    Vec::new(),
                    inner_stab,
                    gates.clone(),
                ));
                g.1.push((format!("{field_json}[{cohort}]"), selector));
                if union_at.is_none() {
                    union_at = Some(out.len());
                }
                continue;
            }
            let elem_shape = self.shape(&elem_ty);
            let Some(inner_checks) = self.lower_tag(
                owner,
                file,
                u,
                inner,
                &elem_shape,
                Some(&elem_ty),
                inner_stab,
            ) else {
                continue;
            };
            if self.counting {
                self.stats.checks += inner_checks.len();
            }
            let elem_rust = self.rust_ty(&ek, &elem_ty);
            let nest = vgc_ir::profile::upstream(self.db).nested_subfield();
            // Before 1.37 the cohort is the selector in `listMapKey` order (`validators_in_phases`).
            let cohort = if vgc_ir::profile::upstream(self.db).validators_in_phases() {
                keyed.1.clone()
            } else {
                cohort
            };
            for c in inner_checks {
                // upstream 1.38 (kubernetes#141945): the wrapped check's cohort nests under the selector's, so a
                // second `item` on the same key does not stop the first; before, the selector's alone.
                let cohort = match &c.cohort {
                    Some(inner) if nest => format!("{cohort}.{inner}"),
                    _ => cohort.clone(),
                };
                out.push(gate(
                    self.undefined_option_is_error(),
                    Check {
                        short_circuit: c.short_circuit,
                        non_error: c.non_error,
                        stability: c.stability,
                        tag: Some(TagId::Item),
                        cohort: Some(cohort),
                        kind: CheckKind::Item(Box::new(ItemPlan {
                            // upstream compares the keys in `listMapKey` order (`prepareArgs`).
                            selector: keyed.0.clone(),
                            elem: elem_rust.clone(),
                            ptr_elems,
                            elem_shape: elem_shape.clone(),
                            inner: c,
                        })),
                    },
                    &gates,
                ));
            }
        }
        if let Some(at) = union_at {
            let ptr_elems = matches!(
                self.shape(ty),
                Shape::List {
                    pointer_elems: true
                }
            );
            let mut names: Vec<&(UnionKind, String)> = groups.keys().collect();
            names.sort();
            let unions: Vec<Check> = names
                .into_iter()
                .map(|k| {
                    let (kind, members, stability, gates) = groups[k].clone();
                    gate(
                        self.undefined_option_is_error(),
                        Check {
                            kind: CheckKind::ListUnion(Box::new(ListUnionPlan {
                                kind,
                                name: k.1.clone(),
                                members,
                                ptr_elems,
                                union_origin: vgc_ir::profile::upstream(self.db).union_origin(),
                            })),
                            short_circuit: false,
                            non_error: false,
                            stability,
                            tag: Some(TagId::Item),
                            cohort: None,
                        },
                        &gates,
                    )
                })
                .collect();
            if self.counting {
                self.stats.checks += unions.len();
            }
            out.splice(at..at, unions);
        }
        out
    }

    /// The selector of `item(k: v, …)` / `listMapItem(k: v, …)` tag `t` (at `at`, on field `go` of `owner`, of
    /// Go type `ty`, a list whose list-map keys are `keys`): every key named once by its JSON name, each value of
    /// its key's type. Each refusal is reported (VGC0109) and gives `None`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn item_selector(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        at: vgc_ir::model::SpanId,
        go: &str,
        t: &Tag,
        keys: &[String],
        ty: &Ty,
    ) -> Option<ItemSelector> {
        // The element struct and its key members.
        let elem_ty = elem_of(self.db, self.prog, ty, false)?;
        let ptr_elems = matches!(
            self.shape(ty),
            Shape::List {
                pointer_elems: true
            }
        );
        let Native::Struct(ek) = types::native(self.db, self.prog, &elem_ty) else {
            return None;
        };
        let (ed, efile) = self.prog.type_decl(self.db, &ek)?;
        // The keys' JSON names in `listMapKey` order (for hints).
        let key_names: Vec<String> = keys
            .iter()
            .filter_map(|k| {
                ed.fields
                    .iter()
                    .find(|f| go_field_name(f).as_ref() == Some(k))
                    .and_then(|f| f.json.as_ref().map(|j| j.name.clone()))
            })
            .collect();
        if t.args.len() != keys.len() {
            self.report(
                file,
                at,
                &Subject::field(&owner.name, go),
                LowerDiagnostic::ItemArgCount {
                    given: t.args.len(),
                    keys: key_names,
                },
            );
            return None;
        }
        let mut selector = Vec::new();
        let mut text = Vec::new();
        for a in &t.args {
            let Some(name) = &a.name else {
                self.report(
                    file,
                    at,
                    &Subject::field(&owner.name, go),
                    LowerDiagnostic::ItemArgsUnnamed,
                );
                return None;
            };
            let Some(m) = ed
                .fields
                .iter()
                .find(|m| m.json.as_ref().map(|j| j.name.as_str()) == Some(name.as_str()))
            else {
                self.report(
                    file,
                    at,
                    &Subject::field(&owner.name, go),
                    LowerDiagnostic::ItemNoSuchField {
                        name: name.clone(),
                        keys: key_names.clone(),
                    },
                );
                return None;
            };
            let rust = go_field_name(m).unwrap_or_default();
            if !keys.contains(&rust) {
                self.report(
                    file,
                    at,
                    &Subject::field(&owner.name, go),
                    LowerDiagnostic::ItemNotAKey {
                        name: name.clone(),
                        keys: key_names.clone(),
                    },
                );
                return None;
            }
            let kshape = self.shape(&types::resolve(self.db, self.prog, &ek.pkg, efile, &m.ty));
            let (value, shown) = match (&a.value, &kshape) {
                (
                    Scalar::Str(v),
                    Shape::Scalar {
                        ty: Builtin::String,
                        ..
                    },
                ) => (NeqValue::Str(v.clone()), format!("{v:?}")),
                (Scalar::Int { value, .. }, Shape::Scalar { ty: b, .. }) if b.is_integer() => {
                    (NeqValue::Int(*value), value.to_string())
                }
                (
                    Scalar::Bool(b),
                    Shape::Scalar {
                        ty: Builtin::Bool, ..
                    },
                ) => (NeqValue::Bool(*b), b.to_string()),
                _ => {
                    self.report(
                        file,
                        at,
                        &Subject::field(&owner.name, go),
                        LowerDiagnostic::ItemArgType(name.clone()),
                    );
                    return None;
                }
            };
            let index = keys.iter().position(|k| *k == rust).unwrap_or_default();
            selector.push((
                rust,
                matches!(kshape, Shape::Scalar { pointer: true, .. }),
                value,
            ));
            text.push((index, format!("{name:?}: {shown}")));
        }
        // Also in `listMapKey` order, so that one item written with its keys in another order is the same item.
        let mut order: Vec<usize> = (0..text.len()).collect();
        order.sort_by_key(|&i| text[i].0);
        let joined = |idx: &mut dyn Iterator<Item = usize>| {
            format!(
                "{{{}}}",
                idx.map(|i| text[i].1.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Some(ItemSelector {
            keyed: (
                order.iter().map(|&i| selector[i].clone()).collect(),
                joined(&mut order.iter().copied()),
            ),
            cohort: joined(&mut (0..text.len())),
            selector,
            ptr_elems,
            elem: elem_ty,
            elem_key: ek,
        })
    }
}

/// An `item`/`listMapItem` selector resolved against its list ([`Lowerer::item_selector`]).
pub(super) struct ItemSelector {
    /// The key values.
    pub(super) selector: crate::plan::Selector,
    /// The selector as upstream prints it in cohorts and member names: `{"type": "Ready"}` (keys as written).
    pub(super) cohort: String,
    /// The selector and its text with the keys in `listMapKey` order (one item however its keys are written).
    pub(super) keyed: (crate::plan::Selector, String),
    /// The list is `[]*T`.
    pub(super) ptr_elems: bool,
    /// The element's Go type.
    pub(super) elem: Ty,
    /// The element struct.
    pub(super) elem_key: TypeKey,
}

#[cfg(test)]
mod tests {
    use super::super::test_support::lower_go;
    use expect_test::expect;

    #[test]
    fn item_selectors_and_their_refusals() {
        let got = lower_go(
            r#"type Cond struct {
	Type string `json:"type"`
	// +k8s:optional
	Status string `json:"status"`
}

type T struct {
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "Ready")=+k8s:immutable
	Conditions []Cond `json:"conditions"`
	// +k8s:optional
	// +k8s:item(type: "Ready")=+k8s:immutable
	Plain []Cond `json:"plain"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(status: "True")=+k8s:immutable
	NotKey []Cond `json:"notKey"`
}
"#,
        );
        expect![[r#"
            Cond.status: optional
            T.conditions: optional; items must have unique Type; the item whose Type is "Ready": cannot change once set
            T.plain: optional
            T.notKey: optional; items must have unique Type
            VGC0111 field T.Plain: found items with no list metadata - item tags require listType=map or unique=map with listMapKey
            VGC0109 field T.NotKey: "status" is not a listMapKey
        "#]].assert_eq(&got);
    }
}
