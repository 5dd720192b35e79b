//! vgc-codegen: emits the generated crate from a [`CratePlan`]: serde structs for every reachable type and
//! validation functions plus `Validate` impls, built with quote, checked by syn and formatted by prettyplease.
//!
//! Invariant: no semantic decisions here; everything comes from the plan.

mod emit;
pub mod ident;
pub mod k8s_openapi;
mod vendor;

pub use emit::Layout;
use std::sync::Arc;
pub use vendor::{VENDOR_DIR, hand_edited, vendored_runtime};
use vgc_ir::Db;
use vgc_lowering::{CratePlan, ModuleKey, module_plan};

/// One generated file: path relative to the crate root and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path, e.g. `src/core/v1.rs`.
    pub path: String,
    /// File contents.
    pub contents: String,
    /// Byte offsets in `contents` where the file's second and later formatting units start (empty: one unit).
    /// A unit is a top-level item, or the header; formatting each unit alone and concatenating the results gives
    /// the same text as formatting the whole file, so a rebuild re-formats only the units that changed.
    pub chunks: Vec<usize>,
}

/// The `vgc-runtime` version whose API this codegen emits calls to: the default version requirement of generated
/// crates ([`RuntimeDep::published`]). Kept equal to `runtime/Cargo.toml`'s version (a unit test checks it).
pub const RUNTIME_VERSION: &str = "0.1.0";

/// The kube-core version requirement of the generated crates' optional `kube` feature
/// (`registry::validate_dynamic_object`): kube-core 5 is the release whose k8s-openapi requirement is 0.29, the
/// k8s-openapi target's ([`k8s_openapi::K8S_OPENAPI_CRATE`]; kube-core 4.x requires 0.28).
pub const KUBE_CORE_VERSION: &str = "5";

/// How the generated crate depends on `vgc-runtime`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RuntimeDep {
    /// The default: the runtime's sources, embedded in vgc at its build, written into the output as the crate
    /// [`VENDOR_DIR`] (`vgc-runtime/`, [`vendored_runtime`]) and depended on by the relative path
    /// `{ path = "vgc-runtime" }` — the generated crate builds with no registry and no checkout, and moves with
    /// its directory.
    #[default]
    Vendored,
    /// A path dependency, written as given (a relative path is relative to the output directory).
    Path(String),
    /// A crates.io version requirement.
    Version(String),
}

impl RuntimeDep {
    /// `vgc-runtime` from crates.io at [`RUNTIME_VERSION`] — portable, no path of the generating machine in the
    /// output (use `[patch.crates-io]` to build against a checkout). Not the default while `vgc-runtime` is
    /// unpublished ([`RuntimeDep::Vendored`] is).
    #[must_use]
    pub fn published() -> Self {
        Self::Version(RUNTIME_VERSION.to_string())
    }
}

#[cfg(test)]
mod runtime_version_tests {
    #[test]
    fn runtime_version_is_the_runtime_crates() {
        // Read at compile time: the crate does no file system access, tests included (clippy.toml).
        let manifest = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../runtime/Cargo.toml"
        ));
        let workspace = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml"));
        let version = if manifest.contains("version.workspace = true") {
            workspace
        } else {
            manifest
        };
        assert!(
            version.contains(&format!("\nversion = \"{}\"\n", super::RUNTIME_VERSION)),
            "RUNTIME_VERSION differs from runtime/Cargo.toml's version"
        );
    }
}

/// Options for crate generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The generated package's name.
    pub crate_name: String,
    /// The runtime dependency.
    pub runtime: RuntimeDep,
    /// Which structs the validators run on.
    pub target: Target,
}

/// The structs the generated validators run on (`vgc build --target`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// vgc's own serde structs, generated into the crate (`--target vgc`, the default).
    #[default]
    Own,
    /// The structs of the k8s-openapi crate (`--target k8s-openapi --k8s-openapi-version 1.37`): the crate
    /// defines no types, only validation functions, an extension trait `Validate` implemented for the k8s-openapi
    /// types, upstream's semantic equality over them (`semantic`) and the GVK registry ([`k8s_openapi`]).
    K8sOpenapi(k8s_openapi::K8sOpenapiVersion),
}

