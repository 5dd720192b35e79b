//! `vgc validate --api MODULE@VERSION`: a Go module version resolved to its directory in the module cache, fetched
//! with `go mod download` when it is not there yet; and the default API tree, the newest release of `k8s.io/api` in
//! the module cache (a pre-release only when named).
//!
//! The module cache is found as the `go` command finds it: `$GOMODCACHE`, else what `go env GOMODCACHE` says (when
//! `go` is on `PATH`), else `$GOPATH/pkg/mod` (the first `GOPATH` entry), else `$HOME/go/pkg/mod`. Module paths and
//! versions are case-encoded there as Go does (`golang.org/x/mod/module.EscapePath`: each upper-case letter becomes
//! `!` and its lower-case form).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The module the default API tree comes from.
pub const DEFAULT_MODULE: &str = "k8s.io/api";

/// Why a module version could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Not in the module cache, and there is no `go` command to download it.
    #[error(
        "{module}@{version} is not in the Go module cache ({cache}) and the `go` command is not on PATH to download it: install Go and run `go mod download {module}@{version}`, or pass the module's directory to --api"
    )]
    NoGo {
        /// The module path.
        module: String,
        /// The version asked for.
        version: String,
        /// The module cache directories looked in.
        cache: String,
    },
    /// `go mod download` failed (an unknown version, no network, …): its message.
    #[error("go mod download {module}@{version}: {message}")]
    Download {
        /// The module path.
        module: String,
        /// The version asked for.
        version: String,
        /// What `go` said.
        message: String,
    },
    /// A version query (`latest`, `v0.37`, a branch) to resolve, and there is no `go` command to resolve it.
    #[error(
        "{module}@{query} is a version query, not a version, and the `go` command is not on PATH to resolve it: install Go, or name the version (--api {module}@vX.Y.Z) or the module's directory"
    )]
    NoGoQuery {
        /// The module path.
        module: String,
        /// The query.
        query: String,
    },
    /// `go list -m` could not resolve a version query: its message.
    #[error("go list -m {module}@{query}: {message}")]
    Query {
        /// The module path.
        module: String,
        /// The query.
        query: String,
        /// What `go` said.
        message: String,
    },
    /// No `--api` was given and the module cache holds no version of [`DEFAULT_MODULE`].
    #[error(
        "no --api given and the Go module cache ({cache}) holds no {DEFAULT_MODULE}: pass --api PATH or --api {DEFAULT_MODULE}@VERSION (fetched with `go mod download`)"
    )]
    NoDefault {
        /// The module cache directories looked in.
        cache: String,
    },
    /// No `--api` was given and the module cache holds only pre-releases of [`DEFAULT_MODULE`]: a pre-release is
    /// used only when named.
    #[error(
        "no --api given and the Go module cache ({cache}) holds only pre-releases of {DEFAULT_MODULE} (newest {newest}); a pre-release is used only when named: pass --api {DEFAULT_MODULE}@{newest}, or --api {DEFAULT_MODULE}@VERSION of a release (fetched with `go mod download`)"
    )]
    OnlyPreReleases {
        /// The module cache directories looked in.
        cache: String,
        /// The newest pre-release found.
        newest: String,
    },
}

/// `MODULE@VERSION` split, when `arg` is written that way and is not a path that exists: a module path (no leading
/// `/`, `.` or `~`, no empty segment) and a non-empty version without `/`.
#[must_use]
pub fn parse_module_version(arg: &str) -> Option<(&str, &str)> {
    if Path::new(arg).exists() || arg.starts_with(['/', '.', '~']) {
        return None;
    }
    let (module, version) = arg.rsplit_once('@')?;
    let ok = !module.is_empty()
        && !version.is_empty()
        && !version.contains('/')
        && module.split('/').all(|s| !s.is_empty());
    ok.then_some((module, version))
}

