//! `vgc openapi`'s mapping of rules, tag by tag, on a small Go package written by the test (no Go, no network: the
//! fast tier): what becomes a keyword, what a CEL rule, what is listed as not expressed, and what `--option` and
//! `--stability` change (`docs/openapi.md`). The plan comes from vgc's own check pipeline, as `vgc openapi`'s does.

use serde_json::{Value, json};
use vgc_ir::catalog::Stability;
use vgc_openapi::{Options, Output, generate};

const DOC: &str = r#"// +k8s:validation-gen=*
// +groupName=example.com
package v1
"#;

const TYPES: &str = r#"package v1

// TypeMeta makes Widget a kind (as metav1.TypeMeta does).
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// +k8s:enum
type Color string

const (
	Red  Color = "Red"
	Blue Color = "Blue"
)

// Widget is a kind.
type Widget struct {
	TypeMeta `json:",inline"`

	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`

	// +k8s:optional
	// +k8s:minimum=1
	Replicas int32 `json:"replicas,omitempty"`

	// +k8s:optional
	// +k8s:maxLength=10
	// +k8s:immutable
	Note *string `json:"note,omitempty"`

	// +k8s:optional
	Color *Color `json:"color,omitempty"`

	// +k8s:optional
	// +k8s:neq="forbidden"
	Label *string `json:"label,omitempty"`

	// +k8s:optional
	// +k8s:unionMember
	A *string `json:"a,omitempty"`

	// +k8s:optional
	// +k8s:unionMember
	B *string `json:"b,omitempty"`

	// +k8s:optional
	// +k8s:eachVal=+k8s:maxLength=5
	Tags []string `json:"tags,omitempty"`

	// +k8s:optional
	// +k8s:ifEnabled(Gate)=+k8s:maximum=9
	Gated *int32 `json:"gated,omitempty"`

	// +k8s:forbidden
	Legacy *Item `json:"legacy,omitempty"`

	// +k8s:optional
	// +default=5
	// +k8s:minimum=1
	Size *int32 `json:"size,omitempty"`

	// +k8s:optional
	// +k8s:beta(since: "1.37")=+k8s:maxItems=3
	// +k8s:listType=map
	// +k8s:listMapKey=key
	Items []Item `json:"items,omitempty"`
}

// Item is a list-map item.
type Item struct {
	Key string `json:"key"`

	// +k8s:optional
	// +k8s:maxLength=8
	Note *string `json:"note,omitempty"`

	// +k8s:optional
	Value *string `json:"value,omitempty"`
}
"#;

/// Writes the fixture module into a temporary directory and lowers it.
fn plan() -> (tempfile::TempDir, vgc_lowering::CratePlan) {
    plan_of(TYPES)
}

/// Writes a module of one package, `types` its `types.go`, into a temporary directory and lowers it.
fn plan_of(types: &str) -> (tempfile::TempDir, vgc_lowering::CratePlan) {
    plan_under(types, None)
}

/// [`plan_of`] under the upstream profile `release` (`1.37`) when given, else the newest.
fn plan_under(types: &str, release: Option<&str>) -> (tempfile::TempDir, vgc_lowering::CratePlan) {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("go.mod"),
        "module vgc.test/openapi\n\ngo 1.25\n",
    )
    .expect("go.mod");
    if let Some(r) = release {
        std::fs::write(
            tmp.path().join("vgc.toml"),
            format!("[upstream]\nversion = \"{r}\"\n"),
        )
        .expect("vgc.toml");
    }
    let pkg = tmp.path().join("v1");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    // Under an older profile, `validation-gen-nolint` as the conformance packages: 1.37's stability lint wants
    // `forbidden` marked beta.
    let doc = if release.is_some() {
        DOC.replace("package v1", "// +k8s:validation-gen-nolint\npackage v1")
    } else {
        DOC.to_string()
    };
    std::fs::write(pkg.join("doc.go"), doc).expect("doc.go");
    std::fs::write(pkg.join("types.go"), types).expect("types.go");
    let out = vgc_driver::build(&vgc_driver::BuildRequest::check(
        tmp.path().to_string_lossy().into_owned(),
        Vec::new(),
    ));
    assert_eq!(out.errors(), 0, "{:#?}", out.diagnostics);
    (tmp, out.plan)
}

fn widget(o: &Output) -> &Value {
    o.schemas
        .get("test.vgc.openapi.v1.Widget")
        .unwrap_or_else(|| panic!("{:?}", o.schemas.keys().collect::<Vec<_>>()))
}

/// The CEL rules of `node` written for `tag`.
fn rules<'a>(node: &'a Value, tag: &str) -> Vec<&'a Value> {
    node["x-kubernetes-validations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["x-vgc-tag"] == tag)
        .collect()
}

#[test]
fn rules_become_keywords_cel_or_listed_exceptions() {
    let (_tmp, plan) = plan();
    let o = generate(&plan, &Options::default());
    assert_eq!(
        o.documents
            .iter()
            .map(|d| d.file.as_str())
            .collect::<Vec<_>>(),
        ["apis__example.com__v1_openapi.json"]
    );
    let w = widget(&o);
    let p = &w["properties"];
    // required: the keyword, plus CEL refusing a present "" (upstream reads it as unset).
    assert_eq!(w["required"], json!(["name"]));
    let req = rules(w, "k8s:required");
    assert_eq!(req.len(), 1, "{w:#}");
    assert_eq!(req[0]["reason"], "FieldValueRequired");
    assert_eq!(req[0]["fieldPath"], ".name");
    // format on a required non-pointer string: CEL letting "" through (required reports it), no keyword.
    let f = rules(&p["name"], "k8s:format");
    assert_eq!(
        f[0]["rule"],
        "self == '' || (!format.dns1123Label().validate(self).hasValue())"
    );
    assert!(p["name"].get("format").is_none());
    // optional non-pointer with minimum: CEL letting 0 through instead of the keyword.
    assert!(p["replicas"].get("minimum").is_none());
    assert_eq!(
        rules(&p["replicas"], "k8s:minimum")[0]["rule"],
        "self == 0 || (self >= 1)"
    );
    // maxLength on a pointer: the keyword; immutable: a transition rule on the struct.
    assert_eq!(p["note"]["maxLength"], 10);
    let imm = rules(w, "k8s:immutable");
    assert_eq!(
        imm[0]["rule"],
        "has(self.note) == has(oldSelf.note) && (!has(self.note) || self.note == oldSelf.note)"
    );
    assert_eq!(imm[0]["message"], "field is immutable");
    // enum through the typedef, inlined.
    assert_eq!(p["color"]["enum"], json!(["Blue", "Red"]));
    // neq: CEL with upstream's detail.
    let neq = rules(&p["label"], "k8s:neq");
    assert_eq!(neq[0]["rule"], "self != 'forbidden'");
    assert_eq!(neq[0]["message"], "must not be equal to \"forbidden\"");
    // union: two rules on the struct.
    let u = rules(w, "k8s:unionMember");
    assert_eq!(u.len(), 2, "{w:#}");
    assert_eq!(u[0]["message"], "must specify one of: `a`, `b`");
    // eachVal on the items.
    assert_eq!(p["tags"]["items"]["maxLength"], 5);
    // list-map: list type and keys; the key gets its zero as default (CRDs need it required or defaulted).
    assert_eq!(p["items"]["x-kubernetes-list-type"], "map");
    assert_eq!(p["items"]["x-kubernetes-list-map-keys"], json!(["key"]));
    assert_eq!(
        o.schemas["test.vgc.openapi.v1.Item"]["properties"]["key"]["default"],
        ""
    );
    // forbidden: the rule on the struct, and nothing of Item's below it (upstream's forbidden short-circuits).
    // Ratcheted as upstream ratchets a field (skipped on an update that leaves it unchanged), with the plain rule
    // kept for places where the old value cannot be found.
    let forbidden = rules(w, "k8s:forbidden")[0];
    assert_eq!(
        forbidden["rule"],
        "(oldSelf.hasValue() && (has(self.legacy) == has(oldSelf.value().legacy) && (!has(self.legacy) || self.legacy == oldSelf.value().legacy))) || (!has(self.legacy))"
    );
    assert_eq!(forbidden["optionalOldSelf"], true);
    assert_eq!(forbidden["x-vgc-plain-rule"], "!has(self.legacy)");
    assert_eq!(
        p["legacy"]["$ref"],
        "#/components/schemas/test.vgc.openapi.v1.Item.x-vgc-unvalidated"
    );
    let unvalidated = &o.schemas["test.vgc.openapi.v1.Item.x-vgc-unvalidated"];
    assert!(unvalidated["properties"]["note"].get("maxLength").is_none());
    assert_eq!(
        o.schemas["test.vgc.openapi.v1.Item"]["properties"]["note"]["maxLength"],
        8
    );
    // optional with a default: upstream validates it as required (after defaulting); the schema keeps the default
    // and lists the rule instead of `required` (a client validates the manifest as written).
    assert_eq!(p["size"]["default"], 5);
    assert_eq!(p["size"]["minimum"], 1);
    assert_eq!(
        p["size"]["x-vgc-unexpressed"],
        json!([{"path": ".size", "rule": "k8s:optional", "reason": "the field has a default, which the API server applies before validating: `required` would refuse a manifest that omits it"}])
    );
    assert!(
        o.unexpressed
            .iter()
            .any(|u| u.schema == "test.vgc.openapi.v1.Widget" && u.path == ".size")
    );
    // beta: kept, marked.
    assert_eq!(p["items"]["maxItems"], 3);
    assert_eq!(p["items"]["x-vgc-stability"]["maxItems"], "beta");
    // An option not fixed: not expressed, listed where it belongs and returned.
    assert!(p["gated"].get("maximum").is_none());
    assert_eq!(
        p["gated"]["x-vgc-unexpressed"][0]["rule"],
        "k8s:ifEnabled(Gate)=k8s:maximum"
    );
    assert!(
        o.unexpressed
            .iter()
            .any(|u| u.schema == "test.vgc.openapi.v1.Widget" && u.path == ".gated")
    );
    // Deterministic.
    let again = generate(&plan, &Options::default());
    assert_eq!(
        serde_json::to_string(&o.documents[0].json).expect("json"),
        serde_json::to_string(&again.documents[0].json).expect("json")
    );
}

#[test]
fn options_and_stability_are_fixed_at_export() {
    let (_tmp, plan) = plan();
    let on = generate(
        &plan,
        &Options {
            options: [("Gate".to_string(), true)].into(),
            stability: Stability::Alpha,
            ..Options::default()
        },
    );
    assert_eq!(widget(&on)["properties"]["gated"]["maximum"], 9);
    assert!(on.unexpressed.iter().all(|u| u.path != ".gated"));
    let off = generate(
        &plan,
        &Options {
            options: [("Gate".to_string(), false)].into(),
            stability: Stability::Alpha,
            ..Options::default()
        },
    );
    assert!(widget(&off)["properties"]["gated"].get("maximum").is_none());
    assert_eq!(off.omitted_by_option, 1);
    // `--cel-env 1.30`: a format said with `matches` instead of the `format` library (added in 1.31).
    let old_env = generate(
        &plan,
        &Options {
            cel_format_library: false,
            ..Options::default()
        },
    );
    assert_eq!(
        rules(&widget(&old_env)["properties"]["name"], "k8s:format")[0]["rule"],
        "self == '' || ((size(self) <= 63 && self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')))"
    );
    let stable = generate(
        &plan,
        &Options {
            options: Default::default(),
            stability: Stability::Stable,
            ..Options::default()
        },
    );
    assert!(
        widget(&stable)["properties"]["items"]
            .get("maxItems")
            .is_none()
    );
    assert!(stable.omitted_by_stability >= 1);
}

/// Typedef chains, map key types and a field that is not serialized (issue 39's conformance classes: each was a
/// difference between the schema and upstream's generated code on `tests/conformance`'s `structure.Root` and
/// `maps.Maps`).
const SHAPES: &str = r#"package v1

// +k8s:maxLength=6
type Name string

// Alias chains to Name: upstream applies Alias's own rules only.
// +k8s:format=k8s-short-name
type Alias Name

// Key is a map key type with a rule: upstream calls its function on every key.
// +k8s:format=k8s-short-name
type Key string

// +k8s:maxProperties=2
type Keyed map[Key]string

// Holder holds them.
type Holder struct {
	// +k8s:optional
	Alias *Alias `json:"alias,omitempty"`

	// +k8s:optional
	Aliases []Alias `json:"aliases,omitempty"`

	// +k8s:optional
	Name *Name `json:"name,omitempty"`

	// +k8s:optional
	// +k8s:eachKey=+k8s:maxLength=2
	Typed map[Key]string `json:"typed,omitempty"`

	// +k8s:optional
	Keyed Keyed `json:"keyed,omitempty"`

	// +k8s:required
	Hidden string `json:"-"`
}
"#;

#[test]
fn typedef_chains_key_types_and_unserialized_fields() {
    let (_tmp, plan) = plan_of(SHAPES);
    let o = generate(&plan, &Options::default());
    let h = &o.schemas["test.vgc.openapi.v1.Holder"];
    let p = &h["properties"];
    // A typedef of a typedef: Alias's format (and the format's implied bound), not Name's maxLength=6, which
    // upstream's Validate_Alias never runs; Name itself keeps its own. No `format: k8s-short-name` keyword beside
    // the CEL rule: the API server checks that format itself and would refuse a bad value twice (`TypeInvalid`
    // besides the rule's `Invalid`).
    let format_rule = json!([{
        "message": "must be a lowercase RFC 1123 label",
        "reason": "FieldValueInvalid",
        "rule": "!format.dns1123Label().validate(self).hasValue()",
        "x-vgc-tag": "k8s:format"
    }]);
    for alias in [&p["alias"], &p["aliases"]["items"]] {
        assert_eq!(
            *alias,
            json!({"maxLength": 63, "type": "string", "x-kubernetes-validations": format_rule}),
            "{h:#}"
        );
    }
    assert_eq!(p["name"], json!({"maxLength": 6, "type": "string"}));
    // A map key type's rules on every key (old keys skipped on an update, as `EachMapKey` skips them), after the
    // field's own `eachKey`; on a map typedef, beside its own `maxProperties`.
    let key_format = json!({
        "message": "must be a lowercase RFC 1123 label",
        "optionalOldSelf": true,
        "reason": "FieldValueInvalid",
        "rule": "self.all(k, (oldSelf.hasValue() && k in oldSelf.value()) || (!format.dns1123Label().validate(k).hasValue()))",
        "x-vgc-plain-rule": "self.all(k, !format.dns1123Label().validate(k).hasValue())",
        "x-vgc-tag": "k8s:eachKey=k8s:format"
    });
    let typed = p["typed"]["x-kubernetes-validations"]
        .as_array()
        .expect("typed has rules");
    assert_eq!(
        typed
            .iter()
            .map(|r| r["x-vgc-tag"].as_str().unwrap_or(""))
            .collect::<Vec<_>>(),
        ["k8s:eachKey=k8s:maxLength", "k8s:eachKey=k8s:format"]
    );
    assert_eq!(typed[1], key_format);
    assert_eq!(p["keyed"]["maxProperties"], 2);
    assert_eq!(p["keyed"]["x-kubernetes-validations"], json!([key_format]));
    // `json:"-"`: upstream validates the Go value (at the path `string`); a schema has no property for it, so the
    // rule is listed, not dropped.
    assert!(p.get("Hidden").is_none() && p.get("string").is_none());
    let hidden: Vec<_> = o
        .unexpressed
        .iter()
        .filter(|u| u.schema == "test.vgc.openapi.v1.Holder")
        .map(|u| (u.path.as_str(), u.rule.as_str()))
        .collect();
    assert_eq!(hidden, [(" (field Hidden, json:\"-\")", "k8s:required")]);
}

const UPSTREAM_ORDER: &str = r#"package v1

// Probe: upstream's flags on its test tags.
type Probe struct {
	// +k8s:validateFalse(flags: "ShortCircuit,NonError")="quiet stop"
	// +k8s:validateFalse="after quiet"
	D *int32 `json:"d,omitempty"`
	// +k8s:validateFalse(flags: "ShortCircuit")="stop here"
	// +k8s:validateFalse="never reached"
	A *string `json:"a,omitempty"`
}

// Named: a union and a zero-or-one-of.
type Named struct {
	// +k8s:unionMember
	// +k8s:optional
	L1 *string `json:"l1,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	L2 *string `json:"l2,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Z1 string `json:"z1,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Z2 string `json:"z2,omitempty"`
}

// Delivery: a bool mode discriminator.
type Delivery struct {
	// +k8s:modeDiscriminator
	Secure bool `json:"secure,omitempty"`
	// +k8s:ifMode("false")=+k8s:optional
	Insecure *string `json:"insecure,omitempty"`
}

// Bytes: item limits on a []byte.
type Bytes struct {
	// +k8s:optional
	// +k8s:minItems=2
	// +k8s:maxItems=3
	Data []byte `json:"data,omitempty"`
}

// Item is keyed by name.
type Item struct {
	// +k8s:required
	Name string `json:"name"`
}

// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:item(name: "succeeded")=+k8s:unionMember
// +k8s:item(name: "failed")=+k8s:unionMember
type TaskList []Item

// TaskHolder: a list union on a field that is neither optional nor required.
type TaskHolder struct {
	Tasks TaskList `json:"tasks,omitempty"`
}

// Labels: a transition rule on each map value.
type Labels struct {
	// +k8s:optional
	// +k8s:eachVal=+k8s:update=NoModify
	Labels map[string]string `json:"labels,omitempty"`
}

// Frozen: an immutable list item.
type Frozen struct {
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:item(name: "ready")=+k8s:immutable
	Items []Item `json:"items,omitempty"`
}

// Inner is embedded by pointer.
type Inner struct {
	// +k8s:required
	A string `json:"a"`
	// +k8s:optional
	B string `json:"b,omitempty"`
}

// EmbeddedPtr embeds Inner by pointer: encoding/json allocates it only when one of its names is present.
type EmbeddedPtr struct {
	// +k8s:optional
	*Inner `json:",inline"`
	// +k8s:optional
	C string `json:"c,omitempty"`
}
"#;

/// What the equivalence over `tests/conformance` found (`docs/openapi.md`): a `NonError` check reports nothing and a
/// failing short-circuit stops its cohort; unions and modes ratchet as upstream's do (on the members' set-ness, on
/// the discriminator and member); an absent bool discriminator is mode "false"; a `[]byte`'s item limits count its
/// bytes in CEL; a list union runs on an absent list; `eachVal=+k8s:update` sits on each value; an immutable item
/// may not be removed; a pointer-embedded struct's `required` holds only when it is allocated.
#[test]
fn upstream_order_ratchets_and_absent_values() {
    // Under the 1.37 profile, as `tests/conformance` is compared (1.38's lint wants `optional`/`required` on every
    // validated field; these fields have neither on purpose).
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("go.mod"),
        "module vgc.test/openapi\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::write(
        tmp.path().join("vgc.toml"),
        "[upstream]\nversion = \"1.37\"\n",
    )
    .expect("vgc.toml");
    let pkg = tmp.path().join("v1");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    // `validation-gen-nolint`, as the conformance packages: upstream's lints refuse its test tags outside alpha.
    std::fs::write(
        pkg.join("doc.go"),
        DOC.replace("package v1", "// +k8s:validation-gen-nolint\npackage v1"),
    )
    .expect("doc.go");
    std::fs::write(pkg.join("types.go"), UPSTREAM_ORDER).expect("types.go");
    let built = vgc_driver::build(&vgc_driver::BuildRequest::check(
        tmp.path().to_string_lossy().into_owned(),
        Vec::new(),
    ));
    assert_eq!(built.errors(), 0, "{:#?}", built.diagnostics);
    let plan = built.plan;
    let o = generate(&plan, &Options::default());
    let s = |t: &str| &o.schemas[&format!("test.vgc.openapi.v1.{t}")];
    let probe = &s("Probe")["properties"];
    assert_eq!(probe["d"], json!({"format": "int32", "type": "integer"}));
    assert_eq!(
        probe["a"]["x-kubernetes-validations"],
        json!([{"message": "forced failure: stop here", "reason": "FieldValueInvalid", "rule": "false",
                "x-vgc-tag": "k8s:validateFalse"}])
    );

    let named = s("Named")["x-kubernetes-validations"]
        .as_array()
        .expect("Named has rules");
    let same = "[has(self.l1), has(self.l2)] == [has(oldSelf.value().l1), has(oldSelf.value().l2)]";
    assert_eq!(
        named[0],
        json!({"message": "must specify one of: `l1`, `l2`", "optionalOldSelf": true,
               "reason": "FieldValueInvalid",
               "rule": format!("(oldSelf.hasValue() && {same}) || ([has(self.l1), has(self.l2)].filter(x, x).size() >= 1)"),
               "x-vgc-plain-rule": "[has(self.l1), has(self.l2)].filter(x, x).size() >= 1",
               "x-vgc-tag": "k8s:unionMember"})
    );
    assert_eq!(
        named[2]["rule"],
        "(oldSelf.hasValue() && [(has(self.z1) && self.z1 != ''), (has(self.z2) && self.z2 != '')] == \
         [(has(oldSelf.value().z1) && oldSelf.value().z1 != ''), (has(oldSelf.value().z2) && oldSelf.value().z2 != '')]) \
         || ([(has(self.z1) && self.z1 != ''), (has(self.z2) && self.z2 != '')].filter(x, x).size() <= 1)"
    );

    assert_eq!(
        s("Delivery")["x-kubernetes-validations"],
        json!([{"fieldPath": ".insecure", "message": "may not be specified", "optionalOldSelf": true,
                "reason": "FieldValueForbidden",
                "rule": "(oldSelf.hasValue() && (has(self.secure) ? self.secure : false) == (has(oldSelf.value().secure) ? oldSelf.value().secure : false) && (has(self.insecure) == has(oldSelf.value().insecure) && (!has(self.insecure) || self.insecure == oldSelf.value().insecure))) || ((has(self.secure) ? self.secure : false) in [false] || !has(self.insecure))",
                "x-vgc-plain-rule": "(has(self.secure) ? self.secure : false) in [false] || !has(self.insecure)",
                "x-vgc-tag": "k8s:ifMode"}])
    );

    assert_eq!(
        s("Bytes")["properties"]["data"],
        json!({"format": "byte", "type": "string", "x-kubernetes-validations": [
            {"message": "must have at most 3 items", "reason": "FieldValueInvalid", "rule": "size(self) <= 3",
             "x-vgc-tag": "k8s:maxItems"},
            {"message": "must have at least 2 items", "reason": "FieldValueInvalid", "rule": "size(self) >= 2",
             "x-vgc-tag": "k8s:minItems"}]})
    );

    let holder = &s("TaskHolder")["x-kubernetes-validations"];
    assert_eq!(
        *holder,
        json!([{"fieldPath": ".tasks",
                "message": "must specify one of: `TaskList[{\"name\": \"succeeded\"}]`, `TaskList[{\"name\": \"failed\"}]`",
                "optionalOldSelf": true, "reason": "FieldValueInvalid",
                "rule": "(oldSelf.hasValue() && (!has(oldSelf.value().tasks) || !(\
                         oldSelf.value().tasks.exists(e, has(e.name) && e.name == 'succeeded') || \
                         oldSelf.value().tasks.exists(e, has(e.name) && e.name == 'failed')))) || (has(self.tasks))",
                "x-vgc-plain-rule": "has(self.tasks)", "x-vgc-tag": "k8s:item"}]),
        "{holder:#}"
    );

    // `eachVal=+k8s:update=NoModify`: on each value (a map value correlates by its key), not on a struct there is none of.
    assert_eq!(
        s("Labels")["properties"]["labels"]["additionalProperties"],
        json!({"type": "string", "x-kubernetes-validations": [
            {"message": "field cannot be modified once set", "reason": "FieldValueInvalid", "rule": "self == oldSelf",
             "x-vgc-tag": "k8s:update"}]})
    );

    // `item(…)=+k8s:immutable`: the item may be neither changed, added nor removed.
    assert_eq!(
        s("Frozen")["properties"]["items"]["x-kubernetes-validations"][0]["rule"],
        "self.all(e, !(has(e.name) && e.name == 'ready') || oldSelf.exists(o, (has(o.name) && o.name == 'ready') && o == e)) && \
         oldSelf.all(o, !(has(o.name) && o.name == 'ready') || self.exists(e, (has(e.name) && e.name == 'ready') && e == o))"
    );

    let e = s("EmbeddedPtr");
    assert!(e.get("required").is_none(), "{e:#}");
    assert_eq!(
        e["x-kubernetes-validations"][0],
        json!({"fieldPath": ".a", "message": "must be specified", "reason": "FieldValueRequired",
               "rule": "!(has(self.a) || has(self.b)) || has(self.a)",
               "x-vgc-tag": "k8s:required"})
    );
}

