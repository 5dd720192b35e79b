package custom

// Token is validated by a hand-written function (type level).
// +k8s:customValidation
type Token string

// Request has a field validated by a hand-written function, next to declarative rules.
type Request struct {
	// +k8s:required
	// +k8s:customValidation
	// +k8s:maxLength=8
	Requester string `json:"requester"`

	// +k8s:optional
	Token *Token `json:"token,omitempty"`
}
