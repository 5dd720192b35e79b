//! End-to-end on the real input: downloads the newest released `k8s.io/api` and the matching
//! `k8s.io/apimachinery` through the Go module proxy, runs `vgc build` on all of k8s.io/api, builds the generated
//! crate with cargo and runs `e2e/real.rs` against it: real-shaped ReplicationController, Deployment,
//! CertificateSigningRequest and resource.k8s.io/v1 ResourceClaim objects on create and on update, asserting
//! exact error lists. Needs `go` and the module proxy; the nested build uses `target/e2e`.

use std::path::{Path, PathBuf};
use std::process::Command;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

use vgc_tests::harness;
use vgc_tests::k8s_oracle;
use vgc_tests::site_check;

/// Counts `// +k8s:` comment lines in non-test `.go` files, skipping `testdata`, `vendor`, hidden and `_` dirs.
fn count_tag_lines(dir: &Path) -> usize {
    let mut n = 0;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !(name.starts_with('.')
                || name.starts_with('_')
                || name == "testdata"
                || name == "vendor")
            {
                n += count_tag_lines(&p);
            }
        } else if name.ends_with(".go") && !name.ends_with("_test.go") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            n += text
                .lines()
                .filter(|l| {
                    l.trim_start()
                        .strip_prefix("//")
                        .is_some_and(|c| c.trim_start().starts_with("+k8s:"))
                })
                .count();
        }
    }
    n
}

