//! Go (RE2) regular expressions for project-defined formats (upstream `--validation-extensions-file`, kubernetes#142116:
//! `formats: [{name, pattern, message}]`, checked at run time by `validate.Matches` over a Go `regexp.Regexp`).
//!
//! The `regex` crate implements the same RE2 syntax and guarantees (no backtracking, linear time) with two
//! differences that change what a pattern matches, both translated by [`compile_go`]:
//!
//! - Go's Perl classes are ASCII (`\d` = `[0-9]`, `\w` = `[0-9A-Za-z_]`, `\s` = `[\t\n\f\r ]`, `\b` an ASCII word
//!   boundary); the `regex` crate's are Unicode;
//! - inside a bracket class Go reads `[` (other than `[:name:]`), `&&`, `--` and `~~` literally; the `regex` crate
//!   reads them as nested classes and set operations.
//!
//! `\Q…\E` (Go's literal text) is translated to escaped text. Everything else (`\p{…}`, POSIX classes, flags,
//! repetition, `\A`, `\z`) has the same meaning in both.

/// The compiled pattern type generated code holds (`static PATTERN: LazyLock<Regex>`), re-exported so a generated
/// crate needs no `regex` dependency of its own.
pub use ::regex::Regex;

/// Compiles a Go `regexp` pattern into a [`regex::Regex`] that matches exactly the strings Go's
/// `regexp.MustCompile(pattern).MatchString` matches (valid UTF-8 input). Errors are the `regex` crate's (a
/// pattern Go rejects is rejected by upstream's generator before it reaches generated code).
///
/// # Errors
/// When the translated pattern does not compile.
pub fn compile_go(pattern: &str) -> Result<regex::Regex, regex::Error> {
    regex::Regex::new(&translate(pattern))
}

const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = "\\t\\n\\x0C\\r ";

/// The pattern in the `regex` crate's syntax (see the module documentation).
#[must_use]
pub fn translate(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    // Inside a bracket class: the number of characters read since `[` / `[^` (a `]` first is literal).
    let mut class: Option<usize> = None;
    while let Some(c) = chars.next() {
        match (c, class) {
            ('\\', _) => {
                let Some(e) = chars.next() else {
                    out.push('\\');
                    break;
                };
                let inside = class.is_some();
                match e {
                    'd' | 'w' | 's' | 'D' | 'W' | 'S' => {
                        let set = match e.to_ascii_lowercase() {
                            'd' => DIGIT,
                            'w' => WORD,
                            _ => SPACE,
                        };
                        let negated = e.is_ascii_uppercase();
                        match (inside, negated) {
                            (true, false) => out.push_str(set),
                            _ => {
                                out.push('[');
                                if negated {
                                    out.push('^');
                                }
                                out.push_str(set);
                                out.push(']');
                            }
                        }
                    }
                    'b' | 'B' if !inside => {
                        out.push_str("(?-u:\\");
                        out.push(e);
                        out.push(')');
                    }
                    'Q' => {
                        // Literal text up to `\E` (or the end).
                        let mut lit = String::new();
                        while let Some(l) = chars.next() {
                            if l == '\\' && chars.peek() == Some(&'E') {
                                chars.next();
                                break;
                            }
                            lit.push(l);
                        }
                        out.push_str(&regex::escape(&lit));
                    }
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
                if let Some(n) = class.as_mut() {
                    *n += 1;
                }
            }
            ('[', None) => {
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                class = Some(0);
            }
            ('[', Some(n)) => {
                // `[:alpha:]` is a POSIX class in both; any other `[` is literal in Go.
                if chars.peek() == Some(&':') {
                    let rest: String = chars.clone().collect();
                    if let Some(end) = rest.find(":]") {
                        out.push('[');
                        out.push_str(&rest[..end + 2]);
                        for _ in 0..rest[..end + 2].chars().count() {
                            chars.next();
                        }
                        class = Some(n + 1);
                        continue;
                    }
                }
                out.push_str("\\[");
                class = Some(n + 1);
            }
            (']', Some(n)) if n > 0 => {
                out.push(']');
                class = None;
            }
            (']', Some(_)) => {
                out.push_str("\\]");
                class = Some(1);
            }
            ('&' | '~', Some(n)) => {
                out.push('\\');
                out.push(c);
                class = Some(n + 1);
            }
            ('-', Some(n)) if chars.peek() == Some(&'-') => {
                // `--` is a set difference in the regex crate; Go reads a range ending in `-` or a literal.
                out.push_str("\\-");
                class = Some(n + 1);
            }
            (_, Some(n)) => {
                out.push(c);
                class = Some(n + 1);
            }
            (_, None) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_classes_are_ascii_as_in_go() {
        let m = |p: &str, s: &str| compile_go(p).expect(p).is_match(s);
        assert!(m(r"^\d+$", "123"));
        assert!(!m(r"^\d+$", "٣"));
        assert!(!m(r"^\w+$", "été"));
        assert!(m(r"^\w+$", "a_1"));
        assert!(!m(r"\s", "a\u{a0}b"));
        assert!(m(r"\s", "a b"));
        assert!(m(r"^[\d.]+$", "1.5"));
        assert!(!m(r"^[\d.]+$", "٣"));
        assert!(m(r"^\D*$", "٣"));
        assert!(m(r"^[^\W_]+$", "ab1"));
        assert!(!m(r"^[^\W_]+$", "a_b"));
        assert!(m(r"\bname\b", "a name"));
        // `é` is not an ASCII word character, so Go sees a boundary before `n` (the Unicode `\b` does not).
        assert!(m(r"\bname\b", "éname"));
        assert!(!m(r"\bname\b", "aname"));
        assert!(m(r"^[[:alpha:]]+$", "abc"));
        assert!(!m(r"^[[:alpha:]]+$", "été"));
        assert!(m(r"^[a[]+$", "a[a"));
        assert!(m(r"^[]a]+$", "]a"));
        assert!(m(r"^[a&&b]+$", "&"));
        assert!(m(r"^\Q.*\E$", ".*"));
        assert!(!m(r"^\Q.*\E$", "ab"));
        assert!(m(r"^\p{L}+$", "été"));
    }
}
