//! The tag lexer (logos). Whitespace is a token, not skipped, because the gengo grammar allows it only in a
//! few places (after `,` and `:` inside args, and before a trailing `#` comment); the grammar enforces that.

use logos::Logos;

/// A lexical error with the data needed for an upstream-style message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LexError {
    /// A character that starts no token.
    #[default]
    Invalid,
    /// A number that `strconv.ParseInt(s, 0, 64)` rejects (upstream: `invalid number "<s>"`).
    BadInt(String),
    /// A string escape other than the quote or `\\` (upstream: `unhandled escaped character`).
    BadEscape(char),
    /// A string without its closing quote (upstream: `unterminated string`).
    Unterminated,
}

/// Tokens of the gengo `codetags` language.
#[derive(Logos, Debug, Clone, PartialEq, Eq)]
#[logos(error = LexError)]
pub enum Token<'s> {
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `,`
    #[token(",")]
    Comma,
    /// `=`
    #[token("=")]
    Eq,
    /// `+` (only meaningful as `=+tag`)
    #[token("+")]
    Plus,
    /// A run of Unicode whitespace.
    #[regex(r"\s+")]
    Ws,
    /// A trailing `# comment`, to the end of the line.
    #[regex(r"#.*", allow_greedy = true)]
    Comment,
    /// An identifier, a tag name, or a `name:` / `name:value` arg head: `identBegin (identChar | ':')*`.
    #[regex(r"[\p{L}_][\p{L}\p{Nd}_.:\-]*")]
    Word(&'s str),
    /// A double-quoted or backtick string; the payload is the unescaped text.
    #[token("\"", |lex| lex_string(lex, '"'))]
    #[token("`", |lex| lex_string(lex, '`'))]
    Str(String),
    /// A Go integer literal with optional sign, kept as written (upstream keeps `+5` as `"+5"`).
    #[regex(r"[+-]?(0([xob][0-9a-fA-F]*|[0-9][0-9a-fA-F]*)?|[1-9][0-9a-fA-F]*)", |lex| check_int(lex.slice()))]
    Int(&'s str),
}

fn lex_string<'s>(lex: &mut logos::Lexer<'s, Token<'s>>, quote: char) -> Result<String, LexError> {
    let rest = lex.remainder();
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            lex.bump(i + c.len_utf8());
            return Ok(out);
        }
        if c == '\\' {
            match chars.next() {
                Some((_, e)) if e == quote || e == '\\' => out.push(e),
                Some((j, e)) => {
                    lex.bump(j + e.len_utf8());
                    return Err(LexError::BadEscape(e));
                }
                None => break,
            }
        } else {
            out.push(c);
        }
    }
    lex.bump(rest.len());
    Err(LexError::Unterminated)
}

fn check_int(s: &str) -> Result<&str, LexError> {
    if parse_go_int(s).is_some() {
        Ok(s)
    } else {
        Err(LexError::BadInt(s.to_string()))
    }
}

/// Parses a Go integer literal as `strconv.ParseInt(s, 0, 64)` does (sign, `0x`/`0o`/`0b` prefixes, a leading `0`
/// meaning octal; no underscores because the upstream scanner never produces them). Returns `None` when Go would
/// return an error, including on overflow.
#[must_use]
pub fn parse_go_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) =
        if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (16, d)
        } else if let Some(d) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
            (8, d)
        } else if let Some(d) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (2, d)
        } else if body.len() > 1 && body.starts_with('0') {
            (8, &body[1..])
        } else {
            (10, body)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mag = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        if mag == 1u64 << 63 {
            Some(i64::MIN)
        } else {
            i64::try_from(mag).ok().map(|v| -v)
        }
    } else {
        i64::try_from(mag).ok()
    }
}

/// Lexes `src` into `(start, token, end)` byte triples, the shape lalrpop's external-lexer interface expects.
pub fn lex(
    src: &str,
) -> impl Iterator<Item = Result<(usize, Token<'_>, usize), (usize, LexError, usize)>> + '_ {
    Token::lexer(src).spanned().map(|(tok, span)| match tok {
        Ok(t) => Ok((span.start, t, span.end)),
        Err(e) => Err((span.start, e, span.end)),
    })
}
