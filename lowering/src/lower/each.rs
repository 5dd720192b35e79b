//! The each family: `+k8s:eachVal`, `+k8s:eachKey`.

use super::diagnostics::{TagDiagnostic, ValueKinds};
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::EachTag;

impl Lowerer<'_> {
    /// `eachVal`, `eachKey` (upstream `validators/each.go`): the payload lowered on the element or key, as one
    /// pass.
    pub(super) fn lower_each(&mut self, t: &TagSite<'_>, which: EachTag) -> Option<Vec<Check>> {
        let TagSite {
            owner,
            file,
            u,
            tag,
            ty,
            stability,
            id,
            ..
        } = *t;
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let is_map = t.is_map();
        Some(match which {
            EachTag::EachVal | EachTag::EachKey => {
                let inner = tag.inner()?;
                let elem_ty = ty.and_then(|t| elem_of(self.db, self.prog, t, id == TagId::EachKey));
                let Some(elem_ty) = elem_ty else {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::ListOrMap));
                };
                if id == TagId::EachKey && !is_map {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::Map));
                }
                let elem_shape = self.shape(&elem_ty);
                let inner_stab = level_of(inner).or(stability);
                let inner_tag = unwrap_levels(inner);
                let inner_checks = self.lower_tag(
                    owner,
                    file,
                    u,
                    inner_tag,
                    &elem_shape,
                    Some(&elem_ty),
                    inner_stab,
                )?;
                if inner_checks.is_empty() {
                    return Some(vec![]);
                }
                // upstream 1.38 (kubernetes#141945): a pass's short-circuits stop only the element, not the
                // field's other checks, and a NonError validation (nothing to stop) is an error.
                let passes_apart = vgc_ir::profile::upstream(self.db).nested_subfield();
                if passes_apart && inner_checks.iter().any(|c| c.non_error) {
                    return refuse(self, TagDiagnostic::NonErrorInEach);
                }
                let sc = !passes_apart && inner_checks.iter().any(|c| c.short_circuit);
                let mut inner_checks = inner_checks;
                if vgc_ir::profile::upstream(self.db).each_pass_default_flags() {
                    // The pass is one function with default flags whose element validator is passed as a value:
                    // no check inside it marks its errors as short-circuit.
                    inner_checks.iter_mut().for_each(clear_short_circuits);
                }
                let ne = inner_checks.iter().all(|c| c.non_error);
                // The list matcher is filled in by the field (it owns the list metadata).
                let kind = if id == TagId::EachKey {
                    CheckKind::EachKey(inner_checks)
                } else {
                    CheckKind::EachVal(inner_checks, Matcher::None, elem_shape)
                };
                vec![Check {
                    kind,
                    short_circuit: sc,
                    non_error: ne,
                    stability,
                    tag: Some(id),
                    cohort: None,
                }]
            }
        })
    }
}

/// Clears the short-circuit flag of `c` and of every check below it ([`Check::children_mut`]).
fn clear_short_circuits(c: &mut Check) {
    c.short_circuit = false;
    c.children_mut().into_iter().for_each(clear_short_circuits);
}
