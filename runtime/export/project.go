package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/workers"
)

// Projection names, as in the export summary.
const (
	MultiAgentEpisodes  = "multi_agent_episodes"
	SingleAgentEpisodes = "single_agent_episodes"
	ORCSFT              = "orc_sft"
	GASFT               = "ga_sft"
	PASFT               = "pa_sft"
	VRASFT              = "vra_sft"
	SingleAgentSFT      = "single_agent_sft"
)

// Projections lists the projection names in summary order.
func Projections() []string {
	return []string{MultiAgentEpisodes, SingleAgentEpisodes, ORCSFT, GASFT, PASFT, VRASFT, SingleAgentSFT}
}

// rowType is the row type of a projection's files.
func rowType(name string) episode.RowType {
	switch name {
	case MultiAgentEpisodes:
		return episode.MultiAgentEpisodeRow
	case SingleAgentEpisodes:
		return episode.SingleAgentEpisodeRow
	}
	return episode.TurnRow
}

// RecordProjection is everything one record projects to, every row encoded
// and validated against its schema.
type RecordProjection struct {
	ID    string
	Split string
	// Lines holds each projection's rows, in row order.
	Lines map[string][]episode.Line
	// Single and Multi are the record's two episodes.
	Single *episode.SingleAgentEpisode
	Multi  *episode.MultiAgentEpisode
}

// Projector projects records from replays. It is safe for concurrent use.
type Projector struct {
	eng *runtime.Engine
	val *episode.Validator
	// hostPaths are JSON string openings no row may contain: a string
	// (also inside an observation's text) that starts with a host
	// directory (dataset root, artifact directory). Artifacts are
	// generated-artifact:// locators.
	hostPaths [][]byte
}

// NewProjector returns a projector replaying on eng; hostDirs are the
// absolute host directories no row may name.
func NewProjector(eng *runtime.Engine, val *episode.Validator, hostDirs ...string) *Projector {
	p := &Projector{eng: eng, val: val}
	for _, h := range hostDirs {
		if h == "" {
			continue
		}
		h = strings.TrimSuffix(h, "/") + "/"
		p.hostPaths = append(p.hostPaths, []byte(`"`+h), []byte(`\"`+h))
	}
	return p
}

// capture collects what the runtime returned at each step of a replay,
// for both agent forms.
type capture struct {
	ctx context.Context
	ds  []delegation
	// owner[i] is the delegation of chain step i (workers only) and
	// last[j] the chain index of delegation j's last step.
	owner, last []int
	single      []string          // the single agent's observation of each chain step
	multi       []string          // the specialists' observation of each worker step
	closing     []string          // the TaskComplete observation ending each delegation
	inputs      [][]string        // handles each step opened
	outputs     []string          // the handle each step made
	answers     []json.RawMessage // FinalAnswer's and Terminate's resolved answers
}

func newCapture(ctx context.Context, rec workers.Record, ds []delegation) *capture {
	n := len(rec.GTChain)
	c := &capture{ctx: ctx, ds: ds, owner: make([]int, n-1), last: make([]int, len(ds)),
		single: make([]string, n), multi: make([]string, n-1), closing: make([]string, len(ds)), inputs: make([][]string, n), outputs: make([]string, n)}
	for j, d := range ds {
		for k := range d.steps {
			c.owner[d.first+k] = j
		}
		c.last[j] = d.first + len(d.steps) - 1
	}
	return c
}

var taskCompleteArgs = map[string]any{"status": "TASK_COMPLETE"}

// step records chain step i. The single agent's session is the replay
// itself. The multi-agent session differs only by the TaskComplete that
// ends each delegation before the last, which changes no handle or
// evidence (workers never see it) but can change what the runtime
// publishes after later calls: a fork of the replay given TaskComplete
// right after a call shows what the multi-agent session publishes there.
func (c *capture) step(i int, s *runtime.Session, res *runtime.CallResult) error {
	tr := s.Trace()
	call := tr[len(tr)-1]
	c.inputs[i], c.outputs[i] = call.Inputs, call.Output
	var err error
	if c.single[i], err = episode.NewObservation(episode.Single, call.Tool, res, call.Artifacts).Text(); err != nil {
		return err
	}
	if i == len(c.single)-1 { // the chain's TaskComplete, ending the last delegation
		j := len(c.ds) - 1
		if c.closing[j], err = episode.NewObservation(episode.Specialist(c.ds[j].role), call.Tool, res, call.Artifacts).Text(); err != nil {
			return err
		}
		for _, t := range []string{runtime.ToolFinalAnswer, runtime.ToolTerminate} {
			f := s.Fork()
			out, err := f.Call(c.ctx, t, map[string]any{"answer_ref": runtime.AnswerRef})
			f.Close()
			if err != nil {
				return fmt.Errorf("the terminal action: %w", err)
			}
			c.answers = append(c.answers, out.Answer)
		}
		return nil
	}
	j := c.owner[i]
	form := episode.Specialist(c.ds[j].role)
	ends := i == c.last[j] && j < len(c.ds)-1
	multi := *res
	if j > 0 || ends {
		f := s.Fork()
		tc, err := f.Call(c.ctx, runtime.ToolTaskComplete, taskCompleteArgs)
		f.Close()
		if err != nil {
			return fmt.Errorf("TaskComplete ending the %s delegation: %w", c.ds[j].role, err)
		}
		if j > 0 {
			// An earlier delegation's TaskComplete is already in the
			// multi-agent session.
			multi.Published = tc.Published
		}
		if ends {
			if c.closing[j], err = episode.NewObservation(form, runtime.ToolTaskComplete, tc, nil).Text(); err != nil {
				return err
			}
		}
	}
	c.multi[i], err = episode.NewObservation(form, call.Tool, &multi, call.Artifacts).Text()
	return err
}

