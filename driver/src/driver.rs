//! The build pipeline shared by the CLI and tests: load → per-file checks → lowering → codegen → atomic write.

use crate::config::LintSettings;
use crate::format::{FmtCache, format_all, rustfmt};
use crate::sys::OsSystem;
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
    ///
    /// Self-scheduling: one worker per rayon thread, each with its own clone, takes the next index from a shared
    /// counter, so jobs start in index order and a worker that finishes early takes more. Callers that know
    /// their jobs' sizes list the largest first (longest-processing-time order), which keeps a large job from
    /// starting last and running alone at the end (`docs/performance.md`).
    fn par_each(&self, n: usize, job: &(dyn Fn(&dyn vgc_ir::Db, usize) + Sync)) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let workers = rayon::current_num_threads().min(n);
        if workers <= 1 {
            for i in 0..n {
                job(self, i);
            }
            return;
        }
        let dbs: Vec<Database> = (0..workers).map(|_| self.clone()).collect();
        let next = &next;
        rayon::scope(move |s| {
            for db in dbs {
                s.spawn(move |_| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        job(&db, i);
                    }
                });
            }
        });
    }

    fn as_dyn(&self) -> &dyn vgc_ir::Db {
        self
    }
}

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    /// A Go module root or package directory (targets: the packages in and below it) or a `.go` file (target:
    /// its package), absolute — the CLI resolves what the user typed with [`crate::target::resolve`].
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
    /// Neither read nor write the caches (`--no-cache`): every module is generated (and, with `rustfmt`,
    /// formatted) afresh.
    pub no_cache: bool,
    /// The directory of the caches (`--cache-dir`; created when missing) instead of `.vgc/` in the output
    /// directory: a CI job can keep it between runs, or several checkouts can share one. The output lock and
    /// staging stay in the output directory. See [`BuildRequest::cache_root`].
    pub cache_dir: Option<PathBuf>,
    /// Replace files in the way of an output even when vgc did not generate them (`--force`); without it such a
    /// file is an error naming it ([`crate::output::may_write`]).
    pub force: bool,
    /// Format the generated `.rs` files with rustfmt (`--rustfmt`) instead of keeping the in-process prettyplease
    /// output. Off by default: prettyplease output depends on nothing but vgc's version, while rustfmt's depends on
    /// the toolchain installed. A rustfmt run that fails, times out or returns text that does not parse leaves the
    /// prettyplease text of that file.
    pub rustfmt: bool,
    /// The upstream profile chosen by the user (`--upstream`, `vgc.toml`); `None`: detected from the module's
    /// `go.mod` ([`vgc_analysis::gomod::detect_upstream`]), else the newest.
    pub upstream: Option<vgc_ir::profile::Selected>,
    /// `--validation-extensions-file` paths (kubernetes#142116), in order: project-defined `+k8s:format` values,
    /// loaded and checked on every build by [`crate::extensions::load`] (1.38 profile).
    pub extension_files: Vec<String>,
    /// The tag prefix (`--tag-prefix`, else `vgc.toml` `[upstream] tag-prefix`, else `k8s:`; kubernetes#141866,
    /// 1.38 profile): validation tags are read as `+<prefix><name>` and diagnostics name them so.
    pub tag_prefix: vgc_ir::TagPrefix,
    /// The structs the validators run on (`--target`; `None`: `vgc.toml` `[build] target`, else vgc's own
    /// generated structs): k8s-openapi's with `--target k8s-openapi --k8s-openapi-version 1.37`, whose missing
    /// types and fields are `VGC0121` errors.
    pub target: Option<vgc_codegen::Target>,
}

impl Default for BuildRequest {
    /// No path, no output, crate `vgc-generated` depending on `vgc-runtime` by version, no extra roots, every
    /// switch off, the profile detected. Callers set what they need and take the rest with `..Default::default()`.
    fn default() -> Self {
        Self {
            path: String::new(),
            out: None,
            crate_name: "vgc-generated".into(),
            runtime: RuntimeDep::Version("0.1".into()),
            extra_roots: Vec::new(),
            check_only: false,
            custom_stub: false,
            no_cache: false,
            cache_dir: None,
            force: false,
            rustfmt: false,
            upstream: None,
            extension_files: Vec::new(),
            tag_prefix: vgc_ir::TagPrefix::default(),
            target: None,
        }
    }
}

impl BuildRequest {
    /// A check-only request for `path` (no output), with the given extra root criteria.
    #[must_use]
    pub fn check(path: impl Into<String>, extra_roots: Vec<String>) -> Self {
        Self {
            path: path.into(),
            extra_roots,
            check_only: true,
            ..Self::default()
        }
    }

