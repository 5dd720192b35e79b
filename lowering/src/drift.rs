//! Cross-version drift (`vgc lint`, `VGC0401`/`VGC0402`): for each API group — packages whose import paths differ
//! only in a last element that is a Kubernetes version (`v1`, `v1beta1`, `v2alpha3`, …) — every type present in
//! more than one version is compared field by field, by JSON path, on its lowered validation: the field's own
//! checks plus the type-level checks its type carries through typedef chains, and the type's struct-level checks
//! (unions, modes, dependencies, `subfield`/`item` rules) under the path `(type)`. Versions are compared by the
//! typed checks ([`Rule`]: each check serialized with the version of every package path replaced by `*`), so
//! equivalent spellings compare equal and checks that differ anywhere in the plan do not; the diagnostic shows
//! them in words ([`crate::words`], the describer the documentation uses too).
//!
//! An exceptions file accepts known differences, one per line: `<group>/<Type>.<json.path>: <reason>` (for
//! example `k8s.io/api/apps/Deployment.spec.minReadySeconds: v1beta1 is frozen`); `#` starts a comment line. An
//! exception that matches no drift is reported as stale.

use crate::plan::CratePlan;
use crate::plan::{Check, FieldPlan, RustTy, TypePlan};
use std::collections::{BTreeMap, BTreeSet};
use vgc_analysis::{Program, TypeKey};
use vgc_ir::{Code, Db, Diagnostic};

/// One accepted difference from the exceptions file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exception {
    /// `<group>/<Type>.<json.path>`.
    pub key: String,
    /// Why it is accepted.
    pub reason: String,
    /// 1-based line in the exceptions file.
    pub line: usize,
}

/// Parses an exceptions file (see the module docs).
///
/// # Errors
/// `(line, message)` for a line without `: <reason>` or with an empty reason.
pub fn parse_exceptions(text: &str) -> Result<Vec<Exception>, (usize, String)> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let Some((key, reason)) = l.split_once(": ") else {
            return Err((
                i + 1,
                "expected `<group>/<Type>.<json.path>: <reason>`".into(),
            ));
        };
        if reason.trim().is_empty() {
            return Err((i + 1, "an exception needs a reason".into()));
        }
        out.push(Exception {
            key: key.trim().to_string(),
            reason: reason.trim().to_string(),
            line: i + 1,
        });
    }
    Ok(out)
}

/// Per-group figures for the drift summary table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupDrift {
    /// Group path (`k8s.io/api/apps`).
    pub group: String,
    /// Versions found, sorted by maturity (alpha, beta, stable; then by number).
    pub versions: Vec<String>,
    /// Types present in more than one version.
    pub types: usize,
    /// JSON paths compared.
    pub paths: usize,
    /// Paths whose validation differs (before exceptions).
    pub drifting: usize,
    /// Of those, accepted by an exception.
    pub accepted: usize,
}

/// The result of a drift run.
#[derive(Debug, Clone, Default)]
pub struct DriftReport {
    /// `VGC0401` per drifting path not accepted, `VGC0402` per stale exception.
    pub diagnostics: Vec<Diagnostic>,
    /// One row per group with at least two versions.
    pub groups: Vec<GroupDrift>,
}

/// A Kubernetes API version's sort key: (major, maturity 0 alpha / 1 beta / 2 stable, minor); `None` when `s` is
/// not a version.
fn version_key(s: &str) -> Option<(u32, u8, u32)> {
    let rest = s.strip_prefix('v')?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let major: u32 = rest[..digits].parse().ok()?;
    let tail = &rest[digits..];
    if tail.is_empty() {
        return Some((major, 2, 0));
    }
    let (maturity, num) = if let Some(n) = tail.strip_prefix("alpha") {
        (0, n)
    } else if let Some(n) = tail.strip_prefix("beta") {
        (1, n)
    } else {
        return None;
    };
    Some((major, maturity, num.parse().ok()?))
}

