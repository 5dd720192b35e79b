//! `vgc.toml`: project settings, the `[upstream]` and `[lint]` tables:
//!
//! ```toml
//! [upstream]
//! version = "1.37"                # the upstream profile (docs/upstream.md); default: detected from go.mod
//! tag-prefix = "acme:"            # validation tags are `+acme:…` (1.38, kubernetes#141866); default "k8s:"
//!
//! [lint]
//! deny-warnings = true            # like `vgc lint --deny warnings`
//! drift-exceptions = "drift.txt"  # relative to this file (default: vgc-drift-exceptions.txt beside it, if any)
//! docs-url = "https://docs.example.com/vgc/diagnostics.html"  # SARIF helpUri page, like `vgc lint --docs-url`
//! [lint.severity]
//! VGC0311 = "off"                 # "error" | "warning" | "off", lint codes (VGC03xx, VGC04xx) only
//! VGC0310 = "error"
//! ```
//!
//! and the `[build]` table, read by `vgc build`, `vgc check` and `vgc watch`:
//!
//! ```toml
//! [build]
//! validation-extensions-files = ["formats.yaml"]  # project formats (1.38, kubernetes#142116), relative to
//!                                                 # this file; `--validation-extensions-file` replaces them
//! target = "k8s-openapi"          # validators over k8s-openapi's structs (docs/k8s-openapi.md); default "vgc"
//! k8s-openapi-version = "1.37"    # the k8s-openapi feature (1.33–1.37); required with that target
//! # or: target = "go"             # validation-gen's Go files into the packages (docs/go-backend.md), with
//! # go-output-file = "zz_generated.validations.go"  # the default
//! # go-header-file = "hack/boilerplate.go.txt"      # relative to this file; default: no header
//! # go-test-output-root = "test/declarative_validation"  # the coverage fixtures (validation-gen's
//! # go-test-output-file-prefix = "zz_generated.validations."  # --test-output-root, --test-output-file-prefix and
//! # go-test-allowlist = "test/declarative_validation/coverage-allowlist.yaml"  # --test-allowlist; paths relative
//! #                                                   # to this file; the flags replace all three)
//! [build.severity]
//! VGC0102 = "warning"             # unknown tags (deviation D1): "error" (default) | "warning"
//! ```
//!
//! and the `[extensions]` table (`docs/extensions.md`):
//!
//! ```toml
//! [extensions]
//! enabled = true                  # vgc's KEP-5073 extensions (field-path constraints); default false
//! ```
//!
//! The file is looked up in the linted (built) directory and its parents up to the Go module root (the first
//! directory with a `go.mod`), unless `--config` names one.
//!
//! The file is read with serde (`#[derive(Deserialize)]`, `deny_unknown_fields`); a problem is reported as
//! `path:line:column: message`, every invalid value at once (see [`parse`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vgc_ir::{Code, Diagnostic, Severity};

/// Lint settings: severity overrides per lint code (`None` turns a rule off), from `vgc.toml`, and the accepted
/// cross-version differences.
#[derive(Debug, Clone, Default)]
pub struct LintSettings {
    /// Code → new severity, or `None` for off.
    pub severities: BTreeMap<Code, Option<Severity>>,
    /// Drift exceptions (`vgc_lowering::drift::parse_exceptions`).
    pub exceptions: Vec<vgc_lowering::drift::Exception>,
    /// Run upstream's lint rules only (`vgc lint --rules upstream`): vgc's own rules and drift are off; catalog
    /// and type errors are still reported.
    pub upstream_only: bool,
}

