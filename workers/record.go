package workers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/geodisaster/engine/internal/jsonl"
)

// Record is one benchmark record in the engine's record format (one JSON
// object per line of a .jsonl file; see docs/records.md):
//
//	{"id", "sample_id", "family", "question_type", "split", "training_weight",
//	 "question", "handles": {name: {"kind", "files": [FileCard...]}},
//	 "gt_chain": [{"tool", "args", "output"}...], "answer": ...}
//
// The test-input projection (TestInput) drops answer, gt_chain and
// provenance.
type Record struct {
	ID             string  `json:"id"`
	SampleID       string  `json:"sample_id"`
	Family         string  `json:"family"`
	QuestionType   string  `json:"question_type"`
	Split          string  `json:"split,omitempty"`
	TrainingWeight float64 `json:"training_weight,omitempty"`
	SplitGroupID   string  `json:"split_group_id,omitempty"`
	// TrajectoryContentGroupID groups records whose complete model-visible
	// single-agent episodes are identical (spec section 6); the dataset
	// projections compute it when the record does not carry it.
	TrajectoryContentGroupID string                `json:"trajectory_content_group_id,omitempty"`
	Question                 string                `json:"question"`
	Handles                  map[string]HandleDecl `json:"handles"`
	GTChain                  []Step                `json:"gt_chain,omitempty"`
	Answer                   json.RawMessage       `json:"answer,omitempty"`
	Provenance               json.RawMessage       `json:"provenance,omitempty"`
}

// FileCard is one declared file of a handle: a repository-relative path and
// the metadata the record declares for it.
type FileCard struct {
	Path         string         `json:"path"`
	SHA256       string         `json:"sha256,omitempty"`
	Date         string         `json:"date,omitempty"`
	TemporalRole string         `json:"temporal_role,omitempty"`
	Epoch        string         `json:"epoch,omitempty"`
	BandNames    []string       `json:"band_names,omitempty"`
	Meta         map[string]any `json:"meta,omitempty"`
}

// HandleDecl declares one initial handle of a record.
type HandleDecl struct {
	Kind  string     `json:"kind"`
	Files []FileCard `json:"files"`
}

// Step is one call of a GT chain.
type Step struct {
	Tool   string         `json:"tool"`
	Args   map[string]any `json:"args"`
	Output string         `json:"output,omitempty"`
}

// RecordError reports an invalid record, naming the line and field.
type RecordError struct {
	Line  int
	ID    string
	Field string
	Err   error
}

