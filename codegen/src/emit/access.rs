//! Struct member access, the one place emission reads a field of the target's structs: vgc's own structs hold a
//! Go value field as `T` and a Go pointer as `Option<T>`; k8s-openapi's (the k8s-openapi target) hold every field
//! the OpenAPI document does not require as `Option<T>`, whatever the Go type. Checks always see upstream's view —
//! an `Option<&T>` that is `None` exactly for a nil Go pointer — so a Go value field k8s-openapi leaves out reads as
//! Go's zero value (`T::default()`, built only when the field is absent), as Go's decoding leaves it.

use super::*;

/// The reads of one member on the new struct and on the old one, and the declarations they need.
pub(super) struct Read {
    /// Statements to emit before `new` and `old` are evaluated (the zero values' slots).
    pub(super) decls: TokenStream,
    /// `Option<&T>`: the member of `obj` (a `&S`).
    pub(super) new: TokenStream,
    /// `Option<&T>`: the member of `old` (an `Option<&S>`).
    pub(super) old: TokenStream,
}

/// Go values k8s-openapi gives no `Default` (`metav1.Time`, `metav1.MicroTime`): read as `None` when absent, which
/// the checks treat as Go's zero time (unset).
fn zero_is_none(ctx: &Ctx<'_>, go_ty: &RustTy) -> bool {
    matches!(
        ctx.through_typedefs(go_ty),
        RustTy::WellKnown(WellKnown::Time | WellKnown::MicroTime)
    )
}

