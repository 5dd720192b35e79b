package virtual

// Job is the kind. Its groups: `source` across JobSpec and a struct below it, `schedule` over a field and a
// list-map item, `terminalStatus` (the KEP's example) over two list-map items, and `owner` across spec and status,
// which the root itself checks.
// +k8s:zeroOrOneOf(union: owner)
type Job struct {
	Spec   JobSpec   `json:"spec"`
	Status JobStatus `json:"status"`
}

// JobSpec declares `source` on the type: exactly one of image, build.dockerfile and build.git.
// +k8s:union(union: source)
type JobSpec struct {
	// +k8s:optional
	// +k8s:memberOf(group: source)
	Image *string `json:"image,omitempty"`

	// +k8s:optional
	Build *BuildSpec `json:"build,omitempty"`

	// At most one of cron and the trigger named "at"; declared on a field.
	// +k8s:optional
	// +k8s:zeroOrOneOf(union: schedule)
	// +k8s:memberOf(group: schedule)
	Cron *string `json:"cron,omitempty"`

	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:listMapItem(name: "at")=+k8s:memberOf(group: schedule)
	Triggers []*Trigger `json:"triggers,omitempty"`

	// +k8s:optional
	// +k8s:memberOf(group: owner)
	Owner *string `json:"owner,omitempty"`
}

// BuildSpec holds two members of `source`, one level below JobSpec.
type BuildSpec struct {
	// A string by value: set when not empty.
	// +k8s:optional
	// +k8s:memberOf(group: source)
	Dockerfile string `json:"dockerfile,omitempty"`

	// +k8s:optional
	// +k8s:memberOf(group: source)
	Git *GitSource `json:"git,omitempty"`
}

// GitSource is a struct member of `source` (set when the pointer is not nil).
type GitSource struct {
	// +k8s:optional
	URL string `json:"url,omitempty"`
}

// Trigger is an item of a list-map keyed by name.
type Trigger struct {
	// +k8s:required
	Name string `json:"name"`
	// +k8s:optional
	Value *string `json:"value,omitempty"`
}

// JobStatus carries the KEP's example: exactly one terminal condition.
type JobStatus struct {
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:union(union: terminalStatus)
	// +k8s:listMapItem(type: "Succeeded")=+k8s:memberOf(group: terminalStatus)
	// +k8s:listMapItem(type: "Failed")=+k8s:memberOf(group: terminalStatus)
	Conditions []Condition `json:"conditions,omitempty"`

	// +k8s:optional
	// +k8s:memberOf(group: owner)
	AssignedOwner *string `json:"assignedOwner,omitempty"`
}

// Condition is an item of a list-map keyed by type.
type Condition struct {
	// +k8s:required
	Type string `json:"type"`
	// +k8s:optional
	Status string `json:"status,omitempty"`
}
