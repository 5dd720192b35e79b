// Package updates: immutable, update constraints, monotonic, neq.
// +k8s:validation-gen=*
package updates
