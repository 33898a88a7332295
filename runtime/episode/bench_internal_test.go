package episode

import (
	"fmt"
	"testing"
)

func benchTurns(n int) []Turn {
	id := Identity{ID: "a", SampleID: "s", Family: "routing", QuestionType: "nearest_shelter", Split: "train", TrainingWeight: 1, SplitGroupID: "g", TrajectoryContentGroupID: "traj_1"}
	c := &Conversation{Messages: []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: "q"}}}
	for i := 0; i < n; i++ {
		c.Act("ReadData", map[string]any{"question": "question_1", "handle": fmt.Sprintf("h_%d", i), "role": "x"})
		c.Observe("ReadData", `{"tool":"ReadData","handle":"scene_1","evidence":{"a":1}}`, false)
	}
	c.Act("FinalAnswer", map[string]any{"answer_ref": "ANSWER_JSON:answer_1"})
	return Turns(id, AgentSingle, nil, c.Messages)
}

// BenchmarkEncodeTurns encodes and validates the rows of one 8-call
// conversation.
func BenchmarkEncodeTurns(b *testing.B) {
	v, err := NewValidator()
	if err != nil {
		b.Fatal(err)
	}
	ts := benchTurns(8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		enc := v.NewEncoder()
		for k := range ts {
			if _, err := enc.Encode(TurnRow, &ts[k]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
