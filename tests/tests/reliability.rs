//! Reliability tests that need a live file system (FIFOs, devices, odd names, concurrent builds, interrupted
//! builds): one test per defect of `reference/reliability-probe.md`, named after its R-number. The inputs that are
//! plain files are diagnostic fixtures instead (`fixtures/diagnostics/rNN-*`). See `docs/reliability.md`.

use vgc_tests::example;

use std::path::Path;
use vgc::driver::BuildRequest;

/// A copy of the bundled example in a fresh temporary directory: (tempdir guard, module root).
fn example_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("api");
    example::copy_tree(&example::workspace_root().join("examples/api"), &root);
    (tmp, root)
}

fn short(out: &vgc::BuildOutcome, strip: &Path) -> Vec<String> {
    let prefix = format!("{}/", strip.display());
    out.diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources).replace(&prefix, ""))
        .collect()
}

fn check(root: &Path) -> vgc::BuildOutcome {
    vgc::build(&BuildRequest::check(
        root.to_string_lossy().into_owned(),
        Vec::new(),
    ))
}

#[test]
fn r05_fifos_and_devices_are_refused_without_blocking() {
    let (_tmp, root) = example_copy();
    let fifo = root.join("widgets/v1/f.go");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    std::os::unix::fs::symlink("/dev/zero", root.join("widgets/v1/z.go")).expect("symlink");
    let out = check(&root);
    assert_eq!(
        short(&out, &root),
        vec![
            "error[VGC0002]: widgets/v1/f.go: cannot read file: not a regular file (a FIFO); vgc reads only regular files",
            "error[VGC0002]: widgets/v1/z.go: cannot read file: not a regular file (a character device); vgc reads only regular files",
        ]
    );
    assert_eq!(vgc::exit_code(&out), 1);
}

#[test]
fn r05_files_over_the_size_limit_are_refused() {
    let (_tmp, root) = example_copy();
    let big = root.join("widgets/v1/big.go");
    let f = std::fs::File::create(&big).expect("create");
    // Sparse: no 32 MiB written to disk.
    f.set_len(vgc::sys::MAX_SOURCE_BYTES + 1).expect("set_len");
    let out = check(&root);
    assert_eq!(
        short(&out, &root),
        vec![format!(
            "error[VGC0002]: widgets/v1/big.go: cannot read file: {} bytes, more than vgc's limit of 32 MiB per file",
            vgc::sys::MAX_SOURCE_BYTES + 1
        )]
    );
    assert_eq!(vgc::exit_code(&out), 1);
}

#[test]
fn r05_a_symlink_to_a_regular_file_is_read() {
    let (tmp, root) = example_copy();
    let target = tmp.path().join("elsewhere.go");
    std::fs::write(
        &target,
        "package v1\n\n// +k8s:nonsense\ntype Linked struct{}\n",
    )
    .expect("write");
    std::os::unix::fs::symlink(&target, root.join("widgets/v1/linked.go")).expect("symlink");
    let out = check(&root);
    assert_eq!(
        short(&out, &root),
        vec!["widgets/v1/linked.go:3:5: error[VGC0102]: unknown tag \"k8s:nonsense\""]
    );
}

#[test]
fn r22_a_non_utf8_file_name_is_reported_by_name() {
    use std::os::unix::ffi::OsStrExt as _;
    let (_tmp, root) = example_copy();
    let name = std::ffi::OsStr::from_bytes(b"lat\xe9n.go");
    std::fs::write(root.join("widgets/v1").join(name), "package v1\n").expect("write");
    let out = check(&root);
    assert_eq!(
        short(&out, &root),
        vec![
            "error[VGC0002]: widgets/v1/lat\u{FFFD}n.go: cannot read file: the file name is not valid UTF-8 \
             (shown with U+FFFD); vgc reads UTF-8 paths only (No such file or directory (os error 2))"
        ]
    );
    assert_eq!(vgc::exit_code(&out), 1);
}

