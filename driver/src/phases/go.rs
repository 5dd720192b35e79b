//! The Go target's `generate` and `write` phases (`--target go`, `vgc validation-gen`; `docs/go-backend.md`):
//! upstream validation-gen's file for every target package that carries a `+k8s:validation-gen` tag, printed by
//! `vgc_gogen` from the same plan the Rust backend reads, and written into the packages' directories as one
//! transaction under the Go module root.
//!
//! **Which packages.** As upstream `targets.go`: a target package whose `doc.go` has a `+k8s:validation-gen` tag
//! (not `=false`) gets the file — with `init`/`RegisterValidations` and one function per type with validations,
//! or only the header and package clause when it has none. A target package without the tag gets none (vgc's
//! other targets apply `TypesWithField=TypeMeta` to it; upstream does not generate it at all, and neither does
//! this target: a note counts them). Read-only packages are never written.
//!
//! **Activation packages.** A target package with `+k8s:validation-gen-input=<pkg>` (k8s.io/kubernetes'
//! `pkg/apis/<group>/<version>` for `k8s.io/api/<group>/<version>`) gets the file of its input's types, its own
//! criteria selecting the roots it registers (`vgc_analysis::types::activations`; the load reads the input
//! read-only). Calls into another input's types go to that input's canonical output package — the one that
//! registers with a scheme, else the first — and into its own input's to itself (upstream `resolveFunc`). One
//! input may be generated into several packages, each by its own criteria: k8s.io/api's `resource/v1` activates
//! itself (`TypesWithSuffix=…`, no scheme) while k8s.io/kubernetes' `pkg/apis/resource/v1` registers its
//! `TypeMeta` types; both files are written when both are targets, as upstream writes both. Two registering
//! packages of one input are upstream's fatal error, here `VGC0005`.
//!
//! **All or nothing.** A package whose plan the Go backend cannot print yet is a `VGC0129` error per construct and
//! no file is written for any package: regenerating some packages and not others would leave the repository with
//! files of two generations (the others would still call validators of the old one). So is a call into the
//! validation function of a type whose package no file of the build is printed for when that package does not
//! declare the function (`VGC0004` at the field, [`declared_validators`]): the file would not compile.

use crate::database::Database;
use crate::request::{BuildRequest, GoTarget};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;
use vgc_analysis::Program;
use vgc_codegen::GeneratedFile;
use vgc_ir::{Code, Diagnostic};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::ModulePlan;

/// The record of the files the Go builds wrote, in `.vgc/` under the module root: one a line, its path relative to
/// the root, then, each after a tab, the directories (relative to the root) of the packages it belongs to ([`Stale`]).
/// A recorded file a later build does not write is removed as stale when still generated and every package it
/// belongs to is one of that build's targets or gone ([`write`]). A line without a tab (vgc before this rule)
/// belongs to its own directory.
const RECORD: &str = "go-outputs";

/// What [`write`] needs to know, beside the files, to tell stale outputs from others' ([`GoGeneration::stale`]).
#[derive(Default)]
pub(crate) struct Stale {
    /// The output file's path (relative to the module root) in every target package directory that gets none:
    /// removed when it holds a generated file.
    pub(crate) not_written: Vec<String>,
    /// The directories (relative to the module root, `""` for the root) of this build's target packages.
    pub(crate) targets: BTreeSet<String>,
    /// Each written file → the directories of the packages it belongs to: a package's own files its directory; a
    /// coverage fixture the packages whose kinds' rules it lists.
    pub(crate) owners: BTreeMap<String, BTreeSet<String>>,
}

/// The last Go generation of a live [`Session`](crate::Session) (`vgc watch --target go`): each package's printed
/// file with everything its printing depended on, so that a rebuild prints again only the packages for which
/// something did. A one-shot build keeps none.
///
/// A file is reused when the build's [`vgc_gogen::GoOptions`] (header, every input's output packages and copies)
/// and upstream profile equal those it was printed under, its module plan and output package are equal to the
/// ones it was printed from, and the new [`vgc_gogen::Generator`] answers every read it recorded of the plan-wide
/// indexes the same ([`vgc_gogen::Reads`]: other packages' types it looked up, comparability, reach) — the
/// contract [`vgc_gogen::Reads`] states. Module plans and type plans are compared as `Arc`s first (unchanged ones
/// are the same allocation, the lowering's queries keep them), then by value. Files that failed to print
/// (`VGC0129`) are not kept. The generator's own plan-wide indexes (comparability, reach) are taken from the last
/// one when no type's members changed (`vgc_gogen::Generator::reusing`). What is derived from the printed file
/// each build — the checks of its calls into packages no file is printed for, the package's coverage test and
/// fixtures — is computed again every build.
#[derive(Default)]
pub(crate) struct LastGo {
    /// The options and profile the files were printed under (`None` before the first build).
    under: Option<(vgc_gogen::GoOptions, vgc_ir::Upstream)>,
    /// By output package (import path).
    files: HashMap<String, Kept>,
    /// The last generator's plan-wide indexes, which the next one takes when its plan's types differ only in what
    /// they do not read (`vgc_gogen::Generator::reusing`: checks, not members).
    indexes: Option<vgc_gogen::Indexes>,
}

