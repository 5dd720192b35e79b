//! Enums (upstream `enum.go`), with option-dependent exclusions.

use super::{one, undefined_option};
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;

/// upstream `Enum` without exclusions: nil → ok; a value outside `valid` (sorted) → `NotSupported(path, value,
/// "supported values: \"a\", \"b\"")`, no origin.
#[must_use]
pub fn enum_value(path: &Path<'_>, value: Option<&str>, valid: &[&str]) -> ErrorList {
    match value {
        Some(v) if valid.binary_search(&v).is_err() => {
            let detail = if valid.is_empty() {
                String::new()
            } else {
                let quoted: Vec<String> = valid
                    .iter()
                    .map(|s| serde_json::to_string(s).unwrap_or_default())
                    .collect();
                format!("supported values: {}", quoted.join(", "))
            };
            one(Error::not_supported(
                path,
                BadValue::Str(v.to_string()),
                detail,
            ))
        }
        _ => Vec::new(),
    }
}

/// One option-dependent enum exclusion: (value, excluded when the option is on?, option name).
pub type EnumExclusion<'a> = (&'a str, bool, &'a str);

/// upstream `isExcluded`: rules are checked in order; an undefined option is an error (the option's name).
fn is_excluded<'a>(
    op: &Operation,
    rules: &[EnumExclusion<'a>],
    value: &str,
) -> Result<bool, &'a str> {
    for (v, when, option) in rules {
        let (on, defined) = op.has_option(option);
        if !defined {
            return Err(option);
        }
        if *v == value && *when == on {
            return Ok(true);
        }
    }
    Ok(false)
}

/// upstream `Enum` with `EnumExclusion` rules (`ifEnabled(X)=+k8s:enumExclude` on constants): nil → ok; an
/// undefined option met while checking → `InternalError(path, "undefined validation option \"X\"")`; a value
/// outside `valid` or currently excluded → `NotSupported` listing the supported values minus the excluded ones.
#[must_use]
pub fn enum_value_with_exclusions(
    path: &Path<'_>,
    op: &Operation,
    value: Option<&str>,
    valid: &[&str],
    rules: &[EnumExclusion<'_>],
) -> ErrorList {
    let Some(v) = value else { return Vec::new() };
    let excluded = match is_excluded(op, rules, v) {
        Ok(e) => e,
        Err(option) => return one(undefined_option(path, option)),
    };
    if valid.binary_search(&v).is_ok() && !excluded {
        return Vec::new();
    }
    let mut supported = Vec::new();
    for k in valid {
        match is_excluded(op, rules, k) {
            Ok(true) => {}
            Ok(false) => supported.push(*k),
            Err(option) => return one(undefined_option(path, option)),
        }
    }
    // An excluded value is not in `supported`, so it is reported like any unsupported value.
    enum_value(path, Some(v), &supported)
}

/// upstream ≤ 1.36 `Enum` with `EnumExclusion` rules (apimachinery v0.35/v0.36 `enum.go`, where
/// `op.HasOption` is `slices.Contains(op.Options, name)`): as [`enum_value_with_exclusions`], except that an option
/// the request does not define is disabled ([`Operation::option_enabled`]) instead of an internal error.
#[must_use]
pub fn enum_value_with_listed_options(
    path: &Path<'_>,
    op: &Operation,
    value: Option<&str>,
    valid: &[&str],
    rules: &[EnumExclusion<'_>],
) -> ErrorList {
    let Some(v) = value else { return Vec::new() };
    let excluded = |value: &str| {
        rules
            .iter()
            .any(|(r, when, option)| *r == value && *when == op.option_enabled(option))
    };
    if valid.binary_search(&v).is_ok() && !excluded(v) {
        return Vec::new();
    }
    let supported: Vec<&str> = valid.iter().copied().filter(|k| !excluded(k)).collect();
    enum_value(path, Some(v), &supported)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An option the request does not define: 1.37 on (`enum_value_with_exclusions`) an internal error; 1.35 and
    /// 1.36 (`enum_value_with_listed_options`, apimachinery v0.36.6 `enum.go` over `Options []string`) disabled.
    #[test]
    fn undefined_options_by_release() {
        let root = Path::Root;
        let path = root.child("mode");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter().map(|e| format!("{e} [{}]", e.origin)).collect()
        };
        let valid = ["A", "B"];
        // B excluded while G is disabled.
        let rules: [EnumExclusion<'_>; 1] = [("B", false, "G")];
        let undefined = Operation::create();
        let mut on = Operation::create();
        on.options.insert("G".into(), true);
        let mut off = Operation::create();
        off.options.insert("G".into(), false);
        assert_eq!(
            show(enum_value_with_exclusions(
                &path,
                &undefined,
                Some("B"),
                &valid,
                &rules
            )),
            ["mode: Internal error: undefined validation option \"G\" []"]
        );
        assert!(!undefined.option_enabled("G"));
        assert_eq!(undefined.has_option("G"), (false, false));
        let unsupported = ["mode: Unsupported value: \"B\": supported values: \"A\" []"];
        for op in [&undefined, &off] {
            assert_eq!(
                show(enum_value_with_listed_options(
                    &path,
                    op,
                    Some("B"),
                    &valid,
                    &rules
                )),
                unsupported
            );
            assert!(
                enum_value_with_listed_options(&path, op, Some("A"), &valid, &rules).is_empty()
            );
        }
        assert_eq!(
            show(enum_value_with_exclusions(
                &path,
                &off,
                Some("B"),
                &valid,
                &rules
            )),
            unsupported
        );
        assert!(enum_value_with_listed_options(&path, &on, Some("B"), &valid, &rules).is_empty());
        assert_eq!(
            show(enum_value_with_listed_options(
                &path,
                &on,
                Some("C"),
                &valid,
                &rules
            )),
            ["mode: Unsupported value: \"C\": supported values: \"A\", \"B\" []"]
        );
    }
}
