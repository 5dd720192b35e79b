//! Markdown to HTML for the site (pulldown-cmark), for the catalog's texts (tag and argument descriptions, format
//! meanings, diagnostic rationales) and Go doc comments. Doc comments come from the API's authors and so are
//! untrusted (reliability R15): raw HTML is shown as text, links keep their text but lose their target (the site
//! has no external links and works offline), images keep their alternative text only.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn safe_events(md: &str) -> impl Iterator<Item = Event<'_>> {
    Parser::new_ext(md, Options::empty()).filter_map(|e| match e {
        Event::Html(t) | Event::InlineHtml(t) => Some(Event::Text(t)),
        Event::Start(Tag::Link { .. } | Tag::Image { .. })
        | Event::End(TagEnd::Link | TagEnd::Image) => None,
        // Headings of a doc comment would compete with the page's own; they become plain paragraphs.
        Event::Start(Tag::Heading { .. }) => Some(Event::Start(Tag::Paragraph)),
        Event::End(TagEnd::Heading(_)) => Some(Event::End(TagEnd::Paragraph)),
        other => Some(other),
    })
}

/// `md` as HTML blocks (paragraphs, lists, code blocks).
#[must_use]
pub fn block(md: &str) -> String {
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, safe_events(md));
    html
}

/// `md` (one line of text) as inline HTML: the paragraph [`block`] would make, without its `<p>` tags.
#[must_use]
pub fn inline(md: &str) -> String {
    let html = block(md);
    let t = html.trim_end();
    match t.strip_prefix("<p>").and_then(|r| r.strip_suffix("</p>")) {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => html,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn code_spans_render_and_markup_does_not() {
        assert_eq!(
            super::inline("a `+k8s:optional` field"),
            "a <code>+k8s:optional</code> field"
        );
        // An HTML block, inline HTML, links and images.
        assert_eq!(
            super::block("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(
            super::inline(
                "a <img src=x onerror=alert(1)> [x](javascript:alert(2)) ![y](z.png) <https://e.com>"
            ),
            "a &lt;img src=x onerror=alert(1)&gt; x y https://e.com"
        );
        assert_eq!(
            super::block("# Title\n\ntext"),
            "<p>Title</p>\n<p>text</p>\n"
        );
    }
}
