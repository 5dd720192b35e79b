// Package chains: typedef chains and values as upstream's output_tests exercise them (`tags/listmap`,
// `tags/item/typedef`, `elide_no_validations`, `typedefs`, `tags/immutable`) and the rendering of values in error
// details (floats, JSON escaping, nil lists).
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package chains
