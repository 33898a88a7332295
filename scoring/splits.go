package scoring

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
)

// Kinds of split-isolation keys (spec sections 2 and 6). A key of any kind
// shared by records of two different splits is a leak.
const (
	// KeySplitGroup is the record's declared split_group_id.
	KeySplitGroup = "split_group_id"
	// KeySample is family/sample_id: records connected by a source sample
	// stay in one split.
	KeySample = "sample"
	// KeyDeclaredPath is a file path declared by any handle of the record.
	KeyDeclaredPath = "declared_path"
	// KeyRoutingContent is the normalized analytical-content fingerprint of
	// a routing record, invariant to path renaming.
	KeyRoutingContent = "routing_content"
	// KeyTrajectory is the complete model-visible trajectory fingerprint,
	// computed without identity metadata, so it matches across samples.
	KeyTrajectory = "trajectory"
	// KeyTrajectoryGroup is the record's declared trajectory_content_group_id.
	KeyTrajectoryGroup = "trajectory_content_group_id"
)

// SplitRecord is what the split audit needs from one canonical record.
type SplitRecord struct {
	ID     string
	Split  string
	Family string
	// Keys maps each key kind to the record's keys of that kind.
	Keys map[string][]string
	// TrainingWeight is nil when the record has no training_weight.
	TrainingWeight *float64
	// Line is the 1-based line in the records file.
	Line int
	// trajectories is set by WithEpisodes.
	trajectories string
}

// ReadSplitRecords reads canonical records JSONL for the split audit. Each
// line needs a string id and split; the keys are computed as follows:
//
//   - split_group_id, trajectory_content_group_id: the declared fields,
//     when present;
//   - sample: family + "/" + sample_id, when sample_id is present;
//   - declared_path: every handles.*.files[*].path, cleaned
//     (path.Clean, no leading "./");
//   - routing_content (family routing only): SHA-256 of the canonical JSON
//     of question_type, the question text (lowercased, whitespace
//     collapsed), the gt_chain, the answer and, per handle name, its kind
//     and its files' sha256 values, but no paths, so a path-renamed copy
//     has the same fingerprint;
//   - trajectory: SHA-256 of the canonical JSON of messages and
//     tool_sequence when the record carries them, else of a proxy for the
//     model-visible episode: the question text, per handle its kind and
//     its files' sha256 values, gt_chain, and the answer (standing in for
//     the tool observations computed from those files); ids, sample ids,
//     paths and split metadata are excluded, so identical episodes over
//     path-renamed copies share it. WithEpisodes replaces it by the exact
//     fingerprint of each record's single-agent episode.
//
// Canonical JSON sorts object keys and keeps numbers as written.
func ReadSplitRecords(r io.Reader) ([]SplitRecord, error) {
	var out []SplitRecord
	seen := map[string]int{}
	err := eachObject(r, "records", func(obj map[string]any, n int) error {
		rec, err := splitRecord(obj)
		if err != nil {
			return &InputError{"records", n, err}
		}
		if first, dup := seen[rec.ID]; dup {
			return &InputError{"records", n, fmt.Errorf("duplicate id %s (first on line %d)", rec.ID, first)}
		}
		seen[rec.ID] = n
		rec.Line = n
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func splitRecord(obj map[string]any) (SplitRecord, error) {
	var rec SplitRecord
	var ok bool
	if rec.ID, ok = obj["id"].(string); !ok || rec.ID == "" {
		return rec, errors.New("missing or non-string id")
	}
	if rec.Split, ok = obj["split"].(string); !ok || rec.Split == "" {
		return rec, fmt.Errorf("record %s: missing or non-string split", rec.ID)
	}
	rec.Family, _ = obj["family"].(string)
	rec.Keys = map[string][]string{}
	if s, ok := obj[KeySplitGroup].(string); ok && s != "" {
		rec.Keys[KeySplitGroup] = []string{s}
	}
	if s, ok := obj[KeyTrajectoryGroup].(string); ok && s != "" {
		rec.Keys[KeyTrajectoryGroup] = []string{s}
	}
	if s, ok := obj["sample_id"].(string); ok && s != "" {
		rec.Keys[KeySample] = []string{rec.Family + "/" + s}
	}
	if w, present := obj["training_weight"]; present && w != nil {
		k, f, fin := classify(w)
		if k != kNumber || !fin {
			return rec, fmt.Errorf("record %s: training_weight %s is not a finite number", rec.ID, describe(w))
		}
		rec.TrainingWeight = &f
	}
	handles, _ := obj["handles"].(map[string]any)
	names := slices.Sorted(maps.Keys(handles))
	paths := map[string]bool{}
	handleContent := map[string]any{}
	for _, name := range names {
		h, _ := handles[name].(map[string]any)
		kindName, _ := h["kind"].(string)
		var sums []any
		files, _ := h["files"].([]any)
		for _, f := range files {
			fm, _ := f.(map[string]any)
			if p, ok := fm["path"].(string); ok && p != "" {
				paths[cleanDeclaredPath(p)] = true
			}
			sum, _ := fm["sha256"].(string)
			sums = append(sums, strings.ToLower(sum))
		}
		handleContent[name] = map[string]any{"kind": kindName, "sha256": sums}
	}
	for p := range paths {
		rec.Keys[KeyDeclaredPath] = append(rec.Keys[KeyDeclaredPath], p)
	}
	sort.Strings(rec.Keys[KeyDeclaredPath])

	question, _ := obj["question"].(string)
	question = strings.Join(strings.Fields(strings.ToLower(question)), " ")
	if rec.Family == "routing" {
		rec.Keys[KeyRoutingContent] = []string{fingerprint(map[string]any{
			"question_type": obj["question_type"],
			"question":      question,
			"gt_chain":      obj["gt_chain"],
			"answer":        obj["answer"],
			"inputs":        handleContent,
		})}
	}
	_, hasMsgs := obj["messages"]
	_, hasSeq := obj["tool_sequence"]
	if hasMsgs || hasSeq {
		sample, _ := obj["sample_id"].(string)
		r := identityReplacer(rec.ID, sample)
		rec.Keys[KeyTrajectory] = []string{fingerprint(map[string]any{
			"messages": withoutIdentity(obj["messages"], r), "tool_sequence": withoutIdentity(obj["tool_sequence"], r),
		})}
	} else {
		rec.Keys[KeyTrajectory] = []string{fingerprint(map[string]any{
			"question": obj["question"], "inputs": handleContent, "gt_chain": obj["gt_chain"], "answer": obj["answer"],
		})}
	}
	return rec, nil
}

func cleanDeclaredPath(p string) string {
	return strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, "\\", "/")), "./")
}

