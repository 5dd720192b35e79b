//! One YAML document read into the JSON value kubectl sends for it, from saphyr-parser events, with the byte range
//! of every value and key when asked.
//!
//! upstream: `sigs.k8s.io/yaml` `YAMLToJSON` (what `NewYAMLOrJSONDecoder` applies to each piece): go-yaml v2
//! `Unmarshal` into an `interface{}` (its `decoder`: scalars resolved by YAML 1.1 rules ([`super::schema`]), the
//! last of duplicate keys wins, a merge key `<<` writes the merged mapping's entries over those already read, a
//! sequence of mappings in reverse order so that the first wins, and later keys overwrite merged ones; aliases are
//! copies of the anchored node), `convertToJSONableObject` (keys to strings) and `json.Marshal` (infinite and NaN
//! floats cannot be written). Only the piece's first document is read, as go-yaml does.

use super::kubectl_json;
use super::schema::{self, Scalar};
use super::{LoadError, MAX_ALIAS_NODES, MAX_DEPTH, Spans};
use saphyr_parser::{Event, Marker, Parser, ScalarStyle, ScanError, Span};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::ops::Range;

/// `tag:yaml.org,2002:merge`.
const MERGE_TAG: &str = "tag:yaml.org,2002:merge";

/// A document's value and where its first token is.
pub(super) struct Read {
    pub(super) value: Value,
    pub(super) start: usize,
}

/// What an anchor names.
enum Anchored {
    /// A scalar, as go-yaml decoded it (a key made from an alias needs its Go type).
    Scalar(Scalar),
    /// A collection, as JSON.
    Node(Value),
}

/// A mapping's key read, its value pending.
enum Key {
    Name(String),
    Merge,
}

struct Frame {
    body: Body,
    key: Option<Key>,
    start: Marker,
    anchor: usize,
    /// JSON Pointer of the collection when spans are recorded (`None` inside a merged mapping: its entries are
    /// recorded where they are merged).
    pointer: Option<String>,
}

enum Body {
    Seq(Vec<Value>),
    Map(Map<String, Value>),
}

/// A value read, to be attached to the collection on top of the stack.
struct Finished {
    value: Value,
    span: Span,
    pointer: Option<String>,
    /// Read through an alias (a merge takes an alias only of a mapping, a sequence only written out).
    alias: bool,
}

/// What go-yaml reads but `sigs.k8s.io/yaml` or `encoding/json` then cannot write: `nil` and `uint64` keys,
/// infinite and NaN floats. They are errors only if they are still in the document once duplicate keys and merges
/// have overwritten what they overwrite, so they stand in the value as unique marker strings until the end.
#[derive(Default)]
struct Unwritable {
    found: Vec<(Range<usize>, String)>,
}

/// Marks start and end with NUL, which no key or string of a manifest meant for kubectl holds at both ends with
/// this text between.
const MARK: &str = "\u{0}vgc-unwritable\u{0}";

impl Unwritable {
    fn mark(&mut self, at: Range<usize>, why: String) -> String {
        self.found.push((at, why));
        format!("{MARK}{}\u{0}", self.found.len() - 1)
    }

    fn which(&self, s: &str) -> Option<&(Range<usize>, String)> {
        let n = s.strip_prefix(MARK)?.strip_suffix('\u{0}')?;
        self.found.get(n.parse::<usize>().ok()?)
    }

