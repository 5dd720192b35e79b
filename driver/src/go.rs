//! The Go target's pieces outside the pipeline (`--target go`, `vgc validation-gen`; `docs/go-backend.md`): the
//! boilerplate header as gengo's `GoBoilerplate` reads it ([`header`], [`current_year`]), the module root the
//! files are written under ([`module_root`]), and the [`System`] that keeps the target's own outputs out of the
//! load ([`HideGenerated`]).

use std::path::{Path, PathBuf};
use vgc_analysis::System;
use vgc_analysis::system::Stamp;

pub use crate::request::current_year;
#[cfg(test)]
use crate::request::year_of_day;

/// The `--go-header-file` text as generated files carry it: the file read through `sys` (the build manifest then
/// observes it, so editing the header regenerates), every `YEAR` replaced by [`current_year`] (gengo
/// `GoBoilerplate`; its trailing newline is the printer's).
///
/// # Errors
/// The file cannot be read (missing, not a regular file, not UTF-8): a message naming it and the flag.
pub fn header(sys: &dyn System, path: &str) -> Result<String, String> {
    let text = sys
        .read_file(path)
        .map_err(|e| format!("{path}: cannot read the --go-header-file: {e}"))?;
    Ok(text.replace("YEAR", &current_year().to_string()))
}

/// The root of the Go module holding `path` (a directory or `.go` file): the nearest directory with a `go.mod`
/// file, itself or above. The Go target writes its files relative to it, as one transaction, and keeps its lock
/// and caches in `.vgc/` there.
#[must_use]
pub fn module_root(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|d| d.join("go.mod").is_file())
        .map(Path::to_path_buf)
}

/// A [`System`] that leaves the Go target's own outputs out of directory listings: a file named `output_file` (or
/// the `<output>_coverage_test.go` and `<output>_test.go` of `+k8s:validation-gen-test-targets` and
/// `-test-fixture`) that validation-gen generated ([`crate::output::is_generated_go`]) is not listed, so it is never loaded as a
/// source of its package (upstream's `kube_codegen.sh` deletes them before generating for the same reason), and a
/// directory's listing — which the build manifest hashes — does not change when a build writes one. A file of
/// that name that is the user's is listed (and the write refuses to replace it).
///
/// The marker is read through the inner system: wrap the bare file system and record above it
/// (`Recorder::new(&HideGenerated::new(&OsSystem, …))`), so the generated file's text is no observation of the build.
pub struct HideGenerated<'a> {
    inner: &'a dyn System,
    output_file: String,
    /// With `--test-output-root`: the fixtures' directory and file prefix; a generated `<prefix>…_test.go` is not
    /// listed either, nor a directory on the way to or below that directory that holds nothing else.
    fixtures: Option<(PathBuf, String)>,
}

impl<'a> HideGenerated<'a> {
    /// Hides generated files named `output_file` that `inner` lists.
    #[must_use]
    pub fn new(inner: &'a dyn System, output_file: &str) -> Self {
        Self {
            inner,
            output_file: output_file.to_string(),
            fixtures: None,
        }
    }

    /// Also hides the coverage test fixtures `go` writes (`--test-output-root`): generated `_test.go` files whose
    /// name starts with its `--test-output-file-prefix` (with an empty prefix, every generated `_test.go` file),
    /// and the directories on the way to or below the fixtures' directory that hold nothing but such files (the
    /// build creates them), so that writing the fixtures changes no listing the build manifest hashes. Test files
    /// are never sources.
    #[must_use]
    pub fn hiding_fixtures(mut self, go: &crate::request::GoTarget) -> Self {
        self.fixtures = go
            .coverage
            .as_ref()
            .map(|c| (PathBuf::from(&c.root), c.file_prefix.clone()));
        self
    }

    /// Whether file `name` of directory `dir` is one of the target's generated outputs.
    fn hidden_file(&self, dir: &str, name: &str) -> bool {
        let named = name == self.output_file
            || name == vgc_gogen::coverage::package_test_name(&self.output_file)
            || name == vgc_gogen::coverage::fixture_test_name(&self.output_file)
            || self
                .fixtures
                .as_ref()
                .is_some_and(|(_, p)| name.starts_with(p.as_str()) && name.ends_with("_test.go"));
        named
            && self
                .inner
                .read_file(&format!("{}/{name}", dir.trim_end_matches('/')))
                .is_ok_and(|t| crate::output::is_generated_go(&t))
    }

    /// Whether directory `dir` is on the way to or below the fixtures' directory and holds, through its
    /// subdirectories, nothing but hidden files.
    fn hidden_dir(&self, dir: &str) -> bool {
        let Some((root, _)) = &self.fixtures else {
            return false;
        };
        let d = Path::new(dir);
        (d.starts_with(root) || root.starts_with(d)) && self.only_hidden(dir)
    }

