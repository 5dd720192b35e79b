//! The Go backend: from a [`CratePlan`], the `zz_generated.validations.go` of a package as upstream
//! validation-gen writes it (`k8s.io/code-generator/cmd/validation-gen/validation.go`: `emitRegisterFunction`,
//! `emitValidationFunction`, `emitValidationForChild`, `emitCallsToValidators`; gengo's file assembly and
//! goimports' layout), byte for byte, in gofmt's canonical layout printed directly (no formatter runs).
//!
//! Input: the plan `vgc build` lowers (the same plan the Rust backend and the interpreter read; nothing is lowered
//! twice) and one of its modules. Output: the file's text, or every construct of the package this backend cannot
//! print yet ([`Unsupported`]): a package is printed whole or not at all, never with a rule left out.
//!
//! Per validator family, the call each check becomes is in `checks/<family>.rs`, named as codegen's
//! `emit/checks/<family>.rs` and the runtime's `validate/<family>.rs` are.

mod checks;
pub mod coverage;
mod imports;
mod text;

use imports::Imports;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use vgc_analysis::TypeKey;
use vgc_lowering::plan::{
    Check, CratePlan, FieldPlan, GoTy, Iteration, ModulePlan, Shape, TypePlan, direct_comparable,
};

/// What the caller decides about a generated file (validation-gen's flags).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoOptions {
    /// The boilerplate header (`--go-header-file`'s contents, `YEAR` already replaced), or empty for none.
    pub header: String,
    /// Input package (import path) → the package its validation is generated into, for trees that declare their
    /// types in one package and validate them from another (`+k8s:validation-gen-input=<input>` on the output
    /// package, as k8s.io/kubernetes' `pkg/apis/<group>/<version>` do for `k8s.io/api/<group>/<version>`, and
    /// `k8s.io/apimachinery/pkg/apis/meta/v1/validation` for `meta/v1`). The generated file of an input is
    /// printed as its output package's; a call into another input's types names its output package (upstream
    /// `resolveFunc`). Packages not listed are their own output.
    pub outputs: std::collections::BTreeMap<String, OutputPackage>,
    /// Input package → every package its validation is generated into (import paths), the canonical one of
    /// [`GoOptions::outputs`] first, then the others in input order (upstream `inputToOutputPkgs`). Under a profile
    /// with [`vgc_ir::Upstream::nearest_copy_calls`] (1.38), a call into an input's types goes to the copy nearest
    /// the calling package; an input not listed, or listed with one package, is called where
    /// [`GoOptions::outputs`] says.
    pub copies: std::collections::BTreeMap<String, Vec<String>>,
}

/// Where an input package's validation is generated ([`GoOptions::outputs`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputPackage {
    /// The output package's import path.
    pub path: String,
    /// Its Go package name (`package x`).
    pub name: String,
    /// Its `+k8s:validation-gen-scheme-registry` as [`ModulePlan::scheme_registry`] holds one (the output
    /// package's tag decides, not the input's).
    pub scheme_registry: Option<String>,
    /// Its `+k8s:validation-gen=` criteria (`TypesWithField=TypeMeta`, `TypesWithSuffix=S`, `*`), which select
    /// the root types it registers; `None` keeps the plan's roots (the input package's own criteria).
    pub roots: Option<Vec<String>>,
}

impl OutputPackage {
    /// Whether `t` is a root of this output package (upstream `targets.go` `shouldCreateObjectValidationFn` with
    /// the output package's criteria).
    fn is_root(&self, t: &TypePlan) -> bool {
        let Some(criteria) = &self.roots else {
            return t.root;
        };
        criteria.iter().any(|c| {
            if c == "*" {
                return true;
            }
            if let Some(f) = c.strip_prefix("TypesWithField=") {
                // upstream `isTypeWith`: a member of that name, whatever its JSON name.
                return t.fields.iter().flatten().any(|x| x.go_field == f);
            }
            c.strip_prefix("TypesWithSuffix=")
                .is_some_and(|s| t.key.name.ends_with(s))
        })
    }
}

/// A construct of a package the Go backend cannot print yet: the package gets no file (and the caller a
/// diagnostic naming each), never a file with the rule left out.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unsupported {
    /// Where: `type T`, `field T.F`.
    pub subject: String,
    /// What: the check or construct, in words.
    pub what: String,
}

/// A call a printed file makes into the validation function of a type whose package no file of this run is
/// printed for (neither the file's own input nor a package of [`GoOptions::outputs`]): printed as upstream prints a
/// call into a `--readonly-pkg` package's type (`metav1.Validate_ObjectMeta`), which compiles only when that
/// package declares the function. [`Generator::print`] reports them; the caller decides (vgc's driver refuses the
/// ones no loaded package declares, as upstream refuses a type "in a non-included package").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ForeignCall {
    /// Where the call is made: `type T`, `field T.F` (of the file's input package, as [`Unsupported::subject`]).
    pub subject: String,
    /// The type whose function is called: `Validate_<name>` of package `pkg`.
    pub callee: TypeKey,
}

/// A printed file ([`Generator::print`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Printed {
    /// The file's text.
    pub text: String,
    /// Its calls into packages no file of this run is printed for, sorted, one per (subject, callee).
    pub foreign_calls: Vec<ForeignCall>,
    /// What printing it read of the whole plan beyond its own module ([`Reads`]).
    pub reads: Reads,
}

/// What one [`Generator::print`] read of the [`Generator`]'s plan-wide indexes: every type it looked up by key
/// (another package's included: the element type of a list, the comparability of a field's type, whether a nested
/// type has validations) with the plan found, every type whose direct comparability
/// ([`CratePlan::not_directly_comparable`]) it asked, and every type of its module whose being reached from some
/// activation's roots decided whether it gets a function.
///
/// The contract a memo of printed files relies on (vgc's live sessions, `vgc watch --target go`): `print(m,
/// output)` by a generator over options `o` and a plan of profile `u` gives the same [`Printed`] as an earlier one
/// when `m`, `output`, `o` and `u` are equal to the earlier call's and the new generator answers every recorded
/// read the same ([`Generator::reads_hold`]). Everything else `print` reads is one of those four.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads {
    /// Type → its plan as found (`None`: not in the plan), sorted by key.
    types: Vec<(TypeKey, Option<Arc<TypePlan>>)>,
    /// Type → whether it is in [`CratePlan::not_directly_comparable`].
    not_comparable: Vec<(TypeKey, bool)>,
    /// Type → whether some activation's roots reach it as a member.
    referenced: Vec<(TypeKey, bool)>,
}

impl Reads {
    /// How many reads were recorded (types looked up, comparabilities and memberships asked).
    #[must_use]
    pub fn len(&self) -> usize {
        self.types.len() + self.not_comparable.len() + self.referenced.len()
    }

    /// Whether none was.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The plan's types by key as one [`Gen`] reads them: each lookup recorded for [`Reads::types`].
struct TypesByKey<'a> {
    map: &'a HashMap<TypeKey, &'a Arc<TypePlan>>,
    seen: RefCell<BTreeMap<TypeKey, Option<Arc<TypePlan>>>>,
}

