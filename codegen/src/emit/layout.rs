//! Where every generated item lives and how plan types are spelled in Rust: [`Layout`] (the crate's shape) and
//! the per-module context `Ctx`.

use super::*;

pub(super) fn ident(s: &str) -> Ident {
    match s.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(s, Span::call_site()),
    }
}

/// The Rust field of Go struct field `go` ([`crate::ident::field`]).
pub(super) fn field_ident(go: &str) -> Ident {
    ident(&crate::ident::field(go))
}

pub(super) struct Ctx<'a> {
    modules: &'a BTreeMap<String, Vec<String>>,
    types: &'a BTreeSet<TypeKey>,
    aliases: &'a BTreeMap<TypeKey, RustTy>,
    /// The k8s-openapi target's mapping; `None` for vgc's own structs.
    pub(super) openapi: Option<&'a crate::k8s_openapi::Mapping>,
    /// The module being emitted has a project deep-equality function ([`Layout::ctx_for`]).
    deep_equal: bool,
    /// [`Layout::not_comparable`].
    not_comparable: &'a BTreeSet<TypeKey>,
}

/// How a struct member is reached on the target's structs: its Rust field and whether the target wraps it in an
/// `Option` the Go type does not have (a k8s-openapi field the OpenAPI document does not require).
pub(super) struct Member {
    pub(super) ident: Ident,
    pub(super) wrapped: bool,
    /// An inline-embedded struct k8s-openapi flattens into the embedding struct (no field of its own).
    pub(super) inline: bool,
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
    /// The k8s-openapi target's mapping of Go types and fields (`None`: the crate defines its own structs).
    pub openapi: Option<crate::k8s_openapi::Mapping>,
    /// Packages with a project deep-equality function (`ModulePlan::deep_equal`): import path → the Go function
    /// as written. Their modules declare the `DeepEqual` trait and compare values that are not directly comparable
    /// through it.
    pub deep_equal: BTreeMap<String, String>,
    /// The generated types Go's `==` cannot compare (`vgc_lowering::plan::direct_comparable` is false), computed
    /// only when some package has a project deep-equality function (empty otherwise: nothing asks).
    pub not_comparable: BTreeSet<TypeKey>,
}

impl Layout {
    /// The layout of `plan`.
    pub fn of(plan: &CratePlan) -> Self {
        let mut l = Self::default();
        for m in &plan.modules {
            let module_path = crate::ident::module_path(&plan.go_module, &m.pkg);
            l.modules.insert(m.pkg.clone(), module_path.0.clone());
            l.types.extend(m.types.iter().map(|t| t.key.clone()));
            l.aliases.extend(
                m.types
                    .iter()
                    .filter_map(|t| Some((t.key.clone(), t.alias_of.clone()?))),
            );
            for i in 0..module_path.len() {
                l.children
                    .entry(module_path[..i].to_vec())
                    .or_default()
                    .insert(module_path[i].clone());
            }
            l.leaves.insert(module_path.0, m.pkg.clone());
            l.custom |= !custom_checks(m).is_empty();
            if let Some(f) = &m.deep_equal {
                l.deep_equal.insert(m.pkg.clone(), f.clone());
            }
        }
        if !l.deep_equal.is_empty() {
            l.not_comparable = plan.not_directly_comparable();
            l.custom = true;
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

    /// Every module file's module path (parents and leaves), sorted. The crate root (`[]`, `src/lib.rs`) is always
    /// one, so a plan with no types still gives a crate that builds (an empty library).
    pub fn module_paths(&self) -> Vec<Vec<String>> {
        let mut all: BTreeSet<Vec<String>> = self.children.keys().cloned().collect();
        all.insert(Vec::new());
        all.extend(self.leaves.keys().cloned());
        all.into_iter().collect()
    }

    pub(super) fn ctx(&self) -> Ctx<'_> {
        Ctx {
            modules: &self.modules,
            types: &self.types,
            aliases: &self.aliases,
            openapi: self.openapi.as_ref(),
            deep_equal: false,
            not_comparable: &self.not_comparable,
        }
    }

    /// [`Layout::ctx`] for emitting the items of package `pkg`'s module: equality goes through its `DeepEqual`
    /// trait where the package has a project deep-equality function.
    pub(super) fn ctx_for(&self, pkg: &str) -> Ctx<'_> {
        Ctx {
            deep_equal: self.deep_equal.contains_key(pkg),
            ..self.ctx()
        }
    }
}

