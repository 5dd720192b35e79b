//! Rebuilds: outputs are rewritten only when their bytes change (modification times survive a no-op build), and
//! the formatting cache lets a rebuild skip rustfmt for unchanged files; a corrupt or foreign cache is ignored
//! with a note and rebuilt, never producing different output.

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn build(out: &Path) -> vgc::BuildOutcome {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    vgc::build(&BuildRequest {
        path: root.join("examples/api").to_string_lossy().into_owned(),
        out: Some(out.to_path_buf()),
        crate_name: "vgc-example-generated".into(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        extra_roots: Vec::new(),
        check_only: false,
        custom_stub: false,
        no_cache: false,
    })
}

fn snapshot(dir: &Path) -> Vec<(String, String, std::time::SystemTime)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        let meta = std::fs::metadata(&e).expect("metadata");
        out.push((
            e.strip_prefix(dir)
                .expect("under dir")
                .display()
                .to_string(),
            std::fs::read_to_string(&e).expect("read"),
            meta.modified().expect("mtime"),
        ));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn no_op_rebuild_rewrites_nothing_and_skips_rustfmt() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let first = build(tmp.path());
    assert_eq!(vgc::exit_code(&first), 0);
    assert_eq!(first.fmt_cache_hits, 0);
    let rs = first
        .files
        .iter()
        .filter(|f| f.path.ends_with(".rs"))
        .count();
    let before = snapshot(tmp.path());
    std::thread::sleep(std::time::Duration::from_millis(20));

    let second = build(tmp.path());
    assert_eq!(
        second.fmt_cache_hits, rs,
        "every .rs file comes from the formatting cache"
    );
    assert!(second.notes.is_empty(), "{:?}", second.notes);
    assert_eq!(
        snapshot(tmp.path()),
        before,
        "same bytes, same modification times"
    );

    // A corrupt cache is ignored with a note; the output is the same.
    std::fs::write(tmp.path().join(".vgc-fmt-cache"), "garbage\n").expect("corrupt");
    let third = build(tmp.path());
    assert_eq!(third.fmt_cache_hits, 0);
    assert_eq!(third.notes.len(), 1, "{:?}", third.notes);
    assert!(
        third.notes[0].contains("another vgc version"),
        "{:?}",
        third.notes
    );
    let after: Vec<(String, String)> = snapshot(tmp.path())
        .into_iter()
        .map(|(p, t, _)| (p, t))
        .collect();
    let before: Vec<(String, String)> = before.into_iter().map(|(p, t, _)| (p, t)).collect();
    assert_eq!(after, before);

    // A truncated cache (right version, broken line) too.
    let cache = std::fs::read_to_string(tmp.path().join(".vgc-fmt-cache")).expect("cache");
    let first_line = cache.lines().next().unwrap_or_default();
    std::fs::write(
        tmp.path().join(".vgc-fmt-cache"),
        format!("{first_line}\nsrc/lib.rs\tabc\n"),
    )
    .expect("truncate");
    let fourth = build(tmp.path());
    assert_eq!(fourth.fmt_cache_hits, 0);
    assert!(fourth.notes[0].contains("unreadable"), "{:?}", fourth.notes);

    // A file edited by hand is regenerated even though the cache entry matches the new generator output.
    let lib = tmp.path().join("src/lib.rs");
    let original = std::fs::read_to_string(&lib).expect("lib.rs");
    std::fs::write(&lib, "// edited\n").expect("edit");
    let fifth = build(tmp.path());
    assert_eq!(fifth.fmt_cache_hits, rs - 1);
    assert_eq!(std::fs::read_to_string(&lib).expect("lib.rs"), original);
}
