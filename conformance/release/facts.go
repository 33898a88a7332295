package release

import (
	"bytes"
	_ "embed" // the published-facts registry
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

//go:embed facts.json
var factsJSON []byte

// Fact kinds. Per-type kinds read the gold answers of one question type;
// corpus kinds read the whole corpus.
const (
	// KindRecords: records/train/test counts of the type.
	KindRecords = "records"
	// KindWeights: every record of the type has training_weight == weight.
	KindWeights = "weights"
	// KindValueCounts: how many records have each value at path; with
	// exhaustive, no other value occurs.
	KindValueCounts = "value_counts"
	// KindRange: the minimum and/or maximum of the numbers at path (over
	// the records matching where), each within tol of the published value.
	KindRange = "range"
	// KindCount: the number of records matching every where condition.
	KindCount = "count"
	// KindConstant: every record has value at path (numbers within tol).
	KindConstant = "constant"
	// KindCorpusInventory: records, types, train and test of the corpus.
	KindCorpusInventory = "corpus_inventory"
	// KindPathReferences: declared path references and unique paths.
	KindPathReferences = "path_references"
	// KindSplitIsolation: number of train/test isolation leaks.
	KindSplitIsolation = "split_isolation"
	// KindDuplicateGroups: trajectory_content_group_id groups with more
	// than one record, and the records they cover.
	KindDuplicateGroups = "duplicate_groups"
	// KindReplayExecuted: records whose chain executed.
	KindReplayExecuted = "replay_executed"
	// KindReplayTypesCorrect: types whose every record is correct.
	KindReplayTypesCorrect = "replay_types_correct"
	// KindDeclaredPaths: file cards the type's records declare, per record
	// and/or in total (question handles counted only with
	// include_question).
	KindDeclaredPaths = "declared_paths"
	// KindArtifactsReproduce: records of the type whose generated
	// artifacts have identical SHA-256 digests in two separate replays.
	KindArtifactsReproduce = "artifacts_reproduce"
)

// Fact statuses.
const (
	FactOK           = "ok"
	FactMismatch     = "mismatch"
	FactNotCheckable = "not_checkable"
)

// Cond is one condition on a record. Path is a dot path into the gold
// answer ("evidence.hansen_loss_area_ha"); "#path" is the length of the
// array at path; "@split" and "@training_weight" read the record. Op is
// eq, ne, gt, ge, lt, le (numbers, strings, booleans), is_null, not_null,
// or eq_path (Value names another path whose value must be equal).
type Cond struct {
	// Path is the value tested.
	Path string `json:"path"`
	// Op is the comparison.
	Op string `json:"op"`
	// Value is the operand (a JSON value, or a path for eq_path).
	Value any `json:"value,omitempty"`
}

// Fact is one published per-type or corpus fact, with the exact spec
// sentence it encodes.
type Fact struct {
	// ID is stable: "t01.labels", "corpus.inventory".
	ID string `json:"id"`
	// QuestionType is empty for corpus facts.
	QuestionType string `json:"question_type"`
	// Section names the spec section the quote is in.
	Section string `json:"section"`
	// Quote is the spec sentence (verbatim substring of the spec).
	Quote string `json:"quote"`
	// Kind is one of the Kind* constants.
	Kind string `json:"kind"`

	// Records is a published record count (records, corpus_inventory,
	// duplicate_groups, replay_executed); nil means not published.
	Records *int `json:"records,omitempty"`
	// Train is the published train-split count.
	Train *int `json:"train,omitempty"`
	// Test is the published test-split count.
	Test *int `json:"test,omitempty"`
	// Types is a published number of question types.
	Types *int `json:"types,omitempty"`
	// Weight is the training_weight of every record (weights).
	Weight *float64 `json:"weight,omitempty"`
	// Path is the answer path a value_counts, range or constant fact
	// reads.
	Path string `json:"path,omitempty"`
	// Counts maps a value (as valueKey renders it) to its published count.
	Counts map[string]int `json:"counts,omitempty"`
	// Exhaustive forbids values that Counts does not list.
	Exhaustive bool `json:"exhaustive,omitempty"`
	// Min is the published minimum (nil: not published).
	Min *float64 `json:"min,omitempty"`
	// Max is the published maximum (nil: not published).
	Max *float64 `json:"max,omitempty"`
	// Tol is the accepted difference from the printed value.
	Tol float64 `json:"tol,omitempty"`
	// Where selects the records a count or range fact is about.
	Where []Cond `json:"where,omitempty"`
	// Count is the published number of matching records (count,
	// split_isolation, artifacts_reproduce).
	Count *int `json:"count,omitempty"`
	// Value is the value of a constant fact.
	Value any `json:"value,omitempty"`
	// References is the published number of declared path references.
	References *int `json:"references,omitempty"`
	// Unique is the published number of unique declared paths.
	Unique *int `json:"unique,omitempty"`
	// Groups is the published number of duplicate-trajectory groups.
	Groups *int `json:"groups,omitempty"`
	// PerRecord is the published number of declared paths of every
	// record (declared_paths).
	PerRecord *int `json:"per_record,omitempty"`
	// IncludeQuestion counts the question handle's sidecar among the
	// declared paths, as the sentence does.
	IncludeQuestion bool `json:"include_question,omitempty"`
}

// Facts parses the embedded published-facts registry (facts.json).
func Facts() ([]Fact, error) {
	var doc struct {
		Format string `json:"format"`
		Spec   string `json:"spec"`
		Facts  []Fact `json:"facts"`
	}
	dec := json.NewDecoder(bytes.NewReader(factsJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("published facts registry: %w", err)
	}
	seen := map[string]bool{}
	for _, f := range doc.Facts {
		if f.ID == "" || f.Quote == "" || f.Kind == "" {
			return nil, fmt.Errorf("published facts registry: fact %q lacks id, quote or kind", f.ID)
		}
		if seen[f.ID] {
			return nil, fmt.Errorf("published facts registry: duplicate fact %s", f.ID)
		}
		seen[f.ID] = true
	}
	return doc.Facts, nil
}

// FactResult is one fact checked (or not) against a corpus.
type FactResult struct {
	// ID is the fact's id.
	ID string `json:"id"`
	// QuestionType is the fact's type (empty for corpus facts).
	QuestionType string `json:"question_type,omitempty"`
	// Section is the spec section of the quote.
	Section string `json:"section"`
	// Quote is the spec sentence.
	Quote string `json:"quote"`
	// Kind is the fact's kind.
	Kind string `json:"kind"`
	// Status is ok, mismatch or not_checkable.
	Status string `json:"status"`
	// Expected renders the published value.
	Expected string `json:"expected"`
	// Observed renders the corpus's value.
	Observed string `json:"observed,omitempty"`
	// Detail names the first differing record or field, or why the fact
	// is not checkable.
	Detail string `json:"detail,omitempty"`
}

// CorpusView is what the fact checker reads.
type CorpusView struct {
	// Records are the adapted records with their gold answers.
	Records []workers.Record
	// TrajectoryGroups maps record id to trajectory_content_group_id.
	TrajectoryGroups map[string]string
	// PathReferences and UniquePaths come from the path inventory.
	PathReferences, UniquePaths int
	// Isolation is the split audit (nil when it could not run).
	Isolation *scoring.SplitAudit
	// Replay is the per-type replay tally (nil before or without replay).
	Replay map[string]*TypeReport
}

// NotCheckable returns every fact marked not checkable for reason.
func NotCheckable(facts []Fact, reason string) []FactResult {
	out := make([]FactResult, 0, len(facts))
	for _, f := range facts {
		r := newResult(f)
		r.Status, r.Detail = FactNotCheckable, reason
		out = append(out, r)
	}
	return out
}

func newResult(f Fact) FactResult {
	return FactResult{ID: f.ID, QuestionType: f.QuestionType, Section: f.Section, Quote: f.Quote, Kind: f.Kind, Expected: expected(f)}
}

// CheckFacts checks every fact against the corpus. Callers decide whether
// the corpus may be checked at all (Run checks only a REAL corpus).
func CheckFacts(facts []Fact, cv CorpusView) []FactResult {
	byType := map[string][]*recView{}
	for i := range cv.Records {
		rv, err := newRecView(&cv.Records[i])
		if err != nil {
			rv = &recView{rec: &cv.Records[i], err: err}
		}
		byType[cv.Records[i].QuestionType] = append(byType[cv.Records[i].QuestionType], rv)
	}
	out := make([]FactResult, 0, len(facts))
	for _, f := range facts {
		r := newResult(f)
		var obs, detail string
		var ok, checkable bool
		if f.QuestionType != "" {
			obs, detail, ok, checkable = checkTypeFact(f, byType[f.QuestionType], cv.Replay)
		} else {
			obs, detail, ok, checkable = checkCorpusFact(f, cv)
		}
		r.Observed, r.Detail = obs, detail
		switch {
		case !checkable:
			r.Status = FactNotCheckable
		case ok:
			r.Status = FactOK
		default:
			r.Status = FactMismatch
		}
		out = append(out, r)
	}
	return out
}

// recView is a record with its decoded gold answer.
type recView struct {
	rec    *workers.Record
	answer any
	err    error
}

func newRecView(r *workers.Record) (*recView, error) {
	var v any
	if err := json.Unmarshal(r.Answer, &v); err != nil {
		return nil, fmt.Errorf("record %s: gold answer: %w", r.ID, err)
	}
	return &recView{rec: r, answer: v}, nil
}

// get resolves a fact path on a record.
func (rv *recView) get(path string) (any, bool) {
	switch path {
	case "@split":
		return rv.rec.Split, true
	case "@training_weight":
		return rv.rec.TrainingWeight, true
	}
	if p, ok := strings.CutPrefix(path, "#"); ok {
		v, ok := lookup(rv.answer, p)
		arr, isArr := v.([]any)
		if !ok || !isArr {
			return nil, false
		}
		return float64(len(arr)), true
	}
	return lookup(rv.answer, path)
}

func lookup(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok = m[k]
		if !ok {
			return nil, false
		}
	}
	return v, true
}

// lookup is get with a missing path as an error.
func (rv *recView) lookup(path string) (any, error) {
	v, ok := rv.get(path)
	if !ok {
		return nil, fmt.Errorf("record %s: path %s absent", rv.rec.ID, path)
	}
	return v, nil
}

// value is lookup in a record whose answer decoded.
func (rv *recView) value(path string) (any, error) {
	if rv.err != nil {
		return nil, rv.err
	}
	return rv.lookup(path)
}

// valueKey renders a JSON scalar as a value_counts key.
func valueKey(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// match evaluates a condition; missing paths are reported.
func (rv *recView) match(c Cond) (bool, error) {
	v, err := rv.lookup(c.Path)
	if err != nil {
		return false, err
	}
	switch c.Op {
	case "is_null":
		return v == nil, nil
	case "not_null":
		return v != nil, nil
	case "eq_path":
		other, _ := c.Value.(string)
		w, err := rv.lookup(other)
		if err != nil {
			return false, err
		}
		return equalJSON(v, w, 1e-9), nil
	case "eq":
		return equalJSON(v, c.Value, 1e-9), nil
	case "ne":
		return !equalJSON(v, c.Value, 1e-9), nil
	case "gt", "ge", "lt", "le":
		a, aok := v.(float64)
		b, bok := c.Value.(float64)
		if !aok || !bok {
			return false, nil
		}
		switch c.Op {
		case "gt":
			return a > b, nil
		case "ge":
			return a >= b, nil
		case "lt":
			return a < b, nil
		}
		return a <= b, nil
	}
	return false, fmt.Errorf("unknown condition op %q", c.Op)
}

// equalJSON compares decoded JSON values, numbers within tol.
func equalJSON(a, b any, tol float64) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= tol
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i], tol) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !equalJSON(v, w, tol) {
				return false
			}
		}
		return true
	}
	return a == b
}

