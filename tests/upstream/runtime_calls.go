// Runtime differential driver: random inputs, generated here in Go from a seeded generator (never by vgc), passed to
// k8s.io/apimachinery's pkg/api/validate functions; each call and the errors it returned are printed so that
// tests/tests/runtime_differential.rs can make the same call through vgc-runtime and compare the error lists exactly.
// Built by that test in a scratch module requiring the k8s.io/apimachinery release under test (fetched by name
// through the Go module proxy); never compiled in the vgc repository itself. runtime_calls_138.go adds the functions
// that apimachinery v0.38 introduced (copied beside this file only for that release).
//
// VGC_CALLS=<n> VGC_CALLS_SEED=<seed> ./calls prints one JSON object per line:
// {"fn": <function>, "path": <path shape 0-3>, "args": {...}, "got": [<error line>, ...]}
// An error line is `<field> | <ErrorBody> | origin=<origin> | sc=<short circuit> | <alpha|beta|->`, the line format
// of the other differential drivers (tests/tests/support/harness.rs).

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A call: the function name, the arguments as JSON for the Rust side, and the errors upstream returned.
type call struct {
	Fn   string         `json:"fn"`
	Path int            `json:"path"`
	Args map[string]any `json:"args"`
	Got  []string       `json:"got"`
	// The API server's response body for an object with these errors (see status below).
	Status string `json:"status"`
}

// A generator of one kind of call: fills Args and returns upstream's errors.
type gen func(g *rng, fld *field.Path, args map[string]any) field.ErrorList

// Every call kind with its weight (how often it is picked); runtime_calls_138.go adds the v0.38 functions.
var gens = map[string]gen{}
var weights = map[string]int{}

func register(name string, weight int, g gen) {
	gens[name] = g
	weights[name] = weight
}

type rng struct{ *rand.Rand }

func (g *rng) pct(p int) bool { return g.IntN(100) < p }

func (g *rng) pick(xs []string) string { return xs[g.IntN(len(xs))] }

var ctx = context.Background()
var op = operation.Operation{Type: operation.Create}

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

// Pieces strings are built from: every character class the format validators distinguish (lower, upper, digits,
// dash, dot, underscore, slash, percent, space, non-ASCII, control), and the words some of them look for.
var pieces = []string{
	"a", "b", "z", "x", "0", "1", "9", "-", ".", "_", "/", "A", "Z", "%", " ", "é", "\u00e9t\u00e9", "\t", ":", "=",
	"..", ".", "-a", "a-", "kubernetes.io/", "requests.", "example.com", "example.com/", "sub.example.com/", "k8s.io",
	"abc", "my-name", "my_name", "MyName", "123-abc", "a.b", "x/y", "//", "\"", "<>&", "\u2028", "😀",
}

// A random string: usually 0-6 pieces, sometimes a long run around the format limits (32, 63, 253, 254 bytes).
func (g *rng) str() string {
	if g.pct(12) {
		n := []int{31, 32, 33, 62, 63, 64, 252, 253, 254, 300}[g.IntN(10)]
		c := g.pick([]string{"a", "b", "1", "-", "A", "é"})
		s := strings.Repeat(c, n)
		if g.pct(40) {
			s = g.pick([]string{"a", "example.com/", "x."}) + s
		}
		if g.pct(40) {
			s = s + g.pick([]string{"a", "/a", "-", "/x/y"})
		}
		return s
	}
	var b strings.Builder
	for n := g.IntN(7); n > 0; n-- {
		b.WriteString(g.pick(pieces))
	}
	return b.String()
}

