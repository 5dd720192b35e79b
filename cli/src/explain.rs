//! A tag's catalog entry as `vgc explain` prints it and `vgc lsp` shows it on hover: the name under the tag prefix
//! in force, stability under a release, scopes, docs, syntax, the catalog's example and the extension forms.

use vgc_ir::TagPrefix;
use vgc_ir::profile::Upstream;

/// What is known of one tag, each part already written under the tag prefix in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagEntry {
    /// `+k8s:required` (under the prefix in force).
    pub name: String,
    /// `Stable`, `Beta`, … under the release asked for, or the words of a vgc extension.
    pub level: String,
    /// The scopes the tag may be written at (`Field, Type`).
    pub scopes: String,
    /// The catalog's docs.
    pub docs: String,
    /// The syntax line (`+k8s:maxItems=<non-negative integer>`); empty for the extension-only forms.
    pub syntax: String,
    /// The catalog's example of the tag in use (`vgc docs`' too), a Go snippet.
    pub example: Option<String>,
    /// The extension forms (field-path constraints, virtual fields) explained, if the tag has any.
    pub forms: Option<String>,
}

/// The canonical catalog name (`k8s:memberOf`) of `what` as a user spells it: with or without `+`, under the
/// prefix `prefix` or `k8s:`, with or without either, in another case.
#[must_use]
pub fn canonical_tag_name(what: &str, prefix: &TagPrefix) -> String {
    let name = what.trim_start_matches('+');
    let name = match name.strip_prefix(prefix.as_str()) {
        Some(rest) if !prefix.as_str().is_empty() => format!("k8s:{rest}"),
        _ if name.starts_with("k8s:") => name.to_string(),
        _ => format!("k8s:{name}"),
    };
    match vgc_ir::catalog::lookup(&name) {
        Some(_) => name,
        None => vgc_ir::catalog::TAGS
            .iter()
            .find(|t| t.name().eq_ignore_ascii_case(&name))
            .map_or(name, |t| t.name().to_string()),
    }
}

