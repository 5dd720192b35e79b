//! Diagnostics as data: severity, a stable `VGCnnnn` code, a message, a byte span in a file, and a hint.

use serde::Serialize;

/// Severity of a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    /// Something vgc cannot compile; `vgc build` exits 1 and writes nothing.
    Error,
    /// Something the user should know (a skipped region, a tag not lowered yet).
    Warning,
}

/// Declares [`Code`] and its registry from one table: for each code its variant, stable `VGCnnnn` string, kebab-case
/// name, default severity and rationale. [`ALL_CODES`], [`Code::as_str`], [`Code::name`], [`Code::rationale`] and
/// [`Code::default_severity`] are generated from it, so they cannot disagree.
macro_rules! declare_codes {
    ($($(#[$doc:meta])* $variant:ident = ($code:literal, $name:literal, $severity:ident, $rationale:literal)),* $(,)?) => {
        /// Stable diagnostic codes. The number never changes meaning; see `docs/diagnostics.md`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        /// Every code, in numeric order.
        pub const ALL_CODES: &[Code] = &[$(Code::$variant),*];

        impl Code {
            /// The stable code string, e.g. `VGC0102`.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// A short kebab-case name (SARIF `rule.name`), e.g. `unknown-tag`.
            #[must_use]
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// The one-line rationale: why the rule exists (SARIF `rule.fullDescription`, `docs/diagnostics.md`).
            #[must_use]
            pub fn rationale(self) -> &'static str {
                match self {
                    $(Code::$variant => $rationale,)*
                }
            }

            /// The severity vgc gives the code unless `vgc.toml` or `-W/-D/-A` change it (lint rules only).
            #[must_use]
            pub fn default_severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }
        }
    };
}

