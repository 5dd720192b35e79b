//! The OpenAPI backend (issue 39, `docs/openapi.md`): OpenAPI v3 component schemas built from the
//! [`CratePlan`] — never from the tags — with every rule of the plan either said in OpenAPI (a keyword:
//! `minimum`, `maxLength`, `enum`, `required`, `x-kubernetes-list-type`, …), said as an `x-kubernetes-validations`
//! rule in the Kubernetes CEL dialect (message = upstream's detail text, `fieldPath`, `reason`), or listed under
//! [`UNEXPRESSED_KEY`] of the schema it belongs to with the reason it cannot be said (and returned as an
//! [`Unexpressed`] the driver reports): nothing is dropped without a word.
//!
//! Schemas are named as kube-openapi names them (`io.k8s.api.apps.v1.Deployment`, [`schema_name`]); a document per
//! API group and version holds the schemas of its package and every schema they reference, in the file layout of
//! k8s.io/kubernetes' `api/openapi-spec/v3` ([`file_name`]). [`merge`] adds the rules to such an existing document
//! instead, changing nothing it already says.
//!
//! Options (feature gates) are fixed at export ([`Options::options`]): a rule under `ifEnabled(X)` is exported
//! when `X` is fixed on, left out when fixed off, and unexpressed when not fixed. Stability levels are kept: a rule
//! of an alpha or beta tag carries [`STABILITY_KEY`] (`x-vgc-stability`), and [`Options::stability`] leaves out
//! the rules less stable than asked.
//!
//! *Boundary:* no IO (the driver reads and writes the documents), no codegen; reads the plan as `codegen`,
//! `gogen` and the interpreter do.

mod builder;
mod cel;
mod correlate;
pub mod cost;
pub mod crd;
pub mod jsonschema;
pub mod lists;
mod merge;
pub mod over_budget;
mod patterns;
mod rules;
mod schema;
mod unvalidated;

pub use correlate::UNCORRELATED_SUFFIX;
pub use merge::{MergeReport, RULE_KEYS, merge};
pub use unvalidated::UNVALIDATED_SUFFIX;

use serde_json::{Map, Value};
use std::collections::BTreeMap;
use vgc_analysis::TypeKey;
use vgc_ir::catalog::Stability;
use vgc_lowering::CratePlan;

/// The extension key listing, on a schema, the rules of that schema that OpenAPI and CEL cannot say: an array of
/// objects `{"rule", "path", "reason"}`.
pub const UNEXPRESSED_KEY: &str = "x-vgc-unexpressed";

/// The extension key marking a rule's stability level (`"alpha"`, `"beta"`): inside an `x-kubernetes-validations`
/// rule object, and on a schema as an object from keyword (`"maxItems"`) to level for the keywords of alpha or beta
/// tags. Stable rules carry none.
pub const STABILITY_KEY: &str = "x-vgc-stability";

/// The extension key naming, inside an `x-kubernetes-validations` rule object, the tag the rule says
/// (`k8s:immutable`, `k8s:ifEnabled(X)=k8s:minimum`).
pub const TAG_KEY: &str = "x-vgc-tag";

/// What the export fixes.
#[derive(Debug, Clone)]
pub struct Options {
    /// Validation options (feature gates) fixed at export (`--option NAME=true|false`): option name → enabled.
    pub options: BTreeMap<String, bool>,
    /// The least stable level exported (`--stability`): [`Stability::Alpha`] exports every rule,
    /// [`Stability::Beta`] the beta and stable ones, [`Stability::Stable`] only the stable ones.
    pub stability: Stability,
    /// Whether CEL rules may call the Kubernetes CEL `format` library (`format.dns1123Label()`, …), which API
    /// servers and clients built on Kubernetes 1.31 and later have (`--cel-env 1.31`, the default). Without it
    /// (`--cel-env 1.30`: kubectl-validate v0.0.4 is built on 1.30) a format is said with `matches` and the RE2
    /// expressions that accept exactly what the library's check accepts, with the same length bounds.
    pub cel_format_library: bool,
    /// Bounds for the API server's CEL cost estimate (`--bound-lists N`, `--bound-strings N`), set on the component
    /// schemas where they have none and marked with [`cost::bounds::BOUND_KEY`] ([`cost::bounds::apply`]; listed in
    /// [`Output::bounds`]). None by default: each bound changes what a schema accepts.
    pub bounds: cost::bounds::Bounds,
    /// What the driver does with a rule its CEL cost estimate puts over the API server's budget
    /// (`--over-budget`, [`over_budget::take_out`]): keep it (the default) or take it out, listed under
    /// [`UNEXPRESSED_KEY`]. [`generate`] itself keeps every rule.
    pub over_budget: over_budget::OverBudget,
}

