//! `vgc lsp`: a language server over stdio (lsp-server's message loop, lsp-types' protocol types) on the same live
//! database `vgc watch` rebuilds — one [`vgc_driver::Session`] per Go module — fed the editor's unsaved buffers
//! through an overlay [`System`](vgc_analysis::System) ([`overlay`]).
//!
//! - **Diagnostics**: after a debounced burst of `didOpen`/`didChange`/`didClose` (the edited files only, as
//!   `vgc watch` after a change), on `didSave` and for the workspace folders on `initialized` (a full load), the
//!   module holding the document is checked as `vgc check` checks it, and every file of it with diagnostics is
//!   published — codes, messages with the hint, UTF-16 ranges ([`position`]) — and every file that had some and has
//!   none any more is cleared.
//!   With them vgc's own lint rules (`vgc lint`'s `VGC0310`–`VGC0318`, severities from `vgc.toml`, `vgc:ignore`
//!   honoured), published after the check's diagnostics. A file is sent only when its diagnostics changed.
//! - **Hover** on a `+k8s:` tag: its catalog entry as `vgc explain` shows it ([`crate::explain`]); on a field's or
//!   type's name its effective rules in words ([`rules`]); on a diagnostic's range its code explained.
//!   **Completion** of tag names after `+k8s:`, of `format=` values (the profile's formats and the project's),
//!   `listType=` values ([`tags`]), of JSON field names for `listMapKey=`, `subfield(`, `item(`
//!   ([`navigate::json_names`]), option names ([`navigate::option_names`]) and union and group names
//!   ([`navigate::group_names`]).
//! - **Go to definition / references** ([`navigate`]): field paths in tags to the Go fields, union and group names
//!   to their members, type names to their declaration and the fields using them.
//! - **Code actions** ([`actions`]): each diagnostic's fix and did-you-mean as a quick fix, and "explain" (the
//!   `vgc.explain` command: `vgc explain CODE`'s text, returned and shown as a message).
//! - **Robust**: a message that is not JSON-RPC is skipped ([`transport`]), a panic in a request handler is that
//!   request's error response and a panic in a check resets that module's session; neither stops the server.
//!   A `didChange` older than the buffer's version is dropped, and every message already queued is handled before
//!   a check starts, so a burst of changes is checked once, on its last text; a request cancelled while still
//!   queued is answered `RequestCancelled` without running.

mod actions;
mod navigate;
mod overlay;
mod position;
mod rules;
mod tags;
mod transport;

use lsp_server::{Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CompletionOptions, DiagnosticSeverity, HoverProviderCapability, InitializeParams,
    InitializeResult, NumberOrString, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};
use vgc_driver::{BuildRequest, Session};
use vgc_ir::TagPrefix;
use vgc_ir::profile::Upstream;

/// How `vgc lsp` runs.
#[derive(Debug, Clone)]
pub struct LspOptions {
    /// How long after the last edit of a burst the check runs.
    pub debounce: Duration,
    /// `--upstream` (else `vgc.toml`, else detected from `go.mod`, as `vgc check`).
    pub upstream: Option<String>,
    /// `--tag-prefix` (else `vgc.toml`).
    pub tag_prefix: Option<String>,
    /// `--validation-extensions-file` values, absolute.
    pub extension_files: Vec<String>,
    /// Log each check's time and phases on stderr (`VGC_LSP_TIMINGS=1`; `scripts/bench-lsp.py` reads them).
    pub timings: bool,
}

/// Serves one client on stdin/stdout until it sends `exit`, or stdin ends. Returns the exit code: 0 after
/// `shutdown` then `exit`, 1 otherwise (as the protocol asks).
#[must_use]
pub fn run(opts: LspOptions) -> u8 {
    let (conn, threads) = transport::stdio();
    let code = Server::new(conn.sender.clone(), opts).serve(&conn.receiver);
    drop(conn);
    threads.join_writer();
    code
}

/// One open document.
struct Doc {
    /// Its path as discovery spells it (the canonical directory and the file name), `None` when it is not a file.
    path: Option<String>,
    /// The buffer's text.
    text: String,
    /// The client's version of the text.
    version: i32,
}

/// One Go module the client has documents in.
struct Module {
    /// The live database of its checks.
    session: Session,
    /// The check request (`vgc check` of the module root, with the options and `vgc.toml` in force).
    req: BuildRequest,
    /// The profile of the last check (hover's stability levels).
    release: Upstream,
    /// Documents published with diagnostics by the last check, with their quick fixes.
    published: BTreeMap<Url, Vec<actions::Fixable>>,
    /// `vgc.toml`'s `[lint.severity]` (vgc's lint rules run with each check).
    lint: vgc_driver::LintSettings,
    /// The lowered plan of the last check (hover's rules of fields and types).
    plan: vgc_lowering::CratePlan,
    /// The lint diagnostics of the last check (republished with the next check's before its lint rules run).
    lint_last: Vec<vgc_ir::Diagnostic>,
    /// A check has loaded the module into the session's database.
    checked: bool,
}

impl Module {
    /// The module at `root` with the options and `vgc.toml` in force, and the problems found in them (an unknown
    /// `--upstream`, a `vgc.toml` that does not parse: each shown to the user, the default used instead).
    fn new(root: &str, opts: &LspOptions) -> (Self, Vec<String>) {
        let path = Path::new(root);
        let mut problems = Vec::new();
        // `vgc.toml` `[build] target = "go"`: what the Go backend cannot print is reported, as `vgc check` does.
        let config = vgc_driver::config::find(path).map(|f| vgc_driver::config::load(&f));
        let config = match config {
            Some(Err(e)) => {
                problems.push(format!("{e}; its settings are not used"));
                None
            }
            Some(Ok(c)) => Some(c),
            None => None,
        };
        // A `vgc.toml` that does not load is said once (above), not again by each setting read from it.
        let bad_config = !problems.is_empty();
        let mut req = BuildRequest::check(root, Vec::new());
        req.upstream = vgc_driver::config::upstream_for(path, opts.upstream.as_deref(), None)
            .unwrap_or_else(|e| {
                if !bad_config {
                    problems.push(format!("{e}; detecting the profile from go.mod"));
                }
                None
            });
        req.tag_prefix = vgc_driver::config::tag_prefix_for(path, opts.tag_prefix.as_deref(), None)
            .unwrap_or_else(|e| {
                if !bad_config {
                    problems.push(format!("{e}; reading `+k8s:` tags"));
                }
                TagPrefix::default()
            });
        req.extension_files.clone_from(&opts.extension_files);
        let lint = config.as_ref().map(|c| c.lint.clone()).unwrap_or_default();
        if config.and_then(|c| c.go).is_some() {
            req.go = Some(vgc_driver::GoTarget::default());
        }
        let release = req
            .upstream
            .as_ref()
            .map_or(Upstream::NEWEST, |s| s.version);
        let module = Self {
            session: Session::default(),
            req,
            release,
            published: BTreeMap::new(),
            lint,
            plan: vgc_lowering::CratePlan::default(),
            lint_last: Vec::new(),
            checked: false,
        };
        (module, problems)
    }
}