func (e *RecordError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.ID != "" {
		fmt.Fprintf(&b, "record %q: ", e.ID)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *RecordError) Unwrap() error { return e.Err }

// isHandleName reports whether name matches ^[a-z][a-z0-9_]*_[0-9]+$ (a
// lowercase name, an underscore, a number: "optical_stack_1"); checked by
// hand because a regexp was a sixth of decoding a records file.
func isHandleName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	digits := 0
	for digits < len(name) && isDigit(name[len(name)-1-digits]) {
		digits++
	}
	// The digits follow an underscore, which the leading letter is not.
	rest := len(name) - digits
	if digits == 0 || name[rest-1] != '_' {
		return false
	}
	for i := 1; i < rest; i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isSHA256Hex reports whether s matches ^[0-9a-f]{64}$.
func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(isDigit(c) || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Validate checks a record's required fields. withGold also requires the
// GT chain and answer.
func (r *Record) Validate(withGold bool) error {
	fail := func(field, format string, a ...any) error {
		return &RecordError{ID: r.ID, Field: field, Err: fmt.Errorf(format, a...)}
	}
	if r.ID == "" {
		return fail("id", "missing")
	}
	qt, ok := LookupQuestionType(r.QuestionType)
	if !ok {
		return fail("question_type", "unknown question type %q", r.QuestionType)
	}
	if r.Family != string(qt.Family) {
		return fail("family", "%q does not match question type %s (family %s)", r.Family, r.QuestionType, qt.Family)
	}
	if r.Split != "" && r.Split != "train" && r.Split != "test" {
		return fail("split", "must be train or test, got %q", r.Split)
	}
	if math.IsNaN(r.TrainingWeight) || r.TrainingWeight < 0 {
		return fail("training_weight", "must be a non-negative number")
	}
	if len(r.Handles) == 0 {
		return fail("handles", "missing")
	}
	questions := 0
	for name, h := range r.Handles {
		if !isHandleName(name) {
			return fail("handles", "handle name %q must look like name_1", name)
		}
		switch h.Kind {
		case KindQuestion:
			questions++
		case KindInput:
		default:
			return fail("handles."+name+".kind", "must be question or input, got %q", h.Kind)
		}
		if len(h.Files) == 0 {
			return fail("handles."+name+".files", "no file cards")
		}
		for i, f := range h.Files {
			if err := CheckRelativePath(f.Path); err != nil {
				return fail(fmt.Sprintf("handles.%s.files[%d].path", name, i), "%v", err)
			}
			if f.SHA256 != "" && !isSHA256Hex(f.SHA256) {
				return fail(fmt.Sprintf("handles.%s.files[%d].sha256", name, i), "must be 64 lowercase hex digits")
			}
		}
	}
	if questions != 1 {
		return fail("handles", "want exactly one question handle, got %d", questions)
	}
	if !withGold {
		return nil
	}
	if len(r.GTChain) == 0 {
		return fail("gt_chain", "missing")
	}
	for i, s := range r.GTChain {
		if s.Tool == "" {
			return fail(fmt.Sprintf("gt_chain[%d].tool", i), "missing")
		}
	}
	if a := bytes.TrimSpace(r.Answer); len(a) == 0 || string(a) == "null" {
		return fail("answer", "missing")
	}
	return nil
}

// CheckRelativePath reports whether p is a clean repository-relative path:
// not empty, not absolute, no backslashes, no "." or ".." elements.
func CheckRelativePath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || (len(p) > 1 && p[1] == ':'):
		return fmt.Errorf("path %q is not repository-relative", p)
	case strings.ContainsRune(p, 0):
		return fmt.Errorf("path %q contains NUL", p)
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return fmt.Errorf("path %q has an empty, '.' or '..' element", p)
		}
	}
	return nil
}

// TestInput returns the gold-free projection of a record: no answer, GT
// chain or provenance.
func (r Record) TestInput() Record {
	r.GTChain = nil
	r.Answer = nil
	r.Provenance = nil
	return r
}

// ReadRecords reads JSONL records from r; withGold requires GT chains and
// answers. Blank lines are skipped. Errors name the line and field.
func ReadRecords(r io.Reader, withGold bool) ([]Record, error) {
	var out []Record
	seen := map[string]int{}
	var recErr error // the first bad record, as opposed to a read error
	err := jsonl.Scan(r, func(line int, b []byte) error {
		var rec Record
		if recErr = decodeRecord(b, line, withGold, &rec); recErr != nil {
			return recErr
		}
		if prev, dup := seen[rec.ID]; dup {
			recErr = &RecordError{Line: line, ID: rec.ID, Field: "id", Err: fmt.Errorf("duplicate of line %d", prev)}
			return recErr
		}
		seen[rec.ID] = line
		out = append(out, rec)
		return nil
	})
	if recErr != nil {
		return nil, recErr
	}
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	return out, nil
}

// decodeRecord decodes and validates line number line of a records file
// into rec.
func decodeRecord(b []byte, line int, withGold bool, rec *Record) error {
	// goccy/go-json decodes as encoding/json does, about twice as fast:
	// decoding the records was a tenth of a small replay's CPU.
	if err := gojson.Unmarshal(b, rec); err != nil {
		var te *gojson.UnmarshalTypeError
		if errors.As(err, &te) {
			return &RecordError{Line: line, Field: te.Field, Err: fmt.Errorf("wrong JSON type: %v", err)}
		}
		return &RecordError{Line: line, Err: fmt.Errorf("malformed JSON: %w", err)}
	}
	if err := rec.Validate(withGold); err != nil {
		var re *RecordError
		if errors.As(err, &re) {
			re.Line = line
		}
		return err
	}
	return nil
}

// ReadRecordsFile reads a JSONL records file.
func ReadRecordsFile(path string, withGold bool) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := ReadRecords(f, withGold)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// WriteRecords writes records as JSONL.
func WriteRecords(w io.Writer, recs []Record) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("record %q: %w", recs[i].ID, err)
		}
	}
	return nil
}
