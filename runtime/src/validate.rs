//! Runtime validators called by generated code, mirroring `k8s.io/apimachinery/pkg/api/validate`.
//!
//! Calling convention (upstream `fn(ctx, op, fldPath, value, oldValue) ErrorList`): the value and old value are
//! passed *nilable* (`Option<&T>`; `None` means a nil pointer or, for the old value, no correlated old object).
//! An empty [`ErrorList`] does not allocate.

use crate::field::{BadValue, Error, ErrorList, Path};
use crate::formats::{self, Format};
use crate::operation::Operation;
use std::collections::BTreeMap;

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

// ---- requiredness (upstream required.go) ----------------------------------------------------------------

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

// ---- limits (upstream limits.go) ------------------------------------------------------------------------

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

/// upstream `Matches` (k8s.io/apimachinery v0.38 `regex.go`, kubernetes#142116; the runtime of project-defined
/// formats): nil → ok; a value `re` does not match (not implicitly anchored) → `Invalid(path, value, message)`
/// with `origin` (`format=<name>`). The pattern is never part of the detail. `re` is a Go (RE2) pattern compiled
/// with [`crate::regex::compile_go`].
#[must_use]
pub fn matches(
    path: &Path<'_>,
    value: Option<&str>,
    re: &regex::Regex,
    message: &str,
    origin: &str,
) -> ErrorList {
    match value {
        Some(v) if !re.is_match(v) => {
            one(Error::invalid(path, BadValue::Str(v.to_string()), message).with_origin(origin))
        }
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

/// upstream ≤ 1.35 `Union`/`DiscriminatedUnion` (apimachinery v0.35 `union.go`): the same errors without an origin.
#[must_use]
pub fn without_origin(errs: ErrorList) -> ErrorList {
    errs.into_iter().map(|e| e.with_origin("")).collect()
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

// ---- formats (upstream strfmt.go) -----------------------------------------------------------------------

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

// ---- enum (upstream enum.go) ----------------------------------------------------------------------------

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

// ---- update-only (upstream immutable.go, update.go) -----------------------------------------------------

/// upstream `Immutable`: on update, `Invalid(path, nil, "field is immutable")`, origin `immutable`. Reached only
/// when the caller's ratchet saw a change.
#[must_use]
pub fn immutable(path: &Path<'_>, op: &Operation) -> ErrorList {
    if op.is_update() {
        one(Error::invalid(
            path,
            BadValue::Json(serde_json::Value::Null),
            "field is immutable",
        )
        .with_origin("immutable"))
    } else {
        Vec::new()
    }
}

/// The `+k8s:update` constraints, in upstream's merged order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum UpdateConstraint {
    /// A field unset on create may not be set later.
    NoSet,
    /// A set field may not be cleared.
    NoUnset,
    /// A set field may not change.
    NoModify,
    /// No list item or map key may be added.
    NoAddItem,
    /// No list item or map key may be removed.
    NoRemoveItem,
}

impl UpdateConstraint {
    /// Every constraint, in upstream's merged order (the derived `Ord`).
    pub const ALL: [UpdateConstraint; 5] = [
        UpdateConstraint::NoSet,
        UpdateConstraint::NoUnset,
        UpdateConstraint::NoModify,
        UpdateConstraint::NoAddItem,
        UpdateConstraint::NoRemoveItem,
    ];

    /// The `+k8s:update=<name>` spelling, which is also the variant's name (`NoSet`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            UpdateConstraint::NoSet => "NoSet",
            UpdateConstraint::NoUnset => "NoUnset",
            UpdateConstraint::NoModify => "NoModify",
            UpdateConstraint::NoAddItem => "NoAddItem",
            UpdateConstraint::NoRemoveItem => "NoRemoveItem",
        }
    }

    /// The constraint spelled `name` in `+k8s:update=<name>`, or `None`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<UpdateConstraint> {
        UpdateConstraint::ALL.into_iter().find(|c| c.name() == name)
    }

    /// True for `NoAddItem`/`NoRemoveItem`, which apply to list items and map keys only (and identify list items
    /// through the list metadata).
    #[must_use]
    pub const fn on_items(self) -> bool {
        matches!(
            self,
            UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem
        )
    }
}

fn update_err(path: &Path<'_>, detail: &str) -> Error {
    Error::invalid(path, BadValue::Json(serde_json::Value::Null), detail).with_origin("update")
}

