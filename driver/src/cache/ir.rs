//! The persistent IR cache: every input file's IR and span table ([`vgc_ir::db::lowered`]) by the BLAKE3 hash of
//! its text, kept in `.vgc/ir` in the output directory, so a build after an edit parses only the files that
//! changed.
//!
//! Format: one header line (`vgc-ir-cache 3 <vgc version> <size> <mtime>` — the executable's stamp, so a rebuilt
//! vgc never trusts an older parser's results), the BLAKE3 hash of the body (32 bytes), then the body: the entries
//! encoded with postcard. A cache with another header, a body that does not match its hash (bit rot, a torn or
//! edited file — R18) or entries that do not decode is ignored with a note and rewritten after the build; it can
//! only save work, never change output (the IR is a pure function of the text).

use super::{read_versioned, tool_fingerprint, write_versioned};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use vgc_ir::db::Lowered;

const FILE: &str = "ir";

/// Cached results by text hash.
pub type Entries = HashMap<vgc_ir::db::Digest, Arc<Lowered>>;

fn header() -> String {
    format!("vgc-ir-cache 3 {}", tool_fingerprint())
}

/// Reads the IR cache of `dir` (empty when there is none; unusable caches add a note).
pub fn load(dir: &Path, notes: &mut Vec<String>) -> Entries {
    read_versioned::<Vec<(vgc_ir::db::Digest, Lowered)>>(&dir.join(FILE), &header(), notes)
        .map(|v| v.into_iter().map(|(k, l)| (k, Arc::new(l))).collect())
        .unwrap_or_default()
}

/// Writes the IR of every file of `prog` into `dir`'s cache, unless the cache already holds exactly those
/// entries (`loaded`). Failing to write it only costs the next build some parsing.
pub fn save(dir: &Path, db: &dyn vgc_ir::Db, prog: &vgc_analysis::Program, loaded: &Entries) {
    Snapshot::of(db, prog).save(dir, loaded);
}

/// What [`save`] writes, taken from the database without copying (each file's text and IR are shared), so the
/// hashing, encoding and writing can run on another thread while the build goes on.
pub struct Snapshot {
    /// Each file's [`vgc_ir::db::text_hash`] (memoised: hashed once a build, when its IR was looked up) and IR.
    files: Vec<(vgc_ir::db::Digest, Arc<Lowered>)>,
}

impl Snapshot {
    /// The cache key and lowered IR ([`vgc_ir::db::lowered`]) of every file of `prog` that declares anything. A file
    /// whose IR is its package name alone (`generated.pb.go`, `zz_generated.deepcopy.go`: the parser's
    /// declaration-free shortcut, a text scan as fast as hashing the text) is left out: caching it would save
    /// nothing, and hashing it costs about 4 ms of a cold k8s.io/api build (10 of its 14 MB).
    #[must_use]
    pub fn of(db: &dyn vgc_ir::Db, prog: &vgc_analysis::Program) -> Self {
        Self {
            files: prog
                .packages
                .values()
                .flat_map(|p| &p.files)
                .map(|f| (*f, vgc_ir::db::lowered(db, *f).clone()))
                .filter(|(_, l)| !package_only(&l.0))
                .map(|(f, l)| (*vgc_ir::db::text_hash(db, f), l))
                .collect(),
        }
    }

    /// Writes the snapshot into `dir`'s cache, keyed as [`vgc_ir::db::text_hash`] keys it, unless the cache
    /// already holds exactly those entries (`loaded`).
    pub fn save(&self, dir: &Path, loaded: &Entries) {
        let mut entries: Vec<(vgc_ir::db::Digest, &Lowered)> =
            self.files.iter().map(|(key, l)| (*key, &**l)).collect();
        entries.sort_by_key(|e| e.0);
        entries.dedup_by(|a, b| a.0 == b.0);
        if entries.len() == loaded.len() && entries.iter().all(|(k, _)| loaded.contains_key(k)) {
            return;
        }
        write_versioned(&dir.join(FILE), &header(), &entries);
    }
}

/// The IR cache save of one build: asked for before the build ([`BackgroundSave::want`]), started on a thread of
/// its own as soon as the program is loaded ([`BackgroundSave::start`]: encoding and writing it overlaps checking,
/// lowering and code generation), waited for at the end ([`BackgroundSave::finish`]).
#[derive(Default)]
pub(crate) struct BackgroundSave {
    /// The cache directory and what was loaded from it, until the save starts.
    wanted: Option<(std::path::PathBuf, Arc<Entries>)>,
    /// The running save.
    running: Option<std::thread::JoinHandle<()>>,
}

