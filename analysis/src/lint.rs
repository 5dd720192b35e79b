//! `vgc lint`: upstream validation-gen's three lint rules (spec §6, `lint_rules.go`) with their exact messages, and
//! vgc's own rules (`VGC0310`–`VGC0318`), over the loaded program. Input: the program and the extra root criteria
//! (`--roots`); output: diagnostics (severity as registered; `vgc.toml` and `vgc:ignore` comments are applied by
//! [`apply_suppressions`] and the driver).
//!
//! Upstream lints every root type of the target packages and, recursively, the types of their fields, elements,
//! keys and values in any package, each type once; a package or type tagged `+k8s:validation-gen-nolint` is skipped
//! (a nolint type's members are not visited through it). Unlike upstream, which stops at the first failing type,
//! every finding is reported, each at the tag or field it is about.

use crate::program::{Program, TypeKey};
use crate::types::{self, Ty, opacity, unwrap_levels};
use diagnostics::{ExtensionKind, LintDiagnostic, ValueStructMismatch};

mod diagnostics;
use std::collections::{BTreeMap, HashMap, HashSet};
use vgc_ir::catalog::{self, ControlTag, Stability, TagId, TagIdent, ValueKind};
use vgc_ir::model::{FieldIr, TagUse, TypeIr};
use vgc_ir::{Code, Db, Diagnostic, SourceFile};
use vgc_parser::go::TypeExpr;
use vgc_parser::tags::{Scalar, Tag};

/// Runs every lint rule: [`upstream`] and [`vgc_rules`]. `extra_roots` are the `--roots` criteria (as for
/// `vgc build`).
#[must_use]
pub fn lint(db: &dyn Db, prog: &Program, extra_roots: &[String]) -> Vec<Diagnostic> {
    let mut diags = upstream(db, prog, extra_roots);
    diags.extend(vgc_rules(db, prog));
    diags
}

/// Upstream validation-gen's own lint (`VGC0301`–`VGC0305` as the upstream profile in force selects them:
/// `alphaBetaPrefix`, `validationStability`, `requiredAndOptional` of `lint_rules.go`, and 1.38's non-pointer
/// struct requiredness and `+enum` marker rules), errors in every command, as upstream's generation stops with
/// `lint failed:` on them: over each root type of the target packages (with `extra_roots`), recursing into the
/// types of members, elements, keys and values in any package, each type once, skipping packages and types
/// tagged `+k8s:validation-gen-nolint`.
#[must_use]
pub fn upstream(db: &dyn Db, prog: &Program, extra_roots: &[String]) -> Vec<Diagnostic> {
    let mut l = Linter::new(db, prog);
    // upstream lints the roots of the packages it generates: a package without `+k8s:validation-gen` of its own is
    // generated (and linted) only when something activates it — an activation package naming it
    // (`+k8s:validation-gen-input`) or here `--roots`; vgc's implicit default activation builds it but is no
    // upstream activation (code-generator v0.38.0-beta.0 `targets.go`: "did not find required tag").
    // Each activation's roots, unless the activating package says `+k8s:validation-gen-nolint` (upstream reads it
    // from the package it generates into).
    if extra_roots.is_empty() {
        for a in types::activations(db, prog) {
            if !a.cfg.implicit && !l.package_nolint(&a.pkg) {
                for r in types::roots_of(db, prog, &a.input, &a.cfg) {
                    l.lint_type(&r);
                }
            }
        }
    } else {
        for r in &types::all_roots(db, prog, extra_roots, &mut Vec::new()) {
            if !l.activation_nolint(&r.pkg) {
                l.lint_type(r);
            }
        }
    }
    l.alias_enum_markers();
    l.diags
}

/// vgc's own lint rules (`VGC0310`–`VGC0318`, warnings unless `vgc.toml` says otherwise): per-file rules over
/// every declaration of the target packages, then option-name spelling across the program. `vgc lint` only.
#[must_use]
pub fn vgc_rules(db: &dyn Db, prog: &Program) -> Vec<Diagnostic> {
    let mut l = Linter::new(db, prog);
    for p in prog.packages.values().filter(|p| p.target) {
        for f in &p.files {
            l.file_rules(&p.path, *f);
        }
    }
    l.option_spelling();
    l.diags
}

struct Linter<'a> {
    /// The subresource paths served by the root types reaching each type ([`types::served_subresources`] of every
    /// root whose reachable types include it), computed on the first subresource condition.
    served: Option<HashMap<TypeKey, std::collections::BTreeSet<String>>>,
    db: &'a dyn Db,
    /// The upstream profile in force: which of upstream's rules run.
    profile: vgc_ir::Upstream,
    prog: &'a Program,
    diags: Vec<Diagnostic>,
    linted: HashSet<TypeKey>,
    /// upstream `hasTransitiveValidation` memo: (type, opacity) → has validation (absent while being computed).
    transitive: HashMap<(Ty, bool, bool), Option<bool>>,
}

/// Tags whose payload is a tag (upstream `chainTags`).
fn is_chain(t: &Tag) -> bool {
    t.tag_id()
        .is_some_and(|id| id.spec().payload == Some(ValueKind::Tag))
}

/// upstream `hasTag` over a chain: `id` appears anywhere in the tag's chain.
fn chain_has(t: &Tag, id: TagId) -> bool {
    t.chain().any(|c| c.is_tag(id))
}

/// upstream `hasNonOpaqueValidationTag`: a known validation tag other than `optional`/`opaqueType`, looking through
/// chain tags.
fn has_non_opaque_validation(t: &Tag) -> bool {
    match t.tag_id() {
        None | Some(TagId::Optional | TagId::OpaqueType) => false,
        // A field-path constraint (vgc extension) is a struct-level check of the parent, not of the field's value
        // (a nil pointer skips it), so it asks for no requiredness, like the exclusive forms upstream lacks.
        Some(_) if vgc_ir::extension_tags::constraint_tag(t).is_some() => false,
        // Virtual-field tags (vgc extension) make a group checked on an ancestor struct, not a check of the field.
        Some(TagId::MemberOf | TagId::ListMapItem | TagId::Union | TagId::ZeroOrOneOf) => false,
        Some(_) if is_chain(t) => t.inner().is_some_and(has_non_opaque_validation),
        Some(_) => true,
    }
}

/// upstream `Validations.HasEmitable()` for type-level tags: a known tag that generates a function (metadata tags
/// such as `listMapKey`, `opaqueType` or `listType=atomic` do not).
fn emits(t: &Tag) -> bool {
    let inner = unwrap_levels(t);
    match inner.tag_id() {
        None
        | Some(
            TagId::OpaqueType
            | TagId::ListMapKey
            | TagId::CustomUnique
            | TagId::UnionDiscriminator
            | TagId::ModeDiscriminator,
        ) => false,
        Some(TagId::ListType | TagId::Unique) => {
            matches!(inner.scalar_value(), Some(Scalar::Str(v)) if v == "set" || v == "map")
        }
        Some(_) => true,
    }
}

