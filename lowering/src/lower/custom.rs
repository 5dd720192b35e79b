//! The custom family: `+k8s:customValidation`.

use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::CustomTag;

impl Lowerer<'_> {
    /// `customValidation` (upstream `validators/customvalidation.go`): a call of the hand-written
    /// `ValidateCustom_<Type>[_<Field>]`.
    pub(super) fn lower_custom(&mut self, t: &TagSite<'_>, which: CustomTag) -> Option<Vec<Check>> {
        let TagSite { owner, u, ty, .. } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        Some(match which {
            CustomTag::CustomValidation => {
                // upstream `customvalidation.go`: type scope → `ValidateCustom_<Type>`, field scope →
                // `ValidateCustom_<Struct>_<GoField>`; default flags.
                let (upstream, field, value_ty) =
                    match (u.at, field_of(self.prog, self.db, owner, u)) {
                        (_, Some(go)) => (
                            format!("ValidateCustom_{}_{go}", owner.name),
                            Some(go),
                            ty.map_or(RustTy::Json, |t| match self.rust_ty(owner, t) {
                                RustTy::Option(i, _) => *i,
                                other => other,
                            }),
                        ),
                        (_, None) => (
                            format!("ValidateCustom_{}", owner.name),
                            None,
                            RustTy::Named(owner.clone()),
                        ),
                    };
                vec![mk(CheckKind::Custom {
                    owner: owner.clone(),
                    field,
                    upstream,
                    ty: value_ty,
                })]
            }
        })
    }
}
