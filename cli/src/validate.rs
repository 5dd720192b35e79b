//! `vgc validate`: Kubernetes manifests (YAML or JSON streams, `List` kinds) checked against an API tree's
//! declarative rules by the plan interpreter (`vgc-validate`), each error placed at its field in the source.
//!
//! [`Api`] is the dispatch table of an API tree (`apiVersion`/`kind` → root type: the group of the package's
//! `+groupName`, the version of its path); [`run`] validates inputs and writes the human or JSON report; its
//! [`Outcome`] gives the exit code (0 valid, 1 invalid, 2 usage or IO).

use crate::manifests::{self, Document, LoadError};
use codespan_reporting::files::SimpleFiles;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vgc_analysis::TypeKey;
use vgc_runtime::{Error, ErrorList, Operation, StabilityLevel};
use vgc_validate::{EvalError, Interpreter};

mod report;
mod results;

use results::{
    Cleared, DefaultedField, Entry, Finding, Ident, Problem, Results, Status, display_name,
};
pub use results::{Options, Outcome, OutputFormat, SkipKind};

/// An API tree ready for dispatch: its lowered plan and the kinds it declares.
pub struct Api {
    /// The plan the interpreter evaluates.
    pub plan: vgc_lowering::CratePlan,
    /// (`apiVersion`, `kind`) → the kind's type: every struct embedding `TypeMeta` inline.
    pub kinds: BTreeMap<(String, String), TypeKey>,
}

/// Why a document was not validated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// The document is not an object with string `apiVersion` and `kind`.
    #[error("{0}")]
    NotAnObject(String),
    /// No kind of the API tree has this `apiVersion` and `kind`.
    #[error("unknown kind {kind} of apiVersion {api_version} (not declared by the API tree)")]
    UnknownKind {
        /// The document's `apiVersion`.
        api_version: String,
        /// The document's `kind`.
        kind: String,
    },
    /// The kind is declared by a package whose declarative validation is off (`+k8s:validation-gen=false`,
    /// k8s.io/api's `extensions/v1beta1`): there are no declarative rules to check.
    #[error(
        "{api_version} {kind} has no declarative validation: its package {package} is tagged +k8s:validation-gen=false"
    )]
    ValidationOff {
        /// The document's `apiVersion`.
        api_version: String,
        /// The document's `kind`.
        kind: String,
        /// The Go package declaring the kind.
        package: String,
    },
    /// The interpreter could not evaluate the document (wrong JSON types, a hand-written validation reached).
    #[error(transparent)]
    Eval(#[from] EvalError),
}

impl Api {
    /// The dispatch table of a build's plan ([`vgc_lowering::plan::kinds`]): `group/version` from the package's
    /// `+groupName` (else the directory above the version) and its last path segment — the table the generated
    /// crate's `registry` module holds too.
    #[must_use]
    pub fn from_build(out: &vgc_driver::BuildOutcome) -> Self {
        let kinds = vgc_lowering::plan::kinds(&out.plan.modules)
            .into_iter()
            .map(|k| ((k.api_version(), k.kind), k.key))
            .collect();
        Self {
            plan: out.plan.clone(),
            kinds,
        }
    }

    /// One line per kind that two packages of the tree declare ([`vgc_lowering::plan::shadowed_kinds`], R40):
    /// documents of that `apiVersion`/`kind` are validated with the first package's type (by import path), the
    /// same choice the generated registry makes; `vgc validate` prints each as a `VGC0114` warning. Computed from
    /// the plan, so a plan read from the cache says the same.
    #[must_use]
    pub fn shadowed_kinds(&self) -> Vec<String> {
        vgc_lowering::plan::shadowed_kinds(&self.plan.modules)
            .into_iter()
            .map(|(kept, other)| {
                format!(
                    "packages {} and {} both declare the kind {} {}; its documents are validated with the type of {} [VGC0114]",
                    kept.key.pkg,
                    other.pkg,
                    kept.api_version(),
                    kept.kind,
                    kept.key.pkg
                )
            })
            .collect()
    }

    /// The names of the options (feature gates) the plan's rules read: `+k8s:ifEnabled(X)`/`ifDisabled(X)` wrappers
    /// and `enumExclude` rules, at any depth. Found by walking the serde form of the plan's modules for `option` fields (both
    /// [`vgc_lowering::plan::IfOptionPlan`] and [`vgc_lowering::plan::EnumExclusion`] name theirs so), so a new
    /// place that holds checks cannot be missed.
    #[must_use]
    pub fn options_read(&self) -> std::collections::BTreeSet<String> {
        fn walk(v: &Value, out: &mut std::collections::BTreeSet<String>) {
            match v {
                Value::Object(m) => {
                    for (k, v) in m {
                        match (k.as_str(), v) {
                            ("option", Value::String(s)) => {
                                out.insert(s.clone());
                            }
                            _ => walk(v, out),
                        }
                    }
                }
                Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
                _ => {}
            }
        }
        let mut out = std::collections::BTreeSet::new();
        if let Ok(v) = serde_json::to_value(&self.plan.modules) {
            walk(&v, &mut out);
        }
        out
    }

