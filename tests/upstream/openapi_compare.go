// The OpenAPI oracle's equivalence mode (tests/tests/openapi_apiserver.rs), beside openapi_apiserver.go in a scratch
// module holding k8s.io/kubernetes' API scheme (vgc_tests::kubernetes_defaulters::build_scheme: the k8s.io/api
// types and the release's generated declarative validation, registered by zz_register.go). Never compiled in the vgc
// repository itself.
//
//	./oracle compare DOCDIR N SEED OPTIONS KIND...
//	    N objects of the kinds given as `<apiVersion>/<Kind>` (`resource.k8s.io/v1/ResourceClaim`, `v1/Pod`) in
//	    turn — or, for the single KIND `all`, of every kind the scheme registers a validation function for (the
//	    release's `zz_generated.validations.go` registrations, `Scheme.HasValidationFunc`; sorted, one GVK per Go
//	    type) — filled by sigs.k8s.io/randfill from the Go types (independent of vgc's plan); a third created, a third
//	    updated from an independently filled old object, a third updated from a copy of themselves. Each is
//	    validated twice:
//	    - upstream: the release's generated validation, scheme.Validate / scheme.ValidateUpdate with OPTIONS (comma-
//	      separated option names, each off), for the main resource (a kind validated for one subresource only,
//	      Scale, for that one: subresourceOf);
//	    - vgc's schema: the kind's schema of DOCDIR, references inlined, run as the API server runs a custom
//	      resource's schema (registry/customresource: the OpenAPI schema validator, list-type uniqueness, the CEL
//	      validator, with CRD validation ratcheting on updates).
//	    Both validate the object (and old object) as the API server would hold it: non-nullable nulls dropped and
//	    the schema's defaults (the Go `+default`s) applied (openapi_crdside.go's applyDefaults).
//	    and the two sets of (field path, error type) compared. Prints {"cases", "same", "native_errors",
//	    "schema_errors", "kinds": [KIND...], "verdict_differs", "classes": {class: {"count", "example"}}}:
//	    verdict_differs counts the cases one side refuses and the other accepts; a class groups the errors one side
//	    has and the other has not (upstreamOnlyClass, schemaOnlyClass: by side, type, origin, and where upstream
//	    refuses the field or one above it — upstream's short-circuits). With the
//	    environment variable VGC_OPENAPI_DUMP set to a file name, every case that differs is also written there as
//	    one JSON object a line, with both sides' whole error lists and the (defaulted) objects: {"case", "kind",
//	    "op", "upstream": [ERROR...], "schema": [ERROR...], "object", "old"}, an ERROR {"field", "type", "origin",
//	    "detail"}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
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

// validatedKinds is every kind of the scheme with a registered validation function, as `<apiVersion>/<Kind>`,
// sorted; a Go type registered under several kinds is taken once (its first kind in that order).
func validatedKinds() []string {
	var all []string
	for gvk := range scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		all = append(all, gvk.GroupVersion().String()+"/"+gvk.Kind)
	}
	sort.Strings(all)
	seen := map[reflect.Type]bool{}
	var out []string
	for _, k := range all {
		obj, err := scheme.New(gvkOf(k))
		if err != nil || !scheme.HasValidationFunc(obj) {
			continue
		}
		if t := reflect.TypeOf(obj); !seen[t] {
			seen[t] = true
			out = append(out, k)
		}
	}
	return out
}

// subresourceOf is the subresource a kind's registered validation runs for: "" (the main resource) unless, on an
// empty object, it answers only "no validation found" there (Scale's is registered for "/scale" alone: the kind
// exists as that subresource), then the first of scale and status it answers for.
func subresourceOf(gvk schema.GroupVersionKind, options map[string]bool) []string {
	for _, sub := range [][]string{nil, {"scale"}, {"status"}} {
		obj, _ := scheme.New(gvk)
		errs := scheme.Validate(context.Background(), options, obj, sub...)
		if len(errs) != 1 || errs[0].Type != field.ErrorTypeInternal || !strings.Contains(errs[0].Detail, "no validation found") {
			return sub
		}
	}
	return nil
}

// itemEdit is the detail of upstream's `+k8s:update=NoAddItem`/`NoRemoveItem` error: upstream reports it at each
// added or removed item, a schema's CEL rule at the list (a rule's fieldPath is fixed).
func itemEdit(e *field.Error) bool {
	return e.Type == field.ErrorTypeForbidden &&
		(strings.Contains(e.Detail, "item may not be added") || strings.Contains(e.Detail, "item may not be removed"))
}

// upstreamOnlyClass is the class of an error upstream reports and the schema does not (crd: the schema's errors).
func upstreamOnlyClass(e *field.Error, op string, crd field.ErrorList) string {
	if itemEdit(e) {
		list := e.Field[:max(0, strings.LastIndex(e.Field, "["))]
		for _, c := range crd {
			if c.Field == list && c.Detail == e.Detail {
				return "pair: update=NoAddItem/NoRemoveItem, upstream at the item (this side), the schema at the list"
			}
		}
	}
	if e.Type == field.ErrorTypeDuplicate && op == "update" {
		return "upstream only: Duplicate value on an update"
	}
	if e.Origin == "" {
		return fmt.Sprintf("upstream only: %s, no origin (+k8s:customValidation)", e.Type)
	}
	return fmt.Sprintf("upstream only: %s origin=%s", e.Type, e.Origin)
}