const MESSAGES_AND_SUBFIELDS: &str = r#"package v1

// TypeMeta makes Holder a kind (as metav1.TypeMeta does).
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// Meta is a member struct whose name has no tags of its own (as metav1.ObjectMeta's).
type Meta struct {
	Name string `json:"name,omitempty"`
}

// KMeta's kind is required.
type KMeta struct {
	// +k8s:required
	Kind string `json:"kind"`
}

// Holder is a kind.
type Holder struct {
	TypeMeta `json:",inline"`

	// No optional before the payload: upstream's Subfield hands the format the absent name's "".
	// +k8s:subfield(name)=+k8s:format=k8s-long-name
	Meta Meta `json:"meta"`

	// An optional first in the cohort: an unset name stops the payload.
	// +k8s:subfield(name)=+k8s:optional
	// +k8s:subfield(name)=+k8s:format=k8s-long-name
	Opt Meta `json:"opt"`

	// The member's own required, inherited: an unset kind stops the payload.
	// +k8s:subfield(kind)=+k8s:maxLength=4
	Kinded KMeta `json:"kinded"`

	// +k8s:required
	Count int32 `json:"count"`

	// +k8s:forbidden
	Gone *string `json:"gone,omitempty"`

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=key
	Keyed []Keyed `json:"keyed,omitempty"`

	// +k8s:optional
	F *Frozen `json:"f,omitempty"`

	// +k8s:optional
	G Frozen `json:"g,omitempty"`

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=key
	// +k8s:eachVal=+k8s:immutable
	Pins []Pin `json:"pins,omitempty"`

	// +k8s:optional
	// +k8s:monotonic
	Gen int64 `json:"gen,omitempty"`

	// +k8s:optional
	// +k8s:monotonic
	Rev *int32 `json:"rev,omitempty"`
}

