//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/*`) through the fuzz targets' bodies on stable Rust
//! (issue 13; docs/reliability.md, "Fuzzing"). The bodies are `fuzz/src/lib.rs`, included here by path, so this
//! runs exactly what `cargo +nightly fuzz run <target>` runs. Every file of every target's corpus must go through
//! without a panic; each target's corpus must be non-empty, so a misplaced corpus fails the test instead of
//! passing vacuously.

#[allow(unreachable_pub, dead_code)]
#[path = "../../fuzz/src/lib.rs"]
mod targets;

use std::path::PathBuf;

/// Runs `body` on every file of `fuzz/corpus/<target>/`, naming the file of the first panic.
fn replay(target: &str, body: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", dir.display());
    for f in &files {
        let data = std::fs::read(f).expect("a corpus file");
        let outcome = std::panic::catch_unwind(|| body(&data));
        assert!(
            outcome.is_ok(),
            "fuzz target {target} panicked on {}",
            f.display()
        );
    }
}

#[test]
fn fuzz_corpus_tag_parser() {
    replay("tag_parser", targets::tag_parser);
}

#[test]
fn fuzz_corpus_go_frontend() {
    replay("go_frontend", targets::go_frontend);
}

#[test]
fn fuzz_corpus_go_structured() {
    replay("go_structured", targets::go_structured);
}

#[test]
fn fuzz_corpus_check_pipeline() {
    replay("check_pipeline", targets::check_pipeline);
}

#[test]
fn fuzz_corpus_cache_readers() {
    replay("cache_readers", targets::cache_readers);
}

#[test]
fn fuzz_corpus_validators() {
    replay("validators", targets::validators);
}

/// The structured generator renders tagged Go that the front end reads back (its output is not all rejected
/// as malformed, which would make the target fuzz nothing but the error path).
#[test]
fn fuzz_structured_generator_renders_tagged_go() {
    let seed: Vec<u8> = (0..512u32).map(|i| (i * 37 % 251) as u8).collect();
    let text = targets::go_structured_text(&seed).expect("a Go file");
    assert!(text.contains("package v1"), "{text}");
    let file = vgc_parser::go::parse(&text);
    assert_eq!(file.package, "v1", "{text}");
    let out = targets::check_files(&[("types.go", &text)]);
    assert!(
        out.stats.types > 0 && out.stats.tags > 0,
        "{:?}\n{text}",
        out.stats
    );
}

/// The in-memory module of the pipeline targets really goes through the pipeline: a valid tagged file gives its
/// types and tags, no errors.
#[test]
fn fuzz_check_pipeline_reaches_lowering() {
    let text = "package v1\n\n// T is a type.\ntype T struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tName string `json:\"name,omitempty\"`\n}\n";
    let out = targets::check_files(&[("types.go", text)]);
    assert_eq!(out.errors(), 0, "{:?}", out.diagnostics);
    assert_eq!(out.stats.types, 1, "{:?}", out.stats);
    assert_eq!(out.stats.tags, 2, "{:?}", out.stats);
}
