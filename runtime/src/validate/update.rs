//! Update constraints (upstream `update.go`): `+k8s:update` on values, lists and maps.

use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;
use std::collections::BTreeMap;

/// The `+k8s:update` constraints, in upstream's merged order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum UpdateConstraint {
    /// A field unset on create may not be set later.
    NoSet,
    /// A set field may not be cleared.
    NoUnset,
    /// A set field may not change.
    NoModify,
    /// No list item or map key may be added.
    NoAddItem,
    /// No list item or map key may be removed.
    NoRemoveItem,
}

impl UpdateConstraint {
    /// Every constraint, in upstream's merged order (the derived `Ord`).
    pub const ALL: [UpdateConstraint; 5] = [
        UpdateConstraint::NoSet,
        UpdateConstraint::NoUnset,
        UpdateConstraint::NoModify,
        UpdateConstraint::NoAddItem,
        UpdateConstraint::NoRemoveItem,
    ];

    /// The `+k8s:update=<name>` spelling, which is also the variant's name (`NoSet`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            UpdateConstraint::NoSet => "NoSet",
            UpdateConstraint::NoUnset => "NoUnset",
            UpdateConstraint::NoModify => "NoModify",
            UpdateConstraint::NoAddItem => "NoAddItem",
            UpdateConstraint::NoRemoveItem => "NoRemoveItem",
        }
    }

    /// The constraint spelled `name` in `+k8s:update=<name>`, or `None`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<UpdateConstraint> {
        UpdateConstraint::ALL.into_iter().find(|c| c.name() == name)
    }

    /// True for `NoAddItem`/`NoRemoveItem`, which apply to list items and map keys only (and identify list items
    /// through the list metadata).
    #[must_use]
    pub const fn on_items(self) -> bool {
        matches!(
            self,
            UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem
        )
    }
}

fn update_err(path: &Path<'_>, detail: &str) -> Error {
    Error::invalid(path, BadValue::Json(serde_json::Value::Null), detail).with_origin("update")
}

/// upstream `UpdateValueByCompare` / `UpdateValueByReflect` / `UpdateStruct` (nil old → no error) and
/// `UpdatePointer` (`pointer == true`: a nil old value still counts as "unset"). `old_set`/`new_set` are the
/// set-ness of each side; `changed` is whether the values differ.
#[must_use]
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn update_scalar(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    pointer: bool,
    old_set: bool,
    new_set: bool,
    changed: bool,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() || (!has_old && !pointer) {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if !old_set && new_set => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if old_set && !new_set => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoModify if old_set && new_set && changed => {
                errs.push(update_err(path, "field cannot be modified once set"));
            }
            _ => {}
        }
    }
    errs
}

/// upstream `ValSliceUpdate` / `PtrSliceUpdate` for NoAddItem / NoRemoveItem (`matches` identifies items;
/// `hash`, [`crate::key_hash!`] of what it compares, finds them through an index in linear time, R54).
#[must_use]
pub fn slice_update<T>(
    path: &Path<'_>,
    op: &Operation,
    new: &[T],
    old: &[T],
    matches: fn(&T, &T) -> bool,
    hash: Option<fn(&T) -> u64>,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    list_update(
        path,
        op,
        new,
        old,
        super::matching::itself,
        matches,
        hash,
        constraints,
    )
}

/// upstream `PtrSliceUpdate`: [`slice_update`] for `[]*T`; nil elements are ignored when matching and never
/// count as added or removed items.
#[must_use]
pub fn ptr_slice_update<T>(
    path: &Path<'_>,
    op: &Operation,
    new: &[Option<T>],
    old: &[Option<T>],
    matches: fn(&T, &T) -> bool,
    hash: Option<fn(&T) -> u64>,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    list_update(
        path,
        op,
        new,
        old,
        Option::as_ref,
        matches,
        hash,
        constraints,
    )
}

/// [`slice_update`] over elements `E` whose item `item` returns (`None`: a nil element, never matched, added or
/// removed; emptiness of the list still counts every element, as upstream's `len`).
#[allow(clippy::too_many_arguments)] // the two public validators' parameters and the item accessor
fn list_update<E, T>(
    path: &Path<'_>,
    op: &Operation,
    new: &[E],
    old: &[E],
    item: for<'a> fn(&'a E) -> Option<&'a T>,
    matches: fn(&T, &T) -> bool,
    hash: Option<fn(&T) -> u64>,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if old.is_empty() && !new.is_empty() => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if !old.is_empty() && new.is_empty() => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoAddItem => {
                let ix = super::matching::index(old, item, hash);
                for (i, n) in new.iter().enumerate() {
                    let Some(n) = item(n) else { continue };
                    let h = || hash.map_or(0, |h| h(n));
                    if super::matching::first(old, item, ix.as_ref(), h, |o| matches(o, n))
                        .is_none()
                    {
                        errs.push(
                            Error::forbidden(&path.index(i), "item may not be added")
                                .with_origin("update"),
                        );
                    }
                }
            }
            UpdateConstraint::NoRemoveItem => {
                let ix = super::matching::index(new, item, hash);
                for o in old.iter().filter_map(item) {
                    let h = || hash.map_or(0, |h| h(o));
                    if super::matching::first(new, item, ix.as_ref(), h, |n| matches(o, n))
                        .is_none()
                    {
                        errs.push(
                            Error::forbidden(path, "item may not be removed").with_origin("update"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    errs
}

/// upstream `UpdateMap` for NoSet / NoUnset / NoAddItem / NoRemoveItem (keys identify items).
#[must_use]
pub fn map_update<V>(
    path: &Path<'_>,
    op: &Operation,
    new: &BTreeMap<String, V>,
    old: &BTreeMap<String, V>,
    constraints: &[UpdateConstraint],
) -> ErrorList {
    if !op.is_update() {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for c in constraints {
        match c {
            UpdateConstraint::NoSet if old.is_empty() && !new.is_empty() => {
                errs.push(update_err(path, "field cannot be set once created"))
            }
            UpdateConstraint::NoUnset if !old.is_empty() && new.is_empty() => {
                errs.push(update_err(path, "field cannot be cleared once set"))
            }
            UpdateConstraint::NoAddItem => {
                for k in new.keys().filter(|k| !old.contains_key(*k)) {
                    errs.push(
                        Error::forbidden(&path.key(k), "item may not be added")
                            .with_origin("update"),
                    );
                }
            }
            UpdateConstraint::NoRemoveItem => {
                for k in old.keys().filter(|k| !new.contains_key(*k)) {
                    errs.push(
                        Error::forbidden(&path.key(k), "item may not be removed")
                            .with_origin("update"),
                    );
                }
            }
            _ => {}
        }
    }
    errs
}