    /// The directory the caches live in: [`BuildRequest::cache_dir`] when given, else `.vgc/` in the output
    /// directory; `None` when the request uses no cache (no output, `check_only`, or `no_cache`).
    #[must_use]
    pub fn cache_root(&self) -> Option<PathBuf> {
        if self.no_cache || self.check_only {
            return None;
        }
        let out = self.out.as_deref()?;
        Some(
            self.cache_dir
                .clone()
                .unwrap_or_else(|| out.join(crate::output::STATE_DIR)),
        )
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
    /// The upstream profile the build used and why (`None` when nothing could be loaded).
    pub profile: Option<vgc_ir::profile::Selected>,
    /// The tag prefix the build read tags with (the request's).
    pub tag_prefix: vgc_ir::TagPrefix,
    /// The Go files of every loaded package by import path (the non-test files the program read, sorted), so that
    /// `vgc docs` can show their doc comments (`vgc_docs_gen::GoDocs::read`). Empty when loading failed.
    pub package_files: BTreeMap<String, Vec<String>>,
    /// The lowered validation plan codegen consumed (empty when loading failed). Tests drive schema-aware random
    /// object generation from it.
    pub plan: vgc_lowering::CratePlan,
    /// `vgc lint` only: the cross-version drift summary, one row per API group with several versions.
    pub drift: Vec<vgc_lowering::drift::GroupDrift>,
    /// Notes for the user that are not diagnostics (e.g. a formatting cache that was unreadable and rebuilt).
    pub notes: Vec<String>,
    /// Generated `.rs` files taken from the formatting cache instead of running rustfmt.
    pub fmt_cache_hits: usize,
    /// With `--rustfmt`: generated `.rs` files rustfmt could not format (not installed, failed, timed out, or
    /// printed text that does not parse), written with vgc's built-in formatting instead. Such a build is not
    /// recorded as clean, so the next one formats them again (R20).
    pub fmt_fallbacks: usize,
    /// Types of the modules generated again whose items came from the unit cache ([`crate::cache::units`]) instead
    /// of being emitted (0 without an output directory, with `--no-cache`, and in a warm session).
    pub unit_cache_hits: usize,
    /// Generated files actually written (the others already had these bytes).
    pub written: usize,
    /// The build manifest showed nothing changed since the previous clean build: nothing was loaded or written.
    pub up_to_date: bool,
    /// Generated module files of the previous build that this build no longer generates (a package disappeared),
    /// removed from the output directory.
    pub removed: usize,
    /// Wall time per pipeline phase, in order (`load`, `check`, `lower`, `lint`, `codegen`, `format`, `write`), for
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
    sys: &dyn vgc_analysis::System,
    loader: &mut Loader,
    req: &BuildRequest,
    out: &mut BuildOutcome,
    ir_save: &mut IrSave,
) -> Option<(vgc_analysis::Program, vgc_lowering::CratePlan)> {
    use salsa::Setter as _;
    let clock = std::time::Instant::now();
    // The settings singleton exists before anything reads it: salsa does not track a `try_get` that found no
    // singleton, so a query run before it existed would keep a stale profile.
    if vgc_ir::Settings::try_get(&*db).is_none() {
        vgc_ir::Settings::new(
            &*db,
            req.extra_roots.clone(),
            vgc_ir::Upstream::NEWEST,
            std::sync::Arc::from(Vec::new()),
            req.tag_prefix.clone(),
            false,
        );
    }
    let fast = match (&loader.edits, &loader.discovery) {
        (Some(paths), Some(d)) => {
            vgc_analysis::program::apply_edits(db, sys, paths, &mut loader.stamps)
                .then(|| (vgc_analysis::loaded_program(&*db).clone(), d.clone()))
        }
        _ => None,
    };
    let (prog, mut diags) = match fast {
        Some(x) => x,
        None => match vgc_analysis::load(db, sys, &req.path, &mut loader.stamps) {
            Ok(x) => {
                loader.discovery = Some(x.1.clone());
                x
            }
            Err(d) => {
                loader.discovery = None;
                out.diagnostics = d;
                return None;
            }
        },
    };
    // `--upstream` (the CLI fills `req.upstream` from it or from `vgc.toml`); for library callers (`vgc-build`,
    // tests) the `vgc.toml` above the input too, as documented; else detected from the module.
    let profile = req
        .upstream
        .clone()
        .or_else(|| {
            let c = build_config(sys, &req.path)?.ok()?;
            c.upstream
                .map(|v| vgc_ir::profile::Selected::new(v, "set in vgc.toml"))
        })
        .or_else(|| {
            let text = sys.read_file(&format!("{}/go.mod", prog.root)).ok()?;
            vgc_analysis::gomod::detect_upstream(
                &vgc_analysis::gomod::parse_go_mod(&text),
                &prog.root,
            )
        })
        .unwrap_or_else(vgc_ir::profile::Selected::newest);
    let settings = vgc_ir::Settings::get(&*db);
    if *settings.extra_roots(&*db) != req.extra_roots {
        settings.set_extra_roots(db).to(req.extra_roots.clone());
    }
    if settings.upstream(&*db) != profile.version {
        settings.set_upstream(db).to(profile.version);
    }
    if *settings.tag_prefix(&*db) != req.tag_prefix {
        settings.set_tag_prefix(db).to(req.tag_prefix.clone());
    }
    if !req.tag_prefix.is_default() && !profile.version.tag_prefix_option() {
        diags.push(
            Diagnostic::error(
                vgc_ir::Code::GeneratorConfig,
                format!(
                    "the tag prefix {:?} needs the upstream 1.38 profile (upstream {}: {}): validation-gen has no --tag-prefix before 1.38 (kubernetes#141866)",
                    req.tag_prefix.as_str(),
                    profile.version,
                    profile.why
                ),
            )
            .with_hint("select `--upstream 1.38` (or `[upstream] version = \"1.38\"` in vgc.toml), or drop `--tag-prefix` / `[upstream] tag-prefix`"),
        );
    }
    // `--validation-extensions-file`, else `vgc.toml` `[build] validation-extensions-files` (a `vgc.toml` that does
    // not parse is reported by `apply_build_severities`).
    let from_config;
    let files = if req.extension_files.is_empty() {
        from_config = build_config(sys, &req.path)
            .and_then(Result::ok)
            .map(|c| c.extension_files)
            .unwrap_or_default();
        &from_config
    } else {
        &req.extension_files
    };
    // `vgc.toml` `[extensions] enabled`: vgc's KEP-5073 extensions (docs/extensions.md).
    let vgc_extensions = build_config(sys, &req.path)
        .and_then(Result::ok)
        .is_some_and(|c| c.vgc_extensions);
    if settings.vgc_extensions(&*db) != vgc_extensions {
        settings.set_vgc_extensions(db).to(vgc_extensions);
    }
    let (formats, load_errors) = crate::extensions::load(files, &|p| sys.read_file(p));
    diags.extend(load_errors);
    if **settings.formats(&*db) != *formats {
        settings.set_formats(db).to(formats);
    }
    out.profile = Some(profile);
    out.tag_prefix = req.tag_prefix.clone();
    let db = &*db;
    // Every file's IR is final now (under the settings just set): the IR cache can be written.
    ir_save.start(db, &prog);
    for p in prog.packages.values().filter(|p| p.target) {
        for f in &p.files {
            let ir = vgc_ir::db::file_ir(db, *f);
            out.tag_lines += ir.package_tags.len();
            out.tag_syntax_errors += ir.package_tags.iter().filter(|u| u.parsed.is_err()).count();
        }
    }
    // Under another prefix, the `+k8s:` validation tags of packages outside the build (k8s.io/apimachinery's
    // `ObjectMeta`) are not read, as upstream reads none of them; their lines are not reported one by one (they
    // are not the user's to change), so say it once.
    if !req.tag_prefix.is_default() {
        let mut skipped: BTreeMap<&str, usize> = BTreeMap::new();
        for p in prog.packages.values().filter(|p| !p.target) {
            let n: usize = p
                .files
                .iter()
                .map(|f| vgc_ir::db::file_ir(db, *f).unprefixed.len())
                .sum();
            if n > 0 {
                *skipped.entry(p.path.as_str()).or_default() += n;
            }
        }
        if !skipped.is_empty() {
            let total: usize = skipped.values().sum();
            let names: Vec<&str> = skipped.keys().copied().collect();
            out.notes.push(format!(
                "{total} `+k8s:` validation tag(s) of packages outside the build are not read under the tag prefix {:?}, as upstream validation-gen reads none of them: {}",
                req.tag_prefix.as_str(),
                names.join(", ")
            ));
        }
    }
    out.timings.push(("load", clock.elapsed()));
    // Checking the target packages' tags and upstream's own lint (VGC0301–0303: its generation stops with `lint
    // failed` on these, so every command reports them as errors, `docs/lint.md`) need no lowering: they run on a
    // thread of their own (a second database handle) beside it. Their diagnostics keep their places in the list.
    let side_db = db.clone();
    let (prog_ref, extra_roots) = (&prog, &req.extra_roots);
    let ((checked, check_time, linted, lint_time), plan, lower_time) = std::thread::scope(|s| {
        let side = s.spawn(move || {
            let db = &side_db;
            let clock = std::time::Instant::now();
            let mut checked = Vec::new();
            for p in prog_ref.packages.values().filter(|p| p.target) {
                checked.extend(vgc_ir::db::check_package(db, p.input).iter().cloned());
            }
            let check_time = clock.elapsed();
            let clock = std::time::Instant::now();
            let linted = vgc_analysis::lint::upstream(db, prog_ref, extra_roots);
            (checked, check_time, linted, clock.elapsed())
        });
        let clock = std::time::Instant::now();
        vgc_lowering::prefetch_types(db);
        let plan = vgc_lowering::crate_plan(db).clone();
        let lower_time = clock.elapsed();
        let side = side
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (side, plan, lower_time)
    });
    out.timings.push(("lower", lower_time));
    out.timings.push(("check (beside lower)", check_time));
    out.timings.push(("lint (beside lower)", lint_time));
    diags.extend(checked);
    diags.extend(plan.diagnostics.iter().cloned());
    // R42: packages outside the build whose types the plan includes (a `replace`d or nested module, a read-only
    // dependency) contribute their tags, so their tag errors are errors here too — else a malformed tag there
    // would be lowered as best it can (`maxLength=abc` as 0) without a word. Warnings (Go syntax recovery) stay
    // with the package's own build.
    let planned: std::collections::HashSet<&str> =
        plan.modules.iter().map(|m| m.pkg.as_str()).collect();
    for p in prog
        .packages
        .values()
        .filter(|p| !p.target && planned.contains(p.path.as_str()))
    {
        diags.extend(
            vgc_ir::db::check_package(db, p.input)
                .iter()
                .filter(|d| d.severity == vgc_ir::Severity::Error)
                .cloned(),
        );
    }
    // Go names that would clash as Rust names (R33): the identifier policy is codegen's.
    diags.extend(vgc_codegen::ident::name_collisions(db, &plan));
    // Two packages declaring one group/version/kind: dispatch reaches only the first (R40).
    diags.extend(vgc_codegen::ident::kind_collisions(db, &plan));
    // The k8s-openapi target: every type and field the validators need must exist in the chosen version (R45).
    if let Some(vgc_codegen::Target::K8sOpenapi(v)) = req.target {
        diags.extend(vgc_codegen::ident::k8s_openapi_coverage(db, &plan, v));
    }
    diags.extend(linted);
    // Diagnostics from read-only packages' lowering are kept: their tags apply too. Queries report by span id;
    // byte ranges are looked up here, once.
    vgc_ir::db::resolve_spans(db, &mut diags);
    requalify(&req.tag_prefix, &mut diags);
    sort_diagnostics(&mut diags);
    out.diagnostics = diags;
    out.stats = plan.stats;
    let wanted: std::collections::BTreeSet<String> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.file.clone())
        .collect();
    add_sources(db, &prog, out, |path| wanted.contains(path));
    out.package_files = prog
        .packages
        .values()
        .map(|p| {
            (
                p.path.clone(),
                p.files.iter().map(|f| f.path(db).clone()).collect(),
            )
        })
        .collect();
    // Files a diagnostic points into that are not part of the program (a file with another package clause).
    for path in wanted {
        if !out.sources.contains_key(&path)
            && let Ok(text) = sys.read_file(&path)
        {
            out.sources.insert(path, text);
        }
    }
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

/// Names tags in `diags`' texts (message, hint, fix) as written under `prefix` ([`vgc_ir::TagPrefix::requalify`]:
/// `k8s:required` → `acme:required`), as upstream builds its messages from the prefix. Applied exactly once to each
/// diagnostic; the identity for the default prefix.
fn requalify(prefix: &vgc_ir::TagPrefix, diags: &mut [Diagnostic]) {
    if prefix.is_default() {
        return;
    }
    for d in diags {
        d.message = prefix.requalify(&d.message);
        if let Some(h) = &mut d.hint {
            *h = prefix.requalify(h);
        }
        if let Some(f) = &mut d.fix {
            f.replacement = prefix.requalify(&f.replacement);
        }
    }
}

fn sort_diagnostics(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| (&a.file, a.span.start, a.code).cmp(&(&b.file, b.span.start, b.code)));
    diags.dedup();
}

