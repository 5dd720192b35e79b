//! Field-path constraints (a vgc extension, `docs/extensions.md`; `vgc_codegen`'s `emit/checks/constraints.rs`, the
//! runtime's `vgc_runtime::extensions`).

use super::*;

/// The elements of a list or map constrained per element (`codegen`'s `constraint_call`): nil elements left out,
/// each with whether its old counterpart (`old`: `None` without an old struct) equals it — a map value the old
/// value of its key, a `listType=set` item an equal old item, an atomic list's items all when the whole list is
/// unchanged.
fn constraint_elements<'v, 'p, V>(
    each: &vgc_lowering::plan::EachElements,
    new: Option<&'v Val<'p>>,
    old: Option<Option<&Val<'_>>>,
    int: fn(&'v Val<'p>) -> Option<V>,
) -> Vec<vgc_runtime::extensions::Element<'v, V>> {
    use vgc_runtime::extensions::{At, Element};
    let old = old.flatten();
    match new {
        Some(Val::Map(m)) => m
            .iter()
            .filter_map(|(k, v)| {
                let was = match old {
                    Some(Val::Map(o)) => o.get(k),
                    _ => None,
                };
                Some(Element {
                    at: At::Key(k),
                    value: int(v)?,
                    unchanged: was == Some(v),
                })
            })
            .collect(),
        Some(Val::List(l)) => {
            let old_items: &[Val<'_>] = match old {
                Some(Val::List(o)) => o,
                _ => &[],
            };
            let same = old.is_some() && old_items == &l[..];
            l.iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    let unchanged = match each.matcher {
                        Matcher::Set => old_items.iter().any(|o| o == v),
                        _ => same,
                    };
                    Some(Element {
                        at: At::Index(i),
                        value: int(v)?,
                        unchanged,
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// One side of a field-path constraint read from the new and old structs, its value taken by `get` (an integer, a
/// quantity or a duration: `vgc_runtime::extensions::Operand`).
fn constraint_side<'s, 'v, 'p: 'v, V>(
    p: &vgc_lowering::plan::FieldPath,
    segs: &'s [&'s str],
    new: Option<&'v Val<'p>>,
    old: Option<&'v Val<'p>>,
    get: fn(&'v Val<'p>) -> Option<V>,
) -> vgc_runtime::extensions::Side<'s, V> {
    let read = |o: &'v Val<'p>| path_member(o, &p.steps).and_then(get);
    vgc_runtime::extensions::Side {
        path: segs,
        value: new.and_then(read),
        old: old.map(read),
    }
}

fn int_operand(v: &Val<'_>) -> Option<i128> {
    match v {
        Val::Int(i) => Some(*i),
        _ => None,
    }
}

fn quantity_operand<'v>(v: &'v Val<'_>) -> Option<&'v vgc_runtime::types::Quantity> {
    match v {
        Val::Quantity(q) => Some(q),
        _ => None,
    }
}

fn duration_operand<'v>(v: &'v Val<'_>) -> Option<&'v vgc_runtime::types::Duration> {
    match v {
        Val::Duration(d) => Some(d),
        _ => None,
    }
}

/// `checks::constraints::call`: both sides read through their paths (`None` at a nil pointer), per element with
/// `eachVal`.
pub(super) fn call(
    cx: &Cx<'_, '_>,
    fc: &vgc_lowering::plan::ConstraintPlan,
    new: Option<&Val<'_>>,
    old: Option<&Val<'_>>,
    path: &Path<'_>,
) -> ErrorList {
    let op = cx.op;
    let (t, b) = (fc.target.json_segments(), fc.bound.json_segments());
    let (tp, bp) = (&fc.target, &fc.bound);
    // The same call for each operand kind, with the reader of that kind (`get`).
    macro_rules! by_operand {
        ($get:ident => $call:expr) => {
            match tp.operand {
                vgc_lowering::plan::Operand::Integer(_) => {
                    let $get = int_operand;
                    $call
                }
                vgc_lowering::plan::Operand::Quantity => {
                    let $get = quantity_operand;
                    $call
                }
                vgc_lowering::plan::Operand::Duration => {
                    let $get = duration_operand;
                    $call
                }
            }
        };
    }
    match &fc.each {
        None => by_operand!(get => vgc_runtime::extensions::field_constraint(
            path,
            op,
            fc.kind,
            constraint_side(tp, &t, new, old, get),
            constraint_side(bp, &b, new, old, get),
        )),
        Some(each) => {
            let n = new.and_then(|o| path_member(o, &tp.steps));
            let ol = old.map(|o| path_member(o, &tp.steps));
            by_operand!(get => vgc_runtime::extensions::each_field_constraint(
                path,
                op,
                fc.kind,
                &t,
                constraint_elements(each, n, ol, get),
                constraint_side(bp, &b, new, old, get),
            ))
        }
    }
}
