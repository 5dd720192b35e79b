//! A parser for the CEL that vgc itself writes (`crate::cel`, `crate::rules`), into the tree cel-go's checker costs:
//! macros (`has`, `all`, `exists`, `exists_one`, `filter`, `map`) expanded as cel-go v0.29's `parser/macro.go`
//! expands them, a namespaced function (`format.dns1123Label()`) as one global call, as the checker resolves it.
//!
//! Not a general CEL front end: the full grammar (operators and precedence of cel-spec's `syntax.md`) is read, but
//! numbers are integers and doubles without exponents, and string literals are vgc's (single, double or raw quotes;
//! the escapes [`crate::cel::str_lit`] writes). Text outside that is an [`Error`], which the estimate reports as a
//! rule it cannot estimate — never a guess. A library (cel-rust's `cel-parser`) would read more but builds an ANTLR
//! runtime, and its tree has the macros unexpanded: the estimate needs cel-go's expansion anyway.

use std::fmt;

/// One expression node; `id` is unique within a parse (the side tables of the estimate are keyed by it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Expr {
    /// The node's id.
    pub(crate) id: u32,
    /// What it is.
    pub(crate) kind: ExprKind,
}

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Lit {
    /// `true`/`false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// An unsigned integer (`1u`).
    Uint(u64),
    /// A double.
    Double(f64),
    /// A string (its characters).
    Str(String),
    /// `null`.
    Null,
}

/// The kinds of node, as cel-go's `ast.ExprKind`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExprKind {
    /// A literal.
    Lit(Lit),
    /// An identifier (a variable).
    Ident(String),
    /// `operand.field`; `test_only` for `has(operand.field)`.
    Select {
        /// The object.
        operand: Box<Expr>,
        /// The field name as written.
        field: String,
        /// A presence test (`has()`).
        test_only: bool,
    },
    /// A call: a global function (`size(x)`, operators as `_==_`, `format.dns1123Label`) or a member function.
    Call {
        /// The function name.
        function: String,
        /// The receiver of a member call.
        target: Option<Box<Expr>>,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `{k: v}`.
    Map(Vec<(Expr, Expr)>),
    /// An expanded macro.
    Comprehension(Box<Comprehension>),
}

/// cel-go's comprehension: `iter_var` over `range`, accumulator `accu_var` from `accu_init`, `step` while `cond`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Comprehension {
    /// The iteration variable.
    pub(crate) iter_var: String,
    /// The range.
    pub(crate) range: Expr,
    /// The accumulator's name (cel-go's hidden `@result`).
    pub(crate) accu_var: String,
    /// Its initial value.
    pub(crate) accu_init: Expr,
    /// The loop condition.
    pub(crate) cond: Expr,
    /// The loop step.
    pub(crate) step: Expr,
    /// The result.
    pub(crate) result: Expr,
}

/// The accumulator's name in a macro's expansion (cel-go `parser.HiddenAccumulatorName`).
pub(crate) const ACCU: &str = "@result";

/// Why a text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error {
    /// Byte offset in the text.
    pub(crate) at: usize,
    /// What was wrong.
    pub(crate) what: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.at, self.what)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Uint(u64),
    Double(f64),
    Str(String),
    Punct(&'static str),
}

const PUNCTS: &[&str] = &[
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]",
    "{", "}", ".", ",", "?", ":",
];

