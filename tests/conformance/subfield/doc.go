// Package subfield: subfield: inner tags, inherited member short-circuits, chains.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package subfield
