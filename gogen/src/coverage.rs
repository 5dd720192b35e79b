//! The declarative-validation coverage test fixtures validation-gen writes with `--test-output-root` (1.37 on):
//! for every API kind of a registering package, the field rules its validation declares — each error type and
//! origin at the field path the runtime reports it at — registered with `k8s.io/apimachinery/pkg/test/coverage`,
//! and a `TestMain` asserting that the hand-written tests beside them cover every one.
//!
//! upstream: code-generator v0.37.2 `cmd/validation-gen/test_targets.go` (v0.38.0-beta.0
//! `generators/test_targets.go`): `collectRules`/`recordRules` walk the type graph of a root type and record the
//! `Emits` each validator declares (`validators/*.go` `WithEmits`), through the path fragments of the wrappers
//! (`eachVal` `[*]`, `subfield` `.<json>`, mode rules `.<json>`); `testTargets` lays the files out as
//! `<root>/<short group>/<lowercase kind>/<prefix><version>_test.go` plus `<prefix>main_test.go`;
//! `filterReports` applies the `--test-allowlist`.
//!
//! Input: the plan the Go backend prints from (the same [`CratePlan`]; nothing is lowered again). The rules a check
//! declares are a property of its kind, listed here per kind as upstream's validators declare them
//! ([`Walk::check`]).

use crate::{Generator, OutputPackage};
use std::collections::{BTreeMap, BTreeSet};
use vgc_ir::Upstream;
use vgc_lowering::plan::{
    Check, CheckKind, FieldPlan, Iteration, ModulePlan, Shape, TypePlan, UnionKind,
};
use vgc_runtime::field::go_quote;
use vgc_runtime::formats::Format;
use vgc_runtime::validate::UpdateConstraint;

const SCHEMA: &str = "k8s.io/apimachinery/pkg/runtime/schema";
const COVERAGE: &str = "k8s.io/apimachinery/pkg/test/coverage";

/// One declared field-validation error (upstream `rule`): `field.ErrorType` as its string
/// (`FieldValueRequired`) and the origin (`""` for none).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rule {
    /// The error type's string value (`k8s.io/apimachinery/pkg/util/validation/field` `ErrorType`).
    pub error_type: &'static str,
    /// The error's origin (`minimum`, `format=k8s-short-name`), `""` for none.
    pub origin: String,
}

/// One kind's declared rules in one API version (upstream `report`): field path (`spec.replicas`,
/// `spec.items[*].name`; `""` for the object itself) → its rules, in the order they were recorded (repeats kept,
/// as upstream keeps them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The API group: the input package's `GroupName` constant, else its import path (upstream `collectReports`).
    pub group: String,
    /// The API version: the input package's name when it looks like one (`v1`, `v2beta3`), else `""` (then no
    /// fixture is written for the kind).
    pub version: String,
    /// The kind: the root type's name.
    pub kind: String,
    /// Field path → rules.
    pub rules: BTreeMap<String, Vec<Rule>>,
}

/// One `--test-allowlist` entry (upstream `allowlistEntry`): a rule matching every field is left out of the
/// fixtures. Every field is required (checked where the file is read); `*` is a wildcard for `kind`, `path`,
/// `error_type` and `origin` (1.38 also for the group or the version of `api_version`, and `*.suffix` globs a path).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AllowlistEntry {
    /// `<group>/<version>`, or `<version>` for the core group.
    pub api_version: String,
    /// The kind, or `*`.
    pub kind: String,
    /// The field path, or `*`.
    pub path: String,
    /// The error type (`FieldValueInvalid`), or `*`.
    pub error_type: String,
    /// The origin, or `*`.
    pub origin: String,
}

