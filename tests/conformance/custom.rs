//! The Rust twin of `tests/conformance/custom/custom.go`: the hand-written `customValidation` functions of the
//! conformance packages, copied to the generated crate's `src/custom.rs` by `tests/tests/conformance.rs`.

use vgc_runtime::{BadValue, Error, ErrorList, Operation, Path};

/// Implements every module's `Custom` trait.
pub struct Custom;

impl crate::custom_::Custom for Custom {
    fn validate_custom_request_requester(
        _: &Operation,
        path: &Path<'_>,
        value: Option<&String>,
        _: Option<&String>,
    ) -> ErrorList {
        match value {
            Some(v) if v == "nobody" => {
                vec![Error::invalid(path, BadValue::Str(v.clone()), "must name somebody").with_origin("custom")]
            }
            _ => Vec::new(),
        }
    }

    fn validate_custom_token(
        op: &Operation,
        path: &Path<'_>,
        value: Option<&crate::custom_::Token>,
        old: Option<&crate::custom_::Token>,
    ) -> ErrorList {
        match (op.is_update(), value, old) {
            (true, Some(v), Some(o)) if v != o && o.len() > 7 && o.starts_with("locked-") => {
                vec![Error::forbidden(path, "a locked token may not change")]
            }
            _ => Vec::new(),
        }
    }
}
