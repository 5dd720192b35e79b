package enums

// Phase is an enum.
// +k8s:enum
type Phase string

const (
	PhasePending Phase = "Pending"
	PhaseRunning Phase = "Running"
	// A duplicate value of another constant counts once.
	PhaseStarted Phase = "Running"
	// Converted constants count too.
	PhaseDone = Phase("Done")
)

// Tier is an enum whose members depend on options.
// +k8s:enum
type Tier string

const (
	TierFree Tier = "Free"
	// +k8s:ifDisabled(Premium)=+k8s:enumExclude
	TierPremium Tier = "Premium"
	// +k8s:ifEnabled(LegacyOff)=+k8s:enumExclude
	TierLegacy Tier = "Legacy"
	// +k8s:enumExclude
	TierInternal Tier = "Internal"
)

// Enums uses them on values, pointers and list elements.
type Enums struct {
	// +k8s:required
	Phase Phase `json:"phase"`
	// +k8s:optional
	PhasePtr *Phase `json:"phasePtr,omitempty"`
	// +k8s:optional
	Phases []Phase `json:"phases,omitempty"`
	// +k8s:optional
	Tier Tier `json:"tier,omitempty"`
}
