//! Shared by the differential runs (`oracle.rs`, `k8s_e2e.rs`, `conformance.rs`): running a case
//! runner process (JSON cases on stdin, JSON results on stdout) and the canonical form that makes error lists
//! comparable where upstream defines no order.

use serde_json::Value;
use std::process::{Command, Stdio};

/// The value of environment variable `name` parsed as `T`, or `default` when it is unset or does not parse (the
/// size and seed knobs of the differential runs).
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The first map-key subscript of an error line's field path: (path before it, key). List indices (all digits)
/// are not map keys.
fn map_key(line: &str) -> Option<(String, String)> {
    let field = line.split(" | ").next().unwrap_or("");
    let mut from = 0;
    while let Some(open) = field[from..].find('[').map(|i| i + from) {
        let close = field[open..].find(']').map(|i| i + open)?;
        let key = &field[open + 1..close];
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_digit()) {
            return Some((field[..open].to_string(), key.to_string()));
        }
        from = close + 1;
    }
    None
}

/// Calls `f` with the field paths of the call drivers' path shapes, by shape number: 0 the root (upstream's nil
/// path), 1 `spec.value`, 2 `items[2].name`, 3 `labels[a.b/c]` (`path(k)` in `tests/upstream/*_calls.go`).
pub fn with_path_shapes<R>(f: impl FnOnce(&[&vgc_runtime::Path<'_>; 4]) -> R) -> R {
    use vgc_runtime::Path;
    let root = Path::Root;
    let spec = root.child("spec");
    let spec_value = spec.child("value");
    let items = root.child("items");
    let item = items.index(2);
    let item_name = item.child("name");
    let labels = root.child("labels");
    let label = labels.key("a.b/c");
    f(&[&root, &spec_value, &item_name, &label])
}

/// A driver call's upstream error lines (`got`), and the path shape it was made at (`path`, see
/// [`with_path_shapes`]).
pub fn call_lines(call: &Value) -> (Vec<String>, usize) {
    let lines = call["got"]
        .as_array()
        .expect("got")
        .iter()
        .map(|l| l.as_str().expect("a line").to_string())
        .collect();
    let shape = usize::try_from(call["path"].as_u64().expect("path")).expect("a shape");
    (lines, shape)
}

/// Runs a call driver (`tests/upstream/*_calls.go`, built at `binary`) for `n` calls from `seed`
/// (`VGC_CALLS`, `VGC_CALLS_SEED`) and returns its calls, one JSON object per output line; panics with its stderr
/// when it fails.
pub fn driver_calls(binary: &std::path::Path, n: usize, seed: u64) -> Vec<Value> {
    let out = Command::new(binary)
        .env("VGC_CALLS", n.to_string())
        .env("VGC_CALLS_SEED", seed.to_string())
        .output()
        .expect("the driver runs");
    assert!(
        out.status.success(),
        "driver: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a call"))
        .collect()
}

/// Upstream iterates Go maps in random order (spec §4), so errors reported while iterating one map have no defined
/// order. Canonical form: within each run of consecutive errors under the same map (same path before the first
/// map-key subscript), each key's errors move together, keys sorted, each key's own lines in their order.
/// Map-key validators (`eachKey`) report at the map's own path, so a run of consecutive errors at one identical
/// path that quotes at least two different bad values is sorted (compared as a multiset). Everything else — list
/// order, check order within a key — keeps its order and is compared exactly.
pub fn canonical(lines: &Value) -> Vec<String> {
    by_key_value(&by_map_key(
        lines
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l.as_str().map(str::to_string))
            .collect(),
    ))
}

fn field_of(line: &str) -> &str {
    line.split(" | ").next().unwrap_or("")
}

/// The quoted bad value of an `Invalid value: "…"` / `Unsupported value: "…"` / `Duplicate value: "…"` line.
fn quoted_value(line: &str) -> Option<&str> {
    let body = line.split(" | ").nth(1)?;
    let rest = [
        "Invalid value: \"",
        "Unsupported value: \"",
        "Duplicate value: \"",
    ]
    .iter()
    .find_map(|p| body.strip_prefix(p))?;
    rest.split("\":").next()
}

fn by_key_value(lines: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let field = field_of(&lines[i]);
        let mut j = i + 1;
        while j < lines.len() && field_of(&lines[j]) == field {
            j += 1;
        }
        let mut run = lines[i..j].to_vec();
        let values: std::collections::BTreeSet<&str> =
            run.iter().filter_map(|l| quoted_value(l)).collect();
        if values.len() > 1 {
            // Errors of several map keys at one path (`eachKey`): lines of one key are not delimited (some quote no
            // value), so the run compares as a multiset.
            run.sort();
        }
        out.extend(run);
        i = j;
    }
    out
}

