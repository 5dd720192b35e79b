//! Shared by the differential runs on real input (`k8s_oracle.rs`) and on the conformance packages
//! (`conformance.rs`): the generated Go driver (upstream-generated validators, scheme registration with
//! subresource routing, direct calls for roots that cannot be registered, panics recovered per case), the
//! generated Rust runner (the vgc-generated crate's `Validate` impls and typedef-root functions), random case
//! generation from the plan, and the comparison report.

use crate::differential::{Outcome, compare, empty_old_list_union_only, mismatch_class, run};
use crate::plan_random::{Generator, Rng};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/e2e` of the workspace (created if missing): where the suites on real input keep their nested cargo
/// target directory, generated crates and Go work dirs, so a second run reuses what the first compiled.
pub fn e2e_dir() -> PathBuf {
    let e2e = crate::example::workspace_root().join("target/e2e");
    std::fs::create_dir_all(&e2e).expect("mkdir target/e2e");
    e2e
}

/// Builds the Go program of `files` (each a file name and its text) as `oracle` in the scratch module `module`
/// (requiring `require`) in `target/e2e/<dir>`, once per text of its files (`driver.go.built` keeps the last);
/// the binary's path.
///
/// # Panics
/// When a file cannot be written or `go mod tidy`/`go build` fails.
pub fn go_oracle(dir: &str, module: &str, require: &str, files: &[(&str, &str)]) -> PathBuf {
    let work = e2e_dir().join(dir);
    std::fs::create_dir_all(&work).expect("mkdir");
    let bin = work.join("oracle");
    let stamp = work.join("driver.go.built");
    let text: String = files.iter().map(|(_, t)| *t).collect();
    if bin.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|t| t == text) {
        return bin;
    }
    std::fs::write(
        work.join("go.mod"),
        format!("module {module}\n\ngo 1.25\n\nrequire {require}\n"),
    )
    .expect("go.mod");
    for (name, t) in files {
        std::fs::write(work.join(name), t).expect(name);
    }
    let go = crate::kubernetes_defaulters::go_try;
    go(&work, &["mod", "tidy"]).unwrap_or_else(|e| panic!("go mod tidy: {e}"));
    go(&work, &["build", "-o", "oracle", "."]).unwrap_or_else(|e| panic!("go build: {e}"));
    std::fs::write(&stamp, text).expect("stamp");
    bin
}

/// `cargo <args> --manifest-path <manifest>` (the cargo running the tests, `$CARGO`) with
/// `CARGO_TARGET_DIR=<e2e>/target` — the nested target directory the suites on real input share, so what one compiled
/// (k8s-openapi, the runtime, kube-core) the next reuses — and, with `deny_warnings`, `RUSTFLAGS=-D warnings`
/// (generated code must build warning-free). Callers add their own environment and run it. See [`cargo_in`].
pub fn nested_cargo(e2e: &Path, args: &[&str], manifest: &Path, deny_warnings: bool) -> Command {
    cargo_in(&e2e.join("target"), args, Some(manifest), deny_warnings)
}

/// `cargo <args> [--manifest-path <manifest>]` (the cargo running the tests, `$CARGO`) building into `target`, the
/// one way the suites start a nested cargo. Besides `CARGO_TARGET_DIR` and, with `deny_warnings`,
/// `RUSTFLAGS=-D warnings`, it sets what keeps the nested builds small on disk: `CARGO_INCREMENTAL=0` (each crate is
/// built once per run) and `CARGO_PROFILE_DEV_DEBUG=0` (no debug info in the `dev` profile of the generated crates;
/// with it the k8s.io/api crate's rlib alone is over 500 MB, and CI once ran out of disk compiling it — panics still
/// name their file and line).
pub fn cargo_in(
    target: &Path,
    args: &[&str],
    manifest: Option<&Path>,
    deny_warnings: bool,
) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.args(args);
    if let Some(manifest) = manifest {
        c.arg("--manifest-path").arg(manifest);
    }
    c.env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .env("CARGO_PROFILE_DEV_DEBUG", "0");
    if deny_warnings {
        c.env("RUSTFLAGS", "-D warnings");
    }
    c
}

/// Runs `go` in `dir` (module mode), panicking with its stderr on failure.
pub fn go(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("go")
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        // A module that requires a newer Go (k8s.io/* v0.38 pre-releases: Go 1.27) gets it from the proxy.
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("the `go` command runs");
    assert!(
        out.status.success(),
        "go {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Module versions a Go module of an upstream release requires that the Go module proxy refuses (403), each with the
/// served version the test modules use instead (`go mod edit -replace`, [`substitute_refused_modules`]):
/// k8s.io/apimachinery v0.38.0-beta.0 requires `sigs.k8s.io/structured-merge-diff/v7 v7.0.1`, whose zip the proxy
/// does not serve; v7.0.0 is its previous patch release (the validation code under test does not use it; the
/// package is imported by `pkg/runtime`'s converter).
pub const REFUSED_MODULES: &[(&str, &str, &str)] =
    &[("sigs.k8s.io/structured-merge-diff/v7", "v7.0.1", "v7.0.0")];

/// Points every [`REFUSED_MODULES`] version in the build list of the module at `dir` (`go mod graph`: required
/// by it or by any of its dependencies) to the served substitute; returns the replacements made (`module vX =>
/// vY`), for the test log.
pub fn substitute_refused_modules(dir: &Path) -> Vec<String> {
    let graph = go(dir, &["mod", "graph"]);
    let mut made = Vec::new();
    for (module, refused, served) in REFUSED_MODULES {
        let wanted = format!("{module}@{refused}");
        if graph.split_whitespace().any(|w| w == wanted) {
            go(
                dir,
                &[
                    "mod",
                    "edit",
                    &format!("-replace={module}@{refused}={module}@{served}"),
                ],
            );
            made.push(format!("{module} {refused} => {served}"));
        }
    }
    made
}

