//! The rules of the plan, check by check: an OpenAPI keyword where one says the rule, else an
//! `x-kubernetes-validations` CEL rule (message = upstream's detail text), else an entry under
//! [`crate::UNEXPRESSED_KEY`] with the reason. The mapping table is `docs/openapi.md`.
//!
//! Where a rule sits: a check of a value (limits, formats, `neq`, uniqueness, `eachVal`, …) on the value's own
//! schema — a struct field's property, a list's `items`, a map's `additionalProperties`, a struct's component; a
//! rule about a field's presence or its transitions (`required`, `forbidden`, `immutable`, `update`) on the struct
//! that holds the field (`self.<field>`, `fieldPath: .<field>`), since CEL on a property runs only when the
//! property is present; struct-level rules (unions, modes, dependent fields, `subfield`) on the struct.

use crate::builder::{At, Builder, Parent, ValueSite};
use crate::cel::{self, Reason, Rule};
use crate::{STABILITY_KEY, UNEXPRESSED_KEY, Unexpressed};
use serde_json::{Map, Value, json};
use vgc_ir::catalog::Stability;
use vgc_lowering::plan::{
    Check, CheckKind, DependentPlan, FieldPlan, ItemPlan, ListUnionPlan, Matcher, MemberRef,
    ModePlan, OptionState, RustTy, Selector, Shape, TypePlan, UnionKind, UnionPlan,
};
use vgc_runtime::formats::Format;
use vgc_runtime::validate::UpdateConstraint;

impl Parent {
    /// Writes `required` and the rules into the struct's schema `node`.
    pub(crate) fn finish_into(self, node: &mut Map<String, Value>) {
        let mut names: Vec<String> = Vec::new();
        for (n, s) in self.required {
            if !names.contains(&n) {
                names.push(n.clone());
            }
            if let Some(s) = s.filter(|s| *s != Stability::Stable) {
                mark(node, &format!("required/{n}"), s);
            }
        }
        if !names.is_empty() {
            node.insert("required".into(), json!(names));
        }
        for r in self.rules {
            push_rule(node, &r);
        }
    }
}

/// The tag a check comes from, as written (`k8s:minimum`; `k8s:ifEnabled(X)=k8s:minimum` through wrappers).
pub(crate) fn rule_name(c: &Check) -> String {
    let own = c.tag.map_or("(synthetic)", |t| t.name());
    match &c.kind {
        CheckKind::IfOption(io) => format!(
            "k8s:{}({})={}",
            if io.enabled {
                "ifEnabled"
            } else {
                "ifDisabled"
            },
            io.option,
            rule_name(&io.inner)
        ),
        CheckKind::IfSubresource(is) => format!("{own}({})={}", is.path, rule_name(&is.inner)),
        CheckKind::Subfield(s) => {
            format!("k8s:subfield({})={}", s.member.json, rule_name(&s.inner))
        }
        CheckKind::Item(it) => format!("k8s:item={}", rule_name(&it.inner)),
        CheckKind::EachVal(inner, ..) if inner.len() == 1 => {
            format!("k8s:eachVal={}", rule_name(&inner[0]))
        }
        CheckKind::EachKey(inner) if inner.len() == 1 => {
            format!("k8s:eachKey={}", rule_name(&inner[0]))
        }
        _ => own.to_string(),
    }
}

/// Records `level` for `what` (a keyword) under [`STABILITY_KEY`] of `node`.
fn mark(node: &mut Map<String, Value>, what: &str, level: Stability) {
    let e = node
        .entry(STABILITY_KEY)
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = e {
        m.insert(what.into(), json!(crate::stability_word(level)));
    }
}

/// Makes `node` take sibling keywords: a bare `$ref` becomes `allOf: [{$ref}]` (OpenAPI 3.0 ignores the siblings of
/// a `$ref`; kube-openapi writes a property with a description or default so too).
fn open(node: &mut Map<String, Value>) {
    if let Some(r) = node.remove("$ref") {
        node.insert("allOf".into(), json!([{"$ref": r}]));
    }
}

/// Appends `r` to `node`'s `x-kubernetes-validations`.
fn push_rule(node: &mut Map<String, Value>, r: &Rule) {
    open(node);
    let e = node
        .entry("x-kubernetes-validations")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(a) = e {
        a.push(r.to_json());
    }
}

/// Sets keyword `key` to `v` on `node`; when it is already set (a typedef's rule and its field's), the stricter
/// bound wins for limits, else the later.
fn keyword(node: &mut Map<String, Value>, key: &str, v: Value, level: Option<Stability>) {
    open(node);
    let v = match (node.get(key), &v) {
        (Some(Value::Number(old)), Value::Number(new)) => {
            let (o, n) = (old.as_f64().unwrap_or(0.0), new.as_f64().unwrap_or(0.0));
            let lower_bound = matches!(key, "minimum" | "minLength" | "minItems" | "minProperties");
            if (lower_bound && o > n) || (!lower_bound && o < n) {
                Value::Number(old.clone())
            } else {
                v
            }
        }
        _ => v,
    };
    node.insert(key.into(), v);
    if let Some(s) = level.filter(|s| *s != Stability::Stable) {
        mark(node, key, s);
    }
}

/// The checks of `checks` that can report an error, in order (upstream's generated code runs a value's checks in
/// order, cohort by cohort): a `NonError` check reports nothing (`optional`, a `subfield`'s inherited
/// short-circuits, `validateFalse(flags: "ShortCircuit,NonError")`), and a short-circuit check that always fails
/// (`validateFalse(flags: "ShortCircuit")`) stops its cohort, so the checks after it never run.
fn live(checks: &[Check]) -> Vec<&Check> {
    let mut stopped: Vec<&Option<String>> = Vec::new();
    let mut out = Vec::new();
    for c in checks {
        if stopped.contains(&&c.cohort) {
            continue;
        }
        if c.short_circuit && matches!(c.kind, CheckKind::FixedResult { result: false, .. }) {
            stopped.push(&c.cohort);
        }
        if !c.non_error {
            out.push(c);
        }
    }
    out
}

/// A CEL predicate over a value: true when the value is valid, with its error.
pub(crate) struct Pred {
    /// The CEL expression over the value.
    pub(crate) expr: String,
    message: String,
    message_expression: Option<String>,
    reason: Reason,
}

