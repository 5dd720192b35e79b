//! The `generate` phase: Rust code from the plan (`vgc_codegen`). For vgc's own structs, incrementally: a module
//! whose generation key the formatting cache (or, in a live session, the last build) already holds is reused
//! and not generated; the others are generated through the database's per-module queries, taking the items of
//! unchanged types from the unit cache ([`crate::cache::units`]). For the k8s-openapi target, the whole crate at
//! once ([`generate_whole`]).

use crate::cache::units;
use crate::database::Database;
use crate::format::FmtCache;
use crate::request::{BuildRequest, formatter};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use vgc_codegen::{CodegenError, GeneratedFile, Options};
use vgc_lowering::CratePlan;

/// The last build's formatted modules of a live session with their generation keys, by path: a rebuild reuses
/// those whose key is unchanged, including modules the first build took from the disk cache and never generated.
pub(crate) type LastModules = HashMap<String, (String, GeneratedFile)>;

/// What [`generate`] produced, and what the [`format`](super::format::format) and
/// [`write`](super::write::write) phases need of it.
pub(crate) struct Generation {
    /// Every file of the crate, generated now or reused, sorted by path (unformatted where generated now).
    pub(crate) files: Vec<GeneratedFile>,
    /// The paths of the reused modules (already formatted).
    pub(crate) reused: HashSet<String>,
    /// The paths of the modules generated now.
    pub(crate) regenerate: Vec<String>,
    /// Every module's generation key (`vgc_codegen::module_keys`, salted with the tool and the formatter), by
    /// path.
    pub(crate) keys: HashMap<String, String>,
    /// The formatting cache in use (`None` without a cache directory or with `--no-cache`).
    pub(crate) cache: Option<FmtCache>,
    /// What the unit cache held for the modules generated now (empty in a warm session).
    pub(crate) loaded_units: Arc<units::Entries>,
    /// Whether the session is warm (a previous build left its formatting cache in memory): modules are reused
    /// from `last` rather than from disk, and the formatting memo needs no recovery from disk.
    pub(crate) warm: bool,
}

/// Generates the modules of the crate `opts` describes from the database's plan, reusing what it can:
/// - `cache`: the formatting cache the session's last build left (`Some` makes the session warm: reuse goes by
///   `last`), else the one of `req`'s cache directory, loaded now (notes for an unusable one go to `notes`);
/// - `last`: the last build's modules of a warm session.
///
/// Modules generated again take the items of their unchanged types from the unit cache, read into `db`'s
/// `UnitCache` input here (a warm session has them memoised already).
///
/// # Errors
/// Generated code that does not parse (a bug in vgc's emitter, never in the input).
pub(crate) fn generate(
    db: &mut Database,
    cache: Option<FmtCache>,
    last: &LastModules,
    req: &BuildRequest,
    opts: &Options,
    notes: &mut Vec<String>,
) -> Result<Generation, CodegenError> {
    // A warm session (watch) keeps the formatting cache in memory and needs no disk reuse: the database memoises
    // generated modules and the session's unit memo the formatted ones.
    let warm = cache.is_some();
    let cache = match cache {
        Some(c) if !req.no_cache => Some(c),
        _ => req
            .cache_root()
            .map(|c| FmtCache::load(&c, req.rustfmt, notes)),
    };
    // Modules whose generation key matches the cache and whose file is untouched (or, warm, whose key matches
    // the last build's) are neither generated nor formatted.
    let keys = vgc_codegen::module_keys(
        &*db,
        &format!("{} {}", crate::cache::tool_fingerprint(), formatter(req)),
    );
    let reused_files = match (&cache, req.out.as_deref()) {
        _ if warm => keys
            .iter()
            .filter_map(|(path, key)| {
                last.get(path)
                    .filter(|(k, _)| k == key)
                    .map(|(_, f)| f.clone())
            })
            .collect(),
        (Some(c), Some(dir)) => c.reuse(dir, &keys),
        _ => Vec::new(),
    };
    let reused: HashSet<String> = reused_files.iter().map(|f| f.path.clone()).collect();
    let regenerate: Vec<String> = keys
        .iter()
        .map(|(p, _)| p.clone())
        .filter(|p| !reused.contains(p))
        .collect();
    let mut loaded_units = Arc::new(units::Entries::new());
    if let (Some(dir), false) = (req.cache_root(), warm) {
        use salsa::Setter as _;
        loaded_units = Arc::new(units::load(&dir, &regenerate, notes));
        match vgc_codegen::UnitCache::try_get(&*db) {
            Some(c) => {
                c.set_entries(db).to(loaded_units.clone());
            }
            None => {
                vgc_codegen::UnitCache::new(&*db, loaded_units.clone());
            }
        }
    }
    let keys: HashMap<String, String> = keys.into_iter().collect();
    let mut files = vgc_codegen::generate_incremental(&*db, opts, &reused)?;
    files.extend(reused_files);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Generation {
        files,
        reused,
        regenerate,
        keys,
        cache,
        loaded_units,
        warm,
    })
}

/// Generates the whole crate from `plan` without the incremental queries and caches
/// ([`vgc_codegen::generate`]; the k8s-openapi target).
///
/// # Errors
/// Generated code that does not parse (a bug in vgc's emitter).
pub(crate) fn generate_whole(
    plan: &CratePlan,
    opts: &Options,
) -> Result<Vec<GeneratedFile>, CodegenError> {
    vgc_codegen::generate(plan, opts)
}

/// The files written beside the generated code of a build with an output directory: the `--custom-stub` stub
/// ([`custom_stub`]) and, for [`vgc_codegen::RuntimeDep::Vendored`] (the default), the vendored runtime
/// ([`vgc_codegen::vendored_runtime`]). Neither is formatted again nor cached: the runtime's files are the same
/// bytes for every build of one vgc.
pub(crate) fn companion_files(
    req: &BuildRequest,
    plan: &CratePlan,
    opts: &Options,
) -> Vec<GeneratedFile> {
    let mut files: Vec<GeneratedFile> = custom_stub(req, plan, opts).into_iter().collect();
    if req.out.is_some() && opts.runtime == vgc_codegen::RuntimeDep::Vendored {
        files.extend(vgc_codegen::vendored_runtime());
    }
    files
}

/// `src/custom.rs`, the stub of the `+k8s:customValidation` functions, when `--custom-stub` asks for it and the
/// output has none yet (an existing one is the user's and is never replaced); formatted like the other files
/// ([`crate::format::rustfmt_in_place`] with `--rustfmt`).
fn custom_stub(req: &BuildRequest, plan: &CratePlan, opts: &Options) -> Option<GeneratedFile> {
    let dir = req.out.as_ref()?;
    if !req.custom_stub || dir.join("src/custom.rs").exists() {
        return None;
    }
    let mut stub = vgc_codegen::custom_stub(plan, opts)?;
    if req.rustfmt {
        crate::format::rustfmt_in_place(&mut stub);
    }
    Some(stub)
}

/// The outcome's error when generated code fails to parse (a bug in vgc's emitter, never in the input).
pub(crate) fn unparsable(e: &CodegenError) -> String {
    format!(
        "internal error: generated code for {} does not parse: {}",
        e.module, e.message
    )
}
