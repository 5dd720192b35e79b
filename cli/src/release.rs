//! What a Kubernetes release's API server does by default, read from that release's own source: the feature-gate
//! defaults (the declarative-validation options every strategy's `DeclarativeValidationConfig` maps gates to) and
//! which stability levels of declarative validation it enforces.
//!
//! The source is `k8s.io/kubernetes@v1.Y.Z` `pkg/features/kube_features.go` (its
//! `defaultVersionedKubernetesFeatureGates` also lists the generic API server's gates), fetched through the Go
//! module proxy like any module ([`crate::gomodule::resolve_alone`]: the module alone, not its requirements) and
//! read with tree-sitter-go ([`vgc_parser::go::features`]). A gate's default is its spec in force at the release
//! (the binary's own emulation version).
//!
//! Enforcement mirrors k8s.io/apiserver `pkg/registry/rest` `ValidateDeclarativelyWithMigrationChecks` and
//! k8s.io/apimachinery `pkg/api/validate` `FilterEnforcedDeclarativeErrors` (v0.36 and later): an error of a
//! standard rule (no `+k8s:alpha`/`+k8s:beta`) is returned, a beta one only while the `DeclarativeValidationBeta`
//! gate is on, an alpha one never (the hand-written validation stays authoritative for it), an internal error
//! always.

use std::collections::BTreeMap;

/// The module whose feature gates are read.
pub const KUBERNETES_MODULE: &str = "k8s.io/kubernetes";
/// The file of [`KUBERNETES_MODULE`] that declares the gates.
pub const FEATURES_FILE: &str = "pkg/features/kube_features.go";
/// The gate that decides whether beta declarative rules are enforced.
pub const BETA_GATE: &str = "DeclarativeValidationBeta";

/// The most bytes of [`FEATURES_FILE`] read (about 130 KB in v1.37).
const MAX_FEATURES_BYTES: u64 = 16 << 20;

/// Which declarative errors make an object invalid (the runtime's, shared with the Rust API).
pub use vgc_runtime::Enforce;

/// A release's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseDefaults {
    /// Where they were read: `k8s.io/kubernetes@v1.37.2`.
    pub source: String,
    /// The release, `(major, minor)`.
    pub release: (u32, u32),
    /// The `k8s.io/kubernetes` module's directory (its hand-written validation packages, `pkg/apis/<group>/validation`,
    /// are named in reports as what `vgc validate` does not check); `None` when the defaults did not come from one.
    pub dir: Option<std::path::PathBuf>,
    /// Every gate [`FEATURES_FILE`] declares defaults for (Kubernetes' own and the generic API server's, listed as
    /// `genericfeatures.X`), with its default at the release. client-go's gates, which its `init` also registers
    /// but declares in client-go, are not among them: none is a declarative-validation option.
    pub gates: BTreeMap<String, bool>,
    /// What the release's create strategies do to `status` before validating ([`CreateReset`], read from
    /// [`REGISTRY_DIR`]); empty when the defaults did not come from a module directory.
    pub create_resets: Vec<CreateReset>,
    /// What the release's update strategies keep from the stored object ([`UpdateKept`], read from
    /// [`REGISTRY_DIR`]); empty when the defaults did not come from a module directory.
    pub update_keeps: Vec<UpdateKept>,
}

/// The directory of [`KUBERNETES_MODULE`] holding the REST strategies (`<group>/<resource>/strategy.go`).
pub const REGISTRY_DIR: &str = "pkg/registry";

/// The most bytes of one strategy file read (the largest, core's pod, is about 60 KB in v1.37).
const MAX_STRATEGY_BYTES: u64 = 4 << 20;

