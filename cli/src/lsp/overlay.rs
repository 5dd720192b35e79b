//! The [`System`] of `vgc lsp`: the OS file system with the editor's open buffers laid over it.

use std::collections::{BTreeMap, BTreeSet};
use vgc_analysis::System;
use vgc_analysis::system::Stamp;

/// Reads `texts` (the open buffers, by the absolute path discovery spells) instead of the files under them, lists
/// buffers of files that do not exist on disk yet in their directories, and reports no stamp for a buffer or for a
/// file in `fresh` (a buffer closed since the last check), so the load reads them again instead of trusting a
/// size and modification time that say nothing about what the database holds.
pub(crate) struct Overlay<'a> {
    /// The file system below.
    pub(crate) base: &'a dyn System,
    /// Open buffers by path.
    pub(crate) texts: &'a BTreeMap<String, String>,
    /// Paths whose buffer was closed since the last check.
    pub(crate) fresh: &'a BTreeSet<String>,
}

impl Overlay<'_> {
    /// The buffers directly in directory `dir`, by file name.
    fn names_in<'s>(&'s self, dir: &'s str) -> impl Iterator<Item = &'s str> + 's {
        let dir = dir.trim_end_matches('/');
        self.texts.keys().filter_map(move |p| {
            let (parent, name) = p.rsplit_once('/')?;
            (parent == dir).then_some(name)
        })
    }
}

impl System for Overlay<'_> {
    fn read_file(&self, path: &str) -> Result<String, String> {
        match self.texts.get(path) {
            Some(t) => Ok(t.clone()),
            None => self.base.read_file(path),
        }
    }

    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let extra: Vec<&str> = self.names_in(path).collect();
        let mut entries = match self.base.read_dir(path) {
            Ok(e) => e,
            Err(e) if extra.is_empty() => return Err(e),
            Err(_) => Vec::new(),
        };
        for name in extra {
            if !entries.iter().any(|(n, _)| n == name) {
                entries.push((name.to_string(), false));
            }
        }
        entries.sort();
        Ok(entries)
    }

    fn is_dir(&self, path: &str) -> bool {
        self.base.is_dir(path) || self.names_in(path).next().is_some()
    }

    fn module_cache(&self) -> Option<String> {
        self.base.module_cache()
    }

    fn stamp(&self, path: &str) -> Option<Stamp> {
        if self.texts.contains_key(path) || self.fresh.contains(path) {
            None
        } else {
            self.base.stamp(path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Overlay;
    use std::collections::{BTreeMap, BTreeSet};
    use vgc_analysis::{MemorySystem, System};

    #[test]
    fn buffers_shadow_files_and_appear_in_listings() {
        let mut disk = MemorySystem::default();
        disk.files.insert("/m/a/x.go".into(), "disk".into());
        let texts = BTreeMap::from([
            ("/m/a/x.go".to_string(), "buffer".to_string()),
            ("/m/a/new.go".to_string(), "new".to_string()),
            ("/m/b/only.go".to_string(), "only".to_string()),
        ]);
        let fresh = BTreeSet::new();
        let o = Overlay {
            base: &disk,
            texts: &texts,
            fresh: &fresh,
        };
        assert_eq!(o.read_file("/m/a/x.go").as_deref(), Ok("buffer"));
        assert_eq!(
            o.read_dir("/m/a"),
            Ok(vec![("new.go".into(), false), ("x.go".into(), false)])
        );
        assert!(o.is_dir("/m/b"));
        assert_eq!(o.read_dir("/m/b"), Ok(vec![("only.go".into(), false)]));
        assert!(o.stamp("/m/a/x.go").is_none());
    }
}
