//! Field and element emission: a field's ratcheted block, and the per-element calls into element types' functions.

use super::*;

/// The per-element (per-key) calls of the element type's function over the container `container` (the value's
/// Rust type, for the element type) of shape `shape`.
pub(super) fn iteration_code(
    ctx: &Ctx<'_>,
    it: &Iteration,
    shape: &Shape,
    ops: Operands<'_>,
    container: Option<&RustTy>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    let f = ctx.fn_of(&it.elem);
    let v = quote!(::vgc_runtime::validate);
    if it.keys {
        // upstream `EachMapKey`: the key type's function at the map's path, with no old key; keys already in the
        // old map are skipped on update.
        return quote! { #v::each_map_key(op, #path, #new, #old, |p, k, errs| #f(op, p, Some(k), None, errs), errs); };
    }
    let elem = container.and_then(|c| ctx.elem_of(c));
    let MatcherFns {
        matches: mf,
        hash: hf,
        equiv: eq,
    } = matcher_fns(ctx, &it.matcher, elem.as_ref());
    match shape {
        // `map[K]*T`: nil values are skipped, as upstream 1.38's `EachPtrMapVal` does (`PtrMapNoNils` reports them;
        // before 1.38 upstream would dereference them, D2).
        Shape::Map if matches!(elem, Some(RustTy::Option(..))) => {
            let deref = if matches!(elem, Some(RustTy::Option(_, Boxing::Boxed))) {
                quote!(as_deref)
            } else {
                quote!(as_ref)
            };
            let eq = deep_eq_elem(ctx, elem.as_ref(), &quote!(a), &quote!(b));
            quote! { #v::each_map_val(op, #path, #new, #old, Some(|a, b| #eq), |p, v, o, errs| if let Some(v) = v.#deref() { #f(op, p, Some(v), o.and_then(|o| o.#deref()), errs) }, errs); }
        }
        Shape::Map => {
            let eq = deep_eq_elem(ctx, elem.as_ref(), &quote!(a), &quote!(b));
            quote! { #v::each_map_val(op, #path, #new, #old, Some(|a, b| #eq), |p, v, o, errs| #f(op, p, Some(v), o, errs), errs); }
        }
        Shape::List {
            pointer_elems: true,
        } => {
            quote! { #v::each_ptr_slice_val(op, #path, #new, #old.map(|o| &o[..]), #mf, #hf, #eq, |p, v, o, errs| #f(op, p, Some(v), o, errs), errs); }
        }
        _ => {
            quote! { #v::each_slice_val(op, #path, #new, #old.map(|o| &o[..]), #mf, #hf, #eq, |p, v, o, errs| #f(op, p, Some(v), o, errs), errs); }
        }
    }
}

pub(super) fn field_code(ctx: &Ctx<'_>, owner: &TypeKey, f: &FieldPlan) -> TokenStream {
    let json = &f.json_name;
    // upstream §9.9: at the root, an inline field's segment is its Go (embedded type) name, e.g. `T2.intField`.
    let inline_name = &f.go_name;
    // Inline and `json:"-"` fields get the parent path; at the root upstream names them after the Go type.
    let path = if json.is_empty() {
        quote!(let p = match path { ::vgc_runtime::Path::Root => ::vgc_runtime::Path::Child(path, #inline_name), p => *p };)
    } else {
        quote!(let p = path.child(#json);)
    };
    let pointer = match &f.ty {
        RustTy::Option(_, b) => Some(*b),
        _ => None,
    };
    let Read { decls, new, old } = read_member(
        ctx,
        Some(owner),
        &f.go_field,
        pointer,
        &f.ty,
        &quote!(obj),
        &quote!(old),
        "field",
    );
    let elem = ctx.elem_of(&f.ty);
    let unchanged = match ctx
        .openapi
        .and_then(|m| m.inline.get(&(owner.clone(), f.go_field.clone())))
    {
        // An inline-embedded struct on k8s-openapi: `new` is the embedding struct; compare the embedded fields.
        Some(v) => {
            let eq = ctx.inline_eq_fn(v);
            quote!(match (new, old_v) {
                (Some(a), Some(b)) => crate::semantic::#eq(a, b),
                (None, None) => true,
                _ => false,
            })
        }
        // upstream `emitRatchetingCheck`: `==` on directly comparable values, else the deep-equality function.
        None => ctx.deep_eq_opt(&f.ty, &quote!(new), &quote!(old_v)),
    };

    let checks = checks_block(
        ctx,
        &f.checks,
        Site {
            shape: &f.shape,
            elem: elem.as_ref(),
            typed: f.ty.is_named_value(),
            owner: ctx.struct_of(&f.ty),
            nil_kept: ctx.openapi.is_some() && ctx.member(Some(owner), &f.go_field).wrapped,
        },
        Operands {
            new: &quote!(new),
            old: &quote!(old_v),
            path: &quote!(&p),
        },
        Exit::Break,
    );
    let nested = f.nested.as_ref().map(|n| {
        let fun = ctx.fn_of(&n.ty);
        quote!(#fun(op, &p, new, old_v, errs);)
    });
    let iteration: TokenStream = f
        .key_iteration
        .iter()
        .chain(&f.iteration)
        .map(|it| {
            let code = iteration_code(
                ctx,
                it,
                &f.shape,
                Operands {
                    new: &quote!(n),
                    old: &quote!(old_v),
                    path: &quote!(&p),
                },
                Some(&f.ty),
            );
            quote!(if let Some(n) = new { #code })
        })
        .collect();
    quote! {
        'scope: {
            #path
            #decls
            let new = #new;
            let old_v = #old;
            // Ratchet: on update, an unchanged field with a correlated old value is not revalidated.
            if op.is_update() && old.is_some() && #unchanged { break 'scope; }
            #checks
            #nested
            #iteration
        }
    }
}

/// The equivalence of two elements `a`, `b` (references) of element type `elem` as upstream's `DeepEqualFunc{}`
/// argument compares them ([`Ctx::deep_eq_ref`]; plain equality when the element type is unknown).
pub(super) fn deep_eq_elem(
    ctx: &Ctx<'_>,
    elem: Option<&RustTy>,
    a: &TokenStream,
    b: &TokenStream,
) -> TokenStream {
    match elem {
        Some(e) => ctx.deep_eq_ref(e, a, b),
        None => ctx.eq_ref(a, b),
    }
}
