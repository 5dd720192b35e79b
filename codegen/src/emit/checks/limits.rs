//! Limits (upstream `limits.go`): bounds of integers, durations and quantities, lengths of strings, counts of bytes,
//! items and properties (`vgc_runtime::validate`'s `limits.rs`).

use super::*;

/// The call of a limits check: the value itself (`Option<&T>`), as a string (`Option<&str>`) or its length.
pub(super) fn call(c: &Check, ops: Operands<'_>) -> TokenStream {
    let Operands { new, path, .. } = ops;
    let v = validators();
    let s = as_str(new);
    let len = quote!(#new.map_or(0, |v| v.len()));
    match &c.kind {
        CheckKind::Minimum(n) => quote!(#v::minimum(#path, #new, #n)),
        CheckKind::Maximum(n) => quote!(#v::maximum(#path, #new, #n)),
        CheckKind::MinimumDuration(n) => quote!(#v::minimum_duration(#path, #new, #n)),
        CheckKind::MaximumDuration(n) => quote!(#v::maximum_duration(#path, #new, #n)),
        CheckKind::MinimumQuantity(q) => quote!(#v::minimum_quantity(
            #path,
            #new,
            &::vgc_runtime::types::Quantity(::std::string::String::from(#q))
        )),
        CheckKind::MaximumQuantity(q) => quote!(#v::maximum_quantity(
            #path,
            #new,
            &::vgc_runtime::types::Quantity(::std::string::String::from(#q))
        )),
        CheckKind::MinLength(n) => quote!(#v::min_length(#path, #s, #n)),
        CheckKind::MaxLength(n) => quote!(#v::max_length(#path, #s, #n)),
        CheckKind::MaxLengthBytes(n) => quote!(#v::max_length_bytes(#path, #s, #n)),
        CheckKind::MaxBytes(n) => quote!(#v::max_bytes(#path, #s, #n)),
        CheckKind::MaxBytesSlice(n) => quote!(#v::max_bytes_slice(#path, #len, #n)),
        CheckKind::MinItems(n) => quote!(#v::min_items(#path, #len, #n)),
        CheckKind::MaxItems(n) => quote!(#v::max_items(#path, #len, #n)),
        CheckKind::MinProperties(n) => quote!(#v::min_properties(#path, #len, #n)),
        CheckKind::MaxProperties(n) => quote!(#v::max_properties(#path, #len, #n)),
        other => unreachable!("not a limits check: {other:?}"),
    }
}
