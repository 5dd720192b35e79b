//! The tag catalog: one entry per upstream validation-gen tag (name, scopes, args, payload, stability, flags),
//! plus the generator-control tags and the allow-list of other generators' tags. Tag checking, lowering and
//! documentation all read this table.
//!
//! upstream: `k8s.io/code-generator/cmd/validation-gen/validators/*.go` (each validator's `Docs()`).

use serde::Serialize;

/// Where a tag is written. The `Display` strings are upstream's scope names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Scope {
    /// A type declaration's comment.
    Type,
    /// A struct field's comment.
    Field,
    /// Inside `eachVal` on a list.
    ListVal,
    /// Inside `eachKey` on a map.
    MapKey,
    /// Inside `eachVal` on a map.
    MapVal,
    /// A constant's comment.
    Const,
}

impl Scope {
    /// Upstream's wording (`tag "X" cannot be specified on <scope>`).
    #[must_use]
    pub fn upstream_name(self) -> &'static str {
        match self {
            Scope::Type => "type definitions",
            Scope::Field => "struct fields",
            Scope::ListVal => "list values",
            Scope::MapKey => "map keys",
            Scope::MapVal => "map values",
            Scope::Const => "constant values",
        }
    }
}

/// Stability level of a tag (used by the stability lint) or of a check (error marking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Stability {
    /// Alpha.
    Alpha,
    /// Beta.
    Beta,
    /// Stable.
    Stable,
}

/// Scalar type of an argument or payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ValueKind {
    /// `string`
    String,
    /// `int`
    Int,
    /// `bool`
    Bool,
    /// A chained tag.
    Tag,
    /// Any scalar (upstream `raw`).
    Raw,
}

impl ValueKind {
    /// Upstream type name.
    #[must_use]
    pub fn upstream_name(self) -> &'static str {
        match self {
            ValueKind::String => "string",
            ValueKind::Int => "int",
            ValueKind::Bool => "bool",
            ValueKind::Tag => "tag",
            ValueKind::Raw => "raw",
        }
    }
}

/// One declared argument. `name == ""` is the positional argument.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ArgSpec {
    /// Argument name; `""` for positional.
    pub name: &'static str,
    /// Type.
    pub kind: ValueKind,
    /// Must be present.
    pub required: bool,
    /// What it means.
    pub docs: &'static str,
}

/// Function flags of a tag's checks (upstream `ShortCircuit` / `NonError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Flags {
    /// Failing stops later checks of the same cohort.
    pub short_circuit: bool,
    /// The check's errors are not reported (it only controls short-circuiting).
    pub non_error: bool,
}

/// How far vgc has taken a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Lowering {
    /// Parsed, checked and lowered to runtime checks.
    Lowered,
    /// Parsed and checked; produces no runtime check itself (metadata or wrapper that is lowered via others).
    Metadata,
    /// Parsed and checked; lowering belongs to a later milestone. Each use is reported as a warning.
    NotYet,
}

/// A catalog entry.
#[derive(Debug, Clone, Serialize)]
pub struct TagSpec {
    /// Full tag name, e.g. `k8s:maxItems`.
    pub name: &'static str,
    /// Where the tag may be written.
    pub scopes: &'static [Scope],
    /// Declared arguments.
    pub args: &'static [ArgSpec],
    /// Unknown named args are accepted (only `k8s:item`).
    pub accepts_unknown_args: bool,
    /// Payload type, `None` for payload-less tags (any payload is then an error).
    pub payload: Option<ValueKind>,
    /// The payload must be present.
    pub payload_required: bool,
    /// The tag's own stability level.
    pub stability: Stability,
    /// Flags of the checks it produces (wrappers inherit their payload's flags instead).
    pub flags: Flags,
    /// Lowering status in this vgc version.
    pub lowering: Lowering,
    /// One-line description.
    pub docs: &'static str,
}

use Scope::{Const as C, Field as F, ListVal as LV, MapKey as MK, MapVal as MV, Type as T};

const ALL5: &[Scope] = &[T, F, LV, MK, MV];
const SC: Flags = Flags {
    short_circuit: true,
    non_error: false,
};
const NONE: Flags = Flags {
    short_circuit: false,
    non_error: false,
};

