//! Rust ports of the hand-written functions that `+k8s:customValidation` names in `k8s.io/api` and
//! `k8s.io/apimachinery`, so that a crate generated from them validates what the API server validates without a
//! hand-written `src/custom.rs`.
//!
//! Upstream generated code calls `ValidateCustom_<Type>_<Field>(ctx, op, fldPath, value, oldValue)` from the
//! package that registers the validation; the functions themselves live in `k8s.io/kubernetes` (`pkg/apis/…`) or
//! in apimachinery. Each port here has the signature of a generated `Custom` trait method (operation, field path,
//! the value and the old value, each `None` when nil) and returns the same error list as its Go original — proven
//! call by call against the Go functions by `tests/tests/k8s_custom_differential.rs`.
//!
//! [`PORTS`] is the table codegen and the plan interpreter read: a `+k8s:customValidation` use on a field listed
//! there calls the port directly instead of the module's `Custom` trait.

use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;
use crate::types::Time;

mod oci;

/// Which port a `+k8s:customValidation` use calls: the tagged field, the Go function upstream's generated code
/// calls, and the Rust function of this module that mirrors it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Port {
    /// Import path of the package declaring the tagged type (`k8s.io/api/core/v1`).
    pub pkg: &'static str,
    /// The tagged type (`EvictionResponder`).
    pub owner: &'static str,
    /// The tagged Go field (`Name`).
    pub field: &'static str,
    /// The Go function upstream calls, qualified by its package (`k8s.io/kubernetes/pkg/apis/core/v1`).
    pub go_pkg: &'static str,
    /// The Go function's name (`ValidateCustom_EvictionResponder_Name`).
    pub go_fn: &'static str,
    /// The name of the Rust port in this module (`eviction_responder_name`).
    pub rust_fn: &'static str,
}

/// Every port, by (`pkg`, `owner`, `field`): exactly the functions k8s.io/api and k8s.io/apimachinery name
/// (`grep -rn customValidation` over both) — the first four in releases 1.35–1.37, all six in 1.38
/// (v0.38.0-beta.0 adds `SecurityProfileOCI.Ref` and `SecurityProfileOCIBase.LocalhostProfile`).
pub const PORTS: &[Port] = &[
    Port {
        pkg: "k8s.io/api/core/v1",
        owner: "EvictionResponder",
        field: "Name",
        go_pkg: "k8s.io/kubernetes/pkg/apis/core/v1",
        go_fn: "ValidateCustom_EvictionResponder_Name",
        rust_fn: "eviction_responder_name",
    },
    Port {
        pkg: "k8s.io/api/core/v1",
        owner: "EvictionResponder",
        field: "Priority",
        go_pkg: "k8s.io/kubernetes/pkg/apis/core/v1",
        go_fn: "ValidateCustom_EvictionResponder_Priority",
        rust_fn: "eviction_responder_priority",
    },
    Port {
        pkg: "k8s.io/api/lifecycle/v1alpha1",
        owner: "EvictionRequestSpec",
        field: "Requester",
        go_pkg: "k8s.io/kubernetes/pkg/apis/lifecycle/v1alpha1",
        go_fn: "ValidateCustom_EvictionRequestSpec_Requester",
        rust_fn: "eviction_request_spec_requester",
    },
    Port {
        pkg: "k8s.io/apimachinery/pkg/apis/meta/v1",
        owner: "Condition",
        field: "LastTransitionTime",
        go_pkg: "k8s.io/apimachinery/pkg/apis/meta/v1/validation",
        go_fn: "ValidateCustom_Condition_LastTransitionTime",
        rust_fn: "condition_last_transition_time",
    },
    Port {
        pkg: "k8s.io/api/core/v1",
        owner: "SecurityProfileOCI",
        field: "Ref",
        go_pkg: "k8s.io/kubernetes/pkg/apis/core/v1",
        go_fn: "ValidateCustom_SecurityProfileOCI_Ref",
        rust_fn: "security_profile_oci_ref",
    },
    Port {
        pkg: "k8s.io/api/core/v1",
        owner: "SecurityProfileOCIBase",
        field: "LocalhostProfile",
        go_pkg: "k8s.io/kubernetes/pkg/apis/core/v1",
        go_fn: "ValidateCustom_SecurityProfileOCIBase_LocalhostProfile",
        rust_fn: "security_profile_oci_base_localhost_profile",
    },
];

