//! A never-failing Go syntax summary built from tree-sitter-go: what vgc needs of a Go file, as owned data.
//!
//! [`parse`] never fails. Regions tree-sitter cannot parse are reported in [`GoFile::problems`] and every other
//! declaration is still returned. Comment association mirrors gengo (`k8s.io/gengo/v2/parser`): comments are
//! grouped as `go/parser` groups them, a declaration's *doc lines* are the group ending on the line just before
//! it (`CommentLines`), and the *second-closest* lines are the group ending two lines above that group's start,
//! or two lines above the declaration when there is no doc group (`SecondClosestCommentLines`).

mod comments;
mod depth;
pub mod features;
mod lower;
mod reuse;
mod skeleton;
pub mod strategies;

pub use lower::MAX_NESTING;

pub use comments::{CommentGroup, CommentLine, group_comments};
pub use reuse::{Previous, Reparsed, parse_reusing};
use serde::{Deserialize, Serialize};

/// A byte range in the file.
pub type Span = std::ops::Range<usize>;

/// The syntax summary of one Go file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GoFile {
    /// The package name from the package clause (`""` when missing).
    pub package: String,
    /// Imports in source order.
    pub imports: Vec<Import>,
    /// Type declarations in source order.
    pub types: Vec<TypeDecl>,
    /// Constant specs in source order, with implicit repetition already applied.
    pub consts: Vec<ConstDecl>,
    /// Every comment group, in source order (gengo reads all groups of `doc.go` as package comments).
    pub comment_groups: Vec<CommentGroup>,
    /// Regions tree-sitter could not parse; declarations inside them were skipped.
    pub problems: Vec<SyntaxProblem>,
}

/// An import spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The explicit local name (`foo` in `import foo "x/y"`), `.` or `_`, if given.
    pub alias: Option<String>,
    /// The import path, unquoted.
    pub path: String,
    /// Span of the spec.
    pub span: Span,
}

/// A region that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxProblem {
    /// Span of the `ERROR` or `MISSING` node.
    pub span: Span,
    /// What went wrong, in words.
    pub message: String,
    /// vgc cannot honour the file for a reason of its own (a declaration beyond [`MAX_NESTING`] was skipped:
    /// `VGC0006`); `false` for a plain syntax error or a missing package clause (`VGC0001`, also an error, whose
    /// region the later stages use to not report what follows from it; deviation 5).
    #[serde(default)]
    pub error: bool,
}

/// A type expression, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TypeExpr {
    /// A named type: `pkg` is the import name for qualified types (`metav1.Time` → `Some("metav1")`).
    Named {
        /// Package qualifier as written, if any.
        pkg: Option<String>,
        /// Type name.
        name: String,
        /// Type arguments of an instantiated generic type, if any.
        args: Vec<TypeExpr>,
    },
    /// `*T`
    Pointer(Box<TypeExpr>),
    /// `[]T`
    Slice(Box<TypeExpr>),
    /// `[N]T`; `len` is the length expression text.
    Array {
        /// Length expression as written.
        len: String,
        /// Element type.
        elem: Box<TypeExpr>,
    },
    /// `map[K]V`
    Map(Box<TypeExpr>, Box<TypeExpr>),
    /// `struct { … }`
    Struct(Vec<Field>),
    /// An interface, func, chan or other shape vgc does not model; the text is kept for messages.
    Other(String),
}

/// A type declaration (`type T …` or `type T = …`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeDecl {
    /// The declared name.
    pub name: String,
    /// Span of the name.
    pub name_span: Span,
    /// `type T = U` (a Go alias) rather than a definition.
    pub is_alias: bool,
    /// The declaration has type parameters (generic types are tolerated, not validated).
    pub generic: bool,
    /// The right-hand side.
    pub ty: TypeExpr,
    /// Doc comment lines (gengo `CommentLines`).
    pub doc: Vec<CommentLine>,
    /// Second-closest comment lines (gengo `SecondClosestCommentLines`).
    pub second_doc: Vec<CommentLine>,
}

