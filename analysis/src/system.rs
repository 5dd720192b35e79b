//! The file-system boundary of the analysis layer. The driver provides an OS implementation; tests use
//! [`MemorySystem`].

use std::collections::BTreeMap;

/// Read-only file-system access used by package loading. `Sync`: loading reads files in parallel.
pub trait System: Sync {
    /// Reads a UTF-8 file. `Err` carries a human reason (not found, permission denied, not UTF-8).
    ///
    /// # Errors
    /// When the file cannot be read.
    fn read_file(&self, path: &str) -> Result<String, String>;
    /// Lists a directory: `(name, is_dir)` pairs, sorted by name.
    ///
    /// # Errors
    /// When the directory cannot be read.
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String>;
    /// True if `path` is a directory.
    fn is_dir(&self, path: &str) -> bool;
    /// The Go module cache: `$GOMODCACHE`, else `$GOPATH/pkg/mod`, else `~/go/pkg/mod`.
    fn module_cache(&self) -> Option<String>;
    /// A file's size and modification time, when the file system can tell (`None` otherwise, and for missing
    /// files): a file whose stamp equals the one recorded when it was last read is not read again.
    fn stamp(&self, path: &str) -> Option<Stamp> {
        let _ = path;
        None
    }
    /// [`System::stamp`] when it may be recorded to skip a later read: `None` as well for a file changed less than
    /// [`RACY_WINDOW`] ago (or, by the clock, in the future). A file system records times in ticks (a few
    /// milliseconds on Linux, up to 2 s on FAT), so a same-size rewrite in the tick of the read that recorded the
    /// stamp would keep it, and the live session, the build server and the build manifest would take the old text
    /// for the new; without a recorded stamp the file is read (and compared or hashed) again — git's "racily
    /// clean" entries, decided the same way. Every place that records a stamp to compare later calls this.
    fn settled_stamp(&self, path: &str) -> Option<Stamp> {
        let (len, t) = self.stamp(path)?;
        std::time::SystemTime::now()
            .duration_since(t)
            .is_ok_and(|age| age >= RACY_WINDOW)
            .then_some((len, t))
    }
}

/// A file's size in bytes and modification time.
pub type Stamp = (u64, std::time::SystemTime);

/// How long after its last change a file's stamp may be recorded ([`System::settled_stamp`]): longer than the
/// coarsest file-system time resolution vgc meets (FAT: 2 s; ext4, XFS, btrfs, APFS: nanoseconds, set from a clock
/// that advances in ticks of 1 to 10 ms).
pub const RACY_WINDOW: std::time::Duration = std::time::Duration::from_secs(2);

/// An in-memory file system for tests: paths map to contents; directories are implied.
#[derive(Debug, Default, Clone)]
pub struct MemorySystem {
    /// Files by absolute path.
    pub files: BTreeMap<String, String>,
    /// Module cache root, if any.
    pub cache: Option<String>,
}

impl System for MemorySystem {
    fn read_file(&self, path: &str) -> Result<String, String> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| "no such file".to_string())
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let prefix = format!("{}/", path.trim_end_matches('/'));
        let mut out: BTreeMap<String, bool> = BTreeMap::new();
        for k in self.files.keys() {
            if let Some(rest) = k.strip_prefix(&prefix) {
                match rest.split_once('/') {
                    Some((d, _)) => out.insert(d.to_string(), true),
                    None => out.insert(rest.to_string(), false),
                };
            }
        }
        if out.is_empty() {
            Err("no such directory".into())
        } else {
            Ok(out.into_iter().collect())
        }
    }
    fn is_dir(&self, path: &str) -> bool {
        let prefix = format!("{}/", path.trim_end_matches('/'));
        self.files.keys().any(|k| k.starts_with(&prefix))
    }
    fn module_cache(&self) -> Option<String> {
        self.cache.clone()
    }
}
