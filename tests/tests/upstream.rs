//! Upstream profiles (`docs/upstream.md`): detection from `go.mod`, and each profile delta pinned by a small Go
//! module built under the profiles on both sides of the change, with exact diagnostics. The real-input figures
//! (k8s.io/api v0.35.10 … v0.38.0-alpha.2) are measured by `scripts/differential.sh` and `tests/tests/k8s_e2e.rs`.
//!
//! The modules are fixture directories, `tests/fixtures/upstream/<case>` (each test builds a copy,
//! `vgc_tests::fixtures::upstream_module`); a variant a test derives from one (another `doc.go`, a text replaced)
//! or computes (a version found at run time) is written by [`module`].

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_ir::Upstream;
use vgc_ir::catalog::TagId;
use vgc_ir::profile::Selected;
use vgc_tests::fixtures::{upstream_file, upstream_module};

/// Writes a Go module `example.com/p` with `go.mod` (plus `extra_gomod`) and `files` (path, text).
fn module(extra_gomod: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("go.mod"),
        format!("module example.com/p\n\ngo 1.25\n{extra_gomod}"),
    )
    .expect("go.mod");
    for (p, text) in files {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn request(dir: &Path, upstream: Option<Upstream>) -> BuildRequest {
    let mut req = BuildRequest::check(dir.to_string_lossy().into_owned(), Vec::new());
    req.upstream = upstream.map(|u| Selected::new(u, "test"));
    req
}

/// Expected error lines per case, as [`run_generated`] returns them.
fn lines(v: &[&[&str]]) -> Vec<Vec<String>> {
    v.iter()
        .map(|c| c.iter().map(|l| (*l).to_string()).collect())
        .collect()
}

/// `code: message` of every diagnostic, paths stripped.
fn diags(out: &vgc::BuildOutcome) -> Vec<String> {
    out.diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect()
}

const DOC: &str = "// +k8s:validation-gen=TypesWithField=TypeMeta\npackage v1\n";

/// [`DOC`] opted out of upstream's lint (which every command runs): for fixtures about lowering, not lint rules.
const DOC_NOLINT: &str =
    "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-nolint\npackage v1\n";

#[test]
fn the_profile_is_detected_from_go_mod_else_the_newest() {
    let dir = upstream_module("profile-detected-from-go-mod");
    let out = vgc::build(&request(dir.path(), None));
    assert_eq!(
        out.profile,
        Some(Selected::new(
            Upstream::V1_36,
            "detected from go.mod k8s.io/apimachinery v0.36.6"
        ))
    );
    let dir = upstream_module("profile-newest");
    let out = vgc::build(&request(dir.path(), None));
    assert_eq!(out.profile, Some(Selected::newest()));
    assert_eq!(Selected::newest().version, Upstream::NEWEST);
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_35)));
    assert_eq!(out.profile, Some(Selected::new(Upstream::V1_35, "test")));
}

#[test]
fn requiredness_on_well_known_value_structs_follows_the_struct_rule() {
    // Well-known apimachinery values Go declares as structs are non-pointer structs for requiredness (upstream
    // v0.37.2 refuses `+k8s:optional` on a `metav1.Time`, checked by running it); `[]byte` is not one.
    let dir = upstream_module("value-well-known");
    // The module cache need not hold k8s.io/apimachinery: the well-known types are known by import path, and the
    // missing module is a diagnostic of its own (VGC0004), left out here.
    let tagged = |out: &vgc::BuildOutcome| {
        diags(out)
            .into_iter()
            .filter(|d| !d.starts_with("VGC0004"))
            .collect::<Vec<_>>()
    };
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        tagged(&old),
        [
            "VGC0110: Event: tag \"k8s:required\": non-pointer structs cannot use the \"k8s:required\" tag",
            "VGC0110: Event: tag \"k8s:optional\": non-pointer structs cannot use the \"k8s:optional\" tag",
        ]
    );
    // 1.38: documentation only, no check (a zero `when` is not an error); `raw`'s optional and maxItems remain.
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(tagged(&new), Vec::<String>::new());
    assert_eq!(new.stats.checks, 2, "raw's optional and maxItems");
}

/// kubernetes#136779: `required`/`optional` on a non-pointer struct field — an error up to 1.37, documentation only
/// (no check, the struct's own rules still run) from 1.38.
#[test]
fn requiredness_on_non_pointer_structs_is_documentation_from_1_38() {
    let dir = upstream_module("value-struct");
    let value_struct = upstream_file("value-struct", "v1/types.go");
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        diags(&old),
        [
            "VGC0110: CSR: tag \"k8s:required\": non-pointer structs cannot use the \"k8s:required\" tag",
            "VGC0110: CSR: tag \"k8s:optional\": non-pointer structs cannot use the \"k8s:optional\" tag",
        ]
    );
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    // No tag error, and no lint finding: the package opts out with `validation-gen-nolint`.
    assert_eq!(diags(&new), Vec::<String>::new());
    // Without the opt-out, upstream 1.38's lint (run by every command) says what the tag means here.
    let linted = module("", &[("v1/doc.go", DOC), ("v1/types.go", &value_struct)]);
    let new_linted = vgc::build(&request(linted.path(), Some(Upstream::V1_38)));
    assert_eq!(
        diags(&new_linted),
        [
            "VGC0304: field Spec: +k8s:required on non-pointer struct example.com/p/v1.Spec: it has no required or union member, so the field is effectively optional"
        ]
    );
    // The same module without the two tags generates exactly the same checks: the tags add none.
    let plain = value_struct
        .replace("\t// +k8s:alpha(since: \"1.38\")=+k8s:required\n", "")
        .replace("\t// +k8s:optional\n\tOther", "\tOther");
    let dir2 = module("", &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", &plain)]);
    let without = vgc::build(&request(dir2.path(), Some(Upstream::V1_38)));
    assert_eq!(new.stats.checks, without.stats.checks);
    assert_eq!(new.stats.checks, 2, "Spec.name's optional and maxLength");
    // `forbidden` is still an error on a non-pointer struct.
    let forbidden = value_struct.replace("+k8s:required", "+k8s:forbidden");
    let dir3 = module(
        "",
        &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", &forbidden)],
    );
    let out = vgc::build(&request(dir3.path(), Some(Upstream::V1_38)));
    assert_eq!(
        diags(&out),
        [
            "VGC0110: CSR: tag \"k8s:forbidden\": non-pointer structs cannot use the \"k8s:forbidden\" tag"
        ]
    );
}

const LINT_138: &str = r#"package v1

type TypeMeta struct{}

type Root struct {
	TypeMeta `json:",inline"`
	// +k8s:required
	Loose Loose `json:"loose"`
	// +k8s:required
	// +k8s:opaqueType
	Opaque Strict `json:"opaque"`
	// +k8s:optional
	Strict Strict `json:"strict"`
	// +k8s:optional
	Nested Nested `json:"nested"`
	// +k8s:required
	Good Strict `json:"good"`
	// +k8s:optional
	Fine Loose `json:"fine"`
	// +k8s:optional
	Phase Phase `json:"phase,omitempty"`
	// +k8s:optional
	Kind Kind `json:"kind,omitempty"`
	// +k8s:optional
	Quiet Quiet `json:"quiet,omitempty"`
	// +k8s:optional
	// +k8s:maxItems=2
	Items []Item `json:"items,omitempty"`
}

type Loose struct {
	// +k8s:optional
	A *string `json:"a,omitempty"`
	// +k8s:opaqueType
	Hidden Strict `json:"hidden"`
	// +k8s:optional
	P *Strict `json:"p,omitempty"`
}

type Strict struct {
	// +k8s:alpha(since: "1.38")=+k8s:required
	B *string `json:"b,omitempty"`
}

type Nested struct {
	Inner Strict `json:"inner"`
}

// +enum
type Phase string

// +enum
// +k8s:alpha(since: "1.38")=+k8s:enum
type Kind string

const KindA Kind = "A"

// +enum
// +k8s:validation-gen-nolint
type Quiet string

// +k8s:minimum=1
type Count int32

type Item struct {
	// +k8s:alpha=+k8s:optional
	// +k8s:maxLength=2
	Name string `json:"name"`
}
"#;

/// Findings of upstream's lint rules (VGC03xx) of `vgc lint --rules upstream` under `u`.
fn upstream_lint(dir: &Path, u: Upstream) -> Vec<String> {
    let settings = vgc::LintSettings {
        upstream_only: true,
        ..Default::default()
    };
    let out = vgc::lint(&request(dir, Some(u)), &settings);
    diags(&out)
        .into_iter()
        .filter(|d| d.starts_with("VGC03"))
        .collect()
}

/// 1.38 lint: `nonPointerStructRequiredness` (kubernetes#141637, its three messages), the `+enum` marker rule
/// (kubernetes#142102, message inferred) silenced by `validation-gen-nolint`, and the stability rule removed
/// (kubernetes#142017); up to 1.37 the stability rule runs and the new ones do not.
#[test]
fn lint_rules_follow_the_profile() {
    let beta = LINT_138.replace("+k8s:alpha=+k8s:optional", "+k8s:optional");
    let dir = module("", &[("v1/doc.go", DOC), ("v1/types.go", &beta)]);
    assert_eq!(
        upstream_lint(dir.path(), Upstream::V1_38),
        [
            "VGC0304: field Loose: +k8s:required on non-pointer struct example.com/p/v1.Loose: it has no required or union member, so the field is effectively optional",
            "VGC0304: field Opaque: +k8s:required on non-pointer opaque struct example.com/p/v1.Strict: its validations are ignored, so the field is effectively optional",
            "VGC0304: field Strict: +k8s:optional on non-pointer struct example.com/p/v1.Strict: it has a required or union member, so the field is effectively required",
            "VGC0304: field Nested: +k8s:optional on non-pointer struct example.com/p/v1.Nested: it has a required or union member, so the field is effectively required",
            "VGC0305: +enum requires +k8s:enum to be set",
        ]
    );
    // The same tree under 1.37: none of the 1.38 rules (its tag errors on the struct fields are not lint).
    assert_eq!(
        upstream_lint(dir.path(), Upstream::V1_37),
        Vec::<String>::new()
    );
    let alpha_in_stable = LINT_138.replace("+k8s:alpha=+k8s:optional", "+k8s:validateTrueAlpha");
    let dir = module("", &[("v1/doc.go", DOC), ("v1/types.go", &alpha_in_stable)]);
    let old = upstream_lint(dir.path(), Upstream::V1_37);
    assert!(
        old.contains(&"VGC0302: field Name: tag \"k8s:validateTrueAlpha\" with stability level \"Alpha\" cannot be used in Stable validation".to_string()),
        "{old:?}"
    );
    let new = upstream_lint(dir.path(), Upstream::V1_38);
    assert!(!new.iter().any(|d| d.starts_with("VGC0302")), "{new:?}");
}

/// 1.36 spells `modeDiscriminator(modality:)` `discriminator(name:)` and `ifMode(modality:, mode:)`
/// `member(discriminator:, value:)`: under 1.36 they build to the same checks as 1.37's spelling under 1.37, and are
/// unknown tags under 1.37.
#[test]
fn release_1_36_spells_modes_discriminator_and_member() {
    let dir = upstream_module("modes-1-36");
    let modes_136 = upstream_file("modes-1-36", "v1/types.go");
    let v136 = vgc::build(&request(dir.path(), Some(Upstream::V1_36)));
    assert_eq!(diags(&v136), Vec::<String>::new());
    let spelled_137 = modes_136
        .replace("k8s:discriminator(name:", "k8s:modeDiscriminator(modality:")
        .replace("k8s:discriminator", "k8s:modeDiscriminator")
        .replace(
            "k8s:member(discriminator: \"other\", value:",
            "k8s:ifMode(modality: \"other\", mode:",
        )
        .replace("k8s:member", "k8s:ifMode");
    let dir2 = module(
        "",
        &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", &spelled_137)],
    );
    let v137 = vgc::build(&request(dir2.path(), Some(Upstream::V1_37)));
    assert_eq!(diags(&v137), Vec::<String>::new());
    // The two modes, the two discriminators' `+k8s:optional` (upstream 1.36's requiredness lint wants it).
    assert_eq!(v136.stats.checks, 6);
    assert_eq!(v136.stats.checks, v137.stats.checks);
    assert_eq!(v136.plan.modules, v137.plan.modules);
    let dir = module("", &[("v1/doc.go", DOC), ("v1/types.go", &modes_136)]);
    let wrong = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        diags(&wrong)
            .iter()
            .filter(|d| d.starts_with("VGC0102"))
            .count(),
        5
    );
}

