//! The wrapping validators (upstream `validators/options.go` `IfOption`, `validators/subfield.go` `Subfield`;
//! codegen's `emit/wrappers.rs`): the wrapped check printed as upstream's `WrapperFunction` argument, the
//! wrapper's call carrying the marks.

use crate::Gen;
use vgc_lowering::plan::{Check, GoTy, IfOptionPlan, Subfield};

/// `validate.IfOption(ctx, op, fldPath, obj, oldObj, "<option>", <enabled>, <wrapped>)`: 1.37's, and 1.35 and
/// 1.36's (whose `IfOption` takes an undefined option as disabled; printed alike).
pub(super) fn if_option(
    g: &mut Gen<'_>,
    subject: &str,
    outer: &Check,
    io: &IfOptionPlan,
    value: &GoTy,
) -> Option<String> {
    if !io.undefined_is_error && !g.legacy {
        return None;
    }
    let w = super::each::wrapper(g, subject, &io.inner, outer, value)?;
    Some(super::validate_call(
        g,
        "IfOption",
        &[
            vgc_runtime::field::go_quote(&io.option),
            io.enabled.to_string(),
            w,
        ],
    ))
}

/// `validate.Subfield(ctx, op, fldPath, obj, oldObj, "<json>", <getter>, <equal>, <wrapped>)` on a struct value
/// of Go type `value`.
pub(super) fn subfield(
    g: &mut Gen<'_>,
    subject: &str,
    outer: &Check,
    s: &Subfield,
    value: &GoTy,
) -> Option<String> {
    let parent = non_pointer(value);
    let parent_nilable = g.go_nilable(parent);
    let parent_t = g.ty(parent);
    let member_ty = g.member_go_ty(parent, &s.member.go)?;
    let (member_t, expr) = if g.go_nilable(&member_ty) {
        (g.ty(&member_ty), "")
    } else {
        (format!("*{}", g.ty(&member_ty)), "&")
    };
    let ppfx = if parent_nilable { "" } else { "*" };
    let getter = format!(
        "\nfunc(o {ppfx}{parent_t}) {member_t} {{ return {expr}o.{} }}",
        s.member.go
    );
    let equal = g.ptr_equal_func(&member_ty);
    let w = super::each::wrapper(g, subject, &s.inner, outer, &member_ty)?;
    Some(super::validate_call(
        g,
        "Subfield",
        &[
            vgc_runtime::field::go_quote(&s.member.json),
            getter,
            equal,
            w,
        ],
    ))
}

fn non_pointer(t: &GoTy) -> &GoTy {
    match t {
        GoTy::Pointer(i) => non_pointer(i),
        t => t,
    }
}
