// The server-defaulting oracle's Go side (tests/tests/server_defaults_oracle.rs): the API server's own defaulters —
// each group/version's RegisterDefaults from unchanged copies of k8s.io/kubernetes' pkg/apis/<group>/<version>
// defaults.go and zz_generated.defaults.go, registered in a runtime.Scheme with the k8s.io/api types, as the API
// server registers them — against the defaults `vgc validate` applies. Copied into the oracle's scratch module
// beside a generated zz_register.go (registerTypes, registerDefaults); never compiled in the vgc repository itself.
//
//	./oracle gen N SEED KIND...   prints N objects, one JSON document per line, of the kinds given as
//	                              `<apiVersion>/<Kind>` (`apps/v1/StatefulSet`, `v1/Secret`) in turn, filled by
//	                              sigs.k8s.io/randfill from the Go types (independent of vgc's plan) with strings and
//	                              numbers drawn from small pools, so that empty values, nils and the values the
//	                              defaulters test for are frequent.
//	./oracle check FIELDS GATES   reads lines {"name", "input", "vgc"}: decodes `input` into its kind's Go type and
//	                              runs the scheme's defaulting (the release's SetObjectDefaults_<Kind>), decodes
//	                              vgc's defaulted `vgc` into the same type without defaulting, and compares, at
//	                              every path where one of the FIELDS (a JSON file: [{"pkg", "type", "field"}], Go
//	                              field names) occurs in either, the two values' JSON. GATES: `Name=true,…` set on
//	                              the feature gate first, with the gates they depend on (`-` for none). Prints {"cases", "differences",
//	                              "first": [...], "fields": {"<pkg>.<Type>.<Field>": {"seen", "defaulted"}}} —
//	                              "defaulted": how many times Go's defaulting changed the field.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"sigs.k8s.io/randfill"
)

var scheme = runtime.NewScheme()

func init() {
	if err := registerTypes(scheme); err != nil {
		panic(err)
	}
	if err := registerDefaults(scheme); err != nil {
		panic(err)
	}
}

// Strings: the empty string (what the defaulters test for) a third of the time, else values the ported functions
// and the API's enums use, and a few others.
var strs = []string{
	"", "", "", "", "", "", "", "", "", "",
	"a", "x-1", "example.com/a", "Always", "Never", "OnFailure", "Opaque", "kubernetes.io/tls", "OrderedReady",
	"Parallel", "ExactCount", "All", "Delete", "Retain", "Immediate", "WaitForFirstConsumer", "Persistent",
	"Ephemeral", "Resource", "Utilization", "cpu", "memory", "PreemptLowerPriority", "digital signature",
	"RollingUpdate", "OnDelete", "TCP",
}
var ints = []int64{0, 0, 0, 1, 2, 3, -1, 10, 100, 2147483647}
var quantities = []string{"0", "1", "100m", "1Gi"}

type filler struct{ r *rand.Rand }

func (g *filler) fillValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[g.r.Intn(len(strs))])
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := ints[g.r.Intn(len(ints))]
		if v.OverflowInt(x) {
			x = 0
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x := ints[g.r.Intn(len(ints))]
		if x < 0 || v.OverflowUint(uint64(x)) {
			x = 0
		}
		v.SetUint(uint64(x))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(ints[g.r.Intn(len(ints))]) / 2)
	case reflect.Bool:
		v.SetBool(g.r.Intn(2) == 0)
	default:
		v.Set(reflect.Zero(v.Type()))
	}
}

var continueType = reflect.TypeOf(randfill.Continue{})

// basic: a kind fillValue fills.
func basic(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32,
		reflect.Float64:
		return true
	}
	return false
}