impl Module {
    /// The session's database once a check has loaded the module into it, else `None`. Nothing may query a
    /// database before its first load: a query run then (`vgc_analysis::loaded_program` reads the absent
    /// `Workspace` singleton) is not invalidated when the load creates the input, and the check that follows would
    /// read the empty program it memoized.
    fn db(&self) -> Option<&vgc_driver::Database> {
        self.checked.then(|| self.session.db())
    }
}

/// What the next check of a module must do.
#[derive(Default)]
struct Pending {
    /// A full load (discovery, every file's stamp) rather than only the edited files.
    full: bool,
    /// The files edited since the last check.
    paths: BTreeSet<String>,
}

struct Server {
    out: crossbeam_channel::Sender<Message>,
    opts: LspOptions,
    docs: HashMap<Url, Doc>,
    /// The open buffers by path (the overlay).
    texts: BTreeMap<String, String>,
    /// Paths whose buffer was closed since their module's last check.
    fresh: BTreeSet<String>,
    modules: BTreeMap<String, Module>,
    pending: BTreeMap<String, Pending>,
    deadline: Option<Instant>,
    shut_down: bool,
    /// `initialize` has been answered: before it, a request is answered `ServerNotInitialized` and a notification
    /// other than `exit` is dropped, as the protocol asks.
    initialized: bool,
    /// The client registers file watchers on request (`workspace.didChangeWatchedFiles.dynamicRegistration`): the
    /// server asks it to watch the module's Go files, `go.mod` and `vgc.toml` once `initialized` arrives.
    watch_files: bool,
    /// The Go files opened outside any module (told once each).
    outside: BTreeSet<String>,
    /// The id of the next request the server sends.
    next_request: i32,
    /// Messages taken from the input ahead of their turn (looking for cancellations), handled before the input.
    backlog: std::collections::VecDeque<Message>,
    /// A request method whose handler panics on purpose (`VGC_LSP_TEST_PANIC`, for the tests of the panic guard).
    panic_on: Option<String>,
}

/// A line on stderr (the client's log of the server).
fn log(msg: &str) {
    let _ = writeln!(std::io::stderr().lock(), "vgc lsp: {msg}");
}

/// The text of a panic's payload.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// The parameters of notification `method`, `None` (logged) when they are not what the protocol says — a
/// notification has no response to carry an error.
fn params<T: serde::de::DeserializeOwned>(method: &str, v: serde_json::Value) -> Option<T> {
    serde_json::from_value(v)
        .map_err(|e| {
            log(&format!(
                "{method}: dropped, its parameters do not parse: {e}"
            ))
        })
        .ok()
}

/// The path of a `file:` URI as discovery spells it: the canonical directory joined with the file name (the file
/// itself may not exist yet).
fn doc_path(uri: &Url) -> Option<String> {
    let p = uri.to_file_path().ok()?;
    let dir = std::fs::canonicalize(p.parent()?).ok()?;
    dir.join(p.file_name()?).to_str().map(str::to_string)
}

/// The root of the Go module holding `path`, canonical.
fn module_of(path: &str) -> Option<String> {
    let root = vgc_driver::go::module_root(Path::new(path).parent()?)?;
    vgc_driver::target::resolve(root.to_str()).ok()
}

impl Server {
    fn new(out: crossbeam_channel::Sender<Message>, opts: LspOptions) -> Self {
        Self {
            out,
            opts,
            docs: HashMap::new(),
            texts: BTreeMap::new(),
            fresh: BTreeSet::new(),
            modules: BTreeMap::new(),
            pending: BTreeMap::new(),
            deadline: None,
            shut_down: false,
            initialized: false,
            watch_files: false,
            next_request: 0,
            outside: BTreeSet::new(),
            backlog: std::collections::VecDeque::new(),
            panic_on: std::env::var("VGC_LSP_TEST_PANIC").ok(),
        }
    }

