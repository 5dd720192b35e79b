// Package other: a second package referenced from structure.
// +k8s:validation-gen=*
package other
