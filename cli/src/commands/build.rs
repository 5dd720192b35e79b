//! `vgc build`: check the tags and generate the Rust validation crate into `--out`. The end of the command (the
//! build and its report) is shared with `vgc check` ([`execute`]).

use super::common::{Globals, profile_suffix, structs_of, target, write_timings};
use crate::args::BuildArgs;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;
use vgc::render::plural;
use vgc_codegen::RuntimeDep;
use vgc_driver::BuildRequest;

/// `vgc build`; `start` is when the command line was parsed (for the summary's time).
pub(crate) fn run(a: BuildArgs, globals: &Globals, start: Instant) -> ExitCode {
    let (timings, ask_server) = (a.timings, !a.no_server);
    let style = Style::of(a.short, &a.color);
    match requests(a) {
        Ok(reqs) => execute_all(reqs, style, timings, globals, start, ask_server),
        Err(code) => code,
    }
}

/// The build requests of `vgc build`: one per `--target` — the Go target and one Rust target (`vgc` or
/// `k8s-openapi`) may be given together, each taking its own flags (`--out`, `--runtime-*`, … for the crate;
/// `--output-file`, `--go-header-file`, `--test-*` for the Go files) and, with `--cache-dir D`, its own caches
/// (`D/go` for the Go target: [`BuildRequest::cache_root`]). Exit code 2 for another combination, or a crate
/// directory that is the Go module root (in any spelling).
fn requests(a: BuildArgs) -> Result<Vec<BuildRequest>, ExitCode> {
    let mut targets = a.target.clone();
    targets.sort();
    targets.dedup();
    if targets.len() < 2 {
        return request(BuildArgs {
            target: targets,
            ..a
        })
        .map(|r| vec![r]);
    }
    let (go, rust): (Vec<&String>, Vec<&String>) = targets.iter().partition(|t| *t == "go");
    let ([_], [rust]) = (go.as_slice(), rust.as_slice()) else {
        return Err(usage(&format!(
            "--target {}: one run builds the Go target and at most one Rust target (`vgc` or `k8s-openapi`)",
            targets.join(",")
        )));
    };
    let go_args = BuildArgs {
        target: vec!["go".into()],
        out: None,
        k8s_openapi_version: None,
        runtime_path: None,
        runtime_version: None,
        custom_stub: false,
        rustfmt: false,
        ..a.clone()
    };
    let rust_args = BuildArgs {
        target: vec![(*rust).clone()],
        output_file: None,
        go_header_file: None,
        test_output_root: None,
        test_output_file_prefix: None,
        test_allowlist: None,
        ..a
    };
    let go = request(go_args)?;
    let rust = request(rust_args)?;
    // `--out ../root/` or a link to the root: one directory, whose lock both would take (the driver refuses it too).
    let same_dir = |a: &std::path::Path, b: &std::path::Path| {
        a == b
            || std::fs::canonicalize(a)
                .is_ok_and(|x| std::fs::canonicalize(b).is_ok_and(|y| x == y))
    };
    if let (Some(g), Some(r)) = (&go.out, &rust.out)
        && same_dir(g, r)
    {
        return Err(usage(&format!(
            "--out {}: the Go module root, where the Go target writes its state (.vgc/); give the crate a directory of its own",
            rust.out
                .as_ref()
                .map_or_else(String::new, |o| o.display().to_string())
        )));
    }
    Ok(vec![go, rust])
}

