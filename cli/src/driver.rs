//! The build pipeline shared by the CLI and tests: load → per-file checks → lowering → codegen → atomic write.

use crate::sys::{OsSystem, write_atomic};
use std::collections::BTreeMap;
use std::path::PathBuf;
use vgc_codegen::{GeneratedFile, Options, RuntimeDep};
use vgc_ir::{Diagnostic, Severity};
use vgc_lowering::plan::Stats;

/// The concrete salsa database.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
    /// Queries executed since the last [`Database::take_executed`], when built with [`Database::logging`].
    log: Option<std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
}

impl Database {
    /// A database that records every query execution (salsa `WillExecute` events, as `name(Id(..))`) — the
    /// incrementality tests read it to prove what a change re-runs.
    #[must_use]
    pub fn logging() -> Self {
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = log.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |e: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind
                && let Ok(mut l) = sink.lock()
            {
                l.push(format!("{database_key:?}"));
            }
        })));
        Self {
            storage,
            log: Some(log),
        }
    }

    /// The queries executed since the previous call (empty unless built with [`Database::logging`]).
    #[must_use]
    pub fn take_executed(&self) -> Vec<String> {
        self.log
            .as_ref()
            .and_then(|l| l.lock().ok().map(|mut v| std::mem::take(&mut *v)))
            .unwrap_or_default()
    }
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl vgc_ir::Db for Database {
    /// One database clone per rayon job (only ever called from the top level, outside any query).
    fn par_each(&self, n: usize, job: &(dyn Fn(&dyn vgc_ir::Db, usize) + Sync)) {
        use rayon::prelude::*;
        (0..n)
            .into_par_iter()
            .for_each_with(self.clone(), |db, i| job(&*db, i));
    }

    fn as_dyn(&self) -> &dyn vgc_ir::Db {
        self
    }
}

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    /// A Go module root or package directory.
    pub path: String,
    /// Output directory for the generated crate (`None`: check only).
    pub out: Option<PathBuf>,
    /// Generated crate name.
    pub crate_name: String,
    /// Runtime dependency of the generated crate.
    pub runtime: RuntimeDep,
    /// Root criteria added to every enabled target package (`--roots`).
    pub extra_roots: Vec<String>,
    /// Stop after diagnostics and lowering (`vgc check`): no code is generated or formatted.
    pub check_only: bool,
    /// Also write a stub `src/custom.rs` for `+k8s:customValidation` functions when that file does not exist.
    pub custom_stub: bool,
    /// Neither read nor write the formatting cache (`--no-cache`): every file is formatted by rustfmt.
    pub no_cache: bool,
}

impl BuildRequest {
    /// A check-only request for `path` (no output), with the given extra root criteria.
    #[must_use]
    pub fn check(path: impl Into<String>, extra_roots: Vec<String>) -> Self {
        Self {
            path: path.into(),
            out: None,
            crate_name: "vgc-generated".into(),
            runtime: RuntimeDep::Version("0.1".into()),
            extra_roots,
            check_only: true,
            custom_stub: false,
            no_cache: false,
        }
    }
}

