package runtime

import (
	"context"
	"log/slog"
	"maps"
	"slices"

	"github.com/geodisaster/engine/internal/team"
	"github.com/geodisaster/engine/workers"
)

// callEnv is the workers.Env of one worker call. What the call may read is
// decided by the read gate (gate.go: Open authorizes, entry checks); what
// it reads comes from the session's file cache (filecache.go), decoded
// bands perhaps from a prefetch (prefetch.go); what it writes goes through
// the artifact writer (artifacts.go).
type callEnv struct {
	s   *Session
	ctx context.Context
	tr  *CallTrace
	// allowed are the file cards reachable from the handles opened so
	// far, by path; opened are those handles.
	allowed map[string]workers.FileCard
	opened  map[string]bool
}

var (
	_ workers.Env            = (*callEnv)(nil)
	_ workers.FileHasher     = (*callEnv)(nil)
	_ workers.TeamEnv        = (*callEnv)(nil)
	_ workers.BandPrefetcher = (*callEnv)(nil)
)

// newCallEnv returns the environment of call tr, with nothing opened yet.
func newCallEnv(s *Session, ctx context.Context, tr *CallTrace) *callEnv {
	return &callEnv{s: s, ctx: ctx, tr: tr, allowed: map[string]workers.FileCard{}, opened: map[string]bool{}}
}

func (e *callEnv) Context() context.Context { return e.ctx }

func (e *callEnv) Logger() *slog.Logger { return e.s.log.With("call", e.tr.Index, "tool", e.tr.Tool) }

// Team implements workers.TeamEnv: one helper for all the session's calls,
// so it is awake when a call's first parallel step comes.
func (e *callEnv) Team() *team.Team {
	if e.s.team == nil {
		e.s.team = team.New()
	}
	return e.s.team
}

// openedHandles returns the names of the handles the call opened, sorted:
// the parents of its result.
func (e *callEnv) openedHandles() []string {
	parents := slices.Sorted(maps.Keys(e.opened))
	return parents
}