// A random UUID-shaped string: valid lowercase, or with one character changed, upper case, or a wrong length.
func (g *rng) uuid() string {
	const hex = "0123456789abcdef"
	b := []byte("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
	for i := range b {
		if b[i] == 'x' {
			b[i] = hex[g.IntN(16)]
		}
	}
	s := string(b)
	switch g.IntN(6) {
	case 0:
		s = strings.ToUpper(s)
	case 1:
		i := g.IntN(len(s))
		s = s[:i] + g.pick([]string{"g", "-", "A", "0", "é"}) + s[i+1:]
	case 2:
		s = s[:g.IntN(len(s))]
	case 3:
		s += g.pick([]string{"0", "-"})
	}
	return s
}

var formatNames = []string{
	"k8s-short-name", "k8s-long-name", "k8s-long-name-caseless", "k8s-label-key", "k8s-prefixed-label-key",
	"k8s-label-value", "k8s-path-segment-name", "k8s-uuid", "k8s-resource-pool-name", "k8s-extended-resource-name",
	"k8s-resource-fully-qualified-name",
}

func formatFunc(name string) func(context.Context, operation.Operation, *field.Path, *string, *string) field.ErrorList {
	switch name {
	case "k8s-short-name":
		return validate.ShortName[string]
	case "k8s-long-name":
		return validate.LongName[string]
	case "k8s-long-name-caseless":
		return validate.LongNameCaseless[string]
	case "k8s-label-key":
		return validate.LabelKey[string]
	case "k8s-prefixed-label-key":
		return validate.PrefixedLabelKey[string]
	case "k8s-label-value":
		return validate.LabelValue[string]
	case "k8s-path-segment-name":
		return validate.PathSegmentName[string]
	case "k8s-uuid":
		return validate.UUID[string]
	case "k8s-resource-pool-name":
		return validate.ResourcePoolName[string]
	case "k8s-extended-resource-name":
		return validate.ExtendedResourceName[string]
	case "k8s-resource-fully-qualified-name":
		return validate.ResourceFullyQualifiedName[string]
	}
	panic("unknown format " + name)
}

// An optional string argument: nil about 3% of the time (upstream returns no error), else `s`.
func (g *rng) optional(s string) *string {
	if g.pct(3) {
		return nil
	}
	return &s
}

func strArg(v *string) any {
	if v == nil {
		return nil
	}
	return *v
}

// An integer near the interesting points of a type's range: 0, ±1, the bounds, or anything in range.
func intNear[T int8 | int16 | int32 | int64 | int | uint8 | uint16 | uint32 | uint64](g *rng, lo, hi T) T {
	switch g.IntN(6) {
	case 0:
		return lo
	case 1:
		return hi
	case 2:
		return T(g.IntN(5)) // 0..4
	case 3:
		if lo < 0 {
			var zero T
			return zero - T(g.IntN(5)+1)
		}
		return T(g.IntN(100))
	default:
		return T(g.Uint64())
	}
}

// minMax registers Minimum and Maximum over one integer type; `num` renders a value as JSON (a string for 64-bit
// unsigned values beyond int64, which JSON numbers still carry exactly through serde_json).
func minMax[T int8 | int16 | int32 | int64 | int | uint8 | uint16 | uint32 | uint64](typ string, lo, hi T) {
	register("minimum/"+typ, 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		v, b := intNear(g, lo, hi), intNear(g, lo, hi)
		var p *T
		if !g.pct(3) {
			p = &v
			args["value"] = v
		} else {
			args["value"] = nil
		}
		args["bound"] = b
		return validate.Minimum(ctx, op, fld, p, nil, b)
	})
	register("maximum/"+typ, 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		v, b := intNear(g, lo, hi), intNear(g, lo, hi)
		var p *T
		if !g.pct(3) {
			p = &v
			args["value"] = v
		} else {
			args["value"] = nil
		}
		args["bound"] = b
		return validate.Maximum(ctx, op, fld, p, nil, b)
	})
}

