package subresources

// TypeMeta marks root types.
type TypeMeta struct {
	Kind string `json:"kind,omitempty"`
}

// Widget is validated for the main resource and the status and scale subresources.
// +k8s:supportsSubresource="/status"
// +k8s:supportsSubresource="/scale"
type Widget struct {
	TypeMeta `json:",inline"`

	// +k8s:optional
	// +k8s:maxLength=5
	Name string `json:"name,omitempty"`
}

// WidgetStatus is validated only as the status subresource.
// +k8s:isSubresource="/status"
type WidgetStatus struct {
	TypeMeta `json:",inline"`

	// +k8s:required
	Phase string `json:"phase"`
}

// Plain is validated only for the main resource.
type Plain struct {
	TypeMeta `json:",inline"`

	// +k8s:required
	Name string `json:"name"`
}
