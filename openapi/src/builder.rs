//! The state of one export: the plan, the options, the schemas built so far and what was not said. Its methods
//! live where their concern does: the schemas of types in [`crate::schema`], the rules of checks in
//! [`crate::rules`].

use crate::{Options, Unexpressed};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use vgc_analysis::TypeKey;
use vgc_analysis::types::WellKnown;
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{RustTy, TypePlan};

/// How a component is referenced.
pub(crate) const REF_PREFIX: &str = "#/components/schemas/";

/// The component a `$ref` (or one-element `allOf`) of `m` names.
pub(crate) fn ref_name(m: &Map<String, Value>) -> Option<&str> {
    let r = m.get("$ref").or_else(|| {
        m.get("allOf")
            .and_then(Value::as_array)
            .filter(|a| a.len() == 1)
            .and_then(|a| a[0].get("$ref"))
    })?;
    r.as_str()?.strip_prefix(REF_PREFIX)
}

/// Every `$ref` target below `v`, in document order.
pub(crate) fn refs(v: &Value, out: &mut impl Extend<String>) {
    match v {
        Value::Object(m) => {
            if let Some(r) = ref_name(m) {
                out.extend([r.to_string()]);
            }
            m.values().for_each(|x| refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// What the [`Builder`] produced.
pub(crate) struct Built {
    pub(crate) schemas: BTreeMap<String, Value>,
    pub(crate) unexpressed: Vec<Unexpressed>,
    pub(crate) omitted_by_stability: usize,
    pub(crate) omitted_by_option: usize,
    pub(crate) expressed: usize,
}

/// Builds every component schema of a plan.
pub(crate) struct Builder<'a> {
    pub(crate) plan: &'a CratePlan,
    pub(crate) options: &'a Options,
    pub(crate) types: BTreeMap<&'a TypeKey, &'a TypePlan>,
    pub(crate) schemas: BTreeMap<String, Value>,
    pub(crate) well_known: BTreeMap<&'static str, WellKnown>,
    pub(crate) unexpressed: Vec<Unexpressed>,
    pub(crate) omitted_by_stability: usize,
    pub(crate) omitted_by_option: usize,
    pub(crate) expressed: usize,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(plan: &'a CratePlan, options: &'a Options) -> Self {
        Self {
            plan,
            options,
            types: plan.types_by_key(),
            schemas: BTreeMap::new(),
            well_known: BTreeMap::new(),
            unexpressed: Vec::new(),
            omitted_by_stability: 0,
            omitted_by_option: 0,
            expressed: 0,
        }
    }
}

/// Where a rule belongs, for [`Unexpressed`] entries.
pub(crate) struct At {
    /// The component.
    pub(crate) schema: String,
    /// The JSON path below it.
    pub(crate) path: String,
}

/// The value a list of checks applies to.
pub(crate) struct ValueSite<'p> {
    /// Its type.
    pub(crate) ty: &'p RustTy,
    /// The struct's plan when the value is a struct whose component is being built (type-level checks).
    pub(crate) struct_plan: Option<&'p TypePlan>,
    /// The value's zero as CEL (`''`, `0`, `false`) when upstream reads a present zero as unset: a non-pointer
    /// scalar field with `+k8s:optional` or `+k8s:required`, whose other checks (its type's included) are skipped
    /// when it is zero.
    pub(crate) zero: Option<&'static str>,
}

/// The CEL zero of a non-pointer scalar value, `None` for other shapes.
pub(crate) fn zero_literal(shape: &vgc_lowering::plan::Shape) -> Option<&'static str> {
    use vgc_analysis::types::Builtin;
    match shape {
        vgc_lowering::plan::Shape::Scalar { ty, pointer: false } => Some(match ty {
            Builtin::String => "''",
            Builtin::Bool => "false",
            Builtin::Float32 | Builtin::Float64 => "0.0",
            _ => "0",
        }),
        _ => None,
    }
}

/// What the checks of a struct's fields add to the struct's own schema: `required` names and presence or transition
/// rules on `self.<field>`.
#[derive(Default)]
pub(crate) struct Parent {
    /// The fields `required` names, with their tags' levels.
    pub(crate) required: Vec<(String, Option<vgc_ir::catalog::Stability>)>,
    /// Rules on the struct.
    pub(crate) rules: Vec<crate::cel::Rule>,
}
