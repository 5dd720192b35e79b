//! Well-known Kubernetes value types with their real JSON forms and upstream (`equality.Semantic`) equality.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `resource.Quantity`: JSON string (or number); equal when numerically equal (upstream `Cmp == 0`). Serializes
/// as upstream's `Quantity.MarshalJSON` after `UnmarshalJSON`: the text as written (spaces trimmed) when
/// `ParseQuantity` found it canonical and kept it (`"+999M"`, `"048650Gi"`, `"1500m"`), else the canonical form
/// (`"1.5"` → `"1500m"`, `"2048Ki"` → `"2Mi"`, unset → `"0"`). That is what error details that print a value as
/// JSON (`Duplicate value: {…}`) show. A value beyond `E` (10^18) that is not kept prints as k8s.io/apimachinery
/// v0.37 does (the bare number); v0.38 prints it with an exponent (`docs/upstream.md`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(transparent)]
pub struct Quantity(#[serde(deserialize_with = "quantity_de")] pub String);

impl Serialize for Quantity {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = self.0.trim();
        if keeps_text(text) {
            s.serialize_str(text)
        } else {
            s.serialize_str(&self.canonical())
        }
    }
}

fn quantity_de<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => match quantity_syntax(&s) {
            Ok(()) => Ok(s),
            Err(e) => Err(serde::de::Error::custom(e)),
        },
        // A JSON number: its text is gone once parsed (upstream keeps it, `1e3`); an integral value prints as an
        // integer (`1000`, not serde's `1000.0`), which is the same quantity.
        serde_json::Value::Number(n) => Ok(match n.as_f64() {
            _ if n.is_i64() || n.is_u64() => n.to_string(),
            #[allow(clippy::cast_possible_truncation)] // integral and within ±2^53: exact
            Some(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => {
                format!("{}", f as i64)
            }
            _ => n.to_string(),
        }),
        serde_json::Value::Null => Ok(String::new()),
        other => Err(serde::de::Error::custom(format!(
            "quantities must be strings or numbers, got {other}"
        ))),
    }
}

/// Whether `text` is a quantity as upstream's `ParseQuantity` reads it (after `UnmarshalJSON` trims spaces): an
/// optional sign, digits with at most one `.`, and a suffix (`Ki` … `Ei`, `n`, `u`, `m`, none, `k` … `E`, or a
/// decimal exponent `e±N`). The errors are upstream's `ErrFormatWrong` (`quantities must match the regular expression
/// …`) and `ErrSuffix` (`unable to parse quantity's suffix`). Overflow is not checked (upstream caps large values).
///
/// # Errors
/// The upstream error text when `text` is not a quantity.
pub fn quantity_syntax(text: &str) -> Result<(), &'static str> {
    const FORMAT: &str = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    const SUFFIX: &str = "unable to parse quantity's suffix";
    let s = text.trim();
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let num_end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(num_end);
    if !num.bytes().any(|b| b.is_ascii_digit()) || num.matches('.').count() > 1 {
        return Err(FORMAT);
    }
    // The regular expression's suffix part: letters of `eEinumkKMGTP`, then an optional sign and digits.
    let letters_end = suffix
        .find(|c: char| !"eEinumkKMGTP".contains(c))
        .unwrap_or(suffix.len());
    let rest = &suffix[letters_end..];
    let rest_digits = rest.strip_prefix(['+', '-']).unwrap_or(rest);
    if !rest_digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FORMAT);
    }
    match suffix {
        "" | "n" | "u" | "m" | "k" | "M" | "G" | "T" | "P" | "E" | "Ki" | "Mi" | "Gi" | "Ti"
        | "Pi" | "Ei" => Ok(()),
        e if e.len() > 1 && e.starts_with(['e', 'E']) && e[1..].parse::<i32>().is_ok() => Ok(()),
        _ => Err(SUFFIX),
    }
}

impl Quantity {
    /// The value as (mantissa, power of ten), exact for the suffix forms Kubernetes uses; `None` when unparsable.
    /// Binary suffixes are expanded into the mantissa; values that overflow 128 bits are not comparable.
    #[must_use]
    pub fn parts(&self) -> Option<(i128, i32)> {
        Self::parts_of(&self.0)
    }

    /// [`Quantity::parts`] of a quantity's text.
    #[must_use]
    pub fn parts_of(text: &str) -> Option<(i128, i32)> {
        let s = text.trim();
        if s.is_empty() {
            return Some((0, 0));
        }
        let (sign, s) = match s.as_bytes()[0] {
            b'-' => (-1i128, &s[1..]),
            b'+' => (1, &s[1..]),
            _ => (1, s),
        };
        let num_end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        let (num, suffix) = s.split_at(num_end);
        let (int, frac) = num.split_once('.').unwrap_or((num, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        // The digits of `int` then `frac` as one integer, without building their concatenation (semantic
        // equality, which ratcheting runs on valid objects, must not allocate); a second `.` or an overflow is no
        // quantity.
        let mut mant: i128 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            if !b.is_ascii_digit() {
                return None;
            }
            mant = mant.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
        }
        let mut exp = -i32::try_from(frac.len()).ok()?;
        let bin = |p: u32, m: i128| m.checked_mul(1i128.checked_shl(p)?);
        match suffix {
            "" => {}
            "n" => exp -= 9,
            "u" => exp -= 6,
            "m" => exp -= 3,
            "k" => exp += 3,
            "M" => exp += 6,
            "G" => exp += 9,
            "T" => exp += 12,
            "P" => exp += 15,
            "E" => exp += 18,
            "Ki" => mant = bin(10, mant)?,
            "Mi" => mant = bin(20, mant)?,
            "Gi" => mant = bin(30, mant)?,
            "Ti" => mant = bin(40, mant)?,
            "Pi" => mant = bin(50, mant)?,
            "Ei" => mant = bin(60, mant)?,
            e if e.starts_with(['e', 'E']) => exp += e[1..].parse::<i32>().ok()?,
            _ => return None,
        }
        while mant != 0 && mant % 10 == 0 {
            mant /= 10;
            exp += 1;
        }
        if mant == 0 {
            exp = 0;
        }
        Some((sign * mant, exp))
    }
}

/// Upstream's format of a parsed quantity, from its suffix.
#[derive(Clone, Copy, PartialEq, Eq)]
enum QuantityFormat {
    DecimalSi,
    BinarySi,
    DecimalExponent,
}

impl Quantity {
    fn format(&self) -> QuantityFormat {
        let s = self.0.trim();
        let suffix = s
            .trim_start_matches(['+', '-'])
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if suffix.ends_with('i') {
            QuantityFormat::BinarySi
        } else if suffix.starts_with(['e', 'E']) && suffix.len() > 1 {
            QuantityFormat::DecimalExponent
        } else {
            QuantityFormat::DecimalSi
        }
    }

