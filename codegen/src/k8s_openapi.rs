//! The k8s-openapi target (`vgc build --target k8s-openapi --k8s-openapi-version 1.37`): validators over the
//! structs of the [k8s-openapi](https://crates.io/crates/k8s-openapi) crate (0.29, features `v1_33`…`v1_37`)
//! instead of generated serde structs.
//!
//! k8s-openapi is generated from the Kubernetes OpenAPI document, not from the Go types: a Go type maps to the
//! OpenAPI definition named after its import path (`k8s.io/api/apps/v1.DeploymentSpec` →
//! `io.k8s.api.apps.v1.DeploymentSpec` → `k8s_openapi::api::apps::v1::DeploymentSpec`), a field to the Rust field
//! k8s-openapi reads the field's JSON name into. Which of those exist, how each field is spelled and which are
//! `Option` comes from k8s-openapi's own source, extracted per feature by `scripts/k8s-openapi-model.py` into
//! `codegen/k8s-openapi/v1_XX.txt` and embedded here ([`Model`]). [`Mapping::of`] resolves every type and field a
//! plan's validators touch, and reports what the chosen version lacks as [`Problem`]s, which the driver turns into
//! located `VGC0121` errors.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;
use vgc_analysis::TypeKey;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{CheckKind, RustTy, TypePlan};

/// The k8s-openapi 0.29 features vgc can target: one per Kubernetes minor release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum K8sOpenapiVersion {
    /// Feature `v1_33`.
    V1_33,
    /// Feature `v1_34`.
    V1_34,
    /// Feature `v1_35`.
    V1_35,
    /// Feature `v1_36`.
    V1_36,
    /// Feature `v1_37`.
    V1_37,
}

/// The k8s-openapi crate version the model was extracted from (the generated crate's dependency requirement).
pub const K8S_OPENAPI_CRATE: &str = "0.29";

impl K8sOpenapiVersion {
    /// Every supported version, oldest first.
    pub const ALL: [K8sOpenapiVersion; 5] = [
        Self::V1_33,
        Self::V1_34,
        Self::V1_35,
        Self::V1_36,
        Self::V1_37,
    ];

    /// The version a user names: `1.37` (also `v1.37`, `v1_37`, `1_37`); `None` for anything else.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().trim_start_matches('v').replace('_', ".");
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// `1.37`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V1_33 => "1.33",
            Self::V1_34 => "1.34",
            Self::V1_35 => "1.35",
            Self::V1_36 => "1.36",
            Self::V1_37 => "1.37",
        }
    }

    /// The crate feature: `v1_37`.
    #[must_use]
    pub fn feature(self) -> &'static str {
        match self {
            Self::V1_33 => "v1_33",
            Self::V1_34 => "v1_34",
            Self::V1_35 => "v1_35",
            Self::V1_36 => "v1_36",
            Self::V1_37 => "v1_37",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Self::V1_33 => include_str!("../k8s-openapi/v1_33.txt"),
            Self::V1_34 => include_str!("../k8s-openapi/v1_34.txt"),
            Self::V1_35 => include_str!("../k8s-openapi/v1_35.txt"),
            Self::V1_36 => include_str!("../k8s-openapi/v1_36.txt"),
            Self::V1_37 => include_str!("../k8s-openapi/v1_37.txt"),
        }
    }
}

impl std::fmt::Display for K8sOpenapiVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One struct (or newtype/enum, without fields) of k8s-openapi.
#[derive(Debug, Clone)]
pub struct ModelType {
    /// Path under `k8s_openapi::` (`api::apps::v1::DeploymentSpec`).
    pub path: String,
    /// Fields by JSON name.
    pub fields: HashMap<String, ModelField>,
}

/// One field of a k8s-openapi struct.
#[derive(Debug, Clone)]
pub struct ModelField {
    /// The Rust field (`type_`, `ref_path`, `min_ready_seconds`).
    pub ident: String,
    /// The Rust type as k8s-openapi spells it, with `crate::` dropped (`Option<std::vec::Vec<std::string::String>>`).
    pub ty: String,
}

