//! The validator call each check becomes, one module per validator family (named after apimachinery's
//! `pkg/api/validate/*.go`, as codegen's `emit/checks/` and the interpreter's `eval/` are): the call text
//! `validate.F(ctx, op, fldPath, obj, oldObj, args…)` without its marks, or `None` with the check recorded as
//! [`crate::Unsupported`].

use crate::Gen;
use vgc_lowering::limit_check_kinds;
use vgc_lowering::plan::{Check, CheckKind, GoTy, Matcher};

mod custom;
mod dependentrequired;
mod each;
mod r#enum;
pub(crate) use each::list_args;
pub(crate) use r#enum::{
    exclusions_init as enum_exclusions_init, exclusions_name as enum_exclusions_name,
    var_init as enum_var_init, var_name as enum_var_name,
};
mod equality;
mod immutable;
mod limits;
mod mode;
mod monotonic;
mod required;
mod strfmt;
mod testing;
mod union;
pub(crate) use union::{
    list_var_init as list_union_var_init, list_var_name as list_union_var_name,
    var_init as union_var_init, var_name as union_var_name,
};
mod update;
mod wrappers;

/// The call for `c` on a value of Go type `value` (the field's or type's), unmarked.
pub(crate) fn call(g: &mut Gen<'_>, subject: &str, c: &Check, value: &GoTy) -> Option<String> {
    let call = match &c.kind {
        CheckKind::Required { .. } | CheckKind::Optional | CheckKind::Forbidden { .. } => {
            required::call(g, &c.kind, value)
        }
        limit_check_kinds!() => limits::call(g, &c.kind),
        CheckKind::Format(f) => strfmt::call(g, *f),
        CheckKind::Immutable => Some(immutable::call(g)),
        CheckKind::Monotonic => Some(monotonic::call(g)),
        CheckKind::Neq(v) => Some(equality::call(g, "NEQ", v)),
        CheckKind::Eq(v) => Some(equality::call(g, "EQ", v)),
        CheckKind::FixedResult {
            result,
            msg,
            type_arg,
        } => Some(testing::call(g, *result, msg, type_arg.as_deref())),
        CheckKind::Unique(m) => each::unique(g, m, value),
        CheckKind::EachVal(inner, m, _) => each::each_val(g, subject, c, inner, m, value),
        CheckKind::EachKey(inner) => each::each_key(g, subject, c, inner, value),
        CheckKind::Update(cs, m) => update::call(g, cs, m, value),
        CheckKind::IfOption(io) => wrappers::if_option(g, subject, c, io, value),
        CheckKind::Subfield(s) => wrappers::subfield(g, subject, c, s, value),
        CheckKind::NoNils => each::no_nils(g, value),
        CheckKind::Union(u) => match each::non_pointer(value) {
            GoTy::Named { pkg, name } => union::call(
                g,
                u,
                &vgc_analysis::TypeKey {
                    pkg: pkg.clone(),
                    name: name.clone(),
                },
            ),
            _ => None,
        },
        CheckKind::Item(it) => each::item(g, subject, c, it, value),
        CheckKind::Enum(e) => r#enum::call(g, e, value),
        CheckKind::Dependent(d) => dependentrequired::call(g, d, value),
        CheckKind::Custom { upstream, .. } => Some(custom::call(g, upstream)),
        CheckKind::Discriminated(m) => mode::call(g, subject, m, value),
        CheckKind::ListUnion(u) => union::list_call(g, u, value),
        CheckKind::Matches(_)
        | CheckKind::FieldConstraint(_)
        | CheckKind::VirtualUnion(_)
        | CheckKind::IfSubresource(_) => None,
    };
    if call.is_none() {
        g.unsupported(
            subject,
            format!("{} is not printed by the Go backend yet", tag_of(c)),
        );
    }
    call
}

/// The tag a check came from, for messages.
fn tag_of(c: &Check) -> String {
    let what = match &c.kind {
        CheckKind::Required { .. } | CheckKind::Optional | CheckKind::Forbidden { .. } => {
            "a requiredness check"
        }
        limit_check_kinds!() => "a limit",
        CheckKind::Format(_) | CheckKind::Matches(_) => "a format check",
        CheckKind::Enum(_) => "an enum check",
        CheckKind::Immutable | CheckKind::Update(..) => "an update constraint",
        CheckKind::Unique(_) => "a uniqueness check",
        CheckKind::EachVal(..) | CheckKind::EachKey(_) => "an element check",
        CheckKind::Subfield(_) => "a subfield check",
        CheckKind::Union(_) | CheckKind::ListUnion(_) => "a union",
        CheckKind::VirtualUnion(_) => "a virtual-field union (vgc extension)",
        CheckKind::Dependent(_) => "a dependent-field rule",
        CheckKind::FieldConstraint(_) => "a field-path constraint (vgc extension)",
        CheckKind::Monotonic => "a monotonic check",
        CheckKind::NoNils => "the nil-element check of a list of pointers",
        CheckKind::FixedResult { .. } => "a test check",
        CheckKind::Custom { .. } => "a custom validation call",
        CheckKind::Item(_) => "an item check",
        CheckKind::Discriminated(_) => "a mode rule",
        CheckKind::Neq(_) | CheckKind::Eq(_) => "an equality check",
        CheckKind::IfOption(_) => "an option-gated check",
        CheckKind::IfSubresource(_) => "a subresource condition (vgc extension)",
    };
    match c.tag {
        Some(t) => format!("{what} of +{}", t.name()),
        None => what.to_string(),
    }
}

