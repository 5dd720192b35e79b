//! `+k8s:customValidation`: the module's `Custom` trait and the stub `src/custom.rs` vgc offers once.

use super::*;

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

/// The module's `DeepEqual` trait when its package names a project deep-equality function
/// (`+k8s:validation-gen-deep-equal-func`, upstream 1.38, kubernetes#141808): generated code calls it wherever
/// upstream's calls the Go function (values that are not directly comparable: ratchets, set matching and
/// uniqueness, `eachVal`/`subfield`/`item`/mode equivalence). The user implements it for `crate::custom::Custom`.
pub(super) fn deep_equal_trait(m: &ModulePlan) -> TokenStream {
    let Some(go) = &m.deep_equal else {
        return TokenStream::new();
    };
    let doc = format!(
        " Stands for this package's deep-equality function, upstream `{go}` (`+k8s:validation-gen-deep-equal-func`, Go `func[T any](a, b T) bool`; upstream 1.38). Generated code calls it where upstream's calls the Go function: on values Go's `==` cannot compare, to decide whether a value is unchanged on update (ratcheting; `eachVal`, `subfield`, `item` and mode equivalence) and whether list items match (`listType=set` matching and uniqueness). Implement it for `crate::custom::Custom` in `src/custom.rs` (`vgc build --custom-stub` writes one with vgc's default, semantic equality)."
    );
    let fn_doc = format!(
        " upstream `{go}(a, b)`: whether `a` and `b` are equal. `None` is a nil Go pointer; `T` is the compared Go value's Rust type (downcast through `Any` to treat one type apart, as a Go function does with a type switch)."
    );
    quote! {
        #[doc = #doc]
        pub trait DeepEqual {
            #[doc = #fn_doc]
            fn deep_equal<T: ::std::any::Any + ::std::cmp::PartialEq>(a: ::std::option::Option<&T>, b: ::std::option::Option<&T>) -> bool;
        }
    }
}

pub(crate) fn custom_stub(plan: &CratePlan, opts: &Options) -> Option<GeneratedFile> {
    let layout = crate::layout_for(plan, opts.target);
    let ctx = layout.ctx();
    let mut impls = Vec::new();
    for m in &plan.modules {
        let module = ctx.module_of(&m.pkg);
        if let Some(go) = &m.deep_equal {
            let doc = format!(
                " Stub for upstream `{go}`: vgc's default, semantic equality (`validate.SemanticDeepEqual`). Replace with the project function's rule."
            );
            impls.push(quote! {
                impl #module ::DeepEqual for Custom {
                    #[doc = #doc]
                    fn deep_equal<T: ::std::any::Any + ::std::cmp::PartialEq>(a: ::std::option::Option<&T>, b: ::std::option::Option<&T>) -> bool {
                        a == b
                    }
                }
            });
        }
        let checks = custom_checks(m);
        if checks.is_empty() {
            continue;
        }
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
        //! Hand-written `+k8s:customValidation` functions (and project deep-equality functions), started by
        //! `vgc build --custom-stub`. vgc never overwrites this file. Every validation stub below accepts all
        //! values and every deep-equality stub is vgc's default equality: replace the bodies with the real rules.
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
