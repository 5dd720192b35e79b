//! The OS implementation of [`vgc_analysis::System`] and atomic output writing.

use std::path::Path;

/// Reads from the real file system.
#[derive(Debug, Default, Clone, Copy)]
pub struct OsSystem;

impl vgc_analysis::System for OsSystem {
    fn read_file(&self, path: &str) -> Result<String, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|_| "not valid UTF-8".to_string())
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(path).map_err(|e| e.to_string())? {
            let e = e.map_err(|e| e.to_string())?;
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            out.push((e.file_name().to_string_lossy().into_owned(), is_dir));
        }
        out.sort();
        Ok(out)
    }
    fn is_dir(&self, path: &str) -> bool {
        Path::new(path).is_dir()
    }
    fn stamp(&self, path: &str) -> Option<vgc_analysis::system::Stamp> {
        let m = std::fs::metadata(path).ok()?;
        Some((m.len(), m.modified().ok()?))
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

/// Writes `contents` to `path` atomically (temporary file in the same directory, then rename). Unchanged files
/// are not rewritten (their modification time survives). Returns whether the file was written.
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
    if std::fs::read(path).ok().as_deref() == Some(contents) {
        return Ok(false);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.vgc-tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("out")
    ));
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path)?;
    Ok(true)
}
