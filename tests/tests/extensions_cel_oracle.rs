//! An independent oracle for vgc's field-path constraints (`docs/extensions.md`): each rule of
//! `tests/extensions/constraints` written by this test as its CEL equivalent on the common ancestor (`self` is the
//! `Config` at `spec`: `self.current >= self.minValue`, with `has()` for unset pointers and a transition condition
//! on `oldSelf` for ratcheting), evaluated by cel-go (the CEL implementation behind Kubernetes'
//! `x-kubernetes-validations`; the driver `tests/cel-oracle/main.go`, built here against cel-go fetched through the
//! Go module proxy) on random objects and old objects this test generates, compared case by case with the error
//! lines of vgc's interpreter — which `tests/tests/extensions.rs` proves equal to the generated Rust. Each CEL rule
//! returns the whole error line (path, value, detail naming the other field and its value, origin), so error
//! positions and messages are compared too, in order.
//!
//! The subresource conditions of `tests/extensions/subresources` the same way: each rule as CEL over the whole
//! `Widget`, with the request's subresource path as the CEL variable `subresource` (`subresource != '/resize' ? …`),
//! on random widgets, old widgets and subresources (the resource itself, `/status`, `/resize`).
//!
//! The virtual groups of `tests/extensions/virtual` the same way: each group as CEL over the whole `Job` (the members'
//! "set" tests through their paths, `exists` over a list-map for an item member, the count of set members, and the
//! ratchet: on update, no error while no member's set-ness changed), on random jobs and old jobs.
//!
//! The field-path constraints between quantities and durations of `tests/extensions-quantities` the same way: CEL
//! has no quantity type, so each quantity is read by a CEL expression this test writes for the forms it generates
//! (sign, up to four digits, up to three decimals, a suffix of `m`, `k`, `M`, `Ki`, `Mi`, `Gi`) into an integer of
//! millionths, and durations by CEL's own `duration()`.
//!
//! `VGC_CEL_ORACLE_CASES` (default 50,000 per test) and `VGC_CEL_ORACLE_SEED` (default 1). Needs `go` and the module
//! proxy; builds the driver once in `target/e2e/cel-oracle-driver`, works in `target/e2e/cel-oracle`,
//! `target/e2e/cel-oracle-subresources` and `target/e2e/cel-oracle-virtual`.
//!
//! The rules' CEL, the random generators, the driver's build and the comparison are `vgc_tests::cel_oracle`.

use serde_json::{Value, json};
use vgc_tests::cel_oracle::{
    Draws, KIND, Oracle, job, measured_rules, mutate, old_job, old_sizing, old_widget, rules,
    sizing, spec, subresource_rules, virtual_rules, widget,
};

#[test]
fn field_path_constraints_agree_with_cel_go() {
    let o = Oracle::new("cel-oracle");
    let n = o.cases;
    let with_errors = o.run(
        rules(),
        Draws {
            kind: KIND,
            new: &mut spec,
            old: &mut mutate,
            object: &|v| json!({"spec": v}),
            subresource: &mut |_| "",
        },
    );
    // Cases with an error at an element (the rules per element, `eachVal`), and those that are updates.
    let at_element = |lines: &[Value]| {
        lines.iter().any(|e| {
            e.as_str()
                .and_then(|e| e.split(' ').next())
                .is_some_and(|p| p.ends_with(']'))
        })
    };
    let element: Vec<&Value> = with_errors
        .iter()
        .filter(|(_, l)| at_element(l))
        .map(|(c, _)| c)
        .collect();
    let element_updates = element.iter().filter(|c| c.get("old").is_some()).count();
    eprintln!(
        "cel-oracle: {} with errors at elements ({element_updates} updates)",
        element.len()
    );
    assert!(
        element.len() > n / 10 && element_updates > n / 50,
        "{} cases with errors at elements, {element_updates} updates",
        element.len()
    );
}

/// Subresource conditions (`tests/extensions/subresources`) against their CEL equivalents, the subresource path
/// given to CEL as a variable: random `Widget`s, half with an old object, each through the resource itself,
/// `/status` or `/resize`.
#[test]
fn subresource_conditions_agree_with_cel_go() {
    let o = Oracle::new("cel-oracle-subresources");
    o.run(
        subresource_rules(),
        Draws {
            kind: "vgc.test/extensions/subresources.Widget",
            new: &mut widget,
            old: &mut old_widget,
            object: &Value::clone,
            subresource: &mut |r| ["", "status", "resize"][r.below(3)],
        },
    );
}

#[test]
fn virtual_groups_agree_with_cel_go() {
    let o = Oracle::new("cel-oracle-virtual");
    let with_errors = o.run(
        virtual_rules(),
        Draws {
            kind: "vgc.test/extensions/virtual.Job",
            new: &mut job,
            old: &mut old_job,
            object: &Value::clone,
            subresource: &mut |_| "",
        },
    );
    // Every group fails somewhere, on create and on update.
    for needle in [
        "<nil> |",
        "at most one of: `cron`",
        "one of: `image`",
        "`conditions[",
    ] {
        for update in [false, true] {
            assert!(
                with_errors
                    .iter()
                    .any(|(c, lines)| c.get("old").is_some() == update
                        && lines
                            .iter()
                            .any(|l| l.as_str().is_some_and(|l| l.contains(needle)))),
                "no {} case fails with {needle:?}",
                if update { "update" } else { "create" }
            );
        }
    }
}

#[test]
fn quantity_and_duration_constraints_agree_with_cel_go() {
    let tmp = tempfile::tempdir().expect("tempdir");
    vgc_tests::harness::download_module("k8s.io/apimachinery@v0.37.2", tmp.path());
    let o = Oracle::of_module("cel-oracle-quantities", "tests/extensions-quantities");
    let with_errors = o.run(
        measured_rules(),
        Draws {
            kind: "vgc.test/extensions-quantities/quantities.Sizing",
            new: &mut sizing,
            old: &mut old_sizing,
            object: &Value::clone,
            subresource: &mut |_| "",
        },
    );
    for needle in [
        " limit (",
        " floor.value (",
        " base (",
        " minTimeout (",
        "requests[",
        "steps[",
    ] {
        assert!(
            with_errors.iter().any(|(_, l)| l
                .iter()
                .any(|l| l.as_str().is_some_and(|l| l.contains(needle)))),
            "no case fails against {needle}"
        );
    }
}
