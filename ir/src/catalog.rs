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

/// The typed identity of a registered validation tag: one variant per entry of [`TAGS`]. Lowering and the other
/// consumers match on it exhaustively (no catch-all), so adding a tag to the catalog is a compile error in every
/// `match` that does not decide what the tag does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TagId {
    /// `k8s:alpha`
    Alpha,
    /// `k8s:beta`
    Beta,
    /// `k8s:customUnique`
    CustomUnique,
    /// `k8s:customValidation`
    CustomValidation,
    /// `k8s:dependentForbidden`
    DependentForbidden,
    /// `k8s:dependentRequired`
    DependentRequired,
    /// `k8s:eachKey`
    EachKey,
    /// `k8s:eachVal`
    EachVal,
    /// `k8s:enum`
    Enum,
    /// `k8s:enumExclude`
    EnumExclude,
    /// `k8s:forbidden`
    Forbidden,
    /// `k8s:format`
    Format,
    /// `k8s:ifDisabled`
    IfDisabled,
    /// `k8s:ifEnabled`
    IfEnabled,
    /// `k8s:ifMode`
    IfMode,
    /// `k8s:immutable`
    Immutable,
    /// `k8s:item`
    Item,
    /// `k8s:listMapKey`
    ListMapKey,
    /// `k8s:listType`
    ListType,
    /// `k8s:maxBytes`
    MaxBytes,
    /// `k8s:maxItems`
    MaxItems,
    /// `k8s:maxLength`
    MaxLength,
    /// `k8s:maxProperties`
    MaxProperties,
    /// `k8s:maximum`
    Maximum,
    /// `k8s:minItems`
    MinItems,
    /// `k8s:minLength`
    MinLength,
    /// `k8s:minProperties`
    MinProperties,
    /// `k8s:minimum`
    Minimum,
    /// `k8s:modeDiscriminator`
    ModeDiscriminator,
    /// `k8s:monotonic`
    Monotonic,
    /// `k8s:neq`
    Neq,
    /// `k8s:opaqueType`
    OpaqueType,
    /// `k8s:optional`
    Optional,
    /// `k8s:required`
    Required,
    /// `k8s:subfield`
    Subfield,
    /// `k8s:unionDiscriminator`
    UnionDiscriminator,
    /// `k8s:unionMember`
    UnionMember,
    /// `k8s:unique`
    Unique,
    /// `k8s:update`
    Update,
    /// `k8s:validateError`
    ValidateError,
    /// `k8s:validateFalse`
    ValidateFalse,
    /// `k8s:validateTrue`
    ValidateTrue,
    /// `k8s:validateTrueAlpha`
    ValidateTrueAlpha,
    /// `k8s:validateTrueBeta`
    ValidateTrueBeta,
    /// `k8s:zeroOrOneOfMember`
    ZeroOrOneOfMember,
}

impl TagId {
    /// True for upstream's testing tags (`validateError`, `validateFalse`, `validateTrue`, `validateTrueAlpha`,
    /// `validateTrueBeta`; upstream `testing.go`): they exist to test the generator and validate nothing real, so
    /// the documentation lists them apart from the tags an API author uses.
    #[must_use]
    pub const fn is_test_only(self) -> bool {
        matches!(
            self,
            TagId::ValidateError
                | TagId::ValidateFalse
                | TagId::ValidateTrue
                | TagId::ValidateTrueAlpha
                | TagId::ValidateTrueBeta
        )
    }

