//! Lowering of the tree-sitter-go tree into [`GoFile`]. No tree-sitter type escapes this module.

use super::comments::{CommentIndex, RawComment, group_raw};
use super::skeleton::Skeleton;
use super::{
    ConstDecl, ConstValue, Field, GoFile, Import, Span, SyntaxProblem, TypeDecl, TypeExpr,
};
use crate::structtag::unquote_interpreted;
use std::num::NonZeroU16;
use tree_sitter::{Node, Parser};

/// `src` with every character that Go accepts as an identifier letter (`unicode.IsLetter`: category L) but
/// tree-sitter-go's identifier pattern does not (`[_\p{XID_Start}][_\p{XID_Continue}]*`: U+2E2F `ⸯ`, U+037A, U+0E33,
/// the Arabic presentation forms U+FC5E–U+FC63, …) replaced by `x`s of the same byte length, so tree-sitter parses
/// the declaration Go parses (R60, issue 36 row 9: a field `XⸯY string` was an unparsable region and its tags
/// vanished behind a warning). Offsets are unchanged and the lowering reads every name from the original text, so
/// the field is `XⸯY`. `None` when nothing needs replacing (always for ASCII text).
pub(super) fn go_letters_for_tree_sitter(src: &str) -> Option<String> {
    if src.is_ascii() {
        return None;
    }
    let needs = |c: char| {
        !c.is_ascii()
            && !unicode_ident::is_xid_start(c)
            && unicode_general_category::get_general_category(c)
                .abbreviation()
                .starts_with('L')
    };
    if !src.chars().any(needs) {
        return None;
    }
    let mut out = String::with_capacity(src.len());
    for c in src.chars() {
        if needs(c) {
            for _ in 0..c.len_utf8() {
                out.push('x');
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

pub(super) fn lower(src: &str) -> GoFile {
    lower_with(src, true)
}

/// [`lower`], with tree-sitter reading the comment-less [`Skeleton`] when `shorten` (as `lower` does), else the
/// whole text (what the skeleton must be equivalent to; the parser's tests compare both).
pub(super) fn lower_with(src: &str, shorten: bool) -> GoFile {
    lower_core(src, shorten, false).0
}

/// What a parse of a file leaves for a later parse of the same file whose skeleton is unchanged
/// ([`super::reuse`]): the skeleton tree-sitter read (or the whole text, when no comment had a body to remove)
/// and every comment token as tree-sitter found it there.
pub(super) struct Recorded {
    /// The skeleton (its text is the whole text when it has no cut).
    pub(super) skeleton: Skeleton,
    /// The comment tokens, in order; `skel` is each one's range in the skeleton.
    pub(super) comments: Vec<RawComment>,
}

/// [`lower`], also returning what a later parse may reuse — `None` when the summary depends on more than the
/// skeleton and the comments' texts read at their places ([`super::reuse`] lists the cases).
pub(super) fn lower_recording(src: &str) -> (GoFile, Option<Recorded>) {
    lower_core(src, true, true)
}

fn lower_core(src: &str, shorten: bool, record: bool) -> (GoFile, Option<Recorded>) {
    // Declarations nested deeper than MAX_NESTING brackets are blanked before tree-sitter sees them (its error
    // recovery is super-linear in the nesting depth; see `depth`). Offsets are unchanged, so every span below
    // still points into the caller's text.
    let scan = super::depth::scan(src);
    // A blanked file's problems are found by the scan, which reads comments: not reusable.
    let mut record = record && scan.blanked.is_none();
    let (blanked, mut problems) = match scan.blanked {
        Some((text, problems)) => (Some(text), problems),
        None => (None, Vec::new()),
    };
    let src = blanked.as_deref().unwrap_or(src);
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .is_err()
    {
        let file = GoFile {
            problems: vec![SyntaxProblem {
                span: 0..0,
                message: "the Go grammar could not be loaded".into(),
                error: true,
            }],
            ..GoFile::default()
        };
        return (file, None);
    }
    // tree-sitter reads the text without comment bodies (see `skeleton`), or the whole text when that has a
    // syntax error — in both, letters Go takes in identifiers but tree-sitter-go's XID-based identifiers refuse
    // replaced by ASCII letters of the same length ([`go_letters_for_tree_sitter`]); every name is read from `src`.
    let readable = go_letters_for_tree_sitter(src);
    // The replaced letters would be compared in the skeleton as `x`s, not as written: not reusable.
    record &= readable.is_none();
    let ts_src = readable.as_deref().unwrap_or(src);
    let skeleton = Skeleton::new(ts_src, &scan.line_comments).filter(|_| shorten);
    let short = skeleton
        .as_ref()
        .and_then(|s| parser.parse(&s.text, None))
        .filter(|t| !t.root_node().has_error());
    // Reusable only when tree-sitter read the skeleton (the whole text is the skeleton when no comment has a body)
    // and found no syntax error: the error recovery of a whole-text parse weighs the comments' characters.
    record &= shorten && (short.is_some() || skeleton.is_none());
    let (tree, offsets) = match short {
        Some(tree) => (Some(tree), Offsets(skeleton.as_ref())),
        None => (parser.parse(ts_src, None), Offsets(None)),
    };
    let Some(tree) = tree else {
        problems.push(SyntaxProblem {
            span: 0..src.len(),
            message: "the Go parser gave up on this file".into(),
            error: true,
        });
        let file = GoFile {
            problems,
            ..GoFile::default()
        };
        return (file, None);
    };
    let root = tree.root_node();
    record &= !root.has_error();
    let mut raw = Vec::new();
    let too_deep = collect_leaves(root, src, &offsets, &mut raw, &mut problems);
    let groups = group_raw(&raw);
    let idx = CommentIndex::new(&groups);
    let mut l = Lowerer {
        src,
        offsets: &offsets,
        idx: &idx,
        file: GoFile::default(),
        line_comments: record.then_some(scan.line_comments.as_slice()),
        read_a_comment: std::cell::Cell::new(false),
    };
    problems.sort_by_key(|p| p.span.start);
    let tops: Vec<Span> = {
        let mut c = root.walk();
        root.children(&mut c).map(|n| offsets.span(n)).collect()
    };
    l.file.problems = one_per_declaration(problems, &tops);
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        if too_deep.contains(&child.id()) {
            continue;
        }
        match child.kind() {
            "package_clause" => {
                if let Some(n) = child.named_child(0) {
                    l.file.package = l.text(n).to_string();
                }
            }
            "import_declaration" => l.imports(child),
            "type_declaration" => l.type_decl(child),
            "const_declaration" => l.const_decl(child),
            _ => {}
        }
    }
    // An empty file (whitespace only: a file being created in an editor) declares nothing, so nothing can be lost
    // without a word; it is left alone, though Go refuses it too.
    if l.file.package.is_empty() && !src.trim().is_empty() {
        missing_package_clause(src, &mut l.file.problems);
    }
    // A text read across a comment (an interface type, a constant expression spanning lines) holds the comment's
    // body; so does the missing-package problem (it skips leading comments): not reusable.
    record &= !l.read_a_comment.get() && !l.file.package.is_empty();
    let mut file = l.file;
    file.comment_groups = groups;
    if !record {
        return (file, None);
    }
    let skeleton = skeleton.unwrap_or_else(|| Skeleton::build(src, &[]));
    (
        file,
        Some(Recorded {
            skeleton,
            comments: raw,
        }),
    )
}

/// The syntax problems of a file with those between two well-formed top-level declarations merged into one spanning
/// them (`tops`: the spans of the root's children): a stray statement in a struct makes tree-sitter's recovery mark
/// every field line after it (two regions a line: 56 for one line typed into core/v1 `PodSpec`) and split the
/// declaration into pieces; one located error from the first region says as much. Problems of vgc's own (`error`)
/// are kept as they are.
fn one_per_declaration(problems: Vec<SyntaxProblem>, tops: &[Span]) -> Vec<SyntaxProblem> {
    // A top-level node no plain problem touches: a declaration that parsed.
    let clean: Vec<&Span> = tops
        .iter()
        .filter(|t| {
            !problems.iter().any(|p| {
                !p.error && p.span.start < t.end && t.start < p.span.end.max(p.span.start + 1)
            })
        })
        .collect();
    let mut out: Vec<(SyntaxProblem, usize)> = Vec::new();
    for p in problems {
        match out.last_mut() {
            Some((last, n))
                if !p.error
                    && !last.error
                    && !clean
                        .iter()
                        .any(|t| last.span.end <= t.start && t.end <= p.span.start) =>
            {
                last.span.end = last.span.end.max(p.span.end);
                *n += 1;
            }
            _ => out.push((p, 1)),
        }
    }
    out.into_iter()
        .map(|(mut p, n)| {
            if n > 1 {
                p.message = format!(
                    "could not parse this region ({n} places, up to the next declaration that parses); declarations and tags inside it were skipped"
                );
            }
            p
        })
        .collect()
}

/// Go's parser refuses a file whose first token (after comments) is not `package` ("expected 'package', found
/// …"); tree-sitter-go's grammar makes the clause optional, so a file without one, or with a misspelt one, parses.
/// Reports it at the first word after the leading comments (replacing tree-sitter's problem starting there): a file
/// of no package would otherwise be left out of its directory's package without a word.
fn missing_package_clause(src: &str, problems: &mut Vec<SyntaxProblem>) {
    let mut at = 0;
    loop {
        let rest = &src[at..];
        let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            at = trimmed.find('\n').map_or(src.len(), |i| at + i);
        } else if trimmed.starts_with("/*") {
            at = trimmed.find("*/").map_or(src.len(), |i| at + i + 2);
        } else {
            break;
        }
    }
    let word = src[at..]
        .find(|c: char| c.is_whitespace())
        .map_or(src.len(), |i| at + i);
    let found = if word > at {
        format!("`{}`", &src[at..word])
    } else {
        "the end of the file".to_string()
    };
    problems.retain(|p| p.error || p.span.start != at);
    problems.push(SyntaxProblem {
        span: at..word,
        message: format!(
            "expected `package`, found {found}: Go refuses a file without a package clause"
        ),
        error: false,
    });
    problems.sort_by_key(|p| p.span.start);
}

/// tree-sitter-go's field ids, looked up by name once: `Node::child_by_field_name` compares the name with every
/// field name of the grammar on each call (`ts_language_field_id_for_name`), about 1 % of a cold k8s.io/api build.
#[derive(Debug)]
struct FieldIds {
    arguments: NonZeroU16,
    element: NonZeroU16,
    field: NonZeroU16,
    function: NonZeroU16,
    key: NonZeroU16,
    left: NonZeroU16,
    length: NonZeroU16,
    name: NonZeroU16,
    operand: NonZeroU16,
    operator: NonZeroU16,
    package: NonZeroU16,
    path: NonZeroU16,
    right: NonZeroU16,
    tag: NonZeroU16,
    type_: NonZeroU16,
    type_arguments: NonZeroU16,
    type_parameters: NonZeroU16,
    value: NonZeroU16,
}

fn fields() -> &'static FieldIds {
    static IDS: std::sync::OnceLock<FieldIds> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
        // Every name is a field of the pinned grammar (the parser's tests read each); an unknown one would get an
        // id no node has.
        let id = |name: &str| language.field_id_for_name(name).unwrap_or(NonZeroU16::MAX);
        FieldIds {
            arguments: id("arguments"),
            element: id("element"),
            field: id("field"),
            function: id("function"),
            key: id("key"),
            left: id("left"),
            length: id("length"),
            name: id("name"),
            operand: id("operand"),
            operator: id("operator"),
            package: id("package"),
            path: id("path"),
            right: id("right"),
            tag: id("tag"),
            type_: id("type"),
            type_arguments: id("type_arguments"),
            type_parameters: id("type_parameters"),
            value: id("value"),
        }
    })
}

