//! `--cache-dir DIR`: the caches live in `DIR` instead of `.vgc/` of the output directory (issues 12 and 13); the
//! output lock stays in the output directory; an unusable cache directory costs only speed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn build(out: &Path, extra: &[&std::ffi::OsStr]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .arg("build")
        .arg(workspace_root().join("examples/api"))
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("vgc runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn caches_go_to_the_cache_dir_and_the_lock_stays_with_the_output() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (out, cache) = (tmp.path().join("out"), tmp.path().join("ci-cache/vgc"));
    let flag = [std::ffi::OsStr::new("--cache-dir"), cache.as_os_str()];
    let first = build(&out, &flag);
    assert_eq!(names(&cache), ["build", "fmt", "ir", "units"]);
    assert_eq!(names(&out.join(".vgc")), [".gitignore", "lock"]);
    let again = build(&out, &flag);
    let both = format!("{}{}", stdout(&again), stderr(&again));
    assert!(both.contains("is up to date"), "{both}");
    // The summary of an up-to-date build names the profile as the build that wrote the outputs did.
    let summary = |s: &str| {
        s.lines()
            .find(|l| l.contains("checks generated"))
            .map(|l| l[l.find("(upstream").expect("profile named")..].to_string())
    };
    let first = format!("{}{}", stdout(&first), stderr(&first));
    assert!(summary(&first).is_some(), "{first}");
    assert_eq!(summary(&both), summary(&first));
    // A second output sharing the cache directory gets the same bytes.
    let other = tmp.path().join("other");
    build(&other, &flag);
    for f in ["Cargo.toml", "src/lib.rs", "src/widgets/v1.rs"] {
        assert_eq!(
            std::fs::read(out.join(f)).expect("first"),
            std::fs::read(other.join(f)).expect("second"),
            "{f}"
        );
    }
}

#[test]
fn an_unusable_cache_dir_is_a_note_and_the_build_still_succeeds() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let not_a_dir = tmp.path().join("file");
    std::fs::write(&not_a_dir, "x").expect("write");
    let (out, reference) = (tmp.path().join("out"), tmp.path().join("reference"));
    let o = build(
        &out,
        &[std::ffi::OsStr::new("--cache-dir"), not_a_dir.as_os_str()],
    );
    assert!(
        stderr(&o).contains("cannot create the cache directory"),
        "{}",
        stderr(&o)
    );
    build(&reference, &[std::ffi::OsStr::new("--no-cache")]);
    assert_eq!(
        std::fs::read(out.join("src/widgets/v1.rs")).expect("out"),
        std::fs::read(reference.join("src/widgets/v1.rs")).expect("reference")
    );
    assert_eq!(std::fs::read_to_string(&not_a_dir).expect("file"), "x");
}

/// The build manifest's key holds the target: output generated for vgc's own structs is not "up to date" for
/// `--target k8s-openapi` (which regenerates it), nor the other way round.
#[test]
fn switching_the_target_rebuilds() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let run = |target: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .arg("build")
            .arg(workspace_root().join("tests/fixtures/k8s-openapi/api"))
            .arg("--out")
            .arg(&out)
            .args(target)
            .output()
            .expect("vgc runs");
        assert!(o.status.success(), "{}", stderr(&o));
        format!("{}{}", stdout(&o), stderr(&o))
    };
    let openapi = ["--target", "k8s-openapi", "--k8s-openapi-version", "1.37"];
    run(&[]);
    let own = std::fs::read_to_string(out.join("Cargo.toml")).expect("Cargo.toml");
    assert!(!own.contains("\nk8s-openapi = "), "{own}");
    let switched = run(&openapi);
    assert!(!switched.contains("is up to date"), "{switched}");
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).expect("Cargo.toml");
    assert!(manifest.contains("\nk8s-openapi = "), "{manifest}");
    assert!(run(&openapi).contains("is up to date"));
    assert!(!run(&[]).contains("is up to date"));
}
