//! The backend-neutral validation plan: what codegen turns into Rust. Every plan type is serde-serializable, so a
//! lowered plan can be kept between runs (`vgc validate`'s plan cache).

use serde::{Deserialize, Serialize};
use vgc_analysis::TypeKey;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_ir::catalog::{Stability, TagId};
use vgc_runtime::formats::Format;
use vgc_runtime::validate::UpdateConstraint;

/// A Rust-level type for a Go type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RustTy {
    /// A builtin scalar.
    Builtin(Builtin),
    /// A generated named type.
    Named(TypeKey),
    /// A runtime well-known type.
    WellKnown(WellKnown),
    /// `Option<T>` (a Go pointer), or `Option<Box<T>>` when recursion needs a `Box`.
    Option(Box<RustTy>, Boxing),
    /// `Vec<T>`
    Vec(Box<RustTy>),
    /// `BTreeMap<String, T>`
    Map(Box<RustTy>),
    /// `serde_json::Value`
    Json,
}

impl RustTy {
    /// The generated struct or typedef this type holds directly or through one pointer (`T`, `Option<T>`); `None`
    /// for builtins, well-known types, lists, maps and JSON.
    #[must_use]
    pub fn named(&self) -> Option<&TypeKey> {
        match self {
            RustTy::Named(k) => Some(k),
            RustTy::Option(inner, _) => match &**inner {
                RustTy::Named(k) => Some(k),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A Go type as written in the Go source, with every package qualifier resolved to its import path: what a Go
/// backend spells (`vgc_gogen`: closure signatures, `safe.Field` accessors, type arguments). Unlike [`RustTy`], it
/// keeps what Go distinguishes and Rust does not: map key types, `byte` vs `uint8`, `metav1.Time` vs `time.Time`,
/// arrays.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoTy {
    /// A predeclared type (`string`, `int32`, `byte`, `any`), spelled as written.
    Builtin(String),
    /// A named type: the import path of its package (the declaring package's own for an unqualified name) and its
    /// name.
    Named {
        /// Import path.
        pkg: String,
        /// Type name.
        name: String,
    },
    /// `*T`
    Pointer(Box<GoTy>),
    /// `[]T`
    Slice(Box<GoTy>),
    /// `[N]T`, the length as written.
    Array(String, Box<GoTy>),
    /// `map[K]V`
    Map(Box<GoTy>, Box<GoTy>),
    /// A type the plan does not model (an anonymous struct, an interface, a func, a qualifier no import names), as
    /// written.
    Other(String),
}

impl GoTy {
    /// Go's predeclared type names (the universe scope's types).
    pub const PREDECLARED: &'static [&'static str] = &[
        "bool",
        "string",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "byte",
        "rune",
        "any",
        "error",
    ];
}

/// Where a root type's validation is registered (upstream `RegisterValidations`, spec §3.6).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Subresources {
    /// The subresource paths validation runs for, sorted: `"/"` unless `isSubresource`, plus every
    /// `supportsSubresource` and the `isSubresource` value.
    pub allowed: Vec<String>,
    /// The Go `%T` of the registered object (`*v1.Pod`; a list or map typedef by value), for upstream's "no
    /// validation found" internal error.
    pub go_type: String,
}

/// A `modeDiscriminator` field.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Discriminator {
    /// The discriminator's Go field name (codegen decides its Rust name, `vgc_codegen::ident::field`).
    pub field: String,
    /// Its Go type.
    pub kind: DiscriminatorKind,
}

/// The Go type of a `modeDiscriminator` (upstream accepts non-pointer strings and bools).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiscriminatorKind {
    /// `string` (or a string typedef): modes are compared as strings.
    String,
    /// `bool`: modes are parsed as Go's `strconv.ParseBool`.
    Bool,
}

/// How the target of a Go pointer is held in Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Boxing {
    /// `Option<T>`.
    Inline,
    /// `Option<Box<T>>`: the pointer closes a cycle of struct types, which Rust can only hold behind a `Box`.
    Boxed,
}

/// `k8s:enum` on a string type: its constants' values and `enumExclude` rules (upstream `enum.go`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EnumPlan {
    /// The valid values, sorted.
    pub values: Vec<String>,
    /// Values excluded by `ifEnabled(X)=+k8s:enumExclude` / `ifDisabled(X)=…` on their constants, in constant-name
    /// order.
    pub exclusions: Vec<EnumExclusion>,
    /// An option the request does not define is an error (`vgc_ir::Upstream::undefined_option_is_error`, 1.37 on);
    /// before, it counts as disabled.
    pub undefined_option_is_error: bool,
    /// The Go constants that name the valid values, one per value (upstream `addIfNotPresent`: the one with the
    /// longest doc comment), sorted by name: (package import path, constant name, value). The Go backend prints them.
    pub constants: Vec<(String, String, String)>,
}

/// One `enumExclude` rule: `value` is not allowed while `option` is in state `when`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EnumExclusion {
    /// The excluded value.
    pub value: String,
    /// The option state that excludes it (`ifEnabled` → [`OptionState::Enabled`]).
    pub when: OptionState,
    /// The option's name.
    pub option: String,
}

/// The state of an option (`ifEnabled`/`ifDisabled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OptionState {
    /// The option is on.
    Enabled,
    /// The option is off.
    Disabled,
}

/// How list items are identified (list metadata).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Matcher {
    /// No metadata / atomic: items have no identity.
    None,
    /// `listType=set`: full equality.
    Set,
    /// `listType=map`: the listed key fields (Go field names of the element struct).
    Keys(Vec<String>),
}

/// The pattern of every [`CheckKind`] of the limits family (upstream `limits.go`: `minimum`/`maximum` in every
/// form, lengths, bytes, items, properties), for exhaustive matches in every stage (`check_call`, the interpreter's
/// `Cx::call`, the plan's own decisions): one list to extend when a limit is added.
#[macro_export]
macro_rules! limit_check_kinds {
    () => {
        $crate::plan::CheckKind::Minimum(_)
            | $crate::plan::CheckKind::Maximum(_)
            | $crate::plan::CheckKind::MinimumDuration(_)
            | $crate::plan::CheckKind::MinimumQuantity(_)
            | $crate::plan::CheckKind::MaximumQuantity(_)
            | $crate::plan::CheckKind::MaximumDuration(_)
            | $crate::plan::CheckKind::MinLength(_)
            | $crate::plan::CheckKind::MaxLength(_)
            | $crate::plan::CheckKind::MaxLengthBytes(_)
            | $crate::plan::CheckKind::MaxBytes(_)
            | $crate::plan::CheckKind::MaxBytesSlice(_)
            | $crate::plan::CheckKind::MinItems(_)
            | $crate::plan::CheckKind::MaxItems(_)
            | $crate::plan::CheckKind::MinProperties(_)
            | $crate::plan::CheckKind::MaxProperties(_)
    };
}