/// A module path or version as the module cache spells it (`golang.org/x/mod/module.EscapePath`): each upper-case
/// ASCII letter becomes `!` followed by its lower-case form (`github.com/Azure/x` → `github.com/!azure/x`).
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('!');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The module cache directories to look in, in order (see the module docs), without repeats.
#[must_use]
pub fn module_caches() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let env = std::env::var("GOMODCACHE").ok().filter(|c| !c.is_empty());
    if let Some(c) = env {
        out.push(c.into());
    } else {
        if let Some(c) = go_env_gomodcache() {
            out.push(c);
        }
        if let Some(c) = vgc_analysis::System::module_cache(&vgc_driver::sys::OsSystem) {
            out.push(c.into());
        }
    }
    out.dedup();
    out
}

fn go_env_gomodcache() -> Option<PathBuf> {
    let out = Command::new("go")
        .args(["env", "GOMODCACHE"])
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let dir = text.trim();
    (out.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir))
}

fn shown(caches: &[PathBuf]) -> String {
    if caches.is_empty() {
        return "not found: set GOMODCACHE, GOPATH or HOME".into();
    }
    caches
        .iter()
        .map(|c| c.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The version of [`DEFAULT_MODULE`] a directory is, when it is that module's directory in a module cache
/// (`…/k8s.io/api@v0.37.2`, or a package directory below it): for the release defaults of an `--api` given as a
/// path. `None` for any other directory.
#[must_use]
pub fn api_version_of_dir(dir: &Path) -> Option<String> {
    module_version_of_dir(dir, DEFAULT_MODULE)
}

/// The version of Go module `module` a directory is, when it is that module's directory in a module cache
/// (`…/<escaped module path>@<version>`, or a directory below it); `None` otherwise.
#[must_use]
pub fn module_version_of_dir(dir: &Path, module: &str) -> Option<String> {
    let dir = std::fs::canonicalize(dir).ok()?;
    let escaped = escape(module);
    let (parents, name) = escaped.rsplit_once('/').unwrap_or(("", escaped.as_str()));
    dir.ancestors().find_map(|a| {
        let v = a
            .file_name()?
            .to_str()?
            .strip_prefix(name)?
            .strip_prefix('@')?;
        let parent = a.parent()?;
        (parents.is_empty() || parent.ends_with(parents)).then(|| v.to_string())
    })
}

/// The module cache directory that `path` lies in, if any — the one the build itself reads imports from
/// (`$GOMODCACHE`, else `$GOPATH/pkg/mod`, else `~/go/pkg/mod`: [`vgc_analysis::System::module_cache`], no `go`
/// process) — compared after resolving symbolic links of the longest existing ancestor, so `out/` not yet created
/// under a module directory counts.
#[must_use]
pub fn module_cache_holding(path: &Path) -> Option<PathBuf> {
    let resolved = path
        .ancestors()
        .find_map(|a| {
            let c = std::fs::canonicalize(a).ok()?;
            Some(c.join(path.strip_prefix(a).ok()?))
        })
        .unwrap_or_else(|| path.to_path_buf());
    let cache = PathBuf::from(vgc_analysis::System::module_cache(
        &vgc_driver::sys::OsSystem,
    )?);
    let canonical = std::fs::canonicalize(&cache).unwrap_or_else(|_| cache.clone());
    resolved.starts_with(&canonical).then_some(cache)
}

/// How a module version was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The module's directory.
    pub dir: PathBuf,
    /// Whether `go mod download` fetched it (else it was already in the module cache).
    pub downloaded: bool,
    /// The concrete version (`v0.37.2`): the one asked for, or what a query (`latest`, `v0.37`) resolved to.
    pub version: String,
}

/// Whether `version` is a canonical Go module version (`v` + a semantic version: `v0.37.2`, `v0.38.0-beta.0`,
/// `v2.0.0+incompatible`, a pseudo-version), not a query such as `latest`, `upgrade`, `v0.37`, `<v0.38` or a
/// branch, which `go` resolves against the module proxy first.
#[must_use]
pub fn is_canonical_version(version: &str) -> bool {
    version
        .strip_prefix('v')
        .is_some_and(|v| semver::Version::parse(v).is_ok())
}

/// Runs `go ARGS` in a new temporary directory with `GOFLAGS=-mod=mod` (so no `go.mod` is read or changed); a
/// missing `go` is `ErrorKind::NotFound`.
fn go_in_temp(args: &[&str]) -> std::io::Result<std::process::Output> {
    let tmp = tempfile::tempdir()?;
    Command::new("go")
        .args(args)
        .current_dir(tmp.path())
        .env("GOFLAGS", "-mod=mod")
        .output()
}

/// The concrete version a version query names: `go list -m -json module@query` (run in a new temporary directory
/// with `GOFLAGS=-mod=mod`, so no `go.mod` is read or changed), its `Version`.
///
/// # Errors
/// [`ResolveError::NoGoQuery`] without `go` on `PATH`; [`ResolveError::Query`] when `go` cannot resolve it.
pub fn resolve_query(module: &str, query: &str) -> Result<String, ResolveError> {
    let fail = |message: String| ResolveError::Query {
        module: module.into(),
        query: query.into(),
        message,
    };
    let out = match go_in_temp(&["list", "-m", "-json", &format!("{module}@{query}")]) {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ResolveError::NoGoQuery {
                module: module.into(),
                query: query.into(),
            });
        }
        Err(e) => return Err(fail(format!("cannot run `go`: {e}"))),
    };
    let json: Option<serde_json::Value> = serde_json::from_slice(&out.stdout).ok();
    let field = |name: &str| {
        json.as_ref()
            .and_then(|v| v.get(name))
            .and_then(|v| v.as_str().or_else(|| v.get("Err").and_then(|e| e.as_str())))
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    if let Some(e) = field("Error") {
        return Err(fail(e));
    }
    match field("Version") {
        Some(v) if out.status.success() && is_canonical_version(&v) => Ok(v),
        _ => {
            let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
            Err(fail(if stderr.is_empty() {
                format!("exited with {} and reported no version", out.status)
            } else {
                stderr
            }))
        }
    }
}

