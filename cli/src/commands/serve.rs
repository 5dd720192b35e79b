//! The build server: `vgc validation-gen --serve …` keeps one live [`Session`] (one salsa database: every file's
//! syntax and IR, every type's plan, the last Go files) and builds that command again each time a `vgc
//! validation-gen` (or `vgc build`) with the same request asks over a Unix socket, so a rerun of
//! `hack/update-codegen.sh` after a tag edit re-parses one file and re-lowers and re-prints what reads it, instead of
//! loading the tree from files and caches. What a client prints and its exit code are the one-shot build's (the
//! server renders the report with the client's `--short`/`--color`/`--timings` and sends the bytes back), plus one
//! note naming the server — but for the up-to-date line (a server build with nothing changed says it wrote 0 files)
//! and the phases `--timings` lists.
//!
//! **Which requests a server takes.** Exactly those whose [`Key`] equals its own: the resolved [`BuildRequest`]
//! (absolute paths, packages, Go target settings, options, profile, tag prefix), the environment the load reads
//! (`GOMODCACHE`, `GOPATH`, `HOME`, `GOFLAGS`, through [`vgc_driver::request_key`]), the year (`YEAR` of the header),
//! and the vgc executable's size and modification time — a rebuilt vgc never hands its builds to an older
//! server. Any other request is refused naming the first part that differs ([`Key::first_difference`]), and the
//! client builds in its own process, after a note.
//! No server (no socket, or a socket no process answers: a server killed with `kill -9`) means a one-shot build,
//! silently.
//!
//! **What a server build sees.** The files as they are when the request arrives. The server watches the Go module
//! root (notify: inotify, FSEvents, …) and, on a request, writes a *cookie* file into its state directory and
//! reads the watcher's events up to the cookie's own (a watcher reports one directory tree's events in order, so
//! every change made before the request is then known — watchman's cookies). When every change is a write to a
//! Go source (the Go target's own outputs and `.vgc/` left out, as `vgc watch` leaves them out), the build is
//! [`Session::build_after`] those files: no directory walk, no other file read (and discovery after all when one is
//! new, changed its package clause or imports, or is left out by a new `//go:build` line). Otherwise — any other
//! change (`go.mod`, a removal, a directory, a symbolic link, `vgc.toml`), an error or overflow of the watcher, a
//! cookie that does not come back within 2 s, or the first request — and for good once a loaded file lies outside
//! the watched tree (but for the read-only Go module cache) or is reached through a symbolic link (the watcher sees
//! the link, not its target's edits) — the build runs discovery again ([`Session::build`]), which reads every file whose size
//! or change time differs from what it last read (a file changed within the last 2 s is read again whatever its
//! stamp: `vgc_analysis::System::settled_stamp`). The header file and the fixtures' allowlist are read by every
//! build. The build takes the output directory's lock as a one-shot build does, so a server and one-shot builds of
//! the same tree never interleave their writes. The server does not update the one-shot build's manifest and IR
//! cache: a one-shot build after the server stops rebuilds what changed since its own last run.
//!
//! **Where the socket is.** `<out>/.vgc/serve.sock` (for the Go target `<out>` is the Go module root), or — when that
//! path is longer than a Unix socket address allows — `serve-<hash of it>.sock` in `vgc-<effective uid>/` of the
//! temporary directory, which the server makes mode 0700 and refuses when another user owns it or others may write
//! to it. The socket is created with mode 0600; a client asks only a socket its own user owns. The server removes it
//! when it stops on `SIGINT`/`SIGTERM`, and stops (exit 1) when the socket, the module root or its `.vgc/` is
//! removed or replaced by anything else (`rm -rf .vgc`, `git clean -xdf`, the tree deleted): no client could reach
//! it, or the tree it serves is gone.
//!
//! **Waiting.** A server takes each connection on a thread of its own, answers `Queued` at once and then `Alive`
//! every [`HEARTBEAT`] until the build's `Built`; builds run one at a time in the order taken. A client that hears
//! nothing for [`QUEUE_TIMEOUT`] after asking, or for [`SILENCE_TIMEOUT`] after that (a stopped or wedged server),
//! builds in its own process after a note.
//!
//! The protocol is JSON lines ([`Ask`], then [`Answer`]s); it is private to one vgc executable (both sides check the
//! executable's identity), so it has no compatibility promise.

