package scoring

import (
	"fmt"
	"io"
	"math"
	"sort"
)

// SplitContract names the split contract AuditSplits checks (spec
// section 6).
const SplitContract = "geodisaster_source_path_trajectory_grouped_split_v4_20261015"

// Where a SplitAudit's trajectory keys come from.
const (
	// TrajectoriesFromRecords: the records' own messages and
	// tool_sequence, or else the content proxy (see ReadSplitRecords).
	TrajectoriesFromRecords = "records"
	// TrajectoriesFromEpisodes: the exact single-agent episodes.
	TrajectoriesFromEpisodes = "single_agent_episodes"
)

// Group kinds of the v4 split contract: records connected by any key of a
// kind form one group, and no group may hold records of two splits.
const (
	// GroupSource connects records sharing a split_group_id, a source
	// sample or a declared input path.
	GroupSource = "source"
	// GroupRoutingContent connects routing records with the same
	// normalized analytical content (path-renamed copies).
	GroupRoutingContent = "routing_content"
	// GroupTrajectory connects records with the same complete
	// model-visible single-agent episode (the trajectory fingerprint or a
	// declared trajectory_content_group_id).
	GroupTrajectory = "trajectory_content"
	// GroupSplitComponent connects records by any of the kinds above: the
	// unit the split routes whole.
	GroupSplitComponent = "split_component"
)

// groupKinds maps each group kind to the key kinds that connect it.
var groupKinds = []struct {
	kind string
	keys []string
}{
	{GroupSource, []string{KeySplitGroup, KeySample, KeyDeclaredPath}},
	{GroupRoutingContent, []string{KeyRoutingContent}},
	{GroupTrajectory, []string{KeyTrajectory, KeyTrajectoryGroup}},
	{GroupSplitComponent, []string{KeySplitGroup, KeySample, KeyDeclaredPath, KeyRoutingContent, KeyTrajectory, KeyTrajectoryGroup}},
}

// GroupStats counts the groups of one kind.
type GroupStats struct {
	// Groups counts the connected groups (a record alone is a group).
	Groups int `json:"groups"`
	// MultiRecordGroups counts groups of more than one record and
	// RecordsInMulti their records.
	MultiRecordGroups int `json:"multi_record_groups"`
	RecordsInMulti    int `json:"records_in_multi_record_groups"`
	// CrossSplit counts groups with records in more than one split.
	CrossSplit int `json:"cross_split"`
}

// CrossSplitGroup is a group with records in more than one split.
type CrossSplitGroup struct {
	Kind string `json:"kind"`
	// IDs maps each split to its records in the group.
	IDs map[string][]string `json:"ids"`
}

// groupRecords forms the groups of every kind.
func groupRecords(recs []SplitRecord) (map[string]GroupStats, []CrossSplitGroup) {
	stats := map[string]GroupStats{}
	cross := []CrossSplitGroup{}
	for _, gk := range groupKinds {
		uf := newUnionFind(len(recs))
		first := map[string]int{} // kind+key -> first record
		for i, r := range recs {
			for _, k := range gk.keys {
				for _, key := range r.Keys[k] {
					id := k + "\x00" + key
					if j, ok := first[id]; ok {
						uf.union(i, j)
					} else {
						first[id] = i
					}
				}
			}
		}
		members := map[int][]int{}
		for i := range recs {
			root := uf.find(i)
			members[root] = append(members[root], i)
		}
		var st GroupStats
		for _, m := range members {
			st.Groups++
			if len(m) > 1 {
				st.MultiRecordGroups++
				st.RecordsInMulti += len(m)
			}
			bySplit := map[string][]string{}
			for _, i := range m {
				bySplit[recs[i].Split] = append(bySplit[recs[i].Split], recs[i].ID)
			}
			if len(bySplit) > 1 {
				st.CrossSplit++
				for _, ids := range bySplit {
					sort.Strings(ids)
				}
				cross = append(cross, CrossSplitGroup{Kind: gk.kind, IDs: bySplit})
			}
		}
		stats[gk.kind] = st
	}
	sort.Slice(cross, func(i, j int) bool {
		if cross[i].Kind != cross[j].Kind {
			return cross[i].Kind < cross[j].Kind
		}
		return firstID(cross[i].IDs) < firstID(cross[j].IDs)
	})
	return stats, cross
}

func firstID(m map[string][]string) string {
	best := ""
	for _, ids := range m {
		if len(ids) > 0 && (best == "" || ids[0] < best) {
			best = ids[0]
		}
	}
	return best
}

// GroupIssue is a declared trajectory_content_group_id that disagrees
// with the trajectory fingerprints: one declared group over different
// trajectories, or one trajectory under several declared groups.
type GroupIssue struct {
	// Declared is the declared group id ("" when the issue is one
	// trajectory under several declared ids).
	Declared string   `json:"declared,omitempty"`
	Reason   string   `json:"reason"`
	IDs      []string `json:"ids"`
}

