//! Lowering of tag uses on reachable types into [`TypePlan`]s, in upstream emission order.

use crate::plan::{
    Boxing, Check, CheckKind, CratePlan, DependentPlan, Discriminator, DiscriminatorKind,
    EnumExclusion, EnumPlan, FieldPlan, GoTy, IfOptionPlan, IfSubresourcePlan, ItemPlan, Iteration,
    ListUnionPlan, Matcher, MemberRef, ModePlan, ModulePlan, NeqValue, Nested, OptionState, RustTy,
    Shape, Stats, Subfield, Subresources, TypePlan, UnionKind, UnionMemberPlan, UnionPlan,
};
use indexmap::{IndexMap, IndexSet};
use vgc_analysis::types::{self, Builtin, Native, Ty, opacity, unwrap_levels};
use vgc_analysis::{Program, TypeKey};
use vgc_ir::catalog::{Family, Lowering, Reader, Role, Stability, TagId, TagIdent, Wrap};
use vgc_ir::model::{FieldIr, TagUse};
use vgc_ir::{Code, Db, Diagnostic, SourceFile};

mod constraints;
mod cross_field;
mod custom;
mod diagnostics;
mod each;
mod r#enum;
mod equality;
use diagnostics::{LowerDiagnostic, Subject};
mod items;
mod json;
mod limits;
mod lists;
mod monotonic;
mod options;
mod required;
mod strfmt;
mod subfield;
mod subresource;
mod tags;
mod testing;
mod update;
mod virtual_fields;
pub use virtual_fields::{VirtualGroups, virtual_groups};
#[cfg(test)]
mod test_support;
use vgc_ir::checked::Checked as _;
use vgc_parser::go::{ConstValue, TypeExpr};
use vgc_parser::tags::{Scalar, Tag};
use vgc_runtime::formats::Format;
use vgc_runtime::validate::UpdateConstraint;

/// The lowered crate of the database's [`vgc_analysis::Workspace`] ([`lower`] over
/// [`vgc_analysis::loaded_program`]), with the package count in its stats. Lowering reads source positions only
/// to place diagnostics, so on a tree without lowering diagnostics a comment or layout edit does not re-run it.
#[salsa::tracked(returns(ref))]
pub fn crate_plan(db: &dyn Db) -> CratePlan {
    let prog = vgc_analysis::loaded_program(db);
    let mut plan = lower(db, prog);
    plan.stats.packages = prog.packages.len();
    plan
}

pub use salsa_module_key::ModuleKey;

/// `ModuleKey` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_module_key {

    /// A Go package's identity as a salsa key (its import path), for per-module queries.
    #[salsa::interned(debug)]
    pub struct ModuleKey<'db> {
        /// Import path.
        #[returns(ref)]
        pub pkg: String,
    }
}

/// The plan of one Go package's module, projected out of [`crate_plan`] (`None` when the package generates no
/// module). The firewall between whole-crate lowering and per-module codegen: it is backdated when the package's
/// plan is unchanged, so editing one package's tags re-generates only that package's module.
#[salsa::tracked(returns(ref))]
pub fn module_plan<'db>(
    db: &'db dyn Db,
    key: ModuleKey<'db>,
) -> Option<std::sync::Arc<ModulePlan>> {
    let pkg = key.pkg(db);
    crate_plan(db)
        .modules
        .iter()
        .find(|m| m.pkg == *pkg)
        .cloned()
}

/// The first unresolved type inside `ty` (itself, or behind pointers, slices and maps), without recursion.
fn first_unresolved(ty: &Ty) -> Option<(&str, &str)> {
    let mut stack = vec![ty];
    while let Some(t) = stack.pop() {
        match t {
            Ty::Unresolved(q, n) => return Some((q, n)),
            Ty::Pointer(i) | Ty::Slice(i) => stack.push(i),
            Ty::Map(k, v) => {
                stack.push(v);
                stack.push(k);
            }
            _ => {}
        }
    }
    None
}

/// Whether `text` holds the identifier `name` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name)
        .any(|(i, _)| !text[..i].ends_with(word) && !text[i + name.len()..].starts_with(word))
}

/// The Go identifier of a struct field: its name, or for an embedded field its type's name (`T`, `*T`, `pkg.T`);
/// `None` for an embedded field of another shape (which Go does not allow). This is the name plans carry for a
/// field (`FieldPlan::go_field` and every cross-field reference to it); codegen derives the Rust name from it.
#[must_use]
pub fn go_field_name(f: &FieldIr) -> Option<String> {
    match &f.go_name {
        Some(n) => Some(n.clone()),
        None => match &f.ty {
            TypeExpr::Named { name, .. } => Some(name.clone()),
            TypeExpr::Pointer(i) => match i.as_ref() {
                TypeExpr::Named { name, .. } => Some(name.clone()),
                _ => None,
            },
            _ => None,
        },
    }
}

struct Lowerer<'a> {
    db: &'a dyn Db,
    prog: &'a Program,
    types: &'a IndexSet<TypeKey>,
    boxed: &'a IndexSet<(TypeKey, TypeKey)>,
    recursive: &'a IndexSet<TypeKey>,
    diags: Vec<Diagnostic>,
    stats: Stats,
    /// Off while re-lowering a member's tags for `subfield` inheritance (they are counted on the member).
    counting: bool,
    /// Set by [`Self::lower_tag`] when the use it lowered is documentation only (1.38's `+k8s:required` /
    /// `+k8s:optional` on a non-pointer struct field: no check, read by the `nonPointerStructRequiredness` lint
    /// rule and the docs); [`Self::account`] counts such a use as consumed and clears the flag.
    documented: bool,
    /// Upstream's explanations of tag uses that made no check (`Validations.Comments`: 1.38's "+k8s:optional on
    /// non-pointer struct fields is purely documentation"), collected while a field's tags are lowered and moved
    /// into its [`FieldPlan::notes`].
    notes: Vec<String>,
    /// While lowering struct-level tags that `subfield(x)=` tags declare on a member struct (whose types resolve
    /// in the member struct's file), the file the tags and spans belong to: diagnostics are placed there.
    tag_file: Option<SourceFile>,
}

impl<'a> Lowerer<'a> {
    /// A lowerer over `prog` with the whole-program facts `r`, counting its tag uses.
    fn new(db: &'a dyn Db, prog: &'a Program, r: &'a Reach) -> Self {
        Lowerer {
            db,
            prog,
            types: &r.types,
            boxed: &r.boxed,
            recursive: &r.recursive,
            diags: Vec::new(),
            stats: Stats::default(),
            counting: true,
            documented: false,
            notes: Vec::new(),
            tag_file: None,
        }
    }
}

/// Typed constants by type: (package import path, declaring file, index in the file's constants).
type ConstIndex = std::collections::HashMap<TypeKey, Vec<(String, SourceFile, usize)>>;

/// Whole-program facts every type's lowering reads: the root types (and the diagnostics of root selection), every
/// type reachable from them in discovery order (roots first), and the pointer edges that must be boxed.
///
/// Root criteria from [`vgc_ir::Settings::extra_roots`] (when the singleton exists) are added to every enabled
/// target package (see [`vgc_analysis::types::add_criterion`]); unknown ones are reported as `VGC0005`.
#[derive(Debug, Clone, Default, Eq)]
pub struct Reach {
    /// Root types.
    pub roots: IndexSet<TypeKey>,
    /// Reachable types in discovery order.
    pub types: IndexSet<TypeKey>,
    /// (container, pointee) edges to box.
    pub boxed: IndexSet<(TypeKey, TypeKey)>,
    /// Types whose values can contain themselves ([`types::recursive_types`]).
    pub recursive: IndexSet<TypeKey>,
    /// Diagnostics of root selection.
    pub diagnostics: Vec<Diagnostic>,
}

impl PartialEq for Reach {
    /// Equal when the same types are reachable in the same order (`IndexSet` equality alone ignores order, and
    /// the order decides the order of generated items).
    fn eq(&self, other: &Self) -> bool {
        self.types.iter().eq(other.types.iter())
            && self.roots == other.roots
            && self.boxed == other.boxed
            && self.recursive == other.recursive
            && self.diagnostics == other.diagnostics
    }
}

/// The [`Reach`] of the database's program: a whole-program query, re-run after any IR change but backdated when
/// its result is the same, so the per-type queries behind it do not re-run.
#[salsa::tracked(returns(ref))]
pub fn reach(db: &dyn Db) -> Reach {
    let prog = vgc_analysis::loaded_program(db);
    let extra_roots: Vec<String> = vgc_ir::Settings::try_get(db)
        .map(|s| s.extra_roots(db).clone())
        .unwrap_or_default();
    let mut diagnostics = Vec::new();
    let roots = types::all_roots(db, prog, &extra_roots, &mut diagnostics);
    let types = types::reachable(db, &roots);
    let boxed = types::boxed_edges(db, &types);
    let recursive = types::recursive_types(db, &types);
    Reach {
        roots: roots.into_iter().collect(),
        types,
        boxed,
        recursive,
        diagnostics,
    }
}

/// Typed constants by their type, in program order (package, file, declaration): enum discovery reads it, so it
/// is linear in the program size instead of scanning every constant once per enum. A query: backdated when no
/// constant changed.
#[salsa::tracked(returns(ref))]
fn const_index(db: &dyn Db) -> ConstIndex {
    let prog = vgc_analysis::loaded_program(db);
    let mut index = ConstIndex::new();
    for p in prog.packages.values() {
        for f in &p.files {
            for (ci, c) in vgc_ir::db::file_ir(db, *f).consts.iter().enumerate() {
                let Some(t) = &c.ty else { continue };
                if let Ty::Named(key) = types::resolve(db, prog, &p.path, *f, t) {
                    index.entry(key).or_default().push((p.path.clone(), *f, ci));
                }
            }
        }
    }
    index
}

pub use salsa_lower_key::LowerKey;

/// `LowerKey` in a module of its own: salsa generates its constructor and accessors, which carry no docs (the
/// fields' docs say what they return), so `missing_docs` is allowed here alone.
#[allow(missing_docs)]
mod salsa_lower_key {
    use super::*;

    /// A reachable type as a salsa key for the per-type lowering queries: its identity and whether it is a root.
    #[salsa::interned(debug)]
    pub struct LowerKey<'db> {
        /// The type.
        #[returns(ref)]
        pub ty: TypeKey,
        /// Whether it is a root type (roots carry subresource routing).
        pub root: bool,
    }
}

/// One type's lowering before the whole-program `hasValidations` pass: its plan (`None` for types that generate
/// nothing), the diagnostics it raised and its counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeLowering {
    /// The plan, with `has_validations` and nested calls as the type alone decides them.
    pub plan: Option<std::sync::Arc<TypePlan>>,
    /// Type-dependent tag errors and not-lowered warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Tag and check counts.
    pub stats: Stats,
    /// Whether the type is tagged `+k8s:opaqueType` (its `hasValidations` counts only its own checks).
    pub opaque: bool,
}

/// Lowers one type into its per-type validation plan ([`TypePlan`]). Reads the [`Reach`], the declarations it resolves
/// through and, for enums, the constant index; so after an edit only the types that read an edited file's IR
/// re-run.
#[salsa::tracked(returns(ref))]
pub fn lower_type<'db>(db: &'db dyn Db, key: LowerKey<'db>) -> TypeLowering {
    let prog = vgc_analysis::loaded_program(db);
    let r = reach(db);
    let mut l = Lowerer::new(db, prog, r);
    let plan = l.type_plan(key.ty(db), *key.root(db));
    let opaque = prog
        .type_decl(db, key.ty(db))
        .is_some_and(|(d, _)| opacity(&d.tags).value);
    TypeLowering {
        plan: plan.map(std::sync::Arc::new),
        diagnostics: l.diags,
        stats: l.stats,
        opaque,
    }
}

/// Computes [`lower_type`] for every reachable type ahead of [`crate_plan`], on the database's workers
/// ([`vgc_ir::Db::par_each`]; call it from the top level, never inside a query). Results are the same as without
/// it: `crate_plan` then finds every per-type plan memoised.
pub fn prefetch_types(db: &dyn Db) {
    let n = lower_keys(db).len();
    db.par_each(n, &|db, i| {
        let _ = lower_type(db, lower_keys(db)[i]);
    });
}

