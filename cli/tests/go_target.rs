//! `vgc build --target go` and `vgc validation-gen` end to end (issue 38, docs/go-backend.md), on a small Go module
//! written by the test: two packages with `+k8s:validation-gen=TypesWithField=TypeMeta` and an untagged one.
//!
//! - the build writes `zz_generated.validations.go` into each tagged package (the header's `YEAR` replaced), none
//!   into the untagged one; a second run is up to date and changes nothing;
//! - `gofmt -l` lists nothing (skipped without `gofmt`), and `go vet` compiles the packages against
//!   k8s.io/apimachinery v0.37.2 from the Go module cache (`GOPROXY=off`; skipped without `go` or that module);
//! - `vgc validation-gen --output-file … --go-header-file … ./...` writes the same bytes, and so does upstream
//!   validation-gen v0.37.2 built from the module cache (skipped when it cannot be built offline);
//! - a file of the user in the way is refused (exit 2) and nothing is written; a construct the Go backend cannot
//!   print (a vgc extension) is `VGC0129` at its declaration (exit 1) and nothing is written;
//! - a package that loses its tag loses its generated file; validation-gen's flags vgc does not implement are
//!   refused or noted;
//! - `--test-output-root` writes the coverage test fixtures upstream validation-gen v0.37.2 writes, byte for byte
//!   (the group from a `GroupName` constant, else the import path; an allowlisted rule left out), with the
//!   packages' files; `go vet` compiles them; `vgc build --target go` writes the same.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const OUT: &str = "zz_generated.validations.go";

const GO_MOD: &str =
    "module example.com/widgets\n\ngo 1.24\n\nrequire k8s.io/apimachinery v0.37.2\n";

const WIDGETS_DOC: &str = "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +groupName=widgets.example.com\n\n// Package v1 holds widgets.\npackage v1\n";

const WIDGETS_TYPES: &str = r#"package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a widget.
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// +k8s:opaqueType
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec is the spec.
type WidgetSpec struct {
	// +k8s:required
	// +k8s:maxLength=16
	Name string `json:"name"`

	// +k8s:optional
	// +k8s:minimum=1
	Replicas *int32 `json:"replicas,omitempty"`
}
"#;

/// What deepcopy-gen and register.go give a real API: the scheme builder the generated `init` registers with, and
/// `DeepCopyObject` (a shallow copy is enough to compile).
const REGISTER: &str = r#"package v1

import "k8s.io/apimachinery/pkg/runtime"

var localSchemeBuilder = runtime.SchemeBuilder{}

// DeepCopyObject makes the kind a runtime.Object.
func (in *KIND) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	out := *in
	return &out
}
"#;

const GADGETS_DOC: &str =
    "// +k8s:validation-gen=TypesWithField=TypeMeta\n\n// Package v1 holds gadgets.\npackage v1\n";

const GADGETS_TYPES: &str = r#"package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget is a gadget.
type Gadget struct {
	metav1.TypeMeta `json:",inline"`

	Spec GadgetSpec `json:"spec"`
}

// GadgetSpec is the spec.
type GadgetSpec struct {
	// +k8s:optional
	MinValue *int32 `json:"minValue,omitempty"`

	// +k8s:optional
	// +k8s:maximum=10
	Current *int32 `json:"current,omitempty"`
}
"#;

const UNTAGGED: &str = r#"package util

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is no API: its package has no +k8s:validation-gen tag.
type Thing struct {
	metav1.TypeMeta `json:",inline"`
	// +k8s:optional
	// +k8s:maxLength=3
	Name *string `json:"name,omitempty"`
}
"#;

const HEADER: &str = "/*\nCopyright YEAR The Widget Authors.\n*/\n";

/// Writes the module into a fresh directory (canonical path) and returns it with its guard.
fn fixture() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    let files: [(&str, String); 9] = [
        ("go.mod", GO_MOD.into()),
        ("hack/boilerplate.go.txt", HEADER.into()),
        ("apis/widgets/v1/doc.go", WIDGETS_DOC.into()),
        ("apis/widgets/v1/types.go", WIDGETS_TYPES.into()),
        (
            "apis/widgets/v1/register.go",
            REGISTER.replace("KIND", "Widget"),
        ),
        ("apis/gadgets/v1/doc.go", GADGETS_DOC.into()),
        ("apis/gadgets/v1/types.go", GADGETS_TYPES.into()),
        (
            "apis/gadgets/v1/register.go",
            REGISTER.replace("KIND", "Gadget"),
        ),
        ("internal/util/util.go", UNTAGGED.into()),
    ];
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    (tmp, root)
}

fn vgc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("vgc runs")
}

/// Makes the fixture's go.mod require `example.com/api` and replace it with `./staging/src/example.com/api` (the
/// module the caller writes there), as k8s.io/kubernetes' go.mod does its staging modules.
fn replace_staging_api(root: &Path) {
    let gomod = read(root, "go.mod");
    std::fs::write(
        root.join("go.mod"),
        format!("{gomod}\nrequire example.com/api v0.0.0\n\nreplace example.com/api => ./staging/src/example.com/api\n"),
    )
    .expect("go.mod");
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

const BUILD: &[&str] = &[
    "build",
    "--target",
    "go",
    "--go-header-file",
    "hack/boilerplate.go.txt",
    ".",
];

fn widgets() -> String {
    format!("apis/widgets/v1/{OUT}")
}

fn gadgets() -> String {
    format!("apis/gadgets/v1/{OUT}")
}

/// Copies the module at `from` into a fresh directory (without vgc's `.vgc/`).
fn copy(from: &Path) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let to = std::fs::canonicalize(tmp.path()).expect("canonical");
    copy_tree(from, &to);
    (tmp, to)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("ls").flatten() {
        let name = e.file_name();
        if name == ".vgc" {
            continue;
        }
        let (src, dst) = (e.path(), to.join(&name));
        if e.file_type().expect("type").is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

/// Under the fast tier (`VGC_FAST=1`, docs/testing.md) the parts that run Go print the tier's skip line and are left
/// out; the rest of the test runs.
fn go_skipped(test: &str) -> bool {
    let fast = std::env::var_os("VGC_FAST").is_some_and(|v| v == "1");
    if fast {
        eprintln!(
            "{test}: skipped (VGC_FAST=1): needs Go (its parts that run gofmt, go vet or upstream validation-gen)"
        );
    }
    fast
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg(if tool == "go" { "version" } else { "-h" })
        .output()
        .is_ok()
}

/// `$(go env GOMODCACHE)`, when `go` runs.
fn module_cache() -> Option<PathBuf> {
    let o = Command::new("go")
        .args(["env", "GOMODCACHE"])
        .output()
        .ok()?;
    let p = String::from_utf8_lossy(&o.stdout).trim().to_string();
    (o.status.success() && !p.is_empty()).then(|| PathBuf::from(p))
}

/// `go` offline, in module mode, with the installed toolchain.
fn go(dir: &Path, args: &[&str]) -> Output {
    Command::new("go")
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .output()
        .expect("go runs")
}

#[test]
fn build_target_go_writes_validation_gens_files_and_a_rerun_changes_nothing() {
    let (_tmp, root) = fixture();
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("wrote 2 files"), "{err}");
    assert!(
        err.contains("without a `+k8s:validation-gen` tag get no zz_generated.validations.go")
            && err.contains("example.com/widgets/internal/util"),
        "{err}"
    );
    let w = read(&root, &widgets());
    let year = vgc_driver::go::current_year();
    assert!(
        w.starts_with(&format!(
            "//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\n/*\nCopyright {year} The Widget Authors.\n*/\n\n// Code generated by validation-gen. DO NOT EDIT.\n\npackage v1\n"
        )),
        "{w}"
    );
    assert!(
        w.contains("func Validate_WidgetSpec(")
            && w.contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 16)"),
        "{w}"
    );
    assert!(read(&root, &gadgets()).contains("validate.Maximum("));
    assert!(!root.join("internal/util").join(OUT).exists());

    // A second run: the build manifest says nothing changed; the files keep their bytes and times.
    let before = std::fs::metadata(root.join(widgets()))
        .and_then(|m| m.modified())
        .expect("mtime");
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("is up to date"), "{err}");
    assert_eq!(read(&root, &widgets()), w);
    assert_eq!(
        std::fs::metadata(root.join(widgets()))
            .and_then(|m| m.modified())
            .expect("mtime"),
        before
    );
    // Without the manifest (`--no-cache`) the build runs and still writes nothing.
    let o = vgc(&root, &[BUILD, &["--no-cache"]].concat());
    let err = stderr(&o);
    assert!(
        err.contains("vgc: wrote 0 of 2 files (2 unchanged) to "),
        "{err}"
    );

    if go_skipped("build_target_go_writes_validation_gens_files_and_a_rerun_changes_nothing") {
        return;
    }
    // gofmt's canonical layout.
    if have("gofmt") {
        let o = Command::new("gofmt")
            .arg("-l")
            .arg(&root)
            .output()
            .expect("gofmt");
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "",
            "gofmt -l lists files"
        );
    } else {
        eprintln!("skipped: gofmt is not installed");
    }

    // The packages compile against apimachinery v0.37.2 (in a copy: `-mod=mod` edits go.mod and writes go.sum).
    match module_cache() {
        Some(cache) if cache.join("k8s.io/apimachinery@v0.37.2").is_dir() => {
            let (_keep, vet) = copy(&root);
            let o = go(&vet, &["vet", "./..."]);
            assert!(o.status.success(), "go vet: {}", stderr(&o));
        }
        _ => {
            eprintln!("skipped: go, or k8s.io/apimachinery@v0.37.2 in its module cache, is missing")
        }
    }
}