impl<'a> TypesByKey<'a> {
    fn get(&self, k: &TypeKey) -> Option<&'a TypePlan> {
        let t = self.map.get(k).copied();
        let mut seen = self.seen.borrow_mut();
        if !seen.contains_key(k) {
            seen.insert(k.clone(), t.cloned());
        }
        t.map(|a| &**a)
    }

    fn contains_key(&self, k: &TypeKey) -> bool {
        self.get(k).is_some()
    }
}

/// A set of types as one [`Gen`] asks it: each question recorded for [`Reads`].
struct Membership<'a> {
    set: &'a BTreeSet<TypeKey>,
    seen: RefCell<BTreeMap<TypeKey, bool>>,
}

impl<'a> Membership<'a> {
    fn new(set: &'a BTreeSet<TypeKey>) -> Self {
        Self {
            set,
            seen: RefCell::new(BTreeMap::new()),
        }
    }

    fn contains(&self, k: &TypeKey) -> bool {
        let is = self.set.contains(k);
        let mut seen = self.seen.borrow_mut();
        if !seen.contains_key(k) {
            seen.insert(k.clone(), is);
        }
        is
    }

    fn into_reads(self) -> Vec<(TypeKey, bool)> {
        self.seen.into_inner().into_iter().collect()
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.subject, self.what)
    }
}

const CONTEXT: &str = "context";
const FMT: &str = "fmt";
const FIELD: &str = "k8s.io/apimachinery/pkg/util/validation/field";
const OPERATION: &str = "k8s.io/apimachinery/pkg/api/operation";
const SAFE: &str = "k8s.io/apimachinery/pkg/api/safe";
const VALIDATE: &str = "k8s.io/apimachinery/pkg/api/validate";
const EQUALITY: &str = "k8s.io/apimachinery/pkg/api/equality";

/// The `zz_generated.validations.go` of module `m` of `plan`, as upstream validation-gen of the plan's profile
/// writes it for that package: header (build tags, `o.header`, the "Code generated" line), package clause,
/// imports, `init` and `RegisterValidations` (when the package registers with a scheme and has a root type with
/// validations), then one `Validate_<Type>` function per type with validations, by type name.
///
/// # Errors
/// Every construct of the package this backend cannot print yet ([`Unsupported`], sorted).
pub fn generate_package(
    plan: &CratePlan,
    m: &ModulePlan,
    o: &GoOptions,
) -> Result<String, Vec<Unsupported>> {
    let output = o
        .outputs
        .get(&m.pkg)
        .cloned()
        .unwrap_or_else(|| OutputPackage {
            path: m.pkg.clone(),
            name: m.go_name.clone(),
            scheme_registry: m.scheme_registry.clone(),
            roots: None,
        });
    generate_into(plan, m, &output, o)
}

/// [`generate_package`] into a given output package: for an input that several packages activate (upstream
/// allows one registering activation and any number with `scheme-registry=nil`), each activation's file is this
/// with its own [`OutputPackage`]; `o.outputs` names the canonical one calls from other packages resolve to.
///
/// Builds a [`Generator`] for the one call; a caller printing several packages of one plan builds one
/// [`Generator`] and calls [`Generator::generate_into`] for each (the plan-wide indexes are then computed once).
///
/// # Errors
/// As [`generate_package`].
pub fn generate_into(
    plan: &CratePlan,
    m: &ModulePlan,
    output: &OutputPackage,
    o: &GoOptions,
) -> Result<String, Vec<Unsupported>> {
    Generator::new(plan, o).generate_into(m, output)
}

/// The Go backend for one plan and one set of options: what every package's file needs to know about the whole
/// plan — the types by key, the types Go's `==` cannot compare ([`CratePlan::not_directly_comparable`]) and the
/// types some activation's roots reach as members (upstream `genValidations.Filter`) — computed once by
/// [`Generator::new`], then read by each [`Generator::generate_into`] (which may run on several threads at once).
/// Each [`Generator::print`] records what it read of them ([`Reads`]), so that a caller keeping printed files across
/// builds can tell with [`Generator::reads_hold`] which ones a new plan would print the same.
pub struct Generator<'p> {
    plan: &'p CratePlan,
    o: &'p GoOptions,
    not_comparable: Arc<BTreeSet<TypeKey>>,
    by_key: HashMap<TypeKey, &'p Arc<TypePlan>>,
    /// The types reached as members from the roots of any activation (without the per-output roots).
    referenced: Arc<BTreeSet<TypeKey>>,
}

/// The plan-wide indexes of one [`Generator`] with what they were computed from ([`Generator::indexes`]), kept so
/// that the generator of a next plan that differs only in what they do not read takes them instead of computing
/// them again ([`Generator::reusing`]): after a tag edit, the types' checks change but not their members.
#[derive(Debug, Clone)]
pub struct Indexes {
    /// Every type of the plan, in plan order (modules in order, each module's types in order).
    types: Vec<Arc<TypePlan>>,
    /// The options the indexes were computed under.
    options: GoOptions,
    /// [`CratePlan::not_directly_comparable`].
    not_comparable: Arc<BTreeSet<TypeKey>>,
    /// The types some activation's roots reach as members.
    referenced: Arc<BTreeSet<TypeKey>>,
}

/// Whether two type plans are alike in all that the plan-wide indexes read of a type: its key, whether it is a
/// root, its typedef targets, and its members' names and types (comparability reads the members' and typedef's
/// types, reach the roots — [`OutputPackage::is_root`] reads member names — and the Go types of members and typedef).
fn same_index_inputs(a: &TypePlan, b: &TypePlan) -> bool {
    a.key == b.key
        && a.root == b.root
        && a.alias_of == b.alias_of
        && a.go_ty == b.go_ty
        && match (&a.fields, &b.fields) {
            (None, None) => true,
            (Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter().zip(y).all(|(f, g)| {
                        f.go_field == g.go_field && f.ty == g.ty && f.go_ty == g.go_ty
                    })
            }
            _ => false,
        }
}

impl<'p> Generator<'p> {
    /// The plan-wide indexes of `plan` under options `o` (linear in the plan's types, plus the comparability fixed
    /// point).
    #[must_use]
    pub fn new(plan: &'p CratePlan, o: &'p GoOptions) -> Self {
        Self::reusing(plan, o, None)
    }

    /// [`Generator::new`], taking the comparability and reach indexes from `previous` (another generator's
    /// [`Generator::indexes`]) when they would come out the same: the same options, and a plan with the same types
    /// in the same order, each the same `Arc` or alike in all the indexes read (key, root, typedef targets, members'
    /// names and types — not checks). Linear in the plan's types either way; the same generator as
    /// [`Generator::new`] in every case.
    #[must_use]
    pub fn reusing(plan: &'p CratePlan, o: &'p GoOptions, previous: Option<&Indexes>) -> Self {
        let by_key: HashMap<TypeKey, &Arc<TypePlan>> = plan
            .modules
            .iter()
            .flat_map(|m| m.types.iter())
            .map(|t| (t.key.clone(), t))
            .collect();
        let reusable = previous.filter(|p| {
            p.options == *o
                && p.types.len() == by_key.len()
                && plan
                    .modules
                    .iter()
                    .flat_map(|m| m.types.iter())
                    .zip(&p.types)
                    .all(|(a, b)| Arc::ptr_eq(a, b) || same_index_inputs(a, b))
        });
        let (not_comparable, referenced) = match reusable {
            Some(p) => (p.not_comparable.clone(), p.referenced.clone()),
            None => (
                Arc::new(plan.not_directly_comparable()),
                Arc::new(referenced_types(plan, o, &by_key)),
            ),
        };
        Self {
            plan,
            o,
            not_comparable,
            by_key,
            referenced,
        }
    }

