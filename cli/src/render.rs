//! Diagnostic rendering with codespan-reporting (human) and JSON.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Config};
use std::collections::BTreeMap;
use vgc_ir::{Diagnostic, Severity};

/// Renders diagnostics as plain text (`error[VGC0102]: …` with `file:line:col`, the source line and the hint).
/// `sources` maps file paths to their text.
#[must_use]
pub fn human(diags: &[Diagnostic], sources: &BTreeMap<String, String>) -> String {
    let mut files = SimpleFiles::new();
    let mut ids = BTreeMap::new();
    for (p, t) in sources {
        ids.insert(p.clone(), files.add(p.clone(), t.clone()));
    }
    let cfg = Config::default();
    let mut out = String::new();
    for d in diags {
        let mut cs = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        }
        .with_code(d.code.as_str())
        .with_message(&d.message);
        if let Some(id) = d.file.as_ref().and_then(|f| ids.get(f)) {
            cs = cs.with_labels(vec![Label::primary(*id, d.span.clone())]);
        } else if let Some(f) = &d.file {
            cs = cs.with_notes(vec![format!("in {f}")]);
        }
        if let Some(h) = &d.hint {
            cs = cs.with_notes(vec![format!("hint: {h}")]);
        }
        match term::emit_into_string(&cfg, &files, &cs) {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push_str(&format!(
                "{}[{}]: {}\n",
                if d.severity == Severity::Error {
                    "error"
                } else {
                    "warning"
                },
                d.code.as_str(),
                d.message
            )),
        }
    }
    out
}

/// One-line `file:line:col: severity[CODE]: message` form, for logs and tests.
#[must_use]
pub fn short(d: &Diagnostic, sources: &BTreeMap<String, String>) -> String {
    let sev = if d.severity == Severity::Error {
        "error"
    } else {
        "warning"
    };
    let loc = match (&d.file, d.file.as_ref().and_then(|f| sources.get(f))) {
        (Some(f), Some(text)) => {
            let before = &text[..d.span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("{f}:{line}:{col}: ")
        }
        (Some(f), None) => format!("{f}: "),
        _ => String::new(),
    };
    format!("{loc}{sev}[{}]: {}", d.code.as_str(), d.message)
}