/// `pkg` with its version element replaced by `*` when it is a version package.
fn neutral(pkg: &str) -> String {
    match pkg.rsplit_once('/') {
        Some((group, v)) if version_key(v).is_some() => format!("{group}/*"),
        _ => pkg.to_string(),
    }
}

struct Versioned<'a> {
    types: BTreeMap<&'a str, &'a TypePlan>,
    all: &'a BTreeMap<&'a TypeKey, &'a TypePlan>,
}

/// One rule a path gets in one version: the check as a version-neutral typed value (`key`: the check serialized
/// with every package path's version element replaced by `*`, [`neutral`]; what versions are compared by) and in
/// words (`text`: [`crate::words::in_words`], what the diagnostic shows). Ordered and compared by `key`, so two checks that read
/// alike but differ in any field of the plan (flags, cohort, level, payload) are different rules.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The neutral typed form (canonical JSON of the [`Check`]), prefixed with the typedef's name for a rule its
    /// value's type carries.
    pub key: String,
    /// The check in words ([`crate::words::in_words`]), prefixed alike (`type Mode: one of "A", "B"`).
    pub text: String,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Rule {}

impl PartialOrd for Rule {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rule {
    /// By `key`, then by `text` so that the order is total and the words' order stable.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key
            .cmp(&other.key)
            .then_with(|| self.text.cmp(&other.text))
    }
}

impl Rule {
    /// `c` as a rule, both forms prefixed with `prefix` (a typedef's `Name:`, or nothing); members named by their
    /// Go names in the words.
    #[cfg(test)]
    fn of(c: &Check, prefix: &str) -> Rule {
        Self::named(c, prefix, &BTreeMap::new(), &BTreeMap::new())
    }

    /// [`Rule::of`] with members named by their JSON names, as the documentation names them: `own` maps the Go
    /// field names of the struct holding the value (mode discriminators, union members), `elems` those of its
    /// element struct (list-map keys, `item` selectors); a name neither maps stays as written.
    fn named(
        c: &Check,
        prefix: &str,
        own: &BTreeMap<String, String>,
        elems: &BTreeMap<String, String>,
    ) -> Rule {
        let mut v = serde_json::to_value(c).unwrap_or(serde_json::Value::Null);
        neutralize(&mut v);
        let by = |m: &BTreeMap<String, String>, go: &str| {
            m.get(go).cloned().unwrap_or_else(|| go.to_string())
        };
        let json_name = |go: &str| by(own, go);
        let elem_json_name = |go: &str| by(elems, go);
        let cx = crate::words::Context {
            json_name: &json_name,
            elem_json_name: &elem_json_name,
            map: false,
        };
        let body = crate::words::rule(c, &cx).text;
        let text = match crate::words::level(c.stability) {
            Some(l) => format!("{prefix}{l}: {body}"),
            None => format!("{prefix}{body}"),
        };
        Rule {
            key: format!("{prefix}{v}"),
            text,
        }
    }
}

/// Replaces, in a serialized plan value, every package path (the `pkg` of a type key) by its version-neutral form.
fn neutralize(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    serde_json::Value::String(s) if k == "pkg" => *s = neutral(s),
                    _ => neutralize(x),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(neutralize),
        _ => {}
    }
}

/// The checks a field's value gets, as [`Rule`]s: its own, then the type-level checks of its named type and of each
/// typedef below it, prefixed with the typedef's name (`type Mode: one of "A", "B"`; struct types contribute their own
/// comparison instead).
#[must_use]
pub fn field_rules(f: &FieldPlan, all: &BTreeMap<&TypeKey, &TypePlan>) -> BTreeSet<Rule> {
    // List-map keys and item selectors by their JSON names, as the documentation shows them.
    let elems = crate::words::elem_json_names(all, Some(&f.ty));
    let none = BTreeMap::new();
    let mut out: BTreeSet<Rule> = f
        .checks
        .iter()
        .map(|c| Rule::named(c, "", &none, &elems))
        .collect();
    let mut cur = match &f.ty {
        RustTy::Named(k) => Some(k),
        RustTy::Option(i, _) => match i.as_ref() {
            RustTy::Named(k) => Some(k),
            _ => None,
        },
        _ => None,
    };
    let mut depth = 0;
    while let Some(k) = cur {
        let Some(t) = all.get(k) else { break };
        if t.fields.is_some() || depth > 16 {
            break;
        }
        let prefix = format!("type {}: ", k.name);
        let elems = crate::words::elem_json_names(all, t.alias_of.as_ref());
        out.extend(
            t.checks
                .iter()
                .map(|c| Rule::named(c, &prefix, &none, &elems)),
        );
        cur = match &t.alias_of {
            Some(RustTy::Named(n)) => Some(n),
            _ => None,
        };
        depth += 1;
    }
    out
}

