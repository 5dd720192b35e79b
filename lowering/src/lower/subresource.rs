//! The subresource family (vgc extension): `+k8s:ifSubresource`, `+k8s:ifNotSubresource`.

use super::diagnostics::TagDiagnostic;
use super::tags::{TagSite, wrap_each};
use super::*;
use vgc_ir::catalog::SubresourceTag;
use vgc_ir::checked::Checked as _;

impl Lowerer<'_> {
    /// vgc extension (KEP-5073 "Subresources") `ifSubresource`, `ifNotSubresource`: the payload's checks,
    /// each wrapped in a subresource condition.
    pub(super) fn lower_subresource(
        &mut self,
        t: &TagSite<'_>,
        which: SubresourceTag,
    ) -> Option<Vec<Check>> {
        let TagSite { tag, id, .. } = *t;
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        Some(match which {
            SubresourceTag::IfSubresource | SubresourceTag::IfNotSubresource => {
                // vgc extension (KEP-5073 "Subresources"): the payload's checks run only when (or unless) the
                // request's subresource path is the argument; like `IfOption`, the wrapper keeps its inner
                // check's flags.
                // Extensions off: the use is `check_file`'s VGC0116 (`vgc_ir::extension_tags::disabled`), and
                // nothing of it is lowered (reached here only as a payload another tag's lowering reads again, such
                // as `item(…)=`; the declaration's own loop skips the use).
                if !vgc_ir::extension_tags::enabled(self.db) {
                    return None;
                }
                let inner = tag.inner()?;
                let path = tag.str_positional().map(str::to_string)?;
                if !path.starts_with('/') {
                    return refuse(self, TagDiagnostic::SubresourcePath(path.clone()));
                }
                if let Some(bad) = unconditionable(inner) {
                    return refuse(self, TagDiagnostic::SubresourcePayload(bad));
                }
                let inner_checks = self.lower_payload(t, inner)?;
                wrap_each(inner_checks, id, |inner| {
                    CheckKind::IfSubresource(Box::new(IfSubresourcePlan {
                        path: path.clone(),
                        negated: id == TagId::IfNotSubresource,
                        inner,
                    }))
                })
            }
        })
    }
}

/// The innermost tag of `payload` (through `alpha`/`beta`, `ifEnabled`/`ifDisabled` and nested subresource
/// conditions) when a subresource condition cannot wrap it: a tag that makes no check of the value it is written on
/// (list metadata, struct-level tags, `item`, `opaqueType`) or whose meaning cannot depend on the request
/// (requiredness, which also decides whether the value's other checks run). `None` when it can.
fn unconditionable(payload: &Tag) -> Option<TagId> {
    let mut cur = payload;
    loop {
        let id = cur.tag_id()?;
        let spec = id.spec();
        match spec.role {
            Role::Wrapper(Wrap::Level | Wrap::Option | Wrap::Subresource) => cur = cur.inner()?,
            Role::Read(_) => return Some(id),
            Role::Checks if spec.family() == Family::Required => return Some(id),
            Role::Checks | Role::Wrapper(Wrap::Each | Wrap::Subfield) => return None,
        }
    }
}
