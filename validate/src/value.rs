//! Typed values: JSON decoded as the vgc-generated Rust types decode it (serde with vgc's field attributes, which
//! mirror Go's `encoding/json`), compared as those types compare (derived equality, semantic equality of the
//! well-known types) and serialized as they serialize (the JSON upstream's `ErrorBody` shows for a value).

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_lowering::plan::{FieldPlan, RustTy, Shape, TypePlan};
use vgc_runtime::types::{Bytes, Duration, IntOrString, MicroTime, Quantity, Time};

/// A value of a plan type, as the generated Rust type holds it after decoding.
///
/// A Go pointer is the pointee's value or [`Val::Nil`]; a struct holds one value per plan field (in the plan's
/// field order, `json:"-"` fields at their zero value).
#[derive(Debug, Clone)]
pub enum Val<'p> {
    /// A nil pointer (`None` of the generated `Option<T>`).
    Nil,
    /// `bool`.
    Bool(bool),
    /// Any Go integer type (`int8` … `uint64`, `time.Duration`).
    Int(i128),
    /// `float32`.
    F32(f32),
    /// `float64`.
    F64(f64),
    /// `string` (and string typedefs).
    Str(String),
    /// A slice (`[]*T` elements are values or [`Val::Nil`]).
    List(Vec<Val<'p>>),
    /// A map with string keys, sorted.
    Map(BTreeMap<String, Val<'p>>),
    /// A struct of the plan: its type plan and one value per field.
    Struct(&'p TypePlan, Vec<Val<'p>>),
    /// `resource.Quantity`.
    Quantity(Quantity),
    /// `metav1.Time`.
    Time(Time),
    /// `metav1.MicroTime`.
    MicroTime(MicroTime),
    /// `metav1.Duration`.
    Duration(Duration),
    /// `intstr.IntOrString`.
    IntOrString(IntOrString),
    /// Opaque JSON (`runtime.RawExtension`, `metav1.FieldsV1`, interfaces, types outside the plan).
    Json(Value),
    /// `[]byte`.
    Bytes(Bytes),
}

impl PartialEq for Val<'_> {
    /// The generated types' equality: derived for structs, lists, maps and scalars; upstream's semantic equality
    /// for quantities, times and durations (the runtime's own impls).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Val::Nil, Val::Nil) => true,
            (Val::Bool(a), Val::Bool(b)) => a == b,
            (Val::Int(a), Val::Int(b)) => a == b,
            (Val::F32(a), Val::F32(b)) => a == b,
            (Val::F64(a), Val::F64(b)) => a == b,
            (Val::Str(a), Val::Str(b)) => a == b,
            (Val::List(a), Val::List(b)) => a == b,
            (Val::Map(a), Val::Map(b)) => a == b,
            (Val::Struct(ta, a), Val::Struct(tb, b)) => {
                std::ptr::eq(*ta, *tb) && vgc_runtime::stack::grow(|| a == b)
            }
            (Val::Quantity(a), Val::Quantity(b)) => a == b,
            (Val::Time(a), Val::Time(b)) => a == b,
            (Val::MicroTime(a), Val::MicroTime(b)) => a == b,
            (Val::Duration(a), Val::Duration(b)) => a == b,
            (Val::IntOrString(a), Val::IntOrString(b)) => a == b,
            (Val::Json(a), Val::Json(b)) => a == b,
            (Val::Bytes(a), Val::Bytes(b)) => a == b,
            _ => false,
        }
    }
}

impl<'p> Val<'p> {
    /// The value of struct field `go_field` (by Go field name), `None` when this is not a struct or has no such field.
    #[must_use]
    pub fn field(&self, go_field: &str) -> Option<&Val<'p>> {
        match self {
            Val::Struct(t, vals) => t
                .fields
                .as_deref()?
                .iter()
                .position(|f| f.go_field == go_field)
                .and_then(|i| vals.get(i)),
            _ => None,
        }
    }

    /// The string of a [`Val::Str`].
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Go `len` of a list, map, string (bytes) or `[]byte`; 0 otherwise.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Val::List(l) => l.len(),
            Val::Map(m) => m.len(),
            Val::Str(s) => s.len(),
            Val::Bytes(b) => b.len(),
            _ => 0,
        }
    }

    /// True when [`Val::len`] is 0.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// upstream's "is set" of a non-pointer builtin (`vgc_runtime::validate::IsSet`): non-zero; for a list or map,
    /// non-empty; for a pointer, non-nil.
    #[must_use]
    pub fn is_set(&self) -> bool {
        match self {
            Val::Nil => false,
            Val::Bool(b) => *b,
            Val::Int(i) => *i != 0,
            Val::F32(f) => *f != 0.0,
            Val::F64(f) => *f != 0.0,
            Val::Str(s) => !s.is_empty(),
            Val::List(l) => !l.is_empty(),
            Val::Map(m) => !m.is_empty(),
            Val::Bytes(b) => !b.is_empty(),
            _ => true,
        }
    }

    /// True when the value equals its type's `Default` (the generated `*v != Default::default()` test on opaque
    /// values).
    #[must_use]
    pub fn is_default_other(&self) -> bool {
        match self {
            Val::Quantity(q) => *q == Quantity::default(),
            Val::Time(t) => *t == Time::default(),
            Val::MicroTime(t) => *t == MicroTime::default(),
            Val::Duration(d) => *d == Duration::default(),
            Val::IntOrString(i) => *i == IntOrString::default(),
            Val::Json(v) => v.is_null(),
            other => !other.is_set(),
        }
    }
}

