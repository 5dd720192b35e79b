//! `vgc lsp`: the language server on stdin/stdout ([`vgc::lsp::run`]).

use super::common::Globals;
use crate::args::LspArgs;
use std::process::ExitCode;

/// `vgc lsp`: serves until the client sends `exit` (0 after `shutdown`) or closes stdin (1).
pub(crate) fn run(a: &LspArgs, globals: &Globals) -> ExitCode {
    ExitCode::from(vgc::lsp::run(vgc::lsp::LspOptions {
        debounce: std::time::Duration::from_millis(a.debounce_ms),
        upstream: globals.upstream.clone(),
        tag_prefix: globals.tag_prefix.clone(),
        extension_files: globals.extensions.clone(),
        timings: std::env::var_os("VGC_LSP_TIMINGS").is_some_and(|v| v == "1"),
    }))
}
