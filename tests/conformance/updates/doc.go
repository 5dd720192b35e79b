// Package updates: immutable, update constraints, monotonic, neq.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package updates
