//! `vgc docs`: the static documentation site (tag reference, diagnostics, API reference per package, offline
//! search; `vgc_docs_gen`) published into `--out`, or the tag or diagnostics reference on stdout.

use super::common::{Globals, analyzed, profile_suffix};
use crate::args::{DocsArgs, DocsFormat};
use std::io::Write as _;
use std::process::ExitCode;

/// `vgc docs`: the static site into `--out` (the file count on stderr), or one reference on stdout.
pub(crate) fn run(a: DocsArgs, globals: &Globals) -> ExitCode {
    let DocsArgs {
        path,
        format,
        out,
        templates,
        roots,
        force,
    } = a;
    let mut stderr = std::io::stderr().lock();
    let mut stdout = std::io::stdout().lock();
    // The tag reference names tags with the prefix in force, as upstream's `--docs` qualifies them
    // (kubernetes#141866): `--tag-prefix`, else `vgc.toml` `[upstream] tag-prefix` for the path.
    let static_prefix = || {
        vgc_driver::config::tag_prefix_for(
            std::path::Path::new(path.as_deref().unwrap_or(".")),
            globals.tag_prefix.as_deref(),
            None,
        )
        .map_err(|e| {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        })
    };
    // The references describe the release `--upstream` names (its stability levels and payloads), else the newest.
    let release = match globals.upstream.as_deref().map(vgc_ir::Upstream::parse) {
        None => vgc_ir::Upstream::NEWEST,
        Some(Some(u)) => u,
        Some(None) => {
            let _ = writeln!(
                stderr,
                "error: --upstream {:?}: not an upstream profile (supported: {})",
                globals.upstream.as_deref().unwrap_or_default(),
                vgc_ir::Upstream::ALL.map(|u| u.as_str()).join(", ")
            );
            return ExitCode::from(2);
        }
    };
    match format {
        DocsFormat::TagsMarkdown => {
            let prefix = match static_prefix() {
                Ok(p) => p,
                Err(code) => return code,
            };
            let text = prefix.requalify(&vgc_docs_gen::tag_reference_markdown_for(release));
            let _ = stdout.write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
        DocsFormat::TagsJson => {
            let prefix = match static_prefix() {
                Ok(p) => p,
                Err(code) => return code,
            };
            let text = serde_json::to_string_pretty(&vgc_docs_gen::tag_reference_json_for(release))
                .unwrap_or_default();
            let _ = writeln!(stdout, "{}", prefix.requalify(&text));
            return ExitCode::SUCCESS;
        }
        DocsFormat::DiagnosticsMarkdown => {
            let _ = stdout.write_all(vgc_docs_gen::diagnostics_markdown().as_bytes());
            return ExitCode::SUCCESS;
        }
        DocsFormat::Site => {}
    }
    let layout = match templates.map(|d| std::path::Path::new(&d).join("layout.html")) {
        None => None,
        // A regular file of at most 1 MiB, opened without blocking, UTF-8.
        Some(p) => match vgc_driver::sys::read_regular(&p, 1 << 20)
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8 text".to_string()))
        {
            Ok(t) => Some(t),
            Err(e) => {
                let _ = writeln!(stderr, "error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
    let outcome = match analyzed(path, roots, globals, &mut stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let docs = vgc_docs_gen::GoDocs::read(&outcome.package_files);
    // `k8s.io/api@v0.37.2` in the module cache: the index names the version it documents.
    let module = &outcome.plan.go_module;
    let module_version = outcome
        .package_files
        .iter()
        .filter(|(pkg, _)| *pkg == module || pkg.starts_with(&format!("{module}/")))
        .flat_map(|(_, files)| files)
        .next()
        .and_then(|f| vgc::gomodule::module_version_of_dir(std::path::Path::new(f), module));
    let files = match vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &outcome.plan,
        docs: &docs,
        layout: layout.as_deref(),
        module_version: module_version.as_deref(),
    }) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(stderr, "error: layout.html: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = std::path::Path::new(&out);
    if out.is_empty() {
        let _ = writeln!(
            stderr,
            "error: the output directory is empty (`--out ''`); name a directory"
        );
        return ExitCode::from(2);
    }
    if dir.exists() && !dir.is_dir() {
        let _ = writeln!(
            stderr,
            "error: {}: the output path exists and is not a directory",
            dir.display()
        );
        return ExitCode::from(2);
    }
    // Tag names on the site are written with the prefix in force (`acme:required` under `--tag-prefix acme:`);
    // the identity for `k8s:`.
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(rel, text)| (rel.clone(), outcome.tag_prefix.requalify(text).into_bytes()))
        .collect();
    match vgc_driver::output::publish(dir, "site.json", &files, force) {
        Ok(notes) => {
            for n in notes {
                let _ = writeln!(stderr, "note: {n}");
            }
        }
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return ExitCode::from(2);
        }
    }
    let _ = writeln!(
        stderr,
        "vgc docs: wrote {} files to {}{}",
        files.len(),
        dir.display(),
        profile_suffix(&outcome)
    );
    ExitCode::SUCCESS
}
