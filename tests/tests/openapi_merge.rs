//! `vgc openapi --merge` over k8s.io/kubernetes v1.37.2's own `api/openapi-spec/v3` (issue 39's round-trip proof):
//! the rules of k8s.io/api v0.37.2 (both fetched through the Go module proxy) are added to every spec file, and the
//! test asserts, structurally and over the whole spec, that every key and value of the original is in the merged
//! file unchanged and that every key the merged file adds is a rule key — an OpenAPI keyword a rule maps to,
//! `x-kubernetes-validations`, or vgc's `x-vgc-unexpressed`/`x-vgc-stability` — with the rule keys it adds counted
//! by key. The list of rule keys is this test's own, not the backend's. It also checks that rules did land (a floor
//! on the CEL rules and keywords added) and that every one of vgc's schemas with rules that the spec serves was
//! found.
//!
//! The call is the one `vgc openapi <k8s.io/api> --merge <spec> --out <dir>` makes (`vgc_driver::openapi`), with no
//! option fixed and every stability level exported.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use vgc_tests::harness::download_module;

/// The keys a merge may add: the keywords vgc's rules map to, CEL rules and vgc's two extension keys.
const ADDABLE: &[&str] = &[
    "enum",
    "format",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "required",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-validations",
    "x-vgc-unexpressed",
    "x-vgc-stability",
];

/// Checks that `merged` holds every key and value of `orig` unchanged, and that what it adds is in [`ADDABLE`];
/// counts the added keys. Problems are pushed onto `bad` with their JSON path.
fn only_added(
    orig: &Value,
    merged: &Value,
    path: &str,
    added: &mut BTreeMap<String, usize>,
    bad: &mut Vec<String>,
) {
    match (orig, merged) {
        (Value::Object(o), Value::Object(m)) => {
            for (k, ov) in o {
                match m.get(k) {
                    Some(mv) => only_added(ov, mv, &format!("{path}/{k}"), added, bad),
                    None => bad.push(format!("{path}/{k}: removed")),
                }
            }
            for k in m.keys().filter(|k| !o.contains_key(*k)) {
                if ADDABLE.contains(&k.as_str()) {
                    *added.entry(k.clone()).or_default() += 1;
                } else {
                    bad.push(format!("{path}/{k}: added, and not a rule key"));
                }
            }
        }
        (Value::Array(o), Value::Array(m)) => {
            if o.len() != m.len() {
                bad.push(format!("{path}: array of {} became {}", o.len(), m.len()));
                return;
            }
            for (i, (a, b)) in o.iter().zip(m).enumerate() {
                only_added(a, b, &format!("{path}/{i}"), added, bad);
            }
        }
        (a, b) => {
            if a != b {
                bad.push(format!("{path}: {a} became {b}"));
            }
        }
    }
}

#[test]
fn merge_into_kubernetes_openapi_spec_adds_only_rule_keys() {
    if vgc_tests::tier::skip_slow(vgc_tests::tier::NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (api, _) = download_module("k8s.io/api@v0.37.2", tmp.path());
    let (k8s, _) = download_module("k8s.io/kubernetes@v1.37.2", tmp.path());
    let spec = Path::new(&k8s).join("api/openapi-spec/v3");
    let out = tmp.path().join("merged");
    let req = vgc_driver::openapi::OpenApiRequest {
        build: vgc_driver::BuildRequest::check(api.clone(), Vec::new()),
        out: out.clone(),
        merge: Some(spec.clone()),
        options: vgc_driver::openapi::Options::default(),
        force: false,
        no_cache: false,
        cache_dir: None,
    };
    let outcome = vgc_driver::openapi::openapi(&req);
    assert_eq!(outcome.build.errors(), 0, "{:?}", outcome.build.diagnostics);
    assert!(outcome.io_error.is_none(), "{:?}", outcome.io_error);
    let merge = outcome.merge.as_ref().expect("a merge summary");
    let mut names: Vec<String> = std::fs::read_dir(&spec)
        .expect("spec dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert_eq!(merge.files, names.len());
    assert_eq!(
        outcome.files, names,
        "one merged file per spec file, same names"
    );
    let mut added = BTreeMap::new();
    let mut bad = Vec::new();
    let mut schemas = 0;
    for n in &names {
        let orig: Value =
            serde_json::from_slice(&std::fs::read(spec.join(n)).expect("read")).expect("JSON");
        let merged: Value =
            serde_json::from_slice(&std::fs::read(out.join(n)).expect("read merged"))
                .expect("merged JSON");
        schemas += orig["components"]["schemas"]
            .as_object()
            .map_or(0, serde_json::Map::len);
        only_added(&orig, &merged, n, &mut added, &mut bad);
    }
    assert!(
        bad.is_empty(),
        "{} changes that are not rule additions, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
    let o = outcome.output.as_ref().expect("output");
    eprintln!(
        "merged into {} spec files ({schemas} schemas, {} of them vgc's): added {added:?}; {} kept as the spec had them, {} places the spec lacks, {} schemas with rules the spec lacks; {} rules expressed, {} not expressed",
        names.len(),
        merge.matched.len(),
        merge.kept.len(),
        merge.missing.len(),
        merge.unmatched.len(),
        o.expressed,
        o.unexpressed.len()
    );
    for k in &merge.kept {
        eprintln!("  kept: {k}");
    }
    for k in merge.missing.iter().chain(&merge.unmatched) {
        eprintln!("  no place: {k}");
    }
    // Rules did land: CEL rules and keywords on the spec's schemas.
    assert!(
        added.get("x-kubernetes-validations").copied().unwrap_or(0) >= 50,
        "{added:?}"
    );
    assert!(
        added.get("minimum").copied().unwrap_or(0) >= 10,
        "{added:?}"
    );
    // The spec serves the group/versions k8s.io/api declares; the schemas it lacks are only those of kinds the
    // API server does not serve in its OpenAPI (listed above), never a served type vgc's rules could not reach.
    assert!(merge.matched.len() > 500, "{}", merge.matched.len());
}