declare_codes! {
    /// VGC0001: a region of a Go file could not be parsed, or the file has no package clause (an error, as upstream's
    /// gengo refuses a package with a parse error; vgc still reads every other declaration and reports on them).
    GoSyntax = ("VGC0001", "go-syntax", Error, "Go, and so upstream validation-gen (gengo refuses a package with a parse error), refuses a file with a syntax error; vgc reads and checks every other declaration, but not those in the broken region, and does not report what follows only from them (a type another file cannot resolve, a tag that looks detached)."),
    /// VGC0002: a file or directory could not be read.
    Io = ("VGC0002", "io", Error, "A file or directory could not be read, so its declarations are missing."),
    /// VGC0003: an imported module is not in the module cache or vendor/.
    MissingModule = ("VGC0003", "missing-module", Error, "An imported module is neither vendored nor in the module cache, so its types cannot be resolved."),
    /// VGC0004: a referenced package or type could not be resolved.
    Unresolved = ("VGC0004", "unresolved", Error, "A referenced package or type could not be resolved; its validation cannot be generated."),
    /// VGC0005: the package-level `k8s:validation-gen` settings are invalid.
    GeneratorConfig = ("VGC0005", "generator-config", Error, "The package's `+k8s:validation-gen` settings decide the root types; invalid ones would silently select the wrong types."),
    /// VGC0006: a Go package that Go itself refuses (a redeclared type, two package clauses in one directory, an
    /// invalid recursive type) or that exceeds one of vgc's documented limits (`docs/reliability.md`).
    InvalidGo = ("VGC0006", "invalid-go", Error, "Go refuses this package, or it exceeds a documented vgc limit; generating from it would give code that does not compile or a partial validator."),
    /// VGC0101: a tag line does not parse.
    TagSyntax = ("VGC0101", "tag-syntax", Error, "A tag that does not parse is ignored by upstream without a word; vgc refuses it."),
    /// VGC0102: an unknown `+k8s:` tag.
    UnknownTag = ("VGC0102", "unknown-tag", Error, "An unknown or misspelled `+k8s:` tag validates nothing; upstream ignores it silently."),
    /// VGC0103: a tag in a scope it does not support.
    WrongScope = ("VGC0103", "wrong-scope", Error, "A tag in a place it does not apply to (type, field, list value, map key or value) generates nothing or the wrong thing."),
    /// VGC0104: a required argument is missing.
    MissingArg = ("VGC0104", "missing-arg", Error, "The tag cannot be lowered without this argument."),
    /// VGC0105: an argument the tag does not declare.
    UnknownArg = ("VGC0105", "unknown-arg", Error, "An argument the tag does not declare is a typo or a misunderstanding of the tag."),
    /// VGC0106: an argument of the wrong type.
    ArgType = ("VGC0106", "arg-type", Error, "An argument of the wrong type cannot mean what was intended."),
    /// VGC0107: a required payload is missing.
    MissingPayload = ("VGC0107", "missing-payload", Error, "The tag needs a value to validate against."),
    /// VGC0108: a payload of the wrong type, or a payload on a tag that takes none.
    PayloadType = ("VGC0108", "payload-type", Error, "A payload of the wrong type, or a payload on a tag that takes none, cannot mean what was intended."),
    /// VGC0109: a payload value the tag does not accept (unknown format, bad listType, out-of-range limit).
    InvalidPayload = ("VGC0109", "invalid-payload", Error, "A payload value the tag does not accept (unknown format, list type, out-of-range limit)."),
    /// VGC0110: the tag does not apply to the field's or type's Go type.
    TypeMismatch = ("VGC0110", "type-mismatch", Error, "The tag does not apply to the Go type it is written on; upstream fails generation."),
    /// VGC0111: list metadata (listType/listMapKey/unique) is inconsistent.
    ListMetadata = ("VGC0111", "list-metadata", Error, "List items are identified by list metadata; inconsistent metadata makes uniqueness and update rules meaningless."),
    /// VGC0112: a Go type shape validation-gen does not support.
    UnsupportedType = ("VGC0112", "unsupported-type", Error, "validation-gen cannot generate validation for this Go type shape."),
    /// VGC0113: two Go names that differ become the same name in the generated Rust crate.
    RustNameClash = ("VGC0113", "rust-name-clash", Error, "Two Go names that differ become the same Rust name (a module, type, trait, function or field of the generated crate), so the crate would not compile or would lose one of them; rename one."),
    /// VGC0114: two packages declare the same group, version and kind (warning); GVK dispatch reaches only the first.
    DuplicateKind = ("VGC0114", "duplicate-kind", Warning, "An API server registers one type per group, version and kind; when two packages declare the same kind, the generated registry and `vgc validate` dispatch to the first by import path and never reach the other."),
    /// VGC0115: a `+default` value that does not fit its field's type (warning); `vgc validate` does not apply it.
    DefaultMismatch = ("VGC0115", "default-mismatch", Warning, "The API server's defaulting (defaulter-gen) assigns a field's `+default` value as Go code; a value of another JSON type, or an integer out of range, gives code that does not compile, so it is never applied. `vgc validate` leaves it out too and says so here, instead of reporting the manifest."),
    /// VGC0116: a vgc extension tag (`docs/extensions.md`) used while `vgc.toml` does not enable extensions.
    ExtensionDisabled = ("VGC0116", "extension-disabled", Error, "vgc's extensions are KEP-5073 rules upstream validation-gen never built, so an API that relies on them validates differently under upstream; using one is an explicit choice (`[extensions] enabled = true` in vgc.toml)."),
    /// VGC0117: a field-path constraint whose path names no field (did-you-mean over the JSON names in scope).
    ConstraintUnknownPath = ("VGC0117", "constraint-unknown-path", Error, "A field-path constraint compares with another field named by its JSON path; a path that names no field would compare with nothing."),
    /// VGC0118: a field-path constraint whose path goes into a list or map.
    ConstraintPathIntoList = ("VGC0118", "constraint-path-into-list", Error, "A path through a list or map names no single value to compare with (KEP-5073 selects list items with `item`, which field paths do not support yet)."),
    /// VGC0119: a field-path constraint between values that cannot be compared.
    ConstraintTypeMismatch = ("VGC0119", "constraint-type-mismatch", Error, "Field-path constraints compare values of one kind: integers (any width; per element, the items of a list or map), `resource.Quantity` values (numerically) or `metav1.Duration` values (by length); a constrained or referenced field of another type, or two fields of different kinds, cannot be compared."),
    /// VGC0120: a field-path constraint written where or how it is not supported.
    ConstraintForm = ("VGC0120", "constraint-form", Error, "Field-path constraints are hoisted to the parent struct of the field they are written on, or written on that struct with `target:`; per element only as `eachVal`'s payload directly on a list or map field; elsewhere (a type without `target:`, a non-struct type, map keys, inside another tag) or with other arguments there is no parent to hoist to or nothing to compare."),
    /// VGC0121: the k8s-openapi target lacks a type or field the validators need (or has it with another shape).
    K8sOpenapiMissing = ("VGC0121", "openapi-target-missing", Error, "The k8s-openapi target runs the validators on the structs of the k8s-openapi crate; a type or field the rules need that the chosen k8s-openapi version does not have (or types differently, or flattens away) could not be validated, so the build stops instead of skipping the rule."),
    /// VGC0122: a kind the k8s-openapi target leaves out because the chosen k8s-openapi version lacks it (warning).
    K8sOpenapiKindLeftOut = ("VGC0122", "openapi-target-kind-left-out", Warning, "k8s-openapi has the group/versions the API server serves; a kind it does not have cannot be held in k8s-openapi structs, so the k8s-openapi target leaves it (and its rules) out of the generated crate and says so here."),
    /// VGC0123: field-path constraints of one struct that form a cycle with a strict bound (`a > b >= a`).
    ConstraintCycle = ("VGC0123", "constraint-cycle", Error, "Field-path constraints order fields; a cycle of them with an exclusive bound (`a > b` while `b >= a`) can never hold while all its fields are set, so every such object would be refused."),
    /// VGC0124: a subresource condition (`ifSubresource`/`ifNotSubresource`, vgc extension) around a tag that makes
    /// no check of the value.
    SubresourceConditionForm = ("VGC0124", "subresource-condition-form", Error, "A subresource condition runs or skips the checks of the tag it wraps, depending on the request's subresource; requiredness, list metadata, struct-level tags (unions, modes, dependent fields) and `item` make no check of the value they are written on (or need the same answer on every request), so there is nothing to condition and the rule would be dropped."),
    /// VGC0125: a virtual group (vgc extension) whose members and declaration do not match within one root type:
    /// `memberOf` naming a group the root type does not declare, a declaration no field joins, or a group declared
    /// both `union` and `zeroOrOneOf`.
    VirtualGroupUnknown = ("VGC0125", "virtual-group-unknown", Error, "Virtual groups are named per root type (GVK, KEP-5073 \"Virtual Field Scope\"): `+k8s:memberOf(group: g)` joins the group that `+k8s:union(union: g)` or `+k8s:zeroOrOneOf(union: g)` declares somewhere in the same root type's tree; a member without a declaration, or a declaration without members, would check nothing."),
    /// VGC0126: a virtual-field tag (vgc extension) written where it names no single field of the object.
    VirtualFieldPlacement = ("VGC0126", "virtual-field-placement", Error, "A virtual field is one field (or one list-map item) of the object: `memberOf` inside the items of a list or map would name one field per item, a field without a JSON name has no path to report, and the tags are read only written directly on a field (not inside another tag's payload); `listMapItem` takes only `memberOf`."),
    /// VGC0127: a virtual group whose check would run on a struct that another root type also reaches without it.
    VirtualGroupCrossesRoots = ("VGC0127", "virtual-group-crosses-roots", Error, "A virtual group's check runs on the closest struct holding all its members; generated validation is per Go type, so when another root type (or a list item) reaches that struct without the same group the check would run there too. KEP-5073 rejects cross-GVK references: keep the group's members in types its root type alone reaches, or declare the group alike in every root type that reaches them."),
    /// VGC0128: a kubebuilder-style marker written with validation-gen's prefix (`+k8s:validation:Required`):
    /// a tag name of several `:`-separated segments that no generator owns (warning; an error with
    /// `[build.severity] VGC0128 = "error"`).
    MarkerStyleTag = ("VGC0128", "marker-style-tag", Warning, "Validation-gen's tag names have one segment (`+k8s:required`); a name of several (`+k8s:validation:Required`, kubebuilder's `+kubebuilder:validation:Required` spelled with `k8s:`) is no validation-gen tag and can be no typo of one, so upstream ignores it and so does vgc — with a warning, because the author most likely meant a rule that is not there. Upstream's own suite carries such markers, so it is no error by default; `[build.severity] VGC0128 = \"error\"` makes it one."),
    /// VGC0129: the Go target (`--target go`, `vgc validation-gen`) cannot print a rule of a package yet: no file
    /// is written for any package of the build.
    GoBackendUnsupported = ("VGC0129", "go-backend-unsupported", Error, "The Go target writes upstream validation-gen's file byte for byte from the plan; a rule its printer cannot print yet would be missing from the file, so no package's file is written (a partial regeneration would leave files of two generations) and each such rule is named instead."),
    /// VGC0130: `vgc openapi` (and `--crd`): a CEL rule vgc wrote that the API server's cost estimate refuses — over
    /// the per-rule budget, or in a schema whose rules together are over the per-CRD total (warning).
    CelCostOverBudget = ("VGC0130", "cel-cost-over-budget", Warning, "The API server estimates the cost of every `x-kubernetes-validations` rule of a CRD — the most one run costs, times how many times it may run below lists and maps — and refuses a CRD with a rule over 10,000,000 or rules over 100,000,000 together. A list without `maxItems`, a map without `maxProperties` and a string without `maxLength` are sized by the 3 MiB request limit, so a rule below them is easily over. vgc estimates each rule it writes as the API server does and names each one over budget: the documents are still written (a client-side validator has no budget), but a CRD with such a rule is refused."),
    /// VGC0201: a tag whose lowering is not implemented yet; no check is generated (warning).
    NotLowered = ("VGC0201", "not-lowered", Warning, "A tag vgc parses and checks but generates no code for — not lowered yet, or a use that has no effect (no check, no consumer reads it); it is reported so nothing is dropped silently."),
    /// VGC0301 (lint, upstream `alphaBetaPrefix`): `k8s:alpha`/`k8s:beta` not outermost, or without a payload.
    LintAlphaBeta = ("VGC0301", "alpha-beta-prefix", Error, "Stability prefixes mark the whole chain they start; inside a chain or without a payload they mark nothing (upstream lint rule)."),
    /// VGC0302 (lint, upstream `validationStability`): a tag less stable than its context.
    LintStability = ("VGC0302", "validation-stability", Error, "A validation must be at least as stable as the API version it guards; an alpha tag in a stable API would change behaviour without a gate (upstream lint rule)."),
    /// VGC0303 (lint, upstream `requiredAndOptional`): a validated field without optional/required/forbidden.
    LintRequiredness = ("VGC0303", "required-and-optional", Error, "A validated field must say whether it may be unset, or its validation runs on absent values (upstream lint rule)."),
    /// VGC0304 (lint, upstream 1.38 `nonPointerStructRequiredness`): `required`/`optional` on a non-pointer struct
    /// field that the struct's members contradict.
    LintValueStructRequiredness = ("VGC0304", "non-pointer-struct-requiredness", Error, "A non-pointer struct field is never nil: `required`/`optional` on it only document it, so they must agree with the struct's own required or union members (upstream 1.38 lint rule, kubernetes#141637)."),
    /// VGC0305 (lint, upstream 1.38): an `+enum` type without `+k8s:enum`.
    LintEnumMarker = ("VGC0305", "enum-marker", Error, "`+enum` tells OpenAPI the values are closed; without `+k8s:enum` nothing validates them (upstream 1.38 lint rule, kubernetes#142102)."),
    /// VGC0310 (lint): `+k8s:` tags separated from their declaration by a blank line.
    LintDetachedTag = ("VGC0310", "detached-tag", Warning, "Tags are read from the comment directly above a type or field: tags a blank line separates from it, tags on a `const`, `var`, `func` or `import` declaration or a `type (` group, and tags at the end of a file are read from a different declaration, or not at all."),
    /// VGC0311 (lint): `+listType`/`+listMapKey` and `+k8s:listType`/`+k8s:listMapKey` disagree or one is missing.
    LintListMarker = ("VGC0311", "list-marker-twin", Warning, "`+listType`/`+listMapKey` drive OpenAPI and server-side apply, `+k8s:` twins drive validation; when they disagree the two see different lists."),
    /// VGC0312 (lint): an option name spelled inconsistently, or disagreeing with `+featureGate=`.
    LintOptionName = ("VGC0312", "option-name", Warning, "Options are matched by exact name; a spelling that differs from the field's `+featureGate` or from other uses gates nothing."),
    /// VGC0313 (lint): a typedef chain deeper than one level whose inner type-level tags are not applied.
    LintTypedefChain = ("VGC0313", "typedef-chain", Warning, "Upstream applies the type-level tags of a field's own type only; tags on types further down a typedef chain are lost (the KEP's n-deep typedef problem)."),
    /// VGC0314 (lint): contradictory `optional`/`required`/`forbidden`/`+default`.
    LintContradiction = ("VGC0314", "requiredness-contradiction", Error, "Contradictory requiredness tags or defaults make the field's rule depend on tag order."),
    /// VGC0315 (lint): a duplicate or redundant tag.
    LintDuplicate = ("VGC0315", "duplicate-tag", Warning, "A repeated or redundant tag adds nothing and hides which value is meant."),
    /// VGC0316 (lint): a malformed `since:` version.
    LintSince = ("VGC0316", "since-version", Warning, "`since:` must name a Kubernetes minor version (\"1.37\") so stability can be tracked."),
    /// VGC0317 (lint): a non-canonical tag spelling (auto-fixable).
    LintSpelling = ("VGC0317", "canonical-spelling", Warning, "One spelling per tag keeps reviews and drift comparison simple; `vgc lint --fix` rewrites it."),
    /// VGC0318 (lint): a `vgc:ignore` suppression without a reason, or one that suppresses nothing.
    LintSuppression = ("VGC0318", "suppression", Warning, "A suppression must say why, and must still suppress something."),
    /// VGC0319 (lint): a use of a vgc extension tag (`docs/extensions.md`), which upstream validation-gen does not
    /// implement: reported where extensions are enabled, so every place that validates differently under upstream
    /// is listed.
    LintUpstreamCompat = ("VGC0319", "upstream-compat", Warning, "vgc's extensions are rules upstream validation-gen does not build: generated with upstream, the API enforces none of them (or fails to generate). Each use is listed so a project that also runs upstream's generator knows what differs; accept them with a baseline, or `-A VGC0319` once the choice is made."),
    /// VGC0320 (lint, vgc extension): a subresource condition that names a subresource no root type reaching it
    /// serves, or that contradicts another condition of its chain.
    SubresourceUnserved = ("VGC0320", "subresource-condition-unserved", Warning, "A subresource condition compares the request's subresource path exactly; a path no root type reaching the rule serves (a typo, another case, a trailing `/`) never matches, so an `ifSubresource` rule never runs and an `ifNotSubresource` rule runs on every request — usually the opposite of what was meant."),
    /// VGC0321 (lint): rules of one declaration no value satisfies (`minimum` above `maximum`, `minLength` above
    /// `maxLength`, `eq` and `neq` of one value, `eq` outside the bounds).
    LintUnsatisfiable = ("VGC0321", "unsatisfiable-rules", Warning, "Bounds that exclude each other (a minimum above the maximum, `eq` and `neq` of one value) leave no valid value: every object that sets the field is refused, which is almost always a typo in one bound."),
    /// VGC0401 (lint): a field's validation differs between versions of one API group.
    Drift = ("VGC0401", "version-drift", Warning, "Versions of one API serve the same objects; a rule that differs between them lets an object valid in one version fail in another."),
    /// VGC0402 (lint): a drift exception that matches no drift.
    StaleException = ("VGC0402", "stale-exception", Warning, "An accepted difference that no longer exists hides the next real one."),
    /// VGC0403 (lint): a field's tag declarations differ between versions of one API group while its lowered
    /// validation agrees (e.g. `+k8s:listType=atomic` in one version only).
    DeclarationDrift = ("VGC0403", "declaration-drift", Warning, "Tags declared in one version of a type and not in another read as different intent even when today's rules agree; the next edit to one version silently makes them drift."),
}

