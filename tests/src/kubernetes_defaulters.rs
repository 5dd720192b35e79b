//! The Go side of the server-defaulting oracle (`tests/tests/server_defaults_oracle.rs`) and of the server-verdict
//! oracle (`tests/tests/server_verdict_oracle.rs`): a scratch Go module holding a k8s.io/kubernetes release's
//! defaulters ([`build`]) or its whole API scheme — defaulters and generated declarative validation ([`build_scheme`]).
//!
//! Unchanged copies of every `pkg/apis/<group>/<version>/defaults.go` and `zz_generated.defaults.go` of the release
//! (with [`build_scheme`] also every `zz_generated.defaults.go` of a package without a `defaults.go`, and every
//! `zz_generated.validations.go`; imports of k8s.io/kubernetes packages pointed at the copies, under
//! `<MODULE>/kubernetes/`), the whole
//! k8s.io/kubernetes packages those files import (`pkg/features`, `pkg/apis/core/v1/helper`, …, transitively), and,
//! for an identifier the copied files use that another file of their package declares (`GroupName` in `register.go`,
//! `ParseCSR` in `helpers.go`, `ValidateCustom_EvictionResponder_Name` in `validation.go`, found from `go build`'s
//! `undefined:` errors), that file. The modules they import are
//! required at the versions the release's `go.mod` requires (the staging modules, `v0.0.0` there, at the matching
//! `v0.Y.Z`), module versions the proxy refuses replaced (`harness::REFUSED_MODULES`); the module's `go` line is the
//! release's, so `GOTOOLCHAIN=auto` fetches the toolchain a pre-release needs (go1.27.0 for v1.38.0-beta.0).

use crate::harness::substitute_refused_modules;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The scratch module's path; the copies of k8s.io/kubernetes are under `<MODULE>/kubernetes/`.
pub const MODULE: &str = "vgc.test/serverdefaults";

/// Runs `go` in `dir` (toolchain `auto`, `-mod=mod`); `Err` with its output when it fails.
///
/// # Panics
/// When `go` cannot be started.
pub fn go_try(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("go")
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("the `go` command runs");
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn go(dir: &Path, args: &[&str]) -> Vec<u8> {
    go_try(dir, args).unwrap_or_else(|e| panic!("go {args:?}: {e}"))
}

/// The import paths of a Go file (every quoted string of its import declarations).
fn imports(src: &str) -> BTreeSet<String> {
    // The project's own textual import reader (`vgc_parser::go::import_paths`), not a second one.
    vgc_parser::go::import_paths(src).into_iter().collect()
}

/// `(path, version)` of every `require` of a `go.mod` text.
fn requirements(gomod: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in gomod.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        let entry = if in_block {
            if line == ")" {
                in_block = false;
                continue;
            }
            line
        } else if line == "require (" {
            in_block = true;
            continue;
        } else if let Some(rest) = line.strip_prefix("require ") {
            rest
        } else {
            continue;
        };
        let mut w = entry.split_whitespace();
        if let (Some(p), Some(v)) = (w.next(), w.next()) {
            out.push((p.to_string(), v.to_string()));
        }
    }
    out
}

/// The non-test Go files of directory `dir`, sorted.
fn go_files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".go") && !n.ends_with("_test.go"))
        .collect();
    out.sort();
    out
}

/// The scratch module being assembled: the copies made and the modules they import.
struct Scratch<'a> {
    kubernetes: &'a Path,
    work: PathBuf,
    /// The `pkg/apis/<group>/<version>` directories whose generated files are copied (only those, and files
    /// declaring what they use, are copied: never the whole package).
    seeds: BTreeSet<String>,
    /// Files copied, as `<package dir>/<file>`.
    copied: BTreeSet<String>,
    /// Every import path of the copies outside k8s.io/kubernetes and the standard library.
    external: BTreeSet<String>,
}

