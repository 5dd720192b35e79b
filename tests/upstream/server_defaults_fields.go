// The field finder of the server-defaulting oracle (tests/tests/server_defaults_oracle.rs): which fields the API
// server's hand-written defaulting sets. Copied into the oracle's scratch module (beside unchanged copies of
// k8s.io/kubernetes' pkg/apis/<group>/<version>/defaults.go and zz_generated.defaults.go and the packages they
// import); never compiled in the vgc repository itself.
//
//	./fields PATTERN...   loads the packages with golang.org/x/tools/go/packages (type-checked with go/types) and
//	                      prints, as JSON, for every function named SetDefaults_* (no receiver): every struct field
//	                      it or a function it calls (transitively, within the loaded packages) sets.
//
// A field is set by an assignment or ++/-- whose left side selects it (through parentheses, `*` and indexing:
// `*obj.Spec.Replicas = 1`, `obj.Labels[k] = v` set Replicas and Labels), by `delete` on it, or by a keyed (or
// positional) element of a composite literal of its struct. The field is reported with the struct that declares it
// (a promoted field with the embedded struct's type), as (package path, type name, Go field name). Also listed, for
// review by the test: calls out of the loaded packages with an argument or receiver that can reach an API object
// (a pointer, slice or map of a k8s.io/api or meta/v1 type), calls through function values, and assignments through
// a pointer that is not a field (`*p = v`).
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

type set struct {
	Pkg   string `json:"pkg"`
	Type  string `json:"type"`
	Field string `json:"field"`
	How   string `json:"how"`
	At    string `json:"at"`
}

type fn struct {
	sets  []set
	calls []string
	// Callees given something that reaches an API object (those outside the loaded packages are reported).
	external []string
	indirect []string
}

type root struct {
	Function string   `json:"function"`
	Sets     []set    `json:"sets"`
	External []string `json:"external"`
	Indirect []string `json:"indirect"`
}

func main() {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
		packages.NeedTypesInfo | packages.NeedImports}
	pkgs, err := packages.Load(cfg, os.Args[1:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fns := map[string]*fn{}
	var roots []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			fmt.Fprintln(os.Stderr, e)
			os.Exit(1)
		}
		for _, file := range p.Syntax {
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				obj := p.TypesInfo.Defs[fd.Name].(*types.Func)
				f := &fn{}
				fns[obj.FullName()] = f
				if strings.HasPrefix(fd.Name.Name, "SetDefaults_") && fd.Recv == nil {
					roots = append(roots, obj.FullName())
				}
				walk(p, f, fd.Body)
			}
		}
	}
	sort.Strings(roots)
	out := []root{}
	for _, r := range roots {
		o := root{Function: r, Sets: []set{}, External: []string{}, Indirect: []string{}}
		seen := map[string]bool{}
		var visit func(string)
		visit = func(n string) {
			if seen[n] {
				return
			}
			seen[n] = true
			f := fns[n]
			if f == nil {
				return
			}
			o.Sets = append(o.Sets, f.sets...)
			for _, e := range f.external {
				if fns[e] == nil {
					o.External = append(o.External, e)
				}
			}
			o.Indirect = append(o.Indirect, f.indirect...)
			for _, c := range f.calls {
				visit(c)
			}
		}
		visit(r)
		out = append(out, o)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// fieldOf is the field expression e (a left side) sets, if it is one.
func fieldOf(p *packages.Package, e ast.Expr, how string) (set, bool) {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
			how += "[]"
		case *ast.SelectorExpr:
			sel := p.TypesInfo.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return set{}, false
			}
			return structField(p, sel.Recv(), x.Sel.Name, how, x.Pos())
		default:
			return set{}, false
		}
	}
}

// structField names field `field` of (a pointer to) struct type recv by the struct that declares it.
func structField(p *packages.Package, recv types.Type, field, how string, pos token.Pos) (set, bool) {
	t := recv
	if pt, ok := t.Underlying().(*types.Pointer); ok {
		t = pt.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return set{}, false
	}
	owner := n
	obj, _, _ := types.LookupFieldOrMethod(n, true, nil, field)
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		if d := declaringStruct(n, v, map[*types.Named]bool{}); d != nil {
			owner = d
		}
	}
	pkg := ""
	if owner.Obj().Pkg() != nil {
		pkg = owner.Obj().Pkg().Path()
	}
	return set{Pkg: pkg, Type: owner.Obj().Name(), Field: field, How: how, At: p.Fset.Position(pos).String()}, true
}

