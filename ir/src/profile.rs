//! Upstream profiles: which Kubernetes release's `validation-gen` (k8s.io/code-generator) and
//! `k8s.io/apimachinery/pkg/api/validate` vgc mirrors for a build.
//!
//! There is one tag catalog ([`crate::catalog`]); a profile is a set of *deltas* over it, each a predicate method
//! on [`Upstream`] named after what changed and the upstream PR that changed it. Lowering, lint and docs ask the
//! profile in force ([`upstream`], read from the [`crate::Settings`] input) instead of keeping a copy of anything
//! per release. `docs/upstream.md` tabulates the deltas and says how to add the next release.

use crate::catalog::TagId;
use serde::Serialize;
use vgc_runtime::formats::Format;

/// A Kubernetes minor release whose declarative-validation semantics vgc reproduces. Ordered by release.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
pub enum Upstream {
    /// Kubernetes 1.35 (`k8s.io/code-generator@v0.35.x`).
    V1_35,
    /// Kubernetes 1.36 (`k8s.io/code-generator@v0.36.x`).
    V1_36,
    /// Kubernetes 1.37 (`k8s.io/code-generator@v0.37.x`; vgc's reference semantics,
    /// `docs/validation-gen-semantics.md`).
    V1_37,
    /// Kubernetes 1.38, as shipped in `k8s.io/api@v0.38.0-alpha.2` / `k8s.io/apimachinery@v0.38.0-alpha.2`
    /// (the generator itself was not published; see `docs/upstream.md`).
    V1_38,
}

impl Upstream {
    /// Every profile, oldest first.
    pub const ALL: [Upstream; 4] = [
        Upstream::V1_35,
        Upstream::V1_36,
        Upstream::V1_37,
        Upstream::V1_38,
    ];
    /// The profile used when none is configured and none can be detected.
    pub const NEWEST: Upstream = Upstream::V1_38;

    /// The Kubernetes minor version (`35` for 1.35).
    #[must_use]
    pub fn minor(self) -> u32 {
        match self {
            Upstream::V1_35 => 35,
            Upstream::V1_36 => 36,
            Upstream::V1_37 => 37,
            Upstream::V1_38 => 38,
        }
    }

