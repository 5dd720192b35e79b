//! List metadata: `listType`, `listMapKey`, `unique` and the matcher that identifies items.

use super::diagnostics::{TagDiagnostic, ValueKinds};
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::ListsTag;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// List metadata of a field: from its own `listType`/`unique`/`listMapKey` tags, else from the list typedef.
    pub(super) fn matcher(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
        ty: &Ty,
    ) -> Matcher {
        let what = Subject::field(&owner.name, f.go_name.as_deref().unwrap_or_default());
        self.matcher_for(file, f.at, &what, &f.tags, ty)
    }

    /// List metadata from a declaration's tags (a field's, or a list typedef's own), else — for a field of a
    /// typedef type — from the typedef. `what` names the declaration in messages (`field T.F`, `type L`).
    pub(super) fn matcher_for(
        &mut self,
        file: SourceFile,
        at: vgc_ir::model::SpanId,
        what: &Subject,
        tags: &[TagUse],
        ty: &Ty,
    ) -> Matcher {
        if let Some((msg, hint)) = list_tag_error(tags) {
            self.report(
                file,
                at,
                what,
                LowerDiagnostic::ListMetadata { message: msg, hint },
            );
        }
        let phases = vgc_ir::profile::upstream(self.db).validators_in_phases();
        // (list type, [(key, the listMapKey use's span id)]).
        let from = |tags: &[TagUse]| -> Option<(String, Vec<(String, vgc_ir::model::SpanId)>)> {
            let mut lt = None;
            let mut keys = Vec::new();
            for u in tags {
                let Ok(outer) = &u.parsed else { continue };
                let t = peel(outer).2;
                match (t.tag_id(), t.str_payload()) {
                    (Some(TagId::ListType | TagId::Unique), Some(v))
                        if v != "atomic" || lt.is_none() =>
                    {
                        lt = Some(v.to_string());
                    }
                    (Some(TagId::ListMapKey), Some(k)) => {
                        // Before 1.37 the level wrappers are "late" tags, read after the others
                        // (`vgc_ir::Upstream::validators_in_phases`): plain keys first, then `alpha`'s, `beta`'s.
                        let late =
                            phases && matches!(outer.tag_id(), Some(TagId::Alpha | TagId::Beta));
                        keys.push((k.to_string(), u.at, (late, outer.name.clone())));
                    }
                    _ => {}
                }
            }
            // upstream reads a declaration's tags sorted by name, so keys written behind `alpha`/`beta`/option
            // wrappers come before the plain ones (its key comparisons list them in that order).
            keys.sort_by(|a, b| a.2.cmp(&b.2));
            lt.map(|l| {
                (
                    l,
                    keys.into_iter()
                        .map(|(k, at, _)| (k, at))
                        .collect::<Vec<_>>(),
                )
            })
        };
        // The metadata and the file its tags are in (the field's, or a list typedef's).
        let meta = from(tags).map(|m| (m, file)).or_else(|| match ty {
            Ty::Named(k) => self
                .prog
                .type_decl(self.db, k)
                .and_then(|(d, f)| Some((from(&d.tags)?, f))),
            _ => None,
        });
        match meta {
            Some(((l, _), _)) if l == "set" => Matcher::Set,
            Some(((l, keys), keys_file)) if l == "map" => {
                if keys.is_empty() {
                    self.report(file, at, what, LowerDiagnostic::ListMapWithoutKeys);
                    return Matcher::None;
                }
                // Map JSON key names to Rust field names of the element struct.
                let elem = match ty {
                    Ty::Slice(e) => match e.as_ref() {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        e => e.clone(),
                    },
                    other => match types::native(self.db, self.prog, other) {
                        Native::Other(Ty::Slice(e)) => *e,
                        _ => Ty::Any,
                    },
                };
                let Native::Struct(sk) = types::native(self.db, self.prog, &elem) else {
                    self.report(file, at, what, LowerDiagnostic::ListMapOfNonStructs);
                    return Matcher::None;
                };
                let Some((sd, _)) = self.prog.type_decl(self.db, &sk) else {
                    return Matcher::None;
                };
                let mut out = Vec::new();
                for (k, key_at) in keys {
                    match sd.fields.iter().find(|m| {
                        m.json.as_ref().map(|j| j.name.as_str()) == Some(k.as_str())
                            || (m.json.is_none() && m.go_name.as_deref() == Some(k.as_str()))
                    }) {
                        Some(m) => out.push(go_field_name(m).unwrap_or_default()),
                        None => {
                            // At the `listMapKey` tag that names it.
                            self.report(
                                keys_file,
                                key_at,
                                what,
                                LowerDiagnostic::ListMapKeyNotAField {
                                    key: k.clone(),
                                    elem: sk.name.clone(),
                                },
                            );
                            return Matcher::None;
                        }
                    }
                }
                Matcher::Keys(out)
            }
            _ => Matcher::None,
        }
    }

    pub(super) fn unique_check(&mut self, tags: &[TagUse], m: &Matcher) -> Option<Check> {
        // upstream: `customUnique` turns the generated uniqueness check off (hand-written code does it), and says
        // so in the generated code.
        if tags.iter().any(|u| {
            u.parsed
                .as_ref()
                .is_ok_and(|t| peel(t).2.is_tag(TagId::CustomUnique))
        }) {
            if self.counting && matches!(m, Matcher::Set | Matcher::Keys(_)) {
                self.notes.push(
                    "Uniqueness validation is implemented via custom, handwritten validation"
                        .into(),
                );
            }
            return None;
        }
        // upstream `getListValidations`: generated by the first `listType`/`unique` tag's deferred function, so
        // that tag's `ifEnabled`/`ifDisabled` wrappers gate it.
        let first = tags.iter().find_map(|u| {
            let t = u.parsed.as_ref().ok()?;
            let (gates, level, inner) = peel(t);
            let semantic = matches!(inner.str_payload(), Some("set" | "map"));
            (matches!(inner.tag_id(), Some(TagId::ListType | TagId::Unique)) && semantic)
                .then_some((level, gates))
        });
        match (m, first) {
            (Matcher::Set | Matcher::Keys(_), Some((stability, gates))) => Some(gate(
                self.undefined_option_is_error(),
                Check {
                    kind: CheckKind::Unique(m.clone()),
                    short_circuit: false,
                    non_error: false,
                    stability,
                    tag: Some(TagId::ListType),
                    cohort: None,
                },
                &gates,
            )),
            _ => None,
        }
    }
}

