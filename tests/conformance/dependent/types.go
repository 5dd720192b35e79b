package dependent

// Scaling: a trigger field requires or forbids others.
type Scaling struct {
	// +k8s:optional
	// +k8s:dependentRequired(max)
	// +k8s:dependentForbidden(fixed)
	Min *int32 `json:"min,omitempty"`
	// +k8s:optional
	Max *int32 `json:"max,omitempty"`
	// +k8s:optional
	Fixed *int32 `json:"fixed,omitempty"`
	// +k8s:optional
	// +k8s:dependentRequired(hosts)
	Name string `json:"name,omitempty"`
	// +k8s:optional
	Hosts []string `json:"hosts,omitempty"`
	// +k8s:optional
	// +k8s:dependentForbidden(name)
	Legacy map[string]string `json:"legacy,omitempty"`
}