    /// `"1.35"` … `"1.38"`: the spelling of `--upstream` and `vgc.toml`'s `[upstream] version`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Upstream::V1_35 => "1.35",
            Upstream::V1_36 => "1.36",
            Upstream::V1_37 => "1.37",
            Upstream::V1_38 => "1.38",
        }
    }

    /// The profile of a Kubernetes minor version number.
    #[must_use]
    pub fn from_minor(minor: u32) -> Option<Upstream> {
        Upstream::ALL.into_iter().find(|u| u.minor() == minor)
    }

    /// Parses `"1.37"` (also `"v1.37"`). `None` for anything else, including unsupported releases.
    #[must_use]
    pub fn parse(s: &str) -> Option<Upstream> {
        let s = s.trim();
        let rest = s.strip_prefix('v').unwrap_or(s).strip_prefix("1.")?;
        Upstream::from_minor(rest.parse().ok()?)
    }

    /// The Kubernetes minor release a module version names: `v0.36.6` → 36 (staging modules), `v1.36.2` → 36
    /// (`k8s.io/kubernetes`); `None` for what is not a `vMAJOR.MINOR.PATCH` version and for `v0.0.0-…`
    /// pseudo-versions, which say nothing about the release. The release may be outside [`Upstream::ALL`].
    #[must_use]
    pub fn release_minor(v: &str) -> Option<u32> {
        let v = v.trim().strip_prefix('v')?;
        let mut parts = v.splitn(3, '.');
        let major: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts.next()?.parse().ok()?;
        parts.next()?;
        if major > 1 || (major == 0 && minor == 0) {
            return None;
        }
        Some(minor)
    }

    /// The profile matching a Go module version of a Kubernetes staging module (`k8s.io/api`,
    /// `k8s.io/apimachinery`, `k8s.io/code-generator`: `v0.<minor>.<patch>[-pre]`, e.g. `v0.36.6`,
    /// `v0.38.0-alpha.2`) or of `k8s.io/kubernetes` (`v1.<minor>.<patch>`). Releases older than the oldest
    /// profile map to it and newer ones to the newest; `None` when the version is not of that shape (or is a `v0.0.0-…`
    /// pseudo-version).
    #[must_use]
    pub fn from_module_version(v: &str) -> Option<Upstream> {
        let minor = Self::release_minor(v)?;
        let oldest = Upstream::ALL[0];
        Some(if minor < oldest.minor() {
            oldest
        } else {
            Upstream::from_minor(minor).unwrap_or(Upstream::NEWEST)
        })
    }

    /// The `k8s.io/code-generator` version whose `validation-gen` the Go oracle runs for this profile: a release,
    /// or for a profile whose release is not out yet its newest pre-release (`v0.38.0-beta.0`; `None` for a
    /// release with nothing in the Go module proxy). The only place these versions are written. The oracle tests
    /// prove the newest *release* by default and the pre-release in the suites that name it
    /// (tests/src/harness.rs `oracle_upstream`, `prerelease_upstream`); `VGC_VALIDATION_GEN_VERSION` overrides the
    /// default oracle's version at test time.
    #[must_use]
    pub fn code_generator(self) -> Option<&'static str> {
        match self {
            Upstream::V1_35 => Some("v0.35.10"),
            Upstream::V1_36 => Some("v0.36.6"),
            Upstream::V1_37 => Some("v0.37.2"),
            Upstream::V1_38 => Some("v0.38.0-beta.0"),
        }
    }

    // ---- deltas -----------------------------------------------------------------------------------------------

    /// `+k8s:required` / `+k8s:optional` on a non-pointer struct field are accepted and only document the field
    /// (no check; the struct is still validated). Before: `non-pointer structs cannot use the "k8s:required" tag`.
    /// upstream: kubernetes#136779 (1.38).
    #[must_use]
    pub fn requiredness_on_value_structs(self) -> bool {
        self >= Upstream::V1_38
    }

    /// `+k8s:required="msg"` / `+k8s:forbidden="msg"`: an optional string payload, joined into the error's detail
    /// (`Required value: msg`, `Forbidden: msg`; the `Required*`/`Forbidden*` functions take `msgs ...string` and
    /// write `strings.Join(msgs, ", ")`). Before, the tags take no payload (`tag value has wrong type`). upstream:
    /// code-generator v0.38.0-beta.0 `validators/required.go` `doRequired`/`doForbidden`, apimachinery
    /// v0.38.0-beta.0 `validate/required.go`.
    #[must_use]
    pub fn requiredness_message_payload(self) -> bool {
        self >= Upstream::V1_38
    }

    /// An `eachVal`/`eachKey` pass is generated as one call with default flags (`Function(eachValTagName,
    /// DefaultFlags, …)`, the element validator passed as a function value), so no error of a check under it is
    /// marked short-circuit; before, the call took its element validator's flags (`vfn.Flags`) and errors of
    /// `immutable`, `update`, `required` under it carried `MarkShortCircuit`. The stop semantics are
    /// [`Upstream::nested_subfield`]'s. apimachinery v0.38's `MatchAncestorShortCircuit` reads the flag.
    /// upstream: code-generator v0.38.0-beta.0 `validators/each.go`.
    #[must_use]
    pub fn each_pass_default_flags(self) -> bool {
        self >= Upstream::V1_38
    }

    /// The payload kind this release gives a catalog tag: `required`/`forbidden` take an optional string message
    /// from 1.38 ([`Upstream::requiredness_message_payload`]) and none before (the catalog holds the newest).
    #[must_use]
    pub fn tag_payload(self, spec: &crate::catalog::TagSpec) -> Option<crate::catalog::ValueKind> {
        match spec.id {
            TagId::Required | TagId::Forbidden if !self.requiredness_message_payload() => None,
            _ => spec.payload,
        }
    }

    /// The stability level this release's `--docs` gives a catalog tag: from 1.38 `dependentRequired` and
    /// `dependentForbidden` are Beta (Alpha before; code-generator v0.38.0-beta.0 `validators/dependentrequired.go`
    /// `Docs`). Read by the tag references and the docs site; the stability lint (VGC0302, 1.36–1.37) keeps its
    /// release's levels.
    #[must_use]
    pub fn tag_stability(self, spec: &crate::catalog::TagSpec) -> crate::catalog::Stability {
        match spec.id {
            TagId::DependentRequired | TagId::DependentForbidden if self >= Upstream::V1_38 => {
                crate::catalog::Stability::Beta
            }
            _ => spec.stability,
        }
    }

    /// `+k8s:validation-gen=<value>` names a struct field (`=TypeMeta`); from 1.37 the value is a criterion
    /// (`TypesWithField=TypeMeta`, `TypesWithSuffix=…`) and a bare name is an error. `*` and `false` work in every
    /// release. upstream: `targets.go` `isTypeWith` (v0.35, v0.36) vs `validationTypeMatch` (v0.37).
    #[must_use]
    pub fn validation_gen_field_names(self) -> bool {
        self <= Upstream::V1_36
    }

    /// Tag spellings of this release that vgc reads as another name (with argument renames): 1.36 calls
    /// `modeDiscriminator(modality:)` `discriminator(name:)`, and `ifMode(modality:, mode:)` `member(discriminator:,
    /// value:)` (positional value in both). upstream: `validators/discriminator.go` (v0.36) → `mode.go` (v0.37).
    /// Each entry: (this release's name, vgc's name, (this release's arg, vgc's arg)…).
    #[must_use]
    pub fn tag_renames(self) -> &'static [TagRename] {
        const V136: &[TagRename] = &[
            TagRename {
                from: "k8s:discriminator",
                to: TagId::ModeDiscriminator,
                args: &[("name", "modality")],
            },
            TagRename {
                from: "k8s:member",
                to: TagId::IfMode,
                // upstream v0.36.6 `discriminator.go` `memberTagValidator`: `discriminator:` names the group.
                args: &[("discriminator", "modality"), ("value", "mode")],
            },
        ];
        match self {
            Upstream::V1_36 => V136,
            _ => &[],
        }
    }

    /// The catalog tag a tag name (`k8s:…`, as written) is under this profile, `None` when the release has no tag of
    /// that name — the answer `vgc check` gives (`VGC0102` for `None`) and what an editor's hover, completion or
    /// `vgc explain` should follow. This release's own spellings resolve through [`Upstream::tag_renames`]
    /// (`k8s:discriminator` is `ModeDiscriminator` under 1.36); a tag newer than the release is `None`, and so is
    /// the later spelling of a renamed tag (`k8s:modeDiscriminator` under 1.36: code-generator v0.36.6 registers
    /// only `k8s:discriminator`/`k8s:member`, `validators/discriminator.go`). [`crate::catalog::lookup`] knows the
    /// catalog's (newest) spellings only and no release's.
    #[must_use]
    pub fn tag_named(self, name: &str) -> Option<TagId> {
        if let Some(r) = self.tag_renames().iter().find(|r| r.from == name) {
            return Some(r.to);
        }
        let id = crate::catalog::lookup(name)?.id;
        Upstream::tag_since(id)
            .is_none_or(|since| since <= self)
            .then_some(id)
    }

    /// The release that introduced a catalog tag, when that is after 1.35 (`None`: known to every profile). Tags
    /// newer than the profile in force are unknown tags (`VGC0102`). upstream: the tag names registered by
    /// `validators/*.go` in code-generator v0.35.10, v0.36.6 and v0.37.2.
    #[must_use]
    pub fn tag_since(id: TagId) -> Option<Upstream> {
        match id {
            TagId::Alpha
            | TagId::Beta
            | TagId::MaxBytes
            | TagId::Maximum
            | TagId::MinItems
            | TagId::MinLength
            | TagId::ValidateTrueAlpha
            | TagId::ValidateTrueBeta => Some(Upstream::V1_36),
            TagId::CustomValidation
            | TagId::DependentForbidden
            | TagId::DependentRequired
            | TagId::IfMode
            | TagId::ModeDiscriminator
            | TagId::Monotonic
            | TagId::MaxProperties
            | TagId::MinProperties => Some(Upstream::V1_37),
            // code-generator v0.38.0-beta.0 `validators/equality.go`.
            TagId::Eq => Some(Upstream::V1_38),
            TagId::CustomUnique
            | TagId::EachKey
            | TagId::EachVal
            | TagId::Enum
            | TagId::EnumExclude
            | TagId::Forbidden
            | TagId::Format
            | TagId::IfDisabled
            | TagId::IfEnabled
            // vgc extensions: no upstream release has them; `vgc.toml` `[extensions]` gates them instead.
            | TagId::IfNotSubresource
            | TagId::IfSubresource
            | TagId::ListMapItem
            | TagId::MemberOf
            | TagId::Union
            | TagId::ZeroOrOneOf
            | TagId::Immutable
            | TagId::Item
            | TagId::ListMapKey
            | TagId::ListType
            | TagId::MaxItems
            | TagId::MaxLength
            | TagId::Minimum
            | TagId::Neq
            | TagId::OpaqueType
            | TagId::Optional
            | TagId::Required
            | TagId::Subfield
            | TagId::UnionDiscriminator
            | TagId::UnionMember
            | TagId::Unique
            | TagId::Update
            | TagId::ValidateError
            | TagId::ValidateFalse
            | TagId::ValidateTrue
            | TagId::ZeroOrOneOfMember => None,
        }
    }

    /// Whether the catalog tag `name` exists in this release ([`Upstream::tag_since`]; in 1.36 the 1.37 names
    /// `ifMode`/`modeDiscriminator` are also accepted, since [`Upstream::tag_renames`] maps 1.36's names onto them).
    #[must_use]
    pub fn has_tag(self, id: TagId) -> bool {
        if self.tag_renames().iter().any(|r| r.to == id) {
            return true;
        }
        Upstream::tag_since(id).is_none_or(|since| since <= self)
    }

    /// `format` as this release's `k8s.io/apimachinery/pkg/api/validate` checks it: from 1.38,
    /// `k8s-resource-fully-qualified-name` rejects more than one slash (`must not contain more than one slash`;
    /// kubernetes#141644, issue kubernetes#141869), [`Format::K8sResourceFullyQualifiedNameV1_38`].
    #[must_use]
    pub fn format_as_of(self, format: Format) -> Format {
        if self >= Upstream::V1_38 {
            format.as_of_1_38()
        } else {
            format
        }
    }

    /// `Minimum`/`Maximum` print the bound with `%v` (k8s.io/apimachinery v0.38 `validate/content/errors.go`
    /// `MinError`/`MaxError`, was `%d`): the same digits for plain integers, but an integer type with a `String`
    /// method (`time.Duration`) shows `String()`: `must be greater than or equal to 1s` instead of `… 1000000000`
    /// (`vgc_runtime::validate::minimum_duration`/`maximum_duration`). Proven by the runtime differential
    /// (`tests/tests/runtime_differential.rs`). upstream: apimachinery v0.37.2 → v0.38.0-alpha.2 (1.38).
    #[must_use]
    pub fn min_max_bound_with_v(self) -> bool {
        self >= Upstream::V1_38
    }

    /// `+k8s:format=k8s-condition-reason` exists (`validate.ConditionReason`, origin `format=k8s-condition-reason`;
    /// `vgc_runtime::formats::condition_reason`); before, it is an unknown format. upstream: k8s.io/apimachinery
    /// v0.38.0-beta.0 `validate/strfmt.go` (1.38; k8s.io/api v0.38.0-beta.0 uses it on storage/v1
    /// `StorageHealthCondition.Reason`).
    #[must_use]
    pub fn condition_reason_format(self) -> bool {
        self >= Upstream::V1_38
    }

    /// `+k8s:minimum`/`+k8s:maximum` are accepted on `resource.Quantity` values (not typedefs of it), with a quantity
    /// payload (`=0`, `="1Gi"`) checked by `resource.ParseQuantity`, generating `validate.MinimumQuantity` /
    /// `validate.MaximumQuantity` (`vgc_runtime::validate::minimum_quantity`). upstream: code-generator
    /// v0.38.0-beta.0 `validators/limits.go` `parseNumericLimit` (1.38; k8s.io/api v0.38.0-beta.0 uses it on
    /// `resource/v1` `CapacityRequirements.Requests`).
    #[must_use]
    pub fn min_max_on_quantities(self) -> bool {
        self >= Upstream::V1_38
    }

    /// `+k8s:maxBytes` is accepted on `[]byte` fields and typedefs to `[]byte`, checked by `validate.MaxBytesSlice`
    /// (`may not be more than N bytes`, origin `maxBytes`, no short-circuit); before, `can only be used on string
    /// types`. upstream: kubernetes#141811 (1.38).
    #[must_use]
    pub fn max_bytes_on_byte_slices(self) -> bool {
        self >= Upstream::V1_38
    }

    /// `+k8s:format=<name>` accepts the project formats of `--validation-extensions-file` files
    /// ([`crate::extensions::ProjectFormat`]), checked by `validate.Matches`; before, such a name is an unknown
    /// format. upstream: kubernetes#142116 (1.38).
    #[must_use]
    pub fn project_formats(self) -> bool {
        self >= Upstream::V1_38
    }

    /// Maps of pointers (`map[K]*V`) are supported: nil values get `Required` at their key (`validate.PtrMapNoNils`,
    /// the field's first short-circuit check when it has validations, as `PtrSliceNoNils` for `[]*T`) and are
    /// skipped by the value iteration (`validate.EachPtrMapVal`); before, `maps of pointers are not supported`.
    /// upstream: kubernetes#141383 (1.38).
    #[must_use]
    pub fn maps_of_pointers(self) -> bool {
        self >= Upstream::V1_38
    }

    /// The tag prefix is configurable (`--tag-prefix`, default `k8s:`; upstream: kubernetes#141866, 1.38): every
    /// validation-gen tag is read as `+<prefix><name>` ([`crate::prefix::TagPrefix`]). Before, the generators have
    /// no such flag, so a prefix other than `k8s:` under an older profile is refused.
    #[must_use]
    pub fn tag_prefix_option(self) -> bool {
        self >= Upstream::V1_38
    }

    /// The package tag `+k8s:validation-gen-deep-equal-func=<func>` exists (upstream: kubernetes#141808, 1.38): the
    /// deep-equality function of generated ratchets and list matching; the default, `validate.SemanticDeepEqual`,
    /// wraps `equality.Semantic.DeepEqual` (1.37's ratchet), so the default changes no result. Before, the tag is
    /// not read (ignored). The same PR emits `+k8s:update` on comparable values through `validate.UpdateValue` with
    /// an `==` closure (unset = equal to the zero value): the same results as 1.37's `UpdateValueByCompare`.
    #[must_use]
    pub fn deep_equal_func_tag(self) -> bool {
        self >= Upstream::V1_38
    }

    /// prerelease-lifecycle-gen's default deprecation and removal (three minors after `introduced`, three more after
    /// `deprecated`) apply to beta versions only (`v<N>beta<M>`), no longer to alpha ones (code-generator v0.38.0-beta.0
    /// `prerelease-lifecycle-gen` `isBetaVersionRegex`; 1.37 applied them to every version but `v<N>`): an alpha
    /// type without a `removed` marker has no `APILifecycleRemoved` and is served. Read by
    /// [`crate::model::removed_in`] for the k8s.io/api release of the profile.
    #[must_use]
    pub fn lifecycle_defaults_beta_only(self) -> bool {
        self >= Upstream::V1_38
    }

    /// A call into the types of an input generated into several packages goes to the copy *nearest* the calling
    /// package — the longest common import-path prefix, counted in `/`-separated segments, the canonical
    /// (registering) copy winning ties — instead of always to the canonical copy (upstream: code-generator
    /// v0.38.0-beta.0 `cmd/validation-gen/generators/validation.go` `resolveFunc`/`nearestPkg`; 1.37's
    /// kubernetes#140369 resolved every such call to the canonical copy). Read by the Go backend only: which
    /// function is called changes no result.
    #[must_use]
    pub fn nearest_copy_calls(self) -> bool {
        self >= Upstream::V1_38
    }

    /// validation-gen's printing before 1.37 (code-generator v0.35.10 and v0.36.6 `cmd/validation-gen/validation.go`,
    /// its snippets run through gofmt): each struct field's closure called in place
    /// (`errs = append(errs, func(…) (errs field.ErrorList) {…}(fldPath.Child(…), obj.F, safe.Field(…), oldObj != nil)...)`),
    /// the ratchet test in one condition, a call's errors appended directly (`errs = append(errs, f(…)...)`), no
    /// `.MarkShortCircuit()`, a cohort's comment unquoted, function and composite literals without the line breaks
    /// 1.37's `flNewlineOK` adds, one-line function headers, a typedef's iterations only beside its own checks, and
    /// the registration function written for every package with a scheme registry, a root to register or not. 1.37
    /// (code-generator v0.37.2) binds each field's closure to `fn`, then calls it. Read by the Go backend only: the
    /// printed code validates the same way.
    #[must_use]
    pub fn go_fields_called_in_place(self) -> bool {
        self < Upstream::V1_37
    }

    /// The names of apimachinery's validators before 1.37 (k8s.io/apimachinery v0.35/v0.36 `pkg/api/validate`):
    /// `EachSliceVal`, `Unique` and `SliceItem` where 1.37 has `EachValSliceVal`, `ValSliceUnique` and `ValSliceItem`
    /// (and `EachPtrSliceVal`/`PtrSliceUnique`/`PtrSliceItem` for lists of pointers, which their validation-gen
    /// refuses), their list-map match functions taking the elements by value; and `DirectEqualPtr` where 1.37
    /// compares a subfield's or a mode member's value with `DirectEqual`. Read by the Go backend only.
    #[must_use]
    pub fn go_generic_slice_validators(self) -> bool {
        self < Upstream::V1_37
    }

    /// validation-gen before 1.37 emits a declaration's validations in phases, without deferral (code-generator
    /// v0.36.6 `validators/registry.go` `ExtractValidations`): the regular tags by name, then the "late" ones
    /// (`eachVal`, `item`, `alpha`, `beta`) by name, then the field and type validators (modes, list uniqueness,
    /// unions, update constraints, zero-or-one-of unions); and an `item`'s cohort names its selector with the keys in
    /// `listMapKey` order, as its error path does (`item.go` `selectorString` of the sorted criteria). 1.37 defers
    /// `eachVal`, `update`, `subfield`, `item`, uniqueness and unions to the end of the declaration, round by round
    /// (`Deferred`), and names the cohort with the keys as written. And a level wrapper (`alpha`, `beta`) keeps only
    /// its payload's functions and variables (`levels.go`), so `+k8s:alpha=+k8s:optional`'s generated-code note on a
    /// zero default is dropped. Changes the order of the checks (and so of the errors) and comments, not which run.
    #[must_use]
    pub fn validators_in_phases(self) -> bool {
        self < Upstream::V1_37
    }

    /// `+k8s:subfield` chains (`+k8s:subfield(a)=+k8s:subfield(b)=…`) are accepted: before 1.37 as any payload
    /// (code-generator v0.36.6 `subfield.go`; each hop's cohort is its own member's name, as a single hop's), from
    /// 1.38 with [`Upstream::nested_subfield`]'s rules; 1.37 refused them (v0.37.2 `subfield.go`: `nested +k8s:subfield
    /// tags are unsupported`).
    #[must_use]
    pub fn subfield_chains(self) -> bool {
        self != Upstream::V1_37
    }

    /// A `+k8s:subfield` check inherits its member's own short-circuit checks (as NonError: the payload is skipped
    /// when the member is unset or invalid): 1.37 only (kubernetes#139564; code-generator v0.37.2 `subfield.go`
    /// `extractMemberShortCircuits`), reverted in 1.38 (kubernetes#141945) and not yet in 1.35/1.36 (v0.36.6
    /// `subfield.go`).
    #[must_use]
    pub fn subfield_inherits_short_circuits(self) -> bool {
        self == Upstream::V1_37
    }

    /// A `+k8s:unionDiscriminator` makes its union's check even when no field is a member of it (code-generator
    /// v0.36.6 `union.go`: `validate.DiscriminatedUnion` with an empty membership, which reports nothing); from 1.37
    /// only members make one (v0.37.2 `output_tests/tags/union/union/discriminated/empty` has no function). The
    /// union's place among the struct's checks is its discriminator's or first member's, whichever comes first.
    /// Changes no result.
    #[must_use]
    pub fn member_less_unions(self) -> bool {
        self < Upstream::V1_37
    }

    /// Nested `+k8s:subfield` and its cohort and short-circuit rules (upstream: kubernetes#141945, 1.38):
    /// chains `+k8s:subfield(a)=+k8s:subfield(b)=…` are accepted with these rules (1.37: `nested subfield is not
    /// supported`; 1.35/1.36: [`Upstream::subfield_chains`]);
    /// `Subfield` on a nil parent is no error; a subfield check's cohort is named for the full path it validates
    /// (`a.b`), and an `item` check's cohort nests the wrapped check's cohort under the selector, so checks through a
    /// common hop or on the same item key no longer stop each other; a subfield no longer inherits the member's own
    /// short-circuit checks (reverting kubernetes#139564); an `eachVal`/`eachKey` pass is no longer a short-circuit
    /// of the field (its short-circuits stop only the element), and a NonError validation inside one is an error.
    #[must_use]
    pub fn nested_subfield(self) -> bool {
        self >= Upstream::V1_38
    }
    /// The k8s.io/apimachinery release whose `pkg/api/validate` this profile's runtime behaviour is proven against
    /// by the runtime differential (`tests/tests/runtime_differential.rs`, which fetches it through the Go module
    /// proxy; for 1.38 the pre-release of the pinned generator). `None` for releases proven only through their
    /// generator's output (the oracle runs).
    #[must_use]
    pub fn apimachinery(self) -> Option<&'static str> {
        match self {
            Upstream::V1_37 => Some("v0.37.2"),
            Upstream::V1_38 => Some("v0.38.0-beta.0"),
            _ => None,
        }
    }

    /// Whether this release's `pkg/api/validate` has `MaxBytesSlice`, `MinimumQuantity`/`MaximumQuantity` and
    /// `Matches` (k8s.io/apimachinery v0.38: kubernetes#141811, #142116; vgc-runtime's `max_bytes_slice`,
    /// `minimum_quantity`/`maximum_quantity`, `matches`).
    #[must_use]
    pub fn runtime_validators_1_38(self) -> bool {
        self >= Upstream::V1_38
    }

    /// Whether an option the request does not define is an error: from 1.37 apimachinery's `operation.Options` is
    /// a `map[string]bool` and `HasOption` returns `(enabled, defined)`, so `IfOption` and `Enum`'s exclusion
    /// rules report `InternalError(path, "undefined validation option \"X\"")` for an option missing from the
    /// map. Before (apimachinery v0.35, v0.36) `Options` is the list of enabled names and `HasOption` a
    /// `slices.Contains`: an option the request does not name is simply disabled. upstream:
    /// `pkg/api/operation/operation.go`, `pkg/api/validate/options.go`, `enum.go` (v0.36.6 vs v0.37.2).
    #[must_use]
    pub fn undefined_option_is_error(self) -> bool {
        self >= Upstream::V1_37
    }

    /// Root selection skips structs that embed `metav1.ListMeta` (`*List` types); before (code-generator v0.35.10)
    /// a `*List` type matching the package criterion is a root and registered, validating its `items`. upstream:
    /// `targets.go` "skip types that embed metav1.ListMeta" (v0.36.6, v0.37.2).
    #[must_use]
    pub fn roots_skip_list_meta(self) -> bool {
        self >= Upstream::V1_36
    }

    /// `+k8s:isSubresource=/scale` / `+k8s:supportsSubresource=/status` values are the tag text verbatim (gengo
    /// `ExtractFunctionStyleCommentTags`; k8s.io/api v0.35.10 writes them unquoted); from 1.36 they are Go string
    /// literals (`="/scale"`, codetags). upstream: `targets.go` `isSubresourceTag`/`supportedSubresourceTags`
    /// (v0.35.10 vs v0.36.6).
    #[must_use]
    pub fn subresource_values_verbatim(self) -> bool {
        self <= Upstream::V1_35
    }

    /// `+k8s:maxLength` counts bytes (`len(*value)`) and says `may not be more than N bytes` (origin `maxLength`);
    /// from 1.36 it counts runes and says `N characters`. upstream: apimachinery `validate/limits.go` `MaxLength`
    /// and `field.TooLong` (v0.35.10 vs v0.36.6).
    #[must_use]
    pub fn max_length_counts_bytes(self) -> bool {
        self <= Upstream::V1_35
    }

    /// Union errors (`must specify one of`, `must specify exactly one of`, discriminated-union messages) carry the
    /// origin `union`; before 1.36 they carry none (`zeroOrOneOf` had its origin already). upstream: apimachinery
    /// `validate/union.go` (v0.35.10 vs v0.36.6).
    #[must_use]
    pub fn union_origin(self) -> bool {
        self >= Upstream::V1_36
    }

    /// The lint rule `validationStability` (`tag %q with stability level %q cannot be used in %s validation`).
    /// upstream: added in 1.36 (code-generator v0.35.10's `lint_rules.go` has only the two conflicting-tag rules),
    /// removed by kubernetes#142017 (1.38).
    #[must_use]
    pub fn lint_stability(self) -> bool {
        (Upstream::V1_36..=Upstream::V1_37).contains(&self)
    }

    /// The lint rule `requiredAndOptional` (`field with validation must have +k8s:optional, +k8s:required or
    /// +k8s:forbidden`). upstream: added in 1.36 (not in code-generator v0.35.10's `lint_rules.go`, whose only
    /// rules are `ruleOptionalAndRequired` and `ruleRequiredAndDefault`; k8s.io/api v0.35.10's `rbac/v1`
    /// `Subjects` has validation without requiredness).
    #[must_use]
    pub fn lint_requiredness(self) -> bool {
        self >= Upstream::V1_36
    }

    /// The lint rule `nonPointerStructRequiredness` (three messages). upstream: kubernetes#141637 (1.38).
    #[must_use]
    pub fn lint_value_struct_requiredness(self) -> bool {
        self >= Upstream::V1_38
    }

    /// The lint rule "an `+enum` type must also carry `+k8s:enum`" (silenced by `+k8s:validation-gen-nolint`).
    /// upstream: kubernetes#142102 (1.38; inferred from the 83 nolint lines k8s.io/api@v0.38.0-alpha.2 added).
    #[must_use]
    pub fn lint_enum_marker(self) -> bool {
        self >= Upstream::V1_38
    }
}

