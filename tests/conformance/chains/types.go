package chains

// ListMapHolder: a list-map typedef field with per-item rules (the key matcher needs the typedef's element type).
type ListMapHolder struct {
	// +k8s:eachVal=+k8s:immutable
	// +k8s:item(name: "pinned")=+k8s:immutable
	Items KeyedList `json:"items,omitempty"`
}

// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:item(name: "short")=+k8s:subfield(value)=+k8s:maxLength=1
type KeyedList []Item

type Item struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

// DeepHolder: a typedef of a list typedef validates its elements (not the inner typedef's own rules).
type DeepHolder struct {
	L  L2 `json:"l,omitempty"`
	L1 L1 `json:"l1,omitempty"`
}

type Inner struct {
	// +k8s:maxLength=2
	S string `json:"s,omitempty"`
}

// +k8s:eachVal=+k8s:subfield(s)=+k8s:minLength=2
type L1 []Inner

type L2 L1

// E4Holder: `type E4 T2` over a struct has T2's members and their rules, not T2's type rules.
type E4Holder struct {
	E  E4  `json:"e"`
	PE *E4 `json:"pe,omitempty"`
}

// +k8s:subfield(s)=+k8s:minLength=2
type T2 struct {
	// +k8s:maxLength=2
	S string `json:"s,omitempty"`
}

type E4 T2

// FrozenHolder: the type rules of a non-struct typedef run on a nil pointer too.
type FrozenHolder struct {
	F *Frozen `json:"f,omitempty"`
}

// +k8s:immutable
type Frozen string

// Values: how values print in error details.
type Values struct {
	// +k8s:validateFalse="float"
	F *float64 `json:"f,omitempty"`
	// +k8s:validateFalse="str"
	S string `json:"s,omitempty"`
	// +k8s:validateFalse="list"
	L []string `json:"l,omitempty"`
	// +k8s:listType=set
	Set []string `json:"set,omitempty"`
}

// Embedder: `n` is declared by two embedded structs at the same depth, both tagged, so Go's encoding/json ignores
// it (neither gets a value); `s` is only in EmbB.
type Embedder struct {
	EmbA  `json:""`
	*EmbB `json:""`
}

type EmbA struct {
	// +k8s:maximum=0
	N int32 `json:"n"`
}

type EmbB struct {
	// +k8s:maximum=0
	N int32 `json:"n"`
	// +k8s:maxLength=1
	S string `json:"s"`
}