impl Serialize for Val<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Val::Nil => s.serialize_none(),
            Val::Bool(b) => s.serialize_bool(*b),
            Val::Int(i) => match (i64::try_from(*i), u64::try_from(*i)) {
                (Ok(v), _) => s.serialize_i64(v),
                (_, Ok(v)) => s.serialize_u64(v),
                _ => s.serialize_i128(*i),
            },
            Val::F32(f) => s.serialize_f32(*f),
            Val::F64(f) => s.serialize_f64(*f),
            Val::Str(v) => s.serialize_str(v),
            Val::List(l) => {
                let mut seq = s.serialize_seq(Some(l.len()))?;
                for v in l {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Val::Map(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Val::Struct(t, vals) => {
                let mut entries = Vec::new();
                struct_entries(t, vals, &mut entries);
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, &v)?;
                }
                map.end()
            }
            Val::Quantity(q) => q.serialize(s),
            Val::Time(t) => t.serialize(s),
            Val::MicroTime(t) => t.serialize(s),
            Val::Duration(d) => d.serialize(s),
            Val::IntOrString(i) => i.serialize(s),
            Val::Json(v) => v.serialize(s),
            Val::Bytes(b) => b.serialize(s),
        }
    }
}

/// A field's serialized form: the value, or `null` for an empty list or map without `omitempty`
/// (`vgc_runtime::types::empty_as_null`).
enum Out<'a, 'p> {
    Val(&'a Val<'p>),
    Null,
}

impl Serialize for Out<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Out::Val(v) => v.serialize(s),
            Out::Null => s.serialize_none(),
        }
    }
}

/// The entries a generated struct serializes, in field order, as codegen's field attributes say
/// (`vgc_codegen` `field_def`): `json:"-"` skipped, inline structs flattened, `omitempty` pointers skipped when
/// nil and other `omitempty` non-struct values when zero, empty lists and maps without `omitempty` as `null`.
fn struct_entries<'a, 'p>(
    t: &'p TypePlan,
    vals: &'a [Val<'p>],
    out: &mut Vec<(&'p str, Out<'a, 'p>)>,
) {
    for (f, v) in t.fields.iter().flatten().zip(vals) {
        if f.skip {
            continue;
        }
        if f.flatten || !f.embedded_keys.is_empty() {
            if let Val::Struct(it, ivals) = v {
                struct_entries(it, ivals, out);
            }
            continue;
        }
        let json = f.json_name.as_str();
        if matches!(f.ty, RustTy::Option(..)) {
            if f.omitempty && matches!(v, Val::Nil) {
                continue;
            }
            out.push((json, Out::Val(v)));
        } else if f.omitempty && !go_struct_value(f) {
            if !is_zero(v) {
                out.push((json, Out::Val(v)));
            }
        } else if matches!(f.shape, Shape::List { .. } | Shape::Map) && v.is_empty() {
            out.push((json, Out::Null));
        } else {
            out.push((json, Out::Val(v)));
        }
    }
}

/// `vgc_codegen`'s `go_struct_value`: structs and well-known struct types, which `omitempty` never omits.
fn go_struct_value(f: &FieldPlan) -> bool {
    match f.shape {
        Shape::Struct { .. } => true,
        Shape::Other { .. } => !matches!(f.ty, RustTy::WellKnown(WellKnown::Bytes) | RustTy::Json),
        _ => false,
    }
}

