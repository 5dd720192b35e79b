//! `update` (upstream `validators/update.go` `generateUpdateValidation`; `validate/update.go`): the function by
//! the value's Go kind — `ValSliceUpdate`/`PtrSliceUpdate` with the list's match function, `UpdateMap`,
//! `UpdatePointer`, `UpdateStruct`, `UpdateValueByCompare`, `UpdateValueByReflect` — and the constraints as
//! `validate.NoSet`, … in upstream's sorted order.

use crate::{Gen, Native};
use vgc_lowering::plan::{GoTy, Matcher};
use vgc_runtime::validate::UpdateConstraint;

pub(super) fn call(
    g: &mut Gen<'_>,
    constraints: &[UpdateConstraint],
    m: &Matcher,
    value: &GoTy,
) -> Option<String> {
    let mut sorted = constraints.to_vec();
    sorted.sort();
    let mut args: Vec<String> = Vec::new();
    let func = match g.native(value) {
        Native::Slice => {
            let elem = g.elem_of(value)?;
            let on_items = sorted.iter().any(|c| {
                matches!(
                    c,
                    UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem
                )
            });
            if on_items {
                match m {
                    Matcher::Keys(_) | Matcher::Set => {
                        args.push(super::each::list_args(g, m, &elem).remove(0));
                    }
                    Matcher::None => return None,
                }
            } else {
                args.push("nil".into());
            }
            if matches!(elem, GoTy::Pointer(_)) {
                "PtrSliceUpdate"
            } else {
                "ValSliceUpdate"
            }
        }
        Native::Map => "UpdateMap",
        Native::Pointer => "UpdatePointer",
        Native::Value if g.is_struct(value) => "UpdateStruct",
        // 1.38 (kubernetes#141808): any other value through `UpdateValue` with an `==` literal, or the package's
        // deep-equality function.
        Native::Value if g.upstream.deep_equal_func_tag() => {
            if g.go_comparable(value) {
                let t = g.ty(value);
                args.push(format!("\nfunc(a {t}, b {t}) bool {{ return a == b }}"));
            } else {
                args.push(g.deep_equal());
            }
            "UpdateValue"
        }
        Native::Value if g.go_comparable(value) => "UpdateValueByCompare",
        Native::Value => "UpdateValueByReflect",
    };
    for c in sorted {
        let name = match c {
            UpdateConstraint::NoSet => "NoSet",
            UpdateConstraint::NoUnset => "NoUnset",
            UpdateConstraint::NoModify => "NoModify",
            UpdateConstraint::NoAddItem => "NoAddItem",
            UpdateConstraint::NoRemoveItem => "NoRemoveItem",
        };
        args.push(g.imports.name(crate::VALIDATE, name));
    }
    Some(super::validate_call(g, func, &args))
}
