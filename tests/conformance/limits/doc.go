// Package limits: numeric, length, byte, item and property limits.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package limits
