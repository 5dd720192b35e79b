//! `vgc docs` on the bundled example: the site's pages and index, every link and anchor resolves, it works offline,
//! and headless Chromium loads the pages without console errors and its search finds a field. The same checks run
//! over the k8s.io/api site in `k8s_e2e.rs`.

use vgc_tests::site_check;

use std::path::Path;
use vgc::driver::BuildRequest;

fn example_site(dir: &Path) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    let out = vgc::build(&BuildRequest::check(
        root.join("examples/api").to_string_lossy().into_owned(),
        Vec::new(),
    ));
    assert_eq!(vgc::exit_code(&out), 0);
    let files = vgc_docs_gen::site(&out.plan, None);
    for (rel, text) in &files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    files
}

#[test]
fn site_pages_links_and_search() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let files = example_site(tmp.path());
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "api/meta/v1.html",
            "api/widgets/v1.html",
            "diagnostics.html",
            "index.html",
            "search-index.js",
            "search.js",
            "style.css",
            "tags.html"
        ]
    );
    let api = &files
        .iter()
        .find(|(p, _)| p == "api/widgets/v1.html")
        .expect("page")
        .1;
    // A field with its rules in words, a cross-field rule linking its members, an option-guarded rule.
    assert!(api.contains("<tr id=\"WidgetSpec.replicas\"><td><code>replicas</code></td><td><code>*int32</code></td><td>optional</td><td>at most 10<br>at least 1</td></tr>"), "{api}");
    assert!(api.contains("<a href=\"#Endpoint.host\">host</a>"));
    assert!(api.contains("only while option WidgetGPU is enabled"));
    let (pages, links) = site_check::check_links(tmp.path());
    assert_eq!(pages, 5);
    assert!(links > 50, "{links} links checked");

    // Every page loads without a console message.
    for (rel, _) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let dom = site_check::browser_dom(&tmp.path().join(rel), "");
        assert!(dom.contains("<main>"), "{rel}");
    }
    let dom = site_check::browser_dom(&tmp.path().join("index.html"), "#q=replicas");
    assert!(
        dom.contains("<a href=\"api/widgets/v1.html#WidgetSpec.replicas\">WidgetSpec.replicas</a>"),
        "search result missing:\n{dom}"
    );
    let dom = site_check::browser_dom(&tmp.path().join("api/widgets/v1.html"), "#q=maxItems");
    assert!(
        dom.contains("<a href=\"../../tags.html#maxItems\">k8s:maxItems</a>"),
        "{dom}"
    );
}

#[test]
fn tag_reference_json_has_upstream_shape() {
    let v = vgc_docs_gen::tag_reference_json();
    let tags = v.as_array().expect("array");
    assert_eq!(tags.len(), 45);
    let names: Vec<&str> = tags.iter().filter_map(|t| t["Tag"].as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "sorted by Tag");
    let max_items = tags
        .iter()
        .find(|t| t["Tag"] == "k8s:maxItems")
        .expect("maxItems");
    assert_eq!(max_items["StabilityLevel"], "Stable");
    assert_eq!(max_items["Usage"], "k8s:maxItems=<int>");
    assert_eq!(max_items["PayloadsType"], "int");
    let item = tags.iter().find(|t| t["Tag"] == "k8s:item").expect("item");
    assert_eq!(item["AcceptsUnknownArgs"], true);
}

#[test]
fn api_reference_shows_typedef_chains_and_version_differences() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    let site = |rel: &str| {
        let out = vgc::build(&BuildRequest::check(
            root.join(rel).to_string_lossy().into_owned(),
            Vec::new(),
        ));
        assert_eq!(vgc::exit_code(&out), 0);
        vgc_docs_gen::site(&out.plan, None)
    };
    let page = |files: &[(String, String)], p: &str| {
        files.iter().find(|(f, _)| f == p).expect("page").1.clone()
    };
    let conformance = site("tests/conformance");
    assert!(page(&conformance, "api/structure.html").contains(
        "<td>must be a k8s-short-name <span class=\"muted\">(through Alias → Name → string)</span></td>"
    ));
    let drift = site("tests/fixtures/lint/drift");
    assert!(page(&drift, "api/widgets/v1.html").contains(
        "<li><a href=\"#Widget.replicas\">replicas</a>: v1beta1: maximum=10, optional; v1: maximum=5, optional</li>"
    ));
    // A custom layout replaces the built-in one.
    let out = vgc::build(&BuildRequest::check(
        root.join("examples/api").to_string_lossy().into_owned(),
        Vec::new(),
    ));
    let custom = vgc_docs_gen::site(
        &out.plan,
        Some("<html><title>{{title}}</title><body data-root=\"{{root}}\">{{body}}</body></html>"),
    );
    assert!(page(&custom, "tags.html").starts_with(
        "<html><title>Tag reference</title><body data-root=\"\"><h1>Tag reference</h1>"
    ));
}

/// Writes the examples (without `k8s:validateError`) as one Go package under `dir`.
fn write_examples(dir: &Path, skip_error: bool) {
    std::fs::create_dir_all(dir.join("examples")).expect("mkdir");
    std::fs::write(
        dir.join("go.mod"),
        "module example.com/tagexamples\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::write(
        dir.join("examples/doc.go"),
        "// +k8s:validation-gen=*\npackage examples\n",
    )
    .expect("doc.go");
    let mut text = vgc_docs_gen::examples::PRELUDE.to_string();
    for (tag, ex) in vgc_docs_gen::examples::EXAMPLES {
        if skip_error && *tag == "k8s:validateError" {
            continue;
        }
        text.push('\n');
        text.push_str(ex);
        text.push('\n');
    }
    std::fs::write(dir.join("examples/types.go"), text).expect("types.go");
}

