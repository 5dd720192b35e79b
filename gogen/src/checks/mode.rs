//! Modes: `modeDiscriminator` + `ifMode` (upstream `validators/mode.go`; `validate.Discriminated`): one call per
//! member field with its getter, the discriminator's getter, the ratcheting equality, the default `Forbidden*`
//! (for modes no rule names) and one `DiscriminatedRule` per mode value, each rule's checks run as upstream's
//! `MultiWrapperFunction`.

use crate::{Gen, Native};
use vgc_lowering::plan::{Check, DiscriminatorKind, GoTy, ModePlan};

/// A function literal `header { body }` on one line when gofmt keeps it there (go/printer `funcBody`: header and
/// body within 100 columns), else on three; newline-prefixed.
fn func_lit(header: &str, body: &str) -> String {
    if header.len() + body.len() <= 100 {
        format!("\n{header} {{ {body} }}")
    } else {
        format!("\n{header} {{\n\t{body}\n}}")
    }
}

/// Go's `strconv.ParseBool`, as upstream's `util.ParseBool` reads a bool mode.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// upstream `MultiWrapperFunction`: the checks run in order in a closure with the standard signature on values of
/// `obj_ty` (already nilable), returning after the last short-circuit when one failed.
fn multi_wrapper(
    g: &mut Gen<'_>,
    subject: &str,
    checks: &[Check],
    obj_ty: &str,
    value: &GoTy,
) -> Option<String> {
    let context = g.imports.name(crate::CONTEXT, "Context");
    let operation = g.imports.name(crate::OPERATION, "Operation");
    let path = g.imports.name(crate::FIELD, "Path");
    let errors = g.imports.name(crate::FIELD, "ErrorList");
    let mut body = vec![format!("errs := {errors}{{}}")];
    let last_sc = checks.iter().rposition(|c| c.short_circuit);
    if last_sc.is_some() {
        body.push("earlyReturn := false".into());
    }
    for (i, c) in checks.iter().enumerate() {
        let call = super::call(g, subject, c, value)?;
        let call = format!("{call}{}", super::stability_mark(c));
        if c.short_circuit {
            body.push(format!("if e := {call}; len(e) != 0 {{"));
            if !c.non_error {
                body.push("\terrs = append(errs, e...)".into());
            }
            body.push("\tearlyReturn = true".into());
            body.push("}".into());
            if Some(i) == last_sc {
                body.push("if earlyReturn {".into());
                body.push("\treturn errs".into());
                body.push("}".into());
            }
        } else if c.non_error {
            body.push(call);
        } else {
            body.push(format!("errs = append(errs, {call}...)"));
        }
    }
    body.push("return errs".into());
    let body: Vec<String> = body.iter().map(|l| format!("\t{l}")).collect();
    Some(format!(
        "func(ctx {context}, op {operation}, fldPath *{path}, obj, oldObj {obj_ty}) {errors} {{\n{}\n}}",
        body.join("\n")
    ))
}

pub(super) fn call(g: &mut Gen<'_>, subject: &str, m: &ModePlan, value: &GoTy) -> Option<String> {
    let owner = super::each::non_pointer(value).clone();
    let owner_t = g.ty(&owner);
    let member = g.member_go_ty(&owner, &m.member.go)?;
    let disc = g.member_go_ty(&owner, &m.discriminator.field)?;
    let (nilable_t, expr) = if g.go_nilable(&member) {
        (g.ty(&member), "")
    } else {
        (format!("*{}", g.ty(&member)), "&")
    };
    let disc_t = g.ty(&disc);
    let get_value = func_lit(
        &format!("func(obj *{owner_t}) {nilable_t}"),
        &format!("return {expr}obj.{}", m.member.go),
    );
    let get_disc = func_lit(
        &format!("func(obj *{owner_t}) {disc_t}"),
        &format!("return obj.{}", m.discriminator.field),
    );
    let equal = g.ptr_equal_func(&member);
    // The default: Forbidden* by the member's kind, marked when every rule has one level.
    let forbidden = match g.native(&member) {
        Native::Slice => "ForbiddenSlice",
        Native::Map => "ForbiddenMap",
        Native::Pointer => "ForbiddenPointer",
        Native::Value => "ForbiddenValue",
    };
    let f = g.imports.name(crate::VALIDATE, forbidden);
    let mark = match m.default_stability {
        Some(vgc_ir::catalog::Stability::Alpha) => ".MarkAlpha()",
        Some(vgc_ir::catalog::Stability::Beta) => ".MarkBeta()",
        _ => "",
    };
    let context = g.imports.name(crate::CONTEXT, "Context");
    let operation = g.imports.name(crate::OPERATION, "Operation");
    let path = g.imports.name(crate::FIELD, "Path");
    let errors = g.imports.name(crate::FIELD, "ErrorList");
    let default = format!(
        "\nfunc(ctx {context}, op {operation}, fldPath *{path}, obj, oldObj {nilable_t}) {errors} {{\n\terrs := {errors}{{}}\n\terrs = append(errs, {f}(ctx, op, fldPath, obj, oldObj){mark}...)\n\treturn errs\n}}"
    );
    let rule_t = g.imports.name(crate::VALIDATE, "DiscriminatedRule");
    let mut rules = format!("\n[]{rule_t}[{nilable_t}, {disc_t}]{{\n");
    for (v, checks) in &m.rules {
        let lit = match m.discriminator.kind {
            DiscriminatorKind::String => vgc_runtime::field::go_quote(v),
            DiscriminatorKind::Bool => parse_bool(v)?.to_string(),
        };
        let w = multi_wrapper(g, subject, checks, &nilable_t, &member)?;
        if g.legacy {
            // Before 1.37 (no `flNewlineOK`): `{\nValue: v, Validation: w, }`, as gofmt keeps it.
            let w = super::indent_after_first(&w, "\t\t");
            rules.push_str(&format!("\t{{\n\t\tValue: {lit}, Validation: {w}}},\n"));
            continue;
        }
        let w = super::indent_after_first(&w, "\t\t");
        rules.push_str(&format!(
            "\n\t{{\n\t\tValue: {lit},\n\t\tValidation: {w},\n\t}},\n"
        ));
    }
    rules.push('}');
    let json = vgc_runtime::field::go_quote(&m.member.json);
    Some(super::validate_call(
        g,
        "Discriminated",
        &[json, get_value, get_disc, equal, default, rules],
    ))
}
