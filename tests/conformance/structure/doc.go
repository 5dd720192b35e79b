// Package structure: typedef chains, pointers, embedded and inline fields, json:"-", recursion, []*T, cross-package references, ordering.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package structure