impl Scratch<'_> {
    /// Copies `file` of package directory `pkg` (relative to k8s.io/kubernetes) with its imports pointed at the
    /// copies, and every k8s.io/kubernetes package it imports (whole) that is not copied yet.
    fn copy(&mut self, pkg: &str, file: &str) {
        if !self.copied.insert(format!("{pkg}/{file}")) {
            return;
        }
        let text = std::fs::read_to_string(self.kubernetes.join(pkg).join(file))
            .unwrap_or_else(|e| panic!("{pkg}/{file}: {e}"));
        let to = self.work.join("kubernetes").join(pkg);
        std::fs::create_dir_all(&to).expect("mkdir");
        std::fs::write(
            to.join(file),
            text.replace("\"k8s.io/kubernetes/", &format!("\"{MODULE}/kubernetes/")),
        )
        .expect("write copy");
        for i in imports(&text) {
            if let Some(p) = i.strip_prefix("k8s.io/kubernetes/") {
                if !self.seeds.contains(p) {
                    for f in go_files(&self.kubernetes.join(p)) {
                        self.copy(p, &f);
                    }
                }
            } else if i.split('/').next().is_some_and(|h| h.contains('.')) {
                self.external.insert(i);
            }
        }
    }

    /// For each `undefined: NAME` of a copied package in `go build`'s output, copies the package's file that
    /// declares NAME; returns how many files it copied.
    fn copy_declaring(&mut self, build_output: &str) -> usize {
        let undefined =
            regex::Regex::new(r"(?m)^kubernetes/(\S+)/[^/\s]+\.go:\d+:\d+: undefined: (\w+)$")
                .expect("regex");
        let wanted: BTreeSet<(String, String)> = undefined
            .captures_iter(build_output)
            .map(|c| (c[1].to_string(), c[2].to_string()))
            .collect();
        let mut n = 0;
        for (pkg, name) in wanted {
            let decl = regex::Regex::new(&format!(
                r"(?m)^(?:func|type|var|const)\s+{name}\b|^\t+{name}(?:\s+[\w.\[\]*]+)?\s*="
            ))
            .expect("regex");
            let found = go_files(&self.kubernetes.join(&pkg)).into_iter().find(|f| {
                !self.copied.contains(&format!("{pkg}/{f}"))
                    && std::fs::read_to_string(self.kubernetes.join(&pkg).join(f))
                        .is_ok_and(|t| decl.is_match(&t))
            });
            if let Some(f) = found {
                self.copy(&pkg, &f);
                n += 1;
            }
        }
        n
    }
}

/// A Go file of package `main` registering, in a `runtime.Scheme`, the types of the k8s.io/api packages `type_pkgs`
/// (`registerTypes`: each package's `AddToScheme`) and the defaulters of the copied `seeds` (`registerDefaults`:
/// each `RegisterDefaults`), as the API server registers them.
#[must_use]
pub fn register_file(type_pkgs: &BTreeSet<String>, seeds: &BTreeSet<String>) -> String {
    register_scheme_file(type_pkgs, seeds, &BTreeSet::new())
}

/// [`register_file`], and `registerValidations`: the generated declarative validation of the copied packages
/// `validators` (each `RegisterValidations`), as the API server registers it.
#[must_use]
pub fn register_scheme_file(
    type_pkgs: &BTreeSet<String>,
    defaulters: &BTreeSet<String>,
    validators: &BTreeSet<String>,
) -> String {
    let mut text = String::from(
        "// Generated by vgc_tests::kubernetes_defaulters.\n\npackage main\n\nimport (\n\t\"k8s.io/apimachinery/pkg/runtime\"\n",
    );
    for (i, p) in type_pkgs.iter().enumerate() {
        text.push_str(&format!("\tt{i} {p:?}\n"));
    }
    let copied: Vec<&String> = defaulters.union(validators).collect();
    for (i, s) in copied.iter().enumerate() {
        text.push_str(&format!("\td{i} \"{MODULE}/kubernetes/{s}\"\n"));
    }
    text.push_str(")\n\nfunc registerTypes(s *runtime.Scheme) error {\n");
    for i in 0..type_pkgs.len() {
        text.push_str(&format!(
            "\tif err := t{i}.AddToScheme(s); err != nil {{\n\t\treturn err\n\t}}\n"
        ));
    }
    for (name, call, of) in [
        ("registerDefaults", "RegisterDefaults", defaulters),
        ("registerValidations", "RegisterValidations", validators),
    ] {
        text.push_str(&format!(
            "\treturn nil\n}}\n\nfunc {name}(s *runtime.Scheme) error {{\n"
        ));
        for (i, s) in copied.iter().enumerate() {
            if of.contains(*s) {
                text.push_str(&format!(
                    "\tif err := d{i}.{call}(s); err != nil {{\n\t\treturn err\n\t}}\n"
                ));
            }
        }
    }
    text.push_str("\treturn nil\n}\n");
    text
}

