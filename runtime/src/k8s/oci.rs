//! The OCI image-reference grammar as k8s.io/kubernetes' `ValidateCustom_SecurityProfileOCI_Ref` reads it:
//! `reference.ParseNamed` of `github.com/distribution/reference` v0.6.0 (`reference.go`, `normalize.go`,
//! `regexp.go`), which checks digests with `digest.Parse` of `github.com/opencontainers/go-digest` v1.0.0
//! (`digest.go`, `algorithm.go`) — the versions k8s.io/kubernetes v1.38.0-beta.0's `go.mod` requires.
//!
//! The regular expressions are composed exactly as `regexp.go` composes them and compiled with
//! [`crate::regex::compile_go`] (Go's `\w` is ASCII). Go's `FindStringSubmatch` and the `regex` crate's `captures`
//! both choose the submatches a backtracking matcher would (leftmost-first), so the name, tag and digest split the
//! same way. Error texts are Go's `error` strings, byte for byte ([`ParseError`]'s `Display`).
//!
//! No crate on crates.io implements this grammar with Go's errors: `oci-spec`'s `distribution::Reference` (and
//! `oci-client`'s, which it copies) reports `invalid reference format` where Go reports an upper-case name, has no
//! 64-hex identifier or canonical-form check, and adds a default `latest` tag.

use crate::regex::compile_go;
use regex::Regex;
use std::fmt;
use std::sync::LazyLock;

/// `RepositoryNameTotalLengthMax`: the most bytes the path of a repository name (without the domain) may have.
const REPOSITORY_NAME_TOTAL_LENGTH_MAX: usize = 255;
/// `defaultDomain` of `normalize.go`: Docker Hub, the domain of a familiar name.
const DEFAULT_DOMAIN: &str = "docker.io";
/// `legacyDefaultDomain` of `normalize.go`, rewritten to [`DEFAULT_DOMAIN`].
const LEGACY_DEFAULT_DOMAIN: &str = "index.docker.io";
/// `officialRepoPrefix` of `normalize.go`: the namespace of Docker Hub's official images.
const OFFICIAL_REPO_PREFIX: &str = "library/";

/// The compiled regular expressions of `regexp.go` (and go-digest's `DigestRegexpAnchored`) that `ParseNamed`
/// reaches.
struct Grammar {
    /// `ReferenceRegexp`: `^(name)(?::(tag))?(?:@(digest))?$`.
    reference: Regex,
    /// `anchoredNameRegexp`: `^(?:(domain-and-port)/)?(remote-name)$`.
    anchored_name: Regex,
    /// `anchoredIdentifierRegexp`: 64 lower-case hex digits.
    anchored_identifier: Regex,
    /// go-digest's `DigestRegexpAnchored`: the algorithms go-digest could support, lower case only.
    digest_anchored: Regex,
}

/// `optional(res...)` of `regexp.go`.
fn optional(res: &[&str]) -> String {
    format!("(?:{})?", res.concat())
}

/// `anyTimes(res...)` of `regexp.go`.
fn any_times(res: &[&str]) -> String {
    format!("(?:{})*", res.concat())
}

/// `capture(res...)` of `regexp.go`.
fn capture(res: &[&str]) -> String {
    format!("({})", res.concat())
}

/// `anchored(res...)` of `regexp.go`.
fn anchored(res: &[&str]) -> String {
    format!("^{}$", res.concat())
}