/// Package directories under `dir` (relative, `/`-separated; `dir` itself excluded) holding a file whose name
/// satisfies `holds`, in traversal order: entries sorted by name, a directory after its sub-directories.
pub fn package_dirs(dir: &Path, holds: &dyn Fn(&str) -> bool) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, holds: &dyn Fn(&str) -> bool, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read_dir")
            .flatten()
            .collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        let mut found = false;
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                let sub = if rel.is_empty() {
                    name
                } else {
                    format!("{rel}/{name}")
                };
                walk(&e.path(), &sub, holds, out);
            } else if holds(&name) {
                found = true;
            }
        }
        if found && !rel.is_empty() {
            out.push(rel.to_string());
        }
    }
    let mut out = Vec::new();
    walk(dir, "", holds, &mut out);
    out
}

/// Copies a directory tree (files are copied byte for byte; permissions are not kept).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::write(to.join(e.file_name()), std::fs::read(&p).expect("read"))
                .expect("write");
        }
    }
}

/// Installs upstream `validation-gen` (pinned) into `gobin`: `go install`, or — when that fails because the Go
/// module proxy refuses a module version it depends on ([`REFUSED_MODULES`]; `go install pkg@version` ignores
/// `replace`) — built from a scratch module under `work` that requires the generator and replaces the refused
/// versions with the served substitutes.
pub fn install_validation_gen(work: &Path, gobin: &Path) {
    std::fs::create_dir_all(gobin).expect("gobin");
    let install = Command::new("go")
        .args(["install", &validation_gen()])
        .current_dir(work)
        .env("GOBIN", gobin)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("go install runs");
    if install.status.success() {
        return;
    }
    let stderr = String::from_utf8_lossy(&install.stderr);
    assert!(
        REFUSED_MODULES
            .iter()
            .any(|(m, v, _)| stderr.contains(&format!("{m}@{v}"))),
        "{stderr}"
    );
    let (module, version) = validation_gen()
        .split_once('@')
        .map(|(p, v)| (p.to_string(), v.to_string()))
        .expect("path@version");
    let scratch = work.join("validation-gen-build");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("mkdir");
    std::fs::write(
        scratch.join("go.mod"),
        "module vgc.test/validationgen\n\ngo 1.25\n",
    )
    .expect("go.mod");
    go(
        &scratch,
        &["get", &format!("k8s.io/code-generator@{version}")],
    );
    for (m, refused, served) in REFUSED_MODULES {
        go(
            &scratch,
            &[
                "mod",
                "edit",
                &format!("-replace={m}@{refused}={m}@{served}"),
            ],
        );
    }
    let exe = gobin.join("validation-gen");
    go(&scratch, &["build", "-o", &exe.to_string_lossy(), &module]);
}

/// Whether profile `u`'s pinned generator (`vgc_ir::Upstream::code_generator`) is a release, not a pre-release
/// (`v0.37.2`, not `v0.38.0-beta.0`).
pub fn released(u: vgc_ir::Upstream) -> bool {
    u.code_generator().is_some_and(|v| !v.contains('-'))
}

/// The newest profile whose pinned generator is a pre-release newer than every release (`1.38` with
/// `v0.38.0-beta.0`): the suites that run against both the newest release and the newest pre-release
/// (`tests/tests/output_tests.rs`) take it as their second oracle.
pub fn prerelease_upstream() -> Option<vgc_ir::Upstream> {
    let newest = vgc_ir::Upstream::ALL
        .into_iter()
        .rev()
        .find(|u| u.code_generator().is_some())?;
    (!released(newest)).then_some(newest)
}

/// The upstream profile the oracle proves: `VGC_ORACLE_UPSTREAM` (`1.35` … `1.38`), else the newest profile whose
/// generator is a published release (`vgc_ir::Upstream::code_generator`, the one place the versions are pinned; a
/// pre-release is proven by the suites that name it, [`prerelease_upstream`]).
pub fn oracle_upstream() -> vgc_ir::Upstream {
    if let Ok(v) = std::env::var("VGC_ORACLE_UPSTREAM") {
        let u = vgc_ir::Upstream::parse(&v)
            .unwrap_or_else(|| panic!("VGC_ORACLE_UPSTREAM={v}: not an upstream profile"));
        assert!(
            u.code_generator().is_some(),
            "VGC_ORACLE_UPSTREAM={v}: no published validation-gen for this profile"
        );
        return u;
    }
    vgc_ir::Upstream::ALL
        .into_iter()
        .rev()
        .find(|u| released(*u))
        .expect("a profile with a published generator")
}

/// The build requests' profile for the oracle runs (see [`oracle_upstream`]).
pub fn oracle_profile() -> vgc_ir::profile::Selected {
    oracle_profile_for(oracle_upstream())
}

/// The build requests' profile for an oracle run against profile `u`'s pinned generator.
pub fn oracle_profile_for(u: vgc_ir::Upstream) -> vgc_ir::profile::Selected {
    vgc_ir::profile::Selected::new(
        u,
        format!(
            "the oracle's validation-gen {}",
            u.code_generator().unwrap_or("?")
        ),
    )
}

/// The reference generator for [`oracle_upstream`] (`VGC_VALIDATION_GEN_VERSION` overrides the version, e.g. to try
/// a newer code-generator release before it gets a profile).
pub fn validation_gen() -> String {
    let version = std::env::var("VGC_VALIDATION_GEN_VERSION").unwrap_or_else(|_| {
        oracle_upstream()
            .code_generator()
            .unwrap_or_default()
            .to_string()
    });
    format!("k8s.io/code-generator/cmd/validation-gen@{version}")
}

