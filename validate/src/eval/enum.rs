//! Enums (upstream `enum.go`), with option-dependent exclusions (`vgc_codegen`'s `emit/checks/enum.rs`).

use super::*;

/// `checks::enum::call`: an `+k8s:enum` check on the value as a string, with the exclusion rules when the enum has
/// any.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    e: &vgc_lowering::plan::EnumPlan,
    new: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    let op = cx.op;
    let vals: Vec<&str> = e.values.iter().map(String::as_str).collect();
    let s = cx.str_of(new, path);
    if e.exclusions.is_empty() {
        v::enum_value(path, s, &vals)
    } else {
        let rules: Vec<v::EnumExclusion<'_>> = e
            .exclusions
            .iter()
            .map(|x| {
                (
                    x.value.as_str(),
                    x.when == OptionState::Enabled,
                    x.option.as_str(),
                )
            })
            .collect();
        if e.undefined_option_is_error {
            v::enum_value_with_exclusions(path, op, s, &vals, &rules)
        } else {
            v::enum_value_with_listed_options(path, op, s, &vals, &rules)
        }
    }
}
