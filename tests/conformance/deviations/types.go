package deviations

// D12: a map whose values are a list typedef with validations. Upstream's generated Go passes the typedef's
// function where a pointer function is expected and does not compile.
type ListValues struct {
	// +k8s:optional
	// +k8s:eachVal=+k8s:minItems=1
	Lists map[string]Names `json:"lists,omitempty"`
}

// Names is a list typedef with a type-level limit.
// +k8s:maxItems=1
type Names []string

// D10: a NonError check that is not a short-circuit. Upstream prints the call without a statement separator
// and fails; vgc runs the check and drops its errors.
type Quiet struct {
	// +k8s:validateFalse(flags: "NonError")="dropped"
	// +k8s:validateFalse="kept"
	A string `json:"a,omitempty"`
}