/// The pinned upstream release of [`oracle_upstream`] (`v0.37.2`): the version of `k8s.io/code-generator`
/// (validation-gen, its `output_tests` and `testscheme`) and of the matching `k8s.io/apimachinery`.
pub fn upstream_version() -> &'static str {
    oracle_upstream()
        .code_generator()
        .expect("the oracle's profile has a published generator")
}

/// The module holding upstream's `output_tests` and `testscheme`, at [`upstream_version`].
pub fn code_generator_module() -> String {
    format!("k8s.io/code-generator@{}", upstream_version())
}

/// `k8s.io/apimachinery` at [`upstream_version`].
pub fn apimachinery_module() -> String {
    format!("k8s.io/apimachinery@{}", upstream_version())
}

/// Downloads `module` (`path@version`) through the Go module proxy (`go mod download -json`, run in `tmp`); returns
/// its module-cache directory and resolved version.
pub fn download_module(module: &str, tmp: &Path) -> (String, String) {
    let out = Command::new("go")
        .args(["mod", "download", "-json", module])
        .current_dir(tmp)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("the `go` command runs");
    assert!(
        out.status.success(),
        "go mod download {module}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("go mod download -json output");
    (
        v["Dir"].as_str().expect("Dir").to_string(),
        v["Version"].as_str().expect("Version").to_string(),
    )
}

/// Runs upstream validation-gen in `work` on `pkgs` (with `--readonly-pkg` for each of `read_only`); returns its
/// wall time in seconds.
pub fn run_validation_gen(work: &Path, gobin: &Path, read_only: &[&str], pkgs: &[String]) -> f64 {
    std::fs::write(work.join("header.txt"), "").expect("header");
    let mut args: Vec<String> = vec![
        "--go-header-file".into(),
        "header.txt".into(),
        "--output-file".into(),
        "zz_generated.validations.go".into(),
    ];
    for p in read_only {
        args.push("--readonly-pkg".into());
        args.push((*p).into());
    }
    args.extend(pkgs.iter().cloned());
    let start = std::time::Instant::now();
    let out = Command::new(gobin.join("validation-gen"))
        .args(&args)
        .current_dir(work)
        .env("GOFLAGS", "-mod=mod")
        // go/packages runs `go list`, which needs the toolchain a pre-release's modules require.
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("validation-gen runs");
    assert!(
        out.status.success(),
        "upstream validation-gen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    start.elapsed().as_secs_f64()
}

/// Runs upstream validation-gen with its lint enabled and returns its findings: the `field …: …` and type-level
/// lines of its `lint failed:` report, sorted (empty when it lints clean).
pub fn validation_gen_lint(
    work: &Path,
    gobin: &Path,
    read_only: &[&str],
    pkgs: &[String],
) -> Vec<String> {
    std::fs::write(work.join("header.txt"), "").expect("header");
    let mut cmd = Command::new(gobin.join("validation-gen"));
    cmd.args([
        "--go-header-file",
        "header.txt",
        "--output-file",
        "zz_generated.validations.go",
    ]);
    for p in read_only {
        cmd.args(["--readonly-pkg", p]);
    }
    let out = cmd
        .args(pkgs)
        .current_dir(work)
        .env("GOFLAGS", "-mod=mod")
        // go/packages runs `go list`, which needs the toolchain a pre-release's modules require.
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("validation-gen runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return Vec::new();
    }
    assert!(
        stderr.contains("lint failed:"),
        "upstream failed before linting:\n{stderr}"
    );
    let mut lines: Vec<String> = stderr
        .lines()
        .skip_while(|l| !l.contains("lint failed:"))
        .skip(1)
        .filter(|l| l.starts_with("    "))
        .map(|l| l.trim().to_string())
        .collect();
    lines.sort();
    lines
}

/// vgc's findings for upstream's lint rules (VGC0301–0305, `Code::is_upstream_lint`) as upstream reports them: upstream keeps one finding per
/// rule and declaration — the first in tag-name order — where vgc reports them all, so the smallest message per
/// (file, field, rule) is kept; sorted.
pub fn upstream_rule_findings(diags: &[vgc_ir::Diagnostic]) -> Vec<String> {
    let mut first: BTreeMap<(String, String, vgc_ir::Code), String> = BTreeMap::new();
    for d in diags.iter().filter(|d| d.code.is_upstream_lint()) {
        let field = d.message.split(": ").next().unwrap_or("").to_string();
        let key = (d.file.clone().unwrap_or_default(), field, d.code);
        let m = first.entry(key).or_insert_with(|| d.message.clone());
        if d.message < *m {
            m.clone_from(&d.message);
        }
    }
    let mut lines: Vec<String> = first.into_values().collect();
    lines.sort();
    lines
}

/// Registered root kinds of one generated file of package `own_pkg`: (`<types import path>.<Type>`, types import
/// path).
pub fn registered(text: &str, own_pkg: &str) -> Vec<(String, String)> {
    let mut aliases = BTreeMap::new();
    let mut in_imports = false;
    for l in text.lines() {
        let l = l.trim();
        if l == "import (" {
            in_imports = true;
        } else if in_imports && l == ")" {
            in_imports = false;
        } else if in_imports && let Some((a, p)) = l.split_once(' ') {
            aliases.insert(a.to_string(), p.trim_matches('"').to_string());
        }
    }
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let l = l.trim();
        if l.starts_with("scheme.AddValidationFunc(") {
            // 1.37: the type on the next line; 1.35/1.36: on the same line, before the function literal.
            let rest = l.trim_start_matches("scheme.AddValidationFunc(");
            let next = if rest.is_empty() {
                lines.next().unwrap_or("").trim()
            } else {
                rest
            };
            // `(*appsv1.Deployment)(nil),`, or `(*Widget)(nil),` for a type of the generated package itself
            let Some(x) = next
                .strip_prefix("(*")
                .and_then(|x| x.split_once(")(nil),").map(|(t, _)| t))
            else {
                continue;
            };
            match x.split_once('.') {
                Some((alias, ty)) => {
                    if let Some(pkg) = aliases.get(alias) {
                        out.push((format!("{pkg}.{ty}"), pkg.clone()));
                    }
                }
                None => out.push((format!("{own_pkg}.{x}"), own_pkg.to_string())),
            }
        }
    }
    out
}

/// Writes and builds the Go driver `work/oracle` (module `module`). `gen_dirs`: directories (relative to `work`)
/// holding upstream-generated `zz_generated.validations.go` files; `roots`: vgc's root kinds with validations
/// (`<types import path>.<Type>`); `direct_dirs(kind)`: generated directories where a root that is not registered
/// in a scheme may find its `Validate_<Type>`. Asserts that upstream registers or generates exactly vgc's roots.
/// Returns the kinds called directly (no subresource routing) and the `go build` time in seconds.
pub fn build_go_driver(
    work: &Path,
    module: &str,
    gen_dirs: &[String],
    roots: &BTreeSet<String>,
    direct_dirs: &dyn Fn(&str) -> Vec<String>,
) -> (BTreeSet<String>, f64) {
    let mut kinds: BTreeMap<String, String> = BTreeMap::new();
    let mut registering = Vec::new();
    for dir in gen_dirs {
        let Ok(text) = std::fs::read_to_string(work.join(dir).join("zz_generated.validations.go"))
        else {
            continue;
        };
        if text.contains("func RegisterValidations(") {
            registering.push(dir.clone());
        }
        for (kind, pkg) in registered(&text, &format!("{module}/{dir}")) {
            kinds.insert(kind, pkg);
        }
    }
    // kind -> (generated directory holding its Validate_<Type>, the function takes pointers)
    let mut direct: BTreeMap<String, (String, bool)> = BTreeMap::new();
    for k in roots.iter().filter(|k| !kinds.contains_key(*k)) {
        let ty = k.rsplit('.').next().unwrap_or_default();
        for dir in direct_dirs(k) {
            let text = std::fs::read_to_string(work.join(&dir).join("zz_generated.validations.go"))
                .unwrap_or_default();
            if let Some(at) = text.find(&format!("func Validate_{ty}(")) {
                // Nilable typedef roots (lists, maps) take values: `obj, oldObj T`.
                let sig = &text[at..text[at..].find('{').map_or(text.len(), |e| at + e)];
                direct.insert(k.clone(), (dir, sig.contains("obj, oldObj *")));
                break;
            }
        }
    }
    let theirs: BTreeSet<String> = kinds.keys().chain(direct.keys()).cloned().collect();
    assert_eq!(
        roots.symmetric_difference(&theirs).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "root types with validations: vgc vs upstream"
    );

    let mut imports = String::new();
    let mut register = String::from("func register(scheme *runtime.Scheme) {\n");
    for (i, dir) in registering.iter().enumerate() {
        let _ = writeln!(imports, "\tg{i} \"{module}/{dir}\"");
        let _ = writeln!(
            register,
            "\tif err := g{i}.RegisterValidations(scheme); err != nil {{ panic(err) }}"
        );
    }
    register.push_str("}\n");
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    for pkg in kinds
        .values()
        .cloned()
        .chain(direct.values().map(|(dir, _)| format!("{module}/{dir}")))
    {
        let n = aliases.len();
        aliases.entry(pkg).or_insert_with(|| format!("t{n}"));
    }
    for (pkg, alias) in &aliases {
        let _ = writeln!(imports, "\t{alias} {pkg:?}");
    }
    let mut table = String::from("var kinds = map[string]entry{\n");
    for (kind, pkg) in &kinds {
        let ty = kind.rsplit('.').next().unwrap_or_default();
        let _ = writeln!(
            table,
            "\t{kind:?}: viaScheme(func() runtime.Object {{ return &{}.{ty}{{}} }}),",
            aliases[pkg]
        );
    }
    for (kind, (dir, pointers)) in &direct {
        let ty = kind.rsplit('.').next().unwrap_or_default();
        let alias = &aliases[&format!("{module}/{dir}")];
        let helper = if *pointers { "direct" } else { "directNilable" };
        let _ = writeln!(table, "\t{kind:?}: {helper}({alias}.Validate_{ty}),");
    }
    table.push_str("}\n");
    let driver = format!(
        "// Generated by vgc's differential tests.\npackage main\n\nimport (\n{GO_DRIVER_IMPORTS}\t\"k8s.io/apimachinery/pkg/runtime\"\n{imports})\n\n{register}\n{table}{GO_RUNTIME_SCHEME}{GO_DRIVER_MAIN}{}",
        go_driver_release_shims()
    );
    write_go_driver(work, &driver);
    // `-e`: a pre-release's test-only dependencies may be refused by the proxy (k8s.io/apimachinery v0.38.0-beta.0's
    // tests import `k8s.io/ktesting@v0.38.0-beta.0`); the driver's build needs none of them.
    go(work, &["mod", "tidy", "-e"]);
    let start = std::time::Instant::now();
    go(work, &["build", "-o", "oracle", "./cmd/oracle"]);
    (direct.into_keys().collect(), start.elapsed().as_secs_f64())
}

/// Writes a driver's `cmd/oracle/main.go` and the randfill generator beside it.
pub fn write_go_driver(work: &Path, main_go: &str) {
    std::fs::create_dir_all(work.join("cmd/oracle")).expect("cmd dir");
    std::fs::write(work.join("cmd/oracle/main.go"), main_go).expect("driver");
    std::fs::write(work.join("cmd/oracle/randfill.go"), GO_RANDFILL).expect("randfill.go");
}

/// Writes the Rust runner source for the crate imported as `krate` with the generator's roots. With
/// `route_typedefs`, a typedef root is validated through its generated `validate_<type>_request` (subresource
/// routing, as a scheme that registers it does — upstream's own `testscheme`); without, through its validation
/// function directly (as the Go drivers call roots that cannot be registered).
pub fn rust_runner(
    krate: &str,
    roots: &[(vgc_analysis::TypeKey, String, Vec<String>)],
    route_typedefs: bool,
) -> String {
    let mut dispatch = String::from(
        "fn dispatch(c: &Case) -> Result<Call, String> {\n    match c.kind.as_str() {\n",
    );
    for (k, path, _) in roots {
        // A typedef root is a function `validate_<snake>`; a struct root a type (in a module that may itself be
        // named `validate_…`).
        if path
            .rsplit("::")
            .next()
            .is_some_and(|last| last.starts_with("validate_"))
        {
            let _ = if route_typedefs {
                writeln!(
                    dispatch,
                    "        {:?} => run_request(c, {krate}::{path}_request),",
                    k.to_string()
                )
            } else {
                writeln!(
                    dispatch,
                    "        {:?} => run_fn(c, {krate}::{path}),",
                    k.to_string()
                )
            };
        } else {
            let _ = writeln!(
                dispatch,
                "        {:?} => run::<{krate}::{path}>(c),",
                k.to_string()
            );
        }
    }
    dispatch.push_str("        other => Err(format!(\"unknown kind {other}\")),\n    }\n}\n");
    format!("{RUST_RUNNER_HEAD}\n{dispatch}")
}

/// `n` random cases over the generator's roots (seeded): objects, old objects for about 45% (updates), option
/// sets, and subresource paths (registered ones about 20%, an unsupported one about 4%) except for `no_routing`
/// kinds, which upstream calls directly.
pub fn random_cases(
    generator: &mut Generator<'_>,
    n: usize,
    seed: u64,
    prefix: &str,
    no_routing: &BTreeSet<String>,
) -> Vec<Value> {
    let mut r = Rng::new(seed);
    let roots = generator.roots.clone();
    let mut cases = Vec::with_capacity(n);
    for i in 0..n {
        let (key, _, subs) = &roots[r.below(roots.len())];
        let object = generator.object(&mut r, key);
        let mut case = json!({"name": format!("{prefix}-{seed}-{i}"), "kind": key.to_string(), "object": object});
        if r.chance(45) {
            case["old"] = generator.mutate(&mut r, key, &case["object"]);
        }
        let opts = generator.option_set(&mut r);
        if !opts.is_empty() {
            case["options"] = json!(opts);
        }
        let roll = if no_routing.contains(&key.to_string()) {
            100
        } else {
            r.below(100)
        };
        if roll < 20 {
            let choices: Vec<&String> = subs.iter().filter(|s| s.as_str() != "/").collect();
            if !choices.is_empty() {
                let s = choices[r.below(choices.len())];
                case["subresources"] =
                    json!(s.trim_start_matches('/').split('/').collect::<Vec<_>>());
            }
        } else if roll < 24 {
            case["subresources"] = json!(["bogus"]);
        }
        cases.push(case);
    }
    cases
}

/// The result of comparing two runs case by case.
#[derive(Debug, Default)]
pub struct Summary {
    /// Cases compared.
    pub cases: usize,
    /// Mismatch descriptions (case, both results).
    pub mismatches: Vec<String>,
    /// The class of each mismatch (`differential::mismatch_class`), same order.
    pub classes: Vec<&'static str>,
    /// Equal up to map-iteration order.
    pub order_only: usize,
    /// Differing only as deviation D11.
    pub nil_vs_empty: usize,
    /// Upstream panicked on a nil pointer where vgc returned errors (deviation D2).
    pub nil_panics: usize,
    /// vgc reported a list-level union error upstream ratchets for an explicit empty old list (deviation D9).
    pub empty_old_union: usize,
    /// Cases where upstream reported at least one error.
    pub with_errors: usize,
    /// Root kinds with at least one error case.
    pub kinds_hit: BTreeSet<String>,
    /// Cases neither side could decode.
    pub undecodable: usize,
}

/// Compares upstream's and vgc's results for `cases` (same order).
pub fn compare_runs(upstream: &[Value], ours: &[Value], cases: &[Value]) -> Summary {
    assert_eq!(upstream.len(), cases.len());
    assert_eq!(ours.len(), cases.len());
    let mut s = Summary {
        cases: cases.len(),
        ..Summary::default()
    };
    for ((u, o), c) in upstream.iter().zip(ours).zip(cases) {
        if u.get("error").is_some() && o.get("error").is_some() {
            s.undecodable += 1;
            continue;
        }
        match compare(u, o) {
            Outcome::Same => {}
            Outcome::OrderOnly => s.order_only += 1,
            Outcome::NilVsEmpty => s.nil_vs_empty += 1,
            Outcome::UpstreamNilPanic => {
                s.nil_panics += 1;
                continue;
            }
            Outcome::Mismatch if empty_old_list_union_only(c, u, o) => {
                s.empty_old_union += 1;
            }
            Outcome::Mismatch => {
                s.classes.push(mismatch_class(u, o));
                s.mismatches.push(format!(
                    "{} ({}):\n  case     {}\n  upstream {}\n  vgc      {}",
                    u["name"],
                    c["kind"],
                    c,
                    u.get("error").unwrap_or(&u["got"]),
                    o.get("error").unwrap_or(&o["got"])
                ));
                continue;
            }
        }
        if u["got"].as_array().is_some_and(|a| !a.is_empty()) {
            s.with_errors += 1;
            s.kinds_hit.insert(c["kind"].to_string());
        }
    }
    s
}

impl Summary {
    /// One line for the test log.
    pub fn line(&self, roots: usize) -> String {
        format!(
            "{} cases over {roots} root types: {} mismatches {:?}; {} cases with errors \
             ({} root types), {} equal up to \
             map-iteration order (D3), {} differing only as deviation D11 (nil vs empty list in a Duplicate detail), \
             {} where upstream panicked on a nil pointer and vgc returned errors (D2), {} list-union errors for an \
             explicit empty old list (D9), {} undecodable on both sides",
            self.cases,
            self.mismatches.len(),
            self.by_class(),
            self.with_errors,
            self.kinds_hit.len(),
            self.order_only,
            self.nil_vs_empty,
            self.nil_panics,
            self.empty_old_union,
            self.undecodable
        )
    }

    /// Mismatch counts by class.
    pub fn by_class(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for c in &self.classes {
            *m.entry(*c).or_default() += 1;
        }
        m
    }

    /// Writes every mismatch to `report` and asserts there are none and that every case decoded.
    pub fn assert_clean(&self, report: &Path) {
        std::fs::write(report, self.mismatches.join("\n")).expect("mismatch report");
        assert!(
            self.mismatches.is_empty(),
            "{} mismatches (all in {}), first ones:\n{}",
            self.mismatches.len(),
            report.display(),
            self.mismatches
                .iter()
                .take(4)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(
            self.undecodable, 0,
            "every random object decodes on both sides"
        );
    }
}

/// Runs the Go driver and the Rust runner binary on the same cases.
pub fn run_both(
    oracle: &Path,
    rust_runner: &Path,
    cases: &[Value],
) -> (Vec<Value>, Vec<Value>, f64, f64) {
    let input = serde_json::to_string(cases).expect("cases");
    let start = std::time::Instant::now();
    let upstream = run(&mut Command::new(oracle), &input);
    let go_run = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    let ours = run(&mut Command::new(rust_runner), &input);
    (upstream, ours, go_run, start.elapsed().as_secs_f64())
}

/// The Go driver's helpers over what differs between the apimachinery releases of the oracle's profile: options
/// are a map from 1.37 (a list of enabled names before), errors carry a short-circuit mark from 1.37 and
/// alpha/beta marks from 1.36. Every driver that includes [`GO_DRIVER_MAIN`] appends them.
pub fn go_driver_release_shims() -> &'static str {
    go_driver_release_shims_for(oracle_upstream())
}

/// [`go_driver_release_shims`] for profile `u`'s generator.
pub fn go_driver_release_shims_for(u: vgc_ir::Upstream) -> &'static str {
    use vgc_ir::Upstream;
    match u {
        Upstream::V1_35 => {
            "\nfunc toOpts(m map[string]bool) []string {\n\tvar o []string\n\tfor k, v := range m {\n\t\tif v {\n\t\t\to = append(o, k)\n\t\t}\n\t}\n\treturn o\n}\n\nfunc shortCircuit(e *field.Error) bool { return false }\nfunc isAlpha(e *field.Error) bool      { return false }\nfunc isBeta(e *field.Error) bool       { return false }\n"
        }
        Upstream::V1_36 => {
            "\nfunc toOpts(m map[string]bool) []string {\n\tvar o []string\n\tfor k, v := range m {\n\t\tif v {\n\t\t\to = append(o, k)\n\t\t}\n\t}\n\treturn o\n}\n\nfunc shortCircuit(e *field.Error) bool { return false }\nfunc isAlpha(e *field.Error) bool      { return e.IsAlpha() }\nfunc isBeta(e *field.Error) bool       { return e.IsBeta() }\n"
        }
        _ => {
            "\nfunc toOpts(m map[string]bool) map[string]bool { return m }\n\nfunc shortCircuit(e *field.Error) bool { return e.ShortCircuit }\nfunc isAlpha(e *field.Error) bool      { return e.IsAlpha() }\nfunc isBeta(e *field.Error) bool       { return e.IsBeta() }\n"
        }
    }
}

