//! The CEL type of a schema node as the API server declares it for the cost estimate: k8s.io/apiserver v0.37.2
//! `pkg/cel/common/schemas.go` `SchemaDeclType` — each type with the most elements (string length, list items, map
//! entries) the estimate assumes and the least bytes a value takes serialized (`MinSerializedSize`, from which an
//! unbounded list's or map's element count is derived: a 3 MiB request holds at most that many).

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The request-size limit the estimate sizes unbounded values by (`celconfig.MaxRequestSizeBytes`, 3 MiB).
pub(crate) const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;
const MIN_STRING_SIZE: i64 = 2;
const MIN_BOOL_SIZE: i64 = 4;
const MIN_NUMBER_SIZE: i64 = 1;
const MIN_DURATION_SIZE_JSON: i64 = 3;
const MAX_DURATION_SIZE_JSON: i64 = 32;
const JSON_DATE_SIZE: i64 = 12;
const MIN_DATETIME_SIZE_JSON: i64 = 21;
const MAX_DATETIME_SIZE_JSON: i64 = 32;

/// The kinds of declared type.
#[derive(Debug, Clone)]
pub(crate) enum DeclKind {
    /// `boolean`.
    Bool,
    /// `integer`.
    Int,
    /// `number`.
    Double,
    /// `string`.
    String,
    /// `string` with format `date` or `date-time`.
    Timestamp,
    /// `string` with format `duration`.
    Duration,
    /// `string` with format `byte`.
    Bytes,
    /// `x-kubernetes-int-or-string`.
    Dyn,
    /// `array`: its items' type.
    List(Box<Decl>),
    /// `object` with `additionalProperties`: its values' type (keys are strings).
    Map(Box<Decl>),
    /// `object` with `properties`: the fields CEL can name, by their escaped name ([`crate::cel::escape`]).
    Object(BTreeMap<String, Decl>),
}

/// A declared type (upstream `apiservercel.DeclType`).
#[derive(Debug, Clone)]
pub(crate) struct Decl {
    /// What it is.
    pub(crate) kind: DeclKind,
    /// `MaxElements`: a string's length in bytes (four per character of `maxLength`), a list's items, a map's entries.
    pub(crate) max_elements: i64,
    /// `MinSerializedSize`: the least bytes a value takes in JSON.
    pub(crate) min_size: i64,
}

fn int_key(s: &Map<String, Value>, k: &str) -> Option<i64> {
    s.get(k).and_then(Value::as_i64).map(|v| v.max(0))
}

fn max_string_per_request(s: &Map<String, Value>) -> i64 {
    if s.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        return MAX_REQUEST_SIZE_BYTES - 2;
    }
    match s.get("format").and_then(Value::as_str) {
        Some("duration") => MAX_DURATION_SIZE_JSON,
        Some("date") => JSON_DATE_SIZE,
        Some("date-time") => MAX_DATETIME_SIZE_JSON,
        _ => MAX_REQUEST_SIZE_BYTES - 2,
    }
}

fn simple(kind: DeclKind, max_elements: i64, min_size: i64) -> Decl {
    Decl {
        kind,
        max_elements,
        min_size,
    }
}

/// The declared type of the (inlined, `$ref`-free) schema `s`; `None` where upstream has none (no `type`, an array
/// without `items`): such a field is left out of its object's type and cannot be named in CEL.
pub(crate) fn decl_of(s: &Map<String, Value>) -> Option<Decl> {
    if s.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        let max = int_key(s, "maxLength").map_or_else(|| max_string_per_request(s), |m| m * 4);
        return Some(simple(DeclKind::Dyn, max, 1));
    }
    match s.get("type").and_then(Value::as_str)? {
        "array" => {
            let items = decl_of(s.get("items")?.as_object()?)?;
            let max = int_key(s, "maxItems")
                .unwrap_or((MAX_REQUEST_SIZE_BYTES - 2) / (items.min_size + 1));
            Some(simple(DeclKind::List(Box::new(items)), max, 2))
        }
        "object" => {
            if let Some(Value::Object(ap)) = s.get("additionalProperties") {
                let values = decl_of(ap)?;
                let max = int_key(s, "maxProperties")
                    .unwrap_or((MAX_REQUEST_SIZE_BYTES - 2) / (values.min_size + 6));
                return Some(simple(DeclKind::Map(Box::new(values)), max, 2));
            }
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut fields = BTreeMap::new();
            let mut min_size = 2;
            if let Some(Value::Object(props)) = s.get("properties") {
                for (name, p) in props {
                    let Some(p) = p.as_object() else { continue };
                    let Some(t) = decl_of(p) else { continue };
                    let field_min = t.min_size;
                    if let Some(escaped) = crate::cel::escape(name) {
                        fields.insert(escaped, t);
                    }
                    if required.contains(&name.as_str()) && !p.contains_key("default") {
                        min_size += i64::try_from(name.len()).unwrap_or(i64::MAX) + field_min + 4;
                    }
                }
            }
            Some(simple(DeclKind::Object(fields), 0, min_size))
        }
        "string" => Some(match s.get("format").and_then(Value::as_str) {
            Some("byte") => simple(
                DeclKind::Bytes,
                int_key(s, "maxLength").unwrap_or_else(|| max_string_per_request(s)),
                MIN_STRING_SIZE,
            ),
            Some("duration") => simple(
                DeclKind::Duration,
                max_string_per_request(s),
                MIN_DURATION_SIZE_JSON,
            ),
            Some("date") => simple(
                DeclKind::Timestamp,
                max_string_per_request(s),
                JSON_DATE_SIZE,
            ),
            Some("date-time") => simple(
                DeclKind::Timestamp,
                max_string_per_request(s),
                MIN_DATETIME_SIZE_JSON,
            ),
            _ => {
                let max = if let Some(m) = int_key(s, "maxLength") {
                    m * 4
                } else if let Some(Value::Array(e)) = s.get("enum")
                    && !e.is_empty()
                {
                    e.iter()
                        .filter_map(Value::as_str)
                        .map(|v| i64::try_from(v.len()).unwrap_or(i64::MAX))
                        .max()
                        .unwrap_or(0)
                } else {
                    max_string_per_request(s)
                };
                simple(DeclKind::String, max, MIN_STRING_SIZE)
            }
        }),
        "boolean" => Some(simple(DeclKind::Bool, 0, MIN_BOOL_SIZE)),
        "number" => Some(simple(DeclKind::Double, 0, MIN_NUMBER_SIZE)),
        "integer" => Some(simple(DeclKind::Int, 0, MIN_NUMBER_SIZE)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl(v: Value) -> Decl {
        decl_of(v.as_object().expect("object")).expect("a type")
    }

    #[test]
    fn sizes_follow_schema_decl_type() {
        let s = decl(json!({"type": "string", "maxLength": 63}));
        assert_eq!((s.max_elements, s.min_size), (252, 2));
        let l = decl(json!({"type": "array", "items": {"type": "string"}}));
        assert_eq!(l.max_elements, (MAX_REQUEST_SIZE_BYTES - 2) / 3);
        let o = decl(
            json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "x-y": {"type": "integer"}, "free": {}}}),
        );
        assert_eq!(o.min_size, 2 + 4 + 2 + 4);
        let DeclKind::Object(f) = &o.kind else {
            panic!("object")
        };
        assert_eq!(f.keys().collect::<Vec<_>>(), ["name", "x__dash__y"]);
        let m = decl(json!({"type": "object", "additionalProperties": {"type": "string"}}));
        assert_eq!(m.max_elements, (MAX_REQUEST_SIZE_BYTES - 2) / 8);
    }
}