/// (JSON path, Rust field) pairs of a struct, inline (embedded) fields expanded.
fn paths<'a>(
    t: &'a TypePlan,
    all: &'a BTreeMap<&TypeKey, &TypePlan>,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, &'a FieldPlan)>,
) {
    for f in t.fields.iter().flatten().filter(|f| !f.skip) {
        if f.flatten {
            if let RustTy::Named(k) = &f.ty
                && let Some(inner) = all.get(k)
                && depth < 8
            {
                paths(inner, all, prefix, depth + 1, out);
            }
            continue;
        }
        let p = if prefix.is_empty() {
            f.json_name.clone()
        } else {
            format!("{prefix}.{}", f.json_name)
        };
        out.push((p, f));
    }
}

/// One JSON path whose validation differs between versions of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathDrift {
    /// Group path (`k8s.io/api/apps`).
    pub group: String,
    /// Type name.
    pub ty: String,
    /// JSON path within the type, or `(type)`.
    pub path: String,
    /// Version → its rules (version-neutral descriptions), versions in maturity order.
    pub by_version: Vec<(String, Vec<String>)>,
    /// The type in the most mature version that has the path (where it is reported).
    pub at: TypeKey,
}

impl PathDrift {
    /// The exceptions-file key: `<group>/<Type>.<path>`.
    #[must_use]
    pub fn key(&self) -> String {
        format!("{}/{}.{}", self.group, self.ty, self.path)
    }

    /// `v1beta1: at most 10; optional — v1: at most 5; optional`: each version's rules in words, `; `-separated
    /// (words may hold commas: `one of "A", "B"`).
    #[must_use]
    pub fn detail(&self) -> String {
        self.by_version
            .iter()
            .map(|(v, rules)| {
                format!(
                    "{v}: {}",
                    if rules.is_empty() {
                        "(none)".into()
                    } else {
                        rules.join("; ")
                    }
                )
            })
            .collect::<Vec<_>>()
            .join(" — ")
    }
}

