//! `vgc validation-gen` as a drop-in for upstream validation-gen in a tree laid out as k8s.io/kubernetes v1.37.2
//! lays itself out (issue 38, docs/go-backend.md): a root module `k8s.io/kubernetes` whose go.mod `replace`s
//! `k8s.io/api` and `k8s.io/apimachinery` with `./staging/src/k8s.io/…` (and a go.work using them, as the
//! repository has, for upstream's go/packages), holding the release's `pkg/apis/**/doc.go` and the two
//! hand-written `validation.go` files whose `ValidateCustom_*` functions the generated code calls, and the staging
//! modules copied from the Go module cache (k8s.io/api and k8s.io/apimachinery v0.37.2; downloaded through the
//! module proxy when missing — real inputs are never committed).
//!
//! As `hack/update-codegen.sh`'s `codegen::validation`: every `zz_generated.validations.go` is deleted, the input
//! packages are the directories holding a `+k8s:validation-gen=` tag (root and staging modules alike), and vgc runs
//! from the root with the script's flags, `--test-output-root test/declarative_validation` and its companions
//! included (the tree holds the release's `test/declarative_validation` without the fixtures). Then:
//!
//! - every file of a package `tests/go_backend_identical.toml` lists as identical for `k8s.io/kubernetes@v1.37.2`
//!   is byte for byte the release's committed file, and so is every other file written (k8s.io/api's own
//!   self-activated `resource/v1` and `scheduling/v1alpha3`); every tagged package but the `=false` ones gets one;
//! - the coverage fixtures written under `test/declarative_validation` are the release's committed ones, the same
//!   files with the same bytes; one allowlisted away is removed, a malformed allowlist writes nothing (exit 2);
//! - a rerun is up to date; an edit of one tag (`+k8s:minimum` of `core/v1`'s `LeaseSpec.Priority`, in the staging
//!   copy) rewrites `pkg/apis/core/v1`'s file only, and undoing it restores the committed bytes.
//!
//! The same on k8s.io/kubernetes v1.38.0-beta.0's tree (staging v0.38.0-beta.0, `--upstream 1.38`): all 64 files
//! written are the pre-release's bytes — k8s.io/api's `authorization/v1alpha1` calls the nearest copy of
//! `authorization/v1` (k8s.io/api's own), as validation-gen 1.38 does.
//!
//! Slow tier: needs `go` (to download the modules) and the release's sources.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const OUT: &str = "zz_generated.validations.go";
/// Where update-codegen.sh's `--test-output-root` puts the coverage fixtures, and its `--test-output-file-prefix`
/// and `--test-allowlist`.
const FIXTURES: &str = "test/declarative_validation";
const FIXTURE_PREFIX: &str = "zz_generated.validations.";
const ALLOWLIST: &str = "test/declarative_validation/coverage-allowlist.yaml";

/// A coverage fixture validation-gen writes (`<prefix><version>_test.go`, `<prefix>main_test.go`).
fn is_fixture(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(FIXTURE_PREFIX) && n.ends_with("_test.go"))
}