/// What a check does.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CheckKind {
    /// `k8s:required`. `detail`: the tag's message payload (upstream 1.38, `+k8s:required="msg"`), the error's
    /// detail (`Required value: msg`); `None` without one (and for the `Required` that `+default` makes of
    /// `optional`).
    Required {
        /// The message payload, never empty.
        detail: Option<String>,
    },
    /// `k8s:optional` (NonError short-circuit when unset)
    Optional,
    /// `k8s:forbidden` (Forbidden check; followed by an Optional). `detail` as for [`CheckKind::Required`]
    /// (`Forbidden: msg`).
    Forbidden {
        /// The message payload, never empty.
        detail: Option<String>,
    },
    /// `k8s:minimum`
    Minimum(i128),
    /// `k8s:maximum`
    Maximum(i128),
    /// `k8s:minimum` on a `time.Duration` value (not a typedef of it) from 1.38
    /// (`vgc_ir::Upstream::min_max_bound_with_v`): the bound in nanoseconds, printed as `Duration.String()`
    /// (`must be greater than or equal to 1s`; `vgc_runtime::validate::minimum_duration`). Before 1.38 such a
    /// value gets [`CheckKind::Minimum`] (`%d`: the nanoseconds).
    MinimumDuration(i64),
    /// `k8s:minimum` on a `resource.Quantity` value from 1.38 (code-generator v0.38.0-beta.0 `limits.go`,
    /// `validate.MinimumQuantity(…, resource.MustParse("<payload>"))`): the payload as written (a quantity
    /// `resource.ParseQuantity` accepts), compared numerically; value and bound printed as Go's `Quantity.String()`.
    MinimumQuantity(String),
    /// `k8s:maximum` on a `resource.Quantity` value from 1.38 (see [`CheckKind::MinimumQuantity`]).
    MaximumQuantity(String),
    /// `k8s:maximum` on a `time.Duration` value from 1.38 (see [`CheckKind::MinimumDuration`];
    /// `vgc_runtime::validate::maximum_duration`).
    MaximumDuration(i64),
    /// `k8s:minLength`
    MinLength(i64),
    /// `k8s:maxLength`
    MaxLength(i64),
    /// `k8s:maxLength` before 1.36: byte length, `may not be more than N bytes`, origin `maxLength`
    /// (`vgc_ir::Upstream::max_length_counts_bytes`).
    MaxLengthBytes(i64),
    /// `k8s:maxBytes`
    MaxBytes(i64),
    /// `k8s:maxBytes` on a `[]byte` (1.38 on, `vgc_ir::Upstream::max_bytes_on_byte_slices`; upstream
    /// `validate.MaxBytesSlice`, kubernetes#141811): `may not be more than N bytes`, origin `maxBytes`.
    MaxBytesSlice(i64),
    /// `k8s:minItems`
    MinItems(i64),
    /// `k8s:maxItems`
    MaxItems(i64),
    /// `k8s:minProperties`
    MinProperties(i64),
    /// `k8s:maxProperties`
    MaxProperties(i64),
    /// `k8s:format`, as the profile's release checks it (`vgc_ir::Upstream::format_as_of`).
    Format(Format),
    /// `k8s:format=<name>` naming a project format (`--validation-extensions-file`, 1.38 on; upstream
    /// `validate.Matches(…, formatPattern_<name>, message, "format=<name>")`, kubernetes#142116).
    Matches(vgc_ir::extensions::ProjectFormat),
    /// `k8s:enum`.
    Enum(EnumPlan),
    /// `k8s:immutable`
    Immutable,
    /// `k8s:update`: merged constraints in upstream's order, without repeats, and, for lists, how items are
    /// identified (from the list metadata).
    Update(Vec<UpdateConstraint>, Matcher),
    /// Uniqueness from `listType=set|map` or `unique`.
    Unique(Matcher),
    /// `k8s:eachVal`: inner checks applied to each element / map value (of the given shape).
    EachVal(Vec<Check>, Matcher, Shape),
    /// `k8s:eachKey`: inner checks applied to each map key.
    EachKey(Vec<Check>),
    /// `k8s:subfield`: checks on a member of this struct, in the member's named cohort.
    Subfield(Box<Subfield>),
    /// A union or zero-or-one-of group over this struct's fields (struct-level, deferred from member tags).
    Union(Box<UnionPlan>),
    /// `k8s:dependentRequired` / `k8s:dependentForbidden` (struct-level, deferred from the trigger field).
    Dependent(Box<DependentPlan>),
    /// A field-path constraint (vgc extension, `docs/extensions.md`; KEP-5073 "Field Path Strategy"):
    /// `+k8s:minimum(constraint: <path>)` and its kin on a field, hoisted to the field's parent struct (struct-level).
    FieldConstraint(Box<ConstraintPlan>),
    /// A virtual group (vgc extension, `docs/extensions.md`; KEP-5073 "Virtual Field Strategy"):
    /// `+k8s:union(union: g)` / `+k8s:zeroOrOneOf(union: g)` over the fields and list-map items tagged
    /// `+k8s:memberOf(group: g)` in one root type's tree, run on the members' closest common ancestor struct.
    VirtualUnion(Box<VirtualUnionPlan>),
    /// `k8s:monotonic` (integers).
    Monotonic,
    /// Synthetic upstream `PtrSliceNoNils` for `[]*T` fields: `Required(path[i])` per nil element; the first
    /// short-circuit function of the field (after the ratchet).
    NoNils,
    /// The test tags `validateTrue*` (`result == true`, never fails) and `validateFalse` (upstream `FixedResult`:
    /// `Invalid(path, value, "forced failure: <msg>")`, origin `validateFalse`).
    FixedResult {
        /// `true` never fails.
        result: bool,
        /// The payload message.
        msg: String,
        /// The `typeArg` argument: the Go type upstream passes as `FixedResult`'s explicit type argument
        /// (`k8s.io/x/primitives.T1`, `int`; printed as a pointer, `FixedResult[*primitives.T1]`). No behaviour: read by
        /// the Go backend only.
        type_arg: Option<String>,
    },
    /// `k8s:customValidation`: a call to the user's hand-written function (upstream
    /// `ValidateCustom_<Type>[_<Field>]`), a method of the `Custom` trait of `owner`'s module for values of type
    /// `ty` (codegen names it, `vgc_codegen::ident::custom_method`).
    Custom {
        /// The type carrying the tag (on one of its fields when `field` is set); its package's module declares the
        /// `Custom` trait.
        owner: TypeKey,
        /// The Go field name for a field-scope use, `None` at type scope.
        field: Option<String>,
        /// Upstream function name, e.g. `ValidateCustom_EvictionResponder_Name`.
        upstream: String,
        /// Value type (without `Option`).
        ty: RustTy,
    },
    /// `k8s:item(k: v, …)=+tag`: one upstream `ValSliceItem`/`PtrSliceItem` call around one inner check, in the
    /// cohort named by the selector text.
    Item(Box<ItemPlan>),
    /// A union or zero-or-one-of group whose members are list items (`item(…)=+k8s:zeroOrOneOfMember`), run on the
    /// list itself.
    ListUnion(Box<ListUnionPlan>),
    /// `k8s:modeDiscriminator` + `k8s:ifMode`: one upstream `Discriminated` call per member field.
    Discriminated(Box<ModePlan>),
    /// `k8s:neq=<v>`.
    Neq(NeqValue),
    /// `k8s:eq=<v>` (upstream 1.38, `validate.EQ`): `Unsupported value: <value>: supported values: "<v>"`, no origin.
    Eq(NeqValue),
    /// `k8s:ifEnabled(X)` / `k8s:ifDisabled(X)`: upstream `IfOption` around one inner check (the wrapper
    /// carries the inner check's flags).
    IfOption(Box<IfOptionPlan>),
    /// `k8s:ifSubresource("/s")` / `k8s:ifNotSubresource("/s")` (vgc extension, KEP-5073 "Subresources"): the
    /// inner check runs only when (or unless) the request's subresource path is `/s` (the wrapper carries the
    /// inner check's flags).
    IfSubresource(Box<IfSubresourcePlan>),
}

