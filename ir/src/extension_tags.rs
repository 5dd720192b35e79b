//! vgc's opt-in extension tags (`docs/extensions.md`): KEP-5073 designs upstream validation-gen never built.
//!
//! Today one family, **field-path constraints** (KEP-5073, "Referencing Fields in Validation-Gen For Cross-Field
//! Validation Rules", "Field Path Strategy"): `+k8s:minimum(constraint: <path>)`, `+k8s:maximum(constraint:
//! <path>)`, `+k8s:exclusiveMinimum(constraint: <path>)` and `+k8s:exclusiveMaximum(constraint: <path>)` on a
//! struct field, or on a struct type with `target: <path>` naming the constrained field, or per element of a list
//! or map field as `+k8s:eachVal=+k8s:maximum(constraint: <path>)` ([`each_val_constraint`]). The catalog checks ([`crate::check`]) accept their form; lowering (`vgc-lowering`,
//! `lower/constraints.rs`) refuses them unless [`enabled`], resolves the path and hoists the check to the parent.

/// The constraint kinds, re-exported from the runtime so the plan, generated code and interpreter share one enum.
pub use vgc_runtime::extensions::ConstraintKind;

/// True when the [`crate::Settings`] singleton enables vgc's extensions (`vgc.toml` `[extensions] enabled =
/// true`); false without settings.
#[must_use]
pub fn enabled(db: &dyn crate::Db) -> bool {
    crate::Settings::try_get(db).is_some_and(|s| s.vgc_extensions(db))
}

/// What `vgc explain` adds for a tag with field-path constraint forms (vgc extension, `docs/extensions.md`):
/// `k8s:minimum`/`k8s:maximum` (after their catalog entry) and `k8s:exclusiveMinimum`/`k8s:exclusiveMaximum` (which
/// upstream does not have, so they have no catalog entry: this is their whole entry). `None` for other names.
/// Names are canonical (`k8s:`).
#[must_use]
pub fn explain_constraint_forms(name: &str) -> Option<String> {
    let short = name.strip_prefix("k8s:")?;
    let kind = match short {
        "minimum" => ConstraintKind::Minimum,
        "maximum" => ConstraintKind::Maximum,
        "exclusiveMinimum" => ConstraintKind::ExclusiveMinimum,
        "exclusiveMaximum" => ConstraintKind::ExclusiveMaximum,
        _ => return None,
    };
    let mut lines = vec![
        "vgc extension forms (KEP-5073 \"Field Path Strategy\"; off unless vgc.toml has `[extensions] enabled = true`, else VGC0116):".to_string(),
        format!(
            "  +k8s:{short}(constraint: <path>)  on a field: its value must be {} the field at <path>",
            kind.words()
        ),
        format!(
            "  +k8s:{short}(target: <path>, constraint: <path>)  on a struct type: the same, for the field at target"
        ),
        format!("  +k8s:eachVal=+k8s:{short}(constraint: <path>)  on a list or map field of integers: for each item"),
        format!(
            "Paths are JSON names joined with `.`, relative to the struct holding the field (siblings and their children); both sides are integers, `resource.Quantity` values or `metav1.Duration` values (one kind). The check runs on that struct, the error is at the constrained field (origin `{short}`), and it ratchets when neither side changed. See docs/extensions.md."
        ),
    ];
    if matches!(
        kind,
        ConstraintKind::ExclusiveMinimum | ConstraintKind::ExclusiveMaximum
    ) {
        lines.push("Upstream validation-gen has no such tag and ignores it; there is no constant form (write `minimum=N+1` / `maximum=N-1`).".into());
    }
    Some(lines.join("\n"))
}