impl Builder<'_> {
    /// Applies `checks` to the value whose schema is `node` (see the module docs); `field` is the struct field the
    /// value is (its presence and transition rules go to `parent`), `None` for a list element, map value, typedef or
    /// struct.
    pub(crate) fn apply(
        &mut self,
        checks: &[Check],
        node: &mut Map<String, Value>,
        site: &ValueSite<'_>,
        at: &At,
        field: Option<&FieldPlan>,
        parent: &mut Parent,
    ) {
        for c in live(checks) {
            self.apply_one(c, c.stability, node, site, at, field, parent, checks);
        }
    }

    /// Lists every check of `checks` as not said, at `path` of `schema`, for `why`.
    pub(crate) fn unexpressed_checks(
        &mut self,
        checks: &[vgc_lowering::plan::Check],
        schema: &str,
        path: &str,
        why: &str,
    ) {
        for c in checks {
            self.unexpressed.push(Unexpressed {
                schema: schema.to_string(),
                path: path.to_string(),
                rule: rule_name(c),
                reason: why.to_string(),
            });
        }
    }

    /// The check of `checks` that forbids the field outright, if any: `forbidden` itself, or an `ifEnabled`/
    /// `ifDisabled` around it whose option is fixed so that it applies — exported at the selected stability.
    pub(crate) fn forbidding<'c>(&self, checks: &'c [Check]) -> Option<&'c Check> {
        let level_ok =
            |c: &Check| c.stability.unwrap_or(Stability::Stable) >= self.options.stability;
        checks.iter().find(|c| {
            level_ok(c)
                && match &c.kind {
                    CheckKind::Forbidden { .. } => true,
                    CheckKind::IfOption(io) => {
                        matches!(io.inner.kind, CheckKind::Forbidden { .. })
                            && self.options.options.get(&io.option) == Some(&io.enabled)
                    }
                    _ => false,
                }
        })
    }

    /// Lists `c` as not said, on `node` and in the output.
    fn unexpressed(&mut self, c: &Check, node: &mut Map<String, Value>, at: &At, why: &str) {
        let rule = rule_name(c);
        let e = node
            .entry(UNEXPRESSED_KEY)
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(a) = e {
            let entry = json!({"path": at.path, "reason": why, "rule": rule});
            if !a.contains(&entry) {
                a.push(entry);
            }
        }
        self.unexpressed.push(Unexpressed {
            schema: at.schema.clone(),
            path: at.path.clone(),
            rule,
            reason: why.to_string(),
        });
    }

    /// Whether a check of level `level` is exported ([`crate::Options::stability`]); counts the ones left out.
    fn exported(&mut self, level: Option<Stability>) -> bool {
        let l = level.unwrap_or(Stability::Stable);
        if l < self.options.stability {
            self.omitted_by_stability += 1;
            false
        } else {
            true
        }
    }

    /// One check of `list` (the checks it came from, in upstream's order: a `subfield`'s payload reads the
    /// short-circuits before it in its cohort).
    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    fn apply_one(
        &mut self,
        c: &Check,
        level: Option<Stability>,
        node: &mut Map<String, Value>,
        site: &ValueSite<'_>,
        at: &At,
        field: Option<&FieldPlan>,
        parent: &mut Parent,
        list: &[Check],
    ) {
        if !self.exported(level) {
            return;
        }
        let tag = rule_name(c);
        let rule = |r: Rule| Rule {
            stability: level,
            tag: Some(tag.clone()),
            ..r
        };
        match &c.kind {
            // Not rules of their own: `optional` only stops the field's other checks when it is unset, which a
            // schema does by itself (keywords and CEL on a property run only when it is present); nil elements of
            // `[]*T` are refused by the items' schema (not nullable).
            CheckKind::Optional
            | CheckKind::NoNils
            | CheckKind::FixedResult { result: true, .. } => {}
            CheckKind::Required { detail } => {
                let Some(f) = field else {
                    return self.unexpressed(c, node, at, "`required` outside a struct field: OpenAPI's `required` names object properties");
                };
                // A field with a `+default`: the API server defaults it before validating (upstream's `optional`
                // with a default is "effectively required" for that reason, validation-gen's `required.go`), while
                // a client validates the manifest as written and `required` would refuse one that omits it.
                // k8s.io/kubernetes' published spec does not list such fields either (v1.37.2: `PodGroupSpec`'s
                // `disruptionMode`, `ResourcePoolStatusRequestSpec`'s `limit`). The schema's `default` says what the
                // server does; the rule is listed.
                if f.default.is_some() {
                    self.unexpressed(
                        c,
                        node,
                        at,
                        "the field has a default, which the API server applies before validating: `required` would refuse a manifest that omits it",
                    );
                } else {
                    parent.required.push((f.json_name.clone(), level));
                    self.expressed += 1;
                }
                // A present zero value is unset for upstream (a value kind's zero, an empty list or map): `required`
                // only tests presence, so a rule on the struct refuses the present zero.
                // Upstream skips the field on an update that leaves it unchanged.
                if let (Some(zero_ok), Some(same)) = (
                    present_zero_is_set(&f.json_name, &f.shape),
                    cel::unchanged(&f.json_name),
                ) {
                    parent.rules.push(
                        rule(Rule::new(zero_ok, detail.clone().unwrap_or_default()))
                            .reason(Reason::Required)
                            .at(Some(cel::field_path(&f.json_name)))
                            .ratcheted(&same),
                    );
                }
            }
            CheckKind::Forbidden { detail } => {
                let Some(f) = field else {
                    return self.unexpressed(
                        c,
                        node,
                        at,
                        "`forbidden` outside a struct field has no property to forbid",
                    );
                };
                let Some(set) = cel::is_set("self", &f.json_name, &f.shape) else {
                    return self.unexpressed(
                        c,
                        node,
                        at,
                        "the field's JSON name cannot be named in CEL",
                    );
                };
                let mut r = rule(Rule::new(
                    format!("!{set}"),
                    detail.clone().unwrap_or_default(),
                ))
                .reason(Reason::Forbidden)
                .at(Some(cel::field_path(&f.json_name)));
                // Upstream skips the field on an update that leaves it unchanged.
                if let Some(same) = cel::unchanged(&f.json_name) {
                    r = r.ratcheted(&same);
                }
                parent.rules.push(r);
                self.expressed += 1;
            }
            // A bound a present zero value fails, on a value whose zero upstream reads as unset (an `optional`
            // non-pointer scalar): said in CEL with the zero let through, since the keyword would refuse it.
            CheckKind::Minimum(n) if site.zero.is_some() && *n > 0 => {
                self.guarded(c, node, at, site, rule)
            }
            CheckKind::Maximum(n) if site.zero.is_some() && *n < 0 => {
                self.guarded(c, node, at, site, rule)
            }
            CheckKind::MinimumDuration(n) if site.zero.is_some() && *n > 0 => {
                self.guarded(c, node, at, site, rule)
            }
            CheckKind::MaximumDuration(n) if site.zero.is_some() && *n < 0 => {
                self.guarded(c, node, at, site, rule)
            }
            CheckKind::MinLength(n) if site.zero.is_some() && *n > 0 => {
                self.guarded(c, node, at, site, rule)
            }
            CheckKind::Minimum(n) => self.kw(node, "minimum", json!(n), level),
            CheckKind::Maximum(n) => self.kw(node, "maximum", json!(n), level),
            CheckKind::MinimumDuration(n) => self.kw(node, "minimum", json!(n), level),
            CheckKind::MaximumDuration(n) => self.kw(node, "maximum", json!(n), level),
            CheckKind::MinLength(n) => self.kw(node, "minLength", json!(n), level),
            CheckKind::MaxLength(n) => self.kw(node, "maxLength", json!(n), level),
            // A `[]byte` is a `format: byte` string in OpenAPI, where `minItems`/`maxItems` mean nothing (the schema
            // validator ignores them); CEL reads such a string as `bytes`, whose `size` counts the bytes upstream's
            // limit counts. Its error is `Invalid` (a CEL rule's reason has no `Too few`/`Too many`).
            CheckKind::MinItems(_) | CheckKind::MaxItems(_)
                if matches!(
                    strip(&self.types, site.ty),
                    RustTy::WellKnown(vgc_analysis::types::WellKnown::Bytes)
                ) =>
            {
                self.guarded(c, node, at, site, rule);
            }
            CheckKind::MinItems(n) => self.kw(node, "minItems", json!(n), level),
            CheckKind::MaxItems(n) => self.kw(node, "maxItems", json!(n), level),
            CheckKind::MinProperties(n) => self.kw(node, "minProperties", json!(n), level),
            CheckKind::MaxProperties(n) => self.kw(node, "maxProperties", json!(n), level),
            CheckKind::Eq(v) => {
                let mut values = vec![cel::value_json(v)];
                if let Some(z) = site.zero_json()
                    && !values.contains(&z)
                {
                    values.push(z);
                }
                self.kw(node, "enum", json!(values), level);
            }
            CheckKind::Enum(e) => {
                let mut values = e.values.clone();
                for x in &e.exclusions {
                    match self.options.options.get(&x.option) {
                        Some(&on) => {
                            let excluded = match x.when {
                                OptionState::Enabled => on,
                                OptionState::Disabled => !on,
                            };
                            if excluded {
                                values.retain(|v| *v != x.value);
                            }
                        }
                        None => {
                            let why = format!(
                                "the value {:?} is excluded while option {} is {}; the option is not fixed at export (--option {}=true|false), so the enum keeps it",
                                x.value,
                                x.option,
                                if x.when == OptionState::Enabled {
                                    "on"
                                } else {
                                    "off"
                                },
                                x.option
                            );
                            self.unexpressed(c, node, at, &why);
                        }
                    }
                }
                let mut values: Vec<Value> = values.into_iter().map(Value::String).collect();
                if let Some(z) = site.zero_json()
                    && !values.contains(&z)
                {
                    values.insert(0, z);
                }
                self.kw(node, "enum", json!(values), level);
            }
            CheckKind::Format(f) => {
                let pred = format_pred(*f, "self", self.options.cel_format_library);
                // The keyword names the format. It is not written where a present zero is let through, since a
                // validator that knows the format would refuse `""`; nor where the API server's schema validator
                // checks the format itself (`server_checks_format`) and the CEL rule below says it too: a bad value
                // would be refused twice, `TypeInvalid` ("must be of type k8s-long-name") besides the rule's
                // `Invalid`, the one upstream reports.
                if site.zero.is_none() && (pred.is_none() || !server_checks_format(*f)) {
                    self.kw(node, "format", json!(f.name()), level);
                }
                // Every valid value of these formats is ASCII and at most this long, so the bound refuses nothing the
                // format accepts; it bounds the CEL cost estimate of the format's rule (the API server sizes an
                // unbounded string by the request limit). A longer value is then `Too long` besides `Invalid`.
                if let Some(n) = format_max_length(*f) {
                    keyword(node, "maxLength", json!(n), level);
                }
                match pred {
                    Some(p) => {
                        push_rule(node, &rule(site.guard(pred_rule(p))));
                        self.expressed += 1;
                    }
                    None => self.unexpressed(c, node, at, "no CEL form of this format yet: the `format` keyword names it, and the API server's schema validator does not check formats it does not know"),
                }
            }
            CheckKind::Immutable => match field {
                Some(f) => match transition(&f.json_name, "field is immutable") {
                    Some(r) => {
                        parent.rules.push(rule(r));
                        self.expressed += 1;
                    }
                    None => self.unexpressed(
                        c,
                        node,
                        at,
                        "the field's JSON name cannot be named in CEL",
                    ),
                },
                None => {
                    push_rule(
                        node,
                        &rule(Rule::new("self == oldSelf", "field is immutable")),
                    );
                    self.expressed += 1;
                }
            },
            CheckKind::Update(cs, matcher) => {
                self.update(c, cs, matcher, level, node, site, at, field, parent)
            }
            CheckKind::Monotonic => {
                // The zero of an optional non-pointer field is unset for upstream: not compared.
                push_rule(
                    node,
                    &rule(
                        site.guard(
                            Rule::new("self >= oldSelf", "").message_expression(
                                "'may not be decreased from ' + string(oldSelf)",
                            ),
                        ),
                    ),
                );
                // upstream's `Monotonic` compares a non-pointer field's values, an absent one being Go's zero; the
                // rule on the value runs only where both are present. A rule on the struct compares the rest.
                if let Some(f) = field
                    && matches!(f.shape, Shape::Scalar { pointer: false, .. })
                    && let (Some(n), Some(o)) = (
                        cel::member("self", &f.json_name),
                        cel::member("oldSelf", &f.json_name),
                    )
                {
                    let skip = if site.zero.is_some() {
                        format!("!has({n}) || {n} == 0 || ")
                    } else {
                        String::new()
                    };
                    let old = format!("(has({o}) ? {o} : 0)");
                    parent.rules.push(rule(
                        Rule::new(
                            format!(
                                "(has({n}) && has({o})) || {skip}(has({n}) ? {n} : 0) >= {old}"
                            ),
                            "",
                        )
                        .message_expression(format!("'may not be decreased from ' + string({old})"))
                        .at(Some(cel::field_path(&f.json_name))),
                    ));
                }
                self.expressed += 1;
            }
            CheckKind::Unique(m) => self.unique(c, m, level, node, site, at),
            CheckKind::EachVal(inner, matcher, _) => {
                // upstream compares an added item (a list item no old item matches, a new map key) with nil, so
                // `eachVal=+k8s:immutable` refuses it; the transition rule on the item runs only where the API server
                // correlates an old one. A rule on the struct refuses the addition, at the list's path (a rule's
                // `fieldPath` cannot name the item).
                if let Some(f) = field
                    && live(inner)
                        .iter()
                        .any(|i| matches!(i.kind, CheckKind::Immutable))
                    && (matches!(strip(&self.types, site.ty), RustTy::Map(_))
                        || !matches!(matcher, Matcher::None))
                    && let Some(mut r) =
                        self.item_transition(UpdateConstraint::NoAddItem, f, matcher, site)
                {
                    r.message = "field is immutable".into();
                    r.reason = Reason::Invalid;
                    parent.rules.push(rule(r));
                }
                let elem_ty = match strip(&self.types, site.ty) {
                    RustTy::Vec(e) | RustTy::Map(e) => (**e).clone(),
                    _ => {
                        return self.unexpressed(
                            c,
                            node,
                            at,
                            "`eachVal` on a value that is neither a list nor a map",
                        );
                    }
                };
                let key = if matches!(strip(&self.types, site.ty), RustTy::Vec(_)) {
                    "items"
                } else {
                    "additionalProperties"
                };
                open(node);
                let mut child = match node.remove(key) {
                    Some(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                let sub = At {
                    schema: at.schema.clone(),
                    path: format!("{}[*]", at.path),
                };
                let esite = ValueSite {
                    ty: &elem_ty,
                    struct_plan: None,
                    zero: None,
                };
                let mut no_parent = Parent::default();
                for i in live(inner) {
                    let lvl = level.or(i.stability);
                    self.apply_one(
                        i,
                        lvl,
                        &mut child,
                        &esite,
                        &sub,
                        None,
                        &mut no_parent,
                        inner,
                    );
                }
                node.insert(key.into(), Value::Object(child));
            }
            CheckKind::EachKey(inner) => {
                for i in inner {
                    match self.pred(i, "k") {
                        Ok(Some(p)) => {
                            let mut r = pred_rule(p);
                            // upstream: keys the old map had are skipped on an update.
                            r.plain = Some(format!("self.all(k, {})", r.rule));
                            r.rule = format!(
                                "self.all(k, (oldSelf.hasValue() && k in oldSelf.value()) || ({}))",
                                r.rule
                            );
                            r.message_expression = None;
                            push_rule(node, &rule(r));
                            self.expressed += 1;
                        }
                        Ok(None) => {}
                        Err(why) => self.unexpressed(i, node, at, &why),
                    }
                }
            }
            CheckKind::Subfield(s) => {
                let Some(m) = cel::member("self", &s.member.json) else {
                    return self.unexpressed(
                        c,
                        node,
                        at,
                        "the member's JSON name cannot be named in CEL",
                    );
                };
                match self.member_rule(&s.inner, &m, &s.member, &subfield_absent(c, s, list)) {
                    Ok(Some(mut r)) => {
                        // upstream: skipped on an update that leaves the member unchanged.
                        if !r.rule.contains("oldSelf")
                            && let Some(same) = cel::unchanged(&s.member.json)
                        {
                            r = r.ratcheted(&same);
                        }
                        push_rule(node, &rule(r.at(Some(cel::field_path(&s.member.json)))));
                        self.expressed += 1;
                    }
                    Ok(None) => {}
                    Err(why) => self.unexpressed(c, node, at, &why),
                }
            }
            CheckKind::Union(u) => match union_rules(u) {
                Some(rs) => {
                    for r in rs {
                        push_rule(node, &rule(r));
                    }
                    self.expressed += 1;
                }
                None => {
                    self.unexpressed(c, node, at, "a member's JSON name cannot be named in CEL")
                }
            },
            CheckKind::Dependent(d) => match dependent_rule(d) {
                Some(r) => {
                    push_rule(node, &rule(r));
                    self.expressed += 1;
                }
                None => {
                    self.unexpressed(c, node, at, "a member's JSON name cannot be named in CEL")
                }
            },
            CheckKind::Discriminated(m) => match self.mode_rules(m, site) {
                Ok(rs) => {
                    for mut r in rs {
                        r.tag = Some(rule_name(c));
                        push_rule(node, &r);
                    }
                    self.expressed += 1;
                }
                Err(why) => self.unexpressed(c, node, at, &why),
            },
            CheckKind::ListUnion(lu) => {
                // On a struct's field, the rules sit on the struct (`self.<field>`): the ratchet reads the old list
                // as `oldSelf.value().<field>`, which the API server's cost estimate sizes by the field's schema,
                // while a comprehension over the list's own `oldSelf.value()` has no size there (its estimate
                // saturates: CertificateSigningRequest's `conditions`).
                let on_struct = field.and_then(|f| {
                    Some((
                        f,
                        cel::member("self", &f.json_name)?,
                        cel::member("oldSelf.value()", &f.json_name)?,
                    ))
                });
                let lists = on_struct.as_ref().map_or(
                    (String::from("self"), String::from("oldSelf.value()")),
                    |(_, m, o)| (m.clone(), o.clone()),
                );
                match self.list_union_rules(lu, site, &lists.0, &lists.1) {
                    Some(rs) => {
                        for r in rs {
                            match &on_struct {
                                Some((f, _, _)) => {
                                    let mut r = rule(r);
                                    r.field_path = Some(cel::field_path(&f.json_name));
                                    parent.rules.push(r);
                                }
                                None => push_rule(node, &rule(r)),
                            }
                        }
                        self.expressed += 1;
                    }
                    None => {
                        self.unexpressed(c, node, at, "a list-map key cannot be named in CEL");
                    }
                }
            }
            CheckKind::Item(it) => match self.item_rule(it, site) {
                Ok(Some(r)) => {
                    push_rule(node, &rule(r));
                    self.expressed += 1;
                }
                Ok(None) => {}
                Err(why) => self.unexpressed(c, node, at, &why),
            },
            CheckKind::Neq(_)
            | CheckKind::Matches(_)
            | CheckKind::MaxBytes(_)
            | CheckKind::MaxLengthBytes(_)
            | CheckKind::MaxBytesSlice(_)
            | CheckKind::MinimumQuantity(_)
            | CheckKind::MaximumQuantity(_)
            | CheckKind::FixedResult { .. } => {
                // Every value of at most N bytes has at most N characters: the keyword refuses nothing the rule
                // accepts, and it bounds the rule's CEL cost estimate.
                if let CheckKind::MaxBytes(n) | CheckKind::MaxLengthBytes(n) = &c.kind {
                    keyword(node, "maxLength", json!(n), level);
                    // Longer than N characters is the keyword's error (`Too long`, as upstream's); the rule speaks only
                    // for a value of at most N characters and more than N bytes.
                    let r = Rule::new(
                        format!("size(self) > {n} || size(bytes(self)) <= {n}"),
                        format!("may not be more than {n} {}", plural(*n, "byte")),
                    );
                    push_rule(node, &rule(site.guard(r)));
                    self.expressed += 1;
                    return;
                }
                self.guarded(c, node, at, site, rule);
            }
            CheckKind::IfOption(io) => match self.options.options.get(&io.option) {
                Some(&on) if on == io.enabled => {
                    // The wrapper's level applies, not the inner check's own.
                    self.apply_one(&io.inner, level, node, site, at, field, parent, list);
                }
                Some(_) => self.omitted_by_option += 1,
                None => {
                    let why = format!(
                        "runs only while option {} is {}; the option is not fixed at export (--option {}=true|false)",
                        io.option,
                        if io.enabled { "on" } else { "off" },
                        io.option
                    );
                    self.unexpressed(c, node, at, &why);
                }
            },
            CheckKind::Custom { upstream, .. } => {
                let why = format!(
                    "a hand-written Go function ({upstream}): OpenAPI and CEL cannot say what it checks"
                );
                self.unexpressed(c, node, at, &why);
            }
            CheckKind::IfSubresource(_) => self.unexpressed(
                c,
                node,
                at,
                "depends on the request's subresource, which a schema does not see (vgc extension)",
            ),
            CheckKind::FieldConstraint(_) | CheckKind::VirtualUnion(_) => {
                self.unexpressed(c, node, at, "vgc extension not exported to OpenAPI yet")
            }
        }
    }

    /// `c` as a CEL predicate on `self` ([`Builder::pred`]), the zero let through where upstream reads it as unset.
    fn guarded(
        &mut self,
        c: &Check,
        node: &mut Map<String, Value>,
        at: &At,
        site: &ValueSite<'_>,
        rule: impl Fn(Rule) -> Rule,
    ) {
        match self.pred(c, "self") {
            Ok(Some(p)) => {
                push_rule(node, &rule(site.guard(pred_rule(p))));
                self.expressed += 1;
            }
            Ok(None) => {}
            Err(why) => self.unexpressed(c, node, at, &why),
        }
    }

    /// Sets a keyword and counts it.
    fn kw(&mut self, node: &mut Map<String, Value>, key: &str, v: Value, level: Option<Stability>) {
        keyword(node, key, v, level);
        self.expressed += 1;
    }

    /// `update=…` constraints as transition rules.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        c: &Check,
        cs: &[UpdateConstraint],
        matcher: &Matcher,
        level: Option<Stability>,
        node: &mut Map<String, Value>,
        site: &ValueSite<'_>,
        at: &At,
        field: Option<&FieldPlan>,
        parent: &mut Parent,
    ) {
        let stamp = |mut r: Rule| {
            r.stability = level;
            r
        };
        let tag = rule_name(c);
        for u in cs {
            let r = match (u, field) {
                (UpdateConstraint::NoModify, None) => Some(Rule::new(
                    "self == oldSelf",
                    "field cannot be modified once set",
                )),
                (_, None) => None,
                (
                    UpdateConstraint::NoSet
                    | UpdateConstraint::NoUnset
                    | UpdateConstraint::NoModify,
                    Some(f),
                ) => {
                    // Whether the field is set now (`n`) and was set before (`o`).
                    let n = cel::is_set("self", &f.json_name, &f.shape);
                    let o = cel::is_set("oldSelf", &f.json_name, &f.shape);
                    n.zip(o).and_then(|(n, o)| {
                        let (rule, message) = match u {
                            UpdateConstraint::NoSet => {
                                (format!("{o} || !{n}"), "field cannot be set once created")
                            }
                            UpdateConstraint::NoUnset => {
                                (format!("!{o} || {n}"), "field cannot be cleared once set")
                            }
                            _ => {
                                let nm = cel::member("self", &f.json_name)?;
                                let om = cel::member("oldSelf", &f.json_name)?;
                                (
                                    format!("!({o} && {n}) || {nm} == {om}"),
                                    "field cannot be modified once set",
                                )
                            }
                        };
                        Some(Rule::new(rule, message).at(Some(cel::field_path(&f.json_name))))
                    })
                }
                (UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem, Some(f)) => {
                    self.item_transition(*u, f, matcher, site)
                }
            };
            match r {
                // A value that is no struct field (an `eachVal` element, a typedef): the transition rule sits on the
                // value itself, which the API server correlates with its old value (a map value by its key).
                Some(mut r) if field.is_none() => {
                    r.tag = Some(tag.clone());
                    push_rule(node, &stamp(r));
                    self.expressed += 1;
                }
                Some(mut r) => {
                    r.tag = Some(tag.clone());
                    parent.rules.push(stamp(r));
                    self.expressed += 1;
                }
                None => {
                    let why = format!(
                        "update={u:?} here has no CEL form in this export (a list's items matched {}, or a name CEL cannot spell)",
                        match matcher {
                            Matcher::None => "by nothing",
                            Matcher::Set => "as a set",
                            Matcher::Keys(_) => "by keys",
                        }
                    );
                    self.unexpressed(c, node, at, &why);
                }
            }
        }
    }

    /// A field whose type is a scalar typedef with `+k8s:immutable` (`type Frozen string`), called by the field: the
    /// typedef's rule on the value (`self == oldSelf`) runs only where the old value is present, while upstream's
    /// function compares a value set on an update with the old nil or zero. A rule on the struct refuses the change
    /// of set-ness: a pointer present on one side only; a non-pointer field absent on one side and non-zero on the
    /// other (Go reads absent as the zero) — unless the field's `optional`/`required` stops its checks on a zero
    /// (`short_circuited`: then only a value set where it was unset). Not counted as a rule of its own (the
    /// typedef's is).
    pub(crate) fn typedef_setness(
        &self,
        f: &FieldPlan,
        short_circuited: bool,
        parent: &mut Parent,
    ) {
        let Some(t) = f.nested.as_ref().and_then(|n| self.types.get(&n.ty)) else {
            return;
        };
        let level_ok =
            |c: &Check| c.stability.unwrap_or(Stability::Stable) >= self.options.stability;
        let Some(c) = (if t.fields.is_none() {
            live(&t.checks)
                .into_iter()
                .find(|c| matches!(c.kind, CheckKind::Immutable) && level_ok(c))
        } else {
            None
        }) else {
            return;
        };
        let (Some(n), Some(o)) = (
            cel::member("self", &f.json_name),
            cel::member("oldSelf", &f.json_name),
        ) else {
            return;
        };
        let rule = match &f.shape {
            Shape::Scalar { pointer: true, .. } => format!("has({n}) == has({o})"),
            Shape::Scalar { pointer: false, .. } => {
                let (Some(sn), Some(so)) = (
                    cel::is_set("self", &f.json_name, &f.shape),
                    cel::is_set("oldSelf", &f.json_name, &f.shape),
                ) else {
                    return;
                };
                if short_circuited {
                    format!("has({n}) == has({o}) || !{sn} || {so}")
                } else {
                    format!("has({n}) == has({o}) || {sn} == {so}")
                }
            }
            _ => return,
        };
        let mut r = Rule::new(rule, "field is immutable").at(Some(cel::field_path(&f.json_name)));
        r.stability = c.stability;
        r.tag = Some(rule_name(c));
        parent.rules.push(r);
    }

    /// `update=NoAddItem`/`NoRemoveItem` of a list or map field, on its struct.
    fn item_transition(
        &self,
        u: UpdateConstraint,
        f: &FieldPlan,
        matcher: &Matcher,
        site: &ValueSite<'_>,
    ) -> Option<Rule> {
        let nm = cel::member("self", &f.json_name)?;
        let om = cel::member("oldSelf", &f.json_name)?;
        let (from, to, msg, reason) = match u {
            UpdateConstraint::NoAddItem => (&nm, &om, "item may not be added", Reason::Forbidden),
            _ => (&om, &nm, "item may not be removed", Reason::Forbidden),
        };
        let has_from = format!("has({})", &from[..]);
        let has_to = format!("has({})", &to[..]);
        let contains = match (strip(&self.types, site.ty), matcher) {
            (RustTy::Map(_), _) => format!("{to}.exists(o, o == e)"),
            (RustTy::Vec(_), Matcher::Set) => format!("{to}.exists(o, o == e)"),
            (RustTy::Vec(elem), Matcher::Keys(keys)) => {
                let et = elem.named().and_then(|k| self.types.get(k))?;
                let mut conds = Vec::new();
                for k in keys {
                    let json = et
                        .fields
                        .iter()
                        .flatten()
                        .find(|x| &x.go_field == k)?
                        .json_name
                        .clone();
                    let a = cel::member("o", &json)?;
                    let b = cel::member("e", &json)?;
                    conds.push(format!(
                        "(has({a}) == has({b}) && (!has({a}) || {a} == {b}))"
                    ));
                }
                format!("{to}.exists(o, {})", conds.join(" && "))
            }
            _ => return None,
        };
        Some(
            Rule::new(
                format!("!{has_from} || {from}.all(e, {has_to} && {contains})"),
                msg,
            )
            .reason(reason)
            .at(Some(cel::field_path(&f.json_name))),
        )
    }

    /// Uniqueness: `x-kubernetes-list-type` (`set`, or `map` with `x-kubernetes-list-map-keys`), which the API
    /// server's schema validation enforces as duplicates.
    fn unique(
        &mut self,
        c: &Check,
        m: &Matcher,
        level: Option<Stability>,
        node: &mut Map<String, Value>,
        site: &ValueSite<'_>,
        at: &At,
    ) {
        match m {
            Matcher::None => {}
            Matcher::Set => self.kw(node, "x-kubernetes-list-type", json!("set"), level),
            Matcher::Keys(keys) => {
                let et = match strip(&self.types, site.ty) {
                    RustTy::Vec(e) => e.named().and_then(|k| self.types.get(k)).copied(),
                    _ => None,
                };
                let Some(et) = et else {
                    return self.unexpressed(
                        c,
                        node,
                        at,
                        "list-map keys of a list whose items are not a struct of the plan",
                    );
                };
                let fields: Option<Vec<&FieldPlan>> = keys
                    .iter()
                    .map(|k| et.fields.iter().flatten().find(|f| &f.go_field == k))
                    .collect();
                let Some(fields) = fields else {
                    return self.unexpressed(
                        c,
                        node,
                        at,
                        "a list-map key is not a field of the item struct",
                    );
                };
                let json: Vec<String> = fields.iter().map(|f| f.json_name.clone()).collect();
                if fields.iter().any(|f| matches!(f.ty, RustTy::Option(..))) {
                    // A pointer key: absent (nil) is a key value of its own, which a CRD list-map cannot say (its
                    // keys are required or defaulted), so uniqueness is said in CEL.
                    let same: Option<Vec<String>> = json
                        .iter()
                        .map(|k| {
                            let (x, y) = (cel::member("x", k)?, cel::member("y", k)?);
                            Some(format!(
                                "(has({x}) == has({y}) && (!has({x}) || {x} == {y}))"
                            ))
                        })
                        .collect();
                    let Some(same) = same else {
                        return self.unexpressed(
                            c,
                            node,
                            at,
                            "a list-map key cannot be named in CEL",
                        );
                    };
                    let mut r = Rule::new(
                        format!("self.all(x, self.exists_one(y, {}))", same.join(" && ")),
                        "",
                    )
                    .reason(Reason::Duplicate);
                    r.stability = level;
                    r.tag = Some(rule_name(c));
                    push_rule(node, &r);
                    self.expressed += 1;
                    return;
                }
                self.kw(node, "x-kubernetes-list-type", json!("map"), level);
                keyword(node, "x-kubernetes-list-map-keys", json!(json), level);
            }
        }
    }

    /// The rule of a check on the member `m` (`self.<json>`) of a struct (`subfield`, a mode's rules): the member's
    /// presence rules directly, its value rules as `absent` says. `Ok(None)`: nothing to check.
    fn member_rule(
        &mut self,
        c: &Check,
        m: &str,
        member: &MemberRef,
        absent: &Absent,
    ) -> Result<Option<Rule>, String> {
        let has = format!("has({m})");
        let set = cel::is_set("self", &member.json, &member.shape).unwrap_or(has.clone());
        match &c.kind {
            CheckKind::Optional => Ok(None),
            CheckKind::Required { detail } => Ok(Some(
                Rule::new(set, detail.clone().unwrap_or_default()).reason(Reason::Required),
            )),
            CheckKind::Forbidden { detail } => Ok(Some(
                Rule::new(format!("!{set}"), detail.clone().unwrap_or_default())
                    .reason(Reason::Forbidden),
            )),
            CheckKind::Immutable => Ok(Some(Rule::new(
                format!(
                    "{has} == has({o}) && (!{has} || {m} == {o})",
                    o = m.replacen("self", "oldSelf", 1)
                ),
                "field is immutable",
            ))),
            _ => match self.pred(c, m)? {
                Some(p) => {
                    let mut r = pred_rule(p);
                    r.rule = match absent {
                        Absent::Skip => format!("!{has} || ({})", r.rule),
                        Absent::Unset => format!("!{set} || ({})", r.rule),
                        Absent::Zero(z) => match self.pred(c, z)? {
                            Some(pz) => format!("{has} ? ({}) : ({})", r.rule, pz.expr),
                            None => format!("!{has} || ({})", r.rule),
                        },
                    };
                    Ok(Some(r))
                }
                None => Ok(None),
            },
        }
    }

    /// A leaf check as a CEL predicate over the value `v`. `Ok(None)` for a check with nothing to say; `Err` with
    /// the reason for one CEL cannot say here.
    fn pred(&mut self, c: &Check, v: &str) -> Result<Option<Pred>, String> {
        let p = |expr: String, message: String| Pred {
            expr,
            message,
            message_expression: None,
            reason: Reason::Invalid,
        };
        // `size(e) op n`, "`words` n unit(s)".
        let size = |e: String, op: &str, n: i64, words: &str, unit: &str| {
            p(
                format!("size({e}) {op} {n}"),
                format!("{words} {n} {}", plural(n, unit)),
            )
        };
        Ok(Some(match &c.kind {
            CheckKind::Optional
            | CheckKind::NoNils
            | CheckKind::FixedResult { result: true, .. } => {
                return Ok(None);
            }
            CheckKind::FixedResult {
                result: false, msg, ..
            } => p("false".into(), format!("forced failure: {msg}")),
            CheckKind::Minimum(n) => p(
                format!("{v} >= {n}"),
                format!("must be greater than or equal to {n}"),
            ),
            CheckKind::Maximum(n) => p(
                format!("{v} <= {n}"),
                format!("must be less than or equal to {n}"),
            ),
            CheckKind::MinimumDuration(n) => p(
                format!("{v} >= {n}"),
                format!("must be greater than or equal to {}", go_duration(*n)),
            ),
            CheckKind::MaximumDuration(n) => p(
                format!("{v} <= {n}"),
                format!("must be less than or equal to {}", go_duration(*n)),
            ),
            CheckKind::MinimumQuantity(q) => p(
                format!(
                    "quantity(string({v})).compareTo(quantity({})) >= 0",
                    cel::str_lit(q)
                ),
                format!("must be greater than or equal to {q}"),
            ),
            CheckKind::MaximumQuantity(q) => p(
                format!(
                    "quantity(string({v})).compareTo(quantity({})) <= 0",
                    cel::str_lit(q)
                ),
                format!("must be less than or equal to {q}"),
            ),
            CheckKind::MinLength(n) => size(v.into(), ">=", *n, "must be at least", "character"),
            CheckKind::MaxLength(n) => {
                size(v.into(), "<=", *n, "may not be more than", "character")
            }
            CheckKind::MaxLengthBytes(n) | CheckKind::MaxBytes(n) => size(
                format!("bytes({v})"),
                "<=",
                *n,
                "may not be more than",
                "byte",
            ),
            CheckKind::MaxBytesSlice(n) => size(v.into(), "<=", *n, "may not be more than", "byte"),
            CheckKind::MinItems(n) | CheckKind::MinProperties(n) => {
                size(v.into(), ">=", *n, "must have at least", "item")
            }
            CheckKind::MaxItems(n) | CheckKind::MaxProperties(n) => {
                size(v.into(), "<=", *n, "must have at most", "item")
            }
            CheckKind::Format(f) => {
                return format_pred(*f, v, self.options.cel_format_library)
                    .map(Some)
                    .ok_or_else(|| format!("no CEL form of format {} yet", f.name()));
            }
            CheckKind::Matches(pf) => p(
                format!("{v}.matches({})", cel::str_lit(&pf.pattern)),
                pf.message.clone(),
            ),
            CheckKind::Enum(e) => {
                if e.exclusions
                    .iter()
                    .any(|x| !self.options.options.contains_key(&x.option))
                {
                    return Err("an enum exclusion depends on an option not fixed at export".into());
                }
                let values: Vec<&String> = e
                    .values
                    .iter()
                    .filter(|v| {
                        !e.exclusions.iter().any(|x| {
                            &x.value == *v
                                && self
                                    .options
                                    .options
                                    .get(&x.option)
                                    .is_some_and(|&on| on == (x.when == OptionState::Enabled))
                        })
                    })
                    .collect();
                let lits: Vec<String> = values.iter().map(|s| cel::str_lit(s)).collect();
                let words: Vec<String> = values
                    .iter()
                    .map(|s| vgc_runtime::field::go_quote(s))
                    .collect();
                Pred {
                    expr: format!("{v} in [{}]", lits.join(", ")),
                    message: format!("supported values: {}", words.join(", ")),
                    message_expression: None,
                    reason: Reason::Invalid,
                }
            }
            CheckKind::Neq(x) => p(
                format!("{v} != {}", cel::value_lit(x)),
                format!("must not be equal to {}", cel::value_words(x)),
            ),
            CheckKind::Eq(x) => p(
                format!("{v} == {}", cel::value_lit(x)),
                format!("supported values: {}", cel::value_words(x)),
            ),
            CheckKind::IfOption(io) => {
                return match self.options.options.get(&io.option) {
                    Some(&on) if on == io.enabled => self.pred(&io.inner, v),
                    Some(_) => {
                        self.omitted_by_option += 1;
                        Ok(None)
                    }
                    None => Err(format!(
                        "runs only while option {} is {}; the option is not fixed at export",
                        io.option,
                        if io.enabled { "on" } else { "off" }
                    )),
                };
            }
            CheckKind::Custom { upstream, .. } => {
                return Err(format!(
                    "a hand-written Go function ({upstream}): OpenAPI and CEL cannot say what it checks"
                ));
            }
            // A member of the value (`item(…)=+k8s:subfield(m)=+tag`): its presence rules, or its value rules
            // while it is set.
            CheckKind::Subfield(sf) => {
                let m = cel::member(v, &sf.member.json)
                    .ok_or("the member's JSON name cannot be named in CEL")?;
                let set = cel::is_set(v, &sf.member.json, &sf.member.shape)
                    .unwrap_or_else(|| format!("has({m})"));
                return Ok(match &sf.inner.kind {
                    CheckKind::Optional => None,
                    CheckKind::Required { detail } => Some(Pred {
                        expr: set,
                        message: detail.clone().unwrap_or_default(),
                        message_expression: None,
                        reason: Reason::Required,
                    }),
                    CheckKind::Forbidden { detail } => Some(Pred {
                        expr: format!("!{set}"),
                        message: detail.clone().unwrap_or_default(),
                        message_expression: None,
                        reason: Reason::Forbidden,
                    }),
                    _ => self.pred(&sf.inner, &m)?.map(|p| Pred {
                        expr: format!("!has({m}) || ({})", p.expr),
                        ..p
                    }),
                });
            }
            _ => {
                return Err(format!(
                    "{} inside another rule has no CEL form in this export",
                    rule_name(c)
                ));
            }
        }))
    }

    /// A discriminated member's rules (`modeDiscriminator` + `ifMode`): for each mode, its checks on the member
    /// while the discriminator says that mode; for every other value, the member is forbidden.
    fn mode_rules(&mut self, m: &ModePlan, site: &ValueSite<'_>) -> Result<Vec<Rule>, String> {
        let json = site
            .struct_plan
            .and_then(|t| {
                t.fields
                    .iter()
                    .flatten()
                    .find(|f| f.go_field == m.discriminator.field)
            })
            .map(|f| f.json_name.clone())
            .ok_or("the discriminator is not a field of the struct the rule is on")?;
        let mem = cel::member("self", &m.member.json)
            .ok_or("the member's JSON name cannot be named in CEL")?;
        let (lit, zero): (fn(&str) -> String, &str) = match m.discriminator.kind {
            vgc_lowering::plan::DiscriminatorKind::Bool => (str::to_string, "false"),
            vgc_lowering::plan::DiscriminatorKind::String => (cel::str_lit, "''"),
        };
        // The discriminator is a non-pointer Go field: unset (`omitempty` leaves it out of the JSON) it is the zero,
        // which is a mode like any other (`secure` absent is mode "false").
        let mode_of = |obj: &str| -> Option<String> {
            let v = cel::member(obj, &json)?;
            Some(format!("(has({v}) ? {v} : {zero})"))
        };
        let dv = mode_of("self").ok_or("the discriminator's JSON name cannot be named in CEL")?;
        let old_dv = mode_of("oldSelf.value()")
            .ok_or("the discriminator's JSON name cannot be named in CEL")?;
        // upstream `Discriminated`: nothing is checked on an update that changes neither the discriminator nor the
        // member.
        let same = format!(
            "{dv} == {old_dv} && {}",
            cel::unchanged(&m.member.json)
                .ok_or("the member's JSON name cannot be named in CEL")?
        );
        let mut out = Vec::new();
        let mut modes = Vec::new();
        for (mode, checks) in &m.rules {
            modes.push(lit(mode));
            for c in live(checks) {
                if !self.exported(c.stability) {
                    continue;
                }
                if let Some(mut r) = self.member_rule(c, &mem, &m.member, &Absent::Skip)? {
                    let inner = r.plain.take().unwrap_or_else(|| r.rule.clone());
                    r.rule = format!("!({dv} == {}) || ({inner})", lit(mode));
                    r.field_path = Some(cel::field_path(&m.member.json));
                    r.stability = c.stability;
                    // A transition rule (`immutable`) reads `oldSelf` itself; it is not made optional.
                    if !r.rule.contains("oldSelf") {
                        r = r.ratcheted(&same);
                    }
                    out.push(r);
                }
            }
        }
        let set = cel::is_set("self", &m.member.json, &m.member.shape)
            .ok_or("the member's JSON name cannot be named in CEL")?;
        let mut forbid = Rule::new(format!("{dv} in [{}] || !{set}", modes.join(", ")), "")
            .reason(Reason::Forbidden)
            .at(Some(cel::field_path(&m.member.json)))
            .ratcheted(&same);
        forbid.stability = m.default_stability;
        out.push(forbid);
        Ok(out)
    }

    /// A union of list items (`item(…)=+k8s:unionMember`): how many members match some item of the list `list`
    /// (`self`, or a struct's `self.<field>`), ratcheted on the same count over `old` (`oldSelf.value()`, or
    /// `oldSelf.value().<field>`). On a struct's field each rule lets the absent list through (a rule on the list
    /// runs only while it is present; [`Self::absent_list_union`] says the absent list).
    fn list_union_rules(
        &self,
        lu: &ListUnionPlan,
        site: &ValueSite<'_>,
        list: &str,
        old: &str,
    ) -> Option<Vec<Rule>> {
        let elem = match strip(&self.types, site.ty) {
            RustTy::Vec(e) => e.named().and_then(|k| self.types.get(k)).copied(),
            _ => None,
        }?;
        let member = list != "self";
        let mut present = Vec::new();
        let mut old_present = Vec::new();
        for (_, sel) in &lu.members {
            let matches = selector_expr(elem, sel, "e")?;
            if member {
                present.push(format!("(has({list}) && {list}.exists(e, {matches}))"));
                old_present.push(format!("(has({old}) && {old}.exists(e, {matches}))"));
            } else {
                present.push(format!("{list}.exists(e, {matches})"));
                old_present.push(format!("{old}.exists(e, {matches})"));
            }
        }
        let names: Vec<String> = lu.members.iter().map(|(n, _)| format!("`{n}`")).collect();
        Some(count_rules(
            lu.kind,
            &present,
            &old_present,
            &names.join(", "),
            member.then_some((list, old)),
        ))
    }

    /// A union of list items (`item(…)=+k8s:unionMember`, on the field or on its list typedef) on a field that is
    /// neither `optional` nor `required`: upstream runs it on an absent list too (its functions take the nil
    /// slice), and no member is there, so "must specify one of". A rule on the list runs only when the list is
    /// present; this one, on the struct, refuses the absent list (skipped on an update whose old list had no member
    /// either: upstream's ratchet on unchanged membership).
    pub(crate) fn absent_list_union(&mut self, f: &FieldPlan, parent: &mut Parent) {
        let presence = |cs: &[Check]| {
            cs.iter().any(|c| {
                matches!(
                    c.kind,
                    CheckKind::Optional | CheckKind::Required { .. } | CheckKind::Forbidden { .. }
                )
            })
        };
        if presence(&f.checks) || !matches!(f.shape, Shape::List { .. }) {
            return;
        }
        let typedef = match &f.ty {
            RustTy::Named(k) if f.nested.as_ref().is_some_and(|n| &n.ty == k) => self
                .types
                .get(k)
                .filter(|t| t.fields.is_none())
                .map(|t| t.checks.as_slice()),
            _ => None,
        };
        let unions: Vec<(Box<ListUnionPlan>, Option<Stability>, String)> = live(&f.checks)
            .into_iter()
            .chain(typedef.map(live).unwrap_or_default())
            .filter_map(|c| match &c.kind {
                CheckKind::ListUnion(lu) if lu.kind == UnionKind::Union => {
                    Some((lu.clone(), c.stability, rule_name(c)))
                }
                _ => None,
            })
            .collect();
        let (Some(m), Some(old)) = (
            cel::member("self", &f.json_name),
            cel::member("oldSelf.value()", &f.json_name),
        ) else {
            return;
        };
        let Some(elem) = (match strip(&self.types, &f.ty) {
            RustTy::Vec(e) => e.named().and_then(|k| self.types.get(k)).copied(),
            _ => None,
        }) else {
            return;
        };
        for (lu, level, tag) in unions {
            if !self.exported(level) {
                continue;
            }
            // upstream's ratchet: no member's set-ness changed, so the old list had none of them either.
            let Some(old_members) = lu
                .members
                .iter()
                .map(|(_, sel)| {
                    selector_expr(elem, sel, "e").map(|x| format!("{old}.exists(e, {x})"))
                })
                .collect::<Option<Vec<String>>>()
            else {
                continue;
            };
            let names: Vec<String> = lu.members.iter().map(|(n, _)| format!("`{n}`")).collect();
            let mut r = Rule::new(
                format!("has({m})"),
                format!("must specify one of: {}", names.join(", ")),
            )
            .at(Some(cel::field_path(&f.json_name)))
            .ratcheted(&format!("(!has({old}) || !({}))", old_members.join(" || ")));
            r.stability = level;
            r.tag = Some(tag);
            parent.rules.push(r);
        }
    }

    /// `item(k: v)=+tag`: the inner check on the item the selector picks.
    fn item_rule(&mut self, it: &ItemPlan, site: &ValueSite<'_>) -> Result<Option<Rule>, String> {
        let elem = match strip(&self.types, site.ty) {
            RustTy::Vec(e) => e.named().and_then(|k| self.types.get(k)).copied(),
            _ => None,
        }
        .ok_or("`item` on a list whose items are not a struct of the plan")?;
        let sel = selector_expr(elem, &it.selector, "e")
            .ok_or("a list-map key cannot be named in CEL")?;
        if matches!(it.inner.kind, CheckKind::Immutable) {
            // upstream: on update, the item the selector picks is an error unless an old item it picks is equal, and
            // so is the old item it picked when the new list has none (removing it). Reported at the list: a
            // rule's `fieldPath` cannot name the item's index, which upstream's path carries.
            let old_sel = selector_expr(elem, &it.selector, "o")
                .ok_or("a list-map key cannot be named in CEL")?;
            return Ok(Some(Rule::new(
                format!(
                    "self.all(e, !({sel}) || oldSelf.exists(o, ({old_sel}) && o == e)) && \
                     oldSelf.all(o, !({old_sel}) || self.exists(e, ({sel}) && e == o))"
                ),
                "field is immutable",
            )));
        }
        let Some(p) = self.pred(&it.inner, "e")? else {
            return Ok(None);
        };
        let mut r = pred_rule(p);
        r.rule = format!("self.all(e, !({sel}) || ({}))", r.rule);
        r.message_expression = None;
        Ok(Some(r))
    }
}

