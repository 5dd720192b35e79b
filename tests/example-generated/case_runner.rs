//! Shared by `tests/cases.rs` and `examples/run_cases.rs`: one validation case (the `cases.json` shape) and how
//! it is run against the generated code. Error lines:
//! `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <alpha|beta|->`.

use vgc_example_generated::widgets::v1::{Gadget, Widget};
use vgc_runtime::{Error, Operation, Validate};

/// A validation case.
#[derive(serde::Deserialize)]
pub struct Case {
    /// Case name.
    pub name: String,
    /// Root type (`Widget` by default, or `Gadget`).
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

fn run<T: Validate + serde::de::DeserializeOwned>(c: &Case) -> Result<Vec<String>, String> {
    let obj: T = serde_json::from_value(c.object.clone()).map_err(|e| e.to_string())?;
    let old: Option<T> = match &c.old {
        Some(o) => Some(serde_json::from_value(o.clone()).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut op = if old.is_some() {
        Operation::update()
    } else {
        Operation::create()
    };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    Ok(obj.validate(old.as_ref(), &op).iter().map(line).collect())
}

/// Runs a case; `Err` when the object or old object does not deserialize.
pub fn run_case(c: &Case) -> Result<Vec<String>, String> {
    match c.kind.as_deref() {
        Some("Gadget") => run::<Gadget>(c),
        _ => run::<Widget>(c),
    }
}
