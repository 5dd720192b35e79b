//! The most a rule costs, as cel-go v0.29.2's `checker/cost.go` (`Cost`, the coster) estimates it with
//! k8s.io/apiserver v0.37.2's `library.CostEstimator` and apiextensions-apiserver's `sizeEstimator`
//! (`pkg/apiserver/schema/cel/compilation.go`) — the estimate `ValidateCustomResourceDefinition` compares with the
//! budget. Each node's cost is cel-go's for the overload the checker would pick (read from the operand types, which
//! this module infers as the checker does for the expressions vgc writes); sizes come from the rule's declared type
//! ([`super::decl`]) by the node's path from `self`, exactly as `sizeEstimator.EstimateSize` walks it — including
//! its quirks: a path that starts at a call (`oldSelf.value().x`, `self.split('/')[0]`) loses its head and is sized
//! as the root. The presence test `has()` costs 0 (`PresenceTestHasCost(false)`, k8s.io/apiserver
//! `environment/base.go`).

use super::decl::{Decl, DeclKind};
use super::parse::{Comprehension, Expr, ExprKind, Lit};
use std::collections::HashMap;

/// A cost or size range (cel-go `CostEstimate`/`SizeEstimate`), saturating at `u64::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Range {
    pub(crate) min: u64,
    pub(crate) max: u64,
}

const UNKNOWN: Range = Range {
    min: 0,
    max: u64::MAX,
};

fn fixed(v: u64) -> Range {
    Range { min: v, max: v }
}

/// cel-go `multiplyByCostFactor`: `ceil(x * f)`, saturating.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn by_factor(x: u64, f: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && f > 0.0 && xf > u64::MAX as f64 / f {
        return u64::MAX;
    }
    let c = (xf * f).ceil();
    if c >= 18_446_744_073_709_551_616.0 {
        return u64::MAX;
    }
    c as u64
}

