//! `vgc validate`'s plan cache: a lowered API tree (whatever value the caller keeps — `vgc validate` keeps its
//! dispatch table and plan) together with what loading the tree observed of the file system
//! ([`super::manifest::Observations`]: every file read, directory listing and probe) and the request key, so a
//! repeat run on an unchanged tree starts without parsing, checking or lowering anything.
//!
//! Format: the versioned, checksummed postcard file of `read_versioned` (header
//! `vgc-plan-cache 1 <vgc version> <size> <mtime>`), named `plan` in the caller's directory. The value is used only
//! when the request key is the same and every observation still holds ([`super::manifest::Observations::hold`]):
//! an edited, added or removed Go file, a changed `go.mod`, or another vgc build makes it stale, and a stale,
//! foreign, truncated or corrupt file is ignored (the last three with a note) and rewritten — never trusted.

use super::manifest::{Observations, Recorder};
use super::{read_versioned, tool_fingerprint, write_versioned};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;
use vgc_analysis::System;

/// The cache file's name in its directory.
pub const FILE: &str = "plan";

fn header() -> String {
    format!("vgc-plan-cache 1 {}", tool_fingerprint())
}

/// What the file holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct Body<T> {
    key: String,
    observations: Observations,
    value: T,
}

/// Why [`load`] returned no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Miss {
    /// There is no cache file.
    Absent,
    /// The file is foreign, truncated or corrupt (a note says which).
    Unreadable,
    /// It was written for another request (other options, another API tree in the same directory).
    OtherRequest,
    /// A file the cached load observed changed (or appeared, or disappeared).
    Stale,
}

/// The cached value of `dir` for request `key`, when every observation of the load that produced it still holds
/// through `sys`; otherwise why not (an unusable file adds a note to `notes`).
///
/// # Errors
/// [`Miss`] when there is no usable value.
pub fn load<T: DeserializeOwned>(
    dir: &Path,
    key: &str,
    sys: &dyn System,
    notes: &mut Vec<String>,
) -> Result<T, Miss> {
    let file = dir.join(FILE);
    if !file.exists() {
        return Err(Miss::Absent);
    }
    let body: Body<T> = read_versioned(&file, &header(), notes).ok_or(Miss::Unreadable)?;
    if body.key != key {
        return Err(Miss::OtherRequest);
    }
    if !body.observations.hold(sys, None) {
        return Err(Miss::Stale);
    }
    Ok(body.value)
}

/// Writes `value` into `dir`'s cache for request `key`, with what `rec` observed (creating `dir`). Failing to
/// write only costs the next run a load.
pub fn save<T: Serialize>(dir: &Path, key: &str, rec: &Recorder<'_>, value: &T) {
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let body = Body {
        key: key.to_string(),
        observations: rec.observations(),
        value,
    };
    write_versioned(&dir.join(FILE), &header(), &body);
}

#[cfg(test)]
mod tests {
    use super::*;
    use vgc_analysis::MemorySystem;

    fn recorded(sys: &MemorySystem) -> Recorder<'_> {
        let rec = Recorder::new(sys);
        let _ = rec.read_file("/m/go.mod");
        let _ = rec.read_file("/m/a/t.go");
        let _ = rec.read_dir("/m/a");
        rec
    }

    fn sys() -> MemorySystem {
        let mut sys = MemorySystem::default();
        sys.files.insert("/m/go.mod".into(), "module m\n".into());
        sys.files.insert("/m/a/t.go".into(), "package a\n".into());
        sys
    }

    #[test]
    fn a_value_is_used_only_while_its_observations_hold() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = sys();
        let mut notes = Vec::new();
        assert_eq!(
            load::<Vec<String>>(dir.path(), "k", &sys, &mut notes),
            Err(Miss::Absent)
        );
        save(dir.path(), "k", &recorded(&sys), &vec!["plan".to_string()]);
        assert_eq!(
            load::<Vec<String>>(dir.path(), "k", &sys, &mut notes),
            Ok(vec!["plan".to_string()])
        );
        assert_eq!(
            load::<Vec<String>>(dir.path(), "other", &sys, &mut notes),
            Err(Miss::OtherRequest)
        );
        let mut edited = sys.clone();
        edited
            .files
            .insert("/m/a/t.go".into(), "package a // edited\n".into());
        assert_eq!(
            load::<Vec<String>>(dir.path(), "k", &edited, &mut notes),
            Err(Miss::Stale)
        );
        let mut added = sys.clone();
        added.files.insert("/m/a/u.go".into(), "package a\n".into());
        assert_eq!(
            load::<Vec<String>>(dir.path(), "k", &added, &mut notes),
            Err(Miss::Stale)
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn a_corrupt_or_foreign_file_is_ignored_with_a_note() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = sys();
        save(dir.path(), "k", &recorded(&sys), &vec!["plan".to_string()]);
        let file = dir.path().join(FILE);
        let mut bytes = std::fs::read(&file).expect("read");
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&file, &bytes).expect("write");
        let mut notes = Vec::new();
        assert_eq!(
            load::<Vec<String>>(dir.path(), "k", &sys, &mut notes),
            Err(Miss::Unreadable)
        );
        assert_eq!(
            notes,
            [format!(
                "{}: unreadable; ignored and rebuilt",
                file.display()
            )]
        );
        std::fs::write(&file, "vgc-plan-cache 0 old\nxyz").expect("write");
        assert_eq!(
            load::<Vec<String>>(dir.path(), "k", &sys, &mut notes),
            Err(Miss::Unreadable)
        );
        assert!(notes[1].ends_with("written by another vgc build; rebuilt"));
        // A body of the wrong shape (a value of another type) does not decode.
        save(dir.path(), "k", &recorded(&sys), &7u8);
        assert_eq!(
            load::<Vec<(String, String, u64)>>(dir.path(), "k", &sys, &mut notes),
            Err(Miss::Unreadable)
        );
    }
}
