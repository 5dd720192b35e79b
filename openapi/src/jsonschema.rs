//! JSON Schema for kubeconform (issue 39, `docs/openapi.md` "JSON Schema"): the OpenAPI v3 component schemas of
//! [`crate::generate`] (or of a merged k8s.io/kubernetes spec) said in JSON Schema draft 4, the draft kubeconform
//! v0.8.0 compiles schemas with (`jsonschema.Draft4` in `pkg/validator/validator.go`), in the file layout its
//! schema-location template reads (`pkg/registry/registry.go`):
//! `{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json` —
//! [`STANDALONE_DIR`] and [`STRICT_DIR`] (the `-strict` variant, `additionalProperties: false` on every object with
//! `properties`, as openapi2jsonschema's `--strict` writes it), one file per kind named as kubeconform looks it up
//! ([`Kind::file_name`]: `deployment-apps-v1.json`, `pod-v1.json`, `ingress-networking-v1.json`).
//!
//! Each file is *standalone*, as kubeconform's default registry (yannh/kubernetes-json-schema) is: every `$ref`
//! inlined, except a reference back into a type being inlined (a recursive type), which points at the file's own
//! `definitions`. As openapi2jsonschema writes them, a property that its object does not list in `required` may be
//! `null` (the API server drops the nulls of such fields), and `int-or-string` becomes
//! `oneOf: [{type: string}, {type: integer}]`.
//!
//! The rules: the keywords JSON Schema shares with OpenAPI stay (`minimum`/`maximum` and their exclusive forms,
//! `minLength`/`maxLength`, `minItems`/`maxItems`, `minProperties`/`maxProperties`, `required`, `enum`);
//! `x-kubernetes-list-type: set` becomes `uniqueItems: true`; a Kubernetes format (`format: k8s-short-name`, which
//! kubeconform's validator does not know and would ignore) becomes the `pattern` (or patterns, under `allOf`) that
//! accepts exactly what upstream's check accepts, where one exists ([`format_schema`]); a CEL rule the OpenAPI
//! backend wrote for a format, or a bound with the zero let through (`self == 0 || (self >= 1)`), becomes the same
//! keywords (under `anyOf` with the zero); a field with a `default` is not `required` (the API server defaults it before
//! validating; a client validates the manifest as written). Everything else — CEL rules (`x-kubernetes-validations`), list-map key
//! uniqueness, formats without an exact pattern — is listed under [`crate::UNEXPRESSED_KEY`] of its node and returned
//! as an [`Unexpressed`]: never dropped without a word.

use crate::Unexpressed;
use crate::patterns::{LABEL, QUALIFIED_NAME};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use vgc_lowering::CratePlan;
use vgc_runtime::formats::Format;

/// The directory of the standalone schemas (refs inlined), named as kubeconform's template names it for the
/// default `-kubernetes-version master`.
pub const STANDALONE_DIR: &str = "master-standalone";

/// The directory of the strict standalone schemas (`additionalProperties: false`), read by `kubeconform -strict`.
pub const STRICT_DIR: &str = "master-standalone-strict";

/// The JSON Schema dialect of every file (kubeconform compiles with draft 4 by default).
pub const DRAFT: &str = "http://json-schema.org/draft-04/schema#";

/// The keywords counted as rules when they appear in a converted schema.
const RULE_KEYWORDS: &[&str] = &[
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "pattern",
    "required",
    "uniqueItems",
];

/// One kind a schema file is written for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Kind {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version (`v1`).
    pub version: String,
    /// The kind (`Deployment`).
    pub kind: String,
    /// The component schema validating it (`io.k8s.api.apps.v1.Deployment`).
    pub schema: String,
}

impl Kind {
    /// The file kubeconform looks the kind up in: `{{ .ResourceKind }}{{ .KindSuffix }}.json`, the kind lower-cased,
    /// then `-` and the first label of the group (none for the core group), then `-` and the version, lower-cased
    /// (`Deployment` of `apps/v1` → `deployment-apps-v1.json`, `Pod` of `v1` → `pod-v1.json`, `Ingress` of
    /// `networking.k8s.io/v1` → `ingress-networking-v1.json`). upstream: kubeconform v0.8.0 `registry.schemaPath`.
    #[must_use]
    pub fn file_name(&self) -> String {
        let mut s = self.kind.to_lowercase();
        if !self.group.is_empty() {
            s.push('-');
            s.push_str(&self.group.split('.').next().unwrap_or("").to_lowercase());
        }
        s.push('-');
        s.push_str(&self.version.to_lowercase());
        s.push_str(".json");
        s
    }
}

