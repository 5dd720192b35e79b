//! The `+k8s:` comment-tag language of gengo `codetags`: extraction from comment lines, parsing (logos lexer +
//! lalrpop grammar), the raw-value mode, and the canonical printer (`Display` on [`Tag`]).
//!
//! upstream: `k8s.io/gengo/v2/codetags` (`Extract`, `Parse`, `Tag.String`). Error texts follow upstream where it
//! has one (`unexpected character 'c'`, `unexpected end of input`, `invalid number "x"`, …) but every error
//! carries a byte span instead of a rune position.

pub mod ast;
pub mod lexer;

lalrpop_util::lalrpop_mod!(
    #[allow(
        clippy::all,
        clippy::pedantic,
        unreachable_pub,
        unused_qualifications,
        missing_docs
    )]
    grammar,
    "/tags/grammar.rs"
);

pub use ast::{Arg, Scalar, Span, Tag, TagValue};
use lalrpop_util::ParseError;
use lexer::{LexError, Token};

/// A tag syntax error: a message and the byte span (relative to the tag text) it points at.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TagError {
    /// Human message, upstream wording where upstream has one.
    pub message: String,
    /// Byte span in the tag text.
    pub span: Span,
}

/// Errors raised inside grammar actions and by the lexer (internal to the parser).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrammarError {
    Lex(usize, LexError, usize),
    MixedArgs(usize),
    MultiplePositional(usize),
    Unexpected(usize, char),
}

#[doc(hidden)]
pub fn user<T>(error: GrammarError) -> ParseError<usize, T, GrammarError> {
    ParseError::User { error }
}

/// Turns a bare word in value position into a scalar: `true`/`false` are bools, anything else a string.
/// A `:` is not an identifier character (it only appears in tag names and after arg names).
#[doc(hidden)]
pub fn word_to_scalar(w: &str, at: usize) -> Result<Scalar, GrammarError> {
    if let Some(i) = w.find(':') {
        return Err(GrammarError::Unexpected(at + i, ':'));
    }
    Ok(match w {
        "true" => Scalar::Bool(true),
        "false" => Scalar::Bool(false),
        _ => Scalar::Str(w.to_string()),
    })
}

/// Splits `name:value` written without a space into (name, value, value offset). `Ok(None)` when `w` has no `:`.
#[doc(hidden)]
pub fn split_named(w: &str, at: usize) -> Result<Option<(String, &str, usize)>, GrammarError> {
    let Some(i) = w.find(':') else {
        return Ok(None);
    };
    let (name, value) = (&w[..i], &w[i + 1..]);
    if value.is_empty() {
        // `(name:)` — the value is missing.
        return Err(GrammarError::Unexpected(at + w.len(), ')'));
    }
    Ok(Some((name.to_string(), value, at + i + 1)))
}

#[doc(hidden)]
pub fn int_scalar(text: &str, _at: usize) -> Result<Scalar, GrammarError> {
    // The lexer has already checked the literal; this cannot fail for lexer-produced text.
    lexer::parse_go_int(text)
        .map(|value| Scalar::Int {
            text: text.to_string(),
            value,
        })
        .ok_or_else(|| GrammarError::Lex(_at, LexError::BadInt(text.to_string()), _at + text.len()))
}

fn char_at(src: &str, at: usize) -> char {
    src.get(at..).and_then(|s| s.chars().next()).unwrap_or(' ')
}

fn char_span(src: &str, at: usize) -> Span {
    at..at
        + char_at(src, at)
            .len_utf8()
            .min(src.len().saturating_sub(at))
            .max(usize::from(at < src.len()))
}

/// Parses one tag line (the text after the `+` prefix, e.g. `k8s:maxItems=5 # comment`), default mode.
///
/// The input is trimmed of surrounding whitespace first, as upstream does; spans stay relative to the
/// untrimmed input. Returns the tag (with its chain) or the first syntax error.
///
/// (See also [`canonical_spelling`], which normalizes a tag's whitespace without re-quoting its values.)
///
/// # Errors
/// A [`TagError`] with upstream wording and a byte span when the line is not a valid tag.
pub fn parse(src: &str) -> Result<Tag, TagError> {
    let lead = src.len() - src.trim_start().len();
    let text = src.trim();
    if let Some(at) = chain_too_long(text) {
        return Err(TagError {
            message: format!(
                "more than {MAX_CHAIN} chained tags; vgc's limit (real tags chain at most a few)"
            ),
            span: at + lead..at + lead + 2,
        });
    }
    let tokens = lexer::lex(text).map(|r| r.map_err(|(l, e, r)| GrammarError::Lex(l, e, r)));
    let result = grammar::LineParser::new().parse(tokens);
    match result {
        Ok(mut tag) => {
            tag.shift(lead);
            Ok(tag)
        }
        Err(e) => {
            let mut err = convert_error(text, e);
            err.span = err.span.start + lead..err.span.end + lead;
            Err(err)
        }
    }
}

