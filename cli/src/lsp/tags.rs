//! Hover and completion of `+k8s:` tags in a buffer: read from the line under the cursor and the tag catalog, no
//! analysis (a comment being typed need not parse).

use super::position::{offset, position};
use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, Hover, HoverContents, MarkupContent,
    MarkupKind, Position, Range,
};
use vgc_ir::TagPrefix;
use vgc_ir::profile::Upstream;

/// The line of `text` holding byte `at`: (its start offset, its text without the line break).
fn line_at(text: &str, at: usize) -> (usize, &str) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (start, text[start..end].trim_end_matches('\r'))
}

/// The byte where the line's `//` comment starts, if the line has one (a `//` in a string literal before a real
/// comment is taken for the comment: tags are written on comment-only lines).
fn comment_start(line: &str) -> Option<usize> {
    line.find("//")
}

/// Whether `c` may be part of a tag name (`validation-gen`, `eachVal`, `k8s-short-name` formats alike).
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// The hover of the tag whose `+prefix:name` spans `pos`, under `release` and `prefix`.
#[must_use]
pub(crate) fn hover(
    text: &str,
    pos: Position,
    release: Upstream,
    prefix: &TagPrefix,
) -> Option<Hover> {
    let at = offset(text, pos);
    let (start, line) = line_at(text, at);
    let col = at - start;
    let comment = comment_start(line)?;
    let marker = format!("+{}", prefix.as_str());
    let mut from = comment;
    while let Some(i) = line[from..].find(&marker) {
        let tag_start = from + i;
        let name_start = tag_start + marker.len();
        let name_len = line[name_start..]
            .find(|c: char| !name_char(c))
            .unwrap_or(line.len() - name_start);
        let end = name_start + name_len;
        if (tag_start..=end).contains(&col) && name_len > 0 {
            let name = format!("k8s:{}", &line[name_start..end]);
            let entry = crate::explain::tag_entry(&name, release, prefix)?;
            return Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: entry.markdown(),
                }),
                range: Some(Range::new(
                    position(text, start + tag_start),
                    position(text, start + end),
                )),
            });
        }
        from = end.max(tag_start + 1);
    }
    None
}

/// Completion items at `pos`: every catalog tag name (with its one-line doc) right after `+prefix:` in a comment,
/// the format names after `+prefix:format=`; nothing elsewhere.
#[must_use]
pub(crate) fn completion(
    text: &str,
    pos: Position,
    release: Upstream,
    prefix: &TagPrefix,
) -> Vec<CompletionItem> {
    let at = offset(text, pos);
    let (start, line) = line_at(text, at);
    let before = &line[..(at - start).min(line.len())];
    let Some(comment) = comment_start(before) else {
        return Vec::new();
    };
    let marker = format!("+{}", prefix.as_str());
    let Some(i) = before[comment..].rfind(&marker) else {
        return Vec::new();
    };
    let typed = &before[comment + i + marker.len()..];
    if typed.chars().all(name_char) {
        return tag_items(release, prefix);
    }
    if let Some(value) = typed.strip_prefix("format=")
        && value.chars().all(name_char)
    {
        return vgc_ir::catalog::FORMAT_DOCS
            .iter()
            .map(|(name, doc)| CompletionItem {
                label: (*name).to_string(),
                kind: Some(CompletionItemKind::ENUM_MEMBER),
                detail: Some(crate::explain::first_sentence(doc)),
                documentation: Some(Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: (*doc).to_string(),
                })),
                ..CompletionItem::default()
            })
            .collect();
    }
    Vec::new()
}

/// One item per catalog tag: the name without the prefix as label and text, the docs' first sentence as detail,
/// the whole entry as documentation.
fn tag_items(release: Upstream, prefix: &TagPrefix) -> Vec<CompletionItem> {
    vgc_ir::catalog::TAGS
        .iter()
        .filter_map(|t| {
            let entry = crate::explain::tag_entry(t.name(), release, prefix)?;
            let label = t
                .name()
                .strip_prefix("k8s:")
                .unwrap_or(t.name())
                .to_string();
            Some(CompletionItem {
                label,
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(entry.summary()),
                documentation: Some(Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: entry.markdown(),
                })),
                ..CompletionItem::default()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{completion, hover};
    use lsp_types::{HoverContents, Position};
    use vgc_ir::TagPrefix;
    use vgc_ir::profile::Upstream;

    const TEXT: &str =
        "package v1\n\ntype T struct {\n\t// é +k8s:required\n\t// +k8s:format=\n\tX string\n}\n";

    #[test]
    fn hover_on_a_tag_shows_its_entry() {
        let p = TagPrefix::default();
        let h = hover(TEXT, Position::new(3, 9), Upstream::NEWEST, &p).expect("hover");
        let HoverContents::Markup(m) = h.contents else {
            panic!("markup")
        };
        assert!(m.value.starts_with("**+k8s:required**"), "{}", m.value);
        assert_eq!(
            h.range.map(|r| (r.start, r.end)),
            Some((Position::new(3, 6), Position::new(3, 19)))
        );
        assert!(hover(TEXT, Position::new(5, 2), Upstream::NEWEST, &p).is_none());
    }

    #[test]
    fn completion_of_names_and_formats() {
        let p = TagPrefix::default();
        let names = completion(TEXT, Position::new(3, 11), Upstream::NEWEST, &p);
        assert!(names.iter().any(|i| i.label == "required"));
        let formats = completion(TEXT, Position::new(4, 16), Upstream::NEWEST, &p);
        assert!(
            formats.iter().any(|i| i.label == "k8s-short-name"),
            "{formats:?}"
        );
        assert!(completion(TEXT, Position::new(5, 3), Upstream::NEWEST, &p).is_empty());
    }
}
