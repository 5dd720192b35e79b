//! `vgc openapi` end to end (issue 39, `docs/openapi.md`), on a small Go module written by the test (no Go, no
//! network): the document's file name and schema names, a second run writing the same bytes, `--option` fixing an
//! option, usage errors (exit 2), a file of the user in the way (exit 2, nothing written), an API tree with an error
//! (exit 1, nothing written), and `--merge` into a spec directory (its keys kept, rule keys added, the spec directory
//! untouched).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
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

	// +k8s:optional
	// +k8s:maxLength=16
	Name *string `json:"name,omitempty"`

	// +k8s:optional
	// +k8s:ifEnabled(Gate)=+k8s:maximum=9
	Size *int32 `json:"size,omitempty"`
}
"#;

/// The schema name of `Widget` in the module `example.com/widgets`.
const WIDGET: &str = "com.example.widgets.v1.Widget";

/// A fresh temporary directory holding `api/`, a module of `types` ([`module`]): the directory (kept alive by the
/// caller) and the module's path.
fn api_module(types: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    std::fs::create_dir_all(&api).expect("mkdir");
    module(&api, types);
    (tmp, api)
}

const FILE: &str = "apis__widgets.example.com__v1_openapi.json";

fn module(dir: &Path, types: &str) {
    std::fs::write(
        dir.join("go.mod"),
        "module example.com/widgets\n\ngo 1.25\n",
    )
    .expect("go.mod");
    let pkg = dir.join("v1");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(pkg.join("doc.go"), DOC).expect("doc.go");
    std::fs::write(pkg.join("types.go"), types).expect("types.go");
}

/// A temporary directory with the module of [`TYPES`] in `api/`; the directory (removed when dropped) and `api`.
fn widgets() -> (tempfile::TempDir, PathBuf) {
    let (tmp, api) = api_module(TYPES);
    (tmp, api)
}

fn vgc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("vgc runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).expect("read")).expect("JSON")
}