/// One check with its flags and stability mark.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Check {
    /// What it does.
    pub kind: CheckKind,
    /// Short-circuit flag.
    pub short_circuit: bool,
    /// NonError flag.
    pub non_error: bool,
    /// Alpha/beta mark on its errors.
    pub stability: Option<Stability>,
    /// The tag it came from (orders a declaration's checks as upstream emits them; `None` for upstream's synthetic
    /// `PtrSliceNoNils`/`PtrMapNoNils`, which no tag writes).
    pub tag: Option<TagId>,
    /// Named cohort (`subfield` uses the member's JSON name); `None` is the default cohort.
    pub cohort: Option<String>,
}

/// The body of [`Check::children`] and [`Check::children_mut`]: one exhaustive match for both (`mut` for the
/// mutable one).
macro_rules! children_of {
    ($kind:expr $(, $m:tt)?) => {
        match & $($m)? $kind {
            CheckKind::IfOption(io) => vec![& $($m)? io.inner],
            CheckKind::IfSubresource(is) => vec![& $($m)? is.inner],
            CheckKind::Subfield(s) => vec![& $($m)? s.inner],
            CheckKind::Item(it) => vec![& $($m)? it.inner],
            CheckKind::EachVal(inner, _, _) | CheckKind::EachKey(inner) => inner.into_iter().collect(),
            CheckKind::Discriminated(m) => (& $($m)? m.rules)
                .into_iter()
                .flat_map(|(_, cs)| cs)
                .collect(),
            CheckKind::Required { .. }
            | CheckKind::Optional
            | CheckKind::Forbidden { .. }
            | limit_check_kinds!()
            | CheckKind::Format(_)
            | CheckKind::Matches(_)
            | CheckKind::Enum(_)
            | CheckKind::Immutable
            | CheckKind::Update(..)
            | CheckKind::Unique(_)
            | CheckKind::Union(_)
            | CheckKind::Dependent(_)
            | CheckKind::FieldConstraint(_)
            | CheckKind::VirtualUnion(_)
            | CheckKind::Monotonic
            | CheckKind::NoNils
            | CheckKind::FixedResult { .. }
            | CheckKind::Custom { .. }
            | CheckKind::ListUnion(_)
            | CheckKind::Neq(_)
            | CheckKind::Eq(_) => Vec::new(),
        }
    };
}

impl CheckKind {
    /// Whether the check's errors show the checked value the way upstream's `ErrorBody` shows a value of a named
    /// Go type (a typedef, an enum type): as JSON, where a value of Go type `string` is quoted with `%q`. True for
    /// the checks whose errors echo the value (`enum`, `neq`/`eq`, and the formats whose error reports the value,
    /// `Format::reports_typed_value`); one decision for codegen and the interpreter.
    #[must_use]
    pub fn reports_typed_value(&self) -> bool {
        match self {
            CheckKind::Enum(_) | CheckKind::Neq(_) | CheckKind::Eq(_) => true,
            CheckKind::Format(f) => f.reports_typed_value(),
            CheckKind::Required { .. }
            | CheckKind::Optional
            | CheckKind::Forbidden { .. }
            | limit_check_kinds!()
            | CheckKind::Matches(_)
            | CheckKind::Immutable
            | CheckKind::Update(..)
            | CheckKind::Unique(_)
            | CheckKind::Union(_)
            | CheckKind::Dependent(_)
            | CheckKind::FieldConstraint(_)
            | CheckKind::VirtualUnion(_)
            | CheckKind::Monotonic
            | CheckKind::NoNils
            | CheckKind::FixedResult { .. }
            | CheckKind::Custom { .. }
            | CheckKind::ListUnion(_)
            | CheckKind::IfOption(_)
            | CheckKind::IfSubresource(_)
            | CheckKind::Subfield(_)
            | CheckKind::Item(_)
            | CheckKind::EachVal(..)
            | CheckKind::EachKey(_)
            | CheckKind::Discriminated(_) => false,
        }
    }
}

impl RustTy {
    /// Whether a value of this type (behind one `Option`) is of a named Go type — a typedef or an enum type — whose
    /// values upstream's `ErrorBody` renders as JSON ([`CheckKind::reports_typed_value`]).
    #[must_use]
    pub fn is_named_value(&self) -> bool {
        match self {
            RustTy::Option(i, _) => i.is_named_value(),
            RustTy::Named(_) => true,
            RustTy::Builtin(_)
            | RustTy::WellKnown(_)
            | RustTy::Vec(_)
            | RustTy::Map(_)
            | RustTy::Json => false,
        }
    }
}

