//! `required`, `optional`, `forbidden` (upstream `validators/required.go`; `validate/required.go`): the function
//! by the value's kind — `…Value` for a value, `…Pointer`, `…Slice`, `…Map`.

use crate::{Gen, Native};
use vgc_lowering::plan::{CheckKind, GoTy};

pub(super) fn call(g: &mut Gen<'_>, kind: &CheckKind, value: &GoTy) -> Option<String> {
    let (base, detail) = match kind {
        CheckKind::Required { detail } => ("Required", detail),
        CheckKind::Forbidden { detail } => ("Forbidden", detail),
        _ => ("Optional", &None),
    };

    let suffix = match g.native(value) {
        Native::Slice => "Slice",
        Native::Map => "Map",
        Native::Pointer => "Pointer",
        Native::Value => "Value",
    };
    // 1.38's message payload is the call's one extra (variadic) argument.
    let args: Vec<String> = detail
        .iter()
        .map(|d| vgc_runtime::field::go_quote(d))
        .collect();
    Some(super::validate_call(g, &format!("{base}{suffix}"), &args))
}
