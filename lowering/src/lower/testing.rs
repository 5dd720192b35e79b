//! The testing family: upstream's tags that test the generator.

use super::diagnostics::TagDiagnostic;
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::TestingTag;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// `validateTrue`, `validateFalse`, `validateTrueAlpha`, `validateTrueBeta`, `validateError` (upstream
    /// `validators/testing.go`).
    pub(super) fn lower_testing(
        &mut self,
        t: &TagSite<'_>,
        which: TestingTag,
    ) -> Option<Vec<Check>> {
        let TagSite { tag, id, .. } = *t;
        let mk = |kind: CheckKind| t.check(kind);
        let s = || t.str();
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        Some(match which {
            TestingTag::ValidateTrue
            | TestingTag::ValidateTrueAlpha
            | TestingTag::ValidateTrueBeta
            | TestingTag::ValidateFalse => {
                // upstream `testing.go`: flags and cohort come from the args; the Alpha/Beta variants only differ
                // in their tag level (for the lint), not in their functions.
                let mut c = mk(CheckKind::FixedResult {
                    result: id != TagId::ValidateFalse,
                    msg: s().unwrap_or_default(),
                    type_arg: tag
                        .str_arg("typeArg")
                        .filter(|a| !a.is_empty())
                        .map(str::to_string),
                });
                if let Some(flags) = tag.str_arg("flags") {
                    for fl in flags.split(',').map(str::trim) {
                        match fl {
                            "ShortCircuit" => c.short_circuit = true,
                            "NonError" => c.non_error = true,
                            other => {
                                return refuse(self, TagDiagnostic::UnknownFlag(other.to_string()));
                            }
                        }
                    }
                }
                if let Some(cohort) = tag.str_arg("cohort")
                    && !cohort.is_empty()
                {
                    c.cohort = Some(cohort.to_string());
                }
                vec![c]
            }
            TestingTag::ValidateError => {
                let payload = s().unwrap_or_default();
                return refuse(self, TagDiagnostic::ForcedError(payload));
            }
        })
    }
}
