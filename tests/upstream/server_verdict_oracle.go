// The server-verdict oracle's Go side (tests/tests/server_verdict_oracle.rs): what a Kubernetes release's API server
// answers to a create of each object of some manifest files, for its declarative part, from the release's own code —
// the k8s.io/api types, the defaulters and the generated declarative validation of k8s.io/kubernetes
// pkg/apis/<group>/<version> (unchanged copies of defaults.go, zz_generated.defaults.go and
// zz_generated.validations.go, registered in a runtime.Scheme by the generated zz_register.go beside this file, as
// the API server's legacyscheme registers them). Copied into the oracle's scratch module; never compiled in the vgc
// repository itself.
//
//	./verdicts KUBERNETES_DIR APISERVER_DIR < files.json
//	./verdicts --kinds     (every kind of k8s.io/api the scheme registers, for the every-kind population)
//
// files.json: [{"name", "path"}]. For each file, in order, one JSON line per document:
// {"file", "doc", "json"} (the JSON kubectl sends) or {"file", "doc", "error"} (kubectl cannot read it), with
// "objects": one entry per object kubectl would send for the document (a list's items, else the document).
//
// Reading (as tests/upstream/yaml_kubectl_oracle.go, i.e. k8s.io/cli-runtime's StreamVisitor): NewYAMLOrJSONDecoder
// (r, 4096) into a runtime.RawExtension, empty and `null` documents skipped, the JSON read by util/json and written
// again by encoding/json. Objects: the document decoded by unstructured.UnstructuredJSONScheme, the decoder
// kubectl's builder uses — a document with an "items" member is a list, and the builder's FlattenListVisitor sends
// its items one by one; a document without "kind" is refused ("Object 'Kind' is missing").
//
// Each object, as the API server's create handler and k8s.io/apiserver pkg/registry/rest treat it:
//   - decoded into its k8s.io/api type by the scheme's non-strict JSON serializer (the server's default
//     fieldValidation decoding; an error is the server's 400), "unknown-kind" when the scheme has no such kind;
//     a second decoding with the strict serializer lists what fieldValidation=Strict (kubectl's default,
//     --validate=strict) would refuse ("strict");
//   - defaulted by scheme.Default (the release's SetObjectDefaults_<Kind>);
//   - its Status reset as the kind's create strategy's PrepareForCreate does (rest.BeforeCreate calls it before
//     Validate): loadResets reads the strategies with go/ast; "reset" names the strategy line when the manifest
//     wrote a status;
//   - validated as rest.ValidateDeclarativelyWithMigrationChecks does for a create with no hand-written errors:
//     scheme.Validate(ctx, options, obj) with a panic turned into an internal error (runDeclarativeValidationWithRecover),
//     then validate.FilterEnforcedDeclarativeErrors(ctx, errs, DeclarativeValidationBeta's state) — "enforced" —
//     and the rest — "shadowed" (alpha, and beta while the gate is off). (FilterCoveredHandwrittenErrors and the
//     mismatch metrics only touch hand-written errors, of which there are none here.) The package is not imported:
//     k8s.io/apiserver/pkg/registry/rest would add 115 packages to the build (cel-go, kube-openapi, …).
//   - options: those the kind's create defines — the `DeclarativeValidationConfig` method of its REST strategy
//     (KUBERNETES_DIR/pkg/registry/<group>/<kind, lower case>/, else the first pkg/registry/*/<kind>/ holding one;
//     strategies of status subresources, receivers named *StatusStrategy, are not the create's), or, for a REST
//     storage without a strategy (authorization's access reviews), the `DeclarativeValidationConfig()` function
//     called by the validation function its files call (k8s.io/kubernetes or APISERVER_DIR, one hop each); none
//     when neither is found (rest.DeclarativeValidation's default). Read with go/ast: each key of the Options map
//     literal (`string(features.X)` or a string) set to utilfeature.DefaultFeatureGate.Enabled(X) — the release's
//     default, registered by the copied pkg/features; the function must read that gate (`Enabled(features.X)`),
//     else the driver stops: a shape it does not know.
//
// An object's "status": "no-kind", "unknown-kind", "undecodable" (with "message"), "no-validation" (its type has
// no registered validation function), or "validated"; errors are {"type", "field", "detail", "origin",
// "message", "stability"} (`alpha`, `beta` or empty).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	genericfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"

	_ "vgc.test/serverdefaults/kubernetes/pkg/features"
)

var scheme = runtime.NewScheme()

