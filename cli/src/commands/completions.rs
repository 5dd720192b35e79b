//! `vgc completions`: a shell completion script on stdout.

use crate::args::CompletionsArgs;
use std::process::ExitCode;

/// Prints the completion script of `vgc` for the shell `a.shell`.
pub(crate) fn run(a: &CompletionsArgs) -> ExitCode {
    use clap::CommandFactory as _;
    clap_complete::generate(
        a.shell,
        &mut crate::args::Cli::command(),
        "vgc",
        &mut std::io::stdout().lock(),
    );
    ExitCode::SUCCESS
}