/// 1.35 and 1.36 read `+k8s:validation-gen=TypeMeta` as a field name (1.37: `TypesWithField=TypeMeta`), and tags
/// that did not exist yet are unknown tags naming the release that added them.
#[test]
fn release_1_35_roots_and_tags_by_release() {
    let dir = upstream_module("release-1-35-roots");
    let v135 = vgc::build(&request(dir.path(), Some(Upstream::V1_35)));
    assert_eq!(diags(&v135), Vec::<String>::new());
    assert_eq!(v135.stats.checks, 2);
    let v137 = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        diags(&v137),
        ["VGC0005: unknown k8s:validation-gen value \"TypeMeta\""]
    );
    let newer = upstream_file("release-1-35-roots", "v1/types.go")
        .replace("+k8s:maxLength=3", "+k8s:maxBytes=3");
    let dir = module(
        "",
        &[
            ("v1/doc.go", "// +k8s:validation-gen=TypeMeta\npackage v1\n"),
            ("v1/types.go", &newer),
        ],
    );
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_35)));
    assert_eq!(
        diags(&out),
        ["VGC0102: unknown tag \"k8s:maxBytes\" in upstream 1.35"]
    );
    assert_eq!(
        out.diagnostics[0].hint.as_deref(),
        Some(
            "the tag exists from upstream 1.36 on; select that profile (`--upstream 1.36`, `[upstream] version` in vgc.toml) or a newer k8s.io/apimachinery in go.mod"
        )
    );
}

const OPTIONS: &str = r#"package v1

type TypeMeta struct{}

type T struct {
	TypeMeta `json:",inline"`
	// +k8s:optional
	// +k8s:ifEnabled("G")=+k8s:maxLength=3
	Name string `json:"name,omitempty"`
	// +k8s:optional
	Mode Mode `json:"mode,omitempty"`
}

// +k8s:enum
type Mode string

const (
	ModeA Mode = "A"
	// +k8s:ifDisabled("G")=+k8s:enumExclude
	ModeB Mode = "B"
)
"#;

/// Before 1.37 (apimachinery v0.35/v0.36 `operation.Options []string`) an option the request does not name is
/// disabled; from 1.37 (`map[string]bool`) it is an "undefined validation option" internal error. The profile
/// selects the generated call: `op.option_enabled` / `enum_value_with_listed_options` for 1.35 and 1.36,
/// `op.has_option` / `enum_value_with_exclusions` from 1.37 (runtime behaviour: `vgc_runtime`'s
/// `validate::r#enum::tests::undefined_options_by_release`).
#[test]
fn undefined_options_are_disabled_before_1_37() {
    use vgc_lowering::plan::CheckKind;
    let old_doc = "// +k8s:validation-gen=TypeMeta\npackage v1\n";
    for (u, undefined_is_error) in [
        (Upstream::V1_35, false),
        (Upstream::V1_36, false),
        (Upstream::V1_37, true),
        (Upstream::V1_38, true),
    ] {
        let doc = if u.validation_gen_field_names() {
            old_doc
        } else {
            DOC
        };
        let dir = module("", &[("v1/doc.go", doc), ("v1/types.go", OPTIONS)]);
        let mut req = request(dir.path(), Some(u));
        req.check_only = false;
        let out = vgc::build(&req);
        assert_eq!(diags(&out), Vec::<String>::new(), "{u:?}");
        let mut flags = Vec::new();
        let checks = out
            .plan
            .modules
            .iter()
            .flat_map(|m| &m.types)
            .flat_map(|t| {
                let fields = t.fields.iter().flatten().flat_map(|f| &f.checks);
                t.checks.iter().chain(fields)
            });
        for c in checks {
            match &c.kind {
                CheckKind::IfOption(io) => flags.push(("ifEnabled", io.undefined_is_error)),
                CheckKind::Enum(e) => flags.push(("enum", e.undefined_option_is_error)),
                _ => {}
            }
        }
        flags.sort_unstable();
        assert_eq!(
            flags,
            [
                ("enum", undefined_is_error),
                ("ifEnabled", undefined_is_error)
            ],
            "{u:?}"
        );
        let code: String = out.files.iter().map(|f| f.contents.as_str()).collect();
        let (yes, no) = if undefined_is_error {
            (
                ["op.has_option(\"G\")", "enum_value_with_exclusions("],
                ["op.option_enabled(", "enum_value_with_listed_options("],
            )
        } else {
            (
                [
                    "op.option_enabled(\"G\")",
                    "enum_value_with_listed_options(",
                ],
                ["op.has_option(", "enum_value_with_exclusions("],
            )
        };
        for s in yes {
            assert!(code.contains(s), "{u:?}: {s} missing");
        }
        for s in no {
            assert!(!code.contains(s), "{u:?}: {s} present");
        }
    }
}

/// upstream `required.go` `doOptional` runs on an `ifEnabled`/`ifDisabled` payload too: `+k8s:optional` under
/// `ifEnabled(X)` on a field with a non-zero `+default` is "effectively required" (`IfOption(X, true,
/// RequiredPointer)`, an error, not `NonError`), as code-generator v0.36.6 generates for
/// `scheduling/v1alpha2.PodGroupSpec.disruptionMode` (`+default="Pod"`). Same code in 1.37.
#[test]
fn gated_optional_with_a_default_is_required() {
    use vgc_lowering::plan::CheckKind;
    let types = "package v1\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:ifDisabled(\"G\")=+k8s:forbidden\n\t// +k8s:ifEnabled(\"G\")=+k8s:optional\n\t// +default=\"Pod\"\n\tMode *string `json:\"mode,omitempty\"`\n}\n";
    for u in [Upstream::V1_36, Upstream::V1_37] {
        let doc = if u.validation_gen_field_names() {
            "// +k8s:validation-gen=TypeMeta\npackage v1\n"
        } else {
            DOC
        };
        let dir = module("", &[("v1/doc.go", doc), ("v1/types.go", types)]);
        let out = vgc::build(&request(dir.path(), Some(u)));
        assert_eq!(diags(&out), Vec::<String>::new(), "{u:?}");
        let got: Vec<String> = out
            .plan
            .modules
            .iter()
            .flat_map(|m| &m.types)
            .flat_map(|t| t.fields.iter().flatten())
            .flat_map(|f| &f.checks)
            .map(|c| match &c.kind {
                CheckKind::IfOption(io) => format!(
                    "{}({},{}) non_error={} {:?} non_error={}",
                    c.tag.map_or("-", TagId::name),
                    io.option,
                    io.enabled,
                    c.non_error,
                    io.inner.kind,
                    io.inner.non_error
                ),
                k => format!("{k:?}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                "k8s:ifDisabled(G,false) non_error=false Forbidden { detail: None } non_error=false",
                "k8s:ifDisabled(G,false) non_error=true Optional non_error=true",
                "k8s:ifEnabled(G,true) non_error=false Required { detail: None } non_error=false",
            ],
            "{u:?}"
        );
    }
}

/// code-generator v0.35.10's lint has only the two conflicting-tag rules: no `requiredAndOptional` (VGC0303) and no
/// `validationStability` (VGC0302) before 1.36 (k8s.io/api v0.35.10's `rbac/v1` `Subjects` carries `+k8s:` tags
/// without requiredness).
#[test]
fn release_1_35_has_no_requiredness_or_stability_lint() {
    let dir = upstream_module("release-1-35-lint");
    assert_eq!(
        upstream_lint(dir.path(), Upstream::V1_35),
        Vec::<String>::new()
    );
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_35)));
    assert_eq!(diags(&out), Vec::<String>::new());
    assert_eq!(
        upstream_lint(dir.path(), Upstream::V1_36),
        [
            "VGC0303: field Name: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden"
        ]
    );
    assert!(!Upstream::V1_35.lint_stability() && Upstream::V1_36.lint_stability());
}

/// code-generator v0.35.10 does not skip structs embedding `metav1.ListMeta` when selecting roots: a `*List` type
/// matching `validation-gen=TypeMeta` is a root (registered, validating its items); from 1.36 it is skipped
/// (k8s.io/api v0.35.10 registers 23 `*List` roots, e.g. `certificates/v1.CertificateSigningRequestList`).
#[test]
fn release_1_35_lists_are_roots() {
    let dir = upstream_module("release-1-35-lists");
    let roots = |u: Upstream| -> Vec<String> {
        let out = vgc::build(&request(dir.path(), Some(u)));
        assert_eq!(diags(&out), Vec::<String>::new(), "{u:?}");
        out.plan
            .modules
            .iter()
            .flat_map(|m| &m.types)
            .filter(|t| t.root)
            .map(|t| t.key.name.clone())
            .collect()
    };
    assert_eq!(roots(Upstream::V1_35), ["T", "TList"]);
    assert_eq!(roots(Upstream::V1_36), ["T"]);
}

/// code-generator v0.35.10 reads `+k8s:isSubresource` / `+k8s:supportsSubresource` values verbatim (k8s.io/api
/// v0.35.10: `+k8s:isSubresource=/scale`); from 1.36 they are Go string literals (`="/scale"`).
#[test]
fn release_1_35_subresource_values_are_verbatim() {
    let dir = upstream_module("release-1-35-subresources");
    let paths = |u: Upstream| -> Vec<(String, Vec<String>)> {
        let out = vgc::build(&request(dir.path(), Some(u)));
        out.plan
            .modules
            .iter()
            .flat_map(|m| &m.types)
            .filter(|t| t.root)
            .map(|t| {
                let paths = t
                    .subresources
                    .clone()
                    .map(|s| s.allowed)
                    .unwrap_or_default();
                (t.key.name.clone(), paths)
            })
            .collect()
    };
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        paths(Upstream::V1_35),
        [
            ("Scale".to_string(), s(&["/scale"])),
            ("T".to_string(), s(&["\"/status\"", "/"])),
        ]
    );
    // (1.36 reads the unquoted `/scale` as no path; k8s.io/api v0.36.6 quotes it.)
    assert_eq!(
        paths(Upstream::V1_36).pop(),
        Some(("T".to_string(), s(&["/", "/status"])))
    );
}

