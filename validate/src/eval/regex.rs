//! Patterns (upstream `regex.go`): the formats a project defines (`vgc_codegen`'s `emit/checks/regex.rs`).

use super::*;

/// `checks::regex::call`: a project-defined format's pattern (compiled once by the interpreter), or an evaluation
/// error when it did not compile.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    p: &vgc_ir::extensions::ProjectFormat,
    new: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    match cx.interp.patterns.get(&p.pattern) {
        Some(Ok(re)) => v::matches(
            path,
            cx.str_of(new, path),
            re,
            &p.message,
            &format!("format={}", p.name),
        ),
        _ => {
            cx.fail(EvalError::Pattern {
                format: p.name.clone(),
                pattern: p.pattern.clone(),
            });
            ErrorList::new()
        }
    }
}
