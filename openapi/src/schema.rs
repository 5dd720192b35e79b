//! The schemas of the plan's types, as kube-openapi shapes them: a struct is a component (`type: object`,
//! `properties`, inline-embedded structs' members merged in), a typedef is inlined where it is used (with its
//! type-level rules), builtins and well-known types are their JSON forms. The rules of each field and type are
//! added by [`crate::rules`].

use crate::builder::{At, Builder, Built, Parent, REF_PREFIX, ValueSite};
use crate::cel::{Reason, Rule};
use crate::schema_name;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use vgc_analysis::TypeKey;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_lowering::plan::{FieldPlan, RustTy, Shape, TypePlan};

impl<'a> Builder<'a> {
    /// A component per struct type of the plan, and one per well-known type they use.
    pub(crate) fn build_all(&mut self) {
        let plan = self.plan;
        for t in plan.types() {
            if t.fields.is_some() {
                let s = self.struct_schema(t);
                self.schemas.insert(schema_name(&t.key), Value::Object(s));
            }
        }
        for w in std::mem::take(&mut self.well_known).into_values() {
            let (name, s) = well_known_schema(w);
            self.schemas.insert(name.to_string(), s);
        }
    }

    pub(crate) fn finish(self) -> Built {
        let mut schemas = self.schemas;
        for s in schemas.values_mut() {
            crate::sort_keys(s);
        }
        Built {
            schemas,
            unexpressed: self.unexpressed,
            omitted_by_stability: self.omitted_by_stability,
            omitted_by_option: self.omitted_by_option,
            expressed: self.expressed,
        }
    }

    /// A struct's component: its properties (inline-embedded structs' merged in), `required`, its own and its
    /// fields' rules.
    fn struct_schema(&mut self, t: &'a TypePlan) -> Map<String, Value> {
        let name = schema_name(&t.key);
        let mut node = Map::new();
        if !t.docs.is_empty() {
            node.insert("description".into(), json!(t.docs.join("\n").trim()));
        }
        node.insert("type".into(), json!("object"));
        let mut parent = Parent::default();
        let mut props = Map::new();
        let mut seen = BTreeSet::new();
        self.members(t, &name, &mut props, &mut parent, &mut node, &mut seen);
        if !props.is_empty() {
            node.insert("properties".into(), Value::Object(props));
        }
        // The type's own rules (unions, modes, dependent fields, type-level tags) on the object itself.
        let at = At {
            schema: name.clone(),
            path: String::new(),
        };
        let ty = RustTy::Named(t.key.clone());
        let site = ValueSite {
            ty: &ty,
            struct_plan: Some(t),
            zero: None,
        };
        self.apply(&t.checks, &mut node, &site, &at, None, &mut parent);
        parent.finish_into(&mut node);
        node
    }