/// The [`LowerKey`] of every reachable type, in reach order (interned once per change of the [`Reach`]).
#[salsa::tracked(returns(ref))]
pub fn lower_keys(db: &dyn Db) -> Vec<LowerKey<'_>> {
    let r = reach(db);
    r.types
        .iter()
        .map(|k| LowerKey::new(db, k.clone(), r.roots.contains(k)))
        .collect()
}

/// The types with validations, upstream `hasValidations`: a type's own checks, or a call into a type with
/// validations, transitively (to a fixed point over a bit vector); a type tagged `+k8s:opaqueType` counts only its
/// own checks. Backdated when unchanged, so [`type_plan_final`] re-runs only for types whose own lowering changed.
#[salsa::tracked(returns(ref))]
pub fn validated_types(db: &dyn Db) -> IndexSet<TypeKey> {
    let lowered: Vec<&TypeLowering> = lower_keys(db).iter().map(|k| lower_type(db, *k)).collect();
    let plans: IndexMap<&TypeKey, (&TypePlan, bool)> = lowered
        .iter()
        .filter_map(|t| t.plan.as_deref().map(|p| (&p.key, (p, t.opaque))))
        .collect();
    // Each plan's own work and the plans whose validations it calls into (by index).
    let index_of = |k: &TypeKey| plans.get_index_of(k);
    let mut has: Vec<bool> = Vec::with_capacity(plans.len());
    let mut calls: Vec<Vec<usize>> = Vec::with_capacity(plans.len());
    for &(p, opaque) in plans.values() {
        let mut c = Vec::new();
        let mut push = |k: &TypeKey| c.extend(index_of(k));
        p.iteration.iter().for_each(|i| push(&i.elem));
        p.key_iteration.iter().for_each(|i| push(&i.elem));
        let mut any = !p.checks.is_empty() || p.has_validations;
        for f in p.fields.iter().flatten() {
            any |= !f.checks.is_empty();
            f.nested.iter().for_each(|n| push(&n.ty));
            f.iteration.iter().for_each(|i| push(&i.elem));
            f.key_iteration.iter().for_each(|i| push(&i.elem));
        }
        has.push(p.has_validations || (any && !opaque));
        calls.push(if opaque { Vec::new() } else { c });
    }
    loop {
        let mut changed = false;
        for i in 0..has.len() {
            if !has[i] && calls[i].iter().any(|&j| has[j]) {
                has[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    plans
        .keys()
        .zip(&has)
        .filter(|(_, h)| **h)
        .map(|(k, _)| (*k).clone())
        .collect()
}

/// One type's final plan: its [`lower_type`] plan with `has_validations` from [`validated_types`], calls into
/// types without validations pruned, and upstream's `PtrSliceNoNils` first on fields that need it. The
/// [`lower_type`] plan itself (shared, not copied) when none of that changes anything.
#[salsa::tracked(returns(ref))]
pub fn type_plan_final<'db>(
    db: &'db dyn Db,
    key: LowerKey<'db>,
) -> Option<std::sync::Arc<TypePlan>> {
    let raw = lower_type(db, key).plan.as_ref()?;
    let validated = validated_types(db);
    let hv = |k: &TypeKey| validated.contains(k);
    let prunes = |it: &Option<Iteration>| it.as_ref().is_some_and(|i| !hv(&i.elem));
    let unchanged = (raw.has_validations || !hv(&raw.key))
        && !prunes(&raw.iteration)
        && !prunes(&raw.key_iteration)
        && raw.fields.iter().flatten().all(|f| {
            !f.no_nils
                && f.nested.as_ref().is_none_or(|n| hv(&n.ty))
                && !prunes(&f.iteration)
                && !prunes(&f.key_iteration)
        });
    if unchanged {
        return Some(raw.clone());
    }
    let mut p = (**raw).clone();
    p.has_validations |= hv(&p.key);
    if p.iteration.as_ref().is_some_and(|i| !hv(&i.elem)) {
        p.iteration = None;
    }
    if p.key_iteration.as_ref().is_some_and(|i| !hv(&i.elem)) {
        p.key_iteration = None;
    }
    for f in p.fields.iter_mut().flatten() {
        if f.nested.as_ref().is_some_and(|n| !hv(&n.ty)) {
            f.nested = None;
        }
        if f.iteration.as_ref().is_some_and(|i| !hv(&i.elem)) {
            f.iteration = None;
        }
        if f.key_iteration.as_ref().is_some_and(|i| !hv(&i.elem)) {
            f.key_iteration = None;
        }
        // upstream: PtrSliceNoNils (PtrMapNoNils for maps, 1.38) is the field's first short-circuit function, after
        // the ratchet.
        if f.no_nils && f.has_work() {
            f.checks.insert(
                0,
                Check {
                    kind: CheckKind::NoNils,
                    short_circuit: true,
                    non_error: false,
                    stability: None,
                    tag: None,
                    cohort: None,
                },
            );
        }
        f.no_nils = false;
    }
    Some(std::sync::Arc::new(p))
}

/// Lowers every type reachable from the roots of the target packages through the per-type queries and groups the
/// plans into modules (sorted by module path; types in reach order), with the diagnostics of root selection and
/// of every type, and the summed counts.
#[must_use]
pub fn lower(db: &dyn Db, prog: &Program) -> CratePlan {
    let r = reach(db);
    let mut diagnostics = r.diagnostics.clone();
    diagnostics.extend(virtual_groups(db).diagnostics.iter().cloned());
    let mut stats = Stats::default();
    let mut modules: IndexMap<String, ModulePlan> = IndexMap::new();
    let group_of = |pkg: &str| {
        prog.packages.get(pkg).and_then(|p| {
            p.files
                .iter()
                .find_map(|f| vgc_ir::db::file_ir(db, *f).group_name.clone())
        })
    };
    // upstream 1.38 `targets.go`: the package's `+k8s:validation-gen-deep-equal-func` (its diagnostics are reported
    // by root selection, which reads the same settings).
    let deep_equal_of =
        |pkg: &str| match types::gen_config(db, prog, pkg, &mut Vec::new()).deep_equal {
            vgc_analysis::types::DeepEqualFunc::Project(f) => Some(f),
            vgc_analysis::types::DeepEqualFunc::Semantic => None,
        };
    let go_name_of = |pkg: &str| {
        prog.packages
            .get(pkg)
            .and_then(|p| p.files.first())
            .map(|f| vgc_ir::db::file_ir(db, *f).package.clone())
            .unwrap_or_default()
    };
    let scheme_registry_of =
        |pkg: &str| match types::gen_config(db, prog, pkg, &mut Vec::new()).scheme_registry {
            None => Some(crate::plan::DEFAULT_SCHEME_REGISTRY.to_string()),
            Some(v) if v == "nil" => None,
            Some(v) => Some(v),
        };
    for (k, &key) in r.types.iter().zip(lower_keys(db)) {
        let t = lower_type(db, key);
        diagnostics.extend(t.diagnostics.iter().cloned());
        stats.add(&t.stats);
        if let Some(p) = type_plan_final(db, key) {
            modules
                .entry(k.pkg.clone())
                .or_insert_with(|| ModulePlan {
                    pkg: k.pkg.clone(),
                    group: group_of(&k.pkg),
                    types: Vec::new(),
                    deep_equal: deep_equal_of(&k.pkg),
                    go_name: go_name_of(&k.pkg),
                    scheme_registry: scheme_registry_of(&k.pkg),
                })
                .types
                .push(p.clone());
        }
    }
    let switched_off_kinds = types::switched_off_kinds(db, prog)
        .into_iter()
        .map(|key| {
            let (group, version) = ModulePlan {
                pkg: key.pkg.clone(),
                group: group_of(&key.pkg),
                types: Vec::new(),
                deep_equal: None,
                go_name: String::new(),
                scheme_registry: None,
            }
            .group_version();
            let removed_in = prog.type_decl(db, &key).and_then(|(d, _)| {
                vgc_ir::model::removed_in(
                    d.tags.iter().chain(&d.second_tags),
                    &key.pkg,
                    vgc_ir::profile::upstream(db),
                )
            });
            crate::plan::KindRef {
                group,
                version,
                kind: key.name.clone(),
                key,
                validated: false,
                removed_in,
            }
        })
        .collect();
    let mut modules: Vec<std::sync::Arc<ModulePlan>> =
        modules.into_values().map(std::sync::Arc::new).collect();
    modules.sort_by(|a, b| a.pkg.cmp(&b.pkg));
    stats.packages = prog.packages.len();
    stats.types = r.types.len();
    CratePlan {
        modules,
        go_module: prog.module.clone(),
        diagnostics,
        stats,
        upstream: vgc_ir::profile::upstream(db),
        formats: if vgc_ir::profile::upstream(db).project_formats() {
            vgc_ir::extensions::project_formats(db)
        } else {
            std::sync::Arc::from(Vec::new())
        },
        switched_off_kinds,
    }
}

impl Lowerer<'_> {
    /// Reports `d` about `subject` at span `at` of `file` (an error).
    fn report(&mut self, file: SourceFile, at: u32, subject: &Subject, d: LowerDiagnostic) {
        self.err(file, at, d.code(), d.message(subject), d.hint());
    }

    /// The one sink of lowering's errors: the tag file when lowering reads tags of another file, else `file`.
    fn err(&mut self, file: SourceFile, at: u32, code: Code, msg: String, hint: Option<String>) {
        let file = self.tag_file.unwrap_or(file);
        let d = Diagnostic::error(code, msg).at_span(file.path(self.db).clone(), file, at, None);
        self.diags.push(match hint {
            Some(h) => d.with_hint(h),
            None => d,
        });
    }

    fn rust_ty(&self, owner: &TypeKey, t: &Ty) -> RustTy {
        match t {
            Ty::Builtin(b) => RustTy::Builtin(*b),
            Ty::Named(k) => RustTy::Named(k.clone()),
            Ty::WellKnown(w) => RustTy::WellKnown(*w),
            Ty::Pointer(i) => {
                let boxing = if matches!(i.as_ref(), Ty::Named(k) if self.boxed.contains(&(owner.clone(), k.clone())))
                {
                    Boxing::Boxed
                } else {
                    Boxing::Inline
                };
                RustTy::Option(Box::new(self.rust_ty(owner, i)), boxing)
            }
            Ty::Slice(i) => RustTy::Vec(Box::new(self.rust_ty(owner, i))),
            Ty::Map(_, v) => RustTy::Map(Box::new(self.rust_ty(owner, v))),
            Ty::Any | Ty::Unresolved(..) => RustTy::Json,
        }
    }

    /// Member `f` of struct `owner` (declared in `file`) as the plan names it: Go name `go`, JSON name `json`, its
    /// Rust type, pointer boxing, shape and element type.
    fn member_ref(
        &self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
        go: String,
        json: String,
    ) -> MemberRef {
        let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
        let shape = self.shape(&ty);
        let (ty, pointer, elem) = split_member(self.rust_ty(owner, &ty));
        MemberRef {
            go,
            json,
            ty,
            pointer,
            shape,
            elem,
        }
    }

    fn shape(&self, t: &Ty) -> Shape {
        let (inner, ptr) = match t {
            Ty::Pointer(i) => (i.as_ref().clone(), true),
            other => (other.clone(), false),
        };
        match types::native(self.db, self.prog, &inner) {
            Native::Struct(_) => Shape::Struct { pointer: ptr },
            Native::Other(Ty::Builtin(b)) => Shape::Scalar {
                ty: b,
                pointer: ptr,
            },
            Native::Other(Ty::Slice(e)) => Shape::List {
                pointer_elems: matches!(e.as_ref(), Ty::Pointer(_)),
            },
            Native::Other(Ty::Map(..)) => Shape::Map,
            Native::Other(_) => Shape::Other { pointer: ptr },
        }
    }

    /// The plan of struct type `k` (declared by `decl` in `file`) with members `fields` and the struct-level checks
    /// its members defer (`checks`): drops the member validations of a type-level `opaqueType`, adds `k`'s own type tags (type-level `subfield` tags select its members),
    /// cohort-sorted. `json_of` is the struct whose JSON shape the type has (`k` itself, or `T` for `type E T`).
    #[allow(clippy::too_many_arguments)]
    fn struct_plan(
        &mut self,
        k: &TypeKey,
        file: SourceFile,
        decl: &vgc_ir::model::TypeIr,
        root: bool,
        docs: Vec<String>,
        mut fields: Vec<FieldPlan>,
        mut checks: Vec<Check>,
        json_of: &TypeKey,
    ) -> TypePlan {
        if opacity(&decl.tags).value {
            // upstream: the members of a type-level `opaqueType` struct (or `type E T` over a struct) are not
            // validated, even at a root; only the type's own tags run. Member tags are still checked and counted.
            for fp in &mut fields {
                fp.checks.clear();
                fp.nested = None;
                fp.iteration = None;
                fp.key_iteration = None;
            }
        }
        let own = Ty::Named(k.clone());
        checks.extend(self.checks(
            k,
            file,
            &decl.tags,
            &Shape::Struct { pointer: false },
            Some(&own),
            &k.pkg,
        ));
        sort_cohort(&mut checks);
        TypePlan {
            key: k.clone(),
            fields: Some(fields),
            alias_of: None,
            go_ty: match &decl.ty {
                TypeExpr::Struct(_) => None,
                t => Some(go_ty(self.db, self.prog, &k.pkg, file, t)),
            },
            opaque: opacity(&decl.tags).value,
            removed_in: vgc_ir::model::removed_in(
                decl.tags.iter().chain(&decl.second_tags),
                &k.pkg,
                vgc_ir::profile::upstream(self.db),
            ),
            shape: Shape::Struct { pointer: false },
            has_validations: !checks.is_empty(),
            checks,
            iteration: None,
            key_iteration: None,
            root,
            docs,
            subresources: root.then(|| self.subresources(k, decl)),
            json_ignored: self.json_ignored(json_of),
            recursive: self.recursive.contains(k),
            default: self.type_default(k, true),
        }
    }

    fn type_plan(&mut self, k: &TypeKey, root: bool) -> Option<TypePlan> {
        let (decl, file) = self.prog.type_decl(self.db, k)?;
        let docs = Vec::new();
        if let TypeExpr::Struct(_) = decl.ty {
            let mut fields: Vec<FieldPlan> = Vec::new();
            for f in &decl.fields {
                if let Some(fp) = self.field_plan(k, file, f) {
                    fields.push(fp);
                }
            }
            // upstream §3.4: struct-level functions deferred from fields (unions) come before the type's own tags.
            let mut checks = self.struct_level_checks(k, file, &decl.fields);
            // vgc extension: field-path constraints hoisted to this struct, after upstream's struct-level functions.
            checks.extend(self.field_constraints(k, file, &decl.fields, &decl.tags));
            // vgc extension: virtual groups whose members' closest common ancestor this struct is.
            checks.extend(self.virtual_checks(k));
            return Some(self.struct_plan(k, file, decl, root, docs, fields, checks, k));
        }
        let ty = types::resolve(self.db, self.prog, &k.pkg, file, &decl.ty);
        if let (Ty::Named(_), Native::Struct(sk)) = (&ty, types::native(self.db, self.prog, &ty))
            && let Some((sd, sfile)) = self.prog.type_decl(self.db, &sk)
        {
            // upstream (gengo): `type E T` over a struct `T` is a struct with `T`'s members, so `Validate_E` runs
            // the member tags of `T`'s fields (and the struct-level functions they defer) and `E`'s own type
            // tags — not `T`'s type tags. Those member tags are counted and reported on `T`.
            let (n, was) = (
                self.diags.len(),
                std::mem::replace(&mut self.counting, false),
            );
            let mut fields = Vec::new();
            for f in &sd.fields {
                if let Some(fp) = self.field_plan(&sk, sfile, f) {
                    fields.push(fp);
                }
            }
            let mut checks = self.struct_level_checks(&sk, sfile, &sd.fields);
            checks.extend(self.field_constraints(&sk, sfile, &sd.fields, &[]));
            self.counting = was;
            self.diags.truncate(n);
            // `E`'s own type tags (the `target:` form of field-path constraints among them), reported on `E`.
            checks.extend(self.field_constraints(&sk, file, &[], &decl.tags));
            checks.extend(self.virtual_checks(k));
            return Some(self.struct_plan(k, file, decl, root, docs, fields, checks, &sk));
        }
        self.non_struct_constraints(k, file, &decl.tags);
        let shape = self.shape(&ty);
        // A list typedef's own list metadata identifies its items (ratcheting of element validation, uniqueness).
        let matcher = if matches!(shape, Shape::List { .. }) {
            self.matcher_for(
                file,
                decl.at,
                &Subject::Decl(k.name.clone()),
                &decl.tags,
                &ty,
            )
        } else {
            Matcher::None
        };
        // The typedef's own tags check a value of the typedef's Go type: over `time.Duration` that type has no
        // `String` method (a defined type does not inherit methods), so 1.38's `%v` bound prints an integer, not
        // `1s` — the tags see the typedef, not `time.Duration`.
        let value_ty = if ty == Ty::Builtin(types::Builtin::Duration) {
            Ty::Named(k.clone())
        } else {
            ty.clone()
        };
        let mut keyed = self.checks_keyed(k, file, &decl.tags, &shape, Some(&value_ty), &k.pkg);
        if matches!(shape, Shape::List { .. }) {
            // upstream: a list typedef's own `item` tags run in its `Validate_<Type>`, list-item unions named
            // after the type.
            for c in self.item_checks(k, file, &decl.tags, &k.name, &k.name, &ty, &matcher) {
                keyed.push((self.deferred_key(&c, TagId::Item), c));
            }
        }
        if let Some(c) = self.unique_check(&decl.tags, &matcher) {
            keyed.push((self.deferred_key(&c, TagId::ListType), c));
        }
        let mut checks = emission_order(keyed);
        for c in &mut checks {
            match &mut c.kind {
                CheckKind::EachVal(_, m, _) => *m = matcher.clone(),
                CheckKind::Update(_, m) if matches!(shape, Shape::List { .. }) => {
                    *m = matcher.clone()
                }
                _ => {}
            }
        }
        sort_cohort(&mut checks);
        if !checks.is_empty() && self.map_of_slices(&ty) {
            self.report(
                file,
                decl.at,
                &Subject::Decl(k.name.clone()),
                LowerDiagnostic::MapOfSlices,
            );
        }
        // upstream: a typedef of a list or map typedef is natively that list or map, so its function iterates the
        // elements itself (the inner typedef's own rules do not apply).
        let native_ty = match types::native(self.db, self.prog, &ty) {
            Native::Other(t @ (Ty::Slice(_) | Ty::Map(..))) => t,
            _ => ty.clone(),
        };
        let iteration = if opacity(&decl.tags).elems {
            None
        } else {
            self.iteration(&native_ty, matcher)
        };
        let key_iteration = if opacity(&decl.tags).keys {
            None
        } else {
            self.key_iteration(&native_ty)
        };
        let has = !checks.is_empty();
        Some(TypePlan {
            json_ignored: Vec::new(),
            recursive: self.recursive.contains(k),
            key: k.clone(),
            fields: None,
            alias_of: Some(self.rust_ty(k, &ty)),
            go_ty: Some(go_ty(self.db, self.prog, &k.pkg, file, &decl.ty)),
            opaque: opacity(&decl.tags).value,
            removed_in: vgc_ir::model::removed_in(
                decl.tags.iter().chain(&decl.second_tags),
                &k.pkg,
                vgc_ir::profile::upstream(self.db),
            ),
            shape,
            checks,
            iteration,
            key_iteration,
            root,
            has_validations: has,
            docs,
            subresources: root.then(|| self.subresources(k, decl)),
            default: self.type_default(k, true),
        })
    }

    /// upstream `RegisterValidations` (spec §3.6): the served paths ([`types::served_subresources`]) and the Go
    /// `%T` of the object.
    fn subresources(&self, k: &TypeKey, decl: &vgc_ir::model::TypeIr) -> Subresources {
        let allowed = types::served_subresources(self.db, decl);
        let pkg_name = self
            .prog
            .packages
            .get(&k.pkg)
            .map_or("", |p| p.name.as_str());
        // upstream's scheme holds a list or map typedef root by value (Go slices and maps are references), every
        // other root by pointer: `%T` prints `v1.Items` or `*v1.Pod`.
        let by_value = matches!(
            types::native(self.db, self.prog, &Ty::Named(k.clone())),
            Native::Other(Ty::Slice(_) | Ty::Map(..))
        );
        Subresources {
            allowed: allowed.into_iter().collect(),
            go_type: format!("{}{pkg_name}.{}", if by_value { "" } else { "*" }, k.name),
        }
    }

    /// upstream `EachMapKey` with the key type's function: a map (directly or through typedefs) whose key is a
    /// named type of a loaded package.
    fn key_iteration(&self, t: &Ty) -> Option<Iteration> {
        let t = match t {
            Ty::Pointer(i) => i.as_ref(),
            t => t,
        };
        let key = match t {
            Ty::Map(k, _) => k.as_ref(),
            _ => return None,
        };
        match key {
            Ty::Named(k) if self.types.contains(k) => Some(Iteration {
                elem: k.clone(),
                matcher: Matcher::None,
                keys: true,
            }),
            _ => None,
        }
    }

    fn iteration(&self, t: &Ty, matcher: Matcher) -> Option<Iteration> {
        let elem = match t {
            Ty::Slice(e) | Ty::Map(_, e) => e.as_ref(),
            Ty::Named(_) => return None,
            _ => return None,
        };
        let elem = match elem {
            Ty::Pointer(i) => i.as_ref(),
            e => e,
        };
        match elem {
            Ty::Named(k) if self.types.contains(k) => Some(Iteration {
                elem: k.clone(),
                matcher,
                keys: false,
            }),
            _ => None,
        }
    }

    /// [`Self::field_plan_of`], whose diagnostics are dropped when the field's type is unresolved because the
    /// package that should declare it has a region with a Go syntax error that names the type: the `VGC0001` there
    /// says what is not read, and what follows from it (`VGC0004` here, list-map errors of an unknown item type) is
    /// no problem of this field. A name no broken region mentions is still a `VGC0004`. Only then does lowering read
    /// the broken file's text and spans (so a layout edit re-runs it while a syntax error is there, never otherwise).
    fn field_plan(&mut self, owner: &TypeKey, file: SourceFile, f: &FieldIr) -> Option<FieldPlan> {
        let mark = self.diags.len();
        let plan = self.field_plan_of(owner, file, f);
        if self.diags.len() == mark {
            return plan;
        }
        let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
        if let Some((q, name)) = first_unresolved(&ty)
            && self
                .prog
                .packages
                .get(&self.package_of(file, q))
                .is_some_and(|p| {
                    p.files.iter().any(|pf| {
                        let text = pf.text(self.db);
                        vgc_ir::db::file_ir(self.db, *pf)
                            .problems
                            .iter()
                            .filter(|(_, _, error)| !*error)
                            .any(|(id, _, _)| {
                                let region = vgc_ir::db::span_of(self.db, *pf, *id);
                                text.get(region).is_some_and(|r| mentions(r, name))
                            })
                    })
                })
        {
            self.diags.truncate(mark);
        }
        plan
    }

    /// The import path a type qualifier `q` of `file` names (`q` itself when it is no import's name: an unresolved
    /// type of the file's own package carries the package's path).
    fn package_of(&self, file: SourceFile, q: &str) -> String {
        vgc_analysis::program::import_for(vgc_ir::db::file_ir(self.db, file), q)
            .unwrap_or_else(|| q.to_string())
    }

    fn field_plan_of(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
    ) -> Option<FieldPlan> {
        let go_name = go_field_name(f)?;
        if !go_name.starts_with(|c: char| c.is_uppercase()) {
            return None;
        }
        let json = f.json.clone().unwrap_or_default();
        // gengo `LookupJSON`: only an embedded field without a JSON name is inline (`json:",inline"` on a named
        // field is its Go name, as for encoding/json).
        let inline = f.go_name.is_none() && json.name.is_empty();
        let json_name = if json.skip || inline {
            String::new()
        } else if json.name.is_empty() {
            go_name.clone()
        } else {
            json.name.clone()
        };
        let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
        // upstream checks each type it reaches, outside in: a pointer to an array is a pointer to a list; any other
        // array (`[3]T`, `[][2]T`, a typedef of one) is refused as an array before its element is looked at.
        let pointer_to_array =
            matches!(&f.ty, TypeExpr::Pointer(i) if matches!(**i, TypeExpr::Array { .. }));
        let shape_problem = if !pointer_to_array && self.fixed_array(&f.ty, &owner.pkg, file, 0) {
            Some("fixed-size arrays are not supported")
        } else {
            self.unsupported_shape(&ty, 0)
        };
        // Tags on an anonymous struct's members: upstream validates them, vgc does not model anonymous structs.
        if self.counting {
            for u in &f.anonymous_tags {
                self.stats.tags += 1;
                self.stats.not_lowered += 1;
                let file = self.tag_file.unwrap_or(file);
                self.diags.push(
                    Diagnostic::warning(
                        Code::NotLowered,
                        format!(
                            "field {}.{go_name}: tag {:?} on a member of an anonymous struct is not lowered; no check generated (upstream validation-gen validates it)",
                            owner.name, u.name
                        ),
                    )
                    .at_span(file.path(self.db).clone(), file, u.at, Some(u.name.len()))
                    .with_hint("declare the anonymous struct as a named type (`type Inner struct { … }`) so that vgc validates its members"),
                );
            }
        }
        if let Some(msg) = shape_problem {
            self.report(
                file,
                f.at,
                &Subject::field(&owner.name, &go_name),
                LowerDiagnostic::UnsupportedShape(msg),
            );
        }
        // R9: an inline-embedded pointer decodes as Go's encoding/json does (allocated when one of its JSON names is
        // present); one that embeds its own struct again cannot be represented (Go never fills the inner copy).
        let mut embedded_keys = Vec::new();
        if inline
            && !json.skip
            && let Ty::Pointer(i) = &ty
            && let Native::Struct(p) = types::native(self.db, self.prog, i)
        {
            if let Some(cycle) = self.embedding_cycle(&p, owner) {
                self.report(
                    file,
                    f.at,
                    &Subject::field(&owner.name, &go_name),
                    LowerDiagnostic::EmbeddedPointerCycle(cycle.clone()),
                );
                return None;
            }
            embedded_keys = self
                .prog
                .type_decl(self.db, owner)
                .and_then(|(decl, _)| {
                    decl.fields
                        .iter()
                        .position(|x| x.at == f.at && x.member_name() == f.member_name())
                })
                .map_or_else(
                    || self.json_names_through(&p),
                    |i| self.embedded_claims(owner, i),
                );
        }
        let types::Opacity {
            value: opaque,
            elems: opaque_elems,
            keys: opaque_keys,
        } = opacity(&f.tags);
        // R6: also behind pointers, slices and maps (`*metav1.NoSuchType`, `[]NoSuchLocal`).
        if let Some((q, n)) = first_unresolved(&ty)
            && !opaque
        {
            self.report(
                file,
                f.at,
                &Subject::field(&owner.name, &go_name),
                LowerDiagnostic::UnresolvedType {
                    pkg: q.to_string(),
                    name: n.to_string(),
                    missing_from: self.prog.packages.get(&self.package_of(file, q)).map(|p| {
                        let near = p
                            .types
                            .keys()
                            .map(|t| (strsim::levenshtein(t, n), t))
                            .filter(|(d, _)| *d <= 2)
                            .min()
                            .map(|(_, t)| t.clone());
                        (p.path.clone(), near)
                    }),
                },
            );
        }
        let shape = self.shape(&ty);
        let matcher = self.matcher(owner, file, f, &ty);
        self.notes.clear();
        let mut keyed = self.checks_keyed(owner, file, &f.tags, &shape, Some(&ty), &owner.pkg);
        // upstream: `item` tags and the `listType`/`unique` uniqueness check are deferred too, in their tag's slot.
        let field_json = f
            .json
            .as_ref()
            .map(|j| j.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| go_name.clone());
        for c in self.item_checks(owner, file, &f.tags, &go_name, &field_json, &ty, &matcher) {
            keyed.push((self.deferred_key(&c, TagId::Item), c));
        }
        if let Some(c) = self.unique_check(&f.tags, &matcher) {
            keyed.push((self.deferred_key(&c, TagId::ListType), c));
        }
        let mut notes = std::mem::take(&mut self.notes);
        let mut checks = emission_order(keyed);
        for c in &mut checks {
            match &mut c.kind {
                CheckKind::EachVal(_, m, _) => *m = matcher.clone(),
                CheckKind::Update(cs, m) if matches!(shape, Shape::List { .. }) => {
                    // upstream: NoAddItem/NoRemoveItem identify items through the list metadata; none is an error.
                    if matcher == Matcher::None && cs.iter().any(|c| c.on_items()) {
                        self.report(
                            file,
                            f.at,
                            &Subject::field(&owner.name, &go_name),
                            LowerDiagnostic::UpdateItemsWithoutListMetadata,
                        );
                    }
                    *m = matcher.clone();
                }
                _ => {}
            }
        }
        notes.extend(self.apply_default_rule(owner, file, f, &shape, &mut checks));
        if !checks.is_empty() && self.map_of_slices(&ty) {
            self.report(
                file,
                f.at,
                &Subject::field(&owner.name, &go_name),
                LowerDiagnostic::MapOfSlices,
            );
        }
        sort_cohort(&mut checks);
        let nested = match (&ty, opaque) {
            (_, true) => None,
            (Ty::Named(k), _) => Some(Nested { ty: k.clone() }),
            (Ty::Pointer(i), _) => match i.as_ref() {
                Ty::Named(k) => Some(Nested { ty: k.clone() }),
                _ => None,
            },
            _ => None,
        };
        // upstream: `opaqueType` drops the call into a struct or typedef; element iteration of an unnamed list or
        // map is dropped only by `eachVal=+k8s:opaqueType`.
        let iteration = if opaque_elems {
            None
        } else {
            self.iteration(&ty, matcher.clone())
        };
        let key_iteration = if opaque_keys {
            None
        } else {
            self.key_iteration(&ty)
        };
        Some(FieldPlan {
            go_field: go_name.clone(),
            // upstream names a root-level field without a JSON name (inline, `json:"-"`) after its leaf type.
            go_name: if json_name.is_empty() {
                leaf_type_name(&f.ty)
            } else {
                go_name.clone()
            },
            json_name,
            flatten: inline && !json.skip && matches!(shape, Shape::Struct { .. }),
            embedded_keys,
            skip: json.skip,
            omitempty: json.omitempty,
            ty: self.rust_ty(owner, &ty),
            go_ty: go_ty(self.db, self.prog, &owner.pkg, file, &f.ty),
            no_nils: matches!(
                shape,
                Shape::List {
                    pointer_elems: true
                }
            ) || (vgc_ir::profile::upstream(self.db).maps_of_pointers()
                && self.map_of_pointers(&ty)),
            shape,
            checks,
            notes,
            nested,
            iteration,
            key_iteration,
            default: if f.defaults.is_empty() {
                self.nested_default(&ty)
            } else {
                let subject = format!("field {}.{}", owner.name, f.member_name());
                self.default_json(owner, file, &f.defaults, &ty, &subject, true)
            },
        })
    }

    /// The JSON text of a single `+default=` value (`uses`: a field's or a type declaration's, written in `file`
    /// of package `owner.pkg`), as defaulter-gen reads it: a JSON literal, or `ref(Name)` /
    /// `ref(import/path.Name)` naming a string or integer constant. `None` for no default, several, one that is
    /// not JSON (or JSON `null`), or a reference vgc cannot resolve; defaulter-gen refuses those, and an
    /// `optional` field's is reported by [`Self::apply_default_rule`]. A value that does not fit type `ty`
    /// ([`Self::default_fits`]) is left out, with a `VGC0115` warning naming `subject` when `report`; an integral
    /// number for an integer type is written as an integer (`1e2` → `100`, as Go's constant conversion does).
    fn default_json(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        uses: &[vgc_ir::model::TagUse],
        ty: &Ty,
        subject: &str,
        report: bool,
    ) -> Option<String> {
        let [d] = uses else {
            return None;
        };
        let raw = d.raw_value.as_deref()?.trim();
        let value: serde_json::Value =
            if let Some(name) = raw.strip_prefix("ref(").and_then(|r| r.strip_suffix(')')) {
                let name = name.trim();
                let (target, name) = match name.rsplit_once('.') {
                    Some((path, n)) if path.contains('/') => (path.to_string(), n),
                    Some((q, n)) => (
                        vgc_analysis::program::import_for(vgc_ir::db::file_ir(self.db, file), q)?,
                        n,
                    ),
                    None => (owner.pkg.clone(), name),
                };
                let p = self.prog.packages.get(&target)?;
                p.files.iter().find_map(|pf| {
                    let ir = vgc_ir::db::file_ir(self.db, *pf);
                    let c = ir.consts.iter().find(|c| c.name == name)?;
                    match &c.value {
                        ConstValue::Int(i) => Some(serde_json::Value::from(*i)),
                        v => self
                            .const_str(&target, *pf, v, 0)
                            .map(serde_json::Value::String),
                    }
                })?
            } else {
                serde_json::from_str(raw).ok()?
            };
        if value.is_null() {
            return None;
        }
        match self.default_fits(ty, &value, 0) {
            Ok(v) => Some(v.to_string()),
            Err(_) if !report => None,
            Err(expected) => {
                let file = self.tag_file.unwrap_or(file);
                self.diags.push(
                    Diagnostic::warning(
                        Code::DefaultMismatch,
                        format!(
                            "{subject}: +default value {raw} is not {expected}; the API server's defaulting cannot assign it, so vgc validate does not apply it"
                        ),
                    )
                    .at_span(file.path(self.db).clone(), file, d.at, None)
                    .with_hint("write a JSON value of the Go type it defaults (the field's, or the declared type's), e.g. `+default=3` for an int32, `+default=\"x\"` for a string"),
                );
                None
            }
        }
    }

    /// The `+default` of type declaration `k` (its own comment, as defaulter-gen reads `t.CommentLines`), checked
    /// against the type itself; a value that does not fit is reported (`VGC0115`) only when `report` (once, by the
    /// type's own plan).
    fn type_default(&mut self, k: &TypeKey, report: bool) -> Option<String> {
        let (decl, file) = self.prog.type_decl(self.db, k)?;
        if decl.defaults.is_empty() {
            return None;
        }
        let subject = format!("type {}", k.name);
        self.default_json(
            k,
            file,
            &decl.defaults,
            &Ty::Named(k.clone()),
            &subject,
            report,
        )
    }

    /// defaulter-gen's default for a field with no `+default` of its own (`populateDefaultValue`): only when its
    /// type `ty` reaches its base type through at least one pointer (`resolveTypeAndDepth`), the first type
    /// declaration's `+default` on the way from `ty` through pointers and typedefs (`getNestedDefault`), if it
    /// fits `ty`.
    fn nested_default(&mut self, ty: &Ty) -> Option<String> {
        let mut pointers = 0;
        let mut found = None;
        let mut t = ty.clone();
        for _ in 0..32 {
            t = match t {
                Ty::Pointer(i) => {
                    pointers += 1;
                    *i
                }
                Ty::Named(k) => {
                    let (decl, _) = self.prog.type_decl(self.db, &k)?;
                    if found.is_none() && !decl.defaults.is_empty() {
                        found = Some(k.clone());
                    }
                    if matches!(decl.ty, TypeExpr::Struct(_)) {
                        break;
                    }
                    // gengo gives a typedef its underlying *literal* type (`type Shade Color` is a `string`), so
                    // the walk never reaches `Color`'s own `+default` through `Shade`.
                    match types::native(self.db, self.prog, &Ty::Named(k.clone())) {
                        Native::Other(t) if !matches!(t, Ty::Named(_)) => t,
                        _ => break,
                    }
                }
                _ => break,
            };
        }
        let k = found.filter(|_| pointers > 0)?;
        let (decl, file) = self.prog.type_decl(self.db, &k)?;
        let uses = decl.defaults.clone();
        self.default_json(&k, file, &uses, ty, "", false)
    }

    /// The JSON names struct `k` decodes with their field types, its inline-embedded structs' included (the
    /// outer name first), for checking a `+default` value against the struct.
    fn json_fields(&self, k: &TypeKey, depth: usize) -> Vec<(String, Ty)> {
        let mut out: Vec<(String, Ty)> = Vec::new();
        let Some((decl, file)) = self.prog.type_decl(self.db, k) else {
            return out;
        };
        let mut embedded = Vec::new();
        for f in &decl.fields {
            let json = f.json.clone().unwrap_or_default();
            if json.skip {
                continue;
            }
            let ty = types::resolve(self.db, self.prog, &k.pkg, file, &f.ty);
            if f.go_name.is_none() && json.name.is_empty() {
                let inner = match &ty {
                    Ty::Pointer(i) => i.as_ref().clone(),
                    other => other.clone(),
                };
                if let Native::Struct(e) = types::native(self.db, self.prog, &inner) {
                    embedded.push(e);
                    continue;
                }
            }
            let go = f.member_name();
            if !go.starts_with(|c: char| c.is_uppercase()) {
                continue;
            }
            out.push((if json.name.is_empty() { go } else { json.name }, ty));
        }
        if depth < 8 {
            for e in embedded {
                for (n, t) in self.json_fields(&e, depth + 1) {
                    if !out.iter().any(|(o, _)| *o == n) {
                        out.push((n, t));
                    }
                }
            }
        }
        out
    }

    /// Whether JSON `v` can be the value of Go type `ty`: the value as defaulting assigns it (an integral number for
    /// an integer type as an integer; a struct's keys as encoding/json matches them — exact, else ignoring case —
    /// with unknown keys dropped), or what was expected (`an integer (int32) at "w"`, `a string at [0]`, …). Lists,
    /// maps and structs are checked member by member; opaque and well-known types not at all.
    fn default_fits(
        &self,
        ty: &Ty,
        v: &serde_json::Value,
        depth: usize,
    ) -> Result<serde_json::Value, String> {
        use serde_json::Value as J;
        // `null` leaves any Go value as it is (encoding/json).
        if v.is_null() || depth > 32 {
            return Ok(v.clone());
        }
        let native = match ty {
            Ty::Named(_) => types::native(self.db, self.prog, ty),
            other => types::Native::Other(other.clone()),
        };
        let ty = match native {
            types::Native::Struct(k) => {
                let J::Object(m) = v else {
                    return Err("an object".into());
                };
                // encoding/json (the defaulting code's `json.Unmarshal`): a key names the field with that JSON
                // name, else one whose name equals it ignoring case; other keys are dropped.
                let fields = self.json_fields(&k, 0);
                let mut out = serde_json::Map::new();
                for (key, x) in m {
                    let f = fields
                        .iter()
                        .find(|(n, _)| n == key)
                        .or_else(|| fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(key)));
                    if let Some((name, fty)) = f {
                        let x = self
                            .default_fits(fty, x, depth + 1)
                            .map_err(|e| format!("{e} at {name:?}"))?;
                        out.insert(name.clone(), x);
                    }
                }
                return Ok(J::Object(out));
            }
            types::Native::Other(t) => t,
        };
        match &ty {
            Ty::Pointer(i) => self.default_fits(i, v, depth + 1),
            Ty::Slice(e) => match v {
                J::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, x)| {
                        self.default_fits(e, x, depth + 1)
                            .map_err(|m| format!("{m} at [{i}]"))
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(J::Array),
                _ => Err("a list".into()),
            },
            Ty::Map(_, e) => match v {
                J::Object(m) => m
                    .iter()
                    .map(|(k, x)| {
                        self.default_fits(e, x, depth + 1)
                            .map(|x| (k.clone(), x))
                            .map_err(|m| format!("{m} at [{k}]"))
                    })
                    .collect::<Result<serde_json::Map<_, _>, _>>()
                    .map(J::Object),
                _ => Err("an object".into()),
            },
            Ty::Builtin(Builtin::String) if v.is_string() => Ok(v.clone()),
            Ty::Builtin(Builtin::String) => Err("a string".into()),
            Ty::Builtin(Builtin::Bool) if v.is_boolean() => Ok(v.clone()),
            Ty::Builtin(Builtin::Bool) => Err("a boolean".into()),
            Ty::Builtin(Builtin::Float32 | Builtin::Float64) if v.is_number() => Ok(v.clone()),
            Ty::Builtin(Builtin::Float32 | Builtin::Float64) => Err("a number".into()),
            Ty::Builtin(b) => {
                let (lo, hi): (i128, i128) = match b {
                    Builtin::Int8 => (i8::MIN.into(), i8::MAX.into()),
                    Builtin::Int16 => (i16::MIN.into(), i16::MAX.into()),
                    Builtin::Int32 => (i32::MIN.into(), i32::MAX.into()),
                    Builtin::Uint8 => (0, u8::MAX.into()),
                    Builtin::Uint16 => (0, u16::MAX.into()),
                    Builtin::Uint32 => (0, u32::MAX.into()),
                    Builtin::Uint | Builtin::Uint64 => (0, u64::MAX.into()),
                    _ => (i64::MIN.into(), i64::MAX.into()),
                };
                let expected = || {
                    format!(
                        "an integer in [{lo}, {hi}] ({})",
                        format!("{b:?}").to_lowercase()
                    )
                };
                let n: Option<i128> = match v {
                    J::Number(n) => n
                        .as_i64()
                        .map(i128::from)
                        .or_else(|| n.as_u64().map(i128::from))
                        .or_else(|| {
                            n.as_f64()
                                .filter(|f| f.fract() == 0.0 && f.abs() < 1.8e19)
                                .map(|f| f as i128)
                        }),
                    _ => None,
                };
                match n {
                    Some(n) if (lo..=hi).contains(&n) => Ok(if n < 0 {
                        J::from(i64::try_from(n).map_err(|_| expected())?)
                    } else {
                        J::from(u64::try_from(n).map_err(|_| expected())?)
                    }),
                    _ => Err(expected()),
                }
            }
            _ => Ok(v.clone()),
        }
    }

    /// A map (after typedefs, behind a pointer or not) whose value type is written as a list (`map[string][]T`):
    /// upstream refuses validations on it.
    fn map_of_slices(&self, t: &Ty) -> bool {
        let t = match t {
            Ty::Pointer(i) => i.as_ref(),
            t => t,
        };
        matches!(
            types::native(self.db, self.prog, t),
            Native::Other(Ty::Map(_, ref e))
                if matches!(e.as_ref(), Ty::Slice(_) | Ty::WellKnown(vgc_analysis::types::WellKnown::Bytes))
        )
    }

    /// A map (after typedefs) whose values are pointers (`map[string]*T`; 1.38: `PtrMapNoNils`).
    fn map_of_pointers(&self, t: &Ty) -> bool {
        matches!(
            types::native(self.db, self.prog, t),
            Native::Other(Ty::Map(_, ref e)) if matches!(e.as_ref(), Ty::Pointer(_))
        )
    }

    /// upstream `verifySupportedType`, applied to a field's type and the unnamed types inside it (pointer targets,
    /// list elements, map keys and values): the shapes validation-gen refuses, as its message.
    /// upstream `verifySupportedType`'s `types.Array` case: a fixed-size array (`[3]string`) in type expression `e`
    /// (written in `file` of package `pkg`), through lists, maps and typedefs (`type Pair [2]int32`). vgc reads
    /// arrays as lists ([`Ty::Slice`]), so the type as written is searched. A pointer to an array is a pointer to a
    /// list, which [`Self::unsupported_shape`] reports first.
    fn fixed_array(&self, e: &TypeExpr, pkg: &str, file: SourceFile, depth: u8) -> bool {
        if depth > 8 {
            return false;
        }
        match e {
            TypeExpr::Array { .. } => true,
            TypeExpr::Pointer(i) | TypeExpr::Slice(i) => self.fixed_array(i, pkg, file, depth + 1),
            TypeExpr::Map(k, v) => {
                self.fixed_array(k, pkg, file, depth + 1)
                    || self.fixed_array(v, pkg, file, depth + 1)
            }
            // An anonymous struct's fields are discovered too.
            TypeExpr::Struct(fs) => fs
                .iter()
                .any(|f| self.fixed_array(&f.ty, pkg, file, depth + 1)),
            TypeExpr::Named { .. } => match types::resolve(self.db, self.prog, pkg, file, e) {
                Ty::Named(k) => self.prog.type_decl(self.db, &k).is_some_and(|(d, f)| {
                    !matches!(d.ty, TypeExpr::Struct(_))
                        && self.fixed_array(&d.ty, &k.pkg, f, depth + 1)
                }),
                _ => false,
            },
            _ => false,
        }
    }

    fn unsupported_shape(&self, t: &Ty, depth: u8) -> Option<&'static str> {
        let native = |t: &Ty| match types::native(self.db, self.prog, t) {
            Native::Struct(k) => Ty::Named(k),
            Native::Other(x) => x,
        };
        if depth > 8 {
            return None;
        }
        match t {
            Ty::Pointer(inner) => match native(inner) {
                Ty::Pointer(_) => Some("pointers to pointers are not supported"),
                Ty::Slice(_) | Ty::WellKnown(vgc_analysis::types::WellKnown::Bytes) => {
                    Some("pointers to lists are not supported")
                }
                Ty::Map(..) => Some("pointers to maps are not supported"),
                _ => self.unsupported_shape(inner, depth + 1),
            },
            Ty::Slice(elem) => match native(elem) {
                Ty::Slice(_) => Some("lists of lists are not supported"),
                Ty::Map(..) => Some("lists of maps are not supported"),
                _ => self.unsupported_shape(elem, depth + 1),
            },
            Ty::Map(key, elem) => {
                if !matches!(native(key), Ty::Builtin(Builtin::String)) {
                    return Some("maps with non-string keys are not supported");
                }
                match native(elem) {
                    // upstream 1.38 (kubernetes#141383): supported.
                    Ty::Pointer(_) if vgc_ir::profile::upstream(self.db).maps_of_pointers() => {
                        self.unsupported_shape(elem, depth + 1)
                    }
                    Ty::Pointer(_) => Some("maps of pointers are not supported"),
                    Ty::Map(..) => Some("maps of maps are not supported"),
                    _ => self.unsupported_shape(elem, depth + 1),
                }
            }
            _ => None,
        }
    }

    /// upstream: `+k8s:optional` (also as an `ifEnabled`/`ifDisabled` payload) with a `+default` equal to the zero
    /// value of a non-nilable field emits nothing.
    /// upstream `required.go` (`optional` with `+default`): a non-nilable field whose default equals its type's zero
    /// value gets no check (documentation only); any other field with a default is effectively required.
    /// `+default` is read with the legacy extractor and JSON-decoded; bad defaults are generation errors.
    fn apply_default_rule(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        f: &FieldIr,
        shape: &Shape,
        checks: &mut Vec<Check>,
    ) -> Vec<String> {
        if f.defaults.is_empty() || !checks.iter().any(is_optional_tag) {
            return Vec::new();
        }
        let name = f.go_name.clone().unwrap_or_default();
        let at = f.defaults[0].at;
        let fail = |l: &mut Self, msg: String| {
            l.err(file, at, Code::InvalidPayload, format!("field {}.{name}: {msg}", owner.name), Some("`+default=<json>` takes one JSON value, e.g. `+default=0` or `+default=\"name\"`".into()));
            Vec::new()
        };
        if f.defaults.len() > 1 {
            let vals: Vec<String> = f
                .defaults
                .iter()
                .map(|d| d.raw_value.clone().unwrap_or_default())
                .collect();
            return fail(self, format!("+default tag with multiple values: {vals:?}"));
        }
        let Some(raw) = f.defaults[0]
            .raw_value
            .clone()
            .filter(|v| !v.trim().is_empty())
        else {
            return fail(self, "+default tag with no value".into());
        };
        let value: serde_json::Value = match serde_json::from_str(raw.trim()) {
            Ok(v) => v,
            Err(e) => return fail(self, format!("failed to parse default value {raw:?}: {e}")),
        };
        if value.is_null() {
            return fail(
                self,
                format!("failed to parse default value {raw:?}: unmarshalled to nil"),
            );
        }
        let zero = match shape {
            Shape::Scalar {
                ty: Builtin::String,
                pointer: false,
            } => Some(value == serde_json::json!("")),
            Shape::Scalar {
                ty: Builtin::Bool,
                pointer: false,
            } => Some(value == serde_json::json!(false)),
            Shape::Scalar { pointer: false, .. } => {
                Some(value.as_f64() == Some(0.0) && value.is_number())
            }
            Shape::Struct { pointer: false } | Shape::Other { pointer: false } => None,
            // Nilable fields with a default are always effectively required.
            _ => Some(false),
        };
        let nilable = !matches!(
            shape,
            Shape::Scalar { pointer: false, .. }
                | Shape::Struct { pointer: false }
                | Shape::Other { pointer: false }
        );
        match zero {
            None => fail(self, "unknown zero-value for the field's type".into()),
            Some(true) if !nilable => {
                // Before 1.37 a level wrapper keeps only its payload's functions and variables (code-generator
                // v0.36.6 `levels.go`): `+k8s:alpha=+k8s:optional`'s note is dropped.
                let leveled = checks
                    .iter()
                    .filter(|c| is_optional_tag(c))
                    .all(|c| c.stability.is_some());
                checks.retain(|c| !is_optional_tag(c));
                if leveled && vgc_ir::profile::upstream(self.db).validators_in_phases() {
                    return Vec::new();
                }
                // upstream `required.go`
                vec![
                    "optional value-type fields with zero-value defaults are purely documentation"
                        .into(),
                ]
            }
            Some(_) => {
                for c in checks.iter_mut().filter(|c| is_optional_tag(c)) {
                    optional_to_required(c);
                }
                Vec::new()
            }
        }
    }

    /// Lowers tags at field or type scope into checks in upstream's order (see [`Self::checks_keyed`]), cohort-sorted,
    /// with type-dependent errors.
    fn checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        tags: &[TagUse],
        shape: &Shape,
        ty: Option<&Ty>,
        pkg: &str,
    ) -> Vec<Check> {
        let mut out = emission_order(self.checks_keyed(owner, file, tags, shape, ty, pkg));
        sort_cohort(&mut out);
        out
    }

    /// The key of a check added outside [`Lowerer::checks_keyed`] (item and uniqueness checks): deferred from 1.37
    /// ([`EmissionKey::deferred`]), in its phase before ([`EmissionKey::in_phases`]).
    fn deferred_key(&self, c: &Check, tag: TagId) -> EmissionKey {
        let key = EmissionKey::deferred(c, tag);
        if vgc_ir::profile::upstream(self.db).validators_in_phases() {
            return EmissionKey::in_phases(c, key.tag);
        }
        key
    }

    /// Lowers tags into checks keyed for upstream's emission order: tags are processed sorted by (outer) tag name;
    /// validators that return their functions directly come first, those upstream defers to the end of the
    /// declaration (`eachVal`, `update`, `subfield`, and — added by the caller — `item` and the `listType`/`unique`
    /// uniqueness check) after them, again by tag name. Each entry: (deferred, outer tag name, check).
    fn checks_keyed(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        tags: &[TagUse],
        shape: &Shape,
        ty: Option<&Ty>,
        _pkg: &str,
    ) -> Vec<(EmissionKey, Check)> {
        let mut sorted: Vec<(TagId, &TagUse)> =
            tags.iter().filter_map(|u| Some((u.tag_id()?, u))).collect();
        sorted.sort_by_key(|(id, _)| *id);
        let mut out: Vec<(EmissionKey, Check)> = Vec::new();
        for (outer, u) in sorted {
            let Ok(tag) = &u.parsed else { continue };
            // A field-path constraint (vgc extension) is counted where it is lowered or refused, with the struct's
            // checks (`field_constraints`), the form per element (`eachVal=+k8s:maximum(constraint: …)`) too.
            if vgc_ir::extension_tags::constraint_tag(tag).is_some()
                || vgc_ir::extension_tags::each_val_constraint(tag).is_some()
            {
                continue;
            }
            if self.counting {
                self.stats.tags += 1;
            }
            // A tag the profile's release does not have (in the chain) is `check_file`'s VGC0102 error, and a vgc
            // extension tag of its own (subresource condition, virtual field) while extensions are off its VGC0116:
            // not lowered, so no other diagnostic is made of it, counted as reported.
            let profile = vgc_ir::profile::upstream(self.db);
            if tag
                .chain()
                .any(|c| c.tag_id().is_some_and(|id| !profile.has_tag(id)))
                || (!vgc_ir::extension_tags::enabled(self.db)
                    && vgc_ir::extension_tags::extension_in_chain(tag).is_some())
            {
                if self.counting {
                    self.stats.reported += 1;
                }
                continue;
            }
            let (n_diags, n_not_lowered) = (self.diags.len(), self.stats.not_lowered);
            let res = if peel(tag).2.is_tag(TagId::Item) {
                // Lowered by `item_checks` (a list field's or list typedef's own tags).
                Some(Vec::new())
            } else {
                self.lower_tag(owner, file, u, unwrap_levels(tag), shape, ty, level_of(tag))
            };
            if self.counting && self.stats.not_lowered == n_not_lowered {
                self.account(file, u, tag, &res, n_diags);
            }
            let Some(cs) = res else {
                continue;
            };
            for c in cs {
                // upstream merges every `update` tag of a declaration into one call.
                if let CheckKind::Update(new, _) = &c.kind
                    && let Some(existing) = out.iter_mut().find_map(|(_, e)| match &mut e.kind {
                        CheckKind::Update(v, _) => Some(v),
                        _ => None,
                    })
                {
                    existing.extend(new.iter().cloned());
                    continue;
                }
                let profile = vgc_ir::profile::upstream(self.db);
                let key = if profile.validators_in_phases() {
                    EmissionKey::in_phases(&c, outer)
                } else {
                    EmissionKey {
                        round: deferral_round(&c, profile.nested_subfield()),
                        tag: outer,
                    }
                };
                out.push((key, c));
            }
        }
        for (_, c) in &mut out {
            if let CheckKind::Update(v, _) = &mut c.kind {
                v.sort_unstable();
                v.dedup();
            }
        }
        // Several subfield tags on one member share that member's inherited checks (emitted once).
        let mut seen_inherited: Vec<Check> = Vec::new();
        out.retain(|(_, c)| match &c.kind {
            CheckKind::Subfield(sub) if sub.inherited => {
                if seen_inherited.contains(c) {
                    false
                } else {
                    seen_inherited.push(c.clone());
                    true
                }
            }
            _ => true,
        });
        if self.counting {
            self.stats.checks += out.len();
        }
        out
    }

    /// Tag accounting: puts one tag use of a declaration in exactly one bucket of [`Stats`] — `lowered` (its own
    /// lowering produced checks), `consumed` (a named consumer reads it, see [`consumer`]), or `reported` (its
    /// lowering reported an error, the catalog checks report it as malformed, or it produced nothing and nothing
    /// reads it, which is then reported here as a `VGC0201` warning). Uses reported as not lowered yet are counted by [`Self::lower_tag`]. So
    /// `tags == lowered + consumed + reported + not_lowered` and no use is dropped silently.
    fn account(
        &mut self,
        file: SourceFile,
        u: &TagUse,
        tag: &Tag,
        res: &Option<Vec<Check>>,
        n_diags: usize,
    ) {
        let errored = self.diags[n_diags..]
            .iter()
            .any(|d| d.severity == vgc_ir::Severity::Error);
        // The catalog checks (`vgc_ir::check`, run per file) report malformed uses whatever their scope.
        let malformed = || {
            [vgc_ir::catalog::Scope::Field, vgc_ir::catalog::Scope::Type]
                .iter()
                .all(|sc| !vgc_ir::check::check_tag_use(u, *sc).is_empty())
        };
        let documented = std::mem::take(&mut self.documented);
        match res {
            _ if errored => self.stats.reported += 1,
            Some(cs) if !cs.is_empty() => self.stats.lowered += 1,
            _ if documented || consumer(tag).is_some() => self.stats.consumed += 1,
            None if malformed() => self.stats.reported += 1,
            _ => {
                self.stats.reported += 1;
                let file = self.tag_file.unwrap_or(file);
                self.diags.push(
                    Diagnostic::warning(
                        Code::NotLowered,
                        format!(
                            "tag {:?} has no effect here: it produced no check and nothing reads it",
                            u.name
                        ),
                    )
                    .at_span(file.path(self.db).clone(), file, u.at, Some(u.name.len()))
                    .with_hint("upstream validation-gen generates nothing for it either, or vgc does not lower this combination yet; remove it or report it"),
                );
            }
        }
    }

    /// The declaration carrying tag use `u` of `owner`: its span (the field's, or the type's for a type-level use)
    /// and its tags.
    fn decl_tags_of(&self, owner: &TypeKey, u: &TagUse) -> (vgc_ir::model::SpanId, Vec<TagUse>) {
        let Some((decl, _)) = self.prog.type_decl(self.db, owner) else {
            return (u.at, Vec::new());
        };
        match decl
            .fields
            .iter()
            .find(|f| f.tags.iter().any(|t| t.at == u.at))
        {
            Some(f) => (f.at, f.tags.clone()),
            None => (decl.at, decl.tags.clone()),
        }
    }

    /// upstream enum discovery: constants of exactly this type in any loaded package, minus `enumExclude`,
    /// de-duplicated by value (longer comment wins, then the smaller comment), values sorted.
    #[allow(clippy::type_complexity)]
    /// The string value of a constant expression written in `file` of package `pkg`: a literal, or a reference to
    /// another constant (same package or an imported one, e.g. `AddressType(v1.IPv4Protocol)`), followed up to 8
    /// levels. `None` for anything else or a constant in a package that is not loaded.
    fn const_str(&self, pkg: &str, file: SourceFile, v: &ConstValue, depth: u8) -> Option<String> {
        match v {
            ConstValue::Str(s) => Some(s.clone()),
            ConstValue::Ref(q, name) if depth < 8 => {
                let target = match q {
                    None => pkg.to_string(),
                    Some(q) => {
                        vgc_analysis::program::import_for(vgc_ir::db::file_ir(self.db, file), q)?
                    }
                };
                let p = self.prog.packages.get(&target)?;
                p.files.iter().find_map(|f| {
                    let ir = vgc_ir::db::file_ir(self.db, *f);
                    let c = ir.consts.iter().find(|c| c.name == *name)?;
                    self.const_str(&target, *f, &c.value, depth + 1)
                })
            }
            _ => None,
        }
    }

    /// Whether the profile in force reports an option the request does not define as an internal error
    /// ([`vgc_ir::Upstream::undefined_option_is_error`]).
    fn undefined_option_is_error(&self) -> bool {
        vgc_ir::profile::upstream(self.db).undefined_option_is_error()
    }

    fn enum_values(&mut self, k: &TypeKey) -> EnumValues {
        // value → (comment, constant's package, constant's name)
        let mut by_value: IndexMap<String, (String, String, String)> = IndexMap::new();
        // (Go constant name, value, exclude when the option is on?, option)
        let mut exclusions: Vec<(String, String, bool, String)> = Vec::new();
        let typed = const_index(self.db).get(k).cloned().unwrap_or_default();
        for (pkg_path, f, ci) in &typed {
            let (pkg_path, f) = (pkg_path.as_str(), *f);
            let ir = vgc_ir::db::file_ir(self.db, f);
            let c = &ir.consts[*ci];
            if c.tags.iter().any(|u| u.is_tag(TagId::EnumExclude)) {
                continue;
            }
            let Some(v) = self.const_str(pkg_path, f, &c.value, 0) else {
                continue;
            };
            let v = &v;
            // `ifEnabled(X)=+k8s:enumExclude` / `ifDisabled(X)=…`: excluded while X is on / off.
            for u in c
                .tags
                .iter()
                .filter(|u| matches!(u.tag_id(), Some(TagId::IfEnabled | TagId::IfDisabled)))
            {
                let Ok(tag) = &u.parsed else { continue };
                let (Some(inner), Some(option)) = (tag.inner(), tag.str_positional()) else {
                    continue;
                };
                if !unwrap_levels(inner).is_tag(TagId::EnumExclude) {
                    continue;
                }
                if self.counting {
                    self.stats.tags += 1;
                    self.stats.lowered += 1;
                }
                exclusions.push((
                    c.name.clone(),
                    v.clone(),
                    tag.is_tag(TagId::IfEnabled),
                    option.to_string(),
                ));
            }
            let keep = match by_value.get(v) {
                None => true,
                Some((old, ..)) => {
                    c.comment.len() > old.len()
                        || (c.comment.len() == old.len() && c.comment < *old)
                }
            };
            if keep {
                by_value.insert(
                    v.clone(),
                    (c.comment.clone(), pkg_path.to_string(), c.name.clone()),
                );
            }
        }
        let mut constants: Vec<(String, String, String)> = by_value
            .iter()
            .map(|(v, (_, p, n))| (p.clone(), n.clone(), v.clone()))
            .collect();
        constants.sort_by(|a, b| a.1.cmp(&b.1));
        let mut vals: Vec<String> = by_value.into_keys().collect();
        vals.sort();
        exclusions.sort();
        (
            vals,
            exclusions
                .into_iter()
                .map(|(_, value, on, option)| EnumExclusion {
                    value,
                    when: if on {
                        OptionState::Enabled
                    } else {
                        OptionState::Disabled
                    },
                    option,
                })
                .collect(),
            constants,
        )
    }
}