    /// Every tag, in the catalog's (name) order.
    pub const ALL: &'static [TagId] = &[
        TagId::Alpha,
        TagId::Beta,
        TagId::CustomUnique,
        TagId::CustomValidation,
        TagId::DependentForbidden,
        TagId::DependentRequired,
        TagId::EachKey,
        TagId::EachVal,
        TagId::Enum,
        TagId::EnumExclude,
        TagId::Forbidden,
        TagId::Format,
        TagId::IfDisabled,
        TagId::IfEnabled,
        TagId::IfMode,
        TagId::Immutable,
        TagId::Item,
        TagId::ListMapKey,
        TagId::ListType,
        TagId::MaxBytes,
        TagId::MaxItems,
        TagId::MaxLength,
        TagId::MaxProperties,
        TagId::Maximum,
        TagId::MinItems,
        TagId::MinLength,
        TagId::MinProperties,
        TagId::Minimum,
        TagId::ModeDiscriminator,
        TagId::Monotonic,
        TagId::Neq,
        TagId::OpaqueType,
        TagId::Optional,
        TagId::Required,
        TagId::Subfield,
        TagId::UnionDiscriminator,
        TagId::UnionMember,
        TagId::Unique,
        TagId::Update,
        TagId::ValidateError,
        TagId::ValidateFalse,
        TagId::ValidateTrue,
        TagId::ValidateTrueAlpha,
        TagId::ValidateTrueBeta,
        TagId::ZeroOrOneOfMember,
    ];

    /// The full tag name (`k8s:maxItems`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TagId::Alpha => "k8s:alpha",
            TagId::Beta => "k8s:beta",
            TagId::CustomUnique => "k8s:customUnique",
            TagId::CustomValidation => "k8s:customValidation",
            TagId::DependentForbidden => "k8s:dependentForbidden",
            TagId::DependentRequired => "k8s:dependentRequired",
            TagId::EachKey => "k8s:eachKey",
            TagId::EachVal => "k8s:eachVal",
            TagId::Enum => "k8s:enum",
            TagId::EnumExclude => "k8s:enumExclude",
            TagId::Forbidden => "k8s:forbidden",
            TagId::Format => "k8s:format",
            TagId::IfDisabled => "k8s:ifDisabled",
            TagId::IfEnabled => "k8s:ifEnabled",
            TagId::IfMode => "k8s:ifMode",
            TagId::Immutable => "k8s:immutable",
            TagId::Item => "k8s:item",
            TagId::ListMapKey => "k8s:listMapKey",
            TagId::ListType => "k8s:listType",
            TagId::MaxBytes => "k8s:maxBytes",
            TagId::MaxItems => "k8s:maxItems",
            TagId::MaxLength => "k8s:maxLength",
            TagId::MaxProperties => "k8s:maxProperties",
            TagId::Maximum => "k8s:maximum",
            TagId::MinItems => "k8s:minItems",
            TagId::MinLength => "k8s:minLength",
            TagId::MinProperties => "k8s:minProperties",
            TagId::Minimum => "k8s:minimum",
            TagId::ModeDiscriminator => "k8s:modeDiscriminator",
            TagId::Monotonic => "k8s:monotonic",
            TagId::Neq => "k8s:neq",
            TagId::OpaqueType => "k8s:opaqueType",
            TagId::Optional => "k8s:optional",
            TagId::Required => "k8s:required",
            TagId::Subfield => "k8s:subfield",
            TagId::UnionDiscriminator => "k8s:unionDiscriminator",
            TagId::UnionMember => "k8s:unionMember",
            TagId::Unique => "k8s:unique",
            TagId::Update => "k8s:update",
            TagId::ValidateError => "k8s:validateError",
            TagId::ValidateFalse => "k8s:validateFalse",
            TagId::ValidateTrue => "k8s:validateTrue",
            TagId::ValidateTrueAlpha => "k8s:validateTrueAlpha",
            TagId::ValidateTrueBeta => "k8s:validateTrueBeta",
            TagId::ZeroOrOneOfMember => "k8s:zeroOrOneOfMember",
        }
    }

    /// The tag named `name` (full name, `k8s:` prefix included), or `None` for a name the catalog does not know.
    #[must_use]
    pub fn from_name(name: &str) -> Option<TagId> {
        match name {
            "k8s:alpha" => Some(TagId::Alpha),
            "k8s:beta" => Some(TagId::Beta),
            "k8s:customUnique" => Some(TagId::CustomUnique),
            "k8s:customValidation" => Some(TagId::CustomValidation),
            "k8s:dependentForbidden" => Some(TagId::DependentForbidden),
            "k8s:dependentRequired" => Some(TagId::DependentRequired),
            "k8s:eachKey" => Some(TagId::EachKey),
            "k8s:eachVal" => Some(TagId::EachVal),
            "k8s:enum" => Some(TagId::Enum),
            "k8s:enumExclude" => Some(TagId::EnumExclude),
            "k8s:forbidden" => Some(TagId::Forbidden),
            "k8s:format" => Some(TagId::Format),
            "k8s:ifDisabled" => Some(TagId::IfDisabled),
            "k8s:ifEnabled" => Some(TagId::IfEnabled),
            "k8s:ifMode" => Some(TagId::IfMode),
            "k8s:immutable" => Some(TagId::Immutable),
            "k8s:item" => Some(TagId::Item),
            "k8s:listMapKey" => Some(TagId::ListMapKey),
            "k8s:listType" => Some(TagId::ListType),
            "k8s:maxBytes" => Some(TagId::MaxBytes),
            "k8s:maxItems" => Some(TagId::MaxItems),
            "k8s:maxLength" => Some(TagId::MaxLength),
            "k8s:maxProperties" => Some(TagId::MaxProperties),
            "k8s:maximum" => Some(TagId::Maximum),
            "k8s:minItems" => Some(TagId::MinItems),
            "k8s:minLength" => Some(TagId::MinLength),
            "k8s:minProperties" => Some(TagId::MinProperties),
            "k8s:minimum" => Some(TagId::Minimum),
            "k8s:modeDiscriminator" => Some(TagId::ModeDiscriminator),
            "k8s:monotonic" => Some(TagId::Monotonic),
            "k8s:neq" => Some(TagId::Neq),
            "k8s:opaqueType" => Some(TagId::OpaqueType),
            "k8s:optional" => Some(TagId::Optional),
            "k8s:required" => Some(TagId::Required),
            "k8s:subfield" => Some(TagId::Subfield),
            "k8s:unionDiscriminator" => Some(TagId::UnionDiscriminator),
            "k8s:unionMember" => Some(TagId::UnionMember),
            "k8s:unique" => Some(TagId::Unique),
            "k8s:update" => Some(TagId::Update),
            "k8s:validateError" => Some(TagId::ValidateError),
            "k8s:validateFalse" => Some(TagId::ValidateFalse),
            "k8s:validateTrue" => Some(TagId::ValidateTrue),
            "k8s:validateTrueAlpha" => Some(TagId::ValidateTrueAlpha),
            "k8s:validateTrueBeta" => Some(TagId::ValidateTrueBeta),
            "k8s:zeroOrOneOfMember" => Some(TagId::ZeroOrOneOfMember),
            _ => None,
        }
    }
}