impl AllowlistEntry {
    /// upstream `allowlistEntry.matches` of the profile's release.
    fn matches(&self, upstream: Upstream, r: &Report, path: &str, rule: &Rule) -> bool {
        let (g, v) = self
            .api_version
            .split_once('/')
            .unwrap_or(("", self.api_version.as_str()));
        let globs = upstream >= Upstream::V1_38;
        // v0.38: `*` for the group or the version, and a `*.suffix` glob for the path (kind, error type and
        // origin match `*` or literally in both releases, whatever v0.38's comment says).
        let field = |pat: &str, val: &str| pat == "*" || pat == val;
        let path_ok = self.path == "*"
            || self.path == path
            || (globs && self.path.starts_with("*.") && path.ends_with(&self.path[1..]));
        (g == r.group || (globs && g == "*"))
            && (v == r.version || (globs && v == "*"))
            && field(&self.kind, &r.kind)
            && path_ok
            && field(&self.error_type, rule.error_type)
            && field(&self.origin, &rule.origin)
    }
}

/// What the fixtures are written with (validation-gen's `--test-output-root`, `--test-output-file-prefix` and
/// `--test-allowlist`, the header of `--go-header-file`).
#[derive(Debug, Clone, Default)]
pub struct FixtureOptions {
    /// The directory the fixtures go under (`test/declarative_validation`), relative to where paths are resolved
    /// by the caller; used verbatim as the first part of every returned path.
    pub root: String,
    /// Prepended to every file name (`zz_generated.validations.`).
    pub file_prefix: String,
    /// The allowlist's entries.
    pub allowlist: Vec<AllowlistEntry>,
    /// The boilerplate header (as [`crate::GoOptions::header`]).
    pub header: String,
}

/// One fixture file: its path (`<root>/<group>/<kind>/<name>`) and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// `/`-separated, starting with [`FixtureOptions::root`].
    pub path: String,
    /// The file's text, in gofmt's layout.
    pub contents: String,
}

/// Whether the profile's validation-gen has `--test-output-root` (code-generator v0.37.0 on).
#[must_use]
pub fn has_fixtures(upstream: Upstream) -> bool {
    upstream >= Upstream::V1_37
}

/// upstream `apiVersionRe`: `v1`, `v1alpha1`, `v2beta3`.
#[must_use]
pub fn is_api_version(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('v') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let rest = &rest[digits..];
    if rest.is_empty() {
        return true;
    }
    let Some(n) = rest
        .strip_prefix("alpha")
        .or_else(|| rest.strip_prefix("beta"))
    else {
        return false;
    };
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
}

impl Generator<'_> {
    /// The reports of the roots `output` registers from input module `m` (upstream `collectReports`): one per
    /// root type (by name) that declares at least one rule, with `group` and `version` (see [`Report`]).
    #[must_use]
    pub fn coverage_reports(
        &self,
        m: &ModulePlan,
        output: &OutputPackage,
        group: &str,
        version: &str,
    ) -> Vec<Report> {
        let mut roots: Vec<&TypePlan> = m
            .types
            .iter()
            .map(|t| &**t)
            .filter(|t| t.key.pkg == m.pkg && output.is_root(t))
            .collect();
        roots.sort_by(|a, b| a.key.name.cmp(&b.key.name));
        roots
            .into_iter()
            .filter_map(|t| {
                let mut w = Walk {
                    g: self,
                    upstream: self.plan.upstream,
                    rules: BTreeMap::new(),
                    seen: BTreeSet::new(),
                };
                w.ty(t, "");
                (!w.rules.is_empty()).then(|| Report {
                    group: group.to_string(),
                    version: version.to_string(),
                    kind: t.key.name.clone(),
                    rules: w.rules,
                })
            })
            .collect()
    }
}

