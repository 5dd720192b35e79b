//! `vgc lint`: the [`analyze`](crate::analyze) phases plus vgc's own lint rules and the cross-version drift
//! check, with the lint settings of `vgc.toml` and the command line applied.

use crate::analyze::{add_sources, analyze};
use crate::cache::ir::BackgroundSave;
use crate::config::LintSettings;
use crate::database::Database;
use crate::phases::check::{requalify, sort_diagnostics};
use crate::phases::load::Loader;
use crate::request::{BuildOutcome, BuildRequest};
use crate::sys::OsSystem;
use vgc_ir::Diagnostic;

/// `vgc lint`: every diagnostic of `vgc check` plus the lint rules (`vgc_analysis::lint`) and the drift between
/// the versions of each API group (`vgc_lowering::drift`, with `settings.exceptions`), with `settings`'
/// severities (a code set to `None` is dropped; `upstream_only` keeps only upstream's rules of the lint codes)
/// and the `vgc:ignore` suppressions applied, sorted by file and position. Reads the real file system, writes
/// nothing. The outcome's `sources` hold every file of the program (suppressions and fixes read any), `drift` the
/// per-group summary; an outcome with no packages and a `VGC0002` (io) diagnostic means nothing could be loaded
/// ([`crate::exit_code`] 2).
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
        &mut BackgroundSave::default(),
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