impl ModelField {
    /// Whether k8s-openapi wraps the field in `Option` (every field the OpenAPI document does not require).
    #[must_use]
    pub fn optional(&self) -> bool {
        self.ty.starts_with("Option<")
    }

    /// The type without the `Option` (`std::vec::Vec<std::string::String>`).
    #[must_use]
    pub fn value_ty(&self) -> &str {
        self.ty
            .strip_prefix("Option<")
            .and_then(|t| t.strip_suffix('>'))
            .unwrap_or(&self.ty)
    }
}

/// The types of one k8s-openapi feature, by OpenAPI definition name.
#[derive(Debug, Default)]
pub struct Model {
    /// `io.k8s.api.apps.v1.DeploymentSpec` → the type.
    pub types: HashMap<String, ModelType>,
}

impl Model {
    /// The embedded model of `v` (parsed once per process).
    #[must_use]
    pub fn of(v: K8sOpenapiVersion) -> &'static Model {
        static MODELS: [OnceLock<Model>; 5] = [const { OnceLock::new() }; 5];
        let i = K8sOpenapiVersion::ALL
            .iter()
            .position(|x| *x == v)
            .unwrap_or(0);
        MODELS[i].get_or_init(|| Model::parse(v.text()))
    }

    /// Parses the `scripts/k8s-openapi-model.py` format (`T <definition> <path>` lines, each followed by its
    /// `F <json> <ident> <type>` lines; `#` comments). Lines of another shape are skipped.
    #[must_use]
    pub fn parse(text: &str) -> Model {
        let mut m = Model::default();
        let mut current: Option<String> = None;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("T ") {
                let mut it = rest.splitn(2, ' ');
                let (Some(def), Some(path)) = (it.next(), it.next()) else {
                    continue;
                };
                m.types.insert(
                    def.to_string(),
                    ModelType {
                        path: path.to_string(),
                        fields: HashMap::new(),
                    },
                );
                current = Some(def.to_string());
            } else if let Some(rest) = line.strip_prefix("F ") {
                let mut it = rest.splitn(3, ' ');
                let (Some(json), Some(ident), Some(ty)) = (it.next(), it.next(), it.next()) else {
                    continue;
                };
                if let Some(t) = current.as_ref().and_then(|c| m.types.get_mut(c)) {
                    t.fields.insert(
                        json.to_string(),
                        ModelField {
                            ident: ident.to_string(),
                            ty: ty.to_string(),
                        },
                    );
                }
            }
        }
        m
    }
}

/// The OpenAPI definition name of Go type `name` of package `pkg`, as kube-openapi names it: the import path with
/// its first element's domain reversed (`k8s.io/api/apps/v1` → `io.k8s.api.apps.v1`), dots for slashes, then the
/// type name. `None` for an import path without a domain.
#[must_use]
pub fn definition(pkg: &str, name: &str) -> Option<String> {
    let (domain, rest) = pkg.split_once('/')?;
    if !domain.contains('.') {
        return None;
    }
    let mut parts: Vec<&str> = domain.split('.').collect();
    parts.reverse();
    Some(format!(
        "{}.{}.{name}",
        parts.join("."),
        rest.replace(['/', '-'], ".").replace("..", ".")
    ))
}

/// A type or field the plan's validators need that the chosen k8s-openapi version does not have (or has with
/// another shape): the driver reports each as a located `VGC0121` error at the Go type (`field: None`) or field —
/// or, for a kind k8s-openapi lacks altogether (`left_out`), a `VGC0122` warning: the kind and what only it reaches
/// are left out of the generated crate.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The Go type (the field's owner for a field problem).
    pub key: TypeKey,
    /// The Go field, for a field problem.
    pub field: Option<String>,
    /// A kind k8s-openapi does not have (a warning), rather than something a generated validator needs.
    pub left_out: bool,
    /// What is wrong, in words.
    pub message: String,
    /// What to do.
    pub hint: String,
}

