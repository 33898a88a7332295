package scoring

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
)

// GoldRecord is one gold line: a canonical record or any JSON object with
// id, question_type, answer and optionally family. Other fields (question,
// handles, gt_chain, ...) are ignored.
type GoldRecord struct {
	ID           string
	QuestionType string
	Family       string // "" when the line has none
	Answer       any    // decoded as by DecodeJSON
	Line         int    // 1-based line number
}

// Prediction is one prediction line: {"id","answer"} or a replay
// results.jsonl line {"id","question_type","family","status","answer",
// "correct","error"}. Only id, answer, status and error are used; a
// prediction's own "correct" field is never trusted.
type Prediction struct {
	ID        string
	Answer    any
	HasAnswer bool   // the line has an "answer" member (possibly null)
	Status    string // "" when absent
	Error     string // the line's "error" string, if any
	Malformed string // non-empty when the line is not valid JSON but its id could be read
	Line      int    // 1-based line number
}

// PredictionSet is a parsed prediction file.
type PredictionSet struct {
	// ByID maps an id to its only prediction.
	ByID map[string]Prediction
	// Duplicates lists ids that occur on more than one line; such ids
	// are scored incorrect ("duplicate prediction").
	Duplicates []string
	// Unparsed lists 1-based line numbers that could not be attributed to
	// any id (not JSON, and no readable "id").
	Unparsed []int
}

// InputError reports an unreadable or invalid gold or prediction file.
type InputError struct {
	Source string // "gold" or "predictions"
	Line   int    // 1-based; 0 when not line-specific
	Err    error
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d: %v", e.Source, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Source, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// eachLine calls fn with every non-blank line of r and its 1-based number.
// Lines may be arbitrarily long; a UTF-8 byte order mark opening the first
// line is dropped.
func eachLine(r io.Reader, fn func(line []byte, n int) error) error {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line, n); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read line %d: %w", n, err)
		}
	}
}

// eachObject calls fn with each non-blank line of r decoded as a JSON
// object. Every error it returns is an *InputError naming input (a line
// that is not a JSON object, fn's own, or a failed read, at line 0).
func eachObject(r io.Reader, input string, fn func(obj map[string]any, n int) error) error {
	return asInputError(input, eachLine(r, func(line []byte, n int) error {
		v, err := DecodeJSON(line)
		if err != nil {
			return &InputError{input, n, err}
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return &InputError{input, n, errors.New("not a JSON object")}
		}
		return fn(obj, n)
	}))
}

// asInputError is err as an *InputError of input (line 0 when it is not
// one already).
func asInputError(input string, err error) error {
	var ie *InputError
	if err == nil || errors.As(err, &ie) {
		return err
	}
	return &InputError{input, 0, err}
}