/// `vgc lint`: every diagnostic of `vgc check` plus the lint rules (`vgc_analysis::lint`), with `settings`'
/// severities and the `vgc:ignore` suppressions applied, sorted by file and position. Nothing is written.
#[must_use]
pub fn lint(req: &BuildRequest, settings: &LintSettings) -> BuildOutcome {
    let mut db = Database::default();
    let mut out = BuildOutcome::default();
    let Some((prog, plan)) = analyze(
        &mut db,
        &OsSystem,
        &mut Loader::default(),
        req,
        &mut out,
        &mut IrSave::default(),
    ) else {
        return out;
    };
    // Suppressions (`vgc:ignore`) and fixes read any file.
    add_sources(&db, &prog, &mut out, |_| true);
    // `analyze` already ran upstream's rules (VGC0301–0303); add vgc's.
    let mut diags = vgc_analysis::lint::vgc_rules(&db, &prog);
    let drift = vgc_lowering::drift::drift(&db, &prog, &plan, &settings.exceptions);
    diags.extend(drift.diagnostics);
    out.drift = drift.groups;
    out.plan = plan;
    requalify(&req.tag_prefix, &mut diags);
    diags.append(&mut out.diagnostics);
    let mut diags: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| !settings.upstream_only || !d.code.is_lint() || d.code.is_upstream_lint())
        .filter_map(|mut d| match settings.severities.get(&d.code) {
            Some(None) => None,
            Some(Some(s)) => {
                d.severity = *s;
                Some(d)
            }
            None => Some(d),
        })
        .collect();
    vgc_ir::db::resolve_spans(&db, &mut diags);
    diags = vgc_analysis::lint::apply_suppressions(diags, &out.sources);
    sort_diagnostics(&mut diags);
    out.diagnostics = diags;
    out
}