/// A release whose tree is laid out: the k8s.io/kubernetes module, the staging modules the tree holds (each replaced
/// with `./staging/src/<module>`) and the profile vgc runs with.
struct Release {
    kubernetes: &'static str,
    staging: [&'static str; 2],
    upstream: &'static str,
}

const RELEASE: Release = Release {
    kubernetes: "k8s.io/kubernetes@v1.37.2",
    staging: ["k8s.io/api@v0.37.2", "k8s.io/apimachinery@v0.37.2"],
    upstream: "1.37",
};

/// The pre-release: validation-gen 1.38 calls into an input generated into several packages through the copy
/// nearest the caller (k8s.io/api's `authorization/v1alpha1` calls k8s.io/api's own `authorization/v1` copy).
const PRERELEASE: Release = Release {
    kubernetes: "k8s.io/kubernetes@v1.38.0-beta.0",
    staging: [
        "k8s.io/api@v0.38.0-beta.0",
        "k8s.io/apimachinery@v0.38.0-beta.0",
    ],
    upstream: "1.38",
};
/// `hack/update-codegen.sh`'s `readonly_pkgs`.
const READ_ONLY: [&str; 5] = [
    "k8s.io/apimachinery/pkg/api/resource",
    "k8s.io/apimachinery/pkg/runtime",
    "k8s.io/apimachinery/pkg/types",
    "k8s.io/apimachinery/pkg/util/intstr",
    "time",
];
/// The tag the test edits: `LeaseSpec.Priority`'s minimum in k8s.io/api's core/v1 (its only `+k8s:minimum=0`).
const EDITED: (&str, &str, &str) = (
    "staging/src/k8s.io/api/core/v1/types.go",
    "\t// +k8s:required\n\t// +k8s:minimum=0\n\t// +k8s:maximum=100000\n",
    "\t// +k8s:required\n\t// +k8s:minimum=7\n\t// +k8s:maximum=100000\n",
);

/// The module's directory in the Go module cache (`go mod download -json`, through the module proxy when missing).
fn download(module: &str, work: &Path) -> PathBuf {
    let o = Command::new("go")
        .args(["mod", "download", "-json", module])
        .current_dir(work)
        .env("GOFLAGS", "-mod=mod")
        // The 1.38 pre-release's modules require go 1.27, which the proxy serves as a toolchain.
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("the `go` command runs");
    assert!(
        o.status.success(),
        "go mod download {module}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("go mod download -json");
    PathBuf::from(v["Dir"].as_str().expect("Dir"))
}

/// Copies `from` into `to`, writable (the module cache's files are read-only), without the generated files.
fn copy_tree(from: &Path, to: &Path, keep: &dyn Fn(&Path) -> bool) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("ls").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().expect("type").is_dir() {
            copy_tree(&src, &dst, keep);
        } else if keep(&src) && e.file_name() != OUT {
            std::fs::write(&dst, std::fs::read(&src).expect("read")).expect("write");
        }
    }
}

/// The tree (see the module docs) and the directories of the release's k8s.io/kubernetes and staging modules.
struct Tree {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    kubernetes: PathBuf,
    staging: Vec<(String, PathBuf)>,
}

fn tree(r: &Release) -> Tree {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    let kubernetes = download(r.kubernetes, &root);
    let mut staging = Vec::new();
    for m in r.staging {
        let dir = download(m, &root);
        let module = m.split('@').next().expect("module");
        copy_tree(&dir, &root.join("staging/src").join(module), &|_| true);
        staging.push((module.to_string(), dir));
    }
    // pkg/apis: every doc.go, and the hand-written custom validations (upstream checks they exist).
    copy_tree(&kubernetes.join("pkg/apis"), &root.join("pkg/apis"), &|p| {
        p.ends_with("doc.go")
            || p.ends_with("core/v1/validation.go")
            || p.ends_with("lifecycle/v1alpha1/validation.go")
    });
    // test/declarative_validation: the allowlist and the hand-written tests, not the fixtures validation-gen
    // writes there (update-codegen.sh deletes them before it runs).
    copy_tree(&kubernetes.join(FIXTURES), &root.join(FIXTURES), &|p| {
        !is_fixture(p)
    });
    let header = "hack/boilerplate/boilerplate.generatego.txt";
    std::fs::create_dir_all(root.join("hack/boilerplate")).expect("mkdir");
    std::fs::copy(kubernetes.join(header), root.join(header)).expect("boilerplate");
    std::fs::write(
        root.join("go.mod"),
        "module k8s.io/kubernetes\n\ngo 1.26.0\n\nrequire (\n\tk8s.io/api v0.0.0\n\tk8s.io/apimachinery v0.0.0\n)\n\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/apimachinery => ./staging/src/k8s.io/apimachinery\n)\n",
    )
    .expect("go.mod");
    std::fs::write(
        root.join("go.work"),
        "go 1.26.0\n\nuse (\n\t.\n\t./staging/src/k8s.io/api\n\t./staging/src/k8s.io/apimachinery\n)\n",
    )
    .expect("go.work");
    Tree {
        _tmp: tmp,
        root,
        kubernetes,
        staging,
    }
}

