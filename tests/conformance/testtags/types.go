package testtags

// Probe carries upstream's test tags.
type Probe struct {
	// +k8s:validateFalse(flags: "ShortCircuit")="stop here"
	// +k8s:validateFalse="never reached"
	// +k8s:validateTrue="fine"
	A *string `json:"a,omitempty"`

	// +k8s:validateFalse(cohort: "c1")="in c1"
	// +k8s:validateFalse(cohort: "c1", flags: "ShortCircuit")="c1 short"
	// +k8s:validateFalse="default cohort"
	B string `json:"b,omitempty"`

	// +k8s:validateTrueAlpha="alpha true"
	// +k8s:validateTrueBeta="beta true"
	// +k8s:validateFalse(typeArg: "string")="typed"
	C string `json:"c,omitempty"`

	// +k8s:validateFalse(flags: "ShortCircuit,NonError")="quiet stop"
	// +k8s:validateFalse="after quiet"
	D *int32 `json:"d,omitempty"`
}

// Typed carries type-level test tags.
// +k8s:validateFalse="type level"
type Typed struct {
	// +k8s:validateFalse="field level"
	X string `json:"x,omitempty"`
}