/// The port for a `+k8s:customValidation` use on field `field` of type `owner` in package `pkg`, if there is one.
/// Type-scope uses (no field) have none.
#[must_use]
pub fn port(pkg: &str, owner: &str, field: Option<&str>) -> Option<&'static Port> {
    let field = field?;
    PORTS
        .iter()
        .find(|p| p.pkg == pkg && p.owner == owner && p.field == field)
}

/// The domain suffixes `k8s.io/kubernetes` reserves for its own eviction responders and requesters.
pub const RESERVED_DOMAIN_SUFFIXES: &[&str] = &[".k8s.io", ".kubernetes.io"];

/// Go's `strings.ToLower`: each rune mapped by `unicode.ToLower` (simple case mapping, so `İ` U+0130 becomes `i`
/// where Rust's full mapping gives two characters, and `Σ` is always `σ`).
fn go_to_lower(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == '\u{130}' {
                'i'
            } else {
                let mut l = c.to_lowercase();
                match (l.next(), l.next()) {
                    (Some(one), None) => one,
                    _ => c,
                }
            }
        })
        .collect()
}

/// `ValidateForbiddenReservedDomainSuffixes(fldPath, value, reservedSuffixes)` of
/// `k8s.io/kubernetes/pkg/apis/core/v1`: the part of `value` before the first `/`, lower-cased, trimmed of Unicode
/// white space and of trailing dots, must neither end with one of `reserved` (each starting with `.`) nor equal one
/// without its dots. Otherwise one `Invalid` error at `path` with the whole value and the detail
/// `domain names *.k8s.io, *.kubernetes.io are reserved` (the suffixes as given).
#[must_use]
pub fn forbidden_reserved_domain_suffixes(
    path: &Path<'_>,
    value: &str,
    reserved: &[&str],
) -> ErrorList {
    let prefix = value.split('/').next().unwrap_or("");
    // strings.TrimRight(strings.TrimSpace(strings.ToLower(p)), "."); Go's TrimSpace removes what Rust's `trim`
    // does (Unicode White_Space).
    let lower = go_to_lower(prefix);
    let clean = lower.trim().trim_end_matches('.');
    for suffix in reserved {
        if clean.ends_with(suffix) || clean == suffix.trim_matches('.') {
            let names: Vec<String> = reserved.iter().map(|s| format!("*{s}")).collect();
            return vec![Error::invalid(
                path,
                BadValue::Str(value.to_string()),
                format!("domain names {} are reserved", names.join(", ")),
            )];
        }
    }
    ErrorList::new()
}

/// `ValidateCustom_EvictionResponder_Name` (`k8s.io/kubernetes/pkg/apis/core/v1`, `+k8s:customValidation` on
/// `core/v1` `EvictionResponder.Name`): the responder's name may not use a reserved domain
/// ([`forbidden_reserved_domain_suffixes`] with [`RESERVED_DOMAIN_SUFFIXES`]); a nil value passes.
#[must_use]
pub fn eviction_responder_name(
    _op: &Operation,
    path: &Path<'_>,
    value: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    value.map_or_else(ErrorList::new, |v| {
        forbidden_reserved_domain_suffixes(path, v, RESERVED_DOMAIN_SUFFIXES)
    })
}

/// `ValidateCustom_EvictionResponder_Priority` (`k8s.io/kubernetes/pkg/apis/core/v1`, on `core/v1`
/// `EvictionResponder.Priority`): priorities 0–999 are reserved for Kubernetes' own responders, so a value in
/// `0..1000` is one `Invalid` error with the value and the detail
/// `priorities 0-999 are reserved for responders with *.k8s.io suffix`; nil and other values pass.
#[must_use]
pub fn eviction_responder_priority(
    _op: &Operation,
    path: &Path<'_>,
    value: Option<&i32>,
    _old: Option<&i32>,
) -> ErrorList {
    const RESERVED_KUBERNETES_RESPONDERS_PRIORITY: i32 = 1000;
    match value {
        Some(&v) if (0..RESERVED_KUBERNETES_RESPONDERS_PRIORITY).contains(&v) => {
            vec![Error::invalid(
                path,
                BadValue::Int(i64::from(v)),
                "priorities 0-999 are reserved for responders with *.k8s.io suffix",
            )]
        }
        _ => ErrorList::new(),
    }
}

