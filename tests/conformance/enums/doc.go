// Package enums: enums, enumExclude under options.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package enums
