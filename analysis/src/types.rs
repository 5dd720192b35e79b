//! Type resolution: Go type expressions resolved to [`Ty`] across packages, well-known apimachinery types,
//! typedef chains, root-type selection (upstream `targets.go`) and reachability.

use crate::program::{Program, TypeKey, import_for};
use indexmap::{IndexMap, IndexSet};
use vgc_ir::catalog::{ControlTag, TagId, TagIdent};
use vgc_ir::model::TypeIr;
use vgc_ir::{Code, Db, Diagnostic, SourceFile};
use vgc_parser::go::TypeExpr;

/// Go builtin types, and `time.Duration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[allow(missing_docs)]
pub enum Builtin {
    Bool,
    String,
    Int,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float32,
    Float64,
    /// Go `time.Duration`: an `int64` of nanoseconds (a JSON number, as `encoding/json` writes it) whose `String`
    /// method prints `1m30s`. Upstream goes by the native type (gengo `NativeType`: `int64`), so every integer
    /// tag applies; only the 1.38 `Minimum`/`Maximum` detail differs (`%v` of the bound calls `String`:
    /// `vgc_runtime::validate::minimum_duration`). A typedef of it (`type D time.Duration`) has no `String`
    /// method: its values and bounds print as integers. `metav1.Duration` (a struct, a JSON string) is
    /// [`WellKnown::Duration`].
    Duration,
}

impl Builtin {
    fn from_name(n: &str) -> Option<Self> {
        Some(match n {
            "bool" => Self::Bool,
            "string" => Self::String,
            "int" => Self::Int,
            "int8" => Self::Int8,
            "int16" => Self::Int16,
            "int32" | "rune" => Self::Int32,
            "int64" => Self::Int64,
            "uint" | "uintptr" => Self::Uint,
            "uint8" | "byte" => Self::Uint8,
            "uint16" => Self::Uint16,
            "uint32" => Self::Uint32,
            "uint64" => Self::Uint64,
            "float32" => Self::Float32,
            "float64" => Self::Float64,
            _ => return None,
        })
    }

    /// True for integer kinds.
    #[must_use]
    pub fn is_integer(self) -> bool {
        !matches!(
            self,
            Self::Bool | Self::String | Self::Float32 | Self::Float64
        )
    }

    /// The inclusive value range of an integer kind (Go `int`/`uint` are 64-bit).
    #[must_use]
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Self::Int8 => (i128::from(i8::MIN), i128::from(i8::MAX)),
            Self::Int16 => (i128::from(i16::MIN), i128::from(i16::MAX)),
            Self::Int32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
            Self::Int | Self::Int64 | Self::Duration => {
                (i128::from(i64::MIN), i128::from(i64::MAX))
            }
            Self::Uint8 => (0, i128::from(u8::MAX)),
            Self::Uint16 => (0, i128::from(u16::MAX)),
            Self::Uint32 => (0, i128::from(u32::MAX)),
            Self::Uint | Self::Uint64 => (0, i128::from(u64::MAX)),
            _ => return None,
        })
    }
}

/// Well-known apimachinery value types, mapped to `vgc_runtime::types` (Go `time.Duration` is
/// [`Builtin::Duration`], an integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[allow(missing_docs)]
pub enum WellKnown {
    Quantity,
    Time,
    MicroTime,
    Duration,
    IntOrString,
    RawExtension,
    FieldsV1,
    /// Go `[]byte` (base64 in JSON).
    Bytes,
}

fn well_known(pkg: &str, name: &str) -> Option<WellKnown> {
    Some(match (pkg, name) {
        ("k8s.io/apimachinery/pkg/api/resource", "Quantity") => WellKnown::Quantity,
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time") | ("time", "Time") => WellKnown::Time,
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "MicroTime") => WellKnown::MicroTime,
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration") => WellKnown::Duration,
        ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString") => WellKnown::IntOrString,
        ("k8s.io/apimachinery/pkg/runtime", "RawExtension") | ("encoding/json", "RawMessage") => {
            WellKnown::RawExtension
        }
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "FieldsV1") => WellKnown::FieldsV1,
        _ => return None,
    })
}

/// A resolved Go type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A builtin.
    Builtin(Builtin),
    /// A named type declared in a loaded package.
    Named(TypeKey),
    /// A well-known apimachinery value type.
    WellKnown(WellKnown),
    /// `*T`
    Pointer(Box<Ty>),
    /// `[]T` (also fixed arrays)
    Slice(Box<Ty>),
    /// `map[K]V`
    Map(Box<Ty>, Box<Ty>),
    /// An interface or another shape kept as opaque JSON.
    Any,
    /// A named type that could not be resolved: (qualifier, name).
    Unresolved(String, String),
}