/// The result of a build: diagnostics (sorted), the sources they point into, counts, and generated files.
#[derive(Debug, Clone, Default)]
pub struct BuildOutcome {
    /// All diagnostics, sorted by (file, offset, code).
    pub diagnostics: Vec<Diagnostic>,
    /// File texts by path, for rendering.
    pub sources: BTreeMap<String, String>,
    /// Counts.
    pub stats: Stats,
    /// Generated files (empty when there were errors or for `check`).
    pub files: Vec<GeneratedFile>,
    /// An IO failure writing outputs.
    pub io_error: Option<String>,
    /// `+k8s:` tag lines extracted from the target packages' comments (every comment group of every file).
    pub tag_lines: usize,
    /// Of those, validation tags (catalog or unknown `k8s:` names) that failed to parse.
    pub tag_syntax_errors: usize,
    /// The lowered validation plan codegen consumed (empty when loading failed). Tests drive schema-aware random
    /// object generation from it.
    pub plan: vgc_lowering::CratePlan,
    /// `vgc lint` only: the cross-version drift summary, one row per API group with several versions.
    pub drift: Vec<vgc_lowering::drift::GroupDrift>,
    /// Notes for the user that are not diagnostics (e.g. a formatting cache that was unreadable and rebuilt).
    pub notes: Vec<String>,
    /// Generated `.rs` files taken from the formatting cache instead of running rustfmt.
    pub fmt_cache_hits: usize,
    /// Generated files actually written (the others already had these bytes).
    pub written: usize,
    /// Generated module files of the previous build that this build no longer generates (a package disappeared),
    /// removed from the output directory.
    pub removed: usize,
    /// Wall time per pipeline phase, in order (`load`, `check`, `lower`, `codegen`, `format`, `write`), for
    /// `--timings`.
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

impl BuildOutcome {
    /// Number of error diagnostics.
    #[must_use]
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
    /// Number of warnings.
    #[must_use]
    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
}

/// Loads the program into `db` (reusing every unchanged input of an earlier load), checks every tag and lowers
/// it: fills `out` (tag-line counts, sorted diagnostics, the sources of the files they point into, stats).
/// Returns the program and the plan, or `None` when nothing could be loaded.
fn analyze(
    db: &mut Database,
    req: &BuildRequest,
    out: &mut BuildOutcome,
) -> Option<(vgc_analysis::Program, vgc_lowering::CratePlan)> {
    use salsa::Setter as _;
    let sys = OsSystem;
    let mut clock = std::time::Instant::now();
    let (prog, mut diags) = match vgc_analysis::load(db, &sys, &req.path) {
        Ok(x) => x,
        Err(d) => {
            out.diagnostics = d;
            return None;
        }
    };
    match vgc_ir::Settings::try_get(&*db) {
        None => {
            vgc_ir::Settings::new(&*db, req.extra_roots.clone());
        }
        Some(s) if *s.extra_roots(&*db) != req.extra_roots => {
            s.set_extra_roots(db).to(req.extra_roots.clone());
        }
        Some(_) => {}
    }
    let db = &*db;
    for p in prog.packages.values().filter(|p| p.target) {
        for f in &p.files {
            let ir = vgc_ir::db::file_ir(db, *f);
            out.tag_lines += ir.package_tags.len();
            out.tag_syntax_errors += ir.package_tags.iter().filter(|u| u.parsed.is_err()).count();
        }
    }
    out.timings.push(("load", clock.elapsed()));
    clock = std::time::Instant::now();
    for p in prog.packages.values().filter(|p| p.target) {
        diags.extend(vgc_ir::db::check_package(db, p.input).iter().cloned());
    }
    out.timings.push(("check", clock.elapsed()));
    clock = std::time::Instant::now();
    let plan = vgc_lowering::crate_plan(db).clone();
    out.timings.push(("lower", clock.elapsed()));
    diags.extend(plan.diagnostics.iter().cloned());
    // Diagnostics from read-only packages' lowering are kept: their tags apply too.
    sort_diagnostics(&mut diags);
    out.diagnostics = diags;
    out.stats = plan.stats;
    let wanted: std::collections::BTreeSet<String> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.file.clone())
        .collect();
    add_sources(db, &prog, out, |path| wanted.contains(path));
    Some((prog, plan))
}

/// Copies the text of the program's files that `want` selects into `out.sources` (for rendering diagnostics,
/// suppressions and fixes).
fn add_sources(
    db: &dyn vgc_ir::Db,
    prog: &vgc_analysis::Program,
    out: &mut BuildOutcome,
    want: impl Fn(&str) -> bool,
) {
    let mut add = BTreeMap::new();
    for f in prog.packages.values().flat_map(|p| &p.files) {
        let path = f.path(db);
        if want(path) {
            add.insert(path.clone(), f.text(db).to_string());
        }
    }
    out.sources.extend(add);
}

fn sort_diagnostics(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| (&a.file, a.span.start, a.code).cmp(&(&b.file, b.span.start, b.code)));
    diags.dedup();
}

/// Lint settings: severity overrides per lint code (`None` turns a rule off), from `vgc.toml`, and the accepted
/// cross-version differences.
#[derive(Debug, Clone, Default)]
pub struct LintSettings {
    /// Code → new severity, or `None` for off.
    pub severities: BTreeMap<vgc_ir::Code, Option<Severity>>,
    /// Drift exceptions (`vgc_lowering::drift::parse_exceptions`).
    pub exceptions: Vec<vgc_lowering::drift::Exception>,
}

