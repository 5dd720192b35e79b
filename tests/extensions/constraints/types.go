package constraints

// Small is an integer typedef: constraints see through typedef chains.
type Small int16

// Count is a typedef of a typedef.
type Count Small

// Limits holds bounds referenced by a child path (`limits.maxValue`).
type Limits struct {
	// +k8s:optional
	MaxValue *int64 `json:"maxValue,omitempty"`
}

// Common is embedded inline: its fields are named without a segment (`floor`).
type Common struct {
	Floor uint8 `json:"floor"`
}

// Config is the KEP's example: a value between two limits, one a sibling, one a child of a sibling. The tag on
// the type is the KEP's `target:` form: the constrained field (a child of a sibling, behind a pointer) is named
// from the struct that runs the check.
// +k8s:minimum(target: limits.maxValue, constraint: floor)
type Config struct {
	Common `json:",inline"`

	// +k8s:optional
	MinValue *int32 `json:"minValue,omitempty"`
	// +k8s:optional
	Limits *Limits `json:"limits,omitempty"`

	// +k8s:optional
	// +k8s:minimum(constraint: minValue)
	// +k8s:maximum(constraint: limits.maxValue)
	Current *int32 `json:"current,omitempty"`

	// Exclusive bounds, integers of other widths and typedefs on both sides.
	// +k8s:exclusiveMinimum(constraint: floor)
	// +k8s:exclusiveMaximum(constraint: ceiling)
	Level Count `json:"level"`
	Ceiling uint64 `json:"ceiling"`

	// A constant bound and a field-path bound on one field.
	// +k8s:optional
	// +k8s:minimum=1
	// +k8s:maximum(constraint: ceiling)
	Replicas int64 `json:"replicas"`

	// Per element, KEP-5073's "Comprehensive Example": each threshold at most maxThreshold. The list is atomic, so
	// an item is unchanged (ratcheted) only when the whole list is.
	MaxThreshold int `json:"maxThreshold"`
	// +k8s:eachVal=+k8s:maximum(constraint: maxThreshold)
	Thresholds []int `json:"thresholds"`

	// A set of typedef items: an item is unchanged when the old set holds it. The bound is a nilable sibling.
	// +k8s:optional
	// +k8s:listType=set
	// +k8s:eachVal=+k8s:exclusiveMinimum(constraint: minValue)
	Levels []Count `json:"levels"`

	// Pointer items (nil ones are not checked) against a child of a sibling behind two pointers.
	// +k8s:eachVal=+k8s:exclusiveMaximum(constraint: limits.maxValue)
	Steps []*int32 `json:"steps"`

	// Map values, each at its key, against the inline-embedded floor.
	// +k8s:eachVal=+k8s:minimum(constraint: floor)
	Quotas map[string]int64 `json:"quotas"`

	// A list typedef, and a map of pointers (nil values are not checked).
	// +k8s:eachVal=+k8s:minimum(constraint: level)
	Weights Weights `json:"weights"`
	// +k8s:eachVal=+k8s:maximum(constraint: replicas)
	Caps map[string]*int32 `json:"caps"`
}

// Weights is a list typedef: the form per element sees through it.
type Weights []uint16

// Root is the kind: its spec holds the constrained struct, so error paths start at spec.
type Root struct {
	Spec Config `json:"spec"`
}