/// What `vgc explain` adds for a virtual-field tag (vgc extension, `docs/extensions.md` "Virtual fields"): the forms
/// and the scoping rule. `None` for other names. Names are canonical (`k8s:`).
#[must_use]
pub fn explain_virtual_fields(name: &str) -> Option<String> {
    if !matches!(
        name,
        "k8s:memberOf" | "k8s:listMapItem" | "k8s:union" | "k8s:zeroOrOneOf"
    ) {
        return None;
    }
    Some(
        [
            "Forms (KEP-5073 \"Virtual Field Strategy\"; off unless vgc.toml has `[extensions] enabled = true`, else VGC0116):",
            "  +k8s:memberOf(group: <g>)                              on a field (a pointer, list, map or scalar): a member of group <g>",
            "  +k8s:listMapItem(<key>: <value>, …)=+k8s:memberOf(group: <g>)  on a listType=map field: the item with those keys is a member",
            "  +k8s:union(union: <g>)                                 on a type or field: exactly one member of <g> must be set",
            "  +k8s:zeroOrOneOf(union: <g>)                           on a type or field: at most one member of <g> may be set",
            "Group names are scoped to one root type (kind): members and declaration must be in the same root type's tree (VGC0125).",
            "The check runs on the members' closest common ancestor struct, its error at that struct's path; a struct another root type",
            "reaches without the same group cannot hold one (VGC0127). Members inside list or map items are refused (VGC0126).",
            "See docs/extensions.md.",
        ]
        .join("\n"),
    )
}

/// A field-path constraint tag as written: its kind and the `constraint:` argument (`None` when the argument is
/// missing or not a string, which the catalog checks report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintTag {
    /// Which comparison.
    pub kind: ConstraintKind,
    /// The `constraint:` path as written (JSON names with dots), if it is a string.
    pub path: Option<String>,
    /// The `target:` path of the form written on a struct type (KEP-5073 "Tag Placement and Hoisting": the tag on
    /// the common ancestor names the constrained field), if the argument is there: `Some(None)` when it is not a
    /// string (the catalog checks report it).
    pub target: Option<Option<String>>,
}

/// The field-path constraint `tag` writes, if it is one: `k8s:minimum`/`k8s:maximum` with a named `constraint` or
/// `target` argument (the upstream tags take no argument, so the form cannot mean anything upstream), or any
/// `k8s:exclusiveMinimum`/`k8s:exclusiveMaximum` (tags upstream does not have). Names are canonical (`k8s:`;
/// lowering renames `--tag-prefix` tags before anything reads them).
#[must_use]
pub fn constraint_tag(tag: &vgc_parser::tags::Tag) -> Option<ConstraintTag> {
    let kind = match tag.name.as_str() {
        "k8s:minimum" => ConstraintKind::Minimum,
        "k8s:maximum" => ConstraintKind::Maximum,
        "k8s:exclusiveMinimum" => ConstraintKind::ExclusiveMinimum,
        "k8s:exclusiveMaximum" => ConstraintKind::ExclusiveMaximum,
        _ => return None,
    };
    let arg = tag.arg("constraint");
    if arg.is_none()
        && tag.arg("target").is_none()
        && matches!(kind, ConstraintKind::Minimum | ConstraintKind::Maximum)
    {
        return None;
    }
    let string = |a: &vgc_parser::tags::Arg| match &a.value {
        vgc_parser::tags::Scalar::Str(s) => Some(s.clone()),
        _ => None,
    };
    Some(ConstraintTag {
        kind,
        path: arg.and_then(string),
        target: tag.arg("target").map(string),
    })
}

/// The per-element field-path constraint `tag` writes, if it is `k8s:eachVal=+<constraint>` with the constraint
/// directly as the payload (KEP-5073 "Comprehensive Example": `+k8s:eachVal=+k8s:maximum(constraint:
/// maxThreshold)` on a list field compares each element with `maxThreshold`): the payload tag and its form. Other
/// chains holding a constraint (`eachKey`, nested `eachVal`, wrappers) are not this form.
#[must_use]
pub fn each_val_constraint(
    tag: &vgc_parser::tags::Tag,
) -> Option<(&vgc_parser::tags::Tag, ConstraintTag)> {
    if tag.name != "k8s:eachVal" || !tag.args.is_empty() {
        return None;
    }
    let inner = tag.inner()?;
    Some((inner, constraint_tag(inner)?))
}

