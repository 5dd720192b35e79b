//! The static documentation site: page data built from the plan, the catalog and the Go doc comments, rendered by
//! minijinja templates (`templates/*.html`, HTML auto-escaping on) into the layout (`templates/layout.html`, or the
//! user's `layout.html`). Markdown texts are rendered by [`crate::markdown`] and reach the templates as
//! `*_html` fields, the only ones a template marks `|safe`.

use crate::godocs::GoDocs;
use crate::markdown;
use crate::words::{self, Context, Rule};
use minijinja::{Environment, Value, context};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use vgc_analysis::TypeKey;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_ir::catalog::{self, Stability};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{CheckKind, ModulePlan, RustTy, TypePlan};

/// The default page layout: a minijinja template receiving `title`, `root` (the relative path to the site root,
/// `""` or `"../../"`) and `body` (the page's HTML).
pub const DEFAULT_LAYOUT: &str = include_str!("../templates/layout.html");

/// A site that could not be rendered: the layout (or a page template) has a template error. Shown as
/// `template error: <minijinja's message> (in layout.html, line 2)`.
#[derive(Debug, thiserror::Error)]
#[error("template error: {}{}", .0, location(.0))]
pub struct SiteError(#[from] minijinja::Error);

fn location(e: &minijinja::Error) -> String {
    match (e.name(), e.line()) {
        (Some(name), Some(line)) => format!(" (in {name}, line {line})"),
        _ => String::new(),
    }
}

#[derive(Serialize)]
struct Link {
    href: String,
    text: String,
}

#[derive(Serialize)]
struct TypeRef {
    text: String,
    href: Option<String>,
}

#[derive(Serialize)]
struct FieldView {
    name: String,
    anchor: String,
    ty: TypeRef,
    /// `required`, `optional`, `forbidden` or `""`.
    presence: &'static str,
    presence_stability: Option<&'static str>,
    /// The presence comes from the `+required`/`+optional` marker only (no declarative check).
    presence_documented_only: bool,
    doc_html: String,
    rules: Vec<Rule>,
    /// Rules of the field's typedef, and the typedef chain they come through.
    inherited: Vec<Rule>,
    through: String,
}

#[derive(Serialize)]
struct KindView {
    api_version: String,
    kind: String,
}

#[derive(Serialize)]
struct TypeView {
    name: String,
    /// For an API kind (a struct embedding `TypeMeta`): its apiVersion and kind.
    kind: Option<KindView>,
    /// For a kind or a validation root: how many declarative rules its objects get.
    coverage: Option<String>,
    doc_html: String,
    typedef_of: Option<String>,
    rules: Vec<Rule>,
    fields: Option<Vec<FieldView>>,
    drift: Vec<DriftView>,
}

#[derive(Serialize)]
struct DriftView {
    anchor: Option<String>,
    path: String,
    detail: String,
}

#[derive(Serialize)]
struct TagView {
    name: String,
    anchor: String,
    scopes: String,
    payload: String,
    stability: &'static str,
    lowering: &'static str,
    docs_html: String,
    args: Vec<ArgView>,
    example: String,
    formats: Vec<FormatView>,
}

#[derive(Serialize)]
struct ArgView {
    name: String,
    kind: &'static str,
    required: bool,
    docs_html: String,
}

#[derive(Serialize)]
struct FormatView {
    name: String,
    anchor: String,
    docs_html: String,
}

#[derive(Serialize)]
struct DiagView {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    why_html: String,
    example: &'static str,
}

/// What a site is made of: the plan, the Go doc comments of its packages ([`GoDocs::default`] for none) and the
/// layout template ([`DEFAULT_LAYOUT`] when `None`).
pub struct SiteInput<'a> {
    /// The lowered plan whose packages get API pages.
    pub plan: &'a CratePlan,
    /// Doc comments and API groups of the plan's packages.
    pub docs: &'a GoDocs,
    /// A replacement for [`DEFAULT_LAYOUT`].
    pub layout: Option<&'a str>,
    /// The documented module's version when known (`v0.37.2` for `k8s.io/api` from the module cache), shown on
    /// the index beside the module path.
    pub module_version: Option<&'a str>,
}

