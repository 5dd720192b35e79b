//! `vgc::release::load` — a release's feature-gate defaults, read from `k8s.io/kubernetes`
//! `pkg/features/kube_features.go` with tree-sitter — against what Go's k8s.io/component-base `featuregate` computes
//! from the same file.
//!
//! For the newest release (`k8s.io/kubernetes` of the newest profile whose pinned generator is a release, v1.37.2)
//! and the newest pre-release (v1.38.0-beta.0), a scratch Go module holds an unchanged copy of the release's
//! `pkg/features` package (its non-test files) and a driver importing it: the package's `init` registers its gates,
//! with the client-go, zpages and generic API server gates registered by the packages it imports, into k8s.io/apiserver's
//! `utilfeature.DefaultMutableFeatureGate`, whose emulation version is component-base's `DefaultKubeBinaryVersion`
//! (the release itself: the driver prints it and this test asserts it). The driver prints, for every gate `GetAll`
//! returns (those available at the emulation version) but the `AllAlpha`/`AllBeta` toggles,
//! `DefaultFeatureGate.Enabled(gate)`. The modules the copy imports are required at the versions the release builds
//! with (the staging modules, `v0.0.0` in its `go.mod`, at the matching `v0.Y.Z`), module versions the proxy refuses
//! replaced by served ones (`harness::REFUSED_MODULES`); the scratch module's `go` line is the release's, so
//! `GOTOOLCHAIN=auto` fetches the toolchain a pre-release needs (go1.27.0 for v1.38.0-beta.0).
//!
//! Asserted: the gate names are the same on both sides and every default is equal (up to 20 differences are
//! listed), with one exception named by the Go side itself: gates k8s.io/client-go declares (its `features` package,
//! registered by `kube_features.go`'s `init` through `clientAdapter`; recorded by the driver from
//! `clientfeatures.AddVersionedFeaturesToExistingFeatureGates`) are not in `kube_features.go`, so `vgc::release`
//! does not read them; they are printed by name (10 in v1.37.2, 13 in v1.38.0-beta.0: `WatchListClient`,
//! `ClientsAllowCBOR`, …; none is a declarative-validation gate) and compared like any other once vgc reads them.
//! Every other gate of the Go side — `kube_features.go`'s own, and the generic API server's, apiextensions',
//! controller-manager's and zpages' it lists — must be in vgc's set. The oracle can fail: before
//! `MinCompatibilityVersion` was honoured (`vgc_parser::go::features::FeatureGate::at`) it reported
//! `DRAFractionalCapacityRange: vgc true, Go false` for v1.37.2.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use vgc_tests::harness::{
    download_module, go, oracle_upstream, prerelease_upstream, substitute_refused_modules,
};

/// The scratch module's path.
const MODULE: &str = "vgc.test/releasedefaults";
/// The package of `k8s.io/kubernetes` copied into the scratch module (`<MODULE>/features`).
const FEATURES_PACKAGE: &str = "pkg/features";
/// The most differences listed when the two sides disagree.
const MAX_LISTED: usize = 20;

/// The Go driver: registers the copied package's gates (its `init`, by the blank import) and prints every gate's
/// default at the gate's emulation version as JSON.
const DRIVER: &str = r#"package main

import (
	"encoding/json"
	"os"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	clientfeatures "k8s.io/client-go/features"
	baseversion "k8s.io/component-base/version"

	_ "vgc.test/releasedefaults/features"
)

// clientGoGates records the names of the gates client-go registers (kube_features.go's init registers them into
// the same gate through its clientAdapter).
type clientGoGates map[string]bool

func (r clientGoGates) AddVersioned(in map[clientfeatures.Feature]clientfeatures.VersionedSpecs) error {
	for name := range in {
		r[string(name)] = true
	}
	return nil
}

