// Random objects for vgc's differential drivers, generated from the Go types themselves with sigs.k8s.io/randfill
// (what upstream's fixtures and Kubernetes' fuzz tests use), independent of vgc's plan. Copied next to a generated
// driver (tests/tests/support/harness.rs), which provides `kinds` (every root with a constructor `mk`); never
// compiled in the vgc repository itself.
//
// VGC_RANDFILL=<n> VGC_RANDFILL_SEED=<seed> VGC_RANDFILL_HINTS=<file> ./oracle prints
// {"cases": [...], "skipped": {reason: count}, "lossy": count}: n attempts, each a root kind picked uniformly, an
// object filled by randfill with custom fillers for strings and numbers (values from the hints file: string literals,
// numbers and typed constants harvested from the packages' Go source, plus the format samples below), an old object
// for about 45% (usually a mutated copy of the object, sometimes an independent fill), option sets and subresource
// paths. Attempts whose object cannot be marshalled to JSON or decoded back are skipped and counted by reason;
// objects whose JSON changes on a second round trip are kept (both sides validate the same JSON) and counted as lossy.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

type fillHints struct {
	// String literals found in the packages' Go source (code and tags).
	Strings []string `json:"strings"`
	// Integers found in the packages' tags, with their neighbours.
	Ints []int64 `json:"ints"`
	// Typed string constants by type name (package-less): `const X T = "v"`.
	Enums map[string][]string `json:"enums"`
	// Option names used by ifEnabled/ifDisabled tags.
	Options []string `json:"options"`
	// Subresource paths of the generated registrations (other than "/").
	Subresources []string `json:"subresources"`
	MaxDepth     int      `json:"maxDepth"`
	NilChance    float64  `json:"nilChance"`
	MaxElements  int      `json:"maxElements"`
}

// Values that hit the branches of the format validators: valid and invalid samples of names, labels, IPs, CIDRs,
// UUIDs, paths, plus escaping-sensitive text.
var formatSamples = []string{
	"", "a", "abc", "a-b", "a.b", "A", "-a", "a-", "a_b", "a..b", "1", "1a", "a1", "0", "-1", "true",
	"example.com", "sub.example.com", "Bad_Name", "UPPER", "a b", "a/b", "example.com/a", "example.com/", "/a",
	"a/b/c", "kubernetes.io/x", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 253),
	strings.Repeat("b", 254), "1.2.3.4", "0.0.0.0", "::1", "2001:db8::1", "::ffff:1.2.3.4", "1.2.3.4/24",
	"10.0.0.0/8", "2001:db8::/32", "1.2.3", "01.2.3.4", "256.1.1.1", "1.2.3.4/33",
	"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "not-a-uuid",
	"http", "https", "TCP", "UDP", "x", "value", "a\u2028b", "<>&", "\"q\"", "é", "\t", "a:b", "a=b", "*",
}

var quantities = []string{"0", "1", "100m", "1Gi", "-1", "1.5", "1e3", "2k"}

type filler struct {
	h   fillHints
	r   *rand.Rand
	all []string
}

func (g *filler) str(t reflect.Type, c randfill.Continue) string {
	if vals := g.h.Enums[t.Name()]; len(vals) > 0 && g.r.Intn(100) < 60 {
		return vals[g.r.Intn(len(vals))]
	}
	if g.r.Intn(100) < 5 {
		return c.String(8)
	}
	return g.all[g.r.Intn(len(g.all))]
}

func (g *filler) int() int64 {
	pool := g.h.Ints
	if len(pool) == 0 || g.r.Intn(100) < 30 {
		pool = []int64{0, 1, -1, 2, 3, 5, 10, 100, 1000, 65535, 65536, 1 << 31, -(1 << 31)}
	}
	return pool[g.r.Intn(len(pool))]
}

var floats = []float64{0, 1, -1, 0.5, 1.5, 2, 100, 1e-3, 1e21}

// fillValue fills a value of a basic kind (v settable).
func (g *filler) fillValue(v reflect.Value, c randfill.Continue) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(g.str(v.Type(), c))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := g.int()
		if v.OverflowInt(x) {
			x = 0
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x := g.int()
		if x < 0 {
			x = -x
		}
		if v.OverflowUint(uint64(x)) {
			x = 0
		}
		v.SetUint(uint64(x))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(floats[g.r.Intn(len(floats))])
	case reflect.Bool:
		v.SetBool(g.r.Intn(2) == 0)
	default:
		v.Set(reflect.Zero(v.Type()))
	}
}

