//! `neq` and `eq` (upstream `validators/equality.go`; `validate/equality.go`): the value as a Go literal.

use crate::Gen;
use vgc_lowering::plan::NeqValue;

pub(super) fn call(g: &mut Gen<'_>, name: &str, v: &NeqValue) -> String {
    let lit = match v {
        NeqValue::Str(s) => vgc_runtime::field::go_quote(s),
        NeqValue::Int(i) => i.to_string(),
        NeqValue::Bool(b) => b.to_string(),
    };
    super::validate_call(g, name, &[lit])
}