func init() {
	for _, register := range []func(*runtime.Scheme) error{registerTypes, registerDefaults, registerValidations} {
		if err := register(scheme); err != nil {
			panic(err)
		}
	}
}

var (
	lenient = serjson.NewSerializerWithOptions(serjson.DefaultMetaFactory, scheme, scheme, serjson.SerializerOptions{})
	strict  = serjson.NewSerializerWithOptions(serjson.DefaultMetaFactory, scheme, scheme, serjson.SerializerOptions{Strict: true})
)

type fieldError struct {
	Type      string `json:"type"`
	Field     string `json:"field"`
	Detail    string `json:"detail"`
	Origin    string `json:"origin"`
	Message   string `json:"message"`
	Stability string `json:"stability"`
}

type object struct {
	Item       int             `json:"item"`
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Status     string          `json:"status"`
	Message    string          `json:"message,omitempty"`
	Strategy   string          `json:"strategy,omitempty"`
	Reset      string          `json:"reset,omitempty"`
	Options    map[string]bool `json:"options,omitempty"`
	Enforced   []fieldError    `json:"enforced"`
	Shadowed   []fieldError    `json:"shadowed"`
	Strict     []string        `json:"strict"`
}

type document struct {
	File    string   `json:"file"`
	Doc     int      `json:"doc"`
	JSON    *string  `json:"json,omitempty"`
	Error   *string  `json:"error,omitempty"`
	Objects []object `json:"objects"`
}

// bothFailed is the error YAMLOrJSONDecoder returns once neither of its decoders is left.
const bothFailed = "decoding failed as both JSON and YAML"

// maxDecodes bounds the calls on one text (as the reading oracle's driver).
const maxDecodes = 500

// read returns the documents of text as kubectl reads them: the JSON it sends, or why it cannot read one.
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
		var obj interface{}
		if err := utiljson.Unmarshal(raw, &obj); err != nil {
			msg := "unstructured: " + err.Error()
			out = append(out, document{Error: &msg})
			continue
		}
		sent, err := json.Marshal(obj)
		if err != nil {
			msg := "encoding: " + err.Error()
			out = append(out, document{Error: &msg})
			continue
		}
		s := string(sent)
		out = append(out, document{JSON: &s})
	}
}

// strategies: the options of each kind's create, found once per kind.
type strategyOptions struct {
	file    string
	options map[string]bool
}

var (
	kubernetesDir string
	apiserverDir  string
	strategies    = map[schema.GroupVersionKind]strategyOptions{}
	// The release (from kubernetesDir's module version): a group/version removed in it or before is not served.
	releaseMajor, releaseMinor int
)

// optionsOf returns the declarative-validation options the API server's create of obj's kind defines: the
// `DeclarativeValidationConfig` method of its REST strategy in pkg/registry/<group>/<kind>/ (else in the first
// pkg/registry/*/<kind>/ holding one); for a REST storage without a strategy (authorization's access reviews: its
// Create calls pkg/apis/<group>/validation's ValidateXCreate, which passes a DeclarativeValidationConfig() function's
// result to rest.DeclarativeValidation), the function that storage's files call and that calls a
// DeclarativeValidationConfig() function. No options when neither is found: rest.DeclarativeValidation's default.
func optionsOf(gvk schema.GroupVersionKind, obj runtime.Object) strategyOptions {
	if s, ok := strategies[gvk]; ok {
		return s
	}
	pkg := typePkg(obj)
	group := ""
	if rest, ok := strings.CutPrefix(pkg, "k8s.io/api/"); ok {
		group = strings.Split(rest, "/")[0]
	}
	kind := strings.ToLower(gvk.Kind)
	dirs := []string{filepath.Join(kubernetesDir, "pkg/registry", group, kind)}
	others, _ := filepath.Glob(filepath.Join(kubernetesDir, "pkg/registry/*", kind))
	sort.Strings(others)
	dirs = append(dirs, others...)
	s := strategyOptions{}
	for _, dir := range dirs {
		file, keys, ok := strategyConfig(dir)
		if !ok {
			file, keys, ok = calledConfig(dir)
		}
		if ok {
			s.file = file
			s.options = map[string]bool{}
			for _, k := range keys {
				s.options[k] = utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(k))
			}
			break
		}
	}
	strategies[gvk] = s
	return s
}

// typePkg is the Go package of obj's type (`k8s.io/api/apps/v1`).
func typePkg(obj runtime.Object) string {
	return reflect.TypeOf(obj).Elem().PkgPath()
}

