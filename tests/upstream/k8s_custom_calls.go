// Differential driver for vgc-runtime's k8s module: random inputs, generated here in Go from a seeded generator
// (never by vgc), passed to the hand-written functions that +k8s:customValidation names in k8s.io/api and
// k8s.io/apimachinery. tests/tests/k8s_custom_differential.rs builds it in a scratch module beside unchanged copies
// of k8s.io/kubernetes' pkg/apis/core/v1/validation.go and pkg/apis/lifecycle/v1alpha1/validation.go (read from the
// module cache at test time, only the import path of core/v1 rewritten to the copy's) and apimachinery's
// pkg/apis/meta/v1/validation (imported as is); it is never compiled in the vgc repository itself. For a release
// whose k8s.io/api names more functions (1.38), k8s_custom_calls_138.go is copied beside it and adds their calls.
//
// VGC_CALLS=<n> VGC_CALLS_SEED=<seed> ./calls prints one JSON object per line:
// {"fn": <Go function>, "path": <path shape 0-3>, "op": "create"|"update", "value": <JSON>, "old": <JSON>,
//  "got": [<error line>, ...]}
// where value and old are the JSON the field holds (null for nil), and an error line is
// `<field> | <ErrorBody> | origin=<origin> | sc=<short circuit> | <alpha|beta|->` as in runtime_calls.go.

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"

	"k8s.io/apimachinery/pkg/api/operation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	corev1 "vgc.test/k8scustom/kubernetes/pkg/apis/core/v1"
	lifecyclev1alpha1 "vgc.test/k8scustom/kubernetes/pkg/apis/lifecycle/v1alpha1"
)

type call struct {
	Fn    string   `json:"fn"`
	Path  int      `json:"path"`
	Op    string   `json:"op"`
	Value any      `json:"value"`
	Old   any      `json:"old"`
	Got   []string `json:"got"`
}

