//! The text tree-sitter parses: the file with the body of every `//` comment removed, and the map from its byte
//! offsets back to the file's.
//!
//! Why: an API package's `types.go` is mostly doc comments (two thirds of k8s.io/api's `types.go` bytes), and
//! tree-sitter's lexer steps through a comment one character at a time; without the bodies it parses the same
//! tokens in about two thirds of the time (issue 12, the cold build). A comment is an *extra* in the Go grammar,
//! so `//` alone lexes as the same comment token and the tree has the same shape; the lowering reads every text
//! and span through [`Skeleton::orig`], so the [`super::GoFile`] is the one the whole text gives. Lines are
//! unchanged (newlines stay), and so are columns: nothing but an optional `\r` follows a line comment on its line,
//! and the `\r` is kept.
//!
//! The one place where the skipped characters could matter is tree-sitter's error recovery, which weighs
//! candidate recoveries partly by how many characters they skip: the lowering parses the whole text again when the
//! shortened one has a syntax error, so a broken file is read exactly as before.

use std::ops::Range;

/// A file's text with its `//` comment bodies removed, and where each removal was.
pub(super) struct Skeleton {
    /// The shortened text: every `//` comment is `//` (and its `\r`, if its line ends with `\r\n`).
    pub(super) text: String,
    /// Per removal, in order: the offset in `text` just after the comment's `//`, and the number of bytes removed
    /// up to and including this removal.
    cuts: Vec<(usize, usize)>,
}

impl Skeleton {
    /// The skeleton of `src` given the byte ranges of its `//` comments (each from its first `/` to before its
    /// newline, in order, not overlapping — [`super::depth::Scan::line_comments`]). `None` when no comment has a
    /// body to remove.
    pub(super) fn new(src: &str, comments: &[Range<usize>]) -> Option<Self> {
        Some(Self::build(src, comments)).filter(|s| !s.cuts.is_empty())
    }

    /// [`Skeleton::new`], also when no comment has a body to remove (then `text` is `src` and there is no cut): the
    /// text a later parse of the file compares its own skeleton with ([`super::reuse`]).
    pub(super) fn build(src: &str, comments: &[Range<usize>]) -> Self {
        let mut text = String::with_capacity(src.len());
        let mut cuts = Vec::with_capacity(comments.len());
        let (mut from, mut removed) = (0, 0);
        for c in comments {
            // The body: after `//`, up to a final `\r` (kept, so that tree-sitter sees the line end it saw).
            let body_start = c.start + 2;
            let body_end = if src.as_bytes().get(c.end.wrapping_sub(1)) == Some(&b'\r') {
                c.end - 1
            } else {
                c.end
            };
            if body_end <= body_start {
                continue;
            }
            text.push_str(&src[from..body_start]);
            removed += body_end - body_start;
            cuts.push((text.len(), removed));
            from = body_end;
        }
        text.push_str(&src[from..]);
        Self { text, cuts }
    }

    /// The offset in the original text of offset `pos` in [`Skeleton::text`]. A position at a removal (just after
    /// a comment's `//`) maps to the end of the removed body: the end of the comment, or the start of what follows
    /// it.
    pub(super) fn orig(&self, pos: usize) -> usize {
        let i = self.cuts.partition_point(|&(at, _)| at <= pos);
        pos + i.checked_sub(1).map_or(0, |i| self.cuts[i].1)
    }

    /// The inverse of [`Skeleton::orig`]: the offset in [`Skeleton::text`] of `orig`, an offset in the original
    /// text that [`Skeleton::orig`] gives (the start or end of a node tree-sitter read); for an offset inside a
    /// removed body (which [`Skeleton::orig`] never gives) the answer is unspecified.
    pub(super) fn skel(&self, orig: usize) -> usize {
        // `at + removed` is where the text after removal `k` resumes in the original; the last removal resuming at
        // or before `orig` is the one `orig` follows.
        let i = self
            .cuts
            .partition_point(|&(at, removed)| at + removed <= orig);
        i.checked_sub(1).map_or(orig, |k| orig - self.cuts[k].1)
    }
}
