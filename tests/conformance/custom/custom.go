package custom

import (
	"context"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateCustom_Request_Requester rejects "nobody". Its Rust twin is tests/conformance/custom.rs.
func ValidateCustom_Request_Requester(_ context.Context, _ operation.Operation, fldPath *field.Path, obj, _ *string) field.ErrorList {
	if obj != nil && *obj == "nobody" {
		return field.ErrorList{field.Invalid(fldPath, *obj, "must name somebody").WithOrigin("custom")}
	}
	return nil
}

// ValidateCustom_Token forbids changing a token that starts with "locked-".
func ValidateCustom_Token(_ context.Context, op operation.Operation, fldPath *field.Path, obj, oldObj *Token) field.ErrorList {
	if op.Type == operation.Update && oldObj != nil && obj != nil && *obj != *oldObj && len(*oldObj) > 7 && (*oldObj)[:7] == "locked-" {
		return field.ErrorList{field.Forbidden(fldPath, "a locked token may not change")}
	}
	return nil
}
