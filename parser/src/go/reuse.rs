//! A re-parse of an edited file that skips tree-sitter and the tree walk when only `//` comment bodies changed
//! (issue 38: a one-tag edit of core/v1 `types.go`, 471 KB, re-parsed the whole file in a live session).
//!
//! tree-sitter reads the file's *skeleton* (`super::skeleton`: the text with every `//` comment's body removed), so
//! when the new text's skeleton is byte for byte the old one's, tree-sitter would build the same tree, and the
//! summary differs from the old one only in what the lowering reads from comment bodies and in byte offsets. The
//! new [`GoFile`] is then the old one with
//! - every span (imports, type and field names, constants, problems) moved from the old text to the new one through
//!   the skeleton (old offset → skeleton offset by the old skeleton's cuts → new offset by the new one's; both
//!   exact, as every span is the start or end of a node tree-sitter read);
//! - the comment groups rebuilt from the comment tokens at their skeleton places with the new texts (grouping reads
//!   only lines and tokens, which the skeleton fixes; a group's text lines — `go/ast` `Text()`, directives
//!   dropped, blank lines collapsed — are the new texts');
//! - every doc and second-closest doc (gengo `CommentLines`, `SecondClosestCommentLines`) taken from the same
//!   group as before: the association is by lines, which the skeleton fixes, and an old non-empty doc names its
//!   group by its first line's offset.
//!
//! Anything else means a full parse ([`super::parse_for_tag_prefix`]'s own path), decided case by case:
//! - the declaration-free shortcut (the new text, checked first, as `parse_for_tag_prefix` does, since a comment
//!   edit can add or remove `+k8s:` text): its summary is computed by itself, and the old one leaves nothing;
//! - a declaration nested too deep (`super::depth`): the scan that blanks it reads comments — never reused;
//! - letters Go takes in identifiers but tree-sitter-go does not (`lower::go_letters_for_tree_sitter`): never
//!   reused (the skeleton compared would hold the replacement letters);
//! - a syntax error or a missing part in the tree: a whole-text parse (error recovery weighs the comments'
//!   characters) — never reused;
//! - a missing package clause (its problem skips leading comments and quotes a word) — never reused;
//! - a text the summary holds that spans a `//` comment (an interface type or a constant expression written over
//!   several lines with a comment inside): its text holds the comment — never reused;
//! - a comment group whose text lines were empty (blank or directive-only) and are not, or the reverse: a doc that
//!   was empty does not say whether it had a group — a full parse.
//!
//! The tests compare [`parse_reusing`] with [`super::parse_for_tag_prefix`] on edits of each kind and on random
//! edits of the comments of every k8s.io/api and apimachinery file (`parser/tests/reuse_corpus.rs`).

use super::comments::{CommentLine, RawComment, group_raw};
use super::lower::{Recorded, go_letters_for_tree_sitter, lower_recording};
use super::skeleton::Skeleton;
use super::{GoFile, Span, TypeExpr, declaration_free};
use std::sync::Arc;

/// What a parse of a file leaves for the next parse of the same file ([`parse_reusing`]): cheap to clone (shared).
/// Empty when that parse cannot be reused (see the module docs for when).
#[derive(Clone, Default)]
pub struct Previous(Option<Arc<Base>>);

impl Previous {
    /// Whether a later parse may reuse this one (a comment-only edit of it then skips tree-sitter).
    #[must_use]
    pub fn is_reusable(&self) -> bool {
        self.0.is_some()
    }
}

impl std::fmt::Debug for Previous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(base) => write!(
                f,
                "Previous({} skeleton bytes, {} comments)",
                base.skeleton.text.len(),
                base.comments.len()
            ),
            None => f.write_str("Previous(none)"),
        }
    }
}

