// The k8s.io/kubernetes 1.38 functions of the k8s custom-function driver (k8s_custom_calls.go):
// ValidateCustom_SecurityProfileOCI_Ref and ValidateCustom_SecurityProfileOCIBase_LocalhostProfile. Copied beside
// k8s_custom_calls.go only when the release under test has them.
//
// Ref inputs are OCI image references built from the grammar of github.com/distribution/reference (domains with and
// without ports, localhost, IPv4 and IPv6 literals, invalid domains; path components with every separator; tags;
// digests of every algorithm, length and case), lengths around every limit (255-byte paths, 1024 characters, the
// characters-versus-bytes difference), bare image IDs and digests, garbage and single-character mutations of all
// of these. LocalhostProfile inputs are relative and absolute paths with ".." and look-alike elements, empty and
// around 4096 characters.

package main

import (
	"context"
	// The API server links crypto/sha256 and crypto/sha512 (TLS), so go-digest's sha256, sha384 and sha512 are
	// available there; the driver links them too so that digest.Parse behaves as in the server.
	_ "crypto/sha256"
	_ "crypto/sha512"
	"strings"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	corev1 "vgc.test/k8scustom/kubernetes/pkg/apis/core/v1"
)

func init() {
	gens = append(gens,
		gen{12, ociRef},
		gen{4, localhostProfile},
	)
}

func ociRef(g *rng, ctx context.Context, op operation.Operation, fld *field.Path, c *call) field.ErrorList {
	c.Fn = "ValidateCustom_SecurityProfileOCI_Ref"
	var v, o *string
	if g.IntN(20) != 0 {
		s := g.ref()
		v, c.Value = &s, s
	}
	if op.Type == operation.Update {
		s := g.ref()
		o, c.Old = &s, s
	}
	return corev1.ValidateCustom_SecurityProfileOCI_Ref(ctx, op, fld, v, o)
}

func localhostProfile(g *rng, ctx context.Context, op operation.Operation, fld *field.Path, c *call) field.ErrorList {
	c.Fn = "ValidateCustom_SecurityProfileOCIBase_LocalhostProfile"
	var v, o *string
	if g.IntN(10) != 0 {
		s := g.profilePath()
		v, c.Value = &s, s
	}
	if op.Type == operation.Update && g.IntN(2) == 0 {
		s := g.profilePath()
		o, c.Old = &s, s
	}
	return corev1.ValidateCustom_SecurityProfileOCIBase_LocalhostProfile(ctx, op, fld, v, o)
}

// Domains the grammar accepts: localhost, names, IPv4 and IPv6 literals with and without ports, upper case (taken
// as a domain), the Docker Hub domains normalisation rewrites.
var domains = []string{
	"localhost", "localhost:5000", "LOCALHOST", "example.com", "registry.k8s.io", "EXAMPLE.com",
	"Registry.Example.COM:443", "127.0.0.1", "127.0.0.1:5000", "[::1]", "[::1]:5000", "[2001:db8::1]:443",
	"[FE80::1]", "docker.io", "index.docker.io", "Upper", "a-b.c", "a--b.com", "xn--bcher-kva.example", "gcr.io:0",
	"1.2.3.4:65536", "a.b.c.d.e.f", "quay.io", "a.com:80",
}

// Domains the grammar refuses, or first path elements that are no domain (lower case without '.' or ':').
var oddDomains = []string{
	"localhost:", "[fe80::1%eth0]", "[::ffff:1.2.3.4]", "[]", "[::1", "[::G]", "-a.com", "a-.com", "foo_bar.com",
	"Foo_bar.com", "host:", "host:port", "example.com:", ":5000", "a..b", ".a.com", "a.com.", "\u00e9.com",
	"exa\u212ample.com", "a", "ab", "a-b", "", "exa mple.com",
}

// Separators between the alphanumeric runs of a path component: the allowed ones ("." "_" "__" and dash runs),
// and ones the grammar refuses.
var separators = []string{".", "_", "__", "-", "--", "---"}
var oddSeparators = []string{"..", "___", "._", "-_", ".-", "_-", "/", "//", ":", "@", " "}

// Characters of alphanumeric runs: lower case and digits, and odd ones: upper case, Unicode (some of which
// lower-case to ASCII: the Kelvin sign, the dotted capital I), punctuation, NUL.
const lowerAlnum = "abcdefxyz0123456789"

var oddChars = []string{"A", "Z", "K", "\u212a", "\u0130", "\u00e9", "\u00c9", "\u03a3", "$", " ", "+", "~", "\u0000"}

func (g *rng) alnum() string {
	n := 1 + g.IntN(6)
	var b strings.Builder
	for range n {
		b.WriteByte(lowerAlnum[g.IntN(len(lowerAlnum))])
	}
	return b.String()
}

