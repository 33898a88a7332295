package runtime

import (
	"fmt"
	"path/filepath"

	"github.com/geodisaster/engine/workers"
)

// SessionOptions configures one session beyond what the engine's Config
// sets for all of them (Engine.NewSessionWith).
type SessionOptions struct {
	// ArtifactDir, when set, is the session's own artifact directory (used
	// as it is, with no per-record subdirectory), so that concurrent
	// sessions of one record never share files. Empty: Config.ArtifactDir/
	// <record id>, or a temporary directory removed by Close.
	ArtifactDir string
	// Limits bounds what the session may read and write.
	Limits SessionLimits
}

// SessionLimits bounds one session's resources. A zero field is no limit.
type SessionLimits struct {
	// ReadBytes bounds the declared-file bytes the session loads through
	// the read gate (each file counts once: later reads of it come from
	// the session's cache).
	ReadBytes int64
	// ArtifactBytes bounds the bytes of the artifacts the session writes.
	ArtifactBytes int64
}

// SessionUsage is what a session has consumed of its limits so far.
type SessionUsage struct {
	ReadBytes     int64 `json:"read_bytes"`
	ArtifactBytes int64 `json:"artifact_bytes"`
}

// Limit names, as LimitError.Limit reports them.
const (
	LimitReadBytes     = "read_bytes"
	LimitArtifactBytes = "artifact_bytes"
)

// LimitError reports a call refused because it would exceed one of the
// session's limits. It is not a read-gate denial: the file was
// authorized, the session's budget is spent.
type LimitError struct {
	// Limit is LimitReadBytes or LimitArtifactBytes (callers of the
	// runtime may define others).
	Limit string
	// Max is the limit; Used what the session had consumed before; Need
	// what the refused operation asked for.
	Max, Used, Need int64
	// Subject is the file or artifact concerned.
	Subject string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("session limit %s exceeded: %s needs %d bytes, %d of the session's %d are used", e.Limit, e.Subject, e.Need, e.Used, e.Max)
}

// NewSessionWith opens a session on the gold-free projection of rec, as
// NewSession does, with its own artifact directory and limits.
func (e *Engine) NewSessionWith(rec workers.Record, opts SessionOptions) (*Session, error) {
	s, err := e.NewSession(rec)
	if err != nil {
		return nil, err
	}
	if opts.ArtifactDir != "" {
		s.artifactDir = filepath.Clean(opts.ArtifactDir)
	}
	s.limits = opts.Limits
	return s, nil
}

// Usage returns what the session has consumed of its limits.
func (s *Session) Usage() SessionUsage {
	return SessionUsage{ReadBytes: s.readBytes, ArtifactBytes: s.artifactBytes}
}

// checkLimit returns a *LimitError when adding need bytes to used would
// pass max (max 0: no limit).
func checkLimit(limit string, max, used, need int64, subject string) error {
	if max > 0 && used+need > max {
		return &LimitError{Limit: limit, Max: max, Used: used, Need: need, Subject: subject}
	}
	return nil
}