// fingerprint is the hex SHA-256 of v's canonical JSON. Values come from
// DecodeJSON, whose NonFinite strings marshal as JSON strings.
func fingerprint(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		// Decoded JSON always marshals; keep the fingerprint total anyway.
		b = []byte(fmt.Sprintf("%#v", v))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Leak is one isolation key shared across splits.
type Leak struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	// IDs maps each split to the ids of its records holding the key.
	IDs map[string][]string `json:"ids"`
}

// WeightIssue is a record whose training_weight is not the inverse
// multiplicity of its complete-trajectory group within its split.
type WeightIssue struct {
	ID           string   `json:"id"`
	Split        string   `json:"split"`
	Weight       *float64 `json:"training_weight"` // nil when absent
	Want         float64  `json:"want"`
	Multiplicity int      `json:"multiplicity"`
}

// SplitAudit is the result of AuditSplits.
type SplitAudit struct {
	// Contract is SplitContract.
	Contract string `json:"contract"`
	// Trajectories says where the trajectory keys come from: the
	// records' own messages (or the content proxy), or the single-agent
	// episodes (WithEpisodes).
	Trajectories string         `json:"trajectories"`
	Records      int            `json:"records"`
	BySplit      map[string]int `json:"by_split"`
	// Groups gives, per group kind of the contract, the connected groups
	// of records and how many of them cross the split.
	Groups map[string]GroupStats `json:"groups"`
	// CrossSplitGroups lists the groups with records in more than one
	// split, sorted by kind and first id.
	CrossSplitGroups []CrossSplitGroup `json:"cross_split_groups"`
	// GroupIssues are declared trajectory_content_group_id values that do
	// not partition the records as their trajectory fingerprints do.
	GroupIssues []GroupIssue `json:"group_issues"`
	// Keys counts the distinct keys of each kind.
	Keys map[string]int `json:"keys"`
	// LeakCounts counts the cross-split keys of each kind (0 entries
	// included for every kind checked).
	LeakCounts map[string]int `json:"leak_counts"`
	Leaks      []Leak         `json:"leaks"`
	// DuplicateGroups and DuplicateRecords count within-split complete
	// trajectory groups with more than one record, and their records.
	DuplicateGroups  int           `json:"duplicate_trajectory_groups"`
	DuplicateRecords int           `json:"duplicate_trajectory_records"`
	WeightIssues     []WeightIssue `json:"weight_issues"`
	// OK is true when there are no leaks, cross-split groups, group
	// issues or weight issues.
	OK bool `json:"ok"`
}