/// Errors from codegen: generated code that does not parse (a vgc bug, reported with the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodegenError {
    /// Module whose code failed.
    pub module: String,
    /// The syn error.
    pub message: String,
}

/// A starting `src/custom.rs` for the `+k8s:customValidation` functions: `pub struct Custom;` and an impl of
/// every generated module's `Custom` trait whose functions report no errors. `None` when the crate needs none.
/// Written by `vgc build --custom-stub` only when the file does not exist; replace the bodies with real checks.
#[must_use]
pub fn custom_stub(plan: &CratePlan, opts: &Options) -> Option<GeneratedFile> {
    emit::custom_stub(plan, opts)
}

/// Generates the crate's files: `Cargo.toml`, `src/lib.rs`, one module file per Go package and intermediate
/// `mod.rs`-style parents. Output is deterministic.
///
/// # Errors
/// A [`CodegenError`] if emitted code fails to parse (a bug in vgc, never in the input).
pub fn generate(plan: &CratePlan, opts: &Options) -> Result<Vec<GeneratedFile>, CodegenError> {
    match opts.target {
        Target::Own => emit::generate(plan, opts),
        // What the version lacks was reported (VGC0121/VGC0122); generation leaves it out.
        Target::K8sOpenapi(v) => {
            let (map, problems) = k8s_openapi::Mapping::of(plan, v);
            let pruned = k8s_openapi::prune(plan, &map, &problems);
            let mut layout = Layout::of(&pruned);
            layout.openapi = Some(map);
            emit::generate_with(&pruned, opts, layout)
        }
    }
}

/// The [`Layout`] of `plan` for `target`: with the k8s-openapi mapping ([`k8s_openapi::Mapping::of`]) on the
/// k8s-openapi target.
#[must_use]
pub fn layout_for(plan: &CratePlan, target: Target) -> Layout {
    let mut layout = Layout::of(plan);
    if let Target::K8sOpenapi(v) = target {
        layout.openapi = Some(k8s_openapi::Mapping::of(plan, v).0);
    }
    layout
}

/// The [`Layout`] of the database's [`vgc_lowering::crate_plan`].
#[salsa::tracked(returns(ref))]
pub fn layout(db: &dyn Db) -> Layout {
    Layout::of(vgc_lowering::crate_plan(db))
}

pub use salsa_module_file_key::ModuleFileKey;

/// `ModuleFileKey` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_module_file_key {

    /// A module file's identity as a salsa key: its Rust module path (`[]` is the crate root).
    #[salsa::interned(debug)]
    pub struct ModuleFileKey<'db> {
        /// Module path segments.
        #[returns(ref)]
        pub path: Vec<String>,
    }
}

/// One module file (`src/lib.rs`, `src/<group>/mod.rs` or `src/<group>/<version>.rs`) of the crate
/// [`generate_incremental`] produces, unformatted (prettyplease). Depends on the [`layout`] and on its own
/// package's [`module_plan`] only, so it re-runs only when that package's plan or the crate's shape changes.
///
/// # Errors
/// A [`CodegenError`] if the emitted code fails to parse (a bug in vgc, never in the input).
#[salsa::tracked(returns(ref))]
pub fn module_file<'db>(
    db: &'db dyn Db,
    key: ModuleFileKey<'db>,
) -> Result<GeneratedFile, CodegenError> {
    let layout = layout(db);
    let path = key.path(db);
    let module = layout
        .leaves
        .get(path)
        .and_then(|pkg| module_plan(db, ModuleKey::new(db, pkg.clone())).as_deref());
    emit::emit_module(layout, module, path, &mut |t| {
        type_file_units(
            db,
            TypeUnitKey::new(db, t.key.pkg.clone(), t.key.name.clone()),
        )
        .clone()
    })
}

pub use salsa_type_unit_key::TypeUnitKey;

/// `TypeUnitKey` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_type_unit_key {

    /// A generated type's identity as a salsa key (Go import path and type name).
    #[salsa::interned(debug)]
    pub struct TypeUnitKey<'db> {
        /// Import path.
        #[returns(ref)]
        pub pkg: String,
        /// Type name.
        #[returns(ref)]
        pub name: String,
    }
}

