//! The build manifest: what a clean build observed of the file system, so the next run can tell in a few
//! milliseconds that nothing changed and skip the build.
//!
//! Loading goes through a [`Recorder`], which logs every observation the loader makes — each file read (with its
//! size, modification time and BLAKE3 hash, or that it could not be read), each directory listing (hashed), and
//! each is-this-a-directory probe (`vendor/`, the module cache). After a build without diagnostics the log, the
//! generated files' hashes and the summary counts are written to `.vgc/build` in the output directory,
//! keyed by a hash of the request (vgc version, path, options, and the environment the module cache is found
//! through). A later build with the same key re-checks every observation (a file whose size and modification
//! time are unchanged is not re-read; one that changed is re-hashed) and every output; if all hold, the outputs
//! are up to date. The check is exactly as strong as the observations: whatever the loader did not look at
//! cannot change its result. A manifest that does not parse, or comes from another vgc version, is ignored with
//! a note.

use super::{nanos, read_cache_file};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use vgc_analysis::System;
use vgc_analysis::system::Stamp;
use vgc_lowering::plan::Stats;

const FILE: &str = "build";
/// The manifest's first line: its format and vgc's version ([`super::BUILD_CACHE_VERSION`]).
const VERSION: &str = super::BUILD_CACHE_VERSION;

/// One thing the loader saw.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Observation {
    /// A file read: `(size, modification time in ns since the epoch, BLAKE3)`, or `None` if it could not be read.
    File(Option<(u64, u128, String)>),
    /// A directory listing's hash, or `None` if it could not be listed.
    Dir(Option<String>),
    /// Whether the path is a directory.
    IsDir(bool),
}

/// What a load observed of the file system: every file read, directory listing and directory probe, by
/// (kind, path). [`Observations::hold`] re-checks them; the build manifest and `vgc validate`'s plan cache
/// ([`super::plan`]) keep them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Observations(BTreeMap<(char, String), Observation>);

impl Observations {
    /// True when every observation still holds through `sys`: a file whose size and modification time are
    /// unchanged is not re-read, one that changed is re-hashed; listings are re-hashed (leaving out the
    /// generated `src/` of the output directory `out`, [`Recorder::with_output`]); probes are repeated. Checked in
    /// parallel (rayon).
    #[must_use]
    pub fn hold(&self, sys: &dyn System, out: Option<&Path>) -> bool {
        use rayon::prelude::*;
        self.0.par_iter().all(|((_, path), o)| match o {
            Observation::File(Some((len, mtime, h))) => {
                if *mtime != 0
                    && sys
                        .stamp(path)
                        .is_some_and(|(l, m)| l == *len && nanos(m) == *mtime)
                {
                    return true;
                }
                sys.read_file(path)
                    .is_ok_and(|t| blake3::hash(t.as_bytes()).to_hex().as_str() == h)
            }
            Observation::File(None) => sys.read_file(path).is_err(),
            Observation::Dir(h) => {
                sys.read_dir(path).ok().map(|e| listing_hash(path, &e, out)) == *h
            }
            Observation::IsDir(b) => sys.is_dir(path) == *b,
        })
    }

    /// How many observations there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when nothing was observed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A [`System`] that records every observation it passes through (see the module docs).
pub struct Recorder<'a> {
    inner: &'a dyn System,
    log: Mutex<BTreeMap<(char, String), Observation>>,
    /// The output directory, whose generated `src/` does not count in its listing ([`listing_hash`]).
    out: Option<std::path::PathBuf>,
}

impl<'a> Recorder<'a> {
    /// Records what `inner` reports.
    pub fn new(inner: &'a dyn System) -> Self {
        Self {
            inner,
            log: Mutex::new(BTreeMap::new()),
            out: None,
        }
    }

    /// Records for a build into `out`: when `out` lies inside the loaded tree (the module root, say), the
    /// generated crate's `src/` in it is not part of what the loader observed (R31).
    #[must_use]
    pub fn with_output(mut self, out: &Path) -> Self {
        self.out = Some(out.to_path_buf());
        self
    }

