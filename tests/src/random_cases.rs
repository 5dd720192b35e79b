// Random differential run on the bundled example (a phase of `tests/oracle.rs`): a structure-aware generator (it knows the example's fields,
//! list keys, enums, formats, unions, modes and options, so it reaches deep branches) produces objects, old
// objects and option sets; upstream-generated Go (via `tests/oracle`) and vgc-generated Rust (the
// `run_cases` example of the generated crate) validate each; the error lists must be identical.
//
// `VGC_ORACLE_CASES` sets the number of cases (default 2,000 for CI); `VGC_ORACLE_SEED` the seed (default 1).

use crate::differential::{Outcome, compare, env_or, run};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// xorshift64*: small, deterministic, good enough to pick among hand-made pools.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn pick(&mut self, pool: &[Value]) -> Value {
        pool[self.below(pool.len())].clone()
    }
}

fn int(r: &mut Rng, v: &[i64]) -> Value {
    json!(v[r.below(v.len())])
}

fn s(v: &[&str]) -> Vec<Value> {
    v.iter().map(|x| json!(x)).collect()
}

fn maybe(
    r: &mut Rng,
    obj: &mut serde_json::Map<String, Value>,
    key: &str,
    pct: u64,
    v: impl FnOnce(&mut Rng) -> Value,
) {
    if r.chance(pct) {
        let v = v(r);
        obj.insert(key.into(), v);
    }
}

fn list(r: &mut Rng, max: usize, mut f: impl FnMut(&mut Rng) -> Value) -> Value {
    let n = r.below(max + 1);
    Value::Array((0..n).map(|_| f(r)).collect())
}

fn names() -> Vec<Value> {
    s(&[
        "web",
        "a",
        "",
        "Not_A_Name",
        "a.b",
        "x-",
        "a-very-long-display-name-xyz",
        "http",
    ])
}

