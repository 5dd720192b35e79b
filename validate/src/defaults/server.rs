//! The API server's hand-written defaulting, ported where a declarative rule reads what it sets.
//!
//! Before validating, the API server runs the defaulting functions registered for the object's group/version:
//! defaulter-gen's `SetObjectDefaults_<Kind>` (k8s.io/kubernetes
//! `pkg/apis/<group>/<version>/zz_generated.defaults.go`), which, at every struct of a type `T` it reaches (through
//! non-nil pointers, list items and non-pointer fields, never inside map values), calls the hand-written
//! `SetDefaults_T` of `defaults.go` first and then applies the `+default` tags of `T`'s fields. The tags are read
//! from the plan ([`crate::Defaulted`], `defaults.rs`); the hand-written functions are Go code, ported here function
//! by function.
//!
//! Only what matters to declarative validation is ported: the assignments to fields some declarative rule of the
//! release reads (a check on the field, a `subfield`/`eachVal`/`item` chain, a union or mode member, a list-map key,
//! required/optional presence, a type with rules). `tests/tests/server_defaults_oracle.rs` finds that set for each
//! release — every field a `SetDefaults_*` function (or a function it calls) assigns, type-checked with go/types,
//! intersected with the fields the plan's rules read — and asserts that [`SERVER_DEFAULTS`] ports exactly it, then
//! compares the ported fields after vgc's defaulting with the real Go defaulters' on random objects.
//!
//! Each port keeps Go's condition exactly, as it reads in JSON: a non-pointer string is unset when absent, `null`
//! or `""`; a pointer when absent or `null`; `len(list) == 0` when absent, `null` or `[]`; a list `== nil` only when
//! absent or `null` (`[]` decodes to a non-nil empty slice); a map `!= nil` when present and not `null`.

use serde_json::{Map, Value, json};
use vgc_ir::Upstream;

/// One ported hand-written defaulting function of k8s.io/kubernetes, for the releases where it sets a field a
/// declarative rule reads.
pub struct ServerDefault {
    /// The Go package of the function in k8s.io/kubernetes (`pkg/apis/core/v1`).
    pub package: &'static str,
    /// The function (`SetDefaults_PodSpec`), in the package's `defaults.go`.
    pub function: &'static str,
    /// The k8s.io/api type it takes: its package path and name (`k8s.io/api/core/v1`, `PodSpec`). The port runs
    /// where the defaulting walk meets a value of this type.
    pub ty: (&'static str, &'static str),
    /// The releases (vgc's upstream profiles) whose API server runs it and whose rules read what the port sets.
    pub releases: &'static [Upstream],
    /// The feature gate the Go code checks first, when it does (`utilfeature.DefaultFeatureGate.Enabled(...)`):
    /// the port runs only while it is on.
    pub gate: Option<&'static str>,
    /// The fields the port sets, each a struct of `ty`'s package and a Go field name
    /// (`("StatefulSetSpec", "PodManagementPolicy")`): exactly the fields the function sets that rules read.
    pub fields: &'static [(&'static str, &'static str)],
    /// The ported assignments.
    pub(crate) apply: fn(&mut Target<'_>),
}

impl std::fmt::Debug for ServerDefault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.package, self.function)
    }
}

/// A row is equal only to itself (each is one Go function of one package).
impl PartialEq for ServerDefault {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for ServerDefault {}

impl ServerDefault {
    /// How reports name it: `k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_PodSpec`.
    #[must_use]
    pub fn name(&self) -> String {
        format!("k8s.io/kubernetes {} {}", self.package, self.function)
    }
}

/// The JSON object of a value being defaulted (a struct of [`ServerDefault::ty`]) and what the port set in it.
pub(crate) struct Target<'v> {
    obj: &'v mut Map<String, Value>,
    /// The members set, in order: the path of JSON names below the object, and the value.
    pub(crate) sets: Vec<(&'static [&'static str], Value)>,
}

impl<'v> Target<'v> {
    /// A target on `obj`, nothing set yet.
    pub(crate) fn new(obj: &'v mut Map<String, Value>) -> Self {
        Self {
            obj,
            sets: Vec::new(),
        }
    }

    /// The member at `path` (JSON names); `None` when it or a parent is absent, or a parent is not an object.
    fn get(&self, path: &[&str]) -> Option<&Value> {
        let (last, parents) = path.split_last()?;
        let mut m: &Map<String, Value> = self.obj;
        for p in parents {
            m = m.get(*p)?.as_object()?;
        }
        m.get(*last)
    }