/// vgc's result lines reduced to what the oracle's release reports: before 1.37 errors carry no short-circuit
/// mark, before 1.36 no alpha/beta mark (`go_driver_release_shims`).
pub fn release_view(ours: &[Value]) -> Vec<Value> {
    let u = oracle_upstream();
    ours.iter()
        .map(|r| {
            let mut r = r.clone();
            if let Some(got) = r.get_mut("got").and_then(Value::as_array_mut) {
                for l in got.iter_mut() {
                    if let Some(text) = l.as_str() {
                        let mut t = text.to_string();
                        if u < vgc_ir::Upstream::V1_37 {
                            t = t.replace(" | sc=true | ", " | sc=false | ");
                        }
                        if u < vgc_ir::Upstream::V1_36 {
                            for mark in [" | alpha", " | beta"] {
                                if let Some(stripped) = t.strip_suffix(mark) {
                                    t = format!("{stripped} | -");
                                }
                            }
                        }
                        *l = Value::String(t);
                    }
                }
            }
            r
        })
        .collect()
}

/// The Go-side random object generator (`tests/upstream/randfill.go`), copied beside every driver.
pub const GO_RANDFILL: &str = include_str!("../upstream/randfill.go");

/// The imports of [`GO_DRIVER_MAIN`] (each on its own line, tab-indented).
pub const GO_DRIVER_IMPORTS: &str = "\t\"context\"\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\t\"strconv\"\n\t\"time\"\n\n\t\"k8s.io/apimachinery/pkg/api/operation\"\n\t\"k8s.io/apimachinery/pkg/util/validation/field\"\n";

