//! vgc-runtime: what vgc-generated validation code calls.
//!
//! - [`decode`]: JSON into a generated type, naming the path of a value that does not decode.
//! - [`field`]: lazily rendered field paths and upstream-shaped errors (`k8s.io/apimachinery/pkg/util/validation/field`).
//! - [`operation`]: the operation, options and subresources (`k8s.io/apimachinery/pkg/api/operation`).
//! - [`validate`]: the runtime validators (`k8s.io/apimachinery/pkg/api/validate`).
//! - [`formats`]: the string formats of `+k8s:format`.
//! - [`extensions`]: validators of vgc's opt-in extensions (field-path constraints, `docs/extensions.md`).
//! - [`k8s`]: ports of the hand-written `+k8s:customValidation` functions k8s.io/api and apimachinery name.
//! - [`regex`]: Go (RE2) patterns of project-defined formats, for [`validate::matches`].
//! - [`status`]: an error list as the API server's `metav1.Status` (`k8s.io/apimachinery/pkg/api/errors.NewInvalid`).
//! - [`types`]: well-known Kubernetes value types with their JSON forms and semantic equality.
//!
//! Invariant: depends on no compiler crate; its semver is independent of vgc's.

pub mod decode;
pub mod enforce;
pub mod extensions;
pub mod field;
pub mod formats;
pub mod k8s;
pub mod operation;
pub mod regex;
pub mod stack;
pub mod status;
pub mod types;
pub mod validate;

pub use enforce::Enforce;
pub use field::{BadValue, Error, ErrorList, ErrorListExt, ErrorType, Path, StabilityLevel};
pub use operation::{Operation, OperationType, OptionGetter};

/// Validation of a generated type: what every generated `Validate` impl provides.
pub trait Validate {
    /// Appends the errors of `self` (compared with `old` on update) under `path` to `errs`.
    fn validate_into(
        &self,
        old: Option<&Self>,
        op: &Operation,
        path: &Path<'_>,
        errs: &mut ErrorList,
    );

    /// Validates `self` as a root object: the path starts at the root (upstream passes a nil path).
    fn validate(&self, old: Option<&Self>, op: &Operation) -> ErrorList {
        let mut errs = ErrorList::new();
        self.validate_into(old, op, &Path::Root, &mut errs);
        errs
    }
}