const fn arg(name: &'static str, kind: ValueKind, required: bool, docs: &'static str) -> ArgSpec {
    ArgSpec {
        name,
        kind,
        required,
        docs,
    }
}

#[allow(clippy::too_many_arguments)]
const fn tag(
    name: &'static str,
    scopes: &'static [Scope],
    args: &'static [ArgSpec],
    payload: Option<ValueKind>,
    payload_required: bool,
    stability: Stability,
    flags: Flags,
    lowering: Lowering,
    docs: &'static str,
) -> TagSpec {
    TagSpec {
        name,
        scopes,
        args,
        accepts_unknown_args: false,
        payload,
        payload_required,
        stability,
        flags,
        lowering,
        docs,
    }
}

use Lowering::{Lowered as L, Metadata as M};
use Stability::{Alpha, Beta, Stable};
use ValueKind::{Int, Raw, String as Str, Tag as TagV};

const SINCE: &[ArgSpec] = &[arg(
    "since",
    Str,
    false,
    "the Kubernetes version (`<major>.<minor>`) the level applies since",
)];
const OPTION: &[ArgSpec] = &[arg(
    "",
    Str,
    true,
    "the name of the validation option (feature gate)",
)];
const UNION: &[ArgSpec] = &[arg(
    "union",
    Str,
    false,
    "the union's name, for types with several unions",
)];
const MEMBER: &[ArgSpec] = &[
    arg(
        "union",
        Str,
        false,
        "the union's name, for types with several unions",
    ),
    arg(
        "memberName",
        Str,
        false,
        "the member's name in discriminator values (default: the field's Go name)",
    ),
];
const TEST_ARGS: &[ArgSpec] = &[
    arg(
        "flags",
        Str,
        false,
        "comma-separated function flags: ShortCircuit, NonError",
    ),
    arg("typeArg", Str, false, "an explicit generic type argument"),
    arg("cohort", Str, false, "the cohort the check belongs to"),
];

