package episode

import (
	"encoding/json"
	"fmt"
)

// The schema check of a row needs the row as a decoded JSON value. Rows
// built here are converted directly (what json.Unmarshal of their text
// gives, TestInstanceMatchesText checks), and the turn rows of one
// conversation share the converted values of their common messages: a
// conversation's rows repeat its prefix, so parsing each row's text would
// cost time quadratic in the conversation's length.

// instances converts messages, each once.
type instances map[*Message]any

func (in instances) message(m *Message) (any, error) {
	if v, ok := in[m]; ok {
		return v, nil
	}
	out := map[string]any{"role": m.Role}
	if m.Content != "" {
		out["content"] = m.Content
	}
	if m.Action != nil {
		a, err := actionInstance(*m.Action)
		if err != nil {
			return nil, err
		}
		out["action"] = a
	}
	if m.Tool != "" {
		out["tool"] = m.Tool
	}
	if m.IsError {
		out["is_error"] = true
	}
	in[m] = out
	return out, nil
}

func (in instances) messages(ms []Message) (any, error) { return list(ms, in.message) }

// list converts each element of s with f, in order. A nil s is JSON null
// (nil), which the schemas tell apart from an empty list.
func list[T any](s []T, f func(*T) (any, error)) (any, error) {
	if s == nil {
		return nil, nil
	}
	out := make([]any, len(s))
	for i := range s {
		v, err := f(&s[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func actionInstance(a Action) (map[string]any, error) {
	args, err := jsonValue(a.Args)
	if err != nil {
		return nil, fmt.Errorf("action %s: %w", a.Tool, err)
	}
	return map[string]any{"tool": a.Tool, "args": args}, nil
}

func identityInstance(id Identity) map[string]any {
	return map[string]any{
		"id": id.ID, "sample_id": id.SampleID, "family": id.Family, "question_type": id.QuestionType,
		"split": id.Split, "training_weight": id.TrainingWeight, "split_group_id": id.SplitGroupID,
		"trajectory_content_group_id": id.TrajectoryContentGroupID,
	}
}

// jsonValue returns v as a decoded JSON value. Values decoded from JSON
// (maps, slices, strings, float64, bool, nil) are used as they are; any
// other value goes through its JSON text.
func jsonValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, float64, bool, json.Number:
		return x, nil
	case map[string]any:
		if x == nil {
			return nil, nil
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		if x == nil {
			return nil, nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			c, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// turnInstance converts a turn row.
func (in instances) turn(t *Turn) (any, error) {
	out := identityInstance(t.Identity)
	out["format"], out["agent"], out["turn"] = t.Format, t.Agent, float64(t.Turn)
	if t.Delegation != nil {
		out["delegation"] = float64(*t.Delegation)
	}
	msgs, err := in.messages(t.Messages)
	if err != nil {
		return nil, err
	}
	out["messages"] = msgs
	target, err := actionInstance(t.Target)
	if err != nil {
		return nil, err
	}
	out["target"] = target
	return out, nil
}

func (in instances) single(e *SingleAgentEpisode) (any, error) {
	out := identityInstance(e.Identity)
	out["format"], out["agent"], out["answer_ref"] = e.Format, e.Agent, e.AnswerRef
	msgs, err := in.messages(e.Messages)
	if err != nil {
		return nil, err
	}
	out["messages"] = msgs
	if out["tool_sequence"], err = list(e.ToolSequence, func(a *Action) (any, error) { return actionInstance(*a) }); err != nil {
		return nil, err
	}
	return out, nil
}

func (in instances) multi(e *MultiAgentEpisode) (any, error) {
	out := identityInstance(e.Identity)
	out["format"], out["answer_ref"] = e.Format, e.AnswerRef
	msgs, err := in.messages(e.Messages)
	if err != nil {
		return nil, err
	}
	out["messages"] = msgs
	out["delegations"], err = list(e.Delegations, func(d *Delegation) (any, error) {
		dm, err := in.messages(d.Messages)
		if err != nil {
			return nil, err
		}
		return map[string]any{"role": d.Role, "steps": anyStrings(d.Steps), "inputs": anyStrings(d.Inputs), "messages": dm}, nil
	})
	if err != nil {
		return nil, err
	}
	if out["tool_sequence"], err = list(e.ToolSequence, func(a *AgentAction) (any, error) {
		ai, err := actionInstance(a.Action)
		if err != nil {
			return nil, err
		}
		ai["agent"] = a.Agent
		return ai, nil
	}); err != nil {
		return nil, err
	}
	return out, nil
}

func anyStrings(s []string) any {
	if s == nil {
		return nil
	}
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// of converts a row of a type this package defines; ok is false for any
// other value.
func (in instances) of(row any) (inst any, ok bool, err error) {
	switch r := row.(type) {
	case *Turn:
		inst, err = in.turn(r)
	case Turn:
		inst, err = in.turn(&r)
	case *SingleAgentEpisode:
		inst, err = in.single(r)
	case SingleAgentEpisode:
		inst, err = in.single(&r)
	case *MultiAgentEpisode:
		inst, err = in.multi(r)
	case MultiAgentEpisode:
		inst, err = in.multi(&r)
	default:
		return nil, false, nil
	}
	return inst, true, err
}