impl Code {
    /// The code for a `VGCnnnn` string (as written in `vgc.toml` and `vgc:ignore` comments); `None` if unknown.
    #[must_use]
    pub fn parse(s: &str) -> Option<Code> {
        ALL_CODES.iter().copied().find(|c| c.as_str() == s)
    }

    /// True for upstream validation-gen's own lint rules (VGC0301–VGC0305; which of them run depends on the
    /// upstream profile), as opposed to vgc's (VGC031x) and drift (VGC04xx).
    #[must_use]
    pub fn is_upstream_lint(self) -> bool {
        matches!(
            self,
            Code::LintAlphaBeta
                | Code::LintStability
                | Code::LintRequiredness
                | Code::LintValueStructRequiredness
                | Code::LintEnumMarker
        )
    }

    /// True for lint rules and drift (`vgc lint` only), whose severity `vgc.toml` may change.
    #[must_use]
    pub fn is_lint(self) -> bool {
        self >= Code::LintAlphaBeta
    }
}

/// One diagnostic. `file` is the path as the driver registered it; `span` is a byte range in that file
/// (empty when the diagnostic has no position, e.g. a missing module).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Stable code.
    pub code: Code,
    /// One-line message.
    pub message: String,
    /// File path, if the diagnostic points into a file.
    pub file: Option<String>,
    /// Byte span in `file`.
    pub span: std::ops::Range<usize>,
    /// What to do about it.
    pub hint: Option<String>,
    /// A machine-applicable fix (`vgc lint --fix`, SARIF `fixes`).
    pub fix: Option<Fix>,
    /// A position not resolved to bytes yet ([`Diagnostic::at_span`]): queries that only know a span id leave it
    /// here, so that they do not read the file's span table; the driver resolves it into `span`
    /// ([`crate::db::resolve_spans`]) before sorting or printing. `None` once resolved.
    #[serde(skip)]
    pub pending: Option<SpanRef>,
}

