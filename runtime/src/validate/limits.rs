//! Limits (upstream `limits.go`): bounds of integers, durations and quantities, lengths of strings, counts of bytes,
//! items and properties.

use super::{bad_value, one};
use crate::field::{BadValue, Error, ErrorList, Path};

/// Which side a `Minimum`/`Maximum`-family check bounds.
#[derive(Clone, Copy)]
enum Bound {
    Min,
    Max,
}

/// The one error of a failed bound check (upstream `content.MinError`/`MaxError`): `Invalid(path, value, "must be
/// greater than or equal to <bound>")` with origin `minimum`, or `… less than …` with origin `maximum`. `bound` is
/// already rendered as the release prints it (`%d`, a `Duration`'s or a `Quantity`'s `String()`).
fn bound_error(
    path: &Path<'_>,
    value: BadValue,
    side: Bound,
    bound: impl std::fmt::Display,
) -> ErrorList {
    let (word, origin) = match side {
        Bound::Min => ("greater", "minimum"),
        Bound::Max => ("less", "maximum"),
    };
    one(Error::invalid(
        path,
        value,
        format!("must be {word} than or equal to {bound}"),
    )
    .with_origin(origin))
}

/// upstream `Minimum`: `Invalid(path, value, "must be greater than or equal to N")`, origin `minimum`.
#[must_use]
pub fn minimum<T: Copy + Into<i128> + serde::Serialize>(
    path: &Path<'_>,
    value: Option<&T>,
    min: i128,
) -> ErrorList {
    match value {
        Some(v) if (*v).into() < min => bound_error(path, bad_value(v), Bound::Min, min),
        _ => Vec::new(),
    }
}

/// upstream `Maximum`: `Invalid(path, value, "must be less than or equal to N")`, origin `maximum`.
#[must_use]
pub fn maximum<T: Copy + Into<i128> + serde::Serialize>(
    path: &Path<'_>,
    value: Option<&T>,
    max: i128,
) -> ErrorList {
    match value {
        Some(v) if (*v).into() > max => bound_error(path, bad_value(v), Bound::Max, max),
        _ => Vec::new(),
    }
}

/// upstream ≥ 1.38 `Minimum` over `time.Duration` (an integer type with a `String` method; k8s.io/apimachinery
/// v0.38 `content.MinError` formats the bound with `%v`, so the detail shows `Duration.String()`: `must be greater
/// than or equal to 1s`). `value` and `min` are nanoseconds; the value is printed as the JSON number Go's
/// `ErrorBody` marshals. Before 1.38 (`%d`) the detail is the number of nanoseconds: use [`minimum`].
#[must_use]
pub fn minimum_duration(path: &Path<'_>, value: Option<&i64>, min: i64) -> ErrorList {
    match value {
        Some(v) if *v < min => bound_error(
            path,
            BadValue::Int(*v),
            Bound::Min,
            crate::types::go_duration_string(i128::from(min)),
        ),
        _ => Vec::new(),
    }
}

/// upstream ≥ 1.38 `Maximum` over `time.Duration`: `must be less than or equal to <Duration.String()>`, origin
/// `maximum` (see [`minimum_duration`]).
#[must_use]
pub fn maximum_duration(path: &Path<'_>, value: Option<&i64>, max: i64) -> ErrorList {
    match value {
        Some(v) if *v > max => bound_error(
            path,
            BadValue::Int(*v),
            Bound::Max,
            crate::types::go_duration_string(i128::from(max)),
        ),
        _ => Vec::new(),
    }
}

/// upstream `MinimumQuantity` (k8s.io/apimachinery v0.38): nil → ok; a value below `min` (compared as numbers, as
/// `Quantity.Cmp` does after parsing) → `Invalid(path, value.String(), "must be greater than or equal to
/// <min.String()>")`, origin `minimum`; both printed as Go's `String()` of the parsed text
/// ([`crate::types::Quantity::go_string_1_38`]).
/// No `+k8s:` tag emits it in 1.38.
#[must_use]
pub fn minimum_quantity(
    path: &Path<'_>,
    value: Option<&crate::types::Quantity>,
    min: &crate::types::Quantity,
) -> ErrorList {
    match value {
        Some(v) if v.cmp_value(min) == Some(std::cmp::Ordering::Less) => bound_error(
            path,
            BadValue::Str(v.go_string_1_38()),
            Bound::Min,
            min.go_string_1_38(),
        ),
        _ => Vec::new(),
    }
}