/// The directories `hack/update-codegen.sh` passes: those holding a `.go` file with a line `// +k8s:validation-gen=`
/// (column 0, as its `git grep`), outside `testdata/`, relative to `root` with `./`, sorted.
fn tagged_dirs(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
        for e in std::fs::read_dir(dir).expect("ls").flatten() {
            let p = e.path();
            if e.file_type().expect("type").is_dir() {
                if e.file_name() != "testdata" && e.file_name() != "vendor" {
                    walk(&p, root, out);
                }
            } else if p.extension().is_some_and(|x| x == "go")
                && std::fs::read_to_string(&p).is_ok_and(|t| {
                    t.lines().any(|l| {
                        l.strip_prefix("//")
                            .is_some_and(|r| r.trim_start().starts_with("+k8s:validation-gen="))
                    })
                })
            {
                let rel = dir.strip_prefix(root).expect("below the root");
                out.insert(format!("./{}", rel.display()));
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(root, root, &mut out);
    out.into_iter().collect()
}

/// `vgc validation-gen` as `hack/update-codegen.sh` runs validation-gen, with the
/// release's profile (k8s.io/kubernetes' go.mod names its staging modules `v0.0.0`, which names no release).
fn run(root: &Path, dirs: &[String], r: &Release) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vgc"));
    cmd.args([
        "--upstream",
        r.upstream,
        "validation-gen",
        "-v",
        "0",
        "--go-header-file",
        "hack/boilerplate/boilerplate.generatego.txt",
        "--output-file",
        OUT,
        "--test-output-root",
        FIXTURES,
        "--test-output-file-prefix",
        FIXTURE_PREFIX,
        "--test-allowlist",
        ALLOWLIST,
        "--lint-rules=known-tags-only,require-explicit-disablement",
    ]);
    for p in READ_ONLY {
        cmd.args(["--readonly-pkg", p]);
    }
    cmd.args(dirs).current_dir(root).output().expect("vgc runs")
}

/// The packages whose files go_backend's oracle regenerates identically from the release's k8s.io/kubernetes.
fn listed_identical(r: &Release) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/go_backend_identical.toml");
    let text = std::fs::read_to_string(&path).expect("tests/go_backend_identical.toml");
    // The file's one line `"k8s.io/kubernetes@v1.37.2" = ["…", …]` (as `toml` writes it, `VGC_BLESS=1`), read
    // without a TOML parser (the command line's crate has none).
    let key = format!("\"{}\" = [", r.kubernetes);
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix(key.as_str()))
        .expect("the release's list");
    let list = line.trim_end().strip_suffix(']').expect("on one line");
    list.split(',')
        .map(|p| p.trim().trim_matches('"').to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

impl Tree {
    /// (the file vgc writes, the release's committed file) of package `pkg`.
    fn files_of(&self, pkg: &str) -> (PathBuf, PathBuf) {
        if let Some(rel) = pkg.strip_prefix("k8s.io/kubernetes/") {
            return (
                self.root.join(rel).join(OUT),
                self.kubernetes.join(rel).join(OUT),
            );
        }
        let (module, dir) = self
            .staging
            .iter()
            .find(|(m, _)| {
                pkg.strip_prefix(m.as_str())
                    .is_some_and(|r| r.starts_with('/'))
            })
            .unwrap_or_else(|| panic!("{pkg}: in no module of the tree"));
        let rel = &pkg[module.len() + 1..];
        (
            self.root
                .join("staging/src")
                .join(module)
                .join(rel)
                .join(OUT),
            dir.join(rel).join(OUT),
        )
    }

    /// Every generated file under the root, as package import paths.
    fn written(&self) -> BTreeSet<String> {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(dir).expect("ls").flatten() {
                if e.file_type().expect("type").is_dir() {
                    if e.file_name() != ".vgc" {
                        walk(&e.path(), out);
                    }
                } else if e.file_name() == OUT {
                    out.push(e.path());
                }
            }
        }
        let mut files = Vec::new();
        walk(&self.root, &mut files);
        files
            .into_iter()
            .map(|f| {
                let rel = f
                    .parent()
                    .and_then(|d| d.strip_prefix(&self.root).ok())
                    .expect("below the root")
                    .to_string_lossy()
                    .into_owned();
                match rel.strip_prefix("staging/src/") {
                    Some(r) => r.to_string(),
                    None => format!("k8s.io/kubernetes/{rel}"),
                }
            })
            .collect()
    }

    /// The coverage fixtures under `dir`'s test/declarative_validation, relative to it, sorted.
    fn fixtures(dir: &Path) -> BTreeSet<String> {
        fn walk(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
            for e in std::fs::read_dir(dir).expect("ls").flatten() {
                let p = e.path();
                if e.file_type().expect("type").is_dir() {
                    walk(&p, root, out);
                } else if is_fixture(&p) {
                    out.insert(p.strip_prefix(root).expect("below").display().to_string());
                }
            }
        }
        let mut out = BTreeSet::new();
        walk(&dir.join(FIXTURES), dir, &mut out);
        out
    }

    /// The fixtures written whose bytes are not the release's committed ones.
    fn differing_fixtures(&self, fixtures: &BTreeSet<String>) -> Vec<String> {
        fixtures
            .iter()
            .filter(|f| {
                std::fs::read(self.root.join(f)).ok()
                    != Some(std::fs::read(self.kubernetes.join(f)).expect("committed"))
            })
            .cloned()
            .collect()
    }

    /// The packages of `pkgs` whose written file is not the release's.
    fn differing(&self, pkgs: &BTreeSet<String>) -> Vec<String> {
        pkgs.iter()
            .filter(|p| {
                let (ours, theirs) = self.files_of(p);
                std::fs::read(&ours).ok() != Some(std::fs::read(&theirs).expect("committed"))
            })
            .cloned()
            .collect()
    }
}

