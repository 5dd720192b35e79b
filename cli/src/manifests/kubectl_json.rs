//! The JSON kubectl sends for what go-yaml decoded: scalars and map keys as `sigs.k8s.io/yaml` and Go's
//! `encoding/json` write them, and numbers as kubectl's unstructured decoding reads that text back and writes it
//! again (`k8s.io/apimachinery/pkg/util/json`).
//!
//! upstream: `sigs.k8s.io/yaml` `convertToJSONableObject` (map keys); `encoding/json` `floatEncoder`; `util/json`
//! `convertNumber`.

use super::schema::{Scalar, ScalarError};
use serde_json::{Number, Value};

/// What a scalar is in the JSON kubectl sends, or why `encoding/json` cannot write it (`json: unsupported value:
/// +Inf`).
///
/// upstream: `json.Marshal` of yaml.v2's value, then `util/json`'s `convertNumber` on the way back in (an integer
/// literal within `int64` is an `int64`, any other number a `float64`) and `json.Marshal` again: an integer above
/// `i64::MAX` becomes a float, and a float prints as Go prints it ([`go_number`]).
pub(crate) fn to_json(s: Scalar) -> Result<Value, ScalarError> {
    Ok(match s {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::Int(i) => Value::Number(i.into()),
        #[expect(
            clippy::cast_precision_loss,
            reason = "Go's float64(uint64), rounded to nearest"
        )]
        Scalar::Uint(u) => Value::Number(go_number(u as f64)),
        Scalar::Float(f) if f.is_finite() => Value::Number(go_number(f)),
        Scalar::Float(f) => {
            let go = if f.is_nan() {
                "NaN"
            } else if f > 0.0 {
                "+Inf"
            } else {
                "-Inf"
            };
            return Err(format!("json: unsupported value: {go}"));
        }
        Scalar::Str(s) => Value::String(s),
    })
}

/// A finite `f64` as the JSON number kubectl sends, read back as serde_json reads that text.
///
/// upstream: `encoding/json` `floatEncoder` (`strconv.AppendFloat(f, 'f', -1, 64)`, or `'e'` below `1e-6` and
/// from `1e21`), then `convertNumber`: text that is an `int64` (`1`, `-0` → `0`) is one.
#[must_use]
pub(crate) fn go_number(f: f64) -> Number {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Go's `e` form reads back as the same float.
        return Number::from_f64(f).unwrap_or_else(|| Number::from(0));
    }
    // Rust's `Display` for `f64` is the shortest text that reads back exactly, without exponent: Go's `'f', -1`.
    let text = f.to_string();
    if let Ok(i) = text.parse::<i64>() {
        return Number::from(i);
    }
    serde_json::from_str::<Number>(&text)
        .ok()
        .or_else(|| Number::from_f64(f))
        .unwrap_or_else(|| Number::from(0))
}

/// A JSON number as kubectl sends it after reading it from a JSON document (the same `convertNumber` round trip
/// as [`to_json`]'s).
#[must_use]
pub(crate) fn normalize_number(n: &Number) -> Number {
    if n.is_i64() {
        return n.clone();
    }
    #[expect(
        clippy::cast_precision_loss,
        reason = "Go's ParseFloat of the integer text, rounded to nearest"
    )]
    let f = n
        .as_u64()
        .map(|u| u as f64)
        .or_else(|| n.as_f64())
        .unwrap_or_default();
    go_number(f)
}

/// A map key of yaml.v2's decoding as `sigs.k8s.io/yaml` makes it a JSON member name, or why it cannot.
///
/// upstream: `convertToJSONableObject`: strings stay, integers in decimal, floats as go-yaml prints a float32
/// (`strconv.FormatFloat(f, 'g', -1, 32)`, infinities and NaN as `.inf`, `-.inf`, `.nan`), booleans `true` or
/// `false`; a `nil` or `uint64` key is an error.
pub(crate) fn key_string(s: Scalar) -> Result<String, ScalarError> {
    Ok(match s {
        Scalar::Str(s) => s,
        Scalar::Int(i) => i.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Float(f) => float32_g(f),
        Scalar::Uint(u) => return Err(format!("unsupported map key of type: uint64, key: {u}")),
        Scalar::Null => return Err("unsupported map key: null".to_string()),
    })
}

/// `strconv.FormatFloat(f, 'g', -1, 32)` with go-yaml's names for infinities and NaN.
fn float32_g(f: f64) -> String {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "Go's float32(f), rounded to nearest"
    )]
    let g = f as f32;
    if g.is_nan() {
        return ".nan".into();
    }
    if g.is_infinite() {
        return if g > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    // Rust's `{:e}` gives the shortest digits of the float32: `d.ddde±x`.
    let sci = format!("{g:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    if digits.bytes().all(|d| d == b'0') {
        return format!("{sign}0");
    }
    let digits = digits.trim_end_matches('0');
    let nd = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    // `%e` when the exponent is below -4 or at least 6 (the precision Go uses for the shortest form).
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}{rest}e{esign}{:02}", exp.unsigned_abs());
    }
    let dp = exp + 1;
    let text = if dp <= 0 {
        format!(
            "0.{}{digits}",
            "0".repeat(usize::try_from(-dp).unwrap_or(0))
        )
    } else if dp >= nd {
        format!(
            "{digits}{}",
            "0".repeat(usize::try_from(dp - nd).unwrap_or(0))
        )
    } else {
        let (int, frac) = digits.split_at(usize::try_from(dp).unwrap_or(0));
        format!("{int}.{frac}")
    };
    format!("{sign}{text}")
}

#[cfg(test)]
mod tests {
    use super::super::schema::decode;
    use super::*;

    #[test]
    fn keys_as_sigs_k8s_io_yaml_names_them() {
        let key = |t: &str| key_string(decode(t.into(), true, None).expect("scalar"));
        assert_eq!(key("y"), Ok("true".into()));
        assert_eq!(key("1.5"), Ok("1.5".into()));
        assert_eq!(key("1e10"), Ok("1e+10".into()));
        assert_eq!(key("3.14159265358979"), Ok("3.1415927".into()));
        assert_eq!(key("12345678.0"), Ok("1.2345678e+07".into()));
        assert_eq!(key("0.00001"), Ok("1e-05".into()));
        assert_eq!(key("0.0001"), Ok("0.0001".into()));
        assert_eq!(key("1e300"), Ok(".inf".into()));
        assert_eq!(key("-0.0"), Ok("-0".into()));
        assert_eq!(key("1234567"), Ok("1234567".into()));
        assert!(key("~").is_err());
        assert!(key("18446744073709551615").is_err());
    }

    #[test]
    fn json_numbers_round_trip_as_kubectl_sends_them() {
        let n = |t: &str| normalize_number(&serde_json::from_str::<Number>(t).expect("number"));
        assert_eq!(n("1.0"), Number::from(1));
        assert_eq!(n("-0"), Number::from(0));
        assert_eq!(n("9223372036854775807"), Number::from(i64::MAX));
        assert_eq!(
            n("18446744073709551615"),
            serde_json::from_str::<Number>("18446744073709552000").expect("number")
        );
        assert_eq!(n("1.5e300").as_f64(), Some(1.5e300));
    }
}
