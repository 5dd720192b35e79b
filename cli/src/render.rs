//! Diagnostic reports of the command line: GitHub workflow commands, the lint JSON report, SARIF 2.1.0 (serde-sarif),
//! the drift table, fingerprints and fixes. The terminal text of `vgc check` ([`human`], [`human_styled`],
//! [`short`], [`text`]) is the driver's ([`vgc_driver::render`]), re-exported here under its old paths.

use std::collections::BTreeMap;
use vgc_ir::{Diagnostic, Severity};

pub use vgc_driver::render::{human, human_styled, short, text, text_styled};

/// `"1 error"`, `"2 errors"`: `n` and the noun `one`, with an `s` unless `n` is 1 (every count in vgc's summary
/// lines goes through it).
#[must_use]
pub fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// Whether to colour terminal output: `--color always|never`, or for `auto` when `NO_COLOR` is unset or empty
/// (<https://no-color.org>) and the stream is a terminal.
#[must_use]
pub fn use_color(choice: &str, is_terminal: bool) -> bool {
    match choice {
        "always" => true,
        "never" => false,
        _ => is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// GitHub Actions workflow commands, one per diagnostic: `::error file=F,line=L,col=C,endLine=…,endColumn=…,
/// title=CODE name::message` (`::warning` for warnings), `file` relative to `base`; properties and message escaped
/// as the Actions toolkit escapes them. A diagnostic without a file has no location properties but its title.
#[must_use]
pub fn github(diags: &[Diagnostic], sources: &BTreeMap<String, String>, base: &str) -> String {
    fn data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn property(s: &str) -> String {
        data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let mut out = String::new();
    for d in diags {
        let mut props = Vec::new();
        if let Some(f) = &d.file {
            props.push(format!("file={}", property(&relative(f, base))));
            if let Some((l1, c1, l2, c2)) = region(sources.get(f), &d.span) {
                props.push(format!("line={l1},col={c1},endLine={l2},endColumn={c2}"));
            }
        }
        props.push(format!(
            "title={}",
            property(&format!("{} {}", d.code.as_str(), d.code.name()))
        ));
        let mut msg = d.message.clone();
        if let Some(h) = &d.hint {
            msg.push_str(&format!("\nhint: {h}"));
        }
        out.push_str(&format!(
            "::{} {}::{}\n",
            severity_name(d.severity),
            props.join(","),
            data(&msg)
        ));
    }
    out
}

/// A finding's identity that survives edits elsewhere in the file: BLAKE3 of the code, the file relative to
/// `base`, the message and the trimmed text of the line it starts on (not the line number), 32 hex digits. Used
/// by baselines and as SARIF `partialFingerprints`.
#[must_use]
pub fn fingerprint(d: &Diagnostic, sources: &BTreeMap<String, String>, base: &str) -> String {
    let file = d
        .file
        .as_deref()
        .map(|f| relative(f, base))
        .unwrap_or_default();
    let line = d
        .file
        .as_ref()
        .and_then(|f| sources.get(f))
        .map(|t| {
            let start = t[..d.span.start.min(t.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let end = t[start..].find('\n').map_or(t.len(), |i| start + i);
            t[start..end].trim().to_string()
        })
        .unwrap_or_default();
    let mut h = blake3::Hasher::new();
    for part in [d.code.as_str(), &file, &d.message, &line] {
        h.update(part.as_bytes());
        h.update(b"\x1f");
    }
    h.finalize().to_hex()[..32].to_string()
}

/// 1-based (line, column) of a byte offset; columns count Unicode scalar values.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `path` relative to `base` when it lies under it (`/`-separated), else as is.
fn relative(path: &str, base: &str) -> String {
    let base = base.trim_end_matches('/');
    path.strip_prefix(base)
        .and_then(|r| r.strip_prefix('/'))
        .map_or_else(|| path.to_string(), str::to_string)
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A region as (startLine, startColumn, endLine, endColumn), 1-based, end exclusive.
fn region(
    text: Option<&String>,
    span: &std::ops::Range<usize>,
) -> Option<(usize, usize, usize, usize)> {
    let text = text?;
    let (l1, c1) = line_col(text, span.start);
    let (l2, c2) = line_col(text, span.end.max(span.start));
    Some((l1, c1, l2, c2))
}

/// The JSON report (schema version 1, documented in `docs/lint.md`): every diagnostic with its code, rule name,
/// severity, message, file (relative to `base`), 1-based line/column range (columns in characters), hint and fix,
/// then counts per severity and per code, and the drift summary rows (group, versions, types, paths, drifting,
/// accepted).
#[must_use]
pub fn json(
    diags: &[Diagnostic],
    sources: &BTreeMap<String, String>,
    base: &str,
    drift: &[vgc_lowering::drift::GroupDrift],
) -> serde_json::Value {
    let mut by_code: BTreeMap<&str, usize> = BTreeMap::new();
    let items: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            *by_code.entry(d.code.as_str()).or_default() += 1;
            let text = d.file.as_ref().and_then(|f| sources.get(f));
            let r = region(text, &d.span);
            let fix = d.fix.as_ref().map(|f| {
                let fr = region(text, &f.span);
                serde_json::json!({
                    "replacement": f.replacement,
                    "line": fr.map(|r| r.0), "column": fr.map(|r| r.1),
                    "endLine": fr.map(|r| r.2), "endColumn": fr.map(|r| r.3),
                })
            });
            serde_json::json!({
                "code": d.code.as_str(),
                "name": d.code.name(),
                "severity": severity_name(d.severity),
                "message": d.message,
                "file": d.file.as_deref().map(|f| relative(f, base)),
                "line": r.map(|r| r.0), "column": r.map(|r| r.1),
                "endLine": r.map(|r| r.2), "endColumn": r.map(|r| r.3),
                "hint": d.hint,
                "fix": fix,
            })
        })
        .collect();
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    serde_json::json!({
        "version": 1,
        "tool": {"name": "vgc", "version": env!("CARGO_PKG_VERSION")},
        "diagnostics": items,
        "summary": {"errors": errors, "warnings": diags.len() - errors, "byCode": by_code},
        "drift": drift.iter().map(|g| serde_json::json!({
            "group": g.group, "versions": g.versions, "types": g.types, "paths": g.paths,
            "drifting": g.drifting, "accepted": g.accepted,
        })).collect::<Vec<_>>(),
    })
}

/// The `VGC0401` diagnostics of `diags` per API group (the group their message names: `… differs between
/// versions of <group>: …`).
#[must_use]
pub fn drift_by_group(diags: &[Diagnostic]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for d in diags.iter().filter(|d| d.code == vgc_ir::Code::Drift) {
        if let Some(rest) = d
            .message
            .split_once("differs between versions of ")
            .map(|x| x.1)
            && let Some((group, _)) = rest.split_once(": ")
        {
            *out.entry(group.to_string()).or_insert(0) += 1;
        }
    }
    out
}

/// The drift summary as a text table (empty when no group has several versions).
#[must_use]
pub fn drift_table(drift: &[vgc_lowering::drift::GroupDrift]) -> String {
    drift_table_with(drift, None)
}

/// [`drift_table`] for a run with a lint baseline: `baselined` is, per group, how many of its drifting paths the
/// baseline absorbed ([`drift_by_group`] before minus after); a `baselined` column says so, and `drifting` counts
/// only the paths still reported.
#[must_use]
pub fn drift_table_with(
    drift: &[vgc_lowering::drift::GroupDrift],
    baselined: Option<&BTreeMap<String, usize>>,
) -> String {
    if drift.is_empty() {
        return String::new();
    }
    let width = drift
        .iter()
        .map(|g| g.group.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let extra = |s: &str| match baselined {
        Some(_) => format!("  {s:>9}"),
        None => String::new(),
    };
    let mut out = format!(
        "{:width$}  {:>5}  {:>5}  {:>8}  {:>8}{}  versions\n",
        "group",
        "types",
        "paths",
        "drifting",
        "accepted",
        extra("baselined")
    );
    for g in drift {
        let absorbed = baselined
            .and_then(|b| b.get(&g.group))
            .copied()
            .unwrap_or(0);
        // Before exceptions, as `accepted` counts them apart; without the paths the baseline absorbed.
        let drifting = g.drifting.saturating_sub(absorbed);
        out.push_str(&format!(
            "{:width$}  {:>5}  {:>5}  {:>8}  {:>8}{}  {}\n",
            g.group,
            g.types,
            g.paths,
            drifting,
            g.accepted,
            extra(&absorbed.to_string()),
            g.versions.join(", ")
        ));
    }
    out
}

/// The directory SARIF URIs are relative to: the repository root (the nearest ancestor of `base` holding `.git`),
/// else the Go module root (nearest `go.mod`), else `base` itself — so code-scanning services, which resolve URIs
/// against the repository root, find the files.
#[must_use]
pub fn source_root(base: &str) -> String {
    let p = std::path::Path::new(base);
    let find = |marker: &str| {
        p.ancestors()
            .find(|d| d.join(marker).exists())
            .map(|d| d.display().to_string())
    };
    find(".git")
        .or_else(|| find("go.mod"))
        .unwrap_or_else(|| base.to_string())
}

/// A rule's documentation address (SARIF `helpUri`): `docs_url` (the diagnostics page) with the code as its
/// fragment (any fragment of `docs_url` replaced), the anchor both `docs/diagnostics.md` and the `vgc docs` site's
/// `diagnostics.html` give each code: `…/diagnostics.md#VGC0301`.
#[must_use]
pub fn help_uri(docs_url: &url::Url, code: vgc_ir::Code) -> String {
    let mut u = docs_url.clone();
    u.set_fragment(Some(code.as_str()));
    u.into()
}

/// A SARIF 2.1.0 log with one run, built with the typed model of the `serde-sarif` crate (generated from the
/// OASIS schema): the tool's rules (every code of the registry, with its name, rationale, default level and
/// `helpUri` — [`help_uri`] under `docs_url` when one is configured; without it a rule has no `helpUri` and its
/// `help` text points at `vgc explain CODE`, as vgc has no canonical public address to invent), one invocation, and one result per diagnostic with its
/// `partialFingerprints` ([`fingerprint`], as `vgc/v1`), message, hint, fix and a location relative to
/// [`source_root`] of `base` (`uriBaseId` `SRCROOT`); a diagnostic about no particular file is located at the
/// linted directory. Columns are Unicode code points (`columnKind`). Serialize it with serde (`serde_json`).
#[must_use]
pub fn sarif(
    diags: &[Diagnostic],
    sources: &BTreeMap<String, String>,
    base: &str,
    docs_url: Option<&url::Url>,
) -> serde_sarif::sarif::Sarif {
    use serde_sarif::sarif as s;
    let root_dir = source_root(base);
    let linted = {
        let r = relative(base, &root_dir);
        if r == base || r.is_empty() {
            "./".to_string()
        } else {
            format!("{}/", r.trim_end_matches('/'))
        }
    };
    let text = |t: String| s::MultiformatMessageString::builder().text(t).build();
    let rules: Vec<s::ReportingDescriptor> = vgc_ir::ALL_CODES
        .iter()
        .map(|c| {
            let mut rule = s::ReportingDescriptor::builder()
                .id(c.as_str())
                .name(c.name())
                .short_description(text(c.name().replace('-', " ")))
                .full_description(text(c.rationale().to_string()))
                .help(text(format!(
                    "{}: {} Run `vgc explain {}` or see docs/diagnostics.md.",
                    c.as_str(),
                    c.rationale(),
                    c.as_str()
                )))
                .default_configuration(
                    s::ReportingConfiguration::builder()
                        .level(serde_json::json!(severity_name(c.default_severity())))
                        .build(),
                )
                .build();
            rule.help_uri = docs_url.map(|u| help_uri(u, *c));
            rule
        })
        .collect();
    let results: Vec<s::Result> = diags
        .iter()
        .map(|d| {
            let text = d.file.as_ref().and_then(|f| sources.get(f));
            let index = vgc_ir::ALL_CODES
                .iter()
                .position(|c| *c == d.code)
                .unwrap_or(0);
            let mut message = d.message.clone();
            if let Some(h) = &d.hint {
                message.push_str(&format!(" (hint: {h})"));
            }
            let artifact = s::ArtifactLocation::builder()
                .uri(
                    d.file
                        .as_deref()
                        .map_or_else(|| linted.clone(), |f| relative(f, &root_dir)),
                )
                .uri_base_id("SRCROOT")
                .build();
            let region = |span: &std::ops::Range<usize>| {
                region(text, span).map(|(l1, c1, l2, c2)| {
                    let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
                    s::Region::builder()
                        .start_line(n(l1))
                        .start_column(n(c1))
                        .end_line(n(l2))
                        .end_column(n(c2))
                        .build()
                })
            };
            let physical = s::PhysicalLocation {
                artifact_location: Some(artifact.clone()),
                region: region(&d.span),
                ..Default::default()
            };
            let fixes =
                d.fix.as_ref().map(|f| {
                    vec![
                        s::Fix::builder()
                            .description(
                                s::Message::builder()
                                    .text(d.hint.clone().unwrap_or_else(|| {
                                        "apply the suggested replacement".into()
                                    }))
                                    .build(),
                            )
                            .artifact_changes(vec![
                                s::ArtifactChange::builder()
                                    .artifact_location(artifact.clone())
                                    .replacements(vec![
                                        s::Replacement::builder()
                                            // A fix always sits in a file vgc read, so its region exists.
                                            .deleted_region(region(&f.span).unwrap_or_default())
                                            .inserted_content(
                                                s::ArtifactContent::builder()
                                                    .text(f.replacement.clone())
                                                    .build(),
                                            )
                                            .build(),
                                    ])
                                    .build(),
                            ])
                            .build(),
                    ]
                });
            s::Result {
                fixes,
                ..s::Result::builder()
                    .rule_id(d.code.as_str())
                    .rule_index(i64::try_from(index).unwrap_or(0))
                    .level(match d.severity {
                        Severity::Error => s::ResultLevel::Error,
                        Severity::Warning => s::ResultLevel::Warning,
                    })
                    .message(s::Message::builder().text(message).build())
                    .partial_fingerprints(BTreeMap::from([(
                        "vgc/v1".to_string(),
                        fingerprint(d, sources, &root_dir),
                    )]))
                    .locations(vec![
                        s::Location::builder().physical_location(physical).build(),
                    ])
                    .build()
            }
        })
        .collect();
    let root = std::path::absolute(&root_dir)
        .map_or_else(|_| root_dir.clone(), |p| p.display().to_string());
    let run = s::Run::builder()
        .tool(
            s::Tool::builder()
                .driver(
                    s::ToolComponent::builder()
                        .name("vgc")
                        .version(env!("CARGO_PKG_VERSION"))
                        .rules(rules)
                        .build(),
                )
                .build(),
        )
        .invocations(vec![
            s::Invocation::builder().execution_successful(true).build(),
        ])
        .original_uri_base_ids(BTreeMap::from([(
            "SRCROOT".to_string(),
            s::ArtifactLocation::builder()
                .uri(format!("file://{}/", root.trim_end_matches('/')))
                .build(),
        )]))
        .column_kind(serde_json::json!("unicodeCodePoints"))
        .results(results)
        .build();
    s::Sarif::builder()
        .schema("https://json.schemastore.org/sarif-2.1.0.json")
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build()
}

/// Applies every diagnostic's fix to `sources` (non-overlapping fixes per file, applied from the end). Returns the
/// changed files' new texts.
#[must_use]
pub fn apply_fixes(
    diags: &[Diagnostic],
    sources: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut per_file: BTreeMap<&str, Vec<&vgc_ir::Fix>> = BTreeMap::new();
    for d in diags {
        if let (Some(f), Some(fix)) = (&d.file, &d.fix) {
            per_file.entry(f.as_str()).or_default().push(fix);
        }
    }
    let mut out = BTreeMap::new();
    for (file, mut fixes) in per_file {
        let Some(text) = sources.get(file) else {
            continue;
        };
        fixes.sort_by_key(|f| std::cmp::Reverse(f.span.start));
        let mut new = text.clone();
        let mut limit = usize::MAX;
        for f in fixes {
            if f.span.end > limit || f.span.end > new.len() || !new.is_char_boundary(f.span.start) {
                continue;
            }
            new.replace_range(f.span.clone(), &f.replacement);
            limit = f.span.start;
        }
        if new != *text {
            out.insert(file.to_string(), new);
        }
    }
    out
}