// parsed: a non-test Go file of a directory, with its imports by name.
type parsed struct {
	path    string
	file    *ast.File
	imports map[string]string
}

// parseDir parses the non-test Go files of dir, in name order.
func parseDir(dir string) []parsed {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(files)
	var out []parsed
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, _, imports := parseFile(path)
		out = append(out, parsed{path, f, imports})
	}
	return out
}

// parseFile parses the Go file at path (its positions in the returned file set) and names its imports: the alias,
// else the path's last element.
func parseFile(path string) (*ast.File, *token.FileSet, map[string]string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		panic(err)
	}
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	return f, fset, imports
}

// dirOf is the directory of import path p in the k8s.io/kubernetes or k8s.io/apiserver module ("" otherwise).
func dirOf(p string) string {
	if rest, ok := strings.CutPrefix(p, "k8s.io/kubernetes/"); ok {
		return filepath.Join(kubernetesDir, rest)
	}
	if rest, ok := strings.CutPrefix(p, "k8s.io/apiserver/"); ok {
		return filepath.Join(apiserverDir, rest)
	}
	return ""
}

// rel names a file of one of the two modules: `k8s.io/kubernetes pkg/registry/…/strategy.go`.
func rel(path string) string {
	for _, m := range []struct{ dir, name string }{{kubernetesDir, "k8s.io/kubernetes"}, {apiserverDir, "k8s.io/apiserver"}} {
		if r, err := filepath.Rel(m.dir, path); err == nil && !strings.HasPrefix(r, "..") {
			return m.name + " " + r
		}
	}
	return path
}

// strategyConfig finds, in dir, the `DeclarativeValidationConfig` method of a strategy that is not a status
// strategy, and returns the keys of the Options map literal it returns.
func strategyConfig(dir string) (string, []string, bool) {
	for _, f := range parseDir(dir) {
		for _, decl := range f.file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "DeclarativeValidationConfig" || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			// `podStatusStrategy`, `statusStrategy` (not `resourcePoolStatusRequestStrategy`).
			recv := types(fn.Recv.List[0].Type)
			if strings.HasSuffix(strings.ToLower(recv), "statusstrategy") {
				continue
			}
			return rel(f.path) + " " + recv + ".DeclarativeValidationConfig", optionKeys(f.path, fn), true
		}
	}
	return "", nil, false
}

// calledConfig: for a REST storage in dir without a strategy, the function of a k8s.io/kubernetes package its
// files call that calls a `DeclarativeValidationConfig()` function (one hop each), and that function's option keys.
func calledConfig(dir string) (string, []string, bool) {
	for _, f := range parseDir(dir) {
		var found []string
		var file string
		ast.Inspect(f.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found != nil {
				return found == nil
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || !strings.HasPrefix(f.imports[pkg.Name], "k8s.io/kubernetes/") {
				return true
			}
			for _, g := range parseDir(dirOf(f.imports[pkg.Name])) {
				fn := function(g.file, sel.Sel.Name)
				if fn == nil {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					c, ok := n.(*ast.CallExpr)
					if !ok || found != nil {
						return found == nil
					}
					cs, ok := c.Fun.(*ast.SelectorExpr)
					if !ok || cs.Sel.Name != "DeclarativeValidationConfig" {
						return true
					}
					alias, ok := cs.X.(*ast.Ident)
					if !ok || dirOf(g.imports[alias.Name]) == "" {
						return true
					}
					for _, h := range parseDir(dirOf(g.imports[alias.Name])) {
						if cfg := function(h.file, "DeclarativeValidationConfig"); cfg != nil {
							found = optionKeys(h.path, cfg)
							file = rel(h.path) + " DeclarativeValidationConfig (called by " + rel(g.path) + " " +
								sel.Sel.Name + ")"
							return false
						}
					}
					return true
				})
			}
			return found == nil
		})
		if found != nil {
			return file, found, true
		}
	}
	return "", nil, false
}

// function is the plain function `name` of f (not a method), or nil.
func function(f *ast.File, name string) *ast.FuncDecl {
	for _, decl := range f.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
			return fn
		}
	}
	return nil
}

