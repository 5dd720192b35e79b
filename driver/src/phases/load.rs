//! The `load` phase: the module tree read through a [`System`] into the database's inputs (discovery, or only the
//! edited files of a live session), and the tag-line counts of the loaded target packages.

use crate::database::Database;
use crate::request::{BuildOutcome, BuildRequest};
use std::collections::BTreeMap;
use vgc_analysis::{Program, System};
use vgc_ir::Diagnostic;

/// What loading keeps between the builds of a [`Session`](crate::Session).
#[derive(Default)]
pub(crate) struct Loader {
    /// Size and modification time of every input file when last read.
    stamps: vgc_analysis::program::Stamps,
    /// The discovery diagnostics of the last full load (`None` before one succeeded).
    discovery: Option<Vec<Diagnostic>>,
    /// The only paths the next build's change touched, if known ([`Session::build_after`](crate::Session::build_after)).
    pub(crate) edits: Option<Vec<String>>,
}

/// Loads the program of `req.path` into `db` through `sys`, reusing every unchanged input of an earlier load.
/// When `loader` knows the only paths a change touched and they are all files of the last load whose package
/// clause and imports did not change, only those files are read; otherwise the tree is discovered again.
///
/// Creates the `Settings` singleton first (with defaults; the [`settings`](super::settings::settings) phase sets
/// it): salsa does not track a `try_get` that found no singleton, so a query run before it existed would keep a
/// stale profile.
///
/// Returns the program and the discovery diagnostics.
///
/// # Errors
/// The diagnostics of a tree that cannot be loaded at all (no Go module, an unreadable path).
pub(crate) fn load(
    db: &mut Database,
    sys: &dyn System,
    loader: &mut Loader,
    req: &BuildRequest,
) -> Result<(Program, Vec<Diagnostic>), Vec<Diagnostic>> {
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
    match fast {
        Some(x) => Ok(x),
        None => {
            match vgc_analysis::load_selected(db, sys, &req.path, &req.packages, &mut loader.stamps)
            {
                Ok(x) => {
                    loader.discovery = Some(x.1.clone());
                    Ok(x)
                }
                Err(d) => {
                    loader.discovery = None;
                    Err(d)
                }
            }
        }
    }
}

/// Counts the `+k8s:` tag lines of the target packages and those that fail to parse into `out` (read from each
/// file's IR under the settings in force). Under another tag prefix, also adds one note naming the packages
/// outside the build whose `+k8s:` validation tags are not read, as upstream reads none of them (their lines are
/// not reported one by one: they are not the user's to change).
pub(crate) fn count_tags(
    db: &Database,
    prog: &Program,
    req: &BuildRequest,
    out: &mut BuildOutcome,
) {
    for p in prog.packages.values().filter(|p| p.target) {
        for f in &p.files {
            let ir = vgc_ir::db::file_ir(db, *f);
            out.tag_lines += ir.package_tags.len();
            out.tag_syntax_errors += ir.package_tags.iter().filter(|u| u.parsed.is_err()).count();
        }
    }
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
}