/// The first tag of `tag`'s chain (the tag, then its payloads) that is an extension tag of its own
/// ([`crate::catalog::TagId::is_extension`]: a subresource condition or a virtual-field tag), with its id. While
/// extensions are off, such a use is one `VGC0116` at that tag ([`disabled`]), reported by `check_file` on every
/// type and field whatever its reachability, and nothing else of it is checked or lowered.
#[must_use]
pub fn extension_in_chain(
    tag: &vgc_parser::tags::Tag,
) -> Option<(&vgc_parser::tags::Tag, crate::catalog::TagId)> {
    use crate::catalog::TagIdent as _;
    tag.chain()
        .find_map(|c| Some((c, c.tag_id().filter(|id| id.is_extension())?)))
}

/// `VGC0116`'s message and hint for a use of extension tag `ext` ([`extension_in_chain`]) written on `on` (`Type`
/// or `Type.Field`) while extensions are off. `refused` are the catalog problems of the same use (a missing
/// argument, a payload of the wrong type, …; message and code): they are not reported on their own — one problem,
/// one diagnostic — but named in the hint, as what enabling extensions would not fix.
#[must_use]
pub fn disabled(
    on: &str,
    ext: crate::catalog::TagId,
    refused: &[(String, crate::diagnostic::Code)],
) -> (String, String) {
    let subresource = ext.family() == crate::catalog::Family::Subresource;
    let (words, section) = if subresource {
        ("subresource conditions", "Subresources")
    } else {
        ("virtual fields", "Virtual Field Strategy")
    };
    let message = format!(
        "{on}: tag {:?}: {words} are a vgc extension, and extensions are not enabled",
        ext.name()
    );
    let mut hint = format!(
        "upstream validation-gen does not implement {words} (KEP-5073 {section:?} designs them; no release builds them) and ignores the tag{}; to use vgc's extension add `[extensions]` with `enabled = true` to vgc.toml (docs/extensions.md)",
        if subresource { " with its payload" } else { "" }
    );
    if !refused.is_empty() {
        let each: Vec<String> = refused
            .iter()
            .map(|(m, c)| format!("{m} ({})", c.as_str()))
            .collect();
        hint.push_str("; with extensions enabled this use is still refused: ");
        hint.push_str(&each.join("; "));
    }
    (message, hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> vgc_parser::tags::Tag {
        vgc_parser::tags::parse(s).expect("parses")
    }

    #[test]
    fn recognises_the_constraint_forms() {
        assert_eq!(constraint_tag(&parse("k8s:minimum=5")), None);
        assert_eq!(
            constraint_tag(&parse("k8s:minimum(constraint: limits.minValue)")),
            Some(ConstraintTag {
                kind: ConstraintKind::Minimum,
                path: Some("limits.minValue".into()),
                target: None,
            })
        );
        assert_eq!(
            constraint_tag(&parse(
                "k8s:maximum(target: spec.current, constraint: maxValue)"
            )),
            Some(ConstraintTag {
                kind: ConstraintKind::Maximum,
                path: Some("maxValue".into()),
                target: Some(Some("spec.current".into())),
            })
        );
        assert_eq!(
            constraint_tag(&parse("k8s:exclusiveMaximum=3")),
            Some(ConstraintTag {
                kind: ConstraintKind::ExclusiveMaximum,
                path: None,
                target: None,
            })
        );
        let each = parse("k8s:eachVal=+k8s:maximum(constraint: maxThreshold)");
        assert_eq!(
            each_val_constraint(&each).map(|(t, c)| (t.name.clone(), c)),
            Some((
                "k8s:maximum".into(),
                ConstraintTag {
                    kind: ConstraintKind::Maximum,
                    path: Some("maxThreshold".into()),
                    target: None,
                }
            ))
        );
        assert_eq!(
            each_val_constraint(&parse("k8s:eachVal=+k8s:maximum=3")),
            None
        );
        assert!(
            each_val_constraint(&parse(
                "k8s:eachVal=+k8s:eachVal=+k8s:maximum(constraint: m)"
            ))
            .is_none()
        );
        assert!(each_val_constraint(&parse("k8s:eachKey=+k8s:maximum(constraint: m)")).is_none());
    }
}