    /// A warning for every `--option` name in `given` that no rule of the plan reads ([`Api::options_read`]): such
    /// an option changes nothing, which is almost always a misspelt gate. Names the closest option read
    /// (Levenshtein distance at most a third of the name) and lists them all.
    #[must_use]
    pub fn unread_options<'a>(&self, given: impl IntoIterator<Item = &'a String>) -> Vec<String> {
        let given: Vec<&String> = given.into_iter().collect();
        // Walking the plan costs a serialization of it: only when there is something to check.
        if given.is_empty() {
            return Vec::new();
        }
        let read = self.options_read();
        let listed = if read.is_empty() {
            "this API tree reads no option".to_string()
        } else {
            format!(
                "options it reads: {}",
                read.iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        given
            .into_iter()
            .filter(|g| !read.contains(*g))
            .map(|g| {
                let near = read
                    .iter()
                    .map(|r| (strsim::levenshtein(g, r), r))
                    .filter(|(d, _)| *d * 3 <= g.len().max(3))
                    .min();
                let hint = near.map_or_else(String::new, |(_, r)| format!("; did you mean {r}?"));
                format!("--option {g}: no rule of this API tree reads this option, so it changes nothing ({listed}){hint}")
            })
            .collect()
    }

    /// The kind a document names, if the API tree declares it.
    #[must_use]
    pub fn kind_of(&self, value: &Value) -> Option<&TypeKey> {
        let (av, k) = (
            value.get("apiVersion")?.as_str()?,
            value.get("kind")?.as_str()?,
        );
        self.kinds.get(&(av.to_string(), k.to_string()))
    }

    /// A warning for every `--skip` entry no kind of the tree matches (it skips nothing: almost always a typo),
    /// naming the nearest declared kind when one is close ([`Api::nearest_kind`]).
    #[must_use]
    pub fn unknown_skips(&self, skips: &[crate::validate::results::SkipKind]) -> Vec<String> {
        let declared: Vec<(String, String)> = self
            .kinds
            .keys()
            .cloned()
            .chain(
                self.plan
                    .switched_off_kinds
                    .iter()
                    .map(|r| (r.api_version(), r.kind.clone())),
            )
            .collect();
        skips
            .iter()
            .filter(|s| !declared.iter().any(|(a, k)| s.matches(a, k)))
            .map(|s| {
                let written = match &s.api_version {
                    Some(a) => format!("{a}/{}", s.kind),
                    None => s.kind.clone(),
                };
                let near = match &s.api_version {
                    Some(a) => self
                        .nearest_kind(a, &s.kind)
                        .map(|(a, k)| format!("{a}/{k}")),
                    // A kind alone: the nearest kind name.
                    None => declared
                        .iter()
                        .map(|(_, k)| (strsim::levenshtein(&k.to_lowercase(), &s.kind.to_lowercase()), k))
                        .filter(|(d, _)| *d * 3 <= s.kind.chars().count())
                        .min()
                        .map(|(_, k)| k.clone()),
                }
                .map_or_else(String::new, |n| format!("; did you mean {n}?"));
                format!("--skip {written}: the API tree declares no such kind, so it skips nothing{near}")
            })
            .collect()
    }

    /// The release that stopped serving the kind of type `key` (its `+k8s:prerelease-lifecycle-gen:removed`
    /// marker, [`vgc_lowering::plan::TypePlan::removed_in`]), if any.
    #[must_use]
    pub fn removed_in(&self, key: &TypeKey) -> Option<String> {
        self.plan
            .modules
            .iter()
            .filter(|m| m.pkg == key.pkg)
            .flat_map(|m| m.types.iter())
            .find(|t| t.key == *key)
            .and_then(|t| t.removed_in.clone())
    }

    /// A declared kind close to `(av, kind)`, for a "did you mean" on an unknown kind: the same kind name in
    /// another case or group/version (`apps/v1 deployment`, `v1 Deployment` → `apps/v1 Deployment`; among several
    /// group/versions the one nearest the given one), else the nearest `apiVersion kind` within a third of its length
    /// in edits (`app/v1 Deployment`). `None` when nothing is that close — a custom resource, most likely.
    #[must_use]
    pub fn nearest_kind(&self, av: &str, kind: &str) -> Option<(String, String)> {
        let lower = |s: &str| s.to_lowercase();
        let same_name = self
            .kinds
            .keys()
            .chain(
                self.plan
                    .switched_off_kinds
                    .iter()
                    .map(|r| (r.api_version(), r.kind.clone()))
                    .collect::<Vec<_>>()
                    .iter(),
            )
            .filter(|(_, k)| lower(k) == lower(kind))
            .map(|(a, k)| {
                (
                    strsim::levenshtein(&lower(a), &lower(av)),
                    a.clone(),
                    k.clone(),
                )
            })
            .min();
        if let Some((_, a, k)) = same_name {
            return Some((a, k));
        }
        let given = lower(&format!("{av} {kind}"));
        self.kinds
            .keys()
            .map(|(a, k)| {
                (
                    strsim::levenshtein(&lower(&format!("{a} {k}")), &given),
                    a,
                    k,
                )
            })
            .filter(|(d, _, _)| *d * 3 <= given.chars().count())
            .min()
            .map(|(_, a, k)| (a.clone(), k.clone()))
    }

    /// The kind a document names, if a package of the tree declares it with its declarative validation off
    /// (`+k8s:validation-gen=false`; [`vgc_lowering::CratePlan::switched_off_kinds`]) and no enabled package
    /// declares it too.
    #[must_use]
    pub fn switched_off_kind(&self, value: &Value) -> Option<&vgc_lowering::plan::KindRef> {
        let (av, k) = (
            value.get("apiVersion")?.as_str()?,
            value.get("kind")?.as_str()?,
        );
        if self.kinds.contains_key(&(av.to_string(), k.to_string())) {
            return None;
        }
        self.plan
            .switched_off_kinds
            .iter()
            .find(|r| r.kind == k && r.api_version() == av)
    }

    /// Validates one object (with its old version on update) against its kind's declarative rules, as the API
    /// server's registered validation does (`vgc_validate::Interpreter::validate`). The objects are validated as
    /// given: apply `vgc_validate::Interpreter::apply_defaults` to both first to validate what the API server
    /// validates after defaulting (`vgc validate` does).
    ///
    /// # Errors
    /// [`DispatchError`] when the document names no kind of the tree or cannot be evaluated.
    pub fn validate_document(
        &self,
        value: &Value,
        old: Option<&Value>,
        op: &Operation,
    ) -> Result<ErrorList, DispatchError> {
        let interp = Interpreter::new(&self.plan);
        self.validate_with(&interp, value, old, op)
    }

    fn validate_with(
        &self,
        interp: &Interpreter<'_>,
        value: &Value,
        old: Option<&Value>,
        op: &Operation,
    ) -> Result<ErrorList, DispatchError> {
        let (av, kind) = api_version_kind(value)?;
        if let Some(off) = self.switched_off_kind(value) {
            return Err(DispatchError::ValidationOff {
                api_version: av.to_string(),
                kind: kind.to_string(),
                package: off.key.pkg.clone(),
            });
        }
        let key = self
            .kind_of(value)
            .ok_or_else(|| DispatchError::UnknownKind {
                api_version: av.to_string(),
                kind: kind.to_string(),
            })?;
        Ok(interp.validate(key, value, old, op)?)
    }
}

/// The root criterion `vgc validate` adds to every enabled package of its API tree: every struct with a `TypeMeta`
/// field is a root (upstream `TypesWithField=TypeMeta`), as Kubernetes activates declarative validation for every
/// kind of each group/version (its `pkg/apis/<group>/<version>/doc.go` files:
/// `+k8s:validation-gen=TypesWithField=TypeMeta` with `+k8s:validation-gen-input=k8s.io/api/<group>/<version>`),
/// while k8s.io/api's own `doc.go` files select fewer roots (`resource/v1`: `TypesWithSuffix=DeviceAttribute`).
/// Packages tagged `+k8s:validation-gen=false` stay off.
pub const KIND_ROOTS: &str = "TypesWithField=TypeMeta";

/// The check-only request `vgc validate` loads the API tree at `path` (absolute) with: [`KIND_ROOTS`] added.
#[must_use]
pub fn request(path: impl Into<String>) -> vgc_driver::BuildRequest {
    vgc_driver::BuildRequest::check(path, vec![KIND_ROOTS.to_string()])
}

/// `Api` as the plan cache keeps it ([`vgc_driver::cache::plan`]): the plan without its diagnostics (a tree is cached
/// only when it has no errors, and `vgc validate` shows no warnings) and the dispatch table as a list.
#[derive(serde::Serialize, serde::Deserialize)]
struct CachedApi {
    modules: Vec<std::sync::Arc<vgc_lowering::plan::ModulePlan>>,
    go_module: String,
    stats: vgc_lowering::plan::Stats,
    upstream: vgc_ir::Upstream,
    formats: std::sync::Arc<[vgc_ir::extensions::ProjectFormat]>,
    kinds: Vec<(String, String, TypeKey)>,
    /// (group, version, kind, type, removed in) of [`vgc_lowering::CratePlan::switched_off_kinds`].
    switched_off_kinds: Vec<(String, String, String, TypeKey, Option<String>)>,
}

impl CachedApi {
    fn of(api: &Api) -> Self {
        let p = &api.plan;
        Self {
            modules: p.modules.clone(),
            go_module: p.go_module.clone(),
            stats: p.stats,
            upstream: p.upstream,
            formats: p.formats.clone(),
            kinds: api
                .kinds
                .iter()
                .map(|((av, k), t)| (av.clone(), k.clone(), t.clone()))
                .collect(),
            switched_off_kinds: p
                .switched_off_kinds
                .iter()
                .map(|r| {
                    (
                        r.group.clone(),
                        r.version.clone(),
                        r.kind.clone(),
                        r.key.clone(),
                        r.removed_in.clone(),
                    )
                })
                .collect(),
        }
    }

    fn into_api(self) -> Api {
        Api {
            plan: vgc_lowering::CratePlan {
                modules: self.modules,
                go_module: self.go_module,
                diagnostics: Vec::new(),
                stats: self.stats,
                upstream: self.upstream,
                formats: self.formats,
                switched_off_kinds: self
                    .switched_off_kinds
                    .into_iter()
                    .map(
                        |(group, version, kind, key, removed_in)| vgc_lowering::plan::KindRef {
                            group,
                            version,
                            kind,
                            key,
                            validated: false,
                            removed_in,
                        },
                    )
                    .collect(),
            },
            kinds: self
                .kinds
                .into_iter()
                .map(|(av, k, t)| ((av, k), t))
                .collect(),
        }
    }
}

/// The per-user cache directory of `vgc validate` when `--cache-dir` is not given: `$XDG_CACHE_HOME/vgc` (an
/// absolute `XDG_CACHE_HOME`, as the XDG base directory specification requires), else `$HOME/.cache/vgc`; `None`
/// when neither is usable (then nothing is cached).
#[must_use]
pub fn default_cache_root() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let home = || {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .map(|h| h.join(".cache"))
    };
    xdg.or_else(home).map(|d| d.join("vgc"))
}

/// The directory of the caches (`ir`, `plan`) of the API tree at `api_path` inside the cache directory `root`:
/// `root/validate/<the first 16 hex digits of the BLAKE3 hash of the absolute path>/<the first 8 of this vgc
/// build's>`. One directory per tree, so several trees (k8s.io/api releases, an operator's API) stay cached side by
/// side, and per vgc build within it, so two vgc versions used in turn (a pinned CI binary and a local one) do not
/// evict each other's caches ([`retire_old_builds`] keeps the few most recent); options are part of the plan
/// cache's key, not of the name, so they replace the entry instead of piling up.
#[must_use]
pub fn cache_dir_for(root: &Path, api_path: &str) -> PathBuf {
    let abs = std::path::absolute(api_path).unwrap_or_else(|_| PathBuf::from(api_path));
    let hash = blake3::hash(abs.to_string_lossy().as_bytes()).to_hex();
    let build = blake3::hash(vgc_driver::cache::tool_fingerprint().as_bytes()).to_hex();
    root.join("validate")
        .join(&hash.as_str()[..16])
        .join(&build.as_str()[..8])
}

