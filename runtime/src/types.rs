//! Well-known Kubernetes value types with their real JSON forms and upstream (`equality.Semantic`) equality.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `resource.Quantity`: JSON string (or number); equal when numerically equal (upstream `Cmp == 0`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Quantity(#[serde(deserialize_with = "quantity_de")] pub String);

fn quantity_de<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Null => Ok(String::new()),
        other => Err(serde::de::Error::custom(format!(
            "quantities must be strings or numbers, got {other}"
        ))),
    }
}

impl Quantity {
    /// The value as (mantissa, power of ten), exact for the suffix forms Kubernetes uses; `None` when unparsable.
    /// Binary suffixes are expanded into the mantissa; values that overflow 128 bits are not comparable.
    #[must_use]
    pub fn parts(&self) -> Option<(i128, i32)> {
        let s = self.0.trim();
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
        let digits = format!("{int}{frac}");
        let mut mant: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
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

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        match (self.parts(), other.parts()) {
            (Some(a), Some(b)) => a == b,
            _ => self.0 == other.0,
        }
    }
}

/// RFC 3339 timestamp parsed to (seconds since the epoch, nanoseconds), UTC.
fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d, h, mi, se) = (
        num(0..4)?,
        num(5..7)?,
        num(8..10)?,
        num(11..13)?,
        num(14..16)?,
        num(17..19)?,
    );
    let mut i = 19;
    let mut nanos: u32 = 0;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let frac = s.get(start..i)?;
        let padded = format!("{frac:0<9}");
        nanos = padded.get(..9)?.parse().ok()?;
    }
    let off = match s.get(i..)? {
        "Z" | "z" => 0,
        o if o.len() == 6 && (o.starts_with('+') || o.starts_with('-')) => {
            let v = num(i + 1..i + 3)? * 3600 + num(i + 4..i + 6)? * 60;
            if o.starts_with('-') { -v } else { v }
        }
        _ => return None,
    };
    // days from civil (Howard Hinnant)
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * (if mo > 2 { mo - 3 } else { mo + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + h * 3600 + mi * 60 + se - off, nanos))
}

macro_rules! time_type {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Default, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Option<String>);

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                match (
                    self.0.as_deref().and_then(parse_rfc3339),
                    other.0.as_deref().and_then(parse_rfc3339),
                ) {
                    (Some(a), Some(b)) => a == b,
                    _ => self.0 == other.0,
                }
            }
        }
    };
}

time_type!(
    Time,
    "`metav1.Time`: RFC 3339 string or null; equal when the UTC instants are equal."
);
time_type!(
    MicroTime,
    "`metav1.MicroTime`: RFC 3339 string with microseconds or null; equal by UTC instant."
);

/// `metav1.Duration`: a Go duration string such as `"1h2m3s"`; equal when the durations are equal (upstream
/// compares the `time.Duration` values, so `"1h"` equals `"60m"`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Duration(pub String);

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

/// `intstr.IntOrString`: a JSON number or string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use base64::Engine;
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use base64::Engine;
        let s = Option::<String>::deserialize(d)?.unwrap_or_default();
        base64::engine::general_purpose::STANDARD
            .decode(s)
            .map(Bytes)
            .map_err(serde::de::Error::custom)
    }
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

/// Go `omitempty`: true for the zero value (false, 0, "", an empty list or map).
#[must_use]
pub fn is_zero<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn semantic_equality() {
        assert_eq!(Quantity("1Gi".into()), Quantity("1024Mi".into()));
        assert_eq!(Quantity("1000m".into()), Quantity("1".into()));
        assert_eq!(Quantity("0".into()), Quantity(String::new()));
        assert_ne!(Quantity("1G".into()), Quantity("1Gi".into()));
        assert_eq!(
            Time(Some("2024-01-01T00:00:00Z".into())),
            Time(Some("2024-01-01T01:00:00+01:00".into()))
        );
        assert_ne!(
            Time(Some("2024-01-01T00:00:00Z".into())),
            Time(Some("2024-01-01T00:00:01Z".into()))
        );
    }
}
