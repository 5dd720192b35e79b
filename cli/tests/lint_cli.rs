//! `vgc lint` as a CI job runs it: findings on stdout (the summary on stderr), colour only when asked or on a
//! terminal without `NO_COLOR`, GitHub Actions annotations, baselines, per-code overrides, and `vgc explain`.

use std::path::Path;
use std::process::{Command, Output};

/// A module with one package: `Name` has a validation but no optional/required (VGC0303, error) and `Items` a
/// `+listType=set` without its `+k8s:` twin (VGC0311, warning).
fn module() -> tempfile::TempDir {
    shop_module(
        "// +k8s:validation-gen=*\npackage v1\n",
        "package v1\n\ntype Order struct {\n\t// +k8s:maxLength=10\n\tName string `json:\"name\"`\n\t// +k8s:optional\n\t// +listType=set\n\tItems []string `json:\"items,omitempty\"`\n}\n",
    )
    .0
}

fn lint(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vgc"));
    cmd.arg("lint")
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("vgc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn findings_go_to_stdout_and_colour_follows_the_conventions() {
    let m = module();
    let out = lint(m.path(), &[], &[]);
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(stdout.contains("error[VGC0303]"), "{stdout}");
    assert!(stdout.contains("warning[VGC0311]"), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}'),
        "no colour when stdout is not a terminal"
    );
    assert!(!stderr.contains("VGC0303"), "{stderr}");
    assert!(
        stderr.starts_with("vgc lint: 1 package, 1 warning, 1 error in "),
        "{stderr}"
    );
    let always = text(&lint(m.path(), &["--color", "always"], &[]).stdout);
    assert!(always.contains("\u{1b}["), "{always}");
    // NO_COLOR only affects `auto`.
    let no_color = text(&lint(m.path(), &["--color", "always"], &[("NO_COLOR", "1")]).stdout);
    assert!(no_color.contains("\u{1b}["));
    let never = text(&lint(m.path(), &["--color", "never"], &[]).stdout);
    assert_eq!(never, stdout);
}

