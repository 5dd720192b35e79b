//! Field-path constraints (a vgc extension, `docs/extensions.md`; lowering's `lower/constraints.rs`, the runtime's
//! `vgc_runtime::extensions`).

use super::*;

/// A field-path constraint (vgc extension) on the struct `ops.new`: `vgc_runtime::extensions::field_constraint`
/// with both sides read through their paths (`None` at a nil pointer; the old sides only with an old struct).
pub(super) fn call(fc: &vgc_lowering::plan::ConstraintPlan, ops: Operands<'_>) -> TokenStream {
    use vgc_lowering::plan::FieldPath;
    use vgc_runtime::extensions::ConstraintKind;
    let Operands { new, old, path } = ops;
    let x = quote!(::vgc_runtime::extensions);
    let kind = match fc.kind {
        ConstraintKind::Minimum => quote!(Minimum),
        ConstraintKind::Maximum => quote!(Maximum),
        ConstraintKind::ExclusiveMinimum => quote!(ExclusiveMinimum),
        ConstraintKind::ExclusiveMaximum => quote!(ExclusiveMaximum),
    };
    let member = |p: &FieldPath| navigate(&p.steps);
    // Integers widened to `i128`; quantities and durations compared as the runtime's own types (`&Quantity`,
    // `&Duration`, `vgc_runtime::extensions::Operand`).
    let read = |p: &FieldPath| {
        let m = member(p);
        match p.operand {
            vgc_lowering::plan::Operand::Integer(_) => quote!(#m .map(|x| i128::from(*x))),
            vgc_lowering::plan::Operand::Quantity | vgc_lowering::plan::Operand::Duration => m,
        }
    };
    let side = |p: &FieldPath| {
        let segs = p.json_segments();
        let r = read(p);
        quote!(#x::Side {
            path: &[#(#segs),*],
            value: #new.and_then(|o| #r),
            old: #old.map(|o| #r),
        })
    };
    let bound = side(&fc.bound);
    let Some(each) = &fc.each else {
        let target = side(&fc.target);
        return quote!(#x::field_constraint(#path, op, #x::ConstraintKind::#kind, #target, #bound));
    };
    // Per element (`eachVal`): `n` the new list or map, `ol` the old one (`None` without an old struct); each
    // element with whether its old counterpart, found as `eachVal` finds it, equals it.
    let segs = fc.target.json_segments();
    let m = member(&fc.target);
    let elem_value = match fc.target.operand {
        vgc_lowering::plan::Operand::Integer(_) => quote!(i128::from(*v)),
        vgc_lowering::plan::Operand::Quantity | vgc_lowering::plan::Operand::Duration => quote!(v),
    };
    let deref = if each.pointer_elems {
        quote!(let v = v.as_ref()?;)
    } else {
        quote!()
    };
    let elements = if each.map {
        let old_v = if each.pointer_elems {
            quote!(ol.flatten().and_then(|o| o.get(k)).and_then(|o| o.as_ref()))
        } else {
            quote!(ol.flatten().and_then(|o| o.get(k)))
        };
        quote!(n.into_iter().flatten().filter_map(|(k, v)| {
            #deref
            ::std::option::Option::Some(#x::Element { at: #x::At::Key(k.as_str()), value: #elem_value, unchanged: #old_v == ::std::option::Option::Some(v) })
        }))
    } else {
        let (prep, unchanged) = match each.matcher {
            // `listType=set`: an equal old item.
            Matcher::Set => {
                let old_items = if each.pointer_elems {
                    quote!(o.iter().flatten())
                } else {
                    quote!(o.iter())
                };
                (
                    quote!(),
                    quote!(ol.flatten().is_some_and(|o| #old_items.any(|o| o == v))),
                )
            }
            // Atomic: no item has an identity; all are unchanged when the whole list is (upstream's ratchet of
            // the unchanged field).
            _ => (
                quote!(let same = ol.is_some_and(|o| o.map_or(&[][..], |o| &o[..]) == n.map_or(&[][..], |n| &n[..]));),
                quote!(same),
            ),
        };
        quote!({
            #prep
            n.into_iter().flatten().enumerate().filter_map(move |(i, v)| {
                #deref
                ::std::option::Option::Some(#x::Element { at: #x::At::Index(i), value: #elem_value, unchanged: #unchanged })
            })
        })
    };
    quote!({
        let n = #new.and_then(|o| #m);
        let ol = #old.map(|o| #m);
        #x::each_field_constraint(#path, op, #x::ConstraintKind::#kind, &[#(#segs),*], #elements, #bound)
    })
}