/// How the plan's Go types and fields are spelled in k8s-openapi: the part of the generated crate's layout that
/// the k8s-openapi target adds ([`crate::Layout::openapi`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Mapping {
    /// The version targeted.
    pub version: Option<K8sOpenapiVersion>,
    /// Go struct type → its path under `k8s_openapi::`.
    pub types: BTreeMap<TypeKey, String>,
    /// (Go struct type, Go field) → (k8s-openapi Rust field, wrapped in `Option`); an inline-embedded field maps to
    /// `("", false)`: its fields are the embedding struct's own.
    pub fields: BTreeMap<(TypeKey, String), (String, bool)>,
    /// (embedding struct, inline-embedded Go field) → the virtual type validating the embedded struct's rules on
    /// the embedding k8s-openapi struct (`DeviceConfigurationInDeviceClaimConfiguration`): k8s-openapi flattens
    /// the embedded fields into the embedding struct.
    pub inline: BTreeMap<(TypeKey, String), TypeKey>,
}

/// The virtual type of struct `embedded` embedded inline in `owner` ([`Mapping::inline`]).
#[must_use]
pub fn inline_key(embedded: &TypeKey, owner: &TypeKey) -> TypeKey {
    TypeKey {
        pkg: embedded.pkg.clone(),
        name: format!("{}In{}", embedded.name, owner.name),
    }
}

/// The named types a plan type refers to (through `Option`, lists and maps).
fn named(t: &RustTy, out: &mut Vec<TypeKey>) {
    match t {
        RustTy::Named(k) => out.push(k.clone()),
        RustTy::Option(i, _) | RustTy::Vec(i) | RustTy::Map(i) => named(i, out),
        _ => {}
    }
}

