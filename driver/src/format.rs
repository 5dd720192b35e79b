//! Formatting generated Rust, incrementally.
//!
//! By default generated code keeps the formatting codegen gives it in-process (prettyplease, as prost-build
//! does), so output bytes depend on vgc's version only — never on whether or which rustfmt is installed. With
//! `--rustfmt` ([`crate::BuildRequest::rustfmt`]) every file goes through rustfmt as described below; a rustfmt
//! run that fails or exceeds [`RUSTFMT_TIMEOUT`] leaves the prettyplease text, and a file whose rustfmt output does
//! not parse (`syn`) is kept as prettyplease printed it (and nothing of it is memoised or cached).
//!
//! Codegen prints every module one *unit* at a time (the header, then each top-level item; see
//! [`GeneratedFile::chunks`]). Top-level items are separated by no blank line, so rustfmt of a whole file equals
//! the concatenation of rustfmt of each unit — the property `tests/tests/incremental.rs` checks on every build it
//! makes. Formatted units are remembered by the BLAKE3 hash of their unformatted text: in a live session
//! ([`UnitMemo`]) and across runs (the `.vgc-fmt-cache` file beside the output, which records how each output
//! file splits into units, so the units of the previous output can be read back from disk). A rebuild then runs
//! rustfmt only on the units that changed, and not at all when none did.
//!
//! Cold formatting stages whole files in a temporary directory and runs one rustfmt process per core over whole
//! module subtrees (starting rustfmt costs about as much as formatting a module). Marker comment lines between
//! units survive rustfmt and give the unit boundaries of its output.
//!
//! This file holds the cache and [`format_all`]; `rustfmt` (a private module) the rustfmt processes, their
//! scheduling and timeouts, and `units` the unit split and hashes.

mod rustfmt;
mod units;

use crate::sys::write_atomic;
use rustfmt::{format_batched, format_units};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use units::{hash, unit_hash, units_of};
use vgc_codegen::GeneratedFile;

pub use rustfmt::{
    RUSTFMT_TIMEOUT, prespawn_rustfmt, resolve_rustfmt, rustfmt, rustfmt_in_place, rustfmt_timeout,
};

/// Formatted units by the hash of their unformatted text.
pub type UnitMemo = HashMap<String, String>;

/// The formatting cache's file name in the output directory.
pub const FMT_CACHE_FILE: &str = "fmt";
const FMT_CACHE_VERSION: &str = concat!("vgc-fmt-cache 3 ", env!("CARGO_PKG_VERSION"));

/// One output file's record: the key of what it was generated from (`vgc_codegen::module_keys`, `-` if none),
/// hashes of its unformatted and formatted text, and its units (unit hash, formatted length in bytes) in order.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    plan: String,
    unformatted: String,
    formatted: String,
    units: Vec<(String, usize)>,
}

/// The formatting cache of an output directory (`.vgc-fmt-cache`): a version line, then one
/// `path<TAB>plan key<TAB>unformatted<TAB>formatted<TAB>unit:len,unit:len,…` line per generated `.rs` file. A cache that does
/// not parse, or was written by another vgc version, is ignored with a note and rebuilt; an entry whose file on
/// disk no longer has the recorded hash is not used. The cache can only save work, never change output.
#[derive(Debug, Default)]
pub struct FmtCache {
    entries: BTreeMap<String, Entry>,
    /// The formatter the entries come from (rustfmt, or prettyplease only).
    rustfmt: bool,
}

/// The cache's first line: vgc's version and the formatter.
fn version_line(rustfmt: bool) -> String {
    format!(
        "{FMT_CACHE_VERSION} {}",
        if rustfmt { "rustfmt" } else { "prettyplease" }
    )
}

