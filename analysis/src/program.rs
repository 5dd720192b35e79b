//! Loading a Go module tree into a [`Program`]: target packages under the build path, plus every package their
//! types reference (read-only), resolved through `go.mod`, `vendor/` and the module cache.

use crate::gomod::{GoMod, Resolved, parse_go_mod, resolve_import};
use crate::system::{Stamp, System};
use indexmap::IndexMap;
use rayon::prelude::*;
use std::sync::Arc;
use vgc_ir::model::{FileIr, TypeIr};
use vgc_ir::{Code, Db, Diagnostic, SourceFile};
use vgc_parser::go::TypeExpr;

/// A loaded package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Import path.
    pub path: String,
    /// Package name from the package clause.
    pub name: String,
    /// Directory.
    pub dir: String,
    /// Non-test Go files, sorted by path.
    pub files: Vec<SourceFile>,
    /// True for packages under the build path (validation code is generated for their roots).
    pub target: bool,
    /// Type name → (file index, type index in that file's IR).
    pub types: IndexMap<String, (usize, usize)>,
    /// The salsa input for this package.
    pub input: vgc_ir::Package,
}

/// The loaded program.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Program {
    /// The main module's path.
    pub module: String,
    /// The main module's root directory.
    pub root: String,
    /// Packages by import path, targets first in path order, then read-only ones in load order.
    pub packages: IndexMap<String, Package>,
}

/// One package of the [`Workspace`]: what discovery found that the salsa `Package` input does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PackageEntry {
    /// Import path.
    pub path: String,
    /// Package name from the package clause (the files' majority).
    pub name: String,
    /// Directory.
    pub dir: String,
    /// The salsa input: files and target flag.
    pub input: vgc_ir::Package,
}

pub use salsa_workspace::Workspace;

/// `Workspace` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_workspace {
    use super::*;

    /// The loaded module tree as a salsa input (one per database): the main module and every package, targets first
    /// in path order, then read-only ones in load order. [`sync`] creates or updates it; [`loaded_program`] derives the
    /// [`Program`] from it, so analyses and lowering are queries over it.
    #[salsa::input(singleton, debug)]
    pub struct Workspace {
        /// The main module's path.
        #[returns(ref)]
        pub module: String,
        /// The main module's root directory.
        #[returns(ref)]
        pub root: String,
        /// Packages.
        #[returns(ref)]
        pub packages: Vec<PackageEntry>,
    }
}

/// The [`Stamp`](crate::system::Stamp) of every file as it was when last read, by path: lets a rebuild in a
/// live session skip reading files that did not change. Only settled stamps are recorded
/// ([`System::settled_stamp`](crate::system::System::settled_stamp)), so a same-size rewrite within the file
/// system's timestamp resolution of a read is never missed.
#[derive(Debug, Clone, Default)]
pub struct Stamps(std::collections::HashMap<String, crate::system::Stamp>);

impl Stamps {
    /// True when `path`'s current stamp is known and equals the recorded one.
    fn unchanged(&self, sys: &dyn System, path: &str) -> bool {
        self.0
            .get(path)
            .is_some_and(|old| sys.stamp(path).as_ref() == Some(old))
    }
}

/// What [`discover`] found: the module and its packages with their files (file inputs already created).
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// The main module's path.
    pub module: String,
    /// The main module's root directory.
    pub root: String,
    /// Packages in [`Workspace`] order.
    pub packages: Vec<DiscoveredPackage>,
}

/// A package [`discover`] found.
#[derive(Debug, Clone)]
pub struct DiscoveredPackage {
    /// Import path.
    pub path: String,
    /// Package name (the files' majority package clause).
    pub name: String,
    /// Directory.
    pub dir: String,
    /// Its non-test Go files whose package clause is the majority's, sorted by path.
    pub files: Vec<SourceFile>,
    /// Under the build path.
    pub target: bool,
}

/// A type's identity: (import path, name).
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct TypeKey {
    /// Import path of the declaring package.
    pub pkg: String,
    /// Type name.
    pub name: String,
}

impl std::fmt::Display for TypeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.pkg, self.name)
    }
}

/// A package's `+k8s:validation-gen-input=<pkg>` (upstream `apidefinitions` `ExternalTypes`): the package whose
/// types its `+k8s:validation-gen` criteria select and whose validation it holds — k8s.io/kubernetes'
/// `pkg/apis/<group>/<version>` name `k8s.io/api/<group>/<version>`. Read from `doc.go`, as gengo reads package tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputTag {
    /// The input package's import path, as written (trimmed).
    pub input: String,
    /// The `doc.go` holding the tag.
    pub file: SourceFile,
    /// The tag's span id in that file.
    pub at: vgc_ir::model::SpanId,
}

/// The `+k8s:validation-gen-input` of the package made of `files` (the first use in its `doc.go`), `None` without
/// one or with an empty value.
#[must_use]
pub fn validation_gen_input(db: &dyn Db, files: &[SourceFile]) -> Option<InputTag> {
    use vgc_ir::catalog::ControlTag;
    files
        .iter()
        .filter(|f| f.path(db).ends_with("/doc.go"))
        .find_map(|f| {
            let ir = vgc_ir::db::file_ir(db, *f);
            let u = ir
                .package_tags
                .iter()
                .find(|u| u.control_tag() == Some(ControlTag::ValidationGenInput))?;
            let input = u.raw_value.as_deref().unwrap_or_default().trim();
            (!input.is_empty()).then(|| InputTag {
                input: input.to_string(),
                file: *f,
                at: u.at,
            })
        })
}