var continueType = reflect.TypeOf(randfill.Continue{})

// customFuncs returns fill functions for every basic-kinded, interface, chan and func type reachable from the roots,
// plus the apimachinery value types whose zero or random fill would not round-trip through JSON.
func (g *filler) customFuncs(roots []reflect.Type) []interface{} {
	funcs := []interface{}{
		func(t *time.Time, c randfill.Continue) {
			*t = time.Unix(int64(c.Intn(2_000_000_000)), 0).UTC()
		},
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(x *intstr.IntOrString, c randfill.Continue) {
			if c.Intn(2) == 0 {
				*x = intstr.FromInt32(int32(g.int() % (1 << 31)))
			} else {
				*x = intstr.FromString(g.str(reflect.TypeOf(""), c))
			}
		},
		func(x *runtime.RawExtension, c randfill.Continue) {
			*x = runtime.RawExtension{}
			if c.Intn(2) == 0 {
				x.Raw = []byte(`{"a":1}`)
			}
		},
		func(x *json.RawMessage, c randfill.Continue) {
			*x = nil
			if c.Intn(2) == 0 {
				*x = json.RawMessage(`{"a":1}`)
			}
		},
	}
	special := leafTypes
	for _, f := range funcs {
		special[reflect.TypeOf(f).In(0).Elem()] = true
	}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] || special[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Ptr, reflect.Slice, reflect.Array:
			walk(t.Elem())
			return
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
			return
		case reflect.Struct:
			if t.Name() == "FieldsV1" {
				break // its Raw must be JSON: left zero
			}
			for i := 0; i < t.NumField(); i++ {
				if t.Field(i).IsExported() {
					walk(t.Field(i).Type)
				}
			}
			return
		}
		fn := reflect.MakeFunc(reflect.FuncOf([]reflect.Type{reflect.PointerTo(t), continueType}, nil, false),
			func(args []reflect.Value) []reflect.Value {
				g.fillValue(args[0].Elem(), args[1].Interface().(randfill.Continue))
				return nil
			})
		funcs = append(funcs, fn.Interface())
	}
	for _, t := range roots {
		walk(t)
	}
	return funcs
}

// leafTypes are the types with a fill function of their own (time, quantities, raw JSON): mutate re-fills them
// whole instead of descending into their fields.
var leafTypes = map[reflect.Type]bool{}

// mutate changes a few parts of v (addressable): a field, element or map value re-filled, an element dropped or
// added, a map entry removed. Interfaces, channels and functions are left alone (the fill leaves them nil).
func mutate(f *randfill.Filler, r *rand.Rand, v reflect.Value, depth int) {
	if depth > 12 || !v.CanSet() {
		return
	}
	switch k := v.Kind(); {
	case k == reflect.Interface || k == reflect.Chan || k == reflect.Func:
		return
	case leafTypes[v.Type()]:
		if r.Intn(100) < 10 {
			f.Fill(v.Addr().Interface())
		}
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fv := v.Field(i)
			if !fv.CanSet() {
				continue
			}
			if k := fv.Kind(); r.Intn(100) < 12 && k != reflect.Interface && k != reflect.Chan && k != reflect.Func {
				f.Fill(fv.Addr().Interface())
			} else {
				mutate(f, r, fv, depth+1)
			}
		}
	case reflect.Ptr:
		if v.IsNil() {
			if r.Intn(100) < 10 {
				f.Fill(v.Addr().Interface())
			}
			return
		}
		if r.Intn(100) < 8 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		mutate(f, r, v.Elem(), depth+1)
	case reflect.Slice:
		if v.IsNil() {
			if r.Intn(100) < 10 {
				f.Fill(v.Addr().Interface())
			}
			return
		}
		switch n := r.Intn(100); {
		case n < 8 && v.Len() > 0:
			i := r.Intn(v.Len())
			v.Set(reflect.AppendSlice(v.Slice(0, i), v.Slice(i+1, v.Len())))
		case n < 14:
			e := reflect.New(v.Type().Elem())
			f.Fill(e.Interface())
			v.Set(reflect.Append(v, e.Elem()))
		case n < 18 && v.Len() > 1:
			i, j := r.Intn(v.Len()), r.Intn(v.Len())
			a, b := reflect.ValueOf(v.Index(i).Interface()), reflect.ValueOf(v.Index(j).Interface())
			v.Index(i).Set(b)
			v.Index(j).Set(a)
		}
		for i := 0; i < v.Len(); i++ {
			if r.Intn(100) < 10 {
				f.Fill(v.Index(i).Addr().Interface())
			} else {
				mutate(f, r, v.Index(i), depth+1)
			}
		}
	case reflect.Map:
		if v.IsNil() {
			if r.Intn(100) < 10 {
				f.Fill(v.Addr().Interface())
			}
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			switch n := r.Intn(100); {
			case n < 6:
				v.SetMapIndex(k, reflect.Value{})
			case n < 16:
				e := reflect.New(v.Type().Elem())
				f.Fill(e.Interface())
				v.SetMapIndex(k, e.Elem())
			default:
				e := reflect.New(v.Type().Elem())
				e.Elem().Set(v.MapIndex(k))
				mutate(f, r, e.Elem(), depth+1)
				v.SetMapIndex(k, e.Elem())
			}
		}
	default:
		if r.Intn(100) < 10 {
			f.Fill(v.Addr().Interface())
		}
	}
}

