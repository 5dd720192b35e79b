//! Enums (upstream `enum.go`), with option-dependent exclusions (`vgc_runtime::validate`'s `enum.rs`).

use super::*;

/// The call of an `+k8s:enum` check: the value as `Option<&str>` and the sorted values, and the exclusion rules when
/// the enum has any.
pub(super) fn call(e: &vgc_lowering::plan::EnumPlan, ops: Operands<'_>) -> TokenStream {
    let Operands { new, path, .. } = ops;
    let v = validators();
    let s = as_str(new);
    if e.exclusions.is_empty() {
        let vals = &e.values;
        quote!(#v::enum_value(#path, #s, &[#(#vals),*]))
    } else {
        let vals = &e.values;
        // (value, excluded while the option is on?, option)
        let rules = e.exclusions.iter().map(|x| {
            let (val, opt) = (&x.value, &x.option);
            let when = x.when == OptionState::Enabled;
            quote!((#val, #when, #opt))
        });
        // Before 1.37 an option the request does not name is disabled (apimachinery v0.36 `Enum`).
        let f = if e.undefined_option_is_error {
            quote!(enum_value_with_exclusions)
        } else {
            quote!(enum_value_with_listed_options)
        };
        quote!(#v::#f(#path, op, #s, &[#(#vals),*], &[#(#rules),*]))
    }
}
