package modes

// Delivery: a string discriminator selects the rules of each member; a member without a rule for the current
// mode is forbidden.
type Delivery struct {
	// +k8s:modeDiscriminator
	// +k8s:optional
	Mode string `json:"mode,omitempty"`

	// +k8s:ifMode(Push)=+k8s:required
	// +k8s:ifMode(Push)=+k8s:format=k8s-long-name
	Endpoint *string `json:"endpoint,omitempty"`

	// +k8s:ifMode(Pull)=+k8s:optional
	// +k8s:ifMode(Pull)=+k8s:minimum=10
	Interval *int32 `json:"interval,omitempty"`

	// +k8s:ifMode(Push)=+k8s:optional
	// +k8s:ifMode(Pull)=+k8s:optional
	// +k8s:ifMode(Pull)=+k8s:maxItems=1
	Targets []string `json:"targets,omitempty"`

	// +k8s:modeDiscriminator(modality: tls)
	Secure bool `json:"secure,omitempty"`

	// +k8s:ifMode(mode: "true", modality: tls)=+k8s:required
	CertRef *string `json:"certRef,omitempty"`

	// +k8s:ifMode(mode: "false", modality: tls)=+k8s:optional
	Insecure *string `json:"insecure,omitempty"`
}