impl Check {
    /// The checks this one wraps or runs on elements, in order: the inner check of `ifEnabled`/`ifDisabled`,
    /// `subfield` and `item`, the element checks of `eachVal`/`eachKey`, and every rule of a `Discriminated` call.
    /// Empty for leaf checks (and for unions, dependent fields and list unions, which hold no checks).
    #[must_use]
    pub fn children(&self) -> Vec<&Check> {
        children_of!(self.kind)
    }

    /// [`Check::children`], mutable: the same checks in the same order.
    pub fn children_mut(&mut self) -> Vec<&mut Check> {
        children_of!(self.kind, mut)
    }

    /// Calls `f` on this check and, depth first, on every check below it ([`Check::children`]).
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Check)) {
        f(self);
        for c in self.children() {
            c.walk(f);
        }
    }
}

/// A member of a struct value as the plan names it — the one spelling of "a struct member" the wrappers that
/// reach into a struct share (`subfield`, modes): its Go name (codegen decides its Rust name,
/// `vgc_codegen::ident::field`), its JSON name (the error path segment), and how its value is held and shaped.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemberRef {
    /// Go field name of the member.
    pub go: String,
    /// JSON name of the member (path segment).
    pub json: String,
    /// The member's Rust type (without `Option`).
    pub ty: RustTy,
    /// `Some` when the member is a Go pointer (`Option<_>`), with how its target is held.
    pub pointer: Option<Boxing>,
    /// Shape of the member value.
    pub shape: Shape,
    /// Element type when the member is a list or map.
    pub elem: Option<RustTy>,
}

/// One upstream `validate.Subfield` call: a single check applied to one member of a struct value at
/// `path.<json>`, skipped on update when the old struct is set and the member is equal. The wrapper carries its
/// inner check's flags; inherited member checks are NonError short-circuits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Subfield {
    /// The member.
    pub member: MemberRef,
    /// The wrapped check.
    pub inner: Check,
    /// True for a check inherited from the member's own short-circuit tags.
    pub inherited: bool,
}

/// A value's shape as checks see it (after typedefs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shape {
    /// A builtin scalar.
    Scalar {
        /// The scalar's builtin type.
        ty: Builtin,
        /// A Go pointer (`Option<_>` in Rust).
        pointer: bool,
    },
    /// A struct.
    Struct {
        /// A Go pointer (`Option<_>` in Rust).
        pointer: bool,
    },
    /// A list.
    List {
        /// Go `[]*T`: each element is an `Option<_>`.
        pointer_elems: bool,
    },
    /// A map with string keys.
    Map,
    /// A well-known or opaque value.
    Other {
        /// A Go pointer (`Option<_>` in Rust).
        pointer: bool,
    },
}

impl Shape {
    /// A struct (or well-known struct value) held by value: never unset, so it cannot be a union member or a
    /// dependent field (upstream: "can only be used on nilable and primitive types").
    #[must_use]
    pub fn is_value_struct(&self) -> bool {
        matches!(
            self,
            Shape::Struct { pointer: false } | Shape::Other { pointer: false }
        )
    }
}

/// A call into another type's validation function.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Nested {
    /// The type whose function is called.
    pub ty: TypeKey,
}

/// Per-element iteration calling the element type's function.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Iteration {
    /// Element type.
    pub elem: TypeKey,
    /// How old elements are matched.
    pub matcher: Matcher,
    /// Map keys (true) or values/elements (false).
    pub keys: bool,
}

/// A struct field.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldPlan {
    /// The Go field's identifier (an embedded field's is its type name); codegen decides the Rust field name
    /// (`vgc_codegen::ident::field`: `Type` → `r#type`).
    pub go_field: String,
    /// Go name; for a field without a JSON name (embedded inline, `json:"-"`) its leaf type as Go spells it
    /// (`GadgetCommon`, `string`), which upstream uses as the path segment of such a field at the root.
    pub go_name: String,
    /// JSON name (`""` for inline/embedded).
    pub json_name: String,
    /// Serialized inline (`#[serde(flatten)]`).
    pub flatten: bool,
    /// For an inline-embedded pointer (`*T` with no JSON name, R9): the JSON names it claims in the enclosing
    /// object (T's fields, through T's own inline embeddings, minus names Go's `typeFields` ignores), sorted.
    /// Go's encoding/json allocates the pointer when one of them is present (whatever its value, `null`
    /// included) and leaves it nil otherwise; the generated type decodes it the same way. Empty otherwise.
    pub embedded_keys: Vec<String>,
    /// Not serialized (`json:"-"`).
    pub skip: bool,
    /// `omitempty`.
    pub omitempty: bool,
    /// Rust type.
    pub ty: RustTy,
    /// The field's Go type as declared (qualifiers resolved).
    pub go_ty: GoTy,
    /// Value shape.
    pub shape: Shape,
    /// Field checks in emission order (cohort-sorted: short-circuit checks first).
    pub checks: Vec<Check>,
    /// Why a tag of the field produced no check, as upstream's validators say it (`Validations.Comments`, e.g.
    /// `required.go`: "optional value-type fields with zero-value defaults are purely documentation"); the Go
    /// backend prints them where upstream does.
    pub notes: Vec<String>,
    /// Prepend `PtrSliceNoNils`.
    pub no_nils: bool,
    /// Call the field type's function.
    pub nested: Option<Nested>,
    /// Iterate elements/values calling their type's function.
    pub iteration: Option<Iteration>,
    /// Iterate map keys calling the key type's function (upstream `EachMapKey`, emitted before the values').
    pub key_iteration: Option<Iteration>,
    /// The field's `+default=` value as JSON text (`"TCP"`, `100`, `{"single": {}}`), a `ref(Const)` resolved to
    /// the constant's value; `None` without a single readable one. A field with no `+default` of its own whose
    /// type reaches its base through a pointer (`*Color`) takes the first type declaration's default on the way
    /// (the pointer's target, then through typedefs: defaulter-gen's `getNestedDefault`). Not a validation rule: the API server's
    /// defaulting (defaulter-gen's `SetObjectDefaults_*`) applies it before validating, and `vgc validate` does
    /// the same (`vgc_validate::Interpreter::defaults`).
    pub default: Option<String>,
}

impl FieldPlan {
    /// True when the field has anything to run.
    #[must_use]
    pub fn has_work(&self) -> bool {
        !self.checks.is_empty()
            || self.nested.is_some()
            || self.iteration.is_some()
            || self.key_iteration.is_some()
    }
}