/// `vgc lint`: every diagnostic of `vgc check` plus the lint rules (`vgc_analysis::lint`), with `settings`'
/// severities and the `vgc:ignore` suppressions applied, sorted by file and position. Nothing is written.
#[must_use]
pub fn lint(req: &BuildRequest, settings: &LintSettings) -> BuildOutcome {
    let mut db = Database::default();
    let mut out = BuildOutcome::default();
    let Some((prog, plan)) = analyze(&mut db, req, &mut out) else {
        return out;
    };
    // Suppressions (`vgc:ignore`) and fixes read any file.
    add_sources(&db, &prog, &mut out, |_| true);
    let mut diags = vgc_analysis::lint::lint(&db, &prog, &req.extra_roots);
    let drift = vgc_lowering::drift::drift(&db, &prog, &plan, &settings.exceptions);
    diags.extend(drift.diagnostics);
    out.drift = drift.groups;
    out.plan = plan;
    diags.append(&mut out.diagnostics);
    let mut diags: Vec<Diagnostic> = diags
        .into_iter()
        .filter_map(|mut d| match settings.severities.get(&d.code) {
            Some(None) => None,
            Some(Some(s)) => {
                d.severity = *s;
                Some(d)
            }
            None => Some(d),
        })
        .collect();
    diags = vgc_analysis::lint::apply_suppressions(diags, &out.sources);
    sort_diagnostics(&mut diags);
    out.diagnostics = diags;
    out
}

/// Runs the pipeline once in a fresh [`Session`]. Outputs are written only when there is no error diagnostic,
/// each file atomically and only when its bytes change.
#[must_use]
pub fn build(req: &BuildRequest) -> BuildOutcome {
    Session::default().build(req)
}

/// A live build: one salsa database kept across builds (`vgc watch`), so a rebuild re-runs only the queries whose
/// inputs changed — parsing of edited files, whole-crate lowering when some IR changed, and code generation of
/// the modules whose plan changed — and a formatting memo so unchanged modules are not formatted again.
#[derive(Default)]
pub struct Session {
    db: Database,
    /// Module path → (BLAKE3 of the prettyplease text, what rustfmt made of it).
    formatted: BTreeMap<String, (String, String)>,
}

impl Session {
    /// A session over `db` (e.g. [`Database::logging`]).
    #[must_use]
    pub fn with_database(db: Database) -> Self {
        Self {
            db,
            formatted: BTreeMap::new(),
        }
    }

    /// The session's database.
    #[must_use]
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// Runs the pipeline against the current state of the files (see [`build`]).
    #[must_use]
    pub fn build(&mut self, req: &BuildRequest) -> BuildOutcome {
        let mut out = BuildOutcome::default();
        let Some(plan) = analyze(&mut self.db, req, &mut out).map(|(_, plan)| plan) else {
            return out;
        };
        if out.errors() > 0 || req.check_only {
            out.plan = plan;
            return out;
        }
        let opts = Options {
            crate_name: req.crate_name.clone(),
            runtime: req.runtime.clone(),
        };
        let mut clock = std::time::Instant::now();
        let stale;
        match vgc_codegen::generate_incremental(&self.db, &opts) {
            Ok(mut files) => {
                out.timings.push(("codegen", clock.elapsed()));
                clock = std::time::Instant::now();
                let mut cache = req
                    .out
                    .as_deref()
                    .filter(|_| !req.no_cache)
                    .map(|d| FmtCache::load(d, &mut out.notes));
                // What the previous build generated, to remove modules of packages that disappeared.
                let mut previous: std::collections::BTreeSet<String> =
                    self.formatted.keys().cloned().collect();
                if let Some(c) = &cache {
                    previous.extend(c.entries.keys().cloned());
                }
                out.fmt_cache_hits = format_all(
                    &mut files,
                    cache.as_mut(),
                    req.out.as_deref(),
                    &mut self.formatted,
                );
                if let (Some(c), Some(dir)) = (&cache, req.out.as_ref().filter(|_| !req.no_cache)) {
                    c.save(dir);
                }
                for f in &files {
                    previous.remove(&f.path);
                }
                stale = previous;
                out.files = files;
                out.timings.push(("format", clock.elapsed()));
                clock = std::time::Instant::now();
            }
            Err(e) => {
                out.io_error = Some(format!(
                    "internal error: generated code for {} does not parse: {}",
                    e.module, e.message
                ));
                out.plan = plan;
                return out;
            }
        }
        if let Some(dir) = &req.out {
            if req.custom_stub
                && !dir.join("src/custom.rs").exists()
                && let Some(mut stub) = vgc_codegen::custom_stub(&plan, &opts)
            {
                if let Some(formatted) = rustfmt(&stub.contents) {
                    stub.contents = formatted;
                }
                out.files.push(stub);
            }
            for f in &out.files {
                match write_atomic(&dir.join(&f.path), &f.contents) {
                    Ok(written) => out.written += usize::from(written),
                    Err(e) => {
                        out.io_error = Some(format!("{}: {e}", dir.join(&f.path).display()));
                        break;
                    }
                }
            }
            if out.io_error.is_none() {
                out.removed = remove_stale(dir, &stale);
            }
            out.timings.push(("write", clock.elapsed()));
        }
        out.plan = plan;
        out
    }
}