/// One type's plan, projected out of its module's plan: backdated when the type's plan is unchanged, so an edit
/// re-generates only the types it changed.
#[salsa::tracked(returns(ref))]
pub fn type_plan<'db>(
    db: &'db dyn Db,
    key: TypeUnitKey<'db>,
) -> Option<std::sync::Arc<vgc_lowering::plan::TypePlan>> {
    module_plan(db, ModuleKey::new(db, key.pkg(db).clone()))
        .as_ref()?
        .types
        .iter()
        .find(|t| t.key.name == *key.name(db))
        .cloned()
}

/// The formatting units of one type's generated items (its Rust type, validation function and `Validate` impl),
/// unformatted; [`module_file`] concatenates them.
///
/// # Errors
/// A [`CodegenError`] if the emitted code fails to parse (a bug in vgc).
#[salsa::tracked(returns(ref))]
pub fn type_file_units<'db>(
    db: &'db dyn Db,
    key: TypeUnitKey<'db>,
) -> Result<Vec<String>, CodegenError> {
    if let Some(cache) = UnitCache::try_get(db)
        && let Some(units) = cache.entries(db).get(type_key(db, key))
    {
        return Ok((**units).clone());
    }
    match type_plan(db, key) {
        Some(t) => emit::type_units(layout(db), t),
        None => Ok(Vec::new()),
    }
}

/// What [`compare_direct_printer`] found: how many items the direct printer covered, and every difference.
#[derive(Debug, Default)]
pub struct PrinterComparison {
    /// Items with a direct form (struct definitions and aliases, validation functions, `Validate` impls) printed
    /// directly.
    pub direct: usize,
    /// Items with a direct form in the plan, printed directly or not.
    pub items: usize,
    /// Types whose units differ between the two printers.
    pub differences: Vec<PrinterDifference>,
}

/// One type whose direct-printer units differ from prettyplease's.
#[derive(Debug)]
pub struct PrinterDifference {
    /// The Go type (`import/path.Name`).
    pub ty: String,
    /// The first differing unit as the direct printer prints it.
    pub direct: String,
    /// The same unit as prettyplease prints it.
    pub prettyplease: String,
}

/// Compares the direct printer of regular items (struct definitions, aliases, validation functions printed by
/// frame and statement, plain `Validate` impls; see `emit/text.rs`) with whole-item prettyplease on every type of
/// `plan` under `target`. The shortcut exists only for speed
/// (issue 12), so any difference is a bug; tests assert none.
///
/// # Errors
/// A [`CodegenError`] if the emitted code fails to parse (a bug in vgc).
pub fn compare_direct_printer(
    plan: &CratePlan,
    target: Target,
) -> Result<PrinterComparison, CodegenError> {
    let layout = layout_for(plan, target);
    let mut out = PrinterComparison::default();
    for t in plan.modules.iter().flat_map(|m| &m.types) {
        let fast = emit::type_units(&layout, t)?;
        let slow = emit::type_units_prettyplease(&layout, t)?;
        let (direct, items) = emit::direct_printer_items(&layout, t);
        out.direct += direct;
        out.items += items;
        if fast != slow {
            let (direct, prettyplease) = fast.iter().zip(&slow).find(|(a, b)| a != b).map_or_else(
                || (fast.join(""), slow.join("")),
                |(a, b)| (a.clone(), b.clone()),
            );
            out.differences.push(PrinterDifference {
                ty: t.key.to_string(),
                direct,
                prettyplease,
            });
        }
    }
    Ok(out)
}

pub use salsa_unit_cache::UnitCache;

/// `UnitCache` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_unit_cache {
    use super::*;

    /// [`type_file_units`] results from an earlier run, by [`type_key`] (the driver's persistent unit cache, loaded
    /// for the modules a rebuild must generate again). A type whose key has an entry is not emitted again: its units
    /// are a pure function of what the key hashes.
    #[salsa::input(singleton)]
    pub struct UnitCache {
        /// Unformatted units by type key.
        #[returns(ref)]
        pub entries: Arc<UnitEntries>,
    }
}

