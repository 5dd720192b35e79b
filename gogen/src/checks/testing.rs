//! The test tags `validateTrue*`/`validateFalse` (upstream `validators/testing.go`: `validate.FixedResult`).

use crate::Gen;

pub(super) fn call(g: &mut Gen<'_>, result: bool, msg: &str) -> String {
    super::validate_call(
        g,
        "FixedResult",
        &[result.to_string(), vgc_runtime::field::go_quote(msg)],
    )
}
