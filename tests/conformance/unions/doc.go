// Package unions: unions: unionMember, unionDiscriminator, zeroOrOneOfMember, named unions, list-item unions.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package unions
