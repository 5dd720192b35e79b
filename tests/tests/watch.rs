//! `vgc watch` against real file-system events (inotify through notify): a tag edit rewrites only its module,
//! an editor-style atomic save (write a temporary file, rename it over the original) that introduces a bad tag
//! prints the diagnostic and writes nothing, fixing it recovers, a new file's type is generated and goes away with
//! the file, a package appearing is generated, renaming a file inside it changes nothing, and the package
//! disappearing removes its generated module.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use vgc_tests::example;

use example::{copy_tree, request, workspace_root};

/// Forwards every complete line written to it.
struct Lines {
    tx: mpsc::Sender<String>,
    buf: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            let _ = self
                .tx
                .send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Collects output lines until a status line (`vgc watch: …`) satisfies `done`, returning every line read.
fn until(rx: &mpsc::Receiver<String>, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            let status = line.starts_with("vgc watch:");
            seen.push(line.clone());
            if status && done(&line) {
                return seen;
            }
        }
    }
    panic!("timed out waiting for {what}; output so far: {seen:#?}");
}

/// Writes `text` to `path` the way many editors save: a temporary file in the same directory, renamed over it.
fn atomic_save(path: &Path, text: &str) {
    let tmp: PathBuf = path.with_extension("go.tmp~");
    std::fs::write(&tmp, text).expect("write tmp");
    std::fs::rename(&tmp, path).expect("rename");
}

/// A watcher running on a fresh copy of the bundled example, once it says it is watching.
struct Watching {
    /// Holds the copy and the output directory.
    tmp: tempfile::TempDir,
    /// The copied module.
    api: std::path::PathBuf,
    /// The output directory.
    out: std::path::PathBuf,
    /// Set to stop the watcher.
    stop: Arc<AtomicBool>,
    /// The watcher's output lines.
    rx: mpsc::Receiver<String>,
    /// The watcher thread (its exit code).
    watcher: std::thread::JoinHandle<u8>,
}

fn start_watching() -> Watching {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    copy_tree(&workspace_root().join("examples/api"), &api);
    let out = tmp.path().join("out");
    let opts = vgc::watch::WatchOptions {
        request: request(&api, &out),
        short: true,
        color: false,
        timings: false,
        debounce: Duration::from_millis(20),
        max_rebuilds: None,
        stop: Some(Arc::new(AtomicBool::new(false))),
    };
    let stop = opts.stop.clone().expect("stop flag");
    let (tx, rx) = mpsc::channel();
    let watcher = std::thread::spawn(move || {
        let mut w = Lines {
            tx,
            buf: Vec::new(),
        };
        vgc::watch::run(&opts, &mut w)
    });
    until(&rx, "the watcher to start", |l| l.contains("watching"));
    Watching {
        tmp,
        api,
        out,
        stop,
        rx,
        watcher,
    }
}

