//! Reads validation cases (the `cases.json` shape, `expect` ignored) on stdin and prints, for each, the error
//! lines vgc's generated code returns — the Rust side of the differential oracle runs. Output:
//! `[{"name": …, "got": [lines], "expect": [lines]}]` (or `"error"` when a case does not deserialize).

#[path = "../case_runner.rs"]
mod case_runner;

use std::io::Read as _;

fn main() {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        std::process::exit(2);
    }
    let Ok(cases) = serde_json::from_str::<Vec<case_runner::Case>>(&input) else {
        std::process::exit(2);
    };
    let out: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| match case_runner::run_case(c) {
            Ok(lines) => serde_json::json!({"name": c.name, "got": lines, "expect": c.expect}),
            Err(e) => serde_json::json!({"name": c.name, "error": e}),
        })
        .collect();
    let text = serde_json::to_string_pretty(&out).unwrap_or_else(|_| "[]".into());
    let mut stdout = std::io::stdout().lock();
    if std::io::Write::write_all(&mut stdout, text.as_bytes()).is_err() {
        std::process::exit(2);
    }
}