/// The build request of `vgc build` / `vgc watch` options for one target (exit code 2 when the path cannot be
/// used, or more than one `--target` is given: see [`requests`]).
pub(crate) fn request(a: BuildArgs) -> Result<BuildRequest, ExitCode> {
    if a.target.len() > 1 {
        return Err(usage(&format!(
            "--target {}: `vgc watch` builds one target; `vgc build` builds the Go target and a Rust target together",
            a.target.join(",")
        )));
    }
    let path = target(a.path.clone())?;
    if let Some(go) = go_target(&a, &path)? {
        return go_request(a, path, go);
    }
    if let Some((_, flag)) = [
        (a.output_file.is_some(), "--output-file"),
        (a.go_header_file.is_some(), "--go-header-file"),
        (a.test_output_root.is_some(), "--test-output-root"),
        (
            a.test_output_file_prefix.is_some(),
            "--test-output-file-prefix",
        ),
        (a.test_allowlist.is_some(), "--test-allowlist"),
    ]
    .into_iter()
    .find(|(given, _)| *given)
    {
        return Err(usage(&format!(
            "{flag} is a flag of the Go target; pass --target go (or set `[build] target = \"go\"` in vgc.toml)"
        )));
    }
    let runtime = match (a.runtime_path, a.runtime_version) {
        (_, Some(v)) => {
            // Depending on the registry is the user's choice; say what it needs today.
            let _ = writeln!(
                std::io::stderr().lock(),
                "note: --runtime-version {v}: the generated crate depends on vgc-runtime from crates.io, where it is not published yet; it builds with `[patch.crates-io] vgc-runtime = {{ path = \"…/runtime\" }}` or a registry that has it (without the flag the runtime is vendored into the output)"
            );
            RuntimeDep::Version(v)
        }
        (Some(p), None) => RuntimeDep::Path(p),
        (None, None) => RuntimeDep::Vendored,
    };
    let out = a.out.unwrap_or_else(|| "out/vgc-generated".into());
    let out = std::path::absolute(&out).unwrap_or_else(|_| out.into());
    // Go keeps the module cache read-only and verifies it (`go mod verify`): a build run from a module there
    // (`cd $(go env GOMODCACHE)/k8s.io/api@v0.37.2 && vgc build`) must not write its default `out/` into it.
    if let Some(cache) = vgc::gomodule::module_cache_holding(&out) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "error: --out {}: inside the Go module cache ({}), which Go keeps read-only and verifies; pass --out DIR outside it",
            out.display(),
            cache.display()
        );
        return Err(ExitCode::from(2));
    }
    let structs = structs_of(a.target.first().cloned(), a.k8s_openapi_version)?;
    Ok(BuildRequest {
        path,
        packages: Vec::new(),
        out: Some(out),
        crate_name: a.crate_name,
        runtime,
        extra_roots: a.roots,
        check_only: false,
        custom_stub: a.custom_stub,
        no_cache: a.no_cache,
        cache_dir: a.cache_dir.map(|d| std::path::absolute(&d).unwrap_or(d)),
        force: a.force,
        rustfmt: a.rustfmt,
        upstream: None,
        extension_files: Vec::new(),
        tag_prefix: vgc_ir::TagPrefix::default(),
        target: structs,
        go: None,
    })
}

/// Prints `error: {msg}` and gives exit code 2.
fn usage(msg: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "error: {msg}");
    ExitCode::from(2)
}

/// The Go target's settings when `--target go` is given, or no `--target` and `vgc.toml` says `target = "go"`:
/// `--output-file` and `--go-header-file` (made absolute) over `vgc.toml`'s over the defaults. `None` for the Rust
/// targets. A flag that means nothing for Go files is a usage error.
fn go_target(a: &BuildArgs, path: &str) -> Result<Option<vgc_driver::GoTarget>, ExitCode> {
    let from_config = match a.target.first().map(String::as_str) {
        Some("go") => super::common::go_config(path).unwrap_or_default(),
        Some(_) => return Ok(None),
        None => match super::common::go_config(path) {
            Some(go) => go,
            None => return Ok(None),
        },
    };
    let refused = [
        (a.out.is_some(), "--out"),
        (a.k8s_openapi_version.is_some(), "--k8s-openapi-version"),
        (a.runtime_path.is_some(), "--runtime-path"),
        (a.runtime_version.is_some(), "--runtime-version"),
        (a.custom_stub, "--custom-stub"),
        (a.rustfmt, "--rustfmt"),
        (a.crate_name != "vgc-generated", "--crate-name"),
    ];
    if !a.roots.is_empty() {
        return Err(usage(
            "--roots is not a flag of the Go target: upstream validation-gen has none, and its files select the root types from each package's `+k8s:validation-gen` tag alone; write the criterion there (also with --target go,vgc, whose targets share one analysis)",
        ));
    }
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(usage(&format!(
            "{flag} is a flag of the Rust targets; the Go target writes validation-gen's file into each package directory of the Go module (docs/go-backend.md)"
        )));
    }
    let mut go = from_config;
    if let Some(f) = &a.output_file {
        go.output_file.clone_from(f);
    }
    vgc_driver::GoTarget::check_output_file(&go.output_file).map_err(|e| usage(&e))?;
    if let Some(h) = &a.go_header_file {
        go.header_file = Some(
            std::path::absolute(h).map_or_else(|_| h.clone(), |p| p.to_string_lossy().into_owned()),
        );
    }
    let (root, prefix, allowlist) = (
        a.test_output_root.as_deref(),
        a.test_output_file_prefix.as_deref(),
        a.test_allowlist.as_deref(),
    );
    check_coverage_flags(root, prefix, allowlist).map_err(|e| usage(&e))?;
    if root.is_some() {
        let cwd =
            std::env::current_dir().map_err(|e| usage(&format!("the current directory: {e}")))?;
        go.coverage = vgc_driver::CoverageFixtures::resolve(&cwd, root, prefix, allowlist);
    }
    Ok(Some(go))
}

