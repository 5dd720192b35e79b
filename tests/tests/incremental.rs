//! Rebuilds: outputs are rewritten only when their bytes change (modification times survive a no-op build), and
//! the formatting cache lets a rebuild skip rustfmt for unchanged files; a corrupt or foreign cache is ignored
//! with a note and rebuilt, never producing different output.

use vgc_tests::example;

use example::{copy_tree, request, workspace_root};
use std::path::Path;
use vgc::driver::BuildRequest;

fn build(out: &Path) -> vgc::BuildOutcome {
    vgc::build(&request(&workspace_root().join("examples/api"), out))
}

/// Every file under `dir` but the build manifest (which each real build rewrites) and the binary IR and unit
/// caches: path, text, modification time.
fn snapshot(dir: &Path) -> Vec<(String, String, std::time::SystemTime)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        if e.ends_with(".vgc/build")
            || e.ends_with(".vgc/ir")
            || e.ends_with(".vgc/lock")
            || e.ends_with(".vgc/.gitignore")
            || e.strip_prefix(dir)
                .is_ok_and(|r| r == Path::new(".vgc").join(vgc::cache::units::FILE))
        {
            continue;
        }
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

    // The build manifest says nothing changed: nothing is loaded or written.
    let up_to_date = build(tmp.path());
    assert!(up_to_date.up_to_date);
    assert_eq!(up_to_date.stats, first.stats);
    assert_eq!(up_to_date.written, 0);
    assert_eq!(snapshot(tmp.path()), before);

    // A manifest that does not parse is ignored with a note and rewritten by the (real) rebuild.
    let manifest = tmp.path().join(".vgc/build");
    std::fs::write(&manifest, "not a manifest\n").expect("corrupt");
    let rebuilt = build(tmp.path());
    assert!(!rebuilt.up_to_date);
    assert!(
        rebuilt.notes[0].contains(".vgc/build: written by another vgc version"),
        "{:?}",
        rebuilt.notes
    );
    assert!(
        std::fs::read_to_string(&manifest)
            .expect("manifest")
            .starts_with("vgc-build-cache 2 ")
    );
    assert!(build(tmp.path()).up_to_date);

    // Without the manifest, the formatting cache alone keeps rustfmt from running.
    std::fs::remove_file(&manifest).expect("remove manifest");
    let before = snapshot(tmp.path());
    let second = build(tmp.path());
    assert!(!second.up_to_date);
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
    std::fs::write(tmp.path().join(".vgc/fmt"), "garbage\n").expect("corrupt");
    std::fs::remove_file(&manifest).expect("remove manifest");
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
    let cache = std::fs::read_to_string(tmp.path().join(".vgc/fmt")).expect("cache");
    let first_line = cache.lines().next().unwrap_or_default();
    std::fs::write(
        tmp.path().join(".vgc/fmt"),
        format!("{first_line}\nsrc/lib.rs\tabc\n"),
    )
    .expect("truncate");
    std::fs::remove_file(&manifest).expect("remove manifest");
    let fourth = build(tmp.path());
    assert_eq!(fourth.fmt_cache_hits, 0);
    assert!(fourth.notes[0].contains("unreadable"), "{:?}", fourth.notes);

    // A file edited by hand (its `@generated` marker kept) is regenerated even though the cache entry matches the
    // new generator output.
    let lib = tmp.path().join("src/lib.rs");
    let original = std::fs::read_to_string(&lib).expect("lib.rs");
    let marker = original.lines().next().expect("marker line");
    std::fs::write(&lib, format!("{marker}\n// edited\n")).expect("edit");
    // (The manifest sees the edited output: this is a real build.)
    let fifth = build(tmp.path());
    assert!(!fifth.up_to_date);
    assert_eq!(fifth.fmt_cache_hits, rs - 1);
    assert_eq!(std::fs::read_to_string(&lib).expect("lib.rs"), original);

    // Without the marker the file is no longer vgc's: the build refuses to replace it and writes nothing.
    std::fs::write(&lib, "// edited\n").expect("edit");
    let sixth = build(tmp.path());
    assert_eq!(vgc::exit_code(&sixth), 2);
    assert!(
        sixth
            .io_error
            .as_deref()
            .is_some_and(|e| e.contains("src/lib.rs: exists and was not generated by vgc")),
        "{:?}",
        sixth.io_error
    );
    assert_eq!(
        std::fs::read_to_string(&lib).expect("lib.rs"),
        "// edited\n"
    );
}

