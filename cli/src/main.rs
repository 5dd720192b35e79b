//! The `vgc` command line.

use clap::{Parser, Subcommand};
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;
use vgc::{BuildRequest, build, render};
use vgc_codegen::RuntimeDep;

/// mimalloc instead of the system allocator: `vgc validate` builds and frees a JSON value, a span table and a
/// decoded value per document, and `vgc build` an IR per file; glibc's malloc and free were a fifth of the
/// profile of validating k8s.io/kubernetes' test manifests (`docs/performance.md`). Built with its `no_thp`
/// feature: with transparent huge pages (`madvise` mode, as on most distributions) every fresh 2 MiB page was
/// zeroed whole on its first touch, and the kernel's page zeroing was a sixth to a third of both profiles.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// A YAML file of project-defined `+k8s:format` values, `formats: [{name, docs, pattern, message}]`
    /// (repeatable; upstream validation-gen's flag, kubernetes#142116; 1.38 profile). Also `vgc.toml`
    /// `[build] validation-extensions-files`. See docs/upstream.md.
    #[arg(
        long = "validation-extensions-file",
        global = true,
        value_name = "PATH"
    )]
    validation_extensions_file: Vec<String>,
    /// The tag prefix validation tags are written with: `+<PREFIX>required` (upstream validation-gen's flag,
    /// kubernetes#141866; 1.38 profile). Empty or one or more ':'-terminated segments (default `k8s:`; also
    /// `vgc.toml` `[upstream] tag-prefix`). See docs/upstream.md.
    #[arg(long = "tag-prefix", global = true, value_name = "PREFIX")]
    tag_prefix: Option<String>,
}

/// The global options that choose how sources are read: `--upstream` and `--tag-prefix`.
struct Globals {
    upstream: Option<String>,
    tag_prefix: Option<String>,
}

impl Globals {
    /// Sets `req`'s upstream profile and tag prefix from the flags, else `vgc.toml` (`config`: `--config`); a bad
    /// value is printed and turned into exit code 2.
    fn apply(&self, req: &mut BuildRequest, config: Option<&str>) -> Result<(), ExitCode> {
        req.upstream = upstream_choice(&req.path, self.upstream.as_deref(), config)?;
        req.tag_prefix = vgc::config::tag_prefix_for(
            std::path::Path::new(&req.path),
            self.tag_prefix.as_deref(),
            config.map(std::path::Path::new),
        )
        .map_err(|e| {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        })?;
        Ok(())
    }
}

/// Absolute paths of `--validation-extensions-file` values.
fn extension_paths(files: &[String]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            std::path::absolute(f).map_or_else(|_| f.clone(), |p| p.to_string_lossy().into_owned())
        })
        .collect()
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
    /// Do not use the caches (`.vgc/` in the output directory, or `--cache-dir`): generate (and format) every
    /// module afresh.
    #[arg(long)]
    no_cache: bool,
    /// Keep the caches in this directory (created when missing) instead of `.vgc/` in the output directory, e.g.
    /// one a CI job restores between runs. The output lock stays in the output directory.
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache_dir: Option<std::path::PathBuf>,
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
    /// The structs the validators run on: `vgc` (generated serde structs) or `k8s-openapi` (the k8s-openapi
    /// crate's, for k8s.io/api; needs `--k8s-openapi-version`; docs/k8s-openapi.md). Default: `vgc.toml`
    /// `[build] target`, else `vgc`.
    #[arg(long, value_parser = ["vgc", "k8s-openapi"])]
    target: Option<String>,
    /// The k8s-openapi version (crate feature) of `--target k8s-openapi`: 1.33 to 1.37.
    #[arg(long, value_name = "VERSION")]
    k8s_openapi_version: Option<String>,
}

/// Options of `vgc lint`.
#[derive(clap::Args)]
struct LintArgs {
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
    /// Colour the human output: `auto` (when stdout is a terminal and `NO_COLOR` is not set), `always`,
    /// `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    color: String,
    /// Report only the findings that are not in this baseline file (written by `--write-baseline`).
    #[arg(long, value_name = "FILE")]
    baseline: Option<String>,
    /// Write every current finding to this baseline file (then report as usual).
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<String>,
    /// Make a lint code a warning (repeatable; overrides `vgc.toml`).
    #[arg(short = 'W', long = "warn", value_name = "CODE", value_parser = lint_code)]
    warn: Vec<String>,
    /// Make a lint code an error (repeatable; overrides `vgc.toml`).
    #[arg(short = 'D', long = "error", value_name = "CODE", value_parser = lint_code)]
    error: Vec<String>,
    /// Turn a lint code off (repeatable; overrides `vgc.toml`).
    #[arg(short = 'A', long = "allow", value_name = "CODE", value_parser = lint_code)]
    allow: Vec<String>,
    /// Which rules run: `all`, or `upstream` (only upstream validation-gen's rules of the profile in force,
    /// VGC0301–VGC0305; tag and type errors are still reported).
    #[arg(long, value_parser = ["all", "upstream"], default_value = "all")]
    rules: String,
    /// The diagnostics page SARIF rules link to (`helpUri` = this URL with `#<CODE>`, e.g. `#VGC0303`): an absolute
    /// URL, such as where the `vgc docs` site's `diagnostics.html` is served (default: `[lint] docs-url` of
    /// `vgc.toml`, else no `helpUri`: the rule's help text points at `vgc explain CODE`).
    #[arg(long, value_name = "URL")]
    docs_url: Option<url::Url>,
}

