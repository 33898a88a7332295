package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

// EpisodeLine returns the episode row of an answered session, in the
// dataset's format (runtime/episode), validated against its schema: a
// single-agent episode for a single agent, a multi-agent episode for an
// orchestrator and its specialists.
//
// The conversation holds what the agent saw. Its user message is the
// question view, which is what GetQuestion returns: GetQuestion calls are
// how a client reads it and are not actions. Every other tools/call is an
// action followed by the text the client received (is_error for a tool
// or protocol error), up to the terminal action that resolved the answer,
// which is the last message. Of a multi-agent session the server sees the
// specialists' calls and the orchestrator's own, not the orchestrator's
// messages to its specialists: each maximal run of consecutive calls by
// one specialist is recorded as a delegation (the orchestrator's Delegate
// action with the steps' workers and the handles they consumed from
// before the run, answered by the specialist's observations), announced
// by one Plan action, as the dataset's multi-agent episodes write them.
//
// The trajectory content group is the record's when it declares one,
// else the fingerprint of this episode (scoring.TrajectoryFingerprint).
func EpisodeLine(val *episode.Validator, l *SessionLog) (episode.Line, error) {
	var exs []Exchange
	for _, ex := range l.Exchanges {
		if ex.Tool != ToolGetQuestion {
			exs = append(exs, ex)
		}
	}
	term := -1
	for i, ex := range exs {
		if !ex.IsError && (ex.Tool == runtime.ToolFinalAnswer || ex.Tool == runtime.ToolTerminate) {
			term = i
			break
		}
	}
	if term < 0 {
		return episode.Line{}, errors.New("the session has no successful terminal action")
	}
	exs = exs[:term+1]
	id := episode.IdentityOf(l.Record, "")
	var t episode.RowType
	var row any
	switch l.Agent {
	case AgentSingle:
		ep, err := singleEpisode(l.Record, id, exs)
		if err != nil {
			return episode.Line{}, err
		}
		t, row = episode.SingleAgentEpisodeRow, ep
	case AgentOrchestrator:
		ep, err := multiEpisode(l.Record, id, exs, l.Audit.Calls)
		if err != nil {
			return episode.Line{}, err
		}
		t, row = episode.MultiAgentEpisodeRow, ep
	default:
		return episode.Line{}, fmt.Errorf("unknown agent form %q", l.Agent)
	}
	if id.TrajectoryContentGroupID == "" {
		g, err := groupOf(row)
		if err != nil {
			return episode.Line{}, err
		}
		switch ep := row.(type) {
		case *episode.SingleAgentEpisode:
			ep.TrajectoryContentGroupID = g
		case *episode.MultiAgentEpisode:
			ep.TrajectoryContentGroupID = g
		}
	}
	return val.Encode(t, row)
}

// groupOf is the trajectory content group of an episode row.
func groupOf(row any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(row); err != nil {
		return "", err
	}
	fp, err := scoring.TrajectoryFingerprint(buf.Bytes())
	if err != nil {
		return "", err
	}
	return scoring.TrajectoryGroupID(fp), nil
}

// actionArgs decodes an exchange's arguments (an empty object when they
// were not one: the call was refused for it, as its observation says).
func actionArgs(ex Exchange) map[string]any {
	args, err := decodeArgs(ex.Args)
	if err != nil {
		return map[string]any{}
	}
	return args
}

// singleEpisode records a single agent's exchanges.
func singleEpisode(rec workers.Record, id episode.Identity, exs []Exchange) (*episode.SingleAgentEpisode, error) {
	conv, err := episode.Start(episode.Single, rec)
	if err != nil {
		return nil, err
	}
	for i, ex := range exs {
		conv.Act(ex.Tool, actionArgs(ex))
		if i < len(exs)-1 {
			conv.Observe(ex.Tool, ex.Result, ex.IsError)
		}
	}
	return episode.NewSingleAgentEpisode(id, conv)
}

// delegationArgs are a Delegate's arguments and the specialist's
// delegation message.
type delegationArgs struct {
	Role   string   `json:"role"`
	Steps  []string `json:"steps"`
	Inputs []string `json:"inputs"`
}

