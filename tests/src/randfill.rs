//! The randfill generator's Rust side (`tests/upstream/randfill.go` is the Go side, compiled into every Go driver):
//! harvesting fill hints from the Go source of the input packages — never from vgc's plan — and asking a driver
//! for random cases.
//!
//! Hints: every double-quoted string literal of the packages' `.go` files (code and comments, at most 200
//! characters, no escapes), typed string constants (`Name Type = "value"`) as enum values of `Type`, every integer in
//! a `+k8s:` line with its neighbours, option names of `ifEnabled(X)`/`ifDisabled(X)`, and the subresource paths
//! (`case "/…":`) of the upstream-generated registrations.

use crate::differential::run;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Fill limits of one suite.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// randfill `MaxDepth` (every pointer, slice, map and struct level counts).
    pub max_depth: u32,
    /// randfill `NilChance` for pointers, slices and maps.
    pub nil_chance: f64,
    /// Lists and maps get `0..=max_elements` entries.
    pub max_elements: u32,
}

/// Hints harvested from Go source.
#[derive(Debug, Default)]
pub struct Hints {
    strings: BTreeSet<String>,
    ints: BTreeSet<i64>,
    enums: BTreeMap<String, BTreeSet<String>>,
    options: BTreeSet<String>,
    subresources: BTreeSet<String>,
}

fn go_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !(name.starts_with('.') || name.starts_with('_') || name == "testdata") {
                go_files(&p, out);
            }
        } else if name.ends_with(".go") && !name.ends_with("_test.go") {
            out.push(p);
        }
    }
}

