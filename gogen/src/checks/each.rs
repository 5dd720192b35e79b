//! `eachVal`, `eachKey` and list uniqueness (upstream `validators/each.go` `getListValidations`,
//! `getMapValidations`, `eachKeyTagValidator.getValidations`; `validators/list.go`'s uniqueness; `validate/each.go`).
//! One call per wrapped check, the wrapped check printed as upstream's `WrapperFunction`: its function's name when
//! it takes no arguments beyond the standard five, else a closure with the standard signature.

use crate::Gen;
use vgc_analysis::TypeKey;
use vgc_lowering::plan::{Check, GoTy, Matcher};

/// gofmt keeps a function literal on one line when its header and body fit in 100 columns (go/printer
/// `funcBody`, `maxSize`).
const ONE_LINE_FUNC: usize = 100;

/// The type without pointers (upstream `util.NonPointer`, applied repeatedly).
pub(super) fn non_pointer(t: &GoTy) -> &GoTy {
    match t {
        GoTy::Pointer(i) => non_pointer(i),
        t => t,
    }
}

/// upstream `listMetadata.makeListMapMatchFunc`: `func(a *T, b *T) bool { return a.K == b.K && … }`, a pointer
/// key compared by value with nil equal to nil; newline-prefixed (`flNewlineOK`).
fn match_func(g: &mut Gen<'_>, elem: &GoTy, keys: &[String]) -> String {
    let t = g.ty(non_pointer(elem));
    let key_is_pointer = |k: &String| -> bool {
        let GoTy::Named { pkg, name } = non_pointer(elem) else {
            return false;
        };
        let key = TypeKey {
            pkg: pkg.clone(),
            name: name.clone(),
        };
        g.type_plan(&key)
            .and_then(|p| p.fields.as_ref())
            .and_then(|fs| fs.iter().find(|f| &f.go_field == k))
            .is_some_and(|f| matches!(f.go_ty, GoTy::Pointer(_)))
    };
    let terms: Vec<String> = keys
        .iter()
        .map(|k| {
            if key_is_pointer(k) {
                format!("((a.{k} == nil && b.{k} == nil) || (a.{k} != nil && b.{k} != nil && *a.{k} == *b.{k}))")
            } else {
                format!("a.{k} == b.{k}")
            }
        })
        .collect();
    // Before 1.37 the elements are taken by value.
    let p = if g.upstream.go_generic_slice_validators() {
        ""
    } else {
        "*"
    };
    let header = format!("func(a {p}{t}, b {p}{t}) bool");
    let body = format!("return {}", terms.join(" && "));
    if header.len() + body.len() <= ONE_LINE_FUNC {
        format!("\n{header} {{ {body} }}")
    } else {
        format!("\n{header} {{\n\t{body}\n}}")
    }
}

fn equal_func(g: &mut Gen<'_>, elem: &GoTy) -> String {
    g.equal_func(elem)
}

/// The match and equivalence arguments of a list's element calls (upstream `getListValidations`).
pub(crate) fn list_args(g: &mut Gen<'_>, m: &Matcher, elem: &GoTy) -> Vec<String> {
    match m {
        Matcher::Keys(keys) => vec![match_func(g, elem, keys), equal_func(g, elem)],
        Matcher::Set => vec![equal_func(g, elem), "nil".into()],
        Matcher::None => vec!["nil".into(), "nil".into()],
    }
}

/// The wrapped check as upstream's `WrapperFunction` argument (newline-prefixed when a closure).
pub(super) fn wrapper(
    g: &mut Gen<'_>,
    subject: &str,
    inner: &Check,
    outer: &Check,
    elem: &GoTy,
) -> Option<String> {
    let call = super::inner_call(g, subject, inner, outer, elem)?;
    // 1.38: `required` and `forbidden` take a variadic message, so upstream always wraps them in a closure.
    let variadic = g.upstream.requiredness_message_payload()
        && matches!(
            inner.kind,
            vgc_lowering::plan::CheckKind::Required { .. }
                | vgc_lowering::plan::CheckKind::Forbidden { .. }
        );
    if !variadic && let Some(f) = call.strip_suffix("(ctx, op, fldPath, obj, oldObj)") {
        // The function itself, after the wrapped check's comments.
        let mut s = String::new();
        for comment in super::comments(inner) {
            s.push_str(&format!("// {comment}\n"));
        }
        s.push_str(f);
        return Some(s);
    }
    let pfx = if g.go_nilable(elem) { "" } else { "*" };
    let t = g.ty(elem);
    let context = g.imports.name(crate::CONTEXT, "Context");
    let operation = g.imports.name(crate::OPERATION, "Operation");
    let path = g.imports.name(crate::FIELD, "Path");
    let errors = g.imports.name(crate::FIELD, "ErrorList");
    let call = super::indent_after_first(&call, "\t");
    Some(format!(
        "\nfunc(ctx {context}, op {operation}, fldPath *{path}, obj, oldObj {pfx}{t}) {errors} {{\n\treturn {call}\n}}"
    ))
}