func main() {
	gate := utilfeature.DefaultMutableFeatureGate
	available := gate.GetAll()
	enabled := map[string]bool{}
	for name := range available {
		// The toggles for all alpha/beta gates at once, not features.
		if name == "AllAlpha" || name == "AllBeta" {
			continue
		}
		enabled[string(name)] = utilfeature.DefaultFeatureGate.Enabled(name)
	}
	notYet := 0
	for name := range gate.GetAllVersioned() {
		if _, ok := available[name]; !ok {
			notYet++
		}
	}
	clientGo := clientGoGates{}
	if err := clientfeatures.AddVersionedFeaturesToExistingFeatureGates(clientGo); err != nil {
		panic(err)
	}
	out := map[string]any{
		"clientGo":                 clientGo,
		"defaultKubeBinaryVersion": baseversion.DefaultKubeBinaryVersion,
		"emulationVersion":         gate.EmulationVersion().String(),
		"minCompatibilityVersion":  gate.MinCompatibilityVersion().String(),
		"notYetAvailable":          notYet,
		"gates":                    enabled,
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
"#;

/// What component-base computed.
struct GoDefaults {
    /// `k8s.io/component-base/version.DefaultKubeBinaryVersion` (`1.37`).
    binary_version: String,
    /// The gate's emulation version (`1.37`).
    emulation: String,
    /// The gate's minimum compatibility version (`1.36`).
    min_compatibility: String,
    /// Gates registered but not yet available at the emulation version (left out of `gates`).
    not_yet_available: u64,
    /// Every available gate and `Enabled`.
    gates: BTreeMap<String, bool>,
    /// The gates k8s.io/client-go's `features` package registers (`AddVersionedFeaturesToExistingFeatureGates`).
    client_go: BTreeSet<String>,
}

/// `(path, version)` of every `require` of a `go.mod` text (in a block or not).
fn requirements(gomod: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in gomod.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if in_block {
            if line == ")" {
                in_block = false;
                continue;
            }
        } else if line == "require (" {
            in_block = true;
            continue;
        } else if let Some(rest) = line.strip_prefix("require ") {
            let mut w = rest.split_whitespace();
            if let (Some(p), Some(v)) = (w.next(), w.next()) {
                out.push((p.to_string(), v.to_string()));
            }
            continue;
        } else {
            continue;
        }
        let mut w = line.split_whitespace();
        if let (Some(p), Some(v)) = (w.next(), w.next()) {
            out.push((p.to_string(), v.to_string()));
        }
    }
    out
}

/// The `go` directive of a `go.mod` text.
fn go_directive(gomod: &str) -> Option<String> {
    gomod
        .lines()
        .find_map(|l| l.trim().strip_prefix("go ").map(|v| v.trim().to_string()))
}

/// The import paths of a Go file (every quoted string of its import declarations).
fn imports(src: &str) -> BTreeSet<String> {
    // The project's own textual import reader (`vgc_parser::go::import_paths`), not a second one.
    vgc_parser::go::import_paths(src).into_iter().collect()
}

/// Builds and runs the driver against `k8s.io/kubernetes@<kubernetes_version>` in `work`.
fn go_defaults(kubernetes_version: &str, work: &Path) -> GoDefaults {
    let (k8s_dir, resolved) =
        download_module(&format!("k8s.io/kubernetes@{kubernetes_version}"), work);
    assert_eq!(resolved, kubernetes_version);
    let k8s_dir = Path::new(&k8s_dir);
    // The staging modules (k8s.io/apiserver, component-base, …) the release builds from its own tree are published
    // as v0.Y.Z with the release's Y.Z and suffix.
    let staging = format!("v0.{}", &kubernetes_version[3..]);
    let gomod = std::fs::read_to_string(k8s_dir.join("go.mod")).expect("kubernetes go.mod");
    let requires = requirements(&gomod);

    let package = work.join("features");
    std::fs::create_dir_all(&package).expect("mkdir");
    let mut imported = BTreeSet::new();
    let mut copied = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(k8s_dir.join(FEATURES_PACKAGE))
        .expect("pkg/features")
        .flatten()
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".go") || name.ends_with("_test.go") {
            continue;
        }
        let src = std::fs::read_to_string(e.path()).expect("read");
        imported.extend(imports(&src));
        std::fs::write(package.join(&name), src).expect("write");
        copied.push(name);
    }
    assert!(
        copied.iter().any(|n| n == "kube_features.go"),
        "{FEATURES_PACKAGE}: {copied:?}"
    );
    imported.extend(
        imports(DRIVER)
            .into_iter()
            .filter(|p| !p.starts_with(MODULE)),
    );

    let go_version = go_directive(&gomod).expect("kubernetes go.mod has a go line");
    std::fs::write(
        work.join("go.mod"),
        format!("module {MODULE}\n\ngo {go_version}\n"),
    )
    .expect("go.mod");
    std::fs::write(work.join("main.go"), DRIVER).expect("main.go");
    // Each imported module at the version the release requires (longest module path that prefixes the import).
    let mut required = BTreeMap::new();
    for import in imported
        .iter()
        .filter(|p| p.split('/').next().is_some_and(|h| h.contains('.')))
    {
        let (module, version) = requires
            .iter()
            .filter(|(m, _)| import == m || import.starts_with(&format!("{m}/")))
            .max_by_key(|(m, _)| m.len())
            .unwrap_or_else(|| {
                panic!("{import}: no module of k8s.io/kubernetes' go.mod provides it")
            });
        let version = if version == "v0.0.0" {
            staging.clone()
        } else {
            version.clone()
        };
        required.insert(module.clone(), version);
    }
    for (module, version) in &required {
        go(
            work,
            &["mod", "edit", &format!("-require={module}@{version}")],
        );
    }
    let substituted = substitute_refused_modules(work);
    if !substituted.is_empty() {
        eprintln!("release-defaults: {kubernetes_version}: replaced {substituted:?}");
    }
    // No debug information and no symbol table: the binary is built once and run once.
    go(
        work,
        &[
            "build",
            "-trimpath",
            "-ldflags=-s -w",
            "-o",
            "release-defaults",
            ".",
        ],
    );
    let out = std::process::Command::new(work.join("release-defaults"))
        .output()
        .expect("the driver runs");
    assert!(
        out.status.success(),
        "the driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the driver's JSON");
    let string = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("{k}")).to_string();
    GoDefaults {
        binary_version: string("defaultKubeBinaryVersion"),
        emulation: string("emulationVersion"),
        min_compatibility: string("minCompatibilityVersion"),
        not_yet_available: v["notYetAvailable"].as_u64().expect("notYetAvailable"),
        gates: v["gates"]
            .as_object()
            .expect("gates")
            .iter()
            .map(|(k, b)| (k.clone(), b.as_bool().expect("a bool")))
            .collect(),
        client_go: v["clientGo"]
            .as_object()
            .expect("clientGo")
            .keys()
            .cloned()
            .collect(),
    }
}

