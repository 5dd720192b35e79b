//! `vgc build --target go,vgc`: the Go target and a Rust target in one run, sharing the analysis (issue 38, "two
//! targets in one run share the analysis"; `vgc_driver::build_all`, docs/go-backend.md "Incremental"). On copies of
//! the bundled example API (`examples/api`), no Go needed:
//!
//! - one run writes exactly the bytes two separate runs write (the Go file, every file of the crate);
//! - the second target's load and lowering are the first's (its `load` reads nothing: asserted through `--timings`
//!   naming the phases twice, and through the counts both report);
//! - a rerun is up to date for both; a one-tag edit rewrites the Go file and one file of the crate;
//! - a diagnostic is printed once, the exit code is the worst; refused combinations exit 2 with a message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of `examples/api` in a fresh temporary directory (returned, to keep it alive) and its path. Its untagged
/// `meta/v1` gets no Go file, so the Go target refuses widgets' call into `v1.Validate_ObjectMeta` unless the
/// package declares it (`VGC0004`, docs/go-backend.md "Read-only packages"): the copy gets a hand-written
/// declaration, as a meta package with its validation generated has (these tests compile no Go).
fn example() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("api");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/api"),
        &root,
    );
    std::fs::write(
        root.join("meta/v1/validations.go"),
        "package v1\n\n// Validate_ObjectMeta stands in for ObjectMeta's validation function.\nfunc Validate_ObjectMeta() {}\n",
    )
    .expect("validations.go");
    (tmp, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let t = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).expect("copy");
        }
    }
}

/// `vgc ARGS` run in `dir`.
fn vgc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .current_dir(dir)
        .env_remove("VGC_FAST")
        .output()
        .expect("run vgc")
}

/// `vgc build` of `root` with `targets` (each after a `--target`) and the crate in `out`; returns its stderr after
/// asserting success.
fn build_ok(root: &Path, targets: &[&str], out: &Path) -> String {
    let mut args = vec!["build"];
    for t in targets {
        args.extend(["--target", t]);
    }
    args.extend(["--out", out.to_str().expect("utf-8"), "."]);
    let o = vgc(root, &args);
    let err = stderr(&o);
    assert!(o.status.success(), "{args:?}: {err}");
    err
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file below `dir` (`.vgc/` state left out) by relative path, with its bytes.
fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.file_name().is_some_and(|n| n == ".vgc") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("below").display().to_string();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    out
}

const GO_FILE: &str = "widgets/v1/zz_generated.validations.go";

#[test]
fn one_run_writes_what_two_runs_write_and_shares_the_analysis() {
    let (_a, both) = example();
    let (_b, apart) = example();
    let crate_both = both.parent().expect("parent").join("crate");
    let crate_apart = apart.parent().expect("parent").join("crate");

    let o = vgc(
        &both,
        &[
            "build",
            "--target",
            "go,vgc",
            "--out",
            crate_both.to_str().expect("utf-8"),
            "--timings",
            ".",
        ],
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // Each target reports; the second's phases follow the first's on the one timings line: `load` twice, the second
    // run's `codegen` after the Go target's.
    assert!(err.contains("vgc [go]: wrote 1 file to "), "{err}");
    assert!(err.contains("vgc [rust]: wrote 37 files to "), "{err}");
    let timings = err
        .lines()
        .find(|l| l.starts_with("vgc: timings: "))
        .expect("timings line");
    let phases: Vec<&str> = timings["vgc: timings: ".len()..]
        .split(", ")
        .map(|p| p.rsplitn(3, ' ').nth(2).unwrap_or(p))
        .collect();
    assert_eq!(
        phases.iter().filter(|p| **p == "load").count(),
        2,
        "{timings}"
    );
    assert!(
        timings.find("codegen (Go)") < timings.rfind("codegen "),
        "{timings}"
    );
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with("vgc: timings"))
            .count(),
        1,
        "{err}"
    );

    // The same bytes as two runs of one target each.
    let o = vgc(&apart, &["build", "--target", "go", "."]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = vgc(
        &apart,
        &["build", "--out", crate_apart.to_str().expect("utf-8"), "."],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(both.join(GO_FILE)).expect("go file"),
        std::fs::read(apart.join(GO_FILE)).expect("go file")
    );
    let (fb, fa) = (files(&crate_both), files(&crate_apart));
    assert_eq!(fb.len(), 37);
    assert_eq!(fb, fa);

    // Up to date together.
    let err = build_ok(&both, &["go,vgc"], &crate_both);
    assert!(
        err.contains("vgc [go]: ") && err.contains(" is up to date"),
        "{err}"
    );
    assert_eq!(err.matches(" is up to date").count(), 2, "{err}");

    // One tag edited: the Go file and one file of the crate change.
    let types = both.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("types.go");
    std::fs::write(
        &types,
        text.replacen("// +k8s:maxLength=20", "// +k8s:maxLength=21", 1),
    )
    .expect("write");
    let before = std::fs::read(both.join(GO_FILE)).expect("go file");
    let err = build_ok(&both, &["vgc", "go"], &crate_both);
    assert!(err.contains("vgc [go]: wrote 1 file to "), "{err}");
    assert!(
        err.contains("vgc [rust]: wrote 1 of 37 files (36 unchanged) to "),
        "{err}"
    );
    let after = std::fs::read(both.join(GO_FILE)).expect("go file");
    assert_ne!(before, after);
    assert!(String::from_utf8_lossy(&after).contains("21"));
}

