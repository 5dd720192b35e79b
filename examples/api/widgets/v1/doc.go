// Package v1 is the bundled example API group `widgets.example.com/v1`, written to show every tag vgc lowers.
//
// +k8s:validation-gen=TypesWithField=TypeMeta
// +groupName=widgets.example.com
//
// The example shows test-only and alpha/beta tags in a v1 package, which upstream's lint refuses (vgc reports the
// same VGC0301-0303 errors, see docs/lint.md); like upstream's own output_tests packages, it opts out of the lint.
// +k8s:validation-gen-nolint
package v1
