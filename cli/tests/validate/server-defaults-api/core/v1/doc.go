// Package v1: `vgc validate`'s port of the API server's hand-written defaulting (`SetDefaults_*` of
// k8s.io/kubernetes), which applies only to k8s.io/api types: this module is named `k8s.io/api` so that its types
// are such types (`validate_cli.rs` also runs a copy named otherwise, which gets none). The types are cut down from
// k8s.io/api v0.38.0-beta.0's core/v1 to the fields the ported functions of release 1.38 set.
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=
package v1
