//! The lint rules' findings as data: one variant per finding, with its code, severity, message and hint in one
//! place ([`LintDiagnostic::diagnostic`]). Upstream's own rules (VGC0301–VGC0305) use upstream's texts
//! (`cmd/validation-gen/lint.go` / `lint_rules.go`); vgc's (VGC031x) say what to do.

use vgc_ir::catalog::Stability;
use vgc_ir::{Code, Diagnostic, Severity};

/// Upstream's spelling of a stability level in lint messages.
fn level_name(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "Alpha",
        Stability::Beta => "Beta",
        Stability::Stable => "Stable",
    }
}

/// Why a non-pointer struct field's `required`/`optional` disagrees with the struct (upstream 1.38
/// `nonPointerStructRequiredness`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ValueStructMismatch {
    /// `required` on an opaque struct: its validations are ignored.
    RequiredOpaque,
    /// `required` on a struct with no required or union member.
    RequiredNothingRequired,
    /// `optional` on a struct with a required or union member.
    OptionalButRequired,
}

/// One lint finding. `prefix` fields hold upstream's `field <name>: ` context (empty at type level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LintDiagnostic {
    /// VGC0301: `alpha`/`beta` inside a chain.
    StabilityPrefixInBetween { prefix: String, tag: String },
    /// VGC0301: `alpha`/`beta` without a payload tag.
    StabilityPrefixWithoutPayload { prefix: String, tag: String },
    /// VGC0302: a tag less stable than the validation it is part of.
    Stability {
        prefix: String,
        tag: String,
        tag_level: Stability,
        context: Stability,
    },
    /// VGC0303: a validated field without `optional`/`required`/`forbidden`.
    MissingRequiredness { field: String },
    /// VGC0304: `required`/`optional` on a non-pointer struct field that its struct contradicts.
    ValueStructRequiredness {
        field: String,
        struct_name: String,
        mismatch: ValueStructMismatch,
    },
    /// VGC0305: an `+enum` type (or struct field: `prefix` is `field <Name>: `) without `+k8s:enum`.
    EnumMarker {
        /// `field <GoName>: ` on a field (upstream `linter.AddError`), empty on a type.
        prefix: String,
    },
    /// VGC0310: a tag separated from its declaration by a blank line (`on` is `None`), written on a declaration
    /// validation-gen reads no tags from (`on`: `const`, `var`, `func`, `import`, or `type` for a `type (` group),
    /// or at the end of the file (`on`: `end of file`).
    DetachedTag { tag: String, on: Option<String> },
    /// VGC0313: type-level tags a typedef chain loses.
    TypedefChain {
        ty: String,
        lost: Vec<String>,
        chain: Vec<String>,
    },
    /// VGC0317: a non-canonical spelling (fixable).
    Spelling { canonical: String },
    /// VGC0316: a `since:` that is not a Kubernetes minor version.
    Since { tag: String, value: String },
    /// VGC0315: the same tag twice.
    DuplicateTag { tag: String },
    /// VGC0315: a single-valued tag given twice with different values.
    ConflictingValues {
        tag: String,
        first: String,
        second: String,
    },
    /// VGC0314: `optional`/`required`/`forbidden` contradicting each other at one level.
    Contradiction { tags: Vec<String> },
    /// VGC0321: two rules of one declaration (at one stability level) that no value satisfies together.
    Unsatisfiable {
        /// The first rule as written (`+k8s:minimum=10`).
        first: String,
        /// The second (`+k8s:maximum=5`).
        second: String,
        /// Why, in words (`10 is above 5`).
        why: String,
    },
    /// VGC0314: `required` with a `+default` (never fails).
    RequiredWithDefault,
    /// VGC0314: `forbidden` with a `+default` (always fails).
    ForbiddenWithDefault,
    /// VGC0311: `+listType` without its `+k8s:` twin (fixable).
    ListTypeWithoutTwin {
        field: String,
        value: String,
        twins: Vec<String>,
    },
    /// VGC0311: `+k8s:listType` without its OpenAPI twin (fixable).
    K8sListTypeWithoutTwin {
        field: String,
        value: String,
        twins: Vec<String>,
    },
    /// VGC0311: the two list types disagree.
    ListTypesDisagree {
        field: String,
        plain: String,
        k8s: String,
    },
    /// VGC0311: the two list-map key sets disagree.
    ListMapKeysDisagree {
        field: String,
        plain: Vec<String>,
        k8s: Vec<String>,
    },
    /// VGC0312: an option spelled quoted here and unquoted elsewhere (or the reverse).
    OptionSpelling {
        option: String,
        quoted_here: bool,
        others: usize,
    },
    /// VGC0312: an option that differs from the field's `+featureGate`.
    OptionNotFeatureGate { option: String, gate: String },
    /// VGC0319: a vgc extension tag (`on`: `Type.jsonName` of a field, or the type's name).
    ExtensionUse {
        on: String,
        tag: String,
        kind: ExtensionKind,
    },
    /// VGC0320: a subresource condition (`tag`, on `on`) whose `path` no root type reaching it serves (`served`),
    /// or (`served` empty) that another condition of the same chain contradicts.
    SubresourceUnserved {
        on: String,
        tag: String,
        path: String,
        negated: bool,
        served: Vec<String>,
    },
    /// VGC0318: a `vgc:ignore` naming no code.
    SuppressionWithoutCode,
    /// VGC0318: a `vgc:ignore` without a reason.
    SuppressionWithoutReason,
    /// VGC0318: a `vgc:ignore` that suppresses nothing.
    SuppressionUnused,
}