/// What [`Lowerer::enum_values`] finds: the values, the exclusions, and the constants (package, name, value).
type EnumValues = (
    Vec<String>,
    Vec<EnumExclusion>,
    Vec<(String, String, String)>,
);

/// The Go name of the struct field of `owner` that carries tag use `u`, or `None` for a type-level use.
fn field_of(prog: &Program, db: &dyn Db, owner: &TypeKey, u: &TagUse) -> Option<String> {
    let (decl, _) = prog.type_decl(db, owner)?;
    decl.fields
        .iter()
        .find(|f| f.tags.iter().any(|t| t.at == u.at))
        .and_then(|f| f.go_name.clone())
}

/// A member's Rust type split for wrapper plans: the value type without `Option`, `Some(boxing)` when the member
/// is a Go pointer, and the element type of a list or map value.
fn split_member(ty: RustTy) -> (RustTy, Option<Boxing>, Option<RustTy>) {
    let (value, pointer) = match ty {
        RustTy::Option(i, boxing) => (*i, Some(boxing)),
        t => (t, None),
    };
    let elem = match &value {
        RustTy::Vec(e) | RustTy::Map(e) => Some((**e).clone()),
        _ => None,
    };
    (value, pointer, elem)
}

fn elem_of(db: &dyn Db, prog: &Program, t: &Ty, key: bool) -> Option<Ty> {
    let t = match t {
        Ty::Pointer(i) => i.as_ref().clone(),
        t => t.clone(),
    };
    let n = match types::native(db, prog, &t) {
        Native::Other(x) => x,
        Native::Struct(_) => return None,
    };
    match n {
        Ty::Slice(e) if !key => Some(match *e {
            Ty::Pointer(i) => *i,
            e => e,
        }),
        Ty::Map(k, v) => Some(if key { *k } else { *v }),
        _ => None,
    }
}