#[test]
fn r08_an_unlistable_directory_is_an_error() {
    // Run as root, permissions do not stop a listing; a directory that is not one stands in for it (the same
    // `read_dir` failure path).
    let (_tmp, root) = example_copy();
    let out = check(&root.join("go.mod"));
    assert_eq!(vgc::exit_code(&out), 2);
    let unlistable = root.join("widgets/v1");
    let mode = |m: u32| {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&unlistable, std::fs::Permissions::from_mode(m)).expect("chmod");
    };
    mode(0o311);
    let listable = std::fs::read_dir(&unlistable).is_ok();
    let out = check(&root);
    mode(0o755);
    if !listable {
        let got = short(&out, &root);
        assert!(
            got.iter()
                .any(|l| l.starts_with("error[VGC0002]: widgets/v1: cannot read directory:")),
            "{got:?}"
        );
        assert_ne!(vgc::exit_code(&out), 0);
    }
}

fn build_into(root: &Path, out: &Path) -> vgc::BuildOutcome {
    vgc::build(&example::request(root, out))
}

/// Every file under `dir` (relative path → bytes), skipping vgc's state directory.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, d: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(d).expect("ls").flatten() {
            let p = e.path();
            let rel = p
                .strip_prefix(base)
                .expect("under")
                .to_string_lossy()
                .into_owned();
            if rel == ".vgc" {
                continue;
            }
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn r14_a_hand_written_cargo_toml_is_never_replaced() {
    let (tmp, root) = example_copy();
    let mine = tmp.path().join("mine");
    std::fs::create_dir_all(mine.join("src")).expect("mkdir");
    std::fs::write(mine.join("Cargo.toml"), "[package]\nname = \"mine\"\n").expect("write");
    std::fs::write(mine.join("src/lib.rs"), "fn precious() {}\n").expect("write");
    let before = snapshot(&mine);
    let out = build_into(&root, &mine);
    assert_eq!(vgc::exit_code(&out), 2);
    let err = out.io_error.expect("an error");
    assert!(
        err.starts_with(&format!(
            "{}: exists and was not generated by vgc",
            mine.join("Cargo.toml").display()
        )),
        "{err}"
    );
    assert_eq!(snapshot(&mine), before, "nothing written");
    assert!(
        !mine.join(".vgc").exists(),
        "not even vgc's state directory"
    );
    // --force replaces them.
    let mut req = example::request(&root, &mine);
    req.force = true;
    let out = vgc::build(&req);
    assert_eq!(vgc::exit_code(&out), 0, "{:?}", out.io_error);
    assert!(
        std::fs::read_to_string(mine.join("Cargo.toml"))
            .expect("read")
            .starts_with("# @generated by vgc")
    );
}

/// Stale generated modules (their package is gone) are removed even when no cache remembers that an earlier build
/// wrote them — with `--no-cache`, and with `.vgc/` deleted — while a hand-written file beside them stays (found by
/// a new-user trial: `--no-cache`, `--rustfmt` or a lost formatting cache left them behind for good).
#[test]
fn stale_generated_modules_are_removed_without_the_caches() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    assert_eq!(vgc::exit_code(&build_into(&root, &out)), 0);
    let plant = || {
        std::fs::create_dir_all(out.join("src/gone")).expect("mkdir");
        std::fs::write(
            out.join("src/gone/v1.rs"),
            "// @generated by vgc. Do not edit.\npub struct Old;\n",
        )
        .expect("write");
        std::fs::write(out.join("src/mine.rs"), "pub fn mine() {}\n").expect("write");
    };
    plant();
    let mut no_cache = example::request(&root, &out);
    no_cache.no_cache = true;
    let o = vgc::build(&no_cache);
    assert_eq!(vgc::exit_code(&o), 0, "{:?}", o.io_error);
    assert_eq!(o.removed, 1);
    assert!(
        !out.join("src/gone").exists(),
        "the emptied directory goes too"
    );
    assert!(out.join("src/mine.rs").exists());

    plant();
    std::fs::remove_dir_all(out.join(".vgc")).expect("rm");
    let o = build_into(&root, &out);
    assert_eq!(vgc::exit_code(&o), 0, "{:?}", o.io_error);
    assert_eq!(o.removed, 1);
    assert!(!out.join("src/gone").exists());
    assert!(out.join("src/mine.rs").exists());
}

