//! Go text: the blank-line rules of gofmt that validation-gen's snippets rely on (string literals are
//! `vgc_runtime::field::go_quote`, Go's `strconv.Quote`).

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
            vgc_runtime::field::go_quote("a\"b\\c\n\u{1}é\u{200b}"),
            "\"a\\\"b\\\\c\\n\\x01é\\u200b\""
        );
    }

    #[test]
    fn blank_lines_collapse_and_the_file_ends_with_one_newline() {
        assert_eq!(gofmt_blank_lines("a\n\n\nb\n\n"), "a\n\nb\n");
    }
}