/// One file of the output: its path relative to the output directory (`master-standalone/pod-v1.json`) and the
/// schema.
#[derive(Debug, Clone)]
pub struct JsonSchemaFile {
    /// `<STANDALONE_DIR or STRICT_DIR>/<Kind::file_name>`.
    pub path: String,
    /// The JSON Schema.
    pub json: Value,
}

/// What [`json_schemas`] produced.
#[derive(Debug, Clone, Default)]
pub struct JsonSchemas {
    /// Two files per kind (standalone and strict), sorted by path.
    pub files: Vec<JsonSchemaFile>,
    /// The rules of the components the files use that JSON Schema cannot state, sorted, once per component and
    /// path (each also listed under [`crate::UNEXPRESSED_KEY`] at its place in every file that holds it).
    pub unexpressed: Vec<Unexpressed>,
    /// The rule keywords stated, counted once per component (see the module docs for which keywords count).
    pub expressed: usize,
    /// Problems that cost a kind its file or part of a schema: two kinds with the same file name (the first by
    /// group, version and kind is written), a kind whose schema is missing, a reference to a missing schema.
    pub notes: Vec<String>,
}

/// The kinds of `plan`'s packages that [`crate::generate`] wrote a document for (a group/version of `documents`),
/// with their component names; and each one's list kind (`ConfigMapList`, schema `…ConfigMapList`) where `output`
/// has its schema ([`crate::Output::lists`]).
#[must_use]
pub fn kinds_of_plan(plan: &CratePlan, output: &crate::Output) -> Vec<Kind> {
    let served: BTreeSet<(String, String)> = output
        .documents
        .iter()
        .map(|d| (d.group.clone(), d.version.clone()))
        .collect();
    let mut out: Vec<Kind> = vgc_lowering::plan::kinds(&plan.modules)
        .into_iter()
        .filter(|k| served.contains(&(k.group.clone(), k.version.clone())))
        .map(|k| Kind {
            schema: crate::schema_name(&k.key),
            group: k.group,
            version: k.version,
            kind: k.kind,
        })
        .collect();
    let lists: Vec<Kind> = out
        .iter()
        .filter(|k| output.lists.contains(&format!("{}List", k.schema)))
        .map(|k| Kind {
            group: k.group.clone(),
            version: k.version.clone(),
            kind: format!("{}List", k.kind),
            schema: format!("{}List", k.schema),
        })
        .collect();
    out.extend(lists);
    out
}

/// The kinds an OpenAPI document's component schemas declare (`x-kubernetes-group-version-kind`, as
/// k8s.io/kubernetes' `api/openapi-spec/v3` carries it), sorted and deduplicated.
#[must_use]
pub fn kinds_of_spec(schemas: &Map<String, Value>) -> Vec<Kind> {
    let mut out = BTreeSet::new();
    for (name, s) in schemas {
        for gvk in s
            .get("x-kubernetes-group-version-kind")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let field = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let kind = field("kind");
            if kind.is_empty() {
                continue;
            }
            out.insert(Kind {
                group: field("group"),
                version: field("version"),
                kind,
                schema: name.clone(),
            });
        }
    }
    out.into_iter().collect()
}

