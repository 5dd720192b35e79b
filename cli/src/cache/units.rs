//! The persistent unit cache: the unformatted items ([`vgc_codegen::type_file_units`]) of every generated type by
//! its generation key ([`vgc_codegen::type_key`]), one file per module under `.vgc-units/` in the output
//! directory (`.vgc/units/`). When a rebuild must generate a module again (its plan changed), the types of that module whose
//! plan did not change take their items from here instead of being emitted again, and the formatting cache
//! already holds those items formatted: an edit of one tag emits and formats that type only.
//!
//! Format of each file: one header line (`vgc-unit-cache 2 <vgc version> <size> <mtime>` — the executable's
//! stamp, so a rebuilt vgc never reuses an older generator's output), the BLAKE3 hash of the body, then the body:
//! `(key, units)` pairs encoded with postcard (see [`super::read_versioned`]). Only the files of the modules being generated are read; an unusable file is ignored with a note and
//! rewritten after the build. The cache can only save work, never change output.

use super::{FOREIGN, read_versioned, tool_fingerprint, write_versioned};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The cache directory's name in the output directory.
pub const DIR: &str = "units";

/// Units by type key.
pub type Entries = vgc_codegen::UnitEntries;

fn header() -> String {
    format!("vgc-unit-cache 2 {}", tool_fingerprint())
}

/// The cache file of generated file `module` (a path such as `src/widgets/v1.rs`): `/` becomes `+` (never part of
/// a Rust module name).
fn file_of(dir: &Path, module: &str) -> PathBuf {
    dir.join(DIR)
        .join(format!("{}.bin", module.replace('/', "+")))
}

/// Reads the entries of the generated files `modules` from `dir`'s cache. Missing files are skipped silently;
/// unusable ones add a note each, except that files written by another vgc build (every file, after an
/// upgrade) add one note together.
pub fn load<'a>(
    dir: &Path,
    modules: impl IntoIterator<Item = &'a String>,
    notes: &mut Vec<String>,
) -> Entries {
    let mut entries = Entries::new();
    let header = header();
    let mut problems = Vec::new();
    for m in modules {
        if let Some(v) =
            read_versioned::<Vec<vgc_codegen::KeyedUnits>>(&file_of(dir, m), &header, &mut problems)
        {
            entries.extend(v.into_iter().map(|(k, u)| (k, Arc::new(u))));
        }
    }
    let (foreign, other): (Vec<String>, Vec<String>) =
        problems.into_iter().partition(|n| n.ends_with(FOREIGN));
    match foreign.len() {
        0 => {}
        1 => notes.extend(foreign),
        n => notes.push(format!("{}: {n} files{FOREIGN}", dir.join(DIR).display())),
    }
    notes.extend(other);
    entries
}

/// Writes the cache file of each generated file in `modules` from the database's current plan, and removes the
/// cache files of modules no longer in `all`. Returns how many of those modules' types had their key in `loaded`
/// (the entries [`load`] gave this build: types that were not emitted again). Write failures are ignored (the
/// next build does more work).
pub fn save<'a>(
    dir: &Path,
    db: &dyn vgc_ir::Db,
    modules: impl IntoIterator<Item = &'a String>,
    all: &std::collections::HashSet<&str>,
    loaded: &Entries,
) -> usize {
    let header = header();
    let cache = dir.join(DIR);
    if std::fs::create_dir_all(&cache).is_err() {
        return 0;
    }
    use rayon::prelude::*;
    let mut hits = 0;
    // The database is read on this thread; the files (one per module) are encoded and written in parallel.
    let mut files = Vec::new();
    for m in modules {
        if let Ok(units) = vgc_codegen::module_type_units(db, m)
            && !units.is_empty()
        {
            hits += units.iter().filter(|(k, _)| loaded.contains_key(k)).count();
            files.push((file_of(dir, m), units));
        }
    }
    files
        .par_iter()
        .for_each(|(file, units)| write_versioned(file, &header, units));
    if let Ok(listing) = std::fs::read_dir(&cache) {
        remove_others(listing, all);
    }
    hits
}

/// Removes the cache files in `listing` whose module is not in `all`.
fn remove_others(listing: std::fs::ReadDir, all: &std::collections::HashSet<&str>) {
    for e in listing.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let current = name
            .strip_suffix(".bin")
            .is_some_and(|m| all.contains(m.replace('+', "/").as_str()));
        if !current {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_and_broken_files_are_ignored_with_a_note() {
        let out = tempfile::tempdir().expect("tempdir");
        // The cache root of an output directory (no `--cache-dir`).
        let root = out.path().join(".vgc");
        let tmp = &root;
        let module = "src/widgets/v1.rs".to_string();
        std::fs::create_dir_all(tmp.join(DIR)).expect("mkdir");
        let file = file_of(tmp, &module);
        assert!(file.ends_with(".vgc/units/src+widgets+v1.rs.bin"));

        write_versioned(
            &file,
            &header(),
            &vec![([7u8; 32], vec!["fn a() {}\n".to_string()])],
        );
        let mut notes = Vec::new();
        let entries = load(tmp.as_path(), [&module], &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(
            entries
                .get(&vgc_ir::db::Digest([7u8; 32]))
                .map(|u| u.as_slice()),
            Some(&["fn a() {}\n".to_string()][..])
        );

        std::fs::write(&file, "vgc-unit-cache 0 older\nxx").expect("write");
        assert!(load(tmp.as_path(), [&module], &mut notes).is_empty());
        // Several foreign files (an upgraded vgc): one note.
        let other = "src/widgets/v2.rs".to_string();
        std::fs::write(file_of(tmp.as_path(), &other), "vgc-unit-cache 0 older\nxx")
            .expect("write");
        let mut upgraded = Vec::new();
        assert!(load(tmp.as_path(), [&module, &other], &mut upgraded).is_empty());
        assert_eq!(upgraded.len(), 1, "{upgraded:?}");
        assert!(
            upgraded[0].ends_with(".vgc/units: 2 files written by another vgc build; rebuilt"),
            "{upgraded:?}"
        );
        std::fs::write(&file, format!("{}\n\u{ff}\u{ff}", header())).expect("write");
        assert!(load(tmp.as_path(), [&module], &mut notes).is_empty());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].ends_with("written by another vgc build; rebuilt"),
            "{notes:?}"
        );
        assert!(
            notes[1].ends_with("unreadable; ignored and rebuilt"),
            "{notes:?}"
        );
        // A module without a cache file contributes nothing, silently.
        let mut quiet = Vec::new();
        assert!(load(tmp.as_path(), [&"src/other.rs".to_string()], &mut quiet).is_empty());
        assert!(quiet.is_empty());
    }
}
