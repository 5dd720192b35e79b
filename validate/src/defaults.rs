//! Defaulting: what the API server sets in an object before validating it — the `+default=` values, and its
//! hand-written defaults where a declarative rule reads them.
//!
//! The API server decodes a request, runs the defaulting functions of the object's group/version (defaulter-gen's
//! `SetObjectDefaults_<Kind>`, registered in its scheme), then validates. The declarative part of that defaulting
//! is the `+default=<json>` tag on a field ([`vgc_lowering::plan::FieldPlan::default`]); defaulter-gen turns it
//! into, per field (`pkg/apis/*/v*/zz_generated.defaults.go` of k8s.io/kubernetes):
//!
//! - a pointer, slice or map (`Option<_>`, `Vec<_>`, map in the plan): `if in.F == nil { in.F = <default> }` — in
//!   JSON, the key is absent or `null` (`[]` and `{}` decode to non-nil values and are kept);
//! - a non-pointer string, number or boolean (also through typedefs, `Protocol`): `if in.F == "" / 0 / false` —
//!   absent, `null` or the zero value;
//! - a non-pointer struct or well-known type: absent or `null`.
//!
//! An absent or `null` non-pointer struct is decoded by Go as its zero value, so the defaults of its fields apply
//! (the struct is created in the JSON to hold them); a nil pointer is left alone.
//!
//! A default equal to a non-pointer scalar's zero value (`+default=0` on an `int32`) changes nothing and is not
//! listed. A default is applied where the object holding the field exists (inside list items too, never inside map
//! values, which defaulter-gen's generated code does not reach; inside an inline embedded pointer only when Go
//! allocates it, [`vgc_lowering::plan::FieldPlan::embedded_keys`]), and
//! the defaults of the default value's own fields are applied to it, as the generated function calls the nested
//! defaulters after setting a field.
//!
//! A `+default` written on a type declaration ([`vgc_lowering::plan::TypePlan::default`]) applies as defaulter-gen
//! applies it: to a field of a pointer to the type with no `+default` of its own (already in
//! [`FieldPlan::default`]); and to the list items and map values of the type (`[]Color`, `map[string]Color`, `[]*Color`) when
//! the type has no defaulting of its own — through a pointer when the item is `null`, a scalar when it is its
//! zero value or `null`, a list or map when `null` (a struct by value: never; defaulter-gen's code for it does not
//! compile). Not on a field of the type by value (`Color`, not `*Color`), which defaulter-gen leaves alone, and not
//! through a typedef of the type (`type Shade Color`: gengo gives `Shade` the underlying type `string`, so the walk
//! never reaches `Color`'s default).
//!
//! The API server's hand-written defaulting (`SetDefaults_<Type>` in k8s.io/kubernetes
//! `pkg/apis/<group>/<version>/defaults.go`) is ported where a declarative rule reads what it sets
//! (`defaults/server.rs`, [`SERVER_DEFAULTS`]): at a struct of a type with a ported function, the function runs
//! first and the `+default` tags of the struct's fields after it, in one walk, as defaulter-gen's
//! `SetObjectDefaults_<Kind>` calls them. It runs only for documents of k8s.io/api types (never a user's, even one
//! that holds k8s.io/api types), for the plan's release ([`vgc_lowering::CratePlan::upstream`]), and is reported as
//! such ([`DefaultSource::Server`]).

mod server;

use crate::Interpreter;
use serde_json::{Map, Value};
pub use server::{SERVER_DEFAULTS, ServerDefault};
use vgc_analysis::TypeKey;
use vgc_analysis::types::Builtin;
use vgc_lowering::plan::{FieldPlan, RustTy, TypePlan};

/// What set a defaulted field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultSource {
    /// The field's `+default=` tag (or its type's), as defaulter-gen's generated code assigns it.
    Tag,
    /// A hand-written defaulting function of the API server, ported ([`SERVER_DEFAULTS`]).
    Server(&'static ServerDefault),
}