// +k8s:immutable
type Frozen string

// Pin is keyed by key.
type Pin struct {
	// +k8s:required
	Key string `json:"key"`
}

// Keyed has a pointer key: uniqueness in CEL.
type Keyed struct {
	Key *string `json:"key,omitempty"`
}
"#;

/// Every CEL rule of `v` (anywhere below it), with where it is.
fn every_rule<'a>(v: &'a Value, at: &str, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "x-kubernetes-validations" {
                    for r in x.as_array().into_iter().flatten() {
                        out.push((at.to_string(), r));
                    }
                } else {
                    every_rule(x, &format!("{at}/{k}"), out);
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                every_rule(x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Issue 39's expressible differences: every rule carries a message (a CRD rule without one is reported as its CEL
/// text, "failed rule: …"); a `subfield`'s payload on a non-pointer scalar member checks the absent member's zero
/// unless an `optional`/`required` of the member comes first in its cohort (then it skips the unset member); JSON
/// Schema lists a ratcheted rule by its plain form.
#[test]
fn messages_subfield_zeros_and_plain_unexpressed_rules() {
    let (_tmp, plan) = plan_of(MESSAGES_AND_SUBFIELDS);
    let o = generate(&plan, &Options::default());
    let h = &o.schemas["test.vgc.openapi.v1.Holder"];
    let p = &h["properties"];

    let long = "!format.dns1123Subdomain().validate(self.name).hasValue()";
    let long_zero = "!format.dns1123Subdomain().validate('').hasValue()";
    let same = "(has(self.name) == has(oldSelf.value().name) && (!has(self.name) || self.name == oldSelf.value().name))";
    assert_eq!(
        p["meta"]["x-kubernetes-validations"],
        json!([{"fieldPath": ".name", "message": "must be a lowercase RFC 1123 subdomain",
                "optionalOldSelf": true, "reason": "FieldValueInvalid",
                "rule": format!("(oldSelf.hasValue() && {same}) || (has(self.name) ? ({long}) : ({long_zero}))"),
                "x-vgc-plain-rule": format!("has(self.name) ? ({long}) : ({long_zero})"),
                "x-vgc-tag": "k8s:subfield(name)=k8s:format"}]),
        "{:#}",
        p["meta"]
    );
    assert_eq!(
        p["opt"]["x-kubernetes-validations"][0]["x-vgc-plain-rule"],
        format!("!(has(self.name) && self.name != '') || ({long})")
    );
    // 1.38 runs the payload on the member whatever the member's own tags (kubernetes#141945): the zero is checked.
    assert_eq!(
        p["kinded"]["x-kubernetes-validations"][0]["x-vgc-plain-rule"],
        "has(self.kind) ? (size(self.kind) <= 4) : (size('') <= 4)",
        "{:#}",
        p["kinded"]
    );
    // 1.37 inherits the member's `required` before the payload: an unset kind stops it.
    let (_tmp37, plan37) = plan_under(MESSAGES_AND_SUBFIELDS, Some("1.37"));
    let o37 = generate(&plan37, &Options::default());
    assert_eq!(
        o37.schemas["test.vgc.openapi.v1.Holder"]["properties"]["kinded"]["x-kubernetes-validations"]
            [0]["x-vgc-plain-rule"],
        "!(has(self.kind) && self.kind != '') || (size(self.kind) <= 4)"
    );

    // A scalar typedef's `immutable`: on the value, and its set-ness on the struct (upstream compares a value set
    // on an update with the old nil or zero).
    assert_eq!(
        p["f"]["x-kubernetes-validations"][0]["rule"],
        "self == oldSelf"
    );
    let frozen: Vec<&Value> = rules(h, "k8s:immutable");
    assert_eq!(
        frozen,
        [
            &json!({"fieldPath": ".f", "message": "field is immutable", "reason": "FieldValueInvalid",
                    "rule": "has(self.f) == has(oldSelf.f)", "x-vgc-tag": "k8s:immutable"}),
            &json!({"fieldPath": ".g", "message": "field is immutable", "reason": "FieldValueInvalid",
                    "rule": "has(self.g) == has(oldSelf.g) || !(has(self.g) && self.g != '') || (has(oldSelf.g) && oldSelf.g != '')",
                    "x-vgc-tag": "k8s:immutable"})
        ],
        "{h:#}"
    );
    // `eachVal=+k8s:immutable`: each item against its old item, and no item added (upstream compares it with nil).
    assert_eq!(
        rules(h, "k8s:eachVal=k8s:immutable"),
        [
            &json!({"fieldPath": ".pins", "message": "field is immutable", "reason": "FieldValueInvalid",
                 "rule": "!has(self.pins) || self.pins.all(e, has(oldSelf.pins) && oldSelf.pins.exists(o, (has(o.key) == has(e.key) && (!has(o.key) || o.key == e.key))))",
                 "x-vgc-tag": "k8s:eachVal=k8s:immutable"})
        ],
        "{h:#}"
    );
    assert_eq!(
        p["pins"]["items"]["x-kubernetes-validations"][0]["rule"],
        "self == oldSelf"
    );

    // `monotonic` of an optional non-pointer field: its zero is not compared, and an absent value is Go's zero.
    assert_eq!(
        rules(&p["gen"], "k8s:monotonic"),
        [
            &json!({"messageExpression": "'may not be decreased from ' + string(oldSelf)",
                 "reason": "FieldValueInvalid", "rule": "self == 0 || (self >= oldSelf)",
                 "x-vgc-tag": "k8s:monotonic"})
        ]
    );
    assert_eq!(
        rules(h, "k8s:monotonic"),
        [&json!({"fieldPath": ".gen",
                 "messageExpression": "'may not be decreased from ' + string((has(oldSelf.gen) ? oldSelf.gen : 0))",
                 "reason": "FieldValueInvalid",
                 "rule": "(has(self.gen) && has(oldSelf.gen)) || !has(self.gen) || self.gen == 0 || (has(self.gen) ? self.gen : 0) >= (has(oldSelf.gen) ? oldSelf.gen : 0)",
                 "x-vgc-tag": "k8s:monotonic"})],
        "a pointer (upstream skips nil) has no rule on the struct"
    );
    assert_eq!(
        rules(&p["rev"], "k8s:monotonic")[0]["rule"],
        "self >= oldSelf"
    );

    // Upstream's required/forbidden carry no detail; the rule says what the error type says.
    let req = rules(h, "k8s:required");
    assert_eq!(req.len(), 1, "{h:#}");
    assert_eq!(req[0]["message"], "must be specified");
    assert_eq!(
        rules(h, "k8s:forbidden")[0]["message"],
        "may not be specified"
    );
    assert_eq!(
        rules(&p["keyed"], "k8s:listMapKey")
            .first()
            .or(rules(&p["keyed"], "k8s:listType").first())
            .map(|r| (&r["reason"], &r["message"])),
        Some((&json!("FieldValueDuplicate"), &json!("Duplicate value"))),
        "{:#}",
        p["keyed"]
    );
    // No rule of this fixture's schemas, nor of the main fixture's, lacks a message.
    let (_tmp2, plan2) = plan_of(TYPES);
    let o2 = generate(&plan2, &Options::default());
    let mut all = Vec::new();
    for (name, s) in o.schemas.iter().chain(o2.schemas.iter()) {
        every_rule(s, name, &mut all);
    }
    assert!(all.len() >= 15, "{}", all.len());
    let silent: Vec<&(String, &Value)> = all
        .iter()
        .filter(|(_, r)| {
            r.get("message")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
                && r.get("messageExpression").is_none()
        })
        .collect();
    assert!(silent.is_empty(), "rules without a message: {silent:#?}");

    // JSON Schema lists the forbidden rule by its plain form (a manifest has no old object).
    let kinds = vgc_openapi::jsonschema::kinds_of_plan(&plan, &o);
    let js = vgc_openapi::jsonschema::json_schemas(&o.schemas, &kinds);
    let file = &js.files[0].json;
    let listed: Vec<&Value> = file["x-vgc-unexpressed"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|u| u["rule"] == "k8s:forbidden")
        .collect();
    assert_eq!(
        listed,
        [&json!({"cel": "!has(self.gone)", "path": "",
                 "reason": "a CEL rule (x-kubernetes-validations): JSON Schema cannot state it",
                 "rule": "k8s:forbidden"})],
        "{:#}",
        file["x-vgc-unexpressed"]
    );
}

const COSTLY_FORMATS: &str = r#"package v1

// TypeMeta makes Pool a kind.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// Pool is a kind.
type Pool struct {
	TypeMeta `json:",inline"`

	// +k8s:optional
	// +k8s:format=k8s-resource-pool-name
	Pool *string `json:"pool,omitempty"`

	// +k8s:optional
	// +k8s:format=k8s-resource-fully-qualified-name
	Name *string `json:"name,omitempty"`

	// +k8s:optional
	// +k8s:maxItems=16
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "Approved")=+k8s:zeroOrOneOfMember
	// +k8s:item(type: "Denied")=+k8s:zeroOrOneOfMember
	Conditions []Condition `json:"conditions,omitempty"`
}

// Condition is a list-map item.
type Condition struct {
	// +k8s:required
	// +k8s:maxLength=32
	Type string `json:"type"`
}
"#;

/// The CEL forms said for the API server's cost estimate (docs/openapi.md "The cost budget"; one run's cost by vgc's
/// estimate, which `openapi_cost` holds equal to the API server's): `k8s-resource-pool-name` one `matches` instead of
/// `split('/')` (3,311,473 a run -> 1,840 at its 253-character bound), `k8s-resource-fully-qualified-name` three (two
/// from 1.38; 6,291,463 on a string of no bound), and 1.38's bounded at 96 characters (a 63-character prefix, `/`, a
/// 32-character name): 626. A list union on a struct's field sits on the struct, where the ratchet's
/// `oldSelf.value().conditions` has the field's size (618 a run; on the list, `oldSelf.value().exists(…)` has none
/// and the estimate saturates: CertificateSigningRequest's `conditions`), skipped only where the old list is present.
#[test]
fn formats_said_within_the_cost_budget() {
    // A subdomain: an alphanumeric, then each alphanumeric after dashes or a dot.
    let sub = r"[a-z0-9](-*[a-z0-9]|\.[a-z0-9])*";
    let two =
        format!(r"self.matches(r'^[^/]{{1,63}}/') && self.matches(r'^{sub}/[A-Za-z_]\w{{0,31}}$')");
    let per_run = |o: &Output| -> Vec<(String, Option<u64>)> {
        let spec = vgc_openapi::cost::inline_component(&o.schemas, "test.vgc.openapi.v1.Pool")
            .expect("schema");
        let c = vgc_openapi::cost::crd_schema(&vgc_openapi::cost::crd_root(spec));
        c.rules
            .iter()
            .map(|r| (r.path.clone(), r.per_call.clone().ok()))
            .collect()
    };
    for (release, fqn, max, costs) in [
        (
            Some("1.37"),
            format!("self.matches(r'^[^/]*/[^/]*/') || ({two})"),
            None,
            [6_291_463, 1_840, 618],
        ),
        (None, two.clone(), Some(96), [626, 1_840, 618]),
    ] {
        let (_tmp, plan) = plan_under(COSTLY_FORMATS, release);
        let o = generate(&plan, &Options::default());
        let p = &o.schemas["test.vgc.openapi.v1.Pool"]["properties"];
        assert_eq!(
            rules(&p["pool"], "k8s:format")[0]["rule"],
            format!("size(self) <= 253 && self.matches(r'^{sub}(/{sub})*$')"),
            "{release:?}"
        );
        assert_eq!(p["pool"]["maxLength"], 253);
        assert_eq!(
            rules(&p["name"], "k8s:format")[0]["rule"],
            fqn,
            "{release:?}"
        );
        assert_eq!(p["name"].get("maxLength").and_then(Value::as_i64), max);
        let pool = &o.schemas["test.vgc.openapi.v1.Pool"];
        let has = |l: &str, t: &str| {
            format!("(has({l}) && {l}.exists(e, has(e.type) && e.type == '{t}'))")
        };
        let (new, old) = ("self.conditions", "oldSelf.value().conditions");
        let plain = format!(
            "!has(self.conditions) || ([{}, {}].filter(x, x).size() <= 1)",
            has(new, "Approved"),
            has(new, "Denied")
        );
        assert_eq!(
            rules(pool, "k8s:item"),
            [&json!({"fieldPath": ".conditions",
                "message": "must specify at most one of: `conditions[{\"type\": \"Approved\"}]`, `conditions[{\"type\": \"Denied\"}]`",
                "optionalOldSelf": true, "reason": "FieldValueInvalid",
                "rule": format!("(oldSelf.hasValue() && has({old}) && [{}, {}] == [{}, {}]) || ({plain})",
                    has(new, "Approved"), has(new, "Denied"), has(old, "Approved"), has(old, "Denied")),
                "x-vgc-plain-rule": plain, "x-vgc-tag": "k8s:item"})],
            "{pool:#}"
        );
        assert!(p["conditions"].get("x-kubernetes-validations").is_none());
        assert_eq!(
            per_run(&o),
            [
                (".spec".to_string(), Some(costs[2])),
                (".spec.conditions[*]".to_string(), Some(18)),
                (".spec.name".to_string(), Some(costs[0])),
                (".spec.pool".to_string(), Some(costs[1]))
            ],
            "{release:?}"
        );
    }
}