/// Settings read from `vgc.toml`.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Where they came from (`None`: no file, defaults).
    pub path: Option<PathBuf>,
    /// `[lint.severity]`.
    pub lint: LintSettings,
    /// `[lint] deny-warnings`.
    pub deny_warnings: bool,
    /// `[lint] drift-exceptions`, resolved against the file's directory.
    pub drift_exceptions: Option<PathBuf>,
    /// `[lint] docs-url`: the diagnostics page SARIF `helpUri`s point into (`vgc lint --docs-url` wins; with
    /// neither, SARIF rules carry no `helpUri`, see `vgc::render::sarif`).
    pub docs_url: Option<url::Url>,
    /// `[upstream] version`.
    pub upstream: Option<vgc_ir::Upstream>,
    /// `[upstream] tag-prefix` (`--tag-prefix` replaces it).
    pub tag_prefix: Option<vgc_ir::TagPrefix>,
    /// `[build.severity]`: code → severity for the diagnostics of `vgc build`/`check` (only [`BUILD_CODES`]).
    pub build_severities: std::collections::BTreeMap<Code, Severity>,
    /// `[build] validation-extensions-files`, resolved against the file's directory (kubernetes#142116; used when
    /// no `--validation-extensions-file` is given).
    pub extension_files: Vec<String>,
    /// `[extensions] enabled`: vgc's opt-in extensions (`docs/extensions.md`), off by default.
    pub vgc_extensions: bool,
    /// `[build] target` with `k8s-openapi-version` (`--target` replaces them).
    pub target: Option<vgc_codegen::Target>,
    /// `[build] target = "go"`, with `go-output-file`, `go-header-file` and the coverage fixtures'
    /// `go-test-output-root`, `go-test-output-file-prefix` and `go-test-allowlist` (paths resolved against the file's
    /// directory): the Go target's settings (`--target`, `--output-file`, `--go-header-file` and `--test-output-root`
    /// with its two companions replace them).
    /// The command line reads them; library callers (`vgc-build`) build Rust whatever this says.
    pub go: Option<crate::request::GoTarget>,
}

/// The codes whose severity `[build.severity]` may change: `VGC0102` (an unknown `+k8s:` tag, which upstream
/// ignores: deviation D1 of `docs/deviations.md`) and `VGC0121` (a type or field the k8s-openapi target lacks: as
/// a warning, its rules are left out of the generated crate, each named by the warning) and `VGC0128` (a
/// kubebuilder-style marker such as `+k8s:validation:Required`, a warning by default: as an error, the strict mode).
pub const BUILD_CODES: &[&str] = &["VGC0102", "VGC0121", "VGC0128"];

/// Finds `vgc.toml` for a linted path: in `start` (or its directory) and its parents, stopping after the first
/// directory holding a `go.mod`.
#[must_use]
pub fn find(start: &Path) -> Option<PathBuf> {
    let mut dir = if start.is_dir() {
        Some(start)
    } else {
        start.parent()
    };
    while let Some(d) = dir {
        let candidate = d.join("vgc.toml");
        // Whatever is there (a directory, a FIFO, a link to a device) is the project's settings file: reading it
        // then fails with a message naming it, instead of the settings being dropped without a word (R51).
        if candidate.exists() {
            return Some(candidate);
        }
        if d.join("go.mod").is_file() {
            return None;
        }
        dir = d.parent();
    }
    None
}

/// The `vgc.toml` in `path` or its parents up to the Go module root (the first directory with a `go.mod`), read
/// through `sys` (so the build manifest observes it) and parsed; `None` when there is none. The build reads its
/// `[upstream]`, `[build]` and `[extensions]` tables this way; `path` is the build's input, `/`-separated.
///
/// # Errors
/// `Some(Err(_))` for a file that cannot be read or does not parse ([`parse`]).
pub fn find_through(
    sys: &dyn vgc_analysis::System,
    path: &str,
) -> Option<Result<Config, ConfigError>> {
    let mut dir = path.trim_end_matches('/').to_string();
    loop {
        let candidate = format!("{dir}/vgc.toml");
        match sys.read_file(&candidate) {
            Ok(text) => return Some(parse(&text, Path::new(&candidate))),
            // There but not a readable regular file (a directory, a FIFO, a device): an error naming it (R51).
            Err(e) if sys.stamp(&candidate).is_some() || sys.is_dir(&candidate) => {
                return Some(Err(ConfigError::whole(
                    Path::new(&candidate),
                    e.to_string(),
                )));
            }
            Err(_) => {}
        }
        if sys.read_file(&format!("{dir}/go.mod")).is_ok() {
            return None;
        }
        match dir.rfind('/') {
            Some(i) if i > 0 => dir.truncate(i),
            _ => return None,
        }
    }
}

/// Reads and validates a `vgc.toml`.
///
/// # Errors
/// A [`ConfigError`] naming the file, and the key when the problem is one: unreadable file, TOML syntax, an unknown key,
/// an unknown or non-lint code, a severity other than `error`, `warning` or `off`, or an upstream version that is
/// not one of the profiles.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    // Read as every user file is: a regular file (links followed), opened without blocking, at most 1 MiB.
    let bytes = crate::sys::read_regular(path, MAX_CONFIG_BYTES)
        .map_err(|e| ConfigError::whole(path, e.to_string()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ConfigError::whole(path, "not UTF-8 text".to_string()))?;
    parse(&text, path)
}

