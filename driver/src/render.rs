//! `vgc check`'s diagnostic text: the codespan-reporting form ([`human`], [`human_styled`]) and the one-line form
//! ([`short`]), chosen by [`text`]. The command line prints builds with it, and `vgc-build`'s
//! `Error::Diagnostics` carries it; the other report formats (JSON, SARIF, GitHub, the lint baseline) are the
//! command line's (`vgc::render`).

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Config};
use std::collections::BTreeMap;
use vgc_ir::{Diagnostic, Severity};

/// Renders diagnostics as plain text (`error[VGC0102]: …` with `file:line:col`, the source line and the hint).
/// `sources` maps file paths to their text.
#[must_use]
pub fn human(diags: &[Diagnostic], sources: &BTreeMap<String, String>) -> String {
    human_styled(diags, sources, false)
}

/// [`human`], with ANSI colours (codespan-reporting's default styles through termcolor) when `color`.
#[must_use]
pub fn human_styled(
    diags: &[Diagnostic],
    sources: &BTreeMap<String, String>,
    color: bool,
) -> String {
    use codespan_reporting::term::termcolor::Buffer;
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
        let mut notes = Vec::new();
        if let Some(h) = &d.hint {
            notes.push(format!("hint: {h}"));
        }
        if let Some(f) = &d.fix {
            notes.push(if f.replacement.is_empty() {
                "fix: delete it (vgc lint --fix)".to_string()
            } else {
                format!("fix: replace with `{}` (vgc lint --fix)", f.replacement)
            });
        }
        if !notes.is_empty() {
            cs = cs.with_notes(notes);
        }
        let mut buf = if color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        match term::emit_to_write_style(&mut buf, &cfg, &files, &cs) {
            Ok(()) => out.push_str(&String::from_utf8_lossy(buf.as_slice())),
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

/// Renders diagnostics for the terminal: one [`short`] line each when `short`, else the [`human`] form.
#[must_use]
pub fn text(diags: &[Diagnostic], sources: &BTreeMap<String, String>, short: bool) -> String {
    if short {
        diags
            .iter()
            .map(|d| self::short(d, sources) + "\n")
            .collect()
    } else {
        human(diags, sources)
    }
}

/// [`text`] with ANSI colours when `color`: the codespan-reporting diagnostics styled as
/// [`human_styled`] styles them, and the one-line form with its severity coloured as codespan-reporting colours it
/// (bold red `error`, bold yellow `warning`).
#[must_use]
pub fn text_styled(
    diags: &[Diagnostic],
    sources: &BTreeMap<String, String>,
    short: bool,
    color: bool,
) -> String {
    match (short, color) {
        (_, false) => text(diags, sources, short),
        (false, true) => human_styled(diags, sources, true),
        (true, true) => diags
            .iter()
            .map(|d| short_with(d, sources, true) + "\n")
            .collect(),
    }
}

/// One-line `file:line:col: severity[CODE]: message` form, for logs and tests.
#[must_use]
pub fn short(d: &Diagnostic, sources: &BTreeMap<String, String>) -> String {
    short_with(d, sources, false)
}

/// [`short`], its `severity[CODE]` in colour when `color`.
fn short_with(d: &Diagnostic, sources: &BTreeMap<String, String>, color: bool) -> String {
    let plain = if d.severity == Severity::Error {
        "error"
    } else {
        "warning"
    };
    let sev = if color {
        use codespan_reporting::term::termcolor::{Buffer, Color, ColorSpec, WriteColor as _};
        let mut b = Buffer::ansi();
        let c = if d.severity == Severity::Error {
            Color::Red
        } else {
            Color::Yellow
        };
        let _ = b.set_color(ColorSpec::new().set_fg(Some(c)).set_bold(true));
        let _ = std::io::Write::write_all(&mut b, plain.as_bytes());
        let _ = b.reset();
        String::from_utf8_lossy(b.as_slice()).into_owned()
    } else {
        plain.to_string()
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