// declaringStruct is n or the struct embedded in it (at any depth) that declares field v.
func declaringStruct(n *types.Named, v *types.Var, seen map[*types.Named]bool) *types.Named {
	if seen[n] {
		return nil
	}
	seen[n] = true
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == v {
			return n
		}
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		ft := f.Type()
		if pt, ok := ft.(*types.Pointer); ok {
			ft = pt.Elem()
		}
		if en, ok := types.Unalias(ft).(*types.Named); ok {
			if r := declaringStruct(en, v, seen); r != nil {
				return r
			}
		}
	}
	return nil
}

// reachesAPI: a value of type t can change an API object it is given (a pointer, slice or map leading to a
// k8s.io/api or meta/v1 named type).
func reachesAPI(t types.Type, indirect bool, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		return reachesAPI(u.Elem(), true, depth+1)
	case *types.Slice:
		return reachesAPI(u.Elem(), true, depth+1)
	case *types.Map:
		return reachesAPI(u.Elem(), true, depth+1)
	case *types.Named:
		if pkg := u.Obj().Pkg(); pkg != nil && indirect &&
			(strings.HasPrefix(pkg.Path(), "k8s.io/api/") || pkg.Path() == "k8s.io/apimachinery/pkg/apis/meta/v1") {
			return true
		}
		if _, ok := u.Underlying().(*types.Struct); ok {
			return false
		}
		return reachesAPI(u.Underlying(), indirect, depth+1)
	}
	return false
}

func walk(p *packages.Package, f *fn, body ast.Node) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				return true
			}
			for _, l := range x.Lhs {
				if s, ok := fieldOf(p, l, "assign"); ok {
					f.sets = append(f.sets, s)
				} else if st, ok := l.(*ast.StarExpr); ok {
					f.indirect = append(f.indirect, fmt.Sprintf("%s: *%s = … (%s)", p.Fset.Position(l.Pos()),
						types.ExprString(st.X), p.TypesInfo.TypeOf(st)))
				}
			}
		case *ast.IncDecStmt:
			if s, ok := fieldOf(p, x.X, "incdec"); ok {
				f.sets = append(f.sets, s)
			}
		case *ast.CompositeLit:
			t := p.TypesInfo.TypeOf(x)
			if t == nil {
				return true
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return true
			}
			for i, el := range x.Elts {
				name := ""
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						name = id.Name
					}
				} else if i < st.NumFields() {
					name = st.Field(i).Name()
				}
				if name == "" {
					continue
				}
				if s, ok := structField(p, t, name, "literal", el.Pos()); ok {
					f.sets = append(f.sets, s)
				}
			}
		case *ast.CallExpr:
			var id *ast.Ident
			var recv ast.Expr
			switch c := x.Fun.(type) {
			case *ast.Ident:
				id = c
			case *ast.SelectorExpr:
				id = c.Sel
				if sel := p.TypesInfo.Selections[c]; sel != nil {
					recv = c.X
				}
			}
			if id == nil {
				return true
			}
			switch u := p.TypesInfo.Uses[id].(type) {
			case *types.Func:
				f.calls = append(f.calls, u.FullName())
				reaches := recv != nil && reachesAPI(p.TypesInfo.TypeOf(recv), false, 0)
				for _, a := range x.Args {
					reaches = reaches || reachesAPI(p.TypesInfo.TypeOf(a), false, 0)
				}
				if reaches {
					f.external = append(f.external, u.FullName())
				}
			case *types.Builtin:
				if u.Name() == "delete" {
					if s, ok := fieldOf(p, x.Args[0], "delete"); ok {
						f.sets = append(f.sets, s)
					}
				}
			case *types.Var:
				f.indirect = append(f.indirect, fmt.Sprintf("%s: call through %s", p.Fset.Position(x.Pos()), id.Name))
			}
		}
		return true
	})
}