/// The largest `vgc.toml` or drift exceptions file vgc reads, in bytes (1 MiB).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// `vgc.toml` as written: unknown tables and keys and wrong types are refused by serde (`deny_unknown_fields`);
/// values that need checking keep their position ([`toml::Spanned`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    upstream: Option<RawUpstream>,
    lint: Option<RawLint>,
    build: Option<RawBuild>,
    extensions: Option<RawExtensions>,
}

/// `[extensions]`.
#[derive(serde::Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table such as `[extensions]` with `enabled = true`"
)]
struct RawExtensions {
    enabled: Option<bool>,
}

/// `[upstream]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawUpstream {
    version: Option<toml::Spanned<String>>,
    tag_prefix: Option<toml::Spanned<String>>,
}

/// `[lint]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLint {
    deny_warnings: Option<bool>,
    drift_exceptions: Option<String>,
    docs_url: Option<toml::Spanned<String>>,
    severity: Option<std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>>,
}

/// `[build]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBuild {
    validation_extensions_files: Option<Vec<String>>,
    target: Option<toml::Spanned<String>>,
    k8s_openapi_version: Option<toml::Spanned<String>>,
    go_output_file: Option<toml::Spanned<String>>,
    go_header_file: Option<toml::Spanned<String>>,
    go_test_output_root: Option<toml::Spanned<String>>,
    go_test_output_file_prefix: Option<toml::Spanned<String>>,
    go_test_allowlist: Option<toml::Spanned<String>>,
    severity: Option<std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>>,
}

/// A `vgc.toml` vgc cannot use: each problem with where it is. Displays as one line per problem,
/// `path:line:column: message` (`path: message` when it has no place: an unreadable file, text that is not UTF-8),
/// and [`ConfigError::diagnostics`] gives the same problems as diagnostics located in the file, so that every
/// consumer (the terminal, `--format json`, SARIF, the language server) points at the place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.lines.join("\n"))]
pub struct ConfigError {
    /// The file as the caller named it.
    pub path: String,
    /// Each problem: its byte range in the file when it has one (TOML syntax, an unknown key, an invalid value),
    /// and the message (without the position).
    pub problems: Vec<(Option<std::ops::Range<usize>>, String)>,
    /// The rendered lines, `path:line:column: message`.
    lines: Vec<String>,
}

impl ConfigError {
    /// An error with no place in the file (unreadable, not UTF-8).
    fn whole(path: &Path, message: String) -> Self {
        Self {
            path: path.display().to_string(),
            lines: vec![format!("{}: {message}", path.display())],
            problems: vec![(None, message)],
        }
    }

    /// Each problem as a `VGC0002` error diagnostic in the file (at its byte range, else at the start).
    #[must_use]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.problems
            .iter()
            .map(|(span, message)| {
                Diagnostic::error(Code::Io, message.clone())
                    .at(self.path.clone(), span.clone().unwrap_or(0..0))
                    .with_hint("none of this vgc.toml's settings is used until it is fixed; see the `vgc.toml` keys in the README")
            })
            .collect()
    }
}

impl From<ConfigError> for String {
    fn from(e: ConfigError) -> Self {
        e.to_string()
    }
}

/// `path:line:column` of byte `offset` in `text` (both 1-based; columns count characters).
fn position(path: &Path, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{}:{line}:{col}", path.display())
}