/// Resolves a type expression written in `file` of package `pkg`.
#[must_use]
pub fn resolve(db: &dyn Db, prog: &Program, pkg: &str, file: SourceFile, e: &TypeExpr) -> Ty {
    match e {
        TypeExpr::Named {
            pkg: None, name, ..
        } => {
            if let Some(b) = Builtin::from_name(name) {
                return Ty::Builtin(b);
            }
            if name == "any" || name == "error" {
                return Ty::Any;
            }
            named(prog, pkg, name)
        }
        TypeExpr::Named {
            pkg: Some(q), name, ..
        } => {
            let ir = vgc_ir::db::file_ir(db, file);
            match import_for(ir, q) {
                Some(path) => {
                    if (path.as_str(), name.as_str()) == ("time", "Duration") {
                        return Ty::Builtin(Builtin::Duration);
                    }
                    if let Some(w) = well_known(&path, name) {
                        return Ty::WellKnown(w);
                    }
                    match named(prog, &path, name) {
                        Ty::Unresolved(..) => Ty::Unresolved(q.clone(), name.clone()),
                        t => t,
                    }
                }
                None => Ty::Unresolved(q.clone(), name.clone()),
            }
        }
        TypeExpr::Pointer(i) => Ty::Pointer(Box::new(resolve(db, prog, pkg, file, i))),
        TypeExpr::Slice(i) | TypeExpr::Array { elem: i, .. } => {
            let inner = resolve(db, prog, pkg, file, i);
            if inner == Ty::Builtin(Builtin::Uint8) && matches!(e, TypeExpr::Slice(_)) {
                Ty::WellKnown(WellKnown::Bytes)
            } else {
                Ty::Slice(Box::new(inner))
            }
        }
        TypeExpr::Map(k, v) => Ty::Map(
            Box::new(resolve(db, prog, pkg, file, k)),
            Box::new(resolve(db, prog, pkg, file, v)),
        ),
        TypeExpr::Struct(_) | TypeExpr::Other(_) => Ty::Any,
    }
}

fn named(prog: &Program, pkg: &str, name: &str) -> Ty {
    if let Some(w) = well_known(pkg, name) {
        return Ty::WellKnown(w);
    }
    match prog.packages.get(pkg) {
        Some(p) if p.types.contains_key(name) => Ty::Named(TypeKey {
            pkg: pkg.to_string(),
            name: name.to_string(),
        }),
        _ => Ty::Unresolved(pkg.to_string(), name.to_string()),
    }
}

/// The shape of a named type after following typedef chains: what the value *is*.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Native {
    /// A struct (the key of the type declaring the fields).
    Struct(TypeKey),
    /// Anything else, resolved (a builtin, slice, map, pointer, well-known or any).
    Other(Ty),
}

/// Follows typedef chains of `ty` to its native shape (upstream: "native kind after typedefs are resolved").
#[must_use]
pub fn native(db: &dyn Db, prog: &Program, ty: &Ty) -> Native {
    let mut cur = ty.clone();
    for _ in 0..64 {
        let Ty::Named(k) = &cur else {
            return Native::Other(cur);
        };
        let Some((decl, file)) = prog.type_decl(db, k) else {
            return Native::Other(Ty::Any);
        };
        if matches!(decl.ty, TypeExpr::Struct(_)) {
            return Native::Struct(k.clone());
        }
        cur = resolve(db, prog, &k.pkg, file, &decl.ty);
    }
    Native::Other(Ty::Any)
}

/// Package-level generator settings from `+k8s:validation-gen` (upstream `targets.go`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GenConfig {
    /// `false`: the package is disabled.
    pub disabled: bool,
    /// `*`: every exported type is a root.
    pub all: bool,
    /// `TypesWithField=F` values.
    pub with_field: Vec<String>,
    /// `TypesWithSuffix=S` values.
    pub with_suffix: Vec<String>,
    /// The package has no `+k8s:validation-gen` tag: vgc applies `TypesWithField=TypeMeta` so that pointing it at
    /// a package builds something, where upstream does not generate (or lint) the package at all ("did not find
    /// required tag").
    pub implicit: bool,
    /// `+k8s:validation-gen-deep-equal-func` (upstream 1.38): the deep-equality function generated code uses.
    pub deep_equal: DeepEqualFunc,
    /// `+k8s:validation-gen-scheme-registry=<pkg>.<Type>` as written, `Some("nil")` for no registration, `None`
    /// without the tag (upstream `schemeRegistryTag`: then `k8s.io/apimachinery/pkg/runtime.Scheme`).
    pub scheme_registry: Option<String>,
}