    /// Sets the member at `path`, creating absent or `null` parents (the non-pointer structs the Go code reaches
    /// through); a parent of another JSON type (which Go would refuse to decode) leaves the object unchanged.
    fn set(&mut self, path: &'static [&'static str], value: Value) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut m: &mut Map<String, Value> = self.obj;
        for p in parents {
            let slot = m.entry(*p).or_insert(Value::Null);
            if slot.is_null() {
                *slot = Value::Object(Map::new());
            }
            m = match slot {
                Value::Object(o) => o,
                _ => return,
            };
        }
        m.insert((*last).to_string(), value.clone());
        self.sets.push((path, value));
    }

    /// Go `v == ""` on a non-pointer string field.
    fn empty_str(&self, path: &[&str]) -> bool {
        matches!(self.get(path), None | Some(Value::Null))
            || self.get(path).and_then(Value::as_str) == Some("")
    }

    /// Go `v == nil` on a pointer, list or map field.
    fn nil(&self, path: &[&str]) -> bool {
        matches!(self.get(path), None | Some(Value::Null))
    }

    /// Go `len(v) == 0` on a list field.
    fn empty_list(&self, path: &[&str]) -> bool {
        match self.get(path) {
            None | Some(Value::Null) => true,
            Some(Value::Array(a)) => a.is_empty(),
            Some(_) => false,
        }
    }
}

const FROM_1_37: &[Upstream] = &[Upstream::V1_37, Upstream::V1_38];
const FROM_1_38: &[Upstream] = &[Upstream::V1_38];
const ONLY_1_37: &[Upstream] = &[Upstream::V1_37];

/// k8s.io/kubernetes `pkg/apis/core/v1/defaults.go` `SetDefaults_PodSpec`: `RestartPolicy = Always` when empty;
/// `SecurityContext = &PodSecurityContext{}` when nil.
fn pod_spec(o: &mut Target<'_>) {
    if o.empty_str(&["restartPolicy"]) {
        o.set(&["restartPolicy"], json!("Always"));
    }
    if o.nil(&["securityContext"]) {
        o.set(&["securityContext"], json!({}));
    }
}

/// k8s.io/kubernetes `pkg/apis/core/v1/defaults.go` `SetDefaults_Secret`: `Type = Opaque` when empty.
fn secret(o: &mut Target<'_>) {
    if o.empty_str(&["type"]) {
        o.set(&["type"], json!("Opaque"));
    }
}

/// k8s.io/kubernetes `pkg/apis/apps/{v1,v1beta2}/defaults.go` `SetDefaults_StatefulSet`:
/// `Spec.PodManagementPolicy = OrderedReady` when empty.
fn stateful_set(o: &mut Target<'_>) {
    if o.empty_str(&["spec", "podManagementPolicy"]) {
        o.set(&["spec", "podManagementPolicy"], json!("OrderedReady"));
    }
}

/// k8s.io/kubernetes `pkg/apis/apps/v1beta1/defaults.go` `SetDefaults_StatefulSet`:
/// `Spec.PodManagementPolicy = OrderedReady` when empty; when `Spec.Template.Labels` is not nil,
/// `Spec.Selector = &LabelSelector{MatchLabels: labels}` when nil.
fn stateful_set_v1beta1(o: &mut Target<'_>) {
    stateful_set(o);
    let labels = match o.get(&["spec", "template", "metadata", "labels"]) {
        // Go decodes a `null` label value as "".
        Some(Value::Object(m)) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), if v.is_null() { json!("") } else { v.clone() }))
                .collect(),
        ),
        _ => return,
    };
    if o.nil(&["spec", "selector"]) {
        o.set(&["spec", "selector"], json!({ "matchLabels": labels }));
    }
}

/// k8s.io/kubernetes `pkg/apis/autoscaling/v1/defaults.go` `SetDefaults_HorizontalPodAutoscaler`:
/// `Spec.MinReplicas = 1` when nil.
fn hpa_v1(o: &mut Target<'_>) {
    if o.nil(&["spec", "minReplicas"]) {
        o.set(&["spec", "minReplicas"], json!(1));
    }
}

/// k8s.io/kubernetes `pkg/apis/autoscaling/v2/defaults.go` `SetDefaults_HorizontalPodAutoscaler`:
/// `Spec.MinReplicas = 1` when nil; `Spec.Metrics` = one `Resource` metric on `cpu` with a `Utilization` target of
/// `autoscaling.DefaultCPUUtilization` (80) when `len(Spec.Metrics) == 0`.
fn hpa_v2(o: &mut Target<'_>) {
    hpa_v1(o);
    if o.empty_list(&["spec", "metrics"]) {
        o.set(
            &["spec", "metrics"],
            json!([{"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": 80}}}]),
        );
    }
}

