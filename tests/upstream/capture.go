// Instrumentation added by vgc's upstream-suite test (tests/tests/output_tests.rs) to a temporary copy of upstream's
// k8s.io/code-generator/cmd/validation-gen/testscheme package; never compiled in the vgc repository itself.
//
// The test renames upstream's `(*ValidationTester).validate` to `validateUpstream` and `New` to `newUpstream`; this
// file supplies the originals' replacements:
//   - validate runs upstream's validation unchanged and, when VGC_CAPTURE_DIR is set, appends one JSON line per call
//     to <dir>/<pid>.jsonl: the package directory, the calling test, the call's sequence number among that test's
//     calls on the same type, the
//     value's type, the object and old object as JSON, options, subresources and upstream's actual errors in the
//     canonical line form `<field> | <ErrorBody> | origin=<origin> | sc=<bool> | <alpha|beta|->`;
//   - New records every scheme so the randfill driver can enumerate the registered types.
// A call whose value does not survive a JSON round trip (marshal, unmarshal into a fresh value, validate again: other
// errors) is captured with `skip` saying why, so the replay counts it instead of comparing it.

package testscheme

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// AllSchemes holds every Scheme created by New, in creation order.
var AllSchemes []*Scheme

// New creates a new Scheme and records it in AllSchemes.
func New() *Scheme {
	s := newUpstream()
	AllSchemes = append(AllSchemes, s)
	return s
}

// RegisteredTypes lists the types with a registered validation function, sorted by name.
func (s *Scheme) RegisteredTypes() []reflect.Type {
	out := make([]reflect.Type, 0, len(s.validationFuncs))
	for t := range s.validationFuncs {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

var (
	captureMu   sync.Mutex
	captureFile *os.File
	captureSeq  = map[string]int{}
)

type capturedCall struct {
	Pkg          string          `json:"pkg"`
	Test         string          `json:"test"`
	Seq          int             `json:"seq"`
	Kind         string          `json:"kind"`
	Registered   bool            `json:"registered"`
	Update       bool            `json:"update"`
	Object       json.RawMessage `json:"object,omitempty"`
	Old          json.RawMessage `json:"old,omitempty"`
	Options      map[string]bool `json:"options,omitempty"`
	Subresources []string        `json:"subresources,omitempty"`
	Got          []string        `json:"got"`
	Skip         string          `json:"skip,omitempty"`
}

// ErrorLine renders one error the way vgc's differential drivers do.
func ErrorLine(e *field.Error) string {
	st := "-"
	if e.IsAlpha() {
		st = "alpha"
	} else if e.IsBeta() {
		st = "beta"
	}
	return fmt.Sprintf("%s | %s | origin=%s | sc=%t | %s", e.Field, e.ErrorBody(), e.Origin, e.ShortCircuit, st)
}

func errorLines(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, ErrorLine(e))
	}
	return out
}

func sorted(lines []string) []string {
	out := append([]string(nil), lines...)
	sort.Strings(out)
	return out
}

// roundTrip marshals v and unmarshals the JSON into a fresh value of v's type.
func roundTrip(v any) (json.RawMessage, any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	t := reflect.TypeOf(v)
	if t == nil {
		return b, nil, nil
	}
	if t.Kind() == reflect.Ptr {
		fresh := reflect.New(t.Elem())
		if reflect.ValueOf(v).IsNil() {
			return b, v, nil
		}
		if err := json.Unmarshal(b, fresh.Interface()); err != nil {
			return b, nil, err
		}
		return b, fresh.Interface(), nil
	}
	fresh := reflect.New(t)
	if err := json.Unmarshal(b, fresh.Interface()); err != nil {
		return b, nil, err
	}
	return b, fresh.Elem().Interface(), nil
}

func (v *ValidationTester) validate() field.ErrorList {
	errs := v.validateUpstream()
	dir := os.Getenv("VGC_CAPTURE_DIR")
	if dir == "" {
		return errs
	}
	rt := reflect.TypeOf(v.value)
	for rt != nil && rt.Kind() == reflect.Ptr {
		rt = rt.Elem()
	}
	wd, _ := os.Getwd()
	c := capturedCall{
		Pkg:          wd,
		Test:         v.T.Name(),
		Update:       v.isUpdate,
		Options:      v.options,
		Subresources: v.subresources,
		Got:          errorLines(errs),
	}
	if rt != nil {
		c.Kind = rt.PkgPath() + "." + rt.Name()
	}
	_, c.Registered = v.s.validationFuncs[reflect.TypeOf(v.value)]
	obj, objRT, err := roundTrip(v.value)
	c.Object = obj
	if err != nil {
		c.Skip = "object not JSON round-trippable: " + err.Error()
	}
	var oldRT any
	if v.oldValue != nil {
		var old json.RawMessage
		old, oldRT, err = roundTrip(v.oldValue)
		c.Old = old
		if err != nil && c.Skip == "" {
			c.Skip = "old object not JSON round-trippable: " + err.Error()
		}
	}
	if c.Skip == "" {
		again := &ValidationTester{ValidationTestBuilder: v.ValidationTestBuilder, value: objRT, oldValue: oldRT,
			isUpdate: v.isUpdate, options: v.options, subresources: v.subresources}
		// Compared as multisets: Go randomises map iteration, so two runs may order map errors differently (the
		// replay compares the order where Go defines one).
		got := errorLines(again.validateUpstream())
		if !reflect.DeepEqual(sorted(got), sorted(c.Got)) {
			c.Skip = fmt.Sprintf("the value does not survive a JSON round trip: after it upstream reports %q", got)
		}
	}
	captureMu.Lock()
	defer captureMu.Unlock()
	// Numbered per test and type: fixture tests visit the registered types in Go's random map order.
	key := c.Test + "\x00" + c.Kind
	c.Seq = captureSeq[key]
	captureSeq[key]++
	line, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	if captureFile == nil {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%d.jsonl", os.Getpid())), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			panic(err)
		}
		captureFile = f
	}
	if _, err := captureFile.Write(append(line, '\n')); err != nil {
		panic(err)
	}
	return errs
}