/// `::k8s_openapi::api::apps::v1::Deployment` for the model path `api::apps::v1::Deployment`.
pub(super) fn openapi_path(path: &str) -> TokenStream {
    let segs = path.split("::").map(ident);
    quote!(::k8s_openapi #(:: #segs)*)
}

impl Ctx<'_> {
    /// The named struct type a value of Rust type `t` is (through `Option` and typedefs), if any.
    pub(super) fn struct_of<'t>(&'t self, t: &'t RustTy) -> Option<&'t TypeKey> {
        match self.through_typedefs(t) {
            RustTy::Option(i, _) => self.struct_of(i),
            RustTy::Named(k) => Some(k),
            _ => None,
        }
    }

    /// Struct member `go` of `owner` (the struct type, when known) on the target's structs.
    pub(super) fn member(&self, owner: Option<&TypeKey>, go: &str) -> Member {
        if let (Some(map), Some(owner)) = (self.openapi, owner)
            && let Some((rust, wrapped)) = map.fields.get(&(owner.clone(), go.to_string()))
        {
            return Member {
                ident: if rust.is_empty() {
                    field_ident(go)
                } else {
                    ident(rust)
                },
                wrapped: *wrapped,
                inline: rust.is_empty(),
            };
        }
        Member {
            ident: field_ident(go),
            wrapped: false,
            inline: false,
        }
    }

    /// `a == b` for two `Option<&T>` values as upstream compares them for ratcheting (`equality.Semantic`): the
    /// derived equality of vgc's own structs, the generated `crate::semantic` equality on k8s-openapi's.
    pub(super) fn eq_opt(&self, a: &TokenStream, b: &TokenStream) -> TokenStream {
        if self.openapi.is_some() {
            quote!(crate::semantic::opt_eq(#a, #b))
        } else {
            quote!(#a == #b)
        }
    }

    /// `a != b` for two `Option<&T>` values (see [`Ctx::eq_opt`]).
    pub(super) fn ne_opt(&self, a: &TokenStream, b: &TokenStream) -> TokenStream {
        if self.openapi.is_some() {
            quote!(!crate::semantic::opt_eq(#a, #b))
        } else {
            quote!(#a != #b)
        }
    }

    /// `a == b` for two `&T` values (see [`Ctx::eq_opt`]).
    pub(super) fn eq_ref(&self, a: &TokenStream, b: &TokenStream) -> TokenStream {
        if self.openapi.is_some() {
            quote!(crate::semantic::GoEq::go_eq(#a, #b))
        } else {
            quote!(#a == #b)
        }
    }

    /// [`Ctx::eq_opt`] where upstream 1.38 calls the package's deep-equality function on values that are not
    /// directly comparable (the ratchet `emitRatchetingCheck`, a `DeepEqualFunc{}` argument): in a module with a
    /// project function and for such a `ty` (the compared values' plan type), the module's `DeepEqual` trait.
    pub(super) fn deep_eq_opt(&self, ty: &RustTy, a: &TokenStream, b: &TokenStream) -> TokenStream {
        if self.project_deep_equal(ty) {
            quote!(<crate::custom::Custom as DeepEqual>::deep_equal(#a, #b))
        } else {
            self.eq_opt(a, b)
        }
    }

    /// [`Ctx::eq_ref`] where upstream calls the package's deep-equality function (see [`Ctx::deep_eq_opt`]).
    pub(super) fn deep_eq_ref(&self, ty: &RustTy, a: &TokenStream, b: &TokenStream) -> TokenStream {
        if self.project_deep_equal(ty) {
            quote!(<crate::custom::Custom as DeepEqual>::deep_equal(::std::option::Option::Some(#a), ::std::option::Option::Some(#b)))
        } else {
            self.eq_ref(a, b)
        }
    }

    /// Whether values of `ty` are compared by the module's project deep-equality function: the module has one and
    /// Go's `==` cannot compare them (one pointer at the top stripped, as upstream's `util.NonPointer`).
    pub(super) fn project_deep_equal(&self, ty: &RustTy) -> bool {
        self.deep_equal
            && !vgc_lowering::plan::direct_comparable(ty, &|k| !self.not_comparable.contains(k))
    }

    /// `crate::semantic`'s equality of the inline-embedded struct of virtual type `v` (k8s-openapi target):
    /// `eq_<module path>_<type>`, unique across packages.
    pub(super) fn inline_eq_fn(&self, v: &TypeKey) -> Ident {
        let module = self.modules.get(&v.pkg).cloned().unwrap_or_default();
        format_ident!("eq_{}_{}", module.join("_"), snake(&v.name))
    }

    pub(super) fn path_of(&self, k: &TypeKey) -> TokenStream {
        if let Some(map) = self.openapi {
            return match (map.types.get(k), self.aliases.get(k)) {
                (Some(p), _) => openapi_path(p),
                (None, Some(a)) => self.ty(a),
                (None, None) => quote!(::serde_json::Value),
            };
        }
        let segs = self.modules.get(&k.pkg).cloned().unwrap_or_default();
        let segs = segs.iter().map(|s| ident(s));
        let name = ident(&crate::ident::type_name(&k.name));
        quote!(crate #(:: #segs)* :: #name)
    }
    /// The element type of a list or map value of type `t`, looking through typedefs (and typedefs of typedefs).
    pub(super) fn elem_of(&self, t: &RustTy) -> Option<RustTy> {
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
    /// `t` with typedefs (and typedefs of typedefs) replaced by what they alias (`Items` → `Vec<Item>`).
    pub(super) fn through_typedefs<'t>(&'t self, t: &'t RustTy) -> &'t RustTy {
        let mut t = t;
        for _ in 0..16 {
            match t {
                RustTy::Named(k) => match self.aliases.get(k) {
                    Some(a) => t = a,
                    None => return t,
                },
                _ => return t,
            }
        }
        t
    }
    pub(super) fn fn_of(&self, k: &TypeKey) -> TokenStream {
        let segs = self.modules.get(&k.pkg).cloned().unwrap_or_default();
        let segs = segs.iter().map(|s| ident(s));
        let f = ident(&crate::ident::validate_fn(k));
        quote!(crate #(:: #segs)* :: #f)
    }
    /// The Rust path of the module generated for Go package `pkg` (`crate::apps::v1`).
    pub(super) fn module_of(&self, pkg: &str) -> TokenStream {
        let segs = self.modules.get(pkg).cloned().unwrap_or_default();
        let segs = segs.iter().map(|s| ident(s));
        quote!(crate #(:: #segs)*)
    }
    pub(super) fn ty(&self, t: &RustTy) -> TokenStream {
        if self.openapi.is_some() {
            return self.openapi_ty(t);
        }
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

impl Ctx<'_> {
    /// [`Ctx::ty`] on the k8s-openapi target: k8s-openapi's types (`Option` only where Go has a pointer; the
    /// struct fields' own `Option`s are handled where members are read).
    fn openapi_ty(&self, t: &RustTy) -> TokenStream {
        match t {
            RustTy::Builtin(b) => builtin(*b),
            RustTy::Named(k) => self.path_of(k),
            RustTy::Json => quote!(::serde_json::Value),
            RustTy::WellKnown(w) => {
                let p = crate::k8s_openapi::well_known(*w);
                match p {
                    "std::string::String" => quote!(::std::string::String),
                    p => openapi_path(p),
                }
            }
            RustTy::Option(i, _) => {
                let i = self.openapi_ty(i);
                quote!(::std::option::Option<#i>)
            }
            RustTy::Vec(i) => {
                let i = self.openapi_ty(i);
                quote!(::std::vec::Vec<#i>)
            }
            RustTy::Map(v) => {
                let v = self.openapi_ty(v);
                quote!(::std::collections::BTreeMap<::std::string::String, #v>)
            }
        }
    }
}

pub(super) fn builtin(b: Builtin) -> TokenStream {
    match b {
        Builtin::Bool => quote!(bool),
        Builtin::String => quote!(::std::string::String),
        Builtin::Int | Builtin::Int64 | Builtin::Duration => quote!(i64),
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
