//! Field paths and errors, mirroring `k8s.io/apimachinery/pkg/util/validation/field`.
//!
//! [`Path`] is a borrowed linked list built on the stack while validating; it is rendered to a `String` only
//! when an error is reported, so validating a valid object allocates nothing.

use std::fmt;

/// A lazily rendered field path. `Root` renders as `<nil>` (upstream passes a nil root path).
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The root (a nil `*field.Path` upstream).
    Root,
    /// `parent.name` (no dot when the parent is the root).
    Child(&'a Path<'a>, &'a str),
    /// `parent[i]`
    Index(&'a Path<'a>, usize),
    /// `parent[key]` (keys are not quoted).
    Key(&'a Path<'a>, &'a str),
}

impl<'a> Path<'a> {
    /// `self.name`
    #[must_use]
    pub fn child(&'a self, name: &'a str) -> Path<'a> {
        Path::Child(self, name)
    }
    /// `self[i]`
    #[must_use]
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }
    /// `self[key]`
    #[must_use]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }
    /// Appends the rendering to `out`. Iterative (R32): a path is as deep as the value it points into.
    fn write(&self, out: &mut String) {
        let mut chain = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Child(p, _) | Path::Index(p, _) | Path::Key(p, _) => {
                    chain.push(at);
                    at = p;
                }
            }
        }
        for seg in chain.into_iter().rev() {
            match seg {
                Path::Root => {}
                Path::Child(p, n) => {
                    if !matches!(p, Path::Root) {
                        out.push('.');
                    }
                    out.push_str(n);
                }
                Path::Index(_, i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
                Path::Key(_, k) => {
                    out.push('[');
                    out.push_str(k);
                    out.push(']');
                }
            }
        }
    }
}

impl fmt::Display for Path<'_> {
    /// Renders as upstream `(*Path).String()`; the root alone is `<nil>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(self, Path::Root) {
            return f.write_str("<nil>");
        }
        let mut s = String::new();
        self.write(&mut s);
        f.write_str(&s)
    }
}

/// Upstream `field.ErrorType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ErrorType {
    /// "Required value"
    Required,
    /// "Forbidden"
    Forbidden,
    /// "Invalid value"
    Invalid,
    /// "Unsupported value"
    NotSupported,
    /// "Duplicate value"
    Duplicate,
    /// "Too long"
    TooLong,
    /// "Too short"
    TooShort,
    /// "Too many"
    TooMany,
    /// "Too few"
    TooFew,
    /// "Internal error"
    Internal,
}

impl ErrorType {
    /// Upstream `ErrorType.String()`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Required => "Required value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::TooLong => "Too long",
            ErrorType::TooShort => "Too short",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
        }
    }

    /// upstream `field.ErrorType` as a string, which `NewInvalid` uses as the `metav1.CauseType` of the error's
    /// cause: `FieldValueRequired`, `FieldValueInvalid`, …, `InternalError`.
    #[must_use]
    pub fn cause_type(self) -> &'static str {
        match self {
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooShort => "FieldValueTooShort",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
        }
    }
}

/// Upstream `field.Error.BadValue`, as the shapes validation code produces.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum BadValue {
    /// No value (Required, Forbidden, Internal: upstream passes `""` and omits it from the message).
    None,
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// Anything else, as JSON.
    Json(serde_json::Value),
}

/// Stability marker of an error (upstream `ValidationStabilityLevel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum StabilityLevel {
    /// Marked by `.MarkAlpha()`.
    Alpha,
    /// Marked by `.MarkBeta()`.
    Beta,
}

/// Upstream `field.Error`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Error {
    /// Error type.
    #[serde(rename = "type")]
    pub error_type: ErrorType,
    /// The rendered field path.
    pub field: String,
    /// The offending value.
    pub bad_value: BadValue,
    /// Human detail.
    pub detail: String,
    /// Which rule produced it (`maxItems`, `format=k8s-short-name`, …); empty when none.
    pub origin: String,
    /// Set by `.MarkShortCircuit()`.
    pub short_circuit: bool,
    /// Alpha/beta marker.
    pub stability: Option<StabilityLevel>,
}