    fn send(&self, m: impl Into<Message>) {
        let _ = self.out.send(m.into());
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_string(), params));
    }

    /// The message loop: requests answered at once, checks run when the debounce deadline passes — after every
    /// message already queued is handled, so that a check never runs on a text a later change replaced.
    fn serve(mut self, input: &crossbeam_channel::Receiver<Message>) -> u8 {
        loop {
            let next = if let Some(m) = self.backlog.pop_front() {
                Some(m)
            } else {
                match self.deadline {
                    Some(d) => {
                        match input.recv_timeout(d.saturating_duration_since(Instant::now())) {
                            Ok(m) => Some(m),
                            Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return 1,
                        }
                    }
                    None => match input.recv() {
                        Ok(m) => Some(m),
                        Err(_) => return 1,
                    },
                }
            };
            match next {
                None => {
                    while let Some(m) = self.backlog.pop_front().or_else(|| input.try_recv().ok()) {
                        if let Some(code) = self.handle(m, input) {
                            return code;
                        }
                    }
                    if self.deadline.is_some_and(|d| d <= Instant::now()) {
                        self.run_pending();
                    }
                }
                Some(m) => {
                    if let Some(code) = self.handle(m, input) {
                        return code;
                    }
                }
            }
        }
    }

    /// Handles one message; `Some(exit code)` after `exit`. A request whose `$/cancelRequest` is already queued
    /// behind it is answered `RequestCancelled` without running.
    fn handle(&mut self, m: Message, input: &crossbeam_channel::Receiver<Message>) -> Option<u8> {
        match m {
            Message::Request(r) => {
                if self.cancelled(&r.id, input) {
                    self.send(Response::new_err(
                        r.id,
                        lsp_server::ErrorCode::RequestCanceled as i32,
                        format!("{}: cancelled", r.method),
                    ));
                } else {
                    self.request(r);
                }
            }
            Message::Notification(n) => {
                if n.method == lsp_types::notification::Exit::METHOD {
                    return Some(if self.shut_down { 0 } else { 1 });
                }
                if !self.initialized {
                    log(&format!(
                        "{}: dropped, the server is not initialized yet",
                        n.method
                    ));
                    return None;
                }
                let method = n.method.clone();
                if let Err(p) = catch_unwind(AssertUnwindSafe(|| self.notification(n))) {
                    log(&format!("{method}: {}", panic_text(&*p)));
                }
            }
            Message::Response(_) => {}
        }
        None
    }

    /// Whether the client has already cancelled request `id`: every message queued so far is moved to the backlog
    /// and a `$/cancelRequest` for `id` among them is taken out.
    fn cancelled(
        &mut self,
        id: &lsp_server::RequestId,
        input: &crossbeam_channel::Receiver<Message>,
    ) -> bool {
        self.backlog.extend(input.try_iter());
        let hit = self.backlog.iter().position(|m| {
            matches!(m, Message::Notification(n)
            if n.method == lsp_types::notification::Cancel::METHOD
                && serde_json::from_value::<lsp_types::CancelParams>(n.params.clone())
                    .is_ok_and(|c| match (c.id, id) {
                        (NumberOrString::Number(a), id) => *id == lsp_server::RequestId::from(a),
                        (NumberOrString::String(a), id) => *id == lsp_server::RequestId::from(a),
                    }))
        });
        hit.and_then(|i| self.backlog.remove(i)).is_some()
    }

    fn request(&mut self, r: Request) {
        use lsp_types::request::{
            CodeActionRequest, Completion, ExecuteCommand, GotoDefinition, HoverRequest,
            Initialize, References, Shutdown,
        };
        let id = r.id.clone();
        if self.shut_down {
            self.send(Response::new_err(
                id,
                lsp_server::ErrorCode::InvalidRequest as i32,
                "the server is shut down".into(),
            ));
            return;
        }
        if !self.initialized && r.method != Initialize::METHOD {
            self.send(Response::new_err(
                id,
                lsp_server::ErrorCode::ServerNotInitialized as i32,
                format!("{}: the server is not initialized yet", r.method),
            ));
            return;
        }
        let method = r.method.clone();
        let result = catch_unwind(AssertUnwindSafe(|| -> Result<serde_json::Value, String> {
            if self.panic_on.as_deref() == Some(r.method.as_str()) {
                panic!("VGC_LSP_TEST_PANIC names {}", r.method);
            }
            let json =
                |v: Result<serde_json::Value, serde_json::Error>| v.map_err(|e| e.to_string());
            match r.method.as_str() {
                Initialize::METHOD => {
                    if self.initialized {
                        return Err("initialize: the server is already initialized".into());
                    }
                    let params: InitializeParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    self.initialized = true;
                    Ok(self.initialize(&params))
                }
                Shutdown::METHOD => {
                    self.shut_down = true;
                    Ok(serde_json::Value::Null)
                }
                HoverRequest::METHOD => {
                    let p: lsp_types::HoverParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    json(serde_json::to_value(
                        self.hover(&p.text_document_position_params),
                    ))
                }
                Completion::METHOD => {
                    let p: lsp_types::CompletionParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    let items = self.completion(&p.text_document_position);
                    json(serde_json::to_value(lsp_types::CompletionResponse::Array(
                        items,
                    )))
                }
                GotoDefinition::METHOD => {
                    let p: lsp_types::GotoDefinitionParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    let pos = p.text_document_position_params;
                    let mut found = self.navigate(&pos, navigate::definition);
                    if found.is_empty() {
                        found.extend(self.unloaded_definition(&pos));
                    }
                    json(serde_json::to_value(
                        lsp_types::GotoDefinitionResponse::Array(found),
                    ))
                }
                References::METHOD => {
                    let p: lsp_types::ReferenceParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    let decl = p.context.include_declaration;
                    let found = self.navigate(&p.text_document_position, |db, path, at| {
                        navigate::references(db, path, at, decl)
                    });
                    json(serde_json::to_value(found))
                }
                CodeActionRequest::METHOD => {
                    let p: lsp_types::CodeActionParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    let published = self.published(&p.text_document.uri);
                    json(serde_json::to_value(actions::actions(
                        &p.text_document.uri,
                        &published,
                        p.range,
                    )))
                }
                ExecuteCommand::METHOD => {
                    let p: lsp_types::ExecuteCommandParams =
                        serde_json::from_value(r.params).map_err(|e| e.to_string())?;
                    self.execute(&p)
                }
                _ => Err(format!("method not found: {}", r.method)),
            }
        }));
        let response = match result {
            Ok(Ok(v)) => Response::new_ok(id, v),
            Ok(Err(e)) if e.starts_with("method not found") => {
                Response::new_err(id, lsp_server::ErrorCode::MethodNotFound as i32, e)
            }
            Ok(Err(e)) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, e),
            Err(p) => {
                let e = format!("{method}: internal error: {}", panic_text(&*p));
                log(&e);
                Response::new_err(id, lsp_server::ErrorCode::InternalError as i32, e)
            }
        };
        self.send(response);
    }

    /// The hover at `pos`: the tag's entry, or on a field's or type's name its rules in words ([`rules`]); then
    /// the explanation of every diagnostic code published over `pos`.
    fn hover(&mut self, pos: &lsp_types::TextDocumentPositionParams) -> Option<lsp_types::Hover> {
        let tag = self
            .with_doc(&pos.text_document.uri, |text, release, prefix| {
                tags::hover(text, pos.position, release, prefix)
            })
            .flatten()
            .or_else(|| self.rules_hover(pos));
        let mut codes: Vec<vgc_ir::Code> = Vec::new();
        for f in self.published(&pos.text_document.uri) {
            let r = f.diagnostic.range;
            if r.start <= pos.position
                && pos.position <= r.end
                && let Some(NumberOrString::String(c)) = &f.diagnostic.code
                && let Some(code) = vgc_ir::Code::parse(c)
                && !codes.contains(&code)
            {
                codes.push(code);
            }
        }
        if codes.is_empty() {
            return tag;
        }
        let explained: Vec<String> = codes
            .iter()
            .map(|c| crate::explain::code_text(*c))
            .collect();
        let mut hover = tag.unwrap_or(lsp_types::Hover {
            contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::Markdown,
                value: String::new(),
            }),
            range: None,
        });
        if let lsp_types::HoverContents::Markup(m) = &mut hover.contents {
            for e in explained {
                if !m.value.is_empty() {
                    m.value.push_str("\n---\n\n");
                }
                m.value.push_str(&e);
            }
        }
        Some(hover)
    }

    /// The rules of the field or type whose name is at `pos`, from a check of the buffer as it is (an edit still in
    /// its debounce is checked first, as for go to definition).
    fn rules_hover(
        &mut self,
        pos: &lsp_types::TextDocumentPositionParams,
    ) -> Option<lsp_types::Hover> {
        let (root, path) = self.checked_now(&pos.text_document.uri)?;
        let path = path.as_str();
        let m = self.modules.get(&root)?;
        let db = m.db()?;
        let checked = navigate::text_of(db, path)?;
        if *checked != self.docs.get(&pos.text_document.uri)?.text {
            return None;
        }
        let at = position::offset(&checked, pos.position);
        let Some((key, field)) = navigate::hover_subject(db, path, at) else {
            // A type the program never loads (`resource.Quantity`): where it is declared, and why it has no rules.
            let found = navigate::unloaded_type(db, path, at, &root)?;
            let line = position::position(&found.text, found.span.start).line + 1;
            let name = &found.text[found.span.clone()];
            let value = format!(
                "**{name}** — [declared here]({}#L{line})\n\nA type vgc does not load (a well-known value such as a quantity, a time or an int-or-string): it has no declarative rules of its own; the tags of the fields holding it validate it.\n",
                self.uri_for(&found.path)?
            );
            return Some(lsp_types::Hover {
                contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                    kind: lsp_types::MarkupKind::Markdown,
                    value,
                }),
                range: None,
            });
        };
        let at = |s: navigate::Spot| {
            let uri = self.uri_for(s.file.path(db))?;
            let line = position::position(s.file.text(db), s.span.start).line + 1;
            Some(format!("{uri}#L{line}"))
        };
        let ty = |k: &vgc_analysis::TypeKey| at(navigate::declaration_of(db, k)?);
        let tag = |k: &vgc_analysis::TypeKey, f: Option<&str>, ids: &[&str], nth: usize| {
            at(navigate::tag_line(db, k, f, ids, nth)?)
        };
        let links = rules::Links { ty: &ty, tag: &tag };
        let value = rules::hover(&m.plan, &key, field.as_deref(), &links)?;
        Some(lsp_types::Hover {
            contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::Markdown,
                value,
            }),
            range: None,
        })
    }

    /// The completion items at `pos` (see [`tags::completing`]).
    fn completion(
        &mut self,
        pos: &lsp_types::TextDocumentPositionParams,
    ) -> Vec<lsp_types::CompletionItem> {
        let uri = &pos.text_document.uri;
        let Some(doc) = self.docs.get(uri) else {
            return Vec::new();
        };
        let path = doc.path.clone();
        let module = path.as_deref().and_then(module_of);
        let prefix = module
            .as_ref()
            .and_then(|m| self.modules.get(m))
            .map_or_else(TagPrefix::default, |m| m.req.tag_prefix.clone());
        let Some(what) = tags::completing(&doc.text, pos.position, &prefix) else {
            return Vec::new();
        };
        // JSON names need the file in the module's database: a module not checked yet is checked first.
        if let (
            tags::Completing::Json { .. }
            | tags::Completing::Option
            | tags::Completing::Group { .. },
            Some(root),
            Some(path),
        ) = (&what, &module, &path)
            && self.modules.get(root).is_none_or(|m| {
                m.db()
                    .is_none_or(|db| navigate::text_of(db, path).is_none())
            })
        {
            let p = self.pending.remove(root).unwrap_or(Pending {
                full: true,
                paths: BTreeSet::new(),
            });
            self.check(root, &p);
        }
        // The word being completed (`k8s-sh` after `format=`): each item replaces it whole (a `textEdit`), so a
        // client whose word stops at `-` or `.` does not insert a second prefix.
        let word = self
            .docs
            .get(uri)
            .map(|d| word_before(&d.text, pos.position));
        let module = module.and_then(|m| self.modules.get(&m));
        let release = module.map_or(Upstream::NEWEST, |m| m.release);
        let mut items = match what {
            tags::Completing::TagName => tags::tag_items(release, &prefix),
            tags::Completing::Format => {
                let project = module
                    .and_then(Module::db)
                    .map(|db| vgc_ir::extensions::project_formats(db));
                tags::format_items(release, project.as_deref().unwrap_or(&[]))
            }
            tags::Completing::ListType => tags::list_type_items(),
            tags::Completing::Update => tags::update_items(),
            tags::Completing::Path {
                parents,
                anchor,
                line,
            } => match (module.and_then(Module::db), path) {
                (Some(db), Some(path)) => {
                    tags::json_items(navigate::path_names(db, &path, &anchor, line, &parents))
                }
                _ => Vec::new(),
            },
            tags::Completing::Option => module.and_then(Module::db).map_or_else(Vec::new, |db| {
                tags::name_items(navigate::option_names(db), "option named in the module")
            }),
            tags::Completing::Group { kind, anchor, line } => {
                match (module.and_then(Module::db), path) {
                    (Some(db), Some(path)) => tags::name_items(
                        navigate::group_names(db, &path, &anchor, line, kind),
                        match kind {
                            "virtual" => "group of the package",
                            _ => "union of the struct",
                        },
                    ),
                    _ => Vec::new(),
                }
            }
            tags::Completing::Json { tag, anchor, line } => {
                match (module.and_then(Module::db), path) {
                    (Some(db), Some(path)) => {
                        tags::json_items(navigate::json_names(db, &path, &anchor, line, tag))
                    }
                    _ => Vec::new(),
                }
            }
        };
        if let Some(range) = word {
            for i in &mut items {
                if i.text_edit.is_none() {
                    let new_text = i.insert_text.clone().unwrap_or_else(|| i.label.clone());
                    i.text_edit = Some(lsp_types::CompletionTextEdit::Edit(lsp_types::TextEdit {
                        range,
                        new_text,
                    }));
                }
            }
        }
        items
    }

    /// Runs `f` on the database of the module of document `pos` names, with the document's path and the byte
    /// offset of the position in the text the database holds — after checking the module first when the buffer
    /// is not that text (an edit still in its debounce) — and turns its spots into locations.
    /// The module root and path of document `uri`, its module checked on the buffer's text first when an edit is
    /// still waiting for its check (a request answers what the buffer says now, not what it said before the edit).
    fn checked_now(&mut self, uri: &Url) -> Option<(String, String)> {
        let doc = self.docs.get(uri)?;
        let (path, text) = (doc.path.clone()?, doc.text.clone());
        let root = module_of(&path)?;
        let stale = self.modules.get(&root).is_none_or(|m| {
            m.db()
                .is_none_or(|db| navigate::text_of(db, &path).is_none_or(|t| *t != text))
        });
        if stale || self.pending.contains_key(&root) {
            let p = self.pending.remove(&root).unwrap_or(Pending {
                full: !self.modules.get(&root).is_some_and(|m| m.checked),
                paths: BTreeSet::from([path.clone()]),
            });
            self.check(&root, &p);
        }
        Some((root, path))
    }

    fn navigate(
        &mut self,
        pos: &lsp_types::TextDocumentPositionParams,
        f: impl FnOnce(&dyn vgc_ir::Db, &str, usize) -> Vec<navigate::Spot>,
    ) -> Vec<lsp_types::Location> {
        let Some((root, path)) = self.checked_now(&pos.text_document.uri) else {
            return Vec::new();
        };
        let Some(db) = self.modules.get(&root).and_then(Module::db) else {
            return Vec::new();
        };
        let Some(checked) = navigate::text_of(db, &path) else {
            return Vec::new();
        };
        let at = position::offset(&checked, pos.position);
        f(db, &path, at)
            .into_iter()
            .filter_map(|s| {
                let uri = self.uri_for(s.file.path(db))?;
                Some(lsp_types::Location {
                    uri,
                    range: position::range(s.file.text(db), &s.span),
                })
            })
            .collect()
    }

    /// The declaration of a type the loaded program does not hold ([`navigate::unloaded_type`]), after
    /// [`Server::navigate`] found nothing (it ran the check the position needed).
    fn unloaded_definition(
        &self,
        pos: &lsp_types::TextDocumentPositionParams,
    ) -> Option<lsp_types::Location> {
        let path = self.docs.get(&pos.text_document.uri)?.path.clone()?;
        let root = module_of(&path)?;
        let db = self.modules.get(&root).and_then(Module::db)?;
        let checked = navigate::text_of(db, &path)?;
        let at = position::offset(&checked, pos.position);
        let found = navigate::unloaded_type(db, &path, at, &root)?;
        Some(lsp_types::Location {
            uri: self.uri_for(&found.path)?,
            range: position::range(&found.text, &found.span),
        })
    }

    /// The diagnostics last published for `uri`, with their quick fixes.
    fn published(&self, uri: &Url) -> Vec<actions::Fixable> {
        self.modules
            .values()
            .find_map(|m| m.published.get(uri).cloned())
            .unwrap_or_default()
    }

    /// `workspace/executeCommand`: `vgc.explain CODE` returns `vgc explain CODE`'s text and shows it as a message.
    fn execute(&self, p: &lsp_types::ExecuteCommandParams) -> Result<serde_json::Value, String> {
        if p.command != actions::EXPLAIN {
            return Err(format!("unknown command {:?}", p.command));
        }
        let Some(arg) = p.arguments.first().and_then(serde_json::Value::as_str) else {
            return Err(format!(
                "{}: give a diagnostic code (VGCnnnn)",
                actions::EXPLAIN
            ));
        };
        let code = vgc_ir::Code::parse(&arg.to_ascii_uppercase()).ok_or_else(|| {
            format!(
                "{}: {arg} is not a vgc diagnostic code (`vgc docs --format diagnostics-markdown` lists them)",
                actions::EXPLAIN
            )
        })?;
        let text = crate::explain::code_text(code);
        self.notify::<lsp_types::notification::ShowMessage>(lsp_types::ShowMessageParams {
            typ: lsp_types::MessageType::INFO,
            message: text.clone(),
        });
        Ok(serde_json::Value::String(text))
    }

    /// The capabilities; schedules a full check of every workspace folder inside a Go module.
    fn initialize(&mut self, params: &InitializeParams) -> serde_json::Value {
        self.watch_files = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        #[allow(deprecated)] // `rootUri`: clients without workspace folders still send it.
        let folders: Vec<Url> = params
            .workspace_folders
            .as_ref()
            .map(|f| f.iter().map(|w| w.uri.clone()).collect())
            .or_else(|| params.root_uri.clone().map(|u| vec![u]))
            // `rootPath`: the oldest clients' only root.
            .or_else(|| {
                params
                    .root_path
                    .as_deref()
                    .and_then(|p| Url::from_file_path(p).ok())
                    .map(|u| vec![u])
            })
            .unwrap_or_default();
        for f in folders {
            let root = f
                .to_file_path()
                .ok()
                .and_then(|p| vgc_driver::go::module_root(&p))
                .and_then(|r| vgc_driver::target::resolve(r.to_str()).ok());
            if let Some(root) = root {
                self.schedule(&root, None, true, Duration::ZERO);
            }
        }
        let caps = ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::FULL),
                    save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![":".into(), "=".into(), "(".into()]),
                ..CompletionOptions::default()
            }),
            definition_provider: Some(lsp_types::OneOf::Left(true)),
            references_provider: Some(lsp_types::OneOf::Left(true)),
            code_action_provider: Some(lsp_types::CodeActionProviderCapability::Options(
                lsp_types::CodeActionOptions {
                    code_action_kinds: Some(vec![lsp_types::CodeActionKind::QUICKFIX]),
                    ..lsp_types::CodeActionOptions::default()
                },
            )),
            execute_command_provider: Some(lsp_types::ExecuteCommandOptions {
                commands: vec![actions::EXPLAIN.into()],
                ..lsp_types::ExecuteCommandOptions::default()
            }),
            ..ServerCapabilities::default()
        };
        serde_json::to_value(InitializeResult {
            capabilities: caps,
            server_info: Some(ServerInfo {
                name: "vgc".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        })
        .unwrap_or_default()
    }

    /// Runs `f` on the text of document `uri` with its module's profile and tag prefix (the defaults outside a
    /// module); `None` for a document that is not open.
    fn with_doc<T>(
        &mut self,
        uri: &Url,
        f: impl FnOnce(&str, Upstream, &TagPrefix) -> T,
    ) -> Option<T> {
        let root = self.docs.get(uri)?.path.as_deref().and_then(module_of);
        let (release, prefix) = match root {
            Some(root) => {
                let m = self.module(&root);
                (m.release, m.req.tag_prefix.clone())
            }
            None => (Upstream::NEWEST, TagPrefix::default()),
        };
        Some(f(&self.docs.get(uri)?.text, release, &prefix))
    }

    fn notification(&mut self, n: Notification) {
        use lsp_types::notification::{
            DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
            DidOpenTextDocument, DidSaveTextDocument, Initialized,
        };
        let debounce = self.opts.debounce;
        match n.method.as_str() {
            Initialized::METHOD if self.watch_files => self.register_watchers(),
            DidChangeWatchedFiles::METHOD => {
                let Some(p) = params::<lsp_types::DidChangeWatchedFilesParams>(&n.method, n.params)
                else {
                    return;
                };
                for change in p.changes {
                    self.file_changed(&change, debounce);
                }
            }
            DidOpenTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidOpenTextDocumentParams>(&n.method, n.params)
                else {
                    return;
                };
                let path = doc_path(&p.text_document.uri);
                let version = p.text_document.version;
                self.set_text(
                    p.text_document.uri,
                    path,
                    p.text_document.text,
                    version,
                    debounce,
                );
            }
            DidChangeTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidChangeTextDocumentParams>(&n.method, n.params)
                else {
                    return;
                };
                if p.content_changes.is_empty() {
                    return;
                }
                let uri = p.text_document.uri;
                let version = p.text_document.version;
                // Full synchronisation is what the server asks for; a client that sends ranges anyway has them
                // applied in order to the buffer (a change without a range replaces it whole).
                let mut text = self
                    .docs
                    .get(&uri)
                    .map(|d| d.text.clone())
                    .unwrap_or_default();
                for change in p.content_changes {
                    match change.range {
                        Some(r) => {
                            let start = position::offset(&text, r.start);
                            let end = position::offset(&text, r.end).max(start);
                            text.replace_range(start..end, &change.text);
                        }
                        None => text = change.text,
                    }
                }
                let path = match self.docs.get(&uri) {
                    // A change older than the buffer (a client resending, or reordering): dropped.
                    Some(d) if version <= d.version => {
                        log(&format!(
                            "{uri}: dropped the stale change to version {version} (at {})",
                            d.version
                        ));
                        return;
                    }
                    Some(d) => d.path.clone(),
                    None => doc_path(&uri),
                };
                self.set_text(uri, path, text, version, debounce);
            }
            DidSaveTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidSaveTextDocumentParams>(&n.method, n.params)
                else {
                    return;
                };
                if let Some(path) = self
                    .docs
                    .get(&p.text_document.uri)
                    .and_then(|d| d.path.clone())
                    && let Some(root) = module_of(&path)
                {
                    self.schedule(&root, Some(path), true, debounce);
                }
            }
            DidCloseTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidCloseTextDocumentParams>(&n.method, n.params)
                else {
                    return;
                };
                if let Some(doc) = self.docs.remove(&p.text_document.uri)
                    && let Some(path) = doc.path
                {
                    self.texts.remove(&path);
                    self.fresh.insert(path.clone());
                    if let Some(root) = module_of(&path) {
                        self.schedule(&root, Some(path), false, debounce);
                    }
                }
            }
            _ => {}
        }
    }

    /// Asks the client to report changes of the files a check reads (`client/registerCapability` of
    /// `workspace/didChangeWatchedFiles`): Go files, `go.mod` and `vgc.toml` anywhere in the workspace.
    fn register_watchers(&mut self) {
        let watchers = ["**/*.go", "**/go.mod", "**/vgc.toml"]
            .into_iter()
            .map(|glob| lsp_types::FileSystemWatcher {
                glob_pattern: lsp_types::GlobPattern::String(glob.into()),
                kind: None,
            })
            .collect();
        let options = lsp_types::DidChangeWatchedFilesRegistrationOptions { watchers };
        let params = lsp_types::RegistrationParams {
            registrations: vec![lsp_types::Registration {
                id: "vgc-watched-files".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.next_request += 1;
        self.send(lsp_server::Request::new(
            lsp_server::RequestId::from(self.next_request),
            "client/registerCapability".into(),
            params,
        ));
    }

    /// A file changed outside the editor (a `git checkout`, a generator, another editor): a Go file's module is
    /// checked again — only that file when it changed, a full load when it was created or deleted (discovery
    /// changes) — and a `go.mod` or `vgc.toml` starts its module over (profile, tag prefix, lint settings) with a full
    /// check. A file open in a buffer is not read from disk: the buffer is what is checked.
    fn file_changed(&mut self, change: &lsp_types::FileEvent, debounce: Duration) {
        let Ok(file) = change.uri.to_file_path() else {
            return;
        };
        let path = doc_path(&change.uri).unwrap_or_else(|| file.to_string_lossy().into_owned());
        if self.texts.contains_key(&path) {
            return;
        }
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(root) = module_of(&path) else {
            return;
        };
        match name {
            "go.mod" | "vgc.toml" => {
                // The module's request is built from them: a new module, keeping what was published (cleared or
                // replaced by the check).
                let published = self
                    .modules
                    .remove(&root)
                    .map(|m| m.published)
                    .unwrap_or_default();
                self.module(&root).published = published;
                self.schedule(&root, None, true, debounce);
            }
            _ if name.ends_with(".go") => {
                let full = change.typ != lsp_types::FileChangeType::CHANGED;
                self.schedule(&root, Some(path), full, debounce);
            }
            _ => {}
        }
    }

    /// The module at `root`, created on first use; the problems of its options and `vgc.toml` are shown to the
    /// user then (`window/showMessage`, a warning) and logged.
    fn module(&mut self, root: &str) -> &mut Module {
        if !self.modules.contains_key(root) {
            let (module, problems) = Module::new(root, &self.opts);
            for p in problems {
                log(&format!("{root}: {p}"));
                self.notify::<lsp_types::notification::ShowMessage>(lsp_types::ShowMessageParams {
                    typ: lsp_types::MessageType::WARNING,
                    message: format!("vgc: {p}"),
                });
            }
            self.modules.insert(root.to_string(), module);
        }
        self.modules.get_mut(root).expect("inserted above")
    }

    /// A document's new text: kept for hover and completion, laid over the file and its module's check scheduled.
    fn set_text(
        &mut self,
        uri: Url,
        path: Option<String>,
        text: String,
        version: i32,
        debounce: Duration,
    ) {
        if let Some(p) = &path {
            self.texts.insert(p.clone(), text.clone());
            self.fresh.remove(p);
            if let Some(root) = module_of(p) {
                self.schedule(&root, Some(p.clone()), false, debounce);
            } else if p.ends_with(".go") && self.outside.insert(p.clone()) {
                let message = format!(
                    "vgc: {p} is in no Go module (no go.mod in its directory or above): its tags are not checked"
                );
                log(&message);
                self.notify::<lsp_types::notification::ShowMessage>(lsp_types::ShowMessageParams {
                    typ: lsp_types::MessageType::INFO,
                    message,
                });
            }
        }
        self.docs.insert(
            uri,
            Doc {
                path,
                text,
                version,
            },
        );
    }

    fn schedule(&mut self, root: &str, path: Option<String>, full: bool, after: Duration) {
        let p = self.pending.entry(root.to_string()).or_default();
        p.full |= full || !self.modules.get(root).is_some_and(|m| m.checked);
        p.paths.extend(path);
        self.deadline = Some(Instant::now() + after);
    }

    fn run_pending(&mut self) {
        self.deadline = None;
        for (root, p) in std::mem::take(&mut self.pending) {
            self.check(&root, &p);
        }
    }

    /// Checks the module at `root` and publishes its diagnostics.
    fn check(&mut self, root: &str, p: &Pending) {
        self.module(root);
        let Some(module) = self.modules.get_mut(root) else {
            return;
        };
        let sys = overlay::Overlay {
            base: &vgc_driver::sys::OsSystem,
            texts: &self.texts,
            fresh: &self.fresh,
        };
        let paths: Vec<String> = p.paths.iter().cloned().collect();
        let full = p.full;
        // The edited files' texts as last checked, to carry their lint results across the edit (below).
        let before: BTreeMap<String, std::sync::Arc<String>> = module
            .db()
            .map(|db| {
                paths
                    .iter()
                    .filter_map(|f| navigate::text_of(db, f).map(|t| (f.clone(), t)))
                    .collect()
            })
            .unwrap_or_default();
        let clock = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            if full {
                module.session.build_with(&module.req, &sys)
            } else {
                module.session.build_after_with(&module.req, &paths, &sys)
            }
        }));
        let outcome = match outcome {
            Ok(o) => o,
            Err(panic) => {
                log(&format!(
                    "{root}: the check panicked ({}); its session starts over",
                    panic_text(&*panic)
                ));
                module.session = Session::default();
                module.checked = false;
                return;
            }
        };
        module.checked = true;
        let prefix = format!("{}/", root.trim_end_matches('/'));
        self.fresh.retain(|f| !f.starts_with(&prefix));
        if let Some(profile) = &outcome.profile {
            module.release = profile.version;
        }
        if let Some(e) = &outcome.io_error {
            log(&format!("{root}: {e}"));
        }
        let mut outcome = outcome;
        let checked = clock.elapsed();
        let mut published = std::mem::take(&mut module.published);
        let lint_on = outcome.profile.is_some() && !module.lint.upstream_only;
        // Two publications after an edit: first the check's diagnostics with the last lint results — those of the
        // files not edited as they were, those of an edited file moved across the edit (dropped where they touch
        // the text it changed) — then, vgc's lint rules run over the whole module, everything; the second sends
        // only the files whose diagnostics changed. An error appears without waiting for the lint rules, and a
        // warning the edit did not touch stays in place throughout (no flicker).
        if lint_on && !full {
            let mut first = outcome.diagnostics.clone();
            let module = &self.modules[root];
            // Each edited file's edit, found once.
            let edits: BTreeMap<&String, Edited> = before
                .iter()
                .filter_map(|(f, old)| {
                    let now = module.db().and_then(|db| navigate::text_of(db, f))?;
                    Some((f, Edited::between(old, &now)))
                })
                .collect();
            first.extend(module.lint_last.iter().filter_map(|d| {
                let f = d.file.as_ref()?;
                if !p.paths.contains(f) {
                    return Some(d.clone());
                }
                edits.get(f)?.carry(d)
            }));
            sort_diagnostics(&mut first);
            published = self.publish(root, &first, &outcome.sources, &published);
        }
        let first_published = clock.elapsed();
        let lint = match self.modules.get(root) {
            Some(m) if lint_on => lint_rules(m),
            _ => Vec::new(),
        };
        let linted = clock.elapsed();
        outcome.diagnostics.extend(lint.iter().cloned());
        sort_diagnostics(&mut outcome.diagnostics);
        let now = self.publish(root, &outcome.diagnostics, &outcome.sources, &published);
        if let Some(m) = self.modules.get_mut(root) {
            m.plan = std::mem::take(&mut outcome.plan);
            m.lint_last = lint;
            m.published = now;
        }
        if self.opts.timings {
            let phases: Vec<String> = outcome
                .timings
                .iter()
                .map(|(n, d)| format!("{n} {:.1}", d.as_secs_f64() * 1e3))
                .collect();
            log(&format!(
                "{root}: {} check {:.1} ms ({}), first publish {:.1} ms, lint {:.1} ms, publish {:.1} ms",
                if full { "full" } else { "incremental" },
                checked.as_secs_f64() * 1e3,
                phases.join(", "),
                (first_published - checked).as_secs_f64() * 1e3,
                (linted - first_published).as_secs_f64() * 1e3,
                (clock.elapsed() - linted).as_secs_f64() * 1e3,
            ));
        }
    }

    /// The URI of file `path` as the client spells it when the file is open (clients differ in what they
    /// percent-encode, `@` of a module-cache path for one), else as a `file:` URI of the path.
    fn uri_for(&self, path: &str) -> Option<Url> {
        self.docs
            .iter()
            .find(|(_, d)| d.path.as_deref() == Some(path))
            .map(|(u, _)| u.clone())
            .or_else(|| Url::from_file_path(path).ok())
    }

    /// Publishes `diagnostics` (sorted by file) per file (those without a file on the module's `go.mod`) and clears
    /// the files of `before` that have none now; returns the files published with diagnostics and their fixes. A
    /// file whose diagnostics are those of `before` is not sent again; one whose buffer is the text checked is
    /// published with the buffer's version. Texts come from the module's database (what was checked), else
    /// `sources`, the buffers or the disk.
    fn publish(
        &self,
        root: &str,
        diagnostics: &[vgc_ir::Diagnostic],
        sources: &BTreeMap<String, String>,
        before: &BTreeMap<Url, Vec<actions::Fixable>>,
    ) -> BTreeMap<Url, Vec<actions::Fixable>> {
        let gomod = format!("{}/go.mod", root.trim_end_matches('/'));
        let db = self.modules.get(root).and_then(Module::db);
        // The diagnostics of each file, in order.
        let mut by_file: BTreeMap<&str, Vec<&vgc_ir::Diagnostic>> = BTreeMap::new();
        for d in diagnostics {
            by_file
                .entry(d.file.as_deref().unwrap_or(&gomod))
                .or_default()
                .push(d);
        }
        let by_file: Vec<(&str, std::sync::Arc<String>, Vec<actions::Fixable>)> = by_file
            .into_iter()
            .map(|(file, diags)| {
                let text = db
                    .and_then(|db| navigate::text_of(db, file))
                    .or_else(|| sources.get(file).map(|t| std::sync::Arc::new(t.clone())))
                    .or_else(|| self.texts.get(file).map(|t| std::sync::Arc::new(t.clone())))
                    .or_else(|| std::fs::read_to_string(file).ok().map(std::sync::Arc::new))
                    .unwrap_or_default();
                let lines = position::LineIndex::new(&text);
                let items = diags.into_iter().map(|d| fixable(d, &lines)).collect();
                (file, text, items)
            })
            .collect();
        let mut now = BTreeMap::new();
        for (file, text, items) in by_file {
            let Some(uri) = self.uri_for(file) else {
                continue;
            };
            let diagnostics: Vec<lsp_types::Diagnostic> =
                items.iter().map(|i| i.diagnostic.clone()).collect();
            // A file whose diagnostics are the ones it has is not published again (a check of k8s.io/api has
            // warnings in 34 files; a keystroke in one changes that one).
            let same = before.get(&uri).is_some_and(|b| {
                b.len() == diagnostics.len()
                    && b.iter().zip(&diagnostics).all(|(x, y)| x.diagnostic == *y)
            });
            if !same {
                let version = self
                    .docs
                    .get(&uri)
                    .filter(|d| d.text == *text)
                    .map(|d| d.version);
                self.notify::<lsp_types::notification::PublishDiagnostics>(
                    PublishDiagnosticsParams {
                        uri: uri.clone(),
                        diagnostics,
                        version,
                    },
                );
            }
            now.insert(uri, items);
        }
        for uri in before.keys().filter(|u| !now.contains_key(*u)) {
            self.notify::<lsp_types::notification::PublishDiagnostics>(PublishDiagnosticsParams {
                uri: uri.clone(),
                diagnostics: Vec::new(),
                version: self.docs.get(uri).map(|d| d.version),
            });
        }
        now
    }
}

