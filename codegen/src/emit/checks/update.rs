//! Update constraints (upstream `update.go`): `+k8s:update` on values, lists and maps (`vgc_runtime::validate`'s
//! `update.rs`).

use super::*;

/// The call of an `+k8s:update` check, by the value's shape: items of a list found with its matcher, keys of a map,
/// else the set-ness and equality of the value.
pub(super) fn call(
    ctx: &Ctx<'_>,
    cs: &[vgc_runtime::validate::UpdateConstraint],
    matcher: &Matcher,
    site: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let (shape, elem) = (site.shape, site.elem);
    let Operands { new, old, path } = ops;
    let v = validators();
    let cs: Vec<TokenStream> = cs
        .iter()
        .map(|c| {
            let c = format_ident!("{}", c.name());
            quote!(#v::UpdateConstraint::#c)
        })
        .collect();
    match shape {
        Shape::List { pointer_elems: ptr } => {
            // Lowering guarantees a matcher when NoAddItem/NoRemoveItem are present.
            let MatcherFns {
                matches: m,
                hash: h,
                ..
            } = matcher_fns(ctx, matcher, elem);
            let f = if *ptr {
                quote!(ptr_slice_update)
            } else {
                quote!(slice_update)
            };
            if ctx.openapi.is_some() {
                // A nil list (`None`) is an empty one to upstream's `UpdateSlice`.
                quote!(#v::#f(#path, op, #new.map_or(&[][..], |n| &n[..]), #old.map_or(&[][..], |o| &o[..]), (#m).unwrap_or(|_, _| false), #h, &[#(#cs),*]))
            } else {
                quote!(match #new { Some(n) => #v::#f(#path, op, n, #old.map_or(&[][..], |o| &o[..]), (#m).unwrap_or(|_, _| false), #h, &[#(#cs),*]), None => ::vgc_runtime::ErrorList::new() })
            }
        }
        Shape::Map if ctx.openapi.is_some() => {
            quote!(#v::map_update(#path, op, #new.unwrap_or(&::std::collections::BTreeMap::new()), #old.unwrap_or(&::std::collections::BTreeMap::new()), &[#(#cs),*]))
        }
        Shape::Map => {
            quote!(match #new { Some(n) => #v::map_update(#path, op, n, #old.unwrap_or(&::std::collections::BTreeMap::new()), &[#(#cs),*]), None => ::vgc_runtime::ErrorList::new() })
        }
        _ => {
            let set = set_expr(ctx, shape, new);
            let old_set = set_expr(ctx, shape, old);
            let changed = ctx.ne_opt(new, old);
            let ptr = matches!(
                shape,
                Shape::Scalar { pointer: true, .. }
                    | Shape::Struct { pointer: true }
                    | Shape::Other { pointer: true }
            );
            quote!(#v::update_scalar(#path, op, #old.is_some(), #ptr, #old_set, #set, #changed, &[#(#cs),*]))
        }
    }
}
