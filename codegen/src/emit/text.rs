//! Pre-formatted text for the regular items of a type — its struct definition or `pub type` alias, its plain
//! `Validate` impl, and the frame of its validation function (whose statements prettyplease prints one piece at a
//! time, [`fn_text`]) — printed directly, byte for byte as prettyplease prints the tokens [`type_def`] and
//! [`validation_items`] emit for them, so that a build skips the tokens → `syn` → prettyplease round trip for
//! about half of the generated text (issue 12: the cold build).
//!
//! It follows prettyplease's layout where that layout is known: a line is printed whole up to prettyplease's
//! margin (89 columns); a wider field or alias type is broken at its outermost generic arguments, one per line, and
//! a wider serde attribute one argument per line; a plain path is never broken. String payloads must need no
//! escaping and types must be paths, generic arguments and arrays. Anything else — a nested break, a recursive
//! struct (its own `PartialEq`), conflicting embedded JSON names, inline-embedded pointers, a routed root, the
//! k8s-openapi target — returns `None` and goes through prettyplease. `crate::compare_direct_printer` compares both
//! printers; `tests/tests/codegen_text.rs` runs it on the conformance package, the example, the fixtures and
//! random Go packages, and `k8s_e2e.rs` on k8s.io/api.

use super::*;
use proc_macro2::{Delimiter, Spacing, TokenTree};

/// prettyplease's margin (`prettyplease::MARGIN`, private): a struct field, a serde attribute, a `pub type` or a
/// call printed whole is at most this many columns wide; a wider one is broken at its generic arguments or
/// attribute arguments (measured with prettyplease 0.3 for every width from 75 to 99 columns).
const MARGIN: usize = 89;

/// The text of `t`'s definition as prettyplease prints [`type_def`]'s tokens, or `None` when the shape is not
/// covered (see the module docs).
pub(super) fn def_text(ctx: &Ctx<'_>, t: &TypePlan) -> Option<String> {
    if ctx.openapi.is_some() {
        return None;
    }
    let name = crate::ident::type_name(&t.key.name);
    let doc = doc_line(&def_doc(t))?;
    match (&t.fields, &t.alias_of) {
        (Some(fields), _) => {
            if t.recursive
                || !t.json_ignored.is_empty()
                || fields.iter().any(|f| !f.embedded_keys.is_empty())
            {
                return None;
            }
            let mut out = doc;
            out.push_str(
                "#[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]\n",
            );
            if fields.is_empty() {
                out.push_str(&fit(format!("pub struct {name} {{}}"))?);
                out.push('\n');
                return Some(out);
            }
            out.push_str(&fit(format!("pub struct {name} {{"))?);
            out.push('\n');
            for f in fields {
                let d = field_def_data(ctx, &t.key.name, f);
                out.push_str(&serde_attr(&d.serde)?);
                out.push_str(&typed_line(
                    "    ",
                    &format!("pub {}: ", d.name),
                    &type_text(d.ty)?,
                    ",",
                )?);
            }
            out.push_str("}\n");
            Some(out)
        }
        (None, Some(a)) => {
            let mut out = doc;
            out.push_str(&typed_line(
                "",
                &format!("pub type {name} = "),
                &type_text(ctx.ty(a))?,
                ";",
            )?);
            Some(out)
        }
        _ => Some(String::new()),
    }
}

/// The text of `t`'s `Validate` impl as prettyplease prints it, when it is the plain one (no subresource routing,
/// the generated type's own impl), else `None`.
pub(super) fn impl_text(ctx: &Ctx<'_>, t: &TypePlan) -> Option<String> {
    if ctx.openapi.is_some() || t.fields.is_none() || routed(t).is_some() {
        return None;
    }
    let name = crate::ident::type_name(&t.key.name);
    let f = format!("validate_{}", snake(&t.key.name));
    let head = fit(format!("impl ::vgc_runtime::Validate for {name} {{"))?;
    let call = fit(format!("        {f}(op, path, Some(self), old, errs);"))?;
    Some(format!(
        "{head}
    fn validate_into(
        &self,
        old: ::std::option::Option<&Self>,
        op: &::vgc_runtime::Operation,
        path: &::vgc_runtime::Path<'_>,
        errs: &mut ::vgc_runtime::ErrorList,
    ) {{
{call}
    }}
}}
"
    ))
}

