//! `--tag-prefix` (upstream validation-gen 1.38, kubernetes#141866) on the command line: upstream's validation
//! message as a usage error (exit 2), the `vgc.toml` `[upstream] tag-prefix` equivalent, the tag reference
//! qualified with the prefix, and the summary of a build under it.

use std::path::Path;
use std::process::{Command, Output};

fn vgc(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("vgc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A module whose tags are written `+acme:`, with `vgc_toml` as its `vgc.toml` (none when empty).
fn acme_module(vgc_toml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |p: &str, t: &str| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, t).expect("write");
    };
    write("go.mod", "module example.com/p\n\ngo 1.25\n");
    write(
        "v1/doc.go",
        "// +acme:validation-gen=TypesWithField=TypeMeta\npackage v1\n",
    );
    write(
        "v1/types.go",
        "package v1\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +acme:optional\n\t// +acme:maxItems=3\n\tItems []string `json:\"items,omitempty\"`\n\t// +acme:maxLength=3\n\tName *string `json:\"name,omitempty\"`\n}\n",
    );
    if !vgc_toml.is_empty() {
        write("vgc.toml", vgc_toml);
    }
    dir
}

#[test]
fn an_invalid_prefix_is_a_usage_error_with_upstreams_message() {
    let m = acme_module("");
    for cmd in ["check", "lint", "graph", "build"] {
        for bad in ["acme", "acme::", "1x:", "a b:"] {
            let out = vgc(m.path(), &[cmd, "--tag-prefix", bad]);
            assert_eq!(out.status.code(), Some(2), "{cmd} {bad}");
            assert_eq!(
                text(&out.stderr),
                format!(
                    "error: --tag-prefix \"{bad}\" must be empty or one or more ':'-terminated tag name segments (e.g. \"k8s:\")\n"
                ),
                "{cmd}"
            );
        }
    }
    let out = vgc(
        m.path(),
        &["docs", "--format", "tags-json", "--tag-prefix", "k8s"],
    );
    assert_eq!(out.status.code(), Some(2));
    let bad = acme_module("[upstream]\ntag-prefix = \"acme\"\n");
    let out = vgc(bad.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}:2:14: upstream.tag-prefix: \"acme\" must be empty or one or more ':'-terminated tag name segments (e.g. \"k8s:\")\n",
            bad.path().join("vgc.toml").display()
        )
    );
}

#[test]
fn the_prefix_comes_from_the_flag_or_vgc_toml() {
    // The flag: Name's validation without optional/required is upstream's lint error, named with the prefix.
    let m = acme_module("");
    let out = vgc(m.path(), &["check", "--short", "--tag-prefix", "acme:"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("v1/types.go:11:2: error[VGC0303]: field Name: field with validation must have +acme:optional, +acme:required or +acme:forbidden"),
        "{stderr}"
    );
    assert!(
        stderr.contains("(upstream 1.38: default: newest; no k8s.io module version in go.mod; tag prefix \"acme:\")"),
        "{stderr}"
    );
    // vgc.toml, for every command; `--tag-prefix` wins over it.
    let m = acme_module("[upstream]\ntag-prefix = \"acme:\"\n");
    let out = vgc(m.path(), &["lint", "--format", "json"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("+acme:optional, +acme:required or +acme:forbidden"),
        "{stdout}"
    );
    let out = vgc(m.path(), &["check", "--tag-prefix", "k8s:"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(" 0 tags "), "{stderr}");
}

#[test]
fn docs_qualify_tag_names_with_the_prefix() {
    let m = acme_module("");
    let out = vgc(
        m.path(),
        &["docs", "--format", "tags-json", "--tag-prefix", "acme:"],
    );
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let tags: Vec<&str> = json
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["Tag"].as_str().expect("Tag"))
        .collect();
    assert!(
        tags.contains(&"acme:maxItems") && tags.contains(&"acme:alpha"),
        "{tags:?}"
    );
    assert!(tags.iter().all(|t| t.starts_with("acme:")), "{tags:?}");
    let alpha = &json[tags.iter().position(|t| *t == "acme:alpha").expect("alpha")];
    assert_eq!(alpha["Usage"], "acme:alpha(since: <string>)=<tag>");
    // The default prefix: the reference as before.
    let plain = vgc(m.path(), &["docs", "--format", "tags-json"]);
    assert!(text(&plain.stdout).contains("\"Tag\": \"k8s:maxItems\""));
    assert!(!text(&plain.stdout).contains("acme:"));
    // `vgc explain` takes the tag as written under the prefix.
    let explain = vgc(
        m.path(),
        &["explain", "acme:maxItems", "--tag-prefix", "acme:"],
    );
    assert_eq!(explain.status.code(), Some(0));
    assert!(
        text(&explain.stdout).starts_with("+acme:maxItems ("),
        "{}",
        text(&explain.stdout)
    );
    // The markdown reference and the site of the package.
    let md = text(
        &vgc(
            m.path(),
            &["docs", "--format", "tags-markdown", "--tag-prefix", "acme:"],
        )
        .stdout,
    );
    assert!(
        md.contains("acme:maxItems") && !md.contains("k8s:maxItems"),
        "{md}"
    );
    std::fs::write(
        m.path().join("v1/types.go"),
        "package v1\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +acme:optional\n\t// +acme:maxItems=3\n\tItems []string `json:\"items,omitempty\"`\n}\n",
    )
    .expect("write");
    let site = m.path().join("site");
    let out = vgc(
        m.path(),
        &[
            "docs",
            "--tag-prefix",
            "acme:",
            "--out",
            site.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut pages = String::new();
    for e in std::fs::read_dir(&site).expect("site").flatten() {
        if e.path().is_file() {
            pages.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
        }
    }
    assert!(pages.contains("acme:maxItems"), "{pages}");
    assert!(!pages.contains("k8s:maxItems"), "{pages}");
}
