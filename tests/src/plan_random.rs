//! Schema-aware random objects for differential runs, driven by vgc's own validation plan (`CratePlan`): it knows
//! every type's fields and JSON names, pointers, lists, maps and well-known value types, and it harvests from the
//! checks the values that reach deep branches — enum members, `neq` values, limits ± 1 (as numbers, string lengths
//! and list sizes), format names (each with valid and invalid samples), union member names for discriminators,
//! modes of `ifMode` rules, `item` selector values for list-map keys, and the options `ifEnabled`/`ifDisabled` and
//! `enumExclude` test. Old objects are mutations of the new one, so ratcheting and update rules see both equal and
//! changed subtrees. Output is plain JSON that Go's `encoding/json` and serde decode alike (integers in range,
//! valid quantities and times).

use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use vgc_analysis::TypeKey;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{Check, CheckKind, FieldPlan, NeqValue, RustTy, TypePlan};

/// xorshift64*: small and deterministic.
pub struct Rng(u64);

impl Rng {
    /// A generator for a seed (0 is remapped; xorshift needs a non-zero state).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n.max(1) as u64).unwrap_or(0)
    }
    /// True with probability `pct`%.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn pick<T: Clone>(&mut self, pool: &[T]) -> T {
        pool[self.below(pool.len())].clone()
    }
}

/// Values harvested from checks for one field (or one typedef).
#[derive(Default, Clone, Debug)]
struct Hints {
    strings: BTreeSet<String>,
    ints: BTreeSet<i128>,
    lens: BTreeSet<usize>,
    counts: BTreeSet<usize>,
    formats: BTreeSet<String>,
    keys: BTreeSet<String>,
    key_formats: BTreeSet<String>,
    /// The field takes part in a struct-level rule (union, mode, dependency, subfield): include it often.
    interesting: bool,
}

impl Hints {
    fn merge(&mut self, o: &Hints) {
        self.strings.extend(o.strings.iter().cloned());
        self.ints.extend(o.ints.iter().copied());
        self.lens.extend(o.lens.iter().copied());
        self.counts.extend(o.counts.iter().copied());
        self.formats.extend(o.formats.iter().cloned());
        self.keys.extend(o.keys.iter().cloned());
        self.key_formats.extend(o.key_formats.iter().cloned());
        self.interesting |= o.interesting;
    }
}

/// Samples per format name: valid ones first, then near misses. Unknown formats fall back to the generic pool.
fn format_samples(format: &str) -> Vec<String> {
    let v: &[&str] = match format {
        "k8s-short-name" | "k8s-dns-label" | "k8s-long-name-caseless" => {
            &["a", "web-1", "x", "Bad_Name", "-a", "a-", "a.b", ""]
        }
        "k8s-long-name" | "k8s-dns-subdomain" | "k8s-resource-pool-name" => {
            &["a", "a.b", "example.com", "a..b", "Bad", "a_b", "", "-a.b"]
        }
        "k8s-label-key" | "k8s-qualified-name" | "k8s-resource-fully-qualified-name" => &[
            "a",
            "example.com/a",
            "a/b/c",
            "/a",
            "Example.com/A",
            "a_b",
            "",
            "kubernetes.io/x",
        ],
        "k8s-label-value" => &["", "a", "a-b", "A.b_c", "-a", "a b"],
        "k8s-uuid" => &[
            "123e4567-e89b-12d3-a456-426614174000",
            "123E4567-E89B-12D3-A456-426614174000",
            "nope",
            "",
        ],
        "k8s-ip" | "k8s-ip-sloppy" => {
            &["10.0.0.1", "::1", "010.0.0.1", "1.2.3", "", "fe80::1%eth0"]
        }
        "k8s-cidr" | "k8s-cidr-sloppy" => &[
            "10.0.0.0/8",
            "10.0.0.1/8",
            "::/0",
            "10/8",
            "",
            "010.0.0.0/8",
        ],
        "k8s-condition-reason" => &[
            "MyName",
            "my_name",
            "ReasonA,ReasonB",
            "A:B_",
            "a",
            "1a",
            "a,",
            "a-b",
            "",
        ],
        "k8s-extended-resource-name" => &[
            "example.com/gpu",
            "gpu",
            "kubernetes.io/x",
            "requests.a/b",
            "",
        ],
        "k8s-path-segment-name" => &["a", ".", "..", "a/b", "a%b", ""],
        "k8s-resource-pool-name-or-empty" => &["", "a", "a/b", "A"],
        _ => &["a", "", "Bad_Value", "a.b", "example.com/a", "10.0.0.1"],
    };
    v.iter().map(|s| (*s).to_string()).collect()
}