fn is_go_source(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e == "go")
        && !name.ends_with("_test.go")
        && !name.starts_with(['_', '.'])
}

fn skip_dir(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_') || name == "testdata" || name == "vendor"
}

/// Loads the module containing `path` (an absolute module root, package directory inside one — the packages in
/// and below it are targets — or `.go` file — its package is the only target) into `db`: discovers
/// its packages ([`discover`]), creates or updates the [`Workspace`] input ([`sync`]) and returns the derived
/// [`Program`] with the discovery diagnostics. Calling it again on the same database after files changed reuses
/// every unchanged file and package input, so only queries over what changed re-run.
///
/// # Errors
/// Fatal problems (no `go.mod` found, unreadable build path) as diagnostics. Missing modules and unreadable files
/// are returned in the diagnostics list alongside the program.
pub fn load<D: Db>(
    db: &mut D,
    sys: &dyn System,
    path: &str,
    stamps: &mut Stamps,
) -> Result<(Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    load_selected(db, sys, path, &[], stamps)
}

/// [`load`] with the target packages narrowed to `only` ([`discover_selected`]): validation-gen's command line
/// names its input packages one by one, and the packages between them are not targets (they may still be loaded
/// read-only, when a target's types refer to them).
///
/// # Errors
/// As [`load`].
pub fn load_selected<D: Db>(
    db: &mut D,
    sys: &dyn System,
    path: &str,
    only: &[String],
    stamps: &mut Stamps,
) -> Result<(Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    refresh(db, sys, stamps);
    let (found, diags) = discover_selected(&*db, sys, path, only, stamps)?;
    sync(db, found);
    Ok((loaded_program(&*db).clone(), diags))
}

/// Re-reads every file of the database's current [`Workspace`] and sets the text of those that changed on disk,
/// so an edited file keeps its input (and its dependents see a text change, not a new file). Files that can no
/// longer be read are left alone: discovery does not list them any more.
pub fn refresh<D: Db>(db: &mut D, sys: &dyn System, stamps: &mut Stamps) {
    use salsa::Setter as _;
    let changed: Vec<(SourceFile, String)> = known_files(&*db)
        .into_values()
        .filter_map(|f| {
            let path = f.path(&*db);
            if stamps.unchanged(sys, path) {
                return None;
            }
            let stamp = sys.settled_stamp(path);
            let text = sys.read_file(path).ok()?;
            if let Some(st) = stamp {
                stamps.0.insert(path.clone(), st);
            }
            (**f.text(&*db) != *text).then_some((f, text))
        })
        .collect();
    for (f, text) in changed {
        f.set_text(db).to(Arc::new(text));
    }
}

/// Applies edits of files the database already knows, without discovery: for each of `paths` (all must be files
/// of the current [`Workspace`] that can still be read), sets the new text. Returns `true` when the workspace's
/// shape cannot have changed — every path was a known file that its build constraints still keep in its package,
/// and each edited file still has the same package clause and refers to the same imports from its type
/// expressions — so the existing [`loaded_program`] (and the
/// discovery diagnostics of the last full load) still hold. Returns `false` when a full [`load`] is needed (a new,
/// removed or unreadable file, or a changed package clause or referenced import); texts already set are then simply
/// reused by it.
pub fn apply_edits<D: Db>(
    db: &mut D,
    sys: &dyn System,
    paths: &[String],
    stamps: &mut Stamps,
) -> bool {
    use salsa::Setter as _;
    let mut edits = Vec::new();
    for p in paths {
        let Some(f) = known_file(&*db, p) else {
            return false;
        };
        let stamp = sys.settled_stamp(p);
        let Ok(text) = sys.read_file(p) else {
            return false;
        };
        // A file its new `//go:build` line leaves out of the package (`ignore`): discovery drops it.
        let name = p.rsplit('/').next().unwrap_or(p);
        if !crate::buildtags::file_matches(name, &text) {
            return false;
        }
        if **f.text(&*db) != *text {
            edits.push((f, text, stamp, file_shape(&*db, f)));
        } else if let Some(st) = stamp {
            stamps.0.insert(p.clone(), st);
        }
    }
    let mut same_shape = true;
    let mut applied = Vec::new();
    for (f, text, stamp, shape) in edits {
        f.set_text(db).to(Arc::new(text));
        same_shape &= file_shape(&*db, f) == shape;
        applied.push((f, stamp));
    }
    if !same_shape {
        // The inputs already hold the new texts; the full load reuses them.
        return false;
    }
    for (f, stamp) in applied {
        if let Some(st) = stamp {
            stamps.0.insert(f.path(&*db).clone(), st);
        }
    }
    true
}

/// What an edit of a known file must keep for discovery to be skipped: the package clause, the imports its
/// types refer to and its `+k8s:validation-gen-input` (the package an activation loads).
fn file_shape(db: &dyn Db, f: SourceFile) -> (String, Vec<String>) {
    (
        vgc_ir::db::file_ir(db, f).package.clone(),
        referenced_imports(db, &[f])
            .into_iter()
            .map(|(i, _)| i)
            .chain(validation_gen_input(db, &[f]).map(|t| t.input))
            .collect(),
    )
}

/// The file input of the database's current [`Workspace`] at `path`, if any: a scan without allocation (an edit
/// touches one or two files; building the whole path map would cost more than the scans).
fn known_file(db: &dyn Db, path: &str) -> Option<SourceFile> {
    let ws = Workspace::try_get(db)?;
    ws.packages(db)
        .iter()
        .flat_map(|p| p.input.files(db).iter())
        .find(|f| f.path(db) == path)
        .copied()
}

