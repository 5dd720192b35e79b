//! Diagnostic fixtures: each directory under `fixtures/diagnostics/` is a Go module; its insta snapshot
//! `expected.snap` holds the exit code on its first line (`exit: N`) and then every diagnostic in `--short` form
//! (with its hint), paths relative to the fixture. Review a change with `cargo insta review`
//! (`vgc_tests::fixtures`).

use std::path::Path;
use vgc::driver::BuildRequest;
use vgc_codegen::RuntimeDep;

fn run(dir: &Path) -> String {
    run_under(dir, vgc_ir::Upstream::V1_37)
}

/// The fixture report of the module in `dir` built under the `upstream` profile.
fn run_under(dir: &Path, upstream: vgc_ir::Upstream) -> String {
    let req = BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        crate_name: "x".into(),
        runtime: RuntimeDep::Version("0.1".into()),
        upstream: Some(vgc_ir::profile::Selected::new(
            upstream,
            "the fixtures' reference release",
        )),
        ..Default::default()
    };
    let out = vgc::build(&req);
    let prefix = format!("{}/", dir.display());
    let mut s = format!("exit: {}\n", vgc::exit_code(&out));
    for d in &out.diagnostics {
        let mut line = vgc::render::short(d, &out.sources);
        if let Some(h) = &d.hint {
            line.push_str(&format!("\n    hint: {h}"));
        }
        s.push_str(&line.replace(&prefix, ""));
        s.push('\n');
    }
    s
}

#[test]
fn diagnostic_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagnostics");
    assert!(
        vgc_tests::fixtures::dirs(&root).len() >= 6,
        "fixtures present"
    );
    vgc_tests::fixtures::assert_snapshots(&root, run);
}

/// Under 1.35/1.36 upstream reads a `+k8s:validation-gen` value as a Go field name (code-generator v0.36.6
/// `targets.go` `isTypeWith`), so 1.37's `TypesWithField=TypeMeta` selects no root type there without a word; vgc
/// says why (issue 40: the bundled example checked as "0 types" under `--upstream 1.36`). Under 1.37 the same
/// module has its root and no warning.
#[test]
fn a_1_37_root_criterion_under_1_36_selects_nothing_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("go.mod"), "module example.com/c\n\ngo 1.25\n").expect("go.mod");
    std::fs::create_dir_all(root.join("v1")).expect("mkdir");
    std::fs::write(
        root.join("v1/doc.go"),
        "// +k8s:validation-gen=TypesWithField=TypeMeta\npackage v1\n",
    )
    .expect("doc.go");
    std::fs::write(
        root.join("v1/types.go"),
        "package v1\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tName *string `json:\"name,omitempty\"`\n}\n",
    )
    .expect("types.go");
    assert_eq!(
        run_under(root, vgc_ir::Upstream::V1_36),
        "exit: 0\nv1/doc.go:1:5: warning[VGC0005]: upstream 1.36 reads a +k8s:validation-gen value as a Go field name (`isTypeWith`): no field is named \"TypesWithField=TypeMeta\", so this selects no root type\n    hint: `TypesWithField=` is the 1.37 form: write `+k8s:validation-gen=TypeMeta` for upstream 1.36, or select upstream 1.37 or newer (`--upstream`, `[upstream] version` in vgc.toml)\n"
    );
    assert_eq!(run_under(root, vgc_ir::Upstream::V1_37), "exit: 0\n");
}

/// Upstream 1.36 spells the mode tags `+k8s:discriminator`/`+k8s:member` (code-generator v0.36.6
/// `validators/discriminator.go` registers only those): 1.37's `+k8s:modeDiscriminator`/`+k8s:ifMode` are unknown
/// tags under 1.36, as `Upstream::tag_named` and the editor's hover say (before, `vgc check` accepted them).
#[test]
fn later_spellings_of_renamed_tags_are_unknown_under_1_36() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(root.join("go.mod"), "module example.com/m\n\ngo 1.25\n").expect("go.mod");
    std::fs::create_dir_all(root.join("v1")).expect("mkdir");
    std::fs::write(
        root.join("v1/doc.go"),
        "// +k8s:validation-gen=*\npackage v1\n",
    )
    .expect("doc.go");
    let types = |disc: &str, member: &str| {
        format!(
            "package v1\n\ntype T struct {{\n\t// +k8s:optional\n\t// +k8s:{disc}\n\tMode string `json:\"mode\"`\n\t// +k8s:{member}(\"X\")=+k8s:required\n\tX *string `json:\"x,omitempty\"`\n}}\n"
        )
    };
    std::fs::write(
        root.join("v1/types.go"),
        types("modeDiscriminator", "ifMode"),
    )
    .expect("types.go");
    let hint = |tag: &str, args: &str| {
        format!(
            "    hint: upstream 1.36 spells it `k8s:{tag}` (arguments {args}); `k8s:{}` exists from upstream 1.37 on\n",
            if tag == "discriminator" {
                "modeDiscriminator"
            } else {
                "ifMode"
            }
        )
    };
    assert_eq!(
        run_under(root, vgc_ir::Upstream::V1_36),
        format!(
            "exit: 1\nv1/types.go:5:6: error[VGC0102]: unknown tag \"k8s:modeDiscriminator\" in upstream 1.36\n{}v1/types.go:7:6: error[VGC0102]: unknown tag \"k8s:ifMode\" in upstream 1.36\n{}",
            hint("discriminator", "`name:` for `modality:`"),
            hint(
                "member",
                "`discriminator:` for `modality:`, `value:` for `mode:`"
            ),
        )
    );
    assert_eq!(run_under(root, vgc_ir::Upstream::V1_37), "exit: 0\n");
    std::fs::write(root.join("v1/types.go"), types("discriminator", "member")).expect("types.go");
    assert_eq!(run_under(root, vgc_ir::Upstream::V1_36), "exit: 0\n");
}