impl Default for Options {
    /// No option fixed, every stability level exported, the `format` library used.
    fn default() -> Self {
        Self {
            options: BTreeMap::new(),
            stability: Stability::Alpha,
            cel_format_library: true,
            bounds: cost::bounds::Bounds::default(),
            over_budget: over_budget::OverBudget::Keep,
        }
    }
}

/// The latest Kubernetes release `--cel-env` accepts: the newest whose modules vgc is tested with (k8s.io/kubernetes
/// v1.38.0-beta.0); a later release's CEL environment is not known yet.
pub const LATEST_CEL_ENV_MINOR: u32 = 38;

/// Parses a `--cel-env` release (`1.30` to `1.38`): whether its CEL environment has the `format` library
/// (introduced in 1.31, `k8s.io/apiserver/pkg/cel/environment` `base.go`).
///
/// # Errors
/// Not `1.<minor>`, a release before 1.30 (vgc's rules also use libraries of 1.29 and 1.30: strings `split`,
/// `optionalOldSelf`), or after [`LATEST_CEL_ENV_MINOR`].
pub fn parse_cel_env(s: &str) -> Result<bool, String> {
    let minor = s
        .strip_prefix("1.")
        .filter(|m| m.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|m| m.parse::<u32>().ok())
        .ok_or_else(|| format!("--cel-env {s:?}: expected a Kubernetes release from 1.30 to 1.{LATEST_CEL_ENV_MINOR}"))?;
    if minor < 30 {
        return Err(format!(
            "--cel-env {s}: vgc's CEL rules need a Kubernetes 1.30 environment at least"
        ));
    }
    if minor > LATEST_CEL_ENV_MINOR {
        return Err(format!(
            "--cel-env {s}: not a release vgc knows the CEL environment of (1.30 to 1.{LATEST_CEL_ENV_MINOR})"
        ));
    }
    Ok(minor >= 31)
}

/// One rule the export could not say, with where it belongs and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unexpressed {
    /// The schema (component) it belongs to, as [`schema_name`] names it.
    pub schema: String,
    /// The JSON path below that schema (`.spec.template`, `.ports[*]`; `""` for the schema itself).
    pub path: String,
    /// The rule, as its tag is written (`k8s:customValidation`, `k8s:ifEnabled(X)=k8s:minimum`).
    pub rule: String,
    /// Why OpenAPI and CEL cannot say it (or why this export does not).
    pub reason: String,
}

/// One OpenAPI v3 document: the schemas of one API group and version.
#[derive(Debug, Clone)]
pub struct Document {
    /// The file name k8s.io/kubernetes' `api/openapi-spec/v3` gives it ([`file_name`]).
    pub file: String,
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The document: `openapi`, `info`, `paths` (empty) and `components.schemas`, keys sorted.
    pub json: Value,
}

