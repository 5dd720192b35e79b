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
    let (mf, eq) = matcher_fns(ctx, &it.matcher, elem.as_ref());
    match shape {
        // `map[K]*T`: nil values are skipped, as upstream 1.38's `EachPtrMapVal` does (`PtrMapNoNils` reports them;
        // before 1.38 upstream would dereference them, D2).
        Shape::Map if matches!(elem, Some(RustTy::Option(..))) => {
            let deref = if matches!(elem, Some(RustTy::Option(_, Boxing::Boxed))) {
                quote!(as_deref)
            } else {
                quote!(as_ref)
            };
            quote! { #v::each_map_val(op, #path, #new, #old, Some(|a, b| a == b), |p, v, o, errs| if let Some(v) = v.#deref() { #f(op, p, Some(v), o.and_then(|o| o.#deref()), errs) }, errs); }
        }
        Shape::Map => {
            quote! { #v::each_map_val(op, #path, #new, #old, Some(|a, b| a == b), |p, v, o, errs| #f(op, p, Some(v), o, errs), errs); }
        }
        Shape::List {
            pointer_elems: true,
        } => {
            quote! { #v::each_ptr_slice_val(op, #path, #new, #old.map(|o| &o[..]), #mf, #eq, |p, v, o, errs| #f(op, p, Some(v), o, errs), errs); }
        }
        _ => {
            quote! { #v::each_slice_val(op, #path, #new, #old.map(|o| &o[..]), #mf, #eq, |p, v, o, errs| #f(op, p, Some(v), o, errs), errs); }
        }
    }
}

pub(super) fn field_code(ctx: &Ctx<'_>, f: &FieldPlan) -> TokenStream {
    let name = field_ident(&f.go_field);
    let json = &f.json_name;
    // upstream §9.9: at the root, an inline field's segment is its Go (embedded type) name, e.g. `T2.intField`.
    let inline_name = &f.go_name;
    // Inline and `json:"-"` fields get the parent path; at the root upstream names them after the Go type.
    let path = if json.is_empty() {
        quote!(let p = match path { ::vgc_runtime::Path::Root => ::vgc_runtime::Path::Child(path, #inline_name), p => *p };)
    } else {
        quote!(let p = path.child(#json);)
    };
    let (new, old) = match &f.ty {
        RustTy::Option(_, Boxing::Boxed) => (
            quote!(obj.#name.as_deref()),
            quote!(old.and_then(|o| o.#name.as_deref())),
        ),
        RustTy::Option(..) => (
            quote!(obj.#name.as_ref()),
            quote!(old.and_then(|o| o.#name.as_ref())),
        ),
        _ => (quote!(Some(&obj.#name)), quote!(old.map(|o| &o.#name))),
    };
    let elem = ctx.elem_of(&f.ty);

    let checks = checks_block(
        ctx,
        &f.checks,
        Site {
            shape: &f.shape,
            elem: elem.as_ref(),
            typed: named_value(&f.ty),
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
            let new = #new;
            let old_v = #old;
            // Ratchet: on update, an unchanged field with a correlated old value is not revalidated.
            if op.is_update() && old.is_some() && new == old_v { break 'scope; }
            #checks
            #nested
            #iteration
        }
    }
}
