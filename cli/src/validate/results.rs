//! What a `vgc validate` run asks for ([`Options`], [`OutputFormat`], [`SkipKind`]) and what it found: one
//! [`Entry`] per document or object, in input order, gathered in [`Results`] for the renderers of
//! [`super::report`], and the counts of [`Outcome`].

use codespan_reporting::files::SimpleFiles;
use std::collections::BTreeMap;
use std::ops::Range;
use vgc_analysis::TypeKey;
use vgc_validate::Coverage;

/// The report format of `vgc validate` (`--output`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// codespan-reporting diagnostics, the per-kind coverage lines (or `--summary`'s table) and a summary line.
    #[default]
    Human,
    /// One JSON object: documents, kinds, summary.
    Json,
    /// JUnit XML (`quick-junit`): one test suite per file, one test case per document or object.
    Junit,
    /// TAP version 13: one test point per document or object, errors in a YAML block.
    Tap,
    /// SARIF 2.1.0 (`serde-sarif`): one result per error, unreadable document, unknown or skipped kind.
    Sarif,
}

impl OutputFormat {
    /// The format named `name` (`human`, `json`, `junit`, `tap`, `sarif`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "human" => Self::Human,
            "json" => Self::Json,
            "junit" => Self::Junit,
            "tap" => Self::Tap,
            "sarif" => Self::Sarif,
            _ => return None,
        })
    }
}

/// A `--skip` entry: a kind (`Deployment`), or an apiVersion and kind (`apps/v1/Deployment`, `v1/Pod`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkipKind {
    /// The apiVersion, when given.
    pub api_version: Option<String>,
    /// The kind.
    pub kind: String,
}

impl SkipKind {
    /// Parses `Kind` or `apiVersion/Kind` (the kind is the part after the last `/`); `None` when the kind or the
    /// apiVersion is empty.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        let (api_version, kind) = match s.rsplit_once('/') {
            Some((av, k)) => (Some(av.to_string()), k.to_string()),
            None => (None, s.to_string()),
        };
        (!kind.is_empty() && api_version.as_ref().is_none_or(|a| !a.is_empty()))
            .then_some(Self { api_version, kind })
    }

    /// Whether the object of `api_version` and `kind` is this entry's.
    pub(crate) fn matches(&self, api_version: &str, kind: &str) -> bool {
        self.kind == kind && self.api_version.as_ref().is_none_or(|a| a == api_version)
    }
}

/// `vgc validate`'s settings.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The operation's subresource path (`status`, `scale`, `/status`): `None` for the main resource.
    pub subresource: Option<String>,
    /// Declarative-validation options (feature gates) and their states: the release's defaults overridden by
    /// `--option` (an option not here is undefined: an internal error where a rule reads it, as upstream).
    pub options: BTreeMap<String, bool>,
    /// Which errors make an object invalid ([`crate::release::Enforce`]); the others are shadowed (reported as
    /// warnings, not counted).
    pub enforce: crate::release::Enforce,
    /// The release whose API server the options and the enforcement stand for (`1.37`), for the report.
    pub release: Option<String>,
    /// `enforce` is that release's server's own (not `--enforce`): shadowed errors are explained by the server.
    pub enforce_from_release: bool,
    /// The `DeclarativeValidationBeta` gate as `--option` set it (`None`: the release's default), so a shadowed
    /// error's note names the real reason beta rules are not enforced.
    pub beta_gate_given: Option<bool>,
    /// The `k8s.io/kubernetes` module of the release (`k8s.io/kubernetes@v1.37.2`, its directory): each kind of
    /// `k8s.io/api` is reported with the hand-written validation its API server also runs, which is not checked.
    pub kubernetes: Option<(String, std::path::PathBuf)>,
    /// What the release's create strategies do to `status` before validating ([`crate::release::CreateReset`]):
    /// on a create (no `subresource`, no old object), the `status` of an object of such a kind is cleared after
    /// defaulting, as the API server's `PrepareForCreate` does. Empty: objects are validated with their status.
    pub create_resets: Vec<crate::release::CreateReset>,
    /// What the release's update strategies keep from the stored object ([`crate::release::UpdateKept`]): on an
    /// update (`--old`) of the main resource, or of `/status` (`--subresource status`), the object's member of that
    /// field takes the old object's value before validating, as the API server's `PrepareForUpdate` does. Empty:
    /// updates are validated as written.
    pub update_keeps: Vec<crate::release::UpdateKept>,
    /// Unknown kinds are errors (else skipped with a note), and so are object keys no field of the kind's types
    /// takes ([`vgc_validate::Interpreter::unknown_fields`], located at the key).
    pub strict: bool,
    /// Kinds not to validate (`--skip`): reported as skipped, never as errors.
    pub skip: Vec<SkipKind>,
    /// Validate objects as written, without first applying the defaults the API server sets — `+default` values
    /// and the ported hand-written ones (`--no-defaults`; [`vgc_validate::Interpreter::defaults`]). Old objects are
    /// defaulted the same way, or not.
    pub no_defaults: bool,
    /// Apply only `+default` values, not the API server's hand-written defaulting
    /// ([`vgc_validate::Interpreter::without_server_defaults`]); library only (no flag), for comparing the two.
    pub no_server_defaults: bool,
    /// The report format.
    pub output: OutputFormat,
    /// Human report: the per-kind table (`--summary`) instead of the per-kind coverage lines.
    pub summary: bool,
    /// ANSI colours in the human report.
    pub color: bool,
    /// Threads validating objects (`-j`); `None`: rayon's default (one per core). The report is in input order
    /// whatever the number.
    pub jobs: Option<usize>,
    /// Warnings about the run itself, neither about the API tree nor a document: release defaults of another
    /// release than the API tree's ([`crate::release::mismatch`]). The CLI prints them on stderr; the JSON, SARIF
    /// and TAP reports carry them too, before the API tree's warnings.
    pub warnings: Vec<String>,
    /// Draw a progress bar on stderr while validating (the CLI sets it only when stderr is a terminal and the
    /// report is human).
    pub progress: bool,
}

