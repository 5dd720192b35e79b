//! `src/registry.rs`: GVK dispatch of the generated crate — an object's `apiVersion` and `kind` to the generated
//! type that decodes and validates it, as the API server's scheme dispatches a request to the validation
//! registered for its type.

use super::*;
use vgc_lowering::plan::KindRef;

/// The registry module of a crate whose kinds are `kinds` ([`vgc_lowering::plan::kinds`]): `KINDS`, `Kind`,
/// `DispatchError`, `validate_object` and `validate_value`. Written for every crate (a crate without kinds has an
/// empty table), so `registry` is always there to call.
pub(crate) fn registry_file(
    layout: &Layout,
    kinds: &[KindRef],
) -> Result<GeneratedFile, CodegenError> {
    let ctx = layout.ctx();
    let table = kinds.iter().map(|k| {
        let (group, version, kind) = (&k.group, &k.version, &k.kind);
        quote!(Kind { group: #group, version: #version, kind: #kind })
    });
    let arms = kinds.iter().map(|k| {
        let (api_version, kind) = (k.api_version(), &k.kind);
        let ty = ctx.path_of(&k.key);
        if k.validated {
            quote!((#api_version, #kind) => validate_as::<#ty>(object, old, op),)
        } else {
            quote!((#api_version, #kind) => decode_as::<#ty>(object, old),)
        }
    });
    // Kinds without validation code (no `Validate` impl) are decoded only: they have no rules.
    let decode_as = if kinds.iter().any(|k| !k.validated) {
        quote! {
            fn decode_as<T>(
                object: &::serde_json::Value,
                old: ::std::option::Option<&::serde_json::Value>,
            ) -> ::std::result::Result<::vgc_runtime::ErrorList, DispatchError>
            where
                T: ::serde::de::DeserializeOwned,
            {
                ::vgc_runtime::decode::decode::<T>(object).map_err(|e| DispatchError::decode(false, e))?;
                if let Some(o) = old {
                    ::vgc_runtime::decode::decode::<T>(o).map_err(|e| DispatchError::decode(true, e))?;
                }
                Ok(::vgc_runtime::ErrorList::new())
            }
        }
    } else {
        TokenStream::new()
    };
    // The k8s-openapi target's types implement the crate's own extension trait.
    let validate_trait = if layout.openapi.is_some() {
        quote!(crate::Validate)
    } else {
        quote!(::vgc_runtime::Validate)
    };
    // Without validated kinds nothing calls it (and the crate must build without warnings).
    let validate_as = if !kinds.iter().any(|k| k.validated) {
        TokenStream::new()
    } else {
        quote! {
        fn validate_as<T>(
            object: &::serde_json::Value,
            old: ::std::option::Option<&::serde_json::Value>,
            op: &::vgc_runtime::Operation,
        ) -> ::std::result::Result<::vgc_runtime::ErrorList, DispatchError>
        where
            T: ::serde::de::DeserializeOwned + #validate_trait,
        {
            let new = ::vgc_runtime::decode::decode::<T>(object).map_err(|e| DispatchError::decode(false, e))?;
            let old = match old {
                Some(o) => Some(::vgc_runtime::decode::decode::<T>(o).map_err(|e| DispatchError::decode(true, e))?),
                None => None,
            };
            Ok(#validate_trait::validate(&new, old.as_ref(), op))
        }
        }
    };
    // Only `validate_as`/`decode_as` build a decode error (and the crate must build without warnings).
    let decode_error = if kinds.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            impl DispatchError {
                fn decode(old: bool, e: ::vgc_runtime::decode::DecodeError) -> Self {
                    Self::Decode { old, path: e.path, error: e.error }
                }
            }
        }
    };
    // What the objects are decoded into: k8s-openapi's structs on that target, else the crate's own.
    let module_doc = if layout.openapi.is_some() {
        [
            " GVK dispatch: validates an object given as JSON by its `apiVersion` and `kind`, decoded into k8s-openapi's",
            " type of that kind — what the API server runs for a create or update of the object.",
        ]
    } else {
        [
            " GVK dispatch: validates an object given as JSON by its `apiVersion` and `kind`, with the generated type",
            " of that kind — what the API server runs for a create or update of the object.",
        ]
    };
    let decoded_into = if layout.openapi.is_some() {
        " `op` says: decodes it (and `old`) into the kind's k8s-openapi type and returns its errors, paths from"
    } else {
        " `op` says: decodes it (and `old`) into the kind's generated type and returns its errors, paths from"
    };
    let tokens = quote! {
        #(#![doc = #module_doc])*
        //!
        //! ```ignore
        //! let errs = registry::validate_value(&object, old.as_ref(), &op)?;
        //! if !errs.is_empty() {
        //!     let kind = registry::Kind::lookup(api_version, kind).unwrap();
        //!     let status = vgc_runtime::status::invalid(kind.group, kind.kind, name, &errs);
        //! }
        //! ```

        /// One kind this crate validates: a Go struct embedding `TypeMeta` inline, in a package whose
        /// `+groupName` (else the directory above the version) is `group`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Kind {
            /// The API group (`""` for the core group).
            pub group: &'static str,
            /// The version (`v1`, `v1beta2`).
            pub version: &'static str,
            /// The kind.
            pub kind: &'static str,
        }

        impl Kind {
            /// `group/version`, or just the version for the core group: an object's `apiVersion`.
            #[must_use]
            pub fn api_version(&self) -> ::std::string::String {
                if self.group.is_empty() {
                    self.version.to_string()
                } else {
                    format!("{}/{}", self.group, self.version)
                }
            }

            /// The kind an object's `apiVersion` and `kind` name, if this crate has it: `group/version`, or the
            /// bare version for the core group (`v1`, never `/v1`) — exactly the objects [`validate_object`]
            /// dispatches.
            #[must_use]
            pub fn lookup(api_version: &str, kind: &str) -> ::std::option::Option<&'static Kind> {
                KINDS.iter().find(|k| {
                    k.kind == kind
                        && match api_version.split_once('/') {
                            Some((group, version)) => !k.group.is_empty() && k.group == group && k.version == version,
                            None => k.group.is_empty() && k.version == api_version,
                        }
                })
            }
        }

        /// Every kind of the crate, sorted by group, version and kind.
        pub const KINDS: &[Kind] = &[#(#table),*];

        /// Why an object was not validated.
        #[derive(Debug)]
        pub enum DispatchError {
            /// The object is not a JSON object with non-empty string `apiVersion` and `kind`
            /// ([`validate_value`] only).
            NotAnObject(&'static str),
            /// No kind of the crate has this `apiVersion` and `kind`.
            UnknownKind {
                /// The object's `apiVersion`.
                api_version: ::std::string::String,
                /// The object's `kind`.
                kind: ::std::string::String,
            },
            /// The old object names another `apiVersion` or `kind` than the object ([`validate_value`] only; an old
            /// object without them is taken as the object's kind).
            OldKindMismatch {
                /// The old object's `apiVersion`.
                api_version: ::std::string::String,
                /// The old object's `kind`.
                kind: ::std::string::String,
            },
            /// A kube-rs `DynamicObject` without `types` (its `apiVersion` and `kind`), or with an empty one
            /// (`validate_dynamic_object` only, feature `kube`): nothing says which kind it is.
            MissingTypes,
            /// The object (`old: false`) or the old object (`old: true`) does not decode into the kind's type: a
            /// value of the wrong JSON type, as the API server's decoding rejects it before validation.
            Decode {
                /// Whether the old object failed.
                old: bool,
                /// Where in the object: JSON names, dot-separated, `[i]` for list items (`spec.replicas`); `.`
                /// for the object itself.
                path: ::std::string::String,
                /// serde_json's error.
                error: ::serde_json::Error,
            },
        }

        #decode_error

        impl ::std::fmt::Display for DispatchError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    Self::NotAnObject(why) => f.write_str(why),
                    Self::MissingTypes => f.write_str("the object has no apiVersion and kind (DynamicObject::types)"),
                    Self::UnknownKind { api_version, kind } => {
                        write!(f, "unknown kind {kind} of apiVersion {api_version}")
                    }
                    Self::OldKindMismatch { api_version, kind } => {
                        write!(f, "the old object is a {kind} of apiVersion {api_version}, not of the object's kind")
                    }
                    Self::Decode { old, path, error } => {
                        let which = if *old { "the old object" } else { "the object" };
                        if path == "." {
                            write!(f, "{which} does not decode: {error}")
                        } else {
                            write!(f, "{which} does not decode at {path}: {error}")
                        }
                    }
                }
            }
        }

        impl ::std::error::Error for DispatchError {
            fn source(&self) -> ::std::option::Option<&(dyn ::std::error::Error + 'static)> {
                match self {
                    Self::Decode { error, .. } => Some(error),
                    _ => None,
                }
            }
        }

        /// Validates `object` as the kind `api_version`/`kind` (with `old`, the object before an update), as
        #[doc = #decoded_into]
        /// the object's root. A kind without rules (in a package read but not generated for, such as
        /// `meta/v1` `Status`) is only decoded.
        ///
        /// # Errors
        /// [`DispatchError::UnknownKind`] when the crate has no such kind, [`DispatchError::Decode`] when a value
        /// has the wrong JSON type.
        pub fn validate_object(
            api_version: &str,
            kind: &str,
            object: &::serde_json::Value,
            old: ::std::option::Option<&::serde_json::Value>,
            op: &::vgc_runtime::Operation,
        ) -> ::std::result::Result<::vgc_runtime::ErrorList, DispatchError> {
            match (api_version, kind) {
                #(#arms)*
                _ => Err(DispatchError::UnknownKind {
                    api_version: api_version.to_string(),
                    kind: kind.to_string(),
                }),
            }
        }

        /// [`validate_object`] with the kind read from the object's own `apiVersion` and `kind`.
        ///
        /// # Errors
        /// [`DispatchError::NotAnObject`] when they are missing or not non-empty strings,
        /// [`DispatchError::OldKindMismatch`] when `old` has an `apiVersion` or `kind` that differs from the object's,
        /// else as [`validate_object`].
        pub fn validate_value(
            object: &::serde_json::Value,
            old: ::std::option::Option<&::serde_json::Value>,
            op: &::vgc_runtime::Operation,
        ) -> ::std::result::Result<::vgc_runtime::ErrorList, DispatchError> {
            let field = |name: &str| match object.get(name) {
                Some(::serde_json::Value::String(s)) if !s.is_empty() => Ok(s.as_str()),
                _ => Err(DispatchError::NotAnObject(
                    "an object must have non-empty string apiVersion and kind",
                )),
            };
            let (api_version, kind) = (field("apiVersion")?, field("kind")?);
            if let Some(o) = old {
                let other = |name: &str, this: &str| match o.get(name) {
                    Some(::serde_json::Value::String(s)) if !s.is_empty() && s != this => Some(s.clone()),
                    _ => None,
                };
                let (av, k) = (other("apiVersion", api_version), other("kind", kind));
                if av.is_some() || k.is_some() {
                    return Err(DispatchError::OldKindMismatch {
                        api_version: av.unwrap_or_else(|| api_version.to_string()),
                        kind: k.unwrap_or_else(|| kind.to_string()),
                    });
                }
            }
            validate_object(api_version, kind, object, old, op)
        }

        /// [`validate_value`] for a kube-rs [`DynamicObject`](::kube_core::DynamicObject) — what a kube-rs
        /// controller or admission webhook holds (`AdmissionRequest<DynamicObject>::object` and `old_object`): the
        /// kind is the object's `types` (`apiVersion` and `kind`), the object (and `old`) is validated as that
        /// kind's type, decoded from the object's JSON (`serde_json::to_value`). Pass `old` with
        /// [`Operation::update`](::vgc_runtime::Operation::update) for an update; an old object without `types` is
        /// taken as the object's kind.
        ///
        /// Needs the cargo feature `kube` of this crate (the optional dependency `kube-core`, whose k8s-openapi
        /// requirement is k8s-openapi 0.29; on vgc's own structs the including crate chooses k8s-openapi's
        /// version feature, as every kube-rs user does).
        ///
        /// ```ignore
        /// let errs = registry::validate_dynamic_object(&obj, None, &vgc_runtime::Operation::create())?;
        /// ```
        ///
        /// # Errors
        /// [`DispatchError::MissingTypes`] when the object has no (or an empty) `apiVersion` or `kind`,
        /// [`DispatchError::OldKindMismatch`] when `old` names another one, [`DispatchError::NotAnObject`] when its
        /// `data` is not a JSON object, else as [`validate_object`].
        #[cfg(feature = "kube")]
        pub fn validate_dynamic_object(
            obj: &::kube_core::DynamicObject,
            old: ::std::option::Option<&::kube_core::DynamicObject>,
            op: &::vgc_runtime::Operation,
        ) -> ::std::result::Result<::vgc_runtime::ErrorList, DispatchError> {
            let types = match &obj.types {
                Some(t) if !t.api_version.is_empty() && !t.kind.is_empty() => t,
                _ => return Err(DispatchError::MissingTypes),
            };
            if let Some(t) = old.and_then(|o| o.types.as_ref()) {
                let differs = |theirs: &str, ours: &str| !theirs.is_empty() && theirs != ours;
                let (av, k) = (differs(&t.api_version, &types.api_version), differs(&t.kind, &types.kind));
                if av || k {
                    return Err(DispatchError::OldKindMismatch {
                        api_version: if av { &t.api_version } else { &types.api_version }.clone(),
                        kind: if k { &t.kind } else { &types.kind }.clone(),
                    });
                }
            }
            // Serializing fails only when `data` is not a map (kube-core flattens it into the object).
            let json = |o: &::kube_core::DynamicObject| {
                ::serde_json::to_value(o)
                    .map_err(|_| DispatchError::NotAnObject("a DynamicObject's data must be a JSON object"))
            };
            let object = json(obj)?;
            let old = old.map(json).transpose()?;
            validate_object(&types.api_version, &types.kind, &object, old.as_ref(), op)
        }

        #validate_as
        #decode_as
    };
    let file: syn::File = syn::parse2(tokens).map_err(|e| CodegenError {
        module: "registry".into(),
        message: e.to_string(),
    })?;
    let (contents, chunks) = unparse_in_chunks(file);
    Ok(GeneratedFile {
        path: "src/registry.rs".into(),
        contents,
        chunks,
    })
}
