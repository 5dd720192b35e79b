//! vgc-docs-gen: documentation generated, never hand-written: the tag reference from the catalog (Markdown, and
//! JSON in the shape of upstream `validation-gen --docs`), the diagnostics reference from the registry, and the
//! static site ([`site()`]): tag and diagnostics pages plus one API reference page per Go package with the Go doc
//! comments ([`godocs`]), every field's rules in words ([`words`]), offline client-side search, stable URLs, and an
//! overridable layout template. Pages are minijinja templates (`templates/`, HTML auto-escaping on); Markdown is
//! rendered by pulldown-cmark ([`markdown`]).

pub mod examples;
pub mod godocs;
pub mod markdown;
pub mod site;
/// The describer of checks: lowering's, under its old path.
pub use vgc_lowering::words;

pub use godocs::GoDocs;
pub use site::{DEFAULT_LAYOUT, SiteError, SiteInput, json_type, site};

use std::fmt::Write as _;
use vgc_ir::catalog::{self, Lowering, Stability};

/// Renders the tag reference as Markdown: a summary table (one row per upstream validation tag: scopes, payload,
/// stability, short-circuit flag and vgc's lowering status), then one section per tag with its description,
/// arguments, payload, stability and a Go example (the examples are built and compiled by `tests/tests/docs.rs`).
/// Deterministic: tags are in catalog (name) order. Stability levels are the newest profile's
/// ([`vgc_ir::Upstream::tag_stability`]).
#[must_use]
pub fn tag_reference_markdown() -> String {
    tag_reference_markdown_for(vgc_ir::Upstream::NEWEST)
}

/// [`tag_reference_markdown`] as release `upstream` documents its tags (its stability levels and payloads,
/// [`vgc_ir::Upstream::tag_stability`], [`vgc_ir::Upstream::tag_payload`]).
#[must_use]
pub fn tag_reference_markdown_for(upstream: vgc_ir::Upstream) -> String {
    let mut s = String::from(
        "| tag | scopes | payload | stability | short-circuit | vgc | description |\n|---|---|---|---|---|---|---|\n",
    );
    let stab = |st: Stability| match st {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    };
    let row = |s: &mut String, t: &catalog::TagSpec| {
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
        let payload = upstream.tag_payload(t).map_or("—", |p| p.upstream_name());
        let low = match t.lowering {
            Lowering::Lowered => "lowered",
            Lowering::Metadata => "metadata",
            Lowering::NotYet => "not lowered yet",
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {payload} | {} | {} | {low} | {} |",
            t.name(),
            scopes.join(", "),
            stab(upstream.tag_stability(t)),
            if t.flags.short_circuit { "yes" } else { "no" },
            t.docs
        );
    };
    for t in catalog::TAGS
        .iter()
        .filter(|t| !t.id.is_test_only() && !t.id.is_extension())
    {
        row(&mut s, t);
    }
    s.push_str(
        "\nvgc extensions (KEP-5073 designs upstream validation-gen does not have; off unless `vgc.toml` has `[extensions] enabled = true`, docs/extensions.md):\n\n| tag | scopes | payload | stability | short-circuit | vgc | description |\n|---|---|---|---|---|---|---|\n",
    );
    for t in catalog::TAGS.iter().filter(|t| t.id.is_extension()) {
        row(&mut s, t);
    }
    s.push_str(
        "\nTest-only tags (they exist to test the generator and validate nothing about real data):\n\n| tag | scopes | payload | stability | short-circuit | vgc | description |\n|---|---|---|---|---|---|---|\n",
    );
    for t in catalog::TAGS.iter().filter(|t| t.id.is_test_only()) {
        row(&mut s, t);
    }
    for t in catalog::TAGS {
        let _ = writeln!(s, "\n### `+{}`\n\n{}\n", t.name(), t.docs);
        if t.id == catalog::TagId::Format {
            for (name, meaning) in catalog::FORMAT_DOCS {
                let _ = writeln!(s, "- `{name}`: {meaning}");
            }
            s.push('\n');
        }
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
        let _ = writeln!(s, "- scopes: {}", scopes.join(", "));
        for a in t.args {
            let name = if a.name.is_empty() {
                "(positional)"
            } else {
                a.name
            };
            let _ = writeln!(
                s,
                "- argument `{name}`: {}{}{}",
                a.kind.upstream_name(),
                if a.required { ", required" } else { "" },
                if a.docs.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", a.docs)
                }
            );
        }
        let _ = writeln!(
            s,
            "- payload: {}{}",
            upstream
                .tag_payload(t)
                .map_or("none", |p| p.upstream_name()),
            if t.payload_required { ", required" } else { "" }
        );
        let _ = writeln!(s, "- stability: {}", stab(upstream.tag_stability(t)));
        if let Some(ex) = examples::example(t.name()) {
            let _ = writeln!(s, "\n```go\n{ex}\n```");
        }
    }
    s
}

fn stability_name(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "Alpha",
        Stability::Beta => "Beta",
        Stability::Stable => "Stable",
    }
}

