//! The persistent unit cache: the unformatted items ([`vgc_codegen::type_file_units`]) of every generated type by
//! its generation key ([`vgc_codegen::type_key`]), grouped by generated module, in one file (`units` in the cache
//! directory, `.vgc/units`). When a rebuild must generate a module again (its plan changed), the types of that
//! module whose plan did not change take their items from here instead of being emitted again, and the formatting
//! cache already holds those items formatted: an edit of one tag emits and formats that type only.
//!
//! Format: one header line (`vgc-unit-cache 3 <vgc version> <size> <mtime>` — the executable's stamp, so a rebuilt
//! vgc never reuses an older generator's output), the BLAKE3 hash of the body, then the body: per generated module
//! (a path such as `src/widgets/v1.rs`), in path order, its `(key, units)` pairs, encoded with postcard (see
//! `read_versioned`). One file rather than one per module (vgc 0.1's `.vgc/units/` directory, removed
//! when found): a cold build of k8s.io/api creates 60 files fewer, about 15 ms of its 230 ms on ext4 (issue 12);
//! a rebuild reads and rewrites the whole file (2.6 MB for k8s.io/api, a few milliseconds, on the thread that
//! saves the caches beside the output writer). An unusable file is ignored with a note and replaced after the
//! build by one holding the modules that build generated. The cache can only save work, never change output.

use super::{read_versioned, tool_fingerprint, write_versioned};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The cache file's name in the cache directory.
pub const FILE: &str = "units";

/// Units by type key.
pub type Entries = vgc_codegen::UnitEntries;

/// The file's content: per generated module path, its types' keyed units.
type Pack = Vec<(String, Vec<vgc_codegen::KeyedUnits>)>;

/// The header line of the cache file this vgc writes and reads (format 3, the running executable's stamp).
#[must_use]
pub fn header() -> String {
    format!("vgc-unit-cache 3 {}", tool_fingerprint())
}

fn file_in(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Reads the entries of the generated files `modules` from the cache in cache directory `dir`. A missing file
/// gives nothing, silently; an unusable one (another vgc's, damaged) gives nothing and a note.
pub fn load<'a>(
    dir: &Path,
    modules: impl IntoIterator<Item = &'a String>,
    notes: &mut Vec<String>,
) -> Entries {
    let file = file_in(dir);
    if file.is_dir() {
        // vgc 0.1's one file per module: replaced by the next save.
        return Entries::new();
    }
    let Some(pack) = read_versioned::<Pack>(&file, &header(), notes) else {
        return Entries::new();
    };
    let wanted: std::collections::HashSet<&String> = modules.into_iter().collect();
    pack.into_iter()
        .filter(|(m, _)| wanted.contains(m))
        .flat_map(|(_, units)| units)
        .map(|(k, u)| (k, Arc::new(u)))
        .collect()
}

/// Writes the cache for the modules in `all`: the units of the generated files `modules` from the database's
/// current plan, the other modules' as the file held them (read again, unless `modules` is every module). Returns
/// how many of `modules`' types had their key in `loaded` (the entries [`load`] gave this build: types that were
/// not emitted again). Write failures are ignored (the next build does more work).
pub fn save<'a>(
    dir: &Path,
    db: &dyn vgc_ir::Db,
    modules: impl IntoIterator<Item = &'a String>,
    all: &std::collections::HashSet<&str>,
    loaded: &Entries,
) -> usize {
    let file = file_in(dir);
    let mut hits = 0;
    let mut pack: std::collections::BTreeMap<String, Vec<vgc_codegen::KeyedUnits>> =
        std::collections::BTreeMap::new();
    for m in modules {
        if let Ok(units) = vgc_codegen::module_type_units(db, m)
            && !units.is_empty()
        {
            hits += units.iter().filter(|(k, _)| loaded.contains_key(k)).count();
            pack.insert(m.clone(), units);
        }
    }
    if file.is_dir() {
        let _ = std::fs::remove_dir_all(&file);
    } else if all.iter().any(|m| !pack.contains_key(*m)) {
        // Modules not generated this time keep what the file held (a note about an unusable file was given by
        // `load` already).
        let previous =
            read_versioned::<Pack>(&file, &header(), &mut Vec::new()).unwrap_or_default();
        for (m, units) in previous {
            if all.contains(m.as_str()) && !pack.contains_key(&m) {
                pack.insert(m, units);
            }
        }
    }
    let pack: Pack = pack.into_iter().collect();
    write_versioned(&file, &header(), &pack);
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_and_broken_files_are_ignored_with_a_note() {
        let out = tempfile::tempdir().expect("tempdir");
        // The cache root of an output directory (no `--cache-dir`).
        let root = out.path().join(".vgc");
        std::fs::create_dir_all(&root).expect("mkdir");
        let file = file_in(&root);
        assert!(file.ends_with(".vgc/units"));
        let module = "src/widgets/v1.rs".to_string();
        let other = "src/widgets/v2.rs".to_string();
        let pack: Pack = vec![
            (
                module.clone(),
                vec![(
                    vgc_ir::db::Digest([7u8; 32]),
                    vec!["fn a() {}\n".to_string()],
                )],
            ),
            (
                other.clone(),
                vec![(
                    vgc_ir::db::Digest([8u8; 32]),
                    vec!["fn b() {}\n".to_string()],
                )],
            ),
        ];
        write_versioned(&file, &header(), &pack);
        let mut notes = Vec::new();
        let entries = load(&root, [&module], &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        // Only the modules asked for.
        assert_eq!(entries.len(), 1);
        assert_eq!(
            entries
                .get(&vgc_ir::db::Digest([7u8; 32]))
                .map(|u| u.as_slice()),
            Some(&["fn a() {}\n".to_string()][..])
        );
        assert_eq!(load(&root, [&module, &other], &mut notes).len(), 2);

        // Another vgc's file: one note.
        std::fs::write(&file, "vgc-unit-cache 2 older\nxx").expect("write");
        assert!(load(&root, [&module], &mut notes).is_empty());
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].ends_with(".vgc/units: written by another vgc build; rebuilt"),
            "{notes:?}"
        );
        // A damaged body under the right header: one note.
        std::fs::write(&file, format!("{}\n\u{ff}\u{ff}", header())).expect("write");
        assert!(load(&root, [&module], &mut notes).is_empty());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[1].ends_with("unreadable; ignored and rebuilt"),
            "{notes:?}"
        );

        // vgc 0.1's directory of per-module files: nothing, silently (the next save replaces it).
        std::fs::remove_file(&file).expect("rm");
        std::fs::create_dir_all(&file).expect("mkdir");
        std::fs::write(file.join("src+widgets+v1.rs.bin"), "vgc-unit-cache 2 x\n").expect("write");
        let mut quiet = Vec::new();
        assert!(load(&root, [&module], &mut quiet).is_empty());
        // No file at all: nothing, silently.
        std::fs::remove_dir_all(&file).expect("rm");
        assert!(load(&root, [&module], &mut quiet).is_empty());
        assert!(quiet.is_empty(), "{quiet:?}");
    }
}