// Project replays rec (a record with gold) once and returns its episodes
// and SFT rows. A record whose replay fails, or whose resolved answer is
// not scored correct, is an error: a projection never carries a failed
// trajectory.
func (p *Projector) Project(ctx context.Context, rec workers.Record) (*RecordProjection, error) {
	if rec.Split != "train" && rec.Split != "test" {
		return nil, fmt.Errorf("record %s: split %q: a projection needs train or test", rec.ID, rec.Split)
	}
	if rec.TrainingWeight <= 0 {
		return nil, fmt.Errorf("record %s: training_weight %v: a projection needs a positive weight", rec.ID, rec.TrainingWeight)
	}
	ds, err := plan(rec)
	if err != nil {
		return nil, err
	}
	c := newCapture(ctx, rec, ds)
	res := p.eng.ReplayRecord(runtime.WithReplayTrace(ctx, &runtime.ReplayTrace{StepDone: c.step}), rec)
	if res.Status != "ok" {
		return nil, fmt.Errorf("record %s: replay failed: %s", rec.ID, *res.Error)
	}
	if !res.Correct {
		return nil, fmt.Errorf("record %s: the replayed answer is not correct (%s)", rec.ID, res.Reason)
	}
	for _, a := range c.answers {
		if !bytes.Equal(a, res.Answer) {
			return nil, fmt.Errorf("record %s: the terminal action resolved %s, the replay %s", rec.ID, a, res.Answer)
		}
	}
	single, err := p.single(rec, c)
	if err != nil {
		return nil, err
	}
	if single.TrajectoryContentGroupID == "" {
		if single.TrajectoryContentGroupID, err = single.GroupID(); err != nil {
			return nil, err
		}
	}
	multi, err := p.multi(rec, single.Identity, c)
	if err != nil {
		return nil, err
	}
	out := &RecordProjection{ID: rec.ID, Split: rec.Split, Lines: map[string][]episode.Line{}, Single: single, Multi: multi}
	enc := p.val.NewEncoder() // the episodes and their turn rows share messages
	add := func(name string, rows ...any) error {
		for _, r := range rows {
			l, err := enc.Encode(rowType(name), r)
			if err != nil {
				return fmt.Errorf("record %s: %s: %w", rec.ID, name, err)
			}
			for _, h := range p.hostPaths {
				if bytes.Contains(l.Bytes(), h) {
					return fmt.Errorf("record %s: %s row names a host path under %s", rec.ID, name, strings.TrimLeft(string(h), `\"`))
				}
			}
			out.Lines[name] = append(out.Lines[name], l)
		}
		return nil
	}
	turns := func(ts []episode.Turn) []any {
		out := make([]any, len(ts))
		for i := range ts {
			out[i] = &ts[i]
		}
		return out
	}
	for _, e := range []error{
		add(SingleAgentEpisodes, single),
		add(MultiAgentEpisodes, multi),
		add(SingleAgentSFT, turns(single.Turns())...),
		add(ORCSFT, turns(multi.OrchestratorTurns())...),
		add(GASFT, turns(multi.SpecialistTurns(episode.AgentGA))...),
		add(PASFT, turns(multi.SpecialistTurns(episode.AgentPA))...),
		add(VRASFT, turns(multi.SpecialistTurns(episode.AgentVRA))...),
	} {
		if e != nil {
			return nil, e
		}
	}
	return out, nil
}