static GRAMMAR: LazyLock<Grammar> = LazyLock::new(|| {
    // The constants and variables of regexp.go, in its order.
    let alphanumeric = "[a-z0-9]+";
    let separator = "(?:[._]|__|[-]+)";
    let domain_name_component = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    let optional_port = "(?::[0-9]+)?";
    let tag = r"[\w][\w.-]{0,127}";
    let digest_pat = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}";
    let identifier = "([a-f0-9]{64})";
    let ipv6address = r"\[(?:[a-fA-F0-9:]+)\]";
    let domain_name = format!(
        "{domain_name_component}{}",
        any_times(&[r"\.", domain_name_component])
    );
    let host = format!("(?:{domain_name}|{ipv6address})");
    let domain_and_port = format!("{host}{optional_port}");
    let path_component = format!("{alphanumeric}{}", any_times(&[separator, alphanumeric]));
    let remote_name = format!("{path_component}{}", any_times(&["/", &path_component]));
    let name_pat = format!("{}{remote_name}", optional(&[&domain_and_port, "/"]));
    let anchored_name = anchored(&[
        &optional(&[&capture(&[&domain_and_port]), "/"]),
        &capture(&[&remote_name]),
    ]);
    let reference = anchored(&[
        &capture(&[&name_pat]),
        &optional(&[":", &capture(&[tag])]),
        &optional(&["@", &capture(&[digest_pat])]),
    ]);
    // go-digest v1.0.0 digest.go: DigestRegexp, anchored.
    let digest_anchored = "^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$";
    let compile = |p: &str| compile_go(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    Grammar {
        reference: compile(&reference),
        anchored_name: compile(&anchored_name),
        anchored_identifier: compile(&anchored(&[identifier])),
        digest_anchored: compile(digest_anchored),
    }
});

/// Why a text is not a canonical named reference: the errors `reference.ParseNamed` returns on the way
/// `ValidateCustom_SecurityProfileOCI_Ref` calls it. `Display` is the Go error's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// `ParseNormalizedNamed`: the whole text is 64 lower-case hex digits (an image ID, not a name).
    Identifier(String),
    /// `ParseNormalizedNamed`: the remote name (up to the first `:`, after normalisation) is not lower case.
    RemoteNotLowercase(String),
    /// `ErrNameContainsUppercase`: the text is no reference, but its lower-cased form is.
    NameContainsUppercase,
    /// `ErrReferenceInvalidFormat`.
    InvalidFormat,
    /// `ErrNameTooLong`: the path has more than 255 bytes.
    NameTooLong,
    /// go-digest `ErrDigestInvalidFormat`.
    DigestInvalidFormat,
    /// go-digest `ErrDigestInvalidLength`.
    DigestInvalidLength,
    /// go-digest `ErrDigestUnsupported`: an algorithm go-digest's grammar allows but no hash is registered for.
    DigestUnsupported,
    /// `ErrNameNotCanonical`: the text parses but normalisation changed it (`ubuntu`, `docker.io/ubuntu`).
    NotCanonical,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Identifier(s) => write!(
                f,
                "invalid repository name ({s}), cannot specify 64-byte hexadecimal strings"
            ),
            Self::RemoteNotLowercase(remote) => write!(
                f,
                "invalid reference format: repository name ({remote}) must be lowercase"
            ),
            Self::NameContainsUppercase => f.write_str("repository name must be lowercase"),
            Self::InvalidFormat => f.write_str("invalid reference format"),
            Self::NameTooLong => write!(
                f,
                "repository name must not be more than {REPOSITORY_NAME_TOTAL_LENGTH_MAX} characters"
            ),
            Self::DigestInvalidFormat => f.write_str("invalid checksum digest format"),
            Self::DigestInvalidLength => f.write_str("invalid checksum digest length"),
            Self::DigestUnsupported => f.write_str("unsupported digest algorithm"),
            Self::NotCanonical => f.write_str("repository name must be canonical"),
        }
    }
}

/// A named reference as `reference.Parse` returns it: the name (domain and path), and the tag and digest when
/// present (Go's `repository`, `taggedReference`, `canonicalReference` or `reference`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    /// `Domain()`: empty when the name has none.
    domain: String,
    /// `Path()`.
    path: String,
    /// `Tag()` of a tagged reference.
    pub(crate) tag: Option<String>,
    /// `Digest()` of a digested reference, validated by go-digest.
    pub(crate) digest: Option<String>,
}

impl Named {
    /// `Name()`: the domain and path joined by `/`, or the path alone.
    fn name(&self) -> String {
        if self.domain.is_empty() {
            self.path.clone()
        } else {
            format!("{}/{}", self.domain, self.path)
        }
    }

    /// `String()`: the name, `:tag` and `@digest` as present.
    fn string(&self) -> String {
        let mut s = self.name();
        if let Some(tag) = &self.tag {
            s.push(':');
            s.push_str(tag);
        }
        if let Some(digest) = &self.digest {
            s.push('@');
            s.push_str(digest);
        }
        s
    }