/// The package's deep-equality function (`+k8s:validation-gen-deep-equal-func`, upstream 1.38, kubernetes#141808;
/// upstream `targets.go` reads it once per package). Generated code compares values for ratcheting and list
/// matching with it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum DeepEqualFunc {
    /// No tag, an empty value, or `k8s.io/apimachinery/pkg/api/validate.SemanticDeepEqual`: upstream's
    /// `validate.SemanticDeepEqual` (`equality.Semantic.DeepEqual`), which vgc's generated `==` on
    /// `vgc_runtime` types implements (semantic equality of quantities, times, …).
    #[default]
    Semantic,
    /// A project function (`pkg/path.Func`, or an unqualified name in the output package), as written. Generated
    /// Rust cannot call Go: the generated module declares a `DeepEqual` trait that stands for it, implemented by
    /// the user in `src/custom.rs` (`vgc_lowering::plan::ModulePlan::deep_equal`, docs/upstream.md).
    Project(String),
}

/// The default deep-equality function, fully qualified as upstream's tag value spells it.
pub const SEMANTIC_DEEP_EQUAL: &str = "k8s.io/apimachinery/pkg/api/validate.SemanticDeepEqual";

/// Reads the package's `k8s:validation-gen` values from its `doc.go` (all comment groups, as upstream). With
/// none, the default is `TypesWithField=TypeMeta`.
pub fn gen_config(
    db: &dyn Db,
    prog: &Program,
    pkg: &str,
    diags: &mut Vec<Diagnostic>,
) -> GenConfig {
    let mut cfg = GenConfig::default();
    let mut any = false;
    let field_names = vgc_ir::profile::upstream(db).validation_gen_field_names();
    let mut deep_seen = false;
    let Some(p) = prog.packages.get(pkg) else {
        return cfg;
    };
    for f in &p.files {
        if !f.path(db).ends_with("/doc.go") {
            // Package tags elsewhere are not read (gengo), which `vgc_ir::db::check_file` says.
            continue;
        }
        let ir = vgc_ir::db::file_ir(db, *f);
        deep_equal_func(
            db,
            pkg,
            *f,
            &ir.package_tags,
            &mut cfg,
            &mut deep_seen,
            diags,
        );
        if let Some(u) = ir
            .package_tags
            .iter()
            .find(|u| u.control_tag() == Some(ControlTag::ValidationGenSchemeRegistry))
        {
            cfg.scheme_registry = Some(u.raw_value.clone().unwrap_or_default().trim().to_string());
        }
        for u in ir
            .package_tags
            .iter()
            .filter(|u| u.control_tag() == Some(ControlTag::ValidationGen))
        {
            let v = u.raw_value.clone().unwrap_or_default();
            let v = v.trim();
            any = true;
            if v == "false" {
                cfg.disabled = true;
            } else if v == "*" {
                cfg.all = true;
            } else if field_names {
                // 1.35/1.36: every other value is a field name (upstream `isTypeWith`), 1.37's criteria too: a value
                // no Go field can be named selects nothing there, silently; vgc says so.
                if !v.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    let profile = vgc_ir::profile::upstream(db);
                    let field = v.strip_prefix("TypesWithField=").filter(|x| {
                        !x.is_empty() && x.chars().all(|c| c.is_alphanumeric() || c == '_')
                    });
                    diags.push(
                        Diagnostic::warning(
                            Code::GeneratorConfig,
                            format!(
                                "upstream {profile} reads a +k8s:validation-gen value as a Go field name (`isTypeWith`): no field is named {v:?}, so this selects no root type"
                            ),
                        )
                        .at_span(f.path(db).clone(), *f, u.at, None)
                        .with_hint(match field {
                            Some(x) => format!(
                                "`TypesWithField=` is the 1.37 form: write `+k8s:validation-gen={x}` for upstream {profile}, or select upstream 1.37 or newer (`--upstream`, `[upstream] version` in vgc.toml)"
                            ),
                            None => format!(
                                "name a Go field (`+k8s:validation-gen=TypeMeta`) or `*` for upstream {profile}"
                            ),
                        }),
                    );
                }
                cfg.with_field.push(v.to_string());
            } else if let Some(x) = v.strip_prefix("TypesWithField=") {
                cfg.with_field.push(x.to_string());
            } else if let Some(x) = v.strip_prefix("TypesWithSuffix=") {
                cfg.with_suffix.push(x.to_string());
            } else {
                diags.push(
                    Diagnostic::error(Code::GeneratorConfig, format!("unknown k8s:validation-gen value {v:?}"))
                        .at_span(f.path(db).clone(), *f, u.at, None)
                        .with_hint("use `*`, `TypesWithField=<GoField>`, `TypesWithSuffix=<suffix>` or `false`"),
                );
            }
        }
    }
    if cfg.disabled && (cfg.all || !cfg.with_field.is_empty() || !cfg.with_suffix.is_empty()) {
        diags.push(Diagnostic::error(
            Code::GeneratorConfig,
            format!("package {pkg}: k8s:validation-gen=false cannot be mixed with other values"),
        ));
    }
    if !any {
        cfg.with_field.push("TypeMeta".into());
        cfg.implicit = true;
    }
    cfg
}

