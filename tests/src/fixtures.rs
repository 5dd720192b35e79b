//! Fixture directories with one insta snapshot each (`<fixture>/expected.snap`, next to the Go module it
//! describes), the way ruff's parser fixtures are tested: a changed expectation is reviewed with `cargo insta review`
//! (or accepted with `INSTA_UPDATE=always`), and every fixture is checked even when an earlier one fails. Also the
//! small Go modules of `tests/tests/upstream.rs` (`tests/fixtures/upstream/<case>`), which each test gets a copy of
//! ([`upstream_module`]).

use std::path::{Path, PathBuf};

/// Every fixture directory under `root` (one Go module each), sorted by name.
///
/// # Panics
/// When `root` cannot be read.
#[must_use]
pub fn dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("fixtures dir {}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Asserts `render(dir)` against `dir/expected.snap` for every fixture directory under `root`, and panics at the
/// end naming every fixture whose output differs (insta prints each difference as it is found).
///
/// # Panics
/// When a fixture's output differs from its snapshot, or a snapshot is missing.
pub fn assert_snapshots(root: &Path, render: impl Fn(&Path) -> String) {
    let mut failed = Vec::new();
    for dir in dirs(root) {
        let got = render(&dir);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(&dir);
        settings.set_prepend_module_to_snapshot(false);
        settings.set_input_file(&dir);
        settings.set_omit_expression(true);
        let ok = settings.bind(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                insta::assert_snapshot!("expected", got);
            }))
            .is_ok()
        });
        if !ok {
            failed.push(dir.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "fixtures whose output changed: {failed:?}"
    );
}

/// The expectation recorded in `dir/expected.snap` (the snapshot's contents without insta's header).
///
/// # Panics
/// When the snapshot cannot be read.
#[must_use]
pub fn expected(dir: &Path) -> String {
    let path = dir.join("expected.snap");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match text
        .strip_prefix("---\n")
        .and_then(|t| t.split_once("\n---\n"))
    {
        Some((_, body)) => body.to_string(),
        None => text,
    }
}

/// `tests/fixtures/upstream`: the small Go modules of `tests/tests/upstream.rs`, one directory each (`go.mod`,
/// `v1/doc.go`, `v1/types.go`, …).
fn upstream_dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/upstream")
        .join(case)
}

/// A copy of the Go module `tests/fixtures/upstream/<case>` in a new temporary directory, so a test may change its
/// files (the fixture stays as it is).
///
/// # Panics
/// When the fixture does not exist or the copy fails.
#[must_use]
pub fn upstream_module(case: &str) -> tempfile::TempDir {
    let from = upstream_dir(case);
    assert!(from.is_dir(), "no fixture {}", from.display());
    let dir = tempfile::tempdir().expect("tempdir");
    crate::harness::copy_dir(&from, dir.path());
    dir
}

/// The text of `rel` in the fixture `tests/fixtures/upstream/<case>`, for a test that builds a variant of it.
///
/// # Panics
/// When the file cannot be read.
#[must_use]
pub fn upstream_file(case: &str, rel: &str) -> String {
    let path = upstream_dir(case).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
