//! `vgc validate`: manifests validated against an API tree's declarative rules, evaluated from the plan
//! ([`vgc::validate`]); the API tree is `--api` (a directory or `MODULE@VERSION`, [`vgc::gomodule`]).

use super::common::{Globals, print_timings, target};
use crate::args::ValidateArgs;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// `vgc validate`: the API tree is checked and lowered (its diagnostics, if it has errors, are printed and exit
/// 2), then the manifests are validated; the report goes to stdout.
pub(crate) fn run(a: ValidateArgs, globals: &Globals) -> ExitCode {
    use std::io::IsTerminal as _;
    let fail = |msg: String| {
        let _ = writeln!(std::io::stderr().lock(), "error: {msg}");
        ExitCode::from(2)
    };
    // Standard input can be read once: as the manifests or as the old objects, not both.
    let stdin_uses = a.inputs.iter().chain(&a.old).filter(|p| *p == "-").count();
    if stdin_uses > 1 {
        return fail(format!(
            "`-` (standard input) is given {stdin_uses} times, among the inputs and --old; it can be read once"
        ));
    }
    // Each file once (by its canonical path), where it is first named; the others skipped with a note.
    let (inputs, mut notes) = match vgc::validate::read_inputs_noting(&a.inputs) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let old = match vgc::validate::read_inputs_noting(&a.old) {
        Ok((old, n)) => {
            notes.extend(n.into_iter().map(|n| format!("--old {n}")));
            old
        }
        Err(e) => return fail(format!("--old {e}")),
    };
    {
        let mut err = std::io::stderr().lock();
        for n in &notes {
            let _ = writeln!(err, "note: {n}");
        }
    }
    // The API tree, and the k8s.io/api version it is when it is one (for the release defaults).
    let (api, api_version) = match a.api {
        Some(arg) => match vgc::gomodule::parse_module_version(&arg) {
            // A query (`latest`, `v0.37`) is resolved to its version first: the release defaults are that version's.
            Some((module, version)) => {
                match vgc::gomodule::resolve_version_or_query(module, version) {
                    Ok(r) => {
                        let mut err = std::io::stderr().lock();
                        if r.version != version {
                            let _ = writeln!(
                                err,
                                "vgc validate: resolved {module}@{version} to {}",
                                r.version
                            );
                        }
                        if r.downloaded {
                            let _ = writeln!(
                                err,
                                "vgc validate: downloaded {module}@{} into {}",
                                r.version,
                                r.dir.display()
                            );
                        }
                        let v =
                            (module == vgc::gomodule::DEFAULT_MODULE).then(|| r.version.clone());
                        (r.dir.to_string_lossy().into_owned(), v)
                    }
                    Err(e) => return fail(e.to_string()),
                }
            }
            None => {
                let v = vgc::gomodule::api_version_of_dir(std::path::Path::new(&arg));
                (arg, v)
            }
        },
        None => match vgc::gomodule::default_api() {
            Ok((version, dir)) => {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "vgc validate: using {}@{version} from the Go module cache ({}); choose the API with --api",
                    vgc::gomodule::DEFAULT_MODULE,
                    dir.display()
                );
                (dir.to_string_lossy().into_owned(), Some(version))
            }
            Err(e) => return fail(e.to_string()),
        },
    };
    // `--upstream` of another release than the k8s.io/api tree's: the tree's rules read under another release's
    // semantics (1.38's lint rules over 1.37's tags, …) — one message instead of the diagnostics that gives.
    if let (Some(given), Some(v)) = (globals.upstream.as_deref(), api_version.as_deref())
        && let (Some(asked), Some(tree)) = (
            vgc_ir::Upstream::parse(given),
            vgc_ir::Upstream::from_module_version(v),
        )
        && asked != tree
    {
        return fail(format!(
            "--upstream {given}: the API tree is {}@{v}, whose rules are Kubernetes {}'s, not {}'s; omit --upstream (the tree's release selects its profile, {}), or validate against the {} API with --api {}@v0.{}.Z",
            vgc::gomodule::DEFAULT_MODULE,
            tree.as_str(),
            asked.as_str(),
            tree.as_str(),
            asked.as_str(),
            vgc::gomodule::DEFAULT_MODULE,
            asked.minor()
        ));
    }
    let defaults = match release_defaults(a.release.as_deref(), api_version.as_deref()) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    // `--release` of another minor than the k8s.io/api tree: one release's server defaults over another's rules.
    let mut run_warnings: Vec<String> = defaults
        .as_ref()
        .zip(api_version.as_deref())
        .and_then(|(d, v)| vgc::release::mismatch(d, v))
        .into_iter()
        .collect();
    // A subresource is only ever updated: without the stored objects, each is validated as a create of it, which
    // no API server serves.
    if let Some(sub) = a
        .subresource
        .as_deref()
        .filter(|s| !s.is_empty() && *s != "/")
        && a.old.is_empty()
    {
        run_warnings.push(format!(
            "--subresource {sub} without --old: the API server serves no create of a subresource, only updates; each object is validated as a create of {sub} (give the stored objects with --old to validate the update)"
        ));
    }
    for w in &run_warnings {
        let _ = writeln!(std::io::stderr().lock(), "warning: {w}");
    }
    // A path that does not exist is named as `--api`'s (not a bare file error).
    if std::fs::symlink_metadata(&api).is_err() {
        return fail(format!(
            "--api {api}: no such file or directory; give the API tree as a module root or package directory, or as MODULE@VERSION (for example k8s.io/api@v0.37.2, taken from the Go module cache or fetched)"
        ));
    }
    let path = match target(Some(api)) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut req = vgc::validate::request(path);
    if let Err(code) = globals.apply(&mut req, None) {
        return code;
    }
    req.extension_files = globals.extensions.clone();
    let cache = if a.no_cache {
        None
    } else {
        a.cache_dir
            .map(|d| std::path::absolute(&d).unwrap_or(d))
            .or_else(vgc::validate::default_cache_root)
            .map(|root| vgc::validate::cache_dir_for(&root, &req.path))
    };
    if let Some(dir) = &cache {
        vgc::validate::retire_old_builds(dir);
    }
    let loaded = match vgc::validate::load_api(&req, cache.as_deref()) {
        Ok(l) => l,
        Err(outcome) => {
            if let Some(e) = &outcome.io_error {
                return fail(e.clone());
            }
            let errors: Vec<vgc_ir::Diagnostic> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.severity == vgc_ir::Severity::Error)
                .cloned()
                .collect();
            // Nothing could be read (not a Go module, an unreadable directory): that alone, said as `--api`'s,
            // not as tag errors of a tree that was never loaded.
            if !errors.is_empty() && errors.iter().all(|d| d.code == vgc_ir::Code::Io) {
                let msg: Vec<String> = errors
                    .iter()
                    .map(|d| {
                        if d.message.ends_with("no go.mod found in it or any parent") {
                            format!(
                                "{}: not a Go module (no go.mod in it or any parent directory); give the root or a package directory of a Go module, or MODULE@VERSION (for example k8s.io/api@v0.37.2)",
                                req.path
                            )
                        } else {
                            d.message.clone()
                        }
                    })
                    .collect();
                return fail(format!("--api {}", msg.join("; ")));
            }
            let _ = std::io::stderr()
                .lock()
                .write_all(vgc::render::text(&errors, &outcome.sources, false).as_bytes());
            return fail(
                "the API tree has tag errors (see `vgc check`); nothing was validated".into(),
            );
        }
    };
    {
        let mut err = std::io::stderr().lock();
        for n in &loaded.notes {
            let _ = writeln!(err, "note: {n}");
        }
        for w in loaded.api.shadowed_kinds() {
            let _ = writeln!(err, "warning: {w}");
        }
        // Only the options named on the command line (the release defaults define every gate), and not the gate
        // that decides beta enforcement, which no rule reads but the run does.
        let given: Vec<String> = a
            .options
            .iter()
            .map(|(k, _)| k.clone())
            .filter(|k| k != vgc::release::BETA_GATE)
            // A gate a create strategy's status reset reads (ServiceCIDRStatusFieldWiping) changes the run too.
            .filter(|k| {
                !defaults.as_ref().is_some_and(|d| {
                    d.create_resets
                        .iter()
                        .any(|r| r.gate.as_deref() == Some(k.as_str()))
                })
            })
            .collect();
        // Said on stderr and carried by the JSON, SARIF and TAP reports, as the run's other warnings.
        for w in loaded
            .api
            .unread_options(&given)
            .into_iter()
            .chain(loaded.api.unknown_skips(&a.skip))
        {
            let _ = writeln!(err, "warning: {w}");
            run_warnings.push(w);
        }
    }
    let api = loaded.api;
    let mut timings = loaded.timings;
    let clock = Instant::now();
    let output = vgc::validate::OutputFormat::from_name(&a.output).unwrap_or_default();
    if a.summary && output != vgc::validate::OutputFormat::Human {
        return fail(format!(
            "--summary tabulates the human report; --output {} has its own counts",
            a.output
        ));
    }
    let mut options: std::collections::BTreeMap<String, bool> = defaults
        .as_ref()
        .map(|d| d.gates.clone())
        .unwrap_or_default();
    // The gates `--option` sets to another value than the release's default, for the header.
    let given_options: std::collections::BTreeMap<&str, bool> =
        a.options.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let overridden: Vec<String> = given_options
        .iter()
        .filter(|(k, v)| {
            defaults
                .as_ref()
                .is_some_and(|d| d.gates.get(**k) != Some(v))
        })
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let beta_gate_given = given_options.get(vgc::release::BETA_GATE).copied();
    options.extend(a.options);
    let given = a
        .enforce
        .as_deref()
        .and_then(vgc::release::Enforce::from_name);
    // `--option DeclarativeValidationBeta=…` sets the gate the release's server enforces beta rules by, as any other
    // gate is set; `--enforce` still wins.
    let beta_gate = options.get(vgc::release::BETA_GATE).copied();
    let enforce = given.unwrap_or_else(|| match (&defaults, beta_gate) {
        (Some(_), Some(on)) => vgc::release::Enforce::with_beta_gate(on),
        (Some(d), None) => d.enforce(),
        (None, _) => vgc::release::Enforce::Alpha,
    });
    if defaults.is_none() && a.release.as_deref() == Some("none") {
        let _ = writeln!(
            std::io::stderr().lock(),
            "vgc validate: no release defaults (--release none): options are undefined unless given with --option; enforced: {}",
            enforce_words(enforce)
        );
    }
    if let Some(d) = &defaults {
        let read = api.options_read();
        let shown: Vec<String> = read
            .iter()
            .map(|o| match options.get(o) {
                Some(v) => format!("{o}={v}"),
                None => format!("{o} undefined"),
            })
            .collect();
        let _ = writeln!(
            std::io::stderr().lock(),
            "vgc validate: as the API server of Kubernetes {} at its defaults{} ({} {}): options {}; enforced: {}",
            d.release_name(),
            if overridden.is_empty() {
                String::new()
            } else {
                format!(" except {}", overridden.join(", "))
            },
            d.source,
            vgc::release::FEATURES_FILE,
            if shown.is_empty() {
                "none read".to_string()
            } else {
                shown.join(", ")
            },
            enforce_words(enforce)
        );
    }
    let opts = vgc::validate::Options {
        subresource: a.subresource,
        options,
        enforce,
        release: defaults
            .as_ref()
            .map(vgc::release::ReleaseDefaults::release_name),
        enforce_from_release: given.is_none() && defaults.is_some(),
        beta_gate_given,
        kubernetes: defaults
            .as_ref()
            .and_then(|d| Some((d.source.clone(), d.dir.clone()?))),
        create_resets: defaults
            .as_ref()
            .map(|d| d.create_resets.clone())
            .unwrap_or_default(),
        update_keeps: defaults
            .as_ref()
            .map(|d| d.update_keeps.clone())
            .unwrap_or_default(),
        strict: a.strict,
        skip: a.skip,
        no_defaults: a.no_defaults,
        no_server_defaults: false,
        output,
        summary: a.summary,
        color: vgc::render::use_color(&a.color, std::io::stdout().is_terminal()),
        jobs: a.jobs.map(usize::from),
        progress: output == vgc::validate::OutputFormat::Human && std::io::stderr().is_terminal(),
        warnings: run_warnings,
    };
    let (text, result) = vgc::validate::run(&api, &inputs, &old, &opts);
    timings.push(("validate", clock.elapsed()));
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    // Nothing at all to validate (an empty file, a directory without manifests, a mistyped path's empty glob): a run
    // that checked nothing is said, not passed in silence.
    if result.objects + result.failed + result.unknown_kinds + result.skipped == 0 {
        let _ = writeln!(
            std::io::stderr().lock(),
            "warning: no Kubernetes object in the {}: nothing was validated",
            vgc::render::plural(inputs.len(), "input file")
        );
    }
    if a.timings {
        print_timings(&timings);
    }
    ExitCode::from(result.exit_code())
}

