//! The limits family (upstream `validators/limits.go`; `validate/limits.go`): bounds as Go integer literals.

use crate::Gen;
use vgc_lowering::plan::CheckKind;

pub(super) fn call(g: &mut Gen<'_>, kind: &CheckKind) -> Option<String> {
    let (name, n) = match kind {
        CheckKind::Minimum(n) => ("Minimum", n.to_string()),
        CheckKind::Maximum(n) => ("Maximum", n.to_string()),
        CheckKind::MinLength(n) => ("MinLength", n.to_string()),
        CheckKind::MaxLength(n) => ("MaxLength", n.to_string()),
        CheckKind::MaxBytes(n) => ("MaxBytes", n.to_string()),
        CheckKind::MinItems(n) => ("MinItems", n.to_string()),
        CheckKind::MaxItems(n) => ("MaxItems", n.to_string()),
        CheckKind::MinProperties(n) => ("MinProperties", n.to_string()),
        CheckKind::MaxProperties(n) => ("MaxProperties", n.to_string()),
        // Durations, quantities, pre-1.36 byte lengths and 1.38's byte slices: not printed yet.
        _ => return None,
    };
    Some(super::validate_call(g, name, &[n]))
}
