// The OpenAPI oracle's Go side (tests/tests/openapi_apiserver.rs): vgc's OpenAPI v3 documents (`vgc openapi`)
// loaded into the API server's own CustomResourceDefinition machinery, k8s.io/apiextensions-apiserver — the code every
// CRD create and every custom-resource request runs through. Built in a scratch module; never compiled in the vgc
// repository itself.
//
//	./oracle check DOCDIR   every component schema of every `*.json` document of DOCDIR, its `$ref`s inlined (a
//	                        reference back into a type being inlined, and the well-known types, become what a CRD
//	                        says for them), wrapped as the `spec` of a CRD's `openAPIV3Schema`, and the CRD validated
//	                        with `validation.ValidateCustomResourceDefinition` — structural schema, CEL compilation,
//	                        and the CEL cost estimate against the per-rule and per-CRD budgets. Prints
//	                        {"schemas", "rules", "cut", "errors": [{"schema", "field", "type", "detail"}]}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const refPrefix = "#/components/schemas/"

// What a CRD says for the well-known types kube-openapi names (a CRD has no `$ref` and no `oneOf` of types).
var wellKnown = map[string]map[string]any{
	"io.k8s.apimachinery.pkg.api.resource.Quantity":   {"x-kubernetes-int-or-string": true},
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"x-kubernetes-int-or-string": true},
	"io.k8s.apimachinery.pkg.runtime.RawExtension":    {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
	"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":   {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
}

// inliner resolves references against one document's components.
type inliner struct {
	comps map[string]any
	cut   int
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// clean drops vgc's extension keys (`x-vgc-*`) from a node and its rules (a CRD's schema and rules have no such
// fields), except a rule's `x-vgc-tag`.
func clean(node map[string]any) {
	for k := range node {
		if strings.HasPrefix(k, "x-vgc-") {
			delete(node, k)
		}
	}
	if rules, ok := node["x-kubernetes-validations"].([]any); ok {
		out := make([]any, 0, len(rules))
		for _, r := range rules {
			if m, ok := r.(map[string]any); ok {
				// `x-vgc-tag` stays (a CRD's rule decoding ignores it) to name the tag of an error's rule.
				m = copyMap(m)
				for k := range m {
					if strings.HasPrefix(k, "x-vgc-") && k != "x-vgc-tag" {
						delete(m, k)
					}
				}
				out = append(out, m)
			}
		}
		node["x-kubernetes-validations"] = out
	}
}

// resolve returns `node` with every reference inlined (`stack`: the components being inlined, whose references back
// are cut to an object that keeps unknown fields).
func (in *inliner) resolve(node map[string]any, stack []string) map[string]any {
	node = copyMap(node)
	clean(node)
	if ref, ok := node["$ref"].(string); ok {
		delete(node, "$ref")
		return in.merge(in.target(ref, stack), node)
	}
	if all, ok := node["allOf"].([]any); ok && len(all) == 1 {
		if m, ok := all[0].(map[string]any); ok {
			if ref, ok := m["$ref"].(string); ok {
				delete(node, "allOf")
				node = in.merge(in.target(ref, stack), node)
			}
		}
	}
	if props, ok := node["properties"].(map[string]any); ok {
		out := make(map[string]any, len(props))
		for k, v := range props {
			if m, ok := v.(map[string]any); ok {
				out[k] = in.resolve(m, stack)
			}
		}
		node["properties"] = out
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := node[k].(map[string]any); ok {
			r := in.resolve(m, stack)
			if r[cutKey] == true {
				// Items cut at a recursion have no properties to key a list-map by.
				delete(r, cutKey)
				delete(node, "x-kubernetes-list-type")
				delete(node, "x-kubernetes-list-map-keys")
			}
			node[k] = r
		}
	}
	delete(node, cutKey)
	return node
}

// Marks a schema cut at a recursion, while its parent is being resolved.
const cutKey = "x-oracle-cut"

// target is the inlined schema of the component `ref` names.
func (in *inliner) target(ref string, stack []string) map[string]any {
	name := strings.TrimPrefix(ref, refPrefix)
	if w, ok := wellKnown[name]; ok {
		return copyMap(w)
	}
	for _, s := range stack {
		if s == name {
			in.cut++
			return in.shallow(name)
		}
	}
	c, ok := in.comps[name].(map[string]any)
	if !ok {
		panic("no component " + name)
	}
	return in.resolve(c, append(append([]string{}, stack...), name))
}

// shallow is the cut of component `name` at a recursion: an object that keeps unknown fields, with the component's
// scalar properties (no rules), so that rules of the schema above it that read an item's keys still compile.
func (in *inliner) shallow(name string) map[string]any {
	props := map[string]any{}
	c, _ := in.comps[name].(map[string]any)
	if p, ok := c["properties"].(map[string]any); ok {
		for k, v := range p {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			switch m["type"] {
			case "string", "integer", "boolean", "number":
				props[k] = map[string]any{"type": m["type"]}
			}
		}
	}
	return map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": props, cutKey: true}
}

// merge lays the keys of `over` (a node that referenced `base`) over `base`; their rules are both kept.
func (in *inliner) merge(base, over map[string]any) map[string]any {
	out := copyMap(base)
	for k, v := range over {
		if k == "x-kubernetes-validations" {
			prev, _ := out[k].([]any)
			out[k] = append(append([]any{}, prev...), v.([]any)...)
			continue
		}
		out[k] = v
	}
	return out
}

// countRules counts the CEL rules of a schema.
func countRules(node map[string]any) int {
	n := 0
	if r, ok := node["x-kubernetes-validations"].([]any); ok {
		n += len(r)
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for _, v := range props {
			if m, ok := v.(map[string]any); ok {
				n += countRules(m)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := node[k].(map[string]any); ok {
			n += countRules(m)
		}
	}
	return n
}

// crdOf wraps `spec` (an inlined schema) as the `spec` of a CRD's structural root.
func crdOf(spec map[string]any) (*apiextensions.CustomResourceDefinition, error) {
	root := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"apiVersion": map[string]any{"type": "string"},
			"kind":       map[string]any{"type": "string"},
			"metadata":   map[string]any{"type": "object"},
			"spec":       spec,
		},
	}
	b, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(b, &v1); err != nil {
		return nil, err
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		return nil, err
	}
	no := false
	return &apiextensions.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "xs.vgc.test"},
		Spec: apiextensions.CustomResourceDefinitionSpec{
			Group:   "vgc.test",
			Version: "v1",
			Scope:   apiextensions.NamespaceScoped,
			Names: apiextensions.CustomResourceDefinitionNames{
				Plural: "xs", Singular: "x", Kind: "X", ListKind: "XList",
			},
			Versions:              []apiextensions.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true}},
			Validation:            &apiextensions.CustomResourceValidation{OpenAPIV3Schema: &internal},
			PreserveUnknownFields: &no,
		},
		Status: apiextensions.CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
	}, nil
}

