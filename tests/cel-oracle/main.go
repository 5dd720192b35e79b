// Command cel-oracle evaluates CEL rules with cel-go (github.com/google/cel-go, the CEL implementation behind
// Kubernetes' x-kubernetes-validations) over JSON objects: the independent oracle of vgc's extensions
// (tests/tests/extensions_cel_oracle.rs, docs/extensions.md).
//
// stdin: {"rules": ["<CEL expression>", …], "cases": [{"name": …, "self": {…}, "oldSelf": {…} | null,
// "subresource": "/status"}, …]}. Every rule is compiled once with the variables `self` and `oldSelf` (dyn),
// `hasOld` (bool) and `subresource` (string: the request's subresource path, upstream `SubresourcePath()`; "/" when
// the case has none), with cel-go's list extension (`lists.range`, `sort`), and must evaluate to a string — "" when
// the rule holds, else the error line it reports — or to a list of such strings (a rule per element: one line per
// offending element, in order). stdout: [{"name": …, "got": [lines]}, …], the non-empty strings of the rules in
// order. JSON numbers are integers: int when they fit an int64, else uint
// (so a uint64 above the int64 range keeps its value); CEL compares int and uint across types.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"
)

type input struct {
	Rules []string `json:"rules"`
	Cases []struct {
		Name        string          `json:"name"`
		Self        json.RawMessage `json:"self"`
		OldSelf     json.RawMessage `json:"oldSelf"`
		Subresource string          `json:"subresource"`
	} `json:"cases"`
}

type result struct {
	Name string   `json:"name"`
	Got  []string `json:"got"`
}

// decode reads JSON with integers as int64 or uint64 (never float64).
func decode(raw json.RawMessage) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v)
}

func numbers(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
		return x, nil
	case []any:
		for i, e := range x {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
		return x, nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		var u uint64
		if _, err := fmt.Sscan(x.String(), &u); err == nil {
			return u, nil
		}
		return nil, fmt.Errorf("not an integer: %s", x)
	default:
		return v, nil
	}
}

// lines is a rule's value as strings: one for a string, each element of a list (a nil entry where one is not a
// string).
func lines(v ref.Val) []*string {
	if s, ok := v.Value().(string); ok {
		return []*string{&s}
	}
	l, ok := v.(traits.Lister)
	if !ok {
		return []*string{nil}
	}
	var out []*string
	for it := l.Iterator(); it.HasNext() == types.True; {
		s, ok := it.Next().Value().(string)
		if !ok {
			out = append(out, nil)
			continue
		}
		out = append(out, &s)
	}
	return out
}

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		panic(err)
	}
	var in input
	if err := json.Unmarshal(data, &in); err != nil {
		panic(err)
	}
	env, err := cel.NewEnv(
		cel.Variable("self", cel.DynType),
		cel.Variable("oldSelf", cel.DynType),
		cel.Variable("hasOld", cel.BoolType),
		cel.Variable("subresource", cel.StringType),
		cel.CrossTypeNumericComparisons(true),
		ext.Lists(),
		ext.Strings(),
	)
	if err != nil {
		panic(err)
	}
	var programs []cel.Program
	for _, r := range in.Rules {
		ast, iss := env.Compile(r)
		if iss.Err() != nil {
			panic(fmt.Sprintf("rule %q: %v", r, iss.Err()))
		}
		p, err := env.Program(ast)
		if err != nil {
			panic(err)
		}
		programs = append(programs, p)
	}
	out := make([]result, 0, len(in.Cases))
	for _, c := range in.Cases {
		self, err := decode(c.Self)
		if err != nil {
			panic(err)
		}
		old, err := decode(c.OldSelf)
		if err != nil {
			panic(err)
		}
		hasOld := len(c.OldSelf) > 0 && string(c.OldSelf) != "null"
		sub := c.Subresource
		if sub == "" {
			sub = "/"
		}
		got := []string{}
		for i, p := range programs {
			v, _, err := p.Eval(map[string]any{"self": self, "oldSelf": old, "hasOld": hasOld, "subresource": sub})
			if err != nil {
				panic(fmt.Sprintf("case %s, rule %q: %v", c.Name, in.Rules[i], err))
			}
			for _, s := range lines(v) {
				if s == nil {
					panic(fmt.Sprintf("case %s, rule %q: not a string or a list of strings: %v", c.Name, in.Rules[i], v))
				}
				if *s != "" {
					got = append(got, *s)
				}
			}
		}
		out = append(out, result{Name: c.Name, Got: got})
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
