//! The limits family: numeric bounds, string lengths, item and property counts.

use super::diagnostics::{TagDiagnostic, ValueKinds};
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::LimitsTag;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// `minimum`, `maximum`, `minLength`, `maxLength`, `maxBytes`, `minItems`, `maxItems`, `minProperties`,
    /// `maxProperties` (upstream `validators/limits.go`).
    pub(super) fn lower_limits(&mut self, t: &TagSite<'_>, which: LimitsTag) -> Option<Vec<Check>> {
        let TagSite { tag, ty, id, .. } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        let int = || t.int();
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let is_str = t.is_str();
        let int_kind = t.int_kind();
        let is_list = t.is_list();
        let is_map = t.is_map();
        Some(match which {
            // vgc extension: a field-path constraint, hoisted to the parent struct by `field_constraints`; the
            // catalog checks refuse the form anywhere else.
            LimitsTag::Minimum | LimitsTag::Maximum
                if vgc_ir::extension_tags::constraint_tag(tag).is_some() =>
            {
                return None;
            }
            // upstream 1.38 (code-generator v0.38.0-beta.0 `parseNumericLimit`): on a `resource.Quantity` itself
            // (through pointers; not a typedef of it) the payload, whatever its literal kind, is a quantity.
            LimitsTag::Minimum | LimitsTag::Maximum
                if vgc_ir::profile::upstream(self.db).min_max_on_quantities()
                    && ty.is_some_and(|t| {
                        let mut t = t;
                        while let Ty::Pointer(i) = t {
                            t = i;
                        }
                        matches!(t, Ty::WellKnown(types::WellKnown::Quantity))
                    }) =>
            {
                // `tag.Value` as written (`=0x10` is not a quantity).
                let text = tag.literal_payload().unwrap_or_default();
                if let Err(e) = vgc_runtime::types::quantity_syntax(&text) {
                    return refuse(self, TagDiagnostic::UnparsablePayload(e.to_string()));
                }
                vec![mk(if id == TagId::Minimum {
                    CheckKind::MinimumQuantity(text)
                } else {
                    CheckKind::MaximumQuantity(text)
                })]
            }
            LimitsTag::Minimum | LimitsTag::Maximum => {
                let Some(b) = int_kind else {
                    return refuse(
                        self,
                        TagDiagnostic::WrongKind(
                            if vgc_ir::profile::upstream(self.db).min_max_on_quantities() {
                                ValueKinds::IntegerOrQuantity
                            } else {
                                ValueKinds::Integer
                            },
                        ),
                    );
                };
                let v1_38 = vgc_ir::profile::upstream(self.db).min_max_bound_with_v();
                // A `time.Duration` value itself (not a typedef of it, which has no `String` method).
                let is_duration = |t: &Ty| *t == Ty::Builtin(Builtin::Duration);
                let duration_value = b == Builtin::Duration
                    && ty.is_some_and(|t| {
                        is_duration(t) || matches!(t, Ty::Pointer(i) if is_duration(i))
                    });
                let got = tag.raw_payload().map_or("", Scalar::type_name);
                // upstream 1.38 `parseNumericLimit`: a `time.Duration` takes a Go duration string (`="1s"`).
                if v1_38 && duration_value {
                    let Some(text) = tag.str_payload().map(str::to_string) else {
                        return refuse(
                            self,
                            TagDiagnostic::PayloadKind {
                                got,
                                field: Some("a time.Duration"),
                            },
                        );
                    };
                    let n = match vgc_runtime::types::Duration(text.clone()).parse() {
                        Ok(n) => i64::try_from(n).unwrap_or_default(),
                        Err(e) => return refuse(self, TagDiagnostic::UnparsablePayload(e)),
                    };
                    return Some(vec![mk(if id == TagId::Minimum {
                        CheckKind::MinimumDuration(n)
                    } else {
                        CheckKind::MaximumDuration(n)
                    })]);
                }
                if int().is_none() {
                    return refuse(
                        self,
                        TagDiagnostic::PayloadKind {
                            got,
                            field: v1_38.then_some("an integer"),
                        },
                    );
                }
                let v = i128::from(int().unwrap_or_default());
                if let Some((lo, hi)) = b.int_range()
                    && (v < lo || v > hi)
                {
                    return refuse(self, TagDiagnostic::OutOfRange(v));
                }
                vec![mk(if id == TagId::Minimum {
                    CheckKind::Minimum(v)
                } else {
                    CheckKind::Maximum(v)
                })]
            }
            // upstream 1.38 (kubernetes#141811): `maxBytes` also on byte slices and typedefs to them,
            // `validate.MaxBytesSlice` (not a short-circuit, like the string form).
            LimitsTag::MaxBytes
                if !is_str
                    && vgc_ir::profile::upstream(self.db).max_bytes_on_byte_slices()
                    && ty.is_some_and(|t| {
                        matches!(
                            types::native(self.db, self.prog, t),
                            Native::Other(Ty::WellKnown(types::WellKnown::Bytes))
                        )
                    }) =>
            {
                let v = int().unwrap_or_default();
                if v < 0 {
                    return refuse(self, TagDiagnostic::Negative);
                }
                vec![mk(CheckKind::MaxBytesSlice(v))]
            }
            LimitsTag::MinLength | LimitsTag::MaxLength | LimitsTag::MaxBytes => {
                if !is_str {
                    let bytes_too = id == TagId::MaxBytes
                        && vgc_ir::profile::upstream(self.db).max_bytes_on_byte_slices();
                    return refuse(
                        self,
                        TagDiagnostic::WrongKind(if bytes_too {
                            ValueKinds::StringOrBytes
                        } else {
                            ValueKinds::String
                        }),
                    );
                }
                let v = int().unwrap_or_default();
                if v < 0 && id != TagId::MinLength {
                    return refuse(self, TagDiagnostic::Negative);
                }
                match id {
                    TagId::MinLength if v <= 0 => vec![],
                    TagId::MinLength => vec![mk(CheckKind::MinLength(v))],
                    TagId::MaxLength
                        if vgc_ir::profile::upstream(self.db).max_length_counts_bytes() =>
                    {
                        vec![mk(CheckKind::MaxLengthBytes(v))]
                    }
                    TagId::MaxLength => vec![mk(CheckKind::MaxLength(v))],
                    _ => vec![mk(CheckKind::MaxBytes(v))],
                }
            }
            LimitsTag::MinItems | LimitsTag::MaxItems => {
                // upstream goes by the native kind: a `[]byte` is a slice (its length counts bytes).
                let is_bytes = ty.is_some_and(|t| {
                    matches!(
                        types::native(self.db, self.prog, t),
                        Native::Other(Ty::WellKnown(types::WellKnown::Bytes))
                    )
                });
                if !is_list && !is_bytes {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
                }
                let v = int().unwrap_or_default();
                // upstream `limits.go`: "must be greater than or equal to zero".
                if v < 0 {
                    return refuse(self, TagDiagnostic::Negative);
                }
                vec![mk(if id == TagId::MinItems {
                    CheckKind::MinItems(v)
                } else {
                    CheckKind::MaxItems(v)
                })]
            }
            LimitsTag::MinProperties | LimitsTag::MaxProperties => {
                if !is_map {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::Map));
                }
                let v = int().unwrap_or_default();
                // upstream `limits.go`: at least 0, at most 100000.
                if v < 0 {
                    return refuse(self, TagDiagnostic::Negative);
                }
                if v > 100_000 {
                    return refuse(self, TagDiagnostic::TooManyProperties);
                }
                vec![mk(if id == TagId::MinProperties {
                    CheckKind::MinProperties(v)
                } else {
                    CheckKind::MaxProperties(v)
                })]
            }
        })
    }
}