    /// Adds the properties of `t`'s fields (recursing into inline-embedded structs, whose type-level rules go onto
    /// `node` too: their `self` is the same object) and their rules.
    fn members(
        &mut self,
        t: &'a TypePlan,
        name: &str,
        props: &mut Map<String, Value>,
        parent: &mut Parent,
        node: &mut Map<String, Value>,
        seen: &mut BTreeSet<TypeKey>,
    ) {
        if !seen.insert(t.key.clone()) {
            return;
        }
        for f in t.fields.iter().flatten() {
            if f.skip {
                self.not_serialized(f, name);
                continue;
            }
            if f.json_name.is_empty() {
                self.embedded(f, name, props, parent, node, seen);
                continue;
            }
            if t.json_ignored.contains(&f.json_name) {
                continue;
            }
            // A non-pointer scalar with `optional` or `required`: a present zero is unset, so nothing else of it runs
            // (`required` reports it, and short-circuits the field's other checks).
            let zero = f
                .checks
                .iter()
                .any(|c| {
                    matches!(
                        c.kind,
                        vgc_lowering::plan::CheckKind::Optional
                            | vgc_lowering::plan::CheckKind::Required { .. }
                    )
                })
                .then(|| crate::builder::zero_literal(&f.shape))
                .flatten();
            // A field forbidden outright (`forbidden`, or under an option fixed to apply it): upstream reports the
            // one `Forbidden` and runs nothing below it (the check short-circuits), so its value's schema carries no
            // rules.
            let forbidden = self.forbidding(&f.checks).cloned();
            let mut prop = self.field_schema(f, zero, forbidden.is_none());
            let at = At {
                schema: name.to_string(),
                path: format!(".{}", f.json_name),
            };
            let site = ValueSite {
                ty: &f.ty,
                struct_plan: None,
                zero,
            };
            // Of a forbidden field, only the forbidding check and the transition checks (which fire on an update
            // that unsets it, before the forbidding one looks) still run.
            let validated = forbidden.is_none();
            let checks: Vec<vgc_lowering::plan::Check> = match forbidden {
                None => f.checks.clone(),
                Some(c) => f
                    .checks
                    .iter()
                    .filter(|x| {
                        **x == c
                            || matches!(
                                x.kind,
                                vgc_lowering::plan::CheckKind::Update(..)
                                    | vgc_lowering::plan::CheckKind::Immutable
                            )
                    })
                    .cloned()
                    .collect(),
            };
            self.apply(&checks, &mut prop, &site, &at, Some(f), parent);
            if validated {
                self.absent_list_union(f, parent);
                self.typedef_setness(f, zero.is_some(), parent);
            }
            // A map's key type's rules, where upstream calls its function on every key.
            if validated {
                let keys = self.key_type_checks(f.key_iteration.as_ref());
                self.apply(&keys, &mut prop, &site, &at, Some(f), parent);
            }
            props.insert(f.json_name.clone(), Value::Object(prop));
        }
    }

    /// A field Go's `encoding/json` never reads or writes (`json:"-"`): upstream's generated code still validates
    /// it (validation-gen v0.37.2 runs its tags at a path named after its type, `string`: a `+k8s:required` on it
    /// refuses every create whose Go code leaves it empty), but a schema validates JSON, which has no property for
    /// it: its rules, and its type's where upstream calls them, are listed as not expressed.
    fn not_serialized(&mut self, f: &FieldPlan, name: &str) {
        let path = format!(" (field {}, json:\"-\")", f.go_field);
        let why = "a field that is not serialized (`json:\"-\"`) has no property in OpenAPI; upstream validates the Go value, which decoding never sets";
        self.unexpressed_checks(&f.checks, name, &path, why);
        let called = f
            .nested
            .iter()
            .map(|n| &n.ty)
            .chain(f.iteration.iter().map(|i| &i.elem));
        for k in called {
            if self
                .types
                .get(k)
                .is_some_and(|t| !t.checks.is_empty() || t.fields.is_some())
            {
                self.unexpressed.push(crate::Unexpressed {
                    schema: name.to_string(),
                    path: path.clone(),
                    rule: format!("the rules of {}", schema_name(k)),
                    reason: why.to_string(),
                });
            }
        }
    }

