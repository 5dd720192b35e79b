//! CEL text in the Kubernetes dialect: literals, property access as the API server escapes property names,
//! "is set" tests with upstream's meaning of set, and the `x-kubernetes-validations` rule object.

use serde_json::{Map, Value, json};
use vgc_analysis::types::Builtin;
use vgc_ir::catalog::Stability;
use vgc_lowering::plan::{NeqValue, Shape};

/// A CEL string literal (single quotes; backslash, quote and control characters escaped).
pub(crate) fn str_lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A `neq`/`eq`/selector value as a CEL literal.
pub(crate) fn value_lit(v: &NeqValue) -> String {
    match v {
        NeqValue::Str(s) => str_lit(s),
        NeqValue::Int(i) => i.to_string(),
        NeqValue::Bool(b) => b.to_string(),
    }
}

/// A `neq`/`eq` value as upstream prints it in a message: `%q` for strings, `%v` otherwise.
pub(crate) fn value_words(v: &NeqValue) -> String {
    match v {
        NeqValue::Str(s) => vgc_runtime::field::go_quote(s),
        NeqValue::Int(i) => i.to_string(),
        NeqValue::Bool(b) => b.to_string(),
    }
}

/// A `neq`/`eq` value as JSON (for `enum`).
pub(crate) fn value_json(v: &NeqValue) -> Value {
    match v {
        NeqValue::Str(s) => json!(s),
        NeqValue::Int(i) => json!(i),
        NeqValue::Bool(b) => json!(b),
    }
}

