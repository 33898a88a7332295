package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/geodisaster/engine/internal/jsonl"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// AnswerRef is the only terminal answer reference the release uses (spec
// section 6: "All 2,921 multi-agent records and all 2,921 single-agent
// records use `ANSWER_JSON:answer_1`.").
const AnswerRef = runtime.AnswerRef

// GeneratedArtifactScheme prefixes the logical locators of non-distributed
// replay products (spec section 6).
const GeneratedArtifactScheme = "generated-artifact://"

// FieldMapping is one row of the adapter's mapping table: a canonical
// field, where it goes in workers.Record and by which rule.
type FieldMapping struct {
	// Canonical is the field of a canonical record ("a.b[].c" for nested
	// fields).
	Canonical string `json:"canonical"`
	// Target is the workers.Record field (or "-" when the value is only
	// checked or carried to an audit).
	Target string `json:"target"`
	// Rule says how the value is mapped.
	Rule string `json:"rule"`
}

// MappingTable returns the adapter's mapping table. Any field of a canonical
// record not listed here is reported by Adapt as unmapped.
func MappingTable() []FieldMapping {
	return []FieldMapping{
		{"id", "ID", "as is; required, unique"},
		{"sample_id", "SampleID", "as is"},
		{"question_type", "QuestionType", "as is; one of the 43 ids"},
		{"family", "Family", "as is; when absent, derived from question_type through the 43-type table (reported as derived)"},
		{"split", "Split", "as is (train | test)"},
		{"training_weight", "TrainingWeight", "as is"},
		{"split_group_id", "SplitGroupID", "as is"},
		{"trajectory_content_group_id", "-", "carried to the split-isolation audit and the duplicate-group fact; workers.Record has no such field"},
		{"question", "Question", "as is"},
		{"handles", "Handles", "object of handle name to {kind, files}; files may be path strings or file cards; a bare list or a single path string is the file list; kind absent: question for names starting with \"question\", otherwise input (reported as derived)"},
		{"handles.*.files[].path", "FileCard.Path", "as is; must be repository-relative; a generated-artifact:// locator is an adapter error (not a readable file)"},
		{"handles.*.files[].{sha256,date,temporal_role,epoch,band_names,meta}", "FileCard", "as is"},
		{"gt_chain[]", "GTChain", "objects {tool, args, output} as is; strings \"Tool(a, k=v)\" parsed by ParseCall (output left empty)"},
		{"tool_sequence", "-", "tool names cross-checked against gt_chain; alone it cannot be replayed (no arguments)"},
		{"answer", "Answer", "as is"},
		{"expected_answer", "Answer", "the spec's wording for the gold answer; used when answer is absent"},
		{"answer_ref", "-", "must equal ANSWER_JSON:answer_1 (the runtime resolves that reference)"},
		{"final_answer_ref", "-", "must equal ANSWER_JSON:answer_1"},
		{"provenance", "Provenance", "as is; dropped from sessions"},
		{"correction_provenance", "-", "ignored: spec section 2 says it names a historical pass and does not select the evaluator"},
	}
}

// UnmappedField is a canonical field the adapter could not map.
type UnmappedField struct {
	// Field is the canonical field ("handles.*.files[].exists").
	Field string `json:"field"`
	// Records is how many records carry it.
	Records int `json:"records"`
	// FirstID is the first record that carries it.
	FirstID string `json:"first_id"`
}

// DerivedField is a field the adapter filled by a documented rule because
// the canonical record did not carry it.
type DerivedField struct {
	// Field is the workers.Record field filled.
	Field string `json:"field"`
	// Rule is how it was filled.
	Rule string `json:"rule"`
	// Records counts the records it was filled for.
	Records int `json:"records"`
}

// AdaptError is a record the adapter could not turn into a valid
// workers.Record.
type AdaptError struct {
	// Line is the 1-based line of the records file.
	Line int `json:"line"`
	// ID identifies the record when it could be read.
	ID string `json:"id"`
	// QuestionType is the record's type when it could be read.
	QuestionType string `json:"question_type"`
	// Err says what could not be mapped.
	Err string `json:"error"`
}

