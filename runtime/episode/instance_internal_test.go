package episode

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// numbersAsFloat maps json.Number to float64 throughout a decoded value.
func numbersAsFloat(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbersAsFloat(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbersAsFloat(e)
		}
	}
	return v
}

// TestInstanceMatchesText checks that the value a row is schema-checked
// as equals what decoding the row's text gives, for every row type and
// for the fields that are omitted when empty.
func TestInstanceMatchesText(t *testing.T) {
	id := Identity{ID: "a<&>", SampleID: "s", Family: "routing", QuestionType: "nearest_shelter", Split: "test", TrainingWeight: 1.0 / 3, SplitGroupID: "g", TrajectoryContentGroupID: "traj_1"}
	msgs := []Message{
		{Role: RoleSystem, Content: "sys"},
		{Role: RoleUser, Content: `{"q":"<b>"}`},
		{Role: RoleAssistant, Action: &Action{Tool: "ReadData", Args: map[string]any{"n": 0.1, "nested": map[string]any{"l": []any{1.0, "x", nil, true}}}}},
		{Role: RoleTool, Tool: "ReadData", Content: `{"tool":"ReadData"}`},
		{Role: RoleAssistant, Action: &Action{Tool: "TaskComplete", Args: nil}},
		{Role: RoleTool, Tool: "TaskComplete", Content: "refused", IsError: true},
	}
	d := 2
	rows := []any{
		&SingleAgentEpisode{Identity: id, Format: FormatSingleAgentEpisode, Agent: AgentSingle, Messages: msgs, ToolSequence: []Action{*msgs[2].Action}, AnswerRef: "ANSWER_JSON:answer_1"},
		&MultiAgentEpisode{Identity: id, Format: FormatMultiAgentEpisode, Messages: msgs,
			Delegations:  []Delegation{{Role: "GA", Steps: []string{"ReadData"}, Inputs: nil, Messages: msgs}},
			ToolSequence: []AgentAction{{Agent: "GA", Action: *msgs[2].Action}}, AnswerRef: "ANSWER_JSON:answer_1"},
		&Turn{Identity: id, Format: FormatTurn, Agent: AgentGA, Delegation: &d, Turn: 3, Messages: msgs[:4], Target: *msgs[4].Action},
		&Turn{Identity: id, Format: FormatTurn, Agent: AgentSingle, Turn: 0, Messages: msgs[:2], Target: Action{Tool: "X", Args: map[string]any{}}},
	}
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	in := instances{}
	for i, row := range rows {
		got, ok, err := in.of(row)
		if !ok || err != nil {
			t.Fatalf("row %d: %v %v", i, ok, err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(row); err != nil {
			t.Fatal(err)
		}
		want, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(numbersAsFloat(got), numbersAsFloat(want)) {
			g, _ := json.Marshal(got)
			t.Errorf("row %d: instance\n%s\ntext\n%s", i, g, buf.Bytes())
		}
		// Both ways of checking agree (null args fail the schema).
		typ := map[int]RowType{0: SingleAgentEpisodeRow, 1: MultiAgentEpisodeRow, 2: TurnRow, 3: TurnRow}[i]
		_, encErr := v.Encode(typ, row)
		textErr := v.Validate(typ, bytes.TrimSpace(buf.Bytes()))
		if (encErr == nil) != (textErr == nil) {
			t.Errorf("row %d: Encode says %v, the text check %v", i, encErr, textErr)
		}
	}
}
