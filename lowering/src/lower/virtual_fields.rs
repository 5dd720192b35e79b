//! Virtual fields (vgc extension, `docs/extensions.md`; KEP-5073 "Virtual Field Strategy"): groups of fields and
//! list-map items named per root type (GVK) and checked as unions on their closest common ancestor.
//!
//! `+k8s:memberOf(group: g)` on a field, or `+k8s:listMapItem(k: v, …)=+k8s:memberOf(group: g)` on a list-map
//! field, makes it a member of group `g`; `+k8s:union(union: g)` (exactly one member set) or
//! `+k8s:zeroOrOneOf(union: g)` (at most one) anywhere in the same root type's tree declares the group. KEP-5073
//! scopes the names to the GVK ("Virtual Field Scope"), so the analysis walks each root type's tree on its own
//! ([`virtual_groups`], a whole-program query), gathers each group's members with their paths from the root,
//! and places the group's check on the struct at the longest common prefix of the members' parent paths
//! ("Tag Placement and Hoisting": "All cross-field validations are ultimately hoisted to execute at the common
//! ancestor level"). Generated validation is per Go type, so a check placed on a struct that another root type
//! (or a list item) also reaches without the same group is refused (`VGC0127`: KEP-5073's "Cross-GVK references
//! are NOT supported").

use super::diagnostics::TagDiagnostic;
use super::tags::TagSite;
use super::*;
use crate::plan::{MemberSet, PathStep, VirtualMember, VirtualUnionPlan};
use std::collections::HashMap;
use vgc_ir::checked::Checked as _;

/// The program's virtual groups: the checks they place on each ancestor type (keyed by the named type whose
/// validation function runs them) and the problems found, every one an error. Empty unless extensions are on and
/// some reachable type carries a virtual-field tag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VirtualGroups {
    /// Checks by the type that runs them, ordered by group name.
    pub checks: IndexMap<TypeKey, Vec<Check>>,
    /// Diagnostics (VGC0109, VGC0111, VGC0112, VGC0125–VGC0127), de-duplicated, in walk order.
    pub diagnostics: Vec<Diagnostic>,
}

/// The [`VirtualGroups`] of the database's program: walks every root type's tree once (recursion stopped at a
/// type already on the path). A whole-program query; backdated when its result is unchanged, so the per-type
/// lowerings that read it do not re-run.
#[salsa::tracked(returns(ref))]
pub fn virtual_groups(db: &dyn Db) -> VirtualGroups {
    if !vgc_ir::extension_tags::enabled(db) {
        return VirtualGroups::default();
    }
    let prog = vgc_analysis::loaded_program(db);
    let r = reach(db);
    let any = r.types.iter().any(|k| {
        prog.type_decl(db, k).is_some_and(|(d, _)| {
            has_virtual(&d.tags) || d.fields.iter().any(|f| has_virtual(&f.tags))
        })
    });
    if !any {
        return VirtualGroups::default();
    }
    // Not counting: the tag uses are counted by the lowering of the types declaring them.
    let mut l = Lowerer {
        counting: false,
        ..Lowerer::new(db, prog, r)
    };
    let mut walks = Vec::new();
    for root in &r.roots {
        let mut w = Walk {
            root: root.clone(),
            decls: IndexMap::new(),
            members: IndexMap::new(),
            hidden: IndexMap::new(),
            attempted: std::collections::BTreeSet::new(),
            occurrences: Vec::new(),
        };
        let mut stack = vec![root.clone()];
        l.walk(&mut w, root, &Position::default(), &mut stack);
        walks.push(w);
    }
    let checks = l.place(&walks);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for d in l.diags {
        if !diagnostics.contains(&d) {
            diagnostics.push(d);
        }
    }
    VirtualGroups {
        checks,
        diagnostics,
    }
}

