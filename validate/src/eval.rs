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

mod constraints;
mod custom;
mod dependentrequired;
mod each;
mod r#enum;
mod equality;
mod immutable;
mod limits;
mod monotonic;
mod regex;
mod required;
mod strfmt;
mod testing;
mod union;
mod update;

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

fn keys_match(a: &Elem<'_, '_>, b: &Elem<'_, '_>) -> bool {
    a.keys.iter().all(|k| a.v.field(k) == b.v.field(k))
}

fn full_eq(a: &Elem<'_, '_>, b: &Elem<'_, '_>) -> bool {
    a.v == b.v
}

fn never(_: &Elem<'_, '_>, _: &Elem<'_, '_>) -> bool {
    false
}

/// The hash of what [`keys_match`] (an element's list-map key values) or [`full_eq`] (a set item, no keys)
/// compares, for the runtime's hash index (`vgc_runtime::validate`'s matching, R54): equal values hash equally.
fn elem_hash(e: &Elem<'_, '_>) -> u64 {
    use std::hash::Hasher as _;
    let mut h = vgc_runtime::validate::key_hasher();
    if e.keys.is_empty() {
        val_hash(Some(e.v), &mut h);
    } else {
        for k in e.keys {
            val_hash(e.v.field(k), &mut h);
        }
    }
    h.finish()
}

/// Feeds `v` into `h` consistently with `Val`'s equality: scalars, lists, maps and structs by content; values
/// compared semantically or as floats (quantities, times, durations, JSON, `F32`/`F64`, …) by their kind only.
fn val_hash(v: Option<&Val<'_>>, h: &mut std::hash::DefaultHasher) {
    use std::hash::Hash as _;
    let Some(v) = v else {
        0_u8.hash(h);
        return;
    };
    match v {
        Val::Nil => 1_u8.hash(h),
        Val::Bool(b) => (2_u8, b).hash(h),
        Val::Int(i) => (3_u8, i).hash(h),
        Val::Str(s) => (4_u8, s).hash(h),
        Val::List(items) => {
            (5_u8, items.len()).hash(h);
            vgc_runtime::stack::grow(|| items.iter().for_each(|i| val_hash(Some(i), h)));
        }
        Val::Map(m) => {
            (6_u8, m.len()).hash(h);
            vgc_runtime::stack::grow(|| {
                for (k, v) in m {
                    k.hash(h);
                    val_hash(Some(v), h);
                }
            });
        }
        Val::Struct(_, fields) => {
            7_u8.hash(h);
            vgc_runtime::stack::grow(|| fields.iter().for_each(|f| val_hash(Some(f), h)));
        }
        _ => 8_u8.hash(h),
    }
}

/// `vgc_codegen` `matcher_fns`: how old elements are found (`matches`, and the `hash` of what it compares), and
/// the equivalence that skips them on update.
struct MatcherFns<'a, 'p> {
    matches: Option<fn(&Elem<'a, 'p>, &Elem<'a, 'p>) -> bool>,
    hash: Option<fn(&Elem<'a, 'p>) -> u64>,
    equiv: Option<fn(&Elem<'a, 'p>, &Elem<'a, 'p>) -> bool>,
}