// selectWhere returns the records matching every condition, or the first
// evaluation error.
func selectWhere(recs []*recView, where []Cond) ([]*recView, error) {
	var out []*recView
	for _, rv := range recs {
		if rv.err != nil {
			return nil, rv.err
		}
		all := true
		for _, c := range where {
			ok, err := rv.match(c)
			if err != nil {
				return nil, err
			}
			if !ok {
				all = false
				break
			}
		}
		if all {
			out = append(out, rv)
		}
	}
	return out, nil
}

// checkTypeFact checks one per-type fact: observed value, first difference,
// whether it holds and whether it could be checked.
func checkTypeFact(f Fact, recs []*recView, replay map[string]*TypeReport) (string, string, bool, bool) {
	if len(recs) == 0 {
		return "", "the corpus has no record of " + f.QuestionType, false, false
	}
	switch f.Kind {
	case KindArtifactsReproduce:
		t := replay[f.QuestionType]
		if t == nil || t.Repeated == 0 {
			return "", "no second replay of this type in this run", false, false
		}
		return fmt.Sprintf("%d of %d records reproduce", t.Reproduced, t.Repeated), "", intIs(f.Count, t.Reproduced) && t.Reproduced == t.Repeated, true
	case KindDeclaredPaths:
		total := 0
		for _, rv := range recs {
			n := 0
			for _, h := range rv.rec.Handles {
				if h.Kind == workers.KindQuestion && !f.IncludeQuestion {
					continue
				}
				n += len(h.Files)
			}
			if f.PerRecord != nil && n != *f.PerRecord {
				return fmt.Sprintf("%d paths", n), fmt.Sprintf("first differing record %s declares %d paths", rv.rec.ID, n), false, true
			}
			total += n
		}
		obs := fmt.Sprintf("%d path references over %d records", total, len(recs))
		return obs, "", intIs(f.References, total), true
	case KindRecords:
		n, train, test := len(recs), 0, 0
		for _, rv := range recs {
			switch rv.rec.Split {
			case "train":
				train++
			case "test":
				test++
			}
		}
		obs := fmt.Sprintf("%d records, %d train, %d test", n, train, test)
		return obs, "", intIs(f.Records, n) && intIs(f.Train, train) && intIs(f.Test, test), true
	case KindWeights:
		for _, rv := range recs {
			if f.Weight != nil && rv.rec.TrainingWeight != *f.Weight {
				return fmt.Sprintf("training_weight %v", rv.rec.TrainingWeight), "first differing record " + rv.rec.ID, false, true
			}
		}
		return fmt.Sprintf("all %d records weigh %v", len(recs), *f.Weight), "", true, true
	case KindValueCounts:
		counts := map[string]int{}
		for _, rv := range recs {
			v, err := rv.value(f.Path)
			if err != nil {
				return "", err.Error(), false, true
			}
			counts[valueKey(v)]++
		}
		obs := formatCounts(counts)
		for k, want := range f.Counts {
			if counts[k] != want {
				return obs, fmt.Sprintf("%s: %d, published %d", k, counts[k], want), false, true
			}
		}
		if f.Exhaustive {
			for k, n := range counts {
				if _, listed := f.Counts[k]; !listed {
					return obs, fmt.Sprintf("unpublished value %s occurs %d times", k, n), false, true
				}
			}
		}
		return obs, "", true, true
	case KindCount:
		sel, err := selectWhere(recs, f.Where)
		if err != nil {
			return "", err.Error(), false, true
		}
		return strconv.Itoa(len(sel)), "", intIs(f.Count, len(sel)), true
	case KindRange:
		sel, err := selectWhere(recs, f.Where)
		if err != nil {
			return "", err.Error(), false, true
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		var loID, hiID string
		n := 0
		for _, rv := range sel {
			v, err := rv.lookup(f.Path)
			if err != nil {
				return "", err.Error(), false, true
			}
			x, isNum := v.(float64)
			if !isNum {
				continue
			}
			n++
			if x < lo {
				lo, loID = x, rv.rec.ID
			}
			if x > hi {
				hi, hiID = x, rv.rec.ID
			}
		}
		if n == 0 {
			return "no numeric value", "no record has a number at " + f.Path, false, true
		}
		obs := fmt.Sprintf("%s..%s over %d records", fmtNum(lo), fmtNum(hi), n)
		if f.Min != nil && math.Abs(lo-*f.Min) > f.Tol {
			return obs, fmt.Sprintf("minimum %s (record %s), published %s", fmtNum(lo), loID, fmtNum(*f.Min)), false, true
		}
		if f.Max != nil && math.Abs(hi-*f.Max) > f.Tol {
			return obs, fmt.Sprintf("maximum %s (record %s), published %s", fmtNum(hi), hiID, fmtNum(*f.Max)), false, true
		}
		return obs, "", true, true
	case KindConstant:
		for _, rv := range recs {
			v, err := rv.value(f.Path)
			if err != nil {
				return "", err.Error(), false, true
			}
			if !equalJSON(v, f.Value, f.Tol) {
				b, _ := json.Marshal(v)
				return string(b), "first differing record " + rv.rec.ID, false, true
			}
		}
		return fmt.Sprintf("all %d records", len(recs)), "", true, true
	}
	return "", "unknown fact kind " + f.Kind, false, false
}

func checkCorpusFact(f Fact, cv CorpusView) (string, string, bool, bool) {
	switch f.Kind {
	case KindCorpusInventory:
		inv := inventoryOf(cv.Records)
		obs := fmt.Sprintf("%d records, %d types, %d train, %d test", inv.Records, inv.Types, inv.Train, inv.Test)
		ok := intIs(f.Records, inv.Records) && intIs(f.Types, inv.Types) && intIs(f.Train, inv.Train) && intIs(f.Test, inv.Test)
		return obs, "", ok, true
	case KindPathReferences:
		obs := fmt.Sprintf("%d references, %d unique paths", cv.PathReferences, cv.UniquePaths)
		return obs, "", intIs(f.References, cv.PathReferences) && intIs(f.Unique, cv.UniquePaths), true
	case KindSplitIsolation:
		if cv.Isolation == nil {
			return "", "the split audit could not run", false, false
		}
		n := len(cv.Isolation.Leaks)
		detail := ""
		if n > 0 {
			l := cv.Isolation.Leaks[0]
			detail = fmt.Sprintf("first leak: %s %q shared by train and test", l.Kind, l.Key)
		}
		return fmt.Sprintf("%d leaks", n), detail, intIs(f.Count, n), true
	case KindDuplicateGroups:
		if len(cv.TrajectoryGroups) == 0 {
			if cv.Isolation == nil {
				return "", "no record carries trajectory_content_group_id and the split audit could not run", false, false
			}
			a := cv.Isolation
			return fmt.Sprintf("%d groups covering %d records", a.DuplicateGroups, a.DuplicateRecords),
				"no record carries trajectory_content_group_id; counted from the split audit's complete-trajectory fingerprints",
				intIs(f.Groups, a.DuplicateGroups) && intIs(f.Records, a.DuplicateRecords), true
		}
		members := map[string]int{}
		for _, g := range cv.TrajectoryGroups {
			members[g]++
		}
		groups, recs := 0, 0
		for _, n := range members {
			if n > 1 {
				groups++
				recs += n
			}
		}
		return fmt.Sprintf("%d groups covering %d records", groups, recs), "", intIs(f.Groups, groups) && intIs(f.Records, recs), true
	case KindReplayExecuted, KindReplayTypesCorrect:
		if cv.Replay == nil {
			return "", "no replay in this run", false, false
		}
		executed, records, typesCorrect := 0, 0, 0
		for _, t := range cv.Replay {
			executed += t.Executed
			records += t.Records
			if t.Records > 0 && t.Correct == t.Records {
				typesCorrect++
			}
		}
		if f.Kind == KindReplayExecuted {
			return fmt.Sprintf("%d/%d executed", executed, records), "", intIs(f.Records, executed) && records == executed, true
		}
		return fmt.Sprintf("%d types fully correct", typesCorrect), "", intIs(f.Types, typesCorrect), true
	}
	return "", "unknown fact kind " + f.Kind, false, false
}

func intIs(want *int, got int) bool { return want == nil || *want == got }

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func formatCounts(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

// expected renders what a fact publishes.
func expected(f Fact) string {
	switch f.Kind {
	case KindRecords, KindCorpusInventory:
		s := fmt.Sprintf("%s records, %s train, %s test", optInt(f.Records), optInt(f.Train), optInt(f.Test))
		if f.Types != nil {
			s += fmt.Sprintf(", %d types", *f.Types)
		}
		return s
	case KindWeights:
		return fmt.Sprintf("training_weight %v for every record", optFloat(f.Weight))
	case KindValueCounts:
		s := f.Path + ": " + formatCounts(f.Counts)
		if f.Exhaustive {
			s += " (no other value)"
		}
		return s
	case KindCount:
		return fmt.Sprintf("%s records where %s", optInt(f.Count), formatWhere(f.Where))
	case KindRange:
		s := fmt.Sprintf("%s in [%s, %s] (tolerance %v)", f.Path, optFloat(f.Min), optFloat(f.Max), f.Tol)
		if len(f.Where) > 0 {
			s += " where " + formatWhere(f.Where)
		}
		return s
	case KindConstant:
		b, _ := json.Marshal(f.Value)
		return fmt.Sprintf("%s == %s in every record", f.Path, b)
	case KindPathReferences:
		return fmt.Sprintf("%s references, %s unique paths", optInt(f.References), optInt(f.Unique))
	case KindSplitIsolation:
		return fmt.Sprintf("%s leaks", optInt(f.Count))
	case KindDuplicateGroups:
		return fmt.Sprintf("%s groups covering %s records", optInt(f.Groups), optInt(f.Records))
	case KindReplayExecuted:
		return fmt.Sprintf("%s/%s executed", optInt(f.Records), optInt(f.Records))
	case KindReplayTypesCorrect:
		return fmt.Sprintf("%s types fully correct", optInt(f.Types))
	case KindArtifactsReproduce:
		return fmt.Sprintf("%s records whose artifact digests reproduce in a second replay", optInt(f.Count))
	case KindDeclaredPaths:
		s := fmt.Sprintf("%s path references, %s per record", optInt(f.References), optInt(f.PerRecord))
		if f.IncludeQuestion {
			s += " (question sidecar included)"
		} else {
			s += " (question sidecar excluded)"
		}
		return s
	}
	return ""
}

func formatWhere(w []Cond) string {
	parts := make([]string, len(w))
	for i, c := range w {
		if c.Op == "is_null" || c.Op == "not_null" {
			parts[i] = c.Path + " " + c.Op
			continue
		}
		b, _ := json.Marshal(c.Value)
		parts[i] = fmt.Sprintf("%s %s %s", c.Path, c.Op, b)
	}
	return strings.Join(parts, " and ")
}

func optInt(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmtNum(*p)
}

// inventoryOf counts records, distinct types and splits.
func inventoryOf(recs []workers.Record) Inventory {
	var inv Inventory
	types := map[string]bool{}
	for _, r := range recs {
		inv.Records++
		types[r.QuestionType] = true
		switch r.Split {
		case "train":
			inv.Train++
		case "test":
			inv.Test++
		default:
			inv.OtherSplit++
		}
	}
	inv.Types = len(types)
	return inv
}
