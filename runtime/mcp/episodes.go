package mcp

import (
	"bytes"
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

	"github.com/geodisaster/engine/internal/atomicfile"
	"github.com/geodisaster/engine/internal/jsonl"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
)

// FormatSessionRecord is the format of a served session's record.
const FormatSessionRecord = "geodisaster_served_session_v1"

// SessionRecord is what the runtime keeps of a served session beside its
// episode: how it ended, the answer the reference resolved to (what the
// evaluator scores; the episode, as the model saw it, holds only the
// reference), the runtime's audit and the session's usage. It is written
// as DIR/<record id>/<session id>.session.json.
type SessionRecord struct {
	Format       string    `json:"format"`
	ID           string    `json:"id"`
	SampleID     string    `json:"sample_id,omitempty"`
	Family       string    `json:"family"`
	QuestionType string    `json:"question_type"`
	SessionID    string    `json:"session_id"`
	Agent        Agent     `json:"agent"`
	End          string    `json:"end"`
	Opened       time.Time `json:"opened"`
	Ended        time.Time `json:"ended"`
	// Episode is the file name, beside this record, of the session's
	// episode row; EpisodeFormat its row type. An answered session has
	// one; a session that ended without an answer has none (an episode
	// ends with the terminal action).
	Episode       string `json:"episode,omitempty"`
	EpisodeFormat string `json:"episode_format,omitempty"`
	// EpisodeError says why an answered session has no episode.
	EpisodeError string `json:"episode_error,omitempty"`
	// AnswerRef is the reference the terminal action resolved, and Answer
	// the resolved, revalidated answer (null without one).
	AnswerRef string              `json:"answer_ref,omitempty"`
	Answer    json.RawMessage     `json:"answer"`
	Clients   []ClientInfo        `json:"clients"`
	Usage     Usage               `json:"usage"`
	Calls     []runtime.CallTrace `json:"calls"`
	Denials   []runtime.Denial    `json:"denials"`
	Refusals  []Refusal           `json:"refusals"`
}

// EpisodeDir writes each ended session into a directory: its episode row
// (runtime/episode's single- or multi-agent format, validated against its
// schema) as DIR/<record id>/<session id>.jsonl, then its SessionRecord as
// DIR/<record id>/<session id>.session.json. Both are written atomically
// (a temporary file renamed into place), the record last, so a record
// naming an episode means the episode is complete.
type EpisodeDir struct {
	dir string
	val *episode.Validator
}

