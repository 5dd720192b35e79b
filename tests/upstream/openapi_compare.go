// The OpenAPI oracle's equivalence mode (tests/tests/openapi_apiserver.rs), beside openapi_apiserver.go in a scratch
// module holding k8s.io/kubernetes' API scheme (vgc_tests::kubernetes_defaulters::build_scheme: the k8s.io/api
// types and the release's generated declarative validation, registered by zz_register.go). Never compiled in the vgc
// repository itself.
//
//	./oracle compare DOCDIR N SEED OPTIONS KIND...
//	    N objects of the kinds given as `<apiVersion>/<Kind>` (`resource.k8s.io/v1/ResourceClaim`, `v1/Pod`) in
//	    turn, filled by sigs.k8s.io/randfill from the Go types (independent of vgc's plan); a third created, a third
//	    updated from an independently filled old object, a third updated from a copy of themselves. Each is
//	    validated twice:
//	    - upstream: the release's generated validation, scheme.Validate / scheme.ValidateUpdate with OPTIONS (comma-
//	      separated option names, each off);
//	    - vgc's schema: the kind's schema of DOCDIR, references inlined, run as the API server runs a custom
//	      resource's schema (registry/customresource: the OpenAPI schema validator, list-type uniqueness, the CEL
//	      validator, with CRD validation ratcheting on updates).
//	    Both validate the object (and old object) as the API server would hold it: non-nullable nulls dropped and
//	    the schema's defaults (the Go `+default`s) applied (openapi_crdside.go's applyDefaults).
//	    and the two sets of (field path, error type) compared. Prints {"cases", "same", "native_errors",
//	    "schema_errors", "classes": {class: {"count", "example"}}}: a class is the side with the extra error, its
//	    type and its origin (upstream's side) or its detail (the schema's side).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/randfill"
)

var scheme = runtime.NewScheme()

func init() {
	modes["compare"] = compare
	if err := registerTypes(scheme); err != nil {
		panic(err)
	}
	if err := registerValidations(scheme); err != nil {
		panic(err)
	}
}

// Strings the fill draws from: empty values and values the rules test for are frequent.
var strs = []string{
	"", "", "", "", "a", "x-1", "abc", "a.b", "A", "-a", "a_b", "example.com", "example.com/a", "a/b/c",
	"kubernetes.io/x", "1.2.3.4", "::1", "10.0.0.0/8", "123e4567-e89b-12d3-a456-426614174000", "not-a-uuid",
	"TCP", "UDP", "True", "False", "Unknown", "Always", "Never", "Exists", "Equal", "NoSchedule", "All",
	"ExactCount", "Delete", "Retain", "Opaque", strings.Repeat("a", 64), strings.Repeat("b", 254),
}

var ints = []int64{0, 0, 1, 2, 3, -1, 5, 10, 100, 1000, 65536, 1 << 31}

var quantities = []string{"0", "1", "100m", "1Gi", "-1", "1.5", "2k"}

type filler struct{ r *rand.Rand }

func (g *filler) fillValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[g.r.Intn(len(strs))])
	case reflect.Bool:
		v.SetBool(g.r.Intn(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := ints[g.r.Intn(len(ints))]
		if v.OverflowInt(n) {
			n = 1
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n := uint64(ints[g.r.Intn(len(ints))] & 0xffff)
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(ints[g.r.Intn(len(ints))]))
	default:
		v.Set(reflect.Zero(v.Type()))
	}
}

var continueType = reflect.TypeOf(randfill.Continue{})

func basic(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32,
		reflect.Float64:
		return true
	}
	return false
}