    /// The paths whose change could change the build, in path order: every file read and every directory listed,
    /// and every is-directory probe that found a directory. What could not be read or found (a `vgc.toml` or
    /// `vendor/` that is absent) is left out: cargo takes a missing `rerun-if-changed` path as always changed, and
    /// its creation shows in the listing of its parent, which the loader made. What a `build.rs` passes to
    /// `cargo:rerun-if-changed` (`vgc-build`).
    #[must_use]
    pub fn observed_paths(&self) -> Vec<String> {
        let Ok(log) = self.log.lock() else {
            return Vec::new();
        };
        let mut out: Vec<String> = log
            .iter()
            .filter(|(_, o)| {
                !matches!(
                    o,
                    Observation::IsDir(false) | Observation::File(None) | Observation::Dir(None)
                )
            })
            .map(|((_, p), _)| p.clone())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// What was observed so far.
    #[must_use]
    pub fn observations(&self) -> Observations {
        Observations(self.log.lock().map(|l| l.clone()).unwrap_or_default())
    }

    fn note(&self, kind: char, path: &str, o: Observation) {
        if let Ok(mut l) = self.log.lock() {
            l.entry((kind, path.to_string())).or_insert(o);
        }
    }
}

/// The hash of what a directory listing can tell the loader: its `.go` files and its directories, leaving out
/// names starting with `.` (never loaded: vgc's own `.vgc/`, editors' temporaries) and other files (`Cargo.toml`,
/// `go.mod` is observed as a file read), and, in the output directory `out`, the generated `src/`. So building
/// into the module root is up to date on the second run (R31).
fn listing_hash(path: &str, entries: &[(String, bool)], out: Option<&Path>) -> String {
    // Only a listing with a `src/` directory can lose an entry to this; resolving paths costs a `readlink` per
    // path component, so the other listings (all of k8s.io/api's) skip it.
    let has_src = entries.iter().any(|(n, d)| *d && n == "src");
    let is_out = has_src
        && out.is_some_and(|o| {
            let p = Path::new(path);
            p == o || matches!((p.canonicalize(), o.canonicalize()), (Ok(a), Ok(b)) if a == b)
        });
    let mut h = blake3::Hasher::new();
    for (n, d) in entries.iter().filter(|(n, d)| {
        !n.starts_with('.')
            && (if *d {
                !(is_out && n == "src")
            } else {
                n.ends_with(".go")
            })
    }) {
        h.update(n.as_bytes());
        h.update(if *d { b"/\n" } else { b"\n" });
    }
    h.finalize().to_hex().to_string()
}

impl System for Recorder<'_> {
    fn read_file(&self, path: &str) -> Result<String, String> {
        let stamp = self.inner.settled_stamp(path);
        let r = self.inner.read_file(path);
        let o = match (&r, stamp) {
            (Ok(text), Some((len, mtime))) => Observation::File(Some((
                len,
                nanos(mtime),
                blake3::hash(text.as_bytes()).to_hex().to_string(),
            ))),
            // Without a stamp the observation cannot be re-checked cheaply; record it as unverifiable.
            (Ok(text), None) => Observation::File(Some((
                0,
                0,
                blake3::hash(text.as_bytes()).to_hex().to_string(),
            ))),
            (Err(_), _) => Observation::File(None),
        };
        self.note('F', path, o);
        r
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let r = self.inner.read_dir(path);
        self.note(
            'D',
            path,
            Observation::Dir(
                r.as_ref()
                    .ok()
                    .map(|e| listing_hash(path, e, self.out.as_deref())),
            ),
        );
        r
    }
    fn is_dir(&self, path: &str) -> bool {
        let r = self.inner.is_dir(path);
        self.note('I', path, Observation::IsDir(r));
        r
    }
    fn module_cache(&self) -> Option<String> {
        self.inner.module_cache()
    }
    fn stamp(&self, path: &str) -> Option<Stamp> {
        self.inner.stamp(path)
    }
}

/// A loaded or freshly recorded manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    key: String,
    observations: Observations,
    /// Generated files: path relative to the output directory → (size, BLAKE3).
    outputs: BTreeMap<String, (u64, String)>,
    /// The summary counts of the build that wrote it.
    pub stats: Stats,
    /// The profile that build ran under, and why (the summary line's `(upstream …)`).
    pub profile: Option<vgc_ir::profile::Selected>,
}

impl Manifest {
    /// The manifest of a clean build: what `rec` observed, and the generated `files`.
    #[must_use]
    pub fn record(
        key: String,
        rec: &Recorder<'_>,
        files: &[vgc_codegen::GeneratedFile],
        stats: Stats,
        profile: Option<vgc_ir::profile::Selected>,
    ) -> Self {
        let observations = rec.observations();
        let outputs = files
            .iter()
            .map(|f| {
                (
                    f.path.clone(),
                    (
                        f.contents.len() as u64,
                        blake3::hash(f.contents.as_bytes()).to_hex().to_string(),
                    ),
                )
            })
            .collect();
        Self {
            key,
            observations,
            outputs,
            stats,
            profile,
        }
    }

    /// Reads the manifest of output directory `dir`: `None` when there is none (silently) or it cannot be used
    /// (with a note).
    pub fn load(dir: &Path, notes: &mut Vec<String>) -> Option<Self> {
        let file = dir.join(FILE);
        let bytes = read_cache_file(&file, notes)?;
        let Ok(text) = String::from_utf8(bytes) else {
            notes.push(format!(
                "{}: unreadable (not UTF-8); ignored and rebuilt",
                file.display()
            ));
            return None;
        };
        let parsed = parse(&text);
        match parsed {
            Ok(m) => Some(m),
            Err(why) => {
                notes.push(format!("{}: {why}; ignored and rebuilt", file.display()));
                None
            }
        }
    }