/// [`UnitCache`] entries: a type's unformatted units by [`type_key`].
pub type UnitEntries = std::collections::HashMap<vgc_ir::db::Digest, Arc<Vec<String>>>;

/// One type's [`type_key`] and unformatted units, as [`module_type_units`] lists them.
pub type KeyedUnits = (vgc_ir::db::Digest, Vec<String>);

/// The generation key of one type's units: BLAKE3 over the [`layout_hash`] and the type's plan (through `Hash`).
/// Equal keys mean equal [`type_file_units`] (for one vgc build; persistent caches add the tool's stamp).
#[salsa::tracked(returns(ref))]
pub fn type_key<'db>(db: &'db dyn Db, key: TypeUnitKey<'db>) -> vgc_ir::db::Digest {
    use std::hash::Hash as _;
    let mut h = Blake3Hasher::new();
    std::hash::Hasher::write(&mut h, &layout_hash(db).0);
    type_plan(db, key).hash(&mut h);
    h.digest().into()
}

/// Every type's [`type_key`] and unformatted units in the module file at `file` (a path as in [`module_keys`],
/// e.g. `src/widgets/v1.rs`), for a persistent cache; empty for files without types (crate root, parents) and
/// unknown paths.
///
/// # Errors
/// The first [`CodegenError`] of a type (a bug in vgc).
pub fn module_type_units(db: &dyn Db, file: &str) -> Result<Vec<KeyedUnits>, CodegenError> {
    let layout = layout(db);
    let Some(pkg) = layout
        .module_paths()
        .into_iter()
        .find(|p| layout.file_of(p) == file)
        .and_then(|p| layout.leaves.get(&p).cloned())
    else {
        return Ok(Vec::new());
    };
    let Some(module) = module_plan(db, ModuleKey::new(db, pkg)) else {
        return Ok(Vec::new());
    };
    module
        .types
        .iter()
        .map(|t| {
            let key = TypeUnitKey::new(db, t.key.pkg.clone(), t.key.name.clone());
            Ok((*type_key(db, key), type_file_units(db, key).clone()?))
        })
        .collect()
}

/// A content key for every module file of the database's crate: (file path, BLAKE3 hex of everything the file's
/// text is generated from — the [`Layout`], the module's plan and its path — plus `salt`, which the caller sets to
/// identify the generator build). Equal keys mean equal generated text, so a persistent cache can reuse a file
/// without generating it. The unsalted keys are queries ([`module_key`]), so a live session re-hashes only the
/// modules whose plan changed.
#[must_use]
pub fn module_keys(db: &dyn Db, salt: &str) -> Vec<(String, String)> {
    let layout = layout(db);
    layout
        .module_paths()
        .into_iter()
        .map(|path| {
            let unsalted = module_key(db, ModuleFileKey::new(db, path.clone()));
            let mut h = blake3::Hasher::new();
            h.update(salt.as_bytes());
            h.update(&unsalted.0);
            (layout.file_of(&path), h.finalize().to_hex().to_string())
        })
        .collect()
}

/// BLAKE3 of the [`Layout`] (through `Hash`).
#[salsa::tracked(returns(ref))]
pub fn layout_hash(db: &dyn Db) -> vgc_ir::db::Digest {
    use std::hash::Hash as _;
    let mut h = Blake3Hasher::new();
    layout(db).hash(&mut h);
    h.digest().into()
}

/// The unsalted generation key of one module file: BLAKE3 over the [`layout_hash`], the module path and the
/// module's plan (through `Hash`).
#[salsa::tracked(returns(ref))]
pub fn module_key<'db>(db: &'db dyn Db, key: ModuleFileKey<'db>) -> vgc_ir::db::Digest {
    use std::hash::Hash as _;
    let mut h = Blake3Hasher::new();
    std::hash::Hasher::write(&mut h, &layout_hash(db).0);
    let path = key.path(db);
    path.hash(&mut h);
    if let Some(pkg) = layout(db).leaves.get(path) {
        module_plan(db, ModuleKey::new(db, pkg.clone())).hash(&mut h);
    }
    h.digest().into()
}

