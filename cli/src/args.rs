//! The command line's arguments (clap): the global flags, one `Args` struct per subcommand, and the value parsers
//! that turn a bad value into a usage error (exit 2) before any command runs.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "vgc",
    version,
    about = "Compiles Kubernetes declarative-validation tags into Rust validation code"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) cmd: Command,
    /// Upstream profile: the Kubernetes release whose validation-gen to match (1.35, 1.36, 1.37, 1.38; default:
    /// `vgc.toml` `[upstream] version`, else detected from go.mod's k8s.io/apimachinery or k8s.io/api version,
    /// else the newest). See docs/upstream.md.
    #[arg(long, global = true, value_name = "VERSION")]
    pub(crate) upstream: Option<String>,
    /// A YAML file of project-defined `+k8s:format` values, `formats: [{name, docs, pattern, message}]`
    /// (repeatable; upstream validation-gen's flag, kubernetes#142116; 1.38 profile). Also `vgc.toml`
    /// `[build] validation-extensions-files`. See docs/upstream.md.
    #[arg(
        long = "validation-extensions-file",
        global = true,
        value_name = "PATH"
    )]
    pub(crate) validation_extensions_file: Vec<String>,
    /// The tag prefix validation tags are written with: `+<PREFIX>required` (upstream validation-gen's flag,
    /// kubernetes#141866; 1.38 profile). Empty or one or more ':'-terminated segments (default `k8s:`; also
    /// `vgc.toml` `[upstream] tag-prefix`). See docs/upstream.md.
    #[arg(long = "tag-prefix", global = true, value_name = "PREFIX")]
    pub(crate) tag_prefix: Option<String>,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Check tags and generate the Rust validation crate.
    Build(BuildArgs),
    /// Build, then rebuild incrementally on every change to the Go files (one live database; only what changed is
    /// re-analysed, generated, formatted and written), printing the diagnostics after each change.
    Watch(WatchArgs),
    /// Lint tags: every `vgc check` diagnostic plus upstream's lint rules and vgc's (see docs/diagnostics.md).
    Lint(LintArgs),
    /// Run the language server on stdin/stdout for an editor: `vgc check`'s diagnostics as you type (unsaved
    /// buffers included), hover docs and completion of `+k8s:` tags (see docs/editors.md).
    Lsp(LspArgs),
    /// Print a shell completion script (e.g. `vgc completions bash > /etc/bash_completion.d/vgc`).
    Completions(CompletionsArgs),
    /// Explain a diagnostic code (`VGC0303`) or a tag (`k8s:format`, `+k8s:listType`, `format`).
    Explain(ExplainArgs),
    /// Print the cross-field dependency graph (unions, modes, dependent fields, list keys, items, subfields,
    /// options, typedefs, type references) on stdout.
    Graph(GraphArgs),
    /// Generate documentation: the static site (tag reference, diagnostics, API reference per package, offline
    /// search) into `--out`, or one reference on stdout.
    Docs(DocsArgs),
    /// Validate Kubernetes manifests (YAML or JSON files, directories, `-` for stdin) against an API tree's
    /// declarative rules, evaluated from the plan (no Rust compile step); errors at their line and column.
    /// Exit 0 valid, 1 invalid, 2 usage or IO.
    Validate(ValidateArgs),
    /// Check tags only; write nothing.
    Check(CheckArgs),
    /// Upstream validation-gen's command line, for `hack/update-codegen.sh` and `kube_codegen.sh`: the same flags
    /// and input packages, run as `vgc build --target go` (writes `--output-file` into each input package that has
    /// a `+k8s:validation-gen` tag). Flags vgc does not implement are refused or noted; see docs/go-backend.md.
    #[command(name = "validation-gen")]
    ValidationGen(ValidationGenArgs),
    /// Publish the declarative rules as OpenAPI v3: one document per API group and version, named as
    /// k8s.io/kubernetes' `api/openapi-spec/v3` names them, with the rules as keywords and `x-kubernetes-validations`
    /// CEL; or, with `--merge DIR`, the rules added to an existing spec directory (see docs/openapi.md).
    Openapi(OpenApiArgs),
}

