//! Item emission: a type's Rust definition (struct, typedef, serde attributes) and its validation function.

use super::*;

/// A type's items as tokens: its definition ([`type_def`]), then its validation function and `Validate` impl
/// ([`validation_items`]).
pub(super) fn type_items(ctx: &Ctx<'_>, t: &TypePlan) -> TokenStream {
    let mut out = type_def(ctx, t);
    let (f, i) = validation_items(ctx, t);
    out.extend([f, i]);
    out
}

/// Whether `t` gets items at all: the k8s-openapi target defines no types, it validates k8s-openapi's (a struct
/// without counterpart is a VGC0121 error before generation).
pub(super) fn has_items(ctx: &Ctx<'_>, t: &TypePlan) -> bool {
    !ctx.openapi
        .is_some_and(|map| t.fields.is_some() && !map.types.contains_key(&t.key))
}

/// The subresources a root with validations routes on (upstream's registered function answers "no validation
/// found" for the others); `None` for a type whose entry point does not route.
pub(super) fn routed(t: &TypePlan) -> Option<&vgc_lowering::plan::Subresources> {
    t.subresources.as_ref().filter(|_| t.has_validations)
}

/// The doc line of a type's definition (`/// Go type `k8s.io/api/apps/v1.Deployment`.`).
pub(super) fn def_doc(t: &TypePlan) -> String {
    format!(" Go type `{}`.", t.key)
}

