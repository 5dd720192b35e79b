// Package testtags: validateTrue/False/Error/TrueAlpha/TrueBeta with flags, typeArg and cohort.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package testtags