#[test]
fn watch_follows_edits_atomic_saves_and_packages_coming_and_going() {
    let Watching {
        tmp,
        api,
        out,
        stop,
        rx,
        watcher,
    } = start_watching();
    let module = out.join("src/widgets/v1.rs");
    let widgets = api.join("widgets/v1/types.go");
    let original = std::fs::read_to_string(&widgets).expect("read");
    let generated_before = std::fs::read_to_string(&module).expect("module");
    let lib_mtime = std::fs::metadata(out.join("src/lib.rs"))
        .and_then(|m| m.modified())
        .expect("mtime");

    // 1. A tag edit: exactly that module is rewritten.
    let edited = original.replace("+k8s:maxItems=3", "+k8s:maxItems=4");
    std::fs::write(&widgets, &edited).expect("write");
    let lines = until(&rx, "the tag edit", |l| l.contains("wrote 1 changed file "));
    assert!(lines.iter().all(|l| !l.contains("error[")), "{lines:#?}");
    let generated = std::fs::read_to_string(&module).expect("module");
    assert!(generated.contains("max_items(&p, new.map_or(0, |v| v.len()), 4i64)"));
    assert_ne!(generated, generated_before);
    let lib_mtime_after = std::fs::metadata(out.join("src/lib.rs"))
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(
        lib_mtime_after, lib_mtime,
        "the crate root is not rewritten"
    );

    // 2. An atomic save introducing a misspelt tag: the diagnostic, and no output written.
    atomic_save(
        &widgets,
        &edited.replace("+k8s:maxItems=4", "+k8s:maxItemz=4"),
    );
    let lines = until(&rx, "the bad tag", |l| l.contains(": 1 error, "));
    assert!(
        lines.iter().any(|l| l
            .ends_with("widgets/v1/types.go:41:6: error[VGC0102]: unknown tag \"k8s:maxItemz\"")),
        "{lines:#?}"
    );
    assert_eq!(std::fs::read_to_string(&module).expect("module"), generated);

    // 3. Fixing it recovers without rewriting anything (the output already says maxItems=4).
    atomic_save(&widgets, &edited);
    until(&rx, "the fix", |l| l.contains(": 0 errors"));
    assert_eq!(std::fs::read_to_string(&module).expect("module"), generated);

    // 3b. A new file in a known package: its root type is generated into that package's module; deleting the file
    // takes it out again.
    let extra = api.join("widgets/v1/extra.go");
    std::fs::write(
        &extra,
        "package v1\n\nimport metav1 \"example.com/widgets/meta/v1\"\n\n// Sprocket is a root added while watching.\ntype Sprocket struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\n\t// +k8s:required\n\tTeeth *int32 `json:\"teeth\"`\n}\n",
    )
    .expect("extra.go");
    until(&rx, "the new file", |_| {
        std::fs::read_to_string(&module).is_ok_and(|m| m.contains("pub struct Sprocket"))
    });
    std::fs::remove_file(&extra).expect("remove extra.go");
    until(&rx, "the deleted file", |_| {
        std::fs::read_to_string(&module).is_ok_and(|m| !m.contains("Sprocket"))
    });
    assert_eq!(std::fs::read_to_string(&module).expect("module"), generated);

    // 4. A package appears (prepared outside the tree, moved in at once): its module is generated.
    let staged = tmp.path().join("gadgets");
    std::fs::create_dir_all(staged.join("v1")).expect("mkdir");
    std::fs::write(
        staged.join("v1/doc.go"),
        "// +k8s:validation-gen=*\n\npackage v1\n",
    )
    .expect("doc.go");
    std::fs::write(
        staged.join("v1/types.go"),
        "package v1\n\n// Gadget is new.\ntype Gadget struct {\n\t// +k8s:required\n\tName *string `json:\"name\"`\n}\n",
    )
    .expect("types.go");
    std::fs::rename(&staged, api.join("gadgets")).expect("move in");
    let gadget_module = out.join("src/gadgets/v1.rs");
    until(&rx, "the new package", |_| gadget_module.exists());
    let gadget = std::fs::read_to_string(&gadget_module).expect("gadgets module");
    assert!(gadget.contains("pub struct Gadget"), "{gadget}");
    assert!(
        std::fs::read_to_string(out.join("src/lib.rs"))
            .expect("lib")
            .contains("pub mod gadgets;")
    );

    // 5. Renaming a file inside the package changes no output.
    std::fs::rename(
        api.join("gadgets/v1/types.go"),
        api.join("gadgets/v1/gadget_types.go"),
    )
    .expect("rename");
    until(&rx, "the rename", |l| l.contains("wrote 0 changed files"));
    assert_eq!(
        std::fs::read_to_string(&gadget_module).expect("gadgets module"),
        gadget
    );

    // 6. The package disappears: its generated module is removed and the crate root no longer declares it.
    std::fs::remove_dir_all(api.join("gadgets")).expect("remove");
    until(&rx, "the removal", |l| l.contains("removed 2 stale files"));
    assert!(!out.join("src/gadgets").exists());
    let lib = std::fs::read_to_string(out.join("src/lib.rs")).expect("lib");
    assert!(!lib.contains("gadgets"), "{lib}");

    stop.store(true, Ordering::Relaxed);
    assert_eq!(watcher.join().expect("watcher thread"), 0);
}

/// R27: the watched directory deleted and created again (a checkout, a regenerated tree) is watched again and
/// rebuilt, instead of leaving a deaf watcher.
#[test]
fn r27_watch_survives_its_directory_being_recreated() {
    let Watching {
        tmp: _tmp,
        api,
        out,
        stop,
        rx,
        watcher,
    } = start_watching();
    let module = out.join("src/widgets/v1.rs");
    std::fs::remove_dir_all(&api).expect("remove");
    copy_tree(&workspace_root().join("examples/api"), &api);
    until(&rx, "the rebuild of the recreated tree", |l| {
        l.contains("(recreated)")
    });
    // Edits inside the new directory are seen.
    let widgets = api.join("widgets/v1/types.go");
    let original = std::fs::read_to_string(&widgets).expect("read");
    std::fs::write(
        &widgets,
        original.replace("+k8s:maxItems=3", "+k8s:maxItems=4"),
    )
    .expect("write");
    until(&rx, "the edit in the recreated tree", |_| {
        std::fs::read_to_string(&module)
            .is_ok_and(|m| m.contains("max_items(&p, new.map_or(0, |v| v.len()), 4i64)"))
    });
    stop.store(true, Ordering::Relaxed);
    assert_eq!(watcher.join().expect("watcher thread"), 0);
}