/// A kind whose `status` the release's API server resets on a create before validating: its REST strategy's
/// `PrepareForCreate` assigns a new status (k8s.io/apiserver `pkg/registry/rest` `BeforeCreate` calls it between
/// defaulting and `Validate`), read by [`vgc_parser::go::strategies::status_resets`]. `vgc validate` clears the
/// object's `status` on a create of such a kind before validating, so a declarative rule on `status` never fires on
/// a create, as at the server (a `/status` update still checks it: `--subresource status --old`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateReset {
    /// The API group's directory, the same in `k8s.io/kubernetes/pkg/apis/<group>` and `k8s.io/api/<group>/<version>`
    /// (`apps`, `core`, `certificates`).
    pub group: String,
    /// The kind (`Deployment`).
    pub kind: String,
    /// Where: `pkg/registry/apps/deployment/strategy.go:76`, relative to the module.
    pub at: String,
    /// The feature gate the reset depends on (`if utilfeature.DefaultFeatureGate.Enabled(features.G)`), `None` when
    /// unconditional: `vgc validate` resets only while the gate is on in its options (the release's default unless
    /// `--option G=…`).
    pub gate: Option<String>,
    /// The fields of the new status the strategy sets (`Phase` for a Pod: `Pending`); `vgc validate` leaves them
    /// unset — no declarative rule of 1.37 or 1.38 reads them: the server-verdict oracle's Go side
    /// (`tests/upstream/server_verdict_oracle.go`) sets them, and its verdicts equal vgc's on every Pod and Namespace
    /// of the releases' manifests.
    pub sets: Vec<String>,
}

impl CreateReset {
    /// Whether this is the reset of the kind of `k8s.io/api` package `pkg` (`k8s.io/api/apps/v1`) named `kind`.
    #[must_use]
    pub fn is_of(&self, pkg: &str, kind: &str) -> bool {
        self.kind == kind
            && pkg
                .strip_prefix("k8s.io/api/")
                .and_then(|rest| rest.split('/').next())
                == Some(self.group.as_str())
    }
}

/// A member an update keeps from the stored object: the REST strategy's `PrepareForUpdate` assigns the old
/// object's field to the new one (`newRc.Status = oldRc.Status` on the main resource, `newRc.Spec = oldRc.Spec` on
/// `/status`), read by [`vgc_parser::go::strategies::update_keeps`]. `vgc validate` does the same to an update
/// (`--old`) before validating it, so what an update cannot change is not reported as changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateKept {
    /// The API group's directory ([`CreateReset::group`]).
    pub group: String,
    /// The kind.
    pub kind: String,
    /// Whether this is the `/status` subresource's strategy (else the main resource's).
    pub status: bool,
    /// The Go field kept (`Status`, `Spec`): `vgc validate` keeps the kind's member of that Go name.
    pub field: String,
    /// Where: `pkg/registry/core/replicationcontroller/strategy.go:104`, relative to the module.
    pub at: String,
}

impl UpdateKept {
    /// Whether this is of the kind of `k8s.io/api` package `pkg` named `kind`.
    #[must_use]
    pub fn is_of(&self, pkg: &str, kind: &str) -> bool {
        self.kind == kind
            && pkg
                .strip_prefix("k8s.io/api/")
                .and_then(|rest| rest.split('/').next())
                == Some(self.group.as_str())
    }
}

/// The status resets of every create strategy under `dir`/[`REGISTRY_DIR`] (`<group>/<resource>/*.go`, tests
/// excluded), in path order, one per kind — the first found (a gated one included: whether it applies is the
/// gate's state when validating, [`CreateReset::gate`]); and what every update strategy keeps from the stored
/// object ([`UpdateKept`]), the first strategy of a kind and subresource found giving that kind's. Unreadable files
/// are skipped (the strategies are the release's own, read whole or not at all).
#[must_use]
pub fn strategies(dir: &std::path::Path) -> (Vec<CreateReset>, Vec<UpdateKept>) {
    let sorted = |d: &std::path::Path| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .filter_map(|e| Some(e.ok()?.path()))
            .collect();
        v.sort();
        v
    };
    let group_of = |p: &str| {
        p.strip_prefix("k8s.io/kubernetes/pkg/apis/")
            .map(str::to_string)
    };
    let mut out: Vec<CreateReset> = Vec::new();
    let mut kept: Vec<UpdateKept> = Vec::new();
    // The (group, kind, status) whose strategy was read: a later file's strategy for the same is another storage's.
    let mut seen: Vec<(String, String, bool, String)> = Vec::new();
    for group_dir in sorted(&dir.join(REGISTRY_DIR)) {
        for resource in sorted(&group_dir) {
            for file in sorted(&resource) {
                let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if !name.ends_with(".go") || name.ends_with("_test.go") {
                    continue;
                }
                let Ok(bytes) = vgc_driver::sys::read_regular(&file, MAX_STRATEGY_BYTES) else {
                    continue;
                };
                let Ok(text) = std::str::from_utf8(&bytes) else {
                    continue;
                };
                let rel = file
                    .strip_prefix(dir)
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                if text.contains("PrepareForCreate(") {
                    for r in vgc_parser::go::strategies::status_resets(text) {
                        let Some(group) = group_of(&r.type_package) else {
                            continue;
                        };
                        if out
                            .iter()
                            .any(|o| o.group == group && o.kind == r.type_name)
                        {
                            continue;
                        }
                        out.push(CreateReset {
                            group,
                            kind: r.type_name,
                            at: format!("{rel}:{}", r.line),
                            gate: r.gate,
                            sets: r.sets,
                        });
                    }
                }
                if text.contains("PrepareForUpdate(") {
                    for k in vgc_parser::go::strategies::update_keeps(text) {
                        let Some(group) = group_of(&k.type_package) else {
                            continue;
                        };
                        let id = (
                            group.clone(),
                            k.type_name.clone(),
                            k.status_strategy,
                            rel.clone(),
                        );
                        if seen
                            .iter()
                            .any(|s| (&s.0, &s.1, s.2) == (&id.0, &id.1, id.2) && s.3 != id.3)
                        {
                            continue;
                        }
                        if !seen.contains(&id) {
                            seen.push(id);
                        }
                        kept.push(UpdateKept {
                            group,
                            kind: k.type_name,
                            status: k.status_strategy,
                            field: k.field,
                            at: format!("{rel}:{}", k.line),
                        });
                    }
                }
            }
        }
    }
    (out, kept)
}