/// A FIFO in place of any of vgc's caches is never opened for a blocking read: each is ignored with a note, the
/// build completes, and the next save puts a regular file back.
#[test]
fn r05_a_fifo_in_place_of_a_cache_is_ignored_with_a_note() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    assert_eq!(vgc::exit_code(&build_into(&root, &out)), 0);
    let caches = ["build", "ir", "fmt", "units"];
    for c in caches {
        let p = out.join(".vgc").join(c);
        std::fs::remove_file(&p).expect("rm");
        let status = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .expect("mkfifo");
        assert!(status.success());
    }
    let o = build_into(&root, &out);
    assert_eq!(vgc::exit_code(&o), 0, "{:?}", o.io_error);
    for c in caches {
        let p = out.join(".vgc").join(c);
        assert!(
            o.notes.iter().any(|n| n
                == &format!(
                    "{}: unreadable (not a regular file (a FIFO); vgc reads only regular files); ignored and rebuilt",
                    p.display()
                )),
            "{c}: {:?}",
            o.notes
        );
        assert!(p.is_file(), "{c} rewritten");
    }
}

/// R59 (issue 36, one policy for reading a user's file): a FIFO in place of a generated file or a lint baseline
/// hung the build on its up-to-date check (and then on reusing the output's formatting) and `vgc lint --baseline`;
/// every reader now opens regular files only, without blocking. The output in the way is then a named error (it is
/// not vgc's), `--force` replaces it.
#[test]
fn r59_a_fifo_in_place_of_an_output_or_a_baseline_never_blocks() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    assert_eq!(vgc::exit_code(&build_into(&root, &out)), 0);
    let lib = out.join("src/lib.rs");
    std::fs::remove_file(&lib).expect("rm");
    let mkfifo = |p: &Path| {
        let status = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .expect("mkfifo");
        assert!(status.success());
    };
    mkfifo(&lib);
    let start = std::time::Instant::now();
    let o = build_into(&root, &out);
    assert_eq!(vgc::exit_code(&o), 2);
    assert_eq!(
        o.io_error,
        Some(format!(
            "{}: exists and was not generated by vgc (its first line is not vgc's `@generated` marker); vgc replaces only its own files — move it away, or pass --force to replace it",
            lib.display()
        ))
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    let baseline = tmp.path().join("baseline.fifo");
    mkfifo(&baseline);
    let e = vgc::baseline::Baseline::load(&baseline).expect_err("refused");
    assert_eq!(
        e,
        format!(
            "{}: not a regular file (a FIFO); vgc reads only regular files",
            baseline.display()
        )
    );
}

#[test]
fn r14_an_empty_or_file_output_path_is_an_error() {
    let (tmp, root) = example_copy();
    let out = build_into(&root, Path::new(""));
    assert_eq!(vgc::exit_code(&out), 2);
    assert_eq!(
        out.io_error.as_deref(),
        Some("the output directory is empty (`--out ''`); name a directory")
    );
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let out = build_into(&root, &file);
    assert_eq!(vgc::exit_code(&out), 2);
    assert_eq!(
        out.io_error,
        Some(format!(
            "{}: the output path exists and is not a directory",
            file.display()
        ))
    );
    assert_eq!(out.stats.packages, 0, "nothing was built before the error");
}

