//! `vgc.toml`: project settings, the `[upstream]` and `[lint]` tables:
//!
//! ```toml
//! [upstream]
//! version = "1.37"                # the upstream profile (docs/upstream.md); default: detected from go.mod
//!
//! [lint]
//! deny-warnings = true            # like `vgc lint --deny warnings`
//! drift-exceptions = "drift.txt"  # relative to this file (default: vgc-drift-exceptions.txt beside it, if any)
//! [lint.severity]
//! VGC0311 = "off"                 # "error" | "warning" | "off", lint codes (VGC03xx, VGC04xx) only
//! VGC0310 = "error"
//! ```
//!
//! and the `[build]` table, read by `vgc build`, `vgc check` and `vgc watch`:
//!
//! ```toml
//! [build.severity]
//! VGC0102 = "warning"             # unknown tags (deviation D1): "error" (default) | "warning"
//! ```
//!
//! The file is looked up in the linted (built) directory and its parents up to the Go module root (the first
//! directory with a `go.mod`), unless `--config` names one.

use crate::driver::LintSettings;
use std::path::{Path, PathBuf};
use vgc_ir::{Code, Severity};

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
    /// `[upstream] version`.
    pub upstream: Option<vgc_ir::Upstream>,
    /// `[build.severity]`: code → severity for the diagnostics of `vgc build`/`check` (only [`BUILD_CODES`]).
    pub build_severities: std::collections::BTreeMap<Code, Severity>,
}

/// The codes whose severity `[build.severity]` may change: `VGC0102` (an unknown `+k8s:` tag, which upstream
/// ignores: deviation D1 of `docs/deviations.md`).
pub const BUILD_CODES: &[&str] = &["VGC0102"];

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
        if candidate.is_file() {
            return Some(candidate);
        }
        if d.join("go.mod").is_file() {
            return None;
        }
        dir = d.parent();
    }
    None
}

/// Reads and validates a `vgc.toml`.
///
/// # Errors
/// A message naming the file, and the key when the problem is one: unreadable file, TOML syntax, an unknown key,
/// an unknown or non-lint code, a severity other than `error`, `warning` or `off`, or an upstream version that is
/// not one of the profiles.
pub fn load(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text, path)
}

/// Parses `vgc.toml` text read from `path` (named in messages; relative settings resolve against its directory).
///
/// # Errors
/// As [`load`].
pub fn parse(text: &str, path: &Path) -> Result<Config, String> {
    let value: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("{}: {}", path.display(), e.message()))?;
    let mut cfg = Config {
        path: Some(path.to_path_buf()),
        ..Config::default()
    };
    for (k, v) in &value {
        if k == "upstream" {
            cfg.upstream = Some(upstream_table(path, v)?);
            continue;
        }
        if k == "build" {
            parse_build(v, path, &mut cfg)?;
            continue;
        }
        if k != "lint" {
            return Err(format!(
                "{}: unknown table `{k}` (known: `lint`, `build`, `upstream`)",
                path.display()
            ));
        }
        let Some(lint) = v.as_table() else {
            return Err(format!("{}: `lint` must be a table", path.display()));
        };
        for (k, v) in lint {
            match (k.as_str(), v) {
                ("deny-warnings", toml::Value::Boolean(b)) => cfg.deny_warnings = *b,
                ("drift-exceptions", toml::Value::String(f)) => {
                    cfg.drift_exceptions = Some(path.parent().unwrap_or(Path::new(".")).join(f));
                }
                ("severity", toml::Value::Table(t)) => {
                    for (code, sev) in t {
                        let c = Code::parse(code).filter(|c| c.is_lint()).ok_or_else(|| {
                            format!(
                                "{}: lint.severity: `{code}` is not a lint code (VGC03xx, VGC04xx)",
                                path.display()
                            )
                        })?;
                        let s = match sev.as_str() {
                            Some("error") => Some(Severity::Error),
                            Some("warning") => Some(Severity::Warning),
                            Some("off") => None,
                            _ => {
                                return Err(format!(
                                    "{}: lint.severity.{code}: expected \"error\", \"warning\" or \"off\"",
                                    path.display()
                                ));
                            }
                        };
                        cfg.lint.severities.insert(c, s);
                    }
                }
                _ => {
                    return Err(format!(
                        "{}: lint.{k}: unknown key or wrong type (known: `deny-warnings = bool`, `drift-exceptions = \"file\"`, `[lint.severity]`)",
                        path.display()
                    ));
                }
            }
        }
    }
    Ok(cfg)
}

