//! What a build is asked for ([`BuildRequest`]) and what it gives back ([`BuildOutcome`], [`exit_code`]), with the
//! request's checks ([`validate_options`]) and the key the caches record it under ([`request_key`]).

use std::collections::BTreeMap;
use std::path::PathBuf;
use vgc_codegen::{GeneratedFile, RuntimeDep};
use vgc_ir::{Diagnostic, Severity};
use vgc_lowering::plan::Stats;

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    /// A Go module root or package directory (targets: the packages in and below it) or a `.go` file (target:
    /// its package), absolute — the CLI resolves what the user typed with [`crate::target::resolve`].
    pub path: String,
    /// Narrows the target packages to these directories (absolute, `/`-separated; `DIR/...` selects `DIR` and
    /// every package below it) among those in and below [`BuildRequest::path`]; empty: all of them. Validation-gen's
    /// command line (`vgc validation-gen PKG...`) names its input packages so.
    pub packages: Vec<String>,
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
    /// The Go target (`--target go`, `vgc validation-gen`): instead of a Rust crate, upstream validation-gen's
    /// file ([`GoTarget::output_file`]) written into the directory of every target package that carries a
    /// `+k8s:validation-gen` tag, by `vgc_gogen`. [`BuildRequest::out`] is then the Go module root (the
    /// transaction, the lock and `.vgc/` live there) and [`BuildRequest::target`] is not read.
    pub go: Option<GoTarget>,
}

/// What the Go target writes (validation-gen's `--output-file`, `--go-header-file` and `--test-output-root`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GoTarget {
    /// The file name written into each package directory (`--output-file`; [`GoTarget::DEFAULT_OUTPUT_FILE`] by
    /// default). A plain file name ending in `.go` ([`GoTarget::check_output_file`]).
    pub output_file: String,
    /// The boilerplate header (`--go-header-file`): an absolute path, read on every build through the build's
    /// [`vgc_analysis::System`] (so the build manifest observes it), `YEAR` replaced by the current year as
    /// gengo's `GoBoilerplate` does. `None`: no header.
    pub header_file: Option<String>,
    /// validation-gen's declarative-validation coverage test fixtures (`--test-output-root`, 1.37 on), written
    /// with the packages' files in one transaction; `None`: none.
    pub coverage: Option<CoverageFixtures>,
}

/// validation-gen's `--test-output-root`, `--test-output-file-prefix` and `--test-allowlist` (code-generator
/// v0.37 `cmd/validation-gen/main.go`): per API kind of every registering package, its declared field rules under
/// `<root>/<short group>/<lowercase kind>/` (`vgc_gogen::coverage`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct CoverageFixtures {
    /// `--test-output-root`: an absolute directory inside the Go module root the files are written under.
    pub root: String,
    /// `--test-output-file-prefix`: prepended to every fixture's file name (`zz_generated.validations.`).
    pub file_prefix: String,
    /// `--test-allowlist`: an absolute path to the YAML list of rules left out, read on every build through the
    /// build's [`vgc_analysis::System`] (the build manifest observes it). `None`: no rule is left out.
    pub allowlist: Option<String>,
}

impl CoverageFixtures {
    /// The fixtures of validation-gen's `--test-output-root ROOT`, `--test-output-file-prefix PREFIX` and
    /// `--test-allowlist ALLOWLIST` (or `vgc.toml`'s `go-test-*` keys), relative paths taken against `base` (the
    /// current directory, or the `vgc.toml`'s) lexically — `..` takes off the element before it, as Go's
    /// `filepath.Join` does; a root outside the module is refused by the build. `None` without a root (or an empty
    /// one: upstream's "not given"); an empty allowlist is none.
    #[must_use]
    pub fn resolve(
        base: &std::path::Path,
        root: Option<&str>,
        prefix: Option<&str>,
        allowlist: Option<&str>,
    ) -> Option<Self> {
        let abs = |p: &str| {
            let mut out = std::path::PathBuf::new();
            for c in base.join(p).components() {
                match c {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::CurDir => {}
                    c => out.push(c),
                }
            }
            out.to_string_lossy().into_owned()
        };
        root.filter(|r| !r.is_empty()).map(|r| Self {
            root: abs(r),
            file_prefix: prefix.unwrap_or_default().to_string(),
            allowlist: allowlist.filter(|p| !p.is_empty()).map(abs),
        })
    }
}

