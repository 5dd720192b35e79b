//! `vgc validate --api k8s.io/api@v0.Y.Z` against what the API server of Kubernetes v1.Y.Z answers, for its declarative
//! part, to a create of every object of that release's own manifests (issue 37's acceptance).
//!
//! Per release pair — k8s.io/kubernetes v1.37.2 with k8s.io/api v0.37.2, and v1.38.0-beta.0 with v0.38.0-beta.0
//! (`GOTOOLCHAIN=auto` fetches go1.27.0 for it) — the population is every `*.yaml`, `*.yml` and `*.json` file under
//! the k8s.io/kubernetes release's `test/` and `cluster/` (fetched through the Go module proxy, never copied here);
//! the 1.38 pair also validates v1.37.2's files.
//!
//! 1. **vgc.** `vgc validate --api k8s.io/api@<v> --output json` over those files with no other flag — the library
//!    call the command makes ([`cli_options`]: the release defaults `vgc::release::load` reads — every feature gate
//!    at its default as the options, the release's enforcement — and nothing else); and once with `--strict`.
//! 2. **The API server's code.** A scratch Go module ([`vgc_tests::kubernetes_defaulters::build_scheme`]) holds
//!    unchanged copies of the release's `pkg/apis/<group>/<version>` `defaults.go`, `zz_generated.defaults.go` and
//!    `zz_generated.validations.go` (and what they need), registered with every k8s.io/api package's types in a
//!    `runtime.Scheme`; the driver (`tests/upstream/server_verdict_oracle.go`) reads each file as kubectl does,
//!    decodes each object into its k8s.io/api type as the server's JSON serializer does (and strictly, as
//!    `fieldValidation=Strict` does), defaults it (`scheme.Default`) and validates it as k8s.io/apiserver
//!    `rest.ValidateDeclarativelyWithMigrationChecks` does for a create (`scheme.Validate` with the options the kind's
//!    create defines — its REST strategy's `DeclarativeValidationConfig`, read with go/ast, each gate at the
//!    release's default — and `validate.FilterEnforcedDeclarativeErrors` with the release's
//!    `DeclarativeValidationBeta` default): the enforced and the shadowed errors.
//! 3. **Comparison**, document by document (after checking that vgc's manifest reader and kubectl's give the same
//!    documents, same JSON; vgc's report entries placed in documents by position, list items by order): the same
//!    verdict — valid, invalid, refused at decoding, skipped (a kind outside k8s.io/api, a group/version without
//!    declarative validation), not an object with a kind — and the same enforced errors, and the same shadowed ones,
//!    each compared as the sorted list of (field, type, detail, origin, message, stability): nothing is normalised.
//!    One equivalence: a kind with no declarative rule at all, which vgc validates with nothing to report and for
//!    which the scheme has no validation function. The strict decoding errors must be `--strict`'s unknown fields.
//!    Any difference fails the test, listed with its file and line.
//! 4. **Placeholders.** The invalid objects (enforced errors) must be exactly [`PLACEHOLDERS`]: template placeholders
//!    in manifests that are Go templates, each listed with its reason.
//!
//! The status reset of the strategies' `PrepareForCreate` is compared too: the driver resets the decoded object's
//! `Status` as the release's create strategy does (read with go/ast) and names the strategy line where the manifest
//! wrote a status; vgc's `cleared` note must name the same line.
//!
//! Not covered: the API server's hand-written validation (`pkg/apis/<group>/validation`), the rest of its strategies'
//! `PrepareForCreate` (dropped disabled fields) and admission, the conversion round trip through the
//! internal version (the driver validates the decoded, defaulted versioned object), and which group/versions the
//! server serves by default (beta and alpha versions are off unless enabled: a real server answers 404 for them).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use vgc_ir::Upstream;
use vgc_tests::harness::download_module;
use vgc_tests::kubernetes_defaulters;

const DRIVER: &str = include_str!("../upstream/server_verdict_oracle.go");