    /// Writes the manifest into `dir` (failing to write it only costs the next run a build).
    pub fn save(&self, dir: &Path) {
        let mut t = format!("{VERSION}\nK\t{}\n", self.key);
        let s = &self.stats;
        t.push_str(&format!(
            "S\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            s.packages, s.types, s.tags, s.lowered, s.consumed, s.reported, s.not_lowered, s.checks
        ));
        if let Some(p) = self
            .profile
            .as_ref()
            .and_then(|p| serde_json::to_string(p).ok())
        {
            t.push_str(&format!("P\t{}\n", escape(&p)));
        }
        for ((kind, path), o) in &self.observations.0 {
            match o {
                Observation::File(Some((len, mtime, h))) => {
                    t.push_str(&format!("{kind}\t{}\t{len}\t{mtime}\t{h}\n", escape(path)));
                }
                Observation::File(None) | Observation::Dir(None) => {
                    t.push_str(&format!("{kind}\t{}\t-\n", escape(path)));
                }
                Observation::Dir(Some(h)) => {
                    t.push_str(&format!("{kind}\t{}\t{h}\n", escape(path)))
                }
                Observation::IsDir(b) => {
                    t.push_str(&format!("{kind}\t{}\t{}\n", escape(path), u8::from(*b)))
                }
            }
        }
        for (path, (len, h)) in &self.outputs {
            t.push_str(&format!("O\t{}\t{len}\t{h}\n", escape(path)));
        }
        let _ = crate::sys::write_atomic(&dir.join(FILE), &t);
    }

    /// Removes the manifest of `dir` (a build with diagnostics or errors must not be skipped next time).
    pub fn remove(dir: &Path) {
        let _ = std::fs::remove_file(dir.join(FILE));
    }

    /// True when the manifest was written for `key` and every observation and output still holds.
    #[must_use]
    pub fn up_to_date(&self, key: &str, sys: &dyn System, dir: &Path) -> bool {
        self.up_to_date_in(key, sys, dir, Some(dir))
    }

    /// [`Manifest::up_to_date`] with the outputs under `dir` and `generated_src` the directory whose `src/` the
    /// listings leave out (the generated crate's, [`Recorder::with_output`]); `None` for the Go target, whose outputs
    /// are files in the loaded tree itself (`crate::go::HideGenerated`), so a `src/` at the module root is a source.
    #[must_use]
    pub fn up_to_date_in(
        &self,
        key: &str,
        sys: &dyn System,
        dir: &Path,
        generated_src: Option<&Path>,
    ) -> bool {
        use rayon::prelude::*;
        if self.key != key {
            return false;
        }
        self.observations.hold(sys, generated_src)
            && self.outputs.par_iter().all(|(rel, (len, h))| {
                crate::sys::read_regular(&dir.join(rel), crate::sys::MAX_OUTPUT_BYTES).is_ok_and(
                    |bytes| {
                        bytes.len() as u64 == *len && blake3::hash(&bytes).to_hex().as_str() == h
                    },
                )
            })
    }
}

/// Escapes `\\`, tab, newline and carriage return in a path, so any file name fits a tab-separated line (R22).
fn escape(p: &str) -> std::borrow::Cow<'_, str> {
    if !p.contains(['\\', '\t', '\n', '\r']) {
        return p.into();
    }
    p.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
        .into()
}

