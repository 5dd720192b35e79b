//! `vgc docs` on the bundled example: the site's pages and index, every link and anchor resolves, it works offline,
//! and headless Chromium loads the pages without console errors and its search finds a field. The same checks run
//! over the k8s.io/api site in `k8s_e2e.rs`.

use vgc_tests::site_check;

use std::path::Path;
use vgc::driver::BuildRequest;

/// The site of the package tree at `rel` (relative to the workspace), with its doc comments and `layout`.
fn site_of(rel: &str, layout: Option<&str>) -> Vec<(String, String)> {
    let root = vgc_tests::example::workspace_root();
    let out = vgc::build(&BuildRequest::check(
        root.join(rel).to_string_lossy().into_owned(),
        Vec::new(),
    ));
    assert_eq!(vgc::exit_code(&out), 0);
    vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &out.plan,
        docs: &vgc_docs_gen::GoDocs::read(&out.package_files),
        layout,
        module_version: None,
    })
    .expect("the site renders")
}

fn write_site(dir: &Path, files: &[(String, String)]) {
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

fn page(files: &[(String, String)], p: &str) -> String {
    files
        .iter()
        .find(|(f, _)| f == p)
        .unwrap_or_else(|| panic!("no page {p}"))
        .1
        .clone()
}

fn example_site(dir: &Path) -> Vec<(String, String)> {
    let files = site_of("examples/api", None);
    for (rel, text) in &files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    files
}

/// Every relative link of the example's site, and every file a page names in its text, is a file of the site (with
/// the anchor it names). Fast tier: this ran only beside the Chromium checks (slow tier), and read only `href`/`src`
/// attributes, so the index's "see docs/upstream.md" — a repository path no site has — went unseen (issue 37).
#[test]
fn site_links_and_named_files_resolve() {
    let tmp = tempfile::tempdir().expect("tempdir");
    example_site(tmp.path());
    let (pages, links) = site_check::check_links(tmp.path());
    assert_eq!(pages, 5);
    assert!(links > 50, "{links} links checked");
}

#[test]
fn site_pages_links_and_search() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CHROMIUM) {
        return;
    }
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
    assert!(api.contains("<tr id=\"WidgetSpec.replicas\"><td data-label=\"field\"><code>replicas</code></td><td data-label=\"type\">integer</td><td data-label=\"presence\"><strong>optional</strong></td><td data-label=\"rules\"><ul class=\"rules\"><li>at most 10</li><li>at least 1</li>\n</ul></td></tr>"), "{api}");
    assert!(api.contains("<a href=\"#Endpoint.host\">host</a>"));
    assert!(api.contains("only while option WidgetGPU is enabled"));

    // Every page loads without a console message.
    for (rel, _) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let dom = site_check::browser_dom(&tmp.path().join(rel), "");
        assert!(dom.contains("<main>"), "{rel}");
    }
    let dom = site_check::browser_dom(&tmp.path().join("index.html"), "#q=replicas");
    assert!(
        dom.contains(
            "<a href=\"api/widgets/v1.html#WidgetSpec.replicas\">widgets/v1.WidgetSpec.replicas</a>"
        ),
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
    assert_eq!(tags.len(), 46);
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
    let conformance = site_of("tests/conformance", None);
    assert!(page(&conformance, "api/structure.html").contains(
        "<li>must be a k8s-short-name <span class=\"muted\">(through Alias → Name → string)</span></li>"
    ));
    let drift = site_of("tests/fixtures/lint/drift", None);
    // Differences between versions in words, typedef rules included.
    assert!(page(&drift, "api/widgets/v1.html").contains(
        "<li><a href=\"#Widget.mode\">mode</a>: v1beta1: optional, one of &quot;A&quot; (through Mode → string); v1: optional, one of &quot;A&quot;, &quot;B&quot; (through Mode → string)</li>"
    ));
    assert!(page(&drift, "api/widgets/v1.html").contains(
        "<li><a href=\"#Widget.replicas\">replicas</a>: v1beta1: optional, at most 10; v1: optional, at most 5</li>"
    ));
    // A custom layout (a minijinja template) replaces the built-in one; the title is escaped, the body is not.
    let custom = site_of(
        "examples/api",
        Some("<html><title>{{title}}</title><body data-root=\"{{root}}\">{{body}}</body></html>"),
    );
    assert!(page(&custom, "tags.html").starts_with(
        "<html><title>Tag reference</title><body data-root=\"\"><h1>Tag reference</h1>"
    ));
    // A layout with a template error is an error naming its line, not a panic or a half-written site.
    let root = vgc_tests::example::workspace_root();
    let out = vgc::build(&BuildRequest::check(
        root.join("examples/api").to_string_lossy().into_owned(),
        Vec::new(),
    ));
    let err = vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &out.plan,
        docs: &vgc_docs_gen::GoDocs::default(),
        layout: Some("<html>\n{{ body }\n</html>"),
        module_version: None,
    })
    .expect_err("a broken layout");
    assert!(
        err.to_string().contains("(in layout.html, line 2)"),
        "{err}"
    );
}

