//! The tag catalog: one entry per upstream validation-gen tag (name, scopes, args, payload, stability, flags),
//! plus the generator-control tags and the allow-list of other generators' tags. Tag checking, lowering and
//! documentation all read this table.
//!
//! upstream: `k8s.io/code-generator/cmd/validation-gen/validators/*.go` (each validator's `Docs()`).

use serde::Serialize;
use vgc_runtime::formats::Format;

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
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
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

/// Declares [`TagId`] from one table of `Variant => "k8s:name"` rows (in name order): the enum, [`TagId::ALL`],
/// [`TagId::name`] and [`TagId::from_name`] are generated from it, so the four cannot disagree.
macro_rules! tag_ids {
    ($($variant:ident => $name:literal),* $(,)?) => {
        /// The typed identity of a registered validation tag: one variant per entry of [`TAGS`]. Lowering and the
        /// other consumers match on it exhaustively (no catch-all), so adding a tag to the catalog is a compile error
        /// in every `match` that does not decide what the tag does. Strings become ids only in [`TagId::from_name`]
        /// (and [`lookup`], which goes through the same table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
        #[serde(into = "&'static str", try_from = "String")]
        pub enum TagId {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl TagId {
            /// Every tag, in the catalog's (name) order.
            pub const ALL: &'static [TagId] = &[$(TagId::$variant),*];

            /// The full tag name (`k8s:maxItems`).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(TagId::$variant => $name,)*
                }
            }

            /// The tag named `name` (full name, `k8s:` prefix included), or `None` for a name the catalog does not
            /// know.
            #[must_use]
            pub fn from_name(name: &str) -> Option<TagId> {
                match name {
                    $($name => Some(TagId::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

tag_ids! {
    Alpha => "k8s:alpha",
    Beta => "k8s:beta",
    CustomUnique => "k8s:customUnique",
    CustomValidation => "k8s:customValidation",
    DependentForbidden => "k8s:dependentForbidden",
    DependentRequired => "k8s:dependentRequired",
    EachKey => "k8s:eachKey",
    EachVal => "k8s:eachVal",
    Enum => "k8s:enum",
    EnumExclude => "k8s:enumExclude",
    Eq => "k8s:eq",
    Forbidden => "k8s:forbidden",
    Format => "k8s:format",
    IfDisabled => "k8s:ifDisabled",
    IfEnabled => "k8s:ifEnabled",
    IfMode => "k8s:ifMode",
    IfNotSubresource => "k8s:ifNotSubresource",
    IfSubresource => "k8s:ifSubresource",
    Immutable => "k8s:immutable",
    Item => "k8s:item",
    ListMapItem => "k8s:listMapItem",
    ListMapKey => "k8s:listMapKey",
    ListType => "k8s:listType",
    MaxBytes => "k8s:maxBytes",
    MaxItems => "k8s:maxItems",
    MaxLength => "k8s:maxLength",
    MaxProperties => "k8s:maxProperties",
    Maximum => "k8s:maximum",
    MemberOf => "k8s:memberOf",
    MinItems => "k8s:minItems",
    MinLength => "k8s:minLength",
    MinProperties => "k8s:minProperties",
    Minimum => "k8s:minimum",
    ModeDiscriminator => "k8s:modeDiscriminator",
    Monotonic => "k8s:monotonic",
    Neq => "k8s:neq",
    OpaqueType => "k8s:opaqueType",
    Optional => "k8s:optional",
    Required => "k8s:required",
    Subfield => "k8s:subfield",
    Union => "k8s:union",
    UnionDiscriminator => "k8s:unionDiscriminator",
    UnionMember => "k8s:unionMember",
    Unique => "k8s:unique",
    Update => "k8s:update",
    ValidateError => "k8s:validateError",
    ValidateFalse => "k8s:validateFalse",
    ValidateTrue => "k8s:validateTrue",
    ValidateTrueAlpha => "k8s:validateTrueAlpha",
    ValidateTrueBeta => "k8s:validateTrueBeta",
    ZeroOrOneOf => "k8s:zeroOrOneOf",
    ZeroOrOneOfMember => "k8s:zeroOrOneOfMember",
}

impl TagId {
    /// True for upstream's testing tags ([`Family::Testing`]: `validateError`, `validateFalse`, `validateTrue`,
    /// `validateTrueAlpha`, `validateTrueBeta`; upstream `testing.go`): they exist to test the generator and validate
    /// nothing real, so the documentation lists them apart from the tags an API author uses.
    #[must_use]
    pub fn is_test_only(self) -> bool {
        self.family() == Family::Testing
    }

    /// True for vgc's extension tags ([`Family::Subresource`], [`Family::Virtual`]; `docs/extensions.md`): KEP-5073
    /// designs upstream validation-gen never built, which upstream ignores as unknown tags. Off unless `vgc.toml`
    /// enables extensions (`VGC0116`); the documentation lists them apart. (The field-path constraint forms of
    /// `minimum`/`maximum` are extensions too, but of upstream tags: `crate::extension_tags::constraint_tag`.)
    #[must_use]
    pub fn is_extension(self) -> bool {
        matches!(self.family(), Family::Subresource | Family::Virtual)
    }
}

impl From<TagId> for &'static str {
    fn from(id: TagId) -> Self {
        id.name()
    }
}

impl TryFrom<String> for TagId {
    type Error = String;

    /// The tag of a full name (as [`TagId::from_name`]); the error names an unknown tag. Used when a serialized
    /// plan is read back (`vgc validate`'s plan cache).
    fn try_from(name: String) -> Result<Self, Self::Error> {
        TagId::from_name(&name).ok_or_else(|| format!("unknown tag {name:?}"))
    }
}

impl std::fmt::Display for TagId {
    /// The full tag name, as [`TagId::name`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Declares [`Family`], one enum of its tags per family (`RequiredTag`, `LimitsTag`, …), [`FamilyTag`] and
/// [`TagId::family_tag`] / [`TagId::family`] from one table of `Family: FamilyTag { Variant, … }` rows. The
/// generated `TagId → FamilyTag` match is exhaustive: a tag no row places is a compile error here, one placed twice
/// an unreachable pattern; and each family's module matches its own enum exhaustively, so a new tag of a family is
/// a compile error in that module until it decides what the tag does.
macro_rules! families {
    ($($(#[doc = $doc:literal])* $family:ident : $tags:ident { $($tag:ident),* $(,)? }),* $(,)?) => {
        /// The family a tag belongs to: the unit a tag is followed by through every stage. Lowering dispatches a tag
        /// use to its family's module (`lowering/src/lower/<family>.rs`); the families that make checks are named
        /// after apimachinery's `pkg/api/validate/*.go` file of their functions, as the Rust codegen's
        /// `emit/checks/<family>.rs`, the interpreter's `eval/<family>.rs` and the runtime's `validate/<family>.rs`
        /// are.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub enum Family {
            $($(#[doc = $doc])* $family,)*
        }

        $(
            #[doc = concat!("The tags of [`Family::", stringify!($family), "`], for its modules' exhaustive matches.")]
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            pub enum $tags {
                $(
                    #[doc = concat!("[`TagId::", stringify!($tag), "`]")]
                    $tag,
                )*
            }
        )*

        /// A tag as a member of its family: the family and the tag within it ([`TagId::family_tag`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum FamilyTag {
            $(
                #[doc = concat!("A tag of [`Family::", stringify!($family), "`].")]
                $family($tags),
            )*
        }

        impl TagId {
            /// The tag as a member of its family.
            #[must_use]
            pub const fn family_tag(self) -> FamilyTag {
                match self {
                    $($(TagId::$tag => FamilyTag::$family($tags::$tag),)*)*
                }
            }

            /// The tag's family.
            #[must_use]
            pub const fn family(self) -> Family {
                match self.family_tag() {
                    $(FamilyTag::$family(_) => Family::$family,)*
                }
            }
        }
    };
}

families! {
    /// `required`, `optional`, `forbidden` (`required.go`).
    Required: RequiredTag { Forbidden, Optional, Required },
    /// `minimum`, `maximum`, `minLength`, `maxLength`, `maxBytes`, `minItems`, `maxItems`, `minProperties`,
    /// `maxProperties` (`limits.go`).
    Limits: LimitsTag {
        MaxBytes, MaxItems, MaxLength, MaxProperties, Maximum, MinItems, MinLength, MinProperties, Minimum,
    },
    /// `format` (`strfmt.go`).
    Strfmt: StrfmtTag { Format },
    /// `enum`, `enumExclude` (`enum.go`).
    Enum: EnumTag { Enum, EnumExclude },
    /// `eq`, `neq` (`equality.go`).
    Equality: EqualityTag { Eq, Neq },
    /// `immutable` (`immutable.go`).
    Immutable: ImmutableTag { Immutable },
    /// `update` (`update.go`).
    Update: UpdateTag { Update },
    /// `monotonic`.
    Monotonic: MonotonicTag { Monotonic },
    /// `listType`, `listMapKey`, `unique`, `customUnique`, `item`: list metadata and list-map items (`list.go`).
    Lists: ListsTag { CustomUnique, Item, ListMapKey, ListType, Unique },
    /// `eachVal`, `eachKey` (`each.go`).
    Each: EachTag { EachKey, EachVal },
    /// `subfield` (`subfield.go`).
    Subfield: SubfieldTag { Subfield },
    /// `unionMember`, `unionDiscriminator`, `zeroOrOneOfMember`, `modeDiscriminator`, `ifMode` (`union.go`,
    /// `discriminator.go`).
    Unions: UnionsTag { IfMode, ModeDiscriminator, UnionDiscriminator, UnionMember, ZeroOrOneOfMember },
    /// `dependentRequired`, `dependentForbidden` (`dependentrequired.go`).
    Dependent: DependentTag { DependentForbidden, DependentRequired },
    /// `ifEnabled`, `ifDisabled`: validation options (upstream `IfOption`).
    Options: OptionsTag { IfDisabled, IfEnabled },
    /// `alpha`, `beta`: stability levels.
    Levels: LevelsTag { Alpha, Beta },
    /// `opaqueType`.
    Opaque: OpaqueTag { OpaqueType },
    /// `customValidation`: hand-written functions.
    Custom: CustomTag { CustomValidation },
    /// `validateTrue`, `validateFalse`, `validateError`, `validateTrueAlpha`, `validateTrueBeta` (`testing.go`):
    /// tags that test the generator.
    Testing: TestingTag { ValidateError, ValidateFalse, ValidateTrue, ValidateTrueAlpha, ValidateTrueBeta },
    /// vgc extension: `ifSubresource`, `ifNotSubresource` (KEP-5073 "Subresources").
    Subresource: SubresourceTag { IfNotSubresource, IfSubresource },
    /// vgc extension: `memberOf`, `listMapItem`, `union`, `zeroOrOneOf` (KEP-5073 "Virtual Field Strategy").
    Virtual: VirtualTag { ListMapItem, MemberOf, Union, ZeroOrOneOf },
}

/// What a tag does where it is written — the data lowering, tag accounting and the subresource conditions read
/// instead of lists of tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Role {
    /// It makes checks of the value it is written on (its family's lowering module builds them).
    Checks,
    /// It applies its payload tag (`Wrap` says how); the payload decides what is made or read.
    Wrapper(Wrap),
    /// It makes no check where it is written: it declares something the named reader consumes.
    Read(Reader),
}

/// How a wrapper applies its payload tag ([`Role::Wrapper`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Wrap {
    /// `alpha`/`beta`: the payload's checks, marked with the level.
    Level,
    /// `ifEnabled`/`ifDisabled`: the payload's checks, gated on a validation option (upstream `IfOption`).
    Option,
    /// `eachVal`/`eachKey`: the payload, applied to every element or key.
    Each,
    /// `subfield`: the payload, applied to one field of the struct.
    Subfield,
    /// vgc extension `ifSubresource`/`ifNotSubresource`: the payload's checks, gated on the request's subresource.
    Subresource,
}

/// The named reader of a tag that makes no check where it is written ([`Role::Read`]); each such use is counted
/// `consumed` in the plan's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Reader {
    /// List metadata (`listType`, `listMapKey`, `unique`, `customUnique`): the list's matcher and uniqueness check.
    ListMetadata,
    /// Functions upstream defers to the enclosing struct (`ParentContext`): unions, modes, dependent fields.
    StructLevel,
    /// A declaration's own `item` tags: the list-map item checks.
    ItemChecks,
    /// `opaqueType`: the type analysis's opacity.
    Opacity,
    /// `enumExclude` on a constant: the enum's value set.
    EnumValues,
    /// vgc extension: the virtual-group analysis (`memberOf`, `listMapItem`, `union`, `zeroOrOneOf`).
    VirtualGroups,
}

/// A catalog entry: one row of [`TAGS`], every field named.
#[derive(Debug, Clone, Serialize)]
pub struct TagSpec {
    /// Typed identity (the catalog's entries are built from it, so each [`TagId`] has exactly one entry);
    /// serialized as the full tag name (`"name": "k8s:maxItems"`).
    #[serde(rename = "name")]
    pub id: TagId,
    /// What it does where it is written: make checks, wrap a payload, or declare something a reader consumes.
    #[serde(skip)]
    pub role: Role,
    /// Where the tag may be written.
    pub scopes: &'static [Scope],
    /// Declared arguments.
    pub args: &'static [ArgSpec],
    /// Unknown named args are accepted (`k8s:item`, `k8s:listMapItem`: the list-map key values).
    pub accepts_unknown_args: bool,
    /// Payload type, `None` for payload-less tags (any payload is then an error).
    pub payload: Option<ValueKind>,
    /// The payload must be present.
    pub payload_required: bool,
    /// One value per field and stability level: two uses with different payloads cannot both be meant (`VGC0315`,
    /// `vgc lint`) — bounds, formats, `listType`, `eq`/`neq`.
    #[serde(skip)]
    pub single_value: bool,
    /// The tag's own stability level.
    pub stability: Stability,
    /// Flags of the checks it produces (wrappers inherit their payload's flags instead).
    pub flags: Flags,
    /// Lowering status in this vgc version.
    pub lowering: Lowering,
    /// One-line description.
    pub docs: &'static str,
}

impl TagSpec {
    /// The full tag name, e.g. `k8s:maxItems` (`self.id.name()`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.id.name()
    }

    /// How the tag is written, from its declared arguments and payload (`vgc explain`): `+k8s:maxItems=<int>`,
    /// `+k8s:ifEnabled(<string>)=<tag>`, `+k8s:item(<name>: <value>, …)=<tag>`, `+k8s:alpha(since: <string>)=<tag>`,
    /// `+k8s:optional`; an optional argument or payload in `[…]`.
    #[must_use]
    pub fn syntax(&self) -> String {
        let kind = |k: ValueKind| match k {
            ValueKind::Tag => "<tag>".to_string(),
            ValueKind::Raw => "<value>".to_string(),
            k => format!("<{}>", k.upstream_name()),
        };
        let mut args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let one = if a.name.is_empty() {
                    kind(a.kind)
                } else {
                    format!("{}: {}", a.name, kind(a.kind))
                };
                if a.required { one } else { format!("[{one}]") }
            })
            .collect();
        if self.accepts_unknown_args {
            args.push("<name>: <value>, …".to_string());
        }
        let mut out = format!("+{}", self.name());
        if !args.is_empty() {
            out.push_str(&format!("({})", args.join(", ")));
        }
        if let Some(p) = self.payload {
            if self.payload_required {
                out.push_str(&format!("={}", kind(p)));
            } else {
                out.push_str(&format!("[={}]", kind(p)));
            }
        }
        out
    }

    /// The family whose module handles the tag in every stage ([`TagId::family`]).
    #[must_use]
    pub const fn family(&self) -> Family {
        self.id.family()
    }
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
const SUBRESOURCE: &[ArgSpec] = &[arg(
    "",
    Str,
    true,
    "the subresource path as upstream's `Request.SubresourcePath()` spells it: `/status`, `/resize`, `/` for the resource itself",
)];
const GROUP: &[ArgSpec] = &[arg(
    "group",
    Str,
    true,
    "the virtual group's name, scoped to the root type (GVK) the field belongs to",
)];
const GROUP_DECL: &[ArgSpec] = &[arg(
    "union",
    Str,
    true,
    "the name of the virtual group it declares, scoped to the root type (GVK): the group's members are the fields tagged `+k8s:memberOf(group: <name>)`",
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
    TagSpec {
        id: TagId::Alpha,
        role: Role::Wrapper(Wrap::Level),
        scopes: ALL5,
        args: SINCE,
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Beta,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Marks the payload's checks as alpha: their errors are marked alpha and not enforced.",
    },
    TagSpec {
        id: TagId::Beta,
        role: Role::Wrapper(Wrap::Level),
        scopes: ALL5,
        args: SINCE,
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Beta,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Marks the payload's checks as beta: their errors are marked beta.",
    },
    TagSpec {
        id: TagId::CustomUnique,
        role: Role::Read(Reader::ListMetadata),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Metadata,
        docs: "The list's uniqueness is checked by hand-written code; no uniqueness check is generated.",
    },
    TagSpec {
        id: TagId::CustomValidation,
        role: Role::Checks,
        scopes: &[T, F],
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Calls a hand-written ValidateCustom_<Type>[_<Field>] function.",
    },
    TagSpec {
        id: TagId::DependentForbidden,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F],
        args: &[arg("", Str, true, "the JSON name of the sibling field")],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "When this field is set, the named sibling must not be set.",
    },
    TagSpec {
        id: TagId::DependentRequired,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F],
        args: &[arg("", Str, true, "the JSON name of the sibling field")],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "When this field is set, the named sibling must be set.",
    },
    TagSpec {
        id: TagId::EachKey,
        role: Role::Wrapper(Wrap::Each),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload validation to every key of a map.",
    },
    TagSpec {
        id: TagId::EachVal,
        role: Role::Wrapper(Wrap::Each),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload validation to every value of a list or map.",
    },
    TagSpec {
        id: TagId::Enum,
        role: Role::Checks,
        scopes: &[T],
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The string type is an enum: values must be one of its typed constants.",
    },
    TagSpec {
        id: TagId::EnumExclude,
        role: Role::Read(Reader::EnumValues),
        scopes: &[C],
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Excludes this constant from its enum (usually under ifEnabled/ifDisabled).",
    },
    TagSpec {
        id: TagId::Eq,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Raw),
        payload_required: true,
        single_value: true,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The value must equal the payload (upstream 1.38, `validate.EQ`: otherwise `Unsupported value`).",
    },
    TagSpec {
        id: TagId::Forbidden,
        role: Role::Checks,
        scopes: &[F],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Beta,
        flags: SC,
        lowering: Lowering::Lowered,
        docs: "The field must not be set. From upstream 1.38 an optional string payload (`+k8s:forbidden=\"msg\"`) is additional detail for the error (`Forbidden: msg`; kubernetes `validators/required.go` `doForbidden`).",
    },
    TagSpec {
        id: TagId::Format,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The string must have the named format.",
    },
    TagSpec {
        id: TagId::IfDisabled,
        role: Role::Wrapper(Wrap::Option),
        scopes: &[T, F, LV, MK, MV, C],
        args: OPTION,
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload only when the option is disabled.",
    },
    TagSpec {
        id: TagId::IfEnabled,
        role: Role::Wrapper(Wrap::Option),
        scopes: &[T, F, LV, MK, MV, C],
        args: OPTION,
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload only when the option is enabled.",
    },
    TagSpec {
        id: TagId::IfMode,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F],
        args: &[
            arg("", Str, false, "the mode value"),
            arg("modality", Str, false, "the modality (discriminator) name"),
            arg("mode", Str, false, "the mode value"),
        ],
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload when the mode discriminator has the given value; the field is forbidden otherwise.",
    },
    TagSpec {
        id: TagId::IfNotSubresource,
        role: Role::Wrapper(Wrap::Subresource),
        scopes: ALL5,
        args: SUBRESOURCE,
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "vgc extension (KEP-5073 \"Subresources\"; off unless vgc.toml has `[extensions] enabled = true`): applies the payload except when the request is for the named subresource.",
    },
    TagSpec {
        id: TagId::IfSubresource,
        role: Role::Wrapper(Wrap::Subresource),
        scopes: ALL5,
        args: SUBRESOURCE,
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "vgc extension (KEP-5073 \"Subresources\"; off unless vgc.toml has `[extensions] enabled = true`): applies the payload only when the request is for the named subresource.",
    },
    TagSpec {
        id: TagId::Immutable,
        role: Role::Checks,
        scopes: &[F, T, LV, MV],
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: SC,
        lowering: Lowering::Lowered,
        docs: "The value may not change once set (any change on update is an error).",
    },
    TagSpec {
        id: TagId::Item,
        role: Role::Read(Reader::ItemChecks),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: true,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload to the list-map item whose keys have the given values.",
    },
    TagSpec {
        id: TagId::ListMapItem,
        role: Role::Read(Reader::VirtualGroups),
        scopes: &[F],
        args: &[],
        accepts_unknown_args: true,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Metadata,
        docs: "vgc extension (KEP-5073 \"Virtual Field Strategy\"), off unless enabled: names the list-map item whose keys have the given values as a virtual field, for its `memberOf` payload.",
    },
    TagSpec {
        id: TagId::ListMapKey,
        role: Role::Read(Reader::ListMetadata),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Metadata,
        docs: "Names a key field (JSON name) of a listType=map list.",
    },
    TagSpec {
        id: TagId::ListType,
        role: Role::Read(Reader::ListMetadata),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The list's semantics: atomic, set or map.",
    },
    TagSpec {
        id: TagId::MaxBytes,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The string may have at most N bytes.",
    },
    TagSpec {
        id: TagId::MaxItems,
        role: Role::Checks,
        scopes: &[T, F, LV, MV],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: SC,
        lowering: Lowering::Lowered,
        docs: "The list may have at most N items.",
    },
    TagSpec {
        id: TagId::MaxLength,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The string may have at most N characters.",
    },
    TagSpec {
        id: TagId::MaxProperties,
        role: Role::Checks,
        scopes: &[T, F],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: SC,
        lowering: Lowering::Lowered,
        docs: "The map may have at most N entries.",
    },
    TagSpec {
        id: TagId::Maximum,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: // Raw from 1.38 (code-generator v0.38.0-beta.0 `limits.go`: quantities, durations as strings); the payload
        // kind per value type and release is checked in lowering (`TagDiagnostic::PayloadKind`).
        Some(Raw),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The integer (from 1.38 also a `resource.Quantity`, payload a quantity) must be at most N.",
    },
    TagSpec {
        id: TagId::MemberOf,
        role: Role::Read(Reader::VirtualGroups),
        scopes: &[F, LV],
        args: GROUP,
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Metadata,
        docs: "vgc extension (KEP-5073 \"Virtual Field Strategy\"), off unless enabled: makes the field (or, under `listMapItem`, the item) a member of the named virtual group.",
    },
    TagSpec {
        id: TagId::MinItems,
        role: Role::Checks,
        scopes: &[T, F, LV, MV],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The list must have at least N items.",
    },
    TagSpec {
        id: TagId::MinLength,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The string must have at least N characters.",
    },
    TagSpec {
        id: TagId::MinProperties,
        role: Role::Checks,
        scopes: &[T, F],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Int),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The map must have at least N entries.",
    },
    TagSpec {
        id: TagId::Minimum,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: // Raw from 1.38 (code-generator v0.38.0-beta.0 `limits.go`: quantities, durations as strings); the payload
        // kind per value type and release is checked in lowering (`TagDiagnostic::PayloadKind`).
        Some(Raw),
        payload_required: true,
        single_value: true,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The integer (from 1.38 also a `resource.Quantity`, payload a quantity) must be at least N.",
    },
    TagSpec {
        id: TagId::ModeDiscriminator,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F],
        args: &[arg("modality", Str, false, "the modality name")],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "This field selects the mode for ifMode rules.",
    },
    TagSpec {
        id: TagId::Monotonic,
        role: Role::Checks,
        scopes: &[T, F],
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The integer may not decrease on update.",
    },
    TagSpec {
        id: TagId::Neq,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Raw),
        payload_required: true,
        single_value: true,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "The value must not equal the payload.",
    },
    TagSpec {
        id: TagId::OpaqueType,
        role: Role::Read(Reader::Opacity),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Do not validate the referenced type's own rules here.",
    },
    TagSpec {
        id: TagId::Optional,
        role: Role::Checks,
        scopes: &[F],
        args: &[],
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: Flags {
            short_circuit: true,
            non_error: true,
        },
        lowering: Lowering::Lowered,
        docs: "The field may be unset; when unset, its other checks are skipped. On a non-pointer struct field it is documentation only (no check) in the 1.38 profile (kubernetes#136779) and an error before.",
    },
    TagSpec {
        id: TagId::Required,
        role: Role::Checks,
        scopes: &[F],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: SC,
        lowering: Lowering::Lowered,
        docs: "The field must be set. On a non-pointer struct field (never nil) it is documentation only (no check; the struct's own rules still run) in the 1.38 profile (kubernetes#136779) and an error before. From upstream 1.38 an optional string payload (`+k8s:required=\"msg\"`) is additional detail for the error (`Required value: msg`; `validators/required.go` `doRequired`).",
    },
    TagSpec {
        id: TagId::Subfield,
        role: Role::Wrapper(Wrap::Subfield),
        scopes: ALL5,
        args: &[arg("", Str, true, "the JSON name of the member field")],
        accepts_unknown_args: false,
        payload: Some(TagV),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Applies the payload to a member of this struct.",
    },
    TagSpec {
        id: TagId::Union,
        role: Role::Read(Reader::VirtualGroups),
        scopes: &[T, F],
        args: GROUP_DECL,
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "vgc extension (KEP-5073 \"Virtual Field Strategy\"), off unless enabled: exactly one member of the named virtual group must be set; checked on the members' closest common ancestor.",
    },
    TagSpec {
        id: TagId::UnionDiscriminator,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F, LV],
        args: UNION,
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Beta,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "This field names the union member that is set.",
    },
    TagSpec {
        id: TagId::UnionMember,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F, LV],
        args: MEMBER,
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Exactly one member of the union must be set.",
    },
    TagSpec {
        id: TagId::Unique,
        role: Role::Read(Reader::ListMetadata),
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: true,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Items must be unique as a set or by list-map keys.",
    },
    TagSpec {
        id: TagId::Update,
        role: Role::Checks,
        scopes: &[F, LV, MV],
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: SC,
        lowering: Lowering::Lowered,
        docs: "Restricts updates: NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem.",
    },
    TagSpec {
        id: TagId::ValidateError,
        role: Role::Checks,
        scopes: ALL5,
        args: &[],
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: true,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Test tag: always fails generation.",
    },
    TagSpec {
        id: TagId::ValidateFalse,
        role: Role::Checks,
        scopes: ALL5,
        args: TEST_ARGS,
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Test tag: always fails validation.",
    },
    TagSpec {
        id: TagId::ValidateTrue,
        role: Role::Checks,
        scopes: ALL5,
        args: TEST_ARGS,
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Test tag: never fails.",
    },
    TagSpec {
        id: TagId::ValidateTrueAlpha,
        role: Role::Checks,
        scopes: ALL5,
        args: TEST_ARGS,
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Alpha,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Test tag: never fails (alpha).",
    },
    TagSpec {
        id: TagId::ValidateTrueBeta,
        role: Role::Checks,
        scopes: ALL5,
        args: TEST_ARGS,
        accepts_unknown_args: false,
        payload: Some(Str),
        payload_required: false,
        single_value: false,
        stability: Beta,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "Test tag: never fails (beta).",
    },
    TagSpec {
        id: TagId::ZeroOrOneOf,
        role: Role::Read(Reader::VirtualGroups),
        scopes: &[T, F],
        args: GROUP_DECL,
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "vgc extension (KEP-5073 \"Virtual Field Strategy\"), off unless enabled: at most one member of the named virtual group may be set; checked on the members' closest common ancestor.",
    },
    TagSpec {
        id: TagId::ZeroOrOneOfMember,
        role: Role::Read(Reader::StructLevel),
        scopes: &[F, LV],
        args: MEMBER,
        accepts_unknown_args: false,
        payload: None,
        payload_required: false,
        single_value: false,
        stability: Stable,
        flags: NONE,
        lowering: Lowering::Lowered,
        docs: "At most one member of the group may be set.",
    },
];

