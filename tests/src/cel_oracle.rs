//! The CEL oracle of vgc's extensions (`tests/tests/extensions_cel_oracle.rs`, which holds only the tests): each
//! rule of `tests/extensions/constraints`, `tests/extensions/subresources`, `tests/extensions/virtual` and
//! `tests/extensions-quantities` written as its CEL equivalent from the definitions (never from vgc's plan), the
//! random objects and old objects each test draws, the cel-go driver (`tests/cel-oracle/main.go`, built against
//! [`CEL_GO`] fetched through the Go module proxy) and the case-by-case comparison with vgc's interpreter
//! ([`Oracle::run`]). The test file's documentation says what each run covers.

use crate::differential::{self, env_or};
use crate::harness::go;
use crate::plan_random::Rng;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use vgc::driver::BuildRequest;

/// The pinned cel-go release the driver is built against.
const CEL_GO: &str = "github.com/google/cel-go v0.26.1";

/// The root kind of the extensions test package the oracle validates.
pub const KIND: &str = "vgc.test/extensions/constraints.Root";

/// One side of a constraint as CEL reads it below `self`/`oldSelf`: its JSON path and whether it can be unset (a
/// pointer on the way; a non-pointer integer absent from the JSON is its zero value).
#[derive(Clone, Copy)]
struct Side {
    path: &'static [&'static str],
    nilable: bool,
}

impl Side {
    /// CEL: the side has a value under `root`.
    fn set(self, root: &str) -> String {
        if !self.nilable {
            return "true".into();
        }
        (1..=self.path.len())
            .map(|n| format!("has({root}.{})", self.path[..n].join(".")))
            .collect::<Vec<_>>()
            .join(" && ")
    }

    /// CEL: the side's value under `root` (valid when [`Side::set`]).
    fn val(self, root: &str) -> String {
        let p = format!("{root}.{}", self.path.join("."));
        if self.nilable {
            p
        } else {
            format!("(has({p}) ? {p} : 0)")
        }
    }

    /// CEL: the side is the same in `self` and `oldSelf` (both unset, or both set and equal).
    fn unchanged(self) -> String {
        format!(
            "(({}) == ({}) && (!({}) || {} == {}))",
            self.set("self"),
            self.set("oldSelf"),
            self.set("self"),
            self.val("self"),
            self.val("oldSelf")
        )
    }
}

/// The CEL rule of one field-path constraint: `""` when it holds, else vgc's error line for it.
fn constraint_rule(target: Side, op: &str, bound: Side, words: &str, origin: &str) -> String {
    let (t, b) = (target.val("self"), bound.val("self"));
    format!(
        "(!(({}) && ({})) || {t} {op} {b} || (hasOld && {} && {})) ? '' : 'spec.{} | Invalid value: ' + string({t}) + ': must be {words} spec.{} (' + string({b}) + ') | origin={origin} | sc=false | -'",
        target.set("self"),
        bound.set("self"),
        target.unchanged(),
        bound.unchanged(),
        target.path.join("."),
        bound.path.join("."),
    )
}

/// How a list or map constrained per element (`eachVal=+k8s:…(constraint: …)`) matches an element with its old
/// counterpart for ratcheting.
#[derive(Clone, Copy)]
enum Elements {
    /// An atomic list: no item has an identity; every item is unchanged when the whole list is.
    Atomic,
    /// `listType=set`: an item is unchanged when the old list holds an equal item.
    Set,
    /// A map: a value is unchanged when its key's old value is equal.
    Map,
}

/// The CEL rule of one field-path constraint per element: the list of vgc's error lines, one per offending element
/// in order (list index; map keys sorted, as vgc iterates them), none while the referenced field is unset. Null
/// items (`[]*int32`) are not checked. Ratcheting: an element is skipped on update when the referenced value is
/// unchanged and the element is (see [`Elements`]).
fn each_rule(
    list: &str,
    elements: Elements,
    op: &str,
    bound: Side,
    words: &str,
    origin: &str,
) -> String {
    let b = bound.val("self");
    let (new, old) = (format!("self.{list}"), format!("oldSelf.{list}"));
    let (keys, elem, at) = match elements {
        Elements::Map => (
            format!("{new}.map(k, k).sort()"),
            format!("{new}[k]"),
            "k".to_string(),
        ),
        Elements::Atomic | Elements::Set => (
            format!("lists.range(size({new}))"),
            format!("{new}[k]"),
            "string(k)".to_string(),
        ),
    };
    let unchanged = match elements {
        Elements::Atomic => format!("(has({new}) ? {new} : []) == (has({old}) ? {old} : [])"),
        Elements::Set => format!("has({old}) && {old}.exists(o, o == {elem})"),
        Elements::Map => format!("has({old}) && k in {old} && {old}[k] == {elem}"),
    };
    format!(
        "(!({}) || !has({new})) ? [] : {keys}.filter(k, {elem} != null && !({elem} {op} {b}) && !(hasOld && {} && {unchanged})).map(k, 'spec.{list}[' + {at} + '] | Invalid value: ' + string({elem}) + ': must be {words} spec.{} (' + string({b}) + ') | origin={origin} | sc=false | -')",
        bound.set("self"),
        bound.unchanged(),
        bound.path.join("."),
    )
}