/// One package's file in [`LastGo`], with what it was printed from.
struct Kept {
    /// The module plan of the package's input.
    module: ModulePlan,
    /// The output package (name, scheme registry, root criteria).
    output: vgc_gogen::OutputPackage,
    /// The file, with what it read of the plan-wide indexes.
    printed: Arc<vgc_gogen::Printed>,
}

/// What [`generate`] produced.
pub(crate) struct GoGeneration {
    /// One file per written package, path relative to the module root.
    pub(crate) files: Vec<GeneratedFile>,
    /// `VGC0129` per construct the backend cannot print (then `files` is empty).
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// What decides which files are stale ([`write`]).
    pub(crate) stale: Stale,
    /// Target packages without a `+k8s:validation-gen` tag (no file, as upstream).
    pub(crate) untagged: Vec<String>,
    /// Packages whose file was taken from the session's last generation ([`LastGo`]) instead of printed.
    pub(crate) reused: usize,
}

/// Prints the file of every target package of `prog` that carries a `+k8s:validation-gen` tag (see the module
/// docs), with `header` (the `--go-header-file` text, `YEAR` replaced). Paths are relative to `root` (the module
/// root); a package directory outside it is an error naming it.
///
/// With `last` (a live session's memo), a package whose printing depends on nothing that changed since `last`
/// was filled takes its file from there ([`LastGo`]; counted in [`GoGeneration::reused`]), and `last` is then
/// replaced by this build's files. `None` (a one-shot build) keeps nothing.
///
/// # Errors
/// A package directory outside `root`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate(
    db: &Database,
    sys: &dyn vgc_analysis::System,
    prog: &Program,
    plan: &CratePlan,
    go: &GoTarget,
    header: &str,
    root: &Path,
    last: Option<&mut LastGo>,
) -> Result<GoGeneration, String> {
    let modules: HashMap<&str, &ModulePlan> = plan
        .modules
        .iter()
        .map(|m| (m.pkg.as_str(), &**m))
        .collect();
    let mut untagged = Vec::new();
    let mut not_written = Vec::new();
    let mut targets = BTreeSet::new();
    let mut rel_of = HashMap::new();
    for p in prog.packages.values().filter(|p| p.target) {
        let dir = Path::new(&p.dir).strip_prefix(root).map_err(|_| {
            format!(
                "{}: package directory outside the Go module root {} the Go target writes under",
                p.dir,
                root.display()
            )
        })?;
        targets.insert(dir.to_string_lossy().into_owned());
        let rel = dir.join(&go.output_file).to_string_lossy().into_owned();
        let cfg = vgc_analysis::types::gen_config(db, prog, &p.path, &mut Vec::new());
        if cfg.implicit || cfg.disabled {
            if cfg.implicit {
                untagged.push(p.path.clone());
            }
            not_written.push(rel);
            continue;
        }
        rel_of.insert(p.path.clone(), rel);
    }
    let activations = vgc_analysis::types::activations(db, prog);
    let extra_roots: Vec<String> = vgc_ir::Settings::try_get(db)
        .map(|s| s.extra_roots(db).clone())
        .unwrap_or_default();
    let outputs = Outputs::of(db, prog, &activations, &extra_roots);
    let mut diagnostics = outputs.conflicts.clone();
    // Calls into another input's types go to that input's canonical output package; calls into the file's own
    // input stay in the file's package (upstream `resolveFunc`: the local copy wins over the canonical one).
    // `GoOptions` may grow fields the driver leaves at their defaults.
    #[allow(clippy::needless_update)]
    let options = vgc_gogen::GoOptions {
        header: header.to_string(),
        outputs: outputs.canonical.clone(),
        copies: outputs.copies.clone(),
        ..Default::default()
    };
    let mut jobs = Vec::new();
    for a in activations.iter().filter(|a| !a.cfg.implicit) {
        let (Some(rel), Some(own)) = (rel_of.get(&a.pkg), outputs.own.get(&a.pkg)) else {
            continue;
        };
        // A tagged package whose input has no type in the plan (none selected, or none reachable): upstream still
        // writes its file, the header and the package clause.
        let module = modules.get(a.input.as_str()).map_or_else(
            || {
                std::borrow::Cow::Owned(ModulePlan {
                    pkg: a.input.clone(),
                    group: None,
                    types: Vec::new(),
                    deep_equal: None,
                    go_name: own.name.clone(),
                    scheme_registry: None,
                })
            },
            |m| std::borrow::Cow::Borrowed(*m),
        );
        jobs.push((a, rel.clone(), module, own));
    }
    let generator = vgc_gogen::Generator::reusing(
        plan,
        &options,
        last.as_deref().and_then(|l| l.indexes.as_ref()),
    );
    // The last generation's files are of use only under the same options and profile.
    let previous = last.as_deref().filter(|l| {
        l.under
            .as_ref()
            .is_some_and(|(o, u)| *o == options && *u == plan.upstream)
    });
    let printed: Vec<_> = jobs
        .par_iter()
        .map(|(a, rel, m, own)| {
            let kept = previous
                .and_then(|l| l.files.get(&a.pkg))
                .filter(|k| {
                    k.module == **m && k.output == **own && generator.reads_hold(&k.printed.reads)
                })
                .map(|k| k.printed.clone());
            match kept {
                Some(p) => (a, rel, Ok(p), true),
                None => (a, rel, generator.print(m, own).map(Arc::new), false),
            }
        })
        .collect();
    let reused = printed.iter().filter(|(_, _, _, kept)| *kept).count();
    if let Some(l) = last {
        l.under = Some((options.clone(), plan.upstream));
        l.indexes = Some(generator.indexes());
        l.files = jobs
            .iter()
            .zip(&printed)
            .filter_map(|((a, _, m, own), (_, _, r, _))| {
                let kept = Kept {
                    module: (**m).clone(),
                    output: (*own).clone(),
                    printed: r.as_ref().ok()?.clone(),
                };
                Some((a.pkg.clone(), kept))
            })
            .collect();
    }
    let mut files = Vec::new();
    let mut declared: HashMap<String, BTreeSet<String>> = HashMap::new();
    for (a, rel, r, _) in printed {
        match r {
            Ok(p) => {
                for c in &p.foreign_calls {
                    let names = declared
                        .entry(c.callee.pkg.clone())
                        .or_insert_with(|| declared_validators(db, sys, prog, go, &c.callee.pkg));
                    if !names.contains(&c.callee.name) {
                        diagnostics.push(undeclared_call_diag(db, prog, a, c));
                    }
                }
                files.push(GeneratedFile {
                    path: rel.clone(),
                    contents: p.text.clone(),
                    chunks: Vec::new(),
                });
                files.extend(package_test(db, prog, &generator, &jobs, a, rel, header));
                files.extend(fixture_test(db, prog, a, rel, header, &mut diagnostics));
            }
            Err(unsupported) => {
                diagnostics.extend(
                    unsupported
                        .iter()
                        .map(|u| unsupported_diag(db, prog, a, rel, u)),
                );
            }
        }
    }
    let mut owners: BTreeMap<String, BTreeSet<String>> = files
        .iter()
        .map(|f| (f.path.clone(), BTreeSet::from([parent_dir(&f.path)])))
        .collect();
    if let Some(cov) = &go.coverage {
        let reports = jobs
            .iter()
            .filter(|(_, _, _, own)| own.scheme_registry.is_some())
            .flat_map(|(a, rel, m, own)| {
                let (group, version) = group_version(db, prog, &a.input, m);
                generator
                    .coverage_reports(m, own, &group, &version)
                    .into_iter()
                    .map(|r| (parent_dir(rel), r))
            })
            .collect::<Vec<_>>();
        for (f, by) in coverage_fixtures(sys, plan.upstream, cov, header, root, &reports)? {
            owners.insert(f.path.clone(), by);
            files.push(f);
        }
    }
    if !diagnostics.is_empty() {
        files.clear();
    }
    Ok(GoGeneration {
        files,
        diagnostics,
        stale: Stale {
            not_written,
            targets,
            owners,
        },
        untagged,
        reused,
    })
}

