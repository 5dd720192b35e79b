//! Project-defined `+k8s:format` values (upstream `--validation-extensions-file`, kubernetes#142116, 1.38 on).
//!
//! The driver loads the files (`vgc::extensions`) into [`crate::Settings::formats`]; lowering reads them through
//! [`project_formats`] when a `+k8s:format=<name>` names no built-in format.

use std::sync::Arc;

/// One entry of an extensions file's `formats:` list (upstream `extensions.Format`), validated by the loader:
/// the name is lower-case dash-separated alphanumerics, not built-in, not `k8s-` prefixed, unique across files;
/// docs, pattern and message are non-empty and the pattern compiles as a Go (RE2) regular expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ProjectFormat {
    /// The value of `+k8s:format=<name>`; also the error origin `format=<name>`.
    pub name: String,
    /// One-line documentation, listed by `vgc docs` next to the built-in formats.
    pub docs: String,
    /// Go `regexp` syntax, unanchored (upstream `regexp.MatchString`).
    pub pattern: String,
    /// The `field.Invalid` detail when a value does not match (the pattern is never printed).
    pub message: String,
}

/// The project formats in force (empty when no settings exist yet or no extensions file was given).
#[must_use]
pub fn project_formats(db: &dyn crate::Db) -> Arc<[ProjectFormat]> {
    crate::Settings::try_get(db).map_or_else(|| Arc::from(Vec::new()), |s| s.formats(db).clone())
}

/// The project format named `name`, if any.
#[must_use]
pub fn project_format(db: &dyn crate::Db, name: &str) -> Option<ProjectFormat> {
    project_formats(db).iter().find(|f| f.name == name).cloned()
}