/// The objects that are invalid by the rules the release's server enforces: (release, file, field of the error, why
/// it is a placeholder and not a mistake of the manifest).
const PLACEHOLDERS: &[(&str, &str, &str, &str)] = &[
    (
        "v1.37.2",
        "test/integration/scheduler_perf/dra/templates/deviceclass-extended-resource-scoring.yaml",
        "metadata.name",
        "a scheduler_perf Go template: the name `scoring-test-class-{{.Index}}` gets its index when the test \
         instantiates it (beta rule `k8s-long-name`, enforced from 1.36)",
    ),
    (
        "v1.37.2",
        "test/integration/scheduler_perf/dra/templates/podgroup-with-claim-ref.yaml",
        "spec.resourceClaims[0].resourceClaimName",
        "a scheduler_perf Go template: `test-claim-{{.Index}}`",
    ),
    (
        "v1.38.0-beta.0",
        "test/integration/scheduler_perf/dra/templates/deviceclass-extended-resource-scoring.yaml",
        "metadata.name",
        "as in 1.37",
    ),
    (
        "v1.38.0-beta.0",
        "test/integration/scheduler_perf/dra/templates/podgroup-with-claim-ref.yaml",
        "spec.resourceClaims[0].resourceClaimName",
        "as in 1.37",
    ),
    (
        "v1.38.0-beta.0",
        "test/integration/scheduler_perf/event_handling/templates/nodeupdate-pod-tainttoleration.yaml",
        "spec.tolerations[0].key",
        "a scheduler_perf Go template: `toleration-{{ DivideInt .Index 10 }}`; its rule (`Toleration.Key` \
         `k8s-label-key`) is alpha in 1.37 — shadowed there, the server never returns it — and beta from 1.38, \
         enforced with `DeclarativeValidationBeta` on",
    ),
];

/// One release pair.
struct Release {
    kubernetes: &'static str,
    api: &'static str,
    profile: Upstream,
    /// Other k8s.io/kubernetes releases whose manifests are validated against this one too.
    also: &'static [&'static str],
}

/// The options `vgc validate --api k8s.io/api@<v> --output json` runs with (`cli/src/commands/validate.rs` with no
/// other flag): the release's defaults, nothing overridden.
fn cli_options(defaults: &vgc::release::ReleaseDefaults) -> vgc::validate::Options {
    vgc::validate::Options {
        options: defaults.gates.clone(),
        enforce: defaults.enforce(),
        release: Some(defaults.release_name()),
        enforce_from_release: true,
        kubernetes: defaults.dir.clone().map(|d| (defaults.source.clone(), d)),
        create_resets: defaults.create_resets.clone(),
        update_keeps: defaults.update_keeps.clone(),
        output: vgc::validate::OutputFormat::Json,
        ..Default::default()
    }
}

/// An error as compared: (field, type, detail, origin, message, stability).
type Line = (String, String, String, String, String, String);

fn lines(errors: &Value) -> Vec<Line> {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let mut out: Vec<Line> = errors
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                s(&e["field"]),
                s(&e["type"]),
                s(&e["detail"]),
                s(&e["origin"]),
                s(&e["message"]),
                s(&e["stability"]),
            )
        })
        .collect();
    out.sort();
    out
}

/// What one side says of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    /// Not an object with a kind (kubectl refuses to send it).
    NoKind,
    /// A kind the API does not declare (skipped by vgc; the scheme does not know it).
    Unknown,
    /// Refused at decoding (a wrong JSON type, an invalid quantity).
    Undecodable,
    /// Validated: enforced and shadowed errors.
    Checked(Vec<Line>, Vec<Line>),
    /// The kind's declarative validation is off (`+k8s:validation-gen=false`; Go: no validation function).
    NoValidation,
}