/// The named consumer of a tag use that produces no check of its own (each use is counted `consumed` in
/// [`crate::plan::Stats`]): the catalog's reader of the tag ([`Reader`], [`vgc_ir::catalog::Role::Read`]), or
/// upstream's silence on a `minLength` of 0 or less.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Consumer {
    /// The catalog's reader: list metadata ([`Lowerer::matcher_for`], [`Lowerer::unique_check`]), struct-level
    /// functions ([`Lowerer::struct_level_checks`]), a declaration's `item` tags ([`Lowerer::item_checks`]),
    /// opacity ([`vgc_analysis::types::opacity`]), enum values ([`Lowerer::enum_values`]) or the virtual groups
    /// ([`virtual_groups`]).
    Reader(Reader),
    /// A `minLength` of 0 or less, for which upstream emits no function.
    MinLengthNoFunction,
}

/// The named consumer of a tag use that produces no check of its own, by the innermost tag of its wrapper chain
/// (`alpha`/`beta`, `ifEnabled`/`ifDisabled`, `subfield`, `eachVal`, `eachKey`), read from the catalog's
/// [`Role`]s. `None`: nothing reads it (the tag makes checks itself, or its use is reported).
fn consumer(t: &Tag) -> Option<Consumer> {
    let mut cur = t;
    // Struct-level tags and `item` are read only on a declaration or through `subfield`, not inside `eachVal`.
    let mut in_each = false;
    loop {
        let id = cur.tag_id()?;
        match id.spec().role {
            Role::Wrapper(Wrap::Level | Wrap::Option | Wrap::Subfield) => cur = cur.inner()?,
            Role::Wrapper(Wrap::Each) => {
                in_each = true;
                cur = cur.inner()?;
            }
            // vgc extension: the condition makes its payload's checks, or the dispatcher refuses it (VGC0124
            // for a payload that makes no check).
            Role::Wrapper(Wrap::Subresource) => return None,
            // vgc extension: read by the virtual-group analysis when written directly (with extensions enabled;
            // else the dispatcher reports VGC0116); inside another tag the dispatcher refuses them (VGC0126).
            Role::Read(Reader::VirtualGroups) => {
                return std::ptr::eq(cur, t).then_some(Consumer::Reader(Reader::VirtualGroups));
            }
            Role::Read(Reader::StructLevel | Reader::ItemChecks) if in_each => return None,
            // `enumExclude` is read on constants by `enum_values`; the catalog's scopes keep it from anywhere else.
            Role::Read(reader) => return Some(Consumer::Reader(reader)),
            // vgc extension: `minimum(constraint: …)`/`maximum(constraint: …)` are read by
            // `Lowerer::field_constraints` (struct-level); inside `eachVal`/`eachKey` the catalog checks refuse them
            // (`eachVal=+k8s:maximum(constraint: …)` directly on a field is counted by `field_constraints` and never
            // reaches this function).
            Role::Checks
                if !in_each
                    && matches!(id, TagId::Minimum | TagId::Maximum)
                    && vgc_ir::extension_tags::constraint_tag(cur).is_some() =>
            {
                return Some(Consumer::Reader(Reader::StructLevel));
            }
            Role::Checks if id == TagId::MinLength && cur.int_payload().is_some_and(|v| v <= 0) => {
                return Some(Consumer::MinLengthNoFunction);
            }
            Role::Checks => return None,
        }
    }
}