/// A fix inserting comment lines `// <line>` right after the line holding byte `offset` of `text`, with that
/// line's indentation and line ending (`\r\n` when the line ends so): (empty span at the end of the line, before
/// its line break, and the text to insert). The only fix that makes line breaks: every consumer of
/// `Diagnostic::fix` (`vgc lint --fix`, the language server's quick fixes) applies `replacement` as it is.
fn insert_lines_after(
    text: &str,
    offset: usize,
    lines: &[String],
) -> (std::ops::Range<usize>, String) {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let mut end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    // The inserted lines end as the line they follow does (`\r\n` in a CRLF file): a fix never mixes line endings.
    let newline = if text[start..end].ends_with('\r') {
        end -= 1;
        "\r\n"
    } else {
        "\n"
    };
    let indent: String = text[start..end]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let insert: String = lines
        .iter()
        .map(|l| format!("{newline}{indent}// {l}"))
        .collect();
    (end..end, insert)
}

/// The stability context of a package: upstream reads it from the last path element (`v1alpha1` → Alpha).
fn package_level(pkg: &str) -> Stability {
    let base = pkg.rsplit('/').next().unwrap_or(pkg);
    if base.contains("alpha") {
        Stability::Alpha
    } else if base.contains("beta") {
        Stability::Beta
    } else {
        Stability::Stable
    }
}

impl<'a> Linter<'a> {
    fn new(db: &'a dyn Db, prog: &'a Program) -> Self {
        Self {
            served: None,
            db,
            profile: vgc_ir::profile::upstream(db),
            prog,
            diags: Vec::new(),
            linted: HashSet::new(),
            transitive: HashMap::new(),
        }
    }

    fn span(&self, file: SourceFile, at: u32) -> std::ops::Range<usize> {
        vgc_ir::db::span_of(self.db, file, at)
    }

    fn report(&mut self, d: Diagnostic, file: SourceFile, span: std::ops::Range<usize>) {
        let path = file.path(self.db).clone();
        self.diags.push(d.at(path, span));
    }

    /// Whether the roots of `pkg` skip upstream's lint: upstream reads `+k8s:validation-gen-nolint` on the
    /// *activating* package (targets.go: `codetags.Extract("+", pkg.Comments)` of the input that carries
    /// `+k8s:validation-gen`), not on the package the types live in. A types package with no
    /// `+k8s:validation-gen` of its own that other target packages activate with `+k8s:validation-gen-input=`
    /// (upstream's `output_tests/multiple_packages`, kubernetes/kubernetes' `pkg/apis/…` over k8s.io/api) is linted
    /// only when one of those activators lacks the tag; otherwise the package's own tags decide.
    fn activation_nolint(&self, pkg: &str) -> bool {
        let has_tag = |p: &str, tag: ControlTag, value: Option<&str>| {
            self.prog.packages.get(p).is_some_and(|p| {
                p.files.iter().any(|f| {
                    f.path(self.db).ends_with("/doc.go")
                        && vgc_ir::db::file_ir(self.db, *f)
                            .package_tags
                            .iter()
                            .any(|u| {
                                u.control_tag() == Some(tag)
                                    && value.is_none_or(|v| {
                                        u.raw_value.as_deref().map(str::trim) == Some(v)
                                    })
                            })
                })
            })
        };
        if has_tag(pkg, ControlTag::ValidationGen, None) {
            return self.package_nolint(pkg);
        }
        let activators: Vec<&String> = self
            .prog
            .packages
            .iter()
            .filter(|(p, pk)| pk.target && has_tag(p, ControlTag::ValidationGenInput, Some(pkg)))
            .map(|(p, _)| p)
            .collect();
        if activators.is_empty() {
            return self.package_nolint(pkg);
        }
        activators.iter().all(|p| self.package_nolint(p))
    }

    fn package_nolint(&self, pkg: &str) -> bool {
        self.prog.packages.get(pkg).is_some_and(|p| {
            p.files.iter().any(|f| {
                f.path(self.db).ends_with("/doc.go")
                    && vgc_ir::db::file_ir(self.db, *f)
                        .package_tags
                        .iter()
                        .any(|u| u.control_tag() == Some(ControlTag::ValidationGenNolint))
            })
        })
    }

    /// upstream `linter.lintType`, over `k` and every type it references, depth-first in reference order (upstream's
    /// recursion order). Iterative: a chain of tens of thousands of types referencing each other is an ordinary
    /// input, not a stack overflow (R2).
    fn lint_type(&mut self, k: &TypeKey) {
        let mut stack = vec![k.clone()];
        while let Some(k) = stack.pop() {
            if !self.linted.insert(k.clone()) {
                continue;
            }
            // The declaration borrows the database, not the linter: no copy of its tags per type.
            let (prog, db) = (self.prog, self.db);
            let Some((decl, file)) = prog.type_decl(db, &k) else {
                continue;
            };
            if decl
                .tags
                .iter()
                .any(|u| u.control_tag() == Some(ControlTag::ValidationGenNolint))
            {
                continue;
            }
            let ty = types::resolve(self.db, self.prog, &k.pkg, file, &decl.ty);
            self.enum_marker(decl, file);
            self.upstream_rules(&k, None, &ty, &decl.tags, file);
            let mut next = Vec::new();
            types::collect_named(&ty, &mut next);
            for f in &decl.fields {
                let fty = types::resolve(self.db, self.prog, &k.pkg, file, &f.ty);
                self.enum_marker_on(
                    &f.markers,
                    &f.tags,
                    format!("field {}: ", f.member_name()),
                    file,
                );
                self.upstream_rules(&k, Some(f), &fty, &f.tags, file);
                types::collect_named(&fty, &mut next);
            }
            stack.extend(next.into_iter().rev());
        }
    }

