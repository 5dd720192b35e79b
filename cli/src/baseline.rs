//! Lint baselines: `vgc lint --write-baseline FILE` records today's findings; `vgc lint --baseline FILE` then
//! reports only findings that are not in it, so a project can adopt a rule with many existing findings and still
//! fail CI on new ones.
//!
//! The file is JSON: `{"version": 1, "findings": [{"fingerprint", "code", "file", "message"}, …]}`, sorted. A finding
//! is matched by its [`fingerprint`](crate::render::fingerprint) (code, file, message and the text of its line — not
//! the line number, so edits elsewhere in the file keep it matched); each recorded entry absorbs one finding.

use crate::render::fingerprint;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use vgc_ir::Diagnostic;

/// The baseline file's schema version.
pub const VERSION: u32 = 1;

/// One recorded finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    /// [`fingerprint`] of the finding.
    pub fingerprint: String,
    /// Its code (for people reading the file).
    pub code: String,
    /// Its file, relative to the linted directory.
    pub file: String,
    /// Its message.
    pub message: String,
}

/// A baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// [`VERSION`].
    pub version: u32,
    /// The findings, sorted.
    pub findings: Vec<Entry>,
}

impl Baseline {
    /// The baseline of `diags` (files relative to `base`).
    #[must_use]
    pub fn of(diags: &[Diagnostic], sources: &BTreeMap<String, String>, base: &str) -> Self {
        let mut findings: Vec<Entry> = diags
            .iter()
            .map(|d| Entry {
                fingerprint: fingerprint(d, sources, base),
                code: d.code.as_str().to_string(),
                file: d
                    .file
                    .as_deref()
                    .map(|f| {
                        f.strip_prefix(base.trim_end_matches('/'))
                            .map_or(f, |r| r.trim_start_matches('/'))
                            .to_string()
                    })
                    .unwrap_or_default(),
                message: d.message.clone(),
            })
            .collect();
        findings.sort();
        Self {
            version: VERSION,
            findings,
        }
    }

    /// Reads a baseline file.
    ///
    /// # Errors
    /// `file: reason` when it cannot be read, is not a baseline, or has another version.
    pub fn load(path: &Path) -> Result<Self, String> {
        // A regular file of at most 256 MiB, opened without blocking (a FIFO named by mistake is refused).
        let bytes = vgc_driver::sys::read_regular(path, 256 << 20)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{}: not a vgc lint baseline: not UTF-8", path.display()))?;
        let b: Self = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a vgc lint baseline: {e}", path.display()))?;
        if b.version != VERSION {
            return Err(format!(
                "{}: baseline version {} (this vgc reads version {VERSION}); write it again with --write-baseline",
                path.display(),
                b.version
            ));
        }
        Ok(b)
    }

    /// Writes the baseline as pretty JSON with a final newline.
    ///
    /// # Errors
    /// IO errors.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)? + "\n";
        std::fs::write(path, text)
    }

    /// Splits `diags` into the findings the baseline does not hold (returned) and the number it absorbs.
    #[must_use]
    pub fn new_findings(
        &self,
        diags: Vec<Diagnostic>,
        sources: &BTreeMap<String, String>,
        base: &str,
    ) -> (Vec<Diagnostic>, usize) {
        let mut left: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &self.findings {
            *left.entry(e.fingerprint.as_str()).or_default() += 1;
        }
        let mut absorbed = 0;
        let fresh = diags
            .into_iter()
            .filter(|d| {
                let fp = fingerprint(d, sources, base);
                match left.get_mut(fp.as_str()) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        absorbed += 1;
                        false
                    }
                    _ => true,
                }
            })
            .collect();
        (fresh, absorbed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vgc_ir::Code;

    #[test]
    fn a_baseline_absorbs_known_findings_even_after_lines_move() {
        let base = "/m";
        let mut sources = BTreeMap::new();
        sources.insert(
            "/m/a.go".to_string(),
            "package a\n\n// +listType=set\nX []string\n".to_string(),
        );
        let d = Diagnostic::warning(Code::LintListMarker, "twin missing")
            .at("/m/a.go".to_string(), 14..29);
        let b = Baseline::of(std::slice::from_ref(&d), &sources, base);
        assert_eq!(b.findings[0].file, "a.go");
        // Two blank lines inserted above: same finding, new offset.
        let mut moved = sources.clone();
        moved.insert(
            "/m/a.go".to_string(),
            "package a\n\n\n\n// +listType=set\nX []string\n".to_string(),
        );
        let d2 = Diagnostic::warning(Code::LintListMarker, "twin missing")
            .at("/m/a.go".to_string(), 16..31);
        let other =
            Diagnostic::warning(Code::LintListMarker, "another").at("/m/a.go".to_string(), 16..31);
        let (fresh, absorbed) = b.new_findings(vec![d2.clone(), d2, other.clone()], &moved, base);
        assert_eq!(absorbed, 1);
        assert_eq!(
            fresh.len(),
            2,
            "one entry absorbs one finding; a new message is new"
        );
        assert_eq!(fresh[1], other);
    }
}