/// What a run found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Objects validated.
    pub objects: usize,
    /// Objects with at least one error.
    pub invalid: usize,
    /// Validation errors.
    pub errors: usize,
    /// Documents that could not be read or dispatched (malformed, no apiVersion/kind, wrong field types, an old
    /// object that does not decode).
    pub failed: usize,
    /// Objects of kinds the API tree does not declare, under `--strict` (errors, counted apart from `failed`: the
    /// document was read).
    pub unknown_kinds: usize,
    /// Objects of unknown kinds skipped.
    pub skipped: usize,
    /// Errors of rules the API server does not enforce at `Options::enforce` (alpha, or beta with the beta gate
    /// off): reported as warnings, not counted in `errors` or `invalid`.
    pub shadowed: usize,
}

impl Outcome {
    /// 0 valid, 1 invalid (errors, unreadable documents, unknown kinds under `--strict`).
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        u8::from(self.invalid > 0 || self.failed > 0 || self.unknown_kinds > 0)
    }
}

/// How a document or object ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Valid,
    Invalid,
    Skipped,
    UnknownKind,
    Unreadable,
    NotChecked,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Invalid => "invalid",
            Status::Skipped => "skipped",
            Status::UnknownKind => "unknown-kind",
            Status::Unreadable => "unreadable",
            Status::NotChecked => "not-checked",
        }
    }
}

/// One reported error of an object: a validation error, or (`--strict`) a key no field takes.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub(crate) field: String,
    pub(crate) type_name: String,
    pub(crate) detail: String,
    pub(crate) message: String,
    pub(crate) origin: String,
    pub(crate) stability: Option<&'static str>,
    /// Where it is shown.
    pub(crate) span: Range<usize>,
    /// The offending value's length in bytes when the message shows it cut short (over
    /// [`crate::validate::MAX_SHOWN_VALUE_BYTES`]); the JSON report's `valueBytes`.
    pub(crate) value_bytes: Option<usize>,
    /// The offending value as JSON (the JSON report's `value`): `None` for an error without one (`Required`,
    /// `Forbidden`, …) and for a structured value whose JSON is over
    /// [`crate::validate::MAX_SHOWN_VALUE_BYTES`]; a long string is cut as in the message.
    pub(crate) value: Option<serde_json::Value>,
}

/// Why a document or object was not validated (or was skipped): a diagnostic of its own.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    /// A note (skipped) rather than an error.
    pub(crate) note: bool,
    /// The diagnostic's message.
    pub(crate) message: String,
    /// Where, and the label's text.
    pub(crate) span: Range<usize>,
    pub(crate) label: String,
    /// The JSON report's `message`.
    pub(crate) json_message: String,
}

/// The identity of an object.
#[derive(Debug, Clone)]
pub(crate) struct Ident {
    pub(crate) api_version: String,
    pub(crate) kind: String,
    pub(crate) namespace: String,
    pub(crate) name: String,
}

impl Ident {
    pub(crate) fn display_name(&self) -> String {
        display_name(&self.namespace, &self.name)
    }
}

