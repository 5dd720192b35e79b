//! Hover on a field or type declaration: its effective rules in words, from the module's last lowered plan
//! (`vgc_lowering::plan::CratePlan`) through `vgc_lowering::words`, the describer `vgc docs` uses — the field's own
//! checks (option-gated and stability-levelled ones say so), those its typedef adds (its own only: validation-gen
//! does not follow a typedef of a typedef, `VGC0313`), and the
//! struct-level rules of the enclosing type that involve it (unions, modes, dependent fields, subfield rules hoisted
//! to the struct).

use std::collections::BTreeMap;
use vgc_analysis::TypeKey;
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{RustTy, TypePlan};
use vgc_lowering::words::{self, Context, Rule};

/// The URI of the tag line on a field (`Some(go field)`) of a struct, or on a type (`None`), whose chain names the
/// tags of [`tags_of`] (`["k8s:ifEnabled", "k8s:minimum"]`); the `usize` is how many rules with the same tags came
/// before it in the same list (two `+k8s:validateFalse` lines on a field: the second rule links the second line).
pub(crate) type TagLink<'a> = &'a dyn Fn(&TypeKey, Option<&str>, &[&str], usize) -> Option<String>;

/// A rule with the names of the tags it comes from ([`tags_of`]).
type Sourced = (Rule, Vec<&'static str>);

/// The names of the tags a check comes from, outermost first: its own, then down through wrappers of one check
/// (`ifEnabled`, `subfield`, `item`, `eachVal` …) those of the check inside — `+k8s:ifEnabled(X)=+k8s:minimum=1` is
/// `["k8s:ifEnabled", "k8s:minimum"]`, which tells its line from the `+k8s:ifEnabled(X)=+k8s:optional` beside it. A
/// field-path constraint (vgc's extension) carries no tag in the plan: its kind names it (`k8s:exclusiveMinimum`).
fn tags_of(c: &vgc_lowering::plan::Check) -> Vec<&'static str> {
    use vgc_runtime::extensions::ConstraintKind;
    let name = |c: &vgc_lowering::plan::Check| match (&c.kind, c.tag) {
        (_, Some(t)) => Some(t.name()),
        (vgc_lowering::plan::CheckKind::FieldConstraint(p), None) => Some(match p.kind {
            ConstraintKind::Minimum => "k8s:minimum",
            ConstraintKind::Maximum => "k8s:maximum",
            ConstraintKind::ExclusiveMinimum => "k8s:exclusiveMinimum",
            ConstraintKind::ExclusiveMaximum => "k8s:exclusiveMaximum",
        }),
        _ => None,
    };
    let mut out: Vec<&'static str> = name(c).into_iter().collect();
    let mut at = c;
    while let [inner] = at.children()[..] {
        out.extend(name(inner).filter(|t| out.last() != Some(t)));
        at = inner;
    }
    out
}

/// Where the links of a hover point.
pub(crate) struct Links<'a> {
    /// The URI (with a `#Lline` fragment) of a type's declaration.
    pub(crate) ty: &'a dyn Fn(&TypeKey) -> Option<String>,
    /// The URI of the tag line of the tags named on field `Some(go field)` of a struct, or on a type (`None`: its own
    /// tags, then its fields').
    pub(crate) tag: TagLink<'a>,
}

/// A rule as a Markdown list item: its level in front (`beta: at most 10 items`), then a link to the tag line it
/// comes from (`link`), named after the tag.
fn item(r: &Rule, link: Option<(&str, String)>) -> String {
    let at = match link {
        Some((name, uri)) => format!(" ([`+{name}`]({uri}))"),
        None => String::new(),
    };
    match r.stability {
        Some(level) => format!("- {level}: {}{at}\n", r.text),
        None => format!("- {}{at}\n", r.text),
    }
}

/// For each item (a list of tag names, with where it is written), how many equal items come before it.
fn repeats<T: PartialEq>(items: &[T]) -> Vec<usize> {
    items
        .iter()
        .enumerate()
        .map(|(i, t)| items[..i].iter().filter(|u| *u == t).count())
        .collect()
}