#[test]
fn github_annotations() {
    let m = module();
    let out = lint(m.path(), &["--format", "github"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(
        lines[0],
        "::error file=v1/types.go,line=5,col=2,endLine=5,endColumn=6,title=VGC0303 required-and-optional::field Name: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden%0Ahint: add `+k8s:optional` (or `+k8s:required`) to the field"
    );
    assert_eq!(
        lines[1],
        "::warning file=v1/types.go,line=7,col=6,endLine=7,endColumn=18,title=VGC0311 list-marker-twin::field Items: +listType=set has no +k8s:listType twin; validation does not see it%0Ahint: add `+k8s:listType=set` next to it (`vgc lint --fix` does)"
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    // In a repository, linted from a subdirectory: annotation paths are relative to the repository root, as
    // SARIF's URIs are (issue 37: they used the working directory).
    let repo = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(repo.path().join(".git")).expect(".git");
    let api = repo.path().join("api");
    std::fs::create_dir_all(&api).expect("mkdir");
    for rel in ["go.mod", "v1/doc.go", "v1/types.go"] {
        let to = api.join(rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(m.path().join(rel), to).expect("copy");
    }
    let out = lint(&api.join("v1"), &["--format", "github", "."], &[]);
    let first = text(&out.stdout);
    assert!(
        first.starts_with("::error file=api/v1/types.go,line=5,col=2,"),
        "{first}"
    );
    let sarif = lint(&api.join("v1"), &["--format", "sarif", "."], &[]);
    let v: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("sarif");
    assert_eq!(
        v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "api/v1/types.go"
    );
}

#[test]
fn baselines_and_per_code_overrides() {
    let m = module();
    let bl = m.path().join("baseline.json");
    let out = lint(m.path(), &["--write-baseline", "baseline.json"], &[]);
    assert_eq!(out.status.code(), Some(1), "writing reports as usual");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bl).expect("baseline")).expect("json");
    assert_eq!(written["version"], 1);
    assert_eq!(written["findings"].as_array().map(Vec::len), Some(2));
    assert_eq!(written["findings"][0]["file"], "v1/types.go");
    // Everything known: clean, even after an edit above the findings moves their lines.
    let types = m.path().join("v1/types.go");
    let src = std::fs::read_to_string(&types).expect("read");
    std::fs::write(
        &types,
        src.replacen("package v1\n", "package v1\n\n// Orders.\n", 1),
    )
    .expect("write");
    let out = lint(m.path(), &["--baseline", "baseline.json"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("0 warnings, 0 errors (2 more in the baseline)"));
    // A new finding is reported.
    let src = std::fs::read_to_string(&types).expect("read");
    std::fs::write(
        &types,
        src.replace(
            "}\n",
            "\t// +k8s:maxItems=3\n\tTags []string `json:\"tags\"`\n}\n",
        ),
    )
    .expect("write");
    let out = lint(m.path(), &["--baseline", "baseline.json", "--short"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("error[VGC0303]: field Tags:"), "{stdout}");
    // -A turns a code off, -W makes an error a warning, -D a warning an error.
    let out = lint(m.path(), &["--short", "-A", "VGC0303"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!text(&out.stdout).contains("VGC0303"));
    let out = lint(
        m.path(),
        &["--short", "-W", "VGC0303", "-D", "VGC0311"],
        &[],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("warning[VGC0303]") && stdout.contains("error[VGC0311]"),
        "{stdout}"
    );
    // Not a lint code, or unknown: usage errors.
    assert_eq!(
        lint(m.path(), &["-A", "VGC0102"], &[]).status.code(),
        Some(2)
    );
    assert_eq!(
        lint(m.path(), &["-A", "VGC9999"], &[]).status.code(),
        Some(2)
    );
    std::fs::write(&bl, "{}").expect("write");
    assert_eq!(
        lint(m.path(), &["--baseline", "baseline.json"], &[])
            .status
            .code(),
        Some(2)
    );
}

/// A release's own spelling of a catalog tag (1.36's `+k8s:discriminator`, which `vgc check` accepts under 1.36) is
/// explained under that release as the catalog tag it is; under a release without it, it is no tag (issue 40).
#[test]
fn explain_knows_a_release_s_own_spellings() {
    let run = |upstream: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(["explain", "+k8s:discriminator", "--upstream", upstream])
            .output()
            .expect("vgc runs");
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, out, _) = run("1.36");
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("+k8s:discriminator (Stable; scopes: Field)\n\nUpstream 1.36's spelling of `+k8s:modeDiscriminator` (arguments `name:` for `modality:`; `+k8s:modeDiscriminator` itself exists from upstream 1.37 on). "),
        "{out}"
    );
    let (code, _, err) = run("1.37");
    assert_ne!(code, Some(0));
    assert!(err.contains("is neither a diagnostic code"), "{err}");
}

#[test]
fn explain_codes_and_tags() {
    let run = |what: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(["explain", what])
            .output()
            .expect("vgc runs");
        (out.status.code(), text(&out.stdout))
    };
    let (code, out) = run("VGC0311");
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("VGC0311 (list-marker-twin), warning by default;"),
        "{out}"
    );
    let (code, out) = run("+k8s:listType");
    assert_eq!(code, Some(0));
    assert!(out.starts_with("+k8s:listType (Stable;"), "{out}");
    // The syntax and the catalog's example (issue 37: `vgc explain` showed neither).
    assert!(
        out.contains("\n\nSyntax: +k8s:listType=<string>\nExample:\n"),
        "{out}"
    );
    let (_, out) = run("item");
    assert!(
        out.contains("Syntax: +k8s:item(<name>: <value>, …)=<tag>\n"),
        "{out}"
    );
    assert!(
        out.contains("// +k8s:item(type: \"Ready\")=+k8s:immutable"),
        "{out}"
    );
    let (_, out) = run("alpha");
    assert!(
        out.contains("Syntax: +k8s:alpha([since: <string>])=<tag>\n"),
        "{out}"
    );
    assert_eq!(run("format").0, Some(0));
    assert_eq!(run("k8s:nope").0, Some(2));
    // The field-path constraint forms (vgc extension): after `minimum`'s catalog entry, and the whole entry of
    // `exclusiveMaximum`, which upstream does not have.
    let (code, out) = run("minimum");
    assert_eq!(code, Some(0));
    assert!(
        out.contains("\n  +k8s:minimum(constraint: <path>)  on a field: its value must be greater than or equal to the field at <path>\n"),
        "{out}"
    );
    let (code, out) = run("k8s:exclusiveMaximum");
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with(
            "+k8s:exclusiveMaximum (vgc extension; scopes: Field, Type)\n\nvgc extension forms"
        ),
        "{out}"
    );
    assert!(
        out.contains("there is no constant form (write `minimum=N+1` / `maximum=N-1`)"),
        "{out}"
    );
    // A generator-control tag: what it controls.
    let (code, out) = run("validation-gen-input");
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "+k8s:validation-gen-input (generator control tag, not a validation rule; scopes: Package, Type)\n\n`+k8s:validation-gen-input=<package>`: the package whose types are validated (activation packages).\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["explain", "VGC9999"])
        .output()
        .expect("vgc runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: VGC9999 is not a vgc diagnostic code (`vgc docs --format diagnostics-markdown` lists them)\n"
    );
}

