//! The `vgc` command line: parses the arguments ([`args`]) and runs the subcommand ([`commands`], one module
//! each). The pipeline is `vgc_driver`'s; `vgc validate`, `vgc watch`'s loop and the report formats are the `vgc`
//! library's.

mod args;
mod commands;

use args::{Cli, Command};
use clap::Parser as _;
use commands::common::Globals;
use std::process::ExitCode;
use std::time::Instant;

/// mimalloc instead of the system allocator: `vgc validate` builds and frees a JSON value, a span table and a
/// decoded value per document, and `vgc build` an IR per file; glibc's malloc and free were a fifth of the
/// profile of validating k8s.io/kubernetes' test manifests (`docs/performance.md`). Built with its `no_thp`
/// feature: with transparent huge pages (`madvise` mode, as on most distributions) every fresh 2 MiB page was
/// zeroed whole on its first touch, and the kernel's page zeroing was a sixth to a third of both profiles.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = Instant::now();
    let globals = Globals::of(&cli);
    match cli.cmd {
        Command::Build(a) => commands::build::run(a, &globals, start),
        Command::Check(a) => commands::check::run(a, &globals, start),
        Command::Watch(a) => commands::watch::run(a, &globals),
        Command::Lint(a) => commands::lint::run(a, &globals),
        Command::Lsp(a) => commands::lsp::run(&a, &globals),
        Command::Validate(a) => commands::validate::run(a, &globals),
        Command::Graph(a) => commands::graph::run(a, &globals),
        Command::Docs(a) => commands::docs::run(a, &globals),
        Command::Explain(a) => commands::explain::run(
            &a.what,
            globals.tag_prefix.as_deref(),
            globals.upstream.as_deref(),
        ),
        Command::Completions(a) => commands::completions::run(&a),
        Command::ValidationGen(a) => commands::validation_gen::run(a, &globals, start),
        Command::Openapi(a) => commands::openapi::run(a, &globals, start),
    }
}