/// The directory of `module@version`: `<module cache>/<escaped module>@<escaped version>` when it exists there;
/// otherwise what `go mod download -json module@version` reports as its `Dir` (run in a new temporary directory,
/// so no `go.mod` around it is read or changed, with `GOFLAGS=-mod=mod`), after which the requirements of its
/// `go.mod` are downloaded too (`go mod download -json` over a copy of that `go.mod`), so its imports resolve.
///
/// # Errors
/// [`ResolveError::NoGo`] when the module is not in the cache and `go` is not on `PATH`;
/// [`ResolveError::Download`] when `go mod download` fails, reports no directory, or cannot fetch a requirement.
pub fn resolve(module: &str, version: &str) -> Result<Resolved, ResolveError> {
    resolve_with(module, version, true)
}

/// [`resolve`] of a version or a version query: a query (not [`is_canonical_version`]: `latest`, `v0.37`) is
/// first resolved to its concrete version with [`resolve_query`], whose directory is then looked up in the module
/// cache (and downloaded only when missing), so `Resolved::version` is the version the tree is.
///
/// # Errors
/// As [`resolve`] and [`resolve_query`].
pub fn resolve_version_or_query(module: &str, version: &str) -> Result<Resolved, ResolveError> {
    if is_canonical_version(version) {
        return resolve(module, version);
    }
    let concrete = resolve_query(module, version)?;
    resolve(module, &concrete)
}

/// [`resolve`] without downloading the module's requirements: for a module vgc reads a file of, not an API tree
/// whose imports it follows (`k8s.io/kubernetes`' feature-gate defaults, [`crate::release`]).
///
/// # Errors
/// As [`resolve`].
pub fn resolve_alone(module: &str, version: &str) -> Result<Resolved, ResolveError> {
    resolve_with(module, version, false)
}

