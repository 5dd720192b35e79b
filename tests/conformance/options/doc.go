// Package options: ifEnabled and ifDisabled.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package options
