//! The [`SourceFile`] salsa input: one Go file's path and text. A module of its own, below both the queries
//! (`crate::db`) and the diagnostics that point into files (`crate::diagnostic`), so neither depends on the other
//! through it.

pub use salsa_source_file::SourceFile;

/// `SourceFile` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_source_file {
    use std::sync::Arc;

    /// A Go source file: its path (as registered by the driver) and its text.
    #[salsa::input(debug)]
    pub struct SourceFile {
        /// Path as the driver registered it (used in diagnostics).
        #[returns(ref)]
        pub path: String,
        /// File text: the buffer the file was read into, shared (not copied) by every query and cache snapshot.
        #[returns(ref)]
        pub text: Arc<String>,
    }
}