fn count(log: &[String], query: &str) -> usize {
    log.iter()
        .filter(|q| q.starts_with(&format!("{query}(")))
        .count()
}

/// The salsa event log of one live session (as `vgc watch` keeps it): a comment rewording plus a blank line
/// re-parses that file and re-runs no analysis or codegen query; editing one tag lowers again only the types that
/// read the edited file and generates exactly that package's module (the edited type's items only).
#[test]
fn event_log_comment_edit_reruns_no_analysis_and_tag_edit_regenerates_one_module() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = workspace_root();
    let api = tmp.path().join("api");
    copy_tree(&root.join("examples/api"), &api);
    let out = tmp.path().join("out");
    let req = request(&api, &out);
    let mut session = vgc::driver::Session::with_database(vgc::driver::Database::logging());
    let first = session.build(&req);
    assert_eq!(vgc::exit_code(&first), 0, "{:?}", first.diagnostics);
    let log = session.db().take_executed();
    assert_eq!(count(&log, "crate_plan"), 1, "{log:?}");
    assert_eq!(count(&log, "lower_type"), first.stats.types, "{log:?}");
    // lib.rs, meta/mod.rs, meta/v1.rs, widgets/mod.rs, widgets/v1.rs
    assert_eq!(count(&log, "module_file"), 5, "{log:?}");
    let before = snapshot(&out);
    std::thread::sleep(std::time::Duration::from_millis(20));

    // 1. Reword a doc comment and add a blank line: positions move, the IR does not change.
    let types = api.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    let edited = text
        .replace(
            "// Sizing uses an enum with an option-dependent exclusion.",
            "// Sizing uses an enum; one of its values needs an option.",
        )
        .replacen("\ntype WidgetSpec struct", "\n\ntype WidgetSpec struct", 1);
    assert_ne!(edited, text);
    std::fs::write(&types, &edited).expect("write");
    let second = session.build(&req);
    assert_eq!(vgc::exit_code(&second), 0);
    let log = session.db().take_executed();
    assert_eq!(
        count(&log, "parsed_go"),
        1,
        "only the edited file is parsed: {log:?}"
    );
    for q in [
        "loaded_program",
        "reach",
        "lower_type",
        "crate_plan",
        "module_plan",
        "layout",
        "module_file",
    ] {
        assert_eq!(count(&log, q), 0, "{q} re-ran: {log:?}");
    }
    assert_eq!(snapshot(&out), before, "no output rewritten");

    // 2. Edit one tag, telling the session which file changed (as `vgc watch` does: no discovery walk): lowering
    // re-runs once, and only widgets/v1's module is generated again.
    std::fs::write(&types, edited.replace("+k8s:maxItems=3", "+k8s:maxItems=4")).expect("write");
    let third = session.build_after(&req, &[format!("{}/widgets/v1/types.go", api.display())]);
    assert_eq!(vgc::exit_code(&third), 0);
    let log = session.db().take_executed();
    assert_eq!(count(&log, "parsed_go"), 1, "{log:?}");
    assert_eq!(count(&log, "crate_plan"), 1, "{log:?}");
    assert_eq!(
        count(&log, "reach"),
        0,
        "a tag edit changes no type reference: roots and reachability are not recomputed: {log:?}"
    );
    assert_eq!(
        count(&log, "lower_type"),
        first.stats.types - 2,
        "the types that read widgets/v1/types.go are lowered again, not meta/v1's TypeMeta and ObjectMeta: {log:?}"
    );
    assert_eq!(count(&log, "module_file"), 1, "{log:?}");
    assert_eq!(
        count(&log, "type_file_units"),
        1,
        "only the edited type's items are generated again: {log:?}"
    );
    let after = snapshot(&out);
    let changed: Vec<&str> = after
        .iter()
        .zip(&before)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert_eq!(changed, [".vgc/fmt", "src/widgets/v1.rs"]);
    let module = &after
        .iter()
        .find(|f| f.0 == "src/widgets/v1.rs")
        .expect("module")
        .1;
    // Only the edited unit went through rustfmt; the result is what formatting everything afresh gives.
    let fresh_out = tmp.path().join("fresh");
    let fresh = vgc::build(&BuildRequest {
        out: Some(fresh_out.clone()),
        no_cache: true,
        force: false,
        rustfmt: true,
        ..req.clone()
    });
    assert_eq!(vgc::exit_code(&fresh), 0);
    let fresh_files: Vec<(String, String)> = snapshot(&fresh_out)
        .into_iter()
        .map(|(p, t, _)| (p, t))
        .collect();
    let incremental_files: Vec<(String, String)> = after
        .iter()
        .filter(|(p, _, _)| p != ".vgc/fmt")
        .map(|(p, t, _)| (p.clone(), t.clone()))
        .collect();
    assert_eq!(incremental_files, fresh_files);
    assert!(
        module.contains("max_items(&p, new.map_or(0, |v| v.len()), 4i64)"),
        "the new limit is generated: {:?}",
        module
            .lines()
            .filter(|l| l.contains("max_items"))
            .collect::<Vec<_>>()
    );
}

