//! String formats of `+k8s:format`, mirroring `k8s.io/apimachinery/pkg/api/validate/content` and
//! `validate/strfmt.go`. The upstream regular expressions are matched by hand-written character-class scans
//! with identical results (including Go's Unicode case folding for the caseless subdomain).

/// Declares [`Format`] from one table of `Variant => "k8s-name"` rows (the formats `+k8s:format` accepts, in name
/// order): the enum, [`Format::ALL`], [`Format::name`] and [`Format::from_name`] cannot disagree.
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident => $name:literal),* $(,)?) => {
        /// A `+k8s:format` value: which string format [`crate::validate::format`] checks. upstream: the
        /// `k8s:format` validator (`cmd/validation-gen/validators/format.go`) and the functions it calls in
        /// `k8s.io/apimachinery/pkg/api/validate/strfmt.go`. The variants without a tag spelling of their own
        /// select a release's behaviour of a format ([`Format::as_of_1_38`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub enum Format {
            $($(#[$doc])* $variant,)*
            /// `k8s-resource-fully-qualified-name` as of Kubernetes 1.38 (kubernetes#141644): a value with more
            /// than one slash is an error; before, it passed.
            K8sResourceFullyQualifiedNameV1_38,
        }

        impl Format {
            /// Every format `+k8s:format` accepts, in name order (each spelling once; the release variants are
            /// not listed).
            pub const ALL: &'static [Format] = &[$(Format::$variant),*];

            /// The `+k8s:format` spelling (`k8s-short-name`), also the origin's suffix (`format=k8s-short-name`).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Format::$variant => $name,)*
                    Format::K8sResourceFullyQualifiedNameV1_38 => "k8s-resource-fully-qualified-name",
                }
            }

            /// The format spelled `name` in `+k8s:format=<name>`, or `None` for a name upstream does not know.
            #[must_use]
            pub fn from_name(name: &str) -> Option<Format> {
                match name {
                    $($name => Some(Format::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

formats! {
    /// upstream `ConditionReason` (k8s.io/apimachinery v0.38.0-beta.0 `strfmt.go`, `content.IsValidReason`): a
    /// letter, then letters, digits, `_`, `,` or `:`, ending with a letter, digit or `_`; no length limit. Unknown
    /// before 1.38 (`vgc_ir::profile::Upstream::condition_reason_format`).
    K8sConditionReason => "k8s-condition-reason",
    /// upstream `ExtendedResourceName`.
    K8sExtendedResourceName => "k8s-extended-resource-name",
    /// upstream `LabelKey` (`content.IsLabelKey`).
    K8sLabelKey => "k8s-label-key",
    /// upstream `LabelValue` (`content.IsLabelValue`).
    K8sLabelValue => "k8s-label-value",
    /// upstream `LongName` (`content.IsDNS1123Subdomain`).
    K8sLongName => "k8s-long-name",
    /// upstream `LongNameCaseless` (`content.IsDNS1123SubdomainCaseless`).
    K8sLongNameCaseless => "k8s-long-name-caseless",
    /// upstream `PathSegmentName`.
    K8sPathSegmentName => "k8s-path-segment-name",
    /// upstream `PrefixedLabelKey`.
    K8sPrefixedLabelKey => "k8s-prefixed-label-key",
    /// upstream `ResourceFullyQualifiedName` (releases before 1.38).
    K8sResourceFullyQualifiedName => "k8s-resource-fully-qualified-name",
    /// upstream `ResourcePoolName`.
    K8sResourcePoolName => "k8s-resource-pool-name",
    /// upstream `ShortName` (`content.IsDNS1123Label`).
    K8sShortName => "k8s-short-name",
    /// upstream `UUID` (lowercase 8-4-4-4-12).
    K8sUuid => "k8s-uuid",
}

impl Format {
    /// This format as Kubernetes 1.38 checks it: [`Format::K8sResourceFullyQualifiedNameV1_38`] for
    /// `k8s-resource-fully-qualified-name`, the format itself for every other.
    #[must_use]
    pub const fn as_of_1_38(self) -> Format {
        match self {
            Format::K8sResourceFullyQualifiedName => Format::K8sResourceFullyQualifiedNameV1_38,
            other => other,
        }
    }

    /// True when upstream's function passes the checked value with its Go type (`*value`) to `field.Invalid`, so
    /// a value of a named string type prints as JSON; `UUID`, `ResourcePoolName`, `ExtendedResourceName` and the
    /// qualified-name formats convert to `string` first. upstream: `validate/strfmt.go`, v0.35–v0.38.
    #[must_use]
    pub const fn reports_typed_value(self) -> bool {
        matches!(
            self,
            Format::K8sConditionReason
                | Format::K8sShortName
                | Format::K8sLongName
                | Format::K8sLabelKey
                | Format::K8sPrefixedLabelKey
                | Format::K8sLongNameCaseless
                | Format::K8sLabelValue
                | Format::K8sPathSegmentName
        )
    }
}

/// upstream `content.IsValidReason` (k8s.io/apimachinery v0.38.0-beta.0 `validate/content/identifier.go`): a value
/// `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$` does not match gets one message, else none.
#[must_use]
pub fn condition_reason(v: &str) -> Vec<String> {
    let b = v.as_bytes();
    let inner = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b',' | b':');
    let ok = match b {
        [] => false,
        [first] => first.is_ascii_alphabetic(),
        [first, mid @ .., last] => {
            first.is_ascii_alphabetic()
                && mid.iter().all(inner)
                && (last.is_ascii_alphanumeric() || *last == b'_')
        }
    };
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
            "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
            &[
                "my_name",
                "MY_NAME",
                "MyName",
                "ReasonA,ReasonB",
                "ReasonA:ReasonB",
            ],
        )]
    }
}

/// upstream `content.RegexError`: note the double space before `or` that upstream produces.
#[must_use]
pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(re);
    s.push_str("')");
    s
}