/// How many vgc builds' caches of one API tree [`retire_old_builds`] keeps.
pub const KEPT_BUILDS: usize = 3;

/// Removes, beside the cache directory `dir` of one vgc build ([`cache_dir_for`]), the caches of all but the
/// [`KEPT_BUILDS`] most recently used builds (by modification time; `dir` itself always stays), and the files of
/// the layout before per-build directories (`ir`, `plan` directly in the tree's directory). Failures are ignored:
/// a cache that stays only costs disk.
pub fn retire_old_builds(dir: &Path) {
    let Some(tree) = dir.parent() else { return };
    // Mark this build's caches as used now (a cache hit writes nothing else into the directory).
    if dir.is_dir() {
        let _ = std::fs::write(dir.join(".used"), b"");
    }
    for old in ["ir", "plan"] {
        let p = tree.join(old);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file()) {
            let _ = std::fs::remove_file(p);
        }
    }
    let Ok(listing) = std::fs::read_dir(tree) else {
        return;
    };
    let mut builds: Vec<(std::time::SystemTime, PathBuf)> = listing
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.len() == 8 && n.bytes().all(|b| b.is_ascii_hexdigit()) && e.path() != dir
        })
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    builds.sort_by_key(|b| std::cmp::Reverse(b.0));
    for (_, p) in builds.into_iter().skip(KEPT_BUILDS - 1) {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// An API tree loaded for `vgc validate` by [`load_api`].
pub struct Loaded {
    /// The dispatch table and plan.
    pub api: Api,
    /// Whether they came from the plan cache (nothing was parsed, checked or lowered).
    pub from_cache: bool,
    /// Notes for the user (an unusable cache file that was ignored).
    pub notes: Vec<String>,
    /// Wall time per phase, in order: `read plan cache`, then on a miss the check's phases (`load IR cache`,
    /// `load`, `check`, `lower`, `lint`, `save IR cache`), `dispatch table` and `save plan cache`.
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

/// Loads the API tree of the check-only request `req` ready for dispatch, through the caches of the directory
/// `cache` ([`cache_dir_for`]; `None`: no caches). With a cache, the plan cache ([`vgc_driver::cache::plan`]) is read
/// first: when it was written for the same request (vgc build, path, profile choice, tag prefix, extension files,
/// module-cache environment: [`vgc_driver::request_key`]) and every file, listing and probe the load that wrote
/// it observed is unchanged, nothing is loaded. Otherwise the tree is checked and lowered (reusing the IR cache
/// for unchanged files) and, when it has no errors, both caches are written.
///
/// # Errors
/// The check's outcome when the tree cannot be used: it has error diagnostics, or nothing could be loaded
/// ([`vgc_driver::exit_code`] is not 0, or `io_error` is set).
pub fn load_api(
    req: &vgc_driver::BuildRequest,
    cache: Option<&Path>,
) -> Result<Loaded, Box<vgc_driver::BuildOutcome>> {
    use vgc_driver::cache::manifest::Recorder;
    use vgc_driver::sys::OsSystem;
    let Some(dir) = cache else {
        let outcome = vgc_driver::build(req);
        if outcome.io_error.is_some() || vgc_driver::exit_code(&outcome) != 0 {
            return Err(Box::new(outcome));
        }
        let mut timings = outcome.timings.clone();
        let clock = std::time::Instant::now();
        let api = Api::from_build(&outcome);
        timings.push(("dispatch table", clock.elapsed()));
        return Ok(Loaded {
            api,
            from_cache: false,
            notes: outcome.notes,
            timings,
        });
    };
    let key = format!("validate {}", vgc_driver::request_key(req));
    let mut notes = Vec::new();
    let clock = std::time::Instant::now();
    let cached = vgc_driver::cache::plan::load::<CachedApi>(dir, &key, &OsSystem, &mut notes);
    let mut timings = vec![("read plan cache", clock.elapsed())];
    if let Ok(c) = cached {
        return Ok(Loaded {
            api: c.into_api(),
            from_cache: true,
            notes,
            timings,
        });
    }
    let rec = Recorder::new(&OsSystem);
    let mut outcome = vgc_driver::check_with_ir_cache(req, &rec, dir);
    if outcome.io_error.is_some() || vgc_driver::exit_code(&outcome) != 0 {
        outcome.notes.splice(0..0, notes);
        return Err(Box::new(outcome));
    }
    notes.append(&mut outcome.notes);
    timings.append(&mut outcome.timings);
    let clock = std::time::Instant::now();
    let api = Api::from_build(&outcome);
    timings.push(("dispatch table", clock.elapsed()));
    let clock = std::time::Instant::now();
    vgc_driver::cache::plan::save(dir, &key, &rec, &CachedApi::of(&api));
    timings.push(("save plan cache", clock.elapsed()));
    Ok(Loaded {
        api,
        from_cache: false,
        notes,
        timings,
    })
}

fn api_version_kind(value: &Value) -> Result<(&str, &str), DispatchError> {
    if !value.is_object() {
        return Err(DispatchError::NotAnObject(
            "a manifest must be an object with apiVersion and kind".into(),
        ));
    }
    let field = |name: &str| match value.get(name) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.as_str()),
        Some(_) => Err(DispatchError::NotAnObject(format!(
            "{name} must be a non-empty string"
        ))),
        None => Err(DispatchError::NotAnObject(format!("missing {name}"))),
    };
    Ok((field("apiVersion")?, field("kind")?))
}

/// One input: its display name and bytes.
#[derive(Debug, Clone)]
pub struct Input {
    /// The name shown in reports (the path as given, `<stdin>`).
    pub name: String,
    /// Its content.
    pub bytes: Vec<u8>,
}

/// The largest input `vgc validate` reads, in bytes (64 MiB): a file, a directory's file or standard input. The API
/// server takes at most 3 MiB per request, so a larger stream is many objects — split it. Over the limit is an
/// error naming the input, read no further.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The bytes of `vgc validate`'s inputs: files as given, directories walked recursively in name order for `*.yaml`,
/// `*.yml` and `*.json`, `-` stdin (`<stdin>`). Each input is named by its path as given (a directory's files by the
/// directory joined with their relative path). Files are read as every user file is
/// ([`vgc_driver::sys::read_regular`]): regular files only, symbolic links followed, opened without blocking — a
/// FIFO, socket or device (`/dev/zero`), named or met in a directory, is refused, never read — and at most
/// [`MAX_INPUT_BYTES`]; standard input is read up to the same limit (reliability R50).
///
/// A file reached twice — named twice, named and also inside a named directory, or through two spellings (`a.yaml`
/// and `./a.yaml`, a symbolic link) — is read once, where it is first reached (by its canonical path), as the API
/// server would get each object once; [`read_inputs_noting`] also says which were skipped.
///
/// # Errors
/// The first path that cannot be read or listed (the OS error, "not a regular file", or the size over the limit),
/// named.
pub fn read_inputs(paths: &[String]) -> Result<Vec<Input>, String> {
    read_inputs_noting(paths).map(|(inputs, _)| inputs)
}