// optionKeys returns the keys of the Options map literal in fn, each of which must be set from its feature gate
// (`Enabled(features.X)` somewhere in fn); the driver stops on another shape.
func optionKeys(file string, fn *ast.FuncDecl) []string {
	keys := []string{}
	read := map[string]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			// utilfeature.DefaultFeatureGate.Enabled(features.X)
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Enabled" && len(n.Args) == 1 {
				if arg, ok := n.Args[0].(*ast.SelectorExpr); ok {
					read[arg.Sel.Name] = true
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Options" {
				lit, ok := n.Value.(*ast.CompositeLit)
				if !ok {
					panic(fmt.Sprintf("%s: Options is not a map literal", file))
				}
				for _, e := range lit.Elts {
					kv := e.(*ast.KeyValueExpr)
					keys = append(keys, optionName(file, kv.Key))
				}
			}
		}
		return true
	})
	for _, k := range keys {
		if !read[k] {
			panic(fmt.Sprintf("%s: option %s is not set from its feature gate (Enabled(features.%s)): a shape this driver does not know", file, k, k))
		}
	}
	return keys
}

// types names a receiver type: `strategy`, `*podGroupStrategy`.
func types(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return types(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// optionName reads an Options key: `string(features.X)` or a string literal.
func optionName(file string, e ast.Expr) string {
	switch k := e.(type) {
	case *ast.CallExpr:
		if id, ok := k.Fun.(*ast.Ident); ok && id.Name == "string" && len(k.Args) == 1 {
			if sel, ok := k.Args[0].(*ast.SelectorExpr); ok {
				return sel.Sel.Name
			}
		}
	case *ast.BasicLit:
		if s, err := strconv.Unquote(k.Value); err == nil {
			return s
		}
	}
	panic(fmt.Sprintf("%s: an Options key this driver does not read", file))
}

func errorsOf(list field.ErrorList) []fieldError {
	out := []fieldError{}
	for _, e := range list {
		stability := ""
		if e.IsAlpha() {
			stability = "alpha"
		} else if e.IsBeta() {
			stability = "beta"
		}
		out = append(out, fieldError{
			Type: e.Type.String(), Field: e.Field, Detail: e.Detail, Origin: e.Origin, Message: e.Error(),
			Stability: stability,
		})
	}
	return out
}

// statusReset: what a create strategy's PrepareForCreate assigns to the object's Status.
type statusReset struct {
	at   string            // `k8s.io/kubernetes pkg/registry/…/strategy.go:76`
	sets map[string]string // fields of the new status literal and their string constants' values
}

// resets: per `<group>/<Type>` (the group's directory in k8s.io/kubernetes/pkg/apis and k8s.io/api), the first
// status reset, in path order, of the PrepareForCreate methods of pkg/registry/*/*/*.go; loaded once.
var resets map[string]statusReset

// loadResets reads every create strategy with go/ast: in a PrepareForCreate method (not of a *StatusStrategy),
// `x := obj.(*pkg.Type)` binds x, and `x.Status = pkg.TypeStatus{…}` or `x.Status = nil` among the body's statements
// — or those of an `if utilfeature.DefaultFeatureGate.Enabled(features.G)` body when G is on — is the reset. A field
// of the literal must be a string constant of the type's package (`Phase: api.PodPending`), else the driver stops.
func loadResets() {
	resets = map[string]statusReset{}
	files, _ := filepath.Glob(filepath.Join(kubernetesDir, "pkg/registry/*/*/*.go"))
	sort.Strings(files)
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, fset, imports := parseFile(path)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "PrepareForCreate" || fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil {
				continue
			}
			if strings.HasSuffix(strings.ToLower(types(fn.Recv.List[0].Type)), "statusstrategy") {
				continue
			}
			bound := map[string][2]string{}
			var walk func(stmts []ast.Stmt)
			walk = func(stmts []ast.Stmt) {
				for _, st := range stmts {
					switch st := st.(type) {
					case *ast.IfStmt:
						if st.Init != nil {
							continue
						}
						call, ok := st.Cond.(*ast.CallExpr)
						if !ok || len(call.Args) != 1 {
							continue
						}
						sel, ok := call.Fun.(*ast.SelectorExpr)
						if !ok || sel.Sel.Name != "Enabled" || !strings.HasSuffix(exprString(sel.X), "DefaultFeatureGate") {
							continue
						}
						gate, ok := call.Args[0].(*ast.SelectorExpr)
						if ok && utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(gate.Sel.Name)) {
							walk(st.Body.List)
						}
					case *ast.AssignStmt:
						if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
							continue
						}
						if st.Tok == token.DEFINE {
							id, ok1 := st.Lhs[0].(*ast.Ident)
							ta, ok2 := st.Rhs[0].(*ast.TypeAssertExpr)
							if !ok1 || !ok2 {
								continue
							}
							star, ok := ta.Type.(*ast.StarExpr)
							if !ok {
								continue
							}
							if q, ok := star.X.(*ast.SelectorExpr); ok {
								if pkg, ok := q.X.(*ast.Ident); ok {
									bound[id.Name] = [2]string{imports[pkg.Name], q.Sel.Name}
								}
							}
							continue
						}
						lhs, ok := st.Lhs[0].(*ast.SelectorExpr)
						if !ok || lhs.Sel.Name != "Status" {
							continue
						}
						v, ok := lhs.X.(*ast.Ident)
						if !ok {
							continue
						}
						b, ok := bound[v.Name]
						if !ok {
							continue
						}
						sets := map[string]string{}
						switch rhs := st.Rhs[0].(type) {
						case *ast.Ident:
							if rhs.Name != "nil" {
								continue
							}
						case *ast.CompositeLit:
							for _, e := range rhs.Elts {
								kv := e.(*ast.KeyValueExpr)
								sets[kv.Key.(*ast.Ident).Name] = constant(b[0], kv.Value)
							}
						default:
							continue
						}
						group, ok := strings.CutPrefix(b[0], "k8s.io/kubernetes/pkg/apis/")
						if !ok {
							continue
						}
						key := group + "/" + b[1]
						if _, seen := resets[key]; !seen {
							resets[key] = statusReset{at: fmt.Sprintf("%s:%d", rel(path), fset.Position(st.Pos()).Line), sets: sets}
						}
					}
				}
			}
			walk(fn.Body.List)
		}
	}
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return ""
}

