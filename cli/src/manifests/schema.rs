//! Scalars as kubectl reads them: go-yaml v2's YAML 1.1 resolution (`go.yaml.in/yaml/v2` v2.4.4, the version
//! `sigs.k8s.io/yaml` v1.6.0 uses under `k8s.io/apimachinery` v0.37.2) into the Go values it decodes; what JSON
//! kubectl then writes of them is [`super::kubectl_json`]'s.
//!
//! upstream: `go.yaml.in/yaml/v2` `resolve` (resolve.go) and `decoder.scalar` (decode.go).

use std::borrow::Cow;

/// `tag:yaml.org,2002:` — the `!!` handle.
const CORE: &str = "tag:yaml.org,2002:";

/// A scalar as go-yaml v2 decodes it into an `interface{}`: the Go type it gets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    /// `nil`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int` (64-bit).
    Int(i64),
    /// `uint64`: an integer above `i64::MAX` (go-yaml tries `ParseInt`, then `ParseUint`).
    Uint(u64),
    /// `float64`, possibly infinite or NaN (`.inf`, `.nan`).
    Float(f64),
    /// `string` (timestamps and `!!binary` data included).
    Str(String),
}

/// Why a scalar cannot be read (go-yaml's `failf` in `resolve` and `decoder.scalar`).
pub(crate) type ScalarError = String;

/// Decodes one scalar node: its text, whether it is a plain scalar, and its tag (handle and suffix joined: `!`,
/// `!foo`, `tag:yaml.org,2002:int`, …) if it has one.
///
/// upstream: yaml.v2 `decoder.scalar` into an `interface{}`: a quoted or block scalar without a tag is a string; a
/// plain one, or one with a tag, goes through `resolve`; `!!binary` data is base64-decoded; a value resolved as a
/// timestamp stays its text.
///
/// # Errors
/// A tag the text cannot be (`!!int "abc"`, `!!bool 1`, `!!null x`) and `!!binary` text that is not base64.
pub(crate) fn decode(
    text: Cow<'_, str>,
    plain: bool,
    tag: Option<&str>,
) -> Result<Scalar, ScalarError> {
    // go-yaml's `implicit` is libyaml's `plain_implicit`: no tag and plain style, or the non-specific tag `!`.
    let tag = match tag {
        None if !plain => return Ok(Scalar::Str(text.into_owned())),
        None => "",
        Some(t) => t,
    };
    if tag == "tag:yaml.org,2002:binary" {
        return base64_std(&text)
            .map(|bytes| Scalar::Str(go_string(&bytes)))
            .ok_or_else(|| "!!binary value contains invalid base64 data".to_string());
    }
    resolve(tag, text)
}

/// upstream: yaml.v2 `resolve(tag, in)` with the check of its deferred function (a tag the resolved kind does not
/// satisfy is an error, but an integer satisfies `!!float`).
fn resolve(tag: &str, input: Cow<'_, str>) -> Result<Scalar, ScalarError> {
    let resolvable = matches!(
        tag.strip_prefix(CORE),
        Some("str" | "bool" | "int" | "float" | "null" | "timestamp")
    ) || tag.is_empty();
    if !resolvable {
        return Ok(Scalar::Str(input.into_owned()));
    }
    let (kind, value) = implicit(tag, &input);
    let wanted = tag.strip_prefix(CORE).unwrap_or("");
    // An `int` satisfies `!!float` (yaml.v2's deferred check converts `int` and `int64`, not `uint64`).
    let fits = matches!(wanted, "" | "str")
        || wanted == kind.name()
        || (wanted == "float" && matches!(value, Some(Scalar::Int(_))));
    let value = match value {
        _ if !fits => {
            return Err(format!(
                "cannot decode !!{} `{input}` as a !!{wanted}",
                kind.name()
            ));
        }
        None => Scalar::Str(input.into_owned()),
        Some(v) => v,
    };
    Ok(match value {
        #[expect(clippy::cast_precision_loss, reason = "Go's float64(int)")]
        Scalar::Int(i) if wanted == "float" => Scalar::Float(i as f64),
        v => v,
    })
}

/// The kind `resolve` found (its `rtag`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Str,
    Bool,
    Int,
    Float,
    Null,
    Timestamp,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Str => "str",
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Null => "null",
            Kind::Timestamp => "timestamp",
        }
    }
}

