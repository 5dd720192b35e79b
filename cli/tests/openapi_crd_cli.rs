//! `vgc openapi --crd` end to end on a small Go module and a hand-written CRD (no Go, no network; the real
//! controller-gen and API server are `tests/tests/openapi_crd.rs`'s): the rules added in place with every key of the
//! CRD kept, `--bound-lists`, and the errors — a kind with no Go type, a file that is not a CRD, malformed YAML — each
//! at its place in the file (`file:line:col`), exit 1, nothing written.

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output};

const DOC: &str = "// +k8s:validation-gen=*\n// +groupName=widgets.example.com\npackage v1\n";

const TYPES: &str = r#"package v1

// TypeMeta makes Widget a kind.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// Widget is a kind.
type Widget struct {
	TypeMeta `json:",inline"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec is a widget's spec.
type WidgetSpec struct {
	// +k8s:optional
	// +k8s:maxLength=16
	Name *string `json:"name,omitempty"`

	// +k8s:optional
	// +k8s:eachVal=+k8s:format=k8s-short-name
	Tags []string `json:"tags,omitempty"`
}
"#;

const CRD: &str = "---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.widgets.example.com
spec:
  group: widgets.example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            description: kept
            properties:
              name:
                type: string
              tags:
                items:
                  type: string
                type: array
            type: object
        type: object
    served: true
    storage: true
";

fn module(dir: &Path) {
    std::fs::write(
        dir.join("go.mod"),
        "module example.com/widgets\n\ngo 1.25\n",
    )
    .expect("go.mod");
    let pkg = dir.join("v1");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(pkg.join("doc.go"), DOC).expect("doc.go");
    std::fs::write(pkg.join("types.go"), TYPES).expect("types.go");
}

fn vgc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("vgc runs")
}

/// `vgc openapi --crd CRD DIR --out OUT` and `extra`.
fn crd_run(dir: &Path, crd: &Path, out: &Path, extra: &[&str]) -> Output {
    let p = |p: &Path| p.to_str().expect("utf-8").to_string();
    let (crd, dir, out) = (p(crd), p(dir), p(out));
    let mut args = vec!["openapi", "--crd", &crd, &dir, "--out", &out];
    args.extend(extra);
    vgc(&args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The rule object vgc writes for `+k8s:format=k8s-short-name` on a value that lets no zero through.
fn short_name_rule() -> Value {
    json!({"message": "must be a lowercase RFC 1123 label", "reason": "FieldValueInvalid",
           "rule": "!format.dns1123Label().validate(self).hasValue()"})
}

#[test]
fn the_rules_are_added_in_place_and_every_key_is_kept() {
    let tmp = tempfile::tempdir().expect("tempdir");
    module(tmp.path());
    let crd = tmp.path().join("widgets.yaml");
    std::fs::write(&crd, CRD).expect("crd");
    let out = tmp.path().join("out");
    let o = crd_run(tmp.path(), &crd, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("widgets.widgets.example.com/v1: the rules of com.example.widgets.v1.Widget: 3 keys added"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("warning: widgets.widgets.example.com/v1: 1 list or map without maxItems/maxProperties holds CEL rules (.spec.tags): the API server's CEL cost estimate sizes them by the request limit and may refuse the CRD; --bound-lists N bounds them"),
        "{}",
        stderr(&o)
    );
    // vgc's own cost estimate (VGC0130): the format rule below the unbounded list, and the CRD's total.
    assert!(
        stderr(&o).contains("warning[VGC0130]: the CEL rule of `k8s:format` at com.example.widgets.v1.WidgetSpec.tags[*] costs up to 876,609,536 (836 a run × 1,048,576 runs, the 3 MiB request limit over the least size of a value here) in widgets.widgets.example.com/v1: over the API server's per-rule budget of 10,000,000 by a factor of 87.7x: the API server refuses this CRD\n = hint: the estimate sizes `.spec.tags` above it (no `maxItems`/`maxProperties`) by the request limit: `--bound-lists N` sets `maxItems`/`maxProperties` N on each (a longer list is then refused), or give the Go fields `+k8s:maxItems`\n"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("warning[VGC0130]: the CEL rules of widgets.widgets.example.com/v1 cost up to 876,609,536 together: over the API server's per-CRD total of 100,000,000 by a factor of 8.8x: the API server refuses this CRD\n"),
        "{}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(out.join("widgets.yaml")).expect("written");
    assert!(
        text.starts_with("---\napiVersion: apiextensions.k8s.io/v1\n"),
        "{text}"
    );
    let doc: Value = vgc::manifests::load(&text).remove(0).expect("reads").value;
    assert_eq!(
        doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"],
        json!({
            "properties": {"spec": {
                "description": "kept",
                "properties": {
                    "name": {"maxLength": 16, "type": "string"},
                    "tags": {"items": {"maxLength": 63, "type": "string",
                                       "x-kubernetes-validations": [short_name_rule()]},
                             "type": "array"},
                },
                "type": "object",
            }},
            "type": "object",
        })
    );
    assert!(!text.contains("x-vgc-"), "{text}");

    // --bound-lists: the list holding a rule gets maxItems.
    let o = crd_run(tmp.path(), &crd, &out, &["--bound-lists", "64"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning: widgets"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("VGC0130"), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("widgets.yaml")).expect("written");
    let doc: Value = vgc::manifests::load(&text).remove(0).expect("reads").value;
    assert_eq!(
        doc.pointer(
            "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/tags/maxItems"
        ),
        Some(&json!(64))
    );

    // A bound of 0 is a usage error.
    let o = crd_run(tmp.path(), &crd, &out, &["--bound-lists", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a bound is at least 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_crd_that_cannot_get_rules_is_a_located_error_and_nothing_is_written() {
    let tmp = tempfile::tempdir().expect("tempdir");
    module(tmp.path());
    let out = tmp.path().join("out");
    let cases = [
        (
            CRD.replace("kind: Widget", "kind: Gadget"),
            "error: no Go type for widgets.example.com/v1 Gadget in the API tree",
            "bad.yaml:9:11",
        ),
        (
            CRD.replace("  - name: v1", "  - name: v2"),
            "error: no Go type for widgets.example.com/v2 Widget in the API tree",
            "bad.yaml:13:11",
        ),
        (
            CRD.replace("kind: CustomResourceDefinition", "kind: ConfigMap"),
            "error: not a CustomResourceDefinition of apiextensions.k8s.io/v1",
            "bad.yaml:2:1",
        ),
        (
            CRD.replace("    plural: widgets", "    plural: [widgets"),
            "error: malformed CRD: invalid YAML",
            "bad.yaml:",
        ),
    ];
    for (text, message, at) in cases {
        let crd = tmp.path().join("bad.yaml");
        std::fs::write(&crd, &text).expect("crd");
        let o = crd_run(tmp.path(), &crd, &out, &[]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(e.contains(message), "{e}");
        assert!(e.contains(at), "{at}: {e}");
        assert!(e.contains("vgc: no CRD written"), "{e}");
        assert!(!out.join("bad.yaml").exists());
    }
}

/// A `--crd` that is a FIFO or a device is refused at once with its path (not read: a FIFO would block, `/dev/zero`
/// fill memory), exit 2, nothing written.
#[cfg(unix)]
#[test]
fn a_crd_that_is_not_a_regular_file_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    module(tmp.path());
    let fifo = tmp.path().join("crd.yaml");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let out = tmp.path().join("out");
    let root = tmp.path().to_str().expect("utf-8");
    let o = out.to_str().expect("utf-8");
    for (crd, kind) in [
        (fifo.to_str().expect("utf-8"), "a FIFO"),
        ("/dev/zero", "a character device"),
    ] {
        let r = vgc(&["openapi", root, "--crd", crd, "--out", o]);
        assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
        assert_eq!(
            stderr(&r),
            format!(
                "error: --crd {crd}: not a regular file ({kind}); vgc reads only regular files\n"
            )
        );
        assert!(!out.exists(), "nothing written");
    }
}

/// `--over-budget unexpressed` with `--crd`: vgc's format rule below the unbounded list (87.7x the per-rule budget)
/// is taken out of the CRD, its `VGC0130` says so, and the CRD is under the per-CRD total (no warning of it).
#[test]
fn over_budget_unexpressed_takes_vgcs_rule_out_of_the_crd() {
    let tmp = tempfile::tempdir().expect("tempdir");
    module(tmp.path());
    let crd = tmp.path().join("widgets.yaml");
    std::fs::write(&crd, CRD).expect("crd");
    let out = tmp.path().join("out");
    let o = crd_run(tmp.path(), &crd, &out, &["--over-budget", "unexpressed"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning[VGC0130]: the CEL rule of `k8s:format` at widgets.widgets.example.com/v1.spec.tags[*] costs up to 876,609,536 (836 a run × 1,048,576 runs, the 3 MiB request limit over the least size of a value here) in widgets.widgets.example.com/v1: over the API server's per-rule budget of 10,000,000 by a factor of 87.7x; not written: over budget (--over-budget unexpressed)\n = hint: taken out of the CRD, which cannot list it (a CRD has no `x-vgc-*` key): the API server does not enforce it\n"),
        "{err}"
    );
    assert_eq!(err.matches("VGC0130").count(), 1, "{err}");
    assert!(
        err.contains("note: 1 CEL rule taken out over the API server's CEL cost budget (--over-budget unexpressed): 1 over the per-rule budget, 0 for a messageExpression over it, 0 for schemas over the per-CRD total"),
        "{err}"
    );
    let text = std::fs::read_to_string(out.join("widgets.yaml")).expect("written");
    let doc: Value = vgc::manifests::load(&text).remove(0).expect("reads").value;
    assert_eq!(
        doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
            ["tags"],
        json!({"items": {"maxLength": 63, "type": "string"}, "type": "array"})
    );
    assert!(!text.contains("x-vgc-"), "{text}");
}

/// A CRD whose schema lacks a field a rule of vgc's reads (trimmed, or made from older Go types): the rule is not
/// written (the API server would refuse it: "undefined field"), a warning at the node it would have gone to names
/// the field, the summary counts it as not expressed, and it is no cost problem (no `VGC0130`, even with
/// `--over-budget unexpressed`).
#[test]
fn a_rule_reading_a_field_the_crd_lacks_is_not_written() {
    let tmp = tempfile::tempdir().expect("tempdir");
    module(tmp.path());
    std::fs::write(
        tmp.path().join("v1/types.go"),
        TYPES.replace(
            "\t// +k8s:maxLength=16\n",
            "\t// +k8s:maxLength=16\n\t// +k8s:dependentForbidden(fixed)\n",
        ),
    )
    .expect("types.go");
    let types = std::fs::read_to_string(tmp.path().join("v1/types.go")).expect("types");
    std::fs::write(
        tmp.path().join("v1/types.go"),
        types.replace(
            "\tTags []string `json:\"tags,omitempty\"`\n}",
            "\tTags []string `json:\"tags,omitempty\"`\n\n\t// +k8s:optional\n\tFixed *int32 `json:\"fixed,omitempty\"`\n}",
        ),
    )
    .expect("types.go");
    let crd = tmp.path().join("widgets.yaml");
    std::fs::write(&crd, CRD).expect("crd");
    let out = tmp.path().join("out");
    let p = |p: &Path| p.to_str().expect("utf-8").to_string();
    let o = crd_run(tmp.path(), &crd, &out, &["--over-budget", "unexpressed"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("warning: the CEL rule of `k8s:dependentForbidden` at widgets.widgets.example.com/v1.spec reads field `fixed`, which the CRD's schema lacks: not written (the API server refuses a rule reading an undefined field); not expressed\n   ┌─ {}:17:11\n", p(&crd))),
        "{err}"
    );
    assert!(
        err.contains(", 1 CEL rule not expressed: it reads fields the CRD's schema lacks\n"),
        "{err}"
    );
    assert!(
        !err.contains("dependentForbidden` at widgets.widgets.example.com/v1.spec costs"),
        "{err}"
    );
    assert!(!err.contains("not estimated"), "{err}");
    let text = std::fs::read_to_string(out.join("widgets.yaml")).expect("written");
    assert!(!text.contains("fixed"), "{text}");
    assert!(text.contains("maxLength: 16"), "{text}");
}
