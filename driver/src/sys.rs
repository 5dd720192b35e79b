//! The OS implementation of [`vgc_analysis::System`] and atomic output writing.

use std::io::Read as _;
use std::path::Path;

/// The largest source file (`.go`, `go.mod`, `vendor/modules.txt`) vgc reads, in bytes: 32 MiB. The largest
/// file of k8s.io/api v0.37.2 is a 2.6 MiB `generated.pb.go`; a 50 MiB Go file costs vgc about 2 GiB of memory.
pub const MAX_SOURCE_BYTES: u64 = 32 << 20;

/// Reads from the real file system: regular files only (symlinks are followed), at most [`MAX_SOURCE_BYTES`],
/// never blocking on the open (FIFOs and devices are refused, not read).
#[derive(Debug, Default, Clone, Copy)]
pub struct OsSystem;

/// Reads the regular file at `path` (following symlinks), refusing anything else — directories, FIFOs, sockets,
/// devices such as `/dev/zero` — and files larger than `cap` bytes. The open is non-blocking, so a FIFO cannot
/// stall it; the size is checked on the opened handle and the read is bounded by `cap` even if the file grows.
///
/// # Errors
/// A human reason: the OS error, "a symbolic link whose target does not exist", "not a regular file (…)", or the
/// size over the limit.
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let f = opts.open(path).map_err(|e| {
        // A link to nothing says so, instead of a bare "No such file or directory" for a file that is listed.
        if e.kind() == std::io::ErrorKind::NotFound
            && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        {
            format!("a symbolic link whose target does not exist ({e})")
        } else {
            e.to_string()
        }
    })?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!(
            "not a regular file ({}); vgc reads only regular files",
            file_kind(&meta.file_type())
        ));
    }
    if meta.len() > cap {
        return Err(too_big(meta.len(), cap));
    }
    let mut buf = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    f.take(cap + 1)
        .read_to_end(&mut buf)
        .map_err(|e| e.to_string())?;
    if buf.len() as u64 > cap {
        return Err(too_big(buf.len() as u64, cap));
    }
    Ok(buf)
}

/// The most bytes of a file of vgc's own output read back ([`read_output`]): 1 GiB, as a cache.
pub const MAX_OUTPUT_BYTES: u64 = 1 << 30;

/// A file of vgc's output directory read back as text (a generated module, to compare or to reuse its formatting):
/// through [`read_regular`] — so a FIFO, device or directory someone put there is refused without blocking —
/// at most [`MAX_OUTPUT_BYTES`], UTF-8; `None` when it cannot be read so (the caller then regenerates).
#[must_use]
pub fn read_output(path: &Path) -> Option<String> {
    String::from_utf8(read_regular(path, MAX_OUTPUT_BYTES).ok()?).ok()
}

fn too_big(len: u64, cap: u64) -> String {
    format!(
        "{len} bytes, more than vgc's limit of {} MiB per file",
        cap >> 20
    )
}

fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Decodes `bytes` as UTF-8; the error names the first invalid byte by line and column (1-based, the column in
/// bytes as Go's scanner counts it), as Go reports `illegal UTF-8 encoding`.
///
/// # Errors
/// "invalid UTF-8 at line L, column C (byte 0xNN)".
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = &bytes[..at];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let col = at
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        format!(
            "invalid UTF-8 at line {line}, column {col} (byte 0x{:02X}); Go rejects it too \
             (illegal UTF-8 encoding)",
            bytes[at]
        )
    })
}