/// `vgc_runtime::types::is_zero` (`*v == T::default()`) of a non-struct value.
fn is_zero(v: &Val<'_>) -> bool {
    match v {
        Val::Struct(t, vals) => vals
            .iter()
            .zip(t.fields.iter().flatten())
            .all(|(v, f)| f.skip || is_zero(v)),
        other => other.is_default_other(),
    }
}

/// A failure to decode JSON into a plan type, where serde would fail on the generated type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct DecodeError {
    /// JSON Pointer (RFC 6901) of the offending value (`""` for the document).
    pub pointer: String,
    /// What was expected.
    pub message: String,
}

/// Per struct type, what decoding an object of it looks up ([`StructIndex`]); keyed by the address of the type's
/// plan (one integer to hash per object decoded, where hashing the type key's strings showed in profiles).
pub(crate) type JsonFields<'p> = rustc_hash::FxHashMap<usize, StructIndex<'p>>;

/// The [`JsonFields`] key of `t`.
fn plan_address(t: &TypePlan) -> usize {
    std::ptr::from_ref(t) as usize
}

/// One struct type's decoding index.
pub(crate) struct StructIndex<'p> {
    /// The index in its plan fields of each field an object key names: fields that are not `json:"-"`, not
    /// inline (flattened or embedded pointers); the first field of a name when two share it (the second then never
    /// matches, as before).
    by_name: rustc_hash::FxHashMap<&'p str, usize>,
    /// What the type's own (struct-level) checks read ([`Build::Reached`]): `None` when they may read the whole
    /// value, else per field whether one of them reads it (empty without struct-level checks).
    read: Option<Vec<bool>>,
}

/// Builds [`JsonFields`] for every struct of `types`.
pub(crate) fn json_fields<'p>(types: &crate::TypeIndex<'p>) -> JsonFields<'p> {
    types
        .iter()
        .filter_map(|(_, t)| {
            let fields = t.fields.as_deref()?;
            let mut by_name = rustc_hash::FxHashMap::default();
            for (i, f) in fields.iter().enumerate() {
                if !(f.skip || f.flatten || !f.embedded_keys.is_empty()) {
                    by_name.entry(f.json_name.as_str()).or_insert(i);
                }
            }
            let mut names = Vec::new();
            let read = t
                .checks
                .iter()
                .all(|c| fields_read(c, &mut names))
                .then(|| {
                    fields
                        .iter()
                        .map(|f| names.contains(&f.go_field.as_str()))
                        .collect()
                });
            Some((plan_address(t), StructIndex { by_name, read }))
        })
        .collect()
}

/// Adds to `out` the Go names of the fields of its struct that struct-level check `c` reads: the members and
/// discriminator of a union, the trigger and dependent of `dependentRequired`/`dependentForbidden`, the first
/// step of each path of a field-path constraint or virtual group member, the member and discriminator of a
/// modality (through `ifEnabled`/`ifSubresource` wrappers). False for any other check, which may read the whole
/// value.
fn fields_read<'p>(c: &'p vgc_lowering::plan::Check, out: &mut Vec<&'p str>) -> bool {
    use vgc_lowering::plan::CheckKind;
    match &c.kind {
        CheckKind::Union(u) => {
            out.extend(u.members.iter().map(|m| m.member.go.as_str()));
            out.extend(u.discriminator.iter().map(|d| d.go.as_str()));
        }
        CheckKind::Dependent(d) => out.extend([d.trigger.go.as_str(), d.dependent.go.as_str()]),
        CheckKind::FieldConstraint(fc) => out.extend(
            [&fc.target, &fc.bound]
                .into_iter()
                .filter_map(|p| p.steps.first())
                .map(|s| s.go.as_str()),
        ),
        CheckKind::VirtualUnion(v) => {
            out.extend(
                v.members
                    .iter()
                    .filter_map(|m| m.steps.first())
                    .map(|s| s.go.as_str()),
            );
        }
        CheckKind::Discriminated(m) => {
            out.extend([m.member.go.as_str(), m.discriminator.field.as_str()]);
        }
        CheckKind::IfOption(io) => return fields_read(&io.inner, out),
        CheckKind::IfSubresource(is) => return fields_read(&is.inner, out),
        _ => return false,
    }
    true
}

