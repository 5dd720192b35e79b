//! Equality (upstream `equality.go`): `eq` and `neq`.

use super::{bad_value, one};
use crate::field::{BadValue, Error, ErrorList, Path};

/// upstream `EQ` (1.38, apimachinery v0.38.0-beta.0 `validate/equality.go`) for strings: a value other than
/// `expected` is `NotSupported(path, value, ["<expected>"])` (`Unsupported value: "x": supported values:
/// "Always"`), no origin; nil is valid.
#[must_use]
pub fn eq_str(path: &Path<'_>, value: Option<&str>, expected: &str) -> ErrorList {
    match value {
        Some(v) if v != expected => one(Error::not_supported(
            path,
            BadValue::Str(v.to_string()),
            format!(
                "supported values: {}",
                serde_json::to_string(expected).unwrap_or_default()
            ),
        )),
        _ => Vec::new(),
    }
}

/// upstream `EQ` for integers and booleans: the supported value is `fmt.Sprint(expected)` quoted
/// (`supported values: "5"`), the bad value the value itself.
#[must_use]
pub fn eq<T: PartialEq + std::fmt::Display + serde::Serialize>(
    path: &Path<'_>,
    value: Option<&T>,
    expected: T,
) -> ErrorList {
    match value {
        Some(v) if *v != expected => one(Error::not_supported(
            path,
            bad_value(v),
            format!("supported values: \"{expected}\""),
        )),
        _ => Vec::new(),
    }
}

/// upstream `NEQ` for strings: `Invalid(path, value, "must not be equal to \"<v>\"")`, origin `neq`.
#[must_use]
pub fn neq_str(path: &Path<'_>, value: Option<&str>, disallowed: &str) -> ErrorList {
    match value {
        Some(v) if v == disallowed => one(Error::invalid(
            path,
            BadValue::Str(v.to_string()),
            format!("must not be equal to {disallowed:?}"),
        )
        .with_origin("neq")),
        _ => Vec::new(),
    }
}

/// upstream `NEQ` for integers and booleans (`%v`): `Invalid(path, value, "must not be equal to <v>")`.
#[must_use]
pub fn neq<T: PartialEq + std::fmt::Display + serde::Serialize>(
    path: &Path<'_>,
    value: Option<&T>,
    disallowed: T,
) -> ErrorList {
    match value {
        Some(v) if *v == disallowed => one(Error::invalid(
            path,
            bad_value(v),
            format!("must not be equal to {disallowed}"),
        )
        .with_origin("neq")),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `EQ` (apimachinery v0.38.0-beta.0 `equality.go`): `NotSupported` with the expected value as the one supported
    /// value (`fmt.Sprint`, quoted), no origin; nil and equal values pass.
    #[test]
    fn eq_1_38() {
        let root = Path::Root;
        let path = root.child("restartPolicy");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter().map(|e| format!("{e} [{}]", e.origin)).collect()
        };
        assert_eq!(
            show(eq_str(&path, Some("Never"), "Always")),
            ["restartPolicy: Unsupported value: \"Never\": supported values: \"Always\" []"]
        );
        assert!(eq_str(&path, Some("Always"), "Always").is_empty());
        assert!(eq_str(&path, None, "Always").is_empty());
        assert_eq!(
            show(eq(&path, Some(&4i128), 5)),
            ["restartPolicy: Unsupported value: 4: supported values: \"5\" []"]
        );
        assert_eq!(
            show(eq(&path, Some(&false), true)),
            ["restartPolicy: Unsupported value: false: supported values: \"true\" []"]
        );
        assert!(eq(&path, Some(&true), true).is_empty());
    }
}