    /// upstream `alphaBetaPrefix`, `validationStability` and `requiredAndOptional` on one comment block (a type's,
    /// or a field's of `container`).
    fn upstream_rules(
        &mut self,
        container: &TypeKey,
        field: Option<&FieldIr>,
        ty: &Ty,
        tags: &[TagUse],
        file: SourceFile,
    ) {
        let mut sorted: Vec<&TagUse> = tags.iter().filter(|u| u.parsed.is_ok()).collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        let context = package_level(&container.pkg);
        // upstream `linter.AddError`: findings on a field are prefixed with its Go name.
        let prefix = field.map_or_else(String::new, |f| format!("field {}: ", f.member_name()));
        for u in &sorted {
            let Ok(tag) = &u.parsed else { continue };
            let span = self.span(file, u.at);
            // alphaBetaPrefix
            for (i, t) in tag.chain().enumerate() {
                if matches!(t.tag_id(), Some(TagId::Alpha | TagId::Beta)) {
                    let msg = if i > 0 {
                        LintDiagnostic::StabilityPrefixInBetween {
                            prefix: prefix.clone(),
                            tag: t.name.clone(),
                        }
                    } else if t.inner().is_none() {
                        LintDiagnostic::StabilityPrefixWithoutPayload {
                            prefix: prefix.clone(),
                            tag: t.name.clone(),
                        }
                    } else {
                        continue;
                    };
                    self.report(msg.diagnostic(), file, span.clone());
                }
            }
            // validationStability (removed in 1.38)
            if !self.profile.lint_stability() {
                continue;
            }
            let (mut level, mut check) = (context, Some(tag));
            if matches!(tag.tag_id(), Some(TagId::Alpha | TagId::Beta)) {
                level = if tag.is_tag(TagId::Alpha) {
                    Stability::Alpha
                } else {
                    Stability::Beta
                };
                check = tag.inner();
            }
            let Some(check) = check else { continue };
            if matches!(check.tag_id(), Some(TagId::IfEnabled | TagId::IfDisabled))
                && level == Stability::Stable
            {
                level = Stability::Beta;
            }
            for t in check.chain() {
                let Some(spec) = catalog::lookup(&t.name) else {
                    break;
                };
                // A tag this release does not have is `check_file`'s VGC0102 error, nothing more.
                if !self.profile.has_tag(spec.id) {
                    break;
                }
                if spec.stability < level {
                    self.report(
                        LintDiagnostic::Stability {
                            prefix: prefix.clone(),
                            tag: t.name.clone(),
                            tag_level: spec.stability,
                            context: level,
                        }
                        .diagnostic(),
                        file,
                        span.clone(),
                    );
                    break;
                }
            }
        }
        // requiredAndOptional (1.36 on): fields only, not of a (typedef of a) non-pointer struct.
        let Some(f) = field else { return };
        if !self.profile.lint_requiredness() {
            return;
        }
        // Well-known apimachinery values (`metav1.Time`, `resource.Quantity`, …) are Go structs too.
        match types::native(self.db, self.prog, ty) {
            types::Native::Struct(s) => {
                if self.profile.lint_value_struct_requiredness() {
                    self.value_struct_requiredness(f, ty, &s, tags, file);
                }
                return;
            }
            types::Native::Other(Ty::WellKnown(w)) if w != types::WellKnown::Bytes => return,
            _ => {}
        }
        let parsed: Vec<&Tag> = sorted
            .iter()
            .filter_map(|u| u.parsed.as_ref().ok())
            .collect();
        if parsed.iter().any(|t| {
            chain_has(t, TagId::Optional)
                || chain_has(t, TagId::Required)
                || chain_has(t, TagId::Forbidden)
        }) {
            return;
        }
        let direct = parsed.iter().any(|t| has_non_opaque_validation(t));
        let types::Opacity {
            value: typ,
            elems: val,
            keys: key,
        } = opacity(tags);
        if direct || (!typ && self.has_transitive(ty, val, key)) {
            let span = self.span(file, f.at);
            self.report(
                LintDiagnostic::MissingRequiredness {
                    field: f.member_name(),
                }
                .diagnostic(),
                file,
                span,
            );
        }
    }

    /// upstream 1.38 `nonPointerStructRequiredness` (kubernetes#141637) on field `f` of non-pointer struct type
    /// `ty` (natively the struct `native`): `required` needs the struct to be implicitly required and not opaque,
    /// `optional` needs it not to be implicitly required (unless opaque). The name in the message is the field's
    /// type as written (an alias or typedef is named, not its target).
    fn value_struct_requiredness(
        &mut self,
        f: &FieldIr,
        ty: &Ty,
        native: &TypeKey,
        tags: &[TagUse],
        file: SourceFile,
    ) {
        let parsed: Vec<&Tag> = tags.iter().filter_map(|u| u.parsed.as_ref().ok()).collect();
        let required = parsed.iter().any(|t| chain_has(t, TagId::Required));
        let optional = parsed.iter().any(|t| chain_has(t, TagId::Optional));
        if !required && !optional {
            return;
        }
        let opaque = parsed.iter().any(|t| chain_has(t, TagId::OpaqueType));
        let name = match ty {
            Ty::Named(k) => k.to_string(),
            _ => native.to_string(),
        };
        let mismatch = if required && opaque {
            ValueStructMismatch::RequiredOpaque
        } else if required && !self.implicitly_required(native, &mut HashSet::new()) {
            ValueStructMismatch::RequiredNothingRequired
        } else if optional
            && !required
            && !opaque
            && self.implicitly_required(native, &mut HashSet::new())
        {
            ValueStructMismatch::OptionalButRequired
        } else {
            return;
        };
        let msg = LintDiagnostic::ValueStructRequiredness {
            field: f.member_name(),
            struct_name: name,
            mismatch,
        };
        let span = self.span(file, f.at);
        self.report(msg.diagnostic(), file, span);
    }

    /// upstream 1.38 `isImplicitlyRequired`: a member of the struct `k` (or, recursively, of a member that is a
    /// struct by value) carries `k8s:required` or `k8s:unionMember` anywhere in a chain; members tagged
    /// `k8s:opaqueType` are not looked at, and pointers, slices and maps are not entered.
    fn implicitly_required(&self, k: &TypeKey, seen: &mut HashSet<TypeKey>) -> bool {
        if !seen.insert(k.clone()) {
            return false;
        }
        let Some((decl, file)) = self.prog.type_decl(self.db, k) else {
            return false;
        };
        decl.fields.iter().any(|m| {
            let parsed: Vec<&Tag> = m
                .tags
                .iter()
                .filter_map(|u| u.parsed.as_ref().ok())
                .collect();
            if parsed.iter().any(|t| chain_has(t, TagId::OpaqueType)) {
                return false;
            }
            if parsed
                .iter()
                .any(|t| chain_has(t, TagId::Required) || chain_has(t, TagId::UnionMember))
            {
                return true;
            }
            let mty = types::resolve(self.db, self.prog, &k.pkg, file, &m.ty);
            match types::native(self.db, self.prog, &mty) {
                types::Native::Struct(inner) => self.implicitly_required(&inner, seen),
                types::Native::Other(_) => false,
            }
        })
    }

    /// The 1.38 enum-marker rule on alias declarations (`type X = Y`) of the target packages whose target the
    /// walk reached: an alias is its target to the generator, but carries its own comments. Inferred from
    /// k8s.io/api@v0.38.0-alpha.2, where such aliases (`admissionregistration/v1beta1.ScopeType = v1.ScopeType`,
    /// the deprecated `core/v1.IPFamilyPolicyType = IPFamilyPolicy`) got `+k8s:validation-gen-nolint` while an
    /// `+enum` type no root reaches (`autoscaling/v1.MetricSourceType`) did not.
    fn alias_enum_markers(&mut self) {
        if !self.profile.lint_enum_marker() {
            return;
        }
        let mut found = Vec::new();
        for p in self.prog.packages.values().filter(|p| p.target) {
            if self.package_nolint(&p.path) {
                continue;
            }
            for f in &p.files {
                for t in &vgc_ir::db::file_ir(self.db, *f).types {
                    if !t.is_alias
                        || t.markers.is_empty()
                        || t.tags
                            .iter()
                            .any(|u| u.control_tag() == Some(ControlTag::ValidationGenNolint))
                    {
                        continue;
                    }
                    if let Ty::Named(target) =
                        types::resolve(self.db, self.prog, &p.path, *f, &t.ty)
                        && self.linted.contains(&target)
                    {
                        found.push((t.clone(), *f));
                    }
                }
            }
        }
        for (t, f) in found {
            self.enum_marker(&t, f);
        }
    }

