//! The formats family: `+k8s:format`.

use super::diagnostics::{TagDiagnostic, ValueKinds};
use super::tags::TagSite;
use super::*;
use vgc_ir::catalog::StrfmtTag;

impl Lowerer<'_> {
    /// `format` (upstream `validators/format.go`): a built-in format, or a project format from 1.38.
    pub(super) fn lower_strfmt(&mut self, t: &TagSite<'_>, which: StrfmtTag) -> Option<Vec<Check>> {
        let mk = |kind: CheckKind| t.check(kind);
        let s = || t.str();
        let refuse = |l: &mut Self, d: TagDiagnostic| l.refuse(t, d);
        let is_str = t.is_str();
        Some(match which {
            StrfmtTag::Format => {
                if !is_str {
                    return refuse(self, TagDiagnostic::WrongKind(ValueKinds::String));
                }
                let f = s().unwrap_or_default();
                let known = |format: Format| {
                    format != Format::K8sConditionReason
                        || vgc_ir::profile::upstream(self.db).condition_reason_format()
                };
                if let Some(format) = Format::from_name(&f).filter(|x| known(*x)) {
                    vec![mk(CheckKind::Format(
                        vgc_ir::profile::upstream(self.db).format_as_of(format),
                    ))]
                } else {
                    // kubernetes#142116: a name no built-in format has may be a project format (1.38 on).
                    match vgc_ir::extensions::project_format(self.db, &f) {
                        Some(p) if vgc_ir::profile::upstream(self.db).project_formats() => {
                            vec![mk(CheckKind::Matches(p))]
                        }
                        Some(_) => {
                            return refuse(self, TagDiagnostic::ProjectFormatBeforeV1_38(f));
                        }
                        None => {
                            // The hint lists the formats of the profile in force.
                            let supported: Vec<&'static str> = Format::ALL
                                .iter()
                                .copied()
                                .filter(|x| known(*x))
                                .map(Format::name)
                                .collect();
                            return refuse(self, TagDiagnostic::UnknownFormat(f, supported));
                        }
                    }
                }
            }
        })
    }
}
