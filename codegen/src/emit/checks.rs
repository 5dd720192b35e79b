//! Check emission: the checks of one declaration grouped by cohort with upstream's short-circuit rules
//! (spec §2.1.3), and one call per leaf check.

use super::*;

mod constraints;
mod custom;
mod dependentrequired;
mod each;
mod r#enum;
mod equality;
mod immutable;
mod limits;
mod monotonic;
mod regex;
mod required;
mod strfmt;
mod testing;
mod union;
mod update;

/// Tokens for "is this nilable value set" given the shape.
pub(super) fn set_expr(ctx: &Ctx<'_>, shape: &Shape, v: &TokenStream) -> TokenStream {
    match shape {
        // k8s-openapi's well-known types: set unless Go's zero value (`IsZero`; the zero time has no `Default`).
        Shape::Other { pointer: false } if ctx.openapi.is_some() => {
            quote!(#v.is_some_and(|v| !crate::semantic::GoEq::go_zero(v)))
        }
        Shape::Scalar { pointer: true, .. }
        | Shape::Struct { .. }
        | Shape::Other { pointer: true } => quote!(#v.is_some()),
        Shape::Scalar { pointer: false, .. } => {
            quote!(#v.is_some_and(|v| ::vgc_runtime::validate::IsSet::is_set(v)))
        }
        Shape::List { .. } | Shape::Map => quote!(#v.is_some_and(|v| !v.is_empty())),
        Shape::Other { pointer: false } => {
            quote!(#v.is_some_and(|v| *v != ::std::default::Default::default()))
        }
    }
}

/// Where checks run: the checked value's shape, the element type of a list or map value, and whether the value is
/// of a named Go type (for [`CheckKind::reports_typed_value`]).
#[derive(Clone, Copy)]
pub(super) struct Site<'a> {
    pub(super) shape: &'a Shape,
    pub(super) elem: Option<&'a RustTy>,
    pub(super) typed: bool,
    /// The struct type of the checked value, when it is one (struct-level checks read its members).
    pub(super) owner: Option<&'a TypeKey>,
    /// The checked list or map keeps nil (`None`) apart from empty: a k8s-openapi field wrapped in `Option`. Not on
    /// vgc's own structs (deviations D9, D11), nor for a list k8s-openapi requires (it reads an absent one as empty).
    pub(super) nil_kept: bool,
}

impl<'a> Site<'a> {
    /// A site of `shape` without element type, of an unnamed Go type.
    pub(super) fn plain(shape: &'a Shape) -> Self {
        Site {
            shape,
            elem: None,
            typed: false,
            owner: None,
            nil_kept: false,
        }
    }
}

/// The generated expressions checks read: the new and the old value (each an `Option<&T>`) and the field path
/// (a `&Path`).
#[derive(Clone, Copy)]
pub(super) struct Operands<'a> {
    pub(super) new: &'a TokenStream,
    pub(super) old: &'a TokenStream,
    pub(super) path: &'a TokenStream,
}

/// How a failed short-circuit leaves the declaration's checks: `return` from a type's function, or `break` out of
/// a field's (or an element's) labelled block.
#[derive(Clone, Copy)]
pub(super) enum Exit {
    Return,
    Break,
}

impl Exit {
    pub(super) fn tokens(self) -> TokenStream {
        match self {
            Exit::Return => quote!(return),
            Exit::Break => quote!(break 'scope),
        }
    }
}

pub(super) fn marks(c: &Check) -> TokenStream {
    let sc = if c.short_circuit {
        quote!(.mark_short_circuit())
    } else {
        TokenStream::new()
    };
    let st = match c.stability {
        Some(Stability::Alpha) => quote!(.mark_alpha()),
        Some(Stability::Beta) => quote!(.mark_beta()),
        _ => TokenStream::new(),
    };
    quote!(#sc #st)
}

/// A list matcher as the runtime's list validators take it: `matches` (how an item is identified: list-map keys,
/// set equality), `hash` (`vgc_runtime::key_hash!` of exactly what `matches` compares with `==`, so items are found
/// through an index in linear time; `None` where `matches` is not plain `==`: k8s-openapi's wrapped members and Go
/// semantic equality, a project deep-equality function) and `equiv` (the equivalence that skips an unchanged item
/// on update). Each is an `Option<fn …>` expression.
pub(super) struct MatcherFns {
    pub(super) matches: TokenStream,
    pub(super) hash: TokenStream,
    pub(super) equiv: TokenStream,
}

pub(super) fn matcher_fns(ctx: &Ctx<'_>, m: &Matcher, elem: Option<&RustTy>) -> MatcherFns {
    let elem_ty = elem.map_or(quote!(_), |e| match e {
        RustTy::Option(i, _) => ctx.ty(i),
        e => ctx.ty(e),
    });
    let fn_ty = quote!(fn(&#elem_ty, &#elem_ty) -> bool);
    let hash_ty = quote!(fn(&#elem_ty) -> u64);
    let none = || quote!(None);
    match m {
        Matcher::None => MatcherFns {
            matches: none(),
            hash: none(),
            equiv: none(),
        },
        // upstream `list.go`/`each.go`: a set's items match by `DirectEqual` when comparable, else the package's
        // deep-equality function.
        Matcher::Set => {
            let eq = deep_eq_elem(ctx, elem, &quote!(a), &quote!(b));
            let plain_eq =
                ctx.openapi.is_none() && !elem.is_some_and(|e| ctx.project_deep_equal(e));
            MatcherFns {
                matches: quote!(Some((|a: &#elem_ty, b: &#elem_ty| #eq) as #fn_ty)),
                hash: if plain_eq {
                    quote!(Some((|x: &#elem_ty| ::vgc_runtime::key_hash!(*x)) as #hash_ty))
                } else {
                    none()
                },
                equiv: none(),
            }
        }
        Matcher::Keys(keys) => {
            let owner = elem.and_then(|e| ctx.struct_of(e));
            let ks = keys
                .iter()
                .map(|k| key_eq(ctx, owner, &quote!(a), &quote!(b), k));
            let eq = deep_eq_elem(ctx, elem, &quote!(a), &quote!(b));
            let members: Vec<_> = keys.iter().map(|k| ctx.member(owner, k)).collect();
            let hash = if members.iter().any(|m| m.wrapped || m.inline) {
                none()
            } else {
                let parts = members.iter().map(|m| {
                    let f = &m.ident;
                    quote!(x.#f)
                });
                quote!(Some((|x: &#elem_ty| ::vgc_runtime::key_hash!(#(#parts),*)) as #hash_ty))
            };
            MatcherFns {
                matches: quote!(Some((|a: &#elem_ty, b: &#elem_ty| true #(&& #ks)*) as #fn_ty)),
                hash,
                equiv: quote!(Some((|a: &#elem_ty, b: &#elem_ty| #eq) as #fn_ty)),
            }
        }
    }
}

/// Emits the checks of one declaration: the default cohort first (its short-circuit failure ends the whole
/// scope via `exit`), then each named cohort in order of first definition, each in its own block so that an
/// early exit stops only that cohort (upstream §2.1.3).
pub(super) fn checks_block(
    ctx: &Ctx<'_>,
    checks: &[Check],
    site: Site<'_>,
    ops: Operands<'_>,
    exit: Exit,
) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    let exit = exit.tokens();
    let default: Vec<&Check> = checks.iter().filter(|c| c.cohort.is_none()).collect();
    let mut named: Vec<(&str, Vec<&Check>)> = Vec::new();
    for c in checks {
        if let Some(name) = &c.cohort {
            match named.iter_mut().find(|(n, _)| *n == name.as_str()) {
                Some((_, v)) => v.push(c),
                None => named.push((name.as_str(), vec![c])),
            }
        }
    }
    let first = cohort_code(ctx, &default, site, ops, &exit);
    let rest = named.iter().map(|(_, cs)| {
        let body = cohort_code(ctx, cs, site, ops, &quote!(break 'cohort));
        quote!('cohort: { #body })
    });
    quote! { #first #(#rest)* }
}

pub(super) fn cohort_code(
    ctx: &Ctx<'_>,
    checks: &[&Check],
    site: Site<'_>,
    ops: Operands<'_>,
    exit: &TokenStream,
) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    let mut sc_part = Vec::new();
    let mut rest = Vec::new();
    for c in checks {
        let call = check_call(ctx, c, site, ops);
        // upstream `ErrorBody` quotes a value of Go type `string` (`%q`) but renders a value of a named string type
        // (an enum, a typedef) as JSON: the checked value is such a value here.
        let call = if site.typed && c.kind.reports_typed_value() {
            quote!(::vgc_runtime::field::typed_values(#call))
        } else {
            call
        };
        let m = marks(c);
        let code = if matches!(
            c.kind,
            CheckKind::Subfield(_)
                | CheckKind::IfOption(_)
                | CheckKind::IfSubresource(_)
                | CheckKind::Item(_)
        ) {
            // Wrappers (upstream `validate.Subfield`, `validate.IfOption`) carry their inner function's flags; a
            // NonError wrapper (inherited checks, `…=+k8s:optional`) only stops the cohort, swallowing its errors.
            let call = eval_pair(ctx, c, site, ops);
            if c.short_circuit && c.non_error {
                quote! { { let (_, failed) = #call; if failed { sc = true; } } }
            } else if c.short_circuit {
                quote! { { let (e, failed) = #call; if failed { sc = true; errs.extend(e #m); } } }
            } else if c.non_error {
                quote! { let _ = #call; }
            } else {
                quote! { { let (e, _) = #call; errs.extend(e #m); } }
            }
        } else if c.kind == CheckKind::Optional && c.non_error {
            let set = set_expr(ctx, site.shape, ops.new);
            quote!(if !(#set) { sc = true; })
        } else if c.short_circuit && c.non_error {
            // An inherited NonError short-circuit: its errors are not reported, it only stops the cohort.
            quote! { { let e: ::vgc_runtime::ErrorList = #call; if !e.is_empty() { sc = true; } } }
        } else if c.short_circuit {
            quote! { { let e: ::vgc_runtime::ErrorList = #call; if !e.is_empty() { sc = true; errs.extend(e #m); } } }
        } else if c.non_error {
            // A NonError check that is not a short-circuit has no observable effect (upstream drops its errors).
            quote! { let _ = #call; }
        } else {
            quote! { errs.extend(#call #m); }
        };
        if c.short_circuit {
            sc_part.push(code)
        } else {
            rest.push(code)
        }
    }
    let gate = if sc_part.is_empty() {
        TokenStream::new()
    } else {
        quote!(if sc { #exit; })
    };
    quote! {
        let mut sc = false;
        #(#sc_part)*
        #gate
        #(#rest)*
    }
}

/// `::vgc_runtime::validate`, the module of the runtime's validators.
fn validators() -> TokenStream {
    quote!(::vgc_runtime::validate)
}

/// The checked value as the string validators take it (`Option<&str>`).
fn as_str(new: &TokenStream) -> TokenStream {
    quote!(#new.map(|v| v.as_str()))
}

/// One check's call: an expression of its errors (an `ErrorList`). One arm per validator family, whose emission is
/// in `checks/<family>.rs`, named after apimachinery's `pkg/api/validate/*.go` file as the runtime's validators
/// (`vgc_runtime::validate`) and the interpreter's evaluation (`vgc_validate`'s `eval/`) are; the wrappers
/// (`subfield`, `item`, `ifEnabled`/`ifDisabled`, the subresource conditions, modes) are `wrappers.rs`' and evaluate
/// to `(errors, failed)`.
pub(super) fn check_call(
    ctx: &Ctx<'_>,
    c: &Check,
    site: Site<'_>,
    ops: Operands<'_>,
) -> TokenStream {
    match &c.kind {
        CheckKind::Required { .. } | CheckKind::Optional | CheckKind::Forbidden { .. } => {
            required::call(ctx, c, site, ops)
        }
        vgc_lowering::limit_check_kinds!() => limits::call(c, ops),
        CheckKind::Format(f) => strfmt::call(*f, ops),
        CheckKind::Matches(p) => regex::call(p, ops),
        CheckKind::Enum(e) => r#enum::call(e, ops),
        CheckKind::Immutable => immutable::call(ops),
        CheckKind::Update(cs, matcher) => update::call(ctx, cs, matcher, site, ops),
        CheckKind::Unique(_)
        | CheckKind::EachVal(..)
        | CheckKind::EachKey(_)
        | CheckKind::NoNils => each::call(ctx, c, site, ops),
        CheckKind::Union(_) | CheckKind::ListUnion(_) | CheckKind::VirtualUnion(_) => {
            union::call(ctx, c, site, ops)
        }
        CheckKind::Dependent(d) => dependentrequired::call(ctx, d, site, ops),
        CheckKind::Monotonic => monotonic::call(ops),
        CheckKind::Eq(n) | CheckKind::Neq(n) => equality::call(c, n, ops),
        CheckKind::FixedResult { result, msg, .. } => testing::call(*result, msg, site, ops),
        CheckKind::Custom {
            owner, field, ty, ..
        } => custom::call(ctx, owner, field.as_deref(), ty, ops),
        CheckKind::FieldConstraint(fc) => constraints::call(fc, ops),
        CheckKind::Subfield(sub) => {
            let call = subfield_call(ctx, sub, site, ops);
            quote!((#call).0)
        }
        CheckKind::Item(_) | CheckKind::IfOption(_) | CheckKind::IfSubresource(_) => {
            let pair = eval_pair(ctx, c, site, ops);
            quote!((#pair).0)
        }
        CheckKind::Discriminated(m) => discriminated_call(ctx, m, site, ops),
    }
}

/// `Some(o).map(|x| &x.a).and_then(|x| x.as_ref()).map(|x| &x.b)`: the value at the end of `steps` from struct
/// `o`, `None` past a nil pointer.
fn navigate(steps: &[vgc_lowering::plan::PathStep]) -> TokenStream {
    let steps = steps.iter().map(|s| {
        let f = field_ident(&s.go);
        let deref = match s.pointer {
            Some(Boxing::Boxed) => quote!(.and_then(|x| x.as_deref())),
            Some(Boxing::Inline) => quote!(.and_then(|x| x.as_ref())),
            None => quote!(),
        };
        quote!(.map(|x| &x.#f) #deref)
    });
    quote!(::std::option::Option::Some(o) #(#steps)*)
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;
    use vgc_ir::catalog::TagId;

    fn check(kind: CheckKind, short_circuit: bool) -> Check {
        Check {
            kind,
            short_circuit,
            non_error: false,
            stability: None,
            tag: Some(TagId::MaxLength),
            cohort: None,
        }
    }

    const STRING_PTR: Shape = Shape::Scalar {
        ty: Builtin::String,
        pointer: true,
    };

    fn ops() -> (TokenStream, TokenStream, TokenStream) {
        (quote!(new), quote!(old), quote!(&p))
    }

    /// One leaf check: the runtime call with the value as `Option<&str>`, the typed format enum.
    #[test]
    fn leaf_calls() {
        let layout = Layout::default();
        let (new, old, path) = ops();
        let ops = Operands {
            new: &new,
            old: &old,
            path: &path,
        };
        let site = Site::plain(&STRING_PTR);
        let call = |k| check_call(&layout.ctx(), &check(k, false), site, ops).to_string();
        expect![[r#":: vgc_runtime :: validate :: max_length (& p , new . map (| v | v . as_str ()) , 8i64)"#]]
            .assert_eq(&call(CheckKind::MaxLength(8)));
        expect![[r#":: vgc_runtime :: validate :: format (& p , new . map (| v | v . as_str ()) , :: vgc_runtime :: formats :: Format :: K8sShortName)"#]]
            .assert_eq(&call(CheckKind::Format(Format::K8sShortName)));
    }

    /// A short-circuit check runs first and, failing, leaves the declaration (`return` from a type's function)
    /// before the other checks; its errors are still reported and marked.
    #[test]
    fn short_circuits_exit_before_the_rest() {
        let layout = Layout::default();
        let (new, old, path) = ops();
        let ops = Operands {
            new: &new,
            old: &old,
            path: &path,
        };
        let checks = [
            check(CheckKind::MaxLength(8), false),
            check(CheckKind::Required { detail: None }, true),
        ];
        let code = checks_block(
            &layout.ctx(),
            &checks,
            Site::plain(&STRING_PTR),
            ops,
            Exit::Return,
        );
        expect!["let mut sc = false ; { let e : :: vgc_runtime :: ErrorList = :: vgc_runtime :: validate :: required (& p , new . is_some ()) ; if ! e . is_empty () { sc = true ; errs . extend (e . mark_short_circuit ()) ; } } if sc { return ; } errs . extend (:: vgc_runtime :: validate :: max_length (& p , new . map (| v | v . as_str ()) , 8i64)) ;"].assert_eq(&code.to_string());
    }
}