// AdaptResult is the outcome of adapting a canonical records file.
type AdaptResult struct {
	// Records are the adapted, validated records in file order.
	Records []workers.Record `json:"-"`
	// TrajectoryGroups maps record id to trajectory_content_group_id.
	TrajectoryGroups map[string]string `json:"-"`
	// Lines is the number of non-blank lines read.
	Lines int `json:"lines"`
	// Unmapped lists canonical fields that were not mapped, sorted.
	Unmapped []UnmappedField `json:"unmapped"`
	// Derived lists fields filled by a documented rule.
	Derived []DerivedField `json:"derived"`
	// Errors lists records that could not be adapted.
	Errors []AdaptError `json:"errors"`
	// AnswerRefs counts the answer references seen (answer_ref fields
	// and Terminate/FinalAnswer steps).
	AnswerRefs map[string]int `json:"answer_refs"`
	// GeneratedArtifactLocators counts generated-artifact:// strings
	// anywhere in the records (provenance and teacher evidence).
	GeneratedArtifactLocators int `json:"generated_artifact_locators"`
	// ReferenceArtifacts maps record id to the replay products its
	// canonical record pins: any object, at any depth, holding a
	// generated-artifact:// locator and a 64-hex sha256.
	ReferenceArtifacts map[string][]ReferenceArtifact `json:"-"`
	// ReferenceArtifactCount counts them over all records.
	ReferenceArtifactCount int `json:"reference_artifacts"`
}

// ReferenceArtifact is a replay product the release pins by digest.
type ReferenceArtifact struct {
	// Locator is the generated-artifact:// locator.
	Locator string `json:"locator"`
	// Name is the locator's last path element, matched against the name
	// of the artifact our replay writes.
	Name string `json:"name"`
	// SHA256 is the pinned digest.
	SHA256 string `json:"sha256"`
}

