//! `go.mod` reading and module-to-directory resolution (require, replace, vendor/, the module cache), without
//! the `go` binary.

use crate::system::System;

/// What vgc needs from a `go.mod`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoMod {
    /// The module path.
    pub module: String,
    /// `require` lines: (module, version).
    pub require: Vec<(String, String)>,
    /// `replace` lines: (old module, new path or module, new version if a module).
    pub replace: Vec<(String, String, Option<String>)>,
}

/// Parses the directives vgc needs from `go.mod` text. Unknown directives are ignored.
#[must_use]
pub fn parse_go_mod(text: &str) -> GoMod {
    let mut m = GoMod::default();
    let mut block: Option<String> = None;
    for raw in text.lines() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line == ")" {
            block = None;
            continue;
        }
        let (directive, rest) = match &block {
            Some(b) => (b.as_str(), line),
            None => {
                let (d, r) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                let r = r.trim();
                if r == "(" {
                    block = Some(d.to_string());
                    continue;
                }
                (d, r)
            }
        };
        let words: Vec<&str> = rest
            .split_whitespace()
            .map(|w| w.trim_matches('"'))
            .collect();
        match directive {
            "module" => m.module = words.first().map(|s| (*s).to_string()).unwrap_or_default(),
            "require" if words.len() >= 2 => m.require.push((words[0].into(), words[1].into())),
            "replace" => {
                if let Some(arrow) = words.iter().position(|w| *w == "=>")
                    && let Some(new) = words.get(arrow + 1)
                {
                    m.replace.push((
                        words[0].into(),
                        (*new).into(),
                        words.get(arrow + 2).map(|v| (*v).to_string()),
                    ));
                }
            }
            _ => {}
        }
    }
    m
}

