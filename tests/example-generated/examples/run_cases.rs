//! Reads validation cases (the `cases.json` shape, `expect` ignored) on stdin and prints, for each, the error
//! lines vgc's generated code returns — the Rust side of the differential oracle runs. Output:
//! `[{"name": …, "got": [lines]}]`, lines as `<field> | <ErrorBody> | origin=<o> | sc=<bool> | <alpha|beta|->`.

use std::io::Read as _;
use vgc_example_generated::widgets::v1::{Gadget, Widget};
use vgc_runtime::{Error, Operation, Validate};

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    #[serde(default)]
    kind: Option<String>,
    object: serde_json::Value,
    #[serde(default)]
    old: Option<serde_json::Value>,
    #[serde(default)]
    options: std::collections::BTreeMap<String, bool>,
    #[serde(default)]
    subresources: Vec<String>,
}

fn line(e: &Error) -> String {
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

fn main() {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        std::process::exit(2);
    }
    let Ok(cases) = serde_json::from_str::<Vec<Case>>(&input) else {
        std::process::exit(2);
    };
    let mut out = Vec::new();
    for c in &cases {
        let got = match c.kind.as_deref() {
            Some("Gadget") => run::<Gadget>(c),
            _ => run::<Widget>(c),
        };
        match got {
            Ok(lines) => out.push(serde_json::json!({"name": c.name, "got": lines})),
            Err(e) => out.push(serde_json::json!({"name": c.name, "error": e})),
        }
    }
    let text = serde_json::to_string_pretty(&out).unwrap_or_else(|_| "[]".into());
    let mut stdout = std::io::stdout().lock();
    if std::io::Write::write_all(&mut stdout, text.as_bytes()).is_err() {
        std::process::exit(2);
    }
}
