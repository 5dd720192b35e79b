//! Wrapper emission: upstream's wrapping validators (`Subfield`, `SliceItem`, `IfOption`, `Discriminated`, unions),
//! each evaluated to `(errors, failed)` so the wrapper can carry its inner check's flags.

use super::*;

/// What the wrappers that reach into a struct (`Subfield`, `Discriminated`) start from: the member's JSON name
/// (the path segment), its Rust type's tokens, its reads out of the struct `s` and the old struct `os` (the
/// declarations, then `Option<&T>` expressions), and the [`Site`] of its value.
struct MemberPrelude<'a> {
    json: &'a str,
    t: TokenStream,
    read: Read,
    site: Site<'a>,
}

/// The [`MemberPrelude`] of member `m` of the struct value of `outer` (`slot` names the temporaries).
fn member_prelude<'a>(
    ctx: &'a Ctx<'_>,
    outer: Site<'_>,
    m: &'a vgc_lowering::plan::MemberRef,
    slot: &str,
) -> MemberPrelude<'a> {
    MemberPrelude {
        json: &m.json,
        t: ctx.ty(&m.ty),
        read: read_member(
            ctx,
            outer.owner,
            &m.go,
            m.pointer,
            &m.ty,
            &quote!(s),
            &quote!(os),
            slot,
        ),
        site: Site {
            shape: &m.shape,
            elem: m.elem.as_ref(),
            typed: false,
            owner: ctx.struct_of(&m.ty),
            nil_kept: false,
        },
    }
}