/// Which vgc extension a VGC0319 finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExtensionKind {
    /// A field-path constraint of this kind.
    Constraint(vgc_ir::extension_tags::ConstraintKind),
    /// A subresource condition (`ifSubresource`/`ifNotSubresource`).
    SubresourceCondition,
    /// A virtual-field tag (`memberOf`, `listMapItem`, `union`, `zeroOrOneOf`).
    VirtualField,
}

impl LintDiagnostic {
    /// The finding as a [`Diagnostic`] (code, severity, message, hint; no position yet).
    pub(crate) fn diagnostic(self) -> Diagnostic {
        let (code, severity) = self.code_and_severity();
        let hint = self.hint();
        let d = match severity {
            Severity::Error => Diagnostic::error(code, self.message()),
            Severity::Warning => Diagnostic::warning(code, self.message()),
        };
        d.with_hint(hint)
    }

    fn code_and_severity(&self) -> (Code, Severity) {
        use LintDiagnostic as L;
        match self {
            L::StabilityPrefixInBetween { .. } | L::StabilityPrefixWithoutPayload { .. } => {
                (Code::LintAlphaBeta, Severity::Error)
            }
            L::Stability { .. } => (Code::LintStability, Severity::Error),
            L::MissingRequiredness { .. } => (Code::LintRequiredness, Severity::Error),
            L::ValueStructRequiredness { .. } => {
                (Code::LintValueStructRequiredness, Severity::Error)
            }
            L::EnumMarker { .. } => (Code::LintEnumMarker, Severity::Error),
            L::DetachedTag { .. } => (Code::LintDetachedTag, Severity::Warning),
            L::TypedefChain { .. } => (Code::LintTypedefChain, Severity::Warning),
            L::Spelling { .. } => (Code::LintSpelling, Severity::Warning),
            L::Since { .. } => (Code::LintSince, Severity::Warning),
            L::DuplicateTag { .. } | L::ConflictingValues { .. } => {
                (Code::LintDuplicate, Severity::Warning)
            }
            L::Contradiction { .. } => (Code::LintContradiction, Severity::Error),
            L::Unsatisfiable { .. } => (Code::LintUnsatisfiable, Severity::Warning),
            L::RequiredWithDefault | L::ForbiddenWithDefault => {
                (Code::LintContradiction, Severity::Warning)
            }
            L::ListTypeWithoutTwin { .. }
            | L::K8sListTypeWithoutTwin { .. }
            | L::ListTypesDisagree { .. }
            | L::ListMapKeysDisagree { .. } => (Code::LintListMarker, Severity::Warning),
            L::OptionSpelling { .. } | L::OptionNotFeatureGate { .. } => {
                (Code::LintOptionName, Severity::Warning)
            }
            L::SuppressionWithoutCode | L::SuppressionWithoutReason | L::SuppressionUnused => {
                (Code::LintSuppression, Severity::Warning)
            }
            L::ExtensionUse { .. } => (Code::LintUpstreamCompat, Severity::Warning),
            L::SubresourceUnserved { .. } => (Code::SubresourceUnserved, Severity::Warning),
        }
    }

