//! Update constraints (upstream `update.go`): `+k8s:update` on values, lists and maps (`vgc_codegen`'s
//! `emit/checks/update.rs`).

use super::*;

/// `checks::update::call`: an `+k8s:update` check, by the value's shape: items of a list found with its matcher,
/// keys of a map, else the set-ness and equality of the value.
pub(super) fn call<'p>(
    cx: &Cx<'_, 'p>,
    cs: &[vgc_runtime::validate::UpdateConstraint],
    matcher: &Matcher,
    site: Site<'p>,
    new: Option<&Val<'p>>,
    old: Option<&Val<'p>>,
    path: &Path<'_>,
) -> ErrorList {
    let (shape, elem) = (site.shape, site.elem);
    let op = cx.op;
    match shape {
        Shape::List { pointer_elems } => {
            let Some(n) = new else {
                return ErrorList::new();
            };
            if matches!(matcher, Matcher::Set) && op.is_update() && old.is_some() {
                cx.deep_equal_site(elem, path);
            }
            let keys = keys_of(matcher);
            let fns = matcher_fns(matcher);
            let m = fns.matches.unwrap_or(never);
            if *pointer_elems {
                let o = old.map(|o| ptr_elems(o, keys)).unwrap_or_default();
                v::ptr_slice_update(path, op, &ptr_elems(n, keys), &o, m, fns.hash, cs)
            } else {
                let o = old.map(|o| elems(o, keys)).unwrap_or_default();
                v::slice_update(path, op, &elems(n, keys), &o, m, fns.hash, cs)
            }
        }
        Shape::Map => match new {
            Some(n) => v::map_update(path, op, map_of(n), old.map_or(&EMPTY_MAP, map_of), cs),
            None => ErrorList::new(),
        },
        _ => {
            let ptr = matches!(
                shape,
                Shape::Scalar { pointer: true, .. }
                    | Shape::Struct { pointer: true }
                    | Shape::Other { pointer: true }
            );
            v::update_scalar(
                path,
                op,
                old.is_some(),
                ptr,
                set(shape, old),
                set(shape, new),
                new != old,
                cs,
            )
        }
    }
}