/// The inverse of [`escape`].
fn unescape(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn parse(text: &str) -> Result<Manifest, &'static str> {
    let mut lines = text.lines();
    if lines.next() != Some(VERSION) {
        return Err("written by another vgc version");
    }
    let bad = "unreadable";
    let mut key = None;
    let mut stats = None;
    let mut profile = None;
    let mut observations = BTreeMap::new();
    let mut outputs = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        let kind = f.first().and_then(|k| k.chars().next()).ok_or(bad)?;
        match (kind, f.as_slice()) {
            ('K', [_, k]) => key = Some((*k).to_string()),
            ('S', [_, rest @ ..]) if rest.len() == 8 => {
                let n: Vec<usize> = rest
                    .iter()
                    .map(|x| x.parse().map_err(|_| bad))
                    .collect::<Result<_, _>>()?;
                stats = Some(Stats {
                    packages: n[0],
                    types: n[1],
                    tags: n[2],
                    lowered: n[3],
                    consumed: n[4],
                    reported: n[5],
                    not_lowered: n[6],
                    checks: n[7],
                });
            }
            ('P', [_, p]) => {
                profile = Some(serde_json::from_str(&unescape(p)).map_err(|_| bad)?);
            }
            ('F', [_, p, "-"]) => {
                observations.insert(('F', unescape(p)), Observation::File(None));
            }
            ('F', [_, p, len, mtime, h]) => {
                let len = len.parse().map_err(|_| bad)?;
                let mtime = mtime.parse().map_err(|_| bad)?;
                observations.insert(
                    ('F', unescape(p)),
                    Observation::File(Some((len, mtime, (*h).to_string()))),
                );
            }
            ('D', [_, p, h]) => {
                let o = Observation::Dir((*h != "-").then(|| (*h).to_string()));
                observations.insert(('D', unescape(p)), o);
            }
            ('I', [_, p, b @ ("0" | "1")]) => {
                observations.insert(('I', unescape(p)), Observation::IsDir(*b == "1"));
            }
            ('O', [_, p, len, h]) => {
                outputs.insert(
                    unescape(p),
                    (len.parse().map_err(|_| bad)?, (*h).to_string()),
                );
            }
            _ => return Err(bad),
        }
    }
    match (key, stats) {
        (Some(key), Some(stats)) if !outputs.is_empty() => Ok(Manifest {
            key,
            observations: Observations(observations),
            outputs,
            stats,
            profile,
        }),
        _ => Err(bad),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vgc_analysis::MemorySystem;

    fn sample() -> (Manifest, MemorySystem) {
        let mut sys = MemorySystem::default();
        sys.files.insert("/m/go.mod".into(), "module m\n".into());
        sys.files.insert("/m/a/t.go".into(), "package a\n".into());
        // R22: a name with a tab, a newline and a backslash survives the tab-separated text.
        sys.files
            .insert("/m/a/o\td\nd\\.go".into(), "package a\n".into());
        let rec = Recorder::new(&sys);
        let _ = rec.read_file("/m/go.mod");
        let _ = rec.read_file("/m/a/t.go");
        let _ = rec.read_file("/m/a/o\td\nd\\.go");
        let _ = rec.read_file("/m/missing.go");
        let _ = rec.read_dir("/m/a");
        let _ = rec.is_dir("/m/vendor");
        let files = [vgc_codegen::GeneratedFile {
            path: "Cargo.toml".into(),
            contents: "[package]\n".into(),
            chunks: Vec::new(),
        }];
        let stats = Stats {
            packages: 1,
            checks: 2,
            ..Stats::default()
        };
        (Manifest::record("k".into(), &rec, &files, stats, None), sys)
    }

    #[test]
    fn round_trips_through_text() {
        let (m, _) = sample();
        let dir = tempfile::tempdir().expect("tempdir");
        m.save(dir.path());
        let mut notes = Vec::new();
        assert_eq!(Manifest::load(dir.path(), &mut notes), Some(m));
        assert!(notes.is_empty());
    }

    #[test]
    fn every_observation_is_rechecked() {
        let (m, sys) = sample();
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").expect("write");
        assert!(m.up_to_date("k", &sys, dir.path()));
        assert!(!m.up_to_date("other key", &sys, dir.path()));
        let mut edited = sys.clone();
        edited
            .files
            .insert("/m/a/t.go".into(), "package a // edited\n".into());
        assert!(!m.up_to_date("k", &edited, dir.path()), "a changed file");
        let mut added = sys.clone();
        added.files.insert("/m/a/u.go".into(), "package a\n".into());
        assert!(
            !m.up_to_date("k", &added, dir.path()),
            "a new file in a listed directory"
        );
        let mut appeared = sys.clone();
        appeared
            .files
            .insert("/m/missing.go".into(), "package m\n".into());
        assert!(
            !m.up_to_date("k", &appeared, dir.path()),
            "a file that was missing"
        );
        let mut vendored = sys.clone();
        vendored
            .files
            .insert("/m/vendor/modules.txt".into(), String::new());
        assert!(
            !m.up_to_date("k", &vendored, dir.path()),
            "a directory that appeared"
        );
        std::fs::write(dir.path().join("Cargo.toml"), "[package] # edited\n").expect("write");
        assert!(
            !m.up_to_date("k", &sys, dir.path()),
            "an output edited by hand"
        );
    }

    #[test]
    fn unusable_manifests_are_ignored_with_a_note() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".vgc")).expect("mkdir");
        for (text, why) in [
            ("garbage\n".to_string(), "another vgc version"),
            (format!("{VERSION}\nK\tk\nS\t1\t2\n"), "unreadable"),
            (
                format!("{VERSION}\nK\tk\nS\t1\t2\t3\t4\t5\t6\n"),
                "unreadable",
            ),
        ] {
            std::fs::write(dir.path().join(FILE), text).expect("write");
            let mut notes = Vec::new();
            assert_eq!(Manifest::load(dir.path(), &mut notes), None);
            assert!(notes[0].contains(why), "{notes:?}");
        }
    }
}