/// Diagnostic `d` as published (its hint on a line of its own, its range in UTF-16 units of `lines`' text; a
/// diagnostic without a file at the start of `go.mod`), with its quick fixes.
fn fixable(d: &vgc_ir::Diagnostic, lines: &position::LineIndex<'_>) -> actions::Fixable {
    let range = if d.file.is_some() {
        lines.range(&d.span)
    } else {
        lsp_types::Range::default()
    };
    let message = match &d.hint {
        Some(h) => format!("{}\nhint: {h}", clipped(&d.message)),
        None => clipped(&d.message),
    };
    let edits = if d.file.is_some() {
        actions::fixes(d, lines)
    } else {
        Vec::new()
    };
    actions::Fixable {
        diagnostic: lsp_types::Diagnostic {
            range,
            severity: Some(match d.severity {
                vgc_ir::Severity::Error => DiagnosticSeverity::ERROR,
                vgc_ir::Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.as_str().into())),
            source: Some("vgc".into()),
            message,
            ..lsp_types::Diagnostic::default()
        },
        edits,
    }
}

/// What an edit changed in a file's text: the bytes `prefix..changed_end` of the old text (between the longest common
/// prefix and suffix of the two texts) became others, and the text's length changed by `new_len - old_len`.
struct Edited {
    prefix: usize,
    changed_end: usize,
    old_len: usize,
    new_len: usize,
}

