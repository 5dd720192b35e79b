// The API server's Status for a given error list: reads a JSON list of {group, kind, name, errors: [{type, field,
// value: {s|i|b|n}, detail}]} on stdin and prints, one line per entry, apierrors.NewInvalid's status with the TypeMeta
// the API server's encoder sets, as encoding/json marshals it (tests/tests/k8s_openapi_webhook.rs).
package main

import (
	"encoding/json"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

type value struct {
	S *string `json:"s"`
	I *int64  `json:"i"`
	B *bool   `json:"b"`
	N bool    `json:"n"` // nil (as upstream's Immutable passes)
}

type fieldError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Value  value  `json:"value"`
	Detail string `json:"detail"`
}

type entry struct {
	Group  string       `json:"group"`
	Kind   string       `json:"kind"`
	Name   string       `json:"name"`
	Errors []fieldError `json:"errors"`
}

func main() {
	var entries []entry
	if err := json.NewDecoder(os.Stdin).Decode(&entries); err != nil {
		panic(err)
	}
	for _, e := range entries {
		var errs field.ErrorList
		for _, fe := range e.Errors {
			// Upstream passes "" as the value of errors that print none (Required, Forbidden, …).
			var bad any = ""
			switch {
			case fe.Value.S != nil:
				bad = *fe.Value.S
			case fe.Value.I != nil:
				bad = *fe.Value.I
			case fe.Value.B != nil:
				bad = *fe.Value.B
			case fe.Value.N:
				bad = nil
			}
			errs = append(errs, &field.Error{Type: field.ErrorType(fe.Type), Field: fe.Field, BadValue: bad, Detail: fe.Detail})
		}
		st := apierrors.NewInvalid(schema.GroupKind{Group: e.Group, Kind: e.Kind}, e.Name, errs).ErrStatus
		st.Kind, st.APIVersion = "Status", "v1"
		b, err := json.Marshal(st)
		if err != nil {
			panic(err)
		}
		fmt.Println(string(b))
	}
}