#[test]
fn writes_one_document_per_group_version_with_the_rules() {
    let (tmp, api) = widgets();
    let out = tmp.path().join("out");
    let (api_s, out_s) = (api.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    let o = vgc(&["openapi", api_s, "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning: not expressed in OpenAPI: com.example.widgets.v1.Widget.size: k8s:ifEnabled(Gate)=k8s:maximum"),
        "{err}"
    );
    assert!(err.contains("wrote 1 file to"), "{err}");
    let first = std::fs::read(out.join(FILE)).expect("the document");
    let doc: Value = serde_json::from_slice(&first).expect("JSON");
    assert_eq!(doc["openapi"], "3.0.0");
    let w = &doc["components"]["schemas"][WIDGET];
    assert_eq!(w["properties"]["name"]["maxLength"], 16);
    assert!(w["properties"]["size"].get("maximum").is_none());
    // Again: the same bytes.
    let o = vgc(&["openapi", api_s, "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(out.join(FILE)).expect("again"), first);
    // An option fixed at export.
    let o = vgc(&["openapi", api_s, "--out", out_s, "--option", "Gate=true"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        read(&out.join(FILE))["components"]["schemas"][WIDGET]["properties"]["size"]["maximum"],
        9
    );
    assert!(!stderr(&o).contains("warning: --option"), "{}", stderr(&o));
    // An option no rule reads: a warning (with the closest read when near), the output still written.
    let o = vgc(&[
        "openapi",
        api_s,
        "--out",
        out_s,
        "--option",
        "Gat=true",
        "--option",
        "Nope=false",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning: --option Gat: no rule of this API tree reads this option, so it changes nothing (options it reads: Gate); did you mean Gate?\n"),
        "{err}"
    );
    assert!(
        err.contains("warning: --option Nope: no rule of this API tree reads this option, so it changes nothing (options it reads: Gate)\n"),
        "{err}"
    );
    // Usage errors.
    for bad in [
        &["--option", "Gate=maybe"][..],
        &["--option", "=true"],
        &["--stability", "gamma"],
        &["--cel-env", "1.99"],
    ] {
        let mut args = vec!["openapi", api_s, "--out", out_s];
        args.extend_from_slice(bad);
        let o = vgc(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn refuses_a_file_in_the_way_and_an_api_tree_with_errors() {
    let (tmp, api) = widgets();
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(out.join(FILE), "mine\n").expect("a file of the user");
    let (api_s, out_s) = (api.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    let o = vgc(&["openapi", api_s, "--out", out_s]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(out.join(FILE)).expect("kept"),
        "mine\n"
    );
    // --force replaces it.
    let o = vgc(&["openapi", api_s, "--out", out_s, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // An error in the API tree: nothing is written.
    let broken = tmp.path().join("broken");
    std::fs::create_dir_all(&broken).expect("mkdir");
    module(
        &broken,
        &TYPES.replace("+k8s:maxLength=16", "+k8s:maxLenght=16"),
    );
    let out2 = tmp.path().join("out2");
    let o = vgc(&[
        "openapi",
        broken.to_str().expect("utf-8"),
        "--out",
        out2.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no OpenAPI written"), "{}", stderr(&o));
    assert!(!out2.join(FILE).exists());
}

#[test]
fn merge_adds_rule_keys_to_a_spec_directory() {
    let (tmp, api) = widgets();
    let spec = tmp.path().join("spec");
    std::fs::create_dir_all(&spec).expect("mkdir");
    let original = json!({
        "components": {"schemas": {WIDGET: {
            "description": "Widget is a kind.",
            "properties": {"name": {"description": "The name.", "type": "string"}},
            "type": "object"
        }}},
        "info": {"title": "Kubernetes", "version": "unversioned"},
        "openapi": "3.0.0",
        "paths": {}
    });
    let text = serde_json::to_string_pretty(&original).expect("JSON");
    std::fs::write(spec.join(FILE), &text).expect("spec");
    let out = tmp.path().join("out");
    let o = vgc(&[
        "openapi",
        api.to_str().expect("utf-8"),
        "--merge",
        spec.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("merged into 1 spec file"),
        "{}",
        stderr(&o)
    );
    let merged = read(&out.join(FILE));
    let name = &merged["components"]["schemas"][WIDGET]["properties"]["name"];
    assert_eq!(name["description"], "The name.");
    assert_eq!(name["type"], "string");
    assert_eq!(name["maxLength"], 16);
    assert_eq!(
        merged["components"]["schemas"][WIDGET]["description"],
        "Widget is a kind."
    );
    assert_eq!(
        std::fs::read_to_string(spec.join(FILE)).expect("spec"),
        text,
        "the spec directory is only read"
    );
}

#[test]
fn jsonschema_format_writes_kubeconforms_layout_and_lists_what_it_cannot_state() {
    let (tmp, api) = widgets();
    let out = tmp.path().join("out");
    let (api_s, out_s) = (api.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    let o = vgc(&["openapi", api_s, "--format", "jsonschema", "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.lines().last().is_some_and(|l| l.starts_with(
            "vgc: 1 rule keywords stated in JSON Schema, 0 rules not stated (0 CEL rules, 0 others), 1 not expressed in OpenAPI either; wrote 2 files for 1 kind to"
        )),
        "{err}"
    );
    // kubeconform's template: `{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`.
    let plain = read(&out.join("master-standalone/widget-widgets-v1.json"));
    let strict = read(&out.join("master-standalone-strict/widget-widgets-v1.json"));
    assert_eq!(plain["$schema"], "http://json-schema.org/draft-04/schema#");
    assert_eq!(
        plain["properties"]["name"],
        json!({"maxLength": 16, "type": ["string", "null"]})
    );
    assert!(plain.get("additionalProperties").is_none());
    assert_eq!(strict["additionalProperties"], false);
    assert_eq!(
        plain["x-kubernetes-group-version-kind"],
        json!([{"group": "widgets.example.com", "kind": "Widget", "version": "v1"}])
    );
    // An unknown CEL environment is a usage error.
    let o = vgc(&["openapi", api_s, "--out", out_s, "--cel-env", "1.29"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // With --merge: from the merged spec, its kinds found by `x-kubernetes-group-version-kind`, its keys kept.
    let spec = tmp.path().join("spec");
    std::fs::create_dir_all(&spec).expect("mkdir");
    let doc = json!({
        "components": {"schemas": {WIDGET: {
            "description": "Widget is a kind.",
            "properties": {"name": {"description": "The name.", "type": "string"}},
            "type": "object",
            "x-kubernetes-group-version-kind": [{"group": "widgets.example.com", "kind": "Widget", "version": "v1"}]
        }}},
        "openapi": "3.0.0",
        "paths": {}
    });
    std::fs::write(spec.join(FILE), doc.to_string()).expect("spec");
    let merged_out = tmp.path().join("merged");
    let o = vgc(&[
        "openapi",
        api_s,
        "--merge",
        spec.to_str().expect("utf-8"),
        "--format",
        "jsonschema",
        "--out",
        merged_out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let w = read(&merged_out.join("master-standalone/widget-widgets-v1.json"));
    assert_eq!(
        w["properties"]["name"],
        json!({"description": "The name.", "maxLength": 16, "type": ["string", "null"]})
    );
    assert_eq!(w["description"], "Widget is a kind.");
}

/// A kind with a list whose items a format checks (a CEL rule below an unbounded list: over the API server's cost
/// budget), a string a struct rule reads, and the kind's list type.
const BOUNDED_TYPES: &str = r#"package v1

// TypeMeta makes Widget a kind.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ListMeta makes WidgetList a list.
type ListMeta struct {
	Continue string `json:"continue,omitempty"`
}

// Widget is a kind.
type Widget struct {
	TypeMeta `json:",inline"`

	// +k8s:optional
	// +k8s:eachVal=+k8s:format=k8s-short-name
	Tags []string `json:"tags,omitempty"`

	// +k8s:optional
	// +k8s:immutable
	Owner string `json:"owner,omitempty"`
}

// WidgetList is a list of widgets.
type WidgetList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}
"#;

#[test]
fn bounds_bring_the_rules_within_the_cost_budget_and_are_marked() {
    let (tmp, api) = api_module(BOUNDED_TYPES);
    let out = tmp.path().join("out");
    let (api_s, out_s) = (api.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    // Without bounds: the format below the unbounded list is over the per-rule budget.
    let o = vgc(&["openapi", api_s, "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning[VGC0130]: the CEL rule of `k8s:format` at com.example.widgets.v1.Widget.tags[*] costs up to 876,609,536 (836 a run × 1,048,576 runs, the 3 MiB request limit over the least size of a value here) with com.example.widgets.v1.Widget as a CRD's spec"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(
            "`--bound-lists [N]` sets `maxItems`/`maxProperties` on each list or map holding a rule"
        ),
        "{}",
        stderr(&o)
    );
    let w = &read(&out.join(FILE))["components"]["schemas"][WIDGET];
    assert!(w["properties"]["tags"].get("maxItems").is_none());
    // The list kind, as kube-openapi names and shapes it.
    let doc = read(&out.join(FILE));
    assert_eq!(
        doc["components"]["schemas"]["com.example.widgets.v1.WidgetList"],
        json!({"type": "object", "required": ["items"], "properties": {
            "apiVersion": {"type": "string"}, "kind": {"type": "string"},
            "metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"},
            "items": {"type": "array", "items": {"$ref": "#/components/schemas/com.example.widgets.v1.Widget.x-vgc-uncorrelated"}}}})
    );
    // The items' variant without `owner`'s transition rule (a list kind's items have no old item), listed there.
    let variant = &doc["components"]["schemas"]["com.example.widgets.v1.Widget.x-vgc-uncorrelated"];
    assert_eq!(
        variant["x-vgc-unexpressed"][0]["rule"], "k8s:immutable",
        "{variant:#}"
    );
    assert!(
        variant.get("x-kubernetes-validations").is_none(),
        "{variant:#}"
    );
    // With bounds: each marked, none over budget, the summary says what changes.
    let o = vgc(&[
        "openapi",
        api_s,
        "--out",
        out_s,
        "--bound-lists",
        "50",
        "--bound-strings",
        "100",
        "--verbose",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains("VGC0130"), "{err}");
    assert!(
        err.contains("note: bounds set for the API server's CEL cost estimate (each marked `x-vgc-bound`): 1 list or map by --bound-lists, 1 string by --bound-strings; a longer list, map or string is refused there, which the Go types accept"),
        "{err}"
    );
    assert!(
        err.contains(
            "note: bounded com.example.widgets.v1.Widget.tags: maxItems 50 (--bound-lists)"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "note: bounded com.example.widgets.v1.Widget.owner: maxLength 100 (--bound-strings)"
        ),
        "{err}"
    );
    let w = read(&out.join(FILE))["components"]["schemas"][WIDGET].clone();
    assert_eq!(w["properties"]["tags"]["maxItems"], 50);
    assert_eq!(w["properties"]["tags"]["x-vgc-bound"], "maxItems");
    assert_eq!(w["properties"]["owner"]["maxLength"], 100);
    assert_eq!(w["properties"]["owner"]["x-vgc-bound"], "maxLength");
    // The items' strings have the format's own bound (63): no bound added there.
    assert!(
        w["properties"]["tags"]["items"]
            .get("x-vgc-bound")
            .is_none()
    );
    // Without N: the defaults.
    let o = vgc(&[
        "openapi",
        api_s,
        "--out",
        out_s,
        "--bound-lists",
        "--bound-strings",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let w = read(&out.join(FILE))["components"]["schemas"][WIDGET].clone();
    assert_eq!(w["properties"]["tags"]["maxItems"], 128);
    assert_eq!(w["properties"]["owner"]["maxLength"], 4096);
    // JSON Schema: the bound as a keyword, and the list kind's file.
    let js = tmp.path().join("js");
    let o = vgc(&[
        "openapi",
        api_s,
        "--format",
        "jsonschema",
        "--bound-lists",
        "--out",
        js.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("wrote 4 files for 2 kinds"),
        "{}",
        stderr(&o)
    );
    let w = read(&js.join("master-standalone/widget-widgets-v1.json"));
    assert_eq!(w["properties"]["tags"]["maxItems"], 128);
    let l = read(&js.join("master-standalone/widgetlist-widgets-v1.json"));
    assert_eq!(
        l["x-kubernetes-group-version-kind"],
        json!([{"group": "widgets.example.com", "kind": "WidgetList", "version": "v1"}])
    );
    assert_eq!(l["required"], json!(["items"]));
    assert_eq!(
        l["properties"]["items"]["items"]["properties"]["tags"]["items"]["pattern"],
        w["properties"]["tags"]["items"]["pattern"]
    );
    // Bad values: exit 2, nothing written, the value and what is expected named.
    for (flag, value, said) in [
        (
            "--bound-lists",
            "0",
            "invalid value '0' for '--bound-lists [<N>]': 0: a bound is at least 1",
        ),
        (
            "--bound-strings",
            "-5",
            "invalid value '-5' for '--bound-strings [<N>]': -5: a bound is at least 1",
        ),
        (
            "--bound-lists",
            "many",
            "invalid value 'many' for '--bound-lists [<N>]': \"many\": expected a whole number of at least 1",
        ),
        (
            "--bound-lists",
            "18446744073709551615",
            "invalid value '18446744073709551615' for '--bound-lists [<N>]': 18446744073709551615: a bound is from 1 to 9223372036854775807 (maxItems, maxProperties and maxLength are int64 in the API server's schema)",
        ),
        (
            "--bound-strings",
            "9223372036854775808",
            "invalid value '9223372036854775808' for '--bound-strings [<N>]': 9223372036854775808: a bound is from 1 to 9223372036854775807",
        ),
        (
            "--bound-strings",
            "1.5",
            "invalid value '1.5' for '--bound-strings [<N>]': \"1.5\": expected a whole number of at least 1",
        ),
    ] {
        let fresh = tmp.path().join(format!("bad{flag}{value}"));
        let o = vgc(&[
            "openapi",
            api_s,
            "--out",
            fresh.to_str().expect("utf-8"),
            flag,
            value,
        ]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {}", stderr(&o));
        assert!(stderr(&o).contains(said), "{flag} {value}: {}", stderr(&o));
        assert!(!fresh.exists());
    }
}

/// `--over-budget unexpressed`: the format below the unbounded list (87.7x the per-rule budget) is taken out of
/// `x-kubernetes-validations`, listed under `x-vgc-unexpressed` with its estimate and the budget, and its `VGC0130`
/// says so; the default (`keep`) writes it; a bad value is a usage error (exit 2, nothing written).
#[test]
fn over_budget_unexpressed_takes_the_rule_out_and_lists_it() {
    let (tmp, api) = api_module(BOUNDED_TYPES);
    let out = tmp.path().join("out");
    let (api_s, out_s) = (api.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    let o = vgc(&["openapi", api_s, "--out", out_s, "--over-budget", "keep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The summary's counts: (expressed, not expressed).
    let counts = |err: &str| -> (usize, usize) {
        let line = err
            .lines()
            .find(|l| l.starts_with("vgc: ") && l.contains(" rules expressed, "))
            .expect("summary");
        let n: Vec<usize> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .take(2)
            .collect();
        (n[0], n[1])
    };
    let (expressed, unexpressed) = counts(&stderr(&o));
    let w = read(&out.join(FILE))["components"]["schemas"][WIDGET].clone();
    assert_eq!(
        w["properties"]["tags"]["items"]["x-kubernetes-validations"][0]["x-vgc-tag"], "k8s:format",
        "{w:#}"
    );
    let o = vgc(&[
        "openapi",
        api_s,
        "--out",
        out_s,
        "--over-budget",
        "unexpressed",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning[VGC0130]: the CEL rule of `k8s:format` at com.example.widgets.v1.Widget.tags[*] costs up to 876,609,536 (836 a run × 1,048,576 runs, the 3 MiB request limit over the least size of a value here) with com.example.widgets.v1.Widget as a CRD's spec: over the API server's per-rule budget of 10,000,000 by a factor of 87.7x; not written: over budget (--over-budget unexpressed)"),
        "{err}"
    );
    assert!(
        err.contains("note: 1 CEL rule taken out over the API server's CEL cost budget (--over-budget unexpressed): 1 over the per-rule budget, 0 for a messageExpression over it, 0 for schemas over the per-CRD total"),
        "{err}"
    );
    assert_eq!(err.matches("VGC0130").count(), 1, "{err}");
    assert_eq!(
        counts(&err),
        (expressed - 1, unexpressed + 1),
        "the rule taken out is counted as not expressed: {err}"
    );
    let items =
        read(&out.join(FILE))["components"]["schemas"][WIDGET]["properties"]["tags"]["items"]
            .clone();
    assert!(items.get("x-kubernetes-validations").is_none(), "{items:#}");
    assert_eq!(
        items["x-vgc-unexpressed"],
        json!([{
            "cel": "!format.dns1123Label().validate(self).hasValue()",
            "path": ".tags[*]",
            "reason": "over the API server's CEL cost budget: estimated cost 876609536 (a run times the runs) with com.example.widgets.v1.Widget as a CRD's spec, per-rule budget 10000000",
            "rule": "k8s:format",
        }]),
        "{items:#}"
    );
    let fresh = tmp.path().join("bad");
    let o = vgc(&[
        "openapi",
        api_s,
        "--out",
        fresh.to_str().expect("utf-8"),
        "--over-budget",
        "drop",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("invalid value 'drop' for '--over-budget <WHAT>'"),
        "{}",
        stderr(&o)
    );
    assert!(!fresh.exists());
}

/// `--out` naming a file: a usage error saying so, before anything else (no note of the IR cache below it), exit 2,
/// the file left as it was.
#[test]
fn out_that_is_a_file_is_refused_first() {
    let (tmp, api) = api_module(BOUNDED_TYPES);
    let file = tmp.path().join("afile");
    std::fs::write(&file, "kept").expect("file");
    let o = vgc(&[
        "openapi",
        api.to_str().expect("utf-8"),
        "--out",
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "error: --out {}: not a directory (--out names the directory the output is written to)\n",
            file.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&file).expect("file"), "kept");
}

/// `--merge` into what is not an OpenAPI spec: a file with neither `openapi` nor `components.schemas` is an error
/// naming it, a FIFO named `*.json` is an error naming it (not skipped), both exit 2 with nothing written; a spec
/// where none of vgc's schemas is found is written with a warning.
#[test]
fn merge_refuses_what_is_not_a_spec_and_warns_when_nothing_matches() {
    let (tmp, api) = widgets();
    let api = api.to_str().expect("utf-8").to_string();
    let run = |spec: &Path, out: &Path| {
        vgc(&[
            "openapi",
            &api,
            "--merge",
            spec.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
        ])
    };
    for (i, text) in ["[1,2]", r#"{"components":{}}"#].into_iter().enumerate() {
        let spec = tmp.path().join(format!("spec{i}"));
        std::fs::create_dir_all(&spec).expect("mkdir");
        std::fs::write(spec.join("a.json"), text).expect("spec");
        let out = tmp.path().join(format!("out{i}"));
        let o = run(&spec, &out);
        assert_eq!(o.status.code(), Some(2), "{text}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "error: {}: not an OpenAPI v3 document: neither an `openapi` version nor `components.schemas`",
                spec.join("a.json").display()
            )),
            "{text}: {}",
            stderr(&o)
        );
        assert!(!out.join("a.json").exists(), "{text}");
    }
    let spec = tmp.path().join("fifo");
    std::fs::create_dir_all(&spec).expect("mkdir");
    let made = Command::new("mkfifo")
        .arg(spec.join("b.json"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let o = run(&spec, &tmp.path().join("out-fifo"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "error: {}: not a regular file (a FIFO)",
            spec.join("b.json").display()
        )),
        "{}",
        stderr(&o)
    );
    let spec = tmp.path().join("other");
    std::fs::create_dir_all(&spec).expect("mkdir");
    std::fs::write(
        spec.join("c.json"),
        r#"{"openapi": "3.0.0", "components": {"schemas": {"io.k8s.other.v1.Thing": {"type": "object"}}}}"#,
    )
    .expect("spec");
    let out = tmp.path().join("out-other");
    let o = run(&spec, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: --merge: none of vgc's schemas is in the spec (1 file): no rule was added; is it the spec of the API tree's group versions?\n"),
        "{}",
        stderr(&o)
    );
    assert!(out.join("c.json").exists());
}
