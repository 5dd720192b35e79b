package v1

type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type ObjectMeta struct {
	Name string `json:"name,omitempty"`
}

// +k8s:enum
type Protocol string

const (
	ProtocolTCP Protocol = "TCP"
	ProtocolUDP Protocol = "UDP"
)

const DefaultLimit = 100

type Gadget struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta `json:"metadata,omitempty"`
	Spec     GadgetSpec `json:"spec"`
}

type GadgetSpec struct {
	// Optional with a default: effectively required, satisfied by the default.
	// +k8s:optional
	// +k8s:minimum=1
	// +default=100
	Limit *int32 `json:"limit,omitempty"`

	// A non-pointer number: 0 is its zero value, replaced by the default.
	// +k8s:optional
	// +k8s:minimum=2
	// +default=3
	Replicas int32 `json:"replicas,omitempty"`

	// A typedef'd string (its enum makes it a validated field) and a plain string defaulted from a constant.
	// +k8s:optional
	// +default="TCP"
	Protocol Protocol `json:"protocol,omitempty"`
	// +default=ref(ProtocolUDP)
	Transport string `json:"transport,omitempty"`

	// An integer constant (upstream refuses `+k8s:optional` with a `ref(...)` default: no validation here).
	// +default=ref(DefaultLimit)
	Ceiling *int64 `json:"ceiling,omitempty"`

	// A default struct, whose own fields get their defaults.
	// +k8s:optional
	// +default={"mode": "single"}
	Disruption *Disruption `json:"disruption,omitempty"`

	// Defaults inside list items; never inside map values, which defaulter-gen's code does not reach.
	// +k8s:optional
	// +k8s:maxItems=5
	Ports []Port          `json:"ports,omitempty"`
	// +k8s:optional
	// +k8s:maxProperties=5
	Named map[string]Port `json:"named,omitempty"`

	// An inline struct's fields are the spec's keys; an embedded pointer's only when Go allocates it.
	Common `json:",inline"`
	// +k8s:optional
	*Extra `json:",inline"`
	// Also a name of Extra's: the spec's own field dominates, so `label` alone does not allocate Extra.
	Label string `json:"label,omitempty"`

	// A default equal to the zero value changes nothing and is not listed.
	// +default=0
	Spare int32 `json:"spare,omitempty"`

	// Old objects are defaulted too (they were when stored): writing the default is no change.
	// +k8s:optional
	// +k8s:immutable
	// +default="fast"
	Class string `json:"class,omitempty"`

	// An empty list is not nil: it keeps its value.
	// +k8s:optional
	// +k8s:minItems=1
	// +default=["a"]
	Tags []string `json:"tags,omitempty"`

	// Type-level defaults, inside an optional struct the other documents leave out.
	// +k8s:optional
	Paint *Paint `json:"paint,omitempty"`
}

// Type-level defaults (defaulter-gen's getNestedDefault and element defaults).
type Paint struct {
	// A pointer to a type with a default gets it; a field of the type by value does not.
	Tint  *Color `json:"tint,omitempty"`
	Shade Color  `json:"shade,omitempty"`
	// A field's own default wins over its type's.
	// +default="red"
	Accent *Color `json:"accent,omitempty"`
	// List items and map values of the type get it when zero ("" here) or null.
	Palette  []Color          `json:"palette,omitempty"`
	Swatches map[string]Color `json:"swatches,omitempty"`
	// Through a pointer: only null items.
	Pointed []*Color `json:"pointed,omitempty"`
	// A struct type's default, for a pointer to it; its violation is reported like a written value.
	// +k8s:optional
	Box *Box `json:"box,omitempty"`
	// A typedef of a type with a default does not inherit it (gengo: Shade's underlying type is string).
	PShade  *Shade   `json:"pShade,omitempty"`
	PShades []*Shade `json:"pShades,omitempty"`
}

// +default="blue"
type Color string

type Shade Color

// +default={"size": 7}
type Box struct {
	// +k8s:optional
	// +k8s:maximum=5
	Size int32 `json:"size,omitempty"`
}

type Disruption struct {
	// +k8s:optional
	Mode DisruptionMode `json:"mode,omitempty"`
	// +k8s:optional
	// +k8s:maximum=10
	// +default=20
	Budget int32 `json:"budget,omitempty"`
}

// +k8s:enum
type DisruptionMode string

const (
	DisruptionModeSingle DisruptionMode = "single"
	DisruptionModeAll    DisruptionMode = "all"
)

type Port struct {
	Port int32 `json:"port"`
	// Hand-written validation (Go code vgc validate cannot run): reported as not checked, the other rules' errors kept.
	// +k8s:optional
	// +k8s:customValidation
	Check string `json:"check,omitempty"`
	// +k8s:optional
	// +default="UDP"
	Protocol Protocol `json:"protocol,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-short-name
	// +default="Not_A_Name"
	Name string `json:"name,omitempty"`
}

type Common struct {
	// +k8s:optional
	// +k8s:minLength=5
	// +default="abc"
	Shared string `json:"shared,omitempty"`
}

type Extra struct {
	Color string `json:"color,omitempty"`
	Label string `json:"label,omitempty"`
	// +k8s:optional
	// +k8s:minLength=5
	// +default="red"
	Shade string `json:"shade,omitempty"`
}