impl BackgroundSave {
    /// Asks for a save into the cache of `dir`, which held `loaded` (nothing is written when the entries are the
    /// same).
    pub(crate) fn want(&mut self, dir: std::path::PathBuf, loaded: Arc<Entries>) {
        self.wanted = Some((dir, loaded));
    }

    /// Starts the save asked for, if any, with the IR of every file of `prog` (none when nothing was loaded).
    pub(crate) fn start(&mut self, db: &dyn vgc_ir::Db, prog: &vgc_analysis::Program) {
        if let Some((dir, loaded)) = self.wanted.take()
            && !prog.packages.is_empty()
        {
            let snapshot = Snapshot::of(db, prog);
            self.running = Some(std::thread::spawn(move || snapshot.save(&dir, &loaded)));
        }
    }

    /// Waits for the running save (a save that panicked costs the next build some parsing, nothing else).
    pub(crate) fn finish(&mut self) {
        if let Some(h) = self.running.take() {
            let _ = h.join();
        }
    }
}

/// Whether `ir` holds nothing but its package name.
fn package_only(ir: &vgc_ir::model::FileIr) -> bool {
    let vgc_ir::model::FileIr {
        package: _,
        imports,
        types,
        consts,
        package_tags,
        group_name,
        problems,
        unprefixed,
    } = ir;
    imports.is_empty()
        && types.is_empty()
        && consts.is_empty()
        && package_tags.is_empty()
        && group_name.is_none()
        && problems.is_empty()
        && unprefixed.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_and_broken_caches_are_ignored_with_a_note() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut notes = Vec::new();
        assert!(load(dir.path(), &mut notes).is_empty());
        assert!(notes.is_empty(), "no cache is not worth a note");
        std::fs::create_dir_all(dir.path().join(".vgc")).expect("mkdir");
        std::fs::write(dir.path().join(FILE), "vgc-ir-cache 0 old\n\x01\x02").expect("write");
        assert!(load(dir.path(), &mut notes).is_empty());
        assert!(notes[0].contains("another vgc build"), "{notes:?}");
        let mut broken = header().into_bytes();
        broken.extend_from_slice(b"\n\xff\xff\xff\xff\xff");
        std::fs::write(dir.path().join(FILE), broken).expect("write");
        assert!(load(dir.path(), &mut notes).is_empty());
        assert!(notes[1].contains("unreadable"), "{notes:?}");
    }

    #[test]
    fn files_with_only_a_package_name_are_not_cached() {
        let ir = |src: &str| vgc_ir::model::lower_file(&vgc_parser::go::parse(src)).0;
        assert!(package_only(&ir(
            "package v1\n\nimport \"fmt\"\n\nfunc (m *T) Size() int { return 0 }\n"
        )));
        assert!(!package_only(&ir("package v1\n\ntype T string\n")));
        assert!(!package_only(&ir("package v1\n\nconst C = 1\n")));
        assert!(!package_only(&ir("package v1\n\n// +groupName=apps\n")));
        assert!(!package_only(&ir("package v1\n\ntype T struct {\n")));
    }

    #[test]
    fn entries_round_trip() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ir = vgc_ir::model::lower_file(&vgc_parser::go::parse(
            "package p\n\n// +k8s:required\ntype T string\n",
        ));
        let key = vgc_ir::db::Digest([7u8; 32]);
        std::fs::create_dir_all(dir.path().join(".vgc")).expect("mkdir");
        write_versioned(&dir.path().join(FILE), &header(), &vec![(key, &ir)]);
        let mut notes = Vec::new();
        let loaded = load(dir.path(), &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        // Written as a plain `(FileIr, spans)`: the shared `Arc<FileIr>` of `Lowered` has the same encoding.
        let l = loaded.get(&key).expect("entry loaded");
        assert_eq!((&*l.0, &l.1), (&ir.0, &ir.1));
    }

    #[test]
    fn r18_a_flipped_body_byte_is_detected() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ir = vgc_ir::model::lower_file(&vgc_parser::go::parse(
            "package p\n\n// +k8s:required\ntype DisplayName string\n",
        ));
        std::fs::create_dir_all(dir.path().join(".vgc")).expect("mkdir");
        let file = dir.path().join(FILE);
        write_versioned(&file, &header(), &vec![([7u8; 32], &ir)]);
        let mut bytes = std::fs::read(&file).expect("read");
        let at = bytes
            .windows(11)
            .position(|w| w == b"DisplayName")
            .expect("name in body");
        bytes[at + 8] = b'b';
        std::fs::write(&file, bytes).expect("write");
        let mut notes = Vec::new();
        assert!(
            load(dir.path(), &mut notes).is_empty(),
            "a corrupt body is not used"
        );
        assert_eq!(
            notes,
            vec![format!(
                "{}: unreadable; ignored and rebuilt",
                file.display()
            )]
        );
    }
}
