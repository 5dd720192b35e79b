//! Lowering of tag uses on reachable types into [`TypePlan`]s, in upstream emission order.

use crate::plan::{
    Check, CheckKind, DependentPlan, FieldPlan, IfOptionPlan, ItemPlan, Iteration, ListUnionPlan,
    Matcher, ModePlan, ModulePlan, NeqValue, Nested, RustTy, Shape, Stats, Subfield, TypePlan,
    UnionKind, UnionMemberPlan, UnionPlan,
};
use indexmap::{IndexMap, IndexSet};
use vgc_analysis::types::{self, Builtin, Native, Ty, opacity, unwrap_levels};
use vgc_analysis::{Program, TypeKey};
use vgc_ir::catalog::{self, Lowering, Stability, TagId};
use vgc_ir::model::{FieldIr, TagUse};
use vgc_ir::{Code, Db, Diagnostic, SourceFile};
use vgc_parser::go::{ConstValue, TypeExpr};
use vgc_parser::tags::{Scalar, Tag};

/// The lowered crate: modules, diagnostics and counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CratePlan {
    /// One module per Go package with generated types, sorted by module path.
    pub modules: Vec<std::sync::Arc<ModulePlan>>,
    /// Diagnostics raised while lowering (type-dependent tag errors, not-lowered warnings).
    pub diagnostics: Vec<Diagnostic>,
    /// Counts.
    pub stats: Stats,
    /// The upstream profile the plan was lowered under (docs say which release's semantics they describe).
    pub upstream: vgc_ir::Upstream,
}

/// The lowered crate of the database's [`vgc_analysis::Workspace`] ([`lower`] over
/// [`vgc_analysis::loaded_program`]), with the package count in its stats. Lowering reads source positions only
/// to place diagnostics, so on a tree without lowering diagnostics a comment or layout edit does not re-run it.
#[salsa::tracked(returns(ref))]
pub fn crate_plan(db: &dyn Db) -> CratePlan {
    let prog = vgc_analysis::loaded_program(db);
    let mut plan = lower(db, prog);
    plan.stats.packages = prog.packages.len();
    name_collisions(db, prog, &mut plan);
    plan
}

/// R33: two types of one package whose names differ but whose generated function names agree (`FooBar` and
/// `Foo_Bar` both give `validate_foo_bar`) would generate a module that does not compile; reported as
/// `VGC0112` on the second type.
fn name_collisions(db: &dyn Db, prog: &Program, plan: &mut CratePlan) {
    let mut diags = Vec::new();
    for m in &plan.modules {
        let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
        for t in &m.types {
            if let Some(first) = seen.insert(snake(&t.key.name), &t.key.name)
                && let Some((decl, file)) = prog.type_decl(db, &t.key)
            {
                diags.push(
                    Diagnostic::error(
                        Code::UnsupportedType,
                        format!(
                            "types {first} and {} both become `validate_{}` in Rust",
                            t.key.name,
                            snake(&t.key.name)
                        ),
                    )
                    .at(
                        file.path(db).clone(),
                        vgc_ir::db::span_of(db, file, decl.at),
                    )
                    .with_hint("rename one of the types"),
                );
            }
        }
    }
    plan.diagnostics.extend(diags);
}

/// A Go package's identity as a salsa key (its import path), for per-module queries.
#[salsa::interned(debug)]
pub struct ModuleKey<'db> {
    /// Import path.
    #[returns(ref)]
    pub pkg: String,
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

/// Rust module path of a Go package: relative to the main module for its own packages, `ext::<sanitized import
/// path>` for others, `root` for the module's root package. A first segment that would clash with a crate-root
/// module vgc declares itself (`custom` for the hand-written `customValidation` functions, `ext`, `root`) gets a
/// trailing `_` (`custom/v1` → `custom_::v1`).
#[must_use]
pub fn module_path(prog: &Program, pkg: &str) -> Vec<String> {
    let rel = if pkg == prog.module {
        Some("")
    } else {
        pkg.strip_prefix(&prog.module)
            .and_then(|r| r.strip_prefix('/'))
    };
    let segs: Vec<String> = match rel {
        Some("") => vec!["root".to_string()],
        Some(r) => r
            .split('/')
            .map(sanitize_mod)
            .enumerate()
            .map(|(i, s)| {
                if i == 0 && matches!(s.as_str(), "custom" | "ext" | "root") {
                    s + "_"
                } else {
                    s
                }
            })
            .collect(),
        None => std::iter::once("ext".to_string())
            .chain(pkg.split('/').map(sanitize_mod))
            .collect(),
    };
    segs
}

fn sanitize_mod(s: &str) -> String {
    let mut o: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if o.starts_with(|c: char| c.is_ascii_digit()) {
        o.insert(0, '_');
    }
    if is_keyword(&o) || o == "crate" || o == "self" || o == "super" {
        o.push('_');
    }
    o
}

/// Rust keywords that need `r#`.
#[must_use]
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

/// `snake_case` of a Go identifier (`ObjectMeta` → `object_meta`, `APIVersion` → `api_version`).
#[must_use]
pub fn snake(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut o = String::new();
    for (i, c) in cs.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower = i > 0 && (cs[i - 1].is_lowercase() || cs[i - 1].is_ascii_digit());
            let next_lower = cs.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0 && (prev_lower || (next_lower && cs[i - 1].is_uppercase())) {
                o.push('_');
            }
            o.extend(c.to_lowercase());
        } else {
            o.push(*c);
        }
    }
    o
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

