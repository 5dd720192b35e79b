//! The `PATH` argument every command takes: what the user typed, resolved the way `go vet` and `golangci-lint`
//! resolve theirs, against the current directory and nothing else (no path of the machine vgc was built on).
//!
//! - no `PATH` is the current directory;
//! - a directory (relative, `.`, `..`, absolute) selects the Go packages in it and below it — a module root, or
//!   a package directory anywhere inside a module (`go.mod` is searched in it and its ancestors);
//! - `DIR/...` (and `./...`, `...`) is Go's spelling of the same thing and is accepted as such;
//! - a `.go` file selects the package of its directory only (not the packages below it).
//!
//! The result is canonical (absolute, symbolic links and `..` resolved), so the `go.mod` search and the import
//! paths derived from directories never depend on how the path was spelled.

use camino::{Utf8Path, Utf8PathBuf};

/// Why a `PATH` argument cannot be used (exit code 2).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TargetError {
    /// The path does not exist or cannot be read.
    #[error("{path}: {reason}")]
    Unreadable {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The path exists but is neither a directory nor a `.go` file.
    #[error("{0}: not a directory or a .go file")]
    NotGo(String),
    /// The canonical path is not valid UTF-8 (diagnostics and import paths are UTF-8).
    #[error("{0}: the path is not valid UTF-8")]
    NotUtf8(String),
}

/// Resolves a `PATH` argument (`None`: the current directory) to the canonical absolute path of a directory or
/// of a `.go` file, with a trailing `/...` removed.
///
/// # Errors
/// [`TargetError`] when the path does not exist, is not a directory or `.go` file, or is not UTF-8.
pub fn resolve(path: Option<&str>) -> Result<String, TargetError> {
    let given = path.unwrap_or(".");
    let trimmed = strip_ellipsis(given);
    let canonical = std::fs::canonicalize(trimmed).map_err(|e| TargetError::Unreadable {
        path: given.to_string(),
        reason: e.to_string(),
    })?;
    let canonical =
        Utf8PathBuf::try_from(canonical).map_err(|_| TargetError::NotUtf8(given.to_string()))?;
    if canonical.is_dir() || (canonical.is_file() && canonical.extension() == Some("go")) {
        Ok(canonical.into_string())
    } else {
        Err(TargetError::NotGo(given.to_string()))
    }
}

/// `./...` → `.`, `apis/...` → `apis`, `...` → `.`; anything else unchanged.
fn strip_ellipsis(p: &str) -> &str {
    if p == "..." {
        return ".";
    }
    match p.strip_suffix("/...") {
        Some("") => "/",
        Some(rest) => rest,
        None => p,
    }
}

/// The directory of a resolved target: itself, or the directory of a `.go` file.
#[must_use]
pub fn dir_of(target: &str) -> &str {
    let p = Utf8Path::new(target);
    if p.extension() == Some("go") && !p.is_dir() {
        p.parent().map_or(target, Utf8Path::as_str)
    } else {
        target
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ellipsis_is_the_directory_itself() {
        assert_eq!(strip_ellipsis("./..."), ".");
        assert_eq!(strip_ellipsis("..."), ".");
        assert_eq!(strip_ellipsis("apis/v1/..."), "apis/v1");
        assert_eq!(strip_ellipsis("/..."), "/");
        assert_eq!(strip_ellipsis(".."), "..");
        assert_eq!(strip_ellipsis("a...b"), "a...b");
    }

    #[test]
    fn resolves_relative_paths_files_and_reports_bad_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = Utf8PathBuf::try_from(std::fs::canonicalize(dir.path()).expect("canonical"))
            .expect("utf-8");
        std::fs::create_dir_all(root.join("apis/v1")).expect("mkdir");
        std::fs::write(root.join("apis/v1/types.go"), "package v1\n").expect("write");
        std::fs::write(root.join("notes.txt"), "").expect("write");
        let abs = |rel: &str| resolve(Some(root.join(rel).as_str()));
        assert_eq!(abs("apis/v1/..").as_deref(), Ok(root.join("apis").as_str()));
        assert_eq!(abs("apis/..."), Ok(root.join("apis").into_string()));
        assert_eq!(
            abs("apis/v1/types.go"),
            Ok(root.join("apis/v1/types.go").into_string())
        );
        assert_eq!(
            dir_of(root.join("apis/v1/types.go").as_str()),
            root.join("apis/v1").as_str()
        );
        assert_eq!(
            abs("notes.txt"),
            Err(TargetError::NotGo(root.join("notes.txt").into_string()))
        );
        assert!(matches!(
            abs("missing"),
            Err(TargetError::Unreadable { .. })
        ));
    }
}