/// One tag spelling of an older release read as vgc's name ([`Upstream::tag_renames`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagRename {
    /// The release's tag name.
    pub from: &'static str,
    /// vgc's (1.37) tag.
    pub to: TagId,
    /// Named-argument renames: (the release's name, vgc's name).
    pub args: &'static [(&'static str, &'static str)],
}

impl TagRename {
    /// Renames `tag` and every tag chained in it that this rename applies to.
    pub fn apply(renames: &[TagRename], tag: &mut vgc_parser::tags::Tag) {
        if let Some(r) = renames.iter().find(|r| r.from == tag.name) {
            tag.name = r.to.name().to_string();
            for a in &mut tag.args {
                if let Some(n) = &a.name
                    && let Some((_, to)) = r.args.iter().find(|(from, _)| from == n)
                {
                    a.name = Some((*to).to_string());
                }
            }
        }
        if let Some(vgc_parser::tags::TagValue::Tag(inner)) = &mut tag.value {
            TagRename::apply(renames, inner);
        }
    }
}

impl Default for Upstream {
    /// [`Upstream::NEWEST`].
    fn default() -> Self {
        Upstream::NEWEST
    }
}

impl std::fmt::Display for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The profile in force and why (for the summary line and `vgc docs`; kept in the build manifest for the "up to
/// date" summary).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Selected {
    /// The profile.
    pub version: Upstream,
    /// Where it came from, in words: `--upstream`, `set in <path>/vgc.toml`, `detected from go.mod k8s.io/apimachinery v0.36.6`,
    /// `default: newest`.
    pub why: String,
}

