//! Code actions of `vgc lsp`: each published diagnostic's machine-applicable fix (`Diagnostic::fix`, what
//! `vgc lint --fix` applies) and its did-you-mean (the hint's suggestion put in place of the misspelt text) as
//! quick fixes, and "explain VGCnnnn" — `vgc explain CODE`'s text — as a command.

use super::position;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Command, Diagnostic, Range, TextEdit, Url,
    WorkspaceEdit,
};
use std::collections::HashMap;

/// The command that shows a code's explanation (arguments: the code, `"VGC0102"`).
pub(crate) const EXPLAIN: &str = "vgc.explain";

/// One published diagnostic and the edits that fix it, each with its title.
#[derive(Debug, Clone)]
pub(crate) struct Fixable {
    /// The diagnostic as published.
    pub(crate) diagnostic: Diagnostic,
    /// Quick fixes: (title, edit of the diagnostic's file).
    pub(crate) edits: Vec<(String, TextEdit)>,
}

/// A short, one-line rendering of `s` in backticks (at most 60 characters).
fn quoted(s: &str) -> String {
    let line = s.trim().lines().next().unwrap_or("").trim();
    let short: String = line.chars().take(60).collect();
    let more = if short.len() < line.len() || s.trim().lines().count() > 1 {
        "…"
    } else {
        ""
    };
    format!("`{short}{more}`")
}

/// The quick fixes of `d` in `lines`' text (the file's text it was found in): its fix, and for a hint `did you mean X?`
/// the suggestion in place of the text it corrects — the diagnostic's whole range when that is the misspelt name
/// (`VGC0102`'s span is the tag's name), else the one quoted value of the message that occurs exactly once in that
/// range (a group, a path).
#[must_use]
pub(crate) fn fixes(
    d: &vgc_ir::Diagnostic,
    lines: &position::LineIndex<'_>,
) -> Vec<(String, TextEdit)> {
    let text = lines.text();
    let mut out = Vec::new();
    if let Some(f) = &d.fix
        && f.span.end <= text.len()
        && text.is_char_boundary(f.span.start)
        && text.is_char_boundary(f.span.end)
    {
        let old = &text[f.span.clone()];
        let title = if f.replacement.is_empty() {
            format!("Delete {}", quoted(old))
        } else if old.is_empty() {
            format!("Insert {}", quoted(&f.replacement))
        } else {
            format!("Replace {} with {}", quoted(old), quoted(&f.replacement))
        };
        out.push((
            title,
            TextEdit {
                range: lines.range(&f.span),
                new_text: f.replacement.clone(),
            },
        ));
    }
    if let Some((at, new)) = d
        .hint
        .as_deref()
        .and_then(suggestion)
        .and_then(|s| suggestion_site(d, text, &s).map(|at| (at, s)))
    {
        let old = &text[at.clone()];
        let edit = TextEdit {
            range: lines.range(&at),
            new_text: new.clone(),
        };
        if !out.iter().any(|(_, e)| *e == edit) {
            out.push((format!("Change {} to {}", quoted(old), quoted(&new)), edit));
        }
    }
    out
}

/// The suggestion of a hint reading `did you mean `X`?` or `did you mean "X"?`.
fn suggestion(hint: &str) -> Option<String> {
    let rest = &hint[hint.find("did you mean ")? + "did you mean ".len()..];
    if let Some(r) = rest.strip_prefix('`') {
        return r.find('`').map(|e| r[..e].to_string());
    }
    if rest.starts_with('"') {
        return quoted_strings(rest).into_iter().next();
    }
    None
}

/// The Go/Rust-quoted strings (`"…"`, with `\"` and `\\` escapes) of `s`, unquoted, in order.
fn quoted_strings(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut v = String::new();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => v.extend(chars.next()),
                '"' => {
                    closed = true;
                    break;
                }
                c => v.push(c),
            }
        }
        if closed {
            out.push(v);
        }
    }
    out
}

/// The bytes of `text` the suggestion `new` replaces for diagnostic `d`: its whole span when that is one name
/// (no space, no quote) other than `new`, else the one occurrence inside the span of a quoted value of the message
/// (the quotes kept) — `None` when that is ambiguous.
fn suggestion_site(
    d: &vgc_ir::Diagnostic,
    text: &str,
    new: &str,
) -> Option<std::ops::Range<usize>> {
    let span = d.span.clone();
    let written = text.get(span.clone())?;
    if !written.is_empty() && written != new && !written.contains([' ', '"', '(', '=', '\n']) {
        return Some(span);
    }
    let mut found = None;
    for old in quoted_strings(&d.message) {
        if old.is_empty() || old == new {
            continue;
        }
        let mut hits = written.match_indices(&old).filter(|(i, _)| {
            // Whole values only: not part of a longer name.
            let before = written[..*i].chars().next_back();
            let after = written[i + old.len()..].chars().next();
            let name = |c: Option<char>| {
                c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
            };
            !name(before) && !name(after)
        });
        if let (Some((i, _)), None) = (hits.next(), hits.next()) {
            let site = span.start + i..span.start + i + old.len();
            // The message may quote one value twice (the tag as written, then the value): the same site.
            if found.as_ref().is_some_and(|f| *f != site) {
                return None;
            }
            found = Some(site);
        }
    }
    found
}

