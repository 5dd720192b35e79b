// The Go side of tests/tests/yaml_kubectl_oracle.rs: reads manifest files as kubectl reads them.
//
// Input (stdin): a JSON array of file texts. Output (stdout): for each text, its documents in order, each
// {"json": the JSON kubectl sends, "raw": what the decoder returned} or {"error": why it could not be read}.
//
// Each text goes through k8s.io/cli-runtime's StreamVisitor.Visit as written (pkg/resource/visitor.go):
// k8s.io/apimachinery/pkg/util/yaml NewYAMLOrJSONDecoder(r, 4096), Decode into a runtime.RawExtension (for a
// YAML document, sigs.k8s.io/yaml's conversion: yaml.Unmarshal → YAMLToJSON), bytes.TrimSpace, empty and `null`
// documents skipped. The object kubectl sends is that JSON read by unstructured.UnstructuredJSONScheme
// (k8s.io/apimachinery/pkg/util/json.Unmarshal: int64 for integer literals within range, float64 otherwise) and
// written again with encoding/json (its doEncode); the driver reads into an interface{} so that a document that
// is not an object still has a value. Unlike the visitor, the driver goes on after an error, as vgc reports every
// document; it stops where the decoder can read nothing more.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

type document struct {
	JSON  *string `json:"json,omitempty"`
	Raw   *string `json:"raw,omitempty"`
	Error *string `json:"error,omitempty"`
}

// bothFailed is the error YAMLOrJSONDecoder returns once neither of its decoders is left.
const bothFailed = "decoding failed as both JSON and YAML"

// maxDecodes bounds the calls on one text: an error the JSON decoder keeps returning (after two values read) ends
// the stream.
const maxDecodes = 500

func read(text string) []document {
	d := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(text), 4096)
	out := []document{}
	for i := 0; ; i++ {
		if i == maxDecodes {
			// A repeated error: keep its first occurrence.
			for len(out) > 1 && out[len(out)-1].Error != nil && out[len(out)-2].Error != nil &&
				*out[len(out)-1].Error == *out[len(out)-2].Error {
				out = out[:len(out)-1]
			}
			return out
		}
		ext := runtime.RawExtension{}
		if err := d.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) || err.Error() == bothFailed {
				return out
			}
			msg := err.Error()
			out = append(out, document{Error: &msg})
			continue
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		rawText := string(raw)
		var obj interface{}
		if err := utiljson.Unmarshal(raw, &obj); err != nil {
			msg := "unstructured: " + err.Error()
			out = append(out, document{Error: &msg, Raw: &rawText})
			continue
		}
		sent, err := json.Marshal(obj)
		if err != nil {
			msg := "encoding: " + err.Error()
			out = append(out, document{Error: &msg, Raw: &rawText})
			continue
		}
		s := string(sent)
		out = append(out, document{JSON: &s, Raw: &rawText})
	}
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		panic(err)
	}
	results := make([][]document, len(texts))
	for i, t := range texts {
		results[i] = read(t)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(results); err != nil {
		panic(err)
	}
}
