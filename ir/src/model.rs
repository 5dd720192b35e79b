//! The position-free per-file IR: what a Go file declares and which tags it carries. Tag texts and their spans
//! relative to the tag line are kept; where each tag line sits in the file lives in the separate span table
//! ([`crate::db::file_spans`]), so moving code around does not change this IR.

use crate::catalog::ControlTag;
use crate::prefix::TagPrefix;
use serde::{Deserialize, Serialize};
use vgc_parser::go::{self, CommentLine, GoFile, TypeExpr};
use vgc_parser::structtag::{self, JsonTag};
use vgc_parser::tags::{self, Tag, TagError};

/// Index into a file's span table.
pub type SpanId = u32;

/// A tag use: the parsed tag (or its syntax error) and where its text starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagUse {
    /// The tag name as extracted (`k8s:maxItems`).
    pub name: String,
    /// Parsed tag, or the syntax error (spans relative to the tag text).
    pub parsed: Result<Tag, TagError>,
    /// Raw payload (RawValues mode), for tags read that way (`k8s:validation-gen`, `default`).
    pub raw_value: Option<String>,
    /// Where the tag text starts in the file (span table index).
    pub at: SpanId,
}

/// A struct field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldIr {
    /// Go name (`None` for embedded fields).
    pub go_name: Option<String>,
    /// The JSON view of the field (`None` when there is no json struct tag).
    pub json: Option<JsonTag>,
    /// The Go type as written.
    pub ty: TypeExpr,
    /// `+k8s:` tags on the field.
    pub tags: Vec<TagUse>,
    /// `+default=` value(s) on the field (raw), for the `optional` zero-default rule.
    pub defaults: Vec<TagUse>,
    /// Other generators' markers the lint compares with validation tags: `+listType`, `+listMapKey`,
    /// `+featureGate`, `+enum`.
    pub markers: Vec<TagUse>,
    /// Validation tags on the members of an anonymous struct in the field's type (`S *struct{ … }`, also inside
    /// lists, arrays and maps, at any depth). Upstream validates them; vgc does not model anonymous structs, so
    /// lowering reports each (`VGC0201`) instead of dropping it.
    pub anonymous_tags: Vec<TagUse>,
    /// Span of the field name.
    pub at: SpanId,
}

impl FieldIr {
    /// The Go member name: the declared name, or for an embedded field (`T`, `*T`, `pkg.T`, `*pkg.T`) the
    /// unqualified type name, as `go/types` `Var.Name()` and so gengo's `Member.Name` give it (upstream's lint
    /// messages say `field <this>:`). Empty only for an embedded field whose type is not a (pointer to a) name,
    /// which Go refuses.
    pub fn member_name(&self) -> String {
        if let Some(n) = &self.go_name {
            return n.clone();
        }
        let t = match &self.ty {
            TypeExpr::Pointer(i) => i.as_ref(),
            t => t,
        };
        match t {
            TypeExpr::Named { name, .. } => name.clone(),
            _ => String::new(),
        }
    }
}

/// A type declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeIr {
    /// Name.
    pub name: String,
    /// `type T = U`.
    pub is_alias: bool,
    /// Has type parameters.
    pub generic: bool,
    /// Right-hand side; struct fields are in `fields`.
    pub ty: TypeExpr,
    /// Struct fields (empty unless `ty` is a struct).
    pub fields: Vec<FieldIr>,
    /// `+k8s:` tags of the type's own comment.
    pub tags: Vec<TagUse>,
    /// `+k8s:validation-gen`, `+k8s:supportsSubresource` and `+k8s:isSubresource` tags of the second-closest
    /// comment (upstream honours both places), and prerelease-lifecycle-gen's `removed` marker
    /// ([`PRERELEASE_REMOVED`]).
    pub second_tags: Vec<TagUse>,
    /// Other generators' markers on the type the lint compares with validation tags: `+enum` (the 1.38
    /// enum-marker rule).
    pub markers: Vec<TagUse>,
    /// `+default=` value(s) on the type declaration (raw): defaulter-gen applies one to pointers to the type,
    /// and to list items and map values of it (code-generator `defaulter.go`, `getNestedDefault` and
    /// `populateDefaultValue`).
    pub defaults: Vec<TagUse>,
    /// Span of the name.
    pub at: SpanId,
}

/// A constant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstIr {
    /// Name.
    pub name: String,
    /// Declared type.
    pub ty: Option<TypeExpr>,
    /// Value.
    pub value: ConstValue,
    /// Comment lines joined with `\n` (used by enum de-duplication).
    pub comment: String,
    /// `+k8s:` tags.
    pub tags: Vec<TagUse>,
    /// Span of the name.
    pub at: SpanId,
}