/// Reads `+k8s:validation-gen-deep-equal-func` from one `doc.go`'s package tags into `cfg.deep_equal` (upstream
/// 1.38 `targets.go`, kubernetes#141808). Before 1.38 the tag does not exist: a warning says it is ignored. A second
/// use in the package is upstream's `Package %q contains more than one usage of %q` (a panic there, a located
/// `VGC0005` here). A project function is kept as written: the generated module asks the user for its Rust
/// counterpart (docs/upstream.md).
fn deep_equal_func(
    db: &dyn Db,
    pkg: &str,
    file: vgc_ir::SourceFile,
    uses: &[vgc_ir::model::TagUse],
    cfg: &mut GenConfig,
    seen: &mut bool,
    diags: &mut Vec<Diagnostic>,
) {
    let profile = vgc_ir::profile::upstream(db);
    for u in uses
        .iter()
        .filter(|u| u.control_tag() == Some(ControlTag::ValidationGenDeepEqualFunc))
    {
        let at = vgc_ir::db::span_of(db, file, u.at);
        let path = file.path(db).clone();
        let name = ControlTag::ValidationGenDeepEqualFunc.name();
        if !profile.deep_equal_func_tag() {
            diags.push(
                Diagnostic::warning(
                    Code::GeneratorConfig,
                    format!("{name:?} does not exist in upstream {profile}; ignored, as upstream {profile} ignores it"),
                )
                .at(path, at)
                .with_hint("the tag exists from upstream 1.38 on (kubernetes#141808); select that profile (`--upstream 1.38`) or remove it"),
            );
            continue;
        }
        if std::mem::replace(seen, true) {
            diags.push(
                Diagnostic::error(
                    Code::GeneratorConfig,
                    format!("Package {pkg:?} contains more than one usage of {name:?}"),
                )
                .at(path, at)
                .with_hint("keep one `+k8s:validation-gen-deep-equal-func` per package"),
            );
            continue;
        }
        let v = u.raw_value.clone().unwrap_or_default();
        let v = v.trim();
        if v.is_empty() || v == SEMANTIC_DEEP_EQUAL {
            cfg.deep_equal = DeepEqualFunc::Semantic;
            continue;
        }
        // upstream reads the raw value and `types.ParseFullyQualifiedName`s it: anything but a Go identifier,
        // optionally after an import path and a dot, gives generated Go that does not compile.
        if !go_func_name(v) {
            diags.push(
                Diagnostic::error(
                    Code::GeneratorConfig,
                    format!("{name:?}: {v:?} is not a Go function name"),
                )
                .at(path, at)
                .with_hint("name a generic `func[T any](a, b T) bool`: an identifier in this package (`=MyDeepEqual`), or an import path, a dot and an identifier (`=example.com/eq.Equal`), unquoted"),
            );
            continue;
        }
        cfg.deep_equal = DeepEqualFunc::Project(v.to_string());
    }
}

/// Whether `v` names a Go function as `+k8s:validation-gen-deep-equal-func` takes one: an identifier, optionally
/// after an import path and a dot (`Equal`, `example.com/eq.Equal`).
fn go_func_name(v: &str) -> bool {
    let (path, ident) = match v.rsplit_once('.') {
        Some((p, i)) if !p.is_empty() => (Some(p), i),
        _ => (None, v),
    };
    let ident_ok = ident
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && ident.chars().all(|c| c.is_alphanumeric() || c == '_');
    let path_ok = path.is_none_or(|p| {
        p.split('/').all(|seg| {
            !seg.is_empty()
                && seg
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '~'))
        })
    });
    ident_ok && path_ok
}

/// One target package that generates validation (upstream `targets.go`'s loop over its inputs): its
/// `+k8s:validation-gen` settings select root types of its [`input`](Activation::input) package — its
/// `+k8s:validation-gen-input`, else itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activation {
    /// The target package (where upstream writes the generated file).
    pub pkg: String,
    /// The package whose types it selects: its `+k8s:validation-gen-input` (k8s.io/kubernetes'
    /// `pkg/apis/apps/v1` names `k8s.io/api/apps/v1`), else `pkg` itself.
    pub input: String,
    /// Its settings ([`gen_config`]; `implicit` for a package without the tag, which vgc's Rust targets build
    /// with `TypesWithField=TypeMeta` and upstream does not generate).
    pub cfg: GenConfig,
}