/// `[upstream]`: `version = "1.NN"`, one of the profiles.
fn upstream_table(path: &Path, v: &toml::Value) -> Result<vgc_ir::Upstream, String> {
    let known = vgc_ir::Upstream::ALL.map(|u| format!("\"{u}\"")).join(", ");
    let table = v
        .as_table()
        .ok_or_else(|| format!("{}: `upstream` must be a table", path.display()))?;
    let mut version = None;
    for (k, v) in table {
        match (k.as_str(), v.as_str()) {
            ("version", Some(s)) => {
                version = Some(vgc_ir::Upstream::parse(s).ok_or_else(|| {
                    format!(
                        "{}: upstream.version: unknown upstream version {s:?} (known: {known})",
                        path.display()
                    )
                })?);
            }
            _ => {
                return Err(format!(
                    "{}: upstream.{k}: unknown key or wrong type (known: `version = \"1.NN\"`)",
                    path.display()
                ));
            }
        }
    }
    version.ok_or_else(|| format!("{}: upstream: `version` is missing", path.display()))
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

/// The `[build]` table: `[build.severity]` with codes of [`BUILD_CODES`] set to `"error"` or `"warning"`.
fn parse_build(v: &toml::Value, path: &Path, cfg: &mut Config) -> Result<(), String> {
    let Some(build) = v.as_table() else {
        return Err(format!("{}: `build` must be a table", path.display()));
    };
    for (k, v) in build {
        let (Some(t), "severity") = (v.as_table(), k.as_str()) else {
            return Err(format!(
                "{}: build.{k}: unknown key or wrong type (known: `[build.severity]`)",
                path.display()
            ));
        };
        for (code, sev) in t {
            let c = Code::parse(code)
                .filter(|c| BUILD_CODES.contains(&c.as_str()))
                .ok_or_else(|| {
                    format!(
                        "{}: build.severity: `{code}` cannot be changed (only {})",
                        path.display(),
                        BUILD_CODES.join(", ")
                    )
                })?;
            let s = match sev.as_str() {
                Some("error") => Severity::Error,
                Some("warning") => Severity::Warning,
                _ => {
                    return Err(format!(
                        "{}: build.severity.{code}: expected \"error\" or \"warning\"",
                        path.display()
                    ));
                }
            };
            cfg.build_severities.insert(c, s);
        }
    }
    Ok(())
}

/// Reads a drift exceptions file into the lint settings.
///
/// # Errors
/// `file:line: message` for an unreadable file or a malformed line.
pub fn load_exceptions(path: &Path, settings: &mut LintSettings) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
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
        load(&p).map_err(|e| e.replace(&p.display().to_string(), "vgc.toml"))
    }

    #[test]
    fn reads_build_severities_and_rejects_other_codes() {
        let c = parse("[build.severity]\nVGC0102 = \"warning\"\n").expect("valid");
        assert_eq!(
            c.build_severities
                .get(&Code::parse("VGC0102").expect("code")),
            Some(&Severity::Warning)
        );
        assert_eq!(
            parse("[build.severity]\nVGC0110 = \"warning\"\n")
                .err()
                .as_deref(),
            Some("vgc.toml: build.severity: `VGC0110` cannot be changed (only VGC0102)")
        );
        assert_eq!(
            parse("[build.severity]\nVGC0102 = \"off\"\n")
                .err()
                .as_deref(),
            Some("vgc.toml: build.severity.VGC0102: expected \"error\" or \"warning\"")
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
            Some("vgc.toml: lint.severity: `VGC0102` is not a lint code (VGC03xx, VGC04xx)")
        );
        assert_eq!(
            parse("[lint.severity]\nVGC0310 = \"loud\"\n")
                .err()
                .as_deref(),
            Some("vgc.toml: lint.severity.VGC0310: expected \"error\", \"warning\" or \"off\"")
        );
        assert_eq!(
            parse("[watch]\n").err().as_deref(),
            Some("vgc.toml: unknown table `watch` (known: `lint`, `build`, `upstream`)")
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
                "vgc.toml: upstream.version: unknown upstream version \"1.34\" (known: \"1.35\", \"1.36\", \"1.37\", \"1.38\")"
            )
        );
        assert_eq!(
            parse("[upstream]\nrelease = \"1.36\"\n").err().as_deref(),
            Some(
                "vgc.toml: upstream.release: unknown key or wrong type (known: `version = \"1.NN\"`)"
            )
        );
        assert!(parse("[lint\n").is_err());
    }
}