// constant: the value of string constant `pkg.Name` (e) declared in the package at import path pkgPath.
func constant(pkgPath string, e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		panic(fmt.Sprintf("a status field set to %T in a PrepareForCreate: a shape the driver does not know", e))
	}
	for _, f := range parseDir(dirOf(pkgPath)) {
		for _, decl := range f.file.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name == sel.Sel.Name && i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, _ := strconv.Unquote(lit.Value)
							return v
						}
					}
				}
			}
		}
	}
	panic("no string constant " + pkgPath + "." + sel.Sel.Name)
}

// prepareForCreate does to obj's Status what its kind's create strategy does (loadResets): the status set to its
// zero value, then the literal's fields. Returns where the strategy does it, "" when it does not.
func prepareForCreate(obj runtime.Object) string {
	if resets == nil {
		loadResets()
	}
	group := ""
	if rest, ok := strings.CutPrefix(typePkg(obj), "k8s.io/api/"); ok {
		group = strings.Split(rest, "/")[0]
	}
	r, ok := resets[group+"/"+reflect.TypeOf(obj).Elem().Name()]
	if !ok {
		return ""
	}
	status := reflect.ValueOf(obj).Elem().FieldByName("Status")
	if !status.IsValid() {
		panic(fmt.Sprintf("%T has no Status field", obj))
	}
	status.Set(reflect.Zero(status.Type()))
	for name, value := range r.sets {
		target := status
		if target.Kind() == reflect.Pointer {
			target.Set(reflect.New(target.Type().Elem()))
			target = target.Elem()
		}
		target.FieldByName(name).SetString(value)
	}
	return r.at
}

// validateCreate: runDeclarativeValidationWithRecover's create path (the object is already of the request's
// version, so ConvertToVersion is the identity).
func validateCreate(ctx context.Context, options map[string]bool, obj runtime.Object) (errs field.ErrorList) {
	defer func() {
		if r := recover(); r != nil {
			errs = append(errs, field.InternalError(nil, fmt.Errorf("panic during declarative validation: %v", r)))
		}
	}()
	return scheme.Validate(ctx, options, obj)
}

