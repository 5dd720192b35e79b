// Package v1: `vgc validate --strict`'s field names — inline and embedded structs, an embedded pointer, names Go
// drops as ambiguous, `json:"-"`, map values and list items.
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=things.example.com
package v1