/// 1.35 lowers `+k8s:maxLength` to the byte-counting check and unions without an origin (apimachinery v0.35.10);
/// 1.36 to the rune-counting one with origin `union` (runtime behaviour: `vgc_runtime`'s
/// `validate::limits::tests::release_1_35_max_length` and `validate::union::tests::release_1_35_union_origin`).
#[test]
fn release_1_35_max_length_bytes_and_union_origin() {
    use vgc_lowering::plan::CheckKind;
    let dir = upstream_module("release-1-35-max-length-union");
    let kinds = |u: Upstream| -> Vec<String> {
        let out = vgc::build(&request(dir.path(), Some(u)));
        assert_eq!(diags(&out), Vec::<String>::new(), "{u:?}");
        let checks = out
            .plan
            .modules
            .iter()
            .flat_map(|m| &m.types)
            .flat_map(|t| {
                let fields = t.fields.iter().flatten().flat_map(|f| &f.checks);
                t.checks.iter().chain(fields)
            });
        checks
            .filter_map(|c| match &c.kind {
                CheckKind::MaxLength(n) => Some(format!("MaxLength({n})")),
                CheckKind::MaxLengthBytes(n) => Some(format!("MaxLengthBytes({n})")),
                CheckKind::Union(u) => Some(format!("Union(origin={})", u.union_origin)),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        kinds(Upstream::V1_35),
        ["Union(origin=false)", "MaxLengthBytes(3)"]
    );
    assert_eq!(
        kinds(Upstream::V1_36),
        ["Union(origin=true)", "MaxLength(3)"]
    );
}

/// The crate generated from `plan` (named `crate_name`, runtime from this checkout); with `VGC_KEEP_GENERATED=<dir>`
/// also written there, to compile it by hand.
fn generate_kept(
    plan: &vgc_lowering::CratePlan,
    crate_name: &str,
) -> Vec<vgc_codegen::GeneratedFile> {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
    let opts = vgc_codegen::Options {
        crate_name: crate_name.into(),
        runtime: vgc_codegen::RuntimeDep::Path(runtime.to_string_lossy().into_owned()),
        target: vgc_codegen::Target::Own,
    };
    let files = vgc_codegen::generate(plan, &opts).expect("generates");
    if let Ok(out) = std::env::var("VGC_KEEP_GENERATED") {
        for f in &files {
            let p = Path::new(&out).join(&f.path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, &f.contents).expect("write");
        }
    }
    files
}

/// kubernetes#141811: `+k8s:maxBytes` on a `[]byte` field (and a typedef to `[]byte`) — `can only be used on string
/// types` up to 1.37; from 1.38 the `MaxBytesSlice` check (`vgc_runtime::validate::max_bytes_slice`, proven against
/// apimachinery v0.38.0-alpha.2 by `tests/tests/runtime_differential.rs`), not a short-circuit, alongside the other
/// checks of the field.
#[test]
fn max_bytes_on_byte_slices_from_1_38() {
    use vgc_lowering::plan::CheckKind;
    let dir = upstream_module("max-bytes-byte-slices");
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        diags(&old),
        [
            "VGC0110: T: tag \"k8s:maxBytes\": can only be used on string types",
            "VGC0110: T: tag \"k8s:maxBytes\": can only be used on string types",
        ]
    );
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(diags(&new), Vec::<String>::new());
    let checks: Vec<(String, String, bool)> = new
        .plan
        .modules
        .iter()
        .flat_map(|m| &m.types)
        .flat_map(|t| t.fields.iter().flatten())
        .flat_map(|f| f.checks.iter().map(move |c| (f, c)))
        .filter_map(|(f, c)| match &c.kind {
            CheckKind::MaxBytes(n) => {
                Some((f.go_name.clone(), format!("MaxBytes({n})"), c.short_circuit))
            }
            CheckKind::MaxBytesSlice(n) => Some((
                f.go_name.clone(),
                format!("MaxBytesSlice({n})"),
                c.short_circuit,
            )),
            CheckKind::MaxItems(n) => {
                Some((f.go_name.clone(), format!("MaxItems({n})"), c.short_circuit))
            }
            _ => None,
        })
        .collect();
    let want = |f: &str, k: &str, sc: bool| (f.to_string(), k.to_string(), sc);
    assert_eq!(
        checks,
        [
            want("Data", "MaxBytesSlice(4)", false),
            want("Blob", "MaxBytesSlice(2)", false),
            want("Name", "MaxBytes(5)", false),
        ]
    );
    let files = generate_kept(&new.plan, "bytes-1-38");
    let code: String = files.iter().map(|f| f.contents.as_str()).collect();
    assert!(
        code.contains("max_bytes_slice(") && code.contains("max_bytes("),
        "{code}"
    );
}

/// kubernetes#141383: maps of pointers — `maps of pointers are not supported` up to 1.37; from 1.38 supported: a nil
/// value is `Required` at its key (`PtrMapNoNils`, the field's first short-circuit check, as `PtrSliceNoNils` for
/// lists; placement inferred from it), and the value iteration (`EachPtrMapVal`: `eachVal` rules, the value type's
/// own validation) skips nil values.
#[test]
fn maps_of_pointers_from_1_38() {
    use vgc_lowering::plan::CheckKind;
    let dir = upstream_module("maps-of-pointers");
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        diags(&old),
        [
            "VGC0112: field T.Counts: maps of pointers are not supported",
            "VGC0112: field T.Items: maps of pointers are not supported",
        ]
    );
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(diags(&new), Vec::<String>::new());
    let fields: Vec<(String, Vec<String>)> = new
        .plan
        .modules
        .iter()
        .flat_map(|m| &m.types)
        .flat_map(|t| t.fields.iter().flatten())
        .filter(|f| f.go_name == "Counts" || f.go_name == "Items")
        .map(|f| {
            let checks = f
                .checks
                .iter()
                .map(|c| {
                    let kind = match &c.kind {
                        CheckKind::NoNils => "NoNils".to_string(),
                        CheckKind::EachVal(..) => "EachVal".to_string(),
                        CheckKind::MaxProperties(n) => format!("MaxProperties({n})"),
                        CheckKind::Optional => "Optional".to_string(),
                        other => format!("{other:?}"),
                    };
                    format!(
                        "{kind} {} sc={}",
                        c.tag.map_or("-", TagId::name),
                        c.short_circuit
                    )
                })
                .collect();
            (f.go_name.clone(), checks)
        })
        .collect();
    assert_eq!(
        fields,
        [
            (
                "Counts".to_string(),
                vec![
                    "NoNils - sc=true".to_string(),
                    "Optional k8s:optional sc=true".to_string(),
                    "EachVal k8s:eachVal sc=false".to_string(),
                ]
            ),
            (
                "Items".to_string(),
                vec![
                    "NoNils - sc=true".to_string(),
                    "MaxProperties(2) k8s:maxProperties sc=true".to_string(),
                    "Optional k8s:optional sc=true".to_string(),
                ]
            ),
        ]
    );
    let files = generate_kept(&new.plan, "ptr-maps-1-38");
    let code: String = files.iter().map(|f| f.contents.as_str()).collect();
    assert_eq!(code.matches("ptr_map_no_nils(").count(), 2, "{code}");
}

/// Every diagnostic as `vgc::render::short` prints it (`file:line:col: severity[code]: message`), with the module
/// directory `dir` stripped from the file.
fn located(out: &vgc::BuildOutcome, dir: &Path) -> Vec<String> {
    let prefix = format!("{}/", dir.display());
    out.diagnostics
        .iter()
        .map(|d| vgc::render::short(d, &out.sources).replace(&prefix, ""))
        .collect()
}

/// Builds the module at `dir` under profile `u` into `target/e2e/upstream-<name>` with a case runner
/// (`vgc_tests::harness::rust_runner`), compiles it warning-free (target dir `target/e2e/target`, shared with the
/// other end-to-end tests) and runs `cases` (the conformance `cases.json` shape, kinds `example.com/p/v1.<Type>`).
/// Returns each case's error lines, `<field> | <ErrorBody> | origin=<origin> | sc=<bool> | <alpha|beta|->`.
fn run_generated(
    dir: &Path,
    u: Upstream,
    name: &str,
    cases: &serde_json::Value,
) -> Vec<Vec<String>> {
    run_generated_with(dir, u, name, cases, &[], None)
}

/// [`run_generated`] with `--validation-extensions-file` paths, and `custom` as the generated crate's
/// `src/custom.rs` (the hand-written functions) when given.
fn run_generated_with(
    dir: &Path,
    u: Upstream,
    name: &str,
    cases: &serde_json::Value,
    extension_files: &[String],
    custom: Option<&str>,
) -> Vec<Vec<String>> {
    use std::process::Command;
    let root = vgc_tests::example::workspace_root().to_path_buf();
    let e2e = root.join("target/e2e");
    let work = e2e.join(format!("upstream-{name}"));
    let _ = std::fs::remove_dir_all(&work);
    let generated = work.join("generated");
    let krate = format!("upstream-{name}-generated");
    let mut req = request(dir, Some(u));
    req.extension_files = extension_files.to_vec();
    req.out = Some(generated.clone());
    req.check_only = false;
    req.no_cache = true;
    req.crate_name = krate.clone();
    req.runtime =
        vgc_codegen::RuntimeDep::Path(root.join("runtime").to_string_lossy().into_owned());
    let out = vgc::build(&req);
    assert_eq!(vgc::exit_code(&out), 0, "{:?}", diags(&out));
    if let Some(custom) = custom {
        std::fs::write(generated.join("src/custom.rs"), custom).expect("custom.rs");
    }
    let runner = work.join("runner");
    std::fs::create_dir_all(runner.join("src")).expect("mkdir runner");
    std::fs::write(
        runner.join("Cargo.toml"),
        format!(
            "[package]\nname = \"upstream-{name}-runner\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{krate} = {{ path = {:?} }}\nvgc-runtime = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
            generated.to_string_lossy(),
            root.join("runtime").to_string_lossy()
        ),
    )
    .expect("runner Cargo.toml");
    let generator = vgc_tests::plan_random::Generator::new(&out.plan);
    std::fs::write(
        runner.join("src/main.rs"),
        vgc_tests::harness::rust_runner(&krate.replace('-', "_"), &generator.roots, false),
    )
    .expect("runner main.rs");
    let built = vgc_tests::harness::nested_cargo(
        &e2e,
        &["build", "--quiet"],
        &runner.join("Cargo.toml"),
        true,
    )
    .output()
    .expect("nested cargo runs");
    assert!(
        built.status.success(),
        "the generated crate failed to build warning-free:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let results = vgc_tests::differential::run(
        &mut Command::new(e2e.join(format!("target/debug/upstream-{name}-runner"))),
        &cases.to_string(),
    );
    results
        .iter()
        .map(|r| {
            assert!(r.get("error").is_none(), "{r}");
            r["got"]
                .as_array()
                .expect("got")
                .iter()
                .map(|l| l.as_str().expect("line").to_string())
                .collect()
        })
        .collect()
}