// referenceArtifacts finds the pinned replay products in a record.
func referenceArtifacts(b []byte) []ReferenceArtifact {
	if !bytes.Contains(b, []byte(GeneratedArtifactScheme)) {
		return nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	var out []ReferenceArtifact
	digestObjects(v, func(obj map[string]any, sum string) {
		for _, k := range workers.SortedKeys(obj) {
			if loc, ok := obj[k].(string); ok && strings.HasPrefix(loc, GeneratedArtifactScheme) {
				name := loc[strings.LastIndexByte(loc, '/')+1:]
				out = append(out, ReferenceArtifact{Locator: loc, Name: name, SHA256: sum})
				break
			}
		}
	})
	slices.SortFunc(out, func(a, b ReferenceArtifact) int { return strings.Compare(a.Locator, b.Locator) })
	return out
}

// adaptState accumulates per-field counts while adapting.
type adaptState struct {
	unmapped map[string]*UnmappedField
	derived  map[string]*DerivedField
}

func (st *adaptState) miss(field, id string) {
	entry(st.unmapped, field, func() *UnmappedField { return &UnmappedField{Field: field, FirstID: id} }).Records++
}

func (st *adaptState) derive(field, rule string) {
	entry(st.derived, field, func() *DerivedField { return &DerivedField{Field: field, Rule: rule} }).Records++
}

// entry returns m's entry for field, made by first when field is new.
func entry[T any](m map[string]*T, field string, first func() *T) *T {
	e := m[field]
	if e == nil {
		e = first()
		m[field] = e
	}
	return e
}

// byField returns m's entries in the order of their fields.
func byField[T any](m map[string]*T) []T {
	out := make([]T, 0, len(m))
	for _, field := range slices.Sorted(maps.Keys(m)) {
		out = append(out, *m[field])
	}
	return out
}

// Adapt reads canonical records JSONL and maps each line to workers.Record
// by MappingTable. A record in the engine's own format passes unchanged.
// Records that cannot be mapped are listed in Errors (never dropped
// silently); fields that are not in the table are listed in Unmapped. Only
// an unreadable stream is an error.
func Adapt(r io.Reader) (*AdaptResult, error) {
	res := &AdaptResult{TrajectoryGroups: map[string]string{}, AnswerRefs: map[string]int{}, Errors: []AdaptError{}, ReferenceArtifacts: map[string][]ReferenceArtifact{}}
	st := &adaptState{unmapped: map[string]*UnmappedField{}, derived: map[string]*DerivedField{}}
	seen := map[string]int{}
	err := jsonl.Scan(r, func(line int, b []byte) error {
		res.Lines++
		res.GeneratedArtifactLocators += bytes.Count(b, []byte(GeneratedArtifactScheme))
		rec, tg, err := adaptLine(b, st, res)
		if err == nil {
			if prev, dup := seen[rec.ID]; dup {
				err = fmt.Errorf("duplicate id (first on line %d)", prev)
			}
		}
		if err != nil {
			res.Errors = append(res.Errors, AdaptError{Line: line, ID: rec.ID, QuestionType: rec.QuestionType, Err: err.Error()})
			return nil
		}
		seen[rec.ID] = line
		if refs := referenceArtifacts(b); len(refs) > 0 {
			res.ReferenceArtifacts[rec.ID] = refs
			res.ReferenceArtifactCount += len(refs)
		}
		if tg != "" {
			res.TrajectoryGroups[rec.ID] = tg
		}
		res.Records = append(res.Records, rec)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("adapt: reading records: %w", err)
	}
	res.Unmapped, res.Derived = byField(st.unmapped), byField(st.derived)
	return res, nil
}

// adaptLine maps one canonical record. It returns the record (with at
// least ID and QuestionType when known, for error reports) and its
// trajectory_content_group_id.
func adaptLine(b []byte, st *adaptState, res *AdaptResult) (workers.Record, string, error) {
	var rec workers.Record
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return rec, "", fmt.Errorf("not a JSON object: %w", err)
	}
	str := func(key string) (string, error) {
		raw, ok := obj[key]
		if !ok || string(raw) == "null" {
			return "", nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("field %q: not a string", key)
		}
		return s, nil
	}
	var err error
	if rec.ID, err = str("id"); err != nil {
		return rec, "", err
	}
	if rec.ID == "" {
		return rec, "", fmt.Errorf("field \"id\": missing")
	}
	if rec.QuestionType, err = str("question_type"); err != nil {
		return rec, "", err
	}
	for key, dst := range map[string]*string{"sample_id": &rec.SampleID, "family": &rec.Family, "split": &rec.Split, "split_group_id": &rec.SplitGroupID, "question": &rec.Question} {
		if *dst, err = str(key); err != nil {
			return rec, "", err
		}
	}
	tg, err := str("trajectory_content_group_id")
	if err != nil {
		return rec, "", err
	}
	if rec.Family == "" {
		if qt, ok := workers.LookupQuestionType(rec.QuestionType); ok {
			rec.Family = string(qt.Family)
			st.derive("family", "from question_type through the 43-type table")
		}
	}
	if raw, ok := obj["training_weight"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &rec.TrainingWeight); err != nil {
			return rec, "", fmt.Errorf("field \"training_weight\": not a number")
		}
	}
	if raw, ok := obj["handles"]; ok {
		h, err := adaptHandles(raw, rec.ID, st)
		if err != nil {
			return rec, "", fmt.Errorf("field \"handles\": %w", err)
		}
		rec.Handles = h
	}
	if raw, ok := obj["gt_chain"]; ok {
		chain, err := adaptChain(raw, rec.ID, st)
		if err != nil {
			return rec, "", fmt.Errorf("field \"gt_chain\": %w", err)
		}
		rec.GTChain = chain
	}
	if raw, ok := obj["tool_sequence"]; ok {
		if err := checkToolSequence(raw, rec.GTChain); err != nil {
			return rec, "", fmt.Errorf("field \"tool_sequence\": %w", err)
		}
	}
	for _, s := range rec.GTChain {
		if s.Tool == runtime.ToolTerminate || s.Tool == runtime.ToolFinalAnswer {
			ref, _ := s.Args["answer_ref"].(string)
			res.AnswerRefs[ref]++
			if ref != AnswerRef {
				return rec, "", fmt.Errorf("%s step references %q, want %s", s.Tool, ref, AnswerRef)
			}
		}
	}
	for _, key := range []string{"answer_ref", "final_answer_ref"} {
		ref, err := str(key)
		if err != nil {
			return rec, "", err
		}
		if _, present := obj[key]; present {
			res.AnswerRefs[ref]++
			if ref != AnswerRef {
				return rec, "", fmt.Errorf("field %q is %q, want %s", key, ref, AnswerRef)
			}
		}
	}
	if raw, ok := obj["answer"]; ok {
		rec.Answer = raw
	} else if raw, ok := obj["expected_answer"]; ok {
		rec.Answer = raw
		st.derive("answer", "from expected_answer")
	}
	if raw, ok := obj["provenance"]; ok {
		rec.Provenance = raw
	}
	known := map[string]bool{}
	for _, m := range MappingTable() {
		key, _, _ := strings.Cut(m.Canonical, ".")
		key, _, _ = strings.Cut(key, "[")
		known[key] = true
	}
	for key := range obj {
		if !known[key] {
			st.miss(key, rec.ID)
		}
	}
	if err := rec.Validate(true); err != nil {
		return rec, tg, err
	}
	return rec, tg, nil
}

