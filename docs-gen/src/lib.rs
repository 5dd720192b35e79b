//! vgc-docs-gen: documentation generated, never hand-written: the tag reference from the catalog (Markdown, and
//! JSON in the shape of upstream `validation-gen --docs`), the diagnostics reference from the registry, and the
//! static site (`site`): tag and diagnostics pages plus one API reference page per Go package with every field's
//! rules in words, offline client-side search, stable URLs, and an overridable layout template.

pub mod examples;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use vgc_ir::catalog::{self, Lowering, Stability};
use vgc_lowering::CratePlan;
use vgc_lowering::drift::describe;
use vgc_lowering::plan::{CheckKind, OptionState, RustTy, TypePlan};
use vgc_runtime::validate::UpdateConstraint;

/// Renders the tag reference as Markdown: a summary table (one row per upstream validation tag: scopes, payload,
/// stability, short-circuit flag and vgc's lowering status), then one section per tag with its description,
/// arguments, payload, stability and a Go example (the examples are built and compiled by `tests/tests/docs.rs`).
/// Deterministic: tags are in catalog (name) order.
#[must_use]
pub fn tag_reference_markdown() -> String {
    let mut s = String::from(
        "| tag | scopes | payload | stability | short-circuit | vgc | description |\n|---|---|---|---|---|---|---|\n",
    );
    let stab = |st: Stability| match st {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    };
    for t in catalog::TAGS {
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
        let payload = t.payload.map_or("—", |p| p.upstream_name());
        let low = match t.lowering {
            Lowering::Lowered => "lowered",
            Lowering::Metadata => "metadata",
            Lowering::NotYet => "not lowered yet",
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {payload} | {} | {} | {low} | {} |",
            t.name,
            scopes.join(", "),
            stab(t.stability),
            if t.flags.short_circuit { "yes" } else { "no" },
            t.docs
        );
    }
    for t in catalog::TAGS {
        let _ = writeln!(s, "\n### `+{}`\n\n{}\n", t.name, t.docs);
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
        let _ = writeln!(s, "- scopes: {}", scopes.join(", "));
        for a in t.args {
            let name = if a.name.is_empty() {
                "(positional)"
            } else {
                a.name
            };
            let _ = writeln!(
                s,
                "- argument `{name}`: {}{}{}",
                a.kind.upstream_name(),
                if a.required { ", required" } else { "" },
                if a.docs.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", a.docs)
                }
            );
        }
        let _ = writeln!(
            s,
            "- payload: {}{}",
            t.payload.map_or("none", |p| p.upstream_name()),
            if t.payload_required { ", required" } else { "" }
        );
        let _ = writeln!(s, "- stability: {}", stab(t.stability));
        if let Some(ex) = examples::example(t.name) {
            let _ = writeln!(s, "\n```go\n{ex}\n```");
        }
    }
    s
}

fn stability_name(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "Alpha",
        Stability::Beta => "Beta",
        Stability::Stable => "Stable",
    }
}

