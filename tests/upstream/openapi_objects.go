// The OpenAPI oracle's `objects` mode (tests/tests/openapi_apiserver.rs, the equivalence over tests/conformance):
// given objects validated by a kind's schema as the API server validates a custom resource. Built beside
// openapi_apiserver.go and openapi_crdside.go in a scratch module; never compiled in the vgc repository itself.
//
//	./oracle objects SCHEMAFILE < cases.json
//	    SCHEMAFILE: an OpenAPI document (its components.schemas). cases.json: [{"name", "kind", "object", "old"}],
//	    kind `<import path>.<Type>` (the schema is the component kube-openapi names for it, references inlined);
//	    `old` makes it an update. Each object (and old object) is defaulted as the API server decodes a custom
//	    resource (non-nullable nulls dropped, the schema's defaults applied), then validated (the OpenAPI schema
//	    validator, list-type uniqueness, the CEL validator; on updates with ratcheting). Prints
//	    [{"name", "object", "old", "got": ["<field> | <ErrorBody>"], "error"}]: the defaulted objects (for the
//	    upstream side to validate the same values) and the errors; `error` when the kind has no usable schema or
//	    the object does not decode.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

func init() { modes["objects"] = objects }

type objectCase struct {
	Name   string          `json:"name"`
	Kind   string          `json:"kind"`
	Object json.RawMessage `json:"object"`
	Old    json.RawMessage `json:"old"`
}

type objectResult struct {
	Name   string   `json:"name"`
	Object any      `json:"object,omitempty"`
	Old    any      `json:"old,omitempty"`
	Got    []string `json:"got"`
	Error  string   `json:"error,omitempty"`
}

// openAPIName is kube-openapi's name of the type `name` of package `pkg` (`vgc.test/conformance/lists` `Root` →
// `test.vgc.conformance.lists.Root`).
func openAPIName(pkg, name string) string {
	parts := strings.SplitN(pkg, "/", 2)
	dom := strings.Split(parts[0], ".")
	for i, j := 0, len(dom)-1; i < j; i, j = i+1, j-1 {
		dom[i], dom[j] = dom[j], dom[i]
	}
	out := strings.Join(dom, ".")
	if len(parts) == 2 {
		out += "." + strings.ReplaceAll(parts[1], "/", ".")
	}
	return out + "." + name
}

// decode reads JSON as the API server decodes a custom resource (integers as int64).
func decode(raw json.RawMessage) (any, error) {
	var v any
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

func objects(args []string) {
	comps := schemasOf(args[0])
	var cases []objectCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	sides := map[string]*crdSide{}
	failed := map[string]string{}
	side := func(kind string) (s *crdSide, err error) {
		if s := sides[kind]; s != nil {
			return s, nil
		}
		if f, ok := failed[kind]; ok {
			return nil, fmt.Errorf("%s", f)
		}
		defer func() {
			if r := recover(); r != nil {
				failed[kind] = fmt.Sprint(r)
				err = fmt.Errorf("%v", r)
			}
		}()
		i := strings.LastIndex(kind, ".")
		s = newCRDSide(comps, openAPIName(kind[:i], kind[i+1:]))
		sides[kind] = s
		return s, nil
	}
	out := make([]objectResult, 0, len(cases))
	for _, c := range cases {
		r := objectResult{Name: c.Name, Got: []string{}}
		s, err := side(c.Kind)
		if err != nil {
			r.Error = err.Error()
			out = append(out, r)
			continue
		}
		obj, err := decode(c.Object)
		if err != nil {
			r.Error = "object: " + err.Error()
			out = append(out, r)
			continue
		}
		m, ok := obj.(map[string]any)
		if !ok {
			r.Error = "the object is not a JSON object (a custom resource is)"
			out = append(out, r)
			continue
		}
		applyDefaults(m, s.structural)
		r.Object = m
		var old map[string]any
		if len(c.Old) > 0 && string(c.Old) != "null" {
			o, err := decode(c.Old)
			if old, ok = o.(map[string]any); err != nil || !ok {
				r.Error = fmt.Sprintf("old: not a JSON object (%v)", err)
				out = append(out, r)
				continue
			}
			applyDefaults(old, s.structural)
			r.Old = old
		}
		for _, e := range s.validate(m, old) {
			r.Got = append(r.Got, fmt.Sprintf("%s | %s", e.Field, e.ErrorBody()))
		}
		out = append(out, r)
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}
