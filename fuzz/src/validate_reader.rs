//! Fuzz target `validate_reader` (issue 36): `vgc validate`'s input reading on arbitrary bytes.
//!
//! Input layout: the first two bytes choose the run's settings ([`Settings::of`]); the rest is the manifest file,
//! up to the first `0xFF` byte (never part of UTF-8 text, so a text seed reads whole); what follows that byte, when
//! present, is the `--old` file. Each input goes through
//! - the manifest reader, [`vgc::manifests::load`] (and [`vgc::manifests::chunks`] with
//!   [`vgc::manifests::load_chunk`], which must give the same documents), with every recorded span checked: inside
//!   the text, on character boundaries, and naming a value the document has;
//! - the whole pipeline, [`vgc::validate::run`], against one of three small fixed APIs (`cli/tests/validate/api`,
//!   `defaults-api`, `strict-api`, each loaded once), in every [`OutputFormat`].
//!
//! Beyond returning, each run must give the same [`Outcome`] in every format, with consistent counts (invalid
//! objects are among the objects and each has at least one error); the JSON report must parse and agree with the
//! outcome document by document; the SARIF report must parse; the TAP report's plan must match
//! its test points, whose `ok`/`not ok` and directives must be the documents' statuses; the JUnit report must be
//! well-formed XML 1.0 with one test case per document.

use std::sync::OnceLock;

use serde_json::Value;
use vgc::validate::{Api, Input, Options, Outcome, OutputFormat};

/// The fixed APIs, relative to the fuzz crate (and to the tests crate, which includes this file by path: both
/// are one directory below the repository root).
const APIS: [&str; 3] = ["api", "defaults-api", "strict-api"];

/// Every report format, each checked on every input.
const FORMATS: [OutputFormat; 5] = [
    OutputFormat::Human,
    OutputFormat::Json,
    OutputFormat::Junit,
    OutputFormat::Tap,
    OutputFormat::Sarif,
];

/// The API of [`APIS`]`[i]`, loaded once (checked and lowered as `vgc validate` loads a tree, without caches).
fn api(i: usize) -> &'static Api {
    static LOADED: [OnceLock<Api>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    LOADED[i].get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../cli/tests/validate")
            .join(APIS[i]);
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        let req = vgc::validate::request(dir.to_string_lossy().into_owned());
        match vgc::validate::load_api(&req, None) {
            Ok(loaded) => loaded.api,
            Err(outcome) => panic!(
                "the fixed API {} does not load: {:?} {:?}",
                dir.display(),
                outcome.io_error,
                outcome.diagnostics
            ),
        }
    })
}

/// The settings of one run, from the input's first two bytes.
struct Settings {
    /// Index into [`APIS`].
    api: usize,
    /// The old file is also given as a second input.
    old_as_input: bool,
    opts: Options,
}

impl Settings {
    /// Byte `a`: API (bits 0–1), `--strict` (2), `--no-defaults` (3), subresource (4–5), enforcement (6–7).
    /// Byte `b`: colour (0), `--summary` (1), the `WidgetModes` option undefined/off/on/with the beta gate (2–3),
    /// the release named (4), the old file as an input too (5).
    fn of(a: u8, b: u8) -> Self {
        let mut opts = Options {
            strict: a & 4 != 0,
            no_defaults: a & 8 != 0,
            subresource: match (a >> 4) & 3 {
                0 => None,
                1 => Some("status".into()),
                2 => Some("/scale".into()),
                _ => Some("/status/x/".into()),
            },
            enforce: match a >> 6 {
                0 => vgc::release::Enforce::Stable,
                1 => vgc::release::Enforce::Beta,
                _ => vgc::release::Enforce::Alpha,
            },
            color: b & 1 != 0,
            summary: b & 2 != 0,
            // rayon's global pool, as `vgc validate` without `-j` (fuzz with `RAYON_NUM_THREADS=1` for one core): a
            // pool per run (`Some(1)`) spent a third of the time starting and ending its thread.
            jobs: None,
            ..Options::default()
        };
        match (b >> 2) & 3 {
            0 => {}
            1 => {
                opts.options.insert("WidgetModes".into(), false);
            }
            2 => {
                opts.options.insert("WidgetModes".into(), true);
            }
            _ => {
                opts.options.insert("WidgetModes".into(), true);
                opts.options
                    .insert("DeclarativeValidationBeta".into(), true);
            }
        }
        if b & 16 != 0 {
            opts.release = Some("1.37".into());
            opts.enforce_from_release = true;
        }
        Settings {
            api: usize::from(a & 3) % APIS.len(),
            old_as_input: b & 32 != 0,
            opts,
        }
    }
}