/// A Go module `example.com/shop` in a temporary directory with package `v1` made of `doc` (doc.go) and `types`
/// (types.go): (the directory, the path of types.go).
fn shop_module(doc: &str, types: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("go.mod"), "module example.com/shop\n\ngo 1.23\n").expect("go.mod");
    std::fs::create_dir_all(root.join("v1")).expect("mkdir");
    std::fs::write(root.join("v1/doc.go"), doc).expect("doc.go");
    let path = root.join("v1/types.go");
    std::fs::write(&path, types).expect("types.go");
    (dir, path)
}

#[test]
fn fix_inserts_the_missing_list_type_twins() {
    let (dir, types) = shop_module(
        "// +k8s:validation-gen=*\npackage v1\n",
        "package v1\n\ntype Item struct {\n\tName string `json:\"name\"`\n}\n\ntype Order struct {\n\t// +k8s:optional\n\t// +listType=map\n\t// +listMapKey=name\n\tItems []Item `json:\"items,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:listType=set\n\tTags []string `json:\"tags,omitempty\"`\n}\n",
    );
    let root = dir.path();
    let before = lint(root, &["--short"], &[]);
    assert_eq!(text(&before.stdout).matches("warning[VGC0311]").count(), 2);
    let after = lint(root, &["--short", "--fix"], &[]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stderr));
    assert_eq!(text(&after.stdout), "", "nothing left to report");
    assert_eq!(
        std::fs::read_to_string(&types).expect("read"),
        "package v1\n\ntype Item struct {\n\tName string `json:\"name\"`\n}\n\ntype Order struct {\n\t// +k8s:optional\n\t// +listType=map\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=name\n\t// +listMapKey=name\n\tItems []Item `json:\"items,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:listType=set\n\t// +listType=set\n\tTags []string `json:\"tags,omitempty\"`\n}\n"
    );
}

/// `--fix` in a CRLF file inserts CRLF lines (before, `\n` lines into a `\r\n` file: mixed line endings), and
/// VGC0311 is not raised, nor its twin offered, on a field that is no list (its `+k8s:listType` is already VGC0110)
/// (issue 40 trial).
#[test]
fn fix_keeps_crlf_and_skips_fields_that_are_no_lists() {
    let (dir, types) = shop_module(
        "// +k8s:validation-gen=*\r\npackage v1\r\n",
        "package v1\r\n\r\ntype Order struct {\r\n\t// +k8s:optional\r\n\t// +k8s:listType=set\r\n\tTags []string `json:\"tags,omitempty\"`\r\n\t// +k8s:optional\r\n\t// +k8s:listType=set\r\n\tNote string `json:\"note,omitempty\"`\r\n}\r\n",
    );
    let root = dir.path();
    let before = lint(root, &["--short"], &[]);
    let out = text(&before.stdout);
    assert_eq!(out.matches("VGC0311").count(), 1, "{out}");
    assert!(
        out.contains("v1/types.go:5:6: warning[VGC0311]: field Tags"),
        "{out}"
    );
    assert!(out.contains("error[VGC0110]"), "{out}");
    lint(root, &["--short", "--fix"], &[]);
    assert_eq!(
        std::fs::read_to_string(&types).expect("read"),
        "package v1\r\n\r\ntype Order struct {\r\n\t// +k8s:optional\r\n\t// +k8s:listType=set\r\n\t// +listType=set\r\n\tTags []string `json:\"tags,omitempty\"`\r\n\t// +k8s:optional\r\n\t// +k8s:listType=set\r\n\tNote string `json:\"note,omitempty\"`\r\n}\r\n"
    );
}