func (d delegationArgs) args() map[string]any {
	return map[string]any{"role": d.Role, "steps": anyStrings(d.Steps), "inputs": anyStrings(d.Inputs)}
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// delegationResult is the orchestrator's tool message after a Delegate:
// the specialist's observations in order.
type delegationResult struct {
	Role         string            `json:"role"`
	Observations []json.RawMessage `json:"observations"`
}

// run is one maximal run of consecutive exchanges by one actor.
type run struct {
	actor string
	exs   []Exchange
}

// multiEpisode records an orchestrator's session: its own exchanges in
// its conversation, each run of a specialist's as a delegation.
func multiEpisode(rec workers.Record, id episode.Identity, exs []Exchange, calls []runtime.CallTrace) (*episode.MultiAgentEpisode, error) {
	var runs []run
	for _, ex := range exs {
		if len(runs) == 0 || runs[len(runs)-1].actor != ex.Actor || ex.Actor == episode.AgentORC {
			runs = append(runs, run{actor: ex.Actor})
		}
		r := &runs[len(runs)-1]
		r.exs = append(r.exs, ex)
	}
	orc, err := episode.Start(episode.Orchestrator, rec)
	if err != nil {
		return nil, err
	}
	ep := &episode.MultiAgentEpisode{Identity: id, Format: episode.FormatMultiAgentEpisode, AnswerRef: runtime.AnswerRef}
	var planned []any
	args := make([]delegationArgs, len(runs))
	for j, r := range runs {
		if r.actor == episode.AgentORC {
			continue
		}
		args[j] = delegationArgs{Role: r.actor, Steps: runSteps(r), Inputs: runInputs(r, calls)}
		planned = append(planned, map[string]any{"role": args[j].Role, "steps": anyStrings(args[j].Steps)})
	}
	orc.Act(episode.ToolPlan, map[string]any{"delegations": planned})
	for j, r := range runs {
		if r.actor == episode.AgentORC {
			ex := r.exs[0]
			orc.Act(ex.Tool, actionArgs(ex))
			if j < len(runs)-1 {
				orc.Observe(ex.Tool, ex.Result, ex.IsError)
			}
			ep.ToolSequence = append(ep.ToolSequence, episode.AgentAction{Agent: episode.AgentORC, Action: episode.Action{Tool: ex.Tool, Args: actionArgs(ex)}})
			continue
		}
		role := workers.Role(r.actor)
		switch role {
		case workers.RoleGA, workers.RolePA, workers.RoleVRA:
		default:
			return nil, fmt.Errorf("a call by %q in an orchestrator's session", r.actor)
		}
		orc.Act(episode.ToolDelegate, args[j].args())
		sp, err := episode.Start(episode.Specialist(role), rec)
		if err != nil {
			return nil, err
		}
		msg, err := json.Marshal(args[j])
		if err != nil {
			return nil, err
		}
		sp.Say(string(msg))
		result := delegationResult{Role: r.actor}
		for _, ex := range r.exs {
			sp.Act(ex.Tool, actionArgs(ex))
			sp.Observe(ex.Tool, ex.Result, ex.IsError)
			obs, err := observationJSON(ex)
			if err != nil {
				return nil, err
			}
			result.Observations = append(result.Observations, obs)
			ep.ToolSequence = append(ep.ToolSequence, episode.AgentAction{Agent: r.actor, Action: episode.Action{Tool: ex.Tool, Args: actionArgs(ex)}})
		}
		text, err := json.Marshal(result)
		if err != nil {
			return nil, err
		}
		orc.Observe(episode.ToolDelegate, string(text), false)
		ep.Delegations = append(ep.Delegations, episode.Delegation{Role: r.actor, Steps: args[j].Steps, Inputs: args[j].Inputs, Messages: sp.Messages})
	}
	ep.Messages = orc.Messages
	return ep, nil
}

// runSteps are the workers a run called, in order (all its tools when it
// called no worker).
func runSteps(r run) []string {
	var out, all []string
	for _, ex := range r.exs {
		all = append(all, ex.Tool)
		if _, ok := workers.LookupTool(ex.Tool); ok {
			out = append(out, ex.Tool)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// runInputs are the handles a run's calls consumed that existed before
// it, sorted.
func runInputs(r run, calls []runtime.CallTrace) []string {
	made := map[string]bool{}
	seen := map[string]bool{}
	out := []string{}
	for _, ex := range r.exs {
		if ex.Call < 1 || ex.Call > len(calls) {
			continue
		}
		c := calls[ex.Call-1]
		for _, h := range c.Inputs {
			if !made[h] && !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
		if c.Output != "" {
			made[c.Output] = true
		}
	}
	sort.Strings(out)
	return out
}

// observationJSON is an exchange's observation as a JSON value: the
// result of a success, the tool error's structured content
// {"tool","error","category"} otherwise.
func observationJSON(ex Exchange) (json.RawMessage, error) {
	if !ex.IsError && json.Valid([]byte(ex.Result)) {
		return json.RawMessage(ex.Result), nil
	}
	b, err := json.Marshal(map[string]any{"tool": ex.Tool, "error": ex.Result, "category": ex.Category})
	return b, err
}
