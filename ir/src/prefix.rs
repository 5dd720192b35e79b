//! The tag prefix (`--tag-prefix`, upstream 1.38, kubernetes#141866): the namespace validation-gen's tags are
//! written in (`k8s:` by default, so `+k8s:required`).
//!
//! vgc keeps one **canonical** spelling internally: every tag name read with the prefix in force is renamed to
//! `k8s:<name>` when the file is read ([`TagPrefix::canonical`]), so the catalog, the checks, lowering and lint work
//! on the names they always did, and the per-file IR under `acme:` equals the IR of the same file written with
//! `k8s:` (generated code is byte-identical). A chained tag name that does not carry the prefix
//! (`+acme:eachVal=+k8s:required` under `acme:`) is kept as written behind the internal [`FOREIGN`] marker, so it
//! is an unknown tag, as in upstream's registry. Texts shown to the user (diagnostics, hints, fixes, the tag
//! reference) are qualified back with the prefix by [`TagPrefix::requalify`], as upstream builds its messages
//! from the prefix (`+%[1]soptional`); with the default prefix nothing changes.

use std::sync::Arc;

/// Marks a chained tag name read without the prefix in force (kept as written after it). Not a valid tag-name
/// character sequence, so it never matches a catalog name; [`TagPrefix::requalify`] removes it.
pub const FOREIGN: &str = "?:";

/// The default prefix, upstream's `--tag-prefix` default.
pub const DEFAULT: &str = "k8s:";

/// A validated tag prefix: empty or one or more `:`-terminated tag-name segments (`k8s:`, `acme:`, `example.com:v1:`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TagPrefix(Arc<str>);

impl Default for TagPrefix {
    /// `k8s:`.
    fn default() -> Self {
        TagPrefix(Arc::from(DEFAULT))
    }
}

impl std::fmt::Display for TagPrefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `[a-zA-Z_]`.
fn segment_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// `[a-zA-Z0-9_.-]`.
fn segment_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

impl TagPrefix {
    /// Validates a prefix as upstream's `args.Validate` does: it must match `^([a-zA-Z_][a-zA-Z0-9_.-]*:)*$`.
    ///
    /// # Errors
    /// Upstream's message, verbatim: `--tag-prefix "x" must be empty or one or more ':'-terminated tag name
    /// segments (e.g. "k8s:")` (the value quoted as Go's `%q` does for the printable ASCII such a flag holds).
    pub fn parse(s: &str) -> Result<Self, String> {
        let valid = s.is_empty()
            || (s.ends_with(':')
                && s[..s.len() - 1].split(':').all(|seg| {
                    let mut cs = seg.chars();
                    cs.next().is_some_and(segment_start) && cs.all(segment_char)
                }));
        if valid {
            Ok(TagPrefix(Arc::from(s)))
        } else {
            Err(format!(
                "--tag-prefix {} must be empty or one or more ':'-terminated tag name segments (e.g. \"k8s:\")",
                go_quote(s)
            ))
        }
    }

    /// The prefix text (`k8s:`).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for `k8s:`, where reading and messages are exactly as before the option existed.
    #[must_use]
    pub fn is_default(&self) -> bool {
        &*self.0 == DEFAULT
    }

    /// The canonical (`k8s:`) name of a tag name as written under this prefix: `acme:required` → `k8s:required`
    /// under `acme:`; a name without the prefix → [`FOREIGN`] + the name (an unknown tag). With the empty prefix
    /// every name carries it, but only names that are validation-gen's ([`crate::catalog::is_validation_gen_name`])
    /// are canonical; any other (`+k8s:required`, `+genclient`) is foreign. With the default prefix, the identity.
    #[must_use]
    pub fn canonical(&self, written: &str) -> String {
        if self.is_default() {
            return written.to_string();
        }
        match written.strip_prefix(&*self.0) {
            Some(rest) => {
                let canonical = format!("{DEFAULT}{rest}");
                // Other generators' `k8s:` tags (`deepcopy-gen`, …) are not validation-gen's: under another
                // prefix, `+acme:deepcopy-gen` is an unknown tag, not one of theirs.
                let other_generator = crate::catalog::is_allowed_non_validation(&canonical)
                    && !crate::catalog::CONTROL_TAGS.contains(&canonical.as_str());
                if other_generator
                    || (self.0.is_empty() && !crate::catalog::is_validation_gen_name(&canonical))
                {
                    format!("{FOREIGN}{written}")
                } else {
                    canonical
                }
            }
            None => format!("{FOREIGN}{written}"),
        }
    }

    /// Renames every name of a parsed tag chain to its [`TagPrefix::canonical`] name (spans unchanged: they
    /// point into the text as written).
    pub fn canonicalize(&self, tag: &mut vgc_parser::tags::Tag) {
        if self.is_default() {
            return;
        }
        let mut t = tag;
        loop {
            t.name = self.canonical(&t.name);
            match &mut t.value {
                Some(vgc_parser::tags::TagValue::Tag(inner)) => t = inner,
                _ => break,
            }
        }
    }

    /// The name a canonical (`k8s:`) tag name is written with under this prefix: `k8s:required` → `acme:required`.
    #[must_use]
    pub fn qualify(&self, canonical: &str) -> String {
        match canonical.strip_prefix(DEFAULT) {
            Some(rest) if !self.is_default() => format!("{}{rest}", self.0),
            _ => canonical.to_string(),
        }
    }