/// The text of a validation function as prettyplease prints [`ValidationFn::tokens`], or `None` when its shape is
/// not covered (a recursive type's body inside `stack::grow`, the k8s-openapi target, a line of the signature
/// wider than the margin, a doc that is not one plain line). The signature and the `ErrorListExt` import are
/// printed directly; each piece of the body goes through prettyplease on its own ([`stmts_text`]): prettyplease
/// lays out each statement of a function body from the start of its own line at indent 4, independently of the
/// statements around it, so a function's text is the concatenation of its statements' texts — and identical
/// pieces (the descent into `metadata` of every root, the guards) are printed once per thread.
pub(super) fn fn_text(ctx: &Ctx<'_>, vf: &ValidationFn) -> Option<String> {
    if ctx.openapi.is_some() || vf.recursive {
        return None;
    }
    let name = type_text(vf.name.clone())?;
    let mut out = doc_line(&vf.doc)?;
    for line in [
        format!("pub fn {}(", vf.f),
        "    op: &::vgc_runtime::Operation,".to_string(),
        "    path: &::vgc_runtime::Path<'_>,".to_string(),
        format!("    obj: ::std::option::Option<&{name}>,"),
        format!("    old: ::std::option::Option<&{name}>,"),
        "    errs: &mut ::vgc_runtime::ErrorList,".to_string(),
    ] {
        out.push_str(&fit(line)?);
        out.push('\n');
    }
    out.push_str(") {\n    #[allow(unused_imports)]\n    use ::vgc_runtime::ErrorListExt as _;\n");
    for piece in &vf.body {
        out.push_str(&stmts_text(piece)?);
    }
    out.push_str("}\n");
    Some(out)
}

/// How many printed pieces [`stmts_text`] keeps per thread; past it the memo starts again (a long `vgc watch`
/// session must not grow without bound). k8s.io/api has about 900 distinct pieces.
const PIECE_MEMO_CAP: usize = 8192;

