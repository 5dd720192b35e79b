//! A new user's first commands, run through the built `vgc` binary as a user runs it: in a Go module of their
//! own (a temporary directory), with no `PATH`, `.`, `..`, a package directory, `./...` and a file. Each run must
//! read that module — the summary counts its packages and the diagnostics name its files — and nothing else
//! (vgc has no path of the machine it was built on compiled in).

use std::path::Path;
use std::process::Command;

/// A module `example.com/shop` with two packages: `apis/v1` (a bad tag in `types.go`) and `apis/v1/sub` (a good
/// one), so the package count tells which packages a run selected.
fn module() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    };
    write("go.mod", "module example.com/shop\n\ngo 1.23\n");
    write(
        "apis/v1/types.go",
        "// +k8s:validation-gen=*\npackage v1\n\ntype Order struct {\n\t// +k8s:requird\n\tName string `json:\"name\"`\n}\n",
    );
    write(
        "apis/v1/sub/types.go",
        "// +k8s:validation-gen=*\npackage sub\n\ntype Item struct {\n\t// +k8s:optional\n\tName string `json:\"name,omitempty\"`\n}\n",
    );
    dir
}

/// Runs `vgc check [arg]` in `cwd` and returns (exit code, stderr).
fn check(cwd: &Path, arg: Option<&str>) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vgc"));
    cmd.arg("check").arg("--short").current_dir(cwd);
    if let Some(a) = arg {
        cmd.arg(a);
    }
    let out = cmd.output().expect("vgc runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn summary_packages(stderr: &str) -> usize {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("vgc: ") && (l.contains(" packages, ") || l.contains(" package, ")))
        .unwrap_or_else(|| panic!("no summary line in {stderr}"));
    line["vgc: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("package count")
}

#[test]
fn every_spelling_of_path_reads_the_users_module() {
    let m = module();
    let root = std::fs::canonicalize(m.path()).expect("canonical");
    let v1 = root.join("apis/v1");
    let bad = format!("{}:5:6: error[VGC0102]", v1.join("types.go").display());
    // (working directory, argument, packages selected, whether apis/v1 with its bad tag is among them)
    let cases: [(&Path, Option<&str>, usize, bool); 8] = [
        (&root, None, 2, true),
        (&root, Some("."), 2, true),
        (&root, Some("./..."), 2, true),
        (&root, Some("apis/v1"), 2, true),
        (&root, Some("apis/v1/types.go"), 1, true),
        (&v1, Some("."), 2, true),
        (&v1.join("sub"), Some(".."), 2, true),
        (&v1.join("sub"), None, 1, false),
    ];
    for (cwd, arg, packages, has_bad) in cases {
        let (code, err) = check(cwd, arg);
        let what = format!("`vgc check {}` in {}", arg.unwrap_or(""), cwd.display());
        assert_eq!(summary_packages(&err), packages, "{what}:\n{err}");
        assert_eq!(
            err.lines()
                .any(|l| l.starts_with(&bad) && l.contains("k8s:requird")),
            has_bad,
            "{what}:\n{err}"
        );
        assert_eq!(code, Some(if has_bad { 1 } else { 0 }), "{what}:\n{err}");
    }
}

#[test]
fn a_directory_outside_any_module_or_a_missing_path_is_a_usage_error() {
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, err) = check(empty.path(), None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no go.mod found in it or any parent"), "{err}");
    let (code, err) = check(empty.path(), Some("nope"));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: nope: "), "{err}");
    std::fs::write(empty.path().join("notes.txt"), "").expect("write");
    let (code, err) = check(empty.path(), Some("notes.txt"));
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err, "error: notes.txt: not a directory or a .go file\n");
}

#[test]
fn build_without_a_path_in_an_empty_directory_writes_nothing() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .arg("build")
        .current_dir(empty.path())
        .output()
        .expect("vgc runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(!empty.path().join("out").exists());
}

