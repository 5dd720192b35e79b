//! Lists and maps (upstream `each.go`): iteration over elements and keys with ratcheting, uniqueness, nil elements.

use super::bad_value;
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;
use std::collections::BTreeMap;

/// upstream `EachValSliceVal`: for each element, find its old counterpart with `matches` (list-map keys or set
/// equality; `None` for atomic lists), skip it on update when found and `equiv` holds, otherwise run `f` at
/// `path[i]`.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn each_slice_val<T>(
    op: &Operation,
    path: &Path<'_>,
    new: &[T],
    old: Option<&[T]>,
    matches: Option<fn(&T, &T) -> bool>,
    equiv: Option<fn(&T, &T) -> bool>,
    mut f: impl FnMut(&Path<'_>, &T, Option<&T>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for (i, v) in new.iter().enumerate() {
        let o = match (matches, old) {
            (Some(m), Some(old)) => old.iter().find(|o| m(o, v)),
            _ => None,
        };
        if op.is_update() && o.is_some_and(|o| equiv.is_none_or(|eq| eq(v, o))) {
            continue;
        }
        f(&path.index(i), v, o, errs);
    }
}

/// upstream `EachPtrSliceVal`: like [`each_slice_val`] for `[]*T`; nil elements are skipped.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn each_ptr_slice_val<T>(
    op: &Operation,
    path: &Path<'_>,
    new: &[Option<T>],
    old: Option<&[Option<T>]>,
    matches: Option<fn(&T, &T) -> bool>,
    equiv: Option<fn(&T, &T) -> bool>,
    mut f: impl FnMut(&Path<'_>, &T, Option<&T>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for (i, v) in new.iter().enumerate() {
        let Some(v) = v else { continue };
        let o = match (matches, old) {
            (Some(m), Some(old)) => old.iter().flatten().find(|o| m(o, v)),
            _ => None,
        };
        if op.is_update() && o.is_some_and(|o| equiv.is_none_or(|eq| eq(v, o))) {
            continue;
        }
        f(&path.index(i), v, o, errs);
    }
}

/// upstream `EachMapVal`: the old value is `old[key]`; skipped on update when present and `equiv` holds.
/// Iteration is in key order (upstream's is random; see docs/deviations.md).
pub fn each_map_val<V>(
    op: &Operation,
    path: &Path<'_>,
    new: &BTreeMap<String, V>,
    old: Option<&BTreeMap<String, V>>,
    equiv: Option<fn(&V, &V) -> bool>,
    mut f: impl FnMut(&Path<'_>, &V, Option<&V>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for (k, v) in new {
        let o = old.and_then(|m| m.get(k));
        if op.is_update() && o.is_some() && equiv.is_some_and(|eq| o.is_some_and(|o| eq(v, o))) {
            continue;
        }
        f(&path.key(k), v, o, errs);
    }
}

