//! The renderers of `vgc validate`'s report ([`super::OutputFormat`]): human (codespan-reporting diagnostics, the
//! per-kind coverage lines or `--summary`'s table, the summary line), JSON, JUnit XML (`quick-junit`), TAP 13 and
//! SARIF 2.1.0 (`serde-sarif`). Each reads the same [`Results`], in input order.

use super::results::{DefaultedField, Entry, Finding, Options, OutputFormat, Results, Status};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::term::{self, Config};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use vgc_validate::Coverage;

/// The report of `results` in `opts.output`'s format.
pub(super) fn render(results: &Results, opts: &Options) -> String {
    match opts.output {
        OutputFormat::Human => human(results, opts),
        OutputFormat::Json => json_report(results),
        OutputFormat::Junit => junit(results),
        OutputFormat::Tap => tap(results),
        OutputFormat::Sarif => sarif(results),
    }
}

pub(super) use crate::render::plural;

/// "12 declarative rules (11 stable, 1 alpha)", or "0 declarative rules — server-side checks not covered".
fn rules_text(c: &Coverage) -> String {
    if c.rules == 0 {
        return "0 declarative rules — server-side checks not covered".to_string();
    }
    let mut st = Vec::new();
    if c.alpha > 0 {
        st.push(format!("{} alpha", c.alpha));
    }
    if c.beta > 0 {
        st.push(format!("{} beta", c.beta));
    }
    let stable = c.rules - c.alpha - c.beta;
    format!(
        "{} ({stable} stable{}{})",
        plural(c.rules, "declarative rule"),
        if st.is_empty() { "" } else { ", " },
        st.join(", ")
    )
}

/// Whether field path `field` is `at` or inside it (`spec.a` is inside `spec`, `spec.ab` is not).
fn within(field: &str, at: &str) -> bool {
    field
        .strip_prefix(at)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// A SARIF result's marks: the rule's stability, and the defaulted field the error lies in.
type Marks<'e> = (Option<&'e str>, Option<&'e DefaultedField>);

/// The defaulted field (`Entry::defaulted`) an error lies in, if any: the error is about a value the API server's
/// defaulting set, which the manifest does not show.
fn defaulted_of<'e>(f: &Finding, e: &'e Entry) -> Option<&'e DefaultedField> {
    e.defaulted.iter().find(|d| within(&f.field, &d.path))
}

/// The notes of a finding in the human report: its rule, its stability and the object.
fn finding_notes(f: &Finding, e: &Entry) -> Vec<String> {
    let mut notes = Vec::new();
    if !f.origin.is_empty() {
        notes.push(format!("rule: {}", f.origin));
    }
    if let Some(s) = f.stability {
        notes.push(format!(
            "{s}: the API server enforces this rule only where its {s} declarative validation is on"
        ));
    }
    if let Some(d) = defaulted_of(f, e) {
        notes.push(format!(
            "{} was set {} before validating, as the API server does (--no-defaults: validate as written)",
            d.path,
            d.how()
        ));
    }
    if let Some(id) = &e.ident {
        notes.push(format!(
            "{} {} {}",
            id.api_version,
            id.kind,
            id.display_name()
        ));
    }
    notes
}

/// The longest source line, in bytes, a human diagnostic prints under its message. A location on a longer line
/// (minified JSON: a whole document on one line) is given as `file:line:column` in a note instead, so that each
/// error does not print the whole document.
pub(crate) const MAX_SHOWN_LINE: usize = 400;

/// The label of a diagnostic at `span` of `file` with text `message`, or, on a line longer than
/// [`MAX_SHOWN_LINE`], no label and a note giving the location.
fn located(
    results: &Results,
    file: usize,
    span: Range<usize>,
    message: &str,
) -> (Vec<Label<usize>>, Option<String>) {
    let len = results.line_len(file, span.start);
    if len <= MAX_SHOWN_LINE {
        let label = Label::primary(file, span);
        let label = if message.is_empty() {
            label
        } else {
            label.with_message(message)
        };
        return (vec![label], None);
    }
    let (l, c) = results.line_col(file, span.start);
    let what = if message.is_empty() {
        String::new()
    } else {
        format!(" ({message})")
    };
    (
        Vec::new(),
        Some(format!(
            "at {}:{l}:{c}{what}; the line is {len} bytes long and not shown",
            results.file_name(file)
        )),
    )
}