/// The `vgc.toml` in `path` or its parents up to the Go module root, read through `sys` and parsed; `None` when
/// there is none.
fn build_config(
    sys: &dyn vgc_analysis::System,
    path: &str,
) -> Option<Result<crate::config::Config, String>> {
    let mut dir = path.trim_end_matches('/').to_string();
    loop {
        let candidate = format!("{dir}/vgc.toml");
        if let Ok(text) = sys.read_file(&candidate) {
            return Some(crate::config::parse(
                &text,
                std::path::Path::new(&candidate),
            ));
        }
        if sys.read_file(&format!("{dir}/go.mod")).is_ok() {
            return None;
        }
        match dir.rfind('/') {
            Some(i) if i > 0 => dir.truncate(i),
            _ => return None,
        }
    }
}

/// `[build.severity]` of the `vgc.toml` in `path` or its parents up to the Go module root (read through `sys`, so
/// the build manifest observes it): each listed code's diagnostics get that severity. A `vgc.toml` that does not
/// parse is an error diagnostic.
fn apply_build_severities(sys: &dyn vgc_analysis::System, path: &str, diags: &mut Vec<Diagnostic>) {
    let Some(cfg) = build_config(sys, path) else {
        return;
    };
    match cfg {
        Ok(cfg) => {
            for d in diags.iter_mut() {
                if let Some(s) = cfg.build_severities.get(&d.code) {
                    d.severity = *s;
                }
            }
        }
        Err(e) => diags.push(
            Diagnostic::error(vgc_ir::Code::Io, e)
                .with_hint("see `docs/diagnostics.md` and the `vgc.toml` keys in the README"),
        ),
    }
}

