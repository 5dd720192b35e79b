//! The identifier policy: how Go names become Rust names in the generated crate. The plan carries Go and JSON
//! names only; every Rust spelling is decided here (prost-build keeps keyword sanitising in its generator the same
//! way, `prost-build/src/ident.rs`), and read by the other consumers that name generated items (the docs site's
//! page paths, the test harnesses that call generated functions).

use vgc_analysis::TypeKey;
use vgc_ir::diagnostic::{Code, Diagnostic};
use vgc_lowering::CratePlan;

/// True for a Rust keyword (strict, reserved or edition-2024) that an identifier must not spell bare: a field
/// takes the raw form `r#type`, a module segment a trailing `_`.
#[must_use]
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

/// `s` with every character a Rust identifier cannot hold (outside XID_Continue, such as U+2E2F `ⸯ`, which Go takes
/// as a letter) written as `_u<hex>_` (`XⸯY` → `X_u2e2f_Y`): the generated name stays an identifier and distinct
/// from the Go name's other spellings (R60).
fn xid_safe(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars()
        .all(|c| c == '_' || unicode_ident::is_xid_continue(c))
    {
        return s.into();
    }
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c == '_' || unicode_ident::is_xid_continue(c) {
            o.push(c);
        } else {
            o.push_str(&format!("_u{:x}_", u32::from(c)));
        }
    }
    o.into()
}

/// `snake_case` of a Go identifier: an underscore before an upper-case letter that follows a lower-case letter or
/// digit, or that starts a word after an acronym (`ObjectMeta` → `object_meta`, `APIVersion` → `api_version`,
/// `IPv6` → `i_pv6`). Underscores already in the name are kept and add none (`Foo_Bar` → `foo_bar`, as `FooBar`).
#[must_use]
pub fn snake(s: &str) -> String {
    let s = xid_safe(s);
    let cs: Vec<char> = s.chars().collect();
    let mut o = String::new();
    for (i, c) in cs.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower = i > 0 && (cs[i - 1].is_lowercase() || cs[i - 1].is_ascii_digit());
            let next_lower = cs.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0 && (prev_lower || (next_lower && cs[i - 1].is_uppercase())) {
                o.push('_');
            }
            o.extend(c.to_lowercase());
        } else {
            o.push(*c);
        }
    }
    o
}

/// The Rust field name of a Go struct field (its Go identifier; an embedded field's is its type name): [`snake`],
/// as a raw identifier when that is a keyword (`Type` → `r#type`), with a trailing `_` for the names a raw
/// identifier cannot spell (`self`, `super`, `crate`, `_`).
#[must_use]
pub fn field(go: &str) -> String {
    let s = snake(go);
    if matches!(s.as_str(), "self" | "super" | "crate" | "_") {
        format!("{s}_")
    } else if is_keyword(&s) {
        format!("r#{s}")
    } else {
        s
    }
}

/// The name of the validation function generated for a type (`validate_<snake>`).
#[must_use]
pub fn validate_fn(ty: &TypeKey) -> String {
    format!("validate_{}", snake(&ty.name))
}

/// The method of the generated `Custom` trait that stands for upstream's hand-written `ValidateCustom_<Type>`
/// (type scope, `field` = `None`) or `ValidateCustom_<Type>_<GoField>` (field scope): `validate_custom_<type>` /
/// `validate_custom_<type>_<field>`, each part in [`snake`] case.
#[must_use]
pub fn custom_method(owner: &TypeKey, field: Option<&str>) -> String {
    match field {
        Some(go) => format!("validate_custom_{}_{}", snake(&owner.name), snake(go)),
        None => format!("validate_custom_{}", snake(&owner.name)),
    }
}

