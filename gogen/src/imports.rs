//! The import block of a generated Go file, named as gengo's import tracker names packages
//! (`k8s.io/gengo/v2/generator/import_tracker.go` `goTrackerLocalName`) and laid out as goimports lays it out
//! (standard library first, then the rest, each group sorted by path, `name "path"` on every line).

use std::collections::BTreeMap;

/// The packages a generated file uses, each with its local name, in the order they were first used (gengo assigns a
/// name when a type of the package is first named, so a collision is resolved in favour of the first).
#[derive(Debug)]
pub(crate) struct Imports {
    /// The generated file's own package (never imported).
    local: String,
    /// Path → local name.
    names: BTreeMap<String, String>,
}

impl Imports {
    /// An empty tracker for a file of package `local` (an import path).
    #[must_use]
    pub(crate) fn new(local: &str) -> Self {
        Self {
            local: local.to_string(),
            names: BTreeMap::new(),
        }
    }

    /// The qualifier for a name of package `path`: `""` for the local package, else its local name followed by a
    /// dot, the package recorded as imported. upstream: gengo's raw namer with the import tracker.
    pub(crate) fn qualify(&mut self, path: &str) -> String {
        if path == self.local || path.is_empty() {
            return String::new();
        }
        if let Some(n) = self.names.get(path) {
            return format!("{n}.");
        }
        let name = self.local_name(path);
        self.names.insert(path.to_string(), name.clone());
        format!("{name}.")
    }

    /// `name` of package `path`, qualified.
    pub(crate) fn name(&mut self, path: &str, name: &str) -> String {
        format!("{}{name}", self.qualify(path))
    }

    /// gengo `goTrackerLocalName`: the shortest suffix of the path's elements, joined without separators and
    /// stripped of `_`, `.` and `-`, that no other import uses and that is not the local package's last element;
    /// a Go keyword gets a leading `_`.
    fn local_name(&self, path: &str) -> String {
        let local_leaf = self.local.rsplit('/').next().unwrap_or("");
        let dirs: Vec<&str> = path.split('/').collect();
        for n in (0..dirs.len()).rev() {
            let name: String = dirs[n..]
                .concat()
                .chars()
                .filter(|c| !matches!(c, '_' | '.' | '-'))
                .collect();
            if self.names.values().any(|v| *v == name) || name == local_leaf {
                continue;
            }
            if GO_KEYWORDS.contains(&name.as_str()) {
                return format!("_{name}");
            }
            return name;
        }
        // gengo panics ("can't find import"); a unique fallback keeps the file compilable.
        format!("pkg{}", self.names.len())
    }

    /// The `import ( … )` block with a blank line after it, or nothing when no package is imported.
    #[must_use]
    pub(crate) fn block(&self) -> String {
        if self.names.is_empty() {
            return String::new();
        }
        let (std, other): (Vec<_>, Vec<_>) = self.names.iter().partition(|(p, _)| is_std(p));
        let mut out = String::from("import (\n");
        for (i, group) in [std, other].iter().filter(|g| !g.is_empty()).enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for (path, name) in group {
                out.push_str(&format!("\t{name} \"{path}\"\n"));
            }
        }
        out.push_str(")\n\n");
        out
    }
}

/// goimports' standard-library test: no dot in the first path element.
fn is_std(path: &str) -> bool {
    !path.split('/').next().unwrap_or("").contains('.')
}

/// Go's keywords (`go/token.Lookup(name).IsKeyword()`).
const GO_KEYWORDS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_block_follow_gengo_and_goimports() {
        let mut i = Imports::new("k8s.io/kubernetes/pkg/apis/apps/v1");
        assert_eq!(i.qualify("k8s.io/kubernetes/pkg/apis/apps/v1"), "");
        assert_eq!(
            i.name("k8s.io/api/apps/v1", "Deployment"),
            "appsv1.Deployment"
        );
        assert_eq!(i.qualify("k8s.io/kubernetes/pkg/apis/core/v1"), "corev1.");
        assert_eq!(i.qualify("k8s.io/api/core/v1"), "apicorev1.");
        assert_eq!(i.qualify("context"), "context.");
        assert_eq!(
            i.qualify("k8s.io/apimachinery/pkg/util/validation/field"),
            "field."
        );
        assert_eq!(
            i.block(),
            "import (\n\tcontext \"context\"\n\n\tappsv1 \"k8s.io/api/apps/v1\"\n\tapicorev1 \"k8s.io/api/core/v1\"\n\tfield \"k8s.io/apimachinery/pkg/util/validation/field\"\n\tcorev1 \"k8s.io/kubernetes/pkg/apis/core/v1\"\n)\n\n"
        );
    }
}
