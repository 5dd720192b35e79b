//! `vgc lint`: every `vgc check` diagnostic plus upstream's lint rules and vgc's, with `vgc.toml` and `-W`/`-D`/`-A`
//! severities, fixes, baselines, and the human, GitHub, JSON and SARIF reports.

use super::common::{Globals, profile_suffix, target};
use crate::args::{Format, LintArgs};
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;
use vgc_driver::BuildRequest;

/// `vgc lint`: findings on stdout (human, GitHub, JSON or SARIF), the summary line on stderr; exit 1 on errors
/// (or warnings with `--deny warnings`), 2 on usage or IO errors.
pub(crate) fn run(a: LintArgs, globals: &Globals) -> ExitCode {
    let start = Instant::now();
    let path = match target(a.path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut req = BuildRequest::check(path.clone(), a.roots.clone());
    if let Err(code) = globals.apply(&mut req, a.config.as_deref()) {
        return code;
    }
    let mut stderr = std::io::stderr().lock();
    let mut cfg = match vgc_driver::config::settings_for(
        std::path::Path::new(&path),
        a.config.as_deref().map(std::path::Path::new),
        a.exceptions.as_deref().map(std::path::Path::new),
    ) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return ExitCode::from(2);
        }
    };
    cfg.lint.upstream_only = a.rules == "upstream";
    // Command-line overrides win over vgc.toml, in the order -W, -D, -A.
    for (codes, sev) in [
        (&a.warn, Some(vgc_ir::Severity::Warning)),
        (&a.error, Some(vgc_ir::Severity::Error)),
        (&a.allow, None),
    ] {
        for c in codes.iter().filter_map(|c| vgc_ir::Code::parse(c)) {
            cfg.lint.severities.insert(c, sev);
        }
    }
    let baseline = match a.baseline.as_deref().map(std::path::Path::new) {
        None => None,
        Some(p) => match vgc::baseline::Baseline::load(p) {
            Ok(b) => Some(b),
            Err(e) => {
                let _ = writeln!(stderr, "error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    req.extension_files = globals.extensions.clone();
    let mut outcome = vgc_driver::lint(&req, &cfg.lint);
    if a.fix {
        let fixed = vgc::render::apply_fixes(&outcome.diagnostics, &outcome.sources);
        for (file, text) in &fixed {
            if let Err(e) = vgc_driver::sys::rewrite_source(std::path::Path::new(file), text) {
                let _ = writeln!(stderr, "error: {file}: {e}");
                return ExitCode::from(2);
            }
        }
        let _ = writeln!(stderr, "vgc: fixed {} files", fixed.len());
        outcome = vgc_driver::lint(&req, &cfg.lint);
    }
    let base = vgc_driver::target::dir_of(&path).to_string();
    if let Some(file) = &a.write_baseline {
        let b = vgc::baseline::Baseline::of(&outcome.diagnostics, &outcome.sources, &base);
        if let Err(e) = b.save(std::path::Path::new(file)) {
            let _ = writeln!(stderr, "error: {file}: {e}");
            return ExitCode::from(2);
        }
        let _ = writeln!(
            stderr,
            "vgc lint: wrote {} findings to the baseline {file}",
            b.findings.len()
        );
    }
    let mut absorbed = 0;
    // Per group, the drifting paths the baseline absorbed: the drift table counts only the reported ones.
    let mut drift_baselined = None;
    if let Some(b) = &baseline {
        let diags = std::mem::take(&mut outcome.diagnostics);
        let before = vgc::render::drift_by_group(&diags);
        (outcome.diagnostics, absorbed) = b.new_findings(diags, &outcome.sources, &base);
        let after = vgc::render::drift_by_group(&outcome.diagnostics);
        drift_baselined = Some(
            before
                .into_iter()
                .map(|(g, n)| {
                    let left = after.get(&g).copied().unwrap_or(0);
                    (g, n - left.min(n))
                })
                .collect::<std::collections::BTreeMap<_, _>>(),
        );
    }
    let mut stdout = std::io::stdout().lock();
    match a.format {
        Format::Human => {
            use std::io::IsTerminal as _;
            let color = vgc::render::use_color(&a.color, std::io::stdout().is_terminal());
            let text =
                vgc::render::text_styled(&outcome.diagnostics, &outcome.sources, a.short, color);
            let _ = stdout.write_all(text.as_bytes());
            // `--short` is one line per finding: no table.
            if !a.short {
                let table = vgc::render::drift_table_with(&outcome.drift, drift_baselined.as_ref());
                let _ = stdout.write_all(table.as_bytes());
            }
        }
        Format::Github => {
            // Relative to the repository root (else the module root), as SARIF's URIs are: GitHub resolves
            // annotation paths from the repository root whatever directory the job lints from.
            let root = vgc::render::source_root(&base);
            let _ = stdout.write_all(
                vgc::render::github(&outcome.diagnostics, &outcome.sources, &root).as_bytes(),
            );
        }
        Format::Json | Format::Sarif => {
            let v = if matches!(a.format, Format::Json) {
                vgc::render::json(
                    &outcome.diagnostics,
                    &outcome.sources,
                    &base,
                    &outcome.drift,
                )
            } else {
                let docs = a.docs_url.or(cfg.docs_url);
                serde_json::to_value(vgc::render::sarif(
                    &outcome.diagnostics,
                    &outcome.sources,
                    &base,
                    docs.as_ref(),
                ))
                .unwrap_or_default()
            };
            let text = serde_json::to_string_pretty(&v).unwrap_or_default();
            let _ = writeln!(stdout, "{text}");
        }
    }
    let _ = writeln!(
        stderr,
        "vgc lint: {}, {}, {}{} in {:.2}s{}",
        vgc::render::plural(outcome.stats.packages, "package"),
        vgc::render::plural(outcome.warnings(), "warning"),
        vgc::render::plural(outcome.errors(), "error"),
        if baseline.is_some() {
            format!(" ({absorbed} more in the baseline)")
        } else {
            String::new()
        },
        start.elapsed().as_secs_f64(),
        profile_suffix(&outcome)
    );
    for n in &outcome.notes {
        let _ = writeln!(stderr, "note: {n}");
    }
    let code = vgc_driver::exit_code(&outcome);
    if code != 0 {
        return ExitCode::from(code);
    }
    if (a.deny.is_some() || cfg.deny_warnings) && outcome.warnings() > 0 {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