/// Runs the pipeline once in a fresh [`Session`]. Outputs are written only when there is no error diagnostic,
/// each file atomically and only when its bytes change.
///
/// With an output directory and without `no_cache`, the build manifest ([`crate::cache::manifest`]) is consulted
/// first: when every input the previous clean build observed and every output it wrote are unchanged, nothing
/// is loaded and the outcome says [`BuildOutcome::up_to_date`] (with the previous summary counts). A clean build
/// writes the manifest; a build with diagnostics removes it.
#[must_use]
pub fn build(req: &BuildRequest) -> BuildOutcome {
    use crate::cache::manifest::{Manifest, Recorder};
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
    let key = format!("{} {}", request_key(req), formatter(req));
    // `--custom-stub` writes `src/custom.rs` only when it is missing, so the manifest does not track it: a crate
    // whose root declares `pub mod custom;` but lacks the file (deleted since) is not up to date.
    let stub_missing = req.custom_stub
        && !dir.join("src/custom.rs").exists()
        && std::fs::read_to_string(dir.join("src/lib.rs"))
            .is_ok_and(|lib| lib.lines().any(|l| l.trim() == "pub mod custom;"));
    if !stub_missing
        && let Some(m) = Manifest::load(&cache, &mut notes)
        && m.up_to_date(&key, &OsSystem, dir)
    {
        return BuildOutcome {
            stats: m.stats,
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
    let rec = Recorder::new(&OsSystem).with_output(dir);
    let mut session = Session {
        one_shot: true,
        ..Session::default()
    };
    let clock = std::time::Instant::now();
    let ir = std::sync::Arc::new(crate::cache::ir::load(&cache, &mut notes));
    if !ir.is_empty() {
        vgc_ir::db::IrCache::new(&session.db, ir.clone());
    }
    let ir_load = clock.elapsed();
    session.ir_cache.wanted = Some((cache.clone(), ir));
    let mut out = session.build_with(req, &rec);
    let clock = std::time::Instant::now();
    // Started at the end of the load (if anything was loaded).
    session.ir_cache.finish();
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
        Manifest::record(key, &rec, &out.files, out.stats).save(&cache);
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
    let ir = std::sync::Arc::new(crate::cache::ir::load(cache, &mut notes));
    if !ir.is_empty() {
        vgc_ir::db::IrCache::new(&session.db, ir.clone());
    }
    let ir_load = clock.elapsed();
    let mut session = session;
    let mut out = session.build_with(req, sys);
    let clock = std::time::Instant::now();
    if out.stats.packages > 0 && out.errors() == 0 && std::fs::create_dir_all(cache).is_ok() {
        let prog = vgc_analysis::loaded_program(&session.db);
        crate::cache::ir::save(cache, &session.db, prog, &ir);
    }
    out.notes.splice(0..0, notes);
    out.timings.insert(0, ("load IR cache", ir_load));
    out.timings.push(("save IR cache", clock.elapsed()));
    // As in `build`: freeing the database is left to a thread of its own.
    std::thread::spawn(move || drop(session));
    out
}

/// The build manifest's request key ([`crate::cache::manifest`]): everything besides the observed files that decides a build's output.
#[must_use]
pub fn request_key(req: &BuildRequest) -> String {
    let mut h = blake3::Hasher::new();
    let abs = std::path::absolute(&req.path).unwrap_or_else(|_| req.path.clone().into());
    for part in [
        crate::cache::tool_fingerprint(),
        abs.display().to_string(),
        req.crate_name.clone(),
        format!("{:?}", req.runtime),
        req.extra_roots.join("\u{1f}"),
        req.custom_stub.to_string(),
        format!("{:?}", req.upstream.as_ref().map(|s| s.version)),
        // The files' contents are observed reads; which files were named is part of the request.
        req.extension_files.join("\u{1f}"),
        format!("tag-prefix={:?}", req.tag_prefix.as_str()),
        // The structs the validators run on: output for one target is never up to date for another.
        format!("target={:?}", req.target),
    ] {
        h.update(part.as_bytes());
        h.update(b"\x1e");
    }
    for var in ["GOMODCACHE", "GOPATH", "HOME", "GOFLAGS"] {
        h.update(std::env::var(var).unwrap_or_default().as_bytes());
        h.update(b"\x1e");
    }
    h.finalize().to_hex().to_string()
}

/// Checks the output directory of a writing build and takes its lock ([`crate::output::OutputLock`]), then
/// cleans up after an interrupted earlier build ([`crate::output::recover`]). `Ok(None)` for a build that
/// writes nothing. The error outcome carries the reason (an empty `--out`, a file where the directory should
/// be, a lock that cannot be taken) and exits 2.
fn lock_output(
    req: &BuildRequest,
    notes: &mut Vec<String>,
) -> Result<Option<crate::output::OutputLock>, Box<BuildOutcome>> {
    let Some(dir) = req.out.as_deref().filter(|_| !req.check_only) else {
        return Ok(None);
    };
    // Outside any Go module nothing can be built (the load reports VGC0002): create nothing, not even `.vgc/`.
    let input = std::path::absolute(&req.path).unwrap_or_else(|_| req.path.clone().into());
    if !input.ancestors().any(|a| a.join("go.mod").is_file()) {
        return Ok(None);
    }
    let fail = |e: String| {
        Box::new(BuildOutcome {
            io_error: Some(e),
            ..BuildOutcome::default()
        })
    };
    if dir.as_os_str().is_empty() {
        return Err(fail(
            "the output directory is empty (`--out ''`); name a directory".into(),
        ));
    }
    validate_options(req).map_err(fail)?;
    if dir.exists() && !dir.is_dir() {
        return Err(fail(format!(
            "{}: the output path exists and is not a directory",
            dir.display()
        )));
    }
    // A crate vgc did not generate is refused before anything (even `.vgc/`) is created in it.
    crate::output::may_write(&dir.join("Cargo.toml"), req.force).map_err(fail)?;
    let lock = crate::output::OutputLock::acquire(dir).map_err(|e| {
        fail(format!(
            "{}: cannot lock the output directory: {e}",
            dir.join(crate::output::STATE_DIR).join("lock").display()
        ))
    })?;
    if lock.waited {
        notes.push(format!(
            "{}: waited for another vgc build of this directory to finish",
            dir.display()
        ));
    }
    notes.extend(crate::output::recover(dir));
    Ok(Some(lock))
}

/// Refuses option values that would give an unusable `Cargo.toml` (R28): a crate name cargo does not accept
/// (empty, not ASCII letters, digits, `-` and `_`, or starting with a digit), an empty runtime path, a runtime
/// version that is not a version requirement (`1`, `0.1.2`, `^0.1`, `>=0.1, <0.3`).
///
/// # Errors
/// A message naming the option and the rule.
pub fn validate_options(req: &BuildRequest) -> Result<(), String> {
    let name = &req.crate_name;
    if name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "--crate-name {name:?}: a crate name is ASCII letters, digits, `-` and `_`, not starting with a digit"
        ));
    }
    match &req.runtime {
        RuntimeDep::Path(p) if p.trim().is_empty() => {
            Err("--runtime-path is empty; name the vgc-runtime crate's directory".into())
        }
        RuntimeDep::Version(v) if !v.split(',').all(version_req_part) => Err(format!(
            "--runtime-version {v:?} is not a version requirement (for example `0.1` or `^0.1.2`)"
        )),
        _ => Ok(()),
    }
}

