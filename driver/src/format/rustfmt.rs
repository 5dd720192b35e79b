//! rustfmt scheduling for `--rustfmt`: units formatted through rustfmt's stdin (a spare process started ahead of
//! need, [`prespawn_rustfmt`]) with marker lines giving the unit boundaries of its output, and cold files staged
//! in temporary directories and formatted by one rustfmt process per core ([`format_batched`]); every process
//! under a timeout ([`rustfmt_timeout`]).

use super::units::{unit_hash, units_of};
use std::path::Path;
use vgc_codegen::GeneratedFile;

/// The line put between units when formatting several at once; never produced by codegen at column 0.
const MARKER: &str = "// @vgc-unit-boundary";

/// Formats `units` (hash, unformatted text) in one rustfmt run with marker lines between them, returning each
/// unit's formatted text. The file header (inner attributes) can only come first, so the units go in file order.
/// If the markers do not come back one per boundary, each unit is formatted on its own.
pub(super) fn format_units(units: &[(&String, &str)]) -> Vec<(String, String)> {
    if units.is_empty() {
        return Vec::new();
    }
    let joined = units
        .iter()
        .map(|(_, u)| *u)
        .collect::<Vec<_>>()
        .join(&format!("{MARKER}\n"));
    if let Some(out) = rustfmt(&joined)
        && let Some(parts) = split_units(&out, units.len())
    {
        return units
            .iter()
            .zip(parts)
            .map(|((h, _), p)| ((*h).clone(), p))
            .collect();
    }
    units
        .iter()
        .filter_map(|(h, u)| rustfmt(u).map(|f| ((*h).clone(), f)))
        .collect()
}

/// Splits rustfmt output of marker-joined units back into `n` units, or `None` when the markers did not survive
/// one per boundary.
fn split_units(out: &str, n: usize) -> Option<Vec<String>> {
    let mut parts = vec![String::new()];
    for line in out.split_inclusive('\n') {
        if line.trim_end() == MARKER {
            parts.push(String::new());
        } else if let Some(p) = parts.last_mut() {
            p.push_str(line);
        }
    }
    (parts.len() == n).then_some(parts)
}

/// The directory a generated module file's child modules live in (`src/core/mod.rs` → `src/core/`,
/// `src/core/v1.rs` → `src/core/v1/`), as rustfmt resolves `pub mod x;`.
fn child_dir(path: &str) -> String {
    match path.strip_suffix("mod.rs") {
        Some(d) if d.ends_with('/') => d.to_string(),
        _ => format!("{}/", path.trim_end_matches(".rs")),
    }
}