/// Reads the bytes as `vgc validate`'s input (see the module docs) and checks the manifest reader and every
/// report format on it; panics on a broken property.
pub fn validate_reader(data: &[u8]) {
    let (a, b, rest) = match data {
        [a, b, rest @ ..] => (*a, *b, rest),
        _ => return,
    };
    let (new, old) = match rest.iter().position(|&c| c == 0xFF) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    for bytes in [Some(new), old].into_iter().flatten() {
        if let Ok(text) = std::str::from_utf8(bytes) {
            check_manifests(text);
        }
    }
    let settings = Settings::of(a, b);
    let mut inputs = vec![Input {
        name: "in.yaml".into(),
        bytes: new.to_vec(),
    }];
    let olds: Vec<Input> = old
        .map(|o| Input {
            name: "old.yaml".into(),
            bytes: o.to_vec(),
        })
        .into_iter()
        .collect();
    if settings.old_as_input {
        inputs.extend(olds.iter().cloned());
    }
    check_reports(api(settings.api), &inputs, &olds, settings.opts);
}

/// Whether `r` is a range of `text` whose ends are character boundaries.
fn in_text(text: &str, r: &std::ops::Range<usize>) -> bool {
    r.start <= r.end && text.get(r.clone()).is_some()
}

/// The manifest reader's properties on `text`: the same documents read whole or chunk by chunk; every span (of a
/// document, an error, a value, a key, a label) a range of the text on character boundaries; every value and key
/// of the span tables a member of the document's value.
fn check_manifests(text: &str) {
    use vgc::manifests;
    let docs = manifests::load(text);
    let chunked: Vec<_> = manifests::chunks(text)
        .into_iter()
        .filter_map(|r| manifests::load_chunk(text, r))
        .collect();
    assert!(docs == chunked, "load and load_chunk disagree on {text:?}");
    for d in &docs {
        let d = match d {
            Ok(d) => d,
            Err(e) => {
                assert!(
                    in_text(text, &e.span),
                    "error span {:?} in {text:?}",
                    e.span
                );
                continue;
            }
        };
        assert!(
            in_text(text, &d.range),
            "document range {:?} in {text:?}",
            d.range
        );
        let spans = d.spans(text).clone();
        for (pointer, r) in spans.values.iter().chain(&spans.keys) {
            assert!(in_text(text, r), "span {r:?} of {pointer:?} in {text:?}");
            assert!(
                d.value.pointer(pointer).is_some(),
                "span table names {pointer:?}, which the document has not: {text:?}"
            );
            let label = d.label_of(pointer, text);
            assert!(
                in_text(text, &label),
                "label {label:?} of {pointer:?} in {text:?}"
            );
        }
        let label = d.label_of("", text);
        assert!(
            in_text(text, &label),
            "document label {label:?} in {text:?}"
        );
    }
}

/// Runs `vgc validate` on `inputs` (with `old`) in every format and checks each report and the outcome.
fn check_reports(api: &Api, inputs: &[Input], old: &[Input], mut opts: Options) {
    let mut outcome: Option<Outcome> = None;
    let mut statuses: Vec<String> = Vec::new();
    let mut texts: Vec<(OutputFormat, String)> = Vec::new();
    for format in FORMATS {
        opts.output = format;
        let (text, o) = vgc::validate::run(api, inputs, old, &opts);
        assert!(
            o.invalid <= o.objects && o.invalid <= o.errors,
            "inconsistent counts {o:?}"
        );
        assert_eq!(
            o.exit_code(),
            u8::from(o.invalid > 0 || o.failed > 0 || o.unknown_kinds > 0),
            "{o:?}"
        );
        if let Some(first) = &outcome {
            assert_eq!(
                first, &o,
                "the outcome differs between formats ({format:?})"
            );
        }
        match format {
            OutputFormat::Human => assert!(!text.is_empty(), "an empty human report"),
            OutputFormat::Json => {
                let v: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("the JSON report does not parse ({e}): {text}"));
                check_json(&v, &o, &text);
                statuses = v["documents"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|d| d["status"].as_str().unwrap_or_default().to_string())
                    .collect();
            }
            OutputFormat::Sarif => {
                let v: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("the SARIF report does not parse ({e}): {text}"));
                assert_eq!(v["version"], "2.1.0", "{text}");
                assert!(v["runs"][0]["results"].is_array(), "{text}");
            }
            OutputFormat::Tap | OutputFormat::Junit => texts.push((format, text)),
        }
        outcome = Some(o);
    }
    // The TAP and JUnit reports against the JSON report's documents.
    for (format, text) in texts {
        if format == OutputFormat::Tap {
            check_tap(&text, &statuses);
        } else {
            let names = xml_elements(&text).unwrap_or_else(|e| {
                panic!("the JUnit report is not well-formed XML ({e}): {text}")
            });
            let cases = names.iter().filter(|name| *name == "testcase").count();
            assert_eq!(cases, statuses.len(), "JUnit test cases: {text}");
        }
    }
}