fn env(layout: &str) -> Result<Environment<'static>, SiteError> {
    let mut env = Environment::new();
    // `.html` templates escape every value (minijinja's default for the extension; set explicitly all the same).
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".html") {
            minijinja::AutoEscape::Html
        } else {
            minijinja::AutoEscape::None
        }
    });
    // minijinja's HTML escaping also escapes `/` (`&#x2f;`), which leaves URLs and paths unreadable in the source
    // and breaks naive link checkers; `&`, `<`, `>`, `"` and `'` are what matter in text and quoted attributes.
    env.set_formatter(|out, state, value| {
        if state.auto_escape() == minijinja::AutoEscape::Html
            && !value.is_safe()
            && !value.is_none()
        {
            let text = value.to_string();
            let mut escaped = String::with_capacity(text.len());
            for ch in text.chars() {
                match ch {
                    '&' => escaped.push_str("&amp;"),
                    '<' => escaped.push_str("&lt;"),
                    '>' => escaped.push_str("&gt;"),
                    '"' => escaped.push_str("&quot;"),
                    '\'' => escaped.push_str("&#39;"),
                    c => escaped.push(c),
                }
            }
            out.write_str(&escaped)?;
            Ok(())
        } else {
            minijinja::escape_formatter(out, state, value)
        }
    });
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.add_template_owned("layout.html", layout.to_string())?;
    env.add_template("api.html", include_str!("../templates/api.html"))?;
    env.add_template("tags.html", include_str!("../templates/tags.html"))?;
    env.add_template("index.html", include_str!("../templates/index.html"))?;
    env.add_template(
        "diagnostics.html",
        include_str!("../templates/diagnostics.html"),
    )?;
    Ok(env)
}

fn page(
    env: &Environment<'_>,
    template: &str,
    title: &str,
    root: &str,
    data: Value,
) -> Result<String, SiteError> {
    let body = env.get_template(template)?.render(data)?;
    Ok(env.get_template("layout.html")?.render(context! {
        title => title,
        root => root,
        body => Value::from_safe_string(body.trim().to_string()),
    })?)
}

/// A value type as JSON calls it: `integer`, `string`, `array of Foo`, `map of string`; named types by name.
#[must_use]
pub fn json_type(t: &RustTy) -> String {
    match t {
        RustTy::Builtin(Builtin::Bool) => "boolean".into(),
        RustTy::Builtin(Builtin::String) => "string".into(),
        RustTy::Builtin(Builtin::Float32 | Builtin::Float64) => "number".into(),
        RustTy::Builtin(_) => "integer".into(),
        RustTy::Named(k) => k.name.clone(),
        RustTy::WellKnown(w) => match w {
            WellKnown::Quantity => "quantity (string)".into(),
            WellKnown::Time | WellKnown::MicroTime => "time (RFC 3339 string)".into(),
            WellKnown::Duration => "duration (string)".into(),
            WellKnown::IntOrString => "integer or string".into(),
            WellKnown::RawExtension => "any JSON object".into(),
            WellKnown::FieldsV1 => "FieldsV1 (JSON object)".into(),
            WellKnown::Bytes => "bytes (base64 string)".into(),
        },
        RustTy::Option(i, _) => json_type(i),
        RustTy::Vec(i) => format!("array of {}", json_type(i)),
        RustTy::Map(i) => format!("map of {}", json_type(i)),
        RustTy::Json => "any JSON value".into(),
    }
}

fn is_map(t: &RustTy) -> bool {
    match t {
        RustTy::Option(i, _) => is_map(i),
        RustTy::Map(_) => true,
        _ => false,
    }
}

/// The page (relative to the site root) of package `pkg`: `api/<module path>.html`, the path of the package's
/// module in the generated crate (`vgc_codegen::ident::module_path`), so that the site and the crate are laid out
/// alike.
fn module_page(plan: &CratePlan, pkg: &str) -> String {
    format!(
        "api/{}.html",
        vgc_codegen::ident::module_path(&plan.go_module, pkg).join("/")
    )
}

/// `group/version` of a package: the group of its `+groupName` (else the directory above the version), the
/// version its last path segment; the core group (`+groupName=`) is just the version.
fn api_version(pkg: &str, docs: &GoDocs) -> String {
    let mut parts = pkg.rsplit('/');
    let version = parts.next().unwrap_or("").to_string();
    let group = match docs.packages.get(pkg).and_then(|p| p.group.clone()) {
        Some(g) => g,
        None => parts.next().unwrap_or("").to_string(),
    };
    if group.is_empty() {
        version
    } else {
        format!("{group}/{version}")
    }
}