    /// upstream 1.38 (kubernetes#142102, message inferred): a type marked `+enum` for OpenAPI must also carry
    /// `+k8s:enum` (anywhere in a chain), unless it is tagged `+k8s:validation-gen-nolint` (checked by the caller).
    fn enum_marker(&mut self, decl: &TypeIr, file: SourceFile) {
        self.enum_marker_on(&decl.markers, &decl.tags, String::new(), file);
    }

    /// The `+enum` rule on one comment block: a type's, or (code-generator v0.38.0-beta.0 `lint.go`, which runs
    /// every rule on member comments too) a struct field's, with `prefix` `field <Name>: `.
    fn enum_marker_on(
        &mut self,
        markers: &[TagUse],
        tags: &[TagUse],
        prefix: String,
        file: SourceFile,
    ) {
        if !self.profile.lint_enum_marker() {
            return;
        }
        let Some(marker) = markers.iter().find(|u| u.name == "enum") else {
            return;
        };
        if tags
            .iter()
            .filter_map(|u| u.parsed.as_ref().ok())
            .any(|t| chain_has(t, TagId::Enum))
        {
            return;
        }
        let span = self.span(file, marker.at);
        self.report(
            LintDiagnostic::EnumMarker { prefix }.diagnostic(),
            file,
            span,
        );
    }

    /// upstream `hasTransitiveValidation` (opacity of the value itself is handled by the caller): the type has a
    /// type-level function, or its elements, keys, values, pointee or members do, stopping at opaque types.
    fn has_transitive(&mut self, ty: &Ty, val_opaque: bool, key_opaque: bool) -> bool {
        let key = (ty.clone(), val_opaque, key_opaque);
        match self.transitive.get(&key) {
            Some(Some(v)) => return *v,
            Some(None) => return false, // cycle: not (yet) known to have validations
            None => {}
        }
        self.transitive.insert(key.clone(), None);
        let result = match ty {
            Ty::Named(k) => match self.prog.type_decl(self.db, k) {
                None => false,
                Some((decl, file)) => {
                    let types::Opacity {
                        value: typ,
                        elems: v,
                        keys: kk,
                    } = opacity(&decl.tags);
                    if typ {
                        false
                    } else if decl
                        .tags
                        .iter()
                        .filter_map(|u| u.parsed.as_ref().ok())
                        .any(emits)
                    {
                        true
                    } else if matches!(decl.ty, TypeExpr::Struct(_)) {
                        decl.fields.iter().any(|m| {
                            let parsed: Vec<&Tag> = m
                                .tags
                                .iter()
                                .filter_map(|u| u.parsed.as_ref().ok())
                                .collect();
                            if parsed.iter().any(|t| has_non_opaque_validation(t)) {
                                return true;
                            }
                            let types::Opacity {
                                value: mt,
                                elems: mv,
                                keys: mk,
                            } = opacity(&m.tags);
                            !mt && {
                                let mty = types::resolve(self.db, self.prog, &k.pkg, file, &m.ty);
                                self.has_transitive(&mty, mv, mk)
                            }
                        })
                    } else {
                        let under = types::resolve(self.db, self.prog, &k.pkg, file, &decl.ty);
                        self.has_transitive(&under, val_opaque || v, key_opaque || kk)
                    }
                }
            },
            Ty::Pointer(i) => self.has_transitive(i, val_opaque, key_opaque),
            Ty::Slice(e) => !val_opaque && self.has_transitive(e, false, false),
            Ty::Map(k, v) => {
                (!key_opaque && self.has_transitive(k, false, false))
                    || (!val_opaque && self.has_transitive(v, false, false))
            }
            _ => false,
        };
        self.transitive.insert(key, Some(result));
        result
    }

    /// Per-file rules on every declaration of a target package.
    fn file_rules(&mut self, pkg: &str, file: SourceFile) {
        let ir = vgc_ir::db::file_ir(self.db, file).clone();
        let text = file.text(self.db).clone();
        // VGC0310: validation tags in no declaration's comment group.
        if !file.path(self.db).ends_with("/doc.go") {
            let mut attached: HashSet<usize> = HashSet::new();
            let mut attach = |tags: &[TagUse]| {
                for u in tags {
                    attached.insert(self.span(file, u.at).start);
                }
            };
            for t in &ir.types {
                attach(&t.tags);
                attach(&t.second_tags);
                for f in &t.fields {
                    attach(&f.tags);
                    // Tags on an anonymous struct's members belong to them (lowering reports them as not lowered).
                    attach(&f.anonymous_tags);
                }
            }
            for c in &ir.consts {
                attach(&c.tags);
            }
            // A comment inside a region that did not parse belongs to a declaration vgc could not read: its VGC0001
            // says so, and the tag is not detached.
            let unreadable: Vec<std::ops::Range<usize>> = ir
                .problems
                .iter()
                .filter(|(_, _, error)| !*error)
                .map(|(id, _, _)| self.span(file, *id))
                .collect();
            for u in &ir.package_tags {
                let span = self.span(file, u.at);
                if catalog::lookup(&u.name).is_some()
                    && !attached.contains(&span.start)
                    && !unreadable.iter().any(|r| r.contains(&span.start))
                {
                    self.report(
                        LintDiagnostic::DetachedTag {
                            tag: u.name.clone(),
                            on: declaration_below(&text, span.start),
                        }
                        .diagnostic(),
                        file,
                        span,
                    );
                }
            }
        }
        if vgc_ir::extension_tags::enabled(self.db) {
            self.extension_uses(pkg, file, &ir.types);
        }
        for t in &ir.types {
            self.typedef_chain(pkg, file, t);
            self.declaration_rules(pkg, file, &text, &t.tags, &[], None);
            for f in &t.fields {
                self.declaration_rules(pkg, file, &text, &f.tags, &f.defaults, Some(f));
            }
        }
        for c in &ir.consts {
            self.declaration_rules(pkg, file, &text, &c.tags, &[], None);
        }
    }