/// The `pkg/apis/<group>/<version>` directories of the k8s.io/kubernetes module at `kubernetes` that hold a
/// `defaults.go`, sorted.
///
/// # Panics
/// When `pkg/apis` cannot be read.
#[must_use]
pub fn seeds(kubernetes: &Path) -> BTreeSet<String> {
    packages_with(kubernetes, &["defaults.go"])
        .into_keys()
        .collect()
}

/// The generated files of a release's API scheme in a `pkg/apis/<group>/<version>` directory: its defaulters and
/// its declarative validation.
pub const SCHEME_FILES: &[&str] = &[
    "defaults.go",
    "zz_generated.defaults.go",
    "zz_generated.validations.go",
];

/// The `pkg/apis/<group>/<version>` directories of the k8s.io/kubernetes module at `kubernetes` that hold at least
/// one of `files`, each with those of `files` it holds, sorted.
///
/// # Panics
/// When `pkg/apis` cannot be read.
#[must_use]
pub fn packages_with(kubernetes: &Path, files: &[&str]) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for g in std::fs::read_dir(kubernetes.join("pkg/apis"))
        .expect("pkg/apis")
        .flatten()
    {
        if !g.path().is_dir() {
            continue;
        }
        for v in std::fs::read_dir(g.path()).expect("group").flatten() {
            let held: Vec<String> = files
                .iter()
                .filter(|f| v.path().join(f).is_file())
                .map(|f| (*f).to_string())
                .collect();
            if !held.is_empty() {
                out.insert(
                    format!(
                        "pkg/apis/{}/{}",
                        g.file_name().to_string_lossy(),
                        v.file_name().to_string_lossy()
                    ),
                    held,
                );
            }
        }
    }
    out
}

/// Builds, in `work` (emptied first), the scratch module [`MODULE`] for the k8s.io/kubernetes module at
/// `kubernetes` (release `kubernetes_version`, `v1.Y.Z`): the copies of the defaulters (module docs: the packages
/// with a `defaults.go`) and the programs `programs` (name → its files, written to `cmd/<name>/`), each built to
/// `work/<name>`. Returns the number of files copied.
///
/// # Panics
/// When something cannot be written or read, a module is not among the release's requirements, or the copies or a
/// program do not build.
pub fn build(
    kubernetes: &Path,
    kubernetes_version: &str,
    work: &Path,
    programs: &[(&str, Vec<(String, String)>)],
) -> usize {
    let copies = seeds(kubernetes)
        .into_iter()
        .map(|p| {
            (
                p,
                vec![
                    "defaults.go".to_string(),
                    "zz_generated.defaults.go".to_string(),
                ],
            )
        })
        .collect();
    build_from(kubernetes, kubernetes_version, work, &copies, programs)
}

/// The k8s.io/api packages under `api` (the module's directory) that register types with a scheme (a `register.go`
/// calling `AddToScheme`), as import paths (`k8s.io/api/apps/v1`): what [`build_scheme`] registers.
///
/// # Panics
/// When a directory under `api` cannot be listed.
#[must_use]
pub fn type_packages(api: &Path) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut stack = vec![api.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("k8s.io/api").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "register.go")
                && std::fs::read_to_string(&p).is_ok_and(|t| t.contains("AddToScheme"))
            {
                let rel = dir.strip_prefix(api).expect("inside");
                out.insert(format!("k8s.io/api/{}", rel.to_string_lossy()));
            }
        }
    }
    out
}

