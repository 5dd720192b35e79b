//! One-shot builds: [`build`] (the build manifest first, then a fresh [`Session`] with the persistent caches) and
//! [`check_with_ir_cache`] (`vgc check` with the IR cache of a directory, for `vgc validate`).

use crate::cache::manifest::{Manifest, Recorder};
use crate::request::{BuildOutcome, BuildRequest, formatter, request_key};
use crate::session::{Session, lock_output};
use crate::sys::OsSystem;
use std::sync::Arc;

/// Runs the pipeline once in a fresh [`Session`]. Outputs are written only when there is no error diagnostic,
/// each file atomically and only when its bytes change.
///
/// With an output directory and without `no_cache`, the build manifest ([`crate::cache::manifest`]) is consulted
/// first: when every input the previous clean build observed and every output it wrote are unchanged, nothing
/// is loaded and the outcome says [`BuildOutcome::up_to_date`] (with the previous summary counts). A clean build
/// writes the manifest; a build with diagnostics removes it.
#[must_use]
pub fn build(req: &BuildRequest) -> BuildOutcome {
    let (Some(dir), Some(cache)) = (req.out.as_deref(), req.cache_root()) else {
        return Session::default().build(req);
    };
    let mut notes = Vec::new();
    let _lock = match lock_output(req, &mut notes) {
        Ok(l) => l,
        Err(out) => return *out,
    };
    // Only after the output checks (R14: a refused output gets nothing created), under the lock, and only for a
    // build that writes (none outside a Go module).
    if let Some(Err(e)) = _lock.as_ref().map(|_| std::fs::create_dir_all(&cache)) {
        notes.push(format!(
            "{}: cannot create the cache directory ({e}); building without caches",
            cache.display()
        ));
        let mut uncached = req.clone();
        uncached.no_cache = true;
        let mut out = Session::default().build_with(&uncached, &OsSystem);
        out.notes.splice(0..0, notes);
        return out;
    }
    let clock = std::time::Instant::now();
    // The Go target writes into the loaded tree: its outputs are hidden below the recorder (and from the manifest's
    // re-check), so writing them changes no observation (`crate::go::HideGenerated`); there is no generated `src/`
    // to leave out of a listing.
    let hidden = req
        .go
        .as_ref()
        .map(|go| crate::go::HideGenerated::new(&OsSystem, &go.output_file).hiding_fixtures(go));
    let observed: &dyn vgc_analysis::System = match &hidden {
        Some(h) => h,
        None => &OsSystem,
    };
    let key = format!("{} {}", request_key(req), formatter(req));
    // `--custom-stub` writes `src/custom.rs` only when it is missing, so the manifest does not track it: a crate
    // whose root declares `pub mod custom;` but lacks the file (deleted since) is not up to date.
    let stub_missing = req.custom_stub
        && !dir.join("src/custom.rs").exists()
        && crate::sys::read_output(&dir.join("src/lib.rs"))
            .is_some_and(|lib| lib.lines().any(|l| l.trim() == "pub mod custom;"));
    if !stub_missing
        && let Some(m) = Manifest::load(&cache, &mut notes)
        && m.up_to_date_in(&key, observed, dir, hidden.is_none().then_some(dir))
    {
        return BuildOutcome {
            stats: m.stats,
            profile: m.profile,
            up_to_date: true,
            timings: vec![("check manifest", clock.elapsed())],
            ..BuildOutcome::default()
        };
    }
    let manifest_check = clock.elapsed();
    // A rebuild over an existing formatting cache formats only changed items, through one rustfmt process: find
    // the toolchain's rustfmt and start it now, on the other core, while loading and lowering run.
    if req.rustfmt && cache.join(crate::format::FMT_CACHE_FILE).is_file() {
        std::thread::spawn(|| {
            crate::format::resolve_rustfmt();
            crate::format::prespawn_rustfmt();
        });
    }
    let rec = match &hidden {
        Some(h) => Recorder::new(h),
        None => Recorder::new(&OsSystem).with_output(dir),
    };
    let mut session = Session::one_shot();
    let clock = std::time::Instant::now();
    let ir = Arc::new(crate::cache::ir::load(&cache, &mut notes));
    if !ir.is_empty() {
        vgc_ir::db::IrCache::new(session.db(), ir.clone());
    }
    let ir_load = clock.elapsed();
    session.ir_save().want(cache.clone(), ir);
    let mut out = session.build_with(req, &rec);
    let clock = std::time::Instant::now();
    // Started at the end of the load (if anything was loaded).
    session.ir_save().finish();
    out.notes.splice(0..0, notes);
    out.timings.splice(
        0..0,
        [
            ("check manifest", manifest_check),
            ("load IR cache", ir_load),
        ],
    );
    if out.fmt_fallbacks > 0 {
        out.notes.push(format!(
            "rustfmt could not format {} generated file(s) (not installed, failed, timed out after {} s, or printed text that does not parse); they keep vgc's built-in formatting, and the next build tries rustfmt again",
            out.fmt_fallbacks,
            crate::format::rustfmt_timeout().as_secs()
        ));
    }
    if out.diagnostics.is_empty()
        && out.io_error.is_none()
        && !out.files.is_empty()
        && out.fmt_fallbacks == 0
    {
        Manifest::record(key, &rec, &out.files, out.stats, out.profile.clone()).save(&cache);
    } else {
        Manifest::remove(&cache);
    }
    out.timings.push(("save caches", clock.elapsed()));
    // Freeing the database (every file's IR, every memoised plan: hundreds of MB on k8s.io/api) takes longer than
    // some whole phases of the build; nothing waits for it, so it happens on a thread of its own (the process may
    // exit first).
    std::thread::spawn(move || drop(session));
    out
}

/// `vgc check` of the check-only request `req`, reading the file system through `sys` (a
/// [`crate::cache::manifest::Recorder`], say) with the persistent IR cache of the directory `cache` (read first,
/// written back after a load without errors, creating `cache`): only files whose text is not in the IR cache are
/// parsed. `vgc validate` checks its API tree this way (`vgc::validate::load_api`). The timings start with
/// `load IR cache`; an unusable IR cache adds a note.
#[must_use]
pub fn check_with_ir_cache(
    req: &BuildRequest,
    sys: &dyn vgc_analysis::System,
    cache: &std::path::Path,
) -> BuildOutcome {
    let mut notes = Vec::new();
    let session = Session::default();
    let clock = std::time::Instant::now();
    let ir = Arc::new(crate::cache::ir::load(cache, &mut notes));
    if !ir.is_empty() {
        vgc_ir::db::IrCache::new(session.db(), ir.clone());
    }
    let ir_load = clock.elapsed();
    let mut session = session;
    let mut out = session.build_with(req, sys);
    let clock = std::time::Instant::now();
    if out.stats.packages > 0 && out.errors() == 0 && std::fs::create_dir_all(cache).is_ok() {
        let prog = vgc_analysis::loaded_program(session.db());
        crate::cache::ir::save(cache, session.db(), prog, &ir);
    }
    out.notes.splice(0..0, notes);
    out.timings.insert(0, ("load IR cache", ir_load));
    out.timings.push(("save IR cache", clock.elapsed()));
    // As in `build`: freeing the database is left to a thread of its own.
    std::thread::spawn(move || drop(session));
    out
}
