package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgressQuietOffTerminal(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, 10, "replay")
	if p != nil || p.Func() != nil {
		t.Fatal("a bar on a non-terminal writer")
	}
	// A nil bar is valid.
	p.Set(1, 10)
	p.Add(1)
	p.Describe("x")
	p.Finish()
	if b.Len() != 0 {
		t.Errorf("wrote %q", b.String())
	}
}

func TestProgressDraws(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, -1, "synth", 0)
	p.Set(5, 10)
	p.Finish()
	if s := b.String(); !strings.Contains(s, "synth") || !strings.Contains(s, "(5/10)") {
		t.Errorf("bar output %q", s)
	}
}
