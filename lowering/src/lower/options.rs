//! The options family: `+k8s:ifEnabled`, `+k8s:ifDisabled`.

use super::tags::{TagSite, wrap_each};
use super::*;
use vgc_ir::catalog::OptionsTag;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// `ifEnabled`, `ifDisabled` (upstream `validators/options.go`): the payload's checks, each wrapped in
    /// `IfOption`.
    pub(super) fn lower_options(
        &mut self,
        t: &TagSite<'_>,
        which: OptionsTag,
    ) -> Option<Vec<Check>> {
        let TagSite { tag, id, .. } = *t;
        Some(match which {
            OptionsTag::IfEnabled | OptionsTag::IfDisabled => {
                // upstream `options.go`: every function the payload produces is wrapped in `IfOption`, keeping
                // its flags; an undefined option is an internal error at run time (1.37 on; before, disabled).
                let inner = tag.inner()?;
                let option = tag.str_positional().map(str::to_string)?;
                let inner_checks = self.lower_payload(t, inner)?;
                let enabled = id == TagId::IfEnabled;
                let undefined_is_error = self.undefined_option_is_error();
                wrap_each(inner_checks, id, |inner| {
                    CheckKind::IfOption(Box::new(IfOptionPlan {
                        option: option.clone(),
                        enabled,
                        undefined_is_error,
                        inner,
                    }))
                })
            }
        })
    }
}
