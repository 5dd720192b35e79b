//! Feature-gate defaults as a Kubernetes release declares them: the `map[featuregate.Feature]featuregate.VersionedSpecs`
//! composite literals of `k8s.io/kubernetes` `pkg/features/kube_features.go` (`defaultVersionedKubernetesFeatureGates`,
//! which also lists the generic API server's gates as `genericfeatures.X`), read with tree-sitter-go.
//!
//! A gate's value in a release is the last spec whose `Version` is not after the release and whose
//! `MinCompatibilityVersion` (its own or, when unset, the one of the spec before it) is not after the release's
//! previous minor (component-base `featuregate.VersionedSpecs` for a binary at its own version: emulation version the
//! release, minimum compatibility version one minor before): [`FeatureGate::at`].

use tree_sitter::{Node, Parser};

/// One `{Version: version.MustParse("1.33"), Default: true, PreRelease: featuregate.Beta, LockToDefault: …}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateSpec {
    /// `(major, minor)` of `Version`.
    pub since: (u32, u32),
    /// `Default`.
    pub default: bool,
    /// `PreRelease`'s name: `Alpha`, `Beta`, `GA`, `Deprecated` (the `featuregate.` qualifier dropped).
    pub pre_release: String,
    /// `LockToDefault`.
    pub locked: bool,
    /// `(major, minor)` of `MinCompatibilityVersion` as written (`None` when the spec does not set it): the spec
    /// only applies to a binary whose minimum compatibility version is at least this (a default that may change
    /// only once every API server of a cluster is new enough).
    pub min_compatibility: Option<(u32, u32)>,
}

/// A feature gate and its versioned specs, in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureGate {
    /// The gate's name: the string of its `featuregate.Feature` constant when the file declares it
    /// (`InPlacePodVerticalScaling featuregate.Feature = "InPlacePodVerticalScaling"`), else the identifier
    /// (`genericfeatures.DeclarativeValidationBeta` → `DeclarativeValidationBeta`, the same by convention).
    pub name: String,
    /// The specs, in source order.
    pub specs: Vec<GateSpec>,
}

impl FeatureGate {
    /// The spec in force in release `(major, minor)` — a binary of that release at its defaults, whose emulation
    /// version is the release and whose minimum compatibility version is the minor before — `None` when the gate did
    /// not exist yet. Specs are taken from the last: the first whose `since` is not after the release and whose
    /// minimum compatibility version (its own, else the nearest earlier spec's: component-base `AddVersioned`
    /// carries it forward) is not after the release's previous minor. So at 1.37
    /// `{1.37, Default: false}, {1.37, Default: true, MinCompatibilityVersion: 1.37}` gives `false`, and `true` from
    /// 1.38 on.
    ///
    /// upstream: k8s.io/component-base `featuregate.featureSpecAtEmulationAndMinCompatVersion`.
    #[must_use]
    pub fn at(&self, release: (u32, u32)) -> Option<&GateSpec> {
        let min_compatibility = (release.0, release.1.saturating_sub(1));
        let mut carried = None;
        let inherited: Vec<Option<(u32, u32)>> = self
            .specs
            .iter()
            .map(|s| {
                carried = s.min_compatibility.or(carried);
                carried
            })
            .collect();
        self.specs
            .iter()
            .zip(inherited)
            .rev()
            .find(|(s, needs)| s.since <= release && needs.is_none_or(|v| v <= min_compatibility))
            .map(|(s, _)| s)
    }
}

/// Every gate of every `map[featuregate.Feature]featuregate.VersionedSpecs{…}` literal in `src`, in source order.
///
/// # Errors
/// A message when the file holds no such literal, or a spec whose `Version` is not `version.MustParse("X.Y")` or
/// whose `Default` is not `true`/`false` (the shape changed: better no defaults than wrong ones). Syntax errors
/// elsewhere in the file are tolerated.
pub fn feature_gates(src: &str) -> Result<Vec<FeatureGate>, String> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .map_err(|e| format!("tree-sitter-go: {e}"))?;
    let tree = parser
        .parse(src, None)
        .ok_or_else(|| "the file could not be parsed".to_string())?;
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let consts = feature_constants(tree.root_node(), src);
    let mut gates = Vec::new();
    let mut found = false;
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "composite_literal"
            && n.child_by_field_name("type").is_some_and(|t| {
                let t: String = text(t).split_whitespace().collect();
                t == "map[featuregate.Feature]featuregate.VersionedSpecs"
            })
        {
            found = true;
            if let Some(body) = n.child_by_field_name("body") {
                for kv in named_children(body).filter(|c| c.kind() == "keyed_element") {
                    let mut parts = named_children(kv);
                    let (Some(key), Some(value)) = (parts.next(), parts.next()) else {
                        continue;
                    };
                    let key = text(key).trim();
                    let ident = key.rsplit('.').next().unwrap_or(key);
                    let name = if key.contains('.') {
                        ident.to_string()
                    } else {
                        consts
                            .get(ident)
                            .cloned()
                            .unwrap_or_else(|| ident.to_string())
                    };
                    let mut specs = Vec::new();
                    for spec in literal_values(value) {
                        specs.push(gate_spec(spec, src).map_err(|e| {
                            format!("{name} at line {}: {e}", spec.start_position().row + 1)
                        })?);
                    }
                    gates.push(FeatureGate { name, specs });
                }
            }
            continue;
        }
        let mut cursor = n.walk();
        let children: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    if !found {
        return Err(
            "no map[featuregate.Feature]featuregate.VersionedSpecs literal (is this pkg/features/kube_features.go?)"
                .into(),
        );
    }
    Ok(gates)
}