// A time.Duration (an integer type with a String method): whole units, fractions, negatives, extremes.
func (g *rng) duration() time.Duration {
	switch g.IntN(5) {
	case 0:
		return time.Duration(g.IntN(2000) - 1000)
	case 1:
		return time.Duration(g.IntN(100)) * []time.Duration{time.Microsecond, time.Millisecond, time.Second, time.Minute, time.Hour}[g.IntN(5)]
	case 2:
		return []time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, time.Second, 90 * time.Minute}[g.IntN(7)]
	default:
		return time.Duration(g.Int64N(1<<45) - 1<<44)
	}
}

func init() {
	register("format", 40, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		name := g.pick(formatNames)
		var s string
		if name == "k8s-uuid" && g.pct(70) {
			s = g.uuid()
		} else {
			s = g.str()
		}
		v := g.optional(s)
		args["name"] = name
		args["value"] = strArg(v)
		return formatFunc(name)(ctx, op, fld, v, nil)
	})
	minMax[int8]("int8", math.MinInt8, math.MaxInt8)
	minMax[int16]("int16", math.MinInt16, math.MaxInt16)
	minMax[int32]("int32", math.MinInt32, math.MaxInt32)
	minMax[int64]("int64", math.MinInt64, math.MaxInt64)
	minMax[int]("int", math.MinInt, math.MaxInt)
	minMax[uint8]("uint8", 0, math.MaxUint8)
	minMax[uint16]("uint16", 0, math.MaxUint16)
	minMax[uint32]("uint32", 0, math.MaxUint32)
	minMax[uint64]("uint64", 0, math.MaxUint64)
	register("minimum/duration", 4, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		v, b := g.duration(), g.duration()
		args["value"], args["bound"] = int64(v), int64(b)
		return validate.Minimum(ctx, op, fld, &v, nil, b)
	})
	register("maximum/duration", 4, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		v, b := g.duration(), g.duration()
		args["value"], args["bound"] = int64(v), int64(b)
		return validate.Maximum(ctx, op, fld, &v, nil, b)
	})
	limit := func(g *rng) int {
		return []int{0, 1, 2, 3, 5, 8, 16, 63, 64, 253}[g.IntN(10)]
	}
	strLimit := func(name string, f func(context.Context, operation.Operation, *field.Path, *string, *string, int) field.ErrorList) {
		register(name, 6, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
			v := g.optional(g.str())
			n := limit(g)
			args["value"], args["limit"] = strArg(v), n
			return f(ctx, op, fld, v, nil, n)
		})
	}
	strLimit("maxLength", validate.MaxLength[string])
	strLimit("minLength", validate.MinLength[string])
	strLimit("maxBytes", validate.MaxBytes[string])
	register("maxItems", 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		v := make([]int, g.IntN(8))
		n := limit(g)
		args["len"], args["limit"] = len(v), n
		return validate.MaxItems(ctx, op, fld, v, nil, n)
	})
	register("minItems", 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		v := make([]int, g.IntN(8))
		n := limit(g)
		args["len"], args["limit"] = len(v), n
		return validate.MinItems(ctx, op, fld, v, nil, n)
	})
	register("maxProperties", 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		m := map[string]int{}
		for i := g.IntN(8); i > 0; i-- {
			m[strconv.Itoa(i)] = i
		}
		n := limit(g)
		args["len"], args["limit"] = len(m), n
		return validate.MaxProperties(ctx, op, fld, m, nil, n)
	})
	register("minProperties", 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		m := map[string]int{}
		for i := g.IntN(8); i > 0; i-- {
			m[strconv.Itoa(i)] = i
		}
		n := limit(g)
		args["len"], args["limit"] = len(m), n
		return validate.MinProperties(ctx, op, fld, m, nil, n)
	})
}