/// Module path escaping of the module cache: each upper-case letter becomes `!` + lower-case.
#[must_use]
pub fn escape_module_path(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for c in p.chars() {
        if c.is_ascii_uppercase() {
            s.push('!');
            s.push(c.to_ascii_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

/// How an import path was resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// The package's directory.
    Dir(String),
    /// A standard-library package (no dot in the first path element).
    Std,
    /// The module providing it is required but not present: (module, version).
    Missing(String, String),
    /// No required module provides it.
    Unknown,
}

/// Resolves an import path to a directory, given the main module's root directory and `go.mod`.
pub fn resolve_import(sys: &dyn System, root: &str, gomod: &GoMod, import: &str) -> Resolved {
    if !import.split('/').next().unwrap_or("").contains('.') {
        return Resolved::Std;
    }
    let under = |module: &str| -> Option<String> {
        if import == module {
            Some(String::new())
        } else {
            import
                .strip_prefix(module)
                .and_then(|r| r.strip_prefix('/'))
                .map(str::to_string)
        }
    };
    if let Some(rel) = under(&gomod.module) {
        return Resolved::Dir(join(root, &rel));
    }
    // Longest required module that prefixes the import.
    let best = gomod
        .require
        .iter()
        .filter(|(m, _)| under(m).is_some())
        .max_by_key(|(m, _)| m.len());
    let Some((module, version)) = best else {
        return Resolved::Unknown;
    };
    let rel = under(module).unwrap_or_default();
    if let Some((_, new, new_ver)) = gomod.replace.iter().find(|(old, _, _)| old == module) {
        if new.starts_with('.') || new.starts_with('/') {
            let base = if new.starts_with('/') {
                clean(new)
            } else {
                clean(&join(root, new))
            };
            return Resolved::Dir(join(&base, &rel));
        }
        if let (Some(cache), Some(v)) = (sys.module_cache(), new_ver) {
            let d = join(&format!("{cache}/{}@{v}", escape_module_path(new)), &rel);
            return if sys.is_dir(&d) {
                Resolved::Dir(d)
            } else {
                Resolved::Missing(new.clone(), v.clone())
            };
        }
    }
    let vendored = join(&join(root, "vendor"), import);
    if sys.is_dir(&vendored) {
        return Resolved::Dir(vendored);
    }
    if let Some(cache) = sys.module_cache() {
        let d = join(
            &format!("{cache}/{}@{version}", escape_module_path(module)),
            &rel,
        );
        if sys.is_dir(&d) {
            return Resolved::Dir(d);
        }
    }
    Resolved::Missing(module.clone(), version.clone())
}

/// `path` with `.` components dropped and each `..` removing the component before it, lexically (Go's
/// `filepath.Clean`, which `go` applies to a `replace` directive's directory): `/m/./nested/../x` → `/m/x`.
fn clean(path: &str) -> String {
    use std::path::{Component, Path, PathBuf};
    let mut out = PathBuf::new();
    for c in Path::new(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let up = out.ends_with("..") || !out.pop();
                // `..` at the root stays at the root; above a relative start it is kept.
                if up && !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out.to_string_lossy().into_owned()
}

fn join(a: &str, b: &str) -> String {
    if b.is_empty() {
        a.trim_end_matches('/').to_string()
    } else {
        format!("{}/{}", a.trim_end_matches('/'), b)
    }
}

/// The Kubernetes modules whose version names the upstream profile, in the order detection asks them.
const PROFILE_MODULES: [&str; 3] = ["k8s.io/apimachinery", "k8s.io/api", "k8s.io/code-generator"];

/// The upstream profile a module suggests (`vgc_ir::profile`): the module's own version when it *is* one of
/// `k8s.io/apimachinery`, `k8s.io/api` or `k8s.io/code-generator` and its root is a module-cache directory
/// (`…/k8s.io/api@v0.38.0-alpha.2`), else the version `go.mod` requires of the first of those modules it
/// requires. `None` when neither applies (the caller then uses the newest profile). `why` names the module and
/// version it came from.
#[must_use]
pub fn detect_upstream(gomod: &GoMod, root: &str) -> Option<vgc_ir::profile::Selected> {
    use vgc_ir::profile::{Selected, Upstream};
    if PROFILE_MODULES.contains(&gomod.module.as_str())
        && let Some((_, version)) = root.trim_end_matches('/').rsplit_once('@')
        && let Some(u) = Upstream::from_module_version(version)
    {
        return Some(Selected {
            version: u,
            why: format!(
                "detected from the module's own version {} {version}{}",
                gomod.module,
                clamped(version, u)
            ),
        });
    }
    PROFILE_MODULES.iter().find_map(|m| {
        let (_, version) = gomod.require.iter().find(|(r, _)| r == m)?;
        let u = Upstream::from_module_version(version)?;
        Some(Selected {
            version: u,
            why: format!("detected from go.mod {m} {version}{}", clamped(version, u)),
        })
    })
}

/// `"; 1.34 is outside the supported 1.35–1.38, the nearest profile"` when the release `version` names is not the
/// profile `u` chosen for it, else nothing.
fn clamped(version: &str, u: vgc_ir::profile::Upstream) -> String {
    use vgc_ir::profile::Upstream;
    match Upstream::release_minor(version) {
        Some(minor) if minor != u.minor() => format!(
            "; 1.{minor} is outside the supported {}–{}, the nearest profile",
            Upstream::ALL[0],
            Upstream::NEWEST
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn replace_directories_are_cleaned_lexically() {
        assert_eq!(super::clean("/m/./nested"), "/m/nested");
        assert_eq!(super::clean("/m/a/../b/./c"), "/m/b/c");
        assert_eq!(super::clean("/.."), "/");
        assert_eq!(super::clean("../../x"), "../../x");
        assert_eq!(super::clean("a/../../x"), "../x");
    }

    use super::*;
    use crate::system::MemorySystem;
    #[test]
    fn go_mod_and_resolution() {
        let m = parse_go_mod(
            "module example.com/x\n\ngo 1.26\n\nrequire (\n\tk8s.io/apimachinery v0.37.2\n\tgithub.com/Foo/bar v1.0.0 // indirect\n)\nreplace example.com/y => ../y\n",
        );
        assert_eq!(m.module, "example.com/x");
        assert_eq!(m.require.len(), 2);
        assert_eq!(m.replace[0].1, "../y");
        assert_eq!(
            escape_module_path("github.com/Foo/bar"),
            "github.com/!foo/bar"
        );
        let mut sys = MemorySystem {
            cache: Some("/cache".into()),
            ..MemorySystem::default()
        };
        sys.files.insert(
            "/cache/k8s.io/apimachinery@v0.37.2/pkg/apis/meta/v1/types.go".into(),
            String::new(),
        );
        assert_eq!(
            resolve_import(&sys, "/r", &m, "k8s.io/apimachinery/pkg/apis/meta/v1"),
            Resolved::Dir("/cache/k8s.io/apimachinery@v0.37.2/pkg/apis/meta/v1".into())
        );
        assert_eq!(
            resolve_import(&sys, "/r", &m, "example.com/x/a/b"),
            Resolved::Dir("/r/a/b".into())
        );
        assert_eq!(resolve_import(&sys, "/r", &m, "fmt"), Resolved::Std);
        assert_eq!(
            resolve_import(&sys, "/r", &m, "github.com/Foo/bar/baz"),
            Resolved::Missing("github.com/Foo/bar".into(), "v1.0.0".into())
        );
        assert_eq!(
            resolve_import(&sys, "/r", &m, "other.io/z"),
            Resolved::Unknown
        );
    }

    #[test]
    fn detects_the_upstream_profile() {
        use vgc_ir::Upstream;
        let m = parse_go_mod(
            "module example.com/x\nrequire (\n\tk8s.io/api v0.37.2\n\tk8s.io/apimachinery v0.36.6 // indirect\n)\n",
        );
        let s = detect_upstream(&m, "/src/x").expect("detected");
        assert_eq!(s.version, Upstream::V1_36);
        assert_eq!(s.why, "detected from go.mod k8s.io/apimachinery v0.36.6");
        // Releases outside the supported range take the nearest profile and say so.
        for (v, want, why) in [
            (
                "v0.34.3",
                Upstream::V1_35,
                "; 1.34 is outside the supported 1.35–1.38, the nearest profile",
            ),
            (
                "v0.39.0",
                Upstream::V1_38,
                "; 1.39 is outside the supported 1.35–1.38, the nearest profile",
            ),
        ] {
            let m = parse_go_mod(&format!(
                "module example.com/x\nrequire k8s.io/apimachinery {v}\n"
            ));
            let s = detect_upstream(&m, "/src/x").expect("detected");
            assert_eq!(s.version, want);
            assert_eq!(
                s.why,
                format!("detected from go.mod k8s.io/apimachinery {v}{why}")
            );
        }
        let own = parse_go_mod("module k8s.io/api\nrequire k8s.io/apimachinery v0.37.2\n");
        let s = detect_upstream(&own, "/root/go/pkg/mod/k8s.io/api@v0.38.0-alpha.2").expect("own");
        assert_eq!(s.version, Upstream::V1_38);
        assert_eq!(
            s.why,
            "detected from the module's own version k8s.io/api v0.38.0-alpha.2"
        );
        // A checkout of k8s.io/api (no version in the path) follows its apimachinery requirement.
        let s = detect_upstream(&own, "/src/api").expect("require");
        assert_eq!(s.version, Upstream::V1_37);
        assert_eq!(
            detect_upstream(&parse_go_mod("module example.com/y\n"), "/y"),
            None
        );
    }
}
