//! The test tags (upstream `testing.go`): `+k8s:validateTrue` / `+k8s:validateFalse` (`FixedResult`; `vgc_codegen`'s
//! `emit/checks/testing.rs`).

use super::*;

/// A list or map value for `bad_value_collection`.
struct Coll<'a, 'p>(&'a Val<'p>);

impl Serialize for Coll<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl vgc_runtime::types::Collection for Coll<'_, '_> {
    fn is_empty_collection(&self) -> bool {
        self.0.is_empty()
    }
}

/// `checks::testing::call`: no error, or the one forced failure with the value as upstream renders it.
pub(super) fn call(
    result: bool,
    msg: &str,
    shape: &Shape,
    new: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    if result {
        ErrorList::new()
    } else {
        let bad = match shape {
            Shape::List { .. } | Shape::Map => v::bad_value_collection(new.map(Coll).as_ref()),
            _ => v::bad_value_json(&new),
        };
        vec![
            vgc_runtime::Error::invalid(path, bad, format!("forced failure: {msg}"))
                .with_origin("validateFalse"),
        ]
    }
}