/// The fixture files of `reports` (every registering package's, in input order; upstream `testTargets`): per
/// (group, kind), with the allowlisted rules removed, one `<prefix><version>_test.go` per report left and one
/// `<prefix>main_test.go` listing the versions, under `<root>/<first DNS label of the group, "core" for
/// "">/<lowercase kind>/`. Kinds of a package whose name is no API version, and kinds left without rules, get
/// none. Sorted by path.
#[must_use]
pub fn fixtures(reports: &[Report], o: &FixtureOptions, upstream: Upstream) -> Vec<Fixture> {
    let mut by_gk: BTreeMap<(&str, &str), Vec<&Report>> = BTreeMap::new();
    for r in reports {
        by_gk
            .entry((r.group.as_str(), r.kind.as_str()))
            .or_default()
            .push(r);
    }
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for ((group, kind), reports) in by_gk {
        if reports[0].version.is_empty() {
            continue;
        }
        let kept: Vec<Report> = reports
            .iter()
            .filter_map(|r| filter_report(r, &o.allowlist, upstream))
            .collect();
        if kept.is_empty() {
            continue;
        }
        let lower = kind.to_lowercase();
        let dir = fixture_dir(&o.root, group, kind);
        let mut versions = Vec::new();
        for r in &kept {
            out.insert(
                format!("{dir}/{}{}_test.go", o.file_prefix, r.version),
                version_file(&dir, &lower, r, &o.header),
            );
            versions.push(r.version.clone());
        }
        out.insert(
            format!("{dir}/{}main_test.go", o.file_prefix),
            main_file(&dir, &lower, versions, &o.header),
        );
    }
    out.into_iter()
        .map(|(path, contents)| Fixture { path, contents })
        .collect()
}

/// The directory of the fixtures of `kind` of API group `group` under `root` ([`FixtureOptions::root`]):
/// `<root>/<first DNS label of the group, "core" for "">/<lowercase kind>` (upstream `test_targets.go`).
#[must_use]
pub fn fixture_dir(root: &str, group: &str, kind: &str) -> String {
    let lower = kind.to_lowercase();
    let short = if group.is_empty() {
        "core"
    } else {
        group.split('.').next().unwrap_or(group)
    };
    match root.trim_end_matches('/') {
        "" => format!("{short}/{lower}"),
        base => format!("{base}/{short}/{lower}"),
    }
}

/// The name of the package-level coverage test of `+k8s:validation-gen-test-targets` beside `output_file`
/// (`zz_generated.validations.go` → `zz_generated.validations_coverage_test.go`; upstream `targets.go`).
#[must_use]
pub fn package_test_name(output_file: &str) -> String {
    format!(
        "{}_coverage_test.go",
        output_file.strip_suffix(".go").unwrap_or(output_file)
    )
}

/// The `<output>_coverage_test.go` upstream writes into a package whose `doc.go` says
/// `+k8s:validation-gen-test-targets` (code-generator's own `output_tests`): `reports` (group: the package's
/// import path, version: its name) registered in order, then the `TestMain` — no allowlist, no `apiVersions`.
/// `None` when no report has rules (upstream writes no file then).
#[must_use]
pub fn package_test(
    reports: &[Report],
    pkg_path: &str,
    pkg_name: &str,
    header: &str,
) -> Option<String> {
    if reports.is_empty() {
        return None;
    }
    let mut imports = crate::imports::Imports::new(pkg_path);
    let mut body = String::new();
    for r in reports {
        body.push_str(&register(&mut imports, r));
        body.push('\n');
    }
    body.push_str(&test_main(&mut imports));
    let mut out = head(header, pkg_name, &imports);
    out.push_str(&body);
    Some(crate::text::gofmt_blank_lines(&out))
}

/// The name of the fixture test of `+k8s:validation-gen-test-fixture` beside `output_file`
/// (`zz_generated.validations.go` → `zz_generated.validations_test.go`; upstream `targets.go`).
#[must_use]
pub fn fixture_test_name(output_file: &str) -> String {
    format!(
        "{}_test.go",
        output_file.strip_suffix(".go").unwrap_or(output_file)
    )
}

/// The `<output>_test.go` upstream writes into a package whose `doc.go` says
/// `+k8s:validation-gen-test-fixture=validateFalse` (code-generator's own `output_tests`; upstream
/// `validation.go` `fixtureTestGen`): a `TestValidation` running the package's fixtures.
#[must_use]
pub fn fixture_test(pkg_name: &str, header: &str) -> String {
    let mut out = preamble(header, pkg_name);
    out.push_str("import (\n\t\"testing\"\n)\n\n");
    out.push_str(
        "func TestValidation(t *testing.T) {\n\tlocalSchemeBuilder.Test(t).ValidateFixtures()\n}\n",
    );
    crate::text::gofmt_blank_lines(&out)
}