fn spec(r: &mut Rng) -> Value {
    let mut m = serde_json::Map::new();
    let nm = names();
    maybe(r, &mut m, "displayName", 90, |r| r.clone_pick(&nm));
    maybe(r, &mut m, "replicas", 40, |r| int(r, &[0, 1, 10, 11, -1]));
    maybe(r, &mut m, "description", 30, |r| {
        r.clone_pick(&s(&["", "x", "ok", &"y".repeat(70)]))
    });
    maybe(r, &mut m, "color", 40, |r| {
        r.clone_pick(&s(&["", "Red", "Blue", "Green"]))
    });
    let ports = list(
        r,
        4,
        |r| json!({"name": r.pick(&s(&["a", "b", "http", "Bad_Name", ""])), "number": int(r, &[0, 1, 80, 65536])}),
    );
    maybe(r, &mut m, "ports", 40, |_| ports);
    let hosts = list(r, 3, |r| r.pick(&s(&["a.example", "Bad", "b.example", ""])));
    maybe(r, &mut m, "hosts", 30, |_| hosts);
    let mut ann = serde_json::Map::new();
    for _ in 0..r.below(4) {
        ann.insert(
            r.pick(&s(&["a", "a/b/c", "example.com/x", "Bad Key"]))
                .as_str()
                .unwrap_or("a")
                .into(),
            json!("v"),
        );
    }
    maybe(r, &mut m, "annotations", 30, |_| Value::Object(ann));
    maybe(r, &mut m, "owner", 30, |_| json!("me"));
    maybe(r, &mut m, "legacy", 10, |_| json!("x"));
    let tags = list(r, 3, |r| r.pick(&s(&["t1", "t2"])));
    maybe(r, &mut m, "tags", 20, |_| tags);
    maybe(r, &mut m, "token", 20, |r| {
        r.clone_pick(&s(&["", "123e4567-e89b-12d3-a456-426614174000", "nope"]))
    });
    let backends = list(r, 2, |r| {
        if r.chance(20) {
            Value::Null
        } else {
            json!({"host": r.pick(&s(&["db.example.com", "", "Bad_Host"]))})
        }
    });
    maybe(r, &mut m, "backends", 20, |_| backends);
    maybe(
        r,
        &mut m,
        "network",
        20,
        |r| json!({"mode": r.pick(&s(&["", "lan", "Bad_Mode_Long", "toolongmode"]))}),
    );
    let mut d = serde_json::Map::new();
    maybe(r, &mut d, "minReplicas", 50, |r| int(r, &[0, 1, 5]));
    maybe(r, &mut d, "tier", 50, |r| r.clone_pick(&s(&["", "gold"])));
    maybe(r, &mut m, "defaults", 20, |_| Value::Object(d));
    let mut e = serde_json::Map::new();
    maybe(r, &mut e, "host", 50, |_| json!("h"));
    maybe(r, &mut e, "ip", 50, |_| json!("1.2.3.4"));
    maybe(r, &mut m, "endpoint", 25, |_| Value::Object(e));
    let mut src = serde_json::Map::new();
    maybe(r, &mut src, "type", 80, |r| {
        r.clone_pick(&s(&["", "Git", "Image", "Other"]))
    });
    maybe(
        r,
        &mut src,
        "git",
        40,
        |r| json!({"url": r.pick(&s(&["", "u"]))}),
    );
    maybe(r, &mut src, "container", 40, |_| json!("c"));
    maybe(r, &mut src, "tag", 40, |_| json!("t"));
    maybe(r, &mut src, "digest", 40, |_| json!("d"));
    maybe(r, &mut m, "source", 25, |_| Value::Object(src));
    let mut acc = serde_json::Map::new();
    maybe(r, &mut acc, "gpus", 60, |r| int(r, &[0, 2]));
    maybe(r, &mut m, "accelerators", 20, |_| Value::Object(acc));
    let mut sc = serde_json::Map::new();
    for (k, vals) in [("min", [1, 2]), ("max", [3, 5]), ("fixed", [1, 2])] {
        let v = int(r, &vals);
        maybe(r, &mut sc, k, 50, |_| v);
    }
    maybe(r, &mut sc, "profile", 40, |r| {
        r.clone_pick(&s(&["", "default", "x"]))
    });
    maybe(r, &mut sc, "step", 40, |r| int(r, &[-1, 3]));
    maybe(r, &mut m, "scaling", 25, |_| Value::Object(sc));
    let mut dl = serde_json::Map::new();
    maybe(r, &mut dl, "mode", 80, |r| {
        r.clone_pick(&s(&["", "Push", "Pull"]))
    });
    maybe(r, &mut dl, "endpoint", 50, |r| {
        r.clone_pick(&s(&["x", "Bad_Host", "ok.example"]))
    });
    maybe(r, &mut dl, "intervalSeconds", 50, |r| int(r, &[5, 20]));
    maybe(r, &mut dl, "secure", 50, |r| json!(r.chance(50)));
    maybe(r, &mut dl, "certRef", 40, |_| json!("c"));
    maybe(r, &mut m, "delivery", 25, |_| Value::Object(dl));
    let conds = list(
        r,
        3,
        |r| json!({"type": r.pick(&s(&["Ready", "Failed", "Progress", "Other"])), "status": r.pick(&s(&["", "running", "a"]))}),
    );
    maybe(r, &mut m, "conditions", 30, |_| conds);
    maybe(r, &mut m, "probe", 10, |r| {
        r.clone_pick(&[json!({}), json!({"a": "x", "b": "y"})])
    });
    maybe(
        r,
        &mut m,
        "sizing",
        20,
        |r| json!({"size": r.pick(&s(&["", "Small", "XLarge", "Tiny"]))}),
    );
    Value::Object(m)
}

trait ClonePick {
    fn clone_pick(&mut self, pool: &[Value]) -> Value;
}
impl ClonePick for Rng {
    fn clone_pick(&mut self, pool: &[Value]) -> Value {
        self.pick(pool)
    }
}

fn widget(r: &mut Rng) -> Value {
    let mut w = serde_json::Map::new();
    w.insert("kind".into(), json!("Widget"));
    if r.chance(60) {
        let mut md = serde_json::Map::new();
        maybe(r, &mut md, "name", 70, |r| {
            r.clone_pick(&s(&["w1", "-bad", "", "Bad_Name"]))
        });
        maybe(r, &mut md, "namespace", 40, |r| {
            r.clone_pick(&s(&["ns", "a.b"]))
        });
        let mut labels = serde_json::Map::new();
        for _ in 0..r.below(3) {
            labels.insert(
                r.pick(&s(&["app", "a/b/c", "example.com/tier"]))
                    .as_str()
                    .unwrap_or("app")
                    .into(),
                r.pick(&s(&["web", "bad value", ""])),
            );
        }
        maybe(r, &mut md, "labels", 40, |_| Value::Object(labels));
        maybe(r, &mut md, "uid", 30, |r| {
            r.clone_pick(&s(&["x", "123e4567-e89b-12d3-a456-426614174000"]))
        });
        w.insert("metadata".into(), Value::Object(md));
    }
    if r.chance(90) {
        w.insert("spec".into(), spec(r));
    }
    Value::Object(w)
}