impl vgc_analysis::System for OsSystem {
    fn read_file(&self, path: &str) -> Result<String, String> {
        match read_regular(Path::new(path), MAX_SOURCE_BYTES) {
            Ok(bytes) => decode_utf8(bytes),
            Err(e) if path.contains('\u{FFFD}') && !Path::new(path).exists() => Err(format!(
                "the file name is not valid UTF-8 (shown with U+FFFD); vgc reads UTF-8 paths only ({e})"
            )),
            Err(e) => Err(e),
        }
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(path).map_err(|e| e.to_string())? {
            let e = e.map_err(|e| e.to_string())?;
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            // A name that is not UTF-8 cannot be a path of this `System`: it is listed lossily (with U+FFFD), and
            // reading it fails with that reason (R22).
            out.push((e.file_name().to_string_lossy().into_owned(), is_dir));
        }
        out.sort();
        Ok(out)
    }
    fn is_dir(&self, path: &str) -> bool {
        Path::new(path).is_dir()
    }
    /// Size and the later of the modification and status-change times: restoring an old modification time
    /// (`touch -d`, `cp -p`, `tar x`, `rsync -t`) sets the status-change time to now, so it still counts as a
    /// change and the file is read again (R21).
    fn stamp(&self, path: &str) -> Option<vgc_analysis::system::Stamp> {
        let m = std::fs::metadata(path).ok()?;
        let mut t = m.modified().ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let ctime = std::time::UNIX_EPOCH
                + std::time::Duration::new(
                    u64::try_from(m.ctime()).unwrap_or(0),
                    u32::try_from(m.ctime_nsec()).unwrap_or(0),
                );
            t = t.max(ctime);
        }
        Some((m.len(), t))
    }
    fn module_cache(&self) -> Option<String> {
        if let Ok(c) = std::env::var("GOMODCACHE")
            && !c.is_empty()
        {
            return Some(c);
        }
        if let Ok(g) = std::env::var("GOPATH")
            && let Some(first) = g.split(':').find(|s| !s.is_empty())
        {
            return Some(format!("{first}/pkg/mod"));
        }
        std::env::var("HOME")
            .ok()
            .map(|h| format!("{h}/go/pkg/mod"))
    }
}

/// Writes `contents` to `path` atomically (a uniquely named temporary file in the same directory, then renamed
/// over `path`: concurrent writers never share a temporary name, and a reader sees the old or the new
/// bytes, never a mix). Unchanged files are not rewritten (their modification time survives). Returns whether the
/// file was written. A write interrupted by `kill -9` leaves a `.tmp*` file, which [`crate::output::recover`]
/// removes in vgc's state directory.
///
/// # Errors
/// IO errors creating directories, writing or renaming.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<bool> {
    write_atomic_bytes(path, contents.as_bytes())
}

/// [`write_atomic`] for bytes.
///
/// # Errors
/// IO errors creating directories, writing or renaming.
pub fn write_atomic_bytes(path: &Path, contents: &[u8]) -> std::io::Result<bool> {
    use std::io::Write as _;
    if holds(path, contents) {
        return Ok(false);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = new_file_in(dir)?;
    tmp.write_all(contents)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(true)
}

/// Whether `path` is a regular file holding exactly `contents` (read without blocking, so a FIFO in the way is
/// `false`, and never more than `contents.len()` bytes plus one).
#[must_use]
pub fn holds(path: &Path, contents: &[u8]) -> bool {
    read_regular(path, contents.len() as u64).ok().as_deref() == Some(contents)
}

/// A uniquely named temporary file in `dir`, created with mode `0666` less the process umask — what a plain
/// `File::create` gives — rather than `tempfile`'s private `0600`, so that published files (the docs site, a
/// generated crate) are readable by others as the user's umask allows.
fn new_file_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// Rewrites a user's existing source file `path` with `contents` (`vgc lint --fix`), as `gofmt -w` does: through
/// a symbolic link to the file it names, keeping the file's permissions, atomically (a temporary file beside the
/// real file, renamed over it). Returns whether the file changed.
///
/// # Errors
/// IO errors resolving the link, reading the permissions, writing or renaming.
pub fn rewrite_source(path: &Path, contents: &str) -> std::io::Result<bool> {
    use std::io::Write as _;
    let real = std::fs::canonicalize(path)?;
    if std::fs::read(&real).ok().as_deref() == Some(contents.as_bytes()) {
        return Ok(false);
    }
    let perms = std::fs::metadata(&real)?.permissions();
    let dir = real.parent().unwrap_or(Path::new("."));
    let mut tmp = new_file_in(dir)?;
    tmp.write_all(contents.as_bytes())?;
    tmp.as_file().set_permissions(perms)?;
    tmp.persist(&real).map_err(|e| e.error)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vgc_analysis::System as _;

    /// A file changed within `RACY_WINDOW` has a stamp but no settled one (the next build reads it again whatever its
    /// size and time say); one unchanged for longer has both.
    #[test]
    fn a_file_changed_just_now_has_no_settled_stamp() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fresh = dir.path().join("types.go");
        std::fs::write(&fresh, "package v1\n").expect("write");
        let fresh = fresh.to_string_lossy();
        assert_eq!(OsSystem.stamp(&fresh).map(|(l, _)| l), Some(11));
        assert_eq!(OsSystem.settled_stamp(&fresh), None);
        // This crate's manifest was checked out or edited long before its tests run.
        let old = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        let len = std::fs::metadata(old).expect("metadata").len();
        assert_eq!(OsSystem.settled_stamp(old).map(|(l, _)| l), Some(len));
    }
}
