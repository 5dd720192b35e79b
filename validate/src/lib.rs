//! vgc-validate: evaluates vgc's lowered validation plan ([`vgc_lowering::CratePlan`]) over JSON values, with no
//! Rust compile step, returning the error list the vgc-generated Rust code returns for the same input (and so,
//! through the differential tests, the one upstream's generated Go returns).
//!
//! - [`Interpreter::new`] indexes a plan once; [`Interpreter::validate`] validates one document of a root type
//!   (object, optional old object, [`vgc_runtime::Operation`]).
//! - Decoding follows the generated types' serde decoding ([`value`]), which mirrors Go's `encoding/json` as far
//!   as JSON can (deviations D9/D11 in `docs/deviations.md`: a nil and an empty list or map are one value).
//! - The checks call `vgc_runtime`'s validators, formats and error types, as the generated code does (`eval`
//!   mirrors `vgc_codegen::emit` piece by piece).
//!
//! - [`Interpreter::unknown_fields`] lists the keys no field takes (`vgc validate --strict`).
//! - [`Interpreter::defaults`] / [`Interpreter::apply_defaults`]: the `+default` values the API server sets before
//!   validating, and, on k8s.io/api types, its hand-written defaults where a rule reads them ([`Defaulted`],
//!   [`SERVER_DEFAULTS`]); [`Interpreter::validate`] itself does not default.
//!
//! Invariant: no check of the plan is silently skipped — one the interpreter cannot run (a hand-written
//! `+k8s:customValidation` function) is an [`EvalError`] when reached.

#![warn(missing_docs)]

mod defaults;
mod eval;
mod ports;
mod strict;
pub mod value;

use serde_json::Value;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use vgc_analysis::TypeKey;
use vgc_ir::catalog::Stability;
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{CheckKind, TypePlan};
use vgc_runtime::{Error, ErrorList, Operation, Path};

pub use defaults::{DefaultSource, Defaulted, SERVER_DEFAULTS, ServerDefault};
pub use strict::UnknownField;
pub use value::{DecodeError, Val};

/// A hand-written function an evaluation reached and could not run: a `+k8s:customValidation` function, or a
/// project deep-equality function (`+k8s:validation-gen-deep-equal-func`, upstream 1.38) where upstream calls it
/// (comparing values that are not directly comparable; the interpreter then went on with vgc's default equality).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// The upstream function name (`ValidateCustom_<Type>[_<Field>]`, or the deep-equality function as the tag
    /// names it).
    pub function: String,
    /// The tag that names it (`k8s:customValidation`, `k8s:validation-gen-deep-equal-func`).
    pub tag: &'static str,
    /// The field path it would run at (upstream's rendering, `spec.x`; `<nil>` at the root).
    pub path: String,
}

/// The result of [`Interpreter::validate_partial`]: the errors of every rule the interpreter ran, and the
/// hand-written validations it reached but could not run.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    /// The errors, in upstream's order with the unchecked validations' errors missing.
    pub errors: ErrorList,
    /// The hand-written validations reached, in evaluation order.
    pub unchecked: Vec<Unchecked>,
}

/// Why a document could not be evaluated (as opposed to being invalid, which is an [`ErrorList`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// The type is not a type of the plan.
    #[error("{0} is not a type of the validation plan")]
    UnknownType(String),
    /// The JSON does not decode into the type (where the generated Rust type's serde decoding fails too).
    #[error("the document does not decode: {0}")]
    Decode(#[from] DecodeError),
    /// The old object (on update) does not decode into the type; its pointer is into the old object.
    #[error("the old object does not decode: {0}")]
    DecodeOld(DecodeError),
    /// A `+k8s:customValidation` function was reached: it is hand-written Go (or Rust), which the interpreter
    /// cannot run.
    #[error("{path}: hand-written validation {function} (+{tag}) cannot be interpreted")]
    CustomValidation {
        /// The upstream function name (`ValidateCustom_<Type>[_<Field>]`, or a project deep-equality function).
        function: String,
        /// The tag that names it ([`Unchecked::tag`]).
        tag: &'static str,
        /// The field path it would run at.
        path: String,
    },
    /// A project format's pattern does not compile (vgc's loader normally refuses such a file first).
    #[error("project format {format}: pattern {pattern:?} does not compile")]
    Pattern {
        /// The format's name.
        format: String,
        /// Its Go pattern.
        pattern: String,
    },
    /// A check met a value of another shape than the plan says (a plan inconsistency, never valid input).
    #[error("{path}: the plan expects {expected} here")]
    Shape {
        /// The field path.
        path: String,
        /// What the check needs.
        expected: &'static str,
    },
}