// NewEpisodeDir returns the writer of dir (created when missing).
func NewEpisodeDir(dir string) (*EpisodeDir, error) {
	if dir == "" {
		return nil, errors.New("episode directory: no directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("episode directory: %w", err)
	}
	val, err := episode.NewValidator()
	if err != nil {
		return nil, err
	}
	return &EpisodeDir{dir: dir, val: val}, nil
}

var _ EpisodeWriter = (*EpisodeDir)(nil)

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// Paths returns where EpisodeDir writes the episode and the session
// record of a session.
func (d *EpisodeDir) Paths(recordID, sessionID string) (episodePath, recordPath string) {
	stem := filepath.Join(d.dir, unsafeName.ReplaceAllString(recordID, "_"), unsafeName.ReplaceAllString(sessionID, "_"))
	return stem + ".jsonl", stem + ".session.json"
}

// WriteEpisode implements EpisodeWriter. An answered session whose
// episode cannot be built still gets its session record (with the reason
// in episode_error), and the error is returned.
func (d *EpisodeDir) WriteEpisode(l *SessionLog) error {
	epPath, recPath := d.Paths(l.Record.ID, l.SessionID)
	if err := os.MkdirAll(filepath.Dir(recPath), 0o755); err != nil {
		return err
	}
	sr := SessionRecord{
		Format: FormatSessionRecord, ID: l.Record.ID, SampleID: l.Record.SampleID, Family: l.Record.Family,
		QuestionType: l.Record.QuestionType, SessionID: l.SessionID, Agent: l.Agent, End: l.End,
		Opened: l.Opened.UTC(), Ended: l.Ended.UTC(), Answer: json.RawMessage("null"),
		Clients: nonNil(l.Clients), Usage: l.Usage, Calls: nonNil(l.Audit.Calls), Denials: nonNil(l.Audit.Denials), Refusals: nonNil(l.Audit.Refusals),
	}
	var epErr error
	if a := bytes.TrimSpace(l.Audit.Answer); len(a) > 0 && !bytes.Equal(a, []byte("null")) {
		sr.AnswerRef, sr.Answer = runtime.AnswerRef, l.Audit.Answer
		if line, err := EpisodeLine(d.val, l); err != nil {
			epErr = fmt.Errorf("episode of session %s (record %s): %w", l.SessionID, l.Record.ID, err)
		} else if err := writeLine(epPath, line); err != nil {
			epErr = err
		} else {
			sr.Episode, sr.EpisodeFormat = filepath.Base(epPath), string(line.Type())
		}
		if epErr != nil {
			sr.EpisodeError = epErr.Error()
		}
	}
	b, err := json.Marshal(sr)
	if err != nil {
		return errors.Join(epErr, fmt.Errorf("session record %s: %w", l.SessionID, err))
	}
	return errors.Join(epErr, writeFileAtomic(recPath, append(b, '\n')))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeLine writes a one-row JSON Lines file.
func writeLine(path string, line episode.Line) error {
	w, err := episode.Create(path, line.Type())
	if err != nil {
		return err
	}
	if err := w.WriteLine(line); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it into place.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, 0o644, false); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// EpisodeSummary is what scoring needs of one served session.
type EpisodeSummary struct {
	// Path is the session record's file.
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

// ReadEpisodeDir reads every session record (*.session.json, at any
// depth; hidden files such as a half-written temporary are skipped) under
// dir and checks the episode each names: present beside it, one row that
// validates against its schema, of the same record. The summaries are
// sorted by record id, then by when the session opened, then by session
// id. A file that is not a session record, or a missing or invalid
// episode, is an error naming the file.
func ReadEpisodeDir(dir string) ([]EpisodeSummary, error) {
	val, err := episode.NewValidator()
	if err != nil {
		return nil, err
	}
	var out []EpisodeSummary
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
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
		if d.IsDir() || !strings.HasSuffix(name, ".session.json") {
			return nil
		}
		s, err := readSessionRecord(val, path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
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

func readSessionRecord(val *episode.Validator, path string) (EpisodeSummary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return EpisodeSummary{}, err
	}
	var sr SessionRecord
	if err := json.Unmarshal(b, &sr); err != nil {
		return EpisodeSummary{}, fmt.Errorf("not a session record: %w", err)
	}
	if sr.Format != FormatSessionRecord || sr.ID == "" || sr.SessionID == "" {
		return EpisodeSummary{}, fmt.Errorf("not a session record (format %q, want %s, with id and session_id)", sr.Format, FormatSessionRecord)
	}
	s := EpisodeSummary{Path: path, RecordID: sr.ID, SessionID: sr.SessionID, Opened: sr.Opened, End: sr.End}
	if t := bytes.TrimSpace(sr.Answer); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		s.Answer = sr.Answer
	}
	if sr.Episode == "" {
		return s, nil
	}
	if sr.Episode != filepath.Base(sr.Episode) {
		return EpisodeSummary{}, fmt.Errorf("episode %q is not a file name beside the record", sr.Episode)
	}
	ep, err := os.ReadFile(filepath.Join(filepath.Dir(path), sr.Episode))
	if err != nil {
		return EpisodeSummary{}, fmt.Errorf("its episode: %w", err)
	}
	rows := 0
	err = jsonl.Scan(bytes.NewReader(ep), func(n int, line []byte) error {
		rows++
		if err := val.Validate(episode.RowType(sr.EpisodeFormat), line); err != nil {
			return fmt.Errorf("episode %s line %d: %w", sr.Episode, n, err)
		}
		var id struct {
			ID        string `json:"id"`
			AnswerRef string `json:"answer_ref"`
		}
		if err := json.Unmarshal(line, &id); err != nil || id.ID != sr.ID || id.AnswerRef != sr.AnswerRef {
			return fmt.Errorf("episode %s is of record %q with answer_ref %q, the session record of %q with %q", sr.Episode, id.ID, id.AnswerRef, sr.ID, sr.AnswerRef)
		}
		return nil
	})
	if err != nil {
		return EpisodeSummary{}, err
	}
	if rows != 1 {
		return EpisodeSummary{}, fmt.Errorf("episode %s has %d rows, want 1", sr.Episode, rows)
	}
	return s, nil
}