/// What [`generate`] produced.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// One document per API group and version of the build's packages that declares kinds, sorted by file name.
    pub documents: Vec<Document>,
    /// Every component schema of the plan's types by name (what [`merge`] reads), keys sorted.
    pub schemas: BTreeMap<String, Value>,
    /// Every rule not said, sorted (each also listed in its schema under [`UNEXPRESSED_KEY`]).
    pub unexpressed: Vec<Unexpressed>,
    /// Rules left out because they are less stable than [`Options::stability`].
    pub omitted_by_stability: usize,
    /// Rules left out because an option fixed at export turns them off.
    pub omitted_by_option: usize,
    /// Rules said (keywords and CEL rules), for the summary.
    pub expressed: usize,
    /// The bounds [`Options::bounds`] set (each also marked on its node with [`cost::bounds::BOUND_KEY`]).
    pub bounds: Vec<cost::bounds::Bound>,
    /// The list kinds [`lists::add_list_kinds`] added to the documents (`io.k8s.api.core.v1.ConfigMapList`), sorted;
    /// not estimated as a CRD's `spec` (no CRD embeds a list kind).
    pub lists: Vec<String>,
    /// Each schema [`lists::add_list_kinds`] added to a document (file name, schema name), sorted: the list kinds and
    /// what the document lacked of what they reference (`ListMeta`, a kind's variant without transition rules).
    pub list_additions: Vec<(String, String)>,
    /// The rules taken out for the API server's CEL cost budget (`--over-budget unexpressed`,
    /// [`over_budget::take_out`]), in the order taken; each listed under [`UNEXPRESSED_KEY`] at its node, not in
    /// [`Output::unexpressed`].
    pub over_budget: Vec<over_budget::TakenOut>,
}

/// The name kube-openapi gives the schema of a Go type: the import path with its first element's domain reversed
/// and `/` replaced by `.`, then the type name (`k8s.io/api/apps/v1.Deployment` →
/// `io.k8s.api.apps.v1.Deployment`; `example.com/x/v1.T` → `com.example.x.v1.T`). upstream: kube-openapi
/// `util.ToRESTFriendlyName` over the canonical type name.
#[must_use]
pub fn schema_name(key: &TypeKey) -> String {
    format!("{}.{}", package_prefix(&key.pkg), key.name)
}

/// The reversed-domain form of an import path (`k8s.io/api/apps/v1` → `io.k8s.api.apps.v1`).
fn package_prefix(pkg: &str) -> String {
    let (first, rest) = pkg.split_once('/').unwrap_or((pkg, ""));
    let mut parts: Vec<&str> = first.split('.').collect();
    parts.reverse();
    let mut out = parts.join(".");
    for seg in rest.split('/').filter(|s| !s.is_empty()) {
        out.push('.');
        out.push_str(seg);
    }
    out
}

/// The file k8s.io/kubernetes' `api/openapi-spec/v3` holds a group version's document in:
/// `api__v1_openapi.json` for the core group, `apis__<group>__<version>_openapi.json` otherwise.
#[must_use]
pub fn file_name(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api__{version}_openapi.json")
    } else {
        format!("apis__{group}__{version}_openapi.json")
    }
}

/// Builds the schemas of every type of `plan` with its rules mapped (see the crate docs) and the bounds of
/// [`Options::bounds`] set, and one document per API group and version that declares kinds: that package's schemas
/// and every schema they reference. Deterministic:
/// the same plan and options give byte-identical documents.
#[must_use]
pub fn generate(plan: &CratePlan, options: &Options) -> Output {
    let mut b = builder::Builder::new(plan, options);
    b.build_all();
    let builder::Built {
        mut schemas,
        mut unexpressed,
        omitted_by_stability,
        omitted_by_option,
        mut expressed,
    } = b.finish();
    unvalidated::finish(&mut schemas);
    let moved = correlate::finish(&mut schemas);
    expressed = expressed.saturating_sub(moved.len());
    unexpressed.extend(moved);
    unexpressed.sort();
    unexpressed.dedup();
    let bounds = cost::bounds::apply(&mut schemas, options.bounds);
    let mut documents = Vec::new();
    let mut by_gv: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for m in &plan.modules {
        // A package of the build (one with root types) that declares kinds: roots are selected per activation
        // (`TypesWithField=TypeMeta`, or a package's own criteria such as resource/v1's `TypesWithSuffix`), kinds
        // are what the group/version serves.
        if !m.types.iter().any(|t| t.root) || !m.types.iter().any(|t| t.is_kind()) {
            continue;
        }
        let own: Vec<String> = m
            .types
            .iter()
            .map(|t| schema_name(&t.key))
            .filter(|n| schemas.contains_key(n))
            .collect();
        by_gv.entry(m.group_version()).or_default().extend(own);
    }
    for ((group, version), names) in by_gv {
        let mut included = std::collections::BTreeSet::new();
        let mut stack = names;
        while let Some(n) = stack.pop() {
            if !included.insert(n.clone()) {
                continue;
            }
            if let Some(s) = schemas.get(&n) {
                refs_of(s, &mut stack);
            }
        }
        let mut comps = Map::new();
        for n in &included {
            if let Some(s) = schemas.get(n) {
                comps.insert(n.clone(), s.clone());
            }
        }
        let mut json = serde_json::json!({
            "components": {"schemas": Value::Object(comps)},
            "info": {"title": "Kubernetes", "version": "unversioned"},
            "openapi": "3.0.0",
            "paths": {},
        });
        sort_keys(&mut json);
        documents.push(Document {
            file: file_name(&group, &version),
            group,
            version,
            json,
        });
    }
    documents.sort_by(|a, b| a.file.cmp(&b.file));
    Output {
        documents,
        schemas,
        unexpressed,
        omitted_by_stability,
        omitted_by_option,
        expressed,
        bounds,
        lists: Vec::new(),
        list_additions: Vec::new(),
        over_budget: Vec::new(),
    }
}

