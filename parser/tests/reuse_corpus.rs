//! `vgc_parser::go::parse_reusing` on real files: every non-test `.go` file of k8s.io/api and k8s.io/apimachinery
//! v0.37.2 in the Go module cache (skipped, saying so, when the cache does not hold them: `go mod download
//! k8s.io/api@v0.37.2 k8s.io/apimachinery@v0.37.2` fills it), with random edits of its comments' bodies, two
//! rounds chained: the reusing parse equals the full parse of the edited text, GoFile for GoFile, and most edits are
//! reused.
// Test code reads the module cache; the crate itself stays pure (its clippy.toml).
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use vgc_parser::go::{parse_for_tag_prefix, parse_reusing};

/// The module cache (`GOMODCACHE`, else `$HOME/go/pkg/mod`).
fn mod_cache() -> Option<PathBuf> {
    std::env::var_os("GOMODCACHE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join("go/pkg/mod")))
}

fn go_files(root: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".go") && !name.ends_with("_test.go") {
                out.push(p);
            }
        }
    }
}

/// xorshift64*: deterministic edits without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// The bodies of the comments starting a line (after indentation): after `//`, before the line end (and a `\r`).
fn own_line_bodies(src: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in src.split_inclusive('\n') {
        let code = line.trim_end_matches(['\n', '\r']);
        let indent = code.len() - code.trim_start().len();
        if code[indent..].starts_with("//") {
            out.push(at + indent + 2..at + code.len());
        }
        at += line.len();
    }
    out
}

/// `src` with one to three random comment bodies replaced: a digit changed, text appended, the body emptied, a
/// tag, non-ASCII text.
fn edit(src: &str, rng: &mut Rng) -> String {
    let bodies = own_line_bodies(src);
    if bodies.is_empty() {
        return src.to_string();
    }
    let mut chosen: Vec<std::ops::Range<usize>> = (0..1 + rng.next(3))
        .map(|_| bodies[rng.next(bodies.len())].clone())
        .collect();
    chosen.sort_by_key(|r| std::cmp::Reverse(r.start));
    chosen.dedup();
    let mut out = src.to_string();
    for r in chosen {
        let body = &src[r.clone()];
        let new = match rng.next(5) {
            0 => match body.find(|c: char| c.is_ascii_digit()) {
                Some(i) => format!("{}7{}", &body[..i], &body[i + 1..]),
                None => format!("{body}7"),
            },
            1 => format!("{body} edited"),
            2 => String::new(),
            3 => " +k8s:minimum=5".to_string(),
            _ => format!("{body} — é"),
        };
        out.replace_range(r, &new);
    }
    out
}

#[test]
fn random_comment_edits_of_k8s_api_files_give_the_full_parse() {
    let Some(cache) = mod_cache() else {
        eprintln!("skipped: no Go module cache");
        return;
    };
    let roots = [
        cache.join("k8s.io/api@v0.37.2"),
        cache.join("k8s.io/apimachinery@v0.37.2"),
    ];
    if roots.iter().any(|r| !r.is_dir()) {
        eprintln!(
            "skipped: {} not in the module cache (go mod download k8s.io/api@v0.37.2 k8s.io/apimachinery@v0.37.2)",
            roots[0].display()
        );
        return;
    }
    let mut files = Vec::new();
    for r in &roots {
        go_files(r, &mut files);
    }
    files.sort();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut edits, mut reused, mut reusable) = (0, 0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a Go file");
        if !vgc_parser::go::may_declare(&text, "k8s:") {
            continue;
        }
        let mut prev = parse_reusing(&text, "k8s:", None).previous;
        reusable += usize::from(prev.is_reusable());
        let mut current = text;
        for _ in 0..2 {
            let new = edit(&current, &mut rng);
            let r = parse_reusing(&new, "k8s:", Some(&prev));
            assert!(
                r.file == parse_for_tag_prefix(&new, "k8s:"),
                "{}: the reusing parse differs after a comment edit",
                f.display()
            );
            edits += 1;
            reused += usize::from(r.reused);
            prev = r.previous;
            current = new;
        }
    }
    eprintln!(
        "{} files, {reusable} reusable after a full parse; {edits} edits, {reused} reused",
        edits / 2
    );
    // k8s.io/api alone has a types.go per group/version (60 at v0.37); most files and most edits are reusable
    // (an edit emptying a group's only line, or a file with an interface holding comments, parses).
    assert!(edits > 400, "only {edits} edits");
    assert!(reused * 10 > edits * 7, "{reused} of {edits} edits reused");
}

/// Times, on core/v1 `types.go` of k8s.io/api v0.37.2 (the module cache's), a full parse, a parse recording what a
/// later one may reuse, and a reusing parse after a one-tag edit; prints the medians and what a `Previous` holds. By hand, in release:
/// `cargo test --release -p vgc-parser --test reuse_corpus -- --ignored --nocapture` (docs/performance.md).
#[test]
#[ignore = "a measurement, run by hand in release"]
fn time_a_one_tag_edit_of_core_v1_types() {
    let Some(path) = mod_cache().map(|c| c.join("k8s.io/api@v0.37.2/core/v1/types.go")) else {
        return;
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} not in the module cache", path.display());
        return;
    };
    let edited = text.replacen("+k8s:minimum=0", "+k8s:minimum=1", 1);
    assert_ne!(edited, text, "the tag to edit");
    // What a Previous holds: the resident memory of 20 of them (Linux's /proc/self/statm, 4 KiB pages).
    let resident = || {
        std::fs::read_to_string("/proc/self/statm")
            .ok()
            .and_then(|s| s.split_whitespace().nth(1)?.parse::<usize>().ok())
            .map_or(0, |pages| pages * 4096)
    };
    let before = resident();
    let kept: Vec<vgc_parser::go::Previous> = (0..20)
        .map(|_| parse_reusing(&text, "k8s:", None).previous)
        .collect();
    let held = resident().saturating_sub(before) / kept.len();
    let previous = kept[0].clone();
    drop(kept);
    // The three interleaved, 31 rounds, so that other load on the machine falls on all three alike; medians.
    let mut times = [const { Vec::new() }; 3];
    for _ in 0..31 {
        let t = std::time::Instant::now();
        std::hint::black_box(parse_for_tag_prefix(&edited, "k8s:"));
        times[0].push(t.elapsed());
        let t = std::time::Instant::now();
        std::hint::black_box(parse_reusing(&edited, "k8s:", None));
        times[1].push(t.elapsed());
        let t = std::time::Instant::now();
        let r = parse_reusing(&edited, "k8s:", Some(&previous));
        times[2].push(t.elapsed());
        assert!(r.reused);
    }
    let [full, recording, reusing] = times.map(|mut t| {
        t.sort();
        t[t.len() / 2]
    });
    eprintln!(
        "{} ({} bytes): full parse {full:?}, recording parse {recording:?}, reusing parse {reusing:?}; \
         a Previous holds about {held} bytes",
        path.display(),
        text.len()
    );
}
