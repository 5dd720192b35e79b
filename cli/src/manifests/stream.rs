//! A manifest file cut into documents as kubectl cuts it.
//!
//! upstream: `k8s.io/apimachinery/pkg/util/yaml` `NewYAMLOrJSONDecoder(r, 4096)`, which `k8s.io/cli-runtime`'s
//! `StreamVisitor` (`kubectl apply -f`, `create -f`, …) reads every file with:
//! - `GuessJSONStream`: a file whose first non-space character within its first 4096 bytes is `{` is read as a
//!   stream of JSON values (`json.Decoder`); when a value cannot be read and at most one was, the rest of the file,
//!   from after the last value read and the spaces up to the end of that line (`consumeWhitespace`), is read as
//!   YAML instead; after two values an error ends the stream.
//! - `YAMLReader`: a YAML stream is split at lines that start with `---` and have nothing but spaces or a comment
//!   after it; any other line starting with `---` is an error (`invalid Yaml document separator`) for the document
//!   read so far. `...` is not a separator: it ends the YAML document inside its piece, and what follows it up to
//!   the next separator is never read (go-yaml reads the first document of a piece).

use super::LoadError;
use std::ops::Range;

/// The bytes `GuessJSONStream` looks at.
const PEEK: usize = 4096;

/// One piece of a manifest file, read as one document ([`super::load_chunk`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Byte range in the file: the document's text (without its separator lines), or what an error covers.
    pub range: Range<usize>,
    pub(super) kind: Kind,
}

/// How a [`Chunk`] is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    /// A YAML document (`YAMLReader`'s piece), converted as `sigs.k8s.io/yaml` does.
    Yaml,
    /// One value of a JSON stream.
    Json,
    /// What kubectl cannot read: a bad `---` line, or the error that ends a JSON stream.
    Unreadable(LoadError),
}

/// The pieces of `text` in order (empty YAML pieces included: they read as no document).
pub(super) fn split(text: &str) -> Vec<Chunk> {
    if looks_like_json(text) {
        json_stream(text)
    } else {
        yaml_documents(text, 0)
    }
}

/// upstream: `GuessJSONStream` / `IsJSONBuffer`: `{` after leading Unicode spaces, within the first 4096 bytes.
fn looks_like_json(text: &str) -> bool {
    text.char_indices()
        .take_while(|(i, _)| *i < PEEK)
        .find(|(_, c)| !c.is_whitespace())
        .is_some_and(|(_, c)| c == '{')
}

/// upstream: `YAMLReader.Read` over `LineReader` lines, from byte `from` of `text`.
fn yaml_documents(text: &str, from: usize) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut start = from;
    let mut at = from;
    for line in text[from..].split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("---") {
            let after = rest.trim();
            if after.is_empty() || after.starts_with('#') {
                out.push(Chunk {
                    range: start..at,
                    kind: Kind::Yaml,
                });
            } else {
                let marker = at..at + line.trim_end_matches(['\n', '\r']).len();
                out.push(Chunk {
                    range: start..marker.end,
                    kind: Kind::Unreadable(LoadError {
                        message: format!(
                            "invalid document separator `{after}`: kubectl reads a line starting with `---` as a \
                             separator, with nothing but a comment after it"
                        ),
                        span: marker,
                    }),
                });
            }
            start = at + line.len();
        }
        at += line.len();
    }
    out.push(Chunk {
        range: start..text.len(),
        kind: Kind::Yaml,
    });
    out
}

/// upstream: `YAMLOrJSONDecoder.Decode` on a stream `GuessJSONStream` took for JSON.
fn json_stream(text: &str) -> Vec<Chunk> {
    let mut out = Vec::new();
    // After the last value read: where a fallback to YAML starts.
    let mut pos = 0;
    let mut count = 0;
    loop {
        let start = pos
            + text[pos..]
                .bytes()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                .count();
        if start == text.len() {
            return out;
        }
        match json_value(text, start) {
            Ok(end) => {
                out.push(Chunk {
                    range: start..end,
                    kind: Kind::Json,
                });
                count += 1;
                pos = end;
            }
            Err(e) => {
                if count <= 1
                    && let Some(yaml) = consume_whitespace(text, pos)
                {
                    out.extend(yaml_documents(text, yaml));
                } else {
                    out.push(Chunk {
                        range: e.span.clone(),
                        kind: Kind::Unreadable(e),
                    });
                }
                return out;
            }
        }
    }
}