    /// This generator's plan-wide indexes with what they were computed from, for [`Generator::reusing`].
    #[must_use]
    pub fn indexes(&self) -> Indexes {
        Indexes {
            types: self
                .plan
                .modules
                .iter()
                .flat_map(|m| m.types.iter())
                .cloned()
                .collect(),
            options: self.o.clone(),
            not_comparable: self.not_comparable.clone(),
            referenced: self.referenced.clone(),
        }
    }

    /// Whether this generator answers every read of `r` (recorded by another generator's [`Generator::print`]) the
    /// same: each type's plan equal (the same `Arc`, else equal values), each comparability and membership the
    /// same. Linear in `r`.
    #[must_use]
    pub fn reads_hold(&self, r: &Reads) -> bool {
        r.types
            .iter()
            .all(|(k, t)| self.by_key.get(k).copied() == t.as_ref())
            && r.not_comparable
                .iter()
                .all(|(k, is)| self.not_comparable.contains(k) == *is)
            && r.referenced
                .iter()
                .all(|(k, is)| self.referenced.contains(k) == *is)
    }

    /// [`generate_into`] with the indexes of [`Generator::new`].
    ///
    /// # Errors
    /// As [`generate_package`].
    pub fn generate_into(
        &self,
        m: &ModulePlan,
        output: &OutputPackage,
    ) -> Result<String, Vec<Unsupported>> {
        self.print(m, output).map(|p| p.text)
    }

    /// [`Generator::generate_into`], with the calls the file makes into packages no file of this run is printed
    /// for ([`ForeignCall`]).
    ///
    /// # Errors
    /// As [`generate_package`].
    pub fn print(
        &self,
        m: &ModulePlan,
        output: &OutputPackage,
    ) -> Result<Printed, Vec<Unsupported>> {
        let (plan, o) = (self.plan, self.o);
        let output = output.clone();
        let mut g = Gen {
            m,
            outputs: &o.outputs,
            copies: &o.copies,
            scheme_registry: output.scheme_registry.clone(),
            output: output.clone(),
            imports: Imports::new(&output.path),
            unsupported: Vec::new(),
            foreign: Vec::new(),
            not_comparable: Membership::new(&self.not_comparable),
            upstream: plan.upstream,
            legacy: plan.upstream.go_fields_called_in_place(),
            path: String::new(),
            by_key: TypesByKey {
                map: &self.by_key,
                seen: RefCell::new(BTreeMap::new()),
            },
        };
        let referenced = Membership::new(&self.referenced);
        let mut body = String::new();
        g.register_function(&mut body);
        let mut types: Vec<&TypePlan> = m.types.iter().map(|t| &**t).collect();
        types.sort_by(|a, b| a.key.name.cmp(&b.key.name));
        // upstream `genValidations.Filter`: the types reached as members from any activation's roots, and the
        // roots of this output (a type that is only some activation's root is not "referenced").
        let emitted =
            |t: &TypePlan| referenced.contains(&t.key) || (m.pkg == t.key.pkg && output.is_root(t));
        for t in types
            .into_iter()
            .filter(|t| t.has_validations && emitted(t))
        {
            g.validation_function(&mut body, t);
        }
        if !g.unsupported.is_empty() {
            let mut u = g.unsupported;
            u.sort();
            u.dedup();
            return Err(u);
        }
        let mut out = String::new();
        out.push_str("//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\n");
        if !o.header.is_empty() {
            out.push_str(&o.header);
            out.push('\n');
        }
        out.push_str("// Code generated by validation-gen. DO NOT EDIT.\n\n");
        out.push_str(&format!("package {}\n\n", output.name));
        out.push_str(&g.imports.block());
        out.push_str(&body);
        let mut foreign_calls = g.foreign;
        foreign_calls.sort();
        foreign_calls.dedup();
        let reads = Reads {
            types: g.by_key.seen.into_inner().into_iter().collect(),
            not_comparable: g.not_comparable.into_reads(),
            referenced: referenced.into_reads(),
        };
        Ok(Printed {
            text: text::gofmt_blank_lines(&out),
            foreign_calls,
            reads,
        })
    }
}

/// The types discovery reaches as a member of another — from the roots of any activation, the plan's own roots
/// included — through the Go types as declared (a type behind an `opaqueType` field is reached though no call into
/// it is made): with each output's own roots ([`OutputPackage::is_root`]), the types that get a validation function
/// (upstream `genValidations.Filter`).
fn referenced_types(
    plan: &CratePlan,
    o: &GoOptions,
    by_key: &HashMap<TypeKey, &Arc<TypePlan>>,
) -> BTreeSet<TypeKey> {
    let children = |t: &TypePlan| {
        let mut next: Vec<TypeKey> = Vec::new();
        // A typedef's own named target is not a member (`type A B` is natively B's underlying type).
        if let Some(g) = &t.go_ty
            && !matches!(g, GoTy::Named { .. })
        {
            named_in(g, &mut next);
        }
        for f in t.fields.iter().flatten() {
            named_in(&f.go_ty, &mut next);
        }
        next
    };
    let mut referenced = BTreeSet::new();
    let mut stack: Vec<TypeKey> = Vec::new();
    for m in &plan.modules {
        for t in &m.types {
            let root = t.root || o.outputs.get(&m.pkg).is_some_and(|out| out.is_root(t));
            if root {
                stack.extend(children(t));
            }
        }
    }
    while let Some(k) = stack.pop() {
        if referenced.contains(&k) {
            continue;
        }
        if let Some(t) = by_key.get(&k) {
            stack.extend(children(t).into_iter().filter(|n| !referenced.contains(n)));
        }
        referenced.insert(k);
    }
    referenced
}