/// Lays out release `r`'s tree, runs `vgc validation-gen` as update-codegen.sh runs validation-gen and checks that
/// every file written is the release's committed one, that the oracle's identical packages are among them and that
/// every input package but the `=false` ones gets one, and that the coverage fixtures written are the release's
/// committed ones, the same files with the same bytes. Returns the tree, the input directories, the packages
/// written and the fixtures written.
fn regenerate(r: &Release) -> (Tree, Vec<String>, BTreeSet<String>, BTreeSet<String>) {
    let t = tree(r);
    let dirs = tagged_dirs(&t.root);
    assert!(
        dirs.iter()
            .any(|d| d.starts_with("./staging/src/k8s.io/apimachinery/"))
            && dirs.iter().any(|d| d.starts_with("./pkg/apis/")),
        "{dirs:?}"
    );
    let o = run(&t.root, &dirs, r);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    eprintln!("{err}");

    // The oracle's identical packages, and every other file written, are the release's bytes.
    let listed = listed_identical(r);
    assert!(listed.len() >= 59, "{listed:?}");
    let written = t.written();
    let missing: Vec<_> = listed.difference(&written).collect();
    assert!(missing.is_empty(), "not written: {missing:?}\n{err}");
    let differing = t.differing(&written);
    assert!(
        differing.is_empty(),
        "not the release's bytes: {differing:?}"
    );
    // Every input package gets its file, but those tagged `+k8s:validation-gen=false`.
    let disabled: BTreeSet<String> = dirs
        .iter()
        .filter(|d| {
            std::fs::read_to_string(t.root.join(d).join("doc.go"))
                .is_ok_and(|doc| doc.contains("\n// +k8s:validation-gen=false\n"))
        })
        .map(|d| {
            let rel = d.trim_start_matches("./");
            match rel.strip_prefix("staging/src/") {
                Some(r) => r.to_string(),
                None => format!("k8s.io/kubernetes/{rel}"),
            }
        })
        .collect();
    assert_eq!(written.len() + disabled.len(), dirs.len(), "{disabled:?}");
    // The coverage fixtures: exactly the release's files (`--test-output-root`), byte for byte.
    let fixtures = Tree::fixtures(&t.root);
    let committed = Tree::fixtures(&t.kubernetes);
    assert!(committed.len() >= 200, "{committed:?}");
    assert_eq!(
        fixtures.iter().collect::<Vec<_>>(),
        committed.iter().collect::<Vec<_>>(),
        "the fixtures written (left) and the release's (right)"
    );
    let differing = t.differing_fixtures(&fixtures);
    assert!(
        differing.is_empty(),
        "{} of {} fixtures are not the release's bytes: {differing:?}",
        differing.len(),
        fixtures.len()
    );
    assert!(
        err.contains(&format!("wrote {} files", written.len() + fixtures.len())),
        "{err}"
    );
    (t, dirs, written, fixtures)
}

