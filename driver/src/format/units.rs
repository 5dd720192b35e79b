//! A generated file's formatting units (its header, then each top-level item: [`GeneratedFile::chunks`]) and the
//! hashes that key them in the memo and the formatting cache.

use vgc_codegen::GeneratedFile;

/// BLAKE3 of a whole file's text, as the formatting cache records it (64 hex digits).
pub(super) fn hash(s: &str) -> String {
    blake3::hash(s.as_bytes()).to_hex().to_string()
}

/// A unit's cache key: 128 bits of BLAKE3 of its unformatted text.
pub(super) fn unit_hash(s: &str) -> String {
    blake3::hash(s.as_bytes()).to_hex()[..32].to_string()
}

/// The unformatted units of a generated file.
pub(super) fn units_of(f: &GeneratedFile) -> Vec<&str> {
    let mut bounds = vec![0];
    bounds.extend(f.chunks.iter().copied());
    bounds.push(f.contents.len());
    bounds.windows(2).map(|w| &f.contents[w[0]..w[1]]).collect()
}
