//! Manifest loading for `vgc validate`: a file read into the JSON values kubectl sends for its documents, with
//! the byte range of every value in the source, so that an error is reported at the offending field.
//!
//! kubectl (`k8s.io/cli-runtime`'s `StreamVisitor`) reads a file with `k8s.io/apimachinery/pkg/util/yaml`
//! `NewYAMLOrJSONDecoder` and sends each document as the JSON `sigs.k8s.io/yaml` `YAMLToJSON` makes of it, after
//! reading it back as an unstructured object. So does this loader, on saphyr-parser events: documents are cut as
//! that decoder cuts them ([`stream`]: `---` lines, JSON streams), scalars are typed by go-yaml v2's YAML 1.1 rules
//! ([`schema`]: `yes`/`on`/`y` are `true`, `1_000` is `1000`, `017` is `15`), duplicate keys and merge keys as
//! go-yaml decodes them ([`tree`]), non-string keys named as `sigs.k8s.io/yaml` names them and numbers as the JSON
//! text kubectl sends reads (`.inf` cannot be sent; [`kubectl_json`]). `tests/tests/yaml_kubectl_oracle.rs`
//! compares it with that Go code.
//!
//! Each document is parsed on its own, so a malformed document is a located error while the others are still read.
//! Bounds: nesting deeper than [`MAX_DEPTH`] (128 in a JSON stream: serde_json's limit) and alias expansion beyond
//! [`MAX_ALIAS_NODES`] nodes per document are located errors (YAML bombs: billion laughs, deep nesting), never
//! unbounded time, memory or stack.

mod kubectl_json;
mod schema;
mod stream;
mod tree;

pub use stream::Chunk;

use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;
use stream::Kind;

/// Deepest nesting of sequences and mappings accepted in one document.
pub const MAX_DEPTH: usize = 256;
/// Most nodes alias expansion may produce in one document (saphyr's own loader default).
pub const MAX_ALIAS_NODES: usize = 100_000;

/// One document of a manifest stream: its JSON value, and where each value is in the file.
///
/// Loading builds the value only; the span tables (JSON Pointer → byte range) are built on first use, by parsing
/// the document's text again with positions ([`Document::spans`]). Most documents of a run are valid and never
/// need them, and building them for every document was most of the loading time (`docs/performance.md`).
#[derive(Debug)]
pub struct Document {
    /// The document as the JSON kubectl sends for it.
    pub value: Value,
    /// Byte range of the whole document in the file: from its first value's first token to the end of its chunk.
    pub range: Range<usize>,
    /// Byte range of the document's chunk (what [`load`] parsed, markers excluded), parsed again for the spans.
    chunk: Range<usize>,
    spans: OnceLock<Spans>,
}

/// Where the values of a document are.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Spans {
    /// JSON Pointer (RFC 6901) → byte range in the file of that value (a collection's range runs from its first to
    /// its last token; an aliased value's is the alias's, a merged entry's the merged value's).
    pub values: BTreeMap<String, Range<usize>>,
    /// JSON Pointer of a mapping entry → byte range of its key (where an error about a missing member of that
    /// entry's value is shown).
    pub keys: BTreeMap<String, Range<usize>>,
}

impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value && self.range == other.range && self.chunk == other.chunk
    }
}

impl Document {
    /// The span tables of this document; `text` must be the file it was loaded from (the text given to [`load`]).
    /// Built once, by parsing the document again with positions; an empty table if `text` is not that file.
    pub fn spans(&self, text: &str) -> &Spans {
        self.spans.get_or_init(|| {
            text.get(self.chunk.clone())
                .and_then(|c| {
                    let mut tables = Spans::default();
                    tree::read(c, self.chunk.start, Some(&mut tables))
                        .ok()
                        .map(|_| tables)
                })
                .unwrap_or_default()
        })
    }

    /// The byte range of the value at `pointer`, or of its nearest ancestor that has one (a missing field is
    /// reported at the object that should hold it); `text` is the file ([`Document::spans`]).
    #[must_use]
    pub fn span_of(&self, pointer: &str, text: &str) -> Range<usize> {
        let spans = &self.spans(text).values;
        let mut p = pointer;
        loop {
            if let Some(r) = spans.get(p) {
                return r.clone();
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return self.range.start..self.range.start,
            }
        }
    }

    /// The byte range of the key of the mapping entry at `pointer`, if it is one.
    #[must_use]
    pub fn key_span(&self, pointer: &str, text: &str) -> Option<Range<usize>> {
        self.spans(text).keys.get(pointer).cloned()
    }

    /// Where to show an error about the value at `pointer` (`text` is the file): a scalar's own range; for a mapping
    /// entry holding a collection, its key; otherwise the first line of the value (of its nearest ancestor with a
    /// range, [`Document::span_of`]).
    #[must_use]
    pub fn label_of(&self, pointer: &str, text: &str) -> Range<usize> {
        if pointer.is_empty() {
            // The document itself: its first line, without building the span tables.
            let r = self.range.clone();
            return r.start..line_end(text, r);
        }
        let scalar = self
            .value
            .pointer(pointer)
            .is_some_and(|v| !(v.is_object() || v.is_array()));
        if !scalar && let Some(k) = self.key_span(pointer, text) {
            return k;
        }
        let r = self.span_of(pointer, text);
        r.start..line_end(text, r.clone())
    }
}