/// Removes the files at `stale` (paths relative to `dir`) that vgc generated — their first line is vgc's
/// `@generated` marker; anything else is left alone — and the directories that become empty. Returns how many
/// files were removed.
fn remove_stale(dir: &std::path::Path, stale: &std::collections::BTreeSet<String>) -> usize {
    let mut removed = 0;
    for rel in stale {
        let path = dir.join(rel);
        let ours =
            std::fs::read_to_string(&path).is_ok_and(|t| t.starts_with("// @generated by vgc"));
        if ours && std::fs::remove_file(&path).is_ok() {
            removed += 1;
            let mut parent = path.parent();
            while let Some(p) = parent.filter(|p| *p != dir) {
                if std::fs::remove_dir(p).is_err() {
                    break;
                }
                parent = p.parent();
            }
        }
    }
    removed
}

/// The process exit code for an outcome: 2 for usage or IO failures (nothing could be loaded, an output could
/// not be written), 1 when there are error diagnostics, 0 otherwise.
#[must_use]
pub fn exit_code(outcome: &BuildOutcome) -> u8 {
    let fatal_io = outcome.stats.packages == 0
        && outcome
            .diagnostics
            .iter()
            .any(|d| d.code == vgc_ir::Code::Io);
    if fatal_io || outcome.io_error.is_some() {
        2
    } else if outcome.errors() > 0 {
        1
    } else {
        0
    }
}

/// Formats Rust source with `rustfmt --edition 2024` (stdin → stdout), so generated code matches `cargo fmt`.
/// Returns `None` when rustfmt is not installed or fails; the prettyplease output is then kept as it is.
/// The formatting cache: for each generated file, the BLAKE3 hashes of the prettyplease text and of what rustfmt
/// made of it. When the new prettyplease text and the file on disk both match, rustfmt is not run again — so a
/// no-op or one-package rebuild formats only what changed. Stored as `.vgc-fmt-cache` in the output directory:
/// a version line, then `path<TAB>unformatted<TAB>formatted` lines. A cache that does not parse is ignored and
/// rebuilt (with a note); a stale entry only costs a rustfmt run.
#[derive(Debug, Default)]
struct FmtCache {
    entries: BTreeMap<String, (String, String)>,
}

const FMT_CACHE_FILE: &str = ".vgc-fmt-cache";
const FMT_CACHE_VERSION: &str = concat!("vgc-fmt-cache 1 ", env!("CARGO_PKG_VERSION"));

impl FmtCache {
    fn load(dir: &std::path::Path, notes: &mut Vec<String>) -> Self {
        let Ok(text) = std::fs::read_to_string(dir.join(FMT_CACHE_FILE)) else {
            return Self::default();
        };
        let mut lines = text.lines();
        if lines.next() != Some(FMT_CACHE_VERSION) {
            notes.push(format!(
                "{}: written by another vgc version; rebuilt",
                dir.join(FMT_CACHE_FILE).display()
            ));
            return Self::default();
        }
        let mut entries = BTreeMap::new();
        for l in lines {
            let mut parts = l.split('\t');
            match (parts.next(), parts.next(), parts.next(), parts.next()) {
                (Some(p), Some(u), Some(f), None) if u.len() == 64 && f.len() == 64 => {
                    entries.insert(p.to_string(), (u.to_string(), f.to_string()));
                }
                _ => {
                    notes.push(format!(
                        "{}: unreadable; ignored and rebuilt",
                        dir.join(FMT_CACHE_FILE).display()
                    ));
                    return Self::default();
                }
            }
        }
        Self { entries }
    }