/// The deepest syntax nesting (tree-sitter levels below the file) of a top-level declaration that vgc lowers.
/// Deeper declarations are skipped with an error. Go's own parser stops at 100,000 levels
/// (`go/parser` `maxNestLev`); vgc's later stages (type resolution, lowering, code generation with `syn`) recurse
/// on type nesting, so the limit is far lower — and still far above real API types, which nest about 12 levels
/// (`type` → struct → field → `map[string][]*pkg.T`). A level is one syntax node: `[]T` adds one, an anonymous
/// `struct { F T }` adds three, `(x)` adds one.
pub const MAX_NESTING: usize = 256;

/// Walks every leaf without recursion (a tree cursor and an explicit depth), recording comments (with "is there
/// code before it on this line") and parse problems. Returns the ids of the top-level nodes that nest deeper
/// than [`MAX_NESTING`]: the caller skips them (each is reported once, at its first node beyond the limit).
fn collect_leaves(
    root: Node<'_>,
    src: &str,
    offsets: &Offsets<'_>,
    raw: &mut Vec<RawComment>,
    problems: &mut Vec<SyntaxProblem>,
) -> std::collections::HashSet<usize> {
    let mut too_deep = std::collections::HashSet::new();
    // (non-comment tokens seen, end line of the last non-comment token)
    let mut state = (0usize, usize::MAX);
    let mut cursor = root.walk();
    let mut depth = 0usize;
    let mut top = root.id();
    loop {
        let node = cursor.node();
        if depth == 1 {
            top = node.id();
        }
        let descend = visit(node, src, offsets, raw, problems, &mut state);
        if descend && depth >= MAX_NESTING {
            if too_deep.insert(top) {
                problems.push(SyntaxProblem {
                    span: offsets.span(node),
                    message: format!(
                        "this declaration nests deeper than {MAX_NESTING} syntax levels, vgc's limit; \
                         it was skipped"
                    ),
                    error: true,
                });
            }
        } else if descend && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                return too_deep;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
    }
}

