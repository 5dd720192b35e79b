// The k8s.io/apimachinery v0.38 functions of the runtime differential driver (runtime_calls.go): MaxBytesSlice,
// MinimumQuantity/MaximumQuantity and Matches. Copied beside runtime_calls.go only when the release under test
// has them.

package main

import (
	"regexp"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Regular expressions in Go (RE2) syntax with their messages, as a project's validation extensions file would
// define them: anchored and not, Perl classes (ASCII in Go), POSIX classes, Unicode classes, flags, repetition.
var patterns = []string{
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, `^https?://`, `^\d+$`, `^\w+$`, `\s`, `^[[:alpha:]]+$`, `(?i)^abc`,
	`^.{1,3}$`, `é`, `^\p{L}+$`, `\bname\b`, `^[^/]+/[^/]+$`, `^$`, `a|b`, `^(?:[a-z]+\.)*[a-z]+$`, `[\d.]+`, `^\D*$`,
	`^[\w-]+$`, `\S`, `x*`, `^\x{e9}`, `\PL`, `(?s)^a.b$`, `^a.b$`, `\B`, `^[\s\d]*$`, `(?i)É`, `^[^\W_]+$`,
	`^\w{2,}\.\w+$`,
}

var regexValues = []string{"abc", "ABC", "name", "my-name", "a\nb", "a b", "12345", "1.5", "https://x", "http:/",
	"é", "É", "ÉTÉ", "a/b", "a_b", "_", "", "x", "日本", "٣", "a\u00a0b", "a\u2003b", "\u212a", "k"}

func init() {
	register("maxBytesSlice", 6, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		var v []byte
		if !g.pct(5) {
			v = make([]byte, []int{0, 1, 2, 3, 5, 8, 16, 63, 64, 65, 254}[g.IntN(11)])
			for i := range v {
				v[i] = byte(g.IntN(256))
			}
		}
		n := []int{0, 1, 2, 3, 5, 8, 16, 63, 64, 253}[g.IntN(10)]
		args["len"], args["limit"] = len(v), n
		return validate.MaxBytesSlice(ctx, op, fld, v, nil, n)
	})
	quantityBound := func(name string, f func(*field.Path, *resource.Quantity, resource.Quantity) field.ErrorList) {
		register(name, 8, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
			vs, v := g.quantity()
			bs, b := g.quantity()
			if g.pct(10) {
				// equal values written differently
				bs, b = v.String(), v.DeepCopy()
			}
			args["bound"] = bs
			if g.pct(3) {
				args["value"] = nil
				return f(fld, nil, b)
			}
			args["value"] = vs
			return f(fld, &v, b)
		})
	}
	quantityBound("minimumQuantity", func(p *field.Path, v *resource.Quantity, b resource.Quantity) field.ErrorList {
		return validate.MinimumQuantity(ctx, op, p, v, nil, b)
	})
	quantityBound("maximumQuantity", func(p *field.Path, v *resource.Quantity, b resource.Quantity) field.ErrorList {
		return validate.MaximumQuantity(ctx, op, p, v, nil, b)
	})
	compiled := map[string]*regexp.Regexp{}
	for _, p := range patterns {
		compiled[p] = regexp.MustCompile(p)
	}
	register("matches", 12, func(g *rng, fld *field.Path, args map[string]any) field.ErrorList {
		p := g.pick(patterns)
		var s string
		if g.pct(50) {
			s = g.pick(regexValues)
		} else {
			s = g.str()
		}
		v := g.optional(s)
		name := []string{"example-uri", "my-format", "x"}[g.IntN(3)]
		message := "must match the " + name + " rule"
		args["pattern"], args["value"], args["message"], args["origin"] = p, strArg(v), message, "format="+name
		return validate.Matches(ctx, op, fld, v, nil, compiled[p], message, "format="+name)
	})
}
