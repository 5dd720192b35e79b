//! The tag dispatcher's diagnostics as data: one variant per kind of refusal, with its code, its detail text and
//! its hint in one place. Each renders as upstream's generator words it, `<Type>: tag "<k8s:name>": <detail>`
//! (upstream `validators.typeCheck` and each validator's `GetValidations` errors, spec §4), the prefix written once
//! by [`TagDiagnostic::message`].

use vgc_ir::Code;
use vgc_ir::catalog::TagId;
use vgc_runtime::validate::UpdateConstraint;

/// The kinds of value a tag is restricted to, as upstream names them in `can only be used on <kinds> types`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ValueKinds {
    /// `integer`
    Integer,
    /// `string`
    String,
    /// `list`
    List,
    /// `map`
    Map,
    /// `list or map`
    ListOrMap,
    /// `integer and resource.Quantity` (`minimum`/`maximum` from 1.38, code-generator v0.38.0-beta.0 `limits.go`)
    IntegerOrQuantity,
    /// `string and []byte` (`maxBytes` from 1.38, code-generator v0.38.0-beta.0 `limits.go`)
    StringOrBytes,
}

impl ValueKinds {
    fn words(self) -> &'static str {
        match self {
            ValueKinds::Integer => "integer",
            ValueKinds::String => "string",
            ValueKinds::List => "list",
            ValueKinds::Map => "map",
            ValueKinds::ListOrMap => "list or map",
            ValueKinds::IntegerOrQuantity => "integer and resource.Quantity",
            ValueKinds::StringOrBytes => "string and []byte",
        }
    }
}

/// Why the dispatcher refuses one tag use (each is an error; generation stops, as upstream's does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TagDiagnostic {
    /// VGC0110: the tag does not apply to the value's kind.
    WrongKind(ValueKinds),
    /// VGC0110: `required`/`optional`/`forbidden` on a non-pointer struct (before 1.38 for the first two).
    NonPointerStruct,
    /// VGC0109: an integer payload outside the range of the field's integer type.
    OutOfRange(i128),
    /// VGC0109: a negative limit where upstream requires `>= 0`.
    Negative,
    /// VGC0109: a `minProperties`/`maxProperties` limit above upstream's 100000 (`limits.go`).
    TooManyProperties,
    /// VGC0109: a `format` name upstream does not know, with the formats the profile in force supports (the hint).
    UnknownFormat(String, Vec<&'static str>),
    /// VGC0109: a `format` name only a project format defines (`--validation-extensions-file`) under a profile
    /// before 1.38, where upstream has no project formats: the unknown-format error, with a hint.
    ProjectFormatBeforeV1_38(String),
    /// VGC0109: an `update` constraint upstream does not know.
    UnknownUpdateConstraint(String),
    /// VGC0110: `NoAddItem`/`NoRemoveItem` on a value that has no items.
    UpdateItemsWithoutItems(UpdateConstraint),
    /// VGC0110: `NoModify` on a list or map (upstream points at `eachVal`).
    NoModifyOnCollection,
    /// VGC0110: `NoSet`/`NoUnset` on a non-pointer struct, which is never unset.
    UpdateOnValueStruct(UpdateConstraint),
    /// VGC0109: a `listType` other than `atomic`, `set` or `map`.
    UnknownListType(String),
    /// VGC0109: a test tag's `flags` argument names an unknown flag.
    UnknownFlag(String),
    /// VGC0109: `validateError`, which always fails generation (a test tag).
    ForcedError(String),
    /// VGC0112: `item` nested in another tag's payload.
    ItemNotDirect,
    /// VGC0110: an `eq`/`neq` payload whose type is not the value's (upstream `parseComparableValue`): `field` is
    /// the value's kind in upstream's words (`a string`, `a bool`, `an integer`), `payload` the payload's literal
    /// kind (`string`, `int`, `bool`); `field` is `None` for a value of another type, which upstream refuses as
    /// not comparable (1.38) or unsupported.
    NeqTypeMismatch {
        /// The value's kind, when it is a string, bool or integer.
        field: Option<&'static str>,
        /// The payload's literal kind.
        payload: &'static str,
        /// The value is directly comparable (a float, or a struct of comparable members).
        comparable: bool,
        /// The 1.38 texts (`can only be used on comparable types …`, `unsupported type: …`).
        v1_38: bool,
    },
    /// VGC0108: a `minimum`/`maximum` payload of the wrong literal kind for the value (`got`): before 1.38 the
    /// catalog's `tag value has wrong type: got <got>, want int`; from 1.38 upstream `parseNumericLimit`'s `type
    /// mismatch: field is <what>, but payload is of type <got>` (`what`: `an integer`, `a time.Duration`).
    PayloadKind {
        /// The payload's literal kind (`string`, `int`, `bool`).
        got: &'static str,
        /// From 1.38: what the field is; `None` before (the catalog's message).
        field: Option<&'static str>,
    },
    /// VGC0109 (1.38): a `minimum`/`maximum` payload that the value's parser refuses — `resource.ParseQuantity`
    /// on a `resource.Quantity`, `time.ParseDuration` on a `time.Duration` (upstream `parseNumericLimit`: `failed
    /// to parse tag payload: <error>`).
    UnparsablePayload(String),
    /// VGC0110 (1.38, kubernetes#141945): an `eachVal`/`eachKey` payload that is a NonError validation. upstream's
    /// text was not found; vgc's is inferred (`docs/deviations.md` I7).
    NonErrorInEach,
    /// VGC0109: a subresource path that does not start with `/` (upstream's `SubresourcePath()` always does).
    SubresourcePath(String),
    /// VGC0124: a subresource condition around a tag that makes no check of the value it is written on (its
    /// innermost tag).
    SubresourcePayload(TagId),
    /// VGC0126: a virtual-field tag (`memberOf`, `listMapItem`, `union`, `zeroOrOneOf`) inside another tag's
    /// payload, where the virtual-group analysis does not read it.
    VirtualFieldNested,
}