// A random quantity string that resource.ParseQuantity accepts: sign, digits, fraction, any suffix form (decimal
// SI, binary SI, exponent), zero and sub-nano values included.
func (g *rng) quantity() (string, resource.Quantity) {
	for {
		var b strings.Builder
		b.WriteString(g.pick([]string{"", "", "", "-", "+"}))
		digits := func(n int) {
			for ; n > 0; n-- {
				b.WriteByte(byte('0' + g.IntN(10)))
			}
		}
		switch g.IntN(4) {
		case 0:
			b.WriteString(g.pick([]string{"0", "1", "2", "10", "100", "999", "1000", "1023", "1024", "1025"}))
		default:
			digits(1 + g.IntN(6))
		}
		if g.pct(30) {
			b.WriteByte('.')
			digits(1 + g.IntN(9))
		}
		b.WriteString(g.pick([]string{"", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti",
			"Pi", "Ei", "e3", "e-3", "E2", "e0", "e-9", "e-12", "e12"}))
		s := b.String()
		if q, err := resource.ParseQuantity(s); err == nil {
			return s, q
		}
	}
}

// A quantity decoded from JSON (upstream `Quantity.UnmarshalJSON`, spaces trimmed) and printed inside an error as
// JSON (`MarshalJSON`: the text when ParseQuantity kept it, else the canonical form), alone and in an object.
func init() {
	register("quantityJSON", 4, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		s, _ := g.quantity()
		if g.pct(10) {
			s = " " + s + " "
		}
		var q resource.Quantity
		if err := json.Unmarshal([]byte(strconv.Quote(s)), &q); err != nil {
			panic(err)
		}
		args["value"] = s
		type item struct {
			Name   string            `json:"name"`
			Amount resource.Quantity `json:"amount"`
		}
		return field.ErrorList{field.Duplicate(fld, q), field.Duplicate(fld, item{Name: "a", Amount: q})}
	})
}

// A timestamp text for metav1.Time / MicroTime decoding: a valid RFC 3339 time (fraction lengths 0-12 with `.` or
// `,`, `Z` or an offset, one-digit hours), values at and beyond every range limit (month 0 and 13, days 29-32 in
// every month and leap years, hour 24, minute and second 60, offsets to +25:61), and up to two byte edits (replace,
// delete, insert) from the characters the layouts use, signs, lower-case `t`/`z` and a space.
func (g *rng) timeText() string {
	if g.pct(3) {
		return g.pick([]string{"", "yesterday", "null", "0001-01-01T00:00:00Z", "2024-13-45T00:00:00Z",
			"0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-24:60", "2024-02-29T00:00:00.+12345Z",
			"2024-02-29T00:00:00.-00000Z", "2023-02-29T00:00:00Z"})
	}
	y := g.IntN(10000)
	if g.pct(60) {
		y = 1896 + g.IntN(210)
	}
	mo := 1 + g.IntN(12)
	if g.pct(5) {
		mo = g.IntN(14)
	}
	d := 1 + g.IntN(28)
	if g.pct(25) {
		d = 28 + g.IntN(5)
	}
	if g.pct(2) {
		d = 0
	}
	h := g.IntN(24)
	if g.pct(4) {
		h = 24 + g.IntN(2)
	}
	mi, se := g.IntN(60), g.IntN(60)
	if g.pct(3) {
		mi = 60
	}
	if g.pct(3) {
		se = 60
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%04d-%02d-%02dT", y, mo, d)
	if g.pct(10) && h < 10 {
		fmt.Fprintf(&b, "%d", h)
	} else {
		fmt.Fprintf(&b, "%02d", h)
	}
	fmt.Fprintf(&b, ":%02d:%02d", mi, se)
	if g.pct(65) {
		b.WriteString(g.pick([]string{".", ".", ".", ","}))
		n := g.IntN(13)
		if g.pct(50) {
			n = 6
		}
		for i := 0; i < n; i++ {
			b.WriteByte(byte('0' + g.IntN(10)))
		}
	}
	if g.pct(30) {
		b.WriteString("Z")
	} else {
		oh, om := g.IntN(24), g.IntN(60)
		if g.pct(10) {
			oh = 23 + g.IntN(3)
		}
		if g.pct(10) {
			om = 59 + g.IntN(3)
		}
		fmt.Fprintf(&b, "%s%02d:%02d", g.pick([]string{"+", "-"}), oh, om)
	}
	s := []byte(b.String())
	const alphabet = "0123456789-:TtZz+.,  "
	for k := 1 + g.IntN(2); k > 0 && g.pct(35); k-- {
		c := alphabet[g.IntN(len(alphabet))]
		i := g.IntN(len(s) + 1)
		switch g.IntN(3) {
		case 0:
			if i < len(s) {
				s[i] = c
			}
		case 1:
			if i < len(s) {
				s = append(s[:i], s[i+1:]...)
			}
		default:
			s = append(s[:i], append([]byte{c}, s[i:]...)...)
		}
	}
	return string(s)
}

// metav1.Time and metav1.MicroTime decoded from a JSON string (`UnmarshalJSON`: `time.Parse` with RFC 3339 and
// metav1's RFC3339Micro): the instant as Unix seconds and nanoseconds, or the error text.
func init() {
	register("timeJSON", 3, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		s := g.timeText()
		args["value"] = s
		quoted, err := json.Marshal(s)
		if err != nil {
			panic(err)
		}
		var t metav1.Time
		var m metav1.MicroTime
		return field.ErrorList{
			field.Invalid(fld, "Time", instant(json.Unmarshal(quoted, &t), t.Time)),
			field.Invalid(fld, "MicroTime", instant(json.Unmarshal(quoted, &m), m.Time)),
		}
	})
}

