//! vgc-parser: the salsa-free syntax layer of vgc.
//!
//! - [`go`]: a never-failing Go syntax summary built from tree-sitter-go (package clause, imports, type
//!   declarations, struct fields with struct tags, const specs, comment groups with gengo-exact association).
//! - [`tags`]: the `+k8s:` comment-tag language (logos lexer + lalrpop grammar), upstream gengo `codetags`.
//! - [`structtag`]: `reflect.StructTag` lookup and `json:"name,omitempty"` parsing.
//!
//! Invariant: nothing here does IO or knows what a tag means.

pub mod go;
pub mod structtag;
pub mod tags;
