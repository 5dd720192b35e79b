//! The `vgc` command line.

use clap::{Parser, Subcommand};
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;
use vgc::{BuildRequest, build, render};
use vgc_codegen::RuntimeDep;

#[derive(Parser)]
#[command(
    name = "vgc",
    version,
    about = "Compiles Kubernetes declarative-validation tags into Rust validation code"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Command,
    /// Upstream profile: the Kubernetes release whose validation-gen to match (1.35, 1.36, 1.37, 1.38; default:
    /// `vgc.toml` `[upstream] version`, else detected from go.mod's k8s.io/apimachinery or k8s.io/api version,
    /// else the newest). See docs/upstream.md.
    #[arg(long, global = true, value_name = "VERSION")]
    upstream: Option<String>,
}

/// The upstream profile chosen for `path` by `--upstream` or `vgc.toml` (`config`: `--config`), `None` to detect
/// it; a bad choice is printed and turned into exit code 2.
fn upstream_choice(
    path: &str,
    flag: Option<&str>,
    config: Option<&str>,
) -> Result<Option<vgc_ir::profile::Selected>, ExitCode> {
    vgc::config::upstream_for(
        std::path::Path::new(path),
        flag,
        config.map(std::path::Path::new),
    )
    .map_err(|e| {
        let _ = writeln!(std::io::stderr(), "error: {e}");
        ExitCode::from(2)
    })
}

