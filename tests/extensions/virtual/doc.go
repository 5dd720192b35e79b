// Package virtual: virtual fields (vgc extension, docs/extensions.md; KEP-5073 "Virtual Field Strategy"), checked
// by tests/tests/extensions.rs through the generated Rust and the interpreter. Upstream validation-gen does not
// implement them, so there is no upstream run: cases.json pins vgc's behaviour.
// +k8s:validation-gen=TypesWithField=Spec
package virtual