/// Compares every type present in more than one version of a group (packages for which `is_target` holds):
/// the per-group summary rows (before exceptions) and every drifting path.
#[must_use]
pub fn differences(
    plan: &CratePlan,
    is_target: &dyn Fn(&str) -> bool,
) -> (Vec<GroupDrift>, Vec<PathDrift>) {
    let all: BTreeMap<&TypeKey, &TypePlan> = plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter().map(|t| (&t.key, &**t)))
        .collect();
    // group → version → types
    let mut groups: BTreeMap<String, BTreeMap<String, Versioned<'_>>> = BTreeMap::new();
    for m in &plan.modules {
        let Some((group, version)) = m.pkg.rsplit_once('/') else {
            continue;
        };
        if version_key(version).is_none() || !is_target(&m.pkg) {
            continue;
        }
        let entry = groups
            .entry(group.to_string())
            .or_default()
            .entry(version.to_string())
            .or_insert_with(|| Versioned {
                types: BTreeMap::new(),
                all: &all,
            });
        for t in &m.types {
            entry.types.insert(t.key.name.as_str(), t);
        }
    }
    let (mut rows, mut drifts) = (Vec::new(), Vec::new());
    for (group, versions) in &groups {
        if versions.len() < 2 {
            continue;
        }
        let mut ordered: Vec<&String> = versions.keys().collect();
        ordered.sort_by_key(|v| version_key(v));
        let mut row = GroupDrift {
            group: group.clone(),
            versions: ordered.iter().map(|v| (*v).clone()).collect(),
            ..GroupDrift::default()
        };
        let names: BTreeSet<&str> = versions
            .values()
            .flat_map(|v| v.types.keys().copied())
            .collect();
        for name in names {
            let present: Vec<(&String, &TypePlan)> = ordered
                .iter()
                .filter_map(|v| versions[*v].types.get(name).map(|t| (*v, *t)))
                .collect();
            if present.len() < 2
                || present.iter().any(|(_, t)| t.fields.is_none())
                    && !present.iter().all(|(_, t)| t.fields.is_none())
            {
                continue;
            }
            row.types += 1;
            // path → version → rules
            let mut table: BTreeMap<String, BTreeMap<&String, BTreeSet<Rule>>> = BTreeMap::new();
            for (v, t) in &present {
                let all = versions[*v].all;
                // A struct's own rules (unions, modes) name its fields by their JSON names.
                let names: BTreeMap<String, String> = t
                    .fields
                    .iter()
                    .flatten()
                    .filter(|f| !f.json_name.is_empty())
                    .map(|f| (f.go_field.clone(), f.json_name.clone()))
                    .collect();
                let own: BTreeSet<Rule> = t
                    .checks
                    .iter()
                    .map(|c| Rule::named(c, "", &names, &BTreeMap::new()))
                    .collect();
                table.entry("(type)".into()).or_default().insert(v, own);
                let mut ps = Vec::new();
                paths(t, all, "", 0, &mut ps);
                for (p, f) in ps {
                    table.entry(p).or_default().insert(v, field_rules(f, all));
                }
            }
            for (path, by_version) in table {
                if by_version.len() < 2 {
                    continue;
                }
                row.paths += 1;
                let distinct: BTreeSet<&BTreeSet<Rule>> = by_version.values().collect();
                if distinct.len() < 2 {
                    continue;
                }
                row.drifting += 1;
                let mut by: Vec<(String, Vec<String>)> = by_version
                    .into_iter()
                    .map(|(v, r)| {
                        // Shown in words, alphabetically (rules that differ only where the words are silent
                        // show once).
                        let words: BTreeSet<String> = r.into_iter().map(|r| r.text).collect();
                        (v.clone(), words.into_iter().collect())
                    })
                    .collect();
                by.sort_by_key(|(v, _)| version_key(v));
                let at = present
                    .last()
                    .map_or_else(|| present[0].1.key.clone(), |(_, t)| t.key.clone());
                drifts.push(PathDrift {
                    group: group.clone(),
                    ty: name.to_string(),
                    path,
                    by_version: by,
                    at,
                });
            }
        }
        rows.push(row);
    }
    (rows, drifts)
}