/// k8s.io/kubernetes `pkg/apis/batch/v1/defaults.go` `SetDefaults_Job`: `Spec.Completions` and
/// `Spec.Parallelism` = 1 when both are nil; `Spec.Parallelism = 1` when nil; `Spec.BackoffLimit` when nil:
/// `math.MaxInt32` if `Spec.BackoffLimitPerIndex` is set, else 6.
fn job(o: &mut Target<'_>) {
    if o.nil(&["spec", "completions"]) && o.nil(&["spec", "parallelism"]) {
        o.set(&["spec", "completions"], json!(1));
        o.set(&["spec", "parallelism"], json!(1));
    }
    if o.nil(&["spec", "parallelism"]) {
        o.set(&["spec", "parallelism"], json!(1));
    }
    if o.nil(&["spec", "backoffLimit"]) {
        let limit = if o.nil(&["spec", "backoffLimitPerIndex"]) {
            6
        } else {
            i32::MAX
        };
        o.set(&["spec", "backoffLimit"], json!(limit));
    }
}

/// k8s.io/kubernetes `pkg/apis/certificates/v1beta1/defaults.go` `SetDefaults_CertificateSigningRequestSpec`:
/// `Usages = [digital signature, key encipherment]` when nil (an empty list is kept).
fn csr_spec(o: &mut Target<'_>) {
    if o.nil(&["usages"]) {
        o.set(
            &["usages"],
            json!(["digital signature", "key encipherment"]),
        );
    }
}

/// k8s.io/kubernetes `pkg/apis/resource/{v1,v1beta1,v1beta2}/defaults.go` `SetDefaults_ExactDeviceRequest` and
/// `SetDefaults_DeviceSubRequest`: `AllocationMode = ExactCount` when empty.
fn allocation_mode(o: &mut Target<'_>) {
    if o.empty_str(&["allocationMode"]) {
        o.set(&["allocationMode"], json!("ExactCount"));
    }
}

/// k8s.io/kubernetes `pkg/apis/resource/v1beta1/defaults.go` `SetDefaults_DeviceRequest`: nothing when
/// `DeviceClassName` is empty (the request has subrequests); else `AllocationMode = ExactCount` when empty.
fn device_request_v1beta1(o: &mut Target<'_>) {
    if o.empty_str(&["deviceClassName"]) {
        return;
    }
    allocation_mode(o);
}

/// k8s.io/kubernetes `pkg/apis/resource/v1alpha3/defaults.go` `SetDefaults_ResourcePoolStatusRequestSpec`:
/// `Limit = ResourcePoolStatusRequestLimitDefault` (100) when nil.
fn pool_status_request_spec(o: &mut Target<'_>) {
    if o.nil(&["limit"]) {
        o.set(&["limit"], json!(100));
    }
}

/// k8s.io/kubernetes v1.37 `pkg/apis/scheduling/{v1alpha3,v1beta1}/defaults.go` `SetDefaults_PodGroup` and
/// `SetDefaults_CompositePodGroup` (removed in 1.38): while `PodGroupPreemptionPolicy` is enabled,
/// `Spec.PreemptionPolicy = PreemptLowerPriority` when nil.
fn preemption_policy(o: &mut Target<'_>) {
    if o.nil(&["spec", "preemptionPolicy"]) {
        o.set(&["spec", "preemptionPolicy"], json!("PreemptLowerPriority"));
    }
}

/// k8s.io/kubernetes `pkg/apis/storage/{v1,v1beta1}/defaults.go` `SetDefaults_StorageClass`:
/// `ReclaimPolicy = Delete` and `VolumeBindingMode = Immediate`, each when nil.
fn storage_class(o: &mut Target<'_>) {
    if o.nil(&["reclaimPolicy"]) {
        o.set(&["reclaimPolicy"], json!("Delete"));
    }
    if o.nil(&["volumeBindingMode"]) {
        o.set(&["volumeBindingMode"], json!("Immediate"));
    }
}

/// k8s.io/kubernetes `pkg/apis/storage/{v1,v1beta1}/defaults.go` `SetDefaults_CSIDriver`:
/// `Spec.VolumeLifecycleModes = [Persistent]` when `len(...) == 0`.
fn csi_driver(o: &mut Target<'_>) {
    if o.empty_list(&["spec", "volumeLifecycleModes"]) {
        o.set(&["spec", "volumeLifecycleModes"], json!(["Persistent"]));
    }
}

