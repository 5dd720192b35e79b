//! The included validators behave as the `vgc build` crate of the same API (`tests/example-generated`).

use serde_json::json;
use vgc_build_example::registry;
use vgc_build_example::widgets::v1::Widget;
use vgc_runtime::{Operation, Validate};

#[test]
fn a_typed_object_validates() {
    let w: Widget = serde_json::from_value(
        json!({"spec": {"displayName": "Not_OK", "ports": [{"name": "p", "number": 1}]}}),
    )
    .expect("decodes");
    let errs: Vec<String> = w
        .validate(None, &Operation::create())
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        [
            "spec.displayName: Invalid value: \"Not_OK\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        ]
    );
}

#[test]
fn objects_dispatch_by_api_version_and_kind() {
    let object = json!({
        "apiVersion": "widgets.example.com/v1",
        "kind": "Widget",
        "spec": {"displayName": "web", "replicas": 0, "ports": [{"name": "http", "number": 80}]}
    });
    let errs: Vec<String> = registry::validate_value(&object, None, &Operation::create())
        .expect("dispatched")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.replicas: Invalid value: 0: must be greater than or equal to 1"]
    );
    let kinds: Vec<&str> = registry::KINDS.iter().map(|k| k.kind).collect();
    assert_eq!(kinds, ["Gadget", "Widget"]);
}
