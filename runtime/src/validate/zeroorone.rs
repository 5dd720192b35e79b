//! Zero-or-one-of unions (upstream `zeroorone.go`).

use super::one;
use super::union::{backticked, union_specified};
use crate::field::{BadValue, Error, ErrorList, Path};
use crate::operation::Operation;

/// upstream `ZeroOrOneOfUnion`: at most one member may be set; several →
/// `Invalid(path, "{a, b}", "must specify at most one of: `a`, `b`")`, origin `zeroOrOneOf`.
#[must_use]
pub fn zero_or_one_of(
    path: &Path<'_>,
    op: &Operation,
    has_old: bool,
    new_set: &[bool],
    old_set: &[bool],
    members: &[&str],
) -> ErrorList {
    if new_set.iter().filter(|s| **s).count() <= 1 {
        return Vec::new();
    }
    let Some(specified) = union_specified(op, has_old, new_set, old_set, members) else {
        return Vec::new();
    };
    if specified.len() > 1 {
        one(Error::invalid(
            path,
            BadValue::Str(format!("{{{}}}", specified.join(", "))),
            format!("must specify at most one of: {}", backticked(members)),
        )
        .with_origin("zeroOrOneOf"))
    } else {
        Vec::new()
    }
}