/// Whether `tags` hold a virtual-field tag written directly.
fn has_virtual(tags: &[TagUse]) -> bool {
    tags.iter().any(|u| {
        u.parsed.as_ref().is_ok_and(|t| {
            matches!(
                t.tag_id(),
                Some(TagId::MemberOf | TagId::ListMapItem | TagId::Union | TagId::ZeroOrOneOf)
            )
        })
    })
}

/// Where a tag use is written.
#[derive(Debug, Clone)]
struct Site {
    file: SourceFile,
    at: vgc_ir::model::SpanId,
    /// The declaration it is written on (`Struct.Field` or `Type`), for messages.
    on: String,
}

/// A group declaration (`union`/`zeroOrOneOf`).
#[derive(Debug, Clone)]
struct Decl {
    kind: UnionKind,
    site: Site,
}

/// A member found in one root type's tree.
#[derive(Debug, Clone)]
struct Found {
    /// Fields from the root to the member's field (the last step).
    steps: Vec<PathStep>,
    /// For each step, the named type whose declaration (or typedef'd struct) holds it.
    types: Vec<TypeKey>,
    /// The struct declaring the last step.
    holder: TypeKey,
    set: MemberSet,
    /// For an item, its selector as upstream prints it (`{"type": "Failed"}`).
    item: Option<String>,
    site: Site,
}

/// The position of a struct in a root type's tree.
#[derive(Debug, Clone, Default)]
struct Position {
    steps: Vec<PathStep>,
    types: Vec<TypeKey>,
    /// Inside the items of this list or map field (JSON path), if any.
    in_items: Option<String>,
}

/// One root type's tree: its declarations, members and where each named struct type occurs.
#[derive(Debug)]
struct Walk {
    root: TypeKey,
    decls: IndexMap<String, Vec<Decl>>,
    members: IndexMap<String, Vec<Found>>,
    /// Groups declared on a struct's type tags that a typedef of it hides (gengo reads a typedef's own type tags):
    /// group → (the struct, the typedef), for the hint of "does not declare".
    hidden: IndexMap<String, (String, String)>,
    /// Groups named by a member tag that was refused (so "no member" is not reported for them).
    attempted: std::collections::BTreeSet<String>,
    /// (type, steps from the root, inside list or map items).
    occurrences: Vec<(TypeKey, Vec<PathStep>, bool)>,
}

/// A group's check, placed on `anc` at `prefix` of walk `walk`.
struct Placement {
    walk: usize,
    anc: TypeKey,
    prefix: Vec<PathStep>,
    check: Check,
    site: Site,
    group: String,
}

fn dotted(steps: &[PathStep]) -> String {
    steps
        .iter()
        .filter(|s| !s.json.is_empty())
        .map(|s| s.json.as_str())
        .collect::<Vec<_>>()
        .join(".")
}

fn kind_word(k: UnionKind) -> &'static str {
    match k {
        UnionKind::Union => "union",
        UnionKind::ZeroOrOneOf => "zeroOrOneOf",
    }
}