/// Writes the JSON Schema files of `kinds` from the OpenAPI component schemas `schemas` (by component name), as the
/// module docs describe. Deterministic: the same input gives byte-identical files.
#[must_use]
pub fn json_schemas(schemas: &BTreeMap<String, Value>, kinds: &[Kind]) -> JsonSchemas {
    let mut out = JsonSchemas::default();
    // Each component converted once: its rules said in JSON Schema or listed.
    let mut converted: BTreeMap<String, Value> = BTreeMap::new();
    let mut acc = Acc::default();
    for (name, s) in schemas {
        let mut v = s.clone();
        convert(&mut v, name, "", &mut acc);
        converted.insert(name.clone(), v);
    }
    let mut kinds = kinds.to_vec();
    kinds.sort();
    // The list kinds (`ConfigMapList` of `ConfigMap`): their own `required: [items]` is kube-openapi's shape, not a
    // rule of the Go types.
    let list_names: BTreeSet<String> = kinds
        .iter()
        .filter(|k| {
            k.kind.ends_with("List")
                && k.schema.ends_with("List")
                && kinds
                    .iter()
                    .any(|i| format!("{}List", i.schema) == k.schema)
        })
        .map(|k| k.schema.clone())
        .collect();
    let lists: BTreeSet<&str> = list_names.iter().map(String::as_str).collect();
    let mut written: BTreeMap<String, &Kind> = BTreeMap::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut missing: BTreeSet<String> = BTreeSet::new();
    for k in &kinds {
        let file = k.file_name();
        if let Some(first) = written.get(&file) {
            out.notes.push(format!(
                "{file}: kinds {}/{} {} and {}/{} {} have the same kubeconform file name; the first is written",
                first.group, first.version, first.kind, k.group, k.version, k.kind
            ));
            continue;
        }
        if !converted.contains_key(&k.schema) {
            out.notes.push(format!(
                "{}/{} {}: no schema {} to write",
                k.group, k.version, k.kind, k.schema
            ));
            continue;
        }
        written.insert(file.clone(), k);
        let mut ctx = Inline {
            comps: &converted,
            stack: vec![k.schema.clone()],
            recursive: BTreeSet::new(),
            used: BTreeSet::new(),
            missing: BTreeSet::new(),
        };
        let mut root = ctx.inline(&converted[&k.schema]);
        let mut defs = Map::new();
        loop {
            let todo: Vec<String> = ctx
                .recursive
                .iter()
                .filter(|n| !defs.contains_key(*n))
                .cloned()
                .collect();
            if todo.is_empty() {
                break;
            }
            for n in todo {
                ctx.stack = vec![n.clone()];
                let d = ctx.inline(&converted[&n]);
                defs.insert(n, d);
            }
        }
        // A list kind's file holds its kind's components (or their variants without transition rules, which JSON
        // Schema cannot state anyway): the rules are counted and listed by the kind's own file.
        if !lists.contains(k.schema.as_str()) {
            used.extend(ctx.used);
            used.insert(k.schema.clone());
        }
        missing.extend(ctx.missing);
        if let Value::Object(m) = &mut root {
            if !defs.is_empty() {
                m.insert("definitions".into(), Value::Object(defs));
            }
            m.insert("$schema".into(), json!(DRAFT));
            m.insert(
                "x-kubernetes-group-version-kind".into(),
                json!([{"group": k.group, "kind": k.kind, "version": k.version}]),
            );
        }
        for (dir, strict) in [(STANDALONE_DIR, false), (STRICT_DIR, true)] {
            let mut v = root.clone();
            finish(&mut v, strict);
            crate::sort_keys(&mut v);
            out.files.push(JsonSchemaFile {
                path: format!("{dir}/{file}"),
                json: v,
            });
        }
    }
    for m in missing {
        out.notes.push(format!(
            "a reference to {m}, which no document holds, is an empty schema (accepts anything)"
        ));
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.unexpressed = acc
        .unexpressed
        .into_iter()
        .filter(|u| used.contains(&u.schema))
        .collect();
    out.unexpressed.sort();
    out.unexpressed.dedup();
    out.expressed = acc
        .expressed
        .iter()
        .filter(|(n, _)| used.contains(*n))
        .map(|(_, c)| c)
        .sum();
    out
}

/// What the conversion of the components gathers.
#[derive(Default)]
struct Acc {
    unexpressed: Vec<Unexpressed>,
    /// Rule keywords stated, by component.
    expressed: BTreeMap<String, usize>,
}

impl Acc {
    /// Lists a rule that JSON Schema cannot state on `node` and in the summary.
    fn unexpressed(
        &mut self,
        node: &mut Map<String, Value>,
        schema: &str,
        path: &str,
        rule: &str,
        reason: &str,
        cel: Option<&str>,
    ) {
        let mut entry = json!({"path": path, "reason": reason, "rule": rule});
        if let (Some(c), Value::Object(e)) = (cel, &mut entry) {
            e.insert("cel".into(), json!(c));
        }
        if let Value::Array(a) = node
            .entry(crate::UNEXPRESSED_KEY)
            .or_insert_with(|| Value::Array(Vec::new()))
            && !a.contains(&entry)
        {
            a.push(entry);
        }
        self.unexpressed.push(Unexpressed {
            schema: schema.to_string(),
            path: path.to_string(),
            rule: rule.to_string(),
            reason: reason.to_string(),
        });
    }
}

/// Says the rules of `v` (a schema of component `schema`, at JSON path `path` below it) in JSON Schema, in place,
/// and the schemas below it.
fn convert(v: &mut Value, schema: &str, path: &str, acc: &mut Acc) {
    let Value::Object(m) = v else { return };
    let before_all_of = m.get("allOf").and_then(Value::as_array).map_or(0, Vec::len);
    node_rules(m, schema, path, acc);
    // The node's own rule keywords, and one for each rule added under `allOf` (its keywords say one rule).
    let added = m.get("allOf").and_then(Value::as_array).map_or(0, Vec::len) - before_all_of;
    // A bound vgc added for the cost estimate (`x-vgc-bound`, `--bound-lists`/`--bound-strings`) is not a rule.
    let bound = usize::from(
        m.get(crate::cost::bounds::BOUND_KEY)
            .and_then(Value::as_str)
            .is_some_and(|k| m.contains_key(k)),
    );
    let count = RULE_KEYWORDS.iter().filter(|k| m.contains_key(**k)).count() + added - bound;
    *acc.expressed.entry(schema.to_string()).or_default() += count;
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (k, p) in props.iter_mut() {
            convert(p, schema, &format!("{path}.{k}"), acc);
        }
    }
    if let Some(items) = m.get_mut("items") {
        convert(items, schema, &format!("{path}[*]"), acc);
    }
    if let Some(ap @ Value::Object(_)) = m.get_mut("additionalProperties") {
        convert(ap, schema, &format!("{path}[*]"), acc);
    }
    // Members of `allOf`/`anyOf`/`oneOf` hold no CEL or Kubernetes format in either kind of document; the ones
    // added above are counted already.
}