/// [`read_inputs`], and a note for each argument that reached files already read, which it skipped: the argument,
/// how many files, and (up to three) which of them is which file named before. Standard input is never a duplicate
/// (it can be named once).
///
/// # Errors
/// As [`read_inputs`].
pub fn read_inputs_noting(paths: &[String]) -> Result<(Vec<Input>, Vec<String>), String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for e in entries {
            let p = e.path();
            if e.file_type()?.is_dir() {
                walk(&p, out)?;
            } else if p
                .extension()
                .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
            {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut inputs = Vec::new();
    let mut notes = Vec::new();
    // Each file's canonical path, and the name it was first read under.
    let mut seen: std::collections::HashMap<std::path::PathBuf, String> =
        std::collections::HashMap::new();
    for p in paths {
        if p == "-" {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(
                &mut std::io::Read::take(std::io::stdin().lock(), MAX_INPUT_BYTES + 1),
                &mut bytes,
            )
            .map_err(|e| format!("<stdin>: {e}"))?;
            if bytes.len() as u64 > MAX_INPUT_BYTES {
                return Err(format!(
                    "<stdin>: more than {} MiB, vgc validate's limit per input; split the stream into files",
                    MAX_INPUT_BYTES >> 20
                ));
            }
            inputs.push(Input {
                name: "<stdin>".into(),
                bytes,
            });
            continue;
        }
        let path = std::path::Path::new(p);
        let files = if path.is_dir() {
            let mut files = Vec::new();
            walk(path, &mut files).map_err(|e| format!("{p}: {e}"))?;
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut skipped = Vec::new();
        for f in files {
            let name = f.to_string_lossy().into_owned();
            // A path that cannot be canonicalised is read (and its error named) as it is.
            if let Ok(canonical) = std::fs::canonicalize(&f) {
                match seen.entry(canonical) {
                    std::collections::hash_map::Entry::Occupied(first) => {
                        skipped.push((name, first.get().clone()));
                        continue;
                    }
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(name.clone());
                    }
                }
            }
            let bytes = vgc_driver::sys::read_regular(&f, MAX_INPUT_BYTES)
                .map_err(|e| format!("{}: {e}", f.display()))?;
            inputs.push(Input { name, bytes });
        }
        if !skipped.is_empty() {
            notes.push(duplicates_note(p, &skipped));
        }
    }
    Ok((inputs, notes))
}

/// The note of argument `arg` whose files `skipped` (each with the name it was first read under) were read already.
fn duplicates_note(arg: &str, skipped: &[(String, String)]) -> String {
    const SHOWN: usize = 3;
    let same = |name: &str, first: &str| {
        if name == first {
            "named before".to_string()
        } else {
            format!("the same file as {first}, named before")
        }
    };
    match skipped {
        // The argument is the file.
        [(name, first)] if name == arg => format!(
            "{arg}: skipped, {}: each file is validated once",
            same(name, first)
        ),
        _ => {
            let mut which: Vec<String> = skipped
                .iter()
                .take(SHOWN)
                .map(|(name, first)| format!("{name}: {}", same(name, first)))
                .collect();
            if skipped.len() > SHOWN {
                which.push("…".into());
            }
            format!(
                "{arg}: {} skipped ({}): each file is validated once",
                if skipped.len() == 1 {
                    "1 file".to_string()
                } else {
                    format!("{} files", skipped.len())
                },
                which.join("; ")
            )
        }
    }
}

/// The most of an offending string value an error message shows, in bytes (1 KiB): a longer one is cut at a
/// character boundary and ends in `…`, and the JSON report gives its full length (`valueBytes`) — a 64 MiB string
/// made each of its errors 64 MiB of output (reliability R53). The error's type, field, origin and detail are kept.
pub const MAX_SHOWN_VALUE_BYTES: usize = 1024;

/// `e` as its message shows it ([`MAX_SHOWN_VALUE_BYTES`]), with the value's full length when it was cut.
fn shown_message(e: &vgc_runtime::field::Error) -> (String, Option<usize>) {
    use vgc_runtime::field::{BadValue, Error};
    match &e.bad_value {
        BadValue::Str(s) if s.len() > MAX_SHOWN_VALUE_BYTES => {
            let mut cut = MAX_SHOWN_VALUE_BYTES;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            let short = Error {
                error_type: e.error_type,
                field: e.field.clone(),
                bad_value: BadValue::Str(format!("{}…", &s[..cut])),
                detail: e.detail.clone(),
                origin: e.origin.clone(),
                short_circuit: e.short_circuit,
                stability: e.stability,
            };
            (short.to_string(), Some(s.len()))
        }
        _ => (e.to_string(), None),
    }
}

/// `e`'s offending value for the JSON report ([`Finding::value`](results::Finding)): a string cut as its message
/// cuts it ([`MAX_SHOWN_VALUE_BYTES`]), a number or boolean as it is, a structured value when its JSON is at most
/// that long; `None` otherwise and for errors without a value.
fn shown_value(e: &vgc_runtime::field::Error) -> Option<serde_json::Value> {
    use vgc_runtime::field::BadValue;
    match &e.bad_value {
        BadValue::None => None,
        BadValue::Str(s) if s.len() > MAX_SHOWN_VALUE_BYTES => {
            let mut cut = MAX_SHOWN_VALUE_BYTES;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            Some(Value::String(format!("{}…", &s[..cut])))
        }
        BadValue::Str(s) => Some(Value::String(s.clone())),
        BadValue::Int(i) => Some(Value::from(*i)),
        BadValue::Bool(b) => Some(Value::Bool(*b)),
        BadValue::Json(v) => serde_json::to_string(v)
            .ok()
            .filter(|t| t.len() <= MAX_SHOWN_VALUE_BYTES)
            .map(|_| v.clone()),
    }
}

/// The `--old` objects by their pairing key ([`pair_key`]: apiVersion, kind, namespace — `default` when absent —
/// and name).
type OldObjects = BTreeMap<(String, String, String, String), OldObject>;

/// An `--old` object: its value (`None` when it does not decode), where it is, and whether an input object paired
/// with it (set while validating, read after: an old object no input pairs with is a note).
#[derive(Debug)]
struct OldObject {
    value: Option<Value>,
    file: usize,
    span: std::ops::Range<usize>,
    paired: std::sync::atomic::AtomicBool,
}

/// The namespace an object without `metadata.namespace` is in: kubectl's default namespace (`kubectl get -o yaml`
/// writes `namespace: default`, a manifest applied there may omit it). vgc does not know which kinds are
/// namespaced; a cluster-scoped object has no namespace on either side, so it pairs all the same.
const DEFAULT_NAMESPACE: &str = "default";

/// Adds an old object under its [`pair_key`]; when one of that identity is there already, the later one replaces it
/// and the warning naming both is returned.
fn insert_old(
    olds: &mut OldObjects,
    files: &SimpleFiles<String, String>,
    id: (String, String, String, String),
    old: OldObject,
) -> Option<String> {
    let at = |file: usize, pos: usize| {
        use codespan_reporting::files::Files as _;
        let name = files.name(file).map(|n| n.to_string()).unwrap_or_default();
        match files.location(file, pos) {
            Ok(l) => format!("{name}:{}:{}", l.line_number, l.column_number),
            Err(_) => name,
        }
    };
    let shown = format!("{} {} {}", id.0, id.1, display_name(&id.2, &id.3));
    let new_at = at(old.file, old.span.start);
    let before = olds.insert(pair_key(id), old)?;
    Some(format!(
        "--old: {shown} is given twice, at {} and at {new_at}: the later one is used as its old version",
        at(before.file, before.span.start)
    ))
}

/// The key an object pairs with its old version by: its identity with an absent namespace as
/// [`DEFAULT_NAMESPACE`].
fn pair_key(mut id: (String, String, String, String)) -> (String, String, String, String) {
    if id.2.is_empty() {
        id.2 = DEFAULT_NAMESPACE.to_string();
    }
    id
}

/// The JSON Pointer of a rendered field path (`spec.items[3][a/b]`, upstream `field.Path`) inside `value`: each
/// segment followed as far as the value has it (a missing field stops at its parent).
#[must_use]
pub fn field_pointer(field: &str, value: &Value) -> String {
    if field == "<nil>" || field.is_empty() {
        return String::new();
    }
    let mut segs: Vec<String> = Vec::new();
    let mut rest = field;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').unwrap_or(r.len());
            segs.push(r[..end].to_string());
            rest = r.get(end + 1..).unwrap_or("");
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            segs.push(r[..end].to_string());
            rest = &r[end..];
        }
    }
    let mut pointer = String::new();
    let mut at = value;
    for s in segs {
        let next = match at {
            Value::Object(m) => m.get(&s),
            Value::Array(a) => s.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        };
        match next {
            Some(n) => {
                pointer.push('/');
                pointer.push_str(&s.replace('~', "~0").replace('/', "~1"));
                at = n;
            }
            None => break,
        }
    }
    pointer
}

fn type_name(e: &Error) -> &'static str {
    e.error_type.as_str()
}

/// A readable input file: its index in the report's files, its text and its documents.
type Parsed = (usize, String, Vec<Result<Document, LoadError>>);

/// Adds `input` to `files` and parses it; a file that is not UTF-8 is an entry at its first invalid byte.
fn parse_input(
    files: &mut SimpleFiles<String, String>,
    input: &Input,
) -> Result<Parsed, Box<Entry>> {
    match std::str::from_utf8(&input.bytes) {
        Ok(t) => {
            let file = files.add(input.name.clone(), t.to_string());
            Ok((file, t.to_string(), manifests::load(t)))
        }
        Err(e) => {
            let file = files.add(
                input.name.clone(),
                String::from_utf8_lossy(&input.bytes).into_owned(),
            );
            let at = e.valid_up_to();
            Err(Box::new(Entry::unreadable(
                file,
                at..at,
                "the file is not UTF-8 text",
                "invalid UTF-8 here",
            )))
        }
    }
}

/// Validates `inputs` (with `old` documents paired by apiVersion, kind, namespace and name) against `api`, and
/// returns the report text (in `opts.output`'s format) and the outcome. Objects are validated on `opts.jobs`
/// threads; the report is in input order.
#[must_use]
pub fn run(api: &Api, inputs: &[Input], old: &[Input], opts: &Options) -> (String, Outcome) {
    let results = evaluate(api, inputs, old, opts);
    let text = report::render(&results, opts);
    (text, results.outcome)
}