    /// `Digest().Algorithm()`: the digest up to its first `:`.
    pub(crate) fn digest_algorithm(&self) -> Option<&str> {
        self.digest
            .as_deref()
            .map(|d| d.split_once(':').map_or(d, |(alg, _)| alg))
    }
}

/// Go's `strings.ToLower` (see [`super::go_to_lower`]).
fn go_to_lower(s: &str) -> String {
    super::go_to_lower(s)
}

/// `reference.ParseNamed(s)`: `s` parsed by [`parse_normalized_named`] must print back as `s` (no domain, Docker
/// Hub namespace or legacy domain added or rewritten).
///
/// # Errors
/// Every [`ParseError`], as `ParseNamed` returns it.
pub(crate) fn parse_named(s: &str) -> Result<Named, ParseError> {
    let named = parse_normalized_named(s)?;
    if named.string() != s {
        return Err(ParseError::NotCanonical);
    }
    Ok(named)
}

/// `reference.ParseNormalizedNamed(s)`: refuses a bare image ID, splits off the domain as Docker does (Docker Hub
/// when there is none), requires the remote name (up to the first `:`) in lower case and parses
/// `domain/remainder` with [`parse`]. (Go's `reference %s has no name` cannot occur: the text parsed always has a
/// name.)
fn parse_normalized_named(s: &str) -> Result<Named, ParseError> {
    let g = &*GRAMMAR;
    if g.anchored_identifier.is_match(s) {
        return Err(ParseError::Identifier(s.to_string()));
    }
    let (domain, remainder) = split_docker_domain(s);
    let remote = remainder.find(':').map_or(&*remainder, |i| &remainder[..i]);
    if go_to_lower(remote) != remote {
        return Err(ParseError::RemoteNotLowercase(remote.to_string()));
    }
    parse(&format!("{domain}/{remainder}"))
}

/// `splitDockerDomain(name)` of `normalize.go`: (domain, remote name). The first `/`-separated element is the
/// domain when it is `localhost`, contains `.` or `:`, or is not lower case (`index.docker.io` becomes
/// `docker.io`); otherwise the domain is `docker.io`, and a Docker Hub name without a namespace gets `library/`.
fn split_docker_domain(name: &str) -> (&str, String) {
    let Some((maybe_domain, maybe_remote)) = name.split_once('/') else {
        return (DEFAULT_DOMAIN, format!("{OFFICIAL_REPO_PREFIX}{name}"));
    };
    let (domain, remote) = if maybe_domain == "localhost" {
        (maybe_domain, maybe_remote)
    } else if maybe_domain == LEGACY_DEFAULT_DOMAIN {
        (DEFAULT_DOMAIN, maybe_remote)
    } else if maybe_domain.contains(['.', ':']) || go_to_lower(maybe_domain) != maybe_domain {
        (maybe_domain, maybe_remote)
    } else {
        (DEFAULT_DOMAIN, name)
    };
    if domain == DEFAULT_DOMAIN && !remote.contains('/') {
        return (domain, format!("{OFFICIAL_REPO_PREFIX}{remote}"));
    }
    (domain, remote.to_string())
}

/// `reference.Parse(s)`: `s` must match `ReferenceRegexp` (else: empty name, an upper-case name when the
/// lower-cased text would match, or an invalid format); the path may have at most 255 bytes; a digest must pass
/// go-digest's [`validate_digest`].
fn parse(s: &str) -> Result<Named, ParseError> {
    let g = &*GRAMMAR;
    let Some(m) = g.reference.captures(s) else {
        // (`ErrNameEmpty` for an empty text cannot occur here: the text has a `/`.)
        if g.reference.is_match(&go_to_lower(s)) {
            return Err(ParseError::NameContainsUppercase);
        }
        return Err(ParseError::InvalidFormat);
    };
    let group = |i: usize| m.get(i).map_or("", |x| x.as_str());
    let name = group(1);
    let (domain, path) = match g.anchored_name.captures(name) {
        Some(n) => (
            n.get(1).map_or("", |x| x.as_str()),
            n.get(2).map_or("", |x| x.as_str()),
        ),
        None => ("", name),
    };
    if path.len() > REPOSITORY_NAME_TOTAL_LENGTH_MAX {
        return Err(ParseError::NameTooLong);
    }
    let digest = group(3);
    if !digest.is_empty() {
        validate_digest(digest)?;
    }
    let some = |x: &str| (!x.is_empty()).then(|| x.to_string());
    Ok(Named {
        domain: domain.to_string(),
        path: path.to_string(),
        tag: some(group(2)),
        digest: some(digest),
    })
}