fn lex(text: &str) -> Result<Vec<(usize, Tok)>, Error> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let raw = (c == b'r' || c == b'R') && matches!(b.get(i + 1), Some(b'\'' | b'"'));
        if raw || c == b'\'' || c == b'"' {
            if raw {
                i += 1;
            }
            let q = b[i];
            if b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) {
                return Err(Error {
                    at: i,
                    what: "triple-quoted strings are not read".into(),
                });
            }
            i += 1;
            let mut s = String::new();
            loop {
                let Some(ch) = text[i..].chars().next() else {
                    return Err(Error {
                        at: start,
                        what: "unterminated string".into(),
                    });
                };
                i += ch.len_utf8();
                if ch == char::from(q) {
                    break;
                }
                if ch == '\\' && !raw {
                    let Some(e) = text[i..].chars().next() else {
                        return Err(Error {
                            at: i,
                            what: "unterminated escape".into(),
                        });
                    };
                    i += e.len_utf8();
                    match e {
                        '\\' | '\'' | '"' | '?' | '`' => s.push(e),
                        'n' => s.push('\n'),
                        'r' => s.push('\r'),
                        't' => s.push('\t'),
                        'u' => {
                            let hex = text.get(i..i + 4).ok_or(Error {
                                at: i,
                                what: "short \\u escape".into(),
                            })?;
                            let v = u32::from_str_radix(hex, 16).map_err(|_| Error {
                                at: i,
                                what: "bad \\u escape".into(),
                            })?;
                            s.push(char::from_u32(v).unwrap_or('\u{fffd}'));
                            i += 4;
                        }
                        other => {
                            return Err(Error {
                                at: i,
                                what: format!("escape \\{other} is not read"),
                            });
                        }
                    }
                } else {
                    s.push(ch);
                }
            }
            out.push((start, Tok::Str(s)));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Ident(text[start..i].to_string())));
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let double = b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if double {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let v = text[start..i].parse().map_err(|_| Error {
                    at: start,
                    what: "bad number".into(),
                })?;
                out.push((start, Tok::Double(v)));
            } else if matches!(b.get(i), Some(b'u' | b'U')) {
                let v = text[start..i].parse().map_err(|_| Error {
                    at: start,
                    what: "bad number".into(),
                })?;
                i += 1;
                out.push((start, Tok::Uint(v)));
            } else {
                let v = text[start..i].parse().map_err(|_| Error {
                    at: start,
                    what: "bad number".into(),
                })?;
                out.push((start, Tok::Int(v)));
            }
            continue;
        }
        let Some(p) = PUNCTS.iter().find(|p| text[i..].starts_with(**p)) else {
            return Err(Error {
                at: i,
                what: format!("unexpected character {:?}", text[i..].chars().next()),
            });
        };
        i += p.len();
        out.push((start, Tok::Punct(p)));
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    next_id: u32,
    end: usize,
}

/// Parses `text`.
///
/// # Errors
/// A text outside what the module reads, or not CEL.
pub(crate) fn parse(text: &str) -> Result<Expr, Error> {
    let mut p = Parser {
        toks: lex(text)?,
        pos: 0,
        next_id: 0,
        end: text.len(),
    };
    let e = p.expr()?;
    if p.pos < p.toks.len() {
        return Err(p.err("unexpected text after the expression"));
    }
    Ok(e)
}

impl Parser {
    fn node(&mut self, kind: ExprKind) -> Expr {
        self.next_id += 1;
        Expr {
            id: self.next_id,
            kind,
        }
    }

