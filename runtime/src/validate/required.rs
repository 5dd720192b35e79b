//! Requiredness (upstream `required.go`): `required`, `optional` and `forbidden`, and what counts as set.

use super::one;
use crate::field::{Error, ErrorList, Path};
use std::collections::BTreeMap;

/// Whether a value is "set" in upstream's sense, per Go kind: a non-zero builtin, a non-nil pointer, a
/// non-empty slice or map.
pub trait IsSet {
    /// True when the value counts as specified.
    fn is_set(&self) -> bool;
}

macro_rules! is_set_zero {
    ($($t:ty),*) => { $(impl IsSet for $t { fn is_set(&self) -> bool { *self != <$t>::default() } })* };
}
is_set_zero!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool, String);

impl<T> IsSet for Vec<T> {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}
impl<K, V> IsSet for BTreeMap<K, V> {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}
impl<T> IsSet for Option<T> {
    fn is_set(&self) -> bool {
        self.is_some()
    }
}

/// upstream `RequiredValue/RequiredPointer/RequiredSlice/RequiredMap`: `Required(path, "")` when unset.
#[must_use]
pub fn required(path: &Path<'_>, set: bool) -> ErrorList {
    if set {
        Vec::new()
    } else {
        one(Error::required(path, ""))
    }
}

/// upstream 1.38 `RequiredValue/…/RequiredMap` with a message (`+k8s:required="msg"`, the variadic `msgs`):
/// `Required(path, detail)` when unset — `Required value: <detail>`. upstream: apimachinery v0.38.0-beta.0
/// `validate/required.go` (`strings.Join(msgs, ", ")` of the one message generated code passes).
#[must_use]
pub fn required_with(path: &Path<'_>, set: bool, detail: &str) -> ErrorList {
    if set {
        Vec::new()
    } else {
        one(Error::required(path, detail))
    }
}

/// upstream `Optional*`: a NonError short-circuit. Returns true when the field is unset (validation stops).
#[must_use]
pub fn optional_unset(set: bool) -> bool {
    !set
}

/// upstream `Forbidden*`: `Forbidden(path, "")` when set.
#[must_use]
pub fn forbidden(path: &Path<'_>, set: bool) -> ErrorList {
    if set {
        one(Error::forbidden(path, ""))
    } else {
        Vec::new()
    }
}

/// upstream 1.38 `ForbiddenValue/…/ForbiddenMap` with a message (`+k8s:forbidden="msg"`): `Forbidden(path,
/// detail)` when set — `Forbidden: <detail>`. upstream: apimachinery v0.38.0-beta.0 `validate/required.go`.
#[must_use]
pub fn forbidden_with(path: &Path<'_>, set: bool, detail: &str) -> ErrorList {
    if set {
        one(Error::forbidden(path, detail))
    } else {
        Vec::new()
    }
}
