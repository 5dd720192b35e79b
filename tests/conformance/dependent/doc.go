// Package dependent: dependentRequired and dependentForbidden.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package dependent
