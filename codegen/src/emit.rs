//! Rust emission.

use crate::{CodegenError, GeneratedFile, Options, RuntimeDep};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use vgc_analysis::TypeKey;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_ir::catalog::Stability;
use vgc_lowering::plan::{
    Boxing, Check, CheckKind, FieldPlan, Iteration, Matcher, ModulePlan, OptionState, RustTy,
    Shape, TypePlan,
};
use vgc_lowering::{CratePlan, snake};
use vgc_runtime::formats::Format;

fn ident(s: &str) -> Ident {
    match s.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(s, Span::call_site()),
    }
}

struct Ctx<'a> {
    modules: &'a BTreeMap<String, Vec<String>>,
    types: &'a BTreeSet<TypeKey>,
    aliases: &'a BTreeMap<TypeKey, RustTy>,
}

/// What codegen of one module needs to know about the whole crate: where every package's module is, which types
/// are generated, the module tree, and whether the crate has `customValidation` functions. Small and `Eq`, so
/// the salsa query computing it is backdated unless the crate's shape changes, and modules whose own plan did not
/// change are not generated again.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Go import path → Rust module path.
    pub modules: BTreeMap<String, Vec<String>>,
    /// Every generated type.
    pub types: BTreeSet<TypeKey>,
    /// Module path → child module names (every prefix of a module path is a parent).
    pub children: BTreeMap<Vec<String>, BTreeSet<String>>,
    /// Module path → the Go package generated into it.
    pub leaves: BTreeMap<Vec<String>, String>,
    /// Some module has `customValidation` checks (the crate root declares `mod custom`).
    pub custom: bool,
    /// Every generated typedef → the Rust type it aliases (`type L = Vec<Item>`), so that code validating a value
    /// of a typedef type can name its element type (list-map key closures need it to type-check).
    pub aliases: BTreeMap<TypeKey, RustTy>,
}

impl Layout {
    /// The layout of `plan`.
    pub fn of(plan: &CratePlan) -> Self {
        let mut l = Self::default();
        for m in &plan.modules {
            l.modules.insert(m.pkg.clone(), m.module_path.clone());
            l.types.extend(m.types.iter().map(|t| t.key.clone()));
            l.aliases.extend(
                m.types
                    .iter()
                    .filter_map(|t| Some((t.key.clone(), t.alias_of.clone()?))),
            );
            for i in 0..m.module_path.len() {
                l.children
                    .entry(m.module_path[..i].to_vec())
                    .or_default()
                    .insert(m.module_path[i].clone());
            }
            l.leaves.insert(m.module_path.clone(), m.pkg.clone());
            l.custom |= !custom_checks(m).is_empty();
        }
        l
    }

    /// The generated file of module `path`: `src/lib.rs` for the crate root, `src/<path>/mod.rs` for a module with
    /// children, else `src/<path>.rs`.
    #[must_use]
    pub fn file_of(&self, path: &[String]) -> String {
        if path.is_empty() {
            "src/lib.rs".to_string()
        } else if self.children.contains_key(path) {
            format!("src/{}/mod.rs", path.join("/"))
        } else {
            format!("src/{}.rs", path.join("/"))
        }
    }

    /// Every module file's module path (parents and leaves), sorted.
    pub fn module_paths(&self) -> Vec<Vec<String>> {
        let mut all: BTreeSet<Vec<String>> = self.children.keys().cloned().collect();
        all.extend(self.leaves.keys().cloned());
        all.into_iter().collect()
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            modules: &self.modules,
            types: &self.types,
            aliases: &self.aliases,
        }
    }
}