    /// VGC0319: every use of a vgc extension tag (a field-path constraint, `vgc_ir::extension_tags`, or a subresource
    /// condition, [`TagId::is_extension`]) on the file's types and fields, top-level or inside a chain
    /// (`eachVal=+k8s:maximum(constraint: …)`, the form per element; a chain lowering refuses is still a use). Only
    /// where extensions are enabled: otherwise each use is already the error
    /// VGC0116.
    fn extension_uses(&mut self, pkg: &str, file: SourceFile, types: &[TypeIr]) {
        for t in types {
            let on_fields = t
                .fields
                .iter()
                .map(|f| (format!("{}.{}", t.name, f.member_name()), &f.tags));
            for (on, tags) in std::iter::once((t.name.clone(), &t.tags)).chain(on_fields) {
                for u in tags {
                    let Ok(tag) = &u.parsed else { continue };
                    // A subresource condition is reported as the whole use (its payload is part of the rule).
                    if tag
                        .chain()
                        .any(|x| x.tag_id().is_some_and(TagId::is_extension))
                    {
                        let span = self.span(file, u.at);
                        let owner = TypeKey {
                            pkg: pkg.to_string(),
                            name: t.name.clone(),
                        };
                        let virtual_field = tag.chain().any(|x| {
                            matches!(
                                x.tag_id(),
                                Some(
                                    TagId::MemberOf
                                        | TagId::ListMapItem
                                        | TagId::Union
                                        | TagId::ZeroOrOneOf
                                )
                            )
                        });
                        self.subresource_conditions(&owner, &on, tag, file, span.clone());
                        self.report(
                            LintDiagnostic::ExtensionUse {
                                on: on.clone(),
                                tag: tag.to_string(),
                                kind: if virtual_field {
                                    ExtensionKind::VirtualField
                                } else {
                                    ExtensionKind::SubresourceCondition
                                },
                            }
                            .diagnostic(),
                            file,
                            span,
                        );
                        continue;
                    }
                    if let Some(c) = tag.chain().find_map(vgc_ir::extension_tags::constraint_tag) {
                        // The form per element is shown whole (`eachVal=+k8s:maximum(constraint: …)`).
                        let written = if vgc_ir::extension_tags::each_val_constraint(tag).is_some()
                        {
                            tag.to_string()
                        } else {
                            tag.chain()
                                .find(|x| vgc_ir::extension_tags::constraint_tag(x).is_some())
                                .map_or_else(|| tag.to_string(), ToString::to_string)
                        };
                        let span = self.span(file, u.at);
                        self.report(
                            LintDiagnostic::ExtensionUse {
                                on: on.clone(),
                                tag: written,
                                kind: ExtensionKind::Constraint(c.kind),
                            }
                            .diagnostic(),
                            file,
                            span,
                        );
                    }
                }
            }
        }
    }

    /// VGC0320: each subresource condition of `tag` (a use on type `owner` or one of its fields, named `on`) whose
    /// path no root type reaching `owner` serves, or that contradicts an outer condition of the same chain
    /// (`ifSubresource("/a")` inside `ifSubresource("/b")`, or inside `ifNotSubresource("/a")`).
    fn subresource_conditions(
        &mut self,
        owner: &TypeKey,
        on: &str,
        tag: &Tag,
        file: SourceFile,
        span: std::ops::Range<usize>,
    ) {
        let served = self.served_by_roots_reaching(owner);
        let mut outer: Vec<(bool, &str)> = Vec::new();
        for t in tag.chain() {
            let negated = match t.tag_id() {
                Some(TagId::IfSubresource) => false,
                Some(TagId::IfNotSubresource) => true,
                _ => continue,
            };
            let Some(Scalar::Str(path)) = t.positional().map(|a| &a.value) else {
                continue;
            };
            let contradicts = outer.iter().any(|(n, p)| match (n, negated) {
                (false, false) => *p != path,
                (false, true) | (true, false) => *p == path,
                (true, true) => false,
            });
            let unserved = served.as_ref().is_some_and(|s| !s.contains(path.as_str()));
            if contradicts || unserved {
                self.report(
                    LintDiagnostic::SubresourceUnserved {
                        on: on.to_string(),
                        tag: tag.to_string(),
                        path: path.clone(),
                        negated,
                        served: if contradicts {
                            Vec::new()
                        } else {
                            served.iter().flatten().cloned().collect()
                        },
                    }
                    .diagnostic(),
                    file,
                    span.clone(),
                );
            }
            outer.push((negated, path));
        }
    }

    /// The subresource paths served by the root types that reach `owner` (itself a root, or below one), or `None`
    /// when no root reaches it (nothing to check against).
    fn served_by_roots_reaching(
        &mut self,
        owner: &TypeKey,
    ) -> Option<std::collections::BTreeSet<String>> {
        if self.served.is_none() {
            let extra: Vec<String> = vgc_ir::Settings::try_get(self.db)
                .map(|s| s.extra_roots(self.db).clone())
                .unwrap_or_default();
            let roots = types::all_roots(self.db, self.prog, &extra, &mut Vec::new());
            let mut map: HashMap<TypeKey, std::collections::BTreeSet<String>> = HashMap::new();
            for r in &roots {
                let Some((decl, _)) = self.prog.type_decl(self.db, r) else {
                    continue;
                };
                let paths = types::served_subresources(self.db, decl);
                for t in types::reachable(self.db, std::slice::from_ref(r)) {
                    map.entry(t).or_default().extend(paths.iter().cloned());
                }
            }
            self.served = Some(map);
        }
        self.served.as_ref().and_then(|m| m.get(owner)).cloned()
    }

    /// VGC0313: `type A B` where `B` is itself a typedef (not a struct) whose type-level tags validate: upstream
    /// resolves `A` to its underlying type and never applies `B`'s tags (the KEP's n-deep typedef problem).
    fn typedef_chain(&mut self, pkg: &str, file: SourceFile, t: &TypeIr) {
        if t.is_alias || matches!(t.ty, TypeExpr::Struct(_)) {
            return;
        }
        let mut chain = vec![t.name.clone()];
        let mut lost: Vec<String> = Vec::new();
        let mut cur = types::resolve(self.db, self.prog, pkg, file, &t.ty);
        for _ in 0..16 {
            let Ty::Named(k) = &cur else { break };
            let Some((decl, dfile)) = self.prog.type_decl(self.db, k) else {
                break;
            };
            if matches!(decl.ty, TypeExpr::Struct(_)) {
                break;
            }
            chain.push(k.name.clone());
            for u in &decl.tags {
                if let Ok(tag) = &u.parsed
                    && emits(tag)
                {
                    lost.push(format!("+{tag} on {}", k.name));
                }
            }
            let next = types::resolve(self.db, self.prog, &k.pkg, dfile, &decl.ty);
            cur = next;
        }
        if lost.is_empty() {
            return;
        }
        if let Ty::Builtin(b) = &cur {
            chain.push(format!("{b:?}").to_lowercase());
        }
        let span = self.span(file, t.at);
        self.report(
            LintDiagnostic::TypedefChain {
                ty: t.name.clone(),
                lost: lost.clone(),
                chain: chain.clone(),
            }
            .diagnostic(),
            file,
            span,
        );
    }

