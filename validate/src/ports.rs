//! The runtime's ports of k8s.io/api's and apimachinery's `+k8s:customValidation` functions
//! (`vgc_runtime::k8s::PORTS`), called on interpreter values as the generated code calls them on typed ones.

use crate::value::Val;
use vgc_runtime::k8s::{self, Port};
use vgc_runtime::{ErrorList, Operation, Path};

/// Calls `port` with the decoded `new` and `old` values (`None` or [`Val::Nil`] for nil). A value of another
/// shape than the port's Go type cannot come from decoding the port's field; it is passed as nil.
pub(crate) fn call(
    port: &Port,
    op: &Operation,
    path: &Path<'_>,
    new: Option<&Val<'_>>,
    old: Option<&Val<'_>>,
) -> ErrorList {
    let string = |v: Option<&Val<'_>>| match v {
        Some(Val::Str(s)) => Some(s.clone()),
        _ => None,
    };
    let int32 = |v: Option<&Val<'_>>| match v {
        Some(Val::Int(i)) => i32::try_from(*i).ok(),
        _ => None,
    };
    let time = |v: Option<&Val<'_>>| match v {
        Some(Val::Time(t)) => Some(t.clone()),
        _ => None,
    };
    match port.rust_fn {
        "eviction_responder_name" => {
            let (n, o) = (string(new), string(old));
            k8s::eviction_responder_name(op, path, n.as_ref(), o.as_ref())
        }
        "eviction_request_spec_requester" => {
            let (n, o) = (string(new), string(old));
            k8s::eviction_request_spec_requester(op, path, n.as_ref(), o.as_ref())
        }
        "eviction_responder_priority" => {
            let (n, o) = (int32(new), int32(old));
            k8s::eviction_responder_priority(op, path, n.as_ref(), o.as_ref())
        }
        "security_profile_oci_ref" => {
            let (n, o) = (string(new), string(old));
            k8s::security_profile_oci_ref(op, path, n.as_ref(), o.as_ref())
        }
        "security_profile_oci_base_localhost_profile" => {
            let (n, o) = (string(new), string(old));
            k8s::security_profile_oci_base_localhost_profile(op, path, n.as_ref(), o.as_ref())
        }
        "condition_last_transition_time" => {
            let (n, o) = (time(new), time(old));
            k8s::condition_last_transition_time(op, path, n.as_ref(), o.as_ref())
        }
        other => unreachable!(
            "vgc_runtime::k8s::PORTS names {other}, which the interpreter does not call"
        ),
    }
}

#[cfg(test)]
mod tests {
    /// Every port of the runtime's table is callable here (a new port without a line above panics).
    #[test]
    fn every_port_is_called() {
        let op = vgc_runtime::Operation::default();
        for p in vgc_runtime::k8s::PORTS {
            let _ = super::call(p, &op, &vgc_runtime::Path::Root, None, None);
        }
    }
}
