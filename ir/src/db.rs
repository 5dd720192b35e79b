//! The salsa foundation: the [`Db`] trait, the per-file queries and the package and settings inputs (the
//! [`SourceFile`] input is `crate::source`'s, re-exported here).
//!
//! Firewall: [`file_ir`] is position-free (spans live in [`file_spans`]), so editing a comment's wording that
//! moves code but keeps tags and types equal re-runs only the span table and backdates the IR.

use crate::catalog::{Scope, TagIdent};
use crate::check::check_tag_use;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::FileIr;
use std::sync::Arc;
use vgc_parser::go::GoFile;

/// The database trait every vgc layer builds on.
#[salsa::db]
pub trait Db: salsa::Database {
    /// Runs `job(db, i)` for every `i` in `0..n`, in parallel where the concrete database can hand clones of
    /// itself to worker threads (the CLI's does, with rayon: one clone per job, only ever called from the top
    /// level, never inside a query). The default runs the jobs in order on the calling thread. Used to compute
    /// independent queries ahead of use (parsing files, generating modules); results are the same either way.
    fn par_each(&self, n: usize, job: &(dyn Fn(&dyn Db, usize) + Sync)) {
        for i in 0..n {
            job(self.as_dyn(), i);
        }
    }

    /// `self` as a trait object.
    fn as_dyn(&self) -> &dyn Db;

    /// The earlier parses [`parsed_go`] may reuse: `Some` in a live session (`vgc watch`, `vgc lsp`, the build
    /// server), whose databases share one [`ParseMemory`] across clones; `None` (the default) where a file is
    /// parsed once (one-shot builds), so nothing is kept for nothing.
    fn parse_memory(&self) -> Option<&ParseMemory> {
        None
    }

    /// Computes [`file_ir`] (and so [`parsed_go`]) for `files` ahead of use, through [`Db::par_each`], the
    /// longest texts first (parse time grows with the text, so a large file never starts last).
    fn prefetch_ir(&self, files: &[SourceFile]) {
        let mut order: Vec<(usize, SourceFile)> = files
            .iter()
            .map(|f| (f.text(self.as_dyn()).len(), *f))
            .collect();
        order.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        self.par_each(order.len(), &|db, i| {
            let _ = file_ir(db, order[i].1);
        });
    }
}

pub use crate::source::SourceFile;

pub use salsa_package::Package;

/// `Package` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_package {
    use super::*;

    /// A Go package: its import path, its non-test files and whether it is a build target (validation code is
    /// generated for its roots) or loaded read-only because target types reference it.
    #[salsa::input(debug)]
    pub struct Package {
        /// Import path.
        #[returns(ref)]
        pub import_path: String,
        /// Files, sorted by path.
        #[returns(ref)]
        pub files: Vec<SourceFile>,
        /// Under the build path.
        pub target: bool,
    }
}

pub use salsa_settings::Settings;

/// `Settings` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_settings {

    /// Build-wide settings (one per database).
    #[salsa::input(singleton, debug)]
    pub struct Settings {
        /// Root criteria added to every enabled target package (`--roots`: `*`, `TypesWithField=F`,
        /// `TypesWithSuffix=S`).
        #[returns(ref)]
        pub extra_roots: Vec<String>,
        /// The upstream profile in force (`--upstream`, `vgc.toml`, detected from `go.mod`, else the newest); read
        /// through [`crate::profile::upstream`].
        #[returns(copy)]
        pub upstream: crate::profile::Upstream,
        /// Project-defined formats (`--validation-extensions-file`, kubernetes#142116), in file order; read through
        /// [`crate::extensions::project_formats`]. A separate field, so only the lowering that reads it re-runs when an
        /// extensions file changes.
        #[returns(ref)]
        pub formats: std::sync::Arc<[crate::extensions::ProjectFormat]>,
        /// The tag prefix (`--tag-prefix`, `vgc.toml` `[upstream] tag-prefix`; kubernetes#141866): every file is parsed
        /// and read with it ([`parsed_go`], [`lowered`]) and it is part of the IR cache key ([`text_hash`]).
        #[returns(ref)]
        pub tag_prefix: crate::prefix::TagPrefix,
        /// vgc's opt-in extensions (`vgc.toml` `[extensions] enabled = true`; `docs/extensions.md`): KEP-5073 rules
        /// upstream validation-gen never built, such as field-path constraints. Read through
        /// [`crate::extension_tags::enabled`]; off by default.
        #[returns(copy)]
        pub vgc_extensions: bool,
    }
}

/// The tag prefix in force: the [`Settings`] singleton's, or the default (`k8s:`) when there is none.
#[must_use]
pub fn tag_prefix(db: &dyn Db) -> crate::prefix::TagPrefix {
    Settings::try_get(db).map_or_else(crate::prefix::TagPrefix::default, |s| {
        s.tag_prefix(db).clone()
    })
}