/// Options shared by `vgc build` and `vgc watch`.
#[derive(clap::Args, Clone)]
pub(crate) struct BuildArgs {
    /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its package
    /// only). Default: the current directory.
    pub(crate) path: Option<String>,
    /// Output directory for the generated crate (default `out/vgc-generated`; not with `--target go`, which writes
    /// into the package directories).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<String>,
    /// Name of the generated crate.
    #[arg(long, default_value = "vgc-generated")]
    pub(crate) crate_name: String,
    /// Path of a vgc-runtime checkout for the generated Cargo.toml, written as given (a relative path is relative
    /// to the output directory). Default: the runtime's sources vendored into the output as `vgc-runtime/` (the
    /// runtime this vgc was built with, versioned and hashed in its Cargo.toml), so the crate builds as written.
    #[arg(long)]
    pub(crate) runtime_path: Option<String>,
    /// Depend on vgc-runtime from crates.io with this version requirement instead of the vendored copy (for
    /// example `0.1`; the version this vgc generates code for is 0.1.0).
    #[arg(long, conflicts_with = "runtime_path")]
    pub(crate) runtime_version: Option<String>,
    /// Print diagnostics one per line (`file:line:col: severity[CODE]: message`).
    #[arg(long)]
    pub(crate) short: bool,
    /// Colour the diagnostics (also `--short`'s): `auto` (when stderr is a terminal and `NO_COLOR` is not set),
    /// `always`, `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    pub(crate) color: String,
    /// Write a stub `src/custom.rs` (functions that accept everything) for `+k8s:customValidation` when the
    /// output has none; replace the stub bodies with the real checks.
    #[arg(long)]
    pub(crate) custom_stub: bool,
    /// Extra root criterion for every enabled package (`*`, `TypesWithField=F`, `TypesWithSuffix=S`), as an
    /// activating package would add (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    pub(crate) roots: Vec<String>,
    /// Do not use the caches (`.vgc/` in the output directory, or `--cache-dir`): generate (and format) every
    /// module afresh.
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// Keep the caches in this directory (created when missing) instead of `.vgc/` in the output directory, e.g.
    /// one a CI job restores between runs; the Go target's in its `go/`. The output lock stays in the output
    /// directory.
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub(crate) cache_dir: Option<std::path::PathBuf>,
    /// Replace files in the way of the output even when vgc did not generate them (without it, such a file is an
    /// error naming it).
    #[arg(long)]
    pub(crate) force: bool,
    /// Format the generated code with the `rustfmt` on PATH (timeout 60 s per process; output that does not
    /// parse is discarded) instead of vgc's built-in formatting (prettyplease), whose bytes depend on nothing
    /// installed.
    #[arg(long)]
    pub(crate) rustfmt: bool,
    /// Print the wall time of each phase (load, check, lower, lint, codegen, format, write) on stderr.
    #[arg(long)]
    pub(crate) timings: bool,
    /// Build in this process even when a build server of the same request runs (`vgc validation-gen --serve`,
    /// docs/go-backend.md; also `VGC_NO_SERVER=1`). `vgc watch` never asks one.
    #[arg(long)]
    pub(crate) no_server: bool,
    /// What to generate: `vgc` (a Rust crate with generated serde structs), `k8s-openapi` (a Rust crate over the
    /// k8s-openapi crate's structs, for k8s.io/api; needs `--k8s-openapi-version`; docs/k8s-openapi.md) or `go`
    /// (upstream validation-gen's Go file in every package with a `+k8s:validation-gen` tag, written into the
    /// package directories; docs/go-backend.md). Default: `vgc.toml` `[build] target`, else `vgc`. `vgc build` takes
    /// the Go target and one Rust target together (`--target go,vgc` or `--target go --target vgc`): one analysis,
    /// both backends, each with its own flags.
    #[arg(long, value_parser = ["vgc", "k8s-openapi", "go"], value_delimiter = ',', action = clap::ArgAction::Append)]
    pub(crate) target: Vec<String>,
    /// The k8s-openapi version (crate feature) of `--target k8s-openapi`: 1.33 to 1.37.
    #[arg(long, value_name = "VERSION")]
    pub(crate) k8s_openapi_version: Option<String>,
    /// `--target go`: the file written into each package directory (default `zz_generated.validations.go`, or
    /// `vgc.toml` `[build] go-output-file`).
    #[arg(long, value_name = "NAME")]
    pub(crate) output_file: Option<String>,
    /// `--target go`: the boilerplate header of every Go file (validation-gen's flag: `YEAR` is replaced by the
    /// current year; default `vgc.toml` `[build] go-header-file`, else none).
    #[arg(long, value_name = "FILE")]
    pub(crate) go_header_file: Option<String>,
    /// `--target go`: also write validation-gen's declarative-validation coverage test fixtures under DIR (1.37
    /// on), as `<DIR>/<group>/<lowercase kind>/<prefix>{<version>,main}_test.go`; inside the Go module.
    #[arg(long, value_name = "DIR")]
    pub(crate) test_output_root: Option<String>,
    /// `--target go`: prefix of every fixture's file name; only with `--test-output-root`.
    #[arg(long, value_name = "PREFIX")]
    pub(crate) test_output_file_prefix: Option<String>,
    /// `--target go`: YAML list of rules left out of the fixtures; only with `--test-output-root`.
    #[arg(long, value_name = "FILE")]
    pub(crate) test_allowlist: Option<String>,
}

