//! Lists and maps (upstream `each.go`): iteration over elements and keys with ratcheting, uniqueness, nil elements.

use super::bad_value;
use super::matching::{self, INDEX_FROM};
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;
use std::collections::BTreeMap;

/// upstream `EachValSliceVal`: for each element, find its old counterpart with `matches` (list-map keys or set
/// equality; `None` for atomic lists), skip it on update when found and `equiv` holds, otherwise run `f` at
/// `path[i]`. `hash` ([`crate::key_hash!`] of what `matches` compares) finds the counterpart through an index
/// of the old list ([`INDEX_FROM`] items or more): linear instead of quadratic, the same first match.
#[allow(clippy::too_many_arguments)] // mirrors the upstream validator's parameters
pub fn each_slice_val<T>(
    op: &Operation,
    path: &Path<'_>,
    new: &[T],
    old: Option<&[T]>,
    matches: Option<fn(&T, &T) -> bool>,
    hash: Option<fn(&T) -> u64>,
    equiv: Option<fn(&T, &T) -> bool>,
    mut f: impl FnMut(&Path<'_>, &T, Option<&T>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    let ix = old.and_then(|o| matching::index(o, matching::itself, hash));
    for (i, v) in new.iter().enumerate() {
        let o = match (matches, old) {
            (Some(m), Some(old)) => matching::first(
                old,
                matching::itself,
                ix.as_ref(),
                || hash.map_or(0, |h| h(v)),
                |o| m(o, v),
            ),
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
    hash: Option<fn(&T) -> u64>,
    equiv: Option<fn(&T, &T) -> bool>,
    mut f: impl FnMut(&Path<'_>, &T, Option<&T>, &mut ErrorList),
    errs: &mut ErrorList,
) {
    let ix = old.and_then(|o| matching::index(o, Option::<T>::as_ref, hash));
    for (i, v) in new.iter().enumerate() {
        let Some(v) = v else { continue };
        let o = match (matches, old) {
            (Some(m), Some(old)) => matching::first(
                old,
                Option::<T>::as_ref,
                ix.as_ref(),
                || hash.map_or(0, |h| h(v)),
                |o| m(o, v),
            ),
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
/// Cost: with `hash` ([`crate::key_hash!`] of what `matches` compares) and [`INDEX_FROM`] items or more, each
/// element is compared only with the first element of each earlier class in its hash bucket — linear for keys
/// that hash (R54). Otherwise at most n(n-1)/2 calls of `matches` (all elements distinct), n-1 when all are equal —
/// never the O(n³) of upstream's `slices.Contains` inside the pair loop (R16: 8,000 equal items took 28 s).
/// `matches` is an equivalence (value equality, semantic equality, or equality of the list-map key tuple), so an
/// element already found to duplicate an earlier one need not be compared again: everything it matches, the
/// earlier one matched first. The errors and their order are upstream's.
#[must_use]
pub fn slice_unique<T: serde::Serialize>(
    path: &Path<'_>,
    new: &[T],
    matches: fn(&T, &T) -> bool,
    hash: Option<fn(&T) -> u64>,
) -> ErrorList {
    slice_unique_by(path, new, matches, hash, bad_value)
}

/// [`slice_unique`] with the duplicate element rendered by `render` (the k8s-openapi target renders k8s-openapi
/// structs as upstream's `json.Marshal` of the Go struct does, which their own `Serialize` does not).
#[must_use]
pub fn slice_unique_by<T>(
    path: &Path<'_>,
    new: &[T],
    matches: fn(&T, &T) -> bool,
    hash: Option<fn(&T) -> u64>,
    render: impl Fn(&T) -> BadValue,
) -> ErrorList {
    let hashes = hash.map(|h| move |i: usize| Some(h(&new[i])));
    unique_indexes(new.len(), |i, j| matches(&new[i], &new[j]), hashes)
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
    hash: Option<fn(&T) -> u64>,
) -> ErrorList {
    let hashes = hash.map(|h| move |i: usize| new[i].as_ref().map(h));
    unique_indexes(
        new.len(),
        |i, j| match (&new[i], &new[j]) {
            (Some(a), Some(b)) => matches(a, b),
            _ => false,
        },
        hashes,
    )
    .into_iter()
    .map(|j| Error::duplicate(&path.index(j), bad_value(&new[j])))
    .collect()
}

/// The indexes j of `0..n` for which some i < j has `matches(i, j)`, ascending. `matches` must be an
/// equivalence on the elements it relates; see [`slice_unique`] for the cost. With `hashes` (an element's hash,
/// `None` for one that matches nothing, e.g. a nil element) and at least [`INDEX_FROM`] elements, each element is
/// compared with the first element of every class seen in its bucket so far: j duplicates an earlier element
/// exactly when its class has an earlier member, the same answer as the pairwise loop.
/// Allocates nothing when there is no duplicate in a list shorter than [`INDEX_FROM`] (a valid object with short
/// lists validates without allocating).
fn unique_indexes(
    n: usize,
    matches: impl Fn(usize, usize) -> bool,
    hashes: Option<impl Fn(usize) -> Option<u64>>,
) -> Vec<usize> {
    if let Some(hash) = hashes.filter(|_| n >= INDEX_FROM) {
        let mut firsts: std::collections::HashMap<u64, Vec<usize>> =
            std::collections::HashMap::with_capacity(n);
        let mut dup = Vec::new();
        for j in 0..n {
            let Some(h) = hash(j) else { continue };
            let bucket = firsts.entry(h).or_default();
            if bucket.iter().any(|&i| matches(i, j)) {
                dup.push(j);
            } else {
                bucket.push(j);
            }
        }
        return dup;
    }
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
            dup_strings(&slice_unique(&hosts, &v, counted_eq, None)),
            [
                r#"hosts[2]: Duplicate value: "a""#,
                r#"hosts[4]: Duplicate value: "b""#,
                r#"hosts[5]: Duplicate value: "a""#,
            ]
        );
        let ptrs: Vec<Option<String>> = vec![None, Some("x".into()), None, Some("x".into())];
        assert_eq!(
            dup_strings(&ptr_slice_unique(&hosts, &ptrs, counted_eq, None)),
            [r#"hosts[3]: Duplicate value: "x""#]
        );
        let n = 2000;
        let equal = vec!["a.example.com".to_string(); n];
        CALLS.store(0, Ordering::Relaxed);
        assert_eq!(slice_unique(&hosts, &equal, counted_eq, None).len(), n - 1);
        assert_eq!(CALLS.load(Ordering::Relaxed), n - 1);
        let distinct: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        CALLS.store(0, Ordering::Relaxed);
        assert!(slice_unique(&hosts, &distinct, counted_eq, None).is_empty());
        assert_eq!(CALLS.load(Ordering::Relaxed), n * (n - 1) / 2);
    }

    static HASHED_CALLS: AtomicUsize = AtomicUsize::new(0);

    fn hashed_counted_eq(a: &String, b: &String) -> bool {
        HASHED_CALLS.fetch_add(1, Ordering::Relaxed);
        a == b
    }

    fn string_hash(s: &String) -> u64 {
        crate::key_hash!(*s)
    }

    /// R54: with a hash, uniqueness and old-counterpart lookup are linear, with the same errors in the same order
    /// as the pairwise algorithm (on lists with duplicates everywhere, nils, and lengths around `INDEX_FROM`).
    #[test]
    fn r54_hashed_matching_is_linear_with_the_pairwise_answers() {
        let root = Path::Root;
        let hosts = root.child("hosts");
        let mut seed = 7_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for n in [
            0,
            1,
            5,
            INDEX_FROM - 1,
            INDEX_FROM,
            INDEX_FROM + 1,
            100,
            500,
        ] {
            let v: Vec<String> = (0..n).map(|_| (next() % 40).to_string()).collect();
            assert_eq!(
                slice_unique(&hosts, &v, |a, b| a == b, Some(string_hash)),
                slice_unique(&hosts, &v, |a, b| a == b, None),
                "n = {n}"
            );
            let p: Vec<Option<String>> = v
                .iter()
                .map(|s| (next() % 5 != 0).then(|| s.clone()))
                .collect();
            assert_eq!(
                ptr_slice_unique(&hosts, &p, |a, b| a == b, Some(string_hash)),
                ptr_slice_unique(&hosts, &p, |a, b| a == b, None),
                "n = {n}"
            );
            // eachVal's old counterpart: the same first match (errors name the old value found).
            let old: Vec<String> = (0..n).map(|_| (next() % 40).to_string()).collect();
            let run = |hash: Option<fn(&String) -> u64>| {
                let mut errs = ErrorList::new();
                each_slice_val(
                    &Operation::update(),
                    &hosts,
                    &v,
                    Some(&old),
                    Some(|a: &String, b: &String| a == b),
                    hash,
                    None,
                    |p, v, o, errs| {
                        errs.push(Error::invalid(
                            p,
                            BadValue::Str(v.clone()),
                            o.map_or("-", String::as_str),
                        ))
                    },
                    &mut errs,
                );
                errs
            };
            assert_eq!(run(Some(string_hash)), run(None), "n = {n}");
            // `+k8s:update`'s added and removed items.
            let cs = [
                super::super::UpdateConstraint::NoAddItem,
                super::super::UpdateConstraint::NoRemoveItem,
            ];
            let op = Operation::update();
            assert_eq!(
                super::super::slice_update(
                    &hosts,
                    &op,
                    &v,
                    &old,
                    |a, b| a == b,
                    Some(string_hash),
                    &cs
                ),
                super::super::slice_update(&hosts, &op, &v, &old, |a, b| a == b, None, &cs),
                "n = {n}"
            );
            let pold: Vec<Option<String>> = old
                .iter()
                .map(|s| (s.len() > 1).then(|| s.clone()))
                .collect();
            assert_eq!(
                super::super::ptr_slice_update(
                    &hosts,
                    &op,
                    &p,
                    &pold,
                    |a, b| a == b,
                    Some(string_hash),
                    &cs
                ),
                super::super::ptr_slice_update(&hosts, &op, &p, &pold, |a, b| a == b, None, &cs),
                "n = {n}"
            );
        }
        // 20,000 distinct items: about one comparison per item, not 200 million.
        let distinct: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
        HASHED_CALLS.store(0, Ordering::Relaxed);
        assert!(slice_unique(&hosts, &distinct, hashed_counted_eq, Some(string_hash)).is_empty());
        assert!(
            HASHED_CALLS.load(Ordering::Relaxed) < 1_000,
            "{}",
            HASHED_CALLS.load(Ordering::Relaxed)
        );
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