/// upstream `filterReports` for one report: `None` when no rule is left.
fn filter_report(r: &Report, allowlist: &[AllowlistEntry], upstream: Upstream) -> Option<Report> {
    if allowlist.is_empty() {
        return Some(r.clone());
    }
    let mut rules: BTreeMap<String, Vec<Rule>> = BTreeMap::new();
    for (path, rs) in &r.rules {
        for rule in rs {
            if allowlist.iter().any(|e| e.matches(upstream, r, path, rule)) {
                continue;
            }
            rules.entry(path.clone()).or_default().push(rule.clone());
        }
    }
    (!rules.is_empty()).then(|| Report { rules, ..r.clone() })
}

/// The file head every fixture shares (gengo's assembly, as [`Generator::generate_into`] writes it).
fn head(header: &str, pkg: &str, imports: &crate::imports::Imports) -> String {
    let mut out = preamble(header, pkg);
    out.push_str(&imports.block());
    out
}

/// What every generated test file starts with: the build tags, `header`, the generated-code marker and the package
/// clause of `pkg`.
fn preamble(header: &str, pkg: &str) -> String {
    let mut out =
        String::from("//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\n");
    if !header.is_empty() {
        out.push_str(header);
        out.push('\n');
    }
    out.push_str("// Code generated by validation-gen. DO NOT EDIT.\n\n");
    out.push_str(&format!("package {pkg}\n\n"));
    out
}

/// `<prefix><version>_test.go`: upstream `emitRegisterDeclaredRules` for one report (paths sorted, each path's
/// rules sorted by error type, then origin).
fn version_file(dir: &str, pkg: &str, r: &Report, header: &str) -> String {
    let mut imports = crate::imports::Imports::new(dir);
    let body = register(&mut imports, r);
    let mut out = head(header, pkg, &imports);
    out.push_str(&body);
    crate::text::gofmt_blank_lines(&out)
}

/// One report's `func init() { coverage.RegisterDeclaredRules(…) }` (upstream `emitRegisterDeclaredRules`).
fn register(imports: &mut crate::imports::Imports, r: &Report) -> String {
    let mut body = String::from("func init() {\n");
    let register = imports.name(COVERAGE, "RegisterDeclaredRules");
    let gvk = imports.name(SCHEMA, "GroupVersionKind");
    let field_rules = imports.name(COVERAGE, "FieldRules");
    body.push_str(&format!("\t{register}(\n"));
    body.push_str(&format!(
        "\t\t{gvk}{{Group: {}, Version: {}, Kind: {}}},\n",
        go_quote(&r.group),
        go_quote(&r.version),
        go_quote(&r.kind)
    ));
    body.push_str(&format!("\t\t{field_rules}{{\n"));
    for (path, rules) in &r.rules {
        let mut rules = rules.clone();
        rules.sort();
        body.push_str(&format!("\t\t\t{}: {{\n", go_quote(path)));
        for rule in rules {
            if rule.origin.is_empty() {
                body.push_str(&format!(
                    "\t\t\t\t{{ErrorType: {}}},\n",
                    go_quote(rule.error_type)
                ));
            } else {
                body.push_str(&format!(
                    "\t\t\t\t{{ErrorType: {}, Origin: {}}},\n",
                    go_quote(rule.error_type),
                    go_quote(&rule.origin)
                ));
            }
        }
        body.push_str("\t\t\t},\n");
    }
    body.push_str("\t\t},\n\t)\n}\n");
    body
}

/// `<prefix>main_test.go`: upstream `coverageTestGen.Init` with `emitMain` (the versions sorted, then
/// `emitTestMain`).
fn main_file(dir: &str, pkg: &str, mut versions: Vec<String>, header: &str) -> String {
    let mut imports = crate::imports::Imports::new(dir);
    versions.sort();
    let mut body = String::new();
    if !versions.is_empty() {
        let list: Vec<String> = versions.iter().map(|v| go_quote(v)).collect();
        body.push_str(&format!(
            "var apiVersions = []string{{{}}}\n\n",
            list.join(", ")
        ));
    }
    body.push_str(&test_main(&mut imports));
    let mut out = head(header, pkg, &imports);
    out.push_str(&body);
    crate::text::gofmt_blank_lines(&out)
}