fn vgc_verdict(e: &Value) -> Verdict {
    let status = e["status"].as_str().unwrap_or("");
    let has_kind = e["kind"].as_str().is_some_and(|k| !k.is_empty());
    match status {
        "valid" | "invalid" => Verdict::Checked(lines(&e["errors"]), lines(&e["shadowed"])),
        "unreadable" if !has_kind => Verdict::NoKind,
        "unreadable" => Verdict::Undecodable,
        "skipped" | "unknown-kind"
            if e["message"]
                .as_str()
                .is_some_and(|m| m.contains("validation-gen=false")) =>
        {
            Verdict::NoValidation
        }
        "skipped" | "unknown-kind" => Verdict::Unknown,
        other => panic!("vgc status {other}: {e}"),
    }
}

fn go_verdict(o: &Value) -> Verdict {
    match o["status"].as_str().unwrap_or("") {
        "no-kind" => Verdict::NoKind,
        "unknown-kind" => Verdict::Unknown,
        "undecodable" => Verdict::Undecodable,
        "no-validation" => Verdict::NoValidation,
        "validated" => Verdict::Checked(lines(&o["enforced"]), lines(&o["shadowed"])),
        other => panic!("driver status {other}: {o}"),
    }
}

/// The byte offset of 1-based `line` and `column` (characters) in `text`.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    start
        + text[start..]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(text.len() - start, |(i, _)| i)
}

/// The 1-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Counts and findings of one release.
#[derive(Default)]
struct Tally {
    files: usize,
    documents: usize,
    objects: usize,
    compared: usize,
    equal: usize,
    valid: usize,
    invalid: BTreeMap<(String, usize), Vec<Line>>,
    shadowed: usize,
    kinds: BTreeSet<(String, String)>,
    /// Documents neither side reads (malformed YAML or JSON, `{{ }}` in key position).
    malformed: usize,
    no_kind: usize,
    unknown: usize,
    no_validation: usize,
    /// Kinds vgc validates with no rule that Go registers no validation for.
    ruleless: BTreeSet<(String, String)>,
    ruleless_objects: usize,
    undecodable: usize,
    /// Objects whose written status both sides clear before validating (PrepareForCreate), with the strategy line.
    cleared: Vec<String>,
    differences: Vec<String>,
    strict: Vec<String>,
    /// The options the server's create defines, per kind that defines some (the driver's reading).
    options: BTreeMap<String, String>,
}

/// What both sides need for one release: vgc's loaded API and the release's defaults, the built driver and its
/// arguments.
struct Sides {
    api: vgc::validate::Api,
    defaults: vgc::release::ReleaseDefaults,
    driver: std::path::PathBuf,
    kubernetes: std::path::PathBuf,
    apiserver: String,
    /// `v0.37.2`.
    api_version: &'static str,
}