/// Parses `vgc.toml` text read from `path` (named in messages; relative settings resolve against its directory).
///
/// # Errors
/// A [`ConfigError`] (displayed one line per problem, `path:line:column: message`): TOML syntax, an unknown table or key, or a wrong type (the
/// first such problem, as serde stops there), else **every** invalid value — an unknown or non-lint code, a code
/// `[build.severity]` cannot change, a severity other than `error`, `warning` (or `off` for lint codes), an upstream
/// version that is not one of the profiles, a `docs-url` that is not an absolute URL.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let raw: RawConfig = toml::from_str(text).map_err(|e: toml::de::Error| {
        let message = e.message().trim_end().to_string();
        let at = e.span().map_or_else(
            || path.display().to_string(),
            |s| position(path, text, s.start),
        );
        ConfigError {
            path: path.display().to_string(),
            lines: vec![format!("{at}: {message}")],
            problems: vec![(e.span(), message)],
        }
    })?;
    let mut cfg = Config {
        path: Some(path.to_path_buf()),
        ..Config::default()
    };
    let mut errors = Vec::new();
    let mut err = |span: std::ops::Range<usize>, msg: String| {
        errors.push((span, msg));
    };
    if let Some(u) = raw.upstream {
        if let Some(version) = u.version {
            match vgc_ir::Upstream::parse(version.get_ref()) {
                Some(v) => cfg.upstream = Some(v),
                None => {
                    let known = vgc_ir::Upstream::ALL.map(|u| format!("\"{u}\"")).join(", ");
                    err(
                        version.span(),
                        format!(
                            "upstream.version: unknown upstream version {:?} (known: {known})",
                            version.get_ref()
                        ),
                    );
                }
            }
        }
        if let Some(prefix) = u.tag_prefix {
            match vgc_ir::TagPrefix::parse(prefix.get_ref()) {
                Ok(p) => cfg.tag_prefix = Some(p),
                Err(e) => err(
                    prefix.span(),
                    format!(
                        "upstream.tag-prefix: {}",
                        e.trim_start_matches("--tag-prefix ")
                    ),
                ),
            }
        }
    }
    cfg.vgc_extensions = raw.extensions.and_then(|e| e.enabled).unwrap_or(false);
    if let Some(lint) = raw.lint {
        cfg.deny_warnings = lint.deny_warnings.unwrap_or(false);
        cfg.drift_exceptions = lint
            .drift_exceptions
            .map(|f| path.parent().unwrap_or(Path::new(".")).join(f));
        if let Some(u) = lint.docs_url {
            match url::Url::parse(u.get_ref()) {
                Ok(url) => cfg.docs_url = Some(url),
                Err(e) => err(
                    u.span(),
                    format!(
                        "lint.docs-url: {:?} is not an absolute URL ({e})",
                        u.get_ref()
                    ),
                ),
            }
        }
        for (code, sev) in lint.severity.unwrap_or_default() {
            let Some(c) = Code::parse(code.get_ref()).filter(|c| c.is_lint()) else {
                err(
                    code.span(),
                    format!(
                        "lint.severity: `{}` is not a lint code (VGC03xx, VGC04xx)",
                        code.get_ref()
                    ),
                );
                continue;
            };
            let s = match sev.get_ref().as_str() {
                "error" => Some(Severity::Error),
                "warning" => Some(Severity::Warning),
                "off" => None,
                _ => {
                    err(
                        sev.span(),
                        format!(
                            "lint.severity.{}: expected \"error\", \"warning\" or \"off\"",
                            code.get_ref()
                        ),
                    );
                    continue;
                }
            };
            cfg.lint.severities.insert(c, s);
        }
    }
    if let Some(build) = raw.build {
        let dir = path.parent().unwrap_or(Path::new("."));
        cfg.extension_files = build
            .validation_extensions_files
            .unwrap_or_default()
            .iter()
            .map(|f| dir.join(f).to_string_lossy().into_owned())
            .collect();
        let go_target = build.target.as_ref().is_some_and(|t| t.get_ref() == "go");
        if go_target {
            let mut go = crate::request::GoTarget::default();
            if let Some(f) = &build.go_output_file {
                match crate::request::GoTarget::check_output_file(f.get_ref()) {
                    Ok(()) => go.output_file.clone_from(f.get_ref()),
                    Err(e) => err(f.span(), format!("build.go-output-file: {e}")),
                }
            }
            go.header_file = build
                .go_header_file
                .as_ref()
                .map(|h| dir.join(h.get_ref()).to_string_lossy().into_owned());
            fn text(v: &Option<toml::Spanned<String>>) -> Option<&str> {
                v.as_ref().map(|v| v.get_ref().as_str())
            }
            // upstream `Args.Validate`: the prefix and the allowlist only with a root.
            if text(&build.go_test_output_root).is_none_or(str::is_empty) {
                for (key, v) in [
                    (
                        "go-test-output-file-prefix",
                        &build.go_test_output_file_prefix,
                    ),
                    ("go-test-allowlist", &build.go_test_allowlist),
                ] {
                    if let Some(v) = v.as_ref().filter(|v| !v.get_ref().is_empty()) {
                        err(
                            v.span(),
                            format!("build.{key}: only with `go-test-output-root`"),
                        );
                    }
                }
            }
            go.coverage = crate::request::CoverageFixtures::resolve(
                dir,
                text(&build.go_test_output_root),
                text(&build.go_test_output_file_prefix),
                text(&build.go_test_allowlist),
            );
            cfg.go = Some(go);
        } else if let Some(v) = [
            &build.go_test_output_root,
            &build.go_test_output_file_prefix,
            &build.go_test_allowlist,
        ]
        .into_iter()
        .flatten()
        .next()
        {
            err(
                v.span(),
                "build.go-test-*: only with `target = \"go\"`".into(),
            );
        } else if let Some(f) = &build.go_output_file {
            err(
                f.span(),
                "build.go-output-file: only with `target = \"go\"`".into(),
            );
        } else if let Some(h) = &build.go_header_file {
            err(
                h.span(),
                "build.go-header-file: only with `target = \"go\"`".into(),
            );
        }
        match (
            build.target.filter(|_| !go_target),
            build.k8s_openapi_version,
        ) {
            (None, None) => {}
            (Some(t), version) => match (t.get_ref().as_str(), version) {
                ("vgc", None) => cfg.target = Some(vgc_codegen::Target::Own),
                ("k8s-openapi", Some(v)) => match target(Some("k8s-openapi"), Some(v.get_ref())) {
                    Ok(t) => cfg.target = Some(t),
                    Err(e) => err(v.span(), format!("build.k8s-openapi-version: {e}")),
                },
                ("k8s-openapi", None) => err(
                    t.span(),
                    "build.target: \"k8s-openapi\" needs `k8s-openapi-version` (e.g. \"1.37\")"
                        .into(),
                ),
                ("vgc", Some(v)) => err(
                    v.span(),
                    "build.k8s-openapi-version: only with `target = \"k8s-openapi\"`".into(),
                ),
                (other, _) => err(
                    t.span(),
                    format!(
                        "build.target: unknown target {other:?} (known: \"vgc\", \"k8s-openapi\", \"go\")"
                    ),
                ),
            },
            (None, Some(v)) => err(
                v.span(),
                "build.k8s-openapi-version: only with `target = \"k8s-openapi\"`".into(),
            ),
        }
        for (code, sev) in build.severity.unwrap_or_default() {
            let Some(c) = Code::parse(code.get_ref()).filter(|c| BUILD_CODES.contains(&c.as_str()))
            else {
                err(
                    code.span(),
                    format!(
                        "build.severity: `{}` cannot be changed (only {})",
                        code.get_ref(),
                        BUILD_CODES.join(", ")
                    ),
                );
                continue;
            };
            let s = match sev.get_ref().as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                _ => {
                    err(
                        sev.span(),
                        format!(
                            "build.severity.{}: expected \"error\" or \"warning\"",
                            code.get_ref()
                        ),
                    );
                    continue;
                }
            };
            cfg.build_severities.insert(c, s);
            // `vgc lint` reports every diagnostic of `vgc check` too: the same severity there (`[lint.severity]`
            // takes lint codes only, so the two never name one code).
            cfg.lint.severities.insert(c, Some(s));
        }
    }
    if errors.is_empty() {
        Ok(cfg)
    } else {
        Err(ConfigError {
            path: path.display().to_string(),
            lines: errors
                .iter()
                .map(|(span, msg)| format!("{}: {msg}", position(path, text, span.start)))
                .collect(),
            problems: errors
                .into_iter()
                .map(|(span, msg)| (Some(span), msg))
                .collect(),
        })
    }
}