/// The Rust module path (segments from the crate root) of Go package `pkg` in a crate generated for the Go module
/// `go_module`: its path relative to the main module for the module's own packages (`root` for the module's root
/// package), `ext::<import path>` for others; each segment lower-cased with every character outside `[a-z0-9]`
/// as `_`, a leading digit prefixed with `_`, and a keyword (or `crate`/`self`/`super`) suffixed with `_`. A first
/// segment that would clash with a crate-root module vgc declares itself (`custom` for the hand-written
/// `customValidation` functions, `registry` for the GVK dispatch, `ext`, `root`) gets a trailing `_`
/// (`custom/v1` → `custom_::v1`).
#[must_use]
pub fn module_path(go_module: &str, pkg: &str) -> ModulePath {
    let rel = if pkg == go_module {
        Some("")
    } else {
        pkg.strip_prefix(go_module)
            .and_then(|r| r.strip_prefix('/'))
    };
    ModulePath(match rel {
        Some("") => vec!["root".to_string()],
        Some(r) => r
            .split('/')
            .map(module_segment)
            .enumerate()
            .map(|(i, s)| {
                if i == 0 && matches!(s.as_str(), "custom" | "registry" | "ext" | "root") {
                    s + "_"
                } else {
                    s
                }
            })
            .collect(),
        None => std::iter::once("ext".to_string())
            .chain(pkg.split('/').map(module_segment))
            .collect(),
    })
}

/// A generated module's path below the crate root, one Rust identifier per segment (`["apps", "v1"]`; decided
/// by [`module_path`] from the Go import path). Derefs to the segments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModulePath(pub Vec<String>);

impl std::ops::Deref for ModulePath {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
    }
}

impl std::fmt::Display for ModulePath {
    /// The Rust path within the crate, `apps::v1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("::"))
    }
}

fn module_segment(s: &str) -> String {
    let mut o: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if o.starts_with(|c: char| c.is_ascii_digit()) {
        o.insert(0, '_');
    }
    if is_keyword(&o) || o == "crate" || o == "self" || o == "super" {
        o.push('_');
    }
    o
}

/// The Rust name of a Go type: as written, as a raw identifier when it is a keyword (`match` → `r#match`), with a
/// trailing `_` for the keywords a raw identifier cannot spell (`Self`, `self`, `crate`, `super`).
#[must_use]
pub fn type_name(go: &str) -> String {
    let go = &*xid_safe(go);
    if matches!(go, "Self" | "self" | "crate" | "super") {
        format!("{go}_")
    } else if is_keyword(go) {
        format!("r#{go}")
    } else {
        go.to_string()
    }
}

/// The name of the routed entry point generated for a typedef root (`validate_<snake>_request`): a typedef cannot
/// implement `Validate`, so its registered validation is a function.
#[must_use]
pub fn request_fn(ty: &TypeKey) -> String {
    format!("{}_request", validate_fn(ty))
}

/// The trait a module declares for its hand-written `+k8s:customValidation` functions.
pub const CUSTOM_TRAIT: &str = "Custom";

/// The trait a module declares for its project deep-equality function (`+k8s:validation-gen-deep-equal-func`,
/// upstream 1.38).
pub const DEEP_EQUAL_TRAIT: &str = "DeepEqual";

