//! Comment grouping as `go/parser` does it and gengo's doc-comment association.

use serde::{Deserialize, Serialize};

/// One line of comment text after `go/ast.CommentGroup.Text()` processing, with where it starts in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommentLine {
    /// The text (markers and one leading space removed, trailing whitespace stripped).
    pub text: String,
    /// Byte offset in the file of the first character of `text`.
    pub offset: usize,
}

/// A group of adjacent comments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommentGroup {
    /// 1-based line where the group starts.
    pub start_line: usize,
    /// 1-based line where the group ends.
    pub end_line: usize,
    /// The group's text lines, as gengo's `splitLines(group.Text())` returns them.
    pub lines: Vec<CommentLine>,
}

/// A raw comment token: its text (with markers), byte offset, start and end lines (1-based), and whether a
/// non-comment token precedes it on its start line.
#[derive(Debug, Clone)]
pub(crate) struct RawComment {
    pub(crate) text: String,
    pub(crate) offset: usize,
    pub(crate) start_line: usize,
    pub(crate) end_line: usize,
    pub(crate) after_code_on_line: bool,
    /// Number of non-comment tokens before this comment: comments with different counts are never grouped.
    pub(crate) tokens_before: usize,
    /// The comment's byte range in the text tree-sitter read (the skeleton, `super::skeleton`): a later parse whose
    /// skeleton is the same finds the comment there (`super::reuse`).
    pub(crate) skel: std::ops::Range<usize>,
}

/// Groups comments as `go/parser` does: a comment on the same line as the previous token starts a line-comment
/// group that takes only comments starting on the line where the previous one ends; any other comment takes
/// successors that start at most one line after the previous comment ends.
pub(crate) fn group_raw(raw: &[RawComment]) -> Vec<CommentGroup> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let n = if raw[i].after_code_on_line { 0 } else { 1 };
        let start = i;
        let mut end_line = raw[i].start_line;
        while i < raw.len()
            && raw[i].start_line <= end_line + n
            && (i == start
                || (!raw[i].after_code_on_line && raw[i].tokens_before == raw[start].tokens_before))
        {
            end_line = raw[i].end_line;
            i += 1;
        }
        groups.push(make_group(&raw[start..i]));
    }
    groups
}

/// Public helper for tests and tools: groups `(text, offset, start_line, end_line, after_code)` comments.
#[must_use]
pub fn group_comments(raw: &[(String, usize, usize, usize, bool)]) -> Vec<CommentGroup> {
    let raw: Vec<RawComment> = raw
        .iter()
        .map(|(t, o, s, e, a)| RawComment {
            text: t.clone(),
            offset: *o,
            start_line: *s,
            end_line: *e,
            after_code_on_line: *a,
            tokens_before: 0,
            skel: *o..*o + t.len(),
        })
        .collect();
    group_raw(&raw)
}

fn is_directive(c: &str) -> bool {
    if c.starts_with("line ") || c.starts_with("extern ") || c.starts_with("export ") {
        return true;
    }
    // `//[a-z0-9]+:[a-z0-9]`
    let colon = match c.find(':') {
        Some(i) if i > 0 => i,
        _ => return false,
    };
    c[..colon]
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && c.as_bytes()
            .get(colon + 1)
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn make_group(list: &[RawComment]) -> CommentGroup {
    // go/ast CommentGroup.Text()
    let mut lines: Vec<CommentLine> = Vec::new();
    for c in list {
        if let Some(body) = c.text.strip_prefix("//") {
            let mut off = c.offset + 2;
            let mut body = body;
            if let Some(b) = body.strip_prefix(' ') {
                body = b;
                off += 1;
            } else if !body.is_empty() && is_directive(body) {
                continue;
            }
            lines.push(CommentLine {
                text: body.trim_end().to_string(),
                offset: off,
            });
        } else {
            let body = c
                .text
                .strip_prefix("/*")
                .and_then(|b| b.strip_suffix("*/"))
                .unwrap_or(&c.text);
            let mut off = c.offset + 2;
            for l in body.split('\n') {
                lines.push(CommentLine {
                    text: l.trim_end().to_string(),
                    offset: off,
                });
                off += l.len() + 1;
            }
        }
    }
    // Remove leading blank lines, collapse runs of blank lines, drop trailing blank lines (splitLines trims "\n").
    let mut out: Vec<CommentLine> = Vec::with_capacity(lines.len());
    for l in lines {
        if !l.text.is_empty() || out.last().is_some_and(|p| !p.text.is_empty()) {
            out.push(l);
        }
    }
    while out.last().is_some_and(|l| l.text.is_empty()) {
        out.pop();
    }
    CommentGroup {
        start_line: list.first().map_or(0, |c| c.start_line),
        end_line: list.last().map_or(0, |c| c.end_line),
        lines: out,
    }
}

/// Index from end line to group, for gengo's `priorCommentLines`.
pub(crate) struct CommentIndex<'a> {
    by_end: std::collections::HashMap<usize, &'a CommentGroup>,
}

impl<'a> CommentIndex<'a> {
    pub(crate) fn new(groups: &'a [CommentGroup]) -> Self {
        Self {
            by_end: groups.iter().map(|g| (g.end_line, g)).collect(),
        }
    }

    /// gengo `docComment(pos)`: the group ending on the line before `line`.
    pub(crate) fn doc(&self, line: usize) -> Vec<CommentLine> {
        line.checked_sub(1)
            .and_then(|l| self.by_end.get(&l))
            .map(|g| g.lines.clone())
            .unwrap_or_default()
    }

    /// gengo `priorDetachedComment(pos)`.
    pub(crate) fn second(&self, line: usize) -> Vec<CommentLine> {
        let anchor = match line.checked_sub(1).and_then(|l| self.by_end.get(&l)) {
            Some(g) => g.start_line,
            None => line,
        };
        anchor
            .checked_sub(2)
            .and_then(|l| self.by_end.get(&l))
            .map(|g| g.lines.clone())
            .unwrap_or_default()
    }
}