/// The `runtime.Scheme` part of the drivers over generated packages that register into one (conformance,
/// k8s.io/api): validation through the scheme, as the API server does, subresource routing included.
const GO_RUNTIME_SCHEME: &str = r#"
var scheme = runtime.NewScheme()

func setup() { register(scheme) }

// viaScheme validates through the scheme, as the API server does: subresource routing included.
func viaScheme(mk func() runtime.Object) entry {
	run := func(c testCase, opts map[string]bool) (func() field.ErrorList, error) {
		obj := mk()
		if err := json.Unmarshal(c.Object, obj); err != nil {
			return nil, err
		}
		if len(c.Old) > 0 {
			old := mk()
			if err := json.Unmarshal(c.Old, old); err != nil {
				return nil, err
			}
			return func() field.ErrorList {
				return scheme.ValidateUpdate(context.Background(), toOpts(opts), obj, old, c.Subresources...)
			}, nil
		}
		return func() field.ErrorList { return scheme.Validate(context.Background(), toOpts(opts), obj, c.Subresources...) }, nil
	}
	return entry{run: run, mk: func() any { return mk() }, routed: true}
}
"#;

/// The generic part of every Go driver: case decoding, direct calls, panics recovered per case, speed mode, the
/// randfill mode (`tests/upstream/randfill.go`) and the error-line format. The including file declares
/// `kinds map[string]entry` and `setup()`.
pub const GO_DRIVER_MAIN: &str = r#"
type testCase struct {
	Name         string          `json:"name"`
	Kind         string          `json:"kind"`
	Object       json.RawMessage `json:"object"`
	Old          json.RawMessage `json:"old"`
	Options      map[string]bool `json:"options"`
	Subresources []string        `json:"subresources"`
}