/// The activations of the program: every target package not tagged `+k8s:validation-gen=false`, in program
/// order (target packages in path order). An activation whose input package is not loaded selects nothing (the
/// load reported why, at its tag).
#[must_use]
pub fn activations(db: &dyn Db, prog: &Program) -> Vec<Activation> {
    prog.packages
        .iter()
        .filter(|(_, p)| p.target)
        .filter_map(|(path, p)| {
            let cfg = gen_config(db, prog, path, &mut Vec::new());
            (!cfg.disabled).then(|| Activation {
                pkg: path.clone(),
                input: input_of(db, p),
                cfg,
            })
        })
        .collect()
}

/// The package whose types target package `p` selects: its `+k8s:validation-gen-input`, else itself.
fn input_of(db: &dyn Db, p: &crate::program::Package) -> String {
    crate::program::validation_gen_input(db, &p.files).map_or_else(|| p.path.clone(), |t| t.input)
}

/// The root types of every target package's activation (sorted per activation, activations in program order,
/// each type once), selected from the activation's input package ([`Activation::input`]) with its
/// `+k8s:validation-gen` settings plus `extra_roots` (`--roots`). Unknown criteria become `VGC0005` errors in
/// `diags`, and a criterion that selects no type in any enabled target package a `VGC0005` warning (a misspelt
/// field or suffix would otherwise go unnoticed).
pub fn all_roots(
    db: &dyn Db,
    prog: &Program,
    extra_roots: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<TypeKey> {
    let mut roots = Vec::new();
    let mut selected = vec![false; extra_roots.len()];
    let mut enabled = false;
    for (path, p) in &prog.packages {
        if !p.target {
            continue;
        }
        let mut cfg = gen_config(db, prog, path, diags);
        enabled |= !cfg.disabled;
        let types_pkg = input_of(db, p);
        for (i, c) in extra_roots.iter().enumerate() {
            let mut only = GenConfig::default();
            if !cfg.disabled && add_criterion(&mut only, c) && !selected[i] {
                selected[i] = !roots_of(db, prog, &types_pkg, &only).is_empty();
            }
            if !cfg.disabled && !add_criterion(&mut cfg, c) {
                diags.push(
                    Diagnostic::error(
                        Code::GeneratorConfig,
                        format!("unknown root criterion {c:?}"),
                    )
                    .with_hint("use `*`, `TypesWithField=<GoField>` or `TypesWithSuffix=<suffix>`"),
                );
            }
        }
        roots.extend(roots_of(db, prog, &types_pkg, &cfg));
    }
    // Two activations of one input (k8s.io/api's `resource/v1` activates itself, k8s.io/kubernetes'
    // `pkg/apis/resource/v1` activates it too) select some types twice.
    let mut seen = std::collections::HashSet::new();
    roots.retain(|k| seen.insert(k.clone()));
    for (c, _) in extra_roots.iter().zip(selected).filter(|(_, s)| !s) {
        let mut only = GenConfig::default();
        if enabled && add_criterion(&mut only, c) {
            diags.push(
                Diagnostic::warning(
                    Code::GeneratorConfig,
                    format!("root criterion {c:?} (--roots) selects no type in any target package"),
                )
                .with_hint("check the spelling: `TypesWithField=` names a Go field (e.g. `TypeMeta`), `TypesWithSuffix=` the end of a type name"),
            );
        }
    }
    roots
}

/// The tag a chain of `k8s:alpha`/`k8s:beta` stability wrappers marks (the tag itself when it is not one).
#[must_use]
pub fn unwrap_levels(t: &vgc_parser::tags::Tag) -> &vgc_parser::tags::Tag {
    let mut cur = t;
    while matches!(cur.tag_id(), Some(TagId::Alpha | TagId::Beta)) {
        match cur.inner() {
            Some(i) => cur = i,
            None => break,
        }
    }
    cur
}

/// What a declaration's `opaqueType` tags make opaque (not validated through their own type's function).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Opacity {
    /// `+k8s:opaqueType`: the value's own type.
    pub value: bool,
    /// `+k8s:eachVal=+k8s:opaqueType`: list elements / map values.
    pub elems: bool,
    /// `+k8s:eachKey=+k8s:opaqueType`: map keys.
    pub keys: bool,
}

/// Opacity from a declaration's tags, as upstream merges `Validations.OpaqueType` / `OpaqueValType` /
/// `OpaqueKeyType` through `alpha`/`beta` wrappers. Tags that failed to parse are ignored.
#[must_use]
pub fn opacity(tags: &[vgc_ir::model::TagUse]) -> Opacity {
    let mut o = Opacity::default();
    for u in tags {
        let Ok(t) = &u.parsed else { continue };
        let t = unwrap_levels(t);
        let inner_opaque = || {
            t.inner()
                .is_some_and(|i| unwrap_levels(i).is_tag(TagId::OpaqueType))
        };
        match t.tag_id() {
            Some(TagId::OpaqueType) => o.value = true,
            Some(TagId::EachVal) => o.elems |= inner_opaque(),
            Some(TagId::EachKey) => o.keys |= inner_opaque(),
            _ => {}
        }
    }
    o
}