/// A catalog entry.
#[derive(Debug, Clone, Serialize)]
pub struct TagSpec {
    /// Typed identity (the catalog's entries are built from it, so each [`TagId`] has exactly one entry).
    #[serde(skip)]
    pub id: TagId,
    /// Full tag name, e.g. `k8s:maxItems` (`id.name()`).
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
    id: TagId,
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
        id,
        name: id.name(),
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
        TagId::Alpha,
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
        TagId::Beta,
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
        TagId::CustomUnique,
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
        TagId::CustomValidation,
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
        TagId::DependentForbidden,
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
        TagId::DependentRequired,
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
        TagId::EachKey,
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
        TagId::EachVal,
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
        TagId::Enum,
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
        TagId::EnumExclude,
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
        TagId::Forbidden,
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
        TagId::Format,
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
        TagId::IfDisabled,
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
        TagId::IfEnabled,
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
        TagId::IfMode,
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
        TagId::Immutable,
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
            TagId::Item,
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
        TagId::ListMapKey,
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
        TagId::ListType,
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
        TagId::MaxBytes,
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
        TagId::MaxItems,
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
        TagId::MaxLength,
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
        TagId::MaxProperties,
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
        TagId::Maximum,
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
        TagId::MinItems,
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
        TagId::MinLength,
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
        TagId::MinProperties,
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
        TagId::Minimum,
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
        TagId::ModeDiscriminator,
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
        TagId::Monotonic,
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
        TagId::Neq,
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
        TagId::OpaqueType,
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
        TagId::Optional,
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
        TagId::Required,
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
            TagId::Subfield,
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
        TagId::UnionDiscriminator,
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
        TagId::UnionMember,
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
        TagId::Unique,
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
        TagId::Update,
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
        TagId::ValidateError,
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
        TagId::ValidateFalse,
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
        TagId::ValidateTrue,
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
        TagId::ValidateTrueAlpha,
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
        TagId::ValidateTrueBeta,
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
        TagId::ZeroOrOneOfMember,
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

/// What each of [`FORMATS`] accepts, in words (Markdown), in the same order: the documentation site's `format`
/// entry lists them. Mirrors the validators of upstream `format.go` (`k8s.io/apimachinery/pkg/api/validate/content`)
/// as `/work/shared/spec/validation-gen-semantics.md` §format describes them.
pub static FORMAT_DOCS: &[(&str, &str)] = &[
    (
        "k8s-extended-resource-name",
        "a domain-prefixed path such as `example.com/my-prop` (an extended resource name): not in the `kubernetes.io/` domain, no `requests.` prefix, and a valid label key once prefixed with `requests.`",
    ),
    (
        "k8s-label-key",
        "a label key: an optional DNS subdomain prefix and `/`, then a name of at most 63 alphanumeric characters, `-`, `_` or `.`, starting and ending with an alphanumeric character (`example.com/MyName`)",
    ),
    (
        "k8s-label-value",
        "a label value: empty, or at most 63 alphanumeric characters, `-`, `_` or `.`, starting and ending with an alphanumeric character",
    ),
    (
        "k8s-long-name",
        "a lowercase RFC 1123 subdomain: at most 253 characters, dot-separated lowercase labels (`example.com`)",
    ),
    (
        "k8s-long-name-caseless",
        "an RFC 1123 subdomain of any case: at most 253 characters, dot-separated labels (`Example.com`)",
    ),
    (
        "k8s-path-segment-name",
        "a name usable as one URL path segment: not `.` or `..`, and without `/` or `%`",
    ),
    (
        "k8s-prefixed-label-key",
        "a label key that carries a prefix (`example.com/key`)",
    ),
    (
        "k8s-resource-fully-qualified-name",
        "a domain and a C identifier separated by a slash (`example.com/my_name`)",
    ),
    (
        "k8s-resource-pool-name",
        "at most 253 characters of `/`-separated segments, each a lowercase RFC 1123 subdomain",
    ),
    (
        "k8s-short-name",
        "a lowercase RFC 1123 label: at most 63 lowercase alphanumeric characters or `-`, starting and ending with an alphanumeric character (`my-name`)",
    ),
    (
        "k8s-uuid",
        "a lowercase UUID in 8-4-4-4-12 format (`123e4567-e89b-12d3-a456-426614174000`)",
    ),
];

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
    /// Every format has exactly one description, in [`FORMATS`] order.
    #[test]
    fn every_format_has_a_description() {
        let described: Vec<&str> = FORMAT_DOCS.iter().map(|(n, _)| *n).collect();
        assert_eq!(described, FORMATS);
        assert!(FORMAT_DOCS.iter().all(|(_, d)| !d.is_empty()));
    }

    /// The test-only tags are exactly upstream's testing tags (`validateError`, `validateFalse`, `validateTrue*`).
    #[test]
    fn test_only_tags_are_the_validate_family() {
        let names: Vec<&str> = TAGS
            .iter()
            .filter(|t| t.id.is_test_only())
            .map(|t| t.name)
            .collect();
        assert_eq!(
            names,
            [
                "k8s:validateError",
                "k8s:validateFalse",
                "k8s:validateTrue",
                "k8s:validateTrueAlpha",
                "k8s:validateTrueBeta"
            ]
        );
    }

    /// The typed identity and the catalog agree: one entry per [`TagId`], in the same order, with its name.
    #[test]
    fn every_tag_id_has_exactly_one_catalog_entry() {
        let ids: Vec<TagId> = TAGS.iter().map(|t| t.id).collect();
        assert_eq!(ids, TagId::ALL);
        for t in TAGS {
            assert_eq!(t.name, t.id.name());
            assert_eq!(TagId::from_name(t.name), Some(t.id));
        }
        assert_eq!(TagId::from_name("k8s:nope"), None);
    }

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
