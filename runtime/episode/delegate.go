package episode

import (
	"encoding/json"

	"github.com/geodisaster/engine/workers"
)

// DelegateArgs are the orchestrator's Delegate arguments; their JSON is
// also the specialist's delegation message (docs/episodes.md).
type DelegateArgs struct {
	Role   string   `json:"role"`
	Steps  []string `json:"steps"`
	Inputs []string `json:"inputs"`
}

// Args returns the Delegate action's arguments.
func (d DelegateArgs) Args() map[string]any {
	return map[string]any{"role": d.Role, "steps": stringValues(d.Steps), "inputs": stringValues(d.Inputs)}
}

// StartSpecialist starts the conversation of the specialist that carries
// out the delegation: its system prompt, question view and the delegation
// message.
func (d DelegateArgs) StartSpecialist(rec workers.Record) (*Conversation, error) {
	sp, err := Start(Specialist(workers.Role(d.Role)), rec)
	if err != nil {
		return nil, err
	}
	msg, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	sp.Say(string(msg))
	return sp, nil
}

// Planned returns the delegation's entry in the orchestrator's Plan.
func (d DelegateArgs) Planned() map[string]any {
	return map[string]any{"role": d.Role, "steps": stringValues(d.Steps)}
}

// DelegateResult is the tool message the orchestrator receives after a
// Delegate: the specialist's observations, in order.
type DelegateResult struct {
	Role         string            `json:"role"`
	Observations []json.RawMessage `json:"observations"`
}

// stringValues is s as JSON array values (empty, not null, for no
// strings).
func stringValues(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
