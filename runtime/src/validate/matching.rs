//! Finding list items in linear time: a hash of each item consistent with the list's matcher (list-map keys, set
//! equality) lets uniqueness, an element's old counterpart and `+k8s:update`'s added/removed items be found through
//! a hash index instead of comparing every pair (reliability R54: 16,000 `status.conditions` took 4 s to create and
//! 6.4 s to update; upstream compares every pair too). The matcher still decides: the hash only picks the
//! candidates, in list order, so the errors and their order are the pairwise algorithm's.
//!
//! The hash of an item is [`key_hash!`](crate::key_hash) of its key parts (generated code passes it as the
//! validators' `hash` argument): each part's [`std::hash::Hash`] when its type has one — consistent with `==` by
//! `Hash`'s own contract — and nothing for a part whose type has none (a float, a struct), so such lists fall back
//! to one bucket, that is, to comparing pairs.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash};

/// Lists at least this long are indexed; shorter ones are compared pairwise (no allocation: validating a valid
/// object with short lists allocates nothing).
pub const INDEX_FROM: usize = 32;

/// The hasher [`key_hash!`](crate::key_hash) feeds (SipHash with fixed keys: the same hash in every process).
#[doc(hidden)]
#[must_use]
pub fn key_hasher() -> DefaultHasher {
    DefaultHasher::new()
}

/// A key part for [`key_hash!`](crate::key_hash): method resolution picks [`HashedPart`] when the part's type
/// implements `Hash`, [`UnhashedPart`] (which adds nothing) otherwise.
#[doc(hidden)]
pub struct KeyPart<'a, T: ?Sized>(pub &'a T);

#[doc(hidden)]
pub trait HashedPart {
    fn write_part(&self, h: &mut DefaultHasher);
}

impl<T: Hash + ?Sized> HashedPart for KeyPart<'_, T> {
    fn write_part(&self, h: &mut DefaultHasher) {
        self.0.hash(h);
    }
}

#[doc(hidden)]
pub trait UnhashedPart {
    fn write_part(&self, h: &mut DefaultHasher);
}

impl<T: ?Sized> UnhashedPart for &KeyPart<'_, T> {
    fn write_part(&self, _: &mut DefaultHasher) {}
}

/// The hash of an item's key parts (`key_hash!(x.name, x.port)`, or `key_hash!(*x)` for a set item), for the
/// `hash` argument of the list validators ([`super::slice_unique`], [`super::each_slice_val`],
/// [`super::slice_update`], …): each part's `Hash` when its type implements it, nothing otherwise. Must be given
/// only parts the matcher compares with `==` (then `a == b` implies equal hashes).
#[macro_export]
macro_rules! key_hash {
    ($($part:expr),+ $(,)?) => {{
        #[allow(unused_imports)]
        use $crate::validate::{HashedPart as _, UnhashedPart as _};
        let mut h = $crate::validate::key_hasher();
        $( (&$crate::validate::KeyPart(&$part)).write_part(&mut h); )+
        ::std::hash::Hasher::finish(&h)
    }};
}

/// An item as itself (the item accessor of a list of values).
pub(crate) fn itself<T>(x: &T) -> Option<&T> {
    Some(x)
}

/// The positions of `items` (their item through `item`; `None`: a nil element, never indexed) by hash, each
/// bucket ascending; `None` when there is no hash or fewer than [`INDEX_FROM`] items.
pub(crate) fn index<E, T: ?Sized>(
    items: &[E],
    item: for<'a> fn(&'a E) -> Option<&'a T>,
    hash: Option<fn(&T) -> u64>,
) -> Option<HashMap<u64, Vec<usize>>> {
    let hash = hash.filter(|_| items.len() >= INDEX_FROM)?;
    let mut ix: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, e) in items.iter().enumerate() {
        if let Some(t) = item(e) {
            ix.entry(hash(t)).or_default().push(i);
        }
    }
    Some(ix)
}

/// The first of `items` (in list order) whose item `pred` accepts: through the index `ix` (the bucket of `h`) when
/// there is one, else every item.
pub(crate) fn first<'e, E, T: ?Sized>(
    items: &'e [E],
    item: for<'a> fn(&'a E) -> Option<&'a T>,
    ix: Option<&HashMap<u64, Vec<usize>>>,
    h: impl FnOnce() -> u64,
    pred: impl Fn(&T) -> bool,
) -> Option<&'e T> {
    match ix {
        Some(ix) => ix
            .get(&h())?
            .iter()
            .filter_map(|&i| item(&items[i]))
            .find(|t| pred(t)),
        None => items.iter().filter_map(item).find(|t| pred(t)),
    }
}

#[cfg(test)]
mod tests {
    #[derive(PartialEq)]
    struct NoHash(f64);

    #[test]
    fn hashable_parts_hash_and_others_add_nothing() {
        let a = crate::key_hash!(String::from("x"), 3_i32);
        let b = crate::key_hash!(String::from("x"), 3_i32);
        let c = crate::key_hash!(String::from("y"), 3_i32);
        assert_eq!(a, b);
        assert_ne!(a, c);
        // A part without `Hash` adds nothing: both hash as the key without it.
        let d = crate::key_hash!(String::from("x"), NoHash(1.0));
        let e = crate::key_hash!(String::from("x"), NoHash(2.0));
        assert_eq!(d, e);
        assert_eq!(crate::key_hash!(Some(1_i64)), crate::key_hash!(Some(1_i64)));
    }
}
