// Package v1beta1: a group/version whose declarative validation is off. Its kinds are declared (not unknown), with
// no declarative rules to check.
// +k8s:validation-gen=false
// +groupName=gadgets.example.com
package v1beta1
