package limits

import "time"

// Numbers: minimum and maximum on integer shapes.
type Numbers struct {
	// +k8s:optional
	// +k8s:minimum=1
	// +k8s:maximum=10
	I32 int32 `json:"i32,omitempty"`
	// +k8s:optional
	// +k8s:minimum=-5
	I64Ptr *int64 `json:"i64Ptr,omitempty"`
	// +k8s:optional
	// +k8s:maximum=300
	U16 uint16 `json:"u16,omitempty"`
	// +k8s:optional
	Bounded Bounded `json:"bounded,omitempty"`
}

// Bounded carries type-level limits (a typedef).
// +k8s:minimum=0
// +k8s:maximum=100
type Bounded int32

// Strings: lengths in characters versus bytes.
type Strings struct {
	// +k8s:optional
	// +k8s:minLength=2
	// +k8s:maxLength=4
	Chars string `json:"chars,omitempty"`
	// +k8s:optional
	// +k8s:maxBytes=4
	Bytes string `json:"bytes,omitempty"`
	// +k8s:optional
	// +k8s:maxLength=3
	Ptr *string `json:"ptr,omitempty"`
	// +k8s:optional
	Short Short `json:"short,omitempty"`
}

// Short is a string typedef with a type-level limit.
// +k8s:maxLength=2
type Short string

// Collections: item and property counts.
type Collections struct {
	// +k8s:optional
	// +k8s:minItems=1
	// +k8s:maxItems=2
	Items []string `json:"items,omitempty"`
	// +k8s:optional
	// +k8s:minProperties=1
	// +k8s:maxProperties=2
	Props map[string]string `json:"props,omitempty"`
	// +k8s:optional
	Few Few `json:"few,omitempty"`
}

// Few is a list typedef with a type-level limit.
// +k8s:maxItems=1
type Few []string

// Durations: `time.Duration` is natively an int64 (a JSON number of nanoseconds), so the integer limits apply;
// a typedef of it has no `String` method (its bound prints as an integer in every release).
type Durations struct {
	// +k8s:optional
	// +k8s:minimum=1000000000
	// +k8s:maximum=60000000000
	Timeout time.Duration `json:"timeout,omitempty"`
	// +k8s:optional
	// +k8s:minimum=1
	Ptr *time.Duration `json:"ptr,omitempty"`
	// +k8s:optional
	Grace Grace `json:"grace,omitempty"`
}

// Grace is a typedef of time.Duration with a type-level limit.
// +k8s:maximum=5000
type Grace time.Duration

// ByteLimits: `[]byte` is natively a slice, so the item limits count its bytes.
type ByteLimits struct {
	// +k8s:optional
	// +k8s:minItems=2
	// +k8s:maxItems=3
	Data []byte `json:"data,omitempty"`
	// +k8s:optional
	Blob Blob `json:"blob,omitempty"`
}

// Blob is a byte-slice typedef with a type-level limit.
// +k8s:maxItems=2
type Blob []byte