/// The file inputs of the database's current [`Workspace`] by path (empty before the first [`sync`]).
fn known_files(db: &dyn Db) -> std::collections::HashMap<String, SourceFile> {
    let Some(ws) = Workspace::try_get(db) else {
        return std::collections::HashMap::new();
    };
    ws.packages(db)
        .iter()
        .flat_map(|p| p.input.files(db).iter())
        .map(|f| (f.path(db).clone(), *f))
        .collect()
}

/// Discovers the module containing `path` (absolute; the nearest `go.mod` among its `ancestors()` is the main
/// module): target packages are the directories under `path` holding non-test `.go` files, or, when `path` is a
/// `.go` file, its directory alone; every import referenced by a type expression is loaded read-only, transitively, through
/// `go.mod`, `vendor/` and the module cache. A file whose path and text equal a file of the database's current
/// [`Workspace`] keeps that input (so its parse and IR are reused); others get new inputs.
///
/// # Errors
/// Fatal problems (no `go.mod` found, unreadable build path) as diagnostics. Missing modules and unreadable files
/// are returned in the diagnostics list alongside the result.
pub fn discover(
    db: &dyn Db,
    sys: &dyn System,
    path: &str,
    stamps: &mut Stamps,
) -> Result<(Discovered, Vec<Diagnostic>), Vec<Diagnostic>> {
    discover_selected(db, sys, path, &[], stamps)
}

/// Whether the package directory `dir` is one of `only` (absolute directories, `/`-separated; `DIR/...` selects
/// `DIR` and every directory below it); an empty `only` selects every directory.
fn selected(dir: &str, only: &[String]) -> bool {
    only.is_empty()
        || only.iter().any(|o| match o.strip_suffix("/...") {
            Some(base) => {
                let base = base.trim_end_matches('/');
                dir == base || dir.strip_prefix(base).is_some_and(|r| r.starts_with('/'))
            }
            None => dir == o.trim_end_matches('/'),
        })
}