/// "12 declarative rules, 9 alpha, 2 beta": the checks of `root` and every type reachable from it (each counted
/// once), by their stability level.
fn coverage(root: &TypePlan, all: &BTreeMap<&TypeKey, &TypePlan>) -> String {
    let (mut n, mut alpha, mut beta) = (0, 0, 0);
    let mut seen: BTreeSet<&TypeKey> = BTreeSet::new();
    let mut todo = vec![root];
    while let Some(t) = todo.pop() {
        if !seen.insert(&t.key) {
            continue;
        }
        let mut checks: Vec<&vgc_lowering::plan::Check> = t.checks.iter().collect();
        let mut next: Vec<&RustTy> = t.alias_of.iter().collect();
        for f in t.fields.iter().flatten().filter(|f| !f.skip) {
            checks.extend(&f.checks);
            next.push(&f.ty);
        }
        for c in checks {
            n += 1;
            match c.stability {
                Some(Stability::Alpha) => alpha += 1,
                Some(Stability::Beta) => beta += 1,
                _ => {}
            }
        }
        for ty in next {
            if let Some(k) = vgc_lowering::plan::build_type_key(ty)
                && let Some(t) = all.get(k)
            {
                todo.push(t);
            }
        }
    }
    format!(
        "{n} declarative {}, {alpha} alpha, {beta} beta",
        if n == 1 { "rule" } else { "rules" }
    )
}

/// The typedef chain of a value type (`Alias → Name → string`) and the rules its first typedef applies (the only
/// ones upstream and vgc apply; see lint VGC0313).
fn typedef_rules(
    ty: &RustTy,
    all: &BTreeMap<&TypeKey, &TypePlan>,
    cx: &Context<'_>,
) -> Option<(String, Vec<Rule>)> {
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
    let rules: Vec<Rule> = first.checks.iter().map(|c| words::rule(c, cx)).collect();
    let mut chain = vec![cur.name.clone()];
    for _ in 0..16 {
        let Some(t) = all.get(cur) else { break };
        match &t.alias_of {
            Some(RustTy::Named(n)) => {
                chain.push(n.name.clone());
                cur = n;
            }
            Some(other) => {
                chain.push(json_type(other));
                break;
            }
            None => break,
        }
    }
    Some((chain.join(" → "), rules))
}

struct Ctx<'a> {
    all: BTreeMap<&'a TypeKey, &'a TypePlan>,
    home: BTreeMap<String, String>,
    docs: &'a GoDocs,
    /// Virtual-group membership (vgc extension) by member field — (struct declaring it, Go field) — in words, so a
    /// member's own row says which group it is in and where the group is checked.
    members: BTreeMap<(TypeKey, String), Vec<String>>,
}

/// [`Ctx::members`]: every member of every virtual group of the plan (groups are checked on their ancestor).
fn virtual_members(plan: &CratePlan) -> BTreeMap<(TypeKey, String), Vec<String>> {
    use vgc_lowering::plan::{MemberSet, UnionKind};
    let mut out: BTreeMap<(TypeKey, String), Vec<String>> = BTreeMap::new();
    for t in plan.modules.iter().flat_map(|m| m.types.iter()) {
        for c in &t.checks {
            c.walk(&mut |c| {
                let CheckKind::VirtualUnion(v) = &c.kind else {
                    return;
                };
                let how = match v.kind {
                    UnionKind::Union => "exactly one member must be set",
                    UnionKind::ZeroOrOneOf => "at most one member may be set",
                };
                for m in &v.members {
                    let Some(last) = m.steps.last() else { continue };
                    let what = match &m.set {
                        MemberSet::Field(_) => "member".to_string(),
                        MemberSet::Item { .. } => format!(
                            "item {} is a member",
                            m.name.trim_start_matches(|c: char| c != '[')
                        ),
                    };
                    out.entry((m.holder.clone(), last.go.clone()))
                        .or_default()
                        .push(format!(
                            "{what} of group {} (virtual fields, a vgc extension): {how}, checked on {}",
                            v.group, t.key.name
                        ));
                }
            });
        }
    }
    out
}

