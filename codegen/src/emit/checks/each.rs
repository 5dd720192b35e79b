//! Lists and maps (upstream `each.go`): `eachVal`, `eachKey`, uniqueness and nil elements (`vgc_runtime::validate`'s
//! `each.rs`).

use super::*;

/// The call of a list or map check: each element's or key's checks ([`checks_block`] with `'scope` blocks), the
/// uniqueness of a list's items, or its nil elements.
pub(super) fn call(ctx: &Ctx<'_>, c: &Check, site: Site<'_>, ops: Operands<'_>) -> TokenStream {
    let (shape, elem) = (site.shape, site.elem);
    let Operands { new, old, path } = ops;
    let v = validators();
    match &c.kind {
        CheckKind::Unique(m) => {
            let MatcherFns {
                matches: mf,
                hash: hf,
                ..
            } = matcher_fns(ctx, m, elem);
            let ptr = matches!(
                shape,
                Shape::List {
                    pointer_elems: true
                }
            );
            if ptr {
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::ptr_slice_unique(#path, n, (#mf).unwrap_or(|_, _| false), #hf)))
            } else if ctx.openapi.is_some() {
                // A duplicate is shown as upstream's `json.Marshal` of the Go value, not k8s-openapi's `Serialize`.
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::slice_unique_by(#path, n, (#mf).unwrap_or(|_, _| false), #hf, |x| #v::bad_value(&crate::semantic::GoJson::go_json(x)))))
            } else {
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::slice_unique(#path, n, (#mf).unwrap_or(|_, _| false), #hf)))
            }
        }
        CheckKind::EachVal(inner, m, elem_shape) => {
            let body = checks_block(
                ctx,
                inner,
                Site {
                    shape: elem_shape,
                    elem: None,
                    typed: elem.is_some_and(RustTy::is_named_value),
                    owner: elem.and_then(|e| ctx.struct_of(e)),
                    nil_kept: false,
                },
                Operands {
                    new: &quote!(Some(v)),
                    old: &quote!(o),
                    path: &quote!(p),
                },
                Exit::Break,
            );
            let MatcherFns {
                matches: mf,
                hash: hf,
                equiv: eq,
            } = matcher_fns(ctx, m, elem);
            match shape {
                // `map[K]*V` (1.38, upstream `EachPtrMapVal`): nil values are skipped (`PtrMapNoNils` reports them).
                Shape::Map if matches!(elem, Some(RustTy::Option(..))) => {
                    let deref = if matches!(elem, Some(RustTy::Option(_, Boxing::Boxed))) {
                        quote!(as_deref)
                    } else {
                        quote!(as_ref)
                    };
                    let eq = deep_eq_elem(ctx, elem, &quote!(a), &quote!(b));
                    quote!({
                        let mut e = ::vgc_runtime::ErrorList::new();
                        if let Some(n) = #new { #v::each_map_val(op, #path, n, #old, Some(|a, b| #eq), |p, v, o, errs| {
                            if let Some(v) = v.#deref() {
                                let o = o.and_then(|o| o.#deref());
                                'scope: { #body }
                            }
                        }, &mut e); }
                        e
                    })
                }
                Shape::Map => {
                    let eq = deep_eq_elem(ctx, elem, &quote!(a), &quote!(b));
                    quote!({
                        let mut e = ::vgc_runtime::ErrorList::new();
                        if let Some(n) = #new { #v::each_map_val(op, #path, n, #old, Some(|a, b| #eq), |p, v, o, errs| { 'scope: { #body } }, &mut e); }
                        e
                    })
                }
                Shape::List {
                    pointer_elems: true,
                } => quote!({
                    let mut e = ::vgc_runtime::ErrorList::new();
                    if let Some(n) = #new { #v::each_ptr_slice_val(op, #path, n, #old.map(|o| &o[..]), #mf, #hf, #eq, |p, v, o, errs| { 'scope: { #body } }, &mut e); }
                    e
                }),
                _ => quote!({
                    let mut e = ::vgc_runtime::ErrorList::new();
                    if let Some(n) = #new { #v::each_slice_val(op, #path, n, #old.map(|o| &o[..]), #mf, #hf, #eq, |p, v, o, errs| { 'scope: { #body } }, &mut e); }
                    e
                }),
            }
        }
        CheckKind::NoNils if matches!(shape, Shape::Map) => {
            quote!(match #new { Some(n) => #v::ptr_map_no_nils(#path, n), None => ::vgc_runtime::ErrorList::new() })
        }
        CheckKind::NoNils => {
            quote!(match #new { Some(n) => #v::ptr_slice_no_nils(#path, n), None => ::vgc_runtime::ErrorList::new() })
        }
        CheckKind::EachKey(inner) => {
            let body = checks_block(
                ctx,
                inner,
                Site::plain(&Shape::Scalar {
                    ty: Builtin::String,
                    pointer: false,
                }),
                Operands {
                    new: &quote!(Some(k)),
                    old: &quote!(None::<&::std::string::String>),
                    path: &quote!(p),
                },
                Exit::Break,
            );
            quote!({
                let mut e = ::vgc_runtime::ErrorList::new();
                if let Some(n) = #new { #v::each_map_key(op, #path, n, #old, |p, k, errs| { 'scope: { #body } }, &mut e); }
                e
            })
        }
        other => unreachable!("not a list or map check: {other:?}"),
    }
}