/// Tokens evaluating to `(ErrorList, bool)`: the errors of the wrapped check and whether it failed (for a
/// NonError inner check the errors are dropped but the failure still counts, as upstream's `len(e) != 0`).
pub(super) fn subfield_call(
    ctx: &Ctx<'_>,
    sub: &vgc_lowering::plan::Subfield,
    outer: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    let MemberPrelude {
        json,
        t,
        read: Read {
            decls,
            new: mv,
            old: mo,
        },
        site,
    } = member_prelude(ctx, outer, &sub.member, "sub");
    let ic = &sub.inner;
    let ops = Operands {
        new: &quote!(new),
        old: &quote!(old_v),
        path: &quote!(&p),
    };
    let inner = if ic.kind == CheckKind::Optional {
        let set = set_expr(ctx, &sub.member.shape, &quote!(new));
        quote! { failed = !(#set); }
    } else if matches!(ic.kind, CheckKind::Subfield(_)) {
        // A chain (`subfield(a)=subfield(b)=…`, 1.38): the inner wrapper's failure is the outer's, so a
        // short-circuit at the end of the chain stops the chain's cohort.
        let pair = eval_pair(ctx, ic, site, ops);
        if ic.non_error || sub.inherited {
            quote! { failed = (#pair).1; }
        } else {
            quote! { (e, failed) = #pair; }
        }
    } else {
        let call = check_call(ctx, ic, site, ops);
        if ic.non_error || sub.inherited {
            quote! { failed = !(#call).is_empty(); }
        } else {
            quote! { e = #call; failed = !e.is_empty(); }
        }
    };
    // upstream `subfield.go`: `DirectEqual` on a comparable member, else the package's deep-equality function.
    let unchanged = ctx.deep_eq_opt(&sub.member.ty, &quote!(new), &quote!(old_v));
    quote!({
        let mut e = ::vgc_runtime::ErrorList::new();
        let mut failed = false;
        if let Some(s) = #new {
            let os = #old;
            #decls
            let new: ::std::option::Option<&#t> = #mv;
            let old_v: ::std::option::Option<&#t> = #mo;
            if !(op.is_update() && os.is_some() && #unchanged) {
                let p = (#path).child(#json);
                #inner
            }
        }
        (e, failed)
    })
}

/// Tokens evaluating to `(ErrorList, bool)`: a check's errors and whether it failed. For a NonError check
/// (e.g. `optional`) the errors are empty but the failure still counts, as upstream's `len(e) != 0` on the
/// unappended result.
pub(super) fn eval_pair(
    ctx: &Ctx<'_>,
    c: &Check,
    site: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    match &c.kind {
        CheckKind::Optional => {
            let set = set_expr(ctx, site.shape, new);
            quote!((::vgc_runtime::ErrorList::new(), !(#set)))
        }
        CheckKind::Subfield(sub) => subfield_call(ctx, sub, site, ops),
        CheckKind::Item(it) => {
            // upstream `ValSliceItem`/`PtrSliceItem`: the first matching new element and the first matching old one;
            // skipped on update when the old one exists and is equal; the inner check runs at `path[i]`.
            let t = ctx.ty(&it.elem);
            let elem_owner = ctx.struct_of(&it.elem);
            let m = selector_match(ctx, elem_owner, &it.selector, &quote!(x));
            // upstream `item.go`: the items' equivalence is the deep-equality function unless comparable.
            let same = ctx.deep_eq_ref(&it.elem, &quote!(o), &quote!(item));
            let inner = eval_pair(
                ctx,
                &it.inner,
                Site {
                    owner: elem_owner,
                    ..Site::plain(&it.elem_shape)
                },
                Operands {
                    new: &quote!(new),
                    old: &quote!(old_v),
                    path: &quote!(&p),
                },
            );
            let iter = if it.ptr_elems {
                quote!(.iter().flatten())
            } else {
                quote!(.iter())
            };
            let find_new = if it.ptr_elems {
                quote!(list.iter().enumerate().find_map(|(i, x)| x.as_ref().filter(|x| #m).map(|x| (i, x))))
            } else {
                quote!(list.iter().enumerate().find(|(_, x)| #m))
            };
            quote!({
                let mut res = (::vgc_runtime::ErrorList::new(), false);
                if let Some(list) = #new {
                    if let Some((i, item)) = #find_new {
                        let old_item: ::std::option::Option<&#t> = #old.and_then(|o| o #iter .find(|x| #m));
                        if !(op.is_update() && old_item.is_some_and(|o| #same)) {
                            let p = (#path).index(i);
                            let run = |new: ::std::option::Option<&#t>, old_v: ::std::option::Option<&#t>| #inner;
                            res = run(Some(item), old_item);
                        }
                    }
                }
                res
            })
        }
        CheckKind::IfOption(io) => {
            let option = &io.option;
            let enabled = io.enabled;
            let inner = eval_pair(ctx, &io.inner, site, ops);
            if !io.undefined_is_error {
                // upstream ≤ 1.36 `IfOption`: `op.HasOption(name) == enabled`, an unnamed option disabled.
                return quote!({
                    if op.option_enabled(#option) == #enabled {
                        #inner
                    } else {
                        (::vgc_runtime::ErrorList::new(), false)
                    }
                });
            }
            quote!({
                let (on, defined) = op.has_option(#option);
                if !defined {
                    (::std::vec![::vgc_runtime::validate::undefined_option(#path, #option)], true)
                } else if on == #enabled {
                    #inner
                } else {
                    (::vgc_runtime::ErrorList::new(), false)
                }
            })
        }
        CheckKind::IfSubresource(is) => {
            // vgc extension (KEP-5073 "Subresources"): run the inner check when the request's subresource path
            // is (`ifSubresource`) or is not (`ifNotSubresource`) the tag's.
            let sub = &is.path;
            let inner = eval_pair(ctx, &is.inner, site, ops);
            let cond = if is.negated {
                quote!(!op.subresource_is(#sub))
            } else {
                quote!(op.subresource_is(#sub))
            };
            quote!({
                if #cond {
                    #inner
                } else {
                    (::vgc_runtime::ErrorList::new(), false)
                }
            })
        }
        _ => {
            let call = check_call(ctx, c, site, ops);
            quote!({ let e: ::vgc_runtime::ErrorList = #call; let failed = !e.is_empty(); (e, failed) })
        }
    }
}

/// `x.k1 == v1 && …` for an item selector over element reference `x` of struct type `owner` (pointer keys compare
/// the pointee).
pub(super) fn selector_match(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    sel: &vgc_lowering::plan::Selector,
    x: &TokenStream,
) -> TokenStream {
    use vgc_lowering::plan::NeqValue;
    let parts = sel.iter().map(|(f, ptr, v)| {
        let lit = match v {
            NeqValue::Str(s) => quote!(#s),
            NeqValue::Int(i) => {
                let l = proc_macro2::Literal::i64_unsuffixed(*i);
                quote!(#l)
            }
            NeqValue::Bool(b) => quote!(#b),
        };
        selector_term(ctx, owner, x, f, *ptr, &lit, matches!(v, NeqValue::Str(_)))
    });
    quote!(true #(&& #parts)*)
}

/// Stability marks only (calls inside wrappers are not marked short-circuit, spec §2.1.3).
pub(super) fn stab_marks(st: Option<Stability>) -> TokenStream {
    match st {
        Some(Stability::Alpha) => quote!(.mark_alpha()),
        Some(Stability::Beta) => quote!(.mark_beta()),
        _ => TokenStream::new(),
    }
}

/// Upstream `MultiWrapperFunction`: the checks run in order (no short-circuit-first reordering); after the last
/// short-circuit check, a failure of any short-circuit check ends the wrapper. Emitted inside a closure over
/// `new`, `old_v`, `p` and `errs`.
pub(super) fn multi_code(ctx: &Ctx<'_>, checks: &[Check], site: Site<'_>) -> TokenStream {
    let last_sc = checks.iter().rposition(|c| c.short_circuit);
    let mut code = Vec::new();
    if last_sc.is_some() {
        code.push(quote!(let mut early = false;));
    }
    for (i, c) in checks.iter().enumerate() {
        let pair = eval_pair(
            ctx,
            c,
            site,
            Operands {
                new: &quote!(new),
                old: &quote!(old_v),
                path: &quote!(&p),
            },
        );
        let st = stab_marks(c.stability);
        code.push(if c.short_circuit && c.non_error {
            quote! { { let (_, failed) = #pair; if failed { early = true; } } }
        } else if c.short_circuit {
            quote! { { let (e, failed) = #pair; if failed { errs.extend(e #st); early = true; } } }
        } else {
            quote! { { let (e, _) = #pair; errs.extend(e #st); } }
        });
        if Some(i) == last_sc {
            code.push(quote!(if early {
                return;
            }));
        }
    }
    quote!(#(#code)*)
}

/// Upstream `validate.Discriminated` for one member field.
pub(super) fn discriminated_call(
    ctx: &Ctx<'_>,
    m: &vgc_lowering::plan::ModePlan,
    outer: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    let MemberPrelude {
        json,
        t,
        read: Read {
            decls,
            new: mv,
            old: mo,
        },
        site,
    } = member_prelude(ctx, outer, &m.member, "mode");
    let d = &m.discriminator.field;
    let is_bool = m.discriminator.kind == vgc_lowering::plan::DiscriminatorKind::Bool;
    let disc = |o: TokenStream| {
        if is_bool {
            member_bool(ctx, outer.owner, &o, d)
        } else {
            member_str(ctx, outer.owner, &o, d)
        }
    };
    // upstream `mode.go`: the member's equivalence is the deep-equality function unless comparable.
    let unchanged = ctx.deep_eq_opt(&m.member.ty, &quote!(new), &quote!(old_v));
    let (dn, dold) = (disc(quote!(s)), disc(quote!(o)));
    let mut arms = Vec::new();
    for (value, checks) in &m.rules {
        let body = multi_code(ctx, checks, site);
        let pat = if is_bool {
            let b = value == "true";
            quote!(#b)
        } else {
            quote!(#value)
        };
        arms.push(quote!(#pat => { #body }));
    }
    let covers_all = is_bool && m.rules.len() == 2;
    if !covers_all {
        let set = set_expr(ctx, &m.member.shape, &quote!(new));
        let st = stab_marks(m.default_stability);
        arms.push(quote!(_ => { errs.extend(::vgc_runtime::validate::forbidden(&p, #set) #st); }));
    }
    quote!({
        let mut e = ::vgc_runtime::ErrorList::new();
        if let Some(s) = #new {
            let os = #old;
            #decls
            let new: ::std::option::Option<&#t> = #mv;
            let old_v: ::std::option::Option<&#t> = #mo;
            let disc = #dn;
            if !(op.is_update() && os.map(|o| #dold) == Some(disc) && #unchanged) {
                let p = (#path).child(#json);
                let run = |new: ::std::option::Option<&#t>, old_v: ::std::option::Option<&#t>, errs: &mut ::vgc_runtime::ErrorList| {
                    match disc { #(#arms)* }
                };
                run(new, old_v, &mut e);
            }
        }
        e
    })
}

/// A union group on the struct value `new` (nilable; upstream's extractors return false for a nil object).
pub(super) fn union_call(
    ctx: &Ctx<'_>,
    u: &vgc_lowering::plan::UnionPlan,
    site: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, .. } = ops;
    use vgc_lowering::plan::UnionKind;
    let set = |obj: &TokenStream, m: &vgc_lowering::plan::UnionMemberPlan| {
        let member_set = member_set(ctx, site.owner, &quote!(o), &m.member.go, &m.member.shape);
        quote!(#obj.is_some_and(|o| #member_set))
    };
    let new_set: Vec<TokenStream> = u.members.iter().map(|m| set(new, m)).collect();
    let old_set: Vec<TokenStream> = u.members.iter().map(|m| set(old, m)).collect();
    let v = quote!(::vgc_runtime::validate);
    let call = union_call_inner(ctx, site.owner, u, &new_set, &old_set, ops);
    // Before 1.36 `Union`/`DiscriminatedUnion` errors carry no origin (`zeroOrOneOf` had its own already).
    if u.union_origin || u.kind != UnionKind::Union {
        call
    } else {
        quote!(#v::without_origin(#call))
    }
}

pub(super) fn union_call_inner(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    u: &vgc_lowering::plan::UnionPlan,
    new_set: &[TokenStream],
    old_set: &[TokenStream],
    ops: Operands<'_>,
) -> TokenStream {
    let Operands { new, old, path } = ops;
    use vgc_lowering::plan::UnionKind;
    let v = quote!(::vgc_runtime::validate);
    match (&u.discriminator, u.kind) {
        (Some(disc), UnionKind::Union) => {
            let disc_json = &disc.json;
            let (dn, dold) = (
                member_str(ctx, owner, &quote!(o), &disc.go),
                member_str(ctx, owner, &quote!(o), &disc.go),
            );
            let members = u.members.iter().map(|m| {
                let (j, n) = (&m.member.json, &m.member_name);
                quote!((#j, #n))
            });
            quote!(#v::discriminated_union(#path, op, #old.is_some(), #disc_json,
                #new.map_or("", |o| #dn), #old.map_or("", |o| #dold),
                &[#(#new_set),*], &[#(#old_set),*], &[#(#members),*]))
        }
        (_, kind) => {
            let names = u.members.iter().map(|m| &m.member.json);
            let f = if kind == UnionKind::Union {
                quote!(union)
            } else {
                quote!(zero_or_one_of)
            };
            quote!(#v::#f(#path, op, #old.is_some(), &[#(#new_set),*], &[#(#old_set),*], &[#(#names),*]))
        }
    }
}
