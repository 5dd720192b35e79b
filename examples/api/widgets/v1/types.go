package v1

import metav1 "example.com/widgets/meta/v1"

// Widget is a root type: it has a TypeMeta field. Its validation also serves the status subresource.
// +k8s:supportsSubresource="/status"
type Widget struct {
	metav1.TypeMeta `json:",inline"`

	// +k8s:optional
	Metadata *metav1.ObjectMeta `json:"metadata,omitempty"`

	// +k8s:required
	Spec *WidgetSpec `json:"spec,omitempty"`
}

// WidgetSpec shows field-level tags.
type WidgetSpec struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	// +k8s:maxLength=20
	// +k8s:immutable
	DisplayName string `json:"displayName"`

	// +k8s:optional
	// +k8s:minimum=1
	// +k8s:maximum=10
	Replicas *int32 `json:"replicas,omitempty"`

	// +k8s:optional
	// +k8s:maxBytes=64
	// +k8s:minLength=2
	Description string `json:"description,omitempty"`

	// +k8s:optional
	Color Color `json:"color,omitempty"`

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:maxItems=3
	// +k8s:minItems=1
	// +k8s:update=NoRemoveItem
	Ports []Port `json:"ports,omitempty"`

	// +k8s:optional
	// +k8s:listType=set
	// +k8s:eachVal=+k8s:format=k8s-long-name
	// +k8s:update=NoAddItem
	Hosts []string `json:"hosts,omitempty"`

	// +k8s:optional
	// +k8s:maxProperties=2
	// +k8s:eachKey=+k8s:format=k8s-label-key
	Annotations map[string]string `json:"annotations,omitempty"`

	// +k8s:optional
	// +k8s:update=NoSet
	// +k8s:update=NoUnset
	Owner *string `json:"owner,omitempty"`

	// +k8s:forbidden
	Legacy *string `json:"legacy,omitempty"`

	// +k8s:optional
	// +k8s:beta(since: "1.37")=+k8s:maxItems=2
	Tags []string `json:"tags,omitempty"`

	// +k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:format=k8s-uuid
	Token string `json:"token,omitempty"`

	// +k8s:optional
	Backends []*Backend `json:"backends,omitempty"`

	// +k8s:optional
	// +k8s:subfield(mode)=+k8s:maxLength=8
	Network *Network `json:"network,omitempty"`

	// +k8s:optional
	Defaults *Defaults `json:"defaults,omitempty"`

	// +k8s:optional
	Endpoint *Endpoint `json:"endpoint,omitempty"`

	// +k8s:optional
	Source *Source `json:"source,omitempty"`

	// +k8s:optional
	Accelerators *Accelerators `json:"accelerators,omitempty"`

	// +k8s:optional
	Scaling *Scaling `json:"scaling,omitempty"`

	// +k8s:optional
	Delivery *Delivery `json:"delivery,omitempty"`

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "Ready")=+k8s:immutable
	// +k8s:item(type: "Ready")=+k8s:zeroOrOneOfMember
	// +k8s:item(type: "Failed")=+k8s:zeroOrOneOfMember
	// +k8s:item(type: "Progress")=+k8s:subfield(status)=+k8s:maxLength=5
	Conditions []Condition `json:"conditions,omitempty"`

	// +k8s:optional
	Probe *Probe `json:"probe,omitempty"`

	// +k8s:optional
	Sizing *Sizing `json:"sizing,omitempty"`
}

// Sizing uses an enum with an option-dependent exclusion.
type Sizing struct {
	// +k8s:optional
	Size Size `json:"size,omitempty"`
}

// Size is an enum; XLarge is only accepted while the WidgetXL option is enabled.
// +k8s:enum
type Size string

const (
	SizeSmall Size = "Small"
	SizeLarge Size = "Large"
	// +k8s:ifDisabled(WidgetXL)=+k8s:enumExclude
	SizeXLarge Size = "XLarge"
)

// Probe carries the validate* test tags (upstream uses them in its own tests): flags, cohorts, fixed results.
type Probe struct {
	// +k8s:validateFalse(flags: "ShortCircuit")="stop here"
	// +k8s:validateFalse="never reached"
	// +k8s:validateTrue="fine"
	A *string `json:"a,omitempty"`

	// +k8s:validateFalse(cohort: "c1")="in c1"
	B string `json:"b,omitempty"`
}

// Condition is a list-map item keyed by type.
type Condition struct {
	// +k8s:required
	Type string `json:"type"`

	// +k8s:optional
	Status string `json:"status,omitempty"`
}