/// kubernetes#141945: nested `+k8s:subfield` — `nested subfield is not supported` up to 1.37; from 1.38 a chain
/// validates the member of the member (a nil hop is no error), each chain in its own cohort named for its full path
/// (`leaf.name`, `leaf.count`: a failing short-circuit in one does not stop the other); a subfield no longer
/// inherits the member's own short-circuits (`In`: the member's `ShortCircuit` failure no longer skips the
/// payload); `item` cohorts nest the wrapped subfield's (`Entries`); and an `eachVal` pass is no longer a
/// short-circuit of the field (`Names`: `minItems` still runs) and, generated with default flags
/// (code-generator v0.38.0-beta.0 `each.go`), marks none of its errors short-circuit (`sc=false`; 1.37: `true`).
#[test]
fn nested_subfield_from_1_38() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let dir = upstream_module("nested-subfield");
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        diags(&old),
        [
            "VGC0110: T: nested subfield is not supported",
            "VGC0110: T: nested subfield is not supported",
        ]
    );
    assert_eq!(
        located(&old, dir.path()),
        [
            "v1/types.go:35:6: error[VGC0110]: T: nested subfield is not supported",
            "v1/types.go:36:6: error[VGC0110]: T: nested subfield is not supported",
        ]
    );
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(diags(&new), Vec::<String>::new());
    let cases = serde_json::json!([
        {"name": "nil hop", "kind": "example.com/p/v1.T", "object": {"mid": {}}},
        {"name": "both chains", "kind": "example.com/p/v1.T", "object": {"mid": {"leaf": {"count": 0}}}},
        {"name": "ratcheted", "kind": "example.com/p/v1.T", "object": {"mid": {"leaf": {"count": 0}}},
         "old": {"mid": {"leaf": {"count": 0}}}},
        {"name": "no inheritance", "kind": "example.com/p/v1.U", "object": {"in": {"name": "n"}}},
        {"name": "item cohorts", "kind": "example.com/p/v1.U", "object": {"entries": [{"key": "x", "b": "long"}]}},
        {"name": "each pass", "kind": "example.com/p/v1.U", "object": {"names": ["a"]}},
    ]);
    let got = run_generated(dir.path(), Upstream::V1_38, "nested-subfield", &cases);
    assert_eq!(
        got,
        lines(&[
            &[],
            &[
                "mid.leaf.name | Required value | origin= | sc=true | -",
                "mid.leaf.count | Invalid value: 0: must be greater than or equal to 1 | origin=minimum | sc=false | -",
            ],
            &[],
            &[
                "in.name | Invalid value: \"n\": forced failure: payload | origin=validateFalse | sc=false | -",
                "in.name | Invalid value: \"n\": forced failure: member | origin=validateFalse | sc=true | -",
            ],
            &[
                "entries[0].a | Required value | origin= | sc=true | -",
                "entries[0].b | Too long: may not be more than 1 character | origin=maxLength | sc=false | -",
            ],
            &[
                "names | Too few: 1: must have at least 2 items | origin=minItems | sc=false | -",
                "names[0] | Invalid value: \"a\": forced failure: each | origin=validateFalse | sc=false | -",
            ],
        ])
    );
    // The same without the chains, under 1.37: the cohort and inheritance rules of before.
    let flat = upstream_file("nested-subfield", "v1/types.go")
        .replace(
            "\t// +k8s:subfield(leaf)=+k8s:subfield(name)=+k8s:required\n",
            "",
        )
        .replace(
            "\t// +k8s:subfield(leaf)=+k8s:subfield(count)=+k8s:minimum=1\n",
            "",
        );
    let dir37 = module("", &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", &flat)]);
    let got = run_generated(
        dir37.path(),
        Upstream::V1_37,
        "nested-subfield-1-37",
        &cases,
    );
    assert_eq!(
        got,
        lines(&[
            &[],
            &[],
            &[],
            &[
                "in.name | Invalid value: \"n\": forced failure: member | origin=validateFalse | sc=true | -"
            ],
            &["entries[0].a | Required value | origin= | sc=true | -"],
            &[
                "names[0] | Invalid value: \"a\": forced failure: each | origin=validateFalse | sc=true | -"
            ],
        ])
    );
    // 1.38 refuses a NonError validation in an `eachVal`/`eachKey` pass; 1.37 takes it.
    let dir = upstream_module("each-non-error");
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(located(&old, dir.path()), Vec::<String>::new());
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&new, dir.path()),
        [
            "v1/types.go:8:6: error[VGC0110]: T: tag \"k8s:eachVal\": +k8s:eachVal does not support optional/non-error validations",
            "v1/types.go:11:6: error[VGC0110]: T: tag \"k8s:eachKey\": +k8s:eachKey does not support optional/non-error validations",
        ]
    );
    assert_eq!(
        new.diagnostics[0].hint.as_deref(),
        Some(
            "drop the NonError flag, or declare the validation on the element type (upstream 1.38, kubernetes#141945)"
        )
    );
    // A chain ending in list metadata is refused (vgc keys it by the declaration's single-hop `subfield` tags).
    let dir = upstream_module("subfield-chain-list-metadata");
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&new, dir.path()),
        [
            "v1/types.go:18:6: error[VGC0112]: T: a chain of \"k8s:subfield\" tags ending in \"k8s:listType\" is not supported by vgc yet"
        ]
    );
}

/// gengo reads package comments from `doc.go` only, so a generator tag above another file's `package` clause does
/// nothing upstream; vgc says so (a located warning naming doc.go) instead of building as if it were absent
/// without a word (found by trying a one-file API with the tag in `types.go`: 0 types, no diagnostic).
#[test]
fn package_tags_outside_doc_go_are_reported() {
    let m = upstream_module("package-tags-in-types-go");
    let out = vgc::build(&request(m.path(), None));
    let said = |tag: &str, line: usize| {
        format!(
            "v1/types.go:{line}:5: warning[VGC0005]: +{tag} is not read here: validation-gen reads package tags from the package's doc.go only"
        )
    };
    assert_eq!(
        located(&out, m.path()),
        [
            said("k8s:validation-gen", 1),
            said("k8s:validation-gen-nolint", 2)
        ]
    );
    assert_eq!(vgc::exit_code(&out), 0);
    // The same tags in doc.go: read, nothing said.
    let m = upstream_module("package-tags-in-doc-go");
    let out = vgc::build(&request(m.path(), None));
    assert_eq!(located(&out, m.path()), Vec::<String>::new());
}

/// kubernetes#141808: the package tag `+k8s:validation-gen-deep-equal-func` (1.38) and `+k8s:update` through
/// `UpdateValue`. Up to 1.37 the tag is ignored (a warning says so); from 1.38 it is read once per package (a second
/// use is upstream's `more than one usage` error, located), the default (empty, or `validate.SemanticDeepEqual`
/// spelled out) keeps 1.37's ratchet results, and a project function is a located error (vgc cannot call Go). The
/// `update` and ratchet results under the default are run through the generated crate.
#[test]
fn deep_equal_func_and_update_value_from_1_38() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let types = "package v1\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\t// +k8s:update=NoModify\n\t// +k8s:minimum=1\n\tN *int64 `json:\"n,omitempty\"`\n\t// +k8s:required\n\t// +k8s:update=NoModify\n\tName string `json:\"name\"`\n}\n";
    let doc = |tags: &str| {
        format!(
            "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-nolint\n{tags}package v1\n"
        )
    };
    let twice = module(
        "",
        &[
            (
                "v1/doc.go",
                &doc(
                    "// +k8s:validation-gen-deep-equal-func=\n// +k8s:validation-gen-deep-equal-func=k8s.io/apimachinery/pkg/api/validate.SemanticDeepEqual\n",
                ),
            ),
            ("v1/types.go", types),
        ],
    );
    let old = vgc::build(&request(twice.path(), Some(Upstream::V1_37)));
    let ignored = "warning[VGC0005]: \"k8s:validation-gen-deep-equal-func\" does not exist in upstream 1.37; ignored, as upstream 1.37 ignores it";
    assert_eq!(
        located(&old, twice.path()),
        [
            format!("v1/doc.go:3:5: {ignored}"),
            format!("v1/doc.go:4:5: {ignored}"),
        ]
    );
    assert_eq!(vgc::exit_code(&old), 0);
    let new = vgc::build(&request(twice.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&new, twice.path()),
        [
            "v1/doc.go:4:5: error[VGC0005]: Package \"example.com/p/v1\" contains more than one usage of \"k8s:validation-gen-deep-equal-func\""
        ]
    );
    assert_ne!(vgc::exit_code(&new), 0);
    let project = module(
        "",
        &[
            (
                "v1/doc.go",
                &doc("// +k8s:validation-gen-deep-equal-func=CustomDeepEqual\n"),
            ),
            ("v1/types.go", types),
        ],
    );
    // A value that names no Go function gives uncompilable Go upstream: refused, located.
    for bad in ["\"MyEq\"", "my equal", "example.com/eq."] {
        let m = module(
            "",
            &[
                (
                    "v1/doc.go",
                    &doc(&format!("// +k8s:validation-gen-deep-equal-func={bad}\n")),
                ),
                ("v1/types.go", types),
            ],
        );
        let out = vgc::build(&request(m.path(), Some(Upstream::V1_38)));
        assert_eq!(
            diags(&out),
            [format!(
                "VGC0005: \"k8s:validation-gen-deep-equal-func\": {bad:?} is not a Go function name"
            )],
            "{bad}"
        );
    }
    // A project function is the module's `DeepEqual` trait (`project_deep_equality_functions_from_1_38`).
    let out = vgc::build(&request(project.path(), Some(Upstream::V1_38)));
    assert_eq!(located(&out, project.path()), Vec::<String>::new());
    assert_eq!(
        out.plan.modules[0].deep_equal.as_deref(),
        Some("CustomDeepEqual")
    );
    let default = module(
        "",
        &[
            (
                "v1/doc.go",
                &doc(
                    "// +k8s:validation-gen-deep-equal-func=k8s.io/apimachinery/pkg/api/validate.SemanticDeepEqual\n",
                ),
            ),
            ("v1/types.go", types),
        ],
    );
    let out = vgc::build(&request(default.path(), Some(Upstream::V1_38)));
    assert_eq!(located(&out, default.path()), Vec::<String>::new());
    let cases = serde_json::json!([
        {"name": "modified", "kind": "example.com/p/v1.T", "object": {"n": 2, "name": "b"}, "old": {"n": 1, "name": "a"}},
        {"name": "cleared ratchets nothing", "kind": "example.com/p/v1.T", "object": {"name": ""}, "old": {"n": 0, "name": "a"}},
        {"name": "unchanged invalid ratchets", "kind": "example.com/p/v1.T", "object": {"n": 0, "name": "a"}, "old": {"n": 0, "name": "a"}},
        {"name": "create", "kind": "example.com/p/v1.T", "object": {"n": 0, "name": "a"}},
    ]);
    // `UpdateValue` (unset = equal to the zero value) and the `SemanticDeepEqual` ratchet: 1.37's results.
    let want: Vec<Vec<String>> = vec![
        vec![
            "n | Invalid value: null: field cannot be modified once set | origin=update | sc=true | -".into(),
            "name | Invalid value: null: field cannot be modified once set | origin=update | sc=true | -".into(),
        ],
        vec!["name | Required value | origin= | sc=true | -".into()],
        vec![],
        vec!["n | Invalid value: 0: must be greater than or equal to 1 | origin=minimum | sc=false | -".into()],
    ];
    for u in [Upstream::V1_37, Upstream::V1_38] {
        let got = run_generated(
            default.path(),
            u,
            &format!("deep-equal-{}", u.minor()),
            &cases,
        );
        assert_eq!(got, want, "upstream {u}");
    }
}