thread_local! {
    /// Printed statement pieces by their token text (the exact key: a piece's print is a function of its
    /// tokens alone).
    static PIECES: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<str>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Whole statements as prettyplease prints them in a function body (each line indented by 4, each statement
/// ending in a newline): the body of `fn f() { <piece> }` printed by prettyplease. Empty for no tokens; `None`
/// when the tokens do not parse.
fn stmts_text(piece: &TokenStream) -> Option<std::rc::Rc<str>> {
    if piece.is_empty() {
        return Some("".into());
    }
    let key = piece.to_string();
    if let Some(text) = PIECES.with(|m| m.borrow().get(&key).cloned()) {
        return Some(text);
    }
    let file: syn::File = syn::parse2(quote!(fn f() { #piece })).ok()?;
    let printed = prettyplease::unparse(&file);
    let text: std::rc::Rc<str> = printed
        .strip_prefix("fn f() {\n")?
        .strip_suffix("}\n")?
        .into();
    PIECES.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= PIECE_MEMO_CAP {
            m.clear();
        }
        m.insert(key, text.clone());
    });
    Some(text)
}

/// `line` when prettyplease prints it on one line (it fits the margin).
fn fit(line: String) -> Option<String> {
    (line.chars().count() <= MARGIN).then_some(line)
}

/// `<indent><prefix><ty><suffix>` and a newline, as prettyplease prints a field or an alias: whole when it fits
/// the margin or is a plain path (nothing to break at), else with the outermost generic arguments one per line
/// (`Vec<` / `    T,` / `>`); `None` when that is not enough (an argument that would break again, or a type that has no generic arguments to break).
fn typed_line(indent: &str, prefix: &str, ty: &str, suffix: &str) -> Option<String> {
    let whole = format!("{indent}{prefix}{ty}{suffix}");
    // A plain path has no break point: prettyplease prints it whole however wide it is.
    if whole.chars().count() <= MARGIN || !ty.contains(['<', '[']) {
        return Some(whole + "\n");
    }
    let open = ty.find('<')?;
    let inner = ty.strip_suffix('>')?.get(open + 1..)?;
    let mut out = fit(format!("{indent}{prefix}{}<", &ty[..open]))? + "\n";
    for arg in split_args(inner) {
        out.push_str(&fit(format!("{indent}    {arg},"))?);
        out.push('\n');
    }
    out.push_str(&format!("{indent}>{suffix}\n"));
    Some(out)
}

/// The arguments of a generic argument list printed by [`type_text`] (`A, B<C, D>` → `A`, `B<C, D>`).
fn split_args(inner: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    let bytes = inner.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'<' | b'[' => depth += 1,
            b'>' | b']' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 2; // `, `
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    out
}

/// `///<doc>` for a one-line doc string prettyplease prints as a line comment.
fn doc_line(doc: &str) -> Option<String> {
    if doc.contains(['\n', '\r']) || doc.starts_with('/') {
        return None;
    }
    Some(format!("///{}\n", doc.trim_end_matches([' ', '\t'])))
}

/// A field's `#[serde(...)]` attribute at indent 4, on one line or one argument per line.
fn serde_attr(args: &[SerdeArg]) -> Option<String> {
    let args: Vec<String> = args
        .iter()
        .map(|a| match a {
            SerdeArg::Flag(f) => Some((*f).to_string()),
            SerdeArg::Str(k, v) => plain_str(v).then(|| format!("{k} = \"{v}\"")),
        })
        .collect::<Option<_>>()?;
    let one = format!("    #[serde({})]", args.join(", "));
    if one.chars().count() <= MARGIN {
        return Some(one + "\n");
    }
    let mut out = String::from("    #[serde(\n");
    for (i, a) in args.iter().enumerate() {
        let sep = if i + 1 < args.len() { "," } else { "" };
        out.push_str(&fit(format!("        {a}{sep}"))?);
        out.push('\n');
    }
    out.push_str("    )]\n");
    Some(out)
}

/// A string printed between quotes as is (no escape needed, nothing prettyplease could print differently).
fn plain_str(s: &str) -> bool {
    s.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'_' | b'-' | b'.' | b':' | b'/' | b'$' | b'@' | b' ')
    })
}

/// A type's tokens as prettyplease prints a type: paths and generic arguments without spaces, `, ` between
/// arguments, `[T; N]` arrays. `None` for any other token.
fn type_text(ty: TokenStream) -> Option<String> {
    let mut out = String::new();
    push_type(ty, &mut out)?;
    Some(out)
}

fn push_type(ty: TokenStream, out: &mut String) -> Option<()> {
    for tt in ty {
        match tt {
            TokenTree::Ident(i) => {
                if out.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    return None;
                }
                out.push_str(&i.to_string());
            }
            TokenTree::Punct(p) => match (p.as_char(), p.spacing()) {
                (':', _) | ('<', _) | ('>', _) => out.push(p.as_char()),
                (',', Spacing::Alone) => out.push_str(", "),
                (';', Spacing::Alone) => out.push_str("; "),
                _ => return None,
            },
            TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => {
                out.push('[');
                push_type(g.stream(), out)?;
                out.push(']');
            }
            TokenTree::Literal(l) => {
                let l = l.to_string();
                if !l.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    return None;
                }
                out.push_str(&l);
            }
            TokenTree::Group(_) => return None,
        }
    }
    Some(())
}