/// The tag page: every table's header has one cell per column, Markdown is rendered (no literal backticks), the
/// test-only tags have their own section, and `format` lists every format with its meaning.
#[test]
fn tag_page_tables_markdown_test_only_section_and_formats() {
    let files = site_of("examples/api", None);
    let tags = page(&files, "tags.html");
    for table in tags.split("<table").skip(1) {
        let table = &table[..table.find("</table>").expect("closed")];
        let header = table.matches("<th>").count();
        for row in table.split("<tr").skip(2) {
            assert_eq!(row.matches("<td").count(), header, "{row}");
        }
    }
    let main = &tags[tags.find("<main>").expect("main")..];
    let text_only: String = main
        .split("<pre>")
        .map(|s| s.split_once("</pre>").map_or(s, |x| x.1))
        .collect();
    assert!(
        !text_only.contains('`'),
        "a literal backtick outside examples"
    );
    assert!(tags.contains("<code>+k8s:optional</code>"));
    let (real, rest) = tags
        .split_once("<h2 id=\"extensions\">")
        .expect("extensions section");
    let (extensions, test_only) = rest
        .split_once("<h2 id=\"test-only\">")
        .expect("test-only section");
    for t in vgc_ir::catalog::TAGS {
        let anchor = format!(
            "<section class=\"tag\" id=\"{}\">",
            t.name().trim_start_matches("k8s:")
        );
        let section = if t.id.is_test_only() {
            test_only
        } else if t.id.is_extension() {
            extensions
        } else {
            real
        };
        let count = [real, extensions, test_only]
            .iter()
            .filter(|s| s.contains(&anchor))
            .count();
        assert!(section.contains(&anchor) && count == 1, "{}", t.name());
    }
    for (name, _) in vgc_ir::catalog::FORMAT_DOCS {
        assert!(
            tags.contains(&format!(
                "<tr id=\"format-{name}\"><td data-label=\"format\"><code>{name}</code></td>"
            )),
            "{name}"
        );
    }
    assert!(tags.contains("<td data-label=\"accepts\">a lowercase RFC 1123 label: at most 63 lowercase alphanumeric characters or <code>-</code>, starting and ending with an alphanumeric character (<code>my-name</code>)</td>"));
    insta::assert_snapshot!("tags_page", main);
}

/// API pages: doc comments, apiVersion/kind and coverage for root types, a table of contents, JSON type names,
/// rules in words only, presence, and a viewport.
#[test]
fn api_pages_docs_kinds_toc_json_types_and_words() {
    let files = site_of("examples/api", None);
    let api = page(&files, "api/widgets/v1.html");
    assert!(
        api.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
    );
    assert!(api.contains("<p class=\"kind\"><code>apiVersion: widgets.example.com/v1</code> <code>kind: Widget</code>"), "{api}");
    assert!(api.contains("<p>Widget is a root type: it has a TypeMeta field. Its validation also serves the status subresource.</p>"));
    assert!(api.contains("<nav class=\"toc\" aria-label=\"contents\">\n<p>Kinds:</p>\n<ul><li><a href=\"#Gadget\">Gadget</a></li><li><a href=\"#Widget\">Widget</a></li></ul>"), "{api}");
    for go_spelling in ["*int32", "[]string", "map[string]", "*WidgetSpec"] {
        assert!(!api.contains(go_spelling), "{go_spelling} on the page");
    }
    for notation in [
        "beta:",
        "alpha:",
        "Union(",
        "ZeroOrOneOf(",
        "noNilElements",
        "eachVal(",
        "subfield(",
        "item(",
        "mode(",
    ] {
        assert!(
            !api.contains(notation),
            "internal notation {notation} on the page"
        );
    }
    assert!(
        api.contains(">array of string<") || api.contains(">array of "),
        "JSON array type"
    );
    assert!(api.contains("<strong>required</strong>"));
    let coverage = api
        .split("<span class=\"muted\">")
        .nth(2)
        .and_then(|s| s.split_once("</span>"))
        .map(|s| s.0)
        .expect("coverage line");
    assert!(
        coverage.ends_with(" beta") && coverage.contains(" declarative rules, "),
        "{coverage}"
    );
    let main = &api[api.find("<main>").expect("main")..];
    insta::assert_snapshot!("widgets_v1_page", main);
}