/// A hand-written `+k8s:customValidation` function supplied to the interpreter: called as the generated code calls
/// the `Custom` trait's method (operation, the field path, the value and the old value, each nilable), it returns
/// the errors to report.
pub type CustomFn = Box<
    dyn Fn(&Operation, &Path<'_>, Option<&Val<'_>>, Option<&Val<'_>>) -> ErrorList + Send + Sync,
>;

/// A plan indexed for evaluation.
pub struct Interpreter<'p> {
    plan: &'p CratePlan,
    types: TypeIndex<'p>,
    patterns: HashMap<String, Result<regex::Regex, String>>,
    custom: HashMap<String, CustomFn>,
    /// Types with a `+default` or a ported hand-written defaulting function, or a field of a type defaulting
    /// reaches from them ([`defaults::defaulted_types`]): the defaulting walk skips every other value.
    defaulted: rustc_hash::FxHashSet<&'p TypeKey>,
    /// The ported hand-written defaulting functions of the plan's release by the k8s.io/api type they take
    /// ([`defaults::server_ports`]); empty when they are off.
    server_ports: defaults::ServerPorts<'p>,
    /// Whether [`Interpreter::defaults`] runs them ([`Interpreter::without_server_defaults`]).
    server_defaults: bool,
    /// The feature gates they read ([`Interpreter::with_feature_gates`]); a gate not listed is off.
    gates: BTreeMap<String, bool>,
    /// Per struct type, its named fields by JSON name ([`value::json_fields`]): decoding an object looks each key
    /// up once instead of comparing every field's name with every key.
    json_fields: value::JsonFields<'p>,
    /// Packages with a project deep-equality function (`ModulePlan::deep_equal`): import path → the function as
    /// the tag names it.
    pub(crate) deep_equal: HashMap<&'p str, &'p str>,
    /// The generated types Go's `==` cannot compare (computed only when [`Interpreter::deep_equal`] is not empty).
    pub(crate) not_comparable: std::collections::BTreeSet<TypeKey>,
}

/// The plan's types by key. The interpreter looks a type up for every named value it decodes, defaults or
/// validates; hashing and comparing the key's two strings was a visible share of `vgc validate`'s profile (SipHash
/// first, then Fx hashing and the comparisons), so each [`TypeKey`] the plan itself holds (type keys, field and
/// element types, calls) is also indexed by its address: a lookup with one of them hashes one integer.
pub(crate) struct TypeIndex<'p> {
    by_key: rustc_hash::FxHashMap<&'p TypeKey, &'p TypePlan>,
    by_address: rustc_hash::FxHashMap<usize, &'p TypePlan>,
}