/// upstream `emitTestMain`.
fn test_main(imports: &mut crate::imports::Imports) -> String {
    let mut body = String::new();
    let testing = imports.name("testing", "M");
    let assert = imports.name(COVERAGE, "AssertDeclarativeCoverage");
    let println = imports.name("fmt", "Fprintln");
    let stderr = imports.name("os", "Stderr");
    let exit = imports.name("os", "Exit");
    body.push_str(&format!("func TestMain(m *{testing}) {{\n"));
    body.push_str("\tcode := m.Run()\n");
    body.push_str(&format!("\tif err := {assert}(); err != nil {{\n"));
    body.push_str(&format!("\t\t{println}({stderr}, err)\n"));
    body.push_str("\t\tif code == 0 {\n\t\t\tcode = 1\n\t\t}\n\t}\n");
    body.push_str(&format!("\t{exit}(code)\n}}\n"));
    body
}

/// upstream `collectRules` over the plan of one root type.
struct Walk<'g, 'p> {
    g: &'g Generator<'p>,
    upstream: Upstream,
    rules: BTreeMap<String, Vec<Rule>>,
    /// The named types on the current path (upstream's `seen`: a recursive type is walked once per path).
    seen: BTreeSet<vgc_analysis::TypeKey>,
}

/// upstream `joinPath`: an empty segment is transparent (inline-embedded fields), `[`-segments attach directly.
fn join(base: &str, seg: &str) -> String {
    if seg.is_empty() {
        base.to_string()
    } else if base.is_empty() {
        seg.to_string()
    } else if seg.starts_with('[') {
        format!("{base}{seg}")
    } else {
        format!("{base}.{seg}")
    }
}

const REQUIRED: &str = "FieldValueRequired";
const FORBIDDEN: &str = "FieldValueForbidden";
const INVALID: &str = "FieldValueInvalid";
const NOT_SUPPORTED: &str = "FieldValueNotSupported";
const DUPLICATE: &str = "FieldValueDuplicate";
const TOO_LONG: &str = "FieldValueTooLong";
const TOO_SHORT: &str = "FieldValueTooShort";
const TOO_MANY: &str = "FieldValueTooMany";
const TOO_FEW: &str = "FieldValueTooFew";

impl Walk<'_, '_> {
    /// upstream `walkNode` for a named type at `path`: its own checks, then (unless opaque) its fields, map keys
    /// (at `path`) and elements (at `path[*]`).
    fn ty(&mut self, t: &TypePlan, path: &str) {
        if !self.seen.insert(t.key.clone()) {
            return;
        }
        for c in &t.checks {
            self.check(path, "", c, &t.shape);
        }
        if !t.opaque {
            for f in t.fields.iter().flatten() {
                let seg = if f.json_name.is_empty()
                    && path.is_empty()
                    && self.upstream >= Upstream::V1_38
                {
                    // v0.38: in a root type the generated code names an embedded field after its type.
                    f.go_field.as_str()
                } else {
                    f.json_name.as_str()
                };
                self.field(f, &join(path, seg));
            }
            self.iterations(t.key_iteration.as_ref(), t.iteration.as_ref(), path);
        }
        self.seen.remove(&t.key);
    }

    /// upstream `walkChild` for a struct field at `path`: its checks, then the type it calls into (its own type,
    /// its map keys' at `path`, its elements' at `path[*]`). An opaque field calls into nothing.
    fn field(&mut self, f: &FieldPlan, path: &str) {
        for c in &f.checks {
            self.check(path, "", c, &f.shape);
        }
        if let Some(n) = &f.nested {
            self.named(&n.ty, path);
        }
        self.iterations(f.key_iteration.as_ref(), f.iteration.as_ref(), path);
    }

