//! Go text: string literals as Go's `strconv.Quote` writes them, and the blank-line rules of gofmt that
//! validation-gen's snippets rely on.

/// `s` as Go's `strconv.Quote` (and `fmt`'s `%q`) writes it: printable characters as they are, `\a \b \f \n \r
/// \t \v \\ \"` escaped, other control and non-printable characters as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
#[must_use]
pub(crate) fn go_quote(s: &str) -> String {
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
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if go_printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `strconv.IsPrint` outside ASCII: not a control, format, surrogate, private-use or
/// unassigned-looking character, and not a space other than U+0020.
fn go_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    !(c.is_control()
        || c.is_whitespace()
        || (0xe000..=0xf8ff).contains(&u)
        || (0xfff9..=0xfffb).contains(&u)
        || u == 0xfeff
        || (0x200b..=0x200f).contains(&u)
        || (0x202a..=0x202e).contains(&u)
        || (0x2060..=0x206f).contains(&u)
        || u == 0xad
        || u >= 0xf0000)
}

/// gofmt's blank lines: at most one in a row, none at the end of the file (which ends with one newline).
#[must_use]
pub(crate) fn gofmt_blank_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = false;
    for l in s.split('\n') {
        if l.is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
        } else {
            out.push_str(l);
            out.push('\n');
            blank = false;
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_strconv_quote() {
        assert_eq!(
            go_quote("a\"b\\c\n\u{1}é\u{200b}"),
            "\"a\\\"b\\\\c\\n\\x01é\\u200b\""
        );
    }

    #[test]
    fn blank_lines_collapse_and_the_file_ends_with_one_newline() {
        assert_eq!(gofmt_blank_lines("a\n\n\nb\n\n"), "a\n\nb\n");
    }
}