/// The entry of the tag `name` (canonical, see [`canonical_tag_name`]) under `release` and `prefix`; `None` for a
/// name that is neither a catalog tag, nor `release`'s own spelling of one (`k8s:discriminator` under 1.36,
/// [`Upstream::tag_renames`]), nor one of vgc's constraint-form extension tags (`exclusiveMinimum`).
#[must_use]
pub fn tag_entry(name: &str, release: Upstream, prefix: &TagPrefix) -> Option<TagEntry> {
    // This release's spelling of a catalog tag (`k8s:discriminator` under 1.36, `Upstream::tag_renames`): the
    // catalog tag's entry under this release's name, saying so.
    if let Some(r) = release.tag_renames().iter().find(|r| r.from == name)
        && let Some(mut entry) = tag_entry(r.to.name(), release, prefix)
    {
        let args: Vec<String> = r
            .args
            .iter()
            .map(|(from, to)| format!("`{from}:` for `{to}:`"))
            .collect();
        entry.docs = format!(
            "Upstream {release}'s spelling of `{}` (arguments {}; `{}` itself exists from upstream {} on). {}",
            entry.name,
            args.join(", "),
            entry.name,
            Upstream::tag_since(r.to).unwrap_or(release),
            entry.docs
        );
        entry.name = format!("+{}", prefix.qualify(r.from));
        return Some(entry);
    }
    if let Some(spec) = vgc_ir::catalog::lookup(name) {
        // vgc's extension tags carry no upstream stability level: they are off unless enabled.
        let level = if spec.id.is_extension() {
            "vgc extension, off unless vgc.toml enables extensions".to_string()
        } else {
            format!("{:?}", release.tag_stability(spec))
        };
        return Some(TagEntry {
            name: format!("+{}", prefix.qualify(spec.name())),
            level,
            scopes: spec
                .scopes
                .iter()
                .map(|s| format!("{s:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            docs: prefix.requalify(spec.docs),
            syntax: prefix.requalify(&spec.syntax()),
            example: vgc_docs_gen::examples::example(spec.name()).map(|e| prefix.requalify(e)),
            forms: vgc_ir::extension_tags::explain_constraint_forms(name)
                .or_else(|| vgc_ir::extension_tags::explain_virtual_fields(name))
                .map(|f| prefix.requalify(&f)),
        });
    }
    // The generator-control tags (`+k8s:validation-gen=…`, `+k8s:isSubresource=…`): read by the generator, not
    // validation rules; their entries say what they control.
    if let Some(c) = vgc_ir::catalog::ControlTag::from_name(name) {
        return Some(TagEntry {
            name: format!("+{}", prefix.qualify(c.name())),
            level: "generator control tag, not a validation rule".into(),
            scopes: "Package, Type".into(),
            docs: prefix.requalify(&c.docs()),
            syntax: String::new(),
            example: None,
            forms: None,
        });
    }
    // `exclusiveMinimum`/`exclusiveMaximum`: vgc extension tags of the field-path constraint form only.
    vgc_ir::extension_tags::explain_constraint_forms(name).map(|forms| TagEntry {
        name: format!("+{}", prefix.qualify(name)),
        level: "vgc extension".into(),
        scopes: "Field, Type".into(),
        docs: prefix.requalify(&forms),
        syntax: String::new(),
        example: None,
        forms: None,
    })
}

impl TagEntry {
    /// The plain text `vgc explain` prints.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} ({}; scopes: {})\n\n{}\n",
            self.name, self.level, self.scopes, self.docs
        );
        if !self.syntax.is_empty() {
            s.push_str(&format!("\nSyntax: {}\n", self.syntax));
        }
        if let Some(e) = &self.example {
            s.push_str(&format!("Example:\n{e}\n"));
        }
        if let Some(f) = &self.forms {
            s.push_str(&format!("\n{f}\n"));
        }
        s
    }

    /// Markdown for an editor's hover: the name and level as a heading line, the docs, the syntax in code, the
    /// example as a Go block.
    #[must_use]
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "**{}** — {} (scopes: {})\n\n{}\n",
            self.name, self.level, self.scopes, self.docs
        );
        if !self.syntax.is_empty() {
            s.push_str(&format!("\nSyntax: `{}`\n", self.syntax));
        }
        if let Some(e) = &self.example {
            s.push_str(&format!("\nExample:\n```go\n{}\n```\n", e.trim_end()));
        }
        if let Some(f) = &self.forms {
            s.push_str(&format!("\n{f}\n"));
        }
        s
    }

    /// The docs' first sentence (a completion item's one-line detail).
    #[must_use]
    pub fn summary(&self) -> String {
        first_sentence(&self.docs)
    }
}

/// What `vgc explain CODE` prints for diagnostic code `code` (and `vgc lsp`'s "explain" action shows): its
/// number and name, default severity (and how a lint code's is changed), rationale and where it is documented,
/// ending in a line break.
#[must_use]
pub fn code_text(code: vgc_ir::Code) -> String {
    let sev = match code.default_severity() {
        vgc_ir::Severity::Error => "error",
        vgc_ir::Severity::Warning => "warning",
    };
    format!(
        "{} ({}), {sev} by default{}\n\n{}\n\nSee docs/diagnostics.md{}.\n",
        code.as_str(),
        code.name(),
        if code.is_lint() {
            "; severity set by vgc.toml [lint.severity] or -W/-D/-A"
        } else {
            ""
        },
        code.rationale(),
        if code.is_lint() {
            " and docs/lint.md"
        } else {
            ""
        }
    )
}

/// The first sentence of `docs`: up to the first `. ` or line break.
#[must_use]
pub fn first_sentence(docs: &str) -> String {
    let line = docs.lines().next().unwrap_or("");
    match line.find(". ") {
        Some(i) => line[..=i].to_string(),
        None => line.to_string(),
    }
}
