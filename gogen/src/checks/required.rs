//! `required`, `optional`, `forbidden` (upstream `validators/required.go`; `validate/required.go`): the function
//! by the value's kind — `…Value` for a value, `…Pointer`, `…Slice`, `…Map`.

use crate::Gen;
use vgc_lowering::plan::{CheckKind, Shape};

pub(super) fn call(g: &mut Gen<'_>, kind: &CheckKind, shape: &Shape) -> Option<String> {
    let (base, detail) = match kind {
        CheckKind::Required { detail } => ("Required", detail),
        CheckKind::Forbidden { detail } => ("Forbidden", detail),
        _ => ("Optional", &None),
    };
    if detail.is_some() {
        // 1.38's message payload: not printed yet.
        return None;
    }
    let suffix = match shape {
        Shape::List { .. } => "Slice",
        Shape::Map => "Map",
        Shape::Scalar { pointer: true, .. }
        | Shape::Struct { pointer: true }
        | Shape::Other { pointer: true } => "Pointer",
        Shape::Scalar { pointer: false, .. }
        | Shape::Struct { pointer: false }
        | Shape::Other { pointer: false } => "Value",
    };
    Some(super::validate_call(g, &format!("{base}{suffix}"), &[]))
}