/// Writes a one-package module whose `Order.Name` has a validation but says neither optional nor required
/// (upstream's `requiredAndOptional` lint), with `doc_extra` in its `doc.go`.
fn lint_module(doc_extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("go.mod"), "module example.com/shop\n\ngo 1.23\n").expect("go.mod");
    std::fs::create_dir_all(root.join("v1")).expect("mkdir");
    std::fs::write(
        root.join("v1/doc.go"),
        format!("// +k8s:validation-gen=*\n{doc_extra}package v1\n"),
    )
    .expect("doc.go");
    std::fs::write(
        root.join("v1/types.go"),
        "package v1\n\ntype Order struct {\n\t// +k8s:maxLength=10\n\tName string `json:\"name\"`\n}\n",
    )
    .expect("types.go");
    dir
}

#[test]
fn generation_refuses_what_upstreams_lint_refuses() {
    let m = lint_module("");
    let (code, err) = check(m.path(), None);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.lines().any(|l| l.ends_with(
            "v1/types.go:5:2: error[VGC0303]: field Name: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden"
        )),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["build", "--out", "gen"])
        .current_dir(m.path())
        .output()
        .expect("vgc runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        !m.path().join("gen/Cargo.toml").exists() && !m.path().join("gen/src").exists(),
        "nothing is generated"
    );
    // `+k8s:validation-gen-nolint` opts the package out, as upstream.
    let m = lint_module("// +k8s:validation-gen-nolint\n");
    let (code, err) = check(m.path(), None);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn root_criteria_are_checked() {
    let m = lint_module("// +k8s:validation-gen-nolint\n");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .arg("check")
            .args(args)
            .current_dir(m.path())
            .output()
            .expect("vgc runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--roots", "TypesWith=TypeMeta"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("invalid value 'TypesWith=TypeMeta' for '--roots <ROOTS>'"),
        "{err}"
    );
    let (code, err) = run(&["--roots", "TypesWithField="]);
    assert_eq!(code, Some(2), "{err}");
    let (code, err) = run(&["--short", "--roots", "TypesWithField=Nope"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning[VGC0005]: root criterion \"TypesWithField=Nope\" (--roots) selects no type in any target package"),
        "{err}"
    );
    let (code, err) = run(&["--short", "--roots", "TypesWithSuffix=Order"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("VGC0005"), "{err}");
}

/// An unusable `--out` is an error with nothing before it that says otherwise: before, the summary line
/// (`… 0 errors …`) came first (found by a new-user trial).
#[test]
fn an_unusable_output_path_prints_the_error_alone() {
    let m = module();
    std::fs::write(m.path().join("afile"), "x").expect("write");
    for (out, want) in [
        (
            "afile",
            "error: afile: the output path exists and is not a directory\n",
        ),
        (
            "",
            "error: the output directory is empty (`--out ''`); name a directory\n",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(["build", "apis/v1/sub", "--out", out])
            .current_dir(m.path())
            .output()
            .expect("vgc runs");
        assert_eq!(o.status.code(), Some(2));
        let prefix = format!("{}/", m.path().display());
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).replace(&prefix, ""),
            want
        );
    }
}

/// A module whose packages declare no types still gets a crate cargo accepts: `src/lib.rs` is always written
/// (before, only `Cargo.toml`, "no targets specified in the manifest"; found by a new-user trial). (The trial's
/// package was a file vgc cannot parse; a syntax error is now the error VGC0001, which writes nothing.)
#[test]
fn a_build_without_types_writes_an_empty_library() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("go.mod"), "module example.com/e\n\ngo 1.23\n").expect("go.mod");
    std::fs::create_dir_all(root.join("s1")).expect("mkdir");
    std::fs::write(
        root.join("s1/t.go"),
        "package s1\n\n// X is no type.\nconst X = 1\n",
    )
    .expect("t.go");
    let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["build", "s1", "--out", "gen"])
        .current_dir(root)
        .output()
        .expect("vgc runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("0 types"), "{err}");
    let lib = std::fs::read_to_string(root.join("gen/src/lib.rs")).expect("src/lib.rs");
    assert!(lib.starts_with("// @generated by vgc"), "{lib}");
    assert!(root.join("gen/Cargo.toml").exists());
}