/// The site in headless Chromium: at 390 CSS pixels wide no page is wider than the window (tables become one block
/// per row), at 1280 the tables are tables; screenshots of the tag page and an API page at both widths are PNGs of
/// the window's size. The comparison is on layout properties the page measures itself, not on pixels (fonts differ
/// between machines). Screenshots go to `$VGC_SITE_SHOTS` when set (to look at them), else to a temporary dir.
#[test]
fn site_layout_fits_390px_and_screenshots() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CHROMIUM) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let files = example_site(tmp.path());
    let conformance = tmp.path().join("conformance");
    write_site(&conformance, &site_of("tests/conformance", None));
    let mut pages: Vec<std::path::PathBuf> = files
        .iter()
        .filter(|(p, _)| p.ends_with(".html"))
        .map(|(p, _)| tmp.path().join(p))
        .collect();
    pages.push(conformance.join("api/structure.html"));
    for p in &pages {
        let narrow = site_check::layout(p, 390);
        assert_eq!(narrow["viewport"], 390, "{}: {narrow}", p.display());
        assert!(
            narrow["scrollWidth"].as_u64().expect("scrollWidth") <= 390,
            "{}: wider than 390 px: {narrow}",
            p.display()
        );
        assert_eq!(
            narrow["overflowing"],
            serde_json::json!([]),
            "{}",
            p.display()
        );
        let wide = site_check::layout(p, 1280);
        assert!(
            wide["scrollWidth"].as_u64().expect("scrollWidth") <= 1280,
            "{wide}"
        );
        if narrow["cellDisplay"] != "" {
            assert_eq!(narrow["cellDisplay"], "block", "{}", p.display());
            assert_eq!(wide["cellDisplay"], "table-cell", "{}", p.display());
        }
    }
    let shots = std::env::var_os("VGC_SITE_SHOTS")
        .map_or_else(|| tmp.path().join("shots"), std::path::PathBuf::from);
    std::fs::create_dir_all(&shots).expect("mkdir");
    for (name, rel) in [
        ("tags", "tags.html"),
        ("example-widgets-v1", "api/widgets/v1.html"),
    ] {
        for (w, h) in [(390, 844), (1280, 900)] {
            let png = shots.join(format!("{name}-{w}.png"));
            assert_eq!(
                site_check::screenshot(&tmp.path().join(rel), w, h, &png),
                (w, h),
                "{}",
                png.display()
            );
        }
    }
}