#[test]
fn real_k8s_api_end_to_end() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = vgc_tests::harness::e2e_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    let (api_dir, version) = harness::download_module("k8s.io/api@latest", tmp.path());
    let (_, mach_version) =
        harness::download_module(&format!("k8s.io/apimachinery@{version}"), tmp.path());
    assert_eq!(version, mach_version);

    let generated = e2e.join("k8s-generated");
    let req = BuildRequest {
        path: api_dir.clone(),
        out: Some(generated.clone()),
        crate_name: "k8s-generated".into(),
        // The default, portable dependency (`vgc-runtime = "<version>"`); the harness patches it to this checkout.
        runtime: RuntimeDep::published(),
        // kubernetes/kubernetes activates every group/version with TypesWithField=TypeMeta from its internal
        // packages (`+k8s:validation-gen-input=k8s.io/api/...`); k8s.io/api's own doc.go files activate less.
        extra_roots: vec!["TypesWithField=TypeMeta".into()],
        // k8s.io/api's `+k8s:customValidation` functions are ported in the runtime (`vgc_runtime::k8s`), so the
        // crate needs no `src/custom.rs`; `custom_stub` would start one for any other.
        custom_stub: true,
        upstream: Some(harness::oracle_profile()),
        ..Default::default()
    };
    // Start from a fresh stub so a changed k8s.io/api cannot leave a stale one behind.
    let _ = std::fs::remove_file(generated.join("src/custom.rs"));
    let out = vgc::build(&req);
    let errors: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.severity == vgc_ir::Severity::Error)
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(
        errors.is_empty(),
        "error diagnostics on k8s.io/api {version}:\n{}",
        errors.join("\n")
    );
    assert_eq!(vgc::exit_code(&out), 0);
    assert!(out.io_error.is_none(), "{:?}", out.io_error);
    // Every validation tag on reachable types is either lowered, accepted as metadata, or reported as not lowered.
    assert!(
        out.stats.tags > 1000 && out.stats.lowered > 900,
        "{:?}",
        out.stats
    );
    // Every tag family used by k8s.io/api is lowered: no VGC0201 "not lowered yet" warning, no other diagnostic.
    assert_eq!(out.stats.not_lowered, 0, "{:?}", out.stats);
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "{shown:?}");
    // The direct printer of struct definitions and plain impls (a build-speed shortcut) prints every k8s.io/api
    // type exactly as prettyplease does, and covers most of those items (1,525 of 1,718 on v0.37.2).
    let cmp = vgc_codegen::compare_direct_printer(&out.plan, vgc_codegen::Target::Own).unwrap();
    let types: usize = out.plan.modules.iter().map(|m| m.types.len()).sum();
    assert!(
        cmp.differences.is_empty(),
        "{} of {types} types printed differently, first: {:?}",
        cmp.differences.len(),
        cmp.differences.first()
    );
    assert!(
        cmp.direct * 100 >= cmp.items * 85,
        "direct printer covered {} of {} items",
        cmp.direct,
        cmp.items
    );
    // Every `+k8s:` line of the tree was extracted and every validation tag parsed: compare with a plain text scan.
    let scanned = count_tag_lines(Path::new(&api_dir));
    assert_eq!(
        out.tag_lines, scanned,
        "tag lines extracted vs. found by a text scan"
    );
    assert_eq!(out.tag_syntax_errors, 0);
    eprintln!(
        "k8s.io/api {version}: {:?}; {} +k8s: tag lines",
        out.stats, out.tag_lines
    );

    // The generated crate holds no path of this machine: it builds from a copy in another directory, with
    // vgc-runtime taken from this checkout through `[patch.crates-io]` (the harness's).
    let manifest = std::fs::read_to_string(generated.join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        manifest.contains(&format!(
            "\nvgc-runtime = \"{}\"\n",
            vgc_codegen::RUNTIME_VERSION
        )),
        "{manifest}"
    );
    let moved = e2e.join("k8s-generated-moved");
    let _ = std::fs::remove_dir_all(&moved);
    copy_sources(&generated, &moved);
    // Harness crate: depends on the moved generated crate, runs e2e/real.rs.
    let harness = e2e.join("harness");
    std::fs::create_dir_all(harness.join("tests")).expect("mkdir harness");
    // The random phase below writes `src/bin/run_cases.rs`; start without a stale one.
    let _ = std::fs::remove_dir_all(harness.join("src/bin"));
    let runtime = root.join("runtime");
    std::fs::write(
        harness.join("Cargo.toml"),
        format!(
            "[package]\nname = \"k8s-e2e-harness\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nk8s-generated = {{ path = {:?} }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\n[patch.crates-io]\nvgc-runtime = {{ path = {:?} }}\n",
            moved.to_string_lossy(),
            runtime.to_string_lossy(),
            runtime.to_string_lossy()
        ),
    )
    .expect("write harness Cargo.toml");
    std::fs::create_dir_all(harness.join("src")).expect("mkdir src");
    std::fs::write(harness.join("src/lib.rs"), "//! e2e harness\n").expect("lib.rs");
    let cases = std::fs::read_to_string(root.join("tests/e2e/real.rs")).expect("tests/e2e/real.rs");
    std::fs::write(harness.join("tests/real.rs"), cases).expect("write real.rs");
    let json =
        std::fs::read_to_string(root.join("tests/e2e/cases.json")).expect("tests/e2e/cases.json");
    std::fs::write(harness.join("tests/cases.json"), json).expect("write cases.json");
    let status = harness::nested_cargo(
        &e2e,
        &["test", "--quiet"],
        &harness.join("Cargo.toml"),
        true,
    )
    .status()
    .expect("nested cargo runs");
    assert!(
        status.success(),
        "the generated k8s.io/api crate failed to build warning-free or a real-input case failed"
    );
    let _: PathBuf = generated;

    // The documentation site of k8s.io/api: every link resolves, Chromium loads it and its search finds a field.
    let site = e2e.join("k8s-docs");
    let _ = std::fs::remove_dir_all(&site);
    let start = std::time::Instant::now();
    let files = vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &out.plan,
        docs: &vgc_docs_gen::GoDocs::read(&out.package_files),
        layout: None,
        module_version: None,
    })
    .expect("the built-in templates render");
    let docs_time = start.elapsed();
    for (rel, text) in &files {
        let p = site.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let (pages, links) = site_check::check_links(&site);
    let dom = site_check::browser_dom(&site.join("index.html"), "#q=DeploymentSpec.replicas");
    assert!(
        dom.contains("DeploymentSpec.replicas</a>"),
        "k8s search result missing"
    );
    // The big API pages stay within a 390 px window too; screenshots for a look when `$VGC_SITE_SHOTS` is set.
    for (name, rel) in [
        ("k8s-apps-v1", "api/apps/v1.html"),
        ("k8s-resource-v1", "api/resource/v1.html"),
    ] {
        let narrow = site_check::layout(&site.join(rel), 390);
        assert!(
            narrow["scrollWidth"].as_u64().expect("scrollWidth") <= 390
                && narrow["overflowing"] == serde_json::json!([]),
            "{rel}: {narrow}"
        );
        if let Some(dir) = std::env::var_os("VGC_SITE_SHOTS") {
            std::fs::create_dir_all(&dir).expect("mkdir");
            for (w, h) in [(390, 844), (1280, 900)] {
                let png = Path::new(&dir).join(format!("{name}-{w}.png"));
                assert_eq!(site_check::screenshot(&site.join(rel), w, h, &png), (w, h));
            }
        }
    }
    eprintln!(
        "k8s-docs: {} files, {pages} pages, {links} links checked, generated in {:.2}s",
        files.len(),
        docs_time.as_secs_f64()
    );

    // Random objects through upstream-generated Go and vgc-generated Rust.
    k8s_oracle::random_k8s_objects_agree(Path::new(&api_dir), &version, &out.plan, &harness);
}