/// The body of yaml.v2 `resolve` for a resolvable tag: the first character picks what to try (its `resolveTable`).
/// A string is `(Kind::Str, None)`: the input itself.
fn implicit(tag: &str, input: &str) -> (Kind, Option<Scalar>) {
    let hint = match input.bytes().next() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => 0,
    };
    if hint == 0 || tag == "tag:yaml.org,2002:str" {
        return (Kind::Str, None);
    }
    if let Some((kind, value)) = known(input) {
        return (kind, Some(value));
    }
    match hint {
        b'.' => {
            // `strconv.ParseFloat(in)`: after a leading dot only decimal digits and an exponent can follow.
            if leading_dot_float(input)
                && let Some(f) = finite(input)
            {
                return (Kind::Float, Some(Scalar::Float(f)));
            }
        }
        b'D' | b'S' => {
            if (tag.is_empty() || tag == "tag:yaml.org,2002:timestamp") && is_timestamp(input) {
                return (Kind::Timestamp, None);
            }
            let plain = if input.contains('_') {
                Cow::Owned(input.replace('_', ""))
            } else {
                Cow::Borrowed(input)
            };
            if let Some(i) = parse_int(&plain, 0) {
                return (Kind::Int, Some(Scalar::Int(i)));
            }
            if let Some(u) = parse_uint(&plain, 0) {
                return (Kind::Int, Some(Scalar::Uint(u)));
            }
            if yaml_style_float(&plain)
                && let Some(f) = finite(&plain)
            {
                return (Kind::Float, Some(Scalar::Float(f)));
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                if let Some(i) = parse_int(rest, 2) {
                    return (Kind::Int, Some(Scalar::Int(i)));
                }
                if let Some(u) = parse_uint(rest, 2) {
                    return (Kind::Int, Some(Scalar::Uint(u)));
                }
            } else if let Some(rest) = plain.strip_prefix("-0b")
                && let Some(i) = parse_int(&format!("-{rest}"), 2)
            {
                return (Kind::Int, Some(Scalar::Int(i)));
            }
        }
        _ => {}
    }
    (Kind::Str, None)
}

/// yaml.v2's `resolveMap`: the YAML 1.1 booleans, nulls and special floats (`<<` is there too but unreachable:
/// `<` has no hint).
fn known(input: &str) -> Option<(Kind, Scalar)> {
    Some(match input {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (Kind::Bool, Scalar::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (Kind::Bool, Scalar::Bool(false))
        }
        "" | "~" | "null" | "Null" | "NULL" => (Kind::Null, Scalar::Null),
        ".nan" | ".NaN" | ".NAN" => (Kind::Float, Scalar::Float(f64::NAN)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            (Kind::Float, Scalar::Float(f64::INFINITY))
        }
        "-.inf" | "-.Inf" | "-.INF" => (Kind::Float, Scalar::Float(f64::NEG_INFINITY)),
        _ => return None,
    })
}

/// `s` parsed as a float, if it is finite (`strconv.ParseFloat` fails with a range error beyond `f64::MAX`; an
/// underflow is zero without error).
fn finite(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// An optional exponent: `e`/`E`, an optional sign, digits.
fn exponent(s: &str) -> bool {
    s.is_empty()
        || s.strip_prefix(['e', 'E'])
            .is_some_and(|e| all_digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
}

/// `\.[0-9]+` then an optional exponent: the decimal floats `strconv.ParseFloat` reads that start with a dot.
fn leading_dot_float(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('.') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && exponent(&rest[digits..])
}

/// yaml.v2 `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    if s.starts_with('.') {
        return leading_dot_float(s);
    }
    let int = s.bytes().take_while(u8::is_ascii_digit).count();
    if int == 0 {
        return false;
    }
    let mut rest = &s[int..];
    if let Some(frac) = rest.strip_prefix('.') {
        rest = &frac[frac.bytes().take_while(u8::is_ascii_digit).count()..];
    }
    exponent(rest)
}