/// Tags whose functions upstream defers to the enclosing struct (`ParentContext`): unions, modes and dependent
/// fields ([`Reader::StructLevel`] in the catalog), lowered by [`Lowerer::struct_level_checks`].
fn is_struct_level(t: &Tag) -> bool {
    t.tag_id()
        .is_some_and(|id| id.spec().role == Role::Read(Reader::StructLevel))
}

/// The stability level set by an outer `k8s:alpha`/`k8s:beta` on a chain.
fn level_of(t: &Tag) -> Option<Stability> {
    match t.tag_id()? {
        TagId::Alpha => Some(Stability::Alpha),
        TagId::Beta => Some(Stability::Beta),
        _ => None,
    }
}

/// An `ifEnabled(X)=` / `ifDisabled(X)=` wrapper around a tag: upstream `IfOption`, which `WrapFunctions` applies
/// to every function the wrapped tag produces, deferred ones included (a union's struct-level function, a list's
/// uniqueness check, an item's functions).
#[derive(Debug, Clone, PartialEq, Eq)]
struct OptionGate {
    option: String,
    enabled: bool,
}

/// Strips the `alpha`/`beta` and `ifEnabled`/`ifDisabled` wrappers of a tag chain: the option gates (outermost
/// first), the stability level (the innermost `alpha`/`beta` wins, as for [`Lowerer::lower_tag`]'s nesting) and the
/// wrapped tag. Metadata tags (`listType`, `listMapKey`, union members, modes, `item`) are read through this, so a
/// gated one still declares its metadata — upstream registers it whatever the option — and only the functions
/// it produces are gated.
fn peel(t: &Tag) -> (Vec<OptionGate>, Option<Stability>, &Tag) {
    let mut gates = Vec::new();
    let mut level = None;
    let mut cur = t;
    loop {
        match cur.tag_id() {
            Some(TagId::Alpha | TagId::Beta) => {
                level = level_of(cur);
            }
            Some(id @ (TagId::IfEnabled | TagId::IfDisabled)) => {
                let Some(option) = cur.str_positional() else {
                    return (gates, level, cur);
                };
                gates.push(OptionGate {
                    option: option.to_string(),
                    enabled: id == TagId::IfEnabled,
                });
            }
            _ => return (gates, level, cur),
        }
        match cur.inner() {
            Some(i) => cur = i,
            None => return (gates, level, cur),
        }
    }
}

