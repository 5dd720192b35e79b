//! vgc-codegen: emits the generated crate from a [`CratePlan`]: serde structs for every reachable type and
//! validation functions plus `Validate` impls, built with quote, checked by syn and formatted by prettyplease.
//!
//! Invariant: no semantic decisions here; everything comes from the plan.

mod emit;

use vgc_lowering::CratePlan;

/// One generated file: path relative to the crate root and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path, e.g. `src/core/v1.rs`.
    pub path: String,
    /// File contents.
    pub contents: String,
}

/// How the generated crate depends on `vgc-runtime`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeDep {
    /// A path dependency.
    Path(String),
    /// A crates.io version requirement.
    Version(String),
}

/// Options for crate generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The generated package's name.
    pub crate_name: String,
    /// The runtime dependency.
    pub runtime: RuntimeDep,
}

/// Errors from codegen: generated code that does not parse (a vgc bug, reported with the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodegenError {
    /// Module whose code failed.
    pub module: String,
    /// The syn error.
    pub message: String,
}

/// A starting `src/custom.rs` for the `+k8s:customValidation` functions: `pub struct Custom;` and an impl of
/// every generated module's `Custom` trait whose functions report no errors. `None` when the crate needs none.
/// Written by `vgc build --custom-stub` only when the file does not exist; replace the bodies with real checks.
#[must_use]
pub fn custom_stub(plan: &CratePlan, opts: &Options) -> Option<GeneratedFile> {
    emit::custom_stub(plan, opts)
}

/// Generates the crate's files: `Cargo.toml`, `src/lib.rs`, one module file per Go package and intermediate
/// `mod.rs`-style parents. Output is deterministic.
///
/// # Errors
/// A [`CodegenError`] if emitted code fails to parse (a bug in vgc, never in the input).
pub fn generate(plan: &CratePlan, opts: &Options) -> Result<Vec<GeneratedFile>, CodegenError> {
    emit::generate(plan, opts)
}
