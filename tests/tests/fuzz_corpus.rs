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

/// Brief fuzzing on stable (CI has no nightly for libFuzzer): `runs` inputs made by mutating corpus files —
/// byte flips, random bytes, insertions, deletions, duplicated ranges and splices of two files — with a fixed
/// seed per target, so a failure names an input that the same run reproduces. Not coverage-guided; the long runs
/// are libFuzzer's (docs/reliability.md, "Fuzzing").
fn mutate(target: &str, body: fn(&[u8]), runs: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut corpus: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| std::fs::read(e.expect("a directory entry").path()).expect("a corpus file"))
        .collect();
    corpus.sort();
    assert!(!corpus.is_empty(), "{}: empty corpus", dir.display());
    // xorshift64*, seeded from the target's name.
    let mut state = target.bytes().fold(0x9E37_79B9_7F4A_7C15_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    let mut next = move |n: usize| -> usize {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        if n == 0 { 0 } else { (r % n as u64) as usize }
    };
    let start = std::time::Instant::now();
    for run in 0..runs {
        let mut data = corpus[next(corpus.len())].clone();
        for _ in 0..=next(4) {
            let len = data.len();
            match next(6) {
                0 if len > 0 => {
                    let i = next(len);
                    data[i] ^= 1 << next(8);
                }
                1 if len > 0 => {
                    let i = next(len);
                    data[i] = next(256) as u8;
                }
                2 => {
                    let i = next(len + 1);
                    let b: Vec<u8> = (0..=next(8)).map(|_| next(256) as u8).collect();
                    data.splice(i..i, b);
                }
                3 if len > 0 => {
                    let i = next(len);
                    let j = (i + 1 + next(16)).min(len);
                    data.drain(i..j);
                }
                4 if len > 0 => {
                    let i = next(len);
                    let j = (i + 1 + next(64)).min(len);
                    let piece = data[i..j].to_vec();
                    let at = next(len + 1);
                    data.splice(at..at, piece);
                }
                _ => {
                    let other = &corpus[next(corpus.len())];
                    let cut = next(data.len() + 1);
                    let from = next(other.len() + 1);
                    data.truncate(cut);
                    data.extend_from_slice(&other[from..]);
                }
            }
        }
        let outcome = std::panic::catch_unwind(|| body(&data));
        assert!(
            outcome.is_ok(),
            "fuzz target {target} panicked on mutated input #{run}: {:?}",
            String::from_utf8_lossy(&data)
        );
    }
    eprintln!("{target}: {runs} mutated inputs in {:.1?}", start.elapsed());
}

#[test]
fn fuzz_mutations_briefly() {
    // Counts sized for a few seconds per target in a debug build on one core.
    mutate("tag_parser", targets::tag_parser, 300_000);
    mutate("validators", targets::validators, 300_000);
    mutate("go_frontend", targets::go_frontend, 10_000);
    mutate("cache_readers", targets::cache_readers, 10_000);
    mutate("check_pipeline", targets::check_pipeline, 2_000);
    mutate("go_structured", targets::go_structured, 2_000);
    mutate("validate_reader", targets::validate_reader, 1_000);
    mutate("output_journal", targets::output_journal, 1_000);
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

#[test]
fn fuzz_corpus_validate_reader() {
    replay("validate_reader", targets::validate_reader);
}

#[test]
fn fuzz_corpus_output_journal() {
    replay("output_journal", targets::output_journal);
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

/// Upstream's inputs as fuzz seeds (issue 13: "a corpus seeded from … upstream's output_tests and k8s.io/api"):
/// every tagged `*.go` file of `k8s.io/code-generator`'s `cmd/validation-gen/output_tests` and of `k8s.io/api`, at
/// the oracle's release, fetched through the Go module proxy at test time (never committed), goes through
/// `go_frontend` and `check_pipeline`, and each of their distinct `// +…` lines through `tag_parser`, without a
/// panic — the same files `scripts/fuzz-corpus.py --upstream DIR` writes for the long libFuzzer runs.
#[test]
fn fuzz_upstream_seeds_replay() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let version = vgc_tests::harness::upstream_version();
    let mut files = Vec::new();
    for (module, folder) in [
        (
            vgc_tests::harness::code_generator_module(),
            "cmd/validation-gen/output_tests",
        ),
        (format!("k8s.io/api@{version}"), ""),
    ] {
        let (dir, _) = vgc_tests::harness::download_module(&module, tmp.path());
        let mut stack = vec![PathBuf::from(dir).join(folder)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("module dir").flatten() {
                let p = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if p.is_dir() {
                    stack.push(p);
                } else if name.ends_with(".go")
                    && !name.ends_with("_test.go")
                    && !name.starts_with("zz_generated")
                {
                    let data = std::fs::read(&p).expect("a Go file");
                    if data.windows(4).any(|w| w == b"// +") && data.len() <= 256 * 1024 {
                        files.push((p, data));
                    }
                }
            }
        }
    }
    files.sort();
    assert!(files.len() > 200, "upstream seeds found: {}", files.len());
    let mut tags = std::collections::BTreeSet::new();
    for (path, data) in &files {
        for target in [targets::go_frontend as fn(&[u8]), targets::check_pipeline] {
            let outcome = std::panic::catch_unwind(|| target(data));
            assert!(
                outcome.is_ok(),
                "a fuzz target panicked on {}",
                path.display()
            );
        }
        for line in String::from_utf8_lossy(data).lines() {
            if let Some(t) = line.trim_start().strip_prefix("//").map(str::trim_start)
                && let Some(t) = t.strip_prefix('+')
            {
                tags.insert(t.to_string());
            }
        }
    }
    for t in &tags {
        let outcome = std::panic::catch_unwind(|| targets::tag_parser(t.as_bytes()));
        assert!(outcome.is_ok(), "tag_parser panicked on {t:?}");
    }
    assert!(tags.len() > 500, "upstream tag lines: {}", tags.len());
}
