//! Lists and maps (upstream `each.go`): `eachVal`, `eachKey`, uniqueness and nil elements (`vgc_codegen`'s
//! `emit/checks/each.rs`).

use super::*;

const STRING: Shape = Shape::Scalar {
    ty: Builtin::String,
    pointer: false,
};

/// `checks::each::call`: each element's or key's checks ([`Cx::checks_block`]), the uniqueness of a list's items, or
/// its nil elements.
pub(super) fn call<'p>(
    cx: &Cx<'_, 'p>,
    c: &'p Check,
    site: Site<'p>,
    new: Option<&Val<'p>>,
    old: Option<&Val<'p>>,
    path: &Path<'_>,
) -> ErrorList {
    let (shape, elem) = (site.shape, site.elem);
    let op = cx.op;
    match &c.kind {
        CheckKind::Unique(m) => {
            let Some(n) = new else {
                return ErrorList::new();
            };
            // upstream `ValSliceUnique`: set items compared with one another (list-map keys with `==`).
            if matches!(m, Matcher::Set) && n.len() > 1 {
                cx.deep_equal_site(elem, path);
            }
            let keys = keys_of(m);
            let fns = matcher_fns(m);
            let f = fns.matches.unwrap_or(never);
            if matches!(
                shape,
                Shape::List {
                    pointer_elems: true
                }
            ) {
                v::ptr_slice_unique(path, &ptr_elems(n, keys), f, fns.hash)
            } else {
                v::slice_unique(path, &elems(n, keys), f, fns.hash)
            }
        }
        CheckKind::EachVal(inner, m, elem_shape) => {
            let mut e = ErrorList::new();
            let Some(n) = new else { return e };
            cx.container_comparisons(shape, m, elem, old, path);
            let body_site = Site {
                shape: elem_shape,
                elem: None,
                typed: elem.is_some_and(RustTy::is_named_value),
            };
            let body = |p: &Path<'_>, v: &Val<'p>, o: Option<&Val<'p>>, errs: &mut ErrorList| {
                cx.checks_block(inner, body_site, Some(v), o, p, errs);
            };
            match shape {
                Shape::Map if matches!(elem, Some(RustTy::Option(..))) => v::each_map_val(
                    op,
                    path,
                    map_of(n),
                    old.map(map_of),
                    Some(|a: &Val<'p>, b: &Val<'p>| a == b),
                    |p, v, o, errs| {
                        if let Some(v) = nilable(v) {
                            body(p, v, o.and_then(nilable), errs);
                        }
                    },
                    &mut e,
                ),
                Shape::Map => v::each_map_val(
                    op,
                    path,
                    map_of(n),
                    old.map(map_of),
                    Some(|a: &Val<'p>, b: &Val<'p>| a == b),
                    |p, v, o, errs| body(p, v, o, errs),
                    &mut e,
                ),
                Shape::List {
                    pointer_elems: true,
                } => {
                    let keys = keys_of(m);
                    let mf = matcher_fns(m);
                    let o = old.map(|o| ptr_elems(o, keys));
                    v::each_ptr_slice_val(
                        op,
                        path,
                        &ptr_elems(n, keys),
                        o.as_deref(),
                        mf.matches,
                        mf.hash,
                        mf.equiv,
                        |p, v, o, errs| body(p, v.v, o.map(|o| o.v), errs),
                        &mut e,
                    );
                }
                _ => {
                    let keys = keys_of(m);
                    let mf = matcher_fns(m);
                    let o = old.map(|o| elems(o, keys));
                    v::each_slice_val(
                        op,
                        path,
                        &elems(n, keys),
                        o.as_deref(),
                        mf.matches,
                        mf.hash,
                        mf.equiv,
                        |p, v, o, errs| body(p, v.v, o.map(|o| o.v), errs),
                        &mut e,
                    );
                }
            }
            e
        }
        CheckKind::EachKey(inner) => {
            let mut e = ErrorList::new();
            let Some(n) = new else { return e };
            let site = Site {
                shape: &STRING,
                elem: None,
                typed: false,
            };
            v::each_map_key(
                op,
                path,
                map_of(n),
                old.map(map_of),
                |p, k, errs| {
                    let key = Val::Str(k.clone());
                    cx.checks_block(inner, site, Some(&key), None, p, errs);
                },
                &mut e,
            );
            e
        }
        CheckKind::NoNils => match new {
            Some(Val::Map(m)) if matches!(shape, Shape::Map) => {
                let m: BTreeMap<String, Option<&Val<'p>>> =
                    m.iter().map(|(k, v)| (k.clone(), nilable(v))).collect();
                v::ptr_map_no_nils(path, &m)
            }
            Some(Val::List(l)) => {
                let l: Vec<Option<&Val<'p>>> = l.iter().map(nilable).collect();
                v::ptr_slice_no_nils(path, &l)
            }
            _ => ErrorList::new(),
        },
        other => unreachable!("not a list or map check: {other:?}"),
    }
}