func instant(err error, t time.Time) string {
	if err != nil {
		return "does not decode: " + err.Error()
	}
	return fmt.Sprintf("%d %d", t.Unix(), t.Nanosecond())
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

// Object identities for status, chosen by the call's index (the random sequence is not touched): the core group,
// dotted groups, and names and kinds with characters encoding/json escapes.
var statusGroups = []string{"", "apps", "resource.k8s.io", "a<b>&c.example.com"}
var statusKinds = []string{"Pod", "Deployment", "ResourceClaim", "Odd\u2028Kind"}
var statusNames = []string{"", "web-0", "x\"y", "<script>"}

// The body the API server writes when validation of the call's object fails: errors.NewInvalid's status with the
// TypeMeta its encoder sets, as encoding/json marshals it. Every 17th call doubles its errors (ToAggregate keeps
// one of each text, the causes keep all).
func status(i int, errs field.ErrorList) string {
	if i%17 == 0 {
		errs = append(errs, errs...)
	}
	gk := schema.GroupKind{Group: statusGroups[i%4], Kind: statusKinds[(i/4)%4]}
	st := apierrors.NewInvalid(gk, statusNames[(i/16)%4], errs).ErrStatus
	st.Kind, st.APIVersion = "Status", "v1"
	b, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func main() {
	n, err := strconv.Atoi(os.Getenv("VGC_CALLS"))
	if err != nil {
		panic("VGC_CALLS=<number of calls>")
	}
	seed, _ := strconv.ParseUint(os.Getenv("VGC_CALLS_SEED"), 10, 64)
	g := &rng{rand.New(rand.NewPCG(seed, 0x76676321))}
	// Names in a fixed order so that a seed always gives the same calls.
	var names []string
	total := 0
	for name := range gens {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		total += weights[name]
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for i := 0; i < n; i++ {
		roll := g.IntN(total)
		name := names[0]
		for _, nm := range names {
			if roll < weights[nm] {
				name = nm
				break
			}
			roll -= weights[nm]
		}
		c := call{Fn: name, Path: g.IntN(4), Args: map[string]any{}, Got: []string{}}
		errs := gens[name](g, path(c.Path), c.Args)
		for _, e := range errs {
			c.Got = append(c.Got, line(e))
		}
		c.Status = status(i, errs)
		if err := enc.Encode(c); err != nil {
			panic(err)
		}
	}
}