/// The rules of one schema node: its Kubernetes format, list type and CEL rules.
fn node_rules(m: &mut Map<String, Value>, schema: &str, path: &str, acc: &mut Acc) {
    // A Kubernetes format (kubeconform's validator does not know it: it would be ignored).
    let mut keyword_format = match m.get("format").and_then(Value::as_str) {
        Some(f) if Format::from_name(f).is_some() => {
            let f = f.to_string();
            m.remove("format");
            Some(f)
        }
        _ => None,
    };
    match m.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => {
            m.insert("uniqueItems".into(), json!(true));
        }
        Some("map") => {
            let keys: Vec<&str> = m
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let rule = format!("x-kubernetes-list-type: map ({})", keys.join(", "));
            acc.unexpressed(
                m,
                schema,
                path,
                &rule,
                "JSON Schema cannot state uniqueness by key (`uniqueItems` compares whole items)",
                None,
            );
        }
        _ => {}
    }
    // A required field with a default (`+default`): the API server defaults it before validating, so a manifest,
    // which a client validates as written, may omit it.
    let defaulted: Vec<String> = match (m.get("required"), m.get("properties")) {
        (Some(Value::Array(req)), Some(Value::Object(props))) => req
            .iter()
            .filter_map(Value::as_str)
            .filter(|n| props.get(*n).is_some_and(|p| p.get("default").is_some()))
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    if !defaulted.is_empty() {
        if let Some(Value::Array(req)) = m.get_mut("required") {
            req.retain(|n| !n.as_str().is_some_and(|n| defaulted.iter().any(|d| d == n)));
            if req.is_empty() {
                m.remove("required");
            }
        }
        for n in &defaulted {
            acc.unexpressed(
                m,
                schema,
                &format!("{path}.{n}"),
                "required",
                "the field has a default, which the API server applies before validating: a manifest may omit it",
                None,
            );
        }
    }
    let rules = match m.remove("x-kubernetes-validations") {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    };
    for r in rules {
        let cel = r.get("rule").and_then(Value::as_str).unwrap_or("");
        let tag = r
            .get(crate::TAG_KEY)
            .and_then(Value::as_str)
            .unwrap_or("x-kubernetes-validations");
        if let Some((s, zero, f)) = keywords_of_rule(tag, cel) {
            if f.is_some_and(|f| keyword_format.as_deref() == Some(f.name())) {
                keyword_format = None;
            }
            add_schema(m, s, zero);
            continue;
        }
        // A ratcheted rule (`optionalOldSelf`, `(oldSelf.hasValue() && …) || (…)`) is listed by its plain form:
        // what it checks on a manifest, which has no old object.
        let shown = r
            .get(crate::cel::PLAIN_RULE_KEY)
            .and_then(Value::as_str)
            .unwrap_or(cel);
        acc.unexpressed(
            m,
            schema,
            path,
            tag,
            "a CEL rule (x-kubernetes-validations): JSON Schema cannot state it",
            Some(shown),
        );
    }
    if let Some(name) = keyword_format {
        match Format::from_name(&name).and_then(format_schema) {
            Some(s) => add_schema(m, s, None),
            None => acc.unexpressed(
                m,
                schema,
                path,
                &format!("format: {name}"),
                "kubeconform's validator does not know this format and no pattern says exactly what it accepts",
                None,
            ),
        }
    }
}

