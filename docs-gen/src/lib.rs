//! vgc-docs-gen: documentation generated from the tag catalog. This milestone renders the tag reference as
//! Markdown; API reference pages per group/version/type come next.

use std::fmt::Write as _;
use vgc_ir::catalog::{self, Lowering, Stability};

/// Renders the tag reference (one row per upstream validation tag: scopes, payload, stability, flags and
/// vgc's lowering status) as a Markdown table. Deterministic: tags are in catalog (name) order.
#[must_use]
pub fn tag_reference_markdown() -> String {
    let mut s = String::from(
        "| tag | scopes | payload | stability | short-circuit | vgc | description |\n|---|---|---|---|---|---|---|\n",
    );
    for t in catalog::TAGS {
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.upstream_name()).collect();
        let payload = t.payload.map_or("—", |p| p.upstream_name());
        let stab = match t.stability {
            Stability::Alpha => "alpha",
            Stability::Beta => "beta",
            Stability::Stable => "stable",
        };
        let low = match t.lowering {
            Lowering::Lowered => "lowered",
            Lowering::Metadata => "metadata",
            Lowering::NotYet => "not lowered yet",
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {payload} | {stab} | {} | {low} | {} |",
            t.name,
            scopes.join(", "),
            if t.flags.short_circuit { "yes" } else { "no" },
            t.docs
        );
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_lists_every_tag() {
        let md = super::tag_reference_markdown();
        assert_eq!(md.lines().count(), 2 + 45);
        assert!(md.contains("| `k8s:maxItems` | type definitions, struct fields, list values, map values | int | stable | yes | lowered |"));
    }
}
