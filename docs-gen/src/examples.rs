//! One Go example per validation tag, shown in the tag reference. `tests/tests/docs.rs` builds all of them (with
//! [`PRELUDE`]) into one Go package, runs `vgc build` and compiles the generated crate with cargo, so an example
//! that stops working fails the build. `k8s:validateError` always fails generation; its example is built alone and
//! must produce exactly that error.

/// Shared declarations the examples refer to.
pub const PRELUDE: &str = r#"package examples

// Item is a list-map element keyed by name.
type Item struct {
	// +k8s:required
	Name string `json:"name"`
	// +k8s:optional
	Value int32 `json:"value,omitempty"`
}

// Cond is a list-map element keyed by type.
type Cond struct {
	// +k8s:required
	Type string `json:"type"`
	// +k8s:optional
	Reason string `json:"reason,omitempty"`
}
"#;

/// (tag, Go declarations) for every catalog tag, in catalog order.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "k8s:alpha",
        "type ExAlpha struct {\n\t// +k8s:optional\n\t// +k8s:alpha(since: \"1.37\")=+k8s:maxLength=16\n\tName string `json:\"name,omitempty\"`\n}",
    ),
    (
        "k8s:beta",
        "type ExBeta struct {\n\t// +k8s:optional\n\t// +k8s:beta(since: \"1.37\")=+k8s:minimum=1\n\tReplicas *int32 `json:\"replicas,omitempty\"`\n}",
    ),
    (
        "k8s:customUnique",
        "type ExCustomUnique struct {\n\t// +k8s:optional\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=name\n\t// +k8s:customUnique\n\tItems []Item `json:\"items,omitempty\"`\n}",
    ),
    (
        "k8s:customValidation",
        "// +k8s:customValidation\ntype ExCustomValidation string",
    ),
    (
        "k8s:dependentForbidden",
        "type ExDependentForbidden struct {\n\t// +k8s:optional\n\t// +k8s:dependentForbidden(fixed)\n\tMin *int32 `json:\"min,omitempty\"`\n\t// +k8s:optional\n\tFixed *int32 `json:\"fixed,omitempty\"`\n}",
    ),
    (
        "k8s:dependentRequired",
        "type ExDependentRequired struct {\n\t// +k8s:optional\n\t// +k8s:dependentRequired(max)\n\tMin *int32 `json:\"min,omitempty\"`\n\t// +k8s:optional\n\tMax *int32 `json:\"max,omitempty\"`\n}",
    ),
    (
        "k8s:eachKey",
        "type ExEachKey struct {\n\t// +k8s:optional\n\t// +k8s:eachKey=+k8s:format=k8s-label-key\n\tLabels map[string]string `json:\"labels,omitempty\"`\n}",
    ),
    (
        "k8s:eachVal",
        "type ExEachVal struct {\n\t// +k8s:optional\n\t// +k8s:eachVal=+k8s:format=k8s-long-name\n\tHosts []string `json:\"hosts,omitempty\"`\n}",
    ),
    (
        "k8s:enum",
        "// +k8s:enum\ntype ExEnum string\n\nconst (\n\tExEnumA ExEnum = \"A\"\n\tExEnumB ExEnum = \"B\"\n)",
    ),
    (
        "k8s:enumExclude",
        "// +k8s:enum\ntype ExEnumExclude string\n\nconst (\n\tExEnumExcludeOn ExEnumExclude = \"On\"\n\t// +k8s:ifDisabled(Preview)=+k8s:enumExclude\n\tExEnumExcludePreview ExEnumExclude = \"Preview\"\n)",
    ),
    (
        "k8s:eq",
        "type ExEq struct {\n\t// +k8s:optional\n\t// +k8s:eq=\"Always\"\n\tRestartPolicy string `json:\"restartPolicy,omitempty\"`\n}",
    ),
    (
        "k8s:forbidden",
        "type ExForbidden struct {\n\t// +k8s:forbidden\n\tLegacy *string `json:\"legacy,omitempty\"`\n}",
    ),
    (
        "k8s:format",
        "type ExFormat struct {\n\t// +k8s:required\n\t// +k8s:format=k8s-short-name\n\tName string `json:\"name\"`\n}",
    ),
    (
        "k8s:ifDisabled",
        "type ExIfDisabled struct {\n\t// +k8s:ifDisabled(GPU)=+k8s:forbidden\n\t// +k8s:ifEnabled(GPU)=+k8s:optional\n\tGPUs *int32 `json:\"gpus,omitempty\"`\n}",
    ),
    (
        "k8s:ifEnabled",
        "type ExIfEnabled struct {\n\t// +k8s:optional\n\t// +k8s:ifEnabled(Strict)=+k8s:maxLength=8\n\tName string `json:\"name,omitempty\"`\n}",
    ),
    (
        "k8s:ifMode",
        "type ExIfMode struct {\n\t// +k8s:modeDiscriminator\n\t// +k8s:optional\n\tMode string `json:\"mode,omitempty\"`\n\t// +k8s:ifMode(Push)=+k8s:required\n\tEndpoint *string `json:\"endpoint,omitempty\"`\n}",
    ),
    (
        "k8s:ifNotSubresource",
        "type ExIfNotSubresource struct {\n\t// +k8s:optional\n\t// +k8s:ifNotSubresource(\"/resize\")=+k8s:immutable\n\tSize *int32 `json:\"size,omitempty\"`\n}",
    ),
    (
        "k8s:ifSubresource",
        "type ExIfSubresource struct {\n\t// +k8s:optional\n\t// +k8s:ifSubresource(\"/status\")=+k8s:format=k8s-short-name\n\tPhase *string `json:\"phase,omitempty\"`\n}",
    ),
    (
        "k8s:immutable",
        "type ExImmutable struct {\n\t// +k8s:optional\n\t// +k8s:immutable\n\tClass string `json:\"class,omitempty\"`\n}",
    ),
    (
        "k8s:item",
        "type ExItem struct {\n\t// +k8s:optional\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=type\n\t// +k8s:item(type: \"Ready\")=+k8s:immutable\n\tConditions []Cond `json:\"conditions,omitempty\"`\n}",
    ),
    (
        "k8s:listMapItem",
        "type ExListMapItem struct {\n\t// +k8s:optional\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=type\n\t// +k8s:union(union: terminal)\n\t// +k8s:listMapItem(type: \"Succeeded\")=+k8s:memberOf(group: terminal)\n\t// +k8s:listMapItem(type: \"Failed\")=+k8s:memberOf(group: terminal)\n\tConditions []Cond `json:\"conditions,omitempty\"`\n}",
    ),
    (
        "k8s:listMapKey",
        "type ExListMapKey struct {\n\t// +k8s:optional\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=name\n\tItems []Item `json:\"items,omitempty\"`\n}",
    ),
    (
        "k8s:listType",
        "type ExListType struct {\n\t// +k8s:optional\n\t// +k8s:listType=set\n\tTags []string `json:\"tags,omitempty\"`\n}",
    ),
    (
        "k8s:maxBytes",
        "type ExMaxBytes struct {\n\t// +k8s:optional\n\t// +k8s:maxBytes=64\n\tNote string `json:\"note,omitempty\"`\n}",
    ),
    (
        "k8s:maxItems",
        "type ExMaxItems struct {\n\t// +k8s:optional\n\t// +k8s:maxItems=8\n\tTags []string `json:\"tags,omitempty\"`\n}",
    ),
    (
        "k8s:maxLength",
        "type ExMaxLength struct {\n\t// +k8s:optional\n\t// +k8s:maxLength=63\n\tName string `json:\"name,omitempty\"`\n}",
    ),
    (
        "k8s:maxProperties",
        "type ExMaxProperties struct {\n\t// +k8s:optional\n\t// +k8s:maxProperties=16\n\tLabels map[string]string `json:\"labels,omitempty\"`\n}",
    ),
    (
        "k8s:maximum",
        "type ExMaximum struct {\n\t// +k8s:optional\n\t// +k8s:maximum=100\n\tPercent *int32 `json:\"percent,omitempty\"`\n}",
    ),
    (
        "k8s:memberOf",
        "// +k8s:zeroOrOneOf(union: schedule)\ntype ExMemberOf struct {\n\t// +k8s:optional\n\t// +k8s:memberOf(group: schedule)\n\tCron *string `json:\"cron,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:memberOf(group: schedule)\n\tInterval *int32 `json:\"interval,omitempty\"`\n}",
    ),
    (
        "k8s:minItems",
        "type ExMinItems struct {\n\t// +k8s:optional\n\t// +k8s:minItems=1\n\tHosts []string `json:\"hosts,omitempty\"`\n}",
    ),
    (
        "k8s:minLength",
        "type ExMinLength struct {\n\t// +k8s:optional\n\t// +k8s:minLength=2\n\tCode string `json:\"code,omitempty\"`\n}",
    ),
    (
        "k8s:minProperties",
        "type ExMinProperties struct {\n\t// +k8s:optional\n\t// +k8s:minProperties=1\n\tSelector map[string]string `json:\"selector,omitempty\"`\n}",
    ),
    (
        "k8s:minimum",
        "type ExMinimum struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tReplicas *int32 `json:\"replicas,omitempty\"`\n}",
    ),
    (
        "k8s:modeDiscriminator",
        "type ExModeDiscriminator struct {\n\t// +k8s:modeDiscriminator\n\t// +k8s:optional\n\tKind string `json:\"kind,omitempty\"`\n\t// +k8s:ifMode(Pull)=+k8s:optional\n\t// +k8s:ifMode(Pull)=+k8s:minimum=10\n\tInterval *int32 `json:\"interval,omitempty\"`\n}",
    ),
    (
        "k8s:monotonic",
        "type ExMonotonic struct {\n\t// +k8s:optional\n\t// +k8s:monotonic\n\tGeneration int64 `json:\"generation,omitempty\"`\n}",
    ),
    (
        "k8s:neq",
        "type ExNeq struct {\n\t// +k8s:optional\n\t// +k8s:neq=\"default\"\n\tProfile string `json:\"profile,omitempty\"`\n}",
    ),
    (
        "k8s:opaqueType",
        "type ExOpaqueType struct {\n\t// +k8s:optional\n\t// +k8s:opaqueType\n\tRaw *Item `json:\"raw,omitempty\"`\n}",
    ),
    (
        "k8s:optional",
        "type ExOptional struct {\n\t// +k8s:optional\n\t// +k8s:minLength=1\n\tNickname string `json:\"nickname,omitempty\"`\n}",
    ),
    (
        "k8s:required",
        "type ExRequired struct {\n\t// +k8s:required\n\tName string `json:\"name\"`\n}",
    ),
    (
        "k8s:subfield",
        "type ExSubfield struct {\n\t// +k8s:optional\n\t// +k8s:subfield(name)=+k8s:maxLength=8\n\tTarget *Item `json:\"target,omitempty\"`\n}",
    ),
    (
        "k8s:union",
        "// +k8s:union(union: source)\ntype ExVirtualUnion struct {\n\t// +k8s:optional\n\t// +k8s:memberOf(group: source)\n\tImage *string `json:\"image,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:memberOf(group: source)\n\tGit *string `json:\"git,omitempty\"`\n}",
    ),
    (
        "k8s:unionDiscriminator",
        "type ExUnionDiscriminator struct {\n\t// +k8s:unionDiscriminator\n\t// +k8s:required\n\tType string `json:\"type\"`\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tGit *string `json:\"git,omitempty\"`\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tImage *string `json:\"image,omitempty\"`\n}",
    ),
    (
        "k8s:unionMember",
        "type ExUnionMember struct {\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tHost *string `json:\"host,omitempty\"`\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tIP *string `json:\"ip,omitempty\"`\n}",
    ),
    (
        "k8s:unique",
        "type ExUnique struct {\n\t// +k8s:optional\n\t// +k8s:listType=atomic\n\t// +k8s:unique=map\n\t// +k8s:listMapKey=name\n\tItems []Item `json:\"items,omitempty\"`\n}",
    ),
    (
        "k8s:update",
        "type ExUpdate struct {\n\t// +k8s:optional\n\t// +k8s:update=NoModify\n\tOwner *string `json:\"owner,omitempty\"`\n}",
    ),
    (
        "k8s:validateError",
        "type ExValidateError struct {\n\t// +k8s:optional\n\t// +k8s:validateError=\"always fails generation\"\n\tA string `json:\"a,omitempty\"`\n}",
    ),
    (
        "k8s:validateFalse",
        "type ExValidateFalse struct {\n\t// +k8s:optional\n\t// +k8s:validateFalse=\"always invalid\"\n\tA string `json:\"a,omitempty\"`\n}",
    ),
    (
        "k8s:validateTrue",
        "type ExValidateTrue struct {\n\t// +k8s:optional\n\t// +k8s:validateTrue=\"always valid\"\n\tA string `json:\"a,omitempty\"`\n}",
    ),
    (
        "k8s:validateTrueAlpha",
        "type ExValidateTrueAlpha struct {\n\t// +k8s:optional\n\t// +k8s:validateTrueAlpha=\"valid, alpha\"\n\tA string `json:\"a,omitempty\"`\n}",
    ),
    (
        "k8s:validateTrueBeta",
        "type ExValidateTrueBeta struct {\n\t// +k8s:optional\n\t// +k8s:validateTrueBeta=\"valid, beta\"\n\tA string `json:\"a,omitempty\"`\n}",
    ),
    (
        "k8s:zeroOrOneOf",
        "type ExZeroOrOneOf struct {\n\t// +k8s:optional\n\t// +k8s:zeroOrOneOf(union: proxy)\n\t// +k8s:memberOf(group: proxy)\n\tHTTP *string `json:\"http,omitempty\"`\n\t// +k8s:optional\n\t// +k8s:memberOf(group: proxy)\n\tSOCKS *string `json:\"socks,omitempty\"`\n}",
    ),
    (
        "k8s:zeroOrOneOfMember",
        "type ExZeroOrOneOfMember struct {\n\t// +k8s:zeroOrOneOfMember\n\t// +k8s:optional\n\tTag *string `json:\"tag,omitempty\"`\n\t// +k8s:zeroOrOneOfMember\n\t// +k8s:optional\n\tDigest *string `json:\"digest,omitempty\"`\n}",
    ),
];