impl<'p> TypeIndex<'p> {
    /// Indexes every type of `plan`.
    fn new(plan: &'p CratePlan) -> Self {
        let by_key: rustc_hash::FxHashMap<&'p TypeKey, &'p TypePlan> = plan
            .modules
            .iter()
            .flat_map(|m| m.types.iter().map(|t| (&t.key, &**t)))
            .collect();
        let mut keys: Vec<&'p TypeKey> = Vec::new();
        fn of_ty<'p>(ty: &'p vgc_lowering::plan::RustTy, out: &mut Vec<&'p TypeKey>) {
            use vgc_lowering::plan::RustTy;
            match ty {
                RustTy::Named(k) => out.push(k),
                RustTy::Option(i, _) | RustTy::Vec(i) | RustTy::Map(i) => of_ty(i, out),
                RustTy::Builtin(_) | RustTy::WellKnown(_) | RustTy::Json => {}
            }
        }
        for t in by_key.values() {
            keys.push(&t.key);
            t.alias_of.iter().for_each(|a| of_ty(a, &mut keys));
            keys.extend(t.iteration.iter().chain(&t.key_iteration).map(|i| &i.elem));
            for f in t.fields.iter().flatten() {
                of_ty(&f.ty, &mut keys);
                keys.extend(f.nested.iter().map(|n| &n.ty));
                keys.extend(f.iteration.iter().chain(&f.key_iteration).map(|i| &i.elem));
            }
        }
        let by_address = keys
            .into_iter()
            .filter_map(|k| Some((std::ptr::from_ref(k) as usize, *by_key.get(k)?)))
            .collect();
        Self { by_key, by_address }
    }

    /// The plan of type `k`.
    pub(crate) fn get(&self, k: &TypeKey) -> Option<&'p TypePlan> {
        self.by_address
            .get(&(std::ptr::from_ref(k) as usize))
            .or_else(|| self.by_key.get(k))
            .copied()
    }

    /// Every type, by key (in no particular order).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'p TypeKey, &'p TypePlan)> + '_ {
        self.by_key.iter().map(|(k, t)| (*k, *t))
    }

    /// Every type's plan (in no particular order).
    pub(crate) fn values(&self) -> impl Iterator<Item = &'p TypePlan> + '_ {
        self.by_key.values().copied()
    }
}

/// The declarative rules that apply to a root type: the checks reachable from it (its own, its fields',
/// nested types' and elements'), by stability.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Checks reachable from the root, each counted once per declaration (wrappers count with their inner
    /// checks, e.g. `ifEnabled(X)=+k8s:required` is one rule).
    pub rules: usize,
    /// How many of them are marked alpha.
    pub alpha: usize,
    /// How many are marked beta.
    pub beta: usize,
    /// Types whose validation is reachable from the root, the root included.
    pub types: usize,
}

impl<'p> Interpreter<'p> {
    /// Indexes `plan`'s types and compiles its project formats' patterns (once per interpreter).
    #[must_use]
    pub fn new(plan: &'p CratePlan) -> Self {
        let types = TypeIndex::new(plan);
        let mut patterns = HashMap::new();
        for t in types.values() {
            let fields = t.fields.iter().flatten().flat_map(|f| &f.checks);
            for c in t.checks.iter().chain(fields) {
                c.walk(&mut |c| {
                    if let CheckKind::Matches(p) = &c.kind {
                        patterns.entry(p.pattern.clone()).or_insert_with(|| {
                            vgc_runtime::regex::compile_go(&p.pattern).map_err(|e| e.to_string())
                        });
                    }
                });
            }
        }
        let server_ports = defaults::server_ports(&types, plan.upstream);
        let defaulted = defaults::defaulted_types(&types, &server_ports);
        let json_fields = value::json_fields(&types);
        let deep_equal: HashMap<&str, &str> = plan
            .modules
            .iter()
            .filter_map(|m| Some((m.pkg.as_str(), m.deep_equal.as_deref()?)))
            .collect();
        let not_comparable = if deep_equal.is_empty() {
            std::collections::BTreeSet::new()
        } else {
            plan.not_directly_comparable()
        };
        Self {
            plan,
            json_fields,
            types,
            patterns,
            custom: HashMap::new(),
            defaulted,
            server_ports,
            server_defaults: true,
            gates: BTreeMap::new(),
            deep_equal,
            not_comparable,
        }
    }