    /// An inline-embedded field: its struct's members become the parent's, its type-level rules the parent's.
    fn embedded(
        &mut self,
        f: &'a FieldPlan,
        name: &str,
        props: &mut Map<String, Value>,
        parent: &mut Parent,
        node: &mut Map<String, Value>,
        seen: &mut BTreeSet<TypeKey>,
    ) {
        let Some(k) = f.ty.named() else {
            if !f.checks.is_empty() {
                self.unexpressed_checks(&f.checks, name, &format!(" (embedded {})", f.go_name), "an embedded field that is not a struct has no JSON name OpenAPI can place a rule at");
            }
            return;
        };
        let Some(&et) = self.types.get(k) else {
            return;
        };
        if !f.checks.is_empty() {
            self.unexpressed_checks(
                &f.checks,
                name,
                &format!(" (embedded {})", f.go_name),
                "rules written on an inline-embedded field have no property of their own in OpenAPI",
            );
        }
        if !matches!(f.shape, Shape::Struct { pointer: true }) {
            self.members(et, name, props, parent, node, seen);
            self.embedded_type_rules(et, name, node, parent);
            return;
        }
        // Embedded by pointer: Go's `encoding/json` allocates the struct only when one of its JSON names is present,
        // and upstream validates nothing of it while it is nil. Its members' `required` and its struct-level rules
        // hold only when one of its properties is present, said in CEL on the parent.
        let before: BTreeSet<String> = props.keys().cloned().collect();
        let mut inner = Parent::default();
        let mut scratch = Map::new();
        self.members(et, name, props, &mut inner, &mut scratch, seen);
        self.embedded_type_rules(et, name, &mut scratch, &mut inner);
        let present: Vec<String> = props
            .keys()
            .filter(|k| !before.contains(*k))
            .filter_map(|k| crate::cel::member("self", k).map(|m| format!("has({m})")))
            .collect();
        if present.is_empty() {
            parent.required.extend(inner.required);
            parent.rules.extend(inner.rules);
            return;
        }
        let allocated = format!("({})", present.join(" || "));
        // The rules written on the object itself (the embedded type's unions and the like), made conditional; its
        // other keys (unexpressed rules, stability marks) as they are.
        for (k, v) in scratch {
            match (k.as_str(), v) {
                ("x-kubernetes-validations", Value::Array(rules)) => {
                    let e = node.entry(k).or_insert_with(|| Value::Array(Vec::new()));
                    for mut r in rules {
                        for key in ["rule", crate::cel::PLAIN_RULE_KEY] {
                            if let Some(Value::String(x)) = r.get_mut(key) {
                                *x = format!("!{allocated} || ({x})");
                            }
                        }
                        if let Value::Array(a) = e {
                            a.push(r);
                        }
                    }
                }
                (_, Value::Array(items)) => {
                    if let Value::Array(a) =
                        node.entry(k).or_insert_with(|| Value::Array(Vec::new()))
                    {
                        a.extend(items);
                    }
                }
                (_, Value::Object(m)) => {
                    if let Value::Object(o) =
                        node.entry(k).or_insert_with(|| Value::Object(Map::new()))
                    {
                        o.extend(m);
                    }
                }
                (_, v) => {
                    node.insert(k, v);
                }
            }
        }
        for (n, level) in inner.required {
            let Some(m) = crate::cel::member("self", &n) else {
                parent.required.push((n, level));
                continue;
            };
            let mut r = Rule::new(format!("!{allocated} || has({m})"), "")
                .reason(Reason::Required)
                .at(Some(crate::cel::field_path(&n)));
            r.stability = level;
            r.tag = Some("k8s:required".into());
            parent.rules.push(r);
        }
        for mut r in inner.rules {
            r.rule = format!("!{allocated} || ({})", r.rule);
            if let Some(p) = r.plain.take() {
                r.plain = Some(format!("!{allocated} || ({p})"));
            }
            parent.rules.push(r);
        }
    }

    /// An embedded struct's type-level rules, on the object it is embedded in.
    fn embedded_type_rules(
        &mut self,
        et: &'a TypePlan,
        name: &str,
        node: &mut Map<String, Value>,
        parent: &mut Parent,
    ) {
        let at = At {
            schema: name.to_string(),
            path: String::new(),
        };
        let ty = RustTy::Named(et.key.clone());
        let site = ValueSite {
            ty: &ty,
            struct_plan: Some(et),
            zero: None,
        };
        self.apply(&et.checks, node, &site, &at, None, parent);
    }

    /// A field's property schema: its value's schema (without rules unless `validated`), its `+default`.
    fn field_schema(
        &mut self,
        f: &FieldPlan,
        zero: Option<&'static str>,
        validated: bool,
    ) -> Map<String, Value> {
        // Whether the field's value (its type's validation) and its elements are validated at all: upstream calls
        // a type's function only where the plan says so (`nested`, `iteration`; PodTemplateSpec's ObjectMeta
        // "has no validation"), and not below a field it forbids (`validated` false).
        let calls = Calls {
            value: validated && f.nested.is_some(),
            elems: validated && f.iteration.is_some(),
        };
        let mut s = self.value_schema_with(&f.ty, zero, calls);
        if let Some(d) = &f.default
            && let Ok(v) = serde_json::from_str::<Value>(d)
        {
            s.insert("default".into(), v);
        }
        s
    }