    /// The canonical string upstream's `Quantity.CanonicalizeBytes` prints (values are first rounded up to 1n and
    /// binary-SI values capped at 2^63-1, as `ParseQuantity` does). An unparsable value is returned as written.
    /// A decimal exponent beyond `E` (10^18) has no suffix and is dropped, as k8s.io/apimachinery v0.37 does; see
    /// [`Quantity::go_string_1_38`] for v0.38.
    #[must_use]
    pub fn canonical(&self) -> String {
        self.canonical_for(false)
    }

    fn canonical_for(&self, v1_38: bool) -> String {
        let Some((mut mant, mut exp)) = self.rounded_parts() else {
            return self.0.clone();
        };
        while mant != 0 && mant % 10 == 0 {
            mant /= 10;
            exp += 1;
        }
        if mant == 0 {
            return "0".into();
        }
        let mut format = self.format();
        if format == QuantityFormat::BinarySi {
            let value = (exp >= 0)
                .then(|| {
                    10i128
                        .checked_pow(u32::try_from(exp).ok()?)?
                        .checked_mul(mant)
                })
                .flatten();
            match value {
                Some(v) if v > -1024 && v < 1024 => format = QuantityFormat::DecimalSi,
                Some(mut v) => {
                    let mut e = 0;
                    while v % 1024 == 0 && e < 6 {
                        v /= 1024;
                        e += 1;
                    }
                    let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][e];
                    return format!("{v}{suffix}");
                }
                None => format = QuantityFormat::DecimalSi,
            }
        }
        while exp % 3 != 0 {
            let Some(m) = mant.checked_mul(10) else {
                return self.0.clone();
            };
            mant = m;
            exp -= 1;
        }
        let suffix = match (format, exp) {
            (_, 0) => String::new(),
            (QuantityFormat::DecimalExponent, e) => format!("e{e}"),
            (_, -9) => "n".into(),
            (_, -6) => "u".into(),
            (_, -3) => "m".into(),
            (_, 3) => "k".into(),
            (_, 6) => "M".into(),
            (_, 9) => "G".into(),
            (_, 12) => "T".into(),
            (_, 15) => "P".into(),
            (_, 18) => "E".into(),
            // v0.38 falls back to exponent notation when there is no decimal SI suffix; v0.37 prints the bare
            // number.
            (_, e) if v1_38 => format!("e{e}"),
            _ => String::new(),
        };
        format!("{mant}{suffix}")
    }
}

impl Quantity {
    /// The value as `ParseQuantity` stores it: [`Quantity::parts`] rounded to nano precision, away from zero.
    fn rounded_parts(&self) -> Option<(i128, i32)> {
        let (mut mant, mut exp) = self.parts()?;
        if exp < -9 {
            let div = 10i128.checked_pow(u32::try_from(-9 - exp).ok()?);
            let q = match div {
                Some(div) if mant % div == 0 => mant / div,
                Some(div) => mant / div + mant.signum(),
                // |mant| < 10^38 < div: rounds to one nano away from zero
                None => mant.signum(),
            };
            mant = q;
            exp = -9;
        }
        // ParseQuantity caps binary-SI values at 2^63-1 in magnitude.
        if self.format() == QuantityFormat::BinarySi {
            let max = i128::from(i64::MAX);
            let scale = 10i128.checked_pow(exp.unsigned_abs());
            let over = if exp >= 0 {
                scale
                    .and_then(|p| p.checked_mul(mant.abs()))
                    .is_none_or(|m| m > max)
            } else {
                // |mant| / 10^-exp > max  ⇔  |mant| > max · 10^-exp (no overflow: then it cannot be larger)
                scale
                    .and_then(|p| p.checked_mul(max))
                    .is_some_and(|bound| mant.abs() > bound)
            };
            if over {
                mant = mant.signum() * i128::from(i64::MAX);
                exp = 0;
            }
        }
        Some((mant, exp))
    }

    /// upstream `Quantity.String()` of the quantity k8s.io/apimachinery v0.38's `ParseQuantity` makes of the text
    /// (what `UnmarshalJSON` keeps): the text itself when `ParseQuantity`'s fast path finds it canonical — an int64
    /// value with no more than 18 digits, at most nano precision, and for decimal forms an exponent that is a
    /// multiple of 3, no leading `0` and no trailing `000` (`+999M`, `048650Gi`, `590300.664e3` are kept as
    /// written); for binary forms a number not divisible by 8 — else the canonical form (with v0.38's exponent
    /// notation beyond `E`). Used for the values and bounds `MinimumQuantity`/`MaximumQuantity` print.
    #[must_use]
    pub fn go_string_1_38(&self) -> String {
        if keeps_text(&self.0) {
            self.0.clone()
        } else {
            self.canonical_for(true)
        }
    }
}

/// `ParseQuantity`'s "if the number is in canonical form, reuse the string": whether the parsed quantity keeps `s`
/// as its text, which `String()` and `MarshalJSON` then print (the same rule in k8s.io/apimachinery v0.37 and v0.38).
fn keeps_text(s: &str) -> bool {
    if s == "0" {
        return true;
    }
    let (positive, rest) = match s.as_bytes().first() {
        Some(b'-') => (false, &s[1..]),
        Some(b'+') => (true, &s[1..]),
        _ => (true, s),
    };
    let rest = rest.trim_start_matches('0');
    let num_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let num = if num_end == 0 { "0" } else { &rest[..num_end] };
    let mut rest = &rest[num_end..];
    let mut denom = "";
    if let Some(r) = rest.strip_prefix('.') {
        let e = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        denom = &r[..e];
        rest = &r[e..];
    }
    let (binary, exponent): (bool, i64) = match rest {
        "" => (false, 0),
        "n" => (false, -9),
        "u" => (false, -6),
        "m" => (false, -3),
        "k" => (false, 3),
        "M" => (false, 6),
        "G" => (false, 9),
        "T" => (false, 12),
        "P" => (false, 15),
        "E" => (false, 18),
        "Ki" => (true, 10),
        "Mi" => (true, 20),
        "Gi" => (true, 30),
        "Ti" => (true, 40),
        "Pi" => (true, 50),
        "Ei" => (true, 60),
        e if e.len() > 1 && e.starts_with(['e', 'E']) => match e[1..].parse::<i64>() {
            Ok(x) => (false, x),
            Err(_) => return false,
        },
        _ => return false,
    };
    let digits = i64::try_from(num.len() + denom.len()).unwrap_or(i64::MAX);
    let (precision, mut scale, mantissa, force) = if binary {
        if !denom.is_empty() {
            return false;
        }
        // float32(exponent)*3/10, truncated
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        let p = 15 - digits - ((exponent as f32) * 3.0 / 10.0) as i64 - 1;
        (p, 0i64, 1i64 << exponent, false)
    } else {
        let p = 18 - digits;
        (p, exponent, 1, p <= 0)
    };
    if precision < 0 || force {
        return false;
    }
    scale -= i64::try_from(denom.len()).unwrap_or(i64::MAX);
    if scale < -9 {
        return false;
    }
    let shifted = format!("{num}{denom}");
    let Ok(uvalue) = shifted.parse::<u64>() else {
        return false;
    };
    let value: i64 = match i64::try_from(uvalue) {
        Ok(v) => v,
        Err(_) if !positive && uvalue == 1 << 63 => i64::MIN,
        Err(_) => return false,
    };
    if value.checked_mul(mantissa).is_none() {
        return false;
    }
    if binary {
        exponent % 10 == 0 && value & 7 != 0
    } else {
        scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0')
    }
}