/// One comparator of a cargo version requirement: an optional operator, then `MAJOR[.MINOR[.PATCH]]` (`*` allowed
/// after the major), with an optional `-pre`/`+build` suffix.
fn version_req_part(part: &str) -> bool {
    let p = part
        .trim()
        .trim_start_matches(['^', '~', '=', '<', '>'])
        .trim();
    let (core, suffix) = match p.find(['-', '+']) {
        Some(i) => (&p[..i], Some(&p[i + 1..])),
        None => (p, None),
    };
    let nums: Vec<&str> = core.split('.').collect();
    !core.is_empty()
        && nums.len() <= 3
        && nums.iter().enumerate().all(|(i, n)| {
            (*n == "*" && i > 0) || (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        && suffix.is_none_or(|s| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
        })
}

/// What loading keeps between the builds of a [`Session`].
#[derive(Default)]
struct Loader {
    /// Size and modification time of every input file when last read.
    stamps: vgc_analysis::program::Stamps,
    /// The discovery diagnostics of the last full load (`None` before one succeeded).
    discovery: Option<Vec<Diagnostic>>,
    /// The only paths the next build's change touched, if known ([`Session::build_after`]).
    edits: Option<Vec<String>>,
}

/// A live build: one salsa database kept across builds (`vgc watch`), so a rebuild re-runs only the queries whose
/// inputs changed — parsing of edited files, whole-crate lowering when some IR changed, and code generation of
/// the modules whose plan changed — and a formatting memo so unchanged modules are not formatted again.
#[derive(Default)]
pub struct Session {
    db: Database,
    /// Formatted units of the last build (see [`crate::format`]).
    units: crate::format::UnitMemo,
    /// The `.rs` files the last build generated.
    outputs: std::collections::BTreeSet<String>,
    /// The last build's formatted modules with their generation keys: a rebuild reuses those whose key is
    /// unchanged, including modules the first build took from the disk cache and never generated.
    last: std::collections::HashMap<String, (String, GeneratedFile)>,
    /// The formatting cache as the last build left it (`None` before the first build or with `--no-cache`).
    cache: Option<FmtCache>,
    /// File stamps, the last full load's discovery diagnostics, and the edits of the next build.
    loader: Loader,
    /// Where [`build`] wants the IR cache saved and what it loaded from there; the save runs on a thread of its
    /// own from the end of the load on.
    ir_cache: IrSave,
    /// The session of one [`build`], dropped after it: the last build's modules are not kept for a next one.
    one_shot: bool,
}

/// The IR cache save of one [`build`] ([`crate::cache::ir`]): asked for before the build, started on a thread of
/// its own as soon as the program is loaded (encoding and writing it overlaps checking, lowering and code
/// generation), waited for at the end.
#[derive(Default)]
struct IrSave {
    /// The cache directory and what was loaded from it, until the save starts.
    wanted: Option<(
        std::path::PathBuf,
        std::sync::Arc<crate::cache::ir::Entries>,
    )>,
    /// The running save.
    running: Option<std::thread::JoinHandle<()>>,
}

impl IrSave {
    /// Starts the save asked for, if any, with the IR of every file of `prog` (none when nothing was loaded).
    fn start(&mut self, db: &Database, prog: &vgc_analysis::Program) {
        if let Some((dir, loaded)) = self.wanted.take()
            && !prog.packages.is_empty()
        {
            let snapshot = crate::cache::ir::Snapshot::of(db, prog);
            self.running = Some(std::thread::spawn(move || snapshot.save(&dir, &loaded)));
        }
    }

    /// Waits for the running save (a save that panicked costs the next build some parsing, nothing else).
    fn finish(&mut self) {
        if let Some(h) = self.running.take() {
            let _ = h.join();
        }
    }
}

impl Session {
    /// A session over `db` (e.g. [`Database::logging`]).
    #[must_use]
    pub fn with_database(db: Database) -> Self {
        Self {
            db,
            units: Default::default(),
            outputs: Default::default(),
            last: Default::default(),
            cache: None,
            loader: Loader::default(),
            ir_cache: IrSave::default(),
            one_shot: false,
        }
    }

    /// The session's database.
    #[must_use]
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// Runs the pipeline against the current state of the files (see [`build`]; the build manifest is not used:
    /// the live database already knows what changed).
    #[must_use]
    pub fn build(&mut self, req: &BuildRequest) -> BuildOutcome {
        let mut notes = Vec::new();
        let _lock = match lock_output(req, &mut notes) {
            Ok(l) => l,
            Err(out) => return *out,
        };
        let mut out = self.build_with(req, &OsSystem);
        out.notes.splice(0..0, notes);
        out
    }

    /// [`Session::build`] after a change known to touch only `paths`: when they are all files the session
    /// already knows and none changed its package clause or the imports its types refer to, discovery is skipped
    /// (no directory walk, no other file read); otherwise this is a full [`Session::build`]. Same results either
    /// way.
    #[must_use]
    pub fn build_after(&mut self, req: &BuildRequest, paths: &[String]) -> BuildOutcome {
        let mut notes = Vec::new();
        let _lock = match lock_output(req, &mut notes) {
            Ok(l) => l,
            Err(out) => return *out,
        };
        self.loader.edits = Some(paths.to_vec());
        let mut out = self.build_with(req, &OsSystem);
        self.loader.edits = None;
        out.notes.splice(0..0, notes);
        out
    }

    /// [`Session::build`] reading the file system through `sys` instead of the real one (the fuzz targets and
    /// tests run the pipeline on a [`vgc_analysis::MemorySystem`] this way). No output lock is taken: give it a
    /// check-only request, or one whose output directory nothing else writes.
    #[must_use]
    pub fn build_with(
        &mut self,
        req: &BuildRequest,
        sys: &dyn vgc_analysis::System,
    ) -> BuildOutcome {
        let mut out = BuildOutcome::default();
        // `--target`, else `vgc.toml` `[build] target` (a `vgc.toml` that does not parse is reported by
        // `apply_build_severities`), else vgc's own structs.
        let resolved;
        let req = if req.target.is_none() {
            let target = build_config(sys, &req.path)
                .and_then(Result::ok)
                .and_then(|c| c.target)
                .unwrap_or_default();
            resolved = BuildRequest {
                target: Some(target),
                ..req.clone()
            };
            &resolved
        } else {
            req
        };
        let Some(plan) = analyze(
            &mut self.db,
            sys,
            &mut self.loader,
            req,
            &mut out,
            &mut self.ir_cache,
        )
        .map(|(_, plan)| plan) else {
            return out;
        };
        apply_build_severities(sys, &req.path, &mut out.diagnostics);
        if out.errors() > 0 || req.check_only {
            out.plan = plan;
            return out;
        }
        let opts = Options {
            crate_name: req.crate_name.clone(),
            runtime: req.runtime.clone(),
            target: req.target.unwrap_or_default(),
        };
        if opts.target != vgc_codegen::Target::Own {
            return build_uncached(req, plan, &opts, out);
        }
        let mut clock = std::time::Instant::now();
        let stale;
        let pending_saves;
        // A warm session (watch) keeps the formatting cache in memory and needs no disk reuse: the database
        // memoises generated modules and `units` the formatted ones.
        let warm = self.cache.is_some();
        let mut cache = match self.cache.take() {
            Some(c) if !req.no_cache => Some(c),
            _ => req
                .cache_root()
                .map(|c| FmtCache::load(&c, req.rustfmt, &mut out.notes)),
        };
        // Modules whose generation key matches the cache and whose file is untouched (or, warm, whose key matches
        // the last build's) are neither generated nor formatted.
        let keys = vgc_codegen::module_keys(
            &self.db,
            &format!("{} {}", crate::cache::tool_fingerprint(), formatter(req)),
        );
        let reused = match (&cache, req.out.as_deref()) {
            _ if warm => keys
                .iter()
                .filter_map(|(path, key)| {
                    self.last
                        .get(path)
                        .filter(|(k, _)| k == key)
                        .map(|(_, f)| f.clone())
                })
                .collect(),
            (Some(c), Some(dir)) => c.reuse(dir, &keys),
            _ => Vec::new(),
        };
        let reused_paths: std::collections::HashSet<String> =
            reused.iter().map(|f| f.path.clone()).collect();
        let regenerate: Vec<String> = keys
            .iter()
            .map(|(p, _)| p.clone())
            .filter(|p| !reused_paths.contains(p))
            .collect();
        let unit_dir = req.cache_root();
        // Modules generated again take the items of their unchanged types from the unit cache (a warm session
        // has them memoised already).
        let mut loaded_units = std::sync::Arc::new(crate::cache::units::Entries::new());
        if let (Some(dir), false) = (&unit_dir, warm) {
            use salsa::Setter as _;
            loaded_units =
                std::sync::Arc::new(crate::cache::units::load(dir, &regenerate, &mut out.notes));
            match vgc_codegen::UnitCache::try_get(&self.db) {
                Some(c) => {
                    c.set_entries(&mut self.db).to(loaded_units.clone());
                }
                None => {
                    vgc_codegen::UnitCache::new(&self.db, loaded_units.clone());
                }
            }
        }
        let keys: std::collections::HashMap<String, String> = keys.into_iter().collect();
        match vgc_codegen::generate_incremental(&self.db, &opts, &reused_paths) {
            Ok(mut files) => {
                files.extend(reused);
                files.sort_by(|a, b| a.path.cmp(&b.path));
                out.timings.push(("codegen", clock.elapsed()));
                clock = std::time::Instant::now();
                // What the previous build generated, to remove modules of packages that disappeared.
                let mut previous = std::mem::take(&mut self.outputs);
                if let Some(c) = &cache {
                    previous.extend(c.paths().cloned());
                }
                (out.fmt_cache_hits, out.fmt_fallbacks) = format_all(
                    req.rustfmt,
                    &mut files,
                    cache.as_mut(),
                    req.out.as_deref(),
                    &mut self.units,
                    &keys,
                    &reused_paths,
                    !warm,
                );
                self.outputs = files
                    .iter()
                    .filter(|f| f.path.ends_with(".rs"))
                    .map(|f| f.path.clone())
                    .collect();
                self.last.retain(|path, _| keys.contains_key(path));
                // Kept for the next build of a live session (a one-shot build has none: no copy).
                let keep_last = !self.one_shot;
                for f in files.iter().filter(|_| keep_last) {
                    if let Some(key) = keys.get(&f.path)
                        && self.last.get(&f.path).is_none_or(|(k, _)| k != key)
                    {
                        self.last.insert(f.path.clone(), (key.clone(), f.clone()));
                    }
                }
                pending_saves = (cache, regenerate, loaded_units, keys);
                for f in &files {
                    previous.remove(&f.path);
                }
                stale = previous;
                out.files = files;
                out.timings.push(("format", clock.elapsed()));
                clock = std::time::Instant::now();
            }
            Err(e) => {
                out.io_error = Some(unparsable(&e));
                out.plan = plan;
                return out;
            }
        }
        out.files.extend(custom_stub(req, &plan, &opts));
        // The output is written on a thread of its own while this one saves the caches (they read the database);
        // neither waits for the other. A cache is a pure function of the inputs, so one saved beside an output
        // that then fails to write is still right.
        let (cache, regenerate, loaded_units, keys) = pending_saves;
        let files = &out.files;
        let (written, unit_hits) = std::thread::scope(|s| {
            let writer = req
                .out
                .as_deref()
                .map(|dir| s.spawn(move || write_output(dir, files, &stale, req.force)));
            if let (Some(c), Some(root)) = (&cache, req.cache_root()) {
                c.save(&root);
            }
            let mut unit_hits = 0;
            if let Some(dir) = &unit_dir {
                let all = keys.keys().map(String::as_str).collect();
                unit_hits =
                    crate::cache::units::save(dir, &self.db, &regenerate, &all, &loaded_units);
            }
            self.ir_cache.finish();
            let written = writer.map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("internal error: the output writer panicked".into()))
            });
            (written, unit_hits)
        });
        self.cache = cache;
        out.unit_cache_hits = unit_hits;
        match written {
            Some(Ok((written, removed))) => {
                out.written = written;
                out.removed = removed;
            }
            Some(Err(e)) => out.io_error = Some(e),
            None => {}
        }
        if req.out.is_some() {
            out.timings.push(("write and save caches", clock.elapsed()));
        }
        out.plan = plan;
        out
    }
}

