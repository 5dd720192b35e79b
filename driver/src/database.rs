//! The concrete salsa database of a build: the storage of every `vgc_ir`, `vgc_analysis`, `vgc_lowering` and
//! `vgc_codegen` query, with the top-level fan-out (`par_each`) on rayon, one database clone per worker.

/// The concrete salsa database.
///
/// A new database holds an empty `vgc_analysis::program::Workspace` (no module, no package) from the start: a query
/// that reads the workspace before the first load then depends on its fields, and re-runs when the load sets them (a
/// query that found no workspace would have read no input at all, and salsa would never run it again).
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    /// Queries executed since the last [`Database::take_executed`], when built with [`Database::logging`].
    log: Option<std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
    /// Earlier parses `vgc_ir::db::parsed_go` may reuse on a comment-only edit, shared by every clone; on by
    /// default (a live session's), off after [`Database::set_parse_memory`]`(false)`.
    parses: Option<std::sync::Arc<vgc_ir::db::ParseMemory>>,
}

impl Default for Database {
    fn default() -> Self {
        Self::with_storage(salsa::Storage::default(), None)
    }
}

impl Database {
    /// The database over `storage`, with its empty workspace.
    fn with_storage(
        storage: salsa::Storage<Self>,
        log: Option<std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
    ) -> Self {
        let db = Self {
            storage,
            log,
            parses: Some(Default::default()),
        };
        vgc_analysis::program::Workspace::new(&db, String::new(), String::new(), Vec::new());
        db
    }

    /// A database that records every query execution (salsa `WillExecute` events, as `name(Id(..))`) — the
    /// incrementality tests read it to prove what a change re-runs.
    #[must_use]
    pub fn logging() -> Self {
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = log.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |e: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind
                && let Ok(mut l) = sink.lock()
            {
                l.push(format!("{database_key:?}"));
            }
        })));
        Self::with_storage(storage, Some(log))
    }

    /// Whether `vgc_ir::db::parsed_go` keeps the previous parse of each larger file to reuse when an edit changes
    /// only `//` comment bodies (`vgc_ir::db::ParseMemory`): on in a new database, for the live sessions that keep
    /// it across builds (`vgc watch`, `vgc lsp`, the build server); a one-shot build, which parses each file once,
    /// turns it off so it keeps nothing for nothing. Affects this database and the clones made after the call; the
    /// results of every query are the same either way.
    pub fn set_parse_memory(&mut self, on: bool) {
        if !on {
            self.parses = None;
        } else if self.parses.is_none() {
            self.parses = Some(Default::default());
        }
    }

    /// The parse memory's count of parses that reused the previous one (`vgc_ir::db::ParseMemory::reused`); 0
    /// with the memory off.
    #[must_use]
    pub fn reused_parses(&self) -> usize {
        self.parses.as_ref().map_or(0, |m| m.reused())
    }

    /// The queries executed since the previous call (empty unless built with [`Database::logging`]).
    #[must_use]
    pub fn take_executed(&self) -> Vec<String> {
        self.log
            .as_ref()
            .and_then(|l| l.lock().ok().map(|mut v| std::mem::take(&mut *v)))
            .unwrap_or_default()
    }
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl vgc_ir::Db for Database {
    /// One database clone per rayon job (only ever called from the top level, outside any query).
    ///
    /// Self-scheduling: one worker per rayon thread, each with its own clone, takes the next index from a shared
    /// counter, so jobs start in index order and a worker that finishes early takes more. Callers that know
    /// their jobs' sizes list the largest first (longest-processing-time order), which keeps a large job from
    /// starting last and running alone at the end (`docs/performance.md`).
    fn par_each(&self, n: usize, job: &(dyn Fn(&dyn vgc_ir::Db, usize) + Sync)) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let workers = rayon::current_num_threads().min(n);
        if workers <= 1 {
            for i in 0..n {
                job(self, i);
            }
            return;
        }
        let dbs: Vec<Database> = (0..workers).map(|_| self.clone()).collect();
        let next = &next;
        rayon::scope(move |s| {
            for db in dbs {
                s.spawn(move |_| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        job(&db, i);
                    }
                });
            }
        });
    }

    fn as_dyn(&self) -> &dyn vgc_ir::Db {
        self
    }

    fn parse_memory(&self) -> Option<&vgc_ir::db::ParseMemory> {
        self.parses.as_deref()
    }
}