/// upstream `Args.Validate`: `--test-allowlist` and `--test-output-file-prefix` only with `--test-output-root`.
///
/// # Errors
/// upstream's message.
pub(crate) fn check_coverage_flags(
    root: Option<&str>,
    prefix: Option<&str>,
    allowlist: Option<&str>,
) -> Result<(), String> {
    let given = |v: Option<&str>| v.is_some_and(|v| !v.is_empty());
    if given(root) {
        return Ok(());
    }
    if given(allowlist) {
        return Err("--test-allowlist is only meaningful with --test-output-root".into());
    }
    if given(prefix) {
        return Err("--test-output-file-prefix is only meaningful with --test-output-root".into());
    }
    Ok(())
}

/// The request of the Go target for `path`: the files are written under the Go module root (`.vgc/` there holds
/// the lock, the transaction's staging and the caches), never into the Go module cache.
pub(crate) fn go_request(
    a: BuildArgs,
    path: String,
    go: vgc_driver::GoTarget,
) -> Result<BuildRequest, ExitCode> {
    let dir = std::path::Path::new(vgc_driver::target::dir_of(&path));
    let out = vgc_driver::go::module_root(dir).unwrap_or_else(|| dir.to_path_buf());
    if let Some(cache) = vgc::gomodule::module_cache_holding(&out) {
        return Err(usage(&format!(
            "{}: inside the Go module cache ({}), which Go keeps read-only and verifies; the Go target writes into the packages, so run it on a module of your own",
            out.display(),
            cache.display()
        )));
    }
    Ok(BuildRequest {
        path,
        out: Some(out),
        extra_roots: a.roots,
        no_cache: a.no_cache,
        cache_dir: a.cache_dir.map(|d| std::path::absolute(&d).unwrap_or(d)),
        force: a.force,
        go: Some(go),
        ..BuildRequest::default()
    })
}

/// How diagnostics are printed on stderr: one per line (`--short`) or not, in colour (`--color`) or not.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    pub(crate) short: bool,
    pub(crate) color: bool,
}

impl Style {
    /// `--short` and `--color` (`auto`: stderr is a terminal and `NO_COLOR` is unset).
    pub(crate) fn of(short: bool, color: &str) -> Self {
        use std::io::IsTerminal as _;
        Self {
            short,
            color: vgc::render::use_color(color, std::io::stderr().is_terminal()),
        }
    }
}

/// Builds `req` (with the global options applied) and reports: the diagnostics (`short`: one line each), an
/// output error, the summary line, notes, the phase timings when `timings`, and what was written; returns the
/// exit code ([`vgc_driver::exit_code`]).
///
/// When `ask_server`, a build server of the same request (`vgc validation-gen --serve`, [`super::serve`]) builds it
/// if one runs (`--no-server` passes false).
pub(crate) fn execute(
    mut req: BuildRequest,
    style: Style,
    timings: bool,
    globals: &Globals,
    start: Instant,
    ask_server: bool,
) -> ExitCode {
    if let Err(code) = globals.apply(&mut req, None) {
        return code;
    }
    req.extension_files = globals.extensions.clone();
    if ask_server && let Some(code) = super::serve::ask(&req, style, timings, start) {
        return code;
    }
    let outcome = vgc_driver::build(&req);
    ExitCode::from(report(
        &req,
        outcome,
        None,
        &mut Vec::new(),
        style,
        timings,
        start,
    ))
}

/// [`execute`] of several requests ([`requests`]: the Go target and a Rust target) built together
/// ([`vgc_driver::build_all`]: one analysis); each is reported in turn, labelled with its target, its diagnostics
/// but those an earlier one printed. The exit code is the highest.
pub(crate) fn execute_all(
    mut reqs: Vec<BuildRequest>,
    style: Style,
    timings: bool,
    globals: &Globals,
    start: Instant,
    ask_server: bool,
) -> ExitCode {
    if reqs.len() == 1
        && let Some(req) = reqs.pop()
    {
        return execute(req, style, timings, globals, start, ask_server);
    }
    for req in &mut reqs {
        if let Err(code) = globals.apply(req, None) {
            return code;
        }
        req.extension_files = globals.extensions.clone();
    }
    let outcomes = vgc_driver::build_all(&reqs);
    let mut shown = Vec::new();
    let mut code = 0;
    for (req, outcome) in reqs.iter().zip(outcomes) {
        let label = if req.go.is_some() { "go" } else { "rust" };
        code = code.max(report(
            req,
            outcome,
            Some(label),
            &mut shown,
            style,
            timings,
            start,
        ));
    }
    ExitCode::from(code)
}