fn resolve_with(module: &str, version: &str, requirements: bool) -> Result<Resolved, ResolveError> {
    let caches = module_caches();
    let rel = format!("{}@{}", escape(module), escape(version));
    if let Some(dir) = caches.iter().map(|c| c.join(&rel)).find(|d| d.is_dir()) {
        return Ok(Resolved {
            dir,
            downloaded: false,
            version: version.into(),
        });
    }
    let download = |message: String| ResolveError::Download {
        module: module.into(),
        version: version.into(),
        message,
    };
    let tmp = tempfile::tempdir().map_err(|e| download(format!("a temporary directory: {e}")))?;
    let out = Command::new("go")
        .args(["mod", "download", "-json", &format!("{module}@{version}")])
        .current_dir(tmp.path())
        .env("GOFLAGS", "-mod=mod")
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ResolveError::NoGo {
                module: module.into(),
                version: version.into(),
                cache: shown(&caches),
            });
        }
        Err(e) => return Err(download(format!("cannot run `go`: {e}"))),
    };
    // `-json` prints the module (with `Error` set on failure) on stdout even when it exits non-zero.
    let json: Option<serde_json::Value> = serde_json::from_slice(&out.stdout).ok();
    let field = |name: &str| {
        json.as_ref()
            .and_then(|v| v.get(name))
            .and_then(serde_json::Value::as_str)
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    if let Some(e) = field("Error") {
        return Err(download(e));
    }
    match field("Dir") {
        Some(dir) if out.status.success() => {
            let dir = PathBuf::from(dir);
            if requirements {
                download_requirements(&dir, tmp.path()).map_err(download)?;
            }
            Ok(Resolved {
                dir,
                downloaded: true,
                version: version.into(),
            })
        }
        _ => {
            let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
            Err(download(if stderr.is_empty() {
                format!("exited with {} and reported no directory", out.status)
            } else {
                stderr
            }))
        }
    }
}