/// The target `--target`/`--k8s-openapi-version` (or `vgc.toml`'s `[build]` keys) name: `vgc` (the default) or
/// `k8s-openapi` with one of the k8s-openapi versions (`1.33`…`1.37`).
///
/// # Errors
/// A message for an unknown target, an unknown version, `k8s-openapi` without a version, or a version without it.
pub fn target(
    name: Option<&str>,
    k8s_openapi_version: Option<&str>,
) -> Result<vgc_codegen::Target, String> {
    use vgc_codegen::k8s_openapi::K8sOpenapiVersion;
    let known = || {
        K8sOpenapiVersion::ALL
            .map(|v| format!("\"{v}\""))
            .join(", ")
    };
    match (name.unwrap_or("vgc"), k8s_openapi_version) {
        ("vgc", None) => Ok(vgc_codegen::Target::Own),
        ("vgc", Some(_)) => {
            Err("a k8s-openapi version is only used with the k8s-openapi target".into())
        }
        ("k8s-openapi", None) => Err(format!(
            "the k8s-openapi target needs a k8s-openapi version (known: {})",
            known()
        )),
        ("k8s-openapi", Some(v)) => K8sOpenapiVersion::parse(v)
            .map(vgc_codegen::Target::K8sOpenapi)
            .ok_or_else(|| format!("unknown k8s-openapi version {v:?} (known: {})", known())),
        (other, _) => Err(format!(
            "unknown target {other:?} (known: \"vgc\", \"k8s-openapi\")"
        )),
    }
}

