package main

import (
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// Every command maps a missing input file to 5 and a bad flag to 2.
func TestEveryCommandFollowsTheContract(t *testing.T) {
	missing := t.TempDir() + "/missing"
	for _, args := range [][]string{
		{"replay", "--input", missing},
		{"merge", "--output-dir", t.TempDir() + "/m", missing},
		{"score", "--gold", missing, "--pred", missing},
		{"inspect", missing},
		{"area", missing},
		{"audit-splits", "--records", missing},
		{"verify-seal", "--dir", t.TempDir(), "--seal", missing},
		{"geoktools-score", "--batch", missing},
		{"hydrate", "sen1floods11", "--dest", missing, "--verify-only"},
	} {
		if code, _, e := cli(t, args...); code != kit.ExitCannotRun {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, kit.ExitCannotRun, e)
		}
		if code, _, e := cli(t, args[0], "--no-such-flag"); code != kit.ExitUsage {
			t.Errorf("%s --no-such-flag: exit %d, want %d (%s)", args[0], code, kit.ExitUsage, e)
		}
	}
}
