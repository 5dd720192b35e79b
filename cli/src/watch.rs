//! `vgc watch`: one live [`Session`] (one salsa database) rebuilt on every debounced batch of file events.
//!
//! Events come from notify through notify-debouncer-full, which merges an editor's write-to-temporary-then-rename
//! ("atomic save") into one event for the saved path and tracks renames. Every rebuild re-runs discovery, so file
//! creation, deletion and renames, and packages appearing or disappearing, need no special handling: discovery
//! reuses the input of every unchanged file, salsa re-runs only the queries whose inputs changed, and only the
//! modules whose plan changed are generated, formatted and written again.

use crate::render;
use notify::event::ModifyKind;
use notify::{EventKind, RecursiveMode};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use vgc_driver::{BuildOutcome, BuildRequest, Session};

/// How `vgc watch` runs.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// What to build after every change (`out` must be set).
    pub request: BuildRequest,
    /// Print diagnostics one per line.
    pub short: bool,
    /// Diagnostics in ANSI colour (`--color`).
    pub color: bool,
    /// Append the wall time of each phase to every status line.
    pub timings: bool,
    /// How long the debouncer waits for a burst of events to end before rebuilding.
    pub debounce: Duration,
    /// Stop after this many rebuilds (benchmarks); `None` runs until interrupted.
    pub max_rebuilds: Option<usize>,
    /// Stop when this flag is set (checked at least every 100 ms; tests).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Whether an event path can change the build: Go sources and `go.mod` files, directories (packages appearing or