// randfillCases is the VGC_RANDFILL mode of the driver.
func randfillCases(n int, seed int64, hintsFile string) {
	var h fillHints
	if hintsFile != "" {
		b, err := os.ReadFile(hintsFile)
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(b, &h); err != nil {
			panic(err)
		}
	}
	if h.MaxDepth == 0 {
		h.MaxDepth = 8
	}
	if h.MaxElements == 0 {
		h.MaxElements = 3
	}
	names := make([]string, 0, len(kinds))
	var roots []reflect.Type
	for k, e := range kinds {
		names = append(names, k)
		roots = append(roots, reflect.TypeOf(e.mk()))
	}
	sort.Strings(names)
	r := rand.New(rand.NewSource(seed))
	g := &filler{h: h, r: r, all: append(append([]string{}, h.Strings...), formatSamples...)}
	f := randfill.New().RandSource(r).NilChance(h.NilChance).NumElements(0, h.MaxElements).MaxDepth(h.MaxDepth).
		Funcs(g.customFuncs(roots)...)
	skipped := map[string]int{}
	lossy := 0
	cases := []map[string]any{}
	for i := 0; i < n; i++ {
		kind := names[r.Intn(len(names))]
		e := kinds[kind]
		obj := e.mk()
		f.Fill(obj)
		b, err := json.Marshal(obj)
		if err != nil {
			skipped["object does not marshal to JSON ("+reflect.TypeOf(err).String()+")"]++
			continue
		}
		again := e.mk()
		if err := json.Unmarshal(b, again); err != nil {
			skipped["object's JSON does not decode back into its type"]++
			continue
		}
		if b2, _ := json.Marshal(again); !bytes.Equal(b, b2) {
			lossy++
		}
		c := map[string]any{"name": "randfill-" + strconv.FormatInt(seed, 10) + "-" + strconv.Itoa(i), "kind": kind,
			"object": json.RawMessage(b)}
		if r.Intn(100) < 45 {
			old := e.mk()
			if r.Intn(100) < 20 {
				f.Fill(old)
			} else {
				_ = json.Unmarshal(b, old)
				mutate(f, r, reflect.ValueOf(old).Elem(), 0)
			}
			ob, err := json.Marshal(old)
			if err != nil {
				skipped["old object does not marshal to JSON ("+reflect.TypeOf(err).String()+")"]++
				continue
			}
			if err := json.Unmarshal(ob, e.mk()); err != nil {
				skipped["old object's JSON does not decode back into its type"]++
				continue
			}
			c["old"] = json.RawMessage(ob)
		}
		opts := map[string]bool{}
		for _, o := range h.Options {
			if r.Intn(2) == 0 {
				opts[o] = r.Intn(2) == 0
			}
		}
		if len(opts) > 0 {
			c["options"] = opts
		}
		if e.routed {
			switch n := r.Intn(100); {
			case n < 20 && len(h.Subresources) > 0:
				s := h.Subresources[r.Intn(len(h.Subresources))]
				c["subresources"] = strings.Split(strings.TrimPrefix(s, "/"), "/")
			case n < 24:
				c["subresources"] = []string{"bogus"}
			}
		}
		cases = append(cases, c)
	}
	out := map[string]any{"cases": cases, "skipped": skipped, "lossy": lossy}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
