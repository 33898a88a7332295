package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
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

// EpisodeSummary is what scoring needs of one episode file.
type EpisodeSummary struct {
	Path      string
	RecordID  string
	SessionID string
	Opened    time.Time
	// End is how the session ended (EndAnswered, ...).
	End string
	// Answer is the resolved answer, nil when the session ended without
	// one.
	Answer json.RawMessage
}

// ReadEpisodeDir reads every episode file (*.json, at any depth; hidden
// files such as a half-written temporary are skipped) under dir, sorted
// by record id, then by when the session opened, then by session id. A
// file that is not an episode is an error naming it.
func ReadEpisodeDir(dir string) ([]EpisodeSummary, error) {
	var out []EpisodeSummary
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") && path != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ".json") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s, err := summarizeEpisode(b)
		if err != nil {
			return fmt.Errorf("%s: not an episode: %w", path, err)
		}
		s.Path = path
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.RecordID != b.RecordID {
			return a.RecordID < b.RecordID
		}
		if !a.Opened.Equal(b.Opened) {
			return a.Opened.Before(b.Opened)
		}
		return a.SessionID < b.SessionID
	})
	return out, nil
}

// summarizeEpisode reads the fields scoring needs from one episode.
func summarizeEpisode(b []byte) (EpisodeSummary, error) {
	var l struct {
		SessionID string
		Record    struct {
			ID string `json:"id"`
		}
		Opened time.Time
		End    string
		Audit  struct {
			Answer json.RawMessage `json:"answer"`
		}
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return EpisodeSummary{}, err
	}
	if l.Record.ID == "" || l.SessionID == "" {
		return EpisodeSummary{}, errors.New("no record id or session id")
	}
	s := EpisodeSummary{RecordID: l.Record.ID, SessionID: l.SessionID, Opened: l.Opened, End: l.End}
	if t := strings.TrimSpace(string(l.Audit.Answer)); t != "" && t != "null" {
		s.Answer = l.Audit.Answer
	}
	return s, nil
}