/// [`discover`] with the target packages narrowed to the directories under `path` that `only` selects (absolute
/// directories; `DIR/...` for `DIR` and below; empty: all of them).
///
/// # Errors
/// As [`discover`].
pub fn discover_selected(
    db: &dyn Db,
    sys: &dyn System,
    path: &str,
    only: &[String],
    stamps: &mut Stamps,
) -> Result<(Discovered, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut known = known_files(db);
    let given = path;
    let trimmed = path.trim_end_matches('/');
    let path = if trimmed.is_empty() { "/" } else { trimmed };
    // A `.go` file selects its own package only; a directory, the packages in and below it.
    let (path, single) = if !sys.is_dir(path)
        && std::path::Path::new(path)
            .extension()
            .is_some_and(|e| e == "go")
        && sys.read_file(path).is_ok()
    {
        let dir = std::path::Path::new(path)
            .parent()
            .and_then(std::path::Path::to_str)
            .unwrap_or("/");
        (dir.to_string(), true)
    } else {
        (path.to_string(), false)
    };
    if !sys.is_dir(&path) {
        return Err(vec![
            Diagnostic::error(
                Code::Io,
                format!("{given}: not a directory or not readable"),
            )
            .with_hint("pass a Go module root, a package directory or a .go file"),
        ]);
    }
    // The nearest `go.mod` in the path's ancestors (the path is absolute when it comes from the command line).
    let found_mod = std::path::Path::new(&path).ancestors().find_map(|d| {
        let d = d.to_str().filter(|d| !d.is_empty())?;
        let file = if d.ends_with('/') {
            format!("{d}go.mod")
        } else {
            format!("{d}/go.mod")
        };
        sys.read_file(&file).ok().map(|t| (d.to_string(), t))
    });
    let Some((root, gomod_text)) = found_mod else {
        return Err(vec![
            Diagnostic::error(
                Code::Io,
                format!("{given}: no go.mod found in it or any parent"),
            )
            .with_hint("vgc builds Go modules; run it on a directory inside one"),
        ]);
    };
    let gomod = parse_go_mod(&gomod_text);
    let mut found: IndexMap<String, DiscoveredPackage> = IndexMap::new();
    let mut diags = Vec::new();
    // Target packages: (directory, import path).
    let mut dirs = Vec::new();
    if single {
        dirs.push(path.clone());
    } else {
        collect_dirs(sys, &path, &mut dirs, &mut diags);
        dirs.retain(|d| selected(d, only));
    }
    let mut imports: Vec<String> = dirs
        .iter()
        .map(|dir| {
            let rel = dir
                .strip_prefix(&root)
                .unwrap_or("")
                .trim_start_matches('/');
            if rel.is_empty() {
                gomod.module.clone()
            } else {
                format!("{}/{rel}", gomod.module)
            }
        })
        .collect();
    if !single {
        for (dir, import) in replaced_targets(sys, (&root, &gomod), only, &mut diags) {
            if !dirs.contains(&dir) {
                dirs.push(dir);
                imports.push(import);
            }
        }
    }
    // Read every target package's files first, then parse them all at once (in parallel where the database
    // can), then index each package.
    let read: Vec<(String, Vec<SourceFile>)> = dirs
        .iter()
        .cloned()
        .zip(read_packages(db, sys, &dirs, &known, stamps, &mut diags))
        .filter_map(|(d, fs)| Some((d, fs?)))
        .collect();
    let mut all: Vec<SourceFile> = read.iter().flat_map(|(_, fs)| fs.iter().copied()).collect();
    // A cold load also parses, in the same parallel batch, the packages the waves below will most likely read.
    if known.is_empty() {
        let guessed = guess_imported(db, sys, (&root, &gomod), &dirs, &all, stamps);
        all.extend(guessed.values().copied());
        known.extend(guessed);
    }
    db.prefetch_ir(&all);
    for (dir, files) in read {
        let import = dirs
            .iter()
            .position(|d| *d == dir)
            .map(|i| imports[i].clone())
            .unwrap_or_default();
        if let Some(p) = majority_files(db, files, &dir, &import, true, &mut diags) {
            found.insert(import, p);
        }
    }
    // The activation packages' input packages (`+k8s:validation-gen-input`): loaded read-only with the first wave
    // (unless they are targets themselves), each one that cannot be a located error at its tag.
    let activations: Vec<(String, InputTag)> = found
        .values()
        .filter_map(|p| Some((p.path.clone(), validation_gen_input(db, &p.files)?)))
        .filter(|(pkg, t)| *pkg != t.input)
        .collect();
    // Read-only packages referenced by type expressions, transitively, one wave at a time: the packages the
    // last wave's packages import are read together and parsed in one parallel batch (one package at a time,
    // parsing would use one core; k8s.io/apimachinery's meta/v1 alone is a tenth of what a k8s.io/api build
    // parses). Packages are added in the order a one-at-a-time breadth-first walk adds them.
    let mut i = 0;
    let mut missing_reported = std::collections::BTreeSet::new();
    while i < found.len() {
        let wave_end = found.len();
        let mut queued: IndexMap<String, String> = IndexMap::new();
        if i == 0 {
            for (_, t) in &activations {
                queue_activation(db, t, &found, &mut queued, (sys, &root, &gomod), &mut diags);
            }
        }
        for w in i..wave_end {
            let imports = referenced_imports(db, &found[w].files);
            queue_imports(
                imports,
                found[w].target,
                &found,
                &mut queued,
                (sys, &root, &gomod),
                &mut missing_reported,
                &mut diags,
            );
        }
        let (imports, dirs): (Vec<String>, Vec<String>) = queued.into_iter().unzip();
        let files = read_packages(db, sys, &dirs, &known, stamps, &mut diags);
        let read: Vec<(String, String, Vec<SourceFile>)> = imports
            .into_iter()
            .zip(dirs)
            .zip(files)
            .filter_map(|((import, d), fs)| Some((import, d, fs?)))
            .collect();
        let all: Vec<SourceFile> = read
            .iter()
            .flat_map(|(_, _, fs)| fs.iter().copied())
            .collect();
        db.prefetch_ir(&all);
        for (import, d, fs) in read {
            if let Some(p) = majority_files(db, fs, &d, &import, false, &mut diags) {
                found.insert(import, p);
            }
        }
        i = wave_end;
    }
    for (pkg, t) in &activations {
        if found.contains_key(&t.input) {
            continue;
        }
        if let Resolved::Dir(d) = resolve_import(sys, &root, &gomod, &t.input) {
            diags.push(
                Diagnostic::error(
                    Code::Unresolved,
                    format!(
                        "package {pkg} validates the types of {} (`+k8s:validation-gen-input`), which has no Go package at {d}",
                        t.input
                    ),
                )
                .at(t.file.path(db).clone(), vgc_ir::db::span_of(db, t.file, t.at))
                .with_hint("name the package that declares the types, as its import path"),
            );
        }
    }
    let _: &GoMod = &gomod;
    Ok((
        Discovered {
            module: gomod.module.clone(),
            root,
            packages: found.into_values().collect(),
        },
        diags,
    ))
}