impl TagDiagnostic {
    /// The diagnostic's stable code.
    pub(super) fn code(&self) -> Code {
        match self {
            TagDiagnostic::WrongKind(_)
            | TagDiagnostic::NonPointerStruct
            | TagDiagnostic::UpdateItemsWithoutItems(_)
            | TagDiagnostic::NoModifyOnCollection
            | TagDiagnostic::UpdateOnValueStruct(_)
            | TagDiagnostic::NeqTypeMismatch { .. }
            | TagDiagnostic::NonErrorInEach => Code::TypeMismatch,
            TagDiagnostic::PayloadKind { .. } => Code::PayloadType,
            TagDiagnostic::SubresourcePath(_) => Code::InvalidPayload,
            TagDiagnostic::SubresourcePayload(_) => Code::SubresourceConditionForm,
            TagDiagnostic::VirtualFieldNested => Code::VirtualFieldPlacement,
            TagDiagnostic::OutOfRange(_)
            | TagDiagnostic::Negative
            | TagDiagnostic::TooManyProperties
            | TagDiagnostic::UnknownFormat(..)
            | TagDiagnostic::ProjectFormatBeforeV1_38(_)
            | TagDiagnostic::UnknownUpdateConstraint(_)
            | TagDiagnostic::UnknownListType(_)
            | TagDiagnostic::UnknownFlag(_)
            | TagDiagnostic::UnparsablePayload(_)
            | TagDiagnostic::ForcedError(_) => Code::InvalidPayload,
            TagDiagnostic::ItemNotDirect => Code::UnsupportedType,
        }
    }