/// How much of a value [`Decoder`] builds. Every mode checks the whole value's JSON types the same way (the same
/// [`DecodeError`], first in the same order); only what is kept differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Build {
    /// The value as the generated type holds it.
    Full,
    /// What validating a create reads (no old object, so no ratcheting equality), as the generated validation
    /// code (and the interpreter, `eval::Cx::type_body`) reads it. A field's checks see only that field's value,
    /// built [`Build::Full`]; a struct-level check (union, `dependentRequired`, field-path constraint, virtual
    /// group, modality) reads the fields it names, built [`Build::Full`], and any other type-level check the whole
    /// value ([`Build::Full`]); a field with no checks but calls into its type's or its elements' validations is
    /// decoded in this mode; every other field holds [`Val::Nil`] and is only checked ([`Build::Nothing`]).
    Reached,
    /// Nothing: the JSON types are checked and [`Val::Nil`] is returned.
    Nothing,
}

impl Build {
    /// The mode of struct field `f`'s value in a struct decoded in this mode; `read` when the struct's own checks
    /// read it ([`StructIndex::read`]).
    fn of_field(self, f: &FieldPlan, read: bool) -> Build {
        match self {
            Build::Reached if read || !f.checks.is_empty() => Build::Full,
            Build::Reached if !f.has_work() => Build::Nothing,
            b => b,
        }
    }
}

/// Decodes JSON into [`Val`]s as serde decodes it into the generated types.
pub(crate) struct Decoder<'d, 'p> {
    pub(crate) types: &'d crate::TypeIndex<'p>,
    pub(crate) json_fields: &'d JsonFields<'p>,
}

/// The JSON Pointer (RFC 6901) of the value being decoded, grown and truncated in place (no allocation per
/// segment; cloned only on error).
type Ptr<'a> = &'a mut String;

/// Appends `/seg` (escaped) to `ptr`; returns the length to truncate back to.
fn push_key(ptr: &mut String, seg: &str) -> usize {
    let len = ptr.len();
    ptr.push('/');
    if seg.contains(['~', '/']) {
        ptr.push_str(&seg.replace('~', "~0").replace('/', "~1"));
    } else {
        ptr.push_str(seg);
    }
    len
}

/// Appends `/index` to `ptr`; returns the length to truncate back to.
fn push_index(ptr: &mut String, index: usize) -> usize {
    use std::fmt::Write as _;
    let len = ptr.len();
    let _ = write!(ptr, "/{index}");
    len
}