    /// The types a value at `path` calls into through its iterations: its map keys' type (at `path`) and its
    /// elements' (at `path[*]`, or `path` when the iteration is over keys).
    fn iterations(&mut self, keys: Option<&Iteration>, elems: Option<&Iteration>, path: &str) {
        if let Some(it) = keys {
            self.named(&it.elem, path);
        }
        if let Some(it) = elems {
            let p = if it.keys {
                path.to_string()
            } else {
                join(path, "[*]")
            };
            self.named(&it.elem, &p);
        }
    }

    fn named(&mut self, key: &vgc_analysis::TypeKey, path: &str) {
        if let Some(t) = self.g.by_key.get(key) {
            self.ty(t, path);
        }
    }

    /// upstream `recordRules`: `(base + suffix + fragment, rule)`, v0.38 without a leading `.` at the root.
    fn emit(
        &mut self,
        base: &str,
        suffix: &str,
        fragment: &str,
        error_type: &'static str,
        origin: &str,
    ) {
        let mut path = format!("{base}{suffix}{fragment}");
        if self.upstream >= Upstream::V1_38
            && let Some(p) = path.strip_prefix('.')
        {
            path = p.to_string();
        }
        self.rules.entry(path).or_default().push(Rule {
            error_type,
            origin: origin.to_string(),
        });
    }

