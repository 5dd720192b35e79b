// Package v1: `vgc validate`'s defaulting — `+default` values applied before validating, as the API server's
// defaulting (defaulter-gen) does: pointers, non-pointer zero values through typedefs, `ref(...)` constants, a
// default struct with its own defaults, list items and map values, inline and embedded-pointer structs.
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=gadgets.example.com
package v1
