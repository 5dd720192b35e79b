// Package custom: customValidation on types and fields.
// +k8s:validation-gen=*
package custom
