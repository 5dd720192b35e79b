package subfield

// Outer applies rules to members of its nested structs.
type Outer struct {
	// +k8s:optional
	// +k8s:subfield(mode)=+k8s:maxLength=4
	// +k8s:subfield(mode)=+k8s:format=k8s-short-name
	// +k8s:subfield(count)=+k8s:minimum=1
	Net *Network `json:"net,omitempty"`

	// +k8s:subfield(inner)=+k8s:required
	Deep Deep `json:"deep,omitempty"`

	// +k8s:subfield(mode)=+k8s:immutable
	Fixed Network `json:"fixed,omitempty"`
}

// Network has its own short-circuit tags, which subfield inherits as NonError short-circuits.
type Network struct {
	// +k8s:required
	// +k8s:format=k8s-long-name
	Mode string `json:"mode"`
	// +k8s:optional
	Count *int32 `json:"count,omitempty"`
}

// Deep nests one more level.
type Deep struct {
	// +k8s:optional
	Inner *Leaf `json:"inner,omitempty"`
}

// Leaf is the innermost struct.
type Leaf struct {
	// +k8s:optional
	Name string `json:"name,omitempty"`
}
