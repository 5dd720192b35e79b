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
    /// upstream (k8s.io/apimachinery v0.38) `Operation.OptionGetter`: consulted for an option [`Operation::options`]
    /// does not define. Not serialized.
    #[serde(skip)]
    pub option_getter: Option<OptionGetter>,
}

/// upstream `operation.OptionGetter` (k8s.io/apimachinery v0.38): `Get(option) (enabled, defined bool)`, e.g. a
/// feature-gate registry. Two getters are equal when they are the same function object.
#[derive(Clone)]
pub struct OptionGetter(pub std::sync::Arc<GetOption>);

/// The function behind an [`OptionGetter`]: option name → `(enabled, defined)`.
pub type GetOption = dyn Fn(&str) -> (bool, bool) + Send + Sync;

impl OptionGetter {
    /// Wraps `get`, which returns `(enabled, defined)` for an option name.
    pub fn new(get: impl Fn(&str) -> (bool, bool) + Send + Sync + 'static) -> Self {
        Self(std::sync::Arc::new(get))
    }
}

impl std::fmt::Debug for OptionGetter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OptionGetter(..)")
    }
}

impl PartialEq for OptionGetter {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for OptionGetter {}

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
    /// (An [`Operation::option_getter`], which those releases do not have, is consulted as by
    /// [`Operation::has_option`].)
    #[must_use]
    pub fn option_enabled(&self, name: &str) -> bool {
        self.has_option(name).0
    }
    /// upstream (1.37 on) `HasOption`: `(on, defined)`. From k8s.io/apimachinery v0.38 an option
    /// [`Operation::options`] defines wins whatever its value; otherwise the [`Operation::option_getter`] answers,
    /// if there is one; else the option is undefined.
    #[must_use]
    pub fn has_option(&self, name: &str) -> (bool, bool) {
        match (self.options.get(name), &self.option_getter) {
            (Some(on), _) => (*on, true),
            (None, Some(getter)) => (getter.0)(name),
            (None, None) => (false, false),
        }
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

    /// apimachinery v0.38 `HasOption`: `Options` first (a defined entry wins, even when off), then the getter.
    #[test]
    fn option_getter_after_options() {
        let mut op = Operation::create();
        assert_eq!(op.has_option("A"), (false, false));
        op.option_getter = Some(OptionGetter::new(|name| match name {
            "A" | "B" => (true, true),
            "C" => (false, true),
            _ => (false, false),
        }));
        op.options.insert("B".into(), false);
        assert_eq!(op.has_option("A"), (true, true));
        assert_eq!(op.has_option("B"), (false, true));
        assert_eq!(op.has_option("C"), (false, true));
        assert_eq!(op.has_option("D"), (false, false));
        assert!(op.option_enabled("A") && !op.option_enabled("B"));
        let copy = op.clone();
        assert_eq!(copy, op);
        let other = Operation {
            option_getter: Some(OptionGetter::new(|_| (true, true))),
            ..op.clone()
        };
        assert_ne!(other, op);
    }
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
