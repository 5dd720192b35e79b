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

/// Deepest nesting of sequences and mappings accepted in one document.
pub const MAX_DEPTH: usize = 256;
/// Most nodes alias expansion may produce in one document (saphyr's own loader default).
pub const MAX_ALIAS_NODES: usize = 100_000;

/// One document of a manifest stream: its JSON value and where each value is in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The document as JSON.
    pub value: Value,
    /// JSON Pointer (RFC 6901) → byte range in the file of that value (a collection's range runs from its first to
    /// its last token; an aliased value's is the alias's).
    pub spans: BTreeMap<String, Range<usize>>,
    /// JSON Pointer of a mapping entry → byte range of its key (where an error about a missing member of that
    /// entry's value is shown).
    pub keys: BTreeMap<String, Range<usize>>,
    /// Byte range of the whole document in the file.
    pub range: Range<usize>,
}

impl Document {
    /// The byte range of the value at `pointer`, or of its nearest ancestor that has one (a missing field is
    /// reported at the object that should hold it).
    #[must_use]
    pub fn span_of(&self, pointer: &str) -> Range<usize> {
        let mut p = pointer;
        loop {
            if let Some(r) = self.spans.get(p) {
                return r.clone();
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return self.range.start..self.range.start,
            }
        }
    }

    /// Where to show an error about the value at `pointer` (`text` is the file): a scalar's own range; for a mapping
    /// entry holding a collection, its key; otherwise the first line of the value (of its nearest ancestor with a
    /// range, [`Document::span_of`]).
    #[must_use]
    pub fn label_of(&self, pointer: &str, text: &str) -> Range<usize> {
        let scalar = self
            .value
            .pointer(pointer)
            .is_some_and(|v| !(v.is_object() || v.is_array()));
        if !scalar && let Some(k) = self.keys.get(pointer) {
            return k.clone();
        }
        let r = self.span_of(pointer);
        let line_end = text
            .get(r.clone())
            .and_then(|s| s.find('\n'))
            .map_or(r.end, |i| r.start + i);
        r.start..line_end.max(r.start)
    }
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
        .filter_map(|r| load_one(&text[r.clone()], r.start).transpose())
        .collect()
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
    /// For mappings: the pending key and its range.
    key: Option<String>,
    start: usize,
    anchor: usize,
    pointer: String,
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

/// Parses one document chunk starting at byte `base` of the file; `Ok(None)` for an empty document.
fn load_one(chunk: &str, base: usize) -> Result<Option<Document>, LoadError> {
    // Marker indexes are in characters: map them to bytes.
    let bytes_at: Vec<usize> = chunk
        .char_indices()
        .map(|(i, _)| i)
        .chain([chunk.len()])
        .collect();
    let byte =
        |m: &saphyr_parser::Marker| base + bytes_at.get(m.index()).copied().unwrap_or(chunk.len());
    let range = |s: &Span| byte(&s.start)..byte(&s.end).max(byte(&s.start));
    let located = |s: Range<usize>, message: String| LoadError { span: s, message };
    // An error at the end of the chunk (an unclosed collection) is shown at its last character, not on the next
    // document's marker line.
    let last = base + chunk.trim_end().len();
    let scan = |e: &ScanError| {
        let at = byte(e.marker()).min(last.saturating_sub(1).max(base));
        located(at..at, format!("invalid YAML: {}", e.info()))
    };

    let mut stack: Vec<Frame> = Vec::new();
    let mut spans: BTreeMap<String, Range<usize>> = BTreeMap::new();
    let mut keys: BTreeMap<String, Range<usize>> = BTreeMap::new();
    let mut anchors: HashMap<usize, Value> = HashMap::new();
    let mut expanded = 0usize;
    let mut root: Option<Value> = None;
    for ev in Parser::new_from_str(chunk) {
        let (ev, span) = ev.map_err(|e| scan(&e))?;
        let r = range(&span);
        // The pointer of the value this event starts (in the frame on top of the stack).
        let child_pointer = |stack: &[Frame]| -> Option<String> {
            match stack.last() {
                None => Some(String::new()),
                Some(f) => match &f.value {
                    Value::Array(a) => Some(format!("{}/{}", f.pointer, a.len())),
                    Value::Object(_) => f
                        .key
                        .as_ref()
                        .map(|k| format!("{}/{}", f.pointer, escape(k))),
                    _ => None,
                },
            }
        };
        let mut finished: Option<(Value, usize, Range<usize>, String)> = None;
        match ev {
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
            Event::DocumentStart(_) | Event::DocumentEnd => {}
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(located(
                        r,
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let in_key =
                    matches!(stack.last(), Some(f) if f.value.is_object() && f.key.is_none());
                if in_key {
                    return Err(located(r, "a mapping key must be a scalar".into()));
                }
                let pointer = child_pointer(&stack).unwrap_or_default();
                let value = if matches!(ev, Event::SequenceStart(..)) {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                };
                stack.push(Frame {
                    value,
                    key: None,
                    start: r.start,
                    anchor,
                    pointer,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(f) = stack.pop() {
                    finished = Some((f.value, f.anchor, f.start..r.end, f.pointer));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                // A mapping key.
                if let Some(f) = stack.last_mut()
                    && f.value.is_object()
                    && f.key.is_none()
                {
                    let key = text.into_owned();
                    if f.value.as_object().is_some_and(|m| m.contains_key(&key)) {
                        return Err(located(r, format!("duplicate key {key:?}")));
                    }
                    keys.insert(format!("{}/{}", f.pointer, escape(&key)), r);
                    f.key = Some(key);
                    continue;
                }
                let pointer = child_pointer(&stack).unwrap_or_default();
                let forced_string = tag
                    .as_ref()
                    .is_some_and(|t| t.suffix == "str" || t.suffix == "binary");
                let value = if forced_string || style != ScalarStyle::Plain {
                    Value::String(text.into_owned())
                } else {
                    resolve(&text)
                };
                finished = Some((value, anchor, r, pointer));
            }
            Event::Alias(id) => {
                if let Some(f) = stack.last_mut()
                    && f.value.is_object()
                    && f.key.is_none()
                {
                    return Err(located(r, "an alias cannot be a mapping key here".into()));
                }
                let Some(v) = anchors.get(&id) else {
                    return Err(located(r, "unknown anchor".into()));
                };
                expanded += count_nodes(v, MAX_ALIAS_NODES + 1);
                if expanded > MAX_ALIAS_NODES {
                    return Err(located(
                        r,
                        format!("alias expansion exceeds {MAX_ALIAS_NODES} nodes"),
                    ));
                }
                let pointer = child_pointer(&stack).unwrap_or_default();
                finished = Some((v.clone(), 0, r, pointer));
            }
        }
        if let Some((value, anchor, r, pointer)) = finished {
            spans.insert(pointer, r);
            if anchor > 0 {
                anchors.insert(anchor, value.clone());
            }
            match stack.last_mut() {
                None => root = Some(value),
                Some(f) => match &mut f.value {
                    Value::Array(a) => a.push(value),
                    Value::Object(m) => {
                        if let Some(k) = f.key.take() {
                            m.insert(k, value);
                        }
                    }
                    _ => {}
                },
            }
        }
    }
    let end = base + chunk.len();
    match root {
        None | Some(Value::Null) => Ok(None),
        Some(value) => {
            let start = spans.get("").map_or(base, |r| r.start);
            Ok(Some(Document {
                value,
                spans,
                keys,
                range: start..end,
            }))
        }
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
        assert_eq!(&text[a.span_of("/spec/n")], "3");
        assert_eq!(&text[a.span_of("/spec/l/1")], "'b'");
        assert_eq!(
            &text[a.span_of("/spec/missing")],
            &text[a.spans["/spec"].clone()]
        );
        let b = docs[1].as_ref().expect("second");
        assert_eq!(b.value, serde_json::json!({"kind": "B", "x": null}));
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