impl Ctx<'_> {
    fn path_of(&self, k: &TypeKey) -> TokenStream {
        let segs = self.modules.get(&k.pkg).cloned().unwrap_or_default();
        let segs = segs.iter().map(|s| ident(s));
        let name = ident(&k.name);
        quote!(crate #(:: #segs)* :: #name)
    }
    /// The element type of a list or map value of type `t`, looking through typedefs (and typedefs of typedefs).
    fn elem_of(&self, t: &RustTy) -> Option<RustTy> {
        let mut t = t;
        for _ in 0..16 {
            match t {
                RustTy::Vec(e) | RustTy::Map(e) => return Some((**e).clone()),
                RustTy::Named(k) => t = self.aliases.get(k)?,
                _ => return None,
            }
        }
        None
    }
    fn fn_of(&self, k: &TypeKey) -> TokenStream {
        let segs = self.modules.get(&k.pkg).cloned().unwrap_or_default();
        let segs = segs.iter().map(|s| ident(s));
        let f = format_ident!("validate_{}", snake(&k.name));
        quote!(crate #(:: #segs)* :: #f)
    }
    fn ty(&self, t: &RustTy) -> TokenStream {
        match t {
            RustTy::Builtin(b) => builtin(*b),
            RustTy::Named(k) if self.types.contains(k) => self.path_of(k),
            RustTy::Named(_) | RustTy::Json => quote!(::serde_json::Value),
            RustTy::WellKnown(w) => {
                let n = format_ident!("{}", format!("{w:?}"));
                quote!(::vgc_runtime::types::#n)
            }
            RustTy::Option(i, boxing) => {
                let i = self.ty(i);
                if *boxing == Boxing::Boxed {
                    quote!(::std::option::Option<::std::boxed::Box<#i>>)
                } else {
                    quote!(::std::option::Option<#i>)
                }
            }
            RustTy::Vec(i) => {
                let i = self.ty(i);
                quote!(::std::vec::Vec<#i>)
            }
            RustTy::Map(v) => {
                let v = self.ty(v);
                quote!(::std::collections::BTreeMap<::std::string::String, #v>)
            }
        }
    }
}

fn builtin(b: Builtin) -> TokenStream {
    match b {
        Builtin::Bool => quote!(bool),
        Builtin::String => quote!(::std::string::String),
        Builtin::Int | Builtin::Int64 => quote!(i64),
        Builtin::Int8 => quote!(i8),
        Builtin::Int16 => quote!(i16),
        Builtin::Int32 => quote!(i32),
        Builtin::Uint | Builtin::Uint64 => quote!(u64),
        Builtin::Uint8 => quote!(u8),
        Builtin::Uint16 => quote!(u16),
        Builtin::Uint32 => quote!(u32),
        Builtin::Float32 => quote!(f32),
        Builtin::Float64 => quote!(f64),
    }
}

pub(crate) fn generate(
    plan: &CratePlan,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, CodegenError> {
    let layout = Layout::of(plan);
    let leaf: BTreeMap<&str, &ModulePlan> = plan
        .modules
        .iter()
        .map(|m| (m.pkg.as_str(), &**m))
        .collect();
    // Modules are independent: quote, syn and prettyplease run in parallel, one module per job (token streams
    // never cross threads).
    let mut files = layout
        .module_paths()
        .par_iter()
        .map(|path| {
            let m = layout
                .leaves
                .get(path)
                .and_then(|pkg| leaf.get(pkg.as_str()));
            emit_module(&layout, m.copied(), path, &mut |t| type_units(&layout, t))
        })
        .collect::<Result<Vec<GeneratedFile>, CodegenError>>()?;
    files.push(cargo_toml(opts));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// The generated crate's `Cargo.toml`.
pub(crate) fn cargo_toml(opts: &Options) -> GeneratedFile {
    let dep = match &opts.runtime {
        RuntimeDep::Path(p) => format!("{{ path = {p:?} }}"),
        RuntimeDep::Version(v) => format!("{v:?}"),
    };
    GeneratedFile {
        chunks: Vec::new(),
        path: "Cargo.toml".into(),
        contents: format!(
            "# @generated by vgc. Do not edit.\n[package]\nname = {:?}\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nvgc-runtime = {dep}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
            opts.crate_name
        ),
    }
}

/// One module file: child module declarations, the package doc, and the module's items, parsed by syn and
/// printed by prettyplease. The crate root also carries the crate attributes and the `custom` module.
pub(crate) fn emit_module(
    layout: &Layout,
    module: Option<&ModulePlan>,
    path: &[String],
    type_units: &mut dyn FnMut(&TypePlan) -> Result<Vec<String>, CodegenError>,
) -> Result<GeneratedFile, CodegenError> {
    let ctx = &layout.ctx();
    let children = &layout.children;
    let mods: Vec<TokenStream> = children
        .get(path)
        .into_iter()
        .flatten()
        .map(|c| {
            let c = ident(c);
            quote!(pub mod #c;)
        })
        .collect();
    let custom = match module {
        Some(m) => custom_trait(ctx, m),
        None => TokenStream::new(),
    };
    let custom_mod = if path.is_empty() && layout.custom {
        quote! {
            /// Hand-written `+k8s:customValidation` functions: create `src/custom.rs` with `pub struct Custom;`
            /// and implement each generated module's `Custom` trait for it (see the README).
            pub mod custom;
        }
    } else {
        TokenStream::new()
    };
    // Inner attributes must precede every item, including child `pub mod` declarations (a Go package with
    // sub-packages is a module with child modules).
    let package_doc = module.map(|m| {
        let doc = format!(" Go package `{}`.", m.pkg);
        quote!(#![doc = #doc])
    });
    let header = if path.is_empty() {
        quote! {
            //! Validation code generated by vgc. Do not edit.
            #![allow(clippy::all, clippy::pedantic, non_snake_case, unused_labels, unused_mut, unused_variables, missing_docs)]
            #package_doc
        }
    } else {
        quote!(#package_doc)
    };
    let tokens = quote! { #header #custom_mod #(#mods)* #custom };
    let file: syn::File = syn::parse2(tokens).map_err(|e| CodegenError {
        module: path.join("::"),
        message: e.to_string(),
    })?;
    let (mut text, mut chunks) = unparse_in_chunks(file);
    for t in module.map(|m| m.types.as_slice()).unwrap_or_default() {
        for unit in type_units(t)? {
            chunks.push(text.len());
            text.push_str(&unit);
        }
    }
    let rel = layout.file_of(path);
    Ok(GeneratedFile {
        path: rel,
        contents: text,
        chunks,
    })
}

/// Prints a module with prettyplease one formatting unit at a time: the header (the `@generated` line, inner
/// attributes and the leading `mod`/`use` items), then every other top-level item (consecutive `use` items
/// together, as rustfmt reorders them as a group). prettyplease separates top-level items by no blank line, so
/// rustfmt of the whole text equals the concatenation of rustfmt of each unit — which lets a rebuild format only
/// the units that changed. Returns the text and the byte offsets where the second and later units start.
fn unparse_in_chunks(file: syn::File) -> (String, Vec<usize>) {
    let is_header = |i: &syn::Item| {
        matches!(i, syn::Item::Use(_)) || matches!(i, syn::Item::Mod(m) if m.content.is_none())
    };
    let mut items = file.items.into_iter().peekable();
    let mut header = Vec::new();
    while let Some(i) = items.next_if(is_header) {
        header.push(i);
    }
    let unit = |attrs, items| {
        prettyplease::unparse(&syn::File {
            shebang: None,
            frontmatter: None,
            attrs,
            items,
        })
    };
    let mut text = format!(
        "// @generated by vgc. Do not edit.\n{}",
        unit(file.attrs, header)
    );
    let mut chunks = Vec::new();
    for u in item_units(items) {
        chunks.push(text.len());
        text.push_str(&u);
    }
    (text, chunks)
}

/// Top-level items printed one formatting unit each (consecutive `use` items together).
fn item_units(items: impl IntoIterator<Item = syn::Item>) -> Vec<String> {
    let mut items = items.into_iter().peekable();
    let mut out = Vec::new();
    while let Some(first) = items.next() {
        let mut group = vec![first];
        if matches!(group[0], syn::Item::Use(_)) {
            while let Some(u) = items.next_if(|i| matches!(i, syn::Item::Use(_))) {
                group.push(u);
            }
        }
        out.push(prettyplease::unparse(&syn::File {
            shebang: None,
            frontmatter: None,
            attrs: Vec::new(),
            items: group,
        }));
    }
    out
}

/// The formatting units (see [`unparse_in_chunks`]) of one type's items: its Rust type, validation function and
/// `Validate` impl, as prettyplease prints them.
pub(crate) fn type_units(layout: &Layout, t: &TypePlan) -> Result<Vec<String>, CodegenError> {
    let file: syn::File = syn::parse2(type_items(&layout.ctx(), t)).map_err(|e| CodegenError {
        module: t.key.to_string(),
        message: e.to_string(),
    })?;
    Ok(item_units(file.items))
}

/// Every `customValidation` check of a module: (method, upstream name, value type), sorted by method.
fn custom_checks(m: &ModulePlan) -> Vec<(String, String, RustTy)> {
    fn walk(c: &Check, out: &mut Vec<(String, String, RustTy)>) {
        match &c.kind {
            CheckKind::Custom {
                method,
                upstream,
                ty,
                ..
            } => out.push((method.clone(), upstream.clone(), ty.clone())),
            CheckKind::IfOption(io) => walk(&io.inner, out),
            CheckKind::Subfield(s) => walk(&s.inner, out),
            CheckKind::Item(it) => walk(&it.inner, out),
            CheckKind::EachVal(inner, _, _) | CheckKind::EachKey(inner) => {
                inner.iter().for_each(|c| walk(c, out))
            }
            CheckKind::Discriminated(d) => d
                .rules
                .iter()
                .flat_map(|(_, cs)| cs)
                .for_each(|c| walk(c, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for t in &m.types {
        t.checks.iter().for_each(|c| walk(c, &mut out));
        t.fields
            .iter()
            .flatten()
            .flat_map(|f| &f.checks)
            .for_each(|c| walk(c, &mut out));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The module's `Custom` trait: one associated function per `+k8s:customValidation` use. The user implements it
/// for `crate::custom::Custom` in their own `src/custom.rs`; a missing function is a compile error naming it.
fn custom_trait(ctx: &Ctx<'_>, m: &ModulePlan) -> TokenStream {
    let checks = custom_checks(m);
    if checks.is_empty() {
        return TokenStream::new();
    }
    let fns = checks.iter().map(|(method, upstream, ty)| {
        let f = format_ident!("{method}");
        let t = ctx.ty(ty);
        let doc = format!(" Hand-written validation for `+k8s:customValidation` (upstream `{upstream}`). `value` and `old` are nilable; `old` is `None` on create.");
        quote! {
            #[doc = #doc]
            fn #f(op: &::vgc_runtime::Operation, path: &::vgc_runtime::Path<'_>, value: ::std::option::Option<&#t>, old: ::std::option::Option<&#t>) -> ::vgc_runtime::ErrorList;
        }
    });
    let doc = " Hand-written validations this package's `+k8s:customValidation` tags require. Implement it for `crate::custom::Custom` in `src/custom.rs` (vgc never writes that file).";
    quote! {
        #[doc = #doc]
        pub trait Custom { #(#fns)* }
    }
}

fn type_items(ctx: &Ctx<'_>, t: &TypePlan) -> TokenStream {
    let name = ident(&t.key.name);
    let doc = format!(" Go type `{}`.", t.key);
    let def = match (&t.fields, &t.alias_of) {
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
                    .map(|f| ident(&f.rust_name))
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
    };
    if !(t.has_validations || t.root) {
        return def;
    }
    let f = format_ident!("validate_{}", snake(&t.key.name));
    let fn_doc = format!(
        " Validates a `{}` (upstream `Validate_{}`); `obj` and `old` are nilable.",
        t.key.name, t.key.name
    );
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
    let type_checks = checks_block(
        ctx,
        &t.checks,
        &t.shape,
        &if scalar_nil {
            quote!(obj)
        } else {
            quote!(Some(obj))
        },
        &quote!(old),
        &quote!(path),
        true,
        &t.alias_of.as_ref().and_then(|a| ctx.elem_of(a)),
        t.fields.is_none(),
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
                &quote!(obj),
                &quote!(old),
                &quote!(path),
                t.alias_of.as_ref(),
            )
        })
        .collect();
    let fields = t
        .fields
        .iter()
        .flatten()
        .filter(|f| f.has_work())
        .map(|f| field_code(ctx, f));
    // Roots with validations route on the request's subresource as upstream's registered function does.
    let routing = match (&t.subresources, t.has_validations) {
        (Some((allowed, go_type)), true) => quote! {
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
    let validate_impl = if t.fields.is_some() {
        quote! {
            impl ::vgc_runtime::Validate for #name {
                fn validate_into(&self, old: ::std::option::Option<&Self>, op: &::vgc_runtime::Operation, path: &::vgc_runtime::Path<'_>, errs: &mut ::vgc_runtime::ErrorList) {
                    #f(op, path, Some(self), old, errs);
                }
                #routing
            }
        }
    } else if let (Some((allowed, go_type)), true) = (&t.subresources, t.has_validations) {
        // A typedef root cannot implement `Validate` (its Rust type is an alias of a foreign type); upstream
        // registers it like any root, so its routed entry point is a function.
        let req = format_ident!("validate_{}_request", snake(&t.key.name));
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
    let body = quote! {
        #guard_before
        #type_checks
        #guard_after
        #iteration
        #(#fields)*
    };
    // R32: one call per level of a recursive type's value; run it on a growable stack.
    let body = if t.recursive {
        quote!(::vgc_runtime::stack::grow(|| { #body });)
    } else {
        body
    };
    quote! {
        #def
        #[doc = #fn_doc]
        pub fn #f(op: &::vgc_runtime::Operation, path: &::vgc_runtime::Path<'_>, obj: ::std::option::Option<&#name>, old: ::std::option::Option<&#name>, errs: &mut ::vgc_runtime::ErrorList) {
            #[allow(unused_imports)]
            use ::vgc_runtime::ErrorListExt as _;
            #body
        }
        #validate_impl
    }
}

/// The name of the generated function decoding inline-embedded pointer `f` of struct `owner` (R9).
fn embedded_de_fn(owner: &str, f: &FieldPlan) -> proc_macro2::Ident {
    format_ident!(
        "deserialize_embedded_{}_{}",
        snake(owner),
        f.rust_name.trim_start_matches("r#")
    )
}

/// True when the field's Go value is a struct (a struct type, or a well-known apimachinery struct such as
/// `metav1.Time` or `resource.Quantity`), which Go's `omitempty` never omits.
fn go_struct_value(f: &FieldPlan) -> bool {
    match f.shape {
        Shape::Struct { .. } => true,
        Shape::Other { .. } => !matches!(f.ty, RustTy::WellKnown(WellKnown::Bytes) | RustTy::Json),
        _ => false,
    }
}

fn field_def(ctx: &Ctx<'_>, owner: &str, f: &FieldPlan) -> TokenStream {
    let name = ident(&f.rust_name);
    let ty = ctx.ty(&f.ty);
    let json = &f.json_name;
    // Go decodes `null` as the zero value: for the field itself, and for list items and map values (R30).
    let de = match &f.ty {
        RustTy::Vec(_) => "::vgc_runtime::types::null_items_as_default",
        RustTy::Map(_) => "::vgc_runtime::types::null_values_as_default",
        _ => "::vgc_runtime::types::null_as_default",
    };
    let attr = if f.skip {
        quote!(#[serde(skip)])
    } else if !f.embedded_keys.is_empty() {
        let de = embedded_de_fn(owner, f).to_string();
        quote!(#[serde(flatten, deserialize_with = #de)])
    } else if f.flatten {
        quote!(#[serde(flatten)])
    } else if matches!(f.ty, RustTy::Option(..)) && f.omitempty {
        quote!(#[serde(rename = #json, default, skip_serializing_if = "::std::option::Option::is_none")])
    } else if matches!(f.ty, RustTy::Option(..)) {
        // Go renders a nil pointer without `omitempty` as `null`.
        quote!(#[serde(rename = #json, default)])
    } else if f.omitempty && !go_struct_value(f) {
        // Go `omitempty` drops false, 0, "" and empty lists/maps (never structs, so never a zero `metav1.Time`,
        // which prints `null`); this shapes the JSON of values in error details (`Duplicate value: {…}`).
        quote!(#[serde(rename = #json, default, deserialize_with = #de, skip_serializing_if = "::vgc_runtime::types::is_zero")])
    } else if matches!(f.shape, Shape::List { .. } | Shape::Map) {
        // Go renders a nil slice or map without `omitempty` as `null`.
        quote!(#[serde(rename = #json, default, deserialize_with = #de, serialize_with = "::vgc_runtime::types::empty_as_null")])
    } else {
        quote!(#[serde(rename = #json, default, deserialize_with = #de)])
    };
    quote!(#attr pub #name: #ty)
}

/// Tokens for "is this nilable value set" given the shape.
fn set_expr(shape: &Shape, v: &TokenStream) -> TokenStream {
    match shape {
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

fn marks(c: &Check) -> TokenStream {
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

fn matcher_fns(ctx: &Ctx<'_>, m: &Matcher, elem: Option<&RustTy>) -> (TokenStream, TokenStream) {
    let elem_ty = elem.map_or(quote!(_), |e| match e {
        RustTy::Option(i, _) => ctx.ty(i),
        e => ctx.ty(e),
    });
    let fn_ty = quote!(fn(&#elem_ty, &#elem_ty) -> bool);
    match m {
        Matcher::None => (quote!(None), quote!(None)),
        Matcher::Set => (
            quote!(Some((|a: &#elem_ty, b: &#elem_ty| a == b) as #fn_ty)),
            quote!(None),
        ),
        Matcher::Keys(keys) => {
            let ks = keys.iter().map(|k| ident(k));
            (
                quote!(Some((|a: &#elem_ty, b: &#elem_ty| true #(&& a.#ks == b.#ks)*) as #fn_ty)),
                quote!(Some((|a: &#elem_ty, b: &#elem_ty| a == b) as #fn_ty)),
            )
        }
    }
}

/// Emits the checks of one declaration: the default cohort first (its short-circuit failure ends the whole
/// scope via `exit`), then each named cohort in order of first definition, each in its own block so that an
/// early exit stops only that cohort (upstream §2.1.3).
#[allow(clippy::too_many_arguments)]
fn checks_block(
    ctx: &Ctx<'_>,
    checks: &[Check],
    shape: &Shape,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
    is_return: bool,
    elem: &Option<RustTy>,
    typed: bool,
) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    let exit = if is_return {
        quote!(return)
    } else {
        quote!(break 'scope)
    };
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
    let first = cohort_code(ctx, &default, shape, new, old, path, elem, &exit, typed);
    let rest = named.iter().map(|(_, cs)| {
        let body = cohort_code(
            ctx,
            cs,
            shape,
            new,
            old,
            path,
            elem,
            &quote!(break 'cohort),
            typed,
        );
        quote!('cohort: { #body })
    });
    quote! { #first #(#rest)* }
}

#[allow(clippy::too_many_arguments)]
fn cohort_code(
    ctx: &Ctx<'_>,
    checks: &[&Check],
    shape: &Shape,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
    elem: &Option<RustTy>,
    exit: &TokenStream,
    typed: bool,
) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    let mut sc_part = Vec::new();
    let mut rest = Vec::new();
    for c in checks {
        let call = check_call(ctx, c, shape, new, old, path, elem);
        // upstream `ErrorBody` quotes a value of Go type `string` (`%q`) but renders a value of a named string type
        // (an enum, a typedef) as JSON: the checked value is such a value here.
        let call = if typed && typed_value_check(&c.kind) {
            quote!(::vgc_runtime::field::typed_values(#call))
        } else {
            call
        };
        let m = marks(c);
        let code = if matches!(
            c.kind,
            CheckKind::Subfield(_) | CheckKind::IfOption(_) | CheckKind::Item(_)
        ) {
            // Wrappers (upstream `validate.Subfield`, `validate.IfOption`) carry their inner function's flags; a
            // NonError wrapper (inherited checks, `…=+k8s:optional`) only stops the cohort, swallowing its errors.
            let call = eval_pair(ctx, c, shape, new, old, path, elem);
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
            let set = set_expr(shape, new);
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

/// Checks whose errors carry the checked value with its Go type (`Invalid`/`NotSupported` with `*value`): enums,
/// `neq`, and the formats whose upstream function reports `*value` ([`Format::reports_typed_value`]). Other checks
/// omit the value (Required, TooLong, …), carry numbers or lists, wrap inner checks, or — the other formats —
/// report `string(*value)`.
fn typed_value_check(k: &CheckKind) -> bool {
    match k {
        CheckKind::Enum(..) | CheckKind::Neq(_) => true,
        CheckKind::Format(f) => f.reports_typed_value(),
        _ => false,
    }
}

/// The generated expression naming `f`: `::vgc_runtime::formats::Format::<Variant>` (the variant's `Debug` name
/// is its identifier).
fn format_expr(f: Format) -> TokenStream {
    let variant = format_ident!("{}", format!("{f:?}"));
    quote!(::vgc_runtime::formats::Format::#variant)
}

/// True when a value of Rust type `t` (behind `Option`) is of a named Go type (a typedef, an enum type).
fn named_value(t: &RustTy) -> bool {
    match t {
        RustTy::Option(i, _) => named_value(i),
        RustTy::Named(_) => true,
        _ => false,
    }
}

fn check_call(
    ctx: &Ctx<'_>,
    c: &Check,
    shape: &Shape,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
    elem: &Option<RustTy>,
) -> TokenStream {
    let v = quote!(::vgc_runtime::validate);
    let set = set_expr(shape, new);
    let s = quote!(#new.map(|v| v.as_str()));
    let len = quote!(#new.map_or(0, |v| v.len()));
    match &c.kind {
        CheckKind::Required => quote!(#v::required(#path, #set)),
        CheckKind::Optional => quote!(::vgc_runtime::ErrorList::new()),
        CheckKind::Forbidden => quote!(#v::forbidden(#path, #set)),
        CheckKind::Minimum(n) => quote!(#v::minimum(#path, #new, #n)),
        CheckKind::Maximum(n) => quote!(#v::maximum(#path, #new, #n)),
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
                    let (m, _) = matcher_fns(ctx, matcher, elem.as_ref());
                    let f = if *ptr {
                        quote!(ptr_slice_update)
                    } else {
                        quote!(slice_update)
                    };
                    quote!(match #new { Some(n) => #v::#f(#path, op, n, #old.map_or(&[][..], |o| &o[..]), (#m).unwrap_or(|_, _| false), &[#(#cs),*]), None => ::vgc_runtime::ErrorList::new() })
                }
                Shape::Map => {
                    quote!(match #new { Some(n) => #v::map_update(#path, op, n, #old.unwrap_or(&::std::collections::BTreeMap::new()), &[#(#cs),*]), None => ::vgc_runtime::ErrorList::new() })
                }
                _ => {
                    let old_set = set_expr(shape, old);
                    let ptr = matches!(
                        shape,
                        Shape::Scalar { pointer: true, .. }
                            | Shape::Struct { pointer: true }
                            | Shape::Other { pointer: true }
                    );
                    quote!(#v::update_scalar(#path, op, #old.is_some(), #ptr, #old_set, #set, #new != #old, &[#(#cs),*]))
                }
            }
        }
        CheckKind::Unique(m) => {
            let (mf, _) = matcher_fns(ctx, m, elem.as_ref());
            let ptr = matches!(
                shape,
                Shape::List {
                    pointer_elems: true
                }
            );
            if ptr {
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::ptr_slice_unique(#path, n, (#mf).unwrap_or(|_, _| false))))
            } else {
                quote!(#new.map_or_else(::vgc_runtime::ErrorList::new, |n| #v::slice_unique(#path, n, (#mf).unwrap_or(|_, _| false))))
            }
        }
        CheckKind::EachVal(inner, m, elem_shape) => {
            let body = checks_block(
                ctx,
                inner,
                elem_shape,
                &quote!(Some(v)),
                &quote!(o),
                &quote!(p),
                false,
                &None,
                elem.as_ref().is_some_and(named_value),
            );
            let (mf, eq) = matcher_fns(ctx, m, elem.as_ref());
            match shape {
                // `map[K]*V` (1.38, upstream `EachPtrMapVal`): nil values are skipped (`PtrMapNoNils` reports them).
                Shape::Map if matches!(elem, Some(RustTy::Option(..))) => {
                    let deref = if matches!(elem, Some(RustTy::Option(_, Boxing::Boxed))) {
                        quote!(as_deref)
                    } else {
                        quote!(as_ref)
                    };
                    quote!({
                        let mut e = ::vgc_runtime::ErrorList::new();
                        if let Some(n) = #new { #v::each_map_val(op, #path, n, #old, Some(|a, b| a == b), |p, v, o, errs| {
                            if let Some(v) = v.#deref() {
                                let o = o.and_then(|o| o.#deref());
                                'scope: { #body }
                            }
                        }, &mut e); }
                        e
                    })
                }
                Shape::Map => quote!({
                    let mut e = ::vgc_runtime::ErrorList::new();
                    if let Some(n) = #new { #v::each_map_val(op, #path, n, #old, Some(|a, b| a == b), |p, v, o, errs| { 'scope: { #body } }, &mut e); }
                    e
                }),
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
            let call = subfield_call(ctx, sub, new, old, path);
            quote!((#call).0)
        }
        CheckKind::Union(u) => union_call(u, new, old, path),
        CheckKind::Dependent(d) => {
            let forbidden = d.forbidden;
            let (tr, tj, ts) = (&d.trigger.rust, &d.trigger.json, &d.trigger.shape);
            let (dr, dj, ds) = (&d.dependent.rust, &d.dependent.json, &d.dependent.shape);
            let (tset, dset) = (field_set(&quote!(o), tr, ts), field_set(&quote!(o), dr, ds));
            quote!(#v::dependent(#path, op, #forbidden,
                #tj, (#new.is_some_and(|o| #tset), #old.map(|o| #tset)),
                #dj, (#new.is_some_and(|o| #dset), #old.map(|o| #dset))))
        }
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
                    Shape::List { .. } | Shape::Map => quote!(#v::bad_value_collection(#new)),
                    _ => quote!(#v::bad_value_json(&#new)),
                };
                quote!(
                    ::std::vec![::vgc_runtime::Error::invalid(#path, #bad, #detail).with_origin("validateFalse")]
                )
            }
        }
        CheckKind::Custom { method, module, .. } => {
            let m = format_ident!("{method}");
            let segs = module.iter().map(|s| ident(s));
            quote!(<crate::custom::Custom as crate #(:: #segs)* ::Custom>::#m(op, #path, #new, #old))
        }
        CheckKind::Item(_) => {
            let pair = eval_pair(ctx, c, shape, new, old, path, elem);
            quote!((#pair).0)
        }
        CheckKind::ListUnion(u) => {
            // Member "set" = some element matches its selector. A nil or empty old list counts as no old value.
            let exists = |list: &TokenStream, sel: &vgc_lowering::plan::Selector| {
                let m = selector_match(sel, &quote!(x));
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
            let call = quote!(#v::#f(#path, op, #old.is_some_and(|o| !o.is_empty()), &[#(#new_set),*], &[#(#old_set),*], &[#(#names),*]));
            if u.union_origin || u.kind != vgc_lowering::plan::UnionKind::Union {
                call
            } else {
                quote!(#v::without_origin(#call))
            }
        }
        CheckKind::Discriminated(m) => discriminated_call(ctx, m, new, old, path),
        CheckKind::Neq(n) => match n {
            vgc_lowering::plan::NeqValue::Str(x) => quote!(#v::neq_str(#path, #s, #x)),
            vgc_lowering::plan::NeqValue::Int(i) => {
                let lit = proc_macro2::Literal::i64_unsuffixed(*i);
                quote!(#v::neq(#path, #new, #lit))
            }
            vgc_lowering::plan::NeqValue::Bool(b) => quote!(#v::neq(#path, #new, #b)),
        },
        CheckKind::IfOption(_) => {
            let pair = eval_pair(ctx, c, shape, new, old, path, elem);
            quote!((#pair).0)
        }
        CheckKind::EachKey(inner) => {
            let body = checks_block(
                ctx,
                inner,
                &Shape::Scalar {
                    ty: Builtin::String,
                    pointer: false,
                },
                &quote!(Some(k)),
                &quote!(None::<&::std::string::String>),
                &quote!(p),
                false,
                &None,
                false,
            );
            quote!({
                let mut e = ::vgc_runtime::ErrorList::new();
                if let Some(n) = #new { #v::each_map_key(op, #path, n, #old, |p, k, errs| { 'scope: { #body } }, &mut e); }
                e
            })
        }
    }
}

/// Tokens evaluating to `(ErrorList, bool)`: the errors of the wrapped check and whether it failed (for a
/// NonError inner check the errors are dropped but the failure still counts, as upstream's `len(e) != 0`).
fn subfield_call(
    ctx: &Ctx<'_>,
    sub: &vgc_lowering::plan::Subfield,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
) -> TokenStream {
    let member = ident(&sub.member);
    let json = &sub.json;
    let t = ctx.ty(&sub.ty);
    let (mv, mo) = (
        nilable_member(&quote!(s), &member, sub.pointer),
        nilable_member(&quote!(o), &member, sub.pointer),
    );
    let ic = &sub.inner;
    let inner = if ic.kind == CheckKind::Optional {
        let set = set_expr(&sub.shape, &quote!(new));
        quote! { failed = !(#set); }
    } else {
        let call = check_call(
            ctx,
            ic,
            &sub.shape,
            &quote!(new),
            &quote!(old_v),
            &quote!(&p),
            &sub.elem,
        );
        if ic.non_error || sub.inherited {
            quote! { failed = !(#call).is_empty(); }
        } else {
            quote! { e = #call; failed = !e.is_empty(); }
        }
    };
    quote!({
        let mut e = ::vgc_runtime::ErrorList::new();
        let mut failed = false;
        if let Some(s) = #new {
            let os = #old;
            let new: ::std::option::Option<&#t> = #mv;
            let old_v: ::std::option::Option<&#t> = os.and_then(|o| #mo);
            if !(op.is_update() && os.is_some() && new == old_v) {
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
fn eval_pair(
    ctx: &Ctx<'_>,
    c: &Check,
    shape: &Shape,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
    elem: &Option<RustTy>,
) -> TokenStream {
    match &c.kind {
        CheckKind::Optional => {
            let set = set_expr(shape, new);
            quote!((::vgc_runtime::ErrorList::new(), !(#set)))
        }
        CheckKind::Subfield(sub) => subfield_call(ctx, sub, new, old, path),
        CheckKind::Item(it) => {
            // upstream `ValSliceItem`/`PtrSliceItem`: the first matching new element and the first matching old one;
            // skipped on update when the old one exists and is equal; the inner check runs at `path[i]`.
            let t = ctx.ty(&it.elem);
            let m = selector_match(&it.selector, &quote!(x));
            let inner = eval_pair(
                ctx,
                &it.inner,
                &it.elem_shape,
                &quote!(new),
                &quote!(old_v),
                &quote!(&p),
                &None,
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
                        if !(op.is_update() && old_item.is_some_and(|o| o == item)) {
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
            let inner = eval_pair(ctx, &io.inner, shape, new, old, path, elem);
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
        _ => {
            let call = check_call(ctx, c, shape, new, old, path, elem);
            quote!({ let e: ::vgc_runtime::ErrorList = #call; let failed = !e.is_empty(); (e, failed) })
        }
    }
}

/// "Is this struct field set" on the struct reference `o` (upstream's member extractors: pointer non-nil, slice
/// or map non-empty, builtin non-zero).
fn field_set(o: &TokenStream, rust: &str, shape: &Shape) -> TokenStream {
    let f = ident(rust);
    match shape {
        Shape::Scalar { pointer: true, .. }
        | Shape::Struct { pointer: true }
        | Shape::Other { pointer: true } => {
            quote!(#o.#f.is_some())
        }
        Shape::List { .. } | Shape::Map => quote!(!#o.#f.is_empty()),
        _ => quote!(::vgc_runtime::validate::IsSet::is_set(&#o.#f)),
    }
}

/// `x.k1 == v1 && …` for an item selector over element reference `x` (pointer keys compare the pointee).
fn selector_match(sel: &vgc_lowering::plan::Selector, x: &TokenStream) -> TokenStream {
    use vgc_lowering::plan::NeqValue;
    let parts = sel.iter().map(|(f, ptr, v)| {
        let f = ident(f);
        let lit = match v {
            NeqValue::Str(s) => quote!(#s),
            NeqValue::Int(i) => {
                let l = proc_macro2::Literal::i64_unsuffixed(*i);
                quote!(#l)
            }
            NeqValue::Bool(b) => quote!(#b),
        };
        match (ptr, v) {
            (true, NeqValue::Str(_)) => quote!(#x.#f.as_deref() == Some(#lit)),
            (true, _) => quote!(#x.#f == Some(#lit)),
            (false, _) => quote!(#x.#f == #lit),
        }
    });
    quote!(true #(&& #parts)*)
}

/// The nilable form of struct member `member` of `obj` (`Option<&T>`): `as_deref` for boxed pointers, `as_ref`
/// for pointers, `Some(&…)` for values.
fn nilable_member(obj: &TokenStream, member: &Ident, pointer: Option<Boxing>) -> TokenStream {
    match pointer {
        Some(Boxing::Boxed) => quote!(#obj.#member.as_deref()),
        Some(Boxing::Inline) => quote!(#obj.#member.as_ref()),
        None => quote!(Some(&#obj.#member)),
    }
}

/// Stability marks only (calls inside wrappers are not marked short-circuit, spec §2.1.3).
fn stab_marks(st: Option<Stability>) -> TokenStream {
    match st {
        Some(Stability::Alpha) => quote!(.mark_alpha()),
        Some(Stability::Beta) => quote!(.mark_beta()),
        _ => TokenStream::new(),
    }
}

/// Upstream `MultiWrapperFunction`: the checks run in order (no short-circuit-first reordering); after the last
/// short-circuit check, a failure of any short-circuit check ends the wrapper. Emitted inside a closure over
/// `new`, `old_v`, `p` and `errs`.
fn multi_code(
    ctx: &Ctx<'_>,
    checks: &[Check],
    shape: &Shape,
    elem: &Option<RustTy>,
) -> TokenStream {
    let last_sc = checks.iter().rposition(|c| c.short_circuit);
    let mut code = Vec::new();
    if last_sc.is_some() {
        code.push(quote!(let mut early = false;));
    }
    for (i, c) in checks.iter().enumerate() {
        let pair = eval_pair(
            ctx,
            c,
            shape,
            &quote!(new),
            &quote!(old_v),
            &quote!(&p),
            elem,
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
fn discriminated_call(
    ctx: &Ctx<'_>,
    m: &vgc_lowering::plan::ModePlan,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
) -> TokenStream {
    let member = ident(&m.member);
    let json = &m.json;
    let t = ctx.ty(&m.ty);
    let (mv, mo) = (
        nilable_member(&quote!(s), &member, m.pointer),
        nilable_member(&quote!(o), &member, m.pointer),
    );
    let d = ident(&m.discriminator.0);
    let is_bool = m.discriminator.1;
    let disc = |o: TokenStream| {
        if is_bool {
            quote!(#o.#d)
        } else {
            quote!(#o.#d.as_str())
        }
    };
    let (dn, dold) = (disc(quote!(s)), disc(quote!(o)));
    let mut arms = Vec::new();
    for (value, checks) in &m.rules {
        let body = multi_code(ctx, checks, &m.shape, &m.elem);
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
        let set = set_expr(&m.shape, &quote!(new));
        let st = stab_marks(m.default_stability);
        arms.push(quote!(_ => { errs.extend(::vgc_runtime::validate::forbidden(&p, #set) #st); }));
    }
    quote!({
        let mut e = ::vgc_runtime::ErrorList::new();
        if let Some(s) = #new {
            let os = #old;
            let new: ::std::option::Option<&#t> = #mv;
            let old_v: ::std::option::Option<&#t> = os.and_then(|o| #mo);
            let disc = #dn;
            if !(op.is_update() && os.map(|o| #dold) == Some(disc) && new == old_v) {
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
fn union_call(
    u: &vgc_lowering::plan::UnionPlan,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
) -> TokenStream {
    use vgc_lowering::plan::UnionKind;
    let set = |obj: &TokenStream, m: &vgc_lowering::plan::UnionMemberPlan| {
        let f = ident(&m.rust_name);
        match m.shape {
            Shape::Scalar { pointer: true, .. }
            | Shape::Struct { pointer: true }
            | Shape::Other { pointer: true } => {
                quote!(#obj.is_some_and(|o| o.#f.is_some()))
            }
            Shape::List { .. } | Shape::Map => quote!(#obj.is_some_and(|o| !o.#f.is_empty())),
            _ => quote!(#obj.is_some_and(|o| ::vgc_runtime::validate::IsSet::is_set(&o.#f))),
        }
    };
    let new_set: Vec<TokenStream> = u.members.iter().map(|m| set(new, m)).collect();
    let old_set: Vec<TokenStream> = u.members.iter().map(|m| set(old, m)).collect();
    let v = quote!(::vgc_runtime::validate);
    let call = union_call_inner(u, &new_set, &old_set, new, old, path);
    // Before 1.36 `Union`/`DiscriminatedUnion` errors carry no origin (`zeroOrOneOf` had its own already).
    if u.union_origin || u.kind != UnionKind::Union {
        call
    } else {
        quote!(#v::without_origin(#call))
    }
}

fn union_call_inner(
    u: &vgc_lowering::plan::UnionPlan,
    new_set: &[TokenStream],
    old_set: &[TokenStream],
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
) -> TokenStream {
    use vgc_lowering::plan::UnionKind;
    let v = quote!(::vgc_runtime::validate);
    match (&u.discriminator, u.kind) {
        (Some((disc_rust, disc_json)), UnionKind::Union) => {
            let d = ident(disc_rust);
            let members = u.members.iter().map(|m| {
                let (j, n) = (&m.json, &m.member_name);
                quote!((#j, #n))
            });
            quote!(#v::discriminated_union(#path, op, #old.is_some(), #disc_json,
                #new.map_or("", |o| o.#d.as_str()), #old.map_or("", |o| o.#d.as_str()),
                &[#(#new_set),*], &[#(#old_set),*], &[#(#members),*]))
        }
        (_, kind) => {
            let names = u.members.iter().map(|m| &m.json);
            let f = if kind == UnionKind::Union {
                quote!(union)
            } else {
                quote!(zero_or_one_of)
            };
            quote!(#v::#f(#path, op, #old.is_some(), &[#(#new_set),*], &[#(#old_set),*], &[#(#names),*]))
        }
    }
}

fn iteration_code(
    ctx: &Ctx<'_>,
    it: &Iteration,
    shape: &Shape,
    new: &TokenStream,
    old: &TokenStream,
    path: &TokenStream,
    container: Option<&RustTy>,
) -> TokenStream {
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

fn field_code(ctx: &Ctx<'_>, f: &FieldPlan) -> TokenStream {
    let name = ident(&f.rust_name);
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
        &f.shape,
        &quote!(new),
        &quote!(old_v),
        &quote!(&p),
        false,
        &elem,
        named_value(&f.ty),
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
                &quote!(n),
                &quote!(old_v),
                &quote!(&p),
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

#[allow(dead_code)]
fn unused(_: WellKnown) {}

pub(crate) fn custom_stub(plan: &CratePlan, _opts: &Options) -> Option<GeneratedFile> {
    let layout = Layout::of(plan);
    let ctx = layout.ctx();
    let mut impls = Vec::new();
    for m in &plan.modules {
        let checks = custom_checks(m);
        if checks.is_empty() {
            continue;
        }
        let segs = m.module_path.iter().map(|s| ident(s));
        let fns = checks.iter().map(|(method, upstream, ty)| {
            let f = format_ident!("{method}");
            let t = ctx.ty(ty);
            let doc = format!(" Stub for upstream `{upstream}`: accepts every value. Replace with the real check.");
            quote! {
                #[doc = #doc]
                fn #f(_op: &::vgc_runtime::Operation, _path: &::vgc_runtime::Path<'_>, _value: ::std::option::Option<&#t>, _old: ::std::option::Option<&#t>) -> ::vgc_runtime::ErrorList {
                    ::vgc_runtime::ErrorList::new()
                }
            }
        });
        impls.push(quote!(impl crate #(:: #segs)* ::Custom for Custom { #(#fns)* }));
    }
    if impls.is_empty() {
        return None;
    }
    let tokens = quote! {
        //! Hand-written `+k8s:customValidation` functions, started by `vgc build --custom-stub`. vgc never
        //! overwrites this file. Every stub below accepts all values: replace the bodies with the real checks.
        /// The type the generated code calls for hand-written validations.
        pub struct Custom;
        #(#impls)*
    };
    let file: syn::File = syn::parse2(tokens).ok()?;
    Some(GeneratedFile {
        path: "src/custom.rs".into(),
        contents: prettyplease::unparse(&file),
        chunks: Vec::new(),
    })
}
