//! `monotonic` (upstream `validators/monotonic.go`; `validate/monotonic.go`).

use crate::Gen;

pub(super) fn call(g: &mut Gen<'_>) -> String {
    super::validate_call(g, "Monotonic", &[])
}
