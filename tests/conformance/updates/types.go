package updates

// Immutables: immutable on every shape.
type Immutables struct {
	// +k8s:optional
	// +k8s:immutable
	Str string `json:"str,omitempty"`
	// +k8s:optional
	// +k8s:immutable
	Ptr *int32 `json:"ptr,omitempty"`
	// +k8s:optional
	// +k8s:immutable
	List []string `json:"list,omitempty"`
	// +k8s:optional
	// +k8s:immutable
	Map map[string]string `json:"map,omitempty"`
	// +k8s:optional
	// +k8s:immutable
	Struct *Part `json:"struct,omitempty"`
	// +k8s:optional
	Frozen Frozen `json:"frozen,omitempty"`
}

// Frozen is immutable at the type level.
// +k8s:immutable
type Frozen string

// Part is a list-map item.
type Part struct {
	// +k8s:required
	Name string `json:"name"`
	// +k8s:optional
	Size int32 `json:"size,omitempty"`
}

// Updates: update constraints.
type Updates struct {
	// +k8s:optional
	// +k8s:update=NoSet
	NoSet *string `json:"noSet,omitempty"`
	// +k8s:optional
	// +k8s:update=NoUnset
	NoUnset *string `json:"noUnset,omitempty"`
	// +k8s:optional
	// +k8s:update=NoModify
	NoModify *string `json:"noModify,omitempty"`
	// +k8s:optional
	// +k8s:update=NoSet
	// +k8s:update=NoModify
	Value string `json:"value,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:update=NoAddItem
	// +k8s:update=NoRemoveItem
	Parts []Part `json:"parts,omitempty"`
	// +k8s:optional
	// +k8s:listType=set
	// +k8s:update=NoRemoveItem
	Tags []string `json:"tags,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:update=NoModify
	Labels map[string]string `json:"labels,omitempty"`
}

// Counters: monotonic and neq.
type Counters struct {
	// +k8s:optional
	// +k8s:monotonic
	Generation int64 `json:"generation,omitempty"`
	// +k8s:optional
	// +k8s:monotonic
	Revision *int32 `json:"revision,omitempty"`
	// +k8s:optional
	// +k8s:neq="default"
	Profile string `json:"profile,omitempty"`
	// +k8s:optional
	// +k8s:neq=0
	Step *int32 `json:"step,omitempty"`
	// +k8s:optional
	// +k8s:neq=true
	Flag *bool `json:"flag,omitempty"`
}
