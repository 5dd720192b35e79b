// The CRD mode of the OpenAPI oracle (tests/tests/openapi_crd.rs), built beside openapi_apiserver.go: a
// CustomResourceDefinition file (`vgc openapi --crd`'s output) loaded as the API server loads one, and custom objects
// validated against it as the API server validates a custom resource.
//
//	./oracle crd CRD.yaml CASES.json   the CRD decoded (sigs.k8s.io/yaml), defaulted and converted as the API server
//	                                   does, and validated with `validation.ValidateCustomResourceDefinition` —
//	                                   structural schema, CEL compilation and the CEL cost estimate; then each case
//	                                   ({"name", "object", "old"?}) validated with the CRD's schema as
//	                                   registry/customresource runs it (the OpenAPI schema validator, list-type
//	                                   uniqueness, the CEL validator; on an update — a case with "old" — with
//	                                   ratcheting on the correlated old object). Prints {"crd": [errors], "cases": [{"name",
//	                                   "errors"}]}, each error {"field", "type", "detail"}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemavalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"sigs.k8s.io/yaml"
)

type fieldError struct {
	Field  string `json:"field"`
	Type   string `json:"type"`
	Detail string `json:"detail"`
}

func errorsOf(list field.ErrorList) []fieldError {
	out := []fieldError{}
	for _, e := range list {
		out = append(out, fieldError{Field: e.Field, Type: string(e.Type), Detail: e.Detail})
	}
	return out
}

func crdMode(args []string) {
	b, err := os.ReadFile(args[0])
	if err != nil {
		panic(err)
	}
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(b, &v1); err != nil {
		panic(fmt.Sprintf("%s: %v", args[0], err))
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&v1)
	var crd apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &crd, nil); err != nil {
		panic(err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			crd.Status.StoredVersions = []string{v.Name}
		}
	}
	crdErrs := errorsOf(crdvalidation.ValidateCustomResourceDefinition(context.Background(), &crd))

	schema := crd.Spec.Validation
	if schema == nil {
		schema = crd.Spec.Versions[0].Schema
	}
	s, err := structuralschema.NewStructural(schema.OpenAPIV3Schema)
	if err != nil {
		panic(fmt.Sprintf("not structural: %v", err))
	}
	validator, _, err := schemavalidation.NewSchemaValidator(schema.OpenAPIV3Schema)
	if err != nil {
		panic(err)
	}
	celValidator := cel.NewValidator(s, true, celconfig.PerCallLimit)

	cb, err := os.ReadFile(args[1])
	if err != nil {
		panic(err)
	}
	var cases []map[string]any
	// The API server decodes a request as unstructured JSON: integers as int64.
	if err := utiljson.Unmarshal(cb, &cases); err != nil {
		panic(err)
	}
	type caseOut struct {
		Name   string       `json:"name"`
		Errors []fieldError `json:"errors"`
	}
	outs := []caseOut{}
	ctx := context.Background()
	for _, c := range cases {
		obj := c["object"].(map[string]any)
		var errs field.ErrorList
		if old, ok := c["old"].(map[string]any); ok {
			// registry/customresource's ValidateUpdate: ratcheting on the correlated old object.
			corr := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: s})
			errs = append(errs, schemavalidation.ValidateCustomResourceUpdate(nil, obj, old, validator, schemavalidation.WithRatcheting(corr))...)
			if len(structurallisttype.ValidateListSetsAndMaps(nil, s, old)) == 0 {
				errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s, obj)...)
			}
			e, _ := celValidator.Validate(ctx, nil, s, obj, old, celconfig.RuntimeCELCostBudget, cel.WithRatcheting(corr))
			errs = append(errs, e...)
		} else {
			errs = append(errs, schemavalidation.ValidateCustomResource(nil, obj, validator)...)
			errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s, obj)...)
			e, _ := celValidator.Validate(ctx, nil, s, obj, nil, celconfig.RuntimeCELCostBudget)
			errs = append(errs, e...)
		}
		outs = append(outs, caseOut{Name: c["name"].(string), Errors: errorsOf(errs)})
	}
	out, _ := json.Marshal(map[string]any{"crd": crdErrs, "cases": outs})
	fmt.Println(string(out))
}

func init() {
	modes["crd"] = crdMode
}