// Path shapes shared with the Rust side: 0 the root (nil path), 1 `spec.value`, 2 `items[2].name`, 3 `labels[a.b/c]`.
func path(k int) *field.Path {
	switch k {
	case 1:
		return field.NewPath("spec", "value")
	case 2:
		return field.NewPath("items").Index(2).Child("name")
	case 3:
		return field.NewPath("labels").Key("a.b/c")
	}
	return nil
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

type rng struct{ *rand.Rand }

func (g *rng) pick(xs []string) string { return xs[g.IntN(len(xs))] }

// Pieces of domain-prefixed keys: the reserved suffixes in every case and with the separators and white space the
// function trims, Unicode whose lower case is ASCII (Kelvin sign, dotted capital I), other white space, and
// ordinary labels.
var pieces = []string{
	"k8s.io", "kubernetes.io", ".k8s.io", ".kubernetes.io", "K8S.IO", "Kubernetes.IO", "k8s", "io", "kubernetes",
	".", "..", "/", "/", " ", "\t", "\n", "\u00a0", "\u0085", "\u2028", "\u3000", "\u200b",
	"\u212a8s.io", "\u0130", "i", "o", "k8s.\u0130o", ".KUBERNETES.\u0130O", "\u03a3", "acme", "acme.io", "a", "-", "x", "foo", "example.com", "é", "0",
}

func (g *rng) key() string {
	n := g.IntN(7)
	s := ""
	for range n {
		s += g.pick(pieces)
	}
	return s
}

func (g *rng) int32() int32 {
	switch g.IntN(4) {
	case 0:
		return []int32{-1, 0, 1, 998, 999, 1000, 1001, 100000, math.MinInt32, math.MaxInt32}[g.IntN(10)]
	case 1:
		return int32(g.IntN(2000)) - 500
	default:
		return int32(g.Uint32())
	}
}

// Times as JSON texts: Go's zero instant in several offsets and precisions (all zero), instants a nanosecond or an
// hour away from it, and random instants; null decodes to the zero time.
var zeroish = []string{
	"0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z", "0001-01-01T01:00:00+01:00", "0000-12-31T23:00:00-01:00",
	"0001-01-01T00:00:00.000000001Z", "0001-01-01T00:00:01Z", "0001-01-01T00:00:00+00:01", "1970-01-01T00:00:00Z",
}

func (g *rng) timeJSON() string {
	switch g.IntN(5) {
	case 0:
		return "null"
	case 1, 2:
		return strconv.Quote(g.pick(zeroish))
	}
	sec := g.Int64N(400*365*86400) - 200*365*86400
	t := metav1.Unix(sec, 0)
	b, _ := t.MarshalJSON()
	return string(b)
}

// A call kind: how often it is picked (its weight) and the call itself, which fills c.Fn, c.Value and c.Old and
// returns the Go function's errors.
type gen struct {
	weight int
	run    func(g *rng, ctx context.Context, op operation.Operation, fld *field.Path, c *call) field.ErrorList
}

// The functions k8s.io/kubernetes 1.35-1.37 and apimachinery have; k8s_custom_calls_138.go (copied beside this
// file only for a release that has them) appends the 1.38 ones.
var gens = []gen{
	{2, nameOrRequester},
	{1, responderPriority},
	{1, conditionTime},
}

// Names and requesters: a value field, never nil in generated code; a nil pointer is tried too.
func nameOrRequester(g *rng, ctx context.Context, op operation.Operation, fld *field.Path, c *call) field.ErrorList {
	var v, o *string
	if g.IntN(10) != 0 {
		s := g.key()
		v, c.Value = &s, s
	}
	if op.Type == operation.Update {
		s := g.key()
		o, c.Old = &s, s
	}
	if g.IntN(2) == 0 {
		c.Fn = "ValidateCustom_EvictionResponder_Name"
		return corev1.ValidateCustom_EvictionResponder_Name(ctx, op, fld, v, o)
	}
	c.Fn = "ValidateCustom_EvictionRequestSpec_Requester"
	return lifecyclev1alpha1.ValidateCustom_EvictionRequestSpec_Requester(ctx, op, fld, v, o)
}

func responderPriority(g *rng, ctx context.Context, op operation.Operation, fld *field.Path, c *call) field.ErrorList {
	c.Fn = "ValidateCustom_EvictionResponder_Priority"
	var v, o *int32
	if g.IntN(8) != 0 {
		x := g.int32()
		v, c.Value = &x, x
	}
	if op.Type == operation.Update && g.IntN(4) != 0 {
		x := g.int32()
		o, c.Old = &x, x
	}
	return corev1.ValidateCustom_EvictionResponder_Priority(ctx, op, fld, v, o)
}

func conditionTime(g *rng, ctx context.Context, op operation.Operation, fld *field.Path, c *call) field.ErrorList {
	c.Fn = "ValidateCustom_Condition_LastTransitionTime"
	text := g.timeJSON()
	var t metav1.Time
	if err := t.UnmarshalJSON([]byte(text)); err != nil {
		panic(fmt.Sprintf("%s: %v", text, err))
	}
	c.Value = json.RawMessage(text)
	var o *metav1.Time
	if op.Type == operation.Update {
		oldText := g.timeJSON()
		var ot metav1.Time
		if err := ot.UnmarshalJSON([]byte(oldText)); err != nil {
			panic(fmt.Sprintf("%s: %v", oldText, err))
		}
		o, c.Old = &ot, json.RawMessage(oldText)
	}
	return metav1validation.ValidateCustom_Condition_LastTransitionTime(ctx, op, fld, &t, o)
}

func main() {
	n, _ := strconv.Atoi(os.Getenv("VGC_CALLS"))
	seed, _ := strconv.ParseUint(os.Getenv("VGC_CALLS_SEED"), 10, 64)
	g := &rng{rand.New(rand.NewPCG(seed, 0x6b38732d637573))}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	ctx := context.Background()
	total := 0
	for _, k := range gens {
		total += k.weight
	}
	for i := 0; i < n; i++ {
		c := call{Path: g.IntN(4), Op: "create"}
		op := operation.Operation{Type: operation.Create}
		if g.IntN(2) == 0 {
			c.Op, op.Type = "update", operation.Update
		}
		fld := path(c.Path)
		roll := g.IntN(total)
		var errs field.ErrorList
		for _, k := range gens {
			if roll < k.weight {
				errs = k.run(g, ctx, op, fld, &c)
				break
			}
			roll -= k.weight
		}
		c.Got = []string{}
		for _, e := range errs {
			c.Got = append(c.Got, line(e))
		}
		if err := enc.Encode(c); err != nil {
			panic(err)
		}
	}
}
