//! Which fields of an API tree its declarative rules read, from the lowered plan — the half of the server-defaulting
//! oracle (`tests/tests/server_defaults_oracle.rs`) that says which of the fields the API server's hand-written
//! defaulting sets matter to validation.
//!
//! A field (declaring struct, Go field name) is *read* when a rule's outcome can depend on its value or presence:
//!
//! - the field has a check of its own (any: `optional`/`required` presence included, `eachVal`, wrappers);
//! - its type (through pointers, lists, maps) is a named type with validations (`TypePlan::has_validations`:
//!   a typedef's `enum`, a struct with rules below) — the value is validated as a whole;
//! - a check reaches it as a member: `subfield` chains (each step's member, through typedefs), union and
//!   zero-or-one-of members and discriminators, modes (member and discriminator), dependent fields, list-map keys
//!   (`listType=map` uniqueness, `update`, `eachVal`'s matcher), `item` and list-union selectors, field-path
//!   constraints and virtual-group members (every step);
//! - it lies anywhere inside a value a check reads whole: a `customValidation` function's value, the items of a
//!   `listType=set` list.
//!
//! Update-only comparisons (ratcheting, `immutable`, `update`) are not counted: the old object is defaulted as the
//! new one is.
//!
//! The walk follows each wrapper's value type: `subfield` to its member's type, `eachVal` to the element type,
//! `item` to the element, modes to the member.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use vgc_analysis::TypeKey;
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{Check, CheckKind, Matcher, PathStep, RustTy, Selector, TypePlan};

/// A struct field: the declaring struct's key and the Go field name (an embedded field's is its type name).
pub type FieldRef = (TypeKey, String);

struct Reads<'p> {
    types: BTreeMap<&'p TypeKey, &'p TypePlan>,
    out: BTreeSet<FieldRef>,
}

