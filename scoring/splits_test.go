package scoring

import (
	"fmt"
	"strings"
	"testing"
)

// synthRecord renders one canonical-format record line.
func synthRecord(id, split, family, qtype, sample, question, path string, weight float64) string {
	return fmt.Sprintf(`{"id":%q,"sample_id":%q,"family":%q,"question_type":%q,"split":%q,"split_group_id":%q,"training_weight":%v,`+
		`"question":%q,"handles":{"question_1":{"kind":"question","files":[{"path":"questions/%s/%s.json"}]},"in_1":{"kind":"input","files":[{"path":%q,"sha256":"%064x"}]}},`+
		`"gt_chain":[{"tool":"ReadData","args":{"question":"question_1","handle":"in_1"},"output":"scene_1"},{"tool":"TaskComplete","args":{"status":"TASK_COMPLETE"}}],"answer":{"v":1}}`,
		id, sample, family, qtype, split, family+"/"+sample, weight, question, qtype, sample, path, len(path))
}

// cleanCorpus is a small isolated corpus: two train records that are exact
// trajectory duplicates (same question over different samples, weight 1/2),
// one other train record and two test records.
func cleanCorpus() []string {
	return []string{
		synthRecord("a1", "train", "xbd", "xbd_q1", "s1", "How many buildings?", "source_assets/xbd/s1/post.tif", 0.5),
		synthRecord("a2", "train", "xbd", "xbd_q1", "s2", "How many buildings?", "source_assets/xbd/s2/post.tif", 0.5),
		synthRecord("a3", "train", "routing", "nearest_shelter", "r1", "Nearest shelter from A?", "source_assets/routing/r1/net.geojson", 1),
		synthRecord("b1", "test", "xbd", "xbd_q1", "s3", "How many buildings destroyed?", "source_assets/xbd/s3/post.tif", 1),
		synthRecord("b2", "test", "routing", "nearest_shelter", "r2", "Nearest shelter from B?", "source_assets/routing/r2/net.geojson", 1),
	}
}

func auditLines(t *testing.T, lines []string) *SplitAudit {
	t.Helper()
	recs, err := ReadSplitRecords(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return AuditSplits(recs)
}

func TestAuditSplitsCleanCorpus(t *testing.T) {
	a := auditLines(t, cleanCorpus())
	if !a.OK || len(a.Leaks) != 0 || len(a.WeightIssues) != 0 {
		t.Fatalf("clean corpus flagged: leaks %+v weights %+v", a.Leaks, a.WeightIssues)
	}
	if a.BySplit["train"] != 3 || a.BySplit["test"] != 2 {
		t.Errorf("by split %v", a.BySplit)
	}
	if a.DuplicateGroups != 1 || a.DuplicateRecords != 2 {
		t.Errorf("duplicate groups %d records %d, want 1 and 2", a.DuplicateGroups, a.DuplicateRecords)
	}
}

func TestAuditSplitsFlagsLeaks(t *testing.T) {
	base := cleanCorpus()
	cases := []struct {
		name string
		leak string
		kind string
	}{
		// Same sample (and so the same split group and paths) in test.
		{"leaked sample", synthRecord("x1", "test", "xbd", "xbd_q2", "s1", "Which class dominates?", "source_assets/xbd/s1/post.tif", 1), KeySample},
		// A different sample that declares a train record's file.
		{"shared path", synthRecord("x2", "test", "xbd", "xbd_q3", "s9", "Which class dominates?", "source_assets/xbd/s2/post.tif", 1), KeyDeclaredPath},
		// A path-renamed copy of the train routing record.
		// (same question, chain, answer and input content; new paths).
		{"renamed routing copy", strings.ReplaceAll(synthRecord("x3", "test", "routing", "nearest_shelter", "r7", "Nearest shelter from A?", "source_assets/routing/r7/netX.geojson", 1),
			fmt.Sprintf("%064x", len("source_assets/routing/r7/netX.geojson")), fmt.Sprintf("%064x", len("source_assets/routing/r1/net.geojson"))), KeyRoutingContent},
		// The same episode as a train record over a new sample.
		{"trajectory duplicate", synthRecord("x4", "test", "xbd", "xbd_q1", "s8", "How many buildings?", "source_assets/xbd/s8/post.tif", 1), KeyTrajectory},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := auditLines(t, append(append([]string{}, base...), tc.leak))
			if a.OK {
				t.Fatal("leak not detected")
			}
			if a.LeakCounts[tc.kind] == 0 {
				t.Fatalf("no %s leak; counts %v", tc.kind, a.LeakCounts)
			}
			for _, l := range a.Leaks {
				if l.Kind == tc.kind && len(l.IDs["test"]) == 1 && l.IDs["test"][0] == tc.leak[7:9] { // the leaked record's id
					return
				}
			}
			t.Errorf("%s leak does not name the leaked record: %+v", tc.kind, a.Leaks)
		})
	}
}

func TestAuditSplitsTrainingWeight(t *testing.T) {
	lines := cleanCorpus()
	// a2 claims weight 1 although it duplicates a1's trajectory.
	lines[1] = strings.Replace(lines[1], `"training_weight":0.5`, `"training_weight":1`, 1)
	// b1 has no weight at all.
	lines[3] = strings.Replace(lines[3], `"training_weight":1,`, ``, 1)
	a := auditLines(t, lines)
	if a.OK || len(a.Leaks) != 0 {
		t.Fatalf("ok %v leaks %+v", a.OK, a.Leaks)
	}
	got := map[string]WeightIssue{}
	for _, w := range a.WeightIssues {
		got[w.ID] = w
	}
	if len(got) != 2 || got["a2"].Want != 0.5 || got["a2"].Multiplicity != 2 || got["b1"].Weight != nil {
		t.Errorf("weight issues %+v", a.WeightIssues)
	}
}

func TestReadSplitRecordsErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"no split":     `{"id":"a"}`,
		"no id":        `{"split":"train"}`,
		"bad weight":   `{"id":"a","split":"train","training_weight":"1"}`,
		"duplicate id": "{\"id\":\"a\",\"split\":\"train\"}\n{\"id\":\"a\",\"split\":\"test\"}",
		"malformed":    `{"id":`,
	} {
		if _, err := ReadSplitRecords(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestAuditSplitsTrajectoryNeedsSameAnswer(t *testing.T) {
	// Same question and chain over a new sample, but a different answer:
	// the tool observations differ, so it is not the same episode.
	other := strings.Replace(synthRecord("x5", "test", "xbd", "xbd_q1", "s8", "How many buildings?", "source_assets/xbd/s8/post.tif", 1),
		`"answer":{"v":1}`, `"answer":{"v":2}`, 1)
	a := auditLines(t, append(cleanCorpus(), other))
	if !a.OK {
		t.Errorf("different-answer episode flagged: leaks %+v weights %+v", a.Leaks, a.WeightIssues)
	}
}
