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
    /// upstream `HasOption`: `(on, defined)`.
    #[must_use]
    pub fn has_option(&self, name: &str) -> (bool, bool) {
        self.options
            .get(name)
            .map_or((false, false), |on| (*on, true))
    }
    /// upstream `Request.SubresourcePath()`: `"/"` without subresources, otherwise `"/" + join("/")`.
    #[must_use]
    pub fn subresource_path(&self) -> String {
        format!("/{}", self.subresources.join("/"))
    }
}