    /// Supplies the hand-written function of `+k8s:customValidation` uses named `function` (upstream
    /// `ValidateCustom_<Type>[_<Field>]`); without one, reaching such a use is [`EvalError::CustomValidation`].
    #[must_use]
    pub fn with_custom(mut self, function: impl Into<String>, f: CustomFn) -> Self {
        self.custom.insert(function.into(), f);
        self
    }

    /// Turns off the API server's hand-written defaulting ([`SERVER_DEFAULTS`]) in [`Interpreter::defaults`]: only
    /// `+default` tags are applied, as before vgc ported any.
    #[must_use]
    pub fn without_server_defaults(mut self) -> Self {
        self.server_defaults = false;
        self.server_ports.clear();
        self.defaulted = defaults::defaulted_types(&self.types, &self.server_ports);
        self
    }

    /// The feature gates the hand-written defaulting reads (a function that checks
    /// `utilfeature.DefaultFeatureGate.Enabled(gate)` first, [`ServerDefault::gate`]): name → enabled. A gate not
    /// listed is off (the default before this call: no gate on).
    #[must_use]
    pub fn with_feature_gates(mut self, gates: BTreeMap<String, bool>) -> Self {
        self.gates = gates;
        self
    }

    /// The upstream names of the plan's `+k8s:customValidation` functions that need a hand-written function
    /// ([`Interpreter::with_custom`]), sorted, without repeats. Uses with a runtime port (`vgc_runtime::k8s::PORTS`:
    /// k8s.io/api's and apimachinery's own functions) always run the port and are not listed.
    #[must_use]
    pub fn custom_functions(&self) -> Vec<String> {
        let mut out = Vec::new();
        for t in self.types.values() {
            let fields = t.fields.iter().flatten().flat_map(|f| &f.checks);
            for c in t.checks.iter().chain(fields) {
                c.walk(&mut |c| {
                    if let CheckKind::Custom {
                        owner,
                        field,
                        upstream,
                        ..
                    } = &c.kind
                        && vgc_runtime::k8s::port(&owner.pkg, &owner.name, field.as_deref())
                            .is_none()
                    {
                        out.push(upstream.clone());
                    }
                });
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The plan this interpreter evaluates.
    #[must_use]
    pub fn plan(&self) -> &'p CratePlan {
        self.plan
    }

    /// The plan of type `key`, if it is one of the plan's types.
    #[must_use]
    pub fn type_plan(&self, key: &TypeKey) -> Option<&'p TypePlan> {
        self.types.get(key)
    }

    /// The root types of the plan, sorted by (package, name).
    #[must_use]
    pub fn roots(&self) -> Vec<&'p TypePlan> {
        let mut r: Vec<&TypePlan> = self.types.values().filter(|t| t.root).collect();
        r.sort_by(|a, b| a.key.cmp(&b.key));
        r
    }