/// A check made by `+k8s:optional` itself, bare or as the payload of `ifEnabled`/`ifDisabled` wrappers (upstream
/// runs `doOptional`, `+default` rule included, on the payload tag whatever wraps it).
fn is_optional_tag(c: &Check) -> bool {
    match &c.kind {
        CheckKind::Optional => c.tag == Some(TagId::Optional),
        CheckKind::IfOption(io) => is_optional_tag(&io.inner),
        _ => false,
    }
}

/// Turns an [`is_optional_tag`] check into upstream's "optional fields with default values are effectively
/// required" `Required…` function; a wrapper carries its payload's flags, so it loses `NonError` too.
fn optional_to_required(c: &mut Check) {
    c.non_error = false;
    match &mut c.kind {
        CheckKind::IfOption(io) => optional_to_required(&mut io.inner),
        kind => *kind = CheckKind::Required { detail: None },
    }
}

/// Wraps `c` in upstream `IfOption` for each gate (the outermost gate outermost); each wrapper carries the wrapped
/// check's flags and stability, as upstream's `Function(itv.TagName(), fn.Flags, …)` — a new function, in the
/// default cohort whatever the wrapped one's (an `item` function's selector cohort is not kept).
fn gate(undefined_is_error: bool, c: Check, gates: &[OptionGate]) -> Check {
    gates.iter().rev().fold(c, |c, g| Check {
        short_circuit: c.short_circuit,
        non_error: c.non_error,
        stability: c.stability,
        tag: Some(if g.enabled {
            TagId::IfEnabled
        } else {
            TagId::IfDisabled
        }),
        cohort: None,
        kind: CheckKind::IfOption(Box::new(IfOptionPlan {
            option: g.option.clone(),
            enabled: g.enabled,
            undefined_is_error,
            inner: c,
        })),
    })
}