impl Quantity {
    /// Numeric comparison, as upstream's `Quantity.Cmp` after parsing (values rounded to nano precision); exact for
    /// any exponent. `None` when either side does not parse.
    #[must_use]
    pub fn cmp_value(&self, other: &Quantity) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering;
        let (a, ea) = self.rounded_parts()?;
        let (b, eb) = other.rounded_parts()?;
        let sign = a.signum().cmp(&b.signum());
        if sign != Ordering::Equal || a == 0 {
            return Some(sign);
        }
        // Same sign, both non-zero: compare magnitudes as digit strings with their decimal exponents.
        let (da, db) = (a.unsigned_abs().to_string(), b.unsigned_abs().to_string());
        let ma = i64::try_from(da.len()).ok()? + i64::from(ea);
        let mb = i64::try_from(db.len()).ok()? + i64::from(eb);
        let magnitude = ma.cmp(&mb).then_with(|| {
            let n = da.len().max(db.len());
            format!("{da:0<n$}").cmp(&format!("{db:0<n$}"))
        });
        Some(if a > 0 {
            magnitude
        } else {
            magnitude.reverse()
        })
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        Self::semantic_eq(&self.0, &other.0)
    }
}

impl Quantity {
    /// Upstream's semantic equality of two quantities given as text (`resource.Quantity.Cmp(…) == 0`, as
    /// `equality.Semantic` compares them; deviation D7 beyond 128 bits): equal values (`"1"`, `"1.0"`, `"1000m"`),
    /// else equal texts. The k8s-openapi target compares `k8s_openapi` quantities with it.
    #[must_use]
    pub fn semantic_eq(a: &str, b: &str) -> bool {
        match (Self::parts_of(a), Self::parts_of(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        }
    }
}

/// Go's `time.Parse` of `layout` `time.RFC3339` (`micro` false; `metav1.Time`'s `UnmarshalJSON`) or metav1's
/// `RFC3339Micro` (`2006-01-02T15:04:05.000000Z07:00`, `micro` true; `metav1.MicroTime`'s), as (seconds since the
/// Unix epoch, nanoseconds) of the instant, UTC; `None` where Go returns an error ([`parse_go_time_error`] says
/// which). A port of Go's general `parse` for these two layouts (`time/format.go`; its `RFC3339` fast path accepts
/// a subset with the same results), so the quirks are Go's: a one-digit hour (`T1:04:05`), a `,` before the
/// fraction, any number of fraction digits (beyond nine ignored) without `micro` and exactly six with it (where a
/// sign is also taken: `.+12345`), offsets up to `+24:60`, `Z` but not `z` or `t`; the day is checked against its
/// month and year. Verified against Go by the runtime differential's `timeJSON` calls.
#[must_use]
pub fn parse_go_time(s: &str, micro: bool) -> Option<(i64, u32)> {
    parse_go_time_error(s, micro).ok()
}

/// [`parse_go_time`] with Go's error text when the text is refused: `parsing time "<text>" as "<layout>": cannot
/// parse "<rest>" as "<element>"`, or `parsing time "<text>": month out of range` (also day, hour, minute, second,
/// time zone offset hour and minute, fractional second) and `…: extra text: "<rest>"`, as `time.ParseError` prints
/// them (quoting aside: Rust's `{:?}`).
///
/// # Errors
/// The message above.
pub fn parse_go_time_error(s: &str, micro: bool) -> Result<(i64, u32), String> {
    let layout = if micro {
        "2006-01-02T15:04:05.000000Z07:00"
    } else {
        "2006-01-02T15:04:05Z07:00"
    };
    let b = s.as_bytes();
    let rest = |i: usize| s.get(i..).unwrap_or("");
    let cannot = |i: usize, elem: &str| {
        format!(
            "parsing time {s:?} as {layout:?}: cannot parse {:?} as {elem:?}",
            rest(i)
        )
    };
    let range = |what: &str| format!("parsing time {s:?}: {what} out of range");
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let two = |i: usize| -> Option<i64> {
        (digit(i) && digit(i + 1)).then(|| i64::from(b[i] - b'0') * 10 + i64::from(b[i + 1] - b'0'))
    };
    let lit = |i: &mut usize, c: u8| -> Result<(), String> {
        if b.get(*i) == Some(&c) {
            *i += 1;
            Ok(())
        } else {
            Err(cannot(*i, &char::from(c).to_string()))
        }
    };
    // stdLongYear: four bytes, the first a digit, all digits (Go's `atoi`).
    if b.len() < 4 || !(0..4).all(digit) {
        return Err(cannot(0, "2006"));
    }
    let year: i64 = s[..4].parse().map_err(|_| cannot(0, "2006"))?;
    let mut i = 4;
    lit(&mut i, b'-')?;
    let month = two(i).ok_or_else(|| cannot(i, "01"))?;
    if !(1..=12).contains(&month) {
        return Err(range("month"));
    }
    i += 2;
    lit(&mut i, b'-')?;
    let day = two(i).ok_or_else(|| cannot(i, "02"))?;
    i += 2;
    lit(&mut i, b'T')?;
    // stdHour: one or two digits.
    let hour = if digit(i + 1) {
        two(i).ok_or_else(|| cannot(i, "15"))?
    } else if digit(i) {
        i64::from(b[i] - b'0')
    } else {
        return Err(cannot(i, "15"));
    };
    if hour >= 24 {
        return Err(range("hour"));
    }
    i += if digit(i + 1) { 2 } else { 1 };
    lit(&mut i, b':')?;
    let minute = two(i).ok_or_else(|| cannot(i, "04"))?;
    if minute >= 60 {
        return Err(range("minute"));
    }
    i += 2;
    lit(&mut i, b':')?;
    let second = two(i).ok_or_else(|| cannot(i, "05"))?;
    if second >= 60 {
        return Err(range("second"));
    }
    i += 2;
    let frac_sep = |i: usize| matches!(b.get(i), Some(b'.' | b','));
    let mut nanos: i64 = 0;
    if micro {
        // stdFracSecond0 with six digits: a separator and six bytes Go's `atoi` reads (a sign included).
        let f = s.get(i + 1..i + 7).filter(|_| frac_sep(i));
        let Some(f) = f else {
            return Err(cannot(i, ".000000"));
        };
        let (neg, digits) = match f.as_bytes()[0] {
            b'-' => (true, &f[1..]),
            b'+' => (false, &f[1..]),
            _ => (false, f),
        };
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(cannot(i, ".000000"));
        }
        let v: i64 = digits.parse().map_err(|_| cannot(i, ".000000"))?;
        if neg && v != 0 {
            return Err(range("fractional second"));
        }
        nanos = v * 1000;
        i += 7;
    } else if frac_sep(i) && digit(i + 1) {
        // A fraction the layout does not name: every digit, the first nine significant.
        let mut n = i + 1;
        while digit(n) {
            n += 1;
        }
        let take = (n - i - 1).min(9);
        let v: i64 = s[i + 1..i + 1 + take]
            .parse()
            .map_err(|_| cannot(i, "05"))?;
        nanos = v * 10_i64.pow(u32::try_from(9 - take).unwrap_or(0));
        i = n;
    }
    // stdISO8601ColonTZ: `Z`, or a sign, two digits, `:`, two digits.
    let offset = if b.get(i) == Some(&b'Z') {
        i += 1;
        0
    } else {
        if b.len() < i + 6 || b[i + 3] != b':' {
            return Err(cannot(i, "Z07:00"));
        }
        // Go reads the minutes only after good hours; its range tests run before the parse error is looked at,
        // on whatever was read (0 otherwise), the minute's message winning.
        let h = two(i + 1);
        let m = h.and(two(i + 4));
        if m.unwrap_or(0) > 60 {
            return Err(range("time zone offset minute"));
        }
        if h.unwrap_or(0) > 24 {
            return Err(range("time zone offset hour"));
        }
        let (Some(h), Some(m)) = (h, m) else {
            return Err(cannot(i, "Z07:00"));
        };
        let v = (h * 60 + m) * 60;
        let sign = b[i];
        let at = i;
        i += 6;
        match sign {
            b'+' => v,
            b'-' => -v,
            _ => return Err(cannot(at, "Z07:00")),
        }
    };
    if i != b.len() {
        return Err(format!("parsing time {s:?}: extra text: {:?}", rest(i)));
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day < 1 || day > days_in {
        return Err(range("day"));
    }
    // days from civil (Howard Hinnant)
    let y2 = if month <= 2 { year - 1 } else { year };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Ok((
        days * 86_400 + hour * 3600 + minute * 60 + second - offset,
        u32::try_from(nanos).map_err(|_| range("fractional second"))?,
    ))
}

/// Go's zero `time.Time` (`0001-01-01T00:00:00Z`) in seconds since the Unix epoch.
const GO_ZERO_TIME_SECS: i64 = -62_135_596_800;

/// `(seconds since the epoch, nanoseconds)` as Go's `t.UTC().Format(layout)` for RFC 3339 with `frac` fractional
/// digits (0 for `time.RFC3339`, 6 for metav1's micro layout); `None` for the zero time (`0001-01-01T00:00:00Z`),
/// which upstream's `MarshalJSON` prints as `null`.
fn format_rfc3339(secs: i64, nanos: u32, frac: usize) -> Option<String> {
    if secs == GO_ZERO_TIME_SECS && nanos == 0 {
        return None;
    }
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // civil from days (Howard Hinnant)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    // Go's AppendFormat: a negative year is `-` and four digits.
    let year = if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("{y:04}")
    };
    let mut out = format!(
        "{year}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    if frac > 0 {
        let digits = format!("{nanos:09}");
        out.push('.');
        out.push_str(&digits[..frac.min(9)]);
    }
    out.push('Z');
    Some(out)
}