/// The IR of one Go file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FileIr {
    /// Package name.
    pub package: String,
    /// Imports: (local name, path).
    pub imports: Vec<(Option<String>, String)>,
    /// Types.
    pub types: Vec<TypeIr>,
    /// Constants.
    pub consts: Vec<ConstIr>,
    /// `+k8s:` tags of every comment group of the file (upstream reads them from `doc.go` only).
    pub package_tags: Vec<TagUse>,
    /// The API group of the first `+groupName=<group>` line in the file's comments (`Some("")` for the core
    /// group), as Kubernetes' `register.go`/`doc.go` declare it and client-gen, openapi-gen and the API server's
    /// scheme read it. Consumed by the GVK dispatch (`vgc_lowering::plan::ModulePlan::group`).
    pub group_name: Option<String>,
    /// Syntax problems (span ids with messages; `true` for an error, `false` for a warning).
    pub problems: Vec<(SpanId, String, bool)>,
    /// Under a tag prefix other than `k8s:` ([`crate::prefix::TagPrefix`]): the `+k8s:` lines naming a
    /// validation-gen tag (`+k8s:required`), which that prefix does not read. Reported as warnings
    /// ([`crate::db::check_file`]) so that nothing written as a validation tag is dropped without a word.
    pub unprefixed: Vec<TagUse>,
}

/// Tags read in RawValues mode (upstream uses the legacy extractor or `RawValues(true)` for these).
fn is_raw_tag(name: &str) -> bool {
    name == "default" || crate::catalog::is_allowed_non_validation(name)
}

/// A constant's value as the parser read it ([`ConstIr::value`]): re-exported so that the IR's users (the driver's
/// `GroupName` lookup) need not depend on the parser.
pub use vgc_parser::go::ConstValue;

/// The IR of one Go file's text, parsed outside any database (default tag prefix): for a reader that needs a file's
/// declared types without a build (`vgc openapi`'s list kinds). Never fails: a file that does not parse gives the IR
/// of what parsed, with its problems.
#[must_use]
pub fn parse_file(src: &str) -> FileIr {
    lower_file(&go::parse(src)).0
}

/// Builds the IR and the span table of one file from its syntax summary, reading tags with the default prefix
/// (`+k8s:`). See [`lower_file_with`].
#[must_use]
pub fn lower_file(g: &GoFile) -> (FileIr, Vec<std::ops::Range<usize>>) {
    lower_file_with(g, &TagPrefix::default())
}