/// Declares [`ControlTag`] and [`CONTROL_TAGS`] from one table of `Variant => "k8s:name"` rows.
macro_rules! control_tags {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal),* $(,)?) => {
        /// A generator-control tag read by vgc itself (package or type comments; raw values), not a validation
        /// tag. upstream: `cmd/validation-gen/targets.go` and `validators/subresource.go`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ControlTag {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ControlTag {
            /// Its documentation (the lines of its doc comment above, joined with spaces): what `vgc explain` and
            /// the language server's hover say of it.
            #[must_use]
            pub fn docs(self) -> String {
                let lines: &[&str] = match self {
                    $(ControlTag::$variant => &[$($doc),*],)*
                };
                lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")
            }
        }

        impl ControlTag {
            /// The full tag name.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(ControlTag::$variant => $name,)*
                }
            }

            /// The control tag named `name` (full name), or `None`.
            #[must_use]
            pub fn from_name(name: &str) -> Option<ControlTag> {
                match name {
                    $($name => Some(ControlTag::$variant),)*
                    _ => None,
                }
            }
        }

        /// The names of the generator-control tags ([`ControlTag`]).
        pub static CONTROL_TAGS: &[&str] = &[$($name),*];
    };
}

control_tags! {
    /// `+k8s:validation-gen=<criterion|*|false>` (package; `true`/`false` on a type): which types get validation
    /// functions.
    ValidationGen => "k8s:validation-gen",
    /// `+k8s:validation-gen-input=<package>`: the package whose types are validated (activation packages).
    ValidationGenInput => "k8s:validation-gen-input",
    /// `+k8s:validation-gen-scheme-registry=<type>`: the scheme type the registration function takes (`nil`: no
    /// registration).
    ValidationGenSchemeRegistry => "k8s:validation-gen-scheme-registry",
    /// `+k8s:validation-gen-test-fixture=validateFalse`: upstream emits a fixture test (`<out>_test.go`).
    ValidationGenTestFixture => "k8s:validation-gen-test-fixture",
    /// `+k8s:validation-gen-test-targets`: upstream emits a coverage test (`<out>_coverage_test.go`).
    ValidationGenTestTargets => "k8s:validation-gen-test-targets",
    /// `+k8s:validation-gen-nolint` (package or type): upstream's lint rules are skipped there.
    ValidationGenNolint => "k8s:validation-gen-nolint",
    /// `+k8s:validation-gen-deep-equal-func=<func>` (package, upstream 1.38, kubernetes#141808): the function generated
    /// code uses for deep equality (ratchets, list matching); empty or `k8s.io/apimachinery/pkg/api/validate.SemanticDeepEqual`
    /// is the default.
    ValidationGenDeepEqualFunc => "k8s:validation-gen-deep-equal-func",
    /// `+k8s:isSubresource=<path>`: the type is the payload of that subresource.
    IsSubresource => "k8s:isSubresource",
    /// `+k8s:supportsSubresource=<path>`: the type's registration also accepts that subresource.
    SupportsSubresource => "k8s:supportsSubresource",
}

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