/// Every registered validation tag, sorted by name (upstream's 45).
pub static TAGS: &[TagSpec] = &[
    tag(
        "k8s:alpha",
        ALL5,
        SINCE,
        Some(TagV),
        true,
        Beta,
        NONE,
        L,
        "Marks the payload's checks as alpha: their errors are marked alpha and not enforced.",
    ),
    tag(
        "k8s:beta",
        ALL5,
        SINCE,
        Some(TagV),
        true,
        Beta,
        NONE,
        L,
        "Marks the payload's checks as beta: their errors are marked beta.",
    ),
    tag(
        "k8s:customUnique",
        ALL5,
        &[],
        None,
        false,
        Stable,
        NONE,
        M,
        "The list's uniqueness is checked by hand-written code; no uniqueness check is generated.",
    ),
    tag(
        "k8s:customValidation",
        &[T, F],
        &[],
        None,
        false,
        Stable,
        NONE,
        L,
        "Calls a hand-written ValidateCustom_<Type>[_<Field>] function.",
    ),
    tag(
        "k8s:dependentForbidden",
        &[F],
        &[arg("", Str, true, "the JSON name of the sibling field")],
        None,
        false,
        Alpha,
        NONE,
        L,
        "When this field is set, the named sibling must not be set.",
    ),
    tag(
        "k8s:dependentRequired",
        &[F],
        &[arg("", Str, true, "the JSON name of the sibling field")],
        None,
        false,
        Alpha,
        NONE,
        L,
        "When this field is set, the named sibling must be set.",
    ),
    tag(
        "k8s:eachKey",
        ALL5,
        &[],
        Some(TagV),
        true,
        Stable,
        NONE,
        L,
        "Applies the payload validation to every key of a map.",
    ),
    tag(
        "k8s:eachVal",
        ALL5,
        &[],
        Some(TagV),
        true,
        Stable,
        NONE,
        L,
        "Applies the payload validation to every value of a list or map.",
    ),
    tag(
        "k8s:enum",
        &[T],
        &[],
        None,
        false,
        Stable,
        NONE,
        L,
        "The string type is an enum: values must be one of its typed constants.",
    ),
    tag(
        "k8s:enumExclude",
        &[C],
        &[],
        None,
        false,
        Alpha,
        NONE,
        L,
        "Excludes this constant from its enum (usually under ifEnabled/ifDisabled).",
    ),
    tag(
        "k8s:forbidden",
        &[F],
        &[],
        None,
        false,
        Beta,
        SC,
        L,
        "The field must not be set.",
    ),
    tag(
        "k8s:format",
        ALL5,
        &[],
        Some(Str),
        true,
        Stable,
        NONE,
        L,
        "The string must have the named format.",
    ),
    tag(
        "k8s:ifDisabled",
        &[T, F, LV, MK, MV, C],
        OPTION,
        Some(TagV),
        true,
        Stable,
        NONE,
        L,
        "Applies the payload only when the option is disabled.",
    ),
    tag(
        "k8s:ifEnabled",
        &[T, F, LV, MK, MV, C],
        OPTION,
        Some(TagV),
        true,
        Stable,
        NONE,
        L,
        "Applies the payload only when the option is enabled.",
    ),
    tag(
        "k8s:ifMode",
        &[F],
        &[
            arg("", Str, false, "the mode value"),
            arg("modality", Str, false, "the modality (discriminator) name"),
            arg("mode", Str, false, "the mode value"),
        ],
        Some(TagV),
        true,
        Stable,
        NONE,
        L,
        "Applies the payload when the mode discriminator has the given value; the field is forbidden otherwise.",
    ),
    tag(
        "k8s:immutable",
        &[F, T, LV, MV],
        &[],
        None,
        false,
        Stable,
        SC,
        L,
        "The value may not change once set (any change on update is an error).",
    ),
    TagSpec {
        accepts_unknown_args: true,
        ..tag(
            "k8s:item",
            ALL5,
            &[],
            Some(TagV),
            true,
            Stable,
            NONE,
            L,
            "Applies the payload to the list-map item whose keys have the given values.",
        )
    },
    tag(
        "k8s:listMapKey",
        ALL5,
        &[],
        Some(Str),
        true,
        Stable,
        NONE,
        M,
        "Names a key field (JSON name) of a listType=map list.",
    ),
    tag(
        "k8s:listType",
        ALL5,
        &[],
        Some(Str),
        true,
        Stable,
        NONE,
        L,
        "The list's semantics: atomic, set or map.",
    ),
    tag(
        "k8s:maxBytes",
        ALL5,
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The string may have at most N bytes.",
    ),
    tag(
        "k8s:maxItems",
        &[T, F, LV, MV],
        &[],
        Some(Int),
        true,
        Stable,
        SC,
        L,
        "The list may have at most N items.",
    ),
    tag(
        "k8s:maxLength",
        ALL5,
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The string may have at most N characters.",
    ),
    tag(
        "k8s:maxProperties",
        &[T, F],
        &[],
        Some(Int),
        true,
        Stable,
        SC,
        L,
        "The map may have at most N entries.",
    ),
    tag(
        "k8s:maximum",
        ALL5,
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The integer must be at most N.",
    ),
    tag(
        "k8s:minItems",
        &[T, F, LV, MV],
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The list must have at least N items.",
    ),
    tag(
        "k8s:minLength",
        ALL5,
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The string must have at least N characters.",
    ),
    tag(
        "k8s:minProperties",
        &[T, F],
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The map must have at least N entries.",
    ),
    tag(
        "k8s:minimum",
        ALL5,
        &[],
        Some(Int),
        true,
        Stable,
        NONE,
        L,
        "The integer must be at least N.",
    ),
    tag(
        "k8s:modeDiscriminator",
        &[F],
        &[arg("modality", Str, false, "the modality name")],
        None,
        false,
        Stable,
        NONE,
        L,
        "This field selects the mode for ifMode rules.",
    ),
    tag(
        "k8s:monotonic",
        &[T, F],
        &[],
        None,
        false,
        Alpha,
        NONE,
        L,
        "The integer may not decrease on update.",
    ),
    tag(
        "k8s:neq",
        ALL5,
        &[],
        Some(Raw),
        true,
        Alpha,
        NONE,
        L,
        "The value must not equal the payload.",
    ),
    tag(
        "k8s:opaqueType",
        ALL5,
        &[],
        None,
        false,
        Stable,
        NONE,
        L,
        "Do not validate the referenced type's own rules here.",
    ),
    tag(
        "k8s:optional",
        &[F],
        &[],
        None,
        false,
        Stable,
        Flags {
            short_circuit: true,
            non_error: true,
        },
        L,
        "The field may be unset; when unset, its other checks are skipped. On a non-pointer struct field it is documentation only (no check) in the 1.38 profile (kubernetes#136779) and an error before.",
    ),
    tag(
        "k8s:required",
        &[F],
        &[],
        None,
        false,
        Stable,
        SC,
        L,
        "The field must be set. On a non-pointer struct field (never nil) it is documentation only (no check; the struct's own rules still run) in the 1.38 profile (kubernetes#136779) and an error before.",
    ),
    TagSpec {
        ..tag(
            "k8s:subfield",
            ALL5,
            &[arg("", Str, true, "the JSON name of the member field")],
            Some(TagV),
            true,
            Stable,
            NONE,
            L,
            "Applies the payload to a member of this struct.",
        )
    },
    tag(
        "k8s:unionDiscriminator",
        &[F, LV],
        UNION,
        None,
        false,
        Beta,
        NONE,
        L,
        "This field names the union member that is set.",
    ),
    tag(
        "k8s:unionMember",
        &[F, LV],
        MEMBER,
        None,
        false,
        Stable,
        NONE,
        L,
        "Exactly one member of the union must be set.",
    ),
    tag(
        "k8s:unique",
        ALL5,
        &[],
        Some(Str),
        true,
        Stable,
        NONE,
        L,
        "Items must be unique as a set or by list-map keys.",
    ),
    tag(
        "k8s:update",
        &[F, LV, MV],
        &[],
        Some(Str),
        false,
        Stable,
        SC,
        L,
        "Restricts updates: NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem.",
    ),
    tag(
        "k8s:validateError",
        ALL5,
        &[],
        Some(Str),
        true,
        Alpha,
        NONE,
        L,
        "Test tag: always fails generation.",
    ),
    tag(
        "k8s:validateFalse",
        ALL5,
        TEST_ARGS,
        Some(Str),
        false,
        Alpha,
        NONE,
        L,
        "Test tag: always fails validation.",
    ),
    tag(
        "k8s:validateTrue",
        ALL5,
        TEST_ARGS,
        Some(Str),
        false,
        Alpha,
        NONE,
        L,
        "Test tag: never fails.",
    ),
    tag(
        "k8s:validateTrueAlpha",
        ALL5,
        TEST_ARGS,
        Some(Str),
        false,
        Alpha,
        NONE,
        L,
        "Test tag: never fails (alpha).",
    ),
    tag(
        "k8s:validateTrueBeta",
        ALL5,
        TEST_ARGS,
        Some(Str),
        false,
        Beta,
        NONE,
        L,
        "Test tag: never fails (beta).",
    ),
    tag(
        "k8s:zeroOrOneOfMember",
        &[F, LV],
        MEMBER,
        None,
        false,
        Stable,
        NONE,
        L,
        "At most one member of the group may be set.",
    ),
];

