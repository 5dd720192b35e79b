// Package quantities: field-path constraints between resource.Quantity values and between metav1.Duration values
// (vgc extension, docs/extensions.md), checked by tests/tests/extensions.rs through the generated Rust and the
// interpreter, and by tests/tests/extensions_cel_oracle.rs against cel-go. Upstream validation-gen does not
// implement them, so there is no upstream run: cases.json pins vgc's behaviour.
// +k8s:validation-gen=*
package quantities