/// Adds the keywords `s` to the node: on the node itself when it has none of them with another value and no zero is
/// let through, otherwise under `allOf` (with the zero: `anyOf: [{enum: [zero]}, s]`).
fn add_schema(m: &mut Map<String, Value>, s: Value, zero: Option<Value>) {
    let s = match (zero, s) {
        (Some(z), s) => json!({"anyOf": [{"enum": [z]}, s]}),
        (None, Value::Object(o)) if o.iter().all(|(k, v)| m.get(k).is_none_or(|x| x == v)) => {
            m.extend(o);
            return;
        }
        (None, s) => s,
    };
    if let Value::Array(a) = m.entry("allOf").or_insert_with(|| Value::Array(Vec::new())) {
        a.push(s);
    }
}

/// The JSON Schema keywords a CEL rule of the OpenAPI backend says, when it is one JSON Schema can state exactly:
/// a format's rule ([`format_schema`]), or a bound (`self >= N`, `size(self) <= N`), each alone or with the zero
/// let through (`self == '' || (…)`, `self == 0 || (…)`); with the zero to let through and the format it is.
fn keywords_of_rule(tag: &str, cel: &str) -> Option<(Value, Option<Value>, Option<Format>)> {
    let (zero, inner) = if let Some(rest) = cel.strip_prefix("self == '' || (") {
        (Some(json!("")), rest.strip_suffix(')')?)
    } else if let Some(rest) = cel.strip_prefix("self == 0 || (") {
        (Some(json!(0)), rest.strip_suffix(')')?)
    } else {
        (None, cel)
    };
    if tag == "k8s:format" {
        let all = Format::ALL
            .iter()
            .copied()
            .chain([Format::K8sResourceFullyQualifiedNameV1_38]);
        for f in all {
            for library in [true, false] {
                if crate::rules::format_pred(f, "self", library).is_some_and(|p| p.expr == inner) {
                    return format_schema(f).map(|s| (s, zero, Some(f)));
                }
            }
        }
        return None;
    }
    let bound = |prefix: &str| -> Option<i64> { inner.strip_prefix(prefix)?.parse().ok() };
    let s = match tag {
        "k8s:minimum" => {
            if let Some(n) = bound("self >= ") {
                json!({"minimum": n})
            } else {
                json!({"exclusiveMinimum": true, "minimum": bound("self > ")?})
            }
        }
        "k8s:maximum" => {
            if let Some(n) = bound("self <= ") {
                json!({"maximum": n})
            } else {
                json!({"exclusiveMaximum": true, "maximum": bound("self < ")?})
            }
        }
        "k8s:minLength" => json!({"minLength": bound("size(self) >= ")?}),
        "k8s:maxLength" => json!({"maxLength": bound("size(self) <= ")?}),
        _ => return None,
    };
    Some((s, zero, None))
}

