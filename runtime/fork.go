package runtime

import (
	"maps"
	"slices"
)

// Fork returns a new session over the same record whose state is a copy of
// s's at this point: its handles (results are shared, never modified), the
// published answers, the TaskComplete statuses, the trace and the denials.
// From then on the two sessions evolve independently, so one replay can
// show what a different sequence of calls from here would return (the
// dataset projections ask what the multi-agent form's extra TaskComplete
// calls publish, without executing the workers twice).
//
// A fork has a file cache of its own, empty: a worker called on it reads
// its declared files again through its own read gate. It writes artifacts
// into s's artifact directory (artifact names are content-addressed), or
// into a temporary directory of its own when s has none yet. Close the fork
// when done with it; closing it leaves s untouched. A fork must not be
// called concurrently with s.
func (s *Session) Fork() *Session {
	f := &Session{
		eng:       s.eng,
		rec:       s.rec,
		log:       s.log,
		handles:   maps.Clone(s.handles),
		counters:  maps.Clone(s.counters),
		trace:     slices.Clone(s.trace),
		denials:   slices.Clone(s.denials),
		answers:   maps.Clone(s.answers),
		published: maps.Clone(s.published),
		completed: slices.Clone(s.completed),
		terminal:  s.terminal,
		files:     map[string]*fileEntry{},
		// The fork writes beside s's artifacts and removes none of them
		// (s removes a temporary directory of its own when it closes).
		artifactDir:     s.artifactDir,
		artifactDirMade: s.artifactDirMade,
	}
	return f
}
