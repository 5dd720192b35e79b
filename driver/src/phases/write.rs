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
    /// Notes of the write ([`write_output`]): the vendored runtime files edited by hand that it wrote again.
    pub(crate) notes: Vec<String>,
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
        let writer = req.out.as_deref().map(|dir| {
            s.spawn(move || {
                let mut notes = Vec::new();
                (
                    write_output(dir, files, stale, req.force, &mut notes),
                    notes,
                )
            })
        });
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
        let (output, notes) = match writer.map(|w| w.join()) {
            Some(Ok((output, notes))) => (Some(output), notes),
            Some(Err(_)) => (
                Some(Err("internal error: the output writer panicked".into())),
                Vec::new(),
            ),
            None => (None, Vec::new()),
        };
        Written {
            output,
            unit_hits,
            notes,
        }
    })
}

/// Writes the generated `files` into `dir` as one transaction ([`crate::output::commit`]), with the files of
/// `stale` (paths relative to `dir` that the previous build generated and this one does not) removed if they are
/// vgc's. Files whose bytes are unchanged are not touched. Every target is checked first
/// ([`crate::output::may_write`]): one file in the way that vgc did not generate fails the whole write, and
/// nothing is written. Returns (files written, stale files removed). A vendored runtime file (`vgc-runtime/**`) that
/// was edited by hand since vgc wrote it ([`vgc_codegen::hand_edited`], by the hashes its `Cargo.toml` records) is
/// still written again — it is vgc's output — but named in a note pushed onto `notes` once the write succeeded, so
/// the edit is not undone unseen.
pub(crate) fn write_output(
    dir: &Path,
    files: &[GeneratedFile],
    stale: &BTreeSet<String>,
    force: bool,
    notes: &mut Vec<String>,
) -> Result<(usize, usize), String> {
    let mut writes: Vec<(String, &[u8])> = Vec::new();
    // The vendored manifest as it is before this write (vgc's record of what it wrote), read at most once.
    let vendored_manifest = std::cell::OnceCell::new();
    let mut edited = Vec::new();
    for f in files {
        let target = dir.join(&f.path);
        crate::output::inside(dir, &f.path)?;
        if crate::sys::holds(&target, f.contents.as_bytes()) {
            continue;
        }
        crate::output::may_write(&target, force)?;
        if f.path.starts_with(&format!("{}/", vgc_codegen::VENDOR_DIR))
            && crate::output::is_ours(&target)
            && let Ok(old) = crate::sys::read_regular(&target, crate::sys::MAX_OUTPUT_BYTES)
        {
            let manifest: &Option<String> = vendored_manifest.get_or_init(|| {
                crate::sys::read_regular(
                    &dir.join(vgc_codegen::VENDOR_DIR).join("Cargo.toml"),
                    crate::sys::MAX_OUTPUT_BYTES,
                )
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
            });
            if vgc_codegen::hand_edited(&f.path, &old, manifest.as_deref()) {
                edited.push(f.path.clone());
            }
        }
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
    let manifest = format!("{}/Cargo.toml", vgc_codegen::VENDOR_DIR);
    notes.extend(edited.into_iter().map(|path| {
        let record = if path == manifest {
            "the manifest-blake3 it records".to_string()
        } else {
            format!("the one vgc recorded in {manifest}")
        };
        format!(
            "{path}: edited since vgc wrote it (its BLAKE3 is not {record}); written again, as vgc writes its \
             outputs on every build — to change the runtime, build against a copy of your own (--runtime-path)"
        )
    }));
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