// schemaOnlyClass is the class of an error the schema reports and upstream does not (native: upstream's errors,
// byField: the same by field path). An error at or below a field where upstream reports an error of another kind is
// classed by upstream's error: upstream's failing checks short-circuit (`immutable`, `update`, `maxItems`, `forbidden`
// stop the checks of the value and below; a format's `Invalid` stands alone where the schema adds a bound's `Too long`).
func schemaOnlyClass(e *field.Error, op string, native field.ErrorList, byField map[string][]*field.Error) string {
	if strings.Contains(e.Detail, "must be of type byte") {
		return "schema only: Invalid \"must be of type byte\" (kube-openapi's byte format)"
	}
	if itemEdit(e) {
		for _, u := range native {
			if strings.HasPrefix(u.Field, e.Field+"[") && u.Detail == e.Detail {
				return "pair: update=NoAddItem/NoRemoveItem, the schema at the list (this side), upstream at the item"
			}
		}
	}
	for _, u := range byField[e.Field] {
		if u.Type != e.Type {
			return fmt.Sprintf("schema only: %s at a field upstream refuses as %s origin=%s", e.Type, u.Type, u.Origin)
		}
	}
	for p := e.Field; ; {
		i := max(strings.LastIndex(p, "."), strings.LastIndex(p, "["))
		if i <= 0 {
			break
		}
		p = p[:i]
		if us := byField[p]; len(us) > 0 {
			return fmt.Sprintf("schema only: below a field upstream refuses, origin=%s (%s)", us[0].Origin, op)
		}
	}
	detail := index.ReplaceAllString(strings.ReplaceAll(e.Detail, e.Field, "<field>"), "[*]")
	if len(detail) > 60 {
		detail = detail[:60]
	}
	return fmt.Sprintf("schema only (%s): %s %s", op, e.Type, detail)
}

// dumpedError is an error of a VGC_OPENAPI_DUMP line.
type dumpedError struct {
	Field  string `json:"field"`
	Type   string `json:"type"`
	Origin string `json:"origin,omitempty"`
	Detail string `json:"detail"`
}

// differingCase is one line of the VGC_OPENAPI_DUMP file.
type differingCase struct {
	Case     int           `json:"case"`
	Kind     string        `json:"kind"`
	Op       string        `json:"op"`
	Upstream []dumpedError `json:"upstream"`
	Schema   []dumpedError `json:"schema"`
	Object   any           `json:"object"`
	Old      any           `json:"old,omitempty"`
}

func dumped(errs field.ErrorList) []dumpedError {
	out := []dumpedError{}
	for _, e := range errs {
		out = append(out, dumpedError{e.Field, string(e.Type), e.Origin, e.ErrorBody()})
	}
	return out
}

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
	if len(kinds) == 1 && kinds[0] == "all" {
		kinds = validatedKinds()
	}
	var dump *json.Encoder
	if p := os.Getenv("VGC_OPENAPI_DUMP"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			panic(err)
		}
		defer f.Close()
		dump = json.NewEncoder(f)
	}
	comps := map[string]any{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		for k, v := range schemasOf(f) { // openapi_apiserver.go, built beside this file
			comps[k] = v
		}
	}
	var roots []reflect.Type
	sides := map[string]*crdSide{}
	subs := map[string][]string{}
	for _, k := range kinds {
		subs[k] = subresourceOf(gvkOf(k), options)
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
	same, nativeErrs, schemaErrs, verdicts := 0, 0, 0, 0
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
				native = scheme.Validate(ctx, options, obj, subs[k]...)
			} else {
				native = scheme.ValidateUpdate(ctx, options, obj, old, subs[k]...)
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
		byField := map[string][]*field.Error{}
		for _, e := range native {
			byField[e.Field] = append(byField[e.Field], e)
		}
		for kk, e := range ns {
			if cs[kk] == nil {
				equal = false
				add(upstreamOnlyClass(e, op, crd), fmt.Sprintf("%s %s: %s: %s", k, op, e.Field, e.ErrorBody()))
			}
		}
		for kk, e := range cs {
			if ns[kk] == nil {
				equal = false
				add(schemaOnlyClass(e, op, native, byField), fmt.Sprintf("%s %s: %s: %s", k, op, e.Field, e.ErrorBody()))
			}
		}
		if (len(native) == 0) != (len(crd) == 0) {
			verdicts++
		}
		if equal {
			same++
		} else if dump != nil {
			_ = dump.Encode(differingCase{i, k, op, dumped(native), dumped(crd), u, uo})
		}
	}
	out, _ := json.Marshal(map[string]any{
		"cases": n, "same": same, "native_errors": nativeErrs, "schema_errors": schemaErrs, "kinds": kinds,
		"verdict_differs": verdicts,
		"classes":         classes,
	})
	fmt.Println(string(out))
}
