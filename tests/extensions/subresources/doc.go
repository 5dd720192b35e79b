// Package subresources: subresource conditions (vgc extension, docs/extensions.md; KEP-5073 "Subresources"),
// checked by tests/tests/extensions.rs through the generated Rust and the interpreter. Upstream validation-gen does
// not implement them, so there is no upstream run: cases.json pins vgc's behaviour.
// +k8s:validation-gen=*
package subresources
