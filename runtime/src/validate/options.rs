//! Validation options (upstream `options.go`): the error of an option the request does not define.

use crate::field::{Error, Path};

/// The upstream "undefined validation option" internal error.
#[must_use]
pub fn undefined_option(path: &Path<'_>, option: &str) -> Error {
    Error::internal(path, format!("undefined validation option {option:?}"))
}