/// The differences between vgc's defaults and Go's, one line each, sorted by gate name, and the gates Go knows
/// that vgc does not read because client-go declares them, not `kube_features.go` (`name=default`).
fn differences(
    ours: &BTreeMap<String, bool>,
    theirs: &BTreeMap<String, bool>,
    client_go: &BTreeSet<String>,
) -> (Vec<String>, Vec<String>) {
    let names: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    let (mut diffs, mut outside) = (Vec::new(), Vec::new());
    for name in names {
        match (ours.get(name), theirs.get(name)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => diffs.push(format!("{name}: vgc {a}, Go {b}")),
            (Some(a), None) => diffs.push(format!(
                "{name}: vgc {a}, not a gate Go knows at this release"
            )),
            (None, Some(b)) if client_go.contains(name) => outside.push(format!("{name}={b}")),
            (None, Some(b)) => diffs.push(format!("{name}: Go {b}, missing from vgc")),
            (None, None) => {}
        }
    }
    (diffs, outside)
}

/// Compares the two for `k8s.io/kubernetes@<kubernetes_version>`.
fn release_defaults_agree(kubernetes_version: &str) {
    let start = std::time::Instant::now();
    let ours = vgc::release::load(kubernetes_version)
        .unwrap_or_else(|e| panic!("vgc::release::load({kubernetes_version}): {e}"));
    let tmp = tempfile::tempdir().expect("tempdir");
    let theirs = go_defaults(kubernetes_version, tmp.path());
    let release = ours.release_name();
    assert_eq!(
        (theirs.binary_version.as_str(), theirs.emulation.as_str()),
        (release.as_str(), release.as_str()),
        "component-base's DefaultKubeBinaryVersion and the gate's emulation version are the release"
    );
    let (diffs, outside) = differences(&ours.gates, &theirs.gates, &theirs.client_go);
    eprintln!(
        "release-defaults: {}: {} gates, {} differences (Go component-base featuregate at emulation version {}, \
         min compatibility {}; {} registered gates not yet available left out on both sides) in {:.1} s",
        ours.source,
        ours.gates.len(),
        diffs.len(),
        theirs.emulation,
        theirs.min_compatibility,
        theirs.not_yet_available,
        start.elapsed().as_secs_f64()
    );
    if !outside.is_empty() {
        eprintln!(
            "release-defaults: {}: besides, {} gates client-go declares (not {}), not read by vgc::release: {}",
            ours.source,
            outside.len(),
            vgc::release::FEATURES_FILE,
            outside.join(" ")
        );
    }
    assert!(
        diffs.is_empty(),
        "{}: {} differences (vgc {} gates, Go {}); the first {}:\n{}",
        ours.source,
        diffs.len(),
        ours.gates.len(),
        theirs.gates.len(),
        diffs.len().min(MAX_LISTED),
        diffs[..diffs.len().min(MAX_LISTED)].join("\n")
    );
}

/// The newest release (`k8s.io/kubernetes` v1.37.2).
#[test]
fn release_defaults_of_the_newest_release_match_component_base() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let staging = oracle_upstream()
        .code_generator()
        .expect("the oracle's profile has a published generator");
    let kubernetes = vgc::release::kubernetes_version_of(staging).expect("a release version");
    release_defaults_agree(&kubernetes);
}

/// The newest pre-release (`k8s.io/kubernetes` v1.38.0-beta.0, built with go1.27.0).
#[test]
fn release_defaults_of_the_newest_prerelease_match_component_base() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let Some(staging) = prerelease_upstream().and_then(vgc_ir::Upstream::code_generator) else {
        eprintln!(
            "release-defaults: no profile pins a pre-release newer than every release; nothing to compare"
        );
        return;
    };
    let kubernetes = vgc::release::kubernetes_version_of(staging).expect("a pre-release version");
    release_defaults_agree(&kubernetes);
}