impl Lowerer<'_> {
    /// `listType`, `listMapKey`, `unique`, `customUnique`, `item` where they are written (upstream
    /// `validators/list.go`, `item.go`): refusals only — the list's matcher and uniqueness check are made by
    /// [`Lowerer::matcher_for`] and [`Lowerer::unique_check`], a declaration's items by [`Lowerer::item_checks`].
    pub(super) fn lower_lists(&mut self, t: &TagSite<'_>, which: ListsTag) -> Option<Vec<Check>> {
        let s = || t.str();
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let is_list = t.is_list();
        Some(match which {
            ListsTag::ListType => {
                let v = s().unwrap_or_default();
                if !["atomic", "set", "map"].contains(&v.as_str()) {
                    return refuse(self, TagDiagnostic::UnknownListType(v));
                }
                if !is_list {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
                }
                vec![]
            }
            // R17: upstream's list-metadata validators refuse a non-list context (`can only be used on list types`).
            ListsTag::Unique | ListsTag::ListMapKey | ListsTag::CustomUnique if !is_list => {
                return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
            }
            ListsTag::Unique | ListsTag::ListMapKey | ListsTag::CustomUnique => vec![],
            // Reached only nested in another tag's payload (`item_checks` lowers a declaration's own `item` tags).
            ListsTag::Item => {
                if !is_list {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
                }
                return refuse(self, TagDiagnostic::ItemNotDirect);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::lower_go;
    use expect_test::expect;

    #[test]
    fn list_metadata_makes_matchers_and_uniqueness() {
        let got = lower_go(
            r#"type Item struct {
	Name string `json:"name"`
	// +k8s:optional
	Value string `json:"value"`
}

type T struct {
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:eachVal=+k8s:immutable
	ByName []Item `json:"byName"`
	// +k8s:optional
	// +k8s:listType=set
	Tags []string `json:"tags"`
	// +k8s:optional
	// +k8s:listType=map
	NoKeys []Item `json:"noKeys"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	Strings []string `json:"strings"`
}
"#,
        );
        expect![[r#"
            Item.value: optional
            T.byName: optional; each item: cannot change once set; items must have unique Name
            T.tags: optional; items must be unique
            T.noKeys: optional
            T.strings: optional
            VGC0111 field T.NoKeys: found listType=map or unique=map without listMapKey
            VGC0111 field T.Strings: only lists of structs can be list-maps
        "#]]
        .assert_eq(&got);
    }
}