fn field_ident(go: &str) -> String {
    let s = snake(go);
    if matches!(s.as_str(), "self" | "super" | "crate" | "_") {
        format!("{s}_")
    } else if is_keyword(&s) {
        format!("r#{s}")
    } else {
        s
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
    /// While lowering struct-level tags that `subfield(x)=` tags declare on a member struct (whose types resolve
    /// in the member struct's file), the file the tags and spans belong to: diagnostics are placed there.
    tag_file: Option<SourceFile>,
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

/// A reachable type as a salsa key for the per-type lowering queries: its identity and whether it is a root.
#[salsa::interned(debug)]
pub struct LowerKey<'db> {
    /// The type.
    #[returns(ref)]
    pub ty: TypeKey,
    /// Whether it is a root type (roots carry subresource routing).
    pub root: bool,
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
    let mut l = Lowerer {
        db,
        prog,
        types: &r.types,
        boxed: &r.boxed,
        recursive: &r.recursive,
        diags: Vec::new(),
        stats: Stats::default(),
        counting: true,
        documented: false,
        tag_file: None,
    };
    let plan = l.type_plan(key.ty(db), *key.root(db));
    let opaque = prog
        .type_decl(db, key.ty(db))
        .is_some_and(|(d, _)| opacity(&d.tags).0);
    TypeLowering {
        plan: plan.map(std::sync::Arc::new),
        diagnostics: l.diags,
        stats: l.stats,
        opaque,
    }
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
                    tag: if matches!(f.shape, Shape::Map) {
                        "PtrMapNoNils".into()
                    } else {
                        "PtrSliceNoNils".into()
                    },
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
    let mut stats = Stats::default();
    let mut modules: IndexMap<String, ModulePlan> = IndexMap::new();
    for (k, &key) in r.types.iter().zip(lower_keys(db)) {
        let t = lower_type(db, key);
        diagnostics.extend(t.diagnostics.iter().cloned());
        stats.add(&t.stats);
        if let Some(p) = type_plan_final(db, key) {
            modules
                .entry(k.pkg.clone())
                .or_insert_with(|| ModulePlan {
                    pkg: k.pkg.clone(),
                    module_path: module_path(prog, &k.pkg),
                    types: Vec::new(),
                })
                .types
                .push(p.clone());
        }
    }
    let mut modules: Vec<std::sync::Arc<ModulePlan>> =
        modules.into_values().map(std::sync::Arc::new).collect();
    modules.sort_by(|a, b| a.module_path.cmp(&b.module_path));
    stats.packages = prog.packages.len();
    stats.types = r.types.len();
    CratePlan {
        modules,
        diagnostics,
        stats,
        upstream: vgc_ir::profile::upstream(db),
    }
}

impl Lowerer<'_> {
    fn err(&mut self, file: SourceFile, at: u32, code: Code, msg: String, hint: Option<String>) {
        let file = self.tag_file.unwrap_or(file);
        let span = vgc_ir::db::span_of(self.db, file, at);
        let d = Diagnostic::error(code, msg).at(file.path(self.db).clone(), span);
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
                let boxed = matches!(i.as_ref(), Ty::Named(k) if self.boxed.contains(&(owner.clone(), k.clone())));
                RustTy::Option(Box::new(self.rust_ty(owner, i)), boxed)
            }
            Ty::Slice(i) => RustTy::Vec(Box::new(self.rust_ty(owner, i))),
            Ty::Map(_, v) => RustTy::Map(Box::new(self.rust_ty(owner, v))),
            Ty::Any | Ty::Unresolved(..) => RustTy::Json,
        }
    }

    fn shape(&self, t: &Ty) -> Shape {
        let (inner, ptr) = match t {
            Ty::Pointer(i) => (i.as_ref().clone(), true),
            other => (other.clone(), false),
        };
        match types::native(self.db, self.prog, &inner) {
            Native::Struct(_) => Shape::Struct(ptr),
            Native::Other(Ty::Builtin(b)) => Shape::Scalar(b, ptr),
            Native::Other(Ty::Slice(e)) => Shape::List(matches!(e.as_ref(), Ty::Pointer(_))),
            Native::Other(Ty::Map(..)) => Shape::Map,
            Native::Other(_) => Shape::Other(ptr),
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
        if opacity(&decl.tags).0 {
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
            &Shape::Struct(false),
            Some(&own),
            &k.pkg,
        ));
        sort_cohort(&mut checks);
        TypePlan {
            key: k.clone(),
            fields: Some(fields),
            alias_of: None,
            shape: Shape::Struct(false),
            has_validations: !checks.is_empty(),
            checks,
            iteration: None,
            key_iteration: None,
            root,
            docs,
            subresources: root.then(|| self.subresources(k, decl)),
            json_ignored: self.json_ignored(json_of),
            recursive: self.recursive.contains(k),
        }
    }

    fn type_plan(&mut self, k: &TypeKey, root: bool) -> Option<TypePlan> {
        let (decl, file) = self.prog.type_decl(self.db, k)?;
        let docs = Vec::new();
        if let TypeExpr::Struct(_) = decl.ty {
            let mut fields: Vec<FieldPlan> = Vec::new();
            for f in &decl.fields {
                if let Some(fp) = self.field_plan(k, file, f) {
                    // R33: `URL` and `Url` both become the Rust field `url`.
                    if let Some(other) = fields.iter().find(|o| o.rust_name == fp.rust_name) {
                        let msg = format!(
                            "fields {}.{} and {}.{} both become the Rust field `{}`",
                            k.name, other.go_name, k.name, fp.go_name, fp.rust_name
                        );
                        self.err(
                            file,
                            f.at,
                            Code::UnsupportedType,
                            msg,
                            Some("rename one of the fields".into()),
                        );
                    }
                    fields.push(fp);
                }
            }
            // upstream §3.4: struct-level functions deferred from fields (unions) come before the type's own tags.
            let checks = self.struct_level_checks(k, file, &decl.fields);
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
            let checks = self.struct_level_checks(&sk, sfile, &sd.fields);
            self.counting = was;
            self.diags.truncate(n);
            return Some(self.struct_plan(k, file, decl, root, docs, fields, checks, &sk));
        }
        let shape = self.shape(&ty);
        // A list typedef's own list metadata identifies its items (ratcheting of element validation, uniqueness).
        let matcher = if matches!(shape, Shape::List(_)) {
            self.matcher_for(file, decl.at, &format!("type {}", k.name), &decl.tags, &ty)
        } else {
            Matcher::None
        };
        let mut keyed = self.checks_keyed(k, file, &decl.tags, &shape, Some(&ty), &k.pkg);
        if matches!(shape, Shape::List(_)) {
            // upstream: a list typedef's own `item` tags run in its `Validate_<Type>`, list-item unions named
            // after the type.
            for c in self.item_checks(k, file, &decl.tags, &k.name, &k.name, &ty, &matcher) {
                keyed.push((true, tag_slot(&c, "k8s:item"), c));
            }
        }
        if let Some(c) = self.unique_check(&decl.tags, &matcher) {
            keyed.push((true, tag_slot(&c, "k8s:listType"), c));
        }
        let mut checks = emission_order(keyed);
        for c in &mut checks {
            match &mut c.kind {
                CheckKind::EachVal(_, m, _) => *m = matcher.clone(),
                CheckKind::Update(_, m) if matches!(shape, Shape::List(_)) => *m = matcher.clone(),
                _ => {}
            }
        }
        sort_cohort(&mut checks);
        if !checks.is_empty() && self.map_of_slices(&ty) {
            self.err(
                file,
                decl.at,
                Code::UnsupportedType,
                format!(
                    "type {}: validation for map of slices is not supported",
                    k.name
                ),
                Some("wrap the list in a named typedef or struct to validate it".into()),
            );
        }
        // upstream: a typedef of a list or map typedef is natively that list or map, so its function iterates the
        // elements itself (the inner typedef's own rules do not apply).
        let native_ty = match types::native(self.db, self.prog, &ty) {
            Native::Other(t @ (Ty::Slice(_) | Ty::Map(..))) => t,
            _ => ty.clone(),
        };
        let iteration = if opacity(&decl.tags).1 {
            None
        } else {
            self.iteration(&native_ty, matcher)
        };
        let key_iteration = if opacity(&decl.tags).2 {
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
            shape,
            checks,
            iteration,
            key_iteration,
            root,
            has_validations: has,
            docs,
            subresources: root.then(|| self.subresources(k, decl)),
        })
    }

    /// upstream `RegisterValidations` (spec §3.6): `"/"` unless `isSubresource`, plus every `supportsSubresource`
    /// value and the `isSubresource` value, sorted; and the Go `%T` of the object. The values are Go string
    /// literals, or in 1.35 the tag text verbatim ([`vgc_ir::Upstream::subresource_values_verbatim`]).
    fn subresources(&self, k: &TypeKey, decl: &vgc_ir::model::TypeIr) -> (Vec<String>, String) {
        let mut allowed = std::collections::BTreeSet::new();
        let mut is_sub = false;
        let raw = vgc_ir::profile::upstream(self.db).subresource_values_verbatim();
        for u in decl.tags.iter().chain(&decl.second_tags) {
            let value = || {
                let v = u.raw_value.as_deref().map(str::trim);
                if raw {
                    v.map(str::to_string)
                } else {
                    v.and_then(vgc_parser::structtag::unquote_interpreted)
                }
            };
            match u.name.as_str() {
                "k8s:supportsSubresource" => {
                    allowed.extend(value());
                }
                "k8s:isSubresource" => {
                    is_sub = true;
                    allowed.extend(value());
                }
                _ => {}
            }
        }
        if !is_sub {
            allowed.insert("/".to_string());
        }
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
        (
            allowed.into_iter().collect(),
            format!("{}{pkg_name}.{}", if by_value { "" } else { "*" }, k.name),
        )
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

    fn field_plan(&mut self, owner: &TypeKey, file: SourceFile, f: &FieldIr) -> Option<FieldPlan> {
        let go_name = match &f.go_name {
            Some(n) => n.clone(),
            None => match &f.ty {
                TypeExpr::Named { name, .. } => name.clone(),
                TypeExpr::Pointer(i) => match i.as_ref() {
                    TypeExpr::Named { name, .. } => name.clone(),
                    _ => return None,
                },
                _ => return None,
            },
        };
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
        if let Some(msg) = self.unsupported_shape(&ty, 0) {
            self.err(
                file,
                f.at,
                Code::UnsupportedType,
                format!("field {}.{go_name}: {msg}", owner.name),
                Some("validation-gen cannot generate code for this shape; use a named struct or typedef to hold the inner value".into()),
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
                self.err(
                    file,
                    f.at,
                    Code::UnsupportedType,
                    format!(
                        "field {}.{go_name}: an inline-embedded pointer that embeds its own struct again ({}) is not supported",
                        owner.name,
                        cycle.join(" embeds ")
                    ),
                    Some("Go's encoding/json never fills the inner copy from JSON, which the generated Rust type cannot express; give the field a JSON name or break the cycle".into()),
                );
                return None;
            }
            embedded_keys = self.json_names_through(&p);
        }
        let (opaque, opaque_elems, opaque_keys) = opacity(&f.tags);
        // R6: also behind pointers, slices and maps (`*metav1.NoSuchType`, `[]NoSuchLocal`).
        if let Some((q, n)) = first_unresolved(&ty)
            && !opaque
        {
            self.err(file, f.at, Code::Unresolved, format!("field {}.{go_name}: type {q}.{n} cannot be resolved", owner.name), Some("make the package available (go.mod, module cache) or mark the field `+k8s:opaqueType`".into()));
        }
        let shape = self.shape(&ty);
        let matcher = self.matcher(owner, file, f, &ty);
        let mut keyed = self.checks_keyed(owner, file, &f.tags, &shape, Some(&ty), &owner.pkg);
        // upstream: `item` tags and the `listType`/`unique` uniqueness check are deferred too, in their tag's slot.
        let field_json = f
            .json
            .as_ref()
            .map(|j| j.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| go_name.clone());
        for c in self.item_checks(owner, file, &f.tags, &go_name, &field_json, &ty, &matcher) {
            keyed.push((true, tag_slot(&c, "k8s:item"), c));
        }
        if let Some(c) = self.unique_check(&f.tags, &matcher) {
            keyed.push((true, tag_slot(&c, "k8s:listType"), c));
        }
        let mut checks = emission_order(keyed);
        for c in &mut checks {
            match &mut c.kind {
                CheckKind::EachVal(_, m, _) => *m = matcher.clone(),
                CheckKind::Update(cs, m) if matches!(shape, Shape::List(_)) => {
                    // upstream: NoAddItem/NoRemoveItem identify items through the list metadata; none is an error.
                    if matcher == Matcher::None
                        && cs.iter().any(|c| c == "NoAddItem" || c == "NoRemoveItem")
                    {
                        self.err(file, f.at, Code::ListMetadata, format!("field {}.{go_name}: update NoAddItem/NoRemoveItem requires listType=set or listType=map (or unique=...)", owner.name), Some("add `+k8s:listType=set`, or `+k8s:listType=map` with `+k8s:listMapKey`".into()));
                    }
                    *m = matcher.clone();
                }
                _ => {}
            }
        }
        self.apply_default_rule(owner, file, f, &shape, &mut checks);
        if !checks.is_empty() && self.map_of_slices(&ty) {
            self.err(
                file,
                f.at,
                Code::UnsupportedType,
                format!(
                    "field {}.{go_name}: validation for map of slices is not supported",
                    owner.name
                ),
                Some("wrap the list in a named typedef or struct to validate it".into()),
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
        let rust_name = field_ident(&go_name);
        Some(FieldPlan {
            rust_name,
            // upstream names a root-level field without a JSON name (inline, `json:"-"`) after its leaf type.
            go_name: if json_name.is_empty() {
                leaf_type_name(&f.ty)
            } else {
                go_name.clone()
            },
            json_name,
            flatten: inline && !json.skip && matches!(shape, Shape::Struct(_)),
            embedded_keys,
            skip: json.skip,
            omitempty: json.omitempty,
            ty: self.rust_ty(owner, &ty),
            no_nils: matches!(shape, Shape::List(true))
                || (vgc_ir::profile::upstream(self.db).maps_of_pointers()
                    && self.map_of_pointers(&ty)),
            shape,
            checks,
            nested,
            iteration,
            key_iteration,
        })
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

    /// List metadata of a field: from its own `listType`/`unique`/`listMapKey` tags, else from the list typedef.
    fn matcher(&mut self, owner: &TypeKey, file: SourceFile, f: &FieldIr, ty: &Ty) -> Matcher {
        let what = format!(
            "field {}.{}",
            owner.name,
            f.go_name.clone().unwrap_or_default()
        );
        self.matcher_for(file, f.at, &what, &f.tags, ty)
    }

    /// List metadata from a declaration's tags (a field's, or a list typedef's own), else — for a field of a
    /// typedef type — from the typedef. `what` names the declaration in messages (`field T.F`, `type L`).
    fn matcher_for(
        &mut self,
        file: SourceFile,
        at: vgc_ir::model::SpanId,
        what: &str,
        tags: &[TagUse],
        ty: &Ty,
    ) -> Matcher {
        if let Some((msg, hint)) = list_tag_error(tags) {
            self.err(
                file,
                at,
                Code::ListMetadata,
                format!("{what}: {msg}"),
                Some(hint.into()),
            );
        }
        let from = |tags: &[TagUse]| -> Option<(String, Vec<String>)> {
            let mut lt = None;
            let mut keys = Vec::new();
            for u in tags {
                let Ok(t) = &u.parsed else { continue };
                let t = peel(t).2;
                match (t.name.as_str(), t.scalar_value()) {
                    ("k8s:listType" | "k8s:unique", Some(Scalar::Str(v)))
                        if v != "atomic" || lt.is_none() =>
                    {
                        lt = Some(v.clone())
                    }
                    ("k8s:listMapKey", Some(Scalar::Str(k))) => keys.push(k.clone()),
                    _ => {}
                }
            }
            lt.map(|l| (l, keys))
        };
        let meta = from(tags).or_else(|| match ty {
            Ty::Named(k) => self
                .prog
                .type_decl(self.db, k)
                .and_then(|(d, _)| from(&d.tags)),
            _ => None,
        });
        match meta {
            Some((l, _)) if l == "set" => Matcher::Set,
            Some((l, keys)) if l == "map" => {
                if keys.is_empty() {
                    self.err(
                        file,
                        at,
                        Code::ListMetadata,
                        format!("{what}: found listType=map or unique=map without listMapKey"),
                        Some("add `+k8s:listMapKey=<json name>` for each key field".into()),
                    );
                    return Matcher::None;
                }
                // Map JSON key names to Rust field names of the element struct.
                let elem = match ty {
                    Ty::Slice(e) => match e.as_ref() {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        e => e.clone(),
                    },
                    other => match types::native(self.db, self.prog, other) {
                        Native::Other(Ty::Slice(e)) => *e,
                        _ => Ty::Any,
                    },
                };
                let Native::Struct(sk) = types::native(self.db, self.prog, &elem) else {
                    self.err(
                        file,
                        at,
                        Code::ListMetadata,
                        format!("{what}: only lists of structs can be list-maps"),
                        None,
                    );
                    return Matcher::None;
                };
                let Some((sd, _)) = self.prog.type_decl(self.db, &sk) else {
                    return Matcher::None;
                };
                let mut out = Vec::new();
                for k in keys {
                    match sd.fields.iter().find(|m| {
                        m.json.as_ref().map(|j| j.name.as_str()) == Some(k.as_str())
                            || (m.json.is_none() && m.go_name.as_deref() == Some(k.as_str()))
                    }) {
                        Some(m) => out.push(field_ident(m.go_name.as_deref().unwrap_or_default())),
                        None => {
                            self.err(
                                file,
                                at,
                                Code::ListMetadata,
                                format!("{what}: listMapKey {k:?} is not a field of {}", sk.name),
                                None,
                            );
                            return Matcher::None;
                        }
                    }
                }
                Matcher::Keys(out)
            }
            _ => Matcher::None,
        }
    }

    fn unique_check(&self, tags: &[TagUse], m: &Matcher) -> Option<Check> {
        // upstream: `customUnique` turns the generated uniqueness check off (hand-written code does it).
        if tags.iter().any(|u| {
            u.parsed
                .as_ref()
                .is_ok_and(|t| peel(t).2.name == "k8s:customUnique")
        }) {
            return None;
        }
        // upstream `getListValidations`: generated by the first `listType`/`unique` tag's deferred function, so
        // that tag's `ifEnabled`/`ifDisabled` wrappers gate it.
        let first = tags.iter().find_map(|u| {
            let t = u.parsed.as_ref().ok()?;
            let (gates, level, inner) = peel(t);
            let semantic =
                matches!(inner.scalar_value(), Some(Scalar::Str(v)) if v == "set" || v == "map");
            (matches!(inner.name.as_str(), "k8s:listType" | "k8s:unique") && semantic)
                .then_some((level, gates))
        });
        match (m, first) {
            (Matcher::Set | Matcher::Keys(_), Some((stability, gates))) => Some(gate(
                self.undefined_option_is_error(),
                Check {
                    kind: CheckKind::Unique(m.clone()),
                    short_circuit: false,
                    non_error: false,
                    stability,
                    tag: "k8s:listType".into(),
                    cohort: None,
                },
                &gates,
            )),
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
    ) {
        if f.defaults.is_empty() || !checks.iter().any(is_optional_tag) {
            return;
        }
        let name = f.go_name.clone().unwrap_or_default();
        let at = f.defaults[0].at;
        let fail = |l: &mut Self, msg: String| {
            l.err(file, at, Code::InvalidPayload, format!("field {}.{name}: {msg}", owner.name), Some("`+default=<json>` takes one JSON value, e.g. `+default=0` or `+default=\"name\"`".into()))
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
            Shape::Scalar(Builtin::String, false) => Some(value == serde_json::json!("")),
            Shape::Scalar(Builtin::Bool, false) => Some(value == serde_json::json!(false)),
            Shape::Scalar(_, false) => Some(value.as_f64() == Some(0.0) && value.is_number()),
            Shape::Struct(false) | Shape::Other(false) => None,
            // Nilable fields with a default are always effectively required.
            _ => Some(false),
        };
        let nilable = !matches!(
            shape,
            Shape::Scalar(_, false) | Shape::Struct(false) | Shape::Other(false)
        );
        match zero {
            None => fail(self, "unknown zero-value for the field's type".into()),
            Some(true) if !nilable => checks.retain(|c| !is_optional_tag(c)),
            Some(_) => {
                for c in checks.iter_mut().filter(|c| is_optional_tag(c)) {
                    optional_to_required(c);
                }
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
    ) -> Vec<(bool, String, Check)> {
        let mut sorted: Vec<&TagUse> = tags
            .iter()
            .filter(|u| catalog::lookup(&u.name).is_some())
            .collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        let mut out: Vec<(bool, String, Check)> = Vec::new();
        for u in sorted {
            let Ok(tag) = &u.parsed else { continue };
            if self.counting {
                self.stats.tags += 1;
            }
            let (n_diags, n_not_lowered) = (self.diags.len(), self.stats.not_lowered);
            let res = if peel(tag).2.name == "k8s:item" {
                // Lowered by `item_checks` (a list field's or list typedef's own tags).
                Ok(Vec::new())
            } else {
                self.lower_tag(owner, file, u, unwrap_levels(tag), shape, ty, level_of(tag))
            };
            if self.counting && self.stats.not_lowered == n_not_lowered {
                self.account(file, u, tag, &res, n_diags);
            }
            let Ok(cs) = res else {
                continue;
            };
            for c in cs {
                // upstream merges every `update` tag of a declaration into one call.
                if let CheckKind::Update(new, _) = &c.kind
                    && let Some(existing) = out.iter_mut().find_map(|(_, _, e)| match &mut e.kind {
                        CheckKind::Update(v, _) => Some(v),
                        _ => None,
                    })
                {
                    existing.extend(new.iter().cloned());
                    continue;
                }
                out.push((is_deferred(&c), u.name.clone(), c));
            }
        }
        for (_, _, c) in &mut out {
            if let CheckKind::Update(v, _) = &mut c.kind {
                let order = ["NoSet", "NoUnset", "NoModify", "NoAddItem", "NoRemoveItem"];
                v.sort_by_key(|u| order.iter().position(|o| o == u));
                v.dedup();
            }
        }
        // Several subfield tags on one member share that member's inherited checks (emitted once).
        let mut seen_inherited: Vec<Check> = Vec::new();
        out.retain(|(_, _, c)| match &c.kind {
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
        res: &Result<Vec<Check>, ()>,
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
            Ok(cs) if !cs.is_empty() => self.stats.lowered += 1,
            _ if documented || consumer(tag).is_some() => self.stats.consumed += 1,
            Err(()) if malformed() => self.stats.reported += 1,
            _ => {
                self.stats.reported += 1;
                let file = self.tag_file.unwrap_or(file);
                let span = vgc_ir::db::span_of(self.db, file, u.at);
                self.diags.push(
                    Diagnostic::warning(
                        Code::NotLowered,
                        format!(
                            "tag {:?} has no effect here: it produced no check and nothing reads it",
                            u.name
                        ),
                    )
                    .at(file.path(self.db).clone(), span.start..span.start + u.name.len())
                    .with_hint("upstream validation-gen generates nothing for it either, or vgc does not lower this combination yet; remove it or report it"),
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_tag(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        u: &TagUse,
        tag: &Tag,
        shape: &Shape,
        ty: Option<&Ty>,
        stability: Option<Stability>,
    ) -> Result<Vec<Check>, ()> {
        let Some(spec) = catalog::lookup(&tag.name) else {
            return Err(());
        };
        let mk = |kind: CheckKind| Check {
            kind,
            short_circuit: spec.flags.short_circuit,
            non_error: spec.flags.non_error,
            stability,
            tag: tag.name.clone(),
            cohort: None,
        };
        if spec.lowering == Lowering::NotYet {
            if !self.counting {
                return Ok(Vec::new());
            }
            self.stats.not_lowered += 1;
            let span = vgc_ir::db::span_of(self.db, file, u.at);
            self.diags.push(
                Diagnostic::warning(Code::NotLowered, format!("tag {:?} is not lowered yet; no check generated", tag.name))
                    .at(file.path(self.db).clone(), span.start..span.start + u.name.len())
                    .with_hint("this vgc version parses and checks it; its runtime check is planned for the next milestone"),
            );
            return Ok(Vec::new());
        }
        let int = || match tag.scalar_value() {
            Some(Scalar::Int { value, .. }) => Some(*value),
            _ => None,
        };
        let s = || match tag.scalar_value() {
            Some(Scalar::Str(v)) => Some(v.clone()),
            _ => None,
        };
        let what = || format!("{}: tag {:?}", owner.name, tag.name);
        let bad = |l: &mut Self, msg: String| {
            l.err(file, u.at, Code::TypeMismatch, msg, None);
            Err(())
        };
        let is_str = matches!(shape, Shape::Scalar(Builtin::String, _));
        let int_kind = match shape {
            Shape::Scalar(b, _) if b.is_integer() => Some(*b),
            _ => None,
        };
        let is_list = matches!(shape, Shape::List(_));
        let is_map = matches!(shape, Shape::Map);
        let Some(id) = TagId::from_name(&tag.name) else {
            return Err(());
        };
        Ok(match id {
            TagId::Required | TagId::Optional | TagId::Forbidden => {
                // upstream 1.38 (kubernetes#136779): documentation only on non-pointer structs, no check.
                if matches!(shape, Shape::Struct(false))
                    && id != TagId::Forbidden
                    && vgc_ir::profile::upstream(self.db).requiredness_on_value_structs()
                {
                    self.documented = true;
                    return Ok(Vec::new());
                }
                if matches!(shape, Shape::Struct(false)) {
                    return bad(
                        self,
                        format!(
                            "{}: non-pointer structs cannot use the {:?} tag",
                            what(),
                            tag.name
                        ),
                    );
                }
                match id {
                    TagId::Required => vec![mk(CheckKind::Required)],
                    TagId::Optional => vec![mk(CheckKind::Optional)],
                    _ => vec![
                        mk(CheckKind::Forbidden),
                        Check {
                            kind: CheckKind::Optional,
                            short_circuit: true,
                            non_error: true,
                            stability,
                            tag: tag.name.clone(),
                            cohort: None,
                        },
                    ],
                }
            }
            TagId::Minimum | TagId::Maximum => {
                let Some(b) = int_kind else {
                    return bad(
                        self,
                        format!("{}: can only be used on integer types", what()),
                    );
                };
                let v = i128::from(int().unwrap_or_default());
                if let Some((lo, hi)) = b.int_range()
                    && (v < lo || v > hi)
                {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!("{}: value {v} does not fit the field's type", what()),
                        None,
                    );
                    return Err(());
                }
                vec![mk(if tag.name == "k8s:minimum" {
                    CheckKind::Minimum(v)
                } else {
                    CheckKind::Maximum(v)
                })]
            }
            // upstream 1.38 (kubernetes#141811): `maxBytes` also on byte slices and typedefs to them,
            // `validate.MaxBytesSlice` (not a short-circuit, like the string form).
            TagId::MaxBytes
                if !is_str
                    && vgc_ir::profile::upstream(self.db).max_bytes_on_byte_slices()
                    && ty.is_some_and(|t| {
                        matches!(
                            types::native(self.db, self.prog, t),
                            Native::Other(Ty::WellKnown(types::WellKnown::Bytes))
                        )
                    }) =>
            {
                let v = int().unwrap_or_default();
                if v < 0 {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!("{}: must be greater than or equal to 0", what()),
                        None,
                    );
                    return Err(());
                }
                vec![mk(CheckKind::MaxBytesSlice(v))]
            }
            TagId::MinLength | TagId::MaxLength | TagId::MaxBytes => {
                if !is_str {
                    return bad(
                        self,
                        format!("{}: can only be used on string types", what()),
                    );
                }
                let v = int().unwrap_or_default();
                if v < 0 && tag.name != "k8s:minLength" {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!("{}: must be greater than or equal to 0", what()),
                        None,
                    );
                    return Err(());
                }
                match tag.name.as_str() {
                    "k8s:minLength" if v <= 0 => vec![],
                    "k8s:minLength" => vec![mk(CheckKind::MinLength(v))],
                    "k8s:maxLength"
                        if vgc_ir::profile::upstream(self.db).max_length_counts_bytes() =>
                    {
                        vec![mk(CheckKind::MaxLengthBytes(v))]
                    }
                    "k8s:maxLength" => vec![mk(CheckKind::MaxLength(v))],
                    _ => vec![mk(CheckKind::MaxBytes(v))],
                }
            }
            TagId::MinItems | TagId::MaxItems => {
                if !is_list {
                    return bad(self, format!("{}: can only be used on list types", what()));
                }
                let v = int().unwrap_or_default();
                vec![mk(if tag.name == "k8s:minItems" {
                    CheckKind::MinItems(v)
                } else {
                    CheckKind::MaxItems(v)
                })]
            }
            TagId::MinProperties | TagId::MaxProperties => {
                if !is_map {
                    return bad(self, format!("{}: can only be used on map types", what()));
                }
                let v = int().unwrap_or_default();
                vec![mk(if tag.name == "k8s:minProperties" {
                    CheckKind::MinProperties(v)
                } else {
                    CheckKind::MaxProperties(v)
                })]
            }
            TagId::Format => {
                if !is_str {
                    return bad(
                        self,
                        format!("{}: can only be used on string types", what()),
                    );
                }
                let f = s().unwrap_or_default();
                if !catalog::FORMATS.contains(&f.as_str()) {
                    let mut d = Diagnostic::error(
                        Code::InvalidPayload,
                        format!("{}: unsupported validation format {f:?}", what()),
                    );
                    d = d.at(
                        file.path(self.db).clone(),
                        vgc_ir::db::span_of(self.db, file, u.at),
                    );
                    self.diags.push(d.with_hint(format!(
                        "supported formats: {}",
                        catalog::FORMATS.join(", ")
                    )));
                    return Err(());
                }
                // A format whose runtime changed in the profile's apimachinery is qualified with the release.
                let f = match vgc_ir::profile::upstream(self.db).format_release(&f) {
                    Some(release) => format!("{f}@{release}"),
                    None => f,
                };
                vec![mk(CheckKind::Format(f))]
            }
            TagId::Enum => {
                if !is_str {
                    return bad(
                        self,
                        format!("{}: can only be used on string types", what()),
                    );
                }
                {
                    let (values, exclusions) = self.enum_values(owner);
                    vec![mk(CheckKind::Enum(
                        values,
                        exclusions,
                        self.undefined_option_is_error(),
                    ))]
                }
            }
            TagId::Immutable => vec![mk(CheckKind::Immutable)],
            TagId::Update => {
                let c = s().unwrap_or_default();
                let ok = ["NoSet", "NoUnset", "NoModify", "NoAddItem", "NoRemoveItem"]
                    .contains(&c.as_str());
                if !ok {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!("{}: unknown update constraint {c:?}", what()),
                        Some("use NoSet, NoUnset, NoModify, NoAddItem or NoRemoveItem".into()),
                    );
                    return Err(());
                }
                if (c == "NoAddItem" || c == "NoRemoveItem") && !(is_list || is_map) {
                    return bad(
                        self,
                        format!("{}: {c} can only be used on list or map fields", what()),
                    );
                }
                if c == "NoModify" && (is_list || is_map) {
                    return bad(
                        self,
                        format!(
                            "{}: NoModify cannot be used on list or map fields; use +k8s:eachVal=+k8s:update=NoModify",
                            what()
                        ),
                    );
                }
                if (c == "NoSet" || c == "NoUnset") && matches!(shape, Shape::Struct(false)) {
                    return bad(
                        self,
                        format!(
                            "{}: {c} cannot be used on non-pointer struct fields",
                            what()
                        ),
                    );
                }
                vec![mk(CheckKind::Update(vec![c], Matcher::None))]
            }
            TagId::ListType => {
                let v = s().unwrap_or_default();
                if !["atomic", "set", "map"].contains(&v.as_str()) {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!("{}: unknown list type {v:?}", what()),
                        Some("use atomic, set or map".into()),
                    );
                    return Err(());
                }
                if !is_list {
                    return bad(self, format!("{}: can only be used on list types", what()));
                }
                vec![]
            }
            // R17: upstream's list-metadata validators refuse a non-list context (`can only be used on list types`).
            TagId::Unique | TagId::ListMapKey | TagId::CustomUnique if !is_list => {
                return bad(self, format!("{}: can only be used on list types", what()));
            }
            TagId::Unique | TagId::ListMapKey | TagId::OpaqueType | TagId::CustomUnique => vec![],
            // Unions and dependent fields are lowered at the struct level (`struct_level_checks`).
            TagId::UnionMember
            | TagId::UnionDiscriminator
            | TagId::ZeroOrOneOfMember
            | TagId::DependentRequired
            | TagId::DependentForbidden => vec![],
            TagId::CustomValidation => {
                // upstream `customvalidation.go`: type scope → `ValidateCustom_<Type>`, field scope →
                // `ValidateCustom_<Struct>_<GoField>`; default flags.
                let (upstream, method, value_ty) =
                    match (u.at, field_of(self.prog, self.db, owner, u)) {
                        (_, Some(go)) => (
                            format!("ValidateCustom_{}_{go}", owner.name),
                            format!("validate_custom_{}_{}", snake(&owner.name), snake(&go)),
                            ty.map_or(RustTy::Json, |t| match self.rust_ty(owner, t) {
                                RustTy::Option(i, _) => *i,
                                other => other,
                            }),
                        ),
                        (_, None) => (
                            format!("ValidateCustom_{}", owner.name),
                            format!("validate_custom_{}", snake(&owner.name)),
                            RustTy::Named(owner.clone()),
                        ),
                    };
                vec![mk(CheckKind::Custom {
                    method,
                    upstream,
                    ty: value_ty,
                    module: module_path(self.prog, &owner.pkg),
                })]
            }
            TagId::ValidateTrue
            | TagId::ValidateTrueAlpha
            | TagId::ValidateTrueBeta
            | TagId::ValidateFalse => {
                // upstream `testing.go`: flags and cohort come from the args; the Alpha/Beta variants only differ
                // in their tag level (for the lint), not in their functions.
                let mut c = mk(CheckKind::FixedResult {
                    result: tag.name != "k8s:validateFalse",
                    msg: s().unwrap_or_default(),
                });
                if let Some(Scalar::Str(flags)) = tag.arg("flags").map(|a| &a.value) {
                    for fl in flags.split(',').map(str::trim) {
                        match fl {
                            "ShortCircuit" => c.short_circuit = true,
                            "NonError" => c.non_error = true,
                            other => {
                                self.err(
                                    file,
                                    u.at,
                                    Code::InvalidPayload,
                                    format!(
                                        "{}: can't decode tag payload: unknown flag: {other:?}",
                                        what()
                                    ),
                                    Some(
                                        "flags are ShortCircuit and NonError, comma-separated"
                                            .into(),
                                    ),
                                );
                                return Err(());
                            }
                        }
                    }
                }
                if let Some(Scalar::Str(cohort)) = tag.arg("cohort").map(|a| &a.value)
                    && !cohort.is_empty()
                {
                    c.cohort = Some(cohort.clone());
                }
                vec![c]
            }
            TagId::ValidateError => {
                let payload = s().unwrap_or_default();
                self.err(
                    file,
                    u.at,
                    Code::InvalidPayload,
                    format!("{}: forced error: {payload:?}", what()),
                    Some("k8s:validateError always fails generation (a test tag)".into()),
                );
                return Err(());
            }
            TagId::Monotonic => {
                if int_kind.is_none() {
                    return bad(
                        self,
                        format!("{}: can only be used on integer types", what()),
                    );
                }
                vec![mk(CheckKind::Monotonic)]
            }
            TagId::Neq => {
                let v = match (tag.scalar_value(), shape) {
                    (Some(Scalar::Str(v)), Shape::Scalar(Builtin::String, _)) => {
                        NeqValue::Str(v.clone())
                    }
                    (Some(Scalar::Bool(b)), Shape::Scalar(Builtin::Bool, _)) => NeqValue::Bool(*b),
                    (Some(Scalar::Int { value, .. }), Shape::Scalar(b, _)) if b.is_integer() => {
                        if b.int_range().is_some_and(|(lo, hi)| {
                            i128::from(*value) < lo || i128::from(*value) > hi
                        }) {
                            self.err(
                                file,
                                u.at,
                                Code::InvalidPayload,
                                format!("{}: value {value} does not fit the field's type", what()),
                                None,
                            );
                            return Err(());
                        }
                        NeqValue::Int(*value)
                    }
                    _ => {
                        return bad(
                            self,
                            format!(
                                "{}: the value's type must match the field's (string, integer or bool; floats are not supported)",
                                what()
                            ),
                        );
                    }
                };
                vec![mk(CheckKind::Neq(v))]
            }
            TagId::Subfield => return self.lower_subfield(owner, file, u, tag, ty, stability),
            // Reached only nested in another tag's payload (`item_checks` lowers a declaration's own `item` tags).
            TagId::Item => {
                if !is_list {
                    return bad(self, format!("{}: can only be used on list types", what()));
                }
                self.err(
                    file,
                    u.at,
                    Code::UnsupportedType,
                    format!(
                        "{}: tag \"k8s:item\" is supported only directly on a list field or list type",
                        what()
                    ),
                    Some("declare the `item` tag on the list field or on its list type".into()),
                );
                return Err(());
            }
            TagId::IfEnabled | TagId::IfDisabled => {
                // upstream `options.go`: every function the payload produces is wrapped in `IfOption`, keeping
                // its flags; an undefined option is an internal error at run time (1.37 on; before, disabled).
                let Some(inner) = tag.inner() else {
                    return Err(());
                };
                let Some(Scalar::Str(option)) = tag.positional().map(|a| &a.value) else {
                    return Err(());
                };
                let inner_stab = level_of(inner).or(stability);
                let inner_checks =
                    self.lower_tag(owner, file, u, unwrap_levels(inner), shape, ty, inner_stab)?;
                let enabled = tag.name == "k8s:ifEnabled";
                inner_checks
                    .into_iter()
                    .map(|c| Check {
                        short_circuit: c.short_circuit,
                        non_error: c.non_error,
                        stability: c.stability,
                        tag: tag.name.clone(),
                        // upstream's wrapper is a new function without the inner one's cohort.
                        cohort: None,
                        kind: CheckKind::IfOption(Box::new(IfOptionPlan {
                            option: option.clone(),
                            enabled,
                            undefined_is_error: self.undefined_option_is_error(),
                            inner: c,
                        })),
                    })
                    .collect()
            }
            TagId::EachVal | TagId::EachKey => {
                let Some(inner) = tag.inner() else {
                    return Err(());
                };
                let elem_ty =
                    ty.and_then(|t| elem_of(self.db, self.prog, t, tag.name == "k8s:eachKey"));
                let Some(elem_ty) = elem_ty else {
                    return bad(
                        self,
                        format!("{}: can only be used on list or map types", what()),
                    );
                };
                if tag.name == "k8s:eachKey" && !is_map {
                    return bad(self, format!("{}: can only be used on map types", what()));
                }
                let elem_shape = self.shape(&elem_ty);
                let inner_stab = level_of(inner).or(stability);
                let inner_tag = unwrap_levels(inner);
                let inner_checks = self.lower_tag(
                    owner,
                    file,
                    u,
                    inner_tag,
                    &elem_shape,
                    Some(&elem_ty),
                    inner_stab,
                )?;
                if inner_checks.is_empty() {
                    return Ok(vec![]);
                }
                let sc = inner_checks.iter().any(|c| c.short_circuit);
                let ne = inner_checks.iter().all(|c| c.non_error);
                // The list matcher is filled in by the field (it owns the list metadata).
                let kind = if tag.name == "k8s:eachKey" {
                    CheckKind::EachKey(inner_checks)
                } else {
                    CheckKind::EachVal(inner_checks, Matcher::None, elem_shape)
                };
                vec![Check {
                    kind,
                    short_circuit: sc,
                    non_error: ne,
                    stability,
                    tag: tag.name.clone(),
                    cohort: None,
                }]
            }
            // Wrappers peeled by the callers before a payload reaches this function: a level (`alpha`/`beta`)
            // marks the payload's checks, `ifMode` and `enumExclude` are read by the mode and enum consumers.
            TagId::Alpha
            | TagId::Beta
            | TagId::IfMode
            | TagId::ModeDiscriminator
            | TagId::EnumExclude => return Err(()),
        })
    }

    /// upstream `union.go` / `zeroorone.go` for struct-field members: every member tag defers one callback that
    /// builds the functions of *all* groups of its kind in the struct (sorted by union name) and then clears them,
    /// so the first member tag (fields in order, tags by name) decides the position and the stability level.
    ///
    /// `dependentRequired`/`dependentForbidden` each defer their own function, appended at their place in the
    /// same field order.
    fn struct_level_checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        fields: &[FieldIr],
    ) -> Vec<Check> {
        let mut groups: IndexMap<(u8, String), UnionPlan> = IndexMap::new();
        // In deferral order: a union kind (first member tag of that kind) or a dependent check.
        // A union kind carries the option gates of its first member tag: upstream wraps that tag's deferred
        // callback, which builds every group of the kind.
        #[allow(clippy::type_complexity)]
        let mut events: Vec<
            Result<(UnionKind, Option<Stability>, Vec<OptionGate>), Check>,
        > = Vec::new();
        // Modes: modality → (discriminator (Rust name, is bool), Go member name → (field, rules)).
        type ModeRules<'f> = std::collections::BTreeMap<
            String,
            (&'f FieldIr, Vec<(String, Vec<Check>, Option<Stability>)>),
        >;
        let mut modes: std::collections::BTreeMap<String, (Option<(String, bool)>, ModeRules<'_>)> =
            std::collections::BTreeMap::new();
        // Index in `events` where the modes' functions go (first ifMode tag), marked by a placeholder.
        let mut modes_at: Option<usize> = None;
        // The option gates of the first `ifMode` tag (its deferred callback builds every modality's functions).
        let mut modes_gates: Vec<OptionGate> = Vec::new();
        for f in fields {
            let Some(go) = f.go_name.clone() else {
                continue;
            };
            let json = f.json.as_ref().map(|j| j.name.clone()).unwrap_or_default();
            let mut tags: Vec<&TagUse> = f.tags.iter().collect();
            tags.sort_by(|a, b| a.name.cmp(&b.name));
            for u in tags {
                let Ok(tag) = &u.parsed else { continue };
                let (gates, plevel, t) = peel(tag);
                let kind = match t.name.as_str() {
                    "k8s:unionMember" | "k8s:unionDiscriminator" => UnionKind::Union,
                    "k8s:zeroOrOneOfMember" => UnionKind::ZeroOrOneOf,
                    "k8s:dependentRequired" | "k8s:dependentForbidden" => {
                        if let Some(c) = self.dependent_check(owner, file, fields, f, u, tag) {
                            events.push(Err(c));
                        }
                        continue;
                    }
                    "k8s:modeDiscriminator" | "k8s:ifMode" => {
                        let arg = |n: &str| match t.arg(n).map(|a| &a.value) {
                            Some(Scalar::Str(v)) => Some(v.clone()),
                            _ => None,
                        };
                        let modality = arg("modality").unwrap_or_else(|| "default".to_string());
                        let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                        let shape = self.shape(&ty);
                        if t.name == "k8s:modeDiscriminator" {
                            let is_bool = match shape {
                                Shape::Scalar(Builtin::String, false) => false,
                                Shape::Scalar(Builtin::Bool, false) => true,
                                _ => {
                                    self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: tag \"k8s:modeDiscriminator\": can only be used on non-pointer string or bool types", owner.name), None);
                                    continue;
                                }
                            };
                            if modality == "default" && arg("modality").is_some() {
                                self.err(file, u.at, Code::InvalidPayload, format!("field {}.{go}: discriminator group name \"default\" is reserved", owner.name), None);
                                continue;
                            }
                            let entry = modes.entry(modality.clone()).or_default();
                            if entry
                                .0
                                .as_ref()
                                .is_some_and(|(r, _)| *r != field_ident(&go))
                            {
                                self.err(
                                    file,
                                    u.at,
                                    Code::InvalidPayload,
                                    format!(
                                        "field {}.{go}: duplicate discriminator: {modality:?}",
                                        owner.name
                                    ),
                                    None,
                                );
                                continue;
                            }
                            entry.0 = Some((field_ident(&go), is_bool));
                        } else {
                            let Some(payload) = t.inner() else { continue };
                            let Some(value) =
                                arg("mode").or_else(|| match t.positional().map(|a| &a.value) {
                                    Some(Scalar::Str(v)) => Some(v.clone()),
                                    Some(Scalar::Bool(b)) => Some(b.to_string()),
                                    Some(Scalar::Int { text, .. }) => Some(text.clone()),
                                    None => None,
                                })
                            else {
                                self.err(
                                    file,
                                    u.at,
                                    Code::MissingArg,
                                    format!(
                                        "field {}.{go}: tag \"k8s:ifMode\": missing required mode",
                                        owner.name
                                    ),
                                    None,
                                );
                                continue;
                            };
                            if matches!(shape, Shape::Struct(false)) {
                                self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: discriminated member fields of struct type must be pointers", owner.name), None);
                                continue;
                            }
                            let level = plevel;
                            let Ok(checks) = self.lower_tag(
                                owner,
                                file,
                                u,
                                unwrap_levels(payload),
                                &shape,
                                Some(&ty),
                                level,
                            ) else {
                                continue;
                            };
                            let entry = modes.entry(modality).or_default();
                            entry
                                .1
                                .entry(go.clone())
                                .or_insert_with(|| (f, Vec::new()))
                                .1
                                .push((value, checks, level));
                            if modes_at.is_none() {
                                modes_at = Some(events.len());
                                modes_gates = gates.clone();
                                events.push(Ok((UnionKind::Union, None, Vec::new()))); // placeholder, replaced below
                            }
                        }
                        continue;
                    }
                    _ => continue,
                };
                let arg = |n: &str| match t.arg(n).map(|a| &a.value) {
                    Some(Scalar::Str(v)) => Some(v.clone()),
                    _ => None,
                };
                let name = arg("union").unwrap_or_default();
                let (file_ty, shape) = {
                    let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                    let shape = self.shape(&ty);
                    (ty, shape)
                };
                let _ = file_ty;
                let group = groups
                    .entry((kind as u8, name.clone()))
                    .or_insert_with(|| UnionPlan {
                        kind,
                        name: name.clone(),
                        members: Vec::new(),
                        discriminator: None,
                        union_origin: vgc_ir::profile::upstream(self.db).union_origin(),
                    });
                if t.name == "k8s:unionDiscriminator" {
                    if !matches!(shape, Shape::Scalar(Builtin::String, false)) {
                        self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: tag \"k8s:unionDiscriminator\": can only be used on string types", owner.name), None);
                        continue;
                    }
                    group.discriminator = Some((field_ident(&go), json.clone()));
                } else {
                    if matches!(shape, Shape::Struct(false) | Shape::Other(false)) {
                        self.err(file, u.at, Code::TypeMismatch, format!("field {}.{go}: tag {:?}: can only be used on nilable and primitive types", owner.name, t.name), None);
                        continue;
                    }
                    if json.is_empty() {
                        self.err(
                            file,
                            u.at,
                            Code::TypeMismatch,
                            format!(
                                "field {}.{go}: is a union member but has no JSON name",
                                owner.name
                            ),
                            None,
                        );
                        continue;
                    }
                    group.members.push(UnionMemberPlan {
                        rust_name: field_ident(&go),
                        json: json.clone(),
                        member_name: arg("memberName").unwrap_or_else(|| go.clone()),
                        shape,
                    });
                    if !events.iter().enumerate().any(|(i, e)| {
                        modes_at != Some(i) && matches!(e, Ok((k, _, _)) if *k == kind)
                    }) {
                        events.push(Ok((kind, plevel, gates.clone())));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, event) in events.into_iter().enumerate() {
            if modes_at == Some(i) {
                let checks = self.mode_checks(owner, file, &modes);
                out.extend(
                    checks
                        .into_iter()
                        .map(|c| gate(self.undefined_option_is_error(), c, &modes_gates)),
                );
                continue;
            }
            let (kind, stability, gates) = match event {
                Ok(k) => k,
                Err(c) => {
                    out.push(c);
                    continue;
                }
            };
            let mut names: Vec<&(u8, String)> =
                groups.keys().filter(|(k, _)| *k == kind as u8).collect();
            names.sort_by(|a, b| a.1.cmp(&b.1));
            for key in names {
                let g = groups[key].clone();
                if g.members.is_empty() && g.discriminator.is_none() {
                    continue;
                }
                let tag = if kind == UnionKind::Union {
                    "k8s:unionMember"
                } else {
                    "k8s:zeroOrOneOfMember"
                };
                out.push(gate(
                    self.undefined_option_is_error(),
                    Check {
                        kind: CheckKind::Union(Box::new(g)),
                        short_circuit: false,
                        non_error: false,
                        stability,
                        tag: tag.into(),
                        cohort: None,
                    },
                    &gates,
                ));
            }
        }
        if self.counting {
            self.stats.checks += out.len();
        }
        out
    }

    /// upstream `mode.go`: per modality (sorted, `default` for none) and per member field (sorted by Go name), one
    /// `Discriminated` call whose rules are the merged payload functions of each mode value (sorted), marked with
    /// their rule's level; other values get an implicit Forbidden check.
    #[allow(clippy::type_complexity)]
    fn mode_checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        modes: &std::collections::BTreeMap<
            String,
            (
                Option<(String, bool)>,
                std::collections::BTreeMap<
                    String,
                    (&FieldIr, Vec<(String, Vec<Check>, Option<Stability>)>),
                >,
            ),
        >,
    ) -> Vec<Check> {
        let mut out = Vec::new();
        for (modality, (disc, members)) in modes {
            let Some(disc) = disc else {
                if !members.is_empty() {
                    let at = members.values().next().map_or(0, |(f, _)| f.at);
                    let msg = if modality == "default" {
                        "missing discriminator".to_string()
                    } else {
                        format!("missing discriminator for group {modality:?}")
                    };
                    self.err(
                        file,
                        at,
                        Code::InvalidPayload,
                        format!("{}: {msg}", owner.name),
                        Some("mark the selecting field with `+k8s:modeDiscriminator`".into()),
                    );
                }
                continue;
            };
            for (go, (f, rules)) in members {
                let ty = types::resolve(self.db, self.prog, &owner.pkg, file, &f.ty);
                let shape = self.shape(&ty);
                let json = f
                    .json
                    .as_ref()
                    .map(|j| j.name.clone())
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| go.clone());
                let mut by_value: std::collections::BTreeMap<String, Vec<Check>> =
                    std::collections::BTreeMap::new();
                for (value, checks, _) in rules {
                    let key = if disc.1 {
                        match value.as_str() {
                            "1" | "t" | "T" | "TRUE" | "true" | "True" => "true".to_string(),
                            "0" | "f" | "F" | "FALSE" | "false" | "False" => "false".to_string(),
                            _ => {
                                self.err(file, f.at, Code::InvalidPayload, format!("{}: invalid discriminator value {value:?}: cannot parse as bool", owner.name), None);
                                continue;
                            }
                        }
                    } else {
                        value.clone()
                    };
                    by_value
                        .entry(key)
                        .or_default()
                        .extend(checks.iter().cloned());
                }
                let levels: Vec<Option<Stability>> = rules.iter().map(|r| r.2).collect();
                let uniform = levels
                    .first()
                    .copied()
                    .flatten()
                    .filter(|l| levels.iter().all(|x| *x == Some(*l)));
                let (value_ty, pointer, elem) = split_member(self.rust_ty(owner, &ty));
                let plan = ModePlan {
                    member: field_ident(go),
                    json,
                    ty: value_ty,
                    pointer,
                    shape,
                    elem,
                    discriminator: disc.clone(),
                    rules: by_value.into_iter().collect(),
                    default_stability: uniform,
                };
                if self.counting {
                    self.stats.checks += 1;
                }
                out.push(Check {
                    kind: CheckKind::Discriminated(Box::new(plan)),
                    short_circuit: false,
                    non_error: false,
                    stability: None,
                    tag: "k8s:ifMode".into(),
                    cohort: None,
                });
            }
        }
        out
    }

    /// upstream `dependentrequired.go`: one struct-level check per tag; the trigger is the tagged field, the
    /// dependent the sibling named by JSON; both must be pointers, slices, maps or builtins.
    fn dependent_check(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        fields: &[FieldIr],
        f: &FieldIr,
        u: &TagUse,
        tag: &Tag,
    ) -> Option<Check> {
        let (gates, level, t) = peel(tag);
        let go = f.go_name.clone().unwrap_or_default();
        let json_of = |m: &FieldIr| {
            m.json
                .as_ref()
                .map(|j| j.name.clone())
                .filter(|n| !n.is_empty())
        };
        let Some(Scalar::Str(dep_json)) = t.positional().map(|a| &a.value) else {
            return None;
        };
        let Some(trigger_json) = json_of(f) else {
            self.err(
                file,
                u.at,
                Code::TypeMismatch,
                format!("field {}.{go}: trigger field has no JSON name", owner.name),
                None,
            );
            return None;
        };
        let Some(dep) = fields
            .iter()
            .find(|m| json_of(m).as_deref() == Some(dep_json.as_str()))
        else {
            self.err(
                file,
                u.at,
                Code::InvalidPayload,
                format!(
                    "field {}.{go}: no sibling field with JSON name {dep_json:?}",
                    owner.name
                ),
                None,
            );
            return None;
        };
        if dep.go_name == f.go_name {
            self.err(file, u.at, Code::InvalidPayload, format!("field {}.{go}: trigger and dependent field must be different (both are {dep_json:?})", owner.name), None);
            return None;
        }
        let shape_of =
            |l: &Self, m: &FieldIr| l.shape(&types::resolve(l.db, l.prog, &owner.pkg, file, &m.ty));
        let (ts, ds) = (shape_of(self, f), shape_of(self, dep));
        for (role, sh, name) in [
            ("trigger", &ts, &go),
            ("dependent", &ds, &dep.go_name.clone().unwrap_or_default()),
        ] {
            if matches!(sh, Shape::Struct(false) | Shape::Other(false)) {
                self.err(
                    file,
                    u.at,
                    Code::TypeMismatch,
                    format!(
                        "field {}.{go}: {role} field {name:?} has an unsupported type kind",
                        owner.name
                    ),
                    None,
                );
                return None;
            }
        }
        if self.counting {
            self.stats.checks += 1;
        }
        let plan = DependentPlan {
            forbidden: t.name == "k8s:dependentForbidden",
            trigger: (field_ident(&go), trigger_json, ts),
            dependent: (
                field_ident(dep.go_name.as_deref().unwrap_or_default()),
                dep_json.clone(),
                ds,
            ),
        };
        Some(gate(
            self.undefined_option_is_error(),
            Check {
                kind: CheckKind::Dependent(Box::new(plan)),
                short_circuit: false,
                non_error: false,
                stability: level,
                tag: t.name.clone(),
                cohort: None,
            },
            &gates,
        ))
    }

    /// upstream `item.go`: each `item(k: v, …)=+tag` wraps every function of its payload in `ValSliceItem`/
    /// `PtrSliceItem` (flags kept, cohort = the selector text); union members through `item` form list-level
    /// groups run on the list. Requires list-map metadata naming exactly the selector's keys.
    #[allow(clippy::type_complexity)] // a local grouping map, used once
    ///
    /// `tags` are a field's (`go` its Go name, `field_json` its JSON name) or a list typedef's own (`go` and
    /// `field_json` the type name, as upstream names list-item union members after the last path element). Tags
    /// wrapped in `ifEnabled`/`ifDisabled` are gated: the item functions each, the list-level unions by the gates
    /// of their first member tag.
    #[allow(clippy::too_many_arguments)]
    fn item_checks(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        tags: &[TagUse],
        go: &str,
        field_json: &str,
        ty: &Ty,
        matcher: &Matcher,
    ) -> Vec<Check> {
        let mut out = Vec::new();
        let mut groups: IndexMap<
            (u8, String),
            (
                UnionKind,
                Vec<(String, crate::plan::Selector)>,
                Option<Stability>,
                Vec<OptionGate>,
            ),
        > = IndexMap::new();
        let mut union_at: Option<usize> = None;
        for u in tags.iter().filter(|u| {
            u.parsed
                .as_ref()
                .is_ok_and(|t| peel(t).2.name == "k8s:item")
        }) {
            let Ok(tag) = &u.parsed else { continue };
            let (gates, stability, t) = peel(tag);
            let Some(payload) = t.inner() else { continue };
            let Matcher::Keys(keys) = matcher else {
                self.err(file, u.at, Code::ListMetadata, format!("field {}.{go}: found items with no list metadata - item tags require listType=map or unique=map with listMapKey", owner.name), None);
                continue;
            };
            // The element struct and its key members.
            let elem_ty = match elem_of(self.db, self.prog, ty, false) {
                Some(e) => e,
                None => continue,
            };
            let ptr_elems = matches!(self.shape(ty), Shape::List(true));
            let Native::Struct(ek) = types::native(self.db, self.prog, &elem_ty) else {
                continue;
            };
            let Some((ed, efile)) = self.prog.type_decl(self.db, &ek) else {
                continue;
            };
            if t.args.len() != keys.len() {
                self.err(file, u.at, Code::InvalidPayload, format!("field {}.{go}: number of arguments ({}) does not match number of listMapKey fields ({})", owner.name, t.args.len(), keys.len()), None);
                continue;
            }
            let mut selector = Vec::new();
            let mut text = Vec::new();
            let mut ok = true;
            for a in &t.args {
                let Some(name) = &a.name else {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!(
                            "field {}.{go}: item arguments must all be named",
                            owner.name
                        ),
                        None,
                    );
                    ok = false;
                    break;
                };
                let Some(m) = ed
                    .fields
                    .iter()
                    .find(|m| m.json.as_ref().map(|j| j.name.as_str()) == Some(name.as_str()))
                else {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!(
                            "field {}.{go}: no field with JSON name {name:?}",
                            owner.name
                        ),
                        None,
                    );
                    ok = false;
                    break;
                };
                let rust = field_ident(m.go_name.as_deref().unwrap_or_default());
                if !keys.contains(&rust) {
                    self.err(
                        file,
                        u.at,
                        Code::InvalidPayload,
                        format!("field {}.{go}: {name:?} is not a listMapKey", owner.name),
                        None,
                    );
                    ok = false;
                    break;
                }
                let kshape = self.shape(&types::resolve(self.db, self.prog, &ek.pkg, efile, &m.ty));
                let (value, shown) = match (&a.value, &kshape) {
                    (Scalar::Str(v), Shape::Scalar(Builtin::String, _)) => {
                        (NeqValue::Str(v.clone()), format!("{v:?}"))
                    }
                    (Scalar::Int { value, .. }, Shape::Scalar(b, _)) if b.is_integer() => {
                        (NeqValue::Int(*value), value.to_string())
                    }
                    (Scalar::Bool(b), Shape::Scalar(Builtin::Bool, _)) => {
                        (NeqValue::Bool(*b), b.to_string())
                    }
                    _ => {
                        self.err(file, u.at, Code::ArgType, format!("field {}.{go}: item argument {name:?} does not match the key field's type", owner.name), None);
                        ok = false;
                        break;
                    }
                };
                selector.push((rust, matches!(kshape, Shape::Scalar(_, true)), value));
                text.push(format!("{name:?}: {shown}"));
            }
            if !ok {
                continue;
            }
            let cohort = format!("{{{}}}", text.join(", "));
            let inner = unwrap_levels(payload);
            let inner_stab = level_of(payload).or(stability);
            if matches!(
                inner.name.as_str(),
                "k8s:unionMember" | "k8s:zeroOrOneOfMember"
            ) {
                let kind = if inner.name == "k8s:unionMember" {
                    UnionKind::Union
                } else {
                    UnionKind::ZeroOrOneOf
                };
                let union_name = match inner.arg("union").map(|a| &a.value) {
                    Some(Scalar::Str(v)) => v.clone(),
                    _ => String::new(),
                };
                let g = groups.entry((kind as u8, union_name)).or_insert((
                    kind,
                    Vec::new(),
                    inner_stab,
                    gates.clone(),
                ));
                g.1.push((format!("{field_json}[{cohort}]"), selector));
                if union_at.is_none() {
                    union_at = Some(out.len());
                }
                continue;
            }
            let elem_shape = self.shape(&elem_ty);
            let Ok(inner_checks) = self.lower_tag(
                owner,
                file,
                u,
                inner,
                &elem_shape,
                Some(&elem_ty),
                inner_stab,
            ) else {
                continue;
            };
            if self.counting {
                self.stats.checks += inner_checks.len();
            }
            let elem_rust = self.rust_ty(&ek, &elem_ty);
            for c in inner_checks {
                out.push(gate(
                    self.undefined_option_is_error(),
                    Check {
                        short_circuit: c.short_circuit,
                        non_error: c.non_error,
                        stability: c.stability,
                        tag: "k8s:item".into(),
                        cohort: Some(cohort.clone()),
                        kind: CheckKind::Item(Box::new(ItemPlan {
                            selector: selector.clone(),
                            elem: elem_rust.clone(),
                            ptr_elems,
                            elem_shape: elem_shape.clone(),
                            inner: c,
                        })),
                    },
                    &gates,
                ));
            }
        }
        if let Some(at) = union_at {
            let ptr_elems = matches!(self.shape(ty), Shape::List(true));
            let mut names: Vec<&(u8, String)> = groups.keys().collect();
            names.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            let unions: Vec<Check> = names
                .into_iter()
                .map(|k| {
                    let (kind, members, stability, gates) = groups[k].clone();
                    gate(
                        self.undefined_option_is_error(),
                        Check {
                            kind: CheckKind::ListUnion(Box::new(ListUnionPlan {
                                kind,
                                members,
                                ptr_elems,
                                union_origin: vgc_ir::profile::upstream(self.db).union_origin(),
                            })),
                            short_circuit: false,
                            non_error: false,
                            stability,
                            tag: "k8s:item".into(),
                            cohort: None,
                        },
                        &gates,
                    )
                })
                .collect();
            if self.counting {
                self.stats.checks += unions.len();
            }
            out.splice(at..at, unions);
        }
        out
    }

    /// upstream `subfield.go`: the payload runs on one member (by JSON name) of a struct value at `path.<json>`,
    /// in the member's named cohort; on update it is skipped when the old struct is set and the member is equal.
    /// The member's own short-circuit checks are inherited as NonError (off when the declaration carrying the
    /// tag, or the struct type it selects from, is opaque), so the payload is skipped when the member is unset or
    /// invalid. Payloads that declare metadata (`listType`, `listMapKey`, `unique`) or struct-level functions
    /// (unions, modes, dependent fields) declare them for the member, as upstream keys them by the subfield's
    /// path.
    fn lower_subfield(
        &mut self,
        owner: &TypeKey,
        file: SourceFile,
        u: &TagUse,
        tag: &Tag,
        ty: Option<&Ty>,
        stability: Option<Stability>,
    ) -> Result<Vec<Check>, ()> {
        let Some(inner) = tag.inner() else {
            return Err(());
        };
        let Some(Scalar::Str(name)) = tag.positional().map(|a| &a.value) else {
            return Err(());
        };
        if unwrap_levels(inner).name == "k8s:subfield" {
            self.err(
                file,
                u.at,
                Code::TypeMismatch,
                format!("{}: nested subfield is not supported", owner.name),
                None,
            );
            return Err(());
        }
        let base = match ty {
            Some(Ty::Pointer(i)) => i.as_ref().clone(),
            Some(t) => t.clone(),
            None => Ty::Any,
        };
        let Native::Struct(sk) = types::native(self.db, self.prog, &base) else {
            self.err(
                file,
                u.at,
                Code::TypeMismatch,
                format!(
                    "{}: tag \"k8s:subfield\" can only be used on struct types",
                    owner.name
                ),
                None,
            );
            return Err(());
        };
        let Some((sd, sfile)) = self.prog.type_decl(self.db, &sk) else {
            return Err(());
        };
        let Some(member) = sd.fields.iter().find(|m| {
            let json = m
                .json
                .as_ref()
                .map(|j| j.name.clone())
                .filter(|n| !n.is_empty());
            json.as_deref().or(m.go_name.as_deref()) == Some(name.as_str())
        }) else {
            self.err(
                file,
                u.at,
                Code::InvalidPayload,
                format!(
                    "{}: {} has no member with JSON name {name:?}",
                    owner.name, sk.name
                ),
                None,
            );
            return Err(());
        };
        let mty = types::resolve(self.db, self.prog, &sk.pkg, sfile, &member.ty);
        let mshape = self.shape(&mty);
        let inner_stab = level_of(inner).or(stability);
        let payload = peel(inner).2;
        // The declaration carrying this tag: its `subfield(<name>)=` payloads are the member's tags in this
        // context (upstream keys list metadata and unions by the subfield's path).
        let (decl_at, siblings) = self.decl_tags_of(owner, u);
        let member_tags = |name: &str| -> Vec<TagUse> {
            siblings
                .iter()
                .filter_map(|s| {
                    let (_, _, t) = peel(s.parsed.as_ref().ok()?);
                    let arg = t.positional().map(|a| &a.value);
                    (t.name == "k8s:subfield" && matches!(arg, Some(Scalar::Str(n)) if n == name))
                        .then(|| t.inner())
                        .flatten()
                        .map(|p| TagUse {
                            name: p.name.clone(),
                            parsed: Ok(p.clone()),
                            raw_value: None,
                            at: s.at,
                        })
                })
                .collect()
        };
        if is_struct_level(payload) {
            // upstream: the member tag's struct-level function (re-scoped from ParentContext to the subfield's
            // field) runs on the struct value, unwrapped, once for all `subfield` tags of the declaration.
            let first = siblings.iter().find(|s| {
                s.parsed.as_ref().is_ok_and(|t| {
                    let t = peel(t).2;
                    t.name == "k8s:subfield"
                        && t.inner().is_some_and(|p| is_struct_level(peel(p).2))
                })
            });
            if first.is_none_or(|f| f.at != u.at) {
                return Ok(vec![]);
            }
            let virtual_fields: Vec<FieldIr> = sd
                .fields
                .iter()
                .map(|m| {
                    let json = m
                        .json
                        .as_ref()
                        .map(|j| j.name.clone())
                        .filter(|n| !n.is_empty())
                        .or_else(|| m.go_name.clone())
                        .unwrap_or_default();
                    let mut v = m.clone();
                    v.tags = member_tags(&json)
                        .into_iter()
                        .filter(|t| t.parsed.as_ref().is_ok_and(|t| is_struct_level(peel(t).2)))
                        .collect();
                    v.at = decl_at;
                    v
                })
                .collect();
            let was = self.tag_file.replace(file);
            let mut checks = self.struct_level_checks(&sk, sfile, &virtual_fields);
            self.tag_file = was;
            // upstream: `alpha=+subfield(x)=+zeroOrOneOfMember` marks the union's errors (`.MarkAlpha()`); the
            // member tags above were peeled of that level.
            for c in &mut checks {
                if c.stability.is_none() {
                    c.stability = inner_stab;
                }
            }
            return Ok(checks);
        }
        let mut inner_checks = if matches!(payload.name.as_str(), "k8s:listType" | "k8s:unique") {
            // upstream `getListValidations` for the subfield's path: the first `listType`/`unique` tag generates
            // the uniqueness check from every `subfield(<name>)=` list tag.
            let tags = member_tags(name);
            let first = tags.iter().find(|t| {
                t.parsed
                    .as_ref()
                    .is_ok_and(|t| matches!(peel(t).2.name.as_str(), "k8s:listType" | "k8s:unique"))
            });
            if first.is_none_or(|f| f.at != u.at) || !matches!(mshape, Shape::List(_)) {
                // Validated (payload, scope) by lowering the tag itself; its metadata is consumed here.
                return self
                    .lower_tag(owner, file, u, payload, &mshape, Some(&mty), inner_stab)
                    .map(|_| Vec::new());
            }
            self.lower_tag(owner, file, u, payload, &mshape, Some(&mty), inner_stab)?;
            let what = format!("field {}.{name}", sk.name);
            let matcher = self.matcher_for(file, decl_at, &what, &tags, &mty);
            self.unique_check(&tags, &matcher).into_iter().collect()
        } else {
            self.lower_tag(
                owner,
                file,
                u,
                unwrap_levels(inner),
                &mshape,
                Some(&mty),
                inner_stab,
            )?
        };
        if inner_checks.is_empty() {
            return Ok(vec![]);
        }
        if matches!(mshape, Shape::List(_))
            && inner_checks
                .iter()
                .any(|c| matches!(c.kind, CheckKind::EachVal(..) | CheckKind::Update(..)))
        {
            // Element matching for the member list comes from the `subfield(<name>)=` list tags (quietly: they are
            // reported once, by the tag that generates the uniqueness check).
            let tags = member_tags(name);
            let n = self.diags.len();
            let matcher = self.matcher_for(file, decl_at, "", &tags, &mty);
            self.diags.truncate(n);
            for c in &mut inner_checks {
                match &mut c.kind {
                    CheckKind::EachVal(_, m, _) | CheckKind::Update(_, m) => *m = matcher.clone(),
                    _ => {}
                }
            }
        }
        // upstream `isFieldOpaque(context)` of the tag's own context: the declaration carrying the `subfield` tag
        // is `opaqueType`, or the struct type it selects from is (a field's type, or the type itself).
        let type_opaque = match &base {
            Ty::Named(k) => self
                .prog
                .type_decl(self.db, k)
                .is_some_and(|(d, _)| opacity(&d.tags).0),
            _ => false,
        };
        let member_opaque = type_opaque || opacity(&siblings).0;
        let (value_ty, pointer, elem) = split_member(self.rust_ty(&sk, &mty));
        let go = member.go_name.clone().unwrap_or_default();
        let wrap = |inner: Check, inherited: bool| {
            let (short_circuit, non_error) = if inherited {
                (true, true)
            } else {
                (inner.short_circuit, inner.non_error)
            };
            // upstream marks the inner function (`Minimum(…).MarkAlpha()` inside `Subfield`); the wrapper returns
            // only its errors, so marking the wrapper with the inner level is the same.
            let stability = inner.stability.or(stability);
            let sub = Subfield {
                member: field_ident(&go),
                json: name.clone(),
                ty: value_ty.clone(),
                pointer,
                shape: mshape.clone(),
                elem: elem.clone(),
                inner,
                inherited,
            };
            Check {
                kind: CheckKind::Subfield(Box::new(sub)),
                short_circuit,
                non_error,
                stability,
                tag: tag.name.clone(),
                cohort: Some(name.clone()),
            }
        };
        let mut checks = Vec::new();
        if !member_opaque {
            let was = std::mem::replace(&mut self.counting, false);
            let inherited = self.checks(&sk, sfile, &member.tags, &mshape, Some(&mty), &sk.pkg);
            self.counting = was;
            checks.extend(
                inherited
                    .into_iter()
                    .filter(|c| c.short_circuit)
                    .map(|c| wrap(c, true)),
            );
        }
        checks.extend(inner_checks.into_iter().map(|c| wrap(c, false)));
        Ok(checks)
    }

    /// The inline-embedding cycle `[to, from, …, to]` when struct `from` embeds struct `to` again, following inline-embedded
    /// fields by value or pointer (R9), if any. Iterative, visiting each struct once.
    fn embedding_cycle(&self, from: &TypeKey, to: &TypeKey) -> Option<Vec<String>> {
        let mut parent: std::collections::BTreeMap<TypeKey, TypeKey> =
            std::collections::BTreeMap::new();
        let mut stack = vec![from.clone()];
        let mut seen = std::collections::BTreeSet::from([from.clone()]);
        while let Some(t) = stack.pop() {
            for e in self.inline_embedded(&t) {
                if &e == to {
                    // to → from → … → t → to
                    let mut back = vec![t.name.clone()];
                    let mut at = t;
                    while let Some(p) = parent.get(&at) {
                        back.push(p.name.clone());
                        at = p.clone();
                    }
                    let mut path = vec![to.name.clone()];
                    path.extend(back.into_iter().rev());
                    path.push(to.name.clone());
                    return Some(path);
                }
                if seen.insert(e.clone()) {
                    parent.insert(e.clone(), t.clone());
                    stack.push(e);
                }
            }
        }
        None
    }

    /// The structs struct `k` embeds inline (by value or pointer, no JSON name, not `json:"-"`).
    fn inline_embedded(&self, k: &TypeKey) -> Vec<TypeKey> {
        let Some((decl, file)) = self.prog.type_decl(self.db, k) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for f in &decl.fields {
            let json = f.json.clone().unwrap_or_default();
            if f.go_name.is_some() || !json.name.is_empty() || json.skip {
                continue;
            }
            let ty = types::resolve(self.db, self.prog, &k.pkg, file, &f.ty);
            let inner = match &ty {
                Ty::Pointer(i) => i.as_ref().clone(),
                other => other.clone(),
            };
            if let Native::Struct(e) = types::native(self.db, self.prog, &inner) {
                out.push(e);
            }
        }
        out
    }

    /// The JSON names struct `k` decodes (R9): its exported fields' names and, through its inline embeddings, theirs,
    /// minus the conflicting names Go's `typeFields` ignores ([`Self::json_ignored`]). Sorted, de-duplicated.
    fn json_names_through(&self, k: &TypeKey) -> Vec<String> {
        let ignored = self.json_ignored(k);
        let mut names = std::collections::BTreeSet::new();
        let mut stack = vec![k.clone()];
        let mut seen = std::collections::BTreeSet::from([k.clone()]);
        while let Some(t) = stack.pop() {
            let Some((decl, file)) = self.prog.type_decl(self.db, &t) else {
                continue;
            };
            for f in &decl.fields {
                let json = f.json.clone().unwrap_or_default();
                if json.skip {
                    continue;
                }
                if f.go_name.is_none() && json.name.is_empty() {
                    // An embedded struct contributes its own names (below); any other embedded type is a field
                    // named after its type, as in encoding/json.
                    let ty = types::resolve(self.db, self.prog, &t.pkg, file, &f.ty);
                    let inner = match &ty {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        other => other.clone(),
                    };
                    if matches!(types::native(self.db, self.prog, &inner), Native::Struct(_)) {
                        continue;
                    }
                }
                let go = f.member_name();
                if !go.starts_with(|c: char| c.is_uppercase()) {
                    continue;
                }
                names.insert(if json.name.is_empty() { go } else { json.name });
            }
            for e in self.inline_embedded(&t) {
                if seen.insert(e.clone()) {
                    stack.push(e);
                }
            }
        }
        names.into_iter().filter(|n| !ignored.contains(n)).collect()
    }

    /// Go `encoding/json` `typeFields` on struct `k`: the JSON names of inline-embedded structs' fields that conflict
    /// at their shallowest depth (below the struct's own fields) with no single tagged winner, which Go ignores
    /// when decoding and encoding. Sorted.
    fn json_ignored(&self, k: &TypeKey) -> Vec<String> {
        // name → (depth, tagged) of every candidate field.
        let mut seen: std::collections::BTreeMap<String, Vec<(u8, bool)>> =
            std::collections::BTreeMap::new();
        let mut stack = vec![(k.clone(), 0u8)];
        let mut visited = std::collections::BTreeSet::new();
        while let Some((t, depth)) = stack.pop() {
            if depth > 8 || !visited.insert((t.clone(), depth)) {
                continue;
            }
            let Some((decl, file)) = self.prog.type_decl(self.db, &t) else {
                continue;
            };
            for f in &decl.fields {
                let json = f.json.clone().unwrap_or_default();
                if json.skip {
                    continue;
                }
                if f.go_name.is_none() && json.name.is_empty() {
                    let ty = types::resolve(self.db, self.prog, &t.pkg, file, &f.ty);
                    let inner = match &ty {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        other => other.clone(),
                    };
                    if let Native::Struct(e) = types::native(self.db, self.prog, &inner) {
                        stack.push((e, depth + 1));
                        continue;
                    }
                }
                let go = f.go_name.clone().unwrap_or_else(|| leaf_type_name(&f.ty));
                if !go.starts_with(|c: char| c.is_uppercase()) {
                    continue;
                }
                let name = if json.name.is_empty() {
                    go
                } else {
                    json.name.clone()
                };
                seen.entry(name)
                    .or_default()
                    .push((depth, !json.name.is_empty()));
            }
        }
        seen.into_iter()
            .filter(|(_, cands)| {
                let min = cands.iter().map(|c| c.0).min().unwrap_or(0);
                let top: Vec<&(u8, bool)> = cands.iter().filter(|c| c.0 == min).collect();
                min > 0 && top.len() > 1 && top.iter().filter(|c| c.1).count() != 1
            })
            .map(|(n, _)| n)
            .collect()
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

    fn enum_values(&mut self, k: &TypeKey) -> (Vec<String>, Vec<(String, bool, String)>) {
        let mut by_value: IndexMap<String, String> = IndexMap::new();
        // (Go constant name, value, exclude when the option is on?, option)
        let mut exclusions: Vec<(String, String, bool, String)> = Vec::new();
        let typed = const_index(self.db).get(k).cloned().unwrap_or_default();
        for (pkg_path, f, ci) in &typed {
            let (pkg_path, f) = (pkg_path.as_str(), *f);
            let ir = vgc_ir::db::file_ir(self.db, f);
            let c = &ir.consts[*ci];
            if c.tags.iter().any(|u| u.name == "k8s:enumExclude") {
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
                .filter(|u| matches!(u.name.as_str(), "k8s:ifEnabled" | "k8s:ifDisabled"))
            {
                let Ok(tag) = &u.parsed else { continue };
                let (Some(inner), Some(Scalar::Str(option))) =
                    (tag.inner(), tag.positional().map(|a| &a.value))
                else {
                    continue;
                };
                if unwrap_levels(inner).name != "k8s:enumExclude" {
                    continue;
                }
                if self.counting {
                    self.stats.tags += 1;
                    self.stats.lowered += 1;
                }
                exclusions.push((
                    c.name.clone(),
                    v.clone(),
                    tag.name == "k8s:ifEnabled",
                    option.clone(),
                ));
            }
            let keep = match by_value.get(v) {
                None => true,
                Some(old) => {
                    c.comment.len() > old.len()
                        || (c.comment.len() == old.len() && c.comment < *old)
                }
            };
            if keep {
                by_value.insert(v.clone(), c.comment.clone());
            }
        }
        let mut vals: Vec<String> = by_value.into_keys().collect();
        vals.sort();
        exclusions.sort();
        (
            vals,
            exclusions
                .into_iter()
                .map(|(_, v, when, o)| (v, when, o))
                .collect(),
        )
    }
}

/// The Go name of the struct field of `owner` that carries tag use `u`, or `None` for a type-level use.
fn field_of(prog: &Program, db: &dyn Db, owner: &TypeKey, u: &TagUse) -> Option<String> {
    let (decl, _) = prog.type_decl(db, owner)?;
    decl.fields
        .iter()
        .find(|f| f.tags.iter().any(|t| t.at == u.at))
        .and_then(|f| f.go_name.clone())
}

/// A member's Rust type split for wrapper plans: the value type without `Option`, `Some(boxed)` when the member
/// is a Go pointer, and the element type of a list or map value.
fn split_member(ty: RustTy) -> (RustTy, Option<bool>, Option<RustTy>) {
    let (value, pointer) = match ty {
        RustTy::Option(i, boxed) => (*i, Some(boxed)),
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

/// The named consumer of a tag use that produces no check of its own, by the innermost tag of its wrapper chain
/// (`alpha`/`beta`, `ifEnabled`/`ifDisabled`, `subfield`, `eachVal`, `eachKey`): list metadata
/// ([`Lowerer::matcher_for`], [`Lowerer::unique_check`]), struct-level functions
/// ([`Lowerer::struct_level_checks`]), `item` ([`Lowerer::item_checks`]), opacity
/// ([`vgc_analysis::types::opacity`]), and a `minLength` of 0 or less, for which upstream emits no function.
/// `None`: nothing reads it.
fn consumer(t: &Tag) -> Option<&'static str> {
    let mut cur = t;
    // Struct-level tags and `item` are read only on a declaration or through `subfield`, not inside `eachVal`.
    let mut in_each = false;
    loop {
        match cur.name.as_str() {
            "k8s:alpha" | "k8s:beta" | "k8s:ifEnabled" | "k8s:ifDisabled" | "k8s:subfield" => {
                cur = cur.inner()?;
            }
            "k8s:eachVal" | "k8s:eachKey" => {
                in_each = true;
                cur = cur.inner()?;
            }
            "k8s:item"
            | "k8s:unionMember"
            | "k8s:unionDiscriminator"
            | "k8s:zeroOrOneOfMember"
            | "k8s:modeDiscriminator"
            | "k8s:ifMode"
            | "k8s:dependentRequired"
            | "k8s:dependentForbidden"
                if in_each =>
            {
                return None;
            }
            "k8s:item" => return Some("item_checks"),
            "k8s:listType" | "k8s:listMapKey" | "k8s:unique" | "k8s:customUnique" => {
                return Some("list metadata");
            }
            "k8s:opaqueType" => return Some("opacity"),
            "k8s:minLength" if matches!(cur.scalar_value(), Some(Scalar::Int { value, .. }) if *value <= 0) =>
            {
                return Some("minLength <= 0 (no function upstream)");
            }
            _ if is_struct_level(cur) => return Some("struct_level_checks"),
            _ => return None,
        }
    }
}

/// Tags whose functions upstream defers to the enclosing struct (`ParentContext`): unions, modes and dependent
/// fields, lowered by [`Lowerer::struct_level_checks`].
fn is_struct_level(t: &Tag) -> bool {
    matches!(
        t.name.as_str(),
        "k8s:unionMember"
            | "k8s:unionDiscriminator"
            | "k8s:zeroOrOneOfMember"
            | "k8s:modeDiscriminator"
            | "k8s:ifMode"
            | "k8s:dependentRequired"
            | "k8s:dependentForbidden"
    )
}

/// The stability level set by an outer `k8s:alpha`/`k8s:beta` on a chain.
fn level_of(t: &Tag) -> Option<Stability> {
    match t.name.as_str() {
        "k8s:alpha" => Some(Stability::Alpha),
        "k8s:beta" => Some(Stability::Beta),
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
        match cur.name.as_str() {
            "k8s:alpha" | "k8s:beta" => {
                level = level_of(cur);
            }
            "k8s:ifEnabled" | "k8s:ifDisabled" => {
                let Some(Scalar::Str(option)) = cur.positional().map(|a| &a.value) else {
                    return (gates, level, cur);
                };
                gates.push(OptionGate {
                    option: option.clone(),
                    enabled: cur.name == "k8s:ifEnabled",
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
        CheckKind::Optional => c.tag == "k8s:optional",
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
        kind => *kind = CheckKind::Required,
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
        tag: if g.enabled {
            "k8s:ifEnabled".into()
        } else {
            "k8s:ifDisabled".into()
        },
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
        match (t.name.as_str(), t.scalar_value()) {
            ("k8s:listType", Some(Scalar::Str(v))) => list_type = Some(v.as_str()),
            ("k8s:unique", Some(Scalar::Str(v))) => unique = Some(v.as_str()),
            ("k8s:listMapKey", _) => keys = true,
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

/// The (outer) tag name a check added outside [`Lowerer::checks_keyed`] sorts under: its option wrapper's or
/// stability wrapper's name when it has one, else `name`.
fn tag_slot(c: &Check, name: &str) -> String {
    if let CheckKind::IfOption(_) = c.kind {
        return c.tag.clone();
    }
    match c.stability {
        Some(Stability::Alpha) => "k8s:alpha".into(),
        Some(Stability::Beta) => "k8s:beta".into(),
        _ => name.into(),
    }
}

/// Keyed checks in upstream's emission order: direct functions before deferred ones, each by tag name (stable).
fn emission_order(mut keyed: Vec<(bool, String, Check)>) -> Vec<Check> {
    keyed.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    keyed.into_iter().map(|(_, _, c)| c).collect()
}

/// True for checks whose upstream validator returns them as `Deferred` (ThisContext): emitted after a
/// declaration's direct functions.
fn is_deferred(c: &Check) -> bool {
    match &c.kind {
        // upstream `WrapFunctions` keeps a deferred function deferred.
        CheckKind::IfOption(io) => is_deferred(&io.inner),
        kind => matches!(
            kind,
            CheckKind::EachVal(..)
                | CheckKind::Update(..)
                | CheckKind::Subfield(_)
                | CheckKind::Item(_)
                | CheckKind::ListUnion(_)
                | CheckKind::Unique(_)
                | CheckKind::Union(_)
                | CheckKind::Dependent(_)
                | CheckKind::Discriminated(_)
        ),
    }
}

/// upstream cohort sort: short-circuit checks first, relative order kept.
fn sort_cohort(checks: &mut [Check]) {
    checks.sort_by_key(|c| !c.short_circuit);
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
            tag: "k8s:listType".into(),
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
            (
                g.tag.as_str(),
                g.short_circuit,
                g.stability,
                g.cohort.as_deref()
            ),
            ("k8s:ifEnabled", true, Some(Stability::Alpha), None)
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
                Some("list metadata"),
            ),
            (
                "k8s:subfield(s)=+k8s:unionDiscriminator",
                Some("struct_level_checks"),
            ),
            (
                "k8s:ifDisabled(X)=+k8s:ifMode(\"A\")=+k8s:optional",
                Some("struct_level_checks"),
            ),
            (
                "k8s:ifEnabled(X)=+k8s:item(k: \"a\")=+k8s:required",
                Some("item_checks"),
            ),
            ("k8s:eachVal=+k8s:opaqueType", Some("opacity")),
            (
                "k8s:minLength=0",
                Some("minLength <= 0 (no function upstream)"),
            ),
            ("k8s:minLength=1", None),
            ("k8s:eachVal=+k8s:unionMember", None),
            ("k8s:ifEnabled(X)=+k8s:required", None),
        ] {
            assert_eq!(consumer(&tag(src)), want, "{src}");
        }
    }
}