/// Steps 1 to 3 over the `test/` and `cluster/` manifests of k8s.io/kubernetes at `manifests` (its module
/// directory); the differences are in the tally, not asserted here.
fn population(sides: &Sides, manifests: &Path) -> (Tally, String) {
    let start = std::time::Instant::now();
    // 1. vgc, as the command runs.
    let dirs = [
        format!("{}/test", manifests.display()),
        format!("{}/cluster", manifests.display()),
    ];
    let mut inputs = vgc::validate::read_inputs(&dirs).expect("read");
    let paths: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let prefix = format!("{}/", manifests.display());
    for i in &mut inputs {
        i.name = i.name.strip_prefix(&prefix).unwrap_or(&i.name).to_string();
    }
    let api = &sides.api;
    let (text, _) = vgc::validate::run(api, &inputs, &[], &cli_options(&sides.defaults));
    let report: Value = serde_json::from_str(&text).expect("JSON report");
    let (strict_text, _) = vgc::validate::run(
        api,
        &inputs,
        &[],
        &vgc::validate::Options {
            strict: true,
            ..cli_options(&sides.defaults)
        },
    );
    let strict_report: Value = serde_json::from_str(&strict_text).expect("JSON report");
    let vgc_time = start.elapsed();

    // 2. The API server's code.
    let list: Vec<Value> = inputs
        .iter()
        .zip(&paths)
        .map(|(i, p)| serde_json::json!({"name": i.name, "path": p}))
        .collect();
    let mut child = Command::new(&sides.driver)
        .arg(&sides.kubernetes)
        .arg(&sides.apiserver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the driver runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let body = Value::Array(list).to_string();
    let writer = std::thread::spawn(move || stdin.write_all(body.as_bytes()));
    let out = child.wait_with_output().expect("the driver ends");
    writer.join().expect("writer").expect("write the file list");
    assert!(out.status.success(), "the driver failed");
    let mut go_docs: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let d: Value = serde_json::from_str(l).expect("driver JSON");
        go_docs
            .entry(d["file"].as_str().expect("file").to_string())
            .or_default()
            .push(d);
    }
    let go_time = start.elapsed() - vgc_time;

    // 3. Document by document.
    let mut vgc_entries: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for e in report["documents"].as_array().expect("documents") {
        vgc_entries
            .entry(e["file"].as_str().expect("file").to_string())
            .or_default()
            .push(e);
    }
    let mut strict_entries: BTreeMap<(String, usize, usize), Vec<String>> = BTreeMap::new();
    for e in strict_report["documents"].as_array().expect("documents") {
        let unknown: Vec<String> = e["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|x| x["type"] == "unknown field")
            .map(|x| x["message"].as_str().unwrap_or("").to_string())
            .collect();
        if !unknown.is_empty() {
            strict_entries.insert(
                (
                    e["file"].as_str().unwrap_or("").to_string(),
                    e["line"].as_u64().unwrap_or(0) as usize,
                    e["column"].as_u64().unwrap_or(0) as usize,
                ),
                unknown,
            );
        }
    }
    let mut t = Tally::default();
    for input in &inputs {
        t.files += 1;
        let text = std::str::from_utf8(&input.bytes).expect("UTF-8");
        let docs = vgc::manifests::load(text);
        let go = go_docs.remove(&input.name).unwrap_or_default();
        let name = &input.name;
        if docs.len() != go.len() {
            t.differences.push(format!(
                "{name}: vgc reads {} documents, kubectl {}",
                docs.len(),
                go.len()
            ));
            continue;
        }
        // Where each document starts, to place vgc's report entries.
        let starts: Vec<usize> = docs
            .iter()
            .map(|d| match d {
                Ok(d) => d.range.start,
                Err(e) => e.span.start,
            })
            .collect();
        let mut per_doc: Vec<Vec<&Value>> = vec![Vec::new(); docs.len()];
        for e in vgc_entries.remove(name).unwrap_or_default() {
            let at = offset(
                text,
                e["line"].as_u64().expect("line") as usize,
                e["column"].as_u64().expect("column") as usize,
            );
            let i = starts.iter().rposition(|s| *s <= at).unwrap_or(0);
            per_doc[i].push(e);
        }
        for (i, (doc, g)) in docs.iter().zip(&go).enumerate() {
            t.documents += 1;
            let line = line_of(text, starts[i]);
            let at = format!("{name}:{line}");
            match (doc, g["json"].as_str()) {
                (Ok(d), Some(json)) => {
                    let kubectl: Value = serde_json::from_str(json).expect("the driver's JSON");
                    if d.value != kubectl {
                        t.differences.push(format!(
                            "{at}: vgc reads the document as {}, kubectl as {json}",
                            d.value
                        ));
                        continue;
                    }
                }
                (Err(_), None) => {}
                (Ok(_), None) => {
                    t.differences.push(format!(
                        "{at}: vgc reads the document, kubectl does not: {}",
                        g["error"]
                    ));
                    continue;
                }
                (Err(e), Some(_)) => {
                    t.differences.push(format!(
                        "{at}: kubectl reads the document, vgc does not: {}",
                        e.message
                    ));
                    continue;
                }
            }
            let objects = g["objects"].as_array().expect("objects");
            let entries = &per_doc[i];
            if doc.is_err() {
                // Neither reads it: one unreadable entry on vgc's side.
                t.malformed += 1;
                assert_eq!(entries.len(), 1, "{at}: {entries:?}");
                continue;
            }
            if objects.len() != entries.len() {
                t.differences.push(format!(
                    "{at}: kubectl sends {} objects for the document, vgc validates {}",
                    objects.len(),
                    entries.len()
                ));
                continue;
            }
            for (o, e) in objects.iter().zip(entries) {
                t.objects += 1;
                let line = e["line"].as_u64().unwrap_or(0);
                let at = format!("{name}:{line}");
                let (v, g) = (vgc_verdict(e), go_verdict(o));
                // PrepareForCreate: the same status cleared, by the same strategy line.
                let after_module = |s: &str| {
                    s.split_once(' ')
                        .map_or(String::new(), |(_, r)| r.to_string())
                };
                let (vgc_reset, go_reset) = (
                    after_module(e["cleared"]["by"].as_str().unwrap_or("")),
                    after_module(o["reset"].as_str().unwrap_or("")),
                );
                if vgc_reset != go_reset {
                    t.differences.push(format!(
                        "{at}: PrepareForCreate clears status by {go_reset:?} at the server, by {vgc_reset:?} in vgc"
                    ));
                } else if !go_reset.is_empty() {
                    t.cleared.push(format!("{at}: {go_reset}"));
                }
                // fieldValidation=Strict: Go's strict decoding errors against `vgc validate --strict`'s unknown
                // fields.
                let mut go_strict: Vec<String> = o["strict"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| x.as_str().expect("a message").to_string())
                    .collect();
                go_strict.sort();
                let mut vgc_strict = strict_entries
                    .remove(&(
                        name.clone(),
                        line as usize,
                        e["column"].as_u64().unwrap_or(0) as usize,
                    ))
                    .unwrap_or_default();
                vgc_strict.sort();
                if go_strict != vgc_strict {
                    t.differences.push(format!(
                        "{at}: fieldValidation=Strict refuses {go_strict:?}, vgc --strict {vgc_strict:?}"
                    ));
                } else if !go_strict.is_empty() {
                    t.strict.push(format!("{at}: {}", go_strict.join(", ")));
                }
                // A kind whose types have no declarative rule: vgc validates it (nothing to report), Go's scheme
                // has no validation function for it (`scheme.Validate` returns nothing).
                let ruleless =
                    v == Verdict::Checked(Vec::new(), Vec::new()) && g == Verdict::NoValidation;
                if ruleless {
                    t.ruleless_objects += 1;
                    t.ruleless.insert((
                        o["apiVersion"].as_str().unwrap_or("").to_string(),
                        o["kind"].as_str().unwrap_or("").to_string(),
                    ));
                }
                if v != g && !ruleless {
                    t.differences.push(format!(
                        "{at} {} {}: vgc {v:?}, the server's code {g:?}",
                        o["apiVersion"].as_str().unwrap_or(""),
                        o["kind"].as_str().unwrap_or("")
                    ));
                    continue;
                }
                match v {
                    Verdict::NoKind => t.no_kind += 1,
                    Verdict::Unknown => t.unknown += 1,
                    Verdict::NoValidation => t.no_validation += 1,
                    Verdict::Undecodable => t.undecodable += 1,
                    Verdict::Checked(enforced, shadowed) => {
                        if let Some(options) = o["options"].as_object() {
                            t.options.insert(
                                format!(
                                    "{} {}",
                                    o["apiVersion"].as_str().unwrap_or(""),
                                    o["kind"].as_str().unwrap_or("")
                                ),
                                format!(
                                    "{} from {}",
                                    Value::Object(options.clone()),
                                    o["strategy"].as_str().unwrap_or("")
                                ),
                            );
                        }
                        t.compared += 1;
                        t.equal += 1;
                        t.shadowed += shadowed.len();
                        t.kinds.insert((
                            o["apiVersion"].as_str().unwrap_or("").to_string(),
                            o["kind"].as_str().unwrap_or("").to_string(),
                        ));
                        if enforced.is_empty() {
                            t.valid += 1;
                        } else {
                            t.invalid.insert((name.clone(), line as usize), enforced);
                        }
                    }
                }
            }
        }
    }
    for ((f, l, _), left) in &strict_entries {
        t.differences.push(format!(
            "{f}:{l}: vgc --strict reports {left:?} where the server's decoding does not"
        ));
    }
    for (f, left) in &vgc_entries {
        t.differences
            .push(format!("{f}: {} vgc entries of no document", left.len()));
    }

    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "server-verdicts: k8s.io/{} test/ and cluster/ against k8s.io/api@{}: {} files, {} documents, {} objects; {} \
         compared over {} kinds: {} equal ({} valid, {} invalid), {} different ({} objects of {} kinds with no \
         declarative rule at all); {} shadowed errors (equal); skipped by both: {} of kinds outside k8s.io/api or of group/versions the release no longer serves, {} \
         of a group/version without declarative validation; refused by both: {} malformed documents, {} not \
         objects with a kind, {} not decodable; with kubectl's default fieldValidation=Strict also {} objects with unknown fields (the same \
         with vgc --strict); written statuses both sides clear before validating (PrepareForCreate): {}; vgc \
         {:.1}s, the Go driver {:.1}s",
        manifests
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        sides.api_version,
        t.files,
        t.documents,
        t.objects,
        t.compared,
        t.kinds.len(),
        t.equal,
        t.valid,
        t.invalid.len(),
        t.differences.len(),
        t.ruleless_objects,
        t.ruleless.len(),
        t.shadowed,
        t.unknown,
        t.no_validation,
        t.malformed,
        t.no_kind,
        t.undecodable,
        t.strict.len(),
        t.cleared.len(),
        vgc_time.as_secs_f64(),
        go_time.as_secs_f64(),
    );
    for ((f, l), errors) in &t.invalid {
        let _ = writeln!(
            summary,
            "  invalid: {f}:{l}: {:?}",
            errors.iter().map(|e| &e.4).collect::<Vec<_>>()
        );
    }
    for (k, o) in &t.options {
        let _ = writeln!(summary, "  options: {k}: {o}");
    }
    for s in &t.strict {
        let _ = writeln!(summary, "  strict: {s}");
    }
    for s in &t.cleared {
        let _ = writeln!(summary, "  cleared: {s}");
    }
    for d in &t.differences {
        let _ = writeln!(summary, "  DIFFERENT: {d}");
    }
    (t, summary)
}