/// The rules of `tests/extensions/constraints`, in vgc's order: the struct-level constraints in field and tag
/// order (those per element of `thresholds`, `levels`, `steps`, `quotas`, `weights` and `caps` after `replicas`'), the `target:` form
/// written on `Config`, then `replicas`' own `optional` + `minimum=1` (a zero value is unset; an unchanged value
/// ratchets). (`levels`' own uniqueness check never fires: the generated sets have no duplicates.)
pub fn rules() -> Vec<String> {
    let current = Side {
        path: &["current"],
        nilable: true,
    };
    let min_value = Side {
        path: &["minValue"],
        nilable: true,
    };
    let max_value = Side {
        path: &["limits", "maxValue"],
        nilable: true,
    };
    let plain = |path| Side {
        path,
        nilable: false,
    };
    let (floor, level, ceiling, replicas, max_threshold) = (
        plain(&["floor"]),
        plain(&["level"]),
        plain(&["ceiling"]),
        plain(&["replicas"]),
        plain(&["maxThreshold"]),
    );
    let r = replicas.val("self");
    vec![
        constraint_rule(
            current,
            ">=",
            min_value,
            "greater than or equal to",
            "minimum",
        ),
        constraint_rule(current, "<=", max_value, "less than or equal to", "maximum"),
        constraint_rule(level, ">", floor, "greater than", "exclusiveMinimum"),
        constraint_rule(level, "<", ceiling, "less than", "exclusiveMaximum"),
        constraint_rule(replicas, "<=", ceiling, "less than or equal to", "maximum"),
        each_rule(
            "thresholds",
            Elements::Atomic,
            "<=",
            max_threshold,
            "less than or equal to",
            "maximum",
        ),
        each_rule(
            "levels",
            Elements::Set,
            ">",
            min_value,
            "greater than",
            "exclusiveMinimum",
        ),
        each_rule(
            "steps",
            Elements::Atomic,
            "<",
            max_value,
            "less than",
            "exclusiveMaximum",
        ),
        each_rule(
            "quotas",
            Elements::Map,
            ">=",
            floor,
            "greater than or equal to",
            "minimum",
        ),
        each_rule(
            "weights",
            Elements::Atomic,
            ">=",
            level,
            "greater than or equal to",
            "minimum",
        ),
        each_rule(
            "caps",
            Elements::Map,
            "<=",
            replicas,
            "less than or equal to",
            "maximum",
        ),
        // The `target:` form on `Config` itself: after the constraints written on fields.
        constraint_rule(
            max_value,
            ">=",
            floor,
            "greater than or equal to",
            "minimum",
        ),
        format!(
            "({r} == 0 || {r} >= 1 || (hasOld && {})) ? '' : 'spec.replicas | Invalid value: ' + string({r}) + ': must be greater than or equal to 1 | origin=minimum | sc=false | -'",
            replicas.unchanged()
        ),
    ]
}

/// A random integer of a Go type's range, mostly near the other fields' values so that bounds are hit.
fn int(r: &mut Rng, lo: i128, hi: i128) -> Value {
    let v = match r.below(20) {
        0 => lo,
        1 => hi,
        2 => i128::from(i64::MAX).min(hi),
        _ => i128::try_from(r.below(14)).unwrap_or(0) - 2,
    };
    let v = v.clamp(lo, hi);
    match i64::try_from(v) {
        Ok(i) => json!(i),
        Err(_) => json!(u64::try_from(v).unwrap_or(u64::MAX)),
    }
}

/// One field of a random `Config`: absent (nil or zero) or a value.
fn field(r: &mut Rng, name: &str) -> Option<Value> {
    if r.chance(20) {
        return None;
    }
    Some(match name {
        "minValue" | "current" => int(r, i128::from(i32::MIN), i128::from(i32::MAX)),
        "limits" => {
            let mut m = Map::new();
            if r.chance(75) {
                m.insert(
                    "maxValue".into(),
                    int(r, i128::from(i64::MIN), i128::from(i64::MAX)),
                );
            }
            Value::Object(m)
        }
        "floor" => int(r, 0, i128::from(u8::MAX)),
        "level" => int(r, i128::from(i16::MIN), i128::from(i16::MAX)),
        "ceiling" => int(r, 0, i128::from(u64::MAX)),
        "thresholds" => Value::Array(
            (0..r.below(5))
                .map(|_| int(r, i128::from(i64::MIN), i128::from(i64::MAX)))
                .collect(),
        ),
        // A set: no duplicates (vgc's own uniqueness check is not part of the oracle).
        "levels" => {
            let mut items: Vec<Value> = Vec::new();
            for _ in 0..r.below(5) {
                let v = int(r, i128::from(i16::MIN), i128::from(i16::MAX));
                if !items.contains(&v) {
                    items.push(v);
                }
            }
            Value::Array(items)
        }
        "steps" => Value::Array(
            (0..r.below(5))
                .map(|_| {
                    if r.chance(20) {
                        Value::Null
                    } else {
                        int(r, i128::from(i32::MIN), i128::from(i32::MAX))
                    }
                })
                .collect(),
        ),
        "quotas" | "caps" => {
            let mut m = Map::new();
            for _ in 0..r.below(5) {
                let k = ["a", "b", "c", "d", "e"][r.below(5)];
                let v = if name == "quotas" {
                    int(r, i128::from(i64::MIN), i128::from(i64::MAX))
                } else if r.chance(20) {
                    Value::Null
                } else {
                    int(r, i128::from(i32::MIN), i128::from(i32::MAX))
                };
                m.insert(k.into(), v);
            }
            Value::Object(m)
        }
        "weights" => Value::Array(
            (0..r.below(5))
                .map(|_| int(r, 0, i128::from(u16::MAX)))
                .collect(),
        ),
        _ => int(r, i128::from(i64::MIN), i128::from(i64::MAX)),
    })
}

