//! Catalog checking of tag uses: syntax errors, unknown tags (with a did-you-mean hint), scopes, arguments and
//! payload types. These checks need no type information; type-dependent checks live in `vgc-analysis`.
//!
//! upstream: `validators.typeCheck` and the scope check in `registry.extractValidations`; upstream silently
//! ignores unknown `+k8s:` tags, vgc reports them.

use crate::catalog::{self, Scope, TagId, ValueKind};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::TagUse;
use vgc_parser::tags::{Scalar, Tag, TagValue};

/// A diagnostic before it is placed in a file: the span is relative to the tag text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagProblem {
    /// Code.
    pub code: Code,
    /// Message.
    pub message: String,
    /// Span relative to the tag text.
    pub span: std::ops::Range<usize>,
    /// Hint.
    pub hint: Option<String>,
}

impl TagProblem {
    fn new(code: Code, message: String, span: std::ops::Range<usize>) -> Self {
        Self {
            code,
            message,
            span,
            hint: None,
        }
    }

    /// Places the problem in a file, given the file path and the byte offset of the tag text.
    #[must_use]
    pub fn into_diagnostic(self, file: &str, base: usize) -> Diagnostic {
        let d = match self.code.default_severity() {
            crate::diagnostic::Severity::Warning => Diagnostic::warning(self.code, self.message),
            crate::diagnostic::Severity::Error => Diagnostic::error(self.code, self.message),
        }
        .at(file, base + self.span.start..base + self.span.end);
        match self.hint {
            Some(h) => d.with_hint(h),
            None => d,
        }
    }
}

/// The scopes a chained payload is evaluated in, given the wrapper tag and the wrapper's own scope.
fn payload_scopes(wrapper: Option<TagId>, outer: &[Scope]) -> Vec<Scope> {
    match wrapper {
        Some(TagId::EachVal) => vec![Scope::ListVal, Scope::MapVal],
        Some(TagId::EachKey) => vec![Scope::MapKey],
        Some(TagId::Item | TagId::ListMapItem) => vec![Scope::ListVal],
        Some(TagId::Subfield) => vec![Scope::Field],
        _ => outer.to_vec(),
    }
}

/// Checks one tag use written in `scope`. Returns every problem found (syntax, name, scope, args, payload),
/// outermost tag first. Generator-control and other generators' tags are accepted as they are.
#[must_use]
pub fn check_tag_use(u: &TagUse, scope: Scope) -> Vec<TagProblem> {
    match &u.parsed {
        // upstream never parses a line whose name its registry does not know (`registry.ExtractTags` skips it
        // before `ParseAll`), so a kubebuilder-style marker's payload in another grammar (`=a;b`, `=^a$`) is the
        // marker warning, not a syntax error.
        Err(_) if marker_style(&u.name, true).is_some() => {
            let span = 0..u.name.len();
            vec![marker_problem(&u.name, span, &[scope])]
        }
        Err(e) => vec![TagProblem::new(
            Code::TagSyntax,
            format!("tag {:?}: {}", u.name, e.message),
            e.span.clone(),
        )],
        Ok(tag) => {
            if catalog::is_allowed_non_validation(&u.name) || u.name == "default" {
                return Vec::new();
            }
            let mut out = Vec::new();
            check_tag(tag, &[scope], true, &mut out);
            out
        }
    }
}

