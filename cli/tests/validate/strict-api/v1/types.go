package v1

type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type ObjectMeta struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// Thing has one rule, so it has a validation function.
type Thing struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata,omitempty"`
	// An embedded pointer: its fields are Thing's keys.
	*Extra
	// Both declare `dup` at the same depth: Go drops it.
	Left  `json:",inline"`
	Right `json:",inline"`
	// Not serialized: `Raw` is no key.
	Raw string `json:"-"`
	// +k8s:optional
	// +k8s:maxProperties=4
	Slots map[string]Slot `json:"slots,omitempty"`
	Items []Slot          `json:"items,omitempty"`
}

type Extra struct {
	Color string `json:"color,omitempty"`
}

type Left struct {
	Dup  string `json:"dup,omitempty"`
	Lone string `json:"lone,omitempty"`
}

type Right struct {
	Dup string `json:"dup,omitempty"`
}

type Slot struct {
	Size int32 `json:"size"`
}