/// upstream `UpdateValueByCompare` / `UpdateValueByReflect` / `UpdateStruct` (nil old → no error) and
/// `UpdatePointer` (`pointer == true`: a nil old value still counts as "unset"). `old_set`/`new_set` are the
/// set-ness of each side; `changed` is whether the values differ.
#[must_use]
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn update_scalar(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    pointer: bool,
    old_set: bool,
    new_set: bool,
    changed: bool,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() || (!has_old && !pointer) {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if !old_set && new_set => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if old_set && !new_set => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoModify if old_set && new_set && changed => {
                errs.push(update_err(path, "field cannot be modified once set"));
            }
            _ => {}
        }
    }
    errs
}

// ---- lists and maps (upstream each.go) ------------------------------------------------------------------

/// upstream `EachValSliceVal`: for each element, find its old counterpart with `matches` (list-map keys or set
/// equality; `None` for atomic lists), skip it on update when found and `equiv` holds, otherwise run `f` at
/// `path[i]`.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn each_slice_val<T>(
    op: &Operation,
    path: &Path<'_>,
    new: &[T],
    old: Option<&[T]>,
    matches: Option<fn(&T, &T) -> bool>,
    equiv: Option<fn(&T, &T) -> bool>,
    mut f: impl FnMut(&Path<'_>, &T, Option<&T>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for (i, v) in new.iter().enumerate() {
        let o = match (matches, old) {
            (Some(m), Some(old)) => old.iter().find(|o| m(o, v)),
            _ => None,
        };
        if op.is_update() && o.is_some_and(|o| equiv.is_none_or(|eq| eq(v, o))) {
            continue;
        }
        f(&path.index(i), v, o, errs);
    }
}

/// upstream `EachPtrSliceVal`: like [`each_slice_val`] for `[]*T`; nil elements are skipped.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn each_ptr_slice_val<T>(
    op: &Operation,
    path: &Path<'_>,
    new: &[Option<T>],
    old: Option<&[Option<T>]>,
    matches: Option<fn(&T, &T) -> bool>,
    equiv: Option<fn(&T, &T) -> bool>,
    mut f: impl FnMut(&Path<'_>, &T, Option<&T>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for (i, v) in new.iter().enumerate() {
        let Some(v) = v else { continue };
        let o = match (matches, old) {
            (Some(m), Some(old)) => old.iter().flatten().find(|o| m(o, v)),
            _ => None,
        };
        if op.is_update() && o.is_some_and(|o| equiv.is_none_or(|eq| eq(v, o))) {
            continue;
        }
        f(&path.index(i), v, o, errs);
    }
}

/// upstream `EachMapVal`: the old value is `old[key]`; skipped on update when present and `equiv` holds.
/// Iteration is in key order (upstream's is random; see docs/deviations.md).
pub fn each_map_val<V>(
    op: &Operation,
    path: &Path<'_>,
    new: &BTreeMap<String, V>,
    old: Option<&BTreeMap<String, V>>,
    equiv: Option<fn(&V, &V) -> bool>,
    mut f: impl FnMut(&Path<'_>, &V, Option<&V>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for (k, v) in new {
        let o = old.and_then(|m| m.get(k));
        if op.is_update() && o.is_some() && equiv.is_some_and(|eq| o.is_some_and(|o| eq(v, o))) {
            continue;
        }
        f(&path.key(k), v, o, errs);
    }
}

/// upstream `EachMapKey`: the validator gets the map's own path; keys present in the old map are skipped on
/// update.
pub fn each_map_key<V>(
    op: &Operation,
    path: &Path<'_>,
    new: &BTreeMap<String, V>,
    old: Option<&BTreeMap<String, V>>,
    mut f: impl FnMut(&Path<'_>, &String, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for k in new.keys() {
        if op.is_update() && old.is_some_and(|m| m.contains_key(k)) {
            continue;
        }
        f(path, k, errs);
    }
}