/// The tag reference as JSON in the shape of upstream `validation-gen --docs` (spec §7): an array sorted by `Tag` of
/// `{Tag, StabilityLevel, Args?, Usage, Description, Docs, Scopes, Payloads?, PayloadsType?, PayloadsRequired?,
/// AcceptsUnknownArgs?}`, with `Usage` synthesized as upstream does when absent. Descriptions are vgc's catalog
/// texts.
#[must_use]
pub fn tag_reference_json() -> serde_json::Value {
    let tags: Vec<serde_json::Value> = catalog::TAGS
        .iter()
        .map(|t| {
            let mut usage = t.name.to_string();
            if !t.args.is_empty() {
                let args: Vec<String> = t
                    .args
                    .iter()
                    .map(|a| if a.name.is_empty() { format!("<{}>", a.kind.upstream_name()) } else { format!("{}: <{}>", a.name, a.kind.upstream_name()) })
                    .collect();
                usage.push_str(&format!("({})", args.join(", ")));
            }
            if let Some(p) = t.payload {
                usage.push_str(&format!("=<{}>", p.upstream_name()));
            }
            let mut scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
            scopes.sort_unstable();
            let mut o = serde_json::json!({
                "Tag": t.name,
                "StabilityLevel": stability_name(t.stability),
                "Usage": usage,
                "Description": t.docs,
                "Docs": "",
                "Scopes": scopes,
            });
            if !t.args.is_empty() {
                o["Args"] = t
                    .args
                    .iter()
                    .map(|a| serde_json::json!({"Name": a.name, "Description": a.docs, "Type": a.kind.upstream_name(), "Required": a.required, "Default": "", "Docs": ""}))
                    .collect();
            }
            if let Some(p) = t.payload {
                o["Payloads"] = serde_json::json!([{"Description": format!("<{}>", p.upstream_name()), "Docs": ""}]);
                o["PayloadsType"] = serde_json::json!(p.upstream_name());
                if t.payload_required {
                    o["PayloadsRequired"] = serde_json::json!(true);
                }
            }
            if t.accepts_unknown_args {
                o["AcceptsUnknownArgs"] = serde_json::json!(true);
            }
            o
        })
        .collect();
    serde_json::Value::Array(tags)
}