impl<'p> Reads<'p> {
    /// The struct a value of `ty` is (through one pointer and typedef chains).
    fn struct_of(&self, ty: &'p RustTy) -> Option<&'p TypePlan> {
        let mut t = ty;
        for _ in 0..32 {
            t = match t {
                RustTy::Option(i, _) => i,
                RustTy::Named(k) => {
                    let p = self.types.get(k)?;
                    match (&p.fields, &p.alias_of) {
                        (Some(_), _) => return Some(p),
                        (None, Some(a)) => a,
                        (None, None) => return None,
                    }
                }
                _ => return None,
            };
        }
        None
    }

    /// The element type of a list or map value of `ty` (through pointers and typedefs).
    fn elem_of(&self, ty: &'p RustTy) -> Option<&'p RustTy> {
        let mut t = ty;
        for _ in 0..32 {
            t = match t {
                RustTy::Option(i, _) => i,
                RustTy::Vec(e) | RustTy::Map(e) => return Some(e),
                RustTy::Named(k) => self.types.get(k)?.alias_of.as_ref()?,
                _ => return None,
            };
        }
        None
    }

    fn add(&mut self, owner: Option<&TypePlan>, go: &str) {
        if let Some(t) = owner {
            self.out.insert((t.key.clone(), go.to_string()));
        }
    }

    fn matcher(&mut self, m: &Matcher, elem: Option<&'p RustTy>) {
        if let Matcher::Keys(keys) = m {
            let owner = elem.and_then(|e| self.struct_of(e));
            for k in keys {
                self.add(owner, k);
            }
        }
    }

    fn selector(&mut self, s: &Selector, elem: Option<&'p RustTy>) {
        let owner = elem.and_then(|e| self.struct_of(e));
        for (k, _, _) in s {
            self.add(owner, k);
        }
    }

    /// Every step of a path from struct `from` (each step's field of the struct it is in).
    fn steps(&mut self, from: Option<&'p TypePlan>, steps: &'p [PathStep]) {
        let mut cur = from;
        for s in steps {
            let Some(t) = cur else { return };
            self.add(Some(t), &s.go);
            cur = t
                .fields
                .iter()
                .flatten()
                .find(|f| f.go_field == s.go)
                .and_then(|f| self.struct_of(&f.ty));
        }
    }

    /// Every field of a value of `ty`, at every depth (a check that reads the whole value: a `customValidation`
    /// function, `listType=set` uniqueness).
    fn whole(&mut self, ty: &'p RustTy, seen: &mut BTreeSet<&'p TypeKey>) {
        match ty {
            RustTy::Option(i, _) | RustTy::Vec(i) | RustTy::Map(i) => self.whole(i, seen),
            RustTy::Named(k) => {
                let Some(t) = self.types.get(k).copied() else {
                    return;
                };
                if !seen.insert(&t.key) {
                    return;
                }
                if let Some(a) = &t.alias_of {
                    self.whole(a, seen);
                }
                for f in t.fields.iter().flatten() {
                    self.out.insert((t.key.clone(), f.go_field.clone()));
                    self.whole(&f.ty, seen);
                }
            }
            RustTy::Builtin(_) | RustTy::WellKnown(_) | RustTy::Json => {}
        }
    }

    /// Check `c` on a value of type `ty`.
    fn check(&mut self, c: &'p Check, ty: &'p RustTy) {
        let here = || self.struct_of(ty);
        match &c.kind {
            CheckKind::Subfield(s) => {
                let owner = here();
                self.add(owner, &s.member.go);
                self.check(&s.inner, &s.member.ty);
            }
            CheckKind::IfOption(io) => self.check(&io.inner, ty),
            CheckKind::IfSubresource(is) => self.check(&is.inner, ty),
            CheckKind::EachVal(inner, m, _) => {
                let elem = self.elem_of(ty);
                self.matcher(m, elem);
                if let Some(e) = elem {
                    for i in inner {
                        self.check(i, e);
                    }
                }
            }
            CheckKind::Unique(m) | CheckKind::Update(_, m) => {
                let elem = self.elem_of(ty);
                self.matcher(m, elem);
                // `listType=set` compares whole items.
                if let (CheckKind::Unique(Matcher::Set), Some(e)) = (&c.kind, elem) {
                    self.whole(e, &mut BTreeSet::new());
                }
            }
            // A hand-written function may read anything of its value.
            CheckKind::Custom { ty, .. } => self.whole(ty, &mut BTreeSet::new()),
            CheckKind::Item(it) => {
                self.selector(&it.selector, Some(&it.elem));
                self.check(&it.inner, &it.elem);
            }
            CheckKind::ListUnion(lu) => {
                let elem = self.elem_of(ty);
                for (_, s) in &lu.members {
                    self.selector(s, elem);
                }
            }
            CheckKind::Union(u) => {
                let owner = here();
                for m in &u.members {
                    self.add(owner, &m.member.go);
                }
                if let Some(d) = &u.discriminator {
                    self.add(owner, &d.go);
                }
            }
            CheckKind::Dependent(d) => {
                let owner = here();
                self.add(owner, &d.trigger.go);
                self.add(owner, &d.dependent.go);
            }
            CheckKind::Discriminated(m) => {
                let owner = here();
                self.add(owner, &m.member.go);
                self.add(owner, &m.discriminator.field);
                for (_, cs) in &m.rules {
                    for c in cs {
                        self.check(c, &m.member.ty);
                    }
                }
            }
            CheckKind::FieldConstraint(cp) => {
                let owner = here();
                self.steps(owner, &cp.target.steps);
                self.steps(owner, &cp.bound.steps);
            }
            CheckKind::VirtualUnion(v) => {
                let owner = here();
                for m in &v.members {
                    self.steps(owner, &m.steps);
                    if let vgc_lowering::plan::MemberSet::Item { selector, elem, .. } = &m.set {
                        let e = self.types.get(elem).copied();
                        for (k, _, _) in selector {
                            self.add(e, k);
                        }
                    }
                }
            }
            CheckKind::EachKey(_)
            | CheckKind::Required { .. }
            | CheckKind::Optional
            | CheckKind::Forbidden { .. }
            | vgc_lowering::limit_check_kinds!()
            | CheckKind::Format(_)
            | CheckKind::Matches(_)
            | CheckKind::Enum(_)
            | CheckKind::Immutable
            | CheckKind::Monotonic
            | CheckKind::NoNils
            | CheckKind::FixedResult { .. }
            | CheckKind::Neq(_)
            | CheckKind::Eq(_) => {}
        }
    }
}

/// The fields of `plan` some declarative rule reads (module docs), sorted.
#[must_use]
pub fn fields_read(plan: &CratePlan) -> BTreeSet<FieldRef> {
    let types = plan.types_by_key();
    let validated: BTreeSet<&TypeKey> = types
        .iter()
        .filter(|(_, t)| t.has_validations)
        .map(|(k, _)| *k)
        .collect();
    // The value type of each type's own checks, alive as long as the walk borrows from it.
    let own: Vec<RustTy> = plan.types().map(|t| RustTy::Named(t.key.clone())).collect();
    let mut r = Reads {
        types,
        out: BTreeSet::new(),
    };
    for (t, own) in plan.types().zip(&own) {
        for c in &t.checks {
            r.check(c, own);
        }
        for f in t.fields.iter().flatten() {
            let typed =
                vgc_lowering::plan::build_type_key(&f.ty).is_some_and(|k| validated.contains(k));
            if !f.checks.is_empty() || f.no_nils || typed {
                r.out.insert((t.key.clone(), f.go_field.clone()));
            }
            for c in &f.checks {
                r.check(c, &f.ty);
            }
        }
    }
    r.out
}