/// The example of `tag`, if any.
#[must_use]
pub fn example(tag: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(t, _)| *t == tag).map(|(_, e)| *e)
}

/// A short example of what each diagnostic code reports (the fixtures under `tests/fixtures/` hold full ones).
pub const DIAGNOSTIC_EXAMPLES: &[(&str, &str)] = &[
    (
        "VGC0001",
        "type T struct { Name string `json:\"name\"`   // missing closing brace",
    ),
    (
        "VGC0002",
        "a package directory that cannot be read (permissions)",
    ),
    (
        "VGC0003",
        "import \"example.com/other/v1\" with no require in go.mod and nothing in the module cache",
    ),
    (
        "VGC0004",
        "Spec other.Missing `json:\"spec\"` where other has no type Missing",
    ),
    ("VGC0005", "// +k8s:validation-gen=TypesWithFields=TypeMeta"),
    ("VGC0006", "type Loop Loop   (invalid recursive type)"),
    ("VGC0101", "// +k8s:maxItems=(3"),
    (
        "VGC0102",
        "// +k8s:maxItem=3   (did you mean k8s:maxItems?)",
    ),
    ("VGC0103", "// +k8s:listMapKey=name   on a type declaration"),
    (
        "VGC0104",
        "// +k8s:ifEnabled=+k8s:required   (missing option name)",
    ),
    ("VGC0105", "// +k8s:alpha(version: \"1.37\")=+k8s:optional"),
    ("VGC0106", "// +k8s:alpha(since: 137)=+k8s:optional"),
    ("VGC0107", "// +k8s:maxItems"),
    ("VGC0108", "// +k8s:maxItems=\"three\""),
    ("VGC0109", "// +k8s:format=k8s-no-such-format"),
    ("VGC0110", "// +k8s:maxLength=3   on an int32 field"),
    ("VGC0111", "// +k8s:listType=map   without +k8s:listMapKey"),
    (
        "VGC0112",
        "Ptrs map[string]*Item `json:\"ptrs\"`   (maps of pointers)",
    ),
    (
        "VGC0113",
        "URL *string `json:\"url\"`; Url *string `json:\"url2\"`   (both become the Rust field `url`)",
    ),
    (
        "VGC0114",
        "type Widget struct { metav1.TypeMeta `json:\",inline\"` }   in both apis/v1 and internal/v1 with +groupName=example.com",
    ),
    (
        "VGC0115",
        "// +default=\"abc\"   on   Replicas int32 `json:\"replicas,omitempty\"`",
    ),
    (
        "VGC0116",
        "// +k8s:minimum(constraint: minValue)   without `[extensions] enabled = true` in vgc.toml",
    ),
    (
        "VGC0117",
        "// +k8s:maximum(constraint: limits.maxValeu)   (did you mean \"maxValue\"?)",
    ),
    (
        "VGC0118",
        "// +k8s:maximum(constraint: items.max)   where items is a list",
    ),
    (
        "VGC0119",
        "// +k8s:maximum(constraint: name)   where name is a string",
    ),
    (
        "VGC0120",
        "// +k8s:eachVal=+k8s:maximum(constraint: max)   (only directly on a struct field)",
    ),
    (
        "VGC0121",
        "// +k8s:required   on   Bogus string `json:\"bogus\"`   of core/v1 ServiceSpec, with --target k8s-openapi (k8s-openapi's ServiceSpec has no `bogus`)",
    ),
    (
        "VGC0122",
        "type PriorityClass struct { metav1.TypeMeta `json:\",inline\"` }   in scheduling/v1beta1, with --target k8s-openapi --k8s-openapi-version 1.37 (k8s-openapi has scheduling/v1 only)",
    ),
    (
        "VGC0123",
        "// +k8s:exclusiveMinimum(constraint: high)   on Low, and   // +k8s:minimum(constraint: low)   on High",
    ),
    (
        "VGC0321",
        "// +k8s:minimum=10   and   // +k8s:maximum=5   on one field (no value is both)",
    ),
    (
        "VGC0320",
        "// +k8s:ifSubresource(\"/Status\")=+k8s:immutable   (the root serves /status: the rule never runs)",
    ),
    (
        "VGC0124",
        "// +k8s:ifSubresource(\"/status\")=+k8s:optional   (requiredness is not conditional on the subresource)",
    ),
    (
        "VGC0125",
        "// +k8s:memberOf(group: mode)   where the root type declares only   // +k8s:zeroOrOneOf(union: modes)",
    ),
    (
        "VGC0126",
        "// +k8s:memberOf(group: g)   on a field of a list's item type (one field per item, not one field of the object)",
    ),
    (
        "VGC0127",
        "// +k8s:memberOf(group: pair)   on the fields of a struct that two kinds reach, only one of which declares `pair`",
    ),
    (
        "VGC0128",
        "// +k8s:validation:Required   (a kubebuilder-style marker; did you mean +k8s:required?)",
    ),
    (
        "VGC0129",
        "// +k8s:minimum(constraint: minValue)   (a vgc extension) in a package built with --target go",
    ),
    (
        "VGC0130",
        "// +k8s:format=k8s-label-key   on Toleration.Key, in a CRD whose pod spec's `tolerations` has no maxItems",
    ),
    (
        "VGC0201",
        "a tag a future upstream adds before vgc lowers it",
    ),
    (
        "VGC0301",
        "// +k8s:eachVal=+k8s:alpha(since: \"1.37\")=+k8s:maxLength=3",
    ),
    (
        "VGC0302",
        "// +k8s:forbidden   in package v1 (forbidden is Beta)",
    ),
    (
        "VGC0303",
        "// +k8s:maxLength=3   on Short *string without optional/required/forbidden",
    ),
    (
        "VGC0304",
        "// +k8s:required   on Spec Spec (by value) whose members are all optional (1.38)",
    ),
    (
        "VGC0305",
        "// +enum   on type Phase string without +k8s:enum (1.38)",
    ),
    (
        "VGC0310",
        "// +k8s:maxLength=3   followed by a blank line, then the field's own comment",
    ),
    ("VGC0311", "// +listType=map   without // +k8s:listType=map"),
    (
        "VGC0312",
        "// +featureGate=FooGate   with   // +k8s:ifEnabled(BarGate)=+k8s:optional",
    ),
    (
        "VGC0313",
        "type Alias Name   where   // +k8s:maxLength=6   is on type Name",
    ),
    (
        "VGC0314",
        "// +k8s:optional   and   // +k8s:required   on one field",
    ),
    (
        "VGC0315",
        "// +k8s:maxLength=3   and   // +k8s:maxLength=4   on one field",
    ),
    ("VGC0316", "// +k8s:alpha(since: \"v1.37\")=+k8s:optional"),
    (
        "VGC0317",
        "// +k8s:alpha(since:\"1.37\")=+k8s:optional   → since: \"1.37\"",
    ),
    ("VGC0318", "// vgc:ignore VGC0303   (no reason)"),
    (
        "VGC0319",
        "// +k8s:minimum(constraint: minValue)   with [extensions] enabled = true",
    ),
    (
        "VGC0401",
        "Widget.replicas: v1beta1: maximum=10; v1: maximum=5",
    ),
    (
        "VGC0402",
        "an exceptions-file line whose path no longer drifts",
    ),
    (
        "VGC0403",
        "// +k8s:listType=atomic   on DeviceAttribute.ints in v1 and v1beta2, absent in v1beta1",
    ),
];

/// The example of diagnostic `code` (`VGC0102`), if any.
#[must_use]
pub fn diagnostic_example(code: &str) -> Option<&'static str> {
    DIAGNOSTIC_EXAMPLES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, e)| *e)
}