/// The diagnostics reference: every code with its severity, rule name and rationale, as a Markdown table.
#[must_use]
pub fn diagnostics_markdown() -> String {
    let mut s =
        String::from("| code | name | default severity | why | example |\n|---|---|---|---|---|\n");
    for c in vgc_ir::ALL_CODES {
        let sev = match c.default_severity() {
            vgc_ir::Severity::Error => "error",
            vgc_ir::Severity::Warning => "warning",
        };
        let example = examples::diagnostic_example(c.as_str())
            .unwrap_or("")
            .replace('|', "\\|");
        let _ = writeln!(
            s,
            "| {} | {} | {sev} | {} | `{example}` |",
            c.as_str(),
            c.name(),
            c.rationale()
        );
    }
    s
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The default page layout (`{{title}}`, `{{root}}` — the relative path to the site root — and `{{body}}`).
pub const DEFAULT_LAYOUT: &str = include_str!("../templates/layout.html");

fn page(layout: &str, title: &str, root: &str, body: &str) -> String {
    layout
        .replace("{{title}}", &esc(title))
        .replace("{{root}}", root)
        .replace("{{body}}", body)
}

fn ty_text(t: &RustTy) -> String {
    match t {
        RustTy::Builtin(b) => format!("{b:?}").to_lowercase(),
        RustTy::Named(k) => k.name.clone(),
        RustTy::WellKnown(w) => format!("{w:?}"),
        RustTy::Option(i, _) => format!("*{}", ty_text(i)),
        RustTy::Vec(i) => format!("[]{}", ty_text(i)),
        RustTy::Map(i) => format!("map[string]{}", ty_text(i)),
        RustTy::Json => "any".into(),
    }
}

/// The page (relative to the site root) of a package: `api/<module path>.html`.
fn module_page(module_path: &[String]) -> String {
    format!("api/{}.html", module_path.join("/"))
}

/// One rule in plain words (`at most 8 items`, `beta: must be a k8s-short-name`), with option guards and stability
/// named; rules without a plain form fall back to their compact description (`drift::describe`).
#[must_use]
pub fn rule_words(c: &vgc_lowering::plan::Check) -> String {
    let level = match c.stability {
        Some(Stability::Alpha) => "alpha: ",
        Some(Stability::Beta) => "beta: ",
        _ => "",
    };
    let plural = |n: i64, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let body = match &c.kind {
        CheckKind::Required => "required".into(),
        CheckKind::Optional => "optional".into(),
        CheckKind::Forbidden => "must not be set".into(),
        CheckKind::Minimum(n) => format!("at least {n}"),
        CheckKind::Maximum(n) => format!("at most {n}"),
        CheckKind::MinLength(n) => format!("at least {}", plural(*n, "character", "characters")),
        CheckKind::MaxLength(n) => format!("at most {}", plural(*n, "character", "characters")),
        CheckKind::MaxLengthBytes(n) => format!("at most {}", plural(*n, "byte", "bytes")),
        CheckKind::MaxBytes(n) | CheckKind::MaxBytesSlice(n) => {
            format!("at most {}", plural(*n, "byte", "bytes"))
        }
        CheckKind::MinItems(n) => format!("at least {}", plural(*n, "item", "items")),
        CheckKind::MaxItems(n) => format!("at most {}", plural(*n, "item", "items")),
        CheckKind::MinProperties(n) => format!("at least {}", plural(*n, "entry", "entries")),
        CheckKind::MaxProperties(n) => format!("at most {}", plural(*n, "entry", "entries")),
        CheckKind::Format(f) => format!("must be a {}", f.name()),
        CheckKind::Enum(e) => {
            let mut s = format!("one of {}", e.values.join(", "));
            for x in &e.exclusions {
                let (v, opt) = (&x.value, &x.option);
                let state = match x.when {
                    OptionState::Enabled => "enabled",
                    OptionState::Disabled => "disabled",
                };
                s.push_str(&format!("; {v} not allowed while option {opt} is {state}"));
            }
            s
        }
        CheckKind::Immutable => "cannot change once set".into(),
        CheckKind::Update(cs, _) => cs
            .iter()
            .map(|c| match c {
                UpdateConstraint::NoSet => "cannot be set on update",
                UpdateConstraint::NoUnset => "cannot be unset on update",
                UpdateConstraint::NoModify => "cannot be changed on update",
                UpdateConstraint::NoAddItem => "items cannot be added on update",
                UpdateConstraint::NoRemoveItem => "items cannot be removed on update",
            })
            .collect::<Vec<_>>()
            .join("; "),
        CheckKind::Unique(_) => "items must be unique".into(),
        CheckKind::EachVal(inner, _, _) => {
            format!(
                "each item: {}",
                inner.iter().map(rule_words).collect::<Vec<_>>().join("; ")
            )
        }
        CheckKind::EachKey(inner) => {
            format!(
                "each key: {}",
                inner.iter().map(rule_words).collect::<Vec<_>>().join("; ")
            )
        }
        CheckKind::Subfield(sf) => format!("{}: {}", sf.json, rule_words(&sf.inner)),
        CheckKind::Monotonic => "cannot decrease on update".into(),
        CheckKind::Neq(v) => format!(
            "must not be {}",
            match v {
                vgc_lowering::plan::NeqValue::Str(s) => format!("{s:?}"),
                vgc_lowering::plan::NeqValue::Int(i) => i.to_string(),
                vgc_lowering::plan::NeqValue::Bool(b) => b.to_string(),
            }
        ),
        CheckKind::IfOption(p) => format!(
            "{} (only while option {} is {})",
            rule_words(&p.inner),
            p.option,
            if p.enabled { "enabled" } else { "disabled" }
        ),
        _ => describe(c),
    };
    format!("{level}{body}")
}

/// The static documentation site for a plan: `(path, contents)` pairs (paths relative to the output directory, `/`
/// separators). `layout` replaces [`DEFAULT_LAYOUT`] when given. Pages: `index.html` (the upstream profile, packages and types),
/// `tags.html`, `diagnostics.html`, `api/<module>.html` per package (anchors `#<Type>` and `#<Type>.<json>`),
/// `style.css`, `search.js`, `search-index.js` (the index as a script, so search works from `file://`).
#[must_use]
pub fn site(plan: &CratePlan, layout: Option<&str>) -> Vec<(String, String)> {
    let layout = layout.unwrap_or(DEFAULT_LAYOUT);
    let mut files = Vec::new();
    let mut index: Vec<serde_json::Value> = Vec::new();
    // Which page documents each type (for links across packages).
    let mut home: BTreeMap<String, String> = BTreeMap::new();
    for m in &plan.modules {
        for t in &m.types {
            home.insert(t.key.to_string(), module_page(&m.module_path));
        }
    }
    let link = |from_root: &str, key: &vgc_analysis::TypeKey| -> Option<String> {
        home.get(&key.to_string())
            .map(|p| format!("{from_root}{p}#{}", key.name))
    };
    let all: BTreeMap<&vgc_analysis::TypeKey, &TypePlan> = plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter().map(|t| (&t.key, &**t)))
        .collect();
    // (group, type) → paths whose rules differ between versions
    let (_, drifts) = vgc_lowering::drift::differences(plan, &|_| true);
    let mut drift_by_type: BTreeMap<(String, String), Vec<&vgc_lowering::drift::PathDrift>> =
        BTreeMap::new();
    for d in &drifts {
        drift_by_type
            .entry((d.group.clone(), d.ty.clone()))
            .or_default()
            .push(d);
    }
    let mut toc = format!(
        "<h1>API reference</h1>\n<p class=\"muted\">Validation as upstream validation-gen {} generates it (vgc upstream profile; see docs/upstream.md).</p>\n<ul>\n",
        plan.upstream
    );
    for m in &plan.modules {
        let rel = module_page(&m.module_path);
        let depth = rel.matches('/').count();
        let root = "../".repeat(depth);
        let _ = writeln!(
            toc,
            "<li><a href=\"{rel}\">{}</a> <span class=\"muted\">{} types</span></li>",
            esc(&m.pkg),
            m.types.len()
        );
        let mut body = format!("<h1><code>{}</code></h1>\n", esc(&m.pkg));
        // Other versions of the same group, for comparison.
        if let Some((group, _)) = m.pkg.rsplit_once('/') {
            let others: Vec<String> = plan
                .modules
                .iter()
                .filter(|o| o.pkg != m.pkg && o.pkg.rsplit_once('/').map(|x| x.0) == Some(group))
                .map(|o| {
                    format!(
                        "<a href=\"{root}{}\">{}</a>",
                        module_page(&o.module_path),
                        esc(o.pkg.rsplit('/').next().unwrap_or(""))
                    )
                })
                .collect();
            if !others.is_empty() {
                let _ = writeln!(body, "<p>Other versions: {}</p>", others.join(", "));
            }
        }
        for t in &m.types {
            index.push(serde_json::json!({"t": format!("{}.{}", m.pkg.rsplit('/').take(2).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("/"), t.key.name), "u": format!("{rel}#{}", t.key.name), "k": "type"}));
            let group = m.pkg.rsplit_once('/').map_or("", |x| x.0).to_string();
            let drift = drift_by_type
                .get(&(group, t.key.name.clone()))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            type_section(&mut body, t, &root, &link, &rel, &mut index, &all, drift);
        }
        files.push((rel, page(layout, &m.pkg, &root, &body)));
    }
    toc.push_str("</ul>\n");
    files.push(("index.html".into(), page(layout, "API reference", "", &toc)));
    let mut tags = String::from(
        "<h1>Tag reference</h1>\n<table><tr><th>tag</th><th>scopes</th><th>payload</th><th>stability</th><th>description</th></tr>\n",
    );
    for t in catalog::TAGS {
        let id = t.name.trim_start_matches("k8s:");
        index.push(serde_json::json!({"t": t.name, "u": format!("tags.html#{id}"), "k": "tag"}));
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
        let _ = writeln!(
            tags,
            "<tr id=\"{id}\"><td><code>+{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><pre><code>{}</code></pre></td></tr>",
            esc(t.name),
            esc(&scopes.join(", ")),
            esc(&t
                .args
                .iter()
                .map(|a| format!(
                    "{}{}: {}{}",
                    if a.name.is_empty() {
                        "(positional)"
                    } else {
                        a.name
                    },
                    if a.required { "" } else { "?" },
                    a.kind.upstream_name(),
                    if a.docs.is_empty() {
                        String::new()
                    } else {
                        format!(" — {}", a.docs)
                    }
                ))
                .collect::<Vec<_>>()
                .join("; ")),
            t.payload.map_or("—", |p| p.upstream_name()),
            stability_name(t.stability),
            esc(t.docs),
            esc(examples::example(t.name).unwrap_or(""))
        );
    }
    tags.push_str("</table>\n");
    files.push(("tags.html".into(), page(layout, "Tag reference", "", &tags)));
    let mut diags = String::from(
        "<h1>Diagnostics</h1>\n<table><tr><th>code</th><th>name</th><th>severity</th><th>why</th><th>example</th></tr>\n",
    );
    for c in vgc_ir::ALL_CODES {
        index.push(serde_json::json!({"t": format!("{} {}", c.as_str(), c.name()), "u": format!("diagnostics.html#{}", c.as_str()), "k": "diagnostic"}));
        let _ = writeln!(
            diags,
            "<tr id=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            c.as_str(),
            c.as_str(),
            c.name(),
            if c.default_severity() == vgc_ir::Severity::Error {
                "error"
            } else {
                "warning"
            },
            esc(c.rationale()),
            esc(examples::diagnostic_example(c.as_str()).unwrap_or(""))
        );
    }
    diags.push_str("</table>\n");
    files.push((
        "diagnostics.html".into(),
        page(layout, "Diagnostics", "", &diags),
    ));
    files.push((
        "style.css".into(),
        include_str!("../templates/style.css").to_string(),
    ));
    files.push((
        "search.js".into(),
        include_str!("../templates/search.js").to_string(),
    ));
    files.push((
        "search-index.js".into(),
        format!(
            "window.VGC_INDEX = {};\n",
            serde_json::to_string(&index).unwrap_or_else(|_| "[]".into())
        ),
    ));
    files.sort();
    files
}