// funcs: fill functions for the value types that must round-trip through JSON, and for every basic-kinded type
// reachable from the roots (randfill matches custom functions by exact type).
func (g *filler) funcs(roots []reflect.Type) []interface{} {
	funcs := []interface{}{
		func(t *time.Time, c randfill.Continue) { *t = time.Unix(int64(c.Intn(2_000_000_000)), 0).UTC() },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(x *intstr.IntOrString, c randfill.Continue) {
			if c.Intn(2) == 0 {
				*x = intstr.FromInt32(int32(ints[c.Intn(len(ints))] & 0xffff))
			} else {
				*x = intstr.FromString(strs[c.Intn(len(strs))])
			}
		},
		func(x *runtime.RawExtension, c randfill.Continue) { *x = runtime.RawExtension{} },
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
		case reflect.Interface, reflect.Chan, reflect.Func:
		default:
			if !basic(t.Kind()) {
				return
			}
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

// schemaName is kube-openapi's name of a Go type (`k8s.io/api/apps/v1.Deployment` → `io.k8s.api.apps.v1.Deployment`).
func schemaName(t reflect.Type) string {
	parts := strings.SplitN(t.PkgPath(), "/", 2)
	dom := strings.Split(parts[0], ".")
	for i, j := 0, len(dom)-1; i < j; i, j = i+1, j-1 {
		dom[i], dom[j] = dom[j], dom[i]
	}
	name := strings.Join(dom, ".")
	if len(parts) == 2 {
		name += "." + strings.ReplaceAll(parts[1], "/", ".")
	}
	return name + "." + t.Name()
}

// defaulted is obj as the schema's custom resource: its JSON form with non-nullable nulls dropped and the schema's
// defaults applied (structuraldefaulting, as the API server's decoding does); obj itself is set to the same value.
func defaulted(obj runtime.Object, s *structuralschema.Structural) (map[string]any, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	applyDefaults(u, s)
	fresh := reflect.New(reflect.TypeOf(obj).Elem())
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, fresh.Interface()); err != nil {
		return nil, err
	}
	reflect.ValueOf(obj).Elem().Set(fresh.Elem())
	return u, nil
}

var index = regexp.MustCompile(`\[[^\]]*\]`)

type class struct {
	Count   int    `json:"count"`
	Example string `json:"example"`
}

func key(e *field.Error) string { return e.Field + "\x00" + string(e.Type) }

func compare(args []string) {
	dir := args[0]
	n, _ := strconv.Atoi(args[1])
	seed, _ := strconv.ParseInt(args[2], 10, 64)
	options := map[string]bool{}
	for _, o := range strings.Split(args[3], ",") {
		if o != "" && o != "-" {
			options[o] = false
		}
	}
	kinds := args[4:]
	comps := map[string]any{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		for k, v := range schemasOf(f) { // openapi_apiserver.go, built beside this file
			comps[k] = v
		}
	}
	var roots []reflect.Type
	sides := map[string]*crdSide{}
	for _, k := range kinds {
		obj, err := scheme.New(gvkOf(k))
		if err != nil {
			panic(err)
		}
		t := reflect.TypeOf(obj).Elem()
		roots = append(roots, t)
		sides[k] = newCRDSide(comps, schemaName(t))
	}
	g := &filler{r: rand.New(rand.NewSource(seed))}
	f := randfill.New().NilChance(0.3).NumElements(0, 3).MaxDepth(12).RandSource(rand.NewSource(seed)).Funcs(g.funcs(roots)...)
	classes := map[string]*class{}
	add := func(c, ex string) {
		if classes[c] == nil {
			classes[c] = &class{Example: ex}
		}
		classes[c].Count++
	}
	same, nativeErrs, schemaErrs := 0, 0, 0
	ctx := context.Background()
	for i := 0; i < n; i++ {
		k := kinds[i%len(kinds)]
		gvk := gvkOf(k)
		obj, _ := scheme.New(gvk)
		f.Fill(obj)
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		var old runtime.Object
		switch i % 3 {
		case 1:
			old, _ = scheme.New(gvk)
			f.Fill(old)
			old.GetObjectKind().SetGroupVersionKind(gvk)
		case 2:
			old = obj.DeepCopyObject()
		}
		// As the API server does with a custom resource before validating it: nulls of fields that are not nullable
		// are dropped (Go decodes them as nil, which upstream reads as unset too) and the schema's defaults (the
		// `+default`s) applied. Both sides validate the defaulted object, as the API server defaults a native
		// object before validating it too.
		u, err := defaulted(obj, sides[k].structural)
		if err != nil {
			add("skipped: not convertible to JSON", err.Error())
			continue
		}
		var uo map[string]any
		if old != nil {
			if uo, err = defaulted(old, sides[k].structural); err != nil {
				add("skipped: not convertible to JSON", err.Error())
				continue
			}
		}
		var native, crd field.ErrorList
		func() {
			defer func() {
				if r := recover(); r != nil {
					native = field.ErrorList{field.InternalError(nil, fmt.Errorf("panic: %v", r))}
				}
			}()
			if old == nil {
				native = scheme.Validate(ctx, options, obj)
			} else {
				native = scheme.ValidateUpdate(ctx, options, obj, old)
			}
		}()
		crd = sides[k].validate(u, uo)
		nativeErrs += len(native)
		schemaErrs += len(crd)
		ns, cs := map[string]*field.Error{}, map[string]*field.Error{}
		for _, e := range native {
			ns[key(e)] = e
		}
		for _, e := range crd {
			cs[key(e)] = e
		}
		equal := true
		op := "create"
		if old != nil {
			op = "update"
		}
		for kk, e := range ns {
			if cs[kk] == nil {
				equal = false
				add(fmt.Sprintf("upstream only: %s origin=%s", e.Type, e.Origin), fmt.Sprintf("%s %s: %s: %s", k, op, e.Field, e.ErrorBody()))
			}
		}
		for kk, e := range cs {
			if ns[kk] == nil {
				equal = false
				detail := index.ReplaceAllString(strings.ReplaceAll(e.Detail, e.Field, "<field>"), "[*]")
				if len(detail) > 80 {
					detail = detail[:80]
				}
				add(fmt.Sprintf("schema only: %s %s", e.Type, detail), fmt.Sprintf("%s %s: %s: %s", k, op, e.Field, e.ErrorBody()))
			}
		}
		if equal {
			same++
		}
	}
	out, _ := json.Marshal(map[string]any{
		"cases": n, "same": same, "native_errors": nativeErrs, "schema_errors": schemaErrs, "classes": classes,
	})
	fmt.Println(string(out))
}