/// The `vgc lint` drift run: [`differences`] over the target packages, `exceptions` applied (accepted paths
/// counted per group), one `VGC0401` per remaining path at its field in the most mature version, one `VGC0402` per
/// exception that matched nothing.
#[must_use]
pub fn drift(
    db: &dyn Db,
    prog: &Program,
    plan: &CratePlan,
    exceptions: &[Exception],
) -> DriftReport {
    let is_target = |pkg: &str| prog.packages.get(pkg).is_some_and(|p| p.target);
    let (mut groups, drifts) = differences(plan, &is_target);
    let mut report = DriftReport::default();
    let mut used: BTreeSet<usize> = BTreeSet::new();
    for d in drifts {
        let key = d.key();
        if let Some(i) = exceptions.iter().position(|e| e.key == key) {
            used.insert(i);
            if let Some(row) = groups.iter_mut().find(|g| g.group == d.group) {
                row.accepted += 1;
            }
            continue;
        }
        let (file, span) = position(db, prog, &d.at, &d.path);
        let mut diag = Diagnostic::warning(
            Code::Drift,
            format!(
                "{}.{}: validation differs between versions of {}: {}",
                d.ty,
                d.path,
                d.group,
                d.detail()
            ),
        )
        .with_hint(format!(
            "make the versions agree, or accept it in the exceptions file: `{key}: <reason>`"
        ));
        if let Some(f) = file {
            diag = diag.at(f, span);
        }
        report.diagnostics.push(diag);
    }
    for d in declaration_drifts(db, prog, plan) {
        if let Some(i) = exceptions.iter().position(|e| e.key == d.key) {
            used.insert(i);
            continue;
        }
        let versions = |vs: &[String]| vs.join(", ");
        let mut diag = Diagnostic::warning(
            Code::DeclarationDrift,
            format!(
                "{}.{}: `+{}` is declared in {} but not in {} (the lowered validation agrees today)",
                d.ty,
                d.field,
                d.declaration,
                versions(&d.with),
                versions(&d.without)
            ),
        )
        .with_hint(format!(
            "declare it in every version, or accept it in the exceptions file: `{}: <reason>`",
            d.key
        ));
        if let Some((file, span)) = d.at {
            diag = diag.at(file, span);
        }
        report.diagnostics.push(diag);
    }
    for (i, e) in exceptions.iter().enumerate() {
        if !used.contains(&i) {
            report.diagnostics.push(
                Diagnostic::warning(
                    Code::StaleException,
                    format!(
                        "drift exception `{}` (line {}) matches no drift",
                        e.key, e.line
                    ),
                )
                .with_hint("remove the line: the versions agree now, or the path was renamed"),
            );
        }
    }
    report.groups = groups;
    report
}

/// A tag declared on a field in some versions of a type and not in others, while the field's lowered rules are
/// the same in all of them (`VGC0403`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclarationDrift {
    /// The exceptions-file key: `<group>/<Type>.<json>`.
    pub key: String,
    /// Type name.
    pub ty: String,
    /// The field's JSON name.
    pub field: String,
    /// The declaration as upstream prints it, without the `+` (`k8s:listType=atomic`).
    pub declaration: String,
    /// Versions declaring it, most mature first.
    pub with: Vec<String>,
    /// Versions with the field but without the declaration, most mature first.
    pub without: Vec<String>,
    /// The field in the most mature version declaring it: (file, span).
    pub at: Option<(String, std::ops::Range<usize>)>,
}

/// A field of one version for [`declaration_drifts`]: its plan, its declarations and its position.
type FieldDecls<'a> = (
    &'a FieldPlan,
    BTreeSet<String>,
    Option<(String, std::ops::Range<usize>)>,
);

/// Type name → the versions declaring it (version, type).
type ByName<'a> = BTreeMap<&'a str, Vec<(&'a str, &'a TypeKey)>>;

