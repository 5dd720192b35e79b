// The defaulting oracle's Go side (tests/tests/defaults_oracle.rs): upstream defaulter-gen's
// SetObjectDefaults_Gadget, generated for a copy of cli/tests/validate/defaults-api/v1, against the defaults
// `vgc validate` applies. Copied into a temporary module beside the generated package; never compiled in the vgc
// repository itself.
//
//	./oracle gen N SEED   prints N random Gadget objects, one JSON document per line, filled by sigs.k8s.io/randfill
//	                      from the Go types (independent of vgc's plan), with strings and numbers drawn from small
//	                      pools so that zero values, nulls and the defaults' own values are frequent.
//	./oracle check        reads lines {"name", "input", "vgc"}: decodes `input`, applies defaulter-gen's
//	                      SetObjectDefaults_Gadget and encodes it; decodes vgc's defaulted `vgc` without defaulting
//	                      and encodes it; prints {"cases": n, "mismatches": [{"name", "go", "vgc"}]}. Both sides pass
//	                      through the same Go types, so only what defaulting set can differ.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strconv"

	"sigs.k8s.io/randfill"

	v1 "example.com/defaults-oracle/v1"
)

var strs = []string{"", "", "a", "TCP", "UDP", "blue", "green", "single", "all", "fast", "abcdef", "Not_A_Name"}
var ints = []int64{0, 0, 1, 2, 3, 7, 20, 100}

func gen(n int, seed int64) {
	r := rand.New(rand.NewSource(seed))
	f := randfill.NewWithSeed(seed).NilChance(0.35).NumElements(0, 3).MaxDepth(8).Funcs(
		func(s *string, c randfill.Continue) { *s = strs[r.Intn(len(strs))] },
		func(i *int32, c randfill.Continue) { *i = int32(ints[r.Intn(len(ints))]) },
		func(i *int64, c randfill.Continue) { *i = ints[r.Intn(len(ints))] },
	)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := 0; i < n; i++ {
		var g v1.Gadget
		f.Fill(&g)
		g.APIVersion, g.Kind = "gadgets.example.com/v1", "Gadget"
		b, err := json.Marshal(&g)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
}

func encode(raw json.RawMessage, defaulting bool) (string, error) {
	var g v1.Gadget
	if err := json.Unmarshal(raw, &g); err != nil {
		return "", err
	}
	if defaulting {
		v1.SetObjectDefaults_Gadget(&g)
	}
	b, err := json.Marshal(&g)
	return string(b), err
}

func check() {
	type line struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
		Vgc   json.RawMessage `json:"vgc"`
	}
	type mismatch struct {
		Name string `json:"name"`
		Go   string `json:"go"`
		Vgc  string `json:"vgc"`
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	mismatches := []mismatch{}
	for in.Scan() {
		if len(bytes.TrimSpace(in.Bytes())) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(in.Bytes(), &l); err != nil {
			fmt.Fprintln(os.Stderr, "bad line:", err)
			os.Exit(1)
		}
		n++
		want, err1 := encode(l.Input, true)
		got, err2 := encode(l.Vgc, false)
		if err1 != nil || err2 != nil {
			mismatches = append(mismatches, mismatch{l.Name, fmt.Sprint(want, err1), fmt.Sprint(got, err2)})
			continue
		}
		if want != got {
			mismatches = append(mismatches, mismatch{l.Name, want, got})
		}
	}
	b, _ := json.Marshal(map[string]any{"cases": n, "mismatches": mismatches})
	fmt.Println(string(b))
}

func main() {
	switch {
	case len(os.Args) == 4 && os.Args[1] == "gen":
		n, _ := strconv.Atoi(os.Args[2])
		seed, _ := strconv.ParseInt(os.Args[3], 10, 64)
		gen(n, seed)
	case len(os.Args) == 2 && os.Args[1] == "check":
		check()
	default:
		fmt.Fprintln(os.Stderr, "usage: oracle gen N SEED | oracle check")
		os.Exit(2)
	}
}
