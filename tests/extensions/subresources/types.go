package subresources

// Widget is the kind. Its validation is routed on the request's subresource: the resource itself, /status and
// /resize (upstream `supportsSubresource`), so the conditions below see each.
// +k8s:supportsSubresource="/status"
// +k8s:supportsSubresource="/resize"
type Widget struct {
	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status"`
}

// WidgetSpec carries the KEP's example: immutable, except through /resize.
type WidgetSpec struct {
	// The KEP's `pods/resize` rule: immutable unless the update comes through /resize.
	// +k8s:optional
	// +k8s:ifNotSubresource("/resize")=+k8s:immutable
	Size *int32 `json:"size,omitempty"`

	// Only on requests for the resource itself (`/`): a short name there, anything through a subresource.
	// +k8s:optional
	// +k8s:ifSubresource("/")=+k8s:format=k8s-short-name
	Name *string `json:"name,omitempty"`

	// A short-circuiting payload under a condition, and a beta payload: both keep their flags and mark.
	// +k8s:optional
	// +k8s:ifNotSubresource("/status")=+k8s:maxItems=2
	// +k8s:beta=+k8s:ifSubresource("/resize")=+k8s:eachVal=+k8s:maxLength=3
	// +k8s:listType=atomic
	Tags []string `json:"tags,omitempty"`

	// A condition under an option.
	// +k8s:optional
	// +k8s:ifEnabled("StrictLimits")=+k8s:ifNotSubresource("/resize")=+k8s:maximum=8
	Limit *int32 `json:"limit,omitempty"`

	// A condition inside eachVal.
	// +k8s:optional
	// +k8s:listType=atomic
	// +k8s:eachVal=+k8s:ifSubresource("/resize")=+k8s:minimum=1
	Steps []int32 `json:"steps,omitempty"`
}

// WidgetStatus is written through /status: its phase must be a short name there, and never changes elsewhere.
type WidgetStatus struct {
	// +k8s:optional
	// +k8s:ifSubresource("/status")=+k8s:format=k8s-short-name
	// +k8s:ifNotSubresource("/status")=+k8s:update=NoModify
	Phase *string `json:"phase,omitempty"`
}