fn by_map_key(lines: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let Some((map, _)) = map_key(&lines[i]) else {
            out.push(lines[i].clone());
            i += 1;
            continue;
        };
        let mut j = i;
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        while j < lines.len() {
            match map_key(&lines[j]) {
                Some((m, k)) if m == map => {
                    match groups.iter_mut().find(|(g, _)| *g == k) {
                        Some((_, ls)) => ls.push(lines[j].clone()),
                        None => groups.push((k, vec![lines[j].clone()])),
                    }
                    j += 1;
                }
                _ => break,
            }
        }
        groups.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(groups.into_iter().flat_map(|(_, ls)| ls));
        i = j;
    }
    out
}

/// Runs a case runner (Go driver or Rust runner) with `input` (a JSON array of cases) on its stdin and returns its
/// JSON result lines, one per case; panics when it fails.
pub fn run(cmd: &mut Command, input: &str) -> Vec<Value> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runner starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let text = input.to_string();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, text.as_bytes()));
    let out = child.wait_with_output().expect("runner finishes");
    writer.join().expect("writer").expect("write cases");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("runner JSON")
}

/// How one case's results compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Identical error lists.
    Same,
    /// Identical once map-iteration order is canonical ([`canonical`]).
    OrderOnly,
    /// Differs only as deviation D11 of `docs/deviations.md` allows: inside `Duplicate value` (or `validateFalse`)
    /// values, upstream
    /// prints an explicit empty list or map (`[]`, `{}`) where vgc prints `null` (vgc does not keep Go's nil
    /// slice apart from an empty one).
    NilVsEmpty,
    /// Deviation D2 of `docs/deviations.md`: upstream's generated code dereferenced a nil pointer and panicked
    /// (spec §9.2); vgc returned an error list.
    UpstreamNilPanic,
    /// Anything else, including a decoding failure on one side only.
    Mismatch,
}

/// The message of a Go nil-pointer dereference, as the driver reports a recovered panic.
const NIL_PANIC: &str = "panic: runtime error: invalid memory address or nil pointer dereference";

/// True when `up` and `ours` hold the same lines (as multisets) and the lines whose field path has no map-key
/// segment (`[key]` with a non-numeric key) come in the same order: Go iterates maps in random order, so errors
/// under map entries — at any depth, e.g. `t4.mt3[a].t4.mt3[b]` — may come in any order relative to each other
/// and to the rest; every other error keeps upstream's order.
fn map_order_only(up: &[String], ours: &[String]) -> bool {
    fn under_map(line: &str) -> bool {
        let field = field_of(line);
        field
            .split('[')
            .skip(1)
            .any(|seg| !seg.starts_with(|c: char| c.is_ascii_digit()))
    }
    let mut a: Vec<&String> = up.iter().collect();
    let mut b: Vec<&String> = ours.iter().collect();
    a.sort();
    b.sort();
    if a != b {
        return false;
    }
    let fixed =
        |v: &[String]| -> Vec<String> { v.iter().filter(|l| !under_map(l)).cloned().collect() };
    fixed(up) == fixed(ours)
}

/// True when `up` equals `ours` as multisets of lines (map iteration order aside) except for D11 substitutions (at
/// least one), each in a `Duplicate value` line or a `validateFalse` `Invalid value` line.
fn nil_vs_empty_only(up: &[String], ours: &[String]) -> bool {
    if up.len() != ours.len() {
        return false;
    }
    let mut left: Vec<Option<&String>> = ours.iter().map(Some).collect();
    let mut take = |pred: &dyn Fn(&String) -> bool| -> bool {
        match left.iter_mut().find(|o| o.is_some_and(pred)) {
            Some(slot) => {
                *slot = None;
                true
            }
            None => false,
        }
    };
    let mut any = false;
    for u in up {
        if take(&|o| o == u) {
            continue;
        }
        if !take(&|o| d11_pair(u, o)) {
            return false;
        }
        any = true;
    }
    any
}

/// `u` (upstream) and `o` (vgc) are the same line except that some `[]`/`{}` in `u` is `null` in `o`.
fn d11_pair(u: &str, o: &str) -> bool {
    let shows_value = |l: &str| {
        l.contains(" | Duplicate value: ")
            || (l.contains(" | Invalid value: ") && l.contains(" | origin=validateFalse | "))
    };
    if !(shows_value(u) && shows_value(o)) {
        return false;
    }
    let (u, o) = (u.as_bytes(), o.as_bytes());
    let (mut i, mut j, mut any) = (0, 0, false);
    while i < u.len() && j < o.len() {
        if (u[i..].starts_with(b"[]") || u[i..].starts_with(b"{}")) && o[j..].starts_with(b"null") {
            i += 2;
            j += 4;
            any = true;
        } else if u[i] == o[j] {
            i += 1;
            j += 1;
        } else {
            return false;
        }
    }
    any && i == u.len() && j == o.len()
}