impl Range {
    fn add(self, o: Range) -> Range {
        Range {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
    fn mul(self, o: Range) -> Range {
        Range {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }
    fn factor(self, f: f64) -> Range {
        Range {
            min: by_factor(self.min, f),
            max: by_factor(self.max, f),
        }
    }
    fn union(self, o: Range) -> Range {
        Range {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// cel-go `common.StringTraversalCostFactor`.
const STRING_TRAVERSAL: f64 = 0.1;
/// cel-go `common.RegexStringLengthCostFactor`.
const REGEX_LENGTH: f64 = 0.25;
/// k8s.io/apiserver `cel.MaxNameFormatRegexSize`.
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
/// k8s.io/apiserver `cel.MaxFormatSize`.
const MAX_FORMAT_SIZE: u64 = 64;

/// A CEL type as the checker gives it to a node (only what the costs read).
#[derive(Debug, Clone)]
enum Ty<'a> {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Null,
    Duration,
    Timestamp,
    Dyn,
    List(Box<Ty<'a>>),
    Map(Box<Ty<'a>>),
    Object(&'a Decl),
    Optional(Box<Ty<'a>>),
    /// The `format` library's type.
    Format,
    /// The `quantity` library's type.
    Quantity,
}

fn ty_of(d: &Decl) -> Ty<'_> {
    match &d.kind {
        DeclKind::Bool => Ty::Bool,
        DeclKind::Int => Ty::Int,
        DeclKind::Double => Ty::Double,
        DeclKind::String => Ty::String,
        DeclKind::Timestamp => Ty::Timestamp,
        DeclKind::Duration => Ty::Duration,
        DeclKind::Bytes => Ty::Bytes,
        DeclKind::Dyn => Ty::Dyn,
        DeclKind::List(e) => Ty::List(Box::new(ty_of(e))),
        DeclKind::Map(v) => Ty::Map(Box::new(ty_of(v))),
        DeclKind::Object(_) => Ty::Object(d),
    }
}

fn is_scalar(t: &Ty<'_>) -> bool {
    match t {
        Ty::Bool | Ty::Double | Ty::Duration | Ty::Int | Ty::Timestamp | Ty::Uint => true,
        Ty::Optional(i) => is_scalar(i),
        _ => false,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Container {
    List,
    Map,
}

/// cel-go `entrySizeEstimate`.
#[derive(Debug, Clone, Copy)]
struct Entry {
    container: Container,
    key: Range,
    val: Range,
}

fn union_entry(a: Option<Entry>, b: Option<Entry>) -> Option<Entry> {
    let (a, b) = (a?, b?);
    Some(Entry {
        container: a.container,
        key: a.key.union(b.key),
        val: a.val.union(b.val),
    })
}

#[derive(Debug, Clone)]
struct Local<'a> {
    path: Vec<String>,
    size: Option<Range>,
    entry: Option<Entry>,
    ty: Ty<'a>,
}

/// One estimate of one expression.
pub(crate) struct Coster<'a> {
    root: &'a Decl,
    /// The type of `oldSelf`: the root's, or optional of it (`optionalOldSelf`).
    optional_old_self: bool,
    paths: HashMap<u32, Vec<String>>,
    sizes: HashMap<u32, Range>,
    entries: HashMap<u32, Entry>,
    types: HashMap<u32, Ty<'a>>,
    locals: HashMap<String, Vec<Local<'a>>>,
}

/// Why an expression cannot be estimated: a function or operand type outside what the module knows.
pub(crate) type Unknown = String;

impl<'a> Coster<'a> {
    /// A coster for rules of the declared type `root` (`self`).
    pub(crate) fn new(root: &'a Decl, optional_old_self: bool) -> Self {
        Self {
            root,
            optional_old_self,
            paths: HashMap::new(),
            sizes: HashMap::new(),
            entries: HashMap::new(),
            types: HashMap::new(),
            locals: HashMap::new(),
        }
    }

    /// The cost range of `e` (cel-go `coster.cost`).
    ///
    /// # Errors
    /// A function, variable or operand type the module does not know.
    pub(crate) fn cost(&mut self, e: &Expr) -> Result<Range, Unknown> {
        let (c, t) = match &e.kind {
            ExprKind::Lit(l) => (
                fixed(0),
                match l {
                    Lit::Bool(_) => Ty::Bool,
                    Lit::Int(_) => Ty::Int,
                    Lit::Uint(_) => Ty::Uint,
                    Lit::Double(_) => Ty::Double,
                    Lit::Str(_) => Ty::String,
                    Lit::Null => Ty::Null,
                },
            ),
            ExprKind::Ident(name) => {
                let t = if let Some(l) = self.locals.get(name).and_then(|s| s.last()) {
                    self.paths.insert(e.id, l.path.clone());
                    l.ty.clone()
                } else {
                    self.paths.insert(e.id, vec![name.clone()]);
                    match name.as_str() {
                        "self" => ty_of(self.root),
                        "oldSelf" if self.optional_old_self => {
                            Ty::Optional(Box::new(ty_of(self.root)))
                        }
                        "oldSelf" => ty_of(self.root),
                        other => return Err(format!("unknown variable `{other}`")),
                    }
                };
                (fixed(1), t)
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                let oc = self.cost(operand)?;
                let ot = self.ty(operand);
                let ft = match &ot {
                    Ty::Object(d) => match &d.kind {
                        DeclKind::Object(f) => f
                            .get(field)
                            .map(ty_of)
                            .ok_or_else(|| format!("no field `{field}`"))?,
                        _ => return Err(format!("select `{field}` on a non-object")),
                    },
                    Ty::Map(v) => (**v).clone(),
                    Ty::Dyn => Ty::Dyn,
                    other => return Err(format!("select `{field}` on {other:?}")),
                };
                if *test_only {
                    (oc, Ty::Bool)
                } else {
                    let extra = if matches!(ot, Ty::Map(_) | Ty::Object(_)) {
                        fixed(1)
                    } else {
                        fixed(0)
                    };
                    let mut p = self.path(operand);
                    p.push(field.clone());
                    self.paths.insert(e.id, p);
                    (oc.add(extra), ft)
                }
            }
            ExprKind::Call {
                function,
                target,
                args,
            } => return self.call(e, function, target.as_deref(), args),
            ExprKind::List(items) => {
                let mut sum = fixed(0);
                let mut item = Range {
                    min: if items.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                let mut elem = Ty::Dyn;
                for i in items {
                    sum = sum.add(self.cost(i)?);
                    item = item.union(self.size_or_unknown(i));
                    elem = self.ty(i);
                }
                self.entries.insert(
                    e.id,
                    Entry {
                        container: Container::List,
                        key: fixed(1),
                        val: item,
                    },
                );
                (sum.add(fixed(10)), Ty::List(Box::new(elem)))
            }
            ExprKind::Map(entries) => {
                let mut sum = fixed(0);
                let empty = entries.is_empty();
                let mut k = Range {
                    min: if empty { 0 } else { u64::MAX },
                    max: 0,
                };
                let mut v = k;
                let mut vt = Ty::Dyn;
                for (ke, ve) in entries {
                    sum = sum.add(self.cost(ke)?).add(self.cost(ve)?);
                    k = k.union(self.size_or_unknown(ke));
                    v = v.union(self.size_or_unknown(ve));
                    vt = self.ty(ve);
                }
                self.entries.insert(
                    e.id,
                    Entry {
                        container: Container::Map,
                        key: k,
                        val: v,
                    },
                );
                (sum.add(fixed(30)), Ty::Map(Box::new(vt)))
            }
            ExprKind::Comprehension(c) => return self.comprehension(e, c),
        };
        self.types.insert(e.id, t);
        Ok(c)
    }

    fn ty(&self, e: &Expr) -> Ty<'a> {
        self.types.get(&e.id).cloned().unwrap_or(Ty::Dyn)
    }

    /// cel-go `getPath`.
    fn path(&self, e: &Expr) -> Vec<String> {
        if let ExprKind::Ident(n) = &e.kind
            && let Some(l) = self.locals.get(n).and_then(|s| s.last())
        {
            return l.path.clone();
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    /// apiextensions `sizeEstimator.EstimateSize`: the declared type at `path` (its head, the variable, cut off).
    fn estimate_size(&self, path: &[String]) -> Option<Range> {
        let (_, rest) = path.split_first()?;
        let mut node = self.root;
        for name in rest {
            node = match (name.as_str(), &node.kind) {
                ("@items", DeclKind::List(e)) | ("@values", DeclKind::Map(e)) => e,
                // The keys of a map are `apiservercel.StringType`, whose MaxElements is 0.
                ("@keys", DeclKind::Map(_)) => return Some(fixed(0)),
                (_, DeclKind::Object(f)) => f.get(name)?,
                _ => return None,
            };
        }
        Some(Range {
            min: 0,
            max: u64::try_from(node.max_elements).unwrap_or(0),
        })
    }

    /// cel-go `computeSize`.
    fn compute_size(&mut self, e: &Expr) -> Option<Range> {
        if let Some(s) = self.sizes.get(&e.id) {
            return Some(*s);
        }
        match &e.kind {
            ExprKind::Lit(Lit::Str(s)) => return Some(fixed(s.chars().count() as u64)),
            ExprKind::Lit(_) => return Some(fixed(1)),
            ExprKind::List(i) => return Some(fixed(i.len() as u64)),
            ExprKind::Map(i) => return Some(fixed(i.len() as u64)),
            _ => {}
        }
        let path = self.path(e);
        if let Some(s) = self.estimate_size(&path) {
            self.sizes.insert(e.id, s);
            return Some(s);
        }
        if is_scalar(&self.ty(e)) {
            return Some(fixed(1));
        }
        if let ExprKind::Ident(n) = &e.kind {
            return self
                .locals
                .get(n)
                .and_then(|s| s.last())
                .and_then(|l| l.size);
        }
        None
    }

    fn size_or_unknown(&mut self, e: &Expr) -> Range {
        self.compute_size(e).unwrap_or(UNKNOWN)
    }

    /// cel-go `computeEntrySize`.
    fn entry(&self, e: &Expr) -> Option<Entry> {
        if let Some(s) = self.entries.get(&e.id) {
            return Some(*s);
        }
        if let ExprKind::Ident(n) = &e.kind {
            return self
                .locals
                .get(n)
                .and_then(|s| s.last())
                .and_then(|l| l.entry);
        }
        None
    }

    fn comprehension(&mut self, e: &Expr, c: &Comprehension) -> Result<Range, Unknown> {
        let mut sum = self.cost(&c.range)?;
        sum = sum.add(self.cost(&c.accu_init)?);
        let range_ty = self.ty(&c.range);
        let elem_ty = match &range_ty {
            Ty::List(e) => (**e).clone(),
            Ty::Map(_) => Ty::String,
            Ty::Dyn => Ty::Dyn,
            other => return Err(format!("a macro over {other:?}")),
        };
        let accu_ty = match &c.accu_init.kind {
            ExprKind::List(_) => Ty::List(Box::new(elem_ty.clone())),
            _ => self.ty(&c.accu_init),
        };
        let accu = Local {
            path: self.path(&c.accu_init),
            size: self.compute_size(&c.accu_init),
            entry: self.entry(&c.accu_init),
            ty: accu_ty,
        };
        self.locals
            .entry(c.accu_var.clone())
            .or_default()
            .push(accu);
        let entry = self.entry(&c.range);
        let container = entry.map(|en| en.container).unwrap_or(match range_ty {
            Ty::List(_) => Container::List,
            _ => Container::Map,
        });
        let (size, sub) = if container == Container::List {
            (entry.map(|en| en.val), "@items")
        } else {
            (entry.map(|en| en.key), "@keys")
        };
        let mut path = self.path(&c.range);
        path.push(sub.into());
        self.locals
            .entry(c.iter_var.clone())
            .or_default()
            .push(Local {
                path,
                size,
                entry: None,
                ty: elem_ty,
            });
        let loop_cost = self.cost(&c.cond);
        let step_cost = self.cost(&c.step);
        self.pop(&c.iter_var);
        let (loop_cost, step_cost) = (loop_cost?, step_cost?);
        let result = self.cost(&c.result);
        self.pop(&c.accu_var);
        sum = sum.add(result?);
        let range_cnt = self.size_or_unknown(&c.range);
        sum = sum.add(range_cnt.mul(step_cost.add(loop_cost)));
        match &c.accu_init.kind {
            ExprKind::Lit(_) => {
                if let Some(s) = self.compute_size(&c.accu_init) {
                    self.sizes.insert(e.id, s);
                }
            }
            ExprKind::List(_) | ExprKind::Map(_) => {
                self.sizes.insert(e.id, range_cnt);
                if let Some(en) = self.entry(&c.step) {
                    self.entries.insert(e.id, en);
                }
            }
            _ => {}
        }
        let t = self.ty(&c.result);
        self.types.insert(e.id, t);
        Ok(sum)
    }

    fn pop(&mut self, name: &str) {
        if let Some(s) = self.locals.get_mut(name) {
            s.pop();
        }
    }

    #[allow(clippy::too_many_lines)]
    fn call(
        &mut self,
        e: &Expr,
        function: &str,
        target: Option<&Expr>,
        args: &[Expr],
    ) -> Result<Range, Unknown> {
        if function == "dyn" && target.is_none() && args.len() == 1 {
            let c = self.cost(&args[0])?;
            if let Some(s) = self.compute_size(&args[0]) {
                self.sizes.insert(e.id, s);
            }
            if let Some(en) = self.entry(&args[0]) {
                self.entries.insert(e.id, en);
            }
            self.types.insert(e.id, Ty::Dyn);
            return Ok(fixed(1).add(c));
        }
        let mut arg_costs = Vec::with_capacity(args.len());
        let mut arg_sizes = Vec::with_capacity(args.len());
        for a in args {
            arg_costs.push(self.cost(a)?);
            arg_sizes.push(self.compute_size(a));
        }
        let mut sum = fixed(0);
        let mut target_size = None;
        if let Some(t) = target {
            sum = sum.add(self.cost(t)?);
            target_size = Some(self.compute_size(t));
        }
        let arg_sum = arg_costs.iter().fold(fixed(0), |a, c| a.add(*c));
        let asz = |i: usize| arg_sizes.get(i).copied().flatten().unwrap_or(UNKNOWN);
        let tsz = target_size.flatten().unwrap_or(UNKNOWN);
        let at: Vec<Ty<'a>> = args.iter().map(|a| self.ty(a)).collect();
        let tt = target.map(|t| self.ty(t));
        let stringy = |t: &Ty<'_>| matches!(t, Ty::String | Ty::Bytes);
        let default = fixed(1).add(arg_sum);
        let mut result_size: Option<Range> = None;
        let (cost, ty) = match (function, target.is_some(), args.len()) {
            ("_&&_" | "_||_", false, 2) => (
                Range {
                    min: arg_costs[0].min,
                    max: arg_costs[0].add(arg_costs[1]).max,
                },
                Ty::Bool,
            ),
            ("_?_:_", false, 3) => {
                let s = asz(1).union(asz(2));
                let en = union_entry(self.entry(&args[1]), self.entry(&args[2]));
                if let Some(en) = en {
                    self.entries.insert(e.id, en);
                }
                result_size = Some(s);
                let t = if matches!(at[1], Ty::Null) {
                    at[2].clone()
                } else {
                    at[1].clone()
                };
                (arg_costs[0].add(arg_costs[1].union(arg_costs[2])), t)
            }
            ("_==_" | "_!=_", false, 2) => {
                if function == "_==_" && matches!((&at[0], &at[1]), (Ty::Format, Ty::Format)) {
                    (
                        Range {
                            min: 1,
                            max: MAX_FORMAT_SIZE,
                        }
                        .factor(STRING_TRAVERSAL)
                        .add(arg_sum),
                        Ty::Bool,
                    )
                } else if function == "_==_"
                    && matches!((&at[0], &at[1]), (Ty::Quantity, Ty::Quantity))
                {
                    (fixed(1).add(arg_sum), Ty::Bool)
                } else {
                    (compare_cost(asz(0), asz(1)).add(arg_sum), Ty::Bool)
                }
            }
            ("_<_" | "_<=_" | "_>_" | "_>=_", false, 2) => {
                if stringy(&at[0]) && stringy(&at[1]) {
                    (compare_cost(asz(0), asz(1)).add(arg_sum), Ty::Bool)
                } else if matches!(at[0], Ty::Dyn) || matches!(at[1], Ty::Dyn) {
                    return Err(format!("`{function}` over a dynamic value"));
                } else {
                    (default, Ty::Bool)
                }
            }
            ("_+_", false, 2) => match (&at[0], &at[1]) {
                (Ty::String, Ty::String) | (Ty::Bytes, Ty::Bytes) | (Ty::List(_), Ty::List(_)) => {
                    let rs = asz(0).add(asz(1));
                    if let Some(en) = union_entry(self.entry(&args[0]), self.entry(&args[1])) {
                        self.entries.insert(e.id, en);
                    }
                    result_size = Some(rs);
                    let c = if matches!(at[0], Ty::List(_)) {
                        fixed(1).add(arg_sum)
                    } else {
                        rs.factor(STRING_TRAVERSAL).add(arg_sum)
                    };
                    (c, at[0].clone())
                }
                (Ty::Int, Ty::Int) | (Ty::Uint, Ty::Uint) | (Ty::Double, Ty::Double) => {
                    (default, at[0].clone())
                }
                (a, b) => return Err(format!("`+` of {a:?} and {b:?}")),
            },
            ("_-_" | "_*_" | "_/_" | "_%_", false, 2) => match (&at[0], &at[1]) {
                (Ty::Int, Ty::Int) | (Ty::Uint, Ty::Uint) | (Ty::Double, Ty::Double) => {
                    (default, at[0].clone())
                }
                (a, b) => return Err(format!("`{function}` of {a:?} and {b:?}")),
            },
            ("!_" | "@not_strictly_false", false, 1) => (default, Ty::Bool),
            ("-_", false, 1) => (default, at[0].clone()),
            ("@in", false, 2) => match &at[1] {
                Ty::List(_) => (asz(1).factor(1.0).add(arg_sum), Ty::Bool),
                Ty::Map(_) => (default, Ty::Bool),
                other => return Err(format!("`in` over {other:?}")),
            },
            ("_[_]", false, 2) => {
                let (sub, t) = match &at[0] {
                    Ty::List(el) => ("@items", (**el).clone()),
                    Ty::Map(v) => ("@values", (**v).clone()),
                    other => return Err(format!("index of {other:?}")),
                };
                let mut p = self.path(&args[0]);
                p.push(sub.into());
                self.paths.insert(e.id, p);
                result_size = self.entry(&args[0]).map(|en| en.val);
                (default, t)
            }
            ("size", false, 1) | ("size", true, 0) => {
                let operand = if target.is_some() {
                    tt.clone()
                } else {
                    Some(at[0].clone())
                };
                match operand {
                    Some(Ty::String | Ty::Bytes | Ty::List(_) | Ty::Map(_) | Ty::Dyn) => {
                        (default, Ty::Int)
                    }
                    other => return Err(format!("size of {other:?}")),
                }
            }
            ("matches", true, 1) if matches!(tt, Some(Ty::String)) => {
                let str_cost = tsz.add(fixed(1)).factor(STRING_TRAVERSAL);
                let re_cost = asz(0).factor(REGEX_LENGTH);
                (str_cost.mul(re_cost).add(arg_sum), Ty::Bool)
            }
            ("contains", true, 1) if matches!(tt, Some(Ty::String)) => (
                tsz.factor(STRING_TRAVERSAL)
                    .mul(asz(0).factor(STRING_TRAVERSAL))
                    .add(arg_sum),
                Ty::Bool,
            ),
            ("startsWith" | "endsWith", true, 1) if matches!(tt, Some(Ty::String)) => {
                (asz(0).factor(STRING_TRAVERSAL).add(arg_sum), Ty::Bool)
            }
            // k8s.io/apiserver library: strings, formats, quantities.
            ("split", true, 1 | 2) if matches!(tt, Some(Ty::String)) => {
                let mut max = tsz.max;
                if let Some(ExprKind::Lit(Lit::Int(n))) = args.get(1).map(|a| &a.kind) {
                    max = u64::try_from(*n).unwrap_or(max);
                }
                result_size = Some(Range { min: 0, max });
                (
                    tsz.factor(2.0 * STRING_TRAVERSAL).add(arg_sum),
                    Ty::List(Box::new(Ty::String)),
                )
            }
            ("lowerAscii" | "upperAscii" | "trim", true, 0) if matches!(tt, Some(Ty::String)) => {
                result_size = Some(tsz);
                (tsz.factor(STRING_TRAVERSAL).add(arg_sum), Ty::String)
            }
            ("validate", true, 1) if matches!(tt, Some(Ty::Format)) => (
                asz(0)
                    .factor(STRING_TRAVERSAL)
                    .factor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH)
                    .add(arg_sum),
                Ty::Optional(Box::new(Ty::List(Box::new(Ty::String)))),
            ),
            (f, false, 0) if f.starts_with("format.") && f != "format.named" => {
                (default, Ty::Format)
            }
            ("quantity", false, 1) => (asz(0).factor(STRING_TRAVERSAL).add(arg_sum), Ty::Quantity),
            ("isQuantity", false, 1) => (asz(0).factor(STRING_TRAVERSAL).add(arg_sum), Ty::Bool),
            ("hasValue", true, 0) if matches!(tt, Some(Ty::Optional(_))) => (default, Ty::Bool),
            ("value", true, 0) => match tt {
                Some(Ty::Optional(inner)) => (default, *inner),
                other => return Err(format!("value() of {other:?}")),
            },
            ("bytes", false, 1) if matches!(at[0], Ty::String) => {
                let s = asz(0);
                result_size = Some(Range {
                    min: s.min,
                    max: s.max.saturating_mul(4),
                });
                (s.factor(STRING_TRAVERSAL).add(arg_sum), Ty::Bytes)
            }
            ("string", false, 1) => match at[0] {
                Ty::Bytes => {
                    let s = asz(0);
                    result_size = Some(Range {
                        min: s.min / 4,
                        max: s.max,
                    });
                    (s.factor(STRING_TRAVERSAL).add(arg_sum), Ty::String)
                }
                Ty::String
                | Ty::Int
                | Ty::Uint
                | Ty::Double
                | Ty::Bool
                | Ty::Duration
                | Ty::Timestamp => (default, Ty::String),
                ref other => return Err(format!("string() of {other:?}")),
            },
            ("int", false, 1) => (default, Ty::Int),
            ("uint", false, 1) => (default, Ty::Uint),
            ("double", false, 1) => (default, Ty::Double),
            (f, member, n) => {
                return Err(format!(
                    "function `{f}` ({}{n} arguments)",
                    if member { "member, " } else { "" }
                ));
            }
        };
        let size = result_size.or_else(|| {
            self.types.insert(e.id, ty.clone());
            self.compute_size(e)
        });
        if let Some(s) = size {
            self.sizes.insert(e.id, s);
        }
        self.types.insert(e.id, ty);
        Ok(sum.add(cost))
    }
}

/// cel-go's cost of `==`, `!=` and the string/bytes orderings: the shorter operand traversed.
fn compare_cost(l: Range, r: Range) -> Range {
    let smallest = l.max.min(r.max);
    Range {
        min: u64::from(smallest > 0),
        max: smallest,
    }
    .factor(STRING_TRAVERSAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn max_cost(schema: serde_json::Value, rule: &str, optional: bool) -> u64 {
        let d = super::super::decl::decl_of(schema.as_object().expect("object")).expect("type");
        let e = super::super::parse::parse(rule).expect("parses");
        Coster::new(&d, optional).cost(&e).expect("estimates").max
    }

    #[test]
    fn costs_follow_cel_go() {
        let name = json!({"type": "string", "maxLength": 63});
        // validate: ceil(ceil(252 * 0.1) * 32) = 832, + the format call 1, + self 1, + hasValue 1, + `!` 1.
        assert_eq!(
            max_cost(
                name.clone(),
                "!format.dns1123Label().validate(self).hasValue()",
                false
            ),
            836
        );
        // `==` with '' traverses nothing: 0 + self 1.
        assert_eq!(max_cost(name, "self == ''", false), 1);
        let list = json!({"type": "array", "maxItems": 10, "items": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 5}}}});
        // all: 10 × (step `@result && has(x.a)` = 1 + 1 + cond 2) + result 1 = 41, + self 1.
        assert_eq!(max_cost(list, "self.all(x, has(x.a))", false), 42);
    }
}