// Delivery shows modes: a discriminator selects which rules apply to each field; a field with no rule for the
// current mode is forbidden.
type Delivery struct {
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`

	// +k8s:ifMode(Push)=+k8s:required
	// +k8s:ifMode(Push)=+k8s:format=k8s-long-name
	Endpoint *string `json:"endpoint,omitempty"`

	// +k8s:ifMode(Pull)=+k8s:optional
	// +k8s:ifMode(Pull)=+k8s:minimum=10
	IntervalSeconds *int32 `json:"intervalSeconds,omitempty"`

	// +k8s:modeDiscriminator(modality: tls)
	Secure bool `json:"secure,omitempty"`

	// +k8s:ifMode(mode: "true", modality: tls)=+k8s:required
	CertRef *string `json:"certRef,omitempty"`
}

// Scaling shows dependent fields, monotonic and neq.
type Scaling struct {
	// +k8s:optional
	// +k8s:dependentRequired(max)
	// +k8s:dependentForbidden(fixed)
	Min *int32 `json:"min,omitempty"`

	// +k8s:optional
	// +k8s:monotonic
	Max *int32 `json:"max,omitempty"`

	// +k8s:optional
	Fixed *int32 `json:"fixed,omitempty"`

	// +k8s:optional
	// +k8s:neq="default"
	Profile string `json:"profile,omitempty"`

	// +k8s:optional
	// +k8s:neq=-1
	Step *int64 `json:"step,omitempty"`
}

// Accelerators shows validation options (feature gates): the caller defines them in the Operation.
type Accelerators struct {
	// +k8s:ifEnabled(WidgetGPU)=+k8s:optional
	// +k8s:ifDisabled(WidgetGPU)=+k8s:forbidden
	// +k8s:ifEnabled(WidgetGPU)=+k8s:minimum=1
	GPUs *int32 `json:"gpus,omitempty"`
}

// Endpoint is a union: exactly one of host and ip must be set.
type Endpoint struct {
	// +k8s:unionMember
	// +k8s:optional
	Host *string `json:"host,omitempty"`

	// +k8s:unionMember
	// +k8s:optional
	IP *string `json:"ip,omitempty"`
}

// SourceType selects the member of Source that is set.
type SourceType string

// Source is a discriminated union (type selects git or container) plus a zero-or-one-of group (tag, digest).
type Source struct {
	// +k8s:unionDiscriminator
	// +k8s:required
	Type SourceType `json:"type"`

	// +k8s:unionMember
	// +k8s:optional
	Git *GitSource `json:"git,omitempty"`

	// +k8s:unionMember(memberName: "Image")
	// +k8s:optional
	Container *string `json:"container,omitempty"`

	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Tag *string `json:"tag,omitempty"`

	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Digest *string `json:"digest,omitempty"`
}

// GitSource is a union member type.
type GitSource struct {
	// +k8s:required
	URL string `json:"url"`
}

// Defaults shows how `+default` changes `+k8s:optional` (upstream required.go).
type Defaults struct {
	// A zero-value default on a value field makes optional purely documentation: the minimum still runs on 0.
	// +k8s:optional
	// +default=0
	// +k8s:minimum=1
	MinReplicas int32 `json:"minReplicas,omitempty"`

	// A non-zero default makes the field effectively required.
	// +k8s:optional
	// +default="standard"
	Tier string `json:"tier,omitempty"`
}

// Network is validated through its own tags and, from WidgetSpec, through a subfield rule on Mode.
type Network struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Mode string `json:"mode"`
}

// Color is an enum: its values are the typed constants below.
// +k8s:enum
type Color string

const (
	// ColorRed is red.
	ColorRed Color = "Red"
	// ColorBlue is blue.
	ColorBlue Color = "Blue"
)

// Port is a list-map item keyed by name.
type Port struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`

	// +k8s:required
	// +k8s:minimum=1
	// +k8s:maximum=65535
	Number int32 `json:"number"`
}

// Backend is reached through a slice of pointers (no nil elements allowed).
type Backend struct {
	// +k8s:required
	// +k8s:format=k8s-long-name
	Host string `json:"host"`
}

// Gadget is a second root type. Its embedded GadgetCommon shows upstream's root-level inline path (the segment
// is the embedded type's name, spec §9.9) and Parts shows update constraints on a list of pointers.
type Gadget struct {
	metav1.TypeMeta `json:",inline"`
	GadgetCommon    `json:",inline"`

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:update=NoAddItem
	Parts []*Part `json:"parts,omitempty"`
}

// GadgetCommon is embedded inline in Gadget.
type GadgetCommon struct {
	// +k8s:required
	Serial string `json:"serial"`
}

// Part is a list-map item reached through pointers.
type Part struct {
	// +k8s:required
	Name string `json:"name"`
}
