//! Manifest loading for `vgc validate`: YAML streams (JSON is read as the YAML 1.2 flow subset it is) into JSON
//! values, with the byte range of every value in the source, so that an error is reported at the offending field.
//!
//! The file is split into documents at `---` / `...` marker lines first and each document is parsed on its own
//! (saphyr-parser events), so a malformed document is a located error while the others are still read.
//! Bounds: nesting deeper than [`MAX_DEPTH`] and alias expansion beyond [`MAX_ALIAS_NODES`] nodes per document are
//! located errors (YAML bombs: billion laughs, deep nesting), never unbounded time, memory or stack.

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};
use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::OnceLock;

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
    /// The document as JSON.
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
    /// its last token; an aliased value's is the alias's).
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
                    load_one(c, self.chunk.start, Some(&mut tables))
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

/// The documents of `text` in order; empty documents (nothing but comments or a lone `---`) are left out, as
/// kubectl does.
#[must_use]
pub fn load(text: &str) -> Vec<Result<Document, LoadError>> {
    split(text)
        .into_iter()
        .filter_map(|r| load_chunk(text, r))
        .collect()
}

/// The byte ranges of the document chunks of `text`, in order, each to be read with [`load_chunk`]: [`load`] in
/// pieces, so that a caller can read, use and drop one document before the next (while its values are still in
/// the processor's caches) or read several at once.
#[must_use]
pub fn chunks(text: &str) -> Vec<Range<usize>> {
    split(text)
}

/// The document of chunk `r` of `text` (a range [`chunks`] returned); `None` for an empty document.
#[must_use]
pub fn load_chunk(text: &str, r: Range<usize>) -> Option<Result<Document, LoadError>> {
    load_one(&text[r.clone()], r.start, None).transpose()
}

/// Byte ranges of the documents of a stream: split at lines that are a `---` marker (alone or followed by a
/// space) or a `...` end marker. A marker line at column 0 ends any block scalar, so the split is the parser's.
fn split(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim_end_matches(['\n', '\r']);
        let marker = l == "---" || l.starts_with("--- ") || l.starts_with("---\t");
        let end = l == "..." || l.starts_with("... ");
        if marker || end {
            out.push(start..at);
            // A `--- value` line keeps its content in the next document.
            start = if marker { at } else { at + line.len() };
        }
        at += line.len();
    }
    out.push(start..text.len());
    out
}