const GENERIC_STRINGS: &[&str] = &[
    "a",
    "b",
    "",
    "web",
    "Bad_Name",
    "a.b",
    "example.com/x",
    "x-",
];

/// The generator: type table, harvested hints, options and root types.
pub struct Generator<'a> {
    types: HashMap<&'a TypeKey, &'a TypePlan>,
    /// Hints per (struct type, Rust field name).
    fields: HashMap<(TypeKey, String), Hints>,
    /// Hints per typedef (type-level checks).
    typedefs: HashMap<TypeKey, Hints>,
    /// Option names any check tests.
    pub options: Vec<String>,
    /// Roots with validations: (key, Rust path within the crate, subresources registered). The path names the
    /// struct (which implements `Validate`) or, for a typedef root, its `validate_<type>` function.
    pub roots: Vec<(TypeKey, String, Vec<String>)>,
    nodes: usize,
}

fn named(ty: &RustTy) -> Option<&TypeKey> {
    match ty {
        RustTy::Named(k) => Some(k),
        RustTy::Option(t, _) | RustTy::Vec(t) | RustTy::Map(t) => named(t),
        _ => None,
    }
}

impl<'a> Generator<'a> {
    /// Builds the tables from a plan.
    pub fn new(plan: &'a CratePlan) -> Self {
        let mut g = Generator {
            types: HashMap::new(),
            fields: HashMap::new(),
            typedefs: HashMap::new(),
            options: Vec::new(),
            roots: Vec::new(),
            nodes: 0,
        };
        for m in &plan.modules {
            let module = vgc_codegen::ident::module_path(&plan.go_module, &m.pkg);
            for t in &m.types {
                g.types.insert(&t.key, t);
                if t.root && t.has_validations {
                    let path = if t.fields.is_some() {
                        format!("{module}::{}", vgc_codegen::ident::type_name(&t.key.name))
                    } else {
                        format!("{module}::{}", vgc_codegen::ident::validate_fn(&t.key))
                    };
                    let subs = t
                        .subresources
                        .as_ref()
                        .map(|s| s.allowed.clone())
                        .unwrap_or_default();
                    g.roots.push((t.key.clone(), path, subs));
                }
            }
        }
        let mut options = BTreeSet::new();
        for m in &plan.modules {
            for t in &m.types {
                let mut own = Hints::default();
                for c in &t.checks {
                    g.harvest(&t.key, None, c, &mut own, &mut options);
                }
                if t.fields.is_none() {
                    g.typedefs.entry(t.key.clone()).or_default().merge(&own);
                }
                for f in t.fields.iter().flatten() {
                    let mut h = Hints::default();
                    for c in &f.checks {
                        g.harvest(&t.key, Some(&f.ty), c, &mut h, &mut options);
                    }
                    g.fields
                        .entry((t.key.clone(), f.go_field.clone()))
                        .or_default()
                        .merge(&h);
                }
            }
        }
        g.options = options.into_iter().collect();
        g
    }

    fn field_hints(&mut self, owner: &TypeKey, field: &str) -> &mut Hints {
        self.fields
            .entry((owner.clone(), field.to_string()))
            .or_default()
    }