#[test]
fn every_tag_example_builds_and_its_generated_rust_compiles() {
    let names: Vec<&str> = vgc_docs_gen::examples::EXAMPLES
        .iter()
        .map(|(t, _)| *t)
        .collect();
    let catalog: Vec<&str> = vgc_ir::catalog::TAGS.iter().map(|t| t.name).collect();
    assert_eq!(
        names, catalog,
        "one example per catalog tag, in catalog order"
    );
    for (tag, ex) in vgc_docs_gen::examples::EXAMPLES {
        assert!(
            ex.contains(&format!("+{tag}")),
            "{tag}: its example does not use it"
        );
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    let work = root.join("target/e2e/tag-examples");
    let _ = std::fs::remove_dir_all(&work);
    write_examples(&work.join("src"), true);
    let out = vgc::build(&BuildRequest {
        path: work.join("src").to_string_lossy().into_owned(),
        out: Some(work.join("crate")),
        crate_name: "tag-examples".into(),
        runtime: vgc_codegen::RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned()),
        custom_stub: true,
        ..Default::default()
    });
    let shown: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources))
        .collect();
    assert!(shown.is_empty(), "{shown:#?}");
    assert_eq!(out.stats.not_lowered, 0);
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--quiet", "--manifest-path"])
            .arg(work.join("crate/Cargo.toml"))
            .env("CARGO_TARGET_DIR", root.join("target/e2e/target"))
            .env("RUSTFLAGS", "-D warnings")
            .status()
            .expect("cargo runs");
    assert!(
        status.success(),
        "the crate generated from the tag examples does not compile warning-free"
    );

    // validateError's example fails generation, as the tag is meant to.
    let err_dir = work.join("error");
    write_examples(&err_dir, false);
    let out = vgc::build(&BuildRequest::check(
        err_dir.to_string_lossy().into_owned(),
        Vec::new(),
    ));
    let errors: Vec<String> = out.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("validateError"), "{errors:?}");
}

#[test]
fn every_diagnostic_code_has_an_explanation_and_an_example() {
    for c in vgc_ir::ALL_CODES {
        assert!(
            vgc_docs_gen::examples::diagnostic_example(c.as_str()).is_some_and(|e| !e.is_empty()),
            "{} has no example",
            c.as_str()
        );
    }
    let md = vgc_docs_gen::diagnostics_markdown();
    assert_eq!(md.lines().count(), 2 + vgc_ir::ALL_CODES.len());
    assert!(md.contains("| VGC0102 | unknown-tag | error | An unknown or misspelled `+k8s:` tag validates nothing; upstream ignores it silently. | `// +k8s:maxItem=3   (did you mean k8s:maxItems?)` |"), "{md}");
}

/// Reliability R15: JSON field names come from struct tags the API author (or an attacker's pull request) writes;
/// they reach the API pages as text, anchors and links and must never become markup.
#[test]
fn hostile_json_names_are_escaped_everywhere() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let m = tmp.path();
    std::fs::write(m.join("go.mod"), "module example.com/hostile\n\ngo 1.23\n").expect("go.mod");
    std::fs::create_dir_all(m.join("v1")).expect("mkdir");
    std::fs::write(
        m.join("v1/doc.go"),
        "// +k8s:validation-gen=*\n// +k8s:validation-gen-nolint\npackage v1\n",
    )
    .expect("doc.go");
    // Hostile names as a plain field, as union members (type-rule links) and as a dependent trigger.
    std::fs::write(
        m.join("v1/types.go"),
        "package v1\n\n// +k8s:validation-gen=*\ntype Evil struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tA string `json:\"<script>alert(1)</script>,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:unionMember\n\tB *string `json:\"x\\\" onmouseover=\\\"alert(2),omitempty\"`\n\t// +k8s:optional\n\t// +k8s:unionMember\n\tC *string `json:\"</a><img src=x onerror=alert(3)>,omitempty\"`\n}\n",
    )
    .expect("types.go");
    let out = vgc::build(&BuildRequest::check(
        m.to_string_lossy().into_owned(),
        Vec::new(),
    ));
    assert_eq!(
        vgc::exit_code(&out),
        0,
        "{:?}",
        out.diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
    let files = vgc_docs_gen::site(&out.plan, None);
    let (_, page) = files
        .iter()
        .find(|(p, _)| p == "api/v1.html")
        .expect("the package page");
    for hostile in [
        "<script>alert(1)",
        "<img src=x",
        "\" onmouseover=\"alert(2)",
        "</a><img",
    ] {
        assert!(
            !page.contains(hostile),
            "{hostile} reached the page unescaped"
        );
    }
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "the name is shown, escaped"
    );
    assert!(page.contains("&lt;/a&gt;&lt;img src=x onerror=alert(3)&gt;"));
    // Every page; the search index is data in a .js file (JSON strings) that search.js shows with textContent.
    for (p, text) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        assert!(!text.contains("<script>alert"), "{p}");
    }
}