fn err(ptr: &str, message: impl Into<String>) -> DecodeError {
    DecodeError {
        pointer: ptr.to_string(),
        message: message.into(),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a floating point number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

impl<'p> Decoder<'_, 'p> {
    /// The zero value of `ty` (`Default::default()` of its generated Rust type).
    pub(crate) fn zero(&self, ty: &'p RustTy) -> Val<'p> {
        match ty {
            RustTy::Builtin(b) => match b {
                Builtin::Bool => Val::Bool(false),
                Builtin::String => Val::Str(String::new()),
                Builtin::Float32 => Val::F32(0.0),
                Builtin::Float64 => Val::F64(0.0),
                _ => Val::Int(0),
            },
            RustTy::Named(k) => match self.types.get(k) {
                Some(t) => self.zero_of(t),
                None => Val::Json(Value::Null),
            },
            RustTy::WellKnown(w) => match w {
                WellKnown::Quantity => Val::Quantity(Quantity::default()),
                WellKnown::Time => Val::Time(Time::default()),
                WellKnown::MicroTime => Val::MicroTime(MicroTime::default()),
                WellKnown::Duration => Val::Duration(Duration::default()),
                WellKnown::IntOrString => Val::IntOrString(IntOrString::default()),
                WellKnown::RawExtension | WellKnown::FieldsV1 => Val::Json(Value::Null),
                WellKnown::Bytes => Val::Bytes(Bytes::default()),
            },
            RustTy::Option(..) => Val::Nil,
            RustTy::Vec(_) => Val::List(Vec::new()),
            RustTy::Map(_) => Val::Map(BTreeMap::new()),
            RustTy::Json => Val::Json(Value::Null),
        }
    }

    fn zero_of(&self, t: &'p TypePlan) -> Val<'p> {
        match (&t.fields, &t.alias_of) {
            (Some(fields), _) => Val::Struct(t, fields.iter().map(|f| self.zero(&f.ty)).collect()),
            (None, Some(a)) => self.zero(a),
            (None, None) => Val::Json(Value::Null),
        }
    }

    /// The zero value of `ty` in mode `b` ([`Val::Nil`] for a value not built).
    fn zero_in(&self, ty: &'p RustTy, b: Build) -> Val<'p> {
        if b == Build::Nothing {
            Val::Nil
        } else {
            self.zero(ty)
        }
    }

    /// Decodes the document of root type `t` as the differential runners do: `null` is the zero value. `b` says
    /// how much is built ([`Build`]).
    pub(crate) fn root(
        &self,
        t: &'p TypePlan,
        v: &Value,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        if v.is_null() {
            return Ok(self.zero_of(t));
        }
        let mut ptr = String::new();
        self.named(t, v, &mut ptr, b)
    }

    fn named(
        &self,
        t: &'p TypePlan,
        v: &Value,
        ptr: Ptr<'_>,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        match (&t.fields, &t.alias_of) {
            (Some(_), _) => match v {
                Value::Object(m) => {
                    let mut entries: Vec<(&str, Option<&Value>)> =
                        m.iter().map(|(k, v)| (k.as_str(), Some(v))).collect();
                    vgc_runtime::stack::grow(|| self.structure(t, &mut entries, ptr, b))
                }
                other => Err(err(
                    ptr,
                    format!(
                        "expected an object ({}), got {}",
                        t.key.name,
                        kind_of(other)
                    ),
                )),
            },
            (None, Some(a)) => {
                // A typedef's checks read its whole value.
                let b = if b == Build::Reached && !t.checks.is_empty() {
                    Build::Full
                } else {
                    b
                };
                self.plain(a, v, ptr, b)
            }
            (None, None) => Ok(json(v, b)),
        }
    }

    /// A struct from the entries of its JSON object: named fields take their key; inline structs take what is
    /// left (serde `flatten`).
    fn structure(
        &self,
        t: &'p TypePlan,
        entries: &mut Vec<(&str, Option<&Value>)>,
        ptr: Ptr<'_>,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        let fields = t.fields.as_deref().unwrap_or_default();
        // Named fields (and the keys Go ignores) first: serde matches them before buffering the rest for the
        // flattened fields. Each key finds its field through the type's index; values are then decoded in field
        // order (the first error in field order is the one reported).
        let index = self.json_fields.get(&plan_address(t));
        // What the struct's own checks read: listed fields, or the whole value (then built in full).
        let (b, read) = match index.and_then(|x| x.read.as_deref()) {
            Some(r) => (b, r),
            None if b == Build::Reached && !t.checks.is_empty() => (Build::Full, &[][..]),
            None => (b, &[][..]),
        };
        let mut taken: Vec<Option<&Value>> = vec![None; fields.len()];
        if let Some(index) = index {
            for (k, v) in entries.iter_mut() {
                if v.is_some()
                    && let Some(&i) = index.by_name.get(k)
                    && taken[i].is_none()
                {
                    taken[i] = v.take();
                }
            }
        }
        let read = |i: usize| read.get(i).copied().unwrap_or(false);
        // One value per field, in field order; inline fields are decoded after the named ones (below).
        let mut vals: Vec<Val<'p>> = if b == Build::Nothing {
            Vec::new()
        } else {
            Vec::with_capacity(fields.len())
        };
        for (i, f) in fields.iter().enumerate() {
            let fb = b.of_field(f, read(i));
            let v = if f.skip || f.flatten || !f.embedded_keys.is_empty() {
                Val::Nil
            } else {
                match taken[i] {
                    None => self.zero_in(&f.ty, fb),
                    Some(v) => {
                        let len = push_key(ptr, &f.json_name);
                        let r = self.field(f, v, ptr, fb);
                        ptr.truncate(len);
                        r?
                    }
                }
            };
            if b != Build::Nothing {
                vals.push(v);
            }
        }
        for ignored in &t.json_ignored {
            for (k, v) in entries.iter_mut() {
                if k == ignored {
                    *v = None;
                }
            }
        }
        for (i, f) in fields.iter().enumerate() {
            let fb = b.of_field(f, read(i));
            let v = if f.skip {
                self.zero_in(&f.ty, fb)
            } else if !f.embedded_keys.is_empty() {
                // R9: `embedded_pointer`: set when one of its keys is present (the remaining entries, not taken).
                let present = f
                    .embedded_keys
                    .iter()
                    .any(|k| entries.iter().any(|(e, v)| e == k && v.is_some()));
                if present {
                    let inner = match &f.ty {
                        RustTy::Option(i, _) => &**i,
                        other => other,
                    };
                    let mut copy: Vec<(&str, Option<&Value>)> = entries.clone();
                    self.flattened(inner, &mut copy, ptr, fb)?
                } else {
                    Val::Nil
                }
            } else if f.flatten {
                self.flattened(&f.ty, entries, ptr, fb)?
            } else {
                continue;
            };
            if b != Build::Nothing {
                vals[i] = v;
            }
        }
        Ok(if b == Build::Nothing {
            Val::Nil
        } else {
            Val::Struct(t, vals)
        })
    }

    fn flattened(
        &self,
        ty: &'p RustTy,
        entries: &mut Vec<(&str, Option<&Value>)>,
        ptr: Ptr<'_>,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        match ty {
            RustTy::Named(k) => match self.types.get(k) {
                Some(t) if t.fields.is_some() => self.structure(t, entries, ptr, b),
                _ => Ok(self.zero_in(ty, b)),
            },
            _ => Ok(self.zero_in(ty, b)),
        }
    }

    /// A struct field's value as its serde attributes decode it (`vgc_codegen` `field_def`).
    fn field(
        &self,
        f: &'p FieldPlan,
        v: &Value,
        ptr: Ptr<'_>,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        let (ty, b) = self.through_typedefs(&f.ty, b);
        match ty {
            // `Option<T>` with `default`: `null` is `None`.
            RustTy::Option(i, _) => {
                if v.is_null() {
                    Ok(Val::Nil)
                } else {
                    self.plain(i, v, ptr, b)
                }
            }
            // `null_items_as_default`.
            RustTy::Vec(e) => match v {
                Value::Null => Ok(Val::List(Vec::new())),
                Value::Array(items) => self.items_null_as_zero(e, items, ptr, b),
                other => Err(err(ptr, format!("expected a list, got {}", kind_of(other)))),
            },
            // `null_values_as_default`, or `null_values_items_as_default` for a map of lists.
            RustTy::Map(e) => match v {
                Value::Null => Ok(Val::Map(BTreeMap::new())),
                Value::Object(m) => self.map(m, ptr, b, |k, x, ptr| {
                    if x.is_null() {
                        return Ok(self.zero_in(e, b));
                    }
                    let len = push_key(ptr, k);
                    let r = match (self.through_typedefs(e, b), x) {
                        ((RustTy::Vec(i), eb), Value::Array(items)) => {
                            self.items_null_as_zero(i, items, ptr, eb)
                        }
                        _ => self.plain(e, x, ptr, b),
                    };
                    ptr.truncate(len);
                    r
                }),
                other => Err(err(
                    ptr,
                    format!("expected an object, got {}", kind_of(other)),
                )),
            },
            // `null_as_default`.
            ty => {
                if v.is_null() {
                    Ok(self.zero_in(ty, b))
                } else {
                    self.plain(ty, v, ptr, b)
                }
            }
        }
    }

    /// A list from its items decoded by `item` (index, value, pointer), in order: [`Val::List`], or [`Val::Nil`]
    /// after checking every item when nothing is built.
    fn list<'v>(
        &self,
        items: &'v [Value],
        ptr: Ptr<'_>,
        b: Build,
        item: impl Fn(usize, &'v Value, Ptr<'_>) -> Result<Val<'p>, DecodeError>,
    ) -> Result<Val<'p>, DecodeError> {
        let mut out = Vec::new();
        if b != Build::Nothing {
            out.reserve_exact(items.len());
        }
        for (i, x) in items.iter().enumerate() {
            let v = item(i, x, ptr)?;
            if b != Build::Nothing {
                out.push(v);
            }
        }
        Ok(if b == Build::Nothing {
            Val::Nil
        } else {
            Val::List(out)
        })
    }

    /// A map from its entries decoded by `value` (key, value, pointer): [`Val::Map`], or [`Val::Nil`] after
    /// checking every value when nothing is built.
    fn map<'v>(
        &self,
        m: &'v serde_json::Map<String, Value>,
        ptr: Ptr<'_>,
        b: Build,
        value: impl Fn(&'v str, &'v Value, Ptr<'_>) -> Result<Val<'p>, DecodeError>,
    ) -> Result<Val<'p>, DecodeError> {
        let mut out = BTreeMap::new();
        for (k, x) in m {
            let v = value(k, x, ptr)?;
            if b != Build::Nothing {
                out.insert(k.clone(), v);
            }
        }
        Ok(if b == Build::Nothing {
            Val::Nil
        } else {
            Val::Map(out)
        })
    }

    /// A list of item type `e` whose `null` items are the item type's zero value (Go's `encoding/json`;
    /// `vgc_runtime::types::null_items_as_default`).
    fn items_null_as_zero(
        &self,
        e: &'p RustTy,
        items: &[Value],
        ptr: Ptr<'_>,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        self.list(items, ptr, b, |i, x, ptr| {
            if x.is_null() {
                return Ok(self.zero_in(e, b));
            }
            let len = push_index(ptr, i);
            let r = self.plain(e, x, ptr, b);
            ptr.truncate(len);
            r
        })
    }

    /// `ty` with typedefs replaced by what they alias (a typedef's value is its aliased type's, [`Self::named`]),
    /// and the mode its value is decoded in from mode `b`: [`Build::Full`] in [`Build::Reached`] when one of the
    /// typedefs on the way has checks (they read its whole value, as in [`Self::named`]).
    fn through_typedefs(&self, ty: &'p RustTy, b: Build) -> (&'p RustTy, Build) {
        let (mut t, mut b) = (ty, b);
        for _ in 0..16 {
            match t {
                RustTy::Named(k) => match self.types.get(k) {
                    Some(p) if p.alias_of.is_some() => {
                        if b == Build::Reached && !p.checks.is_empty() {
                            b = Build::Full;
                        }
                        t = p.alias_of.as_ref().unwrap_or(t);
                    }
                    _ => return (t, b),
                },
                _ => return (t, b),
            }
        }
        (t, b)
    }

    /// A value of `ty` as its own `Deserialize` decodes it (no field attributes: `null` only where the type
    /// accepts it).
    pub(crate) fn plain(
        &self,
        ty: &'p RustTy,
        v: &Value,
        ptr: Ptr<'_>,
        b: Build,
    ) -> Result<Val<'p>, DecodeError> {
        match ty {
            RustTy::Builtin(t) => {
                let decoded = if b == Build::Nothing && *t == Builtin::String {
                    v.is_string().then_some(Val::Nil)
                } else {
                    builtin(*t, v)
                };
                decoded.ok_or_else(|| {
                    err(
                        ptr,
                        format!("expected {}, got {}", builtin_name(*t), describe(v)),
                    )
                })
            }
            RustTy::Named(k) => match self.types.get(k) {
                Some(t) => self.named(t, v, ptr, b),
                None => Ok(json(v, b)),
            },
            RustTy::WellKnown(w) => match (w, b) {
                (WellKnown::RawExtension | WellKnown::FieldsV1, Build::Nothing) => Ok(Val::Nil),
                _ => well_known(*w, v).map_err(|m| err(ptr, m)),
            },
            RustTy::Option(i, _) => {
                if v.is_null() {
                    Ok(Val::Nil)
                } else {
                    self.plain(i, v, ptr, b)
                }
            }
            RustTy::Vec(e) => match v {
                Value::Array(items) => self.list(items, ptr, b, |i, x, ptr| {
                    let len = push_index(ptr, i);
                    let r = self.plain(e, x, ptr, b);
                    ptr.truncate(len);
                    r
                }),
                other => Err(err(ptr, format!("expected a list, got {}", kind_of(other)))),
            },
            RustTy::Map(e) => match v {
                Value::Object(m) => self.map(m, ptr, b, |k, x, ptr| {
                    let len = push_key(ptr, k);
                    let r = self.plain(e, x, ptr, b);
                    ptr.truncate(len);
                    r
                }),
                other => Err(err(
                    ptr,
                    format!("expected an object, got {}", kind_of(other)),
                )),
            },
            RustTy::Json => Ok(json(v, b)),
        }
    }
}

