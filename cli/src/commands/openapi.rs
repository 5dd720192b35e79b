//! `vgc openapi`: the rules of an API tree as OpenAPI v3 documents (or added to an existing spec directory with
//! `--merge`), through `vgc_driver::openapi`; prints the analysis' diagnostics, every rule not expressed as a
//! warning, and a summary (docs/openapi.md).

use super::build::Style;
use super::common::{Globals, profile_suffix, target};
use crate::args::OpenApiArgs;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;
use vgc::render::plural;
use vgc_driver::BuildRequest;
use vgc_driver::openapi::Bounds;
use vgc_driver::openapi::{OpenApiOutcome, OpenApiRequest, Options, openapi, parse_stability};

/// How many not-expressed rules are printed without `--verbose`.
const SHOWN: usize = 10;

/// `vgc openapi`; `start` is when the command line was parsed.
pub(crate) fn run(a: OpenApiArgs, globals: &Globals, start: Instant) -> ExitCode {
    let path = match target(a.path.clone()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut build = BuildRequest::check(path, a.roots.clone());
    if let Err(code) = globals.apply(&mut build, None) {
        return code;
    }
    build.extension_files = globals.extensions.clone();
    let stability = match parse_stability(&a.stability) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::from(2);
        }
    };
    let cel_format_library = match vgc_driver::openapi::parse_cel_env(&a.cel_env) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::from(2);
        }
    };
    let absolute = |p: &str| std::path::absolute(p).unwrap_or_else(|_| p.into());
    let out_dir = absolute(&a.out);
    // Before anything reads or writes under it (the IR cache is `--out`'s `.vgc/ir`).
    if out_dir.exists() && !out_dir.is_dir() {
        let _ = writeln!(
            std::io::stderr(),
            "error: --out {}: not a directory (--out names the directory the output is written to)",
            out_dir.display()
        );
        return ExitCode::from(2);
    }
    if let Some(cache) = vgc::gomodule::module_cache_holding(&out_dir) {
        let _ = writeln!(
            std::io::stderr(),
            "error: --out {}: inside the Go module cache ({}), which Go keeps read-only and verifies; pass --out DIR outside it",
            out_dir.display(),
            cache.display()
        );
        return ExitCode::from(2);
    }
    let req = OpenApiRequest {
        build,
        out: out_dir.clone(),
        merge: a.merge.as_deref().map(absolute),
        options: Options {
            options: a.options.iter().cloned().collect(),
            stability,
            cel_format_library,
            // With `--crd` the lists are bounded in the CRD itself (every list holding a rule, controller-gen's
            // included: `vgc_driver::openapi_crd`); the strings through vgc's schemas, merged in.
            bounds: Bounds {
                lists: if a.crd.is_empty() {
                    a.bound_lists
                } else {
                    None
                },
                strings: a.bound_strings,
            },
            over_budget: match vgc_driver::openapi::parse_over_budget(&a.over_budget) {
                Ok(o) => o,
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "error: {e}");
                    return ExitCode::from(2);
                }
            },
        },
        force: a.force,
        no_cache: a.no_cache,
        cache_dir: a.cache_dir.as_deref().map(absolute),
    };
    let style = Style::of(false, "auto");
    if !a.crd.is_empty() {
        let crd = super::openapi_crd::Crd {
            paths: &a.crd,
            bound_lists: a.bound_lists,
            color: style.color,
            verbose: a.verbose,
        };
        return super::openapi_crd::run(&req, &crd, |o| {
            report(o, &req.options.options, a.verbose, style.color)
        });
    }
    if a.format == "jsonschema" {
        return super::openapi_jsonschema::run(&req, a.verbose, style.color, &out_dir, start);
    }
    let outcome = openapi(&req);
    if let Some(code) = report(&outcome, &req.options.options, a.verbose, style.color) {
        return code;
    }
    let mut stderr = std::io::stderr().lock();
    let Some(o) = &outcome.output else {
        return ExitCode::from(1);
    };
    if let Some(m) = &outcome.merge {
        let _ = writeln!(
            stderr,
            "vgc: merged into {}: {} of vgc's schemas found, {} rule keys added, {} kept as the spec had them, {} places the spec has no schema for, {} schemas with rules the spec lacks",
            plural(m.files, "spec file"),
            m.matched.len(),
            m.added,
            m.kept.len(),
            m.missing.len(),
            m.unmatched.len()
        );
        if m.matched.is_empty() {
            let _ = writeln!(
                stderr,
                "warning: --merge: none of vgc's schemas is in the spec ({}): no rule was added; is it the spec of the API tree's group versions?",
                plural(m.files, "file")
            );
        }
        if a.verbose {
            for k in &m.kept {
                let _ = writeln!(stderr, "note: merge kept {k}");
            }
            for k in m.missing.iter().chain(&m.unmatched) {
                let _ = writeln!(stderr, "note: merge found no place for the rules of {k}");
            }
        }
    }
    if let Some(e) = &outcome.io_error {
        let _ = writeln!(stderr, "error: {e}");
        return ExitCode::from(2);
    }
    let _ = writeln!(
        stderr,
        "vgc: {} rules expressed, {} not expressed, {} left out by --stability, {} by --option; wrote {} to {} in {:.2}s{}",
        o.expressed,
        o.unexpressed.len() + o.over_budget.len(),
        o.omitted_by_stability,
        o.omitted_by_option,
        plural(outcome.files.len(), "file"),
        out_dir.display(),
        start.elapsed().as_secs_f64(),
        profile_suffix(&outcome.build)
    );
    ExitCode::SUCCESS
}