#[test]
fn validation_gen_regenerates_kubernetes_pkg_apis_from_the_root() {
    let (t, dirs, written, fixtures) = regenerate(&RELEASE);
    // A rerun is up to date.
    let o = run(&t.root, &dirs, &RELEASE);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("is up to date"), "{err}");

    // One tag edited in the staging copy of k8s.io/api: core/v1's file alone changes.
    let (file, before, after) = EDITED;
    let text = std::fs::read_to_string(t.root.join(file)).expect("types.go");
    assert_eq!(text.matches(before).count(), 1, "the edited tag");
    std::fs::write(t.root.join(file), text.replace(before, after)).expect("edit");
    let o = run(&t.root, &dirs, &RELEASE);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    let total = 61 + fixtures.len();
    assert!(
        err.contains(&format!(
            "vgc: wrote 1 of {total} files ({} unchanged) to ",
            total - 1
        )),
        "{err}"
    );
    let core = "k8s.io/kubernetes/pkg/apis/core/v1".to_string();
    assert_eq!(t.differing(&written), std::slice::from_ref(&core));
    let (ours, _) = t.files_of(&core);
    let ours = std::fs::read_to_string(ours).expect("core/v1");
    assert!(
        ours.contains("validate.Minimum(ctx, op, fldPath, obj, oldObj, 7)"),
        "{ours}"
    );
    // Undone: the release's bytes again.
    std::fs::write(t.root.join(file), text).expect("undo");
    let o = run(&t.root, &dirs, &RELEASE);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(t.differing(&written).is_empty());
    assert!(t.differing_fixtures(&fixtures).is_empty());

    // A fixture the build no longer writes is removed: every rule of `apps/v1` `Scale`… allowlisted away.
    let allowlist = t.root.join(ALLOWLIST);
    let list = std::fs::read_to_string(&allowlist).expect("allowlist");
    std::fs::write(
        &allowlist,
        format!("{list}\n- apiVersion: apps/v1beta1\n  kind: Scale\n  path: '*'\n  errorType: '*'\n  origin: '*'\n  reason: test\n"),
    )
    .expect("allowlist");
    let o = run(&t.root, &dirs, &RELEASE);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    let gone = format!("{FIXTURES}/apps/scale/{FIXTURE_PREFIX}v1beta1_test.go");
    assert!(!t.root.join(&gone).exists(), "{gone}: {err}");
    let main = std::fs::read_to_string(t.root.join(format!(
        "{FIXTURES}/apps/scale/{FIXTURE_PREFIX}main_test.go"
    )))
    .expect("main_test.go");
    assert!(
        main.contains("var apiVersions = []string{\"v1beta2\"}\n"),
        "{main}"
    );
    // A malformed allowlist: upstream's message, exit 2, nothing written.
    std::fs::write(&allowlist, "- apiVersion: v1\n  kind: Pod\n").expect("allowlist");
    let o = run(&t.root, &dirs, &RELEASE);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("entry 0: path is required (use \"*\" to wildcard)"),
        "{err}"
    );
    assert!(!t.root.join(&gone).exists());
}

/// The same on k8s.io/kubernetes v1.38.0-beta.0's tree with `--upstream 1.38`: every file written is the release's,
/// k8s.io/api's self-activated `authorization/v1alpha1` included (1.38's nearest copy).
#[test]
fn validation_gen_regenerates_the_prereleases_pkg_apis_from_the_root() {
    let (_, _, written, _) = regenerate(&PRERELEASE);
    assert!(
        written.contains("k8s.io/api/authorization/v1alpha1"),
        "{written:?}"
    );
}