/// The code actions for `range` of document `uri`: the quick fixes of every diagnostic of `published` that
/// overlaps it, then one "explain" command ([`EXPLAIN`]) per code among them.
#[must_use]
pub(crate) fn actions(uri: &Url, published: &[Fixable], range: Range) -> Vec<CodeActionOrCommand> {
    let overlaps = |r: &Range| r.start <= range.end && range.start <= r.end;
    let mut out = Vec::new();
    let mut codes: Vec<String> = Vec::new();
    for p in published.iter().filter(|p| overlaps(&p.diagnostic.range)) {
        for (title, edit) in &p.edits {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![p.diagnostic.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit.clone()])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(p.edits.len() == 1),
                ..CodeAction::default()
            }));
        }
        if let Some(lsp_types::NumberOrString::String(code)) = &p.diagnostic.code
            && !codes.contains(code)
        {
            codes.push(code.clone());
        }
    }
    for code in codes {
        // A bare `Command`, not a `CodeAction` holding one: a code action with a command and no edit is read as a
        // `Command` by some clients' protocol types anyway (lsprotocol, pygls'), and every client runs a `Command`.
        out.push(CodeActionOrCommand::Command(Command {
            title: format!("Explain {code} (vgc explain {code})"),
            command: EXPLAIN.into(),
            arguments: Some(vec![serde_json::Value::String(code)]),
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{fixes, suggestion};
    use vgc_ir::{Code, Diagnostic};

    #[test]
    fn suggestions_of_hints() {
        assert_eq!(
            suggestion("did you mean `k8s:required`? (upstream …)").as_deref(),
            Some("k8s:required")
        );
        assert_eq!(
            suggestion("did you mean \"status\"? Subresource paths …").as_deref(),
            Some("status")
        );
        assert_eq!(suggestion("write it on the type"), None);
    }

    #[test]
    fn a_misspelt_name_and_a_quoted_value_are_replaced() {
        let text = "\t// +k8s:requred\n";
        let at = text.find("k8s:").unwrap_or(0);
        let d = Diagnostic::error(Code::UnknownTag, "unknown tag \"k8s:requred\"")
            .at("/t.go", at..at + "k8s:requred".len())
            .with_hint("did you mean `k8s:required`? (upstream …)");
        let f = fixes(&d, &crate::lsp::position::LineIndex::new(text));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "Change `k8s:requred` to `k8s:required`");
        assert_eq!(f[0].1.new_text, "k8s:required");
        assert_eq!(
            (f[0].1.range.start.character, f[0].1.range.end.character),
            (5, 16)
        );

        let text = "\t// +k8s:memberOf(group: \"netwrk\")\n";
        let at = text.find("k8s:").unwrap_or(0);
        let d = Diagnostic::error(
            Code::UnknownTag,
            "T.F: `memberOf` names group \"netwrk\", which root type R does not declare",
        )
        .at("/t.go", at..text.len() - 1)
        .with_hint("did you mean \"network\"? Otherwise declare it");
        let f = fixes(&d, &crate::lsp::position::LineIndex::new(text));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(&text[26..32], "netwrk");
        assert_eq!(f[0].1.new_text, "network");
        assert_eq!(
            (f[0].1.range.start.character, f[0].1.range.end.character),
            (26, 32)
        );

        // The message quotes the value twice (the tag as written, then the value alone): one site.
        let text = "\t// +k8s:ifSubresource(\"/stauts\")=+k8s:maxLength=20\n";
        let at = text.find("k8s:").unwrap_or(0);
        let d = Diagnostic::error(
            Code::UnknownTag,
            "T.F: +k8s:ifSubresource(\"/stauts\")=+k8s:maxLength=20: no root type reaching this rule serves the subresource \"/stauts\" (served: /, /status): the rule never runs",
        )
        .at("/t.go", at..text.len() - 1)
        .with_hint("did you mean \"/status\"? Subresource paths are compared exactly");
        let f = fixes(&d, &crate::lsp::position::LineIndex::new(text));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "Change `/stauts` to `/status`");
        assert_eq!(f[0].1.new_text, "/status");
    }

    #[test]
    fn a_fix_is_offered_as_it_is() {
        let text = "\t// +k8s:Optional\n";
        let d = Diagnostic::warning(Code::LintSpelling, "spelling")
            .at("/t.go", 5..17)
            .with_fix(5..17, "k8s:optional");
        let f = fixes(&d, &crate::lsp::position::LineIndex::new(text));
        assert_eq!(f[0].0, "Replace `k8s:Optional` with `k8s:optional`");
    }
}
