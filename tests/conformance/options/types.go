package options

// Gated: rules that apply only while an option (feature gate) is enabled or disabled.
type Gated struct {
	// +k8s:ifEnabled(GPU)=+k8s:optional
	// +k8s:ifDisabled(GPU)=+k8s:forbidden
	// +k8s:ifEnabled(GPU)=+k8s:minimum=1
	GPUs *int32 `json:"gpus,omitempty"`

	// +k8s:optional
	// +k8s:ifEnabled(StrictNames)=+k8s:format=k8s-short-name
	Name string `json:"name,omitempty"`

	// +k8s:ifDisabled(Relaxed)=+k8s:required
	// +k8s:ifEnabled(Relaxed)=+k8s:optional
	Owner *string `json:"owner,omitempty"`

	// +k8s:optional
	// +k8s:ifEnabled(Limits)=+k8s:maxItems=1
	// +k8s:eachVal=+k8s:ifEnabled(Limits)=+k8s:maxLength=2
	Tags []string `json:"tags,omitempty"`
}
