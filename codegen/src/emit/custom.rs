//! `+k8s:customValidation`: the module's `Custom` trait and the stub `src/custom.rs` vgc offers once.

use super::*;

/// Every `customValidation` check of a module that the user implements: (method, upstream name, value type), sorted
/// by method. Uses with a runtime port (`vgc_runtime::k8s::port`: k8s.io/api's and apimachinery's own functions)
/// call the port and are not part of the `Custom` trait.
pub(crate) fn custom_checks(m: &ModulePlan) -> Vec<(String, String, RustTy)> {
    let mut out = Vec::new();
    let mut custom = |c: &Check| {
        if let CheckKind::Custom {
            owner,
            field,
            upstream,
            ty,
        } = &c.kind
            && vgc_runtime::k8s::port(&owner.pkg, &owner.name, field.as_deref()).is_none()
        {
            out.push((
                crate::ident::custom_method(owner, field.as_deref()),
                upstream.clone(),
                ty.clone(),
            ));
        }
    };
    for t in &m.types {
        let fields = t.fields.iter().flatten().flat_map(|f| &f.checks);
        for c in t.checks.iter().chain(fields) {
            c.walk(&mut custom);
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The module's `Custom` trait: one associated function per `+k8s:customValidation` use. The user implements it
/// for `crate::custom::Custom` in their own `src/custom.rs`; a missing function is a compile error naming it.
pub(super) fn custom_trait(ctx: &Ctx<'_>, m: &ModulePlan) -> TokenStream {
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

pub(crate) fn custom_stub(plan: &CratePlan, opts: &Options) -> Option<GeneratedFile> {
    let layout = crate::layout_for(plan, opts.target);
    let ctx = layout.ctx();
    let mut impls = Vec::new();
    for m in &plan.modules {
        let checks = custom_checks(m);
        if checks.is_empty() {
            continue;
        }
        let module = ctx.module_of(&m.pkg);
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
        impls.push(quote!(impl #module ::Custom for Custom { #(#fns)* }));
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