    /// VGC0311, VGC0314–VGC0317 on one declaration's tags.
    fn declaration_rules(
        &mut self,
        pkg: &str,
        file: SourceFile,
        text: &str,
        tags: &[TagUse],
        defaults: &[TagUse],
        field: Option<&FieldIr>,
    ) {
        let mut seen: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        // (wrapper level, tag name) → (payload text, span) for single-valued tags
        // Keyed by (stability wrapper, tag).
        let mut single: BTreeMap<(Option<TagId>, TagId), String> = BTreeMap::new();
        let mut requiredness: BTreeMap<Option<TagId>, Vec<(TagId, std::ops::Range<usize>)>> =
            BTreeMap::new();
        // VGC0321: the constant bounds and eq/neq values of each stability level, with their spans.
        let mut bounds: BTreeMap<Option<TagId>, Vec<BoundUse>> = BTreeMap::new();
        for u in tags {
            let Ok(tag) = &u.parsed else { continue };
            if catalog::lookup(&u.name).is_none() {
                continue;
            }
            let span = self.span(file, u.at);
            let written = text.get(span.clone()).unwrap_or("").to_string();
            // VGC0317: canonical spelling.
            if let Some(canon) = vgc_parser::tags::canonical_spelling(&written)
                && canon != written.trim()
            {
                self.report(
                    LintDiagnostic::Spelling {
                        canonical: canon.clone(),
                    }
                    .diagnostic()
                    .with_fix(span.clone(), canon.clone()),
                    file,
                    span.clone(),
                );
            }
            // VGC0316: since versions.
            for t in tag.chain() {
                if matches!(t.tag_id(), Some(TagId::Alpha | TagId::Beta))
                    && let Some(arg) = t.arg("since")
                {
                    let ok = matches!(&arg.value, Scalar::Str(v) if v.strip_prefix("1.").is_some_and(|m| !m.is_empty() && m.len() <= 3 && m.bytes().all(|b| b.is_ascii_digit())));
                    if !ok {
                        self.report(
                            LintDiagnostic::Since {
                                tag: t.name.clone(),
                                value: arg.value.to_string(),
                            }
                            .diagnostic(),
                            file,
                            span.clone(),
                        );
                    }
                }
            }
            // VGC0315: exact duplicates, and conflicting values of single-valued tags at one stability level.
            let key = vgc_parser::tags::canonical_spelling(&written).unwrap_or(written.clone());
            if !seen.insert(key.clone()) {
                self.report(
                    LintDiagnostic::DuplicateTag { tag: key.clone() }.diagnostic(),
                    file,
                    span.clone(),
                );
            }
            let inner = unwrap_levels(tag);
            let Some(inner_id) = inner.tag_id() else {
                continue;
            };
            let level = tag.tag_id().filter(|id| *id != inner_id);
            // A field-path constraint (vgc extension) is another rule than the constant bound of the same name:
            // `minimum=0` and `minimum(constraint: minValue)` together do not conflict.
            let constraint = vgc_ir::extension_tags::constraint_tag(inner).is_some();
            if !constraint && inner_id.spec().single_value {
                let payload = inner
                    .scalar_value()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                match single.get(&(level, inner_id)) {
                    Some(prev) if *prev != payload => self.report(
                        LintDiagnostic::ConflictingValues {
                            tag: inner.name.clone(),
                            first: prev.clone(),
                            second: payload.clone(),
                        }
                        .diagnostic(),
                        file,
                        span.clone(),
                    ),
                    _ => {
                        single.insert((level, inner_id), payload);
                    }
                }
            }
            if !constraint
                && matches!(
                    inner_id,
                    TagId::Minimum
                        | TagId::Maximum
                        | TagId::MinLength
                        | TagId::MaxLength
                        | TagId::MinItems
                        | TagId::MaxItems
                        | TagId::MinProperties
                        | TagId::MaxProperties
                        | TagId::Eq
                        | TagId::Neq
                )
                && let Some(v) = inner.scalar_value()
            {
                bounds
                    .entry(level)
                    .or_default()
                    .push((inner_id, v.clone(), span.clone()));
            }
            if matches!(
                inner_id,
                TagId::Optional | TagId::Required | TagId::Forbidden
            ) {
                requiredness
                    .entry(level)
                    .or_default()
                    .push((inner_id, span.clone()));
            }
        }
        // VGC0314: contradictions at one stability level, and with +default.
        for group in requiredness.values() {
            let mut names: Vec<&str> = group.iter().map(|(n, _)| n.name()).collect();
            names.sort_unstable();
            names.dedup();
            if names.len() > 1 {
                let span = group[1].1.clone();
                self.report(
                    LintDiagnostic::Contradiction {
                        tags: names.iter().map(|n| n.to_string()).collect(),
                    }
                    .diagnostic(),
                    file,
                    span,
                );
            }
            if let Some(d) = defaults.first() {
                for (n, span) in group {
                    let msg = match n {
                        TagId::Required => LintDiagnostic::RequiredWithDefault,
                        TagId::Forbidden => LintDiagnostic::ForbiddenWithDefault,
                        _ => continue,
                    };
                    let _ = d;
                    self.report(msg.diagnostic(), file, span.clone());
                }
            }
        }
        // VGC0321: rules no value satisfies together.
        for group in bounds.values() {
            if let Some((at, d)) = unsatisfiable(group) {
                self.report(d.diagnostic(), file, at);
            }
        }
        // VGC0311: +listType/+listMapKey twins.
        if let Some(f) = field
            && self.may_be_list(pkg, file, f)
        {
            self.list_markers(file, f);
        }
    }

    /// Whether field `f` of package `pkg` is a list (`[]T`, `*[]T`, through typedef chains) or of a type vgc cannot
    /// resolve: list metadata on anything else is already `VGC0110` ("can only be used on list types"), so VGC0311's
    /// twin and its fix would only copy the mistake.
    fn may_be_list(&self, pkg: &str, file: SourceFile, f: &FieldIr) -> bool {
        let mut ty = types::resolve(self.db, self.prog, pkg, file, &f.ty);
        for _ in 0..64 {
            ty = match ty {
                Ty::Pointer(i) => *i,
                Ty::Named(_) => match types::native(self.db, self.prog, &ty) {
                    types::Native::Other(Ty::Named(_)) | types::Native::Struct(_) => {
                        return false;
                    }
                    types::Native::Other(t) => t,
                },
                Ty::Slice(_) | Ty::Unresolved(..) => return true,
                _ => return false,
            };
        }
        false
    }