/// Options of `vgc validation-gen`: upstream validation-gen's flags (code-generator v0.37/v0.38 `cmd/validation-gen`,
/// `--tag-prefix` and `--validation-extensions-file` are vgc's global flags of the same names) and a few of
/// `vgc build`'s.
#[derive(clap::Args)]
pub(crate) struct ValidationGenArgs {
    /// Input packages, as validation-gen takes them: directories (`./pkg/apis/core/v1`, `./...`, `DIR/...`) or
    /// import paths (`k8s.io/kubernetes/pkg/apis/core/v1`, resolved in the Go module of the current directory,
    /// else with `go list`). All in one Go module, or in the current directory's and modules its go.mod `replace`s with
    /// a directory below it (k8s.io/kubernetes' `staging/`).
    #[arg(value_name = "PACKAGE")]
    pub(crate) packages: Vec<String>,
    /// The file written into each input package that has a `+k8s:validation-gen` tag (upstream's default).
    #[arg(long, default_value = "generated.validations.go", value_name = "NAME")]
    pub(crate) output_file: String,
    /// The boilerplate header of every file; `YEAR` is replaced by the current year.
    #[arg(long, value_name = "FILE")]
    pub(crate) go_header_file: Option<String>,
    /// Accepted and ignored, with a note: vgc reads every package the inputs' types refer to (read-only) on its own.
    #[arg(long = "readonly-pkg", value_delimiter = ',', value_name = "PKG")]
    pub(crate) readonly_pkg: Vec<String>,
    /// upstream's package lint rules (`known-tags-only`, `require-explicit-disablement`): checked for spelling as
    /// upstream does, then ignored with a note (vgc does not implement them yet).
    #[arg(long = "lint-rules", value_delimiter = ',', value_name = "RULES")]
    pub(crate) lint_rules: Vec<String>,
    /// klog's verbosity: accepted; vgc writes no klog logs (a note says so for a level above 0).
    #[arg(short = 'v', long = "v", value_name = "LEVEL")]
    pub(crate) verbosity: Option<String>,
    /// Print the tag reference as JSON (upstream's `--docs` shape, `vgc docs --format tags-json`) and exit.
    #[arg(long)]
    pub(crate) docs: bool,
    /// Also write the declarative-validation coverage test fixtures under DIR (1.37 on), as
    /// `<DIR>/<group>/<lowercase kind>/<prefix>{<version>,main}_test.go`; inside the Go module.
    #[arg(long, value_name = "DIR")]
    pub(crate) test_output_root: Option<String>,
    /// Prefix of every fixture's file name (e.g. `zz_generated.validations.`); only with `--test-output-root`.
    #[arg(long, value_name = "PREFIX")]
    pub(crate) test_output_file_prefix: Option<String>,
    /// YAML list of rules left out of the fixtures (apiVersion, kind, path, errorType, origin, reason); only with
    /// `--test-output-root`.
    #[arg(long, value_name = "FILE")]
    pub(crate) test_allowlist: Option<String>,
    /// vgc: replace files in the way even when validation-gen did not generate them.
    #[arg(long)]
    pub(crate) force: bool,
    /// vgc: print diagnostics one per line.
    #[arg(long)]
    pub(crate) short: bool,
    /// vgc: colour the diagnostics: `auto`, `always`, `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    pub(crate) color: String,
    /// vgc: print the wall time of each phase on stderr.
    #[arg(long)]
    pub(crate) timings: bool,
    /// vgc: do not use the caches (`.vgc/` at the Go module root).
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// vgc: build once, then stay running as the build server of this command: every later `vgc validation-gen`
    /// with the same packages, flags and environment (and the same vgc executable) hands its build to this process,
    /// which keeps the analysis in memory (docs/go-backend.md, "The build server"). Stop it with Ctrl-C.
    #[arg(long, conflicts_with_all = ["no_cache", "no_server"])]
    pub(crate) serve: bool,
    /// vgc: build in this process even when a build server of this command is running (also: `VGC_NO_SERVER=1`).
    #[arg(long)]
    pub(crate) no_server: bool,
}