    /// The schema of a value of type `ty`: a `$ref` for a struct, the inlined schema (with its rules) for a typedef,
    /// the JSON form of builtins and well-known types. `zero`: the value's CEL zero when upstream reads a present
    /// zero as unset (a typedef's own rules then let it through too). `calls`: whether the value's type validation
    /// and its elements' run; where not, a struct is referenced through its variant without rules
    /// ([`crate::UNVALIDATED_SUFFIX`]) and a typedef is inlined without its rules.
    fn value_schema_with(
        &mut self,
        ty: &RustTy,
        zero: Option<&'static str>,
        calls: Calls,
    ) -> Map<String, Value> {
        match ty {
            RustTy::Builtin(b) => builtin_schema(*b),
            RustTy::Option(inner, _) => self.value_schema_with(inner, zero, calls),
            RustTy::Vec(inner) | RustTy::Map(inner) => {
                let elems = Value::Object(self.value_schema_with(
                    inner,
                    None,
                    Calls {
                        value: calls.elems,
                        elems: true,
                    },
                ));
                if matches!(ty, RustTy::Vec(_)) {
                    object([("items", elems), ("type", json!("array"))])
                } else {
                    object([("additionalProperties", elems), ("type", json!("object"))])
                }
            }
            RustTy::Json => any_value(),
            RustTy::WellKnown(WellKnown::Bytes) => {
                object([("format", json!("byte")), ("type", json!("string"))])
            }
            RustTy::WellKnown(WellKnown::Duration) => object([("type", json!("string"))]),
            RustTy::WellKnown(w) => {
                let (name, _) = well_known_schema(*w);
                self.well_known.insert(name, *w);
                ref_to(name)
            }
            RustTy::Named(k) => {
                let Some(&t) = self.types.get(k) else {
                    // A type the plan does not hold (opaque or outside the build): any value.
                    return any_value();
                };
                if t.fields.is_some() {
                    if !calls.value {
                        return ref_to(&format!("{}{}", schema_name(k), crate::UNVALIDATED_SUFFIX));
                    }
                    return ref_to(&schema_name(k));
                }
                let Some(alias) = &t.alias_of else {
                    return Map::new();
                };
                if !calls.value {
                    let none = Calls {
                        value: false,
                        elems: false,
                    };
                    return self.value_schema_with(alias, None, none);
                }
                // A list or map typedef runs its elements' function where its own plan says so.
                let elems = Calls {
                    value: true,
                    elems: t.iteration.is_some(),
                };
                // A typedef of a typedef (`type Alias Name`): upstream's function applies this typedef's own rules
                // only, never the inner typedef's (validation-gen does not follow the chain; lint VGC0313), so the
                // inner typedefs are inlined without their rules.
                let mut s = self.value_schema_with(self.chain_end(alias), None, elems);
                let at = At {
                    schema: schema_name(k),
                    path: String::new(),
                };
                let site = ValueSite {
                    ty: alias,
                    struct_plan: None,
                    zero,
                };
                let mut parent = Parent::default();
                self.apply(&t.checks, &mut s, &site, &at, None, &mut parent);
                let keys = self.key_type_checks(t.key_iteration.as_ref());
                self.apply(&keys, &mut s, &site, &at, None, &mut parent);
                parent.finish_into(&mut s);
                s
            }
        }
    }