    /// The whole message for tag `tag` written on type `owner` (Go name): upstream's `<owner>: tag "<tag>"`
    /// prefix, then the detail.
    pub(super) fn message(&self, owner: &str, tag: TagId) -> String {
        let what = format!("{owner}: tag {:?}", tag.name());
        match self {
            TagDiagnostic::WrongKind(k) => {
                format!("{what}: can only be used on {} types", k.words())
            }
            TagDiagnostic::NonPointerStruct => {
                format!(
                    "{what}: non-pointer structs cannot use the {:?} tag",
                    tag.name()
                )
            }
            TagDiagnostic::OutOfRange(v) => {
                format!("{what}: value {v} does not fit the field's type")
            }
            TagDiagnostic::Negative => format!("{what}: must be greater than or equal to zero"),
            TagDiagnostic::PayloadKind { got, field: None } => {
                format!("{what}: tag value has wrong type: got {got}, want int")
            }
            TagDiagnostic::PayloadKind {
                got,
                field: Some(f),
            } => format!("{what}: type mismatch: field is {f}, but payload is of type {got}"),
            TagDiagnostic::UnparsablePayload(e) => {
                format!("{what}: failed to parse tag payload: {e}")
            }
            TagDiagnostic::TooManyProperties => {
                format!("{what}: must be less than or equal to 100000")
            }
            TagDiagnostic::UnknownFormat(f, _) | TagDiagnostic::ProjectFormatBeforeV1_38(f) => {
                format!("{what}: unsupported validation format {f:?}")
            }
            TagDiagnostic::UnknownUpdateConstraint(c) => {
                format!("{what}: unknown update constraint {c:?}")
            }
            TagDiagnostic::UpdateItemsWithoutItems(c) => {
                format!(
                    "{what}: {} can only be used on list or map fields",
                    c.name()
                )
            }
            TagDiagnostic::NoModifyOnCollection => format!(
                "{what}: NoModify cannot be used on list or map fields; use +k8s:eachVal=+k8s:update=NoModify"
            ),
            TagDiagnostic::UpdateOnValueStruct(c) => {
                format!(
                    "{what}: {} cannot be used on non-pointer struct fields",
                    c.name()
                )
            }
            TagDiagnostic::UnknownListType(v) => format!("{what}: unknown list type {v:?}"),
            TagDiagnostic::UnknownFlag(f) => {
                format!("{what}: can't decode tag payload: unknown flag: {f:?}")
            }
            TagDiagnostic::ForcedError(p) => format!("{what}: forced error: {p:?}"),
            TagDiagnostic::ItemNotDirect => format!(
                "{what}: tag \"k8s:item\" is supported only directly on a list field or list type"
            ),
            // upstream `parseComparableValue` (code-generator v0.38.0-beta.0 `equality.go`; v0.37.2 has the same
            // type-mismatch texts and `unsupported type for 'neq' tag: %s`); upstream appends the Go type to the
            // last two, which vgc's kind messages never show (docs/deviations.md I5).
            TagDiagnostic::NeqTypeMismatch {
                field: Some(field),
                payload,
                ..
            } => {
                format!("{what}: type mismatch: field is {field}, but payload is of type {payload}")
            }
            TagDiagnostic::NeqTypeMismatch {
                field: None,
                comparable: false,
                v1_38: true,
                ..
            } => format!("{what}: can only be used on comparable types (e.g. string, int, bool)"),
            TagDiagnostic::NeqTypeMismatch {
                field: None,
                v1_38: true,
                ..
            } => format!("{what}: unsupported type"),
            TagDiagnostic::NeqTypeMismatch { field: None, .. } => {
                format!("{what}: unsupported type for 'neq' tag")
            }
            TagDiagnostic::NonErrorInEach => format!(
                "{what}: +{} does not support optional/non-error validations",
                tag.name()
            ),
            TagDiagnostic::SubresourcePath(p) => {
                format!("{what}: subresource path {p:?} must start with \"/\"")
            }
            TagDiagnostic::SubresourcePayload(inner) => format!(
                "{what}: a subresource condition cannot wrap {:?}: requiredness, list metadata, struct-level tags and `item` are not conditional on the subresource",
                inner.name()
            ),
            TagDiagnostic::VirtualFieldNested => format!(
                "{what}: a virtual-field tag is read only written directly on a field or type, not inside another tag's payload (except `memberOf` under `listMapItem`)"
            ),
        }
    }

