//! `vgc openapi --format jsonschema`: the rules of an API tree as JSON Schema for kubeconform, through
//! `vgc_driver::openapi_jsonschema`; prints what `vgc openapi` prints (diagnostics, rules OpenAPI cannot say), then
//! each rule JSON Schema cannot state as a warning naming it, and a summary (docs/openapi.md "JSON Schema").

use super::common::profile_suffix;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use vgc::render::plural;
use vgc_driver::openapi::OpenApiRequest;
use vgc_driver::openapi_jsonschema::jsonschema;

/// How many rules JSON Schema cannot state are printed without `--verbose`.
const SHOWN: usize = 10;

/// Runs `vgc openapi --format jsonschema` for `req`; `start` is when the command line was parsed.
pub(crate) fn run(
    req: &OpenApiRequest,
    verbose: bool,
    color: bool,
    out_dir: &Path,
    start: Instant,
) -> ExitCode {
    let outcome = jsonschema(req);
    if let Some(code) =
        super::openapi::report(&outcome.openapi, &req.options.options, verbose, color)
    {
        return code;
    }
    let mut stderr = std::io::stderr().lock();
    if let Some(e) = &outcome.openapi.io_error {
        let _ = writeln!(stderr, "error: {e}");
        return ExitCode::from(2);
    }
    let Some(js) = &outcome.schemas else {
        return ExitCode::from(1);
    };
    let shown = if verbose { usize::MAX } else { SHOWN };
    super::openapi::warn_unexpressed(
        &mut stderr,
        &js.unexpressed,
        shown,
        [
            "not stated in JSON Schema",
            "not stated in JSON Schema",
            "where it applies",
        ],
    );
    let cel = js
        .unexpressed
        .iter()
        .filter(|u| u.reason.starts_with("a CEL rule"))
        .count();
    let not_openapi = outcome
        .openapi
        .output
        .as_ref()
        .map_or(0, |o| o.unexpressed.len());
    let _ = writeln!(
        stderr,
        "vgc: {} rule keywords stated in JSON Schema, {} rules not stated ({cel} CEL rules, {} others), {} not expressed in OpenAPI either; wrote {} for {} to {} in {:.2}s{}",
        js.expressed,
        js.unexpressed.len(),
        js.unexpressed.len() - cel,
        not_openapi,
        plural(outcome.openapi.files.len(), "file"),
        plural(outcome.openapi.files.len() / 2, "kind"),
        out_dir.display(),
        start.elapsed().as_secs_f64(),
        profile_suffix(&outcome.openapi.build)
    );
    ExitCode::SUCCESS
}
