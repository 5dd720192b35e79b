//! Runs the validation cases of `cases.json` against the generated example crate. Each case gives an object,
//! an optional old object (→ update), and the exact expected errors, one line each:
//! `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <stability>`.

use vgc_example_generated::widgets::v1::Widget;
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
    object: serde_json::Value,
    #[serde(default)]
    old: Option<serde_json::Value>,
    expect: Vec<String>,
}

#[test]
fn cases() {
    let cases: Vec<Case> =
        serde_json::from_str(include_str!("cases.json")).expect("cases.json parses");
    let mut failures = Vec::new();
    for c in &cases {
        let obj: Widget = serde_json::from_value(c.object.clone()).expect(&c.name);
        let old: Option<Widget> = c
            .old
            .clone()
            .map(|o| serde_json::from_value(o).expect(&c.name));
        let op = if old.is_some() {
            Operation::update()
        } else {
            Operation::create()
        };
        let got: Vec<String> = obj.validate(old.as_ref(), &op).iter().map(line).collect();
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