impl Edited {
    /// The edit that made `new` of `old` (one pass over the common prefix and suffix).
    fn between(old: &str, new: &str) -> Self {
        let (o, n) = (old.as_bytes(), new.as_bytes());
        let prefix = o
            .iter()
            .zip(n)
            .position(|(a, b)| a != b)
            .unwrap_or(o.len().min(n.len()));
        let room = o.len().min(n.len()) - prefix;
        let suffix = o
            .iter()
            .rev()
            .zip(n.iter().rev())
            .take(room)
            .position(|(a, b)| a != b)
            .unwrap_or(room);
        Self {
            prefix,
            changed_end: o.len() - suffix,
            old_len: o.len(),
            new_len: n.len(),
        }
    }

    /// Diagnostic `d` of the old text moved into the new one: its span (and its fix's) shifted by the length change
    /// when it lies after the edited region, kept when before it, `None` when it touches it.
    fn carry(&self, d: &vgc_ir::Diagnostic) -> Option<vgc_ir::Diagnostic> {
        let moved = |r: &std::ops::Range<usize>| -> Option<std::ops::Range<usize>> {
            if r.end < self.prefix || (r.end == self.prefix && r.start < self.prefix) {
                Some(r.clone())
            } else if r.start > self.changed_end
                || (r.start == self.changed_end && r.end > self.changed_end)
            {
                let shift = |x: usize| x + self.new_len - self.old_len;
                Some(shift(r.start)..shift(r.end))
            } else {
                None
            }
        };
        let mut d = d.clone();
        d.span = moved(&d.span)?;
        if let Some(fix) = &mut d.fix {
            fix.span = moved(&fix.span)?;
        }
        Some(d)
    }
}