impl Mapping {
    /// The mapping of every struct type of `plan` with a k8s-openapi counterpart in `version`, and the problems:
    /// a kind without counterpart (left out, a warning); among the types the kept kinds reach, a struct with
    /// validations without counterpart, a field with validations (or named by a struct-level rule) without
    /// counterpart or with a k8s-openapi type other than the Go type maps to, an inline-embedded struct with
    /// validations (k8s-openapi flattens its fields into the embedding struct), a field-path constraint (vgc
    /// extension), and any type of a plan from outside `k8s.io/api`/`k8s.io/apimachinery` (a CRD's types have
    /// no k8s-openapi counterparts).
    #[must_use]
    pub fn of(plan: &CratePlan, version: K8sOpenapiVersion) -> (Mapping, Vec<Problem>) {
        let model = Model::of(version);
        let mut map = Mapping {
            version: Some(version),
            ..Mapping::default()
        };
        let mut problems = BTreeSet::new();
        let types: BTreeMap<&TypeKey, &TypePlan> = plan.types_by_key();
        let aliases: BTreeMap<TypeKey, RustTy> = types
            .values()
            .filter_map(|t| Some((t.key.clone(), t.alias_of.clone()?)))
            .collect();
        for t in types.values() {
            if t.fields.is_none() {
                continue;
            }
            let Some(def) = definition(&t.key.pkg, &t.key.name) else {
                continue;
            };
            let Some(mt) = model.types.get(&def) else {
                continue;
            };
            map.types.insert(t.key.clone(), mt.path.clone());
            for f in t.fields.iter().flatten() {
                if let Some(mf) = mt.fields.get(&f.json_name) {
                    map.fields.insert(
                        (t.key.clone(), f.go_field.clone()),
                        (mf.ident.clone(), mf.optional()),
                    );
                }
            }
        }
        // Inline-embedded structs: their fields are the embedding k8s-openapi struct's (one level deep).
        let mut inline_problems = Vec::new();
        for t in types.values() {
            let Some(owner_path) = map.types.get(&t.key).cloned() else {
                continue;
            };
            let Some(mt) = model.types.values().find(|m| m.path == owner_path) else {
                continue;
            };
            for f in t
                .fields
                .iter()
                .flatten()
                .filter(|f| f.json_name.is_empty() && !f.skip)
            {
                let Some(inner) = f.ty.named() else {
                    continue;
                };
                let Some(d) = types
                    .get(inner)
                    .filter(|d| d.fields.is_some() && d.has_validations)
                else {
                    continue;
                };
                let v = inline_key(inner, &t.key);
                map.types.insert(v.clone(), owner_path.clone());
                map.fields
                    .insert((t.key.clone(), f.go_field.clone()), (String::new(), false));
                for df in d.fields.iter().flatten() {
                    match mt.fields.get(&df.json_name) {
                        Some(mf) => {
                            map.fields.insert(
                                (v.clone(), df.go_field.clone()),
                                (mf.ident.clone(), mf.optional()),
                            );
                        }
                        None if df.has_work() => inline_problems.push(Problem {
                            key: d.key.clone(),
                            field: Some(df.go_field.clone()),
                            left_out: false,
                            message: format!(
                                "k8s-openapi {version} (feature `{}`) has no field `{}` in {owner_path}, which embeds {} inline, and the validations of {}.{} need it",
                                version.feature(),
                                df.json_name,
                                d.key.name,
                                d.key.name,
                                df.go_field
                            ),
                            hint: "choose the k8s-openapi version of the API's release (`--k8s-openapi-version`), or `[build.severity] VGC0121 = \"warning\"` in vgc.toml to leave these rules out".into(),
                        }),
                        None => {}
                    }
                }
                map.inline.insert((t.key.clone(), f.go_field.clone()), v);
            }
        }
        problems.extend(inline_problems);
        let outside = |pkg: &str| {
            !(pkg.starts_with("k8s.io/api/") || pkg.starts_with("k8s.io/apimachinery/"))
        };
        // Kinds k8s-openapi lacks are left out with a warning (a tree outside k8s.io/api: an error); the types the
        // kept kinds reach must all be there.
        let mut todo: Vec<TypeKey> = Vec::new();
        // Root types of packages outside k8s.io/api: one error per package, at its first such type.
        let mut outside_roots: BTreeMap<&str, Vec<&TypeKey>> = BTreeMap::new();
        for t in types.values().filter(|t| t.root) {
            if t.fields.is_none() || map.types.contains_key(&t.key) {
                todo.push(t.key.clone());
            } else if outside(&t.key.pkg) {
                outside_roots.entry(&t.key.pkg).or_default().push(&t.key);
            } else {
                problems.insert(Problem {
                    key: t.key.clone(),
                    field: None,
                    left_out: true,
                    message: format!(
                        "k8s-openapi {version} (feature `{}`) has no type {} (OpenAPI definition `{}`): the {} is left out of the generated crate{}",
                        version.feature(),
                        t.key,
                        definition(&t.key.pkg, &t.key.name).unwrap_or_default(),
                        // A root that embeds no `TypeMeta` (`+k8s:validation-gen=*`) is validated as a type, not
                        // dispatched as a kind.
                        if t.is_kind() { "kind" } else { "root type" },
                        if t.has_validations { ", with its validation rules" } else { "" }
                    ),
                    hint: format!(
                        "k8s-openapi has the group/versions the API server serves; build with the default target to validate this {}",
                        if t.is_kind() { "kind" } else { "type" }
                    ),
                });
            }
        }
        for (pkg, keys) in outside_roots {
            let names: Vec<&str> = keys.iter().map(|k| k.name.as_str()).collect();
            problems.insert(Problem {
                key: keys[0].clone(),
                field: None,
                left_out: false,
                message: format!(
                    "package {pkg} has no k8s-openapi counterpart (its root type{} {}): the k8s-openapi target validates the types of k8s.io/api and k8s.io/apimachinery only",
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                ),
                hint: "build this API tree without `--target k8s-openapi` (the default target generates its own structs)".into(),
            });
        }
        let mut reach: BTreeSet<TypeKey> = BTreeSet::new();
        while let Some(k) = todo.pop() {
            if !reach.insert(k.clone()) {
                continue;
            }
            let Some(t) = types.get(&k) else { continue };
            let mut refs = Vec::new();
            if let Some(a) = &t.alias_of {
                named(a, &mut refs);
            }
            for f in t.fields.iter().flatten() {
                named(&f.ty, &mut refs);
            }
            todo.extend(refs);
        }
        // Types some struct embeds inline (no JSON name): k8s-openapi has their fields in the embedding struct.
        let inline: BTreeSet<&TypeKey> = types
            .values()
            .flat_map(|t| t.fields.iter().flatten())
            .filter(|f| f.json_name.is_empty())
            .filter_map(|f| f.ty.named())
            .collect();
        let virtual_of: BTreeSet<&TypeKey> = types
            .values()
            .flat_map(|t| t.fields.iter().flatten().map(move |f| (t, f)))
            .filter(|(t, f)| {
                map.inline
                    .contains_key(&(t.key.clone(), f.go_field.clone()))
            })
            .filter_map(|(_, f)| f.ty.named())
            .collect();
        for t in types.values().filter(|t| reach.contains(&t.key)) {
            // Validated through its virtual types on the embedding structs.
            if virtual_of.contains(&t.key) && !map.types.contains_key(&t.key) {
                continue;
            }
            let needed = t.has_validations || t.root;
            if !needed || t.fields.is_none() {
                continue;
            }
            let Some(mt) = definition(&t.key.pkg, &t.key.name)
                .and_then(|d| model.types.get(&d))
                .filter(|_| map.types.contains_key(&t.key))
            else {
                let (message, hint) = if outside(&t.key.pkg) {
                    (
                        format!(
                            "type {} of package {} has no k8s-openapi counterpart: the k8s-openapi target validates the types of k8s.io/api and k8s.io/apimachinery only",
                            t.key.name, t.key.pkg
                        ),
                        "build this API tree without `--target k8s-openapi` (the default target generates its own structs)".to_string(),
                    )
                } else if inline.contains(&t.key) {
                    (
                        format!(
                            "type {} is embedded inline, and k8s-openapi {version} flattens its fields into the embedding struct, so its validations have no k8s-openapi type to run on",
                            t.key
                        ),
                        "use the default target for this API tree, or `[build.severity] VGC0121 = \"warning\"` in vgc.toml to leave these rules out".to_string(),
                    )
                } else {
                    (
                        format!(
                            "k8s-openapi {version} (feature `{}`) has no type {} (OpenAPI definition `{}`), which has validation rules",
                            version.feature(),
                            t.key,
                            definition(&t.key.pkg, &t.key.name).unwrap_or_default()
                        ),
                        "choose the k8s-openapi version of the API's release (`--k8s-openapi-version`), or `[build.severity] VGC0121 = \"warning\"` in vgc.toml to leave these rules out".to_string(),
                    )
                };
                problems.insert(Problem {
                    key: t.key.clone(),
                    field: None,
                    left_out: false,
                    message,
                    hint,
                });
                continue;
            };
            for c in &t.checks {
                c.walk(&mut |c| {
                    if matches!(c.kind, CheckKind::FieldConstraint(_) | CheckKind::VirtualUnion(_)) {
                        problems.insert(Problem {
                            key: t.key.clone(),
                            field: None,
                            left_out: false,
                            message: format!(
                                "type {} has a field-path constraint or a virtual group (vgc extensions), which the k8s-openapi target does not generate",
                                t.key
                            ),
                            hint: "use the default target for this API tree".into(),
                        });
                    }
                });
            }
            for f in t.fields.iter().flatten() {
                if !(f.has_work() || referenced(t, &f.go_field)) {
                    continue;
                }
                let skip_hint = "choose the k8s-openapi version of the API's release (`--k8s-openapi-version`), or `[build.severity] VGC0121 = \"warning\"` in vgc.toml to leave these rules out";
                if f.json_name.is_empty()
                    && !map
                        .inline
                        .contains_key(&(t.key.clone(), f.go_field.clone()))
                {
                    problems.insert(Problem {
                        key: t.key.clone(),
                        field: Some(f.go_field.clone()),
                        left_out: false,
                        message: format!(
                            "field {}.{} is embedded inline; k8s-openapi {version} flattens its fields into {}, so the validations of the embedded type have no k8s-openapi type to run on",
                            t.key.name, f.go_field, t.key.name
                        ),
                        hint: "use the default target for this API tree, or `[build.severity] VGC0121 = \"warning\"` in vgc.toml to leave these rules out".into(),
                    });
                    continue;
                }
                if f.json_name.is_empty() {
                    continue;
                }
                let Some(mf) = mt.fields.get(&f.json_name) else {
                    problems.insert(Problem {
                        key: t.key.clone(),
                        field: Some(f.go_field.clone()),
                        left_out: false,
                        message: format!(
                            "k8s-openapi {version} (feature `{}`) has no field `{}` in {}, which the validations of {}.{} need",
                            version.feature(),
                            f.json_name,
                            mt.path,
                            t.key.name,
                            f.go_field
                        ),
                        hint: skip_hint.into(),
                    });
                    continue;
                };
                let want = value_ty(&f.ty, &aliases, &map);
                if want.as_deref() != Some(mf.value_ty()) {
                    problems.insert(Problem {
                        key: t.key.clone(),
                        field: Some(f.go_field.clone()),
                        left_out: false,
                        message: format!(
                            "k8s-openapi {version} types field `{}` of {} as `{}`, not as the Go type maps to (`{}`)",
                            f.json_name,
                            mt.path,
                            mf.value_ty(),
                            want.as_deref().unwrap_or("a type k8s-openapi does not have")
                        ),
                        hint: skip_hint.into(),
                    });
                }
            }
        }
        (map, problems.into_iter().collect())
    }
}