/// Declaration drift over the target packages: for each group with several versions, each type of the plan present
/// in several of them, and each field (by JSON name) those versions share whose lowered rules
/// ([`field_rules`]) are the same in all of them, every `+k8s:` tag declaration (canonical spelling) that some of
/// those versions carry and others do not. Fields whose rules differ are `VGC0401`'s.
#[must_use]
pub fn declaration_drifts(db: &dyn Db, prog: &Program, plan: &CratePlan) -> Vec<DeclarationDrift> {
    let all: BTreeMap<&TypeKey, &TypePlan> = plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter().map(|t| (&t.key, &**t)))
        .collect();
    // group → type name → [(version, type key)]
    let mut groups: BTreeMap<&str, ByName<'_>> = BTreeMap::new();
    for k in all.keys() {
        let Some((group, version)) = k.pkg.rsplit_once('/') else {
            continue;
        };
        if version_key(version).is_none() || !prog.packages.get(&k.pkg).is_some_and(|p| p.target) {
            continue;
        }
        groups
            .entry(group)
            .or_default()
            .entry(k.name.as_str())
            .or_default()
            .push((version, k));
    }
    let mut out = Vec::new();
    for (group, types) in groups {
        for (name, mut versions) in types {
            if versions.len() < 2 {
                continue;
            }
            versions.sort_by_key(|(v, _)| std::cmp::Reverse(version_key(v)));
            // version → json name → (field plan, declarations, field position)
            let mut per: Vec<(&str, BTreeMap<String, FieldDecls<'_>>)> = Vec::new();
            for (v, k) in &versions {
                let Some(fields) = all.get(k).and_then(|t| t.fields.as_ref()) else {
                    continue;
                };
                let decl = prog.type_decl(db, k);
                let mut m = BTreeMap::new();
                for f in fields {
                    let ir = decl.and_then(|(d, file)| {
                        d.fields
                            .iter()
                            .find(|x| {
                                x.json.as_ref().map(|j| j.name.as_str())
                                    == Some(f.json_name.as_str())
                            })
                            .map(|x| (x, file))
                    });
                    let decls: BTreeSet<String> = ir
                        .map(|(x, _)| {
                            x.tags
                                .iter()
                                .filter_map(|u| u.parsed.as_ref().ok())
                                .map(ToString::to_string)
                                .collect()
                        })
                        .unwrap_or_default();
                    let at = ir.map(|(x, file)| {
                        (file.path(db).clone(), vgc_ir::db::span_of(db, file, x.at))
                    });
                    m.insert(f.json_name.clone(), (f, decls, at));
                }
                per.push((v, m));
            }
            let names: BTreeSet<&String> = per.iter().flat_map(|(_, m)| m.keys()).collect();
            for json in names {
                let having: Vec<_> = per
                    .iter()
                    .filter_map(|(v, m)| m.get(json).map(|e| (*v, e)))
                    .collect();
                if having.len() < 2 {
                    continue;
                }
                let rules: BTreeSet<BTreeSet<Rule>> = having
                    .iter()
                    .map(|(_, (f, _, _))| field_rules(f, &all))
                    .collect();
                if rules.len() > 1 {
                    continue;
                }
                let declared: BTreeSet<&String> =
                    having.iter().flat_map(|(_, (_, d, _))| d).collect();
                for d in declared {
                    let (with, without): (Vec<_>, Vec<_>) =
                        having.iter().partition(|(_, (_, ds, _))| ds.contains(d));
                    if without.is_empty() {
                        continue;
                    }
                    out.push(DeclarationDrift {
                        key: format!("{group}/{name}.{json}"),
                        ty: name.to_string(),
                        field: json.clone(),
                        declaration: d.clone(),
                        with: with.iter().map(|(v, _)| (*v).to_string()).collect(),
                        without: without.iter().map(|(v, _)| (*v).to_string()).collect(),
                        at: with.first().and_then(|(_, (_, _, at))| at.clone()),
                    });
                }
            }
        }
    }
    out
}