use super::build::{Style, report_to};
use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use vgc_driver::{BuildRequest, Session};

/// What identifies a build a server may run for a client (see the module docs): named parts, compared in order, so
/// a refusal can say what differs; the last ones catch everything the named ones leave out.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Key(Vec<(String, String)>);

impl Key {
    fn of(req: &BuildRequest) -> Self {
        let env = ["GOMODCACHE", "GOPATH", "HOME", "GOFLAGS"]
            .map(|v| format!("{v}={:?}", std::env::var_os(v)))
            .join(" ");
        let parts: [(&str, String); 10] = [
            (
                "the vgc executable (rebuilt, or another one)",
                vgc_driver::cache::tool_fingerprint(),
            ),
            (
                "the environment the load reads (GOMODCACHE, GOPATH, HOME, GOFLAGS)",
                env,
            ),
            (
                "the input packages",
                format!("{:?} {:?}", req.path, req.packages),
            ),
            (
                "the upstream profile (--upstream, vgc.toml's [upstream] or what go.mod gives)",
                format!("{:?}", req.upstream),
            ),
            (
                "--output-file, --go-header-file or the --test-* flags (paths as given)",
                format!("{:?}", req.go),
            ),
            (
                "--force, --no-cache or --cache-dir",
                format!("{} {} {:?}", req.force, req.no_cache, req.cache_dir),
            ),
            (
                "--tag-prefix or --validation-extensions-file",
                format!("{:?} {:?}", req.tag_prefix, req.extension_files),
            ),
            ("the module root", format!("{:?}", req.out)),
            ("the rest of the request", format!("{req:?}")),
            (
                "what the build depends on besides (the year of a YEAR header, …)",
                vgc_driver::request_key(req),
            ),
        ];
        Self(parts.into_iter().map(|(n, v)| (n.to_string(), v)).collect())
    }

    /// The name of the first part where `other` differs from this key (`None`: the same).
    fn first_difference(&self, other: &Key) -> Option<String> {
        if self.0.len() != other.0.len() {
            return Some(self.0.first().map_or_else(String::new, |p| p.0.clone()));
        }
        self.0
            .iter()
            .zip(&other.0)
            .find(|(a, b)| a != b)
            .map(|(a, _)| a.0.clone())
    }
}

/// A client's request: the key of its build, how to render the report, and how long the client ran before it
/// asked (so the summary's "in N s" is the client's whole run).
#[derive(serde::Serialize, serde::Deserialize)]
struct Ask {
    key: Key,
    short: bool,
    color: bool,
    timings: bool,
    elapsed_us: u64,
    /// The client's process id, for the server's log line.
    pid: u32,
}

/// The server's answers: `Queued` at once when it takes the request (the client then waits for the build however
/// long it takes), then `Built` with the report's bytes (the client's stderr) and exit code; or `Refused` with why
/// the server does not build it.
#[derive(serde::Serialize, serde::Deserialize)]
enum Answer {
    Queued,
    /// Every [`HEARTBEAT`] while the request waits or builds.
    Alive,
    Built {
        stderr: String,
        exit: u8,
    },
    Refused {
        reason: String,
    },
}

/// How often a server tells a client whose request it took that it is still at it ([`Answer::Alive`]).
const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long a client whose request was taken waits for a sign of life before it builds in its own process: a server
/// stopped or wedged mid-build sends none.
const SILENCE_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest request line a server reads, in bytes: a request is a few kilobytes.
const MAX_REQUEST_BYTES: u64 = 1 << 20;

/// How long a client waits for a server to take its request (`Answer::Queued`) before it builds in its own
/// process: a live server answers at once, even while it builds for another client; one stopped (`SIGSTOP`, a
/// debugger) or wedged does not.
const QUEUE_TIMEOUT: Duration = Duration::from_secs(3);

/// The longest socket path `sockaddr_un` takes on the platforms vgc supports (Linux 108 bytes with the NUL, macOS
/// 104).
const MAX_SOCKET_PATH: usize = 100;