fn matcher_fns<'a, 'p>(m: &Matcher) -> MatcherFns<'a, 'p> {
    match m {
        Matcher::None => MatcherFns {
            matches: None,
            hash: None,
            equiv: None,
        },
        Matcher::Set => MatcherFns {
            matches: Some(full_eq),
            hash: Some(elem_hash),
            equiv: None,
        },
        Matcher::Keys(_) => MatcherFns {
            matches: Some(keys_match),
            hash: Some(elem_hash),
            equiv: Some(full_eq),
        },
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
                let mf = matcher_fns(&it.matcher);
                let n = ptr_elems(new, keys);
                let o = old.map(|o| ptr_elems(o, keys));
                v::each_ptr_slice_val(
                    op,
                    path,
                    &n,
                    o.as_deref(),
                    mf.matches,
                    mf.hash,
                    mf.equiv,
                    |p, v, o, errs| self.validate_type(t, p, Some(v.v), o.map(|o| o.v), errs),
                    errs,
                );
            }
            _ => {
                let keys = keys_of(&it.matcher);
                let mf = matcher_fns(&it.matcher);
                let n = elems(new, keys);
                let o = old.map(|o| elems(o, keys));
                v::each_slice_val(
                    op,
                    path,
                    &n,
                    o.as_deref(),
                    mf.matches,
                    mf.hash,
                    mf.equiv,
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
        let m = &sub.member;
        let (nv, ov, site) = member_values(m, s, old);
        let p = path.child(&m.json);
        if self.op.is_update() && old.is_some() {
            self.deep_equal_site(Some(&m.ty), &p);
            if nv == ov {
                return (e, failed);
            }
        }
        let ic = &sub.inner;
        if ic.kind == CheckKind::Optional {
            failed = !set(&m.shape, nv);
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

    /// `checks::check_call`: one check's errors. One arm per validator family, evaluated in `eval/<family>.rs` as
    /// `vgc_codegen` emits it in `emit/checks/<family>.rs` (both named after apimachinery's `pkg/api/validate/*.go`
    /// files, as `vgc_runtime::validate`'s are); the wrappers are this file's ([`Cx::pair`], as codegen's
    /// `wrappers.rs`).
    fn call(
        &self,
        c: &'p Check,
        site: Site<'p>,
        new: Option<&Val<'p>>,
        old: Option<&Val<'p>>,
        path: &Path<'_>,
    ) -> ErrorList {
        match &c.kind {
            CheckKind::Required { .. } | CheckKind::Optional | CheckKind::Forbidden { .. } => {
                required::call(c, site, new, path)
            }
            vgc_lowering::limit_check_kinds!() => limits::call(self, c, new, path),
            CheckKind::Format(f) => strfmt::call(self, *f, new, path),
            CheckKind::Matches(p) => regex::call(self, p, new, path),
            CheckKind::Enum(e) => r#enum::call(self, e, new, path),
            CheckKind::Immutable => immutable::call(self, path),
            CheckKind::Update(cs, matcher) => update::call(self, cs, matcher, site, new, old, path),
            CheckKind::Unique(_)
            | CheckKind::EachVal(..)
            | CheckKind::EachKey(_)
            | CheckKind::NoNils => each::call(self, c, site, new, old, path),
            CheckKind::Union(_) | CheckKind::ListUnion(_) | CheckKind::VirtualUnion(_) => {
                union::call(self, c, new, old, path)
            }
            CheckKind::Dependent(d) => dependentrequired::call(self, d, new, old, path),
            CheckKind::Monotonic => monotonic::call(self, new, old, path),
            CheckKind::Eq(n) | CheckKind::Neq(n) => equality::call(self, c, n, new, path),
            CheckKind::FixedResult { result, msg, .. } => {
                testing::call(*result, msg, site.shape, new, path)
            }
            CheckKind::Custom {
                owner,
                field,
                upstream,
                ..
            } => custom::call(self, owner, field.as_deref(), upstream, new, old, path),
            CheckKind::FieldConstraint(fc) => constraints::call(self, fc, new, old, path),
            CheckKind::Subfield(sub) => self.subfield(sub, new, old, path).0,
            CheckKind::Item(_) | CheckKind::IfOption(_) | CheckKind::IfSubresource(_) => {
                self.pair(c, site, new, old, path).0
            }
            CheckKind::Discriminated(m) => self.discriminated(m, new, old, path),
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
            .map(|m| new.is_some_and(|o| field_set(o, &m.member.go, &m.member.shape)))
            .collect();
        let old_set: Vec<bool> = u
            .members
            .iter()
            .map(|m| old.is_some_and(|o| field_set(o, &m.member.go, &m.member.shape)))
            .collect();
        let e = match (&u.discriminator, u.kind) {
            (Some(d), UnionKind::Union) => {
                let disc = |o: Option<&Val<'p>>| -> String {
                    o.and_then(|o| o.field(&d.go))
                        .and_then(Val::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                let members: Vec<(&str, &str)> = u
                    .members
                    .iter()
                    .map(|m| (m.member.json.as_str(), m.member_name.as_str()))
                    .collect();
                v::discriminated_union(
                    path,
                    op,
                    old.is_some(),
                    &d.json,
                    &disc(new),
                    &disc(old),
                    &new_set,
                    &old_set,
                    &members,
                )
            }
            (_, kind) => {
                let names: Vec<&str> = u.members.iter().map(|m| m.member.json.as_str()).collect();
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
        let (nv, ov, site) = member_values(&m.member, s, old);
        let disc_of = |o: &'v Val<'p>| o.field(&m.discriminator.field);
        let disc = disc_of(s);
        let p = path.child(&m.member.json);
        if self.op.is_update() && old.map(disc_of) == Some(disc) {
            self.deep_equal_site(Some(&m.member.ty), &p);
            if nv == ov {
                return e;
            }
        }
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
                        v::forbidden(&p, set(&m.member.shape, nv)),
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

/// What the wrappers that reach into a struct (`Subfield`, `Discriminated`) start from: member `m` of the struct
/// value `s` and of the old struct `old` (a nil pointer member reads as absent), and the [`Site`] of its value.
fn member_values<'p, 'v>(
    m: &'p vgc_lowering::plan::MemberRef,
    s: &'v Val<'p>,
    old: Option<&'v Val<'p>>,
) -> (Option<&'v Val<'p>>, Option<&'v Val<'p>>, Site<'p>) {
    let member = |o: &'v Val<'p>| -> Option<&'v Val<'p>> {
        let f = o.field(&m.go)?;
        if m.pointer.is_some() {
            nilable(f)
        } else {
            Some(f)
        }
    };
    let site = Site {
        shape: &m.shape,
        elem: m.elem.as_ref(),
        typed: false,
    };
    (member(s), old.and_then(member), site)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Val<'static> {
        Val::Str(x.to_string())
    }

    /// R54: the interpreter's element hash agrees with its matchers (equal key values or equal items hash
    /// equally), so the runtime's hash index finds what the pairwise comparison finds.
    #[test]
    fn element_hashes_agree_with_the_matchers() {
        let mut seed = 11_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let mut vals: Vec<Val<'static>> = Vec::new();
        for _ in 0..300 {
            let v = match next() % 7 {
                0 => Val::Nil,
                1 => Val::Bool(next() % 2 == 0),
                2 => Val::Int(i128::from(next() % 5)),
                3 => s(&(next() % 5).to_string()),
                4 => Val::List(vec![s("a"), Val::Int(i128::from(next() % 2))]),
                5 => Val::Map([("k".to_string(), Val::Int(i128::from(next() % 2)))].into()),
                _ => Val::F64((next() % 3) as f64),
            };
            vals.push(v);
        }
        let none: &[String] = &[];
        for a in &vals {
            for b in &vals {
                let (ea, eb) = (Elem { v: a, keys: none }, Elem { v: b, keys: none });
                if full_eq(&ea, &eb) {
                    assert_eq!(elem_hash(&ea), elem_hash(&eb), "{a:?} {b:?}");
                }
            }
        }
        // Set uniqueness through the index (over `INDEX_FROM` items) equals the pairwise answer.
        let list = Val::List(vals.clone());
        let root = vgc_runtime::Path::Root;
        let path = root.child("l");
        let items = elems(&list, none);
        let fns = matcher_fns(&Matcher::Set);
        let f = fns.matches.unwrap_or(never);
        let hashed = v::slice_unique(&path, &items, f, fns.hash);
        let pairwise = v::slice_unique(&path, &items, f, None);
        assert_eq!(hashed, pairwise);
        assert!(!hashed.is_empty());
    }
}