/// CEL's reserved words, which the API server escapes as `__word__` when they are property names. upstream:
/// k8s.io/apiserver `pkg/cel/escaping.go` `celReservedSymbols`.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// A JSON property name as CEL reaches it (upstream `escaping.go` `Escape`): reserved words as `__word__`, `_` as
/// `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`; `None` for a name with other characters,
/// which CEL cannot name.
pub(crate) fn escape(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        match c {
            '_' => out.push_str("__underscores__"),
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphabetic() => out.push(c),
            c if c.is_ascii_digit() && i > 0 => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

/// `obj.<name>`, escaped ([`escape`]).
pub(crate) fn member(obj: &str, name: &str) -> Option<String> {
    escape(name).map(|n| format!("{obj}.{n}"))
}

/// The CRD rule's `fieldPath` of a member: `.name`, or `['name']` when it is not an identifier.
pub(crate) fn field_path(name: &str) -> String {
    if !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
    {
        format!(".{name}")
    } else {
        format!("['{}']", name.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// CEL: the member `name` of the object `obj` is set as upstream's validators mean it (union members, dependent
/// fields, modes, `required`): a pointer non-nil, a list or map non-empty, a scalar non-zero. `None` when CEL cannot
/// name the member.
pub(crate) fn is_set(obj: &str, name: &str, shape: &Shape) -> Option<String> {
    let m = member(obj, name)?;
    let has = format!("has({m})");
    Some(match shape {
        Shape::Scalar { pointer: true, .. } | Shape::Struct { .. } | Shape::Other { .. } => has,
        Shape::List { .. } | Shape::Map => format!("({has} && size({m}) > 0)"),
        Shape::Scalar { ty, pointer: false } => match ty {
            Builtin::Bool => format!("({has} && {m})"),
            Builtin::String => format!("({has} && {m} != '')"),
            Builtin::Float32 | Builtin::Float64 => format!("({has} && {m} != 0.0)"),
            Builtin::Uint
            | Builtin::Uint8
            | Builtin::Uint16
            | Builtin::Uint32
            | Builtin::Uint64
            | Builtin::Int
            | Builtin::Int8
            | Builtin::Int16
            | Builtin::Int32
            | Builtin::Int64
            | Builtin::Duration => format!("({has} && {m} != 0)"),
        },
    })
}

/// CEL: the member `name` of `self` is the same in `oldSelf.value()` (both unset, or both set and equal).
pub(crate) fn unchanged(name: &str) -> Option<String> {
    let n = member("self", name)?;
    let o = member("oldSelf.value()", name)?;
    Some(format!(
        "(has({n}) == has({o}) && (!has({n}) || {n} == {o}))"
    ))
}

/// CEL: the member `name` of `self` is set as it was in `oldSelf.value()` ([`is_set`] of both equal).
pub(crate) fn same_setness(name: &str, shape: &Shape) -> Option<String> {
    Some(format!(
        "({} == {})",
        is_set("self", name, shape)?,
        is_set("oldSelf.value()", name, shape)?
    ))
}

/// The `reason` of a CRD validation rule: the error type the API server reports (of those CRD rules may use that vgc's rules need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    /// `field.Invalid`.
    Invalid,
    /// `field.Required`.
    Required,
    /// `field.Forbidden`.
    Forbidden,
    /// `field.Duplicate`.
    Duplicate,
}

impl Reason {
    fn word(self) -> &'static str {
        match self {
            Reason::Invalid => "FieldValueInvalid",
            Reason::Required => "FieldValueRequired",
            Reason::Forbidden => "FieldValueForbidden",
            Reason::Duplicate => "FieldValueDuplicate",
        }
    }

    /// The message of a rule whose upstream error carries no detail — apimachinery's `RequiredValue`,
    /// `ForbiddenValue` and their kin (`pkg/api/validate/required.go`: `field.Required(fldPath, "")`), a mode's
    /// forbidden member, a list-map's duplicate. The API server needs a message: a rule without `message` or
    /// `messageExpression` is reported as `failed rule: <its CEL text>` (apiextensions-apiserver's
    /// `ruleMessageOrDefault`), and a `messageExpression` that yields `""` is an error of its own. So the message
    /// says what upstream's error type says, in the words Kubernetes' hand-written validation uses: the error
    /// reads `spec.x: Required value: must be specified`, `spec.x: Forbidden: may not be specified`.
    pub(crate) fn default_message(self) -> &'static str {
        match self {
            Reason::Invalid => "invalid value",
            Reason::Required => "must be specified",
            Reason::Forbidden => "may not be specified",
            // `field.Duplicate` reports the value, not the message (`fieldErrorForReason`).
            Reason::Duplicate => "Duplicate value",
        }
    }
}

/// One `x-kubernetes-validations` rule.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    /// The CEL expression: true when the value is valid.
    pub(crate) rule: String,
    /// The message: upstream's detail text.
    pub(crate) message: String,
    /// A message computed from the values (`'may not be decreased from ' + string(oldSelf)`), instead of `message`.
    pub(crate) message_expression: Option<String>,
    /// Where the error is reported, relative to the schema holding the rule (`.replicas`).
    pub(crate) field_path: Option<String>,
    /// The error type.
    pub(crate) reason: Reason,
    /// The tag's level, when alpha or beta.
    pub(crate) stability: Option<Stability>,
    /// The tag the rule says (`k8s:immutable`), kept in the rule object as [`crate::TAG_KEY`].
    pub(crate) tag: Option<String>,
    /// For a rule made to ratchet as upstream does ([`Rule::ratcheted`]): the rule without the ratchet, which
    /// replaces it where the old value cannot be found (kept in the rule object as [`PLAIN_RULE_KEY`]).
    pub(crate) plain: Option<String>,
}

/// The key of a ratcheted rule's plain form ([`Rule::plain`]).
pub(crate) const PLAIN_RULE_KEY: &str = "x-vgc-plain-rule";

impl Rule {
    /// A rule with `message` (empty: the reason's [`Reason::default_message`] when written), no field path, reason
    /// `Invalid`.
    pub(crate) fn new(rule: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            rule: rule.into(),
            message: message.into(),
            message_expression: None,
            field_path: None,
            reason: Reason::Invalid,
            stability: None,
            tag: None,
            plain: None,
        }
    }

    /// With reason `r`.
    pub(crate) fn reason(mut self, r: Reason) -> Self {
        self.reason = r;
        self
    }

    /// Reported at `path`.
    pub(crate) fn at(mut self, path: Option<String>) -> Self {
        self.field_path = path;
        self
    }

    /// With a computed message.
    pub(crate) fn message_expression(mut self, e: impl Into<String>) -> Self {
        self.message_expression = Some(e.into());
        self
    }

    /// This rule skipped on an update where `unchanged` (CEL over `oldSelf.value()` and `self`) holds, as upstream's
    /// validators ratchet (a field's own value unchanged; a union's or dependent rule's set-nesses unchanged):
    /// `optionalOldSelf`, so that it still runs on create.
    pub(crate) fn ratcheted(mut self, unchanged: &str) -> Self {
        let plain = std::mem::take(&mut self.rule);
        self.rule = format!("(oldSelf.hasValue() && {unchanged}) || ({plain})");
        self.plain = Some(plain);
        self
    }

    /// The rule object, keys in the order the API server's `ValidationRule` declares them. Every rule has a
    /// `message` or a `messageExpression`: an empty message is the reason's [`Reason::default_message`].
    pub(crate) fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("rule".into(), json!(self.rule));
        if !self.message.is_empty() {
            m.insert("message".into(), json!(self.message));
        } else if self.message_expression.is_none() {
            m.insert("message".into(), json!(self.reason.default_message()));
        }
        if let Some(e) = &self.message_expression {
            m.insert("messageExpression".into(), json!(e));
        }
        if let Some(p) = &self.field_path {
            m.insert("fieldPath".into(), json!(p));
        }
        m.insert("reason".into(), json!(self.reason.word()));
        if let Some(p) = &self.plain {
            m.insert("optionalOldSelf".into(), json!(true));
            m.insert(PLAIN_RULE_KEY.into(), json!(p));
        }
        if let Some(s) = self.stability.filter(|s| *s != Stability::Stable) {
            m.insert(crate::STABILITY_KEY.into(), json!(crate::stability_word(s)));
        }
        if let Some(t) = &self.tag {
            m.insert(crate::TAG_KEY.into(), json!(t));
        }
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_api_server() {
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("a-b").as_deref(), Some("a__dash__b"));
        assert_eq!(escape("x_y").as_deref(), Some("x__underscores__y"));
        assert_eq!(escape("héllo"), None);
        assert_eq!(str_lit("it's\\"), "'it\\'s\\\\'");
        assert_eq!(field_path("replicas"), ".replicas");
        assert_eq!(field_path("a-b"), "['a-b']");
    }
}