/// A named type's definition and validation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TypePlan {
    /// Identity.
    pub key: TypeKey,
    /// Struct fields, or `None` for a typedef.
    pub fields: Option<Vec<FieldPlan>>,
    /// For typedefs, the Rust type it stands for.
    pub alias_of: Option<RustTy>,
    /// For typedefs, the Go type it is declared as (`[]Item`, `map[string]V`, or `T` for `type E T` over a struct
    /// `T`, whose fields this plan then holds), qualifiers resolved.
    pub go_ty: Option<GoTy>,
    /// A type-level `+k8s:opaqueType`: its members are not validated, only its own tags run (upstream returns
    /// before descending into the type).
    pub opaque: bool,
    /// The release that stopped serving this kind, from its prerelease-lifecycle-gen markers
    /// (`vgc_ir::model::removed_in`: `removed=1.Y`, else `deprecated` plus three minors; k8s.io/api's `apps/v1beta2`
    /// types say `1.16`); `None` without either. Not a
    /// validation rule: `vgc validate` refuses an object of a kind its release no longer serves, as that API server
    /// answers "no matches for kind".
    pub removed_in: Option<String>,
    /// Shape of the type's value (for type-level checks).
    pub shape: Shape,
    /// Type-level checks, cohort-sorted.
    pub checks: Vec<Check>,
    /// For typedefs of lists/maps: element iteration.
    pub iteration: Option<Iteration>,
    /// For typedefs of maps: key iteration (before the values').
    pub key_iteration: Option<Iteration>,
    /// Root type (gets a `Validate` impl even without checks).
    pub root: bool,
    /// For roots: where upstream registers the type's validation.
    pub subresources: Option<Subresources>,
    /// Has validations (transitively); only such types get a validation function.
    pub has_validations: bool,
    /// Doc comment lines (without tag lines).
    pub docs: Vec<String>,
    /// The type's values can contain values of the same type (R32): its validation function and equality run on a
    /// growable stack (`vgc_runtime::stack::grow`), so deep objects built in Rust do not overflow the thread's stack.
    pub recursive: bool,
    /// The type declaration's own `+default=` value as JSON text (`ref(Const)` resolved), checked against the type;
    /// `None` without a single readable one. Not a validation rule: defaulter-gen applies it to list items and map
    /// values of the type and, through [`FieldPlan::default`], to pointer fields of it (code-generator
    /// `defaulter.go`, `getNestedDefault`); `vgc validate` does the same (`vgc_validate::Interpreter::defaults`).
    pub default: Option<String>,
    /// JSON names Go's `encoding/json` ignores on this struct: fields of inline-embedded structs that conflict at
    /// their shallowest depth with no single tagged winner. Sorted; codegen consumes these keys so that no
    /// flattened struct receives them.
    pub json_ignored: Vec<String>,
}

/// One Go package → one Rust module.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModulePlan {
    /// Import path.
    pub pkg: String,
    /// The package's API group: its `+groupName=` (`Some("")` for the core group), else `None`
    /// ([`ModulePlan::api_version`] then takes the directory above the version).
    pub group: Option<String>,
    /// Types in declaration order.
    pub types: Vec<std::sync::Arc<TypePlan>>,
    /// The package's project deep-equality function (`+k8s:validation-gen-deep-equal-func=<func>`, upstream 1.38,
    /// kubernetes#141808), as written (`CustomDeepEqual`, `example.com/eq.Equal`); `None` for upstream's default
    /// `validate.SemanticDeepEqual` (vgc's `==`). Where upstream calls it — ratcheting, list matching, uniqueness,
    /// `eachVal` and map-value equivalence, `update`, `subfield`, `item` and mode ratchets, each on a value that is
    /// not directly comparable ([`direct_comparable`]) — generated code calls the module's `DeepEqual` trait,
    /// which the user implements (`vgc_codegen`'s `custom` emission), and the interpreter a function given to it.
    pub deep_equal: Option<String>,
    /// The Go package name (`package x` of its files), which need not be the import path's last element.
    pub go_name: String,
    /// The scheme type the package registers its validations with (`RegisterValidations(scheme *T)`), as an
    /// import path, a dot and a type name: the package's `+k8s:validation-gen-scheme-registry` value, else
    /// upstream's default `k8s.io/apimachinery/pkg/runtime.Scheme`; `None` for `=nil` (no registration; upstream
    /// `targets.go` `schemeRegistryTag`).
    pub scheme_registry: Option<String>,
}

/// upstream `targets.go` `schemeType`: the scheme a package registers with unless it says otherwise.
pub const DEFAULT_SCHEME_REGISTRY: &str = "k8s.io/apimachinery/pkg/runtime.Scheme";

/// Upstream's `util.IsDirectComparable(util.NonPointer(t))` on a plan type: whether Go's `==` compares values of
/// `ty` (a builtin; a struct, typedef or array of such, with no pointer, slice, map or interface anywhere inside),
/// after stripping one pointer at the top. Generated code compares such values with `==` and the others with the
/// package's deep-equality function. `named` answers for a generated struct or typedef by key
/// ([`crate::CratePlan::not_directly_comparable`] holds the others). Go facts for the well-known types:
/// `metav1.Duration` and `intstr.IntOrString` are structs of scalars (comparable); `resource.Quantity` (an
/// `*inf.Dec` inside), `metav1.Time`/`MicroTime` (`time.Time` holds a `*Location`), `RawExtension`, `FieldsV1` and
/// `[]byte` are not. upstream: code-generator v0.38.0-beta.0 `util.IsDirectComparable`.
#[must_use]
pub fn direct_comparable(ty: &RustTy, named: &dyn Fn(&TypeKey) -> bool) -> bool {
    let ty = match ty {
        RustTy::Option(inner, _) => inner,
        t => t,
    };
    comparable_member(ty, named)
}

/// [`direct_comparable`] of a struct member or typedef target, where a pointer is not stripped.
pub(crate) fn comparable_member(ty: &RustTy, named: &dyn Fn(&TypeKey) -> bool) -> bool {
    match ty {
        RustTy::Builtin(_) => true,
        RustTy::WellKnown(w) => matches!(w, WellKnown::Duration | WellKnown::IntOrString),
        RustTy::Named(k) => named(k),
        RustTy::Option(..) | RustTy::Vec(_) | RustTy::Map(_) | RustTy::Json => false,
    }
}