/// Code generation without the incremental queries and caches (the k8s-openapi target): the whole crate from
/// `plan` ([`vgc_codegen::generate`]), formatted with rustfmt when asked, written as one transaction.
fn build_uncached(
    req: &BuildRequest,
    plan: vgc_lowering::CratePlan,
    opts: &Options,
    mut out: BuildOutcome,
) -> BuildOutcome {
    let clock = std::time::Instant::now();
    match vgc_codegen::generate(&plan, opts) {
        Ok(mut files) => {
            if req.rustfmt {
                for f in files.iter_mut().filter(|f| f.path.ends_with(".rs")) {
                    rustfmt_in_place(f);
                }
            }
            out.files = files;
        }
        Err(e) => {
            out.io_error = Some(unparsable(&e));
            out.plan = plan;
            return out;
        }
    }
    out.files.extend(custom_stub(req, &plan, opts));
    out.timings.push(("codegen", clock.elapsed()));
    if let Some(dir) = req.out.as_deref() {
        match write_output(
            dir,
            &out.files,
            &std::collections::BTreeSet::new(),
            req.force,
        ) {
            Ok((written, removed)) => {
                out.written = written;
                out.removed = removed;
            }
            Err(e) => out.io_error = Some(e),
        }
    }
    out.plan = plan;
    out
}