fn gadget(r: &mut Rng) -> Value {
    let parts = list(r, 3, |r| {
        if r.chance(20) {
            Value::Null
        } else {
            json!({"name": r.pick(&s(&["a", "b", ""]))})
        }
    });
    json!({"serial": r.pick(&s(&["", "s"])), "parts": parts})
}

/// An old object: usually the new one with a few fields re-drawn, sometimes unrelated.
fn old_of(r: &mut Rng, new: &Value, make: fn(&mut Rng) -> Value) -> Value {
    if r.chance(20) {
        return make(r);
    }
    let mut old = new.clone();
    let fresh = make(r);
    if let (Some(o), Some(f)) = (
        old.get_mut("spec").and_then(Value::as_object_mut),
        fresh.get("spec").and_then(Value::as_object),
    ) {
        for (k, v) in f {
            if r.chance(30) {
                o.insert(k.clone(), v.clone());
            }
        }
    } else if r.chance(50) {
        old = fresh;
    }
    old
}

fn cases(n: usize, seed: u64) -> Vec<Value> {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..n)
        .map(|i| {
            let gadget_case = r.chance(15);
            let make: fn(&mut Rng) -> Value = if gadget_case { gadget } else { widget };
            let object = make(&mut r);
            let mut c = json!({"name": format!("random-{seed}-{i}"), "object": object.clone(), "expect": []});
            if gadget_case {
                c["kind"] = json!("Gadget");
            }
            if r.chance(50) {
                c["old"] = old_of(&mut r, &object, make);
            }
            let mut opts = serde_json::Map::new();
            for o in ["WidgetGPU", "WidgetXL"] {
                if r.chance(70) {
                    opts.insert(o.into(), json!(r.chance(50)));
                }
            }
            c["options"] = Value::Object(opts);
            c
        })
        .collect()
}

/// Runs the random phase with the oracle binary built by the caller.
pub fn random_objects_agree_with_upstream(root: &Path, oracle: &Path) {
    let n: usize = env_or("VGC_ORACLE_CASES", 2000);
    let seed: u64 = env_or("VGC_ORACLE_SEED", 1);
    let input = serde_json::to_string(&cases(n, seed)).expect("cases");
    let start = std::time::Instant::now();
    let upstream = run(&mut Command::new(oracle), &input);
    let ours = run(
        crate::harness::cargo_in(
            &root.join("target/e2e/target"),
            &[
                "run",
                "--quiet",
                "--profile",
                "e2e",
                "-p",
                "vgc-example-generated",
                "--example",
                "run_cases",
            ],
            None,
            false,
        )
        .current_dir(root),
        &input,
    );
    assert_eq!(upstream.len(), n);
    assert_eq!(ours.len(), n);
    let mut mismatches = Vec::new();
    let mut order_only = 0;
    let (mut nil_vs_empty, mut nil_panics) = (0, 0);
    for (u, o) in upstream.iter().zip(&ours) {
        let outcome = compare(u, o);
        match outcome {
            Outcome::Same => {}
            Outcome::OrderOnly => order_only += 1,
            Outcome::NilVsEmpty => nil_vs_empty += 1,
            Outcome::UpstreamNilPanic => nil_panics += 1,
            Outcome::Mismatch => mismatches.push(format!(
                "{}:\n  upstream {}\n  vgc      {}",
                u["name"],
                u["got"],
                o.get("error").unwrap_or(&o["got"])
            )),
        }
    }
    eprintln!(
        "oracle-random: {n} cases (seed {seed}), {} mismatches, {order_only} equal up to map-iteration order, \
         {nil_vs_empty} differing only as deviation D11 (nil vs empty list in a Duplicate detail), {nil_panics} where \
         upstream panicked on a nil pointer (D2), {:.1}s",
        mismatches.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first ones:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