impl FmtCache {
    /// Reads the cache of `dir` for a build formatting with rustfmt or not; problems become `notes` and an empty
    /// cache. A cache written for the other formatter is silently empty (switching is not a problem).
    pub fn load(dir: &Path, rustfmt: bool, notes: &mut Vec<String>) -> Self {
        let file = dir.join(FMT_CACHE_FILE);
        let empty = Self {
            entries: BTreeMap::new(),
            rustfmt,
        };
        let Some(bytes) = crate::cache::read_cache_file(&file, notes) else {
            return empty;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            notes.push(format!(
                "{}: unreadable (not UTF-8); ignored and rebuilt",
                file.display()
            ));
            return empty;
        };
        let mut lines = text.lines();
        let first = lines.next();
        if first == Some(&version_line(!rustfmt)) {
            return empty;
        }
        if first != Some(&version_line(rustfmt)) {
            notes.push(format!(
                "{}: written by another vgc version; rebuilt",
                file.display()
            ));
            return empty;
        }
        let mut entries = BTreeMap::new();
        for l in lines {
            match parse_entry(l) {
                Some((path, e)) => {
                    entries.insert(path, e);
                }
                None => {
                    notes.push(format!(
                        "{}: unreadable; ignored and rebuilt",
                        file.display()
                    ));
                    return empty;
                }
            }
        }
        Self { entries, rustfmt }
    }

    /// Paths of the files the cache describes (the previous build's `.rs` outputs).
    pub fn paths(&self) -> impl Iterator<Item = &String> {
        self.entries.keys()
    }

    /// The previous output of every file in `keys` (path, generation key) whose recorded key is the same and
    /// whose file in `dir` is still what was written: those need neither generating nor formatting.
    #[must_use]
    pub fn reuse(&self, dir: &Path, keys: &[(String, String)]) -> Vec<GeneratedFile> {
        use rayon::prelude::*;
        keys.par_iter()
            .filter_map(|(path, key)| {
                let e = self.entries.get(path).filter(|e| e.plan == *key)?;
                let disk = crate::sys::read_output(&dir.join(path))?;
                (hash(&disk) == e.formatted).then(|| GeneratedFile {
                    path: path.clone(),
                    contents: disk,
                    chunks: Vec::new(),
                })
            })
            .collect()
    }

    /// Writes the cache into `dir`. Failing to write it is not an error (it is an optimisation).
    pub fn save(&self, dir: &Path) {
        let mut text = version_line(self.rustfmt);
        for (p, e) in &self.entries {
            let units: Vec<String> = e.units.iter().map(|(h, n)| format!("{h}:{n}")).collect();
            text.push_str(&format!(
                "\n{p}\t{}\t{}\t{}\t{}",
                e.plan,
                e.unformatted,
                e.formatted,
                units.join(",")
            ));
        }
        text.push('\n');
        let _ = write_atomic(&dir.join(FMT_CACHE_FILE), &text);
    }
}