    /// The hint shown under the message, if any.
    pub(super) fn hint(&self) -> Option<String> {
        match self {
            TagDiagnostic::UnknownFormat(_, supported) => {
                Some(format!("supported formats: {}", supported.join(", ")))
            }
            TagDiagnostic::ProjectFormatBeforeV1_38(f) => Some(format!(
                "{f:?} is a project format (--validation-extensions-file); project formats need the 1.38 profile (kubernetes#142116)"
            )),
            TagDiagnostic::UnknownUpdateConstraint(_) => {
                Some("use NoSet, NoUnset, NoModify, NoAddItem or NoRemoveItem".into())
            }
            TagDiagnostic::UnknownListType(_) => Some("use atomic, set or map".into()),
            TagDiagnostic::UnknownFlag(_) => {
                Some("flags are ShortCircuit and NonError, comma-separated".into())
            }
            TagDiagnostic::ForcedError(_) => {
                Some("k8s:validateError always fails generation (a test tag)".into())
            }
            TagDiagnostic::ItemNotDirect => {
                Some("declare the `item` tag on the list field or on its list type".into())
            }
            TagDiagnostic::NonErrorInEach => Some(
                "drop the NonError flag, or declare the validation on the element type (upstream 1.38, kubernetes#141945)"
                    .into(),
            ),
            TagDiagnostic::SubresourcePath(p) => Some(format!(
                "write the path as the API server's request names it, e.g. \"/{}\"",
                p.trim_start_matches('/')
            )),
            TagDiagnostic::VirtualFieldNested => Some(
                "write `+k8s:memberOf(group: …)` directly on the member field, or `+k8s:listMapItem(k: v)=+k8s:memberOf(group: …)` on the list; a group's membership cannot depend on a stability level, an option or a subresource".into(),
            ),
            TagDiagnostic::SubresourcePayload(_) => Some(
                "wrap a tag that validates the value (`immutable`, `update`, `maximum`, `format`, `eachVal`, …); requiredness decides whether the value's other checks run and must give the same answer on every request, and list metadata, unions, modes, dependent fields and `item` make no check of the value themselves"
                    .into(),
            ),
            TagDiagnostic::WrongKind(_)
            | TagDiagnostic::NonPointerStruct
            | TagDiagnostic::OutOfRange(_)
            | TagDiagnostic::Negative
            | TagDiagnostic::TooManyProperties
            | TagDiagnostic::UpdateItemsWithoutItems(_)
            | TagDiagnostic::NoModifyOnCollection
            | TagDiagnostic::UpdateOnValueStruct(_)
            | TagDiagnostic::UnparsablePayload(_)
            | TagDiagnostic::PayloadKind { .. }
            | TagDiagnostic::NeqTypeMismatch { .. } => None,
        }
    }
}

/// What a [`LowerDiagnostic`] is about, rendered once as the message's prefix: `T` (a type, as upstream's
/// validators name it), `type T` (a type declaration), `field T.F` (a struct field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Subject {
    /// `T`.
    Type(String),
    /// `type T`.
    Decl(String),
    /// `field T.F`.
    Field {
        /// The struct type's Go name.
        owner: String,
        /// The field's Go name.
        field: String,
    },
}

impl Subject {
    /// `T`.
    pub(super) fn ty(name: &str) -> Self {
        Subject::Type(name.to_string())
    }