/// Options of `vgc watch`.
#[derive(clap::Args)]
pub(crate) struct WatchArgs {
    #[command(flatten)]
    pub(crate) build: BuildArgs,
    /// Milliseconds the debouncer waits for a burst of file events to end before rebuilding.
    #[arg(long, default_value_t = 20)]
    pub(crate) debounce_ms: u64,
    /// Stop after this many rebuilds (for scripts and benchmarks).
    #[arg(long, hide = true)]
    pub(crate) max_rebuilds: Option<usize>,
}

/// Options of `vgc check`.
#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
    /// package only). Default: the current directory.
    pub(crate) path: Option<String>,
    /// Print diagnostics one per line.
    #[arg(long)]
    pub(crate) short: bool,
    /// Colour the diagnostics (also `--short`'s): `auto` (when stderr is a terminal and `NO_COLOR` is not set),
    /// `always`, `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    pub(crate) color: String,
    /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    pub(crate) roots: Vec<String>,
    /// Check for what `vgc build --target` would generate (`vgc`, `k8s-openapi` or `go`): with `k8s-openapi`, what
    /// the chosen k8s-openapi version lacks is reported (VGC0121, VGC0122); with `go`, what the Go backend cannot
    /// print yet (VGC0129). Default: `vgc.toml` `[build] target`, else `vgc`.
    #[arg(long, value_parser = ["vgc", "k8s-openapi", "go"])]
    pub(crate) target: Option<String>,
    /// The k8s-openapi version of `--target k8s-openapi`: 1.33 to 1.37.
    #[arg(long, value_name = "VERSION")]
    pub(crate) k8s_openapi_version: Option<String>,
}

/// Options of `vgc lint`.
#[derive(clap::Args)]
pub(crate) struct LintArgs {
    /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
    /// package only). Default: the current directory.
    pub(crate) path: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: Format,
    /// Print human diagnostics one per line.
    #[arg(long)]
    pub(crate) short: bool,
    /// Apply the safe fixes (canonical spellings) to the Go files, then report what remains.
    #[arg(long)]
    pub(crate) fix: bool,
    /// `--deny warnings`: exit 1 on warnings too.
    #[arg(long, value_parser = ["warnings"])]
    pub(crate) deny: Option<String>,
    /// Settings file (default: `vgc.toml` in the linted directory or a parent up to the module root).
    #[arg(long)]
    pub(crate) config: Option<String>,
    /// Drift exceptions file (`<group>/<Type>.<json.path>: <reason>` per line; default: `drift-exceptions`
    /// of `vgc.toml`, else `vgc-drift-exceptions.txt` in the linted directory if present).
    #[arg(long)]
    pub(crate) exceptions: Option<String>,
    /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    pub(crate) roots: Vec<String>,
    /// Colour the human output: `auto` (when stdout is a terminal and `NO_COLOR` is not set), `always`,
    /// `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    pub(crate) color: String,
    /// Report only the findings that are not in this baseline file (written by `--write-baseline`).
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<String>,
    /// Write every current finding to this baseline file (then report as usual).
    #[arg(long, value_name = "FILE")]
    pub(crate) write_baseline: Option<String>,
    /// Make a lint code a warning (repeatable; overrides `vgc.toml`).
    #[arg(short = 'W', long = "warn", value_name = "CODE", value_parser = lint_code)]
    pub(crate) warn: Vec<String>,
    /// Make a lint code an error (repeatable; overrides `vgc.toml`).
    #[arg(short = 'D', long = "error", value_name = "CODE", value_parser = lint_code)]
    pub(crate) error: Vec<String>,
    /// Turn a lint code off (repeatable; overrides `vgc.toml`).
    #[arg(short = 'A', long = "allow", value_name = "CODE", value_parser = lint_code)]
    pub(crate) allow: Vec<String>,
    /// Which rules run: `all`, or `upstream` (only upstream validation-gen's rules of the profile in force,
    /// VGC0301–VGC0305; tag and type errors are still reported).
    #[arg(long, value_parser = ["all", "upstream"], default_value = "all")]
    pub(crate) rules: String,
    /// The diagnostics page SARIF rules link to (`helpUri` = this URL with `#<CODE>`, e.g. `#VGC0303`): an absolute
    /// URL, such as where the `vgc docs` site's `diagnostics.html` is served (default: `[lint] docs-url` of
    /// `vgc.toml`, else no `helpUri`: the rule's help text points at `vgc explain CODE`).
    #[arg(long, value_name = "URL")]
    pub(crate) docs_url: Option<url::Url>,
}

