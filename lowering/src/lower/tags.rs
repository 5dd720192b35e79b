//! The tag dispatcher: one tag use (after its wrappers are peeled) to checks, matched exhaustively on [`TagId`].

use super::diagnostics::{Family, TagDiagnostic, ValueKinds};
use super::*;

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
        let mk = |kind: CheckKind| Check {
            kind,
            short_circuit: spec.flags.short_circuit,
            non_error: spec.flags.non_error,
            stability,
            tag: Some(id),
            cohort: None,
        };
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
        let int = || match tag.scalar_value() {
            Some(Scalar::Int { value, .. }) => Some(*value),
            _ => None,
        };
        let s = || match tag.scalar_value() {
            Some(Scalar::Str(v)) => Some(v.clone()),
            _ => None,
        };
        // Every refusal of this dispatcher is a typed `TagDiagnostic` (lower/diagnostics.rs).
        let refuse = |l: &mut Self, d: TagDiagnostic| {
            l.err(file, u.at, d.code(), d.message(&owner.name, id), d.hint());
            None
        };
        let is_str = matches!(
            shape,
            Shape::Scalar {
                ty: Builtin::String,
                ..
            }
        );
        let int_kind = match shape {
            Shape::Scalar { ty: b, .. } if b.is_integer() => Some(*b),
            _ => None,
        };
        let is_list = matches!(shape, Shape::List { .. });
        let is_map = matches!(shape, Shape::Map);
        Some(match id {
            TagId::Required | TagId::Optional | TagId::Forbidden => {
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
            // vgc extension: a field-path constraint, hoisted to the parent struct by `field_constraints`; the
            // catalog checks refuse the form anywhere else.
            TagId::Minimum | TagId::Maximum
                if vgc_ir::extension_tags::constraint_tag(tag).is_some() =>
            {
                return None;
            }
            // upstream 1.38 (code-generator v0.38.0-beta.0 `parseNumericLimit`): on a `resource.Quantity` itself
            // (through pointers; not a typedef of it) the payload, whatever its literal kind, is a quantity.
            TagId::Minimum | TagId::Maximum
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
                let text = match tag.scalar_value() {
                    Some(Scalar::Str(s)) => s.clone(),
                    Some(Scalar::Int { text, .. }) => text.clone(),
                    Some(Scalar::Bool(b)) => b.to_string(),
                    _ => String::new(),
                };
                if let Err(e) = vgc_runtime::types::quantity_syntax(&text) {
                    return refuse(self, TagDiagnostic::UnparsablePayload(e.to_string()));
                }
                vec![mk(if id == TagId::Minimum {
                    CheckKind::MinimumQuantity(text)
                } else {
                    CheckKind::MaximumQuantity(text)
                })]
            }
            TagId::Minimum | TagId::Maximum => {
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
                let got = tag.scalar_value().map_or("", Scalar::type_name);
                // upstream 1.38 `parseNumericLimit`: a `time.Duration` takes a Go duration string (`="1s"`).
                if v1_38 && duration_value {
                    let Some(Scalar::Str(text)) = tag.scalar_value() else {
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
            TagId::MaxBytes
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
            TagId::MinLength | TagId::MaxLength | TagId::MaxBytes => {
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
            TagId::MinItems | TagId::MaxItems => {
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
            TagId::MinProperties | TagId::MaxProperties => {
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
            TagId::Format => {
                if !is_str {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::String));
                }
                let f = s().unwrap_or_default();
                let known = |format: Format| {
                    format != Format::K8sConditionReason
                        || vgc_ir::profile::upstream(self.db).condition_reason_format()
                };
                if let Some(format) = Format::from_name(&f).filter(|x| known(*x)) {
                    vec![mk(CheckKind::Format(
                        vgc_ir::profile::upstream(self.db).format_as_of(format),
                    ))]
                } else {
                    // kubernetes#142116: a name no built-in format has may be a project format (1.38 on).
                    match vgc_ir::extensions::project_format(self.db, &f) {
                        Some(p) if vgc_ir::profile::upstream(self.db).project_formats() => {
                            vec![mk(CheckKind::Matches(p))]
                        }
                        Some(_) => {
                            return refuse(self, TagDiagnostic::ProjectFormatBeforeV1_38(f));
                        }
                        None => return refuse(self, TagDiagnostic::UnknownFormat(f)),
                    }
                }
            }
            TagId::Enum => {
                if !is_str {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::String));
                }
                let (values, exclusions) = self.enum_values(owner);
                vec![mk(CheckKind::Enum(EnumPlan {
                    values,
                    exclusions,
                    undefined_option_is_error: self.undefined_option_is_error(),
                }))]
            }
            TagId::Immutable => vec![mk(CheckKind::Immutable)],
            TagId::Update => {
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
            TagId::ListType => {
                let v = s().unwrap_or_default();
                if !["atomic", "set", "map"].contains(&v.as_str()) {
                    return refuse(self, TagDiagnostic::UnknownListType(v));
                }
                if !is_list {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
                }
                vec![]
            }
            // R17: upstream's list-metadata validators refuse a non-list context (`can only be used on list types`).
            TagId::Unique | TagId::ListMapKey | TagId::CustomUnique if !is_list => {
                return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
            }
            TagId::Unique | TagId::ListMapKey | TagId::OpaqueType | TagId::CustomUnique => vec![],
            // Unions and dependent fields are lowered at the struct level (`struct_level_checks`).
            TagId::UnionMember
            | TagId::UnionDiscriminator
            | TagId::ZeroOrOneOfMember
            | TagId::DependentRequired
            | TagId::DependentForbidden => vec![],
            TagId::CustomValidation => {
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
            TagId::ValidateTrue
            | TagId::ValidateTrueAlpha
            | TagId::ValidateTrueBeta
            | TagId::ValidateFalse => {
                // upstream `testing.go`: flags and cohort come from the args; the Alpha/Beta variants only differ
                // in their tag level (for the lint), not in their functions.
                let mut c = mk(CheckKind::FixedResult {
                    result: id != TagId::ValidateFalse,
                    msg: s().unwrap_or_default(),
                });
                if let Some(Scalar::Str(flags)) = tag.arg("flags").map(|a| &a.value) {
                    for fl in flags.split(',').map(str::trim) {
                        match fl {
                            "ShortCircuit" => c.short_circuit = true,
                            "NonError" => c.non_error = true,
                            other => {
                                return refuse(self, TagDiagnostic::UnknownFlag(other.to_string()));
                            }
                        }
                    }
                }
                if let Some(Scalar::Str(cohort)) = tag.arg("cohort").map(|a| &a.value)
                    && !cohort.is_empty()
                {
                    c.cohort = Some(cohort.clone());
                }
                vec![c]
            }
            TagId::ValidateError => {
                let payload = s().unwrap_or_default();
                return refuse(self, TagDiagnostic::ForcedError(payload));
            }
            TagId::Monotonic => {
                if int_kind.is_none() {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::Integer));
                }
                vec![mk(CheckKind::Monotonic)]
            }
            TagId::Neq | TagId::Eq => {
                let v = match (tag.scalar_value(), shape) {
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
            TagId::Subfield => return self.lower_subfield(owner, file, u, tag, ty, stability),
            // Reached only nested in another tag's payload (`item_checks` lowers a declaration's own `item` tags).
            TagId::Item => {
                if !is_list {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::List));
                }
                return refuse(self, TagDiagnostic::ItemNotDirect);
            }
            TagId::IfEnabled | TagId::IfDisabled => {
                // upstream `options.go`: every function the payload produces is wrapped in `IfOption`, keeping
                // its flags; an undefined option is an internal error at run time (1.37 on; before, disabled).
                let inner = tag.inner()?;
                let Some(Scalar::Str(option)) = tag.positional().map(|a| &a.value) else {
                    return None;
                };
                let inner_stab = level_of(inner).or(stability);
                let inner_checks =
                    self.lower_tag(owner, file, u, unwrap_levels(inner), shape, ty, inner_stab)?;
                let enabled = id == TagId::IfEnabled;
                let undefined_is_error = self.undefined_option_is_error();
                wrap_each(inner_checks, id, |inner| {
                    CheckKind::IfOption(Box::new(IfOptionPlan {
                        option: option.clone(),
                        enabled,
                        undefined_is_error,
                        inner,
                    }))
                })
            }
            // vgc extension (KEP-5073 "Virtual Field Strategy"): written directly on a field or type they are read
            // by the virtual-group analysis (`virtual_groups`, which places their checks and reports their
            // problems); inside another tag's payload nothing reads them.
            TagId::MemberOf | TagId::ListMapItem | TagId::Union | TagId::ZeroOrOneOf => {
                let d = if !vgc_ir::extension_tags::enabled(self.db) {
                    TagDiagnostic::ExtensionDisabled(Family::Virtual)
                } else if u.parsed.as_ref().is_ok_and(|p| std::ptr::eq(p, tag)) {
                    return Some(Vec::new());
                } else {
                    TagDiagnostic::VirtualFieldNested
                };
                // Named by the field they are written on (`Struct.Field`), as the virtual-group analysis names them.
                let on = field_of(self.prog, self.db, owner, u)
                    .map_or_else(|| owner.name.clone(), |f| format!("{}.{f}", owner.name));
                self.err(file, u.at, d.code(), d.message(&on, id), d.hint());
                return None;
            }
            TagId::IfSubresource | TagId::IfNotSubresource => {
                // vgc extension (KEP-5073 "Subresources"): the payload's checks run only when (or unless) the
                // request's subresource path is the argument; like `IfOption`, the wrapper keeps its inner
                // check's flags.
                if !vgc_ir::extension_tags::enabled(self.db) {
                    return refuse(self, TagDiagnostic::ExtensionDisabled(Family::Subresource));
                }
                let inner = tag.inner()?;
                let Some(Scalar::Str(path)) = tag.positional().map(|a| &a.value) else {
                    return None;
                };
                if !path.starts_with('/') {
                    return refuse(self, TagDiagnostic::SubresourcePath(path.clone()));
                }
                if let Some(bad) = unconditionable(inner) {
                    return refuse(self, TagDiagnostic::SubresourcePayload(bad));
                }
                let inner_stab = level_of(inner).or(stability);
                let inner_checks =
                    self.lower_tag(owner, file, u, unwrap_levels(inner), shape, ty, inner_stab)?;
                wrap_each(inner_checks, id, |inner| {
                    CheckKind::IfSubresource(Box::new(IfSubresourcePlan {
                        path: path.clone(),
                        negated: id == TagId::IfNotSubresource,
                        inner,
                    }))
                })
            }
            TagId::EachVal | TagId::EachKey => {
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
            // Wrappers peeled by the callers before a payload reaches this function: a level (`alpha`/`beta`)
            // marks the payload's checks, `ifMode` and `enumExclude` are read by the mode and enum consumers.
            TagId::Alpha
            | TagId::Beta
            | TagId::IfMode
            | TagId::ModeDiscriminator
            | TagId::EnumExclude => return None,
        })
    }
}

/// Clears the short-circuit flag of `c` and of every check below it ([`Check::children_mut`]).
fn clear_short_circuits(c: &mut Check) {
    c.short_circuit = false;
    c.children_mut().into_iter().for_each(clear_short_circuits);
}

/// Each of `checks` wrapped by tag `id` in the check `wrap` makes of it: upstream's wrapping validators (`IfOption`,
/// and vgc's subresource conditions) keep the inner function's flags and stability mark, and — a new function —
/// none of its cohort.
fn wrap_each(checks: Vec<Check>, id: TagId, wrap: impl Fn(Check) -> CheckKind) -> Vec<Check> {
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

/// The innermost tag of `payload` (through `alpha`/`beta`, `ifEnabled`/`ifDisabled` and nested subresource
/// conditions) when a subresource condition cannot wrap it: a tag that makes no check of the value it is written on
/// (list metadata, struct-level tags, `item`, `opaqueType`) or whose meaning cannot depend on the request
/// (requiredness, which also decides whether the value's other checks run). `None` when it can.
fn unconditionable(payload: &Tag) -> Option<TagId> {
    let mut cur = payload;
    loop {
        let id = cur.tag_id()?;
        match id {
            TagId::Alpha
            | TagId::Beta
            | TagId::IfEnabled
            | TagId::IfDisabled
            | TagId::IfSubresource
            | TagId::IfNotSubresource => cur = cur.inner()?,
            TagId::Required
            | TagId::Optional
            | TagId::Forbidden
            | TagId::ListType
            | TagId::ListMapKey
            | TagId::Unique
            | TagId::CustomUnique
            | TagId::OpaqueType
            | TagId::Item
            | TagId::UnionMember
            | TagId::UnionDiscriminator
            | TagId::ZeroOrOneOfMember
            | TagId::ModeDiscriminator
            | TagId::IfMode
            | TagId::DependentRequired
            | TagId::DependentForbidden
            | TagId::MemberOf
            | TagId::ListMapItem
            | TagId::Union
            | TagId::ZeroOrOneOf
            | TagId::EnumExclude => return Some(id),
            TagId::CustomValidation
            | TagId::EachKey
            | TagId::EachVal
            | TagId::Enum
            | TagId::Format
            | TagId::Immutable
            | TagId::MaxBytes
            | TagId::MaxItems
            | TagId::MaxLength
            | TagId::MaxProperties
            | TagId::Maximum
            | TagId::MinItems
            | TagId::MinLength
            | TagId::MinProperties
            | TagId::Minimum
            | TagId::Monotonic
            | TagId::Neq
            | TagId::Eq
            | TagId::Subfield
            | TagId::Update
            | TagId::ValidateError
            | TagId::ValidateFalse
            | TagId::ValidateTrue
            | TagId::ValidateTrueAlpha
            | TagId::ValidateTrueBeta => return None,
        }
    }
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
            T.name: optional; format=k8s-short-name; maxLength=8
            T.count: required; maximum=10; minimum=1
            T.items: maxItems=3; optional
            T.mode: optional; update=NoSet,NoModify
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
