package lists

// Lists covers list metadata and per-element rules.
type Lists struct {
	// +k8s:optional
	// +k8s:listType=set
	Set []string `json:"set,omitempty"`
	// +k8s:optional
	// +k8s:listType=set
	StructSet []Pair `json:"structSet,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	Map []Item `json:"map,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=a
	// +k8s:listMapKey=b
	MultiKey []Pair `json:"multiKey,omitempty"`
	// +k8s:optional
	// +k8s:listType=atomic
	// +k8s:unique=set
	UniqueSet []int32 `json:"uniqueSet,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:customUnique
	Custom []Item `json:"custom,omitempty"`
	// +k8s:optional
	// +listType=atomic
	// +k8s:listType=atomic
	Atomic []Item `json:"atomic,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:minLength=2
	// +k8s:eachVal=+k8s:format=k8s-short-name
	Names []string `json:"names,omitempty"`
	// +k8s:optional
	Ptrs []*Item `json:"ptrs,omitempty"`
	// +k8s:optional
	Named ItemList `json:"named,omitempty"`
}

// Item is keyed by name.
type Item struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:optional
	// +k8s:maximum=9
	Value int32 `json:"value,omitempty"`
}

// Pair is keyed by two fields.
type Pair struct {
	// +k8s:optional
	A string `json:"a,omitempty"`
	// +k8s:optional
	B int32 `json:"b,omitempty"`
}

// ItemList is a list typedef carrying list metadata and type-level rules.
// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:maxItems=2
type ItemList []Item

// Conditions selects items by key with item(…).
type Conditions struct {
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "Ready")=+k8s:immutable
	// +k8s:item(type: "Progress")=+k8s:subfield(reason)=+k8s:maxLength=4
	// +k8s:item(type: "Stalled")=+k8s:subfield(reason)=+k8s:forbidden
	Conditions []Condition `json:"conditions,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=port
	// +k8s:listMapKey=tls
	// +k8s:item(port: 443, tls: true)=+k8s:subfield(name)=+k8s:format=k8s-short-name
	Ports []Port `json:"ports,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "Ready")=+k8s:zeroOrOneOfMember
	// +k8s:item(type: "Failed")=+k8s:zeroOrOneOfMember
	States []Condition `json:"states,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "A")=+k8s:unionMember
	// +k8s:item(type: "B")=+k8s:unionMember
	OneOf []*Condition `json:"oneOf,omitempty"`
}

// Condition is keyed by type.
type Condition struct {
	// +k8s:required
	Type string `json:"type"`
	// +k8s:optional
	Reason string `json:"reason,omitempty"`
}

// Port is keyed by (port, tls).
type Port struct {
	// +k8s:required
	Port int32 `json:"port"`
	// +k8s:optional
	TLS bool `json:"tls,omitempty"`
	// +k8s:optional
	Name string `json:"name,omitempty"`
}