// funcs: fill functions for the value types that must round-trip through JSON, and for every basic-kinded,
// interface, chan and func type reachable from the roots (randfill matches custom functions by exact type).
func (g *filler) funcs(roots []reflect.Type) []interface{} {
	funcs := []interface{}{
		func(t *time.Time, c randfill.Continue) { *t = time.Unix(int64(c.Intn(2_000_000_000)), 0).UTC() },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(x *intstr.IntOrString, c randfill.Continue) {
			if c.Intn(2) == 0 {
				*x = intstr.FromInt32(int32(ints[c.Intn(len(ints))]))
			} else {
				*x = intstr.FromString(strs[c.Intn(len(strs))])
			}
		},
		func(x *runtime.RawExtension, c randfill.Continue) {
			*x = runtime.RawExtension{}
			if c.Intn(2) == 0 {
				x.Raw = []byte(`{"a":1}`)
			}
		},
		func(x *metav1.FieldsV1, c randfill.Continue) { *x = metav1.FieldsV1{} },
	}
	special := map[reflect.Type]bool{}
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
		case reflect.Ptr:
			// randfill hands a pointer field to the custom function of its target type, allocated: a function
			// of the pointer type itself keeps such fields nil as often as other pointers.
			if basic(t.Elem().Kind()) {
				elem := t.Elem()
				fn := reflect.MakeFunc(reflect.FuncOf([]reflect.Type{reflect.PointerTo(t), continueType}, nil, false),
					func(args []reflect.Value) []reflect.Value {
						p := args[0].Elem()
						if g.r.Float64() < 0.4 {
							p.Set(reflect.Zero(t))
						} else {
							p.Set(reflect.New(elem))
							g.fillValue(p.Elem())
						}
						return nil
					})
				funcs = append(funcs, fn.Interface())
			}
			walk(t.Elem())
			return
		case reflect.Slice, reflect.Array:
			walk(t.Elem())
			return
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
			return
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				if t.Field(i).IsExported() {
					walk(t.Field(i).Type)
				}
			}
			return
		}
		fn := reflect.MakeFunc(reflect.FuncOf([]reflect.Type{reflect.PointerTo(t), continueType}, nil, false),
			func(args []reflect.Value) []reflect.Value {
				g.fillValue(args[0].Elem())
				return nil
			})
		funcs = append(funcs, fn.Interface())
	}
	for _, t := range roots {
		walk(t)
	}
	return funcs
}

func gvkOf(kind string) schema.GroupVersionKind {
	i := strings.LastIndex(kind, "/")
	gv, err := schema.ParseGroupVersion(kind[:i])
	if err != nil {
		panic(err)
	}
	return gv.WithKind(kind[i+1:])
}

func gen(n int, seed int64, kinds []string) {
	var gvks []schema.GroupVersionKind
	var roots []reflect.Type
	for _, k := range kinds {
		gvk := gvkOf(k)
		obj, err := scheme.New(gvk)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", k, err)
			os.Exit(1)
		}
		gvks = append(gvks, gvk)
		roots = append(roots, reflect.TypeOf(obj).Elem())
	}
	g := &filler{r: rand.New(rand.NewSource(seed))}
	f := randfill.NewWithSeed(seed).NilChance(0.4).NumElements(0, 2).MaxDepth(9).Funcs(g.funcs(roots)...)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := 0; i < n; i++ {
		gvk := gvks[i%len(gvks)]
		obj, _ := scheme.New(gvk)
		f.Fill(obj)
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		b, err := json.Marshal(obj)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
}

type fieldKey struct{ pkg, typ string }

// decode reads raw as the Go type of its apiVersion and kind.
func decode(raw json.RawMessage) (runtime.Object, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, err
	}
	obj, err := scheme.New(tm.GroupVersionKind())
	if err != nil {
		return nil, err
	}
	return obj, json.Unmarshal(raw, obj)
}

// extract records, for every occurrence of a wanted field in v (at path), the field's value as JSON, under
// "<path>" with the key "<pkg>.<Type>.<Field>" beside it.
func extract(v reflect.Value, path string, want map[fieldKey]map[string]bool, out map[string][2]string) {
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface:
		if !v.IsNil() {
			extract(v.Elem(), path, want, out)
		}
	case reflect.Struct:
		t := v.Type()
		fields := want[fieldKey{t.PkgPath(), t.Name()}]
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			name := strings.Split(sf.Tag.Get("json"), ",")[0]
			if name == "-" {
				continue
			}
			p := path
			if name != "" {
				p = path + "." + name
			} else if !sf.Anonymous {
				p = path + "." + sf.Name
			}
			if fields[sf.Name] {
				b, err := json.Marshal(v.Field(i).Interface())
				if err != nil {
					b = []byte(err.Error())
				}
				out[p] = [2]string{t.PkgPath() + "." + t.Name() + "." + sf.Name, string(b)}
			}
			extract(v.Field(i), p, want, out)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			extract(v.Index(i), path+"["+strconv.Itoa(i)+"]", want, out)
		}
	case reflect.Map:
		keys := v.MapKeys()
		for _, k := range keys {
			extract(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k.Interface()), want, out)
		}
	}
}