/// [`repeats`] of the tags of sourced rules.
fn repeats_of(rules: &[Sourced]) -> Vec<usize> {
    let tags: Vec<Vec<&'static str>> = rules.iter().map(|(_, t)| t.clone()).collect();
    repeats(&tags)
}

/// Starts a section of a hover: one blank line before it.
fn section(md: &mut String) {
    if !md.ends_with("\n\n") {
        md.push('\n');
    }
}

/// Whether the value of `t` is a map (through a pointer).
fn is_map(t: &RustTy) -> bool {
    match t {
        RustTy::Option(i, _) => is_map(i),
        RustTy::Map(_) => true,
        _ => false,
    }
}

/// The typedef `ty` names (through a pointer), with its own rules, when it has any: what upstream runs on the value
/// (its `Validate_<Typedef>`). Only that first link: validation-gen resolves a typedef of a typedef to the underlying
/// type and never applies the next typedef's tags (`VGC0313`, the KEP's n-deep typedef problem), so listing the
/// chain would promise rules nothing enforces.
fn typedef_rules(
    ty: &RustTy,
    all: &BTreeMap<&TypeKey, &TypePlan>,
    cx: &Context<'_>,
) -> Vec<(TypeKey, Vec<Sourced>)> {
    let Some(k) = ty.named() else {
        return Vec::new();
    };
    match all.get(k) {
        Some(t) if t.fields.is_none() && !t.checks.is_empty() => vec![(
            k.clone(),
            t.checks
                .iter()
                .map(|c| (words::rule(c, cx), tags_of(c)))
                .collect(),
        )],
        _ => Vec::new(),
    }
}