/// upstream `EachMapKey`: the validator gets the map's own path; keys present in the old map are skipped on
/// update.
pub fn each_map_key<V>(
    op: &Operation,
    path: &Path<'_>,
    new: &BTreeMap<String, V>,
    old: Option<&BTreeMap<String, V>>,
    mut f: impl FnMut(&Path<'_>, &String, &mut ErrorList),
    errs: &mut ErrorList,
) {
    for k in new.keys() {
        if op.is_update() && old.is_some_and(|m| m.contains_key(k)) {
            continue;
        }
        f(path, k, errs);
    }
}

/// upstream `ValSliceUnique`: `Duplicate(path[j], element)` for every later index duplicating an earlier one,
/// sorted, once each.
///
/// Cost: at most n(n-1)/2 calls of `matches` (all elements distinct), n-1 when all are equal — never the O(n³) of
/// upstream's `slices.Contains` inside the pair loop (R16: 8,000 equal items took 28 s). `matches` is an
/// equivalence (value equality, semantic equality, or equality of the list-map key tuple), so an element already
/// found to duplicate an earlier one need not be compared again: everything it matches, the earlier one matched
/// first. The errors and their order are upstream's.
#[must_use]
pub fn slice_unique<T: serde::Serialize>(
    path: &Path<'_>,
    new: &[T],
    matches: fn(&T, &T) -> bool,
) -> ErrorList {
    slice_unique_by(path, new, matches, bad_value)
}

/// [`slice_unique`] with the duplicate element rendered by `render` (the k8s-openapi target renders k8s-openapi
/// structs as upstream's `json.Marshal` of the Go struct does, which their own `Serialize` does not).
#[must_use]
pub fn slice_unique_by<T>(
    path: &Path<'_>,
    new: &[T],
    matches: fn(&T, &T) -> bool,
    render: impl Fn(&T) -> BadValue,
) -> ErrorList {
    unique_indexes(new.len(), |i, j| matches(&new[i], &new[j]))
        .into_iter()
        .map(|j| Error::duplicate(&path.index(j), render(&new[j])))
        .collect()
}

/// upstream `PtrSliceUnique`: like [`slice_unique`], nil elements ignored (same cost bound).
#[must_use]
pub fn ptr_slice_unique<T: serde::Serialize>(
    path: &Path<'_>,
    new: &[Option<T>],
    matches: fn(&T, &T) -> bool,
) -> ErrorList {
    unique_indexes(new.len(), |i, j| match (&new[i], &new[j]) {
        (Some(a), Some(b)) => matches(a, b),
        _ => false,
    })
    .into_iter()
    .map(|j| Error::duplicate(&path.index(j), bad_value(&new[j])))
    .collect()
}

/// The indexes j of `0..n` for which some i < j has `matches(i, j)`, ascending. `matches` must be an
/// equivalence on the elements it relates; see [`slice_unique`] for the cost.
/// Allocates nothing when there is no duplicate (a valid object validates without allocating).
fn unique_indexes(n: usize, matches: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    // Empty until the first duplicate is found.
    let mut dup: Vec<bool> = Vec::new();
    let is_dup = |dup: &Vec<bool>, k: usize| dup.get(k).copied().unwrap_or(false);
    for i in 0..n {
        if is_dup(&dup, i) {
            continue;
        }
        for j in i + 1..n {
            if !is_dup(&dup, j) && matches(i, j) {
                if dup.is_empty() {
                    dup = vec![false; n];
                }
                dup[j] = true;
            }
        }
    }
    (0..n).filter(|&j| is_dup(&dup, j)).collect()
}

/// upstream `PtrSliceNoNils`: `Required(path[i], "")` for each nil element.
#[must_use]
pub fn ptr_slice_no_nils<T>(path: &Path<'_>, new: &[Option<T>]) -> ErrorList {
    new.iter()
        .enumerate()
        .filter(|(_, v)| v.is_none())
        .map(|(i, _)| Error::required(&path.index(i), ""))
        .collect()
}

/// upstream `PtrMapNoNils` (k8s.io/apimachinery v0.38, kubernetes#141383): `Required(path[key], "")` (no origin) per
/// nil value of a `map[K]*V`, in key order (Go's map order is random; the differential compares per key).
#[must_use]
pub fn ptr_map_no_nils<T>(path: &Path<'_>, new: &BTreeMap<String, Option<T>>) -> ErrorList {
    new.iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| Error::required(&path.key(k), ""))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    fn counted_eq(a: &String, b: &String) -> bool {
        CALLS.fetch_add(1, Ordering::Relaxed);
        a == b
    }

    fn dup_strings(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    /// R16: errors and order as upstream's `ValSliceUnique`, and the comparison count bound (n-1 for equal items,
    /// n(n-1)/2 for distinct ones) instead of upstream's cubic loop.
    #[test]
    fn r16_uniqueness_is_quadratic_at_worst_with_upstream_errors() {
        let root = Path::Root;
        let hosts = root.child("hosts");
        let v: Vec<String> = ["a", "b", "a", "c", "b", "a"].map(String::from).to_vec();
        assert_eq!(
            dup_strings(&slice_unique(&hosts, &v, counted_eq)),
            [
                r#"hosts[2]: Duplicate value: "a""#,
                r#"hosts[4]: Duplicate value: "b""#,
                r#"hosts[5]: Duplicate value: "a""#,
            ]
        );
        let ptrs: Vec<Option<String>> = vec![None, Some("x".into()), None, Some("x".into())];
        assert_eq!(
            dup_strings(&ptr_slice_unique(&hosts, &ptrs, counted_eq)),
            [r#"hosts[3]: Duplicate value: "x""#]
        );
        let n = 2000;
        let equal = vec!["a.example.com".to_string(); n];
        CALLS.store(0, Ordering::Relaxed);
        assert_eq!(slice_unique(&hosts, &equal, counted_eq).len(), n - 1);
        assert_eq!(CALLS.load(Ordering::Relaxed), n - 1);
        let distinct: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        CALLS.store(0, Ordering::Relaxed);
        assert!(slice_unique(&hosts, &distinct, counted_eq).is_empty());
        assert_eq!(CALLS.load(Ordering::Relaxed), n * (n - 1) / 2);
    }

    /// `PtrMapNoNils` (v0.38): `Required` at each nil value's key, no origin.
    #[test]
    fn ptr_map_no_nils_per_key() {
        let root = Path::Root;
        let path = root.child("m");
        let m: BTreeMap<String, Option<i32>> = [("a", Some(1)), ("b", None), ("c", None)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let got: Vec<String> = ptr_map_no_nils(&path, &m)
            .iter()
            .map(|e| format!("{e} [{}]", e.origin))
            .collect();
        assert_eq!(got, ["m[b]: Required value []", "m[c]: Required value []"]);
        assert!(ptr_map_no_nils::<i32>(&path, &BTreeMap::new()).is_empty());
    }
}