fn named_children<'t>(n: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let mut cursor = n.walk();
    let v: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
    v.into_iter()
}

/// The `literal_value`s inside a map value `{ {…}, {…} }` (each element possibly wrapped in a `literal_element`).
fn literal_values(value: Node<'_>) -> Vec<Node<'_>> {
    let outer = if value.kind() == "literal_value" {
        value
    } else {
        match named_children(value).find(|c| c.kind() == "literal_value") {
            Some(v) => v,
            None => return Vec::new(),
        }
    };
    named_children(outer)
        .filter_map(|e| {
            if e.kind() == "literal_value" {
                Some(e)
            } else {
                named_children(e).find(|c| c.kind() == "literal_value")
            }
        })
        .collect()
}

/// One spec literal's fields.
fn gate_spec(spec: Node<'_>, src: &str) -> Result<GateSpec, String> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("").trim();
    let (mut since, mut default, mut pre_release, mut locked) = (None, None, String::new(), false);
    let mut min_compatibility = None;
    for kv in named_children(spec).filter(|c| c.kind() == "keyed_element") {
        let mut parts = named_children(kv);
        let (Some(k), Some(v)) = (parts.next(), parts.next()) else {
            continue;
        };
        let v = text(v);
        match text(k) {
            "Version" => since = Some(major_minor("Version", v)?),
            "MinCompatibilityVersion" => {
                min_compatibility = Some(major_minor("MinCompatibilityVersion", v)?)
            }
            "Default" => {
                default = Some(match v {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("Default is not true or false: {v}")),
                });
            }
            "PreRelease" => pre_release = v.rsplit('.').next().unwrap_or(v).to_string(),
            "LockToDefault" => locked = v == "true",
            _ => {}
        }
    }
    Ok(GateSpec {
        since: since.ok_or("a spec without Version")?,
        default: default.ok_or("a spec without Default")?,
        pre_release,
        locked,
        min_compatibility,
    })
}

/// `(major, minor)` of a `field`'s value `version.MustParse("X.Y")`.
fn major_minor(field: &str, v: &str) -> Result<(u32, u32), String> {
    let inner = v
        .strip_prefix("version.MustParse(")
        .and_then(|r| r.strip_suffix(')'))
        .map(|s| s.trim().trim_matches('"'))
        .ok_or_else(|| format!("{field} is not version.MustParse(\"X.Y\"): {v}"))?;
    let mut it = inner.split('.');
    let major = it.next().and_then(|x| x.parse().ok());
    let minor = it.next().and_then(|x| x.parse().ok());
    major
        .zip(minor)
        .ok_or_else(|| format!("{field} {inner:?} is not X.Y"))
}