/// The end of the first line of `r` in `text` (at least `r.start`).
fn line_end(text: &str, r: Range<usize>) -> usize {
    text.get(r.clone())
        .and_then(|s| s.find('\n'))
        .map_or(r.end, |i| r.start + i)
        .max(r.start)
}

/// A document that could not be read: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// Byte range in the file.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
}

/// The documents of `text` in order, as kubectl reads them; empty and null documents (nothing but comments, a
/// lone `---`, `~`) are left out, as kubectl does.
#[must_use]
pub fn load(text: &str) -> Vec<Result<Document, LoadError>> {
    stream::split(text)
        .into_iter()
        .filter_map(|c| load_chunk(text, c))
        .collect()
}

/// The pieces of `text`, in order, each to be read with [`load_chunk`]: [`load`] in pieces, so that a caller can
/// read, use and drop one document before the next (while its values are still in the processor's caches) or
/// read several at once.
#[must_use]
pub fn chunks(text: &str) -> Vec<Chunk> {
    stream::split(text)
}

/// The document of `chunk` of `text` (a piece [`chunks`] returned for that text); `None` for an empty or null
/// document.
#[must_use]
pub fn load_chunk(text: &str, chunk: Chunk) -> Option<Result<Document, LoadError>> {
    let r = chunk.range;
    let read = match chunk.kind {
        Kind::Unreadable(e) => return Some(Err(e)),
        Kind::Yaml => tree::read(&text[r.clone()], r.start, None),
        Kind::Json => json(&text[r.clone()], r.start),
    };
    match read {
        Err(e) => Some(Err(e)),
        Ok(None) => None,
        Ok(Some(tree::Read { value, start })) => Some(Ok(Document {
            value,
            range: start..r.end,
            chunk: r,
            spans: OnceLock::new(),
        })),
    }
}

/// One value of a JSON stream, as kubectl sends it: read by `k8s.io/apimachinery/pkg/util/json` (the last of
/// duplicate keys wins; an integer within `int64` stays one, any other number is a `float64`) and written again by
/// `encoding/json` ([`kubectl_json::normalize_number`]).
fn json(value: &str, base: usize) -> Result<Option<tree::Read>, LoadError> {
    let mut v: Value = serde_json::from_str(value).map_err(|e| {
        let at = base + stream::offset(value, e.line(), e.column());
        LoadError {
            span: at..at,
            message: format!("invalid JSON: {e}"),
        }
    })?;
    normalize_numbers(&mut v);
    Ok((!v.is_null()).then_some(tree::Read {
        value: v,
        start: base,
    }))
}