/// A live session started over the outputs and caches of an earlier build (`vgc watch` after `vgc build`): the
/// first build takes every module from the disk cache and generates none, and the first tag edit after it
/// generates only the edited module (the others are reused by generation key, although the session never
/// generated them), with the same result as a fresh build.
#[test]
fn session_over_a_cached_build_regenerates_only_the_edited_module() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    copy_tree(&workspace_root().join("examples/api"), &api);
    let out = tmp.path().join("out");
    let req = request(&api, &out);
    assert_eq!(vgc::exit_code(&vgc::build(&req)), 0);

    let mut session = vgc::driver::Session::with_database(vgc::driver::Database::logging());
    let first = session.build(&req);
    assert_eq!(vgc::exit_code(&first), 0, "{:?}", first.diagnostics);
    let log = session.db().take_executed();
    assert_eq!(count(&log, "module_file"), 0, "{log:?}");
    assert_eq!(count(&log, "type_file_units"), 0, "{log:?}");

    let types = api.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    assert!(text.contains("+k8s:maxItems=3"));
    std::fs::write(&types, text.replace("+k8s:maxItems=3", "+k8s:maxItems=5")).expect("write");
    let second = session.build_after(&req, &[format!("{}/widgets/v1/types.go", api.display())]);
    assert_eq!(vgc::exit_code(&second), 0);
    let log = session.db().take_executed();
    assert_eq!(count(&log, "module_file"), 1, "{log:?}");
    // The edited module's types were never generated in this session: all of them are, once.
    assert_eq!(count(&log, "type_file_units"), 21, "{log:?}");
    assert_eq!(second.written, 1, "only widgets/v1.rs is rewritten");

    let fresh_out = tmp.path().join("fresh");
    let fresh = vgc::build(&BuildRequest {
        no_cache: true,
        force: false,
        rustfmt: true,
        ..request(&api, &fresh_out)
    });
    assert_eq!(vgc::exit_code(&fresh), 0);
    let strip = |files: Vec<(String, String, std::time::SystemTime)>| -> Vec<(String, String)> {
        files
            .into_iter()
            .filter(|(p, _, _)| p != ".vgc/fmt")
            .map(|(p, t, _)| (p, t))
            .collect()
    };
    assert_eq!(strip(snapshot(&out)), strip(snapshot(&fresh_out)));
}