/// The Go target (`vgc watch --target go`, docs/go-backend.md): the initial build writes each tagged package's
/// `zz_generated.validations.go` into the package; a tag edit rewrites that package's file only, and the writes
/// themselves (the files, `.vgc/` staging) start no rebuild.
#[test]
fn watch_target_go_rewrites_only_the_package_whose_output_changed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    std::fs::write(root.join("go.mod"), "module example.com/w\n\ngo 1.24\n").expect("go.mod");
    let types = |name: &str, max: u32| {
        format!(
            "package v1\n\n// TypeMeta stands in for metav1's.\ntype TypeMeta struct {{\n\tKind string `json:\"kind,omitempty\"`\n}}\n\n// {name} is a kind.\ntype {name} struct {{\n\tTypeMeta `json:\",inline\"`\n\n\t// +k8s:optional\n\t// +k8s:maxLength={max}\n\tName *string `json:\"name,omitempty\"`\n}}\n"
        )
    };
    for (pkg, name) in [("a", "Apple"), ("b", "Banana")] {
        let dir = root.join(pkg).join("v1");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(
            dir.join("doc.go"),
            "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-scheme-registry=nil\n\npackage v1\n",
        )
        .expect("doc.go");
        std::fs::write(dir.join("types.go"), types(name, 16)).expect("types.go");
    }
    let opts = vgc::watch::WatchOptions {
        request: vgc::BuildRequest {
            path: root.to_string_lossy().into_owned(),
            out: Some(root.clone()),
            go: Some(vgc::driver::GoTarget::default()),
            ..Default::default()
        },
        short: true,
        color: false,
        timings: false,
        debounce: Duration::from_millis(20),
        max_rebuilds: None,
        stop: Some(Arc::new(AtomicBool::new(false))),
    };
    let stop = opts.stop.clone().expect("stop flag");
    let (tx, rx) = mpsc::channel();
    let watcher = std::thread::spawn(move || {
        let mut w = Lines {
            tx,
            buf: Vec::new(),
        };
        vgc::watch::run(&opts, &mut w)
    });
    let lines = until(&rx, "the initial build", |l| l.contains("initial build"));
    assert!(
        lines.iter().any(|l| l.contains("wrote 2 changed files")),
        "{lines:#?}"
    );
    until(&rx, "the watcher to start", |l| l.contains("watching"));
    let (a, b) = (
        root.join("a/v1/zz_generated.validations.go"),
        root.join("b/v1/zz_generated.validations.go"),
    );
    let b_time = std::fs::metadata(&b)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert!(
        std::fs::read_to_string(&a)
            .expect("a")
            .contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 16)")
    );

    std::fs::write(root.join("a/v1/types.go"), types("Apple", 17)).expect("edit");
    let lines = until(&rx, "the tag edit", |l| l.contains("wrote 1 changed file "));
    assert!(lines.iter().all(|l| !l.contains("error[")), "{lines:#?}");
    assert!(
        std::fs::read_to_string(&a)
            .expect("a")
            .contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 17)")
    );
    assert_eq!(
        std::fs::metadata(&b)
            .and_then(|m| m.modified())
            .expect("mtime"),
        b_time,
        "the other package's file is not rewritten"
    );
    // The write itself starts no rebuild: nothing more arrives.
    std::thread::sleep(Duration::from_millis(500));
    let more: Vec<String> = rx
        .try_iter()
        .filter(|l| l.starts_with("vgc watch:"))
        .collect();
    assert!(more.is_empty(), "{more:#?}");
    // A generated file removed by hand is written again (trial of issue 38: it stayed missing until a source edit).
    std::fs::remove_file(&b).expect("rm");
    until(&rx, "the removed file's rebuild", |l| {
        l.contains("wrote 1 changed file ")
    });
    assert!(
        std::fs::read_to_string(&b)
            .expect("b restored")
            .contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 16)")
    );
    stop.store(true, Ordering::Relaxed);
    assert_eq!(watcher.join().expect("watcher thread"), 0);
}
