//! `customValidation` (upstream `validators/custom.go`): a call to the hand-written `ValidateCustom_<Type>[_<Field>]`
//! of the output package, after upstream's `// custom validation` comment.

pub(super) fn call(g: &crate::Gen<'_>, upstream: &str) -> String {
    super::call_with(g, upstream, &[])
}
