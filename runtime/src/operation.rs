//! The operation being validated, mirroring `k8s.io/apimachinery/pkg/api/operation`.

use std::collections::BTreeMap;

/// Create, Update or Delete (upstream `operation.Type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum OperationType {
    /// A create (no old object).
    #[default]
    Create,
    /// An update (an old object may be given).
    Update,
    /// A delete.
    Delete,
}

/// Upstream `operation.Operation`: the type, the validation options (feature gates) that are defined and whether
/// each is on, and the request's subresource path segments.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Operation {
    /// Create / Update / Delete.
    #[serde(rename = "type")]
    pub op_type: OperationType,
    /// Defined options and whether they are enabled. An option absent here is *undefined*.
    #[serde(default)]
    pub options: BTreeMap<String, bool>,
    /// Subresource path segments (e.g. `["status"]`); empty for the main resource.
    #[serde(default)]
    pub subresources: Vec<String>,
}

impl Operation {
    /// A create with no options.
    #[must_use]
    pub fn create() -> Self {
        Self::default()
    }
    /// An update with no options.
    #[must_use]
    pub fn update() -> Self {
        Self {
            op_type: OperationType::Update,
            ..Self::default()
        }
    }
    /// True for updates.
    #[must_use]
    pub fn is_update(&self) -> bool {
        self.op_type == OperationType::Update
    }
    /// upstream ≤ 1.36 `HasOption` (apimachinery v0.35/v0.36, where `Options` is the list of enabled names):
    /// true when the option is defined and on; an option the request does not define is disabled. Generated code
    /// of the 1.35 and 1.36 profiles calls this; 1.37 on calls [`Operation::has_option`].
    #[must_use]
    pub fn option_enabled(&self, name: &str) -> bool {
        self.options.get(name).copied().unwrap_or(false)
    }
    /// upstream (1.37 on) `HasOption`: `(on, defined)`.
    #[must_use]
    pub fn has_option(&self, name: &str) -> (bool, bool) {
        self.options
            .get(name)
            .map_or((false, false), |on| (*on, true))
    }
    /// True when [`Operation::subresource_path`] equals `path`, without allocating.
    #[must_use]
    pub fn subresource_is(&self, path: &str) -> bool {
        let Some(mut rest) = path.strip_prefix('/') else {
            return false;
        };
        if self.subresources.is_empty() {
            return rest.is_empty();
        }
        for (i, seg) in self.subresources.iter().enumerate() {
            if i > 0 {
                match rest.strip_prefix('/') {
                    Some(r) => rest = r,
                    None => return false,
                }
            }
            match rest.strip_prefix(seg.as_str()) {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest.is_empty()
    }

    /// upstream `Request.SubresourcePath()`: `"/"` without subresources, otherwise `"/" + join("/")`.
    #[must_use]
    pub fn subresource_path(&self) -> String {
        format!("/{}", self.subresources.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn subresource_paths() {
        let mut op = Operation::create();
        assert_eq!(op.subresource_path(), "/");
        assert!(op.subresource_is("/") && !op.subresource_is("/status"));
        op.subresources = vec!["x".into(), "y".into()];
        assert_eq!(op.subresource_path(), "/x/y");
        assert!(
            op.subresource_is("/x/y") && !op.subresource_is("/x") && !op.subresource_is("/x/yz")
        );
    }
}