/// A struct field declaration (one per name; an embedded field has `name == None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The Go field name, or `None` for an embedded field.
    pub name: Option<String>,
    /// Span of the name (or of the type, for an embedded field).
    pub span: Span,
    /// The field type.
    pub ty: TypeExpr,
    /// The unquoted struct tag, if any.
    pub tag: Option<String>,
    /// Doc comment lines (gengo `member.CommentLines`).
    pub doc: Vec<CommentLine>,
}

/// A constant spec name with its resolved type and value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstDecl {
    /// The constant's name.
    pub name: String,
    /// Span of the name.
    pub span: Span,
    /// The declared type (after implicit repetition), if any.
    pub ty: Option<TypeExpr>,
    /// The value, when it is a literal vgc can evaluate.
    pub value: ConstValue,
    /// Doc comment lines (gengo `Constant.CommentLines`).
    pub doc: Vec<CommentLine>,
}

/// The value of a constant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConstValue {
    /// A string literal's value.
    Str(String),
    /// An integer (literal or `iota` arithmetic vgc could fold).
    Int(i64),
    /// A reference to another constant (`pkg` qualifier and name).
    Ref(Option<String>, String),
    /// Anything else; the expression text.
    Other(String),
}

/// Parses Go source into a [`GoFile`]. Never fails; see [`GoFile::problems`].
///
/// A file that can contribute nothing — no `type` or `const` declaration and no `+k8s:` comment, such as
/// protobuf-generated `generated.pb.go` (more than half of k8s.io/api's bytes) — is not handed to tree-sitter: its
/// summary is just the package name. The test is conservative (any line whose code, after an optional `;`,
/// starts with the `type` or `const` keyword, or any `+k8s:` text, means a full parse).
#[must_use]
pub fn parse(src: &str) -> GoFile {
    parse_for_tag_prefix(src, "k8s:")
}

/// [`parse`] for sources whose validation tags are written with `tag_prefix` (`--tag-prefix`, upstream
/// kubernetes#141866; `"k8s:"` by default): the declaration-free shortcut also requires that the file has no
/// `+<tag_prefix>` text (and no `+k8s:` text, which vgc reports under another prefix). The empty prefix makes any
/// `+` a reason to parse.
#[must_use]
pub fn parse_for_tag_prefix(src: &str, tag_prefix: &str) -> GoFile {
    if let Some(package) = declaration_free(src, tag_prefix) {
        return GoFile {
            package,
            ..GoFile::default()
        };
    }
    lower::lower(src)
}

/// [`parse`] with tree-sitter reading the whole text, comment bodies included: the reference the parse of the
/// shortened text (module `skeleton`, issue 12) must equal, `GoFile` for `GoFile`. For tests and fuzzing (the
/// `go_frontend` fuzz target compares both on every input); about a third slower than [`parse`] on API types.
#[must_use]
pub fn parse_whole_text(src: &str) -> GoFile {
    if let Some(package) = declaration_free(src, "k8s:") {
        return GoFile {
            package,
            ..GoFile::default()
        };
    }
    lower::lower_with(src, false)
}

/// Whether [`parse_for_tag_prefix`] hands `src` to tree-sitter (the file may declare a type or constant, or
/// carries tag text); `false` for a file whose summary is only its package name.
#[must_use]
pub fn may_declare(src: &str, tag_prefix: &str) -> bool {
    declaration_free(src, tag_prefix).is_none()
}