fn check_tag(tag: &Tag, scopes: &[Scope], top: bool, out: &mut Vec<TagProblem>) {
    if let Some(c) = crate::extension_tags::constraint_tag(tag) {
        check_constraint_tag(tag, &c, scopes, top, false, out);
        return;
    }
    let Some(spec) = catalog::lookup(&tag.name) else {
        // A kubebuilder-style marker under validation-gen's prefix (`+k8s:validation:Required`): no validation-gen
        // tag has a `:` in its name, so this is no typo of one (deviation D1's exception, docs/deviations.md).
        if marker_style(&tag.name, top).is_some() {
            out.push(marker_problem(&tag.name, tag.name_span.clone(), scopes));
            return;
        }
        let mut p = TagProblem::new(
            Code::UnknownTag,
            format!("unknown tag {:?}", tag.name),
            tag.name_span.clone(),
        );
        // upstream ignores an unknown tag line, but refuses an unknown tag inside another tag's payload
        // (`registry.ExtractTagValidations`: `unknown validation tag %q`).
        let upstream = if top {
            "upstream validation-gen silently ignores unknown tags"
        } else {
            "upstream validation-gen fails on an unknown tag inside another tag's payload"
        };
        p.hint = Some(match catalog::suggest(&tag.name) {
            Some(s) => format!("did you mean `{s}`? ({upstream})"),
            None => format!("see `vgc docs` for the list of validation tags; {upstream}"),
        });
        out.push(p);
        return;
    };
    if !scopes.iter().any(|s| spec.scopes.contains(s)) {
        let scope = scopes.first().map_or("", |s| s.upstream_name());
        let mut p = TagProblem::new(
            Code::WrongScope,
            format!("tag {:?} cannot be specified on {scope}", tag.name),
            tag.name_span.clone(),
        );
        p.hint = Some(format!(
            "{} may be used on: {}",
            tag.name,
            spec.scopes
                .iter()
                .map(|s| s.upstream_name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push(p);
    }
    for a in spec.args {
        let given = tag
            .args
            .iter()
            .find(|t| t.name.as_deref().unwrap_or("") == a.name);
        match given {
            Some(g) if !kind_matches(a.kind, &g.value) => out.push(TagProblem::new(
                Code::ArgType,
                format!(
                    "tag {:?}: argument {} has wrong type: got {}, want {}",
                    tag.name,
                    arg_label(g.name.as_deref()),
                    g.value.type_name(),
                    a.kind.upstream_name()
                ),
                g.span.clone(),
            )),
            None if a.required => {
                let msg = if a.name.is_empty() {
                    format!(
                        "tag {:?}: missing required positional argument of type {}",
                        tag.name,
                        a.kind.upstream_name()
                    )
                } else {
                    format!(
                        "tag {:?}: missing named argument {:?} of type {}",
                        tag.name,
                        a.name,
                        a.kind.upstream_name()
                    )
                };
                let mut p = TagProblem::new(Code::MissingArg, msg, tag.name_span.clone());
                p.hint = Some(format!(
                    "{}: {}",
                    arg_label(Some(a.name).filter(|n| !n.is_empty())),
                    a.docs
                ));
                out.push(p);
            }
            _ => {}
        }
    }
    if !spec.accepts_unknown_args {
        for g in &tag.args {
            let name = g.name.as_deref().unwrap_or("");
            if !spec.args.iter().any(|a| a.name == name) {
                let mut p = TagProblem::new(
                    Code::UnknownArg,
                    format!(
                        "tag {:?}: unrecognized {}",
                        tag.name,
                        arg_label(g.name.as_deref())
                    ),
                    g.span.clone(),
                );
                let known: Vec<_> = spec
                    .args
                    .iter()
                    .map(|a| arg_label(Some(a.name).filter(|n| !n.is_empty())))
                    .collect();
                p.hint = Some(if known.is_empty() {
                    format!("{} takes no arguments", tag.name)
                } else {
                    format!("{} takes: {}", tag.name, known.join(", "))
                });
                out.push(p);
            }
        }
    }
    match (&tag.value, spec.payload) {
        (None, Some(k)) if spec.payload_required => {
            let mut p = TagProblem::new(
                Code::MissingPayload,
                format!(
                    "tag {:?}: missing required tag value of type {}",
                    tag.name,
                    k.upstream_name()
                ),
                tag.span.clone(),
            );
            p.hint = Some(format!(
                "write it as `+{}=<{}>`",
                tag.name,
                k.upstream_name()
            ));
            out.push(p);
        }
        (Some(v), expected) => {
            let (got, span) = match v {
                TagValue::Scalar(s, sp) => (s.type_name(), sp.clone()),
                TagValue::Tag(t) => ("tag", t.span.clone()),
            };
            let ok = match expected {
                None => false,
                Some(ValueKind::Raw) => matches!(v, TagValue::Scalar(..)),
                Some(ValueKind::Tag) => matches!(v, TagValue::Tag(_)),
                Some(k) => matches!(v, TagValue::Scalar(s, _) if kind_matches(k, s)),
            };
            if !ok {
                let want = expected.map_or("no value", ValueKind::upstream_name);
                let mut p = TagProblem::new(
                    Code::PayloadType,
                    format!(
                        "tag {:?}: tag value has wrong type: got {got}, want {want}",
                        tag.name
                    ),
                    span,
                );
                if expected.is_none() {
                    // With its arguments, when it has any (`+k8s:memberOf(group: …)`).
                    let args: Vec<String> = spec
                        .args
                        .iter()
                        .filter(|a| a.required)
                        .map(|a| {
                            if a.name.is_empty() {
                                "…".to_string()
                            } else {
                                format!("{}: …", a.name)
                            }
                        })
                        .collect();
                    let written = if args.is_empty() {
                        format!("+{}", tag.name)
                    } else {
                        format!("+{}({})", tag.name, args.join(", "))
                    };
                    p.hint = Some(format!(
                        "{} takes no value; write it as `{written}`",
                        tag.name
                    ));
                }
                out.push(p);
            }
            if let TagValue::Tag(inner) = v {
                // vgc extension: `eachVal=+k8s:maximum(constraint: p)` directly on a struct field compares each
                // list item or map value with `p` (KEP-5073 "Comprehensive Example"), a check of the struct.
                match crate::extension_tags::constraint_tag(inner) {
                    Some(c) if spec.id == TagId::EachVal && top && scopes == [Scope::Field] => {
                        check_constraint_tag(inner, &c, &[Scope::Field], true, true, out);
                    }
                    _ => check_tag(inner, &payload_scopes(Some(spec.id), scopes), false, out),
                }
            }
        }
        _ => {}
    }
}

/// The form of a field-path constraint (vgc extension, [`crate::extension_tags`]): written directly (`top`) on a
/// struct field with one named `constraint` argument holding a path, or on a type with `target` and `constraint`
/// paths (KEP-5073's tag on the common ancestor); no payload. Whether extensions are enabled, whether the type is
/// a struct and what the paths name are lowering's questions (they need the settings and the types). `each`: the
/// payload of `eachVal` written directly on a struct field (checked as the form on a field, without `target:`).
fn check_constraint_tag(
    tag: &Tag,
    c: &crate::extension_tags::ConstraintTag,
    scopes: &[Scope],
    top: bool,
    each: bool,
    out: &mut Vec<TagProblem>,
) {
    let hint = if top {
        format!(
            "write it on a struct field as `+{0}(constraint: <path>)`, or on the struct type as `+{0}(target: <path>, constraint: <path>)`, paths in JSON names relative to that struct (docs/extensions.md)",
            tag.name
        )
    } else {
        format!(
            "inside another tag a field-path constraint is supported only as the payload of `eachVal` written directly on a list or map field of a struct, `+k8s:eachVal=+{0}(constraint: <path>)`, the path relative to that struct (docs/extensions.md)",
            tag.name
        )
    };
    let mut problem = |message: String, span: std::ops::Range<usize>| {
        let mut p = TagProblem::new(Code::ConstraintForm, message, span);
        p.hint = Some(hint.clone());
        out.push(p);
    };
    if tag.arg("constraint").is_none() && c.target.is_some() {
        problem(
            format!(
                "tag {:?}: a field-path constraint with `target:` needs `constraint:`, the path of the field to compare with",
                tag.name
            ),
            tag.name_span.clone(),
        );
        return;
    }
    if tag.arg("constraint").is_none() {
        // `exclusiveMinimum=N` / `exclusiveMaximum=N`: KEP-5073 lists them, upstream has neither.
        problem(
            format!(
                "tag {:?} is supported only as a field-path constraint (vgc extension); upstream validation-gen does not have it",
                tag.name
            ),
            tag.name_span.clone(),
        );
        return;
    }
    if each && c.target.is_some() {
        problem(
            format!(
                "tag {:?}: a field-path constraint with `target:` cannot be specified inside eachVal",
                tag.name
            ),
            tag.name_span.clone(),
        );
        return;
    }
    // On a field the tag constrains that field; on a type, the field its `target:` names.
    let expected = if c.target.is_some() {
        Scope::Type
    } else {
        Scope::Field
    };
    if !top || scopes != [expected] {
        let scope = scopes.first().map_or("", |s| s.upstream_name());
        problem(
            format!(
                "tag {:?}: a field-path constraint{} cannot be specified on {scope}{}",
                tag.name,
                if c.target.is_some() {
                    " with `target:`"
                } else {
                    ""
                },
                if top { "" } else { " inside another tag" }
            ),
            tag.name_span.clone(),
        );
        return;
    }
    for g in &tag.args {
        let named = g.name.as_deref();
        if named == Some("target") && expected == Scope::Type {
            if c.target == Some(None) {
                problem(
                    format!(
                        "tag {:?}: argument \"target\" has wrong type: got {}, want a field path",
                        tag.name,
                        g.value.type_name()
                    ),
                    g.span.clone(),
                );
            }
        } else if named != Some("constraint") {
            problem(
                format!(
                    "tag {:?}: unrecognized {} (a field-path constraint takes only `constraint`{})",
                    tag.name,
                    arg_label(named),
                    if expected == Scope::Type {
                        " and `target`"
                    } else {
                        ""
                    }
                ),
                g.span.clone(),
            );
        } else if c.path.is_none() {
            problem(
                format!(
                    "tag {:?}: argument \"constraint\" has wrong type: got {}, want a field path",
                    tag.name,
                    g.value.type_name()
                ),
                g.span.clone(),
            );
        }
    }
    if tag.value.is_some() {
        problem(
            format!(
                "tag {:?}: a field-path constraint takes no tag value",
                tag.name
            ),
            tag.span.clone(),
        );
    }
}

fn kind_matches(k: ValueKind, s: &Scalar) -> bool {
    matches!(
        (k, s),
        (ValueKind::String, Scalar::Str(_))
            | (ValueKind::Int, Scalar::Int { .. })
            | (ValueKind::Bool, Scalar::Bool(_))
            | (ValueKind::Raw, _)
    )
}

fn arg_label(name: Option<&str>) -> String {
    match name {
        Some(n) => format!("named argument {n:?}"),
        None => "positional argument".to_string(),
    }
}

/// The marker part of a kubebuilder-style name under validation-gen's prefix (`validation:Required` of
/// `k8s:validation:Required`): a name of several `:`-separated segments, written on its own line (`top`), that no
/// generator owns. `None` for anything else.
fn marker_style(name: &str, top: bool) -> Option<&str> {
    name.strip_prefix("k8s:")
        .filter(|n| top && n.contains(':') && !catalog::is_allowed_non_validation(name))
}

/// The VGC0128 warning for marker-style tag `name` (at `span`) on a declaration of `scopes`, with the validation-gen
/// tag it most likely stands for when the marker's last segment is one (`validation:MinLength` → `+k8s:minLength`,
/// compared ignoring case) and that tag fits the place.
fn marker_problem(name: &str, span: std::ops::Range<usize>, scopes: &[Scope]) -> TagProblem {
    let marker = marker_style(name, true).unwrap_or(name);
    let last = marker.rsplit(':').next().unwrap_or(marker);
    let meant = catalog::TAGS
        .iter()
        .find(|t| {
            t.name()
                .strip_prefix("k8s:")
                .is_some_and(|n| n.eq_ignore_ascii_case(last))
        })
        .filter(|t| scopes.iter().any(|x| t.scopes.contains(x)))
        .map(|t| t.name());
    let mut p = TagProblem::new(Code::MarkerStyleTag, format!("unknown tag {name:?}"), span);
    p.hint = Some(match meant {
        Some(m) => format!("a kubebuilder-style marker, not a validation-gen tag: upstream validation-gen ignores it and vgc generates nothing for it; for the validation-gen rule write `+{m}`"),
        None => "a kubebuilder-style marker, not a validation-gen tag: upstream validation-gen ignores it and vgc generates nothing for it".into(),
    });
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    fn run(text: &str, scope: Scope) -> Vec<(Code, String, std::ops::Range<usize>)> {
        let name = text[..vgc_parser::tags::tag_name_len(text)].to_string();
        let u = TagUse {
            name,
            parsed: vgc_parser::tags::parse(text),
            raw_value: None,
            at: 0,
        };
        check_tag_use(&u, scope)
            .into_iter()
            .map(|p| (p.code, p.message, p.span))
            .collect()
    }

    #[test]
    fn catalog_checks() {
        assert_eq!(run("k8s:required", Scope::Field), vec![]);
        assert_eq!(run("k8s:required", Scope::Type)[0].0, Code::WrongScope);
        assert_eq!(
            run("k8s:required", Scope::Type)[0].1,
            "tag \"k8s:required\" cannot be specified on type definitions"
        );
        assert_eq!(run("k8s:requird", Scope::Field)[0].0, Code::UnknownTag);
        assert_eq!(
            run("k8s:maxItems", Scope::Field)[0].1,
            "tag \"k8s:maxItems\": missing required tag value of type int"
        );
        assert_eq!(
            run("k8s:maxItems=abc", Scope::Field)[0].1,
            "tag \"k8s:maxItems\": tag value has wrong type: got string, want int"
        );
        assert_eq!(
            run("k8s:required=true", Scope::Field)[0].0,
            Code::PayloadType
        );
        assert_eq!(
            run("k8s:ifEnabled=+k8s:optional", Scope::Field)[0].1,
            "tag \"k8s:ifEnabled\": missing required positional argument of type string"
        );
        assert_eq!(
            run("k8s:beta(since: 1)=+k8s:optional", Scope::Field)[0].1,
            "tag \"k8s:beta\": argument named argument \"since\" has wrong type: got int, want string"
        );
        assert_eq!(
            run("k8s:optional(x: \"y\")", Scope::Field)[0].1,
            "tag \"k8s:optional\": unrecognized named argument \"x\""
        );
        assert_eq!(
            run("k8s:item(type: \"A\")=+k8s:immutable", Scope::Field),
            vec![]
        );
        let p = run("k8s:eachVal=+k8s:required", Scope::Field);
        assert_eq!(
            p[0].1,
            "tag \"k8s:required\" cannot be specified on list values"
        );
        assert_eq!(p[0].2, 13..25);
        assert_eq!(run("k8s:neq=5", Scope::Field), vec![]);
        assert_eq!(run("k8s:maxItems=", Scope::Field)[0].0, Code::TagSyntax);
        // Field-path constraints (vgc extension): the form only; enabling and paths are lowering's.
        assert_eq!(
            run("k8s:minimum(constraint: limits.min)", Scope::Field),
            vec![]
        );
        assert_eq!(
            run("k8s:exclusiveMaximum(constraint: max)", Scope::Field),
            vec![]
        );
        assert_eq!(
            run("k8s:exclusiveMinimum=3", Scope::Field)[0].1,
            "tag \"k8s:exclusiveMinimum\" is supported only as a field-path constraint (vgc extension); upstream validation-gen does not have it"
        );
        // Per element: `eachVal` directly on a field; anywhere else inside another tag, refused.
        assert_eq!(
            run("k8s:eachVal=+k8s:maximum(constraint: max)", Scope::Field),
            vec![]
        );
        assert_eq!(
            run("k8s:eachVal=+k8s:maximum(constraint: max)", Scope::Type)[0].1,
            "tag \"k8s:maximum\": a field-path constraint cannot be specified on list values inside another tag"
        );
        assert_eq!(
            run("k8s:eachKey=+k8s:maximum(constraint: max)", Scope::Field)[0].1,
            "tag \"k8s:maximum\": a field-path constraint cannot be specified on map keys inside another tag"
        );
        assert_eq!(
            run(
                "k8s:eachVal=+k8s:eachVal=+k8s:maximum(constraint: max)",
                Scope::Field
            )[0]
            .1,
            "tag \"k8s:maximum\": a field-path constraint cannot be specified on list values inside another tag"
        );
        assert_eq!(
            run(
                "k8s:eachVal=+k8s:minimum(target: a, constraint: max)",
                Scope::Field
            )[0]
            .1,
            "tag \"k8s:minimum\": a field-path constraint with `target:` cannot be specified inside eachVal"
        );
        assert_eq!(
            run(
                "k8s:eachVal=+k8s:maximum(constraint: max, x: 1)",
                Scope::Field
            )[0]
            .1,
            "tag \"k8s:maximum\": unrecognized named argument \"x\" (a field-path constraint takes only `constraint`)"
        );
        assert_eq!(
            run("k8s:maximum(constraint: max)", Scope::Type)[0].1,
            "tag \"k8s:maximum\": a field-path constraint cannot be specified on type definitions"
        );
        assert_eq!(
            run("k8s:maximum(constraint: 5)", Scope::Field)[0].1,
            "tag \"k8s:maximum\": argument \"constraint\" has wrong type: got int, want a field path"
        );
    }
}
