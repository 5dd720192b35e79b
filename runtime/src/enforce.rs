//! Which declarative-validation errors the API server returns: k8s.io/apimachinery `pkg/api/validate`
//! `FilterEnforcedDeclarativeErrors` (v0.36 and later), as k8s.io/apiserver `pkg/registry/rest`
//! `ValidateDeclarativelyWithMigrationChecks` calls it with its `DeclarativeValidationBeta` gate.
//!
//! An error of a standard rule (no `+k8s:alpha`/`+k8s:beta`) is returned; a beta one only while the beta gate is
//! on; an alpha one never (the hand-written validation stays authoritative for it); an internal error always. The
//! others are *shadowed*: the server computes them (and compares them with its hand-written errors) but does not
//! return them.

use crate::field::{Error, ErrorList, ErrorType, StabilityLevel};

/// The least stable level of declarative rules whose errors are returned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Enforce {
    /// Standard rules only: an API server whose `DeclarativeValidationBeta` gate is off (and, before the gate
    /// existed, 1.35 and older).
    Stable,
    /// Standard and beta rules: an API server whose `DeclarativeValidationBeta` gate is on (its default from 1.36).
    Beta,
    /// Every rule: no server does this by default (upstream's `WithAllDeclarativeEnforcedForTest`); what the
    /// generated `validate` functions return, unfiltered.
    #[default]
    Alpha,
}

impl Enforce {
    /// `stable`, `beta` or `alpha`; `None` for anything else.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "stable" => Self::Stable,
            "beta" => Self::Beta,
            "alpha" => Self::Alpha,
            _ => return None,
        })
    }

    /// The name [`Enforce::from_name`] reads.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stable => "stable",
            Self::Beta => "beta",
            Self::Alpha => "alpha",
        }
    }

    /// What a server with the `DeclarativeValidationBeta` gate `on` enforces.
    #[must_use]
    pub fn with_beta_gate(on: bool) -> Self {
        if on { Self::Beta } else { Self::Stable }
    }

    /// Whether an error of a rule at `level` (`None`: a standard rule) is returned at this level (the error type
    /// aside: see [`Enforce::returns`]).
    #[must_use]
    pub fn enforces(self, level: Option<StabilityLevel>) -> bool {
        match level {
            None => true,
            Some(StabilityLevel::Beta) => self >= Self::Beta,
            Some(StabilityLevel::Alpha) => self >= Self::Alpha,
        }
    }

    /// Whether the server returns `e`: an internal error always, any other by its level ([`Enforce::enforces`]).
    #[must_use]
    pub fn returns(self, e: &Error) -> bool {
        e.error_type == ErrorType::Internal || self.enforces(e.stability)
    }

    /// `errs` split into (returned, shadowed), each in its original order.
    #[must_use]
    pub fn split(self, errs: ErrorList) -> (ErrorList, ErrorList) {
        errs.into_iter().partition(|e| self.returns(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{ErrorListExt as _, Path};

    #[test]
    fn levels_and_internal_errors_as_upstream_filters_them() {
        let root = Path::Root;
        let p = root.child("spec");
        let errs: ErrorList = vec![
            Error::required(&p, ""),
            vec![Error::required(&p.child("b"), "")]
                .mark_beta()
                .remove(0),
            vec![Error::required(&p.child("a"), "")]
                .mark_alpha()
                .remove(0),
            vec![Error::internal(&p.child("i"), "x")]
                .mark_alpha()
                .remove(0),
        ];
        let fields = |l: &ErrorList| l.iter().map(|e| e.field.clone()).collect::<Vec<_>>();
        let (kept, shadowed) = Enforce::Stable.split(errs.clone());
        assert_eq!(fields(&kept), ["spec", "spec.i"]);
        assert_eq!(fields(&shadowed), ["spec.b", "spec.a"]);
        let (kept, shadowed) = Enforce::with_beta_gate(true).split(errs.clone());
        assert_eq!(fields(&kept), ["spec", "spec.b", "spec.i"]);
        assert_eq!(fields(&shadowed), ["spec.a"]);
        let (kept, shadowed) = Enforce::Alpha.split(errs);
        assert_eq!(kept.len(), 4);
        assert!(shadowed.is_empty());
        assert_eq!(Enforce::from_name("beta"), Some(Enforce::Beta));
        assert_eq!(Enforce::from_name("gamma"), None);
    }
}