/// `ValidateCustom_EvictionRequestSpec_Requester` (`k8s.io/kubernetes/pkg/apis/lifecycle/v1alpha1`, on
/// `lifecycle/v1alpha1` `EvictionRequestSpec.Requester`): the requester may not use a reserved domain, as
/// [`eviction_responder_name`].
#[must_use]
pub fn eviction_request_spec_requester(
    op: &Operation,
    path: &Path<'_>,
    value: Option<&String>,
    old: Option<&String>,
) -> ErrorList {
    eviction_responder_name(op, path, value, old)
}

/// A `metav1.Time` as the ports of this module read it: whether it is Go's zero time (`IsZero`). Implemented for
/// the runtime's [`Time`] (vgc's own structs); the k8s-openapi target's generated crate implements it on a wrapper
/// of k8s-openapi's `Time` (`semantic::OpenapiTime`), so a port call builds no text.
pub trait GoTime {
    /// Go's `Time.IsZero`: the instant `0001-01-01T00:00:00Z`.
    fn is_zero(&self) -> bool;
}

impl GoTime for Time {
    fn is_zero(&self) -> bool {
        Time::is_zero(self)
    }
}

/// `ValidateCustom_Condition_LastTransitionTime` (`k8s.io/apimachinery/pkg/apis/meta/v1/validation`, on meta/v1
/// `Condition.LastTransitionTime`): the time must be set — a nil or zero time ([`GoTime::is_zero`]) is one
/// `Required` error with an empty detail. Allocates only for the error.
#[must_use]
pub fn condition_last_transition_time<T: GoTime + ?Sized>(
    _op: &Operation,
    path: &Path<'_>,
    value: Option<&T>,
    _old: Option<&T>,
) -> ErrorList {
    if value.is_none_or(GoTime::is_zero) {
        vec![Error::required(path, "")]
    } else {
        ErrorList::new()
    }
}

/// `securityProfileOCIRefMaxLength` of k8s.io/kubernetes' `pkg/apis/core/v1/validation.go`: the `+k8s:maxLength` of
/// `SecurityProfileOCI.Ref`, in characters. A longer value is left to that rule (neither parsed nor echoed).
const SECURITY_PROFILE_OCI_REF_MAX_LENGTH: usize = 1024;

/// `securityProfileOCIBaseLocalhostProfileMaxLength`: the `+k8s:maxLength` of
/// `SecurityProfileOCIBase.LocalhostProfile`, in characters, above which the port leaves the value to that rule.
const SECURITY_PROFILE_OCI_BASE_LOCALHOST_PROFILE_MAX_LENGTH: usize = 4096;