/// Adds a root criterion given on the command line (`*`, `TypesWithField=F`, `TypesWithSuffix=S`) to a
/// package's settings, as an activating package such as kubernetes/kubernetes' `pkg/apis/<group>/<version>`
/// (`+k8s:validation-gen-input=`) would. Returns false for an unknown criterion.
pub fn add_criterion(cfg: &mut GenConfig, criterion: &str) -> bool {
    if criterion == "*" {
        cfg.all = true;
    } else if let Some(x) = criterion.strip_prefix("TypesWithField=") {
        cfg.with_field.push(x.to_string());
    } else if let Some(x) = criterion.strip_prefix("TypesWithSuffix=") {
        cfg.with_suffix.push(x.to_string());
    } else {
        return false;
    }
    true
}

fn embeds(
    db: &dyn Db,
    prog: &Program,
    key: &TypeKey,
    decl: &TypeIr,
    file: SourceFile,
    pkg: &str,
    name: &str,
) -> bool {
    decl.fields.iter().any(|f| {
        f.go_name.is_none()
            && matches!(resolve(db, prog, &key.pkg, file, &f.ty), Ty::Named(ref k) if k.pkg == pkg && k.name == name)
            || f.go_name.is_none() && matches!(&f.ty, TypeExpr::Named { name: n, .. } if n == name)
    })
}

pub use salsa_decl_key::DeclKey;

/// `DeclKey` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_decl_key {
    use super::*;

    /// A declared type as a salsa key for [`type_edges`].
    #[salsa::interned(debug)]
    pub struct DeclKey<'db> {
        /// The type.
        #[returns(ref)]
        pub key: TypeKey,
    }
}

/// What root selection, reachability and boxing read of one type declaration: its resolved type references and
/// the facts `targets.go` looks at. Tag-free except for `k8s:validation-gen`, so editing any other tag leaves it
/// equal (the per-type query is backdated and the whole-program passes over it do not re-run).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeEdges {
    /// Named types in the declared type and then in each field's type, in order ([`collect_named`]).
    pub refs: Vec<TypeKey>,
    /// For the declared type and each field, the named type behind any pointers (direct containment).
    pub direct: Vec<TypeKey>,
    /// Exported and not generic.
    pub exported: bool,
    /// A type-level `+k8s:validation-gen=false`.
    pub tag_false: bool,
    /// A type-level `+k8s:validation-gen=true`.
    pub tag_true: bool,
    /// A struct.
    pub is_struct: bool,
    /// Each field's Go name, or for an embedded field the name of its type.
    pub field_names: Vec<String>,
    /// Embeds `metav1.ListMeta`.
    pub embeds_list_meta: bool,
    /// An alias declaration (`type X = Y`).
    pub is_alias: bool,
}

/// The [`TypeEdges`] of a type of the database's [`crate::loaded_program`] (`None` when it declares no such
/// type).
#[salsa::tracked(returns(ref))]
pub fn type_edges<'db>(db: &'db dyn Db, id: DeclKey<'db>) -> Option<TypeEdges> {
    let prog = crate::loaded_program(db);
    let key = id.key(db);
    let (decl, file) = prog.type_decl(db, key)?;
    let resolved: Vec<Ty> = std::iter::once(&decl.ty)
        .chain(decl.fields.iter().map(|f| &f.ty))
        .map(|e| resolve(db, prog, &key.pkg, file, e))
        .collect();
    let mut refs = Vec::new();
    let mut direct = Vec::new();
    for t in &resolved {
        collect_named(t, &mut refs);
        let mut cur = t;
        while let Ty::Pointer(i) = cur {
            cur = i;
        }
        if let Ty::Named(n) = cur {
            direct.push(n.clone());
        }
    }
    let type_tag: Vec<String> = decl
        .tags
        .iter()
        .chain(&decl.second_tags)
        .filter(|u| u.control_tag() == Some(ControlTag::ValidationGen))
        .map(|u| u.raw_value.clone().unwrap_or_default())
        .collect();
    let is_struct = matches!(decl.ty, TypeExpr::Struct(_));
    Some(TypeEdges {
        refs,
        direct,
        exported: key.name.starts_with(|c: char| c.is_uppercase()) && !decl.generic,
        tag_false: type_tag.iter().any(|v| v.trim() == "false"),
        tag_true: type_tag.iter().any(|v| v.trim() == "true"),
        is_struct,
        is_alias: decl.is_alias,
        field_names: decl
            .fields
            .iter()
            .filter_map(|f| match (&f.go_name, &f.ty) {
                (Some(n), _) => Some(n.clone()),
                (None, TypeExpr::Named { name, .. }) => Some(name.clone()),
                (None, _) => None,
            })
            .collect(),
        embeds_list_meta: is_struct
            && embeds(
                db,
                prog,
                key,
                decl,
                file,
                "k8s.io/apimachinery/pkg/apis/meta/v1",
                "ListMeta",
            ),
    })
}