/// Separate runs (as from the command line) after a tag edit: the IR cache supplies every unchanged file's IR,
/// unchanged modules are reused by generation key, and the result equals a fresh build; a damaged IR cache is
/// ignored with a note and changes nothing.
#[test]
fn one_shot_rebuild_after_an_edit_matches_a_fresh_build() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = workspace_root();
    let api = tmp.path().join("api");
    copy_tree(&root.join("examples/api"), &api);
    let out = tmp.path().join("out");
    let req = request(&api, &out);
    let first = vgc::build(&req);
    assert_eq!(vgc::exit_code(&first), 0);
    assert!(out.join(".vgc/ir").exists());
    let rs = first
        .files
        .iter()
        .filter(|f| f.path.ends_with(".rs"))
        .count();

    let types = api.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    std::fs::write(&types, text.replace("+k8s:maxItems=3", "+k8s:maxItems=5")).expect("write");
    let second = vgc::build(&req);
    assert_eq!(vgc::exit_code(&second), 0);
    assert!(second.notes.is_empty(), "{:?}", second.notes);
    assert_eq!(second.written, 1, "only widgets/v1 changes");
    assert_eq!(
        second.fmt_cache_hits,
        rs - 1,
        "every other module is reused"
    );
    assert_eq!(
        second.unit_cache_hits, 20,
        "widgets/v1's 21 types but the edited one come from the unit cache"
    );

    let fresh = |name: &str| {
        let dir = tmp.path().join(name);
        let o = vgc::build(&BuildRequest {
            out: Some(dir.clone()),
            no_cache: true,
            force: false,
            rustfmt: true,
            ..req.clone()
        });
        assert_eq!(vgc::exit_code(&o), 0);
        snapshot(&dir)
            .into_iter()
            .map(|(p, t, _)| (p, t))
            .filter(|(p, _)| p != ".vgc/fmt")
            .collect::<Vec<_>>()
    };
    let ours = |dir: &Path| {
        snapshot(dir)
            .into_iter()
            .map(|(p, t, _)| (p, t))
            .filter(|(p, _)| p != ".vgc/fmt")
            .collect::<Vec<_>>()
    };
    assert_eq!(ours(&out), fresh("fresh"));

    // The second build regenerated widgets/v1 only; meta/v1's units are still in the file: an
    // edit of ObjectMeta takes TypeMeta's from it.
    let meta = api.join("meta/v1/types.go");
    let meta_text = std::fs::read_to_string(&meta).expect("read");
    std::fs::write(&meta, meta_text.replace("k8s-short-name", "k8s-long-name")).expect("write");
    let meta_edit = vgc::build(&req);
    assert_eq!(vgc::exit_code(&meta_edit), 0);
    assert_eq!(meta_edit.unit_cache_hits, 1, "TypeMeta");
    assert_eq!(ours(&out), fresh("fresh-meta"));

    // Damages the cache file `cache`, edits the tag to `limit` and rebuilds: the note names the file as
    // unreadable, and the output equals a fresh build.
    let damaged_rebuild = |cache: &Path, limit: u32, fresh_dir: &str| {
        std::fs::write(cache, b"junk").expect("damage");
        std::fs::write(
            &types,
            text.replace("+k8s:maxItems=3", &format!("+k8s:maxItems={limit}")),
        )
        .expect("write");
        let o = vgc::build(&req);
        assert_eq!(vgc::exit_code(&o), 0);
        let name = cache
            .strip_prefix(&out)
            .expect("in out")
            .display()
            .to_string();
        assert!(
            o.notes
                .iter()
                .any(|n| n.contains(&format!("{name}: unreadable"))),
            "{:?}",
            o.notes
        );
        assert_eq!(ours(&out), fresh(fresh_dir));
        o
    };

    // A damaged IR cache: a note, and the same output.
    damaged_rebuild(&out.join(".vgc/ir"), 6, "fresh2");

    // A damaged unit cache: a note, every type of the module emitted again, and the same output.
    let units = out.join(".vgc/units");
    assert!(units.is_file());
    let fourth = damaged_rebuild(&units, 7, "fresh3");
    assert_eq!(fourth.unit_cache_hits, 0);
    // ... and the next edit uses the rewritten file again.
    std::fs::write(&types, text.replace("+k8s:maxItems=3", "+k8s:maxItems=8")).expect("write");
    let fifth = vgc::build(&req);
    assert_eq!(fifth.unit_cache_hits, 20);
    assert_eq!(ours(&out), fresh("fresh4"));

    // vgc 0.1's unit cache, a directory of per-module files: ignored without a note, replaced by the file.
    std::fs::remove_file(&units).expect("rm");
    std::fs::create_dir_all(&units).expect("mkdir");
    std::fs::write(
        units.join("src+widgets+v1.rs.bin"),
        "vgc-unit-cache 2 old\n",
    )
    .expect("write");
    std::fs::write(&types, text.replace("+k8s:maxItems=3", "+k8s:maxItems=9")).expect("write");
    let sixth = vgc::build(&req);
    assert_eq!(vgc::exit_code(&sixth), 0);
    assert!(
        sixth.notes.iter().all(|n| !n.contains("units")),
        "{:?}",
        sixth.notes
    );
    assert_eq!(sixth.unit_cache_hits, 0);
    assert!(units.is_file());
    assert_eq!(ours(&out), fresh("fresh5"));
}

