package v1

type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type ObjectMeta struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

// Widget has declarative rules.
// +k8s:supportsSubresource="/status"
type Widget struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata,omitempty"`
	Spec     WidgetSpec `json:"spec"`
}

type WidgetSpec struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Host string `json:"host"`
	// +k8s:optional
	// +k8s:minimum=0
	Replicas *int32 `json:"replicas,omitempty"`
	// +k8s:optional
	// +k8s:immutable
	Class string `json:"class,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	Ports []Port `json:"ports,omitempty"`
	// +k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:maxLength=8
	Note string `json:"note,omitempty"`
	// +k8s:optional
	// +k8s:ifEnabled(WidgetModes)=+k8s:maxLength=4
	Mode string `json:"mode,omitempty"`
}

type Port struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
}

// Gadget has no declarative rules.
type Gadget struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata,omitempty"`
	Size     int        `json:"size"`
}
