//! The bodies of vgc's fuzz targets (issue 13), shared by the cargo-fuzz binaries in `fuzz_targets/` and by the
//! stable corpus replay `tests/tests/fuzz_corpus.rs` (which includes this file by path), so both run exactly the
//! same code. Each function takes the fuzzer's bytes and must return normally for every input: a panic, an abort
//! or a hang is the bug the fuzzer reports. None of them asserts anything about the result beyond that.
//!
//! Targets (see `docs/reliability.md`, "Fuzzing"):
//! - [`tag_parser`]: `vgc_parser::tags::parse` and `parse_raw` on arbitrary text.
//! - [`go_frontend`]: `vgc_parser::go::parse` on arbitrary bytes (UTF-8-lossy).
//! - [`go_structured`]: a small Go file with `+k8s:` tags built from the bytes by [`arbitrary`], through the Go
//!   front end and the whole `check` pipeline.
//! - [`check_pipeline`]: the bytes as one Go file of an in-memory module, through the whole `vgc check` pipeline
//!   ([`vgc::driver::Session::build_with`] on a [`vgc_analysis::MemorySystem`]).
//! - [`cache_readers`]: the `.vgc/` cache readers (build manifest, IR cache, unit cache) on arbitrary file bodies.
//! - [`validators`]: arbitrary JSON decoded into the committed example crate's `Widget`/`Gadget` and validated
//!   on create and update.
//! - [`validate_reader`]: `vgc validate`'s input reading: the manifest reader and the whole run, in every report
//!   format, against small fixed APIs (`validate_reader.rs`).
//! - [`output_journal`]: the output transaction's recovery on fuzz-made staging directories and journals beside
//!   vgc's files, the user's and links out of the output directory (`output_journal.rs`).

use std::fmt::Write as _;

use arbitrary::{Arbitrary, Unstructured};

mod output_journal;
mod validate_reader;

pub use output_journal::output_journal;
pub use validate_reader::validate_reader;

/// Parses the bytes (UTF-8-lossy) as one tag line in both modes, and every line of them separately.
pub fn tag_parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = vgc_parser::tags::parse(&text);
    let _ = vgc_parser::tags::parse_raw(&text);
    if text.contains('\n') {
        for line in text.lines() {
            let _ = vgc_parser::tags::parse(line);
            let _ = vgc_parser::tags::parse_raw(line);
        }
    }
}

/// Parses the bytes (UTF-8-lossy) as a Go source file, with and without the comment-less skeleton (the same
/// summary both ways), and again after an edit of its `//` comment bodies, reusing the first parse
/// (`parse_reusing`: the same summary as a full parse of the edited text).
pub fn go_frontend(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // tree-sitter reads the text without comment bodies; the summary must be the whole text's.
    let full = vgc_parser::go::parse(&text);
    assert_eq!(full, vgc_parser::go::parse_whole_text(&text), "{text:?}");
    let first = vgc_parser::go::parse_reusing(&text, "k8s:", None);
    assert_eq!(first.file, full, "{text:?}");
    let edited = reverse_comment_bodies(&text);
    let second = vgc_parser::go::parse_reusing(&edited, "k8s:", Some(&first.previous));
    assert_eq!(
        second.file,
        vgc_parser::go::parse(&edited),
        "{text:?} -> {edited:?}"
    );
}