/// Reads member `go` of struct type `owner` (Go type `go_ty`, a Go pointer when `pointer` is set) from `obj` and
/// `old`; `slot` names the zero-value slots (unique in the emitted scope; `"field"` for a struct field's own read).
#[allow(clippy::too_many_arguments)]
pub(super) fn read_member(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    go: &str,
    pointer: Option<Boxing>,
    go_ty: &RustTy,
    obj: &TokenStream,
    old: &TokenStream,
    slot: &str,
) -> Read {
    let m = ctx.member(owner, go);
    let f = &m.ident;
    if m.inline {
        // An inline-embedded struct: k8s-openapi has its fields in the embedding struct itself.
        return Read {
            decls: TokenStream::new(),
            new: quote!(::std::option::Option::Some(#obj)),
            old: quote!(#old),
        };
    }
    if !m.wrapped {
        let (new, old) = match (ctx.openapi.is_some(), pointer) {
            (false, Some(Boxing::Boxed)) => (
                quote!(#obj.#f.as_deref()),
                quote!(#old.and_then(|o| o.#f.as_deref())),
            ),
            (false, Some(Boxing::Inline)) => (
                quote!(#obj.#f.as_ref()),
                quote!(#old.and_then(|o| o.#f.as_ref())),
            ),
            // Own structs: a Go value; k8s-openapi: a required field (never nil). (Wrappers spell the old read
            // `and_then(|o| Some(..))`, fields `map`: the same value, kept as emitted before.)
            _ if slot == "field" => (quote!(Some(&#obj.#f)), quote!(#old.map(|o| &o.#f))),
            _ => (
                quote!(Some(&#obj.#f)),
                quote!(#old.and_then(|o| Some(&o.#f))),
            ),
        };
        return Read {
            decls: TokenStream::new(),
            new,
            old,
        };
    }
    // A Go pointer, the zero time, and a Go list or map: `None` is nil (the checks treat a nil list as an empty
    // one wherever upstream does, and keep them apart where upstream does: deviations D9 and D11).
    let collection = matches!(ctx.through_typedefs(go_ty), RustTy::Vec(_) | RustTy::Map(_));
    if pointer.is_some() || collection || zero_is_none(ctx, go_ty) {
        return Read {
            decls: TokenStream::new(),
            new: quote!(#obj.#f.as_ref()),
            old: quote!(#old.and_then(|o| o.#f.as_ref())),
        };
    }
    let (zn, zo) = (
        format_ident!("zero_{slot}_new"),
        format_ident!("zero_{slot}_old"),
    );
    Read {
        decls: quote! {
            let mut #zn = ::std::option::Option::None;
            let mut #zo = ::std::option::Option::None;
        },
        new: quote!(::std::option::Option::Some(match #obj.#f.as_ref() {
            ::std::option::Option::Some(v) => v,
            ::std::option::Option::None => &*#zn.get_or_insert_with(::std::default::Default::default),
        })),
        old: quote!(match #old {
            ::std::option::Option::Some(o) => ::std::option::Option::Some(match o.#f.as_ref() {
                ::std::option::Option::Some(v) => v,
                ::std::option::Option::None => &*#zo.get_or_insert_with(::std::default::Default::default),
            }),
            ::std::option::Option::None => ::std::option::Option::None,
        }),
    }
}

/// "Is member `go` set" on the struct reference `o` (upstream's member extractors for unions and dependent
/// fields: pointer non-nil, slice or map non-empty, builtin non-zero — [`vgc_runtime::validate::IsSet`]).
pub(super) fn member_set(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    o: &TokenStream,
    go: &str,
    shape: &Shape,
) -> TokenStream {
    let m = ctx.member(owner, go);
    let f = &m.ident;
    let pointer = matches!(
        shape,
        Shape::Scalar { pointer: true, .. }
            | Shape::Struct { pointer: true }
            | Shape::Other { pointer: true }
    );
    match (pointer, shape, m.wrapped) {
        (true, _, true) => quote!(#o.#f.is_some()),
        // A required k8s-openapi field is never nil.
        (true, _, false) if ctx.openapi.is_some() => quote!(true),
        (true, _, false) => quote!(#o.#f.is_some()),
        (false, Shape::List { .. } | Shape::Map, true) => {
            quote!(#o.#f.as_ref().is_some_and(|v| !v.is_empty()))
        }
        (false, Shape::List { .. } | Shape::Map, false) => quote!(!#o.#f.is_empty()),
        (false, _, true) => {
            quote!(#o.#f.as_ref().is_some_and(::vgc_runtime::validate::IsSet::is_set))
        }
        (false, _, false) => quote!(::vgc_runtime::validate::IsSet::is_set(&#o.#f)),
    }
}

/// Member `go` of the struct reference `o` as a `&str` (a string discriminator; `""` when k8s-openapi leaves it
/// out).
pub(super) fn member_str(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    o: &TokenStream,
    go: &str,
) -> TokenStream {
    let m = ctx.member(owner, go);
    let f = &m.ident;
    if m.wrapped {
        quote!(#o.#f.as_deref().unwrap_or(""))
    } else {
        quote!(#o.#f.as_str())
    }
}

/// Member `go` of the struct reference `o` as a `bool` (a boolean discriminator; `false` when absent).
pub(super) fn member_bool(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    o: &TokenStream,
    go: &str,
) -> TokenStream {
    let m = ctx.member(owner, go);
    let f = &m.ident;
    if m.wrapped {
        quote!(#o.#f.unwrap_or(false))
    } else {
        quote!(#o.#f)
    }
}

/// `a.k == b.k` for list-map key `go` of element type `owner` (Go's `==` on the key values: an absent k8s-openapi
/// field is Go's zero value).
pub(super) fn key_eq(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    a: &TokenStream,
    b: &TokenStream,
    go: &str,
) -> TokenStream {
    let m = ctx.member(owner, go);
    let f = &m.ident;
    if m.wrapped {
        quote!(crate::semantic::key_eq(&#a.#f, &#b.#f))
    } else {
        quote!(#a.#f == #b.#f)
    }
}

/// `x.k == v` for a selector term on element `x` of type `owner` (`ptr`: the member is a Go pointer, compared by
/// its target).
pub(super) fn selector_term(
    ctx: &Ctx<'_>,
    owner: Option<&TypeKey>,
    x: &TokenStream,
    go: &str,
    ptr: bool,
    lit: &TokenStream,
    is_str: bool,
) -> TokenStream {
    let m = ctx.member(owner, go);
    let f = &m.ident;
    match (m.wrapped, ptr, is_str) {
        (true, true, true) => quote!(#x.#f.as_deref() == Some(#lit)),
        (true, true, false) => quote!(#x.#f == Some(#lit)),
        (true, false, true) => quote!(#x.#f.as_deref().unwrap_or("") == #lit),
        (true, false, false) => quote!(#x.#f.unwrap_or_default() == #lit),
        (false, true, _) if ctx.openapi.is_some() => quote!(#x.#f == #lit),
        (false, true, true) => quote!(#x.#f.as_deref() == Some(#lit)),
        (false, true, false) => quote!(#x.#f == Some(#lit)),
        (false, false, _) => quote!(#x.#f == #lit),
    }
}