/// Opaque JSON as [`Val::Json`] (a copy), or [`Val::Nil`] when nothing is built.
fn json(v: &Value, b: Build) -> Val<'static> {
    if b == Build::Nothing {
        Val::Nil
    } else {
        Val::Json(v.clone())
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Number(n) => format!("{} {n}", kind_of(v)),
        Value::String(s) if s.len() <= 40 => format!("the string {s:?}"),
        other => kind_of(other).to_string(),
    }
}

fn builtin_name(b: Builtin) -> &'static str {
    match b {
        Builtin::Bool => "a boolean",
        Builtin::String => "a string",
        Builtin::Int | Builtin::Int64 | Builtin::Duration => "an integer (int64)",
        Builtin::Int8 => "an integer (int8)",
        Builtin::Int16 => "an integer (int16)",
        Builtin::Int32 => "an integer (int32)",
        Builtin::Uint | Builtin::Uint64 => "an integer (uint64)",
        Builtin::Uint8 => "an integer (uint8)",
        Builtin::Uint16 => "an integer (uint16)",
        Builtin::Uint32 => "an integer (uint32)",
        Builtin::Float32 | Builtin::Float64 => "a number",
    }
}

/// serde_json's primitive decoding of a builtin (integers must be integral and in range; floats accept any number).
fn builtin(b: Builtin, v: &Value) -> Option<Val<'static>> {
    let int = |min: i128, max: i128| -> Option<Val<'static>> {
        let n = v.as_number()?;
        let i = if let Some(i) = n.as_i64() {
            i128::from(i)
        } else {
            i128::from(n.as_u64()?)
        };
        (min..=max).contains(&i).then_some(Val::Int(i))
    };
    match b {
        Builtin::Bool => v.as_bool().map(Val::Bool),
        Builtin::String => v.as_str().map(|s| Val::Str(s.to_string())),
        Builtin::Int | Builtin::Int64 | Builtin::Duration => {
            int(i128::from(i64::MIN), i128::from(i64::MAX))
        }
        Builtin::Int8 => int(i128::from(i8::MIN), i128::from(i8::MAX)),
        Builtin::Int16 => int(i128::from(i16::MIN), i128::from(i16::MAX)),
        Builtin::Int32 => int(i128::from(i32::MIN), i128::from(i32::MAX)),
        Builtin::Uint | Builtin::Uint64 => int(0, i128::from(u64::MAX)),
        Builtin::Uint8 => int(0, i128::from(u8::MAX)),
        Builtin::Uint16 => int(0, i128::from(u16::MAX)),
        Builtin::Uint32 => int(0, i128::from(u32::MAX)),
        #[allow(clippy::cast_possible_truncation)] // serde's f32 visitor narrows the same way
        Builtin::Float32 => v.as_f64().map(|f| Val::F32(f as f32)),
        Builtin::Float64 => v.as_f64().map(Val::F64),
    }
}

