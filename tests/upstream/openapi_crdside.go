// A kind's OpenAPI schema run as the API server runs a custom resource's (registry/customresource), shared by the
// OpenAPI oracle's modes that validate objects (openapi_compare.go, openapi_objects.go). Built beside
// openapi_apiserver.go in a scratch module; never compiled in the vgc repository itself.
package main

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// crdSide is a kind's schema run as the API server runs a custom resource's.
type crdSide struct {
	validator  validation.SchemaValidator
	structural *structuralschema.Structural
	cel        *cel.Validator
}

func newCRDSide(comps map[string]any, name string) *crdSide {
	in := &inliner{comps: comps}
	c, ok := comps[name].(map[string]any)
	if !ok {
		panic("no schema " + name)
	}
	root := in.resolve(c, []string{name})
	b, _ := json.Marshal(root)
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(b, &v1); err != nil {
		panic(err)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		panic(err)
	}
	s, err := structuralschema.NewStructural(&internal)
	if err != nil {
		panic(fmt.Sprintf("%s: not structural: %v", name, err))
	}
	v, _, err := validation.NewSchemaValidator(&internal)
	if err != nil {
		panic(err)
	}
	return &crdSide{validator: v, structural: s, cel: cel.NewValidator(s, false, celconfig.PerCallLimit)}
}

// validate is registry/customresource's Validate (old nil) or ValidateUpdate, without the object-meta and scale
// checks.
func (c *crdSide) validate(obj, old map[string]any) field.ErrorList {
	ctx := context.Background()
	var errs field.ErrorList
	if old == nil {
		errs = append(errs, validation.ValidateCustomResource(nil, obj, c.validator)...)
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, c.structural, obj)...)
		e, _ := c.cel.Validate(ctx, nil, c.structural, obj, nil, celconfig.RuntimeCELCostBudget)
		return append(errs, e...)
	}
	corr := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: c.structural})
	errs = append(errs, validation.ValidateCustomResourceUpdate(nil, obj, old, c.validator, validation.WithRatcheting(corr))...)
	if len(structurallisttype.ValidateListSetsAndMaps(nil, c.structural, old)) == 0 {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, c.structural, obj)...)
	}
	e, _ := c.cel.Validate(ctx, nil, c.structural, obj, old, celconfig.RuntimeCELCostBudget, cel.WithRatcheting(corr))
	return append(errs, e...)
}

// pruneNulls is structuraldefaulting.PruneNonNullableNullsWithoutDefaults without its exception for fields with a
// default: those nulls are dropped too, and applyDefaults' Default then fills the field in, as the API server's
// Default does with a non-nullable null.
func pruneNulls(x any, s *structuralschema.Structural) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			var sub *structuralschema.Structural
			if s != nil {
				if p, ok := s.Properties[k]; ok {
					sub = &p
				} else if s.AdditionalProperties != nil {
					sub = s.AdditionalProperties.Structural
				}
			}
			if v == nil && sub != nil && !sub.Nullable {
				delete(x, k)
				continue
			}
			pruneNulls(v, sub)
		}
	case []any:
		var sub *structuralschema.Structural
		if s != nil {
			sub = s.Items
		}
		for _, v := range x {
			pruneNulls(v, sub)
		}
	}
}

// applyDefaults is what the API server's decoding of a custom resource does before validation: nulls of fields that
// are not nullable dropped (pruneNulls), then the schema's `default`s filled in (structuraldefaulting.Default).
func applyDefaults(x any, s *structuralschema.Structural) {
	pruneNulls(x, s)
	structuraldefaulting.Default(x, s)
}
