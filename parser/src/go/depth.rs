//! A linear pre-scan that keeps tree-sitter away from declarations nested deeper than [`MAX_NESTING`] brackets,
//! and lists the `//` comments on the way (for [`super::skeleton`]).
//!
//! Why: tree-sitter's error recovery costs time proportional to the depth of its parse stack for every token it
//! recovers from, so a file that is both deeply nested and broken parses in super-linear time. Fuzzing found an
//! 83 kB mangled Go file (runs of hundreds of unclosed `(` followed by stray `)`, `]` and text) taking 3 s, 9 s at
//! twice its size and 16 s at four times (defect R34 in `docs/reliability.md`). Every bracket is at least one
//! syntax level, so a declaration nested deeper than [`MAX_NESTING`] brackets would be skipped by the lowering's
//! own limit anyway; skipping it *before* tree-sitter sees it bounds the parse stack, and so the parse time, by the
//! same limit — deterministically (a time budget would make the output depend on the machine).
//!
//! The scan knows just enough Go lexical syntax not to count brackets inside comments, interpreted and raw string
//! literals and rune literals; an interpreted string or rune literal also ends at a newline, as Go's scanner
//! reports, so a mangled literal cannot hide the rest of the file. A *top-level line* is a line starting at column
//! 0 with `type`, `const`, `var`, `func` or `import` (gofmt puts every top-level declaration there, and nothing
//! else); the declaration that crosses the limit is the text from the last top-level line before the bracket that
//! crossed it to the next top-level line after it (or the end of the file; the `//` lines directly above that next
//! line stay: they are its doc comment), and it is replaced by spaces, newlines kept, so every later byte offset,
//! line and column is unchanged.

use super::{MAX_NESTING, SyntaxProblem};

/// The message of the problem reported for each declaration the scan blanked.
pub(super) fn message() -> String {
    format!(
        "this declaration nests brackets deeper than {MAX_NESTING} levels, vgc's limit; it was skipped"
    )
}

/// What [`scan`] found in a file.
pub(super) struct Scan {
    /// The text with every declaration nested deeper than [`MAX_NESTING`] brackets blanked, and one error per
    /// blanked declaration (located at the bracket that crossed the limit); `None` (no copy) when nothing is too
    /// deep — the case of every real Go file.
    pub(super) blanked: Option<(String, Vec<SyntaxProblem>)>,
    /// The byte range of every `//` comment outside the blanked declarations, from its first `/` to just before
    /// its newline, its first NUL character or the end of the file (where tree-sitter-go's comment token ends),
    /// in order: what [`super::skeleton`] shortens for tree-sitter.
    pub(super) line_comments: Vec<std::ops::Range<usize>>,
}

/// Scans `src` once: blanks the declarations nested deeper than [`MAX_NESTING`] brackets and lists the `//`
/// comments (see [`Scan`]). Time and memory are linear in `src.len()`.
pub(super) fn scan(src: &str) -> Scan {
    let bytes = src.as_bytes();
    let mut line_comments = Vec::new();
    // Byte ranges to blank and the offending bracket of each.
    let mut cuts: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
    // Start of the current top-level declaration: the last top-level line, else the start of the file.
    let mut decl_start = 0usize;
    // Set once the limit is crossed: skip to the next top-level line, then resume counting from zero.
    let mut crossed: Option<usize> = None;
    let mut depth = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        let line_start = i == 0 || bytes[i - 1] == b'\n';
        if line_start && starts_top_level(&bytes[i..]) {
            if let Some(at) = crossed.take() {
                cuts.push((decl_start..doc_start(bytes, i, at), at));
            }
            decl_start = i;
            depth = 0;
        }
        let b = bytes[i];
        if crossed.is_some() {
            // Skipping: only line starts matter, but literals must still be stepped over so that a top-level
            // keyword inside a raw string is not taken for a declaration.
            i = skip_literal(bytes, i).unwrap_or(i + 1);
            continue;
        }
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    crossed = Some(i);
                }
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |p| i + p);
                // tree-sitter-go's comment token also stops at a NUL character (its lexer's end of input).
                line_comments.push(i..memchr::memchr(0, &bytes[i..end]).map_or(end, |p| i + p));
                i = end;
            }
            _ => i = skip_literal(bytes, i).unwrap_or(i + 1),
        }
    }
    if let Some(at) = crossed {
        cuts.push((decl_start..bytes.len(), at));
    }
    if cuts.is_empty() {
        return Scan {
            blanked: None,
            line_comments,
        };
    }
    // Comments inside a blanked declaration are spaces now.
    line_comments.retain(|c| !cuts.iter().any(|(r, _)| r.start < c.end && c.start < r.end));
    let mut out = bytes.to_vec();
    let mut problems = Vec::with_capacity(cuts.len());
    for (range, at) in cuts {
        for b in &mut out[range] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        problems.push(SyntaxProblem {
            span: at..at + 1,
            message: message(),
            error: true,
        });
    }
    // Every range starts at a line start (or 0) and ends at one (or the end), so code points are blanked whole
    // and the text stays UTF-8; the fallback is unreachable but keeps this function total.
    let out = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Scan {
        blanked: Some((out, problems)),
        line_comments,
    }
}

/// The start of the `//` comment lines directly above the line starting at `line`, no earlier than the line after
/// `floor` — the doc comment of the next declaration stays when the declaration before it is blanked.
fn doc_start(bytes: &[u8], line: usize, floor: usize) -> usize {
    let mut start = line;
    while start > 0 {
        let prev = bytes[..start - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        if prev <= floor || !bytes[prev..start].trim_ascii_start().starts_with(b"//") {
            break;
        }
        start = prev;
    }
    start
}

/// Whether a line starting here begins a top-level declaration: a keyword at column 0 followed by a space, tab,
/// `(` or the end of the line.
fn starts_top_level(rest: &[u8]) -> bool {
    ["type", "const", "var", "func", "import"].iter().any(|kw| {
        rest.starts_with(kw.as_bytes())
            && matches!(
                rest.get(kw.len()),
                None | Some(b' ' | b'\t' | b'(' | b'\n' | b'\r')
            )
    })
}

/// If a comment or literal starts at `i`, the index just past it (a line comment stops before its newline; an
/// unterminated block comment or raw string runs to the end; an interpreted string or rune stops at a newline).
fn skip_literal(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = &bytes[i..];
    let past = |from: usize, end: &[u8]| {
        bytes[from..]
            .windows(end.len())
            .position(|w| w == end)
            .map_or(bytes.len(), |p| from + p + end.len())
    };
    match rest {
        [b'/', b'/', ..] => Some(
            bytes[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |p| i + p),
        ),
        [b'/', b'*', ..] => Some(past(i + 2, b"*/")),
        [b'`', ..] => Some(past(i + 1, b"`")),
        [quote @ (b'"' | b'\''), ..] => {
            let mut j = i + 1;
            while j < bytes.len() {
                match bytes[j] {
                    b'\n' => return Some(j),
                    b'\\' if bytes.get(j + 1) != Some(&b'\n') => j += 2,
                    c if c == *quote => return Some(j + 1),
                    _ => j += 1,
                }
            }
            Some(bytes.len())
        }
        _ => None,
    }
}