/// The runtime's own `Deserialize` of a well-known type.
fn well_known(w: WellKnown, v: &Value) -> Result<Val<'static>, String> {
    let de = |r: Result<Val<'static>, serde_json::Error>| r.map_err(|e| e.to_string());
    match w {
        WellKnown::Quantity => de(serde::Deserialize::deserialize(v).map(Val::Quantity)),
        WellKnown::Time => de(serde::Deserialize::deserialize(v).map(Val::Time)),
        WellKnown::MicroTime => de(serde::Deserialize::deserialize(v).map(Val::MicroTime)),
        WellKnown::Duration => de(serde::Deserialize::deserialize(v).map(Val::Duration)),
        // Said the way the other wrong types are (`expected …, got …`), not in serde's words.
        WellKnown::IntOrString => {
            let int = v.as_i64().and_then(|i| i32::try_from(i).ok());
            match (v, int) {
                (Value::String(s), _) => Ok(Val::IntOrString(IntOrString::String(s.clone()))),
                (_, Some(i)) => Ok(Val::IntOrString(IntOrString::Int(i))),
                (other, None) => Err(format!(
                    "expected an integer (int32) or a string (intstr.IntOrString), got {}",
                    describe(other)
                )),
            }
        }
        WellKnown::RawExtension | WellKnown::FieldsV1 => Ok(Val::Json(v.clone())),
        WellKnown::Bytes => match v {
            Value::Null => Ok(Val::Bytes(Bytes::default())),
            Value::String(s) => Bytes::from_base64(s).map(Val::Bytes),
            other => Err(format!(
                "expected base64 text (Go []byte), got {}",
                describe(other)
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wrong JSON types of `IntOrString` and `[]byte` are said in the decoder's own words, not serde's
    /// (`data did not match any variant of untagged enum IntOrString`, `Invalid padding`).
    #[test]
    fn int_or_string_and_bytes_errors_are_readable() {
        let ios = |v: Value| well_known(WellKnown::IntOrString, &v).err();
        assert_eq!(ios(serde_json::json!(5)), None);
        assert_eq!(ios(serde_json::json!("25%")), None);
        assert_eq!(
            ios(serde_json::json!([1])).as_deref(),
            Some("expected an integer (int32) or a string (intstr.IntOrString), got a list")
        );
        assert_eq!(
            ios(serde_json::json!(3_000_000_000_i64)).as_deref(),
            Some(
                "expected an integer (int32) or a string (intstr.IntOrString), got an integer 3000000000"
            )
        );
        let bytes = |v: Value| well_known(WellKnown::Bytes, &v).err();
        assert_eq!(bytes(serde_json::json!("YQ==")), None);
        assert_eq!(bytes(Value::Null), None);
        assert_eq!(
            bytes(serde_json::json!("abc")).as_deref(),
            Some(
                "not base64 (Go []byte): the text must be a multiple of 4 characters, padded with '='"
            )
        );
        assert_eq!(
            bytes(serde_json::json!(5)).as_deref(),
            Some("expected base64 text (Go []byte), got an integer 5")
        );
    }
}