    fn message(&self) -> String {
        use LintDiagnostic as L;
        match self {
            L::StabilityPrefixInBetween { prefix, tag } => {
                format!("{prefix}tag {tag:?} can't be used in between")
            }
            L::StabilityPrefixWithoutPayload { prefix, tag } => {
                format!("{prefix}tag {tag:?} requires a validation tag as its value payload")
            }
            L::Stability {
                prefix,
                tag,
                tag_level,
                context,
            } => format!(
                "{prefix}tag {tag:?} with stability level {:?} cannot be used in {} validation",
                level_name(*tag_level),
                level_name(*context)
            ),
            L::MissingRequiredness { field } => format!(
                "field {field}: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden"
            ),
            L::ValueStructRequiredness {
                field,
                struct_name,
                mismatch,
            } => {
                let detail = match mismatch {
                    ValueStructMismatch::RequiredOpaque => format!(
                        "+k8s:required on non-pointer opaque struct {struct_name}: its validations are ignored, so the field is effectively optional"
                    ),
                    ValueStructMismatch::RequiredNothingRequired => format!(
                        "+k8s:required on non-pointer struct {struct_name}: it has no required or union member, so the field is effectively optional"
                    ),
                    ValueStructMismatch::OptionalButRequired => format!(
                        "+k8s:optional on non-pointer struct {struct_name}: it has a required or union member, so the field is effectively required"
                    ),
                };
                format!("field {field}: {detail}")
            }
            L::EnumMarker { prefix } => format!("{prefix}+enum requires +k8s:enum to be set"),
            L::DetachedTag { tag, on: None } => {
                format!("+{tag} is not attached to a declaration: a blank line separates it")
            }
            L::DetachedTag { tag, on: Some(on) } if on == "end of file" => {
                format!(
                    "+{tag} is at the end of the file, with no declaration below it; it has no effect"
                )
            }
            L::DetachedTag { tag, on: Some(on) } if on == "type" => format!(
                "+{tag} is in the comment of a `type (` group, not of a type in it; it has no effect"
            ),
            L::DetachedTag { tag, on: Some(on) } => {
                let article = if on.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                format!(
                    "+{tag} is in the comment of {article} `{on}` declaration, where validation-gen does not read it; it has no effect"
                )
            }
            L::TypedefChain { ty, lost, chain } => format!(
                "type {ty}: validation-gen does not apply {} to its values; it follows the typedef chain {} to the underlying type",
                lost.join(", "),
                chain.join(" → ")
            ),
            L::Spelling { canonical } => format!("non-canonical spelling: write +{canonical}"),
            L::ExtensionUse { on, tag, kind } => {
                use vgc_ir::extension_tags::ConstraintKind as K;
                let (what, upstream) = match kind {
                    // upstream's `minimum`/`maximum` declare no arguments: its tag check refuses the form (v0.37.2:
                    // `failed to generate validations: field …: tag "k8s:minimum": unrecognized named argument …`).
                    ExtensionKind::Constraint(K::Minimum | K::Maximum) => (
                        "field-path constraint",
                        "upstream validation-gen refuses it (`unrecognized named argument`) and generates nothing for the package",
                    ),
                    // Not registered upstream: its extractor never reads it.
                    ExtensionKind::Constraint(K::ExclusiveMinimum | K::ExclusiveMaximum) => (
                        "field-path constraint",
                        "upstream validation-gen does not know the tag and ignores it: the rule is not enforced there",
                    ),
                    ExtensionKind::SubresourceCondition => (
                        "subresource condition",
                        "upstream validation-gen does not know the tag and ignores it with its payload: the rule is not enforced there on any request",
                    ),
                    ExtensionKind::VirtualField => (
                        "virtual field",
                        "upstream validation-gen does not know the tag and ignores it: the group is not checked there",
                    ),
                };
                format!("{on}: +{tag} is a vgc extension ({what}); {upstream}")
            }
            L::SubresourceUnserved {
                on,
                tag,
                path,
                negated,
                served,
            } => {
                let effect = if *negated {
                    "the rule runs on every request"
                } else {
                    "the rule never runs"
                };
                if served.is_empty() {
                    format!(
                        "{on}: +{tag}: the condition on {path:?} contradicts an outer condition of the chain: the rule never runs"
                    )
                } else {
                    format!(
                        "{on}: +{tag}: no root type reaching this rule serves the subresource {path:?} (served: {}): {effect}",
                        served.join(", ")
                    )
                }
            }
            L::Since { tag, value } => {
                format!("{tag}: since: {value} is not a Kubernetes minor version")
            }
            L::DuplicateTag { tag } => format!("duplicate tag +{tag}"),
            L::ConflictingValues { tag, first, second } => {
                format!("{tag} is given twice with different values ({first} and {second})")
            }
            L::Contradiction { tags } => format!("{} contradict each other", tags.join(" and ")),
            L::Unsatisfiable { first, second, why } => format!(
                "{first} and {second} leave no valid value ({why}): no value set here passes both"
            ),
            L::RequiredWithDefault => {
                "a field with +default is never missing, so k8s:required never fails".to_string()
            }
            L::ForbiddenWithDefault => {
                "a field with +default is always set, so k8s:forbidden always fails".to_string()
            }
            L::ListTypeWithoutTwin { field, value, .. } => format!(
                "field {field}: +listType={value} has no +k8s:listType twin; validation does not see it"
            ),
            L::K8sListTypeWithoutTwin { field, value, .. } => format!(
                "field {field}: +k8s:listType={value} has no +listType twin; OpenAPI and server-side apply do not see it"
            ),
            L::ListTypesDisagree { field, plain, k8s } => {
                format!("field {field}: +listType={plain} and +k8s:listType={k8s} disagree")
            }
            L::ListMapKeysDisagree { field, plain, k8s } => format!(
                "field {field}: +listMapKey ({}) and +k8s:listMapKey ({}) name different keys",
                plain.join(", "),
                k8s.join(", ")
            ),
            L::OptionSpelling {
                option,
                quoted_here,
                others,
            } => {
                let (this, other) = spellings(*quoted_here);
                format!(
                    "option {option} is written {this} here and {other} in {others} other places"
                )
            }
            L::OptionNotFeatureGate { option, gate } => {
                format!("option {option} differs from the field's +featureGate={gate}")
            }
            L::SuppressionWithoutCode => "vgc:ignore names no diagnostic code".to_string(),
            L::SuppressionWithoutReason => "vgc:ignore without a reason".to_string(),
            L::SuppressionUnused => "vgc:ignore suppresses nothing".to_string(),
        }
    }

