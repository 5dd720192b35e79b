//! Requiredness (upstream `required.go`): `required`, `optional` and `forbidden` (`vgc_codegen`'s
//! `emit/checks/required.rs`).

use super::*;

/// `checks::required::call`: a `required`, `optional` or `forbidden` check on the value's set-ness ([`set`]).
pub(super) fn call(c: &Check, site: Site<'_>, new: Option<&Val<'_>>, path: &Path<'_>) -> ErrorList {
    let shape = site.shape;
    match &c.kind {
        CheckKind::Required { detail: None } => v::required(path, set(shape, new)),
        CheckKind::Required { detail: Some(d) } => v::required_with(path, set(shape, new), d),
        CheckKind::Optional => ErrorList::new(),
        CheckKind::Forbidden { detail: None } => v::forbidden(path, set(shape, new)),
        CheckKind::Forbidden { detail: Some(d) } => v::forbidden_with(path, set(shape, new), d),
        other => unreachable!("not a requiredness check: {other:?}"),
    }
}