/// kubernetes#142116: `--validation-extensions-file` — project-defined `+k8s:format` values from YAML files
/// (`formats: [{name, docs, pattern, message}]`, strict, one or more documents, names unique across files). Every
/// load error with upstream's text, located in the file; from 1.38 a project format checks
/// `validate.Matches(…, message, "format=<name>")` (unanchored RE2, value echoed, pattern never printed) on a
/// field, inside `eachVal` and behind `ifEnabled`; before 1.38 the name is an unknown format, with a hint.
#[test]
fn project_formats_from_1_38() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let dir = upstream_module("project-formats");
    let write = |name: &str, text: &str| -> String {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write yaml");
        p.to_string_lossy().into_owned()
    };
    let good = write(
        "formats.yaml",
        "formats:\n- name: example-uri\n  docs: An example URI.\n  pattern: '^[a-z]+://\\S+$'\n  message: must be a URI like scheme://rest\n---\nformats:\n- name: lower-word\n  docs: One lower-case word.\n  pattern: '^[a-z]+$'\n  message: must be one lower-case word\n",
    );
    let with = |u: Upstream, files: Vec<String>| {
        let mut req = request(dir.path(), Some(u));
        req.extension_files = files;
        vgc::build(&req)
    };
    // Before 1.38: the unknown-format error, with a hint naming the project format's profile.
    let old = with(Upstream::V1_37, vec![good.clone()]);
    assert_eq!(
        located(&old, dir.path()),
        [
            "v1/types.go:8:6: error[VGC0109]: T: tag \"k8s:format\": unsupported validation format \"example-uri\"",
            "v1/types.go:11:6: error[VGC0109]: T: tag \"k8s:format\": unsupported validation format \"lower-word\"",
            "v1/types.go:14:6: error[VGC0109]: T: tag \"k8s:format\": unsupported validation format \"lower-word\"",
        ]
    );
    assert_eq!(
        old.diagnostics[0].hint.as_deref(),
        Some(
            "\"example-uri\" is a project format (--validation-extensions-file); project formats need the 1.38 profile (kubernetes#142116)"
        )
    );
    // Without the file, 1.38 does not know the names either.
    let none = with(Upstream::V1_38, Vec::new());
    assert_eq!(
        diags(&none)[0],
        "VGC0109: T: tag \"k8s:format\": unsupported validation format \"example-uri\""
    );
    assert!(
        none.diagnostics[0]
            .hint
            .as_deref()
            .is_some_and(|h| h.starts_with("supported formats: "))
    );
    // Every load error, with upstream's text, located in its file.
    let bad = |name: &str, text: &str| -> Vec<String> {
        let p = write(name, text);
        let out = with(Upstream::V1_38, vec![good.clone(), p]);
        assert_ne!(vgc::exit_code(&out), 0);
        located(&out, dir.path())
            .into_iter()
            .filter(|l| l.contains("Failed loading"))
            .collect()
    };
    let e = |i: usize, n: &str, line: usize, cause: &str, file: &str| {
        format!(
            "{file}:{line}:1: error[VGC0005]: Failed loading validation extensions: extensions file \"{file}\": formats[{i}] ({n:?}): {cause}"
        )
    };
    assert_eq!(
        bad(
            "e1.yaml",
            "formats:\n- docs: d\n  pattern: a\n  message: m\n"
        ),
        [
            "e1.yaml:2:1: error[VGC0005]: Failed loading validation extensions: extensions file \"e1.yaml\": formats[0]: name is required"
        ]
    );
    assert_eq!(
        bad(
            "e2.yaml",
            "formats:\n- name: Bad_Name\n  docs: d\n  pattern: a\n  message: m\n- name: k8s-short-name\n  docs: d\n  pattern: a\n  message: m\n- name: k8s-thing\n  docs: d\n  pattern: a\n  message: m\n"
        ),
        [
            e(
                0,
                "Bad_Name",
                2,
                "name must be lower-case alphanumerics with dashes between words, matching \"^[a-z0-9]+(-[a-z0-9]+)*$\"",
                "e2.yaml"
            ),
            e(
                1,
                "k8s-short-name",
                6,
                "\"k8s-short-name\" is a built-in format and cannot be redefined",
                "e2.yaml"
            ),
            e(
                2,
                "k8s-thing",
                10,
                "name \"k8s-thing\" cannot use the reserved \"k8s-\" prefix",
                "e2.yaml"
            ),
        ]
    );
    assert_eq!(
        bad(
            "e3.yaml",
            "formats:\n- name: a\n  pattern: a\n  message: m\n- name: b\n  docs: d\n  message: m\n- name: c\n  docs: d\n  pattern: a\n- name: d\n  docs: d\n  pattern: '(a'\n  message: m\n"
        ),
        [
            e(0, "a", 2, "docs is required", "e3.yaml"),
            e(1, "b", 5, "pattern is required", "e3.yaml"),
            e(
                2,
                "c",
                8,
                "message is required, so that errors explain the rule instead of printing the pattern",
                "e3.yaml"
            ),
            e(
                3,
                "d",
                11,
                &format!(
                    "pattern \"(a\" does not compile: {}",
                    vgc_runtime::regex::compile_go("(a").expect_err("bad")
                ),
                "e3.yaml"
            ),
        ]
    );
    assert_eq!(
        bad(
            "e4.yaml",
            "formats:\n- name: lower-word\n  docs: d\n  pattern: a\n  message: m\n"
        ),
        [
            "e4.yaml:2:1: error[VGC0005]: Failed loading validation extensions: extensions file \"e4.yaml\": formats[0]: format \"lower-word\" was already defined in \"formats.yaml\""
        ]
    );
    // code-generator v0.38.0-beta.0 `extensions.go`: the bare name `k8s` is reserved too, and entries are counted
    // within their YAML document (`validate` per document).
    assert_eq!(
        bad(
            "e6.yaml",
            "formats:\n- name: fine-one\n  docs: d\n  pattern: a\n  message: m\n---\nformats:\n- name: k8s\n  docs: d\n  pattern: a\n  message: m\n"
        ),
        [e(
            0,
            "k8s",
            8,
            "name \"k8s\" cannot use the reserved \"k8s-\" prefix",
            "e6.yaml"
        )]
    );
    // Strict: an unknown field is a parse error at the parser's position.
    let strict = bad(
        "e5.yaml",
        "formats:\n- name: x\n  docs: d\n  pattern: a\n  message: m\n  extra: 1\n",
    );
    assert_eq!(strict.len(), 1);
    assert!(
        strict[0].starts_with(
            "e5.yaml:6:3: error[VGC0005]: Failed loading validation extensions: parsing extensions file \"e5.yaml\": formats[0]: unknown field `extra`"
        ),
        "{strict:?}"
    );
    let missing = with(
        Upstream::V1_38,
        vec![good.clone(), format!("{}/nope.yaml", dir.path().display())],
    );
    assert!(
        diags(&missing).iter().any(|d| d.starts_with(&format!(
            "VGC0002: Failed loading validation extensions: reading extensions file \"{}/nope.yaml\": ",
            dir.path().display()
        ))),
        "{:?}",
        diags(&missing)
    );
    // 1.38: generated and run.
    let new = with(Upstream::V1_38, vec![good.clone()]);
    assert_eq!(diags(&new), Vec::<String>::new());
    // `vgc docs` lists the project formats after the built-in ones.
    let docs = vgc_docs_gen::GoDocs::read(&new.package_files);
    let site = vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
        plan: &new.plan,
        docs: &docs,
        layout: None,
        module_version: None,
    })
    .expect("site");
    let tags = &site
        .iter()
        .find(|(p, _)| p == "tags.html")
        .expect("tags.html")
        .1;
    assert!(
        tags.contains("<tr id=\"format-lower-word\"><td data-label=\"format\"><code>lower-word</code></td><td data-label=\"accepts\">One lower-case word. (project format: must match <code>^[a-z]+$</code>, else “must be one lower-case word”)</td></tr>"),
        "{}",
        tags.chars()
            .skip(tags.find("<table class=\"stack formats\">").unwrap_or(0))
            .take(4000)
            .collect::<String>()
    );
    let cases = serde_json::json!([
        {"name": "valid", "kind": "example.com/p/v1.T",
         "object": {"uri": "https://x", "words": ["ab"], "gated": "Bad"}, "options": {"G": false}},
        {"name": "field", "kind": "example.com/p/v1.T", "object": {"uri": "not a uri"}},
        {"name": "pattern anchors", "kind": "example.com/p/v1.T", "object": {"uri": "x://a b"}},
        {"name": "eachVal", "kind": "example.com/p/v1.T", "object": {"words": ["ok", "No", "also-no"]}},
        {"name": "ifEnabled on", "kind": "example.com/p/v1.T", "object": {"gated": "Bad"}, "options": {"G": true}},
        {"name": "ifEnabled off", "kind": "example.com/p/v1.T", "object": {"gated": "Bad"}, "options": {"G": false}},
    ]);
    let got = run_generated_with(
        dir.path(),
        Upstream::V1_38,
        "project-formats",
        &cases,
        &[good],
        None,
    );
    assert_eq!(
        got,
        lines(&[
            &[],
            &[
                "uri | Invalid value: \"not a uri\": must be a URI like scheme://rest | origin=format=example-uri | sc=false | -"
            ],
            &[
                "uri | Invalid value: \"x://a b\": must be a URI like scheme://rest | origin=format=example-uri | sc=false | -"
            ],
            &[
                "words[1] | Invalid value: \"No\": must be one lower-case word | origin=format=lower-word | sc=false | -",
                "words[2] | Invalid value: \"also-no\": must be one lower-case word | origin=format=lower-word | sc=false | -",
            ],
            &[
                "gated | Invalid value: \"Bad\": must be one lower-case word | origin=format=lower-word | sc=false | -"
            ],
            &[],
        ])
    );
}

/// `+k8s:minimum`/`+k8s:maximum` on `time.Duration` and `+k8s:minItems`/`+k8s:maxItems` on `[]byte`: upstream
/// goes by the native type (gengo `NativeType`: `int64`, a slice), so it accepts them in every profile. Proven by
/// running code-generator v0.37.2's validation-gen (with `--readonly-pkg time`) on this package and its
/// `Validate_T` on these objects against apimachinery v0.37.2 and v0.38.0-alpha.2: the generated Go calls
/// `validate.Minimum`/`Maximum` (bound `1000000000`) and `validate.MinItems`/`MaxItems` (short-circuit), and the
/// errors below are upstream's, line for line. 1.37 prints the bound with `%d` (nanoseconds), 1.38 with `%v`,
/// which calls `time.Duration`'s `String` (`1s`, `1m0s`, `1ns`) — but not for `type Dur time.Duration`, a defined
/// type without that method (`5000`). The value itself prints as an integer in both. `metav1.Duration` (a struct)
/// stays refused, as upstream refuses it (`can only be used on integer types`).
#[test]
fn duration_bounds_and_byte_slice_items() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let dir = upstream_module("durations");
    let cases = serde_json::json!([
        {"name": "d below", "kind": "example.com/p/v1.T", "object": {"d": 500_000_000}},
        {"name": "d above", "kind": "example.com/p/v1.T", "object": {"d": 61_000_000_000_i64}},
        {"name": "d ok", "kind": "example.com/p/v1.T", "object": {"d": 1_000_000_000}},
        {"name": "dp zero", "kind": "example.com/p/v1.T", "object": {"dp": 0}},
        {"name": "dur above", "kind": "example.com/p/v1.T", "object": {"dur": 5001}},
        {"name": "bytes", "kind": "example.com/p/v1.T", "object": {"b": "YWJjZA==", "b2": "YQ==", "mb": "eHl6"}},
        {"name": "bytes ok", "kind": "example.com/p/v1.T", "object": {"b": "YWJj", "b2": "YWI=", "mb": "eHk="}},
    ]);
    let bytes = [
        "b | Too many: 4: must have at most 3 items | origin=maxItems | sc=true | -",
        "b2 | Too few: 1: must have at least 2 items | origin=minItems | sc=false | -",
        "mb | Too many: 3: must have at most 2 items | origin=maxItems | sc=true | -",
    ];
    let want = |d_min: &str, d_max: &str, dp_min: &str| -> Vec<Vec<String>> {
        let lines = |v: &[&str]| v.iter().map(|l| (*l).to_string()).collect::<Vec<_>>();
        vec![
            lines(&[&format!(
                "d | Invalid value: 500000000: must be greater than or equal to {d_min} | origin=minimum | sc=false | -"
            )]),
            lines(&[&format!(
                "d | Invalid value: 61000000000: must be less than or equal to {d_max} | origin=maximum | sc=false | -"
            )]),
            vec![],
            lines(&[&format!(
                "dp | Invalid value: 0: must be greater than or equal to {dp_min} | origin=minimum | sc=false | -"
            )]),
            lines(&[
                "dur | Invalid value: 5001: must be less than or equal to 5000 | origin=maximum | sc=false | -",
            ]),
            lines(&bytes),
            vec![],
        ]
    };
    // From 1.38 (code-generator v0.38.0-beta.0 `parseNumericLimit`) a `time.Duration` bound is a Go duration
    // string, and an integer payload is refused; `type Dur time.Duration` keeps integer payloads.
    let dir_1_38 = module(
        "",
        &[
            ("v1/doc.go", DOC_NOLINT),
            (
                "v1/types.go",
                &upstream_file("durations", "v1/types.go")
                    .replace("minimum=1000000000", "minimum=\"1s\"")
                    .replace("maximum=60000000000", "maximum=\"1m\"")
                    .replace("minimum=1\n\tDP", "minimum=\"1ns\"\n\tDP"),
            ),
        ],
    );
    assert_eq!(
        diags(&vgc::build(&request(dir.path(), Some(Upstream::V1_38)))),
        [
            "VGC0108: T: tag \"k8s:minimum\": type mismatch: field is a time.Duration, but payload is of type int",
            "VGC0108: T: tag \"k8s:maximum\": type mismatch: field is a time.Duration, but payload is of type int",
            "VGC0108: T: tag \"k8s:minimum\": type mismatch: field is a time.Duration, but payload is of type int",
        ]
    );
    for (u, dir, name, expected) in [
        (
            Upstream::V1_37,
            &dir,
            "durations-1-37",
            want("1000000000", "60000000000", "1"),
        ),
        (
            Upstream::V1_38,
            &dir_1_38,
            "durations-1-38",
            want("1s", "1m0s", "1ns"),
        ),
    ] {
        let out = vgc::build(&request(dir.path(), Some(u)));
        assert_eq!(diags(&out), Vec::<String>::new(), "{u}");
        let files = generate_kept(&out.plan, name);
        let module = files
            .iter()
            .find(|f| f.path.ends_with("v1.rs") || f.path.ends_with("v1/mod.rs"))
            .unwrap_or_else(|| panic!("{:?}", files.iter().map(|f| &f.path).collect::<Vec<_>>()));
        insta::assert_snapshot!(name, module.contents);
        assert_eq!(run_generated(dir.path(), u, name, &cases), expected, "{u}");
    }
    // metav1.Duration is a struct (a JSON string): refused in every profile, as upstream refuses it.
    let dir = upstream_module("metav1-duration");
    // Up to 1.37 its `optional` is refused too (a non-pointer struct; upstream v0.37.2 reports it once `minimum` is
    // gone); from 1.38 it is documentation.
    assert_eq!(
        diags(&vgc::build(&request(dir.path(), Some(Upstream::V1_37)))),
        [
            "VGC0110: T: tag \"k8s:optional\": non-pointer structs cannot use the \"k8s:optional\" tag",
            "VGC0110: T: tag \"k8s:minimum\": can only be used on integer types"
        ]
    );
    assert_eq!(
        diags(&vgc::build(&request(dir.path(), Some(Upstream::V1_38)))),
        [
            "VGC0110: T: tag \"k8s:minimum\": can only be used on integer and resource.Quantity types"
        ]
    );
}

