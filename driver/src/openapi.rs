//! `vgc openapi` (issue 39, `docs/openapi.md`): the front half of a build — load, settings, check, lower, with the
//! IR cache and the profile detection of `vgc build` — then the OpenAPI backend [`vgc_openapi`] instead of code
//! generation, and the documents written into the output directory as one transaction ([`crate::output::publish`]:
//! the lock, the ownership record, all or nothing).
//!
//! With a spec directory to merge into (`--merge`, k8s.io/kubernetes' `api/openapi-spec/v3`), every `*.json` file of
//! it is read, vgc's rules are added to its schemas ([`vgc_openapi::merge`]), and the merged files are written under
//! their own names; the spec directory itself is only read.

pub use vgc_openapi::cost::bounds::{Bound, Bounds};
pub use vgc_openapi::over_budget::{OverBudget, TakenOut, Why, parse as parse_over_budget};
pub use vgc_openapi::{Options, Output, Unexpressed, parse_cel_env, parse_stability};

use crate::request::{BuildOutcome, BuildRequest};
use crate::sys::OsSystem;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The largest spec file `--merge` reads, in bytes.
const MAX_SPEC_BYTES: u64 = 256 << 20;

/// What `vgc openapi` is asked for.
#[derive(Debug, Clone)]
pub struct OpenApiRequest {
    /// The analysis: path, packages, roots, profile, tag prefix, extension files (made a check-only request).
    pub build: BuildRequest,
    /// The output directory of the documents (created when missing); `.vgc/` in it holds the lock, the ownership
    /// record and, unless [`OpenApiRequest::cache_dir`] says otherwise, the IR cache.
    pub out: PathBuf,
    /// An existing spec directory to add the rules to instead of writing vgc's own documents.
    pub merge: Option<PathBuf>,
    /// Options fixed and stability levels selected.
    pub options: vgc_openapi::Options,
    /// Replace files in the way that vgc did not write (`--force`).
    pub force: bool,
    /// Neither read nor write the IR cache.
    pub no_cache: bool,
    /// The directory of the IR cache instead of `.vgc/` in the output directory.
    pub cache_dir: Option<PathBuf>,
}

/// What the merge did, over every file of the spec directory.
#[derive(Debug, Clone, Default)]
pub struct MergeSummary {
    /// Spec files read (and written merged).
    pub files: usize,
    /// vgc's schemas some spec file holds.
    pub matched: BTreeSet<String>,
    /// vgc's schemas with rules that no spec file holds (their rules are in no output).
    pub unmatched: Vec<String>,
    /// Rule keys added.
    pub added: usize,
    /// Keywords the spec already had with another value, kept ([`vgc_openapi::MergeReport::kept`]).
    pub kept: Vec<String>,
    /// Places with rules that the spec has no schema node at.
    pub missing: Vec<String>,
}

/// The result of `vgc openapi`.
#[derive(Debug, Default)]
pub struct OpenApiOutcome {
    /// The analysis (diagnostics, sources, counts, the plan, the profile).
    pub build: BuildOutcome,
    /// The backend's output (`None` when the analysis had errors).
    pub output: Option<vgc_openapi::Output>,
    /// The merge, with `--merge`.
    pub merge: Option<MergeSummary>,
    /// The files written, relative to the output directory, sorted (every document, unchanged ones included).
    pub files: Vec<String>,
    /// A problem reading the spec directory or writing the output.
    pub io_error: Option<String>,
    /// Notes for the user.
    pub notes: Vec<String>,
    /// `VGC0130` warnings: the rules over the API server's CEL cost budget, each component schema of the documents
    /// estimated as a CRD's `spec` ([`crate::openapi_cost::component_warnings`]).
    pub cost: Vec<vgc_ir::Diagnostic>,
}

/// Runs `vgc openapi` (see the module docs), with [`KIND_ROOTS`] added to the request's root criteria. Nothing is
/// written when the analysis reports an error.
#[must_use]
pub fn openapi(req: &OpenApiRequest) -> OpenApiOutcome {
    let (mut out, generated) = analyse(req);
    let Some(mut generated) = generated else {
        return out;
    };
    // Each component as a CRD's spec, but the list kinds and what only they brought in (no CRD embeds one).
    let names = vgc_openapi::lists::schemas_without_lists(&generated);
    if req.options.over_budget == vgc_openapi::over_budget::OverBudget::Unexpressed {
        take_out_over_budget(&mut generated, &names);
    }
    let costs = vgc_openapi::cost::components(&generated.schemas, &names);
    out.cost = crate::openapi_cost::component_warnings(&costs);
    out.cost.extend(crate::openapi_cost::taken_out_warnings(
        &generated.over_budget,
        false,
    ));
    write(req, &mut out, generated);
    out
}