/// Builds the IR and the span table of one file from its syntax summary, reading validation-gen's tags written
/// with `prefix` (`--tag-prefix`, kubernetes#141866) and naming them canonically (`k8s:…`,
/// [`TagPrefix::canonical`]): a file written with `+acme:` tags read under `acme:` has the IR of the same file
/// written with `+k8s:` read under the default prefix. `+default` and other generators' markers are read as always.
#[must_use]
pub fn lower_file_with(g: &GoFile, prefix: &TagPrefix) -> (FileIr, Vec<std::ops::Range<usize>>) {
    let mut spans = Vec::new();
    let mut push = |s: std::ops::Range<usize>| {
        spans.push(s);
        SpanId::try_from(spans.len() - 1).unwrap_or(SpanId::MAX)
    };
    let mut ir = FileIr {
        package: g.package.clone(),
        ..FileIr::default()
    };
    ir.imports = g
        .imports
        .iter()
        .map(|i| (i.alias.clone(), i.path.clone()))
        .collect();
    for p in &g.problems {
        let id = push(p.span.clone());
        ir.problems.push((id, p.message.clone(), p.error));
    }
    for grp in &g.comment_groups {
        if ir.group_name.is_none() {
            ir.group_name = grp
                .lines
                .iter()
                .find_map(|l| l.text.trim().strip_prefix("+groupName="))
                .map(group_name_value);
        }
        ir.package_tags
            .extend(prefixed_uses(prefix, &grp.lines, &mut push));
        if !prefix.is_default() {
            ir.unprefixed.extend(
                tag_uses("+k8s:", &grp.lines, &mut push)
                    .into_iter()
                    .filter(|u| crate::catalog::is_validation_gen_name(&u.name)),
            );
        }
    }
    for t in &g.types {
        let fields = match &t.ty {
            TypeExpr::Struct(fs) => fs
                .iter()
                .map(|f| lower_field(f, prefix, &mut push))
                .collect(),
            _ => Vec::new(),
        };
        let second: Vec<TagUse> = prefixed_uses(prefix, &t.second_doc, &mut push)
            .into_iter()
            .filter(|u| {
                matches!(
                    u.control_tag(),
                    Some(
                        ControlTag::ValidationGen
                            | ControlTag::SupportsSubresource
                            | ControlTag::IsSubresource
                    )
                ) || u.name == PRERELEASE_REMOVED
                    || u.name == PRERELEASE_DEPRECATED
                    || u.name == PRERELEASE_INTRODUCED
            })
            .collect();
        ir.types.push(TypeIr {
            name: t.name.clone(),
            is_alias: t.is_alias,
            generic: t.generic,
            ty: strip_struct(&t.ty),
            fields,
            tags: prefixed_uses(prefix, &t.doc, &mut push),
            second_tags: second,
            markers: tag_uses("+", &t.doc, &mut push)
                .into_iter()
                .filter(|u| u.name == "enum")
                .collect(),
            defaults: tag_uses("+default", &t.doc, &mut push)
                .into_iter()
                .filter(|u| u.name == "default")
                .collect(),
            at: push(t.name_span.clone()),
        });
    }
    for c in &g.consts {
        ir.consts.push(ConstIr {
            name: c.name.clone(),
            ty: c.ty.clone(),
            value: c.value.clone(),
            comment: c
                .doc
                .iter()
                .map(|l| l.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            tags: prefixed_uses(prefix, &c.doc, &mut push),
            at: push(c.span.clone()),
        });
    }
    (ir, spans)
}

fn strip_struct(t: &TypeExpr) -> TypeExpr {
    // Fields are carried separately; keep the shape marker only.
    match t {
        TypeExpr::Struct(_) => TypeExpr::Struct(Vec::new()),
        other => other.clone(),
    }
}

fn lower_field(
    f: &go::Field,
    prefix: &TagPrefix,
    push: &mut impl FnMut(std::ops::Range<usize>) -> SpanId,
) -> FieldIr {
    FieldIr {
        go_name: f.name.clone(),
        json: f.tag.as_deref().and_then(structtag::json),
        ty: f.ty.clone(),
        tags: prefixed_uses(prefix, &f.doc, push),
        defaults: tag_uses("+default", &f.doc, push)
            .into_iter()
            .filter(|u| u.name == "default")
            .collect(),
        markers: tag_uses("+", &f.doc, push)
            .into_iter()
            .filter(|u| {
                matches!(
                    u.name.as_str(),
                    "listType" | "listMapKey" | "featureGate" | "enum"
                )
            })
            .collect(),
        anonymous_tags: {
            let mut out = Vec::new();
            anonymous_member_tags(&f.ty, prefix, push, &mut out, 0);
            out
        },
        at: push(f.span.clone()),
    }
}

/// The validation tags of the members of anonymous structs inside type expression `t` (see
/// [`FieldIr::anonymous_tags`]), appended to `out`.
fn anonymous_member_tags(
    t: &TypeExpr,
    prefix: &TagPrefix,
    push: &mut impl FnMut(std::ops::Range<usize>) -> SpanId,
    out: &mut Vec<TagUse>,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    match t {
        TypeExpr::Pointer(i) | TypeExpr::Slice(i) | TypeExpr::Array { elem: i, .. } => {
            anonymous_member_tags(i, prefix, push, out, depth + 1);
        }
        TypeExpr::Map(k, v) => {
            anonymous_member_tags(k, prefix, push, out, depth + 1);
            anonymous_member_tags(v, prefix, push, out, depth + 1);
        }
        TypeExpr::Struct(fs) => {
            for f in fs {
                out.extend(prefixed_uses(prefix, &f.doc, push));
                anonymous_member_tags(&f.ty, prefix, push, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// validation-gen's tag uses in `lines` under `prefix`, named canonically ([`TagPrefix::canonical`]). With the
/// empty prefix every `+` line is a candidate, and only validation-gen's names are kept (the rest are other
/// tools' markers, `+genclient`, `+default`, …), as upstream's registry does.
/// prerelease-lifecycle-gen's `+k8s:prerelease-lifecycle-gen:removed=1.Y` (written in k8s.io/api's second-closest
/// comment of a kind): kept in [`TypeIr::second_tags`] for `vgc_lowering::plan::TypePlan::removed_in`.
pub const PRERELEASE_REMOVED: &str = "k8s:prerelease-lifecycle-gen:removed";

/// prerelease-lifecycle-gen's `+k8s:prerelease-lifecycle-gen:deprecated=1.Y`: without a `removed` marker, the type
/// stops being served three minor releases later (its generated `APILifecycleRemoved`).
pub const PRERELEASE_DEPRECATED: &str = "k8s:prerelease-lifecycle-gen:deprecated";

/// prerelease-lifecycle-gen's `+k8s:prerelease-lifecycle-gen:introduced=1.Y`: in a pre-release version (`v1beta1`),
/// without `deprecated` and `removed` markers, the type is deprecated three minors later and removed three after that.
pub const PRERELEASE_INTRODUCED: &str = "k8s:prerelease-lifecycle-gen:introduced";

/// The release that stops serving a type of package `pkg`, from its prerelease-lifecycle-gen markers among `uses`,
/// as `major.minor`, as prerelease-lifecycle-gen of the k8s.io/api release `upstream` computes its generated
/// `APILifecycleRemoved` (code-generator `cmd/prerelease-lifecycle-gen` `argsFromType`): its `removed` version; else,
/// in a version the defaults apply to — before 1.38 every pre-release version (the package's last element is not
/// `v<N>`), from 1.38 beta versions only (`v<N>beta<M>`; [`crate::Upstream::lifecycle_defaults_beta_only`]) — its
/// `deprecated` version, itself the `introduced` version plus three minors when not written, plus three minors; else
/// none, as for a type with none of the markers.
#[must_use]
pub fn removed_in<'a>(
    uses: impl IntoIterator<Item = &'a TagUse>,
    pkg: &str,
    upstream: crate::Upstream,
) -> Option<String> {
    let (mut removed, mut deprecated, mut introduced) = (None, None, None);
    for u in uses {
        let v = u.raw_value.as_deref().map(str::trim);
        if u.name == PRERELEASE_REMOVED {
            removed = v;
        } else if u.name == PRERELEASE_DEPRECATED {
            deprecated = v;
        } else if u.name == PRERELEASE_INTRODUCED {
            introduced = v;
        }
    }
    let parse = |v: &str| -> Option<(u32, u32)> {
        let (a, b) = v.split_once('.')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    if let Some((a, b)) = removed.and_then(parse) {
        return Some(format!("{a}.{b}"));
    }
    let version = pkg.rsplit('/').next().unwrap_or(pkg);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let defaulted = match version.strip_prefix('v') {
        _ if upstream.lifecycle_defaults_beta_only() => version
            .strip_prefix('v')
            .and_then(|r| r.split_once("beta"))
            .is_some_and(|(n, m)| digits(n) && digits(m)),
        Some(n) => !digits(n),
        None => true,
    };
    if !defaulted {
        return None;
    }
    deprecated
        .and_then(parse)
        .or_else(|| introduced.and_then(parse).map(|(a, b)| (a, b + 3)))
        .map(|(a, b)| format!("{a}.{}", b + 3))
}

fn prefixed_uses(
    prefix: &TagPrefix,
    lines: &[CommentLine],
    push: &mut impl FnMut(std::ops::Range<usize>) -> SpanId,
) -> Vec<TagUse> {
    let mut uses = tag_uses_with(&format!("+{prefix}"), lines, push, &|name| {
        let c = prefix.canonical(name);
        (!prefix.as_str().is_empty() || !c.starts_with(crate::prefix::FOREIGN)).then_some(c)
    });
    if !prefix.is_default() {
        for u in &mut uses {
            if let Ok(t) = &mut u.parsed {
                prefix.canonicalize(t);
                u.name.clone_from(&t.name);
            }
        }
    }
    uses
}

fn tag_uses(
    prefix: &str,
    lines: &[CommentLine],
    push: &mut impl FnMut(std::ops::Range<usize>) -> SpanId,
) -> Vec<TagUse> {
    tag_uses_with(prefix, lines, push, &|n| Some(n.to_string()))
}

/// The tag uses of `lines` starting with `prefix`, named by `canonical` (which also decides how each is parsed:
/// raw for control tags and `default`, [`is_raw_tag`]); a line `canonical` maps to `None` is skipped. The parsed
/// tag keeps the names as written.
fn tag_uses_with(
    prefix: &str,
    lines: &[CommentLine],
    push: &mut impl FnMut(std::ops::Range<usize>) -> SpanId,
    canonical: &dyn Fn(&str) -> Option<String>,
) -> Vec<TagUse> {
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    tags::extract(prefix, texts)
        .into_iter()
        .filter_map(|tl| {
            let name = canonical(&tl.name)?;
            let base = lines[tl.line].offset + tl.column;
            let at = push(base..base + tl.text.len());
            let (parsed, raw_value) = if is_raw_tag(&name) {
                // Control tags and other generators' tags are read raw and leniently: upstream reads them with
                // the legacy extractor (or only checks their presence), never with the validation-tag grammar.
                let value = tags::parse_raw(&tl.text).ok().and_then(|r| r.value);
                let tag = Tag {
                    name: tl.name.clone(),
                    name_span: 0..tl.name.len(),
                    args: vec![],
                    value: None,
                    span: 0..tl.text.len(),
                };
                (Ok(tag), value)
            } else {
                (tags::parse(&tl.text), None)
            };
            Some(TagUse {
                name,
                parsed,
                raw_value,
                at,
            })
        })
        .collect()
}

/// The value of a `+groupName=` line: trimmed, and a Go-quoted string (`""`, `"apps"`) unquoted, so that
/// `+groupName=""` names the core group as `+groupName=` does.
fn group_name_value(raw: &str) -> String {
    let v = raw.trim();
    match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => inner.to_string(),
        _ => v.to_string(),
    }
}

impl crate::catalog::TagIdent for TagUse {
    fn tag_id(&self) -> Option<crate::catalog::TagId> {
        crate::catalog::TagId::from_name(&self.name)
    }
}

impl TagUse {
    /// The use's [`crate::catalog::ControlTag`], or `None` for any other tag.
    #[must_use]
    pub fn control_tag(&self) -> Option<crate::catalog::ControlTag> {
        crate::catalog::ControlTag::from_name(&self.name)
    }
}

#[cfg(test)]
mod group_name_tests {
    #[test]
    fn quoted_group_names_are_unquoted() {
        assert_eq!(super::group_name_value(""), "");
        assert_eq!(super::group_name_value(" \"\" "), "");
        assert_eq!(super::group_name_value("\"apps\""), "apps");
        assert_eq!(
            super::group_name_value("apps.example.com"),
            "apps.example.com"
        );
        assert_eq!(super::group_name_value("\"a\"b\""), "\"a\"b\"");
    }
}

#[cfg(test)]
mod lifecycle_tests {
    use super::*;
    use crate::Upstream::{V1_37 as V37, V1_38 as V38};

    fn marker(name: &str, v: &str) -> TagUse {
        TagUse {
            name: name.to_string(),
            parsed: vgc_parser::tags::parse(&format!("{name}={v}")),
            raw_value: Some(v.to_string()),
            at: 0,
        }
    }

    /// prerelease-lifecycle-gen's `argsFromType`: `removed` wins; else in a pre-release version `deprecated` + 3,
    /// `deprecated` itself being `introduced` + 3 when not written (k8s.io/api flowcontrol/v1beta1's FlowSchema:
    /// introduced 1.20, `APILifecycleRemoved` 1.26); a GA version is removed only when marked; from 1.38 an alpha
    /// one too.
    #[test]
    fn removal_follows_prerelease_lifecycle_gen() {
        let intro = [marker(PRERELEASE_INTRODUCED, "1.20")];
        assert_eq!(
            removed_in(&intro, "k8s.io/api/flowcontrol/v1beta1", V37).as_deref(),
            Some("1.26")
        );
        assert_eq!(removed_in(&intro, "k8s.io/api/flowcontrol/v1", V37), None);
        let dep = [
            marker(PRERELEASE_INTRODUCED, "1.20"),
            marker(PRERELEASE_DEPRECATED, "1.29"),
        ];
        assert_eq!(
            removed_in(&dep, "k8s.io/api/x/v1alpha1", V37).as_deref(),
            Some("1.32")
        );
        assert_eq!(removed_in(&dep, "k8s.io/api/x/v2", V37), None);
        // 1.38: the defaults for beta versions only (an alpha type deprecated in 1.35 stays served).
        assert_eq!(removed_in(&dep, "k8s.io/api/x/v1alpha1", V38), None);
        assert_eq!(
            removed_in(&dep, "k8s.io/api/x/v1beta2", V38).as_deref(),
            Some("1.32")
        );
        let rem = [
            marker(PRERELEASE_INTRODUCED, "1.20"),
            marker(PRERELEASE_REMOVED, "1.40"),
        ];
        assert_eq!(
            removed_in(&rem, "k8s.io/api/x/v1", V38).as_deref(),
            Some("1.40")
        );
        assert_eq!(removed_in(&[], "k8s.io/api/x/v1beta1", V37), None);
    }
}
