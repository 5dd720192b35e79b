//! `vgc check`: check the tags only; write nothing. Reported as `vgc build` reports ([`super::build::execute`]).

use super::common::{Globals, structs_of, target};
use crate::args::CheckArgs;
use std::process::ExitCode;
use std::time::Instant;
use vgc_driver::BuildRequest;

/// `vgc check`; `start` is when the command line was parsed (for the summary's time).
pub(crate) fn run(a: CheckArgs, globals: &Globals, start: Instant) -> ExitCode {
    // Both arguments are checked (each prints its own error) before either stops the command.
    let go = a.target.as_deref() == Some("go");
    let named = a.target.is_some();
    let (target_name, version) = if go {
        (None, a.k8s_openapi_version)
    } else {
        (a.target, a.k8s_openapi_version)
    };
    match (target(a.path), structs_of(target_name, version)) {
        (Ok(path), Ok(structs)) => {
            let mut req = BuildRequest::check(path, a.roots);
            // `--target go` (or `vgc.toml` `[build] target = "go"` without `--target`): what the Go backend cannot
            // print is reported (VGC0129); the header and file name do not matter to that.
            let config_go = || structs.is_none() && super::common::go_config(&req.path).is_some();
            if go || (!named && config_go()) {
                req.go = Some(vgc_driver::GoTarget::default());
            } else {
                req.target = structs;
            }
            let style = super::build::Style::of(a.short, &a.color);
            super::build::execute(req, style, false, globals, start, true)
        }
        (Err(code), _) | (_, Err(code)) => code,
    }
}