    /// `field T.F`.
    pub(super) fn field(owner: &str, field: &str) -> Self {
        Subject::Field {
            owner: owner.to_string(),
            field: field.to_string(),
        }
    }
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Type(t) => f.write_str(t),
            Subject::Decl(t) => write!(f, "type {t}"),
            Subject::Field { owner, field } => write!(f, "field {owner}.{field}"),
        }
    }
}

/// Why lowering refuses a declaration outside the tag dispatcher: Go shapes validation-gen cannot generate,
/// cross-field rules (unions, modes, dependent fields), `item` selectors, list metadata and `subfield`. Each is an
/// error; the texts are upstream's where upstream has one (spec §4), and say what to do where it has not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LowerDiagnostic {
    /// A map whose values are lists (upstream: not supported).
    MapOfSlices,
    /// A Go type shape upstream does not support (`pointers to maps are not supported`, …).
    UnsupportedShape(&'static str),
    /// R9: an inline-embedded pointer that embeds its own struct again.
    EmbeddedPointerCycle(Vec<String>),
    /// A field type whose package or name cannot be resolved.
    UnresolvedType {
        /// The package qualifier as written.
        pkg: String,
        /// The type name.
        name: String,
        /// When the package is loaded (so it is available) but declares no type of that name: its import path and
        /// the closest name it declares, if one is close (Levenshtein distance at most 2).
        missing_from: Option<(String, Option<String>)>,
    },
    /// `update=NoAddItem|NoRemoveItem` on a list without set or map semantics.
    UpdateItemsWithoutListMetadata,
    /// `modeDiscriminator` on a type other than a non-pointer string or bool.
    ModeDiscriminatorKind,
    /// The modality name `default` given explicitly.
    ReservedModality,
    /// Two discriminators for one modality.
    DuplicateDiscriminator(String),
    /// `ifMode` without its mode.
    IfModeWithoutMode,
    /// A struct-typed member of a modality that is not a pointer.
    DiscriminatedStructNotPointer,
    /// `unionDiscriminator` on a non-string field.
    UnionDiscriminatorKind,
    /// A union member of a type that is neither nilable nor primitive.
    UnionMemberKind(TagId),
    /// A union member without a JSON name.
    UnionMemberWithoutJson,
    /// `ifMode` rules of a modality with no `modeDiscriminator` (`None`: the default modality).
    MissingDiscriminator(Option<String>),
    /// A bool discriminator's mode that does not parse as a bool.
    BoolDiscriminatorValue(String),
    /// `dependentRequired`/`dependentForbidden` on a field without a JSON name.
    TriggerWithoutJson,
    /// The dependent field named by JSON name does not exist.
    NoSiblingField(String),
    /// The trigger names itself as the dependent field.
    SameTriggerAndDependent(String),
    /// A trigger or dependent field of a type kind the rule cannot test for presence.
    DependentFieldKind {
        /// `trigger` or `dependent`.
        role: &'static str,
        /// The field's Go name.
        name: String,
    },
    /// `item` tags on a list without map semantics.
    ItemsWithoutListMetadata,
    /// An `item` selector with a different number of arguments than list-map keys.
    ItemArgCount {
        /// Arguments given.
        given: usize,
        /// The `listMapKey` fields' JSON names.
        keys: Vec<String>,
    },
    /// An `item` selector with a positional argument.
    ItemArgsUnnamed,
    /// An `item` selector naming a JSON field the element does not have.
    ItemNoSuchField {
        /// The argument's name.
        name: String,
        /// The list-map keys' JSON names (for the hint).
        keys: Vec<String>,
    },
    /// An `item` selector naming a field that is not a list-map key.
    ItemNotAKey {
        /// The argument's name.
        name: String,
        /// The list-map keys' JSON names (for the hint).
        keys: Vec<String>,
    },
    /// An `item` selector value of another type than its key field.
    ItemArgType(String),
    /// Inconsistent list metadata (upstream `listMetadata.check()`).
    ListMetadata {
        /// Upstream's text.
        message: &'static str,
        /// What to do.
        hint: &'static str,
    },
    /// `listType=map`/`unique=map` without `listMapKey`.
    ListMapWithoutKeys,
    /// A list-map whose elements are not structs.
    ListMapOfNonStructs,
    /// A `listMapKey` that names no field of the element type.
    ListMapKeyNotAField {
        /// The key as written.
        key: String,
        /// The element type's Go name.
        elem: String,
    },
    /// `subfield` inside `subfield` (before 1.38).
    NestedSubfield,
    /// A `subfield` chain (1.38) ending in list metadata or a struct-level tag, which vgc does not lower through a
    /// chain yet (the payload's tag name).
    NestedSubfieldPayload(&'static str),
    /// `subfield` on a value that is not a struct.
    SubfieldOnNonStruct,
    /// `subfield(name)` naming no member.
    SubfieldNoMember {
        /// The struct's Go name.
        ty: String,
        /// The JSON name given.
        name: String,
    },
}

impl LowerDiagnostic {
    /// The diagnostic's stable code.
    pub(super) fn code(&self) -> Code {
        use LowerDiagnostic as D;
        match self {
            D::MapOfSlices
            | D::UnsupportedShape(_)
            | D::EmbeddedPointerCycle(_)
            | D::NestedSubfieldPayload(_) => Code::UnsupportedType,
            D::UnresolvedType { .. } => Code::Unresolved,
            D::UpdateItemsWithoutListMetadata
            | D::ItemsWithoutListMetadata
            | D::ListMetadata { .. }
            | D::ListMapWithoutKeys
            | D::ListMapOfNonStructs
            | D::ListMapKeyNotAField { .. } => Code::ListMetadata,
            D::ModeDiscriminatorKind
            | D::DiscriminatedStructNotPointer
            | D::UnionDiscriminatorKind
            | D::UnionMemberKind(_)
            | D::UnionMemberWithoutJson
            | D::TriggerWithoutJson
            | D::DependentFieldKind { .. }
            | D::NestedSubfield
            | D::SubfieldOnNonStruct => Code::TypeMismatch,
            D::ReservedModality
            | D::DuplicateDiscriminator(_)
            | D::MissingDiscriminator(_)
            | D::BoolDiscriminatorValue(_)
            | D::NoSiblingField(_)
            | D::SameTriggerAndDependent(_)
            | D::ItemArgCount { .. }
            | D::ItemArgsUnnamed
            | D::ItemNoSuchField { .. }
            | D::ItemNotAKey { .. }
            | D::SubfieldNoMember { .. } => Code::InvalidPayload,
            D::IfModeWithoutMode => Code::MissingArg,
            D::ItemArgType(_) => Code::ArgType,
        }
    }

    /// The whole message about `subject`.
    pub(super) fn message(&self, subject: &Subject) -> String {
        use LowerDiagnostic as D;
        let detail = match self {
            D::MapOfSlices => "validation for map of slices is not supported".to_string(),
            D::UnsupportedShape(msg) => (*msg).to_string(),
            D::EmbeddedPointerCycle(cycle) => format!(
                "an inline-embedded pointer that embeds its own struct again ({}) is not supported",
                cycle.join(" embeds ")
            ),
            D::UnresolvedType { pkg, name, .. } => format!("type {pkg}.{name} cannot be resolved"),
            D::UpdateItemsWithoutListMetadata => "update NoAddItem/NoRemoveItem requires listType=set or listType=map (or unique=...)".to_string(),
            D::ModeDiscriminatorKind => "tag \"k8s:modeDiscriminator\": can only be used on non-pointer string or bool types".to_string(),
            D::ReservedModality => "discriminator group name \"default\" is reserved".to_string(),
            D::DuplicateDiscriminator(m) => format!("duplicate discriminator: {m:?}"),
            D::IfModeWithoutMode => "tag \"k8s:ifMode\": missing required mode".to_string(),
            D::DiscriminatedStructNotPointer => {
                "discriminated member fields of struct type must be pointers".to_string()
            }
            D::UnionDiscriminatorKind => {
                "tag \"k8s:unionDiscriminator\": can only be used on string types".to_string()
            }
            D::UnionMemberKind(tag) => format!(
                "tag {:?}: can only be used on nilable and primitive types",
                tag.name()
            ),
            D::UnionMemberWithoutJson => "is a union member but has no JSON name".to_string(),
            D::MissingDiscriminator(None) => "missing discriminator".to_string(),
            D::MissingDiscriminator(Some(m)) => format!("missing discriminator for group {m:?}"),
            D::BoolDiscriminatorValue(v) => {
                format!("invalid discriminator value {v:?}: cannot parse as bool")
            }
            D::TriggerWithoutJson => "trigger field has no JSON name".to_string(),
            D::NoSiblingField(j) => format!("no sibling field with JSON name {j:?}"),
            D::SameTriggerAndDependent(j) => {
                format!("trigger and dependent field must be different (both are {j:?})")
            }
            D::DependentFieldKind { role, name } => {
                format!("{role} field {name:?} has an unsupported type kind")
            }
            D::ItemsWithoutListMetadata => "found items with no list metadata - item tags require listType=map or unique=map with listMapKey".to_string(),
            D::ItemArgCount { given, keys } => format!(
                "number of arguments ({given}) does not match number of listMapKey fields ({})",
                keys.len()
            ),
            D::ItemArgsUnnamed => "item arguments must all be named".to_string(),
            D::ItemNoSuchField { name, .. } => format!("no field with JSON name {name:?}"),
            D::ItemNotAKey { name, .. } => format!("{name:?} is not a listMapKey"),
            D::ItemArgType(n) => {
                format!("item argument {n:?} does not match the key field's type")
            }
            D::ListMetadata { message, .. } => (*message).to_string(),
            D::ListMapWithoutKeys => {
                "found listType=map or unique=map without listMapKey".to_string()
            }
            D::ListMapOfNonStructs => "only lists of structs can be list-maps".to_string(),
            D::ListMapKeyNotAField { key, elem } => {
                format!("listMapKey {key:?} is not a field of {elem}")
            }
            D::NestedSubfield => "nested subfield is not supported".to_string(),
            D::NestedSubfieldPayload(tag) => {
                format!("a chain of \"k8s:subfield\" tags ending in {tag:?} is not supported by vgc yet")
            }
            D::SubfieldOnNonStruct => {
                "tag \"k8s:subfield\" can only be used on struct types".to_string()
            }
            D::SubfieldNoMember { ty, name } => {
                format!("{ty} has no member with JSON name {name:?}")
            }
        };
        format!("{subject}: {detail}")
    }

    /// The hint shown under the message, if any.
    pub(super) fn hint(&self) -> Option<String> {
        use LowerDiagnostic as D;
        if let D::ItemNotAKey { keys, .. }
        | D::ItemNoSuchField { keys, .. }
        | D::ItemArgCount { keys, .. } = self
        {
            return Some(format!(
                "name the list-map keys: {}",
                keys.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let D::UnresolvedType {
            name,
            missing_from: Some((path, near)),
            ..
        } = self
        {
            return Some(match near {
                Some(n) => format!("package {path} declares no type {name}; did you mean `{n}`?"),
                None => format!(
                    "package {path} declares no type {name}: declare it, or mark the field `+k8s:opaqueType`"
                ),
            });
        }
        let hint = match self {
            D::MapOfSlices => "wrap the list in a named typedef or struct to validate it",
            D::UnsupportedShape(msg) if msg.starts_with("fixed-size arrays") => {
                "validation-gen cannot generate code for arrays, also behind a typedef; use a slice (`[]T`)"
            }
            D::UnsupportedShape(_) => {
                "validation-gen cannot generate code for this shape; use a named struct or typedef to hold the inner value"
            }
            D::EmbeddedPointerCycle(_) => {
                "Go's encoding/json never fills the inner copy from JSON, which the generated Rust type cannot express; give the field a JSON name or break the cycle"
            }
            D::UnresolvedType { .. } => {
                "make the package available (go.mod, module cache) or mark the field `+k8s:opaqueType`"
            }
            D::UpdateItemsWithoutListMetadata => {
                "add `+k8s:listType=set`, or `+k8s:listType=map` with `+k8s:listMapKey`"
            }
            D::MissingDiscriminator(_) => "mark the selecting field with `+k8s:modeDiscriminator`",
            D::ListMetadata { hint, .. } => hint,
            D::ListMapWithoutKeys => "add `+k8s:listMapKey=<json name>` for each key field",
            D::ModeDiscriminatorKind
            | D::ReservedModality
            | D::DuplicateDiscriminator(_)
            | D::IfModeWithoutMode
            | D::DiscriminatedStructNotPointer
            | D::UnionDiscriminatorKind
            | D::UnionMemberKind(_)
            | D::UnionMemberWithoutJson
            | D::BoolDiscriminatorValue(_)
            | D::TriggerWithoutJson
            | D::NoSiblingField(_)
            | D::SameTriggerAndDependent(_)
            | D::DependentFieldKind { .. }
            | D::ItemsWithoutListMetadata
            | D::ItemArgCount { .. }
            | D::ItemArgsUnnamed
            | D::ItemNoSuchField { .. }
            | D::ItemNotAKey { .. }
            | D::ItemArgType(_)
            | D::ListMapOfNonStructs
            | D::ListMapKeyNotAField { .. }
            | D::NestedSubfield
            | D::SubfieldOnNonStruct
            | D::SubfieldNoMember { .. } => return None,
            D::NestedSubfieldPayload(_) => {
                "declare the tag with a single `+k8s:subfield` on the intermediate type's field, or directly on the nested field"
            }
        };
        Some(hint.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendered texts are upstream's (spec §4) — fixed here so a refactor cannot drift them.
    #[test]
    fn messages_codes_and_hints() {
        let cases = [
            (
                TagDiagnostic::WrongKind(ValueKinds::ListOrMap),
                TagId::EachVal,
                Code::TypeMismatch,
                "T: tag \"k8s:eachVal\": can only be used on list or map types",
            ),
            (
                TagDiagnostic::NonPointerStruct,
                TagId::Required,
                Code::TypeMismatch,
                "T: tag \"k8s:required\": non-pointer structs cannot use the \"k8s:required\" tag",
            ),
            (
                TagDiagnostic::OutOfRange(300),
                TagId::Minimum,
                Code::InvalidPayload,
                "T: tag \"k8s:minimum\": value 300 does not fit the field's type",
            ),
            (
                TagDiagnostic::UpdateItemsWithoutItems(UpdateConstraint::NoAddItem),
                TagId::Update,
                Code::TypeMismatch,
                "T: tag \"k8s:update\": NoAddItem can only be used on list or map fields",
            ),
            (
                TagDiagnostic::ItemNotDirect,
                TagId::Item,
                Code::UnsupportedType,
                "T: tag \"k8s:item\": tag \"k8s:item\" is supported only directly on a list field or list type",
            ),
        ];
        for (d, tag, code, text) in cases {
            assert_eq!((d.code(), d.message("T", tag).as_str()), (code, text));
        }
        assert_eq!(
            TagDiagnostic::UnknownListType("x".into()).hint().as_deref(),
            Some("use atomic, set or map")
        );
        assert!(
            TagDiagnostic::UnknownFormat("x".into(), vec!["k8s-short-name"])
                .hint()
                .is_some_and(|h| h.contains("k8s-short-name"))
        );
    }
}