/// upstream `content.MaxLenError`.
#[must_use]
pub fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_CASELESS_MSG: &str = "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";
const C_IDENTIFIER_MSG: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$` with a custom alnum class.
fn is_label(s: &str, alnum: impl Fn(char) -> bool) -> bool {
    let mut chars = s.chars();
    let (Some(first), last) = (chars.next(), s.chars().next_back()) else {
        return false;
    };
    alnum(first) && last.is_some_and(&alnum) && s.chars().all(|c| alnum(c) || c == '-')
}

fn lower_alnum(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// Go `(?i)[a-z0-9]`: ASCII letters and digits plus the two non-ASCII runes that fold into `[a-z]`
/// (U+017F LATIN SMALL LETTER LONG S, U+212A KELVIN SIGN).
fn caseless_alnum(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '\u{17F}' || c == '\u{212A}'
}

fn is_subdomain(s: &str, alnum: impl Fn(char) -> bool + Copy) -> bool {
    s.split('.').all(|l| is_label(l, alnum))
}

/// upstream `content.IsDNS1123Label`.
#[must_use]
pub fn dns1123_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !is_label(v, lower_alnum) {
        if is_subdomain(v, lower_alnum) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// upstream `content.IsDNS1123Subdomain` / `IsDNS1123SubdomainCaseless`.
#[must_use]
pub fn dns1123_subdomain(v: &str, caseless: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 253 {
        errs.push(max_len_error(253));
    }
    let ok = if caseless {
        is_subdomain(v, caseless_alnum)
    } else {
        is_subdomain(v, lower_alnum)
    };
    if !ok {
        let (msg, ex) = if caseless {
            (DNS1123_SUBDOMAIN_CASELESS_MSG, "Example.com")
        } else {
            (DNS1123_SUBDOMAIN_MSG, "example.com")
        };
        errs.push(regex_error(msg, DNS1123_SUBDOMAIN_FMT, &[ex]));
    }
    errs
}

fn is_label_key_name(s: &str) -> bool {
    let alnum = |c: char| c.is_ascii_alphanumeric();
    let (Some(first), Some(last)) = (s.chars().next(), s.chars().next_back()) else {
        return false;
    };
    alnum(first) && alnum(last) && s.chars().all(|c| alnum(c) || matches!(c, '-' | '_' | '.'))
}

/// upstream `content.IsLabelKey` (also `IsQualifiedName`).
#[must_use]
pub fn label_key(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let mut it = v.splitn(3, '/');
    let name = match (it.next(), it.next(), it.next()) {
        (Some(name), None, _) => name,
        (Some(prefix), Some(name), None) => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain(prefix, false)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !is_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// upstream `content.IsPrefixedLabelKey`.
#[must_use]
pub fn prefixed_label_key(v: &str) -> Vec<String> {
    let errs = label_key(v);
    if !errs.is_empty() {
        return errs;
    }
    if v.split('/').count() != 2 {
        return vec!["must include a prefix (e.g. 'example.com/key')".to_string()];
    }
    Vec::new()
}

/// upstream `content.IsLabelValue`.
#[must_use]
pub fn label_value(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !(v.is_empty() || is_label_key_name(v)) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// upstream `content.IsPathSegmentName`.
#[must_use]
pub fn path_segment_name(v: &str) -> Vec<String> {
    if v == "." || v == ".." {
        return vec![format!("may not be '{v}'")];
    }
    let mut errs = Vec::new();
    for bad in ["/", "%"] {
        if v.contains(bad) {
            errs.push(format!("may not contain '{bad}'"));
        }
    }
    errs
}

/// upstream `content.IsCIdentifier`.
#[must_use]
pub fn c_identifier(v: &str) -> Vec<String> {
    let mut chars = v.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            C_IDENTIFIER_MSG,
            C_IDENTIFIER_FMT,
            &["my_name", "MY_NAME", "MyName"],
        )]
    }
}

/// upstream `validate.UUID`'s check: lowercase 8-4-4-4-12.
#[must_use]
pub fn is_lowercase_uuid(v: &str) -> bool {
    v.len() == 36
        && v.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One spelling per format, in name order, each read back by `from_name`; the 1.38 variant is spelled as the
    /// format it refines and is not listed.
    #[test]
    fn format_names_round_trip() {
        for w in Format::ALL.windows(2) {
            assert!(w[0].name() < w[1].name(), "{w:?}");
        }
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(*f));
            assert_eq!(f.as_of_1_38().name(), f.name());
        }
        assert_eq!(Format::ALL.len(), 12);
        assert!(!Format::ALL.contains(&Format::K8sResourceFullyQualifiedNameV1_38));
        assert_eq!(Format::from_name("k8s-short-name@1.38"), None);
    }
    #[test]
    fn formats_match_upstream_messages() {
        assert_eq!(dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            dns1123_label("A"),
            vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert!(dns1123_subdomain("Example.com", true).is_empty());
        assert!(dns1123_subdomain("\u{212A}.com", true).is_empty());
        assert_eq!(dns1123_subdomain("Example.com", false).len(), 1);
        assert_eq!(label_key("a/b/c").len(), 1);
        assert_eq!(label_key("/x"), vec!["prefix part must be non-empty"]);
        assert_eq!(label_key("x/").len(), 2);
        assert_eq!(
            prefixed_label_key("x"),
            vec!["must include a prefix (e.g. 'example.com/key')"]
        );
        assert!(label_value("").is_empty());
        assert_eq!(
            path_segment_name("a/%"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
        assert!(is_lowercase_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_lowercase_uuid("123E4567-e89b-12d3-a456-426614174000"));
    }
}