/// [`build`] with the release's whole API scheme: every [`SCHEME_FILES`] file of every `pkg/apis/<group>/<version>`
/// holding one (the defaulters of every group/version with generated defaulting, and the generated declarative
/// validation), and in each program's directory a `zz_register.go` ([`register_scheme_file`]: `registerTypes` of
/// the k8s.io/api packages `type_pkgs`, `registerDefaults` and `registerValidations` of the copies). Returns the
/// copied packages, each with the generated files it holds.
///
/// # Panics
/// As [`build`].
pub fn build_scheme(
    kubernetes: &Path,
    kubernetes_version: &str,
    work: &Path,
    type_pkgs: &BTreeSet<String>,
    programs: &[(&str, Vec<(String, String)>)],
) -> BTreeMap<String, Vec<String>> {
    let copies = packages_with(kubernetes, SCHEME_FILES);
    // The packages whose `file` declares `function` (a `zz_generated.validations.go` of a group/version with no
    // rules, `authentication/v1`, declares nothing).
    let with = |file: &str, function: &str| -> BTreeSet<String> {
        copies
            .iter()
            .filter(|(p, files)| {
                files.iter().any(|f| f == file)
                    && std::fs::read_to_string(kubernetes.join(p).join(file))
                        .is_ok_and(|t| t.contains(&format!("\nfunc {function}(")))
            })
            .map(|(p, _)| p.clone())
            .collect()
    };
    let register = register_scheme_file(
        type_pkgs,
        &with("zz_generated.defaults.go", "RegisterDefaults"),
        &with("zz_generated.validations.go", "RegisterValidations"),
    );
    let programs: Vec<(&str, Vec<(String, String)>)> = programs
        .iter()
        .map(|(name, files)| {
            let mut files = files.clone();
            files.push(("zz_register.go".to_string(), register.clone()));
            (*name, files)
        })
        .collect();
    build_from(kubernetes, kubernetes_version, work, &copies, &programs);
    copies
}

/// [`build`] with `copies`: package directory → the files of it copied.
fn build_from(
    kubernetes: &Path,
    kubernetes_version: &str,
    work: &Path,
    copies: &BTreeMap<String, Vec<String>>,
    programs: &[(&str, Vec<(String, String)>)],
) -> usize {
    let _ = std::fs::remove_dir_all(work);
    let seeds: BTreeSet<String> = copies.keys().cloned().collect();
    let mut s = Scratch {
        kubernetes,
        work: work.to_path_buf(),
        seeds: seeds.clone(),
        copied: BTreeSet::new(),
        external: BTreeSet::new(),
    };
    for (seed, files) in copies {
        for f in files {
            s.copy(seed, f);
        }
    }
    for (name, files) in programs {
        let dir = work.join("cmd").join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        for (file, text) in files {
            std::fs::write(dir.join(file), text).expect("write a program");
            s.external.extend(
                imports(text)
                    .into_iter()
                    .filter(|i| i.split('/').next().is_some_and(|h| h.contains('.')))
                    .filter(|i| !i.starts_with(MODULE)),
            );
        }
    }
    let gomod = std::fs::read_to_string(kubernetes.join("go.mod")).expect("kubernetes go.mod");
    let go_line = gomod
        .lines()
        .find_map(|l| l.strip_prefix("go "))
        .expect("a go line")
        .trim();
    let requires = requirements(&gomod);
    let staging = format!("v0.{}", &kubernetes_version[3..]);
    std::fs::write(
        work.join("go.mod"),
        format!("module {MODULE}\n\ngo {go_line}\n"),
    )
    .expect("go.mod");
    let mut required = BTreeSet::new();
    let mut require = |s: &Scratch<'_>| {
        for import in &s.external {
            let (module, version) = requires
                .iter()
                .filter(|(m, _)| import == m || import.starts_with(&format!("{m}/")))
                .max_by_key(|(m, _)| m.len())
                .unwrap_or_else(|| {
                    panic!("{import}: no module of k8s.io/kubernetes' go.mod provides it")
                });
            let version = if version == "v0.0.0" {
                &staging
            } else {
                version
            };
            if required.insert(module.clone()) {
                go(
                    work,
                    &["mod", "edit", &format!("-require={module}@{version}")],
                );
            }
        }
    };
    require(&s);
    let substituted = substitute_refused_modules(work);
    if !substituted.is_empty() {
        eprintln!("kubernetes-defaulters: {kubernetes_version}: replaced {substituted:?}");
    }
    // Files of the seed packages that declare what the copied two use, until the copies build.
    for round in 0.. {
        match go_try(work, &["build", "./kubernetes/..."]) {
            Ok(_) => break,
            Err(e) => {
                assert!(
                    round < 8 && s.copy_declaring(&e) > 0,
                    "the copies of k8s.io/kubernetes do not build: {e}"
                );
                require(&s);
            }
        }
    }
    eprintln!(
        "kubernetes-defaulters: {kubernetes_version}: {} pkg/apis packages, {} files copied",
        seeds.len(),
        s.copied.len()
    );
    for (name, _) in programs {
        go(work, &["build", "-o", name, &format!("./cmd/{name}")]);
    }
    s.copied.len()
}
