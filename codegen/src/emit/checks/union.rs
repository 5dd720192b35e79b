//! Unions (upstream `union.go`, `zeroorone.go`): unions of fields (emitted by `wrappers.rs`' `union_call`), of list
//! items and of virtual groups (`vgc_runtime::validate`'s `union.rs`, `zeroorone.rs`).

use super::*;

/// The call of a union or zero-or-one-of check: over a struct's fields, a list's items or a virtual group's members.
pub(super) fn call(ctx: &Ctx<'_>, c: &Check, site: Site<'_>, ops: Operands<'_>) -> TokenStream {
    let elem = site.elem;
    let Operands { new, old, path } = ops;
    let v = validators();
    match &c.kind {
        CheckKind::Union(u) => union_call(ctx, u, site, ops),
        CheckKind::ListUnion(u) => {
            // Member "set" = some element matches its selector. A nil or empty old list counts as no old value.
            let elem_owner = elem.and_then(|e| ctx.struct_of(e));
            let exists = |list: &TokenStream, sel: &vgc_lowering::plan::Selector| {
                let m = selector_match(ctx, elem_owner, sel, &quote!(x));
                if u.ptr_elems {
                    quote!(#list.is_some_and(|l| l.iter().flatten().any(|x| #m)))
                } else {
                    quote!(#list.is_some_and(|l| l.iter().any(|x| #m)))
                }
            };
            let new_set: Vec<TokenStream> = u.members.iter().map(|(_, s)| exists(new, s)).collect();
            let old_set: Vec<TokenStream> = u.members.iter().map(|(_, s)| exists(old, s)).collect();
            let names = u.members.iter().map(|(n, _)| n);
            let f = if u.kind == vgc_lowering::plan::UnionKind::Union {
                quote!(union)
            } else {
                quote!(zero_or_one_of)
            };
            // Upstream's "old value exists" is a non-nil old list. A k8s-openapi `Option` keeps nil (`None`) apart from
            // `[]`; vgc's own structs (and a list k8s-openapi requires) cannot, so there an empty old list counts as
            // none (deviation D9).
            let old_exists = if site.nil_kept {
                quote!(#old.is_some())
            } else {
                quote!(#old.is_some_and(|o| !o.is_empty()))
            };
            let call = quote!(#v::#f(#path, op, #old_exists, &[#(#new_set),*], &[#(#old_set),*], &[#(#names),*]));
            if u.union_origin || u.kind != vgc_lowering::plan::UnionKind::Union {
                call
            } else {
                quote!(#v::without_origin(#call))
            }
        }
        CheckKind::VirtualUnion(v) => virtual_union_call(ctx, v, ops),
        other => unreachable!("not a union check: {other:?}"),
    }
}

/// A virtual group (vgc extension) on the struct `ops.new`, its members' closest common ancestor: upstream's
/// `Union` / `ZeroOrOneOfUnion` (`vgc_runtime::validate::union`, `zero_or_one_of`) with each member's "set" read
/// through its path (unset past a nil pointer; an item is set when some element matches its keys).
fn virtual_union_call(
    ctx: &Ctx<'_>,
    v: &vgc_lowering::plan::VirtualUnionPlan,
    ops: Operands<'_>,
) -> TokenStream {
    use vgc_lowering::plan::{MemberSet, UnionKind};
    let Operands { new, old, path } = ops;
    let set = |obj: &TokenStream, m: &vgc_lowering::plan::VirtualMember| {
        let (last, parents) = m.steps.split_last().expect("a member has a step");
        let holder = navigate(parents);
        match &m.set {
            MemberSet::Field(shape) => {
                let is_set = member_set(ctx, Some(&m.holder), &quote!(h), &last.go, shape);
                if parents.is_empty() {
                    quote!(#obj.is_some_and(|h| #is_set))
                } else {
                    quote!(#obj.is_some_and(|o| (#holder).is_some_and(|h| #is_set)))
                }
            }
            MemberSet::Item {
                selector,
                ptr_elems,
                elem,
            } => {
                let list = navigate(&m.steps);
                let matches = selector_match(ctx, Some(elem), selector, &quote!(x));
                let items = if *ptr_elems {
                    quote!(l.iter().flatten())
                } else {
                    quote!(l.iter())
                };
                quote!(#obj.is_some_and(|o| (#list).is_some_and(|l| #items.any(|x| #matches))))
            }
        }
    };
    let new_set: Vec<TokenStream> = v.members.iter().map(|m| set(new, m)).collect();
    let old_set: Vec<TokenStream> = v.members.iter().map(|m| set(old, m)).collect();
    let names = v.members.iter().map(|m| &m.name);
    let f = match v.kind {
        UnionKind::Union => quote!(union),
        UnionKind::ZeroOrOneOf => quote!(zero_or_one_of),
    };
    quote!(::vgc_runtime::validate::#f(#path, op, #old.is_some(), &[#(#new_set),*], &[#(#old_set),*], &[#(#names),*]))
}
