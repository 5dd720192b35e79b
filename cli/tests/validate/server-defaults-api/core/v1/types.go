package v1

type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type ObjectMeta struct {
	Name string `json:"name,omitempty"`
}

// +k8s:enum
type RestartPolicy string

const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// SetDefaults_PodSpec (1.38): `RestartPolicy = Always` when empty, `SecurityContext = &PodSecurityContext{}` when
// nil.
type PodSpec struct {
	// +k8s:optional
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty"`
	// +k8s:required
	SecurityContext *PodSecurityContext `json:"securityContext,omitempty"`
}

// A rule inside the struct SetDefaults_PodSpec makes: its error lies in a defaulted field.
type PodSecurityContext struct {
	// +k8s:required
	// +k8s:minimum=0
	RunAsUser *int64 `json:"runAsUser,omitempty"`
}

type PodTemplateSpec struct {
	Metadata ObjectMeta `json:"metadata,omitempty"`
	Spec     PodSpec    `json:"spec,omitempty"`
}

type ReplicationController struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta                `json:"metadata,omitempty"`
	Spec     ReplicationControllerSpec `json:"spec,omitempty"`
}

type ReplicationControllerSpec struct {
	// The 1.38 alpha rule of apps/v1 and core/v1 controllers: the pods they make restart always.
	// +k8s:optional
	// +k8s:alpha(since: "1.38")=+k8s:subfield(spec)=+k8s:subfield(restartPolicy)=+k8s:eq="Always"
	Template *PodTemplateSpec `json:"template,omitempty"`
}

// +k8s:enum
type SecretType string

const (
	SecretTypeOpaque SecretType = "Opaque"
	SecretTypeTLS    SecretType = "kubernetes.io/tls"
)

// SetDefaults_Secret: `Type = Opaque` when empty.
type Secret struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata,omitempty"`
	// +k8s:required
	Type SecretType `json:"type,omitempty"`
}
