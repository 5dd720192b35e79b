//! `customValidation` (upstream `validators/custom.go`): a call to the hand-written `ValidateCustom_<Type>[_<Field>]`
//! of the output package, after upstream's `// custom validation` comment.

pub(super) fn call(upstream: &str) -> String {
    super::call_with(upstream, &[])
}