fn parse_entry(line: &str) -> Option<(String, Entry)> {
    let mut parts = line.split('\t');
    let (path, plan, u, f, units) = (
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
    );
    if parts.next().is_some() || u.len() != 64 || f.len() != 64 {
        return None;
    }
    let units = units
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (h, n) = s.split_once(':')?;
            Some((h.to_string(), n.parse().ok()?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some((
        path.to_string(),
        Entry {
            plan: plan.to_string(),
            unformatted: u.to_string(),
            formatted: f.to_string(),
            units,
        },
    ))
}

impl Entry {
    /// The entry of one generated file: its generation key (`-` when it has none), the hashes of its text as
    /// generated and as formatted, and each unit's hash with the unit's formatted length in bytes.
    fn new(
        plan: Option<&String>,
        unformatted: &str,
        formatted: String,
        unit_hashes: &[String],
        formatted_lens: impl Iterator<Item = usize>,
    ) -> Self {
        Entry {
            plan: plan.cloned().unwrap_or_else(|| "-".to_string()),
            unformatted: unformatted.to_string(),
            formatted,
            units: unit_hashes.iter().cloned().zip(formatted_lens).collect(),
        }
    }
}

/// Drops from `memo` every unit that is not one of the `reused` files' (as `entries` records them).
fn keep_reused_units(
    memo: &mut UnitMemo,
    reused: &std::collections::HashSet<String>,
    entries: &BTreeMap<String, Entry>,
) {
    let live: std::collections::HashSet<&str> = reused
        .iter()
        .filter_map(|p| entries.get(p))
        .flat_map(|e| e.units.iter().map(|(h, _)| h.as_str()))
        .collect();
    memo.retain(|h, _| live.contains(h.as_str()));
}

/// Formats every `.rs` file of `files` with rustfmt, running it only on units neither `memo` (this session's
/// units) nor the cache's previous output on disk has already formatted. Files in `reused` came from
/// [`FmtCache::reuse`] and are final already. `keys` are the files' generation keys, recorded for the next
/// build. With `recover`, the units of the previous output are first read back from disk (a fresh process;
/// a live session has them in `memo`). Updates `memo` and `cache` to this build's units. Returns the number of
/// `.rs` files that needed no rustfmt run and, with `use_rustfmt`, the number that keep their prettyplease text
/// because rustfmt could not format them (not installed, failed, timed out, or output that does not parse). Without `use_rustfmt`, every unit keeps its prettyplease text (the
/// cache still records the files, so unchanged modules are not generated again).
#[allow(clippy::too_many_arguments)] // each is one independent source of reuse
pub fn format_all(
    use_rustfmt: bool,
    files: &mut [GeneratedFile],
    cache: Option<&mut FmtCache>,
    dir: Option<&Path>,
    memo: &mut UnitMemo,
    keys: &HashMap<String, String>,
    reused: &std::collections::HashSet<String>,
    recover: bool,
) -> (usize, usize) {
    use rayon::prelude::*;
    let mut entries = BTreeMap::new();
    if let Some(c) = cache.as_deref() {
        for p in reused {
            if let Some(e) = c.entries.get(p) {
                entries.insert(p.clone(), e.clone());
            }
        }
    }
    let rs: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].path.ends_with(".rs") && !reused.contains(&files[i].path))
        .collect();
    // Units of the previous output, read back from disk where the file still is what the cache recorded.
    let all_rs: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].path.ends_with(".rs"))
        .collect();
    if let (Some(cache), Some(dir), true) = (cache.as_deref(), dir, recover) {
        let recovered: Vec<(String, String)> = all_rs
            .par_iter()
            .filter_map(|&i| {
                let e = cache.entries.get(&files[i].path)?;
                let disk = if reused.contains(&files[i].path) {
                    files[i].contents.clone()
                } else {
                    crate::sys::read_output(&dir.join(&files[i].path))?
                };
                if hash(&disk) != e.formatted
                    || e.units.iter().map(|(_, n)| n).sum::<usize>() != disk.len()
                {
                    return None;
                }
                let mut at = 0;
                let mut out = Vec::with_capacity(e.units.len());
                for (h, n) in &e.units {
                    let text = disk.get(at..at + n)?;
                    out.push((h.clone(), text.to_string()));
                    at += n;
                }
                Some(out)
            })
            .flatten()
            .collect();
        for (h, text) in recovered {
            memo.entry(h).or_insert(text);
        }
    }
    let unit_hashes: Vec<Vec<String>> = rs
        .par_iter()
        .map(|&i| units_of(&files[i]).into_iter().map(unit_hash).collect())
        .collect();
    let unformatted: Vec<String> = rs.par_iter().map(|&i| hash(&files[i].contents)).collect();
    // Files with every unit known need no rustfmt; files with some known units format only the others; files
    // with none are formatted whole.
    let mut partial = Vec::new();
    let mut whole = Vec::new();
    let mut whole_ks = Vec::new();
    let mut hits = 0;
    for (k, &i) in rs.iter().enumerate() {
        let known = unit_hashes[k]
            .iter()
            .filter(|h| memo.contains_key(*h))
            .count();
        if known == unit_hashes[k].len() {
            hits += 1;
        } else if known > 0 {
            partial.push(k);
        } else {
            whole.push(i);
            whole_ks.push(k);
        }
    }
    if !use_rustfmt {
        // Every file keeps its text as generated: its formatted hash is its unformatted one, and the memo keeps
        // this build's units (a watch session counts its hits), copied once.
        keep_reused_units(memo, reused, &entries);
        for (k, &i) in rs.iter().enumerate() {
            let units = units_of(&files[i]);
            entries.insert(
                files[i].path.clone(),
                Entry::new(
                    keys.get(&files[i].path),
                    &unformatted[k],
                    unformatted[k].clone(),
                    &unit_hashes[k],
                    units.iter().map(|u| u.len()),
                ),
            );
            for (h, u) in unit_hashes[k].iter().zip(units) {
                memo.entry(h.clone()).or_insert_with(|| u.to_string());
            }
        }
        if let Some(cache) = cache {
            cache.entries = entries;
        }
        return (hits + reused.len(), 0);
    }
    let fresh_partial: Vec<(String, String)> = partial
        .par_iter()
        .flat_map(|&k| {
            let units = units_of(&files[rs[k]]);
            let missing: Vec<(&String, &str)> = unit_hashes[k]
                .iter()
                .zip(units)
                .filter(|(h, _)| !memo.contains_key(*h))
                .collect();
            format_units(&missing)
        })
        .collect();
    memo.extend(fresh_partial);
    let fresh_whole = format_batched(files, &whole, dir);
    memo.extend(fresh_whole);
    // Assemble every file from its units. A file with a unit rustfmt could not format (failed, timed out, not
    // installed), or whose rustfmt output does not parse, keeps its prettyplease text whole, and nothing of it is
    // memoised or cached: the next build tries rustfmt again.
    let parses: Vec<bool> = rs
        .par_iter()
        .enumerate()
        .map(|(k, &i)| {
            !use_rustfmt || {
                // Every unit formatted by rustfmt, and the whole parses: else the file stays as generated.
                unit_hashes[k].iter().all(|h| memo.contains_key(h)) && {
                    let text: String = units_of(&files[i])
                        .into_iter()
                        .zip(&unit_hashes[k])
                        .map(|(u, h)| memo.get(h).map_or(u, String::as_str))
                        .collect();
                    syn::parse_file(&text).is_ok()
                }
            }
        })
        .collect();
    let mut fresh = UnitMemo::new();
    for (k, &i) in rs.iter().enumerate() {
        if !parses[k] {
            // The generated text as it is; no cache entry, no memo: the next build tries rustfmt again.
            continue;
        }
        let units: Vec<String> = units_of(&files[i])
            .into_iter()
            .zip(&unit_hashes[k])
            .map(|(u, h)| memo.get(h).cloned().unwrap_or_else(|| u.to_string()))
            .collect();
        let text = units.concat();
        entries.insert(
            files[i].path.clone(),
            Entry::new(
                keys.get(&files[i].path),
                &unformatted[k],
                hash(&text),
                &unit_hashes[k],
                units.iter().map(String::len),
            ),
        );
        for (h, u) in unit_hashes[k].iter().zip(units) {
            fresh.insert(h.clone(), u);
        }
        files[i].contents = text;
    }
    // Keep the memo to the units of this build's files: the reused files' units stay where they are (no copy of
    // their text), the generated files' units are replaced.
    keep_reused_units(memo, reused, &entries);
    memo.extend(fresh);
    if let Some(cache) = cache {
        cache.entries = entries;
    }
    (hits + reused.len(), parses.iter().filter(|p| !**p).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_lines_round_trip_and_bad_lines_are_rejected() {
        let line = format!(
            "src/a.rs\tkey\t{}\t{}\tab:10,cd:5",
            "1".repeat(64),
            "2".repeat(64)
        );
        let (p, e) = parse_entry(&line).expect("parses");
        assert_eq!(p, "src/a.rs");
        assert_eq!(e.units, vec![("ab".into(), 10), ("cd".into(), 5)]);
        assert_eq!(e.plan, "key");
        assert!(parse_entry("src/a.rs\tkey\tshort\tshort\t").is_none());
        assert!(parse_entry(&format!("src/a.rs\tkey\t{0}\t{0}\tab:x", "1".repeat(64))).is_none());
        assert!(parse_entry(&format!("src/a.rs\t{0}\t{0}\tab:1", "1".repeat(64))).is_none());
    }
}
