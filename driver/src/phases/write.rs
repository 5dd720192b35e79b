//! The `write` phase: the generated crate written into the output directory as one transaction
//! ([`crate::output::commit`]), on a thread of its own while this one saves the caches (they read the database);
//! neither waits for the other. A cache is a pure function of the inputs, so one saved beside an output that then
//! fails to write is still right.

use super::generate::Generation;
use crate::cache::ir::BackgroundSave;
use crate::database::Database;
use crate::request::BuildRequest;
use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use vgc_codegen::GeneratedFile;

/// What [`write`] did.
pub(crate) struct Written {
    /// The output transaction's result, (files written, stale files removed) or the error; `None` without an
    /// output directory.
    pub(crate) output: Option<Result<(usize, usize), String>>,
    /// Types whose items came from the unit cache ([`crate::BuildOutcome::unit_cache_hits`]).
    pub(crate) unit_hits: usize,
}

/// Writes `files` into `req.out` (if any), removing the `stale` modules that are vgc's ([`write_output`]), and
/// meanwhile saves the caches of `generation` into `req`'s cache directory — the formatting cache and the unit
/// cache of the modules generated now — and waits for the IR cache save `ir_save` started at the end of the load.
pub(crate) fn write(
    db: &Database,
    req: &BuildRequest,
    files: &[GeneratedFile],
    stale: &BTreeSet<String>,
    generation: &Generation,
    ir_save: &mut BackgroundSave,
) -> Written {
    let unit_dir = req.cache_root();
    std::thread::scope(|s| {
        let writer = req
            .out
            .as_deref()
            .map(|dir| s.spawn(move || write_output(dir, files, stale, req.force)));
        if let (Some(c), Some(root)) = (&generation.cache, req.cache_root()) {
            c.save(&root);
        }
        let mut unit_hits = 0;
        if let Some(dir) = &unit_dir {
            let all = generation.keys.keys().map(String::as_str).collect();
            unit_hits = crate::cache::units::save(
                dir,
                db,
                &generation.regenerate,
                &all,
                &generation.loaded_units,
            );
        }
        ir_save.finish();
        let output = writer.map(|w| {
            w.join()
                .unwrap_or_else(|_| Err("internal error: the output writer panicked".into()))
        });
        Written { output, unit_hits }
    })
}

/// Writes the generated `files` into `dir` as one transaction ([`crate::output::commit`]), with the files of
/// `stale` (paths relative to `dir` that the previous build generated and this one does not) removed if they are
/// vgc's. Files whose bytes are unchanged are not touched. Every target is checked first
/// ([`crate::output::may_write`]): one file in the way that vgc did not generate fails the whole write, and
/// nothing is written. Returns (files written, stale files removed).
pub(crate) fn write_output(
    dir: &Path,
    files: &[GeneratedFile],
    stale: &BTreeSet<String>,
    force: bool,
) -> Result<(usize, usize), String> {
    let mut writes: Vec<(String, &[u8])> = Vec::new();
    for f in files {
        let target = dir.join(&f.path);
        crate::output::inside(dir, &f.path)?;
        if crate::sys::holds(&target, f.contents.as_bytes()) {
            continue;
        }
        crate::output::may_write(&target, force)?;
        writes.push((f.path.clone(), f.contents.as_bytes()));
    }
    // Generated modules this build no longer produces, whatever the caches remember: with `--no-cache` or a lost,
    // damaged or foreign formatting cache the previous outputs are unknown, so every `.rs` file under `src/` that
    // is not an output of this build is a candidate; only vgc's own (its `@generated` marker) are removed.
    let outputs: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut stale = stale.clone();
    // The same for the vendored runtime (`vgc-runtime/`): a build that stops vendoring, or a vgc whose runtime
    // has fewer files, leaves none of the old copy's files behind.
    let mut candidates = rust_files_under(dir, "src");
    candidates.extend(rust_files_under(dir, vgc_codegen::VENDOR_DIR));
    candidates.push(format!("{}/Cargo.toml", vgc_codegen::VENDOR_DIR));
    stale.extend(
        candidates
            .into_iter()
            .filter(|rel| !outputs.contains(rel.as_str()) && dir.join(rel).is_file()),
    );
    let removes: Vec<String> = stale
        .iter()
        .filter(|rel| {
            crate::output::inside(dir, rel).is_ok() && crate::output::is_ours(&dir.join(rel))
        })
        .cloned()
        .collect();
    crate::output::commit(dir, &writes, &removes)
        .map_err(|e| format!("{}: cannot write the output: {e}", dir.display()))?;
    Ok((writes.len(), removes.len()))
}

/// The `.rs` files under `dir/sub` (paths relative to `dir`, `/`-separated; hidden directories and symbolic links
/// skipped), in no particular order; empty when `dir/sub` does not exist or cannot be listed.
fn rust_files_under(dir: &Path, sub: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![sub.to_string()];
    while let Some(rel) = stack.pop() {
        let Ok(listing) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for e in listing.flatten() {
            let Ok(name) = e.file_name().into_string() else {
                continue;
            };
            let Ok(kind) = e.file_type() else {
                continue;
            };
            if kind.is_dir() && !name.starts_with('.') {
                stack.push(format!("{rel}/{name}"));
            } else if kind.is_file() && name.ends_with(".rs") {
                out.push(format!("{rel}/{name}"));
            }
        }
    }
    out
}