/// A source position by span id (`crate::model::SpanId`, the `at` of a tag use, field or declaration), resolved
/// to a byte range by [`crate::db::resolve_spans`]: the id's range, or with `len` the first `len` bytes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpanRef {
    /// The file the id belongs to.
    pub file: crate::source::SourceFile,
    /// The span id.
    pub id: crate::model::SpanId,
    /// Keep only this many bytes from the start of the range (a tag's name within its whole use).
    pub len: Option<usize>,
}

/// A replacement of one byte range of the diagnostic's file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Fix {
    /// Byte range to replace.
    pub span: std::ops::Range<usize>,
    /// The new text.
    pub replacement: String,
}

impl Diagnostic {
    /// An error diagnostic.
    #[must_use]
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            message: message.into(),
            file: None,
            span: 0..0,
            hint: None,
            fix: None,
            pending: None,
        }
    }

    /// A warning diagnostic.
    #[must_use]
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }

    /// Attaches a file and byte span.
    #[must_use]
    pub fn at(mut self, file: impl Into<String>, span: std::ops::Range<usize>) -> Self {
        self.file = Some(file.into());
        self.span = span;
        self
    }

    /// Places the diagnostic in `file` (registered as `path`) at span id `id`, to be resolved to bytes by
    /// [`crate::db::resolve_spans`]; `len` keeps only the first `len` bytes of the range.
    #[must_use]
    pub fn at_span(
        mut self,
        path: impl Into<String>,
        file: crate::source::SourceFile,
        id: crate::model::SpanId,
        len: Option<usize>,
    ) -> Self {
        self.file = Some(path.into());
        self.span = 0..0;
        self.pending = Some(SpanRef { file, id, len });
        self
    }

    /// Attaches a hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Attaches a fix replacing `span` (bytes of the diagnostic's file) by `replacement`.
    #[must_use]
    pub fn with_fix(
        mut self,
        span: std::ops::Range<usize>,
        replacement: impl Into<String>,
    ) -> Self {
        self.fix = Some(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_complete_and_consistent() {
        let strs: Vec<&str> = ALL_CODES.iter().map(|c| c.as_str()).collect();
        let mut sorted = strs.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            strs, sorted,
            "ALL_CODES is in numeric order without duplicates"
        );
        for c in ALL_CODES {
            assert_eq!(Code::parse(c.as_str()), Some(*c));
            assert!(
                !c.rationale().is_empty() && c.rationale().ends_with('.'),
                "{c:?}"
            );
            assert!(
                c.name()
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch == '-'),
                "{c:?}"
            );
            assert_eq!(
                c.is_lint(),
                c.as_str().starts_with("VGC03") || c.as_str().starts_with("VGC04"),
                "{c:?}"
            );
        }
        assert_eq!(Code::parse("VGC9999"), None);
        assert_eq!(Code::LintSpelling.default_severity(), Severity::Warning);
        assert_eq!(Code::LintRequiredness.default_severity(), Severity::Error);
    }
}
