//! vgc's caches, in one cache directory: `.vgc/` of the output directory (with a `.gitignore`; see
//! [`crate::output`]) unless `--cache-dir` (`BuildRequest::cache_dir`) names another
//! ([`crate::BuildRequest::cache_root`]). Each is a file vgc alone writes and reads:
//!
//! | file in the cache directory | module | what it saves |
//! |---|---|---|
//! | `build` | [`manifest`] | the whole build: what a clean build observed and wrote, so an unchanged tree is "up to date" without loading anything |
//! | `ir` | [`ir`] | parsing: each input file's IR by the hash of its text |
//! | `units/*` | [`units`] | code generation: each generated module's items by the hash of their plans |
//! | `fmt` | [`crate::format::FmtCache`] | formatting: each generated file's formatted units |
//! | `plan` | [`plan`] | `vgc validate`: an API tree's lowered plan and dispatch table, with what loading it observed |
//!
//! The lock and the staging directories of a build always stay in `.vgc/` of the output directory. `vgc validate`
//! writes no output: its caches (`ir` and `plan`) live in a per-user directory, one subdirectory per API tree
//! (`vgc::validate::cache_dir_for`), never in the API tree (which may be the read-only module cache).
//!
//! Every cache starts with a header naming its format and the running vgc ([`tool_fingerprint`]); the binary ones
//! (`read_versioned`/`write_versioned`) carry the BLAKE3 hash of their body. A cache with another header, a body
//! that does not match its hash, or content that does not decode is ignored with a note and rebuilt: a cache can
//! only save work, never change output (R18). The caches depend on nothing of the driver; the driver computes the
//! request key ([`crate::request_key`]) and hands it in.

pub mod ir;
pub mod manifest;
pub mod plan;
pub mod units;

use std::path::Path;

/// The build manifest's format line ([`manifest`]), which also starts [`tool_fingerprint`].
const BUILD_CACHE_VERSION: &str = concat!("vgc-build-cache 2 ", env!("CARGO_PKG_VERSION"));

/// Identifies the running vgc build: the executable's size and modification time (a rebuilt vgc — same version
/// number, different code — must not trust what an older build cached), or the version alone when the executable
/// cannot be examined.
#[must_use]
pub fn tool_fingerprint() -> String {
    let stamp = std::env::current_exe()
        .and_then(std::fs::metadata)
        .ok()
        .and_then(|m| Some((m.len(), nanos(m.modified().ok()?))));
    match stamp {
        Some((len, mtime)) => format!("{BUILD_CACHE_VERSION} {len} {mtime}"),
        None => BUILD_CACHE_VERSION.to_string(),
    }
}

/// Nanoseconds since the Unix epoch of `t` (0 before it): the modification times caches record.
fn nanos(t: std::time::SystemTime) -> u128 {
    t.duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

/// The note for a cache written by another vgc build (a different version or executable).
pub(crate) const FOREIGN: &str = " written by another vgc build; rebuilt";

/// Reads a cache file made of a `header` line, the BLAKE3 hash of the body and a postcard body: `None` when the
/// file does not exist (silently), or when its header differs, its body does not match the hash or does not decode
/// (each with a note naming the file).
pub(crate) fn read_versioned<T: serde::de::DeserializeOwned>(
    file: &Path,
    header: &str,
    notes: &mut Vec<String>,
) -> Option<T> {
    let bytes = read_cache_file(file, notes)?;
    let Some(nl) = bytes.iter().position(|&b| b == b'\n') else {
        notes.push(format!(
            "{}: unreadable; ignored and rebuilt",
            file.display()
        ));
        return None;
    };
    if bytes[..nl] != *header.as_bytes() {
        // Another vgc's cache names the same format (`vgc-ir-cache 2 …`); anything else is not a cache at all.
        let format = header.split(' ').next().unwrap_or(header);
        let foreign = bytes[..nl].starts_with(format!("{format} ").as_bytes());
        notes.push(if foreign {
            format!("{}:{}", file.display(), FOREIGN)
        } else {
            format!("{}: unreadable; ignored and rebuilt", file.display())
        });
        return None;
    }
    let rest = &bytes[nl + 1..];
    let intact = rest.len() >= 32 && *blake3::hash(&rest[32..]).as_bytes() == rest[..32];
    let decoded = intact.then(|| decode::<T>(&rest[32..])).flatten();
    if decoded.is_none() {
        notes.push(format!(
            "{}: unreadable; ignored and rebuilt",
            file.display()
        ));
    }
    decoded
}

/// The largest cache file read (1 GiB; k8s.io/api's largest, the unit cache, is 2.6 MB).
const CACHE_CAP: u64 = 1 << 30;

/// The bytes of cache file `file`: `None` silently when it does not exist, `None` with a note when it is not a
/// regular file (a FIFO, a device, a directory: never opened in a way that could block), is over [`CACHE_CAP`] or
/// cannot be read ([`crate::sys::read_regular`]).
pub(crate) fn read_cache_file(file: &Path, notes: &mut Vec<String>) -> Option<Vec<u8>> {
    if std::fs::symlink_metadata(file).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return None;
    }
    crate::sys::read_regular(file, CACHE_CAP)
        .map_err(|why| {
            notes.push(format!(
                "{}: unreadable ({why}); ignored and rebuilt",
                file.display()
            ));
        })
        .ok()
}

/// Decodes a postcard body on a stack that grows with the nesting it meets (`serde_stacker`): the IR holds
/// recursive types (`TypeExpr`), and a body that passes the checksum but nests deeper than any parsed file (a
/// hostile or foreign writer; found by the `cache_readers` fuzz target) would otherwise overflow the stack and
/// abort. Each level costs at least one input byte, so the memory used stays proportional to the file's size.
fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Option<T> {
    let mut de = postcard::Deserializer::from_bytes(body);
    T::deserialize(serde_stacker::Deserializer::new(&mut de)).ok()
}

/// Writes `value` as a `header` line, the body's BLAKE3 hash and a postcard body, atomically. Failing to write a cache only costs the
/// next build some work, so errors are ignored.
pub(crate) fn write_versioned<T: serde::Serialize + ?Sized>(file: &Path, header: &str, value: &T) {
    let Ok(body) = postcard::to_stdvec(value) else {
        return;
    };
    let mut bytes = header.as_bytes().to_vec();
    bytes.push(b'\n');
    bytes.extend_from_slice(blake3::hash(&body).as_bytes());
    bytes.extend_from_slice(&body);
    let _ = crate::sys::write_atomic_bytes(file, &bytes);
}