    /// `ty` with any typedefs of typedefs followed to the type the last one stands for (`Alias` → `Name` →
    /// `string` gives `string`), keeping a struct, a builtin or a list/map as it is.
    fn chain_end<'t>(&self, ty: &'t RustTy) -> &'t RustTy
    where
        'a: 't,
    {
        match ty {
            RustTy::Named(k) => match self.types.get(k) {
                Some(t) if t.fields.is_none() => {
                    t.alias_of.as_ref().map_or(ty, |a| self.chain_end(a))
                }
                _ => ty,
            },
            _ => ty,
        }
    }

    /// The rules a map's key type contributes where upstream calls its function on every key (`EachMapKey(…,
    /// Validate_Key)` for `map[Key]V`, [`vgc_lowering::plan::FieldPlan::key_iteration`]): each of the key type's own
    /// type-level checks as an `eachKey` check of its level (a rule over `self.all(k, …)`, old keys skipped on an
    /// update as upstream's `EachMapKey` skips them). Empty when there is no such call.
    pub(crate) fn key_type_checks(
        &self,
        it: Option<&vgc_lowering::plan::Iteration>,
    ) -> Vec<vgc_lowering::plan::Check> {
        let Some(kt) = it.and_then(|it| self.types.get(&it.elem)) else {
            return Vec::new();
        };
        kt.checks
            .iter()
            .map(|c| vgc_lowering::plan::Check {
                kind: vgc_lowering::plan::CheckKind::EachKey(vec![c.clone()]),
                short_circuit: false,
                non_error: false,
                stability: c.stability,
                tag: None,
                cohort: None,
            })
            .collect()
    }
}

/// Whether a value's own type validation, and its elements', run.
#[derive(Clone, Copy)]
pub(crate) struct Calls {
    /// The value's type's validation function is called (a struct's component rules, a typedef's rules).
    pub(crate) value: bool,
    /// Its elements' (list items, map values) type validation is called.
    pub(crate) elems: bool,
}

/// `{"$ref": …}` to the component `name`.
pub(crate) fn ref_to(name: &str) -> Map<String, Value> {
    object([("$ref", json!(format!("{REF_PREFIX}{name}")))])
}

/// The schema object holding `keywords`, in their order.
fn object<const N: usize>(keywords: [(&str, Value); N]) -> Map<String, Value> {
    keywords
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The schema of any value (`x-kubernetes-preserve-unknown-fields`).
fn any_value() -> Map<String, Value> {
    object([("x-kubernetes-preserve-unknown-fields", json!(true))])
}

/// A builtin's JSON schema, as kube-openapi writes it.
fn builtin_schema(b: Builtin) -> Map<String, Value> {
    let (ty, format) = match b {
        Builtin::Bool => ("boolean", None),
        Builtin::String => ("string", None),
        Builtin::Int32 | Builtin::Int16 | Builtin::Int8 | Builtin::Uint16 | Builtin::Uint8 => {
            ("integer", Some("int32"))
        }
        Builtin::Int
        | Builtin::Int64
        | Builtin::Uint
        | Builtin::Uint32
        | Builtin::Uint64
        | Builtin::Duration => ("integer", Some("int64")),
        Builtin::Float32 | Builtin::Float64 => ("number", Some("double")),
    };
    let mut m = Map::new();
    if let Some(f) = format {
        m.insert("format".into(), json!(f));
    }
    m.insert("type".into(), json!(ty));
    m
}

/// A well-known type's component: its kube-openapi name and schema (as k8s.io/kubernetes' spec has it, without
/// the description).
pub(crate) fn well_known_schema(w: WellKnown) -> (&'static str, Value) {
    match w {
        WellKnown::Quantity => (
            "io.k8s.apimachinery.pkg.api.resource.Quantity",
            json!({"oneOf": [{"type": "string"}, {"type": "number"}]}),
        ),
        WellKnown::IntOrString => (
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
            json!({"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]}),
        ),
        WellKnown::Time => (
            "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
            json!({"format": "date-time", "type": "string"}),
        ),
        WellKnown::MicroTime => (
            "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
            json!({"format": "date-time", "type": "string"}),
        ),
        WellKnown::Duration => (
            "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
            json!({"type": "string"}),
        ),
        WellKnown::RawExtension => (
            "io.k8s.apimachinery.pkg.runtime.RawExtension",
            json!({"type": "object"}),
        ),
        WellKnown::FieldsV1 => (
            "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
            json!({"type": "object"}),
        ),
        WellKnown::Bytes => ("", json!({"format": "byte", "type": "string"})),
    }
}