/// `--fix` rewrites a file as `gofmt -w` does: through a symbolic link to the file it names, keeping its mode
/// (before, the link was replaced by a regular file and the mode became 0600; found by a new-user trial).
#[cfg(unix)]
#[test]
fn fix_writes_through_symlinks_and_keeps_the_mode() {
    use std::os::unix::fs::PermissionsExt as _;
    let (dir, types) = shop_module(
        "// +k8s:validation-gen=*\npackage v1\n",
        "package v1\n\ntype Order struct {\n\t// +k8s:optional\n\t// +k8s:listType=set\n\tTags []string `json:\"tags,omitempty\"`\n}\n",
    );
    let root = dir.path();
    let shared = root.join("shared");
    std::fs::create_dir_all(&shared).expect("mkdir");
    let real = shared.join("types.txt");
    std::fs::rename(&types, &real).expect("move");
    std::os::unix::fs::symlink("../shared/types.txt", &types).expect("symlink");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let after = lint(root, &["--short", "--fix"], &[]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stderr));
    assert!(
        std::fs::symlink_metadata(&types)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&real).expect("read"),
        "package v1\n\ntype Order struct {\n\t// +k8s:optional\n\t// +k8s:listType=set\n\t// +listType=set\n\tTags []string `json:\"tags,omitempty\"`\n}\n"
    );
    let mode = std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

/// Issue 14: the pre-release proposals `+k8s:shadow(…)` and `+k8s:declarativeValidationNative` say what replaced
/// them, and `--fix` rewrites the first to `+k8s:alpha(since: …)` and deletes the second.
#[test]
fn fix_rewrites_retired_proposal_tags() {
    let (dir, types) = shop_module(
        "// +k8s:validation-gen=*\n// +k8s:validation-gen-nolint\npackage v1\n",
        "package v1\n\ntype T struct {\n\t// +k8s:optional\n\t// +k8s:shadow(introducedVersion=1.35)=+k8s:minimum=1\n\tA int32 `json:\"a,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:declarativeValidationNative\n\t// +k8s:maxLength=60\n\tC string `json:\"c,omitempty\"`\n}\n",
    );
    let root = dir.path();
    let before = lint(root, &["--short"], &[]);
    let shown = text(&before.stdout) + &text(&before.stderr);
    assert!(
        shown.contains("error[VGC0102]: unknown tag \"k8s:shadow\": the proposal was replaced by \"k8s:alpha\" before any release (KEP-5073)"),
        "{shown}"
    );
    assert!(
        shown.contains("error[VGC0102]: unknown tag \"k8s:declarativeValidationNative\": superseded before any release (KEP-5073)"),
        "{shown}"
    );
    assert_ne!(before.status.code(), Some(0));
    let after = lint(root, &["--short", "--fix"], &[]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stderr));
    assert_eq!(
        std::fs::read_to_string(&types).expect("read"),
        "package v1\n\ntype T struct {\n\t// +k8s:optional\n\t// +k8s:alpha(since: \"1.35\")=+k8s:minimum=1\n\tA int32 `json:\"a,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:maxLength=60\n\tC string `json:\"c,omitempty\"`\n}\n"
    );
}