/// `Session::build_after` skips discovery only when an edit cannot change the workspace's shape: an edit that
/// makes a type refer to a package nothing referred to before falls back to a full load, which loads that package.
#[test]
fn edit_referring_to_a_new_package_falls_back_to_full_discovery() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = workspace_root();
    let api = tmp.path().join("api");
    copy_tree(&root.join("examples/api"), &api);
    std::fs::create_dir_all(api.join("other/v1")).expect("mkdir");
    std::fs::write(
        api.join("other/v1/types.go"),
        "package v1\n\n// Thing is referred to only after the edit.\ntype Thing struct {\n\t// +k8s:required\n\tName *string `json:\"name\"`\n}\n",
    )
    .expect("write");
    // Build only widgets/v1: meta/v1 is loaded read-only because widgets refers to it; other/v1 is not loaded.
    let req = request(&api.join("widgets/v1"), &tmp.path().join("out"));
    let mut session = vgc::driver::Session::default();
    let first = session.build(&req);
    assert_eq!(vgc::exit_code(&first), 0, "{:?}", first.diagnostics);
    assert!(
        !first
            .plan
            .modules
            .iter()
            .any(|m| m.pkg.ends_with("/other/v1"))
    );

    let types = api.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    let edited = text
        .replace(
            "import metav1 \"example.com/widgets/meta/v1\"",
            "import (\n\tmetav1 \"example.com/widgets/meta/v1\"\n\tother \"example.com/widgets/other/v1\"\n)",
        )
        .replace(
            "\t// +k8s:required\n\tSpec *WidgetSpec `json:\"spec,omitempty\"`",
            "\t// +k8s:required\n\tSpec *WidgetSpec `json:\"spec,omitempty\"`\n\n\t// +k8s:optional\n\tThing *other.Thing `json:\"thing,omitempty\"`",
        );
    assert_ne!(edited, text);
    std::fs::write(&types, &edited).expect("write");
    let second = session.build_after(&req, &[format!("{}/types.go", req.path)]);
    assert_eq!(vgc::exit_code(&second), 0, "{:?}", second.diagnostics);
    assert!(
        second
            .plan
            .modules
            .iter()
            .any(|m| m.pkg.ends_with("/other/v1")),
        "the newly referenced package is loaded"
    );
    let fresh = vgc::build(&BuildRequest {
        out: Some(tmp.path().join("fresh")),
        no_cache: true,
        force: false,
        rustfmt: true,
        ..req.clone()
    });
    assert_eq!(second.plan, fresh.plan);
}

/// Lowering reports by span id and the driver resolves byte ranges (`Diagnostic::at_span`,
/// `vgc_ir::db::resolve_spans`): on a tree whose lowering reports an error, a layout edit (a blank line above the
/// type) re-runs no lowering query, and the error still points at its tag, one line further down.
#[test]
fn layout_edit_on_a_tree_with_lowering_errors_reruns_no_lowering() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    std::fs::create_dir_all(api.join("p")).expect("mkdir");
    std::fs::write(api.join("go.mod"), "module example.com/layout\n\ngo 1.26\n").expect("write");
    let source = "package p\n\ntype T struct {\n\tTypeMeta int\n\n\t// +k8s:optional\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=name\n\t// +k8s:item(name: \"a\")=+k8s:item(name: \"b\")=+k8s:immutable\n\tL []I `json:\"l\"`\n}\n\ntype I struct {\n\tName string `json:\"name\"`\n}\n";
    let types = api.join("p/types.go");
    std::fs::write(&types, source).expect("write");
    let req = request(&api, &tmp.path().join("out"));
    let mut session = vgc::driver::Session::with_database(vgc::driver::Database::logging());
    let located = |out: &vgc::BuildOutcome| -> Vec<String> {
        out.diagnostics
            .iter()
            .map(|d| {
                let text = &out.sources[d.file.as_deref().expect("file")];
                let line = text[..d.span.start].matches('\n').count() + 1;
                format!(
                    "{}:{line}: {} {}",
                    d.file.as_deref().unwrap_or(""),
                    d.code.as_str(),
                    &text[d.span.clone()]
                )
            })
            .collect()
    };
    let first = session.build(&req);
    let path = types.display().to_string();
    assert_eq!(
        located(&first),
        [format!(
            "{path}:9: VGC0110 k8s:item(name: \"a\")=+k8s:item(name: \"b\")=+k8s:immutable"
        )]
    );
    let log = session.db().take_executed();
    assert!(count(&log, "lower_type") > 0, "{log:?}");

    std::fs::write(
        &types,
        source.replacen("\ntype T struct", "\n\ntype T struct", 1),
    )
    .expect("write");
    let second = session.build_after(&req, std::slice::from_ref(&path));
    let log = session.db().take_executed();
    assert_eq!(count(&log, "parsed_go"), 1, "{log:?}");
    for q in ["loaded_program", "reach", "lower_type", "crate_plan"] {
        assert_eq!(count(&log, q), 0, "{q} re-ran: {log:?}");
    }
    assert_eq!(
        located(&second),
        [format!(
            "{path}:10: VGC0110 k8s:item(name: \"a\")=+k8s:item(name: \"b\")=+k8s:immutable"
        )]
    );
}