    /// The rules check `c` declares at `base` + `suffix` (the wrappers' path fragments so far), on a value of
    /// `shape`: upstream's `WithEmits` of the validator it becomes, or, for a wrapper, its inner checks' under the
    /// wrapper's fragment.
    fn check(&mut self, base: &str, suffix: &str, c: &Check, shape: &Shape) {
        let v1_38 = self.upstream >= Upstream::V1_38;
        let one = |w: &mut Self, t: &'static str, origin: &str| w.emit(base, suffix, "", t, origin);
        match &c.kind {
            CheckKind::Required { .. } => one(self, REQUIRED, ""),
            CheckKind::Forbidden { .. } => one(self, FORBIDDEN, ""),
            CheckKind::Minimum(_)
            | CheckKind::MinimumDuration(_)
            | CheckKind::MinimumQuantity(_) => one(self, INVALID, "minimum"),
            CheckKind::Maximum(_)
            | CheckKind::MaximumDuration(_)
            | CheckKind::MaximumQuantity(_) => one(self, INVALID, "maximum"),
            CheckKind::MinLength(_) => one(self, TOO_SHORT, "minLength"),
            CheckKind::MaxLength(_) | CheckKind::MaxLengthBytes(_) => {
                one(self, TOO_LONG, "maxLength");
            }
            CheckKind::MaxBytes(_) | CheckKind::MaxBytesSlice(_) => one(self, TOO_LONG, "maxBytes"),
            CheckKind::MinItems(_) => one(self, TOO_FEW, "minItems"),
            CheckKind::MaxItems(_) => one(self, TOO_MANY, "maxItems"),
            CheckKind::MinProperties(_) => one(self, TOO_FEW, "minProperties"),
            CheckKind::MaxProperties(_) => one(self, TOO_MANY, "maxProperties"),
            CheckKind::Format(f) => {
                let origin = format!("format={}", f.name());
                one(self, INVALID, &origin);
                // v0.38 `format.go`: the domain and name parts carry their own length limits.
                if v1_38
                    && matches!(
                        f,
                        Format::K8sResourceFullyQualifiedName
                            | Format::K8sResourceFullyQualifiedNameV1_38
                            | Format::K8sResourcePoolName
                    )
                {
                    one(self, TOO_LONG, &origin);
                }
            }
            CheckKind::Matches(p) => one(self, INVALID, &format!("format={}", p.name)),
            CheckKind::Enum(_) => one(self, NOT_SUPPORTED, ""),
            CheckKind::Immutable => one(self, INVALID, "immutable"),
            CheckKind::Update(constraints, _) => {
                // `generateUpdateValidation`: lists and maps `compoundUpdateEmissions`, other values `Invalid`.
                let is_map = matches!(shape, Shape::Map);
                if is_map || matches!(shape, Shape::List { .. }) {
                    let has = |k: UpdateConstraint| constraints.contains(&k);
                    let invalid = has(UpdateConstraint::NoSet) || has(UpdateConstraint::NoUnset);
                    let add = has(UpdateConstraint::NoAddItem);
                    let remove = has(UpdateConstraint::NoRemoveItem);
                    if invalid {
                        self.emit(base, suffix, "", INVALID, "update");
                    }
                    if add || (remove && is_map) {
                        self.emit(base, suffix, "[*]", FORBIDDEN, "update");
                    }
                    if remove && !is_map {
                        self.emit(base, suffix, "", FORBIDDEN, "update");
                    }
                } else {
                    one(self, INVALID, "update");
                }
            }
            CheckKind::Unique(_) => self.emit(base, suffix, "[*]", DUPLICATE, ""),
            CheckKind::EachVal(inner, _, elem) => {
                let s = format!("{suffix}[*]");
                for c in inner {
                    self.check(base, &s, c, elem);
                }
            }
            CheckKind::EachKey(inner) => {
                let key = Shape::Scalar {
                    ty: vgc_analysis::types::Builtin::String,
                    pointer: false,
                };
                for c in inner {
                    self.check(base, suffix, c, &key);
                }
            }
            CheckKind::Subfield(s) => {
                let sfx = format!("{suffix}.{}", s.member.json);
                self.check(base, &sfx, &s.inner, &s.member.shape);
            }
            CheckKind::Union(u) => {
                let origin = union_origin(u.kind);
                if v1_38 && u.discriminator.is_some() {
                    // v0.38: DiscriminatedUnion reports at the mismatched member's path.
                    for m in &u.members {
                        self.emit(
                            base,
                            suffix,
                            &format!(".{}", m.member.json),
                            INVALID,
                            origin,
                        );
                    }
                } else {
                    one(self, INVALID, origin);
                }
            }
            CheckKind::ListUnion(u) => one(self, INVALID, union_origin(u.kind)),
            CheckKind::Dependent(d) => {
                let (t, origin) = if d.forbidden {
                    (FORBIDDEN, "dependentForbidden")
                } else {
                    (REQUIRED, "dependentRequired")
                };
                self.emit(base, suffix, &format!(".{}", d.dependent.json), t, origin);
            }
            CheckKind::Monotonic => {
                // v0.38 `monotonic.go` declares its error; v0.37.2's declares none.
                if v1_38 {
                    one(self, INVALID, "monotonic");
                }
            }
            CheckKind::FixedResult { result, .. } => {
                if !result {
                    one(self, INVALID, "validateFalse");
                }
            }
            CheckKind::Item(it) => {
                // v0.38 `item.go`'s wrapper reports at the item (`[*]`); v0.37.2's has no fragment.
                let sfx = if v1_38 {
                    format!("{suffix}[*]")
                } else {
                    suffix.to_string()
                };
                self.check(base, &sfx, &it.inner, &it.elem_shape);
            }
            CheckKind::Discriminated(m) => {
                let sfx = format!("{suffix}.{}", m.member.json);
                // The default `Forbidden*` for modes no rule names (a `MultiWrapperFunction` argument).
                self.emit(base, &sfx, "", FORBIDDEN, "");
                // The per-mode rules sit in a `SliceLiteral` of `StructLiteral`s, which v0.38's `recordRules`
                // descends and v0.37.2's does not.
                if v1_38 {
                    for (_, checks) in &m.rules {
                        for c in checks {
                            self.check(base, &sfx, c, &m.member.shape);
                        }
                    }
                }
            }
            CheckKind::Neq(_) => one(self, INVALID, "neq"),
            CheckKind::Eq(_) => one(self, NOT_SUPPORTED, ""),
            CheckKind::IfOption(io) => self.check(base, suffix, &io.inner, shape),
            CheckKind::IfSubresource(is) => self.check(base, suffix, &is.inner, shape),
            // No error of their own (`optional` and the synthetic `PtrSliceNoNils` declare none; a custom
            // function's errors are its author's), or vgc extensions, which upstream has not (the Go backend
            // refuses them, `VGC0129`).
            CheckKind::Optional
            | CheckKind::NoNils
            | CheckKind::Custom { .. }
            | CheckKind::FieldConstraint(_)
            | CheckKind::VirtualUnion(_) => {}
        }
    }
}

