//! What the commands share: the global flags ([`Globals`]), the `PATH` argument, the check-and-lower step of the
//! commands that read the plan, and the summary lines' pieces.

use std::io::Write as _;
use std::process::ExitCode;
use vgc_driver::{BuildOutcome, BuildRequest};

/// The global options that choose how sources are read: `--upstream`, `--tag-prefix` and
/// `--validation-extensions-file`.
pub(crate) struct Globals {
    /// `--upstream`.
    pub(crate) upstream: Option<String>,
    /// `--tag-prefix`.
    pub(crate) tag_prefix: Option<String>,
    /// `--validation-extensions-file` values, made absolute against the current directory.
    pub(crate) extensions: Vec<String>,
}

impl Globals {
    /// The global options of `cli`.
    pub(crate) fn of(cli: &crate::args::Cli) -> Self {
        Self {
            upstream: cli.upstream.clone(),
            tag_prefix: cli.tag_prefix.clone(),
            extensions: extension_paths(&cli.validation_extensions_file),
        }
    }

    /// Sets `req`'s upstream profile and tag prefix from the flags, else `vgc.toml` (`config`: `--config`); a bad
    /// value is printed and turned into exit code 2.
    pub(crate) fn apply(
        &self,
        req: &mut BuildRequest,
        config: Option<&str>,
    ) -> Result<(), ExitCode> {
        req.upstream = upstream_choice(&req.path, self.upstream.as_deref(), config)?;
        req.tag_prefix = vgc_driver::config::tag_prefix_for(
            std::path::Path::new(&req.path),
            self.tag_prefix.as_deref(),
            config.map(std::path::Path::new),
        )
        .map_err(|e| {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        })?;
        Ok(())
    }
}

/// Absolute paths of `--validation-extensions-file` values.
fn extension_paths(files: &[String]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            std::path::absolute(f).map_or_else(|_| f.clone(), |p| p.to_string_lossy().into_owned())
        })
        .collect()
}

/// The upstream profile chosen for `path` by `--upstream` or `vgc.toml` (`config`: `--config`), `None` to detect
/// it; a bad choice is printed and turned into exit code 2.
fn upstream_choice(
    path: &str,
    flag: Option<&str>,
    config: Option<&str>,
) -> Result<Option<vgc_ir::profile::Selected>, ExitCode> {
    vgc_driver::config::upstream_for(
        std::path::Path::new(path),
        flag,
        config.map(std::path::Path::new),
    )
    .map_err(|e| {
        let _ = writeln!(std::io::stderr(), "error: {e}");
        ExitCode::from(2)
    })
}

/// Resolves a `PATH` argument ([`vgc_driver::target::resolve`]); on failure prints the error and returns exit
/// code 2.
pub(crate) fn target(path: Option<String>) -> Result<String, ExitCode> {
    vgc_driver::target::resolve(path.as_deref()).map_err(|e| {
        let _ = writeln!(std::io::stderr().lock(), "error: {e}");
        ExitCode::from(2)
    })
}

/// Checks and lowers `path` (the current directory by default) for commands that read the plan; on errors, prints
/// them in short form and returns the exit code.
pub(crate) fn analyzed(
    path: Option<String>,
    roots: Vec<String>,
    globals: &Globals,
    stderr: &mut impl std::io::Write,
) -> Result<BuildOutcome, ExitCode> {
    let mut req = BuildRequest::check(target(path)?, roots);
    globals.apply(&mut req, None)?;
    req.extension_files = globals.extensions.clone();
    let outcome = vgc_driver::build(&req);
    if outcome.errors() > 0 || outcome.stats.packages == 0 {
        let text = vgc::render::text(&outcome.diagnostics, &outcome.sources, true);
        let _ = stderr.write_all(text.as_bytes());
        return Err(ExitCode::from(vgc_driver::exit_code(&outcome).max(1)));
    }
    Ok(outcome)
}

/// `--timings`: one stderr line, `vgc: timings: <phase> <ms> ms, ...`.
pub(crate) fn print_timings(timings: &[(&'static str, std::time::Duration)]) {
    write_timings(&mut std::io::stderr().lock(), timings);
}

/// [`print_timings`] written to `w`.
pub(crate) fn write_timings(
    w: &mut dyn std::io::Write,
    timings: &[(&'static str, std::time::Duration)],
) {
    let phases: Vec<String> = timings
        .iter()
        .map(|(phase, d)| format!("{phase} {:.1} ms", d.as_secs_f64() * 1e3))
        .collect();
    let _ = writeln!(w, "vgc: timings: {}", phases.join(", "));
}

/// `" (upstream 1.38: detected from go.mod k8s.io/apimachinery v0.38.0-alpha.2)"` for the summary lines.
pub(crate) fn profile_suffix(outcome: &BuildOutcome) -> String {
    outcome
        .profile
        .as_ref()
        .map(|p| {
            let prefix = if outcome.tag_prefix.is_default() {
                String::new()
            } else {
                format!("; tag prefix {:?}", outcome.tag_prefix.as_str())
            };
            format!(" (upstream {}: {}{prefix})", p.version, p.why)
        })
        .unwrap_or_default()
}

/// `--target` and `--k8s-openapi-version` of `vgc build`/`check`/`watch` (`None` when neither is given: `vgc.toml`
/// decides); a bad combination is an error on stderr and exit code 2.
pub(crate) fn structs_of(
    target: Option<String>,
    version: Option<String>,
) -> Result<Option<vgc_codegen::Target>, ExitCode> {
    if target.is_none() && version.is_none() {
        return Ok(None);
    }
    vgc_driver::config::target(target.as_deref(), version.as_deref())
        .map(Some)
        .map_err(|e| {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        })
}

/// The Go target settings of the `vgc.toml` found for `path` (`[build] target = "go"`), `None` without them or
/// when the file does not parse (the build reports that).
pub(crate) fn go_config(path: &str) -> Option<vgc_driver::GoTarget> {
    let file = vgc_driver::config::find(std::path::Path::new(path))?;
    vgc_driver::config::load(&file).ok()?.go
}
