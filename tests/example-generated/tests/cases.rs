//! Runs the validation cases of `cases.json` against the generated example crate. Each case gives an object,
//! an optional old object (→ update), and the exact expected errors, one line each:
//! `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <stability>`.

use vgc_example_generated::widgets::v1::{Gadget, Widget};
use vgc_runtime::{Error, Operation, Validate};

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

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    #[serde(default)]
    kind: Option<String>,
    /// Validation options defined for the operation (absent ones are undefined).
    #[serde(default)]
    options: std::collections::BTreeMap<String, bool>,
    /// Subresource path segments of the request.
    #[serde(default)]
    subresources: Vec<String>,
    object: serde_json::Value,
    #[serde(default)]
    old: Option<serde_json::Value>,
    expect: Vec<String>,
}

fn run<T: Validate + serde::de::DeserializeOwned>(c: &Case) -> Vec<String> {
    let obj: T = serde_json::from_value(c.object.clone()).expect(&c.name);
    let old: Option<T> = c
        .old
        .clone()
        .map(|o| serde_json::from_value(o).expect(&c.name));
    let mut op = if old.is_some() {
        Operation::update()
    } else {
        Operation::create()
    };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    obj.validate(old.as_ref(), &op).iter().map(line).collect()
}

#[test]
fn cases() {
    let cases: Vec<Case> =
        serde_json::from_str(include_str!("cases.json")).expect("cases.json parses");
    let mut failures = Vec::new();
    for c in &cases {
        let got = match c.kind.as_deref() {
            Some("Gadget") => run::<Gadget>(c),
            _ => run::<Widget>(c),
        };
        if got != c.expect {
            failures.push(format!(
                "case {:?}:\n  want {:#?}\n  got  {:#?}",
                c.name, c.expect, got
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cases.len() >= 10);
}