/// The component names `v` references (`$ref: #/components/schemas/<name>`), pushed onto `out`.
fn refs_of(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref")
                && let Some(n) = r.strip_prefix(builder::REF_PREFIX)
            {
                out.push(n.to_string());
            }
            for x in m.values() {
                refs_of(x, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                refs_of(x, out);
            }
        }
        _ => {}
    }
}

/// Sorts the keys of every object in `v`, recursively (k8s.io/kubernetes' spec files are written so).
pub fn sort_keys(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (k, mut x) in entries {
                sort_keys(&mut x);
                m.insert(k, x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

/// The word `--stability` and [`STABILITY_KEY`] use for a level.
#[must_use]
pub fn stability_word(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    }
}

/// Parses a `--stability` word (`stable`, `beta`, `alpha`).
///
/// # Errors
/// Any other word, with the accepted ones.
pub fn parse_stability(s: &str) -> Result<Stability, String> {
    match s {
        "stable" => Ok(Stability::Stable),
        "beta" => Ok(Stability::Beta),
        "alpha" => Ok(Stability::Alpha),
        _ => Err(format!("--stability {s:?}: expected stable, beta or alpha")),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_cel_env;

    #[test]
    fn cel_env_accepts_the_documented_releases_only() {
        assert_eq!(parse_cel_env("1.30"), Ok(false));
        assert_eq!(parse_cel_env("1.31"), Ok(true));
        assert_eq!(parse_cel_env("1.38"), Ok(true));
        assert_eq!(
            parse_cel_env("1.99"),
            Err(
                "--cel-env 1.99: not a release vgc knows the CEL environment of (1.30 to 1.38)"
                    .into()
            )
        );
        assert_eq!(
            parse_cel_env("1.29"),
            Err(
                "--cel-env 1.29: vgc's CEL rules need a Kubernetes 1.30 environment at least"
                    .into()
            )
        );
        for bad in ["1.+31", "2.0", "1.31.0", "latest"] {
            assert_eq!(
                parse_cel_env(bad),
                Err(format!(
                    "--cel-env {bad:?}: expected a Kubernetes release from 1.30 to 1.38"
                )),
                "{bad}"
            );
        }
    }

    use super::*;

    #[test]
    fn names_follow_kube_openapi() {
        let k = TypeKey {
            pkg: "k8s.io/api/apps/v1".into(),
            name: "Deployment".into(),
        };
        assert_eq!(schema_name(&k), "io.k8s.api.apps.v1.Deployment");
        let k = TypeKey {
            pkg: "k8s.io/apimachinery/pkg/apis/meta/v1".into(),
            name: "ObjectMeta".into(),
        };
        assert_eq!(
            schema_name(&k),
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        assert_eq!(file_name("", "v1"), "api__v1_openapi.json");
        assert_eq!(file_name("apps", "v1"), "apis__apps__v1_openapi.json");
    }
}
