//! The generated crate's GVK dispatch (`registry`): the kinds table, each dispatch error, and the API server's
//! Status for a denied object built from the dispatched errors.

use serde_json::json;
use vgc_example_generated::registry::{self, DispatchError, KINDS, Kind};
use vgc_runtime::Operation;

#[test]
fn kinds_are_the_structs_embedding_type_meta_with_their_group() {
    let listed: Vec<String> = KINDS
        .iter()
        .map(|k| format!("{} {}", k.api_version(), k.kind))
        .collect();
    assert_eq!(
        listed,
        [
            "widgets.example.com/v1 Gadget",
            "widgets.example.com/v1 Widget"
        ]
    );
    assert_eq!(
        Kind::lookup("widgets.example.com/v1", "Widget"),
        Some(&Kind {
            group: "widgets.example.com",
            version: "v1",
            kind: "Widget"
        })
    );
    assert_eq!(Kind::lookup("v1", "Widget"), None);
    assert_eq!(Kind::lookup("widgets.example.com/v2", "Widget"), None);
    // Only the spellings `validate_object` dispatches: no leading or extra `/`.
    assert_eq!(Kind::lookup("/widgets.example.com/v1", "Widget"), None);
    assert_eq!(Kind::lookup("widgets.example.com/v1/", "Widget"), None);
}

#[test]
fn an_old_object_of_another_kind_is_refused() {
    let new = json!({"apiVersion": "widgets.example.com/v1", "kind": "Widget"});
    let old = json!({"apiVersion": "widgets.example.com/v1", "kind": "Gadget"});
    let op = Operation::update();
    match registry::validate_value(&new, Some(&old), &op) {
        Err(e @ DispatchError::OldKindMismatch { .. }) => assert_eq!(
            e.to_string(),
            "the old object is a Gadget of apiVersion widgets.example.com/v1, not of the object's kind"
        ),
        other => panic!("{other:?}"),
    }
    // An old object without apiVersion/kind is taken as the object's kind.
    assert!(registry::validate_value(&new, Some(&json!({})), &op).is_ok());
}

#[test]
fn an_object_is_validated_by_its_own_api_version_and_kind() {
    let object = json!({
        "apiVersion": "widgets.example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w1"},
        "spec": {"displayName": "web", "replicas": -1, "ports": [{"name": "http", "number": 80}]}
    });
    let errs = registry::validate_value(&object, None, &Operation::create()).expect("dispatched");
    let lines: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        ["spec.replicas: Invalid value: -1: must be greater than or equal to 1"]
    );
    // The same object, denied as the API server answers: 422 Invalid with one cause.
    let kind = Kind::lookup("widgets.example.com/v1", "Widget").expect("kind");
    let status = vgc_runtime::status::invalid(kind.group, kind.kind, "w1", &errs);
    assert_eq!(
        status.to_json(),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Widget.widgets.example.com \"w1\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 1","reason":"Invalid","details":{"name":"w1","group":"widgets.example.com","kind":"Widget","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: -1: must be greater than or equal to 1","field":"spec.replicas"}]},"code":422}"#
    );
}

#[test]
fn an_update_compares_with_the_old_object() {
    let old = json!({"kind": "Widget", "spec": {"displayName": "web", "ports": [{"name": "p", "number": 1}]}});
    let new = json!({"kind": "Widget", "spec": {"displayName": "web", "ports": [{"name": "p", "number": 1}]}});
    let errs = registry::validate_object(
        "widgets.example.com/v1",
        "Widget",
        &new,
        Some(&old),
        &Operation::update(),
    )
    .expect("dispatched");
    assert!(errs.is_empty(), "{errs:?}");
}

#[test]
fn dispatch_errors_are_typed() {
    let op = Operation::create();
    match registry::validate_value(&json!({"kind": "Widget"}), None, &op) {
        Err(DispatchError::NotAnObject(why)) => {
            assert_eq!(
                why,
                "an object must have non-empty string apiVersion and kind"
            );
        }
        other => panic!("{other:?}"),
    }
    match registry::validate_value(&json!([1]), None, &op) {
        Err(DispatchError::NotAnObject(_)) => {}
        other => panic!("{other:?}"),
    }
    let unknown = registry::validate_value(
        &json!({"apiVersion": "apps/v1", "kind": "Deployment"}),
        None,
        &op,
    );
    match &unknown {
        Err(DispatchError::UnknownKind { api_version, kind }) => {
            assert_eq!(
                (api_version.as_str(), kind.as_str()),
                ("apps/v1", "Deployment")
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        unknown.unwrap_err().to_string(),
        "unknown kind Deployment of apiVersion apps/v1"
    );
    let wrong = json!({"apiVersion": "widgets.example.com/v1", "kind": "Widget", "spec": {"replicas": "three"}});
    match registry::validate_value(&wrong, None, &op) {
        Err(e @ DispatchError::Decode { old: false, .. }) => {
            assert!(
                e.to_string().starts_with(
                    "the object does not decode at spec.replicas: invalid type: string \"three\""
                ),
                "{e}"
            );
            assert!(std::error::Error::source(&e).is_some());
        }
        other => panic!("{other:?}"),
    }
    let good = json!({"apiVersion": "widgets.example.com/v1", "kind": "Widget"});
    match registry::validate_value(&good, Some(&wrong), &Operation::update()) {
        Err(DispatchError::Decode { old: true, .. }) => {}
        other => panic!("{other:?}"),
    }
}