impl Lowerer<'_> {
    /// Walks the struct of named type `k` at `pos` of `w`'s tree: records the occurrence, the declarations and
    /// members written on it and its fields, and descends into struct fields (through pointers and typedef chains)
    /// and list and map items (marked, so members there are refused).
    fn walk(&mut self, w: &mut Walk, k: &TypeKey, pos: &Position, stack: &mut Vec<TypeKey>) {
        let Native::Struct(sk) = types::native(self.db, self.prog, &Ty::Named(k.clone())) else {
            return;
        };
        let (Some((decl, file)), Some((sd, sfile))) = (
            self.prog.type_decl(self.db, k),
            self.prog.type_decl(self.db, &sk),
        ) else {
            return;
        };
        w.occurrences
            .push((k.clone(), pos.steps.clone(), pos.in_items.is_some()));
        // The named type's own tags (gengo: `type E T` has `E`'s type tags, not `T`'s).
        for u in &decl.tags {
            if let Ok(t) = &u.parsed
                && let Some(kind) = decl_kind(t)
                && let Some(g) = t.str_arg("union").map(str::to_string)
            {
                let site = Site {
                    file,
                    at: u.at,
                    on: k.name.clone(),
                };
                if self.named(&site, t, &g) {
                    w.decls
                        .entry(g.clone())
                        .or_default()
                        .push(Decl { kind, site });
                }
            }
        }
        if sk != *k {
            for u in &sd.tags {
                if let Ok(t) = &u.parsed
                    && decl_kind(t).is_some()
                    && let Some(g) = t.str_arg("union").map(str::to_string)
                {
                    w.hidden
                        .entry(g.clone())
                        .or_insert_with(|| (sk.name.clone(), k.name.clone()));
                }
            }
        }
        for f in &sd.fields {
            let (step, fty) = self.path_step(&sk, sfile, f);
            let go = f.member_name();
            let on = format!("{}.{go}", sk.name);
            let skip = f.json.as_ref().is_some_and(|j| j.skip);
            for u in &f.tags {
                let Ok(t) = &u.parsed else { continue };
                let site = Site {
                    file: sfile,
                    at: u.at,
                    on: on.clone(),
                };
                match t.tag_id() {
                    Some(TagId::Union | TagId::ZeroOrOneOf) => {
                        if let (Some(kind), Some(g)) =
                            (decl_kind(t), t.str_arg("union").map(str::to_string))
                            && self.named(&site, t, &g)
                        {
                            w.decls
                                .entry(g.clone())
                                .or_default()
                                .push(Decl { kind, site });
                        }
                    }
                    Some(TagId::MemberOf) => {
                        let Some(g) = t.str_arg("group").map(str::to_string) else {
                            continue;
                        };
                        if !self.named(&site, t, &g) {
                            continue;
                        }
                        let shape = self.shape(&fty);
                        let ok = self.member_placement_ok(&site, pos, skip || step.json.is_empty())
                            && self.member_kind_ok(&site, &shape);
                        if !ok {
                            w.attempted.insert(g.clone());
                            continue;
                        }
                        let found =
                            self.found(pos, &step, k, &sk, MemberSet::Field(shape), None, site);
                        w.members.entry(g.clone()).or_default().push(found);
                    }
                    Some(TagId::ListMapItem) => {
                        let payload = t.inner().filter(|p| p.is_tag(TagId::MemberOf));
                        let Some(g) = payload.and_then(|p| p.str_arg("group")).map(str::to_string)
                        else {
                            if t.inner().is_some() && payload.is_none() {
                                self.err(
                                    sfile,
                                    u.at,
                                    Code::VirtualFieldPlacement,
                                    format!("{on}: tag \"k8s:listMapItem\": its payload must be `+k8s:memberOf(group: …)`"),
                                    Some("`listMapItem` names a list-map item as a virtual field; to validate the item itself use upstream's `+k8s:item(k: v)=<tag>`".into()),
                                );
                            }
                            continue;
                        };
                        if !self.named(&site, t, &g) {
                            continue;
                        }
                        // Refused below or not, the group has a member written.
                        w.attempted.insert(g.clone());
                        if !self.member_placement_ok(&site, pos, skip || step.json.is_empty()) {
                            continue;
                        }
                        let what = Subject::field(&sk.name, &go);
                        let n = self.diags.len();
                        let matcher = self.matcher_for(sfile, f.at, &what, &f.tags, &fty);
                        self.diags.truncate(n);
                        let Matcher::Keys(keys) = matcher else {
                            self.report(
                                sfile,
                                u.at,
                                &what,
                                LowerDiagnostic::ItemsWithoutListMetadata,
                            );
                            continue;
                        };
                        let Some(sel) = self.item_selector(&sk, sfile, u.at, &go, t, &keys, &fty)
                        else {
                            continue;
                        };
                        // Keys in `listMapKey` order: one item however its keys are written.
                        let (selector, cohort) = sel.keyed;
                        let set = MemberSet::Item {
                            selector,
                            ptr_elems: sel.ptr_elems,
                            elem: sel.elem_key,
                        };
                        let found = self.found(pos, &step, k, &sk, set, Some(cohort), site);
                        w.members.entry(g.clone()).or_default().push(found);
                    }
                    _ => {}
                }
            }
            if skip {
                continue;
            }
            // Descend: a struct field (one pointer, typedef chains), or the struct items of a list or map.
            let inner = match &fty {
                Ty::Pointer(i) => i.as_ref().clone(),
                t => t.clone(),
            };
            let (child, in_items) = match types::native(self.db, self.prog, &inner) {
                Native::Struct(_) => (inner, pos.in_items.clone()),
                Native::Other(Ty::Slice(e) | Ty::Map(_, e)) => {
                    let e = match *e {
                        Ty::Pointer(i) => *i,
                        t => t,
                    };
                    let mut path = pos.steps.clone();
                    path.push(step.clone());
                    (e, pos.in_items.clone().or(Some(dotted(&path))))
                }
                _ => continue,
            };
            let Ty::Named(ck) = child else { continue };
            if stack.contains(&ck)
                || !matches!(
                    types::native(self.db, self.prog, &Ty::Named(ck.clone())),
                    Native::Struct(_)
                )
            {
                continue;
            }
            let mut next = pos.clone();
            next.steps.push(step);
            next.types.push(k.clone());
            next.in_items = in_items;
            stack.push(ck.clone());
            self.walk(w, &ck, &next, stack);
            stack.pop();
        }
    }

    /// An error at the tag use `site` (every refusal of this module has a hint).
    fn site_err(&mut self, site: &Site, code: Code, msg: String, hint: Option<String>) {
        self.err(site.file, site.at, code, msg, hint);
    }

    /// VGC0109 for an empty group name (`union: ""`, `group: ""`); `true` when `g` is a name.
    fn named(&mut self, site: &Site, t: &Tag, g: &str) -> bool {
        if !g.trim().is_empty() {
            return true;
        }
        self.site_err(
            site,
            Code::InvalidPayload,
            format!("{}: tag {:?}: the group name is empty", site.on, t.name),
            Some("name the group (`+k8s:memberOf(group: terminalStatus)`, `+k8s:union(union: terminalStatus)`)".into()),
        );
        false
    }

    /// VGC0126 for a member field that is a struct by value (never unset), as upstream's union members refuse it
    /// (`can only be used on nilable and primitive types`); `true` when its kind can be a member.
    fn member_kind_ok(&mut self, site: &Site, shape: &Shape) -> bool {
        if !shape.is_value_struct() {
            return true;
        }
        self.site_err(
            site,
            Code::VirtualFieldPlacement,
            format!(
                "{}: a virtual field must be able to be unset: a struct by value is always present",
                site.on
            ),
            Some("make the field a pointer (`*T`), as upstream's union members require (nilable or primitive types)".into()),
        );
        false
    }

    /// VGC0126 for a member inside list or map items, or on a field without a JSON name; `true` when it may be one.
    fn member_placement_ok(&mut self, site: &Site, pos: &Position, no_json: bool) -> bool {
        let (problem, hint) = if let Some(list) = &pos.in_items {
            (
                format!(
                    "it is inside the items of `{list}`, so it would name one field per item, not one field of the object"
                ),
                "for a union within each item use upstream's `+k8s:unionMember`/`+k8s:zeroOrOneOfMember` on the item's fields; to name one item of a list-map use `+k8s:listMapItem(k: v)=+k8s:memberOf(group: …)` on the list",
            )
        } else if no_json {
            (
                "the field has no JSON name (`json:\"-\"` or inline), so no path to name it by"
                    .into(),
                "give the field a JSON name, or tag the fields of the inline struct",
            )
        } else {
            return true;
        };
        self.site_err(
            site,
            Code::VirtualFieldPlacement,
            format!(
                "{}: a virtual field must be one field of the object: {problem}",
                site.on
            ),
            Some(hint.into()),
        );
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn found(
        &self,
        pos: &Position,
        step: &PathStep,
        named: &TypeKey,
        holder: &TypeKey,
        set: MemberSet,
        item: Option<String>,
        site: Site,
    ) -> Found {
        let mut steps = pos.steps.clone();
        steps.push(step.clone());
        let mut types = pos.types.clone();
        types.push(named.clone());
        Found {
            steps,
            types,
            holder: holder.clone(),
            set,
            item,
            site,
        }
    }
}

