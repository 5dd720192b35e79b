//! The update family: `+k8s:update` constraints.

use super::diagnostics::TagDiagnostic;
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::UpdateTag;

impl Lowerer<'_> {
    /// `update` (upstream `validators/update.go`): one update constraint.
    pub(super) fn lower_update(&mut self, t: &TagSite<'_>, which: UpdateTag) -> Option<Vec<Check>> {
        let TagSite { shape, .. } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        let s = || t.str();
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let is_list = t.is_list();
        let is_map = t.is_map();
        Some(match which {
            UpdateTag::Update => {
                let c = s().unwrap_or_default();
                let Some(constraint) = UpdateConstraint::from_name(&c) else {
                    return refuse(self, TagDiagnostic::UnknownUpdateConstraint(c));
                };
                if constraint.on_items() && !(is_list || is_map) {
                    return refuse(self, TagDiagnostic::UpdateItemsWithoutItems(constraint));
                }
                if constraint == UpdateConstraint::NoModify && (is_list || is_map) {
                    return refuse(self, TagDiagnostic::NoModifyOnCollection);
                }
                if matches!(
                    constraint,
                    UpdateConstraint::NoSet | UpdateConstraint::NoUnset
                ) && matches!(shape, Shape::Struct { pointer: false })
                {
                    return refuse(self, TagDiagnostic::UpdateOnValueStruct(constraint));
                }
                vec![mk(CheckKind::Update(vec![constraint], Matcher::None))]
            }
        })
    }
}