/// The typedef chain of a value type (`Alias → Name → string`) and the rules its first typedef applies (the only
/// ones upstream and vgc apply; see lint VGC0313).
fn typedef_rules(
    ty: &RustTy,
    all: &BTreeMap<&vgc_analysis::TypeKey, &TypePlan>,
) -> Option<(String, Vec<String>)> {
    let mut cur = match ty {
        RustTy::Named(k) => k,
        RustTy::Option(i, _) => match i.as_ref() {
            RustTy::Named(k) => k,
            _ => return None,
        },
        _ => return None,
    };
    let first = all.get(cur)?;
    if first.fields.is_some() || first.checks.is_empty() {
        return None;
    }
    let rules: Vec<String> = first.checks.iter().map(rule_words).collect();
    let mut chain = vec![cur.name.clone()];
    for _ in 0..16 {
        let Some(t) = all.get(cur) else { break };
        match &t.alias_of {
            Some(RustTy::Named(n)) => {
                chain.push(n.name.clone());
                cur = n;
            }
            Some(other) => {
                chain.push(ty_text(other));
                break;
            }
            None => break,
        }
    }
    Some((chain.join(" → "), rules))
}

#[allow(clippy::too_many_arguments)] // one page section needs all of them
fn type_section(
    body: &mut String,
    t: &TypePlan,
    root: &str,
    link: &dyn Fn(&str, &vgc_analysis::TypeKey) -> Option<String>,
    rel: &str,
    index: &mut Vec<serde_json::Value>,
    all: &BTreeMap<&vgc_analysis::TypeKey, &TypePlan>,
    drift: &[&vgc_lowering::drift::PathDrift],
) {
    let name = &t.key.name;
    let _ = writeln!(
        body,
        "<h2 id=\"{name}\">{name}{}</h2>",
        if t.root {
            " <span class=\"muted\">root</span>"
        } else {
            ""
        }
    );
    if let Some(alias) = &t.alias_of {
        let _ = writeln!(
            body,
            "<p>Typedef of <code>{}</code>.</p>",
            esc(&ty_text(alias))
        );
    }
    let own: Vec<String> = t
        .checks
        .iter()
        .map(|c| {
            let mut w = esc(&rule_words(c));
            // Cross-field rules link to their member fields.
            let members: Vec<String> = match &c.kind {
                CheckKind::Union(u) => u
                    .members
                    .iter()
                    .map(|m| m.json.clone())
                    .chain(u.discriminator.iter().map(|d| d.1.clone()))
                    .collect(),
                CheckKind::Dependent(d) => vec![d.trigger.json.clone(), d.dependent.json.clone()],
                CheckKind::Discriminated(m) => vec![m.json.clone()],
                CheckKind::Subfield(s) => vec![s.json.clone()],
                _ => Vec::new(),
            };
            if !members.is_empty() {
                let links: Vec<String> = members
                    .iter()
                    .map(|f| {
                        let f = esc(f);
                        format!("<a href=\"#{name}.{f}\">{f}</a>")
                    })
                    .collect();
                w.push_str(&format!(" — fields: {}", links.join(", ")));
            }
            w
        })
        .collect();
    if !own.is_empty() {
        let _ = writeln!(
            body,
            "<p>Type rules:</p><ul>{}</ul>",
            own.iter()
                .map(|r| format!("<li>{r}</li>"))
                .collect::<String>()
        );
    }
    let Some(fields) = &t.fields else { return };
    let _ = writeln!(
        body,
        "<table><tr><th>field</th><th>type</th><th>required</th><th>rules</th></tr>"
    );
    for f in fields.iter().filter(|f| !f.skip) {
        let path = if f.json_name.is_empty() {
            f.go_name.clone()
        } else {
            f.json_name.clone()
        };
        index.push(serde_json::json!({"t": format!("{name}.{path}"), "u": format!("{rel}#{name}.{path}"), "k": "field"}));
        let req = f
            .checks
            .iter()
            .find_map(|c| match c.kind {
                CheckKind::Required => Some("required"),
                CheckKind::Optional => Some("optional"),
                CheckKind::Forbidden => Some("forbidden"),
                _ => None,
            })
            .unwrap_or("—");
        let mut rules: Vec<String> = f
            .checks
            .iter()
            .filter(|c| {
                !matches!(
                    c.kind,
                    CheckKind::Required | CheckKind::Optional | CheckKind::Forbidden
                )
            })
            .map(|c| esc(&rule_words(c)))
            .collect();
        if let Some((chain, inherited)) = typedef_rules(&f.ty, all) {
            rules.extend(inherited.iter().map(|r| {
                format!(
                    "{} <span class=\"muted\">(through {})</span>",
                    esc(r),
                    esc(&chain)
                )
            }));
        }
        let ty = match vgc_lowering::graph::build_type_key(&f.ty) {
            Some(k) => match link(root, k) {
                Some(href) => format!(
                    "<a href=\"{href}\"><code>{}</code></a>",
                    esc(&ty_text(&f.ty))
                ),
                None => format!("<code>{}</code>", esc(&ty_text(&f.ty))),
            },
            None => format!("<code>{}</code>", esc(&ty_text(&f.ty))),
        };
        let _ = writeln!(
            body,
            "<tr id=\"{name}.{}\"><td><code>{}</code></td><td>{ty}</td><td>{req}</td><td>{}</td></tr>",
            esc(&path),
            esc(&path),
            rules.join("<br>")
        );
    }
    body.push_str("</table>\n");
    if !drift.is_empty() {
        let _ = writeln!(body, "<p>Differs from other versions:</p><ul>");
        for d in drift {
            let anchor = if d.path == "(type)" {
                String::new()
            } else {
                format!(
                    "<a href=\"#{name}.{}\">{}</a>: ",
                    esc(d.path.split('.').next().unwrap_or("")),
                    esc(&d.path)
                )
            };
            let _ = writeln!(body, "<li>{anchor}{}</li>", esc(&d.detail()));
        }
        body.push_str("</ul>\n");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_lists_every_tag() {
        let md = super::tag_reference_markdown();
        assert_eq!(md.lines().filter(|l| l.starts_with("| `k8s:")).count(), 45);
        assert_eq!(md.matches("\n### `+k8s:").count(), 45);
        assert_eq!(md.matches("```go").count(), 45);
        assert!(md.contains("### `+k8s:maxItems`\n\n"));
        assert!(md.contains("| `k8s:maxItems` | type definitions, struct fields, list values, map values | int | stable | yes | lowered |"));
    }
}