    fn save(&self, dir: &std::path::Path) {
        let mut text = String::from(FMT_CACHE_VERSION);
        for (p, (u, f)) in &self.entries {
            text.push_str(&format!("\n{p}\t{u}\t{f}"));
        }
        text.push('\n');
        // The cache is an optimisation: failing to write it is not an error.
        let _ = write_atomic(&dir.join(FMT_CACHE_FILE), &text);
    }
}

fn hash(s: &str) -> String {
    blake3::hash(s.as_bytes()).to_hex().to_string()
}

/// Formats every `.rs` file with rustfmt, reusing the on-disk result when the cache says it is current, and
/// formatting the rest in a few batched rustfmt processes ([`format_batched`]). Returns the number of cache hits.
fn format_all(
    files: &mut [GeneratedFile],
    cache: Option<&mut FmtCache>,
    dir: Option<&std::path::Path>,
    memo: &mut BTreeMap<String, (String, String)>,
) -> usize {
    use rayon::prelude::*;
    let entries = cache.as_ref().map(|c| &c.entries);
    let unformatted: Vec<Option<String>> = files
        .par_iter()
        .map(|f| f.path.ends_with(".rs").then(|| hash(&f.contents)))
        .collect();
    // A live session remembers what it formatted: no disk access at all for those.
    let mut memo_hits = 0;
    let mut from_memo = vec![false; files.len()];
    for (i, (f, u)) in files.iter_mut().zip(&unformatted).enumerate() {
        if let (Some(u), Some((mu, text))) = (u, memo.get(&f.path))
            && u == mu
        {
            f.contents.clone_from(text);
            from_memo[i] = true;
            memo_hits += 1;
        }
    }
    // Cache hits: the prettyplease text is the one the cached file was formatted from, and the file on disk is
    // still what rustfmt made of it.
    let hits: Vec<Option<String>> = files
        .par_iter()
        .zip(&unformatted)
        .zip(&from_memo)
        .map(|((f, u), &memoized)| {
            if memoized {
                return None;
            }
            let (entries, dir, u) = (entries?, dir?, u.as_ref()?);
            let (cu, cf) = entries.get(&f.path)?;
            if cu != u {
                return None;
            }
            let disk = std::fs::read_to_string(dir.join(&f.path)).ok()?;
            (hash(&disk) == *cf).then_some(disk)
        })
        .collect();
    let mut todo = Vec::new();
    let mut hit_count = 0;
    for (i, hit) in hits.into_iter().enumerate() {
        match hit {
            Some(disk) => {
                files[i].contents = disk;
                hit_count += 1;
            }
            None if unformatted[i].is_some() && !from_memo[i] => todo.push(i),
            None => {}
        }
    }
    format_batched(files, &todo, dir);
    memo.clear();
    for (f, u) in files.iter().zip(&unformatted) {
        if let Some(u) = u {
            memo.insert(f.path.clone(), (u.clone(), f.contents.clone()));
        }
    }
    if let Some(cache) = cache {
        cache.entries.clear();
        for (f, u) in files.iter().zip(unformatted) {
            if let Some(u) = u {
                cache.entries.insert(f.path.clone(), (u, hash(&f.contents)));
            }
        }
    }
    hit_count + memo_hits
}

/// The directory a generated module file's child modules live in (`src/core/mod.rs` → `src/core/`,
/// `src/core/v1.rs` → `src/core/v1/`), as rustfmt resolves `pub mod x;`.
fn child_dir(path: &str) -> String {
    match path.strip_suffix("mod.rs") {
        Some(d) if d.ends_with('/') => d.to_string(),
        _ => format!("{}/", path.trim_end_matches(".rs")),
    }
}

