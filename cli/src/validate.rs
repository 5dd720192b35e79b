//! `vgc validate`: Kubernetes manifests (YAML or JSON streams, `List` kinds) checked against an API tree's
//! declarative rules by the plan interpreter (`vgc-validate`), each error placed at its field in the source.
//!
//! [`Api`] is the dispatch table of an API tree (`apiVersion`/`kind` → root type: the group of the package's
//! `+groupName`, the version of its path); [`run`] validates inputs and writes the human or JSON report; its
//! [`Outcome`] gives the exit code (0 valid, 1 invalid, 2 usage or IO).

use crate::manifests::{self, Document};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Config};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use vgc_analysis::TypeKey;
use vgc_runtime::{Error, ErrorList, Operation, StabilityLevel};
use vgc_validate::{Coverage, EvalError, Interpreter};

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
    /// The interpreter could not evaluate the document (wrong JSON types, a hand-written validation reached).
    #[error(transparent)]
    Eval(#[from] EvalError),
}

impl Api {
    /// The dispatch table of a build's plan: `group/version` from the package's `+groupName` (read from the
    /// build's Go files; else the directory above the version) and its last path segment (docs-gen's rule).
    #[must_use]
    pub fn from_build(out: &crate::BuildOutcome) -> Self {
        let docs = vgc_docs_gen::GoDocs::read(&out.package_files);
        let mut kinds = BTreeMap::new();
        for m in &out.plan.modules {
            let mut parts = m.pkg.rsplit('/');
            let version = parts.next().unwrap_or("").to_string();
            let group = match docs.packages.get(&m.pkg).and_then(|p| p.group.clone()) {
                Some(g) => g,
                None => parts.next().unwrap_or("").to_string(),
            };
            let api_version = if group.is_empty() {
                version
            } else {
                format!("{group}/{version}")
            };
            for t in &m.types {
                let is_kind = t.fields.iter().flatten().any(|f| {
                    f.json_name.is_empty()
                        && vgc_lowering::graph::build_type_key(&f.ty)
                            .is_some_and(|k| k.name == "TypeMeta")
                });
                if is_kind {
                    kinds.insert((api_version.clone(), t.key.name.clone()), t.key.clone());
                }
            }
        }
        Self {
            plan: out.plan.clone(),
            kinds,
        }
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

    /// Validates one object (with its old version on update) against its kind's declarative rules, as the API
    /// server's registered validation does (`vgc_validate::Interpreter::validate`).
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
pub fn request(path: impl Into<String>) -> crate::BuildRequest {
    crate::BuildRequest::check(path, vec![KIND_ROOTS.to_string()])
}

/// `Api` as the plan cache keeps it ([`crate::cache::plan`]): the plan without its diagnostics (a tree is cached
/// only when it has no errors, and `vgc validate` shows no warnings) and the dispatch table as a list.
#[derive(serde::Serialize, serde::Deserialize)]
struct CachedApi {
    modules: Vec<std::sync::Arc<vgc_lowering::plan::ModulePlan>>,
    go_module: String,
    stats: vgc_lowering::plan::Stats,
    upstream: vgc_ir::Upstream,
    formats: std::sync::Arc<[vgc_ir::extensions::ProjectFormat]>,
    kinds: Vec<(String, String, TypeKey)>,
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
/// `root/validate/<the first 16 hex digits of the BLAKE3 hash of the absolute path>`. One directory per tree, so
/// several trees (k8s.io/api releases, an operator's API) stay cached side by side; options and vgc builds are
/// part of the plan cache's key, not of the name, so they replace the tree's entry instead of piling up.
#[must_use]
pub fn cache_dir_for(root: &Path, api_path: &str) -> PathBuf {
    let abs = std::path::absolute(api_path).unwrap_or_else(|_| PathBuf::from(api_path));
    let hash = blake3::hash(abs.to_string_lossy().as_bytes()).to_hex();
    root.join("validate").join(&hash.as_str()[..16])
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
/// `cache` ([`cache_dir_for`]; `None`: no caches). With a cache, the plan cache ([`crate::cache::plan`]) is read
/// first: when it was written for the same request (vgc build, path, profile choice, tag prefix, extension files,
/// module-cache environment: [`crate::driver::request_key`]) and every file, listing and probe the load that wrote
/// it observed is unchanged, nothing is loaded. Otherwise the tree is checked and lowered (reusing the IR cache
/// for unchanged files) and, when it has no errors, both caches are written.
///
/// # Errors
/// The check's outcome when the tree cannot be used: it has error diagnostics, or nothing could be loaded
/// ([`crate::exit_code`] is not 0, or `io_error` is set).
pub fn load_api(
    req: &crate::BuildRequest,
    cache: Option<&Path>,
) -> Result<Loaded, Box<crate::BuildOutcome>> {
    use crate::cache::manifest::Recorder;
    use crate::sys::OsSystem;
    let Some(dir) = cache else {
        let outcome = crate::build(req);
        if outcome.io_error.is_some() || crate::exit_code(&outcome) != 0 {
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
    let key = format!("validate {}", crate::driver::request_key(req));
    let mut notes = Vec::new();
    let clock = std::time::Instant::now();
    let cached = crate::cache::plan::load::<CachedApi>(dir, &key, &OsSystem, &mut notes);
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
    let mut outcome = crate::driver::check_with_ir_cache(req, &rec, dir);
    if outcome.io_error.is_some() || crate::exit_code(&outcome) != 0 {
        outcome.notes.splice(0..0, notes);
        return Err(Box::new(outcome));
    }
    notes.append(&mut outcome.notes);
    timings.append(&mut outcome.timings);
    let clock = std::time::Instant::now();
    let api = Api::from_build(&outcome);
    timings.push(("dispatch table", clock.elapsed()));
    let clock = std::time::Instant::now();
    crate::cache::plan::save(dir, &key, &rec, &CachedApi::of(&api));
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

/// `vgc validate`'s settings.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The operation's subresource path (`status`, `scale`, `/status`): `None` for the main resource.
    pub subresource: Option<String>,
    /// Declarative-validation options (feature gates) and their states.
    pub options: BTreeMap<String, bool>,
    /// Unknown kinds are errors (else skipped with a note).
    pub strict: bool,
    /// JSON report instead of human text.
    pub json: bool,
    /// ANSI colours in the human report.
    pub color: bool,
}

/// One input: its display name and bytes.
#[derive(Debug, Clone)]
pub struct Input {
    /// The name shown in reports (the path as given, `<stdin>`).
    pub name: String,
    /// Its content.
    pub bytes: Vec<u8>,
}

/// The bytes of `vgc validate`'s inputs: files as given, directories walked recursively in name order for `*.yaml`,
/// `*.yml` and `*.json`, `-` stdin (`<stdin>`). Each input is named by its path as given (a directory's files by the
/// directory joined with their relative path).
///
/// # Errors
/// The first path that cannot be read or listed, with the OS error.
pub fn read_inputs(paths: &[String]) -> Result<Vec<Input>, String> {
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
    for p in paths {
        if p == "-" {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
                .map_err(|e| format!("<stdin>: {e}"))?;
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
        for f in files {
            let bytes = std::fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?;
            inputs.push(Input {
                name: f.to_string_lossy().into_owned(),
                bytes,
            });
        }
    }
    Ok(inputs)
}

/// What a run found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Objects validated.
    pub objects: usize,
    /// Objects with at least one error.
    pub invalid: usize,
    /// Validation errors.
    pub errors: usize,
    /// Documents that could not be read or dispatched (malformed, no apiVersion/kind, wrong field types, unknown
    /// kinds under `--strict`).
    pub failed: usize,
    /// Objects of unknown kinds skipped.
    pub skipped: usize,
}

impl Outcome {
    /// 0 valid, 1 invalid (errors, unreadable documents, unknown kinds under `--strict`).
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        u8::from(self.invalid > 0 || self.failed > 0)
    }
}

/// Per kind: documents, errors and the rule coverage.
#[derive(Default)]
struct KindStats {
    objects: usize,
    errors: usize,
    coverage: Coverage,
}

struct Report {
    files: SimpleFiles<String, String>,
    text: String,
    json_docs: Vec<Value>,
    opts: Options,
}

impl Report {
    fn emit(&mut self, d: &Diagnostic<usize>) {
        use codespan_reporting::term::termcolor::Buffer;
        let mut buf = if self.opts.color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        if term::emit_to_write_style(&mut buf, &Config::default(), &self.files, d).is_ok() {
            self.text.push_str(&String::from_utf8_lossy(buf.as_slice()));
        } else {
            let _ = writeln!(self.text, "{}", d.message);
        }
    }

    fn line_col(&self, file: usize, at: usize) -> (usize, usize) {
        use codespan_reporting::files::Files as _;
        match self.files.location(file, at) {
            Ok(l) => (l.line_number, l.column_number),
            Err(_) => (0, 0),
        }
    }
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

/// Validates `inputs` (with `old` documents paired by apiVersion, kind, namespace and name) against `api`, and
/// returns the report text (human or JSON) and the outcome.
#[must_use]
pub fn run(api: &Api, inputs: &[Input], old: &[Input], opts: &Options) -> (String, Outcome) {
    let interp = Interpreter::new(&api.plan);
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
    let mut report = Report {
        files: SimpleFiles::new(),
        text: String::new(),
        json_docs: Vec::new(),
        opts: opts.clone(),
    };
    let mut outcome = Outcome::default();
    // Old objects by (apiVersion, kind, namespace, name); an old document that cannot be read is reported like an
    // input's (the objects it would pair with are then validated as creates).
    let mut olds: BTreeMap<(String, String, String, String), Value> = BTreeMap::new();
    for input in old {
        let Some((file, text)) = read_text(&mut report, &mut outcome, input) else {
            continue;
        };
        for doc in manifests::load(&text) {
            match doc {
                Ok(doc) => {
                    for (v, _) in objects(&doc.value) {
                        if let Some(id) = identity(v) {
                            olds.insert(id, v.clone());
                        }
                    }
                }
                Err(e) => malformed(&mut report, &mut outcome, &input.name, file, e),
            }
        }
    }
    let mut kinds: BTreeMap<(String, String), KindStats> = BTreeMap::new();
    for input in inputs {
        let Some((file, text)) = read_text(&mut report, &mut outcome, input) else {
            continue;
        };
        for doc in manifests::load(&text) {
            match doc {
                Err(e) => malformed(&mut report, &mut outcome, &input.name, file, e),
                Ok(doc) => {
                    for (obj, prefix) in objects(&doc.value) {
                        validate_object(
                            api,
                            &interp,
                            &op_base,
                            &olds,
                            &mut report,
                            &mut outcome,
                            &mut kinds,
                            (input.name.as_str(), file, &doc, &text),
                            obj,
                            &prefix,
                        );
                    }
                }
            }
        }
    }
    // Coverage, per kind.
    let mut kind_json = Vec::new();
    let mut coverage_text = String::new();
    for ((av, kind), s) in &kinds {
        let c = &s.coverage;
        let rules = if c.rules == 0 {
            "0 declarative rules — server-side checks not covered".to_string()
        } else {
            let mut st = Vec::new();
            if c.alpha > 0 {
                st.push(format!("{} alpha", c.alpha));
            }
            if c.beta > 0 {
                st.push(format!("{} beta", c.beta));
            }
            let stable = c.rules - c.alpha - c.beta;
            format!(
                "{} declarative rule{} ({stable} stable{}{})",
                c.rules,
                if c.rules == 1 { "" } else { "s" },
                if st.is_empty() { "" } else { ", " },
                st.join(", ")
            )
        };
        let _ = writeln!(
            coverage_text,
            "{av} {kind}: {} object{}, {} error{}; {rules}",
            s.objects,
            if s.objects == 1 { "" } else { "s" },
            s.errors,
            if s.errors == 1 { "" } else { "s" },
        );
        kind_json.push(json!({
            "apiVersion": av, "kind": kind, "objects": s.objects, "errors": s.errors,
            "rules": c.rules, "alpha": c.alpha, "beta": c.beta,
        }));
    }
    let summary = format!(
        "vgc validate: {} object{} ({} valid, {} invalid), {} error{}, {} skipped, {} unreadable",
        outcome.objects,
        if outcome.objects == 1 { "" } else { "s" },
        outcome.objects - outcome.invalid,
        outcome.invalid,
        outcome.errors,
        if outcome.errors == 1 { "" } else { "s" },
        outcome.skipped,
        outcome.failed
    );
    let text = if opts.json {
        let v = json!({
            "documents": report.json_docs,
            "kinds": kind_json,
            "summary": {
                "objects": outcome.objects, "invalid": outcome.invalid, "errors": outcome.errors,
                "skipped": outcome.skipped, "unreadable": outcome.failed,
            },
        });
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
    } else {
        format!("{}{coverage_text}{summary}\n", report.text)
    };
    (text, outcome)
}

/// Adds `input` to the report's files; `None` (and a located error) when it is not UTF-8.
fn read_text(report: &mut Report, outcome: &mut Outcome, input: &Input) -> Option<(usize, String)> {
    match std::str::from_utf8(&input.bytes) {
        Ok(t) => Some((
            report.files.add(input.name.clone(), t.to_string()),
            t.to_string(),
        )),
        Err(e) => {
            let file = report.files.add(
                input.name.clone(),
                String::from_utf8_lossy(&input.bytes).into_owned(),
            );
            let at = e.valid_up_to();
            outcome.failed += 1;
            let d = Diagnostic::error()
                .with_message("the file is not UTF-8 text")
                .with_labels(vec![
                    Label::primary(file, at..at).with_message("invalid UTF-8 here"),
                ]);
            doc_failure(report, &input.name, file, at..at, &d);
            None
        }
    }
}

fn malformed(
    report: &mut Report,
    outcome: &mut Outcome,
    name: &str,
    file: usize,
    e: manifests::LoadError,
) {
    outcome.failed += 1;
    let d = Diagnostic::error()
        .with_message("malformed document")
        .with_labels(vec![
            Label::primary(file, e.span.clone()).with_message(e.message),
        ]);
    doc_failure(report, name, file, e.span, &d);
}

fn doc_failure(
    report: &mut Report,
    name: &str,
    file: usize,
    span: Range<usize>,
    d: &Diagnostic<usize>,
) {
    report.emit(d);
    let (line, column) = report.line_col(file, span.start);
    let message = d.labels.first().map_or_else(
        || d.message.clone(),
        |l| format!("{}: {}", d.message, l.message),
    );
    report.json_docs.push(json!({
        "file": name, "line": line, "column": column, "status": "unreadable", "message": message,
    }));
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

fn identity(v: &Value) -> Option<(String, String, String, String)> {
    let s = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let id = (
        s("/apiVersion"),
        s("/kind"),
        s("/metadata/namespace"),
        s("/metadata/name"),
    );
    (!id.0.is_empty() && !id.1.is_empty()).then_some(id)
}

#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
fn validate_object(
    api: &Api,
    interp: &Interpreter<'_>,
    op_base: &Operation,
    olds: &BTreeMap<(String, String, String, String), Value>,
    report: &mut Report,
    outcome: &mut Outcome,
    kinds: &mut BTreeMap<(String, String), KindStats>,
    (name, file, doc, text): (&str, usize, &Document, &str),
    obj: &Value,
    prefix: &str,
) {
    let span_of = |pointer: &str| doc.label_of(&format!("{prefix}{pointer}"), text);
    let at = span_of("");
    let (line, column) = report.line_col(file, at.start);
    let (av, kind) = match api_version_kind(obj) {
        Ok(x) => x,
        Err(e) => {
            outcome.failed += 1;
            let d = Diagnostic::error()
                .with_message(e.to_string())
                .with_labels(vec![
                    Label::primary(file, at.clone()).with_message("in this object"),
                ]);
            doc_failure(report, name, file, at, &d);
            return;
        }
    };
    let meta = |p: &str| {
        obj.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let (namespace, obj_name) = (meta("/metadata/namespace"), meta("/metadata/name"));
    let mut entry = json!({
        "file": name, "line": line, "column": column, "apiVersion": av, "kind": kind,
        "namespace": namespace, "name": obj_name,
    });
    let Some(key) = api.kind_of(obj) else {
        let msg = format!("unknown kind {kind} of apiVersion {av}: not declared by the API tree");
        if report.opts.strict {
            outcome.failed += 1;
            report.emit(
                &Diagnostic::error()
                    .with_message(msg.clone())
                    .with_labels(vec![Label::primary(file, span_of("/kind"))]),
            );
            entry["status"] = json!("unknown-kind");
        } else {
            outcome.skipped += 1;
            report.emit(
                &Diagnostic::note()
                    .with_message(format!("skipped: {msg}"))
                    .with_labels(vec![Label::primary(file, span_of("/kind"))]),
            );
            entry["status"] = json!("skipped");
        }
        entry["message"] = json!(msg);
        report.json_docs.push(entry);
        return;
    };
    let stats = kinds.entry((av.to_string(), kind.to_string())).or_default();
    stats.coverage = interp.coverage(key);
    let old = identity(obj).and_then(|id| olds.get(&id));
    let mut op = op_base.clone();
    if old.is_some() {
        op.op_type = vgc_runtime::OperationType::Update;
    }
    entry["operation"] = json!(if old.is_some() { "update" } else { "create" });
    match interp.validate(key, obj, old, &op) {
        Ok(errs) => {
            outcome.objects += 1;
            stats.objects += 1;
            stats.errors += errs.len();
            outcome.errors += errs.len();
            if !errs.is_empty() {
                outcome.invalid += 1;
            }
            let mut json_errs = Vec::new();
            for e in &errs {
                let pointer = field_pointer(&e.field, obj);
                let span = span_of(&pointer);
                let (l, c) = report.line_col(file, span.start);
                let mut notes = Vec::new();
                if !e.origin.is_empty() {
                    notes.push(format!("rule: {}", e.origin));
                }
                let stability = match e.stability {
                    Some(StabilityLevel::Alpha) => Some("alpha"),
                    Some(StabilityLevel::Beta) => Some("beta"),
                    None => None,
                };
                if let Some(s) = stability {
                    notes.push(format!(
                        "{s}: the API server enforces this rule only where its {s} declarative validation is on"
                    ));
                }
                notes.push(format!(
                    "{av} {kind} {}",
                    display_name(&namespace, &obj_name)
                ));
                report.emit(
                    &Diagnostic::error()
                        .with_message(e.to_string())
                        .with_labels(vec![Label::primary(file, span).with_message(type_name(e))])
                        .with_notes(notes),
                );
                json_errs.push(json!({
                    "field": e.field, "type": type_name(e), "detail": e.detail, "message": e.to_string(),
                    "origin": e.origin, "stability": stability, "line": l, "column": c,
                }));
            }
            entry["status"] = json!(if errs.is_empty() { "valid" } else { "invalid" });
            entry["errors"] = json!(json_errs);
        }
        Err(EvalError::Decode(d)) => {
            outcome.failed += 1;
            let span = span_of(&d.pointer);
            report.emit(
                &Diagnostic::error()
                    .with_message(format!(
                        "{av} {kind} {}: wrong type",
                        display_name(&namespace, &obj_name)
                    ))
                    .with_labels(vec![
                        Label::primary(file, span).with_message(d.message.clone()),
                    ]),
            );
            entry["status"] = json!("unreadable");
            entry["message"] = json!(d.to_string());
        }
        Err(e) => {
            outcome.failed += 1;
            report.emit(
                &Diagnostic::error()
                    .with_message(format!("{av} {kind}: not checked: {e}"))
                    .with_labels(vec![Label::primary(file, at)]),
            );
            entry["status"] = json!("not-checked");
            entry["message"] = json!(e.to_string());
        }
    }
    report.json_docs.push(entry);
}

fn display_name(namespace: &str, name: &str) -> String {
    match (namespace, name) {
        ("", "") => "(unnamed)".to_string(),
        ("", n) => n.to_string(),
        (ns, n) => format!("{ns}/{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