/// `ValidateCustom_SecurityProfileOCI_Ref` (`k8s.io/kubernetes/pkg/apis/core/v1` v1.38.0-beta.0, on `core/v1`
/// `SecurityProfileOCI.Ref`): the value must be a canonical, digest-pinned OCI image reference without a tag
/// (`<registry>/<repository>@<algorithm>:<digest>`), by `reference.ParseNamed` of `github.com/distribution/reference`
/// v0.6.0 with go-digest v1.0.0's digest check (ported in `oci`).
///
/// Nil, empty (left to `+k8s:required`) and values of more than 1024 characters (left to `+k8s:maxLength`) pass.
/// Otherwise at most one `Invalid` error at `path` with the whole value, its detail one of:
/// - `must be a digest-pinned reference in canonical form (<registry>/<repository>@<algorithm>:<digest>): <err>`,
///   `<err>` being the parser's error (`invalid reference format`, `repository name must be lowercase`,
///   `invalid reference format: repository name (<remote>) must be lowercase`, `invalid repository name (<value>),
///   cannot specify 64-byte hexadecimal strings`, `repository name must not be more than 255 characters` — the path
///   after the domain, in bytes —, `invalid checksum digest format`, `invalid checksum digest length`,
///   `unsupported digest algorithm`, `repository name must be canonical`);
/// - `must not contain a tag`;
/// - `must be pinned by digest (<registry>/<repository>@<algorithm>:<digest>)`;
/// - `digest algorithm must be sha256, sha384, or sha512` (kept as upstream has it; go-digest v1.0.0 accepts no
///   other algorithm, so it does not occur).
#[must_use]
pub fn security_profile_oci_ref(
    _op: &Operation,
    path: &Path<'_>,
    value: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    let Some(v) = value else {
        return ErrorList::new();
    };
    if v.is_empty() || v.chars().count() > SECURITY_PROFILE_OCI_REF_MAX_LENGTH {
        return ErrorList::new();
    }
    let detail = match oci::parse_named(v) {
        Err(e) => format!(
            "must be a digest-pinned reference in canonical form (<registry>/<repository>@<algorithm>:<digest>): {e}"
        ),
        Ok(named) if named.tag.is_some() => "must not contain a tag".to_string(),
        Ok(named) => match named.digest_algorithm() {
            None => "must be pinned by digest (<registry>/<repository>@<algorithm>:<digest>)"
                .to_string(),
            Some("sha256" | "sha384" | "sha512") => return ErrorList::new(),
            Some(_) => "digest algorithm must be sha256, sha384, or sha512".to_string(),
        },
    };
    vec![Error::invalid(path, BadValue::Str(v.clone()), detail)]
}