/// The package name of a file with no `type`/`const` declaration, no `+k8s:` or `+<tag_prefix>` comment and no
/// `+groupName=` (the API group the GVK dispatch reads); `None` otherwise. One pass of SIMD substring search
/// (`memchr::memmem`) per keyword over the bytes: a keyword counts where only whitespace separates it from the
/// start of the file, a line or a `;`, and it is followed by a space, a tab, `(`, `;`, a line end (`\r` too)
/// or the end of the file.
fn declaration_free(src: &str, tag_prefix: &str) -> Option<String> {
    use memchr::memmem;
    let b = src.as_bytes();
    let tagged = |needle: &str| memmem::find(b, needle.as_bytes()).is_some();
    if tagged(&format!("+{tag_prefix}")) || tagged("+k8s:") || tagged("+groupName=") {
        return None;
    }
    // Only whitespace (as `str::trim_start` counts it) between the start of the file, a line or a `;` and byte
    // `i` (the start of an ASCII keyword, so a character boundary).
    let at_statement_start = |i: usize| {
        let from = memchr::memrchr2(b'\n', b';', &b[..i]).map_or(0, |j| j + 1);
        src[from..i].chars().all(char::is_whitespace)
    };
    for kw in ["type", "const"] {
        let declares = memmem::find_iter(b, kw.as_bytes()).any(|i| {
            matches!(
                b.get(i + kw.len()),
                None | Some(b' ' | b'\t' | b'(' | b';' | b'\n' | b'\r')
            ) && at_statement_start(i)
        });
        if declares {
            return None;
        }
    }
    let at = memmem::find_iter(b, b"package ").find(|&i| at_statement_start(i))?;
    let name = src[at + "package ".len()..]
        .split(|c: char| c.is_whitespace() || c == '/' || c == ';')
        .next()
        .unwrap_or("");
    (!name.is_empty()).then(|| name.to_string())
}

/// The import paths of a Go file's import declarations, read textually (no tree-sitter): the `import` lines and
/// blocks after the package clause, up to the first other declaration; comments skipped, interpreted (`"…"`,
/// simple escapes only) and raw string paths. For a guess at what to read next before the file is parsed (a
/// file's imports as tree-sitter reads them are [`GoFile::imports`]); malformed input gives a partial list.
#[must_use]
pub fn import_paths(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut i = 0;
    // Skips whitespace and comments; returns the index of the next token.
    let skip = |mut i: usize| {
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if b[i..].starts_with(b"//") {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |j| i + j + 1);
            } else if b[i..].starts_with(b"/*") {
                i = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |j| i + 2 + j + 2);
            } else {
                return i;
            }
        }
    };
    let word = |i: usize, w: &[u8]| {
        b[i..].starts_with(w)
            && b.get(i + w.len())
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
    };
    i = skip(i);
    if !word(i, b"package") {
        return Vec::new();
    }
    i = memchr::memchr2(b'\n', b';', &b[i..]).map_or(b.len(), |j| i + j + 1);
    let mut out = Vec::new();
    // One import spec's path: an optional name, then a string literal; the index after it.
    let spec = |i: usize, out: &mut Vec<String>| -> Option<usize> {
        let mut i = skip(i);
        if b.get(i)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'.')
        {
            while b
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
            {
                i += 1;
            }
            i = skip(i);
        }
        let quote = *b.get(i)?;
        if quote != b'"' && quote != b'`' {
            return None;
        }
        let end = i + 1 + memchr::memchr(quote, &b[i + 1..])?;
        out.push(src[i + 1..end].to_string());
        Some(end + 1)
    };
    loop {
        i = skip(i);
        if b.get(i) == Some(&b';') {
            i += 1;
            continue;
        }
        if !word(i, b"import") {
            return out;
        }
        i = skip(i + "import".len());
        if b.get(i) == Some(&b'(') {
            i += 1;
            loop {
                i = skip(i);
                match b.get(i) {
                    None => return out,
                    Some(b')') => {
                        i += 1;
                        break;
                    }
                    Some(b';') => i += 1,
                    Some(_) => match spec(i, &mut out) {
                        Some(next) => i = next,
                        None => return out,
                    },
                }
            }
        } else {
            match spec(i, &mut out) {
                Some(next) => i = next,
                None => return out,
            }
        }
    }
}

#[cfg(test)]
mod tests;