/// A field the API server's defaulting set before validating (`vgc_validate::Interpreter::apply_defaults`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DefaultedField {
    /// Its path (`spec.ports[0].protocol`).
    pub(crate) path: String,
    /// The API server's hand-written defaulting function that set it; `None` for a `+default` tag.
    pub(crate) by: Option<&'static vgc_validate::ServerDefault>,
}

impl DefaultedField {
    /// The field set by `d`.
    pub(crate) fn of(d: &vgc_validate::Defaulted) -> Self {
        Self {
            path: d.path.clone(),
            by: match d.source {
                vgc_validate::DefaultSource::Tag => None,
                vgc_validate::DefaultSource::Server(s) => Some(s),
            },
        }
    }

    /// What set it, for a report line: `from its +default`, or `by the API server's hand-written
    /// SetDefaults_PodSpec (k8s.io/kubernetes pkg/apis/core/v1)`.
    pub(crate) fn how(&self) -> String {
        match self.by {
            None => "from its +default".to_string(),
            Some(f) => format!(
                "by the API server's hand-written {} (k8s.io/kubernetes {})",
                f.function, f.package
            ),
        }
    }

    /// The function that set it as the machine-readable reports name it
    /// (`k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_PodSpec`); `None` for a `+default` tag.
    pub(crate) fn by_name(&self) -> Option<String> {
        self.by.map(vgc_validate::ServerDefault::name)
    }
}

/// A member of an object the API server's REST strategy replaces before validating, replaced by `vgc validate`
/// the same way: on a create, the written `status` cleared ([`crate::release::CreateReset`]); on an update, a member
/// the update cannot change kept from the stored object ([`crate::release::UpdateKept`]: `status` on the main
/// resource, `spec` on `/status`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cleared {
    /// The member's JSON name (`status`, `spec`).
    pub(crate) field: String,
    /// Kept from the stored object on an update (`PrepareForUpdate`); else cleared on a create (`PrepareForCreate`).
    pub(crate) update: bool,
    /// The strategy line that does it: `k8s.io/kubernetes@v1.37.2 pkg/registry/apps/deployment/strategy.go:76`.
    pub(crate) by: String,
    /// The member's key in the text (else the object's first line).
    pub(crate) span: Range<usize>,
    /// The member as the manifest wrote it (absent: `None`), to count what validating it as written reports.
    pub(crate) written: Option<serde_json::Value>,
    /// The errors (enforced and shadowed) validating the object as written reports inside the member and the
    /// prepared object does not: what the replacement hides.
    pub(crate) hidden: usize,
}

impl Cleared {
    /// `cleared` or `kept` (the JSON, TAP and SARIF reports' word).
    pub(crate) fn action(&self) -> &'static str {
        if self.update { "kept" } else { "cleared" }
    }

    /// The one-line note: `status not validated: cleared before validating a create, as the API server's
    /// PrepareForCreate does (…strategy.go:76)`.
    pub(crate) fn note(&self) -> String {
        let hidden = match self.hidden {
            0 => String::new(),
            n => format!(
                "; validated as written it has {}",
                crate::render::plural(n, "error")
            ),
        };
        if self.update {
            format!(
                "{} not validated as written: an update keeps the stored object's {}, as the API server's PrepareForUpdate does ({}){hidden}",
                self.field, self.field, self.by
            )
        } else {
            format!(
                "{} not validated: cleared before validating a create, as the API server's PrepareForCreate does ({}){hidden}",
                self.field, self.by
            )
        }
    }
}

/// One entry of the report, in input order: a document that could not be read, or one object.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// Index of its file in the report's files.
    pub(crate) file: usize,
    /// Where the document or object starts.
    pub(crate) at: usize,
    pub(crate) status: Status,
    pub(crate) ident: Option<Ident>,
    /// The kind's type, when the object was handed to the interpreter.
    pub(crate) key: Option<TypeKey>,
    pub(crate) operation: Option<&'static str>,
    pub(crate) findings: Vec<Finding>,
    /// Errors of rules not enforced at `Options::enforce`: reported as warnings; the object's status ignores them.
    pub(crate) shadowed: Vec<Finding>,
    pub(crate) problem: Option<Problem>,
    /// The fields of the object the API server's defaulting set before validating, in the order it set them.
    pub(crate) defaulted: Vec<DefaultedField>,
    /// The members the API server's strategy replaces before validating, replaced likewise ([`Cleared`]).
    pub(crate) cleared: Vec<Cleared>,
    /// A problem of an `--old` document (its identity, when known, is reported but it is not an input object:
    /// never counted in the per-kind rows).
    pub(crate) from_old: bool,
}

