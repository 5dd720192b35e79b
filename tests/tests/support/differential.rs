//! Shared by the differential runs (`oracle.rs` on the example, `k8s_e2e.rs` on k8s.io/api): running a case
//! runner process (JSON cases on stdin, JSON results on stdout) and the canonical form that makes error lists
//! comparable where upstream defines no order.

use serde_json::Value;
use std::process::{Command, Stdio};

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

/// Upstream iterates Go maps in random order (spec §4), so errors reported while iterating one map have no defined
/// order. Canonical form: within each run of consecutive errors under the same map (same path before the first
/// map-key subscript), each key's errors move together, keys sorted, each key's own lines in their order.
/// Map-key validators (`eachKey`) report at the map's own path, so within a run of consecutive errors at one
/// identical path the errors are grouped by the bad value they quote (lines quoting none stay with the line before)
/// and the groups sorted, when at least two values occur. Everything else — list order, check order within a key —
/// keeps its order and is compared exactly.
pub(crate) fn canonical(lines: &Value) -> Vec<String> {
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
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for l in &lines[i..j] {
            match (quoted_value(l), groups.last_mut()) {
                (None, Some((_, g))) => g.push(l.clone()),
                (v, _) => groups.push((v.unwrap_or("").to_string(), vec![l.clone()])),
            }
        }
        let distinct: std::collections::BTreeSet<&String> = groups.iter().map(|(v, _)| v).collect();
        if distinct.len() > 1 {
            groups.sort_by(|a, b| a.0.cmp(&b.0));
        }
        out.extend(groups.into_iter().flat_map(|(_, g)| g));
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

pub(crate) fn run(cmd: &mut Command, input: &str) -> Vec<Value> {
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
pub(crate) enum Outcome {
    /// Identical error lists.
    Same,
    /// Identical once map-iteration order is canonical ([`canonical`]).
    OrderOnly,
    /// Differs only as deviation D11 of `docs/deviations.md` allows: inside `Duplicate value` details, upstream
    /// prints an explicit empty list or map (`[]`, `{}`) where vgc prints `null` (vgc does not keep Go's nil
    /// slice apart from an empty one).
    NilVsEmpty,
    /// Anything else, including a decoding failure on one side only.
    Mismatch,
}

/// True when `up` equals `ours` except for D11 substitutions (at least one), each in a `Duplicate value` line.
fn nil_vs_empty_only(up: &[String], ours: &[String]) -> bool {
    if up.len() != ours.len() {
        return false;
    }
    let mut any = false;
    for (u, o) in up.iter().zip(ours) {
        if u == o {
            continue;
        }
        if !(u.contains(" | Duplicate value: ") && o.contains(" | Duplicate value: ")) {
            return false;
        }
        let (u, o) = (u.as_bytes(), o.as_bytes());
        let (mut i, mut j) = (0, 0);
        while i < u.len() && j < o.len() {
            if (u[i..].starts_with(b"[]") || u[i..].starts_with(b"{}"))
                && o[j..].starts_with(b"null")
            {
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
        if i != u.len() || j != o.len() {
            return false;
        }
    }
    any
}

/// Compares one case's upstream result with vgc's (`{"got": [lines]}` or `{"error": …}` each).
pub(crate) fn compare(upstream: &Value, ours: &Value) -> Outcome {
    if upstream.get("error").is_some() || ours.get("error").is_some() {
        return Outcome::Mismatch;
    }
    if upstream["got"] == ours["got"] {
        return Outcome::Same;
    }
    let (u, o) = (canonical(&upstream["got"]), canonical(&ours["got"]));
    if u == o {
        Outcome::OrderOnly
    } else if nil_vs_empty_only(&u, &o) {
        Outcome::NilVsEmpty
    } else {
        Outcome::Mismatch
    }
}