/// The plan the k8s-openapi target generates from: `plan` without what `problems` name (types and fields k8s-openapi
/// lacks, which the driver reported) — a kind or struct without counterpart is removed, a field without one loses
/// its rules, and calls into removed types and struct-level rules naming removed members are dropped — so the
/// generated crate compiles whatever the version lacks, and every left-out rule was reported.
#[must_use]
pub fn prune(plan: &CratePlan, map: &Mapping, problems: &[Problem]) -> CratePlan {
    let bad_fields: BTreeSet<(&TypeKey, &str)> = problems
        .iter()
        .filter_map(|p| Some((&p.key, p.field.as_deref()?)))
        .collect();
    let struct_keys: BTreeSet<&TypeKey> = plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter())
        .filter(|t| t.fields.is_some())
        .map(|t| &t.key)
        .collect();
    let removed = |k: &TypeKey| struct_keys.contains(k) && !map.types.contains_key(k);
    let member_ok = |owner: &TypeKey, go: &str| {
        !bad_fields.contains(&(owner, go))
            && map.fields.contains_key(&(owner.clone(), go.to_string()))
    };
    let by_key: BTreeMap<&TypeKey, &TypePlan> = plan.types_by_key();
    let mut out = plan.clone();
    // Virtual types for inline-embedded structs, added to the embedded struct's module.
    let mut virtuals: BTreeMap<String, Vec<TypePlan>> = BTreeMap::new();
    for ((owner, go), v) in &map.inline {
        let embedded = by_key.get(owner).and_then(|t| {
            t.fields
                .iter()
                .flatten()
                .find(|f| &f.go_field == go)
                .and_then(|f| f.ty.named())
                .and_then(|k| by_key.get(k))
        });
        if let Some(d) = embedded {
            let mut t = (*d).clone();
            t.key = v.clone();
            t.root = false;
            t.subresources = None;
            virtuals.entry(v.pkg.clone()).or_default().push(t);
        }
    }
    for m in &mut out.modules {
        let m = std::sync::Arc::make_mut(m);
        for t in virtuals.remove(&m.pkg).unwrap_or_default() {
            m.types.push(std::sync::Arc::new(t));
        }
    }
    for m in &mut out.modules {
        let m = std::sync::Arc::make_mut(m);
        let mut types = Vec::new();
        for t in &m.types {
            if removed(&t.key) {
                continue;
            }
            let mut t = (**t).clone();
            if t.fields.is_some() {
                let key = t.key.clone();
                t.checks.retain(|c| {
                    let mut ok = true;
                    c.walk(&mut |c| match &c.kind {
                        CheckKind::Union(u) => {
                            ok &= u.members.iter().all(|m| member_ok(&key, &m.member.go))
                        }
                        CheckKind::Discriminated(d) => {
                            ok &= member_ok(&key, &d.member.go)
                                && member_ok(&key, &d.discriminator.field);
                        }
                        CheckKind::Dependent(d) => {
                            ok &=
                                member_ok(&key, &d.trigger.go) && member_ok(&key, &d.dependent.go);
                        }
                        CheckKind::Subfield(s) => ok &= member_ok(&key, &s.member.go),
                        CheckKind::FieldConstraint(_) | CheckKind::VirtualUnion(_) => ok = false,
                        _ => {}
                    });
                    ok
                });
                for f in t.fields.iter_mut().flatten() {
                    if f.has_work() && !member_ok(&key, &f.go_field) {
                        f.checks.clear();
                        f.nested = None;
                        f.iteration = None;
                        f.key_iteration = None;
                        f.no_nils = false;
                    }
                }
            }
            let key = t.key.clone();
            for f in t.fields.iter_mut().flatten() {
                if let Some(v) = map.inline.get(&(key.clone(), f.go_field.clone())) {
                    f.nested = Some(vgc_lowering::plan::Nested { ty: v.clone() });
                }
                if f.nested.as_ref().is_some_and(|n| removed(&n.ty)) {
                    f.nested = None;
                }
                if f.iteration.as_ref().is_some_and(|i| removed(&i.elem)) {
                    f.iteration = None;
                }
                if f.key_iteration.as_ref().is_some_and(|i| removed(&i.elem)) {
                    f.key_iteration = None;
                }
            }
            if t.iteration.as_ref().is_some_and(|i| removed(&i.elem)) {
                t.iteration = None;
            }
            types.push(std::sync::Arc::new(t));
        }
        m.types = types;
    }
    out
}

