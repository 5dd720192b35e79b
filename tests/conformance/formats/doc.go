// Package formats: every k8s format.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package formats