func check(fieldsFile, gates string) {
	type field struct {
		Pkg   string `json:"pkg"`
		Type  string `json:"type"`
		Field string `json:"field"`
	}
	var fields []field
	b, err := os.ReadFile(fieldsFile)
	if err == nil {
		err = json.Unmarshal(b, &fields)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	want := map[fieldKey]map[string]bool{}
	type stat struct {
		Seen      int `json:"seen"`
		Defaulted int `json:"defaulted"`
	}
	stats := map[string]*stat{}
	for _, f := range fields {
		k := fieldKey{f.Pkg, f.Type}
		if want[k] == nil {
			want[k] = map[string]bool{}
		}
		want[k][f.Field] = true
		stats[f.Pkg+"."+f.Type+"."+f.Field] = &stat{}
	}
	if gates != "-" {
		m := map[string]bool{}
		for _, kv := range strings.Split(gates, ",") {
			name, value, _ := strings.Cut(kv, "=")
			m[name] = value == "true"
		}
		// A gate enabled with gates it depends on disabled is refused: those are enabled too (and named).
		deps := regexp.MustCompile(`depends on features that are disabled: \[([^\]]*)\]`)
		for {
			err := utilfeature.DefaultMutableFeatureGate.SetFromMap(m)
			if err == nil {
				break
			}
			found := deps.FindStringSubmatch(err.Error())
			if found == nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			for _, d := range strings.Fields(strings.ReplaceAll(found[1], ",", " ")) {
				if m[d] {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				m[d] = true
				fmt.Fprintf(os.Stderr, "oracle: %s enabled too (a gate given depends on it)\n", d)
			}
		}
	}
	type line struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
		Vgc   json.RawMessage `json:"vgc"`
	}
	type difference struct {
		Name  string `json:"name"`
		Path  string `json:"path"`
		Field string `json:"field"`
		Go    string `json:"go"`
		Vgc   string `json:"vgc"`
	}
	var first []difference
	cases, differences := 0, 0
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 256<<20)
	for in.Scan() {
		var l line
		if err := json.Unmarshal(in.Bytes(), &l); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cases++
		obj, err := decode(l.Input)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: the input does not decode: %v\n", l.Name, err)
			os.Exit(1)
		}
		before := map[string][2]string{}
		extract(reflect.ValueOf(obj), "", want, before)
		scheme.Default(obj)
		theirs := map[string][2]string{}
		extract(reflect.ValueOf(obj), "", want, theirs)
		ours := map[string][2]string{}
		if v, err := decode(l.Vgc); err != nil {
			ours["<decode>"] = [2]string{"", err.Error()}
		} else {
			extract(reflect.ValueOf(v), "", want, ours)
		}
		paths := map[string]bool{}
		for p, x := range theirs {
			paths[p] = true
			s := stats[x[0]]
			s.Seen++
			if before[p] != x {
				s.Defaulted++
			}
		}
		for p := range ours {
			paths[p] = true
		}
		sorted := make([]string, 0, len(paths))
		for p := range paths {
			sorted = append(sorted, p)
		}
		sort.Strings(sorted)
		for _, p := range sorted {
			if theirs[p] != ours[p] {
				differences++
				if len(first) < 20 {
					f := theirs[p][0]
					if f == "" {
						f = ours[p][0]
					}
					first = append(first, difference{Name: l.Name, Path: p, Field: f, Go: theirs[p][1], Vgc: ours[p][1]})
				}
			}
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if first == nil {
		first = []difference{}
	}
	json.NewEncoder(os.Stdout).Encode(map[string]interface{}{
		"cases": cases, "differences": differences, "first": first, "fields": stats,
	})
}

func main() {
	switch {
	case len(os.Args) >= 5 && os.Args[1] == "gen":
		n, _ := strconv.Atoi(os.Args[2])
		seed, _ := strconv.ParseInt(os.Args[3], 10, 64)
		gen(n, seed, os.Args[4:])
	case len(os.Args) == 4 && os.Args[1] == "check":
		check(os.Args[2], os.Args[3])
	default:
		fmt.Fprintln(os.Stderr, "usage: oracle gen N SEED KIND... | oracle check FIELDS GATES")
		os.Exit(2)
	}
}