/// The JSON report's summary is the outcome, and its documents add up to it.
fn check_json(v: &Value, o: &Outcome, text: &str) {
    let s = &v["summary"];
    let n = |x: &Value| usize::try_from(x.as_u64().unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
    assert_eq!(
        (
            n(&s["objects"]),
            n(&s["invalid"]),
            n(&s["errors"]),
            n(&s["shadowed"]),
            n(&s["skipped"]),
            n(&s["unreadable"]),
            n(&s["unknownKinds"])
        ),
        (
            o.objects,
            o.invalid,
            o.errors,
            o.shadowed,
            o.skipped,
            o.failed,
            o.unknown_kinds
        ),
        "JSON summary against {o:?}: {text}"
    );
    let mut counted = Outcome::default();
    for d in v["documents"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let errors = d["errors"].as_array().map_or(0, Vec::len);
        let shadowed = d["shadowed"].as_array().map_or(0, Vec::len);
        match d["status"].as_str().unwrap_or_default() {
            "valid" | "invalid" => {
                counted.objects += 1;
                counted.errors += errors;
                counted.shadowed += shadowed;
                let invalid = d["status"] == "invalid";
                assert_eq!(invalid, errors > 0, "status against errors: {d}");
                counted.invalid += usize::from(invalid);
            }
            // An old object no input pairs with is a note, not a skipped input.
            "skipped" if d["old"] == true => {}
            "skipped" => counted.skipped += 1,
            "unknown-kind" => counted.unknown_kinds += 1,
            _ => counted.failed += 1,
        }
        assert!(
            d["line"].as_u64().unwrap_or(0) >= 1 && d["column"].as_u64().unwrap_or(0) >= 1,
            "a document's position outside its file: {d}"
        );
    }
    assert_eq!(
        &counted, o,
        "the JSON documents add up to another outcome: {text}"
    );
}

/// The TAP report: version line, plan `1..N` with `N` the number of documents, test points numbered 1 to N in
/// order, `ok` exactly for valid and skipped documents, a `# SKIP` directive exactly on skipped ones (and no other
/// directive: a `#` in an object's name must not turn its test point into a TODO), and no other line at the left
/// margin than comments (an object's name must not start a line of its own).
fn check_tap(text: &str, statuses: &[String]) {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("TAP version 13"), "{text}");
    assert_eq!(
        lines.next(),
        Some(format!("1..{}", statuses.len()).as_str()),
        "TAP plan: {text}"
    );
    let mut n = 0usize;
    for line in lines {
        if line.starts_with("  ") || line.starts_with('#') {
            continue;
        }
        let (ok, rest) = if let Some(r) = line.strip_prefix("ok ") {
            (true, r)
        } else if let Some(r) = line.strip_prefix("not ok ") {
            (false, r)
        } else {
            panic!("a TAP line that is no test point, comment or YAML block: {line:?} in {text}");
        };
        n += 1;
        let status = statuses.get(n - 1).map_or("", String::as_str);
        let rest = rest
            .strip_prefix(&format!("{n} "))
            .unwrap_or_else(|| panic!("TAP test point {n} misnumbered: {line:?} in {text}"));
        assert_eq!(
            ok,
            matches!(status, "valid" | "skipped"),
            "TAP test point {n} against status {status}: {line:?}"
        );
        let directive = tap_directive(rest);
        assert_eq!(
            directive.as_deref(),
            (status == "skipped").then_some("skip"),
            "TAP test point {n} ({status}) has the wrong directive: {line:?}"
        );
    }
    assert_eq!(n, statuses.len(), "TAP test points: {text}");
}