/// The socket of the server for builds writing to `out` (see the module docs).
fn socket_path(out: &Path) -> PathBuf {
    let abs = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    let beside = abs.join(vgc_driver::output::STATE_DIR).join("serve.sock");
    if beside.as_os_str().len() <= MAX_SOCKET_PATH {
        return beside;
    }
    let hash = blake3::hash(beside.as_os_str().as_encoded_bytes());
    private_dir().join(format!("serve-{}.sock", &hash.to_hex()[..16]))
}

/// `vgc-<effective uid>` in the temporary directory: where the socket of a tree whose `.vgc/serve.sock` would be too
/// long a path lives. The server creates it with mode 0700 and refuses one another user owns or others may write.
fn private_dir() -> PathBuf {
    std::env::temp_dir().join(format!("vgc-{}", nix::unistd::geteuid()))
}

/// True when `path` (not followed if a link) belongs to this process's effective user.
fn ours(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.uid() == nix::unistd::geteuid().as_raw())
}

/// True when the build server is not to be asked: `VGC_NO_SERVER` set to anything but empty or `0`.
fn disabled_by_env() -> bool {
    std::env::var_os("VGC_NO_SERVER").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Asks the server of `req`'s output directory (if one is running) to build `req`; the exit code when it did, after
/// writing its report to stderr. `None` — build here — when `req` writes nothing (check-only, no output directory),
/// `VGC_NO_SERVER` is set, no server answers, or the server refused (a note on stderr says why: it serves another
/// command or another vgc executable).
pub(crate) fn ask(
    req: &BuildRequest,
    style: Style,
    timings: bool,
    start: Instant,
) -> Option<ExitCode> {
    if req.check_only || disabled_by_env() {
        return None;
    }
    let out = req.out.as_deref()?;
    let sock = socket_path(out);
    // No socket file: no server (the common case costs one failed `stat`).
    if std::fs::symlink_metadata(&sock).is_err() {
        return None;
    }
    if !ours(&sock) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "note: {} belongs to another user; building in this process without asking it",
            sock.display()
        );
        return None;
    }
    let stream = UnixStream::connect(&sock).ok()?;
    let answer = exchange(
        stream,
        &Ask {
            key: Key::of(req),
            short: style.short,
            color: style.color,
            timings,
            elapsed_us: u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
            pid: std::process::id(),
        },
    );
    let mut stderr = std::io::stderr().lock();
    match answer {
        Ok(Answer::Built { stderr: text, exit }) => {
            let _ = stderr.write_all(text.as_bytes());
            Some(ExitCode::from(exit))
        }
        Ok(Answer::Refused { reason }) => {
            // `reason` reads on from "the vgc build server at SOCKET".
            let _ = writeln!(
                stderr,
                "note: the vgc build server at {} {reason}; building in this process",
                sock.display()
            );
            None
        }
        other => {
            let e = match other {
                Err(e) => e,
                _ => "it answered out of order".to_string(),
            };
            let _ = writeln!(
                stderr,
                "note: the vgc build server at {} did not answer ({e}); building in this process",
                sock.display()
            );
            None
        }
    }
}

/// Sends `ask` over `stream` and reads the answers: the first within [`QUEUE_TIMEOUT`], then — once the server has
/// queued the request — the build's, without a limit (a cold build of a big tree takes seconds; a server that dies
/// mid-build closes the stream, which ends the read).
fn exchange(stream: UnixStream, ask: &Ask) -> Result<Answer, String> {
    let mut line = serde_json::to_string(ask).map_err(|e| e.to_string())?;
    line.push('\n');
    (&stream)
        .write_all(line.as_bytes())
        .map_err(|e| e.to_string())?;
    let _ = stream.set_read_timeout(Some(QUEUE_TIMEOUT));
    let mut reader = BufReader::new(&stream);
    let mut read = |what: &str| -> Result<Answer, String> {
        let mut reply = String::new();
        reader.read_line(&mut reply).map_err(|e| {
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) {
                format!(
                    "it did not {what} within {} s",
                    if what == "take the request" {
                        QUEUE_TIMEOUT
                    } else {
                        SILENCE_TIMEOUT
                    }
                    .as_secs()
                )
            } else {
                e.to_string()
            }
        })?;
        if reply.is_empty() {
            return Err("it closed the connection".into());
        }
        serde_json::from_str(&reply).map_err(|e| format!("unreadable answer: {e}"))
    };
    match read("take the request")? {
        Answer::Queued => {
            let _ = stream.set_read_timeout(Some(SILENCE_TIMEOUT));
            loop {
                match read("give a sign of life")? {
                    Answer::Alive => {}
                    other => return Ok(other),
                }
            }
        }
        other => Ok(other),
    }
}