#[test]
fn r13_concurrent_builds_into_one_directory_all_succeed() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    let types = root.join("widgets/v1/types.go");
    let original = std::fs::read_to_string(&types).expect("read");
    for round in 0..4 {
        // Toggle a tag between rounds so the builds really write.
        let text = if round % 2 == 0 {
            original.clone()
        } else {
            original.replacen("+k8s:maxLength=", "+k8s:maxLength=1", 1)
        };
        std::fs::write(&types, text).expect("write");
        let results: Vec<vgc::BuildOutcome> = std::thread::scope(|s| {
            let a = s.spawn(|| build_into(&root, &out));
            let b = s.spawn(|| build_into(&root, &out));
            vec![a.join().expect("a"), b.join().expect("b")]
        });
        for r in &results {
            assert_eq!(vgc::exit_code(r), 0, "round {round}: {:?}", r.io_error);
        }
    }
    let mut clean = tmp.path().join("clean");
    clean.push("out");
    assert_eq!(vgc::exit_code(&build_into(&root, &clean)), 0);
    assert_eq!(snapshot(&out), snapshot(&clean), "same as a clean build");
}

#[test]
fn r19_litter_of_interrupted_builds_is_removed_and_committed_output_completed() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    assert_eq!(vgc::exit_code(&build_into(&root, &out)), 0);
    let good = snapshot(&out);
    // An uncommitted staging directory, a cache write cut short, a formatter staging directory.
    std::fs::create_dir_all(out.join(".vgc/staging-abc123")).expect("mkdir");
    std::fs::write(out.join(".vgc/staging-abc123/0"), "half").expect("write");
    std::fs::write(out.join(".vgc/.tmpQwErTy"), "partial cache").expect("write");
    std::fs::create_dir_all(out.join(".vgc-fmt-XYZ/src")).expect("mkdir");
    // A committed transaction whose renames did not happen: a module deleted and its replacement staged.
    let lib = std::fs::read(out.join("src/lib.rs")).expect("read");
    std::fs::remove_file(out.join("src/lib.rs")).expect("rm");
    std::fs::create_dir_all(out.join(".vgc/staging-def456")).expect("mkdir");
    std::fs::write(out.join(".vgc/staging-def456/0"), &lib).expect("write");
    std::fs::write(
        out.join(".vgc/staging-def456/journal.json"),
        r#"{"writes":[["0","src/lib.rs"]],"removes":[]}"#,
    )
    .expect("write");
    let o = build_into(&root, &out);
    assert_eq!(vgc::exit_code(&o), 0, "{:?}", o.io_error);
    assert_eq!(snapshot(&out), good);
    let mut state: Vec<String> = std::fs::read_dir(out.join(".vgc"))
        .expect("ls")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    state.sort();
    assert_eq!(state, [".gitignore", "build", "fmt", "ir", "lock", "units"]);
}

#[test]
fn r21_a_restored_mtime_does_not_hide_an_edit() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    assert_eq!(vgc::exit_code(&build_into(&root, &out)), 0);
    let types = root.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    let mtime = std::fs::metadata(&types)
        .expect("stat")
        .modified()
        .expect("mtime");
    let edited = text.replacen("+k8s:maxLength=20", "+k8s:maxLength=30", 1);
    assert_ne!(edited, text, "the example has a maxLength=20");
    assert_eq!(edited.len(), text.len(), "same size");
    std::fs::write(&types, &edited).expect("write");
    std::fs::File::options()
        .write(true)
        .open(&types)
        .expect("open")
        .set_modified(mtime)
        .expect("restore mtime");
    let o = build_into(&root, &out);
    assert!(!o.up_to_date, "the edit is seen");
    assert!(o.written > 0);
}

#[test]
fn r10_a_go_type_named_option_does_not_capture_generated_paths() {
    let (tmp, root) = example_copy();
    let types = root.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    let with_field = text.replacen(
        "\t// +k8s:forbidden\n\tLegacy",
        "\t// +k8s:optional\n\tO *Option `json:\"o,omitempty\"`\n\n\t// +k8s:forbidden\n\tLegacy",
        1,
    );
    assert_ne!(with_field, text);
    std::fs::write(
        &types,
        format!("{with_field}\ntype Option struct {{\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tA string `json:\"a\"`\n}}\n"),
    )
    .expect("write");
    let out = build_into(&root, &tmp.path().join("out"));
    assert_eq!(vgc::exit_code(&out), 0);
    let module = out
        .files
        .iter()
        .find(|f| f.path == "src/widgets/v1.rs")
        .expect("module");
    assert!(
        module.contents.contains("pub struct Option"),
        "the type is generated"
    );
    assert!(
        module
            .contents
            .contains("\"::std::option::Option::is_none\"")
    );
    for f in &out.files {
        assert!(
            !f.contents.contains("\"Option::"),
            "{} uses an unqualified Option path",
            f.path
        );
    }
}