    fn only_hidden(&self, dir: &str) -> bool {
        self.inner.read_dir(dir).is_ok_and(|entries| {
            entries.iter().all(|(name, is_dir)| {
                if *is_dir {
                    self.only_hidden(&format!("{}/{name}", dir.trim_end_matches('/')))
                } else {
                    self.hidden_file(dir, name)
                }
            })
        })
    }
}

impl System for HideGenerated<'_> {
    fn read_file(&self, path: &str) -> Result<String, String> {
        self.inner.read_file(path)
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let mut entries = self.inner.read_dir(path)?;
        entries.retain(|(name, is_dir)| {
            if *is_dir {
                !self.hidden_dir(&format!("{}/{name}", path.trim_end_matches('/')))
            } else {
                !self.hidden_file(path, name)
            }
        });
        Ok(entries)
    }
    fn is_dir(&self, path: &str) -> bool {
        self.inner.is_dir(path)
    }
    fn module_cache(&self) -> Option<String> {
        self.inner.module_cache()
    }
    fn stamp(&self, path: &str) -> Option<Stamp> {
        self.inner.stamp(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_of_days() {
        assert_eq!(year_of_day(0), 1970);
        assert_eq!(year_of_day(-1), 1969);
        // 2024-02-29 and 2024-12-31, 2025-01-01.
        assert_eq!(year_of_day(19_782), 2024);
        assert_eq!(year_of_day(20_088), 2024);
        assert_eq!(year_of_day(20_089), 2025);
        assert!(current_year() >= 2025);
    }

    #[test]
    fn generated_outputs_are_not_listed_and_the_users_are() {
        let mut sys = vgc_analysis::MemorySystem::default();
        let generated = format!(
            "//go:build !ignore_autogenerated\n\n{}\n\npackage v1\n",
            crate::output::GO_GENERATED_MARKER
        );
        sys.files
            .insert("/m/a/zz_generated.validations.go".into(), generated.clone());
        sys.files
            .insert("/m/a/types.go".into(), "package v1\n".into());
        sys.files.insert(
            "/m/b/zz_generated.validations.go".into(),
            "package v1\n\nfunc Mine() {}\n".into(),
        );
        sys.files.insert("/m/b/other.go".into(), generated.clone());
        let hide = HideGenerated::new(&sys, "zz_generated.validations.go");
        let names = |d: &str| -> Vec<String> {
            hide.read_dir(d)
                .expect("listed")
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        assert_eq!(names("/m/a"), ["types.go"]);
        assert_eq!(names("/m/b"), ["other.go", "zz_generated.validations.go"]);
        // With `--test-output-root /m/t/dv`: generated fixtures are hidden, and so are the directories holding
        // nothing else; a user's test file and its directory stay.
        sys.files
            .insert("/m/t/dv/apps/scale/zz.v1_test.go".into(), generated.clone());
        sys.files.insert(
            "/m/t/dv/apps/scale/zz.main_test.go".into(),
            generated.clone(),
        );
        sys.files.insert(
            "/m/t/dv/core/pod/zz.v1_test.go".into(),
            generated.replace("package v1", "package pod"),
        );
        sys.files.insert(
            "/m/t/dv/core/pod/hand_test.go".into(),
            "package pod\n".into(),
        );
        sys.files.insert(
            "/m/t/dv/core/pod/zz.mine_test.go".into(),
            "package pod\n".into(),
        );
        let go = crate::request::GoTarget {
            coverage: Some(crate::request::CoverageFixtures {
                root: "/m/t/dv".into(),
                file_prefix: "zz.".into(),
                allowlist: None,
            }),
            ..Default::default()
        };
        let hide = HideGenerated::new(&sys, "zz_generated.validations.go").hiding_fixtures(&go);
        let names = |d: &str| -> Vec<String> {
            hide.read_dir(d)
                .expect("listed")
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        assert_eq!(names("/m/t/dv"), ["core"]);
        assert_eq!(
            names("/m/t/dv/core/pod"),
            ["hand_test.go", "zz.mine_test.go"]
        );
        assert_eq!(names("/m/t/dv/apps"), Vec::<String>::new());
        sys.files.remove("/m/t/dv/core/pod/hand_test.go");
        sys.files.remove("/m/t/dv/core/pod/zz.mine_test.go");
        let hide = HideGenerated::new(&sys, "zz_generated.validations.go").hiding_fixtures(&go);
        let top: Vec<String> = hide
            .read_dir("/m")
            .expect("listed")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(top, ["a", "b"], "/m/t holds nothing but fixtures");
        let h = header(&sys, "/m/a/types.go").expect("read");
        assert_eq!(h, "package v1\n");
        let e = header(&sys, "/m/missing.txt").expect_err("missing");
        assert!(
            e.starts_with("/m/missing.txt: cannot read the --go-header-file"),
            "{e}"
        );
    }
}