/// A full parse's summary with what it read it from, without the comments' texts (which would double its size).
struct Base {
    /// The summary of the text parsed, with no comment group and each doc cut to its first line with no text: the
    /// line's offset names its group (`firsts`).
    file: GoFile,
    /// Its skeleton: the text tree-sitter read and the cuts that map the summary's offsets to it.
    skeleton: Skeleton,
    /// Every comment token: its skeleton range, lines and grouping facts.
    comments: Vec<Shape>,
    /// Per comment group, in order: whether it has text lines.
    texted: Vec<bool>,
    /// `(offset of the first text line, index)` of each comment group with text lines, in order: the group an old
    /// non-empty doc comes from.
    firsts: Vec<(usize, usize)>,
}

/// A comment token as [`RawComment`] has it, without its text.
struct Shape {
    skel: std::ops::Range<usize>,
    start_line: usize,
    end_line: usize,
    after_code_on_line: bool,
    tokens_before: usize,
}

/// The outcome of [`parse_reusing`].
#[derive(Debug)]
pub struct Reparsed {
    /// The summary: exactly [`super::parse_for_tag_prefix`]'s.
    pub file: GoFile,
    /// What the next parse of this file may reuse.
    pub previous: Previous,
    /// `true` when the summary was taken from the previous parse (no tree-sitter, no tree walk).
    pub reused: bool,
}

/// [`super::parse_for_tag_prefix`]`(src, tag_prefix)`, reusing `previous` (an earlier parse of the same file, any
/// text) when `src`'s skeleton is byte for byte the one `previous` read — only `//` comment bodies differ: then
/// neither tree-sitter nor the tree walk runs; the cost is one linear scan of `src`, its skeleton and the comments'
/// texts. The summary is the same either way, `GoFile` for `GoFile`; the module docs list when a parse is full.
/// Never fails, never panics.
#[must_use]
pub fn parse_reusing(src: &str, tag_prefix: &str, previous: Option<&Previous>) -> Reparsed {
    if let Some(package) = declaration_free(src, tag_prefix) {
        return Reparsed {
            file: GoFile {
                package,
                ..GoFile::default()
            },
            previous: Previous::default(),
            reused: false,
        };
    }
    if let Some(base) = previous.and_then(|p| p.0.as_ref())
        && let Some(file) = base.reuse(src)
    {
        return Reparsed {
            file,
            previous: Previous(Some(base.clone())),
            reused: true,
        };
    }
    let (file, recorded) = lower_recording(src);
    let previous = Previous(recorded.map(|r| Arc::new(Base::new(&file, r))));
    Reparsed {
        file,
        previous,
        reused: false,
    }
}

impl Base {
    fn new(file: &GoFile, recorded: Recorded) -> Self {
        let comments = recorded
            .comments
            .into_iter()
            .map(|c| Shape {
                skel: c.skel,
                start_line: c.start_line,
                end_line: c.end_line,
                after_code_on_line: c.after_code_on_line,
                tokens_before: c.tokens_before,
            })
            .collect();
        let texted = file
            .comment_groups
            .iter()
            .map(|g| !g.lines.is_empty())
            .collect();
        let firsts = file
            .comment_groups
            .iter()
            .enumerate()
            .filter_map(|(i, g)| g.lines.first().map(|l| (l.offset, i)))
            .collect();
        let mut stripped = GoFile {
            package: file.package.clone(),
            imports: file.imports.clone(),
            types: file.types.clone(),
            consts: file.consts.clone(),
            comment_groups: Vec::new(),
            problems: file.problems.clone(),
        };
        each_span_and_doc(&mut stripped, &mut |_| {}, &mut |lines| {
            lines.truncate(1);
            lines.shrink_to_fit();
            if let Some(first) = lines.first_mut() {
                first.text = String::new();
            }
        });
        Base {
            file: stripped,
            skeleton: recorded.skeleton,
            comments,
            texted,
            firsts,
        }
    }