/// The JSON Schema that accepts exactly the strings format `f` accepts (upstream's check, as the runtime's
/// `formats` module mirrors it), in Go's regular-expression syntax (kubeconform's validator compiles `pattern` with
/// Go's `regexp`); `None` where no pattern does (`k8s-extended-resource-name`: its exclusions need a look-ahead).
/// Length bounds that every valid value obeys are stated too (the OpenAPI backend also writes them as `maxLength`).
#[must_use]
pub fn format_schema(f: Format) -> Option<Value> {
    let subdomain = format!("{LABEL}(\\.{LABEL})*");
    let one = |p: String| Some(json!({"pattern": p}));
    match f {
        Format::K8sShortName => Some(json!({"maxLength": 63, "pattern": format!("^{LABEL}$")})),
        Format::K8sLongName => Some(json!({"maxLength": 253, "pattern": format!("^{subdomain}$")})),
        Format::K8sLongNameCaseless => {
            let l = "[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?";
            Some(json!({"maxLength": 253, "pattern": format!("^{l}(\\.{l})*$")}))
        }
        Format::K8sLabelValue => {
            one("^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$".to_string())
        }
        // `content.IsQualifiedName`: an optional subdomain prefix of at most 253 characters and `/`, then a name of
        // at most 63.
        Format::K8sLabelKey => Some(json!({"allOf": [
            {"pattern": format!("^({subdomain}/)?{QUALIFIED_NAME}$")},
            {"pattern": "^([^/]{1,253}/)?[^/]*$"},
        ]})),
        Format::K8sPrefixedLabelKey => Some(json!({"allOf": [
            {"pattern": format!("^{subdomain}/{QUALIFIED_NAME}$")},
            {"pattern": "^[^/]{1,253}/[^/]*$"},
        ]})),
        Format::K8sUuid => {
            one("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$".to_string())
        }
        Format::K8sConditionReason => one("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$".to_string()),
        // Not `.` or `..`, no `/` or `%`.
        Format::K8sPathSegmentName => {
            one("^([^/%.][^/%]*|\\.[^/%.][^/%]*|\\.\\.[^/%]+)?$".to_string())
        }
        // `/`-separated subdomains, 253 characters at most.
        Format::K8sResourcePoolName => {
            Some(json!({"maxLength": 253, "pattern": format!("^{subdomain}(/{subdomain})*$")}))
        }
        // A subdomain of at most 63 characters, `/`, a C identifier of at most 32.
        Format::K8sResourceFullyQualifiedNameV1_38 => Some(json!({"allOf": [
            {"pattern": format!("^{subdomain}/[A-Za-z_][A-Za-z0-9_]{{0,31}}$")},
            {"pattern": "^[^/]{1,63}/"},
        ]})),
        // Before 1.38 a value with more than one slash passes.
        Format::K8sResourceFullyQualifiedName => Some(json!({"anyOf": [
            {"pattern": "^[^/]*/[^/]*/"},
            format_schema(Format::K8sResourceFullyQualifiedNameV1_38)?,
        ]})),
        Format::K8sExtendedResourceName => None,
    }
}

/// Inlining of the converted components into one kind's file.
struct Inline<'a> {
    comps: &'a BTreeMap<String, Value>,
    /// The components being inlined, outermost first.
    stack: Vec<String>,
    /// Components referenced from inside themselves: written once under `definitions`.
    recursive: BTreeSet<String>,
    /// Every component inlined.
    used: BTreeSet<String>,
    /// References to components that do not exist.
    missing: BTreeSet<String>,
}

impl Inline<'_> {
    /// `v` with every reference replaced by the referenced schema (see the module docs).
    fn inline(&mut self, v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let target = ref_target(m);
                let mut own = Map::new();
                for (k, x) in m {
                    if target.is_some() && (k == "$ref" || k == "allOf") {
                        continue;
                    }
                    let x =
                        if k == "enum" || k == "default" || k == "example" || k.starts_with("x-") {
                            x.clone()
                        } else {
                            self.inline(x)
                        };
                    own.insert(k.clone(), x);
                }
                let Some(name) = target else {
                    return Value::Object(own);
                };
                if self.stack.contains(&name) {
                    self.recursive.insert(name.clone());
                    let r = json!({"$ref": format!("#/definitions/{name}")});
                    if own.is_empty() {
                        return r;
                    }
                    own.insert("allOf".into(), json!([r]));
                    return Value::Object(own);
                }
                let Some(target) = self.comps.get(&name) else {
                    self.missing.insert(name);
                    return Value::Object(own);
                };
                self.used.insert(name.clone());
                self.stack.push(name);
                let resolved = self.inline(target);
                self.stack.pop();
                let Value::Object(mut r) = resolved else {
                    return resolved;
                };
                // The use's own keys win (a default, a description), lists of rules and listed exceptions join.
                for (k, x) in own {
                    match (k.as_str(), r.get_mut(&k), x) {
                        (
                            "allOf" | crate::UNEXPRESSED_KEY,
                            Some(Value::Array(a)),
                            Value::Array(b),
                        ) => {
                            a.extend(b);
                        }
                        (_, _, x) => {
                            r.insert(k, x);
                        }
                    }
                }
                Value::Object(r)
            }
            Value::Array(a) => Value::Array(a.iter().map(|x| self.inline(x)).collect()),
            other => other.clone(),
        }
    }
}

/// The component a schema node references: `$ref`, or the `allOf: [{$ref}]` kube-openapi writes beside a
/// description or default.
fn ref_target(m: &Map<String, Value>) -> Option<String> {
    let r = match m.get("$ref") {
        Some(Value::String(r)) => r.as_str(),
        _ => match m.get("allOf") {
            Some(Value::Array(a)) if a.len() == 1 => a[0].get("$ref")?.as_str()?,
            _ => return None,
        },
    };
    r.strip_prefix(crate::builder::REF_PREFIX)
        .or_else(|| r.strip_prefix("#/definitions/"))
        .map(str::to_string)
}

