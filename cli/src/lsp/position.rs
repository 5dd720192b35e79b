//! Byte offsets ↔ LSP positions. vgc's spans are byte ranges of the UTF-8 text; LSP positions are (line, UTF-16
//! code unit within the line) — the protocol's default `positionEncoding`, the only one every client supports.

use lsp_types::{Position, Range};

/// The position of byte `offset` in `text` (clamped to the text and moved back to a character boundary).
#[must_use]
pub(crate) fn position(text: &str, offset: usize) -> Position {
    let offset = inside_line(text, offset);
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|b| *b == b'\n').count();
    let character = text[line_start..offset].encode_utf16().count();
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(character).unwrap_or(u32::MAX),
    )
}

/// The range of bytes `span` in `text`.
#[must_use]
pub(crate) fn range(text: &str, span: &std::ops::Range<usize>) -> Range {
    Range::new(position(text, span.start), position(text, span.end))
}

/// The start of every line of a text, for converting many offsets of one text (a check's diagnostics of a file)
/// without scanning it from the start each time.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of each line's first byte.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The index of `text`.
    #[must_use]
    pub(crate) fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self { text, starts }
    }

    /// The text.
    #[must_use]
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// [`position`] of byte `offset`.
    #[must_use]
    pub(crate) fn position(&self, offset: usize) -> Position {
        let offset = inside_line(self.text, offset);
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let character = self.text[start..offset].encode_utf16().count();
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(character).unwrap_or(u32::MAX),
        )
    }

    /// [`range`] of bytes `span`.
    #[must_use]
    pub(crate) fn range(&self, span: &std::ops::Range<usize>) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }
}

/// `offset` clamped to `text`, moved back to a character boundary and out of a `\r\n` line ending (between its two
/// bytes is the line's end: the protocol counts `\r\n` as one line break, so a column there would be past the line).
fn inside_line(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    if offset > 0
        && text.as_bytes().get(offset) == Some(&b'\n')
        && text.as_bytes()[offset - 1] == b'\r'
    {
        offset -= 1;
    }
    offset
}

/// The byte offset of `pos` in `text`: a line past the end is the end of the text, a character past the end of its
/// line is the line's end (before its `\n`, or its `\r\n`), a position inside a surrogate pair is the character's
/// start.
#[must_use]
pub(crate) fn offset(text: &str, pos: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..pos.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let mut line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    if line_end > line_start && text.as_bytes()[line_end - 1] == b'\r' {
        line_end -= 1;
    }
    let mut units = 0;
    for (i, c) in text[line_start..line_end].char_indices() {
        let next = units + c.len_utf16();
        if next > pos.character as usize {
            return line_start + i;
        }
        units = next;
    }
    line_end
}

#[cfg(test)]
mod tests {
    use super::{offset, position};
    use lsp_types::Position;

    #[test]
    fn utf16_columns() {
        // `é` is 2 bytes and 1 UTF-16 unit; `𝄞` is 4 bytes and 2 units.
        let text = "ab\n\té𝄞 // +k8s:x\n";
        let tag = text.find('+').expect("tag");
        assert_eq!(position(text, tag), Position::new(1, 8));
        assert_eq!(offset(text, Position::new(1, 8)), tag);
        assert_eq!(position(text, 1), Position::new(0, 1));
        assert_eq!(offset(text, Position::new(0, 99)), 2);
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
        // Inside the surrogate pair: the character's start.
        assert_eq!(
            offset(text, Position::new(1, 3)),
            text.find('𝄞').expect("clef")
        );
        assert_eq!(position(text, text.len()), Position::new(2, 0));
        let index = super::LineIndex::new(text);
        for at in 0..=text.len() + 1 {
            assert_eq!(index.position(at), position(text, at), "{at}");
        }
    }

    #[test]
    fn crlf_line_endings() {
        let text = "ab\r\ncd\r\n";
        // Between `\r` and `\n` is the line's end, as is a column past it.
        assert_eq!(position(text, 3), Position::new(0, 2));
        assert_eq!(position(text, 2), Position::new(0, 2));
        assert_eq!(position(text, 4), Position::new(1, 0));
        assert_eq!(offset(text, Position::new(0, 99)), 2);
        assert_eq!(offset(text, Position::new(1, 2)), 6);
        let index = super::LineIndex::new(text);
        for at in 0..=text.len() {
            assert_eq!(index.position(at), position(text, at), "{at}");
        }
    }
}
