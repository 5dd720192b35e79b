//! Checks of a generated documentation site (`vgc docs`): every relative link and anchor resolves, and pages load in
//! Debian's headless Chromium (installed by `.ci/run`) without console errors, with the search working.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Attribute values of `attr="…"` in an HTML text.
fn attrs<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let pat = format!("{attr}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&pat) {
        rest = &rest[i + pat.len()..];
        if let Some(end) = rest.find('"') {
            out.push(&rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

/// The files a page names in its text rather than in a link: each word of its text (outside tags) that ends in
/// `.md` or `.html` and is no URL (`://`), trailing punctuation dropped — `docs/upstream.md` in "see
/// docs/upstream.md". A reader follows such a name as a link, so [`check_links`] resolves it as one: the index named
/// the repository path `docs/upstream.md`, which no site has, and the attribute-only check never saw it.
fn text_files(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        let (text, after) = rest.split_once('<').unwrap_or((rest, ""));
        for word in text.split(|c: char| c.is_whitespace() || "()[]{},;\"'&`".contains(c)) {
            let word = word.trim_end_matches(['.', ':', '!', '?']);
            if (word.ends_with(".md") || word.ends_with(".html")) && !word.contains("://") {
                out.push(word);
            }
        }
        rest = after.split_once('>').map_or("", |(_, r)| r);
    }
    out
}

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            html_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
}

/// Walks every page: each relative `href`/`src` — and each file its text names ([`text_files`]) — must name an
/// existing file of the site, and each `#anchor` an `id` in that file. Returns (pages, links checked); panics listing
/// the broken ones.
pub fn check_links(site: &Path) -> (usize, usize) {
    let mut pages = Vec::new();
    html_files(site, &mut pages);
    let mut ids: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for p in &pages {
        let text = std::fs::read_to_string(p).expect("page");
        ids.insert(
            p.clone(),
            attrs(&text, "id").into_iter().map(str::to_string).collect(),
        );
    }
    let (mut checked, mut broken) = (0, Vec::new());
    for p in &pages {
        let text = std::fs::read_to_string(p).expect("page");
        for link in attrs(&text, "href")
            .into_iter()
            .chain(attrs(&text, "src"))
            .chain(text_files(&text))
        {
            assert!(
                !link.contains("://"),
                "{}: external link {link} (the site must work offline)",
                p.display()
            );
            checked += 1;
            let (file, anchor) = link
                .split_once('#')
                .map_or((link, None), |(f, a)| (f, Some(a)));
            let target = if file.is_empty() {
                p.clone()
            } else {
                p.parent().expect("dir").join(file)
            };
            let target = std::path::absolute(&target).unwrap_or(target);
            let target: PathBuf = target.components().fold(PathBuf::new(), |mut acc, c| {
                if c == std::path::Component::ParentDir {
                    acc.pop();
                } else {
                    acc.push(c);
                }
                acc
            });
            if !target.is_file() {
                broken.push(format!("{}: {link} (no file)", p.display()));
                continue;
            }
            if let Some(a) = anchor
                && !a.starts_with("q=")
                && !ids.get(&target).is_some_and(|v| v.iter().any(|i| i == a))
            {
                broken.push(format!("{}: {link} (no id {a})", p.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
    (pages.len(), checked)
}

/// Loads `page` (with an optional `#fragment`) in headless Chromium and returns the DOM after scripts ran; panics on
/// a console error.
pub fn browser_dom(page: &Path, fragment: &str) -> String {
    let url = format!(
        "file://{}{fragment}",
        std::path::absolute(page).expect("absolute").display()
    );
    let out = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=2000",
            "--dump-dom",
        ])
        .arg(&url)
        .output()
        .expect("Debian's chromium is installed (`.ci/run` installs the chromium package)");
    let log = String::from_utf8_lossy(&out.stderr);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "{url}: console messages:\n{}",
        console.join("\n")
    );
    assert!(out.status.success(), "{url}: chromium failed:\n{log}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The layout `page` has in headless Chromium in a `width`×900 CSS-pixel viewport, as the page's own probe
/// (`search.js`, run with `#vgc-layout`) records it: `{viewport, scrollWidth, cellDisplay, overflowing}`. Headless
/// Chromium's window is at least 500 px wide, so the page is loaded in a frame of that width inside a wrapper page
/// (written next to it), which the probe posts its record to.
pub fn layout(page: &Path, width: u32) -> serde_json::Value {
    let page = std::path::absolute(page).expect("absolute");
    let wrapper = page.with_extension(format!("frame{width}.htm"));
    std::fs::write(
        &wrapper,
        format!(
            "<!doctype html><html><body style=\"margin:0\"><iframe src=\"file://{}#vgc-layout\" width=\"{width}\" height=\"900\" style=\"border:0\"></iframe><script>addEventListener(\"message\", function (e) {{ document.body.setAttribute(\"data-layout\", e.data); }});</script></body></html>",
            page.display()
        ),
    )
    .expect("write the wrapper page");
    let url = format!("file://{}", wrapper.display());
    let out = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--virtual-time-budget=2000",
            "--dump-dom",
        ])
        .arg(format!("--window-size={},1000", width.max(600)))
        .arg(&url)
        .output()
        .expect("Debian's chromium is installed (`.ci/run` installs the chromium package)");
    let _ = std::fs::remove_file(&wrapper);
    assert!(out.status.success(), "{url}: chromium failed");
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .find("data-layout=\"")
        .unwrap_or_else(|| panic!("{url}: the page recorded no layout"))
        + "data-layout=\"".len();
    let raw = &dom[start..];
    let raw = &raw[..raw.find('"').expect("attribute end")];
    serde_json::from_str(&raw.replace("&quot;", "\"").replace("&amp;", "&"))
        .expect("the layout record is JSON")
}

/// A `width`×`height` screenshot of `page` taken by headless Chromium into `png`; returns the PNG's pixel
/// (width, height) read from its `IHDR` header.
pub fn screenshot(page: &Path, width: u32, height: u32, png: &Path) -> (u32, u32) {
    let url = format!(
        "file://{}",
        std::path::absolute(page).expect("absolute").display()
    );
    let out = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{url}: chromium failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(png).expect("the screenshot was written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}