/// An input's text: its bytes as a `String` when they are UTF-8, else the offset of the first invalid byte and
/// the text with invalid sequences replaced (U+FFFD), for the report to point into.
fn input_text(input: &Input) -> Result<String, (usize, String)> {
    match std::str::from_utf8(&input.bytes) {
        Ok(t) => Ok(t.to_owned()),
        Err(e) => Err((
            e.valid_up_to(),
            String::from_utf8_lossy(&input.bytes).into_owned(),
        )),
    }
}

/// The work of one object: where it is and what it is.
struct Work<'a> {
    file: usize,
    doc: &'a Document,
    text: &'a str,
    /// The object, with the API server's defaults already applied (unless `--no-defaults`).
    obj: &'a Value,
    prefix: String,
    /// The fields defaulting set in `obj`.
    defaulted: Vec<DefaultedField>,
    /// With `--strict`: the keys of the object as written that no field takes (before defaulting, whose values
    /// never come from the manifest).
    unknown: Vec<vgc_validate::UnknownField>,
    /// The members the API server's strategy replaces before validating, replaced in `obj` (`prepare`).
    cleared: Vec<Cleared>,
}

fn evaluate(api: &Api, inputs: &[Input], old: &[Input], opts: &Options) -> Results {
    use rayon::prelude::*;
    // The API server's hand-written defaulting reads the release's feature gates, the options here.
    let interp = Interpreter::new(&api.plan).with_feature_gates(opts.options.clone());
    let interp = if opts.no_server_defaults {
        interp.without_server_defaults()
    } else {
        interp
    };
    let mut op_base = Operation::create();
    op_base.options = opts.options.clone();
    if let Some(s) = &opts.subresource {
        op_base.subresources = s
            .trim_matches('/')
            .split('/')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
    }
    let mut files = SimpleFiles::new();
    // Entries before the objects: problems of the old documents, then per input its unreadable documents in place.
    let mut entries: Vec<Entry> = Vec::new();
    // Old objects by (apiVersion, kind, namespace, name); an old document that cannot be read is reported like an
    // input's (the objects it would pair with are then validated as creates).
    // An old object of a known kind that does not decode is reported at its field in the old file; the objects
    // it would pair with are then not validated (`None`): an update against it cannot be judged.
    let mut olds: OldObjects = BTreeMap::new();
    // Old documents that could not be read at all (an unreadable file, a malformed document): an object with no
    // old version is then validated as a create, with a note that its old version may be among them.
    let mut old_unreadable = 0usize;
    // Two old objects of one identity: the later is used, with a warning naming both.
    let mut old_warnings: Vec<String> = Vec::new();
    for input in old {
        match parse_input(&mut files, input) {
            Err(e) => {
                old_unreadable += 1;
                entries.push(Entry {
                    from_old: true,
                    ..*e
                });
            }
            Ok((file, text, docs)) => {
                for doc in docs {
                    match doc {
                        Ok(doc) => {
                            for (v, prefix) in objects(&doc.value) {
                                let Some(id) = identity(v) else {
                                    // Not an object, or no apiVersion/kind: it cannot be paired, which is said.
                                    old_unreadable += 1;
                                    let mut e = Entry::unreadable(
                                        file,
                                        doc.label_of(&prefix, &text),
                                        "old document (--old): not an object with apiVersion and kind",
                                        "it cannot be paired with an input object",
                                    );
                                    e.from_old = true;
                                    entries.push(e);
                                    continue;
                                };
                                let broken =
                                    api.kind_of(v).and_then(|key| match interp.decode(key, v) {
                                        Err(EvalError::Decode(d)) => Some(d),
                                        _ => None,
                                    });
                                match broken {
                                    None => {
                                        // Stored objects were defaulted when they were written.
                                        let mut v = v.clone();
                                        if !opts.no_defaults
                                            && let Some(key) = api.kind_of(&v)
                                        {
                                            interp.apply_defaults(key, &mut v);
                                        }
                                        let span = doc.label_of(&prefix, &text);
                                        if let Some(w) = insert_old(
                                            &mut olds,
                                            &files,
                                            id,
                                            OldObject {
                                                value: Some(v),
                                                file,
                                                span,
                                                paired: false.into(),
                                            },
                                        ) {
                                            old_warnings.push(w);
                                        }
                                    }
                                    Some(d) => {
                                        let span =
                                            doc.label_of(&format!("{prefix}{}", d.pointer), &text);
                                        let mut e = Entry::unreadable(
                                            file,
                                            span,
                                            &format!(
                                                "{} {} {}: old object (--old): wrong type",
                                                id.0,
                                                id.1,
                                                display_name(&id.2, &id.3)
                                            ),
                                            &d.message,
                                        );
                                        if let Some(p) = e.problem.as_mut() {
                                            p.json_message =
                                                format!("the old object does not decode: {d}");
                                        }
                                        e.from_old = true;
                                        e.ident = Some(Ident {
                                            api_version: id.0.clone(),
                                            kind: id.1.clone(),
                                            namespace: id.2.clone(),
                                            name: id.3.clone(),
                                        });
                                        entries.push(e);
                                        let span = doc.label_of(&prefix, &text);
                                        if let Some(w) = insert_old(
                                            &mut olds,
                                            &files,
                                            id,
                                            OldObject {
                                                value: None,
                                                file,
                                                span,
                                                paired: false.into(),
                                            },
                                        ) {
                                            old_warnings.push(w);
                                        }
                                    }
                                }
                            }
                        }
                        Err(e) => {
                            old_unreadable += 1;
                            entries.push(Entry {
                                from_old: true,
                                ..malformed(file, e)
                            });
                        }
                    }
                }
            }
        }
    }
    let bar = if opts.progress {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(inputs.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files ({elapsed})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let pool = opts.jobs.and_then(|n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .ok()
    });
    // Every input's text is added to the report first (the texts diagnostics point into; UTF-8 checked and copied
    // in parallel). Then each file is parsed and its objects validated in one task, the objects of a file in
    // parallel too: no barrier between files (batches with one cost 8–10 % of the wall time on two cores) or
    // between parsing and validating, and a single large file still validates on every thread. Each file's parse
    // tree is dropped when its objects are done: memory holds the documents of the files in progress (their JSON
    // values, many times the text's size), not every input's.
    let texts: Vec<Result<String, (usize, String)>> = match &pool {
        Some(pool) => pool.install(|| inputs.par_iter().map(input_text).collect()),
        None => inputs.par_iter().map(input_text).collect(),
    };
    let added: Vec<Result<usize, Box<Entry>>> = inputs
        .iter()
        .zip(texts)
        .map(|(input, text)| match text {
            Ok(t) => Ok(files.add(input.name.clone(), t)),
            Err((at, lossy)) => Err(Box::new(Entry::unreadable(
                files.add(input.name.clone(), lossy),
                at..at,
                "the file is not UTF-8 text",
                "invalid UTF-8 here",
            ))),
        })
        .collect();
    // Row 7 of issue 36: the human report prints nothing of an object that is valid with no finding, note or
    // problem, so such an object is only counted (per kind, with its type for the coverage line) and its entry
    // dropped: memory no longer grows with the number of valid documents of a stream. The other formats list every
    // document and keep every entry.
    let compact = opts.output == OutputFormat::Human;
    let quiet = std::sync::Mutex::new(BTreeMap::<(String, String), (usize, TypeKey)>::new());
    {
        let files = &files;
        let bar = &bar;
        let quiet = &quiet;
        let counted = move |e: &Entry| -> bool {
            let (Some(id), Some(key)) = (&e.ident, &e.key) else {
                return false;
            };
            if !compact
                || e.status != Status::Valid
                || e.from_old
                || !e.findings.is_empty()
                || !e.shadowed.is_empty()
                || e.problem.is_some()
                || !e.cleared.is_empty()
            {
                return false;
            }
            let mut q = quiet
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            q.entry((id.api_version.clone(), id.kind.clone()))
                .or_insert_with(|| (0, key.clone()))
                .0 += 1;
            true
        };
        let per_file = |a: &Result<usize, Box<Entry>>| -> Vec<Entry> {
            let file = match a {
                Err(e) => return vec![(**e).clone()],
                Ok(file) => *file,
            };
            let text = files.get(file).map_or("", |f| f.source().as_str());
            // Each document is read, defaulted and validated in one task and dropped at its end, while its values
            // are still in the processor's caches (reading every document of a file first, then defaulting, then
            // validating them went back to memory for every key); the documents of a file run in parallel.
            manifests::chunks(text)
                .into_par_iter()
                .flat_map_iter(|r| match manifests::load_chunk(text, r) {
                    None => Vec::new(),
                    Some(Err(e)) => vec![malformed(file, e)],
                    Some(Ok(mut doc)) => {
                        let mut produced = document(
                            api,
                            &interp,
                            &op_base,
                            (&olds, old_unreadable),
                            opts,
                            file,
                            text,
                            &mut doc,
                        );
                        produced.retain(|e| !counted(e));
                        produced
                    }
                })
                .collect::<Vec<Entry>>()
        };
        let per_file = |a: &Result<usize, Box<Entry>>| {
            let produced = per_file(a);
            bar.inc(1);
            produced
        };
        let produced: Vec<Entry> = match &pool {
            Some(pool) => pool.install(|| added.par_iter().flat_map_iter(per_file).collect()),
            None => added.par_iter().flat_map_iter(per_file).collect(),
        };
        entries.extend(produced);
    }
    bar.finish_and_clear();
    let quiet = quiet
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Old objects no input object paired with: a note each, after the old documents' problems.
    let unpaired: Vec<Entry> = olds
        .iter()
        .filter(|(_, o)| o.value.is_some() && !o.paired.load(std::sync::atomic::Ordering::Relaxed))
        .map(|((av, kind, ns, name), o)| {
            let mut e = Entry::unreadable(
                o.file,
                o.span.clone(),
                &format!(
                    "{av} {kind} {}: old object (--old) that no input object pairs with: nothing was validated against it",
                    display_name(ns, name)
                ),
                "no input has this apiVersion, kind, namespace and name",
            );
            e.status = Status::Skipped;
            e.from_old = true;
            if let Some(p) = e.problem.as_mut() {
                p.note = true;
                p.json_message = "old object (--old) that no input object pairs with (an absent namespace pairs as \"default\")".into();
            }
            e.ident = Some(Ident {
                api_version: av.clone(),
                kind: kind.clone(),
                namespace: ns.clone(),
                name: name.clone(),
            });
            e
        })
        .collect();
    if !unpaired.is_empty() {
        let at = entries.iter().take_while(|e| e.from_old).count();
        entries.splice(at..at, unpaired);
    }
    let mut outcome = Outcome::default();
    let mut coverage = BTreeMap::new();
    let mut not_checked = BTreeMap::new();
    // The counted valid objects, then every kept entry.
    let quiet_ids: Vec<(Ident, TypeKey)> = quiet
        .iter()
        .map(|((av, kind), (_, key))| {
            (
                Ident {
                    api_version: av.clone(),
                    kind: kind.clone(),
                    namespace: String::new(),
                    name: String::new(),
                },
                key.clone(),
            )
        })
        .collect();
    outcome.objects += quiet.values().map(|(n, _)| n).sum::<usize>();
    // A validated kind's coverage, and the hand-written validation its server also runs.
    let mut note_kind = |id: &Ident, key: &TypeKey| {
        let kind = (id.api_version.clone(), id.kind.clone());
        if let Some((source, dir)) = &opts.kubernetes
            && !not_checked.contains_key(&kind)
            && let Some(rel) = crate::release::handwritten_validation(dir, &key.pkg)
        {
            not_checked.insert(kind.clone(), format!("{source} {rel}"));
        }
        coverage.entry(kind).or_insert_with(|| interp.coverage(key));
    };
    for (id, key) in &quiet_ids {
        note_kind(id, key);
    }
    for e in &entries {
        match e.status {
            Status::Valid | Status::Invalid => {
                outcome.objects += 1;
                outcome.errors += e.findings.len();
                outcome.shadowed += e.shadowed.len();
                outcome.invalid += usize::from(e.status == Status::Invalid);
            }
            // An old object no input pairs with is a note, not a skipped input.
            Status::Skipped if e.from_old => {}
            Status::Skipped => outcome.skipped += 1,
            Status::UnknownKind => outcome.unknown_kinds += 1,
            Status::Unreadable | Status::NotChecked => outcome.failed += 1,
        }
        if let (Some(key), Some(id)) = (&e.key, &e.ident) {
            note_kind(id, key);
        }
    }
    Results {
        cursor: std::cell::RefCell::new(std::collections::HashMap::new()),
        files,
        entries,
        coverage,
        outcome,
        warnings: api.shadowed_kinds(),
        run_warnings: opts.warnings.iter().chain(&old_warnings).cloned().collect(),
        old_warnings,
        shadow_note: shadow_note(opts),
        enforce: opts.enforce,
        release: opts.release.clone(),
        not_checked,
        quiet: quiet.into_iter().map(|(k, (n, _))| (k, n)).collect(),
    }
}

/// Why a shadowed error is not counted: the release's API server (or `--enforce`) does not return it.
fn shadow_note(opts: &Options) -> String {
    use crate::release::Enforce;
    match (&opts.release, opts.enforce_from_release) {
        (Some(r), true) => {
            let what = match opts.enforce {
                Enforce::Stable if opts.beta_gate_given == Some(false) => {
                    "enforces only standard declarative rules with --option DeclarativeValidationBeta=false"
                }
                Enforce::Stable => {
                    "enforces only standard declarative rules (its DeclarativeValidationBeta gate is off by default)"
                }
                Enforce::Beta | Enforce::Alpha => "never enforces alpha declarative rules",
            };
            format!(
                "shadowed: the API server of Kubernetes {r} {what}; its hand-written validation decides instead. Not counted (--enforce alpha counts it)"
            )
        }
        _ => format!(
            "shadowed: not counted at --enforce {} (--enforce alpha counts it)",
            opts.enforce.as_str()
        ),
    }
}

/// The entries of one read document of file `file` (whose text is `text`): per object, with the API server's
/// defaults (`+default` values and the ported hand-written ones) applied in place first (unless `--no-defaults`: the
/// API server defaults an object before validating it; errors are still located in the text as written, a
/// defaulted field at the object that lacks it) and, with `--strict`, the keys no field takes (read before
/// defaulting, whose values never come from the manifest).
#[allow(clippy::too_many_arguments)]
fn document(
    api: &Api,
    interp: &Interpreter<'_>,
    op_base: &Operation,
    olds: (&OldObjects, usize),
    opts: &Options,
    file: usize,
    text: &str,
    doc: &mut Document,
) -> Vec<Entry> {
    let mut keys = BTreeMap::new();
    if opts.strict {
        for (obj, prefix) in objects(&doc.value) {
            if let Some(key) = api.kind_of(obj) {
                keys.insert(prefix, interp.unknown_fields(key, obj));
            }
        }
    }
    let mut paths = BTreeMap::new();
    if !opts.no_defaults {
        let found: Vec<(String, &TypeKey)> = objects(&doc.value)
            .into_iter()
            .filter_map(|(obj, prefix)| Some((prefix, api.kind_of(obj)?)))
            .collect();
        for (prefix, key) in found {
            if let Some(obj) = doc.value.pointer_mut(&prefix) {
                let d = interp.apply_defaults(key, obj);
                if !d.is_empty() {
                    paths.insert(prefix, d.iter().map(DefaultedField::of).collect::<Vec<_>>());
                }
            }
        }
    }
    let mut cleared = prepare(api, interp, op_base, olds.0, opts, text, doc);
    let doc = &*doc;
    objects(&doc.value)
        .into_iter()
        .map(|(obj, prefix)| {
            let w = Work {
                file,
                doc,
                text,
                obj,
                defaulted: paths.remove(&prefix).unwrap_or_default(),
                unknown: keys.remove(&prefix).unwrap_or_default(),
                cleared: cleared.remove(&prefix).unwrap_or_default(),
                prefix,
            };
            validate_object(api, interp, op_base, olds, opts, &w)
        })
        .collect()
}

/// What the API server's REST strategies do to the objects of `doc` before validating them, done the same way
/// (after defaulting, as the server's create and update handlers call the strategy between decoding and
/// validating):
///
/// - on a create of the main resource (no `--subresource`, or `/`; no old object paired with the object), the
///   release's `PrepareForCreate` status reset ([`Options::create_resets`], its gate, if any, on in
///   [`Options::options`]): the object's `status` member is removed;
/// - on an update (an old object paired), of the main resource or of `/status`, what that subresource's
///   `PrepareForUpdate` keeps from the stored object ([`Options::update_keeps`]: `status` on the main resource, `spec`
///   on `/status`): the member takes the old object's value (absent when the old object has none).
///
/// An object that does not decode (a wrong JSON type anywhere) is left as written: the server refuses the body
/// before its strategy runs, and so does the validation that follows. Returns, per object (by JSON Pointer prefix),
/// each member replaced — a create's `status` when the manifest has one other than `null`, an update's member when
/// it differs from the stored one — with what the object as written reports inside it that the replaced one does not
/// ([`Cleared::hidden`]).
#[allow(clippy::too_many_arguments)]
fn prepare(
    api: &Api,
    interp: &Interpreter<'_>,
    op_base: &Operation,
    olds: &OldObjects,
    opts: &Options,
    text: &str,
    doc: &mut Document,
) -> BTreeMap<String, Vec<Cleared>> {
    let mut out: BTreeMap<String, Vec<Cleared>> = BTreeMap::new();
    let main = main_resource(opts.subresource.as_deref());
    let status_sub = opts
        .subresource
        .as_deref()
        .is_some_and(|s| s.trim_start_matches('/') == "status");
    if (opts.create_resets.is_empty() && opts.update_keeps.is_empty()) || !(main || status_sub) {
        return out;
    }
    // (prefix, key, members to replace: (json name, the value it takes — None: removed —, strategy line, update))
    type Plan<'v> = (
        String,
        TypeKey,
        Option<&'v Value>,
        Vec<(String, Option<Value>, String, bool)>,
    );
    let by = |at: &str| {
        opts.kubernetes
            .as_ref()
            .map_or_else(|| at.to_string(), |(source, _)| format!("{source} {at}"))
    };
    let planned: Vec<Plan<'_>> = objects(&doc.value)
        .into_iter()
        .filter_map(|(obj, prefix)| {
            let key = api.kind_of(obj)?;
            let kind = obj.get("kind")?.as_str()?;
            let old = identity(obj)
                .and_then(|id| olds.get(&pair_key(id)))
                .and_then(|o| o.value.as_ref());
            let mut members = Vec::new();
            match old {
                None if main => {
                    obj.get("status").filter(|v| !v.is_null())?;
                    let reset = opts.create_resets.iter().find(|r| {
                        r.is_of(&key.pkg, kind)
                            && r.gate
                                .as_ref()
                                .is_none_or(|g| opts.options.get(g) == Some(&true))
                    })?;
                    members.push(("status".to_string(), None, by(&reset.at), false));
                }
                None => return None,
                Some(old) => {
                    let t = interp.type_plan(key)?;
                    for k in opts
                        .update_keeps
                        .iter()
                        .filter(|k| k.is_of(&key.pkg, kind) && k.status == status_sub)
                    {
                        let Some(json) = t
                            .fields
                            .iter()
                            .flatten()
                            .find(|f| f.go_field == k.field && !f.json_name.is_empty())
                            .map(|f| f.json_name.clone())
                        else {
                            continue;
                        };
                        let kept = old.get(&json).cloned();
                        if obj.get(&json) != kept.as_ref() {
                            members.push((json, kept, by(&k.at), true));
                        }
                    }
                    if members.is_empty() {
                        return None;
                    }
                }
            }
            interp.decode(key, obj).ok()?;
            Some((prefix, key.clone(), old, members))
        })
        .collect();
    for (prefix, key, old, members) in planned {
        let Some(written) = doc.value.pointer(&prefix).cloned() else {
            continue;
        };
        let mut prepared = written.clone();
        let mut cleared = Vec::new();
        for (json, value, strategy, update) in members {
            let span = doc
                .key_span(&format!("{prefix}/{json}"), text)
                .unwrap_or_else(|| doc.label_of(&prefix, text));
            let Value::Object(m) = &mut prepared else {
                continue;
            };
            let before = match value {
                Some(v) => m.insert(json.clone(), v),
                None => m.remove(&json),
            };
            cleared.push(Cleared {
                field: json,
                update,
                by: strategy,
                span,
                written: before,
                hidden: 0,
            });
        }
        // What the replaced members hide: the errors inside them of the object as written, less those of the
        // prepared object.
        let mut op = op_base.clone();
        if old.is_some() {
            op.op_type = vgc_runtime::OperationType::Update;
        }
        let inside = |v: &Value, field: &str| -> usize {
            interp
                .validate_partial(&key, v, old, &op)
                .map(|p| {
                    p.errors
                        .iter()
                        .filter(|e| {
                            e.field
                                .strip_prefix(field)
                                .is_some_and(|r| r.is_empty() || r.starts_with(['.', '[']))
                        })
                        .count()
                })
                .unwrap_or(0)
        };
        for c in &mut cleared {
            c.hidden = inside(&written, &c.field).saturating_sub(inside(&prepared, &c.field));
        }
        if let Some(slot) = doc.value.pointer_mut(&prefix) {
            *slot = prepared;
        }
        out.insert(prefix, cleared);
    }
    out
}

