//! The evaluator: one function per piece of `vgc_codegen::emit` (`items`, `iteration`, `checks`, `wrappers`),
//! running the plan where the generated code would run its Rust, with the same runtime calls.

use crate::value::Val;
use crate::{EvalError, Interpreter};
use serde::{Serialize, Serializer};
use std::cell::RefCell;
use std::collections::BTreeMap;
use vgc_analysis::TypeKey;
use vgc_analysis::types::Builtin;
use vgc_ir::catalog::Stability;
use vgc_lowering::plan::{
    Check, CheckKind, FieldPlan, Iteration, Matcher, MemberSet, ModePlan, NeqValue, OptionState,
    RustTy, Selector, Shape, TypePlan, UnionKind, UnionPlan,
};
use vgc_runtime::validate as v;
use vgc_runtime::{ErrorList, ErrorListExt as _, Operation, Path};

/// One evaluation: the plan, the operation and the first evaluation error met (checked by the caller; the runtime's
/// iteration helpers take closures that cannot return one).
pub(crate) struct Cx<'i, 'p> {
    pub(crate) interp: &'i Interpreter<'p>,
    pub(crate) op: &'i Operation,
    pub(crate) failure: RefCell<Option<EvalError>>,
    /// Hand-written validations reached that the interpreter cannot run ([`crate::Unchecked`]), in order.
    pub(crate) unchecked: RefCell<Vec<crate::Unchecked>>,
    /// The package whose type's validation function is running (its project deep-equality function, if any,
    /// decides the comparisons: [`Cx::deep_equal_site`]).
    pub(crate) pkg: std::cell::Cell<&'p str>,
}

/// Where checks run (`vgc_codegen` `Site`): the value's shape, the element type of a list or map value, whether
/// the value is of a named Go type.
#[derive(Clone, Copy)]
struct Site<'p> {
    shape: &'p Shape,
    elem: Option<&'p RustTy>,
    typed: bool,
}

const STRING: Shape = Shape::Scalar {
    ty: Builtin::String,
    pointer: false,
};

/// A list element as the runtime's list validators see it: the value and the list-map keys that identify it.
#[derive(Clone, Copy)]
struct Elem<'a, 'p> {
    v: &'a Val<'p>,
    keys: &'a [String],
}

impl Serialize for Elem<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.v.serialize(s)
    }
}

/// A list or map value for `bad_value_collection`.
struct Coll<'a, 'p>(&'a Val<'p>);

impl Serialize for Coll<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl vgc_runtime::types::Collection for Coll<'_, '_> {
    fn is_empty_collection(&self) -> bool {
        self.0.is_empty()
    }
}

fn keys_match(a: &Elem<'_, '_>, b: &Elem<'_, '_>) -> bool {
    a.keys.iter().all(|k| a.v.field(k) == b.v.field(k))
}

fn full_eq(a: &Elem<'_, '_>, b: &Elem<'_, '_>) -> bool {
    a.v == b.v
}

fn never(_: &Elem<'_, '_>, _: &Elem<'_, '_>) -> bool {
    false
}

/// `vgc_codegen` `matcher_fns`: how old elements are found, and the equivalence that skips them on update.
#[allow(clippy::type_complexity)]
fn matcher_fns<'a, 'p>(
    m: &Matcher,
) -> (
    Option<fn(&Elem<'a, 'p>, &Elem<'a, 'p>) -> bool>,
    Option<fn(&Elem<'a, 'p>, &Elem<'a, 'p>) -> bool>,
) {
    match m {
        Matcher::None => (None, None),
        Matcher::Set => (Some(full_eq), None),
        Matcher::Keys(_) => (Some(keys_match), Some(full_eq)),
    }
}

fn keys_of(m: &Matcher) -> &[String] {
    match m {
        Matcher::Keys(k) => k,
        _ => &[],
    }
}

fn elems<'a, 'p>(l: &'a Val<'p>, keys: &'a [String]) -> Vec<Elem<'a, 'p>> {
    match l {
        Val::List(items) => items.iter().map(|v| Elem { v, keys }).collect(),
        _ => Vec::new(),
    }
}

fn ptr_elems<'a, 'p>(l: &'a Val<'p>, keys: &'a [String]) -> Vec<Option<Elem<'a, 'p>>> {
    match l {
        Val::List(items) => items
            .iter()
            .map(|v| (!matches!(v, Val::Nil)).then_some(Elem { v, keys }))
            .collect(),
        _ => Vec::new(),
    }
}

static EMPTY_MAP: BTreeMap<String, Val<'static>> = BTreeMap::new();

fn map_of<'a, 'p>(v: &'a Val<'p>) -> &'a BTreeMap<String, Val<'p>> {
    match v {
        Val::Map(m) => m,
        _ => &EMPTY_MAP,
    }
}

/// `Option<&T>` of a nilable: a nil pointer is `None`.
fn nilable<'a, 'p>(v: &'a Val<'p>) -> Option<&'a Val<'p>> {
    match v {
        Val::Nil => None,
        v => Some(v),
    }
}

/// `vgc_codegen` `set_expr`: is this nilable value set, given its shape.
fn set(shape: &Shape, v: Option<&Val<'_>>) -> bool {
    match shape {
        Shape::Scalar { pointer: true, .. }
        | Shape::Struct { .. }
        | Shape::Other { pointer: true } => v.is_some(),
        Shape::Scalar { pointer: false, .. } | Shape::List { .. } | Shape::Map => {
            v.is_some_and(Val::is_set)
        }
        Shape::Other { pointer: false } => v.is_some_and(|v| !v.is_default_other()),
    }
}

/// `vgc_codegen` `field_set`: is struct field `go` of `o` set.
fn field_set(o: &Val<'_>, go: &str, shape: &Shape) -> bool {
    let f = o.field(go);
    match shape {
        Shape::Scalar { pointer: true, .. }
        | Shape::Struct { pointer: true }
        | Shape::Other { pointer: true } => f.is_some_and(|f| !matches!(f, Val::Nil)),
        _ => f.is_some_and(Val::is_set),
    }
}