/// The end of the JSON value that starts at byte `start` of `text`, or where and why it cannot be read.
fn json_value(text: &str, start: usize) -> Result<usize, LoadError> {
    let mut values =
        serde_json::Deserializer::from_str(&text[start..]).into_iter::<serde::de::IgnoredAny>();
    match values.next() {
        Some(Ok(_)) => Ok(start + values.byte_offset()),
        Some(Err(e)) => {
            let at = start + offset(&text[start..], e.line(), e.column());
            Err(LoadError {
                span: at..at,
                message: format!("invalid JSON: {e}"),
            })
        }
        None => Ok(text.len()),
    }
}

/// The byte offset of serde_json's (1-based) line and column in `text` (the column counts bytes).
pub(super) fn offset(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut at = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// upstream: `YAMLOrJSONDecoder.consumeWhitespace`: from `pos`, skips Unicode spaces up to and including the
/// first newline, reading four bytes at a time: `None` (no switch to YAML) when fewer than four bytes are left at
/// some step, or at a U+FFFD (`utf8.RuneError`).
fn consume_whitespace(text: &str, pos: usize) -> Option<usize> {
    let mut p = pos;
    loop {
        if text.len() - p < 4 {
            return None;
        }
        let c = text[p..].chars().next()?;
        if c == '\u{FFFD}' {
            return None;
        }
        if !c.is_whitespace() {
            return Some(p);
        }
        p += c.len_utf8();
        if c == '\n' {
            return Some(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(&str, &'static str)> {
        split(text)
            .into_iter()
            .map(|c| {
                let kind = match c.kind {
                    Kind::Yaml => "yaml",
                    Kind::Json => "json",
                    Kind::Unreadable(_) => "error",
                };
                (&text[c.range], kind)
            })
            .collect()
    }

    #[test]
    fn yaml_separators_as_yaml_reader_reads_them() {
        assert_eq!(
            kinds("a: 1\n---\nb: 2\n--- # c\nc: 3\n---#d\n"),
            [
                ("a: 1\n", "yaml"),
                ("b: 2\n", "yaml"),
                ("c: 3\n", "yaml"),
                ("", "yaml")
            ]
        );
        // `--- value` and `----` are errors for the document before them; `...` separates nothing.
        assert_eq!(
            kinds("a: 1\n--- x\nb: 2\n...\nc: 3\n----\n"),
            [
                ("a: 1\n--- x", "error"),
                ("b: 2\n...\nc: 3\n----", "error"),
                ("", "yaml")
            ]
        );
        assert_eq!(
            kinds("a: 1\r\n---\r\nb: 2"),
            [("a: 1\r\n", "yaml"), ("b: 2", "yaml")]
        );
    }

    #[test]
    fn json_streams_and_their_fallback_to_yaml() {
        assert_eq!(
            kinds(" {\"a\": 1}\n{\"b\": 2} [3]"),
            [
                ("{\"a\": 1}", "json"),
                ("{\"b\": 2}", "json"),
                ("[3]", "json")
            ]
        );
        // One value, then YAML from the next line on.
        assert_eq!(
            kinds("{\"a\": 1}\n---\nb: 2\n"),
            [("{\"a\": 1}", "json"), ("", "yaml"), ("b: 2\n", "yaml")]
        );
        // Not JSON at all: YAML from the start.
        assert_eq!(kinds("{a: 1}\n"), [("{a: 1}\n", "yaml")]);
        // Fewer than four bytes left where YAML would start: the JSON error stands.
        assert_eq!(
            kinds("{\"a\":1} x\n"),
            [("{\"a\":1}", "json"), ("", "error")]
        );
        assert_eq!(
            kinds("{\"a\":1} xyz\n"),
            [("{\"a\":1}", "json"), ("xyz\n", "yaml")]
        );
        // After two values an error ends the stream.
        assert_eq!(
            kinds("{}{}\nx: 1\n"),
            [("{}", "json"), ("{}", "json"), ("", "error")]
        );
    }
}