/// A query that reads the workspace before the first load (`vgc lsp` may ask for the program before a module is
/// loaded) must not freeze the database: it used to find no workspace input, read no input at all, and never run
/// again — every later check of that database saw no package (found by the issue-40 helper: 1 diagnostic, then 0).
#[test]
fn reading_the_program_before_the_first_load_does_not_freeze_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    copy_tree(&workspace_root().join("examples/api"), &api);
    let types = api.join("widgets/v1/types.go");
    let text = std::fs::read_to_string(&types).expect("read");
    std::fs::write(
        &types,
        text.replacen("+k8s:maxItems=3", "+k8s:maxItems=x", 1),
    )
    .expect("write");
    let db = vgc::driver::Database::default();
    assert!(
        vgc_analysis::program::loaded_program(&db)
            .packages
            .is_empty(),
        "no package before the first load"
    );
    let mut session = vgc::driver::Session::with_database(db);
    let req = BuildRequest::check(api.to_string_lossy().into_owned(), Vec::new());
    let out = session.build(&req);
    assert!(
        out.diagnostics
            .iter()
            .any(|d| d.message.contains("maxItems")),
        "{:?}",
        out.diagnostics
    );
    assert!(
        !vgc_analysis::program::loaded_program(session.db())
            .packages
            .is_empty()
    );
}

/// A live session keeps the previous parse of each larger file (`vgc_ir::db::ParseMemory`): a tag edit of a file of
/// 32 KiB or more, which changes only a `//` comment's body, takes the file's summary from it — no tree-sitter, no
/// tree walk (`Database::reused_parses` counts it) — and builds exactly what a fresh session builds from the edited
/// tree; a database with the memory off (a one-shot build's) never reuses.
#[test]
fn a_comment_edit_in_a_live_session_reuses_the_parse_and_builds_what_a_fresh_session_builds() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    copy_tree(&workspace_root().join("examples/api"), &api);
    let types = api.join("widgets/v1/types.go");
    let mut text = std::fs::read_to_string(&types).expect("read");
    // A detached comment at the end makes the file large enough to be remembered.
    text.push_str("\n// Padding.\n");
    while text.len() < vgc_ir::db::ParseMemory::MIN_BYTES {
        text.push_str("// A line of prose that only makes the file longer, as API docs do.\n");
    }
    std::fs::write(&types, &text).expect("write");
    let out = tmp.path().join("out");
    let req = request(&api, &out);
    let mut session = vgc::driver::Session::with_database(vgc::driver::Database::logging());
    let first = session.build(&req);
    assert_eq!(vgc::exit_code(&first), 0, "{:?}", first.diagnostics);
    assert_eq!(session.db().reused_parses(), 0);
    let _ = session.db().take_executed();

    let edited = text.replacen("+k8s:maxItems=3", "+k8s:maxItems=4", 1);
    assert_ne!(edited, text);
    std::fs::write(&types, &edited).expect("write");
    let second = session.build_after(&req, &[types.display().to_string()]);
    assert_eq!(vgc::exit_code(&second), 0, "{:?}", second.diagnostics);
    let log = session.db().take_executed();
    assert_eq!(count(&log, "parsed_go"), 1, "{log:?}");
    assert_eq!(
        session.db().reused_parses(),
        1,
        "the edited file's parse was reused"
    );

    let files = |o: &vgc::BuildOutcome| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = o
            .files
            .iter()
            .map(|f| (f.path.clone(), f.contents.clone()))
            .collect();
        v.sort();
        v
    };
    assert_ne!(
        files(&second),
        files(&first),
        "the tag edit changes the output"
    );
    let mut fresh_db = vgc::driver::Database::default();
    fresh_db.set_parse_memory(false);
    let mut fresh = vgc::driver::Session::with_database(fresh_db);
    let again = fresh.build(&request(&api, &tmp.path().join("out2")));
    assert_eq!(files(&again), files(&second));
    assert_eq!(again.diagnostics, second.diagnostics);
    assert_eq!(fresh.db().reused_parses(), 0);
}
