// Package maps: maps: eachKey, eachVal, value-type iteration, typedefs of maps.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package maps