/// SARIF rules link to the diagnostics page (`helpUri` = page `#CODE`) given by `[lint] docs-url` of `vgc.toml` or
/// `--docs-url` (which wins); with neither there is no `helpUri` (vgc invents no address) and the help text names
/// `vgc explain CODE`; a URL that is not absolute is a usage error.
#[test]
fn sarif_help_uris_follow_the_docs_url() {
    let m = module();
    let help_uris = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--format", "sarif"];
        all.extend_from_slice(args);
        let out = lint(m.path(), &all, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF JSON");
        v["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .map(|r| {
                assert!(r["helpUri"].is_string(), "{r}");
                format!(
                    "{} {}",
                    r["id"].as_str().unwrap_or(""),
                    r["helpUri"].as_str().unwrap_or("")
                )
            })
            .collect()
    };
    let out = lint(m.path(), &["--format", "sarif"], &[]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF JSON");
    let rules = v["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .clone();
    assert_eq!(rules.len(), vgc_ir::ALL_CODES.len());
    for r in &rules {
        assert!(r.get("helpUri").is_none(), "{r}");
        let id = r["id"].as_str().expect("id");
        assert!(
            r["help"]["text"]
                .as_str()
                .expect("help")
                .contains(&format!("Run `vgc explain {id}`")),
            "{r}"
        );
    }
    let flag = help_uris(&[
        "--docs-url",
        "https://docs.example.com/vgc/diagnostics.html#old",
    ]);
    assert!(
        flag.iter().all(|l| {
            let (id, uri) = l.split_once(' ').unwrap_or_default();
            uri == format!("https://docs.example.com/vgc/diagnostics.html#{id}")
        }),
        "{flag:?}"
    );
    std::fs::write(
        m.path().join("vgc.toml"),
        "[lint]\ndocs-url = \"https://intra.example.org/vgc/\"\n",
    )
    .expect("vgc.toml");
    assert!(help_uris(&[]).contains(&"VGC0311 https://intra.example.org/vgc/#VGC0311".to_string()));
    assert!(
        help_uris(&["--docs-url", "https://docs.example.com/d.html"])
            .contains(&"VGC0311 https://docs.example.com/d.html#VGC0311".to_string())
    );
    let out = lint(
        m.path(),
        &["--format", "sarif", "--docs-url", "docs/diagnostics.md"],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("relative URL without a base"),
        "{}",
        text(&out.stderr)
    );
}

/// Issue 37: `--short` is one line per finding (no drift table on stdout), and with a baseline the drift table
/// counts only the drifting paths still reported, the absorbed ones in a `baselined` column.
#[test]
fn drift_table_follows_short_and_the_baseline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    };
    write("go.mod", "module example.com/shop\n\ngo 1.23\n");
    for (v, max) in [("v1", 10), ("v1beta1", 20)] {
        write(
            &format!("apis/{v}/doc.go"),
            &format!("// +k8s:validation-gen=*\npackage {v}\n"),
        );
        write(
            &format!("apis/{v}/types.go"),
            &format!(
                "package {v}\n\ntype Order struct {{\n\t// +k8s:optional\n\t// +k8s:maxLength={max}\n\tName string `json:\"name,omitempty\"`\n}}\n"
            ),
        );
    }
    let out = lint(root, &[], &[]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("VGC0401"), "{stdout}");
    let row = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("example.com/shop/apis "))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    assert_eq!(
        row(&stdout).as_deref(),
        Some("example.com/shop/apis 1 2 1 0 v1beta1, v1"),
        "{stdout}"
    );
    let short = text(&lint(root, &["--short"], &[]).stdout);
    assert!(
        short.lines().all(|l| l.contains("VGC0")),
        "only findings with --short: {short}"
    );
    lint(root, &["--write-baseline", "b.json"], &[]);
    let out = lint(root, &["--baseline", "b.json"], &[]);
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("VGC0401"), "{stdout}");
    assert!(stdout.contains("baselined"), "{stdout}");
    assert_eq!(
        row(&stdout).as_deref(),
        Some("example.com/shop/apis 1 2 0 0 1 v1beta1, v1"),
        "{stdout}"
    );
}