/// The upstream profile for `path` chosen by the user: `flag` (`--upstream`) wins, else `vgc.toml`'s
/// `[upstream] version` (the file `config` names, or the one [`find`] locates). `None`: detect it from `go.mod`.
///
/// # Errors
/// An unknown `flag` version, or as [`load`].
pub fn upstream_for(
    path: &Path,
    flag: Option<&str>,
    config: Option<&Path>,
) -> Result<Option<vgc_ir::profile::Selected>, String> {
    use vgc_ir::profile::Selected;
    if let Some(f) = flag {
        let version = vgc_ir::Upstream::parse(f).ok_or_else(|| {
            let known = vgc_ir::Upstream::ALL.map(|u| u.as_str()).join(", ");
            format!("--upstream {f}: unknown upstream version (known: {known})")
        })?;
        return Ok(Some(Selected {
            version,
            why: "--upstream".into(),
        }));
    }
    let Some(file) = config.map(Path::to_path_buf).or_else(|| find(path)) else {
        return Ok(None);
    };
    Ok(load(&file)?.upstream.map(|version| Selected {
        version,
        why: format!("set in {}", file.display()),
    }))
}

/// The tag prefix for `path`: `flag` (`--tag-prefix`) wins, else `vgc.toml`'s `[upstream] tag-prefix` (the file
/// `config` names, or the one [`find`] locates), else `k8s:`.
///
/// # Errors
/// An invalid `flag` (upstream's message, [`vgc_ir::TagPrefix::parse`]), or as [`load`].
pub fn tag_prefix_for(
    path: &Path,
    flag: Option<&str>,
    config: Option<&Path>,
) -> Result<vgc_ir::TagPrefix, String> {
    if let Some(f) = flag {
        return vgc_ir::TagPrefix::parse(f);
    }
    let Some(file) = config.map(Path::to_path_buf).or_else(|| find(path)) else {
        return Ok(vgc_ir::TagPrefix::default());
    };
    Ok(load(&file)?.tag_prefix.unwrap_or_default())
}