/// The diagnostics of an entry, in order.
fn diagnostics(results: &Results, e: &Entry) -> Vec<Diagnostic<usize>> {
    let mut out = Vec::new();
    if let Some(p) = &e.problem {
        let (labels, at) = located(results, e.file, p.span.clone(), &p.label);
        let d = if p.note {
            Diagnostic::note()
        } else {
            Diagnostic::error()
        };
        out.push(
            d.with_message(p.message.clone())
                .with_labels(labels)
                .with_notes(at.into_iter().collect()),
        );
    }
    // A replaced member is said where it hides errors of the manifest; the others are counted in the summary.
    for c in e.cleared.iter().filter(|c| c.hidden > 0) {
        let label = if c.update {
            "kept from the stored object"
        } else {
            "cleared on create"
        };
        let (labels, at) = located(results, e.file, c.span.clone(), label);
        let mut notes: Vec<String> = at.into_iter().collect();
        notes.push(if c.update {
            format!(
                "the API server's update keeps the stored object's {} (PrepareForUpdate, {}); validated as written it has {}",
                c.field,
                c.by,
                plural(c.hidden, "error")
            )
        } else {
            format!(
                "the API server's create resets {} before validating (PrepareForCreate, {}); validated as written it has {}; its rules apply to a /status update: --subresource status --old FILE",
                c.field,
                c.by,
                plural(c.hidden, "error")
            )
        });
        let message = if c.update {
            format!(
                "{} not validated as written: an update keeps the stored object's, as the API server does",
                c.field
            )
        } else {
            format!(
                "{} not validated: cleared before validating a create, as the API server does",
                c.field
            )
        };
        out.push(
            Diagnostic::note()
                .with_message(message)
                .with_labels(labels)
                .with_notes(notes),
        );
    }
    for f in &e.findings {
        // An unknown field's label names the type that lacks it.
        let label = if f.type_name == "unknown field" {
            &f.detail
        } else {
            &f.type_name
        };
        let (labels, at) = located(results, e.file, f.span.clone(), label);
        let mut notes: Vec<String> = at.into_iter().collect();
        notes.extend(finding_notes(f, e));
        out.push(
            Diagnostic::error()
                .with_message(f.message.clone())
                .with_labels(labels)
                .with_notes(notes),
        );
    }
    for f in &e.shadowed {
        let (labels, at) = located(results, e.file, f.span.clone(), &f.type_name);
        let mut notes: Vec<String> = at.into_iter().collect();
        notes.push(results.shadow_note.clone());
        notes.extend(finding_notes(f, e).into_iter().filter(|n| {
            // The shadow note says it better than the generic stability note.
            !n.contains("declarative validation is on")
        }));
        out.push(
            Diagnostic::warning()
                .with_message(format!("shadowed: {}", f.message))
                .with_labels(labels)
                .with_notes(notes),
        );
    }
    out
}

/// Per (apiVersion, kind): documents, valid, invalid, errors, unreadable (wrong types, not checked, unknown kinds
/// under `--strict`), skipped.
#[derive(Default)]
struct Row {
    documents: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
    unreadable: usize,
    skipped: usize,
}

fn rows(results: &Results) -> BTreeMap<(String, String), Row> {
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    for (k, n) in &results.quiet {
        let r = rows.entry(k.clone()).or_default();
        r.documents += n;
        r.valid += n;
    }
    for e in results.entries.iter().filter(|e| !e.from_old) {
        let Some(id) = &e.ident else { continue };
        let r = rows
            .entry((id.api_version.clone(), id.kind.clone()))
            .or_default();
        r.documents += 1;
        match e.status {
            Status::Valid => r.valid += 1,
            Status::Invalid => {
                r.invalid += 1;
                r.errors += e.findings.len();
            }
            Status::Skipped => r.skipped += 1,
            Status::UnknownKind | Status::Unreadable | Status::NotChecked => r.unreadable += 1,
        }
    }
    rows
}

fn summary_line(results: &Results) -> String {
    let o = &results.outcome;
    let shadowed = if o.shadowed > 0 {
        format!(" (and {} shadowed)", plural(o.shadowed, "error"))
    } else {
        String::new()
    };
    // Objects of unknown kinds (`--strict`) were read: counted apart from the unreadable documents.
    let unknown = if o.unknown_kinds > 0 {
        format!(", {} of unknown kinds", plural(o.unknown_kinds, "object"))
    } else {
        String::new()
    };
    format!(
        "vgc validate: {} ({} valid, {} invalid), {}{shadowed}, {} skipped, {} unreadable{unknown}",
        plural(o.objects, "object"),
        o.objects - o.invalid,
        o.invalid,
        plural(o.errors, "error"),
        o.skipped,
        o.failed
    )
}