/// The most tags one line may chain (`=+k8s:…`), counting the outermost. Upstream `codetags` has no limit; vgc
/// has one because every later stage (checks, lowering, generated wrappers) nests once per link, and generated
/// code grows with the product of the levels. Real tags chain at most four or five (`ifEnabled` → `item` →
/// `eachVal` → a validator).
pub const MAX_CHAIN: usize = 32;

/// The offset of the first `=+` beyond [`MAX_CHAIN`] links, if the line chains more tags than that (`=+` inside
/// strings does not count).
fn chain_too_long(text: &str) -> Option<usize> {
    if text.matches("=+").count() < MAX_CHAIN {
        return None;
    }
    let mut links = 1;
    let mut prev_eq = None;
    for t in lexer::lex(text) {
        let Ok((l, tok, _)) = t else {
            return None;
        };
        match tok {
            Token::Plus if prev_eq.is_some() => {
                links += 1;
                if links > MAX_CHAIN {
                    return prev_eq;
                }
                prev_eq = None;
            }
            Token::Eq => prev_eq = Some(l),
            _ => prev_eq = None,
        }
    }
    None
}

fn convert_error(src: &str, e: ParseError<usize, Token<'_>, GrammarError>) -> TagError {
    let unexpected = |at: usize| {
        // gengo stops at the first character it cannot use; when whitespace precedes the offending token, that
        // whitespace is what it reports.
        let before = &src[..at.min(src.len())];
        let at = before.len() - before.trim_end().len();
        let at = if at > 0 {
            before.len() - at
        } else {
            before.len()
        };
        TagError {
            message: format!("unexpected character {:?}", char_at(src, at)),
            span: char_span(src, at),
        }
    };
    match e {
        ParseError::InvalidToken { location } => unexpected(location),
        ParseError::UnrecognizedEof { location, .. } => TagError {
            message: "unexpected end of input".into(),
            span: location..location,
        },
        ParseError::UnrecognizedToken {
            token: (l, _, _), ..
        }
        | ParseError::ExtraToken { token: (l, _, _) } => unexpected(l),
        ParseError::User { error } => match error {
            GrammarError::Lex(l, LexError::Invalid, _) => unexpected(l),
            GrammarError::Lex(l, LexError::BadInt(s), r) => TagError {
                message: format!("invalid number {s:?}"),
                span: l..r,
            },
            GrammarError::Lex(l, LexError::BadEscape(c), r) => TagError {
                message: format!("unhandled escaped character {c:?}"),
                span: l..r,
            },
            GrammarError::Lex(l, LexError::Unterminated, r) => TagError {
                message: "unterminated string".into(),
                span: l..r,
            },
            GrammarError::MixedArgs(l) => TagError {
                message: "can't mix named and positional arguments".into(),
                span: l..src.len(),
            },
            GrammarError::MultiplePositional(l) => TagError {
                message: "multiple arguments must use 'name: value' syntax".into(),
                span: l..src.len(),
            },
            GrammarError::Unexpected(at, _) => unexpected(at),
        },
    }
}

/// A tag parsed in upstream's RawValues mode: name, optional args, and everything after the first `=`
/// verbatim (`#` included). Used for `k8s:validation-gen=TypesWithField=TypeMeta` and `+default=<json>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawTag {
    /// Tag name.
    pub name: String,
    /// The raw payload after `=` (`None` when there is no `=`).
    pub value: Option<String>,
    /// Byte span of the payload in the input.
    pub value_span: Span,
}

