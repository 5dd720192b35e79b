//! `vgc validation-gen`: upstream validation-gen's command line (code-generator's `cmd/validation-gen`, as
//! `hack/update-codegen.sh` and `kube_codegen.sh` pass it) mapped onto `vgc build --target go`: the input packages
//! become the build's target packages ([`vgc_driver::BuildRequest::packages`]), `--output-file` and
//! `--go-header-file` the Go target's settings; `--tag-prefix` and `--validation-extensions-file` are vgc's global
//! flags of the same names; `--test-output-root`, `--test-output-file-prefix` and `--test-allowlist` the Go
//! target's coverage fixtures ([`vgc_driver::CoverageFixtures`]). What vgc does not implement is accepted with a
//! one-line note (`--readonly-pkg`, `--lint-rules`, `-v` above 0), never silently.

use super::common::Globals;
use crate::args::{DocsArgs, DocsFormat, ValidationGenArgs};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use vgc_driver::{BuildRequest, GoTarget};

/// upstream `pkg/apidefinitions` `allLintRules`.
const LINT_RULES: &[&str] = &["known-tags-only", "require-explicit-disablement"];

/// `vgc validation-gen`; `start` is when the command line was parsed.
pub(crate) fn run(a: ValidationGenArgs, globals: &Globals, start: Instant) -> ExitCode {
    let mut stderr = std::io::stderr().lock();
    let fail = |stderr: &mut dyn std::io::Write, msg: String| {
        let _ = writeln!(stderr, "error: {msg}");
        ExitCode::from(2)
    };
    if let Err(e) = super::build::check_coverage_flags(
        a.test_output_root.as_deref(),
        a.test_output_file_prefix.as_deref(),
        a.test_allowlist.as_deref(),
    ) {
        return fail(&mut stderr, e);
    }
    if let Some(bad) = a
        .lint_rules
        .iter()
        .find(|r| !LINT_RULES.contains(&r.as_str()))
    {
        // upstream `apidefinitions.ValidateFlags`.
        return fail(
            &mut stderr,
            format!(
                "unrecognized rule in --lint-rules: {bad} (supported: {})",
                LINT_RULES.join(",")
            ),
        );
    }
    if a.docs {
        drop(stderr);
        return super::docs::run(
            DocsArgs {
                path: None,
                format: DocsFormat::TagsJson,
                out: String::new(),
                templates: None,
                roots: Vec::new(),
                force: false,
            },
            globals,
        );
    }
    if let Err(e) = GoTarget::check_output_file(&a.output_file) {
        return fail(&mut stderr, e);
    }
    if a.packages.is_empty() {
        return fail(
            &mut stderr,
            "no input packages; name them as validation-gen takes them (`./...`, `./pkg/apis/...`, import paths)"
                .into(),
        );
    }
    if !a.readonly_pkg.is_empty() {
        let _ = writeln!(
            stderr,
            "note: --readonly-pkg {}: ignored; vgc reads every package the inputs' types refer to, read-only, on its own",
            a.readonly_pkg.join(",")
        );
    }
    if !a.lint_rules.is_empty() {
        let _ = writeln!(
            stderr,
            "note: --lint-rules {}: upstream's package lint rules are not implemented by vgc; ignored (its tag lint rules, VGC0301-VGC0305, always run)",
            a.lint_rules.join(",")
        );
    }
    if let Some(v) = a.verbosity.as_deref().filter(|v| v.trim() != "0") {
        let _ = writeln!(stderr, "note: -v {v}: vgc writes no klog logs; ignored");
    }
    let cwd = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => return fail(&mut stderr, format!("the current directory: {e}")),
    };
    let inputs = match resolve_inputs(&a.packages, &cwd) {
        Ok(i) => i,
        Err(e) => return fail(&mut stderr, e),
    };
    let header_file = a
        .go_header_file
        .as_ref()
        .map(|h| cwd.join(h).to_string_lossy().into_owned());
    let req = BuildRequest {
        path: inputs.path,
        packages: inputs.packages,
        out: Some(inputs.module_root),
        no_cache: a.no_cache,
        force: a.force,
        go: Some(GoTarget {
            output_file: a.output_file,
            header_file,
            coverage: vgc_driver::CoverageFixtures::resolve(
                &cwd,
                a.test_output_root.as_deref(),
                a.test_output_file_prefix.as_deref(),
                a.test_allowlist.as_deref(),
            ),
        }),
        ..BuildRequest::default()
    };
    drop(stderr);
    let style = super::build::Style::of(a.short, &a.color);
    if a.serve {
        let mut req = req;
        if let Err(code) = globals.apply(&mut req, None) {
            return code;
        }
        req.extension_files = globals.extensions.clone();
        return super::serve::serve(&req, style, a.timings, start);
    }
    super::build::execute(req, style, a.timings, globals, start, !a.no_server)
}

