package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// EpisodeDir writes each ended session's episode as one JSON file,
// DIR/<record id>/<session id>.json, atomically (a temporary file renamed
// into place), so that a reader never sees half an episode.
type EpisodeDir struct {
	Dir string
}

var _ EpisodeWriter = EpisodeDir{}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// EpisodePath returns where EpisodeDir writes the episode of a session.
func (d EpisodeDir) EpisodePath(recordID, sessionID string) string {
	return filepath.Join(d.Dir, unsafeName.ReplaceAllString(recordID, "_"), unsafeName.ReplaceAllString(sessionID, "_")+".json")
}

// WriteEpisode implements EpisodeWriter.
func (d EpisodeDir) WriteEpisode(log *SessionLog) error {
	if d.Dir == "" {
		return errors.New("episode directory: no directory")
	}
	ep, err := EpisodeOf(log)
	if err != nil {
		return err
	}
	b, err := json.Marshal(ep)
	if err != nil {
		return fmt.Errorf("episode of session %s: %w", log.SessionID, err)
	}
	return writeFileAtomic(d.EpisodePath(log.Record.ID, log.SessionID), append(b, '\n'))
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it into place.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// EpisodeOf returns the episode of an ended session.
func EpisodeOf(log *SessionLog) (any, error) {
	return log, nil
}
