package structure

import "vgc.test/conformance/structure/other"

// Name has type-level rules; Alias is a typedef of it (a chain: Alias's own tags and Name's apply).
// +k8s:maxLength=6
type Name string

// Alias chains to Name.
// +k8s:format=k8s-short-name
type Alias Name

// Root exercises structural shapes, in field order.
type Root struct {
	// Embedded inline: its fields appear at this level, its rules run with paths at this level.
	Common `json:",inline"`

	// +k8s:optional
	Name Name `json:"name,omitempty"`

	// +k8s:optional
	Alias *Alias `json:"alias,omitempty"`

	// Not serialized: no validation is generated for it.
	// +k8s:required
	Hidden string `json:"-"`

	// +k8s:optional
	Tree *Node `json:"tree,omitempty"`

	// +k8s:optional
	Ptrs []*Leaf `json:"ptrs,omitempty"`

	// +k8s:optional
	Ref *other.Thing `json:"ref,omitempty"`

	// +k8s:optional
	Refs []other.Thing `json:"refs,omitempty"`

	// +k8s:optional
	ByName map[string]other.Thing `json:"byName,omitempty"`

	Leaf Leaf `json:"leaf,omitempty"`

	// +k8s:optional
	// +k8s:maxItems=1
	Aliases []Alias `json:"aliases,omitempty"`

	// +k8s:optional
	Level other.Level `json:"level,omitempty"`

	// Opaque: the field's type is not validated through this field.
	// +k8s:optional
	// +k8s:opaqueType
	Opaque *Leaf `json:"opaque,omitempty"`

	// Opaque through a stability wrapper.
	// +k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:opaqueType
	AlphaOpaque *Leaf `json:"alphaOpaque,omitempty"`

	// Opaque elements: the list's own rules run, its elements' do not.
	// +k8s:optional
	// +k8s:maxItems=2
	// +k8s:eachVal=+k8s:opaqueType
	OpaqueLeaves []Leaf `json:"opaqueLeaves,omitempty"`
}

// Common is embedded inline.
type Common struct {
	// +k8s:required
	// +k8s:maxLength=4
	ID string `json:"id"`
}

// Node is recursive.
type Node struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Label string `json:"label"`

	// +k8s:optional
	// +k8s:maxItems=2
	Children []Node `json:"children,omitempty"`

	// +k8s:optional
	Next *Node `json:"next,omitempty"`
}

// Leaf has two checks whose order is part of the result.
type Leaf struct {
	// +k8s:optional
	// +k8s:maxLength=3
	// +k8s:format=k8s-short-name
	Value string `json:"value,omitempty"`

	// +k8s:optional
	// +k8s:minimum=1
	Weight int32 `json:"weight,omitempty"`
}

// EmbeddedPtr embeds a struct by pointer (R9): Go's encoding/json allocates it when one of its JSON names is
// present, and validation skips it when nil.
type EmbeddedPtr struct {
	// +k8s:optional
	*PtrInner `json:",inline"`
	// +k8s:optional
	// +k8s:maxLength=2
	C string `json:"c,omitempty"`
}

// PtrInner is embedded by pointer into EmbeddedPtr.
type PtrInner struct {
	// +k8s:required
	// +k8s:maxLength=3
	A string `json:"a"`
	PtrDeeper `json:",inline"`
}

// PtrDeeper is embedded by value into PtrInner.
type PtrDeeper struct {
	// +k8s:optional
	// +k8s:maxLength=1
	D string `json:"d,omitempty"`
}