struct Frame {
    value: Value,
    /// For mappings: a key was read and inserted with a `null` placeholder (the last entry), its value pending.
    pending: bool,
    /// For mappings, when spans are recorded: the pending key (the next value's pointer segment).
    key: Option<String>,
    start: saphyr_parser::Marker,
    anchor: usize,
    pointer: String,
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

/// Parses one document chunk starting at byte `base` of the file; `Ok(None)` for an empty document. With `tables`,
/// also records where every value and key is ([`Spans`]).
fn load_one(
    chunk: &str,
    base: usize,
    mut tables: Option<&mut Spans>,
) -> Result<Option<Document>, LoadError> {
    // Marker indexes are in characters: map them to bytes (the same numbers in ASCII text; a table otherwise, built
    // only when positions are wanted or needed).
    let ascii = chunk.is_ascii();
    let table: Vec<usize> = if ascii || tables.is_none() {
        Vec::new()
    } else {
        chunk
            .char_indices()
            .map(|(i, _)| i)
            .chain([chunk.len()])
            .collect()
    };
    let byte = |m: &saphyr_parser::Marker| {
        let i = m.index();
        base + if ascii {
            i.min(chunk.len())
        } else if table.is_empty() {
            chunk.char_indices().nth(i).map_or(chunk.len(), |(b, _)| b)
        } else {
            table.get(i).copied().unwrap_or(chunk.len())
        }
    };
    let range = |s: &Span| byte(&s.start)..byte(&s.end).max(byte(&s.start));
    let located = |s: Range<usize>, message: String| LoadError { span: s, message };
    // An error at the end of the chunk (an unclosed collection) is shown at its last character, not on the next
    // document's marker line.
    let last = base + chunk.trim_end().len();
    let scan = |e: &ScanError| {
        let at = byte(e.marker()).min(last.saturating_sub(1).max(base));
        located(at..at, format!("invalid YAML: {}", e.info()))
    };

    let with_spans = tables.is_some();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Value> = HashMap::new();
    let mut expanded = 0usize;
    let mut root: Option<Value> = None;
    let mut root_start: Option<usize> = None;
    for ev in Parser::new_from_str(chunk) {
        let (ev, span) = ev.map_err(|e| scan(&e))?;
        // The pointer of the value this event starts (in the frame on top of the stack), when spans are recorded.
        let child_pointer = |stack: &[Frame]| -> String {
            if !with_spans {
                return String::new();
            }
            match stack.last() {
                None => String::new(),
                Some(f) => match &f.value {
                    Value::Array(a) => format!("{}/{}", f.pointer, a.len()),
                    Value::Object(_) => f
                        .key
                        .as_ref()
                        .map(|k| format!("{}/{}", f.pointer, escape(k)))
                        .unwrap_or_default(),
                    _ => String::new(),
                },
            }
        };
        let mut finished: Option<(Value, usize, Span, String)> = None;
        match ev {
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
            Event::DocumentStart(_) | Event::DocumentEnd => {}
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(located(
                        range(&span),
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let in_key = matches!(stack.last(), Some(f) if f.value.is_object() && !f.pending);
                if in_key {
                    return Err(located(
                        range(&span),
                        "a mapping key must be a scalar".into(),
                    ));
                }
                if stack.is_empty() {
                    root_start.get_or_insert_with(|| byte(&span.start));
                }
                let pointer = child_pointer(&stack);
                let value = if matches!(ev, Event::SequenceStart(..)) {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                };
                stack.push(Frame {
                    value,
                    pending: false,
                    key: None,
                    start: span.start,
                    anchor,
                    pointer,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(f) = stack.pop() {
                    finished = Some((f.value, f.anchor, Span::new(f.start, span.end), f.pointer));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                // A mapping key.
                if let Some(f) = stack.last_mut()
                    && let Value::Object(m) = &mut f.value
                    && !f.pending
                {
                    // Inserted now with a placeholder (one lookup for the duplicate check and the insertion); the
                    // value replaces the last entry when it is finished.
                    let key = text.into_owned();
                    if let Some(t) = tables.as_deref_mut() {
                        t.keys
                            .insert(format!("{}/{}", f.pointer, escape(&key)), range(&span));
                        f.key = Some(key.clone());
                    }
                    match m.entry(key) {
                        serde_json::map::Entry::Occupied(o) => {
                            let message = format!("duplicate key {:?}", o.key());
                            return Err(located(range(&span), message));
                        }
                        serde_json::map::Entry::Vacant(v) => {
                            v.insert(Value::Null);
                        }
                    }
                    f.pending = true;
                    continue;
                }
                if stack.is_empty() {
                    root_start.get_or_insert_with(|| byte(&span.start));
                }
                let pointer = child_pointer(&stack);
                let forced_string = tag
                    .as_ref()
                    .is_some_and(|t| t.suffix == "str" || t.suffix == "binary");
                let value = if forced_string || style != ScalarStyle::Plain {
                    Value::String(text.into_owned())
                } else {
                    resolve(&text)
                };
                finished = Some((value, anchor, span, pointer));
            }
            Event::Alias(id) => {
                if let Some(f) = stack.last()
                    && f.value.is_object()
                    && !f.pending
                {
                    return Err(located(
                        range(&span),
                        "an alias cannot be a mapping key here".into(),
                    ));
                }
                let Some(v) = anchors.get(&id) else {
                    return Err(located(range(&span), "unknown anchor".into()));
                };
                expanded += count_nodes(v, MAX_ALIAS_NODES + 1);
                if expanded > MAX_ALIAS_NODES {
                    return Err(located(
                        range(&span),
                        format!("alias expansion exceeds {MAX_ALIAS_NODES} nodes"),
                    ));
                }
                if stack.is_empty() {
                    root_start.get_or_insert_with(|| byte(&span.start));
                }
                let pointer = child_pointer(&stack);
                finished = Some((v.clone(), 0, span, pointer));
            }
        }
        if let Some((value, anchor, span, pointer)) = finished {
            if let Some(t) = tables.as_deref_mut() {
                t.values.insert(pointer, range(&span));
            }
            if anchor > 0 {
                anchors.insert(anchor, value.clone());
            }
            match stack.last_mut() {
                None => root = Some(value),
                Some(f) => match &mut f.value {
                    Value::Array(a) => a.push(value),
                    Value::Object(m) => {
                        if f.pending
                            && let Some(slot) = m.values_mut().next_back()
                        {
                            *slot = value;
                        }
                        f.pending = false;
                        f.key = None;
                    }
                    _ => {}
                },
            }
        }
    }
    let end = base + chunk.len();
    match root {
        None | Some(Value::Null) => Ok(None),
        Some(value) => Ok(Some(Document {
            value,
            range: root_start.unwrap_or(base)..end,
            chunk: base..end,
            spans: OnceLock::new(),
        })),
    }
}

/// Nodes in `v`, counting at most to `limit`.
fn count_nodes(v: &Value, limit: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        if n >= limit {
            return n;
        }
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    n
}

/// A plain scalar under the YAML 1.2 core schema: null, booleans, integers (decimal, `0o`, `0x`), floats; anything
/// else (including `.inf`/`.nan`, which JSON cannot hold) a string.
fn resolve(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = |t: &str, radix: u32| !t.is_empty() && t.chars().all(|c| c.is_digit(radix));
    if let Some(h) = s.strip_prefix("0x")
        && digits(h, 16)
        && let Ok(i) = u64::from_str_radix(h, 16)
    {
        return Value::Number(i.into());
    }
    if let Some(o) = s.strip_prefix("0o")
        && digits(o, 8)
        && let Ok(i) = u64::from_str_radix(o, 8)
    {
        return Value::Number(i.into());
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits(unsigned, 10) {
        if let Ok(i) = s.parse::<i64>() {
            return Value::Number(i.into());
        }
        if let Ok(u) = s.trim_start_matches('+').parse::<u64>() {
            return Value::Number(u.into());
        }
    }
    let float_like = {
        let (mant, exp) = match unsigned.find(['e', 'E']) {
            Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
            None => (unsigned, None),
        };
        let mant_ok = match mant.split_once('.') {
            Some((a, b)) => {
                (digits(a, 10) || a.is_empty())
                    && (digits(b, 10) || b.is_empty())
                    && !(a.is_empty() && b.is_empty())
            }
            None => digits(mant, 10),
        };
        let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e), 10));
        mant_ok && exp_ok
    };
    if float_like
        && let Ok(f) = s.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_values_and_spans() {
        let text = "apiVersion: v1\nkind: A\nspec:\n  n: 3\n  l: [a, 'b']\n---\n# empty\n---\n{\"kind\": \"B\", \"x\": null}\n";
        let docs = load(text);
        assert_eq!(docs.len(), 2);
        let a = docs[0].as_ref().expect("first");
        assert_eq!(
            a.value,
            serde_json::json!({"apiVersion": "v1", "kind": "A", "spec": {"n": 3, "l": ["a", "b"]}})
        );
        assert_eq!(&text[a.span_of("/spec/n", text)], "3");
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
        let text = "# héllo wörld\nkind: A\nname: \"é→x\"\n---\nkind: B\nn: [1, ü]\n---\nbad: [\n";
        let docs = load(text);
        assert_eq!(docs.len(), 3);
        let a = docs[0].as_ref().expect("first");
        assert_eq!(&text[a.label_of("", text)], "kind: A");
        assert_eq!(&text[a.span_of("/name", text)], "\"é→x\"");
        let b = docs[1].as_ref().expect("second");
        assert_eq!(&text[b.span_of("/n/1", text)], "ü");
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
    fn core_schema_scalars() {
        assert_eq!(resolve("12"), serde_json::json!(12));
        assert_eq!(resolve("-1.5e3"), serde_json::json!(-1500.0));
        assert_eq!(resolve("0x1F"), serde_json::json!(31));
        assert_eq!(resolve("yes"), serde_json::json!("yes"));
        assert_eq!(resolve("~"), Value::Null);
        assert_eq!(resolve(".inf"), serde_json::json!(".inf"));
        assert_eq!(resolve("1.2.3"), serde_json::json!("1.2.3"));
    }
}