    /// Harvests one check of `owner` (on a field of type `field_ty`, or type-level when `None`) into `h`.
    fn harvest(
        &mut self,
        owner: &TypeKey,
        field_ty: Option<&RustTy>,
        c: &Check,
        h: &mut Hints,
        options: &mut BTreeSet<String>,
    ) {
        let near = |n: i64| -> Vec<usize> {
            [n - 1, n, n + 1]
                .into_iter()
                .filter_map(|x| usize::try_from(x).ok())
                .collect()
        };
        match &c.kind {
            CheckKind::Minimum(n) | CheckKind::Maximum(n) => {
                h.ints.extend([n - 1, *n, n + 1]);
            }
            CheckKind::MinimumQuantity(q) | CheckKind::MaximumQuantity(q) => {
                h.strings.insert(q.clone());
            }
            CheckKind::MinimumDuration(n) | CheckKind::MaximumDuration(n) => {
                let n = i128::from(*n);
                h.ints.extend([n - 1, n, n + 1]);
            }
            CheckKind::MinLength(n)
            | CheckKind::MaxLength(n)
            | CheckKind::MaxLengthBytes(n)
            | CheckKind::MaxBytes(n)
            | CheckKind::MaxBytesSlice(n) => {
                h.lens.extend(near(*n).into_iter().filter(|l| *l <= 400));
            }
            CheckKind::MinItems(n)
            | CheckKind::MaxItems(n)
            | CheckKind::MinProperties(n)
            | CheckKind::MaxProperties(n) => {
                h.counts.extend(near(*n).into_iter().filter(|l| *l <= 40));
            }
            CheckKind::Format(f) => {
                h.formats.insert(f.name().to_string());
            }
            CheckKind::Enum(e) => {
                h.strings.extend(e.values.iter().cloned());
                for x in &e.exclusions {
                    h.strings.insert(x.value.clone());
                    options.insert(x.option.clone());
                }
                h.strings.insert("NotAMember".into());
            }
            CheckKind::Neq(v) | CheckKind::Eq(v) => match v {
                NeqValue::Str(s) => {
                    h.strings.insert(s.clone());
                }
                NeqValue::Int(i) => {
                    h.ints.insert(i128::from(*i));
                }
                NeqValue::Bool(_) => {}
            },
            CheckKind::EachVal(inner, _, _) => {
                for i in inner {
                    let elem = field_ty.and_then(|t| match t {
                        RustTy::Vec(e) | RustTy::Map(e) => Some((**e).clone()),
                        RustTy::Option(t, _) => match &**t {
                            RustTy::Vec(e) | RustTy::Map(e) => Some((**e).clone()),
                            _ => None,
                        },
                        _ => None,
                    });
                    self.harvest(owner, elem.as_ref(), i, h, options);
                }
            }
            CheckKind::EachKey(inner) => {
                let mut k = Hints::default();
                for i in inner {
                    self.harvest(owner, None, i, &mut k, options);
                }
                h.keys.extend(k.strings);
                h.key_formats.extend(k.formats);
            }
            CheckKind::IfOption(p) => {
                options.insert(p.option.clone());
                self.harvest(owner, field_ty, &p.inner, h, options);
            }
            CheckKind::IfSubresource(p) => self.harvest(owner, field_ty, &p.inner, h, options),
            CheckKind::Subfield(sf) => {
                // The member belongs to the struct this field (or type) holds.
                let holder = field_ty
                    .and_then(named)
                    .cloned()
                    .unwrap_or_else(|| owner.clone());
                let mut mh = Hints {
                    interesting: true,
                    ..Hints::default()
                };
                self.harvest(&holder, Some(&sf.member.ty), &sf.inner, &mut mh, options);
                self.field_hints(&holder, &sf.member.go).merge(&mh);
                h.interesting = true;
            }
            CheckKind::Item(ip) => {
                if let Some(elem) = named(&ip.elem).cloned() {
                    for (f, _, v) in &ip.selector {
                        let fh = self.field_hints(&elem, f);
                        fh.interesting = true;
                        match v {
                            NeqValue::Str(s) => {
                                fh.strings.insert(s.clone());
                            }
                            NeqValue::Int(i) => {
                                fh.ints.insert(i128::from(*i));
                            }
                            NeqValue::Bool(_) => {}
                        }
                    }
                    let mut eh = Hints::default();
                    self.harvest(&elem, Some(&ip.elem), &ip.inner, &mut eh, options);
                }
                h.interesting = true;
                h.counts.extend([1, 2, 3]);
            }
            CheckKind::ListUnion(lu) => {
                for (_, sel) in &lu.members {
                    for (f, _, v) in sel {
                        if let Some(elem) = field_ty.and_then(named).cloned()
                            && let NeqValue::Str(s) = v
                        {
                            let fh = self.field_hints(&elem, f);
                            fh.interesting = true;
                            fh.strings.insert(s.clone());
                        }
                    }
                }
                h.counts.extend([1, 2, 3]);
            }
            CheckKind::Union(u) => {
                for m in &u.members {
                    self.field_hints(owner, &m.member.go).interesting = true;
                }
                if let Some(d) = u.discriminator.as_ref().map(|d| &d.go) {
                    let names: Vec<String> =
                        u.members.iter().map(|m| m.member_name.clone()).collect();
                    let dh = self.field_hints(owner, d);
                    dh.interesting = true;
                    dh.strings.extend(names);
                    dh.strings.insert(String::new());
                    dh.strings.insert("Bogus".into());
                }
            }
            CheckKind::Dependent(d) => {
                self.field_hints(owner, &d.trigger.go).interesting = true;
                self.field_hints(owner, &d.dependent.go).interesting = true;
            }
            CheckKind::Discriminated(m) => {
                let modes: Vec<String> = m.rules.iter().map(|(v, _)| v.clone()).collect();
                let dh = self.field_hints(owner, &m.discriminator.field);
                dh.interesting = true;
                if m.discriminator.kind == vgc_lowering::plan::DiscriminatorKind::String {
                    dh.strings.extend(modes);
                    dh.strings.insert("OtherMode".into());
                }
                let mut mh = Hints {
                    interesting: true,
                    ..Hints::default()
                };
                for (_, checks) in &m.rules {
                    for c in checks {
                        self.harvest(owner, Some(&m.member.ty), c, &mut mh, options);
                    }
                }
                self.field_hints(owner, &m.member.go).merge(&mh);
            }
            _ => {}
        }
    }