/// `+k8s:validation-gen-test-targets` and `+k8s:validation-gen-test-fixture=validateFalse` (package tags only
/// code-generator's own `output_tests` use): every `zz_generated.validations_coverage_test.go` and
/// `zz_generated.validations_test.go` committed in code-generator v0.37.2's and v0.38.0-beta.0's
/// `cmd/validation-gen/output_tests`, regenerated byte for byte by `vgc validation-gen` from those packages (the
/// suite copied into a module `k8s.io/code-generator` with `testscheme`, its generated files left out); none is
/// written where none is committed.
#[test]
fn the_test_targets_tag_writes_code_generators_committed_coverage_tests() {
    for (module, apimachinery, upstream) in [
        ("k8s.io/code-generator@v0.37.2", "v0.37.2", "1.37"),
        (
            "k8s.io/code-generator@v0.38.0-beta.0",
            "v0.38.0-beta.0",
            "1.38",
        ),
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(tmp.path()).expect("canonical");
        let src = download(module, &root);
        let _ = download(&format!("k8s.io/apimachinery@{apimachinery}"), &root);
        let vg = "cmd/validation-gen";
        // The packages with the tag, as committed (their generated files and testdata left out).
        let mut pkgs = Vec::new();
        fn find(dir: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(dir).expect("ls").flatten() {
                if e.file_type().expect("type").is_dir() {
                    find(&e.path(), out);
                } else if e.file_name() == "zz_generated.validations_coverage_test.go"
                    || e.file_name() == "zz_generated.validations_test.go"
                {
                    out.push(dir.to_path_buf());
                }
            }
        }
        find(&src.join(vg).join("output_tests"), &mut pkgs);
        pkgs.sort();
        pkgs.dedup();
        assert!(pkgs.len() >= 2, "{module}: {pkgs:?}");
        let keep = |p: &Path| {
            p.extension().is_some_and(|x| x == "go")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("zz_generated"))
        };
        let mut args = vec![
            "--upstream".to_string(),
            upstream.to_string(),
            "validation-gen".into(),
            "--output-file".into(),
            OUT.into(),
            "--go-header-file".into(),
            "boilerplate.txt".into(),
        ];
        for p in &pkgs {
            let rel = p.strip_prefix(&src).expect("below");
            args.push(format!("./{}", rel.display()));
        }
        // The whole suite (its packages import each other), the generated files left out.
        copy_tree(
            &src.join(vg).join("output_tests"),
            &root.join(vg).join("output_tests"),
            &keep,
        );
        copy_tree(
            &src.join(vg).join("testscheme"),
            &root.join(vg).join("testscheme"),
            &keep,
        );
        std::fs::write(
            root.join("go.mod"),
            format!(
                "module k8s.io/code-generator\n\ngo 1.24\n\nrequire k8s.io/apimachinery {apimachinery}\n"
            ),
        )
        .expect("go.mod");
        // The committed files' header: between the build tags and the "Code generated" line.
        let committed = std::fs::read_to_string(pkgs[0].join(OUT)).expect("committed");
        let header = committed
            .split_once("// +build !ignore_autogenerated\n\n")
            .and_then(|(_, r)| r.split_once("\n// Code generated by"))
            .map(|(h, _)| h.to_string())
            .expect("a header");
        std::fs::write(root.join("boilerplate.txt"), header).expect("header");
        let run = || {
            let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
                .args(&args)
                .current_dir(&root)
                .output()
                .expect("vgc runs");
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).into_owned(),
            )
        };
        let (code, err) = run();
        assert_eq!(code, Some(0), "{module}: {err}");
        let (mut coverage, mut fixture) = (0, 0);
        for p in &pkgs {
            let rel = p.strip_prefix(&src).expect("below");
            for name in [
                "zz_generated.validations_coverage_test.go",
                "zz_generated.validations_test.go",
            ] {
                let Ok(theirs) = std::fs::read_to_string(p.join(name)) else {
                    assert!(
                        !root.join(rel).join(name).exists(),
                        "{module} {}/{name}: written, not committed",
                        rel.display()
                    );
                    continue;
                };
                if name.ends_with("_coverage_test.go") {
                    coverage += 1;
                } else {
                    fixture += 1;
                }
                let ours = std::fs::read_to_string(root.join(rel).join(name))
                    .unwrap_or_else(|e| panic!("{module} {}/{name}: {e}\n{err}", rel.display()));
                assert!(
                    ours == theirs,
                    "{module} {}/{name}: not the committed bytes\n--- ours\n{ours}\n--- theirs\n{theirs}",
                    rel.display()
                );
            }
        }
        eprintln!(
            "{module}: {coverage} coverage tests and {fixture} fixture tests, the committed bytes"
        );
        assert!(coverage >= 2 && fixture >= 30, "{coverage} {fixture}");
        // A rerun is up to date (the coverage tests are hidden from the load as the files are).
        let (_, err) = run();
        assert!(err.contains("is up to date"), "{module}: {err}");
    }
}