type result struct {
	Name  string   `json:"name"`
	Got   []string `json:"got"`
	Error string   `json:"error,omitempty"`
}

// A runner decodes a case once and returns the validation call (so speed runs time validation alone).
type runner func(c testCase, opts map[string]bool) (func() field.ErrorList, error)

// An entry: how to validate a case of one root kind, and how to make an empty value of it (for randfill). routed:
// validated through a scheme with subresource routing.
type entry struct {
	run    runner
	mk     func() any
	routed bool
}

// directNilable calls the generated function of a list or map typedef root, which takes values.
func directNilable[T any](fn func(context.Context, operation.Operation, *field.Path, T, T) field.ErrorList) entry {
	return direct(func(ctx context.Context, op operation.Operation, p *field.Path, obj, old *T) field.ErrorList {
		var o T
		if old != nil {
			o = *old
		}
		return fn(ctx, op, p, *obj, o)
	})
}

// direct calls a root's generated function (roots that are not runtime.Objects cannot be registered).
func direct[T any](fn func(context.Context, operation.Operation, *field.Path, *T, *T) field.ErrorList) entry {
	run := func(c testCase, opts map[string]bool) (func() field.ErrorList, error) {
		obj := new(T)
		if err := json.Unmarshal(c.Object, obj); err != nil {
			return nil, err
		}
		op := operation.Operation{Type: operation.Create, Options: toOpts(opts), Request: operation.Request{Subresources: c.Subresources}}
		var old *T
		if len(c.Old) > 0 {
			old = new(T)
			if err := json.Unmarshal(c.Old, old); err != nil {
				return nil, err
			}
			op.Type = operation.Update
		}
		return func() field.ErrorList { return fn(context.Background(), op, nil, obj, old) }, nil
	}
	return entry{run: run, mk: func() any { return new(T) }}
}