/// `vgc validation-gen --serve`: builds `req` once (reported as a one-shot build would be), then serves builds of
/// the same request over the socket until `SIGINT`/`SIGTERM`. Exit 2 when the socket cannot be created or another
/// server already answers on it; 0 when stopped by a signal.
pub(crate) fn serve(req: &BuildRequest, style: Style, timings: bool, start: Instant) -> ExitCode {
    let mut stderr = std::io::stderr().lock();
    let Some(out) = req.out.clone().filter(|_| !req.check_only) else {
        let _ = writeln!(stderr, "error: --serve needs a build that writes files");
        return ExitCode::from(2);
    };
    let sock = socket_path(&out);
    let listener = match bind(&sock) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(stderr, "error: {}: {e}", sock.display());
            return ExitCode::from(2);
        }
    };
    remove_on_signal(&sock);
    let key = Key::of(req);
    let mut session = Session::default();
    // Started before the first build: a change made while it runs is an event of the next request.
    let mut changes = Changes::start(&out, req);
    let mut first = session.build(req);
    if let Some(c) = &mut changes {
        c.check_coverage(&first);
    }
    // After the first build, which made `.vgc/` (its lock) if it was not there.
    watch_socket(&sock, &out);
    let code = report_to(
        &mut stderr,
        req,
        &mut first,
        None,
        &mut Vec::new(),
        style,
        timings,
        start,
    );
    drop(first);
    let _ = writeln!(
        stderr,
        "vgc serve: serving builds of this command at {} (pid {}; exit {code} for the first build; Ctrl-C to stop)",
        sock.display(),
        std::process::id()
    );
    drop(stderr);
    // Connections are taken on threads of their own (a slow or silent client holds up no other), queued, and built
    // in turn here.
    let (queue, queued) = std::sync::mpsc::channel::<Queued>();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let (queue, key) = (queue.clone(), key.clone());
            std::thread::spawn(move || take(stream, &key, &queue));
        }
    });
    for q in queued {
        build_for(&mut session, req, &sock, q, changes.as_mut());
        // A watcher given up for good (a link, a file outside the tree) stops: its events would only pile up.
        if changes.as_ref().is_some_and(Changes::given_up) {
            changes = None;
        }
    }
    ExitCode::SUCCESS
}

/// A request the server took: the connection, the client's ask, and when it arrived.
struct Queued {
    stream: std::sync::Arc<std::sync::Mutex<UnixStream>>,
    /// Set once the answer is sent: the heartbeat stops.
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ask: Ask,
    received: Instant,
}

/// Reads one connection's [`Ask`] (for at most 10 s; anything else is dropped), refuses it when its key is not the
/// server's, else answers `Queued` and hands it to the build loop.
fn take(stream: UnixStream, key: &Key, queue: &std::sync::mpsc::Sender<Queued>) {
    let received = Instant::now();
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut line = String::new();
    let dropped = |why: &str| {
        let _ = writeln!(
            std::io::stderr().lock(),
            "vgc serve: dropped a connection: {why}"
        );
    };
    use std::io::Read as _;
    if let Err(e) = BufReader::new((&stream).take(MAX_REQUEST_BYTES)).read_line(&mut line) {
        return dropped(&format!("no request within 10 s ({e})"));
    }
    if line.is_empty() {
        // A connection closed without a word: another `--serve` making sure this server is alive.
        return;
    }
    let ask = match serde_json::from_str::<Ask>(&line) {
        Ok(a) => a,
        Err(e) => return dropped(&format!("not a vgc request ({e})")),
    };
    let answer = match key.first_difference(&ask.key) {
        None => Answer::Queued,
        Some(part) => Answer::Refused {
            reason: format!(
                "serves another command, one that differs in {part} (start a server with this command to serve it)"
            ),
        },
    };
    let stream = std::sync::Arc::new(std::sync::Mutex::new(stream));
    if send(&stream, &answer) && matches!(answer, Answer::Queued) {
        // Signs of life until the build's answer is sent (the lock keeps lines whole).
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (beat, over) = (stream.clone(), done.clone());
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(HEARTBEAT);
                if over.load(std::sync::atomic::Ordering::SeqCst) || !send(&beat, &Answer::Alive) {
                    break;
                }
            }
        });
        let _ = queue.send(Queued {
            stream,
            done,
            ask,
            received,
        });
    }
}

