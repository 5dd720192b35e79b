//! Unions (upstream `union.go`, `zeroorone.go`): unions of fields ([`Cx::union`], `wrappers::union_call`), of list
//! items and of virtual groups (`vgc_codegen`'s `emit/checks/union.rs`).

use super::*;

/// `checks::union::call`: a union or zero-or-one-of check over a struct's fields, a list's items or a virtual
/// group's members.
pub(super) fn call<'p>(
    cx: &Cx<'_, 'p>,
    c: &'p Check,
    new: Option<&Val<'p>>,
    old: Option<&Val<'p>>,
    path: &Path<'_>,
) -> ErrorList {
    let op = cx.op;
    match &c.kind {
        CheckKind::Union(u) => cx.union(u, new, old, path),
        CheckKind::ListUnion(u) => {
            let exists = |list: Option<&Val<'p>>, sel: &Selector| match list {
                Some(Val::List(l)) => l
                    .iter()
                    .any(|x| !(u.ptr_elems && matches!(x, Val::Nil)) && selector_match(sel, x)),
                _ => false,
            };
            let new_set: Vec<bool> = u.members.iter().map(|(_, s)| exists(new, s)).collect();
            let old_set: Vec<bool> = u.members.iter().map(|(_, s)| exists(old, s)).collect();
            let names: Vec<&str> = u.members.iter().map(|(n, _)| n.as_str()).collect();
            let has_old = old.is_some_and(|o| !o.is_empty());
            let e = if u.kind == UnionKind::Union {
                v::union(path, op, has_old, &new_set, &old_set, &names)
            } else {
                v::zero_or_one_of(path, op, has_old, &new_set, &old_set, &names)
            };
            if u.union_origin || u.kind != UnionKind::Union {
                e
            } else {
                v::without_origin(e)
            }
        }
        CheckKind::VirtualUnion(vu) => {
            let set = |o: Option<&Val<'p>>, m: &vgc_lowering::plan::VirtualMember| {
                let Some(o) = o else { return false };
                match &m.set {
                    MemberSet::Field(shape) => {
                        let (last, parents) = m.steps.split_last().expect("a member has a step");
                        path_member(o, parents).is_some_and(|h| field_set(h, &last.go, shape))
                    }
                    MemberSet::Item {
                        selector,
                        ptr_elems,
                        ..
                    } => match path_member(o, &m.steps) {
                        Some(Val::List(l)) => l.iter().any(|x| {
                            !(*ptr_elems && matches!(x, Val::Nil)) && selector_match(selector, x)
                        }),
                        _ => false,
                    },
                }
            };
            let new_set: Vec<bool> = vu.members.iter().map(|m| set(new, m)).collect();
            let old_set: Vec<bool> = vu.members.iter().map(|m| set(old, m)).collect();
            let names: Vec<&str> = vu.members.iter().map(|m| m.name.as_str()).collect();
            if vu.kind == UnionKind::Union {
                v::union(path, op, old.is_some(), &new_set, &old_set, &names)
            } else {
                v::zero_or_one_of(path, op, old.is_some(), &new_set, &old_set, &names)
            }
        }
        other => unreachable!("not a union check: {other:?}"),
    }
}