/// upstream `ValSliceUnique`: `Duplicate(path[j], element)` for every later index duplicating an earlier one,
/// sorted, once each.
///
/// Cost: at most n(n-1)/2 calls of `matches` (all elements distinct), n-1 when all are equal — never the O(n³) of
/// upstream's `slices.Contains` inside the pair loop (R16: 8,000 equal items took 28 s). `matches` is an
/// equivalence (value equality, semantic equality, or equality of the list-map key tuple), so an element already
/// found to duplicate an earlier one need not be compared again: everything it matches, the earlier one matched
/// first. The errors and their order are upstream's.
#[must_use]
pub fn slice_unique<T: serde::Serialize>(
    path: &Path<'_>,
    new: &[T],
    matches: fn(&T, &T) -> bool,
) -> ErrorList {
    slice_unique_by(path, new, matches, bad_value)
}

/// [`slice_unique`] with the duplicate element rendered by `render` (the k8s-openapi target renders k8s-openapi
/// structs as upstream's `json.Marshal` of the Go struct does, which their own `Serialize` does not).
#[must_use]
pub fn slice_unique_by<T>(
    path: &Path<'_>,
    new: &[T],
    matches: fn(&T, &T) -> bool,
    render: impl Fn(&T) -> BadValue,
) -> ErrorList {
    unique_indexes(new.len(), |i, j| matches(&new[i], &new[j]))
        .into_iter()
        .map(|j| Error::duplicate(&path.index(j), render(&new[j])))
        .collect()
}

/// upstream `PtrSliceUnique`: like [`slice_unique`], nil elements ignored (same cost bound).
#[must_use]
pub fn ptr_slice_unique<T: serde::Serialize>(
    path: &Path<'_>,
    new: &[Option<T>],
    matches: fn(&T, &T) -> bool,
) -> ErrorList {
    unique_indexes(new.len(), |i, j| match (&new[i], &new[j]) {
        (Some(a), Some(b)) => matches(a, b),
        _ => false,
    })
    .into_iter()
    .map(|j| Error::duplicate(&path.index(j), bad_value(&new[j])))
    .collect()
}

/// The indexes j of `0..n` for which some i < j has `matches(i, j)`, ascending. `matches` must be an
/// equivalence on the elements it relates; see [`slice_unique`] for the cost.
/// Allocates nothing when there is no duplicate (a valid object validates without allocating).
fn unique_indexes(n: usize, matches: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    // Empty until the first duplicate is found.
    let mut dup: Vec<bool> = Vec::new();
    let is_dup = |dup: &Vec<bool>, k: usize| dup.get(k).copied().unwrap_or(false);
    for i in 0..n {
        if is_dup(&dup, i) {
            continue;
        }
        for j in i + 1..n {
            if !is_dup(&dup, j) && matches(i, j) {
                if dup.is_empty() {
                    dup = vec![false; n];
                }
                dup[j] = true;
            }
        }
    }
    (0..n).filter(|&j| is_dup(&dup, j)).collect()
}

/// upstream `PtrSliceNoNils`: `Required(path[i], "")` for each nil element.
#[must_use]
pub fn ptr_slice_no_nils<T>(path: &Path<'_>, new: &[Option<T>]) -> ErrorList {
    new.iter()
        .enumerate()
        .filter(|(_, v)| v.is_none())
        .map(|(i, _)| Error::required(&path.index(i), ""))
        .collect()
}

/// upstream `PtrMapNoNils` (k8s.io/apimachinery v0.38, kubernetes#141383): `Required(path[key], "")` (no origin) per
/// nil value of a `map[K]*V`, in key order (Go's map order is random; the differential compares per key).
#[must_use]
pub fn ptr_map_no_nils<T>(path: &Path<'_>, new: &BTreeMap<String, Option<T>>) -> ErrorList {
    new.iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| Error::required(&path.key(k), ""))
        .collect()
}