/// Copies the generated crate's sources (`Cargo.toml`, `src/`) from `from` to `to`, leaving vgc's caches behind.
fn copy_sources(from: &Path, to: &Path) {
    fn walk(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for e in std::fs::read_dir(from).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, &to.join(e.file_name()));
            } else {
                std::fs::copy(&p, to.join(e.file_name())).expect("copy");
            }
        }
    }
    std::fs::create_dir_all(to).expect("mkdir");
    std::fs::copy(from.join("Cargo.toml"), to.join("Cargo.toml")).expect("copy Cargo.toml");
    walk(&from.join("src"), &to.join("src"));
}

/// The releases other than the default oracle's (`VGC_ORACLE_UPSTREAM=1.35`, `1.36`, or `1.38` for the pinned
/// pre-release; skipped without it, see `scripts/differential.sh`): k8s.io/api of that release (the newest patch, or
/// the pre-release itself) built under its
/// detected profile with 0 diagnostics, then random objects through that release's upstream validation-gen and
/// the vgc-generated Rust (`VGC_K8S_ORACLE_CASES`, `VGC_K8S_ORACLE_SEED`).
#[test]
fn older_release_agrees_with_its_generator() {
    let Ok(release) = std::env::var("VGC_ORACLE_UPSTREAM") else {
        eprintln!("skipped: set VGC_ORACLE_UPSTREAM=1.35 or 1.36");
        return;
    };
    let profile = harness::oracle_upstream();
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = vgc_tests::harness::e2e_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    // The newest patch of a release; for a profile proven against a pre-release generator, the same pre-release
    // (a `v0.38` query matches no pre-release).
    let api_query = if harness::released(profile) {
        format!("v0.{}", profile.minor())
    } else {
        harness::upstream_version().to_string()
    };
    let (api_dir, version) =
        harness::download_module(&format!("k8s.io/api@{api_query}"), tmp.path());
    harness::download_module(&format!("k8s.io/apimachinery@{version}"), tmp.path());
    let generated = e2e.join(format!("k8s-generated-{release}"));
    let req = BuildRequest {
        path: api_dir.clone(),
        out: Some(generated.clone()),
        crate_name: "k8s-generated".into(),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        // `--roots` takes 1.37's criterion syntax in every profile.
        extra_roots: vec!["TypesWithField=TypeMeta".into()],
        custom_stub: true,
        ..Default::default()
    };
    let _ = std::fs::remove_file(generated.join("src/custom.rs"));
    let out = vgc::build(&req);
    assert_eq!(
        out.profile.as_ref().map(|p| p.version),
        Some(profile),
        "{:?}",
        out.profile
    );
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "k8s.io/api {version}: {shown:?}");
    assert_eq!(out.stats.not_lowered, 0);
    eprintln!("k8s.io/api {version} (upstream {profile}): {:?}", out.stats);
    let harness = e2e.join(format!("harness-{release}"));
    let _ = std::fs::remove_dir_all(harness.join("src/bin"));
    std::fs::create_dir_all(harness.join("src")).expect("mkdir harness");
    std::fs::write(
        harness.join("Cargo.toml"),
        format!(
            "[package]\nname = \"k8s-e2e-harness\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nk8s-generated = {{ path = {:?} }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
            generated.to_string_lossy(),
            root.join("runtime").to_string_lossy()
        ),
    )
    .expect("write harness Cargo.toml");
    std::fs::write(harness.join("src/lib.rs"), "//! e2e harness\n").expect("lib.rs");
    k8s_oracle::random_k8s_objects_agree(Path::new(&api_dir), &version, &out.plan, &harness);
}