fn human(results: &Results, opts: &Options) -> String {
    use codespan_reporting::term::termcolor::Buffer;
    let mut text = String::new();
    for w in &results.old_warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    for e in &results.entries {
        for d in diagnostics(results, e) {
            let mut buf = if opts.color {
                Buffer::ansi()
            } else {
                Buffer::no_color()
            };
            if term::emit_to_write_style(&mut buf, &Config::default(), &results.files, &d).is_ok() {
                text.push_str(&String::from_utf8_lossy(buf.as_slice()));
            } else {
                let _ = writeln!(text, "{}", d.message);
            }
        }
    }
    if opts.summary {
        text.push_str(&summary_table(results));
    } else {
        // The coverage line of each validated kind: objects validated (not the undecodable ones) and their errors.
        for ((av, kind), c) in &results.coverage {
            let (objects, errors) = kind_counts(results, av, kind);
            let not_checked = results
                .not_checked
                .get(&(av.clone(), kind.clone()))
                .map(|h| format!("; not checked: its hand-written validation ({h})"))
                .unwrap_or_default();
            let _ = writeln!(
                text,
                "{av} {kind}: {}, {}; {}{not_checked}",
                plural(objects, "object"),
                plural(errors, "error"),
                rules_text(c)
            );
        }
        if !results.not_checked.is_empty() {
            let _ = writeln!(
                text,
                "vgc validate checks the declarative rules only: an object valid here can still be refused by the API server's hand-written validation and defaulting, named per kind above"
            );
        }
    }
    // The replacements that hid nothing, counted (each is in the JSON, TAP, JUnit and SARIF reports).
    let quiet: Vec<&super::results::Cleared> = results
        .entries
        .iter()
        .flat_map(|e| &e.cleared)
        .filter(|c| c.hidden == 0)
        .collect();
    if !quiet.is_empty() {
        let created = quiet.iter().filter(|c| !c.update).count();
        let kept = quiet.len() - created;
        let mut parts = Vec::new();
        if created > 0 {
            parts.push(format!(
                "{created} {} cleared before validating a create (PrepareForCreate)",
                if created == 1 { "status" } else { "statuses" }
            ));
        }
        if kept > 0 {
            parts.push(format!(
                "{} kept from the stored object on an update (PrepareForUpdate)",
                plural(kept, "member")
            ));
        }
        let _ = writeln!(
            text,
            "note: as the API server's strategies do, {}; none hid an error of the manifests (--output json lists them)",
            parts.join(", ")
        );
    }
    let _ = writeln!(text, "{}", summary_line(results));
    text
}