/// Writes `answer` as one line; false when the client is gone.
fn send(stream: &std::sync::Mutex<UnixStream>, answer: &Answer) -> bool {
    let Ok(stream) = stream.lock() else {
        return false;
    };
    serde_json::to_string(answer).is_ok_and(|mut reply| {
        reply.push('\n');
        (&*stream).write_all(reply.as_bytes()).is_ok()
    })
}

/// The changes the server's watcher saw since the last build (see the module docs).
struct Changes {
    /// Kept alive: dropping it stops the events.
    _watcher: notify::RecommendedWatcher,
    events: std::sync::mpsc::Receiver<notify::Result<notify::Event>>,
    /// The watched tree: the Go module root, canonical.
    root: PathBuf,
    /// The directory of the cookie files: `serve.cookie.<n>` is written for the n-th request; its first event
    /// marks the end of what happened before, and it is removed once seen.
    cookie_dir: PathBuf,
    /// How many cookies were written; `u64::MAX` when the watcher is not trusted at all
    /// ([`Changes::check_coverage`]).
    cookies: u64,
    go: Option<vgc_driver::GoTarget>,
    /// False after a change the next build must discover (and before the first request), until that build ran.
    trusted: bool,
    /// The Go sources written since the last build.
    edited: std::collections::BTreeSet<String>,
    /// The loaded files [`Changes::check_coverage`] found inside the watched tree and not behind a link.
    checked: std::collections::HashSet<String>,
}

impl Changes {
    /// Watches `out` recursively; `None` (every build then runs discovery) when the watcher cannot start.
    fn start(out: &Path, req: &BuildRequest) -> Option<Self> {
        use notify::Watcher as _;
        let root = std::fs::canonicalize(out).ok()?;
        let (tx, events) = std::sync::mpsc::channel();
        let mut watcher = notify::recommended_watcher(tx).ok()?;
        watcher
            .watch(&root, notify::RecursiveMode::Recursive)
            .ok()?;
        Some(Self {
            _watcher: watcher,
            events,
            cookie_dir: root.join(vgc_driver::output::STATE_DIR),
            root,
            cookies: 0,
            go: req.go.clone(),
            trusted: false,
            edited: Default::default(),
            checked: Default::default(),
        })
    }

    /// Distrusts the watcher for good when the first build loaded a Go file outside the watched tree that is not in
    /// the read-only Go module cache (a module `replace`d with a directory elsewhere): edits there make no event.
    /// Also a file reached through a symbolic link (of the file or of a directory above it): the watcher reports
    /// the link's own changes, not its target's. Run after every build that discovered (new files may be links).
    fn check_coverage(&mut self, outcome: &vgc_driver::BuildOutcome) {
        use vgc_analysis::System as _;
        if self.cookies == u64::MAX {
            return;
        }
        let cache = vgc_driver::sys::OsSystem
            .module_cache()
            .and_then(|c| std::fs::canonicalize(c).ok());
        // Each loaded file is looked at once (a build from the watcher's files loads no new one but rarely).
        let new: Vec<&String> = outcome
            .package_files
            .values()
            .flatten()
            .filter(|f| !self.checked.contains(*f))
            .collect();
        let unseen = new.iter().any(|f| {
            let f = Path::new(f.as_str());
            if cache.as_ref().is_some_and(|c| f.starts_with(c)) {
                return false;
            }
            std::fs::canonicalize(f).map_or(true, |real| real != f || !real.starts_with(&self.root))
        });
        if unseen {
            self.cookies = u64::MAX;
        }
        let new: Vec<String> = new.into_iter().cloned().collect();
        self.checked.extend(new);
    }

