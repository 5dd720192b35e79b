//! `vgc check`: check the tags only; write nothing. Reported as `vgc build` reports ([`super::build::execute`]).

use super::common::{Globals, structs_of, target};
use crate::args::CheckArgs;
use std::process::ExitCode;
use std::time::Instant;
use vgc_driver::BuildRequest;

/// `vgc check`; `start` is when the command line was parsed (for the summary's time).
pub(crate) fn run(a: CheckArgs, globals: &Globals, start: Instant) -> ExitCode {
    // Both arguments are checked (each prints its own error) before either stops the command.
    match (target(a.path), structs_of(a.target, a.k8s_openapi_version)) {
        (Ok(path), Ok(structs)) => {
            let mut req = BuildRequest::check(path, a.roots);
            req.target = structs;
            let style = super::build::Style::of(a.short, &a.color);
            super::build::execute(req, style, false, globals, start)
        }
        (Err(code), _) | (_, Err(code)) => code,
    }
}
