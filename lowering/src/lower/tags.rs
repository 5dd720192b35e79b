//! The tag dispatcher: one tag use (after its wrappers are peeled) to checks, by its catalog family
//! ([`vgc_ir::catalog::Family`]) — each family's `lower_<family>` lives in its own module of `lower/`.

use super::diagnostics::TagDiagnostic;
use super::*;
use vgc_ir::catalog::{
    DependentTag, FamilyTag, ImmutableTag, LevelsTag, OpaqueTag, SubfieldTag, UnionsTag,
};
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lower_tag(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        u: &TagUse,
        tag: &Tag,
        shape: &Shape,
        ty: Option<&Ty>,
        stability: Option<Stability>,
    ) -> Option<Vec<Check>> {
        let id = tag.tag_id()?;
        let spec = id.spec();
        if spec.lowering == Lowering::NotYet {
            if !self.counting {
                return Some(Vec::new());
            }
            self.stats.not_lowered += 1;
            self.diags.push(
                Diagnostic::warning(Code::NotLowered, format!("tag {:?} is not lowered yet; no check generated", tag.name))
                    .at_span(file.path(self.db).clone(), file, u.at, Some(u.name.len()))
                    .with_hint("this vgc version parses and checks it; its runtime check is planned for the next milestone"),
            );
            return Some(Vec::new());
        }
        let t = TagSite {
            owner,
            file,
            u,
            tag,
            shape,
            ty,
            stability,
            id,
        };
        // One module per family, each matching its own tags exhaustively (`FamilyTag`, generated from the
        // catalog's `families!` table): a new tag is a compile error in its family's module.
        match id.family_tag() {
            FamilyTag::Required(which) => self.lower_required(&t, which),
            FamilyTag::Limits(which) => self.lower_limits(&t, which),
            FamilyTag::Strfmt(which) => self.lower_strfmt(&t, which),
            FamilyTag::Enum(which) => self.lower_enum(&t, which),
            FamilyTag::Equality(which) => self.lower_equality(&t, which),
            FamilyTag::Immutable(ImmutableTag::Immutable) => {
                Some(vec![t.check(CheckKind::Immutable)])
            }
            FamilyTag::Update(which) => self.lower_update(&t, which),
            FamilyTag::Monotonic(which) => self.lower_monotonic(&t, which),
            FamilyTag::Lists(which) => self.lower_lists(&t, which),
            FamilyTag::Each(which) => self.lower_each(&t, which),
            FamilyTag::Subfield(SubfieldTag::Subfield) => {
                self.lower_subfield(owner, file, u, tag, ty, stability)
            }
            // Unions, modes and dependent fields are lowered at the struct level (`struct_level_checks`, which
            // reads `ifMode`/`modeDiscriminator` through the wrappers; they never reach this function).
            FamilyTag::Unions(UnionsTag::IfMode | UnionsTag::ModeDiscriminator) => None,
            FamilyTag::Unions(
                UnionsTag::UnionMember
                | UnionsTag::UnionDiscriminator
                | UnionsTag::ZeroOrOneOfMember,
            )
            | FamilyTag::Dependent(
                DependentTag::DependentRequired | DependentTag::DependentForbidden,
            ) => Some(Vec::new()),
            FamilyTag::Options(which) => self.lower_options(&t, which),
            // Peeled by the callers before a payload reaches this function: the level marks the payload's checks.
            FamilyTag::Levels(LevelsTag::Alpha | LevelsTag::Beta) => None,
            // Read by the type analysis (`vgc_analysis::types::opacity`).
            FamilyTag::Opaque(OpaqueTag::OpaqueType) => Some(Vec::new()),
            FamilyTag::Custom(which) => self.lower_custom(&t, which),
            FamilyTag::Testing(which) => self.lower_testing(&t, which),
            FamilyTag::Subresource(which) => self.lower_subresource(&t, which),
            FamilyTag::Virtual(which) => self.lower_virtual_tag(&t, which),
        }
    }

    /// The checks of wrapper `t`'s payload tag `inner`, lowered on the same value, with the stability level the
    /// payload's own `alpha`/`beta` sets (else the wrapper's): what `ifEnabled`/`ifDisabled` and the subresource
    /// conditions wrap.
    pub(super) fn lower_payload(&mut self, t: &TagSite<'_>, inner: &Tag) -> Option<Vec<Check>> {
        let stability = level_of(inner).or(t.stability);
        self.lower_tag(
            t.owner,
            t.file,
            t.u,
            unwrap_levels(inner),
            t.shape,
            t.ty,
            stability,
        )
    }

    /// A refusal of tag use `t`: its typed diagnostic (lower/diagnostics.rs) reported at the tag; lowers to nothing.
    pub(super) fn refuse(&mut self, t: &TagSite<'_>, d: TagDiagnostic) -> Option<Vec<Check>> {
        self.err(
            t.file,
            t.u.at,
            d.code(),
            d.message(&t.owner.name, t.id),
            d.hint(),
        );
        None
    }
}

