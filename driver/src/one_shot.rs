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
        return Session::one_shot().build(req);
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
        let mut out = Session::one_shot().build_with(&uncached, &OsSystem);
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
    let key = manifest_key(req, &[]);
    if let Some(up) = up_to_date(
        req,
        &key,
        observed,
        hidden.is_none().then_some(dir),
        &mut notes,
    ) {
        return BuildOutcome {
            timings: vec![("check manifest", clock.elapsed())],
            ..up
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
    record(key, &rec, &mut out, &cache);
    out.timings.push(("save caches", clock.elapsed()));
    // Freeing the database (every file's IR, every memoised plan: hundreds of MB on k8s.io/api) takes longer than
    // some whole phases of the build; nothing waits for it, so it happens on a thread of its own (the process may
    // exit first).
    std::thread::spawn(move || drop(session));
    out
}

/// The build manifest's key of `req`: the request ([`request_key`]) and formatter, and, for a build run together
/// with others ([`build_all`]), theirs — the observations of a shared run are read through a view that hides every
/// target's outputs, so its manifest is never taken for a run of one target, nor the other way round.
fn manifest_key(req: &BuildRequest, together: &[&BuildRequest]) -> String {
    let mut key = format!("{} {}", request_key(req), formatter(req));
    for other in together {
        key.push_str(" with ");
        key.push_str(&request_key(other));
    }
    key
}

/// The outcome of an up-to-date build of `req` (stats and profile of the last clean build) when its manifest says
/// so for `key`, reading the inputs through `observed` (`generated_src`: the Rust crate whose `src/` listings leave
/// out); `None` when it must be built.
fn up_to_date(
    req: &BuildRequest,
    key: &str,
    observed: &dyn vgc_analysis::System,
    generated_src: Option<&std::path::Path>,
    notes: &mut Vec<String>,
) -> Option<BuildOutcome> {
    let (dir, cache) = (req.out.as_deref()?, req.cache_root()?);
    // `--custom-stub` writes `src/custom.rs` only when it is missing, so the manifest does not track it: a crate
    // whose root declares `pub mod custom;` but lacks the file (deleted since) is not up to date.
    let stub_missing = req.custom_stub
        && !dir.join("src/custom.rs").exists()
        && crate::sys::read_output(&dir.join("src/lib.rs"))
            .is_some_and(|lib| lib.lines().any(|l| l.trim() == "pub mod custom;"));
    if stub_missing {
        return None;
    }
    let m = Manifest::load(&cache, notes)?;
    m.up_to_date_in(key, observed, dir, generated_src)
        .then(|| BuildOutcome {
            stats: m.stats,
            profile: m.profile,
            up_to_date: true,
            ..BuildOutcome::default()
        })
}

/// After a build: the note of files rustfmt could not format, and the manifest of `cache` written from what `rec`
/// observed (a clean build that wrote files) or removed (anything else).
fn record(key: String, rec: &Recorder<'_>, out: &mut BuildOutcome, cache: &std::path::Path) {
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
        Manifest::record(key, rec, &out.files, out.stats, out.profile.clone()).save(cache);
    } else {
        Manifest::remove(cache);
    }
}