#[test]
fn r31_building_into_the_module_root_is_up_to_date_on_the_second_run() {
    let (_tmp, root) = example_copy();
    let first = build_into(&root, &root);
    assert_eq!(vgc::exit_code(&first), 0, "{:?}", first.io_error);
    assert!(!first.up_to_date);
    let second = build_into(&root, &root);
    assert!(second.up_to_date, "{:?}", second.notes);
    // An edit is still seen.
    let types = root.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    std::fs::write(
        &types,
        text.replacen("+k8s:maxLength=20", "+k8s:maxLength=21", 1),
    )
    .expect("write");
    let third = build_into(&root, &root);
    assert!(!third.up_to_date);
    assert_eq!(third.written, 1);
}

#[test]
fn r28_option_values_that_give_an_unusable_crate_are_refused() {
    let (tmp, root) = example_copy();
    let out = tmp.path().join("out");
    let run = |f: &dyn Fn(&mut BuildRequest)| {
        let mut req = example::request(&root, &out);
        f(&mut req);
        let o = vgc::build(&req);
        (vgc::exit_code(&o), o.io_error)
    };
    for name in [
        "",
        "../../escape",
        "with spaces",
        "\u{fc}n\u{ef}code",
        "1st",
    ] {
        let (code, err) = run(&|r| r.crate_name = name.into());
        assert_eq!(code, 2, "{name:?}");
        assert_eq!(
            err,
            Some(format!(
                "--crate-name {name:?}: a crate name is ASCII letters, digits, `-` and `_`, not starting with a digit"
            ))
        );
    }
    let (code, err) =
        run(&|r| r.runtime = vgc_codegen::RuntimeDep::Version("not a version".into()));
    assert_eq!(code, 2);
    assert_eq!(
        err.as_deref(),
        Some(
            "--runtime-version \"not a version\" is not a version requirement (for example `0.1` or `^0.1.2`)"
        )
    );
    let (code, err) = run(&|r| r.runtime = vgc_codegen::RuntimeDep::Path(String::new()));
    assert_eq!(code, 2);
    assert_eq!(
        err.as_deref(),
        Some("--runtime-path is empty; name the vgc-runtime crate's directory")
    );
    for ok in ["0.1", "^0.1.2", ">=0.1, <0.3", "1.0.0-alpha.1", "0.*"] {
        let (code, err) = run(&|r| r.runtime = vgc_codegen::RuntimeDep::Version(ok.into()));
        assert_eq!(code, 0, "{ok}: {err:?}");
    }
    assert!(!out.join("Cargo.toml").exists() || vgc::output::is_ours(&out.join("Cargo.toml")));
}