#[test]
fn validation_gen_command_line_writes_the_same_bytes_as_build_and_upstream() {
    let (_tmp, root) = fixture();
    let o = vgc(&root, BUILD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let built = (read(&root, &widgets()), read(&root, &gadgets()));

    // validation-gen's command line as kube_codegen.sh passes it (import paths), on a fresh copy.
    let (_keep, copy1) = copy(&root);
    for rel in [widgets(), gadgets()] {
        std::fs::remove_file(copy1.join(rel)).expect("rm");
    }
    let o = vgc(
        &copy1,
        &[
            "validation-gen",
            "-v",
            "0",
            "--output-file",
            OUT,
            "--go-header-file",
            "hack/boilerplate.go.txt",
            "example.com/widgets/apis/gadgets/v1",
            "example.com/widgets/apis/widgets/v1",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("note:"), "nothing to note: {err}");
    assert_eq!((read(&copy1, &widgets()), read(&copy1, &gadgets())), built);
    // As hack/update-codegen.sh passes it (directories), in the built tree: the same request, up to date.
    let o = vgc(
        &root,
        &[
            "validation-gen",
            "--output-file",
            OUT,
            "--go-header-file",
            "hack/boilerplate.go.txt",
            "./...",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("is up to date"), "{err}");
    // One package named: only it is a target, and only its file is written.
    let (_keep2, copy2) = copy(&root);
    std::fs::remove_file(copy2.join(widgets())).expect("rm");
    std::fs::remove_file(copy2.join(gadgets())).expect("rm");
    // SERVED names gadgets first.
    let o = vgc(&copy2, &SERVED[..6]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(read(&copy2, &gadgets()), built.1);
    assert!(!copy2.join(widgets()).exists(), "not an input");

    // Upstream validation-gen v0.37.2 built from the module cache, offline, on the same tree.
    if go_skipped("validation_gen_command_line_writes_the_same_bytes_as_build_and_upstream") {
        return;
    }
    let Some(upstream) = build_upstream() else {
        eprintln!(
            "skipped: upstream validation-gen cannot be built offline from the Go module cache"
        );
        return;
    };
    let (_keep3, copy3) = copy(&root);
    for rel in [widgets(), gadgets()] {
        std::fs::remove_file(copy3.join(rel)).expect("rm");
    }
    let o = run_upstream(&upstream.1, &copy3, &[]);
    assert!(o.status.success(), "upstream: {}", stderr(&o));
    assert_eq!(
        (read(&copy3, &widgets()), read(&copy3, &gadgets())),
        built,
        "upstream validation-gen wrote other bytes"
    );
}

/// The packages upstream validation-gen is told to read (`--readonly-pkg`) for the fixture's types.
const READ_ONLY: [&str; 6] = [
    "k8s.io/apimachinery/pkg/apis/meta/v1",
    "k8s.io/apimachinery/pkg/types",
    "k8s.io/apimachinery/pkg/runtime",
    "k8s.io/apimachinery/pkg/api/resource",
    "k8s.io/apimachinery/pkg/util/intstr",
    "time",
];

/// Upstream validation-gen (`bin`) run offline in `dir` on `./...`, as the tests run vgc: this module's output file,
/// header and read-only packages, then `extra` flags.
fn run_upstream(bin: &Path, dir: &Path, extra: &[&str]) -> Output {
    let mut cmd = Command::new(bin);
    cmd.args([
        "--output-file",
        OUT,
        "--go-header-file",
        "hack/boilerplate.go.txt",
    ]);
    cmd.args(extra);
    for p in READ_ONLY {
        cmd.args(["--readonly-pkg", p]);
    }
    cmd.arg("./...")
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .output()
        .expect("validation-gen runs")
}

/// Upstream validation-gen v0.37.2 built from the Go module cache without the network, named `validation-gen` (its
/// "Code generated by" line carries the binary's name); `None` when it cannot be.
fn build_upstream() -> Option<(tempfile::TempDir, PathBuf)> {
    let src = module_cache()?.join("k8s.io/code-generator@v0.37.2");
    if !src.is_dir() {
        return None;
    }
    let tmp = tempfile::tempdir().ok()?;
    let exe = tmp.path().join("validation-gen");
    let o = go(
        &src,
        &["build", "-o", exe.to_str()?, "./cmd/validation-gen"],
    );
    o.status.success().then_some((tmp, exe))
}

#[test]
fn a_users_file_in_the_way_and_an_unprintable_rule_write_nothing() {
    let (_tmp, root) = fixture();
    let mine = "package v1\n\nfunc Mine() {}\n";
    std::fs::write(root.join(gadgets()), mine).expect("write");
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}: exists and was not generated by validation-gen",
            root.join(gadgets()).display()
        )),
        "{err}"
    );
    assert_eq!(read(&root, &gadgets()), mine, "the user's file is kept");
    assert!(!root.join(widgets()).exists(), "all or nothing");
    // Another generator's file of that name is the user's too; `--force` replaces it.
    std::fs::write(
        root.join(gadgets()),
        "// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage v1\n",
    )
    .expect("write");
    assert_eq!(vgc(&root, BUILD).status.code(), Some(2));
    let o = vgc(&root, &[BUILD, &["--force"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(read(&root, &gadgets()).contains("validate.Maximum("));

    // A vgc extension the Go backend cannot print: VGC0129 at the struct, nothing written or removed.
    let (_tmp2, root2) = fixture();
    std::fs::write(root2.join("vgc.toml"), "[extensions]\nenabled = true\n").expect("vgc.toml");
    let o = vgc(&root2, BUILD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written = read(&root2, &widgets());
    std::fs::write(
        root2.join("apis/gadgets/v1/types.go"),
        GADGETS_TYPES.replace("+k8s:maximum=10", "+k8s:minimum(constraint: minValue)"),
    )
    .expect("write");
    std::fs::write(
        root2.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES.replace("maxLength=16", "maxLength=17"),
    )
    .expect("write");
    let o = vgc(&root2, &[BUILD, &["--short"]].concat());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("apis/gadgets/v1/types.go:13:6: error[VGC0129]: the Go target cannot print this rule yet")
            && err.contains("(type GadgetSpec); no zz_generated.validations.go is written for package example.com/widgets/apis/gadgets/v1"),
        "{err}"
    );
    assert_eq!(read(&root2, &widgets()), written, "nothing written");
    assert!(
        read(&root2, &gadgets()).contains("validate.Maximum("),
        "nothing removed"
    );
    // `vgc check --target go` reports the same without writing.
    let o = vgc(&root2, &["check", "--target", "go", "--short", "."]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("error[VGC0129]"), "{}", stderr(&o));
}

#[test]
fn a_package_that_loses_its_tag_loses_its_file() {
    let (_tmp, root) = fixture();
    assert_eq!(vgc(&root, BUILD).status.code(), Some(0));
    assert!(root.join(gadgets()).exists());
    std::fs::write(
        root.join("apis/gadgets/v1/doc.go"),
        GADGETS_DOC.replace("TypesWithField=TypeMeta", "false"),
    )
    .expect("write");
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("1 stale file removed"), "{err}");
    assert!(!root.join(gadgets()).exists());
    assert!(root.join(widgets()).exists());
    // A package appearing in a new `src/` at the module root is seen by the next run (the Rust targets leave a
    // generated crate's `src/` out of the listings the build manifest re-checks; the Go target has none).
    std::fs::create_dir_all(root.join("src/gizmos/v1")).expect("mkdir");
    std::fs::write(root.join("src/gizmos/v1/doc.go"), GADGETS_DOC).expect("doc.go");
    std::fs::write(
        root.join("src/gizmos/v1/types.go"),
        GADGETS_TYPES.replace("Gadget", "Gizmo"),
    )
    .expect("types.go");
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(root.join("src/gizmos/v1").join(OUT).exists(), "{err}");
}

#[test]
fn flags_vgc_does_not_implement_are_refused_or_noted() {
    let (_tmp, root) = fixture();
    let run = |extra: &[&str]| {
        let o = vgc(
            &root,
            &[
                &["validation-gen", "--output-file", OUT][..],
                extra,
                &["./..."],
            ]
            .concat(),
        );
        (o.status.code(), stderr(&o))
    };
    // upstream `Args.Validate`: the fixtures' companions only with `--test-output-root`.
    let (code, err) = run(&["--test-allowlist", "a.yaml"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("error: --test-allowlist is only meaningful with --test-output-root"),
        "{err}"
    );
    let (code, err) = run(&["--test-output-file-prefix", "zz."]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("error: --test-output-file-prefix is only meaningful with --test-output-root"),
        "{err}"
    );
    // The fixtures are written under the Go module root, as everything else.
    let (code, err) = run(&["--test-output-root", "../dv"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("outside the Go module root"), "{err}");
    let (code, err) = run(&[
        "--test-output-root",
        "test/dv",
        "--test-allowlist",
        "nope.yaml",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "--test-allowlist: reading allowlist \"{}\"",
            root.join("nope.yaml").display()
        )),
        "{err}"
    );
    assert!(!root.join("test/dv").exists(), "nothing written");
    // validation-gen before 1.37 has no such flag (a module of its own, without dependencies).
    let tmp = tempfile::tempdir().expect("tempdir");
    let old = std::fs::canonicalize(tmp.path()).expect("canonical");
    std::fs::create_dir_all(old.join("apis/v1")).expect("mkdir");
    std::fs::write(old.join("go.mod"), "module example.com/m\n\ngo 1.24\n").expect("go.mod");
    std::fs::write(
        old.join("apis/v1/doc.go"),
        "// +k8s:validation-gen=*\n\npackage v1\n",
    )
    .expect("doc.go");
    std::fs::write(
        old.join("apis/v1/types.go"),
        "package v1\n\n// T is a type.\ntype T struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tName *string `json:\"name,omitempty\"`\n}\n",
    )
    .expect("types.go");
    let o = vgc(
        &old,
        &[
            "--upstream",
            "1.36",
            "validation-gen",
            "--output-file",
            OUT,
            "--test-output-root",
            "test/dv",
            "./...",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "--test-output-root: validation-gen of Kubernetes 1.36 writes no coverage test fixtures"
        ),
        "{}",
        stderr(&o)
    );
    assert!(
        !old.join(format!("apis/v1/{OUT}")).exists(),
        "nothing written"
    );
    let (code, err) = run(&["--lint-rules", "no-such-rule"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("unrecognized rule in --lint-rules: no-such-rule"),
        "{err}"
    );
    let (code, err) = run(&[
        "--lint-rules=known-tags-only,require-explicit-disablement",
        "--readonly-pkg",
        "k8s.io/apimachinery/pkg/runtime",
        "-v",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    for note in [
        "note: --readonly-pkg k8s.io/apimachinery/pkg/runtime: ignored",
        "note: --lint-rules known-tags-only,require-explicit-disablement: upstream's package lint rules are not implemented",
        "note: -v 2: vgc writes no klog logs; ignored",
    ] {
        assert!(err.contains(note), "{note}\n{err}");
    }
    let (code, err) = run(&["--output-file", "a/b.go"]);
    assert_eq!(code, Some(2), "{err}");
    // `vgc build`: the Rust targets' flags are refused with the Go target, and the Go flags without it.
    let o = vgc(&root, &["build", "--target", "go", "--out", "x", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--out is a flag of the Rust targets"),
        "{}",
        stderr(&o)
    );
    let o = vgc(&root, &["build", "--output-file", OUT, "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--output-file is a flag of the Go target"),
        "{}",
        stderr(&o)
    );
    let o = vgc(&root, &["build", "--test-output-root", "test/dv", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--test-output-root is a flag of the Go target"),
        "{}",
        stderr(&o)
    );
    // The header file is read by every build: a missing one is an error naming it.
    let o = vgc(
        &root,
        &[
            "build",
            "--target",
            "go",
            "--go-header-file",
            "nope.txt",
            ".",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "{}: cannot read the --go-header-file",
            root.join("nope.txt").display()
        )),
        "{}",
        stderr(&o)
    );
}

/// An activation package (`+k8s:validation-gen-input`, as k8s.io/kubernetes' `pkg/apis/<group>/<version>`) gets
/// the file of its input's types, its own criteria selecting what it registers: with the input's own file beside
/// it, one of the two must not register (`VGC0005` at the tag otherwise, as upstream stops); an input that cannot be
/// loaded is an error at the tag. Upstream validation-gen v0.37.2 writes the same bytes (skipped under the fast
/// tier or when it cannot be built offline).
#[test]
fn an_activation_package_gets_its_inputs_file() {
    let (_tmp, root) = fixture();
    let o = vgc(&root, BUILD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let own = (read(&root, &widgets()), read(&root, &gadgets()));
    let doc = "internal/widgets/v1/doc.go";
    let activation = format!("internal/widgets/v1/{OUT}");
    let write_doc = |extra: &str, input: &str| {
        std::fs::create_dir_all(root.join("internal/widgets/v1")).expect("mkdir");
        std::fs::write(
            root.join(doc),
            format!("// +k8s:validation-gen=TypesWithSuffix=Spec\n// +k8s:validation-gen-input={input}\n{extra}\npackage v1\n"),
        )
        .expect("write");
    };
    // Two packages registering the validation of one input.
    write_doc("", "example.com/widgets/apis/widgets/v1");
    let o = vgc(&root, &[BUILD, &["--short"]].concat());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("internal/widgets/v1/doc.go:2:5: error[VGC0005]: input example.com/widgets/apis/widgets/v1 is generated into two registering packages (example.com/widgets/apis/widgets/v1, example.com/widgets/internal/widgets/v1)"),
        "{err}"
    );
    assert!(!root.join(&activation).exists());
    // An input that cannot be loaded.
    for (input, says) in [
        (
            "example.com/nothing/v1",
            "error[VGC0004]: no module in go.mod provides example.com/nothing/v1, the input package of this activation",
        ),
        (
            "example.com/widgets/apis/none",
            "error[VGC0004]: package example.com/widgets/internal/widgets/v1 validates the types of example.com/widgets/apis/none (`+k8s:validation-gen-input`), which has no Go package at",
        ),
    ] {
        write_doc("// +k8s:validation-gen-scheme-registry=nil\n", input);
        let o = vgc(&root, &[BUILD, &["--short"]].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains(&format!("internal/widgets/v1/doc.go:2:5: {says}")),
            "{says}\n{err}"
        );
    }
    // Without a registry: both files, the input's own unchanged.
    write_doc(
        "// +k8s:validation-gen-scheme-registry=nil\n",
        "example.com/widgets/apis/widgets/v1",
    );
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("wrote 1 of 3 files (2 unchanged)"), "{err}");
    assert_eq!((read(&root, &widgets()), read(&root, &gadgets())), own);
    let a = read(&root, &activation);
    assert!(
        a.contains("\npackage v1\n")
            && a.contains("func Validate_WidgetSpec(")
            && !a.contains("func Validate_Widget(")
            && !a.contains("RegisterValidations"),
        "{a}"
    );

    if go_skipped("an_activation_package_gets_its_inputs_file") {
        return;
    }
    let Some(upstream) = build_upstream() else {
        eprintln!(
            "skipped: upstream validation-gen cannot be built offline from the Go module cache"
        );
        return;
    };
    let (_keep, up) = copy(&root);
    for rel in [widgets(), gadgets(), activation.clone()] {
        std::fs::remove_file(up.join(rel)).expect("rm");
    }
    let mut cmd = Command::new(&upstream.1);
    cmd.args([
        "--output-file",
        OUT,
        "--go-header-file",
        "hack/boilerplate.go.txt",
    ]);
    for p in READ_ONLY {
        cmd.args(["--readonly-pkg", p]);
    }
    let o = cmd
        .args(["./apis/...", "./internal/widgets/v1"])
        .current_dir(&up)
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .output()
        .expect("validation-gen runs");
    assert!(o.status.success(), "upstream: {}", stderr(&o));
    for rel in [widgets(), gadgets(), activation] {
        assert_eq!(
            read(&up, &rel),
            read(&root, &rel),
            "{rel}: upstream wrote other bytes"
        );
    }
}

/// Builds of parts of a module keep each other's files: a build removes only the stale files it could have written
/// (its directory, its named packages), and the record of written files keeps the others.
#[test]
fn a_build_of_one_directory_keeps_the_files_of_another() {
    let (_tmp, root) = fixture();
    let part = |dir: &str| {
        let o = vgc(&root, &["build", "--target", "go", dir]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };
    part("apis/widgets/v1");
    part("apis/gadgets/...");
    assert!(root.join(widgets()).exists() && root.join(gadgets()).exists());
    let o = vgc(
        &root,
        &["validation-gen", "--output-file", OUT, "./apis/widgets/v1"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(root.join(widgets()).exists() && root.join(gadgets()).exists());
    // The whole module, with gadgets switched off: its file goes, recorded by another build or not.
    std::fs::write(
        root.join("apis/gadgets/v1/doc.go"),
        GADGETS_DOC.replace("TypesWithField=TypeMeta", "false"),
    )
    .expect("write");
    part(".");
    assert!(root.join(widgets()).exists() && !root.join(gadgets()).exists());
}

/// Input packages in a module the main go.mod `replace`s with a directory below it (k8s.io/kubernetes'
/// `staging/src/k8s.io/*`) are targets when named, loaded through the replace and written in the same transaction:
/// an activation package of the main module validating a staging package's types (its registering, canonical
/// output) and the staging package activating itself with other criteria get a file each. `./...` does not enter
/// the replaced module (as Go's does not), and a nested module the main go.mod does not replace is refused.
#[test]
fn inputs_in_a_replaced_module_below_the_root_are_written_with_it() {
    let (_tmp, root) = fixture();
    replace_staging_api(&root);
    let staging = "staging/src/example.com/api";
    for (rel, text) in [
        (format!("{staging}/go.mod"), "module example.com/api\n\ngo 1.24\n".to_string()),
        (
            format!("{staging}/things/v1/doc.go"),
            "// +k8s:validation-gen=TypesWithSuffix=Spec\n// +k8s:validation-gen-input=example.com/api/things/v1\n// +k8s:validation-gen-scheme-registry=nil\n\npackage v1\n".into(),
        ),
        (
            format!("{staging}/things/v1/types.go"),
            "package v1\n\n// Thing is a thing.\ntype Thing struct {\n\tSpec ThingSpec `json:\"spec\"`\n}\n\n// ThingSpec is its spec.\ntype ThingSpec struct {\n\t// +k8s:optional\n\t// +k8s:maximum=10\n\tCount *int32 `json:\"count,omitempty\"`\n}\n".into(),
        ),
        (
            "internal/things/v1/doc.go".to_string(),
            "// +k8s:validation-gen=TypesWithSuffix=Thing\n// +k8s:validation-gen-input=example.com/api/things/v1\n\npackage v1\n".into(),
        ),
        ("other/go.mod".to_string(), "module example.com/other\n\ngo 1.24\n".into()),
        ("other/doc.go".to_string(), "// +k8s:validation-gen=*\n\npackage other\n".into()),
    ] {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let internal = format!("internal/things/v1/{OUT}");
    let own = format!("{staging}/things/v1/{OUT}");
    let generate = |args: &[&str]| {
        vgc(
            &root,
            &[&["validation-gen", "--output-file", OUT], args].concat(),
        )
    };
    // The main module alone: the activation reads the staging package, which gets no file.
    let o = generate(&["./..."]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(root.join(&internal).exists() && !root.join(&own).exists());
    // Named: written too, each file by its own criteria.
    let o = generate(&["./...", &format!("./{staging}/things/v1")]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("wrote 1 of 4 files (3 unchanged)"), "{err}");
    let a = read(&root, &internal);
    assert!(
        a.contains("func RegisterValidations(")
            && a.contains("func Validate_Thing(")
            && a.contains("errs = append(errs, Validate_ThingSpec(")
            && a.contains("func Validate_ThingSpec("),
        "{a}"
    );
    let b = read(&root, &own);
    assert!(
        b.contains("\npackage v1\n")
            && b.contains("func Validate_ThingSpec(")
            && !b.contains("func Validate_Thing(")
            && !b.contains("RegisterValidations"),
        "{b}"
    );
    // A nested module the main go.mod does not replace.
    let o = generate(&["./...", "./other"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("run it once per module"),
        "{}",
        stderr(&o)
    );
}

/// Coverage fixtures: `GroupName` declared by widgets (group `widgets.example.com`, directory `widgets`), not by
/// gadgets (group: its import path, directory `example`); the allowlist leaves out Widget's `spec.replicas` rule.
const GROUP_NAME: &str =
    "package v1\n\n// GroupName is the group.\nconst GroupName = \"widgets.example.com\"\n";
const ALLOWLIST: &str = "# left out\n- apiVersion: widgets.example.com/v1\n  kind: Widget\n  path: spec.replicas\n  errorType: '*'\n  origin: minimum\n  reason: tested elsewhere\n";
const FIXTURE_FLAGS: &[&str] = &[
    "--test-output-root",
    "test/dv",
    "--test-output-file-prefix",
    "zz_generated.validations.",
    "--test-allowlist",
    "hack/allow.yaml",
];

/// Every file under `root/test/dv`, relative to `root`, with its text.
fn fixtures_of(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if e.file_type().expect("type").is_dir() {
                walk(&p, root, out);
            } else {
                let rel = p.strip_prefix(root).expect("below").display().to_string();
                out.push((rel, std::fs::read_to_string(&p).expect("read")));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root.join("test/dv"), root, &mut out);
    out.sort();
    out
}

#[test]
fn coverage_fixtures_are_upstreams_bytes() {
    let (_tmp, root) = fixture();
    std::fs::write(root.join("apis/widgets/v1/group.go"), GROUP_NAME).expect("group.go");
    std::fs::write(root.join("hack/allow.yaml"), ALLOWLIST).expect("allowlist");
    let args: Vec<&str> = [
        &[
            "validation-gen",
            "--output-file",
            OUT,
            "--go-header-file",
            "hack/boilerplate.go.txt",
        ][..],
        FIXTURE_FLAGS,
        &["./..."],
    ]
    .concat();
    let o = vgc(&root, &args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("wrote 6 files"), "{err}");
    let ours = fixtures_of(&root);
    let names: Vec<&str> = ours.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "test/dv/example/gadget/zz_generated.validations.main_test.go",
            "test/dv/example/gadget/zz_generated.validations.v1_test.go",
            "test/dv/widgets/widget/zz_generated.validations.main_test.go",
            "test/dv/widgets/widget/zz_generated.validations.v1_test.go",
        ]
    );
    let year = read(&root, &widgets())
        .lines()
        .find_map(|l| l.strip_prefix("Copyright ").map(str::to_string))
        .expect("the header's year");
    assert_eq!(
        ours[3].1,
        format!(
            "//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\n/*\nCopyright {year}\n*/\n\n// Code generated by validation-gen. DO NOT EDIT.\n\npackage widget\n\nimport (\n\tschema \"k8s.io/apimachinery/pkg/runtime/schema\"\n\tcoverage \"k8s.io/apimachinery/pkg/test/coverage\"\n)\n\nfunc init() {{\n\tcoverage.RegisterDeclaredRules(\n\t\tschema.GroupVersionKind{{Group: \"widgets.example.com\", Version: \"v1\", Kind: \"Widget\"}},\n\t\tcoverage.FieldRules{{\n\t\t\t\"spec.name\": {{\n\t\t\t\t{{ErrorType: \"FieldValueRequired\"}},\n\t\t\t\t{{ErrorType: \"FieldValueTooLong\", Origin: \"maxLength\"}},\n\t\t\t}},\n\t\t}},\n\t)\n}}\n"
        )
    );
    assert!(
        ours[1].1.contains("schema.GroupVersionKind{Group: \"example.com/widgets/apis/gadgets/v1\", Version: \"v1\", Kind: \"Gadget\"}"),
        "{}",
        ours[1].1
    );
    // A rerun is up to date; `vgc build --target go` with the same flags writes the same files.
    let o = vgc(&root, &args);
    assert!(stderr(&o).contains("is up to date"), "{}", stderr(&o));
    let (_keep, copy1) = copy(&root);
    std::fs::remove_dir_all(copy1.join("test")).expect("rm");
    let o = vgc(&copy1, &[BUILD, FIXTURE_FLAGS].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(fixtures_of(&copy1), ours);
    // And so does `vgc build` with vgc.toml's keys instead of the flags (paths relative to the file).
    let (_keep3, copy3) = copy(&root);
    std::fs::remove_dir_all(copy3.join("test")).expect("rm");
    std::fs::write(
        copy3.join("vgc.toml"),
        "[build]\ntarget = \"go\"\ngo-header-file = \"hack/boilerplate.go.txt\"\ngo-test-output-root = \"test/dv\"\ngo-test-output-file-prefix = \"zz_generated.validations.\"\ngo-test-allowlist = \"hack/allow.yaml\"\n",
    )
    .expect("vgc.toml");
    let o = vgc(&copy3, &["build", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(fixtures_of(&copy3), ours);

    if go_skipped("coverage_fixtures_are_upstreams_bytes") {
        return;
    }
    // They compile against k8s.io/apimachinery v0.37.2's `pkg/test/coverage`.
    if module_cache().is_some_and(|c| c.join("k8s.io/apimachinery@v0.37.2").is_dir()) {
        let o = go(&root, &["vet", "./test/dv/..."]);
        assert!(o.status.success(), "go vet: {}", stderr(&o));
    }
    // Upstream validation-gen v0.37.2, built from the module cache offline, writes the same files.
    let Some(upstream) = build_upstream() else {
        eprintln!(
            "skipped: upstream validation-gen cannot be built offline from the Go module cache"
        );
        return;
    };
    let (_keep2, copy2) = copy(&root);
    std::fs::remove_dir_all(copy2.join("test")).expect("rm");
    let o = run_upstream(&upstream.1, &copy2, FIXTURE_FLAGS);
    assert!(o.status.success(), "upstream: {}", stderr(&o));
    assert_eq!(
        fixtures_of(&copy2),
        ours,
        "upstream validation-gen wrote other fixtures"
    );
}

/// The package tags of code-generator's own `output_tests` (checked byte for byte against them by
/// `go_kubernetes`): `+k8s:validation-gen-test-targets` writes `<output>_coverage_test.go`,
/// `+k8s:validation-gen-test-fixture=validateFalse` writes `<output>_test.go`, both beside the package's file; a
/// rerun is up to date; a package that drops the tags loses the files; another fixture value is an error at the tag
/// (upstream panics) and nothing is written.
#[test]
fn the_output_tests_package_tags_write_their_tests() {
    let (_tmp, root) = fixture();
    let doc = root.join("apis/widgets/v1/doc.go");
    let tagged = WIDGETS_DOC.replace(
        "// +groupName",
        "// +k8s:validation-gen-test-targets\n// +k8s:validation-gen-test-fixture=validateFalse\n// +groupName",
    );
    std::fs::write(&doc, &tagged).expect("doc.go");
    let o = vgc(&root, BUILD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let coverage = read(
        &root,
        "apis/widgets/v1/zz_generated.validations_coverage_test.go",
    );
    assert!(
        coverage.contains("schema.GroupVersionKind{Group: \"example.com/widgets/apis/widgets/v1\", Version: \"v1\", Kind: \"Widget\"},\n\t\tcoverage.FieldRules{\n\t\t\t\"spec.name\": {\n\t\t\t\t{ErrorType: \"FieldValueRequired\"},\n\t\t\t\t{ErrorType: \"FieldValueTooLong\", Origin: \"maxLength\"},\n\t\t\t},\n\t\t\t\"spec.replicas\": {\n\t\t\t\t{ErrorType: \"FieldValueInvalid\", Origin: \"minimum\"},\n\t\t\t},\n"),
        "{coverage}"
    );
    assert!(coverage.ends_with("\tos.Exit(code)\n}\n"), "{coverage}");
    let fixture = read(&root, "apis/widgets/v1/zz_generated.validations_test.go");
    assert!(
        fixture.ends_with("package v1\n\nimport (\n\t\"testing\"\n)\n\nfunc TestValidation(t *testing.T) {\n\tlocalSchemeBuilder.Test(t).ValidateFixtures()\n}\n"),
        "{fixture}"
    );
    assert!(
        !root
            .join("apis/gadgets/v1/zz_generated.validations_test.go")
            .exists()
    );
    let o = vgc(&root, BUILD);
    assert!(stderr(&o).contains("is up to date"), "{}", stderr(&o));
    // The tags dropped: the files go with them.
    std::fs::write(&doc, WIDGETS_DOC).expect("doc.go");
    let o = vgc(&root, BUILD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        !root
            .join("apis/widgets/v1/zz_generated.validations_coverage_test.go")
            .exists()
    );
    assert!(
        !root
            .join("apis/widgets/v1/zz_generated.validations_test.go")
            .exists()
    );
    // Another fixture value: upstream's message at the tag, nothing written.
    std::fs::write(
        &doc,
        tagged.replace("test-fixture=validateFalse", "test-fixture=validateTrue"),
    )
    .expect("doc.go");
    std::fs::remove_file(root.join(widgets())).expect("rm");
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "+k8s:validation-gen-test-fixture must be one of 'validateFalse', but got: validateTrue"
        ),
        "{err}"
    );
    assert!(err.contains("apis/widgets/v1/doc.go:"), "{err}");
    assert!(!root.join(widgets()).exists(), "nothing written");
}

/// Stale files (issue 38 A): a build removes a recorded file it does not write only when every package the file
/// belongs to is one of its targets or gone. `vgc validation-gen` given widgets and a staging package (a module the
/// main go.mod `replace`s below the root) writes their files and their kinds' coverage fixtures; `vgc build --target
/// go .` at the root without `--test-output-root`, whose targets are the main module's packages, removes widgets'
/// fixtures and keeps the staging package's file and fixtures (it removed them too). Both
/// modes remove the fixtures of their own packages when `--test-output-root` moves or is dropped (`vgc
/// validation-gen` left them), and the files of a package that is gone.
#[test]
fn stale_removal_keeps_the_files_of_packages_outside_the_run() {
    let (_tmp, root) = fixture();
    replace_staging_api(&root);
    let pkg = "staging/src/example.com/api/things/v1";
    for (rel, text) in [
        ("staging/src/example.com/api/go.mod".to_string(), "module example.com/api\n\ngo 1.24\n\nrequire k8s.io/apimachinery v0.37.2\n".to_string()),
        (format!("{pkg}/doc.go"), "// +k8s:validation-gen=TypesWithField=TypeMeta\n\npackage v1\n".into()),
        (
            format!("{pkg}/types.go"),
            "package v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n// Thing is a thing.\ntype Thing struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\t// +k8s:maximum=10\n\tCount *int32 `json:\"count,omitempty\"`\n}\n".into(),
        ),
    ] {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let own = format!("{pkg}/{OUT}");
    let fixtures = |dir: &str| {
        [
            format!("{dir}/example/thing/main_test.go"),
            format!("{dir}/example/thing/v1_test.go"),
        ]
    };
    let generate = |args: &[&str]| {
        let o = vgc(
            &root,
            &[
                &["validation-gen", "--output-file", OUT],
                args,
                &["./apis/widgets/v1", &format!("./{pkg}")],
            ]
            .concat(),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stderr(&o)
    };
    let err = generate(&["--test-output-root", "test/dv"]);
    assert!(err.contains("wrote 6 files"), "{err}");
    let exist = |rels: &[String]| rels.iter().all(|r| root.join(r).is_file());
    let none = |rels: &[String]| rels.iter().all(|r| !root.join(r).exists());
    let widget = |dir: &str| {
        [
            format!("{dir}/example/widget/main_test.go"),
            format!("{dir}/example/widget/v1_test.go"),
        ]
    };
    assert!(
        exist(std::slice::from_ref(&own))
            && exist(&fixtures("test/dv"))
            && exist(&widget("test/dv")),
        "{err}"
    );
    // The root's build: widgets' fixtures go (a target of it, built without fixtures); the staging package's file
    // and fixtures are not its to remove.
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains(", 2 stale files removed"), "{err}");
    assert!(none(&widget("test/dv")), "{err}");
    assert!(
        exist(std::slice::from_ref(&own)) && exist(&fixtures("test/dv")),
        "{err}"
    );
    // `--test-output-root` moved: the old fixtures go, in either mode.
    let err = generate(&["--test-output-root", "test/dv2"]);
    assert!(err.contains(", 2 stale files removed"), "{err}");
    assert!(
        none(&fixtures("test/dv")) && exist(&fixtures("test/dv2")) && exist(&widget("test/dv2")),
        "{err}"
    );
    // Dropped: they go too, the packages' files stay.
    let err = generate(&[]);
    assert!(err.contains(", 4 stale files removed"), "{err}");
    assert!(
        none(&fixtures("test/dv2")) && exist(std::slice::from_ref(&own)),
        "{err}"
    );
    // `vgc build --target go` of the root with fixtures, then without them: its own fixtures go alike.
    let o = vgc(
        &root,
        &[BUILD, &["--test-output-root", "test/dv3"]].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(exist(&widget("test/dv3")), "{}", stderr(&o));
    let o = vgc(&root, BUILD);
    assert!(
        stderr(&o).contains(", 4 stale files removed"),
        "{}",
        stderr(&o)
    );
    assert!(
        none(&widget("test/dv3")) && exist(std::slice::from_ref(&own)),
        "{}",
        stderr(&o)
    );
    // A package that is gone loses its file, though no target of this build.
    for f in ["doc.go", "types.go"] {
        std::fs::remove_file(root.join(pkg).join(f)).expect("rm");
    }
    let o = vgc(&root, BUILD);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("1 stale file removed"), "{err}");
    assert!(none(&[own]), "{err}");
}

/// A call into the validation function of a type whose package no file of the build is generated for (issue 38
/// B): printed as a `--readonly-pkg` call (`v1.Validate_ObjectMeta`), it would not compile when that package does
/// not declare the function, so it is `VGC0004` at the field and nothing is written (upstream validation-gen refuses
/// the field: "is in a non-included package"). A package that declares the function (a dependency committed with
/// its file) is called.
#[test]
fn a_call_no_package_declares_is_refused_at_the_field() {
    let (_tmp, root) = fixture();
    std::fs::write(
        root.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES.replace("\t// +k8s:opaqueType\n", ""),
    )
    .expect("write");
    let o = vgc(&root, &[BUILD, &["--short"]].concat());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("apis/widgets/v1/types.go:8:2: error[VGC0004]: field Widget.ObjectMeta: the Go target would call v1.Validate_ObjectMeta, which package k8s.io/apimachinery/pkg/apis/meta/v1 does not declare"),
        "{err}"
    );
    assert!(
        !root.join(widgets()).exists() && !root.join(gadgets()).exists(),
        "nothing written"
    );

    // Widgets' spec holds gadgets' spec: a build of widgets alone calls gadgets' function when gadgets' file
    // declares it, and refuses the call when it does not.
    let (_tmp2, root2) = fixture();
    assert_eq!(vgc(&root2, BUILD).status.code(), Some(0));
    std::fs::write(
        root2.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES
            .replace(
                "import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"",
                "import (\n\tgadgetsv1 \"example.com/widgets/apis/gadgets/v1\"\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n)",
            )
            .replace(
                "\tName string `json:\"name\"`\n",
                "\tName string `json:\"name\"`\n\n\t// +k8s:optional\n\tGadget *gadgetsv1.GadgetSpec `json:\"gadget,omitempty\"`\n",
            ),
    )
    .expect("write");
    let one = ["build", "--target", "go", "--short", "./apis/widgets/v1"];
    let o = vgc(&root2, &one);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        read(&root2, &widgets()).contains(
            "errs = append(errs, gadgetsv1.Validate_GadgetSpec(ctx, op, fldPath, obj, oldObj)...)"
        ),
        "{}",
        read(&root2, &widgets())
    );
    std::fs::remove_file(root2.join(gadgets())).expect("rm");
    let o = vgc(&root2, &one);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error[VGC0004]: field WidgetSpec.Gadget: the Go target would call v1.Validate_GadgetSpec, which package example.com/widgets/apis/gadgets/v1 does not declare"),
        "{err}"
    );
}

/// A write error names the path that could not be written and what was being done (issue 38 C), not the module
/// root: a file where `--test-output-root`'s directory must be created.
#[test]
fn a_write_error_names_the_path_that_could_not_be_written() {
    let (_tmp, root) = fixture();
    std::fs::write(root.join("fx"), "a file in the way\n").expect("write");
    let o = vgc(&root, &[BUILD, &["--test-output-root", "fx/dv"]].concat());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "error: cannot write the Go files: {}: cannot create the directory: ",
            root.join("fx/dv/example/gadget").display()
        )),
        "{err}"
    );
    assert_eq!(read(&root, "fx"), "a file in the way\n");
}

/// validation-gen's command line of the build-server tests (directories, as `hack/update-codegen.sh` passes them).
const SERVED: &[&str] = &[
    "validation-gen",
    "--output-file",
    OUT,
    "--go-header-file",
    "hack/boilerplate.go.txt",
    "./apis/gadgets/v1",
    "./apis/widgets/v1",
];

/// A running `vgc validation-gen --serve …` (killed when dropped), what it printed up to its ready line, and the
/// lines it printed since.
struct Server {
    child: std::process::Child,
    started: String,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Server {
    /// Starts the server of [`SERVED`] plus `extra` in `root` and waits (at most 120 s) for its ready line.
    fn start(root: &Path, extra: &[&str]) -> Self {
        use std::io::BufRead as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args([SERVED, &["--serve"], extra].concat())
            .current_dir(root)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("vgc --serve runs");
        let (tx, rx) = std::sync::mpsc::channel();
        let pipe = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut started = String::new();
        loop {
            let line = rx
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no ready line from the server: {started}"));
            started.push_str(&line);
            started.push('\n');
            if line.starts_with("vgc serve: serving builds of this command at ") {
                break;
            }
        }
        // Keep draining the pipe so the server never blocks on a full one.
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            while let Ok(line) = rx.recv() {
                sink.lock().expect("log").push(line);
            }
        });
        Self {
            child,
            started,
            log,
        }
    }

    /// Runs `vgc args` in `root` as a client of this server: its output, and the server's log line of the build
    /// for it (waiting up to 10 s for it; the line names the client's pid).
    fn client(&self, root: &Path, args: &[&str]) -> (Output, String) {
        let child = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(args)
            .current_dir(root)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("vgc runs");
        let prefix = format!("vgc serve: built for pid {} ", child.id());
        let o = child.wait_with_output().expect("client");
        for _ in 0..1000 {
            if let Some(l) = self
                .log
                .lock()
                .expect("log")
                .iter()
                .find(|l| l.starts_with(&prefix))
            {
                return (o, l.clone());
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!(
            "no build logged for {prefix}: {:?}\n{}",
            self.log.lock().expect("log"),
            stderr(&o)
        );
    }

    /// Sends `signal` (`-TERM`, `-KILL`) and waits for the server to end.
    fn signal(&mut self, signal: &str) {
        self.signal_only(signal);
        let _ = self.child.wait();
    }

    /// Sends `signal` (`-STOP`, `-CONT`).
    fn signal_only(&self, signal: &str) {
        let o = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .output()
            .expect("kill runs");
        assert!(o.status.success(), "{}", stderr(&o));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sets `+k8s:maxLength` of WidgetSpec.Name in `root` to `n` (a same-size edit for two-digit values).
fn set_max_length(root: &Path, n: u32) {
    std::fs::write(
        root.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES.replace("+k8s:maxLength=16", &format!("+k8s:maxLength={n}")),
    )
    .expect("write");
}

/// `vgc validation-gen --serve` (docs/go-backend.md, "The build server"): a later run of the same command is built by
/// the server — the same bytes as a one-shot build of the same tree, every edit seen (same-size edits in quick
/// succession included: the racy-stamp rule), the report of a one-shot build plus one note; another command, a
/// `--no-server` run and a run after the server stopped (SIGTERM removes the socket; `kill -9` leaves one no process
/// answers) build in their own process; a second server of the same directory is refused.
#[test]
fn a_build_server_builds_what_a_one_shot_build_would() {
    let (_tmp, root) = fixture();
    let sock = root.join(".vgc/serve.sock");
    let mut server = Server::start(&root, &[]);
    assert!(
        server.started.contains("vgc: wrote 2 files to "),
        "{}",
        server.started
    );
    assert!(sock.exists(), "{}", server.started);
    let by_server = format!("note: built by the vgc build server at {}", sock.display());

    // Nothing changed: the server's build writes nothing.
    let o = vgc(&root, SERVED);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.starts_with(&by_server), "{err}");
    assert!(
        err.contains(&format!(
            "vgc: wrote 0 of 2 files (2 unchanged) to {}\n",
            root.display()
        )),
        "{err}"
    );

    // Same-size edits, each followed at once by a build: every one is seen, and the bytes are a one-shot build's.
    // An edit in place, or saved by a rename over the file (an editor's atomic save), is built from the watcher's
    // events alone.
    for n in [17, 18, 19, 20] {
        if n == 19 {
            let tmp = root.join("apis/widgets/v1/types.go.swp-tmp");
            std::fs::write(
                &tmp,
                WIDGETS_TYPES.replace("+k8s:maxLength=16", &format!("+k8s:maxLength={n}")),
            )
            .expect("write");
            std::fs::rename(&tmp, root.join("apis/widgets/v1/types.go")).expect("rename");
        } else {
            set_max_length(&root, n);
        }
        let (o, logged) = server.client(&root, SERVED);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.starts_with(&by_server), "{err}");
        assert!(
            err.contains("vgc: wrote 1 of 2 files (1 unchanged)"),
            "{n} {err}"
        );
        assert!(
            logged.contains(" after 1 changed Go file(s) the watcher saw: exit 0, 1 written, in "),
            "{logged}"
        );
        let (_keep, fresh) = copy(&root);
        let o = vgc(&fresh, &[SERVED, &["--no-server"]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            read(&root, &widgets()),
            read(&fresh, &widgets()),
            "maxLength={n}"
        );
        assert!(
            read(&root, &widgets()).contains(&format!(
                "validate.MaxLength(ctx, op, fldPath, obj, oldObj, {n})"
            )),
            "{}",
            read(&root, &widgets())
        );
    }

    // A `//go:build ignore` line added to a file: the file leaves its package (discovered again, as a one-shot build
    // does), and comes back when the line goes.
    let gadgets_types = root.join("apis/gadgets/v1/types.go");
    std::fs::write(
        &gadgets_types,
        format!("//go:build ignore\n\n{GADGETS_TYPES}"),
    )
    .expect("write");
    let o = vgc(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        !read(&root, &gadgets()).contains("Validate_GadgetSpec"),
        "{}",
        read(&root, &gadgets())
    );
    std::fs::write(&gadgets_types, GADGETS_TYPES).expect("write");
    let o = vgc(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(read(&root, &gadgets()).contains("Validate_GadgetSpec"));

    // Generated files removed (update-codegen.sh deletes them before it runs): written again.
    let before = (read(&root, &widgets()), read(&root, &gadgets()));
    for rel in [widgets(), gadgets()] {
        std::fs::remove_file(root.join(rel)).expect("rm");
    }
    let o = vgc(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("vgc: wrote 2 files to "),
        "{}",
        stderr(&o)
    );
    assert_eq!((read(&root, &widgets()), read(&root, &gadgets())), before);

    // A new file (a new type with a validation; `build_after` discovers the package again) and its removal (the
    // watcher's events are not used).
    let extra = root.join("apis/gadgets/v1/extra.go");
    std::fs::write(
        &extra,
        "package v1\n\n// Extra is new.\ntype Extra struct {\n\t// +k8s:optional\n\t// +k8s:maximum=5\n\tN *int32 `json:\"n,omitempty\"`\n}\n",
    )
    .expect("write");
    std::fs::write(
        root.join("apis/gadgets/v1/types.go"),
        GADGETS_TYPES.replace(
            "\tCurrent *int32 `json:\"current,omitempty\"`\n",
            "\tCurrent *int32 `json:\"current,omitempty\"`\n\n\t// +k8s:optional\n\tExtra *Extra `json:\"extra,omitempty\"`\n",
        ),
    )
    .expect("write");
    let (o, logged) = server.client(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        logged.contains(" after 2 changed Go file(s) the watcher saw: "),
        "{logged}"
    );
    assert!(
        read(&root, &gadgets()).contains("func Validate_Extra("),
        "{}",
        read(&root, &gadgets())
    );
    std::fs::remove_file(&extra).expect("rm");
    std::fs::write(root.join("apis/gadgets/v1/types.go"), GADGETS_TYPES).expect("write");
    let (o, logged) = server.client(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(logged.contains(" with discovery: "), "{logged}");
    let (_keep, fresh) = copy(&root);
    assert_eq!(
        vgc(&fresh, &[SERVED, &["--no-server"]].concat())
            .status
            .code(),
        Some(0)
    );
    assert_eq!(read(&root, &gadgets()), read(&fresh, &gadgets()));

    // A diagnostic is the one-shot build's, exit code included.
    std::fs::write(
        root.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES.replace("+k8s:maxLength=16", "+k8s:maxLength=x"),
    )
    .expect("write");
    let served = vgc(&root, &[SERVED, &["--short", "--color", "never"]].concat());
    let local = vgc(
        &root,
        &[SERVED, &["--short", "--color", "never", "--no-server"]].concat(),
    );
    assert_eq!(served.status.code(), Some(1), "{}", stderr(&served));
    assert_eq!(local.status.code(), Some(1), "{}", stderr(&local));
    let without_time = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("note: built by the vgc build server"))
            .map(|l| l.split(" in 0.").next().unwrap_or(l).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        without_time(&stderr(&served)),
        without_time(&stderr(&local))
    );
    assert!(stderr(&served).starts_with(&by_server));
    set_max_length(&root, 16);

    // Another command: refused with a note, built here.
    let o = vgc(&root, &[SERVED, &["--force"]].concat());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.starts_with(&format!(
            "note: the vgc build server at {} serves another command, one that differs in --force, --no-cache or --cache-dir (start a server with this command to serve it); building in this process\n",
            sock.display()
        )),
        "{err}"
    );
    // --no-server: no note (`vgc build --target go` takes it too; its request is not the server's anyway).
    let o = vgc(&root, &[SERVED, &["--no-server"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("build server"), "{}", stderr(&o));

    let o = vgc(&root, &[BUILD, &["--no-server"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("build server"), "{}", stderr(&o));

    // A second server of the same directory.
    let o = vgc(&root, &[SERVED, &["--serve"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "error: {}: a vgc build server already serves this directory",
            sock.display()
        )),
        "{}",
        stderr(&o)
    );

    // Clients at once: each is queued and built in turn by the server.
    let clients: Vec<_> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_vgc"))
                .args(SERVED)
                .current_dir(&root)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("vgc runs")
        })
        .collect();
    for c in clients {
        let o = c.wait_with_output().expect("client");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).starts_with(&by_server), "{}", stderr(&o));
    }
    // A stopped server (SIGSTOP) does not take the request: the client builds here after QUEUE_TIMEOUT, with a note.
    server.signal_only("-STOP");
    let o = vgc(&root, SERVED);
    server.signal_only("-CONT");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.starts_with(&format!(
            "note: the vgc build server at {} did not answer (it did not take the request within 3 s); building in this process\n",
            sock.display()
        )),
        "{err}"
    );

    // A file reached through a symbolic link to outside the tree: the watcher sees no edit of its target, so every
    // build of this server discovers from then on — and sees the edit.
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let target = elsewhere.path().join("types.go");
    std::fs::write(&target, GADGETS_TYPES).expect("write");
    std::fs::remove_file(&gadgets_types).expect("rm");
    std::os::unix::fs::symlink(&target, &gadgets_types).expect("symlink");
    assert_eq!(vgc(&root, SERVED).status.code(), Some(0));
    std::fs::write(
        &target,
        GADGETS_TYPES.replace("+k8s:maximum=10", "+k8s:maximum=55"),
    )
    .expect("write");
    let (o, logged) = server.client(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        read(&root, &gadgets()).contains("validate.Maximum(ctx, op, fldPath, obj, oldObj, 55)"),
        "{}",
        read(&root, &gadgets())
    );
    assert!(logged.contains(" with discovery: "), "{logged}");
    std::fs::remove_file(&gadgets_types).expect("rm");
    std::fs::write(&gadgets_types, GADGETS_TYPES).expect("write");

    // SIGTERM: the socket is removed; the next run builds here, silently.
    server.signal("-TERM");
    assert!(
        server
            .log
            .lock()
            .expect("log")
            .iter()
            .any(|l| l == &format!("vgc serve: stopped by a signal; {} removed", sock.display())),
        "{:?}",
        server.log.lock().expect("log")
    );
    assert!(!sock.exists());
    let o = vgc(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("build server"), "{}", stderr(&o));

    // kill -9 leaves the socket; nothing answers on it: built here, silently; a new server replaces it.
    let mut server = Server::start(&root, &[]);
    server.signal("-KILL");
    assert!(sock.exists());
    let o = vgc(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("build server"), "{}", stderr(&o));
    let mut server = Server::start(&root, &[]);
    let o = vgc(&root, SERVED);
    assert!(stderr(&o).starts_with(&by_server), "{}", stderr(&o));

    // A directory link made while the server runs, to a package outside the tree that a build from the watcher's
    // files then loads (widgets' edit imports it): from then on every build discovers, so an edit behind the link is
    // seen — here the linked type gains a validation, which the one-shot build reports as VGC0004 too.
    let ext = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(ext.path().join("v1")).expect("mkdir");
    let gizmo = "package v1\n\n// GizmoSpec is linked in.\ntype GizmoSpec struct {\n\tN *int32 `json:\"n,omitempty\"`\n}\n";
    std::fs::write(ext.path().join("v1/types.go"), gizmo).expect("write");
    std::os::unix::fs::symlink(ext.path(), root.join("apis/ext")).expect("symlink");
    assert_eq!(vgc(&root, SERVED).status.code(), Some(0));
    std::fs::write(
        root.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES
            .replace(
                "import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"",
                "import (\n\textv1 \"example.com/widgets/apis/ext/v1\"\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n)",
            )
            .replace(
                "\tName string `json:\"name\"`\n",
                "\tName string `json:\"name\"`\n\n\t// +k8s:optional\n\tG *extv1.GizmoSpec `json:\"g,omitempty\"`\n",
            ),
    )
    .expect("write");
    let o = vgc(&root, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(
        ext.path().join("v1/types.go"),
        gizmo.replace(
            "\tN *int32",
            "\t// +k8s:optional\n\t// +k8s:maximum=22\n\tN *int32",
        ),
    )
    .expect("write");
    let served = vgc(&root, &[SERVED, &["--short"]].concat());
    let local = vgc(&root, &[SERVED, &["--short", "--no-server"]].concat());
    assert_eq!(served.status.code(), Some(1), "{}", stderr(&served));
    assert_eq!(local.status.code(), Some(1), "{}", stderr(&local));
    assert!(
        stderr(&served).contains("error[VGC0004]: field WidgetSpec.G"),
        "{}",
        stderr(&served)
    );
    assert!(
        stderr(&served).starts_with(&by_server),
        "{}",
        stderr(&served)
    );
    std::fs::remove_file(root.join("apis/ext")).expect("rm link");
    std::fs::write(root.join("apis/widgets/v1/types.go"), WIDGETS_TYPES).expect("write");

    // `.vgc/` removed (`git clean -xdf`): the server stops, saying why.
    std::fs::remove_dir_all(root.join(".vgc")).expect("rm .vgc");
    let status = server.child.wait().expect("the server ends");
    assert_eq!(status.code(), Some(1));
    assert!(
        server.log.lock().expect("log").iter().any(|l| l
            == &format!(
                "vgc serve: {} was removed or replaced; stopping (start the server again to serve this tree)",
                sock.display()
            )),
        "{:?}",
        server.log.lock().expect("log")
    );
}

/// Names that clash only in Rust (`URL` and `Url` both become `url`, R33) are an error of the Rust targets, not of the
/// Go target, which writes no Rust (upstream validation-gen generates for both fields).
#[test]
fn rust_name_clashes_are_no_error_for_the_go_target() {
    let (_tmp, root) = fixture();
    std::fs::write(
        root.join("apis/widgets/v1/types.go"),
        WIDGETS_TYPES.replace(
            "\tName string `json:\"name\"`\n",
            "\tName string `json:\"name\"`\n\n\t// +k8s:optional\n\t// +k8s:maxLength=8\n\tURL *string `json:\"url,omitempty\"`\n\n\t// +k8s:optional\n\t// +k8s:maxLength=9\n\tUrl *string `json:\"urlAlt,omitempty\"`\n",
        ),
    )
    .expect("write");
    let o = vgc(&root, BUILD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let w = read(&root, &widgets());
    assert!(
        w.contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 8)")
            && w.contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 9)"),
        "{w}"
    );
    let out = root.join("out-rust");
    let o = vgc(
        &root,
        &[
            "build",
            "--short",
            "--out",
            out.to_str().expect("UTF-8"),
            ".",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "error[VGC0113]: fields WidgetSpec.URL and WidgetSpec.Url both become the Rust field `url`"
        ),
        "{}",
        stderr(&o)
    );
}

/// A tree whose `.vgc/serve.sock` would be too long a socket path: the server's socket is in `vgc-<uid>/` of the
/// temporary directory (mode 0700), clients find it there; a socket another user owns is not asked (root only:
/// the test hands the socket to `nobody`).
#[test]
fn a_deep_trees_build_server_listens_in_a_private_directory() {
    let (_tmp, shallow) = fixture();
    let (_keep, other) = copy(&shallow);
    let deep = other.join(["a-directory-name-long-enough"; 4].join("/"));
    copy_tree(&shallow, &deep);
    assert!(deep.join(".vgc/serve.sock").as_os_str().len() > 100);
    let server = Server::start(&deep, &[]);
    let line = server
        .started
        .lines()
        .find(|l| l.starts_with("vgc serve: serving builds of this command at "))
        .expect("ready line");
    let sock = PathBuf::from(
        line.trim_start_matches("vgc serve: serving builds of this command at ")
            .split(" (pid ")
            .next()
            .expect("socket"),
    );
    let dir = sock.parent().expect("directory");
    assert!(
        dir.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("vgc-")),
        "{}",
        sock.display()
    );
    use std::os::unix::fs::PermissionsExt as _;
    assert_eq!(
        std::fs::metadata(dir).expect("dir").permissions().mode() & 0o777,
        0o700
    );
    let o = vgc(&deep, SERVED);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(&format!(
            "note: built by the vgc build server at {}",
            sock.display()
        )),
        "{}",
        stderr(&o)
    );
    // The tree removed: the server stops and takes its socket out of the shared directory.
    let mut server = server;
    std::fs::remove_dir_all(deep.join(".vgc")).expect("rm .vgc");
    assert_eq!(
        server.child.wait().expect("the server ends").code(),
        Some(1)
    );
    assert!(!sock.exists(), "{}", sock.display());
    let _server = Server::start(&deep, &[]);
    let o = vgc(&deep, SERVED);
    assert!(
        stderr(&o).starts_with("note: built by the vgc build server"),
        "{}",
        stderr(&o)
    );
    // Another user's socket (possible only as root).
    if Command::new("chown")
        .args(["65534", &sock.to_string_lossy()])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        let o = vgc(&deep, SERVED);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).starts_with(&format!(
                "note: {} belongs to another user; building in this process without asking it\n",
                sock.display()
            )),
            "{}",
            stderr(&o)
        );
    }
}

/// A server that takes the request (`"Queued"`) and then falls silent — stopped or wedged mid-build: the client
/// builds in its own process after `SILENCE_TIMEOUT` (10 s), with a note, and writes what a one-shot build writes.
#[test]
fn a_build_server_that_falls_silent_is_left_after_ten_seconds() {
    use std::io::{BufRead as _, Write as _};
    let (_tmp, root) = fixture();
    let sock = root.join(".vgc/serve.sock");
    std::fs::create_dir_all(sock.parent().expect("dir")).expect("mkdir");
    let listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
    let silent = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("accept");
        let mut line = String::new();
        std::io::BufReader::new(&stream)
            .read_line(&mut line)
            .expect("request");
        (&stream).write_all(b"\"Queued\"\n").expect("queued");
        // Hold the connection open, saying nothing, until the client is gone.
        let mut rest = String::new();
        let _ = std::io::BufReader::new(&stream).read_line(&mut rest);
        line
    });
    let o = vgc(&root, SERVED);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.starts_with(&format!(
            "note: the vgc build server at {} did not answer (it did not give a sign of life within 10 s); building in this process\n",
            sock.display()
        )),
        "{err}"
    );
    assert!(err.contains("vgc: wrote 2 files to "), "{err}");
    assert!(silent.join().expect("fake server").contains("\"key\""));
}

/// The note on packages without a `+k8s:validation-gen` tag names the tag as the sources spell it under
/// `--tag-prefix` (kubernetes#141866).
#[test]
fn the_untagged_note_names_the_tag_under_the_tag_prefix() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    std::fs::create_dir_all(root.join("b")).expect("mkdir");
    std::fs::write(root.join("go.mod"), "module example.com/m\n\ngo 1.24\n").expect("go.mod");
    std::fs::write(
        root.join("b/b.go"),
        "package b\n\n// U is untagged.\ntype U struct {\n\t// +acme:maxLength=3\n\tS string `json:\"s\"`\n}\n",
    )
    .expect("b.go");
    let o = vgc(
        &root,
        &["--tag-prefix", "acme:", "build", "--target", "go", "."],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "note: 1 target package(s) without a `+acme:validation-gen` tag get no zz_generated.validations.go (as upstream validation-gen): example.com/m/b\n"
        ),
        "{}",
        stderr(&o)
    );
}