/// Records one node's problem or comment; returns whether its children are to be walked.
fn visit(
    node: Node<'_>,
    src: &str,
    offsets: &Offsets<'_>,
    raw: &mut Vec<RawComment>,
    problems: &mut Vec<SyntaxProblem>,
    state: &mut (usize, usize),
) -> bool {
    if node.is_error() {
        problems.push(SyntaxProblem {
            span: offsets.span(node),
            message: "could not parse this region; declarations and tags inside it were skipped"
                .into(),
            error: false,
        });
    } else if node.is_missing() {
        problems.push(SyntaxProblem {
            span: offsets.at(node.start_byte())..offsets.at(node.start_byte()),
            message: format!("missing `{}`", node.kind()),
            error: false,
        });
    }
    if node.kind() == "comment" {
        let start_line = node.start_position().row + 1;
        let span = offsets.span(node);
        raw.push(RawComment {
            text: src[span.clone()].to_string(),
            skel: node.start_byte()..node.end_byte(),
            offset: span.start,
            start_line,
            end_line: node.end_position().row + 1,
            after_code_on_line: state.1 == start_line,
            tokens_before: state.0,
        });
        return false;
    }
    if node.child_count() == 0 {
        if node.end_byte() > node.start_byte() {
            state.0 += 1;
            state.1 = node.end_position().row + 1;
        }
        return false;
    }
    true
}