fn union_origin(k: UnionKind) -> &'static str {
    match k {
        UnionKind::Union => "union",
        UnionKind::ZeroOrOneOf => "zeroOrOneOf",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_versions_as_upstream_matches_them() {
        for v in ["v1", "v12", "v1alpha1", "v2beta3"] {
            assert!(is_api_version(v), "{v}");
        }
        for v in ["", "v", "v1alpha", "v1gamma1", "apps", "v1beta1x", "V1"] {
            assert!(!is_api_version(v), "{v}");
        }
    }

    #[test]
    fn allowlist_wildcards_by_release() {
        let r = Report {
            group: "apps".into(),
            version: "v1".into(),
            kind: "Scale".into(),
            rules: BTreeMap::new(),
        };
        let rule = Rule {
            error_type: INVALID,
            origin: "minimum".into(),
        };
        let e = AllowlistEntry {
            api_version: "apps/v1".into(),
            kind: "*".into(),
            path: "spec.replicas".into(),
            error_type: "*".into(),
            origin: "minimum".into(),
        };
        assert!(e.matches(Upstream::V1_37, &r, "spec.replicas", &rule));
        assert!(!e.matches(Upstream::V1_37, &r, "spec.other", &rule));
        let glob = AllowlistEntry {
            api_version: "*/*".into(),
            path: "*.replicas".into(),
            ..e.clone()
        };
        assert!(!glob.matches(Upstream::V1_37, &r, "spec.replicas", &rule));
        assert!(glob.matches(Upstream::V1_38, &r, "spec.replicas", &rule));
        let core = AllowlistEntry {
            api_version: "v1".into(),
            ..e
        };
        assert!(!core.matches(Upstream::V1_37, &r, "spec.replicas", &rule));
    }

    #[test]
    fn files_of_a_report() {
        let mut rules = BTreeMap::new();
        rules.insert(
            "spec.replicas".to_string(),
            vec![Rule {
                error_type: INVALID,
                origin: "minimum".into(),
            }],
        );
        let r = Report {
            group: "apps".into(),
            version: "v1beta1".into(),
            kind: "Scale".into(),
            rules,
        };
        let o = FixtureOptions {
            root: "test/dv".into(),
            file_prefix: "zz.".into(),
            allowlist: Vec::new(),
            header: String::new(),
        };
        let files = fixtures(&[r], &o, Upstream::V1_37);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "test/dv/apps/scale/zz.main_test.go",
                "test/dv/apps/scale/zz.v1beta1_test.go"
            ]
        );
        expect_test::expect![[r#"
            //go:build !ignore_autogenerated
            // +build !ignore_autogenerated

            // Code generated by validation-gen. DO NOT EDIT.

            package scale

            import (
            	schema "k8s.io/apimachinery/pkg/runtime/schema"
            	coverage "k8s.io/apimachinery/pkg/test/coverage"
            )

            func init() {
            	coverage.RegisterDeclaredRules(
            		schema.GroupVersionKind{Group: "apps", Version: "v1beta1", Kind: "Scale"},
            		coverage.FieldRules{
            			"spec.replicas": {
            				{ErrorType: "FieldValueInvalid", Origin: "minimum"},
            			},
            		},
            	)
            }
        "#]]
        .assert_eq(&files[1].contents);
        expect_test::expect![[r#"
            //go:build !ignore_autogenerated
            // +build !ignore_autogenerated

            // Code generated by validation-gen. DO NOT EDIT.

            package scale

            import (
            	fmt "fmt"
            	os "os"
            	testing "testing"

            	coverage "k8s.io/apimachinery/pkg/test/coverage"
            )

            var apiVersions = []string{"v1beta1"}

            func TestMain(m *testing.M) {
            	code := m.Run()
            	if err := coverage.AssertDeclarativeCoverage(); err != nil {
            		fmt.Fprintln(os.Stderr, err)
            		if code == 0 {
            			code = 1
            		}
            	}
            	os.Exit(code)
            }
        "#]]
        .assert_eq(&files[0].contents);
    }
}
