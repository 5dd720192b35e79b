package formats

// Formats has one field per format.
type Formats struct {
	// +k8s:optional
	// +k8s:format=k8s-short-name
	ShortName string `json:"shortName,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-long-name
	LongName string `json:"longName,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-long-name-caseless
	LongNameCaseless string `json:"longNameCaseless,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-label-key
	LabelKey string `json:"labelKey,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-label-value
	LabelValue string `json:"labelValue,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-prefixed-label-key
	PrefixedLabelKey string `json:"prefixedLabelKey,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-uuid
	UUID string `json:"uuid,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-path-segment-name
	PathSegment string `json:"pathSegment,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-resource-pool-name
	ResourcePool string `json:"resourcePool,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-extended-resource-name
	ExtendedResource string `json:"extendedResource,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-resource-fully-qualified-name
	FullyQualified string `json:"fullyQualified,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-short-name
	Ptr *string `json:"ptr,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:format=k8s-long-name
	Hosts []string `json:"hosts,omitempty"`
	// +k8s:optional
	Label LabelKey `json:"label,omitempty"`
}

// LabelKey is a string typedef with a type-level format.
// +k8s:format=k8s-label-key
type LabelKey string