/// Downloads the requirements of the module in `dir` (what its `go.mod` requires: k8s.io/apimachinery and the rest
/// for k8s.io/api), which vgc reads from the module cache to resolve the API's imports: `go mod download -json`
/// over a copy of its `go.mod` in the temporary directory `tmp` (the module cache itself is read-only).
fn download_requirements(dir: &Path, tmp: &Path) -> Result<(), String> {
    let gomod = std::fs::read(dir.join("go.mod"))
        .map_err(|e| format!("{}: {e}", dir.join("go.mod").display()))?;
    std::fs::write(tmp.join("go.mod"), gomod).map_err(|e| format!("a temporary go.mod: {e}"))?;
    let out = Command::new("go")
        .args(["mod", "download", "-json"])
        .current_dir(tmp)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .map_err(|e| format!("cannot run `go`: {e}"))?;
    let errors: Vec<String> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter::<serde_json::Value>()
        .filter_map(|v| {
            v.ok()?
                .get("Error")
                .and_then(serde_json::Value::as_str)
                .map(String::from)
        })
        .collect();
    if !errors.is_empty() {
        return Err(format!("its requirements: {}", errors.join("; ")));
    }
    if !out.status.success() {
        return Err(format!(
            "its requirements: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(())
}

/// The newest version among the names of a module-cache directory's entries that are `<name>@<version>` (e.g.
/// `api@v0.37.2` for `name` `api`), by semantic version precedence: a pre-release loses to the release of the same
/// `x.y.z` (`v0.38.0-alpha.2` < `v0.38.0`); entries whose version is not `v` + a semantic version are ignored.
/// Returns the version as written.
#[must_use]
pub fn newest<'a>(name: &str, entries: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    entries
        .into_iter()
        .filter_map(|e| {
            let v = e.strip_prefix(name)?.strip_prefix('@')?;
            let parsed = semver::Version::parse(v.strip_prefix('v')?).ok()?;
            Some((parsed, v))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, v)| v)
}

/// The default API tree: the newest release of [`DEFAULT_MODULE`] in the module cache ([`newest`] over every cache
/// directory looked in, pre-releases left out: a `v0.38.0-beta.0` there is used only when `--api` names it), as
/// `(version, directory)`.
///
/// # Errors
/// [`ResolveError::NoDefault`] when there is no version, [`ResolveError::OnlyPreReleases`] when there are only
/// pre-releases.
pub fn default_api() -> Result<(String, PathBuf), ResolveError> {
    let caches = module_caches();
    let (parent, name) = DEFAULT_MODULE
        .rsplit_once('/')
        .unwrap_or(("", DEFAULT_MODULE));
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for c in &caches {
        let Ok(rd) = std::fs::read_dir(c.join(escape(parent))) else {
            continue;
        };
        for e in rd.flatten() {
            if e.path().is_dir()
                && let Some(n) = e.file_name().to_str()
            {
                found.push((n.to_string(), e.path()));
            }
        }
    }
    let is_release = |n: &&str| {
        n.strip_prefix(name)
            .and_then(|r| r.strip_prefix("@v"))
            .and_then(|v| semver::Version::parse(v).ok())
            .is_some_and(|v| v.pre.is_empty())
    };
    let Some(best) = newest(
        name,
        found.iter().map(|(n, _)| n.as_str()).filter(is_release),
    )
    .map(str::to_string) else {
        return Err(match newest(name, found.iter().map(|(n, _)| n.as_str())) {
            Some(pre) => ResolveError::OnlyPreReleases {
                cache: shown(&caches),
                newest: pre.to_string(),
            },
            None => ResolveError::NoDefault {
                cache: shown(&caches),
            },
        });
    };
    let dir = found
        .iter()
        .find(|(n, _)| n.strip_prefix(name).and_then(|r| r.strip_prefix('@')) == Some(&best))
        .map(|(_, p)| p.clone())
        .ok_or_else(|| ResolveError::NoDefault {
            cache: shown(&caches),
        })?;
    Ok((best, dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_case_encoded_as_go_does() {
        assert_eq!(escape("k8s.io/api"), "k8s.io/api");
        assert_eq!(
            escape("github.com/Azure/AzureSDK"),
            "github.com/!azure/!azure!s!d!k"
        );
        assert_eq!(escape("v1.0.0-RC1"), "v1.0.0-!r!c1");
    }

    #[test]
    fn queries_are_told_from_versions() {
        for v in [
            "v0.37.2",
            "v0.38.0-beta.0",
            "v2.0.0+incompatible",
            "v0.0.0-20260101000000-abcdefabcdef",
        ] {
            assert!(is_canonical_version(v), "{v}");
        }
        for q in [
            "latest", "upgrade", "patch", "v0.37", "v0", "<v0.38", "master", "0.37.2",
        ] {
            assert!(!is_canonical_version(q), "{q}");
        }
    }

    #[test]
    fn module_versions_are_told_from_paths() {
        assert_eq!(
            parse_module_version("k8s.io/api@v0.37.2"),
            Some(("k8s.io/api", "v0.37.2"))
        );
        assert_eq!(
            parse_module_version("example.com/x@latest"),
            Some(("example.com/x", "latest"))
        );
        assert_eq!(
            parse_module_version("/root/go/pkg/mod/k8s.io/api@v0.37.2"),
            None
        );
        assert_eq!(parse_module_version("./api@v1"), None);
        assert_eq!(parse_module_version("api"), None);
        assert_eq!(parse_module_version("k8s.io/api@"), None);
        assert_eq!(parse_module_version("@v1"), None);
        assert_eq!(parse_module_version("k8s.io//api@v1"), None);
    }

    #[test]
    fn the_newest_version_wins_and_pre_releases_lose_to_their_release() {
        let entries = [
            "api@v0.37.2",
            "api@v0.38.0-alpha.2",
            "api@v0.9.0",
            "apimachinery@v0.40.0",
            "api@latest",
        ];
        assert_eq!(newest("api", entries), Some("v0.38.0-alpha.2"));
        assert_eq!(
            newest(
                "api",
                ["api@v0.38.0-alpha.2", "api@v0.38.0", "api@v0.38.0-rc.0"]
            ),
            Some("v0.38.0")
        );
        assert_eq!(
            newest("api", ["api@v0.37.10", "api@v0.37.9"]),
            Some("v0.37.10")
        );
        assert_eq!(newest("api", ["apimachinery@v0.37.2"]), None);
    }
}
