// Package stability: alpha and beta marks and their interplay with short-circuits.
// +k8s:validation-gen=*
package stability
