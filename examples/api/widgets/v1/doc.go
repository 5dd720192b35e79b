// Package v1 is the bundled example API group `widgets.example.com/v1`, written to show every tag vgc lowers.
//
// +k8s:validation-gen=TypesWithField=TypeMeta
package v1