    /// VGC0311: the OpenAPI markers `+listType`/`+listMapKey` and their `+k8s:` twins must agree.
    fn list_markers(&mut self, file: SourceFile, f: &FieldIr) {
        let value = |u: &TagUse| -> Option<String> {
            u.parsed.as_ref().ok().and_then(|t| {
                unwrap_levels(t).scalar_value().map(|v| match v {
                    Scalar::Str(s) => s.clone(),
                    other => other.to_string(),
                })
            })
        };
        let plain_type = f.markers.iter().find(|u| u.name == "listType");
        let k8s_type = f.tags.iter().find(|u| {
            u.parsed
                .as_ref()
                .is_ok_and(|t| unwrap_levels(t).is_tag(TagId::ListType))
        });
        let field = f.member_name();
        // Only set and map semantics matter to validation (atomic is every list's default on both sides).
        let keyed = |v: &Option<String>| matches!(v.as_deref(), Some("set" | "map"));
        let (pv, kv) = (plain_type.and_then(value), k8s_type.and_then(value));
        match (plain_type, k8s_type) {
            (Some(p), None) if keyed(&pv) => {
                let v = pv.clone().unwrap_or_default();
                let span = self.span(file, p.at);
                // The twin, and for a list-map the key twins too (a k8s list-map without keys is an error).
                let mut twins = vec![format!("+k8s:listType={v}")];
                if v == "map" {
                    twins.extend(
                        f.markers
                            .iter()
                            .filter(|u| u.name == "listMapKey")
                            .filter_map(value)
                            .map(|k| format!("+k8s:listMapKey={k}")),
                    );
                }
                let (at, text) = insert_lines_after(file.text(self.db), span.start, &twins);
                self.report(
                    LintDiagnostic::ListTypeWithoutTwin {
                        field: field.to_string(),
                        value: v.to_string(),
                        twins: twins.clone(),
                    }
                    .diagnostic()
                    .with_fix(at, text),
                    file,
                    span,
                );
            }
            (None, Some(k)) if keyed(&kv) => {
                let v = kv.clone().unwrap_or_default();
                let span = self.span(file, k.at);
                let mut twins = vec![format!("+listType={v}")];
                if v == "map" {
                    twins.extend(
                        f.tags
                            .iter()
                            .filter(|u| {
                                u.parsed
                                    .as_ref()
                                    .is_ok_and(|t| unwrap_levels(t).is_tag(TagId::ListMapKey))
                            })
                            .filter_map(value)
                            .map(|k| format!("+listMapKey={k}")),
                    );
                }
                let (at, text) = insert_lines_after(file.text(self.db), span.start, &twins);
                self.report(
                    LintDiagnostic::K8sListTypeWithoutTwin {
                        field: field.to_string(),
                        value: v.to_string(),
                        twins: twins.clone(),
                    }
                    .diagnostic()
                    .with_fix(at, text),
                    file,
                    span,
                );
            }
            (Some(_), Some(k)) if pv != kv => {
                let span = self.span(file, k.at);
                self.report(
                    LintDiagnostic::ListTypesDisagree {
                        field: field.to_string(),
                        plain: pv.clone().unwrap_or_default(),
                        k8s: kv.clone().unwrap_or_default(),
                    }
                    .diagnostic(),
                    file,
                    span,
                );
            }
            _ => {}
        }
        // Keys are compared when both sides declare a list-map.
        if pv.as_deref() != Some("map") || kv.as_deref() != Some("map") {
            return;
        }
        let plain_keys: Vec<String> = f
            .markers
            .iter()
            .filter(|u| u.name == "listMapKey")
            .filter_map(value)
            .collect();
        let k8s_keys: Vec<String> = f
            .tags
            .iter()
            .filter(|u| {
                u.parsed
                    .as_ref()
                    .is_ok_and(|t| unwrap_levels(t).is_tag(TagId::ListMapKey))
            })
            .filter_map(value)
            .collect();
        let (mut a, mut b) = (plain_keys.clone(), k8s_keys.clone());
        a.sort();
        b.sort();
        if a != b {
            let span = self.span(file, f.at);
            self.report(
                LintDiagnostic::ListMapKeysDisagree {
                    field: field.to_string(),
                    plain: plain_keys.clone(),
                    k8s: k8s_keys.clone(),
                }
                .diagnostic(),
                file,
                span,
            );
        }
    }

    /// VGC0312: an option spelled both quoted and unquoted across the program, or an `ifEnabled`/`ifDisabled`
    /// option that differs from the field's `+featureGate`.
    fn option_spelling(&mut self) {
        // option → [(quoted, file, span)]
        let mut uses: BTreeMap<String, Vec<(bool, SourceFile, std::ops::Range<usize>)>> =
            BTreeMap::new();
        let mut gate_mismatch = Vec::new();
        for p in self.prog.packages.values().filter(|p| p.target) {
            for file in &p.files {
                let ir = vgc_ir::db::file_ir(self.db, *file).clone();
                let text = file.text(self.db).clone();
                let mut visit = |tags: &[TagUse],
                                 gate: Option<String>,
                                 at: &mut Vec<(
                    String,
                    String,
                    SourceFile,
                    std::ops::Range<usize>,
                )>| {
                    for u in tags {
                        let Ok(tag) = &u.parsed else { continue };
                        for t in tag.chain() {
                            if !matches!(t.tag_id(), Some(TagId::IfEnabled | TagId::IfDisabled)) {
                                continue;
                            }
                            let Some(Scalar::Str(option)) = t.positional().map(|a| &a.value) else {
                                continue;
                            };
                            let span = vgc_ir::db::span_of(self.db, *file, u.at);
                            let written = text.get(span.clone()).unwrap_or("");
                            let quoted = written.contains(&format!("({option:?})"));
                            uses.entry(option.clone()).or_default().push((
                                quoted,
                                *file,
                                span.clone(),
                            ));
                            if let Some(g) = &gate
                                && g != option
                            {
                                at.push((option.clone(), g.clone(), *file, span));
                            }
                        }
                    }
                };
                for t in &ir.types {
                    visit(&t.tags, None, &mut gate_mismatch);
                    for f in &t.fields {
                        let gate =
                            f.markers
                                .iter()
                                .find(|m| m.name == "featureGate")
                                .and_then(|m| {
                                    m.parsed.as_ref().ok().and_then(|t| {
                                        t.scalar_value().map(|v| match v {
                                            Scalar::Str(s) => s.clone(),
                                            other => other.to_string(),
                                        })
                                    })
                                });
                        visit(&f.tags, gate, &mut gate_mismatch);
                    }
                }
                for c in &ir.consts {
                    visit(&c.tags, None, &mut gate_mismatch);
                }
            }
        }
        for (option, spans) in uses {
            let quoted = spans.iter().filter(|(q, _, _)| *q).count();
            let bare = spans.len() - quoted;
            if quoted == 0 || bare == 0 {
                continue;
            }
            // Report the minority spelling (quoted on a tie: upstream's canonical form quotes strings).
            let report_quoted = quoted < bare;
            for (q, file, span) in spans {
                if q == report_quoted {
                    self.report(
                        LintDiagnostic::OptionSpelling {
                            option: option.to_string(),
                            quoted_here: q,
                            others: if q { bare } else { quoted },
                        }
                        .diagnostic(),
                        file,
                        span,
                    );
                }
            }
        }
        for (option, gate, file, span) in gate_mismatch {
            self.report(
                LintDiagnostic::OptionNotFeatureGate {
                    option: option.to_string(),
                    gate: gate.to_string(),
                }
                .diagnostic(),
                file,
                span,
            );
        }
    }
}

/// A `vgc:ignore` directive: `// vgc:ignore VGC0303[,VGC0310]: reason`.
#[derive(Debug, Clone)]
struct Directive {
    codes: Vec<Code>,
    reason: bool,
    /// Lines (0-based) it covers: its own comment block down to the declaration line that follows.
    lines: std::ops::RangeInclusive<usize>,
    span: std::ops::Range<usize>,
    used: bool,
}