/// The directive of a TAP test point's description (`skip` or `todo`, lower case) if it has one: an unescaped
/// `#` followed by optional spaces and `SKIP` or `TODO`, in any case (TAP 13).
fn tap_directive(description: &str) -> Option<String> {
    let b = description.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && (i == 0 || b[i - 1] != b'\\') {
            let after = description[i + 1..].trim_start().to_ascii_lowercase();
            for d in ["skip", "todo"] {
                if after.starts_with(d) {
                    return Some(d.to_string());
                }
            }
        }
    }
    None
}

/// Whether `c` is a character XML 1.0 allows in a document (`Char`).
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Checks that `text` is a well-formed XML 1.0 document (prolog, one root element, balanced tags, quoted
/// attributes, character data without `<` or stray `&`, only XML characters, also through character references)
/// and returns its element names in document order.
fn xml_elements(text: &str) -> Result<Vec<String>, String> {
    if let Some(c) = text.chars().find(|&c| !xml_char(c)) {
        return Err(format!("the character {c:?} is not allowed in XML"));
    }
    let reference = |s: &str| -> Result<usize, String> {
        // `s` starts after `&`; returns the length of the reference after `&`, `;` included.
        let end = s.find(';').ok_or("`&` without `;`")?;
        let name = &s[..end];
        let ok = match name.strip_prefix('#') {
            Some(num) => {
                let code = match num.strip_prefix('x') {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => num.parse::<u32>().ok(),
                };
                code.and_then(char::from_u32).is_some_and(xml_char)
            }
            None => matches!(name, "lt" | "gt" | "amp" | "quot" | "apos"),
        };
        if ok {
            Ok(end + 1)
        } else {
            Err(format!("bad reference &{name};"))
        }
    };
    let chars_ok = |s: &str, what: &str| -> Result<(), String> {
        let mut rest = s;
        while let Some(i) = rest.find(['&', '<']) {
            if rest.as_bytes()[i] == b'<' {
                return Err(format!("`<` in {what}"));
            }
            rest = &rest[i + 1..];
            rest = &rest[reference(rest)?..];
        }
        Ok(())
    };
    let mut rest = text.trim_start_matches('\u{FEFF}');
    if let Some(r) = rest.strip_prefix("<?xml") {
        rest = &r[r.find("?>").ok_or("unclosed XML declaration")? + 2..];
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut names = Vec::new();
    let mut roots = 0;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            if !stack.is_empty() || !rest.trim().is_empty() {
                return Err("text after the root element or an unclosed element".into());
            }
            break;
        };
        let data = &rest[..lt];
        if stack.is_empty() && !data.trim().is_empty() {
            return Err("character data outside the root element".into());
        }
        chars_ok(data, "character data")?;
        rest = &rest[lt..];
        if let Some(r) = rest.strip_prefix("<!--") {
            rest = &r[r.find("-->").ok_or("unclosed comment")? + 3..];
        } else if let Some(r) = rest.strip_prefix("<![CDATA[") {
            rest = &r[r.find("]]>").ok_or("unclosed CDATA section")? + 3..];
        } else if let Some(r) = rest.strip_prefix("</") {
            let end = r.find('>').ok_or("unclosed end tag")?;
            let name = r[..end].trim_end();
            if stack.pop() != Some(name) {
                return Err(format!("end tag </{name}> does not match"));
            }
            rest = &r[end + 1..];
        } else {
            let r = &rest[1..];
            let name_end = r
                .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                .ok_or("unclosed start tag")?;
            let name = &r[..name_end];
            if name.is_empty() {
                return Err("a tag without a name".into());
            }
            roots += usize::from(stack.is_empty());
            let mut attrs = &r[name_end..];
            loop {
                attrs = attrs.trim_start();
                if let Some(a) = attrs.strip_prefix("/>") {
                    attrs = a;
                    break;
                }
                if let Some(a) = attrs.strip_prefix('>') {
                    attrs = a;
                    stack.push(name);
                    break;
                }
                let eq = attrs.find('=').ok_or("an attribute without a value")?;
                let quote = attrs[eq + 1..]
                    .chars()
                    .next()
                    .filter(|q| *q == '"' || *q == '\'')
                    .ok_or("an unquoted attribute value")?;
                let value = &attrs[eq + 2..];
                let close = value.find(quote).ok_or("an unclosed attribute value")?;
                chars_ok(&value[..close], "an attribute value")?;
                attrs = &value[close + 1..];
            }
            names.push(name.to_string());
            rest = attrs;
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(names)
}