/// `vgc build` writes nothing through a symbolic link to a directory inside the output (`src -> ../elsewhere`).
#[cfg(unix)]
#[test]
fn a_build_never_writes_through_a_linked_directory() {
    let m = module();
    let elsewhere = m.path().join("elsewhere");
    std::fs::create_dir_all(m.path().join("gen")).expect("mkdir");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    std::os::unix::fs::symlink("../elsewhere", m.path().join("gen/src")).expect("symlink");
    let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["build", "apis/v1/sub", "--out", "gen"])
        .current_dir(m.path())
        .output()
        .expect("vgc runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("gen/src: a symbolic link to a directory is in the way of generated files"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).expect("read").count(), 0);
}

/// `vgc watch` with an unusable `--out` exits 2 after the error instead of watching forever (found by a re-trial).
#[test]
fn watch_with_an_unusable_output_path_exits() {
    use wait_timeout::ChildExt as _;
    let m = module();
    std::fs::write(m.path().join("afile"), "x").expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["watch", "apis/v1/sub", "--out", "afile"])
        .current_dir(m.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("vgc runs");
    let status = child
        .wait_timeout(std::time::Duration::from_secs(60))
        .expect("wait");
    if status.is_none() {
        let _ = child.kill();
    }
    assert_eq!(status.and_then(|s| s.code()), Some(2));
}

/// `--color` on `vgc check`/`build` (issue 37): `always` colours the severity of `--short` lines as
/// codespan-reporting colours it, `never` and `auto` on a pipe do not; the summary line counts in words (`1
/// package`, not `1 packages`).
#[test]
fn short_diagnostics_are_coloured_only_when_asked() {
    let m = module();
    let run = |color: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_vgc"));
        cmd.args(["check", "--short", "apis/v1/types.go"])
            .current_dir(m.path())
            .env_remove("NO_COLOR");
        if let Some(c) = color {
            cmd.args(["--color", c]);
        }
        let out = cmd.output().expect("vgc runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let coloured = run(Some("always"));
    let line = coloured
        .lines()
        .find(|l| l.contains("unknown tag"))
        .unwrap_or_else(|| panic!("{coloured}"));
    assert!(
        line.contains("\u{1b}[1m\u{1b}[31merror\u{1b}[0m[VGC0102]: unknown tag \"k8s:requird\""),
        "{line:?}"
    );
    for plain in [run(Some("never")), run(None)] {
        assert!(!plain.contains('\u{1b}'), "{plain:?}");
        assert!(plain.contains("error[VGC0102]: "), "{plain}");
        assert!(plain.contains("vgc: 1 package, "), "{plain}");
    }
}

/// Issue 37: `vgc build` run from a module in the Go module cache must not write its default `out/` there (Go keeps
/// the cache read-only and `go mod verify` checks it): exit 2 naming the cache, nothing created.
#[test]
fn a_build_never_writes_into_the_go_module_cache() {
    let m = module();
    let cache = tempfile::tempdir().expect("tempdir");
    let in_cache = cache.path().join("example.com/shop@v1.0.0");
    std::fs::create_dir_all(&in_cache).expect("mkdir");
    for rel in ["go.mod", "apis/v1/sub/types.go"] {
        let to = in_cache.join(rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(m.path().join(rel), to).expect("copy");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["build", "."])
        .current_dir(&in_cache)
        .env("GOMODCACHE", cache.path())
        .output()
        .expect("vgc runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("/out/vgc-generated: inside the Go module cache (")
            && err.contains("pass --out DIR outside it"),
        "{err}"
    );
    assert!(!in_cache.join("out").exists());
    // With --out elsewhere it builds.
    let elsewhere = m.path().join("gen");
    let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["build", ".", "--out"])
        .arg(&elsewhere)
        .current_dir(&in_cache)
        .env("GOMODCACHE", cache.path())
        .output()
        .expect("vgc runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(elsewhere.join("Cargo.toml").is_file());
}