/// `vgc validate`.
#[derive(clap::Args)]
pub(crate) struct ValidateArgs {
    /// Manifest files, directories (searched recursively for `*.yaml`, `*.yml`, `*.json`) or `-` (stdin). A file
    /// reached twice (named again, another spelling, a symbolic link, inside a named directory) is validated once,
    /// where it is first reached, with a note.
    #[arg(required = true, value_name = "FILE|DIR|-")]
    pub(crate) inputs: Vec<String>,
    /// The Go API tree whose rules apply: a module root or package directory (as for `vgc check`), or a Go module
    /// version `MODULE@VERSION` (e.g. `k8s.io/api@v0.37.2`) taken from the Go module cache, or fetched with
    /// `go mod download` when it is not there; a version query (`k8s.io/api@latest`, `@v0.37`) is resolved to its
    /// version with `go list -m` first, and the run is that version's. Default: the newest release of `k8s.io/api`
    /// in the module cache (named on stderr; a pre-release only when named).
    #[arg(long, value_name = "PATH|MODULE@VERSION")]
    pub(crate) api: Option<String>,
    /// The objects as they are now (files or directories): an input object with the same apiVersion, kind,
    /// namespace and name is validated as an update of it (ratcheting, immutability, `update` rules); an absent
    /// namespace pairs as `default`, and an old object no input pairs with is a note.
    #[arg(long, value_name = "FILE|DIR")]
    pub(crate) old: Vec<String>,
    /// The request's subresource (`status`, `scale`): roots validate only for the subresources they register.
    #[arg(long, value_name = "S")]
    pub(crate) subresource: Option<String>,
    /// A declarative-validation option (feature gate) and its state, e.g. `--option MyGate=true` (repeatable);
    /// overrides the release's default.
    #[arg(long = "option", value_name = "NAME=true|false", value_parser = option_setting)]
    pub(crate) options: Vec<(String, bool)>,
    /// The Kubernetes release whose API server defaults apply — its feature-gate defaults as the options, and the
    /// stability levels of declarative rules it enforces — read from `k8s.io/kubernetes@VERSION`'s
    /// `pkg/features/kube_features.go` (fetched with `go mod download` when missing). Default: the release of
    /// `--api k8s.io/api@vX.Y.Z` (`v1.Y.Z`), or of the default API; `none`: no release defaults (options the
    /// rules read are undefined unless given; every level enforced). A release of another minor than the
    /// k8s.io/api tree is a warning: one release's defaults applied to another release's rules.
    #[arg(long, value_name = "v1.Y.Z|none")]
    pub(crate) release: Option<String>,
    /// Which declarative errors make an object invalid: `stable` (rules without `+k8s:alpha`/`+k8s:beta`),
    /// `beta` (and beta rules) or `alpha` (every rule). Default: what the release's API server enforces (beta
    /// rules while its `DeclarativeValidationBeta` gate is on; alpha never); `alpha` without a release. The
    /// others are reported as shadowed warnings.
    #[arg(long, value_name = "LEVEL", value_parser = ["stable", "beta", "alpha"])]
    pub(crate) enforce: Option<String>,
    /// Unknown kinds are errors (default: skipped with a note), and so are object keys that no field of the kind
    /// has (reported at the key, like kubeconform's strict mode).
    #[arg(long)]
    pub(crate) strict: bool,
    /// Kinds not to validate, reported as skipped: `Kind` or `apiVersion/Kind` (`Secret,apps/v1/Deployment`;
    /// repeatable).
    #[arg(long, value_name = "KIND,...", value_delimiter = ',', value_parser = skip_kind)]
    pub(crate) skip: Vec<vgc::validate::SkipKind>,
    /// Validate objects as written: do not first apply the defaults the API server sets before validating — the
    /// `+default` values of their types and, on k8s.io/api kinds, the hand-written `SetDefaults_*` defaults that
    /// declarative rules read (default: applied, as the server does; its other hand-written defaulting never is).
    #[arg(long)]
    pub(crate) no_defaults: bool,
    /// Report format: `human`, `json`, `junit` (JUnit XML), `tap` (TAP 13) or `sarif` (SARIF 2.1.0).
    #[arg(long, value_parser = ["human", "json", "junit", "tap", "sarif"], default_value = "human")]
    pub(crate) output: String,
    /// Human report: a table of counts per kind (documents, valid, invalid, errors, unreadable, skipped, declarative
    /// rules) instead of the per-kind coverage lines.
    #[arg(long)]
    pub(crate) summary: bool,
    /// Validate objects on N threads, 1 to 256 (default: one per core); the report is in input order whatever N.
    /// (Each thread holds a copy of the interpreter's tables: thousands of them would cost minutes and gigabytes.)
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) jobs: Option<u16>,
    /// Colour: `auto` (a terminal, unless `NO_COLOR` is set), `always` or `never`.
    #[arg(long, value_parser = ["auto", "always", "never"], default_value = "auto")]
    pub(crate) color: String,
    /// Keep the API tree's caches (its lowered plan, each Go file's IR) in this directory (created when missing).
    /// Default: `$XDG_CACHE_HOME/vgc`, else `~/.cache/vgc`. Nothing is ever written into the API tree.
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub(crate) cache_dir: Option<std::path::PathBuf>,
    /// Neither read nor write the caches: check and lower the API tree afresh.
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// Print the wall time of each phase on stderr (`read plan cache` alone when the plan came from the cache).
    #[arg(long)]
    pub(crate) timings: bool,
}