    /// True once every build must discover (see [`Changes::check_coverage`] and [`Changes::note`]).
    fn given_up(&self) -> bool {
        self.cookies == u64::MAX
    }

    /// The Go sources edited since the last build when that is all that changed (then the build may skip discovery:
    /// [`Session::build_after`]); `None` when the build must discover. Either way the record starts afresh.
    fn since_last_build(&mut self) -> Option<Vec<String>> {
        if self.cookies == u64::MAX {
            return None;
        }
        self.cookies += 1;
        // A name of its own: the events of an earlier cookie may still be queued.
        let cookie = self
            .cookie_dir
            .join(format!("serve.cookie.{}", self.cookies));
        let written =
            std::fs::create_dir_all(&self.cookie_dir).and_then(|()| std::fs::write(&cookie, b""));
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut found = false;
        while written.is_ok() && !found {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Ok(event)) => {
                    if event.need_rescan() {
                        self.trusted = false;
                    }
                    found = event.paths.iter().any(|p| p == &cookie);
                    self.note(&event);
                }
                Ok(Err(_)) => self.trusted = false,
                Err(_) => break,
            }
        }
        let _ = std::fs::remove_file(&cookie);
        let trusted = std::mem::replace(&mut self.trusted, true) && found;
        let edited = std::mem::take(&mut self.edited);
        trusted.then(|| edited.into_iter().collect())
    }

    /// Records one event: nothing for the server's and the Go target's own writes and for paths no build reads (a
    /// README, an editor's temporary or backup file), the path of a Go file that exists (written in place, or saved
    /// by a rename over it; [`Session::build_after`] discovers again when it is a file the session does not know),
    /// distrust for anything else (a removal, a symbolic link, `go.mod`, a directory).
    fn note(&mut self, event: &notify::Event) {
        if !vgc::watch::changes_content(&event.kind) {
            return;
        }
        for p in &event.paths {
            let own = self.go.as_ref().is_some_and(|g| {
                vgc::watch::go_own(p, &self.root, &g.output_file) || vgc::watch::fixture_own(p, g)
            });
            if own || p.starts_with(self.root.join(vgc_driver::output::STATE_DIR)) {
                continue;
            }
            let link = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_symlink());
            let removed = matches!(event.kind, notify::EventKind::Remove(_));
            if link {
                // A link's target changes without an event here: discovery for every build from now on.
                self.cookies = u64::MAX;
                self.trusted = false;
            } else if removed && vgc::watch::relevant(p, None) {
                // A removal may leave a package.
                self.trusted = false;
            } else if p.extension().is_some_and(|e| e == "go") && p.is_file() {
                self.edited.insert(p.to_string_lossy().into_owned());
            } else if vgc::watch::relevant(p, None) {
                self.trusted = false;
            }
        }
    }
}