    /// Keeps only the roots `keep` accepts (e.g. those the reference can run).
    pub fn retain_roots(&mut self, keep: impl Fn(&TypeKey) -> bool) {
        self.roots.retain(|(k, _, _)| keep(k));
    }

    /// A random object of the root `key`.
    pub fn object(&mut self, r: &mut Rng, key: &TypeKey) -> Value {
        self.nodes = 0;
        self.value(r, &RustTy::Named(key.clone()), &Hints::default(), 0)
    }

    /// An old object: `new` with a few subtrees regenerated, dropped or added.
    pub fn mutate(&mut self, r: &mut Rng, key: &TypeKey, new: &Value) -> Value {
        self.nodes = 0;
        self.mutate_value(r, &RustTy::Named(key.clone()), &Hints::default(), new, 0)
    }

    /// A random option set over the options the plan tests: each one absent, on or off.
    pub fn option_set(&self, r: &mut Rng) -> BTreeMap<String, bool> {
        let mut m = BTreeMap::new();
        for o in &self.options {
            match r.below(10) {
                0..=2 => {}
                3..=6 => {
                    m.insert(o.clone(), true);
                }
                _ => {
                    m.insert(o.clone(), false);
                }
            }
        }
        m
    }

    fn string(&mut self, r: &mut Rng, h: &Hints) -> String {
        let roll = r.below(100);
        if roll < 45 && !h.strings.is_empty() {
            return r.pick(&h.strings.iter().cloned().collect::<Vec<_>>());
        }
        if roll < 75 && !h.formats.is_empty() {
            let f = r.pick(&h.formats.iter().cloned().collect::<Vec<_>>());
            return r.pick(&format_samples(&f));
        }
        if roll < 90 && !h.lens.is_empty() {
            let n = r.pick(&h.lens.iter().copied().collect::<Vec<_>>());
            return "a".repeat(n);
        }
        r.pick(GENERIC_STRINGS).to_string()
    }

    fn key(&mut self, r: &mut Rng, h: &Hints) -> String {
        if !h.keys.is_empty() && r.chance(50) {
            return r.pick(&h.keys.iter().cloned().collect::<Vec<_>>());
        }
        if !h.key_formats.is_empty() && r.chance(70) {
            let f = r.pick(&h.key_formats.iter().cloned().collect::<Vec<_>>());
            return r.pick(&format_samples(&f));
        }
        r.pick(&["a", "b", "example.com/c", "Bad Key", ""])
            .to_string()
    }

    fn builtin(&mut self, r: &mut Rng, b: Builtin, h: &Hints) -> Value {
        match b {
            Builtin::Bool => json!(r.chance(50)),
            Builtin::String => json!(self.string(r, h)),
            Builtin::Float32 | Builtin::Float64 => json!(r.pick(&[0.0, 0.5, 1.0, -1.0, 100.0])),
            _ => {
                let (lo, hi) = b.int_range().unwrap_or((0, 0));
                let mut pool: Vec<i128> = h.ints.iter().copied().collect();
                if pool.is_empty() || r.chance(30) {
                    pool.extend([0, 1, 2, -1, 10, 100, 65536]);
                }
                let v = r.pick(&pool).clamp(lo, hi);
                i64::try_from(v).map_or_else(|_| json!(0), |v| json!(v))
            }
        }
    }