impl Ctx<'_> {
    fn type_ref(&self, root: &str, ty: &RustTy) -> TypeRef {
        TypeRef {
            text: json_type(ty),
            href: vgc_lowering::plan::build_type_key(ty).and_then(|k| {
                self.home
                    .get(&k.to_string())
                    .map(|p| format!("{root}{p}#{}", k.name))
            }),
        }
    }

    fn type_view(
        &self,
        t: &TypePlan,
        api_version: &str,
        root: &str,
        drift: &[&vgc_lowering::drift::PathDrift],
    ) -> TypeView {
        let tdocs = self.docs.type_docs(&t.key.pkg, &t.key.name);
        let json_of: BTreeMap<&str, &str> = t
            .fields
            .iter()
            .flatten()
            .map(|f| (f.go_field.as_str(), f.json_name.as_str()))
            .collect();
        let json_name = |go: &str| -> String {
            json_of
                .get(go)
                .filter(|j| !j.is_empty())
                .map_or_else(|| go.to_string(), |j| (*j).to_string())
        };
        let type_elems = vgc_lowering::words::elem_json_names(&self.all, t.alias_of.as_ref());
        let type_elem_json = |go: &str| {
            type_elems
                .get(go)
                .cloned()
                .unwrap_or_else(|| go.to_string())
        };
        let cx = Context {
            json_name: &json_name,
            elem_json_name: &type_elem_json,
            map: t.alias_of.as_ref().is_some_and(is_map),
        };
        let fields = t.fields.as_ref().map(|fields| {
            fields
                .iter()
                .filter(|f| !f.skip)
                .map(|f| {
                    let name = if f.json_name.is_empty() {
                        f.go_name.clone()
                    } else {
                        f.json_name.clone()
                    };
                    let presence = f.checks.iter().find_map(|c| match c.kind {
                        CheckKind::Required { .. } => Some(("required", c.stability)),
                        CheckKind::Optional => Some(("optional", c.stability)),
                        CheckKind::Forbidden { .. } => Some(("forbidden", c.stability)),
                        _ => None,
                    });
                    let marker = tdocs.and_then(|d| d.markers.get(&f.go_name).copied());
                    let elems = vgc_lowering::words::elem_json_names(&self.all, Some(&f.ty));
                    let elem_json =
                        |go: &str| elems.get(go).cloned().unwrap_or_else(|| go.to_string());
                    let fcx = Context {
                        json_name: &json_name,
                        elem_json_name: &elem_json,
                        map: is_map(&f.ty),
                    };
                    let rules = f
                        .checks
                        .iter()
                        .filter(|c| {
                            // The presence column says required/optional/forbidden; a message payload
                            // (`+k8s:required="msg"`, 1.38) is a rule line of its own.
                            !matches!(
                                c.kind,
                                CheckKind::Required { detail: None }
                                    | CheckKind::Optional
                                    | CheckKind::Forbidden { detail: None }
                            )
                        })
                        .map(|c| words::rule(c, &fcx))
                        .chain(
                            self.members
                                .get(&(t.key.clone(), f.go_field.clone()))
                                .into_iter()
                                .flatten()
                                .map(|text| words::Rule {
                                    text: text.clone(),
                                    stability: None,
                                    fields: Vec::new(),
                                }),
                        )
                        .collect();
                    let (through, inherited) =
                        typedef_rules(&f.ty, &self.all, &fcx).unwrap_or_default();
                    FieldView {
                        anchor: format!("{}.{name}", t.key.name),
                        ty: self.type_ref(root, &f.ty),
                        presence: presence.map(|p| p.0).or(marker).unwrap_or(""),
                        presence_stability: presence.and_then(|p| words::level(p.1)),
                        presence_documented_only: presence.is_none() && marker.is_some(),
                        doc_html: tdocs
                            .and_then(|d| d.fields.get(&f.go_name))
                            .map(|d| markdown::block(d))
                            .unwrap_or_default(),
                        rules,
                        inherited,
                        through,
                        name,
                    }
                })
                .collect()
        });
        // A kind is what an object's `apiVersion`/`kind` name: a struct with the inline `TypeMeta` member. (A
        // validation root need not be one: k8s.io/api's resource/v1 validates `DeviceAttribute` as a root.)
        let is_kind = t.fields.iter().flatten().any(|f| {
            f.json_name.is_empty()
                && vgc_lowering::plan::build_type_key(&f.ty).is_some_and(|k| k.name == "TypeMeta")
        });
        TypeView {
            name: t.key.name.clone(),
            kind: is_kind.then(|| KindView {
                api_version: api_version.to_string(),
                kind: t.key.name.clone(),
            }),
            coverage: (is_kind || t.root).then(|| coverage(t, &self.all)),
            doc_html: tdocs.map(|d| markdown::block(&d.doc)).unwrap_or_default(),
            typedef_of: t.alias_of.as_ref().map(json_type),
            rules: t.checks.iter().map(|c| words::rule(c, &cx)).collect(),
            fields,
            drift: drift
                .iter()
                .map(|d| DriftView {
                    anchor: (d.path != "(type)").then(|| {
                        format!("{}.{}", t.key.name, d.path.split('.').next().unwrap_or(""))
                    }),
                    path: d.path.clone(),
                    detail: self.drift_words(d),
                })
                .collect(),
        }
    }
}