// weightTol is the tolerance of the training_weight check.
const weightTol = 1e-9

// AuditSplits checks split isolation: no key of any kind is shared by
// records of different splits, and every record's training_weight equals
// 1/m where m is the number of records of its split with the same
// complete-trajectory fingerprint (within 1e-9; a missing weight is an
// issue). Leaks are sorted by kind and key.
func AuditSplits(recs []SplitRecord) *SplitAudit {
	a := &SplitAudit{Contract: SplitContract, Trajectories: TrajectoriesFromRecords, Records: len(recs), BySplit: map[string]int{}, Keys: map[string]int{}, LeakCounts: map[string]int{}, Leaks: []Leak{}, WeightIssues: []WeightIssue{}}
	for _, r := range recs {
		if r.trajectories != "" {
			a.Trajectories = r.trajectories
			break
		}
	}
	// kind -> key -> split -> ids
	index := map[string]map[string]map[string][]string{}
	for _, kind := range []string{KeySplitGroup, KeySample, KeyDeclaredPath, KeyRoutingContent, KeyTrajectory, KeyTrajectoryGroup} {
		index[kind] = map[string]map[string][]string{}
		a.LeakCounts[kind] = 0
	}
	for _, r := range recs {
		a.BySplit[r.Split]++
		for kind, keys := range r.Keys {
			if index[kind] == nil {
				index[kind] = map[string]map[string][]string{}
				a.LeakCounts[kind] = 0
			}
			for _, k := range keys {
				if index[kind][k] == nil {
					index[kind][k] = map[string][]string{}
				}
				index[kind][k][r.Split] = append(index[kind][k][r.Split], r.ID)
			}
		}
	}
	for kind, keys := range index {
		a.Keys[kind] = len(keys)
		for key, bySplit := range keys {
			if len(bySplit) > 1 {
				a.Leaks = append(a.Leaks, Leak{Kind: kind, Key: key, IDs: bySplit})
				a.LeakCounts[kind]++
			}
		}
	}
	sort.Slice(a.Leaks, func(i, j int) bool {
		if a.Leaks[i].Kind != a.Leaks[j].Kind {
			return a.Leaks[i].Kind < a.Leaks[j].Kind
		}
		return a.Leaks[i].Key < a.Leaks[j].Key
	})
	for _, r := range recs {
		var m int
		for _, fp := range r.Keys[KeyTrajectory] {
			m = len(index[KeyTrajectory][fp][r.Split])
		}
		if m == 0 {
			m = 1
		}
		want := 1 / float64(m)
		if r.TrainingWeight == nil || math.Abs(*r.TrainingWeight-want) > weightTol {
			a.WeightIssues = append(a.WeightIssues, WeightIssue{ID: r.ID, Split: r.Split, Weight: r.TrainingWeight, Want: want, Multiplicity: m})
		}
	}
	for _, bySplit := range index[KeyTrajectory] {
		for _, ids := range bySplit {
			if len(ids) > 1 {
				a.DuplicateGroups++
				a.DuplicateRecords += len(ids)
			}
		}
	}
	a.Groups, a.CrossSplitGroups = groupRecords(recs)
	a.GroupIssues = trajectoryGroupIssues(recs)
	a.OK = len(a.Leaks) == 0 && len(a.WeightIssues) == 0 && len(a.CrossSplitGroups) == 0 && len(a.GroupIssues) == 0
	return a
}
