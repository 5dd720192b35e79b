// Package other: a second package referenced from structure.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package other
