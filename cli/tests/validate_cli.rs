//! `vgc validate` end to end: the binary on the manifests of `tests/validate/manifests` against the API tree
//! `tests/validate/api`, exact output (insta snapshots) and exit codes (0 valid, 1 invalid, 2 usage or IO), bad
//! input included (malformed YAML, missing apiVersion/kind, unknown kinds, wrong field types, non-UTF-8, empty
//! files, YAML bombs).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate")
}

/// The per-user cache directory the tests' runs use (`XDG_CACHE_HOME`), inside cargo's scratch directory: never
/// the real `~/.cache`.
fn user_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("validate-cli-xdg-cache")
}

fn vgc_in(cwd: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", user_cache())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("vgc runs");
    if let Some(input) = stdin {
        // A usage error exits before reading stdin: a closed pipe is not the test's concern.
        let _ = child.stdin.take().expect("stdin").write_all(input);
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().expect("vgc ends")
}

fn validate(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["validate", "--api", "api"];
    all.extend_from_slice(args);
    let out = vgc_in(&dir(), &all, None);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn errors_are_located_with_coverage_per_kind() {
    let (code, out, err) = validate(&["manifests/widgets.yaml"]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("widgets_human", out);
}

#[test]
fn list_items_and_json_report() {
    let (code, out, err) = validate(&["--output", "json", "manifests/list.json"]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("list_json", out);
}

#[test]
fn bad_documents_are_located_and_the_others_validated() {
    let (code, out, err) = validate(&["manifests/bad.yaml"]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("bad_human", out);
    // JSON: every unreadable document says where its problem is, as the human report does.
    let (_, out, _) = validate(&["--output", "json", "manifests/bad.yaml"]);
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    let problems: Vec<String> = report["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .filter(|d| d["status"] == "unreadable")
        .map(|d| {
            format!(
                "{}:{} {}",
                d["problem"]["line"], d["problem"]["column"], d["message"]
            )
        })
        .collect();
    insta::assert_snapshot!("bad_json_problems", problems.join("\n"));
    let (code, out, _) = validate(&["--strict", "manifests/bad.yaml"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "error: unknown kind Deployment of apiVersion apps/v1: not declared by the API tree"
        ),
        "{out}"
    );
    // An object of an unknown kind was read: counted apart from the unreadable documents (human and JSON).
    assert!(
        out.ends_with(", 0 skipped, 4 unreadable, 1 object of unknown kinds\n"),
        "{out}"
    );
    let (_, out, _) = validate(&["--strict", "--output", "json", "manifests/bad.yaml"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        (&v["summary"]["unreadable"], &v["summary"]["unknownKinds"]),
        (&serde_json::json!(4), &serde_json::json!(1)),
        "{out}"
    );
}

#[test]
fn updates_pair_objects_with_their_old_version() {
    let (code, out, _) = validate(&["manifests/new.yaml", "--old", "manifests/old.yaml"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("update_immutable", out);
    let (code, out, _) = validate(&["manifests/old.yaml", "--old", "manifests/old.yaml"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, _) = validate(&["manifests/new.yaml"]);
    assert_eq!(code, 0, "a create: immutability does not apply");
    // A malformed old document is a located error too; its objects are not paired.
    let (code, out, _) = validate(&["manifests/new.yaml", "--old", "manifests/bad.yaml"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("error: malformed document\n  ┌─ manifests/bad.yaml:3:26"),
        "{out}"
    );
}

#[test]
fn options_and_subresources() {
    let doc =
        b"apiVersion: widgets.example.com/v1\nkind: Widget\nspec:\n  host: w\n  mode: faster\n";
    let run = |args: &[&str]| {
        let mut all = vec!["validate", "--api", "api"];
        all.extend_from_slice(args);
        all.push("-");
        let out = vgc_in(&dir(), &all, Some(doc));
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run(&["--option", "WidgetModes=false"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&["--option", "WidgetModes=true"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("error: spec.mode: Too long: may not be more than 4 characters"),
        "{out}"
    );
    // An option the request does not define is upstream's internal error (1.37 on).
    let (code, out) = run(&[]);
    assert_eq!(code, 1);
    assert!(
        out.contains("spec.mode: Internal error: undefined validation option \"WidgetModes\""),
        "{out}"
    );
    let (code, out) = run(&["--option", "WidgetModes=false", "--subresource", "status"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&["--option", "WidgetModes=false", "--subresource", "scale"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "<nil>: Internal error: no validation found for *v1.Widget, subresource: /scale"
        ),
        "{out}"
    );
    let (code, _) = run(&["--option", "WidgetModes=maybe"]);
    assert_eq!(code, 2, "a malformed --option is a usage error");
    // A misspelt option changes nothing: said on stderr, with the option the tree reads; the run goes on.
    let out = vgc_in(
        &dir(),
        &[
            "validate",
            "--api",
            "api",
            "--option",
            "WidgetMode=false",
            "--option",
            "WidgetModes=false",
            "-",
        ],
        Some(doc),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .collect::<Vec<_>>(),
        [
            "warning: --option WidgetMode: no rule of this API tree reads this option, so it changes nothing (options it reads: WidgetModes); did you mean WidgetModes?"
        ]
    );
}

#[test]
fn empty_binary_and_missing_inputs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let empty = tmp.path().join("empty.yaml");
    std::fs::write(&empty, "").expect("write");
    let binary = tmp.path().join("binary.yaml");
    std::fs::write(&binary, b"apiVersion: v1\nkind: \xff\xfe\n").expect("write");
    let (code, out, _) = validate(&[empty.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "vgc validate: 0 objects (0 valid, 0 invalid), 0 errors, 0 skipped, 0 unreadable\n"
    );
    let (code, out, _) = validate(&[binary.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1);
    assert!(out.contains("error: the file is not UTF-8 text"), "{out}");
    assert!(out.contains(":2:7"), "{out}");
    let (code, _, err) = validate(&["manifests/nope.yaml"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: manifests/nope.yaml: "), "{err}");
}

#[test]
fn yaml_bombs_are_bounded() {
    let deep = format!(
        "apiVersion: widgets.example.com/v1\nkind: Widget\nspec: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let block = format!(
        "apiVersion: widgets.example.com/v1\nkind: Widget\nspec:\n{}",
        (1..2000)
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect::<String>()
    );
    let mut laughs = String::from(
        "apiVersion: widgets.example.com/v1\nkind: Widget\na: &a [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for w in ["a", "b", "c", "d", "e", "f", "g", "h", "i"].windows(2) {
        let (p, n) = (w[0], w[1]);
        laughs.push_str(&format!(
            "{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        ));
    }
    for (doc, message) in [
        (deep, "invalid YAML: recursion limit exceeded"),
        (block, "nesting deeper than 256 levels"),
        (laughs, "alias expansion exceeds 100000 nodes"),
    ] {
        let start = std::time::Instant::now();
        let out = vgc_in(
            &dir(),
            &["validate", "--api", "api", "-"],
            Some(doc.as_bytes()),
        );
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(message), "{text}");
        assert!(start.elapsed().as_secs() < 60);
    }
}

/// The phase names of a `--timings` line on stderr (`vgc: timings: read plan cache 1.2 ms, validate 0.3 ms`).
fn phases(stderr: &str) -> Vec<String> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("vgc: timings: "))
        .unwrap_or_else(|| panic!("no timings line in {stderr:?}"));
    line.split(", ")
        .map(|p| {
            let words: Vec<&str> = p.split(' ').collect();
            words[..words.len() - 2].join(" ")
        })
        .collect()
}

/// Every file under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.push(p.strip_prefix(base).expect("inside").display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The plan cache: a repeat run on the same API tree reads the lowered plan from the cache directory instead of
/// checking and lowering the tree (observed through `--timings`' phases: `read plan cache` alone); an edited API
/// file invalidates it; a corrupt cache file is ignored with a note; nothing is written into the API tree.
#[test]
fn the_plan_is_cached_between_runs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    for rel in tree(&dir().join("api")) {
        let to = api.join(&rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(dir().join("api").join(&rel), &to).expect("copy");
    }
    std::fs::copy(
        dir().join("manifests/widgets.yaml"),
        tmp.path().join("widgets.yaml"),
    )
    .expect("copy");
    let before = tree(&api);
    let cache = tmp.path().join("cache");
    let run = || {
        let out = vgc_in(
            tmp.path(),
            &[
                "validate",
                "--api",
                "api",
                "--cache-dir",
                "cache",
                "--timings",
                "widgets.yaml",
            ],
            None,
        );
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let checked = [
        "read plan cache",
        "load IR cache",
        "load",
        "lower",
        "check (beside lower)",
        "lint (beside lower)",
        "save IR cache",
        "dispatch table",
        "save plan cache",
        "validate",
    ];
    let (code, first, err) = run();
    assert_eq!(code, 1, "{err}");
    assert_eq!(phases(&err), checked, "{err}");
    let (code, second, err) = run();
    assert_eq!(code, 1, "{err}");
    assert_eq!(phases(&err), ["read plan cache", "validate"], "{err}");
    assert_eq!(first, second, "the cached plan validates the same");
    let (_, third, err) = run();
    assert_eq!(phases(&err), ["read plan cache", "validate"], "{err}");
    assert_eq!(third, first);

    // An edited API file: the plan is lowered again, with the edit.
    let types = api.join("v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    std::fs::write(
        &types,
        text.replace(
            "+k8s:alpha(since: \"1.37\")=+k8s:maxLength=8",
            "+k8s:alpha(since: \"1.37\")=+k8s:maxLength=20",
        ),
    )
    .expect("write");
    let (code, edited, err) = run();
    assert_eq!(code, 1, "{err}");
    assert_eq!(phases(&err), checked, "{err}");
    assert!(first.contains("spec.note: Too long"), "{first}");
    assert!(!edited.contains("spec.note: Too long"), "{edited}");
    let (_, again, err) = run();
    assert_eq!(phases(&err), ["read plan cache", "validate"], "{err}");
    assert_eq!(again, edited);

    // A corrupt cache file: ignored with a note, the plan lowered again and the cache rewritten.
    let plans: Vec<String> = tree(&cache)
        .into_iter()
        .filter(|p| p.ends_with("/plan"))
        .collect();
    assert_eq!(plans.len(), 1, "one API tree, one plan: {plans:?}");
    let plan = cache.join(&plans[0]);
    let mut bytes = std::fs::read(&plan).expect("read plan");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&plan, &bytes).expect("write");
    let (code, out, err) = run();
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, edited);
    assert!(
        err.starts_with(&format!(
            "note: {}: unreadable; ignored and rebuilt\n",
            std::path::absolute(&plan).expect("absolute").display()
        )),
        "{err}"
    );
    assert_eq!(phases(&err), checked, "{err}");
    let (_, out, err) = run();
    assert_eq!(phases(&err), ["read plan cache", "validate"], "{err}");
    assert_eq!(out, edited);
    // Truncated to nothing: the same.
    std::fs::write(&plan, b"").expect("truncate");
    let (_, out, err) = run();
    assert!(err.contains("unreadable; ignored and rebuilt"), "{err}");
    assert_eq!(out, edited);

    // `--no-cache` reads nothing; the API tree never gets a file of vgc's.
    let out = vgc_in(
        tmp.path(),
        &[
            "validate",
            "--api",
            "api",
            "--no-cache",
            "--timings",
            "widgets.yaml",
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !phases(&err).contains(&"read plan cache".to_string()),
        "{err}"
    );
    assert_eq!(tree(&api), before);
}

/// Copies the test API tree to `to`.
fn copy_api(to: &Path) {
    for rel in tree(&dir().join("api")) {
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
        std::fs::copy(dir().join("api").join(&rel), &dest).expect("copy");
    }
}

/// `vgc validate` in the test directory with `env` set (`None` removes a variable).
fn validate_env(args: &[&str], env: &[(&str, Option<&Path>)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vgc"));
    cmd.arg("validate")
        .args(args)
        .current_dir(dir())
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", user_cache())
        .stdin(Stdio::null());
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().expect("vgc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 37: `--release` of another minor than the `k8s.io/api` tree (`--api k8s.io/api@v0.37.2 --release
/// v1.38.0-beta.0`) applies one release's feature-gate defaults and enforcement to another release's rules: a
/// warning naming both versions and what that means, on stderr and in every report that carries warnings (JSON,
/// TAP, SARIF); none when the release is the API's own.
#[test]
fn a_release_of_another_minor_than_the_api_is_a_warning_in_every_format() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let modcache = tmp.path().join("modcache");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    copy_api(&modcache.join("k8s.io/api@v0.37.2"));
    for release in ["v1.37.2", "v1.38.0-beta.0"] {
        let features = modcache.join(format!("k8s.io/kubernetes@{release}/pkg/features"));
        std::fs::create_dir_all(&features).expect("mkdir");
        std::fs::write(
            features.join("kube_features.go"),
            "package features\n\nvar defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tgenericfeatures.DeclarativeValidationBeta: {\n\t\t{Version: version.MustParse(\"1.36\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n}\n",
        )
        .expect("write");
    }
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let run = |release: &str, output: &str| {
        validate_env(
            &[
                "--api",
                "k8s.io/api@v0.37.2",
                "--release",
                release,
                "--output",
                output,
                "manifests/widgets.yaml",
            ],
            &env,
        )
    };
    let warning = "the release defaults are k8s.io/kubernetes@v1.38.0-beta.0 (Kubernetes 1.38), but the API tree is k8s.io/api@v0.37.2 (Kubernetes 1.37): the feature-gate defaults and the enforced stability levels of the 1.38 API server are applied to the 1.37 rules, which no release's API server does; name the release of the API (--release v1.37.Z) or the API of the release (--api k8s.io/api@v0.38.Z)";
    let (code, _, err) = run("v1.38.0-beta.0", "human");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("warning: {warning}\n")), "{err}");
    let (_, out, _) = run("v1.38.0-beta.0", "json");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["warnings"], serde_json::json!([warning]), "{out}");
    assert_eq!(v["release"], "1.38");
    let (_, out, _) = run("v1.38.0-beta.0", "tap");
    assert!(out.contains(&format!("\n# warning: {warning}\n")), "{out}");
    let (_, out, _) = run("v1.38.0-beta.0", "sarif");
    let v: serde_json::Value = serde_json::from_str(&out).expect("sarif");
    let notes = &v["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(notes[0]["message"]["text"], warning, "{out}");
    assert_eq!(notes[0]["level"], "warning");
    // The API's own release: no warning.
    let (_, out, err) = run("v1.37.2", "json");
    assert!(!err.contains("warning"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["warnings"], serde_json::json!([]), "{out}");
}

/// `--api MODULE@VERSION`: the module cache first (found through `go env GOMODCACHE` when `GOMODCACHE` is not set;
/// paths case-encoded as Go does), else `go mod download -json` in a temporary directory with `GOFLAGS=-mod=mod`
/// (a stand-in `go` on PATH records how it was called), then its `go.mod`'s requirements, with `go`'s own error when the version does not exist and a
/// clear error without `go`.
#[test]
#[cfg(unix)]
fn api_module_versions_come_from_the_module_cache_or_go_mod_download() {
    use std::os::unix::fs::PermissionsExt as _;
    let tmp = tempfile::tempdir().expect("tempdir");
    let modcache = tmp.path().join("modcache");
    copy_api(&modcache.join("example.com/!widgets@v1.0.0"));
    let downloaded = tmp.path().join("downloaded");
    copy_api(&downloaded);
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let log = tmp.path().join("go.log");
    let go = bin.join("go");
    std::fs::write(
        &go,
        format!(
            r#"#!/bin/sh
echo "go $* | GOFLAGS=$GOFLAGS | $(pwd)" >> '{log}'
case "$*" in
  "env GOMODCACHE") echo '{modcache}' ;;
  "mod download -json") test -f go.mod || exit 3 ;;
  *@v2.0.0) printf '{{"Path":"example.com/widgets","Version":"v2.0.0","Dir":"{downloaded}"}}\n' ;;
  *) printf '{{"Path":"example.com/widgets","Version":"v9.9.9","Error":"example.com/widgets@v9.9.9: invalid version: unknown revision v9.9.9"}}\n'; exit 1 ;;
esac
"#,
            log = log.display(),
            modcache = modcache.display(),
            downloaded = downloaded.display(),
        ),
    )
    .expect("write go");
    std::fs::set_permissions(&go, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let env = [("PATH", Some(bin.as_path())), ("GOMODCACHE", None)];
    let (_, expected, _) = validate(&["manifests/widgets.yaml"]);

    // In the module cache (upper case spelled `!w`): `go` is asked only where the cache is.
    let (code, out, err) = validate_env(
        &[
            "--api",
            "example.com/Widgets@v1.0.0",
            "manifests/widgets.yaml",
        ],
        &env,
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, expected.as_str(), "")
    );
    let calls = std::fs::read_to_string(&log).expect("go was called");
    assert_eq!(
        calls,
        format!("go env GOMODCACHE | GOFLAGS= | {}\n", dir().display())
    );

    // Not in the cache: downloaded.
    std::fs::remove_file(&log).expect("rm log");
    let (code, out, err) = validate_env(
        &[
            "--api",
            "example.com/widgets@v2.0.0",
            "manifests/widgets.yaml",
        ],
        &env,
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, expected);
    assert_eq!(
        err,
        format!(
            "vgc validate: downloaded example.com/widgets@v2.0.0 into {}\n",
            downloaded.display()
        )
    );
    let calls = std::fs::read_to_string(&log).expect("go was called");
    let download = calls.lines().nth(1).expect("a second call");
    assert!(
        download
            .starts_with("go mod download -json example.com/widgets@v2.0.0 | GOFLAGS=-mod=mod | "),
        "{calls}"
    );
    assert!(
        !download.ends_with(&format!("| {}", dir().display())),
        "run in a temporary directory: {calls}"
    );
    // Then its requirements, over a copy of its go.mod in that directory.
    let tmp_dir = download.rsplit(" | ").next().expect("cwd");
    assert_eq!(
        calls.lines().skip(2).collect::<Vec<_>>(),
        [format!(
            "go mod download -json | GOFLAGS=-mod=mod | {tmp_dir}"
        )],
        "{calls}"
    );

    // A version that does not exist: go's message, exit 2.
    let (code, out, err) = validate_env(
        &[
            "--api",
            "example.com/widgets@v9.9.9",
            "manifests/widgets.yaml",
        ],
        &env,
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: go mod download example.com/widgets@v9.9.9: example.com/widgets@v9.9.9: invalid version: unknown revision v9.9.9\n"
    );

    // Without `go`: how to fetch it.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let (code, _, err) = validate_env(
        &[
            "--api",
            "example.com/widgets@v2.0.0",
            "manifests/widgets.yaml",
        ],
        &[
            ("PATH", Some(empty.as_path())),
            ("GOMODCACHE", Some(modcache.as_path())),
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: example.com/widgets@v2.0.0 is not in the Go module cache ({}) and the `go` command is not on PATH to download it: install Go and run `go mod download example.com/widgets@v2.0.0`, or pass the module's directory to --api\n",
            modcache.display()
        )
    );
}

/// Without `--api`: the newest release of k8s.io/api in the module cache by semantic-version precedence, named on
/// stderr — a pre-release only when named (issue 37: a `v0.38.0-beta.0` in the cache is not what a user means by
/// default); none, or only pre-releases, is a usage error saying so.
#[test]
fn the_default_api_is_the_newest_k8s_api_in_the_module_cache() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let modcache = tmp.path().join("modcache");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let (code, out, err) = validate_env(&["manifests/widgets.yaml"], &env);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "error: no --api given and the Go module cache ({}) holds no k8s.io/api: pass --api PATH or --api k8s.io/api@VERSION (fetched with `go mod download`)\n",
            modcache.display()
        )
    );
    let (_, expected, _) = validate(&["manifests/widgets.yaml"]);
    copy_api(&modcache.join("k8s.io/api@v0.38.0-alpha.2"));
    let (code, out, err) = validate_env(&["manifests/widgets.yaml"], &env);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "error: no --api given and the Go module cache ({}) holds only pre-releases of k8s.io/api (newest v0.38.0-alpha.2); a pre-release is used only when named: pass --api k8s.io/api@v0.38.0-alpha.2, or --api k8s.io/api@VERSION of a release (fetched with `go mod download`)\n",
            modcache.display()
        )
    );
    for v in ["v0.36.6", "v0.37.2", "v0.9.0"] {
        copy_api(&modcache.join(format!("k8s.io/api@{v}")));
    }
    let (code, out, err) = validate_env(&["manifests/widgets.yaml"], &env);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, expected);
    // The release defaults of v1.37.2 are not in this module cache and there is no `go` to fetch them
    // (`release_defaults_give_the_options_and_the_enforced_levels`).
    assert_eq!(
        err,
        format!(
            "vgc validate: using k8s.io/api@v0.37.2 from the Go module cache ({}); choose the API with --api\n\
             warning: the defaults of Kubernetes v1.37.2 cannot be read (k8s.io/kubernetes@v1.37.2 is not in the Go module cache ({}) and the `go` command is not on PATH to download it: run `go mod download k8s.io/kubernetes@v1.37.2` where Go is installed); options are undefined unless given with --option, every stability level is enforced, and a created object's status is validated as written (no strategy's PrepareForCreate is read; name the release with --release, or --release none)\n",
            modcache.join("k8s.io/api@v0.37.2").display(),
            modcache.display()
        )
    );
    copy_api(&modcache.join("k8s.io/api@v0.38.0"));
    let (_, _, err) = validate_env(&["manifests/widgets.yaml"], &env);
    assert!(
        err.starts_with("vgc validate: using k8s.io/api@v0.38.0 from"),
        "{err}"
    );
}

/// `--strict` reports the keys no field of the kind's types takes (inline `TypeMeta` and nested structs, list
/// items and maps included), each at its key; without it they are ignored, as the API server's default decoding
/// drops them.
#[test]
fn strict_reports_unknown_fields_at_their_keys() {
    let (code, out, err) = validate(&["--strict", "manifests/strict.yaml"]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("strict_human", out);
    let (code, out, _) = validate(&["--strict", "--output", "json", "manifests/strict.yaml"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("strict_json", out);
    let (code, out, _) = validate(&["manifests/strict.yaml"]);
    assert_eq!(code, 0, "{out}");
}

/// `--skip` by kind or apiVersion/kind, and `--summary`'s table (skipped kinds included).
#[test]
fn skip_and_summary() {
    let (code, out, err) = validate(&[
        "--summary",
        "--skip",
        "Gadget,apps/v1/Deployment",
        "manifests/widgets.yaml",
        "manifests/bad.yaml",
    ]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("skip_summary_human", out);
    // An apiVersion that does not match skips nothing; `--strict` does not turn a skipped kind into an error.
    let (_, out, _) = validate(&[
        "--strict",
        "--skip",
        "v2/Gadget",
        "--skip",
        "Deployment",
        "manifests/widgets.yaml",
        "manifests/bad.yaml",
    ]);
    assert!(
        out.contains("note: skipped: apps/v1 Deployment (--skip)"),
        "{out}"
    );
    assert!(
        !out.contains("skipped: widgets.example.com/v1 Gadget"),
        "{out}"
    );
    let (code, _, err) = validate(&["--skip", "apps/v1/", "manifests/widgets.yaml"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("expected Kind or apiVersion/Kind, got \"apps/v1/\""),
        "{err}"
    );
    let (code, _, err) = validate(&["--summary", "--output", "json", "manifests/widgets.yaml"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --summary tabulates the human report; --output json has its own counts\n"
    );
}

/// JUnit XML, TAP 13 and SARIF 2.1.0 reports of valid, invalid, unreadable, skipped and undecodable documents.
#[test]
fn junit_tap_and_sarif_reports() {
    for format in ["junit", "tap", "sarif"] {
        let (code, out, err) = validate(&[
            "--output",
            format,
            "--old",
            "manifests/old.yaml",
            "manifests/widgets.yaml",
            "manifests/bad.yaml",
            "manifests/new.yaml",
        ]);
        assert_eq!(code, 1, "{format}: {err}");
        assert_eq!(err, "", "{format}: no progress bar off a terminal");
        insta::assert_snapshot!(format!("report_{format}"), out);
    }
    let (_, sarif, _) = validate(&["--output", "sarif", "manifests/widgets.yaml"]);
    let log: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
}

/// `-j N`: the same report, in input order, on any number of threads.
#[test]
fn jobs_keep_the_input_order() {
    let inputs = [
        "manifests/widgets.yaml",
        "manifests/bad.yaml",
        "manifests/list.json",
        "manifests/strict.yaml",
        "manifests/new.yaml",
    ];
    let run = |jobs: &str| {
        let mut args = vec!["--strict", "--output", "json", "-j", jobs];
        args.extend_from_slice(&inputs);
        validate(&args)
    };
    let one = run("1");
    for jobs in ["2", "7"] {
        assert_eq!(run(jobs), one, "-j {jobs}");
    }
    let mut args = vec!["--strict", "--output", "json"];
    args.extend_from_slice(&inputs);
    assert_eq!(validate(&args), one, "the default number of threads");
    let (code, _, _) = validate(&["-j", "0", "manifests/widgets.yaml"]);
    assert_eq!(code, 2, "-j 0 is a usage error");
}

/// A file reached twice — named twice, under two spellings, through a symbolic link, or named and again inside a
/// named directory — is validated once, where it is first reached, with a note naming what was skipped; the report
/// is the one of the files named once (issue 37).
#[test]
fn a_file_reached_twice_is_validated_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let link = tmp.path().join("link.yaml");
    std::os::unix::fs::symlink(dir().join("manifests/widgets.yaml"), &link).expect("symlink");
    let link = link.to_string_lossy().into_owned();
    for output in ["human", "json"] {
        let once = validate(&[
            "--output",
            output,
            "manifests/widgets.yaml",
            "manifests/bad.yaml",
        ]);
        let (code, out, err) = validate(&[
            "--output",
            output,
            "manifests/widgets.yaml",
            "manifests/widgets.yaml",
            "./manifests/widgets.yaml",
            &link,
            "manifests/bad.yaml",
        ]);
        assert_eq!(
            (code, out.as_str()),
            (once.0, once.1.as_str()),
            "{output}: {err}"
        );
        let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
        assert_eq!(
            notes,
            [
                "note: manifests/widgets.yaml: skipped, named before: each file is validated once".to_string(),
                "note: ./manifests/widgets.yaml: skipped, the same file as manifests/widgets.yaml, named before: each file is validated once".to_string(),
                format!("note: {link}: skipped, the same file as manifests/widgets.yaml, named before: each file is validated once"),
            ],
            "{output}"
        );
    }
    // Through a directory: the file keeps the position it was first named at, the directory's other files follow.
    let (_, out, err) = validate(&["--output", "json", "manifests/widgets.yaml", "manifests"]);
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    let files: Vec<&str> = report["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .filter_map(|d| d["file"].as_str())
        .collect();
    assert_eq!(files.first(), Some(&"manifests/widgets.yaml"));
    assert_eq!(
        files
            .iter()
            .filter(|f| **f == "manifests/widgets.yaml")
            .count(),
        3,
        "the three objects of widgets.yaml, once: {files:?}"
    );
    assert!(
        err.contains("note: manifests: 1 file skipped (manifests/widgets.yaml: named before): each file is validated once"),
        "{err}"
    );
    // The old objects alike.
    let (_, _, err) = validate(&[
        "--old",
        "manifests/gadgets-old.yaml",
        "--old",
        "./manifests/gadgets-old.yaml",
        "manifests/gadgets.yaml",
    ]);
    assert!(
        err.contains("note: --old ./manifests/gadgets-old.yaml: skipped, the same file as manifests/gadgets-old.yaml, named before"),
        "{err}"
    );
}

/// `--strict`'s field names on the API tree `tests/validate/strict-api`: an embedded pointer's fields are the
/// object's keys, a name two inline structs declare at the same depth is dropped (unknown), a `json:"-"` field
/// takes no key, map values and list items are looked into, and matching is case-sensitive.
#[test]
fn strict_field_names_follow_go_encoding_json() {
    let out = vgc_in(
        &dir(),
        &[
            "validate",
            "--api",
            "strict-api",
            "--strict",
            "manifests/strict-things.yaml",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("strict_field_names", String::from_utf8_lossy(&out.stdout));
}

/// R40: packages declaring one group/version/kind. Dispatch takes a built package's type over a dependency's
/// (`aaa/v1`, `validation-gen=false`, sorts first) and then the first by import path (`apis/v1`, whose `name`
/// allows 3 characters, not `internal/v1`'s 5 or `aaa/v1`'s 1), and says so with `VGC0114` on every run — also when
/// the plan comes from the cache.
#[test]
fn a_kind_declared_twice_is_a_warning_naming_the_type_used() {
    let api = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/diagnostics/r40-duplicate-kind");
    let work = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        work.path().join("w.yaml"),
        "apiVersion: example.com/v1\nkind: Widget\nname: abcd\n",
    )
    .expect("write");
    let api = api.to_string_lossy();
    let warning = "warning: packages example.com/r40-duplicate-kind/apis/v1 and \
                   example.com/r40-duplicate-kind/internal/v1 both declare the kind example.com/v1 Widget; its \
                   documents are validated with the type of example.com/r40-duplicate-kind/apis/v1 [VGC0114]\n";
    for run in ["first", "cached"] {
        let out = vgc_in(work.path(), &["validate", "--api", &api, "w.yaml"], None);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(1), "{run}: {stdout}{stderr}");
        assert!(
            stderr.lines().filter(|l| l.contains("VGC0114")).count() == 2
                && stderr.contains(warning)
                && stderr.contains(&warning.replace("internal/v1", "aaa/v1")),
            "{run}: {stderr}"
        );
        assert!(
            stdout.contains("error: name: Too long: may not be more than 3 characters"),
            "{run}: {stdout}"
        );
    }
    // The machine-readable reports carry the warnings too: JSON `warnings`, TAP comments, SARIF notifications.
    let report = |format: &str| {
        let out = vgc_in(
            work.path(),
            &["validate", "--api", &api, "--output", format, "w.yaml"],
            None,
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = warning.trim_start_matches("warning: ").trim_end();
    let json: serde_json::Value = serde_json::from_str(&report("json")).expect("JSON report");
    assert_eq!(json["warnings"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        json["warnings"][1].as_str(),
        Some(text.replace("internal/v1", "aaa/v1").as_str()),
        "{json:#}"
    );
    let tap = report("tap");
    assert!(
        tap.contains(&format!(
            "1..1\n# warning: {}\n# warning: {text}\n",
            text.replace("internal/v1", "aaa/v1")
        )) || tap.contains(&format!(
            "1..1\n# warning: {text}\n# warning: {}\n",
            text.replace("internal/v1", "aaa/v1")
        )),
        "{tap}"
    );
    let sarif: serde_json::Value = serde_json::from_str(&report("sarif")).expect("SARIF");
    let notes = &sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(notes.as_array().map(Vec::len), Some(2), "{sarif:#}");
    assert_eq!(notes[0]["level"], "warning");
    assert_eq!(notes[0]["descriptor"]["id"], "VGC0114");
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
}

/// `+default` values are applied before validating, as the API server's defaulting does (API tree
/// `tests/validate/defaults-api`): pointers and slices when absent or `null`, non-pointer scalars also when zero
/// (`replicas: 0`), `ref(Const)` defaults, a default struct with its own fields' defaults, list items and map values,
/// inline structs, an embedded pointer only when present, `[]` kept; old objects are defaulted too, so writing a
/// default into an immutable field is no change. `--no-defaults` validates as written (the old behaviour). A kind
/// of a package tagged `+k8s:validation-gen=false` (`v1beta1`) is skipped with a note, never an unknown kind.
#[test]
fn defaults_are_applied_before_validating() {
    let run = |args: &[&str]| {
        let mut all = vec!["validate", "--api", "defaults-api"];
        all.extend_from_slice(args);
        let out = vgc_in(&dir(), &all, None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, human) = run(&[
        "--old",
        "manifests/gadgets-old.yaml",
        "manifests/gadgets.yaml",
    ]);
    assert_eq!(code, Some(1));
    insta::assert_snapshot!("defaults_human", human);
    let (_, json) = run(&[
        "--output",
        "json",
        "--old",
        "manifests/gadgets-old.yaml",
        "manifests/gadgets.yaml",
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON report");
    let docs = report["documents"].as_array().expect("documents");
    let defaulted: Vec<&serde_json::Value> = docs.iter().map(|d| &d["defaulted"]).collect();
    assert_eq!(
        defaulted,
        [
            // Never inside map values (`spec.named[a]`): defaulter-gen does not reach them.
            &serde_json::json!([
                "spec.limit",
                "spec.replicas",
                "spec.protocol",
                "spec.transport",
                "spec.ceiling",
                "spec.disruption",
                "spec.ports[0].protocol",
                "spec.ports[0].name",
                "spec.shared",
                "spec.class"
            ]),
            &serde_json::json!(["spec.transport", "spec.disruption.budget", "spec.shade"]),
            &serde_json::Value::Null,
            &serde_json::json!([
                "spec.limit",
                "spec.protocol",
                "spec.transport",
                "spec.ceiling",
                "spec.class",
                "spec.tags"
            ]),
            // An absent non-pointer struct is its zero value, defaulted inside.
            &serde_json::json!([
                "spec.limit",
                "spec.replicas",
                "spec.protocol",
                "spec.transport",
                "spec.ceiling",
                "spec.disruption",
                "spec.shared",
                "spec.class",
                "spec.tags"
            ]),
            &serde_json::json!([
                "spec.limit",
                "spec.protocol",
                "spec.transport",
                "spec.ceiling",
                "spec.class",
                "spec.tags"
            ]),
            // Type-level defaults: a pointer to the type, list items and map values of it; never a field of the
            // type by value (`spec.paint.shade`). `accent` has its own.
            &serde_json::json!([
                "spec.limit",
                "spec.protocol",
                "spec.transport",
                "spec.ceiling",
                "spec.class",
                "spec.tags",
                "spec.paint.tint",
                "spec.paint.accent",
                "spec.paint.palette[1]",
                "spec.paint.swatches[b]",
                "spec.paint.pointed[1]",
                "spec.paint.box"
            ]),
        ]
    );
    // Each error about a value defaulting set names the defaulted field, in every machine-readable format.
    let paint = docs.iter().find(|d| d["name"] == "paint").expect("paint");
    assert_eq!(paint["errors"][0]["field"], "spec.paint.box.size");
    assert_eq!(paint["errors"][0]["defaulted"], "spec.paint.box");
    let (_, tap) = run(&["--output", "tap", "manifests/gadgets.yaml"]);
    assert!(
        tap.contains("      field: \"spec.paint.box.size\"\n      type: \"Invalid value\"\n      rule: \"maximum\"\n      defaulted: \"spec.paint.box\"\n"),
        "{tap}"
    );
    let (_, junit) = run(&["--output", "junit", "manifests/gadgets.yaml"]);
    assert!(
        junit.contains(
            "must be less than or equal to 5 (rule: maximum) (spec.paint.box set from its +default)"
        ),
        "{junit}"
    );
    let (_, sarif) = run(&["--output", "sarif", "manifests/gadgets.yaml"]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF");
    let boxed = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| {
            r["message"]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("spec.paint.box.size"))
        })
        .expect("the box error");
    assert_eq!(boxed["properties"]["defaulted"], "spec.paint.box");
    // A hand-written rule reached: the other rules' errors are kept, with a note (`written`); with no other error
    // the object is not checked (`custom`).
    let statuses: Vec<&str> = docs
        .iter()
        .map(|d| d["status"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        statuses,
        [
            "invalid",
            "invalid",
            "skipped",
            "not-checked",
            "invalid",
            "valid",
            "invalid"
        ]
    );
    assert_eq!(
        docs[1]["message"],
        "spec.ports[0].check: hand-written validation ValidateCustom_Port_Check (+k8s:customValidation) cannot be interpreted"
    );
    // A kind of a package tagged `+k8s:validation-gen=false` is declared: skipped with a note, not an unknown kind,
    // also under `--strict`.
    assert_eq!(docs[2]["status"], "skipped");
    assert_eq!(
        docs[2]["message"],
        "no declarative validation: package example.com/gadgets/v1beta1 is tagged +k8s:validation-gen=false"
    );
    let (code, strict) = run(&["--strict", "manifests/gadgets.yaml"]);
    assert_eq!(code, Some(1));
    assert!(
        strict.contains(
            "note: skipped: gadgets.example.com/v1beta1 Gadget has no declarative validation"
        ),
        "{strict}"
    );
    assert!(!strict.contains("unknown kind"), "{strict}");
    // `--strict` judges the manifest as written: defaulted members are never unknown fields.
    assert!(!strict.contains("unknown field"), "{strict}");
    let (code, as_written) = run(&[
        "--no-defaults",
        "--old",
        "manifests/gadgets-old.yaml",
        "manifests/gadgets.yaml",
    ]);
    assert_eq!(code, Some(1));
    insta::assert_snapshot!("defaults_no_defaults_human", as_written);

    // An old object that does not decode is reported at its field in the old file; its new version is not
    // checked (an update against it cannot be judged), the other objects are.
    let (code, out) = run(&[
        "--old",
        "manifests/gadgets-old-bad.yaml",
        "manifests/gadgets.yaml",
    ]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains(
            "error: gadgets.example.com/v1 Gadget written: old object (--old): wrong type\n  ┌─ manifests/gadgets-old-bad.yaml:6:13"
        ),
        "{out}"
    );
    assert!(
        out.contains("error: gadgets.example.com/v1 Gadget written: not checked: its old object (--old) does not decode (reported above)"),
        "{out}"
    );
    // In JSON the old document names its object and is marked `old`; it is not counted among the kind's objects.
    let (_, json) = run(&[
        "--output",
        "json",
        "--old",
        "manifests/gadgets-old-bad.yaml",
        "manifests/gadgets.yaml",
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON report");
    let first = &report["documents"][0];
    assert_eq!(
        (
            &first["file"],
            &first["old"],
            &first["apiVersion"],
            &first["kind"],
            &first["name"],
            &first["status"]
        ),
        (
            &serde_json::json!("manifests/gadgets-old-bad.yaml"),
            &serde_json::json!(true),
            &serde_json::json!("gadgets.example.com/v1"),
            &serde_json::json!("Gadget"),
            &serde_json::json!("written"),
            &serde_json::json!("unreadable")
        )
    );
    assert_eq!(report["kinds"][0]["objects"], 4);
}

/// A checked object's note — hand-written rules left unchecked (`written`), or a create whose old version may be
/// in an `--old` document that could not be read (`label`) — is in every output format, never dropped and never
/// mistaken for an unreadable document.
#[test]
fn notes_of_checked_objects_are_in_every_format() {
    let run = |format: &str| {
        let out = vgc_in(
            &dir(),
            &[
                "validate",
                "--api",
                "defaults-api",
                "--output",
                format,
                "--old",
                "manifests/gadgets-old-malformed.yaml",
                "manifests/gadgets.yaml",
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(1), "{format}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let uncertain = "validated as a create: 1 document of --old could not be read; its old version may be among them";
    let partly = "ValidateCustom_Port_Check (+k8s:customValidation) cannot be interpreted";

    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON report");
    let docs = json["documents"].as_array().expect("documents");
    // The malformed old document, then the objects; the `label` object is valid, with the note.
    assert_eq!(docs[0]["status"], "unreadable");
    assert_eq!(docs[0]["file"], "manifests/gadgets-old-malformed.yaml");
    let label = docs.iter().find(|d| d["name"] == "label").expect("label");
    assert_eq!(label["status"], "valid");
    assert_eq!(label["operation"], "create");
    assert_eq!(label["message"], uncertain);
    let written = docs
        .iter()
        .find(|d| d["name"] == "written")
        .expect("written");
    assert_eq!(written["status"], "invalid");
    assert!(
        written["message"]
            .as_str()
            .is_some_and(|m| m.contains(partly))
    );

    let human = {
        let out = vgc_in(
            &dir(),
            &[
                "validate",
                "--api",
                "defaults-api",
                "--old",
                "manifests/gadgets-old-malformed.yaml",
                "manifests/gadgets.yaml",
            ],
            None,
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(human.contains("note: gadgets.example.com/v1 Gadget label: validated as a create: no old object has its identity, but 1 document of --old could not be read (reported above); its old version may be among them"), "{human}");

    let tap = run("tap");
    assert!(
        tap.contains(&format!(
            "ok 7 - manifests/gadgets.yaml:70:1 gadgets.example.com/v1 Gadget label\n  ---\n  note: \"{uncertain}\"\n"
        )),
        "{tap}"
    );
    assert!(tap.contains("  note: \"") && tap.contains(partly), "{tap}");

    let junit = run("junit");
    assert!(
        junit.contains(
            "<system-out>note: 71:7: gadgets.example.com/v1 Gadget label: validated as a create"
        ),
        "{junit}"
    );
    assert!(junit.contains(partly), "{junit}");

    let sarif: serde_json::Value = serde_json::from_str(&run("sarif")).expect("SARIF");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let notes: Vec<&serde_json::Value> = results.iter().filter(|r| r["ruleId"] == "note").collect();
    // Every create (bare, nospec, label, paint) and the partly checked `written`.
    assert_eq!(notes.len(), 5, "{results:#?}");
    assert!(notes.iter().all(|r| r["level"] == "note"));
    // Only the malformed old document is an unreadable document.
    assert_eq!(
        results
            .iter()
            .filter(|r| r["ruleId"] == "unreadable-document")
            .count(),
        1
    );

    // Old documents that are not objects with apiVersion and kind cannot be paired: reported, and counted.
    let out = vgc_in(
        &dir(),
        &[
            "validate",
            "--api",
            "defaults-api",
            "--output",
            "json",
            "--old",
            "manifests/gadgets-old-noident.yaml",
            "manifests/gadgets.yaml",
        ],
        None,
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let docs = json["documents"].as_array().expect("documents");
    let old: Vec<(&serde_json::Value, &serde_json::Value)> = docs
        .iter()
        .filter(|d| d["old"] == true)
        .map(|d| (&d["line"], &d["message"]))
        .collect();
    let msg = serde_json::json!(
        "old document (--old): not an object with apiVersion and kind: it cannot be paired with an input object"
    );
    assert_eq!(
        old,
        [(&serde_json::json!(2), &msg), (&serde_json::json!(4), &msg)]
    );
    let label = docs.iter().find(|d| d["name"] == "label").expect("label");
    assert_eq!(
        label["message"],
        "validated as a create: 2 documents of --old could not be read; its old version may be among them"
    );
}

/// A document on one long line (minified JSON) is not printed under each of its errors: the location is a note.
#[test]
fn errors_on_long_lines_are_located_without_printing_the_line() {
    let out = vgc_in(
        &dir(),
        &[
            "validate",
            "--api",
            "defaults-api",
            "manifests/minified.json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "error: spec.replicas: Invalid value: 1: must be greater than or equal to 2\n = at manifests/minified.json:1:101 (Invalid value); the line is 659 bytes long and not shown\n = rule: minimum\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("= at manifests/minified.json:1:144 (Invalid value); the line is 659 bytes long and not shown"),
        "{text}"
    );
    assert!(!text.contains("xxxxxxxx"), "{text}");
}

/// Standard input is read once: `-` both as an input and as `--old` is a usage error (exit 2), not a silent create.
#[test]
fn stdin_given_twice_is_a_usage_error() {
    let out = vgc_in(
        &dir(),
        &["validate", "--api", "defaults-api", "--old", "-", "-"],
        Some(b"apiVersion: gadgets.example.com/v1\nkind: Gadget\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: `-` (standard input) is given 2 times, among the inputs and --old; it can be read once\n"
    );
}

/// A quantity upstream's `ParseQuantity` refuses and a duration `time.ParseDuration` refuses make the object
/// undecodable, as the API server's decoding does, each named for what it is (not "wrong type") and located at the
/// value. The API module requires k8s.io/apimachinery v0.37.2, fetched through the Go module proxy first.
#[test]
fn unparsable_quantities_and_durations_are_undecodable() {
    // The slow tier (docs/testing.md, "Tiers"): `go mod download` through the Go module proxy.
    if std::env::var_os("VGC_FAST").is_some_and(|v| v == "1") {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "unparsable_quantities_and_durations_are_undecodable: skipped (VGC_FAST=1): needs Go/the module proxy"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let got = Command::new("go")
        .args(["mod", "download", "k8s.io/apimachinery@v0.37.2"])
        .current_dir(root)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("the `go` command runs");
    assert!(
        got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    std::fs::write(
        root.join("go.mod"),
        "module example.com/q\n\ngo 1.25\n\nrequire k8s.io/apimachinery v0.37.2\n",
    )
    .expect("go.mod");
    std::fs::create_dir_all(root.join("apis/v1")).expect("mkdir");
    std::fs::write(
        root.join("apis/v1/doc.go"),
        "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +groupName=q.example.com\npackage v1\n",
    )
    .expect("doc.go");
    std::fs::write(
        root.join("apis/v1/types.go"),
        r#"package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Job struct {
	metav1.TypeMeta `json:",inline"`
	// +k8s:optional
	CPU *resource.Quantity `json:"cpu,omitempty"`
	// +k8s:optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
}
"#,
    )
    .expect("types.go");
    std::fs::write(
        root.join("m.yaml"),
        "apiVersion: q.example.com/v1\nkind: Job\ncpu: lots\n---\napiVersion: q.example.com/v1\nkind: Job\ntimeout: 1d\n---\napiVersion: q.example.com/v1\nkind: Job\ncpu: 1500m\ntimeout: 1h30m\n",
    )
    .expect("m.yaml");
    let out = vgc_in(root, &["validate", "--api", ".", "m.yaml"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("error: q.example.com/v1 Job (unnamed): not a valid quantity"),
        "{text}"
    );
    assert!(
        text.contains("quantities must match the regular expression"),
        "{text}"
    );
    assert!(text.contains("m.yaml:3:6"), "{text}");
    assert!(
        text.contains("error: q.example.com/v1 Job (unnamed): not a valid duration"),
        "{text}"
    );
    assert!(
        text.contains("time: unknown unit \"d\" in duration \"1d\""),
        "{text}"
    );
    assert!(text.contains("m.yaml:7:10"), "{text}");
    assert!(
        text.contains(
            "vgc validate: 1 object (1 valid, 0 invalid), 0 errors, 0 skipped, 2 unreadable"
        ),
        "{text}"
    );
}

/// `vgc validate --api api <args>` with stdin from `stdin`, killed after 60 s (a regression that blocks fails
/// instead of hanging the suite): (exit code, stderr).
fn validate_bounded(args: &[&str], stdin: Stdio) -> (i32, String) {
    let mut all = vec!["validate", "--api", "api"];
    all.extend_from_slice(args);
    let mut child = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(&all)
        .current_dir(dir())
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", user_cache())
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("vgc runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("vgc validate {args:?} still running after 60 s (blocked on its input?)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("vgc ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// R50 (issue 36 rows 1–2): a FIFO (named, or met as `*.yaml` in a directory argument), a device (`/dev/zero`,
/// named or through a `*.yaml` symlink) and standard input over the 64 MiB limit are refused with an error naming
/// the input and exit 2 — never read without end, never blocking.
#[cfg(unix)]
#[test]
fn r50_fifos_devices_and_oversized_inputs_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fifo = tmp.path().join("f.yaml");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let scan = tmp.path().join("scan");
    std::fs::create_dir_all(&scan).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", scan.join("zero.yaml")).expect("symlink");
    let fifo_s = fifo.to_str().expect("utf-8 path");
    for (args, names) in [
        (vec![fifo_s], fifo_s.to_string()),
        (vec!["/dev/zero"], "/dev/zero".to_string()),
        (
            vec![scan.to_str().expect("utf-8 path")],
            scan.join("zero.yaml").display().to_string(),
        ),
    ] {
        let (code, err) = validate_bounded(&args, Stdio::null());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(&format!("{names}: not a regular file")),
            "{args:?}: {err}"
        );
    }
    // A dangling `*.yaml` link met in a directory says what it is.
    let dangling = tmp.path().join("dangling");
    std::fs::create_dir_all(&dangling).expect("mkdir");
    std::os::unix::fs::symlink(tmp.path().join("gone.yaml"), dangling.join("a.yaml"))
        .expect("symlink");
    let (code, err) = validate_bounded(&[dangling.to_str().expect("utf-8 path")], Stdio::null());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "{}: a symbolic link whose target does not exist",
            dangling.join("a.yaml").display()
        )),
        "{err}"
    );
    let zero = std::fs::File::open("/dev/zero").expect("open /dev/zero");
    let (code, err) = validate_bounded(&["-"], Stdio::from(zero));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("<stdin>: more than 64 MiB, vgc validate's limit per input"),
        "{err}"
    );
}

/// R53 (issue 36 row 8): an offending value over 1 KiB is shown cut at a character boundary with `…` (a 64 MiB
/// string made each of its errors 64 MiB of output); the JSON report gives its full length as `valueBytes`.
#[test]
fn r53_long_values_are_cut_in_messages() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let big = tmp.path().join("big.yaml");
    // 1,023 ASCII bytes, then `é` (2 bytes) across the 1 KiB mark: the cut falls before it.
    let host = format!("{}é{}", "x".repeat(1023), "y".repeat(4000));
    std::fs::write(
        &big,
        format!("apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: big\nspec:\n  host: {host}\n"),
    )
    .expect("write");
    let big_s = big.to_str().expect("utf-8 path");
    let (code, out, err) = validate(&[big_s]);
    assert_eq!(code, 1, "{err}");
    let first = out.lines().next().expect("a line");
    assert_eq!(
        first,
        format!(
            "error: spec.host: Invalid value: \"{}…\": must be no more than 63 bytes",
            "x".repeat(1023)
        )
    );
    let (code, out, _) = validate(&["--output", "json", big_s]);
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let errors = report["documents"][0]["errors"].as_array().expect("errors");
    assert!(!errors.is_empty());
    for e in errors {
        assert_eq!(e["valueBytes"], 1023 + 2 + 4000, "{e}");
        assert!(
            e["message"].as_str().expect("message").len() < 1024 + 512,
            "{e}"
        );
    }
}

/// Issue 37: with `--api k8s.io/api@vX.Y.Z` the API server of Kubernetes v1.Y.Z at its defaults is what answers —
/// its feature-gate defaults read from `k8s.io/kubernetes@v1.Y.Z/pkg/features/kube_features.go` are the options
/// (`--option` overrides one), and what it enforces decides the exit code: beta rules while its
/// `DeclarativeValidationBeta` gate is on, alpha never (reported as shadowed warnings, not counted). `--enforce`
/// and `--release none` override; without the kubernetes module and without `go`, a warning and every level.
#[test]
fn release_defaults_give_the_options_and_the_enforced_levels() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let modcache = tmp.path().join("modcache");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    copy_api(&modcache.join("k8s.io/api@v0.37.2"));
    let manifest = tmp.path().join("w.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  host: web\n  note: \"a long note\"\n  mode: \"toolong\"\n",
    )
    .expect("write");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let m = manifest.to_str().expect("utf-8");
    let run = |extra: &[&str]| {
        let mut args = vec!["--api", "k8s.io/api@v0.37.2", m];
        args.extend_from_slice(extra);
        validate_env(&args, &env)
    };
    // No k8s.io/kubernetes in the cache and no `go`: a warning, then every level enforced, options undefined.
    let (code, out, err) = run(&[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("warning: the defaults of Kubernetes v1.37.2 cannot be read (k8s.io/kubernetes@v1.37.2 is not in the Go module cache"),
        "{err}"
    );
    assert!(
        out.contains("undefined validation option \"WidgetModes\""),
        "{out}"
    );

    // The release's gates: WidgetModes became on by default in 1.37; the beta gate is on since 1.36.
    let features = modcache.join("k8s.io/kubernetes@v1.37.2/pkg/features");
    std::fs::create_dir_all(&features).expect("mkdir");
    std::fs::write(
        features.join("kube_features.go"),
        "package features\n\nconst (\n\tWidgetModes featuregate.Feature = \"WidgetModes\"\n)\n\nvar defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tWidgetModes: {\n\t\t{Version: version.MustParse(\"1.36\"), Default: false, PreRelease: featuregate.Alpha},\n\t\t{Version: version.MustParse(\"1.37\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n\tgenericfeatures.DeclarativeValidationBeta: {\n\t\t{Version: version.MustParse(\"1.36\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n\tWidgetLater: {\n\t\t{Version: version.MustParse(\"1.38\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n}\n",
    )
    .expect("write");
    let (code, out, err) = run(&[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("vgc validate: as the API server of Kubernetes 1.37 at its defaults (k8s.io/kubernetes@v1.37.2 pkg/features/kube_features.go): options WidgetModes=true; enforced: stable and beta rules (alpha errors are shadowed)\n"),
        "{err}"
    );
    assert!(
        out.contains("error: spec.mode: Too long: may not be more than 4 characters"),
        "{out}"
    );
    assert!(
        out.contains("warning: shadowed: spec.note: Too long: may not be more than 8 characters"),
        "{out}"
    );
    assert!(
        out.contains("= shadowed: the API server of Kubernetes 1.37 never enforces alpha declarative rules; its hand-written validation decides instead. Not counted (--enforce alpha counts it)"),
        "{out}"
    );
    assert!(
        out.ends_with("vgc validate: 1 object (0 valid, 1 invalid), 1 error (and 1 error shadowed), 0 skipped, 0 unreadable\n"),
        "{out}"
    );
    // `--option` overrides the release: only the shadowed error is left, and the object is valid.
    let (code, out, _) = run(&["--option", "WidgetModes=false"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with("vgc validate: 1 object (1 valid, 0 invalid), 0 errors (and 1 error shadowed), 0 skipped, 0 unreadable\n"),
        "{out}"
    );
    // `--enforce alpha` counts the alpha rule; `--enforce stable` would shadow beta ones too.
    let (code, out, _) = run(&["--option", "WidgetModes=false", "--enforce", "alpha"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error: spec.note: Too long: may not be more than 8 characters"),
        "{out}"
    );
    // The JSON report says which release and level, and lists the shadowed errors apart.
    let (_, out, _) = run(&["--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["release"], "1.37");
    assert_eq!(v["enforced"], "beta");
    assert_eq!(v["summary"]["shadowed"], 1);
    assert_eq!(v["documents"][0]["shadowed"][0]["field"], "spec.note");
    assert_eq!(v["documents"][0]["shadowed"][0]["stability"], "alpha");
    assert_eq!(v["documents"][0]["errors"][0]["field"], "spec.mode");
    // The offending value itself (issue 37: the JSON report had none).
    assert_eq!(
        v["documents"][0]["errors"][0]["value"], "<value omitted>",
        "upstream TooLong omits it"
    );
    assert_eq!(v["documents"][0]["shadowed"][0]["value"], "<value omitted>");
    // SARIF: the shadowed error is a warning.
    let (_, out, _) = run(&["--output", "sarif"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("sarif");
    let levels: Vec<(&str, &str)> = v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or(""),
                r["level"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(levels, [("maxLength", "error"), ("maxLength", "warning")]);
    // `--option DeclarativeValidationBeta=false`: the gate the server enforces beta rules by (no warning that it
    // changes nothing); with `--enforce stable` alike.
    let (_, _, err) = run(&["--option", "DeclarativeValidationBeta=false"]);
    assert!(
        err.contains("enforced: stable rules (beta and alpha errors are shadowed)"),
        "{err}"
    );
    assert!(!err.contains("changes nothing"), "{err}");
    // `--release none`: no defaults (the option is undefined again), every level enforced — said on stderr.
    let (code, out, err) = run(&["--release", "none"]);
    assert_eq!(code, 1);
    assert!(!err.contains("as the API server"), "{err}");
    assert!(
        err.contains("vgc validate: no release defaults (--release none): options are undefined unless given with --option; enforced: every rule\n"),
        "{err}"
    );
    assert!(
        out.contains("undefined validation option \"WidgetModes\""),
        "{out}"
    );
    assert!(out.contains("error: spec.note: Too long"), "{out}");
    // A named release that cannot be read is a usage error.
    let (code, _, err) = run(&["--release", "v1.99.0"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "error: --release v1.99.0: k8s.io/kubernetes@v1.99.0 is not in the Go module cache"
        ),
        "{err}"
    );
}

/// `--api` naming a path that does not exist says it is `--api`'s (issue 37).
#[test]
fn a_missing_api_path_is_named_as_the_api_option() {
    let (code, out, err) = {
        let o = vgc_in(
            &dir(),
            &["validate", "--api", "./typo", "manifests/widgets.yaml"],
            None,
        );
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: --api ./typo: no such file or directory; give the API tree as a module root or package directory, or as MODULE@VERSION (for example k8s.io/api@v0.37.2, taken from the Go module cache or fetched)\n"
    );
}

/// The JSON report carries each error's offending value (`value`), as upstream's `field.Error.BadValue`.
#[test]
fn json_errors_carry_the_offending_value() {
    let (_, out, _) = validate(&["--output", "json", "manifests/widgets.yaml"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let errs = &v["documents"][1]["errors"];
    let by_field = |f: &str| {
        errs.as_array()
            .expect("errors")
            .iter()
            .find(|e| e["field"] == f)
            .map(|e| e["value"].clone())
    };
    assert_eq!(by_field("spec.host"), Some(serde_json::json!("Not_A_Name")));
    assert_eq!(by_field("spec.replicas"), Some(serde_json::json!(-1)));
    assert_eq!(
        by_field("spec.ports[1]"),
        Some(serde_json::json!({"name": "http", "port": 8080}))
    );
}

/// Issue 37: two vgc builds used in turn keep their own caches of an API tree (they evicted each other's), and only
/// the few most recently used builds' caches are kept.
#[test]
fn vgc_builds_keep_their_own_caches_and_old_ones_are_retired() {
    let xdg = tempfile::tempdir().expect("tempdir");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(["validate", "--api", "api", "manifests/widgets.yaml"])
            .current_dir(dir())
            .env("NO_COLOR", "1")
            .env("XDG_CACHE_HOME", xdg.path())
            .output()
            .expect("vgc runs")
    };
    let first = run();
    assert_eq!(first.status.code(), Some(1));
    let validate = xdg.path().join("vgc/validate");
    let trees: Vec<_> = std::fs::read_dir(&validate)
        .expect("validate dir")
        .flatten()
        .collect();
    assert_eq!(trees.len(), 1);
    let tree = trees[0].path();
    let builds = |tree: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(tree)
            .expect("tree dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let ours = builds(&tree);
    assert_eq!(ours.len(), 1, "{ours:?}");
    assert!(tree.join(&ours[0]).join("plan").is_file());
    // Other builds' caches (older), and the layout before per-build directories.
    for (i, name) in ["0000000a", "0000000b", "0000000c", "0000000d"]
        .iter()
        .enumerate()
    {
        let d = tree.join(name);
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(d.join("plan"), "x").expect("write");
        let t =
            std::time::SystemTime::now() - std::time::Duration::from_secs(3600 * (10 - i as u64));
        std::fs::File::open(&d)
            .expect("open")
            .set_modified(t)
            .expect("mtime");
    }
    std::fs::write(tree.join("plan"), "old layout").expect("write");
    let again = run();
    assert_eq!(again.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&first.stdout)
    );
    let left = builds(&tree);
    // This build's and the two most recent others (0000000c, 0000000d); the old-layout file gone.
    let mut expected = vec![
        "0000000c".to_string(),
        "0000000d".to_string(),
        ours[0].clone(),
    ];
    expected.sort();
    assert_eq!(left, expected);
}

/// The API server's hand-written defaulting (`SetDefaults_*` of k8s.io/kubernetes, ported in
/// `vgc_validate::SERVER_DEFAULTS`) runs before validating on k8s.io/api types only: the fixture module is named
/// `k8s.io/api` (profile 1.38, whose `SetDefaults_PodSpec` and `SetDefaults_Secret` are ported); a copy named
/// otherwise, with the same types, gets no hand-written defaults. Reported like `+default`s, naming the function;
/// `--no-defaults` turns them off too.
#[test]
fn server_defaults_apply_to_k8s_api_types_only() {
    let run = |cwd: &Path, api: &str, args: &[&str]| {
        let manifests = dir().join("manifests/server-defaults.yaml");
        let mut all = vec!["validate", "--upstream", "1.38", "--api", api];
        all.extend_from_slice(args);
        all.push(manifests.to_str().expect("UTF-8 path"));
        let out = vgc_in(cwd, &all, None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let errors = |json: &str| -> Vec<String> {
        let report: serde_json::Value = serde_json::from_str(json).expect("JSON report");
        report["documents"]
            .as_array()
            .expect("documents")
            .iter()
            .flat_map(|d| d["errors"].as_array().cloned().unwrap_or_default())
            .map(|e| e["message"].as_str().expect("message").to_string())
            .collect()
    };

    let (code, human) = run(&dir(), "server-defaults-api", &[]);
    assert_eq!(code, Some(1), "{human}");
    // `restartPolicy` absent or "" is `Always` (SetDefaults_PodSpec) before the alpha rule reads it; `type` is
    // `Opaque` (SetDefaults_Secret) before `+k8s:required` reads it; `securityContext` is `{}`, whose own rule
    // then fails, with a note naming the function.
    assert!(
        human.contains("= spec.template.spec.securityContext was set by the API server's hand-written SetDefaults_PodSpec (k8s.io/kubernetes pkg/apis/core/v1) before validating"),
        "{human}"
    );
    let (_, json) = run(&dir(), "server-defaults-api", &["--output", "json"]);
    assert_eq!(
        errors(&json),
        [
            "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
            "spec.template.spec.securityContext.runAsUser: Required value",
            "spec.template.spec.securityContext.runAsUser: Required value",
        ]
    );
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON report");
    let docs = report["documents"].as_array().expect("documents");
    let pod_spec = "k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_PodSpec";
    assert_eq!(
        docs[0]["defaulted"],
        serde_json::json!(["spec.template.spec.restartPolicy"])
    );
    assert_eq!(
        docs[0]["defaultedBy"],
        serde_json::json!({"spec.template.spec.restartPolicy": pod_spec})
    );
    assert_eq!(
        docs[1]["defaultedBy"],
        serde_json::json!({"spec.template.spec.securityContext": pod_spec})
    );
    assert_eq!(
        docs[1]["errors"][1]["defaulted"],
        "spec.template.spec.securityContext"
    );
    assert_eq!(docs[1]["errors"][1]["defaultedBy"], pod_spec);
    assert_eq!(
        docs[3]["defaultedBy"],
        serde_json::json!({"type": "k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_Secret"})
    );
    assert_eq!(docs[4]["defaulted"], serde_json::Value::Null);
    let (_, tap) = run(&dir(), "server-defaults-api", &["--output", "tap"]);
    assert!(
        tap.contains(&format!(
            "      defaulted: \"spec.template.spec.securityContext\"\n      defaultedBy: \"{pod_spec}\"\n"
        )),
        "{tap}"
    );

    // Without defaulting, and for the same types outside k8s.io/api: what the manifests say.
    let written = [
        "spec.template.spec.restartPolicy: Unsupported value: \"\": supported values: \"Always\"",
        "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
        "spec.template.spec.securityContext: Required value",
        "spec.template.spec.restartPolicy: Unsupported value: \"\": supported values: \"Always\"",
        "spec.template.spec.securityContext: Required value",
        "type: Required value",
    ];
    let (_, json) = run(
        &dir(),
        "server-defaults-api",
        &["--output", "json", "--no-defaults"],
    );
    assert_eq!(errors(&json), written);
    let tmp = tempfile::tempdir().expect("tempdir");
    let user = tmp.path().join("pods");
    std::fs::create_dir_all(user.join("core/v1")).expect("mkdir");
    std::fs::write(user.join("go.mod"), "module example.com/pods\n\ngo 1.25\n").expect("go.mod");
    for f in ["doc.go", "types.go"] {
        std::fs::copy(
            dir().join("server-defaults-api/core/v1").join(f),
            user.join("core/v1").join(f),
        )
        .expect("copy");
    }
    let (_, json) = run(tmp.path(), "pods", &["--output", "json", "--no-cache"]);
    assert_eq!(errors(&json), written);
}

/// Issue 36 row 7: in the human report, valid objects with nothing to say are only counted (their report entries
/// dropped), so a long stream's memory no longer grows with its valid documents; the counts, coverage lines and
/// `--summary` table are those of the JSON report, which lists every document.
#[test]
fn a_stream_of_valid_documents_is_counted_alike_in_every_format() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut text = String::new();
    for i in 0..2000 {
        text.push_str(&format!(
            "---\napiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w{i}\nspec:\n  host: web\n"
        ));
    }
    text.push_str("---\napiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: bad\nspec:\n  host: Not_A_Name\n");
    let path = tmp.path().join("stream.yaml");
    std::fs::write(&path, text).expect("write");
    let p = path.to_str().expect("utf-8");
    let (code, human, _) = validate(&[p]);
    assert_eq!(code, 1);
    assert!(
        human.contains("widgets.example.com/v1 Widget: 2001 objects, 1 error; "),
        "{human}"
    );
    assert!(
        human.ends_with(
            "vgc validate: 2001 objects (2000 valid, 1 invalid), 1 error, 0 skipped, 0 unreadable\n"
        ),
        "{human}"
    );
    let (_, table, _) = validate(&[p, "--summary"]);
    assert!(table.contains("widgets.example.com/v1 Widget"), "{table}");
    let row = table
        .lines()
        .find(|l| l.starts_with("widgets.example.com/v1 Widget"))
        .expect("row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[2..7], ["2001", "2000", "1", "1", "0"], "{row}");
    let (_, json, _) = validate(&[p, "--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["summary"]["objects"], 2001);
    assert_eq!(v["summary"]["invalid"], 1);
    assert_eq!(v["documents"].as_array().expect("documents").len(), 2001);
    assert_eq!(v["kinds"][0]["objects"], 2001);
}

/// From the validate_reader fuzz target: a malformed document ending in a multi-byte character was located inside
/// that character (every report said line 0, column 0); TAP test point names escape `#` and line breaks (a name
/// with `# TODO` made a failure a TODO, one with a newline injected a test point).
#[test]
fn fuzz_findings_positions_and_tap_names() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let bad = tmp.path().join("mid.yaml");
    std::fs::write(&bad, b"a: [\xd9\x86\n").expect("write");
    let (_, json, _) = validate(&[bad.to_str().expect("utf-8"), "--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(
        v["documents"][0]["problem"],
        serde_json::json!({"line": 1, "column": 5})
    );
    let odd = tmp.path().join("odd.yaml");
    std::fs::write(
        &odd,
        "apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: \"x # TODO\\nok 99 - injected\"\nspec:\n  host: Not_A_Name\n",
    )
    .expect("write");
    let (_, tap, _) = validate(&[odd.to_str().expect("utf-8"), "--output", "tap"]);
    let points: Vec<&str> = tap
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("not ok "))
        .collect();
    assert_eq!(points.len(), 1, "{tap}");
    assert!(
        points[0].starts_with("not ok 1 - ")
            && points[0].ends_with("widgets.example.com/v1 Widget x \\# TODO\\nok 99 - injected"),
        "{}",
        points[0]
    );
}

/// Fixture of the release-default tests: a module cache holding the test API as `k8s.io/api@v0.37.2` and the
/// `kube_features.go` of `k8s.io/kubernetes@v1.37.2` (`WidgetModes` on by default in 1.37, the beta gate on since
/// 1.36), and a manifest with one error per stability level.
fn release_fixture(tmp: &Path) -> (PathBuf, PathBuf) {
    let modcache = tmp.join("modcache");
    copy_api(&modcache.join("k8s.io/api@v0.37.2"));
    let features = modcache.join("k8s.io/kubernetes@v1.37.2/pkg/features");
    std::fs::create_dir_all(&features).expect("mkdir");
    std::fs::write(
        features.join("kube_features.go"),
        "package features\n\nconst (\n\tWidgetModes featuregate.Feature = \"WidgetModes\"\n)\n\nvar defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tWidgetModes: {\n\t\t{Version: version.MustParse(\"1.36\"), Default: false, PreRelease: featuregate.Alpha},\n\t\t{Version: version.MustParse(\"1.37\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n\tgenericfeatures.DeclarativeValidationBeta: {\n\t\t{Version: version.MustParse(\"1.36\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n}\n",
    )
    .expect("write");
    let manifest = tmp.join("w.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  host: web\n  note: \"a long note\"\n  mode: \"toolong\"\n",
    )
    .expect("write");
    (modcache, manifest)
}

/// A version query (`--api k8s.io/api@latest`, `@v0.37`) is resolved to its version first (`go list -m -json`,
/// a stand-in `go` here), and the run is the same as with that version named: the release defaults of v0.37.2
/// apply, and a tree already in the module cache is "resolved", not "downloaded".
#[test]
#[cfg(unix)]
fn api_version_queries_are_resolved_before_the_release_defaults() {
    use std::os::unix::fs::PermissionsExt as _;
    let tmp = tempfile::tempdir().expect("tempdir");
    let (modcache, manifest) = release_fixture(tmp.path());
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let go = bin.join("go");
    std::fs::write(
        &go,
        format!(
            r#"#!/bin/sh
case "$*" in
  "list -m -json k8s.io/api@latest"|"list -m -json k8s.io/api@v0.37") printf '{{"Path":"k8s.io/api","Version":"v0.37.2","Dir":"{modcache}/k8s.io/api@v0.37.2"}}\n' ;;
  "list -m -json k8s.io/api@nope") printf '{{"Path":"k8s.io/api","Version":"nope","Error":{{"Err":"k8s.io/api@nope: invalid version: unknown revision nope"}}}}\n'; exit 1 ;;
  *) echo "unexpected: go $*" >&2; exit 9 ;;
esac
"#,
            modcache = modcache.display(),
        ),
    )
    .expect("write go");
    std::fs::set_permissions(&go, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(bin.as_path())),
    ];
    let m = manifest.to_str().expect("utf-8");
    let run = |api: &str| validate_env(&["--api", api, "--output", "json", m], &env);
    let (code, expected, expected_err) = run("k8s.io/api@v0.37.2");
    assert_eq!(code, 1, "{expected_err}");
    for query in ["latest", "v0.37"] {
        let (c, out, err) = run(&format!("k8s.io/api@{query}"));
        assert_eq!(c, code, "{err}");
        assert_eq!(out, expected, "{query}");
        assert_eq!(
            err,
            format!("vgc validate: resolved k8s.io/api@{query} to v0.37.2\n{expected_err}"),
        );
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["release"], "1.37");
        assert!(
            err.contains("vgc validate: as the API server of Kubernetes 1.37"),
            "{err}"
        );
        assert!(!err.contains("downloaded"), "{err}");
        assert!(!out.contains("undefined validation option"), "{out}");
    }
    let (c, out, err) = run("k8s.io/api@nope");
    assert_eq!((c, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: go list -m k8s.io/api@nope: k8s.io/api@nope: invalid version: unknown revision nope\n"
    );
}

/// `--option` over the release defaults: the header lists the gates set to another value than the release's
/// ("at its defaults except …"), and a shadowed error's note names `--option DeclarativeValidationBeta=false` when
/// that, not the release's default, turned beta enforcement off.
#[test]
fn options_over_the_release_defaults_are_named() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (modcache, manifest) = release_fixture(tmp.path());
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let m = manifest.to_str().expect("utf-8");
    let run = |extra: &[&str]| {
        let mut args = vec!["--api", "k8s.io/api@v0.37.2", m];
        args.extend_from_slice(extra);
        validate_env(&args, &env)
    };
    let (_, _, err) = run(&[]);
    assert!(
        err.contains(
            "as the API server of Kubernetes 1.37 at its defaults (k8s.io/kubernetes@v1.37.2"
        ),
        "{err}"
    );
    // The same value as the default is no exception.
    let (_, _, err) = run(&["--option", "WidgetModes=true"]);
    assert!(err.contains("at its defaults (k8s.io"), "{err}");
    let (_, out, err) = run(&[
        "--option",
        "WidgetModes=false",
        "--option",
        "DeclarativeValidationBeta=false",
    ]);
    assert!(
        err.contains("as the API server of Kubernetes 1.37 at its defaults except DeclarativeValidationBeta=false, WidgetModes=false (k8s.io/kubernetes@v1.37.2"),
        "{err}"
    );
    assert!(
        out.contains("= shadowed: the API server of Kubernetes 1.37 enforces only standard declarative rules with --option DeclarativeValidationBeta=false; its hand-written validation decides instead."),
        "{out}"
    );
    assert!(!out.contains("off by default"), "{out}");
}

/// `--upstream` of another release than the k8s.io/api tree's: one error saying so and what to do, not the
/// diagnostics the other profile's rules give on the tree (84 VGC0305 on k8s.io/api v0.37.2 under 1.38).
#[test]
fn an_upstream_profile_of_another_release_than_the_api_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (modcache, manifest) = release_fixture(tmp.path());
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let m = manifest.to_str().expect("utf-8");
    let (code, out, err) = validate_env(
        &["--upstream", "1.38", "--api", "k8s.io/api@v0.37.2", m],
        &env,
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: --upstream 1.38: the API tree is k8s.io/api@v0.37.2, whose rules are Kubernetes 1.37's, not 1.38's; omit --upstream (the tree's release selects its profile, 1.37), or validate against the 1.38 API with --api k8s.io/api@v0.38.Z\n"
    );
    // The tree's own release is fine.
    let (code, _, err) = validate_env(
        &["--upstream", "1.37", "--api", "k8s.io/api@v0.37.2", m],
        &env,
    );
    assert_eq!(code, 1, "{err}");
}

/// `--api DIR` outside any Go module: one error saying so, not "the API tree has tag errors".
#[test]
fn an_api_directory_outside_a_go_module_is_one_clear_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pkg = tmp.path().join("pkg");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(pkg.join("x.go"), "package pkg\n").expect("write");
    let api = tmp.path().to_str().expect("utf-8");
    let (code, out, err) = validate_env(&["--api", api, "manifests/widgets.yaml"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "error: --api {api}: not a Go module (no go.mod in it or any parent directory); give the root or a package directory of a Go module, or MODULE@VERSION (for example k8s.io/api@v0.37.2)\n"
        )
    );
}

/// `--old` pairing as kubectl names objects: an old object with `namespace: default` (as `kubectl get -o yaml`
/// writes it) pairs with an input that omits the namespace; an old object no input pairs with is a note in every
/// format; two old objects of one identity are a warning naming both positions (the later is used).
#[test]
fn old_objects_pair_in_the_default_namespace_and_unpaired_ones_are_noted() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let old = tmp.path().join("old.yaml");
    std::fs::write(
        &old,
        "apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  host: w\n  class: bronze\n---\napiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  host: w\n  class: gold\n---\napiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: gone\nspec:\n  host: g\n",
    )
    .expect("write");
    let o = old.to_str().expect("utf-8");
    // The update is validated: `class` is immutable (gold → silver).
    let (code, out, _) = validate(&["manifests/new.yaml", "--old", o]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("spec.class"), "{out}");
    assert!(
        out.starts_with(&format!(
            "warning: --old: widgets.example.com/v1 Widget default/w is given twice, at {o}:1:1 and at {o}:10:1: the later one is used as its old version\n"
        )),
        "{out}"
    );
    assert!(
        out.contains("note: widgets.example.com/v1 Widget default/gone: old object (--old) that no input object pairs with: nothing was validated against it"),
        "{out}"
    );
    assert!(
        out.ends_with(
            "vgc validate: 1 object (0 valid, 1 invalid), 1 error, 0 skipped, 0 unreadable\n"
        ),
        "{out}"
    );
    let (_, out, _) = validate(&["manifests/new.yaml", "--old", o, "--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let docs = v["documents"].as_array().expect("documents");
    let gone = docs.iter().find(|d| d["name"] == "gone").expect("a note");
    assert_eq!(gone["old"], true);
    assert_eq!(gone["status"], "skipped");
    assert_eq!(
        gone["message"],
        "old object (--old) that no input object pairs with (an absent namespace pairs as \"default\")"
    );
    let w = docs
        .iter()
        .find(|d| d["name"] == "w" && d["old"].is_null())
        .expect("w");
    assert_eq!(w["operation"], "update");
    assert_eq!(v["summary"]["skipped"], 0);
    assert!(
        v["warnings"][0]
            .as_str()
            .is_some_and(|w| w.contains("is given twice")),
        "{out}"
    );
    for (format, what) in [
        ("tap", "no input object pairs with"),
        ("junit", "no input object pairs with"),
        ("sarif", "no input object pairs with"),
    ] {
        let (_, out, _) = validate(&["manifests/new.yaml", "--old", o, "--output", format]);
        assert!(out.contains(what), "{format}: {out}");
    }
}

/// An unknown kind close to a declared one — another case, another group/version of the same kind name, or a few
/// edits away — gets a "did you mean" (trial of issue 37: `apps/v1 deployment`, `app/v1 Deployment`, `v1 Deployment`
/// were skipped without a word); a kind nothing is close to (a custom resource) gets none.
#[test]
fn unknown_kinds_close_to_declared_ones_get_a_did_you_mean() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("typos.yaml");
    std::fs::write(
        &file,
        "apiVersion: widgets.example.com/v1\nkind: widget\nmetadata: {name: a}\n---\n\
         apiVersion: widget.example.com/v1\nkind: Widget\nmetadata: {name: b}\n---\n\
         apiVersion: v1\nkind: Widget\nmetadata: {name: c}\n---\n\
         apiVersion: stable.example.org/v2\nkind: Frobnicator\nmetadata: {name: d}\n",
    )
    .expect("write");
    let (code, out, err) = validate(&[file.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{err}");
    for (kind, av) in [
        ("widget", "widgets.example.com/v1"),
        ("Widget", "widget.example.com/v1"),
        ("Widget", "v1"),
    ] {
        assert!(
            out.contains(&format!(
                "skipped: unknown kind {kind} of apiVersion {av}: not declared by the API tree; did you mean widgets.example.com/v1 Widget?"
            )),
            "{kind} {av}: {out}"
        );
    }
    assert!(
        out.contains(
            "skipped: unknown kind Frobnicator of apiVersion stable.example.org/v2: not declared by the API tree\n"
        ),
        "{out}"
    );
}

/// A `--skip` entry no kind of the tree matches skips nothing: a warning, with the nearest kind (trial of issue 37:
/// `--skip Bogus` passed without a word).
#[test]
fn a_skip_of_no_declared_kind_is_a_warning() {
    let (code, _, err) = validate(&[
        "--skip",
        "Widgit",
        "--skip",
        "Frobnicator",
        "manifests/bad.yaml",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("warning: --skip Widgit: the API tree declares no such kind, so it skips nothing; did you mean Widget?"),
        "{err}"
    );
    assert!(
        err.contains(
            "warning: --skip Frobnicator: the API tree declares no such kind, so it skips nothing\n"
        ),
        "{err}"
    );
    let (_, _, err) = validate(&["--skip", "Widget", "manifests/bad.yaml"]);
    assert!(!err.contains("--skip Widget:"), "{err}");
}

/// A kind the release's API server no longer serves (k8s.io/api's `+k8s:prerelease-lifecycle-gen:removed=1.Y`) is
/// refused as that server refuses it — "no matches for kind" — with the release that removed it, in every format;
/// under `--release none` (no server named) it is validated as before (trial of issue 37: `apps/v1beta2
/// Deployment` and `batch/v1beta1 CronJob` passed on a 1.37 run). Needs Go and k8s.io/api@v0.37.2 through the proxy.
#[test]
fn kinds_the_release_no_longer_serves_are_refused() {
    if std::env::var_os("VGC_FAST").is_some_and(|v| v == "1") {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "kinds_the_release_no_longer_serves_are_refused: skipped (VGC_FAST=1): needs Go/the module proxy"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("removed.yaml");
    std::fs::write(
        &file,
        "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: old}\nspec:\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}}\n---\n\
         apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: new}\nspec:\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}}\n",
    )
    .expect("write");
    let f = file.to_str().expect("utf-8");
    let run = |args: &[&str]| {
        let mut all = vec!["validate", "--api", "k8s.io/api@v0.37.2"];
        all.extend_from_slice(args);
        let out = vgc_in(tmp.path(), &all, None);
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(&[f]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("error: apps/v1beta2 Deployment is not served by Kubernetes 1.37: removed in 1.16 (the API server answers \"no matches for kind\")"),
        "{out}"
    );
    let (_, out, _) = run(&["--output", "json", f]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let statuses: Vec<&str> = v["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| d["status"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(statuses, ["unknown-kind", "valid"], "{out}");
    let (code, out, err) = run(&["--release", "none", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("not served"), "{out}");
}

/// A module cache holding a `k8s.io/api@v0.37.2` of one package `core/v1` whose `types.go` declares `types` (after
/// `TypeMeta`), and a `k8s.io/kubernetes@v1.37.2` with `features` (the body of its gate map) and, per
/// `(resource, source)`, `pkg/registry/core/<resource>/strategy.go`: the release a strategy test reads.
fn strategy_release(modcache: &Path, types: &str, features: &str, strategies: &[(&str, String)]) {
    let api = modcache.join("k8s.io/api@v0.37.2");
    std::fs::create_dir_all(api.join("core/v1")).expect("mkdir");
    std::fs::write(api.join("go.mod"), "module k8s.io/api\n\ngo 1.25\n").expect("go.mod");
    std::fs::write(
        api.join("core/v1/doc.go"),
        "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +groupName=\npackage v1\n",
    )
    .expect("doc.go");
    std::fs::write(
        api.join("core/v1/types.go"),
        format!(
            "package v1\n\ntype TypeMeta struct {{\n\tAPIVersion string `json:\"apiVersion,omitempty\"`\n\tKind string `json:\"kind,omitempty\"`\n}}\n\n{types}"
        ),
    )
    .expect("types.go");
    let kubernetes = modcache.join("k8s.io/kubernetes@v1.37.2");
    std::fs::create_dir_all(kubernetes.join("pkg/features")).expect("mkdir");
    std::fs::write(
        kubernetes.join("pkg/features/kube_features.go"),
        format!("package features\n\nvar defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{{\n{features}}}\n"),
    )
    .expect("features");
    for (resource, source) in strategies {
        let d = kubernetes.join("pkg/registry/core").join(resource);
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(d.join("strategy.go"), source).expect("strategy.go");
    }
}

/// Issue 37: on a create, the API server's REST strategy (`PrepareForCreate`, called between defaulting and
/// validating) resets `status`; `vgc validate` reads which kinds' creates do so from the release's
/// `k8s.io/kubernetes@v1.Y.Z/pkg/registry/<group>/<resource>/*.go` and clears a created object's `status` the same
/// way — said in a note at the `status` key (JSON: `cleared`) — while an update (`--old`) and `--release none` keep
/// it. A reset inside `if utilfeature.DefaultFeatureGate.Enabled(features.G)` applies while `G` is on by default.
#[test]
fn a_create_clears_status_as_the_release_strategy_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let modcache = tmp.path().join("modcache");
    let strategies: Vec<(&str, String)> = [
        (
            "gadget",
            "\tg := obj.(*api.Gadget)\n\tg.Status = api.GadgetStatus{}\n",
        ),
        (
            "gizmo",
            "\tg := obj.(*api.Gizmo)\n\tif utilfeature.DefaultFeatureGate.Enabled(features.GizmoWiping) {\n\t\tg.Status = api.GadgetStatus{}\n\t}\n",
        ),
    ]
    .into_iter()
    .map(|(resource, body)| {
        (
            resource,
            format!(
                "package {resource}\n\nimport (\n\tapi \"k8s.io/kubernetes/pkg/apis/core\"\n\t\"k8s.io/kubernetes/pkg/features\"\n)\n\n\
                 func (strategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {{\n{body}}}\n"
            ),
        )
    })
    .collect();
    strategy_release(
        &modcache,
        "type Gadget struct {\n\tTypeMeta `json:\",inline\"`\n\tStatus GadgetStatus `json:\"status,omitempty\"`\n}\n\n\
         type Gizmo struct {\n\tTypeMeta `json:\",inline\"`\n\tStatus GadgetStatus `json:\"status,omitempty\"`\n}\n\n\
         type GadgetStatus struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tReady *int32 `json:\"ready,omitempty\"`\n}\n",
        "\tGizmoWiping: {\n\t\t{Version: version.MustParse(\"1.37\"), Default: false, PreRelease: featuregate.Alpha},\n\t},\n",
        &strategies,
    );
    let manifest = tmp.path().join("g.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: v1\nkind: Gadget\nstatus:\n  ready: -1\n---\napiVersion: v1\nkind: Gizmo\nstatus:\n  ready: -1\n",
    )
    .expect("manifest");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let m = manifest.to_str().expect("utf-8");
    let run = |extra: &[&str]| {
        let mut args = vec!["--api", "k8s.io/api@v0.37.2", "--no-cache", m];
        args.extend_from_slice(extra);
        validate_env(&args, &env)
    };
    // The Gadget's status is cleared (a note, no error); the Gizmo's reset is gated off by default: checked.
    let (code, out, err) = run(&[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("note: status not validated: cleared before validating a create, as the API server does\n  ┌─ "),
        "{out}"
    );
    assert!(
        out.contains("= the API server's create resets status before validating (PrepareForCreate, k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:10); validated as written it has 1 error; its rules apply to a /status update: --subresource status --old FILE\n"),
        "{out}"
    );
    assert!(
        out.contains("error: status.ready: Invalid value: -1: must be greater than or equal to 0"),
        "{out}"
    );
    assert!(
        out.contains("v1 Gizmo"),
        "the Gizmo's error names it: {out}"
    );
    assert!(
        out.ends_with(
            "vgc validate: 2 objects (1 valid, 1 invalid), 1 error, 0 skipped, 0 unreadable\n"
        ),
        "{out}"
    );
    let (_, out, _) = run(&["--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        v["documents"][0]["cleared"],
        serde_json::json!({"field": "status", "by": "k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:10", "line": 3, "column": 1, "hidden": 1})
    );
    assert_eq!(v["documents"][1]["cleared"], serde_json::Value::Null);
    // Every format says so.
    let (_, tap, _) = run(&["--output", "tap"]);
    assert!(
        tap.contains("ok 1 - ")
            && tap.contains("  cleared:\n    field: \"status\"\n    by: \"k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:10\"\n    line: 3\n    column: 1\n"),
        "{tap}"
    );
    let (_, junit, _) = run(&["--output", "junit"]);
    assert!(
        junit.contains("g.yaml:3:1: status not validated: cleared before validating a create, as the API server&apos;s PrepareForCreate does (k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:10)")
            || junit.contains("g.yaml:3:1: status not validated: cleared before validating a create, as the API server's PrepareForCreate does (k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:10)"),
        "{junit}"
    );
    let (_, sarif, _) = run(&["--output", "sarif"]);
    let v: serde_json::Value = serde_json::from_str(&sarif).expect("sarif");
    let notes: Vec<&serde_json::Value> = v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["ruleId"] == "status-cleared")
        .collect();
    assert_eq!(notes.len(), 1, "{sarif}");
    assert_eq!(notes[0]["level"], "note");
    // `--subresource /` is the main resource: the same reset.
    let (code, _, _) = run(&["--subresource", "/"]);
    assert_eq!(code, 1);
    let (_, out, _) = run(&["--subresource", "/", "--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["documents"][0]["cleared"]["line"], 3);
    // The gated reset follows the gate as `--option` sets it (no "changes nothing" warning for it).
    let (code, out, err) = run(&["--option", "GizmoWiping=true"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("changes nothing"), "{err}");
    assert!(
        out.contains("pkg/registry/core/gizmo/strategy.go:11"),
        "{out}"
    );
    // `--release none`: no release, no strategies read: both statuses are checked.
    let (code, out, _) = run(&["--release", "none"]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with(
            "vgc validate: 2 objects (0 valid, 2 invalid), 2 errors, 0 skipped, 0 unreadable\n"
        ),
        "{out}"
    );
    // An update (`--old`, the same objects with another status) keeps the status: the rule applies.
    let old = tmp.path().join("old.yaml");
    std::fs::write(
        &old,
        "apiVersion: v1\nkind: Gadget\nstatus:\n  ready: 1\n---\napiVersion: v1\nkind: Gizmo\nstatus:\n  ready: 1\n",
    )
    .expect("old");
    let (code, out, _) = run(&["--old", old.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(!out.contains("cleared"), "{out}");
    assert!(
        out.ends_with(
            "vgc validate: 2 objects (0 valid, 2 invalid), 2 errors, 0 skipped, 0 unreadable\n"
        ),
        "{out}"
    );
    // A status of the wrong JSON type: the server refuses the body before its strategy runs, and so does vgc; an
    // empty status is cleared (and said) too — a pointer status `{}` is not nil.
    std::fs::write(
        &manifest,
        "apiVersion: v1\nkind: Gadget\nstatus:\n  ready: \"x\"\n---\napiVersion: v1\nkind: Gadget\nstatus: {}\n",
    )
    .expect("manifest");
    let (code, out, _) = run(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error: v1 Gadget (unnamed): wrong type"),
        "{out}"
    );
    let (_, out, _) = run(&["--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["documents"][0]["status"], "unreadable");
    assert_eq!(v["documents"][0]["cleared"], serde_json::Value::Null);
    assert_eq!(v["documents"][1]["cleared"]["line"], 8);
}

/// Issue 37: on an update (`--old`), the release's `PrepareForUpdate` keeps what that update cannot change — the
/// stored `status` on the main resource, the stored `spec` on `/status` (`newX.Status = oldX.Status`, read from
/// `pkg/registry/<group>/<resource>/*.go`) — and `vgc validate` validates what the server validates: the member
/// takes the old object's value, said in a note where it hides errors of the manifest (JSON: `kept`).
#[test]
fn an_update_keeps_what_the_release_strategy_keeps() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let modcache = tmp.path().join("modcache");
    strategy_release(
        &modcache,
        "type ObjectMeta struct {\n\tName string `json:\"name,omitempty\"`\n}\n\n\
         // +k8s:supportsSubresource=\"/status\"\n\
         type Gadget struct {\n\tTypeMeta `json:\",inline\"`\n\tMetadata ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec GadgetSpec `json:\"spec,omitempty\"`\n\tStatus GadgetStatus `json:\"status,omitempty\"`\n}\n\n\
         type GadgetSpec struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tSize *int32 `json:\"size,omitempty\"`\n}\n\n\
         type GadgetStatus struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tReady *int32 `json:\"ready,omitempty\"`\n}\n",
        "",
        &[(
            "gadget",
            "package gadget\n\nimport api \"k8s.io/kubernetes/pkg/apis/core\"\n\n\
             func (gadgetStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {\n\tnewG := obj.(*api.Gadget)\n\toldG := old.(*api.Gadget)\n\tnewG.Status = oldG.Status\n}\n\n\
             func (gadgetStatusStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {\n\tnewG := obj.(*api.Gadget)\n\toldG := old.(*api.Gadget)\n\tnewG.Spec = oldG.Spec\n}\n"
                .to_string(),
        )],
    );
    let new = tmp.path().join("new.yaml");
    std::fs::write(
        &new,
        "apiVersion: v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  size: -2\nstatus:\n  ready: -1\n",
    )
    .expect("new");
    let old = tmp.path().join("old.yaml");
    std::fs::write(
        &old,
        "apiVersion: v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  size: 2\nstatus:\n  ready: 1\n",
    )
    .expect("old");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let env = [
        ("GOMODCACHE", Some(modcache.as_path())),
        ("PATH", Some(empty.as_path())),
    ];
    let (n, o) = (new.to_str().expect("utf-8"), old.to_str().expect("utf-8"));
    let run = |extra: &[&str]| {
        let mut args = vec!["--api", "k8s.io/api@v0.37.2", "--no-cache", n, "--old", o];
        args.extend_from_slice(extra);
        validate_env(&args, &env)
    };
    // The main resource: the status is the stored one (no error), the spec is checked.
    let (code, out, err) = run(&[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("error: spec.size: Invalid value: -2: must be greater than or equal to 0"),
        "{out}"
    );
    assert!(!out.contains("status.ready: Invalid"), "{out}");
    assert!(
        out.contains("note: status not validated as written: an update keeps the stored object's, as the API server does\n"),
        "{out}"
    );
    assert!(
        out.contains("= the API server's update keeps the stored object's status (PrepareForUpdate, k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:8); validated as written it has 1 error\n"),
        "{out}"
    );
    let (_, out, _) = run(&["--output", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        v["documents"][0]["kept"],
        serde_json::json!([{"field": "status", "by": "k8s.io/kubernetes@v1.37.2 pkg/registry/core/gadget/strategy.go:8", "line": 7, "column": 1, "hidden": 1}])
    );
    // `/status`: the spec is the stored one, the status is checked.
    let (code, out, _) = run(&["--subresource", "status"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error: status.ready: Invalid value: -1: must be greater than or equal to 0"),
        "{out}"
    );
    assert!(!out.contains("spec.size: Invalid"), "{out}");
    assert!(
        out.contains("pkg/registry/core/gadget/strategy.go:14"),
        "{out}"
    );
    // No release, no strategies: both as written.
    let (code, out, _) = run(&["--release", "none"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("spec.size: Invalid") && out.contains("status.ready: Invalid"),
        "{out}"
    );
    assert!(!out.contains("kept"), "{out}");
}

/// Trial findings of issue 37: SARIF's `artifactLocation.uri` is a URI reference (a `#` or a space in a file name
/// percent-encoded); an input with no object is a warning (not a silent pass); a missing `--old` file is named as
/// `--old`'s; `-j` is 1 to 256; an `--option` no rule reads is in the JSON report's warnings too.
#[test]
fn sarif_uris_empty_inputs_old_files_jobs_and_option_warnings() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let odd = tmp.path().join("dir with space");
    std::fs::create_dir_all(&odd).expect("mkdir");
    let file = odd.join("a#b%.yaml");
    std::fs::copy(dir().join("manifests/widgets.yaml"), &file).expect("copy");
    let rel = |p: &Path| p.to_str().expect("utf-8").to_string();
    let api = rel(&dir().join("api"));
    let run = |args: &[&str]| {
        let mut all = vec!["validate", "--api", api.as_str()];
        all.extend_from_slice(args);
        let o = vgc_in(tmp.path(), &all, None);
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (_, sarif, _) = run(&["--output", "sarif", "dir with space/a#b%.yaml"]);
    let v: serde_json::Value = serde_json::from_str(&sarif).expect("sarif");
    let uri =
        &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    assert_eq!(uri, "dir%20with%20space/a%23b%25.yaml", "{sarif}");
    // No object at all: a warning, exit 0.
    std::fs::write(tmp.path().join("empty.yaml"), "# nothing here\n").expect("write");
    let (code, out, err) = run(&["empty.yaml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("warning: no Kubernetes object in the 1 input file: nothing was validated\n"),
        "{err}"
    );
    // `--old` names its own missing file.
    let (code, _, err) = run(&["empty.yaml", "--old", "nothere.yaml"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --old nothere.yaml"), "{err}");
    // `-j` is bounded.
    let (code, _, err) = run(&["empty.yaml", "-j", "65535"]);
    assert_eq!(code, 2);
    assert!(err.contains("65535 is not in 1..=256"), "{err}");
    // An option no rule reads: on stderr and in the JSON report.
    let (_, out, err) = run(&[
        "--output",
        "json",
        "--option",
        "NoSuchGate=true",
        "dir with space/a#b%.yaml",
    ]);
    assert!(
        err.contains("warning: --option NoSuchGate: no rule of this API tree reads this option"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(
        v["warnings"].as_array().expect("warnings").iter().any(|w| w
            .as_str()
            .is_some_and(|w| w.starts_with("--option NoSuchGate: no rule"))),
        "{out}"
    );
}
