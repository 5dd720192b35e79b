package wrapped

// GatedLists: list metadata and item unions behind option gates; only the functions they produce are gated.
type GatedLists struct {
	// +k8s:ifEnabled(FeatureX)=+k8s:listType=map
	// +k8s:ifEnabled(FeatureX)=+k8s:listMapKey=name
	// +k8s:eachVal=+k8s:immutable
	ListMap []Item `json:"listMap,omitempty"`

	// +k8s:ifDisabled(FeatureX)=+k8s:listType=set
	Set []string `json:"set,omitempty"`

	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:ifEnabled(FeatureX)=+k8s:item(name: "a")=+k8s:zeroOrOneOfMember
	// +k8s:ifEnabled(FeatureX)=+k8s:item(name: "b")=+k8s:zeroOrOneOfMember
	// +k8s:ifDisabled(FeatureX)=+k8s:item(name: "c")=+k8s:subfield(value)=+k8s:maxLength=1
	Items []Item `json:"items,omitempty"`
}

type Item struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

// GatedUnions: union, zero-or-one-of and dependent-field functions behind option gates.
type GatedUnions struct {
	// +k8s:ifEnabled(FeatureX)=+k8s:unionDiscriminator
	D string `json:"d,omitempty"`
	// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
	A *string `json:"a,omitempty"`
	// +k8s:ifEnabled(FeatureX)=+k8s:unionMember
	B *string `json:"b,omitempty"`

	// +k8s:ifDisabled(FeatureX)=+k8s:zeroOrOneOfMember
	C *string `json:"c,omitempty"`
	// +k8s:ifDisabled(FeatureX)=+k8s:zeroOrOneOfMember
	E *string `json:"e,omitempty"`

	// +k8s:ifEnabled(FeatureX)=+k8s:dependentRequired(f)
	T *string `json:"t,omitempty"`
	F *string `json:"f,omitempty"`
}

// GatedModes: a mode discriminator and its rules behind an option gate.
type GatedModes struct {
	// +k8s:ifEnabled(FeatureZ)=+k8s:modeDiscriminator
	Mode string `json:"mode,omitempty"`

	// +k8s:ifEnabled(FeatureZ)=+k8s:ifMode("A")=+k8s:required
	FieldA *string `json:"fieldA,omitempty"`

	// +k8s:ifEnabled(FeatureZ)=+k8s:ifMode("B")=+k8s:optional
	FieldB *string `json:"fieldB,omitempty"`
}

// Subfields: list metadata and a union declared on the members of a struct field through `subfield`.
type Subfields struct {
	// +k8s:subfield(list)=+k8s:listType=map
	// +k8s:subfield(list)=+k8s:listMapKey=name
	// +k8s:subfield(set)=+k8s:listType=set
	// +k8s:subfield(d)=+k8s:unionDiscriminator
	// +k8s:subfield(m1)=+k8s:unionMember
	// +k8s:subfield(m2)=+k8s:unionMember
	Sub Sub `json:"sub"`
}

type Sub struct {
	List []Item  `json:"list,omitempty"`
	Set  []string `json:"set,omitempty"`
	D    string   `json:"d,omitempty"`
	M1   *int32   `json:"m1,omitempty"`
	M2   *int32   `json:"m2,omitempty"`
}

// Named: a type-level `subfield` on a struct type.
// +k8s:subfield(name)=+k8s:maxLength=3
type Named struct {
	Name string `json:"name,omitempty"`
}

// TaskHolder: item unions declared on a list typedef.
type TaskHolder struct {
	Tasks TaskList `json:"tasks,omitempty"`
}

// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:item(name: "succeeded")=+k8s:unionMember
// +k8s:item(name: "failed")=+k8s:unionMember
type TaskList []Item