// trajectoryGroupIssues checks that declared trajectory groups and
// trajectory fingerprints partition the records alike.
func trajectoryGroupIssues(recs []SplitRecord) []GroupIssue {
	byDeclared := map[string]map[string][]string{} // declared -> fingerprint -> ids
	byPrint := map[string]map[string][]string{}    // fingerprint -> declared -> ids
	for _, r := range recs {
		d, fp := r.Keys[KeyTrajectoryGroup], r.Keys[KeyTrajectory]
		if len(d) != 1 || len(fp) != 1 {
			continue
		}
		if byDeclared[d[0]] == nil {
			byDeclared[d[0]] = map[string][]string{}
		}
		byDeclared[d[0]][fp[0]] = append(byDeclared[d[0]][fp[0]], r.ID)
		if byPrint[fp[0]] == nil {
			byPrint[fp[0]] = map[string][]string{}
		}
		byPrint[fp[0]][d[0]] = append(byPrint[fp[0]][d[0]], r.ID)
	}
	issues := []GroupIssue{}
	for d, fps := range byDeclared {
		if len(fps) > 1 {
			issues = append(issues, GroupIssue{Declared: d, Reason: fmt.Sprintf("one declared trajectory_content_group_id over %d different trajectories", len(fps)), IDs: flatIDs(fps)})
		}
	}
	for _, ds := range byPrint {
		if len(ds) > 1 {
			issues = append(issues, GroupIssue{Reason: fmt.Sprintf("one trajectory under %d declared trajectory_content_group_id values", len(ds)), IDs: flatIDs(ds)})
		}
	}
	sort.Slice(issues, func(i, j int) bool { return issues[i].IDs[0] < issues[j].IDs[0] })
	return issues
}

func flatIDs(m map[string][]string) []string {
	var out []string
	for _, ids := range m {
		out = append(out, ids...)
	}
	sort.Strings(out)
	return out
}

// EpisodeTrajectory is what the split audit takes from one single-agent
// episode row.
type EpisodeTrajectory struct {
	ID          string
	Split       string
	Fingerprint string
	// GroupID is the row's trajectory_content_group_id ("" when absent).
	GroupID string
	// TrainingWeight is nil when the row has none.
	TrainingWeight *float64
	// File and Line locate the episode.
	File string
	Line int
}

// ReadEpisodeTrajectories reads single-agent episode JSONL (the
// projection's single_agent_episodes files; name names the input in
// errors) and fingerprints each episode with TrajectoryFingerprint.
func ReadEpisodeTrajectories(r io.Reader, name string) ([]EpisodeTrajectory, error) {
	var out []EpisodeTrajectory
	err := eachLine(r, func(line []byte, n int) error {
		fp, err := TrajectoryFingerprint(line)
		if err != nil {
			return &InputError{name, n, err}
		}
		v, _ := DecodeJSON(line)
		obj := v.(map[string]any)
		e := EpisodeTrajectory{Fingerprint: fp, Line: n}
		e.ID, _ = obj["id"].(string)
		e.Split, _ = obj["split"].(string)
		e.GroupID, _ = obj[KeyTrajectoryGroup].(string)
		if w, ok := obj["training_weight"]; ok && w != nil {
			k, f, fin := classify(w)
			if k != kNumber || !fin {
				return &InputError{name, n, fmt.Errorf("episode %s: training_weight %s is not a finite number", e.ID, describe(w))}
			}
			e.TrainingWeight = &f
		}
		out = append(out, e)
		return nil
	})
	if err := asInputError(name, err); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].File = name
	}
	return out, nil
}

// WithEpisodes makes the audit use the exact single-agent episodes: each
// record's trajectory key becomes its episode's fingerprint and its
// declared trajectory group the episode's trajectory_content_group_id. It
// fails when a record has no episode or several, when an episode has no
// record, or when an episode's split or training_weight differs from its
// record's.
func WithEpisodes(recs []SplitRecord, eps []EpisodeTrajectory) error {
	byID := map[string]*EpisodeTrajectory{}
	for i := range eps {
		e := &eps[i]
		if _, dup := byID[e.ID]; dup {
			return fmt.Errorf("%s line %d: a second episode for record %s", e.File, e.Line, e.ID)
		}
		byID[e.ID] = e
	}
	for i := range recs {
		r := &recs[i]
		e, ok := byID[r.ID]
		if !ok {
			return fmt.Errorf("record %s has no single-agent episode", r.ID)
		}
		delete(byID, r.ID)
		if e.Split != r.Split {
			return fmt.Errorf("%s line %d: record %s is in split %q, its episode in %q", e.File, e.Line, r.ID, r.Split, e.Split)
		}
		if (e.TrainingWeight == nil) != (r.TrainingWeight == nil) || (e.TrainingWeight != nil && math.Abs(*e.TrainingWeight-*r.TrainingWeight) > weightTol) {
			return fmt.Errorf("%s line %d: record %s training_weight %s, its episode %s", e.File, e.Line, r.ID, weightText(r.TrainingWeight), weightText(e.TrainingWeight))
		}
		r.Keys[KeyTrajectory] = []string{e.Fingerprint}
		if e.GroupID != "" {
			r.Keys[KeyTrajectoryGroup] = []string{e.GroupID}
		}
		r.trajectories = TrajectoriesFromEpisodes
	}
	var orphan *EpisodeTrajectory
	for _, e := range byID {
		if orphan == nil || e.File < orphan.File || e.File == orphan.File && e.Line < orphan.Line {
			orphan = e
		}
	}
	if orphan != nil {
		return fmt.Errorf("%s line %d: episode %s has no canonical record", orphan.File, orphan.Line, orphan.ID)
	}
	return nil
}

func weightText(w *float64) string {
	if w == nil {
		return "absent"
	}
	return fmt.Sprint(*w)
}

// unionFind is a disjoint-set forest over 0..n-1.
type unionFind struct{ parent []int }

func newUnionFind(n int) *unionFind {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return &unionFind{parent: p}
}

func (u *unionFind) find(i int) int {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

func (u *unionFind) union(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra != rb {
		u.parent[max(ra, rb)] = min(ra, rb)
	}
}