/// Compares one case's upstream result with vgc's (`{"got": [lines]}` or `{"error": …}` each).
pub fn compare(upstream: &Value, ours: &Value) -> Outcome {
    if upstream["error"].as_str() == Some(NIL_PANIC) && ours.get("error").is_none() {
        return Outcome::UpstreamNilPanic;
    }
    if upstream.get("error").is_some() || ours.get("error").is_some() {
        return Outcome::Mismatch;
    }
    if upstream["got"] == ours["got"] {
        return Outcome::Same;
    }
    let (u, o) = (canonical(&upstream["got"]), canonical(&ours["got"]));
    if u == o || map_order_only(&u, &o) {
        Outcome::OrderOnly
    } else if nil_vs_empty_only(&u, &o) {
        Outcome::NilVsEmpty
    } else {
        Outcome::Mismatch
    }
}

/// The JSON value at an error's field path (`a.b[0].c`, `m[key]`) inside `root`.
fn at_path<'v>(root: &'v Value, path: &str) -> Option<&'v Value> {
    // upstream prints the root path (a typedef root's own errors) as `<nil>`.
    if path == "<nil>" {
        return Some(root);
    }
    let mut cur = root;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let key = &r[..end];
            cur = match cur {
                Value::Array(a) => a.get(key.parse::<usize>().ok()?)?,
                Value::Object(m) => m.get(key)?,
                _ => return None,
            };
            rest = &r[end + 1..];
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            cur = cur.as_object()?.get(&r[..end])?;
            rest = &r[end..];
        }
    }
    Some(cur)
}

/// Deviation D9 of `docs/deviations.md`: vgc reports a list-level union error (`item(…)=+k8s:unionMember` /
/// `zeroOrOneOfMember`) that upstream ratchets away because the old list was an explicit empty list (Go tells a
/// non-nil empty slice from nil; vgc's `Vec` cannot). True when vgc's lines are upstream's plus only such union
/// errors, each at a path whose old value in `case` is `[]`.
pub fn empty_old_list_union_only(case: &Value, upstream: &Value, ours: &Value) -> bool {
    let (Some(up), Some(ours)) = (upstream["got"].as_array(), ours["got"].as_array()) else {
        return false;
    };
    let mut extra = ours.clone();
    for u in up {
        match extra.iter().position(|o| o == u) {
            Some(i) => {
                extra.remove(i);
            }
            None => return false,
        }
    }
    !extra.is_empty()
        && extra.iter().all(|l| {
            let l = l.as_str().unwrap_or("");
            let field = l.split(" | ").next().unwrap_or("");
            (l.contains(" | origin=union |") || l.contains(" | origin=zeroOrOneOf |"))
                && at_path(&case["old"], field)
                    .is_some_and(|v| v.as_array().is_some_and(Vec::is_empty))
        })
}

/// The class of a mismatch between upstream's result and vgc's: `decode` when vgc's runner could not decode a case
/// upstream decoded (vgc's generated types reject JSON that Go's `encoding/json` accepts), `detail-text` when the
/// lines agree once every detail text is removed (field, error type, origin, short-circuit and stability equal) —
/// compared as sorted lists, so this class also holds order-only differences [`canonical`] cannot undo (a Go map
/// whose keys look like list indices, `m[0]`, keeps its random order) — `semantic` otherwise.
pub fn mismatch_class(up: &Value, ours: &Value) -> &'static str {
    let strip = |v: &Value| -> Vec<String> {
        let mut lines: Vec<String> = canonical(v)
            .iter()
            .map(|l| {
                let parts: Vec<&str> = l.split(" | ").collect();
                let body = parts.get(1).copied().unwrap_or_default();
                let kind = body.split(':').next().unwrap_or_default();
                format!(
                    "{} | {kind} | {}",
                    parts.first().copied().unwrap_or_default(),
                    parts[parts.len().saturating_sub(3)..].join(" | ")
                )
            })
            .collect();
        lines.sort();
        lines
    };
    if up.get("error").is_none() && ours.get("error").is_some() {
        "decode"
    } else if up.get("error").is_none()
        && ours.get("error").is_none()
        && strip(&up["got"]) == strip(&ours["got"])
    {
        "detail-text"
    } else {
        "semantic"
    }
}