impl Hints {
    /// Harvests the Go files under `dir` (recursively, no tests); generated validation files contribute only their
    /// subresource paths.
    pub fn harvest(&mut self, dir: &Path) {
        let literal = regex::Regex::new(r#""([^"\\\n]{0,200})""#).expect("regex");
        let typed_const =
            regex::Regex::new(r#"^\s*\w+\s+([A-Za-z_]\w*)\s*=\s*"([^"\\]*)""#).expect("regex");
        let number = regex::Regex::new(r"-?\b\d+\b").expect("regex");
        let option = regex::Regex::new(r"if(?:Enabled|Disabled)\(([^)]+)\)").expect("regex");
        let case = regex::Regex::new(r#"case "(/[^"]*)""#).expect("regex");
        let mut files = Vec::new();
        go_files(dir, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            if f.ends_with("zz_generated.validations.go") {
                for c in case.captures_iter(&text) {
                    if &c[1] != "/" {
                        self.subresources.insert(c[1].to_string());
                    }
                }
                continue;
            }
            for line in text.lines() {
                let t = line.trim_start();
                if t.starts_with("import") || t.starts_with("package") {
                    continue;
                }
                for c in literal.captures_iter(line) {
                    self.strings.insert(c[1].to_string());
                }
                if let Some(c) = typed_const.captures(line) {
                    self.enums
                        .entry(c[1].to_string())
                        .or_default()
                        .insert(c[2].to_string());
                }
                if t.starts_with("// +k8s:") || t.starts_with("//+k8s:") {
                    for m in number.find_iter(line) {
                        if let Ok(n) = m.as_str().parse::<i64>() {
                            self.ints
                                .extend([n.saturating_sub(1), n, n.saturating_add(1)]);
                        }
                    }
                    for c in option.captures_iter(line) {
                        self.options.insert(c[1].trim_matches('"').to_string());
                    }
                }
            }
        }
    }

    /// Writes the hints file the Go side reads.
    pub fn write(&self, file: &Path, limits: Limits) {
        let v = json!({
            "strings": self.strings,
            "ints": self.ints,
            "enums": self.enums,
            "options": self.options,
            "subresources": self.subresources,
            "maxDepth": limits.max_depth,
            "nilChance": limits.nil_chance,
            "maxElements": limits.max_elements,
        });
        std::fs::write(file, serde_json::to_string(&v).expect("hints")).expect("write hints");
    }
}

/// What the Go side produced: the cases, attempts skipped by reason, and how many objects' JSON changed on a second
/// round trip (kept: both sides validate the same JSON).
#[derive(Debug)]
pub struct Generated {
    /// The generated cases.
    pub cases: Vec<Value>,
    /// Attempts the Go side skipped, by reason.
    pub skipped: BTreeMap<String, u64>,
    /// Objects whose JSON changed on a second round trip.
    pub lossy: u64,
}

impl Generated {
    /// `"<n> skipped (<reason>: <count>, …), <m> lossy"` for the summary line.
    pub fn describe(&self) -> String {
        let total: u64 = self.skipped.values().sum();
        let reasons: Vec<String> = self
            .skipped
            .iter()
            .map(|(r, n)| format!("{r}: {n}"))
            .collect();
        format!(
            "{total} attempts skipped ({}), {} objects whose JSON changes on a second round trip",
            if reasons.is_empty() {
                "none".to_string()
            } else {
                reasons.join("; ")
            },
            self.lossy
        )
    }
}

/// Asks the Go driver `oracle` for `n` randfill cases with `seed`, using the hints file.
pub fn generate(oracle: &Path, n: usize, seed: u64, hints: &Path) -> Generated {
    let out = run_value(
        Command::new(oracle)
            .env("VGC_RANDFILL", n.to_string())
            .env("VGC_RANDFILL_SEED", seed.to_string())
            .env("VGC_RANDFILL_HINTS", hints),
    );
    let cases = out["cases"].as_array().cloned().unwrap_or_default();
    let skipped = out["skipped"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    Generated {
        cases,
        skipped,
        lossy: out["lossy"].as_u64().unwrap_or(0),
    }
}

fn run_value(cmd: &mut Command) -> Value {
    let out = cmd.output().expect("the Go driver runs");
    assert!(
        out.status.success(),
        "randfill generation failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("randfill JSON")
}

/// Runs a case runner on `cases` (see [`crate::differential::run`]).
pub fn run_cases(cmd: &mut Command, cases: &[Value]) -> Vec<Value> {
    run(cmd, &serde_json::to_string(cases).expect("cases"))
}

/// The plan the interpreter (`vgc-validate`) evaluates as the third party of a randfill phase, and whether typedef
/// roots are routed on the subresource (as the suite's Rust runner calls them, `harness::rust_runner`).
#[derive(Clone, Copy)]
pub struct Interpreted<'a> {
    /// The plan the Rust runner's crate was generated from.
    pub plan: &'a vgc_lowering::CratePlan,
    /// `route_typedefs` of the suite's `harness::rust_runner`.
    pub route_typedefs: bool,
    /// The suite's `customValidation` functions as the interpreter gets them.
    pub custom: crate::interpreter::Customize,
}

/// The randfill phase of a suite whose Go driver and Rust runner are built: hints from `sources` (Go package
/// directories), `n` cases with `seed`, both sides, the comparison (deviations D2, D3, D9, D11 recognised as in the
/// plan-driven runs), and the interpreter against the generated Rust on the same cases (asserted here: exact agreement).
/// Prints `<label>: seed …: …` and returns the Go/Rust summary (the caller asserts).
#[allow(clippy::too_many_arguments)] // one per input of the phase; a struct would only rename them
pub fn phase(
    label: &str,
    oracle: &Path,
    rust_runner: &Path,
    sources: &[&Path],
    limits: Limits,
    n: usize,
    seed: u64,
    work: &Path,
    interpreted: Interpreted<'_>,
) -> crate::harness::Summary {
    let mut hints = Hints::default();
    for s in sources {
        hints.harvest(s);
    }
    let hints_file = work.join("randfill-hints.json");
    hints.write(&hints_file, limits);
    let start = std::time::Instant::now();
    let generated = generate(oracle, n, seed, &hints_file);
    let gen_time = start.elapsed().as_secs_f64();
    let (upstream, ours, go_run, rust_run) =
        crate::harness::run_both(oracle, rust_runner, &generated.cases);
    // The interpreter against the generated Rust, exactly (before the release view).
    let agreement = crate::interpreter::agree(
        interpreted.plan,
        &generated.cases,
        &ours,
        interpreted.route_typedefs,
        interpreted.custom,
    );
    eprintln!("{label} interpreter: seed {seed}: {}", agreement.line());
    agreement.assert_clean(&work.join("randfill-interpreter-mismatches.txt"));
    // vgc's lines as the oracle's release reports them (1.35/1.36 carry no short-circuit mark, …).
    let ours = crate::harness::release_view(&ours);
    let summary = crate::harness::compare_runs(&upstream, &ours, &generated.cases);
    let roots: BTreeSet<&str> = generated
        .cases
        .iter()
        .filter_map(|c| c["kind"].as_str())
        .collect();
    eprintln!(
        "{label}: seed {seed}: {n} attempts, {}; {} ({:.1} mismatches per 10,000); generation {gen_time:.1}s, Go run \
         {go_run:.1}s, Rust run {rust_run:.1}s",
        generated.describe(),
        summary.line(roots.len()),
        summary.mismatches.len() as f64 * 10_000.0 / summary.cases.max(1) as f64
    );
    summary
}

/// One entry of `tests/randfill_gaps.toml`: a class of mismatch a suite's randfill run may show while vgc has the
/// gap.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassGap {
    /// `output_tests`, `conformance` or `k8s`.
    suite: String,
    /// Only mismatches on kinds of this package (relative to the suite's root; `output_tests` only).
    #[serde(default)]
    package: Option<String>,
    /// `decode`, `detail-text` or `semantic` (`differential::mismatch_class`).
    class: String,
    /// What is wrong (for the reader).
    note: String,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassGaps {
    upstream: String,
    #[serde(default)]
    gap: Vec<ClassGap>,
}

/// The mismatch classes `tests/randfill_gaps.toml` allows for `suite` — (package or `""` for every package, class)
/// — with their notes.
pub fn allowed_classes(suite: &str) -> BTreeMap<(String, String), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = root.join("randfill_gaps.toml");
    let text = std::fs::read_to_string(&file).expect("tests/randfill_gaps.toml");
    let gaps: ClassGaps =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // The file is measured against the default oracle (the newest released generator); another release's run
    // (`VGC_ORACLE_UPSTREAM`) is held to the same vgc-side gap classes, but not to their occurring
    // (`assert_within_gaps`).
    if !older_release() {
        assert_eq!(
            gaps.upstream,
            crate::harness::upstream_version(),
            "{}: measured against another upstream",
            file.display()
        );
    }
    for g in &gaps.gap {
        assert!(
            ["decode", "detail-text", "semantic"].contains(&g.class.as_str()),
            "{}: unknown class {}",
            file.display(),
            g.class
        );
    }
    gaps.gap
        .into_iter()
        .filter(|g| g.suite == suite)
        .map(|g| ((g.package.unwrap_or_default(), g.class), g.note))
        .collect()
}

/// True when the oracle runs another generator than the default one, the newest release
/// (`VGC_ORACLE_UPSTREAM=1.35`, or `1.38` for the pinned pre-release).
fn older_release() -> bool {
    let newest = vgc_ir::Upstream::ALL
        .into_iter()
        .rev()
        .find(|u| crate::harness::released(*u));
    Some(crate::harness::oracle_upstream()) != newest
}

/// Asserts a randfill run of `suite` shows only the mismatch classes `tests/randfill_gaps.toml` lists for it, and
/// every listed class at least once (a fixed gap must be deleted from the file; not for an older release,
/// [`older_release`]). Writes every mismatch to `report`.
pub fn assert_within_gaps(suite: &str, summary: &crate::harness::Summary, report: &Path) {
    std::fs::write(report, summary.mismatches.join("\n")).expect("mismatch report");
    let allowed = allowed_classes(suite);
    let by_class = summary.by_class();
    let unlisted: Vec<&String> = summary
        .mismatches
        .iter()
        .zip(&summary.classes)
        .filter(|(_, c)| !allowed.contains_key(&(String::new(), (**c).to_string())))
        .map(|(m, _)| m)
        .collect();
    let stale: Vec<String> = allowed
        .iter()
        .filter(|((_, c), _)| !older_release() && !by_class.contains_key(c.as_str()))
        .map(|((p, c), note)| format!("{p} {c} ({note})"))
        .collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "{suite} randfill: {} mismatches of classes tests/randfill_gaps.toml does not list (all mismatches in {}); \
         listed classes that no longer occur: {stale:?}\n{}",
        unlisted.len(),
        report.display(),
        unlisted
            .iter()
            .take(4)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(
        summary.undecodable, 0,
        "every random object decodes on at least one side"
    );
}