/// The Go syntax summary of a file (`vgc_parser::go::parse_for_tag_prefix` of its text under the tag prefix in
/// force). Never fails.
///
/// In a live session ([`Db::parse_memory`]) a file of at least [`ParseMemory::MIN_BYTES`] is parsed with
/// `vgc_parser::go::parse_reusing` and the previous parse of the same path: an edit that changed only `//` comment
/// bodies (a tag value, a doc line's wording) skips tree-sitter and the tree walk. The summary is the same either
/// way — a pure function of the text and the prefix, which `parse_reusing` guarantees whatever parse it is handed
/// (another text, an older one, another prefix) — so salsa's semantics are unchanged: the memory is a cache beside
/// the query, read by path, not an input.
#[salsa::tracked(returns(ref), no_eq, lru = 256)]
pub fn parsed_go(db: &dyn Db, file: SourceFile) -> GoFile {
    let text = file.text(db);
    let prefix = tag_prefix(db);
    if let Some(memory) = db.parse_memory()
        && text.len() >= ParseMemory::MIN_BYTES
    {
        let path = file.path(db);
        let previous = memory.get(path);
        let parsed = vgc_parser::go::parse_reusing(text, prefix.as_str(), previous.as_ref());
        memory.put(path, parsed.previous, parsed.reused);
        return parsed.file;
    }
    vgc_parser::go::parse_for_tag_prefix(text, prefix.as_str())
}

/// The previous parse of each of a live session's larger files, by path, for [`parsed_go`] to reuse on a
/// comment-only edit (`vgc_parser::go::parse_reusing`), and how often it did. Shared by a database's clones (the
/// driver's `Database` holds it in an `Arc`); safe to use from several threads.
///
/// Bounded: only files of at least [`ParseMemory::MIN_BYTES`] (a smaller file re-parses in well under a
/// millisecond, the reuse's own scan costing a good part of that), and at most [`ParseMemory::MAX_FILES`] of them,
/// the most recently parsed (each entry holds the file's summary without comment texts, its comment-less skeleton and
/// its comments' places — about 1.6 MB for core/v1 `types.go`, 471 KB, by resident memory; k8s.io/kubernetes'
/// `pkg/apis` and staging API trees hold 24 declaring files of 32 KiB or more).
#[derive(Debug, Default)]
pub struct ParseMemory {
    /// Entries, the most recently parsed last.
    entries: std::sync::Mutex<Vec<(String, vgc_parser::go::Previous)>>,
    /// Parses that reused their previous one.
    reused: std::sync::atomic::AtomicUsize,
}

impl ParseMemory {
    /// The smallest text (in bytes) whose parse is remembered.
    pub const MIN_BYTES: usize = 32 * 1024;
    /// The most files remembered.
    pub const MAX_FILES: usize = 64;

