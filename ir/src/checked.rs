//! A tag's payload and arguments as lowering reads them: by the kinds the catalog declares, after the catalog
//! checks ([`crate::check::check_tag_use`], which report a payload or argument of another kind, an unknown
//! argument and a missing required one) have passed. Lowering reads tags only through [`Checked`], never by
//! matching the parser's [`Scalar`]s, and an argument name it asks for must be one the tag's catalog entry declares
//! (checked in debug builds, so the tests find a misspelt name).

use crate::catalog::{TagIdent, ValueKind};
use vgc_parser::tags::{Scalar, Tag};

/// Typed reads of a checked tag. Each returns `None` when the value is absent or of another kind (which the
/// catalog checks have reported; lowering then makes nothing of it).
pub trait Checked {
    /// The string payload (`=value`, `="value"`).
    fn str_payload(&self) -> Option<&str>;
    /// The integer payload (`=5`, `=0x10`), as `strconv.ParseInt(text, 0, 64)` reads it.
    fn int_payload(&self) -> Option<i64>;
    /// The scalar payload as written, whatever its kind (`=1Gi`, `=5`, `=true`): for payloads the catalog declares
    /// `raw` and whose meaning depends on the value's type (quantities, durations, `eq`/`neq`).
    fn raw_payload(&self) -> Option<&Scalar>;
    /// The scalar payload's literal as written, whatever its kind (`=1Gi`, `=0x10`, `=true`).
    fn literal_payload(&self) -> Option<String>;
    /// The positional string argument (`+k8s:ifEnabled(MyOption)`).
    fn str_positional(&self) -> Option<&str>;
    /// The positional argument's literal as written, whatever its kind (`+k8s:ifMode(true)` → `"true"`).
    fn literal_positional(&self) -> Option<String>;
    /// The named string argument `name` (`union: "u"`); `name` must be one the tag declares.
    fn str_arg(&self, name: &str) -> Option<&str>;
}

impl Checked for Tag {
    fn str_payload(&self) -> Option<&str> {
        match self.scalar_value() {
            Some(Scalar::Str(s)) => Some(s),
            _ => None,
        }
    }

    fn int_payload(&self) -> Option<i64> {
        match self.scalar_value() {
            Some(Scalar::Int { value, .. }) => Some(*value),
            _ => None,
        }
    }

    fn raw_payload(&self) -> Option<&Scalar> {
        self.scalar_value()
    }

    fn literal_payload(&self) -> Option<String> {
        self.scalar_value().map(literal)
    }

    fn str_positional(&self) -> Option<&str> {
        debug_assert!(
            declares(self, ""),
            "{}: no positional argument in the catalog",
            self.name
        );
        match self.positional().map(|a| &a.value) {
            Some(Scalar::Str(s)) => Some(s),
            _ => None,
        }
    }

    fn literal_positional(&self) -> Option<String> {
        debug_assert!(
            declares(self, ""),
            "{}: no positional argument in the catalog",
            self.name
        );
        self.positional().map(|a| literal(&a.value))
    }

    fn str_arg(&self, name: &str) -> Option<&str> {
        debug_assert!(
            declares(self, name),
            "{}: no argument {name:?} in the catalog",
            self.name
        );
        match self.arg(name).map(|a| &a.value) {
            Some(Scalar::Str(s)) => Some(s),
            _ => None,
        }
    }
}

/// A scalar as written: a string's value, an integer's literal text, `true`/`false`.
fn literal(s: &Scalar) -> String {
    match s {
        Scalar::Str(v) => v.clone(),
        Scalar::Int { text, .. } => text.clone(),
        Scalar::Bool(b) => b.to_string(),
    }
}

/// Whether `tag`'s catalog entry declares argument `name` (`""`: the positional one), or accepts any (`item`);
/// true for a tag the catalog does not know (nothing to check against).
fn declares(tag: &Tag, name: &str) -> bool {
    tag.tag_id().is_none_or(|id| {
        let spec = id.spec();
        spec.accepts_unknown_args
            || spec
                .args
                .iter()
                .any(|a| a.name == name && (a.kind == ValueKind::String || name.is_empty()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(src: &str) -> Tag {
        vgc_parser::tags::parse(src).expect("parses")
    }

    #[test]
    fn reads_by_the_declared_kind() {
        assert_eq!(
            tag("k8s:format=k8s-short-name").str_payload(),
            Some("k8s-short-name")
        );
        assert_eq!(tag("k8s:maxItems=0x10").int_payload(), Some(16));
        assert_eq!(tag("k8s:maxItems=\"x\"").int_payload(), None);
        assert_eq!(
            tag("k8s:ifEnabled(Opt)=+k8s:required").str_positional(),
            Some("Opt")
        );
        assert_eq!(
            tag("k8s:ifMode(true)=+k8s:required")
                .literal_positional()
                .as_deref(),
            Some("true")
        );
        assert_eq!(
            tag("k8s:unionMember(union: \"u\")").str_arg("union"),
            Some("u")
        );
        assert_eq!(tag("k8s:unionMember").str_arg("union"), None);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "no argument \"unoin\" in the catalog")]
    fn a_misspelt_argument_name_is_caught_in_debug_builds() {
        let _ = tag("k8s:unionMember(union: \"u\")").str_arg("unoin");
    }
}