/// Options shared by `vgc build` and `vgc watch`.
#[derive(clap::Args)]
struct BuildArgs {
    /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its package
    /// only). Default: the current directory.
    path: Option<String>,
    /// Output directory for the generated crate.
    #[arg(long, default_value = "out/vgc-generated")]
    out: String,
    /// Name of the generated crate.
    #[arg(long, default_value = "vgc-generated")]
    crate_name: String,
    /// Path of a vgc-runtime checkout for the generated Cargo.toml, written as given (a relative path is relative
    /// to the output directory). Default: vgc-runtime from crates.io at the version this vgc generates code for.
    #[arg(long)]
    runtime_path: Option<String>,
    /// Version requirement of vgc-runtime on crates.io (default: the version this vgc generates code for).
    #[arg(long, conflicts_with = "runtime_path")]
    runtime_version: Option<String>,
    /// Print diagnostics one per line (`file:line:col: severity[CODE]: message`).
    #[arg(long)]
    short: bool,
    /// Write a stub `src/custom.rs` (functions that accept everything) for `+k8s:customValidation` when the
    /// output has none; replace the stub bodies with the real checks.
    #[arg(long)]
    custom_stub: bool,
    /// Extra root criterion for every enabled package (`*`, `TypesWithField=F`, `TypesWithSuffix=S`), as an
    /// activating package would add (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    roots: Vec<String>,
    /// Do not use the caches (`.vgc/` in the output directory): generate (and format) every module afresh.
    #[arg(long)]
    no_cache: bool,
    /// Replace files in the way of the output even when vgc did not generate them (without it, such a file is an
    /// error naming it).
    #[arg(long)]
    force: bool,
    /// Format the generated code with the `rustfmt` on PATH (timeout 60 s per process; output that does not
    /// parse is discarded) instead of vgc's built-in formatting (prettyplease), whose bytes depend on nothing
    /// installed.
    #[arg(long)]
    rustfmt: bool,
    /// Print the wall time of each phase (load, check, lower, lint, codegen, format, write) on stderr.
    #[arg(long)]
    timings: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Check tags and generate the Rust validation crate.
    Build(BuildArgs),
    /// Build, then rebuild incrementally on every change to the Go files (one live database; only what changed is
    /// re-analysed, generated, formatted and written), printing the diagnostics after each change.
    Watch {
        #[command(flatten)]
        build: BuildArgs,
        /// Milliseconds the debouncer waits for a burst of file events to end before rebuilding.
        #[arg(long, default_value_t = 20)]
        debounce_ms: u64,
        /// Stop after this many rebuilds (for scripts and benchmarks).
        #[arg(long, hide = true)]
        max_rebuilds: Option<usize>,
    },
    /// Lint tags: every `vgc check` diagnostic plus upstream's lint rules and vgc's (see docs/diagnostics.md).
    Lint {
        /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
        /// package only). Default: the current directory.
        path: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Print human diagnostics one per line.
        #[arg(long)]
        short: bool,
        /// Apply the safe fixes (canonical spellings) to the Go files, then report what remains.
        #[arg(long)]
        fix: bool,
        /// `--deny warnings`: exit 1 on warnings too.
        #[arg(long, value_parser = ["warnings"])]
        deny: Option<String>,
        /// Settings file (default: `vgc.toml` in the linted directory or a parent up to the module root).
        #[arg(long)]
        config: Option<String>,
        /// Drift exceptions file (`<group>/<Type>.<json.path>: <reason>` per line; default: `drift-exceptions`
        /// of `vgc.toml`, else `vgc-drift-exceptions.txt` in the linted directory if present).
        #[arg(long)]
        exceptions: Option<String>,
        /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
        #[arg(long = "roots", value_parser = root_criterion)]
        roots: Vec<String>,
        /// Which rules run: `all`, or `upstream` (only upstream validation-gen's rules of the profile in force,
        /// VGC0301–VGC0305; tag and type errors are still reported).
        #[arg(long, value_parser = ["all", "upstream"], default_value = "all")]
        rules: String,
    },
    /// Print the cross-field dependency graph (unions, modes, dependent fields, list keys, items, subfields,
    /// options, typedefs, type references) on stdout.
    Graph {
        /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
        /// package only). Default: the current directory.
        path: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "dot")]
        format: GraphFormat,
        /// Keep packages under this group path (e.g. `k8s.io/api/resource`).
        #[arg(long)]
        group: Option<String>,
        /// Keep packages of this version (e.g. `v1beta1`).
        #[arg(long)]
        version: Option<String>,
        /// Keep what is within `--depth` edges of the types with this name.
        #[arg(long = "type")]
        ty: Option<String>,
        /// Keep only these edge kinds (repeatable; see `docs/graph.md`).
        #[arg(long = "edge")]
        edges: Vec<String>,
        /// Depth for `--type` (default 2).
        #[arg(long)]
        depth: Option<usize>,
        /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
        #[arg(long = "roots", value_parser = root_criterion)]
        roots: Vec<String>,
    },
    /// Generate documentation: the static site (tag reference, diagnostics, API reference per package, offline
    /// search) into `--out`, or one reference on stdout.
    Docs {
        /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
        /// package only). Default: the current directory.
        path: Option<String>,
        /// What to produce.
        #[arg(long, value_enum, default_value = "site")]
        format: DocsFormat,
        /// Output directory for the site.
        #[arg(long, default_value = "out/vgc-docs")]
        out: String,
        /// A directory with a `layout.html` (placeholders `{{title}}`, `{{root}}`, `{{body}}`) replacing the
        /// built-in page layout.
        #[arg(long)]
        templates: Option<String>,
        /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
        #[arg(long = "roots", value_parser = root_criterion)]
        roots: Vec<String>,
    },
    /// Check tags only; write nothing.
    Check {
        /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
        /// package only). Default: the current directory.
        path: Option<String>,
        /// Print diagnostics one per line.
        #[arg(long)]
        short: bool,
        /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
        #[arg(long = "roots", value_parser = root_criterion)]
        roots: Vec<String>,
    },
}

/// `vgc docs --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum DocsFormat {
    /// The static site in `--out`.
    Site,
    /// The tag reference as Markdown on stdout.
    TagsMarkdown,
    /// The tag reference as JSON in the shape of upstream `validation-gen --docs`, on stdout.
    TagsJson,
    /// The diagnostics reference as Markdown on stdout.
    DiagnosticsMarkdown,
}

/// `vgc graph --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid flowchart.
    Mermaid,
    /// JSON (docs/graph.md).
    Json,
    /// GraphML.
    Graphml,
}

/// `vgc lint --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    /// codespan-reporting text on stderr.
    Human,
    /// The JSON report on stdout (docs/lint.md).
    Json,
    /// SARIF 2.1.0 on stdout.
    Sarif,
}