/// Reads a drift exceptions file into the lint settings.
///
/// # Errors
/// `file:line: message` for an unreadable file or a malformed line.
pub fn load_exceptions(path: &Path, settings: &mut LintSettings) -> Result<(), String> {
    let bytes = crate::sys::read_regular(path, MAX_CONFIG_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    settings.exceptions = vgc_lowering::drift::parse_exceptions(&text)
        .map_err(|(line, msg)| format!("{}:{line}: {msg}", path.display()))?;
    Ok(())
}

/// The settings `vgc lint` uses for `path`: `config` (or the `vgc.toml` [`find`] locates), and the drift exceptions
/// from `exceptions`, else the config's `drift-exceptions`, else `vgc-drift-exceptions.txt` in `path` if present.
///
/// # Errors
/// As [`load`] and [`load_exceptions`].
pub fn settings_for(
    path: &Path,
    config: Option<&Path>,
    exceptions: Option<&Path>,
) -> Result<Config, String> {
    let cfg_path = config.map(Path::to_path_buf).or_else(|| find(path));
    let mut cfg = match cfg_path {
        Some(p) => load(&p)?,
        None => Config::default(),
    };
    let default_exceptions = path.join("vgc-drift-exceptions.txt");
    let file = exceptions
        .map(Path::to_path_buf)
        .or_else(|| cfg.drift_exceptions.clone())
        .or_else(|| default_exceptions.is_file().then_some(default_exceptions));
    if let Some(f) = file {
        load_exceptions(&f, &mut cfg.lint)?;
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let p = dir.path().join("vgc.toml");
        std::fs::write(&p, text).map_err(|e| e.to_string())?;
        load(&p).map_err(|e| e.to_string().replace(&p.display().to_string(), "vgc.toml"))
    }

    #[test]
    fn reads_validation_extensions_files_relative_to_the_file() {
        let c = super::parse(
            "[build]\nvalidation-extensions-files = [\"formats.yaml\", \"x/more.yaml\"]\n",
            Path::new("/m/vgc.toml"),
        )
        .expect("valid");
        assert_eq!(c.extension_files, ["/m/formats.yaml", "/m/x/more.yaml"]);
        assert!(
            parse("[build]\nvalidation-extensions-files = \"one.yaml\"\n")
                .err()
                .is_some_and(|e| e.starts_with("vgc.toml:2:31: ")),
        );
    }

    /// The coverage fixtures' keys (validation-gen's `--test-output-root` and companions): paths against the file's
    /// directory, lexically; the prefix or allowlist without a root, or any of them without `target = "go"`, is an
    /// error at the key.
    #[test]
    fn reads_the_go_coverage_fixture_keys() {
        let c = super::parse(
            "[build]\ntarget = \"go\"\ngo-test-output-root = \"test/dv\"\ngo-test-output-file-prefix = \"zz.\"\ngo-test-allowlist = \"../hack/allow.yaml\"\n",
            Path::new("/m/k/vgc.toml"),
        )
        .expect("valid");
        assert_eq!(
            c.go.and_then(|g| g.coverage),
            Some(crate::request::CoverageFixtures {
                root: "/m/k/test/dv".into(),
                file_prefix: "zz.".into(),
                allowlist: Some("/m/hack/allow.yaml".into()),
            })
        );
        assert_eq!(
            parse("[build]\ntarget = \"go\"\ngo-test-allowlist = \"a.yaml\"\n").err(),
            Some("vgc.toml:3:21: build.go-test-allowlist: only with `go-test-output-root`".into())
        );
        assert_eq!(
            parse("[build]\ngo-test-output-root = \"dv\"\n").err(),
            Some("vgc.toml:2:23: build.go-test-*: only with `target = \"go\"`".into())
        );
    }

    #[test]
    fn reads_the_extensions_switch() {
        assert!(!parse("").expect("valid").vgc_extensions);
        assert!(
            parse("[extensions]\nenabled = true\n")
                .expect("valid")
                .vgc_extensions
        );
        assert!(
            !parse("[extensions]\nenabled = false\n")
                .expect("valid")
                .vgc_extensions
        );
        assert!(
            parse("[extensions]\nenable = true\n")
                .err()
                .is_some_and(|e| e.starts_with("vgc.toml:2:1: unknown field `enable`")),
        );
    }

    #[test]
    fn reads_build_severities_and_rejects_other_codes() {
        let c = parse("[build.severity]\nVGC0102 = \"warning\"\n").expect("valid");
        assert_eq!(
            c.build_severities
                .get(&Code::parse("VGC0102").expect("code")),
            Some(&Severity::Warning)
        );
        // `vgc lint` applies them too (it reports every diagnostic of `vgc check`).
        assert_eq!(
            c.lint
                .severities
                .get(&Code::parse("VGC0102").expect("code")),
            Some(&Some(Severity::Warning))
        );
        assert_eq!(
            parse("[build.severity]\nVGC0110 = \"warning\"\n")
                .err()
                .as_deref(),
            Some(
                "vgc.toml:2:1: build.severity: `VGC0110` cannot be changed (only VGC0102, VGC0121, VGC0128)"
            )
        );
        assert_eq!(
            parse("[build.severity]\nVGC0102 = \"off\"\n")
                .err()
                .as_deref(),
            Some("vgc.toml:2:11: build.severity.VGC0102: expected \"error\" or \"warning\"")
        );
    }

    #[test]
    fn reads_the_docs_url_and_rejects_a_relative_one() {
        let c = parse("[lint]\ndocs-url = \"https://docs.example.com/vgc/diagnostics.html\"\n")
            .expect("valid");
        assert_eq!(
            c.docs_url.map(String::from).as_deref(),
            Some("https://docs.example.com/vgc/diagnostics.html")
        );
        assert_eq!(parse("[lint]\n").expect("valid").docs_url, None);
        assert_eq!(
            parse("[lint]\ndocs-url = \"docs/diagnostics.md\"\n")
                .err()
                .as_deref(),
            Some(
                "vgc.toml:2:12: lint.docs-url: \"docs/diagnostics.md\" is not an absolute URL (relative URL without a base)"
            )
        );
    }

    #[test]
    fn reads_lint_settings_and_rejects_mistakes() {
        let c = parse("[lint]\ndeny-warnings = true\n[lint.severity]\nVGC0311 = \"off\"\nVGC0310 = \"error\"\n")
            .expect("valid");
        assert!(c.deny_warnings);
        assert_eq!(c.lint.severities.get(&Code::LintListMarker), Some(&None));
        assert_eq!(
            c.lint.severities.get(&Code::LintDetachedTag),
            Some(&Some(Severity::Error))
        );
        assert_eq!(
            parse("[lint.severity]\nVGC0102 = \"off\"\n")
                .err()
                .as_deref(),
            Some("vgc.toml:2:1: lint.severity: `VGC0102` is not a lint code (VGC03xx, VGC04xx)")
        );
        assert_eq!(
            parse("[lint.severity]\nVGC0310 = \"loud\"\n")
                .err()
                .as_deref(),
            Some(
                "vgc.toml:2:11: lint.severity.VGC0310: expected \"error\", \"warning\" or \"off\""
            )
        );
        assert_eq!(
            parse("[watch]\n").err().as_deref(),
            Some(
                "vgc.toml:1:2: unknown field `watch`, expected one of `upstream`, `lint`, `build`, `extensions`"
            )
        );
        assert_eq!(
            parse("[upstream]\nversion = \"1.36\"\n")
                .expect("valid")
                .upstream,
            Some(vgc_ir::Upstream::V1_36)
        );
        assert_eq!(
            parse("[upstream]\nversion = \"1.34\"\n").err().as_deref(),
            Some(
                "vgc.toml:2:11: upstream.version: unknown upstream version \"1.34\" (known: \"1.35\", \"1.36\", \"1.37\", \"1.38\")"
            )
        );
        assert_eq!(
            parse("[upstream]\nrelease = \"1.36\"\n").err().as_deref(),
            Some("vgc.toml:2:1: unknown field `release`, expected `version` or `tag-prefix`")
        );
        // `[upstream] tag-prefix` (kubernetes#141866), with or without a version; upstream's rule for its value.
        let cfg = parse("[upstream]\ntag-prefix = \"acme:\"\n").expect("valid");
        assert_eq!(
            cfg.tag_prefix.as_ref().map(vgc_ir::TagPrefix::as_str),
            Some("acme:")
        );
        assert_eq!(cfg.upstream, None);
        assert_eq!(
            parse("[upstream]\ntag-prefix = \"\"\n")
                .expect("valid")
                .tag_prefix
                .map(|p| p.to_string()),
            Some(String::new())
        );
        assert_eq!(
            parse("[upstream]\nversion = \"1.38\"\ntag-prefix = \"acme\"\n")
                .err()
                .as_deref(),
            Some(
                "vgc.toml:3:14: upstream.tag-prefix: \"acme\" must be empty or one or more ':'-terminated tag name segments (e.g. \"k8s:\")"
            )
        );
        assert!(parse("[lint\n").is_err());
        // Every invalid value is reported, each at its position.
        assert_eq!(
            parse("[lint.severity]\nVGC0102 = \"off\"\nVGC0310 = \"loud\"\n[build.severity]\nVGC0102 = \"never\"\n")
                .err()
                .as_deref(),
            Some(
                "vgc.toml:2:1: lint.severity: `VGC0102` is not a lint code (VGC03xx, VGC04xx)\n\
                 vgc.toml:3:11: lint.severity.VGC0310: expected \"error\", \"warning\" or \"off\"\n\
                 vgc.toml:5:11: build.severity.VGC0102: expected \"error\" or \"warning\""
            )
        );
        // A wrong type is refused with its position.
        assert_eq!(
            parse("[lint]\ndeny-warnings = \"yes\"\n").err().as_deref(),
            Some("vgc.toml:2:17: invalid type: string \"yes\", expected a boolean")
        );
    }
}