impl Error {
    fn new(
        error_type: ErrorType,
        path: &Path<'_>,
        bad_value: BadValue,
        detail: impl Into<String>,
    ) -> Self {
        Self {
            error_type,
            field: path.to_string(),
            bad_value,
            detail: detail.into(),
            origin: String::new(),
            short_circuit: false,
            stability: None,
        }
    }
    /// `field.Required(path, detail)`
    #[must_use]
    pub fn required(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, path, BadValue::None, detail)
    }
    /// `field.Forbidden(path, detail)`
    #[must_use]
    pub fn forbidden(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, path, BadValue::None, detail)
    }
    /// `field.Invalid(path, value, detail)`
    #[must_use]
    pub fn invalid(path: &Path<'_>, value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Invalid, path, value, detail)
    }
    /// `field.NotSupported(path, value, validValues)` with the detail already rendered.
    #[must_use]
    pub fn not_supported(path: &Path<'_>, value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::NotSupported, path, value, detail)
    }
    /// `field.Duplicate(path, value)`
    #[must_use]
    pub fn duplicate(path: &Path<'_>, value: BadValue) -> Self {
        Self::new(ErrorType::Duplicate, path, value, "")
    }
    /// `field.TooLong(path, "<value omitted>", max)` with the detail rendered.
    #[must_use]
    pub fn too_long(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(
            ErrorType::TooLong,
            path,
            BadValue::Str("<value omitted>".into()),
            detail,
        )
    }
    /// `field.TooShort(path, value, min)` with the detail rendered.
    #[must_use]
    pub fn too_short(path: &Path<'_>, value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::TooShort, path, value, detail)
    }
    /// `field.TooMany(path, actual, max)` with the detail rendered.
    #[must_use]
    pub fn too_many(path: &Path<'_>, actual: i64, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::TooMany, path, BadValue::Int(actual), detail)
    }
    /// `field.TooFew(path, actual, min)` with the detail rendered.
    #[must_use]
    pub fn too_few(path: &Path<'_>, actual: i64, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::TooFew, path, BadValue::Int(actual), detail)
    }
    /// `field.InternalError(path, err)`
    #[must_use]
    pub fn internal(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Internal, path, BadValue::None, detail)
    }
    /// `.WithOrigin(o)`
    #[must_use]
    pub fn with_origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = origin.into();
        self
    }

    /// Upstream `ErrorBody()`: `"<Type>: <value>: <detail>"`; Required, Forbidden, TooLong, TooShort and Internal
    /// omit the value; strings are `%q`-quoted ([`go_quote`]), ints and bools `%v`, anything else Go's
    /// `json.Marshal` ([`go_json`]).
    #[must_use]
    pub fn body(&self) -> String {
        let mut s = self.error_type.as_str().to_string();
        let omit = matches!(
            self.error_type,
            ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::TooShort
                | ErrorType::Internal
        );
        if !omit {
            let v = match &self.bad_value {
                BadValue::None => "\"\"".to_string(),
                BadValue::Str(x) => go_quote(x),
                BadValue::Int(i) => i.to_string(),
                BadValue::Bool(b) => b.to_string(),
                BadValue::Json(j) => go_json(j),
            };
            s.push_str(": ");
            s.push_str(&v);
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for Error {
    /// Upstream `Error()`: `"<field>: <body>"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// Go's `strconv.Quote` (the `%q` verb upstream's `ErrorBody` uses for string values): `"` and `\\` escaped,
/// printable characters as they are, `\a \b \f \n \r \t \v`, other characters below U+0020 and U+007F as
/// `\xHH`, other non-printable ones as `\uHHHH` (or `\UHHHHHHHH` above the BMP).
///
/// Go's `unicode.IsPrint` is approximated without Unicode tables: control characters (Cc), the separators other
/// than the ASCII space (Zs, Zl, Zp), the common format characters (Cf) and private-use characters are not
/// printable; every other character is.
#[must_use]
pub fn go_quote(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if go_printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`, approximated (see [`go_quote`]).
fn go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(c,
            '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}' | '\u{180e}'
            | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
            | '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{10ffff}'))
}

/// The errors of a check on a value of a named Go string type (an enum type, `type Name string`): their string
/// values become [`BadValue::Json`]. upstream `ErrorBody` quotes a Go `string` with `%q` but renders any other
/// type — a named string type included, since its type switch matches `string` exactly — as JSON
/// ([`go_json`]): `"a\u0026b"` instead of `"a&b"`, and non-printable characters other than control characters
/// are written as they are instead of `%q`'s escapes. Other values are unchanged.
#[must_use]
pub fn typed_values(mut errs: Vec<Error>) -> Vec<Error> {
    for e in &mut errs {
        if let BadValue::Str(s) = &mut e.bad_value {
            e.bad_value = BadValue::Json(serde_json::Value::String(std::mem::take(s)));
        }
    }
    errs
}

/// A JSON value as Go's `encoding/json` `Marshal` prints it (upstream `ErrorBody` renders values that are not
/// strings, integers, floats or bools this way): compact; strings with `<`, `>`, `&`, U+2028 and U+2029 escaped as
/// `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`, `\b \f \n \r \t` and other control characters as
/// `\u00hh`; floats in the shortest form, with an exponent (`1e+21`, `1e-7`) below 1e-6 or from 1e21 on.
/// Object members print in the value's order (struct field order; maps are sorted, as Go sorts map keys).
#[must_use]
pub fn go_json(v: &serde_json::Value) -> String {
    let mut out = String::new();
    write_go_json(v, &mut out);
    out
}

fn write_go_json(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => out.push_str(&i.to_string()),
            (_, Some(u), _) => out.push_str(&u.to_string()),
            (_, _, Some(f)) => out.push_str(&go_json_float(f)),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => write_go_json_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json_string(k, out);
                out.push(':');
                write_go_json(x, out);
            }
            out.push('}');
        }
    }
}

fn write_go_json_string(s: &str, out: &mut String) {
    use std::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go `encoding/json`'s float64 encoding: `strconv.FormatFloat(f, 'f', -1, 64)`, or `'e'` (exponent with a sign
/// and no leading zero) when the magnitude is below 1e-6 or at least 1e21.
fn go_json_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let e = format!("{f:e}");
        let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
        match exp.strip_prefix('-') {
            Some(neg) => format!("{mantissa}e-{neg}"),
            None => format!("{mantissa}e+{exp:0>2}"),
        }
    } else {
        format!("{f}")
    }
}

/// Upstream `field.ErrorList`.
pub type ErrorList = Vec<Error>;

/// Marking helpers on error lists (upstream `ErrorList.MarkShortCircuit/MarkAlpha/MarkBeta`).
pub trait ErrorListExt {
    /// Sets `short_circuit` on every error.
    #[must_use]
    fn mark_short_circuit(self) -> Self;
    /// Marks every error alpha.
    #[must_use]
    fn mark_alpha(self) -> Self;
    /// Marks every error beta.
    #[must_use]
    fn mark_beta(self) -> Self;
}

impl ErrorListExt for ErrorList {
    fn mark_short_circuit(mut self) -> Self {
        for e in &mut self {
            e.short_circuit = true;
        }
        self
    }
    fn mark_alpha(mut self) -> Self {
        for e in &mut self {
            e.stability = Some(StabilityLevel::Alpha);
        }
        self
    }
    fn mark_beta(mut self) -> Self {
        for e in &mut self {
            e.stability = Some(StabilityLevel::Beta);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn paths_render_like_upstream() {
        let root = Path::Root;
        assert_eq!(root.to_string(), "<nil>");
        let spec = root.child("spec");
        let items = spec.child("items");
        let i = items.index(3);
        let k = i.key("a/b");
        assert_eq!(k.to_string(), "spec.items[3][a/b]");
    }
    /// Expected strings printed by Go 1.26 with k8s.io/apimachinery v0.37.2:
    /// `field.Invalid(field.NewPath("x"), v, "d").Error()` for the Go value named in each comment.
    #[test]
    fn named_string_values_render_as_json() {
        let root = Path::Root;
        let x = root.child("level");
        let errs = typed_values(vec![Error::not_supported(
            &x,
            BadValue::Str("a&b<\u{7f}".into()),
            "supported values: \"High\"",
        )]);
        assert_eq!(
            errs[0].to_string(),
            "level: Unsupported value: \"a\\u0026b\\u003c\u{7f}\": supported values: \"High\""
        );
        let plain = Error::not_supported(&x, BadValue::Str("a&b<\u{7f}".into()), "d");
        assert_eq!(
            plain.to_string(),
            "level: Unsupported value: \"a&b<\\x7f\": d"
        );
    }

    #[test]
    fn values_render_like_go_error_body() {
        let x = Path::Root;
        let x = x.child("x");
        let json = |v: serde_json::Value| Error::invalid(&x, BadValue::Json(v), "d").to_string();
        // *float64 (json.Marshal): 0, 1.5, 1e21, 1e20, 1e-7, 1e-6
        assert_eq!(json(serde_json::json!(0.0)), "x: Invalid value: 0: d");
        assert_eq!(json(serde_json::json!(1.5)), "x: Invalid value: 1.5: d");
        assert_eq!(json(serde_json::json!(1e21)), "x: Invalid value: 1e+21: d");
        assert_eq!(
            json(serde_json::json!(1e20)),
            "x: Invalid value: 100000000000000000000: d"
        );
        assert_eq!(
            json(serde_json::json!(0.000_000_1)),
            "x: Invalid value: 1e-7: d"
        );
        assert_eq!(
            json(serde_json::json!(0.000_001)),
            "x: Invalid value: 0.000001: d"
        );
        // nil []string, nil map[string]string
        assert_eq!(json(serde_json::Value::Null), "x: Invalid value: null: d");
        // []string{"<a>&b", "\u2028\u2029", "\x01\x7f\t\n\b\f"}
        assert_eq!(
            json(serde_json::json!([
                "<a>&b",
                "\u{2028}\u{2029}",
                "\u{1}\u{7f}\t\n\u{8}\u{c}"
            ])),
            "x: Invalid value: [\"\\u003ca\\u003e\\u0026b\",\"\\u2028\\u2029\",\"\\u0001\u{7f}\\t\\n\\b\\f\"]: d"
        );
        // struct{A string; F float64; L []string; M map[string]string}{A: "<x>"}
        assert_eq!(
            json(serde_json::json!({"a": "<x>", "f": 0.0, "l": null, "m": null})),
            r#"x: Invalid value: {"a":"\u003cx\u003e","f":0,"l":null,"m":null}: d"#
        );
        // string "<a>&\u2028\x01\x7f\t é" (%q)
        assert_eq!(
            Error::invalid(&x, BadValue::Str("<a>&\u{2028}\u{1}\u{7f}\t é".into()), "d")
                .to_string(),
            r#"x: Invalid value: "<a>&\u2028\x01\x7f\t é": d"#
        );
    }
    #[test]
    fn error_strings() {
        let p = Path::Root;
        let c = p.child("name");
        let e = Error::invalid(&c, BadValue::Str("x\"y".into()), "bad")
            .with_origin("format=k8s-short-name");
        assert_eq!(e.to_string(), r#"name: Invalid value: "x\"y": bad"#);
        assert_eq!(Error::required(&c, "").to_string(), "name: Required value");
        assert_eq!(
            Error::too_many(&c, 3, "must have at most 2 items").to_string(),
            "name: Too many: 3: must have at most 2 items"
        );
    }
}
