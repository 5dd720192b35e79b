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
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl vgc_ir::Db for Database {
    /// One database clone per rayon job (only ever called from the top level, outside any query).
    fn prefetch_ir(&self, files: &[vgc_ir::SourceFile]) {
        use rayon::prelude::*;
        files.par_iter().for_each_with(self.clone(), |db, f| {
            let _ = vgc_ir::db::file_ir(db, *f);
        });
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

/// Loads the program, checks every tag and lowers it: fills `out` (sources, tag-line counts, sorted diagnostics,
/// stats). Returns the program and the plan, or `None` when nothing could be loaded.
fn analyze(
    db: &Database,
    req: &BuildRequest,
    out: &mut BuildOutcome,
) -> Option<(vgc_analysis::Program, vgc_lowering::CratePlan)> {
    let sys = OsSystem;
    let mut clock = std::time::Instant::now();
    let (prog, mut diags) = match vgc_analysis::load(db, &sys, &req.path) {
        Ok(x) => x,
        Err(d) => {
            out.diagnostics = d;
            return None;
        }
    };
    for p in prog.packages.values() {
        for f in &p.files {
            out.sources
                .insert(f.path(db).clone(), f.text(db).to_string());
            if p.target {
                let ir = vgc_ir::db::file_ir(db, *f);
                out.tag_lines += ir.package_tags.len();
                out.tag_syntax_errors +=
                    ir.package_tags.iter().filter(|u| u.parsed.is_err()).count();
            }
        }
    }
    out.timings.push(("load", clock.elapsed()));
    clock = std::time::Instant::now();
    for p in prog.packages.values().filter(|p| p.target) {
        diags.extend(vgc_ir::db::check_package(db, p.input).iter().cloned());
    }
    out.timings.push(("check", clock.elapsed()));
    clock = std::time::Instant::now();
    vgc_ir::Settings::new(db, req.extra_roots.clone());
    let mut plan = vgc_lowering::lower(db, &prog);
    out.timings.push(("lower", clock.elapsed()));
    plan.stats.packages = prog.packages.len();
    diags.extend(plan.diagnostics.iter().cloned());
    // Diagnostics from read-only packages' lowering are kept: their tags apply too.
    sort_diagnostics(&mut diags);
    out.diagnostics = diags;
    out.stats = plan.stats;
    Some((prog, plan))
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
    let db = Database::default();
    let mut out = BuildOutcome::default();
    let Some((prog, plan)) = analyze(&db, req, &mut out) else {
        return out;
    };
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

/// Runs the pipeline. Outputs are written only when there is no error diagnostic, each file atomically.
#[must_use]
pub fn build(req: &BuildRequest) -> BuildOutcome {
    let db = Database::default();
    let mut out = BuildOutcome::default();
    let Some(plan) = analyze(&db, req, &mut out).map(|(_, plan)| plan) else {
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
    match vgc_codegen::generate(&plan, &opts) {
        Ok(mut files) => {
            out.timings.push(("codegen", clock.elapsed()));
            clock = std::time::Instant::now();
            let mut cache = req
                .out
                .as_deref()
                .filter(|_| !req.no_cache)
                .map(|d| FmtCache::load(d, &mut out.notes));
            out.fmt_cache_hits = format_all(&mut files, cache.as_mut(), req.out.as_deref());
            if let (Some(c), Some(dir)) = (&cache, req.out.as_ref().filter(|_| !req.no_cache)) {
                c.save(dir);
            }
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
            if let Err(e) = write_atomic(&dir.join(&f.path), &f.contents) {
                out.io_error = Some(format!("{}: {e}", dir.join(&f.path).display()));
                break;
            }
        }
        out.timings.push(("write", clock.elapsed()));
    }
    out.plan = plan;
    out
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
) -> usize {
    use rayon::prelude::*;
    let entries = cache.as_ref().map(|c| &c.entries);
    let unformatted: Vec<Option<String>> = files
        .iter()
        .map(|f| f.path.ends_with(".rs").then(|| hash(&f.contents)))
        .collect();
    // Cache hits: the prettyplease text is the one the cached file was formatted from, and the file on disk is
    // still what rustfmt made of it.
    let hits: Vec<Option<String>> = files
        .par_iter()
        .zip(&unformatted)
        .map(|(f, u)| {
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
            None if unformatted[i].is_some() => todo.push(i),
            None => {}
        }
    }
    format_batched(files, &todo, dir);
    if let Some(cache) = cache {
        cache.entries.clear();
        for (f, u) in files.iter().zip(unformatted) {
            if let Some(u) = u {
                cache.entries.insert(f.path.clone(), (u, hash(&f.contents)));
            }
        }
    }
    hit_count
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