/// True when some struct-level check of `t` names member `go` (unions, modes, dependent fields, constraints).
fn referenced(t: &TypePlan, go: &str) -> bool {
    let mut found = false;
    for c in &t.checks {
        c.walk(&mut |c| match &c.kind {
            CheckKind::Union(u) => found |= u.members.iter().any(|m| m.member.go == go),
            CheckKind::Discriminated(m) => {
                found |= m.member.go == go || m.discriminator.field == go;
            }
            CheckKind::Dependent(d) => found |= d.trigger.go == go || d.dependent.go == go,
            CheckKind::Subfield(s) => found |= s.member.go == go,
            _ => {}
        });
    }
    found
}

/// The k8s-openapi spelling (as in the model, without `crate::`) of a Go value of plan type `t` with the pointer
/// taken off: `None` when k8s-openapi has no such type.
#[must_use]
pub fn value_ty(t: &RustTy, aliases: &BTreeMap<TypeKey, RustTy>, map: &Mapping) -> Option<String> {
    match t {
        RustTy::Option(i, _) => inner_ty(i, aliases, map),
        t => inner_ty(t, aliases, map),
    }
}

/// [`value_ty`] below the top level, where k8s-openapi has no `Option` (a Go `[]*T` is not a k8s-openapi shape).
fn inner_ty(t: &RustTy, aliases: &BTreeMap<TypeKey, RustTy>, map: &Mapping) -> Option<String> {
    Some(match t {
        RustTy::Option(..) => return None,
        RustTy::Builtin(b) => builtin(*b).to_string(),
        RustTy::Named(k) => match aliases.get(k) {
            Some(a) => return inner_ty(a, aliases, map),
            None => map.types.get(k)?.clone(),
        },
        RustTy::WellKnown(w) => well_known(*w).to_string(),
        RustTy::Vec(i) => format!("std::vec::Vec<{}>", inner_ty(i, aliases, map)?),
        RustTy::Map(v) => format!(
            "std::collections::BTreeMap<std::string::String, {}>",
            inner_ty(v, aliases, map)?
        ),
        RustTy::Json => "serde_json::Value".into(),
    })
}