/// At most [`MESSAGE_CHARS`] characters of a diagnostic's message, with how many were left out: a message quotes
/// what was written (a tag value of a million digits), and an editor shows it whole in a popup.
fn clipped(message: &str) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        None => message.to_string(),
        Some((at, _)) => format!(
            "{}… ({} more characters)",
            &message[..at],
            message[at..].chars().count()
        ),
    }
}

/// The longest diagnostic message published whole ([`clipped`]).
const MESSAGE_CHARS: usize = 2_000;

/// vgc's own lint rules (`vgc lint`'s, on the module's live database) with `vgc.toml`'s severities (a rule set to
/// `allow` dropped), their texts under the tag prefix, their spans resolved and their `vgc:ignore` suppressions
/// applied.
fn lint_rules(module: &Module) -> Vec<vgc_ir::Diagnostic> {
    let db = module.session.db();
    let prog = vgc_analysis::loaded_program(db);
    let prefix = &module.req.tag_prefix;
    let mut diags: Vec<vgc_ir::Diagnostic> = vgc_analysis::lint::vgc_rules(db, prog)
        .into_iter()
        .filter_map(|mut d| match module.lint.severities.get(&d.code) {
            Some(None) => None,
            Some(Some(s)) => {
                d.severity = *s;
                Some(d)
            }
            None => Some(d),
        })
        .map(|mut d| {
            d.message = prefix.requalify(&d.message);
            d.hint = d.hint.map(|h| prefix.requalify(&h));
            d
        })
        .collect();
    if diags.is_empty() {
        return diags;
    }
    vgc_ir::db::resolve_spans(db, &mut diags);
    // Suppressions are read from the files that hold a `vgc:ignore` (the others are not copied).
    let mut sources = BTreeMap::new();
    for d in &diags {
        if let Some(f) = &d.file
            && !sources.contains_key(f)
            && let Some(t) = navigate::text_of(db, f)
            && t.contains("vgc:ignore")
        {
            sources.insert(f.clone(), (*t).clone());
        }
    }
    vgc_analysis::lint::apply_suppressions(diags, &sources)
}

