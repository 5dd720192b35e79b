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
            let mut label = Label::primary(*id, d.span.clone());
            // A span over characters of no width (a byte-order mark, a zero-width space) underlines nothing: say
            // what is there.
            if let Some(name) = d
                .file
                .as_ref()
                .and_then(|f| sources.get(f))
                .and_then(|t| t.get(d.span.clone()))
                .and_then(invisible_only)
            {
                label = label.with_message(format!("{name} here (invisible)"));
            }
            cs = cs.with_labels(vec![label]);
        } else if let Some(f) = &d.file {
            cs = cs.with_notes(vec![format!("in {f}")]);
        }
        let mut notes = Vec::new();
        if let Some(h) = &d.hint {
            notes.push(format!("hint: {h}"));
        }
        if let Some(f) = &d.fix {
            let text = d.file.as_ref().and_then(|p| sources.get(p));
            notes.push(format!(
                "{} (vgc lint --fix)",
                fix_preview(text.map(String::as_str), f)
            ));
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

/// `U+FEFF`-style names of the characters of `text` when it is not empty and every character is one that takes no
/// room on screen (a byte-order mark, zero-width spaces and joiners, the word joiner).
fn invisible_only(text: &str) -> Option<String> {
    let invisible = |c: char| {
        matches!(
            c,
            '\u{feff}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}'
        )
    };
    (!text.is_empty() && text.chars().all(invisible)).then(|| {
        text.chars()
            .map(|c| format!("U+{:04X}", u32::from(c)))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// What a fix does, in source lines as they read after it (trimmed; never a raw `\n`/`\t` or a partial line):
/// `fix: add `// +k8s:listType=set`` for inserted lines, `fix: `// +k8s:optional`` for a changed line,
/// `fix: delete `…`` for a deletion. Without the file's text: the replacement trimmed.
pub(crate) fn fix_preview(text: Option<&str>, f: &vgc_ir::diagnostic::Fix) -> String {
    let quote = |lines: &[&str]| {
        lines
            .iter()
            .map(|l| format!("`{l}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(text) = text.filter(|t| {
        f.span.end <= t.len() && t.is_char_boundary(f.span.start) && t.is_char_boundary(f.span.end)
    }) else {
        let r: Vec<&str> = f
            .replacement
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        return format!("fix: replace with {}", quote(&r));
    };
    let start = text[..f.span.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[f.span.end..]
        .find('\n')
        .map_or(text.len(), |i| f.span.end + i);
    let before = &text[start..end];
    let after = format!(
        "{}{}{}",
        &text[start..f.span.start],
        f.replacement,
        &text[f.span.end..end]
    );
    let lines = |s: &str| -> Vec<String> {
        s.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    let (old, new) = (lines(before), lines(&after));
    let added: Vec<&str> = new
        .iter()
        .filter(|l| !old.contains(l))
        .map(String::as_str)
        .collect();
    let removed: Vec<&str> = old
        .iter()
        .filter(|l| !new.contains(l))
        .map(String::as_str)
        .collect();
    match (added.is_empty(), removed.is_empty()) {
        (true, false) => format!("fix: delete {}", quote(&removed)),
        (false, true) => format!("fix: add {}", quote(&added)),
        (false, false) => format!("fix: {} (was {})", quote(&added), quote(&removed)),
        (true, true) => "fix: reformat the line".to_string(),
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

#[cfg(test)]
mod fix_preview_tests {
    use super::fix_preview;
    use vgc_ir::diagnostic::Fix;

    /// Issue 37: previews read as the source lines after the fix — no raw newline or tab, no line missing its `+`.
    #[test]
    fn previews_show_whole_lines_after_the_fix() {
        let text = "type T struct {\n\t// +listType=set\n\tItems []string\n\t// +k8s:Optional\n\tName string\n}\n";
        // An insertion after a line (VGC0311's twin).
        let at = text.find("set\n").expect("set") + 3;
        let ins = Fix {
            span: at..at,
            replacement: "\n\t// +k8s:listType=set".into(),
        };
        assert_eq!(
            fix_preview(Some(text), &ins),
            "fix: add `// +k8s:listType=set`"
        );
        // A replacement of part of a line (the tag without its `+`).
        let s = text.find("k8s:Optional").expect("tag");
        let part = Fix {
            span: s..s + "k8s:Optional".len(),
            replacement: "k8s:optional".into(),
        };
        assert_eq!(
            fix_preview(Some(text), &part),
            "fix: `// +k8s:optional` (was `// +k8s:Optional`)"
        );
        // A deletion of a whole line.
        let l = text.find("\t// +k8s:Optional\n").expect("line");
        let del = Fix {
            span: l..l + "\t// +k8s:Optional\n".len(),
            replacement: String::new(),
        };
        assert_eq!(
            fix_preview(Some(text), &del),
            "fix: delete `// +k8s:Optional`"
        );
        // Without the text.
        assert_eq!(
            fix_preview(None, &ins),
            "fix: replace with `// +k8s:listType=set`"
        );
    }
}

#[cfg(test)]
mod invisible_tests {
    use std::collections::BTreeMap;
    use vgc_ir::{Code, Diagnostic};

    /// Issue 37 (from the new-user trial): a diagnostic at a byte-order mark underlined nothing; the label says
    /// what is there.
    #[test]
    fn a_label_over_an_invisible_character_names_it() {
        let text = "package v1\n\u{feff}// x\n".to_string();
        let at = text.find('\u{feff}').expect("bom");
        let d =
            Diagnostic::error(Code::Io, "illegal byte order mark (U+FEFF)").at("a.go", at..at + 3);
        let sources = BTreeMap::from([("a.go".to_string(), text)]);
        let out = super::human(&[d], &sources);
        assert!(out.contains("U+FEFF here (invisible)"), "{out}");
        assert_eq!(
            super::invisible_only("\u{200b}\u{feff}").as_deref(),
            Some("U+200B U+FEFF")
        );
        assert_eq!(super::invisible_only("a\u{feff}"), None);
        assert_eq!(super::invisible_only(""), None);
    }
}