impl GoTarget {
    /// `zz_generated.validations.go`, the name `kube_codegen.sh` and `hack/update-codegen.sh` pass (upstream's own
    /// default, `generated.validations.go`, is used by neither).
    pub const DEFAULT_OUTPUT_FILE: &'static str = "zz_generated.validations.go";

    /// Refuses an output file name that is not a plain `.go` file name: a path (`a/b.go`), `..`, a hidden or a
    /// `_test.go` file (Go would not compile it into the package).
    ///
    /// # Errors
    /// A message naming the flag and the rule.
    pub fn check_output_file(name: &str) -> Result<(), String> {
        if name.is_empty()
            || name.contains(['/', '\\'])
            || name.starts_with('.')
            || name.starts_with('_')
            || !name.ends_with(".go")
            || name.ends_with("_test.go")
            || name == ".go"
        {
            return Err(format!(
                "--output-file {name:?}: the Go target writes one file into each package directory; name it as a \
                 plain Go file name such as `zz_generated.validations.go` (no directory, not hidden, not `_test.go`)"
            ));
        }
        Ok(())
    }
}

impl Default for GoTarget {
    fn default() -> Self {
        Self {
            output_file: Self::DEFAULT_OUTPUT_FILE.to_string(),
            header_file: None,
            coverage: None,
        }
    }
}

impl Default for BuildRequest {
    /// No path, no output, crate `vgc-generated` with the runtime vendored ([`RuntimeDep::Vendored`]), no extra roots, every
    /// switch off, the profile detected. Callers set what they need and take the rest with `..Default::default()`.
    fn default() -> Self {
        Self {
            path: String::new(),
            packages: Vec::new(),
            out: None,
            crate_name: "vgc-generated".into(),
            runtime: RuntimeDep::Vendored,
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
            go: None,
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

    /// The directory the caches live in: [`BuildRequest::cache_dir`] when given (its `go/` for the Go target), else
    /// `.vgc/` in the output directory; `None` when the request uses no cache (no output, `check_only`, or
    /// `no_cache`).
    #[must_use]
    pub fn cache_root(&self) -> Option<PathBuf> {
        if self.no_cache || self.check_only {
            return None;
        }
        let out = self.out.as_deref()?;
        Some(match &self.cache_dir {
            // The Go target's caches in a directory of their own below the one given, so that a Rust build given
            // the same `--cache-dir` (separately or in the same run) keeps its own manifest.
            Some(d) if self.go.is_some() => d.join("go"),
            Some(d) => d.clone(),
            None => out.join(crate::output::STATE_DIR),
        })
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
    /// `--target go` in a live session (`vgc watch`): packages whose file was taken from the last build's instead of
    /// printed again, nothing they depend on having changed (0 in a one-shot build).
    pub go_reused: usize,
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

/// The build manifest's request key ([`crate::cache::manifest`]): everything besides the observed files that decides a build's output.
#[must_use]
pub fn request_key(req: &BuildRequest) -> String {
    let mut h = blake3::Hasher::new();
    let abs = std::path::absolute(&req.path).unwrap_or_else(|_| req.path.clone().into());
    for part in [
        crate::cache::tool_fingerprint(),
        abs.display().to_string(),
        req.packages.join("\u{1f}"),
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
        // The Go target's file name and header path (the header's text is an observed read); `YEAR` in the header
        // makes the output depend on the year.
        format!(
            "go={:?} year={}",
            req.go,
            req.go.as_ref().map_or(0, |_| current_year())
        ),
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

/// The formatter a request's output comes from, as part of every cache key (output formatted one way is never
/// reused for the other).
pub(crate) fn formatter(req: &BuildRequest) -> &'static str {
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

/// The current year in UTC, as gengo's `GoBoilerplate` writes it for `YEAR` (`time.Now().UTC().Year()`).
#[must_use]
pub fn current_year() -> i64 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    year_of_day(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// The proleptic Gregorian year of `days` since 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub(crate) fn year_of_day(days: i64) -> i64 {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    yoe + era * 400 + i64::from(month <= 2)
}
