// Package options: ifEnabled and ifDisabled.
// +k8s:validation-gen=*
package options