/// `vgc validate`.
#[derive(clap::Args)]
struct ValidateArgs {
    /// Manifest files, directories (searched recursively for `*.yaml`, `*.yml`, `*.json`) or `-` (stdin).
    #[arg(required = true, value_name = "FILE|DIR|-")]
    inputs: Vec<String>,
    /// The Go API tree whose rules apply: a module root or package directory (as for `vgc check`), or a Go module
    /// version `MODULE@VERSION` (e.g. `k8s.io/api@v0.37.2`) taken from the Go module cache, or fetched with
    /// `go mod download` when it is not there. Default: the newest `k8s.io/api` in the module cache (named on
    /// stderr).
    #[arg(long, value_name = "PATH|MODULE@VERSION")]
    api: Option<String>,
    /// The objects as they are now (files or directories): an input object with the same apiVersion, kind,
    /// namespace and name is validated as an update of it (ratcheting, immutability, `update` rules).
    #[arg(long, value_name = "FILE|DIR")]
    old: Vec<String>,
    /// The request's subresource (`status`, `scale`): roots validate only for the subresources they register.
    #[arg(long, value_name = "S")]
    subresource: Option<String>,
    /// A declarative-validation option (feature gate) and its state, e.g. `--option MyGate=true` (repeatable).
    #[arg(long = "option", value_name = "NAME=true|false", value_parser = option_setting)]
    options: Vec<(String, bool)>,
    /// Unknown kinds are errors (default: skipped with a note), and so are object keys that no field of the kind
    /// has (reported at the key, like kubeconform's strict mode).
    #[arg(long)]
    strict: bool,
    /// Kinds not to validate, reported as skipped: `Kind` or `apiVersion/Kind` (`Secret,apps/v1/Deployment`;
    /// repeatable).
    #[arg(long, value_name = "KIND,...", value_delimiter = ',', value_parser = skip_kind)]
    skip: Vec<vgc::validate::SkipKind>,
    /// Validate objects as written: do not first apply the `+default` values of their types, which the API server
    /// sets before validating (default: applied, as the server does; hand-written Go defaulting is never applied).
    #[arg(long)]
    no_defaults: bool,
    /// Report format: `human`, `json`, `junit` (JUnit XML), `tap` (TAP 13) or `sarif` (SARIF 2.1.0).
    #[arg(long, value_parser = ["human", "json", "junit", "tap", "sarif"], default_value = "human")]
    output: String,
    /// Human report: a table of counts per kind (documents, valid, invalid, errors, unreadable, skipped, declarative
    /// rules) instead of the per-kind coverage lines.
    #[arg(long)]
    summary: bool,
    /// Validate objects on N threads (default: one per core); the report is in input order whatever N.
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Colour: `auto` (a terminal, unless `NO_COLOR` is set), `always` or `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    color: String,
    /// Keep the API tree's caches (its lowered plan, each Go file's IR) in this directory (created when missing).
    /// Default: `$XDG_CACHE_HOME/vgc`, else `~/.cache/vgc`. Nothing is ever written into the API tree.
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache_dir: Option<std::path::PathBuf>,
    /// Neither read nor write the caches: check and lower the API tree afresh.
    #[arg(long)]
    no_cache: bool,
    /// Print the wall time of each phase on stderr (`read plan cache` alone when the plan came from the cache).
    #[arg(long)]
    timings: bool,
}

/// `Kind` or `apiVersion/Kind` of `--skip`.
fn skip_kind(s: &str) -> Result<vgc::validate::SkipKind, String> {
    vgc::validate::SkipKind::parse(s)
        .ok_or_else(|| format!("expected Kind or apiVersion/Kind, got {s:?}"))
}

/// `NAME=true|false` of `--option`.
fn option_setting(s: &str) -> Result<(String, bool), String> {
    let (name, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=true|false, got {s:?}"))?;
    let on = match v {
        "true" => true,
        "false" => false,
        _ => return Err(format!("expected true or false after {name}=, got {v:?}")),
    };
    if name.is_empty() {
        return Err("the option name is empty".into());
    }
    Ok((name.to_string(), on))
}

/// `vgc validate`: the API tree is checked and lowered (its diagnostics, if it has errors, are printed and exit
/// 2), then the manifests are validated; the report goes to stdout.
fn run_validate(a: ValidateArgs, globals: &Globals, extensions: Vec<String>) -> ExitCode {
    use std::io::IsTerminal as _;
    let fail = |msg: String| {
        let _ = writeln!(std::io::stderr().lock(), "error: {msg}");
        ExitCode::from(2)
    };
    // Standard input can be read once: as the manifests or as the old objects, not both.
    let stdin_uses = a.inputs.iter().chain(&a.old).filter(|p| *p == "-").count();
    if stdin_uses > 1 {
        return fail(format!(
            "`-` (standard input) is given {stdin_uses} times, among the inputs and --old; it can be read once"
        ));
    }
    let inputs = match vgc::validate::read_inputs(&a.inputs) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let old = match vgc::validate::read_inputs(&a.old) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let api = match a.api {
        Some(arg) => match vgc::gomodule::parse_module_version(&arg) {
            Some((module, version)) => match vgc::gomodule::resolve(module, version) {
                Ok(r) => {
                    if r.downloaded {
                        let _ = writeln!(
                            std::io::stderr().lock(),
                            "vgc validate: downloaded {module}@{version} into {}",
                            r.dir.display()
                        );
                    }
                    r.dir.to_string_lossy().into_owned()
                }
                Err(e) => return fail(e.to_string()),
            },
            None => arg,
        },
        None => match vgc::gomodule::default_api() {
            Ok((version, dir)) => {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "vgc validate: using {}@{version} from the Go module cache ({}); choose the API with --api",
                    vgc::gomodule::DEFAULT_MODULE,
                    dir.display()
                );
                dir.to_string_lossy().into_owned()
            }
            Err(e) => return fail(e.to_string()),
        },
    };
    let path = match target(Some(api)) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut req = vgc::validate::request(path);
    if let Err(code) = globals.apply(&mut req, None) {
        return code;
    }
    req.extension_files = extensions;
    let cache = if a.no_cache {
        None
    } else {
        a.cache_dir
            .map(|d| std::path::absolute(&d).unwrap_or(d))
            .or_else(vgc::validate::default_cache_root)
            .map(|root| vgc::validate::cache_dir_for(&root, &req.path))
    };
    let loaded = match vgc::validate::load_api(&req, cache.as_deref()) {
        Ok(l) => l,
        Err(outcome) => {
            if let Some(e) = &outcome.io_error {
                return fail(e.clone());
            }
            let errors: Vec<vgc_ir::Diagnostic> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.severity == vgc_ir::Severity::Error)
                .cloned()
                .collect();
            let _ = std::io::stderr()
                .lock()
                .write_all(render::text(&errors, &outcome.sources, false).as_bytes());
            return fail(
                "the API tree has tag errors (see `vgc check`); nothing was validated".into(),
            );
        }
    };
    {
        let mut err = std::io::stderr().lock();
        for n in &loaded.notes {
            let _ = writeln!(err, "note: {n}");
        }
        for w in loaded.api.shadowed_kinds() {
            let _ = writeln!(err, "warning: {w}");
        }
        let given: Vec<String> = a.options.iter().map(|(k, _)| k.clone()).collect();
        for w in loaded.api.unread_options(&given) {
            let _ = writeln!(err, "warning: {w}");
        }
    }
    let api = loaded.api;
    let mut timings = loaded.timings;
    let clock = Instant::now();
    let output = vgc::validate::OutputFormat::from_name(&a.output).unwrap_or_default();
    if a.summary && output != vgc::validate::OutputFormat::Human {
        return fail(format!(
            "--summary tabulates the human report; --output {} has its own counts",
            a.output
        ));
    }
    let opts = vgc::validate::Options {
        subresource: a.subresource,
        options: a.options.into_iter().collect(),
        strict: a.strict,
        skip: a.skip,
        no_defaults: a.no_defaults,
        output,
        summary: a.summary,
        color: render::use_color(&a.color, std::io::stdout().is_terminal()),
        jobs: a.jobs.map(usize::from),
        progress: output == vgc::validate::OutputFormat::Human && std::io::stderr().is_terminal(),
    };
    let (text, result) = vgc::validate::run(&api, &inputs, &old, &opts);
    timings.push(("validate", clock.elapsed()));
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if a.timings {
        print_timings(&timings);
    }
    ExitCode::from(result.exit_code())
}

/// `--timings`: one stderr line, `vgc: timings: <phase> <ms> ms, ...`.
fn print_timings(timings: &[(&'static str, std::time::Duration)]) {
    let phases: Vec<String> = timings
        .iter()
        .map(|(phase, d)| format!("{phase} {:.1} ms", d.as_secs_f64() * 1e3))
        .collect();
    let _ = writeln!(
        std::io::stderr().lock(),
        "vgc: timings: {}",
        phases.join(", ")
    );
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
    Lint(LintArgs),
    /// Print a shell completion script (e.g. `vgc completions bash > /etc/bash_completion.d/vgc`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Explain a diagnostic code (`VGC0303`) or a tag (`k8s:format`, `+k8s:listType`, `format`).
    Explain {
        /// The code or tag.
        what: String,
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
        /// Keep only these edge kinds (repeatable; see `docs/graph.md`). Default: the cross-field kinds (every
        /// kind but `field`, `type-ref` and `typedef`).
        #[arg(long = "edge", conflicts_with = "all")]
        edges: Vec<vgc_lowering::graph::EdgeKind>,
        /// Every edge kind, structure included (`field`, `type-ref`, `typedef`).
        #[arg(long)]
        all: bool,
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
        /// A directory with a `layout.html` replacing the built-in page layout: a minijinja template given
        /// `{{ title }}`, `{{ root }}` (the relative path to the site root) and `{{ body }}` (the page's HTML).
        #[arg(long)]
        templates: Option<String>,
        /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
        #[arg(long = "roots", value_parser = root_criterion)]
        roots: Vec<String>,
        /// Replace files in `--out` that vgc did not write (or that were changed since it wrote them).
        #[arg(long)]
        force: bool,
    },
    /// Validate Kubernetes manifests (YAML or JSON files, directories, `-` for stdin) against an API tree's
    /// declarative rules, evaluated from the plan (no Rust compile step); errors at their line and column.
    /// Exit 0 valid, 1 invalid, 2 usage or IO.
    Validate(ValidateArgs),
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
        /// Check for the structs `vgc build --target` would generate for (`vgc` or `k8s-openapi`): with
        /// `k8s-openapi`, what the chosen k8s-openapi version lacks is reported (VGC0121, VGC0122). Default:
        /// `vgc.toml` `[build] target`, else `vgc`.
        #[arg(long, value_parser = ["vgc", "k8s-openapi"])]
        target: Option<String>,
        /// The k8s-openapi version of `--target k8s-openapi`: 1.33 to 1.37.
        #[arg(long, value_name = "VERSION")]
        k8s_openapi_version: Option<String>,
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
    /// codespan-reporting text on stdout (the summary line on stderr).
    Human,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`) on stdout.
    Github,
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