/// A package exercising every place a tag is read: package tags (`validation-gen`, `-scheme-registry`), type tags
/// and subresource tags, field tags, chains (`eachVal`, `item`, `subfield`, `alpha`, `ifEnabled`), unions, enums on
/// types and constants. Written with the placeholder `+P:`; [`prefixed`] spells it with a prefix.
const PREFIX_DOC: &str = "// +P:validation-gen=TypesWithField=TypeMeta\n// +P:validation-gen-scheme-registry=nil\n// +groupName=example.com\npackage v1\n";
const PREFIX_TYPES: &str = r#"package v1

type TypeMeta struct{}

// +P:enum
type Mode string

const (
	// +P:enumExclude
	ModeOld Mode = "Old"
	ModeNew Mode = "New"
)

type Item struct {
	// +P:required
	Key string `json:"key"`
	// +P:optional
	// +P:maxLength=5
	Value string `json:"value,omitempty"`
}

type Sub struct {
	// +P:optional
	// +P:minimum=1
	Count int `json:"count,omitempty"`
}

// +P:supportsSubresource="/status"
// +genclient
type T struct {
	TypeMeta `json:",inline"`
	// +P:optional
	// +P:maxItems=3
	// +P:eachVal=+P:minimum=1
	Numbers []int `json:"numbers,omitempty"`
	// +P:optional
	// +P:listType=map
	// +P:listMapKey=key
	// +P:item(key: "a")=+P:immutable
	Items []Item `json:"items,omitempty"`
	// +P:required
	// +P:format=k8s-short-name
	Name *string `json:"name"`
	// +P:optional
	// +P:subfield(count)=+P:maximum=9
	Sub *Sub `json:"sub,omitempty"`
	// +P:optional
	// +P:alpha(since: "1.38")=+P:maxLength=4
	Staged *string `json:"staged,omitempty"`
	// +P:optional
	// +P:ifEnabled("G")=+P:maxLength=5
	Gated *string `json:"gated,omitempty"`
	// +P:optional
	Mode *Mode `json:"mode,omitempty"`
	// +P:optional
	// +P:unionMember
	A *string `json:"a,omitempty"`
	// +P:optional
	// +P:unionMember
	// +default="b"
	B *string `json:"b,omitempty"`
}
"#;

/// [`PREFIX_DOC`] and [`PREFIX_TYPES`] with every `+P:` written `+<prefix>`.
fn prefixed(prefix: &str) -> [(&'static str, String); 2] {
    let p = format!("+{prefix}");
    [
        ("v1/doc.go", PREFIX_DOC.replace("+P:", &p)),
        ("v1/types.go", PREFIX_TYPES.replace("+P:", &p)),
    ]
}

fn prefixed_module(prefix: &str, extra: &[(&str, &str)]) -> tempfile::TempDir {
    let files = prefixed(prefix);
    let mut all: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    all.extend_from_slice(extra);
    module("", &all)
}

fn with_prefix(dir: &Path, u: Upstream, prefix: &str) -> vgc::BuildOutcome {
    let mut req = request(dir, Some(u));
    req.tag_prefix = vgc_ir::TagPrefix::parse(prefix).expect("valid prefix");
    vgc::build(&req)
}

/// kubernetes#141866: `--tag-prefix` (1.38). A package written with `+acme:` tags read under `acme:` (and with
/// `+example.com:v1:` tags under that prefix, and unprefixed tags under the empty prefix) generates byte-identical
/// code to the same package written with `+k8s:` under the default prefix; every tag of it is lowered.
#[test]
fn tag_prefix_reads_every_tag_with_the_prefix() {
    let k8s_dir = prefixed_module("k8s:", &[]);
    let k8s = with_prefix(k8s_dir.path(), Upstream::V1_38, "k8s:");
    assert_eq!(diags(&k8s), Vec::<String>::new());
    assert!(k8s.stats.lowered >= 20, "{:?}", k8s.stats);
    let expected = generate_kept(&k8s.plan, "tag-prefix");
    let kinds = format!("{:?}", k8s.plan.modules);
    for prefix in ["acme:", "example.com:v1:", ""] {
        let dir = prefixed_module(prefix, &[]);
        let out = with_prefix(dir.path(), Upstream::V1_38, prefix);
        assert_eq!(diags(&out), Vec::<String>::new(), "prefix {prefix:?}");
        assert_eq!(out.stats, k8s.stats, "prefix {prefix:?}");
        assert_eq!(
            format!("{:?}", out.plan.modules),
            kinds,
            "prefix {prefix:?}"
        );
        let files = generate_kept(&out.plan, "tag-prefix");
        assert_eq!(files.len(), expected.len());
        for (a, b) in files.iter().zip(&expected) {
            assert_eq!(
                (&a.path, &a.contents),
                (&b.path, &b.contents),
                "prefix {prefix:?}"
            );
        }
    }
    // The `+acme:` package under the default prefix: no validation tag is read, none is reported (upstream reads
    // nothing either), and so no root is selected.
    let acme = prefixed_module("acme:", &[]);
    let out = with_prefix(acme.path(), Upstream::V1_38, "k8s:");
    assert_eq!(diags(&out), Vec::<String>::new());
    assert_eq!(out.stats.tags, 0);
}

/// kubernetes#141866: what is not read under a prefix is said, and messages name tags with the prefix.
#[test]
fn tag_prefix_diagnostics_name_tags_with_the_prefix() {
    let dir = upstream_module("tag-prefix-diagnostics");
    let out = with_prefix(dir.path(), Upstream::V1_38, "acme:");
    assert_eq!(
        located(&out, dir.path()),
        [
            "v1/types.go:8:6: error[VGC0102]: unknown tag \"acme:nosuch\"",
            "v1/types.go:9:6: error[VGC0102]: unknown tag \"acme:maxItem\"",
            "v1/types.go:10:6: warning[VGC0102]: tag \"k8s:required\" is not read: the tag prefix is \"acme:\"",
            "v1/types.go:12:20: error[VGC0102]: unknown tag \"k8s:immutable\"",
            "v1/types.go:13:6: error[VGC0102]: unknown tag \"acme:deepcopy-gen\"",
            "v1/types.go:16:2: error[VGC0303]: field Name: field with validation must have +acme:optional, +acme:required or +acme:forbidden",
            "v1/types.go:17:6: error[VGC0102]: unknown tag \"acme:shadow\": the proposal was replaced by \"acme:alpha\" before any release (KEP-5073)",
        ]
    );
    let hints: Vec<Option<&str>> = out.diagnostics.iter().map(|d| d.hint.as_deref()).collect();
    assert_eq!(
        hints[1],
        Some(
            "did you mean `acme:maxItems`? (upstream validation-gen silently ignores unknown tags)"
        )
    );
    assert_eq!(
        hints[2],
        Some(
            "validation tags are written `+acme:required` under this prefix (`--tag-prefix`, `[upstream] tag-prefix` in vgc.toml); upstream validation-gen ignores this line"
        )
    );
    assert_eq!(
        hints[3],
        Some(
            "did you mean `acme:immutable`? (upstream validation-gen fails on an unknown tag inside another tag's payload)"
        )
    );
    // The retired-tag fix rewrites the written name, with the prefix, over exactly its bytes.
    let shadow = &out.diagnostics[6];
    let fix = shadow.fix.as_ref().expect("fix");
    assert_eq!(fix.replacement, "acme:alpha");
    let text = std::fs::read_to_string(dir.path().join("v1/types.go")).expect("read");
    assert_eq!(&text[fix.span.clone()], "acme:shadow");
    assert_eq!(&text[shadow.span.clone()], "acme:shadow");

    // Before 1.38 the generators have no --tag-prefix: a non-default prefix is refused (the default is fine).
    let old = with_prefix(dir.path(), Upstream::V1_37, "acme:");
    assert_eq!(
        diags(&old)[0],
        "VGC0005: the tag prefix \"acme:\" needs the upstream 1.38 profile (upstream 1.37: test): validation-gen has no --tag-prefix before 1.38 (kubernetes#141866)"
    );
    let k8s_dir = prefixed_module("k8s:", &[]);
    assert_eq!(
        diags(&with_prefix(k8s_dir.path(), Upstream::V1_37, "k8s:")),
        Vec::<String>::new()
    );
}

/// kubernetes#141866 with the empty prefix: every `+name` line is a candidate, and only validation-gen's names
/// are read (`+listType=atomic` and `+optional` become validation tags, as upstream's registry names them then);
/// other tools' markers (`+genclient`, `+groupName`), `+default` and `+k8s:` lines are not. Pinned choice
/// (inferred, docs/deviations.md).
#[test]
fn tag_prefix_empty_reads_only_validation_gen_names() {
    let dir = upstream_module("tag-prefix-empty");
    let out = with_prefix(dir.path(), Upstream::V1_38, "");
    assert_eq!(
        located(&out, dir.path()),
        [
            "v1/types.go:11:6: warning[VGC0102]: tag \"k8s:maxItems\" is not read: the tag prefix is \"\"",
            "v1/types.go:15:2: error[VGC0303]: field Name: field with validation must have +optional, +required or +forbidden",
        ]
    );
    let plan = format!("{:?}", out.plan.modules);
    assert!(plan.contains("MaxItems(3)"), "{plan}");
    assert!(
        !plan.contains("MaxItems(2)") && !plan.contains("MaxItems(4)"),
        "{plan}"
    );
    assert!(plan.contains("MaxLength(3)"), "{plan}");
}

/// The prefix decides the IR, so it is part of every cache key: a build with caches after the prefix changed
/// writes what a `--no-cache` build writes, both ways.
#[test]
fn tag_prefix_change_never_reuses_cached_results() {
    // Both spellings in one package: under `k8s:` the `+k8s:` half is read, under `acme:` the `+acme:` half.
    let dir = upstream_module("tag-prefix-cache");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
    let build = |prefix: &str, out: &Path, no_cache: bool| {
        let mut req = request(dir.path(), Some(Upstream::V1_38));
        req.check_only = false;
        req.out = Some(out.to_path_buf());
        req.no_cache = no_cache;
        req.runtime = vgc_codegen::RuntimeDep::Path(runtime.to_string_lossy().into_owned());
        req.tag_prefix = vgc_ir::TagPrefix::parse(prefix).expect("prefix");
        let outcome = vgc::build(&req);
        assert_eq!(vgc::exit_code(&outcome), 0, "{:?}", diags(&outcome));
        let module = std::fs::read_to_string(out.join("src/v1.rs"))
            .or_else(|_| std::fs::read_to_string(out.join("src/p/v1.rs")))
            .unwrap_or_else(|_| {
                let mut all = String::new();
                for e in walk(&out.join("src")) {
                    all.push_str(&std::fs::read_to_string(e).expect("read"));
                }
                all
            });
        (outcome, module)
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let cached = tmp.path().join("cached");
    let (_, k8s) = build("k8s:", &cached, false);
    assert!(k8s.contains("3i64") && !k8s.contains("7i64"), "{k8s}");
    let (second, acme) = build("acme:", &cached, false);
    assert!(!second.up_to_date);
    let (_, fresh) = build("acme:", &tmp.path().join("fresh-acme"), true);
    assert_eq!(acme, fresh);
    assert!(acme.contains("7i64") && !acme.contains("3i64"), "{acme}");
    // And back: the IR cache now holds both prefixes' entries; each is used only under its own prefix.
    let (_, back) = build("k8s:", &cached, false);
    let (_, fresh_k8s) = build("k8s:", &tmp.path().join("fresh-k8s"), true);
    assert_eq!(back, fresh_k8s);
    assert_eq!(back, k8s);
}

/// Every `.rs` file under `dir`, sorted.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// kubernetes#141866: the prefix applies to every package read, including those outside the build (upstream has
/// one prefix per run): the `+k8s:` tags of a dependency are not read under `acme:`, and the build says so once.
#[test]
fn tag_prefix_applies_to_packages_outside_the_build() {
    let dir = upstream_module("tag-prefix-outside-the-build");
    let v1 = dir.path().join("v1");
    let out = with_prefix(&v1, Upstream::V1_38, "acme:");
    assert_eq!(diags(&out), Vec::<String>::new());
    assert_eq!(
        out.notes,
        [
            "2 `+k8s:` validation tag(s) of packages outside the build are not read under the tag prefix \"acme:\", as upstream validation-gen reads none of them: example.com/p/common"
        ]
    );
    let plan = format!("{:?}", out.plan.modules);
    assert!(!plan.contains("MaxLength"), "{plan}");
    // Written with the prefix, the dependency's tags are read.
    std::fs::write(
        dir.path().join("common/types.go"),
        upstream_file("tag-prefix-outside-the-build", "common/types.go").replace("+k8s:", "+acme:"),
    )
    .expect("write");
    let out = with_prefix(&v1, Upstream::V1_38, "acme:");
    assert_eq!(out.notes, Vec::<String>::new());
    assert!(format!("{:?}", out.plan.modules).contains("MaxLength(3)"));
}

/// k8s.io/api v0.38.0-beta.0's new rules (code-generator / apimachinery v0.38.0-beta.0): `+k8s:eq` (`validate.EQ`:
/// `Unsupported value`, the expected value quoted as the one supported value, no origin) on strings, integers,
/// booleans and through `eachVal`; `+k8s:minimum`/`+k8s:maximum` on `resource.Quantity` with a quantity payload
/// (`validate.MinimumQuantity`/`MaximumQuantity`: compared as numbers, value and bound printed as Go's
/// `Quantity.String()`), also per map value as `resource/v1` uses it; and `+k8s:format=k8s-condition-reason`. Run
/// through the generated Rust and the interpreter, line for line; under 1.37 each is refused as upstream 1.37
/// refuses it, and a quantity payload `ParseQuantity` refuses is located.
#[test]
fn eq_quantity_bounds_and_condition_reason_from_1_38() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (_, version) =
        vgc_tests::harness::download_module("k8s.io/apimachinery@v0.37.2", tmp.path());
    let types = r#"package v1

import "k8s.io/apimachinery/pkg/api/resource"

type TypeMeta struct{}

type Kind string

type T struct {
	TypeMeta `json:",inline"`
	// +k8s:optional
	// +k8s:eq="Always"
	Policy string `json:"policy,omitempty"`
	// +k8s:optional
	// +k8s:eq=3
	Count *int32 `json:"count,omitempty"`
	// +k8s:optional
	// +k8s:eq=true
	On *bool `json:"on,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:eq="x"
	Kinds []Kind `json:"kinds,omitempty"`
	// +k8s:optional
	// +k8s:minimum="1Gi"
	// +k8s:maximum="2Gi"
	Size *resource.Quantity `json:"size,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:minimum=0
	Requests map[string]resource.Quantity `json:"requests,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-condition-reason
	Reason string `json:"reason,omitempty"`
}
"#;
    let gomod = format!("\nrequire k8s.io/apimachinery {version}\n");
    let dir = module(&gomod, &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", types)]);
    let kind = "example.com/p/v1.T";
    let cases = serde_json::json!([
        {"name": "valid", "kind": kind, "object": {"policy": "Always", "count": 3, "on": true, "kinds": ["x"], "size": "1536Mi", "requests": {"a": "0", "b": "1m"}, "reason": "ReasonA:ReasonB"}},
        {"name": "eq", "kind": kind, "object": {"policy": "Never", "count": 4, "on": false, "kinds": ["x", "y"]}},
        {"name": "quantities", "kind": kind, "object": {"size": "1023Mi", "requests": {"a": "-1", "b": "-0.5"}}},
        {"name": "above", "kind": kind, "object": {"size": "2049Mi"}},
        {"name": "reason", "kind": kind, "object": {"reason": "1a"}},
    ]);
    let reason = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
    let want: Vec<Vec<String>> = vec![
        vec![],
        vec![
            "policy | Unsupported value: \"Never\": supported values: \"Always\" | origin= | sc=false | -".into(),
            "count | Unsupported value: 4: supported values: \"3\" | origin= | sc=false | -".into(),
            "on | Unsupported value: false: supported values: \"true\" | origin= | sc=false | -".into(),
            "kinds[1] | Unsupported value: \"y\": supported values: \"x\" | origin= | sc=false | -".into(),
        ],
        vec![
            "size | Invalid value: \"1023Mi\": must be greater than or equal to 1Gi | origin=minimum | sc=false | -".into(),
            "requests[a] | Invalid value: \"-1\": must be greater than or equal to 0 | origin=minimum | sc=false | -".into(),
            "requests[b] | Invalid value: \"-500m\": must be greater than or equal to 0 | origin=minimum | sc=false | -".into(),
        ],
        vec!["size | Invalid value: \"2049Mi\": must be less than or equal to 2Gi | origin=maximum | sc=false | -".into()],
        vec![format!("reason | Invalid value: \"1a\": {reason} | origin=format=k8s-condition-reason | sc=false | -")],
    ];
    assert_eq!(
        run_generated(dir.path(), Upstream::V1_38, "beta-0-rules", &cases),
        want
    );
    // The interpreter, on the same plan.
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(located(&out, dir.path()), Vec::<String>::new());
    let interp = vgc_validate::Interpreter::new(&out.plan);
    let got: Vec<Vec<String>> = cases
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let r = vgc_tests::interpreter::run_case(&interp, c, true);
            r["got"]
                .as_array()
                .unwrap_or_else(|| panic!("{r}"))
                .iter()
                .map(|l| l.as_str().expect("line").to_string())
                .collect()
        })
        .collect();
    assert_eq!(got, want);
    // 1.37: `eq` is an unknown tag, `minimum` is for integers only, the format is unknown.
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        located(&old, dir.path()),
        [
            "v1/types.go:12:6: error[VGC0102]: unknown tag \"k8s:eq\" in upstream 1.37",
            "v1/types.go:15:6: error[VGC0102]: unknown tag \"k8s:eq\" in upstream 1.37",
            "v1/types.go:18:6: error[VGC0102]: unknown tag \"k8s:eq\" in upstream 1.37",
            "v1/types.go:21:19: error[VGC0102]: unknown tag \"k8s:eq\" in upstream 1.37",
            "v1/types.go:24:6: error[VGC0110]: T: tag \"k8s:minimum\": can only be used on integer types",
            "v1/types.go:25:6: error[VGC0110]: T: tag \"k8s:maximum\": can only be used on integer types",
            "v1/types.go:28:6: error[VGC0110]: T: tag \"k8s:minimum\": can only be used on integer types",
            "v1/types.go:31:6: error[VGC0109]: T: tag \"k8s:format\": unsupported validation format \"k8s-condition-reason\"",
        ]
    );
    // A payload `resource.ParseQuantity` refuses.
    let bad = module(
        &gomod,
        &[
            ("v1/doc.go", DOC_NOLINT),
            (
                "v1/types.go",
                "package v1\n\nimport \"k8s.io/apimachinery/pkg/api/resource\"\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\t// +k8s:minimum=\"1 Gi\"\n\tSize *resource.Quantity `json:\"size,omitempty\"`\n}\n",
            ),
        ],
    );
    let out = vgc::build(&request(bad.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&out, bad.path()),
        [
            "v1/types.go:10:6: error[VGC0109]: T: tag \"k8s:minimum\": failed to parse tag payload: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        ]
    );
}