macro_rules! time_type {
    ($name:ident, $frac:literal, $micro:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Default)]
        pub struct $name(pub Option<String>);

        /// `null` is unset; a string must be a time Go's `time.Parse` accepts with the type's layout
        /// ([`parse_go_time`]), as upstream's `UnmarshalJSON` requires; anything else is an error.
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v: Option<String> = Deserialize::deserialize(d)?;
                if let Some(t) = &v
                    && let Err(e) = parse_go_time_error(t, $micro)
                {
                    return Err(serde::de::Error::custom(e));
                }
                Ok(Self(v))
            }
        }

        impl $name {
            /// The instant as (seconds since the Unix epoch, nanoseconds): Go's zero time for `null`; `None` for a
            /// text Go's decoding refuses (only constructible directly, not by decoding).
            #[must_use]
            pub fn unix(&self) -> Option<(i64, u32)> {
                match self.0.as_deref() {
                    None => Some((GO_ZERO_TIME_SECS, 0)),
                    Some(v) => parse_go_time(v, $micro),
                }
            }

            /// Go's `IsZero` of the decoded value: true for `null` (unset) and for the instant of Go's zero time
            /// (`0001-01-01T00:00:00Z`, in any offset). A text that does not parse (which upstream's decoding
            /// refuses) is not zero.
            #[must_use]
            pub fn is_zero(&self) -> bool {
                match self.0.as_deref() {
                    None => true,
                    Some(v) => parse_go_time(v, $micro) == Some((GO_ZERO_TIME_SECS, 0)),
                }
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                match (
                    self.0.as_deref().and_then(|v| parse_go_time(v, $micro)),
                    other.0.as_deref().and_then(|v| parse_go_time(v, $micro)),
                ) {
                    (Some(a), Some(b)) => a == b,
                    _ => self.0 == other.0,
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self.0.as_deref() {
                    None => s.serialize_none(),
                    Some(v) => match parse_go_time(v, $micro) {
                        Some((secs, nanos)) => match format_rfc3339(secs, nanos, $frac) {
                            Some(t) => s.serialize_str(&t),
                            None => s.serialize_none(),
                        },
                        None => s.serialize_str(v),
                    },
                }
            }
        }
    };
}

time_type!(
    Time,
    0,
    false,
    "`metav1.Time`: RFC 3339 string or null (decoding refuses what Go's `time.Parse(time.RFC3339, …)` refuses); equal when the UTC instants are equal. Serializes as upstream's \
     `MarshalJSON`: UTC, whole seconds, `null` for the zero time."
);
time_type!(
    MicroTime,
    6,
    true,
    "`metav1.MicroTime`: RFC 3339 string with microseconds or null (decoding refuses what Go's \
     `time.Parse(metav1.RFC3339Micro, …)` refuses); equal by UTC instant. Serializes as \
     upstream's `MarshalJSON`: UTC with six fractional digits, `null` for the zero time."
);