/// `strconv.ParseUint(s, base, 64)` for base 0 (a `0x`, `0o`, `0b` or `0` prefix picks the base; no underscores
/// are left, yaml.v2 removed them) or an explicit base. No sign.
fn parse_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (radix, digits) = if base != 0 {
        (base, s)
    } else if let Some(rest) = s.strip_prefix('0') {
        let prefixed = s.len() >= 3;
        match rest.as_bytes().first().map(u8::to_ascii_lowercase) {
            Some(b'b') if prefixed => (2, &rest[1..]),
            Some(b'o') if prefixed => (8, &rest[1..]),
            Some(b'x') if prefixed => (16, &rest[1..]),
            _ => (8, rest),
        }
    } else {
        (10, s)
    };
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    if digits.is_empty() {
        // Only "0" itself (octal, no digits after the leading zero) gets here.
        return Some(0);
    }
    u64::from_str_radix(digits, radix).ok()
}

/// `strconv.ParseInt(s, base, 64)`: an optional sign, then [`parse_uint`] within `i64`'s range.
fn parse_int(s: &str, base: u32) -> Option<i64> {
    let (negative, unsigned) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let u = parse_uint(unsigned, base)?;
    if negative {
        0i64.checked_sub_unsigned(u)
    } else {
        i64::try_from(u).ok()
    }
}

/// yaml.v2 `parseTimestamp`: four digits and `-` first, then one of its `allowedTimestampFormats` as Go's
/// `time.Parse` reads them: `2006-1-2T15:4:5.999999999Z07:00` (`T` or `t`), `2006-1-2 15:4:5.999999999`, `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut p = Cursor { s: b, at: 5 };
    let year: u32 = s[..4].parse().unwrap_or(0);
    let Some(month) = p.number(1, 12) else {
        return false;
    };
    let Some(day) = p.lit(b'-').then(|| p.number(1, 31)).flatten() else {
        return false;
    };
    if day > days_in(month, year) {
        return false;
    }
    if p.done() {
        return true;
    }
    let zoned = match p.next() {
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        _ => return false,
    };
    if p.number(0, 23).is_none()
        || !p.lit(b':')
        || p.number(0, 59).is_none()
        || !p.lit(b':')
        || p.number(0, 59).is_none()
    {
        return false;
    }
    // `.999999999`: an optional fraction, `.` or `,` and at least one digit.
    if matches!(p.peek(), Some(b'.' | b',')) && p.s.get(p.at + 1).is_some_and(u8::is_ascii_digit) {
        p.at += 1;
        while p.peek().is_some_and(|c| c.is_ascii_digit()) {
            p.at += 1;
        }
    }
    if !zoned {
        return p.done();
    }
    // `Z07:00`: `Z`, or a sign and `hh:mm`.
    match p.next() {
        Some(b'Z') => p.done(),
        Some(b'+' | b'-') => {
            let rest = &p.s[p.at..];
            rest.len() == 5
                && rest[2] == b':'
                && [rest[0], rest[1], rest[3], rest[4]]
                    .iter()
                    .all(u8::is_ascii_digit)
                && (rest[0] - b'0') * 10 + (rest[1] - b'0') <= 24
                && (rest[3] - b'0') * 10 + (rest[4] - b'0') <= 60
        }
        _ => false,
    }
}

/// A position in a timestamp being read.
struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        self.at += 1;
        c
    }
    fn done(&self) -> bool {
        self.at == self.s.len()
    }
    fn lit(&mut self, c: u8) -> bool {
        let ok = self.peek() == Some(c);
        self.at += usize::from(ok);
        ok
    }
    /// One or two digits (Go's `getnum` for the layout's `1`, `2`, `15`, `4`, `5`) within `min..=max`.
    fn number(&mut self, min: u32, max: u32) -> Option<u32> {
        let mut n = 0;
        let mut len = 0;
        while len < 2 && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            n = n * 10 + u32::from(self.s[self.at] - b'0');
            self.at += 1;
            len += 1;
        }
        (len > 0 && (min..=max).contains(&n)).then_some(n)
    }
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `base64.StdEncoding.DecodeString`: padded standard base64 (carriage returns and newlines ignored anywhere),
/// `=` only to complete the last quantum; unused bits of the last character need not be zero.
fn base64_std(text: &str) -> Option<Vec<u8>> {
    let chars: Vec<u8> = text
        .bytes()
        .filter(|c| *c != b'\r' && *c != b'\n')
        .collect();
    if !chars.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(chars.len() / 4 * 3);
    let quanta = chars.chunks(4).count();
    for (i, quad) in chars.chunks(4).enumerate() {
        // `=` at positions 2 and 3, or at 3 alone, of the last quantum.
        let kept = quad.iter().take_while(|c| **c != b'=').count();
        if kept < 2 || (kept < 4 && i + 1 != quanta) || quad[kept..].iter().any(|c| *c != b'=') {
            return None;
        }
        let mut bits = 0u32;
        for c in &quad[..kept] {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                _ => return None,
            };
            bits = (bits << 6) | u32::from(v);
        }
        bits <<= 6 * (4 - kept);
        out.extend_from_slice(&bits.to_be_bytes()[1..kept]);
    }
    Some(out)
}