/// Several targets of one tree in one run (`vgc build --target go,vgc`: the Go target and one Rust target), sharing
/// the analysis: one [`Session`] loads, checks and lowers the program once, then each request's backend generates
/// and writes its own outputs (the second request's load reads no file whose stamp is unchanged and its lowering is
/// the memoised one). Returns one outcome per request, in order — or fewer: when an output lock cannot be taken the
/// outcome saying so is the last.
///
/// Each request keeps its own output lock, build manifest and IR cache (`cache_root`: give them different ones);
/// a request that is up to date is not built again, the others are. The inputs are observed through one view for
/// all of them (the Go target's generated files hidden, the Rust crate's `src/` left out of listings), and each
/// manifest records every observation of the run. Without caches (`no_cache`, a request without an output
/// directory, a cache directory that cannot be created) each request is built on its own ([`build`]).
#[must_use]
pub fn build_all(reqs: &[BuildRequest]) -> Vec<BuildOutcome> {
    let shared = reqs.len() > 1
        && reqs
            .iter()
            .all(|r| r.out.is_some() && r.cache_root().is_some());
    if !shared {
        return reqs.iter().map(build).collect();
    }
    // Two requests writing into one directory (`--out ../root/`, a link) would each wait for the other's lock.
    let canonical: Vec<std::path::PathBuf> = reqs
        .iter()
        .filter_map(|r| r.out.as_deref())
        .map(|o| std::fs::canonicalize(o).unwrap_or_else(|_| o.to_path_buf()))
        .collect();
    if let Some(dir) = canonical
        .iter()
        .enumerate()
        .find_map(|(i, d)| canonical[..i].contains(d).then_some(d))
    {
        return vec![BuildOutcome {
            io_error: Some(format!(
                "{}: the output directory of two of the targets built together; each needs a directory of its own (the Go target keeps its state in .vgc/ at the Go module root)",
                dir.display()
            )),
            ..BuildOutcome::default()
        }];
    }
    let mut notes = Vec::new();
    let mut locks = Vec::new();
    for req in reqs {
        match lock_output(req, &mut notes) {
            Ok(l) => locks.push(l),
            Err(out) => {
                let mut outs: Vec<BuildOutcome> = reqs[..locks.len()]
                    .iter()
                    .map(|_| BuildOutcome::default())
                    .collect();
                let mut out = *out;
                out.notes.splice(0..0, notes);
                outs.push(out);
                return outs;
            }
        }
    }
    if locks.iter().any(Option::is_none)
        || reqs.iter().any(|r| {
            r.cache_root()
                .is_some_and(|c| std::fs::create_dir_all(c).is_err())
        })
    {
        // Outside a Go module, or a cache that cannot be created: each builds (and says so) on its own.
        drop(locks);
        return reqs.iter().map(build).collect();
    }
    let clock = std::time::Instant::now();
    let go = reqs.iter().find_map(|r| r.go.as_ref());
    let hidden =
        go.map(|go| crate::go::HideGenerated::new(&OsSystem, &go.output_file).hiding_fixtures(go));
    let observed: &dyn vgc_analysis::System = match &hidden {
        Some(h) => h,
        None => &OsSystem,
    };
    let crate_dir = reqs
        .iter()
        .find(|r| r.go.is_none())
        .and_then(|r| r.out.as_deref());
    let keys: Vec<String> = reqs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let others: Vec<&BuildRequest> = reqs
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| o)
                .collect();
            manifest_key(r, &others)
        })
        .collect();
    let mut outs: Vec<Option<BuildOutcome>> = reqs
        .iter()
        .zip(&keys)
        .map(|(r, k)| up_to_date(r, k, observed, crate_dir, &mut notes))
        .collect();
    let manifest_check = clock.elapsed();
    if outs.iter().all(Option::is_some) {
        let mut outs: Vec<BuildOutcome> = outs.into_iter().flatten().collect();
        outs[0].timings = vec![("check manifest", manifest_check)];
        outs[0].notes.splice(0..0, notes);
        return outs;
    }
    let mut rec = Recorder::new(observed);
    if let Some(d) = crate_dir {
        rec = rec.with_output(d);
    }
    let mut session = Session::one_shot();
    let clock = std::time::Instant::now();
    let first = outs.iter().position(Option::is_none).unwrap_or_default();
    let Some(first_cache) = reqs[first].cache_root() else {
        return reqs.iter().map(build).collect();
    };
    let ir = Arc::new(crate::cache::ir::load(&first_cache, &mut notes));
    if !ir.is_empty() {
        vgc_ir::db::IrCache::new(session.db(), ir.clone());
    }
    let ir_load = clock.elapsed();
    let mut timings = vec![
        ("check manifest", manifest_check),
        ("load IR cache", ir_load),
    ];
    for (req, out) in reqs.iter().zip(outs.iter_mut()) {
        if out.is_some() {
            continue;
        }
        if let Some(cache) = req.cache_root() {
            session.ir_save().want(cache, ir.clone());
        }
        let mut built = session.build_with(req, &rec);
        session.ir_save().finish();
        // Each request's phases in turn (the second request's `load` and `lower` reuse the first's work).
        timings.append(&mut built.timings);
        *out = Some(built);
    }
    let clock = std::time::Instant::now();
    let mut outs: Vec<BuildOutcome> = outs.into_iter().flatten().collect();
    for ((req, key), out) in reqs.iter().zip(keys).zip(outs.iter_mut()) {
        if out.up_to_date {
            continue;
        }
        if let Some(cache) = req.cache_root() {
            record(key, &rec, out, &cache);
        }
    }
    timings.push(("save caches", clock.elapsed()));
    outs[0].timings = timings;
    outs[0].notes.splice(0..0, notes);
    std::thread::spawn(move || drop(session));
    outs
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
    let session = Session::one_shot();
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
