//! `vgc openapi --crd` (issue 39, KEP-3937's Kubebuilder story; `docs/openapi.md` "CRDs that embed native types"):
//! the API tree analysed as `vgc openapi` analyses it ([`crate::openapi::analyse`]), then, for every version of every
//! CustomResourceDefinition given, the Go type of that group, version and kind found among the tree's kinds (the
//! package's `+groupName`, the kind's type name) and its rules added to the version's `openAPIV3Schema` in place
//! ([`vgc_openapi::crd::add_rules`]: inline, no `$ref`, no `x-vgc-*` key, every key the CRD had kept). The CRDs are
//! written as YAML under their own file names into the output directory, as one transaction
//! ([`crate::output::publish`]); a CRD that is not one, or whose kind has no Go type in the tree, is a
//! [`CrdProblem`] at the value in question and nothing is written.
//!
//! The caller reads the files ([`CrdFile`]: the CLI reads them as kubectl does, with the position of every value,
//! to show a problem where it is).

use crate::openapi::{OpenApiOutcome, OpenApiRequest, analyse};
use serde_json::Value;
use std::collections::BTreeMap;

/// One CRD file given with `--crd`, read.
#[derive(Debug, Clone)]
pub struct CrdFile {
    /// The name it is written under in the output directory (the input's file name).
    pub name: String,
    /// Its YAML documents, as JSON values, in order.
    pub documents: Vec<Value>,
    /// Whether the file starts with a `---` line (controller-gen's do): the output then starts each document so.
    pub leading_marker: bool,
}

/// Why a CRD could not get its rules: at `pointer` (a JSON Pointer) of document `document` of file `file` (indexes
/// into the request's files and their documents).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrdProblem {
    /// Index of the file in the request.
    pub file: usize,
    /// Index of the document in the file.
    pub document: usize,
    /// The value in question (`/spec/names/kind`).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

/// What one CRD version got.
#[derive(Debug, Clone)]
pub struct CrdVersion {
    /// The CRD's name (`metadata.name`).
    pub crd: String,
    /// The version.
    pub version: String,
    /// vgc's schema of the version's Go type (`com.example.workers.api.v1.WorkerPool`).
    pub schema: String,
    /// What was added and kept.
    pub report: vgc_openapi::crd::CrdReport,
    /// The lists and maps `--bound-lists` bounded ([`vgc_openapi::crd::bound_lists`]).
    pub bounded: Vec<String>,
    /// Without `--bound-lists`: the lists and maps without a bound that hold a CEL rule, which the API server's cost
    /// estimate sizes by the request limit (the places `--bound-lists` would bound). Not an estimate: the API server
    /// may accept the rules below them, or refuse them (`docs/openapi.md`).
    pub unbounded: Vec<String>,
    /// The CEL cost estimate of the version's schema as written ([`vgc_openapi::cost::crd_schema`], each rule of
    /// vgc's named by its tag and place); its refusals are `VGC0130` warnings in the outcome's `openapi.cost`.
    pub cost: vgc_openapi::cost::SchemaCost,
    /// With `--over-budget unexpressed`: vgc's rules taken out of the version's schema for the cost budget
    /// ([`vgc_openapi::over_budget::take_out_crd`]; listed only here and in their `VGC0130` warnings: a CRD has no
    /// `x-vgc-*` key). [`CrdVersion::cost`] is the estimate after.
    pub taken: Vec<vgc_openapi::over_budget::TakenOut>,
    /// vgc's rules not written because they read fields the version's schema lacks
    /// ([`vgc_openapi::crd::take_out_undefined`]: the API server would refuse them, "undefined field"); not
    /// expressed, each also a warning in [`CrdOutcome::warnings`].
    pub undefined: Vec<vgc_openapi::crd::Undefined>,
}

/// The result of `vgc openapi --crd`.
#[derive(Debug, Default)]
pub struct CrdOutcome {
    /// The analysis and the backend's output (its `files` and `io_error` are this command's).
    pub openapi: OpenApiOutcome,
    /// Problems with the CRDs given (nothing is written when there is one).
    pub problems: Vec<CrdProblem>,
    /// Each CRD version that got rules.
    pub versions: Vec<CrdVersion>,
    /// Versions not served that have no Go type in the tree (`crd/version`): left as they are.
    pub skipped: Vec<String>,
    /// Warnings at a value of a CRD (the CRD is written): a rule of vgc's not written because it reads fields the
    /// schema lacks, at the node it would have gone to.
    pub warnings: Vec<CrdProblem>,
}

/// The ownership record of the CRDs written in `.vgc/`.
const RECORD: &str = "openapi-crd-outputs";

