package required

// Values: required on every value shape.
type Values struct {
	// +k8s:required
	Str string `json:"str"`
	// +k8s:required
	StrPtr *string `json:"strPtr,omitempty"`
	// +k8s:required
	Int int32 `json:"int"`
	// +k8s:required
	IntPtr *int64 `json:"intPtr,omitempty"`
	// +k8s:required
	Bool bool `json:"bool"`
	// +k8s:required
	BoolPtr *bool `json:"boolPtr,omitempty"`
	// +k8s:required
	List []string `json:"list"`
	// +k8s:required
	Map map[string]string `json:"map"`
	// +k8s:required
	Struct *Inner `json:"struct,omitempty"`
}

// Inner is nested; its own checks run only when the parent's short-circuits pass.
type Inner struct {
	// +k8s:required
	// +k8s:maxLength=3
	Name string `json:"name"`
}

// Optionals: optional short-circuits the field's other checks when unset.
type Optionals struct {
	// +k8s:optional
	// +k8s:minLength=2
	Str string `json:"str,omitempty"`
	// +k8s:optional
	// +k8s:minimum=5
	IntPtr *int32 `json:"intPtr,omitempty"`
	// +k8s:optional
	// +k8s:minItems=2
	List []string `json:"list,omitempty"`
	// +k8s:optional
	// +k8s:minProperties=2
	Map map[string]string `json:"map,omitempty"`
	// +k8s:optional
	Struct *Inner `json:"struct,omitempty"`
}

// Forbiddens: forbidden on each shape.
type Forbiddens struct {
	// +k8s:forbidden
	Str string `json:"str,omitempty"`
	// +k8s:forbidden
	IntPtr *int32 `json:"intPtr,omitempty"`
	// +k8s:forbidden
	List []string `json:"list,omitempty"`
	// +k8s:forbidden
	Map map[string]string `json:"map,omitempty"`
	// +k8s:forbidden
	Struct *Inner `json:"struct,omitempty"`
}

// Defaults: +default turns optional into documentation (zero default) or an effective required (non-zero).
type Defaults struct {
	// +k8s:optional
	// +default=0
	// +k8s:minimum=1
	ZeroDefault int32 `json:"zeroDefault,omitempty"`
	// +k8s:optional
	// +default="standard"
	// +k8s:maxLength=8
	Tier string `json:"tier,omitempty"`
	// +k8s:optional
	// +default=3
	// +k8s:maximum=5
	Count *int32 `json:"count,omitempty"`
}