impl ModulePlan {
    /// The package's API group and version, as the API server's scheme and client-gen read them: the group of its
    /// `+groupName=` (else the directory above the version), the version its import path's last segment.
    #[must_use]
    pub fn group_version(&self) -> (String, String) {
        let mut parts = self.pkg.rsplit('/');
        let version = parts.next().unwrap_or("").to_string();
        let group = match &self.group {
            Some(g) => g.clone(),
            None => parts.next().unwrap_or("").to_string(),
        };
        (group, version)
    }
}

impl TypePlan {
    /// Whether the type is a kind: a struct embedding `TypeMeta` inline (upstream's `TypesWithField=TypeMeta`
    /// root rule; these are the types an API server registers).
    #[must_use]
    pub fn is_kind(&self) -> bool {
        self.fields.iter().flatten().any(|f| {
            f.json_name.is_empty() && build_type_key(&f.ty).is_some_and(|k| k.name == "TypeMeta")
        })
    }
}

/// One kind of a crate plan: what an object's `apiVersion` and `kind` name, and the type that validates it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindRef {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version (`v1`, `v1beta2`).
    pub version: String,
    /// The kind: the Go type's name.
    pub kind: String,
    /// The type.
    pub key: TypeKey,
    /// Whether the type has validation code (a root of its package, or rules of its own or below): codegen gives it
    /// a `Validate` impl. A kind without (in a read-only package, say `meta/v1` `Status`) has no rules to run;
    /// dispatch only decodes it.
    pub validated: bool,
    /// The release that stopped serving the kind ([`TypePlan::removed_in`]).
    pub removed_in: Option<String>,
}

impl KindRef {
    /// `group/version`, or just the version for the core group — an object's `apiVersion`.
    #[must_use]
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

/// Every kind of `modules` ([`TypePlan::is_kind`]), sorted by group, version and kind. Two packages declaring the
/// same group, version and kind keep a root (a type of the packages being built) over a dependency's type, then
/// the first by import path (the modules' order); [`shadowed_kinds`] lists the others, which the driver reports as
/// `VGC0114`.
#[must_use]
pub fn kinds(modules: &[std::sync::Arc<ModulePlan>]) -> Vec<KindRef> {
    kind_table(modules).0
}

/// The kinds `modules` declare more than once (R40): for each declaration [`kinds`] does not dispatch to, the kind
/// it dispatches to instead (a root before a dependency's type, then the first by import path) and the type it
/// shadows. A shadowed type keeps
/// its own `Validate` impl; only GVK dispatch (the generated registry, `vgc validate`) cannot reach it.
#[must_use]
pub fn shadowed_kinds(modules: &[std::sync::Arc<ModulePlan>]) -> Vec<(KindRef, TypeKey)> {
    kind_table(modules).1
}

fn kind_table(modules: &[std::sync::Arc<ModulePlan>]) -> (Vec<KindRef>, Vec<(KindRef, TypeKey)>) {
    let mut out: Vec<KindRef> = Vec::new();
    let mut shadowed = Vec::new();
    let mut seen: std::collections::BTreeMap<(String, String, String), usize> =
        std::collections::BTreeMap::new();
    // Roots first (the types of the packages being built), then the kinds of dependencies, each in import-path
    // order: a dependency declaring the same kind never shadows the module's own.
    let in_order = [true, false].into_iter().flat_map(|roots| {
        modules.iter().flat_map(move |m| {
            m.types
                .iter()
                .filter(move |t| t.root == roots && t.is_kind())
                .map(move |t| (m, t))
        })
    });
    for (m, t) in in_order {
        let (group, version) = m.group_version();
        {
            let gvk = (group.clone(), version.clone(), t.key.name.clone());
            if let Some(&first) = seen.get(&gvk) {
                shadowed.push((out[first].clone(), t.key.clone()));
                continue;
            }
            seen.insert(gvk, out.len());
            out.push(KindRef {
                group: group.clone(),
                version: version.clone(),
                kind: t.key.name.clone(),
                key: t.key.clone(),
                validated: t.root || t.has_validations,
                removed_in: t.removed_in.clone(),
            });
        }
    }
    out.sort();
    (out, shadowed)
}

/// Counts for the summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Packages loaded.
    pub packages: usize,
    /// Types generated.
    pub types: usize,
    /// Validation tag uses seen on reachable types (chains count once).
    pub tags: usize,
    /// Tag uses lowered to checks.
    pub lowered: usize,
    /// Tag uses producing no check of their own that a named consumer reads (list metadata, struct-level unions,
    /// modes and dependent fields, `item`, opacity).
    pub consumed: usize,
    /// Tag uses whose lowering reported an error, or that had no effect (reported as a `VGC0201` warning).
    pub reported: usize,
    /// Tag uses reported as not lowered yet.
    pub not_lowered: usize,
    /// Checks generated.
    pub checks: usize,
}

impl Stats {
    /// Adds `other`'s tag and check counts (`tags`, `lowered`, `consumed`, `reported`, `not_lowered`, `checks`) to
    /// these; the package and
    /// type counts are the crate's, not summed.
    pub fn add(&mut self, other: &Stats) {
        self.tags += other.tags;
        self.lowered += other.lowered;
        self.consumed += other.consumed;
        self.reported += other.reported;
        self.not_lowered += other.not_lowered;
        self.checks += other.checks;
    }
}

/// Which union validator a group uses (ordered as upstream emits the kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnionKind {
    /// `k8s:unionMember`: exactly one member set (or discriminated).
    Union,
    /// `k8s:zeroOrOneOfMember`: at most one member set.
    ZeroOrOneOf,
}

/// A member of a union group.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnionMemberPlan {
    /// The member field (its shape decides what "set" means; its JSON name is used in messages and paths).
    pub member: MemberRef,
    /// Discriminator value selecting this member (`memberName`, default the Go field name).
    pub member_name: String,
}

/// One union group of a struct (upstream `unionMembershipFor_…` / `zeroOrOneOfMembershipFor_…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnionPlan {
    /// Union or zero-or-one-of.
    pub kind: UnionKind,
    /// The union's name (`union:` argument, `""` by default).
    pub name: String,
    /// Members in field order.
    pub members: Vec<UnionMemberPlan>,
    /// The discriminator field, if any.
    pub discriminator: Option<MemberRef>,
    /// `Union` errors carry the origin `union` (1.36 on; `vgc_ir::Upstream::union_origin`).
    pub union_origin: bool,
}

