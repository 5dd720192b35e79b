// Package formats: every k8s format.
// +k8s:validation-gen=*
package formats
