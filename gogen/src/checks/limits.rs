//! The limits family (upstream `validators/limits.go`; `validate/limits.go`): bounds as Go integer literals.

use crate::Gen;
use vgc_lowering::plan::CheckKind;

pub(super) fn call(g: &mut Gen<'_>, kind: &CheckKind) -> Option<String> {
    let (name, n) = match kind {
        CheckKind::Minimum(n) => ("Minimum", n.to_string()),
        CheckKind::Maximum(n) => ("Maximum", n.to_string()),
        CheckKind::MinLength(n) => ("MinLength", n.to_string()),
        CheckKind::MaxLength(n) => ("MaxLength", n.to_string()),
        // 1.35: `maxLength` counts bytes, through the same `validate.MaxLength` (which counted bytes then).
        CheckKind::MaxLengthBytes(n) => ("MaxLength", n.to_string()),
        CheckKind::MaxBytes(n) => ("MaxBytes", n.to_string()),
        CheckKind::MinItems(n) => ("MinItems", n.to_string()),
        CheckKind::MaxItems(n) => ("MaxItems", n.to_string()),
        CheckKind::MinProperties(n) => ("MinProperties", n.to_string()),
        CheckKind::MaxProperties(n) => ("MaxProperties", n.to_string()),
        // 1.38: a `time.Duration` bound is its nanoseconds, through the plain functions.
        CheckKind::MinimumDuration(n) => ("Minimum", n.to_string()),
        CheckKind::MaximumDuration(n) => ("Maximum", n.to_string()),
        CheckKind::MaxBytesSlice(n) => ("MaxBytesSlice", n.to_string()),
        CheckKind::MinimumQuantity(q) | CheckKind::MaximumQuantity(q) => {
            let name = if matches!(kind, CheckKind::MinimumQuantity(_)) {
                "MinimumQuantity"
            } else {
                "MaximumQuantity"
            };
            let parse = g
                .imports
                .name("k8s.io/apimachinery/pkg/api/resource", "MustParse");
            (
                name,
                format!("{parse}({})", vgc_runtime::field::go_quote(q)),
            )
        }
        _ => return None,
    };
    Some(super::validate_call(g, name, &[n]))
}