/// go-digest's `Digest.Validate`: `algorithm:encoded` with a non-empty algorithm and encoding. An algorithm
/// without a registered hash is `ErrDigestUnsupported` when `DigestRegexpAnchored` matches the digest, else
/// `ErrDigestInvalidFormat`; `sha256`, `sha384` and `sha512` (registered in the API server, which links
/// `crypto/sha256` and `crypto/sha512`) need exactly 64, 96 or 128 lower-case hex digits: another length is
/// `ErrDigestInvalidLength`, other characters `ErrDigestInvalidFormat` (`Algorithm.Validate`; its anchored
/// `^[a-f0-9]{n}$` is checked byte by byte once the length is right).
fn validate_digest(s: &str) -> Result<(), ParseError> {
    let Some((algorithm, encoded)) = s.split_once(':') else {
        return Err(ParseError::DigestInvalidFormat);
    };
    if algorithm.is_empty() || encoded.is_empty() {
        return Err(ParseError::DigestInvalidFormat);
    }
    let size = match algorithm {
        "sha256" => 32,
        "sha384" => 48,
        "sha512" => 64,
        _ if GRAMMAR.digest_anchored.is_match(s) => return Err(ParseError::DigestUnsupported),
        _ => return Err(ParseError::DigestInvalidFormat),
    };
    if encoded.len() != size * 2 {
        return Err(ParseError::DigestInvalidLength);
    }
    if encoded
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(())
    } else {
        Err(ParseError::DigestInvalidFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX64: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn err(s: &str) -> String {
        parse_named(s).map_or_else(|e| e.to_string(), |n| format!("ok {n:?}"))
    }

    #[test]
    fn canonical_digested_names_parse() {
        let n = parse_named(&format!("registry.k8s.io/a/b@sha256:{HEX64}")).expect("parses");
        assert_eq!(
            (n.domain.as_str(), n.path.as_str()),
            ("registry.k8s.io", "a/b")
        );
        assert_eq!(n.digest_algorithm(), Some("sha256"));
        assert!(n.tag.is_none());
        let n = parse_named("localhost:5000/x:v1").expect("parses");
        assert_eq!(n.tag.as_deref(), Some("v1"));
        assert!(parse_named(&format!("[::1]:5000/a__b.c-d---e@sha256:{HEX64}")).is_ok());
    }

    #[test]
    fn errors_are_go_texts() {
        assert_eq!(
            err(HEX64),
            format!(
                "invalid repository name ({HEX64}), cannot specify 64-byte hexadecimal strings"
            )
        );
        assert_eq!(
            err("example.com/Foo@sha256:x"),
            "invalid reference format: repository name (Foo@sha256) must be lowercase"
        );
        assert_eq!(err("Foo_bar.com/x"), "repository name must be lowercase");
        assert_eq!(
            err("example.com/a:\u{212a}"),
            "repository name must be lowercase"
        );
        assert_eq!(err("example.com/-a"), "invalid reference format");
        assert_eq!(
            err(&format!("example.com/{}", "a".repeat(256))),
            "repository name must not be more than 255 characters"
        );
        assert!(err(&format!("example.com/{}", "a".repeat(255))).starts_with("ok"));
        assert_eq!(
            err(&format!("example.com/a@sha256:{}", &HEX64[1..])),
            "invalid checksum digest length"
        );
        assert_eq!(
            err(&format!("example.com/a@sha256:{}", HEX64.to_uppercase())),
            "invalid checksum digest format"
        );
        assert_eq!(
            err(&format!("example.com/a@md5:{HEX64}")),
            "unsupported digest algorithm"
        );
        assert_eq!(
            err(&format!("example.com/a:t@MD5:{HEX64}")),
            "invalid checksum digest format"
        );
        assert_eq!(err("ubuntu"), "repository name must be canonical");
        assert_eq!(err("docker.io/ubuntu"), "repository name must be canonical");
        assert_eq!(
            err("index.docker.io/a/b"),
            "repository name must be canonical"
        );
    }
}