/// Runs `vgc openapi --crd` (see the module docs) over `files`; with `bound_lists`, each version's unbounded lists
/// and maps that hold a CEL rule get that bound ([`vgc_openapi::crd::bound_lists`], `--bound-lists N`).
#[must_use]
pub fn openapi_crd(
    req: &OpenApiRequest,
    mut files: Vec<CrdFile>,
    bound_lists: Option<u64>,
) -> CrdOutcome {
    let (openapi, generated) = analyse(req);
    let mut out = CrdOutcome {
        openapi,
        ..CrdOutcome::default()
    };
    let Some(mut generated) = generated else {
        return out;
    };
    // The tree's kinds by (group, version, kind): the first declaration wins, as `vgc build`'s dispatch picks it.
    let mut kinds: BTreeMap<(String, String, String), String> = BTreeMap::new();
    for k in vgc_lowering::plan::kinds(&out.openapi.build.plan.modules) {
        kinds
            .entry((k.group, k.version, k.kind))
            .or_insert_with(|| vgc_openapi::schema_name(&k.key));
    }
    for (fi, f) in files.iter_mut().enumerate() {
        for (di, doc) in f.documents.iter_mut().enumerate() {
            let problem = |pointer: &str, message: String| CrdProblem {
                file: fi,
                document: di,
                pointer: pointer.to_string(),
                message,
            };
            add_to_document(
                doc,
                &kinds,
                &generated,
                (bound_lists, req.options.over_budget),
                &mut out,
                &problem,
            );
        }
    }
    // The rules taken out, for the summary (`vgc_openapi::Output::over_budget`).
    generated.over_budget = out
        .versions
        .iter()
        .flat_map(|v| v.taken.iter().cloned())
        .collect();
    if !out.problems.is_empty() {
        out.openapi.output = Some(generated);
        return out;
    }
    let mut written = Vec::new();
    for f in &files {
        let mut text = String::new();
        for (i, d) in f.documents.iter().enumerate() {
            if f.leading_marker || i > 0 {
                text.push_str("---\n");
            }
            match serde_norway::to_string(d) {
                Ok(y) => text.push_str(&y),
                Err(e) => {
                    out.openapi.io_error = Some(format!("{}: {e}", f.name));
                    out.openapi.output = Some(generated);
                    return out;
                }
            }
        }
        written.push((f.name.clone(), text.into_bytes()));
    }
    if let Err(e) = std::fs::create_dir_all(&req.out) {
        out.openapi.io_error = Some(format!("{}: {e}", req.out.display()));
    } else {
        match crate::output::publish(&req.out, RECORD, &written, req.force) {
            Ok(notes) => out.openapi.notes.extend(notes),
            Err(e) => out.openapi.io_error = Some(e),
        }
        out.openapi.files = written.into_iter().map(|(n, _)| n).collect();
        out.openapi.files.sort();
    }
    out.openapi.output = Some(generated);
    out
}