/// The field type as upstream's `getLeafTypeAndPrefixes` + raw namer print it: pointers stripped, other-package
/// types qualified as written (`metav1.ObjectMeta`), builtins by name (`string`).
/// A type expression written in `file` of package `pkg` as a [`GoTy`]: unqualified names are builtins or types
/// of `pkg`, qualifiers resolve through the file's imports, and a Go alias (`type A = B`) is replaced by what it
/// names, as go/types (and so gengo) sees it.
fn go_ty(db: &dyn Db, prog: &Program, pkg: &str, file: SourceFile, t: &TypeExpr) -> GoTy {
    fn named(db: &dyn Db, prog: &Program, pkg: String, name: &str, depth: usize) -> GoTy {
        let key = TypeKey {
            pkg: pkg.clone(),
            name: name.to_string(),
        };
        if depth < 32
            && let Some((decl, file)) = prog.type_decl(db, &key)
            && decl.is_alias
        {
            return go_ty_at(db, prog, &pkg, file, &decl.ty, depth + 1);
        }
        GoTy::Named {
            pkg,
            name: name.to_string(),
        }
    }
    fn go_ty_at(
        db: &dyn Db,
        prog: &Program,
        pkg: &str,
        file: SourceFile,
        t: &TypeExpr,
        depth: usize,
    ) -> GoTy {
        let go = |t: &TypeExpr| Box::new(go_ty_at(db, prog, pkg, file, t, depth));
        match t {
            TypeExpr::Named {
                pkg: None, name, ..
            } if GoTy::PREDECLARED.contains(&name.as_str()) => GoTy::Builtin(name.clone()),
            TypeExpr::Named {
                pkg: None, name, ..
            } => named(db, prog, pkg.to_string(), name, depth),
            TypeExpr::Named {
                pkg: Some(q), name, ..
            } => match vgc_analysis::program::import_for(vgc_ir::db::file_ir(db, file), q) {
                Some(path) => named(db, prog, path, name, depth),
                None => GoTy::Other(format!("{q}.{name}")),
            },
            TypeExpr::Pointer(i) => GoTy::Pointer(go(i)),
            TypeExpr::Slice(e) => GoTy::Slice(go(e)),
            TypeExpr::Array { len, elem } => GoTy::Array(len.clone(), go(elem)),
            TypeExpr::Map(k, v) => GoTy::Map(go(k), go(v)),
            TypeExpr::Struct(_) | TypeExpr::Other(_) => GoTy::Other(leaf_type_name(t)),
        }
    }
    go_ty_at(db, prog, pkg, file, t, 0)
}

