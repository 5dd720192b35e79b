package other

// Thing is validated where it is declared; structure calls into it.
type Thing struct {
	// +k8s:required
	// +k8s:format=k8s-long-name
	Host string `json:"host"`

	// +k8s:optional
	Level Level `json:"level,omitempty"`
}

// Level is an enum whose constants live here.
// +k8s:enum
type Level string

const (
	LevelLow  Level = "Low"
	LevelHigh Level = "High"
)