/// Builds for one queued request, answers `Built` and logs one line on the server's stderr.
fn build_for(
    session: &mut Session,
    req: &BuildRequest,
    sock: &Path,
    q: Queued,
    changes: Option<&mut Changes>,
) {
    let Queued {
        stream,
        done,
        ask,
        received,
    } = q;
    let answer = {
        let mut changes = changes;
        let edited = changes.as_deref_mut().and_then(Changes::since_last_build);
        let how = match &edited {
            // `build_after` still discovers when one of them is new or changed its package clause or imports.
            Some(e) => format!("after {} changed Go file(s) the watcher saw", e.len()),
            None => "with discovery".to_string(),
        };
        let mut outcome = match edited {
            Some(edited) => session.build_after(req, &edited),
            None => session.build(req),
        };
        // Also after a build from the watcher's files: `build_after` discovers when one of them brings a new
        // package, which may be reached through a link.
        if let Some(c) = changes {
            c.check_coverage(&outcome);
        }
        let mut text = Vec::new();
        let _ = writeln!(
            text,
            "note: built by the vgc build server at {} (pid {})",
            sock.display(),
            std::process::id()
        );
        let start = received
            .checked_sub(Duration::from_micros(ask.elapsed_us))
            .unwrap_or(received);
        let exit = report_to(
            &mut text,
            req,
            &mut outcome,
            None,
            &mut Vec::new(),
            Style {
                short: ask.short,
                color: ask.color,
            },
            ask.timings,
            start,
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "vgc serve: built for pid {} {how}: exit {exit}, {} written, in {:.1} ms",
            ask.pid,
            outcome.written,
            received.elapsed().as_secs_f64() * 1e3
        );
        Answer::Built {
            stderr: String::from_utf8_lossy(&text).into_owned(),
            exit,
        }
    };
    if !send(&stream, &answer) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "vgc serve: the client had gone; its report was not delivered"
        );
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Binds the server's socket at `sock` (creating its directory), mode 0600. A socket file no process answers on (a
/// server that was killed) is replaced; one a server answers on is an error.
fn bind(sock: &Path) -> Result<UnixListener, String> {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    if let Some(dir) = sock.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create its directory: {e}"))?;
        if dir == private_dir() {
            // Shared temporary directory: ours alone, or not used.
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
            let m = std::fs::symlink_metadata(dir).map_err(|e| e.to_string())?;
            if !m.is_dir() || !ours(dir) || m.mode() & 0o077 != 0 {
                return Err(format!(
                    "{} is not a directory only this user may use; remove it, or build without --serve",
                    dir.display()
                ));
            }
        }
    }
    if std::fs::symlink_metadata(sock).is_ok() {
        if UnixStream::connect(sock).is_ok() {
            return Err(
                "a vgc build server already serves this directory (stop it first: Ctrl-C in its terminal)".into(),
            );
        }
        std::fs::remove_file(sock).map_err(|e| {
            format!("cannot remove what is in the way of the socket (a stopped server's?): {e}; remove it and start again")
        })?;
    }
    let listener = UnixListener::bind(sock).map_err(|e| format!("cannot listen: {e}"))?;
    let _ = std::fs::set_permissions(sock, std::fs::Permissions::from_mode(0o600));
    Ok(listener)
}

/// Stops the server (exit 1, with a line saying why) when its socket file, the served tree's root or its `.vgc/` is
/// removed or replaced — `rm -rf .vgc`, `git clean -xdf`, the tree deleted or moved (also when the socket lives in
/// the temporary directory): no client could reach it, or it would serve a tree that is gone; a new server may
/// start. Checked every second. The socket, when it is still the server's, is removed.
fn watch_socket(sock: &Path, out: &Path) {
    use std::os::unix::fs::MetadataExt as _;
    let identity = |p: &Path| {
        std::fs::symlink_metadata(p)
            .ok()
            .map(|m| (m.dev(), m.ino()))
    };
    let watched: Vec<PathBuf> = vec![
        sock.to_path_buf(),
        out.to_path_buf(),
        out.join(vgc_driver::output::STATE_DIR),
    ];
    let bound: Vec<_> = watched.iter().map(|p| identity(p)).collect();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_secs(1));
            if let Some(gone) = watched
                .iter()
                .zip(&bound)
                .find(|(p, b)| identity(p) != **b)
                .map(|(p, _)| p)
            {
                if gone != &watched[0] && identity(&watched[0]) == bound[0] {
                    let _ = std::fs::remove_file(&watched[0]);
                }
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "vgc serve: {} was removed or replaced; stopping (start the server again to serve this tree)",
                    gone.display()
                );
                std::process::exit(1);
            }
        }
    });
}

/// On `SIGINT` or `SIGTERM`: removes the socket file, says so and exits 0 (a build in progress is abandoned as a
/// killed build is: the output transaction's journal completes or undoes it on the next run).
fn remove_on_signal(sock: &Path) {
    let sock = sock.to_path_buf();
    let _ = ctrlc::set_handler(move || {
        let _ = std::fs::remove_file(&sock);
        let _ = writeln!(
            std::io::stderr().lock(),
            "vgc serve: stopped by a signal; {} removed",
            sock.display()
        );
        std::process::exit(0);
    });
}
