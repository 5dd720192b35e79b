//! Patterns (upstream `regex.go`): the formats a project defines (`vgc_runtime::validate`'s `regex.rs`).

use super::*;

/// upstream `validate.Matches(…, formatPattern_<name>, message, "format=<name>")` (kubernetes#142116): the
/// pattern is compiled once per process, on first use, by a `static` local to the call site; the loader
/// proved it compiles (`vgc::extensions`), so the `expect` cannot fire.
pub(super) fn call(p: &vgc_ir::extensions::ProjectFormat, ops: Operands<'_>) -> TokenStream {
    let Operands { new, path, .. } = ops;
    let v = validators();
    let s = as_str(new);
    let (pattern, message) = (&p.pattern, &p.message);
    let origin = format!("format={}", p.name);
    quote!({
        static PATTERN: ::std::sync::LazyLock<::vgc_runtime::regex::Regex> =
            ::std::sync::LazyLock::new(|| {
                ::vgc_runtime::regex::compile_go(#pattern)
                    .expect("the pattern was checked by vgc")
            });
        #v::matches(#path, #s, &PATTERN, #message, #origin)
    })
}
