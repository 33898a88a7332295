package export

import (
	"fmt"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// delegation is one run of consecutive GT-chain worker steps owned by one
// specialist (spec section 3's role table).
type delegation struct {
	role  workers.Role
	first int // index of the first step in the chain
	steps []workers.Step
}

// plan splits a GT chain into the multi-agent form's delegations. The
// chain must be worker calls followed by one TaskComplete, which closes
// the last delegation (every delegation ends with its specialist's
// TaskComplete; the orchestrator terminates).
func plan(rec workers.Record) ([]delegation, error) {
	chain := rec.GTChain
	n := len(chain)
	if n < 2 || chain[n-1].Tool != runtime.ToolTaskComplete {
		return nil, fmt.Errorf("record %s: the GT chain must end with %s (it has %d steps)", rec.ID, runtime.ToolTaskComplete, n)
	}
	var out []delegation
	for i, st := range chain[:n-1] {
		info, ok := workers.LookupTool(st.Tool)
		if !ok {
			return nil, fmt.Errorf("record %s: gt_chain[%d] %s is not a worker (a chain is workers, then %s)", rec.ID, i, st.Tool, runtime.ToolTaskComplete)
		}
		if len(out) == 0 || out[len(out)-1].role != info.Role {
			out = append(out, delegation{role: info.Role, first: i})
		}
		d := &out[len(out)-1]
		d.steps = append(d.steps, st)
	}
	return out, nil
}

// TurnCounts is how many SFT rows a record projects to per agent.
type TurnCounts struct {
	ORC, GA, PA, VRA, Single int
}

// CountTurns derives a record's SFT row counts from its GT chain alone:
// the single agent acts once per chain step (the workers and TaskComplete)
// and once more for FinalAnswer; the orchestrator plans, delegates each
// run of consecutive same-owner steps and terminates; a specialist acts
// once per delegated step and once for the TaskComplete that ends each of
// its delegations.
func CountTurns(rec workers.Record) (TurnCounts, error) {
	ds, err := plan(rec)
	if err != nil {
		return TurnCounts{}, err
	}
	c := TurnCounts{ORC: len(ds) + 2, Single: len(rec.GTChain) + 1}
	for _, d := range ds {
		k := len(d.steps) + 1
		switch d.role {
		case workers.RoleGA:
			c.GA += k
		case workers.RolePA:
			c.PA += k
		case workers.RoleVRA:
			c.VRA += k
		}
	}
	return c, nil
}