/// Formats the files `files[todo]` whole, with one rustfmt process per core plus one for module parents, and
/// returns their formatted units (hash, text). The unformatted files, marker lines between units, are staged in
/// temporary directories inside `near` (so rustfmt finds the same `rustfmt.toml` as `cargo fmt` in the output
/// would). rustfmt follows `pub mod x;` into child files, so leaf modules (no children) are spread over the
/// per-core processes by size, longest first, while every parent module (`src/lib.rs`, `mod.rs` files, Go
/// packages with sub-packages) goes to one more process in a separate directory where each child module it would
/// follow exists as an empty stub (parents are tiny: module declarations). A batch whose rustfmt fails is
/// formatted through stdin, file by file.
pub(super) fn format_batched(
    files: &[GeneratedFile],
    todo: &[usize],
    near: Option<&Path>,
) -> Vec<(String, String)> {
    use rayon::prelude::*;
    let units_with_hashes = |i: usize| -> Vec<(String, &str)> {
        units_of(&files[i])
            .into_iter()
            .map(|u| (unit_hash(u), u))
            .collect()
    };
    let stdin_each = |idx: &[usize]| -> Vec<(String, String)> {
        idx.par_iter()
            .flat_map(|&i| {
                let units = units_with_hashes(i);
                let refs: Vec<(&String, &str)> = units.iter().map(|(h, u)| (h, *u)).collect();
                format_units(&refs)
            })
            .collect()
    };
    if todo.is_empty() {
        return Vec::new();
    }
    let has_children = |i: usize| {
        let d = child_dir(&files[i].path);
        files[i].path == "src/lib.rs" || files.iter().any(|f| f.path.starts_with(&d))
    };
    let (parents, leaves): (Vec<usize>, Vec<usize>) = todo.iter().partition(|&&i| has_children(i));
    let workers = rayon::current_num_threads().clamp(1, leaves.len().max(1));
    let mut by_size: Vec<(usize, usize)> = leaves
        .iter()
        .map(|&i| (files[i].contents.len(), i))
        .collect();
    by_size.sort_unstable_by(|a, b| b.cmp(a));
    let mut groups: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); workers];
    for (bytes, i) in by_size {
        if let Some(g) = groups.iter_mut().min_by_key(|g| g.0) {
            g.0 += bytes;
            g.1.push(i);
        }
    }
    groups.retain(|g| !g.1.is_empty());
    let base = near
        .and_then(|d| std::fs::create_dir_all(d).ok().map(|()| d.to_path_buf()))
        .unwrap_or_else(std::env::temp_dir);
    let stage = || {
        tempfile::Builder::new()
            .prefix(".vgc-fmt-")
            .tempdir_in(&base)
            .ok()
    };
    let write = |dir: &Path, rel: &str, text: &str| {
        let p = dir.join(rel);
        p.parent()
            .is_some_and(|d| std::fs::create_dir_all(d).is_ok())
            && std::fs::write(&p, text).is_ok()
    };
    // (staging directory, files it formats) per process; the parents' directory also holds the child stubs.
    let mut jobs: Vec<(tempfile::TempDir, Vec<usize>)> = Vec::new();
    let mut unstaged = Vec::new();
    for (_, g) in groups {
        match stage() {
            Some(d)
                if g.iter().all(|&i| {
                    write(
                        d.path(),
                        &files[i].path,
                        &units_of(&files[i]).join(&format!("{MARKER}\n")),
                    )
                }) =>
            {
                jobs.push((d, g));
            }
            _ => unstaged.extend(g),
        }
    }
    if !parents.is_empty() {
        let staged_ok = stage().filter(|d| {
            let own = parents.iter().all(|&i| {
                write(
                    d.path(),
                    &files[i].path,
                    &units_of(&files[i]).join(&format!("{MARKER}\n")),
                )
            });
            // Every module a parent declares must exist for rustfmt to follow it: other generated files as empty
            // stubs (unless staged themselves), and the hand-written `custom` module.
            let stubs = files
                .iter()
                .filter(|f| {
                    f.path.ends_with(".rs") && !parents.iter().any(|&i| files[i].path == f.path)
                })
                .map(|f| f.path.as_str())
                .chain(std::iter::once("src/custom.rs"))
                .all(|rel| write(d.path(), rel, ""));
            own && stubs
        });
        match staged_ok {
            Some(d) => jobs.push((d, parents.clone())),
            None => unstaged.extend(parents.iter().copied()),
        }
    }
    let ok: Vec<bool> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|(dir, g)| {
                let args: Vec<&str> = g.iter().map(|&i| files[i].path.as_str()).collect();
                let cwd = dir.path();
                s.spawn(move || {
                    std::process::Command::new(rustfmt_program())
                        .args(["--edition", "2024", "--quiet"])
                        .args(&args)
                        .current_dir(cwd)
                        .stdin(std::process::Stdio::null())
                        .stdout(std::process::Stdio::null())
                        .stderr(std::process::Stdio::null())
                        .spawn()
                        .ok()
                        .and_then(wait_or_kill)
                        .is_some_and(|st| st.success())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(false))
            .collect()
    });
    let mut out = Vec::new();
    for ((dir, g), ok) in jobs.iter().zip(ok) {
        for &j in g {
            let units = units_with_hashes(j);
            let back = std::fs::read_to_string(dir.path().join(&files[j].path))
                .ok()
                .filter(|_| ok)
                .and_then(|text| split_units(&text, units.len()));
            match back {
                Some(parts) => out.extend(units.into_iter().map(|(h, _)| h).zip(parts)),
                None => unstaged.push(j),
            }
        }
    }
    out.extend(stdin_each(&unstaged));
    out
}

/// The rustfmt binary to run: `rustfmt` from `PATH`, unless [`resolve_rustfmt`] found the toolchain's binary.
static RUSTFMT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

fn rustfmt_program() -> &'static Path {
    RUSTFMT.get().map_or(Path::new("rustfmt"), |p| p.as_path())
}