/// How a `subfield`'s payload treats its member when the member is absent or zero.
enum Absent {
    /// Absent: nothing to check (a pointer, list, map or struct member: upstream's validators skip nil; a mode's
    /// rules).
    Skip,
    /// Unset (absent or its zero, [`cel::is_set`]): nothing to check — an `optional` or `required` of the member
    /// comes first in the cohort, and upstream's short-circuit stops the payload on an unset member.
    Unset,
    /// Absent: checked as this zero (CEL), which upstream's `Subfield` hands the payload — a non-pointer scalar
    /// member with no short-circuit before the payload (k8s.io/api's Eviction `metadata`:
    /// `subfield(name)=+k8s:format=k8s-long-name` refuses an object without a name).
    Zero(&'static str),
}

/// How `c` (the `subfield` `s`, from `list`) treats its member when absent ([`Absent`]): upstream's generated code
/// runs a member's subfield checks in the cohort's order, so an `optional` or `required` of the member before the
/// payload (its own, or inherited from the member's tags) stops it on an unset member.
fn subfield_absent(c: &Check, s: &vgc_lowering::plan::Subfield, list: &[Check]) -> Absent {
    let Some(i) = list.iter().position(|x| std::ptr::eq(x, c)) else {
        return Absent::Skip;
    };
    let short_circuited = list[..i].iter().any(|e| {
        e.cohort == c.cohort
            && matches!(&e.kind, CheckKind::Subfield(x)
                if x.member.json == s.member.json
                    && matches!(x.inner.kind, CheckKind::Optional | CheckKind::Required { .. }))
    });
    if short_circuited {
        Absent::Unset
    } else if let Some(z) = crate::builder::zero_literal(&s.member.shape) {
        Absent::Zero(z)
    } else {
        Absent::Skip
    }
}

/// The type a value holds: through `Option<T>` and typedefs (`type Items []Item`) to what they stand for.
fn strip<'t>(
    types: &std::collections::BTreeMap<&vgc_analysis::TypeKey, &'t TypePlan>,
    ty: &'t RustTy,
) -> &'t RustTy {
    match ty {
        RustTy::Option(i, _) => strip(types, i),
        RustTy::Named(k) => match types.get(k).and_then(|t| t.alias_of.as_ref()) {
            Some(a) if types.get(k).is_some_and(|t| t.fields.is_none()) => strip(types, a),
            _ => ty,
        },
        RustTy::Builtin(_)
        | RustTy::WellKnown(_)
        | RustTy::Vec(_)
        | RustTy::Map(_)
        | RustTy::Json => ty,
    }
}

