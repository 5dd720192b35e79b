// Package enums: enums, enumExclude under options.
// +k8s:validation-gen=*
package enums