// ReadGold reads gold JSONL. Every non-blank line must be a JSON object
// with a string id, a string question_type and an answer member; ids must
// be unique. Any violation is an *InputError.
func ReadGold(r io.Reader) ([]GoldRecord, error) {
	var out []GoldRecord
	seen := map[string]int{}
	err := eachObject(r, "gold", func(obj map[string]any, n int) error {
		var ok bool
		g := GoldRecord{Line: n}
		if g.ID, ok = obj["id"].(string); !ok || g.ID == "" {
			return &InputError{"gold", n, errors.New("missing or non-string id")}
		}
		if g.QuestionType, ok = obj["question_type"].(string); !ok || g.QuestionType == "" {
			return &InputError{"gold", n, fmt.Errorf("record %s: missing or non-string question_type", g.ID)}
		}
		if f, present := obj["family"]; present && f != nil {
			if g.Family, ok = f.(string); !ok {
				return &InputError{"gold", n, fmt.Errorf("record %s: non-string family", g.ID)}
			}
		}
		if g.Answer, ok = obj["answer"]; !ok {
			return &InputError{"gold", n, fmt.Errorf("record %s: no answer member", g.ID)}
		}
		if first, dup := seen[g.ID]; dup {
			return &InputError{"gold", n, fmt.Errorf("duplicate id %s (first on line %d)", g.ID, first)}
		}
		seen[g.ID] = n
		out = append(out, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// idPattern finds a JSON "id" member in a line that is not valid JSON.
var idPattern = regexp.MustCompile(`"id"\s*:\s*("(?:[^"\\]|\\.)*")`)

// ReadPredictions reads prediction JSONL. Lines that are not valid JSON
// (including bare NaN tokens in a broken document) are kept as malformed
// predictions when their id can still be read, else listed in Unparsed; a
// line only fails the whole read when the stream itself cannot be read.
func ReadPredictions(r io.Reader) (*PredictionSet, error) {
	ps := &PredictionSet{ByID: map[string]Prediction{}}
	dup := map[string]bool{}
	err := eachLine(r, func(line []byte, n int) error {
		p, ok := parsePrediction(line, n)
		if !ok {
			ps.Unparsed = append(ps.Unparsed, n)
			return nil
		}
		if _, seen := ps.ByID[p.ID]; seen {
			if !dup[p.ID] {
				dup[p.ID] = true
				ps.Duplicates = append(ps.Duplicates, p.ID)
			}
			return nil
		}
		ps.ByID[p.ID] = p
		return nil
	})
	if err != nil {
		return nil, &InputError{"predictions", 0, err}
	}
	return ps, nil
}

func parsePrediction(line []byte, n int) (Prediction, bool) {
	p := Prediction{Line: n}
	v, err := DecodeJSON(line)
	if err != nil {
		m := idPattern.FindSubmatch(line)
		if m == nil {
			return p, false
		}
		id, qerr := strconv.Unquote(string(m[1]))
		if qerr != nil || id == "" {
			return p, false
		}
		p.ID, p.Malformed = id, err.Error()
		return p, true
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return p, false
	}
	if p.ID, ok = obj["id"].(string); !ok || p.ID == "" {
		return p, false
	}
	p.Answer, p.HasAnswer = obj["answer"]
	if s, ok := obj["status"].(string); ok {
		p.Status = s
	} else if st, present := obj["status"]; present && st != nil {
		p.Status = "non-string status " + describe(st)
	}
	if e, ok := obj["error"].(string); ok {
		p.Error = e
	}
	return p, true
}

// RecordResult is the outcome for one gold record.
type RecordResult struct {
	ID           string `json:"id"`
	QuestionType string `json:"question_type"`
	Family       string `json:"family"`
	Predicted    bool   `json:"predicted"`
	Correct      bool   `json:"correct"`
	Path         string `json:"path"`   // "" when correct
	Reason       string `json:"reason"` // "" when correct
}

// Tally counts records with their denominators.
type Tally struct {
	// Records is the number of gold records (the denominator).
	Records int `json:"records"`
	// Predicted is how many of them have a usable prediction line.
	Predicted int `json:"predicted"`
	// Correct is how many are correct under the scorer.
	Correct int `json:"correct"`
}

// Report is the result of scoring a prediction set against gold. It has
// per-record, per-type and per-family results with denominators and
// deliberately no overall score.
type Report struct {
	Scorer   string           `json:"scorer"`
	Policy   string           `json:"policy"`
	Records  []RecordResult   `json:"records"`
	ByType   map[string]Tally `json:"by_type"`
	ByFamily map[string]Tally `json:"by_family"`
	// UnknownPredictions lists prediction ids absent from gold.
	UnknownPredictions []string `json:"unknown_predictions"`
	// DuplicatePredictions lists ids predicted on several lines.
	DuplicatePredictions []string `json:"duplicate_predictions"`
	// UnparsedPredictionLines lists prediction lines with no readable id.
	UnparsedPredictionLines []int `json:"unparsed_prediction_lines"`
}

// Reasons for records that could not be compared.
const (
	ReasonMissingPrediction   = "missing prediction"
	ReasonDuplicatePrediction = "duplicate prediction"
	ReasonNoAnswer            = "no answer"
	ReasonStatus              = "prediction status"
)

// ScoreSet scores every gold record against its prediction under the
// policy. A gold record whose question type is not in the policy, or whose
// family disagrees with the policy's, is an error; everything about the
// predictions (missing, duplicate, malformed, non-ok status, NaN) only
// makes records incorrect.
func ScoreSet(p *Policy, gold []GoldRecord, preds *PredictionSet) (*Report, error) {
	rep := &Report{
		Scorer:                  StructuredV2,
		Policy:                  p.Name,
		Records:                 make([]RecordResult, 0, len(gold)),
		ByType:                  map[string]Tally{},
		ByFamily:                map[string]Tally{},
		UnknownPredictions:      []string{},
		DuplicatePredictions:    append([]string{}, preds.Duplicates...),
		UnparsedPredictionLines: append([]int{}, preds.Unparsed...),
	}
	dup := map[string]bool{}
	for _, id := range preds.Duplicates {
		dup[id] = true
	}
	inGold := make(map[string]bool, len(gold))
	for _, g := range gold {
		inGold[g.ID] = true
		tp, err := p.ForType(g.QuestionType)
		if err != nil {
			return nil, &InputError{"gold", g.Line, fmt.Errorf("record %s: %w", g.ID, err)}
		}
		if g.Family != "" && g.Family != tp.Family {
			return nil, &InputError{"gold", g.Line, fmt.Errorf("record %s: family %q, but the policy puts %s in %q", g.ID, g.Family, g.QuestionType, tp.Family)}
		}
		res := RecordResult{ID: g.ID, QuestionType: g.QuestionType, Family: tp.Family}
		pr, ok := preds.ByID[g.ID]
		switch {
		case !ok:
			res.Path, res.Reason = "$", ReasonMissingPrediction
		case dup[g.ID]:
			res.Predicted = true
			res.Path, res.Reason = "$", ReasonDuplicatePrediction+": the id occurs on more than one prediction line"
		case pr.Malformed != "":
			res.Predicted = true
			res.Path, res.Reason = "$", ReasonMalformed+": "+pr.Malformed
		case pr.Status != "" && pr.Status != "ok":
			res.Predicted = true
			res.Path, res.Reason = "$", fmt.Sprintf("%s: %s", ReasonStatus, pr.Status)
			if pr.Error != "" {
				res.Reason += ": " + pr.Error
			}
		case !pr.HasAnswer:
			res.Predicted = true
			res.Path, res.Reason = "$", ReasonNoAnswer+": the prediction line has no answer member"
		default:
			res.Predicted = true
			v := ScoreV2Values(g.Answer, pr.Answer, tp.AbsTolerance)
			res.Correct, res.Path, res.Reason = v.Correct, v.Path, v.Reason
		}
		rep.Records = append(rep.Records, res)
		for _, m := range []struct {
			tab map[string]Tally
			key string
		}{{rep.ByType, res.QuestionType}, {rep.ByFamily, res.Family}} {
			t := m.tab[m.key]
			t.Records++
			if res.Predicted {
				t.Predicted++
			}
			if res.Correct {
				t.Correct++
			}
			m.tab[m.key] = t
		}
	}
	for id := range preds.ByID {
		if !inGold[id] {
			rep.UnknownPredictions = append(rep.UnknownPredictions, id)
		}
	}
	sort.Strings(rep.UnknownPredictions)
	return rep, nil
}