/// `Name featuregate.Feature = "Value"` constants of the file, by name.
fn feature_constants(root: Node<'_>, src: &str) -> std::collections::HashMap<String, String> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let mut out = std::collections::HashMap::new();
    for decl in named_children(root).filter(|n| n.kind() == "const_declaration") {
        let mut stack: Vec<Node<'_>> = named_children(decl).collect();
        while let Some(n) = stack.pop() {
            if n.kind() == "const_spec_list" {
                stack.extend(named_children(n));
                continue;
            }
            if n.kind() != "const_spec"
                || n.child_by_field_name("type").map(text) != Some("featuregate.Feature")
            {
                continue;
            }
            let (Some(name), Some(value)) = (
                n.child_by_field_name("name"),
                n.child_by_field_name("value"),
            ) else {
                continue;
            };
            let value = text(value).trim();
            if let Some(s) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
                out.insert(text(name).to_string(), s.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"package features

import (
	genericfeatures "k8s.io/apiserver/pkg/features"
	"k8s.io/component-base/featuregate"
)

const (
	// owner: @a
	InPlacePodVerticalScaling featuregate.Feature = "InPlacePodVerticalScaling"

	Renamed featuregate.Feature = "SomethingElse"
)

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	InPlacePodVerticalScaling: {
		{Version: version.MustParse("1.27"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.33"), Default: true, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.35"), Default: true, PreRelease: featuregate.GA, LockToDefault: true}, // GA
	},

	Renamed: {
		{Version: version.MustParse("1.37"), Default: false, PreRelease: featuregate.Alpha},
	},

	genericfeatures.DeclarativeValidationBeta: {
		{Version: version.MustParse("1.36"), Default: true, PreRelease: featuregate.Beta},
	},
}
"#;

    #[test]
    fn gates_names_and_the_spec_in_force_per_release() {
        let gates = feature_gates(SRC).expect("parses");
        let names: Vec<&str> = gates.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "InPlacePodVerticalScaling",
                "SomethingElse",
                "DeclarativeValidationBeta"
            ]
        );
        let ippvs = &gates[0];
        assert_eq!(ippvs.at((1, 26)), None);
        assert_eq!(
            ippvs
                .at((1, 32))
                .map(|s| (s.default, s.pre_release.as_str())),
            Some((false, "Alpha"))
        );
        assert_eq!(
            ippvs
                .at((1, 33))
                .map(|s| (s.default, s.pre_release.as_str())),
            Some((true, "Beta"))
        );
        let ga = ippvs.at((1, 37)).expect("GA");
        assert_eq!(
            (ga.since, ga.default, ga.pre_release.as_str(), ga.locked),
            ((1, 35), true, "GA", true)
        );
        assert_eq!(gates[1].at((1, 36)), None);
        assert_eq!(gates[2].at((1, 37)).map(|s| s.default), Some(true));
    }

    /// k8s.io/kubernetes v1.37.2's `DRAFractionalCapacityRange` (and v1.38.0-beta.0's `CertificateSigningRequestMLDSA`
    /// and others): a default that turns on only once the minimum compatibility version reaches the release, so a
    /// binary of that release at its defaults (minimum compatibility one minor before) still has it off. Found by
    /// `tests/tests/release_defaults_oracle.rs` (component-base said `false` where the greatest `Version` said `true`).
    #[test]
    fn a_spec_waits_for_its_min_compatibility_version() {
        let src = r#"package features
var g = map[featuregate.Feature]featuregate.VersionedSpecs{
	DRAFractionalCapacityRange: {
		{Version: version.MustParse("1.37"), Default: false, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.37"), Default: true, PreRelease: featuregate.Beta, MinCompatibilityVersion: version.MustParse("1.37")},
		{Version: version.MustParse("1.39"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
	},
}
"#;
        let gates = feature_gates(src).expect("parses");
        let gate = &gates[0];
        assert_eq!(gate.specs[1].min_compatibility, Some((1, 37)));
        assert_eq!(gate.specs[2].min_compatibility, None, "as written");
        let at = |minor| {
            gate.at((1, minor))
                .map(|s| (s.default, s.pre_release.as_str()))
        };
        assert_eq!(at(36), None);
        assert_eq!(
            at(37),
            Some((false, "Beta")),
            "minimum compatibility 1.36 < 1.37"
        );
        assert_eq!(at(38), Some((true, "Beta")), "minimum compatibility 1.37");
        assert_eq!(
            at(39),
            Some((true, "GA")),
            "1.37 carried forward, 1.38 >= 1.37"
        );
        let bad = src.replace(
            "MinCompatibilityVersion: version.MustParse(\"1.37\")",
            "MinCompatibilityVersion: v137",
        );
        let e = feature_gates(&bad).expect_err("refused");
        assert!(
            e.contains("MinCompatibilityVersion is not version.MustParse"),
            "{e}"
        );
    }

    #[test]
    fn a_changed_shape_is_an_error_not_a_guess() {
        assert!(feature_gates("package features\n").is_err());
        let bad = SRC.replace("version.MustParse(\"1.36\")", "someVersion");
        let e = feature_gates(&bad).expect_err("refused");
        assert!(e.starts_with("DeclarativeValidationBeta at line "), "{e}");
        assert!(e.contains("Version is not version.MustParse"), "{e}");
        let bad = SRC.replace(
            "Default: false, PreRelease: featuregate.Alpha},\n\t},\n\n\tgeneric",
            "Default: maybe, PreRelease: featuregate.Alpha},\n\t},\n\n\tgeneric",
        );
        assert!(feature_gates(&bad).is_err());
    }
}