/// Parses a `--roots` value: `*`, `TypesWithField=<GoField>` or `TypesWithSuffix=<suffix>` (upstream's
/// `+k8s:validation-gen` values, `false` aside); anything else is a usage error (exit 2).
fn root_criterion(s: &str) -> Result<String, String> {
    let ok = s == "*"
        || s.strip_prefix("TypesWithField=").is_some_and(|f| {
            f.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && f.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
        || s.strip_prefix("TypesWithSuffix=")
            .is_some_and(|x| !x.is_empty());
    if ok {
        Ok(s.to_string())
    } else {
        Err("expected `*`, `TypesWithField=<GoField>` or `TypesWithSuffix=<suffix>`".into())
    }
}

/// Resolves a `PATH` argument ([`vgc::target::resolve`]); on failure prints the error and returns exit code 2.
fn target(path: Option<String>) -> Result<String, ExitCode> {
    vgc::target::resolve(path.as_deref()).map_err(|e| {
        let _ = writeln!(std::io::stderr().lock(), "error: {e}");
        ExitCode::from(2)
    })
}

#[allow(clippy::too_many_arguments)] // one per command-line option
fn run_lint(
    path: Option<String>,
    format: Format,
    short: bool,
    fix: bool,
    deny: Option<String>,
    config: Option<String>,
    exceptions: Option<String>,
    roots: Vec<String>,
    upstream: Option<String>,
    upstream_only: bool,
) -> ExitCode {
    let start = Instant::now();
    let path = match target(path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let upstream = match upstream_choice(&path, upstream.as_deref(), config.as_deref()) {
        Ok(u) => u,
        Err(code) => return code,
    };
    let mut stderr = std::io::stderr().lock();
    let mut cfg = match vgc::config::settings_for(
        std::path::Path::new(&path),
        config.as_deref().map(std::path::Path::new),
        exceptions.as_deref().map(std::path::Path::new),
    ) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return ExitCode::from(2);
        }
    };
    cfg.lint.upstream_only = upstream_only;
    let req = BuildRequest {
        path: path.clone(),
        out: None,
        crate_name: "vgc-generated".into(),
        runtime: RuntimeDep::Version("0.1".into()),
        extra_roots: roots,
        check_only: true,
        custom_stub: false,
        no_cache: false,
        force: false,
        rustfmt: false,
        upstream,
    };
    let mut outcome = vgc::lint(&req, &cfg.lint);
    if fix {
        let fixed = render::apply_fixes(&outcome.diagnostics, &outcome.sources);
        for (file, text) in &fixed {
            if let Err(e) = vgc::sys::write_atomic(std::path::Path::new(file), text) {
                let _ = writeln!(stderr, "error: {file}: {e}");
                return ExitCode::from(2);
            }
        }
        let _ = writeln!(stderr, "vgc: fixed {} files", fixed.len());
        outcome = vgc::lint(&req, &cfg.lint);
    }
    let base = std::path::Path::new(&path);
    let base = if base.is_dir() {
        path.clone()
    } else {
        base.parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    };
    match format {
        Format::Human => {
            let text = render::text(&outcome.diagnostics, &outcome.sources, short);
            let _ = stderr.write_all(text.as_bytes());
            let _ = stderr.write_all(render::drift_table(&outcome.drift).as_bytes());
        }
        Format::Json | Format::Sarif => {
            let v = if matches!(format, Format::Json) {
                render::json(
                    &outcome.diagnostics,
                    &outcome.sources,
                    &base,
                    &outcome.drift,
                )
            } else {
                render::sarif(&outcome.diagnostics, &outcome.sources, &base)
            };
            let text = serde_json::to_string_pretty(&v).unwrap_or_default();
            let _ = writeln!(std::io::stdout().lock(), "{text}");
        }
    }
    let _ = writeln!(
        stderr,
        "vgc lint: {} packages, {} warnings, {} errors in {:.2}s{}",
        outcome.stats.packages,
        outcome.warnings(),
        outcome.errors(),
        start.elapsed().as_secs_f64(),
        profile_suffix(&outcome)
    );
    let code = vgc::exit_code(&outcome);
    if code != 0 {
        return ExitCode::from(code);
    }
    if (deny.is_some() || cfg.deny_warnings) && outcome.warnings() > 0 {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Checks and lowers `path` (the current directory by default) for commands that read the plan; on errors, prints
/// them in short form and returns the exit code.
fn analyzed(
    path: Option<String>,
    roots: Vec<String>,
    upstream: Option<String>,
    stderr: &mut impl std::io::Write,
) -> Result<vgc::BuildOutcome, ExitCode> {
    let mut req = BuildRequest::check(target(path)?, roots);
    req.upstream = upstream_choice(&req.path, upstream.as_deref(), None)?;
    let outcome = build(&req);
    if outcome.errors() > 0 || outcome.stats.packages == 0 {
        let text = render::text(&outcome.diagnostics, &outcome.sources, true);
        let _ = stderr.write_all(text.as_bytes());
        return Err(ExitCode::from(vgc::exit_code(&outcome).max(1)));
    }
    Ok(outcome)
}

fn run_graph(
    path: Option<String>,
    format: GraphFormat,
    filter: vgc_lowering::graph::Filter,
    roots: Vec<String>,
    upstream: Option<String>,
) -> ExitCode {
    use vgc_lowering::graph;
    let mut stderr = std::io::stderr().lock();
    for k in &filter.edges {
        if !graph::EDGE_KINDS.contains(&k.as_str()) {
            let _ = writeln!(
                stderr,
                "error: unknown edge kind {k:?} (known: {})",
                graph::EDGE_KINDS.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let outcome = match analyzed(path, roots, upstream, &mut stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let g = graph::filter(&graph::build(&outcome.plan), &filter);
    let text = match format {
        GraphFormat::Dot => graph::to_dot(&g),
        GraphFormat::Mermaid => graph::to_mermaid(&g),
        GraphFormat::Json => {
            serde_json::to_string_pretty(&graph::to_json(&g)).unwrap_or_default() + "\n"
        }
        GraphFormat::Graphml => graph::to_graphml(&g),
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    let _ = writeln!(
        stderr,
        "vgc graph: {} nodes, {} edges{}",
        g.nodes.len(),
        g.edges.len(),
        profile_suffix(&outcome)
    );
    ExitCode::SUCCESS
}

fn run_docs(
    path: Option<String>,
    format: DocsFormat,
    out: String,
    templates: Option<String>,
    roots: Vec<String>,
    upstream: Option<String>,
) -> ExitCode {
    let mut stderr = std::io::stderr().lock();
    let mut stdout = std::io::stdout().lock();
    match format {
        DocsFormat::TagsMarkdown => {
            let _ = stdout.write_all(vgc_docs_gen::tag_reference_markdown().as_bytes());
            return ExitCode::SUCCESS;
        }
        DocsFormat::TagsJson => {
            let text = serde_json::to_string_pretty(&vgc_docs_gen::tag_reference_json())
                .unwrap_or_default();
            let _ = writeln!(stdout, "{text}");
            return ExitCode::SUCCESS;
        }
        DocsFormat::DiagnosticsMarkdown => {
            let _ = stdout.write_all(vgc_docs_gen::diagnostics_markdown().as_bytes());
            return ExitCode::SUCCESS;
        }
        DocsFormat::Site => {}
    }
    let layout = match templates.map(|d| std::path::Path::new(&d).join("layout.html")) {
        None => None,
        Some(p) => match std::fs::read_to_string(&p) {
            Ok(t) => Some(t),
            Err(e) => {
                let _ = writeln!(stderr, "error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
    let outcome = match analyzed(path, roots, upstream, &mut stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let files = vgc_docs_gen::site(&outcome.plan, layout.as_deref());
    let dir = std::path::Path::new(&out);
    for (rel, text) in &files {
        if let Err(e) = vgc::sys::write_atomic(&dir.join(rel), text) {
            let _ = writeln!(stderr, "error: {}: {e}", dir.join(rel).display());
            return ExitCode::from(2);
        }
    }
    let _ = writeln!(
        stderr,
        "vgc docs: wrote {} files to {}{}",
        files.len(),
        dir.display(),
        profile_suffix(&outcome)
    );
    ExitCode::SUCCESS
}

/// The build request of `vgc build` / `vgc watch` options (exit code 2 when the path cannot be used).
fn build_request(a: BuildArgs) -> Result<BuildRequest, ExitCode> {
    let runtime = match (a.runtime_path, a.runtime_version) {
        (_, Some(v)) => RuntimeDep::Version(v),
        (Some(p), None) => RuntimeDep::Path(p),
        (None, None) => RuntimeDep::published(),
    };
    let out = std::path::absolute(&a.out).unwrap_or_else(|_| a.out.into());
    Ok(BuildRequest {
        path: target(a.path)?,
        out: Some(out),
        crate_name: a.crate_name,
        runtime,
        extra_roots: a.roots,
        check_only: false,
        custom_stub: a.custom_stub,
        no_cache: a.no_cache,
        force: a.force,
        rustfmt: a.rustfmt,
        upstream: None,
    })
}

/// `" (upstream 1.38: detected from go.mod k8s.io/apimachinery v0.38.0-alpha.2)"` for the summary lines.
fn profile_suffix(outcome: &vgc::BuildOutcome) -> String {
    outcome
        .profile
        .as_ref()
        .map(|p| format!(" (upstream {}: {})", p.version, p.why))
        .unwrap_or_default()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = Instant::now();
    let upstream = cli.upstream;
    let (req, short, timings) = match cli.cmd {
        Command::Docs {
            path,
            format,
            out,
            templates,
            roots,
        } => return run_docs(path, format, out, templates, roots, upstream),
        Command::Graph {
            path,
            format,
            group,
            version,
            ty,
            edges,
            depth,
            roots,
        } => {
            let filter = vgc_lowering::graph::Filter {
                group,
                version,
                ty,
                edges,
                depth,
            };
            return run_graph(path, format, filter, roots, upstream);
        }
        Command::Lint {
            path,
            format,
            short,
            fix,
            deny,
            config,
            exceptions,
            roots,
            rules,
        } => {
            return run_lint(
                path,
                format,
                short,
                fix,
                deny,
                config,
                exceptions,
                roots,
                upstream,
                rules == "upstream",
            );
        }
        Command::Build(args) => {
            let timings = args.timings;
            let short = args.short;
            match build_request(args) {
                Ok(req) => (req, short, timings),
                Err(code) => return code,
            }
        }
        Command::Watch {
            build,
            debounce_ms,
            max_rebuilds,
        } => {
            let (short, timings) = (build.short, build.timings);
            let mut request = match build_request(build) {
                Ok(req) => req,
                Err(code) => return code,
            };
            request.upstream = match upstream_choice(&request.path, upstream.as_deref(), None) {
                Ok(u) => u,
                Err(code) => return code,
            };
            let opts = vgc::watch::WatchOptions {
                request,
                short,
                timings,
                debounce: std::time::Duration::from_millis(debounce_ms),
                max_rebuilds,
                stop: None,
            };
            return ExitCode::from(vgc::watch::run(&opts, &mut std::io::stderr().lock()));
        }
        Command::Check { path, short, roots } => match target(path) {
            Ok(path) => (BuildRequest::check(path, roots), short, false),
            Err(code) => return code,
        },
    };
    let mut req = req;
    req.upstream = match upstream_choice(&req.path, upstream.as_deref(), None) {
        Ok(u) => u,
        Err(code) => return code,
    };
    let outcome = build(&req);
    let mut stderr = std::io::stderr().lock();
    let text = render::text(&outcome.diagnostics, &outcome.sources, short);
    let _ = stderr.write_all(text.as_bytes());
    let s = outcome.stats;
    let _ = writeln!(
        stderr,
        "vgc: {} packages, {} types, {} tags ({} lowered, {} consumed as metadata, {} reported, {} not lowered yet), {} checks generated, {} warnings, {} errors in {:.2}s{}",
        s.packages,
        s.types,
        s.tags,
        s.lowered,
        s.consumed,
        s.reported,
        s.not_lowered,
        s.checks,
        outcome.warnings(),
        outcome.errors(),
        start.elapsed().as_secs_f64(),
        profile_suffix(&outcome)
    );
    for n in &outcome.notes {
        let _ = writeln!(stderr, "note: {n}");
    }
    if timings {
        let phases: Vec<String> = outcome
            .timings
            .iter()
            .map(|(phase, d)| format!("{phase} {:.1} ms", d.as_secs_f64() * 1e3))
            .collect();
        let _ = writeln!(stderr, "vgc: timings: {}", phases.join(", "));
    }
    if let Some(e) = &outcome.io_error {
        let _ = writeln!(stderr, "error: {e}");
    }
    let code = vgc::exit_code(&outcome);
    if code != 0 {
        return ExitCode::from(code);
    }
    if let Some(out) = &req.out {
        if outcome.up_to_date {
            let _ = writeln!(
                stderr,
                "vgc: {} is up to date (no input changed since the last clean build)",
                out.display()
            );
        } else {
            let _ = writeln!(
                stderr,
                "vgc: wrote {} files to {} ({} changed)",
                outcome.files.len(),
                out.display(),
                outcome.written
            );
        }
    }
    ExitCode::SUCCESS
}