func check(data []byte, item int) object {
	o := object{Item: item, Enforced: []fieldError{}, Shadowed: []fieldError{}, Strict: []string{}}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		o.Status, o.Message = "no-kind", err.Error()
		return o
	}
	gvk := u.GroupVersionKind()
	o.APIVersion, o.Kind = u.GetAPIVersion(), u.GetKind()
	if !scheme.Recognizes(gvk) {
		o.Status = "unknown-kind"
		return o
	}
	obj, _, err := lenient.Decode(data, nil, nil)
	if err != nil {
		o.Status, o.Message = "undecodable", err.Error()
		return o
	}
	// A group/version the release no longer serves: its types' generated APILifecycleRemoved
	// (prerelease-lifecycle-gen) names the release that removed it, and the API server does not serve it from
	// then on ("no matches for kind").
	if r, ok := obj.(interface{ APILifecycleRemoved() (int, int) }); ok {
		major, minor := r.APILifecycleRemoved()
		if releaseMajor > major || (releaseMajor == major && releaseMinor >= minor) {
			o.Status, o.Message = "unknown-kind", fmt.Sprintf("removed in %d.%d", major, minor)
			return o
		}
	}
	if _, _, err := strict.Decode(data, nil, nil); err != nil {
		if se, ok := runtime.AsStrictDecodingError(err); ok {
			for _, e := range se.Errors() {
				o.Strict = append(o.Strict, e.Error())
			}
		}
	}
	scheme.Default(obj)
	// Reported when the manifest wrote a status other than null (vgc reports the status it clears as written).
	if at := prepareForCreate(obj); at != "" {
		if st, ok := u.Object["status"]; ok && st != nil {
			o.Reset = at
		}
	}
	if !scheme.HasValidationFunc(obj) {
		o.Status = "no-validation"
		return o
	}
	s := optionsOf(gvk, obj)
	o.Strategy, o.Options = s.file, s.options
	ctx := context.Background()
	errs := validateCreate(ctx, s.options, obj)
	beta := utilfeature.DefaultFeatureGate.Enabled(genericfeatures.DeclarativeValidationBeta)
	enforced := validate.FilterEnforcedDeclarativeErrors(ctx, errs, beta)
	var shadowed field.ErrorList
	for _, e := range errs {
		kept := false
		for _, k := range enforced {
			if k == e {
				kept = true
			}
		}
		if !kept {
			shadowed = append(shadowed, e)
		}
	}
	o.Status = "validated"
	o.Enforced, o.Shadowed = errorsOf(enforced), errorsOf(shadowed)
	return o
}

// objects: what kubectl sends for a document, checked.
func objects(text string) []object {
	data := []byte(text)
	decoded, _, err := unstructured.UnstructuredJSONScheme.Decode(data, nil, nil)
	if err != nil {
		return []object{{Item: -1, Status: "no-kind", Message: err.Error(), Enforced: []fieldError{}, Shadowed: []fieldError{}, Strict: []string{}}}
	}
	list, ok := decoded.(*unstructured.UnstructuredList)
	if !ok {
		return []object{check(data, -1)}
	}
	out := []object{}
	for i := range list.Items {
		b, err := list.Items[i].MarshalJSON()
		if err != nil {
			panic(err)
		}
		out = append(out, check(b, i))
	}
	return out
}

// kinds prints, one JSON line each sorted, every kind of a k8s.io/api package the scheme knows whose type has
// ObjectMeta (an object the API could store; not a List, not an options type): {"apiVersion", "kind"}.
func kinds() {
	var out []string
	for gvk, t := range scheme.AllKnownTypes() {
		if !strings.HasPrefix(t.PkgPath(), "k8s.io/api/") || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		if _, ok := t.FieldByName("ObjectMeta"); !ok {
			continue
		}
		b, _ := json.Marshal(map[string]string{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind})
		out = append(out, string(b))
	}
	sort.Strings(out)
	for _, l := range out {
		fmt.Println(l)
	}
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--kinds" {
		kinds()
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: verdicts KUBERNETES_DIR APISERVER_DIR < files.json")
		os.Exit(2)
	}
	kubernetesDir, apiserverDir = os.Args[1], os.Args[2]
	// The release: the k8s.io/kubernetes module directory's version (`…/k8s.io/kubernetes@v1.37.2`).
	if m := regexp.MustCompile(`@v(\d+)\.(\d+)`).FindStringSubmatch(kubernetesDir); m != nil {
		releaseMajor, _ = strconv.Atoi(m[1])
		releaseMinor, _ = strconv.Atoi(m[2])
	} else {
		fmt.Fprintf(os.Stderr, "no release version in %s\n", kubernetesDir)
		os.Exit(2)
	}
	var files []struct {
		Name string `json:"name"`
		Path string `json:"path"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&files); err != nil {
		panic(err)
	}
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for _, f := range files {
		text, err := os.ReadFile(f.Path)
		if err != nil {
			panic(err)
		}
		for i, d := range read(string(text)) {
			d.File, d.Doc = f.Name, i
			d.Objects = []object{}
			if d.JSON != nil {
				d.Objects = objects(*d.JSON)
			}
			if err := out.Encode(d); err != nil {
				panic(err)
			}
		}
	}
}