/// `eachVal` on a list or map value of Go type `value`.
pub(super) fn each_val(
    g: &mut Gen<'_>,
    subject: &str,
    outer: &Check,
    inner: &[Check],
    m: &Matcher,
    value: &GoTy,
) -> Option<String> {
    let [inner] = inner else {
        return None;
    };
    let elem = g.elem_of(value)?;
    let is_map = g.is_map(value);
    let mut args = if is_map {
        vec![equal_func(g, &elem)]
    } else {
        list_args(g, m, &elem)
    };
    args.push(wrapper(g, subject, inner, outer, &elem)?);
    let func = if is_map && matches!(elem, GoTy::Pointer(_)) && g.upstream.maps_of_pointers() {
        "EachPtrMapVal"
    } else if is_map {
        "EachMapVal"
    } else if g.upstream.go_generic_slice_validators() {
        "EachSliceVal"
    } else if matches!(elem, GoTy::Pointer(_)) {
        "EachPtrSliceVal"
    } else {
        "EachValSliceVal"
    };
    Some(super::validate_call(g, func, &args))
}

/// `eachKey` on a map value of Go type `value`.
pub(super) fn each_key(
    g: &mut Gen<'_>,
    subject: &str,
    outer: &Check,
    inner: &[Check],
    value: &GoTy,
) -> Option<String> {
    let [inner] = inner else {
        return None;
    };
    let key = g.key_of(value)?;
    let w = wrapper(g, subject, inner, outer, &key)?;
    Some(super::validate_call(g, "EachMapKey", &[w]))
}

/// List uniqueness from `listType=set|map` or `unique` (upstream `listTypeTagValidator`'s functions).
pub(super) fn unique(g: &mut Gen<'_>, m: &Matcher, value: &GoTy) -> Option<String> {
    let elem = g.elem_of(value)?;
    let arg = match m {
        Matcher::Keys(keys) => match_func(g, &elem, keys),
        Matcher::Set => equal_func(g, &elem),
        Matcher::None => return None,
    };
    let func = if g.upstream.go_generic_slice_validators() {
        "Unique"
    } else if matches!(elem, GoTy::Pointer(_)) {
        "PtrSliceUnique"
    } else {
        "ValSliceUnique"
    };
    Some(super::validate_call(g, func, &[arg]))
}

/// upstream's synthetic `PtrSliceNoNils[T]` (`PtrMapNoNils[T]` for a map of pointers, 1.38) on a list or map of
/// pointers to `T`.
pub(super) fn no_nils(g: &mut Gen<'_>, value: &GoTy) -> Option<String> {
    let elem = g.elem_of(value)?;
    let GoTy::Pointer(target) = &elem else {
        return None;
    };
    let t = g.ty(target);
    let (func, type_args) = if g.is_map(value) {
        // 1.38's `PtrMapNoNils[K, V]`.
        let k = g.key_of(value)?;
        ("PtrMapNoNils", format!("{}, {t}", g.ty(&k)))
    } else {
        ("PtrSliceNoNils", t)
    };
    let f = g.imports.name(crate::VALIDATE, func);
    Some(super::call_with(g, &format!("{f}[{type_args}]"), &[]))
}

/// `item(k: v, …)=<tag>` (upstream `validators/item.go`; `validate.ValSliceItem`/`PtrSliceItem`): the element
/// whose list-map keys have the selector's values, matched by a literal, compared for ratcheting with
/// `DirectEqual` or `SemanticDeepEqual`, the wrapped check on it.
pub(super) fn item(
    g: &mut Gen<'_>,
    subject: &str,
    outer: &Check,
    it: &vgc_lowering::plan::ItemPlan,
    value: &GoTy,
) -> Option<String> {
    let elem = g.elem_of(value)?;
    let target = non_pointer(&elem).clone();
    let t = g.ty(&target);
    let conditions: Vec<String> = it
        .selector
        .iter()
        .map(|(field, pointer, v)| {
            let rhs = match v {
                vgc_lowering::plan::NeqValue::Str(s) => vgc_runtime::field::go_quote(s),
                vgc_lowering::plan::NeqValue::Int(i) => i.to_string(),
                vgc_lowering::plan::NeqValue::Bool(b) => b.to_string(),
            };
            if *pointer {
                format!("item.{field} != nil && *item.{field} == {rhs}")
            } else {
                format!("item.{field} == {rhs}")
            }
        })
        .collect();
    let header = format!("func(item *{t}) bool");
    let body = format!("return {}", conditions.join(" && "));
    let matcher = if header.len() + body.len() <= ONE_LINE_FUNC {
        format!("\n{header} {{ {body} }}")
    } else {
        format!("\n{header} {{\n\t{body}\n}}")
    };
    let equal = equal_func(g, &target);
    let w = wrapper(g, subject, &it.inner, outer, &target)?;
    let func = if g.upstream.go_generic_slice_validators() {
        "SliceItem"
    } else if it.ptr_elems {
        "PtrSliceItem"
    } else {
        "ValSliceItem"
    };
    Some(super::validate_call(g, func, &[matcher, equal, w]))
}