/// Whether `--subresource` names the main resource: not given, empty or `/` (upstream's `SubresourcePath` of the
/// main resource).
fn main_resource(subresource: Option<&str>) -> bool {
    subresource.is_none_or(|s| s.is_empty() || s == "/")
}

fn malformed(file: usize, e: LoadError) -> Entry {
    Entry::unreadable(file, e.span, "malformed document", &e.message)
}

/// The objects of a document: the document itself, or the items of a `List` (`v1/List`, `*List` with `items`),
/// with the JSON Pointer prefix of each.
fn objects(v: &Value) -> Vec<(&Value, String)> {
    let is_list = v
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"));
    match v.get("items").and_then(Value::as_array) {
        Some(items) if is_list => items
            .iter()
            .enumerate()
            .map(|(i, it)| (it, format!("/items/{i}")))
            .collect(),
        _ => vec![(v, String::new())],
    }
}

/// The string at `path` (object keys, outermost first) in `v`, `""` when absent or not a string. A plain walk,
/// not `Value::pointer`, which unescapes (allocates) every segment and showed in the profile.
fn str_at<'v>(v: &'v Value, path: &[&str]) -> &'v str {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn identity(v: &Value) -> Option<(String, String, String, String)> {
    let s = |p: &[&str]| str_at(v, p).to_string();
    let id = (
        s(&["apiVersion"]),
        s(&["kind"]),
        s(&["metadata", "namespace"]),
        s(&["metadata", "name"]),
    );
    (!id.0.is_empty() && !id.1.is_empty()).then_some(id)
}

