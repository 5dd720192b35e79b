//! Immutability (upstream `immutable.go`).

use super::one;
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;

/// upstream `Immutable`: on update, `Invalid(path, nil, "field is immutable")`, origin `immutable`. Reached only
/// when the caller's ratchet saw a change.
#[must_use]
pub fn immutable(path: &Path<'_>, op: &Operation) -> ErrorList {
    if op.is_update() {
        one(Error::invalid(
            path,
            BadValue::Json(serde_json::Value::Null),
            "field is immutable",
        )
        .with_origin("immutable"))
    } else {
        Vec::new()
    }
}