fn agree(release: &Release) {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let start = std::time::Instant::now();
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let work = root
        .join("target/e2e/server-verdicts")
        .join(release.kubernetes);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (kubernetes, _) = download_module(
        &format!("k8s.io/kubernetes@{}", release.kubernetes),
        tmp.path(),
    );
    let (api_dir, _) = download_module(&format!("k8s.io/api@{}", release.api), tmp.path());
    let (apiserver, _) = download_module(&format!("k8s.io/apiserver@{}", release.api), tmp.path());
    let kubernetes = Path::new(&kubernetes).to_path_buf();

    // vgc's side: what `vgc validate --api k8s.io/api@<v>` loads.
    let loaded = vgc::validate::load_api(&vgc::validate::request(api_dir.clone()), None)
        .unwrap_or_else(|out| panic!("k8s.io/api does not load: {:?}", out.diagnostics));
    assert_eq!(loaded.api.plan.upstream, release.profile);
    let kubernetes_version =
        vgc::release::kubernetes_version_of(release.api).expect("a release version");
    assert_eq!(kubernetes_version, release.kubernetes);
    let defaults = vgc::release::load(&kubernetes_version).expect("the release's defaults");
    let loaded_at = start.elapsed();
    let kept = |status: bool, field: &str| {
        defaults
            .update_keeps
            .iter()
            .filter(|k| k.status == status && k.field == field)
            .count()
    };
    eprintln!(
        "server-verdicts: {}: strategies read: {} kinds' creates reset status, {} updates keep the stored status, {} \
         status updates keep the stored spec ({} update keeps in all)",
        release.kubernetes,
        defaults.create_resets.len(),
        kept(false, "Status"),
        kept(true, "Spec"),
        defaults.update_keeps.len()
    );

    // The API server's side.
    let type_pkgs = kubernetes_defaulters::type_packages(Path::new(&api_dir));
    let copies = kubernetes_defaulters::build_scheme(
        &kubernetes,
        release.kubernetes,
        &work,
        &type_pkgs,
        &[(
            "verdicts",
            vec![("main.go".to_string(), DRIVER.to_string())],
        )],
    );
    let built = start.elapsed() - loaded_at;
    eprintln!(
        "server-verdicts: {}: {} k8s.io/api packages registered, {} pkg/apis packages copied ({} with generated \
         validation); load {:.1}s, Go build {:.1}s",
        release.kubernetes,
        type_pkgs.len(),
        copies.len(),
        copies
            .values()
            .filter(|f| f.iter().any(|f| f == "zz_generated.validations.go"))
            .count(),
        loaded_at.as_secs_f64(),
        built.as_secs_f64()
    );
    let sides = Sides {
        api: loaded.api,
        defaults,
        driver: work.join("verdicts"),
        kubernetes: kubernetes.clone(),
        apiserver,
        api_version: release.api,
    };

    let expected: BTreeSet<(String, String)> = PLACEHOLDERS
        .iter()
        .filter(|p| p.0 == release.kubernetes)
        .map(|p| (p.1.to_string(), p.2.to_string()))
        .collect();
    let mut populations = vec![kubernetes.clone()];
    for m in release.also {
        populations.push(
            download_module(&format!("k8s.io/kubernetes@{m}"), tmp.path())
                .0
                .into(),
        );
    }
    for manifests in &populations {
        let (t, summary) = population(&sides, manifests);
        eprint!("{summary}");
        assert!(t.differences.is_empty(), "{summary}");
        // 4. The invalid objects are the placeholders.
        let invalid: BTreeSet<(String, String)> = t
            .invalid
            .iter()
            .flat_map(|((f, _), errors)| errors.iter().map(move |e| (f.clone(), e.0.clone())))
            .collect();
        assert_eq!(
            invalid, expected,
            "the invalid objects must be the placeholders\n{summary}"
        );
    }
    // 5. Every kind the scheme registers, once, as a bare object (`metadata.name` only): whether the release serves
    // its group/version (prerelease-lifecycle-gen's `APILifecycleRemoved`, its default rule included) and what its
    // rules say of an empty object — the kinds of group/versions no manifest uses.
    let out = Command::new(&sides.driver)
        .arg("--kinds")
        .output()
        .expect("the driver runs");
    assert!(out.status.success(), "the driver failed");
    let every = tmp.path().join("every-kind");
    std::fs::create_dir_all(every.join("test")).expect("mkdir");
    std::fs::create_dir_all(every.join("cluster")).expect("mkdir");
    let mut text = String::new();
    let mut n = 0;
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let k: Value = serde_json::from_str(l).expect("driver JSON");
        let _ = writeln!(
            text,
            "---\napiVersion: {}\nkind: {}\nmetadata:\n  name: every-kind\n",
            k["apiVersion"].as_str().expect("apiVersion"),
            k["kind"].as_str().expect("kind")
        );
        n += 1;
    }
    assert!(n > 100, "{n} kinds");
    std::fs::write(every.join("test/every-kind.yaml"), text).expect("write");
    let (t, summary) = population(&sides, &every);
    eprint!("{summary}");
    assert!(t.differences.is_empty(), "{summary}");
    assert_eq!(t.objects, n, "{summary}");
    eprintln!(
        "server-verdicts: {}: {:.1}s in all",
        release.kubernetes,
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn vgc_verdicts_are_the_servers_1_37() {
    agree(&Release {
        kubernetes: "v1.37.2",
        api: "v0.37.2",
        profile: Upstream::V1_37,
        also: &[],
    });
}

#[test]
fn vgc_verdicts_are_the_servers_1_38() {
    agree(&Release {
        kubernetes: "v1.38.0-beta.0",
        api: "v0.38.0-beta.0",
        profile: Upstream::V1_38,
        also: &["v1.37.2"],
    });
}