/// `--over-budget unexpressed`: the rules over the API server's CEL cost budget taken out of `generated`'s schemas
/// (estimating the component schemas `names`: [`vgc_openapi::over_budget::take_out`]) and of its documents' copies
/// of the components that changed; recorded in [`vgc_openapi::Output::over_budget`], and no longer counted in
/// [`vgc_openapi::Output::expressed`] (the summary counts them as not expressed).
pub fn take_out_over_budget(generated: &mut vgc_openapi::Output, names: &BTreeSet<String>) {
    let taken = vgc_openapi::over_budget::take_out(&mut generated.schemas, names);
    generated.expressed = generated.expressed.saturating_sub(taken.len());
    let changed: BTreeSet<&String> = taken.iter().map(|t| &t.schema).collect();
    for d in &mut generated.documents {
        if let Some(serde_json::Value::Object(c)) = d.json.pointer_mut("/components/schemas") {
            for (n, s) in c.iter_mut() {
                if changed.contains(n)
                    && let Some(new) = generated.schemas.get(n)
                {
                    let mut new = new.clone();
                    vgc_openapi::sort_keys(&mut new);
                    *s = new;
                }
            }
        }
    }
    generated.over_budget = taken;
}

/// The analysis of `vgc openapi` (`req.build` with [`KIND_ROOTS`], the IR cache unless `no_cache`) and the backend's
/// output, written nowhere: `None` when the analysis had errors or found no package (the outcome says which).
/// `vgc openapi --crd` ([`crate::openapi_crd`]) starts here too.
#[must_use]
pub fn analyse(req: &OpenApiRequest) -> (OpenApiOutcome, Option<vgc_openapi::Output>) {
    let mut build = req.build.clone();
    build.check_only = true;
    build.out = None;
    // The documents are about the kinds a group/version serves: every kind is a root, also in a package whose own
    // `+k8s:validation-gen` criteria select other types (k8s.io/api's resource/v1: `TypesWithSuffix=…`).
    if !build.extra_roots.iter().any(|r| r == KIND_ROOTS) {
        build.extra_roots.push(KIND_ROOTS.to_string());
    }
    let cache = req
        .cache_dir
        .clone()
        .unwrap_or_else(|| req.out.join(crate::output::STATE_DIR));
    let outcome = if req.no_cache {
        crate::build(&build)
    } else {
        crate::check_with_ir_cache(&build, &OsSystem, &cache)
    };
    let out = OpenApiOutcome {
        build: outcome,
        ..OpenApiOutcome::default()
    };
    if out.build.errors() > 0 || out.build.stats.packages == 0 {
        return (out, None);
    }
    let mut generated = vgc_openapi::generate(&out.build.plan, &req.options);
    // vgc's own documents get the list kinds (`ConfigMapList`); a spec merged into has its own.
    if req.merge.is_none() {
        let listed = listed_kinds(&out.build);
        vgc_openapi::lists::add_list_kinds(&mut generated, &listed);
    }
    (out, Some(generated))
}

/// The kinds of the build's packages whose package declares their list type: a struct `<Kind>List` with an `Items`
/// field, found in the package's Go files (`BuildOutcome::package_files`, parsed into IR: `vgc_ir::model::parse_file`); the plan has no
/// list types (validation-gen selects no root embedding `ListMeta`). A file that cannot be read is skipped (its
/// lists are not written; the analysis read it already).
fn listed_kinds(build: &BuildOutcome) -> Vec<vgc_openapi::lists::ListedKind> {
    let mut out = Vec::new();
    for m in &build.plan.modules {
        let kinds: Vec<&str> = m
            .types
            .iter()
            .filter(|t| t.is_kind())
            .map(|t| t.key.name.as_str())
            .collect();
        if kinds.is_empty() {
            continue;
        }
        let mut lists = BTreeSet::new();
        for f in build.package_files.get(&m.pkg).into_iter().flatten() {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            if !text.contains("List struct") {
                continue;
            }
            for t in vgc_ir::model::parse_file(&text).types {
                if t.fields
                    .iter()
                    .any(|f| f.go_name.as_deref() == Some("Items"))
                {
                    lists.insert(t.name);
                }
            }
        }
        let (group, version) = m.group_version();
        for k in kinds {
            if lists.contains(&format!("{k}List")) {
                out.push(vgc_openapi::lists::ListedKind {
                    key: vgc_analysis::TypeKey {
                        pkg: m.pkg.clone(),
                        name: k.to_string(),
                    },
                    group: group.clone(),
                    version: version.clone(),
                });
            }
        }
    }
    out
}