/// The input packages resolved: the build path (their closest common directory), the selection and the module root.
#[derive(Debug, PartialEq, Eq)]
struct Inputs {
    path: String,
    packages: Vec<String>,
    module_root: PathBuf,
}

/// Resolves validation-gen's input patterns against `cwd`: a directory (`.`, `./x`, `/abs/x`, with `/...` for the
/// tree below it), or an import path — in the Go module of `cwd` by its module path, else through `go list -find`
/// (as gengo, which loads patterns with `go/packages`). All must lie in one Go module, or in the current
/// directory's and modules its go.mod `replace`s with a directory below it ([`main_replacing`]).
///
/// # Errors
/// A pattern that names no directory, an import path neither the module nor `go list` resolves, inputs in several
/// Go modules or in the Go module cache.
fn resolve_inputs(patterns: &[String], cwd: &Path) -> Result<Inputs, String> {
    let main = vgc_driver::go::module_root(cwd).and_then(|root| {
        let text = std::fs::read_to_string(root.join("go.mod")).ok()?;
        Some((root, vgc_analysis::gomod::parse_go_mod(&text).module))
    });
    // (directory, recursive)
    let mut dirs: Vec<(PathBuf, bool)> = Vec::new();
    for p in patterns {
        let (base, recursive) = match p.strip_suffix("/...") {
            Some(b) => (if b.is_empty() { "/" } else { b }, true),
            None if p == "..." => (".", true),
            None => (p.as_str(), false),
        };
        let is_dir_pattern = base.starts_with('.') || base.starts_with('/');
        let dir = if is_dir_pattern {
            cwd.join(base)
        } else if let Some((root, module)) = &main
            && let Some(rest) = base
                .strip_prefix(module.as_str())
                .filter(|r| r.is_empty() || r.starts_with('/'))
        {
            root.join(rest.trim_start_matches('/'))
        } else {
            for d in go_list(p, cwd)? {
                dirs.push((d, false));
            }
            continue;
        };
        let canonical =
            std::fs::canonicalize(&dir).map_err(|e| format!("{p}: {}: {e}", dir.display()))?;
        if !canonical.is_dir() {
            return Err(format!("{p}: {}: not a directory", canonical.display()));
        }
        dirs.push((canonical, recursive));
    }
    let mut roots: Vec<PathBuf> = dirs
        .iter()
        .map(|(d, _)| {
            vgc_driver::go::module_root(d)
                .ok_or_else(|| format!("{}: no go.mod found in it or any parent", d.display()))
        })
        .collect::<Result<_, _>>()?;
    roots.sort();
    roots.dedup();
    let module_root = match roots.as_slice() {
        [one] => one.clone(),
        _ => match main_replacing(&roots, cwd) {
            Some(main) => main,
            None => {
                return Err(format!(
                    "the input packages lie in {} Go modules ({}); vgc validation-gen generates into one module per run, and the modules it may add to the current directory's are those its go.mod `replace`s with a directory below it and `require`s (as k8s.io/kubernetes' staging/; a go.work is not read){} — run it once per module",
                    roots.len(),
                    roots
                        .iter()
                        .map(|r| r.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    replaced_not_required(cwd)
                        .map(|m| format!("; its go.mod replaces {m} but does not require it: add `require {m} v0.0.0`"))
                        .unwrap_or_default()
                ));
            }
        },
    };
    if let Some(cache) = vgc::gomodule::module_cache_holding(&module_root) {
        return Err(format!(
            "{}: inside the Go module cache ({}), which Go keeps read-only; generate into a module of your own",
            module_root.display(),
            cache.display()
        ));
    }
    let mut common = dirs[0].0.clone();
    for (d, _) in &dirs[1..] {
        while !d.starts_with(&common) {
            if !common.pop() {
                break;
            }
        }
    }
    let path = common.to_string_lossy().into_owned();
    let mut packages: Vec<String> = dirs
        .iter()
        .map(|(d, recursive)| {
            let d = d.to_string_lossy();
            if *recursive {
                format!("{}/...", d.trim_end_matches('/'))
            } else {
                d.into_owned()
            }
        })
        .collect();
    packages.sort();
    packages.dedup();
    // A tree at the common directory selects everything the build path does (in one module: the packages of
    // replaced modules below it are targets only when named).
    if roots.len() == 1 && packages.contains(&format!("{}/...", path.trim_end_matches('/'))) {
        packages.clear();
    }
    Ok(Inputs {
        path,
        packages,
        module_root,
    })
}

/// The root of the Go module of `cwd` when every module root of `roots` is either it or a module its go.mod
/// `replace`s with a directory below it (k8s.io/kubernetes: `replace k8s.io/api => ./staging/src/k8s.io/api`): the
/// build loads that module, and the packages named in the others are its targets too (written under its root).
fn main_replacing(roots: &[PathBuf], cwd: &Path) -> Option<PathBuf> {
    let main = vgc_driver::go::module_root(cwd)?;
    let main = std::fs::canonicalize(&main).ok()?;
    let gomod =
        vgc_analysis::gomod::parse_go_mod(&std::fs::read_to_string(main.join("go.mod")).ok()?);
    let replaced: Vec<PathBuf> = gomod
        .replace
        .iter()
        .filter(|(_, new, _)| {
            new.starts_with("./") || new.starts_with("../") || new.starts_with('/')
        })
        .filter(|(old, _, _)| gomod.require.iter().any(|(m, _)| m == old))
        .filter_map(|(_, new, _)| std::fs::canonicalize(main.join(new)).ok())
        .filter(|d| d.starts_with(&main) && *d != main)
        .collect();
    roots
        .iter()
        .all(|r| *r == main || replaced.contains(r))
        .then_some(main)
}

/// The modules the go.mod of `cwd`'s module `replace`s with a local directory without `require`-ing them (Go then
/// ignores the replacement unless a go.work uses the directory), comma-separated; `None` when there is none.
fn replaced_not_required(cwd: &Path) -> Option<String> {
    let main = vgc_driver::go::module_root(cwd)?;
    let gomod =
        vgc_analysis::gomod::parse_go_mod(&std::fs::read_to_string(main.join("go.mod")).ok()?);
    let missing: Vec<&str> = gomod
        .replace
        .iter()
        .filter(|(_, new, _)| {
            new.starts_with("./") || new.starts_with("../") || new.starts_with('/')
        })
        .filter(|(old, _, _)| !gomod.require.iter().any(|(m, _)| m == old))
        .map(|(old, _, _)| old.as_str())
        .collect();
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// The directories `go list -find` gives for `pattern` in `cwd` (one per package).
///
/// # Errors
/// `go` cannot run, or fails on the pattern.
fn go_list(pattern: &str, cwd: &Path) -> Result<Vec<PathBuf>, String> {
    let out = std::process::Command::new("go")
        .args(["list", "-find", "-f", "{{.Dir}}", pattern])
        .current_dir(cwd)
        .output()
        .map_err(|e| {
            format!(
                "{pattern}: not a directory or a package of the Go module of {}, and `go list` cannot run ({e})",
                cwd.display()
            )
        })?;
    if !out.status.success() {
        return Err(format!(
            "{pattern}: not a directory or a package of the Go module of {}; `go list` says: {}",
            cwd.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(PathBuf::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_directories_or_import_paths_of_one_module() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(tmp.path()).expect("canonical");
        std::fs::write(root.join("go.mod"), "module example.com/m\n\ngo 1.24\n").expect("go.mod");
        for d in ["apis/a/v1", "apis/b/v1", "other/go.sub"] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        std::fs::write(root.join("other/go.mod"), "module example.com/other\n").expect("go.mod");
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
        let r = resolve_inputs(&s(&["./apis/a/v1", "example.com/m/apis/b/v1"]), &root)
            .expect("resolved");
        assert_eq!(r.path, root.join("apis").to_string_lossy());
        assert_eq!(r.module_root, root);
        assert_eq!(
            r.packages,
            [root.join("apis/a/v1"), root.join("apis/b/v1")]
                .map(|p| p.to_string_lossy().into_owned())
        );
        let all = resolve_inputs(&s(&["./..."]), &root).expect("resolved");
        assert_eq!(
            (all.path.as_str(), all.packages.len()),
            (root.to_str().expect("utf-8"), 0)
        );
        let tree = resolve_inputs(&s(&["./apis/a/...", "./apis/b/v1"]), &root).expect("resolved");
        assert!(tree.packages[0].ends_with("apis/a/..."), "{tree:?}");
        let e = resolve_inputs(&s(&["./apis/a/v1", "./other"]), &root).expect_err("two modules");
        assert!(e.contains("2 Go modules"), "{e}");
        let e = resolve_inputs(&s(&["./missing"]), &root).expect_err("missing");
        assert!(e.starts_with("./missing: "), "{e}");
    }

    /// Inputs in modules the current directory's go.mod `replace`s with a directory below it (k8s.io/kubernetes'
    /// staging/) build with it, from its root; a nested module it does not replace is still refused.
    #[test]
    fn inputs_may_lie_in_replaced_modules_below_the_main_one() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(tmp.path()).expect("canonical");
        std::fs::write(
            root.join("go.mod"),
            "module k8s.io/kubernetes\n\nrequire k8s.io/api v0.0.0\n\nreplace k8s.io/api => ./staging/src/k8s.io/api\n",
        )
        .expect("go.mod");
        for d in [
            "pkg/apis/apps/v1",
            "staging/src/k8s.io/api/resource/v1",
            "other",
        ] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        std::fs::write(
            root.join("staging/src/k8s.io/api/go.mod"),
            "module k8s.io/api\n",
        )
        .expect("go.mod");
        std::fs::write(root.join("other/go.mod"), "module example.com/other\n").expect("go.mod");
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
        let r = resolve_inputs(
            &s(&["./...", "./staging/src/k8s.io/api/resource/v1"]),
            &root,
        )
        .expect("resolved");
        assert_eq!(r.module_root, root);
        assert_eq!(r.path, root.to_string_lossy());
        assert_eq!(
            r.packages,
            [
                format!("{}/...", root.display()),
                root.join("staging/src/k8s.io/api/resource/v1")
                    .to_string_lossy()
                    .into_owned()
            ]
        );
        let e = resolve_inputs(&s(&["./pkg/apis/apps/v1", "./other"]), &root).expect_err("other");
        assert!(e.contains("2 Go modules"), "{e}");
        assert!(!e.contains("does not require"), "{e}");
        // Replaced but not required (`go mod tidy` drops the require of a module only go.work uses): said so.
        std::fs::write(
            root.join("go.mod"),
            "module k8s.io/kubernetes\n\nreplace k8s.io/api => ./staging/src/k8s.io/api\n",
        )
        .expect("go.mod");
        let e = resolve_inputs(
            &s(&["./pkg/apis/apps/v1", "./staging/src/k8s.io/api/resource/v1"]),
            &root,
        )
        .expect_err("not required");
        assert!(
            e.contains(
                "its go.mod replaces k8s.io/api but does not require it: add `require k8s.io/api v0.0.0`"
            ),
            "{e}"
        );
    }
}