/// Adds the rules to every version of the CRD `doc`, or reports why it cannot.
fn add_to_document(
    doc: &mut Value,
    kinds: &BTreeMap<(String, String, String), String>,
    generated: &vgc_openapi::Output,
    (bound_lists, over_budget): (Option<u64>, vgc_openapi::over_budget::OverBudget),
    out: &mut CrdOutcome,
    problem: &dyn Fn(&str, String) -> CrdProblem,
) {
    let str_at = |doc: &Value, p: &str| doc.pointer(p).and_then(Value::as_str).map(str::to_string);
    if str_at(doc, "/apiVersion").as_deref() != Some("apiextensions.k8s.io/v1")
        || str_at(doc, "/kind").as_deref() != Some("CustomResourceDefinition")
    {
        out.problems.push(problem(
            "",
            format!(
                "not a CustomResourceDefinition of apiextensions.k8s.io/v1 (apiVersion {:?}, kind {:?})",
                str_at(doc, "/apiVersion").unwrap_or_default(),
                str_at(doc, "/kind").unwrap_or_default()
            ),
        ));
        return;
    }
    let name = str_at(doc, "/metadata/name").unwrap_or_default();
    let mut required = |p: &str, what: &str| {
        let v = str_at(doc, p);
        if v.as_deref().is_none_or(str::is_empty) {
            out.problems.push(problem(
                p,
                format!("the CRD has no {what} (a string at {p})"),
            ));
        }
        v
    };
    let (Some(group), Some(kind)) = (
        required("/spec/group", "group"),
        required("/spec/names/kind", "kind"),
    ) else {
        return;
    };
    let Some(versions) = doc
        .pointer_mut("/spec/versions")
        .and_then(Value::as_array_mut)
        .filter(|v| !v.is_empty())
    else {
        out.problems.push(problem(
            "/spec/versions",
            "the CRD has no versions (a non-empty list at /spec/versions)".into(),
        ));
        return;
    };
    for (i, v) in versions.iter_mut().enumerate() {
        let at = format!("/spec/versions/{i}");
        let Some(version) = v.get("name").and_then(Value::as_str).map(str::to_string) else {
            out.problems.push(problem(
                &format!("{at}/name"),
                "the version has no name".into(),
            ));
            continue;
        };
        let served = v.get("served").and_then(Value::as_bool).unwrap_or(false);
        let Some(schema_name) = kinds.get(&(group.clone(), version.clone(), kind.clone())) else {
            if served {
                let same: Vec<String> = kinds
                    .keys()
                    .filter(|(g, _, k)| *g == group || *k == kind)
                    .map(|(g, v, k)| format!("{g}/{v} {k}"))
                    .collect();
                // Shown at what is most likely wrong: a group the tree does not have, a kind its group lacks, or
                // the version.
                let pointer = if !kinds.keys().any(|(g, _, _)| *g == group) {
                    "/spec/group".to_string()
                } else if !kinds.keys().any(|(g, _, k)| *g == group && *k == kind) {
                    "/spec/names/kind".to_string()
                } else {
                    format!("{at}/name")
                };
                out.problems.push(problem(
                    &pointer,
                    format!(
                        "no Go type for {group}/{version} {kind} in the API tree: no kind {kind} in a package whose `+groupName` is {group} and whose version is {version}{}",
                        if same.is_empty() {
                            String::new()
                        } else {
                            format!(" (the tree has {})", same.join(", "))
                        }
                    ),
                ));
            } else {
                out.skipped.push(format!("{name}/{version}"));
            }
            continue;
        };
        let Some(schema) = v
            .pointer_mut("/schema/openAPIV3Schema")
            .filter(|s| s.is_object())
        else {
            out.problems.push(problem(
                &format!("{at}/schema"),
                "the version has no schema (an object at schema.openAPIV3Schema)".into(),
            ));
            continue;
        };
        let sorted = keys_sorted(schema);
        match vgc_openapi::crd::add_rules(schema, &generated.schemas, schema_name) {
            Some(report) => {
                let (bounded, unbounded) = match bound_lists {
                    Some(n) => (vgc_openapi::crd::bound_lists(schema, n), Vec::new()),
                    None => (
                        Vec::new(),
                        vgc_openapi::crd::bound_lists(&mut schema.clone(), 0),
                    ),
                };
                if sorted {
                    vgc_openapi::sort_keys(schema);
                }
                let estimate = |v: &Value| {
                    let mut cost = vgc_openapi::cost::crd_schema(v);
                    vgc_openapi::cost::name_rules(&mut cost, &generated.schemas, schema_name);
                    cost
                };
                let undefined = vgc_openapi::crd::take_out_undefined(schema, &estimate(schema));
                for u in &undefined {
                    let fields: Vec<String> = u.fields.iter().map(|f| format!("`{f}`")).collect();
                    out.warnings.push(problem(
                        &format!("{at}/schema/openAPIV3Schema{}", u.pointer),
                        format!(
                            "the CEL rule of `{}` at {name}/{version}{} reads {} {}, which the CRD's schema lacks: not written (the API server refuses a rule reading an undefined field); not expressed",
                            u.tag,
                            u.path,
                            if fields.len() == 1 { "field" } else { "fields" },
                            fields.join(", ")
                        ),
                    ));
                }
                let at = format!("{name}/{version}");
                let taken = if over_budget == vgc_openapi::over_budget::OverBudget::Unexpressed {
                    vgc_openapi::over_budget::take_out_crd(schema, estimate, &at)
                } else {
                    Vec::new()
                };
                let cost = estimate(schema);
                out.openapi
                    .cost
                    .extend(crate::openapi_cost::crd_warnings(&at, &cost));
                out.openapi
                    .cost
                    .extend(crate::openapi_cost::taken_out_warnings(&taken, true));
                out.versions.push(CrdVersion {
                    crd: name.clone(),
                    version,
                    schema: schema_name.clone(),
                    report,
                    bounded,
                    unbounded,
                    cost,
                    taken,
                    undefined,
                });
            }
            None => out.problems.push(problem(
                &format!("{at}/schema/openAPIV3Schema"),
                format!("vgc has no schema of {schema_name}"),
            )),
        }
    }
}

/// Whether every object's keys in `v` are in sorted order (controller-gen writes them so: `sigs.k8s.io/yaml` sorts
/// map keys); the keys vgc adds are then put in order too.
fn keys_sorted(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.keys().zip(m.keys().skip(1)).all(|(a, b)| a <= b) && m.values().all(keys_sorted)
        }
        Value::Array(a) => a.iter().all(keys_sorted),
        _ => true,
    }
}
