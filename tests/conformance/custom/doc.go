// Package custom: customValidation on types and fields.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package custom
