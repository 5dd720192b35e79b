// The cost oracle's Go side (tests/tests/openapi_cost.rs), built beside openapi_apiserver.go (whose inliner, CRD
// wrapper and `check` mode it shares) in a scratch module: the CEL cost estimate of k8s.io/apiextensions-apiserver
// v0.37.2 for every rule, to compare with vgc's own estimate (openapi/src/cost.rs).
//
//	./oracle costs DOCDIR   every component schema of DOCDIR's documents as the `spec` of a CRD (as `check`), its
//	                        `openAPIV3Schema` walked as ValidateCustomResourceDefinition walks it (the same CEL
//	                        schema contexts: RootCELContext, ChildPropertyContext, ChildItemsContext,
//	                        ChildAdditionalPropertiesContext) and each node's rules compiled with cel.Compile, the
//	                        call validation.go makes; then the CRD validated. Prints {"rules": [{"schema", "field",
//	                        "maxCost", "cardinality", "messageCost"}], "errors": [the cost errors, as `check`]}.
//	./oracle crdcosts FILE  the same for every version of the CRD in FILE (YAML), "schema" being the version's name.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/yaml"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type ruleCost struct {
	Schema      string  `json:"schema"`
	Field       string  `json:"field"`
	MaxCost     uint64  `json:"maxCost"`
	Cardinality uint64  `json:"cardinality"`
	MessageCost *uint64 `json:"messageCost,omitempty"`
	Error       string  `json:"error,omitempty"`
}

// ruleCosts walks `s` as validation.go's validateOpenAPISchema walks it and compiles each node's rules.
func ruleCosts(schema string, s *apiextensions.JSONSchemaProps, ctx *validation.CELSchemaContext, path *field.Path, envSet *environment.EnvSet, out *[]ruleCost) {
	if s == nil {
		return
	}
	if len(s.XValidations) > 0 {
		info, err := ctx.TypeInfo()
		if err != nil || info == nil {
			*out = append(*out, ruleCost{Schema: schema, Field: path.String(), Error: fmt.Sprintf("type info: %v", err)})
		} else {
			results, err := cel.Compile(info.Schema, info.DeclType, celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
			if err != nil {
				*out = append(*out, ruleCost{Schema: schema, Field: path.String(), Error: err.Error()})
			}
			for i, r := range results {
				rc := ruleCost{Schema: schema, Field: path.Child("x-kubernetes-validations").Index(i).Child("rule").String(), MaxCost: r.MaxCost, Cardinality: r.MaxCardinality}
				if ctx.MaxCardinality != nil {
					rc.Cardinality = *ctx.MaxCardinality
				}
				if r.Error != nil {
					rc.Error = r.Error.Detail
				}
				if r.MessageExpression != nil {
					c := r.MessageExpressionMaxCost
					rc.MessageCost = &c
				}
				*out = append(*out, rc)
			}
		}
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.Properties[n]
		ruleCosts(schema, &p, ctx.ChildPropertyContext(&p, n), path.Child("properties").Key(n), envSet, out)
	}
	if s.Items != nil && s.Items.Schema != nil {
		ruleCosts(schema, s.Items.Schema, ctx.ChildItemsContext(s.Items.Schema), path.Child("items"), envSet, out)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		ruleCosts(schema, s.AdditionalProperties.Schema, ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema), path.Child("additionalProperties"), envSet, out)
	}
}

// costsOf estimates one CRD: its rules' costs and its validation's cost errors.
func costsOf(name string, crd *apiextensions.CustomResourceDefinition, rules *[]ruleCost, errs *[]errorOut) {
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	for _, v := range crdSchemas(crd) {
		schema := name
		if v.version != "" {
			schema = name + "/" + v.version
		}
		ruleCosts(schema, v.schema, validation.RootCELContext(v.schema), field.NewPath("openAPIV3Schema"), envSet, rules)
	}
	for _, e := range validation.ValidateCustomResourceDefinition(context.Background(), crd) {
		if strings.Contains(e.Detail, "cost") {
			*errs = append(*errs, errorOut{Schema: name, Field: e.Field, Type: string(e.Type), Detail: e.Detail})
		}
	}
}

type versionSchema struct {
	version string
	schema  *apiextensions.JSONSchemaProps
}

// crdSchemas: the CRD's schema (top-level) or each version's.
func crdSchemas(crd *apiextensions.CustomResourceDefinition) []versionSchema {
	if crd.Spec.Validation != nil && crd.Spec.Validation.OpenAPIV3Schema != nil {
		return []versionSchema{{"", crd.Spec.Validation.OpenAPIV3Schema}}
	}
	var out []versionSchema
	for _, v := range crd.Spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			out = append(out, versionSchema{v.Name, v.Schema.OpenAPIV3Schema})
		}
	}
	return out
}

func costs(dir string) {
	rules := []ruleCost{}
	errs := []errorOut{}
	eachSchema(dir, func(n string, spec map[string]any) { // openapi_apiserver.go, built beside this file
		crd, err := crdOf(spec)
		if err != nil {
			errs = append(errs, errorOut{Schema: n, Type: "conversion", Detail: err.Error()})
			return
		}
		costsOf(n, crd, &rules, &errs)
	})
	out, _ := json.Marshal(map[string]any{"rules": rules, "errors": errs})
	fmt.Println(string(out))
}

func crdCosts(file string) {
	f, err := os.Open(file)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := yaml.NewYAMLOrJSONDecoder(f, 4096).Decode(&v1); err != nil {
		panic(err)
	}
	var crd apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &crd, nil); err != nil {
		panic(err)
	}
	rules := []ruleCost{}
	errs := []errorOut{}
	costsOf(crd.Name, &crd, &rules, &errs)
	out, _ := json.Marshal(map[string]any{"rules": rules, "errors": errs})
	fmt.Println(string(out))
}

func init() {
	modes["costs"] = func(args []string) { costs(args[0]) }
	modes["crdcosts"] = func(args []string) { crdCosts(args[0]) }
}