impl Ctx<'_> {
    /// A version difference in words: for each version, the rules of the path in that version's type (`v1beta1:
    /// optional, at most 10; v1: optional, at most 5`). Paths below a member (`spec.replicas`) keep the drift
    /// analysis' compact descriptions, which only name rules the plan has.
    fn drift_words(&self, d: &vgc_lowering::drift::PathDrift) -> String {
        d.by_version
            .iter()
            .map(|(v, compact)| {
                let key = TypeKey {
                    pkg: format!("{}/{v}", d.group),
                    name: d.ty.clone(),
                };
                let rules: Option<Vec<String>> = self.all.get(&key).and_then(|t| {
                    let json_of = |go: &str| -> String {
                        t.fields
                            .iter()
                            .flatten()
                            .find(|f| f.go_field == go && !f.json_name.is_empty())
                            .map_or_else(|| go.to_string(), |f| f.json_name.clone())
                    };
                    let (checks, ty) = if d.path == "(type)" {
                        (&t.checks, t.alias_of.as_ref())
                    } else if !d.path.contains('.') {
                        let f = t.fields.iter().flatten().find(|f| f.json_name == d.path)?;
                        (&f.checks, Some(&f.ty))
                    } else {
                        return None;
                    };
                    let elems = vgc_lowering::words::elem_json_names(&self.all, ty);
                    let elem_json =
                        |go: &str| elems.get(go).cloned().unwrap_or_else(|| go.to_string());
                    let cx = Context {
                        json_name: &json_of,
                        elem_json_name: &elem_json,
                        map: ty.is_some_and(is_map),
                    };
                    let text = |r: Rule| match r.stability {
                        Some(l) => format!("{} ({l})", r.text),
                        None => r.text,
                    };
                    let mut rules: Vec<String> =
                        checks.iter().map(|c| text(words::rule(c, &cx))).collect();
                    // The drift analysis compares a member's typedef rules too (they apply to it).
                    if d.path != "(type)"
                        && let Some((chain, inherited)) =
                            ty.and_then(|ty| typedef_rules(ty, &self.all, &cx))
                    {
                        rules.extend(
                            inherited
                                .into_iter()
                                .map(|r| format!("{} (through {chain})", text(r))),
                        );
                    }
                    Some(rules)
                });
                let rules = rules.unwrap_or_else(|| compact.clone());
                format!(
                    "{v}: {}",
                    if rules.is_empty() {
                        "no rule".into()
                    } else {
                        rules.join(", ")
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn stability_name(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    }
}

/// The view of tag `t` under profile `upstream`; `project` are the project formats (`--validation-extensions-file`, kubernetes#142116)
/// listed after the built-in ones under `k8s:format`.
fn tag_view(
    t: &catalog::TagSpec,
    project: &[vgc_ir::extensions::ProjectFormat],
    upstream: vgc_ir::Upstream,
) -> TagView {
    let anchor = t.name().trim_start_matches("k8s:").to_string();
    TagView {
        name: t.name().to_string(),
        scopes: t
            .scopes
            .iter()
            .map(|s| s.upstream_name())
            .collect::<Vec<_>>()
            .join(", "),
        payload: t.payload.map_or("—", |p| p.upstream_name()).to_string(),
        stability: stability_name(upstream.tag_stability(t)),
        lowering: match t.lowering {
            catalog::Lowering::Lowered => "lowered",
            catalog::Lowering::Metadata => "metadata",
            catalog::Lowering::NotYet => "not lowered yet",
        },
        docs_html: markdown::inline(t.docs),
        args: t
            .args
            .iter()
            .map(|a| ArgView {
                name: if a.name.is_empty() {
                    "(positional)".into()
                } else {
                    a.name.to_string()
                },
                kind: a.kind.upstream_name(),
                required: a.required,
                docs_html: markdown::inline(a.docs),
            })
            .collect(),
        example: crate::examples::example(t.name()).unwrap_or("").to_string(),
        formats: if t.id == catalog::TagId::Format {
            catalog::FORMAT_DOCS
                .iter()
                .map(|(name, d)| FormatView {
                    name: (*name).to_string(),
                    anchor: format!("format-{name}"),
                    docs_html: markdown::inline(d),
                })
                .chain(project.iter().map(|p| FormatView {
                    name: p.name.clone(),
                    anchor: format!("format-{}", p.name),
                    docs_html: format!(
                        "{} (project format: must match <code>{}</code>, else “{}”)",
                        markdown::inline(&p.docs),
                        html_escape(&p.pattern),
                        html_escape(&p.message)
                    ),
                }))
                .collect()
        } else {
            Vec::new()
        },
        anchor,
    }
}

/// The static documentation site: `(path, contents)` pairs (paths relative to the output directory, `/`
/// separators, sorted). Pages: `index.html` (the upstream profile and the packages), `tags.html` (the tags an API
/// author uses, then the test-only tags; anchors `#<tag without k8s:>` and `#format-<format>`),
/// `diagnostics.html` (anchors `#<code>`), `api/<module>.html` per package (a table of contents, then each type with
/// its doc comment, apiVersion/kind and rule coverage for root types, its rules and its fields' types, presence,
/// doc comments and rules in words; anchors `#<Type>` and `#<Type>.<json>`), `style.css`, `search.js` and
/// `search-index.js` (the search index as a script, so search works from `file://`).
///
/// # Errors
/// A template error in the layout (a user's `layout.html`), with its line.
pub fn site(input: &SiteInput<'_>) -> Result<Vec<(String, String)>, SiteError> {
    let plan = input.plan;
    let env = env(input.layout.unwrap_or(DEFAULT_LAYOUT))?;
    let mut files = Vec::new();
    let mut index: Vec<serde_json::Value> = Vec::new();
    let ctx = Ctx {
        all: plan
            .modules
            .iter()
            .flat_map(|m| m.types.iter().map(|t| (&t.key, &**t)))
            .collect(),
        home: plan
            .modules
            .iter()
            .flat_map(|m| {
                m.types
                    .iter()
                    .map(|t| (t.key.to_string(), module_page(plan, &m.pkg)))
            })
            .collect(),
        docs: input.docs,
        members: virtual_members(plan),
    };
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
    let mut packages = Vec::new();
    // Packages in the order of their pages (the crate's module order).
    let mut modules: Vec<&ModulePlan> = plan.modules.iter().map(|m| &**m).collect();
    modules.sort_by_cached_key(|m| module_page(plan, &m.pkg));
    for m in modules {
        let rel = module_page(plan, &m.pkg);
        let root = "../".repeat(rel.matches('/').count());
        packages.push(context! {
            href => rel,
            pkg => m.pkg,
            types => m.types.len(),
        });
        let group = m.pkg.rsplit_once('/').map_or("", |x| x.0).to_string();
        let other_versions: Vec<Link> = plan
            .modules
            .iter()
            .filter(|o| o.pkg != m.pkg && o.pkg.rsplit_once('/').map(|x| x.0) == Some(&group))
            .map(|o| Link {
                href: format!("{root}{}", module_page(plan, &o.pkg)),
                text: o.pkg.rsplit('/').next().unwrap_or("").to_string(),
            })
            .collect();
        let gv = api_version(&m.pkg, input.docs);
        let short = m
            .pkg
            .rsplit('/')
            .take(2)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("/");
        let mut types = Vec::new();
        for t in &m.types {
            index.push(serde_json::json!({"t": format!("{short}.{}", t.key.name), "u": format!("{rel}#{}", t.key.name), "k": "type"}));
            for f in t.fields.iter().flatten().filter(|f| !f.skip) {
                let path = if f.json_name.is_empty() {
                    &f.go_name
                } else {
                    &f.json_name
                };
                index.push(serde_json::json!({"t": format!("{short}.{}.{path}", t.key.name), "u": format!("{rel}#{}.{path}", t.key.name), "k": "field"}));
            }
            let drift = drift_by_type
                .get(&(group.clone(), t.key.name.clone()))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            types.push(ctx.type_view(t, &gv, &root, drift));
        }
        let kinds: Vec<&str> = types
            .iter()
            .filter(|t| t.kind.is_some())
            .map(|t| t.name.as_str())
            .collect();
        let others: Vec<&str> = types
            .iter()
            .filter(|t| t.kind.is_none())
            .map(|t| t.name.as_str())
            .collect();
        let body = context! {
            pkg => m.pkg,
            group_version => gv,
            other_versions => other_versions,
            kinds => kinds,
            others => others,
            types => types,
        };
        files.push((rel, page(&env, "api.html", &m.pkg, &root, body)?));
    }
    // The index lists packages by import path (the pages are ordered by file name).
    packages.sort_by(|a, b| {
        let key =
            |v: &minijinja::Value| v.get_attr("pkg").map(|p| p.to_string()).unwrap_or_default();
        key(a).cmp(&key(b))
    });
    files.push((
        "index.html".into(),
        page(
            &env,
            "index.html",
            "API reference",
            "",
            context! {
                upstream => plan.upstream.to_string(),
                packages => packages,
                module => plan.go_module,
                version => input.module_version,
            },
        )?,
    ));
    let (test_only, tags): (Vec<_>, Vec<_>) =
        catalog::TAGS.iter().partition(|t| t.id.is_test_only());
    let (extensions, tags): (Vec<_>, Vec<_>) = tags.into_iter().partition(|t| t.id.is_extension());
    for t in catalog::TAGS {
        let id = t.name().trim_start_matches("k8s:");
        index.push(serde_json::json!({"t": t.name(), "u": format!("tags.html#{id}"), "k": "tag"}));
    }
    let project_names = plan.formats.iter().map(|p| p.name.as_str());
    for name in catalog::FORMAT_DOCS
        .iter()
        .map(|(n, _)| *n)
        .chain(project_names)
    {
        index.push(
            serde_json::json!({"t": name, "u": format!("tags.html#format-{name}"), "k": "format"}),
        );
    }
    files.push((
        "tags.html".into(),
        page(
            &env,
            "tags.html",
            "Tag reference",
            "",
            context! {
                tags => tags.iter().map(|t| tag_view(t, &plan.formats, plan.upstream)).collect::<Vec<_>>(),
                test_only => test_only.iter().map(|t| tag_view(t, &plan.formats, plan.upstream)).collect::<Vec<_>>(),
                extensions => extensions.iter().map(|t| tag_view(t, &plan.formats, plan.upstream)).collect::<Vec<_>>(),
            },
        )?,
    ));
    let diags: Vec<DiagView> = vgc_ir::ALL_CODES
        .iter()
        .map(|c| {
            index.push(serde_json::json!({"t": format!("{} {}", c.as_str(), c.name()), "u": format!("diagnostics.html#{}", c.as_str()), "k": "diagnostic"}));
            DiagView {
                code: c.as_str(),
                name: c.name(),
                severity: if c.default_severity() == vgc_ir::Severity::Error {
                    "error"
                } else {
                    "warning"
                },
                why_html: markdown::inline(c.rationale()),
                example: crate::examples::diagnostic_example(c.as_str()).unwrap_or(""),
            }
        })
        .collect();
    files.push((
        "diagnostics.html".into(),
        page(
            &env,
            "diagnostics.html",
            "Diagnostics",
            "",
            context! { diagnostics => diags },
        )?,
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
    Ok(files)
}

/// `text` with `&`, `<`, `>` and `"` escaped, for values written into HTML the template marks `safe`.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