    fn hint(&self) -> String {
        use LintDiagnostic as L;
        match self {
            L::StabilityPrefixInBetween { .. } | L::StabilityPrefixWithoutPayload { .. } => {
                "write the stability prefix first: `+k8s:alpha(since: \"1.NN\")=+k8s:<tag>`".into()
            }
            L::Stability { tag_level, .. } => format!(
                "prefix it with `+k8s:{}(since: \"1.NN\")=`, or gate it with `+k8s:ifEnabled(<Option>)=`",
                if *tag_level == Stability::Alpha { "alpha" } else { "beta" }
            ),
            L::MissingRequiredness { .. } => {
                "add `+k8s:optional` (or `+k8s:required`) to the field".into()
            }
            L::ValueStructRequiredness { .. } => "a non-pointer struct field is never nil: mark a member `+k8s:required`, make the field a pointer, or change `required`/`optional` to what the struct implies".into(),
            L::EnumMarker { .. } => "add `+k8s:enum` so the values are validated, or `+k8s:validation-gen-nolint` to opt the type out".into(),
            L::DetachedTag { on: None, .. } => {
                "remove the blank line between this comment and the declaration it belongs to".into()
            }
            L::DetachedTag { tag, on: Some(_) } if tag == "k8s:enum" => {
                "write it directly above the `type` declaration of the constants' type".into()
            }
            L::DetachedTag { on: Some(_), .. } => {
                "write it directly above the type or field it applies to".into()
            }
            L::TypedefChain { ty, .. } => {
                format!("repeat the tags on {ty}, or declare it from the underlying type directly")
            }
            L::Spelling { .. } => "`vgc lint --fix` rewrites it".into(),
            L::ExtensionUse { .. } => "vgc's generated code and `vgc validate` enforce it; an API server built from upstream's generated code needs the same rule hand-written or as a CEL rule (docs/extensions.md). Accepted uses: `vgc lint --write-baseline`, or `-A VGC0319`".into(),
            L::SubresourceUnserved { served, .. } if served.is_empty() => {
                "a request has one subresource path: keep the condition you mean and drop the other".into()
            }
            L::SubresourceUnserved { path, served, .. } => match crate::lint::closest(path, served) {
                Some(s) => format!("did you mean {s:?}? Subresource paths are compared exactly; a root serves them by `+k8s:supportsSubresource`/`+k8s:isSubresource`"),
                None => "subresource paths are compared exactly; a root serves them by `+k8s:supportsSubresource`/`+k8s:isSubresource` (`/` is the resource itself)".into(),
            },
            L::Since { .. } => {
                "write the release that introduced it, e.g. `since: \"1.37\"`".into()
            }
            L::DuplicateTag { .. } => "remove the repeated line".into(),
            L::ConflictingValues { .. } => "keep the one value that is meant".into(),
            L::Contradiction { .. } => {
                "keep exactly one of optional, required and forbidden (per stability level)".into()
            }
            L::Unsatisfiable { .. } => "correct the bound that is wrong (or drop one of the two rules)".into(),
            L::RequiredWithDefault | L::ForbiddenWithDefault => {
                "use `+k8s:optional` with a default, or drop the default".into()
            }
            L::ListTypeWithoutTwin { twins, .. } | L::K8sListTypeWithoutTwin { twins, .. } => {
                format!("add `{}` next to it (`vgc lint --fix` does)", twins.join("`, `"))
            }
            L::ListTypesDisagree { .. } => "make both say the same list type".into(),
            L::ListMapKeysDisagree { .. } => "list the same key fields in both".into(),
            L::OptionSpelling {
                quoted_here,
                others,
                ..
            } => {
                let (_, other) = spellings(*quoted_here);
                format!("spell it the same everywhere ({others} uses are {other})")
            }
            L::OptionNotFeatureGate { .. } => {
                "gate the validation on the same option the field is gated on".into()
            }
            L::SuppressionWithoutCode | L::SuppressionWithoutReason | L::SuppressionUnused => {
                "write `// vgc:ignore VGCnnnn: <why this is fine>` right above the declaration".into()
            }
        }
    }
}

/// (this use's spelling, the other spelling) of an option name.
fn spellings(quoted_here: bool) -> (&'static str, &'static str) {
    if quoted_here {
        ("quoted", "unquoted")
    } else {
        ("unquoted", "quoted")
    }
}
