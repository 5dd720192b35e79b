//! List kinds (`ConfigMapList`): the `<Kind>List` schema of each kind whose package declares one, as kube-openapi
//! writes it into k8s.io/kubernetes' `api/openapi-spec/v3` (`io.k8s.api.core.v1.ConfigMapList`: `apiVersion`,
//! `kind`, `metadata` of `io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta` and `items`, a list of the kind, the only
//! required property). The plan has no list types (validation-gen selects no root embedding `ListMeta` from 1.36
//! on, and nothing references them), so the driver finds them in the packages' Go files and [`add_list_kinds`] writes
//! their schemas: a client validating a `ConfigMapList` manifest (kubeconform) then checks each item by its kind's
//! rules.

use crate::builder::REF_PREFIX;
use crate::{Output, schema_name};
use serde_json::{Value, json};
use vgc_analysis::TypeKey;

/// kube-openapi's name of `metav1.ListMeta`'s schema.
pub const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

/// `metav1.ListMeta`'s schema as k8s.io/kubernetes v1.37.2's spec has it, without descriptions (it has no rule).
fn list_meta() -> Value {
    json!({
        "type": "object",
        "properties": {
            "continue": {"type": "string"},
            "remainingItemCount": {"type": "integer", "format": "int64"},
            "resourceVersion": {"type": "string"},
            "selfLink": {"type": "string"},
        }
    })
}

/// The schema of a list of the kind whose schema is `item`.
fn list_schema(item: &str) -> Value {
    json!({
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"$ref": format!("{REF_PREFIX}{LIST_META}")},
            "items": {"type": "array", "items": {"$ref": format!("{REF_PREFIX}{item}")}},
        }
    })
}

/// A kind whose package declares its list type (`ConfigMap`, whose package has `ConfigMapList`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListedKind {
    /// The kind's Go type.
    pub key: TypeKey,
    /// Its API group (`""` for the core group).
    pub group: String,
    /// Its version.
    pub version: String,
}

/// Adds to `out` the schema `<kind>List` of each kind of `kinds` (a kind whose package declares a `<Kind>List`
/// struct with an `Items` field: the driver's finding), in [`Output::schemas`] and in the document of the kind's
/// group and version, with every schema it references that the document lacks ([`LIST_META`]; the kind's variant
/// without transition rules, [`crate::UNCORRELATED_SUFFIX`]: a list kind's `items` is not a list-map, so the API
/// server finds no old item there, and `correlate` redirects the reference as it does for every such list). Each
/// list kind added is recorded in [`Output::lists`], each schema added to a document in [`Output::list_additions`]. A kind without a document or a schema, or whose list name a
/// schema already has, is skipped.
pub fn add_list_kinds(out: &mut Output, kinds: &[ListedKind]) {
    let mut added: Vec<(&ListedKind, String)> = Vec::new();
    for k in kinds {
        let item = schema_name(&k.key);
        let list = format!("{item}List");
        if out.schemas.contains_key(&list)
            || !out.schemas.contains_key(&item)
            || !out
                .documents
                .iter()
                .any(|d| d.group == k.group && d.version == k.version)
        {
            continue;
        }
        out.schemas.insert(list.clone(), list_schema(&item));
        added.push((k, list));
    }
    if added.is_empty() {
        return;
    }
    out.schemas
        .entry(LIST_META.to_string())
        .or_insert_with(list_meta);
    // The new references below the lists' items, redirected where the kind holds transition rules.
    out.unexpressed
        .extend(crate::correlate::finish(&mut out.schemas));
    out.unexpressed.sort();
    out.unexpressed.dedup();
    for (k, list) in added {
        let Some(doc) = out
            .documents
            .iter_mut()
            .find(|d| d.group == k.group && d.version == k.version)
        else {
            continue;
        };
        let Some(comps) = doc
            .json
            .pointer_mut("/components/schemas")
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let mut stack = vec![list.clone()];
        while let Some(n) = stack.pop() {
            if comps.contains_key(&n) {
                continue;
            }
            let Some(s) = out.schemas.get(&n) else {
                continue;
            };
            crate::builder::refs(s, &mut stack);
            comps.insert(n.clone(), s.clone());
            out.list_additions.push((doc.file.clone(), n));
        }
        crate::sort_keys(&mut doc.json);
        out.lists.push(list);
    }
    out.lists.sort();
    out.lists.dedup();
    out.list_additions.sort();
}

/// The component names of `out`'s documents as they were before [`add_list_kinds`] (what the cost estimate of
/// `vgc openapi` covers: no CRD embeds a list kind, nor the variants only a list kind references), sorted.
#[must_use]
pub fn schemas_without_lists(out: &Output) -> std::collections::BTreeSet<String> {
    let added: std::collections::BTreeSet<(&str, &str)> = out
        .list_additions
        .iter()
        .map(|(f, n)| (f.as_str(), n.as_str()))
        .collect();
    out.documents
        .iter()
        .flat_map(|d| {
            d.json
                .pointer("/components/schemas")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|m| m.keys())
                .filter(|n| !added.contains(&(d.file.as_str(), n.as_str())))
                .cloned()
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_kind_has_kube_openapis_shape_in_its_kinds_document() {
        let item = "io.k8s.api.core.v1.ConfigMap";
        let mut out = Output {
            schemas: [(item.to_string(), json!({"type": "object"}))].into(),
            documents: vec![crate::Document {
                file: "api__v1_openapi.json".into(),
                group: String::new(),
                version: "v1".into(),
                json: json!({"components": {"schemas": {item: {"type": "object"}}}}),
            }],
            ..Output::default()
        };
        let key = |name: &str| ListedKind {
            key: TypeKey {
                pkg: "k8s.io/api/core/v1".into(),
                name: name.into(),
            },
            group: String::new(),
            version: "v1".into(),
        };
        add_list_kinds(&mut out, &[key("ConfigMap"), key("Missing")]);
        assert_eq!(out.lists, ["io.k8s.api.core.v1.ConfigMapList"]);
        assert_eq!(
            schemas_without_lists(&out).into_iter().collect::<Vec<_>>(),
            [item]
        );
        let comps = &out.documents[0].json["components"]["schemas"];
        assert_eq!(
            comps["io.k8s.api.core.v1.ConfigMapList"],
            json!({"type": "object", "required": ["items"], "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"},
                "items": {"type": "array", "items": {"$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMap"}}}})
        );
        assert_eq!(comps[LIST_META]["properties"]["continue"]["type"], "string");
        assert!(out.schemas.contains_key("io.k8s.api.core.v1.ConfigMapList"));
        // Once only: nothing added again.
        let before = out.documents[0].json.clone();
        add_list_kinds(&mut out, &[key("ConfigMap")]);
        assert_eq!(out.lists.len(), 1);
        assert_eq!(out.documents[0].json, before);
    }
}