    fn well_known(r: &mut Rng, w: WellKnown) -> Value {
        match w {
            WellKnown::Quantity => json!(r.pick(&["1", "100m", "2Gi", "0", "-1", "1.5", "1000"])),
            WellKnown::Time => json!(r.pick(&["2024-01-01T00:00:00Z", "2025-06-30T12:00:00Z"])),
            WellKnown::MicroTime => {
                json!(r.pick(&["2024-01-01T00:00:00.000000Z", "2025-06-30T12:00:00.123456Z"]))
            }
            WellKnown::Duration => json!(r.pick(&["1s", "5m0s", "0s"])),
            WellKnown::IntOrString => r.pick(&[json!(1), json!(0), json!("50%"), json!("a")]),
            WellKnown::RawExtension => r.pick(&[json!({}), json!({"a": 1})]),
            WellKnown::FieldsV1 => r.pick(&[json!({}), json!({"f:a": {}})]),
            WellKnown::Bytes => json!(r.pick(&["YWJj", "", "eA=="])),
        }
    }

    fn count(&mut self, r: &mut Rng, h: &Hints) -> usize {
        if !h.counts.is_empty() && r.chance(40) {
            return r.pick(&h.counts.iter().copied().collect::<Vec<_>>());
        }
        r.pick(&[0, 1, 1, 2, 2, 3])
    }

    fn value(&mut self, r: &mut Rng, ty: &RustTy, h: &Hints, depth: usize) -> Value {
        self.nodes += 1;
        match ty {
            RustTy::Builtin(b) => self.builtin(r, *b, h),
            // A byte slice near the field's byte or item limits (`maxBytes`, `maxItems`, `minItems` on `[]byte`).
            RustTy::WellKnown(WellKnown::Bytes)
                if (!h.lens.is_empty() || !h.counts.is_empty()) && r.chance(70) =>
            {
                let sizes: Vec<usize> = h.lens.iter().chain(&h.counts).copied().collect();
                json!(base64_of_a(r.pick(&sizes)))
            }
            RustTy::WellKnown(w) => Self::well_known(r, *w),
            RustTy::Json => r.pick(&[json!({}), json!("x"), json!(1)]),
            RustTy::Option(inner, _) => {
                if r.chance(8) {
                    Value::Null
                } else {
                    self.value(r, inner, h, depth)
                }
            }
            RustTy::Vec(elem) => {
                let n = if depth > 8 || self.nodes > 300 {
                    usize::from(r.chance(20))
                } else {
                    self.count(r, h)
                };
                Value::Array((0..n).map(|_| self.value(r, elem, h, depth + 1)).collect())
            }
            RustTy::Map(v) => {
                let n = if depth > 8 || self.nodes > 300 {
                    0
                } else {
                    self.count(r, h)
                };
                let mut m = Map::new();
                for _ in 0..n {
                    let k = self.key(r, h);
                    let val = self.value(r, v, h, depth + 1);
                    m.insert(k, val);
                }
                Value::Object(m)
            }
            RustTy::Named(k) => {
                let Some(t) = self.types.get(k).copied() else {
                    return json!({});
                };
                match (&t.fields, &t.alias_of) {
                    (Some(fields), _) => Value::Object(self.fields_of(r, k, fields, depth)),
                    (None, Some(alias)) => {
                        let mut merged = h.clone();
                        if let Some(th) = self.typedefs.get(k) {
                            merged.merge(th);
                        }
                        self.value(r, alias, &merged, depth)
                    }
                    (None, None) => json!({}),
                }
            }
        }
    }

    fn include(&mut self, r: &mut Rng, owner: &TypeKey, f: &FieldPlan, depth: usize) -> bool {
        let interesting = f.has_work()
            || self
                .fields
                .get(&(owner.clone(), f.go_field.clone()))
                .is_some_and(|h| h.interesting);
        let budget = self.nodes > 250 || depth > 9;
        let pct = match (interesting, budget) {
            (true, false) => 55,
            (true, true) => 10,
            (false, false) => 6,
            (false, true) => 0,
        };
        r.chance(pct)
    }

