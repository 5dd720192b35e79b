//! Strict decoding: the object keys of a JSON document that no field of the plan's types takes, as Go's
//! `encoding/json` with `DisallowUnknownFields` (the API server's `fieldValidation=Strict`) reports them.
//!
//! A struct takes the JSON names of its fields (`json:"-"` fields take none), and, through inline embedded fields
//! (`json:",inline"`, embedded structs and embedded pointers), the names of the embedded struct's fields, the
//! shallower name winning; names Go ignores because they are ambiguous ([`TypePlan::json_ignored`]) are unknown.
//! Values of well-known types (`Quantity`, `RawExtension`, …) and of `interface{}`/`json.RawMessage` fields are not
//! looked into; a value of the wrong JSON type is left to decoding ([`crate::Interpreter::decode`]).

use crate::Interpreter;
use serde_json::Value;
use std::collections::HashMap;
use vgc_analysis::TypeKey;
use vgc_lowering::plan::{FieldPlan, RustTy, TypePlan};

/// An object key no field takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownField {
    /// JSON Pointer (RFC 6901) of the key's entry (`/spec/foo`).
    pub pointer: String,
    /// The field path as upstream renders it (`spec.foo`, `spec.ports[0].foo`, `spec.selector[app].foo`).
    pub path: String,
    /// The Go type that has no such field (`WidgetSpec`).
    pub type_name: String,
    /// The name is declared by several inline structs of the type at the same depth, so Go's `encoding/json`
    /// drops it ([`TypePlan::json_ignored`]).
    pub ambiguous: bool,
}

struct Walk<'a, 'p> {
    interp: &'a Interpreter<'p>,
    out: Vec<UnknownField>,
}

fn pointer_seg(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

impl<'p> Walk<'_, 'p> {
    fn named(&mut self, key: &TypeKey, v: &Value, ptr: &str, path: &str) {
        let Some(t) = self.interp.type_plan(key) else {
            return;
        };
        match (&t.fields, &t.alias_of) {
            (Some(_), _) => {
                let Value::Object(m) = v else { return };
                let mut known: HashMap<&str, &FieldPlan> = HashMap::new();
                self.known_keys(t, &mut known, 0);
                for ignored in &t.json_ignored {
                    known.remove(ignored.as_str());
                }
                for (k, x) in m {
                    let p = format!("{ptr}/{}", pointer_seg(k));
                    let fp = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    match known.get(k.as_str()) {
                        Some(f) => self.ty(&f.ty, x, &p, &fp),
                        None => self.out.push(UnknownField {
                            pointer: p,
                            path: fp,
                            type_name: t.key.name.clone(),
                            ambiguous: t.json_ignored.iter().any(|i| i == k),
                        }),
                    }
                }
            }
            (None, Some(a)) => self.ty(a, v, ptr, path),
            (None, None) => {}
        }
    }

    /// The JSON names `t` takes, with their fields: its own named fields first, then those of inline embedded
    /// structs (an outer name is not replaced by an inner one). `depth` bounds pathological embedding cycles.
    fn known_keys<'t>(
        &self,
        t: &'t TypePlan,
        known: &mut HashMap<&'t str, &'t FieldPlan>,
        depth: usize,
    ) where
        'p: 't,
    {
        let fields = t.fields.as_deref().unwrap_or_default();
        for f in fields {
            if !(f.skip || f.flatten || !f.embedded_keys.is_empty() || f.json_name.is_empty()) {
                known.entry(f.json_name.as_str()).or_insert(f);
            }
        }
        if depth > 32 {
            return;
        }
        for f in fields {
            let inline = f.flatten || !f.embedded_keys.is_empty();
            if f.skip || !inline {
                continue;
            }
            let inner = match &f.ty {
                RustTy::Option(i, _) => &**i,
                other => other,
            };
            if let RustTy::Named(k) = inner
                && let Some(it) = self.interp.type_plan(k)
            {
                self.known_keys(it, known, depth + 1);
            }
        }
    }

    fn ty(&mut self, ty: &RustTy, v: &Value, ptr: &str, path: &str) {
        match ty {
            RustTy::Named(k) => self.named(k, v, ptr, path),
            RustTy::Option(i, _) => self.ty(i, v, ptr, path),
            RustTy::Vec(e) => {
                if let Value::Array(items) = v {
                    for (i, x) in items.iter().enumerate() {
                        self.ty(e, x, &format!("{ptr}/{i}"), &format!("{path}[{i}]"));
                    }
                }
            }
            RustTy::Map(e) => {
                if let Value::Object(m) = v {
                    for (k, x) in m {
                        self.ty(
                            e,
                            x,
                            &format!("{ptr}/{}", pointer_seg(k)),
                            &format!("{path}[{k}]"),
                        );
                    }
                }
            }
            RustTy::Builtin(_) | RustTy::WellKnown(_) | RustTy::Json => {}
        }
    }
}

impl Interpreter<'_> {
    /// The keys of `value` (a document of type `key`) that no field of the plan's types takes, in document order
    /// (see the module docs). Empty when `key` is not a type of the plan.
    #[must_use]
    pub fn unknown_fields(&self, key: &TypeKey, value: &Value) -> Vec<UnknownField> {
        let mut w = Walk {
            interp: self,
            out: Vec::new(),
        };
        vgc_runtime::stack::grow(|| w.named(key, value, "", ""));
        w.out
    }
}