fn edges_of<'db>(db: &'db dyn Db, key: &TypeKey) -> Option<&'db TypeEdges> {
    type_edges(db, DeclKey::new(db, key.clone())).as_ref()
}

/// The kinds of the target packages whose declarative validation is off (`+k8s:validation-gen=false` on the
/// package): exported structs with a `TypeMeta` field, sorted by (package, name). Such a package generates nothing,
/// but its kinds are still served; `vgc validate` reports their objects as declared kinds with no declarative rules
/// instead of unknown ones.
#[must_use]
pub fn switched_off_kinds(db: &dyn Db, prog: &Program) -> Vec<TypeKey> {
    let mut out = Vec::new();
    for (path, p) in &prog.packages {
        if !p.target || !gen_config(db, prog, path, &mut Vec::new()).disabled {
            continue;
        }
        for name in p.types.keys() {
            let key = TypeKey {
                pkg: path.clone(),
                name: name.clone(),
            };
            if edges_of(db, &key).is_some_and(|e| {
                e.exported && e.is_struct && e.field_names.iter().any(|f| f == "TypeMeta")
            }) {
                out.push(key);
            }
        }
    }
    out.sort();
    out
}

/// Root types of a target package, sorted by name (upstream `targets.go`): exported, not type-tagged
/// `validation-gen=false`, and type-tagged `true` or matching a package criterion; structs embedding
/// `metav1.ListMeta` are excluded from 1.36 on ([`vgc_ir::Upstream::roots_skip_list_meta`]).
#[must_use]
pub fn roots_of(db: &dyn Db, prog: &Program, pkg: &str, cfg: &GenConfig) -> Vec<TypeKey> {
    let mut out = Vec::new();
    let Some(p) = prog.packages.get(pkg) else {
        return out;
    };
    if cfg.disabled {
        return out;
    }
    let skip_lists = vgc_ir::profile::upstream(db).roots_skip_list_meta();
    for name in p.types.keys() {
        let key = TypeKey {
            pkg: pkg.to_string(),
            name: name.clone(),
        };
        let Some(e) = edges_of(db, &key) else {
            continue;
        };
        if !e.exported || e.tag_false {
            continue;
        }
        // An alias declaration (`type X = other.Y`) names another type: gengo resolves it to that type, whose own
        // package generates its validation, so upstream selects no root for it here (k8s.io/api v0.38.0-beta.0's
        // `scheduling/v1alpha3` aliases of `scheduling/v1` under `+k8s:validation-gen=*`: no `Validate_` for them).
        if e.is_alias {
            continue;
        }
        let matches = cfg.all
            || cfg.with_suffix.iter().any(|s| name.ends_with(s.as_str()))
            || (e.is_struct && cfg.with_field.iter().any(|f| e.field_names.contains(f)));
        if !(e.tag_true || matches) || (e.embeds_list_meta && skip_lists) {
            continue;
        }
        out.push(key);
    }
    out.sort();
    out
}

/// Every named type reachable from `roots` through fields, elements, keys, values and typedefs, in discovery
/// order (roots first), over the [`type_edges`] of the database's program.
#[must_use]
pub fn reachable(db: &dyn Db, roots: &[TypeKey]) -> IndexSet<TypeKey> {
    let mut seen: IndexSet<TypeKey> = IndexSet::new();
    let mut stack: Vec<TypeKey> = roots.iter().rev().cloned().collect();
    while let Some(k) = stack.pop() {
        if !seen.insert(k.clone()) {
            continue;
        }
        let Some(e) = edges_of(db, &k) else {
            continue;
        };
        for n in e.refs.iter().rev() {
            if !seen.contains(n) {
                stack.push(n.clone());
            }
        }
    }
    seen
}

/// Collects named types in `t`.
pub fn collect_named(t: &Ty, out: &mut Vec<TypeKey>) {
    match t {
        Ty::Named(k) => out.push(k.clone()),
        Ty::Pointer(i) | Ty::Slice(i) => collect_named(i, out),
        Ty::Map(k, v) => {
            collect_named(k, out);
            collect_named(v, out);
        }
        _ => {}
    }
}

