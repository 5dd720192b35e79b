//! Go struct tags: `reflect.StructTag.Lookup` and the `json` key (`json:"name,omitempty"`, `,inline`, `-`).

/// Looks up `key` in a Go struct tag (already unquoted), following `reflect.StructTag.Lookup`:
/// space-separated `key:"value"` pairs, values in Go double-quoted syntax. Returns `None` when the key is
/// absent or the tag is malformed before it.
#[must_use]
pub fn lookup(tag: &str, key: &str) -> Option<String> {
    let mut s = tag;
    loop {
        s = s.trim_start_matches(' ');
        if s.is_empty() {
            return None;
        }
        let name_end = s
            .find(|c: char| c <= ' ' || c == ':' || c == '"' || c == '\u{7f}')
            .unwrap_or(s.len());
        if name_end == 0 || !s[name_end..].starts_with(":\"") {
            return None;
        }
        let name = &s[..name_end];
        s = &s[name_end + 1..];
        // scan the quoted value
        let bytes = s.as_bytes();
        let mut i = 1;
        while i < bytes.len() && bytes[i] != b'"' {
            if bytes[i] == b'\\' {
                i += 1;
            }
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let quoted = &s[..=i];
        s = &s[i + 1..];
        if name == key {
            return unquote_interpreted(quoted);
        }
    }
}

/// Unquotes a Go interpreted string literal (`"..."`) with the common escapes. Returns `None` if malformed.
#[must_use]
pub fn unquote_interpreted(q: &str) -> Option<String> {
    let inner = q.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            'x' => {
                let h: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&h, 16).ok()?));
            }
            'u' => {
                let h: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The JSON view of a struct field, from its `json` struct tag.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct JsonTag {
    /// The JSON name; empty when the tag gives none (then the Go name applies unless inline).
    pub name: String,
    /// `,omitempty` present.
    pub omitempty: bool,
    /// `,omitzero` present.
    pub omitzero: bool,
    /// `,inline` present.
    pub inline: bool,
    /// The tag is exactly `-` (the field is not serialized).
    pub skip: bool,
}

/// Parses the `json` key of a struct tag. `None` when there is no `json` key.
#[must_use]
pub fn json(tag: &str) -> Option<JsonTag> {
    let v = lookup(tag, "json")?;
    if v == "-" {
        return Some(JsonTag {
            skip: true,
            ..JsonTag::default()
        });
    }
    let mut parts = v.split(',');
    let mut out = JsonTag {
        name: parts.next().unwrap_or("").to_string(),
        ..JsonTag::default()
    };
    for p in parts {
        match p {
            "omitempty" => out.omitempty = true,
            "omitzero" => out.omitzero = true,
            "inline" => out.inline = true,
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn json_tags() {
        let t = json(r#"json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec""#).unwrap();
        assert_eq!(
            (t.name.as_str(), t.omitempty, t.inline),
            ("spec", true, false)
        );
        assert!(json(r#"json:",inline""#).unwrap().inline);
        assert!(json(r#"json:"-""#).unwrap().skip);
        assert_eq!(json(r#"protobuf:"x""#), None);
        assert_eq!(lookup(r#"a:"x\"y" b:"z""#, "b").as_deref(), Some("z"));
        assert_eq!(lookup(r#"a:"x\"y""#, "a").as_deref(), Some("x\"y"));
    }
}
