//! The front half of every build, `vgc check` and `vgc lint`: the [`load`](crate::phases::load),
//! [`settings`](crate::phases::settings), [`check`](crate::phases::check) and [`lower`](crate::phases::lower)
//! phases, with the diagnostics of all of them in their final form and the sources they point into.

use crate::cache::ir::BackgroundSave;
use crate::database::Database;
use crate::phases::check::{self, Checked};
use crate::phases::load::{self, Loader};
use crate::phases::{lower, settings};
use crate::request::{BuildOutcome, BuildRequest};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use vgc_analysis::{Program, System};
use vgc_lowering::CratePlan;

/// Loads the program into `db` (reusing every unchanged input of an earlier load), sets the build's settings,
/// checks every tag and lowers it: fills `out` (profile, tag prefix, tag-line counts, sorted diagnostics, the
/// sources of the files they point into, the loaded packages' files, stats, the `load`/`lower`/`check`/`lint`
/// timings) and starts the IR cache save `ir_save` asked for once every file's IR is final.
///
/// Returns the program and the plan, or `None` when nothing could be loaded (`out.diagnostics` says why).
pub(crate) fn analyze(
    db: &mut Database,
    sys: &dyn System,
    loader: &mut Loader,
    req: &BuildRequest,
    out: &mut BuildOutcome,
    ir_save: &mut BackgroundSave,
) -> Option<(Program, CratePlan)> {
    let clock = Instant::now();
    let (prog, mut diags) = match load::load(db, sys, loader, req) {
        Ok(x) => x,
        Err(d) => {
            out.diagnostics = d;
            return None;
        }
    };
    out.profile = Some(settings::settings(db, sys, req, &prog, &mut diags));
    out.tag_prefix = req.tag_prefix.clone();
    let db = &*db;
    // Every file's IR is final now (under the settings just set): the IR cache can be written.
    ir_save.start(db, &prog);
    load::count_tags(db, &prog, req, out);
    out.timings.push(("load", clock.elapsed()));
    let (checked, plan, lower_time) = check_beside_lower(db, &prog, &req.extra_roots);
    out.timings.push(("lower", lower_time));
    out.timings
        .push(("check (beside lower)", checked.tags_time));
    out.timings.push(("lint (beside lower)", checked.lint_time));
    // Every phase's diagnostics in one list, in the order the phases report them (the sort below keeps that order
    // among equal keys). Diagnostics from read-only packages' lowering are kept: their tags apply too.
    diags.extend(checked.tags);
    diags.extend(plan.diagnostics.iter().cloned());
    diags.extend(check::check_plan(
        db,
        &prog,
        &plan,
        req.target,
        req.go.is_some(),
    ));
    diags.extend(checked.lint);
    check::finish(db, &req.tag_prefix, &mut diags);
    out.diagnostics = diags;
    out.stats = plan.stats;
    attach_sources(db, sys, &prog, out);
    Some((prog, plan))
}

/// Runs the [`check`](check::check) phase on a thread of its own (a second database handle) beside the
/// [`lower`](lower::lower) phase on this one: checking needs no lowering. Returns what each found, and how long
/// lowering took.
fn check_beside_lower(
    db: &Database,
    prog: &Program,
    extra_roots: &[String],
) -> (Checked, CratePlan, Duration) {
    let side_db = db.clone();
    std::thread::scope(|s| {
        let side = s.spawn(move || check::check(&side_db, prog, extra_roots));
        let (plan, lower_time) = lower::lower(db);
        let checked = side
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (checked, plan, lower_time)
    })
}

/// Fills `out.sources` with the text of every file a diagnostic points into (read through `sys` when it is not
/// part of the program: a file with another package clause), and `out.package_files` with the Go files of every
/// loaded package by import path.
fn attach_sources(db: &Database, sys: &dyn System, prog: &Program, out: &mut BuildOutcome) {
    let wanted: BTreeSet<String> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.file.clone())
        .collect();
    add_sources(db, prog, out, |path| wanted.contains(path));
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
    for path in wanted {
        if !out.sources.contains_key(&path)
            && let Ok(text) = sys.read_file(&path)
        {
            out.sources.insert(path, text);
        }
    }
}

/// Copies the text of the program's files that `want` selects into `out.sources` (for rendering diagnostics,
/// suppressions and fixes).
pub(crate) fn add_sources(
    db: &dyn vgc_ir::Db,
    prog: &Program,
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
