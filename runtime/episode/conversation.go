package episode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

// A Conversation accumulates one agent's messages in episode order.
type Conversation struct {
	Messages []Message
}

// Start opens a conversation of form f on rec: the form's system prompt
// and the question view (as the user message).
func Start(f Form, rec workers.Record) (*Conversation, error) {
	q, err := NewQuestionView(rec, f, f.Tools()).Text()
	if err != nil {
		return nil, err
	}
	return &Conversation{Messages: []Message{
		{Role: RoleSystem, Content: SystemPrompt(f)},
		{Role: RoleUser, Content: q},
	}}, nil
}

// Say appends a user message.
func (c *Conversation) Say(text string) {
	c.Messages = append(c.Messages, Message{Role: RoleUser, Content: text})
}

// Act appends an assistant action.
func (c *Conversation) Act(tool string, args map[string]any) {
	if args == nil {
		args = map[string]any{}
	}
	c.Messages = append(c.Messages, Message{Role: RoleAssistant, Action: &Action{Tool: tool, Args: args}})
}

// Observe appends the tool message answering the last action: text is
// what the view returned (Observation.Text, or a tool error's reason with
// isError).
func (c *Conversation) Observe(tool, text string, isError bool) {
	c.Messages = append(c.Messages, Message{Role: RoleTool, Tool: tool, Content: text, IsError: isError})
}

// Actions returns the conversation's actions in order.
func (c *Conversation) Actions() []Action {
	var out []Action
	for _, m := range c.Messages {
		if m.Action != nil {
			out = append(out, *m.Action)
		}
	}
	return out
}

// NewSingleAgentEpisode returns the single-agent episode of a finished
// conversation. Its identity's trajectory_content_group_id is left as
// given; GroupID computes the one the episode implies.
func NewSingleAgentEpisode(id Identity, c *Conversation) (*SingleAgentEpisode, error) {
	acts := c.Actions()
	if len(acts) == 0 {
		return nil, errors.New("single-agent episode without actions")
	}
	last := acts[len(acts)-1]
	if last.Tool != runtime.ToolFinalAnswer || fmt.Sprint(last.Args["answer_ref"]) != runtime.AnswerRef {
		return nil, fmt.Errorf("single-agent episode of %s ends with %s, not FinalAnswer(answer_ref=%s)", id.ID, last.Tool, runtime.AnswerRef)
	}
	return &SingleAgentEpisode{Identity: id, Format: FormatSingleAgentEpisode, Agent: AgentSingle,
		Messages: c.Messages, ToolSequence: acts, AnswerRef: runtime.AnswerRef}, nil
}

// GroupID returns the trajectory_content_group_id the episode's messages
// and tool_sequence imply: scoring.TrajectoryGroupID of the
// scoring.TrajectoryFingerprint of the episode as Validator.Encode writes
// it (identity metadata, including the group id itself, excluded).
func (e *SingleAgentEpisode) GroupID() (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return "", fmt.Errorf("episode %s: %w", e.ID, err)
	}
	fp, err := scoring.TrajectoryFingerprint(buf.Bytes())
	if err != nil {
		return "", err
	}
	return scoring.TrajectoryGroupID(fp), nil
}
