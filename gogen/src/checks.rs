//! The validator call each check becomes, one module per validator family (named after apimachinery's
//! `pkg/api/validate/*.go`, as codegen's `emit/checks/` and the interpreter's `eval/` are): the call text
//! `validate.F(ctx, op, fldPath, obj, oldObj, args…)` without its marks, or `None` with the check recorded as
//! [`crate::Unsupported`].

use crate::Gen;
use vgc_lowering::limit_check_kinds;
use vgc_lowering::plan::{Check, CheckKind, Shape};

mod equality;
mod immutable;
mod limits;
mod monotonic;
mod required;
mod strfmt;
mod testing;

/// The call for `c` on a value of `shape` (the field's or type's), unmarked.
pub(crate) fn call(g: &mut Gen<'_>, subject: &str, c: &Check, shape: &Shape) -> Option<String> {
    let call = match &c.kind {
        CheckKind::Required { .. } | CheckKind::Optional | CheckKind::Forbidden { .. } => {
            required::call(g, &c.kind, shape)
        }
        limit_check_kinds!() => limits::call(g, &c.kind),
        CheckKind::Format(f) => strfmt::call(g, *f),
        CheckKind::Immutable => Some(immutable::call(g)),
        CheckKind::Monotonic => Some(monotonic::call(g)),
        CheckKind::Neq(v) => Some(equality::call(g, "NEQ", v)),
        CheckKind::Eq(v) => Some(equality::call(g, "EQ", v)),
        CheckKind::FixedResult { result, msg } => Some(testing::call(g, *result, msg)),
        CheckKind::Matches(_)
        | CheckKind::Enum(_)
        | CheckKind::Update(..)
        | CheckKind::Unique(_)
        | CheckKind::EachVal(..)
        | CheckKind::EachKey(_)
        | CheckKind::Subfield(_)
        | CheckKind::Union(_)
        | CheckKind::Dependent(_)
        | CheckKind::FieldConstraint(_)
        | CheckKind::VirtualUnion(_)
        | CheckKind::NoNils
        | CheckKind::Custom { .. }
        | CheckKind::Item(_)
        | CheckKind::ListUnion(_)
        | CheckKind::Discriminated(_)
        | CheckKind::IfOption(_)
        | CheckKind::IfSubresource(_) => None,
    };
    if call.is_none() {
        g.unsupported(
            subject,
            format!("{:?} (not printed by the Go backend yet)", tag_of(c)),
        );
    }
    call
}

/// The tag a check came from, for messages.
fn tag_of(c: &Check) -> String {
    c.tag
        .map(|t| format!("+{}", t.name()))
        .unwrap_or_else(|| "a synthetic check".into())
}

/// `validate.<name>(ctx, op, fldPath, obj, oldObj[, args])`.
pub(crate) fn validate_call(g: &mut Gen<'_>, name: &str, args: &[String]) -> String {
    let f = g.imports.name(crate::VALIDATE, name);
    let mut s = format!("{f}(ctx, op, fldPath, obj, oldObj");
    for a in args {
        s.push_str(", ");
        s.push_str(a);
    }
    s.push(')');
    s
}
