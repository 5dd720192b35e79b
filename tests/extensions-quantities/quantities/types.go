package quantities

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Sizing compares quantities (numerically: 1500m equals 1.5, 1Ki is 1024) and durations (by length: 90s equals
// 1m30s) with sibling fields and a child's.
type Sizing struct {
	// +k8s:optional
	Limit *resource.Quantity `json:"limit,omitempty"`

	// +k8s:optional
	// +k8s:maximum(constraint: limit)
	// +k8s:exclusiveMinimum(constraint: floor.value)
	// +k8s:minimum(constraint: base)
	Request *resource.Quantity `json:"request,omitempty"`

	// +k8s:optional
	Floor *Floor `json:"floor,omitempty"`

	// A quantity by value: zero when absent.
	Base resource.Quantity `json:"base,omitempty"`

	// +k8s:optional
	MinTimeout *metav1.Duration `json:"minTimeout,omitempty"`

	// +k8s:optional
	// +k8s:minimum(constraint: minTimeout)
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// Per item: each request at most the limit.
	// +k8s:optional
	// +k8s:listType=atomic
	// +k8s:eachVal=+k8s:maximum(constraint: limit)
	Requests []resource.Quantity `json:"requests,omitempty"`

	// Per map value: each step at least the minimum timeout.
	// +k8s:optional
	// +k8s:eachVal=+k8s:minimum(constraint: minTimeout)
	Steps map[string]metav1.Duration `json:"steps,omitempty"`
}

// Floor holds a referenced quantity one level down.
type Floor struct {
	// +k8s:optional
	Value *resource.Quantity `json:"value,omitempty"`
}