/// `validate.<name>(ctx, op, fldPath, obj, oldObj[, args])`.
pub(crate) fn validate_call(g: &mut Gen<'_>, name: &str, args: &[String]) -> String {
    let f = g.imports.name(crate::VALIDATE, name);
    call_with(g, &f, args)
}

/// `f(ctx, op, fldPath, obj, oldObj[, args])` as gofmt lays out upstream's text: an argument starting with a
/// newline (a function literal, printed with `flNewlineOK`) starts a continuation line one tab in, its own lines
/// indented with it. Before 1.37 ([`vgc_ir::Upstream::go_fields_called_in_place`]) upstream printed no such
/// newline: every argument follows the previous one on its line, a function literal's body one tab in from the
/// call's line.
pub(crate) fn call_with(g: &Gen<'_>, f: &str, args: &[String]) -> String {
    let mut s = format!("{f}(ctx, op, fldPath, obj, oldObj");
    for a in args {
        if g.legacy {
            s.push_str(", ");
            if a.starts_with("//") {
                // A wrapped function after its comments: gofmt indents the line after a comment, a continuation
                // line of the call.
                s.push_str(&indent_after_first(a, "\t"));
            } else {
                s.push_str(a.strip_prefix('\n').unwrap_or(a));
            }
            continue;
        }
        // Every line after an argument's first is a continuation line, one tab in.
        let (sep, a) = match a.strip_prefix('\n') {
            Some(rest) => (",\n\t", rest),
            None => (", ", a.as_str()),
        };
        s.push_str(sep);
        s.push_str(&indent_after_first(a, "\t"));
    }
    s.push(')');
    s
}

/// A function literal with a one-statement body as gofmt prints upstream's one-line `header { body }`: on one line
/// when header and body fit in 100 columns (go/printer `funcBody`'s `maxSize`), else the body on its own line, one
/// tab in.
pub(crate) fn func_literal(header: &str, body: &str) -> String {
    if header.len() + body.len() <= 100 {
        format!("{header} {{ {body} }}")
    } else {
        format!("{header} {{\n\t{body}\n}}")
    }
}

/// `s` with `prefix` before each of its lines after the first that is not empty (gofmt leaves blank lines bare).
pub(crate) fn indent_after_first(s: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, l) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !l.is_empty() {
                out.push_str(prefix);
            }
        }
        out.push_str(l);
    }
    out
}

/// The `// …` lines upstream prints before a check's call (its `FunctionGen` comments).
pub(crate) fn comments(c: &Check) -> Vec<&'static str> {
    match &c.kind {
        CheckKind::Unique(Matcher::Set) => vec!["lists with set semantics require unique values"],
        CheckKind::Unique(Matcher::Keys(_)) => vec!["lists with map semantics require unique keys"],
        CheckKind::Custom { .. } => vec!["custom validation"],
        // upstream `required.go`: `optional` with a non-zero `+default` becomes `required`.
        CheckKind::Required { .. } if c.tag == Some(vgc_ir::catalog::TagId::Optional) => {
            vec!["optional fields with default values are effectively required"]
        }
        _ => Vec::new(),
    }
}

/// The marks upstream appends to a call: `.MarkAlpha()`/`.MarkBeta()`, then `.MarkShortCircuit()` (1.37 on). A wrapper
/// (`eachVal`, `eachKey`, `ifEnabled`, …) carries its inner check's stability on its own call.
pub(crate) fn marks(g: &Gen<'_>, c: &Check) -> String {
    let mut s = String::new();
    s.push_str(stability_mark(c));
    // Before 1.37 a short-circuit call is not marked.
    if c.short_circuit && !g.legacy {
        s.push_str(".MarkShortCircuit()");
    }
    s
}

/// `.MarkAlpha()`, `.MarkBeta()` or nothing.
pub(crate) fn stability_mark(c: &Check) -> &'static str {
    match c.stability {
        Some(vgc_ir::catalog::Stability::Alpha) => ".MarkAlpha()",
        Some(vgc_ir::catalog::Stability::Beta) => ".MarkBeta()",
        Some(vgc_ir::catalog::Stability::Stable) | None => "",
    }
}

/// upstream `emitFunctionCall` of a check wrapped by `outer` with the standard leading arguments: the call with
/// its own stability mark when the wrapper has none (a level written inside the wrapper, `eachVal=+k8s:alpha=…`;
/// one written outside marks the wrapper's call), or `None` when the check is not printed yet.
pub(crate) fn inner_call(
    g: &mut Gen<'_>,
    subject: &str,
    c: &Check,
    outer: &Check,
    value: &GoTy,
) -> Option<String> {
    let call = call(g, subject, c, value)?;
    if outer.stability.is_some() {
        return Some(call);
    }
    Some(format!("{call}{}", stability_mark(c)))
}