/// The release defaults `vgc validate` applies: `--release none` → none; `--release v1.Y.Z` → that release's, or
/// an error; no `--release` → those of the release serving `api_version` (the k8s.io/api version of `--api`),
/// with a warning and none when they cannot be read (offline, a module the proxy does not serve).
fn release_defaults(
    release: Option<&str>,
    api_version: Option<&str>,
) -> Result<Option<vgc::release::ReleaseDefaults>, String> {
    match release {
        Some("none") => Ok(None),
        Some(v) => vgc::release::load(v)
            .map(Some)
            .map_err(|e| format!("--release {v}: {e}")),
        None => {
            let Some(k) = api_version.and_then(vgc::release::kubernetes_version_of) else {
                return Ok(None);
            };
            match vgc::release::load(&k) {
                Ok(d) => Ok(Some(d)),
                Err(e) => {
                    let _ = writeln!(
                        std::io::stderr().lock(),
                        "warning: the defaults of Kubernetes {k} cannot be read ({e}); options are undefined unless given with --option, every stability level is enforced, and a created object's status is validated as written (no strategy's PrepareForCreate is read; name the release with --release, or --release none)"
                    );
                    Ok(None)
                }
            }
        }
    }
}

/// The enforced levels in words, as the coverage lines count rules (stable, beta, alpha).
fn enforce_words(e: vgc::release::Enforce) -> &'static str {
    match e {
        vgc::release::Enforce::Stable => "stable rules (beta and alpha errors are shadowed)",
        vgc::release::Enforce::Beta => "stable and beta rules (alpha errors are shadowed)",
        vgc::release::Enforce::Alpha => "every rule",
    }
}
