// Package stability: alpha and beta marks and their interplay with short-circuits.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package stability
