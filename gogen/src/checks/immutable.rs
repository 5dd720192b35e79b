//! `immutable` (upstream `validators/immutable.go`; `validate/immutable.go`).

use crate::Gen;

pub(super) fn call(g: &mut Gen<'_>) -> String {
    super::validate_call(g, "Immutable", &[])
}