/// Parses a lint code for `-W`/`-D`/`-A` (`VGC03xx`, `VGC04xx`); anything else is a usage error (exit 2).
fn lint_code(s: &str) -> Result<String, String> {
    match vgc_ir::Code::parse(s) {
        Some(c) if c.is_lint() => Ok(s.to_string()),
        Some(_) => Err(format!("{s} is not a lint code (VGC03xx, VGC04xx)")),
        None => Err(format!(
            "unknown code {s} (see `vgc explain` and docs/diagnostics.md)"
        )),
    }
}

/// `vgc explain`: a diagnostic code's name, default severity and rationale, or a tag's catalog entry.
fn run_explain(what: &str, tag_prefix: Option<&str>) -> ExitCode {
    // Tags are named with the prefix in force (`--tag-prefix`, else `vgc.toml` `[upstream] tag-prefix` of the
    // current directory): `vgc explain acme:maxItems --tag-prefix acme:` prints `+acme:maxItems`.
    let prefix = match vgc::config::tag_prefix_for(std::path::Path::new("."), tag_prefix, None) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    if let Some(c) = vgc_ir::Code::parse(&what.to_ascii_uppercase()) {
        let sev = match c.default_severity() {
            vgc_ir::Severity::Error => "error",
            vgc_ir::Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "{} ({}), {sev} by default{}\n\n{}\n\nSee docs/diagnostics.md{}.",
            c.as_str(),
            c.name(),
            if c.is_lint() {
                "; severity set by vgc.toml [lint.severity] or -W/-D/-A"
            } else {
                ""
            },
            c.rationale(),
            if c.is_lint() { " and docs/lint.md" } else { "" }
        );
        return ExitCode::SUCCESS;
    }
    let name = what.trim_start_matches('+');
    let name = match name.strip_prefix(prefix.as_str()) {
        Some(rest) if !prefix.as_str().is_empty() => format!("k8s:{rest}"),
        _ if name.starts_with("k8s:") => name.to_string(),
        _ => format!("k8s:{name}"),
    };
    // A tag name in another case (`memberof`) finds its tag.
    let name = match vgc_ir::catalog::lookup(&name) {
        Some(_) => name,
        None => vgc_ir::catalog::TAGS
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(&name))
            .map_or(name, |t| t.name.to_string()),
    };
    if let Some(spec) = vgc_ir::catalog::lookup(&name) {
        // vgc's extension tags carry no upstream stability level: they are off unless enabled.
        let level = if spec.id.is_extension() {
            "vgc extension, off unless vgc.toml enables extensions".to_string()
        } else {
            format!("{:?}", spec.stability)
        };
        let _ = writeln!(
            out,
            "+{} ({level}; scopes: {})\n\n{}",
            prefix.qualify(spec.name),
            spec.scopes
                .iter()
                .map(|s| format!("{s:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            prefix.requalify(spec.docs)
        );
        if let Some(forms) = vgc_ir::extension_tags::explain_constraint_forms(&name)
            .or_else(|| vgc_ir::extension_tags::explain_virtual_fields(&name))
        {
            let _ = writeln!(out, "\n{}", prefix.requalify(&forms));
        }
        return ExitCode::SUCCESS;
    }
    // `exclusiveMinimum`/`exclusiveMaximum`: vgc extension tags of the field-path constraint form only.
    if let Some(forms) = vgc_ir::extension_tags::explain_constraint_forms(&name) {
        let _ = writeln!(
            out,
            "+{} (vgc extension; scopes: Field, Type)\n\n{}",
            prefix.qualify(&name),
            prefix.requalify(&forms)
        );
        return ExitCode::SUCCESS;
    }
    let code_shaped =
        what.len() == 7 && what.starts_with("VGC") && what[3..].bytes().all(|b| b.is_ascii_digit());
    let msg = if code_shaped {
        format!(
            "error: {what} is not a vgc diagnostic code (`vgc docs --format diagnostics-markdown` lists them)"
        )
    } else {
        format!("error: {what:?} is neither a diagnostic code (VGCnnnn) nor a known tag")
    };
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
    ExitCode::from(2)
}

/// Resolves a `PATH` argument ([`vgc::target::resolve`]); on failure prints the error and returns exit code 2.
fn target(path: Option<String>) -> Result<String, ExitCode> {
    vgc::target::resolve(path.as_deref()).map_err(|e| {
        let _ = writeln!(std::io::stderr().lock(), "error: {e}");
        ExitCode::from(2)
    })
}

/// `vgc lint`: findings on stdout (human, GitHub, JSON or SARIF), the summary line on stderr. `upstream` is the
/// global `--upstream` flag.
fn run_lint(a: LintArgs, globals: &Globals, extensions: Vec<String>) -> ExitCode {
    let start = Instant::now();
    let path = match target(a.path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut req = BuildRequest::check(path.clone(), a.roots.clone());
    if let Err(code) = globals.apply(&mut req, a.config.as_deref()) {
        return code;
    }
    let mut stderr = std::io::stderr().lock();
    let mut cfg = match vgc::config::settings_for(
        std::path::Path::new(&path),
        a.config.as_deref().map(std::path::Path::new),
        a.exceptions.as_deref().map(std::path::Path::new),
    ) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return ExitCode::from(2);
        }
    };
    cfg.lint.upstream_only = a.rules == "upstream";
    // Command-line overrides win over vgc.toml, in the order -W, -D, -A.
    for (codes, sev) in [
        (&a.warn, Some(vgc_ir::Severity::Warning)),
        (&a.error, Some(vgc_ir::Severity::Error)),
        (&a.allow, None),
    ] {
        for c in codes.iter().filter_map(|c| vgc_ir::Code::parse(c)) {
            cfg.lint.severities.insert(c, sev);
        }
    }
    let baseline = match a.baseline.as_deref().map(std::path::Path::new) {
        None => None,
        Some(p) => match vgc::baseline::Baseline::load(p) {
            Ok(b) => Some(b),
            Err(e) => {
                let _ = writeln!(stderr, "error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    req.extension_files = extensions;
    let mut outcome = vgc::lint(&req, &cfg.lint);
    if a.fix {
        let fixed = render::apply_fixes(&outcome.diagnostics, &outcome.sources);
        for (file, text) in &fixed {
            if let Err(e) = vgc::sys::rewrite_source(std::path::Path::new(file), text) {
                let _ = writeln!(stderr, "error: {file}: {e}");
                return ExitCode::from(2);
            }
        }
        let _ = writeln!(stderr, "vgc: fixed {} files", fixed.len());
        outcome = vgc::lint(&req, &cfg.lint);
    }
    let base = vgc::target::dir_of(&path).to_string();
    if let Some(file) = &a.write_baseline {
        let b = vgc::baseline::Baseline::of(&outcome.diagnostics, &outcome.sources, &base);
        if let Err(e) = b.save(std::path::Path::new(file)) {
            let _ = writeln!(stderr, "error: {file}: {e}");
            return ExitCode::from(2);
        }
        let _ = writeln!(
            stderr,
            "vgc lint: wrote {} findings to the baseline {file}",
            b.findings.len()
        );
    }
    let mut absorbed = 0;
    if let Some(b) = &baseline {
        let diags = std::mem::take(&mut outcome.diagnostics);
        (outcome.diagnostics, absorbed) = b.new_findings(diags, &outcome.sources, &base);
    }
    let mut stdout = std::io::stdout().lock();
    match a.format {
        Format::Human => {
            use std::io::IsTerminal as _;
            let color = render::use_color(&a.color, std::io::stdout().is_terminal());
            let text = if a.short {
                render::text(&outcome.diagnostics, &outcome.sources, true)
            } else {
                render::human_styled(&outcome.diagnostics, &outcome.sources, color)
            };
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.write_all(render::drift_table(&outcome.drift).as_bytes());
        }
        Format::Github => {
            let cwd = std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or(base.clone());
            let _ = stdout
                .write_all(render::github(&outcome.diagnostics, &outcome.sources, &cwd).as_bytes());
        }
        Format::Json | Format::Sarif => {
            let v = if matches!(a.format, Format::Json) {
                render::json(
                    &outcome.diagnostics,
                    &outcome.sources,
                    &base,
                    &outcome.drift,
                )
            } else {
                let docs = a.docs_url.or(cfg.docs_url);
                serde_json::to_value(render::sarif(
                    &outcome.diagnostics,
                    &outcome.sources,
                    &base,
                    docs.as_ref(),
                ))
                .unwrap_or_default()
            };
            let text = serde_json::to_string_pretty(&v).unwrap_or_default();
            let _ = writeln!(stdout, "{text}");
        }
    }
    let _ = writeln!(
        stderr,
        "vgc lint: {} packages, {} warnings, {} errors{} in {:.2}s{}",
        outcome.stats.packages,
        outcome.warnings(),
        outcome.errors(),
        if baseline.is_some() {
            format!(" ({absorbed} more in the baseline)")
        } else {
            String::new()
        },
        start.elapsed().as_secs_f64(),
        profile_suffix(&outcome)
    );
    for n in &outcome.notes {
        let _ = writeln!(stderr, "note: {n}");
    }
    let code = vgc::exit_code(&outcome);
    if code != 0 {
        return ExitCode::from(code);
    }
    if (a.deny.is_some() || cfg.deny_warnings) && outcome.warnings() > 0 {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Checks and lowers `path` (the current directory by default) for commands that read the plan; on errors, prints
/// them in short form and returns the exit code.
fn analyzed(
    path: Option<String>,
    roots: Vec<String>,
    globals: &Globals,
    extensions: Vec<String>,
    stderr: &mut impl std::io::Write,
) -> Result<vgc::BuildOutcome, ExitCode> {
    let mut req = BuildRequest::check(target(path)?, roots);
    globals.apply(&mut req, None)?;
    req.extension_files = extensions;
    let outcome = build(&req);
    if outcome.errors() > 0 || outcome.stats.packages == 0 {
        let text = render::text(&outcome.diagnostics, &outcome.sources, true);
        let _ = stderr.write_all(text.as_bytes());
        return Err(ExitCode::from(vgc::exit_code(&outcome).max(1)));
    }
    Ok(outcome)
}

/// Mermaid's default `maxEdges` and `maxTextSize`: larger diagrams are refused by its renderer.
const MERMAID_MAX_EDGES: usize = 500;
const MERMAID_MAX_TEXT: usize = 50_000;

/// The candidate closest to `wanted` (Jaro-Winkler ≥ 0.8), for "did you mean".
fn did_you_mean<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::jaro_winkler(wanted, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Checks that each of `--group`, `--version` and `--type` matches something in `g`; the first that does not is
/// an error message with a suggestion.
fn check_graph_filter(
    g: &vgc_lowering::graph::Graph,
    f: &vgc_lowering::graph::Filter,
) -> Result<(), String> {
    use std::collections::BTreeSet;
    use vgc_lowering::graph::NodeKind;
    let pkgs: BTreeSet<&str> = g
        .nodes
        .iter()
        .map(|n| n.pkg.as_str())
        .filter(|p| !p.is_empty())
        .collect();
    let hint = |wanted: &str, cands: Vec<&str>| {
        did_you_mean(wanted, cands.into_iter())
            .map(|c| format!("; did you mean `{c}`?"))
            .unwrap_or_default()
    };
    if let Some(group) = &f.group
        && !pkgs.iter().any(|p| p.starts_with(group.as_str()))
    {
        // Every path prefix of every package is a group one could mean.
        let groups: BTreeSet<&str> = pkgs
            .iter()
            .flat_map(|p| {
                p.match_indices('/')
                    .map(|(i, _)| &p[..i])
                    .chain(std::iter::once(*p))
            })
            .collect();
        // An API group name (`resource.k8s.io`, as in apiVersion) names the package directory of its first label
        // in Kubernetes' layout (`k8s.io/api/resource`): suggest that prefix before a spelling neighbour.
        let api_group = group
            .split_once('.')
            .filter(|_| !group.contains('/'))
            .and_then(|(first, _)| {
                groups
                    .iter()
                    .find(|g| g.rsplit('/').next() == Some(first) && pkgs.iter().any(|p| p.starts_with(&format!("{g}/"))))
            })
            .map(|g| format!("; `--group` takes a Go package path prefix: for the API group {group:?}, did you mean `{g}`?"));
        return Err(format!(
            "--group {group:?} matches no package{}",
            api_group.unwrap_or_else(|| hint(group, groups.into_iter().collect()))
        ));
    }
    if let Some(v) = &f.version {
        let versions: BTreeSet<&str> = pkgs.iter().filter_map(|p| p.rsplit('/').next()).collect();
        if !versions.contains(v.as_str()) {
            return Err(format!(
                "--version {v:?} matches no package{}",
                hint(v, versions.into_iter().collect())
            ));
        }
    }
    if let Some(ty) = &f.ty {
        let types: BTreeSet<&str> = g
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Type)
            .map(|n| n.label.as_str())
            .collect();
        if !types.contains(ty.as_str()) {
            return Err(format!(
                "--type {ty:?} matches no type{}",
                hint(ty, types.into_iter().collect())
            ));
        }
    }
    Ok(())
}

fn run_graph(
    path: Option<String>,
    format: GraphFormat,
    filter: vgc_lowering::graph::Filter,
    roots: Vec<String>,
    globals: &Globals,
    extensions: Vec<String>,
) -> ExitCode {
    use vgc_lowering::graph;
    let mut stderr = std::io::stderr().lock();
    let outcome = match analyzed(path, roots, globals, extensions, &mut stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let whole = graph::build(&outcome.plan);
    if let Err(e) = check_graph_filter(&whole, &filter) {
        let _ = writeln!(stderr, "error: {e}");
        return ExitCode::from(2);
    }
    let g = graph::filter(&whole, &filter);
    let text = match format {
        GraphFormat::Dot => graph::to_dot(&g),
        GraphFormat::Mermaid => {
            let text = graph::to_mermaid(&g);
            if g.edges.len() > MERMAID_MAX_EDGES || text.len() > MERMAID_MAX_TEXT {
                let _ = writeln!(
                    stderr,
                    "warning: {} edges, {} characters: above Mermaid's default limits (maxEdges {MERMAID_MAX_EDGES}, maxTextSize {MERMAID_MAX_TEXT}), so a default Mermaid renderer refuses this diagram; narrow it with --group, --version, --type or --edge",
                    g.edges.len(),
                    text.len()
                );
            }
            text
        }
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

/// Where `vgc docs` writes the site: `--out` and whether `--force` lets it replace files it did not write.
struct SiteOut {
    out: String,
    force: bool,
}

fn run_docs(
    path: Option<String>,
    format: DocsFormat,
    SiteOut { out, force }: SiteOut,
    templates: Option<String>,
    roots: Vec<String>,
    globals: &Globals,
    extensions: Vec<String>,
) -> ExitCode {
    let mut stderr = std::io::stderr().lock();
    let mut stdout = std::io::stdout().lock();
    // The tag reference names tags with the prefix in force, as upstream's `--docs` qualifies them
    // (kubernetes#141866): `--tag-prefix`, else `vgc.toml` `[upstream] tag-prefix` for the path.
    let static_prefix = || {
        vgc::config::tag_prefix_for(
            std::path::Path::new(path.as_deref().unwrap_or(".")),
            globals.tag_prefix.as_deref(),
            None,
        )
        .map_err(|e| {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        })
    };
    match format {
        DocsFormat::TagsMarkdown => {
            let prefix = match static_prefix() {
                Ok(p) => p,
                Err(code) => return code,
            };
            let text = prefix.requalify(&vgc_docs_gen::tag_reference_markdown());
            let _ = stdout.write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
        DocsFormat::TagsJson => {
            let prefix = match static_prefix() {
                Ok(p) => p,
                Err(code) => return code,
            };
            let text = serde_json::to_string_pretty(&vgc_docs_gen::tag_reference_json())
                .unwrap_or_default();
            let _ = writeln!(stdout, "{}", prefix.requalify(&text));
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
    let outcome = match analyzed(path, roots, globals, extensions, &mut stderr) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let docs = vgc_docs_gen::GoDocs::read(&outcome.package_files);
    let files = match vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &outcome.plan,
        docs: &docs,
        layout: layout.as_deref(),
    }) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(stderr, "error: layout.html: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = std::path::Path::new(&out);
    if out.is_empty() {
        let _ = writeln!(
            stderr,
            "error: the output directory is empty (`--out ''`); name a directory"
        );
        return ExitCode::from(2);
    }
    if dir.exists() && !dir.is_dir() {
        let _ = writeln!(
            stderr,
            "error: {}: the output path exists and is not a directory",
            dir.display()
        );
        return ExitCode::from(2);
    }
    // Tag names on the site are written with the prefix in force (`acme:required` under `--tag-prefix acme:`);
    // the identity for `k8s:`.
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(rel, text)| (rel.clone(), outcome.tag_prefix.requalify(text).into_bytes()))
        .collect();
    match vgc::output::publish(dir, "site.json", &files, force) {
        Ok(notes) => {
            for n in notes {
                let _ = writeln!(stderr, "note: {n}");
            }
        }
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
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

/// `--target` and `--k8s-openapi-version` of `vgc build`/`check`/`watch` (`None` when neither is given: `vgc.toml`
/// decides); a bad combination is an error on stderr and exit code 2.
fn structs_of(
    target: Option<String>,
    version: Option<String>,
) -> Result<Option<vgc_codegen::Target>, ExitCode> {
    if target.is_none() && version.is_none() {
        return Ok(None);
    }
    vgc::config::target(target.as_deref(), version.as_deref())
        .map(Some)
        .map_err(|e| {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        })
}

/// The build request of `vgc build` / `vgc watch` options (exit code 2 when the path cannot be used).
fn build_request(a: BuildArgs) -> Result<BuildRequest, ExitCode> {
    let runtime = match (a.runtime_path, a.runtime_version) {
        (_, Some(v)) => RuntimeDep::Version(v),
        (Some(p), None) => RuntimeDep::Path(p),
        (None, None) => RuntimeDep::published(),
    };
    let out = std::path::absolute(&a.out).unwrap_or_else(|_| a.out.into());
    let structs = structs_of(a.target, a.k8s_openapi_version)?;
    Ok(BuildRequest {
        path: target(a.path)?,
        out: Some(out),
        crate_name: a.crate_name,
        runtime,
        extra_roots: a.roots,
        check_only: false,
        custom_stub: a.custom_stub,
        no_cache: a.no_cache,
        cache_dir: a.cache_dir.map(|d| std::path::absolute(&d).unwrap_or(d)),
        force: a.force,
        rustfmt: a.rustfmt,
        upstream: None,
        extension_files: Vec::new(),
        tag_prefix: vgc_ir::TagPrefix::default(),
        target: structs,
    })
}

/// `" (upstream 1.38: detected from go.mod k8s.io/apimachinery v0.38.0-alpha.2)"` for the summary lines.
fn profile_suffix(outcome: &vgc::BuildOutcome) -> String {
    outcome
        .profile
        .as_ref()
        .map(|p| {
            let prefix = if outcome.tag_prefix.is_default() {
                String::new()
            } else {
                format!("; tag prefix {:?}", outcome.tag_prefix.as_str())
            };
            format!(" (upstream {}: {}{prefix})", p.version, p.why)
        })
        .unwrap_or_default()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = Instant::now();
    let globals = Globals {
        upstream: cli.upstream,
        tag_prefix: cli.tag_prefix,
    };
    let extensions = extension_paths(&cli.validation_extensions_file);
    let (req, short, timings) = match cli.cmd {
        Command::Docs {
            path,
            format,
            out,
            templates,
            roots,
            force,
        } => {
            return run_docs(
                path,
                format,
                SiteOut { out, force },
                templates,
                roots,
                &globals,
                extensions,
            );
        }
        Command::Graph {
            path,
            format,
            group,
            version,
            ty,
            mut edges,
            all,
            depth,
            roots,
        } => {
            if edges.is_empty() && !all {
                edges = vgc_lowering::graph::EdgeKind::ALL
                    .iter()
                    .copied()
                    .filter(|k| !k.is_structural())
                    .collect();
            }
            let filter = vgc_lowering::graph::Filter {
                group,
                version,
                ty,
                edges,
                depth,
            };
            return run_graph(path, format, filter, roots, &globals, extensions);
        }
        Command::Lint(args) => return run_lint(args, &globals, extensions),
        Command::Validate(args) => return run_validate(args, &globals, extensions),
        Command::Explain { what } => return run_explain(&what, globals.tag_prefix.as_deref()),
        Command::Completions { shell } => {
            use clap::CommandFactory as _;
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "vgc",
                &mut std::io::stdout().lock(),
            );
            return ExitCode::SUCCESS;
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
            if let Err(code) = globals.apply(&mut request, None) {
                return code;
            }
            request.extension_files = extensions;
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
        Command::Check {
            path,
            short,
            roots,
            target: structs,
            k8s_openapi_version,
        } => match (target(path), structs_of(structs, k8s_openapi_version)) {
            (Ok(path), Ok(structs)) => {
                let mut req = BuildRequest::check(path, roots);
                req.target = structs;
                (req, short, false)
            }
            (Err(code), _) | (_, Err(code)) => return code,
        },
    };
    let mut req = req;
    if let Err(code) = globals.apply(&mut req, None) {
        return code;
    }
    req.extension_files = extensions;
    let outcome = build(&req);
    let mut stderr = std::io::stderr().lock();
    let text = render::text(&outcome.diagnostics, &outcome.sources, short);
    let _ = stderr.write_all(text.as_bytes());
    // An output problem (`--out` naming a file, a foreign file in the way, …) counts as an error of the summary and is
    // printed before it; a run that stopped before reading anything prints no summary to contradict it.
    if let Some(e) = &outcome.io_error {
        let _ = writeln!(stderr, "error: {e}");
    }
    let s = outcome.stats;
    let stopped_early = outcome.io_error.is_some() && s.packages == 0;
    if !stopped_early {
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
            outcome.errors() + usize::from(outcome.io_error.is_some()),
            start.elapsed().as_secs_f64(),
            profile_suffix(&outcome)
        );
    }
    for n in &outcome.notes {
        let _ = writeln!(stderr, "note: {n}");
    }
    if timings {
        print_timings(&outcome.timings);
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
    // The process ends here: freeing the outcome (the generated files, the plan) would only delay the exit.
    std::mem::forget(outcome);
    ExitCode::SUCCESS
}
