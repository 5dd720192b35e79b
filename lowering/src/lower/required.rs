//! The requiredness family (`required`, `optional`, `forbidden`) where a tag is written.

use super::diagnostics::TagDiagnostic;
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::RequiredTag;

impl Lowerer<'_> {
    /// `required`, `optional`, `forbidden` (upstream `validators/required.go`): presence checks, documentation only on a
    /// non-pointer struct from 1.38.
    pub(super) fn lower_required(
        &mut self,
        t: &TagSite<'_>,
        which: RequiredTag,
    ) -> Option<Vec<Check>> {
        let TagSite {
            shape,
            ty,
            stability,
            id,
            ..
        } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        let s = || t.str();
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        Some(match which {
            RequiredTag::Required | RequiredTag::Optional | RequiredTag::Forbidden => {
                // A non-pointer struct: a struct type, or a well-known apimachinery value that Go declares as a
                // struct (`metav1.Time`, `resource.Quantity`, `intstr.IntOrString`, … — not `[]byte`). (Go's
                // `json.RawMessage`, a byte slice vgc reads as `RawExtension`, is counted as one too.)
                let value_struct = match shape {
                    Shape::Struct { pointer: false } => true,
                    Shape::Other { pointer: false } => ty.is_some_and(|t| {
                        matches!(
                            types::native(self.db, self.prog, t),
                            Native::Other(Ty::WellKnown(w))
                                if w != vgc_analysis::types::WellKnown::Bytes
                        )
                    }),
                    _ => false,
                };
                // upstream 1.38 (kubernetes#136779): documentation only on non-pointer structs, no check.
                if value_struct
                    && id != TagId::Forbidden
                    && vgc_ir::profile::upstream(self.db).requiredness_on_value_structs()
                {
                    self.documented = true;
                    if self.counting {
                        self.notes.push(format!(
                            "+{} on non-pointer struct fields is purely documentation",
                            id.name()
                        ));
                    }
                    return Some(Vec::new());
                }
                if value_struct {
                    return refuse(self, TagDiagnostic::NonPointerStruct);
                }
                // upstream 1.38: the message payload (checked and gated by profile in `vgc_ir::db::check_file`)
                // is the error's detail; an empty one adds nothing (`if msg != ""`).
                let detail = s().filter(|m| !m.is_empty());
                match id {
                    TagId::Required => vec![mk(CheckKind::Required { detail })],
                    TagId::Optional => vec![mk(CheckKind::Optional)],
                    _ => vec![
                        mk(CheckKind::Forbidden { detail }),
                        Check {
                            kind: CheckKind::Optional,
                            short_circuit: true,
                            non_error: true,
                            stability,
                            tag: Some(id),
                            cohort: None,
                        },
                    ],
                }
            }
        })
    }
}