    /// A user-facing text (diagnostic message, hint, fix, tag reference) with every canonical tag name qualified
    /// with this prefix: each `k8s:<name>` that starts a word (not preceded by a tag-name character) becomes
    /// `<prefix><name>`, except other generators' `k8s:` tags (`k8s:deepcopy-gen`); [`FOREIGN`]-marked names are
    /// shown as written. The identity for the default prefix.
    #[must_use]
    pub fn requalify(&self, text: &str) -> String {
        if self.is_default() || !(text.contains(DEFAULT) || text.contains(FOREIGN)) {
            return text.to_string();
        }
        let name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | ':');
        let mut out = String::with_capacity(text.len() + 16);
        let mut i = 0;
        let mut prev: Option<char> = None;
        while i < text.len() {
            let rest = &text[i..];
            let at_word_start = !prev.is_some_and(name_char);
            if let Some(after) = rest.strip_prefix(FOREIGN) {
                // A foreign name: copy it as written.
                let len = after.find(|c: char| !name_char(c)).unwrap_or(after.len());
                out.push_str(&after[..len]);
                prev = after[..len].chars().last().or(prev);
                i += FOREIGN.len() + len;
                continue;
            }
            if at_word_start && let Some(after) = rest.strip_prefix(DEFAULT) {
                let len = after.find(|c: char| !name_char(c)).unwrap_or(after.len());
                let name = &rest[..DEFAULT.len() + len];
                let starts_name = after.chars().next().is_some_and(segment_start);
                let other_generator = crate::catalog::is_allowed_non_validation(name)
                    && !crate::catalog::CONTROL_TAGS.contains(&name);
                if starts_name && !other_generator {
                    out.push_str(&self.0);
                    out.push_str(&after[..len]);
                } else {
                    out.push_str(name);
                }
                prev = name.chars().last();
                i += name.len();
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            prev = Some(c);
            i += c.len_utf8();
        }
        out
    }
}

/// Go's `%q` of a flag value: printable characters as they are, `"` and `\\` escaped, control characters as Go
/// escapes them (`\t`, `\n`, `\r`, `\xNN` below U+0080, `\uNNNN` above).
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                if (c as u32) < 0x80 {
                    out.push_str(&format!("\\x{:02x}", c as u32));
                } else {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_like_upstream() {
        for ok in ["", "k8s:", "acme:", "example.com:v1:", "_a-b.c:", "A9:"] {
            assert_eq!(
                TagPrefix::parse(ok).map(|p| p.to_string()),
                Ok(ok.to_string())
            );
        }
        for bad in ["k8s", ":", "acme::", "1a:", "a b:", "acme:x", "-a:"] {
            assert!(TagPrefix::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            TagPrefix::parse("acme").unwrap_err(),
            "--tag-prefix \"acme\" must be empty or one or more ':'-terminated tag name segments (e.g. \"k8s:\")"
        );
        assert_eq!(
            TagPrefix::parse("a\"b").unwrap_err(),
            "--tag-prefix \"a\\\"b\" must be empty or one or more ':'-terminated tag name segments (e.g. \"k8s:\")"
        );
    }

    #[test]
    fn canonical_names() {
        let acme = TagPrefix::parse("acme:").unwrap();
        assert_eq!(acme.canonical("acme:required"), "k8s:required");
        assert_eq!(acme.canonical("acme:nosuch"), "k8s:nosuch");
        assert_eq!(acme.canonical("k8s:required"), "?:k8s:required");
        assert_eq!(acme.canonical("acme:deepcopy-gen"), "?:acme:deepcopy-gen");
        assert_eq!(acme.canonical("acme:validation-gen"), "k8s:validation-gen");
        let empty = TagPrefix::parse("").unwrap();
        assert_eq!(empty.canonical("required"), "k8s:required");
        assert_eq!(empty.canonical("k8s:required"), "?:k8s:required");
        assert_eq!(empty.canonical("genclient"), "?:genclient");
        let k8s = TagPrefix::default();
        assert_eq!(k8s.canonical("k8s:nosuch"), "k8s:nosuch");
    }

    #[test]
    fn requalifies_user_facing_text() {
        let acme = TagPrefix::parse("acme:").unwrap();
        assert_eq!(
            acme.requalify(
                "tag \"k8s:maxItems\": write `+k8s:alpha(since: \"1.38\")=+k8s:required`"
            ),
            "tag \"acme:maxItems\": write `+acme:alpha(since: \"1.38\")=+acme:required`"
        );
        assert_eq!(
            acme.requalify("unknown tag \"?:k8s:required\"; k8s:deepcopy-gen; k8s.io/api; x.k8s:y"),
            "unknown tag \"k8s:required\"; k8s:deepcopy-gen; k8s.io/api; x.k8s:y"
        );
        let empty = TagPrefix::parse("").unwrap();
        assert_eq!(
            empty.requalify("field with validation must have +k8s:optional, +k8s:required"),
            "field with validation must have +optional, +required"
        );
        let k8s = TagPrefix::default();
        assert_eq!(k8s.requalify("+k8s:optional"), "+k8s:optional");
    }
}