/// A type's definition: its struct (with serde attributes, and for a recursive struct its stack-growing
/// `PartialEq`), or its `pub type` alias; nothing on the k8s-openapi target.
pub(super) fn type_def(ctx: &Ctx<'_>, t: &TypePlan) -> TokenStream {
    let name = ident(&crate::ident::type_name(&t.key.name));
    let doc = def_doc(t);
    if !has_items(ctx, t) {
        return TokenStream::new();
    }
    match (&t.fields, &t.alias_of) {
        _ if ctx.openapi.is_some() => TokenStream::new(),
        (Some(fields), _) => {
            let fs = fields.iter().map(|f| field_def(ctx, &t.key.name, f));
            // Keys Go's encoding/json ignores (conflicting fields of embedded structs): consumed here, so that no
            // flattened struct receives them, and never written.
            let ignored = t.json_ignored.iter().enumerate().map(|(i, json)| {
                let f = format_ident!("json_ignored_{i}");
                let doc = format!(" `{json}`: conflicting fields of embedded structs, which Go's encoding/json ignores.");
                quote! {
                    #[doc = #doc]
                    #[serde(rename = #json, default, skip_serializing)]
                    pub #f: ::serde::de::IgnoredAny
                }
            });
            // R9: an inline-embedded pointer is allocated only when one of its JSON names is present, as in Go.
            let embedded = fields.iter().filter(|f| !f.embedded_keys.is_empty()).map(|f| {
                let de = embedded_de_fn(&t.key.name, f);
                let ty = ctx.ty(&f.ty);
                let keys = &f.embedded_keys;
                let doc = format!(
                    " Decodes the inline-embedded pointer `{}.{}` as Go's encoding/json does: set when one of its JSON names is present.",
                    t.key.name, f.go_name
                );
                quote! {
                    #[doc = #doc]
                    fn #de<'de, D: ::serde::Deserializer<'de>>(d: D) -> ::std::result::Result<#ty, D::Error> {
                        ::vgc_runtime::types::embedded_pointer(d, &[#(#keys),*])
                    }
                }
            });
            if t.recursive {
                // R32: equality (which ratcheting runs on whole subtrees) recurses once per level; each level
                // checks the stack and grows it on the heap when needed. Same result as the derived impl.
                let names: Vec<Ident> = fields
                    .iter()
                    .map(|f| field_ident(&f.go_field))
                    .chain((0..t.json_ignored.len()).map(|i| format_ident!("json_ignored_{i}")))
                    .collect();
                let eq = if names.is_empty() {
                    quote!(true)
                } else {
                    quote!(#(self.#names == other.#names)&&*)
                };
                quote! {
                    #[doc = #doc]
                    #[derive(Debug, Clone, Default, ::serde::Serialize, ::serde::Deserialize)]
                    pub struct #name { #(#fs,)* #(#ignored,)* }
                    impl ::std::cmp::PartialEq for #name {
                        fn eq(&self, other: &Self) -> bool {
                            ::vgc_runtime::stack::grow(|| #eq)
                        }
                    }
                    #(#embedded)*
                }
            } else {
                quote! {
                    #[doc = #doc]
                    #[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
                    pub struct #name { #(#fs,)* #(#ignored,)* }
                    #(#embedded)*
                }
            }
        }
        (None, Some(a)) => {
            let a = ctx.ty(a);
            quote! { #[doc = #doc] pub type #name = #a; }
        }
        _ => TokenStream::new(),
    }
}

/// A type's validation function and its `Validate` impl (or, for a typedef root, its routed request function),
/// as two token streams; both empty for a type without validations that is not a root.
pub(super) fn validation_items(ctx: &Ctx<'_>, t: &TypePlan) -> (TokenStream, TokenStream) {
    let (f, imp) = validation_parts(ctx, t);
    (f.map(|f| f.tokens()).unwrap_or_default(), imp)
}

/// A type's validation function in parts, for the direct printer (`text::fn_text`) and for [`Self::tokens`].
pub(super) struct ValidationFn {
    /// The doc attribute's text (with its leading space).
    pub(super) doc: String,
    /// The function's name (`validate_<snake>`).
    pub(super) f: Ident,
    /// The Rust type validated: the generated type's name, or k8s-openapi's path.
    pub(super) name: TokenStream,
    /// The body after the `ErrorListExt` import, in pieces of whole statements (some empty).
    pub(super) body: Vec<TokenStream>,
    /// A recursive type's body runs inside `::vgc_runtime::stack::grow` (R32).
    pub(super) recursive: bool,
}

impl ValidationFn {
    /// The function as tokens.
    pub(super) fn tokens(&self) -> TokenStream {
        let Self {
            doc,
            f,
            name,
            body,
            recursive,
        } = self;
        // R32: one call per level of a recursive type's value; run it on a growable stack.
        let body = if *recursive {
            quote!(::vgc_runtime::stack::grow(|| { #(#body)* });)
        } else {
            quote!(#(#body)*)
        };
        quote! {
            #[doc = #doc]
            pub fn #f(op: &::vgc_runtime::Operation, path: &::vgc_runtime::Path<'_>, obj: ::std::option::Option<&#name>, old: ::std::option::Option<&#name>, errs: &mut ::vgc_runtime::ErrorList) {
                #[allow(unused_imports)]
                use ::vgc_runtime::ErrorListExt as _;
                #body
            }
        }
    }
}

/// [`validation_items`] with the function in parts: `None` and an empty impl for a type without validations
/// that is not a root.
pub(super) fn validation_parts(ctx: &Ctx<'_>, t: &TypePlan) -> (Option<ValidationFn>, TokenStream) {
    if !has_items(ctx, t) || !(t.has_validations || t.root) {
        return (None, TokenStream::new());
    }
    let name = ident(&crate::ident::type_name(&t.key.name));
    let f = format_ident!("validate_{}", snake(&t.key.name));
    let fn_doc = match ctx.openapi {
        Some(_) if t.fields.is_some() => format!(
            " Validates a `{}` (Go type `{}`, upstream `Validate_{}`); `obj` and `old` are nilable.",
            ctx.path_of(&t.key).to_string().replace(' ', ""),
            t.key,
            t.key.name
        ),
        _ => format!(
            " Validates a `{}` (upstream `Validate_{}`); `obj` and `old` are nilable.",
            t.key.name, t.key.name
        ),
    };
    // The Rust type validated: the generated one, or k8s-openapi's.
    let name = if ctx.openapi.is_some() {
        ctx.path_of(&t.key)
    } else {
        quote!(#name)
    };
    // upstream `Validate_<T>(obj *T)` runs a non-struct typedef's own rules on a nil pointer too (they see a nil
    // value); a struct's function dereferences its fields (deviation D2), so it stops at a nil struct first.
    let scalar_nil = t.fields.is_none() && !t.checks.is_empty();
    let (guard_before, guard_after) = if scalar_nil {
        (
            TokenStream::new(),
            quote!(let Some(obj) = obj else { return };),
        )
    } else {
        (
            quote!(let Some(obj) = obj else { return };),
            TokenStream::new(),
        )
    };
    let elem = t.alias_of.as_ref().and_then(|a| ctx.elem_of(a));
    let type_checks = checks_block(
        ctx,
        &t.checks,
        Site {
            shape: &t.shape,
            elem: elem.as_ref(),
            typed: t.fields.is_none(),
            owner: t.fields.as_ref().map(|_| &t.key),
            nil_kept: false,
        },
        Operands {
            new: &if scalar_nil {
                quote!(obj)
            } else {
                quote!(Some(obj))
            },
            old: &quote!(old),
            path: &quote!(path),
        },
        Exit::Return,
    );
    let iteration: TokenStream = t
        .key_iteration
        .iter()
        .chain(&t.iteration)
        .map(|it| {
            iteration_code(
                ctx,
                it,
                &t.shape,
                Operands {
                    new: &quote!(obj),
                    old: &quote!(old),
                    path: &quote!(path),
                },
                t.alias_of.as_ref(),
            )
        })
        .collect();
    let fields: Vec<TokenStream> = t
        .fields
        .iter()
        .flatten()
        .filter(|f| f.has_work())
        .map(|f| field_code(ctx, &t.key, f))
        .collect();
    // Roots with validations route on the request's subresource as upstream's registered function does.
    let routing = match routed(t) {
        Some(vgc_lowering::plan::Subresources {
            allowed, go_type, ..
        }) => quote! {
            fn validate(&self, old: ::std::option::Option<&Self>, op: &::vgc_runtime::Operation) -> ::vgc_runtime::ErrorList {
                if ![#(#allowed),*].iter().any(|a| op.subresource_is(a)) {
                    return ::std::vec![::vgc_runtime::Error::internal(&::vgc_runtime::Path::Root, ::std::format!("no validation found for {}, subresource: {}", #go_type, op.subresource_path()))];
                }
                let mut errs = ::vgc_runtime::ErrorList::new();
                #f(op, &::vgc_runtime::Path::Root, Some(self), old, &mut errs);
                errs
            }
        },
        _ => TokenStream::new(),
    };
    // The k8s-openapi target implements the crate's own `Validate` (the orphan rule forbids the runtime's).
    let validate_trait = if ctx.openapi.is_some() {
        quote!(crate::Validate)
    } else {
        quote!(::vgc_runtime::Validate)
    };
    // A virtual type (an inline-embedded struct on the k8s-openapi target) validates the embedding struct's type,
    // whose own impl is the embedding struct's.
    let is_virtual = ctx
        .openapi
        .is_some_and(|m| m.inline.values().any(|v| *v == t.key));
    let validate_impl = if is_virtual {
        TokenStream::new()
    } else if t.fields.is_some() {
        quote! {
            impl #validate_trait for #name {
                fn validate_into(&self, old: ::std::option::Option<&Self>, op: &::vgc_runtime::Operation, path: &::vgc_runtime::Path<'_>, errs: &mut ::vgc_runtime::ErrorList) {
                    #f(op, path, Some(self), old, errs);
                }
                #routing
            }
        }
    } else if let Some(vgc_lowering::plan::Subresources {
        allowed, go_type, ..
    }) = routed(t)
    {
        // A typedef root cannot implement `Validate` (its Rust type is an alias of a foreign type); upstream
        // registers it like any root, so its routed entry point is a function.
        let req = ident(&crate::ident::request_fn(&t.key));
        let doc = format!(
            " Validates a `{}` root as upstream's registered validation function does (`RegisterValidations`): on the paths it is registered for (the request's subresource), else upstream's \"no validation found\" internal error.",
            t.key.name
        );
        quote! {
            #[doc = #doc]
            pub fn #req(op: &::vgc_runtime::Operation, obj: &#name, old: ::std::option::Option<&#name>) -> ::vgc_runtime::ErrorList {
                if ![#(#allowed),*].iter().any(|a| op.subresource_is(a)) {
                    return ::std::vec![::vgc_runtime::Error::internal(&::vgc_runtime::Path::Root, ::std::format!("no validation found for {}, subresource: {}", #go_type, op.subresource_path()))];
                }
                let mut errs = ::vgc_runtime::ErrorList::new();
                #f(op, &::vgc_runtime::Path::Root, Some(obj), old, &mut errs);
                errs
            }
        }
    } else {
        TokenStream::new()
    };
    let mut body = vec![guard_before, type_checks, guard_after, iteration];
    body.extend(fields);
    (
        Some(ValidationFn {
            doc: fn_doc,
            f,
            name,
            body,
            recursive: t.recursive,
        }),
        validate_impl,
    )
}

/// The name of the generated function decoding inline-embedded pointer `f` of struct `owner` (R9).
pub(super) fn embedded_de_fn(owner: &str, f: &FieldPlan) -> proc_macro2::Ident {
    format_ident!(
        "deserialize_embedded_{}_{}",
        snake(owner),
        crate::ident::field(&f.go_field).trim_start_matches("r#")
    )
}

/// True when the field's Go value is a struct (a struct type, or a well-known apimachinery struct such as
/// `metav1.Time` or `resource.Quantity`), which Go's `omitempty` never omits.
pub(super) fn go_struct_value(f: &FieldPlan) -> bool {
    match f.shape {
        Shape::Struct { .. } => true,
        Shape::Other { .. } => !matches!(f.ty, RustTy::WellKnown(WellKnown::Bytes) | RustTy::Json),
        _ => false,
    }
}

/// One argument of a field's `#[serde(...)]` attribute: a flag (`default`) or a key with a string (`rename = "x"`).
pub(super) enum SerdeArg {
    /// `flatten`, `default`, `skip`.
    Flag(&'static str),
    /// `rename = "spec"`, `deserialize_with = "path"`.
    Str(&'static str, String),
}

impl quote::ToTokens for SerdeArg {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            SerdeArg::Flag(f) => ident(f).to_tokens(out),
            SerdeArg::Str(k, v) => {
                let k = ident(k);
                out.extend(quote!(#k = #v));
            }
        }
    }
}

/// One field of a generated struct, as data: the arguments of its `#[serde(...)]` attribute, its Rust name and
/// its Rust type. [`FieldDef::tokens`] is the field as `quote` emits it; `text::struct_def` prints the same field
/// as prettyplease would.
pub(super) struct FieldDef {
    /// The `#[serde(...)]` arguments, in order.
    pub serde: Vec<SerdeArg>,
    /// The Rust field name (`r#type` for Go `Type`).
    pub name: Ident,
    /// The Rust type.
    pub ty: TokenStream,
}

impl FieldDef {
    /// `#[serde(args)] pub name: ty`.
    pub(super) fn tokens(&self) -> TokenStream {
        let (args, name, ty) = (&self.serde, &self.name, &self.ty);
        quote!(#[serde(#(#args),*)] pub #name: #ty)
    }
}

pub(super) fn field_def(ctx: &Ctx<'_>, owner: &str, f: &FieldPlan) -> TokenStream {
    field_def_data(ctx, owner, f).tokens()
}

/// A struct field's serde attribute, name and type (see [`FieldDef`]).
pub(super) fn field_def_data(ctx: &Ctx<'_>, owner: &str, f: &FieldPlan) -> FieldDef {
    use SerdeArg::{Flag, Str};
    let json = || Str("rename", f.json_name.clone());
    // Go decodes `null` as the zero value: for the field itself, and for list items and map values (R30), also of
    // a typedef'd list or map (`Items` for `type Items []Item`).
    let de = match ctx.through_typedefs(&f.ty) {
        RustTy::Vec(_) => "::vgc_runtime::types::null_items_as_default",
        // A map of lists (`map[string]ExtraValue`): `null` items inside the values too.
        RustTy::Map(v) if matches!(ctx.through_typedefs(v), RustTy::Vec(_)) => {
            "::vgc_runtime::types::null_values_items_as_default"
        }
        RustTy::Map(_) => "::vgc_runtime::types::null_values_as_default",
        _ => "::vgc_runtime::types::null_as_default",
    };
    let de = || Str("deserialize_with", de.to_string());
    let serde = if f.skip {
        vec![Flag("skip")]
    } else if !f.embedded_keys.is_empty() {
        vec![
            Flag("flatten"),
            Str("deserialize_with", embedded_de_fn(owner, f).to_string()),
        ]
    } else if f.flatten {
        vec![Flag("flatten")]
    } else if matches!(f.ty, RustTy::Option(..)) && f.omitempty {
        vec![
            json(),
            Flag("default"),
            Str(
                "skip_serializing_if",
                "::std::option::Option::is_none".into(),
            ),
        ]
    } else if matches!(f.ty, RustTy::Option(..)) {
        // Go renders a nil pointer without `omitempty` as `null`.
        vec![json(), Flag("default")]
    } else if f.omitempty && !go_struct_value(f) {
        // Go `omitempty` drops false, 0, "" and empty lists/maps (never structs, so never a zero `metav1.Time`,
        // which prints `null`); this shapes the JSON of values in error details (`Duplicate value: {…}`).
        vec![
            json(),
            Flag("default"),
            de(),
            Str(
                "skip_serializing_if",
                "::vgc_runtime::types::is_zero".into(),
            ),
        ]
    } else if matches!(f.shape, Shape::List { .. } | Shape::Map) {
        // Go renders a nil slice or map without `omitempty` as `null`.
        vec![
            json(),
            Flag("default"),
            de(),
            Str(
                "serialize_with",
                "::vgc_runtime::types::empty_as_null".into(),
            ),
        ]
    } else {
        vec![json(), Flag("default"), de()]
    };
    FieldDef {
        serde,
        name: field_ident(&f.go_field),
        ty: ctx.ty(&f.ty),
    }
}
