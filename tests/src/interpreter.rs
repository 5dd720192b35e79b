//! The interpreter (`vgc-validate`) as a third party of the differential runs: the same cases the Go driver and
//! the generated Rust runner see, evaluated from the plan over their JSON, compared line for line with the
//! generated Rust's results (and so, through the Go/Rust comparison, with upstream's).

use serde_json::{Value, json};
use vgc_runtime::{Error, Operation, StabilityLevel};
use vgc_validate::{EvalError, Interpreter};

/// The result line the Rust runner prints for an error (`harness::RUST_RUNNER_HEAD` `line`), which is also the Go
/// drivers' `line` (runtime_calls.go).
pub fn error_line(e: &Error) -> String {
    let st = match e.stability {
        Some(StabilityLevel::Alpha) => "alpha",
        Some(StabilityLevel::Beta) => "beta",
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

/// The interpreter's result for one differential case, in the runners' shape: `{"name", "got": [lines]}`, or
/// `{"name", "error"}` when the case does not decode or names no root. A case reaching a hand-written
/// `customValidation` function is `{"name", "custom": <function>}`. With `route_typedefs`, a typedef root is
/// routed on the subresource as the runner's `validate_<type>_request`; without, called directly.
pub fn run_case(interp: &Interpreter<'_>, c: &Value, route_typedefs: bool) -> Value {
    let name = c["name"].clone();
    // The kinds the Rust runner dispatches (`harness::rust_runner` over `plan_random::Generator::roots`): roots
    // with validations.
    let Some(key) = interp
        .roots()
        .into_iter()
        .filter(|t| t.has_validations)
        .find(|t| c["kind"].as_str() == Some(t.key.to_string().as_str()))
        .map(|t| t.key.clone())
    else {
        return json!({"name": name, "error": format!("unknown kind {}", c["kind"])});
    };
    let old = c.get("old");
    let mut op = if old.is_some() || c["update"].as_bool() == Some(true) {
        Operation::update()
    } else {
        Operation::create()
    };
    if let Some(opts) = c["options"].as_object() {
        for (k, v) in opts {
            op.options.insert(k.clone(), v.as_bool().unwrap_or(false));
        }
    }
    if let Some(subs) = c["subresources"].as_array() {
        op.subresources = subs
            .iter()
            .filter_map(|s| s.as_str().map(String::from))
            .collect();
    }
    let typedef = interp.type_plan(&key).is_some_and(|t| t.fields.is_none());
    let result = if typedef && !route_typedefs {
        interp.validate_unrouted(&key, &c["object"], old, &op)
    } else {
        interp.validate(&key, &c["object"], old, &op)
    };
    match result {
        Ok(errs) => json!({"name": name, "got": errs.iter().map(error_line).collect::<Vec<_>>()}),
        Err(EvalError::CustomValidation { function, .. }) => {
            json!({"name": name, "custom": function})
        }
        Err(e) => json!({"name": name, "error": e.to_string()}),
    }
}

/// Interpreter vs generated Rust over one case set.
#[derive(Debug, Default)]
pub struct Agreement {
    /// Cases compared.
    pub cases: usize,
    /// Cases with at least one error (both sides).
    pub with_errors: usize,
    /// Cases both sides refuse: the JSON does not decode (the generated type's serde and the interpreter), or the
    /// kind is not a root with validations (unknown to the runner).
    pub both_undecodable: usize,
    /// Cases reaching a hand-written `customValidation` function, which the interpreter reports instead of
    /// running (not compared).
    pub custom: usize,
    /// Mismatch descriptions.
    pub mismatches: Vec<String>,
}

impl Agreement {
    /// One line for the test log.
    pub fn line(&self) -> String {
        format!(
            "{} cases: {} mismatches between the interpreter and the generated Rust; {} cases with errors, {} \
             refused by both (undecodable or unknown kind), {} reaching customValidation without a twin (not \
             compared)",
            self.cases,
            self.mismatches.len(),
            self.with_errors,
            self.both_undecodable,
            self.custom
        )
    }

    /// Writes the mismatches to `report` and asserts there are none.
    pub fn assert_clean(&self, report: &std::path::Path) {
        std::fs::write(report, self.mismatches.join("\n")).expect("interpreter mismatch report");
        assert!(
            self.mismatches.is_empty(),
            "{} interpreter mismatches (all in {}), first ones:\n{}",
            self.mismatches.len(),
            report.display(),
            self.mismatches
                .iter()
                .take(4)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// How a suite's `customValidation` functions are given to the interpreter: none (cases reaching one are counted
/// apart), accept-all stubs ([`stubbed`]), or the suite's own twins.
pub type Customize = for<'p> fn(Interpreter<'p>) -> Interpreter<'p>;

/// No `customValidation` function: cases reaching one are counted apart.
pub fn no_custom(interp: Interpreter<'_>) -> Interpreter<'_> {
    interp
}

/// Every `customValidation` function accepts every value, as the stubs `vgc build --custom-stub` writes (k8s.io/api's
/// are stubbed on both sides of the oracle).
pub fn stubbed(mut interp: Interpreter<'_>) -> Interpreter<'_> {
    for f in interp.custom_functions() {
        interp = interp.with_custom(f, Box::new(|_, _, _, _| Vec::new()));
    }
    interp
}

/// Runs the interpreter (given the suite's `customValidation` functions by `custom`) on `cases` and compares its
/// results with the generated Rust runner's `rust` (same order, unmodified: exact lines, in order).
pub fn agree(
    plan: &vgc_lowering::CratePlan,
    cases: &[Value],
    rust: &[Value],
    route_typedefs: bool,
    custom: Customize,
) -> Agreement {
    assert_eq!(cases.len(), rust.len());
    let interp = custom(Interpreter::new(plan));
    let mut a = Agreement::default();
    for (c, r) in cases.iter().zip(rust) {
        a.cases += 1;
        let got = run_case(&interp, c, route_typedefs);
        if got.get("custom").is_some() {
            a.custom += 1;
            continue;
        }
        match (got.get("error"), r.get("error")) {
            (Some(_), Some(_)) => {
                a.both_undecodable += 1;
                continue;
            }
            (None, None) if got["got"] == r["got"] => {
                if got["got"].as_array().is_some_and(|l| !l.is_empty()) {
                    a.with_errors += 1;
                }
                continue;
            }
            _ => {}
        }
        a.mismatches.push(format!(
            "{} ({}):\n  case        {}\n  rust        {}\n  interpreter {}",
            c["name"],
            c["kind"],
            c,
            r.get("error").unwrap_or(&r["got"]),
            got.get("error").unwrap_or(&got["got"])
        ));
    }
    a
}