/// Options of `vgc openapi`.
#[derive(clap::Args)]
pub(crate) struct OpenApiArgs {
    /// The API tree: Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go`
    /// file. Default: the current directory.
    pub(crate) path: Option<String>,
    /// Output directory of the documents (`.vgc/` in it holds the lock, the ownership record and the IR cache).
    #[arg(long, default_value = "out/openapi")]
    pub(crate) out: String,
    /// An existing OpenAPI v3 spec directory (k8s.io/kubernetes' `api/openapi-spec/v3`): its files are written to
    /// `--out` with vgc's rules added to their schemas and nothing else changed.
    #[arg(long, value_name = "SPEC_DIR")]
    pub(crate) merge: Option<String>,
    /// Fix a validation option (feature gate) at export: `NAME=true` or `NAME=false` (repeatable). Rules under an
    /// option not fixed are listed as not expressed.
    #[arg(long = "option", value_name = "NAME=BOOL", value_parser = option_value)]
    pub(crate) options: Vec<(String, bool)>,
    /// The least stable rules exported: `alpha` (every rule), `beta` (beta and stable) or `stable`.
    #[arg(long, value_parser = ["stable", "beta", "alpha"], default_value = "alpha")]
    pub(crate) stability: String,
    /// The Kubernetes release whose CEL environment the rules must compile in (`1.30` to `1.38`; default `1.31`):
    /// before 1.31 (kubectl-validate v0.0.4) there is no `format` library, and formats are said with `matches`.
    #[arg(long, value_name = "RELEASE", default_value = "1.31")]
    pub(crate) cel_env: String,
    /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    pub(crate) roots: Vec<String>,
    /// Replace files in the way that vgc did not write.
    #[arg(long)]
    pub(crate) force: bool,
    /// Neither read nor write the IR cache.
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// The IR cache's directory instead of `.vgc/` in `--out`.
    #[arg(long, value_name = "DIR")]
    pub(crate) cache_dir: Option<String>,
    /// Print each rule that is not expressed (default: a count and the first ten).
    #[arg(long)]
    pub(crate) verbose: bool,
    /// A CustomResourceDefinition file (controller-gen's) whose kinds' Go types are in the API tree: written to
    /// `--out` under its own name with the rules of each version's Go type added to its `openAPIV3Schema`
    /// (repeatable; instead of vgc's own documents).
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pub(crate) crd: Vec<String>,
    /// What to write: `openapi` (OpenAPI v3 documents) or `jsonschema` (JSON Schema draft 4 for kubeconform, in its
    /// layout `master-standalone[-strict]/<kind>-<group>-<version>.json`; with `--merge`, from the merged spec).
    #[arg(long, value_parser = ["openapi", "jsonschema"], default_value = "openapi", conflicts_with = "crd")]
    pub(crate) format: String,
    /// Set `maxItems: N` (`maxProperties: N`) on every list (map) without one that holds a CEL rule at itself or
    /// below, so that the API server's CEL cost estimate stays within its budget (of vgc's schemas; with `--crd`, of
    /// the CRD's schema). Without N: 128. Changes what is accepted: a longer list is refused. Each bound is marked
    /// `x-vgc-bound` in the documents and counted in the summary (`--verbose` lists each).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = DEFAULT_BOUND_LISTS,
          allow_negative_numbers = true, value_parser = bound_value)]
    pub(crate) bound_lists: Option<u64>,
    /// Set `maxLength: N` on every string without `maxLength` or `enum` that a CEL rule reads (its own rule, or a rule
    /// of its object naming it), for the same estimate. Without N: 4096. Changes what is accepted: a longer string
    /// is refused.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = DEFAULT_BOUND_STRINGS,
          allow_negative_numbers = true, value_parser = bound_value)]
    pub(crate) bound_strings: Option<u64>,
    /// What to do with a CEL rule vgc's estimate puts over the API server's cost budget: `keep` writes every rule
    /// (each over budget is a VGC0130 warning); `unexpressed` takes each rule (or rule whose messageExpression is)
    /// over the per-rule budget out of `x-kubernetes-validations`, then the costliest rules of each schema over the
    /// per-CRD total until it fits, and lists each under `x-vgc-unexpressed` with its estimate and the budget: the
    /// documents are then accepted by the API server, which does not enforce those rules (docs/openapi.md
    /// "Over budget"). With `--crd`: vgc's rules in each CRD version's schema, the CRD's own kept; a CRD cannot
    /// list them, the warnings do.
    #[arg(long, value_name = "WHAT", value_parser = ["keep", "unexpressed"], default_value = "keep")]
    pub(crate) over_budget: String,
}