/// One default to apply: where, the value (with its own fields' defaults applied) and what set it.
#[derive(Debug, Clone, PartialEq)]
pub struct Defaulted {
    /// JSON Pointer (RFC 6901) of the field (`/spec/ports/0/protocol`); its parent exists in the object once the
    /// defaults before it are applied.
    pub pointer: String,
    /// The field path as upstream renders it (`spec.ports[0].protocol`).
    pub path: String,
    /// The value set.
    pub value: Value,
    /// A `+default` tag or a hand-written function.
    pub source: DefaultSource,
}

impl Defaulted {
    /// Sets the value in `value`, the document it was found in ([`Interpreter::defaults`]); the defaults of a
    /// document are applied in the order they are listed.
    pub fn set_in(&self, value: &mut Value) {
        set(value, &self.pointer, self.value.clone());
    }
}

/// A step from a value to a member: a field's JSON name or a list index.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The JSON Pointer and upstream field path of `segs`.
fn render(segs: &[Seg<'_>]) -> (String, String) {
    use std::fmt::Write as _;
    let (mut pointer, mut path) = (String::new(), String::new());
    for s in segs {
        match s {
            Seg::Key(k) => {
                pointer.push('/');
                pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Seg::Index(i) => {
                let _ = write!(pointer, "/{i}");
                let _ = write!(path, "[{i}]");
            }
        }
    }
    (pointer, path)
}

/// The named types inside `ty` (through pointers, lists and maps).
fn named(ty: &RustTy) -> Option<&TypeKey> {
    match ty {
        RustTy::Named(k) => Some(k),
        RustTy::Option(i, _) | RustTy::Vec(i) | RustTy::Map(i) => named(i),
        _ => None,
    }
}

/// Whether `ty` holds a list or map (through pointers, lists and maps, not named types) whose element type
/// carries a type-level `+default` ([`elem_default`]).
fn holds_elem_default<'p>(ty: &'p RustTy, plan: &dyn Fn(&TypeKey) -> Option<&'p TypePlan>) -> bool {
    match ty {
        RustTy::Vec(e) | RustTy::Map(e) => {
            elem_default(e, plan).is_some() || holds_elem_default(e, plan)
        }
        RustTy::Option(i, _) => holds_elem_default(i, plan),
        _ => false,
    }
}

/// The number of pointers between `ty` and its base type, through typedefs (defaulter-gen's
/// `resolveTypeAndDepth`).
fn pointer_depth<'p>(ty: &'p RustTy, plan: &dyn Fn(&TypeKey) -> Option<&'p TypePlan>) -> usize {
    let mut t = ty;
    let mut n = 0;
    for _ in 0..32 {
        t = match t {
            RustTy::Option(i, _) => {
                n += 1;
                i
            }
            RustTy::Named(k) => match plan(k).and_then(|p| p.alias_of.as_ref()) {
                Some(a) => a,
                None => break,
            },
            _ => break,
        };
    }
    n
}

/// The default defaulter-gen gives a list item or map value of element type `e` (`populateDefaultValue` with the
/// element type's own comment): the element type's own `+default`, or, when `e` reaches its base type through a
/// pointer, the first type declaration's on the way through pointers and typedefs (`getNestedDefault`).
fn elem_default<'p>(
    e: &'p RustTy,
    plan: &dyn Fn(&TypeKey) -> Option<&'p TypePlan>,
) -> Option<&'p str> {
    let own = |t: &RustTy| match t {
        RustTy::Named(k) => plan(k).and_then(|p| p.default.as_deref()),
        _ => None,
    };
    if pointer_depth(e, plan) == 0 {
        return own(e);
    }
    let mut t = e;
    for _ in 0..32 {
        if let Some(d) = own(t) {
            return Some(d);
        }
        t = match t {
            RustTy::Option(i, _) => i,
            // gengo gives a typedef its underlying *literal* type (`type Shade Color` is a `string`), so the walk
            // never reaches another named type's `+default` through a typedef.
            RustTy::Named(k) => match plan(k)?.alias_of.as_ref()? {
                RustTy::Named(_) => return None,
                a => a,
            },
            _ => return None,
        };
    }
    None
}