    /// Decodes `value` as a document of type `key` (`null` is the zero value), as the generated type's serde
    /// decoding does.
    ///
    /// # Errors
    /// [`EvalError::UnknownType`], or [`EvalError::Decode`] with the JSON Pointer of the first value of the wrong
    /// JSON type.
    pub fn decode(&self, key: &TypeKey, value: &Value) -> Result<Val<'p>, EvalError> {
        self.decode_as(key, value, value::Build::Full)
    }

    /// [`Interpreter::decode`] building as much as `build` says ([`value::Build`]).
    fn decode_as(
        &self,
        key: &TypeKey,
        value: &Value,
        build: value::Build,
    ) -> Result<Val<'p>, EvalError> {
        let t = self
            .type_plan(key)
            .ok_or_else(|| EvalError::UnknownType(key.to_string()))?;
        let d = value::Decoder {
            types: &self.types,
            json_fields: &self.json_fields,
        };
        Ok(d.root(t, value, build)?)
    }

    /// Decodes `value` as a document of type `key` like [`Interpreter::decode`] — every value's JSON type is checked,
    /// with the same [`EvalError::Decode`] for the same input — but builds only what validating a create reads
    /// (what [`Interpreter::validate`] does when there is no old object): a field with checks of its own, or read
    /// by a struct-level check of its struct (union members, `dependentRequired` fields, field-path constraint and
    /// virtual-group paths), holds its whole value; a field whose type or elements have validations holds a value
    /// decoded the same way; every other field holds [`Val::Nil`]. The result is for
    /// [`Interpreter::validate_values`] without an old object only: it is not the generated type's value (it does
    /// not compare or serialize as one).
    ///
    /// # Errors
    /// As [`Interpreter::decode`].
    pub fn decode_for_create(&self, key: &TypeKey, value: &Value) -> Result<Val<'p>, EvalError> {
        self.decode_as(key, value, value::Build::Reached)
    }

    /// Validates `obj` (compared with `old` on update) as a root object of type `key`, as the API server's
    /// registered validation does (upstream `RegisterValidations`, the generated `Validate::validate`): a root with
    /// validations runs only for the subresources it is registered for, else upstream's "no validation found"
    /// internal error; errors are rooted at the document (upstream's nil path).
    ///
    /// # Errors
    /// See [`Interpreter::decode`] ([`EvalError::DecodeOld`] for the old object); [`EvalError::CustomValidation`]
    /// when a hand-written validation is reached.
    pub fn validate(
        &self,
        key: &TypeKey,
        obj: &Value,
        old: Option<&Value>,
        op: &Operation,
    ) -> Result<ErrorList, EvalError> {
        self.run(key, obj, old, op, true)
    }

    /// Like [`Interpreter::validate`] without subresource routing: the type's validation function called directly
    /// (upstream `Validate_<T>` at a nil path), as drivers do for roots a scheme cannot register.
    ///
    /// # Errors
    /// As [`Interpreter::validate`].
    pub fn validate_unrouted(
        &self,
        key: &TypeKey,
        obj: &Value,
        old: Option<&Value>,
        op: &Operation,
    ) -> Result<ErrorList, EvalError> {
        self.run(key, obj, old, op, false)
    }

    /// Like [`Interpreter::validate`], but a hand-written validation the interpreter cannot run is recorded and
    /// skipped instead of ending the evaluation: the result holds every error of the other rules and the
    /// validations left unchecked (empty when the object reached none).
    ///
    /// # Errors
    /// See [`Interpreter::decode`] ([`EvalError::DecodeOld`] for the old object); never
    /// [`EvalError::CustomValidation`].
    pub fn validate_partial(
        &self,
        key: &TypeKey,
        obj: &Value,
        old: Option<&Value>,
        op: &Operation,
    ) -> Result<Partial, EvalError> {
        let (t, new, old) = self.decode_pair(key, obj, old)?;
        self.values_partial(t, &new, old.as_ref(), op, true)
    }

    /// The plan of root type `key` and the decoded object and old object ([`EvalError::DecodeOld`] for the latter).
    #[allow(clippy::type_complexity)]
    fn decode_pair(
        &self,
        key: &TypeKey,
        obj: &Value,
        old: Option<&Value>,
    ) -> Result<(&'p TypePlan, Val<'p>, Option<Val<'p>>), EvalError> {
        let t = self
            .type_plan(key)
            .ok_or_else(|| EvalError::UnknownType(key.to_string()))?;
        // On a create nothing compares whole values (ratcheting needs an old object), so only what the checks
        // read is built.
        let new = if old.is_some() {
            self.decode(key, obj)?
        } else {
            self.decode_for_create(key, obj)?
        };
        let old = old
            .map(|o| self.decode(key, o))
            .transpose()
            .map_err(|e| match e {
                EvalError::Decode(d) => EvalError::DecodeOld(d),
                e => e,
            })?;
        Ok((t, new, old))
    }

    fn run(
        &self,
        key: &TypeKey,
        obj: &Value,
        old: Option<&Value>,
        op: &Operation,
        routed: bool,
    ) -> Result<ErrorList, EvalError> {
        let (t, new, old) = self.decode_pair(key, obj, old)?;
        self.validate_values(t, &new, old.as_ref(), op, routed)
    }

    /// Validates decoded values of root type `t` ([`Interpreter::validate`] after decoding).
    ///
    /// # Errors
    /// [`EvalError::CustomValidation`] when a hand-written validation is reached.
    pub fn validate_values(
        &self,
        t: &'p TypePlan,
        new: &Val<'p>,
        old: Option<&Val<'p>>,
        op: &Operation,
        routed: bool,
    ) -> Result<ErrorList, EvalError> {
        let p = self.values_partial(t, new, old, op, routed)?;
        match p.unchecked.into_iter().next() {
            Some(u) => Err(EvalError::CustomValidation {
                function: u.function,
                tag: u.tag,
                path: u.path,
            }),
            None => Ok(p.errors),
        }
    }

    fn values_partial(
        &self,
        t: &'p TypePlan,
        new: &Val<'p>,
        old: Option<&Val<'p>>,
        op: &Operation,
        routed: bool,
    ) -> Result<Partial, EvalError> {
        if routed
            && t.has_validations
            && let Some(s) = &t.subresources
            && !s.allowed.iter().any(|a| op.subresource_is(a))
        {
            return Ok(Partial {
                errors: vec![Error::internal(
                    &Path::Root,
                    format!(
                        "no validation found for {}, subresource: {}",
                        s.go_type,
                        op.subresource_path()
                    ),
                )],
                unchecked: Vec::new(),
            });
        }
        let mut errs = ErrorList::new();
        if !(t.has_validations || t.root) {
            return Ok(Partial {
                errors: errs,
                unchecked: Vec::new(),
            });
        }
        let cx = eval::Cx {
            interp: self,
            op,
            failure: RefCell::new(None),
            unchecked: RefCell::new(Vec::new()),
            pkg: std::cell::Cell::new(""),
        };
        cx.validate_type(t, &Path::Root, Some(new), old, &mut errs);
        match cx.failure.into_inner() {
            Some(e) => Err(e),
            None => Ok(Partial {
                errors: errs,
                unchecked: cx.unchecked.into_inner(),
            }),
        }
    }

    /// The declarative rules reachable from root type `key` (for "N declarative rules" coverage lines).
    #[must_use]
    pub fn coverage(&self, key: &TypeKey) -> Coverage {
        let mut cov = Coverage::default();
        let mut seen: BTreeMap<&TypeKey, ()> = BTreeMap::new();
        let mut stack: Vec<&TypeKey> = vec![key];
        while let Some(k) = stack.pop() {
            if seen.insert(k, ()).is_some() {
                continue;
            }
            let Some(t) = self.type_plan(k) else { continue };
            if !t.has_validations {
                continue;
            }
            cov.types += 1;
            // Synthetic checks (`PtrSliceNoNils`) come from no tag: not a declared rule.
            let mut count = |c: &vgc_lowering::plan::Check| {
                if c.tag.is_none() {
                    return;
                }
                cov.rules += 1;
                match c.stability {
                    Some(Stability::Alpha) => cov.alpha += 1,
                    Some(Stability::Beta) => cov.beta += 1,
                    _ => {}
                }
            };
            for c in &t.checks {
                count(c);
            }
            for it in t.iteration.iter().chain(&t.key_iteration) {
                stack.push(&it.elem);
            }
            for f in t.fields.iter().flatten() {
                for c in &f.checks {
                    count(c);
                }
                if let Some(n) = &f.nested {
                    stack.push(&n.ty);
                }
                for it in f.iteration.iter().chain(&f.key_iteration) {
                    stack.push(&it.elem);
                }
            }
        }
        cov
    }
}
