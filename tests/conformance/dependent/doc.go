// Package dependent: dependentRequired and dependentForbidden.
// +k8s:validation-gen=*
package dependent