    /// The parses that took their summary from the previous parse of the file, since the memory was made.
    #[must_use]
    pub fn reused(&self) -> usize {
        self.reused.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The number of files remembered.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no file is remembered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(String, vgc_parser::go::Previous)>> {
        // A panic while holding the lock leaves a consistent list (each operation is one push or removal).
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The previous parse of `path`, if remembered.
    fn get(&self, path: &str) -> Option<vgc_parser::go::Previous> {
        self.lock()
            .iter()
            .rev()
            .find(|(p, _)| p == path)
            .map(|(_, prev)| prev.clone())
    }

    /// Remembers `previous` as `path`'s latest parse (forgets the path when it cannot be reused), the least
    /// recently parsed file going when more than [`ParseMemory::MAX_FILES`] are kept; counts a reuse.
    fn put(&self, path: &str, previous: vgc_parser::go::Previous, reused: bool) {
        if reused {
            self.reused
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let mut entries = self.lock();
        entries.retain(|(p, _)| p != path);
        if previous.is_reusable() {
            entries.push((path.to_string(), previous));
            if entries.len() > Self::MAX_FILES {
                entries.remove(0);
            }
        }
    }
}

/// A file's IR (shared: [`file_ir`] hands the same allocation out when no tag is renamed) and span table, as
/// [`lowered`] computes them.
pub type Lowered = (Arc<FileIr>, Vec<std::ops::Range<usize>>);

pub use salsa_ir_cache::IrCache;

/// `IrCache` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_ir_cache {
    use super::*;

    /// Results of [`lowered`] from an earlier run, by the BLAKE3 hash of the file text (the driver's persistent IR
    /// cache). [`lowered`] takes a file's result from here instead of parsing when the prefix and text hash to an entry;
    /// the IR is a pure function of them, so the result is the same either way.
    #[salsa::input(singleton)]
    pub struct IrCache {
        /// Entries by text hash.
        #[returns(ref)]
        pub entries: Arc<std::collections::HashMap<Digest, Arc<Lowered>>>,
    }
}

/// A BLAKE3 digest (32 bytes) naming cached content: a file's text ([`text_hash`]), a type's or a module's
/// generation inputs (`vgc_codegen::type_key`, `module_key`). Serialized as its 32 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Digest(pub [u8; 32]);

impl From<blake3::Hash> for Digest {
    fn from(h: blake3::Hash) -> Self {
        Digest(*h.as_bytes())
    }
}

/// The BLAKE3 hash of the tag prefix in force and a file's text: the key of its [`IrCache`] entry (the IR
/// depends on both, so an entry read under another `--tag-prefix` is never reused). A query so that looking the
/// file up and saving the cache hash each text once.
#[salsa::tracked(returns(ref))]
pub fn text_hash(db: &dyn Db, file: SourceFile) -> Digest {
    text_digest(tag_prefix(db).as_str(), file.text(db))
}

/// [`text_hash`] outside the database: the BLAKE3 hash of `tag_prefix`, a NUL byte and `text` (the file's
/// text as read, in bytes).
#[must_use]
pub fn text_digest(tag_prefix: &str, text: &str) -> Digest {
    let mut h = blake3::Hasher::new();
    h.update(tag_prefix.as_bytes());
    h.update(b"\0");
    h.update(text.as_bytes());
    h.finalize().into()
}

/// The IR and span table of a file: from the [`IrCache`] when it has the file's text (shared, not copied), else
/// by parsing.
#[salsa::tracked(returns(ref))]
pub fn lowered(db: &dyn Db, file: SourceFile) -> Arc<Lowered> {
    // A file that declares nothing (`generated.pb.go`, `zz_generated.deepcopy.go`: most of k8s.io/api's bytes) is
    // summarised by the parser's text scan, cheaper than hashing its text for a lookup that would miss (the cache
    // leaves such files out).
    if let Some(cache) = IrCache::try_get(db)
        && vgc_parser::go::may_declare(file.text(db), tag_prefix(db).as_str())
        && let Some(hit) = cache.entries(db).get(text_hash(db, file))
    {
        return hit.clone();
    }
    let (ir, spans) = crate::model::lower_file_with(parsed_go(db, file), &tag_prefix(db));
    Arc::new((Arc::new(ir), spans))
}

/// The position-free IR of a file, with the tag spellings of the upstream profile in force mapped onto vgc's
/// ([`crate::profile::Upstream::tag_renames`]; the cached [`lowered`] IR is profile-independent). Without renames
/// (every profile but those that spell a tag differently) it is [`lowered`]'s own allocation, not a copy.
#[salsa::tracked(returns(deref))]
pub fn file_ir(db: &dyn Db, file: SourceFile) -> Arc<FileIr> {
    let shared = &lowered(db, file).0;
    let renames = crate::profile::upstream(db).tag_renames();
    if renames.is_empty() {
        return shared.clone();
    }
    let mut ir = FileIr::clone(shared);
    {
        let rename = |uses: &mut Vec<crate::model::TagUse>| {
            for u in uses {
                if let Ok(t) = &mut u.parsed {
                    crate::profile::TagRename::apply(renames, t);
                    u.name.clone_from(&t.name);
                }
            }
        };
        for t in &mut ir.types {
            rename(&mut t.tags);
            for f in &mut t.fields {
                rename(&mut f.tags);
            }
        }
        for c in &mut ir.consts {
            rename(&mut c.tags);
        }
    }
    Arc::new(ir)
}

/// The names of the types a file declares, in order. Depends only on the position-free IR, so edits that move
/// code or change non-tag comment text do not re-run it (the firewall the incrementality test pins).
#[salsa::tracked(returns(ref))]
pub fn declared_types(db: &dyn Db, file: SourceFile) -> Vec<String> {
    file_ir(db, file)
        .types
        .iter()
        .map(|t| t.name.clone())
        .collect()
}

/// The span table of a file: byte ranges indexed by [`crate::model::SpanId`].
#[salsa::tracked(returns(ref))]
pub fn file_spans(db: &dyn Db, file: SourceFile) -> Vec<std::ops::Range<usize>> {
    lowered(db, file).1.clone()
}

/// Resolves a span id of `file` to a byte range (empty range if the id is unknown).
#[must_use]
pub fn span_of(db: &dyn Db, file: SourceFile, id: crate::model::SpanId) -> std::ops::Range<usize> {
    file_spans(db, file)
        .get(id as usize)
        .cloned()
        .unwrap_or(0..0)
}

/// Resolves every pending position of `diags` ([`crate::diagnostic::Diagnostic::at_span`]) to its byte range in
/// the file's current span table (an empty range at 0 when the id is unknown), leaving `pending` empty. The
/// driver calls it once per build, so the queries that report by span id do not depend on layout.
pub fn resolve_spans(db: &dyn Db, diags: &mut [crate::diagnostic::Diagnostic]) {
    for d in diags {
        if let Some(r) = d.pending.take() {
            let span = span_of(db, r.file, r.id);
            d.span = match r.len {
                Some(len) => span.start..span.start + len,
                None => span,
            };
        }
    }
}

/// Every per-file diagnostic of a package (see [`check_file`]), in file order.
#[salsa::tracked(returns(ref))]
pub fn check_package(db: &dyn Db, package: Package) -> Box<[Diagnostic]> {
    let mut out: Vec<Diagnostic> = package
        .files(db)
        .iter()
        .flat_map(|f| check_file(db, *f).iter().cloned())
        .collect();
    // A type declared twice in one package: Go's "T redeclared in this block" (R7). vgc would otherwise keep the
    // first declaration silently.
    // The first declaration's line is computed only for a redeclared name (counting newlines for every type
    // would be quadratic in the file size).
    let mut first: std::collections::HashMap<&str, (SourceFile, usize)> =
        std::collections::HashMap::new();
    for f in package.files(db) {
        let path = f.path(db).as_str();
        for t in &file_ir(db, *f).types {
            if t.name == "_" {
                continue;
            }
            let span = span_of(db, *f, t.at);
            match first.get(t.name.as_str()) {
                None => {
                    first.insert(&t.name, (*f, span.start));
                }
                Some(&(g, start)) => {
                    let (p, text) = (g.path(db).as_str(), g.text(db));
                    let line = text[..start.min(text.len())].matches('\n').count() + 1;
                    out.push(
                        Diagnostic::error(
                            Code::InvalidGo,
                            format!("{} redeclared in this package", t.name),
                        )
                        .at(path, span)
                        .with_hint(format!(
                            "the other declaration is at {p}:{line}; Go refuses the package"
                        )),
                    );
                }
            }
        }
    }
    out.extend(recursive_types(db, package));
    out.into_boxed_slice()
}

/// The tags KEP-5073 proposed and replaced before any release: `+k8s:shadow(…)=<payload>` (replaced by
/// `+k8s:alpha(since: "…")=<payload>`, kubernetes#136284) and `+k8s:declarativeValidationNative` (superseded: a
/// validation without a lifecycle prefix is enforced declaratively; kubernetes/website#54698). Such a use is an
/// unknown tag (`VGC0102`) whose message says what replaced it, with a fix `vgc lint --fix` applies: the rewritten
/// prefix (the version kept when the arguments name one), or the line removed. `text` is the file's text and
/// `base` the byte offset of the tag text (`k8s:…`) in it.
fn retired_tag(
    u: &crate::model::TagUse,
    text: &str,
    path: &str,
    base: usize,
) -> Option<Diagnostic> {
    let line_end = text[base..].find('\n').map_or(text.len(), |i| base + i);
    let line = &text[base..line_end];
    match u.name.as_str() {
        "k8s:shadow" => {
            let name_end = base + written_name_len(u);
            let mut d = Diagnostic::error(
                Code::UnknownTag,
                "unknown tag \"k8s:shadow\": the proposal was replaced by \"k8s:alpha\" before any release (KEP-5073)"
                    .to_string(),
            )
            .at(path, base..name_end);
            // The prefix up to the payload (`=+…`); the version, if the arguments name one.
            if let Some(eq) = line.find("=+") {
                let prefix = &line[..eq];
                let version = prefix
                    .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .find(|w| {
                        let mut parts = w.split('.');
                        parts.next().is_some_and(|a| !a.is_empty())
                            && parts.next().is_some_and(|b| !b.is_empty())
                    });
                let replacement = match version {
                    Some(v) => format!("k8s:alpha(since: \"{v}\")"),
                    None => "k8s:alpha".to_string(),
                };
                d = d
                    .with_hint(format!(
                        "write `+{replacement}{}` (a shadowed validation is an alpha one); `vgc lint --fix` rewrites it",
                        &line[eq..]
                    ))
                    .with_fix(base..base + eq, replacement);
            } else {
                d = d.with_hint("write `+k8s:alpha(since: \"<version>\")=<validation tag>`");
            }
            Some(d)
        }
        "k8s:declarativeValidationNative" => {
            let start = text[..base].rfind('\n').map_or(0, |i| i + 1);
            let end = (line_end + 1).min(text.len());
            Some(
                Diagnostic::error(
                    Code::UnknownTag,
                    "unknown tag \"k8s:declarativeValidationNative\": superseded before any release (KEP-5073); a validation without a lifecycle prefix is enforced declaratively".to_string(),
                )
                .at(path, base..base + written_name_len(u))
                .with_hint("delete the line (`+k8s:alpha`/`+k8s:beta` stage a validation during a migration); `vgc lint --fix` deletes it")
                .with_fix(start..end, ""),
            )
        }
        _ => None,
    }
}

/// The length of a tag use's name as written (`acme:shadow` under `--tag-prefix acme:`; the use's name is the
/// canonical `k8s:shadow`).
fn written_name_len(u: &crate::model::TagUse) -> usize {
    u.parsed
        .as_ref()
        .map_or(u.name.len(), |t| t.name_span.end - t.name_span.start)
}

/// Go's "invalid recursive type" (R29): a type that contains itself by value — `type A B; type B A`,
/// `type L L`, a struct with a field (or embedded field, or array element) of its own type, directly or through
/// other types of the package. Pointers, slices and maps break a cycle. Cycles cannot cross packages (imports are
/// acyclic), so the package's own type names suffice. One diagnostic per type on a cycle, naming the cycle.
fn recursive_types(db: &dyn Db, package: Package) -> Vec<Diagnostic> {
    use std::collections::{HashMap, HashSet, VecDeque};
    use vgc_parser::go::TypeExpr;
    fn direct<'a>(ty: &'a TypeExpr, out: &mut Vec<&'a str>) {
        let mut stack = vec![ty];
        while let Some(t) = stack.pop() {
            match t {
                TypeExpr::Named {
                    pkg: None, name, ..
                } => out.push(name),
                TypeExpr::Array { elem, .. } => stack.push(elem),
                TypeExpr::Struct(fs) => stack.extend(fs.iter().map(|f| &f.ty)),
                _ => {}
            }
        }
    }
    // name → (file, span, direct references)
    let mut types: HashMap<&str, (SourceFile, crate::model::SpanId, Vec<&str>)> = HashMap::new();
    for f in package.files(db) {
        for t in &file_ir(db, *f).types {
            let mut refs = Vec::new();
            direct(&t.ty, &mut refs);
            for fi in &t.fields {
                direct(&fi.ty, &mut refs);
            }
            types.entry(&t.name).or_insert((*f, t.at, refs));
        }
    }
    // Prune types that reach no cycle (repeatedly drop those whose references are all outside the set).
    let mut live: HashSet<&str> = types.keys().copied().collect();
    loop {
        let dead: Vec<&str> = live
            .iter()
            .copied()
            .filter(|n| types[n].2.iter().all(|r| !live.contains(r)))
            .collect();
        if dead.is_empty() {
            break;
        }
        for d in dead {
            live.remove(d);
        }
    }
    let mut names: Vec<&str> = live.iter().copied().collect();
    names.sort_unstable();
    let mut out = Vec::new();
    for start in names {
        // Shortest path back to `start` (breadth first, explicit queue).
        let mut parent: HashMap<&str, &str> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        let mut found = false;
        while let Some(n) = queue.pop_front() {
            for r in &types[n].2 {
                if !live.contains(r) || parent.contains_key(r) {
                    continue;
                }
                parent.insert(r, n);
                if *r == start {
                    found = true;
                    break;
                }
                queue.push_back(r);
            }
            if found {
                break;
            }
        }
        if !found {
            continue;
        }
        let mut back = Vec::new();
        let mut at = parent[start];
        while at != start {
            back.push(at);
            at = parent[at];
        }
        let mut cycle = vec![start];
        cycle.extend(back.into_iter().rev());
        cycle.push(start);
        let (f, id, _) = &types[start];
        out.push(
            Diagnostic::error(
                Code::InvalidGo,
                format!(
                    "invalid recursive type {start}: {}",
                    cycle.join(" refers to ")
                ),
            )
            .at(f.path(db).clone(), span_of(db, *f, *id))
            .with_hint(
                "Go refuses a type that contains itself by value; use a pointer, slice or map",
            ),
        );
    }
    out
}

/// `VGC0102` for each tag written in the catalog's spelling of a tag the profile in force spells otherwise
/// ([`crate::profile::Upstream::tag_renames`]): that release has no tag of that name
/// ([`crate::profile::Upstream::tag_named`]).
fn later_spellings(db: &dyn Db, file: SourceFile, out: &mut Vec<Diagnostic>) {
    let profile = crate::profile::upstream(db);
    let renames = profile.tag_renames();
    let ir = &lowered(db, file).0;
    let uses = ir
        .types
        .iter()
        .flat_map(|t| {
            t.tags
                .iter()
                .chain(t.fields.iter().flat_map(|f| f.tags.iter()))
        })
        .chain(ir.consts.iter().flat_map(|c| c.tags.iter()));
    for u in uses {
        let Ok(t) = &u.parsed else { continue };
        for c in t.chain() {
            let Some(r) = renames.iter().find(|r| r.to.name() == c.name) else {
                continue;
            };
            let base = span_of(db, file, u.at).start;
            out.push(
                Diagnostic::error(
                    Code::UnknownTag,
                    format!("unknown tag {:?} in upstream {profile}", c.name),
                )
                .at(file.path(db).as_str(), base + c.name_span.start..base + c.name_span.end)
                .with_hint(format!(
                    "upstream {profile} spells it `{}` (arguments {}); `{}` exists from upstream {} on",
                    r.from,
                    r.args
                        .iter()
                        .map(|(from, to)| format!("`{from}:` for `{to}:`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    c.name,
                    crate::profile::Upstream::tag_since(r.to).unwrap_or(profile),
                )),
            );
        }
    }
}

/// The names of the types a region of Go text that did not parse appears to declare (`type X …` at the start of a
/// line; the members of a `type (` group are not named): what its VGC0001 says is not read.
fn declared_in(region: &str) -> Vec<String> {
    region
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("type "))
        .filter_map(|rest| {
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Per-file diagnostics that need no type information: Go syntax problems (errors, `VGC0001`) and catalog checks of every
/// tag on types, fields and constants.
#[salsa::tracked(returns(ref))]
pub fn check_file(db: &dyn Db, file: SourceFile) -> Box<[Diagnostic]> {
    let ir = file_ir(db, file);
    let path = file.path(db).as_str();
    let mut out = Vec::new();
    // Go's scanner refuses a NUL anywhere in the source ("illegal character NUL"); tree-sitter would silently
    // end a comment (and so a tag) at it (R24).
    if let Some(i) = file.text(db).find('\0') {
        out.push(
            Diagnostic::error(Code::InvalidGo, "illegal character NUL")
                .at(path, i..i + 1)
                .with_hint("remove the NUL byte; Go refuses the file"),
        );
    }
    // Go's scanner accepts a byte-order mark only as a file's first character ("illegal byte order mark"): each
    // other one is an error, said once — the parse warning of the region holding it is dropped (R52).
    let marks: Vec<usize> = file
        .text(db)
        .match_indices('\u{FEFF}')
        .map(|(i, _)| i)
        .filter(|&i| i > 0)
        .collect();
    for &i in &marks {
        out.push(
            Diagnostic::error(Code::InvalidGo, "illegal byte order mark (U+FEFF)")
                .at(path, i..i + '\u{FEFF}'.len_utf8())
                .with_hint("remove it: Go accepts a byte-order mark only as the first character of a file, and refuses this one"),
        );
    }
    // A later release's spelling of a tag this release spells otherwise (`k8s:modeDiscriminator` under 1.36, which
    // has `k8s:discriminator`): [`file_ir`] has mapped this release's spellings onto the catalog's, so the written
    // names are read from the unmapped IR.
    if !crate::profile::upstream(db).tag_renames().is_empty() {
        later_spellings(db, file, &mut out);
    }
    for (id, msg, error) in &ir.problems {
        if !*error && {
            let span = span_of(db, file, *id);
            marks.iter().any(|m| span.contains(m) || span.start == *m)
        } {
            continue;
        }
        out.push(if *error {
            Diagnostic::error(Code::InvalidGo, msg.clone())
                .at(path, span_of(db, file, *id))
                .with_hint("split the nesting into named types or constants")
        } else {
            let span = span_of(db, file, *id);
            let hidden = declared_in(file.text(db).get(span.clone()).unwrap_or(""));
            let hint = if hidden.is_empty() {
                "fix the Go syntax here; vgc read every other declaration of this file".to_string()
            } else {
                format!(
                    "fix the Go syntax here; vgc read every other declaration of this file, but not {} in this region: \
                     nothing of them is checked, and what follows only from their being unreadable (a type another \
                     file cannot resolve, a tag that looks detached) is not reported",
                    hidden.join(", ")
                )
            };
            Diagnostic::error(Code::GoSyntax, msg.clone())
                .at(path, span)
                .with_hint(hint)
        });
    }
    // gengo reads package comments from `doc.go` only: a generator tag above another file's package clause does
    // nothing upstream either, which is said rather than dropped. (Other comment groups of such a file that are no
    // declaration's hold type-level tags, `+k8s:validation-gen-nolint` on the type below a blank line: not package
    // tags.)
    if !path.ends_with("/doc.go") && !ir.package_tags.is_empty() {
        let text = file.text(db);
        let package_clause = if text.starts_with("package ") {
            0
        } else {
            text.find("\npackage ").map_or(0, |i| i + 1)
        };
        for u in &ir.package_tags {
            use crate::catalog::ControlTag;
            let at = span_of(db, file, u.at);
            let generator_tag = matches!(
                u.control_tag(),
                Some(
                    ControlTag::ValidationGen
                        | ControlTag::ValidationGenInput
                        | ControlTag::ValidationGenNolint
                        | ControlTag::ValidationGenDeepEqualFunc
                        | ControlTag::ValidationGenSchemeRegistry
                        | ControlTag::ValidationGenTestFixture
                        | ControlTag::ValidationGenTestTargets
                )
            );
            if generator_tag && at.start < package_clause {
                out.push(
                    Diagnostic::warning(
                        Code::GeneratorConfig,
                        format!(
                            "+{} is not read here: validation-gen reads package tags from the package's doc.go only",
                            u.name
                        ),
                    )
                    .at(path, at)
                    .with_hint("move the tag to the comment above `package` in doc.go (gengo's package comments)"),
                );
            }
        }
    }
    let profile = crate::profile::upstream(db);
    let extensions = crate::extension_tags::enabled(db);
    let mut check = |uses: &[crate::model::TagUse], scope: Scope, on: &str| {
        for u in uses {
            let base = span_of(db, file, u.at).start;
            if let Ok(t) = &u.parsed
                && let Some((newer, id)) = t
                    .chain()
                    .filter_map(|c| Some((c, c.tag_id()?)))
                    .find(|(_, id)| !profile.has_tag(*id))
            {
                let since = crate::profile::Upstream::tag_since(id).unwrap_or(profile);
                out.push(
                    Diagnostic::error(
                        Code::UnknownTag,
                        format!("unknown tag {:?} in upstream {profile}", newer.name),
                    )
                    .at(path, base + newer.name_span.start..base + newer.name_span.end)
                    .with_hint(format!("the tag exists from upstream {since} on; select that profile (`--upstream {since}`, `[upstream] version` in vgc.toml) or a newer k8s.io/apimachinery in go.mod")),
                );
                continue;
            }
            // A vgc extension tag of its own (subresource condition, virtual field) while extensions are off: one
            // VGC0116 at the tag, which the catalog problems of the same use join as part of its hint (enabling
            // extensions would not fix them); lowering skips the use. Found without types, so on every
            // declaration, as the catalog checks are.
            if !extensions
                && let Ok(t) = &u.parsed
                && let Some((ext, id)) = crate::extension_tags::extension_in_chain(t)
            {
                let refused: Vec<_> = check_tag_use(u, scope)
                    .into_iter()
                    .map(|p| (p.message, p.code))
                    .collect();
                let (message, hint) = crate::extension_tags::disabled(on, id, &refused);
                out.push(
                    Diagnostic::error(Code::ExtensionDisabled, message)
                        .at(path, base + ext.name_span.start..base + ext.name_span.end)
                        .with_hint(hint),
                );
                continue;
            }
            if let Some(d) = retired_tag(u, file.text(db), path, base) {
                out.push(d);
                continue;
            }
            if let Ok(t) = &u.parsed
                && !profile.requiredness_message_payload()
                && let Some((c, v)) = t.chain().find_map(|c| {
                    matches!(
                        c.tag_id(),
                        Some(crate::catalog::TagId::Required | crate::catalog::TagId::Forbidden)
                    )
                    .then_some(())
                    .and(c.value.as_ref().map(|v| (c, v)))
                })
            {
                let (got, span) = match v {
                    vgc_parser::tags::TagValue::Scalar(s, sp) => (s.type_name(), sp.clone()),
                    vgc_parser::tags::TagValue::Tag(t) => ("tag", t.span.clone()),
                };
                // A string is the message 1.38 takes; anything else is wrong in every release.
                let (note, hint) = if got == "string" {
                    (
                        format!(
                            " (a message payload needs upstream 1.38; upstream {profile} takes none)"
                        ),
                        format!(
                            "a message is joined into the error's detail from upstream 1.38 on (`{}: <msg>`); select that profile (`--upstream 1.38`, `[upstream] version` in vgc.toml) or write `+{}` alone",
                            if c.tag_id() == Some(crate::catalog::TagId::Forbidden) {
                                "Forbidden"
                            } else {
                                "Required value"
                            },
                            c.name
                        ),
                    )
                } else {
                    (
                        String::new(),
                        format!("{0} takes no value; write it as `+{0}`", c.name),
                    )
                };
                out.push(
                    Diagnostic::error(
                        Code::PayloadType,
                        format!(
                            "tag {:?}: tag value has wrong type: got {got}, want no value{note}",
                            c.name
                        ),
                    )
                    .at(path, base + span.start..base + span.end)
                    .with_hint(hint),
                );
                continue;
            }
            out.extend(
                check_tag_use(u, scope)
                    .into_iter()
                    .map(|p| p.into_diagnostic(path, base)),
            );
        }
    };
    for t in &ir.types {
        check(&t.tags, Scope::Type, &t.name);
        for f in &t.fields {
            check(
                &f.tags,
                Scope::Field,
                &format!("{}.{}", t.name, f.member_name()),
            );
        }
    }
    for c in &ir.consts {
        check(&c.tags, Scope::Const, &c.name);
    }
    // `+k8s:` validation tags under another tag prefix: upstream's registry does not know them and ignores the
    // line; vgc says so instead of dropping it silently. The name is marked foreign so that the message keeps it
    // as written ([`crate::prefix::TagPrefix::requalify`]).
    if !ir.unprefixed.is_empty() {
        let prefix = tag_prefix(db);
        for u in &ir.unprefixed {
            let base = span_of(db, file, u.at).start;
            let rest = u
                .name
                .strip_prefix(crate::prefix::DEFAULT)
                .unwrap_or(&u.name);
            out.push(
                Diagnostic::warning(
                    Code::UnknownTag,
                    format!(
                        "tag \"{}{}\" is not read: the tag prefix is {:?}",
                        crate::prefix::FOREIGN,
                        u.name,
                        prefix.as_str()
                    ),
                )
                .at(path, base..base + u.name.len())
                .with_hint(format!(
                    "validation tags are written `+{}{rest}` under this prefix (`--tag-prefix`, `[upstream] tag-prefix` in vgc.toml); upstream validation-gen ignores this line",
                    prefix.as_str()
                )),
            );
        }
    }
    out.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;
    use salsa::Setter;
    use std::sync::{Arc, Mutex};

    #[salsa::db]
    #[derive(Clone)]
    struct TestDb {
        storage: salsa::Storage<Self>,
        log: Arc<Mutex<Vec<String>>>,
    }

    impl TestDb {
        fn new() -> Self {
            let log: Arc<Mutex<Vec<String>>> = Arc::default();
            let sink = log.clone();
            let storage = salsa::Storage::new(Some(Box::new(move |e: salsa::Event| {
                if let salsa::EventKind::WillExecute { database_key } = e.kind
                    && let Ok(mut l) = sink.lock()
                {
                    l.push(format!("{database_key:?}"));
                }
            })));
            Self { storage, log }
        }
        fn executed(&self) -> Vec<String> {
            self.log
                .lock()
                .map(|mut l| std::mem::take(&mut *l))
                .unwrap_or_default()
        }
    }

    #[salsa::db]
    impl salsa::Database for TestDb {}
    #[salsa::db]
    impl Db for TestDb {
        fn as_dyn(&self) -> &dyn Db {
            self
        }
    }

    const V1: &str = "package p\n\n// T is a type.\n// +k8s:validation-gen=true\ntype T struct {\n\t// +k8s:required\n\tA *string `json:\"a\"`\n}\n";

    #[test]
    fn editing_comment_text_does_not_invalidate_the_ir_consumers() {
        let mut db = TestDb::new();
        let f = SourceFile::new(&db, "t.go".to_string(), Arc::new(V1.to_string()));
        assert_eq!(declared_types(&db, f), &vec!["T".to_string()]);
        let _ = check_file(&db, f);
        let first = db.executed();
        assert!(
            first.iter().any(|q| q.starts_with("declared_types")),
            "{first:?}"
        );

        // Reword the doc comment and add a blank line: positions move, the IR does not change.
        let v2 = V1.replace(
            "// T is a type.",
            "\n// T is a rather different type, described at length.",
        );
        f.set_text(&mut db).to(Arc::new(v2.clone()));
        assert_eq!(declared_types(&db, f), &vec!["T".to_string()]);
        let diags = check_file(&db, f).len();
        let second = db.executed();
        assert!(
            second.iter().any(|q| q.starts_with("lowered")),
            "the file is re-lowered: {second:?}"
        );
        assert!(
            second.iter().any(|q| q.starts_with("file_spans")),
            "the span table is rebuilt: {second:?}"
        );
        assert!(
            !second.iter().any(|q| q.starts_with("declared_types")),
            "IR consumers are not re-run: {second:?}"
        );
        assert_eq!(diags, 0);

        // Changing a tag changes the IR: its consumers re-run.
        let v3 = v2.replace("+k8s:required", "+k8s:optional");
        f.set_text(&mut db).to(Arc::new(v3.clone()));
        let _ = declared_types(&db, f);
        assert!(
            db.executed()
                .iter()
                .any(|q| q.starts_with("declared_types"))
        );
    }
}