/// The group kind a declaration tag states.
fn decl_kind(t: &Tag) -> Option<UnionKind> {
    match t.tag_id()? {
        TagId::Union => Some(UnionKind::Union),
        TagId::ZeroOrOneOf => Some(UnionKind::ZeroOrOneOf),
        _ => None,
    }
}

impl Lowerer<'_> {
    /// Matches each root type's members with its declarations (VGC0125 for what does not match), places each
    /// group's check on its members' closest common ancestor, and keeps the placements that every occurrence of
    /// the ancestor type agrees with (VGC0127 for the others).
    fn place(&mut self, walks: &[Walk]) -> IndexMap<TypeKey, Vec<Check>> {
        let mut placed: Vec<Placement> = Vec::new();
        for (wi, w) in walks.iter().enumerate() {
            let root = &w.root.name;
            for (g, ds) in &w.decls {
                // The same declaration written twice (a type reached twice is the same tag, not a repeat).
                for (i, d) in ds.iter().enumerate() {
                    if ds[..i]
                        .iter()
                        .any(|e| e.site.on == d.site.on && e.site.at != d.site.at)
                    {
                        self.site_err(
                            &d.site,
                            Code::VirtualGroupUnknown,
                            format!("{}: group {g:?} is declared again (by another tag of the same declaration)", d.site.on),
                            Some("remove the repeated tag".into()),
                        );
                    }
                }
                if let Some(other) = ds.iter().find(|d| d.kind != ds[0].kind) {
                    self.site_err(
                        &other.site,
                        Code::VirtualGroupUnknown,
                        format!(
                            "{}: group {g:?} of root type {root} is declared both `{}` (on {}) and `{}`",
                            other.site.on,
                            kind_word(ds[0].kind),
                            ds[0].site.on,
                            kind_word(other.kind)
                        ),
                        Some("declare each group once: `union` (exactly one member set) or `zeroOrOneOf` (at most one)".into()),
                    );
                }
                if !w.members.contains_key(g) && !w.attempted.contains(g) {
                    let d = &ds[0];
                    self.site_err(
                        &d.site,
                        Code::VirtualGroupUnknown,
                        format!(
                            "{}: group {g:?} is declared, but no field in root type {root}'s tree is `+k8s:memberOf(group: {g:?})`",
                            d.site.on
                        ),
                        Some("tag its members with `+k8s:memberOf(group: …)` (fields) or `+k8s:listMapItem(k: v)=+k8s:memberOf(group: …)` (list-map items) in the same root type's tree".into()),
                    );
                }
            }
            for (g, ms) in &w.members {
                let Some(ds) = w.decls.get(g) else {
                    let names: Vec<String> = w.decls.keys().cloned().collect();
                    let hint = match (w.hidden.get(g), super::constraints::did_you_mean(g, &names))
                    {
                        (Some((st, td)), _) => format!(
                            "it is declared on {st}'s type tags, which do not apply through the typedef {td} (a typedef has its own type tags, as upstream reads them); "
                        ),
                        (None, Some(s)) => format!("did you mean {s:?}? Otherwise "),
                        (None, None) => String::new(),
                    };
                    for m in ms {
                        self.site_err(
                            &m.site,
                            Code::VirtualGroupUnknown,
                            format!(
                                "{}: `memberOf` names group {g:?}, which root type {root} does not declare",
                                m.site.on
                            ),
                            Some(format!("{hint}declare it with `+k8s:union(union: {g:?})` or `+k8s:zeroOrOneOf(union: {g:?})` on a type or field of root type {root}'s tree; group names are scoped to one root type (GVK, KEP-5073), so another kind's declaration does not count")),
                        );
                    }
                    continue;
                };
                // A field (or item) tagged twice for one group is one member; the second tag is refused.
                let mut unique: Vec<&Found> = Vec::new();
                for m in ms {
                    match unique.iter().find(|u| u.steps == m.steps && u.set == m.set) {
                        Some(_) => {
                            self.site_err(
                                &m.site,
                                Code::VirtualGroupUnknown,
                                format!(
                                    "{}: it is already a member of group {g:?} (by another `memberOf` tag of the same field or item)",
                                    m.site.on
                                ),
                                Some("remove the repeated tag".into()),
                            );
                        }
                        None => unique.push(m),
                    }
                }
                let ms = unique;
                // The longest common prefix of the members' parent paths.
                let parents: Vec<&[PathStep]> =
                    ms.iter().map(|m| &m.steps[..m.steps.len() - 1]).collect();
                let mut p = 0;
                while parents.iter().all(|s| s.len() > p && s[p] == parents[0][p]) {
                    p += 1;
                }
                let members = ms
                    .iter()
                    .map(|m| {
                        let rel = m.steps[p..].to_vec();
                        let mut name = dotted(&rel);
                        if let Some(item) = &m.item {
                            name = format!("{name}[{item}]");
                        }
                        VirtualMember {
                            name,
                            steps: rel,
                            holder: m.holder.clone(),
                            set: m.set.clone(),
                        }
                    })
                    .collect();
                placed.push(Placement {
                    walk: wi,
                    anc: ms[0].types[p].clone(),
                    prefix: ms[0].steps[..p].to_vec(),
                    check: Check {
                        kind: CheckKind::VirtualUnion(Box::new(VirtualUnionPlan {
                            kind: ds[0].kind,
                            group: g.clone(),
                            members,
                        })),
                        short_circuit: false,
                        non_error: false,
                        stability: None,
                        tag: Some(TagId::MemberOf),
                        cohort: None,
                    },
                    site: ms[0].site.clone(),
                    group: g.clone(),
                });
            }
        }
        // Every occurrence of an ancestor type must run the same groups.
        let mut at: HashMap<(usize, &TypeKey, &[PathStep]), Vec<&Check>> = HashMap::new();
        for pl in &placed {
            at.entry((pl.walk, &pl.anc, &pl.prefix))
                .or_default()
                .push(&pl.check);
        }
        // Per type: (walk, steps from its root, inside list or map items).
        type Occurrence<'w> = (usize, &'w [PathStep], bool);
        let mut occurrences: HashMap<&TypeKey, Vec<Occurrence<'_>>> = HashMap::new();
        for (wi, w) in walks.iter().enumerate() {
            for (t, steps, in_items) in &w.occurrences {
                occurrences
                    .entry(t)
                    .or_default()
                    .push((wi, steps, *in_items));
            }
        }
        let mut checks: IndexMap<TypeKey, Vec<Check>> = IndexMap::new();
        let mut refused = Vec::new();
        for pl in &placed {
            let conflict = occurrences.get(&pl.anc).and_then(|occ| {
                occ.iter().find(|(wi, steps, in_items)| {
                    *in_items
                        || !at
                            .get(&(*wi, &pl.anc, *steps))
                            .is_some_and(|cs| cs.contains(&&pl.check))
                })
            });
            if let Some((wi, steps, in_items)) = conflict {
                let where_ = match (dotted(steps), in_items) {
                    (p, true) => format!("in the items below `{p}`"),
                    (p, false) if p.is_empty() => "as the root".to_string(),
                    (p, false) => format!("at `{p}`"),
                };
                // What the other root type checks there: the same group name differently, or nothing like it.
                let differently = at
                    .get(&(*wi, &pl.anc, *steps))
                    .into_iter()
                    .flatten()
                    .find_map(|c| match &c.kind {
                        CheckKind::VirtualUnion(v) if v.group == pl.group => Some(v),
                        _ => None,
                    });
                let there = match (differently, &pl.check.kind) {
                    (Some(v), CheckKind::VirtualUnion(mine)) if v.kind != mine.kind => format!(
                        "where its group {:?} is declared `{}`, not `{}`",
                        pl.group,
                        kind_word(v.kind),
                        kind_word(mine.kind)
                    ),
                    (Some(_), _) => format!("where its group {:?} has other members", pl.group),
                    (None, _) => "where no group with these members is checked".to_string(),
                };
                refused.push((
                    pl.site.clone(),
                    format!(
                        "{}: group {:?} of root type {} would be checked on {}, the closest struct holding all its members, but root type {} also reaches {} ({where_}), {there}",
                        pl.site.on, pl.group, walks[pl.walk].root.name, pl.anc.name, walks[*wi].root.name, pl.anc.name
                    ),
                ));
                continue;
            }
            let list = checks.entry(pl.anc.clone()).or_default();
            if !list.contains(&pl.check) {
                list.push(pl.check.clone());
            }
        }
        for (site, msg) in refused {
            self.site_err(
                &site,
                Code::VirtualGroupCrossesRoots,
                msg,
                Some("virtual groups are scoped to one root type (KEP-5073 rejects cross-GVK references): keep the members in types only that root type reaches, or declare the group alike in every root type that reaches them".into()),
            );
        }
        for list in checks.values_mut() {
            list.sort_by(|a, b| group_of(a).cmp(group_of(b)));
        }
        checks
    }

    /// The virtual-group checks placed on type `k` (counted as checks of its lowering).
    pub(super) fn virtual_checks(&mut self, k: &TypeKey) -> Vec<Check> {
        let checks = virtual_groups(self.db)
            .checks
            .get(k)
            .cloned()
            .unwrap_or_default();
        if self.counting {
            self.stats.checks += checks.len();
        }
        checks
    }
}