/// The outcome's error when generated code fails to parse (a bug in vgc's emitter, never in the input).
fn unparsable(e: &vgc_codegen::CodegenError) -> String {
    format!(
        "internal error: generated code for {} does not parse: {}",
        e.module, e.message
    )
}

/// Replaces `f`'s contents by rustfmt's output when rustfmt runs and what it prints still parses; otherwise
/// leaves them as generated (prettyplease).
fn rustfmt_in_place(f: &mut GeneratedFile) {
    if let Some(formatted) = rustfmt(&f.contents)
        && syn::parse_file(&formatted).is_ok()
    {
        f.contents = formatted;
    }
}

/// `src/custom.rs`, the stub of the `+k8s:customValidation` functions, when `--custom-stub` asks for it and the
/// output has none yet (an existing one is the user's and is never replaced); formatted like the other files.
fn custom_stub(
    req: &BuildRequest,
    plan: &vgc_lowering::CratePlan,
    opts: &Options,
) -> Option<GeneratedFile> {
    let dir = req.out.as_ref()?;
    if !req.custom_stub || dir.join("src/custom.rs").exists() {
        return None;
    }
    let mut stub = vgc_codegen::custom_stub(plan, opts)?;
    if req.rustfmt {
        rustfmt_in_place(&mut stub);
    }
    Some(stub)
}

/// Writes the generated `files` into `dir` as one transaction ([`crate::output::commit`]), with the files of
/// `stale` (paths relative to `dir` that the previous build generated and this one does not) removed if they are
/// vgc's. Files whose bytes are unchanged are not touched. Every target is checked first
/// ([`crate::output::may_write`]): one file in the way that vgc did not generate fails the whole write, and
/// nothing is written. Returns (files written, stale files removed).
fn write_output(
    dir: &std::path::Path,
    files: &[GeneratedFile],
    stale: &std::collections::BTreeSet<String>,
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
    let outputs: std::collections::HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut stale = stale.clone();
    stale.extend(
        rust_files_under(dir, "src")
            .into_iter()
            .filter(|rel| !outputs.contains(rel.as_str())),
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
fn rust_files_under(dir: &std::path::Path, sub: &str) -> Vec<String> {
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

/// The formatter a request's output comes from, as part of every cache key (output formatted one way is never
/// reused for the other).
fn formatter(req: &BuildRequest) -> &'static str {
    if req.rustfmt {
        "rustfmt"
    } else {
        "prettyplease"
    }
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
