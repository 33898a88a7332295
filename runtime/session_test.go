package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/geodisaster/engine/runtime"
)

func TestTerminateAndFinalAnswer(t *testing.T) {
	ctx := context.Background()
	s, rec := corpusSession(t, "wildfire_a")
	if _, err := s.Call(ctx, runtime.ToolTerminate, map[string]any{"answer_ref": runtime.AnswerRef}); err == nil || !strings.Contains(err.Error(), "not published") {
		t.Fatalf("Terminate before publication: %v", err)
	}
	var published string
	for _, st := range rec.GTChain {
		out, err := s.Call(ctx, st.Tool, st.Args)
		if err != nil {
			t.Fatal(err)
		}
		if st.Tool != "TaskComplete" && out.Published != "" {
			t.Fatalf("%s published before TaskComplete", st.Tool)
		}
		published = out.Published
	}
	if published != runtime.AnswerRef {
		t.Fatalf("answer not published after TaskComplete")
	}
	if _, err := s.Call(ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": "ANSWER_JSON:answer_2"}); err == nil {
		t.Fatal("unknown reference accepted")
	}
	out, err := s.Call(ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	_ = json.Unmarshal(out.Answer, &got)
	_ = json.Unmarshal(rec.Answer, &want)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("FinalAnswer resolved %s, gold %s", gb, wb)
	}
	if _, err := s.Call(ctx, "ReadData", rec.GTChain[0].Args); err == nil {
		t.Fatal("call accepted after the session terminated")
	}
}

// TestCallRefusesBadCallsAndTracesThem checks the runtime tools' argument
// checks, an unknown tool and a cancelled context: each is an error, each
// is in the trace with its message, and none ends the session.
func TestCallRefusesBadCallsAndTracesThem(t *testing.T) {
	s, _ := corpusSession(t, "wildfire_a")
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		tool string
		args map[string]any
		want string
	}{
		{ctx, runtime.ToolTaskComplete, map[string]any{"state": "TASK_COMPLETE"}, `unknown argument "state"`},
		{ctx, runtime.ToolTaskComplete, map[string]any{"status": "DONE"}, `unsupported value "DONE"`},
		{ctx, runtime.ToolTerminate, map[string]any{"ref": runtime.AnswerRef}, `unknown argument "ref"`},
		{ctx, runtime.ToolFinalAnswer, nil, `"answer_ref": required`},
		{ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": "answer_1"}, "must look like " + runtime.AnswerRef},
		{ctx, "NoSuchTool", nil, "unknown tool"},
		{cancelled, runtime.ToolTaskComplete, nil, "context canceled"},
	} {
		if _, err := s.Call(c.ctx, c.tool, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.tool, c.args, err, c.want)
		}
	}
	tr := s.Trace()
	if len(tr) != 7 {
		t.Fatalf("%d calls traced, want 7", len(tr))
	}
	for i, c := range tr {
		if c.Index != i+1 || c.Error == "" || c.Output != "" {
			t.Errorf("call %d traced as %+v", i+1, c)
		}
	}
	if out, err := s.Call(ctx, runtime.ToolTaskComplete, nil); err != nil || out.Evidence["status"] != "TASK_COMPLETE" {
		t.Fatalf("TaskComplete without arguments: %+v %v", out, err)
	}
	if s.Terminal() != nil {
		t.Fatal("a refused call ended the session")
	}
}
