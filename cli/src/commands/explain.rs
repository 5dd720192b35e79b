//! `vgc explain`: a diagnostic code's name, default severity and rationale, or a tag's catalog entry.

use std::io::Write as _;
use std::process::ExitCode;

/// `vgc explain`: a diagnostic code's name, default severity and rationale, or a tag's catalog entry.
pub(crate) fn run(what: &str, tag_prefix: Option<&str>, upstream: Option<&str>) -> ExitCode {
    // A tag's stability as the release `--upstream` names documents it, else the newest.
    let release = upstream
        .and_then(vgc_ir::Upstream::parse)
        .unwrap_or(vgc_ir::Upstream::NEWEST);
    // Tags are named with the prefix in force (`--tag-prefix`, else `vgc.toml` `[upstream] tag-prefix` of the
    // current directory): `vgc explain acme:maxItems --tag-prefix acme:` prints `+acme:maxItems`.
    let prefix =
        match vgc_driver::config::tag_prefix_for(std::path::Path::new("."), tag_prefix, None) {
            Ok(p) => p,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "error: {e}");
                return ExitCode::from(2);
            }
        };
    let mut out = std::io::stdout().lock();
    if let Some(c) = vgc_ir::Code::parse(&what.to_ascii_uppercase()) {
        let sev = match c.default_severity() {
            vgc_ir::Severity::Error => "error",
            vgc_ir::Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "{} ({}), {sev} by default{}\n\n{}\n\nSee docs/diagnostics.md{}.",
            c.as_str(),
            c.name(),
            if c.is_lint() {
                "; severity set by vgc.toml [lint.severity] or -W/-D/-A"
            } else {
                ""
            },
            c.rationale(),
            if c.is_lint() { " and docs/lint.md" } else { "" }
        );
        return ExitCode::SUCCESS;
    }
    let name = what.trim_start_matches('+');
    let name = match name.strip_prefix(prefix.as_str()) {
        Some(rest) if !prefix.as_str().is_empty() => format!("k8s:{rest}"),
        _ if name.starts_with("k8s:") => name.to_string(),
        _ => format!("k8s:{name}"),
    };
    // A tag name in another case (`memberof`) finds its tag.
    let name = match vgc_ir::catalog::lookup(&name) {
        Some(_) => name,
        None => vgc_ir::catalog::TAGS
            .iter()
            .find(|t| t.name().eq_ignore_ascii_case(&name))
            .map_or(name, |t| t.name().to_string()),
    };
    if let Some(spec) = vgc_ir::catalog::lookup(&name) {
        // vgc's extension tags carry no upstream stability level: they are off unless enabled.
        let level = if spec.id.is_extension() {
            "vgc extension, off unless vgc.toml enables extensions".to_string()
        } else {
            format!("{:?}", release.tag_stability(spec))
        };
        let _ = writeln!(
            out,
            "+{} ({level}; scopes: {})\n\n{}\n\nSyntax: {}",
            prefix.qualify(spec.name()),
            spec.scopes
                .iter()
                .map(|s| format!("{s:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            prefix.requalify(spec.docs),
            prefix.requalify(&spec.syntax())
        );
        // The catalog's example of the tag in use (`vgc docs`' too).
        if let Some(example) = vgc_docs_gen::examples::example(spec.name()) {
            let _ = writeln!(out, "Example:\n{}", prefix.requalify(example));
        }
        if let Some(forms) = vgc_ir::extension_tags::explain_constraint_forms(&name)
            .or_else(|| vgc_ir::extension_tags::explain_virtual_fields(&name))
        {
            let _ = writeln!(out, "\n{}", prefix.requalify(&forms));
        }
        return ExitCode::SUCCESS;
    }
    // `exclusiveMinimum`/`exclusiveMaximum`: vgc extension tags of the field-path constraint form only.
    if let Some(forms) = vgc_ir::extension_tags::explain_constraint_forms(&name) {
        let _ = writeln!(
            out,
            "+{} (vgc extension; scopes: Field, Type)\n\n{}",
            prefix.qualify(&name),
            prefix.requalify(&forms)
        );
        return ExitCode::SUCCESS;
    }
    let code_shaped =
        what.len() == 7 && what.starts_with("VGC") && what[3..].bytes().all(|b| b.is_ascii_digit());
    let msg = if code_shaped {
        format!(
            "error: {what} is not a vgc diagnostic code (`vgc docs --format diagnostics-markdown` lists them)"
        )
    } else {
        format!("error: {what:?} is neither a diagnostic code (VGCnnnn) nor a known tag")
    };
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
    ExitCode::from(2)
}
