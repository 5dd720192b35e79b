//! `vgc docs --out DIR` under the build's output rules (issue 13): it replaces only files it wrote and nobody
//! changed since (`--force` overrides), writes all pages in one transaction, removes pages that are no longer part
//! of the site, creates files as `File::create` would (the umask's mode, not 0600), and refuses an empty `--out`.
//! Before, it overwrote a hand-written `index.html`, kept stale pages, wrote into the current directory for
//! `--out ''` and created every page 0600 (found by a new-user trial).

use std::path::Path;
use std::process::{Command, Output};

fn docs(module: &Path, out: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .arg("docs")
        .arg(module)
        .args(["--out", out])
        .args(extra)
        .output()
        .expect("vgc runs")
}

fn module_with(dir: &Path, packages: &[&str]) {
    std::fs::create_dir_all(dir).expect("mkdir");
    std::fs::write(dir.join("go.mod"), "module example.com/shop\n\ngo 1.23\n").expect("go.mod");
    for p in packages {
        let d = dir.join(p);
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(d.join("doc.go"), "// +k8s:validation-gen=*\npackage v1\n").expect("doc.go");
        std::fs::write(
            d.join("types.go"),
            "package v1\n\ntype Order struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=8\n\tName string `json:\"name,omitempty\"`\n}\n",
        )
        .expect("types.go");
    }
}

#[test]
fn docs_output_replaces_only_its_own_files_and_removes_stale_pages() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let module = tmp.path().join("m");
    module_with(&module, &["a/v1", "b/v1"]);
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::fs::write(site.join("index.html"), "<h1>mine</h1>\n").expect("write");
    let out = site.to_string_lossy().into_owned();

    // A hand-written page in the way: nothing is written.
    let o = docs(&module, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: a file in the way exists and was not written by vgc")
            && err.contains(&format!("{}/index.html", site.display())),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(site.join("index.html")).expect("read"),
        "<h1>mine</h1>\n"
    );
    assert!(!site.join("tags.html").exists(), "nothing written");

    // --force replaces it; the pages are created as File::create would create them.
    let o = docs(&module, &out, &["--force"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let pages: Vec<String> = walk(&site);
    assert!(pages.iter().any(|p| p == "api/b/v1.html"), "{pages:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let probe = tmp.path().join("probe");
        std::fs::write(&probe, "").expect("probe");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&site.join("index.html")), mode(&probe));
    }

    // Its own unchanged pages are replaced without --force; a package removed takes its pages with it.
    std::fs::remove_dir_all(module.join("b")).expect("rm");
    let o = docs(&module, &out, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let pages = walk(&site);
    assert!(!pages.iter().any(|p| p == "api/b/v1.html"), "{pages:?}");
    assert!(pages.iter().any(|p| p == "api/a/v1.html"), "{pages:?}");

    // A page the user edited is not replaced.
    let tags = site.join("tags.html");
    let edited = std::fs::read_to_string(&tags).expect("read") + "<!-- mine -->\n";
    std::fs::write(&tags, &edited).expect("write");
    let o = docs(&module, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&tags).expect("read"), edited);
}

#[test]
fn docs_output_must_name_a_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    module_with(tmp.path(), &["a/v1"]);
    let o = docs(tmp.path(), "", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: the output directory is empty (`--out ''`); name a directory\n"
    );
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x").expect("write");
    let o = docs(tmp.path(), &file.to_string_lossy(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {}: the output path exists and is not a directory\n",
            file.display()
        )
    );
}

/// Every file below `dir` (outside `.vgc/`), as paths relative to it.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let p = e.path();
            if p.file_name().is_some_and(|n| n == ".vgc") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(
                    p.strip_prefix(dir)
                        .expect("below")
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

/// Nothing is written, replaced or removed through a symbolic link to a directory inside the output, nor through a
/// record entry that leads outside it; `.vgc` as a link is refused (found by a re-trial of the output rules).
#[cfg(unix)]
#[test]
fn docs_output_never_acts_outside_the_output_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let module = tmp.path().join("m");
    module_with(&module, &["a/v1"]);
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");

    // `api` in the output is a link to a foreign directory.
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::os::unix::fs::symlink(&elsewhere, site.join("api")).expect("symlink");
    let o = docs(&module, &site.to_string_lossy(), &["--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {}/api: a symbolic link to a directory is in the way of generated files; vgc writes only inside \
             the output directory — replace the link by a directory\n",
            site.display()
        )
    );
    assert_eq!(std::fs::read_dir(&elsewhere).expect("read").count(), 0);

    // A record entry pointing outside the output is never removed.
    let site2 = tmp.path().join("site2");
    let o = docs(&module, &site2.to_string_lossy(), &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let victim = tmp.path().join("victim.css");
    std::fs::copy(site2.join("style.css"), &victim).expect("copy");
    let record = site2.join(".vgc/site.json");
    let mut r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).expect("record")).expect("json");
    let hash = r["files"]["style.css"].clone();
    r["files"]["../victim.css"] = hash;
    std::fs::write(&record, r.to_string()).expect("write");
    let o = docs(&module, &site2.to_string_lossy(), &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(victim.exists(), "a file outside the output was removed");

    // `.vgc` as a link.
    let site3 = tmp.path().join("site3");
    std::fs::create_dir_all(&site3).expect("mkdir");
    std::os::unix::fs::symlink(&elsewhere, site3.join(".vgc")).expect("symlink");
    let o = docs(&module, &site3.to_string_lossy(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("/.vgc is a symbolic link"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_dir(&elsewhere).expect("read").count(), 0);
}

/// Issue 37: the index names the module and, for a module in the Go module cache, its version; packages are listed
/// by import path.
#[test]
fn the_index_names_the_module_and_its_version() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let module = tmp.path().join("cache/example.com/shop@v1.2.3");
    module_with(&module, &["b/v1", "a/v1"]);
    let site = tmp.path().join("site");
    let out = docs(&module, site.to_str().expect("utf-8"), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(
        index.contains("<p><code>example.com/shop</code> v1.2.3</p>"),
        "{index}"
    );
    let a = index.find(">example.com/shop/a/v1<").expect("a/v1 listed");
    let b = index.find(">example.com/shop/b/v1<").expect("b/v1 listed");
    assert!(a < b);
    // Outside a module cache: the module alone.
    let plain = tmp.path().join("m");
    module_with(&plain, &["a/v1"]);
    let site = tmp.path().join("site2");
    assert!(
        docs(&plain, site.to_str().expect("utf-8"), &[])
            .status
            .success()
    );
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(
        index.contains("<p><code>example.com/shop</code></p>"),
        "{index}"
    );
}