// single builds the single agent's episode: the GT chain's calls and their
// observations, then FinalAnswer.
func (p *Projector) single(rec workers.Record, c *capture) (*episode.SingleAgentEpisode, error) {
	conv, err := episode.Start(episode.Single, rec)
	if err != nil {
		return nil, err
	}
	for i, st := range rec.GTChain {
		conv.Act(st.Tool, st.Args)
		conv.Observe(st.Tool, c.single[i], false)
	}
	conv.Act(runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
	return episode.NewSingleAgentEpisode(episode.IdentityOf(rec, ""), conv)
}

// delegationArgs are the orchestrator's Delegate arguments (also the
// specialist's delegation message).
type delegationArgs struct {
	Role   string   `json:"role"`
	Steps  []string `json:"steps"`
	Inputs []string `json:"inputs"`
}

func (d delegationArgs) args() map[string]any {
	return map[string]any{"role": d.Role, "steps": anySlice(d.Steps), "inputs": anySlice(d.Inputs)}
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// delegationResult is the tool message the orchestrator receives after a
// Delegate: the specialist's observations, in order.
type delegationResult struct {
	Role         string            `json:"role"`
	Observations []json.RawMessage `json:"observations"`
}

// multi builds the multi-agent episode: ORC's Plan, one Delegate per run
// of same-owner steps (each carried out in the specialist's own
// conversation, ending with its TaskComplete), and ORC's Terminate.
func (p *Projector) multi(rec workers.Record, id episode.Identity, c *capture) (*episode.MultiAgentEpisode, error) {
	orc, err := episode.Start(episode.Orchestrator, rec)
	if err != nil {
		return nil, err
	}
	ep := &episode.MultiAgentEpisode{Identity: id, Format: episode.FormatMultiAgentEpisode, AnswerRef: runtime.AnswerRef}
	var planned []any
	args := make([]delegationArgs, len(c.ds))
	for j, d := range c.ds {
		args[j] = delegationArgs{Role: string(d.role), Steps: stepTools(d.steps), Inputs: c.delegationInputs(d)}
		planned = append(planned, map[string]any{"role": args[j].Role, "steps": anySlice(args[j].Steps)})
	}
	orc.Act(episode.ToolPlan, map[string]any{"delegations": planned})
	last := len(rec.GTChain) - 1
	for j, d := range c.ds {
		orc.Act(episode.ToolDelegate, args[j].args())
		sp, err := episode.Start(episode.Specialist(d.role), rec)
		if err != nil {
			return nil, err
		}
		msg, err := json.Marshal(args[j])
		if err != nil {
			return nil, err
		}
		sp.Say(string(msg))
		result := delegationResult{Role: string(d.role)}
		for k, st := range d.steps {
			sp.Act(st.Tool, st.Args)
			sp.Observe(st.Tool, c.multi[d.first+k], false)
			result.Observations = append(result.Observations, json.RawMessage(c.multi[d.first+k]))
			ep.ToolSequence = append(ep.ToolSequence, episode.AgentAction{Agent: string(d.role), Action: episode.Action{Tool: st.Tool, Args: st.Args}})
		}
		tcArgs := taskCompleteArgs
		if j == len(c.ds)-1 {
			tcArgs = rec.GTChain[last].Args
		}
		sp.Act(runtime.ToolTaskComplete, tcArgs)
		sp.Observe(runtime.ToolTaskComplete, c.closing[j], false)
		result.Observations = append(result.Observations, json.RawMessage(c.closing[j]))
		ep.ToolSequence = append(ep.ToolSequence, episode.AgentAction{Agent: string(d.role), Action: episode.Action{Tool: runtime.ToolTaskComplete, Args: tcArgs}})
		text, err := json.Marshal(result)
		if err != nil {
			return nil, fmt.Errorf("record %s: delegation %d result: %w", rec.ID, j, err)
		}
		orc.Observe(episode.ToolDelegate, string(text), false)
		ep.Delegations = append(ep.Delegations, episode.Delegation{Role: args[j].Role, Steps: args[j].Steps, Inputs: args[j].Inputs, Messages: sp.Messages})
	}
	terminate := map[string]any{"answer_ref": runtime.AnswerRef}
	orc.Act(runtime.ToolTerminate, terminate)
	ep.ToolSequence = append(ep.ToolSequence, episode.AgentAction{Agent: episode.AgentORC, Action: episode.Action{Tool: runtime.ToolTerminate, Args: terminate}})
	ep.Messages = orc.Messages
	return ep, nil
}

func stepTools(steps []workers.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Tool
	}
	return out
}

// delegationInputs are the handles a delegation's steps opened that
// existed before it, sorted.
func (c *capture) delegationInputs(d delegation) []string {
	made := map[string]bool{}
	for k := range d.steps {
		made[c.outputs[d.first+k]] = true
	}
	seen := map[string]bool{}
	out := []string{}
	for k := range d.steps {
		for _, h := range c.inputs[d.first+k] {
			if !made[h] && !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	sort.Strings(out)
	return out
}