impl Entry {
    /// A document that could not be read: an error at `span` with `message`, the label `label`.
    pub(crate) fn unreadable(file: usize, span: Range<usize>, message: &str, label: &str) -> Self {
        Entry {
            file,
            at: span.start,
            status: Status::Unreadable,
            ident: None,
            key: None,
            operation: None,
            findings: Vec::new(),
            shadowed: Vec::new(),
            defaulted: Vec::new(),
            cleared: Vec::new(),
            from_old: false,
            problem: Some(Problem {
                note: false,
                message: message.to_string(),
                json_message: format!("{message}: {label}"),
                span,
                label: label.to_string(),
            }),
        }
    }
}

/// The files of a run and what each entry found, ready for the renderers of [`super::report`].
pub(crate) struct Results {
    pub(crate) files: SimpleFiles<String, String>,
    pub(crate) entries: Vec<Entry>,
    /// Per validated kind: its rule coverage.
    pub(crate) coverage: BTreeMap<(String, String), Coverage>,
    pub(crate) outcome: Outcome,
    /// Warnings about the API tree itself, not about a document: kinds two packages declare (`VGC0114`,
    /// [`super::Api::shadowed_kinds`]). The CLI prints them on stderr; the JSON, SARIF and TAP reports carry them too.
    pub(crate) warnings: Vec<String>,
    /// [`Options::warnings`]: about the run itself (no diagnostic code), then `old_warnings`.
    pub(crate) run_warnings: Vec<String>,
    /// Warnings about the `--old` objects (two of one identity): printed by the human report too (the CLI prints
    /// `Options::warnings` on stderr itself).
    pub(crate) old_warnings: Vec<String>,
    /// The note of a shadowed error: which release's server does not return it and why (`Options::enforce`).
    pub(crate) shadow_note: String,
    /// `Options::enforce` and `Options::release`, for the JSON report.
    pub(crate) enforce: crate::release::Enforce,
    pub(crate) release: Option<String>,
    /// Per validated kind, the hand-written validation its API server also runs and `vgc validate` does not check
    /// (`k8s.io/kubernetes@v1.37.2 pkg/apis/apps/validation`): shown beside the kind's coverage.
    pub(crate) not_checked: BTreeMap<(String, String), String>,
    /// Per kind, the valid objects of a human report that have no entry: nothing of them is printed, so they are
    /// only counted (issue 36 row 7: constant memory per document of a stream). Empty for the other formats.
    pub(crate) quiet: BTreeMap<(String, String), usize>,
    /// Per file, the last position [`Results::line_col`] computed: (line index, line start, byte offset, column),
    /// so that many positions on one long line (minified JSON) cost the distance between them, not from the line
    /// start each time.
    pub(crate) cursor:
        std::cell::RefCell<std::collections::HashMap<usize, (usize, usize, usize, usize)>>,
}

impl Results {
    /// The 1-based line and column (in characters) of byte offset `at` of `file`, as codespan-reporting counts
    /// them; `(0, 0)` for a position outside the file.
    pub(crate) fn line_col(&self, file: usize, at: usize) -> (usize, usize) {
        use codespan_reporting::files::Files as _;
        let (Ok(line), Ok(source)) = (self.files.line_index(file, at), self.files.source(file))
        else {
            return (0, 0);
        };
        let Ok(range) = self.files.line_range(file, line) else {
            return (0, 0);
        };
        let at = at.min(range.end).min(source.len());
        let mut cursor = self.cursor.borrow_mut();
        let (from, col) = match cursor.get(&file) {
            Some(&(l, start, byte, col)) if l == line && start == range.start && byte <= at => {
                (byte, col)
            }
            _ => (range.start, 0),
        };
        let Some(between) = source.get(from..at) else {
            return (0, 0);
        };
        let col = col + between.chars().count();
        cursor.insert(file, (line, range.start, at, col));
        (line + 1, col + 1)
    }

    /// The length in bytes of the line of `file` holding byte `at` (0 when out of range).
    pub(crate) fn line_len(&self, file: usize, at: usize) -> usize {
        use codespan_reporting::files::Files as _;
        self.files
            .line_index(file, at)
            .and_then(|line| self.files.line_range(file, line))
            .map_or(0, |r| r.len())
    }

    pub(crate) fn file_name(&self, file: usize) -> String {
        use codespan_reporting::files::Files as _;
        self.files
            .name(file)
            .map(|n| n.to_string())
            .unwrap_or_default()
    }
}

/// How reports name an object: `namespace/name`, `name`, or `(unnamed)`.
pub(crate) fn display_name(namespace: &str, name: &str) -> String {
    match (namespace, name) {
        ("", "") => "(unnamed)".to_string(),
        ("", n) => n.to_string(),
        (ns, n) => format!("{ns}/{n}"),
    }
}