impl ReleaseDefaults {
    /// The defaults in force at `release` among the gates of `src`, the text of [`FEATURES_FILE`] read from
    /// `source`.
    ///
    /// # Errors
    /// The file's gates cannot be read ([`vgc_parser::go::features::feature_gates`]).
    pub fn from_source(source: &str, release: (u32, u32), src: &str) -> Result<Self, String> {
        let gates = vgc_parser::go::features::feature_gates(src)
            .map_err(|e| format!("{source} {FEATURES_FILE}: {e}"))?
            .into_iter()
            .filter_map(|g| Some((g.name.clone(), g.at(release)?.default)))
            .collect();
        Ok(Self {
            source: source.to_string(),
            release,
            gates,
            dir: None,
            create_resets: Vec::new(),
            update_keeps: Vec::new(),
        })
    }

    /// What the release's API server enforces by default: beta rules too when [`BETA_GATE`] is on; standard rules
    /// only otherwise (also before the gate existed, when declarative errors were not returned in place of
    /// hand-written ones at all — their hand-written twins were).
    #[must_use]
    pub fn enforce(&self) -> Enforce {
        Enforce::with_beta_gate(self.gates.get(BETA_GATE).copied().unwrap_or(false))
    }

    /// `1.37` (for messages).
    #[must_use]
    pub fn release_name(&self) -> String {
        format!("{}.{}", self.release.0, self.release.1)
    }
}

/// The `k8s.io/kubernetes` version of the release that serves `k8s.io/api` (or apimachinery, …) version `v`:
/// `v0.37.2` → `v1.37.2`, `v0.38.0-beta.0` → `v1.38.0-beta.0`; `None` for anything else (a pseudo-version, a
/// major other than 0).
#[must_use]
pub fn kubernetes_version_of(v: &str) -> Option<String> {
    let parsed = semver::Version::parse(v.strip_prefix('v')?).ok()?;
    (parsed.major == 0 && parsed.minor > 0 && !parsed.pre.as_str().starts_with("0."))
        .then(|| format!("v1.{}", &v[3..]))
}

/// `(major, minor)` of a `k8s.io/kubernetes` version (`v1.38.0-beta.0` → `(1, 38)`).
#[must_use]
pub fn release_of(kubernetes_version: &str) -> Option<(u32, u32)> {
    let parsed = semver::Version::parse(kubernetes_version.strip_prefix('v')?).ok()?;
    Some((
        u32::try_from(parsed.major).ok()?,
        u32::try_from(parsed.minor).ok()?,
    ))
}