/// code-generator v0.38.0-beta.0 `validators/required.go`: `+k8s:required="msg"` / `+k8s:forbidden="msg"` join
/// the message into the error's detail (apimachinery v0.38.0-beta.0 `Required*`/`Forbidden*` take `msgs
/// ...string`), on every shape (value, pointer, slice, map) and under `ifEnabled`/`ifDisabled`; on a non-pointer
/// struct `required="msg"` is documentation like the bare tag. Before 1.38 the payload is refused with a message
/// that says what it wants and which profile accepts it. Also `each.go`: errors of `immutable`, `update` and
/// `subfield(x)=required` under `eachVal` are not marked short-circuit from 1.38 (`sc=false`; 1.37: `true`).
#[test]
fn requiredness_messages_and_each_flags_from_1_38() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let dir = upstream_module("requiredness-messages");
    let old = vgc::build(&request(dir.path(), Some(Upstream::V1_37)));
    assert_eq!(
        located(&old, dir.path())[0],
        "v1/types.go:17:19: error[VGC0108]: tag \"k8s:required\": tag value has wrong type: got string, want no value (a message payload needs upstream 1.38; upstream 1.37 takes none)"
    );
    assert_eq!(
        old.diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "VGC0108")
            .count(),
        8,
        "{:?}",
        diags(&old)
    );
    assert_eq!(
        old.diagnostics[0].hint.as_deref(),
        Some(
            "a message is joined into the error's detail from upstream 1.38 on (`Required value: <msg>`); select that profile (`--upstream 1.38`, `[upstream] version` in vgc.toml) or write `+k8s:required` alone"
        )
    );
    let new = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(diags(&new), Vec::<String>::new());
    let cases = serde_json::json!([
        {"name": "all unset", "kind": "example.com/p/v1.T", "object": {}, "options": {"Gate": false}},
        {"name": "forbidden set", "kind": "example.com/p/v1.T", "object": {"s": "x", "p": "x", "l": ["x"], "m": {"k": "v"}, "e": "x", "f": "x", "g": "x"},
         "options": {"Gate": true}},
        {"name": "each flags", "kind": "example.com/p/v1.U", "object": {"im": ["b"], "up": {"k": "new"}, "sub": [{}]},
         "old": {"im": ["a"], "up": {"k": "old"}, "sub": [{}, {}]}},
    ]);
    let got = run_generated(dir.path(), Upstream::V1_38, "requiredness-messages", &cases);
    assert_eq!(
        got,
        lines(&[
            &[
                "s | Required value: custom string msg | origin= | sc=true | -",
                "p | Required value: custom pointer msg | origin= | sc=true | -",
                "l | Required value: custom slice msg | origin= | sc=true | -",
                "m | Required value: custom map msg | origin= | sc=true | -",
                "e | Required value | origin= | sc=true | -",
            ],
            &[
                "f | Forbidden: custom forbidden msg | origin= | sc=true | -",
                "g | Forbidden: custom enabled msg | origin= | sc=true | -",
            ],
            &[
                "im[0] | Invalid value: null: field is immutable | origin=immutable | sc=false | -",
                "up[k] | Invalid value: null: field cannot be modified once set | origin=update | sc=false | -",
                "sub[0].name | Required value | origin= | sc=false | -",
            ],
        ])
    );
    // 1.37: the same pass marks each error short-circuit.
    let types = upstream_file("requiredness-messages", "v1/types.go");
    let u_only = types
        .split("type T struct")
        .next()
        .expect("head")
        .to_string()
        + &types[types.find("type U struct").expect("U")..];
    let dir37 = module("", &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", &u_only)]);
    let got = run_generated(
        dir37.path(),
        Upstream::V1_37,
        "each-flags-1-37",
        &serde_json::json!([cases[2]]),
    );
    assert_eq!(
        got,
        lines(&[&[
            "im[0] | Invalid value: null: field is immutable | origin=immutable | sc=true | -",
            "up[k] | Invalid value: null: field cannot be modified once set | origin=update | sc=true | -",
            "sub[0].name | Required value | origin= | sc=true | -",
        ]])
    );
}