/// For long-lived processes (`vgc watch`): asks rustup once which rustfmt binary `rustfmt` runs here (the same
/// toolchain selection as every later call from this directory would make) and runs it directly from then on,
/// saving the rustup proxy's start-up on every formatting run. Without rustup, nothing changes.
pub fn resolve_rustfmt() {
    let found = std::process::Command::new("rustup")
        .args(["which", "rustfmt"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| std::path::PathBuf::from(s.trim()))
        .filter(|p| p.is_file());
    if let Some(p) = found {
        let _ = RUSTFMT.set(p);
    }
}

/// A rustfmt process started ahead of need by [`prespawn_rustfmt`], waiting for its input on stdin.
static SPARE: std::sync::Mutex<Option<std::process::Child>> = std::sync::Mutex::new(None);

/// For long-lived processes (`vgc watch`, after each build): starts a rustfmt process now, while nothing is
/// waiting, so that the next [`rustfmt`] call only has to send it the text. rustfmt's own start-up (loading the
/// compiler libraries, ~15 ms) then happens between edits instead of inside a rebuild. Does nothing when a spare
/// is already waiting or rustfmt cannot be started.
pub fn prespawn_rustfmt() {
    let Ok(mut spare) = SPARE.lock() else { return };
    if spare.is_none() {
        *spare = spawn_rustfmt();
    }
}

fn spawn_rustfmt() -> Option<std::process::Child> {
    use std::process::{Command, Stdio};
    Command::new(rustfmt_program())
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()
}

/// Formats Rust source with `rustfmt --edition 2024` (stdin → stdout), so generated code matches `cargo fmt`.
/// Uses the spare process of [`prespawn_rustfmt`] when one is waiting (falling back to a fresh process if the
/// spare fails). Returns `None` when rustfmt is not installed or fails; the prettyplease output is then kept as
/// it is.
pub fn rustfmt(src: &str) -> Option<String> {
    let spare = SPARE.lock().ok().and_then(|mut s| s.take());
    if let Some(out) = spare.and_then(|child| feed_rustfmt(child, src)) {
        return Some(out);
    }
    feed_rustfmt(spawn_rustfmt()?, src)
}

/// How long one rustfmt process may run before it is killed (its files then keep their prettyplease text), unless
/// the environment variable `VGC_RUSTFMT_TIMEOUT` sets another whole number of seconds ([`rustfmt_timeout`]).
pub const RUSTFMT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// [`RUSTFMT_TIMEOUT`], or `VGC_RUSTFMT_TIMEOUT` seconds when that is set to a whole number (read once).
pub fn rustfmt_timeout() -> std::time::Duration {
    static T: std::sync::OnceLock<std::time::Duration> = std::sync::OnceLock::new();
    *T.get_or_init(|| {
        std::env::var("VGC_RUSTFMT_TIMEOUT")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(RUSTFMT_TIMEOUT, std::time::Duration::from_secs)
    })
}

/// Waits for `child` at most [`rustfmt_timeout`]; kills it when the time is up. `None` on timeout or error.
fn wait_or_kill(mut child: std::process::Child) -> Option<std::process::ExitStatus> {
    use wait_timeout::ChildExt as _;
    match child.wait_timeout(rustfmt_timeout()) {
        Ok(Some(status)) => Some(status),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    }
}

/// Writes `src` to a started rustfmt's stdin, closes it, and returns the formatted text (`None` on failure or
/// after [`RUSTFMT_TIMEOUT`]).
fn feed_rustfmt(mut child: std::process::Child, src: &str) -> Option<String> {
    use std::io::{Read as _, Write as _};
    let (Some(mut stdin), Some(mut stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    };
    let text = src.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let status = wait_or_kill(child);
    let out = reader.join().ok()?.ok()?;
    writer.join().ok()?.ok()?;
    if status?.success() {
        String::from_utf8(out).ok()
    } else {
        None
    }
}

/// Replaces `f`'s contents by rustfmt's output when rustfmt runs and what it prints still parses; otherwise
/// leaves them as generated (prettyplease).
pub fn rustfmt_in_place(f: &mut GeneratedFile) {
    if let Some(formatted) = rustfmt(&f.contents)
        && syn::parse_file(&formatted).is_ok()
    {
        f.contents = formatted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_split_back_into_units() {
        let out = format!("fn a() {{}}\n{MARKER}\nfn b() {{}}\n{MARKER}\nfn c() {{}}\n");
        assert_eq!(
            split_units(&out, 3),
            Some(vec![
                "fn a() {}\n".into(),
                "fn b() {}\n".into(),
                "fn c() {}\n".into()
            ])
        );
        assert_eq!(split_units(&out, 2), None);
    }

    #[test]
    fn child_dirs() {
        assert_eq!(child_dir("src/core/mod.rs"), "src/core/");
        assert_eq!(child_dir("src/core/v1.rs"), "src/core/v1/");
    }
}