/// `--bound-lists` without a value (docs/openapi.md "The cost budget").
const DEFAULT_BOUND_LISTS: &str = "128";

/// `--bound-strings` without a value (docs/openapi.md "The cost budget").
const DEFAULT_BOUND_STRINGS: &str = "4096";

/// Parses the `N` of `--bound-lists`/`--bound-strings`: a whole number from 1 to `i64::MAX` (the API server's
/// `JSONSchemaProps` holds `maxItems`, `maxProperties` and `maxLength` as `*int64`: a larger value does not decode).
fn bound_value(s: &str) -> Result<u64, String> {
    match s.parse::<i128>() {
        Ok(n) if n >= 1 => i64::try_from(n)
            .ok()
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| {
                format!(
                    "{s}: a bound is from 1 to {} (maxItems, maxProperties and maxLength are int64 in the API server's schema)",
                    i64::MAX
                )
            }),
        Ok(_) => Err(format!(
            "{s}: a bound is at least 1 (a bound of {s} would refuse every non-empty list or string)"
        )),
        Err(_) => Err(format!("{s:?}: expected a whole number of at least 1")),
    }
}

/// Parses `--option NAME=BOOL`.
fn option_value(s: &str) -> Result<(String, bool), String> {
    let (name, v) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: expected NAME=true or NAME=false"))?;
    if name.is_empty() {
        return Err(format!("{s:?}: the option name is empty"));
    }
    let v = match v {
        "true" => true,
        "false" => false,
        _ => return Err(format!("{s:?}: the value is true or false")),
    };
    Ok((name.to_string(), v))
}