fn group_of(c: &Check) -> &str {
    match &c.kind {
        CheckKind::VirtualUnion(v) => &v.group,
        _ => "",
    }
}

impl Lowerer<'_> {
    /// vgc extension (KEP-5073 "Virtual Field Strategy") `memberOf`, `listMapItem`, `union`,
    /// `zeroOrOneOf` where the dispatcher meets them: accepted where the virtual-group analysis reads them, else refused.
    pub(super) fn lower_virtual_tag(
        &mut self,
        t: &TagSite<'_>,
        which: vgc_ir::catalog::VirtualTag,
    ) -> Option<Vec<Check>> {
        use vgc_ir::catalog::VirtualTag;
        // All four are read by the virtual-group analysis alike.
        let (VirtualTag::MemberOf
        | VirtualTag::ListMapItem
        | VirtualTag::Union
        | VirtualTag::ZeroOrOneOf) = which;
        let TagSite {
            owner,
            file,
            u,
            tag,
            id,
            ..
        } = *t;
        // Written directly on a field or type they are read by the virtual-group analysis (`virtual_groups`, which
        // places their checks and reports their problems); inside another tag's payload nothing reads them.
        // Extensions off: the use is `check_file`'s VGC0116 (`vgc_ir::extension_tags::disabled`), and nothing of it
        // is lowered (reached here only as a payload another tag's lowering reads again; the declaration's own loop
        // skips the use).
        if !vgc_ir::extension_tags::enabled(self.db) {
            return None;
        }
        if u.parsed.as_ref().is_ok_and(|p| std::ptr::eq(p, tag)) {
            return Some(Vec::new());
        }
        let d = TagDiagnostic::VirtualFieldNested;
        // Named by the field they are written on (`Struct.Field`), as the virtual-group analysis names them.
        let on = field_of(self.prog, self.db, owner, u)
            .map_or_else(|| owner.name.clone(), |f| format!("{}.{f}", owner.name));
        self.err(file, u.at, d.code(), d.message(&on, id), d.hint());
        None
    }
}
