//! `vgc watch`: build, then rebuild incrementally on every change ([`vgc::watch::run`], one live session).

use super::common::Globals;
use crate::args::WatchArgs;
use std::process::ExitCode;

/// `vgc watch`: runs until interrupted (or `--max-rebuilds`); exit 2 when the path or the output cannot be used.
pub(crate) fn run(a: WatchArgs, globals: &Globals) -> ExitCode {
    let (style, timings) = (
        super::build::Style::of(a.build.short, &a.build.color),
        a.build.timings,
    );
    let mut request = match super::build::request(a.build) {
        Ok(req) => req,
        Err(code) => return code,
    };
    if let Err(code) = globals.apply(&mut request, None) {
        return code;
    }
    request.extension_files = globals.extensions.clone();
    let opts = vgc::watch::WatchOptions {
        request,
        short: style.short,
        color: style.color,
        timings,
        debounce: std::time::Duration::from_millis(a.debounce_ms),
        max_rebuilds: a.max_rebuilds,
        stop: None,
    };
    ExitCode::from(vgc::watch::run(&opts, &mut std::io::stderr().lock()))
}