/// R33: names that differ in Go but agree in Rust would generate a crate that does not compile, or one that loses a
/// package. Each clash is a `VGC0113` error at the later of the two declarations in source order, naming the
/// other, with a hint to rename one:
/// - two packages whose module paths agree (`my-api/v1` and `my_api/v1`; `custom` and `custom_`), at the first type
///   of the later package;
/// - two items of one module: types (`Self` is spelled `Self_`, so `Self` and `Self_` clash), the `Custom` trait of
///   a module with `customValidation` functions and a type named `Custom` (the `DeepEqual` trait of a module with
///   a project deep-equality function and a type named `DeepEqual`), validation functions (`FooBar` and
///   `Foo_Bar` both give `validate_foo_bar`; the entry point `validate_names_request` of a typedef root `Names` and
///   the function of a type `NamesRequest`);
/// - two fields of one struct whose Rust fields agree (`URL` and `Url` both give `url`), at the later field.
#[must_use]
pub fn name_collisions<'a>(db: &dyn vgc_ir::Db, plan: &'a CratePlan) -> Vec<Diagnostic> {
    let prog = vgc_analysis::loaded_program(db);
    // (file, byte offset) of a type declaration, for ordering and placing.
    let place = |k: &TypeKey| -> Option<(String, std::ops::Range<usize>)> {
        let (decl, file) = prog.type_decl(db, k)?;
        Some((
            file.path(db).clone(),
            vgc_ir::db::span_of(db, file, decl.at),
        ))
    };
    let mut diags = Vec::new();
    let mut field_clashes = Vec::new();
    // Report `second` (the later in source order of the two) as clashing with `first`. Each side is what it is
    // and the type it comes from (none for the `Custom` trait), placed only here: clashes are rare, and placing
    // every type of k8s.io/api up front took about 5 ms of a cold build on one thread.
    let mut clash =
        |a: (String, Option<&TypeKey>), b: (String, Option<&TypeKey>), rust: &str, hint: &str| {
            let a = (a.0, a.1.and_then(&place));
            let b = (b.0, b.1.and_then(&place));
            let key = |p: &Option<(String, std::ops::Range<usize>)>| {
                p.as_ref().map(|(f, s)| (f.clone(), s.start))
            };
            let (first, second) = if key(&a.1) <= key(&b.1) {
                (a, b)
            } else {
                (b, a)
            };
            let mut d = Diagnostic::error(
                Code::RustNameClash,
                format!("{} and {} both become {rust} in Rust", first.0, second.0),
            )
            .with_hint(hint);
            if let Some((file, span)) = second.1 {
                d = d.at(file, span);
            }
            diags.push(d);
        };
    let mut modules: std::collections::BTreeMap<ModulePath, &vgc_lowering::plan::ModulePlan> =
        std::collections::BTreeMap::new();
    for m in &plan.modules {
        let path = module_path(&plan.go_module, &m.pkg);
        if let Some(other) = modules.get(&path) {
            let at = |m: &'a vgc_lowering::plan::ModulePlan| m.types.first().map(|t| &t.key);
            clash(
                (format!("package {}", other.pkg), at(other)),
                (format!("package {}", m.pkg), at(m)),
                &format!("the module `{path}`"),
                "rename one of the package directories: module paths keep lower-case letters, digits and `_`",
            );
            continue;
        }
        modules.insert(path, m);
    }
    for m in modules.values() {
        let custom = !custom_checks(m).is_empty();
        // Rust name → (what, Go type), per namespace.
        type Seen<'k> = std::collections::HashMap<String, (String, Option<&'k TypeKey>)>;
        let mut types: Seen<'_> = Seen::new();
        let mut fns: Seen<'_> = Seen::new();
        if custom {
            types.insert(
                CUSTOM_TRAIT.to_string(),
                ("the `customValidation` trait".into(), None),
            );
        }
        if m.deep_equal.is_some() {
            types.insert(
                DEEP_EQUAL_TRAIT.to_string(),
                ("the `validation-gen-deep-equal-func` trait".into(), None),
            );
        }
        for t in &m.types {
            let mut item = |seen: &mut Seen<'a>, rust: String, what: String, hint: &str| {
                let entry = (what, Some(&t.key));
                if let Some(other) = seen.get(&rust).cloned() {
                    clash(other, entry, &format!("`{rust}`"), hint);
                } else {
                    seen.insert(rust, entry);
                }
            };
            item(
                &mut types,
                type_name(&t.key.name),
                format!("type {}", t.key.name),
                "rename one of the types",
            );
            item(
                &mut fns,
                validate_fn(&t.key),
                format!("type {}", t.key.name),
                "rename one of the types",
            );
            if t.fields.is_none() && t.subresources.is_some() && t.has_validations {
                item(
                    &mut fns,
                    request_fn(&t.key),
                    format!("typedef root {}", t.key.name),
                    "rename one of the types",
                );
            }
            let mut fields: std::collections::HashMap<String, &str> =
                std::collections::HashMap::new();
            for fp in t.fields.iter().flatten() {
                let rust = field(&fp.go_field);
                let Some(first) = fields.insert(rust.clone(), &fp.go_field) else {
                    continue;
                };
                let Some((decl, file)) = prog.type_decl(db, &t.key) else {
                    continue;
                };
                let offset = decl
                    .fields
                    .iter()
                    .find(|f| vgc_lowering::go_field_name(f).as_deref() == Some(&fp.go_field))
                    .map_or(decl.at, |f| f.at);
                let owner = &t.key.name;
                field_clashes.push(
                    Diagnostic::error(
                        Code::RustNameClash,
                        format!(
                            "fields {owner}.{first} and {owner}.{} both become the Rust field `{rust}`",
                            fp.go_field
                        ),
                    )
                    .at(file.path(db).clone(), vgc_ir::db::span_of(db, file, offset))
                    .with_hint("rename one of the fields"),
                );
            }
        }
    }
    diags.extend(field_clashes);
    diags
}