/// The list or map `v` with one element changed, added or removed (so that its other elements keep their old
/// values), or `None` when it is not a list or map.
fn tweak(r: &mut Rng, name: &str, v: &Value) -> Option<Value> {
    let fresh = field(r, name)?;
    match (v, fresh) {
        (Value::Array(items), Value::Array(more)) => {
            let mut items = items.clone();
            match (r.below(3), more.first()) {
                (0, Some(x)) if !items.is_empty() => {
                    let i = r.below(items.len());
                    items[i] = x.clone();
                }
                (1, Some(x)) => items.push(x.clone()),
                _ => {
                    items.pop();
                }
            }
            if name == "levels" {
                let mut unique: Vec<Value> = Vec::new();
                for x in items {
                    if !unique.contains(&x) {
                        unique.push(x);
                    }
                }
                items = unique;
            }
            Some(Value::Array(items))
        }
        (Value::Object(m), Value::Object(more)) => {
            let mut m = m.clone();
            match more.into_iter().next() {
                Some((k, x)) if r.chance(70) => {
                    m.insert(k, x);
                }
                _ => {
                    let first = m.keys().next().cloned();
                    if let Some(k) = first {
                        m.remove(&k);
                    }
                }
            }
            Some(Value::Object(m))
        }
        _ => None,
    }
}

const FIELDS: &[&str] = &[
    "minValue",
    "limits",
    "current",
    "floor",
    "level",
    "ceiling",
    "replicas",
    "maxThreshold",
    "thresholds",
    "levels",
    "steps",
    "quotas",
    "weights",
    "caps",
];

/// A random `spec` object of the extensions package: every constrained field set, unset or at a boundary.
pub fn spec(r: &mut Rng) -> Value {
    let mut m = Map::new();
    for f in FIELDS {
        if let Some(v) = field(r, f) {
            m.insert((*f).to_string(), v);
        }
    }
    Value::Object(m)
}

/// An old spec: `new` with each field re-rolled (or dropped) with probability 25%.
pub fn mutate(r: &mut Rng, new: &Value) -> Value {
    let mut m = new.as_object().cloned().unwrap_or_default();
    for f in FIELDS {
        if r.chance(25) {
            // A list or map half the time changed in one element only, so that the others ratchet.
            if r.chance(50)
                && let Some(v) = m.get(*f).cloned()
                && let Some(t) = tweak(r, f, &v)
            {
                m.insert((*f).to_string(), t);
                continue;
            }
            match field(r, f) {
                Some(v) => m.insert((*f).to_string(), v),
                None => m.remove(*f),
            };
        }
    }
    Value::Object(m)
}

/// One oracle run's setup: the CEL driver built in `target/e2e/<dir>`, vgc's plan of `tests/extensions`, and the
/// number of cases and seed (`VGC_CEL_ORACLE_CASES`, default 50,000; `VGC_CEL_ORACLE_SEED`, default 1).
pub struct Oracle {
    work: PathBuf,
    bin: PathBuf,
    plan: vgc::BuildOutcome,
    /// How many random cases a run compares.
    pub cases: usize,
    seed: u64,
}

impl Oracle {
    /// The oracle over `tests/extensions`, working in `dir` (below `target/e2e`).
    pub fn new(dir: &str) -> Self {
        Self::of_module(dir, "tests/extensions")
    }

    /// [`Oracle::new`] with vgc's plan of the module at `module` (relative to the workspace root).
    pub fn of_module(dir: &str, module: &str) -> Self {
        let root = crate::example::workspace_root().to_path_buf();
        let work = root.join("target/e2e").join(dir);
        std::fs::create_dir_all(&work).expect("mkdir");
        // One driver for every test of this file (they run in parallel; the first builds it).
        static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
        let bin = BIN
            .get_or_init(|| build_oracle(&root, &root.join("target/e2e/cel-oracle-driver")))
            .clone();
        let plan = vgc::build(&BuildRequest::check(
            root.join(module).to_string_lossy().into_owned(),
            Vec::new(),
        ));
        assert_eq!(vgc::exit_code(&plan), 0, "{:?}", plan.diagnostics);
        Oracle {
            work,
            bin,
            plan,
            cases: env_or("VGC_CEL_ORACLE_CASES", 50_000_usize),
            seed: env_or("VGC_CEL_ORACLE_SEED", 1_u64),
        }
    }
}

/// How one oracle test draws its random cases.
pub struct Draws<'a> {
    /// The root type vgc validates (`<package path>.<Type>`).
    pub kind: &'a str,
    /// A new value (what CEL's `self` is).
    pub new: &'a mut dyn FnMut(&mut Rng) -> Value,
    /// An old value for `new`.
    pub old: &'a mut dyn FnMut(&mut Rng, &Value) -> Value,
    /// The object vgc validates for a value of `self` (the value itself, or the root above it).
    pub object: &'a dyn Fn(&Value) -> Value,
    /// The request's subresource (without its `/`; `""` for the resource itself), drawn after the new value.
    pub subresource: &'a mut dyn FnMut(&mut Rng) -> &'static str,
}