fn validate_object(
    api: &Api,
    interp: &Interpreter<'_>,
    op_base: &Operation,
    (olds, old_unreadable): (&OldObjects, usize),
    opts: &Options,
    w: &Work<'_>,
) -> Entry {
    let (file, obj) = (w.file, w.obj);
    // Where to show something about `pointer` (relative to the object): in the text as written. A member only
    // defaults put there is shown at its nearest ancestor the text has.
    let span_of = |pointer: &str| {
        let full = format!("{}{pointer}", w.prefix);
        if w.defaulted.is_empty() || pointer.is_empty() {
            return w.doc.label_of(&full, w.text);
        }
        let written = &w.doc.spans(w.text).values;
        let mut p = full.as_str();
        while !p.is_empty() && !written.contains_key(p) {
            p = p.rfind('/').map_or("", |i| &p[..i]);
        }
        w.doc.label_of(p, w.text)
    };
    let at = span_of("");
    // Paired with its old version whatever becomes of it (skipped, unknown kind): that old object has an input.
    if !olds.is_empty()
        && let Some(o) = identity(obj).and_then(|id| olds.get(&pair_key(id)))
    {
        o.paired.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let (av, kind) = match api_version_kind(obj) {
        Ok(x) => x,
        Err(e) => return Entry::unreadable(file, at, &e.to_string(), "in this object"),
    };
    let ident = Ident {
        api_version: av.to_string(),
        kind: kind.to_string(),
        namespace: str_at(obj, &["metadata", "namespace"]).to_string(),
        name: str_at(obj, &["metadata", "name"]).to_string(),
    };
    let mut entry = Entry {
        file,
        at: at.start,
        status: Status::Skipped,
        ident: None,
        key: None,
        operation: None,
        findings: Vec::new(),
        shadowed: Vec::new(),
        problem: None,
        defaulted: Vec::new(),
        cleared: Vec::new(),
        from_old: false,
    };
    if opts.skip.iter().any(|s| s.matches(av, kind)) {
        entry.problem = Some(Problem {
            note: true,
            message: format!("skipped: {av} {kind} (--skip)"),
            span: span_of("/kind"),
            label: String::new(),
            json_message: "skipped by --skip".into(),
        });
        entry.ident = Some(ident);
        return entry;
    }
    // A kind the release's API server no longer serves (its prerelease-lifecycle-gen markers): that server answers
    // "no matches for kind", whatever the object holds, validation-gen tag or not.
    let removed = api
        .kind_of(obj)
        .and_then(|k| api.removed_in(k))
        .or_else(|| {
            api.switched_off_kind(obj)
                .and_then(|r| r.removed_in.clone())
        });
    if let Some(removed) = removed
        && let Some(release) = &opts.release
        && release_at_least(release, &removed)
    {
        let msg = format!(
            "{av} {kind} is not served by Kubernetes {release}: removed in {removed} (the API server answers \"no matches for kind\")"
        );
        entry.status = Status::UnknownKind;
        entry.problem = Some(Problem {
            note: false,
            message: msg.clone(),
            span: span_of("/apiVersion"),
            label: String::new(),
            json_message: msg,
        });
        entry.ident = Some(ident);
        return entry;
    }
    if let Some(off) = api.switched_off_kind(obj) {
        // Declared, so never an unknown kind (`--strict` or not); nothing declarative to check.
        entry.problem = Some(Problem {
            note: true,
            message: format!(
                "skipped: {av} {kind} has no declarative validation: its package {} is tagged +k8s:validation-gen=false",
                off.key.pkg
            ),
            span: span_of("/kind"),
            label: String::new(),
            json_message: format!(
                "no declarative validation: package {} is tagged +k8s:validation-gen=false",
                off.key.pkg
            ),
        });
        entry.ident = Some(ident);
        return entry;
    }
    let Some(key) = api.kind_of(obj) else {
        let near = api
            .nearest_kind(av, kind)
            .map_or_else(String::new, |(a, k)| format!("; did you mean {a} {k}?"));
        let msg =
            format!("unknown kind {kind} of apiVersion {av}: not declared by the API tree{near}");
        entry.status = if opts.strict {
            Status::UnknownKind
        } else {
            Status::Skipped
        };
        entry.problem = Some(Problem {
            note: !opts.strict,
            message: if opts.strict {
                msg.clone()
            } else {
                format!("skipped: {msg}")
            },
            span: span_of("/kind"),
            label: String::new(),
            json_message: msg,
        });
        entry.ident = Some(ident);
        return entry;
    };
    entry.key = Some(key.clone());
    let old = match identity(obj).and_then(|id| olds.get(&pair_key(id))) {
        Some(OldObject { value: Some(v), .. }) => Some(v),
        Some(OldObject { value: None, .. }) => {
            entry.status = Status::NotChecked;
            entry.problem = Some(Problem {
                note: false,
                message: format!(
                    "{av} {kind} {}: not checked: its old object (--old) does not decode (reported above)",
                    ident.display_name()
                ),
                span: span_of("/kind"),
                label: String::new(),
                json_message: "not checked: the old object (--old) does not decode".into(),
            });
            entry.ident = Some(ident);
            return entry;
        }
        None => None,
    };
    let mut op = op_base.clone();
    if old.is_some() {
        op.op_type = vgc_runtime::OperationType::Update;
    }
    entry.operation = Some(if old.is_some() { "update" } else { "create" });
    // Defaults were applied to `obj` and to the old objects when they were read.
    entry.defaulted = w.defaulted.clone();
    entry.cleared = w.cleared.clone();
    match interp.validate_partial(key, obj, old, &op) {
        Ok(vgc_validate::Partial {
            errors: errs,
            unchecked,
        }) => {
            if opts.strict {
                for u in w.unknown.clone() {
                    let pointer = format!("{}{}", w.prefix, u.pointer);
                    let span = w
                        .doc
                        .key_span(&pointer, w.text)
                        .unwrap_or_else(|| span_of(&u.pointer));
                    entry.findings.push(Finding {
                        message: format!("unknown field {:?}", u.path),
                        field: u.path,
                        type_name: "unknown field".into(),
                        detail: if u.ambiguous {
                            format!(
                                "ambiguous in {}: declared by several inline structs, dropped by Go",
                                u.type_name
                            )
                        } else {
                            format!("{} has no such field", u.type_name)
                        },
                        origin: String::new(),
                        stability: None,
                        span,
                        value_bytes: None,
                        value: None,
                    });
                }
            }
            for e in &errs {
                let pointer = field_pointer(&e.field, obj);
                let (message, value_bytes) = shown_message(e);
                // Upstream `FilterEnforcedDeclarativeErrors`: internal errors always; others by their level.
                let into = if opts.enforce.returns(e) {
                    &mut entry.findings
                } else {
                    &mut entry.shadowed
                };
                into.push(Finding {
                    field: e.field.clone(),
                    type_name: type_name(e).to_string(),
                    detail: e.detail.clone(),
                    message,
                    value_bytes,
                    value: shown_value(e),
                    origin: e.origin.clone(),
                    stability: match e.stability {
                        Some(StabilityLevel::Alpha) => Some("alpha"),
                        Some(StabilityLevel::Beta) => Some("beta"),
                        None => None,
                    },
                    span: span_of(&pointer),
                });
            }
            entry.status = if entry.findings.is_empty() {
                Status::Valid
            } else {
                Status::Invalid
            };
            if old.is_none() && old_unreadable > 0 {
                entry.problem = Some(Problem {
                    note: true,
                    message: format!(
                        "{av} {kind} {}: validated as a create: no old object has its identity, but {} of --old could not be read (reported above); its old version may be among them",
                        ident.display_name(),
                        report::plural(old_unreadable, "document")
                    ),
                    span: span_of("/kind"),
                    label: String::new(),
                    json_message: format!(
                        "validated as a create: {} of --old could not be read; its old version may be among them",
                        report::plural(old_unreadable, "document")
                    ),
                });
            }
            // Hand-written validations the interpreter cannot run: the object is not fully checked. Without other
            // errors it is `not checked`; with them it is invalid, and the note says what was left out.
            if let Some(first) = unchecked.first() {
                let e = EvalError::CustomValidation {
                    function: first.function.clone(),
                    tag: first.tag,
                    path: first.path.clone(),
                };
                let more = match unchecked.len() {
                    1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                if entry.findings.is_empty() {
                    entry.status = Status::NotChecked;
                }
                entry.problem = Some(Problem {
                    note: entry.status == Status::Invalid,
                    message: format!("{av} {kind}: not checked: {e}{more}"),
                    span: span_of(&field_pointer(&first.path, obj)),
                    label: String::new(),
                    json_message: format!("{e}{more}"),
                });
            }
        }
        Err(EvalError::DecodeOld(d)) => {
            // The old object's text is not kept: shown at the new object, naming the old one's field.
            entry.status = Status::Unreadable;
            entry.problem = Some(Problem {
                note: false,
                message: format!(
                    "{av} {kind} {}: the old object (--old) has a wrong type at {}",
                    ident.display_name(),
                    if d.pointer.is_empty() {
                        "its root"
                    } else {
                        &d.pointer
                    }
                ),
                span: span_of("/kind"),
                label: format!("old object: {}", d.message),
                json_message: format!("the old object (--old) does not decode: {d}"),
            });
        }
        Err(EvalError::Decode(d)) => {
            entry.status = Status::Unreadable;
            // A timestamp Go's `time.Parse` refuses is a string of the right JSON type, but not a time.
            // Likewise a quantity `ParseQuantity` refuses and a duration `time.ParseDuration` refuses
            // (`vgc_runtime::types::quantity_syntax`, the `Duration` decoder).
            let what = if d.message.starts_with("parsing time ") {
                "not a valid time"
            } else if d.message.starts_with("quantities must match")
                || d.message.starts_with("unable to parse quantity")
            {
                "not a valid quantity"
            } else if d.message.starts_with("time: ") {
                "not a valid duration"
            } else {
                "wrong type"
            };
            entry.problem = Some(Problem {
                note: false,
                message: format!("{av} {kind} {}: {what}", ident.display_name()),
                span: span_of(&d.pointer),
                label: d.message.clone(),
                json_message: d.to_string(),
            });
        }
        Err(e) => {
            entry.status = Status::NotChecked;
            entry.problem = Some(Problem {
                note: false,
                message: format!("{av} {kind}: not checked: {e}"),
                span: at,
                label: String::new(),
                json_message: e.to_string(),
            });
        }
    }
    entry.ident = Some(ident);
    entry
}

/// Whether release `release` (`1.37`, `1.38.0-beta.0`) is `version` (`1.16`) or later, by major and minor.
fn release_at_least(release: &str, version: &str) -> bool {
    let minor = |v: &str| -> Option<(u32, u32)> {
        let mut it = v.trim_start_matches('v').split(['.', '-']);
        Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
    };
    matches!((minor(release), minor(version)), (Some(r), Some(v)) if r >= v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_paths_to_pointers() {
        let v = json!({"spec": {"items": [{"a/b": {"x": 1}}], "m": {"k.e": 2}}});
        assert_eq!(field_pointer("<nil>", &v), "");
        assert_eq!(
            field_pointer("spec.items[0][a/b].x", &v),
            "/spec/items/0/a~1b/x"
        );
        assert_eq!(field_pointer("spec.items[0].missing", &v), "/spec/items/0");
        assert_eq!(field_pointer("spec.nope.deeper", &v), "/spec");
    }
}