/// upstream `MaximumQuantity` (k8s.io/apimachinery v0.38): `must be less than or equal to <max.String()>`, origin
/// `maximum` (see [`minimum_quantity`]).
#[must_use]
pub fn maximum_quantity(
    path: &Path<'_>,
    value: Option<&crate::types::Quantity>,
    max: &crate::types::Quantity,
) -> ErrorList {
    match value {
        Some(v) if v.cmp_value(max) == Some(std::cmp::Ordering::Greater) => bound_error(
            path,
            BadValue::Str(v.go_string_1_38()),
            Bound::Max,
            max.go_string_1_38(),
        ),
        _ => Vec::new(),
    }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// upstream `MaxLength` (runes): `TooLong(path, "<value omitted>", "may not be more than N characters")`.
#[must_use]
pub fn max_length(path: &Path<'_>, value: Option<&str>, max: i64) -> ErrorList {
    match value {
        Some(v) if i64::try_from(v.chars().count()).unwrap_or(i64::MAX) > max => {
            one(Error::too_long(
                path,
                format!(
                    "may not be more than {}",
                    plural(max, "character", "characters")
                ),
            )
            .with_origin("maxLength"))
        }
        _ => Vec::new(),
    }
}

/// upstream ≤ 1.35 `MaxLength` (apimachinery v0.35 `limits.go`: `len(*value)`, i.e. bytes, and `field.TooLong`'s
/// `"may not be more than N bytes"`), origin `maxLength`.
#[must_use]
pub fn max_length_bytes(path: &Path<'_>, value: Option<&str>, max: i64) -> ErrorList {
    max_bytes(path, value, max)
        .into_iter()
        .map(|e| e.with_origin("maxLength"))
        .collect()
}

/// upstream `MaxBytes`: `TooLong(path, "<value omitted>", "may not be more than N bytes")`.
#[must_use]
pub fn max_bytes(path: &Path<'_>, value: Option<&str>, max: i64) -> ErrorList {
    match value {
        Some(v) if i64::try_from(v.len()).unwrap_or(i64::MAX) > max => one(Error::too_long(
            path,
            format!("may not be more than {}", plural(max, "byte", "bytes")),
        )
        .with_origin("maxBytes")),
        _ => Vec::new(),
    }
}

/// upstream `MaxBytesSlice` (k8s.io/apimachinery v0.38; `+k8s:maxBytes` on `[]byte`, kubernetes#141811): a byte
/// slice of `len` bytes longer than `max` → `TooLong(path, "<value omitted>", "may not be more than N bytes")`,
/// origin `maxBytes`. A nil slice has length 0. Not a short-circuit.
#[must_use]
pub fn max_bytes_slice(path: &Path<'_>, len: usize, max: i64) -> ErrorList {
    if i64::try_from(len).unwrap_or(i64::MAX) > max {
        one(Error::too_long(
            path,
            format!("may not be more than {}", plural(max, "byte", "bytes")),
        )
        .with_origin("maxBytes"))
    } else {
        Vec::new()
    }
}

/// upstream `MinLength` (runes): `TooShort(path, value, "must be at least N characters")`.
#[must_use]
pub fn min_length(path: &Path<'_>, value: Option<&str>, min: i64) -> ErrorList {
    match value {
        Some(v) if i64::try_from(v.chars().count()).unwrap_or(i64::MAX) < min => {
            one(Error::too_short(
                path,
                BadValue::Str(v.to_string()),
                format!(
                    "must be at least {}",
                    plural(min, "character", "characters")
                ),
            )
            .with_origin("minLength"))
        }
        _ => Vec::new(),
    }
}

/// `TooMany(path, len, "must have at most N items")` with `origin` when `len > max` (shared by maxItems and
/// maxProperties, whose messages are identical upstream).
fn too_many(path: &Path<'_>, len: usize, max: i64, origin: &str) -> ErrorList {
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    if len > max {
        one(Error::too_many(
            path,
            len,
            format!("must have at most {}", plural(max, "item", "items")),
        )
        .with_origin(origin))
    } else {
        Vec::new()
    }
}

/// `TooFew(path, len, "must have at least N items")` with `origin` when `len < min` (minItems, minProperties).
fn too_few(path: &Path<'_>, len: usize, min: i64, origin: &str) -> ErrorList {
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    if len < min {
        one(Error::too_few(
            path,
            len,
            format!("must have at least {}", plural(min, "item", "items")),
        )
        .with_origin(origin))
    } else {
        Vec::new()
    }
}

/// upstream `MaxItems`: `TooMany(path, len, "must have at most N items")`, origin `maxItems`.
#[must_use]
pub fn max_items(path: &Path<'_>, len: usize, max: i64) -> ErrorList {
    too_many(path, len, max, "maxItems")
}

/// upstream `MinItems`: `TooFew(path, len, "must have at least N items")`, origin `minItems`.
#[must_use]
pub fn min_items(path: &Path<'_>, len: usize, min: i64) -> ErrorList {
    too_few(path, len, min, "minItems")
}

/// upstream `MaxProperties` (a nil map is skipped; Rust maps cannot be nil, so an empty map passes because
/// 0 ≤ N always holds).
#[must_use]
pub fn max_properties(path: &Path<'_>, len: usize, max: i64) -> ErrorList {
    too_many(path, len, max, "maxProperties")
}

/// upstream `MinProperties`: nil counts as 0.
#[must_use]
pub fn min_properties(path: &Path<'_>, len: usize, min: i64) -> ErrorList {
    too_few(path, len, min, "minProperties")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1.35's `MaxLength` counts bytes and says so, origin `maxLength` (apimachinery v0.35.10 `limits.go`); 1.36 on
    /// count runes.
    #[test]
    fn release_1_35_max_length() {
        let root = Path::Root;
        let path = root.child("name");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter().map(|e| format!("{e} [{}]", e.origin)).collect()
        };
        assert_eq!(
            show(max_length_bytes(&path, Some("éé"), 3)),
            ["name: Too long: may not be more than 3 bytes [maxLength]"]
        );
        assert_eq!(
            show(max_length_bytes(&path, Some("ab"), 1)),
            ["name: Too long: may not be more than 1 byte [maxLength]"]
        );
        assert!(max_length(&path, Some("éé"), 3).is_empty());
        assert!(max_length_bytes(&path, Some("abc"), 3).is_empty());
    }

    /// `Minimum`/`Maximum` over `time.Duration`: apimachinery v0.37 prints the bound with `%d` (nanoseconds, what
    /// [`minimum`] gives), v0.38 with `%v` (`Duration.String()`); the value is the JSON number in both. Upstream's
    /// texts as the runtime differential saw them.
    #[test]
    fn duration_bounds_by_release() {
        let root = Path::Root;
        let path = root.child("timeout");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter().map(|e| format!("{e} [{}]", e.origin)).collect()
        };
        let second = 1_000_000_000i64;
        assert_eq!(
            show(minimum(&path, Some(&(second - 1)), i128::from(second))),
            [
                "timeout: Invalid value: 999999999: must be greater than or equal to 1000000000 [minimum]"
            ]
        );
        assert_eq!(
            show(minimum_duration(&path, Some(&(second - 1)), second)),
            ["timeout: Invalid value: 999999999: must be greater than or equal to 1s [minimum]"]
        );
        assert_eq!(
            show(maximum_duration(
                &path,
                Some(&(5400 * second + 1)),
                5400 * second
            )),
            [
                "timeout: Invalid value: 5400000000001: must be less than or equal to 1h30m0s [maximum]"
            ]
        );
        assert_eq!(
            show(maximum_duration(&path, Some(&1501), 1500)),
            ["timeout: Invalid value: 1501: must be less than or equal to 1.5\u{b5}s [maximum]"]
        );
        assert!(minimum_duration(&path, Some(&second), second).is_empty());
        assert!(maximum_duration(&path, None, 0).is_empty());
    }

    /// `MaxBytesSlice` (v0.38): the value is omitted, `byte`/`bytes` as `field.TooLong`.
    #[test]
    fn max_bytes_slice_detail() {
        let root = Path::Root;
        let path = root.child("data");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter().map(|e| format!("{e} [{}]", e.origin)).collect()
        };
        assert_eq!(
            show(max_bytes_slice(&path, 2, 1)),
            ["data: Too long: may not be more than 1 byte [maxBytes]"]
        );
        assert_eq!(
            show(max_bytes_slice(&path, 5, 4)),
            ["data: Too long: may not be more than 4 bytes [maxBytes]"]
        );
        assert!(max_bytes_slice(&path, 4, 4).is_empty());
    }
}
