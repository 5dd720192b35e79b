//! Runtime validators called by generated code, mirroring `k8s.io/apimachinery/pkg/api/validate`.
//!
//! Calling convention (upstream `fn(ctx, op, fldPath, value, oldValue) ErrorList`): the value and old value are
//! passed *nilable* (`Option<&T>`; `None` means a nil pointer or, for the old value, no correlated old object).
//! An empty [`ErrorList`] does not allocate.
//!
//! One file per validator family, named after apimachinery's `pkg/api/validate/*.go` files (`required`, `limits`,
//! `strfmt`, `enum`, `update`, `each`, `union`, `equality`, ...) as codegen's `emit/checks/` and the interpreter's
//! `eval/` name theirs; every validator is re-exported here, so its path is `vgc_runtime::validate::<name>`.

mod dependentrequired;
mod each;
mod r#enum;
mod equality;
mod immutable;
mod limits;
mod matching;
mod monotonic;
mod options;
mod regex;
mod required;
mod strfmt;
mod union;
mod update;
mod zeroorone;

pub use self::dependentrequired::*;
pub use self::each::*;
pub use self::r#enum::*;
pub use self::equality::*;
pub use self::immutable::*;
pub use self::limits::*;
pub use self::matching::{HashedPart, INDEX_FROM, KeyPart, UnhashedPart, key_hasher};
pub use self::monotonic::*;
pub use self::options::*;
pub use self::regex::*;
pub use self::required::*;
pub use self::strfmt::*;
pub use self::union::*;
pub use self::update::*;
pub use self::zeroorone::*;

use crate::field::{BadValue, Error, ErrorList};

/// Converts any serializable value to the [`BadValue`] upstream would print (`%q` strings, `%v` ints and bools,
/// JSON otherwise).
pub fn bad_value<T: serde::Serialize + ?Sized>(v: &T) -> BadValue {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => BadValue::Str(s),
        Ok(serde_json::Value::Bool(b)) => BadValue::Bool(b),
        Ok(serde_json::Value::Number(n)) if n.is_i64() => {
            BadValue::Int(n.as_i64().unwrap_or_default())
        }
        Ok(v) => BadValue::Json(v),
        Err(_) => BadValue::None,
    }
}

/// The [`BadValue`] of a value upstream passes to `field.Invalid` *by pointer* (e.g. `FixedResult`'s value, a
/// `*T`): Go's `ErrorBody` renders a pointer with `json.Marshal`, so strings get JSON escaping (`\u003c`) rather
/// than `%q`, and a nil pointer prints `null`.
pub fn bad_value_json<T: serde::Serialize + ?Sized>(v: &T) -> BadValue {
    BadValue::Json(serde_json::to_value(v).unwrap_or(serde_json::Value::Null))
}

/// The [`BadValue`] of a list or map value upstream passes to `field.Invalid` (a Go slice or map, rendered with
/// `json.Marshal`): `null` when nil — and, since vgc does not keep a nil slice or map apart from an empty one, when
/// empty (`docs/deviations.md` D11) — else its JSON.
pub fn bad_value_collection<T: serde::Serialize + crate::types::Collection>(
    v: Option<&T>,
) -> BadValue {
    match v {
        Some(v) if !v.is_empty_collection() => bad_value_json(v),
        _ => BadValue::Json(serde_json::Value::Null),
    }
}

fn one(e: Error) -> ErrorList {
    vec![e]
}
