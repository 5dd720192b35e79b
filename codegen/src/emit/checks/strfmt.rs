//! Formats (upstream `strfmt.go`): `+k8s:format=<name>` (`vgc_runtime::validate`'s `strfmt.rs`).

use super::*;

/// The generated expression naming `f`: `::vgc_runtime::formats::Format::<Variant>` (the variant's `Debug` name
/// is its identifier).
fn format_expr(f: Format) -> TokenStream {
    let variant = format_ident!("{}", format!("{f:?}"));
    quote!(::vgc_runtime::formats::Format::#variant)
}

/// The call of a `+k8s:format` check: the value as `Option<&str>` and the typed format.
pub(super) fn call(f: Format, ops: Operands<'_>) -> TokenStream {
    let Operands { new, path, .. } = ops;
    let v = validators();
    let s = as_str(new);
    let f = format_expr(f);
    quote!(#v::format(#path, #s, #f))
}
