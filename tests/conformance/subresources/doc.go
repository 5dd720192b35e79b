// Package subresources: supportsSubresource and isSubresource routing in registered root validators.
// +k8s:validation-gen=TypesWithField=TypeMeta
// +k8s:validation-gen-nolint
package subresources
