//! Diagnostics as data: severity, a stable `VGCnnnn` code, a message, a byte span in a file, and a hint.

use serde::Serialize;

/// Severity of a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    /// Something vgc cannot compile; `vgc build` exits 1 and writes nothing.
    Error,
    /// Something the user should know (a skipped region, a tag not lowered yet).
    Warning,
}

/// Stable diagnostic codes. The number never changes meaning; see `docs/diagnostics.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Code {
    /// VGC0001: a region of a Go file could not be parsed (warning).
    GoSyntax,
    /// VGC0002: a file or directory could not be read.
    Io,
    /// VGC0003: an imported module is not in the module cache or vendor/.
    MissingModule,
    /// VGC0004: a referenced package or type could not be resolved.
    Unresolved,
    /// VGC0005: the package-level `k8s:validation-gen` settings are invalid.
    GeneratorConfig,
    /// VGC0101: a tag line does not parse.
    TagSyntax,
    /// VGC0102: an unknown `+k8s:` tag.
    UnknownTag,
    /// VGC0103: a tag in a scope it does not support.
    WrongScope,
    /// VGC0104: a required argument is missing.
    MissingArg,
    /// VGC0105: an argument the tag does not declare.
    UnknownArg,
    /// VGC0106: an argument of the wrong type.
    ArgType,
    /// VGC0107: a required payload is missing.
    MissingPayload,
    /// VGC0108: a payload of the wrong type, or a payload on a tag that takes none.
    PayloadType,
    /// VGC0109: a payload value the tag does not accept (unknown format, bad listType, out-of-range limit).
    InvalidPayload,
    /// VGC0110: the tag does not apply to the field's or type's Go type.
    TypeMismatch,
    /// VGC0111: list metadata (listType/listMapKey/unique) is inconsistent.
    ListMetadata,
    /// VGC0112: a Go type shape validation-gen does not support.
    UnsupportedType,
    /// VGC0201: a tag whose lowering is not implemented yet; no check is generated (warning).
    NotLowered,
}

impl Code {
    /// The stable code string, e.g. `VGC0102`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Code::GoSyntax => "VGC0001",
            Code::Io => "VGC0002",
            Code::MissingModule => "VGC0003",
            Code::Unresolved => "VGC0004",
            Code::GeneratorConfig => "VGC0005",
            Code::TagSyntax => "VGC0101",
            Code::UnknownTag => "VGC0102",
            Code::WrongScope => "VGC0103",
            Code::MissingArg => "VGC0104",
            Code::UnknownArg => "VGC0105",
            Code::ArgType => "VGC0106",
            Code::MissingPayload => "VGC0107",
            Code::PayloadType => "VGC0108",
            Code::InvalidPayload => "VGC0109",
            Code::TypeMismatch => "VGC0110",
            Code::ListMetadata => "VGC0111",
            Code::UnsupportedType => "VGC0112",
            Code::NotLowered => "VGC0201",
        }
    }
}

/// One diagnostic. `file` is the path as the driver registered it; `span` is a byte range in that file
/// (empty when the diagnostic has no position, e.g. a missing module).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Stable code.
    pub code: Code,
    /// One-line message.
    pub message: String,
    /// File path, if the diagnostic points into a file.
    pub file: Option<String>,
    /// Byte span in `file`.
    pub span: std::ops::Range<usize>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error diagnostic.
    #[must_use]
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            message: message.into(),
            file: None,
            span: 0..0,
            hint: None,
        }
    }

    /// A warning diagnostic.
    #[must_use]
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }

    /// Attaches a file and byte span.
    #[must_use]
    pub fn at(mut self, file: impl Into<String>, span: std::ops::Range<usize>) -> Self {
        self.file = Some(file.into());
        self.span = span;
        self
    }

    /// Attaches a hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}
