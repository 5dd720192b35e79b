//! The enum family: `+k8s:enum` (`enumExclude` is read on constants by `Lowerer::enum_values`).

use super::diagnostics::{TagDiagnostic, ValueKinds};
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::EnumTag;

impl Lowerer<'_> {
    /// `enum` on a string type (upstream `validators/enum.go`): its typed constants, less the excluded ones.
    pub(super) fn lower_enum(&mut self, t: &TagSite<'_>, which: EnumTag) -> Option<Vec<Check>> {
        let TagSite { owner, .. } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let is_str = t.is_str();
        Some(match which {
            EnumTag::Enum => {
                if !is_str {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::String));
                }
                let (values, exclusions, constants) = self.enum_values(owner);
                vec![mk(CheckKind::Enum(EnumPlan {
                    values,
                    exclusions,
                    constants,
                    undefined_option_is_error: self.undefined_option_is_error(),
                }))]
            }
            // Read on constants by `enum_values`; the catalog's scopes keep it from anywhere else.
            EnumTag::EnumExclude => return None,
        })
    }
}
