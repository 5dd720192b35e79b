//! The tag AST: the owned result of parsing one tag line. Spans are byte ranges relative to the tag text
//! (the text after the `+` prefix); callers add the comment's base offset to map them into the file.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A byte range `start..end` in the tag text.
pub type Span = std::ops::Range<usize>;

/// One parsed tag, possibly the head of a chain (`k8s:beta(since: "1.37")=+k8s:immutable`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    /// The full tag name, e.g. `k8s:maxItems`.
    pub name: String,
    /// Byte span of the name.
    pub name_span: Span,
    /// Arguments in source order (named or a single positional one).
    pub args: Vec<Arg>,
    /// The payload after `=`, if any.
    pub value: Option<TagValue>,
    /// Byte span of the whole tag, including its chained payload.
    pub span: Span,
}

/// One argument. `name` is `None` for the (single) positional argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arg {
    /// The argument name of a named argument (`since` in `since: "1.37"`).
    pub name: Option<String>,
    /// The argument value.
    pub value: Scalar,
    /// Byte span of the whole argument.
    pub span: Span,
}

/// A scalar argument or payload. Upstream types: a quoted string or bare identifier is `string`
/// (`true`/`false` is `bool`), an integer literal is `int` and keeps its source text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scalar {
    /// A string (quoted, or a bare identifier).
    Str(String),
    /// An integer; `text` is the literal as written (`+5`, `0x1F`), `value` its parsed value.
    Int {
        /// The literal as written.
        text: String,
        /// The value as `strconv.ParseInt(text, 0, 64)` returns it.
        value: i64,
    },
    /// A bare `true` or `false`.
    Bool(bool),
}

/// The payload of a tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TagValue {
    /// A scalar payload and its byte span.
    Scalar(Scalar, Span),
    /// A chained tag (`=+k8s:immutable`).
    Tag(Box<Tag>),
}

impl Scalar {
    /// The upstream type name of this scalar: `string`, `int` or `bool`.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Scalar::Str(_) => "string",
            Scalar::Int { .. } => "int",
            Scalar::Bool(_) => "bool",
        }
    }
}

/// Writes `s` as Go's `strconv.Quote` would for the characters tags contain.
pub(crate) fn go_quote(s: &str, f: &mut impl fmt::Write) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            c if c.is_control() => write!(f, "\\u{:04x}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

impl fmt::Display for Scalar {
    /// Canonical upstream `String()` form: strings Go-quoted, ints as written, bools bare.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Str(s) => go_quote(s, f),
            Scalar::Int { text, .. } => f.write_str(text),
            Scalar::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Display for Tag {
    /// Canonical upstream `Tag.String()`: `name(args)=value`, args joined by `", "`, named args as `n: v`,
    /// a chained payload as `=+inner`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.args.is_empty() {
            f.write_str("(")?;
            for (i, a) in self.args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                if let Some(n) = &a.name {
                    write!(f, "{n}: ")?;
                }
                write!(f, "{}", a.value)?;
            }
            f.write_str(")")?;
        }
        match &self.value {
            None => Ok(()),
            Some(TagValue::Scalar(s, _)) => write!(f, "={s}"),
            Some(TagValue::Tag(t)) => write!(f, "=+{t}"),
        }
    }
}

impl Tag {
    /// Iterates over this tag and every tag chained below it, outermost first.
    pub fn chain(&self) -> impl Iterator<Item = &Tag> {
        std::iter::successors(Some(self), |t| match &t.value {
            Some(TagValue::Tag(inner)) => Some(inner.as_ref()),
            _ => None,
        })
    }

    /// The named argument `name`, if present.
    #[must_use]
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.name.as_deref() == Some(name))
    }

    /// The positional argument, if present.
    #[must_use]
    pub fn positional(&self) -> Option<&Arg> {
        self.args.iter().find(|a| a.name.is_none())
    }

    /// The scalar payload, if the payload is a scalar.
    #[must_use]
    pub fn scalar_value(&self) -> Option<&Scalar> {
        match &self.value {
            Some(TagValue::Scalar(s, _)) => Some(s),
            _ => None,
        }
    }

    /// The chained payload tag, if any.
    #[must_use]
    pub fn inner(&self) -> Option<&Tag> {
        match &self.value {
            Some(TagValue::Tag(t)) => Some(t),
            _ => None,
        }
    }

    /// Shifts every span in this tag (and its chain) by `delta` bytes.
    pub fn shift(&mut self, delta: usize) {
        let sh = |s: &mut Span| *s = s.start + delta..s.end + delta;
        sh(&mut self.name_span);
        sh(&mut self.span);
        for a in &mut self.args {
            sh(&mut a.span);
        }
        match &mut self.value {
            Some(TagValue::Scalar(_, s)) => sh(s),
            Some(TagValue::Tag(t)) => t.shift(delta),
            None => {}
        }
    }
}
