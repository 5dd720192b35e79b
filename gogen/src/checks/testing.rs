//! The test tags `validateTrue*`/`validateFalse` (upstream `validators/testing.go`: `validate.FixedResult`).

use crate::Gen;

/// `validate.FixedResult(…, result, "msg")`, with `[*T]` when the tag names a `typeArg` (upstream
/// `toFixedResultArgs`: the type always as a pointer; a qualified `pkg/path.Name` imported as the raw namer does).
pub(super) fn call(g: &mut Gen<'_>, result: bool, msg: &str, type_arg: Option<&str>) -> String {
    let args = [result.to_string(), vgc_runtime::field::go_quote(msg)];
    let Some(t) = type_arg else {
        return super::validate_call(g, "FixedResult", &args);
    };
    let t = t.trim_start_matches('*');
    let named = match t
        .rfind('.')
        .filter(|&i| t[..i].contains('/') || !t[..i].is_empty())
    {
        Some(i) if t[i + 1..].chars().all(|c| c.is_alphanumeric() || c == '_') => {
            g.imports.name(&t[..i], &t[i + 1..])
        }
        _ => t.to_string(),
    };
    let f = g.imports.name(crate::VALIDATE, "FixedResult");
    super::call_with(g, &format!("{f}[*{named}]"), &args)
}