/// Of `candidates` (non-empty, canonical first), the one whose import path shares the most leading `/`-separated
/// segments with `pkg`, the first winning ties (upstream v0.38 `nearestPkg`/`commonPathDepth`).
fn nearest_package<'c>(pkg: &str, candidates: &'c [String]) -> &'c str {
    let depth = |c: &str| {
        pkg.split('/')
            .zip(c.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut best = candidates[0].as_str();
    let mut best_depth = depth(best);
    for c in &candidates[1..] {
        let d = depth(c);
        if d > best_depth {
            best = c;
            best_depth = d;
        }
    }
    best
}

/// The named types a Go type expression mentions.
fn named_in(t: &GoTy, out: &mut Vec<TypeKey>) {
    match t {
        GoTy::Named { pkg, name } => out.push(TypeKey {
            pkg: pkg.clone(),
            name: name.clone(),
        }),
        GoTy::Pointer(i) | GoTy::Slice(i) | GoTy::Array(_, i) => named_in(i, out),
        GoTy::Map(k, v) => {
            named_in(k, out);
            named_in(v, out);
        }
        GoTy::Builtin(_) | GoTy::Other(_) => {}
    }
}

/// One package's emission.
struct Gen<'a> {
    m: &'a ModulePlan,
    outputs: &'a std::collections::BTreeMap<String, OutputPackage>,
    copies: &'a std::collections::BTreeMap<String, Vec<String>>,
    scheme_registry: Option<String>,
    output: OutputPackage,
    imports: Imports,
    unsupported: Vec<Unsupported>,
    /// Calls into packages no file of this run is printed for ([`ForeignCall`]).
    foreign: Vec<ForeignCall>,
    /// [`CratePlan::not_directly_comparable`], each question recorded ([`Reads`]).
    not_comparable: Membership<'a>,
    upstream: vgc_ir::Upstream,
    /// validation-gen's printing before 1.37 ([`vgc_ir::Upstream::go_fields_called_in_place`]).
    legacy: bool,
    /// Where the checks being printed are declared (`<pkg>.<Type>`, `<pkg>.<Type>.<json>`): names union
    /// membership variables.
    path: String,
    /// The plan's types, each lookup recorded ([`Reads`]).
    by_key: TypesByKey<'a>,
}

/// Appends `s` and a newline, each of its lines after `depth` tabs (a multi-line `s` carries its continuation
/// lines' indentation relative to its first).
fn line(out: &mut String, depth: usize, s: &str) {
    if s.is_empty() {
        out.push('\n');
        return;
    }
    for l in s.split('\n') {
        if !l.is_empty() {
            for _ in 0..depth {
                out.push('\t');
            }
        }
        out.push_str(l);
        out.push('\n');
    }
}