/// `text` with the characters after each `//` up to the line end (or a `\r` before it) reversed — a comment-only
/// edit where `//` starts a comment, any edit elsewhere (inside a string literal: the reusing parse must notice).
fn reverse_comment_bodies(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("//") {
        out.push_str(&rest[..i + 2]);
        rest = &rest[i + 2..];
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        out.extend(rest[..end].chars().rev());
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The module path of the in-memory module the pipeline targets check.
const MODULE: &str = "/fuzz/m";

/// Runs `vgc check` on an in-memory module holding `go.mod` and `files` (name, text) in package directory
/// `api/v1`, with a fresh database and every type a root, and returns the outcome.
pub fn check_files(files: &[(&str, &str)]) -> vgc::BuildOutcome {
    let mut sys = vgc_analysis::MemorySystem::default();
    sys.files.insert(
        format!("{MODULE}/go.mod"),
        "module example.com/fuzz\n\ngo 1.24\n".to_string(),
    );
    for (name, text) in files {
        sys.files
            .insert(format!("{MODULE}/api/v1/{name}"), (*text).to_string());
    }
    // Every type is a root (`--roots '*'`), so that the pipeline lowers whatever the file declares.
    let req = vgc::BuildRequest::check(MODULE, vec!["*".to_string()]);
    vgc::driver::Session::default().build_with(&req, &sys)
}

/// Runs the whole `vgc check` pipeline on the bytes (UTF-8-lossy) as the one Go file of an in-memory module.
pub fn check_pipeline(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = check_files(&[("types.go", &text)]);
}

/// Tag names the structured generator picks from (the catalog's common tags plus a few unknown ones).
const TAGS: &[&str] = &[
    "k8s:required",
    "k8s:optional",
    "k8s:forbidden",
    "k8s:minimum",
    "k8s:maximum",
    "k8s:minLength",
    "k8s:maxLength",
    "k8s:maxItems",
    "k8s:maxBytes",
    "k8s:format",
    "k8s:enum",
    "k8s:listType",
    "k8s:listMapKey",
    "k8s:unique",
    "k8s:eachVal",
    "k8s:eachKey",
    "k8s:item",
    "k8s:subfield",
    "k8s:immutable",
    "k8s:update",
    "k8s:neq",
    "k8s:unionMember",
    "k8s:unionDiscriminator",
    "k8s:zeroOrOneOfMember",
    "k8s:discriminator",
    "k8s:member",
    "k8s:ifEnabled",
    "k8s:ifDisabled",
    "k8s:alpha",
    "k8s:beta",
    "k8s:opaqueType",
    "k8s:validateFalse",
    "k8s:validateTrue",
    "k8s:customValidation",
    "k8s:declarativeValidationNative",
    "k8s:validation-gen",
    "k8s:isSubresource",
    "k8s:supportsSubresource",
    "k8s:noSuchTag",
    "listType",
    "listMapKey",
    "optional",
    "required",
];

/// Type expressions the structured generator picks from for a field.
const TYPES: &[&str] = &[
    "string",
    "int",
    "int32",
    "int64",
    "bool",
    "float64",
    "[]string",
    "[]int32",
    "map[string]string",
    "*string",
    "*int32",
    "*bool",
    "[]byte",
    "metav1.ObjectMeta",
    "metav1.TypeMeta",
];

/// A tag value: nothing, an integer, a word, a quoted string, a JSON-ish literal, or a chained tag.
#[derive(Arbitrary, Debug)]
enum Value {
    None,
    Int(i64),
    Word(u8),
    Quoted(String),
    Json(u8),
    Chain(Box<TagUse>),
}

/// One `+name(arg)=value` comment line.
#[derive(Arbitrary, Debug)]
struct TagUse {
    name: u8,
    arg: Option<u8>,
    value: Value,
}

/// A field type: one of [`TYPES`], or another type of the file (by index).
#[derive(Arbitrary, Debug)]
enum FieldType {
    Builtin(u8),
    Named(u8),
    PtrNamed(u8),
    SliceNamed(u8),
    MapNamed(u8),
}

/// A struct field with its tags and JSON name.
#[derive(Arbitrary, Debug)]
struct Field {
    name: u8,
    ty: FieldType,
    json: Option<u8>,
    omitempty: bool,
    inline: bool,
    tags: Vec<TagUse>,
}

/// A type declaration: a struct, or a named scalar type with constants (an enum candidate).
#[derive(Arbitrary, Debug)]
enum Decl {
    Struct {
        tags: Vec<TagUse>,
        fields: Vec<Field>,
    },
    Scalar {
        tags: Vec<TagUse>,
        base: u8,
        consts: Vec<String>,
    },
}

/// A generated Go file: package tags and type declarations.
#[derive(Arbitrary, Debug)]
struct GoSpec {
    package_tags: Vec<TagUse>,
    decls: Vec<Decl>,
}

/// Words used for tag arguments and values.
const WORDS: &[&str] = &[
    "atomic",
    "set",
    "map",
    "name",
    "k8s-short-name",
    "k8s-ip",
    "spec",
    "Type",
    "FeatureX",
    "",
    "x",
    "1",
    "-1",
    "true",
    "status",
    "type",
    "+k8s:required",
];

/// JSON-ish literals used for tag values.
const JSONS: &[&str] = &[
    "{}",
    "[]",
    "\"a\"",
    "{\"a\":1}",
    "[1,2]",
    "null",
    "`raw`",
    "{",
    "\"",
    "1e309",
];

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[usize::from(i) % list.len()]
}

fn write_tag(out: &mut String, t: &TagUse, depth: usize) {
    out.push_str(pick(TAGS, t.name));
    if let Some(a) = t.arg {
        let _ = write!(out, "({})", pick(WORDS, a));
    }
    match &t.value {
        Value::None => {}
        Value::Int(n) => {
            let _ = write!(out, "={n}");
        }
        Value::Word(w) => {
            let _ = write!(out, "={}", pick(WORDS, *w));
        }
        Value::Quoted(s) => {
            let _ = write!(out, "={s:?}");
        }
        Value::Json(j) => {
            let _ = write!(out, "={}", pick(JSONS, *j));
        }
        Value::Chain(inner) if depth < 16 => {
            out.push_str("=+");
            write_tag(out, inner, depth + 1);
        }
        Value::Chain(_) => {}
    }
}

fn write_tags(out: &mut String, indent: &str, tags: &[TagUse]) {
    for t in tags {
        let _ = write!(out, "{indent}// +");
        write_tag(out, t, 0);
        out.push('\n');
    }
}

/// Renders a [`GoSpec`] as Go source (types are named `T0`, `T1`, …; fields `F0`, …).
fn render(spec: &GoSpec) -> String {
    let mut out = String::new();
    write_tags(&mut out, "", &spec.package_tags);
    out.push_str("\n// Package v1 is generated by the fuzzer.\npackage v1\n\n");
    out.push_str("import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n");
    let n = spec.decls.len().max(1);
    for (i, d) in spec.decls.iter().enumerate() {
        match d {
            Decl::Struct { tags, fields } => {
                let _ = writeln!(out, "// T{i} is a struct.");
                write_tags(&mut out, "", tags);
                let _ = writeln!(out, "type T{i} struct {{");
                for f in fields {
                    write_tags(&mut out, "\t", &f.tags);
                    let ty = match f.ty {
                        FieldType::Builtin(b) => pick(TYPES, b).to_string(),
                        FieldType::Named(t) => format!("T{}", usize::from(t) % n),
                        FieldType::PtrNamed(t) => format!("*T{}", usize::from(t) % n),
                        FieldType::SliceNamed(t) => format!("[]T{}", usize::from(t) % n),
                        FieldType::MapNamed(t) => format!("map[string]T{}", usize::from(t) % n),
                    };
                    let json = match (f.inline, f.json) {
                        (true, _) => ",inline".to_string(),
                        (false, Some(j)) => {
                            format!("f{}{}", j % 8, if f.omitempty { ",omitempty" } else { "" })
                        }
                        (false, None) => "-".to_string(),
                    };
                    if f.inline {
                        let _ = writeln!(out, "\t{ty} `json:\"{json}\"`");
                    } else {
                        let _ = writeln!(out, "\tF{} {ty} `json:\"{json}\"`", f.name % 8);
                    }
                }
                out.push_str("}\n\n");
            }
            Decl::Scalar { tags, base, consts } => {
                let _ = writeln!(out, "// T{i} is a scalar.");
                write_tags(&mut out, "", tags);
                let base = pick(&["string", "int32", "int64", "bool"], *base);
                let _ = writeln!(out, "type T{i} {base}\n");
                if !consts.is_empty() {
                    out.push_str("const (\n");
                    for (k, c) in consts.iter().enumerate() {
                        let _ = writeln!(out, "\tT{i}C{k} T{i} = {c:?}");
                    }
                    out.push_str(")\n\n");
                }
            }
        }
    }
    out
}

/// Builds a small Go file with tags from the bytes ([`arbitrary`]), parses it with the Go front end and runs
/// the whole `check` pipeline on it.
pub fn go_structured(data: &[u8]) {
    let Ok(spec) = GoSpec::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let text = render(&spec);
    let _ = vgc_parser::go::parse(&text);
    let _ = check_files(&[("types.go", &text)]);
}

/// Renders the Go file [`go_structured`] builds from `data` (to look at a crash input).
#[must_use]
pub fn go_structured_text(data: &[u8]) -> Option<String> {
    GoSpec::arbitrary_take_rest(Unstructured::new(data))
        .ok()
        .map(|s| render(&s))
}

thread_local! {
    /// A scratch output directory per thread for [`cache_readers`].
    static SCRATCH: tempfile::TempDir = tempfile::tempdir().expect("a temporary directory");
}

/// Feeds the bytes to the `.vgc/` cache readers. The first byte chooses the reader and whether the body gets a
/// valid header and checksum (so the postcard decoder behind the checksum is reached too); the rest is the file
/// body.
pub fn cache_readers(data: &[u8]) {
    let Some((&sel, body)) = data.split_first() else {
        return;
    };
    SCRATCH.with(|dir| {
        let dir = dir.path();
        let vgc_dir = dir.join(".vgc");
        let units = vgc_dir.join(vgc::cache::units::FILE);
        let _ = std::fs::create_dir_all(&vgc_dir);
        let framed = |header: String| {
            let mut bytes = header.into_bytes();
            bytes.push(b'\n');
            bytes.extend_from_slice(blake3::hash(body).as_bytes());
            bytes.extend_from_slice(body);
            bytes
        };
        let fp = vgc::cache::tool_fingerprint();
        let mut notes = Vec::new();
        match sel % 5 {
            0 => {
                std::fs::write(vgc_dir.join("build"), body).expect("write the manifest");
                if let Some(m) = vgc::cache::manifest::Manifest::load(dir, &mut notes) {
                    let sys = vgc_analysis::MemorySystem::default();
                    let _ = m.up_to_date("key", &sys, dir);
                }
            }
            1 => {
                std::fs::write(vgc_dir.join("ir"), body).expect("write the IR cache");
                let _ = vgc::cache::ir::load(dir, &mut notes);
            }
            2 => {
                std::fs::write(vgc_dir.join("ir"), framed(format!("vgc-ir-cache 2 {fp}")))
                    .expect("write the IR cache");
                let _ = vgc::cache::ir::load(dir, &mut notes);
            }
            3 => {
                std::fs::write(&units, body).expect("write the unit cache");
                let _ = vgc::cache::units::load(&vgc_dir, [&"v1.rs".to_string()], &mut notes);
            }
            _ => {
                std::fs::write(&units, framed(vgc::cache::units::header()))
                    .expect("write the unit cache");
                let _ = vgc::cache::units::load(&vgc_dir, [&"v1.rs".to_string()], &mut notes);
            }
        }
    });
}

/// A validation request in the shape of `tests/example-generated/tests/cases.json`.
#[derive(serde::Deserialize)]
struct Request {
    #[serde(default)]
    kind: Option<String>,
    object: serde_json::Value,
    #[serde(default)]
    old: Option<serde_json::Value>,
    #[serde(default)]
    options: std::collections::BTreeMap<String, bool>,
    #[serde(default)]
    subresources: Vec<String>,
}

fn validate_as<T: vgc_runtime::Validate + serde::de::DeserializeOwned>(r: &Request) {
    let Ok(obj) = serde_json::from_value::<T>(r.object.clone()) else {
        return;
    };
    let mut op = vgc_runtime::Operation::create();
    op.options = r.options.clone();
    op.subresources = r.subresources.clone();
    for e in obj.validate(None, &op).iter() {
        let _ = e.body();
    }
    // The object against itself, and against the given old object, as updates.
    let mut up = vgc_runtime::Operation::update();
    up.options = r.options.clone();
    up.subresources = r.subresources.clone();
    let _ = obj.validate(Some(&obj), &up);
    if let Some(old) = &r.old
        && let Ok(old) = serde_json::from_value::<T>(old.clone())
    {
        let _ = obj.validate(Some(&old), &up);
        let _ = old.validate(Some(&obj), &up);
    }
}

/// Decodes the bytes as a validation request (`{"kind", "object", "old", "options", "subresources"}`), or else
/// as a bare object, into the example crate's `Widget` and `Gadget`, and validates them on create and update.
pub fn validators(data: &[u8]) {
    use vgc_example_generated::widgets::v1::{Gadget, Widget};
    let r = match serde_json::from_slice::<Request>(data) {
        Ok(r) => r,
        Err(_) => match serde_json::from_slice::<serde_json::Value>(data) {
            Ok(object) => Request {
                kind: None,
                object,
                old: None,
                options: Default::default(),
                subresources: Vec::new(),
            },
            Err(_) => return,
        },
    };
    match r.kind.as_deref() {
        Some("Gadget") => validate_as::<Gadget>(&r),
        Some("Widget") => validate_as::<Widget>(&r),
        _ => {
            validate_as::<Widget>(&r);
            validate_as::<Gadget>(&r);
        }
    }
}