/// The shapes openapi2jsonschema gives an inlined schema: `int-or-string` as `oneOf`, `nullable` and every
/// property its object does not require as a type that admits `null`, and with `strict`,
/// `additionalProperties: false` on each object with `properties` (not on one that keeps unknown fields).
fn finish(v: &mut Value, strict: bool) {
    let Value::Object(m) = v else { return };
    let int_or_string = m.get("format").and_then(Value::as_str) == Some("int-or-string")
        || m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true));
    if int_or_string {
        m.remove("format");
        m.remove("type");
        m.insert(
            "oneOf".into(),
            json!([{"type": "string"}, {"type": "integer"}]),
        );
    }
    if m.remove("nullable") == Some(Value::Bool(true)) {
        admit_null(m);
    }
    let required: BTreeSet<String> = m
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (k, p) in props.iter_mut() {
            finish(p, strict);
            if !required.contains(k)
                && let Value::Object(pm) = p
            {
                admit_null(pm);
            }
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(x) = m.get_mut(key) {
            finish(x, strict);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(a)) = m.get_mut(key) {
            a.iter_mut().for_each(|x| finish(x, strict));
        }
    }
    if let Some(Value::Object(d)) = m.get_mut("definitions") {
        d.values_mut().for_each(|x| finish(x, strict));
    }
    if strict
        && m.contains_key("properties")
        && !m.contains_key("additionalProperties")
        && m.get("x-kubernetes-preserve-unknown-fields") != Some(&Value::Bool(true))
    {
        m.insert("additionalProperties".into(), Value::Bool(false));
    }
}