type errorOut struct {
	Schema string `json:"schema"`
	Field  string `json:"field"`
	Type   string `json:"type"`
	Detail string `json:"detail"`
	// For an error at a CEL rule: the tag vgc wrote it for (`x-vgc-tag`) and the rule.
	Tag  string `json:"tag,omitempty"`
	Rule string `json:"rule,omitempty"`
}

// ruleAt is the rule object an error's field path (`spec.validation.openAPIV3Schema.properties[spec]…
// .x-kubernetes-validations[0].rule`) points at in `root`, or nil.
func ruleAt(root map[string]any, field string) map[string]any {
	const prefix = "spec.validation.openAPIV3Schema"
	if !strings.HasPrefix(field, prefix) {
		return nil
	}
	node := root
	rest := strings.TrimPrefix(field, prefix)
	for rest != "" {
		rest = strings.TrimPrefix(rest, ".")
		switch {
		case strings.HasPrefix(rest, "properties["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return nil
			}
			props, _ := node["properties"].(map[string]any)
			node, _ = props[rest[len("properties["):end]].(map[string]any)
			rest = rest[end+1:]
		case strings.HasPrefix(rest, "items"):
			node, _ = node["items"].(map[string]any)
			rest = rest[len("items"):]
		case strings.HasPrefix(rest, "additionalProperties"):
			node, _ = node["additionalProperties"].(map[string]any)
			rest = rest[len("additionalProperties"):]
		case strings.HasPrefix(rest, "x-kubernetes-validations["):
			end := strings.Index(rest, "]")
			var i int
			fmt.Sscanf(rest[len("x-kubernetes-validations["):end], "%d", &i)
			rules, _ := node["x-kubernetes-validations"].([]any)
			if i >= len(rules) {
				return nil
			}
			r, _ := rules[i].(map[string]any)
			return r
		default:
			return nil
		}
		if node == nil {
			return nil
		}
	}
	return nil
}

// schemasOf reads the OpenAPI document f: its components.schemas.
func schemasOf(f string) map[string]any {
	b, err := os.ReadFile(f)
	if err != nil {
		panic(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		panic(fmt.Sprintf("%s: %v", f, err))
	}
	return doc["components"].(map[string]any)["schemas"].(map[string]any)
}

// eachSchema calls fn with every component schema of DOCDIR's documents, its references inlined: files in name
// order, each file's schemas by name, a name only the first time, the well-known types left out. It returns how
// many references the inliner cut.
func eachSchema(dir string, fn func(name string, spec map[string]any)) int {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		panic(err)
	}
	sort.Strings(files)
	done := map[string]bool{}
	cut := 0
	for _, f := range files {
		comps := schemasOf(f)
		names := make([]string, 0, len(comps))
		for n := range comps {
			names = append(names, n)
		}
		sort.Strings(names)
		in := &inliner{comps: comps}
		for _, n := range names {
			if done[n] || wellKnown[n] != nil {
				continue
			}
			done[n] = true
			fn(n, in.resolve(comps[n].(map[string]any), []string{n}))
		}
		cut += in.cut
	}
	return cut
}

func check(dir string) {
	var errs []errorOut
	schemas, rules := 0, 0
	cut := eachSchema(dir, func(n string, spec map[string]any) {
		schemas++
		rules += countRules(spec)
		crd, err := crdOf(spec)
		if err != nil {
			errs = append(errs, errorOut{Schema: n, Type: "conversion", Detail: err.Error()})
			return
		}
		root := map[string]any{"properties": map[string]any{"spec": spec}}
		for _, e := range validation.ValidateCustomResourceDefinition(context.Background(), crd) {
			out := errorOut{Schema: n, Field: e.Field, Type: string(e.Type), Detail: e.Detail}
			if r := ruleAt(root, e.Field); r != nil {
				out.Tag, _ = r["x-vgc-tag"].(string)
				out.Rule, _ = r["rule"].(string)
			}
			errs = append(errs, out)
		}
	})
	out, _ := json.Marshal(map[string]any{"schemas": schemas, "rules": rules, "cut": cut, "errors": errs})
	fmt.Println(string(out))
}

// The modes by name; openapi_compare.go adds `compare` where it is built (the scratch module with the API scheme).
var modes = map[string]func(args []string){
	"check": func(args []string) { check(args[0]) },
}

func main() {
	if len(os.Args) < 3 || modes[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: oracle check DOCDIR | oracle compare DOCDIR N SEED OPTIONS KIND...")
		os.Exit(2)
	}
	modes[os.Args[1]](os.Args[2:])
}