/// R32: a 100,000-level object built in Rust is validated (create and update, whose ratcheting compares whole
/// subtrees) on a 2 MiB thread without overflowing its stack; the error at the bottom has the full path.
#[test]
fn r32_deep_objects_built_in_rust_validate_on_a_small_stack() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("api");
    let files = [
        ("go.mod", "module example.com/deep\n\ngo 1.24\n"),
        (
            "v1/doc.go",
            "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-nolint\npackage v1\n",
        ),
        (
            "v1/types.go",
            "package v1\n\ntype TypeMeta struct{}\n\ntype Root struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\tNext *Node `json:\"next,omitempty\"`\n}\n\ntype Node struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tName string `json:\"name,omitempty\"`\n\t// +k8s:optional\n\tNext *Node `json:\"next,omitempty\"`\n\t// +k8s:optional\n\tChildren []Node `json:\"children,omitempty\"`\n}\n",
        ),
    ];
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let out_dir = tmp.path().join("out");
    let mut req = example::request(&root, &out_dir);
    req.crate_name = "deep".into();
    req.runtime = vgc_codegen::RuntimeDep::Path(
        example::workspace_root()
            .join("runtime")
            .to_string_lossy()
            .into_owned(),
    );
    let out = vgc::build(&req);
    assert_eq!(vgc::exit_code(&out), 0, "{:?}", out.diagnostics);
    std::fs::create_dir_all(out_dir.join("examples")).expect("mkdir");
    std::fs::write(
        out_dir.join("examples/deep.rs"),
        r#"use deep::v1::{Node, Root};
use vgc_runtime::{Operation, Validate};

const DEPTH: usize = 100_000;

fn chain(bad_leaf: bool) -> Root {
    let mut n = Node { name: if bad_leaf { "long".into() } else { "ok".into() }, ..Default::default() };
    for _ in 1..DEPTH {
        n = Node { name: "ok".into(), next: Some(Box::new(n)), ..Default::default() };
    }
    Root { next: Some(n), ..Default::default() }
}

/// Drop glue recurses (documented); take the chain apart iteratively.
fn dismantle(r: Root) {
    let mut next = r.next.map(Box::new);
    while let Some(mut n) = next {
        next = n.next.take();
    }
}

fn main() {
    let t = std::thread::Builder::new().stack_size(2 << 20).spawn(|| {
        let (a, b, bad) = (chain(false), chain(false), chain(true));
        assert!(a == b);
        assert!(a != bad);
        let create = a.validate(None, &Operation::create());
        let update = a.validate(Some(&b), &Operation::update());
        let errs = bad.validate(None, &Operation::create());
        let path = errs.first().map(|e| e.field.to_string()).unwrap_or_default();
        println!("create={} update={} bad={} depth={} tail={:?}", create.len(), update.len(), errs.len(),
            path.matches("next").count(), &path[path.len() - 10..]);
        for r in [a, b, bad] { dismantle(r); }
    }).expect("spawn");
    t.join().expect("no overflow");
}
"#,
    )
    .expect("write example");
    let run = vgc_tests::harness::cargo_in(
        &example::workspace_root().join("target/e2e/deep"),
        &["run", "--quiet", "--example", "deep"],
        None,
        false,
    )
    .current_dir(&out_dir)
    .output()
    .expect("cargo run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "create=0 update=0 bad=1 depth=100000 tail=\".next.name\"\n"
    );
}

/// R51 (issue 36 row 5): a `vgc.toml` that is there but is not a readable regular file — a FIFO, a symbolic link to
/// `/dev/zero`, a directory — is an error in it (the build's settings would otherwise be dropped without a word),
/// and the FIFO is never opened for a blocking read.
#[cfg(unix)]
#[test]
fn r51_a_vgc_toml_that_is_not_a_regular_file_is_an_error_naming_it() {
    for kind in ["fifo", "device", "directory"] {
        let (tmp, root) = example_copy();
        let cfg = root.join("vgc.toml");
        match kind {
            "fifo" => assert!(
                std::process::Command::new("mkfifo")
                    .arg(&cfg)
                    .status()
                    .expect("mkfifo")
                    .success()
            ),
            "device" => std::os::unix::fs::symlink("/dev/zero", &cfg).expect("symlink"),
            _ => std::fs::create_dir(&cfg).expect("mkdir"),
        }
        let o = build_into(&root, &tmp.path().join("out"));
        assert_ne!(vgc::exit_code(&o), 0, "{kind}");
        // The diagnostic is in the file (issue 40: every consumer points at it), the message says why.
        let named: Vec<String> = o
            .diagnostics
            .iter()
            .filter(|d| d.file.as_deref() == Some(cfg.to_str().expect("UTF-8 path")))
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(named.len(), 1, "{kind}: {:?}", o.diagnostics);
        let want = match kind {
            "fifo" => "not a regular file (a FIFO)",
            "device" => "not a regular file (a character device)",
            _ => "not a regular file (a directory)",
        };
        assert!(named[0].contains(want), "{kind}: {}", named[0]);
    }
}
