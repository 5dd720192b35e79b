//! A never-failing Go syntax summary built from tree-sitter-go: what vgc needs of a Go file, as owned data.
//!
//! [`parse`] never fails. Regions tree-sitter cannot parse are reported in [`GoFile::problems`] and every other
//! declaration is still returned. Comment association mirrors gengo (`k8s.io/gengo/v2/parser`): comments are
//! grouped as `go/parser` groups them, a declaration's *doc lines* are the group ending on the line just before
//! it (`CommentLines`), and the *second-closest* lines are the group ending two lines above that group's start,
//! or two lines above the declaration when there is no doc group (`SecondClosestCommentLines`).

mod comments;
mod depth;
mod lower;

pub use lower::MAX_NESTING;

pub use comments::{CommentGroup, CommentLine, group_comments};
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
    /// An error rather than a warning: vgc cannot honour the file (a declaration beyond
    /// [`MAX_NESTING`] was skipped). Plain syntax errors are warnings (deviation D5).
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
    if !src.contains(&format!("+{tag_prefix}"))
        && let Some(package) = declaration_free(src)
    {
        return GoFile {
            package,
            ..GoFile::default()
        };
    }
    lower::lower(src)
}

/// The package name of a file with no `type`/`const` declaration, no `+k8s:` comment and no `+groupName=`
/// (the API group the GVK dispatch reads); `None` otherwise (the caller also checks its own tag prefix).
fn declaration_free(src: &str) -> Option<String> {
    if src.contains("+k8s:") || src.contains("+groupName=") {
        return None;
    }
    let keyword = |s: &str, kw: &str| {
        s.strip_prefix(kw)
            .is_some_and(|r| r.starts_with([' ', '\t', '(']) || r.is_empty())
    };
    let mut package = None;
    for line in src.lines() {
        for stmt in line.split(';') {
            let s = stmt.trim_start();
            if keyword(s, "type") || keyword(s, "const") {
                return None;
            }
            if package.is_none()
                && let Some(name) = s.strip_prefix("package ")
            {
                package = Some(
                    name.split(|c: char| c.is_whitespace() || c == '/')
                        .next()
                        .unwrap_or("")
                        .to_string(),
                );
            }
        }
    }
    package.filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests;