/// Lets a schema node accept `null`: `null` added to its `type` (and `enum`), or a `{type: null}` alternative to its
/// `oneOf`.
fn admit_null(m: &mut Map<String, Value>) {
    match m.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            m.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(a)) if !a.contains(&json!("null")) => a.push(json!("null")),
        Some(_) => {}
        None => {
            if let Some(Value::Array(a)) = m.get_mut("oneOf")
                && !a.contains(&json!({"type": "null"}))
            {
                a.push(json!({"type": "null"}));
            }
        }
    }
    if let Some(Value::Array(e)) = m.get_mut("enum")
        && !e.contains(&Value::Null)
    {
        e.push(Value::Null);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(group: &str, version: &str, kind: &str) -> Kind {
        Kind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
            schema: String::new(),
        }
    }

    #[test]
    fn file_names_follow_kubeconform() {
        assert_eq!(
            kind("apps", "v1", "Deployment").file_name(),
            "deployment-apps-v1.json"
        );
        assert_eq!(kind("", "v1", "Pod").file_name(), "pod-v1.json");
        assert_eq!(
            kind("networking.k8s.io", "v1", "Ingress").file_name(),
            "ingress-networking-v1.json"
        );
    }

    #[test]
    fn rules_become_keywords_or_listed() {
        let schemas: BTreeMap<String, Value> = [
            (
                "a.v1.T".to_string(),
                json!({
                    "properties": {
                        "name": {"format": "k8s-short-name", "maxLength": 63, "type": "string",
                            "x-kubernetes-validations": [{"rule": "!format.dns1123Label().validate(self).hasValue()",
                                "x-vgc-tag": "k8s:format"}]},
                        "opt": {"type": "integer", "x-kubernetes-validations": [{"rule": "self == 0 || (self >= 1)",
                            "x-vgc-tag": "k8s:minimum"}]},
                        "tags": {"items": {"type": "string"}, "type": "array", "x-kubernetes-list-type": "set"},
                        "ports": {"items": {"$ref": "#/components/schemas/a.v1.P"}, "type": "array",
                            "x-kubernetes-list-map-keys": ["port"], "x-kubernetes-list-type": "map"},
                        "n": {"$ref": "#/components/schemas/a.v1.T"},
                        "ios": {"format": "int-or-string", "type": "string"},
                        "mode": {"default": "A", "type": "string"},
                    },
                    "required": ["mode", "name"],
                    "type": "object",
                    "x-kubernetes-validations": [{"rule": "self.a != self.b", "x-vgc-tag": "k8s:neq"}],
                }),
            ),
            (
                "a.v1.P".to_string(),
                json!({"properties": {"port": {"maximum": 65535, "type": "integer"}}, "type": "object"}),
            ),
        ]
        .into_iter()
        .collect();
        let k = Kind {
            schema: "a.v1.T".into(),
            ..kind("a.example.com", "v1", "T")
        };
        let out = json_schemas(&schemas, &[k]);
        assert_eq!(
            out.files
                .iter()
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>(),
            [
                "master-standalone-strict/t-a-v1.json",
                "master-standalone/t-a-v1.json"
            ]
        );
        let s = &out.files[1].json;
        let p = &s["properties"];
        assert_eq!(
            p["name"],
            json!({"maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "type": "string"})
        );
        assert_eq!(
            p["opt"],
            json!({"allOf": [{"anyOf": [{"enum": [0]}, {"minimum": 1}]}], "type": ["integer", "null"]})
        );
        assert_eq!(p["tags"]["uniqueItems"], json!(true));
        assert_eq!(p["ports"]["items"]["properties"]["port"]["maximum"], 65535);
        assert_eq!(p["n"], json!({"$ref": "#/definitions/a.v1.T"}));
        assert_eq!(
            p["ios"],
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})
        );
        assert_eq!(s["$schema"], DRAFT);
        assert!(s["definitions"]["a.v1.T"]["properties"]["name"]["pattern"].is_string());
        assert!(s.get("additionalProperties").is_none());
        assert_eq!(out.files[0].json["additionalProperties"], json!(false));
        let rules: Vec<(&str, &str)> = out
            .unexpressed
            .iter()
            .map(|u| (u.path.as_str(), u.rule.as_str()))
            .collect();
        assert_eq!(
            rules,
            [
                ("", "k8s:neq"),
                (".mode", "required"),
                (".ports", "x-kubernetes-list-type: map (port)")
            ]
        );
        assert_eq!(s["x-vgc-unexpressed"][0]["rule"], json!("required"));
        assert_eq!(s["x-vgc-unexpressed"][1]["cel"], json!("self.a != self.b"));
        assert_eq!(s["required"], json!(["name"]));
        // maxLength, pattern (the format), required, uniqueItems, maximum, the zero-guarded minimum.
        assert_eq!(out.expressed, 6);
    }

    #[test]
    fn format_patterns_accept_what_the_runtime_accepts() {
        // Every format with a pattern, against the runtime's own check, on values at the edges.
        let samples = [
            "",
            "a",
            "A",
            "-a",
            "a-",
            "a.b",
            "a..b",
            "a/b",
            "a/b/c",
            "x.io/Name_1",
            "x.io/",
            "/a",
            ".",
            "..",
            "...",
            "a%b",
            "Reason:x",
            "Reason_",
            "1abc",
            "0123abcd-0123-4567-89ab-0123456789ab",
            "0123ABCD-0123-4567-89ab-0123456789ab",
            "example.com/c_ident",
            "example.com/1bad",
        ];
        let long = "a".repeat(64);
        let long_key = format!("{}/{}", "a".repeat(254), "b");
        let name_64 = format!("x.io/{}", "c".repeat(64));
        let ident_33 = format!("x.io/{}", "c".repeat(33));
        let mut all: Vec<&str> = samples.to_vec();
        all.extend([
            long.as_str(),
            long_key.as_str(),
            name_64.as_str(),
            ident_33.as_str(),
        ]);
        for f in Format::ALL
            .iter()
            .copied()
            .chain([Format::K8sResourceFullyQualifiedNameV1_38])
        {
            let Some(s) = format_schema(f) else { continue };
            for v in &all {
                let want =
                    vgc_runtime::validate::format(&vgc_runtime::Path::Root, Some(v), f).is_empty();
                assert_eq!(matches(&s, v), want, "{} on {v:?}", f.name());
            }
        }
    }

    /// A minimal evaluator of the keywords [`format_schema`] writes (`pattern` with the `regex` crate, which
    /// agrees with Go's RE2 on these expressions; `maxLength`; `allOf`; `anyOf`).
    fn matches(s: &Value, v: &str) -> bool {
        let m = s.as_object().expect("object");
        m.iter().all(|(k, x)| match k.as_str() {
            "pattern" => regex::Regex::new(x.as_str().expect("str"))
                .expect("regex")
                .is_match(v),
            "maxLength" => v.chars().count() <= usize::try_from(x.as_u64().expect("n")).expect("n"),
            "allOf" => x.as_array().expect("a").iter().all(|y| matches(y, v)),
            "anyOf" => x.as_array().expect("a").iter().any(|y| matches(y, v)),
            _ => panic!("keyword {k}"),
        })
    }
}