/// `--summary`: one row per apiVersion and kind (skipped kinds included) with its counts and rule coverage, columns
/// aligned.
fn summary_table(results: &Results) -> String {
    let header = [
        "KIND",
        "DOCUMENTS",
        "VALID",
        "INVALID",
        "ERRORS",
        "UNREADABLE",
        "SKIPPED",
        "DECLARATIVE RULES",
    ];
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|h| (*h).to_string()).collect()];
    for ((av, kind), r) in rows(results) {
        let rules = results
            .coverage
            .get(&(av.clone(), kind.clone()))
            .map_or_else(|| "-".to_string(), rules_text);
        table.push(vec![
            format!("{av} {kind}"),
            r.documents.to_string(),
            r.valid.to_string(),
            r.invalid.to_string(),
            r.errors.to_string(),
            r.unreadable.to_string(),
            r.skipped.to_string(),
            rules,
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else if c == row.len() - 1 {
                line.push_str("  ");
                line.push_str(cell);
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if !results.not_checked.is_empty() {
        let _ = writeln!(
            out,
            "declarative rules only: the API server's hand-written validation and defaulting are not checked ({})",
            results
                .not_checked
                .values()
                .cloned()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

fn json_report(results: &Results) -> String {
    let mut docs = Vec::new();
    for e in &results.entries {
        let (line, column) = results.line_col(e.file, e.at);
        let mut d = json!({"file": results.file_name(e.file), "line": line, "column": column});
        if let Some(id) = &e.ident {
            d["apiVersion"] = json!(id.api_version);
            d["kind"] = json!(id.kind);
            d["namespace"] = json!(id.namespace);
            d["name"] = json!(id.name);
        }
        if let Some(op) = e.operation {
            d["operation"] = json!(op);
        }
        if e.from_old {
            d["old"] = json!(true);
        }
        d["status"] = json!(e.status.as_str());
        if !e.defaulted.is_empty() {
            d["defaulted"] = json!(e.defaulted.iter().map(|d| &d.path).collect::<Vec<_>>());
            let by: serde_json::Map<String, Value> = e
                .defaulted
                .iter()
                .filter_map(|d| Some((d.path.clone(), json!(d.by_name()?))))
                .collect();
            if !by.is_empty() {
                d["defaultedBy"] = Value::Object(by);
            }
        }
        for c in &e.cleared {
            let (l, col) = results.line_col(e.file, c.span.start);
            let v =
                json!({"field": c.field, "by": c.by, "line": l, "column": col, "hidden": c.hidden});
            if c.update {
                if !d["kept"].is_array() {
                    d["kept"] = json!([]);
                }
                if let Some(a) = d["kept"].as_array_mut() {
                    a.push(v);
                }
            } else {
                d["cleared"] = v;
            }
        }
        match (&e.problem, e.status) {
            (_, Status::Valid | Status::Invalid) => {
                let as_json = |f: &Finding| {
                    let (l, c) = results.line_col(e.file, f.span.start);
                    let mut x = json!({
                        "field": f.field, "type": f.type_name, "detail": f.detail, "message": f.message,
                        "origin": f.origin, "stability": f.stability, "line": l, "column": c,
                    });
                    if let Some(d) = defaulted_of(f, e) {
                        x["defaulted"] = json!(d.path);
                        if let Some(by) = d.by_name() {
                            x["defaultedBy"] = json!(by);
                        }
                    }
                    if let Some(n) = f.value_bytes {
                        x["valueBytes"] = json!(n);
                    }
                    if let Some(v) = &f.value {
                        x["value"] = v.clone();
                    }
                    x
                };
                let errs: Vec<Value> = e.findings.iter().map(as_json).collect();
                d["errors"] = json!(errs);
                // Errors of rules the API server does not enforce at the run's level (`--enforce`).
                if !e.shadowed.is_empty() {
                    let shadowed: Vec<Value> = e.shadowed.iter().map(as_json).collect();
                    d["shadowed"] = json!(shadowed);
                }
                // Invalid, with hand-written validations left unchecked.
                if let Some(p) = &e.problem {
                    d["message"] = json!(p.json_message);
                }
            }
            (Some(p), _) => {
                d["message"] = json!(p.json_message);
                // Where the problem is (a wrong-typed field's key, a YAML syntax error), as the human report
                // points at it; the document's own line and column stay above.
                let (l, c) = results.line_col(e.file, p.span.start);
                d["problem"] = json!({"line": l, "column": c});
            }
            (None, _) => {}
        }
        docs.push(d);
    }
    let kinds: Vec<Value> = results
        .coverage
        .iter()
        .map(|((av, kind), c)| {
            let (objects, errors) = kind_counts(results, av, kind);
            let mut k = json!({
                "apiVersion": av, "kind": kind, "objects": objects, "errors": errors,
                "rules": c.rules, "alpha": c.alpha, "beta": c.beta,
            });
            // The hand-written validation the API server also runs, which this run did not check.
            if let Some(h) = results.not_checked.get(&(av.clone(), kind.clone())) {
                k["notChecked"] = json!(h);
            }
            k
        })
        .collect();
    let o = &results.outcome;
    let v = json!({
        "documents": docs,
        "kinds": kinds,
        "warnings": results.run_warnings.iter().chain(&results.warnings).collect::<Vec<_>>(),
        "summary": {
            "objects": o.objects, "invalid": o.invalid, "errors": o.errors,
            "shadowed": o.shadowed, "skipped": o.skipped, "unreadable": o.failed,
            "unknownKinds": o.unknown_kinds,
        },
        "enforced": results.enforce.as_str(),
        "release": results.release,
    });
    format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
}

/// What a test case or test point is called: the object (`apps/v1 Deployment prod/web`), or for a document that
/// names none, its place (`document at 3:1`).
fn entry_name(results: &Results, e: &Entry) -> String {
    match &e.ident {
        Some(id) => format!("{} {} {}", id.api_version, id.kind, id.display_name()),
        None => {
            let (l, c) = results.line_col(e.file, e.at);
            format!("document at {l}:{c}")
        }
    }
}

/// Every error of an entry as one line each: `line:column: message`.
fn finding_lines(results: &Results, e: &Entry) -> Vec<String> {
    finding_lines_of(results, e, &e.findings)
}

/// The errors `findings` of entry `e` as one line each: `line:column: message`.
fn finding_lines_of(results: &Results, e: &Entry, findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| {
            let (l, c) = results.line_col(e.file, f.span.start);
            let mut line = format!("{l}:{c}: {}", f.message);
            if !f.origin.is_empty() {
                let _ = write!(line, " (rule: {})", f.origin);
            }
            if let Some(s) = f.stability {
                let _ = write!(line, " ({s})");
            }
            if let Some(d) = defaulted_of(f, e) {
                let _ = write!(line, " ({} set {})", d.path, d.how());
            }
            line
        })
        .collect()
}

/// The message of an entry's problem with its label and location (`3:1: malformed document: …`).
fn problem_line(results: &Results, e: &Entry) -> Option<String> {
    let p = e.problem.as_ref()?;
    let (l, c) = results.line_col(e.file, p.span.start);
    Some(if p.label.is_empty() {
        format!("{l}:{c}: {}", p.message)
    } else {
        format!("{l}:{c}: {}: {}", p.message, p.label)
    })
}

/// JUnit XML: one test suite per file (in input order), one test case per document or object — passed when valid,
/// a failure (type `invalid`) listing every error when invalid (a checked object's note — hand-written rules left
/// unchecked, a create whose old version may be unreadable — last in the failure's text, or in `system-out` when
/// valid), an error (type `unreadable`, `unknown-kind`,
/// `not-checked`) when it could not be validated, skipped when skipped. No times: the same input gives the same
/// bytes.
fn junit(results: &Results) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("vgc validate");
    let mut suites: Vec<TestSuite> = Vec::new();
    let mut file = 0;
    while results.files.get(file).is_ok() {
        suites.push(TestSuite::new(results.file_name(file)));
        file += 1;
    }
    for e in &results.entries {
        let status = match e.status {
            Status::Valid => TestCaseStatus::success(),
            Status::Invalid => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                let mut lines = finding_lines(results, e);
                lines.extend(problem_line(results, e).map(|l| format!("note: {l}")));
                s.set_type("invalid")
                    .set_message(plural(e.findings.len(), "error"))
                    .set_description(lines.join("\n"));
                s
            }
            Status::Skipped => {
                let mut s = TestCaseStatus::skipped();
                if let Some(p) = &e.problem {
                    s.set_message(p.json_message.clone());
                }
                s
            }
            Status::UnknownKind | Status::Unreadable | Status::NotChecked => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                s.set_type(e.status.as_str());
                if let Some(line) = problem_line(results, e) {
                    s.set_message(line);
                }
                s
            }
        };
        let mut case = TestCase::new(entry_name(results, e), status);
        let mut out: Vec<String> = Vec::new();
        if e.status == Status::Valid
            && let Some(line) = problem_line(results, e)
        {
            out.push(format!("note: {line}"));
        }
        for c in &e.cleared {
            let (l, col) = results.line_col(e.file, c.span.start);
            out.push(format!(
                "note: {}:{l}:{col}: {}",
                results.file_name(e.file),
                c.note()
            ));
        }
        out.extend(
            finding_lines_of(results, e, &e.shadowed)
                .into_iter()
                .map(|l| format!("shadowed: {l}")),
        );
        if !out.is_empty() {
            case.set_system_out(out.join("\n"));
        }
        let (l, _) = results.line_col(e.file, e.at);
        case.set_classname(format!("{}:{l}", results.file_name(e.file)));
        if let Some(suite) = suites.get_mut(e.file) {
            suite.add_test_case(case);
        }
    }
    report.add_test_suites(suites);
    let mut text = report.to_string().unwrap_or_default();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A string as a YAML double-quoted scalar (JSON string syntax is a subset of it).
fn yaml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// TAP version 13: a plan line, then one test point per document or object in input order (`ok`, `not ok`, `ok …
/// # SKIP`), each failure followed by a YAML diagnostic block (`---` … `...`) with its errors or its problem.
fn tap(results: &Results) -> String {
    let mut out = String::from("TAP version 13\n");
    let _ = writeln!(out, "1..{}", results.entries.len());
    for w in results.run_warnings.iter().chain(&results.warnings) {
        let _ = writeln!(out, "# warning: {w}");
    }
    for (i, e) in results.entries.iter().enumerate() {
        let n = i + 1;
        let (l, c) = results.line_col(e.file, e.at);
        // A test point's description cannot hold a line break, and `#` in it would start a directive (a name
        // with `# TODO` turned a failure into a TODO): TAP 13 escapes it as `\#` (found by the validate_reader fuzz
        // target's checks).
        let what = tap_description(&format!(
            "{}:{l}:{c} {}",
            results.file_name(e.file),
            entry_name(results, e)
        ));
        match e.status {
            Status::Valid => {
                let _ = writeln!(out, "ok {n} - {what}");
                let block = e.problem.is_some() || !e.shadowed.is_empty() || !e.cleared.is_empty();
                if block {
                    out.push_str("  ---\n");
                }
                if let Some(p) = &e.problem {
                    let (pl, pc) = results.line_col(e.file, p.span.start);
                    let _ = writeln!(out, "  note: {}", yaml_str(&p.json_message));
                    let _ = writeln!(out, "  line: {pl}\n  column: {pc}");
                }
                tap_findings(&mut out, results, e, "shadowed", &e.shadowed);
                tap_cleared(&mut out, results, e);
                if block {
                    out.push_str("  ...\n");
                }
            }
            Status::Skipped => {
                // The reason may quote the document (an apiVersion with a line break): escaped as a description is.
                let why =
                    tap_description(e.problem.as_ref().map_or("", |p| p.json_message.as_str()));
                let _ = writeln!(out, "ok {n} - {what} # SKIP {why}");
            }
            Status::Invalid => {
                let _ = writeln!(out, "not ok {n} - {what}");
                out.push_str("  ---\n");
                tap_findings(&mut out, results, e, "errors", &e.findings);
                tap_findings(&mut out, results, e, "shadowed", &e.shadowed);
                tap_cleared(&mut out, results, e);
                if let Some(p) = &e.problem {
                    let _ = writeln!(out, "  note: {}", yaml_str(&p.json_message));
                }
                out.push_str("  ...\n");
            }
            Status::UnknownKind | Status::Unreadable | Status::NotChecked => {
                let _ = writeln!(out, "not ok {n} - {what}");
                let _ = writeln!(out, "  ---\n  status: {}", e.status.as_str());
                if let Some(p) = &e.problem {
                    let (pl, pc) = results.line_col(e.file, p.span.start);
                    let _ = writeln!(out, "  message: {}", yaml_str(&p.json_message));
                    let _ = writeln!(out, "  line: {pl}\n  column: {pc}");
                }
                out.push_str("  ...\n");
            }
        }
    }
    out
}

/// The `cleared:` and `kept:` mappings of a TAP diagnostic block: the members the API server's strategy replaced,
/// by which strategy line, where (nothing when none was).
fn tap_cleared(out: &mut String, results: &Results, e: &Entry) {
    for c in &e.cleared {
        let (l, col) = results.line_col(e.file, c.span.start);
        let _ = writeln!(
            out,
            "  {}:\n    field: {}\n    by: {}\n    line: {l}\n    column: {col}\n    hidden: {}",
            c.action(),
            yaml_str(&c.field),
            yaml_str(&c.by),
            c.hidden
        );
    }
}

/// The characters of a path that a URI reference cannot hold as they are (RFC 3986: not unreserved, not a
/// sub-delimiter, not `/`, `:` or `@`): `#` would start a fragment, `%` an escape, a space ends a URI.
const URI_PATH: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// A report file name (relative, `/`-separated, or `<stdin>`) as the relative URI reference SARIF's
/// `artifactLocation.uri` must be (SARIF 2.1.0 §3.4.3): each byte outside [`URI_PATH`]'s allowed set
/// percent-encoded (UTF-8), so `dir with space/a#b%.yaml` is `dir%20with%20space/a%23b%25.yaml`.
fn sarif_uri(name: &str) -> String {
    percent_encoding::utf8_percent_encode(name, URI_PATH).to_string()
}

/// `s` as a TAP test point description: `\` and `#` escaped with `\`, line breaks written as `\n`/`\r`.
fn tap_description(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '#' => out.push_str("\\#"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The YAML list `key:` of `findings` in a TAP diagnostic block (nothing when empty).
fn tap_findings(out: &mut String, results: &Results, e: &Entry, key: &str, findings: &[Finding]) {
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(out, "  {key}:");
    for f in findings {
        let (fl, fc) = results.line_col(e.file, f.span.start);
        let _ = writeln!(out, "    - message: {}", yaml_str(&f.message));
        let _ = writeln!(out, "      field: {}", yaml_str(&f.field));
        let _ = writeln!(out, "      type: {}", yaml_str(&f.type_name));
        if !f.origin.is_empty() {
            let _ = writeln!(out, "      rule: {}", yaml_str(&f.origin));
        }
        if let Some(s) = f.stability {
            let _ = writeln!(out, "      stability: {s}");
        }
        if let Some(d) = defaulted_of(f, e) {
            let _ = writeln!(out, "      defaulted: {}", yaml_str(&d.path));
            if let Some(by) = d.by_name() {
                let _ = writeln!(out, "      defaultedBy: {}", yaml_str(&by));
            }
        }
        let _ = writeln!(out, "      line: {fl}\n      column: {fc}");
    }
}

/// SARIF 2.1.0 through `serde-sarif`'s typed model: tool `vgc validate`, one rule per distinct rule id (the error's
/// origin, e.g. `minimum`; else its type as an identifier, e.g. `required-value`; `unknown-field`, `unreadable-document`,
/// `unknown-kind`, `not-checked`, `skipped`), one result per error (level `error`, the stability in the result's
/// properties), per document that could not be validated (`error`) and per skipped object (`note`), located at
/// the file as given (uri) and the line and column.
fn sarif(results: &Results) -> String {
    use serde_sarif::sarif as s;
    let mut rule_ids: Vec<String> = Vec::new();
    let mut results_out: Vec<s::Result> = Vec::new();
    let location = |file: usize, at: usize| {
        let (l, c) = results.line_col(file, at);
        let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
        s::Location::builder()
            .physical_location(
                s::PhysicalLocation::builder()
                    .artifact_location(
                        s::ArtifactLocation::builder()
                            .uri(sarif_uri(&results.file_name(file)))
                            .build(),
                    )
                    .region(
                        s::Region::builder()
                            .start_line(n(l))
                            .start_column(n(c))
                            .build(),
                    )
                    .build(),
            )
            .build()
    };
    let mut push = |rule: String,
                    level: s::ResultLevel,
                    message: String,
                    loc: s::Location,
                    identity: String,
                    (stability, defaulted): Marks<'_>| {
        let index = match rule_ids.iter().position(|r| *r == rule) {
            Some(i) => i,
            None => {
                rule_ids.push(rule.clone());
                rule_ids.len() - 1
            }
        };
        // What identifies the finding across runs and edits elsewhere (code scanning tracks results by it): the
        // file, the object, the rule and the message — not the line.
        let fingerprint = blake3::hash(format!("{rule}\u{1f}{identity}\u{1f}{message}").as_bytes())
            .to_hex()[..32]
            .to_string();
        let mut r = s::Result::builder()
            .rule_id(rule)
            .rule_index(i64::try_from(index).unwrap_or(0))
            .level(level)
            .message(s::Message::builder().text(message).build())
            .locations(vec![loc])
            .partial_fingerprints(BTreeMap::from([(
                "vgcValidate/v1".to_string(),
                fingerprint,
            )]))
            .build();
        // Properties: the rule's stability level, and the field the API server's defaulting set (the manifest does
        // not show the value the error is about).
        let mut props = BTreeMap::new();
        if let Some(st) = stability {
            props.insert("stability".to_string(), json!(st));
        }
        if let Some(d) = defaulted {
            props.insert("defaulted".to_string(), json!(d.path));
            if let Some(by) = d.by_name() {
                props.insert("defaultedBy".to_string(), json!(by));
            }
        }
        if !props.is_empty() {
            r.properties = Some(
                s::PropertyBag::builder()
                    .additional_properties(props)
                    .build(),
            );
        }
        results_out.push(r);
    };
    for e in &results.entries {
        let name = entry_name(results, e);
        let errors = e.findings.iter().map(|f| (f, s::ResultLevel::Error));
        let shadowed = e.shadowed.iter().map(|f| (f, s::ResultLevel::Warning));
        for (f, level) in errors.chain(shadowed) {
            let rule = if f.type_name == "unknown field" {
                "unknown-field".to_string()
            } else if f.origin.is_empty() {
                // Upstream's error type as an identifier: `Required value` → `required-value`.
                f.type_name.to_lowercase().replace(' ', "-")
            } else {
                f.origin.clone()
            };
            let message = if level == s::ResultLevel::Warning {
                format!("shadowed: {} ({name})", f.message)
            } else {
                format!("{} ({name})", f.message)
            };
            push(
                rule,
                level,
                message,
                location(e.file, f.span.start),
                format!("{}\u{1f}{}", results.file_name(e.file), f.field),
                (f.stability, defaulted_of(f, e)),
            );
        }
        for c in &e.cleared {
            let (l, col) = results.line_col(e.file, c.span.start);
            push(
                format!("{}-{}", c.field, c.action()),
                s::ResultLevel::Note,
                c.note(),
                location(e.file, c.span.start),
                format!(
                    "{}\u{1f}{l}:{col}\u{1f}{}",
                    results.file_name(e.file),
                    c.action()
                ),
                (None, None),
            );
        }
        if let Some(p) = &e.problem {
            let (rule, level) = match e.status {
                Status::Skipped => ("skipped", s::ResultLevel::Note),
                // A checked object's note: hand-written rules left out, or an uncertain create.
                Status::Valid | Status::Invalid => ("note", s::ResultLevel::Note),
                Status::UnknownKind => ("unknown-kind", s::ResultLevel::Error),
                Status::NotChecked => ("not-checked", s::ResultLevel::Error),
                _ => ("unreadable-document", s::ResultLevel::Error),
            };
            let message = if p.label.is_empty() {
                p.message.clone()
            } else {
                format!("{}: {}", p.message, p.label)
            };
            let (l, c) = results.line_col(e.file, p.span.start);
            push(
                rule.to_string(),
                level,
                message,
                location(e.file, p.span.start),
                format!("{}\u{1f}{l}:{c}", results.file_name(e.file)),
                (None, None),
            );
        }
    }
    let rules: Vec<s::ReportingDescriptor> = rule_ids
        .iter()
        .map(|id| s::ReportingDescriptor::builder().id(id.clone()).build())
        .collect();
    let run = s::Run::builder()
        .tool(
            s::Tool::builder()
                .driver(
                    s::ToolComponent::builder()
                        .name("vgc validate")
                        .version(env!("CARGO_PKG_VERSION"))
                        .rules(rules)
                        .build(),
                )
                .build(),
        )
        .results(results_out)
        .column_kind(json!("unicodeCodePoints"))
        .build();
    // Warnings about the run and the API tree (not about a document): notifications of the tool's execution, the
    // API tree's with their code.
    let mut run = run;
    if !results.warnings.is_empty() || !results.run_warnings.is_empty() {
        let about_run = results.run_warnings.iter().map(|w| {
            s::Notification::builder()
                .message(s::Message::builder().text(w.clone()).build())
                .level(json!("warning"))
                .build()
        });
        let notes: Vec<s::Notification> = about_run
            .chain(results.warnings.iter().map(|w| {
                s::Notification::builder()
                    .message(s::Message::builder().text(w.clone()).build())
                    .level(json!("warning"))
                    .descriptor(
                        s::ReportingDescriptorReference::builder()
                            .id("VGC0114")
                            .build(),
                    )
                    .build()
            }))
            .collect();
        run.invocations = Some(vec![
            s::Invocation::builder()
                .execution_successful(true)
                .tool_execution_notifications(notes)
                .build(),
        ]);
    }
    let log = s::Sarif::builder()
        .schema("https://json.schemastore.org/sarif-2.1.0.json")
        .version(json!("2.1.0"))
        .runs(vec![run])
        .build();
    format!(
        "{}\n",
        serde_json::to_string_pretty(&log).unwrap_or_default()
    )
}

/// The objects of kind `av`/`kind` that were validated (valid or invalid; not the undecodable ones) and their
/// errors, for the coverage lines and the JSON report's `kinds`.
fn kind_counts(results: &Results, av: &str, kind: &str) -> (usize, usize) {
    let (mut objects, mut errors) = (
        results
            .quiet
            .get(&(av.to_string(), kind.to_string()))
            .copied()
            .unwrap_or(0),
        0,
    );
    for e in &results.entries {
        if matches!(e.status, Status::Valid | Status::Invalid)
            && e.ident
                .as_ref()
                .is_some_and(|i| i.api_version == av && i.kind == kind)
        {
            objects += 1;
            errors += e.findings.len();
        }
    }
    (objects, errors)
}
