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
        let _ = out.write_all(vgc::explain::code_text(c).as_bytes());
        return ExitCode::SUCCESS;
    }
    let name = vgc::explain::canonical_tag_name(what, &prefix);
    if let Some(entry) = vgc::explain::tag_entry(&name, release, &prefix) {
        let _ = out.write_all(entry.text().as_bytes());
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