    fn hints_of(&self, owner: &TypeKey, f: &FieldPlan) -> Hints {
        self.fields
            .get(&(owner.clone(), f.go_field.clone()))
            .cloned()
            .unwrap_or_default()
    }

    fn fields_of(
        &mut self,
        r: &mut Rng,
        owner: &TypeKey,
        fields: &[FieldPlan],
        depth: usize,
    ) -> Map<String, Value> {
        let mut m = Map::new();
        for f in fields.iter().filter(|f| !f.skip) {
            if f.flatten {
                if let Value::Object(inner) = self.value(r, &f.ty, &Hints::default(), depth + 1) {
                    m.extend(inner);
                }
                continue;
            }
            if !self.include(r, owner, f, depth) {
                continue;
            }
            let h = self.hints_of(owner, f);
            let v = self.value(r, &f.ty, &h, depth + 1);
            m.insert(f.json_name.clone(), v);
        }
        m
    }

    fn mutate_value(
        &mut self,
        r: &mut Rng,
        ty: &RustTy,
        h: &Hints,
        cur: &Value,
        depth: usize,
    ) -> Value {
        if r.chance(6) {
            return self.value(r, ty, h, depth);
        }
        match (ty, cur) {
            (RustTy::Option(inner, _), v) if !v.is_null() => {
                self.mutate_value(r, inner, h, v, depth)
            }
            (RustTy::Vec(elem), Value::Array(items)) => {
                let mut out: Vec<Value> = items
                    .iter()
                    .map(|v| self.mutate_value(r, elem, h, v, depth + 1))
                    .collect();
                if r.chance(10) {
                    out.pop();
                }
                if r.chance(10) {
                    out.push(self.value(r, elem, h, depth + 1));
                }
                if out.len() > 1 && r.chance(10) {
                    out.reverse();
                }
                Value::Array(out)
            }
            (RustTy::Map(v), Value::Object(m)) => {
                let mut out = Map::new();
                for (k, val) in m {
                    if !r.chance(8) {
                        out.insert(k.clone(), self.mutate_value(r, v, h, val, depth + 1));
                    }
                }
                Value::Object(out)
            }
            (RustTy::Named(k), v) => {
                let Some(t) = self.types.get(k).copied() else {
                    return v.clone();
                };
                match (&t.fields, &t.alias_of, v) {
                    (Some(fields), _, Value::Object(m)) => {
                        Value::Object(self.mutate_fields(r, k, fields, m, depth))
                    }
                    (None, Some(alias), _) => {
                        let mut merged = h.clone();
                        if let Some(th) = self.typedefs.get(k) {
                            merged.merge(th);
                        }
                        self.mutate_value(r, alias, &merged, v, depth)
                    }
                    _ => v.clone(),
                }
            }
            (_, v) => v.clone(),
        }
    }

    fn mutate_fields(
        &mut self,
        r: &mut Rng,
        owner: &TypeKey,
        fields: &[FieldPlan],
        cur: &Map<String, Value>,
        depth: usize,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        for f in fields.iter().filter(|f| !f.skip) {
            if f.flatten {
                // Inline members share this object: mutate them against the same map.
                if let Some(k) = named(&f.ty)
                    && let Some(t) = self.types.get(k).copied()
                    && let Some(inner) = &t.fields
                {
                    let m = self.mutate_fields(r, k, inner, cur, depth + 1);
                    out.extend(m);
                }
                continue;
            }
            let h = self.hints_of(owner, f);
            match cur.get(&f.json_name) {
                Some(v) if r.chance(5) => {
                    let _ = v;
                }
                Some(v) => {
                    let m = self.mutate_value(r, &f.ty, &h, v, depth + 1);
                    out.insert(f.json_name.clone(), m);
                }
                None if r.chance(4) && self.include(r, owner, f, depth) => {
                    let v = self.value(r, &f.ty, &h, depth + 1);
                    out.insert(f.json_name.clone(), v);
                }
                None => {}
            }
        }
        out
    }
}

/// The base64 (standard, padded: Go's `[]byte` JSON) of `n` bytes `a`.
fn base64_of_a(n: usize) -> String {
    let mut s = "YWFh".repeat(n / 3);
    s.push_str(["", "YQ==", "YWE="][n % 3]);
    s
}