/// The Markdown of the effective rules of field `field` (its Go field name) of struct `key`, or of the type `key`
/// itself when `field` is `None`; `None` when the plan does not hold the type (not reachable from a root, or the
/// check failed before lowering). Each typedef and struct the rules come from links to its declaration, each rule to
/// the tag line it comes from ([`Links`]).
#[must_use]
pub(crate) fn hover(
    plan: &CratePlan,
    key: &TypeKey,
    field: Option<&str>,
    links: &Links<'_>,
) -> Option<String> {
    let named = |k: &TypeKey| match (links.ty)(k) {
        Some(uri) => format!("[`{}`]({uri})", k.name),
        None => format!("`{}`", k.name),
    };
    let tag_link = |k: &TypeKey, field: Option<&str>, names: &[&'static str], nth: usize| {
        let name = *names.first()?;
        (links.tag)(k, field, names, nth).map(|uri| (name, uri))
    };
    let all: BTreeMap<&TypeKey, &TypePlan> = plan
        .modules
        .iter()
        .flat_map(|m| m.types.iter().map(|t| (&t.key, t.as_ref())))
        .collect();
    let t = all.get(key)?;
    let json_of: BTreeMap<String, String> = t
        .fields
        .iter()
        .flatten()
        .map(|f| (f.go_field.clone(), f.json_name.clone()))
        .collect();
    let json_name = |go: &str| json_of.get(go).cloned().unwrap_or_else(|| go.to_string());
    let mut md = String::new();
    let Some(name) = field else {
        let type_elems = words::elem_json_names(&all, t.alias_of.as_ref());
        let elem_json = |go: &str| {
            type_elems
                .get(go)
                .cloned()
                .unwrap_or_else(|| go.to_string())
        };
        let cx = Context {
            json_name: &json_name,
            elem_json_name: &elem_json,
            map: t.alias_of.as_ref().is_some_and(is_map),
        };
        md.push_str(&format!(
            "**{}** — rules under upstream {}\n\n",
            key.name, plan.upstream
        ));
        if t.checks.is_empty() {
            md.push_str("No rules of its own.\n");
        }
        let tags: Vec<Vec<&'static str>> = t.checks.iter().map(tags_of).collect();
        for ((c, ids), nth) in t.checks.iter().zip(&tags).zip(repeats(&tags)) {
            md.push_str(&item(&words::rule(c, &cx), tag_link(key, None, ids, nth)));
        }
        // A typedef of a typedef: upstream applies only this one's own rules (`VGC0313` names what is lost).
        if let Some(a) = &t.alias_of
            && let Some((td, _)) = typedef_rules(a, &all, &cx).first()
        {
            md.push_str(&format!(
                "\nNot through typedef {}: validation-gen does not apply its rules to {}'s values (VGC0313).\n",
                named(td),
                key.name
            ));
        }
        return Some(md);
    };
    let f = t.fields.iter().flatten().find(|f| f.go_field == name)?;
    let elems = words::elem_json_names(&all, Some(&f.ty));
    let elem_json = |go: &str| elems.get(go).cloned().unwrap_or_else(|| go.to_string());
    let cx = Context {
        json_name: &json_name,
        elem_json_name: &elem_json,
        map: is_map(&f.ty),
    };
    // A field serialized inline (embedded) has no JSON name: its Go member name (`TypeMeta`, not `metav1.TypeMeta`).
    let shown = if f.json_name.is_empty() {
        &f.go_field
    } else {
        &f.json_name
    };
    md.push_str(&format!(
        "**{}.{shown}** — rules under upstream {}\n\n",
        key.name, plan.upstream
    ));
    let own: Vec<Sourced> = f
        .checks
        .iter()
        .map(|c| (words::rule(c, &cx), tags_of(c)))
        .collect();
    let through = typedef_rules(&f.ty, &all, &cx);
    // Struct-level rules of the enclosing type naming this field (unions, modes, dependent fields, subfields).
    let tcx = Context {
        json_name: &json_name,
        elem_json_name: &elem_json,
        map: false,
    };
    // A mode's rules name their member; its discriminator is involved too (the rules follow its value). Each rule
    // links from the field its tags are written on (the member's `ifMode`).
    let discriminates = |c: &vgc_lowering::plan::Check| match &c.kind {
        vgc_lowering::plan::CheckKind::Discriminated(m) if m.discriminator.field == f.go_field => {
            Some(m.member.go.clone())
        }
        _ => None,
    };
    let with: Vec<(Rule, Vec<&'static str>, String)> = t
        .checks
        .iter()
        .filter_map(|c| {
            let r = words::rule(c, &tcx);
            let on = match discriminates(c) {
                Some(member) => member,
                None if r.fields.iter().any(|n| n == shown) => f.go_field.clone(),
                None => return None,
            };
            Some((r, tags_of(c), on))
        })
        .collect();
    if own.is_empty() && through.is_empty() && with.is_empty() {
        md.push_str("No rules.\n");
    }
    for ((r, ids), nth) in own.iter().zip(repeats_of(&own)) {
        md.push_str(&item(r, tag_link(key, Some(&f.go_field), ids, nth)));
    }
    for (td, rules) in &through {
        section(&mut md);
        md.push_str(&format!("Through its type, typedef {}:\n", named(td)));
        for ((r, ids), nth) in rules.iter().zip(repeats_of(rules)) {
            md.push_str(&item(r, tag_link(td, None, ids, nth)));
        }
    }
    if !with.is_empty() {
        section(&mut md);
        md.push_str(&format!("With its siblings in {}:\n", named(key)));
        // A struct-level rule naming this field (`ifMode`, a union member) is written on the field, mostly.
        let keys: Vec<(&Vec<&'static str>, &String)> =
            with.iter().map(|(_, t, on)| (t, on)).collect();
        for ((r, ids, on), nth) in with.iter().zip(repeats(&keys)) {
            let link = tag_link(key, Some(on), ids, nth).or_else(|| tag_link(key, None, ids, nth));
            md.push_str(&item(r, link));
        }
    }
    if let Some(k) = f.ty.named()
        && all.get(k).is_some_and(|t| t.fields.is_some())
    {
        section(&mut md);
        // An embedded field's name is its type's: the type cannot be hovered apart, so its rules come here.
        match hover(plan, k, None, links) {
            Some(of_type) if f.go_field == k.name => {
                md.push_str(&format!("Its value is validated as {}:\n\n", named(k)));
                md.push_str(&of_type);
            }
            _ => md.push_str(&format!(
                "Its value is validated as {} (hover that type for its rules).\n",
                named(k)
            )),
        }
    }
    Some(md)
}
