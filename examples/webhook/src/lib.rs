//! A validating admission webhook on kube-rs' admission types: an `AdmissionReview` of a resource.k8s.io/v1 object
//! (ResourceClaim, DeviceClass, ResourceSlice, ResourceClaimTemplate) is answered with the declarative validation
//! of k8s.io/api — CREATE validates the object, UPDATE validates it against the old object (ratcheting unchanged
//! fields), as the API server does — allowed, or denied with the API server's own `422 Invalid` Status
//! (`vgc_runtime::status::invalid`, upstream `apierrors.NewInvalid`).
//!
//! The validators are generated at build time by vgc-build (`build.rs`) over k8s-openapi's structs and included
//! here: [`registry::validate_dynamic_object`] dispatches a kube-rs `DynamicObject` by its `apiVersion`/`kind`.
//!
//! ```ignore
//! let review: AdmissionReview<DynamicObject> = serde_json::from_slice(&body)?;
//! let answer = vgc_webhook_example::review(review, &Default::default());
//! ```

use kube_core::DynamicObject;
use kube_core::admission::{
    AdmissionRequest, AdmissionResponse, AdmissionReview, Operation as AdmissionOp,
};
use std::collections::BTreeMap;
use vgc_runtime::{Enforce, ErrorList, Operation, OptionGetter};

include!(concat!(env!("OUT_DIR"), "/vgc.rs"));

/// The validation options (feature gates, `+k8s:ifEnabled(Name)` / `ifDisabled`) as the webhook's API server has
/// them: the options named here are on or off as given; every other option is defined and off (an API server
/// defines every gate it has).
pub type Options = BTreeMap<String, bool>;

/// What the API server of Kubernetes 1.37 (whose k8s.io/api v0.37.2 `build.rs` compiles) enforces at its defaults:
/// standard and beta rules (its `DeclarativeValidationBeta` gate is on by default), not alpha ones — read from
/// `k8s.io/kubernetes@v1.37.2` `pkg/features/kube_features.go` by `vgc validate`'s release defaults
/// (`vgc::release`, docs/validate.md). Errors of the rules it does not enforce are returned as warnings.
pub const ENFORCE: Enforce = Enforce::Beta;

/// Answers an `AdmissionReview`: the review of [`respond`]'s response to its request (kube-rs'
/// `AdmissionResponse::into_review`, which carries the request's `apiVersion`/`kind`). A review without a request
/// is answered with kube-rs' `AdmissionResponse::invalid` (denied, no uid).
#[must_use]
pub fn review(
    review: AdmissionReview<DynamicObject>,
    options: &Options,
) -> AdmissionReview<DynamicObject> {
    let request: Result<AdmissionRequest<DynamicObject>, _> = review.try_into();
    match request {
        Ok(req) => respond(&req, options).into_review(),
        Err(e) => AdmissionResponse::invalid(e).into_review(),
    }
}

/// The response to one request (its `uid` echoed):
///
/// - CREATE: the object's errors (`validate_create` semantics); UPDATE: the object's errors against `oldObject`
///   (`validate_update`); the request's subresource (`status`, …) routes as upstream's registered validation does.
/// - Errors of rules the API server does not enforce ([`ENFORCE`]: alpha rules) do not deny: they are the
///   response's `warnings`, each `shadowed: <error>` (the API server computes them and lets its hand-written
///   validation decide).
/// - No errors: allowed. Errors: denied, `status` the API server's Status for them — code 422, reason `Invalid`,
///   message `<Kind>.<group> "<name>" is invalid: …`, one `details.causes` entry (field, message, reason) per error
///   — with the group and kind of the request's `kind` and the request's `name` (the object's `metadata.name` when
///   the request has none).
/// - DELETE and CONNECT, and kinds this webhook has no rules for: allowed (a validating webhook answers only for
///   what it knows; register it for `resource.k8s.io` resources).
/// - An object that is not one of its kind (a value of the wrong JSON type, no `apiVersion`/`kind`): denied with
///   code 400, reason `BadRequest`, as the API server refuses a body it cannot decode.
#[must_use]
pub fn respond(req: &AdmissionRequest<DynamicObject>, options: &Options) -> AdmissionResponse {
    let allowed = AdmissionResponse::from(req);
    let mut op = match req.operation {
        AdmissionOp::Create => Operation::create(),
        AdmissionOp::Update => Operation::update(),
        AdmissionOp::Delete | AdmissionOp::Connect => return allowed,
    };
    let Some(object) = &req.object else {
        return allowed;
    };
    let old = match req.operation {
        AdmissionOp::Update => req.old_object.as_ref(),
        _ => None,
    };
    op.options.clone_from(options);
    op.option_getter = Some(OptionGetter::new(|_| (false, true)));
    if let Some(sub) = req.sub_resource.as_deref().filter(|s| !s.is_empty()) {
        op.subresources = sub.split('/').map(str::to_string).collect();
    }
    match registry::validate_dynamic_object(object, old, &op).map(|errs| ENFORCE.split(errs)) {
        Ok((errs, shadowed)) => {
            let mut answer = if errs.is_empty() {
                allowed
            } else {
                deny(allowed, &invalid_status(req, object, &errs))
            };
            if !shadowed.is_empty() {
                answer.warnings = Some(shadowed.iter().map(|e| format!("shadowed: {e}")).collect());
            }
            answer
        }
        Err(registry::DispatchError::UnknownKind { .. }) => allowed,
        Err(e) => {
            let mut denied = allowed.deny(format!("the object cannot be validated: {e}"));
            denied.result.status = Some(kube_core::response::StatusSummary::Failure);
            denied.result.reason = "BadRequest".into();
            denied.result.code = 400;
            denied
        }
    }
}

/// The API server's Status for `errs` on the request's object: upstream `apierrors.NewInvalid` with the request's
/// group, kind and name.
#[must_use]
pub fn invalid_status(
    req: &AdmissionRequest<DynamicObject>,
    object: &DynamicObject,
    errs: &ErrorList,
) -> vgc_runtime::status::Status {
    let name = if req.name.is_empty() {
        object.metadata.name.as_deref().unwrap_or_default()
    } else {
        &req.name
    };
    vgc_runtime::status::invalid(&req.kind.group, &req.kind.kind, name, errs)
}

/// `allowed` denied with `status` as its `status` (kube-rs' `Status`: the same fields; it has no `kind`/`apiVersion`
/// of its own, which a webhook's result does not carry).
fn deny(allowed: AdmissionResponse, status: &vgc_runtime::status::Status) -> AdmissionResponse {
    let mut denied = allowed.deny(&status.message);
    // Both are serde models of metav1.Status: the conversion keeps every field kube-rs' Status has.
    denied.result = serde_json::to_value(status)
        .and_then(serde_json::from_value)
        .unwrap_or_else(|_| {
            kube_core::Status::failure(&status.message, &status.reason).with_code(422)
        });
    denied
}