    fn call(&mut self, function: &str, target: Option<Expr>, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call {
            function: function.to_string(),
            target: target.map(Box::new),
            args,
        })
    }

    fn err(&self, what: &str) -> Error {
        Error {
            at: self.toks.get(self.pos).map_or(self.end, |t| t.0),
            what: what.to_string(),
        }
    }

    fn peek_punct(&self, p: &str) -> bool {
        matches!(self.toks.get(self.pos), Some((_, Tok::Punct(q))) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek_punct(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), Error> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.err(&format!("expected `{p}`")))
        }
    }

    fn expr(&mut self) -> Result<Expr, Error> {
        let c = self.or()?;
        if self.eat("?") {
            let a = self.or()?;
            self.expect(":")?;
            let b = self.expr()?;
            return Ok(self.call("_?_:_", None, vec![c, a, b]));
        }
        Ok(c)
    }

    fn or(&mut self) -> Result<Expr, Error> {
        let mut l = self.and()?;
        while self.eat("||") {
            let r = self.and()?;
            l = self.call("_||_", None, vec![l, r]);
        }
        Ok(l)
    }

    fn and(&mut self) -> Result<Expr, Error> {
        let mut l = self.relation()?;
        while self.eat("&&") {
            let r = self.relation()?;
            l = self.call("_&&_", None, vec![l, r]);
        }
        Ok(l)
    }

    fn relation(&mut self) -> Result<Expr, Error> {
        let mut l = self.addition()?;
        loop {
            let op = match self.toks.get(self.pos) {
                Some((_, Tok::Punct(p))) if ["==", "!=", "<", "<=", ">", ">="].contains(p) => {
                    format!("_{p}_")
                }
                Some((_, Tok::Ident(i))) if i == "in" => "@in".to_string(),
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = self.addition()?;
            l = self.call(&op, None, vec![l, r]);
        }
    }

    fn addition(&mut self) -> Result<Expr, Error> {
        let mut l = self.multiplication()?;
        loop {
            let op = if self.eat("+") {
                "_+_"
            } else if self.eat("-") {
                "_-_"
            } else {
                return Ok(l);
            };
            let r = self.multiplication()?;
            l = self.call(op, None, vec![l, r]);
        }
    }

    fn multiplication(&mut self) -> Result<Expr, Error> {
        let mut l = self.unary()?;
        loop {
            let op = if self.eat("*") {
                "_*_"
            } else if self.eat("/") {
                "_/_"
            } else if self.eat("%") {
                "_%_"
            } else {
                return Ok(l);
            };
            let r = self.unary()?;
            l = self.call(op, None, vec![l, r]);
        }
    }

    fn unary(&mut self) -> Result<Expr, Error> {
        if self.eat("!") {
            let e = self.unary()?;
            return Ok(self.call("!_", None, vec![e]));
        }
        if self.eat("-") {
            // A negative literal is one literal, as cel-go's parser reads it.
            if let Some((_, Tok::Int(v))) = self.toks.get(self.pos).cloned() {
                self.pos += 1;
                let lit = self.node(ExprKind::Lit(Lit::Int(-v)));
                return self.member_suffixes(lit);
            }
            let e = self.unary()?;
            return Ok(self.call("-_", None, vec![e]));
        }
        let p = self.primary()?;
        self.member_suffixes(p)
    }

    fn args(&mut self) -> Result<Vec<Expr>, Error> {
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat(")") {
                return Ok(args);
            }
            self.expect(",")?;
        }
    }

    fn ident(&mut self) -> Result<String, Error> {
        match self.toks.get(self.pos).cloned() {
            Some((_, Tok::Ident(i))) => {
                self.pos += 1;
                Ok(i)
            }
            _ => Err(self.err("expected a name")),
        }
    }

    fn member_suffixes(&mut self, mut e: Expr) -> Result<Expr, Error> {
        loop {
            if self.eat(".") {
                let name = self.ident()?;
                if self.eat("(") {
                    let args = self.args()?;
                    e = self.member_call(e, &name, args)?;
                } else {
                    e = self.node(ExprKind::Select {
                        operand: Box::new(e),
                        field: name,
                        test_only: false,
                    });
                }
            } else if self.eat("[") {
                let i = self.expr()?;
                self.expect("]")?;
                e = self.call("_[_]", None, vec![e, i]);
            } else {
                return Ok(e);
            }
        }
    }

    /// A member call, or the macro it spells.
    fn member_call(
        &mut self,
        target: Expr,
        name: &str,
        mut args: Vec<Expr>,
    ) -> Result<Expr, Error> {
        // A namespaced function: `format.dns1123Label()` is the global function `format.dns1123Label`.
        if let ExprKind::Ident(ns) = &target.kind
            && ns == "format"
        {
            return Ok(self.call(&format!("format.{name}"), None, args));
        }
        let quantifier = matches!(name, "all" | "exists" | "exists_one" | "filter" | "map");
        if !quantifier || args.len() != 2 {
            return Ok(self.call(name, Some(target), args));
        }
        let body = args.pop().expect("two arguments");
        let var = match args.pop().map(|a| a.kind) {
            Some(ExprKind::Ident(v)) => v,
            _ => return Err(self.err("a macro's variable must be a name")),
        };
        let accu = |p: &mut Self| p.node(ExprKind::Ident(ACCU.into()));
        let lit = |p: &mut Self, l: Lit| p.node(ExprKind::Lit(l));
        let (accu_init, cond, step, result) = match name {
            "all" => {
                let init = lit(self, Lit::Bool(true));
                let a = accu(self);
                let cond = self.call("@not_strictly_false", None, vec![a]);
                let a = accu(self);
                let step = self.call("_&&_", None, vec![a, body]);
                (init, cond, step, accu(self))
            }
            "exists" => {
                let init = lit(self, Lit::Bool(false));
                let a = accu(self);
                let not = self.call("!_", None, vec![a]);
                let cond = self.call("@not_strictly_false", None, vec![not]);
                let a = accu(self);
                let step = self.call("_||_", None, vec![a, body]);
                (init, cond, step, accu(self))
            }
            "exists_one" => {
                let init = lit(self, Lit::Int(0));
                let cond = lit(self, Lit::Bool(true));
                let a = accu(self);
                let one = lit(self, Lit::Int(1));
                let inc = self.call("_+_", None, vec![a, one]);
                let a = accu(self);
                let step = self.call("_?_:_", None, vec![body, inc, a]);
                let a = accu(self);
                let one = lit(self, Lit::Int(1));
                let result = self.call("_==_", None, vec![a, one]);
                (init, cond, step, result)
            }
            // filter and map
            _ => {
                let init = self.node(ExprKind::List(Vec::new()));
                let cond = lit(self, Lit::Bool(true));
                let a = accu(self);
                let item = if name == "filter" {
                    self.node(ExprKind::Ident(var.clone()))
                } else {
                    body.clone()
                };
                let one = self.node(ExprKind::List(vec![item]));
                let add = self.call("_+_", None, vec![a, one]);
                let step = if name == "filter" {
                    let a = accu(self);
                    self.call("_?_:_", None, vec![body, add, a])
                } else {
                    add
                };
                (init, cond, step, accu(self))
            }
        };
        Ok(self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_var: var,
            range: target,
            accu_var: ACCU.into(),
            accu_init,
            cond,
            step,
            result,
        }))))
    }

    fn primary(&mut self) -> Result<Expr, Error> {
        let Some((_, t)) = self.toks.get(self.pos).cloned() else {
            return Err(self.err("unexpected end"));
        };
        self.pos += 1;
        Ok(match t {
            Tok::Int(v) => self.node(ExprKind::Lit(Lit::Int(v))),
            Tok::Uint(v) => self.node(ExprKind::Lit(Lit::Uint(v))),
            Tok::Double(v) => self.node(ExprKind::Lit(Lit::Double(v))),
            Tok::Str(s) => self.node(ExprKind::Lit(Lit::Str(s))),
            Tok::Ident(i) => match i.as_str() {
                "true" => self.node(ExprKind::Lit(Lit::Bool(true))),
                "false" => self.node(ExprKind::Lit(Lit::Bool(false))),
                "null" => self.node(ExprKind::Lit(Lit::Null)),
                _ if self.eat("(") => {
                    let args = self.args()?;
                    if i == "has" {
                        let [arg] = <[Expr; 1]>::try_from(args)
                            .map_err(|_| self.err("has() takes one argument"))?;
                        let ExprKind::Select { operand, field, .. } = arg.kind else {
                            return Err(self.err("has() takes a field selection"));
                        };
                        self.node(ExprKind::Select {
                            operand,
                            field,
                            test_only: true,
                        })
                    } else {
                        self.call(&i, None, args)
                    }
                }
                _ => self.node(ExprKind::Ident(i)),
            },
            Tok::Punct("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                e
            }
            Tok::Punct("[") => {
                let mut items = Vec::new();
                if !self.eat("]") {
                    loop {
                        items.push(self.expr()?);
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                self.node(ExprKind::List(items))
            }
            Tok::Punct("{") => {
                let mut entries = Vec::new();
                if !self.eat("}") {
                    loop {
                        let k = self.expr()?;
                        self.expect(":")?;
                        let v = self.expr()?;
                        entries.push((k, v));
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                self.node(ExprKind::Map(entries))
            }
            Tok::Punct(_) => {
                self.pos -= 1;
                return Err(self.err("unexpected token"));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Lit(l) => format!("{l:?}"),
            ExprKind::Ident(i) => i.clone(),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => format!(
                "{}{}.{field}",
                if *test_only { "has:" } else { "" },
                show(operand)
            ),
            ExprKind::Call {
                function,
                target,
                args,
            } => format!(
                "{}{function}({})",
                target
                    .as_ref()
                    .map(|t| format!("{}.", show(t)))
                    .unwrap_or_default(),
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            ExprKind::List(items) => format!(
                "[{}]",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            ExprKind::Map(_) => "{..}".into(),
            ExprKind::Comprehension(c) => format!(
                "comp({} in {}; init {}; cond {}; step {}; result {})",
                c.iter_var,
                show(&c.range),
                show(&c.accu_init),
                show(&c.cond),
                show(&c.step),
                show(&c.result)
            ),
        }
    }

    #[test]
    fn reads_vgc_rules_with_cel_go_precedence_and_macros() {
        let e = parse(
            "self == '' || !format.dns1123Label().validate(self).hasValue() && size(self) <= 63",
        )
        .expect("parses");
        assert_eq!(
            show(&e),
            "_||_(_==_(self, Str(\"\")), _&&_(!_(format.dns1123Label().validate(self).hasValue()), _<=_(size(self), Int(63))))"
        );
        let e = parse("self.all(x, has(x.a))").expect("parses");
        assert_eq!(
            show(&e),
            "comp(x in self; init Bool(true); cond @not_strictly_false(@result); step _&&_(@result, has:x.a); result @result)"
        );
        let e = parse("self.split('/')[1].matches(r'^[a-z]\\d$')").expect("parses");
        assert_eq!(
            show(&e),
            "_[_](self.split(Str(\"/\")), Int(1)).matches(Str(\"^[a-z]\\\\d$\"))"
        );
        assert!(parse("self ==").is_err());
        assert!(parse("self $ 1").is_err());
    }
}