    /// The first mark left in `v`, in document order.
    fn first_left(&self, v: &Value) -> Option<&(Range<usize>, String)> {
        match v {
            Value::String(s) => self.which(s),
            Value::Array(a) => a.iter().find_map(|v| self.first_left(v)),
            Value::Object(m) => m
                .iter()
                .find_map(|(k, v)| self.which(k).or_else(|| self.first_left(v))),
            _ => None,
        }
    }
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

fn child(pointer: Option<&String>, seg: &str) -> Option<String> {
    pointer.map(|p| format!("{p}/{}", escape(seg)))
}

/// Removes the spans of `pointer` and of everything below it (a value about to be replaced).
fn forget(t: &mut Spans, pointer: &str) {
    let below = format!("{pointer}/");
    for table in [&mut t.values, &mut t.keys] {
        table.remove(pointer);
        let gone: Vec<String> = table
            .range(below.clone()..)
            .take_while(|(k, _)| k.starts_with(&below))
            .map(|(k, _)| k.clone())
            .collect();
        for k in gone {
            table.remove(&k);
        }
    }
}

/// Reads the first document of `chunk` (byte `base` of the file); `Ok(None)` when it is empty or null. With
/// `tables`, also records where every value and key is ([`Spans`]).
pub(super) fn read(
    chunk: &str,
    base: usize,
    mut tables: Option<&mut Spans>,
) -> Result<Option<Read>, LoadError> {
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
    let byte = |m: &Marker| {
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
        let mut at = byte(e.marker()).min(last.saturating_sub(1).max(base));
        // `last - 1` can fall inside a multi-byte last character (found by the validate_reader fuzz target: the
        // reports then said line 0, column 0): back to the character's start.
        while at > base && !chunk.is_char_boundary(at - base) {
            at -= 1;
        }
        located(at..at, format!("invalid YAML: {}", e.info()))
    };

    let with_spans = tables.is_some();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Anchored> = HashMap::new();
    let mut unwritable = Unwritable::default();
    let mut expanded = 0usize;
    let mut root: Option<Value> = None;
    let mut root_start: Option<usize> = None;
    for ev in Parser::new_from_str(chunk) {
        let (ev, span) = ev.map_err(|e| scan(&e))?;
        // Whether the event is a mapping key (the top of the stack is a mapping waiting for one).
        let at_key = matches!(
            stack.last(),
            Some(Frame {
                body: Body::Map(_),
                key: None,
                ..
            })
        );
        // The pointer of the value this event starts, when spans are recorded.
        let pointer = || -> Option<String> {
            if !with_spans {
                return None;
            }
            match stack.last() {
                None => Some(String::new()),
                Some(f) => match (&f.body, &f.key) {
                    (Body::Seq(a), _) => child(f.pointer.as_ref(), &a.len().to_string()),
                    (Body::Map(_), Some(Key::Name(k))) => child(f.pointer.as_ref(), k),
                    _ => None,
                },
            }
        };
        if stack.is_empty() && !matches!(ev, Event::StreamStart | Event::DocumentStart(_)) {
            root_start.get_or_insert_with(|| byte(&span.start));
        }
        let finished = match ev {
            Event::StreamStart | Event::StreamEnd | Event::Nothing | Event::DocumentStart(_) => {
                None
            }
            // go-yaml reads the first document of what it is given.
            Event::DocumentEnd => break,
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                // Tags on collections are not looked at (go-yaml decodes a sequence or mapping by its kind).
                if stack.len() >= MAX_DEPTH {
                    return Err(located(
                        range(&span),
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                if at_key {
                    return Err(located(
                        range(&span),
                        "a mapping key must be a scalar".into(),
                    ));
                }
                let body = if matches!(ev, Event::SequenceStart(..)) {
                    Body::Seq(Vec::new())
                } else {
                    Body::Map(Map::new())
                };
                let pointer = pointer();
                stack.push(Frame {
                    body,
                    key: None,
                    start: span.start,
                    anchor,
                    pointer,
                });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => stack.pop().map(|f| {
                let value = match f.body {
                    Body::Seq(a) => Value::Array(a),
                    Body::Map(m) => Value::Object(m),
                };
                if f.anchor > 0 {
                    anchors.insert(f.anchor, Anchored::Node(value.clone()));
                }
                Finished {
                    value,
                    span: Span::new(f.start, span.end),
                    pointer: f.pointer,
                    alias: false,
                }
            }),
            Event::Scalar(text, style, anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                let plain = style == ScalarStyle::Plain;
                if at_key
                    && text == "<<"
                    && ((plain && tag.is_none()) || matches!(tag.as_deref(), Some("!" | MERGE_TAG)))
                {
                    if let Some(f) = stack.last_mut() {
                        f.key = Some(Key::Merge);
                    }
                    continue;
                }
                let scalar = schema::decode(text, plain, tag.as_deref())
                    .map_err(|m| located(range(&span), m))?;
                if anchor > 0 {
                    anchors.insert(anchor, Anchored::Scalar(scalar.clone()));
                }
                if at_key {
                    let key = kubectl_json::key_string(scalar)
                        .unwrap_or_else(|why| unwritable.mark(range(&span), why));
                    set_key(&mut stack, key, || range(&span), tables.as_deref_mut());
                    continue;
                }
                let value = kubectl_json::to_json(scalar)
                    .unwrap_or_else(|why| Value::String(unwritable.mark(range(&span), why)));
                Some(Finished {
                    value,
                    span,
                    pointer: pointer(),
                    alias: false,
                })
            }
            Event::Alias(id) => {
                let Some(anchored) = anchors.get(&id) else {
                    return Err(located(range(&span), "unknown anchor".into()));
                };
                if at_key {
                    let Anchored::Scalar(s) = anchored else {
                        return Err(located(
                            range(&span),
                            "a mapping key must be a scalar".into(),
                        ));
                    };
                    let key = kubectl_json::key_string(s.clone())
                        .unwrap_or_else(|why| unwritable.mark(range(&span), why));
                    set_key(&mut stack, key, || range(&span), tables.as_deref_mut());
                    continue;
                }
                let value = match anchored {
                    Anchored::Scalar(s) => kubectl_json::to_json(s.clone())
                        .unwrap_or_else(|why| Value::String(unwritable.mark(range(&span), why))),
                    Anchored::Node(v) => {
                        expanded += count_nodes(v, MAX_ALIAS_NODES + 1);
                        if expanded > MAX_ALIAS_NODES {
                            return Err(located(
                                range(&span),
                                format!("alias expansion exceeds {MAX_ALIAS_NODES} nodes"),
                            ));
                        }
                        v.clone()
                    }
                };
                Some(Finished {
                    value,
                    span,
                    pointer: pointer(),
                    alias: true,
                })
            }
        };
        let Some(done) = finished else { continue };
        // Byte offsets cost a scan of the text before them in non-ASCII text without a table: only when needed.
        let at = || range(&done.span);
        if let (Some(t), Some(p)) = (tables.as_deref_mut(), done.pointer.as_ref()) {
            t.values.insert(p.clone(), at());
        }
        match stack.last_mut() {
            None => root = Some(done.value),
            Some(f) => {
                let pointer = f.pointer.clone();
                match (&mut f.body, f.key.take()) {
                    (Body::Seq(a), _) => a.push(done.value),
                    (Body::Map(m), Some(Key::Name(k))) => {
                        m.insert(k, done.value);
                    }
                    (Body::Map(m), _) => {
                        let merged = merge(m, done.value, done.alias)
                            .map_err(|m| located(at(), m.into()))?;
                        if let (Some(t), Some(p)) = (tables.as_deref_mut(), pointer) {
                            for k in merged {
                                let p = format!("{p}/{}", escape(&k));
                                forget(t, &p);
                                t.values.insert(p, at());
                            }
                        }
                    }
                }
            }
        }
    }
    let Some(value) = root.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    if !unwritable.found.is_empty()
        && let Some((at, why)) = unwritable.first_left(&value)
    {
        return Err(located(at.clone(), why.clone()));
    }
    Ok(Some(Read {
        value,
        start: root_start.unwrap_or(base),
    }))
}

/// Sets the pending key of the mapping on top of `stack` (recording where it is; a duplicate key's earlier value
/// is about to be replaced, its spans are dropped).
fn set_key(
    stack: &mut [Frame],
    key: String,
    at: impl FnOnce() -> Range<usize>,
    tables: Option<&mut Spans>,
) {
    let Some(f) = stack.last_mut() else { return };
    if let (Some(t), Some(p)) = (tables, f.pointer.as_ref()) {
        let p = format!("{p}/{}", escape(&key));
        if matches!(&f.body, Body::Map(m) if m.contains_key(&key)) {
            forget(t, &p);
        }
        t.keys.insert(p, at());
    }
    f.key = Some(Key::Name(key));
}

/// upstream: yaml.v2 `decoder.merge`: the value of a `<<` key written over the entries of `map`. Returns the keys
/// written.
fn merge(
    map: &mut Map<String, Value>,
    value: Value,
    alias: bool,
) -> Result<Vec<String>, &'static str> {
    const WANT_MAP: &str = "map merge requires map or sequence of maps as the value";
    let mut written = Vec::new();
    let mut write = |m: Map<String, Value>, written: &mut Vec<String>| {
        for (k, v) in m {
            written.push(k.clone());
            map.insert(k, v);
        }
    };
    match value {
        Value::Object(m) => write(m, &mut written),
        // A sequence written out (not an alias of one), of mappings: the last first, so that earlier ones win.
        Value::Array(items) if !alias => {
            if !items.iter().all(Value::is_object) {
                return Err(WANT_MAP);
            }
            for item in items.into_iter().rev() {
                if let Value::Object(m) = item {
                    write(m, &mut written);
                }
            }
        }
        _ => return Err(WANT_MAP),
    }
    Ok(written)
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
