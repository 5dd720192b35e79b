//! The Kubernetes formats as regular expressions, shared by the CEL rules written for a CEL environment without the
//! `format` library (`--cel-env 1.30`, `rules.rs`) and the JSON Schema patterns (`jsonschema.rs`). upstream:
//! `k8s.io/apimachinery/pkg/util/validation`'s expressions.

/// A lowercase RFC 1123 label (`content.IsDNS1123Label`'s expression; its 63-character bound is separate).
pub(crate) const LABEL: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

/// The name part of a qualified name (`content.IsQualifiedName`): at most 63 characters.
pub(crate) const QUALIFIED_NAME: &str = "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?";

/// A lowercase RFC 1123 subdomain, unanchored (its 253-character bound is separate): `content.IsDNS1123Subdomain`'s
/// expression, labels of alphanumerics with dashes inside joined by dots, said shorter — an alphanumeric, then each
/// alphanumeric after dashes or a dot — for the API server's CEL cost estimate, which multiplies a `matches` by the
/// pattern's length (32 characters instead of 63).
pub(crate) const SHORT_SUBDOMAIN: &str = r"[a-z0-9](-*[a-z0-9]|\.[a-z0-9])*";

/// CEL that is true when `x` passes the check of the Kubernetes CEL `format` library's `name`
/// (`dns1123Label`, `dns1123Subdomain`, `qualifiedName`, `labelValue`), said with `size` and `matches` (RE2, as the
/// library's Go checks' expressions are) for a CEL environment without the library. upstream:
/// `k8s.io/apiserver/pkg/cel/library/format.go` over `k8s.io/apimachinery/pkg/util/validation`.
#[must_use]
pub(crate) fn format_regex(name: &str, x: &str) -> String {
    let m = |re: &str| format!("{x}.matches({})", crate::cel::str_lit(re));
    let subdomain = format!("{LABEL}(\\.{LABEL})*");
    match name {
        "dns1123Label" => format!("(size({x}) <= 63 && {})", m(&format!("^{LABEL}$"))),
        "dns1123Subdomain" => format!("(size({x}) <= 253 && {})", m(&format!("^{subdomain}$"))),
        "qualifiedName" => format!(
            "({} && {})",
            m(&format!("^({subdomain}/)?{QUALIFIED_NAME}$")),
            m("^([^/]{1,253}/)?[^/]*$")
        ),
        "labelValue" => m("^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$"),
        _ => format!("!format.{name}().validate({x}).hasValue()"),
    }
}