impl Selected {
    /// `version`, chosen for the reason `why`.
    #[must_use]
    pub fn new(version: Upstream, why: impl Into<String>) -> Self {
        Self {
            version,
            why: why.into(),
        }
    }

    /// The newest profile, chosen because nothing selected or suggested another.
    #[must_use]
    pub fn newest() -> Self {
        Self {
            version: Upstream::NEWEST,
            why: "default: newest; no k8s.io module version in go.mod".into(),
        }
    }
}

impl std::fmt::Display for Selected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "upstream {} ({})", self.version, self.why)
    }
}

/// The profile in force in `db`: [`crate::Settings::upstream`], or [`Upstream::NEWEST`] before settings exist.
#[must_use]
pub fn upstream(db: &dyn crate::Db) -> Upstream {
    crate::Settings::try_get(db).map_or(Upstream::NEWEST, |s| s.upstream(db))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::TagIdent;

    #[test]
    fn parses_versions_and_module_versions() {
        assert_eq!(Upstream::parse("1.36"), Some(Upstream::V1_36));
        assert_eq!(Upstream::parse("v1.38"), Some(Upstream::V1_38));
        assert_eq!(Upstream::parse("1.34"), None);
        assert_eq!(Upstream::parse("1.3"), None);
        assert_eq!(Upstream::parse("0.37"), None);
        assert_eq!(
            Upstream::from_module_version("v0.36.6"),
            Some(Upstream::V1_36)
        );
        assert_eq!(
            Upstream::from_module_version("v0.38.0-alpha.2"),
            Some(Upstream::V1_38)
        );
        assert_eq!(
            Upstream::from_module_version("v1.35.10"),
            Some(Upstream::V1_35)
        );
        assert_eq!(
            Upstream::from_module_version("v0.33.1"),
            Some(Upstream::V1_35)
        );
        assert_eq!(
            Upstream::from_module_version("v0.40.0"),
            Some(Upstream::NEWEST)
        );
        assert_eq!(
            Upstream::from_module_version("v0.0.0-20260101000000-abcdef012345"),
            None
        );
        assert_eq!(Upstream::from_module_version("v2.1.0"), None);
        assert_eq!(Upstream::from_module_version("latest"), None);
    }

    #[test]
    fn deltas_switch_at_their_release() {
        use Upstream::*;
        let on = |f: fn(Upstream) -> bool| -> Vec<Upstream> {
            Upstream::ALL.into_iter().filter(|u| f(*u)).collect()
        };
        assert_eq!(on(Upstream::requiredness_on_value_structs), [V1_38]);
        assert_eq!(on(Upstream::validation_gen_field_names), [V1_35, V1_36]);
        assert_eq!(
            on(|u| u.format_as_of(Format::K8sResourceFullyQualifiedName)
                == Format::K8sResourceFullyQualifiedNameV1_38),
            [V1_38]
        );
        assert_eq!(
            V1_38.format_as_of(Format::K8sShortName),
            Format::K8sShortName
        );
        assert_eq!(on(|u| u.has_tag(TagId::MaxBytes)), [V1_36, V1_37, V1_38]);
        assert_eq!(on(|u| u.has_tag(TagId::IfMode)), [V1_36, V1_37, V1_38]);
        assert_eq!(on(|u| u.has_tag(TagId::Monotonic)), [V1_37, V1_38]);
        assert_eq!(on(|u| u.has_tag(TagId::Required)), Upstream::ALL);
        let mut t = vgc_parser::tags::parse(
            "k8s:alpha(since: \"1.36\")=+k8s:member(discriminator: \"a\", value: \"X\")=+k8s:required",
        )
        .expect("parses");
        TagRename::apply(V1_36.tag_renames(), &mut t);
        let inner = t.inner().expect("chained");
        assert!(inner.is_tag(TagId::IfMode));
        let args: Vec<_> = inner
            .args
            .iter()
            .map(|a| a.name.clone().unwrap_or_default())
            .collect();
        assert_eq!(args, ["modality", "mode"]);
        assert_eq!(on(Upstream::lint_stability), [V1_36, V1_37]);
        assert_eq!(on(Upstream::lint_requiredness), [V1_36, V1_37, V1_38]);
        assert_eq!(on(Upstream::undefined_option_is_error), [V1_37, V1_38]);
        assert_eq!(on(Upstream::roots_skip_list_meta), [V1_36, V1_37, V1_38]);
        assert_eq!(on(Upstream::subresource_values_verbatim), [V1_35]);
        assert_eq!(on(Upstream::max_length_counts_bytes), [V1_35]);
        assert_eq!(on(Upstream::union_origin), [V1_36, V1_37, V1_38]);
        assert_eq!(on(Upstream::lint_value_struct_requiredness), [V1_38]);
        assert_eq!(on(Upstream::lint_enum_marker), [V1_38]);
        assert_eq!(on(Upstream::min_max_bound_with_v), [V1_38]);
        assert_eq!(on(Upstream::max_bytes_on_byte_slices), [V1_38]);
        assert_eq!(on(Upstream::project_formats), [V1_38]);
        assert_eq!(on(Upstream::maps_of_pointers), [V1_38]);
        assert_eq!(on(Upstream::runtime_validators_1_38), [V1_38]);
        assert_eq!(on(|u| u.apimachinery().is_some()), [V1_37, V1_38]);
    }
}