func (g *rng) component() string {
	s := g.alnum()
	for range g.IntN(3) {
		s += g.pick(separators) + g.alnum()
	}
	return s
}

// A path the grammar accepts: one to three components.
func (g *rng) repoPath() string {
	s := g.component()
	for range g.IntN(3) {
		s += "/" + g.component()
	}
	return s
}

// A path with one odd part: a refused separator, an odd character, a leading or trailing separator.
func (g *rng) oddPath() string {
	s := g.repoPath()
	r := []rune(s)
	i := g.IntN(len(r) + 1)
	var piece string
	switch g.IntN(3) {
	case 0:
		piece = g.pick(oddSeparators)
	case 1:
		piece = g.pick(oddChars)
	default:
		piece = g.pick(separators)
		if g.IntN(2) == 0 {
			return piece + s
		}
		return s + piece
	}
	return string(r[:i]) + piece + string(r[i:])
}

// A path of exactly n bytes around the 255-byte limit: valid fill, or fill with separators that may end badly.
func (g *rng) longPath(n int) string {
	s := g.component()
	fill := []string{"a"}
	if g.IntN(3) == 0 {
		fill = []string{"a", "0", "-a", "_b", ".c", "/d", "__e"}
	}
	for len(s) < n {
		s += g.pick(fill)
	}
	return s[:n]
}

var tags = []string{"latest", "v1.0.0", "1", "_x", "Tag", "V1", "0.1-rc_2"}
var oddTags = []string{"-x", ".x", "\u212a", "", "a:b", "a/b", "a@b", "x\u00e9", "a b"}

func (g *rng) tag(odd bool) string {
	if odd {
		if g.IntN(4) == 0 {
			// 128 characters is the longest tag.
			return strings.Repeat("a", 128+g.IntN(2))
		}
		return g.pick(oddTags)
	}
	if g.IntN(8) == 0 {
		return strings.Repeat("b", 127+g.IntN(2))
	}
	return g.pick(tags)
}

// Digest algorithms besides the three go-digest registers: upper or mixed case, unregistered ones in and outside
// go-digest's grammar, and some only distribution/reference's grammar allows.
var oddAlgorithms = []string{
	"SHA256", "Sha512", "md5", "sha1", "blake3", "sha256+b64", "sha256.x", "sha-256", "sha_256", "a1", "1a", "",
	"sha256_", "sha256:", "a.b+c-d_e", "A-B", "sha384", "sha512",
}

const lowerHex = "0123456789abcdef"

func (g *rng) hex(n int, odd bool) string {
	var b strings.Builder
	upper := odd && g.IntN(4) == 0
	mixed := odd && g.IntN(4) == 0
	for range n {
		c := lowerHex[g.IntN(len(lowerHex))]
		if upper || (mixed && g.IntN(2) == 0) {
			c = strings.ToUpper(string(c))[0]
		}
		b.WriteByte(c)
	}
	s := b.String()
	if odd && n > 0 && g.IntN(6) == 0 {
		// A character outside hex: other base64url characters, '='.
		i := g.IntN(n)
		s = s[:i] + g.pick([]string{"g", "=", "-", "_", "G", "z"}) + s[i+1:]
	}
	return s
}

var digestSize = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}

func (g *rng) digest(odd bool) string {
	if !odd {
		alg := g.pick([]string{"sha256", "sha256", "sha256", "sha384", "sha512"})
		return alg + ":" + g.hex(digestSize[alg], false)
	}
	var alg string
	if g.IntN(2) == 0 {
		alg = g.pick([]string{"sha256", "sha384", "sha512"})
	} else {
		alg = g.pick(oddAlgorithms)
	}
	size := digestSize[alg]
	var n int
	switch {
	case size > 0 && g.IntN(2) == 0:
		n = size
	case size > 0 && g.IntN(2) == 0:
		n = size + []int{-1, 1, -2, 2, -32, 32}[g.IntN(6)]
	case g.IntN(2) == 0:
		n = []int{0, 1, 31, 32, 33, 40, 63, 64, 65, 95, 96, 97, 127, 128, 129}[g.IntN(15)]
	default:
		n = g.IntN(140)
	}
	return alg + ":" + g.hex(n, true)
}

// A random domain: components of letters, digits and dashes, dotted, and sometimes a port.
func (g *rng) randomDomain() string {
	d := g.alnum()
	for range 1 + g.IntN(2) {
		d += g.pick([]string{".", ".", "-", "-."}) + g.alnum()
	}
	if g.IntN(3) == 0 {
		d += ":" + strings.Repeat("8", g.IntN(6))
	}
	return d
}

