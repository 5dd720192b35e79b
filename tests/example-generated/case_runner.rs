//! Shared by `tests/cases.rs` and `examples/run_cases.rs`: one validation case (the `cases.json` shape) and how
//! it is run against the generated code. Error lines:
//! `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <alpha|beta|->`.

use vgc_example_generated::registry;
use vgc_runtime::{Error, Operation};

/// A validation case.
#[derive(serde::Deserialize)]
pub struct Case {
    /// Case name.
    pub name: String,
    /// Root kind (`Widget` by default, or `Gadget`).
    #[serde(default)]
    pub kind: Option<String>,
    /// The object.
    pub object: serde_json::Value,
    /// The old object (its presence makes the operation an update).
    #[serde(default)]
    pub old: Option<serde_json::Value>,
    /// Validation options defined for the operation (absent ones are undefined).
    #[serde(default)]
    pub options: std::collections::BTreeMap<String, bool>,
    /// Subresource path segments of the request.
    #[serde(default)]
    pub subresources: Vec<String>,
    /// The expected error lines (ignored by the runner).
    #[serde(default)]
    pub expect: Vec<String>,
}

/// One error as a line.
pub fn line(e: &Error) -> String {
    let st = match e.stability {
        Some(vgc_runtime::StabilityLevel::Alpha) => "alpha",
        Some(vgc_runtime::StabilityLevel::Beta) => "beta",
        None => "-",
    };
    format!(
        "{} | {} | origin={} | sc={} | {st}",
        e.field,
        e.body(),
        e.origin,
        e.short_circuit
    )
}

/// Runs a case through the crate's GVK dispatch (`registry::validate_object`, kind `Widget` unless the case
/// names another); `Err` when the object or old object does not decode.
pub fn run_case(c: &Case) -> Result<Vec<String>, String> {
    let mut op = if c.old.is_some() {
        Operation::update()
    } else {
        Operation::create()
    };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    let kind = c.kind.as_deref().unwrap_or("Widget");
    let errs = registry::validate_object(
        "widgets.example.com/v1",
        kind,
        &c.object,
        c.old.as_ref(),
        &op,
    )
    .map_err(|e| e.to_string())?;
    Ok(errs.iter().map(line).collect())
}