// safeRun turns a panic of upstream's generated code into a result (vgc's deviation D2/D6 cases expect it).
func safeRun(run runner, c testCase, opts map[string]bool) (errs field.ErrorList, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	call, err := run(c, opts)
	if err != nil {
		return nil, err
	}
	return call(), nil
}

// speed decodes every case once, then times `repeat` validation passes over all of them (cases whose validation
// panics are left out) and prints {"cases": n, "nsPerObject": t}.
func speed(cases []testCase, repeat int) {
	var calls []func() field.ErrorList
	for _, c := range cases {
		e, ok := kinds[c.Kind]
		if !ok {
			continue
		}
		run := e.run
		opts := c.Options
		if opts == nil {
			opts = map[string]bool{}
		}
		if _, err := safeRun(run, c, opts); err != nil {
			continue
		}
		call, _ := run(c, opts)
		calls = append(calls, call)
	}
	sink := 0
	start := time.Now()
	for i := 0; i < repeat; i++ {
		for _, call := range calls {
			sink += len(call())
		}
	}
	elapsed := time.Since(start)
	per := float64(elapsed.Nanoseconds()) / float64(repeat*len(calls))
	fmt.Printf("{\"cases\": %d, \"nsPerObject\": %.1f, \"errors\": %d}\n", len(calls), per, sink)
}

func line(e *field.Error) string {
	st := "-"
	if isAlpha(e) {
		st = "alpha"
	} else if isBeta(e) {
		st = "beta"
	}
	return fmt.Sprintf("%s | %s | origin=%s | sc=%t | %s", e.Field, e.ErrorBody(), e.Origin, shortCircuit(e), st)
}

func main() {
	setup()
	if n, err := strconv.Atoi(os.Getenv("VGC_RANDFILL")); err == nil && n > 0 {
		seed, _ := strconv.ParseInt(os.Getenv("VGC_RANDFILL_SEED"), 10, 64)
		randfillCases(n, seed, os.Getenv("VGC_RANDFILL_HINTS"))
		return
	}
	var cases []testCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	if r, err := strconv.Atoi(os.Getenv("VGC_REPEAT")); err == nil && r > 0 {
		speed(cases, r)
		return
	}
	out := make([]result, 0, len(cases))
	for _, c := range cases {
		e, ok := kinds[c.Kind]
		if !ok {
			out = append(out, result{Name: c.Name, Error: "unknown kind " + c.Kind})
			continue
		}
		run := e.run
		opts := c.Options
		if opts == nil {
			opts = map[string]bool{}
		}
		errs, err := safeRun(run, c, opts)
		if err != nil {
			out = append(out, result{Name: c.Name, Error: err.Error()})
			continue
		}
		got := []string{}
		for _, e := range errs {
			got = append(got, line(e))
		}
		out = append(out, result{Name: c.Name, Got: got})
	}
	enc := json.NewEncoder(os.Stdout)
	_ = enc.Encode(out)
}
"#;

