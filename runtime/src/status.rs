//! The API server's answer to an invalid object: an [`ErrorList`] as the `metav1.Status` that
//! `k8s.io/apimachinery/pkg/api/errors.NewInvalid` builds (HTTP 422, reason `Invalid`, one cause per error), encoded
//! as the API server writes it.
//!
//! ```
//! use vgc_runtime::{Error, Path, status};
//! let spec = Path::Root.child("spec");
//! let errs = vec![Error::required(&spec.child("replicas"), "")];
//! let st = status::invalid("apps", "Deployment", "web", &errs);
//! assert_eq!(st.code, 422);
//! assert_eq!(
//!     st.to_json(),
//!     r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Deployment.apps \"web\" is invalid: spec.replicas: Required value","reason":"Invalid","details":{"name":"web","group":"apps","kind":"Deployment","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.replicas"}]},"code":422}"#
//! );
//! ```

use crate::field::{Error, go_json, go_quote};
use serde::{Deserialize, Serialize};

/// upstream `metav1.Status` (the fields an error status uses), with the `TypeMeta` the API server's encoder sets
/// (`kind: Status`, `apiVersion: v1`). Serializes in upstream's field order with its `omitempty` rules; an empty
/// `metadata` is still written (`{}`), as `encoding/json` writes an empty struct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    /// `"Status"`.
    pub kind: String,
    /// `"v1"`.
    pub api_version: String,
    /// Always empty (`metav1.ListMeta`).
    pub metadata: ListMeta,
    /// `"Failure"` (upstream `metav1.StatusFailure`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub status: String,
    /// Human-readable description: `<Kind>[.<group>] "<name>" is invalid: <errors>`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `"Invalid"` (upstream `metav1.StatusReasonInvalid`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The object and one cause per field error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<StatusDetails>,
    /// The HTTP status code: 422 (Unprocessable Entity).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub code: i32,
}

/// upstream `metav1.ListMeta`; a validation status carries none of its fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListMeta {}

/// upstream `metav1.StatusDetails` (without `uid` and `retryAfterSeconds`, which a validation failure never sets).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusDetails {
    /// The object's name (`metadata.name`; empty, and then omitted, when it has none yet).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The API group (omitted for the core group).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// One cause per field error, in the error list's order (duplicates kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
}

/// upstream `metav1.StatusCause` of a field error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCause {
    /// The error type as a cause type (`FieldValueInvalid`, `FieldValueRequired`, …: [`crate::ErrorType::cause_type`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The error without its field ([`Error::body`], upstream `ErrorBody()`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The field path (`<nil>` for an error of the root, as upstream prints a nil path).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field: String,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// The status the API server returns when validation of the object `name` of `kind` in API group `group` (`""` for
/// the core group) found `errs` — upstream `errors.NewInvalid(schema.GroupKind{group, kind}, name, errs)`:
/// code 422, reason `Invalid`, a cause per error, and the message `<Kind>.<group> "<name>" is invalid: <aggregate>`
/// where the aggregate is upstream's `ErrorList.ToAggregate()` (errors with the same text once; one error alone,
/// several as `[a, b]`). An empty `errs` gives the message without `: …` and no causes.
#[must_use]
pub fn invalid(group: &str, kind: &str, name: &str, errs: &[Error]) -> Status {
    let qualified = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    let mut message = format!("{qualified} {} is invalid", go_quote(name));
    if let Some(agg) = aggregate(errs) {
        message.push_str(": ");
        message.push_str(&agg);
    }
    Status {
        kind: "Status".into(),
        api_version: "v1".into(),
        metadata: ListMeta {},
        status: "Failure".into(),
        message,
        reason: "Invalid".into(),
        details: Some(StatusDetails {
            name: name.into(),
            group: group.into(),
            kind: kind.into(),
            causes: errs
                .iter()
                .map(|e| StatusCause {
                    reason: e.error_type.cause_type().into(),
                    message: e.body(),
                    field: e.field.clone(),
                })
                .collect(),
        }),
        code: 422,
    }
}

/// upstream `ErrorList.ToAggregate().Error()`: the distinct error texts in order, one alone or `[a, b, …]`;
/// `None` for no errors.
fn aggregate(errs: &[Error]) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    let texts: Vec<String> = errs
        .iter()
        .map(ToString::to_string)
        .filter(|t| seen.insert(t.clone()))
        .collect();
    match texts.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        many => Some(format!("[{}]", many.join(", "))),
    }
}

impl Status {
    /// The JSON the API server writes for this status (without the encoder's trailing newline): Go's
    /// `encoding/json` (`<`, `>`, `&`, U+2028 and U+2029 escaped; [`go_json`]).
    #[must_use]
    pub fn to_json(&self) -> String {
        // A struct of strings, integers and nested structs always converts.
        serde_json::to_value(self).map_or_else(|_| String::new(), |v| go_json(&v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{BadValue, Path};

    #[test]
    fn core_group_duplicates_and_escaping() {
        let meta = Path::Root.child("metadata");
        let e = Error::invalid(
            &meta.child("name"),
            BadValue::Str("<x>".into()),
            "bad & worse",
        );
        let st = invalid("", "Pod", "a\"b", &[e.clone(), e]);
        assert_eq!(
            st.to_json(),
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \"a\\\"b\" is invalid: metadata.name: Invalid value: \"\u003cx\u003e\": bad \u0026 worse","reason":"Invalid","details":{"name":"a\"b","kind":"Pod","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"\u003cx\u003e\": bad \u0026 worse","field":"metadata.name"},{"reason":"FieldValueInvalid","message":"Invalid value: \"\u003cx\u003e\": bad \u0026 worse","field":"metadata.name"}]},"code":422}"#
        );
    }

    #[test]
    fn several_distinct_errors_are_bracketed_and_no_errors_have_no_aggregate() {
        let a = Error::required(&Path::Root.child("a"), "");
        let b = Error::forbidden(&Path::Root, "");
        assert_eq!(
            invalid("x.io", "K", "", &[a, b]).message,
            r#"K.x.io "" is invalid: [a: Required value, <nil>: Forbidden]"#
        );
        let st = invalid("x.io", "K", "n", &[]);
        assert_eq!(st.message, r#"K.x.io "n" is invalid"#);
        assert!(st.details.is_some_and(|d| d.causes.is_empty()));
    }
}