/// Prints the report of one build (see [`execute`]), its summary line as `vgc [label]:` when given, leaving out the
/// diagnostics in `shown` (and adding those it prints); returns the exit code.
fn report(
    req: &BuildRequest,
    mut outcome: vgc_driver::BuildOutcome,
    label: Option<&str>,
    shown: &mut Vec<vgc_ir::Diagnostic>,
    style: Style,
    timings: bool,
    start: Instant,
) -> u8 {
    let code = report_to(
        &mut std::io::stderr().lock(),
        req,
        &mut outcome,
        label,
        shown,
        style,
        timings,
        start,
    );
    // The process ends here: freeing the outcome (the generated files, the plan) would only delay the exit.
    std::mem::forget(outcome);
    code
}

/// [`report`] written to `stderr` (the build server writes a client's report into a buffer: `crate::serve`),
/// leaving `outcome` to the caller; returns the exit code.
#[allow(clippy::too_many_arguments)]
pub(crate) fn report_to(
    stderr: &mut dyn std::io::Write,
    req: &BuildRequest,
    outcome: &mut vgc_driver::BuildOutcome,
    label: Option<&str>,
    shown: &mut Vec<vgc_ir::Diagnostic>,
    style: Style,
    timings: bool,
    start: Instant,
) -> u8 {
    let all = std::mem::take(&mut outcome.diagnostics);
    let fresh: Vec<vgc_ir::Diagnostic> =
        all.iter().filter(|d| !shown.contains(d)).cloned().collect();
    let text = vgc::render::text_styled(&fresh, &outcome.sources, style.short, style.color);
    shown.extend(fresh);
    outcome.diagnostics = all;
    let _ = stderr.write_all(text.as_bytes());
    let tool = label.map_or_else(|| "vgc".to_string(), |l| format!("vgc [{l}]"));
    // An output problem (`--out` naming a file, a foreign file in the way, …) counts as an error of the summary and is
    // printed before it; a run that stopped before reading anything prints no summary to contradict it.
    if let Some(e) = &outcome.io_error {
        let _ = writeln!(stderr, "error: {e}");
    }
    let s = outcome.stats;
    let stopped_early = outcome.io_error.is_some() && s.packages == 0;
    if !stopped_early {
        let _ = writeln!(
            stderr,
            "{tool}: {}, {}, {} ({} lowered, {} consumed as metadata, {} reported, {} not lowered yet), {} generated, {}, {} in {:.2}s{}",
            plural(s.packages, "package"),
            plural(s.types, "type"),
            plural(s.tags, "tag"),
            s.lowered,
            s.consumed,
            s.reported,
            s.not_lowered,
            plural(s.checks, "check"),
            plural(outcome.warnings(), "warning"),
            plural(
                outcome.errors() + usize::from(outcome.io_error.is_some()),
                "error"
            ),
            start.elapsed().as_secs_f64(),
            profile_suffix(outcome)
        );
    }
    for n in &outcome.notes {
        let _ = writeln!(stderr, "note: {n}");
    }
    if timings && !outcome.timings.is_empty() {
        write_timings(stderr, &outcome.timings);
    }
    let code = vgc_driver::exit_code(outcome);
    if code != 0 {
        return code;
    }
    if let Some(out) = &req.out {
        if outcome.up_to_date {
            let _ = writeln!(
                stderr,
                "{tool}: {} is up to date (no input changed since the last clean build)",
                out.display()
            );
        } else {
            let removed = if outcome.removed > 0 {
                format!(", {} removed", plural(outcome.removed, "stale file"))
            } else {
                String::new()
            };
            // Only the files whose bytes changed are written (the others are left untouched, mtime included).
            let total = outcome.files.len();
            let written = if outcome.written == total {
                plural(total, "file")
            } else {
                format!(
                    "{} of {} ({} unchanged)",
                    outcome.written,
                    plural(total, "file"),
                    total - outcome.written
                )
            };
            let _ = writeln!(
                stderr,
                "{tool}: wrote {written} to {}{removed}",
                out.display()
            );
        }
    }
    0
}