// A reference built from the grammar's parts — an optional domain, a path, an optional tag and digest — each
// valid, but for at most one (sometimes two) drawn from the odd pools.
func (g *rng) structuredRef() string {
	odd := map[int]bool{}
	if g.IntN(2) == 0 {
		odd[g.IntN(4)] = true
		if g.IntN(6) == 0 {
			odd[g.IntN(4)] = true
		}
	}
	s := ""
	switch {
	case odd[0]:
		if d := g.pick(oddDomains); d != "" {
			s = d + "/"
		}
	case g.IntN(10) == 0:
		// No domain: a Docker Hub name, never canonical.
	case g.IntN(4) == 0:
		s = g.randomDomain() + "/"
	default:
		s = g.pick(domains) + "/"
	}
	switch {
	case g.IntN(12) == 0:
		s += g.longPath(253 + g.IntN(5))
	case odd[1]:
		s += g.oddPath()
	default:
		s += g.repoPath()
	}
	if odd[2] || g.IntN(8) == 0 {
		s += ":" + g.tag(odd[2])
	}
	if odd[3] || g.IntN(8) != 0 {
		s += "@" + g.digest(odd[3])
	}
	return s
}

// A value of exactly n characters around the 1024-character limit: a long domain component, filled with ASCII or
// with two-byte characters (so bytes and characters differ), before a valid path and digest.
func (g *rng) longRef(n int) string {
	tail := ".com/p@sha256:" + g.hex(64, false)
	fill := "a"
	if g.IntN(3) == 0 {
		fill = "\u00e9"
	}
	k := n - 1 - len(tail)
	if k < 0 {
		k = 0
	}
	return "d" + strings.Repeat(fill, k) + tail
}

// Grammar characters for garbage references.
const refChars = "abz09AZ./:@_-[]%+=\u00e9"

func (g *rng) garbage() string {
	r := []rune(refChars)
	n := g.IntN(30)
	var b strings.Builder
	for range n {
		b.WriteRune(r[g.IntN(len(r))])
	}
	return b.String()
}

// Replaces, inserts or deletes one character (whole runes, so the text stays UTF-8).
func (g *rng) mutate(s string) string {
	r := []rune(s)
	pool := []rune(refChars + "Kk\u212a")
	i := 0
	if len(r) > 0 {
		i = g.IntN(len(r) + 1)
	}
	switch g.IntN(3) {
	case 0:
		if i < len(r) {
			r[i] = pool[g.IntN(len(pool))]
		}
	case 1:
		r = append(r[:i], append([]rune{pool[g.IntN(len(pool))]}, r[i:]...)...)
	default:
		if i < len(r) {
			r = append(r[:i], r[i+1:]...)
		}
	}
	return string(r)
}

func (g *rng) ref() string {
	var s string
	switch g.IntN(24) {
	case 0:
		return ""
	case 1:
		// A bare image ID (64 hex digits), or near one.
		s = g.hex(63+g.IntN(3), g.IntN(2) == 0)
	case 2:
		// A bare digest, or a name-less reference.
		s = g.pick([]string{"", "@"}) + g.digest(g.IntN(2) == 0)
	case 3:
		s = g.longRef(1022 + g.IntN(5))
	case 4:
		s = g.garbage()
	default:
		s = g.structuredRef()
	}
	if g.IntN(6) == 0 {
		s = g.mutate(s)
	}
	return s
}

// Elements of localhost profile paths: ordinary names, "." and "..", look-alikes ("...", "..a", "a..", backslash
// forms a Linux node reads as names), empty elements (from "//"), Unicode and white space.
var profileElems = []string{
	"profile.json", "a", "b", "localhost", "..", "..", ".", "", "...", "..a", "a..", "\\..", "..\\", ". .", " ..",
	".. ", "\u00e9", " ", "\u212a", "~", "-", "operator", "my-profile.json",
}

// A path of exactly n characters around the 4096-character limit, ASCII or two-byte filled, absolute or not.
func (g *rng) longProfile(n int) string {
	start := g.pick([]string{"", "/", "../", "a/../"})
	fill := g.pick([]string{"a", "a/", "\u00e9", "../"})
	var b strings.Builder
	b.WriteString(start)
	for b.Len() < 4*n {
		b.WriteString(fill)
	}
	r := []rune(b.String())
	return string(r[:n])
}

func (g *rng) profilePath() string {
	switch g.IntN(12) {
	case 0:
		return ""
	case 1:
		return g.longProfile(4094 + g.IntN(5))
	}
	n := 1 + g.IntN(5)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.pick(profileElems)
	}
	s := strings.Join(parts, "/")
	if g.IntN(3) == 0 {
		s = "/" + s
	}
	if g.IntN(6) == 0 {
		s += "/"
	}
	return s
}