/// One subresource condition (vgc extension, `docs/extensions.md`; KEP-5073 "Subresources": "Conditional
/// validation, provided by dedicated `+k8s:ifSubresource` and `+k8s:ifNotSubresource` tags").
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IfSubresourcePlan {
    /// The subresource path compared with upstream's `Request.SubresourcePath()` (`/status`; `/` is the resource
    /// itself), always starting with `/`.
    pub path: String,
    /// `true` for `ifNotSubresource` (the inner check runs unless the request is for `path`).
    pub negated: bool,
    /// The wrapped check (its own stability mark is not applied; the wrapper's is).
    pub inner: Check,
}

impl IfSubresourcePlan {
    /// Whether the inner check runs for a request whose subresource path matches `path` (`matches`).
    #[must_use]
    pub fn applies(&self, matches: bool) -> bool {
        matches != self.negated
    }
}

/// One upstream `validate.IfOption` call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IfOptionPlan {
    /// The option (feature gate) name.
    pub option: String,
    /// `true` for `ifEnabled`, `false` for `ifDisabled`.
    pub enabled: bool,
    /// An option the request does not define is an internal error (1.37 on); else it is disabled (1.35, 1.36;
    /// `vgc_ir::Upstream::undefined_option_is_error`).
    pub undefined_is_error: bool,
    /// The wrapped check (its own stability mark is not applied; the wrapper's is).
    pub inner: Check,
}

/// One upstream `DependentRequired`/`DependentForbidden` call on a struct.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DependentPlan {
    /// `dependentForbidden` (else `dependentRequired`).
    pub forbidden: bool,
    /// The field whose presence triggers the rule.
    pub trigger: MemberRef,
    /// The field that must then be set (or unset).
    pub dependent: MemberRef,
}

/// One field-path constraint hoisted to the struct it is checked on (vgc extension; `vgc_runtime::extensions`):
/// the value at `target` compared with the value at `bound`, both integers read from the struct through the
/// steps of their paths. No check when a pointer on either path is nil; on update no error when neither value
/// changed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConstraintPlan {
    /// Which comparison (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`).
    pub kind: vgc_runtime::extensions::ConstraintKind,
    /// The constrained field (the field the tag is written on: one step).
    pub target: FieldPath,
    /// The referenced field (the `constraint:` path, resolved).
    pub bound: FieldPath,
    /// `Some` for the form per element, `+k8s:eachVal=+k8s:maximum(constraint: <path>)` on a list or map field
    /// (KEP-5073 "Comprehensive Example"): `target` is that field, its `int` the elements' integer type, and each
    /// element (map value) is compared with the referenced field.
    pub each: Option<EachElements>,
}

/// The elements of a list or map field constrained per element ([`ConstraintPlan::each`]), and how an element finds
/// its old counterpart for ratcheting, as `eachVal` matches elements (`vgc_runtime::validate::each_slice_val`,
/// `each_map_val`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EachElements {
    /// A map (`BTreeMap<String, _>`; elements are its values, by key), else a list.
    pub map: bool,
    /// Go `[]*T` / `map[K]*T`: each element is an `Option<_>`; nil elements are not checked.
    pub pointer_elems: bool,
    /// For a list, how its elements are identified: [`Matcher::Set`] (`listType=set`: an element's old
    /// counterpart is an equal old element) or [`Matcher::None`] (atomic: elements have no identity, so an element
    /// is unchanged only when the whole list is). Maps match by key (this is [`Matcher::None`]).
    pub matcher: Matcher,
}

/// A path from a struct to an integer field below it, through struct fields (by value or pointer, typedef chains
/// resolved, inline-embedded structs included).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldPath {
    /// The fields on the way, the last one the compared value.
    pub steps: Vec<PathStep>,
    /// What the value is (after typedef chains).
    pub operand: Operand,
    /// The struct that declares the last step (where the referenced field lives: `vgc graph` and `vgc docs` link
    /// to it).
    pub holder: TypeKey,
}

impl FieldPath {
    /// The JSON names of the steps (inline-embedded structs contribute none): the error path segments below the
    /// struct.
    #[must_use]
    pub fn json_segments(&self) -> Vec<&str> {
        self.steps
            .iter()
            .filter(|s| !s.json.is_empty())
            .map(|s| s.json.as_str())
            .collect()
    }

    /// The path as written in the tag: the JSON names joined with `.` (`limits.maxValue`).
    #[must_use]
    pub fn dotted(&self) -> String {
        self.json_segments().join(".")
    }
}

/// One field on a [`FieldPath`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PathStep {
    /// The Go field's identifier (an embedded field's is its type name), as [`FieldPlan::go_field`].
    pub go: String,
    /// The JSON name; `""` for an inline-embedded struct.
    pub json: String,
    /// `Some` when the field is a Go pointer, with how its target is held.
    pub pointer: Option<Boxing>,
}

/// The kind of value a field-path constraint compares (both sides are of one kind), as
/// `vgc_runtime::extensions::Operand` compares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Operand {
    /// A Go integer type (`time.Duration` among them: its nanoseconds).
    Integer(Builtin),
    /// `resource.Quantity`, compared numerically.
    Quantity,
    /// `metav1.Duration`, compared by its nanoseconds.
    Duration,
}

impl Operand {
    /// The kind in words for diagnostics and docs (`int32`, `a quantity`, `a duration`).
    #[must_use]
    pub fn words(self) -> String {
        match self {
            Operand::Integer(Builtin::Duration) => "time.Duration (an integer)".into(),
            Operand::Integer(b) => format!("{b:?}").to_lowercase(),
            Operand::Quantity => "a quantity (resource.Quantity)".into(),
            Operand::Duration => "a duration (metav1.Duration)".into(),
        }
    }

    /// Whether values of the two kinds can be compared: integers with integers, quantities with quantities,
    /// durations with durations.
    #[must_use]
    pub fn comparable(self, other: Operand) -> bool {
        matches!(
            (self, other),
            (Operand::Integer(_), Operand::Integer(_))
                | (Operand::Quantity, Operand::Quantity)
                | (Operand::Duration, Operand::Duration)
        )
    }
}

/// The disallowed value of `k8s:neq`, typed like the field.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NeqValue {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

/// One upstream `validate.Discriminated` call: the rules of one member field for one modality.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModePlan {
    /// The member field.
    pub member: MemberRef,
    /// The modality's discriminator field.
    pub discriminator: Discriminator,
    /// Rules sorted by mode value: each mode's merged checks, in tag order (run as upstream's
    /// `MultiWrapperFunction`: in order, early return after the last short-circuit check).
    pub rules: Vec<(String, Vec<Check>)>,
    /// Level of the implicit Forbidden check used for other modes (set only when every rule has the same one).
    pub default_stability: Option<Stability>,
}

