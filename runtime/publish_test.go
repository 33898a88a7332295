package runtime_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/geodisaster/engine/runtime"
)

// TestResolveRevalidatesChangedBytes checks Resolve: a reference must name
// a published answer; bytes changed after publication are validated
// again, and pass only while they still meet the schema.
func TestResolveRevalidatesChangedBytes(t *testing.T) {
	s, rec := corpusSession(t, "baseline_canopy_assessment")
	for _, ref := range []string{"answer_1", "ANSWER_JSON:answer_1"} {
		if _, err := s.Resolve(ref); err == nil {
			t.Fatalf("%s resolved before publication", ref)
		}
	}
	for _, st := range rec.GTChain {
		if _, err := s.Call(context.Background(), st.Tool, st.Args); err != nil {
			t.Fatal(err)
		}
	}
	resolved, err := s.Resolve(runtime.AnswerRef)
	if err != nil {
		t.Fatal(err)
	}
	ans := string(resolved) // Resolve returns the stored bytes
	stored := s.PublishedAnswer("answer_1")
	if string(stored) != ans {
		t.Fatal("Resolve returned other bytes than those published")
	}
	// A changed digit inside a number: other bytes, still valid.
	loc := regexp.MustCompile(`:-?0?\.?[1-9]`).FindIndex(stored)
	if loc == nil {
		t.Fatalf("no number in %s", stored)
	}
	i := loc[1] - 1
	orig := stored[i]
	stored[i] = '1' + (orig-'0')%9
	if got, err := s.Resolve(runtime.AnswerRef); err != nil || string(got) == ans {
		t.Fatalf("changed valid answer: %s %v", got, err)
	}
	stored[i] = orig
	stored[0] = '['
	if _, err := s.Resolve(runtime.AnswerRef); err == nil || !strings.Contains(err.Error(), "fails revalidation") {
		t.Fatalf("corrupt answer: %v", err)
	}
}
