//! The `format` phase: the generated files in their final formatting — prettyplease's as generated, or rustfmt's
//! with `--rustfmt`, one unit at a time and only for the units no memo or cache holds ([`crate::format`]).

use super::generate::{Generation, LastModules};
use crate::format::{UnitMemo, format_all};
use crate::request::BuildRequest;
use std::collections::BTreeSet;

/// What [`format`] did.
pub(crate) struct Formatted {
    /// `.rs` files that needed no rustfmt run ([`crate::BuildOutcome::fmt_cache_hits`]).
    pub(crate) hits: usize,
    /// `.rs` files rustfmt could not format, left as generated ([`crate::BuildOutcome::fmt_fallbacks`]).
    pub(crate) fallbacks: usize,
    /// Generated modules of the previous build (this session's, or the formatting cache's) that this build no
    /// longer generates: removed from the output directory by the [`write`](super::write::write) phase.
    pub(crate) stale: BTreeSet<String>,
}

/// Formats `generation.files` in place for `req` and updates what a session keeps for its next build:
/// - `units`: the formatted units by the hash of their unformatted text;
/// - `outputs`: the `.rs` files generated (the previous value gives the stale files);
/// - `last`: the formatted modules with their generation keys, only when `keep_last` (a live session; a one-shot
///   build copies nothing).
pub(crate) fn format(
    generation: &mut Generation,
    req: &BuildRequest,
    units: &mut UnitMemo,
    outputs: &mut BTreeSet<String>,
    last: &mut LastModules,
    keep_last: bool,
) -> Formatted {
    let Generation {
        files,
        reused,
        keys,
        cache,
        warm,
        ..
    } = generation;
    // What the previous build generated, to remove modules of packages that disappeared.
    let mut previous = std::mem::take(outputs);
    if let Some(c) = &cache {
        previous.extend(c.paths().cloned());
    }
    let (hits, fallbacks) = format_all(
        req.rustfmt,
        files,
        cache.as_mut(),
        req.out.as_deref(),
        units,
        keys,
        reused,
        !*warm,
    );
    *outputs = files
        .iter()
        .filter(|f| f.path.ends_with(".rs"))
        .map(|f| f.path.clone())
        .collect();
    last.retain(|path, _| keys.contains_key(path));
    for f in files.iter().filter(|_| keep_last) {
        if let Some(key) = keys.get(&f.path)
            && last.get(&f.path).is_none_or(|(k, _)| k != key)
        {
            last.insert(f.path.clone(), (key.clone(), f.clone()));
        }
    }
    for f in files.iter() {
        previous.remove(&f.path);
    }
    Formatted {
        hits,
        fallbacks,
        stale: previous,
    }
}