/// `ValidateCustom_SecurityProfileOCIBase_LocalhostProfile` (`k8s.io/kubernetes/pkg/apis/core/v1` v1.38.0-beta.0,
/// on `core/v1` `SecurityProfileOCIBase.LocalhostProfile`): a non-empty relative path without `..` elements, as
/// the `localhostProfile` of a seccomp profile; only `/` separates elements (a backslash is a file-name character
/// on the Linux node).
///
/// Nil and values of more than 4096 characters (left to `+k8s:maxLength`) pass; an empty value is one `Required`
/// error with the detail `must not be empty`. Otherwise up to two `Invalid` errors at `path` with the whole value,
/// in this order: `must be a relative path` (it starts with `/`) and `must not contain '..'`.
#[must_use]
pub fn security_profile_oci_base_localhost_profile(
    _op: &Operation,
    path: &Path<'_>,
    value: Option<&String>,
    _old: Option<&String>,
) -> ErrorList {
    let Some(v) = value else {
        return ErrorList::new();
    };
    if v.chars().count() > SECURITY_PROFILE_OCI_BASE_LOCALHOST_PROFILE_MAX_LENGTH {
        return ErrorList::new();
    }
    if v.is_empty() {
        return vec![Error::required(path, "must not be empty")];
    }
    let mut errs = ErrorList::new();
    // Go's `path.IsAbs`.
    if v.starts_with('/') {
        errs.push(Error::invalid(
            path,
            BadValue::Str(v.clone()),
            "must be a relative path",
        ));
    }
    if v.split('/').any(|element| element == "..") {
        errs.push(Error::invalid(
            path,
            BadValue::Str(v.clone()),
            "must not contain '..'",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::ErrorType;

    fn op() -> Operation {
        Operation::default()
    }

    #[test]
    fn reserved_domains_are_refused_before_the_first_slash() {
        let p = Path::Root.child("name");
        let s = |v: &str| eviction_responder_name(&op(), &p, Some(&v.to_string()), None);
        for bad in [
            "k8s.io/x",
            "a.k8s.io/x",
            "A.K8S.IO./x",
            " kubernetes.io /x",
            "x.kubernetes.io",
            "\u{130}.k8s.io",
        ] {
            let e = s(bad);
            assert_eq!(e.len(), 1, "{bad:?}");
            assert_eq!(e[0].error_type, ErrorType::Invalid);
            assert_eq!(
                e[0].to_string(),
                format!(
                    "name: Invalid value: {}: domain names *.k8s.io, *.kubernetes.io are reserved",
                    serde_json::to_string(bad).unwrap()
                )
            );
        }
        for good in [
            "acme.io/foo",
            "k8s.io.acme/x",
            "xk8s.io/y",
            "foo/k8s.io",
            "",
        ] {
            assert!(s(good).is_empty(), "{good:?}");
        }
        assert!(eviction_request_spec_requester(&op(), &p, None, None).is_empty());
    }

    #[test]
    fn priorities_below_1000_are_reserved() {
        let p = Path::Root.child("priority");
        let e = |v: i32| eviction_responder_priority(&op(), &p, Some(&v), None);
        assert_eq!(
            e(0)[0].to_string(),
            "priority: Invalid value: 0: priorities 0-999 are reserved for responders with *.k8s.io suffix"
        );
        assert_eq!(e(999).len(), 1);
        assert!(e(1000).is_empty() && e(-1).is_empty());
        assert!(eviction_responder_priority(&op(), &p, None, None).is_empty());
    }

    #[test]
    fn a_condition_needs_a_transition_time() {
        let p = Path::Root.child("lastTransitionTime");
        let t = |s: Option<&str>| {
            condition_last_transition_time(&op(), &p, Some(&Time(s.map(str::to_string))), None)
        };
        assert_eq!(t(None)[0].to_string(), "lastTransitionTime: Required value");
        assert_eq!(t(Some("0001-01-01T00:00:00Z")).len(), 1);
        assert_eq!(t(Some("0001-01-01T01:00:00+01:00")).len(), 1);
        assert!(t(Some("2024-01-01T00:00:00Z")).is_empty());
        assert_eq!(
            condition_last_transition_time::<Time>(&op(), &p, None, None).len(),
            1
        );
    }

    #[test]
    fn an_oci_ref_is_canonical_and_pinned_by_digest() {
        let p = Path::Root.child("ref");
        let hex = "a".repeat(64);
        let r = |v: &str| security_profile_oci_ref(&op(), &p, Some(&v.to_string()), None);
        assert!(r(&format!("registry.example/profiles/p@sha256:{hex}")).is_empty());
        assert!(r("").is_empty() && security_profile_oci_ref(&op(), &p, None, None).is_empty());
        assert!(r(&"a".repeat(1025)).is_empty());
        assert_eq!(
            r(&"a".repeat(1024))[0].to_string(),
            format!(
                "ref: Invalid value: \"{}\": must be a digest-pinned reference in canonical form \
                 (<registry>/<repository>@<algorithm>:<digest>): repository name must not be more than 255 \
                 characters",
                "a".repeat(1024)
            )
        );
        assert_eq!(
            r(&format!("example.com/p:v1@sha256:{hex}"))[0].detail,
            "must not contain a tag"
        );
        assert_eq!(
            r("example.com/p")[0].detail,
            "must be pinned by digest (<registry>/<repository>@<algorithm>:<digest>)"
        );
    }

    #[test]
    fn a_localhost_profile_is_a_relative_path_without_dot_dot() {
        let p = Path::Root.child("localhostProfile");
        let l = |v: &str| {
            security_profile_oci_base_localhost_profile(&op(), &p, Some(&v.to_string()), None)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            l(""),
            ["localhostProfile: Required value: must not be empty"]
        );
        assert_eq!(
            l("/a/../b"),
            [
                "localhostProfile: Invalid value: \"/a/../b\": must be a relative path",
                "localhostProfile: Invalid value: \"/a/../b\": must not contain '..'",
            ]
        );
        assert!(l("a/..b/c\\..").is_empty());
        assert!(l(&"/".repeat(4097)).is_empty());
        assert_eq!(l(&"/".repeat(4096)).len(), 1);
        assert!(security_profile_oci_base_localhost_profile(&op(), &p, None, None).is_empty());
    }

    #[test]
    fn ports_are_found_by_field() {
        assert_eq!(
            port("k8s.io/api/core/v1", "EvictionResponder", Some("Priority")).map(|p| p.rust_fn),
            Some("eviction_responder_priority")
        );
        assert!(port("k8s.io/api/core/v1", "EvictionResponder", None).is_none());
        assert!(port("example.com/v1", "EvictionResponder", Some("Name")).is_none());
    }
}