/// `go mod download -json <module>`, retried with the toolchain the module asks for when the local one is too
/// old (pre-releases may need a newer Go: k8s.io/api@v0.38.0-alpha.2's go.mod says `go 1.27`).
fn download_any_toolchain(module: &str, tmp: &Path) -> (String, String) {
    let run = |toolchain: &str| {
        Command::new("go")
            .args(["mod", "download", "-json", module])
            .current_dir(tmp)
            .env("GOFLAGS", "-mod=mod")
            .env("GOTOOLCHAIN", toolchain)
            .output()
            .expect("the `go` command runs")
    };
    let mut out = run("local");
    if !out.status.success() {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // "... requires go >= 1.27.0 (running go 1.25.1; GOTOOLCHAIN=local)"; `-json` output escapes `>` as
        // `\u003e`.
        let text = text.replace("\\u003e", ">");
        let wanted = text
            .split("requires go >= ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("go mod download {module}: {text}"));
        out = run(&format!("go{wanted}"));
    }
    assert!(
        out.status.success(),
        "go mod download {module}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("go mod download -json output");
    (
        v["Dir"].as_str().expect("Dir").to_string(),
        v["Version"].as_str().expect("Version").to_string(),
    )
}

/// The newest k8s.io/api, pre-releases included (resolved at test time through the Go module proxy), under its
/// detected profile: 0 diagnostics and 0 tags not lowered, the generated crate type-checks with `-D warnings` (`cargo check`), the
/// documentation site is generated, and `vgc lint --rules upstream` finds nothing (k8s.io/api lints clean with
/// upstream's own rules of its release).
#[test]
fn newest_k8s_api_prerelease_builds_and_lints_clean() {
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = vgc_tests::harness::e2e_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    let list = Command::new("go")
        .args(["list", "-m", "-versions", "-json", "k8s.io/api"])
        .current_dir(tmp.path())
        .env("GOFLAGS", "-mod=mod")
        .env("GO111MODULE", "on")
        .output()
        .expect("go list runs");
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&list.stdout).expect("go list -json");
    // `Versions` is in semver order, pre-releases included.
    let newest = v["Versions"]
        .as_array()
        .and_then(|a| a.last())
        .and_then(|x| x.as_str())
        .expect("k8s.io/api versions")
        .to_string();
    let (api_dir, version) = download_any_toolchain(&format!("k8s.io/api@{newest}"), tmp.path());
    download_any_toolchain(&format!("k8s.io/apimachinery@{version}"), tmp.path());
    let generated = e2e.join("k8s-generated-newest");
    let req = BuildRequest {
        path: api_dir.clone(),
        out: Some(generated.clone()),
        crate_name: "k8s-generated-newest".into(),
        runtime: RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        extra_roots: vec!["TypesWithField=TypeMeta".into()],
        custom_stub: true,
        ..Default::default()
    };
    let _ = std::fs::remove_file(generated.join("src/custom.rs"));
    let out = vgc::build(&req);
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "k8s.io/api {version}: {shown:?}");
    assert_eq!(out.stats.not_lowered, 0);
    assert!(out.io_error.is_none(), "{:?}", out.io_error);
    let profile = out.profile.clone().expect("profile");
    assert_eq!(
        Some(profile.version),
        vgc_ir::Upstream::from_module_version(&version)
    );
    eprintln!(
        "k8s.io/api {version} ({profile}): {:?}, {} files",
        out.stats,
        out.files.len()
    );
    // Type-checked with `-D warnings` (every rustc warning of the generated code surfaces there); the v0.37.2 crate
    // is fully built and run by `real_k8s_api_end_to_end`, so a second full build would only cost CI minutes.
    let status = harness::nested_cargo(
        &e2e,
        &["check", "--quiet"],
        &generated.join("Cargo.toml"),
        true,
    )
    .status()
    .expect("nested cargo runs");
    assert!(
        status.success(),
        "the generated crate of k8s.io/api {version} failed to type-check warning-free"
    );
    let site = vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &out.plan,
        docs: &vgc_docs_gen::GoDocs::read(&out.package_files),
        layout: None,
        module_version: None,
    })
    .expect("the built-in templates render");
    assert!(
        site.iter().any(|(p, t)| p == "index.html"
            && t.contains(&format!("validation-gen {}", profile.version))),
        "the site names the profile"
    );
    let settings = vgc::LintSettings {
        upstream_only: true,
        ..Default::default()
    };
    let mut lint_req = req.clone();
    lint_req.out = None;
    lint_req.check_only = true;
    let lint = vgc::lint(&lint_req, &settings);
    let findings: Vec<String> = lint
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &lint.sources))
        .collect();
    assert!(
        findings.is_empty(),
        "vgc lint --rules upstream on k8s.io/api {version}: {findings:?}"
    );
    // Without the `validation-gen-nolint` lines that opt `+enum` types out, upstream 1.38's enum rule (VGC0305)
    // reports exactly those types (83 in v0.38.0-alpha.2).
    if profile.version.lint_enum_marker() {
        let copy = tmp.path().join("api-without-nolint");
        let opted_out = copy_without_enum_nolint(Path::new(&api_dir), &copy);
        let mut req = lint_req.clone();
        req.path = copy.to_string_lossy().into_owned();
        req.upstream = Some(profile.clone());
        let lint = vgc::lint(&req, &settings);
        let mut reported: Vec<String> = lint
            .diagnostics
            .iter()
            .filter(|d| d.code == vgc_ir::Code::LintEnumMarker)
            .filter_map(|d| {
                let file = d.file.as_ref()?;
                let text = lint.sources.get(file)?;
                // The finding points at the `+enum` marker; the type is the next declaration.
                let rest = &text[d.span.start..];
                let at = rest.find("\ntype ")?;
                let name: String = rest[at + 6..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let pkg = Path::new(file).parent()?.strip_prefix(&copy).ok()?;
                Some(format!("{}.{name}", pkg.display()))
            })
            .collect();
        reported.sort();
        let others: Vec<String> = lint
            .diagnostics
            .iter()
            .filter(|d| d.code != vgc_ir::Code::LintEnumMarker)
            .map(|d| vgc::render::short(d, &lint.sources))
            .collect();
        assert!(others.is_empty(), "{others:?}");
        eprintln!(
            "k8s.io/api {version} without the +enum opt-outs: {} nolint lines removed, {} VGC0305 findings",
            opted_out.len(),
            reported.len()
        );
        assert_eq!(reported, opted_out);
        if version == "v0.38.0-alpha.2" {
            assert_eq!(reported.len(), 83);
        }
    }
}

