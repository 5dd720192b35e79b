//! Unions and zero-or-one-of groups over a struct's fields (upstream `validators/union.go`
//! `processUnionValidations`, `createMemberExtractor`, `getMemberArgs`; `validators/zeroorone.go`;
//! `validate/union.go`): a package variable with the membership, and a call with one extractor closure per member
//! (the discriminator's first).

use crate::{Gen, Native};
use vgc_analysis::TypeKey;
use vgc_lowering::plan::{GoTy, UnionKind, UnionPlan};

/// upstream `sanitizeName`: dots and anything but ASCII letters, digits and `_` become `_`.
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The membership variable's name: `unionMembershipFor_`/`zeroOrOneOfMembershipFor_` and the sanitized
/// `<path>_<union name>`, where `path` is where the union is declared (`<pkg>.<Type>`, or
/// `<pkg>.<Type>.<json>` for one declared through a field's `subfield`).
pub(crate) fn var_name(path: &str, u: &UnionPlan) -> String {
    let prefix = match u.kind {
        UnionKind::Union => "unionMembershipFor",
        UnionKind::ZeroOrOneOf => "zeroOrOneOfMembershipFor",
    };
    format!("{prefix}_{}", sanitize(&format!("{path}_{}", u.name)))
}

/// The membership variable's initializer.
pub(crate) fn var_init(g: &mut Gen<'_>, u: &UnionPlan) -> String {
    let q = vgc_runtime::field::go_quote;
    match &u.discriminator {
        Some(d) => {
            let f = g
                .imports
                .name(crate::VALIDATE, "NewDiscriminatedUnionMembership");
            let m = g
                .imports
                .name(crate::VALIDATE, "NewDiscriminatedUnionMember");
            let mut args = vec![q(&d.json)];
            args.extend(
                u.members
                    .iter()
                    .map(|x| format!("{m}({}, {})", q(&x.member.json), q(&x.member_name))),
            );
            format!("{f}({})", args.join(", "))
        }
        None => {
            let f = g.imports.name(crate::VALIDATE, "NewUnionMembership");
            let m = g.imports.name(crate::VALIDATE, "NewUnionMember");
            let args: Vec<String> = u
                .members
                .iter()
                .map(|x| format!("{m}({})", q(&x.member.json)))
                .collect();
            format!("{f}({})", args.join(", "))
        }
    }
}

/// The union's call on a struct of Go type `value` (`owner`'s).
pub(super) fn call(g: &mut Gen<'_>, u: &UnionPlan, owner: &TypeKey) -> Option<String> {
    let ptr = format!(
        "*{}",
        g.ty(&GoTy::Named {
            pkg: owner.pkg.clone(),
            name: owner.name.clone(),
        })
    );
    let mut args = vec![var_name(&g.path, u)];
    if let Some(d) = &u.discriminator {
        args.push(format!(
            "\nfunc(obj {ptr}) string {{\n\tif obj == nil {{\n\t\treturn \"\"\n\t}}\n\treturn string(obj.{})\n}}",
            d.go
        ));
    }
    let owner_ty = GoTy::Named {
        pkg: owner.pkg.clone(),
        name: owner.name.clone(),
    };
    for m in &u.members {
        args.push(member_extractor(g, &owner_ty, &m.member.go)?);
    }
    let func = match (u.kind, u.discriminator.is_some()) {
        (UnionKind::Union, false) => "Union",
        (UnionKind::Union, true) => "DiscriminatedUnion",
        (UnionKind::ZeroOrOneOf, false) => "ZeroOrOneOfUnion",
        (UnionKind::ZeroOrOneOf, true) => return None,
    };
    Some(super::validate_call(g, func, &args))
}

/// upstream `createMemberExtractor`: `func(obj *T) bool` saying whether member `go` of struct `owner` is set (a
/// pointer non-nil, a list or map non-empty, a builtin non-zero), newline-prefixed; `None` for another kind.
pub(super) fn member_extractor(g: &mut Gen<'_>, owner: &GoTy, go: &str) -> Option<String> {
    let ty = g.member_go_ty(owner, go)?;
    let test = match g.native(&ty) {
        Native::Pointer => format!("return obj.{go} != nil"),
        Native::Slice | Native::Map => format!("return len(obj.{go}) != 0"),
        Native::Value if g.is_builtin(&ty) => {
            let t = g.ty(&ty);
            format!("var z {t}\n\treturn obj.{go} != z")
        }
        Native::Value => return None,
    };
    let ptr = format!("*{}", g.ty(owner));
    Some(format!(
        "\nfunc(obj {ptr}) bool {{\n\tif obj == nil {{\n\t\treturn false\n\t}}\n\t{test}\n}}"
    ))
}

/// The membership variable's name of a union over list items (as [`var_name`]).
pub(crate) fn list_var_name(path: &str, u: &vgc_lowering::plan::ListUnionPlan) -> String {
    let prefix = match u.kind {
        UnionKind::Union => "unionMembershipFor",
        UnionKind::ZeroOrOneOf => "zeroOrOneOfMembershipFor",
    };
    format!("{prefix}_{}", sanitize(&format!("{path}_{}", u.name)))
}

/// The membership variable's initializer of a union over list items: one member per selected item, named as the
/// plan names it (`conditions[{"type": "Approved"}]`).
pub(crate) fn list_var_init(g: &mut Gen<'_>, u: &vgc_lowering::plan::ListUnionPlan) -> String {
    let f = g.imports.name(crate::VALIDATE, "NewUnionMembership");
    let m = g.imports.name(crate::VALIDATE, "NewUnionMember");
    let args: Vec<String> = u
        .members
        .iter()
        .map(|(name, _)| format!("{m}({})", vgc_runtime::field::go_quote(name)))
        .collect();
    format!("{f}({})", args.join(", "))
}

/// A union over list items (upstream `processUnionValidations` with item members, `createItemExtractor`): one
/// extractor per member, in member-name order, saying whether some item matches its selector.
pub(super) fn list_call(
    g: &mut Gen<'_>,
    u: &vgc_lowering::plan::ListUnionPlan,
    value: &GoTy,
) -> Option<String> {
    let list_t = g.ty(value);
    let mut args = vec![list_var_name(&g.path, u)];
    let mut members: Vec<&(String, vgc_lowering::plan::Selector)> = u.members.iter().collect();
    members.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, selector) in members {
        let mut terms = selector.clone();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut conditions = Vec::new();
        for (field, pointer, v) in &terms {
            // upstream prints the selector's values through `fmt.Sprint` and compares them as strings.
            let vgc_lowering::plan::NeqValue::Str(s) = v else {
                return None;
            };
            let rhs = vgc_runtime::field::go_quote(s);
            conditions.push(if *pointer {
                format!("list[i].{field} != nil && *list[i].{field} == {rhs}")
            } else {
                format!("list[i].{field} == {rhs}")
            });
        }
        args.push(format!(
            "\nfunc(list {list_t}) bool {{\n\tfor i := range list {{\n\t\tif {} {{\n\t\t\treturn true\n\t\t}}\n\t}}\n\treturn false\n}}",
            conditions.join(" && ")
        ));
    }
    let func = match u.kind {
        UnionKind::Union => "Union",
        UnionKind::ZeroOrOneOf => "ZeroOrOneOfUnion",
    };
    Some(super::validate_call(g, func, &args))
}
