// Package lists: list metadata: set, map (single and multi keys), unique, customUnique, atomic, eachVal, item, []*T.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package lists