/// One tag use on its way to checks: where it is written (`owner`'s declaration in `file`, use `u`), the tag itself
/// with its wrappers peeled (`tag`, catalog id `id`), the shape and Go type of the value it applies to (for a
/// wrapper's payload: the element's), and the stability level its `alpha`/`beta` wrappers set. Each family's
/// `lower_<family>` reads it.
#[derive(Clone, Copy)]
pub(super) struct TagSite<'t> {
    pub(super) owner: &'t TypeKey,
    pub(super) file: SourceFile,
    pub(super) u: &'t TagUse,
    pub(super) tag: &'t Tag,
    pub(super) shape: &'t Shape,
    pub(super) ty: Option<&'t Ty>,
    pub(super) stability: Option<Stability>,
    pub(super) id: TagId,
}

impl TagSite<'_> {
    /// A check of `kind` made by this tag: the catalog's flags for it, the wrappers' stability level, no cohort.
    pub(super) fn check(&self, kind: CheckKind) -> Check {
        let flags = self.id.spec().flags;
        Check {
            kind,
            short_circuit: flags.short_circuit,
            non_error: flags.non_error,
            stability: self.stability,
            tag: Some(self.id),
            cohort: None,
        }
    }

    /// The payload as an integer (`=5`), if it is one.
    pub(super) fn int(&self) -> Option<i64> {
        self.tag.int_payload()
    }

    /// The payload as a string (`="msg"`), if it is one.
    pub(super) fn str(&self) -> Option<String> {
        self.tag.str_payload().map(str::to_string)
    }

    /// The value is a Go string (or a typedef of one).
    pub(super) fn is_str(&self) -> bool {
        matches!(
            self.shape,
            Shape::Scalar {
                ty: Builtin::String,
                ..
            }
        )
    }

    /// The value's integer kind, when it is an integer.
    pub(super) fn int_kind(&self) -> Option<Builtin> {
        match self.shape {
            Shape::Scalar { ty: b, .. } if b.is_integer() => Some(*b),
            _ => None,
        }
    }

    /// The value is a list.
    pub(super) fn is_list(&self) -> bool {
        matches!(self.shape, Shape::List { .. })
    }

    /// The value is a map.
    pub(super) fn is_map(&self) -> bool {
        matches!(self.shape, Shape::Map)
    }
}

/// Each of `checks` wrapped by tag `id` in the check `wrap` makes of it: upstream's wrapping validators (`IfOption`,
/// and vgc's subresource conditions) keep the inner function's flags and stability mark, and — a new function —
/// none of its cohort.
pub(super) fn wrap_each(
    checks: Vec<Check>,
    id: TagId,
    wrap: impl Fn(Check) -> CheckKind,
) -> Vec<Check> {
    checks
        .into_iter()
        .map(|c| Check {
            short_circuit: c.short_circuit,
            non_error: c.non_error,
            stability: c.stability,
            tag: Some(id),
            cohort: None,
            kind: wrap(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::lower_go;
    use expect_test::expect;

    #[test]
    fn limits_formats_and_requiredness() {
        let got = lower_go(
            r#"type T struct {
	// +k8s:optional
	// +k8s:maxLength=8
	// +k8s:format=k8s-short-name
	Name *string `json:"name"`
	// +k8s:required
	// +k8s:minimum=1
	// +k8s:maximum=10
	Count int32 `json:"count"`
	// +k8s:optional
	// +k8s:maxItems=3
	Items []string `json:"items"`
	// +k8s:optional
	// +k8s:update=NoModify
	// +k8s:update=NoSet
	Mode string `json:"mode"`
}
"#,
        );
        expect![[r#"
            T.name: optional; must be a k8s-short-name; at most 8 characters
            T.count: required; at most 10; at least 1
            T.items: at most 3 items; optional
            T.mode: optional; cannot be set on update; cannot be changed on update
        "#]]
        .assert_eq(&got);
    }

    #[test]
    fn refusals_are_typed_diagnostics() {
        let got = lower_go(
            r#"type T struct {
	// +k8s:optional
	// +k8s:maxLength=8
	Count *int32 `json:"count"`
	// +k8s:optional
	// +k8s:minimum=300
	Small *int8 `json:"small"`
	// +k8s:optional
	// +k8s:format=k8s-no-such-format
	Name *string `json:"name"`
	// +k8s:optional
	// +k8s:update=NoAddItem
	Flag *bool `json:"flag"`
}
"#,
        );
        expect![[r#"
            T.count: optional
            T.small: optional
            T.name: optional
            T.flag: optional
            VGC0110 T: tag "k8s:maxLength": can only be used on string types
            VGC0109 T: tag "k8s:minimum": value 300 does not fit the field's type
            VGC0109 T: tag "k8s:format": unsupported validation format "k8s-no-such-format"
            VGC0110 T: tag "k8s:update": NoAddItem can only be used on list or map fields
        "#]]
        .assert_eq(&got);
    }
}
