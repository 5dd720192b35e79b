// Package deviations: shapes where upstream validation-gen fails (docs/deviations.md D10, D12). vgc generates
// working code for them; the oracle skips this package and its cases pin vgc's behaviour.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package deviations
