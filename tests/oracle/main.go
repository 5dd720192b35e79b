// Command oracle runs vgc's example validation cases through upstream validation-gen's generated Go and
// prints, per case, the error lines in the same format as the Rust runner (tests/tests/oracle.rs assembles the
// module it builds in):
// `<field> | <ErrorBody> | origin=<origin> | sc=<bool> | <alpha|beta|->`.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	v1 "example.com/widgets/widgets/v1"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

type testCase struct {
	Name         string          `json:"name"`
	Kind         string          `json:"kind"`
	Object       json.RawMessage `json:"object"`
	Old          json.RawMessage `json:"old"`
	Options      map[string]bool `json:"options"`
	Subresources []string        `json:"subresources"`
	Expect       []string        `json:"expect"`
}

type result struct {
	Name string   `json:"name"`
	Got  []string `json:"got"`
	Skip string   `json:"skip,omitempty"`
}

func line(e *field.Error) string {
	st := "-"
	if e.IsAlpha() {
		st = "alpha"
	} else if e.IsBeta() {
		st = "beta"
	}
	return fmt.Sprintf("%s | %s | origin=%s | sc=%t | %s", e.Field, e.ErrorBody(), e.Origin, e.ShortCircuit, st)
}

func run[T any](c testCase, validate func(context.Context, operation.Operation, *field.Path, *T, *T) field.ErrorList) []string {
	var obj T
	if err := json.Unmarshal(c.Object, &obj); err != nil {
		panic(fmt.Sprintf("%s: %v", c.Name, err))
	}
	op := operation.Operation{Type: operation.Create, Options: c.Options}
	var old *T
	if len(c.Old) > 0 {
		old = new(T)
		if err := json.Unmarshal(c.Old, old); err != nil {
			panic(fmt.Sprintf("%s: %v", c.Name, err))
		}
		op.Type = operation.Update
	}
	if op.Options == nil {
		op.Options = map[string]bool{}
	}
	got := []string{}
	for _, e := range validate(context.Background(), op, nil, &obj, old) {
		got = append(got, line(e))
	}
	return got
}

func main() {
	var cases []testCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	var out []result
	for _, c := range cases {
		if len(c.Subresources) > 0 {
			// Subresource routing lives in RegisterValidations, which this scheme-less build does not emit.
			out = append(out, result{Name: c.Name, Skip: "subresources"})
			continue
		}
		switch c.Kind {
		case "Gadget":
			out = append(out, result{Name: c.Name, Got: run(c, v1.Validate_Gadget)})
		default:
			out = append(out, result{Name: c.Name, Got: run(c, v1.Validate_Widget)})
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	_ = enc.Encode(out)
}