/// disappearing), and paths that no longer exist (a removed file or directory). Paths under the output directory
/// (our own writes), hidden files and editor swap files are ignored.
#[must_use]
pub fn relevant(path: &Path, out: Option<&Path>) -> bool {
    if out.is_some_and(|o| path.starts_with(o)) {
        return false;
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with('.') || name.ends_with('~') {
        return false;
    }
    if name.ends_with(".go") || name == "go.mod" {
        return true;
    }
    match std::fs::metadata(path) {
        Ok(m) => m.is_dir(),
        Err(_) => path.extension().is_none(),
    }
}

/// Runs the initial build, then rebuilds after every relevant change until the watcher stops (or after
/// `max_rebuilds` rebuilds), writing diagnostics and one status line per build to `err`:
/// `vgc watch: <trigger>: <E> errors, <W> warnings; wrote <N> changed files[, removed <R> stale files] in <T> ms`.
/// Returns the exit code:
/// 0 when watching ended normally, 2 when the path cannot be watched or the output path cannot be used.
pub fn run(opts: &WatchOptions, err: &mut dyn Write) -> u8 {
    let rustfmt = opts.request.rustfmt;
    if rustfmt {
        vgc_driver::format::resolve_rustfmt();
    }
    let mut session = Session::default();
    let start = Instant::now();
    let outcome = session.build(&opts.request);
    report(err, opts, "initial build", &outcome, start.elapsed());
    // An output path that cannot be used (`--out ''`, a file) fails before anything is read: no edit of the
    // sources can fix it, so watching would only repeat the error.
    if outcome.io_error.is_some() && outcome.stats.packages == 0 {
        return 2;
    }
    if rustfmt {
        vgc_driver::format::prespawn_rustfmt();
    }
    // A `.go` file as the build path: watch its package directory.
    let watched = vgc_driver::target::dir_of(&opts.request.path);
    let root = match std::path::absolute(watched) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", opts.request.path);
            return 2;
        }
    };
    // The Go target writes into the watched tree itself (its output directory is the module root): its own writes
    // are told apart by name instead ([`go_own`]).
    let go = opts.request.go.as_ref();
    let out_dir = opts
        .request
        .out
        .as_ref()
        .filter(|_| go.is_none())
        .and_then(|o| std::path::absolute(o).ok());
    let (tx, rx) = mpsc::channel();
    let mut debouncer = match notify_debouncer_full::new_debouncer(opts.debounce, None, tx) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(err, "error: cannot start the file watcher: {e}");
            return 2;
        }
    };
    if let Err(e) = debouncer.watch(&root, RecursiveMode::Recursive) {
        let _ = writeln!(err, "error: {}: cannot watch: {e}", root.display());
        return 2;
    }
    // `go.mod` may live above a package directory given as the build path.
    if let Some(gomod_dir) = module_root(&root).filter(|d| *d != root) {
        let _ = debouncer.watch(gomod_dir.join("go.mod"), RecursiveMode::NonRecursive);
    }
    // The Go target's header may live outside the watched tree (`hack/boilerplate.go.txt` above a package).
    let header = go.and_then(|g| g.header_file.as_deref()).map(PathBuf::from);
    if let Some(h) = header.as_deref().filter(|h| !h.starts_with(&root)) {
        let _ = debouncer.watch(h, RecursiveMode::NonRecursive);
    }
    // So may its `--test-allowlist` (read by every build, as the header).
    let allowlist = go
        .and_then(|g| g.coverage.as_ref())
        .and_then(|c| c.allowlist.as_deref())
        .map(PathBuf::from);
    if let Some(a) = allowlist.as_deref().filter(|a| !a.starts_with(&root)) {
        let _ = debouncer.watch(a, RecursiveMode::NonRecursive);
    }
    let _ = writeln!(
        err,
        "vgc watch: watching {} (Ctrl-C to stop)",
        root.display()
    );
    let mut rebuilds = 0;
    // The watched directory's identity: when it is deleted and created again (a `git checkout`, a script that
    // regenerates the tree), the old inotify watch is gone; it is re-established and a full rebuild runs (R27).
    // A new directory may reuse the old inode number, so the removal event of the directory itself also marks the
    // watch as lost.
    let mut watched_id = dir_identity(&root);
    let mut lost = false;
    while opts.max_rebuilds.is_none_or(|m| rebuilds < m) {
        let now = dir_identity(&root);
        if now != watched_id || (lost && now.is_some()) {
            watched_id = now;
            if watched_id.is_some() {
                lost = false;
                let _ = debouncer.unwatch(&root);
                if let Err(e) = debouncer.watch(&root, RecursiveMode::Recursive) {
                    let _ = writeln!(err, "warning: {}: cannot watch: {e}", root.display());
                }
                let start = Instant::now();
                let outcome = session.build(&opts.request);
                report(
                    err,
                    opts,
                    &format!("{} (recreated)", root.display()),
                    &outcome,
                    start.elapsed(),
                );
                rebuilds += 1;
                continue;
            }
        }
        let batch = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(b) => b,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if opts
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
                {
                    break;
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if let Ok(events) = &batch
            && events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Remove(_)) && e.paths.contains(&root))
        {
            lost = true;
        }
        let paths: Vec<PathBuf> = match batch {
            Ok(events) => events
                .iter()
                .filter(|e| changes_content(&e.kind))
                .flat_map(|e| e.paths.iter().cloned())
                .filter(|p| {
                    header.as_deref() == Some(p.as_path())
                        || allowlist.as_deref() == Some(p.as_path())
                        || (relevant(p, out_dir.as_deref())
                            && !go.is_some_and(|g| go_own(p, &root, &g.output_file) || fixture_own(p, g)))
                        // A generated Go file someone removed: rebuilt, so the output is whole again (vgc's own
                        // removal of a stale one costs one rebuild that writes nothing).
                        || go.is_some_and(|g| {
                            p.file_name().is_some_and(|n| n == g.output_file.as_str())
                                && relevant(p, None)
                                && !p.exists()
                        })
                })
                .collect(),
            Err(errors) => {
                for e in errors {
                    let _ = writeln!(err, "warning: file watcher: {e}");
                }
                continue;
            }
        };
        let Some(first) = paths.first() else { continue };
        let trigger = match paths.len() {
            1 => format!("{}", first.display()),
            n => format!("{} and {} more", first.display(), n - 1),
        };
        let start = Instant::now();
        // Spelled as discovery spells them (under the request's path as given), so known files are recognised.
        let base = watched.trim_end_matches('/');
        let changed: Vec<String> = paths
            .iter()
            .map(|p| match p.strip_prefix(&root) {
                Ok(rel) => format!("{base}/{}", rel.display()),
                Err(_) => p.display().to_string(),
            })
            .collect();
        let outcome = session.build_after(&opts.request, &changed);
        report(err, opts, &trigger, &outcome, start.elapsed());
        if rustfmt {
            vgc_driver::format::prespawn_rustfmt();
        }
        rebuilds += 1;
    }
    0
}

/// Whether `path` is one of the Go target's own writes under the watched `root`: a file named `output_file` or its
/// `<output>_coverage_test.go` or `<output>_test.go` (a generated one is not a source: the build hides it) or
/// anything in a hidden directory below `root` (`.vgc/`, where the transaction stages its files).
#[must_use]
pub fn go_own(path: &Path, root: &Path, output_file: &str) -> bool {
    path.file_name().is_some_and(|n| {
        n == output_file
            || n.to_str().is_some_and(|n| {
                // `+k8s:validation-gen-test-targets`' `<output>_coverage_test.go` and `-test-fixture`'s
                // `<output>_test.go` (`vgc_gogen::coverage`).
                ["_coverage_test.go", "_test.go"].iter().any(|s| {
                    n.strip_suffix(s)
                        .is_some_and(|b| output_file.strip_suffix(".go") == Some(b))
                })
            })
    }) || path.strip_prefix(root).is_ok_and(|rel| {
        rel.components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    })
}

/// Whether `path` is one of the coverage test fixtures the Go target writes (`--test-output-root`): a
/// `<prefix>…_test.go` file under the fixtures' directory (test files are no sources of the build), or a directory
/// there (the build creates and removes them with the fixtures; a user's Go file in one is still an event of its
/// own).
#[must_use]
pub fn fixture_own(path: &Path, go: &vgc_driver::GoTarget) -> bool {
    go.coverage.as_ref().is_some_and(|c| {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        path.starts_with(&c.root)
            && ((name.starts_with(c.file_prefix.as_str()) && name.ends_with("_test.go"))
                || !name.ends_with(".go"))
    })
}

