//! Go doc comments for the API pages: the prose of each type's and field's comment (the lines that are not
//! `+tags`), and each package's API group (`+groupName=` in its package comment, as Kubernetes' `register.go` /
//! `doc.go` declare it). Read from the Go files the build loaded, with vgc's own Go front end (`vgc_parser::go`);
//! the IR does not keep prose, so that rewording a comment never re-runs analysis (see `tests/incremental.rs`).

use std::collections::BTreeMap;

/// Doc comments of a set of packages, by import path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoDocs {
    /// Import path → that package's docs.
    pub packages: BTreeMap<String, PackageDocs>,
}

/// One package's docs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageDocs {
    /// The API group of `+groupName=<group>` (`Some("")` for the core group), if the package declares one.
    pub group: Option<String>,
    /// Type name → docs.
    pub types: BTreeMap<String, TypeDocs>,
}

/// One type's docs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeDocs {
    /// The type's doc comment prose (Go doc text, shown as Markdown), `""` when it has none.
    pub doc: String,
    /// Go field name → the field's doc comment prose.
    pub fields: BTreeMap<String, String>,
    /// Go field name → `required` or `optional`, from the field's `+required` / `+optional` marker (the
    /// Kubernetes API conventions' markers, which OpenAPI reads; `+k8s:required` is in the plan instead).
    pub markers: BTreeMap<String, &'static str>,
}

impl GoDocs {
    /// Reads the Go files of each package (`import path → file paths`, as `vgc::BuildOutcome::package_files` lists
    /// them). A file that cannot be read any more contributes nothing (the build already read it; its docs are
    /// simply missing from the site).
    #[must_use]
    pub fn read(package_files: &BTreeMap<String, Vec<String>>) -> Self {
        let mut docs = Self::default();
        for (pkg, files) in package_files {
            for f in files {
                if let Ok(text) = std::fs::read_to_string(f) {
                    docs.add_source(pkg, &text);
                }
            }
        }
        docs
    }

    /// Adds the docs of one Go source file of package `pkg`.
    pub fn add_source(&mut self, pkg: &str, text: &str) {
        let file = vgc_parser::go::parse(text);
        let p = self.packages.entry(pkg.to_string()).or_default();
        for g in &file.comment_groups {
            for l in &g.lines {
                if let Some(group) = l.text.trim().strip_prefix("+groupName=") {
                    p.group = Some(group.trim().to_string());
                }
            }
        }
        for t in &file.types {
            let mut td = TypeDocs {
                doc: prose(t.doc.iter().map(|l| l.text.as_str())),
                fields: BTreeMap::new(),
                markers: BTreeMap::new(),
            };
            if let vgc_parser::go::TypeExpr::Struct(fields) = &t.ty {
                for f in fields {
                    if let Some(name) = &f.name {
                        let d = prose(f.doc.iter().map(|l| l.text.as_str()));
                        if !d.is_empty() {
                            td.fields.insert(name.clone(), d);
                        }
                        for l in &f.doc {
                            match l.text.trim() {
                                "+required" => td.markers.insert(name.clone(), "required"),
                                "+optional" => td.markers.insert(name.clone(), "optional"),
                                _ => None,
                            };
                        }
                    }
                }
            }
            p.types.insert(t.name.clone(), td);
        }
    }

    /// The docs of type `name` of package `pkg`.
    #[must_use]
    pub fn type_docs(&self, pkg: &str, name: &str) -> Option<&TypeDocs> {
        self.packages.get(pkg)?.types.get(name)
    }
}

/// The prose of a doc comment: its lines without `+tag` lines, cut at a `---` line (Kubernetes' convention for
/// comments that are not API documentation, honoured by its OpenAPI generator), without leading and trailing blank
/// lines.
#[must_use]
pub fn prose<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut out: Vec<&str> = Vec::new();
    for l in lines {
        let t = l.trim();
        if t == "---" {
            break;
        }
        if t.starts_with('+') {
            continue;
        }
        out.push(l.trim_end());
    }
    while out.first().is_some_and(|l| l.trim().is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn prose_drops_tags_and_internal_notes() {
        let mut d = super::GoDocs::default();
        d.add_source(
            "example.com/v1",
            "// +k8s:validation-gen=*\n// +groupName=widgets.example.com\npackage v1\n\n// Widget is a widget.\n//\n// +k8s:supportsSubresource=/status\ntype Widget struct {\n\t// Replicas is how many.\n\t// +k8s:optional\n\t// ---\n\t// Internal note.\n\tReplicas *int32 `json:\"replicas,omitempty\"`\n\t// +required\n\tName string `json:\"name\"`\n}\n",
        );
        let p = &d.packages["example.com/v1"];
        assert_eq!(p.group.as_deref(), Some("widgets.example.com"));
        let t = d.type_docs("example.com/v1", "Widget").expect("Widget");
        assert_eq!(t.doc, "Widget is a widget.");
        assert_eq!(t.fields["Replicas"], "Replicas is how many.");
        assert_eq!(t.markers["Name"], "required");
        assert!(!t.fields.contains_key("Name"));
    }
}