/// Generator-control tags read by vgc itself (package or type comments; raw values).
pub static CONTROL_TAGS: &[&str] = &[
    "k8s:validation-gen",
    "k8s:validation-gen-input",
    "k8s:validation-gen-scheme-registry",
    "k8s:validation-gen-test-fixture",
    "k8s:validation-gen-test-targets",
    "k8s:validation-gen-nolint",
    "k8s:isSubresource",
    "k8s:supportsSubresource",
];

/// Prefixes of other generators' `+k8s:` tags, which vgc accepts without checking.
pub static OTHER_GENERATORS: &[&str] = &[
    "k8s:deepcopy-gen",
    "k8s:openapi-gen",
    "k8s:openapi-model-package",
    "k8s:prerelease-lifecycle-gen",
    "k8s:conversion-gen",
    "k8s:conversion-fn",
    "k8s:defaulter-gen",
    "k8s:protobuf-gen",
    "k8s:protobuf",
    "k8s:register-gen",
    "k8s:deprecated",
    "k8s:openapi-gen-input",
    "k8s:applyconfiguration-gen",
    "k8s:listers-gen",
    "k8s:informers-gen",
    "k8s:client-gen",
];

/// Looks a validation tag up by full name.
#[must_use]
pub fn lookup(name: &str) -> Option<&'static TagSpec> {
    TAGS.binary_search_by(|t| t.name.cmp(name))
        .ok()
        .map(|i| &TAGS[i])
}