/// (device, inode) of a directory, `None` when it does not exist.
fn dir_identity(dir: &Path) -> Option<(u64, u64)> {
    let m = std::fs::metadata(dir).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        Some((0, u64::from(m.is_dir())))
    }
}

/// Whether an event kind can change what a build reads: creation, removal, renames and data writes. Access
/// events (vgc's own reads) and metadata-only changes are ignored.
#[must_use]
pub fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Modify(m) => !matches!(m, ModifyKind::Metadata(_)),
        EventKind::Access(_) | EventKind::Other => false,
    }
}

/// The directory holding the `go.mod` of the module containing `dir`, if any.
fn module_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join("go.mod").is_file())
        .map(Path::to_path_buf)
}

fn report(
    err: &mut dyn Write,
    opts: &WatchOptions,
    trigger: &str,
    outcome: &BuildOutcome,
    took: Duration,
) {
    let text = render::text_styled(
        &outcome.diagnostics,
        &outcome.sources,
        opts.short,
        opts.color,
    );
    let _ = err.write_all(text.as_bytes());
    for n in &outcome.notes {
        let _ = writeln!(err, "note: {n}");
    }
    if let Some(e) = &outcome.io_error {
        let _ = writeln!(err, "error: {e}");
    }
    let removed = match outcome.removed {
        0 => String::new(),
        n => format!(", removed {}", crate::render::plural(n, "stale file")),
    };
    let phases = if opts.timings {
        let p: Vec<String> = outcome
            .timings
            .iter()
            .map(|(phase, d)| format!("{phase} {:.1} ms", d.as_secs_f64() * 1e3))
            .collect();
        format!(" ({})", p.join(", "))
    } else {
        String::new()
    };
    let _ = writeln!(
        err,
        "vgc watch: {trigger}: {}, {}; wrote {}{removed} in {:.1} ms{phases}",
        crate::render::plural(outcome.errors(), "error"),
        crate::render::plural(outcome.warnings(), "warning"),
        crate::render::plural(outcome.written, "changed file"),
        took.as_secs_f64() * 1e3
    );
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::{fixture_own, go_own, relevant};
    use std::path::Path;

    #[test]
    fn the_go_targets_own_writes() {
        let root = Path::new("/m");
        let name = "zz_generated.validations.go";
        assert!(go_own(
            Path::new("/m/api/v1/zz_generated.validations.go"),
            root,
            name
        ));
        assert!(go_own(Path::new("/m/.vgc/staging-x1/0"), root, name));
        assert!(go_own(
            Path::new("/m/api/v1/zz_generated.validations_coverage_test.go"),
            root,
            name
        ));
        assert!(go_own(
            Path::new("/m/api/v1/zz_generated.validations_test.go"),
            root,
            name
        ));
        assert!(!go_own(
            Path::new("/m/api/v1/other_coverage_test.go"),
            root,
            name
        ));
        assert!(!go_own(Path::new("/m/api/v1/types.go"), root, name));
        assert!(!go_own(Path::new("/m/api/v9-gone"), root, name));
        let go = vgc_driver::GoTarget {
            coverage: Some(vgc_driver::CoverageFixtures {
                root: "/m/test/dv".into(),
                file_prefix: "zz.".into(),
                allowlist: None,
            }),
            ..Default::default()
        };
        assert!(fixture_own(
            Path::new("/m/test/dv/apps/scale/zz.v1_test.go"),
            &go
        ));
        assert!(!fixture_own(
            Path::new("/m/test/dv/apps/scale/hand_test.go"),
            &go
        ));
        assert!(!fixture_own(Path::new("/m/api/v1/zz.v1_test.go"), &go));
        assert!(fixture_own(Path::new("/m/test/dv/apps/scale"), &go));
        assert!(!fixture_own(
            Path::new("/m/test/dv/apps/scale/objects.go"),
            &go
        ));
        assert!(!fixture_own(
            Path::new("/m/test/dv/apps/scale/zz.v1_test.go"),
            &vgc_driver::GoTarget::default()
        ));
    }

    #[test]
    fn relevant_paths() {
        let out = Path::new("/m/out");
        assert!(relevant(Path::new("/m/api/v1/types.go"), Some(out)));
        assert!(relevant(Path::new("/m/go.mod"), Some(out)));
        assert!(!relevant(Path::new("/m/out/src/lib.rs"), Some(out)));
        assert!(!relevant(Path::new("/m/api/v1/.types.go.swp"), Some(out)));
        assert!(!relevant(Path::new("/m/api/v1/types.go~"), Some(out)));
        assert!(!relevant(Path::new("/m/api/v1/README.md"), Some(out)));
        // A removed directory (no extension, gone): a package may have disappeared.
        assert!(relevant(Path::new("/m/api/v9-gone"), Some(out)));
    }
}
