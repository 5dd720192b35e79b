//! The equality family: `+k8s:eq`, `+k8s:neq`.

use super::diagnostics::TagDiagnostic;
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::EqualityTag;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// `eq`, `neq` (upstream `validators/equality.go`): a payload of the value's own kind.
    pub(super) fn lower_equality(
        &mut self,
        t: &TagSite<'_>,
        which: EqualityTag,
    ) -> Option<Vec<Check>> {
        let TagSite { tag, shape, id, .. } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        Some(match which {
            EqualityTag::Neq | EqualityTag::Eq => {
                let v = match (tag.raw_payload(), shape) {
                    (
                        Some(Scalar::Str(v)),
                        Shape::Scalar {
                            ty: Builtin::String,
                            ..
                        },
                    ) => NeqValue::Str(v.clone()),
                    (
                        Some(Scalar::Bool(b)),
                        Shape::Scalar {
                            ty: Builtin::Bool, ..
                        },
                    ) => NeqValue::Bool(*b),
                    (Some(Scalar::Int { value, .. }), Shape::Scalar { ty: b, .. })
                        if b.is_integer() =>
                    {
                        if b.int_range().is_some_and(|(lo, hi)| {
                            i128::from(*value) < lo || i128::from(*value) > hi
                        }) {
                            return refuse(self, TagDiagnostic::OutOfRange(i128::from(*value)));
                        }
                        NeqValue::Int(*value)
                    }
                    (value, shape) => {
                        let field = match shape {
                            Shape::Scalar {
                                ty: Builtin::String,
                                ..
                            } => Some("a string"),
                            Shape::Scalar {
                                ty: Builtin::Bool, ..
                            } => Some("a bool"),
                            Shape::Scalar { ty: b, .. } if b.is_integer() => Some("an integer"),
                            _ => None,
                        };
                        // A scalar of another kind (a float) is comparable; a struct, list, map or well-known
                        // value is taken as not (a struct of comparable members is comparable upstream, which then
                        // says `unsupported type`).
                        let comparable = matches!(shape, Shape::Scalar { .. });
                        return refuse(
                            self,
                            TagDiagnostic::NeqTypeMismatch {
                                field,
                                payload: value.map_or("none", Scalar::type_name),
                                comparable,
                                v1_38: vgc_ir::profile::upstream(self.db).deep_equal_func_tag(),
                            },
                        );
                    }
                };
                vec![mk(if id == TagId::Eq {
                    CheckKind::Eq(v)
                } else {
                    CheckKind::Neq(v)
                })]
            }
        })
    }
}