/// The Rust case runner's fixed part (decoding, the `run` helpers, `main`); [`rust_runner`] appends the dispatch.
pub const RUST_RUNNER_HEAD: &str = r#"//! Generated by vgc's differential tests: runs cases (JSON on stdin) through a vgc-generated crate.
use std::io::Read as _;
use vgc_runtime::{Error, Operation, Validate};

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    kind: String,
    object: serde_json::Value,
    /// Present (`null` included, as for the Go driver's `len(c.Old) > 0`) makes the case an update.
    #[serde(default, deserialize_with = "present")]
    old: Option<serde_json::Value>,
    #[serde(default)]
    options: std::collections::BTreeMap<String, bool>,
    #[serde(default)]
    subresources: Vec<String>,
    /// An update without an old object (upstream's `OldValue(nil)`).
    #[serde(default)]
    update: bool,
}

fn line(e: &Error) -> String {
    let st = match e.stability {
        Some(vgc_runtime::StabilityLevel::Alpha) => "alpha",
        Some(vgc_runtime::StabilityLevel::Beta) => "beta",
        None => "-",
    };
    format!("{} | {} | origin={} | sc={} | {st}", e.field, e.body(), e.origin, e.short_circuit)
}

/// A case decoded once: the validation call (speed runs time it alone).
type Call = Box<dyn Fn() -> vgc_runtime::ErrorList>;

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    <serde_json::Value as serde::Deserialize>::deserialize(d).map(Some)
}

/// Decodes a case's object as Go's `json.Unmarshal` into a fresh value does: `null` leaves the zero value (a nil
/// slice or map for a typedef root, which Go marshals as `null`).
fn from_json<T: serde::de::DeserializeOwned + Default>(v: &serde_json::Value) -> Result<T, String> {
    if v.is_null() {
        return Ok(T::default());
    }
    serde_json::from_value(v.clone()).map_err(|e| e.to_string())
}

fn decode<T: serde::de::DeserializeOwned + Default>(c: &Case) -> Result<(T, Option<T>, Operation), String> {
    let obj: T = from_json(&c.object)?;
    let old: Option<T> = match &c.old {
        Some(o) => Some(from_json(o)?),
        None => None,
    };
    let mut op = if old.is_some() || c.update { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    Ok((obj, old, op))
}

fn run<T: Validate + serde::de::DeserializeOwned + Default + 'static>(c: &Case) -> Result<Call, String> {
    let (obj, old, op) = decode::<T>(c)?;
    Ok(Box::new(move || obj.validate(old.as_ref(), &op)))
}

#[allow(dead_code)] // used only when some root is a typedef (not in every release's k8s.io/api)
type RootFn<T> = fn(&Operation, &vgc_runtime::Path<'_>, Option<&T>, Option<&T>, &mut vgc_runtime::ErrorList);

/// A typedef root: its generated function, called at the root path.
#[allow(dead_code)]
fn run_fn<T: serde::de::DeserializeOwned + Default + 'static>(c: &Case, f: RootFn<T>) -> Result<Call, String> {
    let (obj, old, op) = decode::<T>(c)?;
    Ok(Box::new(move || {
        let mut errs = vgc_runtime::ErrorList::new();
        f(&op, &vgc_runtime::Path::Root, Some(&obj), old.as_ref(), &mut errs);
        errs
    }))
}

/// A routed typedef root: its generated `validate_<type>_request` (subresource routing).
#[allow(dead_code)]
fn run_request<T: serde::de::DeserializeOwned + Default + 'static>(
    c: &Case,
    f: fn(&Operation, &T, Option<&T>) -> vgc_runtime::ErrorList,
) -> Result<Call, String> {
    let (obj, old, op) = decode::<T>(c)?;
    Ok(Box::new(move || f(&op, &obj, old.as_ref())))
}

/// `VGC_REPEAT=n`: decode every case once, then time n validation passes; prints `{"cases", "nsPerObject"}`.
fn speed(cases: &[Case], repeat: usize) {
    let calls: Vec<Call> = cases.iter().filter_map(|c| dispatch(c).ok()).collect();
    let mut sink = 0usize;
    let start = std::time::Instant::now();
    for _ in 0..repeat {
        for call in &calls {
            sink += std::hint::black_box(call()).len();
        }
    }
    let per = start.elapsed().as_nanos() as f64 / (repeat * calls.len().max(1)) as f64;
    println!("{{\"cases\": {}, \"nsPerObject\": {per:.1}, \"errors\": {sink}}}", calls.len());
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let cases: Vec<Case> = serde_json::from_str(&input).expect("cases");
    if let Some(r) = std::env::var("VGC_REPEAT").ok().and_then(|v| v.parse::<usize>().ok()).filter(|r| *r > 0) {
        speed(&cases, r);
        return;
    }
    let out: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| match dispatch(c) {
            Ok(call) => serde_json::json!({"name": c.name, "got": call().iter().map(line).collect::<Vec<_>>()}),
            Err(e) => serde_json::json!({"name": c.name, "error": e}),
        })
        .collect();
    println!("{}", serde_json::to_string(&out).expect("json"));
}
"#;
