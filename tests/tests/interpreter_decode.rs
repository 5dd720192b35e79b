//! `Interpreter::decode_for_create` (what `Interpreter::validate` decodes when there is no old object) against
//! `Interpreter::decode`: the same decode errors for the same input, the values the checks read built, the rest
//! left as `Val::Nil`; and validation through it gives what validating the full value gives.

use serde_json::{Value, json};
use vgc::driver::BuildRequest;
use vgc_runtime::Operation;
use vgc_validate::{EvalError, Interpreter, Val};

/// The package tag, in `doc.go` (where gengo reads package comments).
const DOC: &str = "// +k8s:validation-gen=TypesWithField=Spec\npackage p\n";

const TYPES: &str = r#"package p

type Widget struct {
	Kind string `json:"kind,omitempty"`
	Spec WidgetSpec `json:"spec"`
	Status Other `json:"status"`
}

type WidgetSpec struct {
	// +k8s:optional
	// +k8s:maxLength=3
	Name string `json:"name,omitempty"`
	Notes Other `json:"notes"`
	// +k8s:optional
	// +k8s:listType=atomic
	Items []Item `json:"items,omitempty"`
	Pick Choice `json:"pick"`
}

type Other struct {
	X string `json:"x"`
	Y []int32 `json:"y"`
}

type Item struct {
	// +k8s:optional
	// +k8s:minimum=1
	N int32 `json:"n"`
	Extra Other `json:"extra"`
}

type Choice struct {
	// +k8s:optional
	// +k8s:unionMember
	A *Other `json:"a,omitempty"`
	// +k8s:optional
	// +k8s:unionMember
	B *Other `json:"b,omitempty"`
	Note Other `json:"note"`
}
"#;

fn api() -> (tempfile::TempDir, vgc::BuildOutcome) {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("go.mod"),
        "module example.com/dec\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::create_dir(tmp.path().join("p")).expect("p");
    std::fs::write(tmp.path().join("p/doc.go"), DOC).expect("doc.go");
    std::fs::write(tmp.path().join("p/types.go"), TYPES).expect("types.go");
    let built = vgc::build(&BuildRequest {
        path: tmp.path().to_string_lossy().into_owned(),
        check_only: true,
        no_cache: true,
        ..Default::default()
    });
    assert_eq!(built.errors(), 0, "{:?}", built.diagnostics);
    (tmp, built)
}

/// The key of the `Widget` root.
fn widget(interp: &Interpreter<'_>) -> vgc_analysis::TypeKey {
    interp
        .roots()
        .into_iter()
        .find(|t| t.key.name == "Widget")
        .map(|t| t.key.clone())
        .expect("the Widget root")
}

/// Field `name` (Go) of struct value `v`.
fn field<'a, 'p>(v: &'a Val<'p>, name: &str) -> &'a Val<'p> {
    v.field(name)
        .unwrap_or_else(|| panic!("no field {name} in {v:?}"))
}

#[test]
fn a_create_decodes_what_its_checks_read() {
    let (_tmp, built) = api();
    let interp = Interpreter::new(&built.plan);
    let key = widget(&interp);
    let doc = json!({
        "kind": "Widget",
        "spec": {
            "name": "abcd",
            "notes": {"x": "n", "y": [1]},
            "items": [{"n": -1, "extra": {"x": "e"}}],
            "pick": {"a": {"x": "a"}, "b": {"x": "b"}, "note": {"x": "z"}}
        },
        "status": {"x": "s"}
    });
    let full = interp.decode(&key, &doc).expect("decodes");
    let sparse = interp.decode_for_create(&key, &doc).expect("decodes");

    // Full: every struct built.
    assert!(matches!(field(&full, "Status"), Val::Struct(..)));
    assert!(matches!(
        field(field(&full, "Spec"), "Notes"),
        Val::Struct(..)
    ));

    // For a create: no checks read `status` or `spec.notes`; `spec.name` has checks; `spec.items` has checks
    // (built whole, `extra` included); `spec.pick` is a union: its members are read, `note` is not.
    let spec = field(&sparse, "Spec");
    assert!(matches!(field(&sparse, "Status"), Val::Nil));
    assert!(matches!(field(spec, "Notes"), Val::Nil));
    assert_eq!(field(spec, "Name").as_str(), Some("abcd"));
    let Val::List(items) = field(spec, "Items") else {
        panic!("items: {:?}", field(spec, "Items"))
    };
    assert!(matches!(field(&items[0], "Extra"), Val::Struct(..)));
    let pick = field(spec, "Pick");
    assert!(matches!(field(pick, "A"), Val::Struct(..)));
    assert!(matches!(field(pick, "B"), Val::Struct(..)));
    assert!(matches!(field(pick, "Note"), Val::Nil));

    // Validating either value gives the same errors (upstream's messages: maxLength, minimum, union).
    let op = Operation::create();
    let t = interp.type_plan(&key).expect("plan");
    let lines = |v: &Val<'_>| -> Vec<String> {
        interp
            .validate_values(t, v, None, &op, true)
            .expect("validates")
            .iter()
            .map(|e| format!("{}: {}", e.field, e.body()))
            .collect()
    };
    let got = lines(&sparse);
    assert_eq!(got, lines(&full));
    assert_eq!(got.len(), 3, "{got:#?}");
    assert!(got[0].starts_with("spec.name: Too long"), "{got:#?}");
}

#[test]
fn a_create_checks_the_json_types_of_what_it_does_not_build() {
    let (_tmp, built) = api();
    let interp = Interpreter::new(&built.plan);
    let key = widget(&interp);
    let decode_error = |r: Result<Val<'_>, EvalError>| match r {
        Err(EvalError::Decode(d)) => (d.pointer, d.message),
        other => panic!("expected a decode error, got {other:?}"),
    };
    // Wrong JSON types where nothing is built (status, spec.notes, spec.pick.note, a list item of a field with
    // no checks), and where values are built: the same first error, at the same place, with the same words.
    let docs: Vec<Value> = vec![
        json!({"status": {"x": 5}}),
        json!({"status": {"y": ["a"]}}),
        json!({"status": "s"}),
        json!({"spec": {"notes": {"y": [1, 2.5]}}}),
        json!({"spec": {"pick": {"note": {"x": true}}}}),
        json!({"spec": {"pick": {"a": {"x": 1}}, "notes": {"x": 2}}}),
        json!({"spec": {"name": 7, "notes": {"x": 2}}}),
        json!({"spec": {"items": [{"n": "one"}]}, "status": {"x": 1}}),
        json!({"spec": {"notes": {"y": [4_294_967_296_i64]}}}),
    ];
    for doc in &docs {
        let full = decode_error(interp.decode(&key, doc));
        let sparse = decode_error(interp.decode_for_create(&key, doc));
        assert_eq!(full, sparse, "{doc}");
    }
    assert_eq!(
        decode_error(interp.decode_for_create(&key, &docs[0])),
        (
            "/status/x".to_string(),
            "expected a string, got an integer 5".to_string()
        )
    );
    // And `validate` reports them for a create as for an update.
    let op = Operation::create();
    match interp.validate(&key, &docs[3], None, &op) {
        Err(EvalError::Decode(d)) => assert_eq!(d.pointer, "/spec/notes/y/1"),
        other => panic!("{other:?}"),
    }
}