/// The ported hand-written defaulting functions ([`SERVER_DEFAULTS`]) of release `release` by the k8s.io/api type
/// they take, for the types of `types` (in table order per type).
pub(crate) fn server_ports<'p>(
    types: &crate::TypeIndex<'p>,
    release: vgc_ir::Upstream,
) -> ServerPorts<'p> {
    let mut out = ServerPorts::default();
    for row in SERVER_DEFAULTS
        .iter()
        .filter(|r| r.releases.contains(&release) && server::is_server_package(r.ty.0))
    {
        let key = TypeKey {
            pkg: row.ty.0.to_string(),
            name: row.ty.1.to_string(),
        };
        if let Some(t) = types.get(&key) {
            out.entry(&t.key).or_default().push(row);
        }
    }
    out
}

/// [`server_ports`]: per k8s.io/api type, its ported hand-written defaulting functions.
pub(crate) type ServerPorts<'p> = rustc_hash::FxHashMap<&'p TypeKey, Vec<&'static ServerDefault>>;

/// The types of `types` defaulting can change something in: a field with a `+default` (its own or its pointer
/// type's), a list or map of a type with a type-level `+default`, a type with a ported hand-written defaulting
/// function (`server`), or a field (through pointers, lists, maps, typedefs and inline embeddings) of such a type.
/// A fixed point over the plan. It is also defaulter-gen's "the type has a defaulting call tree"
/// (`callTreeForType.build` not nil), which decides whether list items and map values get their type's `+default`
/// (only when it has none) — map values count although defaulter-gen's generated code never goes inside them.
pub(crate) fn defaulted_types<'p>(
    types: &crate::TypeIndex<'p>,
    server: &ServerPorts<'p>,
) -> rustc_hash::FxHashSet<&'p TypeKey> {
    let plan = |k: &TypeKey| types.get(k);
    let mut out: rustc_hash::FxHashSet<&'p TypeKey> = types
        .iter()
        .filter(|(k, t)| {
            server.contains_key(k)
                || t.fields
                    .iter()
                    .flatten()
                    .any(|f| f.default.is_some() || holds_elem_default(&f.ty, &plan))
                || t.alias_of
                    .as_ref()
                    .is_some_and(|a| holds_elem_default(a, &plan))
        })
        .map(|(k, _)| k)
        .collect();
    loop {
        let before = out.len();
        for (k, t) in types.iter() {
            if out.contains(k) {
                continue;
            }
            let reaches = t
                .fields
                .iter()
                .flatten()
                .filter_map(|f| named(&f.ty))
                .chain(t.alias_of.as_ref().and_then(named))
                .any(|n| out.contains(n));
            if reaches {
                out.insert(k);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The defaulting of one document, applied in place as it walks (a hand-written function reads what the ones
/// before it set, as in Go).
struct Walk<'a, 'p> {
    interp: &'a Interpreter<'p>,
    /// Whether the ported hand-written functions run: the document is of a k8s.io/api type and they are on.
    server: bool,
    out: Vec<Defaulted>,
    segs: Vec<Seg<'p>>,
}

impl<'p> Walk<'_, 'p> {
    /// A value of named type `key` at the current position.
    fn named(&mut self, key: &TypeKey, v: &mut Value, depth: usize) {
        if !self.interp.defaulted.contains(key) {
            return;
        }
        let Some(t) = self.interp.type_plan(key) else {
            return;
        };
        match (&t.fields, &t.alias_of) {
            (Some(_), _) => {
                // Go decodes an absent or `null` struct value as its zero value and defaults inside it; the object
                // is made only when something is set in it.
                let was_null = v.is_null();
                if was_null {
                    *v = Value::Object(Map::new());
                }
                if let Value::Object(m) = v {
                    self.server(&t.key, m);
                    self.fields(t, m, depth);
                }
                if was_null && v.as_object().is_some_and(Map::is_empty) {
                    *v = Value::Null;
                }
            }
            (None, Some(a)) => self.ty(a, v, depth),
            (None, None) => {}
        }
    }

    /// The ported hand-written defaulting functions of type `key` on its object `m` (before the `+default`s of its
    /// fields, as defaulter-gen's generated code calls `SetDefaults_<Type>` first).
    fn server(&mut self, key: &TypeKey, m: &mut Map<String, Value>) {
        if !self.server {
            return;
        }
        let Some(ports) = self.interp.server_ports.get(key) else {
            return;
        };
        for &port in ports {
            if port
                .gate
                .is_some_and(|g| !self.interp.gates.get(g).copied().unwrap_or(false))
            {
                continue;
            }
            let mut target = server::Target::new(m);
            (port.apply)(&mut target);
            for (rel, value) in target.sets {
                let n = self.segs.len();
                self.segs.extend(rel.iter().map(|k| Seg::Key(k)));
                let (pointer, path) = render(&self.segs);
                self.segs.truncate(n);
                self.out.push(Defaulted {
                    pointer,
                    path,
                    value,
                    source: DefaultSource::Server(port),
                });
            }
        }
    }

    /// The fields of struct `t` whose JSON object is `m` (inline embedded structs read the same object).
    fn fields(&mut self, t: &'p TypePlan, m: &mut Map<String, Value>, depth: usize) {
        if depth > 64 {
            return;
        }
        for f in t.fields.as_deref().unwrap_or_default() {
            if f.skip {
                continue;
            }
            if f.flatten || !f.embedded_keys.is_empty() {
                // An inline embedded struct reads the same object; an embedded pointer exists only when one of its
                // keys is present.
                let present =
                    f.embedded_keys.is_empty() || f.embedded_keys.iter().any(|k| m.contains_key(k));
                if present && let Some(inner) = self.struct_of(&f.ty) {
                    if self.interp.defaulted.contains(&inner.key) {
                        self.server(&inner.key, m);
                    }
                    self.fields(inner, m, depth + 1);
                }
                continue;
            }
            if f.json_name.is_empty() || (f.default.is_none() && self.inert(&f.ty)) {
                continue;
            }
            self.segs.push(Seg::Key(&f.json_name));
            if let Some(d) = &f.default
                && self.unset(f, m.get(&f.json_name))
                && let Ok(mut value) = serde_json::from_str::<Value>(d)
                && !self.unset(f, Some(&value))
            {
                // The default's own fields get their defaults, on the new value (listed as part of it).
                let mut inner = Walk {
                    interp: self.interp,
                    server: self.server,
                    out: Vec::new(),
                    segs: Vec::new(),
                };
                inner.ty(&f.ty, &mut value, 1);
                let (pointer, path) = render(&self.segs);
                m.insert(f.json_name.clone(), value.clone());
                self.out.push(Defaulted {
                    pointer,
                    path,
                    value,
                    source: DefaultSource::Tag,
                });
            } else if let Some(v) = m.get_mut(&f.json_name) {
                self.ty(&f.ty, v, depth + 1);
            } else {
                // An absent field is its zero value: a non-pointer struct is still defaulted inside.
                let mut v = Value::Null;
                self.ty(&f.ty, &mut v, depth + 1);
                if !v.is_null() {
                    m.insert(f.json_name.clone(), v);
                }
            }
            self.segs.pop();
        }
    }

    /// True when defaulting can change nothing in a value of `ty` (a field without a `+default` of its own is
    /// then not looked at): scalars, well-known and opaque types, and named types outside `defaulted` (which
    /// [`Walk::named`] would leave at once), through pointers. Lists and maps are never inert (their element
    /// type's `+default`, [`Walk::elem_default`]).
    fn inert(&self, ty: &RustTy) -> bool {
        match ty {
            RustTy::Builtin(_) | RustTy::WellKnown(_) | RustTy::Json => true,
            RustTy::Option(i, _) => self.inert(i),
            RustTy::Named(k) => !self.interp.defaulted.contains(k),
            RustTy::Vec(_) | RustTy::Map(_) => false,
        }
    }

    /// The struct a (pointer to a) named struct type stands for.
    fn struct_of(&self, ty: &RustTy) -> Option<&'p TypePlan> {
        let inner = match ty {
            RustTy::Option(i, _) => &**i,
            other => other,
        };
        match inner {
            RustTy::Named(k) => self.interp.type_plan(k).filter(|t| t.fields.is_some()),
            _ => None,
        }
    }

    /// Whether defaulter-gen's test for field `f` holds for its JSON value `v` (module docs).
    fn unset(&self, f: &FieldPlan, v: Option<&Value>) -> bool {
        let v = match v {
            None | Some(Value::Null) => return true,
            Some(v) => v,
        };
        match self.builtin_of(&f.ty, 0) {
            Some(Builtin::String) => v.as_str() == Some(""),
            Some(Builtin::Bool) => v.as_bool() == Some(false),
            Some(_) => v.as_f64() == Some(0.0),
            None => false,
        }
    }

    /// The builtin scalar a non-pointer type is (through typedefs); `None` for pointers, collections and structs.
    fn builtin_of(&self, ty: &RustTy, depth: usize) -> Option<Builtin> {
        match ty {
            RustTy::Builtin(b) => Some(*b),
            RustTy::Named(k) if depth < 16 => {
                let t = self.interp.type_plan(k)?;
                match (&t.fields, &t.alias_of) {
                    (None, Some(a)) => self.builtin_of(a, depth + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The type-level default list items and map values of element type `e` get: none when `e` has defaulting
    /// of its own (defaulter-gen recurses into the items instead), else [`elem_default`].
    fn elem_default(&self, e: &'p RustTy) -> Option<&'p str> {
        if named(e).is_some_and(|k| self.interp.defaulted.contains(k)) {
            return None;
        }
        elem_default(e, &|k| self.interp.type_plan(k))
    }

    /// defaulter-gen's test before assigning an element default (`writeDefaulter`) for item value `x` of element
    /// type `e`: through a pointer, `nil` (absent or `null` in JSON); a scalar (through typedefs), its zero value
    /// or `null`; a list or map, `nil`. `None` where defaulter-gen's code does not compile (a struct by value).
    fn item_unset(&self, e: &'p RustTy, x: &Value) -> Option<bool> {
        let plan = |k: &TypeKey| self.interp.type_plan(k);
        if pointer_depth(e, &plan) > 0 {
            return Some(x.is_null());
        }
        if let Some(b) = self.builtin_of(e, 0) {
            return Some(match (x, b) {
                (Value::Null, _) => true,
                (x, Builtin::String) => x.as_str() == Some(""),
                (x, Builtin::Bool) => x.as_bool() == Some(false),
                (x, _) => x.as_f64() == Some(0.0),
            });
        }
        let mut t = e;
        for _ in 0..32 {
            t = match t {
                RustTy::Named(k) => plan(k)?.alias_of.as_ref()?,
                RustTy::Vec(_) | RustTy::Map(_) | RustTy::Json => return Some(x.is_null()),
                _ => return None,
            };
        }
        None
    }

    /// The element default `d` of type `e` for item `x`, when defaulter-gen would assign it.
    fn elem_defaulted(&self, e: &'p RustTy, d: &str, x: &Value) -> Option<Value> {
        if self.item_unset(e, x) != Some(true) {
            return None;
        }
        let value = serde_json::from_str::<Value>(d).ok()?;
        (self.item_unset(e, &value) != Some(true)).then_some(value)
    }

    fn ty(&mut self, ty: &'p RustTy, v: &mut Value, depth: usize) {
        match ty {
            RustTy::Named(k) => self.named(k, v, depth),
            // A nil pointer is left alone (defaulter-gen: `if in.F != nil { … }`).
            RustTy::Option(_, _) if v.is_null() => {}
            RustTy::Option(i, _) => self.ty(i, v, depth),
            RustTy::Vec(e) => {
                if let Value::Array(items) = v {
                    let d = self.elem_default(e);
                    for (i, x) in items.iter_mut().enumerate() {
                        self.segs.push(Seg::Index(i));
                        match d.and_then(|d| self.elem_defaulted(e, d, x)) {
                            Some(value) => {
                                let (pointer, path) = render(&self.segs);
                                x.clone_from(&value);
                                self.out.push(Defaulted {
                                    pointer,
                                    path,
                                    value,
                                    source: DefaultSource::Tag,
                                });
                            }
                            None => self.ty(e, x, depth + 1),
                        }
                        self.segs.pop();
                    }
                }
            }
            // defaulter-gen never defaults inside map values (they are not addressable in Go); it only assigns a
            // whole value its type's `+default`.
            RustTy::Map(e) => {
                if let Value::Object(m) = v
                    && let Some(d) = self.elem_default(e)
                {
                    for (key, x) in m.iter_mut() {
                        if let Some(value) = self.elem_defaulted(e, d, x) {
                            let (mut pointer, mut path) = render(&self.segs);
                            pointer.push('/');
                            pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                            path.push_str(&format!("[{key}]"));
                            x.clone_from(&value);
                            self.out.push(Defaulted {
                                pointer,
                                path,
                                value,
                                source: DefaultSource::Tag,
                            });
                        }
                    }
                }
            }
            RustTy::Builtin(_) | RustTy::WellKnown(_) | RustTy::Json => {}
        }
    }
}

/// Sets the member at `pointer` (relative, `/a/0/b`) of `value`, creating absent or `null` parent objects (a
/// default inside a struct the document left out); a missing list item leaves `value` unchanged.
fn set(value: &mut Value, pointer: &str, x: Value) {
    let segs: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    let Some((last, parents)) = segs.split_last() else {
        *value = x;
        return;
    };
    let mut cur = value;
    for s in parents {
        if cur.is_null() {
            *cur = Value::Object(Map::new());
        }
        cur = match cur {
            Value::Object(m) => m.entry(s.clone()).or_insert(Value::Null),
            Value::Array(a) => match s.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                Some(e) => e,
                None => return,
            },
            _ => return,
        };
    }
    if cur.is_null() {
        *cur = Value::Object(Map::new());
    }
    match cur {
        Value::Object(m) => {
            m.insert(last.clone(), x);
        }
        Value::Array(a) => {
            if let Some(slot) = last.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                *slot = x;
            }
        }
        _ => {}
    }
}

impl Interpreter<'_> {
    /// The defaults the API server's defaulting would set in `value`, a document of type `key`, in the order it
    /// sets them (see the module docs for when a field is defaulted): the `+default` values, and, for a k8s.io/api
    /// type, the ported hand-written defaults of the plan's release ([`SERVER_DEFAULTS`]; off with
    /// [`Interpreter::without_server_defaults`]). Empty when nothing is defaulted or `key` is not a type of the
    /// plan. `value` itself is not changed: [`Interpreter::apply_defaults`] does that.
    #[must_use]
    pub fn defaults(&self, key: &TypeKey, value: &Value) -> Vec<Defaulted> {
        let mut copy = value.clone();
        self.apply_defaults(key, &mut copy)
    }

    /// Applies [`Interpreter::defaults`] to `value` and returns what was set.
    pub fn apply_defaults(&self, key: &TypeKey, value: &mut Value) -> Vec<Defaulted> {
        let mut w = Walk {
            interp: self,
            server: self.server_defaults && server::is_server_package(&key.pkg),
            out: Vec::new(),
            segs: Vec::new(),
        };
        vgc_runtime::stack::grow(|| w.named(key, value, 0));
        w.out
    }

    /// The ported hand-written defaulting functions that run for this plan's release
    /// ([`vgc_lowering::CratePlan::upstream`]) on its k8s.io/api types, in [`SERVER_DEFAULTS`]'s order; empty
    /// after [`Interpreter::without_server_defaults`].
    #[must_use]
    pub fn server_defaults(&self) -> Vec<&'static ServerDefault> {
        SERVER_DEFAULTS
            .iter()
            .filter(|r| {
                self.server_ports
                    .values()
                    .any(|ps| ps.iter().any(|p| std::ptr::eq(*p, *r)))
            })
            .collect()
    }
}
