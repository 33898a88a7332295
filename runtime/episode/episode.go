package episode

import (
	"github.com/geodisaster/engine/workers"
)

// Format names, written in every row's "format" field.
const (
	FormatSingleAgentEpisode = "geodisaster_single_agent_episode_v1"
	FormatMultiAgentEpisode  = "geodisaster_multi_agent_episode_v1"
	FormatTurn               = "geodisaster_sft_turn_v1"
)

// Agents of episodes and turn rows: the single agent, the multi-agent
// orchestrator and its three specialists (spec section 3).
const (
	AgentSingle = "single"
	AgentORC    = "ORC"
	AgentGA     = string(workers.RoleGA)
	AgentPA     = string(workers.RolePA)
	AgentVRA    = string(workers.RoleVRA)
)

// Orchestration actions of the multi-agent orchestrator. They are not
// runtime tools: the agent harness carries them out by handing the steps
// to the specialist's session view (mcp.Server.Specialist).
const (
	// ToolPlan is the orchestrator's first action: the delegations it
	// will make, in order.
	ToolPlan = "Plan"
	// ToolDelegate hands a run of consecutive steps to their owner.
	ToolDelegate = "Delegate"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Identity joins an episode or a row to its canonical record (spec
// section 6): every episode and row carries it.
type Identity struct {
	ID             string  `json:"id"`
	SampleID       string  `json:"sample_id"`
	Family         string  `json:"family"`
	QuestionType   string  `json:"question_type"`
	Split          string  `json:"split"`
	TrainingWeight float64 `json:"training_weight"`
	SplitGroupID   string  `json:"split_group_id"`
	// TrajectoryContentGroupID is GroupID of the record's single-agent
	// episode (or the canonical record's declared value).
	TrajectoryContentGroupID string `json:"trajectory_content_group_id"`
}

// IdentityOf returns a record's identity; trajectory is the trajectory
// content group id, used when the record declares none.
func IdentityOf(rec workers.Record, trajectory string) Identity {
	if rec.TrajectoryContentGroupID != "" {
		trajectory = rec.TrajectoryContentGroupID
	}
	return Identity{
		ID: rec.ID, SampleID: rec.SampleID, Family: rec.Family, QuestionType: rec.QuestionType,
		Split: rec.Split, TrainingWeight: rec.TrainingWeight, SplitGroupID: rec.SplitGroupID,
		TrajectoryContentGroupID: trajectory,
	}
}

// Action is one action of an agent, written like a GT-chain step.
type Action struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// Message is one message of a conversation. System and user messages
// carry text; an assistant message carries one action; a tool message
// carries what the runtime (or, for Delegate, the specialist) returned
// for the action before it, as the exact text an MCP client receives.
type Message struct {
	Role    string  `json:"role"`
	Content string  `json:"content,omitempty"`
	Action  *Action `json:"action,omitempty"`
	// Tool names the tool that answered (tool messages).
	Tool string `json:"tool,omitempty"`
	// IsError marks a tool message that is a tool error (its content is
	// the reason). Replayed episodes have none; served sessions may.
	IsError bool `json:"is_error,omitempty"`
}

// SingleAgentEpisode is one record solved by the single agent: it calls
// the GT chain's tools in order and ends with FinalAnswer on AnswerRef.
type SingleAgentEpisode struct {
	Identity
	Format string `json:"format"`
	Agent  string `json:"agent"`
	// Messages is the conversation: system, user (the question view),
	// then an assistant action and its tool observation per call, ending
	// with the FinalAnswer action (the resolved answer is the evaluator's,
	// never shown to the model).
	Messages []Message `json:"messages"`
	// ToolSequence is every action of Messages, in order.
	ToolSequence []Action `json:"tool_sequence"`
	AnswerRef    string   `json:"answer_ref"`
}

// AgentAction is a runtime call of a multi-agent episode with its caller.
type AgentAction struct {
	Agent string `json:"agent"`
	Action
}

// Delegation is one run of consecutive GT-chain steps owned by one
// specialist: the orchestrator's Delegate action and the specialist's
// conversation that carries it out.
type Delegation struct {
	Role string `json:"role"`
	// Steps are the tools of the delegated steps, in order.
	Steps []string `json:"steps"`
	// Inputs are the handles the steps consume that exist before the
	// delegation (initial handles or earlier results), sorted.
	Inputs []string `json:"inputs"`
	// Messages is the specialist's conversation: system, user (the
	// question view), user (the delegation), then its calls and their
	// observations, ending with TaskComplete and its observation.
	Messages []Message `json:"messages"`
}

// MultiAgentEpisode is one record solved by the four-role system: the
// orchestrator plans, delegates each run of same-owner steps to its
// specialist, and ends with Terminate on AnswerRef.
type MultiAgentEpisode struct {
	Identity
	Format string `json:"format"`
	// Messages is the orchestrator's conversation: system, user (the
	// question view), Plan, then per delegation a Delegate action and the
	// specialist's observations, ending with the Terminate action.
	Messages    []Message    `json:"messages"`
	Delegations []Delegation `json:"delegations"`
	// ToolSequence is every runtime call of the session in order, with the
	// agent that made it (orchestration actions are not runtime calls).
	ToolSequence []AgentAction `json:"tool_sequence"`
	AnswerRef    string        `json:"answer_ref"`
}

// Turn is one SFT row: the context an agent sees before one of its
// actions, and that action as the target.
type Turn struct {
	Identity
	Format string `json:"format"`
	Agent  string `json:"agent"`
	// Delegation is the index of the specialist's delegation in the
	// multi-agent episode (specialist rows only).
	Delegation *int `json:"delegation,omitempty"`
	// Turn is the index of the target among the assistant actions of its
	// conversation.
	Turn     int       `json:"turn"`
	Messages []Message `json:"messages"`
	Target   Action    `json:"target"`
}

// Turns returns one row per assistant action of a conversation, each with
// the messages before it as context.
func Turns(id Identity, agent string, delegation *int, msgs []Message) []Turn {
	var out []Turn
	for k, m := range msgs {
		if m.Role != RoleAssistant || m.Action == nil {
			continue
		}
		out = append(out, Turn{Identity: id, Format: FormatTurn, Agent: agent, Delegation: delegation,
			Turn: len(out), Messages: msgs[:k:k], Target: *m.Action})
	}
	return out
}

// Turns returns the single agent's SFT rows.
func (e *SingleAgentEpisode) Turns() []Turn {
	return Turns(e.Identity, AgentSingle, nil, e.Messages)
}

// OrchestratorTurns returns the orchestrator's SFT rows.
func (e *MultiAgentEpisode) OrchestratorTurns() []Turn {
	return Turns(e.Identity, AgentORC, nil, e.Messages)
}

// SpecialistTurns returns the rows of every delegation of one role.
func (e *MultiAgentEpisode) SpecialistTurns(role string) []Turn {
	var out []Turn
	for i := range e.Delegations {
		if e.Delegations[i].Role != role {
			continue
		}
		d := i
		out = append(out, Turns(e.Identity, role, &d, e.Delegations[i].Messages)...)
	}
	return out
}