/// A [`std::hash::Hasher`] feeding BLAKE3 (whose full digest is read with [`Blake3Hasher::digest`]). `Hash`
/// impls write a few bytes at a time; they are gathered and handed to BLAKE3 in 64 KiB pieces (the digest of a
/// byte sequence does not depend on how it is split).
struct Blake3Hasher {
    hasher: blake3::Hasher,
    pending: Vec<u8>,
}

impl Blake3Hasher {
    const PIECE: usize = 64 * 1024;

    fn new() -> Self {
        Self {
            hasher: blake3::Hasher::new(),
            pending: Vec::with_capacity(Self::PIECE),
        }
    }

    /// The BLAKE3 digest of every byte written so far.
    fn digest(&self) -> blake3::Hash {
        let mut h = self.hasher.clone();
        h.update(&self.pending);
        h.finalize()
    }
}

impl std::hash::Hasher for Blake3Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= Self::PIECE {
            self.hasher.update(&self.pending);
            self.pending.clear();
        }
    }
    fn finish(&self) -> u64 {
        let d = self.digest();
        let mut b = [0u8; 8];
        b.copy_from_slice(&d.as_bytes()[..8]);
        u64::from_le_bytes(b)
    }
}

/// [`generate`] for the database's workspace, through the per-module queries: after an edit, only the modules
/// whose inputs changed are generated again. Modules are computed in parallel through
/// [`vgc_ir::Db::par_each`]. Files whose path is in `skip` are not generated (the caller has them already, e.g.
/// from a cache keyed by [`module_keys`]). With an empty `skip` the output equals `generate(crate_plan(db), opts)`.
///
/// # Errors
/// The first [`CodegenError`] by module path.
pub fn generate_incremental(
    db: &dyn Db,
    opts: &Options,
    skip: &std::collections::HashSet<String>,
) -> Result<Vec<GeneratedFile>, CodegenError> {
    let layout = layout(db);
    let paths: Vec<Vec<String>> = layout
        .module_paths()
        .into_iter()
        .filter(|p| !skip.contains(&layout.file_of(p)))
        .collect();
    // Types first, each on its own (a module such as core/v1 holds a sixth of k8s.io/api's code: as one job it
    // would run alone at the end), then the modules, which only concatenate their types' units.
    let types: Vec<(String, String)> = paths
        .iter()
        .filter_map(|p| layout.leaves.get(p))
        .filter_map(|pkg| module_plan(db, ModuleKey::new(db, pkg.clone())).as_ref())
        .flat_map(|m| {
            m.types
                .iter()
                .map(|t| (t.key.pkg.clone(), t.key.name.clone()))
        })
        .collect();
    // The GVK dispatch (`src/registry.rs`, one file for the whole crate) is the first job, beside the types.
    db.par_each(types.len() + 1, &|db, i| match i.checked_sub(1) {
        None => {
            let _ = registry_file(db);
        }
        Some(i) => {
            let (pkg, name) = &types[i];
            let _ = type_file_units(db, TypeUnitKey::new(db, pkg.clone(), name.clone()));
        }
    });
    db.par_each(paths.len(), &|db, i| {
        let _ = module_file(db, ModuleFileKey::new(db, paths[i].clone()));
    });
    let mut files = Vec::with_capacity(paths.len() + 1);
    for p in paths {
        files.push(module_file(db, ModuleFileKey::new(db, p)).clone()?);
    }
    files.push(emit::cargo_toml(opts));
    files.push(registry_file(db).clone()?);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// The crate's kinds ([`vgc_lowering::plan::kinds`]): backdated unless a kind, its package's group or its module
/// changes, so [`registry_file`] is generated again only then.
#[salsa::tracked(returns(ref))]
pub fn kinds(db: &dyn Db) -> Vec<vgc_lowering::plan::KindRef> {
    vgc_lowering::plan::kinds(&vgc_lowering::crate_plan(db).modules)
}

/// `src/registry.rs`, the crate's GVK dispatch (`registry::validate_object`), from [`kinds`] and the [`layout`].
///
/// # Errors
/// A [`CodegenError`] if the emitted code fails to parse (a bug in vgc).
#[salsa::tracked(returns(ref))]
pub fn registry_file(db: &dyn Db) -> Result<GeneratedFile, CodegenError> {
    emit::registry_file(layout(db), kinds(db))
}