/// Maps tree-sitter's byte offsets to the file's: through the [`Skeleton`] tree-sitter parsed, if any.
struct Offsets<'a>(Option<&'a Skeleton>);

impl Offsets<'_> {
    fn at(&self, pos: usize) -> usize {
        self.0.map_or(pos, |s| s.orig(pos))
    }

    /// `n`'s byte range in the file.
    fn span(&self, n: Node<'_>) -> std::ops::Range<usize> {
        self.at(n.start_byte())..self.at(n.end_byte())
    }
}

struct Lowerer<'a> {
    /// The file's text (with too-deep declarations blanked); node offsets go through `offsets` first.
    src: &'a str,
    offsets: &'a Offsets<'a>,
    idx: &'a CommentIndex<'a>,
    file: GoFile,
    /// The `//` comments of the file when the parse is recorded for reuse ([`lower_recording`]): [`Lowerer::text`]
    /// then notes a text that holds one.
    line_comments: Option<&'a [std::ops::Range<usize>]>,
    /// Some text read holds a `//` comment (see `line_comments`).
    read_a_comment: std::cell::Cell<bool>,
}

fn line_of(n: Node<'_>) -> usize {
    n.start_position().row + 1
}

impl Lowerer<'_> {
    fn text(&self, n: Node<'_>) -> &str {
        let span = self.offsets.span(n);
        if let Some(comments) = self.line_comments {
            let i = comments.partition_point(|c| c.start < span.start);
            if comments.get(i).is_some_and(|c| c.start < span.end) {
                self.read_a_comment.set(true);
            }
        }
        &self.src[span]
    }

    fn imports(&mut self, decl: Node<'_>) {
        let mut specs = Vec::new();
        let mut c = decl.walk();
        for ch in decl.named_children(&mut c) {
            match ch.kind() {
                "import_spec" => specs.push(ch),
                "import_spec_list" => {
                    let mut c2 = ch.walk();
                    specs.extend(
                        ch.named_children(&mut c2)
                            .filter(|n| n.kind() == "import_spec"),
                    );
                }
                _ => {}
            }
        }
        for spec in specs {
            let Some(path) = spec.child_by_field_id(fields().path.get()) else {
                continue;
            };
            let path = string_literal(self.text(path)).unwrap_or_default();
            let alias = spec
                .child_by_field_id(fields().name.get())
                .map(|n| self.text(n).to_string());
            self.file.imports.push(Import {
                alias,
                path,
                span: self.offsets.span(spec),
            });
        }
    }

    fn type_decl(&mut self, decl: Node<'_>) {
        let mut c = decl.walk();
        for spec in decl.named_children(&mut c) {
            let is_alias = match spec.kind() {
                "type_spec" => false,
                "type_alias" => true,
                _ => continue,
            };
            let (Some(name), Some(ty)) = (
                spec.child_by_field_id(fields().name.get()),
                spec.child_by_field_id(fields().type_.get()),
            ) else {
                continue;
            };
            let line = line_of(name);
            let decl = TypeDecl {
                name: self.text(name).to_string(),
                name_span: self.offsets.span(name),
                is_alias,
                generic: spec
                    .child_by_field_id(fields().type_parameters.get())
                    .is_some(),
                ty: self.type_expr(ty),
                doc: self.idx.doc(line),
                second_doc: self.idx.second(line),
            };
            self.file.types.push(decl);
        }
    }

    fn type_expr(&self, n: Node<'_>) -> TypeExpr {
        let child = |f: u16| n.child_by_field_id(f);
        match n.kind() {
            "type_identifier" => TypeExpr::Named {
                pkg: None,
                name: self.text(n).to_string(),
                args: vec![],
            },
            "qualified_type" => TypeExpr::Named {
                pkg: child(fields().package.get()).map(|p| self.text(p).to_string()),
                name: child(fields().name.get())
                    .map(|p| self.text(p).to_string())
                    .unwrap_or_default(),
                args: vec![],
            },
            "generic_type" => {
                let base = child(fields().type_.get())
                    .map_or(TypeExpr::Other(self.text(n).to_string()), |t| {
                        self.type_expr(t)
                    });
                let mut args = Vec::new();
                if let Some(ta) = child(fields().type_arguments.get()) {
                    let mut c = ta.walk();
                    for a in ta.named_children(&mut c) {
                        let inner = if a.kind() == "type_elem" {
                            a.named_child(0).unwrap_or(a)
                        } else {
                            a
                        };
                        args.push(self.type_expr(inner));
                    }
                }
                match base {
                    TypeExpr::Named { pkg, name, .. } => TypeExpr::Named { pkg, name, args },
                    other => other,
                }
            }
            "pointer_type" => TypeExpr::Pointer(Box::new(self.first_type(n))),
            "slice_type" => TypeExpr::Slice(Box::new(
                child(fields().element.get())
                    .map_or(TypeExpr::Other(String::new()), |e| self.type_expr(e)),
            )),
            "array_type" => TypeExpr::Array {
                len: child(fields().length.get())
                    .map(|l| self.text(l).to_string())
                    .unwrap_or_default(),
                elem: Box::new(
                    child(fields().element.get())
                        .map_or(TypeExpr::Other(String::new()), |e| self.type_expr(e)),
                ),
            },
            "map_type" => TypeExpr::Map(
                Box::new(
                    child(fields().key.get())
                        .map_or(TypeExpr::Other(String::new()), |e| self.type_expr(e)),
                ),
                Box::new(
                    child(fields().value.get())
                        .map_or(TypeExpr::Other(String::new()), |e| self.type_expr(e)),
                ),
            ),
            "parenthesized_type" => self.first_type(n),
            "struct_type" => TypeExpr::Struct(self.fields(n)),
            _ => TypeExpr::Other(self.text(n).to_string()),
        }
    }

    fn first_type(&self, n: Node<'_>) -> TypeExpr {
        n.named_child(0)
            .map_or(TypeExpr::Other(self.text(n).to_string()), |c| {
                self.type_expr(c)
            })
    }

    fn fields(&self, st: Node<'_>) -> Vec<Field> {
        let mut out = Vec::new();
        let Some(list) = st
            .named_child(0)
            .filter(|c| c.kind() == "field_declaration_list")
        else {
            return out;
        };
        let mut c = list.walk();
        for fd in list.named_children(&mut c) {
            if fd.kind() != "field_declaration" {
                continue;
            }
            let Some(tyn) = fd.child_by_field_id(fields().type_.get()) else {
                continue;
            };
            let mut ty = self.type_expr(tyn);
            // tree-sitter-go parses an embedded `*T` as the token `*` followed by the type field `T`.
            let mut c1 = fd.walk();
            if fd
                .children(&mut c1)
                .take_while(|n| n.id() != tyn.id())
                .any(|n| n.kind() == "*")
            {
                ty = TypeExpr::Pointer(Box::new(ty));
            }
            let tag = fd
                .child_by_field_id(fields().tag.get())
                .and_then(|t| string_literal(self.text(t)));
            let mut c2 = fd.walk();
            let names: Vec<Node<'_>> = fd.children_by_field_id(fields().name, &mut c2).collect();
            // gengo uses the field's own position (its first name, or the type when embedded).
            let doc = self.idx.doc(line_of(fd));
            if names.is_empty() {
                // An embedded field: `T`, `*T`, `pkg.T`.
                out.push(Field {
                    name: None,
                    span: self.offsets.span(tyn),
                    ty,
                    tag,
                    doc,
                });
            } else {
                for nm in names {
                    out.push(Field {
                        name: Some(self.text(nm).to_string()),
                        span: self.offsets.span(nm),
                        ty: ty.clone(),
                        tag: tag.clone(),
                        doc: doc.clone(),
                    });
                }
            }
        }
        out
    }

    fn const_decl(&mut self, decl: Node<'_>) {
        // Implicit repetition: a spec without type and value repeats the previous spec's type and expressions,
        // with `iota` taking the new spec's index.
        let mut prev: Option<(Option<TypeExpr>, Vec<Node<'_>>)> = None;
        let mut iota: i64 = 0;
        let mut c = decl.walk();
        for spec in decl.named_children(&mut c) {
            if spec.kind() != "const_spec" {
                continue;
            }
            let mut c2 = spec.walk();
            let names: Vec<Node<'_>> = spec.children_by_field_id(fields().name, &mut c2).collect();
            let ty = spec
                .child_by_field_id(fields().type_.get())
                .map(|t| self.type_expr(t));
            let values: Vec<Node<'_>> = spec
                .child_by_field_id(fields().value.get())
                .map(|v| {
                    let mut c3 = v.walk();
                    v.named_children(&mut c3).collect()
                })
                .unwrap_or_default();
            let (ty, values) = if values.is_empty() && ty.is_none() {
                prev.clone().unwrap_or((None, vec![]))
            } else {
                prev = Some((ty.clone(), values.clone()));
                (ty, values)
            };
            for (i, name) in names.iter().enumerate() {
                let value = values.get(i).map_or(ConstValue::Other(String::new()), |v| {
                    self.const_value(*v, iota)
                });
                // Without a declared type, a conversion `T(x)` gives the constant type `T` (as go/types does).
                let ty = ty
                    .clone()
                    .or_else(|| values.get(i).and_then(|v| self.conversion_type(*v)));
                self.file.consts.push(ConstDecl {
                    name: self.text(*name).to_string(),
                    span: self.offsets.span(*name),
                    ty,
                    value,
                    doc: self.idx.doc(line_of(*name)),
                });
            }
            iota += 1;
        }
    }

    /// The type a conversion expression `T(x)` / `pkg.T(x)` (possibly parenthesized) converts to; `None` for other
    /// expressions and for the builtins allowed in constant expressions.
    fn conversion_type(&self, v: Node<'_>) -> Option<TypeExpr> {
        match v.kind() {
            "parenthesized_expression" => self.conversion_type(v.named_child(0)?),
            "call_expression" => {
                let f = v.child_by_field_id(fields().function.get())?;
                match f.kind() {
                    "identifier" => {
                        let name = self.text(f);
                        let builtin = matches!(
                            name,
                            "len" | "cap" | "real" | "imag" | "complex" | "min" | "max" | "unsafe"
                        );
                        (!builtin).then(|| TypeExpr::Named {
                            pkg: None,
                            name: name.to_string(),
                            args: vec![],
                        })
                    }
                    "selector_expression" => Some(TypeExpr::Named {
                        pkg: Some(
                            self.text(f.child_by_field_id(fields().operand.get())?)
                                .to_string(),
                        ),
                        name: self
                            .text(f.child_by_field_id(fields().field.get())?)
                            .to_string(),
                        args: vec![],
                    }),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn const_value(&self, v: Node<'_>, iota: i64) -> ConstValue {
        let text = self.text(v);
        match v.kind() {
            "interpreted_string_literal" | "raw_string_literal" => {
                string_literal(text).map_or(ConstValue::Other(text.to_string()), ConstValue::Str)
            }
            "int_literal" => crate::tags::lexer::parse_go_int(&text.replace('_', ""))
                .map_or(ConstValue::Other(text.into()), ConstValue::Int),
            "iota" => ConstValue::Int(iota),
            "identifier" => ConstValue::Ref(None, text.to_string()),
            "selector_expression" => {
                let operand = v
                    .child_by_field_id(fields().operand.get())
                    .map(|o| self.text(o).to_string());
                let field = v
                    .child_by_field_id(fields().field.get())
                    .map(|o| self.text(o).to_string())
                    .unwrap_or_default();
                ConstValue::Ref(operand, field)
            }
            "parenthesized_expression" => v
                .named_child(0)
                .map_or(ConstValue::Other(text.into()), |c| {
                    self.const_value(c, iota)
                }),
            "call_expression" => {
                // A conversion such as `T("x")`: take the single argument's value (not for builtins like `len`).
                let args = v.child_by_field_id(fields().arguments.get());
                match args.and_then(|a| a.named_child(0)) {
                    Some(a)
                        if args.is_some_and(|a| a.named_child_count() == 1)
                            && self.conversion_type(v).is_some() =>
                    {
                        self.const_value(a, iota)
                    }
                    _ => ConstValue::Other(text.to_string()),
                }
            }
            "binary_expression" => {
                let l = v
                    .child_by_field_id(fields().left.get())
                    .map(|n| self.const_value(n, iota));
                let r = v
                    .child_by_field_id(fields().right.get())
                    .map(|n| self.const_value(n, iota));
                let op = v
                    .child_by_field_id(fields().operator.get())
                    .map(|n| self.text(n));
                match (l, op, r) {
                    (Some(ConstValue::Int(a)), Some(op), Some(ConstValue::Int(b))) => {
                        fold(a, op, b).map_or(ConstValue::Other(text.to_string()), ConstValue::Int)
                    }
                    (Some(ConstValue::Str(a)), Some("+"), Some(ConstValue::Str(b))) => {
                        ConstValue::Str(a + &b)
                    }
                    _ => ConstValue::Other(text.to_string()),
                }
            }
            _ => ConstValue::Other(text.to_string()),
        }
    }
}

fn fold(a: i64, op: &str, b: i64) -> Option<i64> {
    match op {
        "+" => a.checked_add(b),
        "-" => a.checked_sub(b),
        "*" => a.checked_mul(b),
        "/" => a.checked_div(b),
        "<<" => u32::try_from(b).ok().and_then(|b| a.checked_shl(b)),
        ">>" => u32::try_from(b).ok().and_then(|b| a.checked_shr(b)),
        "|" => Some(a | b),
        "&" => Some(a & b),
        _ => None,
    }
}

/// Unquotes a Go string literal (interpreted or raw). Returns `None` if it is not one or is malformed.
fn string_literal(text: &str) -> Option<String> {
    if let Some(raw) = text.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        return Some(raw.replace('\r', ""));
    }
    unquote_interpreted(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field the lowering reads is a field of the pinned tree-sitter-go grammar (an unknown name gets
    /// `NonZeroU16::MAX`).
    #[test]
    fn every_field_name_is_in_the_grammar() {
        let ids = format!("{:?}", fields());
        assert!(ids.contains("name: "), "{ids}");
        assert!(!ids.contains(&NonZeroU16::MAX.to_string()), "{ids}");
    }
}