/// The types of `types` whose values can contain a value of the same type at any depth — through fields,
/// pointers, slices, maps or typedefs (a cycle of [`TypeEdges::refs`]: a non-trivial strongly connected component,
/// or a type referring to itself). Validating, comparing or dropping such a value recurses once per level of the
/// input, so generated code runs it on a growable stack (R32). Kosaraju's algorithm (petgraph, iterative).
#[must_use]
pub fn recursive_types(db: &dyn Db, types: &IndexSet<TypeKey>) -> IndexSet<TypeKey> {
    let index = |k: &TypeKey| types.get_index_of(k);
    let mut graph = petgraph::graph::DiGraph::<(), ()>::with_capacity(types.len(), 0);
    for _ in 0..types.len() {
        graph.add_node(());
    }
    let mut self_loops = Vec::new();
    for (i, k) in types.iter().enumerate() {
        let Some(e) = edges_of(db, k) else {
            continue;
        };
        for r in &e.refs {
            if let Some(j) = index(r) {
                if i == j {
                    self_loops.push(i);
                }
                graph.add_edge(
                    petgraph::graph::NodeIndex::new(i),
                    petgraph::graph::NodeIndex::new(j),
                    (),
                );
            }
        }
    }
    let mut out: std::collections::BTreeSet<usize> = self_loops.into_iter().collect();
    for scc in petgraph::algo::kosaraju_scc(&graph) {
        if scc.len() > 1 {
            out.extend(scc.iter().map(|n| n.index()));
        }
    }
    out.into_iter().map(|i| types[i].clone()).collect()
}

/// Types whose values contain themselves without indirection through a slice or map: pointer edges to these
/// must be boxed in Rust. Returns the set of (containing type, pointee type) pairs to box, in the order of `types`
/// and then of the fields: an edge is boxed when its two ends are in one strongly connected component of the
/// direct-containment graph (Kosaraju's algorithm, petgraph: iterative, so a chain of 100,000 types is no stack overflow), i.e. when the pointee contains the container again.
#[must_use]
pub fn boxed_edges(db: &dyn Db, types: &IndexSet<TypeKey>) -> IndexSet<(TypeKey, TypeKey)> {
    // Direct edges: a struct field of type T or *T (or a typedef of such).
    let mut edges: IndexMap<TypeKey, Vec<TypeKey>> = IndexMap::new();
    for k in types {
        let Some(e) = edges_of(db, k) else {
            continue;
        };
        edges.insert(k.clone(), e.direct.clone());
    }
    let mut nodes: IndexSet<&TypeKey> = edges.keys().collect();
    for outs in edges.values() {
        nodes.extend(outs);
    }
    let mut graph = petgraph::graph::DiGraph::<(), ()>::with_capacity(nodes.len(), 0);
    for _ in 0..nodes.len() {
        graph.add_node(());
    }
    let index = |k: &TypeKey| petgraph::graph::NodeIndex::new(nodes.get_index_of(k).unwrap_or(0));
    for (k, outs) in &edges {
        for o in outs {
            graph.add_edge(index(k), index(o), ());
        }
    }
    let mut component = vec![0; nodes.len()];
    for (c, scc) in petgraph::algo::kosaraju_scc(&graph).iter().enumerate() {
        for n in scc {
            component[n.index()] = c;
        }
    }
    let mut out = IndexSet::new();
    for (k, outs) in &edges {
        for o in outs {
            if component[index(k).index()] == component[index(o).index()] {
                out.insert((k.clone(), o.clone()));
            }
        }
    }
    out
}

/// upstream `RegisterValidations` (spec §3.6): the subresource paths a root type's validation runs for, sorted — `"/"`
/// unless the type is tagged `isSubresource`, plus every `supportsSubresource` value and the `isSubresource` value.
/// The values are Go string literals, or in 1.35 the tag text verbatim
/// ([`vgc_ir::Upstream::subresource_values_verbatim`]). Lowering registers roots with it; `vgc lint` checks
/// subresource conditions against it.
#[must_use]
pub fn served_subresources(db: &dyn Db, decl: &TypeIr) -> std::collections::BTreeSet<String> {
    let mut allowed = std::collections::BTreeSet::new();
    let mut is_sub = false;
    let raw = vgc_ir::profile::upstream(db).subresource_values_verbatim();
    for u in decl.tags.iter().chain(&decl.second_tags) {
        let value = || {
            let v = u.raw_value.as_deref().map(str::trim);
            if raw {
                v.map(str::to_string)
            } else {
                v.and_then(vgc_parser::structtag::unquote_interpreted)
            }
        };
        match u.control_tag() {
            Some(ControlTag::SupportsSubresource) => {
                allowed.extend(value());
            }
            Some(ControlTag::IsSubresource) => {
                is_sub = true;
                allowed.extend(value());
            }
            _ => {}
        }
    }
    if !is_sub {
        allowed.insert("/".to_string());
    }
    allowed
}