fn directives(text: &str) -> Vec<Directive> {
    let lines: Vec<&str> = text.lines().collect();
    let mut offset = 0;
    let mut starts = Vec::with_capacity(lines.len());
    for l in &lines {
        starts.push(offset);
        offset += l.len() + 1;
    }
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(at) = l.find("vgc:ignore") else {
            continue;
        };
        let Some(comment) = l.find("//") else {
            continue;
        };
        if comment > at {
            continue;
        }
        let rest = l[at + "vgc:ignore".len()..].trim();
        let (codes, reason) = rest
            .split_once(':')
            .map_or((rest, ""), |(c, r)| (c, r.trim()));
        let codes: Vec<Code> = codes
            .split(',')
            .filter_map(|c| Code::parse(c.trim()))
            .collect();
        let own_line_comment = l.trim_start().starts_with("//");
        let mut end = i;
        if own_line_comment {
            while end + 1 < lines.len() && lines[end + 1].trim_start().starts_with("//") {
                end += 1;
            }
            end = (end + 1).min(lines.len().saturating_sub(1));
        }
        out.push(Directive {
            codes,
            reason: !reason.is_empty(),
            lines: i..=end,
            span: starts[i] + at..starts[i] + l.len(),
            used: false,
        });
    }
    out
}

/// Applies `// vgc:ignore CODE[,CODE]: reason` comments: a directive suppresses diagnostics with those codes that
/// start on its own comment block or on the declaration line right below it (or, as a trailing comment, on its
/// line). A directive without a reason, or one that suppresses nothing, is itself reported (`VGC0318`).
/// `sources` maps file paths to their text.
#[must_use]
pub fn apply_suppressions(
    diags: Vec<Diagnostic>,
    sources: &BTreeMap<String, String>,
) -> Vec<Diagnostic> {
    let mut by_file: BTreeMap<&str, Vec<Directive>> = BTreeMap::new();
    for (path, text) in sources {
        if text.contains("vgc:ignore") {
            by_file.insert(path.as_str(), directives(text));
        }
    }
    let line_of =
        |text: &str, offset: usize| text.get(..offset).map_or(0, |s| s.matches('\n').count());
    let mut out = Vec::new();
    for d in diags {
        let suppressed = d.file.as_deref().and_then(|f| {
            let text = sources.get(f)?;
            let line = line_of(text, d.span.start);
            by_file
                .get_mut(f)?
                .iter_mut()
                .find(|dir| dir.codes.contains(&d.code) && dir.lines.contains(&line))
                .map(|dir| dir.used = true)
        });
        if suppressed.is_none() {
            out.push(d);
        }
    }
    for (path, dirs) in by_file {
        for dir in dirs {
            let msg = if dir.codes.is_empty() {
                LintDiagnostic::SuppressionWithoutCode
            } else if !dir.reason {
                LintDiagnostic::SuppressionWithoutReason
            } else if !dir.used {
                LintDiagnostic::SuppressionUnused
            } else {
                continue;
            };
            out.push(msg.diagnostic().at(path, dir.span.clone()).with_hint(
                "write `// vgc:ignore VGCnnnn: <why this is fine>` right above the declaration",
            ));
        }
    }
    out
}

/// What follows the comment group holding byte `at` of `text`, when it is not a blank line: the keyword of a
/// declaration validation-gen reads no tags from (`const`, `var`, `func`, `import`; `type` — the tag is unattached
/// — only for a `type (` group), or `end of file` when only comment lines follow. `None` for a blank line (a
/// detached comment) or anything else.
fn declaration_below(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let Some(line) = rest
        .split_once('\n')
        .map_or("", |(_, after)| after)
        .lines()
        .map(str::trim_start)
        .find(|l| !l.starts_with("//"))
    else {
        return Some("end of file".to_string());
    };
    let word = line.split(|c: char| !c.is_ascii_alphabetic()).next()?;
    ["const", "var", "func", "import", "type"]
        .contains(&word)
        .then(|| word.to_string())
}

/// The served subresource path closest to `path` (another case, a missing or extra `/`, or within two edits), for a
/// did-you-mean.
pub(crate) fn closest<'s>(path: &str, served: &'s [String]) -> Option<&'s String> {
    let norm = |p: &str| p.trim_matches('/').to_ascii_lowercase();
    served.iter().find(|s| norm(s) == norm(path)).or_else(|| {
        served
            .iter()
            .map(|s| (strsim::levenshtein(s, path), s))
            .filter(|(d, _)| *d <= 2)
            .min()
            .map(|(_, s)| s)
    })
}

/// A bound or `eq`/`neq` use for VGC0321: the tag, its payload, where it is written.
type BoundUse = (TagId, Scalar, std::ops::Range<usize>);

/// VGC0321 on one stability level's constant bounds and `eq`/`neq` values of a declaration: the first pair that no
/// value satisfies (a lower bound above its upper bound, for numbers, lengths, item and property counts; `eq` and
/// `neq` of one value; an integer `eq` outside `minimum`..`maximum`), located at the later of the two tags. Only
/// integer payloads are compared as numbers (quantities and other payloads are left alone).
fn unsatisfiable(group: &[BoundUse]) -> Option<(std::ops::Range<usize>, LintDiagnostic)> {
    let int = |v: &Scalar| match v {
        Scalar::Int { value, .. } => Some(*value),
        _ => None,
    };
    let written = |id: TagId, v: &Scalar| format!("+{}={v}", id.name());
    let later = |a: &std::ops::Range<usize>, b: &std::ops::Range<usize>| {
        if a.start >= b.start {
            a.clone()
        } else {
            b.clone()
        }
    };
    let pairs = [
        (TagId::Minimum, TagId::Maximum),
        (TagId::MinLength, TagId::MaxLength),
        (TagId::MinItems, TagId::MaxItems),
        (TagId::MinProperties, TagId::MaxProperties),
    ];
    for (lo_id, hi_id) in pairs {
        for (a, av, asp) in group.iter().filter(|(id, ..)| *id == lo_id) {
            for (b, bv, bsp) in group.iter().filter(|(id, ..)| *id == hi_id) {
                if let (Some(lo), Some(hi)) = (int(av), int(bv))
                    && lo > hi
                {
                    return Some((
                        later(asp, bsp),
                        LintDiagnostic::Unsatisfiable {
                            first: written(*a, av),
                            second: written(*b, bv),
                            why: format!("{lo} is above {hi}"),
                        },
                    ));
                }
            }
        }
    }
    for (a, av, asp) in group.iter().filter(|(id, ..)| *id == TagId::Eq) {
        for (b, bv, bsp) in group.iter().filter(|(id, ..)| *id != TagId::Eq) {
            let clash = match b {
                TagId::Neq => (av == bv).then(|| format!("eq and neq of {av}")),
                TagId::Minimum => int(av)
                    .zip(int(bv))
                    .filter(|(e, m)| e < m)
                    .map(|(e, m)| format!("{e} is below the minimum {m}")),
                TagId::Maximum => int(av)
                    .zip(int(bv))
                    .filter(|(e, m)| e > m)
                    .map(|(e, m)| format!("{e} is above the maximum {m}")),
                _ => None,
            };
            if let Some(why) = clash {
                return Some((
                    later(asp, bsp),
                    LintDiagnostic::Unsatisfiable {
                        first: written(*a, av),
                        second: written(*b, bv),
                        why,
                    },
                ));
            }
        }
    }
    None
}
