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
    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Child(p, n) => {
                p.write(out);
                if !matches!(p, Path::Root) {
                    out.push('.');
                }
                out.push_str(n);
            }
            Path::Index(p, i) => {
                p.write(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            Path::Key(p, k) => {
                p.write(out);
                out.push('[');
                out.push_str(k);
                out.push(']');
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
    /// omit the value; strings are `%q`-quoted, ints and bools `%v`, anything else JSON.
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
                BadValue::Str(x) => serde_json::to_string(x).unwrap_or_default(),
                BadValue::Int(i) => i.to_string(),
                BadValue::Bool(b) => b.to_string(),
                BadValue::Json(j) => j.to_string(),
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