/// Copies the Go module at `from` to `to` (`.go` files and `go.mod`), dropping each `+k8s:validation-gen-nolint`
/// line of a comment block that also carries `+enum` and no `+k8s:enum`; returns the types so opted out
/// (`<package dir>.<Type>`, sorted).
fn copy_without_enum_nolint(from: &Path, to: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![from.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let p = e.path();
            let rel = p.strip_prefix(from).expect("under from");
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if !(name.ends_with(".go") || name == "go.mod") {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("read");
            let lines: Vec<&str> = text.lines().collect();
            let mut keep = vec![true; lines.len()];
            let mut i = 0;
            while i < lines.len() {
                if !lines[i].starts_with("//") {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < lines.len() && lines[i].starts_with("//") {
                    i += 1;
                }
                let block = &lines[start..i];
                let ty = lines.get(i).and_then(|l| l.strip_prefix("type "));
                if let Some(ty) = ty
                    && block.iter().any(|l| l.trim() == "// +enum")
                    && !block.iter().any(|l| l.contains("+k8s:enum"))
                {
                    for (k, l) in block.iter().enumerate() {
                        if l.trim() == "// +k8s:validation-gen-nolint" {
                            keep[start + k] = false;
                            let tname: String = ty
                                .chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect();
                            let pkg = rel
                                .parent()
                                .map(|d| d.display().to_string())
                                .unwrap_or_default();
                            out.push(format!("{pkg}.{tname}"));
                        }
                    }
                }
            }
            let kept: Vec<&str> = lines
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(l, _)| *l)
                .collect();
            let dest = to.join(rel);
            std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
            std::fs::write(&dest, kept.join("\n") + "\n").expect("write");
        }
    }
    out.sort();
    out
}

/// tree-sitter reads Go files without their comment bodies (`vgc_parser::go::parse`, issue 12's cold build); on
/// every non-test `.go` file of the newest k8s.io/api and its k8s.io/apimachinery — inputs nobody here wrote,
/// mostly doc comments — the summary (types, fields, tags, comment groups, constants, every offset and line)
/// equals the one from the whole text (`parse_whole_text`).
#[test]
fn real_go_files_read_the_same_without_comment_bodies() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (api, version) = harness::download_module("k8s.io/api@latest", tmp.path());
    let (machinery, _) =
        harness::download_module(&format!("k8s.io/apimachinery@{version}"), tmp.path());
    let mut files = Vec::new();
    for root in [&api, &machinery] {
        let mut stack = vec![PathBuf::from(root)];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).expect("a module directory") {
                let p = e.expect("an entry").path();
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if p.is_dir() {
                    stack.push(p);
                } else if name.ends_with(".go") && !name.ends_with("_test.go") {
                    files.push(p);
                }
            }
        }
    }
    let mut parsed = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a Go file");
        if !vgc_parser::go::may_declare(&text, "k8s:") {
            continue;
        }
        parsed += 1;
        assert!(
            vgc_parser::go::parse(&text) == vgc_parser::go::parse_whole_text(&text),
            "{}: the summary differs without comment bodies",
            f.display()
        );
    }
    // k8s.io/api alone has a types.go per group/version (60 at v0.37).
    assert!(
        parsed > 200,
        "only {parsed} of {} files parsed",
        files.len()
    );
}