/// A row of [`SERVER_DEFAULTS`] without a gate.
macro_rules! row {
    ($pkg:literal, $func:literal, $api:literal, $ty:literal, $releases:expr,
        [$(($owner:literal, $field:literal)),*], $apply:expr) => {
        row!($pkg, $func, $api, $ty, $releases, None, [$(($owner, $field)),*], $apply)
    };
    ($pkg:literal, $func:literal, $api:literal, $ty:literal, $releases:expr, $gate:expr,
        [$(($owner:literal, $field:literal)),*], $apply:expr) => {
        ServerDefault {
            package: $pkg,
            function: $func,
            ty: ($api, $ty),
            releases: $releases,
            gate: $gate,
            fields: &[$(($owner, $field)),*],
            apply: $apply,
        }
    };
}

/// Every ported function, by k8s.io/kubernetes package. Measured against the Go defaulters of k8s.io/kubernetes
/// v1.37.2 and v1.38.0-beta.0 by `tests/tests/server_defaults_oracle.rs` (which also asserts that the rows' fields
/// are exactly the fields, per release, that a hand-written default sets and a declarative rule reads).
pub static SERVER_DEFAULTS: &[ServerDefault] = &[
    row!(
        "pkg/apis/apps/v1",
        "SetDefaults_StatefulSet",
        "k8s.io/api/apps/v1",
        "StatefulSet",
        FROM_1_37,
        [("StatefulSetSpec", "PodManagementPolicy")],
        stateful_set
    ),
    row!(
        "pkg/apis/apps/v1beta1",
        "SetDefaults_StatefulSet",
        "k8s.io/api/apps/v1beta1",
        "StatefulSet",
        FROM_1_37,
        [
            ("StatefulSetSpec", "PodManagementPolicy"),
            ("StatefulSetSpec", "Selector")
        ],
        stateful_set_v1beta1
    ),
    row!(
        "pkg/apis/apps/v1beta2",
        "SetDefaults_StatefulSet",
        "k8s.io/api/apps/v1beta2",
        "StatefulSet",
        FROM_1_37,
        [("StatefulSetSpec", "PodManagementPolicy")],
        stateful_set
    ),
    row!(
        "pkg/apis/autoscaling/v1",
        "SetDefaults_HorizontalPodAutoscaler",
        "k8s.io/api/autoscaling/v1",
        "HorizontalPodAutoscaler",
        FROM_1_37,
        [("HorizontalPodAutoscalerSpec", "MinReplicas")],
        hpa_v1
    ),
    row!(
        "pkg/apis/autoscaling/v2",
        "SetDefaults_HorizontalPodAutoscaler",
        "k8s.io/api/autoscaling/v2",
        "HorizontalPodAutoscaler",
        FROM_1_37,
        [
            ("HorizontalPodAutoscalerSpec", "MinReplicas"),
            ("HorizontalPodAutoscalerSpec", "Metrics")
        ],
        hpa_v2
    ),
    row!(
        "pkg/apis/batch/v1",
        "SetDefaults_Job",
        "k8s.io/api/batch/v1",
        "Job",
        FROM_1_38,
        [
            ("JobSpec", "Completions"),
            ("JobSpec", "Parallelism"),
            ("JobSpec", "BackoffLimit")
        ],
        job
    ),
    row!(
        "pkg/apis/certificates/v1beta1",
        "SetDefaults_CertificateSigningRequestSpec",
        "k8s.io/api/certificates/v1beta1",
        "CertificateSigningRequestSpec",
        FROM_1_38,
        [("CertificateSigningRequestSpec", "Usages")],
        csr_spec
    ),
    row!(
        "pkg/apis/core/v1",
        "SetDefaults_PodSpec",
        "k8s.io/api/core/v1",
        "PodSpec",
        FROM_1_38,
        [("PodSpec", "RestartPolicy"), ("PodSpec", "SecurityContext")],
        pod_spec
    ),
    row!(
        "pkg/apis/core/v1",
        "SetDefaults_Secret",
        "k8s.io/api/core/v1",
        "Secret",
        FROM_1_37,
        [("Secret", "Type")],
        secret
    ),
    row!(
        "pkg/apis/resource/v1",
        "SetDefaults_DeviceSubRequest",
        "k8s.io/api/resource/v1",
        "DeviceSubRequest",
        FROM_1_37,
        [("DeviceSubRequest", "AllocationMode")],
        allocation_mode
    ),
    row!(
        "pkg/apis/resource/v1",
        "SetDefaults_ExactDeviceRequest",
        "k8s.io/api/resource/v1",
        "ExactDeviceRequest",
        FROM_1_37,
        [("ExactDeviceRequest", "AllocationMode")],
        allocation_mode
    ),
    row!(
        "pkg/apis/resource/v1alpha3",
        "SetDefaults_ResourcePoolStatusRequestSpec",
        "k8s.io/api/resource/v1alpha3",
        "ResourcePoolStatusRequestSpec",
        FROM_1_37,
        [("ResourcePoolStatusRequestSpec", "Limit")],
        pool_status_request_spec
    ),
    row!(
        "pkg/apis/resource/v1beta1",
        "SetDefaults_DeviceRequest",
        "k8s.io/api/resource/v1beta1",
        "DeviceRequest",
        FROM_1_37,
        [("DeviceRequest", "AllocationMode")],
        device_request_v1beta1
    ),
    row!(
        "pkg/apis/resource/v1beta1",
        "SetDefaults_DeviceSubRequest",
        "k8s.io/api/resource/v1beta1",
        "DeviceSubRequest",
        FROM_1_37,
        [("DeviceSubRequest", "AllocationMode")],
        allocation_mode
    ),
    row!(
        "pkg/apis/resource/v1beta2",
        "SetDefaults_DeviceSubRequest",
        "k8s.io/api/resource/v1beta2",
        "DeviceSubRequest",
        FROM_1_37,
        [("DeviceSubRequest", "AllocationMode")],
        allocation_mode
    ),
    row!(
        "pkg/apis/resource/v1beta2",
        "SetDefaults_ExactDeviceRequest",
        "k8s.io/api/resource/v1beta2",
        "ExactDeviceRequest",
        FROM_1_37,
        [("ExactDeviceRequest", "AllocationMode")],
        allocation_mode
    ),
    row!(
        "pkg/apis/scheduling/v1alpha3",
        "SetDefaults_CompositePodGroup",
        "k8s.io/api/scheduling/v1alpha3",
        "CompositePodGroup",
        ONLY_1_37,
        Some("PodGroupPreemptionPolicy"),
        [("CompositePodGroupSpec", "PreemptionPolicy")],
        preemption_policy
    ),
    row!(
        "pkg/apis/scheduling/v1alpha3",
        "SetDefaults_PodGroup",
        "k8s.io/api/scheduling/v1alpha3",
        "PodGroup",
        ONLY_1_37,
        Some("PodGroupPreemptionPolicy"),
        [("PodGroupSpec", "PreemptionPolicy")],
        preemption_policy
    ),
    row!(
        "pkg/apis/scheduling/v1beta1",
        "SetDefaults_PodGroup",
        "k8s.io/api/scheduling/v1beta1",
        "PodGroup",
        ONLY_1_37,
        Some("PodGroupPreemptionPolicy"),
        [("PodGroupSpec", "PreemptionPolicy")],
        preemption_policy
    ),
    row!(
        "pkg/apis/storage/v1",
        "SetDefaults_CSIDriver",
        "k8s.io/api/storage/v1",
        "CSIDriver",
        FROM_1_37,
        [("CSIDriverSpec", "VolumeLifecycleModes")],
        csi_driver
    ),
    row!(
        "pkg/apis/storage/v1",
        "SetDefaults_StorageClass",
        "k8s.io/api/storage/v1",
        "StorageClass",
        FROM_1_37,
        [
            ("StorageClass", "ReclaimPolicy"),
            ("StorageClass", "VolumeBindingMode")
        ],
        storage_class
    ),
    row!(
        "pkg/apis/storage/v1beta1",
        "SetDefaults_CSIDriver",
        "k8s.io/api/storage/v1beta1",
        "CSIDriver",
        FROM_1_37,
        [("CSIDriverSpec", "VolumeLifecycleModes")],
        csi_driver
    ),
    row!(
        "pkg/apis/storage/v1beta1",
        "SetDefaults_StorageClass",
        "k8s.io/api/storage/v1beta1",
        "StorageClass",
        FROM_1_37,
        [
            ("StorageClass", "ReclaimPolicy"),
            ("StorageClass", "VolumeBindingMode")
        ],
        storage_class
    ),
];

/// Whether a value of a type of package `pkg` belongs to the API server's own kinds: k8s.io/api.
#[must_use]
pub(crate) fn is_server_package(pkg: &str) -> bool {
    pkg.starts_with("k8s.io/api/")
}
