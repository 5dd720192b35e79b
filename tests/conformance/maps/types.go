package maps

// Maps covers map shapes.
type Maps struct {
	// +k8s:optional
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:maxLength=3
	Labels map[string]string `json:"labels,omitempty"`
	// +k8s:optional
	Structs map[string]Entry `json:"structs,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:minimum=1
	Ints map[string]int32 `json:"ints,omitempty"`
	// +k8s:optional
	Keyed KeyedMap `json:"keyed,omitempty"`
	// +k8s:optional
	// +k8s:eachKey=+k8s:maxLength=2
	Typed map[Key]string `json:"typed,omitempty"`
	// A map of lists (as SubjectAccessReviewSpec.Extra): no rules of its own (upstream refuses validations on a
	// map of slices), decoded with Go's zero values for `null` values and items.
	Extra map[string]ExtraValue `json:"extra,omitempty"`
}

// ExtraValue is a list typedef used as map values.
type ExtraValue []string

// Entry is a map value type with its own rules.
type Entry struct {
	// +k8s:required
	// +k8s:maxLength=3
	Name string `json:"name"`
}

// KeyedMap is a map typedef with type-level rules.
// +k8s:eachKey=+k8s:format=k8s-short-name
// +k8s:maxProperties=2
type KeyedMap map[string]Entry

// Key is a string typedef used as a map key.
// +k8s:format=k8s-short-name
type Key string

