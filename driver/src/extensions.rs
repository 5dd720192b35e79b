//! `--validation-extensions-file` (upstream validation-gen's flag of the same name, kubernetes#142116, 1.38):
//! project-defined `+k8s:format` values.
//!
//! Each file holds one or more YAML documents `formats: [{name, docs, pattern, message}]`, read strictly (an
//! unknown field is an error). [`load`] checks every entry as upstream's loader does and reports each problem with
//! upstream's text (prefix `Failed loading validation extensions: `) as a located diagnostic in the file.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use vgc_ir::extensions::ProjectFormat;
use vgc_ir::{Code, Diagnostic};

/// Upstream's prefix of every load error.
pub const PREFIX: &str = "Failed loading validation extensions: ";

/// The name syntax upstream requires.
const NAME_SYNTAX: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    #[serde(default)]
    formats: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[serde(default)]
    name: String,
    #[serde(default)]
    docs: String,
    #[serde(default)]
    pattern: String,
    #[serde(default)]
    message: String,
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$` without a regex: lower-case alphanumeric words joined by single dashes.
fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && n.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The byte offset of the `-` of the `i`-th block list item of `text` (entries are counted across documents, as
/// [`load`] numbers them per file), to locate an entry's problem; 0 when not found. Best effort: it assumes the
/// file's only block lists are the `formats:` lists (flow-style `[{…}]` lists are located at the file start).
fn entry_offset(text: &str, i: usize) -> usize {
    let mut seen = 0;
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("- ") || t.trim_end() == "-" {
            if seen == i {
                return off + (line.len() - t.len());
            }
            seen += 1;
        }
        off += line.len();
    }
    0
}

/// Reads and checks the extensions files `paths` (in order; names must be unique across all of them) through
/// `read` (path → text or the I/O error text). Returns the formats that passed and one error diagnostic per
/// problem, located in its file: a YAML syntax or strictness error at the parser's position, an entry's problem at
/// its `-` line. Messages are upstream's (`loadExtensions`, kubernetes#142116) after [`PREFIX`]; the `%w` causes
/// of read, parse and pattern errors are this implementation's (serde_norway's, the `regex` crate's) — see
/// docs/upstream.md.
pub fn load(
    paths: &[String],
    read: &dyn Fn(&str) -> Result<String, String>,
) -> (Arc<[ProjectFormat]>, Vec<Diagnostic>) {
    let mut formats: Vec<ProjectFormat> = Vec::new();
    let mut defined: HashMap<String, String> = HashMap::new();
    let mut diags = Vec::new();
    for path in paths {
        let err = |msg: String, at: usize| {
            Diagnostic::error(Code::GeneratorConfig, format!("{PREFIX}{msg}"))
                .at(path.clone(), at..at)
        };
        let text = match read(path) {
            Ok(t) => t,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        Code::Io,
                        format!("{PREFIX}reading extensions file {path:?}: {e}"),
                    )
                    .with_hint("--validation-extensions-file names a YAML file of `formats:`"),
                );
                continue;
            }
        };
        let mut entries = Vec::new();
        let mut bad = false;
        for doc in serde_norway::Deserializer::from_str(&text) {
            match Document::deserialize(doc) {
                // upstream validates document by document, so `formats[i]` counts within one document.
                Ok(d) => entries.extend(d.formats.into_iter().enumerate()),
                Err(e) => {
                    let at = e.location().map_or(0, |l| l.index().min(text.len()));
                    diags.push(err(format!("parsing extensions file {path:?}: {e}"), at));
                    bad = true;
                    break;
                }
            }
        }
        if bad {
            continue;
        }
        for (entry, (i, e)) in entries.into_iter().enumerate() {
            let at = entry_offset(&text, entry);
            let n = &e.name;
            let cause = if n.is_empty() {
                diags.push(err(
                    format!("extensions file {path:?}: formats[{i}]: name is required"),
                    at,
                ));
                continue;
            } else if !valid_name(n) {
                format!(
                    "name must be lower-case alphanumerics with dashes between words, matching {NAME_SYNTAX:?}"
                )
            } else if vgc_ir::catalog::FORMATS.contains(&n.as_str()) {
                format!("{n:?} is a built-in format and cannot be redefined")
            } else if n == "k8s" || n.starts_with("k8s-") {
                format!("name {n:?} cannot use the reserved \"k8s-\" prefix")
            } else if let Some(first) = defined.get(n) {
                diags.push(err(
                    format!(
                        "extensions file {path:?}: formats[{i}]: format {n:?} was already defined in {first:?}"
                    ),
                    at,
                ));
                continue;
            } else if e.docs.is_empty() {
                "docs is required".into()
            } else if e.pattern.is_empty() {
                "pattern is required".into()
            } else if let Err(x) = vgc_runtime::regex::compile_go(&e.pattern) {
                format!("pattern {:?} does not compile: {x}", e.pattern)
            } else if e.message.is_empty() {
                "message is required, so that errors explain the rule instead of printing the pattern"
                    .into()
            } else {
                defined.insert(n.clone(), path.clone());
                formats.push(ProjectFormat {
                    name: e.name,
                    docs: e.docs,
                    pattern: e.pattern,
                    message: e.message,
                });
                continue;
            };
            diags.push(err(
                format!("extensions file {path:?}: formats[{i}] ({n:?}): {cause}"),
                at,
            ));
        }
    }
    (Arc::from(formats), diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_syntax() {
        for ok in ["a", "example-uri", "a1-b2-c3"] {
            assert!(valid_name(ok), "{ok}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a.b"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }
}