/// The files of the packages the first read-only wave of [`discover`] will most likely read, by path: the textual
/// imports ([`vgc_parser::go::import_paths`]) of every file of `files` (the target packages' files, in the
/// directories `targets`) that may declare something ([`vgc_parser::go::may_declare`]), resolved as the waves
/// resolve them. Only a guess, to parse those packages in one parallel batch with the targets (on k8s.io/api the
/// first wave is k8s.io/apimachinery's meta/v1, runtime, types, intstr and resource, four fifths of what the waves
/// parse, and the guess adds two packages the second wave reads or nothing reads): the waves still decide from
/// each file's IR what they read, and take a guessed file from here instead of reading it again. One level only:
/// the transitive closure of textual imports reaches far more than types do (golang.org/x/net, x/text's tables).
/// A read error is left for the wave to report.
fn guess_imported(
    db: &dyn Db,
    sys: &dyn System,
    (root, gomod): (&str, &GoMod),
    targets: &[String],
    files: &[SourceFile],
    stamps: &mut Stamps,
) -> std::collections::HashMap<String, SourceFile> {
    let prefix = vgc_ir::db::tag_prefix(db);
    let texts: Vec<Arc<String>> = files.iter().map(|f| f.text(db).clone()).collect();
    let imports: Vec<Vec<String>> = texts
        .par_iter()
        .map(|t| {
            if vgc_parser::go::may_declare(t, prefix.as_str()) {
                vgc_parser::go::import_paths(t)
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut seen: std::collections::HashSet<String> = targets.iter().cloned().collect();
    let mut dirs = Vec::new();
    for import in imports.into_iter().flatten() {
        if let Resolved::Dir(d) = resolve_import(sys, root, gomod, &import)
            && seen.insert(d.clone())
        {
            dirs.push(d);
        }
    }
    let none = std::collections::HashMap::new();
    read_packages(db, sys, &dirs, &none, stamps, &mut Vec::new())
        .into_iter()
        .flatten()
        .flatten()
        .map(|f| (f.path(db).clone(), f))
        .collect()
}

/// Queues the input package of an activation (`t`, a target package's `+k8s:validation-gen-input`) for the first
/// read-only wave unless it is loaded or queued already; an input that does not resolve is an error at the tag
/// (the activation would select no type at all).
fn queue_activation(
    db: &dyn Db,
    t: &InputTag,
    found: &IndexMap<String, DiscoveredPackage>,
    queued: &mut IndexMap<String, String>,
    (sys, root, gomod): (&dyn System, &str, &GoMod),
    diags: &mut Vec<Diagnostic>,
) {
    if found.contains_key(&t.input) || queued.contains_key(&t.input) {
        return;
    }
    let (code, message, hint) = match resolve_import(sys, root, gomod, &t.input) {
        Resolved::Dir(d) => {
            queued.insert(t.input.clone(), d);
            return;
        }
        Resolved::Std => (
            Code::Unresolved,
            format!("the input package {} (`+k8s:validation-gen-input`) is a standard library package", t.input),
            "name the package that declares the API types".to_string(),
        ),
        Resolved::Missing(m, v) => (
            Code::MissingModule,
            format!(
                "module {m}@{v} (holding {}, the input package of this activation) is not in the module cache or vendor/",
                t.input
            ),
            format!("run `go mod download {m}` in the module root, or set GOMODCACHE"),
        ),
        Resolved::Unknown => (
            Code::Unresolved,
            format!(
                "no module in go.mod provides {}, the input package of this activation (`+k8s:validation-gen-input`)",
                t.input
            ),
            "require its module in go.mod (k8s.io/kubernetes reaches its staging modules with `replace k8s.io/api => ./staging/src/k8s.io/api`)".to_string(),
        ),
    };
    diags.push(
        Diagnostic::error(code, message)
            .at(
                t.file.path(db).clone(),
                vgc_ir::db::span_of(db, t.file, t.at),
            )
            .with_hint(hint),
    );
}

/// The target package directories `only` names inside Go modules that the main module (`root`, `gomod`)
/// `replace`s with a local directory (k8s.io/kubernetes' `staging/src/k8s.io/*`), with their import paths (the
/// replaced module's path and the directory below it): Go's `./...` leaves such a module out, and so does a
/// build of a directory, but naming its packages (validation-gen's input packages) makes them targets. A name in
/// a nested module the main module does not replace with it selects nothing.
fn replaced_targets(
    sys: &dyn System,
    (root, gomod): (&str, &GoMod),
    only: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let within =
        |d: &str, base: &str| d == base || d.strip_prefix(base).is_some_and(|r| r.starts_with('/'));
    let modules: Vec<(&str, String)> = gomod
        .replace
        .iter()
        .filter(|(_, new, _)| new.starts_with('.') || new.starts_with('/'))
        .map(|(old, _, _)| {
            let dir = match resolve_import(sys, root, gomod, old) {
                Resolved::Dir(d) => d,
                _ => String::new(),
            };
            (old.as_str(), dir)
        })
        .filter(|(_, dir)| !dir.is_empty() && dir != root && within(dir, root))
        .collect();
    let mut out = Vec::new();
    for o in only {
        let (base, recursive) = match o.strip_suffix("/...") {
            Some(b) => (b.trim_end_matches('/'), true),
            None => (o.trim_end_matches('/'), false),
        };
        let Some((module, mdir)) = modules
            .iter()
            .filter(|(_, d)| within(base, d))
            .max_by_key(|(_, d)| d.len())
        else {
            continue;
        };
        let mut dirs = Vec::new();
        if recursive {
            collect_dirs(sys, base, &mut dirs, diags);
        } else {
            dirs.push(base.to_string());
        }
        for d in dirs {
            let rel = d[mdir.len()..].trim_start_matches('/');
            let import = if rel.is_empty() {
                (*module).to_string()
            } else {
                format!("{module}/{rel}")
            };
            out.push((d, import));
        }
    }
    out
}

/// Queues, in order, the imports of one loaded package that are neither loaded nor queued yet and resolve to a
/// directory (`queued`: import path → directory), reporting those that do not resolve as the one-at-a-time walk
/// did: a missing module once per module, an import no module provides at its use; read-only packages' imports
/// that do not resolve are ignored (only a reachable type's use of them matters, which lowering reports).
fn queue_imports(
    imports: Vec<(String, (String, std::ops::Range<usize>))>,
    importer_is_target: bool,
    found: &IndexMap<String, DiscoveredPackage>,
    queued: &mut IndexMap<String, String>,
    (sys, root, gomod): (&dyn System, &str, &GoMod),
    missing_reported: &mut std::collections::BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    for (import, at) in imports {
        if found.contains_key(&import) || queued.contains_key(&import) {
            continue;
        }
        match resolve_import(sys, root, gomod, &import) {
            Resolved::Dir(d) => {
                queued.insert(import, d);
            }
            Resolved::Std => {}
            // Read-only packages import far more than their API types need; an unresolvable import there
            // matters only if a reachable type uses it, which lowering reports as an unresolved field type.
            Resolved::Missing(..) | Resolved::Unknown if !importer_is_target => {}
            Resolved::Missing(m, v) => {
                if missing_reported.insert(m.clone()) {
                    let (file, span) = at;
                    diags.push(
                            Diagnostic::error(Code::MissingModule, format!("module {m}@{v} (needed for {import}) is not in the module cache or vendor/"))
                                .at(file, span)
                                .with_hint(format!("run `go mod download {m}` in the module root, or set GOMODCACHE")),
                        );
                }
            }
            Resolved::Unknown => {
                let (file, span) = at;
                diags.push(
                    Diagnostic::error(
                        Code::Unresolved,
                        format!("no module in go.mod provides package {import}"),
                    )
                    .at(file, span)
                    .with_hint(
                        "add the module to go.mod (`go get`) or mark the field `+k8s:opaqueType`",
                    ),
                );
            }
        }
    }
}

/// Makes the database's [`Workspace`] describe `found`, creating it on first use. A package input whose files
/// and target flag are unchanged is kept as it is, and nothing is set when nothing differs, so an unchanged tree
/// starts no new salsa revision and every query result stays valid.
pub fn sync<D: Db>(db: &mut D, found: Discovered) -> Workspace {
    use salsa::Setter as _;
    let previous: std::collections::HashMap<String, vgc_ir::Package> = Workspace::try_get(&*db)
        .map(|ws| {
            ws.packages(&*db)
                .iter()
                .map(|p| (p.path.clone(), p.input))
                .collect()
        })
        .unwrap_or_default();
    let mut entries = Vec::with_capacity(found.packages.len());
    for p in found.packages {
        let input = match previous.get(&p.path) {
            Some(&input) => {
                if *input.files(&*db) != p.files {
                    input.set_files(db).to(p.files);
                }
                if *input.target(&*db) != p.target {
                    input.set_target(db).to(p.target);
                }
                input
            }
            None => vgc_ir::Package::new(&*db, p.path.clone(), p.files, p.target),
        };
        entries.push(PackageEntry {
            path: p.path,
            name: p.name,
            dir: p.dir,
            input,
        });
    }
    match Workspace::try_get(&*db) {
        None => Workspace::new(&*db, found.module, found.root, entries),
        Some(ws) => {
            if *ws.module(&*db) != found.module {
                ws.set_module(db).to(found.module);
            }
            if *ws.root(&*db) != found.root {
                ws.set_root(db).to(found.root);
            }
            if *ws.packages(&*db) != entries {
                ws.set_packages(db).to(entries);
            }
            ws
        }
    }
}

/// The [`Program`] of the database's [`Workspace`] (empty before the first [`sync`]): each package's files and
/// an index of its declared types. Position-free, so it is backdated when only comments or layout change.
#[salsa::tracked(returns(ref))]
pub fn loaded_program(db: &dyn Db) -> Program {
    let Some(ws) = Workspace::try_get(db) else {
        return Program::default();
    };
    let mut packages = IndexMap::new();
    for e in ws.packages(db) {
        let files = e.input.files(db).clone();
        let mut types = IndexMap::new();
        for (fi, f) in files.iter().enumerate() {
            for (ti, name) in vgc_ir::db::declared_types(db, *f).iter().enumerate() {
                types.entry(name.clone()).or_insert((fi, ti));
            }
        }
        packages.insert(
            e.path.clone(),
            Package {
                path: e.path.clone(),
                name: e.name.clone(),
                dir: e.dir.clone(),
                files,
                target: *e.input.target(db),
                types,
                input: e.input,
            },
        );
    }
    Program {
        module: ws.module(db).clone(),
        root: ws.root(db).clone(),
        packages,
    }
}

/// The directories under `dir` (itself included) that hold Go sources. A directory that cannot be listed is an
/// error (R8: an unlistable module root must not look like an empty, clean module). A subdirectory with a `go.mod`
/// of its own is another module and is left out with everything below it, as Go's `./...` leaves it out (R41).
fn collect_dirs(sys: &dyn System, dir: &str, out: &mut Vec<String>, diags: &mut Vec<Diagnostic>) {
    collect_dirs_below(sys, dir, true, out, diags);
}

fn collect_dirs_below(
    sys: &dyn System,
    dir: &str,
    top: bool,
    out: &mut Vec<String>,
    diags: &mut Vec<Diagnostic>,
) {
    let entries = match sys.read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(
                Diagnostic::error(Code::Io, format!("{dir}: cannot read directory: {e}"))
                    .with_hint("vgc must list every directory of the packages it builds"),
            );
            return;
        }
    };
    if !top && entries.iter().any(|(n, d)| !d && n == "go.mod") {
        return;
    }
    if entries.iter().any(|(n, d)| !d && is_go_source(n)) {
        out.push(dir.to_string());
    }
    for (n, is_dir) in entries {
        if is_dir && !skip_dir(&n) {
            collect_dirs_below(sys, &format!("{dir}/{n}"), false, out, diags);
        }
    }
}

/// A file's stamp taken just before reading it, and the read's result.
type FileRead = (Option<Stamp>, Result<String, String>);

/// Reads the non-test `.go` files of package directories `dirs` into `SourceFile` inputs: one entry per directory,
/// in the order given (files sorted by name, as `read_dir` returns them), `None` for a directory that cannot be
/// listed (reported). The directories are listed first, then every
/// file of all of them is read in one parallel batch (k8s.io/api: ~500 files in ~60 directories, a few per
/// directory, so reading directory by directory left the cores idle). A known file whose stamp is unchanged is
/// not read at all. An unreadable file is reported and left out of its package.
fn read_packages(
    db: &dyn Db,
    sys: &dyn System,
    dirs: &[String],
    known: &std::collections::HashMap<String, SourceFile>,
    stamps: &mut Stamps,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Option<Vec<SourceFile>>> {
    let listed: Vec<Option<Vec<String>>> = dirs
        .iter()
        .map(|dir| match sys.read_dir(dir) {
            Ok(entries) => Some(
                entries
                    .into_iter()
                    .filter(|(n, is_dir)| !is_dir && is_go_source(n))
                    .map(|(n, _)| format!("{dir}/{n}"))
                    .collect(),
            ),
            Err(e) => {
                diags.push(Diagnostic::error(
                    Code::Io,
                    format!("{dir}: cannot read directory: {e}"),
                ));
                None
            }
        })
        .collect();
    let paths: Vec<&String> = listed.iter().flatten().flatten().collect();
    let stamps_now = &*stamps;
    let reads: Vec<Option<FileRead>> = paths
        .par_iter()
        .map(|p| {
            if known.contains_key(*p) && stamps_now.unchanged(sys, p) {
                return None;
            }
            let stamp = sys.settled_stamp(p);
            Some((stamp, sys.read_file(p)))
        })
        .collect();
    let mut reads = reads.into_iter();
    let mut out = Vec::with_capacity(listed.len());
    for paths in listed {
        let Some(paths) = paths else {
            out.push(None);
            continue;
        };
        let mut files = Vec::with_capacity(paths.len());
        for (p, read) in paths.into_iter().zip(reads.by_ref()) {
            match read {
                None => files.extend(known.get(&p).copied()),
                Some((stamp, Ok(text))) => {
                    if let Some(st) = stamp {
                        stamps.0.insert(p.clone(), st);
                    }
                    files.push(match known.get(&p) {
                        Some(&f) if **f.text(db) == *text => f,
                        _ => SourceFile::new(db, p, Arc::new(text)),
                    });
                }
                Some((_, Err(e))) => diags.push(
                    Diagnostic::error(Code::Io, format!("{p}: cannot read file: {e}"))
                        .with_hint("vgc reads regular UTF-8 files of at most 32 MiB it may open"),
                ),
            }
        }
        out.push(Some(files));
    }
    out
}

/// Keeps the files `go/build` would build ([`crate::buildtags`]: `//go:build` lines such as `ignore`, and
/// `_GOOS`/`_GOARCH` name suffixes) whose package clause is the majority's. In a target package, a remaining file
/// with another package clause is an error, as Go's "found packages a and b" (R26); read-only packages keep the
/// majority silently. A file without a package clause is kept (its syntax error is reported with the package's
/// files). `None` when no file remains.
fn majority_files(
    db: &dyn Db,
    files: Vec<SourceFile>,
    dir: &str,
    import: &str,
    target: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<DiscoveredPackage> {
    let files: Vec<SourceFile> = files
        .into_iter()
        .filter(|f| {
            let path = f.path(db);
            let name = path.rsplit('/').next().unwrap_or(path);
            crate::buildtags::file_matches(name, f.text(db))
        })
        .collect();
    let irs: Vec<&FileIr> = files.iter().map(|f| vgc_ir::db::file_ir(db, *f)).collect();
    let name = majority_name(&irs);
    if target {
        for (f, ir) in files.iter().zip(&irs) {
            if ir.package != name && !ir.package.is_empty() {
                let text = f.text(db);
                let at = text.find(&format!("package {}", ir.package)).unwrap_or(0);
                diags.push(
                    Diagnostic::error(
                        Code::InvalidGo,
                        format!(
                            "found packages {name} and {} in {dir}; Go refuses a directory with two package clauses",
                            ir.package
                        ),
                    )
                    .at(f.path(db).clone(), at..at + 8 + ir.package.len())
                    .with_hint("use one package name per directory, or exclude the file with `//go:build ignore`"),
                );
            }
        }
    }
    // A file with no package clause (misspelt, missing: its VGC0001 says so) stays with the directory's package, so
    // that its diagnostics are reported rather than the file dropped without a word.
    let keep: Vec<SourceFile> = files
        .iter()
        .zip(&irs)
        .filter(|(_, ir)| ir.package == name || ir.package.is_empty())
        .map(|(f, _)| *f)
        .collect();
    if keep.is_empty() {
        return None;
    }
    Some(DiscoveredPackage {
        path: import.to_string(),
        name,
        dir: dir.to_string(),
        files: keep,
        target,
    })
}

fn majority_name(irs: &[&FileIr]) -> String {
    let mut counts: IndexMap<&str, usize> = IndexMap::new();
    for ir in irs {
        if !ir.package.is_empty() && ir.package != "main" {
            *counts.entry(ir.package.as_str()).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, c)| *c)
        .map(|(n, _)| n.to_string())
        .unwrap_or_default()
}

/// Imports used by type expressions of the package's struct fields and type definitions, with one place that
/// uses each (for diagnostics).
fn referenced_imports(
    db: &dyn Db,
    files: &[SourceFile],
) -> Vec<(String, (String, std::ops::Range<usize>))> {
    let mut out: IndexMap<String, (String, std::ops::Range<usize>)> = IndexMap::new();
    for f in files {
        let ir = vgc_ir::db::file_ir(db, *f);
        let mut visit = |e: &TypeExpr, at| {
            let mut quals = Vec::new();
            qualifiers(e, &mut quals);
            for q in quals {
                if let Some(path) = import_for(ir, &q) {
                    out.entry(path)
                        .or_insert_with(|| (f.path(db).clone(), vgc_ir::db::span_of(db, *f, at)));
                }
            }
        };
        for t in &ir.types {
            visit(&t.ty, t.at);
            for fl in &t.fields {
                visit(&fl.ty, fl.at);
            }
        }
    }
    out.into_iter().collect()
}

fn qualifiers(e: &TypeExpr, out: &mut Vec<String>) {
    match e {
        TypeExpr::Named {
            pkg: Some(p), args, ..
        } => {
            out.push(p.clone());
            args.iter().for_each(|a| qualifiers(a, out));
        }
        TypeExpr::Named { args, .. } => args.iter().for_each(|a| qualifiers(a, out)),
        TypeExpr::Pointer(i) | TypeExpr::Slice(i) | TypeExpr::Array { elem: i, .. } => {
            qualifiers(i, out)
        }
        TypeExpr::Map(k, v) => {
            qualifiers(k, out);
            qualifiers(v, out);
        }
        TypeExpr::Struct(fs) => fs.iter().for_each(|f| qualifiers(&f.ty, out)),
        TypeExpr::Other(_) => {}
    }
}

/// The import path a qualifier refers to in a file: an explicit alias, or the import whose last path element
/// (ignoring a `/vN` major-version suffix) equals the qualifier.
#[must_use]
pub fn import_for(ir: &FileIr, qual: &str) -> Option<String> {
    for (alias, path) in &ir.imports {
        match alias {
            Some(a) if a == qual => return Some(path.clone()),
            Some(_) => {}
            None => {
                let mut segs = path.rsplit('/');
                let last = segs.next().unwrap_or("");
                let guess = if last.len() > 1
                    && last.starts_with('v')
                    && last[1..].bytes().all(|b| b.is_ascii_digit())
                {
                    segs.next().unwrap_or(last)
                } else {
                    last
                };
                if guess == qual || guess.replace(['-', '.'], "_") == qual || last == qual {
                    return Some(path.clone());
                }
            }
        }
    }
    None
}

impl Program {
    /// Looks a type declaration up: its IR and the file that declares it.
    #[must_use]
    pub fn type_decl<'a>(&self, db: &'a dyn Db, key: &TypeKey) -> Option<(&'a TypeIr, SourceFile)> {
        let p = self.packages.get(&key.pkg)?;
        let (fi, ti) = *p.types.get(&key.name)?;
        let f = *p.files.get(fi)?;
        vgc_ir::db::file_ir(db, f).types.get(ti).map(|t| (t, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::MemorySystem;

    #[test]
    fn a_selection_names_directories_or_trees() {
        let only = ["/m/a".to_string(), "/m/b/...".to_string()];
        assert!(selected("/m/a", &only));
        assert!(!selected("/m/a/v1", &only), "a directory alone");
        assert!(selected("/m/b", &only) && selected("/m/b/v1", &only));
        assert!(!selected("/m/bb", &only), "a sibling with the same prefix");
        assert!(selected("/m/anything", &[]));
    }

    /// A file system whose directory `unlistable` cannot be listed (a mode-311 directory for a non-root user).
    struct Unlistable(MemorySystem, &'static str);

    impl System for Unlistable {
        fn read_file(&self, path: &str) -> Result<String, String> {
            self.0.read_file(path)
        }
        fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
            if path == self.1 {
                Err("Permission denied (os error 13)".into())
            } else {
                self.0.read_dir(path)
            }
        }
        fn is_dir(&self, path: &str) -> bool {
            self.0.is_dir(path)
        }
        fn module_cache(&self) -> Option<String> {
            None
        }
    }

    /// R8: a module root that cannot be listed is an error, not an empty module with 0 errors.
    #[test]
    fn r08_an_unlistable_directory_is_an_error() {
        let mut m = MemorySystem::default();
        m.files.insert("/m/go.mod".into(), "module m\n".into());
        m.files.insert("/m/a/t.go".into(), "package a\n".into());
        let sys = Unlistable(m, "/m");
        let (mut dirs, mut diags) = (Vec::new(), Vec::new());
        collect_dirs(&sys, "/m", &mut dirs, &mut diags);
        assert!(dirs.is_empty());
        let got: Vec<(Code, vgc_ir::Severity, &str)> = diags
            .iter()
            .map(|d| (d.code, d.severity, d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [(
                Code::Io,
                vgc_ir::Severity::Error,
                "/m: cannot read directory: Permission denied (os error 13)"
            )]
        );
    }

    /// R41: a subdirectory with its own `go.mod` is another module; Go's `./...` leaves it and everything below it
    /// out, and so does vgc. The top directory's own `go.mod` does not exclude it.
    #[test]
    fn r41_nested_modules_are_left_out() {
        let mut m = MemorySystem::default();
        m.files.insert("/m/go.mod".into(), "module m\n".into());
        m.files.insert("/m/a/t.go".into(), "package a\n".into());
        m.files
            .insert("/m/nested/go.mod".into(), "module n\n".into());
        m.files
            .insert("/m/nested/t.go".into(), "package nested\n".into());
        m.files
            .insert("/m/nested/b/t.go".into(), "package b\n".into());
        m.files
            .insert("/m/c/go.mod.txt".into(), "not a module\n".into());
        m.files.insert("/m/c/t.go".into(), "package c\n".into());
        let (mut dirs, mut diags) = (Vec::new(), Vec::new());
        collect_dirs(&m, "/m", &mut dirs, &mut diags);
        dirs.sort();
        assert_eq!(dirs, ["/m/a", "/m/c"]);
        assert!(diags.is_empty());
        let (mut dirs, mut diags) = (Vec::new(), Vec::new());
        collect_dirs(&m, "/m/nested", &mut dirs, &mut diags);
        dirs.sort();
        assert_eq!(dirs, ["/m/nested", "/m/nested/b"]);
    }
}
