// Package modes: modeDiscriminator and ifMode: string and bool discriminators, modalities, implicit forbidding.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package modes
