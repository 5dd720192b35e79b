//! The Rust twin of upstream's hand-written `ValidateCustom_*` functions of `output_tests/tags/customvalidation`
//! (`validations.go`, k8s.io/code-generator at the pinned release): structural markers that each report one
//! `Invalid` error, with a nil value and the function's name as detail, at the path they are called with. Copied to
//! the generated crate's `src/custom.rs` by `tests/tests/output_tests.rs`.

use vgc_runtime::{BadValue, Error, ErrorList, Operation, Path};

use crate::cmd::validation_gen::output_tests::tags::customvalidation as cv;

/// Implements the `Custom` trait of the `customvalidation` module.
pub struct Custom;

/// `field.Invalid(fldPath, nil, name)`.
fn marker(path: &Path<'_>, name: &str) -> ErrorList {
    vec![Error::invalid(path, BadValue::Json(serde_json::Value::Null), name)]
}

impl cv::Custom for Custom {
    fn validate_custom_option_struct_string_field(
        _: &Operation,
        path: &Path<'_>,
        _: Option<&String>,
        _: Option<&String>,
    ) -> ErrorList {
        marker(path, "ValidateCustom_OptionStruct_StringField")
    }

    fn validate_custom_other_struct_string_field(
        _: &Operation,
        path: &Path<'_>,
        _: Option<&String>,
        _: Option<&String>,
    ) -> ErrorList {
        marker(path, "ValidateCustom_OtherStruct_StringField")
    }

    fn validate_custom_string_type(
        _: &Operation,
        path: &Path<'_>,
        _: Option<&cv::StringType>,
        _: Option<&cv::StringType>,
    ) -> ErrorList {
        marker(path, "ValidateCustom_StringType")
    }

    fn validate_custom_struct(
        _: &Operation,
        path: &Path<'_>,
        _: Option<&cv::Struct>,
        _: Option<&cv::Struct>,
    ) -> ErrorList {
        marker(path, "ValidateCustom_Struct")
    }

    fn validate_custom_struct_max_length_field(
        _: &Operation,
        path: &Path<'_>,
        _: Option<&String>,
        _: Option<&String>,
    ) -> ErrorList {
        marker(path, "ValidateCustom_Struct_MaxLengthField")
    }

    fn validate_custom_struct_string_field(
        _: &Operation,
        path: &Path<'_>,
        _: Option<&String>,
        _: Option<&String>,
    ) -> ErrorList {
        marker(path, "ValidateCustom_Struct_StringField")
    }
}