/// Where to report a path of type `k`: the top-level field's name (first path element), or the type's name.
fn position(
    db: &dyn Db,
    prog: &Program,
    k: &TypeKey,
    path: &str,
) -> (Option<String>, std::ops::Range<usize>) {
    let Some((decl, file)) = prog.type_decl(db, k) else {
        return (None, 0..0);
    };
    let first = path.split('.').next().unwrap_or(path);
    let at = decl
        .fields
        .iter()
        .find(|f| {
            f.json.as_ref().map(|j| j.name.as_str()) == Some(first)
                || (f.json.is_none() && f.go_name.as_deref() == Some(first))
        })
        .map_or(decl.at, |f| f.at);
    (
        Some(file.path(db).clone()),
        vgc_ir::db::span_of(db, file, at),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::CheckKind;

    #[test]
    fn versions_sort_by_maturity() {
        let mut v = vec!["v1", "v1beta2", "v1alpha1", "v2", "v1beta1", "v2beta1"];
        v.sort_by_key(|s| version_key(s));
        assert_eq!(v, ["v1alpha1", "v1beta1", "v1beta2", "v1", "v2beta1", "v2"]);
        assert_eq!(version_key("core"), None);
        assert_eq!(neutral("k8s.io/api/apps/v1beta2"), "k8s.io/api/apps/*");
        assert_eq!(neutral("k8s.io/api/core"), "k8s.io/api/core");
    }

    fn check(kind: CheckKind, short_circuit: bool) -> Check {
        Check {
            kind,
            short_circuit,
            non_error: false,
            stability: None,
            tag: Some(vgc_ir::catalog::TagId::CustomValidation),
            cohort: None,
        }
    }

    fn custom(pkg: &str) -> CheckKind {
        CheckKind::Custom {
            owner: TypeKey {
                pkg: pkg.into(),
                name: "Widget".into(),
            },
            field: None,
            upstream: "ValidateCustom_Widget".into(),
            ty: RustTy::Named(TypeKey {
                pkg: pkg.into(),
                name: "Widget".into(),
            }),
        }
    }

    /// Versions compare by the typed check, version-neutral: the same check in two versions is one rule; checks
    /// that read alike but differ in the plan (here the short-circuit flag, which the words do not show) are two.
    #[test]
    fn rules_compare_typed_checks_not_words() {
        let v1 = Rule::of(&check(custom("example.com/apis/w/v1"), false), "");
        let v1beta1 = Rule::of(&check(custom("example.com/apis/w/v1beta1"), false), "");
        assert_eq!(v1, v1beta1);
        assert!(v1.key.contains("example.com/apis/w/*"), "{}", v1.key);
        let flagged = Rule::of(&check(custom("example.com/apis/w/v1"), true), "");
        assert_eq!(v1.text, flagged.text, "the words do not show the flag");
        assert_ne!(v1, flagged);
        let other = Rule::of(&check(custom("example.com/apis/x/v1"), false), "");
        assert_ne!(v1, other, "another group's type is another rule");
    }

    #[test]
    fn exceptions_file() {
        let e = parse_exceptions("# accepted\n\nk8s.io/api/apps/Deployment.spec.x: frozen API\n")
            .expect("valid");
        assert_eq!(
            e,
            [Exception {
                key: "k8s.io/api/apps/Deployment.spec.x".into(),
                reason: "frozen API".into(),
                line: 3
            }]
        );
        assert_eq!(parse_exceptions("a/B.c").err().map(|e| e.0), Some(1));
        assert_eq!(parse_exceptions("a/B.c:  ").err().map(|e| e.0), Some(1));
    }

    /// Field-path constraints (vgc extension) are compared as the tag writes them; the form per element says so.
    #[test]
    fn field_path_constraints_are_described_in_words() {
        use crate::plan::{ConstraintPlan, EachElements, FieldPath, Matcher, PathStep};
        let holder = TypeKey {
            pkg: "example.com/p".into(),
            name: "Config".into(),
        };
        let path = |json: &str| FieldPath {
            steps: vec![PathStep {
                go: json.to_uppercase(),
                json: json.into(),
                pointer: None,
            }],
            operand: crate::plan::Operand::Integer(vgc_analysis::types::Builtin::Int64),
            holder: holder.clone(),
        };
        let mut plan = ConstraintPlan {
            kind: vgc_runtime::extensions::ConstraintKind::Maximum,
            target: path("thresholds"),
            bound: path("maxThreshold"),
            each: None,
        };
        let check = |plan: &ConstraintPlan| Check {
            kind: CheckKind::FieldConstraint(Box::new(plan.clone())),
            short_circuit: false,
            non_error: false,
            stability: None,
            tag: None,
            cohort: None,
        };
        assert_eq!(
            crate::words::in_words(&check(&plan)),
            "thresholds must be less than or equal to the value of maxThreshold (field-path constraint, a vgc extension)"
        );
        plan.each = Some(EachElements {
            map: false,
            pointer_elems: false,
            matcher: Matcher::None,
        });
        assert_eq!(
            crate::words::in_words(&check(&plan)),
            "each item of thresholds must be less than or equal to the value of maxThreshold (field-path constraint, a vgc extension)"
        );
    }
}
