//! `vgc openapi --crd FILE… PATH` (`docs/openapi.md` "CRDs that embed native types"): reads each CRD file as kubectl
//! reads YAML ([`vgc::manifests`], with the position of every value), hands them to
//! [`vgc_driver::openapi_crd::openapi_crd`], and shows each problem with a CRD at the value in question
//! (codespan-reporting, `file:line:col`); nothing is written when there is one (exit 1), nor when a file cannot be
//! read or is malformed YAML.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Config, termcolor::Buffer};
use std::io::Write as _;
use std::ops::Range;
use std::process::ExitCode;
use vgc::manifests::{self, Document};
use vgc::render::plural;
use vgc_driver::openapi::OpenApiRequest;
use vgc_driver::openapi_crd::{CrdFile, openapi_crd};

/// One CRD file as read: its path as given, text and documents.
struct Read {
    path: String,
    text: String,
    documents: Vec<Document>,
}

/// Prints an error at `span` of file `path` (text `text`).
fn located(path: &str, text: &str, span: Range<usize>, message: &str, color: bool) {
    located_as(Diagnostic::error(), path, text, span, message, color);
}

/// Prints `d` (an error or a warning) with `message` at `span` of file `path` (text `text`).
fn located_as(
    d: Diagnostic<usize>,
    path: &str,
    text: &str,
    span: Range<usize>,
    message: &str,
    color: bool,
) {
    let mut files = SimpleFiles::new();
    let id = files.add(path.to_string(), text.to_string());
    let d = d
        .with_message(message)
        .with_labels(vec![Label::primary(id, span)]);
    let mut buf = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    if term::emit_to_write_style(&mut buf, &Config::default(), &files, &d).is_ok() {
        let _ = std::io::stderr().write_all(buf.as_slice());
    }
}

/// The largest CRD file read, in bytes (controller-gen's CRD embedding a PodTemplateSpec is about 0.6 MB).
const MAX_CRD_BYTES: u64 = 64 << 20;

/// Reads the CRD files; on a file that cannot be read or a malformed document, prints it and returns the exit code.
fn read(paths: &[String], color: bool) -> Result<Vec<Read>, ExitCode> {
    let mut out = Vec::new();
    let mut bad = false;
    for p in paths {
        // A regular file of bounded size, read without blocking: a FIFO or a device is refused with its path.
        let text = match vgc_driver::sys::read_regular(std::path::Path::new(p), MAX_CRD_BYTES)
            .and_then(|b| String::from_utf8(b).map_err(|e| format!("not UTF-8: {e}")))
        {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "error: --crd {p}: {e}");
                return Err(ExitCode::from(2));
            }
        };
        let mut documents = Vec::new();
        for d in manifests::load(&text) {
            match d {
                Ok(d) => documents.push(d),
                Err(e) => {
                    located(
                        p,
                        &text,
                        e.span,
                        &format!("malformed CRD: {}", e.message),
                        color,
                    );
                    bad = true;
                }
            }
        }
        if documents.is_empty() && !bad {
            located(
                p,
                &text,
                0..0,
                "no CustomResourceDefinition in this file",
                color,
            );
            bad = true;
        }
        out.push(Read {
            path: p.clone(),
            text,
            documents,
        });
    }
    if bad {
        let _ = writeln!(std::io::stderr(), "vgc: no CRD written");
        return Err(ExitCode::from(1));
    }
    Ok(out)
}

/// What the command line asks of the CRD mode.
pub(crate) struct Crd<'a> {
    /// The CRD files (`--crd`).
    pub(crate) paths: &'a [String],
    /// `--bound-lists N`.
    pub(crate) bound_lists: Option<u64>,
    /// Colour the located errors.
    pub(crate) color: bool,
    /// `--verbose`: each keyword kept, each place the CRD has no schema for, each list bounded.
    pub(crate) verbose: bool,
}