/// Writes the documents of `generated` (or the merged spec files) into `req.out`; `generated` ends in
/// `out.output`.
fn write(req: &OpenApiRequest, out: &mut OpenApiOutcome, generated: vgc_openapi::Output) {
    let files = match &req.merge {
        None => generated
            .documents
            .iter()
            .map(|d| pretty(&d.json).map(|b| (d.file.clone(), b)))
            .collect::<Result<Vec<_>, _>>(),
        Some(dir) => match merge_dir(dir, &generated) {
            Ok((files, summary)) => {
                out.merge = Some(summary);
                Ok(files)
            }
            Err(e) => Err(e),
        },
    };
    let files = match files {
        Ok(f) => f,
        Err(e) => {
            out.io_error = Some(e);
            out.output = Some(generated);
            return;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&req.out) {
        out.io_error = Some(format!("{}: {e}", req.out.display()));
        out.output = Some(generated);
        return;
    }
    match crate::output::publish(&req.out, RECORD, &files, req.force) {
        Ok(notes) => out.notes.extend(notes),
        Err(e) => out.io_error = Some(e),
    }
    out.files = files.into_iter().map(|(f, _)| f).collect();
    out.files.sort();
    out.output = Some(generated);
}

/// A file to write: its path relative to the output directory and its bytes.
type OutputFile = (String, Vec<u8>);

/// The root criterion `vgc openapi` adds: every kind (a struct embedding `TypeMeta`).
pub const KIND_ROOTS: &str = "TypesWithField=TypeMeta";

/// The ownership record of the documents in `.vgc/`.
const RECORD: &str = "openapi-outputs";

/// A document as k8s.io/kubernetes writes its spec files: two-space indentation and a final newline.
fn pretty(v: &serde_json::Value) -> Result<Vec<u8>, String> {
    let mut b = serde_json::to_vec_pretty(v).map_err(|e| e.to_string())?;
    b.push(b'\n');
    Ok(b)
}

/// Every `*.json` file of the spec directory `dir`, merged with vgc's rules, by file name; and the summary.
pub(crate) fn merge_dir(
    dir: &Path,
    generated: &vgc_openapi::Output,
) -> Result<(Vec<OutputFile>, MergeSummary), String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("--merge {}: {e}", dir.display()))?
        .filter_map(Result::ok)
        // Every `*.json` entry but a directory: a FIFO, a device or a dangling link so named is refused by name
        // below (`sys::read_regular`), not skipped.
        .filter(|e| !std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!(
            "--merge {}: no *.json spec file there (expected an OpenAPI v3 directory such as k8s.io/kubernetes' api/openapi-spec/v3)",
            dir.display()
        ));
    }
    let mut summary = MergeSummary::default();
    let mut files = Vec::new();
    for n in names {
        let path = dir.join(&n);
        // A spec file is a regular file of bounded size (k8s.io/kubernetes' largest is about 2 MB): a FIFO or a
        // device named `x.json` is refused instead of blocking or filling memory.
        let text = crate::sys::read_regular(&path, MAX_SPEC_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut doc: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
        // An OpenAPI v3 document has `openapi` (its version) and keeps its schemas in `components.schemas`: a file
        // with neither is no spec file (a JSON file of something else in the directory, or the wrong directory).
        if !doc.get("openapi").is_some_and(serde_json::Value::is_string)
            && !doc
                .pointer("/components/schemas")
                .is_some_and(serde_json::Value::is_object)
        {
            return Err(format!(
                "{}: not an OpenAPI v3 document: neither an `openapi` version nor `components.schemas` (expected a spec file such as k8s.io/kubernetes' api/openapi-spec/v3/api__v1_openapi.json)",
                path.display()
            ));
        }
        let r = vgc_openapi::merge(&mut doc, &generated.schemas);
        summary.files += 1;
        summary.added += r.added;
        summary.matched.extend(r.matched);
        summary.kept.extend(r.kept);
        summary.missing.extend(r.missing);
        files.push((n, pretty(&doc)?));
    }
    summary.missing.sort();
    summary.missing.dedup();
    summary.kept.sort();
    summary.kept.dedup();
    summary.unmatched = generated
        .schemas
        .iter()
        .filter(|(n, s)| {
            !summary.matched.contains(*n)
                && !n.ends_with(vgc_openapi::UNCORRELATED_SUFFIX)
                && !n.ends_with(vgc_openapi::UNVALIDATED_SUFFIX)
                && holds_rules(s)
        })
        .map(|(n, _)| n.clone())
        .collect();
    Ok((files, summary))
}

/// Whether a schema holds a rule key anywhere.
fn holds_rules(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => {
            vgc_openapi::RULE_KEYS
                .iter()
                .any(|k| *k != "format" && m.contains_key(*k))
                || m.values().any(holds_rules)
        }
        serde_json::Value::Array(a) => a.iter().any(holds_rules),
        _ => false,
    }
}