    /// The summary of `src` from this one, when `src`'s skeleton is this one's and every comment group keeps
    /// text lines or keeps none; `None` otherwise (the caller parses).
    fn reuse(&self, src: &str) -> Option<GoFile> {
        // Cheap refusals first: a new length of code, then the scan and the skeleton.
        let scan = super::depth::scan(src);
        if scan.blanked.is_some() || go_letters_for_tree_sitter(src).is_some() {
            return None;
        }
        let skeleton = Skeleton::build(src, &scan.line_comments);
        if skeleton.text != self.skeleton.text {
            return None;
        }
        let comments: Vec<RawComment> = self
            .comments
            .iter()
            .map(|c| {
                let span = skeleton.orig(c.skel.start)..skeleton.orig(c.skel.end);
                RawComment {
                    text: src[span.clone()].to_string(),
                    offset: span.start,
                    start_line: c.start_line,
                    end_line: c.end_line,
                    after_code_on_line: c.after_code_on_line,
                    tokens_before: c.tokens_before,
                    skel: c.skel.clone(),
                }
            })
            .collect();
        let groups = group_raw(&comments);
        let same_shape = groups.len() == self.texted.len()
            && groups
                .iter()
                .zip(&self.texted)
                .all(|(new, &texted)| new.lines.is_empty() != texted);
        if !same_shape {
            return None;
        }
        let mut file = self.file.clone();
        let moved = |p: usize| skeleton.orig(self.skeleton.skel(p));
        let mut lost = false;
        let mut doc = |lines: &mut Vec<CommentLine>| {
            let Some(first) = lines.first() else {
                return;
            };
            match self.firsts.binary_search_by_key(&first.offset, |&(o, _)| o) {
                Ok(k) => lines.clone_from(&groups[self.firsts[k].1].lines),
                Err(_) => lost = true,
            }
        };
        each_span_and_doc(
            &mut file,
            &mut |s| *s = moved(s.start)..moved(s.end),
            &mut doc,
        );
        if lost {
            return None;
        }
        file.comment_groups = groups;
        Some(file)
    }
}

/// Calls `span` on every byte range of `file` and `doc` on every doc comment (types' `doc` and `second_doc`,
/// fields', constants'), nested struct fields included. Every struct is destructured whole, so a field added to the
/// summary is a compile error here until it is decided.
fn each_span_and_doc(
    file: &mut GoFile,
    span: &mut dyn FnMut(&mut Span),
    doc: &mut dyn FnMut(&mut Vec<CommentLine>),
) {
    let GoFile {
        package: _,
        imports,
        types,
        consts,
        comment_groups: _,
        problems,
    } = file;
    for super::Import {
        alias: _,
        path: _,
        span: s,
    } in imports
    {
        span(s);
    }
    for super::TypeDecl {
        name: _,
        name_span,
        is_alias: _,
        generic: _,
        ty,
        doc: d,
        second_doc,
    } in types
    {
        span(name_span);
        each_in_type(ty, span, doc);
        doc(d);
        doc(second_doc);
    }
    for super::ConstDecl {
        name: _,
        span: s,
        ty,
        value: _,
        doc: d,
    } in consts
    {
        span(s);
        if let Some(ty) = ty {
            each_in_type(ty, span, doc);
        }
        doc(d);
    }
    for super::SyntaxProblem {
        span: s,
        message: _,
        error: _,
    } in problems
    {
        span(s);
    }
}

/// [`each_span_and_doc`] for a type expression (struct fields, at any depth).
fn each_in_type(
    ty: &mut TypeExpr,
    span: &mut dyn FnMut(&mut Span),
    doc: &mut dyn FnMut(&mut Vec<CommentLine>),
) {
    match ty {
        TypeExpr::Named { args, .. } => {
            for a in args {
                each_in_type(a, span, doc);
            }
        }
        TypeExpr::Pointer(t) | TypeExpr::Slice(t) | TypeExpr::Array { elem: t, .. } => {
            each_in_type(t, span, doc);
        }
        TypeExpr::Map(k, v) => {
            each_in_type(k, span, doc);
            each_in_type(v, span, doc);
        }
        TypeExpr::Struct(fields) => {
            for super::Field {
                name: _,
                span: s,
                ty,
                tag: _,
                doc: d,
            } in fields
            {
                span(s);
                each_in_type(ty, span, doc);
                doc(d);
            }
        }
        TypeExpr::Other(_) => {}
    }
}

#[cfg(test)]
mod tests;