// isCardKey reports whether k is a file-card field workers.Record
// understands.
func isCardKey(k string) bool {
	switch k {
	case "path", "sha256", "date", "temporal_role", "epoch", "band_names", "meta":
		return true
	}
	return false
}

func adaptHandles(raw json.RawMessage, id string, st *adaptState) (map[string]workers.HandleDecl, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("not an object of handles: %w", err)
	}
	out := make(map[string]workers.HandleDecl, len(m))
	for name, hraw := range m {
		var decl workers.HandleDecl
		var filesRaw json.RawMessage
		switch t := firstByte(hraw); t {
		case '[', '"':
			filesRaw = hraw
		case '{':
			var ho map[string]json.RawMessage
			if err := json.Unmarshal(hraw, &ho); err != nil {
				return nil, fmt.Errorf("handle %s: %w", name, err)
			}
			_, hasFiles := ho["files"]
			_, hasPaths := ho["paths"]
			_, hasPath := ho["path"]
			switch {
			case hasFiles || hasPaths || (!hasPath && ho["kind"] != nil):
				for k, v := range ho {
					switch k {
					case "kind":
						if err := json.Unmarshal(v, &decl.Kind); err != nil {
							return nil, fmt.Errorf("handle %s: kind: %w", name, err)
						}
					case "files", "paths":
						filesRaw = v
					default:
						st.miss("handles.*."+k, id)
					}
				}
			default:
				filesRaw = json.RawMessage("[" + string(hraw) + "]")
			}
		default:
			return nil, fmt.Errorf("handle %s: want an object, a list of files or a path", name)
		}
		if decl.Kind == "" {
			decl.Kind = workers.KindInput
			if strings.HasPrefix(name, "question") {
				decl.Kind = workers.KindQuestion
			}
			st.derive("handles.*.kind", "question for names starting with \"question\", otherwise input")
		}
		files, err := adaptFiles(filesRaw, id, st)
		if err != nil {
			return nil, fmt.Errorf("handle %s: %w", name, err)
		}
		decl.Files = files
		out[name] = decl
	}
	return out, nil
}

