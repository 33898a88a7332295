package htmlreport

import (
	"os"
	"strings"
	"testing"
)

// TestStatusColoursFollowTheLadder: only REAL gets the green check; FIXTURE
// has its own neutral mark, never the pass colour; each rung its class.
func TestStatusColoursFollowTheLadder(t *testing.T) {
	want := map[string]string{"REAL": "st-pass", "DEGRADED": "st-warn", "FIXTURE": "st-fixture", "FAILED": "st-fail", "NOT_RUN": "st-none", "RESOURCE_BLOCKED": "st-none"}
	for status, class := range want {
		if got := statusClass(status); got != class {
			t.Errorf("%s: class %s, want %s", status, got, class)
		}
	}
	css, err := os.ReadFile("style.css")
	if err != nil {
		t.Fatal(err)
	}
	s := string(css)
	if !strings.Contains(s, `.st-pass::before { content: "✓ "; }`) || !strings.Contains(s, `.st-fixture::before { content: "◇ "; }`) {
		t.Error("style.css: the check mark belongs to st-pass (REAL) alone, FIXTURE has its own mark")
	}
}
