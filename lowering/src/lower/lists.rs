//! List metadata: `listType`, `listMapKey`, `unique` and the matcher that identifies items.

use super::*;

impl Lowerer<'_> {
    /// List metadata of a field: from its own `listType`/`unique`/`listMapKey` tags, else from the list typedef.
    pub(super) fn matcher(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
        ty: &Ty,
    ) -> Matcher {
        let what = format!(
            "field {}.{}",
            owner.name,
            f.go_name.clone().unwrap_or_default()
        );
        self.matcher_for(file, f.at, &what, &f.tags, ty)
    }

    /// List metadata from a declaration's tags (a field's, or a list typedef's own), else — for a field of a
    /// typedef type — from the typedef. `what` names the declaration in messages (`field T.F`, `type L`).
    pub(super) fn matcher_for(
        &mut self,
        file: SourceFile,
        at: vgc_ir::model::SpanId,
        what: &str,
        tags: &[TagUse],
        ty: &Ty,
    ) -> Matcher {
        if let Some((msg, hint)) = list_tag_error(tags) {
            self.err(
                file,
                at,
                Code::ListMetadata,
                format!("{what}: {msg}"),
                Some(hint.into()),
            );
        }
        let from = |tags: &[TagUse]| -> Option<(String, Vec<String>)> {
            let mut lt = None;
            let mut keys = Vec::new();
            for u in tags {
                let Ok(t) = &u.parsed else { continue };
                let t = peel(t).2;
                match (t.tag_id(), t.scalar_value()) {
                    (Some(TagId::ListType | TagId::Unique), Some(Scalar::Str(v)))
                        if v != "atomic" || lt.is_none() =>
                    {
                        lt = Some(v.clone())
                    }
                    (Some(TagId::ListMapKey), Some(Scalar::Str(k))) => keys.push(k.clone()),
                    _ => {}
                }
            }
            lt.map(|l| (l, keys))
        };
        let meta = from(tags).or_else(|| match ty {
            Ty::Named(k) => self
                .prog
                .type_decl(self.db, k)
                .and_then(|(d, _)| from(&d.tags)),
            _ => None,
        });
        match meta {
            Some((l, _)) if l == "set" => Matcher::Set,
            Some((l, keys)) if l == "map" => {
                if keys.is_empty() {
                    self.err(
                        file,
                        at,
                        Code::ListMetadata,
                        format!("{what}: found listType=map or unique=map without listMapKey"),
                        Some("add `+k8s:listMapKey=<json name>` for each key field".into()),
                    );
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
                    self.err(
                        file,
                        at,
                        Code::ListMetadata,
                        format!("{what}: only lists of structs can be list-maps"),
                        None,
                    );
                    return Matcher::None;
                };
                let Some((sd, _)) = self.prog.type_decl(self.db, &sk) else {
                    return Matcher::None;
                };
                let mut out = Vec::new();
                for k in keys {
                    match sd.fields.iter().find(|m| {
                        m.json.as_ref().map(|j| j.name.as_str()) == Some(k.as_str())
                            || (m.json.is_none() && m.go_name.as_deref() == Some(k.as_str()))
                    }) {
                        Some(m) => out.push(field_ident(m.go_name.as_deref().unwrap_or_default())),
                        None => {
                            self.err(
                                file,
                                at,
                                Code::ListMetadata,
                                format!("{what}: listMapKey {k:?} is not a field of {}", sk.name),
                                None,
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

    pub(super) fn unique_check(&self, tags: &[TagUse], m: &Matcher) -> Option<Check> {
        // upstream: `customUnique` turns the generated uniqueness check off (hand-written code does it).
        if tags.iter().any(|u| {
            u.parsed
                .as_ref()
                .is_ok_and(|t| peel(t).2.is_tag(TagId::CustomUnique))
        }) {
            return None;
        }
        // upstream `getListValidations`: generated by the first `listType`/`unique` tag's deferred function, so
        // that tag's `ifEnabled`/`ifDisabled` wrappers gate it.
        let first = tags.iter().find_map(|u| {
            let t = u.parsed.as_ref().ok()?;
            let (gates, level, inner) = peel(t);
            let semantic =
                matches!(inner.scalar_value(), Some(Scalar::Str(v)) if v == "set" || v == "map");
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