/// The member at the end of a field-path constraint's path below struct `o`: `None` at a nil pointer on the way.
fn path_member<'v, 'p>(
    o: &'v Val<'p>,
    steps: &[vgc_lowering::plan::PathStep],
) -> Option<&'v Val<'p>> {
    let mut cur = o;
    for s in steps {
        cur = cur.field(&s.go)?;
    }
    (!matches!(cur, Val::Nil)).then_some(cur)
}

/// The elements of a list or map constrained per element (`codegen`'s `constraint_call`): nil elements left out,
/// each with whether its old counterpart (`old`: `None` without an old struct) equals it — a map value the old
/// value of its key, a `listType=set` item an equal old item, an atomic list's items all when the whole list is
/// unchanged.
fn constraint_elements<'v, 'p, V>(
    each: &vgc_lowering::plan::EachElements,
    new: Option<&'v Val<'p>>,
    old: Option<Option<&Val<'_>>>,
    int: fn(&'v Val<'p>) -> Option<V>,
) -> Vec<vgc_runtime::extensions::Element<'v, V>> {
    use vgc_runtime::extensions::{At, Element};
    let old = old.flatten();
    match new {
        Some(Val::Map(m)) => m
            .iter()
            .filter_map(|(k, v)| {
                let was = match old {
                    Some(Val::Map(o)) => o.get(k),
                    _ => None,
                };
                Some(Element {
                    at: At::Key(k),
                    value: int(v)?,
                    unchanged: was == Some(v),
                })
            })
            .collect(),
        Some(Val::List(l)) => {
            let old_items: &[Val<'_>] = match old {
                Some(Val::List(o)) => o,
                _ => &[],
            };
            let same = old.is_some() && old_items == &l[..];
            l.iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    let unchanged = match each.matcher {
                        Matcher::Set => old_items.iter().any(|o| o == v),
                        _ => same,
                    };
                    Some(Element {
                        at: At::Index(i),
                        value: int(v)?,
                        unchanged,
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// One side of a field-path constraint read from the new and old structs, its value taken by `get` (an integer, a
/// quantity or a duration: `vgc_runtime::extensions::Operand`).
fn constraint_side<'s, 'v, 'p: 'v, V>(
    p: &vgc_lowering::plan::FieldPath,
    segs: &'s [&'s str],
    new: Option<&'v Val<'p>>,
    old: Option<&'v Val<'p>>,
    get: fn(&'v Val<'p>) -> Option<V>,
) -> vgc_runtime::extensions::Side<'s, V> {
    let read = |o: &'v Val<'p>| path_member(o, &p.steps).and_then(get);
    vgc_runtime::extensions::Side {
        path: segs,
        value: new.and_then(read),
        old: old.map(read),
    }
}

fn int_operand(v: &Val<'_>) -> Option<i128> {
    match v {
        Val::Int(i) => Some(*i),
        _ => None,
    }
}

fn quantity_operand<'v>(v: &'v Val<'_>) -> Option<&'v vgc_runtime::types::Quantity> {
    match v {
        Val::Quantity(q) => Some(q),
        _ => None,
    }
}

fn duration_operand<'v>(v: &'v Val<'_>) -> Option<&'v vgc_runtime::types::Duration> {
    match v {
        Val::Duration(d) => Some(d),
        _ => None,
    }
}

fn marks(c: &Check, errs: ErrorList) -> ErrorList {
    let errs = if c.short_circuit {
        errs.mark_short_circuit()
    } else {
        errs
    };
    stab(c.stability, errs)
}

fn stab(s: Option<Stability>, errs: ErrorList) -> ErrorList {
    match s {
        Some(Stability::Alpha) => errs.mark_alpha(),
        Some(Stability::Beta) => errs.mark_beta(),
        _ => errs,
    }
}

fn selector_match(sel: &Selector, x: &Val<'_>) -> bool {
    sel.iter().all(|(f, ptr, lit)| {
        let Some(fv) = x.field(f) else { return false };
        if *ptr && matches!(fv, Val::Nil) {
            return false;
        }
        match (lit, fv) {
            (NeqValue::Str(s), Val::Str(v)) => s == v,
            (NeqValue::Int(i), Val::Int(v)) => i128::from(*i) == *v,
            (NeqValue::Bool(b), Val::Bool(v)) => b == v,
            _ => false,
        }
    })
}

impl<'p> Cx<'_, 'p> {
    fn fail(&self, e: EvalError) {
        let mut f = self.failure.borrow_mut();
        if f.is_none() {
            *f = Some(e);
        }
    }

    fn ty(&self, k: &TypeKey) -> Option<&'p TypePlan> {
        self.interp.types.get(k)
    }

    /// The element comparisons an iteration over a list or map (`eachVal`, the element type's function) makes on
    /// update ([`Cx::deep_equal_site`] for the element type): map values and list-map items are matched with
    /// their old counterparts by equivalence, set items by equality; atomic lists compare nothing.
    fn container_comparisons(
        &self,
        shape: &Shape,
        matcher: &Matcher,
        elem: Option<&RustTy>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
    ) {
        let compares = match shape {
            Shape::Map => true,
            _ => !matches!(matcher, Matcher::None),
        };
        if self.op.is_update() && old.is_some() && compares {
            self.deep_equal_site(elem, path);
        }
    }

    /// A comparison of values of type `ty` that upstream 1.38 makes with the package's project deep-equality
    /// function (`ModulePlan::deep_equal`; the value is not directly comparable, `codegen`'s `Ctx::deep_eq_opt`):
    /// the interpreter cannot call it, so the comparison is recorded as unchecked at `path` and made with vgc's
    /// default equality. Nothing when the running package has no such function or `ty` is comparable.
    fn deep_equal_site(&self, ty: Option<&RustTy>, path: &Path<'_>) {
        let Some(function) = self.interp.deep_equal.get(self.pkg.get()) else {
            return;
        };
        let comparable = ty.is_some_and(|t| {
            vgc_lowering::plan::direct_comparable(t, &|k| !self.interp.not_comparable.contains(k))
        });
        if !comparable {
            self.unchecked.borrow_mut().push(crate::Unchecked {
                function: (*function).to_string(),
                tag: "k8s:validation-gen-deep-equal-func",
                path: path.to_string(),
            });
        }
    }

    /// `Layout::elem_of`: the element type of a list or map type, through typedefs.
    fn elem_of(&self, t: &'p RustTy) -> Option<&'p RustTy> {
        let mut t = t;
        for _ in 0..16 {
            match t {
                RustTy::Vec(e) | RustTy::Map(e) => return Some(e),
                RustTy::Named(k) => t = self.ty(k)?.alias_of.as_ref()?,
                _ => return None,
            }
        }
        None
    }

    fn str_of<'a>(&self, v: Option<&'a Val<'_>>, path: &Path<'_>) -> Option<&'a str> {
        let v = v?;
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                self.fail(EvalError::Shape {
                    path: path.to_string(),
                    expected: "a string",
                });
                None
            }
        }
    }

    fn int_of(&self, v: Option<&Val<'_>>, path: &Path<'_>) -> Option<i128> {
        match v? {
            Val::Int(i) => Some(*i),
            _ => {
                self.fail(EvalError::Shape {
                    path: path.to_string(),
                    expected: "an integer",
                });
                None
            }
        }
    }

    /// `items::type_items`' validation function (upstream `Validate_<T>`).
    pub(crate) fn validate_type(
        &self,
        t: &'p TypePlan,
        path: &Path<'_>,
        obj: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        errs: &mut ErrorList,
    ) {
        let outer = self.pkg.replace(t.key.pkg.as_str());
        if t.recursive {
            vgc_runtime::stack::grow(|| self.type_body(t, path, obj, old, errs));
        } else {
            self.type_body(t, path, obj, old, errs);
        }
        self.pkg.set(outer);
    }

    fn type_body(
        &self,
        t: &'p TypePlan,
        path: &Path<'_>,
        obj: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        errs: &mut ErrorList,
    ) {
        let scalar_nil = t.fields.is_none() && !t.checks.is_empty();
        if !scalar_nil && obj.is_none() {
            return;
        }
        let elem = t.alias_of.as_ref().and_then(|a| self.elem_of(a));
        let site = Site {
            shape: &t.shape,
            elem,
            typed: t.fields.is_none(),
        };
        if self.checks_block(&t.checks, site, obj, old, path, errs) {
            return;
        }
        let Some(obj) = obj else { return };
        for it in t.key_iteration.iter().chain(&t.iteration) {
            self.iteration(it, &t.shape, obj, old, path, t.alias_of.as_ref(), errs);
        }
        if let (Some(fields), Val::Struct(_, vals)) = (&t.fields, obj) {
            let old_vals = match old {
                Some(Val::Struct(_, o)) => Some(o),
                _ => None,
            };
            for (i, f) in fields.iter().enumerate() {
                if f.has_work() {
                    self.field(
                        f,
                        &vals[i],
                        old_vals.map(|o| &o[i]),
                        old.is_some(),
                        path,
                        errs,
                    );
                }
            }
        }
    }

    /// `iteration::field_code`: one field's ratcheted block.
    fn field(
        &self,
        f: &'p FieldPlan,
        value: &Val<'p>,
        old_value: Option<&Val<'p>>,
        has_old: bool,
        path: &Path<'_>,
        errs: &mut ErrorList,
    ) {
        let p = if f.json_name.is_empty() {
            match path {
                Path::Root => Path::Child(path, &f.go_name),
                p => *p,
            }
        } else {
            path.child(&f.json_name)
        };
        let pointer = matches!(f.ty, RustTy::Option(..));
        let (new, old_v) = if pointer {
            (nilable(value), old_value.and_then(nilable))
        } else {
            (Some(value), old_value)
        };
        if self.op.is_update() && has_old {
            self.deep_equal_site(Some(&f.ty), &p);
            if new == old_v {
                return;
            }
        }
        let site = Site {
            shape: &f.shape,
            elem: self.elem_of(&f.ty),
            typed: f.ty.is_named_value(),
        };
        if self.checks_block(&f.checks, site, new, old_v, &p, errs) {
            return;
        }
        if let Some(n) = &f.nested
            && let Some(t) = self.ty(&n.ty)
        {
            self.validate_type(t, &p, new, old_v, errs);
        }
        for it in f.key_iteration.iter().chain(&f.iteration) {
            if let Some(n) = new {
                self.iteration(it, &f.shape, n, old_v, &p, Some(&f.ty), errs);
            }
        }
    }

    /// `iteration::iteration_code`: the element (or key) type's function per element.
    #[allow(clippy::too_many_arguments)]
    fn iteration(
        &self,
        it: &'p Iteration,
        shape: &Shape,
        new: &Val<'p>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
        container: Option<&'p RustTy>,
        errs: &mut ErrorList,
    ) {
        let Some(t) = self.ty(&it.elem) else { return };
        let op = self.op;
        if !it.keys {
            self.container_comparisons(
                shape,
                &it.matcher,
                container.and_then(|c| self.elem_of(c)),
                old,
                path,
            );
        }
        if it.keys {
            v::each_map_key(
                op,
                path,
                map_of(new),
                old.map(map_of),
                |p, k, errs| {
                    let key = Val::Str(k.clone());
                    self.validate_type(t, p, Some(&key), None, errs);
                },
                errs,
            );
            return;
        }
        let elem = container.and_then(|c| self.elem_of(c));
        match shape {
            Shape::Map if matches!(elem, Some(RustTy::Option(..))) => v::each_map_val(
                op,
                path,
                map_of(new),
                old.map(map_of),
                Some(|a: &Val<'p>, b: &Val<'p>| a == b),
                |p, v, o, errs| {
                    if let Some(v) = nilable(v) {
                        self.validate_type(t, p, Some(v), o.and_then(nilable), errs);
                    }
                },
                errs,
            ),
            Shape::Map => v::each_map_val(
                op,
                path,
                map_of(new),
                old.map(map_of),
                Some(|a: &Val<'p>, b: &Val<'p>| a == b),
                |p, v, o, errs| self.validate_type(t, p, Some(v), o, errs),
                errs,
            ),
            Shape::List {
                pointer_elems: true,
            } => {
                let keys = keys_of(&it.matcher);
                let (mf, eq) = matcher_fns(&it.matcher);
                let n = ptr_elems(new, keys);
                let o = old.map(|o| ptr_elems(o, keys));
                v::each_ptr_slice_val(
                    op,
                    path,
                    &n,
                    o.as_deref(),
                    mf,
                    eq,
                    |p, v, o, errs| self.validate_type(t, p, Some(v.v), o.map(|o| o.v), errs),
                    errs,
                );
            }
            _ => {
                let keys = keys_of(&it.matcher);
                let (mf, eq) = matcher_fns(&it.matcher);
                let n = elems(new, keys);
                let o = old.map(|o| elems(o, keys));
                v::each_slice_val(
                    op,
                    path,
                    &n,
                    o.as_deref(),
                    mf,
                    eq,
                    |p, v, o, errs| self.validate_type(t, p, Some(v.v), o.map(|o| o.v), errs),
                    errs,
                );
            }
        }
    }

    /// `checks::checks_block`: the default cohort (true when its short-circuit failed: the caller leaves the
    /// declaration), then each named cohort in order of first definition.
    fn checks_block(
        &self,
        checks: &'p [Check],
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
        errs: &mut ErrorList,
    ) -> bool {
        if checks.is_empty() {
            return false;
        }
        let default: Vec<&Check> = checks.iter().filter(|c| c.cohort.is_none()).collect();
        let mut named: Vec<(&str, Vec<&Check>)> = Vec::new();
        for c in checks {
            if let Some(name) = &c.cohort {
                match named.iter_mut().find(|(n, _)| *n == name.as_str()) {
                    Some((_, v)) => v.push(c),
                    None => named.push((name.as_str(), vec![c])),
                }
            }
        }
        if self.cohort(&default, site, new, old, path, errs) {
            return true;
        }
        for (_, cs) in &named {
            self.cohort(cs, site, new, old, path, errs);
        }
        false
    }

    /// `checks::cohort_code`: short-circuit checks first; true when one failed (the rest do not run).
    fn cohort(
        &self,
        checks: &[&'p Check],
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
        errs: &mut ErrorList,
    ) -> bool {
        let mut sc = false;
        for c in checks.iter().filter(|c| c.short_circuit) {
            self.one(c, site, new, old, path, errs, &mut sc);
        }
        if sc {
            return true;
        }
        for c in checks.iter().filter(|c| !c.short_circuit) {
            self.one(c, site, new, old, path, errs, &mut sc);
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn one(
        &self,
        c: &'p Check,
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
        errs: &mut ErrorList,
        sc: &mut bool,
    ) {
        if matches!(
            c.kind,
            CheckKind::Subfield(_)
                | CheckKind::IfOption(_)
                | CheckKind::IfSubresource(_)
                | CheckKind::Item(_)
        ) {
            let (e, failed) = self.pair(c, site, new, old, path);
            if c.short_circuit && c.non_error {
                *sc |= failed;
            } else if c.short_circuit {
                if failed {
                    *sc = true;
                    errs.extend(marks(c, e));
                }
            } else if !c.non_error {
                errs.extend(marks(c, e));
            }
            return;
        }
        if c.kind == CheckKind::Optional && c.non_error {
            if !set(site.shape, new) {
                *sc = true;
            }
            return;
        }
        let mut e = self.call(c, site, new, old, path);
        if site.typed && c.kind.reports_typed_value() {
            e = vgc_runtime::field::typed_values(e);
        }
        if c.short_circuit && c.non_error {
            *sc |= !e.is_empty();
        } else if c.short_circuit {
            if !e.is_empty() {
                *sc = true;
                errs.extend(marks(c, e));
            }
        } else if !c.non_error {
            errs.extend(marks(c, e));
        }
    }

    /// `wrappers::eval_pair`: a check's errors and whether it failed.
    fn pair(
        &self,
        c: &'p Check,
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
    ) -> (ErrorList, bool) {
        match &c.kind {
            CheckKind::Optional => (ErrorList::new(), !set(site.shape, new)),
            CheckKind::Subfield(sub) => self.subfield(sub, new, old, path),
            CheckKind::Item(it) => {
                let mut res = (ErrorList::new(), false);
                let Some(Val::List(list)) = new else {
                    return res;
                };
                let found = list.iter().enumerate().find(|(_, x)| {
                    !(it.ptr_elems && matches!(x, Val::Nil)) && selector_match(&it.selector, x)
                });
                if let Some((i, item)) = found {
                    let old_item = match old {
                        Some(Val::List(o)) => o.iter().find(|x| {
                            !(it.ptr_elems && matches!(x, Val::Nil))
                                && selector_match(&it.selector, x)
                        }),
                        _ => None,
                    };
                    if self.op.is_update() && old_item.is_some() {
                        self.deep_equal_site(Some(&it.elem), &path.index(i));
                    }
                    if !(self.op.is_update() && old_item.is_some_and(|o| o == item)) {
                        let p = path.index(i);
                        res = self.pair(
                            &it.inner,
                            Site {
                                shape: &it.elem_shape,
                                elem: None,
                                typed: false,
                            },
                            Some(item),
                            old_item,
                            &p,
                        );
                    }
                }
                res
            }
            CheckKind::IfOption(io) => {
                if !io.undefined_is_error {
                    return if self.op.option_enabled(&io.option) == io.enabled {
                        self.pair(&io.inner, site, new, old, path)
                    } else {
                        (ErrorList::new(), false)
                    };
                }
                let (on, defined) = self.op.has_option(&io.option);
                if !defined {
                    (vec![v::undefined_option(path, &io.option)], true)
                } else if on == io.enabled {
                    self.pair(&io.inner, site, new, old, path)
                } else {
                    (ErrorList::new(), false)
                }
            }
            // `wrappers::eval_pair` (vgc extension, KEP-5073 "Subresources").
            CheckKind::IfSubresource(is) => {
                if is.applies(self.op.subresource_is(&is.path)) {
                    self.pair(&is.inner, site, new, old, path)
                } else {
                    (ErrorList::new(), false)
                }
            }
            _ => {
                let e = self.call(c, site, new, old, path);
                let failed = !e.is_empty();
                (e, failed)
            }
        }
    }

    /// `wrappers::subfield_call`.
    fn subfield<'v>(
        &self,
        sub: &'p vgc_lowering::plan::Subfield,
        new: Option<&'v Val<'p>>,
        old: Option<&'v Val<'p>>,
        path: &Path<'_>,
    ) -> (ErrorList, bool) {
        let mut e = ErrorList::new();
        let mut failed = false;
        let Some(s) = new else { return (e, failed) };
        let member = |o: &'v Val<'p>| -> Option<&'v Val<'p>> {
            let f = o.field(&sub.member)?;
            if sub.pointer.is_some() {
                nilable(f)
            } else {
                Some(f)
            }
        };
        let nv = member(s);
        let ov = old.and_then(member);
        let p = path.child(&sub.json);
        if self.op.is_update() && old.is_some() {
            self.deep_equal_site(Some(&sub.ty), &p);
            if nv == ov {
                return (e, failed);
            }
        }
        let ic = &sub.inner;
        let site = Site {
            shape: &sub.shape,
            elem: sub.elem.as_ref(),
            typed: false,
        };
        if ic.kind == CheckKind::Optional {
            failed = !set(&sub.shape, nv);
        } else if matches!(ic.kind, CheckKind::Subfield(_)) {
            let pair = self.pair(ic, site, nv, ov, &p);
            if ic.non_error || sub.inherited {
                failed = pair.1;
            } else {
                (e, failed) = pair;
            }
        } else {
            let call = self.call(ic, site, nv, ov, &p);
            failed = !call.is_empty();
            if !(ic.non_error || sub.inherited) {
                e = call;
            }
        }
        (e, failed)
    }

    /// `checks::check_call`: one check's errors.
    #[allow(clippy::too_many_lines)]
    fn call(
        &self,
        c: &'p Check,
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
    ) -> ErrorList {
        let (shape, elem) = (site.shape, site.elem);
        let op = self.op;
        let len = || new.map_or(0, Val::len);
        match &c.kind {
            CheckKind::Required { detail: None } => v::required(path, set(shape, new)),
            CheckKind::Required { detail: Some(d) } => v::required_with(path, set(shape, new), d),
            CheckKind::Optional => ErrorList::new(),
            CheckKind::Forbidden { detail: None } => v::forbidden(path, set(shape, new)),
            CheckKind::Forbidden { detail: Some(d) } => v::forbidden_with(path, set(shape, new), d),
            CheckKind::Minimum(n) => v::minimum(path, self.int_of(new, path).as_ref(), *n),
            CheckKind::Maximum(n) => v::maximum(path, self.int_of(new, path).as_ref(), *n),
            CheckKind::MinimumDuration(n) => {
                let d = self.int_of(new, path).and_then(|i| i64::try_from(i).ok());
                v::minimum_duration(path, d.as_ref(), *n)
            }
            CheckKind::MaximumDuration(n) => {
                let d = self.int_of(new, path).and_then(|i| i64::try_from(i).ok());
                v::maximum_duration(path, d.as_ref(), *n)
            }
            CheckKind::MinimumQuantity(q) | CheckKind::MaximumQuantity(q) => {
                let bound = vgc_runtime::types::Quantity(q.clone());
                let value = match new {
                    Some(Val::Quantity(x)) => Some(x),
                    _ => None,
                };
                if matches!(c.kind, CheckKind::MinimumQuantity(_)) {
                    v::minimum_quantity(path, value, &bound)
                } else {
                    v::maximum_quantity(path, value, &bound)
                }
            }
            CheckKind::MinLength(n) => v::min_length(path, self.str_of(new, path), *n),
            CheckKind::MaxLength(n) => v::max_length(path, self.str_of(new, path), *n),
            CheckKind::MaxLengthBytes(n) => v::max_length_bytes(path, self.str_of(new, path), *n),
            CheckKind::MaxBytes(n) => v::max_bytes(path, self.str_of(new, path), *n),
            CheckKind::MaxBytesSlice(n) => v::max_bytes_slice(path, len(), *n),
            CheckKind::MinItems(n) => v::min_items(path, len(), *n),
            CheckKind::MaxItems(n) => v::max_items(path, len(), *n),
            CheckKind::MinProperties(n) => v::min_properties(path, len(), *n),
            CheckKind::MaxProperties(n) => v::max_properties(path, len(), *n),
            CheckKind::Format(f) => v::format(path, self.str_of(new, path), *f),
            CheckKind::Matches(p) => match self.interp.patterns.get(&p.pattern) {
                Some(Ok(re)) => v::matches(
                    path,
                    self.str_of(new, path),
                    re,
                    &p.message,
                    &format!("format={}", p.name),
                ),
                _ => {
                    self.fail(EvalError::Pattern {
                        format: p.name.clone(),
                        pattern: p.pattern.clone(),
                    });
                    ErrorList::new()
                }
            },
            CheckKind::Enum(e) => {
                let vals: Vec<&str> = e.values.iter().map(String::as_str).collect();
                let s = self.str_of(new, path);
                if e.exclusions.is_empty() {
                    v::enum_value(path, s, &vals)
                } else {
                    let rules: Vec<v::EnumExclusion<'_>> = e
                        .exclusions
                        .iter()
                        .map(|x| {
                            (
                                x.value.as_str(),
                                x.when == OptionState::Enabled,
                                x.option.as_str(),
                            )
                        })
                        .collect();
                    if e.undefined_option_is_error {
                        v::enum_value_with_exclusions(path, op, s, &vals, &rules)
                    } else {
                        v::enum_value_with_listed_options(path, op, s, &vals, &rules)
                    }
                }
            }
            CheckKind::Immutable => v::immutable(path, op),
            CheckKind::Update(cs, matcher) => match shape {
                Shape::List { pointer_elems } => {
                    let Some(n) = new else {
                        return ErrorList::new();
                    };
                    if matches!(matcher, Matcher::Set) && op.is_update() && old.is_some() {
                        self.deep_equal_site(elem, path);
                    }
                    let keys = keys_of(matcher);
                    let m = matcher_fns(matcher).0.unwrap_or(never);
                    if *pointer_elems {
                        let o = old.map(|o| ptr_elems(o, keys)).unwrap_or_default();
                        v::ptr_slice_update(path, op, &ptr_elems(n, keys), &o, m, cs)
                    } else {
                        let o = old.map(|o| elems(o, keys)).unwrap_or_default();
                        v::slice_update(path, op, &elems(n, keys), &o, m, cs)
                    }
                }
                Shape::Map => match new {
                    Some(n) => {
                        v::map_update(path, op, map_of(n), old.map_or(&EMPTY_MAP, map_of), cs)
                    }
                    None => ErrorList::new(),
                },
                _ => {
                    let ptr = matches!(
                        shape,
                        Shape::Scalar { pointer: true, .. }
                            | Shape::Struct { pointer: true }
                            | Shape::Other { pointer: true }
                    );
                    v::update_scalar(
                        path,
                        op,
                        old.is_some(),
                        ptr,
                        set(shape, old),
                        set(shape, new),
                        new != old,
                        cs,
                    )
                }
            },
            CheckKind::Unique(m) => {
                let Some(n) = new else {
                    return ErrorList::new();
                };
                // upstream `ValSliceUnique`: set items compared with one another (list-map keys with `==`).
                if matches!(m, Matcher::Set) && n.len() > 1 {
                    self.deep_equal_site(elem, path);
                }
                let keys = keys_of(m);
                let f = matcher_fns(m).0.unwrap_or(never);
                if matches!(
                    shape,
                    Shape::List {
                        pointer_elems: true
                    }
                ) {
                    v::ptr_slice_unique(path, &ptr_elems(n, keys), f)
                } else {
                    v::slice_unique(path, &elems(n, keys), f)
                }
            }
            CheckKind::EachVal(inner, m, elem_shape) => {
                let mut e = ErrorList::new();
                let Some(n) = new else { return e };
                self.container_comparisons(shape, m, elem, old, path);
                let body_site = Site {
                    shape: elem_shape,
                    elem: None,
                    typed: elem.is_some_and(RustTy::is_named_value),
                };
                let body =
                    |p: &Path<'_>, v: &Val<'p>, o: Option<&Val<'p>>, errs: &mut ErrorList| {
                        self.checks_block(inner, body_site, Some(v), o, p, errs);
                    };
                match shape {
                    Shape::Map if matches!(elem, Some(RustTy::Option(..))) => v::each_map_val(
                        op,
                        path,
                        map_of(n),
                        old.map(map_of),
                        Some(|a: &Val<'p>, b: &Val<'p>| a == b),
                        |p, v, o, errs| {
                            if let Some(v) = nilable(v) {
                                body(p, v, o.and_then(nilable), errs);
                            }
                        },
                        &mut e,
                    ),
                    Shape::Map => v::each_map_val(
                        op,
                        path,
                        map_of(n),
                        old.map(map_of),
                        Some(|a: &Val<'p>, b: &Val<'p>| a == b),
                        |p, v, o, errs| body(p, v, o, errs),
                        &mut e,
                    ),
                    Shape::List {
                        pointer_elems: true,
                    } => {
                        let keys = keys_of(m);
                        let (mf, eq) = matcher_fns(m);
                        let o = old.map(|o| ptr_elems(o, keys));
                        v::each_ptr_slice_val(
                            op,
                            path,
                            &ptr_elems(n, keys),
                            o.as_deref(),
                            mf,
                            eq,
                            |p, v, o, errs| body(p, v.v, o.map(|o| o.v), errs),
                            &mut e,
                        );
                    }
                    _ => {
                        let keys = keys_of(m);
                        let (mf, eq) = matcher_fns(m);
                        let o = old.map(|o| elems(o, keys));
                        v::each_slice_val(
                            op,
                            path,
                            &elems(n, keys),
                            o.as_deref(),
                            mf,
                            eq,
                            |p, v, o, errs| body(p, v.v, o.map(|o| o.v), errs),
                            &mut e,
                        );
                    }
                }
                e
            }
            CheckKind::EachKey(inner) => {
                let mut e = ErrorList::new();
                let Some(n) = new else { return e };
                let site = Site {
                    shape: &STRING,
                    elem: None,
                    typed: false,
                };
                v::each_map_key(
                    op,
                    path,
                    map_of(n),
                    old.map(map_of),
                    |p, k, errs| {
                        let key = Val::Str(k.clone());
                        self.checks_block(inner, site, Some(&key), None, p, errs);
                    },
                    &mut e,
                );
                e
            }
            CheckKind::Subfield(sub) => self.subfield(sub, new, old, path).0,
            CheckKind::Union(u) => self.union(u, new, old, path),
            CheckKind::Dependent(d) => {
                let fs =
                    |o: &Val<'_>, r: &vgc_lowering::plan::FieldRef| field_set(o, &r.go, &r.shape);
                v::dependent(
                    path,
                    op,
                    d.forbidden,
                    &d.trigger.json,
                    (
                        new.is_some_and(|o| fs(o, &d.trigger)),
                        old.map(|o| fs(o, &d.trigger)),
                    ),
                    &d.dependent.json,
                    (
                        new.is_some_and(|o| fs(o, &d.dependent)),
                        old.map(|o| fs(o, &d.dependent)),
                    ),
                )
            }
            CheckKind::FieldConstraint(fc) => {
                let (t, b) = (fc.target.json_segments(), fc.bound.json_segments());
                let (tp, bp) = (&fc.target, &fc.bound);
                // The same call for each operand kind, with the reader of that kind (`get`).
                macro_rules! by_operand {
                    ($get:ident => $call:expr) => {
                        match tp.operand {
                            vgc_lowering::plan::Operand::Integer(_) => {
                                let $get = int_operand;
                                $call
                            }
                            vgc_lowering::plan::Operand::Quantity => {
                                let $get = quantity_operand;
                                $call
                            }
                            vgc_lowering::plan::Operand::Duration => {
                                let $get = duration_operand;
                                $call
                            }
                        }
                    };
                }
                match &fc.each {
                    None => by_operand!(get => vgc_runtime::extensions::field_constraint(
                        path,
                        op,
                        fc.kind,
                        constraint_side(tp, &t, new, old, get),
                        constraint_side(bp, &b, new, old, get),
                    )),
                    Some(each) => {
                        let n = new.and_then(|o| path_member(o, &tp.steps));
                        let ol = old.map(|o| path_member(o, &tp.steps));
                        by_operand!(get => vgc_runtime::extensions::each_field_constraint(
                            path,
                            op,
                            fc.kind,
                            &t,
                            constraint_elements(each, n, ol, get),
                            constraint_side(bp, &b, new, old, get),
                        ))
                    }
                }
            }
            CheckKind::Monotonic => {
                let n = self.int_of(new, path);
                let o = self.int_of(old, path);
                v::monotonic(path, op, n.as_ref(), o.as_ref())
            }
            CheckKind::NoNils => match new {
                Some(Val::Map(m)) if matches!(shape, Shape::Map) => {
                    let m: BTreeMap<String, Option<&Val<'p>>> =
                        m.iter().map(|(k, v)| (k.clone(), nilable(v))).collect();
                    v::ptr_map_no_nils(path, &m)
                }
                Some(Val::List(l)) => {
                    let l: Vec<Option<&Val<'p>>> = l.iter().map(nilable).collect();
                    v::ptr_slice_no_nils(path, &l)
                }
                _ => ErrorList::new(),
            },
            CheckKind::FixedResult { result, msg } => {
                if *result {
                    ErrorList::new()
                } else {
                    let bad = match shape {
                        Shape::List { .. } | Shape::Map => {
                            v::bad_value_collection(new.map(Coll).as_ref())
                        }
                        _ => v::bad_value_json(&new),
                    };
                    vec![
                        vgc_runtime::Error::invalid(path, bad, format!("forced failure: {msg}"))
                            .with_origin("validateFalse"),
                    ]
                }
            }
            CheckKind::Custom {
                owner,
                field,
                upstream,
                ..
            } => match (
                vgc_runtime::k8s::port(&owner.pkg, &owner.name, field.as_deref()),
                self.interp.custom.get(upstream),
            ) {
                (Some(port), _) => crate::ports::call(port, op, path, new, old),
                (None, Some(f)) => f(op, path, new, old),
                (None, None) => {
                    self.unchecked.borrow_mut().push(crate::Unchecked {
                        function: upstream.clone(),
                        tag: "k8s:customValidation",
                        path: path.to_string(),
                    });
                    ErrorList::new()
                }
            },
            CheckKind::Item(_) | CheckKind::IfOption(_) | CheckKind::IfSubresource(_) => {
                self.pair(c, site, new, old, path).0
            }
            CheckKind::VirtualUnion(vu) => {
                let set = |o: Option<&Val<'p>>, m: &vgc_lowering::plan::VirtualMember| {
                    let Some(o) = o else { return false };
                    match &m.set {
                        MemberSet::Field(shape) => {
                            let (last, parents) =
                                m.steps.split_last().expect("a member has a step");
                            path_member(o, parents).is_some_and(|h| field_set(h, &last.go, shape))
                        }
                        MemberSet::Item {
                            selector,
                            ptr_elems,
                            ..
                        } => match path_member(o, &m.steps) {
                            Some(Val::List(l)) => l.iter().any(|x| {
                                !(*ptr_elems && matches!(x, Val::Nil))
                                    && selector_match(selector, x)
                            }),
                            _ => false,
                        },
                    }
                };
                let new_set: Vec<bool> = vu.members.iter().map(|m| set(new, m)).collect();
                let old_set: Vec<bool> = vu.members.iter().map(|m| set(old, m)).collect();
                let names: Vec<&str> = vu.members.iter().map(|m| m.name.as_str()).collect();
                if vu.kind == UnionKind::Union {
                    v::union(path, op, old.is_some(), &new_set, &old_set, &names)
                } else {
                    v::zero_or_one_of(path, op, old.is_some(), &new_set, &old_set, &names)
                }
            }
            CheckKind::ListUnion(u) => {
                let exists = |list: Option<&Val<'p>>, sel: &Selector| match list {
                    Some(Val::List(l)) => l
                        .iter()
                        .any(|x| !(u.ptr_elems && matches!(x, Val::Nil)) && selector_match(sel, x)),
                    _ => false,
                };
                let new_set: Vec<bool> = u.members.iter().map(|(_, s)| exists(new, s)).collect();
                let old_set: Vec<bool> = u.members.iter().map(|(_, s)| exists(old, s)).collect();
                let names: Vec<&str> = u.members.iter().map(|(n, _)| n.as_str()).collect();
                let has_old = old.is_some_and(|o| !o.is_empty());
                let e = if u.kind == UnionKind::Union {
                    v::union(path, op, has_old, &new_set, &old_set, &names)
                } else {
                    v::zero_or_one_of(path, op, has_old, &new_set, &old_set, &names)
                };
                if u.union_origin || u.kind != UnionKind::Union {
                    e
                } else {
                    v::without_origin(e)
                }
            }
            CheckKind::Discriminated(m) => self.discriminated(m, new, old, path),
            CheckKind::Neq(n) | CheckKind::Eq(n) => {
                let eq = matches!(c.kind, CheckKind::Eq(_));
                match n {
                    NeqValue::Str(x) if eq => v::eq_str(path, self.str_of(new, path), x),
                    NeqValue::Str(x) => v::neq_str(path, self.str_of(new, path), x),
                    NeqValue::Int(i) => {
                        let (value, i) = (self.int_of(new, path), i128::from(*i));
                        if eq {
                            v::eq(path, value.as_ref(), i)
                        } else {
                            v::neq(path, value.as_ref(), i)
                        }
                    }
                    NeqValue::Bool(b) => {
                        let bv = match new {
                            Some(Val::Bool(b)) => Some(*b),
                            _ => None,
                        };
                        if eq {
                            v::eq(path, bv.as_ref(), *b)
                        } else {
                            v::neq(path, bv.as_ref(), *b)
                        }
                    }
                }
            }
        }
    }

    /// `wrappers::union_call`.
    fn union(
        &self,
        u: &'p UnionPlan,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
    ) -> ErrorList {
        let op = self.op;
        let new_set: Vec<bool> = u
            .members
            .iter()
            .map(|m| new.is_some_and(|o| field_set(o, &m.go_field, &m.shape)))
            .collect();
        let old_set: Vec<bool> = u
            .members
            .iter()
            .map(|m| old.is_some_and(|o| field_set(o, &m.go_field, &m.shape)))
            .collect();
        let e = match (&u.discriminator, u.kind) {
            (Some((disc_go, disc_json)), UnionKind::Union) => {
                let disc = |o: Option<&Val<'p>>| -> String {
                    o.and_then(|o| o.field(disc_go))
                        .and_then(Val::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                let members: Vec<(&str, &str)> = u
                    .members
                    .iter()
                    .map(|m| (m.json.as_str(), m.member_name.as_str()))
                    .collect();
                v::discriminated_union(
                    path,
                    op,
                    old.is_some(),
                    disc_json,
                    &disc(new),
                    &disc(old),
                    &new_set,
                    &old_set,
                    &members,
                )
            }
            (_, kind) => {
                let names: Vec<&str> = u.members.iter().map(|m| m.json.as_str()).collect();
                if kind == UnionKind::Union {
                    v::union(path, op, old.is_some(), &new_set, &old_set, &names)
                } else {
                    v::zero_or_one_of(path, op, old.is_some(), &new_set, &old_set, &names)
                }
            }
        };
        if u.union_origin || u.kind != UnionKind::Union {
            e
        } else {
            v::without_origin(e)
        }
    }

    /// `wrappers::discriminated_call` (upstream `validate.Discriminated`).
    fn discriminated<'v>(
        &self,
        m: &'p ModePlan,
        new: Option<&'v Val<'p>>,
        old: Option<&'v Val<'p>>,
        path: &Path<'_>,
    ) -> ErrorList {
        let mut e = ErrorList::new();
        let Some(s) = new else { return e };
        let member = |o: &'v Val<'p>| -> Option<&'v Val<'p>> {
            let f = o.field(&m.member)?;
            if m.pointer.is_some() {
                nilable(f)
            } else {
                Some(f)
            }
        };
        let nv = member(s);
        let ov = old.and_then(member);
        let disc_of = |o: &'v Val<'p>| o.field(&m.discriminator.field);
        let disc = disc_of(s);
        let p = path.child(&m.json);
        if self.op.is_update() && old.map(disc_of) == Some(disc) {
            self.deep_equal_site(Some(&m.ty), &p);
            if nv == ov {
                return e;
            }
        }
        let site = Site {
            shape: &m.shape,
            elem: m.elem.as_ref(),
            typed: false,
        };
        let is_bool = m.discriminator.kind == vgc_lowering::plan::DiscriminatorKind::Bool;
        let rule = m.rules.iter().find(|(value, _)| match &disc {
            Some(Val::Bool(b)) if is_bool => (value == "true") == *b,
            Some(Val::Str(s)) if !is_bool => value == s,
            _ => false,
        });
        match rule {
            Some((_, checks)) => self.multi(checks, site, nv, ov, &p, &mut e),
            None => {
                let covers_all = is_bool && m.rules.len() == 2;
                if !covers_all {
                    e.extend(stab(
                        m.default_stability,
                        v::forbidden(&p, set(&m.shape, nv)),
                    ));
                }
            }
        }
        e
    }

    /// `wrappers::multi_code` (upstream `MultiWrapperFunction`).
    fn multi(
        &self,
        checks: &'p [Check],
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
        errs: &mut ErrorList,
    ) {
        let last_sc = checks.iter().rposition(|c| c.short_circuit);
        let mut early = false;
        for (i, c) in checks.iter().enumerate() {
            let (e, failed) = self.pair(c, site, new, old, path);
            if c.short_circuit && c.non_error {
                early |= failed;
            } else if c.short_circuit {
                if failed {
                    errs.extend(stab(c.stability, e));
                    early = true;
                }
            } else {
                errs.extend(stab(c.stability, e));
            }
            if Some(i) == last_sc && early {
                return;
            }
        }
    }
}