impl Oracle {
    /// Draws the cases (an old value for half of them, the same as the new one for a tenth of those), evaluates
    /// `rules` on them with cel-go and compares with vgc's interpreter ([`compare`]); returns the agreeing cases
    /// with errors.
    pub fn run(&self, rules: Vec<String>, d: Draws<'_>) -> Vec<(Value, Vec<Value>)> {
        let interp = vgc_validate::Interpreter::new(&self.plan.plan);
        let (n, seed) = (self.cases, self.seed);
        let dir = self
            .work
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        let mut r = Rng::new(seed);
        let (mut cases, mut cel_cases) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n {
            let name = format!("{dir}-{seed}-{i}");
            let new = (d.new)(&mut r);
            let sub = (d.subresource)(&mut r);
            let subs: Vec<&str> = if sub.is_empty() { vec![] } else { vec![sub] };
            let mut case = json!({"name": name, "kind": d.kind, "object": (d.object)(&new), "subresources": subs});
            let mut cel = json!({"name": name, "self": new, "oldSelf": null, "subresource": format!("/{sub}")});
            if r.chance(50) {
                let old = if r.chance(10) {
                    new.clone()
                } else {
                    (d.old)(&mut r, &new)
                };
                case["old"] = (d.object)(&old);
                cel["oldSelf"] = old;
            }
            cases.push(case);
            cel_cases.push(cel);
        }
        let oracle = differential::run(
            &mut Command::new(&self.bin),
            &serde_json::to_string(&json!({"rules": rules, "cases": cel_cases})).expect("input"),
        );
        assert_eq!(oracle.len(), n);
        compare(&self.work, &interp, &cases, &oracle)
    }
}

/// Builds the CEL driver `tests/cel-oracle/main.go` in `work` (emptied first) against [`CEL_GO`]; returns the binary.
fn build_oracle(root: &Path, work: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work).expect("mkdir");
    std::fs::copy(root.join("tests/cel-oracle/main.go"), work.join("main.go")).expect("main.go");
    std::fs::write(
        work.join("go.mod"),
        format!("module vgc.test/celoracle\n\ngo 1.24\n\nrequire {CEL_GO}\n"),
    )
    .expect("go.mod");
    go(work, &["mod", "tidy"]);
    go(work, &["build", "-o", "cel-oracle", "."]);
    work.join("cel-oracle")
}

/// Compares vgc's interpreter on `cases` with the oracle's lines, case by case and in order; writes the
/// disagreements to `work/disagreements.txt` and fails on any, or when fewer than 10% of the cases (2% of them
/// updates) have errors (the random objects would not reach the rules). Returns each agreeing case with errors and
/// its lines, for further counts.
fn compare(
    work: &Path,
    interp: &vgc_validate::Interpreter<'_>,
    cases: &[Value],
    oracle: &[Value],
) -> Vec<(Value, Vec<Value>)> {
    let n = cases.len();
    let (mut disagreements, mut with_errors) = (Vec::new(), Vec::new());
    for (c, o) in cases.iter().zip(oracle) {
        let ours = crate::interpreter::run_case(interp, c, false);
        assert!(ours.get("got").is_some(), "{ours}");
        if ours["got"] != o["got"] {
            disagreements.push(format!(
                "{}: {c}\n  vgc: {}\n  cel: {}",
                c["name"], ours["got"], o["got"]
            ));
        } else if let Some(lines) = ours["got"].as_array().filter(|l| !l.is_empty()) {
            with_errors.push((c.clone(), lines.clone()));
        }
    }
    let updates_with_errors = with_errors
        .iter()
        .filter(|(c, _)| c.get("old").is_some())
        .count();
    let report = work.join("disagreements.txt");
    std::fs::write(&report, disagreements.join("\n")).expect("report");
    eprintln!(
        "{}: {n} cases, {} disagreements, {} with errors ({updates_with_errors} updates)",
        work.file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
        disagreements.len(),
        with_errors.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements between vgc and cel-go (all in {}), first ones:\n{}",
        disagreements.len(),
        report.display(),
        disagreements
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        with_errors.len() > n / 10,
        "{} of {n} cases have errors",
        with_errors.len()
    );
    assert!(
        updates_with_errors > n / 50,
        "{updates_with_errors} updates with errors"
    );
    with_errors
}

