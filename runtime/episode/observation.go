package episode

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// ToolGetQuestion is the session view's tool returning the question view.
const ToolGetQuestion = "GetQuestion"

// Agent forms of a session view (the values of "serve --agent").
const (
	FormSingle       = "single"
	FormOrchestrator = "orc"
)

// Form is who a session view serves: the single agent, the orchestrator,
// or (Agent FormOrchestrator with a Role) one of its specialists.
type Form struct {
	Agent string
	Role  workers.Role
}

// Single, Orchestrator and Specialist are the forms of the spec's two
// agent systems.
var (
	Single       = Form{Agent: FormSingle}
	Orchestrator = Form{Agent: FormOrchestrator}
)

// Specialist returns the form of a multi-agent specialist.
func Specialist(role workers.Role) Form { return Form{Agent: FormOrchestrator, Role: role} }

// TerminalTool is the form's finishing tool ("" for a specialist).
func (f Form) TerminalTool() string {
	switch {
	case f.Role != "":
		return ""
	case f.Agent == FormOrchestrator:
		return runtime.ToolTerminate
	}
	return runtime.ToolFinalAnswer
}

// Tools lists the tools a view of the form exposes, in listing order:
// GetQuestion, the workers (all 18, or the role's), TaskComplete and the
// terminal tool.
func (f Form) Tools() []string {
	out := []string{ToolGetQuestion}
	for _, info := range workers.Tools() {
		if f.Role == "" || info.Role == f.Role {
			out = append(out, info.Name)
		}
	}
	out = append(out, runtime.ToolTaskComplete)
	if t := f.TerminalTool(); t != "" {
		out = append(out, t)
	}
	return out
}

// Observation is what a session view returns to an agent for a successful
// call: the MCP tool result (its text and structured content) and an
// episode's tool message content.
type Observation struct {
	Tool      string             `json:"tool"`
	Handle    string             `json:"handle,omitempty"`
	Evidence  map[string]any     `json:"evidence,omitempty"`
	Artifacts []workers.Artifact `json:"artifacts,omitempty"`
	Published string             `json:"published,omitempty"`
	AnswerRef string             `json:"answer_ref,omitempty"`
	Answer    json.RawMessage    `json:"answer,omitempty"`
	Note      string             `json:"note,omitempty"`
}

// NewObservation builds the observation of one successful call for a view
// of form f: the call's result and the artifacts the call wrote (the last
// entry of the session trace).
func NewObservation(f Form, tool string, res *runtime.CallResult, artifacts []workers.Artifact) Observation {
	o := Observation{Tool: tool, Handle: res.Handle, Evidence: res.Evidence, Artifacts: artifacts, Published: res.Published}
	switch {
	case res.Answer != nil:
		o.AnswerRef, o.Answer = runtime.AnswerRef, res.Answer
		o.Note = "session finished; the answer above is the resolved " + runtime.AnswerRef
	case res.Published != "":
		if t := f.TerminalTool(); t != "" {
			o.Note = fmt.Sprintf("the runtime published %s; finish with %s(answer_ref=%s)", res.Published, t, res.Published)
		} else {
			o.Note = fmt.Sprintf("the runtime published %s; close the subgoal with TaskComplete and hand the reference to the orchestrator", res.Published)
		}
	}
	return o
}

// Text returns the observation as the JSON text an MCP client receives.
func (o Observation) Text() (string, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return "", fmt.Errorf("observation of %s is not JSON-encodable: %w", o.Tool, err)
	}
	return string(b), nil
}

// QuestionView is the question and the initial handles shown to an agent:
// the GetQuestion result and an episode's user message. It is built from
// the gold-free record and never carries gold, GT chains or provenance.
type QuestionView struct {
	ID           string                        `json:"id"`
	SampleID     string                        `json:"sample_id,omitempty"`
	Family       string                        `json:"family"`
	QuestionType string                        `json:"question_type"`
	Question     string                        `json:"question"`
	Handles      map[string]workers.HandleDecl `json:"handles"`
	Agent        string                        `json:"agent"`
	Role         workers.Role                  `json:"role,omitempty"`
	Tools        []string                      `json:"tools"`
	Finish       string                        `json:"finish"`
}

// NewQuestionView returns the question view of rec (its gold-free
// projection) for a view of form f exposing tools.
func NewQuestionView(rec workers.Record, f Form, tools []string) QuestionView {
	rec = rec.TestInput()
	finish := fmt.Sprintf("TaskComplete(status=TASK_COMPLETE), then %s(answer_ref=%s)", f.TerminalTool(), runtime.AnswerRef)
	if f.TerminalTool() == "" {
		finish = "TaskComplete(status=TASK_COMPLETE); the orchestrator terminates"
	}
	return QuestionView{
		ID: rec.ID, SampleID: rec.SampleID, Family: rec.Family, QuestionType: rec.QuestionType,
		Question: rec.Question, Handles: rec.Handles, Agent: f.Agent, Role: f.Role,
		Tools: tools, Finish: finish,
	}
}

// Text returns the view as the JSON text an MCP client receives.
func (q QuestionView) Text() (string, error) {
	b, err := json.Marshal(q)
	if err != nil {
		return "", fmt.Errorf("question view of %s: %w", q.ID, err)
	}
	return string(b), nil
}

// SystemPrompt is the system message of an episode conversation for form
// f. It names no record, so it is the same for every record.
func SystemPrompt(f Form) string {
	var b strings.Builder
	b.WriteString("You are a GeoDisaster agent")
	switch {
	case f.Role != "":
		fmt.Fprintf(&b, ", the %s specialist of the multi-agent system. Carry out the steps the orchestrator (ORC) delegates with your workers (%s), passing the handles it names", f.Role, strings.Join(roleWorkers(f.Role), ", "))
	case f.Agent == FormOrchestrator:
		b.WriteString(", the orchestrator (ORC) of the multi-agent system. Plan the analysis, then delegate each run of consecutive steps to the specialist that owns their workers (GA, PA or VRA) with Delegate(role, steps, inputs), and read the handles and evidence it returns; never run a worker yourself")
	default:
		b.WriteString(". Plan the analysis and call the runtime's workers yourself")
	}
	b.WriteString(". Each worker call names handles of this session and returns a new handle with its evidence; reads are limited to the files of the handles a call opens (" + runtime.ReadPolicy + "). ")
	b.WriteString("When the complete answer validates the runtime publishes " + runtime.AnswerRef + "; never write the answer JSON yourself. ")
	switch t := f.TerminalTool(); t {
	case "":
		b.WriteString("Close your subgoal with TaskComplete(status=TASK_COMPLETE); only the orchestrator terminates.")
	case runtime.ToolTerminate:
		fmt.Fprintf(&b, "Finish with %s(answer_ref=%s) once it is published.", t, runtime.AnswerRef)
	default:
		fmt.Fprintf(&b, "Call TaskComplete(status=TASK_COMPLETE), then finish with %s(answer_ref=%s).", t, runtime.AnswerRef)
	}
	return b.String()
}

func roleWorkers(role workers.Role) []string {
	var out []string
	for _, info := range workers.Tools() {
		if info.Role == role {
			out = append(out, info.Name)
		}
	}
	return out
}