#[test]
fn a_diagnostic_is_printed_once_and_the_worst_exit_code_wins() {
    let (_t, root) = example();
    let types = root.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("types.go");
    std::fs::write(
        &types,
        text.replacen("// +k8s:maxLength=20", "// +k8s:maxLength=twenty", 1),
    )
    .expect("write");
    let o = vgc(
        &root,
        &["build", "--target", "go,vgc", "--out", "../crate", "."],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let first = err
        .lines()
        .find(|l| l.starts_with("error["))
        .expect("an error")
        .to_string();
    assert_eq!(err.matches(first.as_str()).count(), 1, "{err}");
    // Each target counts it in its summary; neither writes anything.
    assert!(
        err.contains("vgc [go]: ") && err.contains("vgc [rust]: "),
        "{err}"
    );
    assert_eq!(err.matches("1 error in").count(), 2, "{err}");
    assert!(!root.join(GO_FILE).exists());
    assert!(!root.join("../crate/src").exists());
}

#[test]
fn refused_combinations_exit_2() {
    let (_t, root) = example();
    for (args, says) in [
        (
            &["build", "--target", "go,vgc,k8s-openapi", "."][..],
            "one run builds the Go target and at most one Rust target",
        ),
        (
            &["build", "--target", "vgc,k8s-openapi", "."][..],
            "one run builds the Go target and at most one Rust target",
        ),
        (
            &["watch", "--target", "go,vgc", "."][..],
            "`vgc watch` builds one target",
        ),
        (
            &["build", "--target", "go,vgc", "--out", ".", "."][..],
            "the Go module root, where the Go target writes its state",
        ),
        // The root in another spelling: each target would wait for the other's lock forever.
        (
            &["build", "--target", "go,vgc", "--out", "../api/", "."][..],
            "the Go module root, where the Go target writes its state",
        ),
        (
            &["build", "--target", "go", "--roots", "*", "."][..],
            "--roots is not a flag of the Go target",
        ),
        (
            &["build", "--target", "go,vgc", "--roots", "*", "."][..],
            "--roots is not a flag of the Go target",
        ),
    ] {
        let o = vgc(&root, args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Nothing written by any of them.
    assert!(!root.join(GO_FILE).exists());
    assert!(!root.join(".vgc").exists());
}

#[test]
fn a_cache_dir_is_split_between_the_targets() {
    let (_t, root) = example();
    let cache = root.parent().expect("parent").join("cache");
    let c = cache.to_str().expect("utf-8");
    let both = [
        "build",
        "--target",
        "go,vgc",
        "--out",
        "../crate",
        "--cache-dir",
        c,
        ".",
    ];
    let o = vgc(&root, &both);
    assert!(o.status.success(), "{}", stderr(&o));
    // The Go target's caches below `go/` (`BuildRequest::cache_root`), the crate's in the directory given.
    assert!(cache.join("go/build").is_file());
    assert!(cache.join("build").is_file());
    let o = vgc(&root, &both);
    let err = stderr(&o);
    assert_eq!(err.matches(" is up to date").count(), 2, "{err}");
    // Built one at a time, alternately, with the same --cache-dir: after one build each (the manifest of a run of
    // both is not one of a run of either), each is up to date — they share no manifest.
    let go = ["build", "--target", "go", "--cache-dir", c, "."];
    let rust = [
        "build",
        "--target",
        "vgc",
        "--out",
        "../crate",
        "--cache-dir",
        c,
        ".",
    ];
    for (round, args) in [&go[..], &rust[..], &go[..], &rust[..]]
        .into_iter()
        .enumerate()
    {
        let o = vgc(&root, args);
        let err = stderr(&o);
        assert!(o.status.success(), "{args:?}: {err}");
        assert_eq!(
            err.contains(" is up to date"),
            round >= 2,
            "{args:?}: {err}"
        );
    }
}
