//! Equality (upstream `equality.go`): `eq` and `neq` (`vgc_codegen`'s `emit/checks/equality.rs`).

use super::*;

/// `checks::equality::call`: an `+k8s:eq` or `+k8s:neq` check on the value as a string, an integer or a boolean.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    c: &Check,
    n: &NeqValue,
    new: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    let eq = matches!(c.kind, CheckKind::Eq(_));
    match n {
        NeqValue::Str(x) if eq => v::eq_str(path, cx.str_of(new, path), x),
        NeqValue::Str(x) => v::neq_str(path, cx.str_of(new, path), x),
        NeqValue::Int(i) => {
            let (value, i) = (cx.int_of(new, path), i128::from(*i));
            if eq {
                v::eq(path, value.as_ref(), i)
            } else {
                v::neq(path, value.as_ref(), i)
            }
        }
        NeqValue::Bool(b) => {
            let bv = match new {
                Some(Val::Bool(b)) => Some(*b),
                _ => None,
            };
            if eq {
                v::eq(path, bv.as_ref(), *b)
            } else {
                v::neq(path, bv.as_ref(), *b)
            }
        }
    }
}