/// The k8s-openapi spelling of a Go builtin.
#[must_use]
pub fn builtin(b: Builtin) -> &'static str {
    match b {
        Builtin::Bool => "bool",
        Builtin::String => "std::string::String",
        Builtin::Int | Builtin::Int64 | Builtin::Duration => "i64",
        Builtin::Int8 => "i8",
        Builtin::Int16 => "i16",
        Builtin::Int32 => "i32",
        Builtin::Uint | Builtin::Uint64 => "u64",
        Builtin::Uint8 => "u8",
        Builtin::Uint16 => "u16",
        Builtin::Uint32 => "u32",
        Builtin::Float32 => "f32",
        Builtin::Float64 => "f64",
    }
}

/// The k8s-openapi type of an apimachinery well-known type (`metav1.Duration` is a plain string there).
#[must_use]
pub fn well_known(w: WellKnown) -> &'static str {
    match w {
        WellKnown::Quantity => "apimachinery::pkg::api::resource::Quantity",
        WellKnown::Time => "apimachinery::pkg::apis::meta::v1::Time",
        WellKnown::MicroTime => "apimachinery::pkg::apis::meta::v1::MicroTime",
        WellKnown::Duration => "std::string::String",
        WellKnown::IntOrString => "apimachinery::pkg::util::intstr::IntOrString",
        WellKnown::RawExtension => "apimachinery::pkg::runtime::RawExtension",
        WellKnown::FieldsV1 => "apimachinery::pkg::apis::meta::v1::FieldsV1",
        WellKnown::Bytes => "ByteString",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_reverse_the_domain() {
        assert_eq!(
            definition("k8s.io/api/apps/v1", "DeploymentSpec").as_deref(),
            Some("io.k8s.api.apps.v1.DeploymentSpec")
        );
        assert_eq!(
            definition("k8s.io/apimachinery/pkg/apis/meta/v1", "ObjectMeta").as_deref(),
            Some("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
        );
        assert_eq!(definition("widgets/v1", "Widget"), None);
    }

    #[test]
    fn versions_parse_and_models_load() {
        assert_eq!(
            K8sOpenapiVersion::parse("1.37"),
            Some(K8sOpenapiVersion::V1_37)
        );
        assert_eq!(
            K8sOpenapiVersion::parse("v1_33"),
            Some(K8sOpenapiVersion::V1_33)
        );
        assert_eq!(K8sOpenapiVersion::parse("1.38"), None);
        let m = Model::of(K8sOpenapiVersion::V1_37);
        let spec = &m.types["io.k8s.api.apps.v1.DeploymentSpec"];
        assert_eq!(spec.path, "api::apps::v1::DeploymentSpec");
        let sel = &spec.fields["selector"];
        assert_eq!((sel.ident.as_str(), sel.optional()), ("selector", false));
        let t = &m.types["io.k8s.apimachinery.pkg.apis.meta.v1.Condition"].fields["type"];
        assert_eq!(
            (t.ident.as_str(), t.value_ty()),
            ("type_", "std::string::String")
        );
        let r = &m.types["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"].fields["dryRun"];
        assert_eq!(r.ty, "Option<std::vec::Vec<std::string::String>>");
    }
}