/// Runs the CRD mode for `req`. Prints the analysis' diagnostics (through `report`, the command's common printing),
/// each problem, and a summary.
pub(crate) fn run(
    req: &OpenApiRequest,
    crd: &Crd<'_>,
    report: impl FnOnce(&vgc_driver::openapi::OpenApiOutcome) -> Option<ExitCode>,
) -> ExitCode {
    let (color, verbose) = (crd.color, crd.verbose);
    let read = match read(crd.paths, color) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut names = std::collections::BTreeSet::new();
    for r in &read {
        let name = std::path::Path::new(&r.path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !names.insert(name.clone()) {
            let _ = writeln!(
                std::io::stderr(),
                "error: --crd {}: another CRD file is named {name} too, and each is written under its own name",
                r.path
            );
            return ExitCode::from(2);
        }
    }
    let files: Vec<CrdFile> = read
        .iter()
        .map(|r| CrdFile {
            name: std::path::Path::new(&r.path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            documents: r.documents.iter().map(|d| d.value.clone()).collect(),
            leading_marker: r.text.trim_start().starts_with("---"),
        })
        .collect();
    let outcome = openapi_crd(req, files, crd.bound_lists);
    if let Some(code) = report(&outcome.openapi) {
        return code;
    }
    for p in &outcome.problems {
        let r = &read[p.file];
        let span = r.documents[p.document].label_of(&p.pointer, &r.text);
        located(&r.path, &r.text, span, &p.message, color);
    }
    let mut stderr = std::io::stderr().lock();
    if !outcome.problems.is_empty() {
        let _ = writeln!(
            stderr,
            "vgc: no CRD written: {}",
            plural(outcome.problems.len(), "problem")
        );
        return ExitCode::from(1);
    }
    for w in &outcome.warnings {
        let r = &read[w.file];
        let span = r.documents[w.document].label_of(&w.pointer, &r.text);
        located_as(
            Diagnostic::warning(),
            &r.path,
            &r.text,
            span,
            &w.message,
            color,
        );
    }
    for v in &outcome.versions {
        let m = &v.report.merge;
        let _ = writeln!(
            stderr,
            "vgc: {}/{}: the rules of {}: {} keys added, {} kept as the CRD had them, {} places the CRD has no schema for{}{}{}",
            v.crd,
            v.version,
            v.schema,
            m.added,
            m.kept.len(),
            m.missing.len(),
            if v.report.cut > 0 {
                format!(", {} references cut at a recursion", v.report.cut)
            } else {
                String::new()
            },
            if v.bounded.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} bounded by --bound-lists",
                    plural(v.bounded.len(), "list or map")
                )
            },
            if v.undefined.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} not expressed: {} fields the CRD's schema lacks",
                    plural(v.undefined.len(), "CEL rule"),
                    if v.undefined.len() == 1 {
                        "it reads"
                    } else {
                        "they read"
                    }
                )
            }
        );
        if verbose {
            for k in &m.kept {
                let _ = writeln!(stderr, "note: kept {k}");
            }
            for k in &m.missing {
                let _ = writeln!(stderr, "note: the CRD has no schema for the rules of {k}");
            }
            for b in &v.bounded {
                let _ = writeln!(stderr, "note: bounded {b} (--bound-lists)");
            }
        }
    }
    for v in &outcome.versions {
        if v.unbounded.is_empty() {
            continue;
        }
        let shown = if verbose { usize::MAX } else { 3 };
        let mut places: Vec<&str> = v.unbounded.iter().take(shown).map(String::as_str).collect();
        if v.unbounded.len() > shown {
            places.push("…");
        }
        let _ = writeln!(
            stderr,
            "warning: {}/{}: {} without maxItems/maxProperties {} CEL rules ({}): the API server's CEL cost estimate sizes them by the request limit and may refuse the CRD; --bound-lists N bounds them",
            v.crd,
            v.version,
            plural(v.unbounded.len(), "list or map"),
            if v.unbounded.len() == 1 {
                "holds"
            } else {
                "hold"
            },
            places.join(", ")
        );
    }
    for s in &outcome.skipped {
        let _ = writeln!(
            stderr,
            "note: {s}: not served and no Go type in the API tree: left as it is"
        );
    }
    if let Some(e) = &outcome.openapi.io_error {
        let _ = writeln!(stderr, "error: {e}");
        return ExitCode::from(2);
    }
    let _ = writeln!(
        stderr,
        "vgc: wrote {} to {}",
        plural(outcome.openapi.files.len(), "CRD file"),
        req.out.display()
    );
    ExitCode::SUCCESS
}
