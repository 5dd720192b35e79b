package unions

// Plain is an undiscriminated union: exactly one member set.
type Plain struct {
	// +k8s:unionMember
	// +k8s:optional
	A *string `json:"a,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	B *Sub `json:"b,omitempty"`
	// +k8s:unionMember
	// +k8s:optional
	C []string `json:"c,omitempty"`
}

// Sub is a member type with its own rules.
type Sub struct {
	// +k8s:required
	X string `json:"x"`
}

// Kind selects a member.
type Kind string

// Discriminated selects the member through a discriminator; member names default to the Go field name.
type Discriminated struct {
	// +k8s:unionDiscriminator
	// +k8s:required
	Kind Kind `json:"kind"`
	// +k8s:unionMember
	// +k8s:optional
	Alpha *string `json:"alpha,omitempty"`
	// +k8s:unionMember(memberName: "Second")
	// +k8s:optional
	Beta *Sub `json:"beta,omitempty"`
}

// Named has two named unions and a zero-or-one-of group.
type Named struct {
	// +k8s:unionMember(union: "left")
	// +k8s:optional
	L1 *string `json:"l1,omitempty"`
	// +k8s:unionMember(union: "left")
	// +k8s:optional
	L2 *string `json:"l2,omitempty"`
	// +k8s:unionMember(union: "right")
	// +k8s:optional
	R1 *int32 `json:"r1,omitempty"`
	// +k8s:unionMember(union: "right")
	// +k8s:optional
	R2 *int32 `json:"r2,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Z1 string `json:"z1,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Z2 string `json:"z2,omitempty"`
}