impl Gen<'_> {
    fn unsupported(&mut self, subject: &str, what: impl Into<String>) {
        self.unsupported.push(Unsupported {
            subject: subject.to_string(),
            what: what.into(),
        });
    }

    /// A plan type's Go spelling: local types bare, others qualified by their import's local name.
    fn ty(&mut self, t: &GoTy) -> String {
        match t {
            GoTy::Builtin(n) | GoTy::Other(n) => n.clone(),
            GoTy::Named { pkg, name } => self.imports.name(pkg, name),
            GoTy::Pointer(i) => format!("*{}", self.ty(i)),
            GoTy::Slice(e) => format!("[]{}", self.ty(e)),
            GoTy::Array(n, e) => format!("[{n}]{}", self.ty(e)),
            GoTy::Map(k, v) => format!("map[{}]{}", self.ty(k), self.ty(v)),
        }
    }

    /// The element type of a list or map value (a map's value type), through pointers and typedefs; `None` for
    /// other values.
    fn elem_of(&self, t: &GoTy) -> Option<GoTy> {
        match t {
            GoTy::Pointer(i) => self.elem_of(i),
            GoTy::Slice(e) | GoTy::Array(_, e) | GoTy::Map(_, e) => Some((**e).clone()),
            GoTy::Named { pkg, name } => {
                let k = TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                };
                let u = self.by_key.get(&k)?.go_ty.clone()?;
                self.elem_of(&u)
            }
            GoTy::Builtin(_) | GoTy::Other(_) => None,
        }
    }

    /// upstream `util.IsNilableType`: pointers, slices, maps, and named types of them.
    fn go_nilable(&self, t: &GoTy) -> bool {
        match t {
            GoTy::Pointer(_) | GoTy::Slice(_) | GoTy::Map(..) => true,
            GoTy::Named { pkg, name } => self
                .by_key
                .get(&TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                })
                .is_some_and(|t| {
                    nilable(&t.shape)
                        || t.go_ty
                            .as_ref()
                            .is_some_and(|u| !matches!(u, GoTy::Named { .. }) && self.go_nilable(u))
                }),
            GoTy::Array(..) | GoTy::Builtin(_) | GoTy::Other(_) => false,
        }
    }

    /// Whether `t` is a map (through pointers and typedefs).
    fn is_map(&self, t: &GoTy) -> bool {
        match t {
            GoTy::Pointer(i) => self.is_map(i),
            GoTy::Map(..) => true,
            GoTy::Named { pkg, name } => self
                .by_key
                .get(&TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                })
                .and_then(|t| t.go_ty.as_ref())
                .is_some_and(|u| self.is_map(u)),
            _ => false,
        }
    }

    /// The key type of a map value (through pointers and typedefs).
    fn key_of(&self, t: &GoTy) -> Option<GoTy> {
        match t {
            GoTy::Pointer(i) => self.key_of(i),
            GoTy::Map(k, _) => Some((**k).clone()),
            GoTy::Named { pkg, name } => {
                let u = self
                    .by_key
                    .get(&TypeKey {
                        pkg: pkg.clone(),
                        name: name.clone(),
                    })?
                    .go_ty
                    .clone()?;
                self.key_of(&u)
            }
            _ => None,
        }
    }

    /// upstream `util.IsDirectComparable` of a Go type (pointers not stripped): builtins, and structs and
    /// typedefs the plan knows as comparable; lists, maps, pointers and unknown types are not.
    fn go_comparable(&self, t: &GoTy) -> bool {
        match t {
            GoTy::Builtin(_) => true,
            GoTy::Named { pkg, name } => {
                let k = TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                };
                self.by_key.contains_key(&k) && !self.not_comparable.contains(&k)
            }
            GoTy::Array(_, e) => self.go_comparable(e),
            GoTy::Pointer(_) | GoTy::Slice(_) | GoTy::Map(..) | GoTy::Other(_) => false,
        }
    }

    /// What a value of Go type `t` is natively (through typedefs): a pointer, slice, map, or a value.
    fn native(&self, t: &GoTy) -> Native {
        match t {
            GoTy::Pointer(_) => Native::Pointer,
            GoTy::Slice(_) => Native::Slice,
            GoTy::Map(..) => Native::Map,
            GoTy::Named { pkg, name } => match self
                .by_key
                .get(&TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                })
                .and_then(|t| t.go_ty.as_ref())
            {
                Some(u) if !matches!(u, GoTy::Named { .. }) => self.native(u),
                _ => Native::Value,
            },
            GoTy::Builtin(_) | GoTy::Array(..) | GoTy::Other(_) => Native::Value,
        }
    }

    /// `validate.DirectEqual` when Go's `==` compares values of `t` (pointers stripped), else
    /// `validate.SemanticDeepEqual`.
    fn equal_func(&mut self, t: &GoTy) -> String {
        let mut t = t;
        while let GoTy::Pointer(i) = t {
            t = i;
        }
        if self.go_comparable(t) {
            return self.imports.name(VALIDATE, "DirectEqual");
        }
        if self.upstream.deep_equal_func_tag() {
            // 1.38: the package's deep-equality function.
            return self.deep_equal();
        }
        self.imports.name(VALIDATE, "SemanticDeepEqual")
    }

    /// [`Gen::equal_func`] of a value passed by pointer (a subfield's, a discriminator's): before 1.37
    /// `validate.DirectEqualPtr` where 1.37 compares with `validate.DirectEqual`.
    fn ptr_equal_func(&mut self, t: &GoTy) -> String {
        let mut u = t;
        while let GoTy::Pointer(i) = u {
            u = i;
        }
        if self.upstream.go_generic_slice_validators() && self.go_comparable(u) {
            return self.imports.name(VALIDATE, "DirectEqualPtr");
        }
        self.equal_func(t)
    }

    /// Whether `t` is natively a struct (through pointers and typedefs).
    fn is_struct(&self, t: &GoTy) -> bool {
        match t {
            GoTy::Pointer(i) => self.is_struct(i),
            GoTy::Named { pkg, name } => self
                .by_key
                .get(&TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                })
                .is_some_and(|t| t.fields.is_some()),
            _ => false,
        }
    }

    /// The Go type of member `go` of the struct `t` names.
    fn member_go_ty(&self, t: &GoTy, go: &str) -> Option<GoTy> {
        let GoTy::Named { pkg, name } = t else {
            return None;
        };
        let p = self.by_key.get(&TypeKey {
            pkg: pkg.clone(),
            name: name.clone(),
        })?;
        p.fields
            .as_ref()?
            .iter()
            .find(|f| f.go_field == go)
            .map(|f| f.go_ty.clone())
    }

    /// Whether `t` is a predeclared type.
    fn is_builtin(&self, t: &GoTy) -> bool {
        matches!(t, GoTy::Builtin(_))
    }

    /// upstream `emitValidationVariables`: the package variables a type's checks and its fields' checks use
    /// (union memberships, enum symbols), each `var name = init`: the type's own sorted by name, then each field's
    /// sorted by name in field order; a blank line after them.
    fn variables(&mut self, out: &mut String, t: &TypePlan) {
        let type_path = format!("{}.{}", t.key.pkg, t.key.name);
        let mut groups: Vec<(String, Vec<&Check>)> =
            vec![(type_path.clone(), t.checks.iter().collect())];
        for f in t.fields.iter().flatten() {
            groups.push((
                format!("{type_path}.{}", f.json_name),
                f.checks.iter().collect(),
            ));
        }
        let mut all = Vec::new();
        for (path, checks) in groups {
            let mut group = self.variables_of(&path, t, &checks);
            group.sort();
            group.dedup();
            all.extend(group);
        }
        if all.is_empty() {
            return;
        }
        for (name, init) in all {
            line(out, 0, &format!("var {name} = {init}"));
        }
        line(out, 0, "");
    }

    /// The (name, initializer) of each package variable `checks`, declared at `path`, use.
    fn variables_of(
        &mut self,
        path: &str,
        t: &TypePlan,
        checks: &[&Check],
    ) -> Vec<(String, String)> {
        let mut with_init = Vec::new();
        for c in checks {
            let mut unions = Vec::new();
            let mut enums = Vec::new();
            let mut list_unions = Vec::new();
            c.walk(&mut |c| match &c.kind {
                vgc_lowering::plan::CheckKind::Union(u) => unions.push(u.clone()),
                vgc_lowering::plan::CheckKind::Enum(e) => enums.push(e.clone()),
                vgc_lowering::plan::CheckKind::ListUnion(u) => list_unions.push(u.clone()),
                _ => {}
            });
            for u in list_unions {
                with_init.push((
                    checks::list_union_var_name(path, &u),
                    checks::list_union_var_init(self, &u),
                ));
            }
            for u in unions {
                with_init.push((
                    checks::union_var_name(path, &u),
                    checks::union_var_init(self, &u),
                ));
            }
            for e in enums {
                with_init.push((
                    checks::enum_var_name(&t.key),
                    checks::enum_var_init(self, &t.key, &e),
                ));
                if let Some(init) = checks::enum_exclusions_init(self, &t.key, &e) {
                    with_init.push((checks::enum_exclusions_name(&t.key), init));
                }
            }
        }
        with_init
    }

    /// upstream `util.IsNilableType` of a named type: a typedef of a list or map (`[]byte` included).
    fn type_nilable(&self, t: &TypePlan) -> bool {
        self.go_nilable(&GoTy::Named {
            pkg: t.key.pkg.clone(),
            name: t.key.name.clone(),
        })
    }

    /// A plan type by key.
    fn type_plan(&self, k: &TypeKey) -> Option<&TypePlan> {
        self.by_key.get(k)
    }

    /// The validation function of a type, qualified when it is generated into another package (upstream
    /// `resolveFunc`: the type's package's output package).
    /// A call from `subject` into a package no file of this run is printed for is recorded ([`ForeignCall`]).
    fn validate_fn(&mut self, subject: &str, k: &TypeKey) -> String {
        let copies = self.copies.get(&k.pkg).filter(|c| !c.is_empty());
        let pkg = if k.pkg == self.m.pkg {
            self.output.path.clone()
        } else if let Some(copies) = copies.filter(|_| self.upstream.nearest_copy_calls()) {
            nearest_package(&self.output.path, copies).to_string()
        } else if let Some(o) = self.outputs.get(&k.pkg) {
            o.path.clone()
        } else {
            self.foreign.push(ForeignCall {
                subject: subject.to_string(),
                callee: k.clone(),
            });
            k.pkg.clone()
        };
        self.imports.name(&pkg, &format!("Validate_{}", k.name))
    }

    fn type_name(&mut self, k: &TypeKey) -> String {
        self.imports.name(&k.pkg, &k.name)
    }

    /// upstream `emitRegisterFunction`.
    fn register_function(&mut self, out: &mut String) {
        let Some(scheme) = self.scheme_registry.clone() else {
            return;
        };
        let mut roots: Vec<&TypePlan> = self
            .m
            .types
            .iter()
            .map(|t| &**t)
            .filter(|t| self.output.is_root(t) && t.has_validations)
            .collect();
        // Before 1.37 the function is written for every package with a scheme registry, roots or not.
        if roots.is_empty() && !self.legacy {
            return;
        }
        roots.sort_by(|a, b| a.key.name.cmp(&b.key.name));
        let (scheme_pkg, scheme_ty) = scheme.rsplit_once('.').unwrap_or(("", &scheme));
        line(
            out,
            0,
            "func init() { localSchemeBuilder.Register(RegisterValidations) }",
        );
        line(out, 0, "");
        line(
            out,
            0,
            "// RegisterValidations adds validation functions to the given scheme.",
        );
        line(out, 0, "// Public to allow building arbitrary schemes.");
        let scheme = self.imports.name(scheme_pkg, scheme_ty);
        line(
            out,
            0,
            &format!("func RegisterValidations(scheme *{scheme}) error {{"),
        );
        for t in roots {
            let pfx = if self.type_nilable(t) { "" } else { "*" };
            let name = self.type_name(&t.key);
            let context = self.imports.name(CONTEXT, "Context");
            let operation = self.imports.name(OPERATION, "Operation");
            let error_list = self.imports.name(FIELD, "ErrorList");
            let cases = t
                .subresources
                .as_ref()
                .map(|s| {
                    let mut v: Vec<String> = s
                        .allowed
                        .iter()
                        .map(|a| vgc_runtime::field::go_quote(a))
                        .collect();
                    v.sort();
                    v.join(", ")
                })
                .unwrap_or_else(|| "\"/\"".into());
            line(out, 1, &format!("// type {}", t.key.name));
            if self.legacy {
                let f = self.validate_fn(&format!("type {}", t.key.name), &t.key);
                let cast = self.imports.name(SAFE, "Cast");
                let internal = self.imports.name(FIELD, "InternalError");
                let errorf = self.imports.name(FMT, "Errorf");
                line(
                    out,
                    1,
                    &format!(
                        "scheme.AddValidationFunc(({pfx}{name})(nil), func(ctx {context}, op {operation}, obj, oldObj interface{{}}) {error_list} {{"
                    ),
                );
                line(out, 2, "switch op.Request.SubresourcePath() {");
                line(out, 2, &format!("case {cases}:"));
                line(
                    out,
                    3,
                    &format!(
                        "return {f}(ctx, op, nil /* fldPath */, obj.({pfx}{name}), {cast}[{pfx}{name}](oldObj))"
                    ),
                );
                line(out, 2, "}");
                line(
                    out,
                    2,
                    &format!(
                        "return {error_list}{{{internal}(nil, {errorf}(\"no validation found for %T, subresource: %v\", obj, op.Request.SubresourcePath()))}}"
                    ),
                );
                line(out, 1, "})");
                continue;
            }
            line(out, 1, "scheme.AddValidationFunc(");
            line(out, 2, &format!("({pfx}{name})(nil),"));
            line(
                out,
                2,
                &format!(
                    "func(ctx {context}, op {operation}, obj, oldObj interface{{}}) {error_list} {{"
                ),
            );
            line(out, 3, "switch op.Request.SubresourcePath() {");
            line(out, 3, &format!("case {cases}:"));
            let f = self.validate_fn(&format!("type {}", t.key.name), &t.key);
            line(out, 4, &format!("return {f}("));
            line(out, 5, "ctx, op, nil, /* fldPath */");
            line(out, 5, &format!("obj.({pfx}{name}),"));
            let cast = self.imports.name(SAFE, "Cast");
            line(out, 5, &format!("{cast}[{pfx}{name}](oldObj))"));
            line(out, 3, "}");
            line(out, 3, &format!("return {error_list}{{"));
            let internal = self.imports.name(FIELD, "InternalError");
            let errorf = self.imports.name(FMT, "Errorf");
            line(
                out,
                4,
                &format!(
                    "{internal}(nil, {errorf}(\"no validation found for %T, subresource: %v\", obj, op.Request.SubresourcePath())),"
                ),
            );
            line(out, 3, "}");
            line(out, 2, "})");
        }
        line(out, 1, "return nil");
        line(out, 0, "}");
        line(out, 0, "");
    }

    /// upstream `emitValidationFunction`.
    fn validation_function(&mut self, out: &mut String, t: &TypePlan) {
        self.variables(out, t);
        let name = &t.key.name;
        let pfx = if self.type_nilable(t) { "" } else { "*" };
        let context = self.imports.name(CONTEXT, "Context");
        let operation = self.imports.name(OPERATION, "Operation");
        let path = self.imports.name(FIELD, "Path");
        let error_list = self.imports.name(FIELD, "ErrorList");
        let ty = self.type_name(&t.key);
        line(
            out,
            0,
            &format!("// Validate_{name} validates an instance of {name} according"),
        );
        line(
            out,
            0,
            "// to declarative validation rules in the API schema.",
        );
        if self.legacy {
            line(
                out,
                0,
                &format!(
                    "func Validate_{name}(ctx {context}, op {operation}, fldPath *{path}, obj, oldObj {pfx}{ty}) (errs {error_list}) {{"
                ),
            );
        } else {
            line(out, 0, &format!("func Validate_{name}("));
            line(
                out,
                1,
                &format!("ctx {context}, op {operation}, fldPath *{path},"),
            );
            line(
                out,
                1,
                &format!("obj, oldObj {pfx}{ty}) (errs {error_list}) {{"),
            );
            line(out, 0, "");
        }
        let subject = format!("type {name}");
        self.path = format!("{}.{name}", t.key.pkg);
        let mut did_some = false;
        if !t.checks.is_empty() {
            // The type's own checks see a value of the type itself (upstream's `context.Type`).
            let value = GoTy::Named {
                pkg: t.key.pkg.clone(),
                name: t.key.name.clone(),
            };
            self.calls(out, 1, &subject, &t.checks, &value);
            if self.legacy {
                // Before 1.37 a typedef's iterations are printed with its own checks only (and without them, not
                // at all: upstream's `emitValidationForChild` nests them in the type-validations branch).
                for it in [&t.key_iteration, &t.iteration].into_iter().flatten() {
                    if self.by_key.get(&it.elem).is_some_and(|e| e.has_validations) {
                        let value = t.go_ty.clone().unwrap_or(GoTy::Other(String::new()));
                        self.iteration_call(out, 1, &subject, it, &t.shape, &value);
                    }
                }
            }
            line(out, 0, "");
            did_some = true;
        }
        if let Some(it) = t.key_iteration.as_ref().filter(|_| !self.legacy) {
            let value = t.go_ty.clone().unwrap_or(GoTy::Other(String::new()));
            self.iteration_call(out, 1, &subject, it, &t.shape, &value);
            line(out, 0, "");
            did_some = true;
        }
        if let Some(it) = t.iteration.as_ref().filter(|_| !self.legacy) {
            let value = t.go_ty.clone().unwrap_or(GoTy::Other(String::new()));
            self.iteration_call(out, 1, &subject, it, &t.shape, &value);
            line(out, 0, "");
            did_some = true;
        }
        if t.opaque {
            line(out, 1, "return errs");
            line(out, 0, "}");
            line(out, 0, "");
            return;
        }
        match &t.fields {
            Some(fields) => {
                // A typedef of a struct (`type E T`) is a struct type of its own for gengo: its fields are
                // named `E.F`.
                for f in fields {
                    self.field(out, &t.key, f, did_some);
                    did_some = true;
                }
            }
            None => {
                if let Some(vgc_lowering::plan::RustTy::Named(k)) = &t.alias_of
                    && self.by_key.get(k).is_some_and(|u| u.fields.is_some())
                {
                    self.unsupported(
                        &subject,
                        "a typedef of a struct type (upstream validates the struct's fields in the typedef's function)",
                    );
                }
            }
        }
        line(out, 1, "return errs");
        line(out, 0, "}");
        line(out, 0, "");
    }

    /// One struct field (upstream `emitValidationForChild`, the `types.Struct` case).
    fn field(&mut self, out: &mut String, owner: &TypeKey, f: &FieldPlan, did_some: bool) {
        let owner_name = owner.name.clone();
        let subject = format!("field {owner_name}.{}", f.go_field);
        self.path = format!("{}.{owner_name}.{}", owner.pkg, f.json_name);
        let mut buf = String::new();
        let mut ratcheted = false;
        for note in &f.notes {
            line(&mut buf, 3, &format!("// {note}"));
        }
        let field_checks: Vec<Check> = f.checks.clone();
        if !field_checks.is_empty() {
            self.ratchet(&mut buf, &f.ty, &subject);
            ratcheted = true;
            line(&mut buf, 3, "// call field-attached validations");
            self.calls(&mut buf, 3, &subject, &field_checks, &f.go_ty);
        }
        if let Some(n) = &f.nested
            && self.by_key.get(&n.ty).is_some_and(|t| t.has_validations)
        {
            if !ratcheted {
                self.ratchet(&mut buf, &f.ty, &subject);
                ratcheted = true;
            }
            line(&mut buf, 3, "// call the type's validation function");
            let func = self.validate_fn(&subject, &n.ty);
            line(
                &mut buf,
                3,
                &format!("errs = append(errs, {func}(ctx, op, fldPath, obj, oldObj)...)"),
            );
        }
        for it in [&f.key_iteration, &f.iteration].into_iter().flatten() {
            if self.by_key.get(&it.elem).is_some_and(|t| t.has_validations) {
                if !ratcheted {
                    self.ratchet(&mut buf, &f.ty, &subject);
                    ratcheted = true;
                }
                self.iteration_call(&mut buf, 3, &subject, it, &f.shape, &f.go_ty);
            }
        }
        let owner_raw = self.type_name(owner);
        if buf.is_empty() {
            line(
                out,
                1,
                &format!("// field {owner_raw}.{} has no validation", f.go_field),
            );
            return;
        }
        let (leaf, type_pfx, expr_pfx) = self.leaf_and_prefixes(&f.go_ty, &f.shape);
        let path = self.imports.name(FIELD, "Path");
        let error_list = self.imports.name(FIELD, "ErrorList");
        let owner_ty = self.type_name(owner);
        if did_some {
            line(out, 0, "");
        }
        let path_arg = if f.json_name.is_empty() {
            let value = self.imports.name(SAFE, "Value");
            format!("{value}(fldPath, func() *{path} {{ return fldPath.Child(\"{leaf}\") }})")
        } else {
            format!(
                "fldPath.Child({})",
                vgc_runtime::field::go_quote(&f.json_name)
            )
        };
        if self.legacy {
            // upstream before 1.37: the closure called in place.
            line(out, 1, &format!("// field {owner_raw}.{}", f.go_field));
            line(out, 1, "errs = append(errs,");
            line(
                out,
                2,
                &format!(
                    "func(fldPath *{path}, obj, oldObj {type_pfx}{leaf}, oldValueCorrelated bool) (errs {error_list}) {{"
                ),
            );
            out.push_str(&buf);
            line(out, 3, "return");
            let safe_field = self.imports.name(SAFE, "Field");
            let getter = checks::func_literal(
                &format!("func(oldObj *{owner_ty}) {type_pfx}{leaf}"),
                &format!("return {expr_pfx}oldObj.{}", f.go_field),
            );
            line(
                out,
                2,
                &format!(
                    "}}({path_arg}, {expr_pfx}obj.{go}, {safe_field}(oldObj, {getter}), oldObj != nil)...)",
                    go = f.go_field
                ),
            );
            line(out, 0, "");
            return;
        }
        line(out, 1, &format!("{{ // field {owner_raw}.{}", f.go_field));
        line(out, 2, "fn := func(");
        line(out, 3, &format!("fldPath *{path},"));
        line(out, 3, &format!("obj, oldObj {type_pfx}{leaf},"));
        line(
            out,
            3,
            &format!("oldValueCorrelated bool) (errs {error_list}) {{"),
        );
        out.push_str(&buf);
        line(out, 3, "return");
        line(out, 2, "}");
        let safe_field = self.imports.name(SAFE, "Field");
        line(out, 2, &format!("oldVal := {safe_field}(oldObj,"));
        line(
            out,
            3,
            &format!("func(oldObj *{owner_ty}) {type_pfx}{leaf} {{"),
        );
        line(out, 4, &format!("return {expr_pfx}oldObj.{}", f.go_field));
        line(out, 3, "})");
        line(
            out,
            2,
            &format!(
                "errs = append(errs, fn({path_arg}, {expr_pfx}obj.{}, oldVal, oldObj != nil)...)",
                f.go_field
            ),
        );
        line(out, 1, "}");
        line(out, 0, "");
    }

    /// upstream `getLeafTypeAndPrefixes`: the field type without pointers, the closure parameters' prefix (`*` for
    /// a value that is not nilable) and the expression's (`&` to take a value's address, `*`s to drop extra
    /// pointers).
    fn leaf_and_prefixes(&mut self, t: &GoTy, shape: &Shape) -> (String, &'static str, String) {
        let mut leaf = t;
        let mut ptrs = 0;
        while let GoTy::Pointer(i) = leaf {
            ptrs += 1;
            leaf = i;
        }
        let leaf_text = self.ty(leaf);
        let leaf_nilable = matches!(leaf, GoTy::Slice(_) | GoTy::Map(..))
            || (matches!(leaf, GoTy::Named { .. }) && (nilable(shape) || self.go_nilable(leaf)));
        if leaf_nilable {
            (leaf_text, "", "*".repeat(ptrs))
        } else if ptrs == 0 {
            (leaf_text, "*", "&".into())
        } else {
            (leaf_text, "*", "*".repeat(ptrs - 1))
        }
    }

    /// upstream `emitRatchetingCheck`.
    fn ratchet(&mut self, out: &mut String, ty: &vgc_lowering::plan::RustTy, _subject: &str) {
        line(out, 3, "// don't revalidate unchanged data");
        let update = self.imports.name(OPERATION, "Update");
        if self.legacy {
            let nc = &self.not_comparable;
            let comparable = direct_comparable(ty, &|k| !nc.contains(k));
            let same = if comparable {
                "(obj == oldObj || (obj != nil && oldObj != nil && *obj == *oldObj))".to_string()
            } else {
                format!("{}(obj, oldObj)", self.deep_equal())
            };
            line(
                out,
                3,
                &format!("if oldValueCorrelated && op.Type == {update} && {same} {{"),
            );
            line(out, 4, "return nil");
            line(out, 3, "}");
            return;
        }
        line(
            out,
            3,
            &format!("if oldValueCorrelated && op.Type == {update} {{"),
        );
        let nc = &self.not_comparable;
        if direct_comparable(ty, &|k| !nc.contains(k)) {
            line(
                out,
                4,
                "if obj == oldObj || (obj != nil && oldObj != nil && *obj == *oldObj) {",
            );
        } else {
            let deep_equal = self.deep_equal();
            line(out, 4, &format!("if {deep_equal}(obj, oldObj) {{"));
        }
        line(out, 5, "return nil");
        line(out, 4, "}");
        line(out, 3, "}");
    }

    /// The deep-equality function generated code compares values Go's `==` cannot compare with: before 1.38
    /// `equality.Semantic.DeepEqual`; from 1.38 the package's `+k8s:validation-gen-deep-equal-func` (bare when
    /// unqualified, as upstream's `emitDeepEqualFunc` prints it) or `validate.SemanticDeepEqual`.
    fn deep_equal(&mut self) -> String {
        if !self.upstream.deep_equal_func_tag() {
            let semantic = self.imports.name(EQUALITY, "Semantic");
            return format!("{semantic}.DeepEqual");
        }
        match &self.m.deep_equal {
            None => self.imports.name(VALIDATE, "SemanticDeepEqual"),
            Some(f) => match f.rsplit_once('.') {
                Some((pkg, name)) if pkg.contains('/') || pkg.contains('.') => {
                    self.imports.name(pkg, name)
                }
                _ => f.clone(),
            },
        }
    }

    /// The call that iterates a list's or map's elements (or a map's keys) with the element type's function.
    fn iteration_call(
        &mut self,
        out: &mut String,
        depth: usize,
        subject: &str,
        it: &Iteration,
        shape: &Shape,
        value: &GoTy,
    ) {
        let func = self.validate_fn(subject, &it.elem);
        let (comment, call) = match (shape, it.keys) {
            (Shape::Map, true) => (
                "iterate the map and call the key type's validation function",
                format!(
                    "{}(ctx, op, fldPath, obj, oldObj, {func})",
                    self.imports.name(VALIDATE, "EachMapKey")
                ),
            ),
            (Shape::Map, false) => {
                let equiv = self.equiv(&it.elem);
                // 1.38 iterates a map of pointers with `EachPtrMapVal`.
                let each = if self.upstream.maps_of_pointers()
                    && matches!(self.elem_of(value), Some(GoTy::Pointer(_)))
                {
                    "EachPtrMapVal"
                } else {
                    "EachMapVal"
                };
                (
                    "iterate the map and call the value type's validation function",
                    format!(
                        "{}(ctx, op, fldPath, obj, oldObj, {equiv}, {func})",
                        self.imports.name(VALIDATE, each)
                    ),
                )
            }
            (Shape::List { pointer_elems }, false) => {
                let Some(elem) = self.elem_of(value) else {
                    self.unsupported(subject, "an iteration over a list of unknown element type");
                    return;
                };
                let each = if self.upstream.go_generic_slice_validators() {
                    "EachSliceVal"
                } else if *pointer_elems {
                    "EachPtrSliceVal"
                } else {
                    "EachValSliceVal"
                };
                let mut args = checks::list_args(self, &it.matcher, &elem);
                args.push(func);
                let f = self.imports.name(VALIDATE, each);
                (
                    "iterate the list and call the type's validation function",
                    checks::call_with(self, &f, &args),
                )
            }
            _ => {
                self.unsupported(
                    subject,
                    "an iteration over a value that is not a list or map",
                );
                return;
            }
        };
        line(out, depth, &format!("// {comment}"));
        if self.legacy {
            line(out, depth, &format!("errs = append(errs, {call}...)"));
            return;
        }
        line(out, depth, &format!("if e := {call}; len(e) != 0 {{"));
        line(out, depth + 1, "errs = append(errs, e...)");
        line(out, depth, "}");
    }

    /// `validate.DirectEqual` for element types Go's `==` compares, else `validate.SemanticDeepEqual`.
    fn equiv(&mut self, elem: &TypeKey) -> String {
        if !self.not_comparable.contains(elem) {
            return self.imports.name(VALIDATE, "DirectEqual");
        }
        if self.upstream.deep_equal_func_tag() {
            return self.deep_equal();
        }
        self.imports.name(VALIDATE, "SemanticDeepEqual")
    }

    /// upstream `emitCallsToValidators`: the checks grouped into cohorts (the default first, then named ones in
    /// order of definition), short-circuits first within each, `earlyReturn` after the last short-circuit.
    fn calls(
        &mut self,
        out: &mut String,
        depth: usize,
        subject: &str,
        checks: &[Check],
        value: &GoTy,
    ) {
        let mut order: Vec<Option<String>> = Vec::new();
        for c in checks {
            if !order.contains(&c.cohort) {
                order.push(c.cohort.clone());
            }
        }
        order.sort_by_key(Option::is_some);
        for cohort in order {
            let mut members: Vec<&Check> = checks.iter().filter(|c| c.cohort == cohort).collect();
            members.sort_by_key(|c| !c.short_circuit);
            let d = if let Some(name) = &cohort {
                if self.legacy {
                    line(out, depth, &format!("func() {{ // cohort {name}"));
                } else {
                    line(out, depth, &format!("func() {{ // cohort = \"{name}\""));
                }
                depth + 1
            } else {
                depth
            };
            let last_sc = members.iter().rposition(|c| c.short_circuit);
            if last_sc.is_some() {
                line(out, d, "earlyReturn := false");
            }
            for (i, c) in members.iter().enumerate() {
                let Some(call) = checks::call(self, subject, c, value) else {
                    continue;
                };
                for comment in checks::comments(c) {
                    line(out, d, &format!("// {comment}"));
                }
                let call = format!("{}{}", call, checks::marks(self, c));
                if self.legacy && !(c.short_circuit || c.non_error) {
                    line(out, d, &format!("errs = append(errs, {call}...)"));
                    continue;
                }
                if c.short_circuit {
                    line(out, d, &format!("if e := {call}; len(e) != 0 {{"));
                    if !c.non_error {
                        line(out, d + 1, "errs = append(errs, e...)");
                    }
                    line(out, d + 1, "earlyReturn = true");
                    line(out, d, "}");
                    if Some(i) == last_sc {
                        line(out, d, "if earlyReturn {");
                        line(out, d + 1, "return // do not proceed");
                        line(out, d, "}");
                    }
                } else if c.non_error {
                    line(out, d, &call);
                } else {
                    line(out, d, &format!("if e := {call}; len(e) != 0 {{"));
                    line(out, d + 1, "errs = append(errs, e...)");
                    line(out, d, "}");
                }
            }
            if cohort.is_some() {
                line(out, depth, "}()");
            }
        }
    }
}