impl ValueSite<'_> {
    /// `r` with the value's zero let through when upstream reads a present zero as unset ([`ValueSite::zero`]).
    fn guard(&self, mut r: Rule) -> Rule {
        if let Some(z) = self.zero {
            r.rule = format!("self == {z} || ({})", r.rule);
        }
        r
    }

    /// The zero as JSON, for `enum`.
    fn zero_json(&self) -> Option<Value> {
        match self.zero? {
            "''" => Some(json!("")),
            "0" => Some(json!(0)),
            "false" => Some(json!(false)),
            _ => None,
        }
    }
}

/// A [`Pred`] as a rule.
fn pred_rule(p: Pred) -> Rule {
    let mut r = Rule::new(p.expr, p.message).reason(p.reason);
    r.message_expression = p.message_expression;
    r
}

/// `N word` with upstream's singular for 1.
fn plural(n: i64, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// Go's `time.Duration.String()` of `ns` nanoseconds, for the 1.38 duration bounds' messages.
fn go_duration(ns: i64) -> String {
    vgc_runtime::types::go_duration_string(i128::from(ns))
}

/// CEL for "the present value is not its zero" of a field upstream's `required` reads as unset when zero (a value
/// kind's zero, an empty list or map), on the struct: true when absent (the keyword reports that) or set.
fn present_zero_is_set(json: &str, shape: &Shape) -> Option<String> {
    match shape {
        Shape::Scalar { pointer: false, .. } | Shape::List { .. } | Shape::Map => {
            let m = cel::member("self", json)?;
            let set = cel::is_set("self", json, shape)?;
            Some(format!("!has({m}) || {set}"))
        }
        _ => None,
    }
}

/// A transition rule on the struct holding field `json`: any change of the field, set-ness included, is an error.
fn transition(json: &str, message: &str) -> Option<Rule> {
    let n = cel::member("self", json)?;
    let o = cel::member("oldSelf", json)?;
    Some(
        Rule::new(
            format!("has({n}) == has({o}) && (!has({n}) || {n} == {o})"),
            message,
        )
        .at(Some(cel::field_path(json))),
    )
}

/// The CEL of a built-in format over `v`, where the Kubernetes CEL library (`format.*`, `matches`) says it; without
/// the `format` library (`library` false, [`crate::Options::cel_format_library`]) its checks are said with
/// `matches` ([`crate::patterns::format_regex`]).
pub(crate) fn format_pred(f: Format, v: &str, library: bool) -> Option<Pred> {
    let lib_on = |name: &str, x: &str| {
        if library {
            format!("!format.{name}().validate({x}).hasValue()")
        } else {
            crate::patterns::format_regex(name, x)
        }
    };
    let lib = |name: &str| lib_on(name, v);
    let (expr, message) = match f {
        Format::K8sShortName => (lib("dns1123Label"), "must be a lowercase RFC 1123 label"),
        Format::K8sLongName => (
            lib("dns1123Subdomain"),
            "must be a lowercase RFC 1123 subdomain",
        ),
        Format::K8sLabelKey => (lib("qualifiedName"), "must be a valid label key"),
        Format::K8sPrefixedLabelKey => (
            format!("{} && {v}.contains('/')", lib("qualifiedName")),
            "must be a valid label key with a prefix",
        ),
        Format::K8sLabelValue => (lib("labelValue"), "must be a valid label value"),
        Format::K8sLongNameCaseless => (
            format!(
                "size({v}) <= 253 && {v}.matches(r'^(?i)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')"
            ),
            "must be an RFC 1123 subdomain",
        ),
        Format::K8sUuid => (
            format!(
                "{v}.matches(r'^[0-9a-f]{{8}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{12}}$')"
            ),
            "must be a lowercase UUID in 8-4-4-4-12 format",
        ),
        Format::K8sPathSegmentName => (
            format!("{v} != '.' && {v} != '..' && !{v}.contains('/') && !{v}.contains('%')"),
            "may not be '.' or '..' and may not contain '/' or '%'",
        ),
        Format::K8sConditionReason => (
            format!("{v}.matches(r'^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$')"),
            "must be a valid condition reason",
        ),
        // One `matches` over the whole name: each `/`-separated part a subdomain (`IsDNS1123Subdomain`'s expression;
        // its 253-character bound holds with the whole name's). `split('/')` said the same at 3,311,473 a run in
        // the API server's estimate (the split and each part sized as the whole string), over the per-rule budget
        // below k8s.io/api's own `maxItems`; this costs 1,840.
        Format::K8sResourcePoolName => (
            format!(
                "size({v}) <= 253 && {v}.matches(r'^{sub}(/{sub})*$')",
                sub = crate::patterns::SHORT_SUBDOMAIN
            ),
            "must be a resource pool name: '/'-separated lowercase RFC 1123 subdomains",
        ),
        Format::K8sExtendedResourceName => (
            format!(
                "{v}.contains('/') && !{v}.contains('kubernetes.io/') && !{v}.startsWith('requests.') && {}",
                lib_on("qualifiedName", &format!("'requests.' + {v}"))
            ),
            "must be an extended resource name: a domain-prefixed path, such as 'example.com/my-prop'",
        ),
        Format::K8sResourceFullyQualifiedName | Format::K8sResourceFullyQualifiedNameV1_38 => {
            // Said with `matches` instead of `split('/')`, the same verdicts at 32,784 a run instead of 85,245 in the
            // API server's estimate of a 4,096-character string (it sizes each part as the whole string): a prefix
            // of 1 to 63 characters before the one slash, a subdomain (within 63 characters, within
            // `IsDNS1123Subdomain`'s 253), then a C identifier of at most 32 characters.
            let two = format!(
                "{v}.matches(r'^[^/]{{1,63}}/') && {v}.matches(r'^{}/[A-Za-z_]\\w{{0,31}}$')",
                crate::patterns::SHORT_SUBDOMAIN
            );
            // Before 1.38 more than one slash passes (kubernetes#141644).
            let expr = if f == Format::K8sResourceFullyQualifiedName {
                format!("{v}.matches(r'^[^/]*/[^/]*/') || ({two})")
            } else {
                two
            };
            (
                expr,
                "a fully qualified name must be a domain and a name separated by a slash",
            )
        }
    };
    Some(Pred {
        expr,
        message: message.into(),
        message_expression: None,
        reason: Reason::Invalid,
    })
}

/// Whether the API server's schema validator checks `format: f` itself: kube-openapi's `k8s-short-name` and
/// `k8s-long-name` (k8s.io/apiextensions-apiserver's `supportedVersionedFormats`, since Kubernetes 1.34), reported as
/// `TypeInvalid`; every other Kubernetes format is stripped from a CRD's schema and checked by nothing but its CEL rule.
fn server_checks_format(f: Format) -> bool {
    matches!(f, Format::K8sShortName | Format::K8sLongName)
}

/// The length no valid value of format `f` exceeds (characters; every valid value is ASCII), where there is one:
/// upstream's `content` checks (`IsDNS1123Label`: 63, `IsDNS1123Subdomain`: 253, label values 63, label keys a
/// 253-character prefix, `/` and a 63-character name, UUIDs 36, resource pool names 253, 1.38's fully qualified
/// resource names 96).
fn format_max_length(f: Format) -> Option<i64> {
    match f {
        Format::K8sShortName | Format::K8sLabelValue => Some(63),
        Format::K8sLongName | Format::K8sLongNameCaseless | Format::K8sResourcePoolName => {
            Some(253)
        }
        Format::K8sLabelKey | Format::K8sPrefixedLabelKey => Some(317),
        Format::K8sUuid => Some(36),
        // 1.38: a 63-character prefix, `/` and a 32-character name; before, a name with two slashes passes at any
        // length.
        Format::K8sResourceFullyQualifiedNameV1_38 => Some(96),
        _ => None,
    }
}

/// CEL: the item `e` matches the selector (every list-map key equal to its value).
fn selector_expr(elem: &TypePlan, sel: &Selector, e: &str) -> Option<String> {
    let mut conds = Vec::new();
    for (go, _ptr, v) in sel {
        let json = &elem
            .fields
            .iter()
            .flatten()
            .find(|f| &f.go_field == go)?
            .json_name;
        let m = cel::member(e, json)?;
        conds.push(format!("has({m}) && {m} == {}", cel::value_lit(v)));
    }
    Some(conds.join(" && "))
}

/// The rules of a union or zero-or-one-of over the "is set" expressions `present` (upstream `union.go`), each
/// skipped on an update whose old value had the same members set (`old_present`, the same expressions over
/// `oldSelf.value()`): upstream's `unionValidate` returns nothing when no member's set-ness changed. With
/// `lists` (a struct's list union: the list and the old list, `self.l` and `oldSelf.value().l`), each rule passes
/// where the list is absent and is skipped only where the old list is present, as the rule on the list itself
/// would be (it runs only on a present list, and without `oldSelf` where the old list is absent).
fn count_rules(
    kind: UnionKind,
    present: &[String],
    old_present: &[String],
    names: &str,
    lists: Option<(&str, &str)>,
) -> Vec<Rule> {
    let count = format!("[{}].filter(x, x).size()", present.join(", "));
    let mut same = format!("[{}] == [{}]", present.join(", "), old_present.join(", "));
    if let Some((_, old)) = lists {
        same = format!("has({old}) && {same}");
    }
    let rules = match kind {
        UnionKind::Union => vec![
            Rule::new(
                format!("{count} >= 1"),
                format!("must specify one of: {names}"),
            ),
            Rule::new(
                format!("{count} <= 1"),
                format!("must specify exactly one of: {names}"),
            ),
        ],
        UnionKind::ZeroOrOneOf => vec![Rule::new(
            format!("{count} <= 1"),
            format!("must specify at most one of: {names}"),
        )],
    };
    rules
        .into_iter()
        .map(|mut r| {
            if let Some((list, _)) = lists {
                r.rule = format!("!has({list}) || ({})", r.rule);
            }
            r.ratcheted(&same)
        })
        .collect()
}

/// A union of struct fields: without a discriminator, how many members are set; with one, each member set exactly
/// when the discriminator names it. Skipped on an update that changes neither the discriminator nor any member's
/// set-ness (upstream `unionValidate`, `DiscriminatedUnion`).
fn union_rules(u: &UnionPlan) -> Option<Vec<Rule>> {
    let mut present = Vec::new();
    let mut old_present = Vec::new();
    for m in &u.members {
        present.push(cel::is_set("self", &m.member.json, &m.member.shape)?);
        old_present.push(cel::is_set(
            "oldSelf.value()",
            &m.member.json,
            &m.member.shape,
        )?);
    }
    let names: Vec<String> = u
        .members
        .iter()
        .map(|m| format!("`{}`", m.member.json))
        .collect();
    let Some(d) = &u.discriminator else {
        return Some(count_rules(
            u.kind,
            &present,
            &old_present,
            &names.join(", "),
            None,
        ));
    };
    let dm = cel::member("self", &d.json)?;
    let same = format!(
        "{} && [{}] == [{}]",
        cel::unchanged(&d.json)?,
        present.join(", "),
        old_present.join(", ")
    );
    let mut out = Vec::new();
    for (m, set) in u.members.iter().zip(&present) {
        let selected = format!("(has({dm}) && {dm} == {})", cel::str_lit(&m.member_name));
        let when = format!(
            "when `{}` is {}",
            d.json,
            vgc_runtime::field::go_quote(&m.member_name)
        );
        for (rule, message) in [
            (format!("!{set} || {selected}"), "may only be specified"),
            (format!("!{selected} || {set}"), "must be specified"),
        ] {
            out.push(
                Rule::new(rule, format!("{message} {when}"))
                    .at(Some(cel::field_path(&m.member.json)))
                    .ratcheted(&same),
            );
        }
    }
    Some(out)
}

/// `dependentRequired`/`dependentForbidden` on the struct.
fn dependent_rule(d: &DependentPlan) -> Option<Rule> {
    let t = cel::is_set("self", &d.trigger.json, &d.trigger.shape)?;
    let s = cel::is_set("self", &d.dependent.json, &d.dependent.shape)?;
    // upstream: skipped on an update where both set-nesses are unchanged.
    let same = format!(
        "{} && {}",
        cel::same_setness(&d.trigger.json, &d.trigger.shape)?,
        cel::same_setness(&d.dependent.json, &d.dependent.shape)?
    );
    let rule = if d.forbidden {
        Rule::new(
            format!("!{t} || !{s}"),
            format!("may not be set when {} is set", d.trigger.json),
        )
        .reason(Reason::Forbidden)
        .at(Some(cel::field_path(&d.dependent.json)))
    } else {
        Rule::new(
            format!("!{t} || {s}"),
            format!("must be set when {} is set", d.trigger.json),
        )
        .reason(Reason::Required)
        .at(Some(cel::field_path(&d.dependent.json)))
    };
    Some(rule.ratcheted(&same))
}
