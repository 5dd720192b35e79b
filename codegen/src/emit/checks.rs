//! Check emission: the checks of one declaration grouped by cohort with upstream's short-circuit rules
//! (spec §2.1.3), and one call per leaf check.

use super::*;

/// Tokens for "is this nilable value set" given the shape.
pub(super) fn set_expr(ctx: &Ctx<'_>, shape: &Shape, v: &TokenStream) -> TokenStream {
    match shape {
        // k8s-openapi's well-known types: set unless Go's zero value (`IsZero`; the zero time has no `Default`).
        Shape::Other { pointer: false } if ctx.openapi.is_some() => {
            quote!(#v.is_some_and(|v| !crate::semantic::GoEq::go_zero(v)))
        }
        Shape::Scalar { pointer: true, .. }
        | Shape::Struct { .. }
        | Shape::Other { pointer: true } => quote!(#v.is_some()),
        Shape::Scalar { pointer: false, .. } => {
            quote!(#v.is_some_and(|v| ::vgc_runtime::validate::IsSet::is_set(v)))
        }
        Shape::List { .. } | Shape::Map => quote!(#v.is_some_and(|v| !v.is_empty())),
        Shape::Other { pointer: false } => {
            quote!(#v.is_some_and(|v| *v != ::std::default::Default::default()))
        }
    }
}

/// Where checks run: the checked value's shape, the element type of a list or map value, and whether the value is
/// of a named Go type (for [`CheckKind::reports_typed_value`]).
#[derive(Clone, Copy)]
pub(super) struct Site<'a> {
    pub(super) shape: &'a Shape,
    pub(super) elem: Option<&'a RustTy>,
    pub(super) typed: bool,
    /// The struct type of the checked value, when it is one (struct-level checks read its members).
    pub(super) owner: Option<&'a TypeKey>,
    /// The checked list or map keeps nil (`None`) apart from empty: a k8s-openapi field wrapped in `Option`. Not on
    /// vgc's own structs (deviations D9, D11), nor for a list k8s-openapi requires (it reads an absent one as empty).
    pub(super) nil_kept: bool,
}

impl<'a> Site<'a> {
    /// A site of `shape` without element type, of an unnamed Go type.
    pub(super) fn plain(shape: &'a Shape) -> Self {
        Site {
            shape,
            elem: None,
            typed: false,
            owner: None,
            nil_kept: false,
        }
    }
}

/// The generated expressions checks read: the new and the old value (each an `Option<&T>`) and the field path
/// (a `&Path`).
#[derive(Clone, Copy)]
pub(super) struct Operands<'a> {
    pub(super) new: &'a TokenStream,
    pub(super) old: &'a TokenStream,
    pub(super) path: &'a TokenStream,
}

/// How a failed short-circuit leaves the declaration's checks: `return` from a type's function, or `break` out of
/// a field's (or an element's) labelled block.
#[derive(Clone, Copy)]
pub(super) enum Exit {
    Return,
    Break,
}

impl Exit {
    pub(super) fn tokens(self) -> TokenStream {
        match self {
            Exit::Return => quote!(return),
            Exit::Break => quote!(break 'scope),
        }
    }
}

pub(super) fn marks(c: &Check) -> TokenStream {
    let sc = if c.short_circuit {
        quote!(.mark_short_circuit())
    } else {
        TokenStream::new()
    };
    let st = match c.stability {
        Some(Stability::Alpha) => quote!(.mark_alpha()),
        Some(Stability::Beta) => quote!(.mark_beta()),
        _ => TokenStream::new(),
    };
    quote!(#sc #st)
}

pub(super) fn matcher_fns(
    ctx: &Ctx<'_>,
    m: &Matcher,
    elem: Option<&RustTy>,
) -> (TokenStream, TokenStream) {
    let elem_ty = elem.map_or(quote!(_), |e| match e {
        RustTy::Option(i, _) => ctx.ty(i),
        e => ctx.ty(e),
    });
    let fn_ty = quote!(fn(&#elem_ty, &#elem_ty) -> bool);
    match m {
        Matcher::None => (quote!(None), quote!(None)),
        // upstream `list.go`/`each.go`: a set's items match by `DirectEqual` when comparable, else the package's
        // deep-equality function.
        Matcher::Set => {
            let eq = deep_eq_elem(ctx, elem, &quote!(a), &quote!(b));
            (
                quote!(Some((|a: &#elem_ty, b: &#elem_ty| #eq) as #fn_ty)),
                quote!(None),
            )
        }
        Matcher::Keys(keys) => {
            let owner = elem.and_then(|e| ctx.struct_of(e));
            let ks = keys
                .iter()
                .map(|k| key_eq(ctx, owner, &quote!(a), &quote!(b), k));
            let eq = deep_eq_elem(ctx, elem, &quote!(a), &quote!(b));
            (
                quote!(Some((|a: &#elem_ty, b: &#elem_ty| true #(&& #ks)*) as #fn_ty)),
                quote!(Some((|a: &#elem_ty, b: &#elem_ty| #eq) as #fn_ty)),
            )
        }
    }
}

/// Emits the checks of one declaration: the default cohort first (its short-circuit failure ends the whole
/// scope via `exit`), then each named cohort in order of first definition, each in its own block so that an
/// early exit stops only that cohort (upstream §2.1.3).
pub(super) fn checks_block(
    ctx: &Ctx<'_>,
    checks: &[Check],
    site: Site<'_>,
    ops: Operands<'_>,
    exit: Exit,
) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    let exit = exit.tokens();
    let default: Vec<&Check> = checks.iter().filter(|c| c.cohort.is_none()).collect();
    let mut named: Vec<(&str, Vec<&Check>)> = Vec::new();
    for c in checks {
        if let Some(name) = &c.cohort {
            match named.iter_mut().find(|(n, _)| *n == name.as_str()) {
                Some((_, v)) => v.push(c),
                None => named.push((name.as_str(), vec![c])),
            }
        }
    }
    let first = cohort_code(ctx, &default, site, ops, &exit);
    let rest = named.iter().map(|(_, cs)| {
        let body = cohort_code(ctx, cs, site, ops, &quote!(break 'cohort));
        quote!('cohort: { #body })
    });
    quote! { #first #(#rest)* }
}

pub(super) fn cohort_code(
    ctx: &Ctx<'_>,
    checks: &[&Check],
    site: Site<'_>,
    ops: Operands<'_>,
    exit: &TokenStream,
) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    let mut sc_part = Vec::new();
    let mut rest = Vec::new();
    for c in checks {
        let call = check_call(ctx, c, site, ops);
        // upstream `ErrorBody` quotes a value of Go type `string` (`%q`) but renders a value of a named string type
        // (an enum, a typedef) as JSON: the checked value is such a value here.
        let call = if site.typed && c.kind.reports_typed_value() {
            quote!(::vgc_runtime::field::typed_values(#call))
        } else {
            call
        };
        let m = marks(c);
        let code = if matches!(
            c.kind,
            CheckKind::Subfield(_)
                | CheckKind::IfOption(_)
                | CheckKind::IfSubresource(_)
                | CheckKind::Item(_)
        ) {
            // Wrappers (upstream `validate.Subfield`, `validate.IfOption`) carry their inner function's flags; a
            // NonError wrapper (inherited checks, `…=+k8s:optional`) only stops the cohort, swallowing its errors.
            let call = eval_pair(ctx, c, site, ops);
            if c.short_circuit && c.non_error {
                quote! { { let (_, failed) = #call; if failed { sc = true; } } }
            } else if c.short_circuit {
                quote! { { let (e, failed) = #call; if failed { sc = true; errs.extend(e #m); } } }
            } else if c.non_error {
                quote! { let _ = #call; }
            } else {
                quote! { { let (e, _) = #call; errs.extend(e #m); } }
            }
        } else if c.kind == CheckKind::Optional && c.non_error {
            let set = set_expr(ctx, site.shape, ops.new);
            quote!(if !(#set) { sc = true; })
        } else if c.short_circuit && c.non_error {
            // An inherited NonError short-circuit: its errors are not reported, it only stops the cohort.
            quote! { { let e: ::vgc_runtime::ErrorList = #call; if !e.is_empty() { sc = true; } } }
        } else if c.short_circuit {
            quote! { { let e: ::vgc_runtime::ErrorList = #call; if !e.is_empty() { sc = true; errs.extend(e #m); } } }
        } else if c.non_error {
            // A NonError check that is not a short-circuit has no observable effect (upstream drops its errors).
            quote! { let _ = #call; }
        } else {
            quote! { errs.extend(#call #m); }
        };
        if c.short_circuit {
            sc_part.push(code)
        } else {
            rest.push(code)
        }
    }
    let gate = if sc_part.is_empty() {
        TokenStream::new()
    } else {
        quote!(if sc { #exit; })
    };
    quote! {
        let mut sc = false;
        #(#sc_part)*
        #gate
        #(#rest)*
    }
}

/// The generated expression naming `f`: `::vgc_runtime::formats::Format::<Variant>` (the variant's `Debug` name
/// is its identifier).
pub(super) fn format_expr(f: Format) -> TokenStream {
    let variant = format_ident!("{}", format!("{f:?}"));
    quote!(::vgc_runtime::formats::Format::#variant)
}

pub(super) fn check_call(
    ctx: &Ctx<'_>,
    c: &Check,
    site: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    let (shape, elem) = (site.shape, site.elem);
    let Operands { new, old, path } = ops;
    let v = quote!(::vgc_runtime::validate);
    let set = set_expr(ctx, shape, new);
    let s = quote!(#new.map(|v| v.as_str()));
    let len = quote!(#new.map_or(0, |v| v.len()));
    match &c.kind {
        CheckKind::Required { detail: None } => quote!(#v::required(#path, #set)),
        CheckKind::Required { detail: Some(d) } => quote!(#v::required_with(#path, #set, #d)),
        CheckKind::Optional => quote!(::vgc_runtime::ErrorList::new()),
        CheckKind::Forbidden { detail: None } => quote!(#v::forbidden(#path, #set)),
        CheckKind::Forbidden { detail: Some(d) } => quote!(#v::forbidden_with(#path, #set, #d)),
        CheckKind::Minimum(n) => quote!(#v::minimum(#path, #new, #n)),
        CheckKind::Maximum(n) => quote!(#v::maximum(#path, #new, #n)),
        CheckKind::MinimumDuration(n) => quote!(#v::minimum_duration(#path, #new, #n)),
        CheckKind::MaximumDuration(n) => quote!(#v::maximum_duration(#path, #new, #n)),
        CheckKind::MinimumQuantity(q) => quote!(#v::minimum_quantity(
            #path,
            #new,
            &::vgc_runtime::types::Quantity(::std::string::String::from(#q))
        )),
        CheckKind::MaximumQuantity(q) => quote!(#v::maximum_quantity(
            #path,
            #new,
            &::vgc_runtime::types::Quantity(::std::string::String::from(#q))
        )),
        CheckKind::MinLength(n) => quote!(#v::min_length(#path, #s, #n)),
        CheckKind::MaxLength(n) => quote!(#v::max_length(#path, #s, #n)),
        CheckKind::MaxLengthBytes(n) => quote!(#v::max_length_bytes(#path, #s, #n)),
        CheckKind::MaxBytes(n) => quote!(#v::max_bytes(#path, #s, #n)),
        CheckKind::MaxBytesSlice(n) => quote!(#v::max_bytes_slice(#path, #len, #n)),
        CheckKind::MinItems(n) => quote!(#v::min_items(#path, #len, #n)),
        CheckKind::MaxItems(n) => quote!(#v::max_items(#path, #len, #n)),
        CheckKind::MinProperties(n) => quote!(#v::min_properties(#path, #len, #n)),
        CheckKind::MaxProperties(n) => quote!(#v::max_properties(#path, #len, #n)),
        CheckKind::Format(f) => {
            let f = format_expr(*f);
            quote!(#v::format(#path, #s, #f))
        }
        // upstream `validate.Matches(…, formatPattern_<name>, message, "format=<name>")` (kubernetes#142116): the
        // pattern is compiled once per process, on first use, by a `static` local to the call site; the loader
        // proved it compiles (`vgc::extensions`), so the `expect` cannot fire.
        CheckKind::Matches(p) => {
            let (pattern, message) = (&p.pattern, &p.message);
            let origin = format!("format={}", p.name);
            quote!({
                static PATTERN: ::std::sync::LazyLock<::vgc_runtime::regex::Regex> =
                    ::std::sync::LazyLock::new(|| {
                        ::vgc_runtime::regex::compile_go(#pattern)
                            .expect("the pattern was checked by vgc")
                    });
                #v::matches(#path, #s, &PATTERN, #message, #origin)
            })
        }
        CheckKind::Enum(e) if e.exclusions.is_empty() => {
            let vals = &e.values;
            quote!(#v::enum_value(#path, #s, &[#(#vals),*]))
        }
        CheckKind::Enum(e) => {
            let vals = &e.values;
            // (value, excluded while the option is on?, option)
            let rules = e.exclusions.iter().map(|x| {
                let (val, opt) = (&x.value, &x.option);
                let when = x.when == OptionState::Enabled;
                quote!((#val, #when, #opt))
            });
            // Before 1.37 an option the request does not name is disabled (apimachinery v0.36 `Enum`).
            let f = if e.undefined_option_is_error {
                quote!(enum_value_with_exclusions)
            } else {
                quote!(enum_value_with_listed_options)
            };
            quote!(#v::#f(#path, op, #s, &[#(#vals),*], &[#(#rules),*]))
        }
        CheckKind::Immutable => quote!(#v::immutable(#path, op)),
        CheckKind::Update(cs, matcher) => {
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
                    let (m, _) = matcher_fns(ctx, matcher, elem);
                    let f = if *ptr {
                        quote!(ptr_slice_update)
                    } else {
                        quote!(slice_update)
                    };
                    if ctx.openapi.is_some() {
                        // A nil list (`None`) is an empty one to upstream's `UpdateSlice`.
                        quote!(#v::#f(#path, op, #new.map_or(&[][..], |n| &n[..]), #old.map_or(&[][..], |o| &o[..]), (#m).unwrap_or(|_, _| false), &[#(#cs),*]))
                    } else {
                        quote!(match #new { Some(n) => #v::#f(#path, op, n, #old.map_or(&[][..], |o| &o[..]), (#m).unwrap_or(|_, _| false), &[#(#cs),*]), None => ::vgc_runtime::ErrorList::new() })
                    }
                }
                Shape::Map if ctx.openapi.is_some() => {
                    quote!(#v::map_update(#path, op, #new.unwrap_or(&::std::collections::BTreeMap::new()), #old.unwrap_or(&::std::collections::BTreeMap::new()), &[#(#cs),*]))
                }
                Shape::Map => {
                    quote!(match #new { Some(n) => #v::map_update(#path, op, n, #old.unwrap_or(&::std::collections::BTreeMap::new()), &[#(#cs),*]), None => ::vgc_runtime::ErrorList::new() })
                }
                _ => {
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
        CheckKind::Unique(m) => {
            let (mf, _) = matcher_fns(ctx, m, elem);
            let ptr = matches!(
                shape,
                Shape::List {
                    pointer_elems: true
                }
            );
            if ptr {
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::ptr_slice_unique(#path, n, (#mf).unwrap_or(|_, _| false))))
            } else if ctx.openapi.is_some() {
                // A duplicate is shown as upstream's `json.Marshal` of the Go value, not k8s-openapi's `Serialize`.
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::slice_unique_by(#path, n, (#mf).unwrap_or(|_, _| false), |x| #v::bad_value(&crate::semantic::GoJson::go_json(x)))))
            } else {
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::slice_unique(#path, n, (#mf).unwrap_or(|_, _| false))))
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
            let (mf, eq) = matcher_fns(ctx, m, elem);
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
                    if let Some(n) = #new { #v::each_ptr_slice_val(op, #path, n, #old.map(|o| &o[..]), #mf, #eq, |p, v, o, errs| { 'scope: { #body } }, &mut e); }
                    e
                }),
                _ => quote!({
                    let mut e = ::vgc_runtime::ErrorList::new();
                    if let Some(n) = #new { #v::each_slice_val(op, #path, n, #old.map(|o| &o[..]), #mf, #eq, |p, v, o, errs| { 'scope: { #body } }, &mut e); }
                    e
                }),
            }
        }
        CheckKind::Subfield(sub) => {
            let call = subfield_call(ctx, sub, site, ops);
            quote!((#call).0)
        }
        CheckKind::Union(u) => union_call(ctx, u, site, ops),
        CheckKind::Dependent(d) => {
            let forbidden = d.forbidden;
            let (tr, tj, ts) = (&d.trigger.go, &d.trigger.json, &d.trigger.shape);
            let (dr, dj, ds) = (&d.dependent.go, &d.dependent.json, &d.dependent.shape);
            let (tset, dset) = (
                member_set(ctx, site.owner, &quote!(o), tr, ts),
                member_set(ctx, site.owner, &quote!(o), dr, ds),
            );
            quote!(#v::dependent(#path, op, #forbidden,
                #tj, (#new.is_some_and(|o| #tset), #old.map(|o| #tset)),
                #dj, (#new.is_some_and(|o| #dset), #old.map(|o| #dset))))
        }
        CheckKind::FieldConstraint(fc) => constraint_call(fc, ops),
        CheckKind::VirtualUnion(v) => virtual_union_call(ctx, v, ops),
        CheckKind::Monotonic => quote!(#v::monotonic(#path, op, #new, #old)),
        CheckKind::NoNils if matches!(shape, Shape::Map) => {
            quote!(match #new { Some(n) => #v::ptr_map_no_nils(#path, n), None => ::vgc_runtime::ErrorList::new() })
        }
        CheckKind::NoNils => {
            quote!(match #new { Some(n) => #v::ptr_slice_no_nils(#path, n), None => ::vgc_runtime::ErrorList::new() })
        }
        CheckKind::FixedResult { result, msg } => {
            if *result {
                quote!(::vgc_runtime::ErrorList::new())
            } else {
                let detail = format!("forced failure: {msg}");
                // upstream passes the value by pointer (lists and maps as they are): `json.Marshal`-rendered.
                let bad = match shape {
                    // A k8s-openapi `Option` keeps a nil list (`None`, `null`) apart from an empty one (`[]`), as Go does.
                    Shape::List { .. } | Shape::Map if site.nil_kept => {
                        quote!(#v::bad_value_json(&#new))
                    }
                    Shape::List { .. } | Shape::Map => quote!(#v::bad_value_collection(#new)),
                    _ => quote!(#v::bad_value_json(&#new)),
                };
                quote!(
                    ::std::vec![::vgc_runtime::Error::invalid(#path, #bad, #detail).with_origin("validateFalse")]
                )
            }
        }
        CheckKind::Custom { owner, field, .. } => {
            // k8s.io/api's and apimachinery's own functions are ported in the runtime (`vgc_runtime::k8s`).
            if let Some(port) = vgc_runtime::k8s::port(&owner.pkg, &owner.name, field.as_deref()) {
                let f = ident(port.rust_fn);
                // The ports read a `metav1.Time` through `vgc_runtime::k8s::GoTime`; k8s-openapi's is wrapped.
                if ctx.openapi.is_some()
                    && matches!(
                        c.kind,
                        CheckKind::Custom {
                            ty: RustTy::WellKnown(WellKnown::Time),
                            ..
                        }
                    )
                {
                    return quote!({
                        let n = #new.map(crate::semantic::OpenapiTime);
                        let o = #old.map(crate::semantic::OpenapiTime);
                        ::vgc_runtime::k8s::#f(op, #path, n.as_ref(), o.as_ref())
                    });
                }
                return quote!(::vgc_runtime::k8s::#f(op, #path, #new, #old));
            }
            let m = ident(&crate::ident::custom_method(owner, field.as_deref()));
            let module = ctx.module_of(&owner.pkg);
            quote!(<crate::custom::Custom as #module ::Custom>::#m(op, #path, #new, #old))
        }
        CheckKind::Item(_) => {
            let pair = eval_pair(ctx, c, site, ops);
            quote!((#pair).0)
        }
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
        CheckKind::Discriminated(m) => discriminated_call(ctx, m, site, ops),
        CheckKind::Neq(n) | CheckKind::Eq(n) => {
            let (f_str, f) = if matches!(c.kind, CheckKind::Eq(_)) {
                (quote!(eq_str), quote!(eq))
            } else {
                (quote!(neq_str), quote!(neq))
            };
            match n {
                vgc_lowering::plan::NeqValue::Str(x) => quote!(#v::#f_str(#path, #s, #x)),
                vgc_lowering::plan::NeqValue::Int(i) => {
                    let lit = proc_macro2::Literal::i64_unsuffixed(*i);
                    quote!(#v::#f(#path, #new, #lit))
                }
                vgc_lowering::plan::NeqValue::Bool(b) => quote!(#v::#f(#path, #new, #b)),
            }
        }
        CheckKind::IfOption(_) | CheckKind::IfSubresource(_) => {
            let pair = eval_pair(ctx, c, site, ops);
            quote!((#pair).0)
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
    }
}

/// `Some(o).map(|x| &x.a).and_then(|x| x.as_ref()).map(|x| &x.b)`: the value at the end of `steps` from struct
/// `o`, `None` past a nil pointer.
fn navigate(steps: &[vgc_lowering::plan::PathStep]) -> TokenStream {
    let steps = steps.iter().map(|s| {
        let f = field_ident(&s.go);
        let deref = match s.pointer {
            Some(Boxing::Boxed) => quote!(.and_then(|x| x.as_deref())),
            Some(Boxing::Inline) => quote!(.and_then(|x| x.as_ref())),
            None => quote!(),
        };
        quote!(.map(|x| &x.#f) #deref)
    });
    quote!(::std::option::Option::Some(o) #(#steps)*)
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

/// A field-path constraint (vgc extension) on the struct `ops.new`: `vgc_runtime::extensions::field_constraint`
/// with both sides read through their paths (`None` at a nil pointer; the old sides only with an old struct).
fn constraint_call(fc: &vgc_lowering::plan::ConstraintPlan, ops: Operands<'_>) -> TokenStream {
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

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;
    use vgc_ir::catalog::TagId;

    fn check(kind: CheckKind, short_circuit: bool) -> Check {
        Check {
            kind,
            short_circuit,
            non_error: false,
            stability: None,
            tag: Some(TagId::MaxLength),
            cohort: None,
        }
    }

    const STRING_PTR: Shape = Shape::Scalar {
        ty: Builtin::String,
        pointer: true,
    };

    fn ops() -> (TokenStream, TokenStream, TokenStream) {
        (quote!(new), quote!(old), quote!(&p))
    }

    /// One leaf check: the runtime call with the value as `Option<&str>`, the typed format enum.
    #[test]
    fn leaf_calls() {
        let layout = Layout::default();
        let (new, old, path) = ops();
        let ops = Operands {
            new: &new,
            old: &old,
            path: &path,
        };
        let site = Site::plain(&STRING_PTR);
        let call = |k| check_call(&layout.ctx(), &check(k, false), site, ops).to_string();
        expect![[r#":: vgc_runtime :: validate :: max_length (& p , new . map (| v | v . as_str ()) , 8i64)"#]]
            .assert_eq(&call(CheckKind::MaxLength(8)));
        expect![[r#":: vgc_runtime :: validate :: format (& p , new . map (| v | v . as_str ()) , :: vgc_runtime :: formats :: Format :: K8sShortName)"#]]
            .assert_eq(&call(CheckKind::Format(Format::K8sShortName)));
    }

    /// A short-circuit check runs first and, failing, leaves the declaration (`return` from a type's function)
    /// before the other checks; its errors are still reported and marked.
    #[test]
    fn short_circuits_exit_before_the_rest() {
        let layout = Layout::default();
        let (new, old, path) = ops();
        let ops = Operands {
            new: &new,
            old: &old,
            path: &path,
        };
        let checks = [
            check(CheckKind::MaxLength(8), false),
            check(CheckKind::Required { detail: None }, true),
        ];
        let code = checks_block(
            &layout.ctx(),
            &checks,
            Site::plain(&STRING_PTR),
            ops,
            Exit::Return,
        );
        expect!["let mut sc = false ; { let e : :: vgc_runtime :: ErrorList = :: vgc_runtime :: validate :: required (& p , new . is_some ()) ; if ! e . is_empty () { sc = true ; errs . extend (e . mark_short_circuit ()) ; } } if sc { return ; } errs . extend (:: vgc_runtime :: validate :: max_length (& p , new . map (| v | v . as_str ()) , 8i64)) ;"].assert_eq(&code.to_string());
    }
}