/// upstream `ValSliceUpdate` / `PtrSliceUpdate` for NoAddItem / NoRemoveItem (`matches` identifies items).
#[must_use]
pub fn slice_update<T>(
    path: &Path<'_>,
    op: &Operation,
    new: &[T],
    old: &[T],
    matches: fn(&T, &T) -> bool,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if old.is_empty() && !new.is_empty() => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if !old.is_empty() && new.is_empty() => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoAddItem => {
                for (i, n) in new.iter().enumerate() {
                    if !old.iter().any(|o| matches(o, n)) {
                        errs.push(
                            Error::forbidden(&path.index(i), "item may not be added")
                                .with_origin("update"),
                        );
                    }
                }
            }
            UpdateConstraint::NoRemoveItem => {
                for o in old {
                    if !new.iter().any(|n| matches(o, n)) {
                        errs.push(
                            Error::forbidden(path, "item may not be removed").with_origin("update"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    errs
}

/// upstream `PtrSliceUpdate`: [`slice_update`] for `[]*T`; nil elements are ignored when matching and never
/// count as added or removed items.
#[must_use]
pub fn ptr_slice_update<T>(
    path: &Path<'_>,
    op: &Operation,
    new: &[Option<T>],
    old: &[Option<T>],
    matches: fn(&T, &T) -> bool,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if old.is_empty() && !new.is_empty() => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if !old.is_empty() && new.is_empty() => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoAddItem => {
                for (i, n) in new.iter().enumerate() {
                    let Some(n) = n else { continue };
                    if !old.iter().flatten().any(|o| matches(o, n)) {
                        errs.push(
                            Error::forbidden(&path.index(i), "item may not be added")
                                .with_origin("update"),
                        );
                    }
                }
            }
            UpdateConstraint::NoRemoveItem => {
                for o in old.iter().flatten() {
                    if !new.iter().flatten().any(|n| matches(o, n)) {
                        errs.push(
                            Error::forbidden(path, "item may not be removed").with_origin("update"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    errs
}

/// upstream `UpdateMap` for NoSet / NoUnset / NoAddItem / NoRemoveItem (keys identify items).
#[must_use]
pub fn map_update<V>(
    path: &Path<'_>,
    op: &Operation,
    new: &BTreeMap<String, V>,
    old: &BTreeMap<String, V>,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if old.is_empty() && !new.is_empty() => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if !old.is_empty() && new.is_empty() => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoAddItem => {
                for k in new.keys().filter(|k| !old.contains_key(*k)) {
                    errs.push(
                        Error::forbidden(&path.key(k), "item may not be added")
                            .with_origin("update"),
                    );
                }
            }
            UpdateConstraint::NoRemoveItem => {
                for k in old.keys().filter(|k| !new.contains_key(*k)) {
                    errs.push(
                        Error::forbidden(&path.key(k), "item may not be removed")
                            .with_origin("update"),
                    );
                }
            }
            _ => {}
        }
    }
    errs
}

/// The upstream "undefined validation option" internal error.
#[must_use]
pub fn undefined_option(path: &Path<'_>, option: &str) -> Error {
    Error::internal(path, format!("undefined validation option {option:?}"))
}

// ---- unions (upstream union.go, zeroorone.go) ------------------------------------------------------------

/// Shared body of upstream `unionValidate`: `None` when the update ratchets (old object present and no member's
/// set-ness changed), otherwise the names of the members that are set. `old_set` is all-false when there is no
/// old object (upstream's extractors return false for a nil object).
fn union_specified<'a>(
    op: &Operation,
    has_old: bool,
    new_set: &[bool],
    old_set: &[bool],
    members: &[&'a str],
) -> Option<Vec<&'a str>> {
    let changed = op.is_update() && new_set.iter().zip(old_set).any(|(n, o)| n != o);
    if op.is_update() && has_old && !changed {
        return None;
    }
    Some(
        members
            .iter()
            .zip(new_set)
            .filter(|(_, s)| **s)
            .map(|(m, _)| *m)
            .collect(),
    )
}

fn backticked(members: &[&str]) -> String {
    members
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// upstream `Union`: exactly one member must be set. None → `Invalid(path, "", "must specify one of: `a`, `b`")`;
/// several → `Invalid(path, "{a, b}", "must specify exactly one of: …")`; origin `union`. Member names are JSON
/// names.
#[must_use]
pub fn union(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    new_set: &[bool],
    old_set: &[bool],
    members: &[&str],
) -> ErrorList {
    // Exactly one member set is valid whatever the operation (the ratchet can only suppress errors).
    if new_set.iter().filter(|s| **s).count() == 1 {
        return Vec::new();
    }
    let Some(specified) = union_specified(op, has_old, new_set, old_set, members) else {
        return Vec::new();
    };
    match specified.len() {
        1 => Vec::new(),
        0 => one(Error::invalid(
            path,
            BadValue::Str(String::new()),
            format!("must specify one of: {}", backticked(members)),
        )
        .with_origin("union")),
        _ => one(Error::invalid(
            path,
            BadValue::Str(format!("{{{}}}", specified.join(", "))),
            format!("must specify exactly one of: {}", backticked(members)),
        )
        .with_origin("union")),
    }
}

/// upstream `ZeroOrOneOfUnion`: at most one member may be set; several →
/// `Invalid(path, "{a, b}", "must specify at most one of: `a`, `b`")`, origin `zeroOrOneOf`.
#[must_use]
pub fn zero_or_one_of(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    new_set: &[bool],
    old_set: &[bool],
    members: &[&str],
) -> ErrorList {
    if new_set.iter().filter(|s| **s).count() <= 1 {
        return Vec::new();
    }
    let Some(specified) = union_specified(op, has_old, new_set, old_set, members) else {
        return Vec::new();
    };
    if specified.len() > 1 {
        one(Error::invalid(
            path,
            BadValue::Str(format!("{{{}}}", specified.join(", "))),
            format!("must specify at most one of: {}", backticked(members)),
        )
        .with_origin("zeroOrOneOf"))
    } else {
        Vec::new()
    }
}

/// A member of a discriminated union: JSON name and discriminator value (`memberName`, default the Go name).
pub type DiscriminatedMember<'a> = (&'a str, &'a str);

/// upstream `DiscriminatedUnion`: for each member, set but not selected → `Invalid(path.<json>, "", "may only be
/// specified when `<disc>` is \"<memberName>\"")`; selected but unset → `"must be specified when `<disc>` is
/// \"<value>\""`; origin `union`. On update with an old object, nothing is reported when neither the discriminator
/// nor any member's set-ness changed.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
#[must_use]
pub fn discriminated_union(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    discriminator: &str,
    disc_new: &str,
    disc_old: &str,
    new_set: &[bool],
    old_set: &[bool],
    members: &[DiscriminatedMember<'_>],
) -> ErrorList {
    let mut changed = op.is_update() && disc_new != disc_old;
    let mut errs = Vec::new();
    for (i, (json, member_name)) in members.iter().enumerate() {
        let selected = disc_new == *member_name;
        let set = new_set.get(i).copied().unwrap_or(false);
        if op.is_update() && !changed {
            changed = set != old_set.get(i).copied().unwrap_or(false);
        }
        if set && !selected {
            errs.push(Error::invalid(
                &path.child(json),
                BadValue::Str(String::new()),
                format!("may only be specified when `{discriminator}` is {member_name:?}"),
            ));
        } else if !set && selected {
            errs.push(Error::invalid(
                &path.child(json),
                BadValue::Str(String::new()),
                format!("must be specified when `{discriminator}` is {disc_new:?}"),
            ));
        }
    }
    if op.is_update() && has_old && !changed {
        return Vec::new();
    }
    errs.into_iter().map(|e| e.with_origin("union")).collect()
}

// ---- dependent fields, monotonic, neq (upstream dependentrequired.go, monotonic.go, equality.go) ---------

/// upstream `DependentRequired` (`forbidden == false`) and `DependentForbidden` (`forbidden == true`), run on the
/// parent struct: when the trigger is set and the dependent is unset → `Required(path.<dep>, "must be set when
/// <trigger> is set")`, origin `dependentRequired`; when both are set → `Forbidden(path.<dep>, "may not be set when
/// <trigger> is set")`, origin `dependentForbidden`. On update with an old object, skipped when both set-nesses
/// are unchanged.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
#[must_use]
pub fn dependent(
    path: &Path<'_>,
    op: &Operation,
    forbidden: bool,
    trigger: &str,
    (trigger_set, old_trigger_set): (bool, Option<bool>),
    dependent: &str,
    (dependent_set, old_dependent_set): (bool, Option<bool>),
) -> ErrorList {
    if op.is_update()
        && let (Some(ot), Some(od)) = (old_trigger_set, old_dependent_set)
        && ot == trigger_set
        && od == dependent_set
    {
        return Vec::new();
    }
    if !trigger_set {
        return Vec::new();
    }
    match (forbidden, dependent_set) {
        (false, false) => one(Error::required(
            &path.child(dependent),
            format!("must be set when {trigger} is set"),
        )
        .with_origin("dependentRequired")),
        (true, true) => one(Error::forbidden(
            &path.child(dependent),
            format!("may not be set when {trigger} is set"),
        )
        .with_origin("dependentForbidden")),
        _ => Vec::new(),
    }
}

/// upstream `Monotonic`: on update, when both values are present and the new one is smaller →
/// `Invalid(path, new, "may not be decreased from <old>")`, origin `monotonic`.
#[must_use]
pub fn monotonic<T: Copy + Into<i128> + serde::Serialize>(
    path: &Path<'_>,
    op: &Operation,
    value: Option<&T>,
    old: Option<&T>,
) -> ErrorList {
    match (op.is_update(), value, old) {
        (true, Some(v), Some(o)) if (*v).into() < (*o).into() => one(Error::invalid(
            path,
            bad_value(v),
            format!("may not be decreased from {}", (*o).into()),
        )
        .with_origin("monotonic")),
        _ => Vec::new(),
    }
}

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
mod release_tests {
    use super::*;

    /// 1.35's `MaxLength` counts bytes and says so, origin `maxLength` (apimachinery v0.35.10 `limits.go`); 1.36 on
    /// count runes. 1.35's union errors carry no origin.
    #[test]
    fn release_1_35_max_length_and_union_origin() {
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
        let op = Operation::create();
        let u = union(
            &path,
            &op,
            false,
            &[false, false],
            &[false, false],
            &["a", "b"],
        );
        assert_eq!(u[0].origin, "union");
        assert_eq!(
            show(without_origin(u)),
            ["name: Invalid value: \"\": must specify one of: `a`, `b` []"]
        );
    }

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

    /// `Minimum`/`Maximum` over `time.Duration`: apimachinery v0.37 prints the bound with `%d` (nanoseconds, what
    /// [`minimum`] gives), v0.38 with `%v` (`Duration.String()`); the value is the JSON number in both. Upstream's
    /// texts as the runtime differential saw them.
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

    /// `PtrMapNoNils` (v0.38): `Required` at each nil value's key, no origin.
    #[test]
    fn ptr_map_no_nils_per_key() {
        let root = Path::Root;
        let path = root.child("m");
        let m: BTreeMap<String, Option<i32>> = [("a", Some(1)), ("b", None), ("c", None)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let got: Vec<String> = ptr_map_no_nils(&path, &m)
            .iter()
            .map(|e| format!("{e} [{}]", e.origin))
            .collect();
        assert_eq!(got, ["m[b]: Required value []", "m[c]: Required value []"]);
        assert!(ptr_map_no_nils::<i32>(&path, &BTreeMap::new()).is_empty());
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    fn counted_eq(a: &String, b: &String) -> bool {
        CALLS.fetch_add(1, Ordering::Relaxed);
        a == b
    }

    fn dup_strings(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    /// R16: errors and order as upstream's `ValSliceUnique`, and the comparison count bound (n-1 for equal items,
    /// n(n-1)/2 for distinct ones) instead of upstream's cubic loop.
    #[test]
    fn r16_uniqueness_is_quadratic_at_worst_with_upstream_errors() {
        let root = Path::Root;
        let hosts = root.child("hosts");
        let v: Vec<String> = ["a", "b", "a", "c", "b", "a"].map(String::from).to_vec();
        assert_eq!(
            dup_strings(&slice_unique(&hosts, &v, counted_eq)),
            [
                r#"hosts[2]: Duplicate value: "a""#,
                r#"hosts[4]: Duplicate value: "b""#,
                r#"hosts[5]: Duplicate value: "a""#,
            ]
        );
        let ptrs: Vec<Option<String>> = vec![None, Some("x".into()), None, Some("x".into())];
        assert_eq!(
            dup_strings(&ptr_slice_unique(&hosts, &ptrs, counted_eq)),
            [r#"hosts[3]: Duplicate value: "x""#]
        );
        let n = 2000;
        let equal = vec!["a.example.com".to_string(); n];
        CALLS.store(0, Ordering::Relaxed);
        assert_eq!(slice_unique(&hosts, &equal, counted_eq).len(), n - 1);
        assert_eq!(CALLS.load(Ordering::Relaxed), n - 1);
        let distinct: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        CALLS.store(0, Ordering::Relaxed);
        assert!(slice_unique(&hosts, &distinct, counted_eq).is_empty());
        assert_eq!(CALLS.load(Ordering::Relaxed), n * (n - 1) / 2);
    }
}
