//! Monotonic values (upstream `monotonic.go`).

use super::{bad_value, one};
use crate::field::{Error, ErrorList, Path};
use crate::operation::Operation;

/// upstream `Monotonic`: on update, when both values are present and the new one is smaller →
/// `Invalid(path, new, "may not be decreased from <old>")`, origin `monotonic`.
#[must_use]
pub fn monotonic<T: Copy + Into<i128> + serde::Serialize>(
    path: &Path<'_>,
    op: &Operation,
    value: Option<&T>,
    old: Option<&T>,
) -> ErrorList {
    match (op.is_update(), value, old) {
        (true, Some(v), Some(o)) if (*v).into() < (*o).into() => one(Error::invalid(
            path,
            bad_value(v),
            format!("may not be decreased from {}", (*o).into()),
        )
        .with_origin("monotonic")),
        _ => Vec::new(),
    }
}