/// Parses `src` in RawValues mode (upstream `codetags.Parse(tag, RawValues(true))`).
///
/// # Errors
/// A [`TagError`] when the name or the argument list is malformed.
pub fn parse_raw(src: &str) -> Result<RawTag, TagError> {
    let lead = src.len() - src.trim_start().len();
    let text = src.trim();
    let name_len = tag_name_len(text);
    if name_len == 0 {
        return Err(TagError {
            message: format!("unexpected character {:?}", char_at(text, 0)),
            span: lead..lead + 1,
        });
    }
    let name = text[..name_len].to_string();
    let mut rest = &text[name_len..];
    let mut offset = name_len;
    if rest.starts_with('(') {
        let close = rest.find(')').ok_or(TagError {
            message: "unexpected end of input".into(),
            span: lead + text.len()..lead + text.len(),
        })?;
        parse(&text[..name_len + close + 1]).map_err(|mut e| {
            e.span = e.span.start + lead..e.span.end + lead;
            e
        })?;
        rest = &rest[close + 1..];
        offset += close + 1;
    }
    if let Some(v) = rest.strip_prefix('=') {
        let start = lead + offset + 1;
        return Ok(RawTag {
            name,
            value: Some(v.to_string()),
            value_span: start..start + v.len(),
        });
    }
    let trimmed = rest.trim_start();
    if rest.is_empty() || trimmed.starts_with('#') {
        return Ok(RawTag {
            name,
            value: None,
            value_span: 0..0,
        });
    }
    let at = offset + (rest.len() - trimmed.len());
    Err(TagError {
        message: format!("unexpected character {:?}", char_at(text, at)),
        span: lead + at..lead + at + 1,
    })
}

/// The byte length of the leading tag name (`identBegin tagNameChar*`) of `s`; 0 if `s` does not start with one.
#[must_use]
pub fn tag_name_len(s: &str) -> usize {
    let mut it = s.char_indices();
    match it.next() {
        Some((_, c)) if c.is_alphabetic() || c == '_' => {}
        _ => return 0,
    }
    for (i, c) in it {
        if !(c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | ':')) {
            return i;
        }
    }
    s.len()
}

/// One extracted tag line: the name, the text after the prefix, and the line's position in the comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagLine {
    /// The tag name (`k8s:required`), or `""` when no name could be read.
    pub name: String,
    /// The line text after the prefix (name included).
    pub text: String,
    /// Index of the line within the comment group.
    pub line: usize,
    /// Byte offset of `text` within that line.
    pub column: usize,
}

/// Extracts the tag lines that start with `prefix` (e.g. `"+k8s:"`) from comment lines, as upstream
/// `codetags.Extract` does: leading spaces and tabs are stripped, the `+` is removed, and the name is the longest
/// leading tag-name run. Lines are returned in source order.
#[must_use]
pub fn extract<'a>(prefix: &str, lines: impl IntoIterator<Item = &'a str>) -> Vec<TagLine> {
    let plus = prefix.strip_suffix(':').map_or(prefix, |p| p);
    let _ = plus;
    let mut out = Vec::new();
    for (idx, line) in lines.into_iter().enumerate() {
        let trimmed = line.trim_start_matches([' ', '\t']);
        if !trimmed.starts_with(prefix) {
            continue;
        }
        let Some(text) = trimmed.strip_prefix('+') else {
            continue;
        };
        let column = line.len() - text.len();
        let name = text[..tag_name_len(text)].to_string();
        out.push(TagLine {
            name,
            text: text.to_string(),
            line: idx,
            column,
        });
    }
    out
}

#[cfg(test)]
mod tests;

/// The canonical spelling of a tag text (without the leading `+`), keeping every token as written — quoted or not —
/// and normalizing only the space between tokens: none except one after a `,` separating arguments and one after
/// a named argument's `:` (`k8s:alpha(since:"1.37")` → `k8s:alpha(since: "1.37")`), and one before a trailing
/// `#` comment. Returns `None` when the text does not lex (the parser reports that). The result parses to the same
/// tag as the input.
#[must_use]
pub fn canonical_spelling(src: &str) -> Option<String> {
    let text = src.trim();
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut after_named_colon = false;
    for t in lexer::lex(text) {
        let (l, tok, r) = t.ok()?;
        let slice = &text[l..r];
        match tok {
            lexer::Token::Ws => continue,
            lexer::Token::LParen => depth += 1,
            lexer::Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let needs_space = match tok {
            lexer::Token::Comment => !out.is_empty(),
            lexer::Token::RParen | lexer::Token::Comma => false,
            _ => after_named_colon || (depth > 0 && out.ends_with(',')),
        };
        if needs_space {
            out.push(' ');
        }
        out.push_str(slice);
        // A named argument is a word ending in `:` inside the argument list.
        after_named_colon = depth > 0 && matches!(tok, lexer::Token::Word(w) if w.ends_with(':'));
    }
    Some(out)
}