/// Formats `files[todo]` with as few rustfmt processes as there are cores: the unformatted files are staged in a
/// temporary directory inside `near` (so rustfmt finds the same `rustfmt.toml` as `cargo fmt` in the output
/// would), each process is given whole module subtrees (rustfmt follows `pub mod x;` into child files, so a
/// file's descendants are staged with it), and the results are read back. Starting rustfmt costs about as much
/// as formatting a module, so one process per file spent most of a cold build starting processes. `src/lib.rs`,
/// whose `custom` module is hand-written and may not exist yet, goes through stdin. A batch whose rustfmt fails
/// falls back to one stdin run per file, which keeps the prettyplease text if that fails too.
fn format_batched(files: &mut [GeneratedFile], todo: &[usize], near: Option<&std::path::Path>) {
    let (root, rest): (Vec<usize>, Vec<usize>) =
        todo.iter().partition(|&&i| files[i].path == "src/lib.rs");
    for i in root {
        if let Some(formatted) = rustfmt(&files[i].contents) {
            files[i].contents = formatted;
        }
    }
    if rest.is_empty() {
        return;
    }
    // Close the set over descendants, then pass only the files with no staged ancestor.
    let mut staged: std::collections::BTreeSet<usize> = rest.iter().copied().collect();
    for &i in &rest {
        let d = child_dir(&files[i].path);
        staged.extend(
            files
                .iter()
                .enumerate()
                .filter(|(_, f)| f.path.ends_with(".rs") && f.path.starts_with(&d))
                .map(|(j, _)| j),
        );
    }
    let tops: Vec<usize> = staged
        .iter()
        .copied()
        .filter(|&i| {
            !staged
                .iter()
                .any(|&a| a != i && files[i].path.starts_with(&child_dir(&files[a].path)))
        })
        .collect();
    let subtree_bytes = |i: usize| -> usize {
        let d = child_dir(&files[i].path);
        files[i].contents.len()
            + staged
                .iter()
                .filter(|&&j| files[j].path.starts_with(&d))
                .map(|&j| files[j].contents.len())
                .sum::<usize>()
    };
    // Longest subtree first onto the least loaded process.
    let workers = rayon::current_num_threads().clamp(1, tops.len());
    let mut by_size: Vec<(usize, usize)> = tops.iter().map(|&i| (subtree_bytes(i), i)).collect();
    by_size.sort_unstable_by(|a, b| b.cmp(a));
    let mut groups: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); workers];
    for (bytes, i) in by_size {
        if let Some(g) = groups.iter_mut().min_by_key(|g| g.0) {
            g.0 += bytes;
            g.1.push(i);
        }
    }
    let base = near
        .and_then(|d| std::fs::create_dir_all(d).ok().map(|()| d.to_path_buf()))
        .unwrap_or_else(std::env::temp_dir);
    let Ok(stage) = tempfile::Builder::new()
        .prefix(".vgc-fmt-")
        .tempdir_in(&base)
    else {
        stdin_each(files, &staged.into_iter().collect::<Vec<_>>());
        return;
    };
    let written = staged.iter().all(|&i| {
        let p = stage.path().join(&files[i].path);
        p.parent()
            .is_some_and(|d| std::fs::create_dir_all(d).is_ok())
            && std::fs::write(&p, &files[i].contents).is_ok()
    });
    let ok: Vec<bool> = std::thread::scope(|s| {
        let handles: Vec<_> = groups
            .iter()
            .map(|(_, g)| {
                let args: Vec<&str> = g.iter().map(|&i| files[i].path.as_str()).collect();
                let cwd = stage.path();
                s.spawn(move || {
                    written
                        && std::process::Command::new("rustfmt")
                            .args(["--edition", "2024", "--quiet"])
                            .args(&args)
                            .current_dir(cwd)
                            .stdin(std::process::Stdio::null())
                            .stdout(std::process::Stdio::null())
                            .stderr(std::process::Stdio::null())
                            .status()
                            .is_ok_and(|st| st.success())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(false))
            .collect()
    });
    let mut failed = Vec::new();
    for ((_, g), ok) in groups.iter().zip(ok) {
        for &top in g {
            let d = child_dir(&files[top].path);
            let members: Vec<usize> = staged
                .iter()
                .copied()
                .filter(|&j| j == top || files[j].path.starts_with(&d))
                .collect();
            for j in members {
                match std::fs::read_to_string(stage.path().join(&files[j].path)) {
                    Ok(text) if ok => files[j].contents = text,
                    _ => failed.push(j),
                }
            }
        }
    }
    stdin_each(files, &failed);
}

/// Formats each of `files[idx]` through rustfmt's stdin, in parallel; a file rustfmt fails on keeps its text.
fn stdin_each(files: &mut [GeneratedFile], idx: &[usize]) {
    use rayon::prelude::*;
    let formatted: Vec<(usize, Option<String>)> = idx
        .par_iter()
        .map(|&i| (i, rustfmt(&files[i].contents)))
        .collect();
    for (i, f) in formatted {
        if let Some(text) = f {
            files[i].contents = text;
        }
    }
}

fn rustfmt(src: &str) -> Option<String> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let text = src.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    if output.status.success() {
        String::from_utf8(output.stdout).ok()
    } else {
        None
    }
}