/// Prints the analysis' diagnostics and notes, each rule not expressed and each `VGC0130` cost warning (the first
/// ten of each unless `verbose`);
/// `Some(exit code)` when the analysis had errors (nothing was written).
/// `options`: the `--option` settings given, each one no rule of the tree reads a warning
/// ([`vgc::validate::Api::unread_options`]: it changes nothing, most likely a misspelt gate; the closest read named).
pub(super) fn report(
    outcome: &OpenApiOutcome,
    options: &std::collections::BTreeMap<String, bool>,
    verbose: bool,
    color: bool,
) -> Option<ExitCode> {
    let mut stderr = std::io::stderr().lock();
    let text = vgc::render::text_styled(
        &outcome.build.diagnostics,
        &outcome.build.sources,
        true,
        color,
    );
    let _ = stderr.write_all(text.as_bytes());
    for n in outcome.build.notes.iter().chain(&outcome.notes) {
        let _ = writeln!(stderr, "note: {n}");
    }
    let code = vgc_driver::exit_code(&outcome.build);
    if code != 0 || outcome.build.stats.packages == 0 {
        let _ = writeln!(
            stderr,
            "vgc: no OpenAPI written: the API tree has errors ({})",
            plural(outcome.build.errors(), "error")
        );
        return Some(ExitCode::from(code.max(1)));
    }
    let Some(o) = &outcome.output else {
        return Some(ExitCode::from(1));
    };
    if !options.is_empty() {
        let api = vgc::validate::Api {
            plan: outcome.build.plan.clone(),
            kinds: std::collections::BTreeMap::new(),
        };
        for w in api.unread_options(options.keys()) {
            let _ = writeln!(stderr, "warning: {w}");
        }
    }
    let shown = if verbose { usize::MAX } else { SHOWN };
    warn_unexpressed(
        &mut stderr,
        &o.unexpressed,
        shown,
        ["not expressed in OpenAPI", "not expressed", "in its schema"],
    );
    let cost = &outcome.cost[..outcome.cost.len().min(shown)];
    let text = vgc::render::text_styled(cost, &outcome.build.sources, false, color);
    let _ = stderr.write_all(text.as_bytes());
    if outcome.cost.len() > shown {
        let _ = writeln!(
            stderr,
            "warning: … and {} more over the API server's CEL cost budget (--verbose lists them)",
            outcome.cost.len() - shown
        );
    }
    report_bounds(&mut stderr, &o.bounds, verbose);
    report_taken_out(&mut stderr, &o.over_budget);
    None
}

/// Prints how many rules `--over-budget unexpressed` took out (each is also a `VGC0130` warning naming it).
fn report_taken_out(stderr: &mut impl Write, taken: &[vgc_driver::openapi::TakenOut]) {
    use vgc_driver::openapi::Why;
    if taken.is_empty() {
        return;
    }
    let n = |w: Why| taken.iter().filter(|t| t.why == w).count();
    let _ = writeln!(
        stderr,
        "note: {} taken out over the API server's CEL cost budget (--over-budget unexpressed): {} over the per-rule budget, {} for a messageExpression over it, {} for schemas over the per-CRD total; each listed under `x-vgc-unexpressed` at its place (with --crd only in its warning: a CRD has no `x-vgc-*` key), not enforced by the API server",
        plural(taken.len(), "CEL rule"),
        n(Why::Rule),
        n(Why::Message),
        n(Why::Total)
    );
}

/// Prints how many bounds `--bound-lists`/`--bound-strings` set in vgc's schemas and what they change (with
/// `verbose`, each one).
fn report_bounds(stderr: &mut impl Write, bounds: &[vgc_driver::openapi::Bound], verbose: bool) {
    if bounds.is_empty() {
        return;
    }
    let strings = bounds.iter().filter(|b| b.keyword == "maxLength").count();
    let _ = writeln!(
        stderr,
        "note: bounds set for the API server's CEL cost estimate (each marked `x-vgc-bound`): {} by --bound-lists, {} by --bound-strings; a longer list, map or string is refused there, which the Go types accept",
        plural(bounds.len() - strings, "list or map"),
        plural(strings, "string")
    );
    if verbose {
        for b in bounds {
            let flag = if b.keyword == "maxLength" {
                "--bound-strings"
            } else {
                "--bound-lists"
            };
            let _ = writeln!(
                stderr,
                "note: bounded {}{}: {} {} ({flag})",
                b.schema, b.path, b.keyword, b.value
            );
        }
    }
}

/// Prints the first `shown` of `list` as warnings, then how many more there are: `words` are how a rule is said
/// (`not expressed in OpenAPI`), how the count is said (`not expressed`) and where `x-vgc-unexpressed` lists each.
pub(super) fn warn_unexpressed(
    stderr: &mut impl Write,
    list: &[vgc_driver::openapi::Unexpressed],
    shown: usize,
    [said, more, place]: [&str; 3],
) {
    for u in list.iter().take(shown) {
        let _ = writeln!(
            stderr,
            "warning: {said}: {}{}: {}: {}",
            u.schema, u.path, u.rule, u.reason
        );
    }
    if list.len() > shown {
        let _ = writeln!(
            stderr,
            "warning: … and {} more {more} (--verbose lists them; each is under `x-vgc-unexpressed` {place})",
            list.len() - shown
        );
    }
}
