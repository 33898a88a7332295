package runtime_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/geodisaster/engine/runtime"
)

// TestForkMatchesOtherCallOrder checks that a fork taken after a worker
// call and given TaskComplete publishes what a session calling
// TaskComplete at that point does, and that the fork leaves its parent
// alone.
func TestForkMatchesOtherCallOrder(t *testing.T) {
	eng, recs, _ := corpusEngine(t)
	ctx := context.Background()
	for _, rec := range recs {
		chain := rec.GTChain
		last := len(chain) - 2 // the last worker call (the chain ends with TaskComplete)
		parent := openSession(t, eng, rec)
		other := openSession(t, eng, rec)
		// other: TaskComplete first, then the chain (a specialist's
		// TaskComplete before the orchestrator's last delegation).
		if _, err := other.Call(ctx, runtime.ToolTaskComplete, map[string]any{"status": "TASK_COMPLETE"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i <= last; i++ {
			want, err := other.Call(ctx, chain[i].Tool, chain[i].Args)
			if err != nil {
				t.Fatal(err)
			}
			got, err := parent.Call(ctx, chain[i].Tool, chain[i].Args)
			if err != nil {
				t.Fatal(err)
			}
			if got.Handle != want.Handle || !reflect.DeepEqual(got.Evidence, want.Evidence) {
				t.Fatalf("%s step %d: handle/evidence differ with an earlier TaskComplete", rec.ID, i)
			}
			f := parent.Fork()
			res, err := f.Call(ctx, runtime.ToolTaskComplete, map[string]any{"status": "TASK_COMPLETE"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Published != want.Published {
				t.Fatalf("%s step %d: fork publishes %q, the session with TaskComplete before %q", rec.ID, i, res.Published, want.Published)
			}
			if len(f.Trace()) != len(parent.Trace())+1 {
				t.Fatalf("fork trace %d, parent %d", len(f.Trace()), len(parent.Trace()))
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if len(parent.Trace()) != last+1 {
			t.Fatalf("parent trace grew through its forks: %d calls", len(parent.Trace()))
		}
		// The parent has not completed: its own TaskComplete publishes.
		res, err := parent.Call(ctx, runtime.ToolTaskComplete, map[string]any{"status": "TASK_COMPLETE"})
		if err != nil || res.Published != runtime.AnswerRef {
			t.Fatalf("%s: parent TaskComplete %+v %v", rec.ID, res, err)
		}
		// Terminate on a fork resolves the parent's answer; the parent
		// can still finish on its own.
		f := parent.Fork()
		term, err := f.Call(ctx, runtime.ToolTerminate, map[string]any{"answer_ref": runtime.AnswerRef})
		if err != nil {
			t.Fatal(err)
		}
		fin, err := parent.Call(ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
		if err != nil {
			t.Fatalf("parent FinalAnswer after a fork terminated: %v", err)
		}
		if string(term.Answer) != string(fin.Answer) {
			t.Fatalf("fork answer %s, parent %s", term.Answer, fin.Answer)
		}
		f.Close()
		parent.Close()
		other.Close()
	}
}

// TestForkRunsWorkers checks that a worker called on a fork reads its
// files through its own gate and returns what the parent would.
func TestForkRunsWorkers(t *testing.T) {
	eng, recs, _ := corpusEngine(t)
	ctx := context.Background()
	rec := recs["wildfire_a"]
	s := openSession(t, eng, rec)
	if _, err := s.Call(ctx, rec.GTChain[0].Tool, rec.GTChain[0].Args); err != nil {
		t.Fatal(err)
	}
	f := s.Fork()
	defer f.Close()
	for _, sess := range []*runtime.Session{f, s} {
		for _, st := range rec.GTChain[1:] {
			if _, err := sess.Call(ctx, st.Tool, st.Args); err != nil {
				t.Fatal(err)
			}
		}
	}
	a, b := f.Trace(), s.Trace()
	if len(a) != len(b) {
		t.Fatalf("fork %d calls, parent %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Output != b[i].Output || len(a[i].Reads) != len(b[i].Reads) || !reflect.DeepEqual(a[i].Artifacts, b[i].Artifacts) {
			t.Fatalf("call %d differs between fork and parent", i+1)
		}
	}
	ra, _ := f.Resolve(runtime.AnswerRef)
	rb, _ := s.Resolve(runtime.AnswerRef)
	if string(ra) != string(rb) {
		t.Fatalf("fork answer %s, parent %s", ra, rb)
	}
}