func firstByte(b json.RawMessage) byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func adaptFiles(raw json.RawMessage, id string, st *adaptState) ([]workers.FileCard, error) {
	if firstByte(raw) == '"' {
		raw = json.RawMessage("[" + string(raw) + "]")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("files: want a list: %w", err)
	}
	var out []workers.FileCard
	for i, it := range items {
		var card workers.FileCard
		switch firstByte(it) {
		case '"':
			if err := json.Unmarshal(it, &card.Path); err != nil {
				return nil, fmt.Errorf("files[%d]: %w", i, err)
			}
		case '{':
			var co map[string]json.RawMessage
			if err := json.Unmarshal(it, &co); err != nil {
				return nil, fmt.Errorf("files[%d]: %w", i, err)
			}
			keep := map[string]json.RawMessage{}
			for k, v := range co {
				if isCardKey(k) {
					keep[k] = v
				} else {
					st.miss("handles.*.files[]."+k, id)
				}
			}
			kb, _ := json.Marshal(keep)
			if err := json.Unmarshal(kb, &card); err != nil {
				return nil, fmt.Errorf("files[%d]: %w", i, err)
			}
		default:
			return nil, fmt.Errorf("files[%d]: want a path or a file card", i)
		}
		if strings.HasPrefix(card.Path, GeneratedArtifactScheme) {
			return nil, fmt.Errorf("files[%d]: %s is a logical locator of a non-distributed replay product, not a readable input", i, card.Path)
		}
		out = append(out, card)
	}
	return out, nil
}

func adaptChain(raw json.RawMessage, id string, st *adaptState) ([]workers.Step, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("want a list of steps: %w", err)
	}
	out := make([]workers.Step, 0, len(items))
	for i, it := range items {
		var step workers.Step
		switch firstByte(it) {
		case '"':
			var s string
			if err := json.Unmarshal(it, &s); err != nil {
				return nil, fmt.Errorf("step %d: %w", i+1, err)
			}
			tool, args, err := ParseCall(s)
			if err != nil {
				return nil, fmt.Errorf("step %d: %w", i+1, err)
			}
			step = workers.Step{Tool: tool, Args: args}
		case '{':
			var so map[string]json.RawMessage
			if err := json.Unmarshal(it, &so); err != nil {
				return nil, fmt.Errorf("step %d: %w", i+1, err)
			}
			for k, v := range so {
				var err error
				switch k {
				case "tool":
					err = json.Unmarshal(v, &step.Tool)
				case "args":
					err = json.Unmarshal(v, &step.Args)
				case "output":
					err = json.Unmarshal(v, &step.Output)
				default:
					st.miss("gt_chain[]."+k, id)
				}
				if err != nil {
					return nil, fmt.Errorf("step %d: %s: %w", i+1, k, err)
				}
			}
			if step.Args == nil {
				step.Args = map[string]any{}
			}
		default:
			return nil, fmt.Errorf("step %d: want an object or a call string", i+1)
		}
		out = append(out, step)
	}
	return out, nil
}

// checkToolSequence cross-checks a tool_sequence (names, or objects with a
// tool/name member) against the GT chain.
func checkToolSequence(raw json.RawMessage, chain []workers.Step) error {
	var items []any
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("want a list: %w", err)
	}
	if len(chain) == 0 {
		return fmt.Errorf("a tool sequence without gt_chain arguments cannot be replayed")
	}
	names := make([]string, 0, len(items))
	for _, it := range items {
		switch v := it.(type) {
		case string:
			if i := strings.IndexByte(v, '('); i > 0 {
				v = v[:i]
			}
			names = append(names, strings.TrimSpace(v))
		case map[string]any:
			n, _ := v["tool"].(string)
			if n == "" {
				n, _ = v["name"].(string)
			}
			names = append(names, n)
		default:
			return fmt.Errorf("unreadable entry %v", it)
		}
	}
	if len(names) != len(chain) {
		return fmt.Errorf("%d tools, gt_chain has %d steps", len(names), len(chain))
	}
	for i, n := range names {
		if n != chain[i].Tool {
			return fmt.Errorf("entry %d is %q, gt_chain step %d is %q", i+1, n, i+1, chain[i].Tool)
		}
	}
	return nil
}