/// Options of `vgc graph`.
#[derive(clap::Args)]
pub(crate) struct GraphArgs {
    /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
    /// package only). Default: the current directory.
    pub(crate) path: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "dot")]
    pub(crate) format: GraphFormat,
    /// Keep packages under this group path (e.g. `k8s.io/api/resource`).
    #[arg(long)]
    pub(crate) group: Option<String>,
    /// Keep packages of this version (e.g. `v1beta1`).
    #[arg(long)]
    pub(crate) version: Option<String>,
    /// Keep what is within `--depth` edges of the types with this name.
    #[arg(long = "type")]
    pub(crate) ty: Option<String>,
    /// Keep only these edge kinds (repeatable; see `docs/graph.md`). Default: the cross-field kinds (every
    /// kind but `field`, `type-ref` and `typedef`).
    #[arg(long = "edge", conflicts_with = "all")]
    pub(crate) edges: Vec<vgc_lowering::graph::EdgeKind>,
    /// Every edge kind, structure included (`field`, `type-ref`, `typedef`).
    #[arg(long)]
    pub(crate) all: bool,
    /// Depth for `--type` (default 2).
    #[arg(long)]
    pub(crate) depth: Option<usize>,
    /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    pub(crate) roots: Vec<String>,
}

/// Options of `vgc docs`.
#[derive(clap::Args)]
pub(crate) struct DocsArgs {
    /// Go module root, package directory (with the packages below it; `DIR/...` alike) or `.go` file (its
    /// package only). Default: the current directory.
    pub(crate) path: Option<String>,
    /// What to produce.
    #[arg(long, value_enum, default_value = "site")]
    pub(crate) format: DocsFormat,
    /// Output directory for the site.
    #[arg(long, default_value = "out/vgc-docs")]
    pub(crate) out: String,
    /// A directory with a `layout.html` replacing the built-in page layout: a minijinja template given
    /// `{{ title }}`, `{{ root }}` (the relative path to the site root) and `{{ body }}` (the page's HTML).
    #[arg(long)]
    pub(crate) templates: Option<String>,
    /// Extra root criterion for every enabled package, as for `vgc build` (repeatable).
    #[arg(long = "roots", value_parser = root_criterion)]
    pub(crate) roots: Vec<String>,
    /// Replace files in `--out` that vgc did not write (or that were changed since it wrote them).
    #[arg(long)]
    pub(crate) force: bool,
}

/// Options of `vgc explain`.
#[derive(clap::Args)]
pub(crate) struct ExplainArgs {
    /// The code or tag.
    pub(crate) what: String,
}

/// Options of `vgc lsp`.
#[derive(clap::Args)]
pub(crate) struct LspArgs {
    /// How long to wait after the last edit of a burst before checking, in milliseconds.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub(crate) debounce_ms: u64,
    /// Talk over stdin/stdout (the only transport; accepted because editor clients pass it).
    #[arg(long)]
    pub(crate) stdio: bool,
}

/// Options of `vgc completions`.
#[derive(clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    pub(crate) shell: clap_complete::Shell,
}

/// `vgc lint --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum Format {
    /// codespan-reporting text on stdout (the summary line on stderr).
    Human,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`) on stdout.
    Github,
    /// The JSON report on stdout (docs/lint.md).
    Json,
    /// SARIF 2.1.0 on stdout.
    Sarif,
}

/// `vgc graph --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid flowchart.
    Mermaid,
    /// JSON (docs/graph.md).
    Json,
    /// GraphML.
    Graphml,
}

/// `vgc docs --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum DocsFormat {
    /// The static site in `--out`.
    Site,
    /// The tag reference as Markdown on stdout.
    TagsMarkdown,
    /// The tag reference as JSON in the shape of upstream `validation-gen --docs`, on stdout.
    TagsJson,
    /// The diagnostics reference as Markdown on stdout.
    DiagnosticsMarkdown,
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
