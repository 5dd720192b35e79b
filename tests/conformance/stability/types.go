package stability

// Marks: alpha and beta wrappers mark errors and keep short-circuit semantics.
type Marks struct {
	// +k8s:alpha(since: "1.37")=+k8s:required
	// +k8s:beta(since: "1.36")=+k8s:maxLength=3
	Name string `json:"name"`

	// +k8s:optional
	// +k8s:beta(since: "1.36")=+k8s:minimum=1
	// +k8s:alpha(since: "1.37")=+k8s:maximum=5
	Count *int32 `json:"count,omitempty"`

	// +k8s:alpha(since: "1.37")=+k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:format=k8s-short-name
	Host string `json:"host,omitempty"`

	// +k8s:optional
	// +k8s:beta(since: "1.36")=+k8s:eachVal=+k8s:maxLength=2
	// +k8s:alpha(since: "1.37")=+k8s:listType=set
	Tags []string `json:"tags,omitempty"`

	// +k8s:optional
	// +k8s:beta(since: "1.36")=+k8s:immutable
	Frozen *string `json:"frozen,omitempty"`
}