impl TagId {
    /// The tag's catalog entry (every id has exactly one; test `every_tag_id_has_exactly_one_catalog_entry`).
    #[must_use]
    pub fn spec(self) -> &'static TagSpec {
        lookup(self.name()).expect("every TagId has a catalog entry")
    }
}

/// Looks a validation tag up by full name.
#[must_use]
pub fn lookup(name: &str) -> Option<&'static TagSpec> {
    TAGS.binary_search_by(|t| t.name().cmp(name))
        .ok()
        .map(|i| &TAGS[i])
}

/// True for a canonical name validation-gen reads in some profile: a catalog tag, a generator-control tag, a
/// tag an older release spelled differently (`k8s:member`, `k8s:discriminator`,
/// [`crate::profile::Upstream::tag_renames`]) or a retired proposal vgc explains (`k8s:shadow`,
/// `k8s:declarativeValidationNative`). With the empty tag prefix these are the only `+name` comment lines read as
/// validation tags (every other one belongs to another tool), as upstream's registry keeps only its names.
#[must_use]
pub fn is_validation_gen_name(name: &str) -> bool {
    lookup(name).is_some()
        || CONTROL_TAGS.contains(&name)
        || matches!(
            name,
            "k8s:member" | "k8s:discriminator" | "k8s:shadow" | "k8s:declarativeValidationNative"
        )
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
        .map(TagSpec::name)
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

/// The spellings `k8s:format` accepts (upstream `format.go`), from [`vgc_runtime::formats::Format::ALL`].
pub static FORMATS: [&str; Format::ALL.len()] = {
    let mut out = [""; Format::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Format::ALL[i].name();
        i += 1;
    }
    out
};

/// The catalog identity of something naming a tag: a parsed [`vgc_parser::tags::Tag`] (any level of a chain) or a
/// [`crate::model::TagUse`]. `None` for names the catalog does not register (generator-control tags, other
/// generators' tags, unknown names — which [`crate::check::check_tag_use`] reports).
pub trait TagIdent {
    /// The tag's [`TagId`], through [`TagId::from_name`].
    fn tag_id(&self) -> Option<TagId>;

    /// True when the tag is `id`.
    fn is_tag(&self, id: TagId) -> bool {
        self.tag_id() == Some(id)
    }
}

impl TagIdent for vgc_parser::tags::Tag {
    fn tag_id(&self) -> Option<TagId> {
        TagId::from_name(&self.name)
    }
}

/// What each of [`FORMATS`] accepts, in words (Markdown), in the same order: the documentation site's `format`
/// entry lists them. Mirrors the validators of upstream `format.go` (`k8s.io/apimachinery/pkg/api/validate/content`,
/// implemented by `vgc_runtime::validate::format`).
pub static FORMAT_DOCS: &[(&str, &str)] = &[
    (
        "k8s-condition-reason",
        "a condition reason (upstream 1.38): a letter, then letters, digits, `_`, `,` or `:`, ending with a letter, digit or `_` (`MyName`, `ReasonA,ReasonB`, `ReasonA:ReasonB`)",
    ),
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
            .map(|t| t.name())
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
            assert_eq!(t.name(), t.id.name());
            assert_eq!(TagId::from_name(t.name()), Some(t.id));
        }
        assert_eq!(TagId::from_name("k8s:nope"), None);
    }

    /// Lowering sorts checks by [`TagId`] where upstream sorts by tag name: the derived order must be the names'.
    #[test]
    fn tag_ids_are_in_name_order() {
        for w in TagId::ALL.windows(2) {
            assert!(w[0] < w[1] && w[0].name() < w[1].name(), "{w:?}");
        }
        assert_eq!(TagId::ALL.len(), TAGS.len());
        assert_eq!(
            serde_json::to_string(&TagId::MaxItems).unwrap(),
            "\"k8s:maxItems\""
        );
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
            TAGS.windows(2).all(|w| w[0].name() < w[1].name()),
            "sorted for binary search"
        );
        assert_eq!(TAGS.len(), 52);
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