/// `metav1.Duration`: a Go duration string such as `"1h2m3s"`; equal when the durations are equal (upstream
/// compares the `time.Duration` values, so `"1h"` equals `"60m"`). Serializes as Go's `Duration.String()`
/// (`"1h0m0s"`, `"1.5ms"`, unset → `"0s"`).
#[derive(Debug, Clone, Default)]
pub struct Duration(pub String);

/// Decodes as `metav1.Duration.UnmarshalJSON`: a JSON string that Go's `time.ParseDuration` accepts; otherwise Go's
/// error (`time: invalid duration "…"`, `time: unknown unit "d" in duration "1d"`, `time: missing unit in duration
/// "5"`).
impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let dur = Duration(String::deserialize(d)?);
        match dur.parse() {
            Ok(_) => Ok(dur),
            Err(msg) => Err(serde::de::Error::custom(msg)),
        }
    }
}

impl Duration {
    /// The duration in nanoseconds as Go's `time.ParseDuration` reads it, or Go's error text (`time: invalid
    /// duration "…"`, `time: unknown unit "d" in duration "1d"`, `time: missing unit in duration "5"`). Used by
    /// decoding and by `+k8s:minimum="1s"` payloads (upstream 1.38 `parseNumericLimit`).
    ///
    /// # Errors
    /// Go's error text when the string is not a duration.
    pub fn parse(&self) -> Result<i128, String> {
        if let Some(n) = self.nanos() {
            return Ok(n);
        }
        let s = &self.0;
        let digits_end = s
            .trim_start_matches(['+', '-'])
            .find(|c: char| !(c.is_ascii_digit() || c == '.'));
        let msg = match digits_end {
            None if s.bytes().any(|b| b.is_ascii_digit()) => {
                format!("time: missing unit in duration {s:?}")
            }
            Some(i) if i > 0 => {
                let rest = &s.trim_start_matches(['+', '-'])[i..];
                let unit: String = rest
                    .chars()
                    .take_while(|c| !(c.is_ascii_digit() || *c == '.'))
                    .collect();
                if ["ns", "us", "µs", "μs", "ms", "s", "m", "h"].contains(&unit.as_str()) {
                    format!("time: invalid duration {s:?}")
                } else {
                    format!("time: unknown unit {unit:?} in duration {s:?}")
                }
            }
            _ => format!("time: invalid duration {s:?}"),
        };
        Err(msg)
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.nanos() {
            Some(n) => s.serialize_str(&go_duration_string(n)),
            None if self.0.is_empty() => s.serialize_str("0s"),
            None => s.serialize_str(&self.0),
        }
    }
}

/// Go's `time.Duration.String()` for a duration in nanoseconds (`1h0m0s`, `1.5ms`, `0s`).
#[must_use]
pub fn go_duration_string(d: i128) -> String {
    fn frac(v: u128, digits: usize) -> String {
        let f = format!("{v:0digits$}");
        let f = f.trim_end_matches('0');
        if f.is_empty() {
            String::new()
        } else {
            format!(".{f}")
        }
    }
    if d == 0 {
        return "0s".into();
    }
    let sign = if d < 0 { "-" } else { "" };
    let u = d.unsigned_abs();
    let body = if u < 1_000 {
        format!("{u}ns")
    } else if u < 1_000_000 {
        format!("{}{}\u{b5}s", u / 1_000, frac(u % 1_000, 3))
    } else if u < 1_000_000_000 {
        format!("{}{}ms", u / 1_000_000, frac(u % 1_000_000, 6))
    } else {
        let h = u / 3_600_000_000_000;
        let m = u % 3_600_000_000_000 / 60_000_000_000;
        let ns = u % 60_000_000_000;
        let secs = format!("{}{}s", ns / 1_000_000_000, frac(ns % 1_000_000_000, 9));
        if h > 0 {
            format!("{h}h{m}m{secs}")
        } else if m > 0 {
            format!("{m}m{secs}")
        } else {
            secs
        }
    };
    format!("{sign}{body}")
}

impl Duration {
    /// The duration in nanoseconds, parsed as Go's `time.ParseDuration` does; `None` when it does not parse.
    #[must_use]
    pub fn nanos(&self) -> Option<i128> {
        let s = self.0.as_str();
        let (neg, mut rest) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        if rest == "0" {
            return Some(0);
        }
        if rest.is_empty() {
            return None;
        }
        let mut total: i128 = 0;
        while !rest.is_empty() {
            let int_end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (int, tail) = rest.split_at(int_end);
            let (frac, tail) = match tail.strip_prefix('.') {
                Some(t) => {
                    let e = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
                    t.split_at(e)
                }
                None => ("", tail),
            };
            if int.is_empty() && frac.is_empty() {
                return None;
            }
            let unit_end = tail
                .find(|c: char| c.is_ascii_digit() || c == '.')
                .unwrap_or(tail.len());
            let (unit, next) = tail.split_at(unit_end);
            let scale: i128 = match unit {
                "ns" => 1,
                "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
                "ms" => 1_000_000,
                "s" => 1_000_000_000,
                "m" => 60_000_000_000,
                "h" => 3_600_000_000_000,
                _ => return None,
            };
            let whole: i128 = if int.is_empty() { 0 } else { int.parse().ok()? };
            let mut part = whole.checked_mul(scale)?;
            if !frac.is_empty() {
                let digits: i128 = frac.get(..frac.len().min(18))?.parse().ok()?;
                let denom = 10i128.checked_pow(u32::try_from(frac.len().min(18)).ok()?)?;
                part = part.checked_add(digits.checked_mul(scale)? / denom)?;
            }
            total = total.checked_add(part)?;
            rest = next;
        }
        Some(if neg { -total } else { total })
    }
}

impl PartialEq for Duration {
    fn eq(&self, other: &Self) -> bool {
        match (self.nanos(), other.nanos()) {
            (Some(a), Some(b)) => a == b,
            _ => self.0 == other.0,
        }
    }
}

/// `intstr.IntOrString`: a JSON number or string. Decodes as upstream's `IntOrString.UnmarshalJSON`: a string, or
/// an integer that fits `int32` (a fraction, an out-of-range number or any other JSON type is an error naming what
/// was expected, as Go's `cannot unmarshal … of type int32` does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// An integer.
    Int(i32),
    /// A string.
    String(String),
}