/// R40: two packages declaring the same group, version and kind ([`vgc_lowering::plan::shadowed_kinds`]). The
/// generated registry and `vgc validate` dispatch an `apiVersion`/`kind` to one type — the first by import path —
/// so each later declaration is a `VGC0114` warning at its type, naming the package that wins and the
/// `apiVersion`/`kind` it can no longer be reached by. The shadowed type keeps its generated `Validate` impl.
#[must_use]
pub fn kind_collisions(db: &dyn vgc_ir::Db, plan: &CratePlan) -> Vec<Diagnostic> {
    let prog = vgc_analysis::loaded_program(db);
    vgc_lowering::plan::shadowed_kinds(&plan.modules)
        .into_iter()
        .map(|(kept, shadowed)| {
            let mut d = Diagnostic::warning(
                Code::DuplicateKind,
                format!(
                    "packages {} and {} both declare the kind {} {}; GVK dispatch (the generated registry, `vgc validate`) uses the type of {} and never reaches this one",
                    kept.key.pkg,
                    shadowed.pkg,
                    kept.api_version(),
                    kept.kind,
                    kept.key.pkg,
                ),
            )
            .with_hint("give one of the packages another `+groupName` or version, or build them separately");
            if let Some((decl, file)) = prog.type_decl(db, &shadowed) {
                d = d.at(file.path(db).clone(), vgc_ir::db::span_of(db, file, decl.at));
            }
            d
        })
        .collect()
}

/// R45: what the k8s-openapi target lacks ([`crate::k8s_openapi::Mapping::of`]'s problems) as `VGC0121` errors, at
/// the Go field (or type) that needs it, sorted by place.
#[must_use]
pub fn k8s_openapi_coverage(
    db: &dyn vgc_ir::Db,
    plan: &CratePlan,
    version: crate::k8s_openapi::K8sOpenapiVersion,
) -> Vec<Diagnostic> {
    let prog = vgc_analysis::loaded_program(db);
    let (_, problems) = crate::k8s_openapi::Mapping::of(plan, version);
    problems
        .into_iter()
        .map(|p| {
            let mut d = if p.left_out {
                Diagnostic::warning(Code::K8sOpenapiKindLeftOut, p.message)
            } else {
                Diagnostic::error(Code::K8sOpenapiMissing, p.message)
            }
            .with_hint(p.hint);
            if let Some((decl, file)) = prog.type_decl(db, &p.key) {
                let offset = p
                    .field
                    .as_deref()
                    .and_then(|go| {
                        decl.fields
                            .iter()
                            .find(|f| vgc_lowering::go_field_name(f).as_deref() == Some(go))
                    })
                    .map_or(decl.at, |f| f.at);
                d = d.at(file.path(db).clone(), vgc_ir::db::span_of(db, file, offset));
            }
            d
        })
        .collect()
}

