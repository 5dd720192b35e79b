//! The test tags (upstream `testing.go`): `+k8s:validateTrue` / `+k8s:validateFalse` (`FixedResult`).

use super::*;

/// The call of a `FixedResult` check: no error, or the one forced failure with the value as upstream renders it.
pub(super) fn call(result: bool, msg: &str, site: Site<'_>, ops: Operands<'_>) -> TokenStream {
    let shape = site.shape;
    let Operands { new, path, .. } = ops;
    let v = validators();
    if result {
        quote!(::vgc_runtime::ErrorList::new())
    } else {
        let detail = format!("forced failure: {msg}");
        // upstream passes the value by pointer (lists and maps as they are): `json.Marshal`-rendered.
        let bad = match shape {
            // A k8s-openapi `Option` keeps a nil list (`None`, `null`) apart from an empty one (`[]`), as Go does.
            Shape::List { .. } | Shape::Map if site.nil_kept => {
                quote!(#v::bad_value_json(&#new))
            }
            Shape::List { .. } | Shape::Map => quote!(#v::bad_value_collection(#new)),
            _ => quote!(#v::bad_value_json(&#new)),
        };
        quote!(
            ::std::vec![::vgc_runtime::Error::invalid(#path, #bad, #detail).with_origin("validateFalse")]
        )
    }
}
