// Package v1 holds the example API's object metadata (a small stand-in for metav1, so the example builds
// without the Go module cache).
package v1

// TypeMeta describes an object's kind and API version.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the metadata every object has.
type ObjectMeta struct {
	// +k8s:optional
	// +k8s:format=k8s-long-name
	Name string `json:"name,omitempty"`

	// +k8s:optional
	// +k8s:format=k8s-short-name
	Namespace string `json:"namespace,omitempty"`

	// +k8s:optional
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:format=k8s-label-value
	Labels map[string]string `json:"labels,omitempty"`

	// +k8s:optional
	// +k8s:format=k8s-uuid
	UID string `json:"uid,omitempty"`
}