/// A Go value's native kind (upstream `util.NativeType(t).Kind`), as the `required` family chooses its function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Native {
    Pointer,
    Slice,
    Map,
    Value,
}

/// upstream `util.IsNilableType` of a type's value: lists and maps (a pointer never reaches here).
fn nilable(shape: &Shape) -> bool {
    matches!(shape, Shape::List { .. } | Shape::Map)
}

#[cfg(test)]
mod tests {
    use super::nearest_package;

    #[test]
    fn the_nearest_copy_shares_the_most_path_segments_and_the_canonical_wins_ties() {
        let copies = [
            "k8s.io/kubernetes/pkg/apis/authorization/v1".to_string(),
            "k8s.io/api/authorization/v1".to_string(),
        ];
        assert_eq!(
            nearest_package("k8s.io/api/authorization/v1alpha1", &copies),
            "k8s.io/api/authorization/v1"
        );
        assert_eq!(
            nearest_package("k8s.io/kubernetes/pkg/apis/authorization/v1beta1", &copies),
            "k8s.io/kubernetes/pkg/apis/authorization/v1"
        );
        // No segment in common with either (or as many): the canonical one, first.
        assert_eq!(
            nearest_package("example.com/x", &copies),
            "k8s.io/kubernetes/pkg/apis/authorization/v1"
        );
        // Segments, not characters: `k8s.io/apix` shares one segment with `k8s.io/api/…`, as with the first.
        assert_eq!(
            nearest_package("k8s.io/apix/y", &copies),
            "k8s.io/kubernetes/pkg/apis/authorization/v1"
        );
    }
}