/// A kubebuilder-style marker under validation-gen's prefix (`+k8s:validation:Required`, in upstream's own
/// `output_tests/tags/format/k8s-uuid`) is no validation-gen tag; upstream ignores it. vgc warns (VGC0128, with the
/// validation-gen tag it probably meant when one fits the place), builds, and makes it an error only when
/// `[build.severity] VGC0128 = "error"` asks.
#[test]
fn marker_style_tags_are_warnings() {
    let dir = upstream_module("marker-style-tags");
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&out, dir.path()),
        [
            "v1/types.go:5:5: warning[VGC0128]: unknown tag \"k8s:validation:Required\"",
            "v1/types.go:8:6: warning[VGC0128]: unknown tag \"k8s:validation:Required\"",
        ]
    );
    assert_eq!(vgc::exit_code(&out), 0);
    assert_eq!(
        out.diagnostics[1].hint.as_deref(),
        Some(
            "a kubebuilder-style marker, not a validation-gen tag: upstream validation-gen ignores it and vgc generates nothing for it; for the validation-gen rule write `+k8s:required`"
        )
    );
    assert_eq!(
        out.diagnostics[0].hint.as_deref(),
        Some(
            "a kubebuilder-style marker, not a validation-gen tag: upstream validation-gen ignores it and vgc generates nothing for it"
        )
    );
    std::fs::write(
        dir.path().join("vgc.toml"),
        "[build.severity]\nVGC0128 = \"error\"\n",
    )
    .expect("vgc.toml");
    let strict = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&strict, dir.path())[0],
        "v1/types.go:5:5: error[VGC0128]: unknown tag \"k8s:validation:Required\""
    );
    assert_eq!(vgc::exit_code(&strict), 1);
    // Upstream never parses a marker line (its registry does not know the name), so a payload in kubebuilder's
    // grammar is the same warning, not a syntax error; a hint names a validation-gen tag only for an exact name.
    let types = "package v1\n\ntype TypeMeta struct{}\n\n// +k8s:foo:bar\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:validation:Enum=a;b\n\t// +k8s:validation:MinLength=3\n\t// +k8s:optional\n\tA *string `json:\"a,omitempty\"`\n}\n";
    let dir = module("", &[("v1/doc.go", DOC_NOLINT), ("v1/types.go", types)]);
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(
        located(&out, dir.path()),
        [
            "v1/types.go:5:5: warning[VGC0128]: unknown tag \"k8s:foo:bar\"",
            "v1/types.go:8:6: warning[VGC0128]: unknown tag \"k8s:validation:Enum\"",
            "v1/types.go:9:6: warning[VGC0128]: unknown tag \"k8s:validation:MinLength\"",
        ]
    );
    let hints: Vec<bool> = out
        .diagnostics
        .iter()
        .map(|d| {
            d.hint
                .as_deref()
                .is_some_and(|h| h.contains("write `+k8s:"))
        })
        .collect();
    assert_eq!(hints, [false, false, true]);
}

/// kubernetes#141808: a project deep-equality function (`+k8s:validation-gen-deep-equal-func=CustomDeepEqual`) is
/// the generated module's `DeepEqual` trait, implemented in `src/custom.rs`, and called exactly where upstream 1.38
/// calls the Go function: on values that are not directly comparable (`Inner` holds a pointer) — the field ratchet,
/// `listType=set` matching (`eachVal` ratcheting) and uniqueness — and never on comparable ones (`N`, a pointer to an
/// integer, ratchets with `==`). The test's function, like upstream's `output_tests/ratcheting/deep_equal_func`,
/// deliberately disagrees with semantic equality (only whether `p` is set), so each site shows that it was called.
/// `--custom-stub` writes an implementation with vgc's default equality; the interpreter, which cannot call it,
/// reports the comparison as a hand-written function it could not run.
#[test]
fn project_deep_equality_functions_from_1_38() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_CARGO) {
        return;
    }
    let dir = upstream_module("project-deep-equal");
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(located(&out, dir.path()), Vec::<String>::new());
    // The trait, its stub and the call sites.
    let mut req = request(dir.path(), Some(Upstream::V1_38));
    let stub_out = tempfile::tempdir().expect("tempdir");
    req.out = Some(stub_out.path().to_path_buf());
    req.check_only = false;
    req.no_cache = true;
    req.custom_stub = true;
    let built = vgc::build(&req);
    assert_eq!(vgc::exit_code(&built), 0, "{:?}", diags(&built));
    let module_rs = std::fs::read_to_string(stub_out.path().join("src/v1.rs")).expect("v1.rs");
    assert!(module_rs.contains("pub trait DeepEqual {"), "{module_rs}");
    assert!(
        module_rs.contains("upstream `CustomDeepEqual`"),
        "the trait names the Go function"
    );
    assert_eq!(
        module_rs
            .matches("<crate::custom::Custom as DeepEqual>::deep_equal")
            .count(),
        5,
        "the ratchets of `i` and `s`, the set match of eachVal, the set uniqueness and the element iteration's match (not `n`'s ratchet, `==`): {module_rs}"
    );
    let stub =
        std::fs::read_to_string(stub_out.path().join("src/custom.rs")).expect("custom.rs stub");
    assert!(
        stub.contains("impl crate::v1::DeepEqual for Custom"),
        "{stub}"
    );
    let custom = r#"//! The test's project deep-equality function.
/// The type the generated code calls.
pub struct Custom;

/// Like upstream's `CustomDeepEqual`: an `Inner` compares only whether `p` is set.
impl crate::v1::DeepEqual for Custom {
    fn deep_equal<T: std::any::Any + PartialEq>(a: Option<&T>, b: Option<&T>) -> bool {
        fn inner<T: std::any::Any>(v: Option<&T>) -> Option<&crate::v1::Inner> {
            v.and_then(|v| (v as &dyn std::any::Any).downcast_ref())
        }
        match (inner(a), inner(b)) {
            (Some(x), Some(y)) => x.p.is_some() == y.p.is_some(),
            _ => a == b,
        }
    }
}
"#;
    let cases = serde_json::json!([
        {"name": "ratchet through the function", "kind": "example.com/p/v1.T", "object": {"i": {"p": 2}}, "old": {"i": {"p": 1}}},
        {"name": "the function says changed", "kind": "example.com/p/v1.T", "object": {"i": {}}, "old": {"i": {"p": 1}}},
        {"name": "set items match through it", "kind": "example.com/p/v1.T", "object": {"i": {}, "s": [{"p": 2}]}, "old": {"i": {}, "s": [{"p": 1}]}},
        {"name": "duplicates through it", "kind": "example.com/p/v1.T", "object": {"i": {}, "s": [{"p": 1}, {"p": 2}]}},
        {"name": "comparable values use ==", "kind": "example.com/p/v1.T", "object": {"i": {}, "n": 2}, "old": {"i": {}, "n": 1}},
    ]);
    let got = run_generated_with(
        dir.path(),
        Upstream::V1_38,
        "deep-equal-project",
        &cases,
        &[],
        Some(custom),
    );
    assert_eq!(
        got,
        lines(&[
            &[],
            &["i | Invalid value: {}: forced failure: inner | origin=validateFalse | sc=false | -"],
            &[],
            &[
                "i | Invalid value: {}: forced failure: inner | origin=validateFalse | sc=false | -",
                "s[0] | Invalid value: {\"p\":1}: forced failure: each | origin=validateFalse | sc=false | -",
                "s[1] | Invalid value: {\"p\":2}: forced failure: each | origin=validateFalse | sc=false | -",
                "s[1] | Duplicate value: {\"p\":2} | origin= | sc=false | -",
            ],
            &["n | Invalid value: 2: forced failure: n | origin=validateFalse | sc=false | -"],
        ])
    );
    // The interpreter cannot call the function: the comparison is a hand-written function it did not run.
    let interp = vgc_validate::Interpreter::new(&out.plan);
    let key = out
        .plan
        .types()
        .find(|t| t.key.name == "T")
        .expect("T")
        .key
        .clone();
    let e = interp
        .validate(
            &key,
            &cases[0]["object"],
            Some(&cases[0]["old"]),
            &vgc_runtime::Operation::update(),
        )
        .expect_err("not interpretable");
    assert_eq!(
        e.to_string(),
        "i: hand-written validation CustomDeepEqual (+k8s:validation-gen-deep-equal-func) cannot be interpreted"
    );
    // On a create nothing is compared, and comparable values never ask for the function.
    assert!(
        interp
            .validate(
                &key,
                &cases[0]["object"],
                None,
                &vgc_runtime::Operation::create()
            )
            .is_ok()
    );
}

/// An alias declaration (`type X = other.Y`) in a package with `+k8s:validation-gen=*` is no root of its own:
/// gengo resolves it to the aliased type, whose package generates its validation (k8s.io/api v0.38.0-beta.0's
/// `scheduling/v1alpha3` aliases of `scheduling/v1`; found by the k8s.io/api oracle against validation-gen
/// v0.38.0-beta.0, which generates no `Validate_` for them).
#[test]
fn alias_declarations_are_not_roots() {
    let v1 = "package v1\n\ntype T struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tA *string `json:\"a,omitempty\"`\n}\n";
    let alpha = "package v1alpha1\n\nimport v1 \"example.com/p/v1\"\n\n// Deprecated: use v1.T.\ntype T = v1.T\n\ntype Own struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tB *string `json:\"b,omitempty\"`\n}\n";
    let star = "// +k8s:validation-gen=*\n// +k8s:validation-gen-nolint\npackage v1\n";
    let dir = module(
        "",
        &[
            ("v1/doc.go", star),
            ("v1/types.go", v1),
            (
                "v1alpha1/doc.go",
                &star.replace("package v1", "package v1alpha1"),
            ),
            ("v1alpha1/types.go", alpha),
        ],
    );
    let out = vgc::build(&request(dir.path(), Some(Upstream::V1_38)));
    assert_eq!(diags(&out), Vec::<String>::new());
    let roots: Vec<String> = out
        .plan
        .types()
        .filter(|t| t.root)
        .map(|t| t.key.to_string())
        .collect();
    assert_eq!(roots, ["example.com/p/v1.T", "example.com/p/v1alpha1.Own"]);
}

/// upstream lints the packages it generates: one without a `+k8s:validation-gen` tag of its own is generated — and
/// linted — only when another package or `--roots` activates it (code-generator v0.38.0-beta.0 `targets.go`: "did
/// not find required tag"; upstream's `output_tests/multiple_packages/types` is such a package). vgc still builds it
/// with its implicit `TypesWithField=TypeMeta` default, without upstream's lint; `--roots` is an activation.
#[test]
fn upstream_lint_runs_on_activated_packages_only() {
    let lint = "VGC0303: field S: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden";
    let tagless = upstream_module("lint-activation-tagless");
    let out = vgc::build(&request(tagless.path(), Some(Upstream::V1_38)));
    assert_eq!(diags(&out), Vec::<String>::new());
    assert!(
        out.plan.types().any(|t| t.root),
        "still built (implicit default)"
    );
    let mut req = request(tagless.path(), Some(Upstream::V1_38));
    req.extra_roots = vec!["TypesWithField=TypeMeta".into()];
    assert_eq!(diags(&vgc::build(&req)), [lint]);
    let types = upstream_file("lint-activation-tagless", "v1/types.go");
    let tagged = module("", &[("v1/doc.go", DOC), ("v1/types.go", &types)]);
    assert_eq!(
        diags(&vgc::build(&request(tagged.path(), Some(Upstream::V1_38)))),
        [lint]
    );
}