/// The tag reference as JSON in the shape of upstream `validation-gen --docs` (spec §7): an array sorted by `Tag` of
/// `{Tag, StabilityLevel, Args?, Usage, Description, Docs, Scopes, Payloads?, PayloadsType?, PayloadsRequired?,
/// AcceptsUnknownArgs?}`, with `Usage` synthesized as upstream does when absent. Descriptions are vgc's catalog
/// texts. Upstream's tags only: vgc's extension tags ([`catalog::TagId::is_extension`]) are not in upstream's
/// registry, so they are left out of its shape (the Markdown and HTML references list them apart). Stability levels
/// are the newest profile's ([`vgc_ir::Upstream::tag_stability`]).
#[must_use]
pub fn tag_reference_json() -> serde_json::Value {
    tag_reference_json_for(vgc_ir::Upstream::NEWEST)
}

/// [`tag_reference_json`] as release `upstream` documents its tags (its stability levels and payloads).
#[must_use]
pub fn tag_reference_json_for(upstream: vgc_ir::Upstream) -> serde_json::Value {
    let tags: Vec<serde_json::Value> = catalog::TAGS
        .iter()
        .filter(|t| !t.id.is_extension())
        .map(|t| {
            let mut usage = t.name().to_string();
            if !t.args.is_empty() {
                let args: Vec<String> = t
                    .args
                    .iter()
                    .map(|a| if a.name.is_empty() { format!("<{}>", a.kind.upstream_name()) } else { format!("{}: <{}>", a.name, a.kind.upstream_name()) })
                    .collect();
                usage.push_str(&format!("({})", args.join(", ")));
            }
            if let Some(p) = upstream.tag_payload(t) {
                usage.push_str(&format!("=<{}>", p.upstream_name()));
            }
            let mut scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
            scopes.sort_unstable();
            let mut o = serde_json::json!({
                "Tag": t.name(),
                "StabilityLevel": stability_name(upstream.tag_stability(t)),
                "Usage": usage,
                "Description": t.docs,
                "Docs": "",
                "Scopes": scopes,
            });
            if !t.args.is_empty() {
                o["Args"] = t
                    .args
                    .iter()
                    .map(|a| serde_json::json!({"Name": a.name, "Description": a.docs, "Type": a.kind.upstream_name(), "Required": a.required, "Default": "", "Docs": ""}))
                    .collect();
            }
            if let Some(p) = upstream.tag_payload(t) {
                o["Payloads"] = serde_json::json!([{"Description": format!("<{}>", p.upstream_name()), "Docs": ""}]);
                o["PayloadsType"] = serde_json::json!(p.upstream_name());
                if t.payload_required {
                    o["PayloadsRequired"] = serde_json::json!(true);
                }
            }
            if t.accepts_unknown_args {
                o["AcceptsUnknownArgs"] = serde_json::json!(true);
            }
            o
        })
        .collect();
    serde_json::Value::Array(tags)
}

/// The diagnostics reference: every code with its severity, rule name and rationale, as a Markdown table.
#[must_use]
pub fn diagnostics_markdown() -> String {
    let mut s =
        String::from("| code | name | default severity | why | example |\n|---|---|---|---|---|\n");
    for c in vgc_ir::ALL_CODES {
        let sev = match c.default_severity() {
            vgc_ir::Severity::Error => "error",
            vgc_ir::Severity::Warning => "warning",
        };
        let example = examples::diagnostic_example(c.as_str())
            .unwrap_or("")
            .replace('|', "\\|");
        let _ = writeln!(
            s,
            "| {} | {} | {sev} | {} | `{example}` |",
            c.as_str(),
            c.name(),
            c.rationale()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_lists_every_tag() {
        let md = super::tag_reference_markdown();
        assert_eq!(md.lines().filter(|l| l.starts_with("| `k8s:")).count(), 52);
        assert_eq!(md.matches("\n### `+k8s:").count(), 52);
        assert_eq!(md.matches("```go").count(), 52);
        // The extension tags are listed apart, between the upstream tags and the test-only ones.
        let (upstream, rest) = md.split_once("\nvgc extensions").expect("extensions table");
        let (extensions, _) = rest
            .split_once("\nTest-only tags")
            .expect("test-only table");
        assert!(!upstream.contains("| `k8s:ifSubresource`"));
        assert!(
            extensions.contains("| `k8s:ifSubresource` |")
                && extensions.contains("| `k8s:ifNotSubresource` |")
        );
        assert!(md.contains("### `+k8s:maxItems`\n\n"));
        assert!(md.contains("| `k8s:maxItems` | type definitions, struct fields, list values, map values | int | stable | yes | lowered |"));
    }

    /// The references describe one release: 1.37's `dependentRequired` is Alpha and its `required` takes no
    /// payload; 1.38's are Beta and an optional string message (code-generator v0.37.2 / v0.38.0-beta.0
    /// `dependentrequired.go`, `required.go` `Docs`).
    #[test]
    fn references_follow_the_release() {
        let tag = |u, name: &str| {
            super::tag_reference_json_for(u)
                .as_array()
                .expect("array")
                .iter()
                .find(|t| t["Tag"] == name)
                .cloned()
                .expect("tag")
        };
        let (v37, v38) = (vgc_ir::Upstream::V1_37, vgc_ir::Upstream::V1_38);
        assert_eq!(tag(v37, "k8s:dependentRequired")["StabilityLevel"], "Alpha");
        assert_eq!(tag(v38, "k8s:dependentRequired")["StabilityLevel"], "Beta");
        assert_eq!(tag(v37, "k8s:required")["Usage"], "k8s:required");
        assert_eq!(tag(v38, "k8s:required")["Usage"], "k8s:required=<string>");
        assert!(
            super::tag_reference_markdown_for(v37)
                .contains("| `k8s:forbidden` | struct fields | — | beta |")
        );
    }
}