/// A CEL string literal of `s` (single-quoted; `\` and `'` escaped).
fn lit(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// CEL: the optional field `f` of `self.<part>` is the same in the old object (both unset, or both set and equal):
/// upstream skips an unchanged field on update (ratcheting).
fn same(part: &str, f: &str) -> String {
    format!(
        "(hasOld && has(self.{part}.{f}) == has(oldSelf.{part}.{f}) && (!has(self.{part}.{f}) || self.{part}.{f} == oldSelf.{part}.{f}))"
    )
}

/// The rules of `tests/extensions/subresources` (`self` is the `Widget`; `subresource` the request's
/// `SubresourcePath()`), in vgc's order: `spec` fields, then `status.phase`. `spec.limit` (under an option) is left
/// out: the random objects never set it.
pub fn subresource_rules() -> Vec<String> {
    let short_name = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    let is_short =
        |v: &str| format!("(size({v}) <= 63 && {v}.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))");
    let format_error = |path: &str, v: &str| {
        format!(
            "{} + {v} + {}",
            lit(&format!("{path} | Invalid value: \"")),
            lit(&format!(
                "\": {short_name} | origin=format=k8s-short-name | sc=false | -"
            ))
        )
    };
    let each = |list: &str, bad: &str, line: &str| {
        format!("[0, 1, 2, 3, 4].filter(i, i < size({list}) && {bad}).map(i, {line})")
    };
    vec![
        // `+k8s:ifNotSubresource("/resize")=+k8s:immutable`: any change, unsetting included (the condition sorts
        // before `optional`, as `immutable` does: short-circuiting checks run in tag-name order).
        format!(
            "(!hasOld || {} || subresource == '/resize') ? '' : 'spec.size | Invalid value: null: field is immutable | origin=immutable | sc=true | -'",
            same("spec", "size")
        ),
        // `+k8s:ifSubresource("/")=+k8s:format=k8s-short-name`.
        format!(
            "(!has(self.spec.name) || {} || subresource != '/' || {}) ? '' : {}",
            same("spec", "name"),
            is_short("self.spec.name"),
            format_error("spec.name", "self.spec.name")
        ),
        // `+k8s:ifNotSubresource("/status")=+k8s:maxItems=2` (short-circuit), then
        // `+k8s:beta=+k8s:ifSubresource("/resize")=+k8s:eachVal=+k8s:maxLength=3` per element.
        format!(
            "(!has(self.spec.tags) || {}) ? [] : (subresource != '/status' && size(self.spec.tags) > 2) ? ['spec.tags | Too many: ' + string(size(self.spec.tags)) + ': must have at most 2 items | origin=maxItems | sc=true | -'] : subresource != '/resize' ? [] : {}",
            same("spec", "tags"),
            each(
                "self.spec.tags",
                "size(self.spec.tags[i]) > 3",
                "'spec.tags[' + string(i) + '] | Too long: may not be more than 3 characters | origin=maxLength | sc=false | beta'"
            )
        ),
        // `+k8s:eachVal=+k8s:ifSubresource("/resize")=+k8s:minimum=1` (an atomic list: elements are not matched to
        // old ones; the unchanged list ratchets).
        format!(
            "(!has(self.spec.steps) || {} || subresource != '/resize') ? [] : {}",
            same("spec", "steps"),
            each(
                "self.spec.steps",
                "self.spec.steps[i] < 1",
                "'spec.steps[' + string(i) + '] | Invalid value: ' + string(self.spec.steps[i]) + ': must be greater than or equal to 1 | origin=minimum | sc=false | -'"
            )
        ),
        // `+k8s:ifNotSubresource("/status")=+k8s:update=NoModify`, then
        // `+k8s:ifSubresource("/status")=+k8s:format=k8s-short-name`.
        format!(
            "(!has(self.status.phase) || {} || subresource == '/status' || !hasOld || !has(oldSelf.status.phase)) ? '' : 'status.phase | Invalid value: null: field cannot be modified once set | origin=update | sc=true | -'",
            same("status", "phase")
        ),
        format!(
            "(!has(self.status.phase) || {} || subresource != '/status' || {}) ? '' : {}",
            same("status", "phase"),
            is_short("self.status.phase"),
            format_error("status.phase", "self.status.phase")
        ),
    ]
}

/// A random `Widget`: each field unset or from a small pool that hits the rules (names and phases that are and
/// are not short names, lists of 1–4 elements around the limits). `spec.limit` is never set.
pub fn widget(r: &mut Rng) -> Value {
    let pick = |r: &mut Rng, pool: &[Value]| pool[r.below(pool.len())].clone();
    let list = |r: &mut Rng, pool: &[Value]| {
        let n = 1 + r.below(4);
        Value::Array((0..n).map(|_| pick(r, pool)).collect())
    };
    let names = [
        json!("abc"),
        json!("a-b"),
        json!("Not_Short"),
        json!("-x"),
        json!(""),
    ];
    let mut spec = Map::new();
    if r.chance(70) {
        spec.insert("size".into(), pick(r, &[json!(0), json!(1), json!(2)]));
    }
    if r.chance(70) {
        spec.insert("name".into(), pick(r, &names));
    }
    if r.chance(70) {
        spec.insert(
            "tags".into(),
            list(r, &[json!("a"), json!("bb"), json!("long")]),
        );
    }
    if r.chance(70) {
        spec.insert(
            "steps".into(),
            list(r, &[json!(-1), json!(0), json!(1), json!(2)]),
        );
    }
    let mut status = Map::new();
    if r.chance(70) {
        status.insert(
            "phase".into(),
            pick(r, &[json!("ok"), json!("done"), json!("Bad_Phase")]),
        );
    }
    json!({"spec": spec, "status": status})
}

/// An old `Widget`: `new` with each field re-rolled (set or unset) with probability 30%.
pub fn old_widget(r: &mut Rng, new: &Value) -> Value {
    let other = widget(r);
    let mut old = new.clone();
    for (part, f) in [
        ("spec", "size"),
        ("spec", "name"),
        ("spec", "tags"),
        ("spec", "steps"),
        ("status", "phase"),
    ] {
        if r.chance(30) {
            match other[part].get(f) {
                Some(v) => old[part][f] = v.clone(),
                None => {
                    if let Some(m) = old[part].as_object_mut() {
                        m.remove(f);
                    }
                }
            }
        }
    }
    old
}

/// CEL: the value at `path` below `root` is present and not null (a pointer or list that is set; `has()` on every
/// step, as JSON may leave any of them out).
fn present(root: &str, path: &[&str]) -> String {
    (1..=path.len())
        .map(|n| {
            let p = format!("{root}.{}", path[..n].join("."));
            let (parent, last) = (&p[..p.len() - path[n - 1].len() - 1], path[n - 1]);
            format!("has({parent}.{last}) && {p} != null")
        })
        .collect::<Vec<_>>()
        .join(" && ")
}

/// One member of a virtual group as the oracle states it: its name in messages and its "set" test under a root.
struct GroupMember {
    name: &'static str,
    set: Box<dyn Fn(&str) -> String>,
}

/// A member field that is set when present and not null (pointers).
fn pointer_member(name: &'static str, path: &'static [&'static str]) -> GroupMember {
    GroupMember {
        name,
        set: Box::new(move |r| format!("({})", present(r, path))),
    }
}

/// A list-map item member: some non-null item of the list at `list` has `key == value`.
fn item_member(
    name: &'static str,
    list: &'static [&'static str],
    key: &'static str,
    value: &'static str,
) -> GroupMember {
    GroupMember {
        name,
        set: Box::new(move |r| {
            format!(
                "({} && {r}.{}.exists(x, x != null && has(x.{key}) && x.{key} == {}))",
                present(r, list),
                list.join("."),
                lit(value)
            )
        }),
    }
}

/// The CEL rule of one virtual group checked at `path` (vgc's error path; `<nil>` for the root): upstream's
/// `Union` (exactly one member set: none → "must specify one of", several → "must specify exactly one of" with the
/// set ones as the value) or `ZeroOrOneOfUnion` (several → "must specify at most one of"), written from their
/// definitions; on update no error while every member's set-ness equals the old object's.
fn group_rule(path: &str, union: bool, members: &[GroupMember]) -> String {
    let sets = |r: &str| members.iter().map(|m| (m.set)(r)).collect::<Vec<_>>();
    let (new, old) = (sets("self"), sets("oldSelf"));
    let count = format!("[{}].filter(b, b).size()", new.join(", "));
    let changed = new
        .iter()
        .zip(&old)
        .map(|(n, o)| format!("{n} != {o}"))
        .collect::<Vec<_>>()
        .join(" || ");
    let quoted = |n: &str| n.replace('"', "\\\"");
    let chosen = format!(
        "[{}].filter(x, x != '').join(', ')",
        members
            .iter()
            .zip(&new)
            .map(|(m, s)| format!("({s} ? {} : '')", lit(&quoted(m.name))))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let all = members
        .iter()
        .map(|m| format!("`{}`", m.name))
        .collect::<Vec<_>>()
        .join(", ");
    let line = |value: &str, detail: &str, origin: &str| {
        format!(
            "{} + {value} + {}",
            lit(&format!("{path} | Invalid value: \"")),
            lit(&format!(
                "\": {detail} {all} | origin={origin} | sc=false | -"
            ))
        )
    };
    let ratchet = format!("(hasOld && !({changed}))");
    if union {
        format!(
            "({count} == 1 || {ratchet}) ? '' : ({count} == 0 ? {} : {})",
            line("''", "must specify one of:", "union"),
            line(
                &format!("'{{' + {chosen} + '}}'"),
                "must specify exactly one of:",
                "union"
            ),
        )
    } else {
        format!(
            "({count} <= 1 || {ratchet}) ? '' : {}",
            line(
                &format!("'{{' + {chosen} + '}}'"),
                "must specify at most one of:",
                "zeroOrOneOf"
            ),
        )
    }
}

/// The groups of `tests/extensions/virtual` (`self` is the `Job`), in vgc's order: the root's, then `spec`'s (by
/// group name), then `status`'s.
pub fn virtual_rules() -> Vec<String> {
    vec![
        group_rule(
            "<nil>",
            false,
            &[
                pointer_member("spec.owner", &["spec", "owner"]),
                pointer_member("status.assignedOwner", &["status", "assignedOwner"]),
            ],
        ),
        group_rule(
            "spec",
            false,
            &[
                pointer_member("cron", &["spec", "cron"]),
                item_member(
                    "triggers[{\"name\": \"at\"}]",
                    &["spec", "triggers"],
                    "name",
                    "at",
                ),
            ],
        ),
        group_rule(
            "spec",
            true,
            &[
                pointer_member("image", &["spec", "image"]),
                // A string by value: set when not empty.
                GroupMember {
                    name: "build.dockerfile",
                    set: Box::new(|r| {
                        format!(
                            "({} && {r}.spec.build.dockerfile != '')",
                            present(r, &["spec", "build", "dockerfile"])
                        )
                    }),
                },
                pointer_member("build.git", &["spec", "build", "git"]),
            ],
        ),
        group_rule(
            "status",
            true,
            &[
                item_member(
                    "conditions[{\"type\": \"Succeeded\"}]",
                    &["status", "conditions"],
                    "type",
                    "Succeeded",
                ),
                item_member(
                    "conditions[{\"type\": \"Failed\"}]",
                    &["status", "conditions"],
                    "type",
                    "Failed",
                ),
            ],
        ),
    ]
}

/// Distinct items of a list-map: each key of `pool` at most once, in a random order, each item `{key: k}`
/// (sometimes with another field).
fn keyed_items(r: &mut Rng, key: &str, pool: &[&str], extra: &str) -> Value {
    let mut keys: Vec<&str> = pool.to_vec();
    let mut out = Vec::new();
    for _ in 0..r.below(pool.len() + 1) {
        let k = keys.remove(r.below(keys.len()));
        let mut item = Map::new();
        item.insert(key.into(), json!(k));
        if r.chance(30) {
            item.insert(extra.into(), json!("x"));
        }
        out.push(Value::Object(item));
    }
    Value::Array(out)
}

/// A random `Job`: each member present, absent or (for pointers) null.
pub fn job(r: &mut Rng) -> Value {
    let mut spec = Map::new();
    let pointer = |r: &mut Rng, m: &mut Map<String, Value>, k: &str, pct: u64, v: Value| {
        if r.chance(pct) {
            m.insert(k.into(), if r.chance(10) { Value::Null } else { v });
        }
    };
    pointer(r, &mut spec, "image", 45, json!("img"));
    if r.chance(45) {
        let mut build = Map::new();
        if r.chance(50) {
            build.insert("dockerfile".into(), json!(["", "FROM x"][r.below(2)]));
        }
        pointer(r, &mut build, "git", 50, json!({"url": "u"}));
        spec.insert(
            "build".into(),
            if r.chance(10) {
                Value::Null
            } else {
                Value::Object(build)
            },
        );
    }
    pointer(r, &mut spec, "cron", 40, json!("* * * * *"));
    if r.chance(50) {
        spec.insert(
            "triggers".into(),
            keyed_items(r, "name", &["at", "daily", "hourly"], "value"),
        );
    }
    pointer(r, &mut spec, "owner", 30, json!("a"));
    let mut status = Map::new();
    if r.chance(80) {
        status.insert(
            "conditions".into(),
            keyed_items(r, "type", &["Succeeded", "Failed", "Running"], "status"),
        );
    }
    pointer(r, &mut status, "assignedOwner", 30, json!("b"));
    json!({"spec": spec, "status": status})
}

/// An old `Job` for `new`: the same, or with its spec or status (or both) drawn afresh.
pub fn old_job(r: &mut Rng, new: &Value) -> Value {
    let other = job(r);
    let mut old = new.clone();
    match r.below(3) {
        0 => old["spec"] = other["spec"].clone(),
        1 => old["status"] = other["status"].clone(),
        _ => old = other,
    }
    old
}

/// CEL: the quantity string `q` (of the forms [`quantity`] generates) as an integer number of millionths.
fn quantity_micros(q: &str) -> String {
    // The magnitude (`q` without its sign) in thousandths, then scaled by the suffix.
    let thousandths = |m: &str| {
        format!(
            "({m}.contains('.') ? int({m}.split('.')[0]) * 1000 + int(({m}.split('.')[1] + '00').substring(0, 3)) : int({m}) * 1000)"
        )
    };
    let mag = format!("(({q}).startsWith('-') ? ({q}).substring(1) : ({q}))");
    let mut expr = format!("{} * 1000", thousandths(&mag));
    for (suffix, per_thousandth) in [
        ("m", 1_i64),
        ("k", 1_000_000),
        ("M", 1_000_000_000),
        ("Ki", 1_024_000),
        ("Mi", 1_048_576_000),
        ("Gi", 1_073_741_824_000),
    ] {
        let n = suffix.len();
        let num = format!("{mag}.substring(0, size({mag}) - {n})");
        expr = format!(
            "({mag}.endsWith('{suffix}') ? {} * {per_thousandth} : {expr})",
            thousandths(&num)
        );
    }
    format!("((({q}).startsWith('-') ? -1 : 1) * {expr})")
}

/// One side of a quantity or duration constraint of `Sizing`: its JSON path below `self`, whether it is a pointer
/// (else a value whose absence is the zero value), and whether it is a duration.
#[derive(Clone, Copy)]
struct Measured {
    path: &'static [&'static str],
    pointer: bool,
    duration: bool,
}

impl Measured {
    fn set(self, root: &str) -> String {
        if self.pointer {
            format!("({})", present(root, self.path))
        } else {
            "true".into()
        }
    }

    fn text(self, root: &str) -> String {
        let p = format!("{root}.{}", self.path.join("."));
        if self.pointer {
            p
        } else {
            format!("(has({p}) ? {p} : '0')")
        }
    }

    /// CEL: the value, comparable (`duration` or an integer of millionths), valid when [`Measured::set`].
    fn value(self, root: &str) -> String {
        let t = self.text(root);
        if self.duration {
            format!("duration({t})")
        } else {
            quantity_micros(&t)
        }
    }

    /// CEL: unchanged on update (both unset, or both set and equal in value).
    fn unchanged(self) -> String {
        let (n, o) = (self.set("self"), self.set("oldSelf"));
        format!(
            "({n} == {o} && (!{n} || {} == {}))",
            self.value("self"),
            self.value("oldSelf")
        )
    }
}

/// The CEL rule of one quantity or duration constraint of `Sizing` (`self`), written from the definition: no check
/// while either side is unset, the comparison, the ratchet (both sides unchanged), the error line with both values
/// as written.
fn measured_rule(target: Measured, op: &str, bound: Measured, words: &str, origin: &str) -> String {
    let (t, b) = (target.value("self"), bound.value("self"));
    format!(
        "(!({} && {}) || {t} {op} {b} || (hasOld && {} && {})) ? '' : {} + {} + {} + {} + {}",
        target.set("self"),
        bound.set("self"),
        target.unchanged(),
        bound.unchanged(),
        lit(&format!("{} | Invalid value: \"", target.path.join("."))),
        target.text("self"),
        lit(&format!("\": must be {words} {} (", bound.path.join("."))),
        bound.text("self"),
        lit(&format!(") | origin={origin} | sc=false | -")),
    )
}

/// The rules of `tests/extensions-quantities` in vgc's order: `request`'s three, then `timeout`'s.
pub fn measured_rules() -> Vec<String> {
    let q = |path, pointer| Measured {
        path,
        pointer,
        duration: false,
    };
    let d = |path| Measured {
        path,
        pointer: true,
        duration: true,
    };
    let request = q(&["request"], true);
    vec![
        measured_rule(
            request,
            "<=",
            q(&["limit"], true),
            "less than or equal to",
            "maximum",
        ),
        measured_rule(
            request,
            ">",
            q(&["floor", "value"], true),
            "greater than",
            "exclusiveMinimum",
        ),
        measured_rule(
            request,
            ">=",
            q(&["base"], false),
            "greater than or equal to",
            "minimum",
        ),
        measured_rule(
            d(&["timeout"]),
            ">=",
            d(&["minTimeout"]),
            "greater than or equal to",
            "minimum",
        ),
        // Per element: each request (an atomic list: an item is unchanged only when the whole list is) at most the
        // limit; each step (a map: a value is unchanged when its key's old value is equal) at least the minimum.
        {
            let limit = q(&["limit"], true);
            let n = "self.requests";
            let same_list = format!(
                "(hasOld && has(oldSelf.requests) && size(oldSelf.requests) == size({n}) && lists.range(size({n})).all(j, {} == {}))",
                quantity_micros(&format!("{n}[j]")),
                quantity_micros("oldSelf.requests[j]")
            );
            format!(
                "!(has({n}) && {}) ? [] : lists.range(size({n})).filter(i, !({} <= {}) && !({} && {same_list})).map(i, 'requests[' + string(i) + '] | Invalid value: \"' + {n}[i] + '\": must be less than or equal to limit (' + self.limit + ') | origin=maximum | sc=false | -')",
                limit.set("self"),
                quantity_micros(&format!("{n}[i]")),
                limit.value("self"),
                limit.unchanged(),
            )
        },
        {
            let min = d(&["minTimeout"]);
            let n = "self.steps";
            format!(
                "!(has({n}) && {}) ? [] : {n}.map(k, k).sort().filter(k, !(duration({n}[k]) >= {}) && !({} && hasOld && has(oldSelf.steps) && k in oldSelf.steps && duration(oldSelf.steps[k]) == duration({n}[k]))).map(k, 'steps[' + k + '] | Invalid value: \"' + {n}[k] + '\": must be greater than or equal to minTimeout (' + self.minTimeout + ') | origin=minimum | sc=false | -')",
                min.set("self"),
                min.value("self"),
                min.unchanged(),
            )
        },
    ]
}

/// A quantity string: an optional sign, up to four digits, up to three decimals, one of the suffixes.
fn quantity(r: &mut Rng) -> Value {
    let sign = if r.chance(10) { "-" } else { "" };
    let int = r.below(3000);
    let frac = match r.below(4) {
        0 => String::new(),
        n => format!(
            ".{}",
            (0..n)
                .map(|_| char::from(b'0' + r.below(10) as u8))
                .collect::<String>()
        ),
    };
    let suffix = ["", "", "m", "k", "M", "Ki", "Mi", "Gi"][r.below(8)];
    json!(format!("{sign}{int}{frac}{suffix}"))
}

/// A duration string: one or two units of hours, minutes, seconds, milliseconds.
fn duration(r: &mut Rng) -> Value {
    let unit = |r: &mut Rng| ["h", "m", "s", "ms"][r.below(4)];
    let mut s = format!("{}{}", r.below(120), unit(r));
    if r.chance(30) {
        s = format!("{}h{}m", r.below(3), r.below(60));
    }
    json!(s)
}

/// A random `Sizing`: each field present (or, for pointers, null) or absent.
pub fn sizing(r: &mut Rng) -> Value {
    let mut m = Map::new();
    for (k, pct) in [("limit", 70), ("request", 80), ("base", 50)] {
        if r.chance(pct) {
            m.insert(k.into(), quantity(r));
        }
    }
    // Close values: a request and a bound that are the same quantity in another spelling, or a milli-unit apart.
    if r.chance(40) {
        // Multiples of 1024 half the time, so that binary suffixes meet their decimal spellings.
        let n = if r.chance(50) {
            1024 * (1 + r.below(2)) as i64
        } else {
            r.below(3000) as i64
        };
        let spell = |r: &mut Rng, m: i64| -> Value {
            let forms = [
                format!("{m}m"),
                if m % 1000 == 0 {
                    format!("{}", m / 1000)
                } else {
                    format!("{m}m")
                },
                if m % 1000 == 0 {
                    format!("{}.000", m / 1000)
                } else {
                    format!("{}.{:03}", m / 1000, m % 1000)
                },
                if m % 1_024_000 == 0 {
                    format!("{}Ki", m / 1_024_000)
                } else {
                    format!("{m}m")
                },
            ];
            json!(forms[r.below(forms.len())].clone())
        };
        let milli = n * 1000;
        m.insert("request".into(), spell(r, milli));
        let bound = milli + [-1, 0, 0, 1][r.below(4)];
        let k = ["limit", "base"][r.below(2)];
        m.insert(k.into(), spell(r, bound.max(0)));
    }
    if r.chance(60) {
        let mut f = Map::new();
        if r.chance(80) {
            f.insert("value".into(), quantity(r));
        }
        m.insert("floor".into(), Value::Object(f));
    }
    for (k, pct) in [("minTimeout", 70), ("timeout", 80)] {
        if r.chance(pct) {
            m.insert(k.into(), duration(r));
        }
    }
    if r.chance(50) {
        let items: Vec<Value> = (0..r.below(4)).map(|_| quantity(r)).collect();
        m.insert("requests".into(), Value::Array(items));
    }
    if r.chance(50) {
        let mut steps = Map::new();
        for k in ["a", "b", "c"] {
            if r.chance(50) {
                steps.insert(k.into(), duration(r));
            }
        }
        m.insert("steps".into(), Value::Object(steps));
    }
    if r.chance(5) {
        m.insert("limit".into(), Value::Null);
    }
    Value::Object(m)
}

/// An old `Sizing` for `new`: one field drawn afresh (or left out), the rest the same.
pub fn old_sizing(r: &mut Rng, new: &Value) -> Value {
    let mut old = new.clone();
    let other = sizing(r);
    let k = [
        "limit",
        "request",
        "base",
        "floor",
        "minTimeout",
        "timeout",
        "requests",
        "steps",
    ][r.below(8)];
    match other.get(k) {
        Some(v) => old[k] = v.clone(),
        None => {
            old.as_object_mut().expect("object").remove(k);
        }
    }
    old
}
