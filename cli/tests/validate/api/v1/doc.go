// Package v1: the API `vgc validate`'s CLI tests validate manifests against.
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=widgets.example.com
package v1
