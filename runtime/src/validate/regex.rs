//! Patterns (upstream `regex.go`): the validator of project-defined formats.

use super::one;
use crate::field::{BadValue, Error, ErrorList, Path};

/// upstream `Matches` (k8s.io/apimachinery v0.38 `regex.go`, kubernetes#142116; the runtime of project-defined
/// formats): nil → ok; a value `re` does not match (not implicitly anchored) → `Invalid(path, value, message)`
/// with `origin` (`format=<name>`). The pattern is never part of the detail. `re` is a Go (RE2) pattern compiled
/// with [`crate::regex::compile_go`].
#[must_use]
pub fn matches(
    path: &Path<'_>,
    value: Option<&str>,
    re: &regex::Regex,
    message: &str,
    origin: &str,
) -> ErrorList {
    match value {
        Some(v) if !re.is_match(v) => {
            one(Error::invalid(path, BadValue::Str(v.to_string()), message).with_origin(origin))
        }
        _ => Vec::new(),
    }
}
