//! Real-input cases against the crate vgc generated from k8s.io/api. Each case names the root type, gives the
//! object (and the old object for updates) and the exact expected errors, one line each:
//! `<field> | <ErrorBody> | origin=<origin> | sc=<short-circuit> | <alpha|beta|->`.

use vgc_runtime::{Error, Operation, Validate};

fn line(e: &Error) -> String {
    let st = match e.stability {
        Some(vgc_runtime::StabilityLevel::Alpha) => "alpha",
        Some(vgc_runtime::StabilityLevel::Beta) => "beta",
        None => "-",
    };
    format!("{} | {} | origin={} | sc={} | {st}", e.field, e.body(), e.origin, e.short_circuit)
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    kind: String,
    object: serde_json::Value,
    #[serde(default)]
    old: Option<serde_json::Value>,
    /// Validation options defined for the operation (absent ones are undefined).
    #[serde(default)]
    options: std::collections::BTreeMap<String, bool>,
    /// Subresource path segments of the request.
    #[serde(default)]
    subresources: Vec<String>,
    expect: Vec<String>,
}

fn run<T: Validate + serde::de::DeserializeOwned>(c: &Case) -> Vec<String> {
    let obj: T = serde_json::from_value(c.object.clone()).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    let old: Option<T> = c.old.clone().map(|o| serde_json::from_value(o).unwrap_or_else(|e| panic!("{}: {e}", c.name)));
    let mut op = if old.is_some() { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    obj.validate(old.as_ref(), &op).iter().map(line).collect()
}

#[test]
fn real_objects() {
    let cases: Vec<Case> = serde_json::from_str(include_str!("cases.json")).expect("cases.json");
    let mut failures = Vec::new();
    for c in &cases {
        let got = match c.kind.as_str() {
            "ReplicationController" => run::<k8s_generated::core::v1::ReplicationController>(c),
            "Deployment" => run::<k8s_generated::apps::v1::Deployment>(c),
            "CertificateSigningRequest" => run::<k8s_generated::certificates::v1::CertificateSigningRequest>(c),
            "ResourceClaim" => run::<k8s_generated::resource::v1::ResourceClaim>(c),
            "DeviceAttribute" => run::<k8s_generated::resource::v1::DeviceAttribute>(c),
            "ResourceSlice" => run::<k8s_generated::resource::v1::ResourceSlice>(c),
            other => panic!("unknown kind {other}"),
        };
        if got != c.expect {
            failures.push(format!("case {:?}:\n  want {:#?}\n  got  {:#?}", c.name, c.expect, got));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
