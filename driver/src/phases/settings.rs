//! The `settings` phase: the build's settings decided from the request, `vgc.toml` and the module, and set on the
//! database's `Settings` input (only where they changed, so an unchanged build starts no salsa revision): the
//! upstream profile, extra roots, tag prefix, vgc's extensions and the project formats of
//! `--validation-extensions-file`. Also the request's `--target` default and `[build.severity]`, which read the
//! same `vgc.toml`.

use crate::config::find_through;
use crate::database::Database;
use crate::request::BuildRequest;
use vgc_analysis::{Program, System};
use vgc_ir::Diagnostic;
use vgc_ir::profile::Selected;

/// Sets the `Settings` input of `db` for `req` over the loaded `prog` and returns the upstream profile in force:
/// `--upstream` (the CLI fills `req.upstream` from it or from `vgc.toml`); for library callers (`vgc-build`,
/// tests) the `vgc.toml` above the input too, as documented; else detected from the module's `go.mod`
/// ([`vgc_analysis::gomod::detect_upstream`]); else the newest.
///
/// The extension files are `req.extension_files`, else `vgc.toml` `[build] validation-extensions-files`; vgc's
/// extensions are on when `vgc.toml` `[extensions] enabled` says so. A `vgc.toml` that does not parse counts as
/// none here (it is reported by [`apply_build_severities`]).
///
/// Problems are pushed onto `diags`: a tag prefix the profile does not take (`VGC0005`, before 1.38) and the load
/// errors of the extension files.
pub(crate) fn settings(
    db: &mut Database,
    sys: &dyn System,
    req: &BuildRequest,
    prog: &Program,
    diags: &mut Vec<Diagnostic>,
) -> Selected {
    use salsa::Setter as _;
    let profile = req
        .upstream
        .clone()
        .or_else(|| {
            let c = find_through(sys, &req.path)?.ok()?;
            c.upstream.map(|v| Selected::new(v, "set in vgc.toml"))
        })
        .or_else(|| {
            let text = sys.read_file(&format!("{}/go.mod", prog.root)).ok()?;
            vgc_analysis::gomod::detect_upstream(
                &vgc_analysis::gomod::parse_go_mod(&text),
                &prog.root,
            )
        })
        .unwrap_or_else(Selected::newest);
    let settings = vgc_ir::Settings::get(&*db);
    if *settings.extra_roots(&*db) != req.extra_roots {
        settings.set_extra_roots(db).to(req.extra_roots.clone());
    }
    if settings.upstream(&*db) != profile.version {
        settings.set_upstream(db).to(profile.version);
    }
    if *settings.tag_prefix(&*db) != req.tag_prefix {
        settings.set_tag_prefix(db).to(req.tag_prefix.clone());
    }
    if !req.tag_prefix.is_default() && !profile.version.tag_prefix_option() {
        diags.push(
            Diagnostic::error(
                vgc_ir::Code::GeneratorConfig,
                format!(
                    "the tag prefix {:?} needs the upstream 1.38 profile (upstream {}: {}): validation-gen has no --tag-prefix before 1.38 (kubernetes#141866)",
                    req.tag_prefix.as_str(),
                    profile.version,
                    profile.why
                ),
            )
            .with_hint("select `--upstream 1.38` (or `[upstream] version = \"1.38\"` in vgc.toml), or drop `--tag-prefix` / `[upstream] tag-prefix`"),
        );
    }
    let from_config;
    let files = if req.extension_files.is_empty() {
        from_config = find_through(sys, &req.path)
            .and_then(Result::ok)
            .map(|c| c.extension_files)
            .unwrap_or_default();
        &from_config
    } else {
        &req.extension_files
    };
    // `vgc.toml` `[extensions] enabled`: vgc's KEP-5073 extensions (docs/extensions.md).
    let vgc_extensions = find_through(sys, &req.path)
        .and_then(Result::ok)
        .is_some_and(|c| c.vgc_extensions);
    if settings.vgc_extensions(&*db) != vgc_extensions {
        settings.set_vgc_extensions(db).to(vgc_extensions);
    }
    let (formats, load_errors) = crate::extensions::load(files, &|p| sys.read_file(p));
    diags.extend(load_errors);
    if **settings.formats(&*db) != *formats {
        settings.set_formats(db).to(formats);
    }
    profile
}

/// `req` with its `--target` default filled in, when it has none: `vgc.toml` `[build] target`, else vgc's own
/// structs (a `vgc.toml` that does not parse counts as none; [`apply_build_severities`] reports it). `None` when
/// `req` names its target already.
pub(crate) fn with_default_target(req: &BuildRequest, sys: &dyn System) -> Option<BuildRequest> {
    // The Go target reads no Rust target.
    if req.target.is_some() || req.go.is_some() {
        return None;
    }
    let target = find_through(sys, &req.path)
        .and_then(Result::ok)
        .and_then(|c| c.target)
        .unwrap_or_default();
    Some(BuildRequest {
        target: Some(target),
        ..req.clone()
    })
}

/// `[build.severity]` of the `vgc.toml` in `path` or its parents up to the Go module root (read through `sys`, so
/// the build manifest observes it): each listed code's diagnostics get that severity. A `vgc.toml` that does not
/// parse is an error diagnostic per problem, located in the file ([`crate::config::ConfigError::diagnostics`]).
pub(crate) fn apply_build_severities(sys: &dyn System, path: &str, out: &mut crate::BuildOutcome) {
    let Some(cfg) = find_through(sys, path) else {
        return;
    };
    match cfg {
        Ok(cfg) => {
            for d in &mut out.diagnostics {
                if let Some(s) = cfg.build_severities.get(&d.code) {
                    d.severity = *s;
                }
            }
        }
        Err(e) => {
            // The file's text, so that renderers show the place (line, column, the line itself).
            if let Ok(text) = sys.read_file(&e.path) {
                out.sources.insert(e.path.clone(), text);
            }
            out.diagnostics.extend(e.diagnostics());
        }
    }
}