/// A warning when `defaults` are of another release (another minor) than the one serving `k8s.io/api` version
/// `api_version` (the API tree's rules): the feature-gate defaults and the enforced stability levels of one
/// release's API server would be applied to another release's rules — a server no release runs, so its answers are
/// no release's. `None` when they match, or when `api_version` is no release's (a pseudo-version).
#[must_use]
pub fn mismatch(defaults: &ReleaseDefaults, api_version: &str) -> Option<String> {
    let api = release_of(&kubernetes_version_of(api_version)?)?;
    if api == defaults.release {
        return None;
    }
    let (r, a) = (defaults.release_name(), format!("{}.{}", api.0, api.1));
    Some(format!(
        "the release defaults are {} (Kubernetes {r}), but the API tree is {}@{api_version} (Kubernetes {a}): the feature-gate defaults and the enforced stability levels of the {r} API server are applied to the {a} rules, which no release's API server does; name the release of the API (--release v{a}.Z) or the API of the release (--api {}@v0.{}.Z)",
        defaults.source,
        crate::gomodule::DEFAULT_MODULE,
        crate::gomodule::DEFAULT_MODULE,
        defaults.release.1
    ))
}

/// The defaults of `k8s.io/kubernetes@<kubernetes_version>`, fetched into the module cache when missing.
///
/// # Errors
/// The version is not a release version, the module cannot be resolved, or its [`FEATURES_FILE`] cannot be read
/// or has an unknown shape; the message names the module version.
pub fn load(kubernetes_version: &str) -> Result<ReleaseDefaults, String> {
    let release = release_of(kubernetes_version).ok_or_else(|| {
        format!("{kubernetes_version:?} is not a k8s.io/kubernetes release version (v1.Y.Z)")
    })?;
    let source = format!("{KUBERNETES_MODULE}@{kubernetes_version}");
    let dir = crate::gomodule::resolve_alone(KUBERNETES_MODULE, kubernetes_version)
        .map_err(|e| match e {
            crate::gomodule::ResolveError::NoGo { cache, .. } => format!(
                "{source} is not in the Go module cache ({cache}) and the `go` command is not on PATH to download it: run `go mod download {source}` where Go is installed"
            ),
            e => e.to_string(),
        })?
        .dir;
    let path = dir.join(FEATURES_FILE);
    let bytes = vgc_driver::sys::read_regular(&path, MAX_FEATURES_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", path.display()))?;
    let mut d = ReleaseDefaults::from_source(&source, release, &text)?;
    (d.create_resets, d.update_keeps) = strategies(&dir);
    d.dir = Some(dir);
    Ok(d)
}

/// The hand-written validation package of the kinds of `k8s.io/api` package `pkg` in the `k8s.io/kubernetes` module
/// at `dir` (`k8s.io/api/apps/v1` → `pkg/apis/apps/validation`), when that package exists there: the API server
/// runs it beside the declarative rules, and `vgc validate` does not.
#[must_use]
pub fn handwritten_validation(dir: &std::path::Path, pkg: &str) -> Option<String> {
    let group = pkg.strip_prefix("k8s.io/api/")?.split('/').next()?;
    let rel = format!("pkg/apis/{group}/validation");
    dir.join(&rel).is_dir().then_some(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_versions_of_staging_versions() {
        assert_eq!(kubernetes_version_of("v0.37.2").as_deref(), Some("v1.37.2"));
        assert_eq!(
            kubernetes_version_of("v0.38.0-beta.0").as_deref(),
            Some("v1.38.0-beta.0")
        );
        assert_eq!(kubernetes_version_of("v1.2.3"), None);
        assert_eq!(kubernetes_version_of("v0.0.0-20260101-abcdef"), None);
        assert_eq!(kubernetes_version_of("0.37.2"), None);
        assert_eq!(release_of("v1.38.0-beta.0"), Some((1, 38)));
        assert_eq!(release_of("main"), None);
    }

    #[test]
    fn enforcement_follows_the_beta_gate() {
        let src = "package features\nvar g = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tgenericfeatures.DeclarativeValidationBeta: {\n\t\t{Version: version.MustParse(\"1.36\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n}\n";
        let at = |minor| ReleaseDefaults::from_source("x", (1, minor), src).expect("reads");
        assert_eq!(at(35).enforce(), Enforce::Stable);
        assert_eq!(at(36).enforce(), Enforce::Beta);
        assert_eq!(
            at(35).gates.len(),
            0,
            "a gate not yet in the release is not defined"
        );
        use vgc_runtime::StabilityLevel as L;
        assert!(Enforce::Stable.enforces(None));
        assert!(!Enforce::Stable.enforces(Some(L::Beta)));
        assert!(Enforce::Beta.enforces(Some(L::Beta)));
        assert!(!Enforce::Beta.enforces(Some(L::Alpha)));
        assert!(Enforce::Alpha.enforces(Some(L::Alpha)));
    }
}
