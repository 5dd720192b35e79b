//! Runs the validation cases of `cases.json` against the generated example crate. Each case gives an object,
//! an optional old object (→ update), options and subresources, and the exact expected errors, one line each:
//! `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <stability>`.

#[path = "../case_runner.rs"]
mod case_runner;

#[test]
fn cases() {
    let cases: Vec<case_runner::Case> =
        serde_json::from_str(include_str!("cases.json")).expect("cases.json parses");
    let mut failures = Vec::new();
    for c in &cases {
        let got = case_runner::run_case(c).unwrap_or_else(|e| panic!("{}: {e}", c.name));
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