impl Default for IntOrString {
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = IntOrString;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an integer (int32) or a string (intstr.IntOrString)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// `runtime.RawExtension`: arbitrary embedded JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawExtension(pub serde_json::Value);

/// `metav1.FieldsV1`: arbitrary JSON (managed fields).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FieldsV1(pub serde_json::Value);

/// Go `[]byte`: base64 in JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    /// Decodes Go's JSON form of `[]byte`: standard base64 with `=` padding (`encoding/json` uses
    /// `base64.StdEncoding`).
    ///
    /// # Errors
    /// A sentence for decode reports saying what is wrong with the text: a character outside the base64 alphabet
    /// (with its byte offset), a length or padding that is not base64's (a multiple of 4 characters, padded with
    /// `=`), or a last character that encodes bits past the data.
    pub fn from_base64(text: &str) -> Result<Self, String> {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map(Bytes)
            .map_err(|e| match e {
                base64::DecodeError::InvalidByte(at, b'=') => {
                    format!("not base64 (Go []byte): padding '=' at byte {at} before the end")
                }
                base64::DecodeError::InvalidByte(at, b) => format!(
                    "not base64 (Go []byte): {:?} at byte {at} is not a base64 character",
                    char::from(b)
                ),
                base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidPadding => {
                    "not base64 (Go []byte): the text must be a multiple of 4 characters, padded with '='"
                        .to_string()
                }
                base64::DecodeError::InvalidLastSymbol(at, b) => format!(
                    "not base64 (Go []byte): the last character {:?} (byte {at}) encodes bits past the data",
                    char::from(b)
                ),
            })
    }

    /// The number of bytes (Go `len`).
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no bytes (nil or empty in Go).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use base64::Engine;
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Option::<String>::deserialize(d)?.unwrap_or_default();
        Bytes::from_base64(&s).map_err(serde::de::Error::custom)
    }
}

/// Deserializes an inline-embedded pointer (Go `*T` embedded without a JSON name; `#[serde(flatten)]` field of
/// type `Option<T>`) as Go's `encoding/json` does: `Some` when at least one of `keys` — the JSON names `T` decodes,
/// computed by vgc from the Go types — is present in the enclosing object, whatever its value (`null` included:
/// Go allocates the pointer while walking to the field, before looking at the value), `None` otherwise. A plain
/// `#[serde(flatten)] Option<T>` would be `Some` whenever `T` can decode from nothing (R9).
///
/// `d` is serde's flattened view of the enclosing object's entries not claimed by its named fields.
///
/// # Errors
/// Whatever decoding `T` from those entries returns (for instance a wrong JSON type in one of `T`'s fields).
pub fn embedded_pointer<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
    keys: &[&str],
) -> Result<Option<T>, D::Error> {
    let map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
    if !keys.iter().any(|k| map.contains_key(*k)) {
        return Ok(None);
    }
    T::deserialize(serde_json::Value::Object(map))
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// Deserializes JSON `null` as the type's default, as Go's `encoding/json` leaves a non-pointer field at its
/// zero value on `null`.
///
/// # Errors
/// Whatever the inner type's deserializer returns.
pub fn null_as_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(
    d: D,
) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// serde `deserialize_with` for a list field: `null` is the empty list, as [`null_as_default`], and a `null`
/// item is the item type's zero value, as Go's `encoding/json` decodes `[null]` into a `[]string` (R30; a nil
/// pointer for `[]*T`, whose Rust item type is an `Option`).
///
/// # Errors
/// The deserializer's errors for anything but a list of items or `null`s, or `null`.
pub fn null_items_as_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<Option<T>>>::deserialize(d)?
        .unwrap_or_default()
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect())
}

/// serde `deserialize_with` for a map field: `null` is the empty map, and a `null` value is the value type's zero
/// value, as Go's `encoding/json` decodes `{"a": null}` into a `map[string]string` (R30).
///
/// # Errors
/// The deserializer's errors for anything but a map of values or `null`s, or `null`.
pub fn null_values_as_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(
    d: D,
) -> Result<std::collections::BTreeMap<String, T>, D::Error> {
    Ok(
        Option::<std::collections::BTreeMap<String, Option<T>>>::deserialize(d)?
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, v.unwrap_or_default()))
            .collect(),
    )
}

/// serde `deserialize_with` for a map field whose values are lists (`map[string][]string`, `map[string]ExtraValue`
/// with `type ExtraValue []string`): `null` is the empty map, a `null` value the empty list and a `null` item the
/// item type's zero value, as Go's `encoding/json` decodes `{"a": ["x", null], "b": null}` (R30, one level deeper).
///
/// # Errors
/// The deserializer's errors for anything but a map of lists (of items or `null`s) or `null`s, or `null`.
pub fn null_values_items_as_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(
    d: D,
) -> Result<std::collections::BTreeMap<String, Vec<T>>, D::Error> {
    Ok(
        Option::<std::collections::BTreeMap<String, Option<Vec<Option<T>>>>>::deserialize(d)?
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| {
                (
                    k,
                    v.unwrap_or_default()
                        .into_iter()
                        .map(Option::unwrap_or_default)
                        .collect(),
                )
            })
            .collect(),
    )
}

/// A list or map value, for [`empty_as_null`].
pub trait Collection {
    /// True when it has no elements.
    fn is_empty_collection(&self) -> bool;
}

impl<T> Collection for Vec<T> {
    fn is_empty_collection(&self) -> bool {
        self.is_empty()
    }
}

impl<K, V> Collection for std::collections::BTreeMap<K, V> {
    fn is_empty_collection(&self) -> bool {
        self.is_empty()
    }
}

/// serde `serialize_with` for list and map fields without `omitempty`: an empty value prints `null`, as Go's
/// `encoding/json` prints the nil slice or map an absent field decodes to. (vgc does not keep a nil slice apart
/// from an explicit `[]`; Go prints the latter as `[]` — `docs/deviations.md` D11.)
///
/// # Errors
/// Whatever the serializer returns.
pub fn empty_as_null<T: Collection + Serialize, S: Serializer>(
    v: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    if v.is_empty_collection() {
        s.serialize_none()
    } else {
        v.serialize(s)
    }
}