fn leaf_type_name(t: &TypeExpr) -> String {
    fn raw(t: &TypeExpr) -> String {
        match t {
            TypeExpr::Named {
                pkg: Some(q), name, ..
            } => format!("{q}.{name}"),
            TypeExpr::Named {
                pkg: None, name, ..
            } => name.clone(),
            TypeExpr::Pointer(i) => format!("*{}", raw(i)),
            TypeExpr::Slice(e) => format!("[]{}", raw(e)),
            TypeExpr::Array { len, elem } => format!("[{len}]{}", raw(elem)),
            TypeExpr::Map(k, v) => format!("map[{}]{}", raw(k), raw(v)),
            TypeExpr::Struct(_) => "struct{...}".into(),
            TypeExpr::Other(x) => x.clone(),
        }
    }
    match t {
        TypeExpr::Pointer(i) => leaf_type_name(i),
        t => raw(t),
    }
}

/// upstream `listMetadata.check()` on one declaration's list tags: `listMapKey` needs map semantics (from
/// `listType=map` or `unique=map`), and `unique`/`listMapKey` need a `listType` (ownership). Returns (message, hint).
fn list_tag_error(tags: &[TagUse]) -> Option<(&'static str, &'static str)> {
    let (mut list_type, mut unique, mut keys) = (None, None, false);
    for u in tags {
        let Ok(t) = &u.parsed else { continue };
        let t = peel(t).2;
        match (t.tag_id(), t.str_payload()) {
            (Some(TagId::ListType), Some(v)) => list_type = Some(v),
            (Some(TagId::Unique), Some(v)) => unique = Some(v),
            (Some(TagId::ListMapKey), _) => keys = true,
            _ => {}
        }
    }
    if list_type.is_none() && unique.is_none() && !keys {
        return None;
    }
    let map = list_type == Some("map") || unique == Some("map");
    if keys && !map {
        return Some((
            "found listMapKey without listType=map or unique=map",
            "add `+k8s:listType=map`, or remove `+k8s:listMapKey`",
        ));
    }
    if list_type.is_none() {
        return Some((
            "listType must be specified - use listType=atomic, listType=set, or listType=map",
            "`+k8s:unique` goes with `+k8s:listType=atomic`",
        ));
    }
    None
}

/// Where a check sorts in upstream's emission order: functions a validator returns directly before the deferred
/// ones (`Deferred`, ThisContext), each group by the (outer) tag's name — [`TagId`]'s order is its name's order
/// (test `tag_ids_are_in_name_order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct EmissionKey {
    /// The round of upstream's deferred resolution that emits it ([`deferral_round`]): 0 for a function its
    /// validator returns directly.
    round: u8,
    /// The outer tag of the use that made the check.
    tag: TagId,
}

impl EmissionKey {
    /// The key of a deferred check added outside [`Lowerer::checks_keyed`] (item and uniqueness checks): its option
    /// wrapper's tag or stability wrapper's tag when it has one, else `tag`.
    fn deferred(c: &Check, tag: TagId) -> Self {
        let tag = match (&c.kind, c.stability) {
            (CheckKind::IfOption(_) | CheckKind::IfSubresource(_), _) => c.tag.unwrap_or(tag),
            (_, Some(Stability::Alpha)) => TagId::Alpha,
            (_, Some(Stability::Beta)) => TagId::Beta,
            _ => tag,
        };
        Self {
            round: deferral_round(c, false).max(1),
            tag,
        }
    }
}

impl EmissionKey {
    /// The key before 1.37 ([`vgc_ir::Upstream::validators_in_phases`]; code-generator v0.36.6
    /// `validators/registry.go` `ExtractValidations`, `sortTagsIntoPhases`): the regular tags' functions by tag name
    /// (round 0), then the late tags' — `eachVal`, `item`, `alpha`, `beta` (`LateTagValidator`) — by tag name
    /// (round 1), then what the field and type validators make, in their registration order (Go's init order, by
    /// file name): `discriminator.go`'s modes, `list.go`'s uniqueness, `union.go`'s unions, `update.go`'s
    /// constraints, `zeroorone.go`'s zero-or-one-of unions (rounds 2 to 6).
    fn in_phases(c: &Check, outer: TagId) -> Self {
        let validator: Option<u8> = match &c.kind {
            CheckKind::Discriminated(_) => Some(0),
            CheckKind::Unique(_) => Some(1),
            CheckKind::Union(u) if u.kind == UnionKind::Union => Some(2),
            CheckKind::ListUnion(u) if u.kind == UnionKind::Union => Some(2),
            CheckKind::Update(..) => Some(3),
            CheckKind::Union(_) | CheckKind::ListUnion(_) => Some(4),
            _ => None,
        };
        let round = match validator {
            Some(i) => 2 + i,
            None => u8::from(matches!(
                outer,
                TagId::EachVal | TagId::Item | TagId::Alpha | TagId::Beta
            )),
        };
        Self { round, tag: outer }
    }
}

/// Keyed checks in upstream's emission order (stable within one key).
fn emission_order(mut keyed: Vec<(EmissionKey, Check)>) -> Vec<Check> {
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, c)| c).collect()
}

/// The round of upstream's deferred resolution that emits `c` on its declaration: 0 for a function its validator
/// returns directly, 1 for one returned as `Deferred` (ThisContext), more when a deferred callback returns further
/// deferred validations (upstream's field loop resolves them round by round, `generators/validation.go`). Emitted
/// by round, each round by tag name. `subfield_direct` (the 1.38 profile, [`vgc_ir::Upstream::nested_subfield`]):
/// `subfield` returns its payload's functions directly and keeps its deferred ones deferred (code-generator
/// v0.38.0-beta.0 `subfield.go` `WrapFunctions`), so a chain is emitted in its payload's round; before, `subfield`
/// was itself deferred. `eachVal` and `item` defer their payload once, resolving the payload's own deferred
/// validations in the same callback (`each.go`, `item.go`).
fn deferral_round(c: &Check, subfield_direct: bool) -> u8 {
    match &c.kind {
        // upstream `WrapFunctions` keeps a deferred function deferred.
        CheckKind::IfOption(io) => deferral_round(&io.inner, subfield_direct),
        CheckKind::IfSubresource(is) => deferral_round(&is.inner, subfield_direct),
        CheckKind::Subfield(sub) if subfield_direct => deferral_round(&sub.inner, true),
        CheckKind::Item(it) => deferral_round(&it.inner, subfield_direct).max(1),
        CheckKind::EachVal(..)
        | CheckKind::Update(..)
        | CheckKind::Subfield(_)
        | CheckKind::ListUnion(_)
        | CheckKind::Unique(_)
        | CheckKind::Union(_)
        | CheckKind::Dependent(_)
        | CheckKind::FieldConstraint(_)
        | CheckKind::VirtualUnion(_)
        | CheckKind::Discriminated(_) => 1,
        CheckKind::Required { .. }
        | CheckKind::Optional
        | CheckKind::Forbidden { .. }
        | crate::limit_check_kinds!()
        | CheckKind::Format(_)
        | CheckKind::Matches(_)
        | CheckKind::Enum(_)
        | CheckKind::Immutable
        | CheckKind::Monotonic
        | CheckKind::NoNils
        | CheckKind::FixedResult { .. }
        | CheckKind::Custom { .. }
        | CheckKind::Neq(_)
        | CheckKind::Eq(_)
        | CheckKind::EachKey(_) => 0,
    }
}

/// upstream `sortIntoCohorts`: the default cohort first, then each named cohort in order of first definition, and
/// within each cohort short-circuit checks first, relative order kept (codegen and the interpreter emit the
/// cohorts in the order their first checks appear).
fn sort_cohort(checks: &mut [Check]) {
    let mut order: Vec<Option<String>> = vec![None];
    for c in checks.iter() {
        if !order.contains(&c.cohort) {
            order.push(c.cohort.clone());
        }
    }
    checks.sort_by_key(|c| {
        (
            order.iter().position(|o| *o == c.cohort).unwrap_or(0),
            !c.short_circuit,
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(src: &str) -> Tag {
        vgc_parser::tags::parse(src).expect("tag parses")
    }

    #[test]
    fn peel_strips_levels_and_option_gates() {
        let t = tag("k8s:ifEnabled(A)=+k8s:beta=+k8s:ifDisabled(B)=+k8s:listType=map");
        let (gates, level, inner) = peel(&t);
        assert_eq!(
            gates,
            vec![
                OptionGate {
                    option: "A".into(),
                    enabled: true
                },
                OptionGate {
                    option: "B".into(),
                    enabled: false
                }
            ]
        );
        assert_eq!(level, Some(Stability::Beta));
        assert_eq!(inner.name, "k8s:listType");
        let plain = tag("k8s:unionMember");
        assert_eq!(peel(&plain), (Vec::new(), None, &plain));
    }

    #[test]
    fn gate_wraps_outermost_first_in_the_default_cohort() {
        let c = Check {
            kind: CheckKind::Unique(Matcher::Set),
            short_circuit: true,
            non_error: false,
            stability: Some(Stability::Alpha),
            tag: Some(TagId::ListType),
            cohort: Some("{\"k\": 1}".into()),
        };
        let gates = [
            OptionGate {
                option: "A".into(),
                enabled: true,
            },
            OptionGate {
                option: "B".into(),
                enabled: false,
            },
        ];
        let g = gate(true, c.clone(), &gates);
        assert_eq!(
            (g.tag, g.short_circuit, g.stability, g.cohort.as_deref()),
            (Some(TagId::IfEnabled), true, Some(Stability::Alpha), None)
        );
        let CheckKind::IfOption(outer) = &g.kind else {
            panic!("not gated: {g:?}")
        };
        assert_eq!((outer.option.as_str(), outer.enabled), ("A", true));
        let CheckKind::IfOption(inner) = &outer.inner.kind else {
            panic!("inner gate missing: {outer:?}")
        };
        assert_eq!((inner.option.as_str(), inner.enabled), ("B", false));
        assert_eq!(inner.inner, c);
        assert_eq!(gate(true, c.clone(), &[]), c);
    }

    #[test]
    fn consumers_are_named_through_wrapper_chains() {
        for (src, want) in [
            (
                "k8s:ifEnabled(X)=+k8s:listMapKey=name",
                Some(Consumer::Reader(Reader::ListMetadata)),
            ),
            (
                "k8s:subfield(s)=+k8s:unionDiscriminator",
                Some(Consumer::Reader(Reader::StructLevel)),
            ),
            (
                "k8s:ifDisabled(X)=+k8s:ifMode(\"A\")=+k8s:optional",
                Some(Consumer::Reader(Reader::StructLevel)),
            ),
            (
                "k8s:ifEnabled(X)=+k8s:item(k: \"a\")=+k8s:required",
                Some(Consumer::Reader(Reader::ItemChecks)),
            ),
            (
                "k8s:eachVal=+k8s:opaqueType",
                Some(Consumer::Reader(Reader::Opacity)),
            ),
            ("k8s:minLength=0", Some(Consumer::MinLengthNoFunction)),
            ("k8s:minLength=1", None),
            ("k8s:eachVal=+k8s:unionMember", None),
            ("k8s:ifEnabled(X)=+k8s:required", None),
        ] {
            assert_eq!(consumer(&tag(src)), want, "{src}");
        }
    }
}
