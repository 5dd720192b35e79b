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
//! files of two generations (the others would still call validators of the old one).

use crate::database::Database;
use crate::request::{BuildRequest, GoTarget};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use vgc_analysis::Program;
use vgc_codegen::GeneratedFile;
use vgc_ir::{Code, Diagnostic};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::ModulePlan;

/// The record of the files the last Go build wrote, in `.vgc/` under the module root: paths relative to it, one a
/// line. Its files that a later build no longer writes are removed as stale when still generated.
const RECORD: &str = "go-outputs";

/// What [`generate`] produced.
pub(crate) struct GoGeneration {
    /// One file per written package, path relative to the module root.
    pub(crate) files: Vec<GeneratedFile>,
    /// `VGC0129` per construct the backend cannot print (then `files` is empty).
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The output file's path (relative to the module root) in every target package directory that gets none:
    /// candidates for removal when they hold a generated file ([`write`]).
    pub(crate) not_written: Vec<String>,
    /// Target packages without a `+k8s:validation-gen` tag (no file, as upstream).
    pub(crate) untagged: Vec<String>,
}

/// Prints the file of every target package of `prog` that carries a `+k8s:validation-gen` tag (see the module
/// docs), with `header` (the `--go-header-file` text, `YEAR` replaced). Paths are relative to `root` (the module
/// root); a package directory outside it is an error naming it.
///
/// # Errors
/// A package directory outside `root`.
pub(crate) fn generate(
    db: &Database,
    sys: &dyn vgc_analysis::System,
    prog: &Program,
    plan: &CratePlan,
    go: &GoTarget,
    header: &str,
    root: &Path,
) -> Result<GoGeneration, String> {
    let modules: HashMap<&str, &ModulePlan> = plan
        .modules
        .iter()
        .map(|m| (m.pkg.as_str(), &**m))
        .collect();
    let mut untagged = Vec::new();
    let mut not_written = Vec::new();
    let mut rel_of = HashMap::new();
    for p in prog.packages.values().filter(|p| p.target) {
        let rel = Path::new(&p.dir)
            .strip_prefix(root)
            .map_err(|_| {
                format!(
                    "{}: package directory outside the Go module root {} the Go target writes under",
                    p.dir,
                    root.display()
                )
            })?
            .join(&go.output_file)
            .to_string_lossy()
            .into_owned();
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
    let generator = vgc_gogen::Generator::new(plan, &options);
    let printed: Vec<_> = jobs
        .par_iter()
        .map(|(a, rel, m, own)| (a, rel, generator.generate_into(m, own)))
        .collect();
    let mut files = Vec::new();
    for (a, rel, r) in printed {
        match r {
            Ok(contents) => {
                files.push(GeneratedFile {
                    path: rel.clone(),
                    contents,
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
    if let Some(cov) = &go.coverage {
        let reports = jobs
            .iter()
            .filter(|(_, _, _, own)| own.scheme_registry.is_some())
            .flat_map(|(a, _, m, own)| {
                let (group, version) = group_version(db, prog, &a.input, m);
                generator.coverage_reports(m, own, &group, &version)
            })
            .collect::<Vec<_>>();
        files.extend(coverage_fixtures(
            sys,
            plan.upstream,
            cov,
            header,
            root,
            &reports,
        )?);
    }
    if !diagnostics.is_empty() {
        files.clear();
    }
    Ok(GoGeneration {
        files,
        diagnostics,
        not_written,
        untagged,
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

/// The coverage fixtures of `reports` (`vgc_gogen::coverage::fixtures`) as files relative to the module root `root`.
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
    reports: &[vgc_gogen::coverage::Report],
) -> Result<Vec<GeneratedFile>, String> {
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
    let o = vgc_gogen::coverage::FixtureOptions {
        root: rel.to_string_lossy().into_owned(),
        file_prefix: cov.file_prefix.clone(),
        allowlist,
        header: header.to_string(),
    };
    Ok(vgc_gogen::coverage::fixtures(reports, &o, upstream)
        .into_iter()
        .map(|f| GeneratedFile {
            path: f.path,
            contents: f.contents,
            chunks: Vec::new(),
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
    let mut d = Diagnostic::error(
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
    let (ty, field) = match u.subject.split_once(' ') {
        Some(("type", t)) => (t, None),
        Some(("field", tf)) => match tf.split_once('.') {
            Some((t, f)) => (t, Some(f)),
            None => (tf, None),
        },
        _ => return d,
    };
    let key = vgc_analysis::TypeKey {
        pkg: a.input.clone(),
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
/// the [`crate::output::OutputLock`]), files whose bytes are unchanged untouched, and removes as stale — when they
/// are still validation-gen's ([`crate::output::is_ours`]) — the output file of every target package that gets
/// none now (`not_written`) and every file the last Go build wrote that this one does not (the `.vgc/go-outputs`
/// record, which is rewritten). Every target is checked first ([`crate::output::may_write`]): one file in the way
/// that validation-gen did not generate fails the whole write (unless `req.force`), and nothing is written.
/// Returns (files written, stale files removed).
///
/// # Errors
/// A file in the way, a path leading out of `root`, an IO error staging or renaming.
pub(crate) fn write(
    root: &Path,
    req: &BuildRequest,
    files: &[GeneratedFile],
    not_written: &[String],
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
    let recorded: BTreeSet<String> = crate::sys::read_output(&record_path)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default();
    let outputs: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    // Only what this build could have written is its to remove: a build of one directory (or of some packages)
    // leaves the files another build of the module wrote elsewhere, and keeps them in the record.
    // So are the coverage fixtures under `--test-output-root` (`vgc_gogen::coverage`) when this build writes them.
    let fixtures = req
        .go
        .as_ref()
        .and_then(|g| g.coverage.as_ref())
        .map(|c| Path::new(&c.root));
    let in_scope = |rel: &str| {
        fixtures.is_some_and(|f| root.join(rel).starts_with(f))
            || Path::new(rel)
                .parent()
                .is_some_and(|d| in_build(&root.join(d).to_string_lossy(), req))
    };
    let removes: Vec<String> = recorded
        .iter()
        .map(String::as_str)
        .filter(|rel| in_scope(rel))
        .chain(not_written.iter().map(String::as_str))
        .filter(|rel| !outputs.contains(rel))
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .filter(|rel| {
            crate::output::inside(root, rel).is_ok() && crate::output::is_ours(&root.join(rel))
        })
        .map(str::to_string)
        .collect();
    crate::output::commit(root, &writes, &removes)
        .map_err(|e| format!("{}: cannot write the Go files: {e}", root.display()))?;
    let record: String = recorded
        .iter()
        .map(String::as_str)
        .filter(|rel| !in_scope(rel) && !removes.iter().any(|r| r == rel))
        .chain(outputs.iter().copied())
        .collect::<BTreeSet<&str>>()
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
    if crate::sys::read_output(&record_path).as_deref() != Some(record.as_str()) {
        crate::sys::write_atomic(&record_path, &record)
            .map_err(|e| format!("{}: {e}", record_path.display()))?;
    }
    Ok((writes.len(), removes.len()))
}

/// Whether the package directory `dir` is one of the build's targets could be: in or below `req.path` (the
/// directory of a `.go` file: that one only), and selected by `req.packages` when it names any (as
/// `vgc_analysis::program::discover_selected` selects them).
fn in_build(dir: &str, req: &BuildRequest) -> bool {
    let base = req.path.trim_end_matches('/');
    let within = |d: &str, b: &str| d == b || d.strip_prefix(b).is_some_and(|r| r.starts_with('/'));
    let scoped = if Path::new(base).extension().is_some_and(|e| e == "go") {
        Path::new(base)
            .parent()
            .is_some_and(|p| p == Path::new(dir))
    } else {
        within(dir, base)
    };
    scoped
        && (req.packages.is_empty()
            || req.packages.iter().any(|p| match p.strip_suffix("/...") {
                Some(b) => within(dir, b.trim_end_matches('/')),
                None => dir == p.trim_end_matches('/'),
            }))
}