/// Writes the examples (without `k8s:validateError`) as one Go package under `dir`, with vgc's extensions enabled
/// (the extension tags have examples too).
fn write_examples(dir: &Path, skip_error: bool) {
    std::fs::create_dir_all(dir.join("examples")).expect("mkdir");
    std::fs::write(
        dir.join("go.mod"),
        "module example.com/tagexamples\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::write(dir.join("vgc.toml"), "[extensions]\nenabled = true\n").expect("vgc.toml");
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

/// One example per catalog tag, in catalog order, each using its tag — in the fast tier, so a new tag without an
/// example fails before the slow test below builds them.
#[test]
fn every_catalog_tag_has_one_example_that_uses_it() {
    let names: Vec<&str> = vgc_docs_gen::examples::EXAMPLES
        .iter()
        .map(|(t, _)| *t)
        .collect();
    let catalog: Vec<&str> = vgc_ir::catalog::TAGS.iter().map(|t| t.name()).collect();
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
}

#[test]
fn every_tag_example_builds_and_its_generated_rust_compiles() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let root = vgc_tests::example::workspace_root();
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
    let status = vgc_tests::harness::nested_cargo(
        &root.join("target/e2e"),
        &["build", "--quiet"],
        &work.join("crate/Cargo.toml"),
        true,
    )
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
    // Hostile names as a plain field, as union members (type-rule links) and as a dependent trigger; hostile doc
    // comments (HTML, Markdown links and images) on the package (its group name), a type and a field; hostile enum
    // values (rules in words).
    std::fs::write(
        m.join("v1/doc.go"),
        "// +k8s:validation-gen=*\n// +k8s:validation-gen-nolint\n// +groupName=<script>alert(4)</script>\npackage v1\n",
    )
    .expect("doc.go");
    std::fs::write(
        m.join("v1/types.go"),
        "package v1\n\n// Evil <script>alert(5)</script> [a](javascript:alert(6)) ![b](x.png) <img src=y onerror=alert(7)>\n//\n// <script>alert(8)</script>\n// +k8s:validation-gen=*\ntype Evil struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tA string `json:\"<script>alert(1)</script>,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:unionMember\n\tB *string `json:\"x\\\" onmouseover=\\\"alert(2),omitempty\"`\n\t// +k8s:optional\n\t// +k8s:unionMember\n\tC *string `json:\"</a><img src=x onerror=alert(3)>,omitempty\"`\n\t// D <script>alert(9)</script> [c](javascript:alert(10))\n\t// +k8s:optional\n\tD Mood `json:\"d,omitempty\"`\n}\n\n// +k8s:enum\ntype Mood string\n\nconst MoodEvil Mood = \"<script>alert(11)</script>\"\n",
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
    let files = vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &out.plan,
        docs: &vgc_docs_gen::GoDocs::read(&out.package_files),
        layout: None,
        module_version: None,
    })
    .expect("the site renders");
    let (_, page) = files
        .iter()
        .find(|(p, _)| p == "api/v1.html")
        .expect("the package page");
    for hostile in [
        "<script>alert(",
        "<img src=x",
        "<img src=y",
        "\" onmouseover=\"alert(2)",
        "</a><img",
        "javascript:",
        "x.png",
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
    // The doc comments, group name and enum value are shown as text.
    assert!(page.contains("<p>Evil &lt;script&gt;alert(5)&lt;/script&gt; a b &lt;img src=y onerror=alert(7)&gt;</p>"), "{page}");
    assert!(page.contains("&lt;script&gt;alert(8)&lt;/script&gt;"));
    assert!(page.contains("D &lt;script&gt;alert(9)&lt;/script&gt; c"));
    assert!(
        page.contains("apiVersion <code>&lt;script&gt;alert(4)&lt;/script&gt;/v1</code>"),
        "{page}"
    );
    assert!(
        page.contains("<li>one of &quot;&lt;script&gt;alert(11)&lt;/script&gt;&quot;</li>"),
        "{page}"
    );
    // Every page; the search index is data in a .js file (JSON strings) that search.js shows with textContent.
    for (p, text) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        assert!(!text.contains("<script>alert"), "{p}");
    }
}

/// Virtual groups (vgc extension): the group's rule is on the ancestor that checks it, and each member's own row says
/// which group it is in and where that group is checked (fields below the ancestor and list-map items included).
#[test]
fn virtual_group_members_are_marked_on_their_rows() {
    let files = site_of("tests/extensions", None);
    let p = page(&files, "api/virtual_.html");
    let row = |anchor: &str| {
        let start = p
            .find(&format!("id=\"{anchor}\""))
            .unwrap_or_else(|| panic!("no row {anchor}"));
        let end = p[start..].find("</tr>").map_or(p.len(), |e| start + e);
        p[start..end].to_string()
    };
    assert!(
        row("JobSpec.image").contains("<li>member of group source (virtual fields, a vgc extension): exactly one member must be set, checked on JobSpec</li>"),
        "{}",
        row("JobSpec.image")
    );
    assert!(row("BuildSpec.git").contains("member of group source"));
    assert!(row("JobStatus.assignedOwner").contains(
        "member of group owner (virtual fields, a vgc extension): at most one member may be set, checked on Job</li>"
    ));
    let conditions = row("JobStatus.conditions");
    assert!(
        conditions.contains(
            "item [{&quot;type&quot;: &quot;Succeeded&quot;}] is a member of group terminalStatus"
        ) && conditions.contains(
            "item [{&quot;type&quot;: &quot;Failed&quot;}] is a member of group terminalStatus"
        ),
        "{conditions}"
    );
    // The group itself, on the ancestor.
    assert!(p.contains(
        "group source: exactly one of image, build.dockerfile, build.git must be set (virtual fields, a vgc extension)"
    ));
}