/// Go `omitempty`: true for the zero value (false, 0, "", an empty list or map).
#[must_use]
pub fn is_zero<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R30: `null` items and map values decode as Go's zero values; a `null` field is still the empty collection.
    #[test]
    fn r30_null_items_and_values_are_zero_values() {
        #[derive(Debug, Deserialize, PartialEq)]
        struct S {
            #[serde(default, deserialize_with = "null_items_as_default")]
            hosts: Vec<String>,
            #[serde(default, deserialize_with = "null_items_as_default")]
            ptrs: Vec<Option<i32>>,
            #[serde(default, deserialize_with = "null_values_as_default")]
            annotations: std::collections::BTreeMap<String, String>,
        }
        let s: S = serde_json::from_str(
            r#"{"hosts":["a",null],"ptrs":[null,1],"annotations":{"a":null,"b":"x"}}"#,
        )
        .expect("decodes");
        assert_eq!(s.hosts, ["a", ""]);
        assert_eq!(s.ptrs, [None, Some(1)]);
        assert_eq!(
            s.annotations.into_iter().collect::<Vec<_>>(),
            [
                ("a".to_string(), String::new()),
                ("b".to_string(), "x".to_string())
            ]
        );
        let n: S = serde_json::from_str(r#"{"hosts":null,"ptrs":null,"annotations":null}"#)
            .expect("decodes");
        assert!(n.hosts.is_empty() && n.ptrs.is_empty() && n.annotations.is_empty());
        // A map of lists: `null` values and `null` items inside them (`SubjectAccessReviewSpec.extra`).
        #[derive(Debug, Deserialize, PartialEq)]
        struct M {
            #[serde(default, deserialize_with = "null_values_items_as_default")]
            extra: std::collections::BTreeMap<String, Vec<String>>,
        }
        let m: M = serde_json::from_str(r#"{"extra":{"a":["x",null],"b":null}}"#).expect("decodes");
        assert_eq!(
            m.extra.into_iter().collect::<Vec<_>>(),
            [
                ("a".to_string(), vec!["x".to_string(), String::new()]),
                ("b".to_string(), Vec::new())
            ]
        );
    }
    #[test]
    fn semantic_equality() {
        assert_eq!(Quantity("1Gi".into()), Quantity("1024Mi".into()));
        assert_eq!(Quantity("1000m".into()), Quantity("1".into()));
        assert_eq!(Quantity("0".into()), Quantity(String::new()));
        assert_ne!(Quantity("1G".into()), Quantity("1Gi".into()));
        // The same comparison on texts (the k8s-openapi target's quantities).
        assert!(Quantity::semantic_eq("1Gi", "1024Mi"));
        assert!(Quantity::semantic_eq("0", ""));
        assert!(!Quantity::semantic_eq("1G", "1Gi"));
        assert!(Quantity::semantic_eq("junk", "junk") && !Quantity::semantic_eq("junk", "junk2"));
    }

    #[test]
    fn times_decode_where_go_time_parse_accepts_them() {
        let t = |s: &str| parse_go_time(s, false);
        let m = |s: &str| parse_go_time(s, true);
        assert_eq!(t("1970-01-01T00:00:00Z"), Some((0, 0)));
        // Go's quirks (time/format.go `parse`): a one-digit hour, `,` before any number of fraction digits,
        // offsets up to 24:60.
        assert_eq!(t("1970-01-01T1:00:00,5Z"), Some((3600, 500_000_000)));
        assert_eq!(
            t("1970-01-02T00:00:00.1234567891234+24:60"),
            Some((-3600, 123_456_789))
        );
        assert_eq!(t("0000-01-01T00:00:00Z"), Some((-62_167_219_200, 0)));
        for bad in [
            "",
            "1970-01-01t00:00:00Z",
            "1970-01-01T00:00:00z",
            "1970-01-01T24:00:00Z",
            "1970-01-01T00:60:00Z",
            "1970-01-01T00:00:60Z",
            "2023-02-29T00:00:00Z",
            "1970-13-01T00:00:00Z",
            "1970-01-01T00:00:00+25:00",
            "1970-01-01T00:00:00+01:61",
            "1970-01-01T00:00:00",
            "1970-01-01T00:00:00Z ",
            "1970-01-01T00:00:00.Z",
            "+970-01-01T00:00:00Z",
        ] {
            assert_eq!(t(bad), None, "{bad:?}");
        }
        // metav1's RFC3339Micro: exactly six fraction digits, which Go's `atoi` reads with a sign.
        assert_eq!(m("1970-01-01T00:00:00.000001Z"), Some((0, 1000)));
        assert_eq!(m("1970-01-01T00:00:00,+12345Z"), Some((0, 12_345_000)));
        assert_eq!(m("1970-01-01T00:00:00.-00000Z"), Some((0, 0)));
        for bad in [
            "1970-01-01T00:00:00Z",
            "1970-01-01T00:00:00.00001Z",
            "1970-01-01T00:00:00.0000001Z",
            "1970-01-01T00:00:00.-00001Z",
        ] {
            assert_eq!(m(bad), None, "{bad:?}");
        }
        // Decoding refuses what Go refuses; `null` is unset.
        assert!(serde_json::from_str::<Time>("\"yesterday\"").is_err());
        assert!(serde_json::from_str::<Time>("null").is_ok_and(|t| t.is_zero()));
        assert!(serde_json::from_str::<MicroTime>("\"1970-01-01T00:00:00Z\"").is_err());
        // Quantities and durations decode only as upstream's parsers accept them.
        for ok in [
            "1", "1.5", "-1500m", "2Gi", "1e3", "1E-3", ".5", "+7k", " 3 ",
        ] {
            assert!(
                serde_json::from_str::<Quantity>(&format!("{ok:?}")).is_ok(),
                "{ok}"
            );
        }
        let err = |j: &str| serde_json::from_str::<Quantity>(j).unwrap_err().to_string();
        assert!(
            err("\"lots\"").starts_with("quantities must match the regular expression"),
            "{}",
            err("\"lots\"")
        );
        assert!(err("\"1.5.5\"").starts_with("quantities must match"));
        assert!(err("\"1kk\"").starts_with("unable to parse quantity's suffix"));
        assert!(err("\"\"").starts_with("quantities must match"));
        assert!(serde_json::from_str::<Quantity>("null").is_ok());
        assert_eq!(
            serde_json::from_str::<Quantity>("1e3").expect("a number").0,
            "1000"
        );
        assert_eq!(
            serde_json::from_str::<Quantity>("1.5").expect("a number").0,
            "1.5"
        );
        let derr = |j: &str| serde_json::from_str::<Duration>(j).unwrap_err().to_string();
        assert!(
            derr("\"1d\"").starts_with("time: unknown unit \"d\" in duration \"1d\""),
            "{}",
            derr("\"1d\"")
        );
        assert!(
            derr("\"5 minutes\"").starts_with("time: unknown unit \" minutes\" in duration"),
            "{}",
            derr("\"5 minutes\"")
        );
        assert!(derr("\"5\"").starts_with("time: missing unit in duration \"5\""));
        assert!(derr("\"abc\"").starts_with("time: invalid duration \"abc\""));
        assert!(serde_json::from_str::<Duration>("\"1h30m\"").is_ok());
    }

    #[test]
    fn time_and_duration_serialize_like_upstream() {
        let j = |v: &dyn erased::Ser| v.json();
        assert_eq!(j(&Time(None)), "null");
        assert_eq!(
            j(&Time(Some("2024-01-01T00:00:00Z".into()))),
            "\"2024-01-01T00:00:00Z\""
        );
        assert_eq!(
            j(&Time(Some("2024-01-01T02:00:00.5+02:00".into()))),
            "\"2024-01-01T00:00:00Z\""
        );
        assert_eq!(j(&Time(Some("0001-01-01T00:00:00Z".into()))), "null");
        assert_eq!(
            j(&Time(Some("1999-12-31T23:59:59Z".into()))),
            "\"1999-12-31T23:59:59Z\""
        );
        assert_eq!(
            j(&Time(Some("2024-02-29T12:00:00Z".into()))),
            "\"2024-02-29T12:00:00Z\""
        );
        assert_eq!(
            j(&MicroTime(Some("2024-01-01T02:00:00.123456+02:00".into()))),
            "\"2024-01-01T00:00:00.123456Z\""
        );
        assert_eq!(j(&Duration(String::new())), "\"0s\"");
        assert_eq!(j(&Duration("60m".into())), "\"1h0m0s\"");
        assert_eq!(j(&Duration("90s".into())), "\"1m30s\"");
        assert_eq!(j(&Duration("1.5s".into())), "\"1.5s\"");
        assert_eq!(j(&Duration("1500us".into())), "\"1.5ms\"");
        assert_eq!(j(&Duration("-2us".into())), "\"-2\u{b5}s\"");
        assert_eq!(j(&Duration("999ns".into())), "\"999ns\"");
    }

    mod erased {
        pub(super) trait Ser {
            fn json(&self) -> String;
        }
        impl<T: serde::Serialize> Ser for T {
            fn json(&self) -> String {
                serde_json::to_string(self).unwrap_or_default()
            }
        }
    }

    /// `Quantity.String()` after apimachinery v0.38's `ParseQuantity`, as upstream printed these in the runtime
    /// differential (`tests/tests/runtime_differential.rs`, seed 1), and `Cmp`.
    #[test]
    fn quantity_go_string_and_comparison_1_38() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let g = |s: &str| Quantity(s.into()).go_string_1_38();
        // Kept as written: ParseQuantity's fast path found them canonical.
        for kept in [
            "0",
            "+999M",
            "048650Gi",
            "590300.664e3",
            "+5466Gi",
            "-60241T",
            "1023u",
            "+374e-3",
        ] {
            assert_eq!(g(kept), kept);
        }
        // Recanonicalized.
        assert_eq!(g("1023.7308918Mi"), "1073459643600076800n");
        assert_eq!(g("1025.628Ki"), "1050243072m");
        assert_eq!(g("+2.44Ki"), "2498560m");
        assert_eq!(g("+1025.3Ti"), "1127329271958732800m");
        assert_eq!(g("+1025.23443157n"), "1026n");
        assert_eq!(g("6.4965307Pi"), "7314443309930246884556800n");
        assert_eq!(g("1024Ki"), "1Mi");
        // Binary-SI values are capped at 2^63-1 when parsed.
        assert_eq!(g("8Ei"), "9223372036854775807");
        let c = |a: &str, b: &str| Quantity(a.into()).cmp_value(&Quantity(b.into()));
        assert_eq!(c("1Gi", "1024Mi"), Some(Equal));
        assert_eq!(c("1.5", "2"), Some(Less));
        assert_eq!(c("-1", "0"), Some(Less));
        assert_eq!(c("-2k", "-1500"), Some(Less));
        assert_eq!(c("1e30", "1E"), Some(Greater));
        assert_eq!(c("8Ei", "9223372036854775807"), Some(Equal));
        assert_eq!(c("0.5n", "1n"), Some(Equal));
        assert_eq!(c("junk", "1"), None);
    }

    #[test]
    fn quantity_canonical_form_is_upstreams() {
        let c = |s: &str| Quantity(s.into()).canonical();
        assert_eq!(c(""), "0");
        assert_eq!(c("0"), "0");
        assert_eq!(c("0Gi"), "0");
        assert_eq!(c("1"), "1");
        assert_eq!(c("1000"), "1k");
        assert_eq!(c("1.5"), "1500m");
        assert_eq!(c("100m"), "100m");
        assert_eq!(c("-1"), "-1");
        assert_eq!(c("2Gi"), "2Gi");
        assert_eq!(c("2048Ki"), "2Mi");
        assert_eq!(c("1.5Gi"), "1536Mi");
        assert_eq!(c("1000Ki"), "1000Ki");
        assert_eq!(c("512Ki"), "512Ki");
        assert_eq!(c("1Ki"), "1Ki");
        assert_eq!(c("0.5Ki"), "512");
        assert_eq!(c("1e3"), "1e3");
        assert_eq!(c("1.5e3"), "1500");
        assert_eq!(c("10e2"), "1e3");
        assert_eq!(c("0.1"), "100m");
        assert_eq!(c("12345678"), "12345678");
        assert_eq!(c("0.0000000001"), "1n");
        assert_eq!(c("junk"), "junk");
        assert_eq!(
            serde_json::to_string(&Quantity("1.5".into())).ok(),
            Some("\"1500m\"".into())
        );
        assert_eq!(
            Time(Some("2024-01-01T00:00:00Z".into())),
            Time(Some("2024-01-01T01:00:00+01:00".into()))
        );
        assert_ne!(
            Time(Some("2024-01-01T00:00:00Z".into())),
            Time(Some("2024-01-01T00:00:01Z".into()))
        );
    }

    #[test]
    fn int_or_string_and_bytes_decode_as_go_with_readable_errors() {
        let ios = |j: &str| {
            serde_json::from_value::<IntOrString>(serde_json::from_str(j).unwrap())
                .map_err(|e| e.to_string())
        };
        assert_eq!(ios("7"), Ok(IntOrString::Int(7)));
        assert_eq!(ios("\"25%\""), Ok(IntOrString::String("25%".into())));
        // Go: `cannot unmarshal array/number 1.5/number 3000000000 … of type int32`.
        for (json, got) in [
            ("[1]", "sequence"),
            ("1.5", "floating point `1.5`"),
            ("true", "boolean `true`"),
        ] {
            assert_eq!(
                ios(json),
                Err(format!(
                    "invalid type: {got}, expected an integer (int32) or a string (intstr.IntOrString)"
                ))
            );
        }
        assert_eq!(
            ios("3000000000"),
            Err("invalid value: integer `3000000000`, expected an integer (int32) or a string (intstr.IntOrString)".into())
        );
        // Go's `base64.StdEncoding` (padding required) accepts and refuses the same texts.
        assert_eq!(Bytes::from_base64("YQ=="), Ok(Bytes(b"a".to_vec())));
        assert_eq!(Bytes::from_base64(""), Ok(Bytes(Vec::new())));
        let pad =
            "not base64 (Go []byte): the text must be a multiple of 4 characters, padded with '='";
        for text in ["YQ", "abc", "a"] {
            assert_eq!(Bytes::from_base64(text), Err(pad.to_string()), "{text}");
        }
        assert_eq!(
            Bytes::from_base64("!!!!"),
            Err("not base64 (Go []byte): '!' at byte 0 is not a base64 character".into())
        );
        assert_eq!(
            Bytes::from_base64("YQ==YQ=="),
            Err("not base64 (Go []byte): padding '=' at byte 2 before the end".into())
        );
        assert_eq!(
            serde_json::from_str::<Bytes>("\"abc\"").map_err(|e| e.to_string()),
            Err(pad.to_string())
        );
    }
}