/// A virtual group's check on the struct that is its members' closest common ancestor (vgc extension,
/// KEP-5073 "Virtual Field Strategy"): run as upstream's `Union` / `ZeroOrOneOfUnion`
/// (`vgc_runtime::validate::union`, `zero_or_one_of`) with one "set" answer per member, the error at the
/// ancestor's path naming the members by their paths below it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VirtualUnionPlan {
    /// `union` (exactly one member set) or `zeroOrOneOf` (at most one).
    pub kind: UnionKind,
    /// The group's name (`memberOf(group: …)`), scoped to the root type whose tree holds it.
    pub group: String,
    /// The members in the order a depth-first walk of the ancestor's fields meets them.
    pub members: Vec<VirtualMember>,
}

/// One member of a [`VirtualUnionPlan`]: a field, or an item of a list-map field, below the ancestor struct.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VirtualMember {
    /// How error messages name it: the JSON path below the ancestor (`a`, `spec.a`), for an item with its keys
    /// (`conditions[{"type": "Failed"}]`, as upstream names list-item union members).
    pub name: String,
    /// The fields from the ancestor to the member's field (the last step), through pointers and inline
    /// embedding; a nil pointer on the way leaves the member unset.
    pub steps: Vec<PathStep>,
    /// The struct declaring the last step.
    pub holder: TypeKey,
    /// What "set" means for it.
    pub set: MemberSet,
}

/// When a [`VirtualMember`] is set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemberSet {
    /// A field: set as a union member field is (non-nil pointer, non-empty list or map, non-zero value).
    Field(Shape),
    /// A list-map item (`+k8s:listMapItem(k: v, …)=+k8s:memberOf(…)`): set when some element of the list field
    /// matches the selector.
    Item {
        /// The item's key values.
        selector: Selector,
        /// The list is `[]*T` (nil elements match nothing).
        ptr_elems: bool,
        /// The element struct.
        elem: TypeKey,
    },
}

/// A list-map item selector: (element Go field name, key is a pointer, value).
pub type Selector = Vec<(String, bool, NeqValue)>;

/// One upstream `ValSliceItem`/`PtrSliceItem` call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ItemPlan {
    /// Which element to select (all list-map keys).
    pub selector: Selector,
    /// The element's Rust type.
    pub elem: RustTy,
    /// The list is `[]*T` (elements are `Option`).
    pub ptr_elems: bool,
    /// Shape of the element.
    pub elem_shape: Shape,
    /// The wrapped check, applied at `path[i]` of the first matching element.
    pub inner: Check,
}

/// A union group over list items.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ListUnionPlan {
    /// Union or zero-or-one-of.
    pub kind: UnionKind,
    /// The union's name (`union:` argument of the member tags, `""` by default).
    pub name: String,
    /// Members: (name used in messages, e.g. `conditions[{"type": "Approved"}]`, selector).
    pub members: Vec<(String, Selector)>,
    /// The list is `[]*T`.
    pub ptr_elems: bool,
    /// `Union` errors carry the origin `union` (1.36 on; `vgc_ir::Upstream::union_origin`).
    pub union_origin: bool,
}

/// The lowered crate: modules, diagnostics and counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CratePlan {
    /// One module per Go package with generated types, sorted by import path.
    pub modules: Vec<std::sync::Arc<ModulePlan>>,
    /// The main Go module's path (`go.mod`'s `module`): codegen places its packages' modules relative to it
    /// (`vgc_codegen::ident::module_path`).
    pub go_module: String,
    /// Diagnostics raised while lowering (type-dependent tag errors, not-lowered warnings).
    pub diagnostics: Vec<vgc_ir::Diagnostic>,
    /// Counts.
    pub stats: Stats,
    /// The upstream profile the plan was lowered under (docs say which release's semantics they describe).
    pub upstream: vgc_ir::Upstream,
    /// The project formats `+k8s:format` accepts (`--validation-extensions-file`, kubernetes#142116): those of the
    /// settings under a profile with [`vgc_ir::Upstream::project_formats`], else none. `vgc docs` lists them.
    pub formats: std::sync::Arc<[vgc_ir::extensions::ProjectFormat]>,
    /// The kinds of target packages tagged `+k8s:validation-gen=false` ([`types::switched_off_kinds`]): declared
    /// and served, with no declarative validation (`validated` false). Not part of [`kinds`]'s
    /// dispatch; `vgc validate` names them as such instead of as unknown kinds.
    pub switched_off_kinds: Vec<KindRef>,
}

impl CratePlan {
    /// The generated types Go's `==` cannot compare ([`direct_comparable`] false): a struct with a
    /// member that is not comparable (a pointer, list, map, interface, or such a struct), a typedef of one, a type
    /// a plan does not define. Unexported Go members are not in the plan and so not looked at (an unexported
    /// pointer member makes upstream's answer `false`). A fixed point from "all comparable" (Go has no struct that
    /// contains itself by value).
    #[must_use]
    pub fn not_directly_comparable(&self) -> std::collections::BTreeSet<TypeKey> {
        let by_key = self.types_by_key();
        let mut not = std::collections::BTreeSet::new();
        loop {
            let before = not.len();
            for t in self.types() {
                if not.contains(&t.key) {
                    continue;
                }
                let named = |k: &TypeKey| by_key.contains_key(k) && !not.contains(k);
                let ok = match (&t.fields, &t.alias_of) {
                    (Some(fields), _) => fields.iter().all(|f| comparable_member(&f.ty, &named)),
                    (None, Some(a)) => comparable_member(a, &named),
                    (None, None) => false,
                };
                if !ok {
                    not.insert(t.key.clone());
                }
            }
            if not.len() == before {
                return not;
            }
        }
    }

    /// Every type plan of every module, in module order then the module's own order.
    pub fn types(&self) -> impl Iterator<Item = &TypePlan> {
        self.modules
            .iter()
            .flat_map(|m| m.types.iter())
            .map(|t| &**t)
    }

    /// Every type plan by its key (one entry per Go type).
    #[must_use]
    pub fn types_by_key(&self) -> std::collections::BTreeMap<&TypeKey, &TypePlan> {
        self.types().map(|t| (&t.key, t)).collect()
    }
}

/// The named type a value type refers to (through pointers, lists and maps), if any.
#[must_use]
pub fn build_type_key(ty: &RustTy) -> Option<&vgc_analysis::TypeKey> {
    match ty {
        RustTy::Named(k) => Some(k),
        RustTy::Option(i, _) | RustTy::Vec(i) | RustTy::Map(i) => build_type_key(i),
        _ => None,
    }
}
