// Package wrapped: metadata tags inside `ifEnabled`/`ifDisabled` and `subfield` wrappers, `item` unions on a list
// typedef and a type-level `subfield` on a struct (the shapes of upstream's output_tests `tags/options/{lists,
// unions,discriminators}`, `tags/subfield/{list,unions}`, `tags/item/union/typedef` and `ratcheting/subfield`).
// +k8s:validation-gen=*
// +k8s:validation-gen-nolint
package wrapped