fn normalize_numbers(v: &mut Value) {
    match v {
        Value::Number(n) => *n = kubectl_json::normalize_number(n),
        Value::Array(a) => a.iter_mut().for_each(normalize_numbers),
        Value::Object(m) => m.values_mut().for_each(normalize_numbers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_values_and_spans() {
        let text = "apiVersion: v1\nkind: A\nspec:\n  m: 3\n  l: [a, 'b']\n---\n# empty\n---\n{\"kind\": \"B\", \"x\": null}\n";
        let docs = load(text);
        assert_eq!(docs.len(), 2);
        let a = docs[0].as_ref().expect("first");
        assert_eq!(
            a.value,
            serde_json::json!({"apiVersion": "v1", "kind": "A", "spec": {"m": 3, "l": ["a", "b"]}})
        );
        assert_eq!(&text[a.span_of("/spec/m", text)], "3");
        assert_eq!(&text[a.span_of("/spec/l/1", text)], "'b'");
        assert_eq!(
            &text[a.span_of("/spec/missing", text)],
            &text[a.spans(text).values["/spec"].clone()]
        );
        assert_eq!(&text[a.key_span("/spec", text).expect("key")], "spec");
        assert_eq!(&text[a.label_of("", text)], "apiVersion: v1");
        let b = docs[1].as_ref().expect("second");
        assert_eq!(b.value, serde_json::json!({"kind": "B", "x": null}));
    }

    #[test]
    fn spans_are_bytes_in_text_with_multibyte_characters() {
        // Markers count characters; spans are byte ranges of the file, in every document of the stream.
        let text = "# héllo wörld\nkind: A\nname: \"é→x\"\n---\nkind: B\nm: [1, ü]\n---\nbad: [\n";
        let docs = load(text);
        assert_eq!(docs.len(), 3);
        let a = docs[0].as_ref().expect("first");
        assert_eq!(&text[a.label_of("", text)], "kind: A");
        assert_eq!(&text[a.span_of("/name", text)], "\"é→x\"");
        let b = docs[1].as_ref().expect("second");
        assert_eq!(&text[b.span_of("/m/1", text)], "ü");
        let e = docs[2].as_ref().expect_err("unclosed");
        assert_eq!(e.span.start, text.len() - 2);
        // Spans asked with another text are empty rather than wrong.
        let c = &load(text)[0].as_ref().expect("first").spans("x").clone();
        assert!(c.values.is_empty());
    }

    #[test]
    fn malformed_documents_are_located_and_the_others_read() {
        let text = "a: [1\n---\nb: 2\n";
        let docs = load(text);
        assert_eq!(docs.len(), 2);
        assert!(
            docs[0]
                .as_ref()
                .is_err_and(|e| e.message.starts_with("invalid YAML"))
        );
        assert_eq!(
            docs[1].as_ref().expect("second").value,
            serde_json::json!({"b": 2})
        );
    }

    #[test]
    fn bombs_are_bounded() {
        // Flow collections: saphyr-parser's own bound (255 levels).
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let e = load(&deep).remove(0).expect_err("too deep");
        assert_eq!(e.message, "invalid YAML: recursion limit exceeded");
        // Block collections: ours.
        let block: String = (0..300)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect::<String>()
            + &"  ".repeat(300)
            + "x\n";
        let e = load(&block).remove(0).expect_err("too deep");
        assert_eq!(e.message, format!("nesting deeper than {MAX_DEPTH} levels"));
        let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"]
            .windows(2)
            .map(|w| (w[0], w[1]))
        {
            laughs.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        let e = load(&laughs).remove(0).expect_err("bomb");
        assert_eq!(
            e.message,
            format!("alias expansion exceeds {MAX_ALIAS_NODES} nodes")
        );
    }

    #[test]
    fn documents_as_kubectl_sends_them() {
        // YAML 1.1 scalars (issue 36): what `sigs.k8s.io/yaml` makes of them, not YAML 1.2's strings.
        let text = "spec:\n  paused: on\n  replicas: 1_000\n  mode: 0o17\n  perm: 017\n  t: 1:30\n  f: 1.0\n  \
                    y: n\n  quoted: 'on'\n  tagged: !!str 123\n  num: !!int \"5\"\n";
        let docs = load(text);
        let a = docs[0].as_ref().expect("read");
        assert_eq!(
            a.value,
            serde_json::json!({"spec": {"paused": true, "replicas": 1000, "mode": 15, "perm": 15, "t": "1:30",
                "f": 1, "true": false, "quoted": "on", "tagged": "123", "num": 5}})
        );
        assert_eq!(&text[a.span_of("/spec/replicas", text)], "1_000");
        assert_eq!(&text[a.key_span("/spec/true", text).expect("key")], "y");
        // Duplicate keys: the last wins; merge keys write over what is already read.
        let text = "base: &b {a: 1, b: 2}\nx:\n  a: 9\n  <<: *b\n  b: 3\n  b: 4\n";
        let docs = load(text);
        let a = docs[0].as_ref().expect("read");
        assert_eq!(a.value["x"], serde_json::json!({"a": 1, "b": 4}));
        assert_eq!(&text[a.span_of("/x/a", text)], "*b");
        assert_eq!(&text[a.span_of("/x/b", text)], "4");
        // What JSON cannot hold is an error, unless overwritten.
        let docs = load("a: .inf\n---\na: .nan\na: 1\n---\n~: x\n");
        assert_eq!(docs[0].as_ref().expect_err("inf").span, 3..7);
        assert_eq!(
            docs[1].as_ref().expect("read").value,
            serde_json::json!({"a": 1})
        );
        assert!(
            docs[2]
                .as_ref()
                .is_err_and(|e| e.message.contains("map key"))
        );
        // `--- x` is no separator for kubectl; `...` is none either.
        let docs = load("a: 1\n--- x\nb: 2\n...\nc: 3\n");
        assert_eq!(docs.len(), 2);
        assert!(
            docs[0]
                .as_ref()
                .is_err_and(|e| e.message.contains("separator"))
        );
        assert_eq!(
            docs[1].as_ref().expect("read").value,
            serde_json::json!({"b": 2})
        );
    }

    #[test]
    fn json_streams_as_kubectl_reads_them() {
        let text = "{\"a\": 1.0, \"b\": 18446744073709551615}\n{\"a\": 2}";
        let docs = load(text);
        assert_eq!(docs.len(), 2);
        let a = docs[0].as_ref().expect("first");
        assert_eq!(a.value["a"], serde_json::json!(1));
        assert!(a.value["b"].is_f64());
        assert_eq!(&text[a.span_of("/b", text)], "18446744073709551615");
        let b = docs[1].as_ref().expect("second");
        assert_eq!(&text[b.range.clone()], "{\"a\": 2}");
        // chunks + load_chunk read the same documents.
        let pieces: Vec<_> = chunks(text)
            .into_iter()
            .filter_map(|c| load_chunk(text, c))
            .collect();
        assert_eq!(pieces, docs);
    }
}
