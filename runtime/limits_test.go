package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
)

// TestSessionLimitsAndArtifactDir runs a Sen1Floods11 chain (which reads
// a raster and writes a flood-mask artifact) under read and artifact
// limits: a spent budget is a *LimitError, not a read-gate denial, and a
// session given its own artifact directory writes there.
func TestSessionLimitsAndArtifactDir(t *testing.T) {
	dir, recs := synthtest.Corpus(t, synth.Options{Types: []string{"sen1_flood_a"}, PerType: 1, Seed: 3})
	rec := recs[0]
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	// run calls the chain until the first error.
	run := func(s *runtime.Session) error {
		for _, step := range rec.GTChain {
			if _, err := s.Call(context.Background(), step.Tool, step.Args); err != nil {
				return err
			}
		}
		return nil
	}

	own := filepath.Join(t.TempDir(), "session-a")
	s, err := eng.NewSessionWith(rec, runtime.SessionOptions{ArtifactDir: own})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(s); err != nil {
		t.Fatal(err)
	}
	var read, written int64
	seen := map[string]bool{}
	for _, c := range s.Trace() {
		for _, r := range c.Reads {
			if !seen[r.Path] {
				seen[r.Path] = true
				read += r.Size
			}
		}
		for _, a := range c.Artifacts {
			written += a.Size
			if _, err := os.Stat(filepath.Join(own, a.Name)); err != nil {
				t.Errorf("artifact %s not in the session's directory: %v", a.Name, err)
			}
		}
	}
	if u := s.Usage(); u.ReadBytes != read || u.ArtifactBytes != written || written == 0 {
		t.Fatalf("usage %+v, the trace says %d read and %d written", u, read, written)
	}
	s.Close()
	if _, err := os.Stat(own); err != nil {
		t.Fatalf("a session's own artifact directory is kept after Close: %v", err)
	}

	for _, tc := range []struct {
		limits runtime.SessionLimits
		limit  string
	}{
		{runtime.SessionLimits{ReadBytes: read - 1}, runtime.LimitReadBytes},
		{runtime.SessionLimits{ArtifactBytes: written - 1}, runtime.LimitArtifactBytes},
	} {
		s, err := eng.NewSessionWith(rec, runtime.SessionOptions{Limits: tc.limits})
		if err != nil {
			t.Fatal(err)
		}
		err = run(s)
		var le *runtime.LimitError
		if !errors.As(err, &le) || le.Limit != tc.limit || errors.Is(err, runtime.ErrDenied) {
			t.Fatalf("limits %+v: err %v, want a %s limit error", tc.limits, err, tc.limit)
		}
		if len(s.Denials()) != 0 {
			t.Fatalf("a spent budget was recorded as a denial: %v", s.Denials())
		}
		if u := s.Usage(); (tc.limit == runtime.LimitReadBytes && u.ReadBytes > tc.limits.ReadBytes) || (tc.limit == runtime.LimitArtifactBytes && u.ArtifactBytes > tc.limits.ArtifactBytes) {
			t.Fatalf("usage %+v passed the limits %+v", u, tc.limits)
		}
		s.Close()
	}
}
