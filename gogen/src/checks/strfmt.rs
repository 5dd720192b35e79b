//! `format` (upstream `validators/format.go` `getFormatValidationFunction`; `validate/strfmt.go`).

use crate::Gen;
use vgc_runtime::formats::Format;

pub(super) fn call(g: &mut Gen<'_>, f: Format) -> Option<String> {
    let name = match f {
        Format::K8sConditionReason => "ConditionReason",
        Format::K8sExtendedResourceName => "ExtendedResourceName",
        Format::K8sLabelKey => "LabelKey",
        Format::K8sLabelValue => "LabelValue",
        Format::K8sLongName => "LongName",
        Format::K8sLongNameCaseless => "LongNameCaseless",
        Format::K8sPathSegmentName => "PathSegmentName",
        Format::K8sPrefixedLabelKey => "PrefixedLabelKey",
        Format::K8sResourceFullyQualifiedName | Format::K8sResourceFullyQualifiedNameV1_38 => {
            "ResourceFullyQualifiedName"
        }
        Format::K8sResourcePoolName => "ResourcePoolName",
        Format::K8sShortName => "ShortName",
        Format::K8sUuid => "UUID",
    };
    Some(super::validate_call(g, name, &[]))
}