/// The `+k8s:format` name of a lowered format, without the release qualifier a profile may add
/// (`k8s-resource-fully-qualified-name@1.38` → `k8s-resource-fully-qualified-name`;
/// `vgc_ir::profile::Upstream::format_release`).
#[must_use]
pub fn format_name(lowered: &str) -> &str {
    lowered.split_once('@').map_or(lowered, |(name, _)| name)
}

/// True for generator-control tags and other generators' tags (accepted without validation-tag checking).
#[must_use]
pub fn is_allowed_non_validation(name: &str) -> bool {
    CONTROL_TAGS.contains(&name)
        || OTHER_GENERATORS.iter().any(|p| {
            name == *p
                || name
                    .strip_prefix(p)
                    .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('-'))
        })
}

/// The closest known tag name to `name` (Levenshtein distance ≤ 3), for did-you-mean hints. Names whose length
/// differs from a candidate's by more than 3 cannot be within that distance and are not compared, so the cost is
/// bounded by the longest tag name whatever the input's length (R25: a 1 MiB name took 14 s).
#[must_use]
pub fn suggest(name: &str) -> Option<&'static str> {
    let len = name.chars().count();
    let lower = name.to_ascii_lowercase();
    TAGS.iter()
        .map(|t| t.name)
        .chain(CONTROL_TAGS.iter().copied())
        .filter(|n| n.chars().count().abs_diff(len) <= 3)
        .map(|n| (levenshtein(&lower, &n.to_ascii_lowercase()), n))
        .filter(|(d, _)| *d <= 3)
        .min()
        .map(|(_, n)| n)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The formats `k8s:format` accepts (upstream `format.go`).
pub static FORMATS: &[&str] = &[
    "k8s-extended-resource-name",
    "k8s-label-key",
    "k8s-label-value",
    "k8s-long-name",
    "k8s-long-name-caseless",
    "k8s-path-segment-name",
    "k8s-prefixed-label-key",
    "k8s-resource-fully-qualified-name",
    "k8s-resource-pool-name",
    "k8s-short-name",
    "k8s-uuid",
];

#[cfg(test)]
mod tests {
    /// R25: did-you-mean stays instant on a 1 MiB unknown name (it took 14 s) and still finds near misses.
    #[test]
    fn r25_suggestions_are_bounded_by_the_tag_names() {
        assert_eq!(super::suggest(&"k".repeat(1 << 20)), None);
        assert_eq!(super::suggest("k8s:maxLenght"), Some("k8s:maxLength"));
    }

    use super::*;
    #[test]
    fn catalog_is_sorted_and_complete() {
        assert!(
            TAGS.windows(2).all(|w| w[0].name < w[1].name),
            "sorted for binary search"
        );
        assert_eq!(TAGS.len(), 45);
        assert_eq!(
            lookup("k8s:maxItems").map(|t| t.flags.short_circuit),
            Some(true)
        );
        assert!(lookup("k8s:item").is_some_and(|t| t.accepts_unknown_args));
        assert_eq!(suggest("k8s:requird"), Some("k8s:required"));
        assert_eq!(suggest("k8s:maxitems"), Some("k8s:maxItems"));
        assert!(is_allowed_non_validation("k8s:deepcopy-gen:interfaces"));
        assert!(is_allowed_non_validation(
            "k8s:prerelease-lifecycle-gen:introduced"
        ));
        assert!(!is_allowed_non_validation("k8s:requird"));
    }
}
