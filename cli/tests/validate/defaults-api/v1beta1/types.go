package v1beta1

type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type Gadget struct {
	TypeMeta `json:",inline"`
	Spec     GadgetSpec `json:"spec"`
}

type GadgetSpec struct {
	// +k8s:optional
	// +k8s:minimum=1
	Limit *int32 `json:"limit,omitempty"`
}
