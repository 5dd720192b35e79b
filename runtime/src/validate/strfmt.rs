//! Formats (upstream `strfmt.go`): `+k8s:format=<name>`.

use super::one;
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::formats::{self, Format};

fn from_msgs(path: &Path<'_>, v: &str, msgs: Vec<String>, origin: &str) -> ErrorList {
    msgs.into_iter()
        .map(|m| {
            Error::invalid(path, BadValue::Str(v.to_string()), m)
                .with_origin(format!("format={origin}"))
        })
        .collect()
}

fn with_origin(errs: ErrorList, origin: &str) -> ErrorList {
    errs.into_iter()
        .map(|e| e.with_origin(format!("format={origin}")))
        .collect()
}

/// Validates `value` (`None`: unset, no error) against `+k8s:format=<name>`: the errors of upstream's format
/// function, each with origin `format=<name>`. [`Format::K8sResourceFullyQualifiedNameV1_38`] fails a value with
/// more than one slash (`must not contain more than one slash`), as `resourcesQualifiedName` of
/// k8s.io/apimachinery v0.38 does; [`Format::K8sResourceFullyQualifiedName`] is v0.37's check.
/// upstream: `k8s.io/apimachinery/pkg/api/validate/strfmt.go`.
#[must_use]
pub fn format(path: &Path<'_>, value: Option<&str>, format: Format) -> ErrorList {
    let Some(v) = value else { return Vec::new() };
    let origin = format.name(); // the origin string `format=<name>` is built only when an error is reported
    match format {
        Format::K8sShortName => from_msgs(path, v, formats::dns1123_label(v), origin),
        Format::K8sConditionReason => from_msgs(path, v, formats::condition_reason(v), origin),
        Format::K8sLongName => from_msgs(path, v, formats::dns1123_subdomain(v, false), origin),
        Format::K8sLongNameCaseless => {
            from_msgs(path, v, formats::dns1123_subdomain(v, true), origin)
        }
        Format::K8sLabelKey => from_msgs(path, v, formats::label_key(v), origin),
        Format::K8sPrefixedLabelKey => from_msgs(path, v, formats::prefixed_label_key(v), origin),
        Format::K8sLabelValue => from_msgs(path, v, formats::label_value(v), origin),
        Format::K8sPathSegmentName => from_msgs(path, v, formats::path_segment_name(v), origin),
        Format::K8sUuid => {
            if formats::is_lowercase_uuid(v) {
                Vec::new()
            } else {
                one(Error::invalid(
                    path,
                    BadValue::Str(v.into()),
                    "must be a lowercase UUID in 8-4-4-4-12 format",
                )
                .with_origin(format!("format={origin}")))
            }
        }
        Format::K8sResourcePoolName => {
            let mut errs = Vec::new();
            if v.len() > 253 {
                errs.push(Error::too_long(path, "may not be more than 253 bytes"));
            }
            for (i, part) in v.split('/').enumerate() {
                if part.is_empty() {
                    errs.push(Error::invalid(
                        path,
                        BadValue::Str(v.into()),
                        format!("segment {i}: must not be empty"),
                    ));
                    continue;
                }
                for m in formats::dns1123_subdomain(part, false) {
                    errs.push(Error::invalid(
                        path,
                        BadValue::Str(part.into()),
                        format!("segment {i}: {m}"),
                    ));
                }
            }
            with_origin(errs, origin)
        }
        Format::K8sExtendedResourceName => {
            let mut errs = Vec::new();
            let bv = || BadValue::Str(v.to_string());
            if !v.contains('/') {
                errs.push(Error::invalid(
                    path,
                    bv(),
                    "a name must be a domain-prefixed path, such as 'example.com/my-prop'",
                ));
            } else if v.contains("kubernetes.io/") {
                errs.push(Error::invalid(
                    path,
                    bv(),
                    "must not have \"kubernetes.io/\" domain",
                ));
            }
            if v.starts_with("requests.") {
                errs.push(Error::invalid(
                    path,
                    bv(),
                    "must not have \"requests.\" prefix",
                ));
            }
            for m in formats::label_key(&format!("requests.{v}")) {
                errs.push(Error::invalid(path, bv(), m));
            }
            with_origin(errs, origin)
        }
        Format::K8sResourceFullyQualifiedName | Format::K8sResourceFullyQualifiedNameV1_38 => {
            let mut errs = Vec::new();
            let mut it = v.splitn(3, '/');
            let parts = (it.next(), it.next(), it.next());
            let c_ident = |id: &str, errs: &mut ErrorList| {
                if id.len() > 32 {
                    errs.push(Error::too_long(path, "may not be more than 32 bytes"));
                }
                for m in formats::c_identifier(id) {
                    errs.push(Error::invalid(path, BadValue::Str(id.into()), m));
                }
            };
            match parts {
                (Some(one_part), None, _) => c_ident(one_part, &mut errs),
                (Some(prefix), Some(name), None) => {
                    if prefix.is_empty() {
                        errs.push(Error::invalid(
                            path,
                            BadValue::Str(String::new()),
                            "prefix must not be empty",
                        ));
                    } else {
                        if prefix.len() > 63 {
                            errs.push(Error::too_long(path, "may not be more than 63 bytes"));
                        }
                        for m in formats::dns1123_subdomain(prefix, false) {
                            errs.push(Error::invalid(
                                path,
                                BadValue::Str((*prefix).into()),
                                format!("prefix: {m}"),
                            ));
                        }
                    }
                    if name.is_empty() {
                        errs.push(Error::invalid(
                            path,
                            BadValue::Str(String::new()),
                            "name must not be empty",
                        ));
                    } else {
                        c_ident(name, &mut errs);
                    }
                }
                // upstream 1.38 (kubernetes#141644): more than one slash is an error; before, it passed.
                _ if format == Format::K8sResourceFullyQualifiedNameV1_38 => {
                    errs.push(Error::invalid(
                        path,
                        BadValue::Str(v.into()),
                        "must not contain more than one slash",
                    ))
                }
                _ => {}
            }
            if !v.contains('/') {
                errs.push(Error::invalid(
                    path,
                    BadValue::Str(v.into()),
                    "a fully qualified name must be a domain and a name separated by a slash",
                ));
            }
            with_origin(errs, origin)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ConditionReason` (apimachinery v0.38.0-beta.0 `strfmt.go`): upstream's own test case, message byte for byte
    /// (`strfmt_test.go` `TestConditionReason`), and the regex's edges.
    #[test]
    fn condition_reason_1_38() {
        let root = Path::Root;
        let path = root.child("reason");
        let show = |errs: ErrorList| -> Vec<String> {
            errs.iter()
                .map(|e| format!("{}: {} [{}]", e.field, e.detail, e.origin))
                .collect()
        };
        let bad = "$123E4567-E89B-12D3-A456-426614174000";
        assert_eq!(
            show(format(&path, Some(bad), Format::K8sConditionReason)),
            [
                "reason: a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?') [format=k8s-condition-reason]"
            ]
        );
        for ok in [
            "a",
            "MyName",
            "my_name",
            "ReasonA,ReasonB",
            "A:B_",
            "a1",
            "a_",
        ] {
            assert!(
                format(&path, Some(ok), Format::K8sConditionReason).is_empty(),
                "{ok}"
            );
        }
        for no in ["", "1a", "_a", "a,", "a:", "a-b", "a b", "é", "aé"] {
            assert_eq!(
                format(&path, Some(no), Format::K8sConditionReason).len(),
                1,
                "{no:?}"
            );
        }
    }

    /// `k8s-resource-fully-qualified-name`: apimachinery v0.37 accepts more than one slash, v0.38 rejects it
    /// (kubernetes#141644; apimachinery v0.38.0-alpha.2 `TestResourceFullyQualifiedName`).
    #[test]
    fn fully_qualified_name_slash_rule_by_release() {
        let root = Path::Root;
        let path = root.child("name");
        let check = |f: Format, v: &str| -> Vec<String> {
            format(&path, Some(v), f)
                .iter()
                .map(|e| format!("{e} [{}]", e.origin))
                .collect()
        };
        for v in ["a/b/c", "a/b/", "a//b", "/a/b"] {
            assert_eq!(
                check(Format::K8sResourceFullyQualifiedName, v),
                Vec::<String>::new(),
                "{v}"
            );
            assert_eq!(
                check(Format::K8sResourceFullyQualifiedNameV1_38, v),
                [format!(
                    "name: Invalid value: \"{v}\": must not contain more than one slash [format=k8s-resource-fully-qualified-name]"
                )],
                "{v}"
            );
        }
        assert_eq!(
            check(Format::K8sResourceFullyQualifiedNameV1_38, "example.com/ok"),
            Vec::<String>::new()
        );
        assert_eq!(
            check(Format::K8sResourceFullyQualifiedNameV1_38, "name"),
            check(Format::K8sResourceFullyQualifiedName, "name")
        );
    }
}