/// Go bytes as the JSON text `encoding/json` writes: each byte that does not start a valid UTF-8 sequence is
/// U+FFFD on its own (`utf8.DecodeRuneInString` returns `RuneError, 1` for it).
fn go_string(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{FFFD}');
                rest = &after[1..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::kubectl_json::to_json;
    use super::*;
    use serde_json::{Value, json};

    fn value(text: &str) -> Result<Value, ScalarError> {
        to_json(decode(text.into(), true, None)?)
    }

    #[test]
    fn yaml_1_1_booleans_nulls_and_numbers() {
        for t in ["y", "Yes", "ON", "true", "on"] {
            assert_eq!(value(t), Ok(json!(true)), "{t}");
        }
        for t in ["n", "NO", "off", "False"] {
            assert_eq!(value(t), Ok(json!(false)), "{t}");
        }
        for t in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(value(t), Ok(Value::Null), "{t}");
        }
        for (t, v) in [
            ("1_000", json!(1000)),
            ("0o17", json!(15)),
            ("017", json!(15)),
            ("08", json!(8)),
            ("0x_1F", json!(31)),
            ("-0b101", json!(-5)),
            ("0b-101", json!(-5)),
            ("1e3", json!(1000)),
            ("1.0", json!(1)),
            ("-0.0", json!(0)),
            ("1.5", json!(1.5)),
            ("1e-400", json!(0)),
            ("18446744073709551615", json!(18_446_744_073_709_552_000.0)),
            ("1:30", json!("1:30")),
            ("1e400", json!("1e400")),
            ("0x", json!("0x")),
            ("._5", json!("._5")),
            ("2001-12-14", json!("2001-12-14")),
        ] {
            assert_eq!(value(t), Ok(v), "{t}");
        }
        assert!(value(".inf").is_err());
        assert!(value("-.Inf").is_err());
        assert!(value(".nan").is_err());
    }

    #[test]
    fn tags_and_quoting() {
        assert_eq!(
            decode("yes".into(), false, None),
            Ok(Scalar::Str("yes".into()))
        );
        assert_eq!(
            decode("123".into(), true, Some("tag:yaml.org,2002:str")),
            Ok(Scalar::Str("123".into()))
        );
        assert_eq!(
            decode("5".into(), false, Some("tag:yaml.org,2002:int")),
            Ok(Scalar::Int(5))
        );
        assert_eq!(
            decode("1".into(), true, Some("tag:yaml.org,2002:float")),
            Ok(Scalar::Float(1.0))
        );
        assert!(decode("1.5".into(), true, Some("tag:yaml.org,2002:int")).is_err());
        assert!(decode("1".into(), true, Some("tag:yaml.org,2002:bool")).is_err());
        assert_eq!(
            decode("123".into(), true, Some("!")),
            Ok(Scalar::Str("123".into()))
        );
        assert_eq!(
            decode("aGVs\nbG8=".into(), false, Some("tag:yaml.org,2002:binary")),
            Ok(Scalar::Str("hello".into()))
        );
        assert_eq!(
            decode("/w==".into(), true, Some("tag:yaml.org,2002:binary")),
            Ok(Scalar::Str("\u{FFFD}".into()))
        );
        assert!(decode("aGVsbG8".into(), true, Some("tag:yaml.org,2002:binary")).is_err());
        assert!(
            decode(
                "2001-12-14".into(),
                true,
                Some("tag:yaml.org,2002:timestamp")
            )
            .is_ok()
        );
        assert!(
            decode(
                "2001-13-14".into(),
                true,
                Some("tag:yaml.org,2002:timestamp")
            )
            .is_err()
        );
        assert!(
            decode(
                "2001-12-14t21:59:43.10-05:00".into(),
                true,
                Some("tag:yaml.org,2002:timestamp")
            )
            .is_ok()
        );
    }
}
