// Package required: required, optional, forbidden and the +default rule on every value shape.
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package required