/// The `<output>_coverage_test.go` of activation `a` (its file at `rel`) when its package's `doc.go` says
/// `+k8s:validation-gen-test-targets` (upstream `targets.go`, `generateTestTargetsTag`): the declared rules of the
/// roots it generates for (`vgc_gogen::coverage::package_test`), beside its file.
fn package_test(
    db: &Database,
    prog: &Program,
    generator: &vgc_gogen::Generator<'_>,
    jobs: &[PrintJob<'_>],
    a: &vgc_analysis::types::Activation,
    rel: &str,
    header: &str,
) -> Option<GeneratedFile> {
    use vgc_ir::catalog::ControlTag;
    let p = prog.packages.get(&a.pkg)?;
    let tagged = p
        .files
        .iter()
        .filter(|f| f.path(db).ends_with("/doc.go"))
        .any(|f| {
            vgc_ir::db::file_ir(db, *f)
                .package_tags
                .iter()
                .any(|u| u.control_tag() == Some(ControlTag::ValidationGenTestTargets))
        });
    if !tagged {
        return None;
    }
    let (_, _, m, own) = jobs.iter().find(|(j, _, _, _)| j.pkg == a.pkg)?;
    let reports = generator.coverage_reports(m, own, &a.pkg, &own.name);
    let contents = vgc_gogen::coverage::package_test(&reports, &a.pkg, &own.name, header)?;
    let path = Path::new(rel).with_file_name(vgc_gogen::coverage::package_test_name(
        &Path::new(rel).file_name()?.to_string_lossy(),
    ));
    Some(GeneratedFile {
        path: path.to_string_lossy().into_owned(),
        contents,
        chunks: Vec::new(),
    })
}

/// The `<output>_test.go` of activation `a` (its file at `rel`) when its package's `doc.go` says
/// `+k8s:validation-gen-test-fixture=validateFalse` (upstream `targets.go` `testFixtureTag`,
/// `vgc_gogen::coverage::fixture_test`).
///
/// Another value is an error at the tag, pushed to `diagnostics` (upstream panics: "must be one of
/// 'validateFalse'").
fn fixture_test(
    db: &Database,
    prog: &Program,
    a: &vgc_analysis::types::Activation,
    rel: &str,
    header: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<GeneratedFile> {
    use vgc_ir::catalog::ControlTag;
    let p = prog.packages.get(&a.pkg)?;
    let mut found = false;
    for f in p.files.iter().filter(|f| f.path(db).ends_with("/doc.go")) {
        let ir = vgc_ir::db::file_ir(db, *f);
        for u in ir
            .package_tags
            .iter()
            .filter(|u| u.control_tag() == Some(ControlTag::ValidationGenTestFixture))
        {
            let value = u.raw_value.as_deref().unwrap_or_default().trim();
            if value != "validateFalse" {
                diagnostics.push(
                    Diagnostic::error(
                        Code::GeneratorConfig,
                        format!(
                            "+{} must be one of 'validateFalse', but got: {value} (upstream validation-gen stops here too)",
                            vgc_ir::db::tag_prefix(db).qualify(&u.name)
                        ),
                    )
                    .at(f.path(db).clone(), vgc_ir::db::span_of(db, *f, u.at)),
                );
                return None;
            }
            found = true;
        }
    }
    if !found {
        return None;
    }
    let name = Path::new(rel).file_name()?;
    let path = Path::new(rel).with_file_name(vgc_gogen::coverage::fixture_test_name(
        &name.to_string_lossy(),
    ));
    Some(GeneratedFile {
        path: path.to_string_lossy().into_owned(),
        contents: vgc_gogen::coverage::fixture_test(&p.name, header),
        chunks: Vec::new(),
    })
}

/// One package to print: its activation, its file's path, the input's plan and its output package.
type PrintJob<'a> = (
    &'a vgc_analysis::types::Activation,
    String,
    std::borrow::Cow<'a, ModulePlan>,
    &'a vgc_gogen::OutputPackage,
);

/// The API group and version of input package `input` as upstream `collectReports` derives them for the coverage
/// fixtures: the group from its `GroupName` string constant, else its import path; the version its package name
/// when that looks like an API version (`vgc_gogen::coverage::is_api_version`), else `""`.
fn group_version(db: &Database, prog: &Program, input: &str, m: &ModulePlan) -> (String, String) {
    let pkg = prog.packages.get(input);
    let group = pkg
        .and_then(|p| {
            p.files.iter().find_map(|f| {
                vgc_ir::db::file_ir(db, *f)
                    .consts
                    .iter()
                    .find(|c| c.name == "GroupName")
                    .and_then(|c| match &c.value {
                        vgc_ir::model::ConstValue::Str(g) => Some(g.clone()),
                        _ => None,
                    })
            })
        })
        .unwrap_or_else(|| input.to_string());
    let name = pkg.map_or(m.go_name.as_str(), |p| p.name.as_str());
    let version = if vgc_gogen::coverage::is_api_version(name) {
        name.to_string()
    } else {
        String::new()
    };
    (group, version)
}

/// validation-gen's `--test-allowlist` entry as `sigs.k8s.io/yaml` reads it (unknown keys ignored).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct AllowlistYaml {
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    error_type: Option<String>,
    #[serde(default)]
    origin: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

/// upstream `loadAllowlist`: the YAML list at `path` (read through `sys`), every field of every entry required.
///
/// # Errors
/// The file cannot be read or parsed, or an entry lacks a field (upstream's messages).
pub(crate) fn allowlist(
    sys: &dyn vgc_analysis::System,
    path: &str,
) -> Result<Vec<vgc_gogen::coverage::AllowlistEntry>, String> {
    let text = sys
        .read_file(path)
        .map_err(|e| format!("--test-allowlist: reading allowlist {path:?}: {e}"))?;
    let raw: Option<Vec<AllowlistYaml>> = serde_norway::from_str(&text)
        .map_err(|e| format!("--test-allowlist: parsing allowlist {path:?}: {e}"))?;
    let mut out = Vec::new();
    for (i, e) in raw.unwrap_or_default().into_iter().enumerate() {
        let fields = [
            ("apiVersion", &e.api_version),
            ("kind", &e.kind),
            ("path", &e.path),
            ("errorType", &e.error_type),
            ("origin", &e.origin),
            ("reason", &e.reason),
        ];
        if let Some((name, _)) = fields
            .iter()
            .find(|(_, v)| v.as_deref().is_none_or(|v| v.trim().is_empty()))
        {
            return Err(format!(
                "--test-allowlist: allowlist {path:?} entry {i}: {name} is required (use \"*\" to wildcard)"
            ));
        }
        out.push(vgc_gogen::coverage::AllowlistEntry {
            api_version: e.api_version.unwrap_or_default(),
            kind: e.kind.unwrap_or_default(),
            path: e.path.unwrap_or_default(),
            error_type: e.error_type.unwrap_or_default(),
            origin: e.origin.unwrap_or_default(),
        });
    }
    Ok(out)
}

/// The directory of `rel` (a path relative to the module root; `""` for a file at the root).
fn parent_dir(rel: &str) -> String {
    Path::new(rel)
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The coverage fixtures of `reports` (`vgc_gogen::coverage::fixtures`; each with the directory, relative to the
/// module root, of the package whose kind it reports) as files relative to the module root `root`, each with the
/// directories of the packages whose reports it lists.
///
/// # Errors
/// The profile's validation-gen has no fixtures (before 1.37), `--test-output-root` is outside `root`, the
/// allowlist cannot be read.
fn coverage_fixtures(
    sys: &dyn vgc_analysis::System,
    upstream: vgc_ir::Upstream,
    cov: &crate::request::CoverageFixtures,
    header: &str,
    root: &Path,
    reports: &[(String, vgc_gogen::coverage::Report)],
) -> Result<Vec<(GeneratedFile, BTreeSet<String>)>, String> {
    if !vgc_gogen::coverage::has_fixtures(upstream) {
        return Err(format!(
            "--test-output-root: validation-gen of Kubernetes {} writes no coverage test fixtures (code-generator v0.37 on has the flag)",
            upstream.as_str()
        ));
    }
    let rel = Path::new(&cov.root).strip_prefix(root).map_err(|_| {
        format!(
            "--test-output-root {}: outside the Go module root {} the Go target writes under",
            cov.root,
            root.display()
        )
    })?;
    let allowlist = match &cov.allowlist {
        Some(p) => allowlist(sys, p)?,
        None => Vec::new(),
    };
    let rel = rel.to_string_lossy().into_owned();
    let mut by_dir: HashMap<String, BTreeSet<String>> = HashMap::new();
    for (pkg, r) in reports {
        by_dir
            .entry(vgc_gogen::coverage::fixture_dir(&rel, &r.group, &r.kind))
            .or_default()
            .insert(pkg.clone());
    }
    let reports: Vec<vgc_gogen::coverage::Report> =
        reports.iter().map(|(_, r)| r.clone()).collect();
    let o = vgc_gogen::coverage::FixtureOptions {
        root: rel,
        file_prefix: cov.file_prefix.clone(),
        allowlist,
        header: header.to_string(),
    };
    Ok(vgc_gogen::coverage::fixtures(&reports, &o, upstream)
        .into_iter()
        .map(|f| {
            let by = by_dir
                .get(&parent_dir(&f.path))
                .cloned()
                .unwrap_or_default();
            let file = GeneratedFile {
                path: f.path,
                contents: f.contents,
                chunks: Vec::new(),
            };
            (file, by)
        })
        .collect())
}

/// Where each input package's validation is printed (upstream `targets.go`'s `inputToCanonicalPkg` and the
/// generator it makes per activation).
struct Outputs {
    /// Each generating target package's own output, by its import path.
    own: HashMap<String, vgc_gogen::OutputPackage>,
    /// Input package → its canonical output, the one other packages' calls into its types resolve to: the
    /// package that registers with a scheme, else the first in program order.
    canonical: BTreeMap<String, vgc_gogen::OutputPackage>,
    /// Input package → every output package of it, registering one first, the others in program order (upstream
    /// `inputToOutputPkgs`; [`vgc_gogen::GoOptions::copies`]).
    copies: BTreeMap<String, Vec<String>>,
    /// `VGC0005` per input generated into two registering packages (upstream stops there: "mark one
    /// +k8s:validation-gen-scheme-registry=nil").
    conflicts: Vec<Diagnostic>,
}

impl Outputs {
    fn of(
        db: &Database,
        prog: &Program,
        activations: &[vgc_analysis::types::Activation],
        extra_roots: &[String],
    ) -> Self {
        // How many activations select roots of each input: the plan's roots are their union, so an output names
        // its own criteria only when another activation adds roots to its input (vgc's implicit activation of an
        // untagged target package included); else the plan's roots are exactly its own.
        let mut selecting: HashMap<&str, usize> = HashMap::new();
        for a in activations {
            *selecting.entry(a.input.as_str()).or_default() += 1;
        }
        let mut own = HashMap::new();
        let mut canonical: BTreeMap<String, vgc_gogen::OutputPackage> = BTreeMap::new();
        let mut copies: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut conflicts = Vec::new();
        for a in activations.iter().filter(|a| !a.cfg.implicit) {
            let Some(p) = prog.packages.get(&a.pkg) else {
                continue;
            };
            let scheme_registry = match a.cfg.scheme_registry.as_deref() {
                None => Some(vgc_lowering::plan::DEFAULT_SCHEME_REGISTRY.to_string()),
                Some("nil") => None,
                Some(v) => Some(v.to_string()),
            };
            let roots = (selecting.get(a.input.as_str()).copied().unwrap_or(0) > 1).then(|| {
                let c = &a.cfg;
                c.all
                    .then(|| "*".to_string())
                    .into_iter()
                    .chain(c.with_field.iter().map(|f| format!("TypesWithField={f}")))
                    .chain(c.with_suffix.iter().map(|s| format!("TypesWithSuffix={s}")))
                    .chain(extra_roots.iter().cloned())
                    .collect()
            });
            let out = vgc_gogen::OutputPackage {
                path: a.pkg.clone(),
                name: p.name.clone(),
                scheme_registry,
                roots,
            };
            let list = copies.entry(a.input.clone()).or_default();
            if out.scheme_registry.is_some() {
                list.insert(0, a.pkg.clone());
            } else {
                list.push(a.pkg.clone());
            }
            match canonical.get(&a.input) {
                None => {
                    canonical.insert(a.input.clone(), out.clone());
                }
                Some(prev) if out.scheme_registry.is_some() => {
                    if prev.scheme_registry.is_some() {
                        let mut d = Diagnostic::error(
                            Code::GeneratorConfig,
                            format!(
                                "input {} is generated into two registering packages ({}, {})",
                                a.input, prev.path, a.pkg
                            ),
                        )
                        .with_hint("mark one of them `+k8s:validation-gen-scheme-registry=nil` (upstream validation-gen stops here too)");
                        if let Some(t) = vgc_analysis::program::validation_gen_input(db, &p.files) {
                            d = d.at(
                                t.file.path(db).clone(),
                                vgc_ir::db::span_of(db, t.file, t.at),
                            );
                        }
                        conflicts.push(d);
                    } else {
                        // A registering package displaces a non-registering one.
                        canonical.insert(a.input.clone(), out.clone());
                    }
                }
                Some(_) => {}
            }
            own.insert(a.pkg.clone(), out);
        }
        Self {
            own,
            canonical,
            copies,
            conflicts,
        }
    }
}

/// The names `<T>` of the `func Validate_<T>(` declarations of package `pkg` (an import path): in its loaded
/// files, and — for a package that is not a target of this build — in its `<output file>` too, which the load
/// hides ([`crate::go::HideGenerated`]) but which a dependency committed with its validation generated (k8s.io/api's
/// `resource/v1`) declares its functions in. A declaration is a line starting with `func Validate_<T>(` — as
/// gengo prints one; read through `sys`, so the build manifest observes the files.
fn declared_validators(
    db: &Database,
    sys: &dyn vgc_analysis::System,
    prog: &Program,
    go: &GoTarget,
    pkg: &str,
) -> BTreeSet<String> {
    let Some(p) = prog.packages.get(pkg) else {
        return BTreeSet::new();
    };
    let mut texts: Vec<std::sync::Arc<String>> =
        p.files.iter().map(|f| f.text(db).clone()).collect();
    if !p.target {
        let path = Path::new(&p.dir).join(&go.output_file);
        if let Ok(t) = sys.read_file(&path.to_string_lossy()) {
            texts.push(std::sync::Arc::new(t));
        }
    }
    texts
        .iter()
        .flat_map(|t| t.lines())
        .filter_map(|l| l.strip_prefix("func Validate_"))
        .filter_map(|l| l.split_once('(').map(|(name, _)| name.trim().to_string()))
        .collect()
}

/// The error for call `c` of the file of activation `a` into a validation function no package declares: the file
/// would not compile (`undefined: v1.Validate_ObjectMeta`). Upstream validation-gen refuses such a field too ("type
/// … is in a non-included package"), and with `--readonly-pkg` prints the call and leaves `go build` to fail. At
/// the field (or type) making the call; `VGC0004`.
fn undeclared_call_diag(
    db: &Database,
    prog: &Program,
    a: &vgc_analysis::types::Activation,
    c: &vgc_gogen::ForeignCall,
) -> Diagnostic {
    let pkg = &c.callee.pkg;
    let name = &c.callee.name;
    let short = pkg.rsplit('/').next().unwrap_or(pkg);
    let d = Diagnostic::error(
        Code::Unresolved,
        format!(
            "{}: the Go target would call {short}.Validate_{name}, which package {pkg} does not declare: type \
             {pkg}.{name} has validations but is in a package no file of this build is generated for (upstream \
             validation-gen: \"type {pkg}.{name} is in a non-included package\"); nothing is written",
            c.subject
        ),
    )
    .with_hint(format!(
        "add `+k8s:opaqueType` to the field to skip its type's validation (`+k8s:eachVal=+k8s:opaqueType` for the \
         elements of a list or map, `+k8s:eachKey=+k8s:opaqueType` for a map's keys), or add a package that generates \
         {pkg}'s validation to the inputs: {pkg} itself with a `+k8s:validation-gen` tag, or a package that says \
         `+k8s:validation-gen-input={pkg}` (as k8s.io/apimachinery's pkg/apis/meta/v1/validation does for meta/v1)"
    ));
    locate(db, prog, &a.input, &c.subject, d)
}

/// `VGC0129` for construct `u` of the file of activation `a` (its types are `a.input`'s), at the declaration of
/// the type or field it names (`type T`, `field T.F`), else without a place.
fn unsupported_diag(
    db: &Database,
    prog: &Program,
    a: &vgc_analysis::types::Activation,
    rel: &str,
    u: &vgc_gogen::Unsupported,
) -> Diagnostic {
    let pkg = a.pkg.as_str();
    let file_name = Path::new(rel)
        .file_name()
        .map_or_else(|| rel.to_string(), |n| n.to_string_lossy().into_owned());
    let d = Diagnostic::error(
        Code::GoBackendUnsupported,
        format!(
            "the Go target cannot print this rule yet: {} ({}); no {file_name} is written for package {pkg}, nor for any other package of this build",
            u.what, u.subject
        ),
    )
    .with_hint(if u.what.contains("(vgc extension)") {
        "vgc's extensions (docs/extensions.md) have no Go form, and upstream validation-gen does not implement them either: for the Go target, remove the tag or turn `[extensions]` off in vgc.toml"
    } else {
        "build this package with upstream validation-gen for now, or leave it out of the build; what the Go backend prints is measured in docs/go-backend.md (\"Coverage, measured\") and docs/deviations.md"
    });
    locate(db, prog, &a.input, &u.subject, d)
}

/// `d` placed at the declaration of what `subject` names in package `input` (`type T`, `field T.F`), else as it is.
fn locate(
    db: &Database,
    prog: &Program,
    input: &str,
    subject: &str,
    mut d: Diagnostic,
) -> Diagnostic {
    let (ty, field) = match subject.split_once(' ') {
        Some(("type", t)) => (t, None),
        Some(("field", tf)) => match tf.split_once('.') {
            Some((t, f)) => (t, Some(f)),
            None => (tf, None),
        },
        _ => return d,
    };
    let key = vgc_analysis::TypeKey {
        pkg: input.to_string(),
        name: ty.to_string(),
    };
    if let Some((decl, file)) = prog.type_decl(db, &key) {
        let at = field
            .and_then(|go| {
                decl.fields
                    .iter()
                    .find(|f| vgc_lowering::go_field_name(f).as_deref() == Some(go))
            })
            .map_or(decl.at, |f| f.at);
        d = d.at(file.path(db).clone(), vgc_ir::db::span_of(db, file, at));
    }
    d
}

/// Writes `files` under the module root `root` as one transaction ([`crate::output::commit`]; the caller holds
/// the [`crate::output::OutputLock`]), files whose bytes are unchanged untouched. Every target is checked first
/// ([`crate::output::may_write`]): one file in the way that validation-gen did not generate fails the whole write
/// (unless `req.force`), and nothing is written.
///
/// **Stale files** (`docs/go-backend.md`, "Stale files"), removed in the same transaction when they are still
/// validation-gen's ([`crate::output::is_ours`]): the output file of every target package that gets none now
/// (`stale.not_written`: the package lost its tag), and every file of the `.vgc/go-outputs` record that this build
/// does not write and whose packages are all either targets of this build (another `--output-file`, a dropped or
/// moved `--test-output-root`, a kind allowlisted away) or gone (no directory, or one without a non-test Go file
/// of the user's). A file of a package outside this build's targets that still exists — a staging package
/// `vgc validation-gen` was given and `vgc build --target go .` at the root is not — is kept, and stays in the
/// record. Returns (files written, stale files removed).
///
/// # Errors
/// A file in the way, a path leading out of `root`, an IO error staging or renaming (naming the path that could
/// not be written and what was being done).
pub(crate) fn write(
    root: &Path,
    req: &BuildRequest,
    files: &[GeneratedFile],
    stale: &Stale,
) -> Result<(usize, usize), String> {
    let mut writes: Vec<(String, &[u8])> = Vec::new();
    for f in files {
        crate::output::inside(root, &f.path)?;
        let target = root.join(&f.path);
        if crate::sys::holds(&target, f.contents.as_bytes()) {
            continue;
        }
        crate::output::may_write(&target, req.force)?;
        writes.push((f.path.clone(), f.contents.as_bytes()));
    }
    let record_path = crate::output::state_path(root, RECORD);
    let recorded: BTreeMap<String, BTreeSet<String>> = crate::sys::read_output(&record_path)
        .map(|t| t.lines().filter_map(record_line).collect())
        .unwrap_or_default();
    let outputs: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut gone: HashMap<String, bool> = HashMap::new();
    let mut expired = |owners: &BTreeSet<String>| {
        owners.iter().all(|o| {
            stale.targets.contains(o)
                || *gone
                    .entry(o.clone())
                    .or_insert_with(|| package_gone(&root.join(o)))
        })
    };
    let expired: BTreeSet<&str> = recorded
        .iter()
        .filter(|(rel, owners)| !outputs.contains(rel.as_str()) && expired(owners))
        .map(|(rel, _)| rel.as_str())
        .collect();
    let removes: Vec<String> = expired
        .iter()
        .copied()
        .chain(stale.not_written.iter().map(String::as_str))
        .filter(|rel| !outputs.contains(rel))
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .filter(|rel| {
            crate::output::inside(root, rel).is_ok() && crate::output::is_ours(&root.join(rel))
        })
        .map(str::to_string)
        .collect();
    crate::output::commit(root, &writes, &removes)
        .map_err(|e| format!("cannot write the Go files: {e}"))?;
    let mut record: BTreeMap<&str, BTreeSet<String>> = recorded
        .iter()
        .filter(|(rel, _)| !expired.contains(rel.as_str()))
        .map(|(rel, owners)| (rel.as_str(), owners.clone()))
        .collect();
    for f in files {
        let owners = stale
            .owners
            .get(&f.path)
            .cloned()
            .unwrap_or_else(|| BTreeSet::from([parent_dir(&f.path)]));
        record.insert(f.path.as_str(), owners);
    }
    let record: String = record
        .iter()
        .map(|(rel, owners)| {
            let mut line = (*rel).to_string();
            for o in owners.iter() {
                line.push('\t');
                line.push_str(o);
            }
            line.push('\n');
            line
        })
        .collect();
    if crate::sys::read_output(&record_path).as_deref() != Some(record.as_str()) {
        crate::sys::write_atomic(&record_path, &record)
            .map_err(|e| format!("{}: {e}", record_path.display()))?;
    }
    Ok((writes.len(), removes.len()))
}

/// One line of the `.vgc/go-outputs` record ([`RECORD`]): the path and the directories of its packages (its own
/// directory when the line names none).
fn record_line(line: &str) -> Option<(String, BTreeSet<String>)> {
    let mut parts = line.split('\t');
    let rel = parts.next().filter(|r| !r.is_empty())?;
    let mut owners: BTreeSet<String> = parts.map(str::to_string).collect();
    if owners.is_empty() {
        owners.insert(parent_dir(rel));
    }
    Some((rel.to_string(), owners))
}

/// Whether the package that was in directory `dir` is gone: no such directory, or one without a Go file that is
/// not a test file and not one validation-gen generated ([`crate::output::is_ours`]).
fn package_gone(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return true;
    };
    !entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        name.ends_with(".go")
            && !name.ends_with("_test.go")
            && e.file_type().is_ok_and(|t| t.is_file())
            && !crate::output::is_ours(&e.path())
    })
}
