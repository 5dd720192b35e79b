//! A [`Session`]: one salsa database kept across builds, and the pipeline run over it in named phases —
//! [`load`](crate::phases::load), [`settings`](crate::phases::settings), [`check`](crate::phases::check) beside
//! [`lower`](crate::phases::lower) (together [`analyze`](crate::analyze)), then
//! [`generate`](crate::phases::generate), [`format`](crate::phases::format) and [`write`](crate::phases::write).

use crate::analyze::analyze;
use crate::cache::ir::BackgroundSave;
use crate::database::Database;
use crate::format::{FmtCache, UnitMemo};
use crate::phases::generate::{self, LastModules};
use crate::phases::load::Loader;
use crate::phases::{format, settings, write};
use crate::request::{BuildOutcome, BuildRequest, validate_options};
use crate::sys::OsSystem;
use std::collections::BTreeSet;
use std::time::Instant;
use vgc_codegen::Options;
use vgc_lowering::CratePlan;

/// A live build: one salsa database kept across builds (`vgc watch`), so a rebuild re-runs only the queries whose
/// inputs changed — parsing of edited files, whole-crate lowering when some IR changed, and code generation of
/// the modules whose plan changed — and a formatting memo so unchanged modules are not formatted again.
#[derive(Default)]
pub struct Session {
    db: Database,
    /// Formatted units of the last build (see [`crate::format`]).
    units: UnitMemo,
    /// The `.rs` files the last build generated.
    outputs: BTreeSet<String>,
    /// The last build's formatted modules with their generation keys: a rebuild reuses those whose key is
    /// unchanged, including modules the first build took from the disk cache and never generated.
    last: LastModules,
    /// The formatting cache as the last build left it (`None` before the first build or with `--no-cache`).
    cache: Option<FmtCache>,
    /// File stamps, the last full load's discovery diagnostics, and the edits of the next build.
    loader: Loader,
    /// Where [`build`](crate::build) wants the IR cache saved and what it loaded from there; the save runs on a
    /// thread of its own from the end of the load on.
    ir_cache: BackgroundSave,
    /// The session of one [`build`](crate::build), dropped after it: the last build's modules are not kept for a
    /// next one.
    one_shot: bool,
    /// The Go target's last generation: a rebuild prints again only the packages whose inputs changed (empty in a
    /// one-shot session, which keeps none).
    last_go: crate::phases::go::LastGo,
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
            ir_cache: BackgroundSave::default(),
            one_shot: false,
            last_go: Default::default(),
        }
    }

    /// The session of one build ([`build`](crate::build)), dropped after it: it keeps no modules for a next one.
    pub(crate) fn one_shot() -> Self {
        // No earlier parse to reuse, none kept (`Database::set_parse_memory`).
        let mut db = Database::default();
        db.set_parse_memory(false);
        Self {
            one_shot: true,
            ..Self::with_database(db)
        }
    }

    /// The session's database.
    #[must_use]
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// The IR cache save of this session's next build (see [`BackgroundSave`]).
    pub(crate) fn ir_save(&mut self) -> &mut BackgroundSave {
        &mut self.ir_cache
    }

    /// Runs the pipeline against the current state of the files (see [`build`](crate::build); the build manifest
    /// is not used: the live database already knows what changed). Takes the output directory's lock first
    /// (`lock_output`).
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

    /// [`Session::build_after`] reading through `sys` and taking no output lock (see [`Session::build_with`]):
    /// `vgc lsp` runs its checks so, over a `System` that serves the editor's unsaved buffers. Each of `paths` is
    /// read again whatever its stamp says.
    #[must_use]
    pub fn build_after_with(
        &mut self,
        req: &BuildRequest,
        paths: &[String],
        sys: &dyn vgc_analysis::System,
    ) -> BuildOutcome {
        self.loader.edits = Some(paths.to_vec());
        let out = self.build_with(req, sys);
        self.loader.edits = None;
        out
    }

    /// [`Session::build`] reading the file system through `sys` instead of the real one (the fuzz targets and
    /// tests run the pipeline on a [`vgc_analysis::MemorySystem`] this way). No output lock is taken: give it a
    /// check-only request, or one whose output directory nothing else writes.
    ///
    /// The phases: `analyze` (load, settings, check beside lower), `[build.severity]`, then —
    /// unless there are errors or `req` is check-only — generate, format and write. Code generation for the
    /// k8s-openapi target takes the uncached path (`build_uncached`). The outcome's `timings` name the phases.
    #[must_use]
    pub fn build_with(
        &mut self,
        req: &BuildRequest,
        sys: &dyn vgc_analysis::System,
    ) -> BuildOutcome {
        let mut out = BuildOutcome::default();
        // The Go target's own outputs are not sources (`crate::go::HideGenerated`).
        let hidden;
        let sys = match &req.go {
            Some(go) => {
                hidden = crate::go::HideGenerated::new(sys, &go.output_file).hiding_fixtures(go);
                &hidden as &dyn vgc_analysis::System
            }
            None => sys,
        };
        let resolved = settings::with_default_target(req, sys);
        let req = resolved.as_ref().unwrap_or(req);
        let Some((prog, plan)) = analyze(
            &mut self.db,
            sys,
            &mut self.loader,
            req,
            &mut out,
            &mut self.ir_cache,
        ) else {
            return out;
        };
        settings::apply_build_severities(sys, &req.path, &mut out);
        if let Some(go) = &req.go {
            let last_go = (!self.one_shot).then_some(&mut self.last_go);
            return build_go(&self.db, sys, req, go, &prog, plan, out, last_go);
        }
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
        let clock = Instant::now();
        let mut generation = match generate::generate(
            &mut self.db,
            self.cache.take(),
            &self.last,
            req,
            &opts,
            &mut out.notes,
        ) {
            Ok(g) => g,
            Err(e) => {
                out.io_error = Some(generate::unparsable(&e));
                out.plan = plan;
                return out;
            }
        };
        out.timings.push(("codegen", clock.elapsed()));
        let clock = Instant::now();
        let formatted = format::format(
            &mut generation,
            req,
            &mut self.units,
            &mut self.outputs,
            &mut self.last,
            !self.one_shot,
        );
        (out.fmt_cache_hits, out.fmt_fallbacks) = (formatted.hits, formatted.fallbacks);
        out.files = std::mem::take(&mut generation.files);
        out.timings.push(("format", clock.elapsed()));
        let clock = Instant::now();
        out.files
            .extend(generate::companion_files(req, &plan, &opts));
        let written = write::write(
            &self.db,
            req,
            &out.files,
            &formatted.stale,
            &generation,
            &mut self.ir_cache,
        );
        self.cache = generation.cache;
        out.unit_cache_hits = written.unit_hits;
        out.notes.extend(written.notes);
        match written.output {
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

/// The Go target after the analysis (`crate::phases::go`): the header read through `sys`, every tagged target
/// package printed, then — unless there are errors (the analysis's, or `VGC0129` for what the Go backend cannot
/// print) or `req` is check-only — the files written under `req.out` (the module root) as one transaction.
/// `last_go` is a live session's memo of the last generation (`None`: print every package, keep nothing).
#[allow(clippy::too_many_arguments)]
fn build_go(
    db: &Database,
    sys: &dyn vgc_analysis::System,
    req: &BuildRequest,
    go: &crate::request::GoTarget,
    prog: &vgc_analysis::Program,
    plan: CratePlan,
    mut out: BuildOutcome,
    last_go: Option<&mut crate::phases::go::LastGo>,
) -> BuildOutcome {
    let clock = Instant::now();
    if out.errors() > 0 {
        out.plan = plan;
        return out;
    }
    let header = match &go.header_file {
        Some(path) => match crate::go::header(sys, path) {
            Ok(h) => h,
            Err(e) => {
                out.io_error = Some(e);
                out.plan = plan;
                return out;
            }
        },
        None => String::new(),
    };
    let root = req
        .out
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from(&prog.root));
    let generation =
        match crate::phases::go::generate(db, sys, prog, &plan, go, &header, &root, last_go) {
            Ok(g) => g,
            Err(e) => {
                out.io_error = Some(e);
                out.plan = plan;
                return out;
            }
        };
    out.timings.push(("codegen (Go)", clock.elapsed()));
    out.go_reused = generation.reused;
    if !generation.untagged.is_empty() {
        // Named as the sources spell it (`+acme:validation-gen` under `--tag-prefix acme:`).
        out.notes.push(req.tag_prefix.requalify(&format!(
            "{} target package(s) without a `+k8s:validation-gen` tag get no {} (as upstream validation-gen): {}",
            generation.untagged.len(),
            go.output_file,
            generation.untagged.join(", ")
        )));
    }
    if !generation.diagnostics.is_empty() {
        out.diagnostics.extend(generation.diagnostics);
        crate::phases::check::sort_diagnostics(&mut out.diagnostics);
        let wanted: BTreeSet<String> = out
            .diagnostics
            .iter()
            .filter_map(|d| d.file.clone())
            .filter(|f| !out.sources.contains_key(f))
            .collect();
        crate::analyze::add_sources(db, prog, &mut out, |p| wanted.contains(p));
        out.plan = plan;
        return out;
    }
    out.files = generation.files;
    if req.check_only {
        out.files.clear();
        out.plan = plan;
        return out;
    }
    let clock = Instant::now();
    if let Some(dir) = req.out.as_deref() {
        match crate::phases::go::write(dir, req, &out.files, &generation.stale) {
            Ok((written, removed)) => {
                out.written = written;
                out.removed = removed;
            }
            Err(e) => out.io_error = Some(e),
        }
        out.timings.push(("write", clock.elapsed()));
    }
    out.plan = plan;
    out
}

/// Code generation without the incremental queries and caches (the k8s-openapi target): the whole crate from
/// `plan` ([`generate::generate_whole`]), formatted with rustfmt when asked, written as one transaction.
fn build_uncached(
    req: &BuildRequest,
    plan: CratePlan,
    opts: &Options,
    mut out: BuildOutcome,
) -> BuildOutcome {
    let clock = Instant::now();
    match generate::generate_whole(&plan, opts) {
        Ok(mut files) => {
            if req.rustfmt {
                for f in files.iter_mut().filter(|f| f.path.ends_with(".rs")) {
                    crate::format::rustfmt_in_place(f);
                }
            }
            out.files = files;
        }
        Err(e) => {
            out.io_error = Some(generate::unparsable(&e));
            out.plan = plan;
            return out;
        }
    }
    out.files
        .extend(generate::companion_files(req, &plan, opts));
    out.timings.push(("codegen", clock.elapsed()));
    if let Some(dir) = req.out.as_deref() {
        match write::write_output(dir, &out.files, &BTreeSet::new(), req.force, &mut out.notes) {
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

/// Checks the output directory of a writing build and takes its lock ([`crate::output::OutputLock`]), then
/// cleans up after an interrupted earlier build ([`crate::output::recover`]). `Ok(None)` for a build that
/// writes nothing. The error outcome carries the reason (an empty `--out`, a file where the directory should
/// be, a lock that cannot be taken) and exits 2.
pub(crate) fn lock_output(
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
    // A crate vgc did not generate is refused before anything (even `.vgc/`) is created in it. The Go target
    // writes into the Go module itself, file by file (each checked before the transaction).
    if req.go.is_none() {
        crate::output::may_write(&dir.join("Cargo.toml"), req.force).map_err(fail)?;
    }
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