/// Sorts diagnostics by file, position and code, as the driver sorts a check's.
fn sort_diagnostics(diags: &mut [vgc_ir::Diagnostic]) {
    diags.sort_by(|a, b| {
        (&a.file, a.span.start, a.code.as_str()).cmp(&(&b.file, b.span.start, b.code.as_str()))
    });
}

/// The range of the word ending at `pos` in `text` — letters, digits, `-`, `_`, `.` and `/` (a format name such as
/// `k8s-short-name`, a JSON name, a tag name) — as LSP positions (UTF-16 columns), empty when none is typed.
fn word_before(text: &str, pos: lsp_types::Position) -> lsp_types::Range {
    let line = text
        .split('\n')
        .nth(usize::try_from(pos.line).unwrap_or(usize::MAX))
        .unwrap_or("")
        .trim_end_matches('\r');
    // The characters before the position, by UTF-16 column.
    let mut col = 0u32;
    let mut before = Vec::new();
    for c in line.chars() {
        let w = u32::try_from(c.len_utf16()).unwrap_or(1);
        if col + w > pos.character {
            break;
        }
        before.push(c);
        col += w;
    }
    let typed: u32 = before
        .iter()
        .rev()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        .map(|c| u32::try_from(c.len_utf16()).unwrap_or(1))
        .sum();
    lsp_types::Range {
        start: lsp_types::Position {
            line: pos.line,
            character: col - typed,
        },
        end: lsp_types::Position {
            line: pos.line,
            character: col,
        },
    }
}