/// Every `customValidation` check of a module that the user implements: (method, upstream name, value type), sorted
/// by method. Uses with a runtime port (`vgc_runtime::k8s::port`: k8s.io/api's and apimachinery's own functions)
/// call the port and are not part of the `Custom` trait.
pub(crate) fn custom_checks(
    m: &vgc_lowering::plan::ModulePlan,
) -> Vec<(String, String, vgc_lowering::plan::RustTy)> {
    let mut out = Vec::new();
    let mut custom = |c: &vgc_lowering::plan::Check| {
        if let vgc_lowering::plan::CheckKind::Custom {
            owner,
            field,
            upstream,
            ty,
        } = &c.kind
            && vgc_runtime::k8s::port(&owner.pkg, &owner.name, field.as_deref()).is_none()
        {
            out.push((
                custom_method(owner, field.as_deref()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_names_become_rust_names() {
        assert_eq!(snake("ObjectMeta"), "object_meta");
        assert_eq!(snake("APIVersion"), "api_version");
        assert_eq!(snake("IPv6Address"), "i_pv6_address");
        assert_eq!(snake("Foo_Bar"), "foo_bar");
        assert_eq!(snake("FooBar"), "foo_bar");
        assert_eq!(field("Type"), "r#type");
        assert_eq!(field("Self"), "self_");
        assert_eq!(field("Crate"), "crate_");
        assert_eq!(field("Replicas"), "replicas");
    }

    #[test]
    fn type_names_that_are_keywords_are_escaped() {
        assert_eq!(type_name("Widget"), "Widget");
        assert_eq!(type_name("match"), "r#match");
        assert_eq!(type_name("Self"), "Self_");
        assert_eq!(type_name("crate"), "crate_");
        // Every escaped name is a Rust identifier.
        for go in [
            "match", "Self", "self", "crate", "super", "type", "gen", "Widget",
        ] {
            let rust = type_name(go);
            let tokens: proc_macro2::TokenStream = rust.parse().expect("an identifier");
            assert!(syn::parse2::<syn::Ident>(tokens).is_ok(), "{go} -> {rust}");
        }
    }

    #[test]
    fn module_paths_follow_the_go_import_path() {
        let m = "example.com/api";
        assert_eq!(*module_path(m, m), ["root"]);
        assert_eq!(*module_path(m, "example.com/api/apps/v1"), ["apps", "v1"]);
        assert_eq!(
            *module_path(m, "example.com/api/custom/v1"),
            ["custom_", "v1"]
        );
        assert_eq!(*module_path(m, "example.com/api/type/2x"), ["type_", "_2x"]);
        assert_eq!(
            *module_path(m, "k8s.io/api/core/v1"),
            ["ext", "k8s_io", "api", "core", "v1"]
        );
        // A prefix that is not a path boundary is another module.
        assert_eq!(
            *module_path(m, "example.com/apix/v1"),
            ["ext", "example_com", "apix", "v1"]
        );
    }

    #[test]
    fn custom_methods_name_type_and_field() {
        let t = TypeKey {
            pkg: "p".into(),
            name: "EvictionResponder".into(),
        };
        assert_eq!(
            custom_method(&t, None),
            "validate_custom_eviction_responder"
        );
        assert_eq!(
            custom_method(&t, Some("Name")),
            "validate_custom_eviction_responder_name"
        );
        assert_eq!(validate_fn(&t), "validate_eviction_responder");
    }
}

#[cfg(test)]
mod xid_tests {
    /// R60: a Go letter outside XID (U+2E2F) is escaped in Rust names; XID letters stay.
    #[test]
    fn go_letters_rust_cannot_spell_are_escaped() {
        assert_eq!(super::field("XⸯY"), "x_u2e2f_y");
        assert_eq!(super::type_name("ⸯKind"), "_u2e2f_Kind");
        assert_eq!(super::field("Größe"), "größe");
        assert_eq!(super::type_name("Ünïcode"), "Ünïcode");
    }
}
